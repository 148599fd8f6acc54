// Package scala is sdl's room for Scala (2 and 3): its definitions,
// references and imports come from tags.scm; this file holds what a query
// cannot say (signatures, visibility, import selectors, the types of
// receivers) and resolves through the package resolver Kotlin shares.
package scala

import (
	"cmp"
	"embed"
	"strings"

	"github.com/sdl-dev/sdl/lang/grammar"

	"github.com/sdl-dev/sdl/lang"
)

var (
	//go:embed tags.scm
	tags string
	//go:embed *.txt
	data embed.FS
)

// Extensions are the file extensions of Scala sources and scripts.
var Extensions = []string{".scala", ".sc"}

func init() {
	lang.Register(lang.Spec{
		Name:       "scala",
		Extensions: Extensions,
		Grammar:    grammar.Scala(),
		Query:      tags,
		QueryFile:  "lang/scala/tags.scm",
		Comments:   []string{"comment", "block_comment"},
		Strings:    []string{"string", "interpolated_string_expression"},
		Idents:     []string{"identifier", "type_identifier", "operator_identifier"},
		Builtins:   lang.WordFile(data, "builtins.txt"),
		TestFiles:  []string{"*Test.scala", "*Tests.scala", "*Spec.scala", "*Suite.scala"},
		TestDirs:   []string{"test", "tests"},
		Symbol:     symbol,
		Ref:        ref,
		Import:     imports,
		Fixup:      fixup,
		Module:     module,
		Resolver: lang.NewPackageResolver("scala", Extensions, lang.PackageRules{
			Self: "this", Std: lang.WordList(data, "std.txt"), Common: lang.WordList(data, "common.txt"), Explicit: true, StripType: stripType,
		}),
		Skeleton: &lang.SkeletonSpec{
			Marker:   "/* ... */",
			Control:  []string{"if_expression", "for_expression", "while_expression", "match_expression", "try_expression"},
			Exits:    []string{"return_expression", "throw_expression"},
			Blocks:   []string{"block", "indented_block"},
			Clauses:  []string{"catch_clause", "finally_clause"},
			Cases:    []string{"case_clause"},
			Nested:   []string{"class_definition", "object_definition", "package_object", "trait_definition", "function_definition"},
			Verbatim: []string{"package_clause", "import_declaration"},
			Members: map[string]string{"class_definition": "template_body", "object_definition": "template_body", "package_object": "template_body",
				"trait_definition": "template_body", "enum_definition": "enum_body"},
			Code:   map[string]string{"function_definition": "block"},
			Hidden: []string{"private", "private[this]"},
		},
	})
}

// module is the file's package, its package clauses joined, and the name
// of a package object in it: its members are that package's (package
// io.circe with package object syntax is io.circe.syntax), unless a
// packaging block of the same name follows it (circe's tests/examples/
// package.scala holds package object examples and package examples { }).
func module(_ string, t *lang.Tree, captured string) string {
	obj, after := packageObject(t, 0)
	switch {
	case obj == "" || after:
		return captured
	case captured == "":
		return obj
	}
	return captured + "." + obj
}

// packageObject finds the name of the package object at the top level
// of node n or in its packaging blocks, and whether a packaging block of
// that name follows it.
func packageObject(t *lang.Tree, n int32) (name string, after bool) {
	for c := range t.NamedChildren(n) {
		switch t.Kind(c) {
		case "package_object":
			if name == "" {
				name = t.FieldText(c, "name")
			}
		case "package_clause":
			if name != "" && t.FieldText(c, "name") == name {
				after = true
			}
			if b := t.Field(c, "body"); b >= 0 && name == "" {
				name, after = packageObject(t, b)
			}
		}
	}
	return name, after
}

// symbol fills a definition's signature and visibility.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	n := d.Node
	if m := t.ChildOfKind(n, "modifiers"); m >= 0 {
		for c := range t.NamedChildren(m) {
			switch w := t.Text(c); {
			case strings.HasPrefix(w, "private"):
				s.Visibility, s.Exported = lang.VisPrivate, false
			case strings.HasPrefix(w, "protected"):
				s.Visibility = lang.VisProtected
			default:
				s.Signature.Modifiers = append(s.Signature.Modifiers, w)
			}
		}
	}
	s.Visibility = cmp.Or(s.Visibility, lang.VisPublic)
	switch t.Kind(n) {
	case "function_definition", "function_declaration":
		// the header without the = before the body (def f(): Int =)
		s.Signature.Text = strings.TrimSpace(strings.TrimSuffix(s.Signature.Text, "="))
		s.Signature.Params, s.Signature.Returns = params(t, t.Field(n, "parameters")), t.FieldText(n, "return_type")
		if s.Name == "this" {
			s.Kind = lang.KindConstructor
		}
	case "val_definition", "var_definition", "val_declaration", "var_declaration", "given_definition":
		s.Signature.Returns = valType(t, n)
	case "enum_definition":
		// its cases, as Kotlin's and Rust's rooms list an enum's entries
		if b := t.Field(n, "body"); b >= 0 {
			for cs := range t.NamedChildren(b) {
				if t.Kind(cs) != "enum_case_definitions" {
					continue
				}
				for c := range t.NamedChildren(cs) {
					switch t.Kind(c) {
					case "simple_enum_case":
						s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.FieldText(c, "name"), Type: s.Name})
					case "full_enum_case":
						s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.FieldText(c, "name"), Type: t.FieldText(c, "class_parameters")})
					}
				}
			}
		}
	case "class_definition":
		s.Signature.Params = params(t, t.Field(n, "class_parameters"))
		s.Signature.Fields = append(s.Signature.Fields, s.Signature.Params...)
		fallthrough
	case "object_definition", "trait_definition":
		if b := t.Field(n, "body"); b >= 0 {
			for c := range t.NamedChildren(b) {
				if k := t.Kind(c); k == "val_definition" || k == "var_definition" || k == "val_declaration" || k == "var_declaration" {
					s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: cmp.Or(t.FieldText(c, "pattern"), t.FieldText(c, "name")), Type: valType(t, c)})
				}
			}
		}
	}
	return true
}

