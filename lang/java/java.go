// Package java is sdl's room for Java: types, members, their bases, the
// package and imports come from tags.scm; this file holds what a query
// cannot say (signatures, visibility, docs, and a walk that places the
// query's definitions and follows the types of locals, fields and
// receivers to the calls it records, with guards, throws and side
// effects), resolution through packages, imports, nested and base types,
// and the skeleton rules of its braced bodies.
package java

import (
	"embed"
	"slices"
	"strings"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/grammar"
)

// data holds the room's data files: test-path patterns, side effects and
// word lists.
//
//go:embed *.txt
var data embed.FS

//go:embed tags.scm
var tags string

func init() {
	lang.Register(lang.Spec{
		Name:       "java",
		Extensions: []string{".java"},
		Grammar:    grammar.Java(),
		Query:      tags, QueryFile: "lang/java/tags.scm",
		QueryRoots: append(slices.Clone(typeDecls), "method_declaration", "constructor_declaration",
			"compact_constructor_declaration", "annotation_type_element_declaration", "field_declaration",
			"constant_declaration", "enum_constant", "package_declaration", "import_declaration"),
		Comments:  []string{"line_comment", "block_comment"},
		Strings:   []string{"string_literal", "character_literal"},
		Idents:    []string{"identifier", "type_identifier"},
		Data:      data,
		Symbol:    symbol,
		Defs:      defs,
		Place:     true,
		Ref:       baseRef,
		Import:    imports,
		Finish:    finish,
		Resolver:  lang.Resolvers{Ref: resolve, Import: resolveImport},
		SkelRules: skeleton,
	})
}

// A lang.Scope maps the variables visible in some code to what is known
// of their type. Scopes chain: a method's locals, its class's fields, the
// outer class's fields. Java forbids a local to shadow another local, so
// one map per method is close enough to block scoping. A type variable's
// bound (its erasure, "T" -> "Comparable") is a TypeVar.

// setType declares name in s with its type, a type variable erased.
func setType(s *lang.Scope, name, typ string) { s.SetType(name, erase(s, typ)) }

// erase replaces a type variable by its bound: the methods a value of
// type T has are its bound's ("Object" when it has none).
func erase(s *lang.Scope, typ string) string {
	base := strings.TrimRight(typ, "[]")
	if !lang.IsUpper(base) || strings.IndexByte(base, '.') >= 0 {
		return typ
	}
	if b, ok := s.TypeVar(base); ok {
		return b + typ[len(base):]
	}
	return typ
}

// declareTypeParams puts the type parameters of a class or method in
// scope.
func declareTypeParams(s *lang.Scope, t *lang.Tree, list int32) {
	if list < 0 {
		return
	}
	for p := range t.NamedChildren(list) {
		name, bound := "", "Object"
		for ch := range t.NamedChildren(p) {
			switch t.Kind(ch) {
			case "type_identifier":
				name = t.Text(ch)
			case "type_bound":
				if b := t.FirstNamedChild(ch); b >= 0 {
					bound = stripType(t.Text(b))
				}
			}
		}
		if name == "" {
			continue
		}
		if bound == name {
			bound = "Object"
		}
		s.SetTypeVar(name, bound)
	}
}

// state is where the walker is: which symbol code belongs to, and what
// declarations there make.
type state struct {
	sym   int         // the symbol code belongs to
	cls   int         // the innermost named class, -1 outside every class
	anon  string      // base type of the innermost anonymous class body, "" outside
	code  bool        // in an anonymous class's body, whose declarations are code of sym
	top   bool        // a statement of a method body itself, where an early exit is a guard
	scope *lang.Scope // the variables in scope
}

// member reports whether a declaration the walk meets is a member of the
// named type c.cls: in its body, whatever ERROR, initializer or lambda
// lies between, and not in an anonymous class's body or a symbol's code.
func (c state) member() bool { return c.sym == c.cls && !c.code }

// testAnnotations mark test methods (JUnit 4 and 5, TestNG).
var testAnnotations = lang.WordFile(data, "test_annotations.txt")

// finish names the file's module after its package and walks the file
// for what its symbols call and construct, guard and throw.
func finish(x *lang.Extractor) {
	t := x.Tree
	pkg := int32(-1)
	for i := range t.Matches {
		if n := t.Matches[i].Node("module"); n >= 0 {
			pkg = n
		}
	}
	x.Facts.Module = ""
	if pkg >= 0 {
		x.Facts.Module = lang.OneLine(t.Text(pkg))
		x.Facts.Symbols[0].Name = x.Facts.Module
		x.Facts.Symbols[0].Doc = doc(t, t.Parent(pkg))
	}
	c := state{sym: 0, cls: -1, scope: &lang.Scope{}}
	for n := range t.NamedChildren(0) {
		walkNode(x, n, c)
	}
}

// walkNode walks node n: declarations become symbols, code becomes
// references, guards and throws of c.sym.
func walkNode(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	switch t.Kind(n) {
	case "line_comment", "block_comment", "modifiers", "marker_annotation", "annotation":
		return
	case "package_declaration", "import_declaration":
		return
	case "class_declaration", "record_declaration", "enum_declaration", "interface_declaration", "annotation_type_declaration":
		class(x, n, c)
		return
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration":
		method(x, n, c)
		return
	case "field_declaration", "constant_declaration":
		field(x, n, c)
		return
	case "enum_constant":
		enumConstant(x, n, c)
		return
	case "static_initializer":
		for ch := range t.NamedChildren(n) {
			walkNode(x, ch, c)
		}
		return
	case "local_variable_declaration":
		local(x, n, c)
		return
	case "method_invocation":
		call(x, n, c)
	case "object_creation_expression":
		newExpr(x, n, c)
		return
	case "explicit_constructor_invocation":
		ctorCall(x, n, c)
	case "method_reference":
		methodRef(x, n, c)
		return
	case "lambda_expression":
		lambda(x, n, c)
		return
	case "if_statement":
		if c.top {
			guard.Guard(x, c.sym, n)
		}
	case "throw_statement":
		throw(x, n, c)
	case "assert_statement":
		if c.top {
			if cond := t.FirstNamedChild(n); cond >= 0 {
				x.Guard(c.sym, "!("+t.Text(cond)+")", "throw", n)
			}
		}
	case "expression_statement":
		if c.top {
			checkCall(x, n, c)
		}
	case "enhanced_for_statement":
		if name := t.Field(n, "name"); name >= 0 {
			typ := varType(x, n)
			if v := t.Field(n, "value"); typ == "" && v >= 0 && t.Kind(v) == "identifier" {
				// for (var e : array): the array's element type
				if vt, _, _, ok := c.scope.Lookup(t.Text(v)); ok && strings.HasSuffix(vt, "[]") {
					typ = vt[:len(vt)-2]
				}
			}
			setType(c.scope, t.Text(name), typ)
		}
	case "catch_formal_parameter":
		if name := t.Field(n, "name"); name >= 0 {
			typ := ""
			if ct := t.ChildOfKind(n, "catch_type"); ct >= 0 {
				if first := t.FirstNamedChild(ct); first >= 0 {
					typ = stripType(t.Text(first))
				}
			}
			setType(c.scope, t.Text(name), typ)
		}
	case "resource":
		if name := t.Field(n, "name"); name >= 0 {
			declare(x, c.scope, t.Text(name), varType(x, n), t.Field(n, "value"), c)
			return
		}
	case "instanceof_expression":
		if name := t.Field(n, "name"); name >= 0 {
			setType(c.scope, t.Text(name), stripType(t.FieldText(n, "right")))
		}
	case "type_pattern":
		var typ string
		for ch := range t.NamedChildren(n) {
			if t.Kind(ch) == "identifier" && typ != "" {
				setType(c.scope, t.Text(ch), typ)
			} else {
				typ = stripType(t.Text(ch))
			}
		}
		return
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		walkNode(x, ch, c)
	}
}

// varType is the declared type of a declaration node with a type
// field, generics stripped; "" for var.
func varType(x *lang.Extractor, n int32) string {
	typ := stripType(x.Tree.FieldText(n, "type"))
	if typ == "var" {
		return ""
	}
	return typ
}