// params reads a parameter list, or the class parameters of a class.
func params(t *lang.Tree, list int32) []lang.Param {
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for c := range t.NamedChildren(list) {
		if k := t.Kind(c); k == "parameter" || k == "class_parameter" {
			typ := t.FieldText(c, "type")
			out = append(out, lang.Param{Name: t.FieldText(c, "name"), Type: typ, Default: t.FieldText(c, "default_value"), Variadic: strings.HasSuffix(typ, "*")})
		}
	}
	return out
}

// valType is the type of a val or var: as declared, or the class its
// value constructs.
func valType(t *lang.Tree, n int32) string {
	return cmp.Or(t.FieldText(n, "type"), newType(t, t.Field(n, "value")))
}

// newType is the type a value has when it is a construction: new T(...)
// or T(...) of a capitalised name (a case class's apply).
func newType(t *lang.Tree, v int32) string {
	if v < 0 {
		return ""
	}
	switch t.Kind(v) {
	case "instance_expression":
		for c := range t.NamedChildren(v) {
			if k := t.Kind(c); k != "arguments" && k != "template_body" {
				return t.Text(c)
			}
		}
	case "call_expression":
		if f := t.Field(v, "function"); f >= 0 && t.Kind(f) == "identifier" && lang.IsUpper(t.Text(f)) {
			return t.Text(f)
		}
	}
	return ""
}

// ref gives a call's receiver a form the resolver reads: a path of names
// as written, f() for a call's result, ? for anything else; a name's
// declared type when a parameter or a val in scope says it.
func ref(t *lang.Tree, m *lang.Match, r *lang.Ref) bool {
	q := m.Node("receiver")
	if q < 0 {
		return true
	}
	switch t.Kind(q) {
	case "identifier", "this", "stable_identifier", "field_expression":
		if head, _, _ := strings.Cut(r.Qualifier, "."); strings.ContainsAny(r.Qualifier, "()[]{} ") {
			r.Qualifier = "?"
		} else if head != "this" && !lang.IsUpper(head) {
			r.QualifierType = typeInScope(t, q, head)
		}
	case "call_expression":
		f := t.Field(q, "function")
		if f >= 0 && t.Kind(f) == "generic_function" {
			f = t.Field(f, "function")
		}
		if f >= 0 && (t.Kind(f) == "identifier" || t.Kind(f) == "field_expression") && !strings.ContainsAny(t.Text(f), "()[]{} \n") {
			r.QualifierCall, r.Qualifier = t.Text(f), t.Text(f)+"()"
		} else {
			r.Qualifier = "?"
		}
	default:
		r.Qualifier = "?"
	}
	return true
}

// typeInScope finds the declared type of name where node n uses it: a
// parameter of an enclosing function or a val before n in a block around.
func typeInScope(t *lang.Tree, n int32, name string) string {
	for p := t.Parent(n); p >= 0; p = t.Parent(p) {
		switch t.Kind(p) {
		case "function_definition":
			for _, prm := range params(t, t.Field(p, "parameters")) {
				if prm.Name == name {
					return prm.Type
				}
			}
		case "block", "template_body", "indented_block":
			for c := range t.ChildrenBefore(p, n) {
				if k := t.Kind(c); (k == "val_definition" || k == "var_definition") && t.FieldText(c, "pattern") == name {
					return valType(t, c)
				}
			}
		}
	}
	return ""
}

// imports reads import a.b.C, a.b.{C, D => E}, a.b._ and a.b.* into the
// package resolver's form: one import per name, a wildcard as Names *.
func imports(t *lang.Tree, n int32) []lang.Import {
	var path []string
	wildcard := func(src string) lang.Import { return lang.Import{Source: src, Names: []lang.ImportName{{Name: "*"}}} }
	for c := range t.NamedChildren(n) {
		switch k := t.Kind(c); {
		case (k == "identifier" || k == "operator_identifier") && t.FieldName(c) == "path":
			path = append(path, t.Text(c))
		case k == "namespace_wildcard":
			return []lang.Import{wildcard(strings.Join(path, "."))}
		case k == "namespace_selectors":
			var out []lang.Import
			base := strings.Join(path, ".")
			for s := range t.NamedChildren(c) {
				switch t.Kind(s) {
				case "identifier":
					out = append(out, lang.Import{Source: base + "." + t.Text(s)})
				case "arrow_renamed_identifier", "as_renamed_identifier":
					if alias := t.FieldText(s, "alias"); alias != "_" { // import a.{B => _} hides B
						out = append(out, lang.Import{Source: base + "." + t.FieldText(s, "name"), Alias: alias})
					}
				case "namespace_wildcard":
					out = append(out, wildcard(base))
				}
			}
			return out
		}
	}
	switch {
	case len(path) > 0 && path[len(path)-1] == "_":
		return []lang.Import{wildcard(strings.Join(path[:len(path)-1], "."))}
	case len(path) > 0:
		return []lang.Import{{Source: strings.Join(path, ".")}}
	}
	return nil
}

// stripType reduces a declared type to the name to resolve: List[Foo] to
// List, => Foo to Foo, Foo* to Foo, a.b.Foo[T] to a.b.Foo.
func stripType(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "=>"))
	if i := strings.IndexAny(s, "[( "); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, "*")
}