// stripType reduces a type as written to what resolution needs:
// no annotations, type arguments or white space. "@NonNull Map<K, V>[]"
// -> "Map[]".
func stripType(s string) string {
	if !strings.ContainsAny(s, "<@ \t\r\n") {
		return s
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '<':
			depth++
		case ch == '>':
			if depth > 0 {
				depth--
			}
		case depth > 0, ch == ' ', ch == '\t', ch == '\r', ch == '\n':
		case ch == '@':
			// an annotation: its name, then perhaps its arguments
			i++
			for i < len(s) && (lang.IsIdentByte(s[i]) || s[i] == '.') {
				i++
			}
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i < len(s) && s[i] == '(' {
				pd := 0
				for ; i < len(s); i++ {
					if s[i] == '(' {
						pd++
					} else if s[i] == ')' {
						pd--
						if pd == 0 {
							break
						}
					}
				}
			} else {
				i--
			}
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// doc returns the Javadoc of a declaration: the nearest /** */ comment
// before it (other comments may sit between), or one placed after its
// annotations; failing that, the line comments right above it.
func doc(t *lang.Tree, n int32) string {
	for p := t.PrevSibling(n); p >= 0 && t.IsComment(p); p = t.PrevSibling(p) {
		if t.Kind(p) == "block_comment" && strings.HasPrefix(t.Text(p), "/**") {
			return lang.CleanComment(t.Text(p))
		}
	}
	if m := t.ChildOfKind(n, "modifiers"); m >= 0 {
		for ch := range t.Children(m) {
			if t.Kind(ch) == "block_comment" && strings.HasPrefix(t.Text(ch), "/**") {
				return lang.CleanComment(t.Text(ch))
			}
		}
	}
	// line comments directly above, not trailing the previous line's code
	var parts []string
	line := t.Nodes[n].StartRow
	for p := t.PrevSibling(n); p >= 0 && t.Kind(p) == "line_comment"; {
		if t.Nodes[p].EndRow+1 < line {
			break
		}
		prev := t.PrevSibling(p)
		if prev >= 0 && t.Nodes[prev].EndRow == t.Nodes[p].StartRow {
			break
		}
		parts = append(parts, t.Text(p))
		line = t.Nodes[p].StartRow
		p = prev
	}
	if len(parts) == 0 {
		return ""
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return lang.CleanComment(strings.Join(parts, "\n"))
}

// modifiers reads a declaration's modifiers: its visibility ("" for package
// private), the other modifiers and annotations, and whether an annotation
// marks a test.
func modifiers(t *lang.Tree, n int32) (vis string, mods []string, test bool) {
	add := func(ch int32) {
		switch k := t.Kind(ch); k {
		case "public", "protected", "private":
			vis = k
		case "static", "abstract", "final", "default", "synchronized", "native", "strictfp", "transient", "volatile",
			"sealed", "non-sealed":
			mods = append(mods, k)
		case "marker_annotation", "annotation":
			name := lang.OneLine(t.FieldText(ch, "name"))
			mods = append(mods, "@"+name)
			if testAnnotations.Has(lang.LastIdent(name)) {
				test = true
			}
		}
	}
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "modifiers":
			for m := range t.Children(ch) {
				add(m)
			}
		case "marker_annotation", "annotation":
			add(ch)
		}
	}
	return vis, mods, test
}

// sigStart is where the signature of declaration n starts: after the
// annotations that lead it, which its modifiers name already (a test's
// "@CsvSource({...})" ran to hundreds of characters ahead of its name).
func sigStart(t *lang.Tree, n int32) uint32 {
	start := t.Nodes[n].StartByte
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "modifiers":
			for m := range t.Children(ch) {
				switch t.Kind(m) {
				case "marker_annotation", "annotation", "line_comment", "block_comment":
					start = t.Nodes[m].EndByte
				default:
					return start
				}
			}
		case "marker_annotation", "annotation", "line_comment", "block_comment":
			start = t.Nodes[ch].EndByte
		default:
			return start
		}
	}
	return start
}

// visibility maps a modifier to the symbol's visibility.
func visibility(s *lang.Symbol, vis string, implicitPublic bool) {
	switch {
	case vis == "public" || vis == "" && implicitPublic:
		s.Exported, s.Visibility = true, lang.VisPublic
	case vis == "protected":
		s.Visibility = lang.VisProtected
	case vis == "private":
		s.Visibility = lang.VisPrivate
	default:
		s.Visibility = lang.VisInternal
	}
}

// imports reads an import declaration.
func imports(t *lang.Tree, n int32) []lang.Import {
	static := false
	wild := false
	src := ""
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "static":
			static = true
		case "asterisk":
			wild = true
		case "scoped_identifier", "identifier":
			src = lang.OneLine(t.Text(ch))
		}
	}
	if src == "" {
		return nil
	}
	imp := lang.Import{Source: src}
	switch {
	case wild:
		// import a.b.*; (a package's types) or import static a.b.C.*;
		// (a class's static members): both name their source and "*".
		imp.Names = []lang.ImportName{{Name: "*"}}
	case static:
		// import static a.b.C.m;
		i := strings.LastIndexByte(src, '.')
		if i < 0 {
			return nil
		}
		imp.Source = src[:i]
		imp.Names = []lang.ImportName{{Name: src[i+1:]}}
	}
	return []lang.Import{imp}
}

// typeDecls are the node kinds of type declarations.
var typeDecls = []string{"class_declaration", "record_declaration", "enum_declaration", "interface_declaration",
	"annotation_type_declaration"}

// defs gives a field declaration of one variable the declaration's
// range (its modifiers and doc); each variable of int a, b; keeps its own.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	for i, d := range ds {
		if n := t.Parent(d.Node); t.Kind(d.Node) == "variable_declarator" && len(declarators(t, n)) == 1 {
			ds[i].Node = n
		}
	}
	return ds
}

// outside is the first node above n that is no ERROR, -1 for none.
func outside(t *lang.Tree, n int32) int32 {
	p := t.Parent(n)
	for p >= 0 && t.IsError(p) {
		p = t.Parent(p)
	}
	return p
}

// declarators are the variables a field or local declaration declares.
func declarators(t *lang.Tree, n int32) []int32 {
	var out []int32
	for d := range t.Children(n) {
		if t.FieldName(d) == "declarator" {
			out = append(out, d)
		}
	}
	return out
}

// symbol completes a definition of the query: its visibility, modifiers,
// signature and Javadoc.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	n := d.Node
	s.Exported, s.Doc = false, ""
	switch t.Kind(n) {
	case "class_declaration", "record_declaration", "enum_declaration", "interface_declaration", "annotation_type_declaration":
		typeSymbol(t, n, d.Body, s)
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration":
		methodSymbol(t, n, d.Body, s)
	case "enum_constant":
		s.Exported, s.Visibility = true, lang.VisPublic
		if o := owner(t, n); o >= 0 { // none where the parser lost the enum
			s.Signature.Returns = t.FieldText(o, "name")
		}
		_, mods, _ := modifiers(t, n)
		s.Signature.Modifiers = append([]string{"static", "final"}, mods...)
		s.Signature.Text = s.Name
		s.Doc = doc(t, n)
	case "formal_parameter":
		// a record's component: a field, public through its accessor
		s.Exported, s.Visibility = true, lang.VisPublic
		s.Signature.Returns = lang.OneLine(t.FieldText(n, "type"))
		s.Signature.Text = lang.OneLine(t.Text(n))
	default:
		fieldSymbol(t, t.Parent(d.Name), s)
	}
	return true
}

// inInterface reports whether declaration n is a member of an interface
// or annotation type, public without saying so.
func inInterface(t *lang.Tree, n int32) bool {
	o := outside(t, n)
	return o >= 0 && (t.Kind(o) == "interface_body" || t.Kind(o) == "annotation_type_body")
}

// header is the signature text of declaration n: from after its leading
// annotations to its body.
func header(t *lang.Tree, n, body int32) string {
	x := lang.Extractor{Tree: t}
	return x.HeaderTextFrom(n, sigStart(t, n), body)
}

func typeSymbol(t *lang.Tree, n, body int32, s *lang.Symbol) {
	kind := t.Kind(n)
	vis, mods, _ := modifiers(t, n)
	visibility(s, vis, inInterface(t, n))
	switch kind {
	case "enum_declaration":
		mods = append(mods, "enum")
	case "record_declaration":
		mods = append(mods, "record")
	case "annotation_type_declaration":
		mods = append(mods, "@interface")
	}
	s.Signature.Modifiers = mods
	s.Signature.Generics = t.ItemTexts(t.Field(n, "type_parameters"))
	// the bases as written, those it extends first
	var bases []int32
	if sc := t.Field(n, "superclass"); sc >= 0 {
		bases = typeList(t, sc)
	}
	if ei := t.ChildOfKind(n, "extends_interfaces"); ei >= 0 {
		bases = append(bases, typeList(t, ei)...)
	}
	if si := t.Field(n, "interfaces"); si >= 0 {
		bases = append(bases, typeList(t, si)...)
	}
	for _, b := range bases {
		s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(b)))
	}
	enumName := ""
	if kind == "enum_declaration" {
		enumName = s.Name
	}
	s.Signature.Fields = classFields(t, n, body, enumName)
	s.Signature.Text = header(t, n, body)
	s.Doc = doc(t, n)
}

func methodSymbol(t *lang.Tree, n, body int32, s *lang.Symbol) {
	vis, mods, test := modifiers(t, n)
	visibility(s, vis, inInterface(t, n))
	if th := t.ChildOfKind(n, "throws"); th >= 0 {
		for ty := range t.NamedChildren(th) {
			mods = append(mods, "throws "+lang.OneLine(t.Text(ty)))
		}
	}
	s.Signature.Modifiers = mods
	s.Signature.Generics = t.ItemTexts(t.Field(n, "type_parameters"))
	params := t.Field(n, "parameters")
	if o := owner(t, n); t.Kind(n) == "compact_constructor_declaration" && o >= 0 {
		// the compact constructor takes the record's components
		params = t.Field(o, "parameters")
	}
	s.Signature.Params = paramList(t, params, nil)
	if ty := t.Field(n, "type"); ty >= 0 {
		s.Signature.Returns = lang.OneLine(t.Text(ty))
		if dims := t.Field(n, "dimensions"); dims >= 0 {
			s.Signature.Returns += t.Text(dims)
		}
	}
	s.Signature.Text = header(t, n, body)
	s.Doc = doc(t, n)
	s.IsTest = test
}

// owner is the type declaration whose body holds member n.
func owner(t *lang.Tree, n int32) int32 {
	p := t.Parent(n)
	for p >= 0 && !strings.HasSuffix(t.Kind(p), "_declaration") {
		p = t.Parent(p)
	}
	return p
}

// fieldSymbol completes a field of declarator d (int a = 1 in
// int a = 1, b;).
func fieldSymbol(t *lang.Tree, d int32, s *lang.Symbol) {
	n := t.Parent(d)
	typ := lang.OneLine(t.FieldText(n, "type"))
	vis, mods, _ := modifiers(t, n)
	visibility(s, vis, inInterface(t, n))
	s.Doc = doc(t, n)
	s.Signature.Returns = typ
	if dims := t.Field(d, "dimensions"); dims >= 0 {
		s.Signature.Returns += t.Text(dims)
	}
	s.Signature.Modifiers = mods
	if t.Kind(n) == "constant_declaration" {
		s.Signature.Modifiers = append(append([]string(nil), mods...), "static", "final")
	}
	s.Signature.Text = ""
	if ty := t.Field(n, "type"); ty >= 0 {
		s.Signature.Text = lang.OneLine(string(t.Src[sigStart(t, n):t.Nodes[ty].EndByte])) + " " + s.Name
	}
}

// baseRef reads the type a class extends or implements, as written at
// @name: "Base<T>" names Base, "a.b.Base" Base of a.b.
func baseRef(t *lang.Tree, m *lang.Match, r *lang.Ref) bool {
	n := m.Node("name")
	if t.IsComment(n) {
		return false
	}
	r.Name, r.Qualifier = lang.SplitType(stripType(t.Text(n)))
	return r.Name != ""
}

// classFields lists the fields a class body declares, with their
// types, for Signature.Fields and the scope of its methods.
func classFields(t *lang.Tree, n, body int32, enumName string) []lang.Param {
	var out []lang.Param
	if ps := t.Field(n, "parameters"); ps >= 0 { // record components
		for p := range t.NamedChildren(ps) {
			if name := t.Field(p, "name"); name >= 0 {
				out = append(out, lang.Param{Name: t.Text(name), Type: lang.OneLine(t.FieldText(p, "type"))})
			}
		}
	}
	if body < 0 {
		return out
	}
	var scan func(b int32)
	scan = func(b int32) {
		for m := range t.NamedChildren(b) {
			switch t.Kind(m) {
			case "field_declaration", "constant_declaration":
				typ := lang.OneLine(t.FieldText(m, "type"))
				for _, d := range declarators(t, m) {
					if name := t.Field(d, "name"); name >= 0 {
						dt := typ
						if dims := t.Field(d, "dimensions"); dims >= 0 {
							dt += t.Text(dims)
						}
						out = append(out, lang.Param{Name: t.Text(name), Type: dt})
					}
				}
			case "enum_constant":
				if name := t.Field(m, "name"); name >= 0 {
					out = append(out, lang.Param{Name: t.Text(name), Type: enumName})
				}
			case "enum_body_declarations", "ERROR":
				scan(m)
			}
		}
	}
	scan(body)
	return out
}

// typeList returns the types of a superclass, super_interfaces or
// extends_interfaces node, as written.
func typeList(t *lang.Tree, n int32) []int32 {
	var out []int32
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) == "type_list" {
			for ty := range t.NamedChildren(ch) {
				out = append(out, ty)
			}
		} else {
			out = append(out, ch)
		}
	}
	return out
}

// class walks a class's body with its fields and type parameters in
// scope.
func class(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	sym, ok := x.Define(n, c.sym)
	if !ok {
		return // a class without a name
	}
	if ps := t.Field(n, "parameters"); ps >= 0 && t.Kind(n) == "record_declaration" {
		for p := range t.NamedChildren(ps) {
			x.Define(p, sym) // its components, its fields
		}
	}
	scope := &lang.Scope{Parent: c.scope}
	declareTypeParams(scope, t, t.Field(n, "type_parameters"))
	for _, f := range x.Facts.Symbols[sym].Signature.Fields {
		setType(scope, f.Name, stripType(f.Type))
	}
	inner := state{sym: sym, cls: sym, scope: scope}
	if body := t.Field(n, "body"); body >= 0 {
		for m := range t.NamedChildren(body) {
			walkNode(x, m, inner)
		}
	}
}

// paramList reads formal parameters, declaring them in scope.
func paramList(t *lang.Tree, list int32, scope *lang.Scope) []lang.Param {
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for p := range t.NamedChildren(list) {
		switch t.Kind(p) {
		case "formal_parameter":
			name := t.FieldText(p, "name")
			typ := lang.OneLine(t.FieldText(p, "type"))
			if dims := t.Field(p, "dimensions"); dims >= 0 {
				typ += t.Text(dims)
			}
			out = append(out, lang.Param{Name: name, Type: typ})
			if scope != nil && name != "" {
				setType(scope, name, stripType(typ))
			}
		case "spread_parameter":
			var typ, name string
			for ch := range t.NamedChildren(p) {
				switch t.Kind(ch) {
				case "modifiers":
				case "variable_declarator":
					name = t.FieldText(ch, "name")
				default:
					if typ == "" {
						typ = lang.OneLine(t.Text(ch))
					}
				}
			}
			out = append(out, lang.Param{Name: name, Type: typ + "...", Variadic: true})
			if scope != nil && name != "" {
				setType(scope, name, stripType(typ)+"[]")
			}
		}
	}
	return out
}

// method walks a method's body with its parameters in scope.
func method(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	body := t.Field(n, "body")
	scope := &lang.Scope{Parent: c.scope}
	sym, ok := c.sym, false
	if c.member() || c.sym == 0 {
		sym, ok = x.Define(n, c.sym) // a function outside every type
	}
	if name := t.Field(n, "name"); !ok && name >= 0 && strings.TrimSpace(t.Text(name)) == "" && (c.sym == 0 || c.sym == c.cls) {
		// a member whose name the parser made up (MISSING): no symbol, its
		// code is the type's or the file's
		sym, ok = c.sym, true
	}
	if !ok {
		// a method of an anonymous class, or one the parser could not
		// place: not a symbol, its code belongs to the enclosing one
		paramList(t, t.Field(n, "parameters"), scope)
		if body >= 0 {
			c.scope, c.top = scope, false
			walkNode(x, body, c)
		}
		return
	}
	declareTypeParams(scope, t, t.Field(n, "type_parameters"))
	if p := x.Facts.Symbols[sym].Parent; t.Kind(n) == "compact_constructor_declaration" && p > 0 {
		// the compact constructor takes the record's components
		for _, f := range x.Facts.Symbols[p].Signature.Fields {
			setType(scope, f.Name, stripType(f.Type))
		}
	} else {
		paramList(t, t.Field(n, "parameters"), scope)
	}
	if v := t.Field(n, "value"); v >= 0 { // an annotation element's default
		walkNode(x, v, state{sym: sym, cls: c.cls, scope: scope})
	}
	if body < 0 {
		return
	}
	inner := state{sym: sym, cls: c.cls, scope: scope, top: true}
	for st := range t.NamedChildren(body) {
		walkNode(x, st, inner)
	}
}

// field walks the initializers of a field declaration: a field's own
// code, or, in an anonymous class, the enclosing symbol's, which declare
// the variables in scope.
func field(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	typ := lang.OneLine(t.FieldText(n, "type"))
	decls := declarators(t, n)
	for _, d := range decls {
		name := t.Field(d, "name")
		if name < 0 {
			continue
		}
		sym, ok := c.sym, false
		if c.member() {
			if sym, ok = x.Define(d, c.sym); !ok && len(decls) == 1 {
				sym, ok = x.Define(n, c.sym)
			}
		}
		val := t.Field(d, "value")
		if !ok {
			declare(x, c.scope, t.Text(name), stripType(typ), val, c)
			continue
		}
		if val >= 0 {
			walkNode(x, val, state{sym: sym, cls: c.cls, scope: c.scope})
		}
	}
}

// enumConstant walks an enum constant's arguments and body, an anonymous
// subclass of the enum.
func enumConstant(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	sym, ok := c.sym, false
	if c.member() {
		sym, ok = x.Define(n, c.sym)
	}
	enum := ""
	if ok {
		enum = x.Facts.Symbols[x.Facts.Symbols[sym].Parent].Name
	} else {
		sym = c.sym
	}
	inner := state{sym: sym, cls: c.cls, scope: c.scope}
	if args := t.Field(n, "arguments"); args >= 0 {
		walkNode(x, args, inner)
	}
	if b := t.Field(n, "body"); b >= 0 {
		inner.anon = enum
		inner.scope = &lang.Scope{Parent: c.scope}
		for m := range t.NamedChildren(b) {
			walkNode(x, m, inner)
		}
	}
}

func local(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	typ := varType(x, n)
	for d := range t.Children(n) {
		if t.FieldName(d) != "declarator" {
			continue
		}
		name := t.Field(d, "name")
		if name < 0 {
			continue
		}
		dt := typ
		if dims := t.Field(d, "dimensions"); dims >= 0 && dt != "" {
			dt += "[]"
		}
		declare(x, c.scope, t.Text(name), dt, t.Field(d, "value"), c)
	}
}

// declare declares a variable of declared type typ ("" for var),
// learning its type from its initializer when needed, and walks the
// initializer.
func declare(x *lang.Extractor, scope *lang.Scope, name, typ string, val int32, c state) {
	t := x.Tree
	c.top = false
	if val >= 0 {
		walkNode(x, val, c)
	}
	if typ != "" || val < 0 {
		setType(scope, name, typ)
		return
	}
	// var x = ...: the initializer tells
	v := t.Unparen(val)
	switch t.Kind(v) {
	case "object_creation_expression":
		if ty := t.Field(v, "type"); ty >= 0 {
			setType(scope, name, stripType(t.Text(ty)))
			return
		}
	case "cast_expression":
		setType(scope, name, stripType(t.FieldText(v, "type")))
		return
	case "string_literal":
		setType(scope, name, "String")
		return
	case "method_invocation":
		head, call := head(x, v, c)
		scope.SetCall(name, call, head)
		return
	}
	setType(scope, name, "")
}

// expr renders an expression used as a qualifier, with arguments
// left out: "a.b(x, y).c" -> "a.b().c", "new Foo(1)" -> "new Foo()".
func expr(t *lang.Tree, n int32, depth int) string {
	if depth > lang.MaxChain {
		return "..."
	}
	switch t.Kind(n) {
	case "identifier", "this", "super", "type_identifier":
		return t.Text(n)
	case "field_access":
		obj := t.Field(n, "object")
		field := t.Field(n, "field")
		if obj < 0 || field < 0 {
			break
		}
		return expr(t, obj, depth+1) + "." + t.Text(field)
	case "method_invocation":
		s := t.FieldText(n, "name") + "()"
		if obj := t.Field(n, "object"); obj >= 0 {
			s = expr(t, obj, depth+1) + "." + s
		}
		return s
	case "object_creation_expression":
		return "new " + stripType(t.FieldText(n, "type")) + "()"
	case "parenthesized_expression":
		if in := t.FirstNamedChild(n); in >= 0 {
			return "(" + expr(t, in, depth+1) + ")"
		}
	case "cast_expression":
		if v := t.Field(n, "value"); v >= 0 {
			return "(" + stripType(t.FieldText(n, "type")) + ") " + expr(t, v, depth+1)
		}
	case "array_access":
		if a := t.Field(n, "array"); a >= 0 {
			return expr(t, a, depth+1) + "[]"
		}
	case "string_literal":
		return `""`
	}
	return lang.Shorten(lang.OneLine(t.Text(n)), 40)
}

// head works out what is known of a qualifier's value: the type of
// its first part (a variable, this, new T(), a cast) and, when the
// qualifier is a call or a variable assigned from one, that call. With a
// call, typ is the type of the call's first part: for x in
// "var x = store.cursor(); x.next()", the call is "store.cursor" and typ
// the type of store.
func head(x *lang.Extractor, obj int32, c state) (typ, call string) {
	t := x.Tree
	// the last call of the qualifier: a.b().c -> a.b
	for n, i := obj, 0; n >= 0 && i <= lang.MaxChain; i++ {
		if k := t.Kind(n); k == "method_invocation" {
			call = strings.TrimSuffix(expr(t, n, 0), "()")
			break
		} else if k != "field_access" {
			break
		}
		n = t.Field(n, "object")
	}
	n := obj
	for i := 0; i <= lang.MaxChain; i++ {
		next := int32(-1)
		switch t.Kind(n) {
		case "method_invocation", "field_access":
			next = t.Field(n, "object")
		case "array_access":
			next = t.Field(n, "array")
		case "parenthesized_expression":
			next = t.FirstNamedChild(n)
		}
		if next < 0 {
			break
		}
		n = next
	}
	switch t.Kind(n) {
	case "identifier":
		name := t.Text(n)
		vt, vc, vh, ok := c.scope.Lookup(name)
		switch {
		case !ok:
			if e := erase(c.scope, name); e != name {
				typ = e // T::m, E.valueOf(): a type variable stands for its bound
			}
		case vc == "":
			typ = vt
		case call == "":
			// x.m() or x.f.m() with x = a.b()
			typ, call = vh, vc
		case strings.HasPrefix(call, name):
			// x.c().m() with x = a.b(): a.b().c().m()
			typ, call = vh, vc+"()"+call[len(name):]
		}
	case "this", "super":
		switch {
		case c.anon != "":
			// this and super of an anonymous class are its base
			typ = c.anon
		case t.Kind(n) == "this" && c.cls >= 0:
			typ = x.Facts.Symbols[c.cls].Qualified()
		}
	case "object_creation_expression":
		typ = stripType(t.FieldText(n, "type"))
	case "cast_expression":
		typ = stripType(t.FieldText(n, "type"))
	case "string_literal":
		typ = "String"
	case "class_literal":
		typ = "Class"
	case "binary_expression":
		// ("x" + y).m(): a string concatenation (the operator, being
		// punctuation, is not in the tree: it is the text between)
		l, r := t.Field(n, "left"), t.Field(n, "right")
		if l >= 0 && r >= 0 && (t.Kind(l) == "string_literal" || t.Kind(r) == "string_literal") &&
			strings.TrimSpace(string(t.Src[t.Nodes[l].EndByte:t.Nodes[r].StartByte])) == "+" {
			typ = "String"
		}
	}
	return typ, call
}

func call(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	name := t.FieldText(n, "name")
	r := lang.Ref{Kind: lang.RefCall, Name: name, Symbol: c.sym}
	obj := t.Field(n, "object")
	if obj < 0 {
		obj = t.ChildOfKind(n, "super")
	}
	if obj < 0 {
		// the implicit this of an anonymous class body is its base type
		r.QualifierType = c.anon
	} else {
		r.Qualifier = expr(t, obj, 0)
		r.QualifierType, r.QualifierCall = head(x, obj, c)
	}
	x.Ref(r, n)
}

func newExpr(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	ty := t.Field(n, "type")
	typ := ""
	if ty >= 0 {
		typ = stripType(t.Text(ty))
		name, qual := lang.SplitType(typ)
		r := lang.Ref{Kind: lang.RefNew, Name: name, Qualifier: qual, Symbol: c.sym}
		if qual == "" {
			if outer := t.FirstNamedChild(n); outer >= 0 && outer != ty && t.Kind(outer) != "argument_list" &&
				t.Kind(outer) != "class_body" && t.Kind(outer) != "type_arguments" && t.Nodes[outer].StartByte < t.Nodes[ty].StartByte {
				// outer.new Inner(): a member type of outer's type
				r.QualifierType, _ = head(x, outer, c)
			} else {
				// new Inner() in an anonymous class body may mean a
				// member type of its base
				r.QualifierType = c.anon
			}
		}
		x.Ref(r, n)
	}
	inner := c
	inner.top = false
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "class_body":
			// an anonymous class: its members are code of the enclosing
			// symbol, and its bare calls may mean its base's methods
			a := inner
			a.anon, a.code = typ, true
			a.scope = &lang.Scope{Parent: c.scope}
			for m := range t.NamedChildren(ch) {
				walkNode(x, m, a)
			}
		case "argument_list":
			walkNode(x, ch, inner)
		default:
			if ch != ty {
				walkNode(x, ch, inner)
			}
		}
	}
}

// ctorCall records this(...) and super(...) as calls of a constructor
// of the class or of its superclass, named after that class.
func ctorCall(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	ctor := t.Field(n, "constructor")
	if ctor < 0 || c.cls < 0 {
		return
	}
	cls := &x.Facts.Symbols[c.cls]
	switch t.Kind(ctor) {
	case "this":
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: cls.Name, Qualifier: "this", QualifierType: cls.Qualified(), Symbol: c.sym}, n)
	case "super":
		name := "Object"
		if cn := x.SymNode[c.cls]; cn >= 0 && t.Field(cn, "superclass") >= 0 && len(cls.Signature.Bases) > 0 {
			name, _ = lang.SplitType(stripType(cls.Signature.Bases[0]))
		}
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: "super", Symbol: c.sym}, n)
	}
}

// methodRef records Type::method and obj::method as calls, and
// Type::new as a construction.
func methodRef(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	first := t.FirstNamedChild(n)
	if first < 0 {
		return
	}
	last := int32(-1)
	isNew := false
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "new":
			isNew = true
		case "identifier":
			if ch != first {
				last = ch
			}
		}
	}
	switch {
	case isNew:
		if t.Kind(first) == "array_type" {
			return
		}
		name, qual := lang.SplitType(stripType(t.Text(first)))
		x.Ref(lang.Ref{Kind: lang.RefNew, Name: name, Qualifier: qual, Symbol: c.sym}, n)
	case last >= 0:
		r := lang.Ref{Kind: lang.RefCall, Name: t.Text(last), Qualifier: expr(t, first, 0), Symbol: c.sym}
		r.QualifierType, r.QualifierCall = head(x, first, c)
		x.Ref(r, n)
	}
	c.top = false
	if t.Kind(first) != "identifier" && t.Kind(first) != "this" && t.Kind(first) != "super" {
		walkNode(x, first, c)
	}
}

func lambda(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	scope := &lang.Scope{Parent: c.scope}
	if ps := t.Field(n, "parameters"); ps >= 0 {
		switch t.Kind(ps) {
		case "identifier":
			setType(scope, t.Text(ps), "")
		case "inferred_parameters":
			for p := range t.NamedChildren(ps) {
				setType(scope, t.Text(p), "")
			}
		case "formal_parameters":
			paramList(x.Tree, ps, scope)
		}
	}
	c.scope, c.top = scope, false
	if b := t.Field(n, "body"); b >= 0 {
		walkNode(x, b, c)
	}
}

// guard records if (cond) return ...; and if (cond) throw ...; (braced
// or not) among the statements of a method body.
var guard = lang.IfGuard{Body: "consequence", Block: "block"}

func throw(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	e := t.FirstNamedChild(n)
	if e < 0 {
		return
	}
	what := lang.OneLine(t.Text(e))
	if t.Kind(e) == "object_creation_expression" {
		what = stripType(t.FieldText(e, "type"))
	}
	x.Throw(c.sym, "throws", what, n)
}

// nullChecks are the calls that throw when their first argument is
// null; argChecks throw when their first argument is false.
var (
	nullChecks = map[string]bool{"requireNonNull": true, "checkNotNull": true, "notNull": true}
	argChecks  = map[string]bool{"checkArgument": true, "checkState": true, "isTrue": true}
)

// checkCall records precondition calls (Objects.requireNonNull,
// Preconditions.checkArgument, Validate.isTrue) in a statement of a method
// body as invariants, also when their result is assigned.
func checkCall(x *lang.Extractor, st int32, c state) {
	t := x.Tree
	e := t.FirstNamedChild(st)
	for e >= 0 && t.Kind(e) == "assignment_expression" {
		e = t.Field(e, "right")
	}
	if e < 0 || t.Kind(e) != "method_invocation" {
		return
	}
	name := t.FieldText(e, "name")
	args := t.Field(e, "arguments")
	if args < 0 {
		return
	}
	arg := t.FirstNamedChild(args)
	if arg < 0 {
		return
	}
	switch {
	case nullChecks[name]:
		x.Guard(c.sym, t.Text(arg)+" == null", "throw", st)
	case argChecks[name]:
		x.Guard(c.sym, "!("+t.Text(arg)+")", "throw", st)
	}
}
