// Package kotlin is sdl's room for Kotlin: a walker over the syntax tree
// (packages, classes, objects, functions, properties, imports, the types
// of locals, guards and side effects), resolution through the package
// resolver it shares with Swift and Scala, and the skeleton rules of its
// braced bodies.
package kotlin

import (
	"embed"
	"strings"
	"unicode"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/grammar"
)

// data holds the room's data files: test-path patterns, side effects and
// word lists.
//
//go:embed *.txt
var data embed.FS

func init() {
	lang.RegisterWalker(lang.Walker{
		Name:          "kotlin",
		Extensions:    []string{".kt", ".kts"},
		Grammar:       grammar.Kotlin(),
		Comments:      []string{"line_comment", "block_comment"},
		Strings:       []string{"string_literal", "multiline_string_literal", "character_literal"},
		Idents:        []string{"identifier"},
		Data:          data,
		Builtins:      builtins,
		Extract:       extract,
		Resolve:       resolver.Resolve,
		ResolveImport: resolver.ResolveImport,
		Skeleton:      skeleton,
		Fixup:         primaryConstructorVisibility,
	})
}

// state is where the walker is.
type state struct {
	sym     int // the symbol code belongs to
	members int // the class whose body is walked, -1 in code
	cls     int // the innermost class, -1 outside
	iface   bool
	static  bool // in a companion object: members are the class's statics
	top     bool // a statement of a function body itself, where an early exit is a guard
	scope   *lang.Scope
}

// testAnnotations mark test functions (JUnit 4 and 5, kotlin.test).
var testAnnotations = lang.WordFile(data, "test_annotations.txt")

func extract(x *lang.Extractor) {
	c := state{members: -1, cls: -1, scope: &lang.Scope{}}
	for n := range x.Tree.NamedChildren(0) {
		node(x, n, c)
	}
}

func node(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	switch t.Kind(n) {
	case "line_comment", "block_comment", "modifiers", "annotation", "file_annotation", "shebang":
		return
	case "package_header":
		if q := t.FirstNamedChild(n); q >= 0 {
			x.Facts.Module = lang.OneLine(t.Text(q))
			x.Facts.Symbols[0].Name = x.Facts.Module
		}
		return
	case "import":
		importDecl(x, n)
		return
	case "class_declaration", "object_declaration":
		class(x, n, c)
		return
	case "annotated_expression":
		if misreadClass(x, n, c) {
			return
		}
	case "companion_object":
		if c.members >= 0 {
			if b := t.ChildOfKind(n, "class_body"); b >= 0 {
				inner := c
				inner.static = true
				for m := range t.NamedChildren(b) {
					node(x, m, inner)
				}
			}
			return
		}
	case "function_declaration":
		function(x, n, c)
		return
	case "secondary_constructor":
		constructor(x, n, c)
		return
	case "property_declaration":
		property(x, n, c)
		return
	case "type_alias":
		if name := t.Field(n, "type"); name >= 0 {
			s := lang.Symbol{Kind: lang.KindType, Name: t.Text(name), Parent: c.sym}
			if c.members >= 0 {
				s.Parent = c.members
			}
			visibility(x, &s, n, c)
			s.Signature.Text = lang.OneLine(t.Text(n))
			s.Doc = x.DocBefore(n)
			x.AddSymbol(s, n, name, -1)
		}
		return
	case "anonymous_initializer":
		inner := c
		inner.members, inner.top = -1, false
		for ch := range t.NamedChildren(n) {
			node(x, ch, inner)
		}
		return
	case "call_expression":
		call(x, n, c)
		if c.top {
			if f := t.FirstNamedChild(n); f >= 0 && t.Kind(f) == "identifier" {
				switch t.Text(f) {
				case "require", "check", "requireNotNull", "checkNotNull":
					if args := t.ChildOfKind(n, "value_arguments"); args >= 0 {
						if a := t.FirstNamedChild(args); a >= 0 {
							x.Guard(c.sym, "!("+t.Text(a)+")", "throw", n)
						}
					}
				}
			}
		}
	case "if_expression":
		if c.top {
			guard(x, n, c)
		}
	case "throw_expression":
		what := ""
		if e := t.FirstNamedChild(n); e >= 0 {
			what = t.Text(e)
			if t.Kind(e) == "call_expression" {
				if f := t.FirstNamedChild(e); f >= 0 {
					what = t.Text(f)
				}
			}
		}
		x.Throw(c.sym, "throws", what, n)
	case "for_statement":
		// for (x in xs): x has no type we know
		for ch := range t.NamedChildren(n) {
			if t.Kind(ch) == "variable_declaration" {
				if id := t.ChildOfKind(ch, "identifier"); id >= 0 {
					c.scope.Set(t.Text(id), typeOf(x, ch), "", "")
				}
			}
		}
	case "lambda_literal", "anonymous_function", "object_literal":
		inner := c
		inner.scope = &lang.Scope{Parent: c.scope}
		inner.members, inner.top = -1, false
		for ch := range t.NamedChildren(n) {
			node(x, ch, inner)
		}
		return
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		node(x, ch, c)
	}
}

// classWords are the modifiers a class header may start with.
var classWords = map[string]bool{"annotation": true, "enum": true, "open": true, "abstract": true, "sealed": true,
	"data": true, "inner": true, "value": true, "expect": true, "actual": true, "internal": true, "private": true,
	"public": true, "protected": true}

// misreadClass adds the class the pinned grammar reads as an expression: an
// annotated class with neither parameters nor body, "@DslMarker annotation
// class KoinDslMarker" or "@RequiresOptIn(...) annotation class
// KoinInternalApi", becomes the annotations of the identifiers
// "annotation class KoinDslMarker". It reports whether n was one.
func misreadClass(x *lang.Extractor, n int32, c state) bool {
	t := x.Tree
	var annotations []string
	e := n
	for t.Kind(e) == "annotated_expression" {
		next := int32(-1)
		for ch := range t.NamedChildren(e) {
			if t.Kind(ch) == "annotation" {
				annotations = append(annotations, t.Text(ch))
			} else {
				next = ch
			}
		}
		if next < 0 {
			return false
		}
		e = next
	}
	if t.Kind(e) != "infix_expression" {
		return false
	}
	var words []int32
	for ch := range t.Children(e) {
		if t.Kind(ch) != "identifier" {
			return false
		}
		words = append(words, ch)
	}
	if len(words) < 3 || t.Text(words[len(words)-2]) != "class" {
		return false
	}
	for _, w := range words[:len(words)-2] {
		if !classWords[t.Text(w)] {
			return false
		}
	}
	parent := c.sym
	if c.members >= 0 {
		parent = c.members
	}
	name := words[len(words)-1]
	s := lang.Symbol{Kind: lang.KindClass, Name: t.Text(name), Parent: parent, Exported: true, Visibility: lang.VisPublic}
	for _, a := range annotations {
		a = strings.TrimPrefix(lang.OneLine(a), "@")
		if i := strings.IndexAny(a, "(<"); i >= 0 {
			a = a[:i]
		}
		s.Signature.Modifiers = append(s.Signature.Modifiers, "@"+a)
	}
	for _, w := range words[:len(words)-2] {
		switch v := t.Text(w); v {
		case "private":
			s.Exported, s.Visibility = false, lang.VisPrivate
		case "protected":
			s.Exported, s.Visibility = false, lang.VisProtected
		case "internal":
			s.Exported, s.Visibility = false, lang.VisInternal
		case "public":
		default:
			s.Signature.Modifiers = append(s.Signature.Modifiers, v)
		}
	}
	s.Signature.Text = lang.OneLine(t.Text(n))
	s.Doc = x.DocBefore(n)
	x.AddSymbol(s, n, name, -1)
	return true
}

// modifiers returns a declaration's visibility keyword, its other modifiers
// and annotations, and whether an annotation marks a test.
func modifiers(x *lang.Extractor, n int32) (vis string, mods []string, test bool) {
	t := x.Tree
	m := t.ChildOfKind(n, "modifiers")
	if m < 0 {
		return "", nil, false
	}
	for ch := range t.NamedChildren(m) {
		switch k := t.Kind(ch); k {
		case "visibility_modifier":
			vis = t.Text(ch)
		case "annotation":
			name := strings.TrimPrefix(lang.OneLine(t.Text(ch)), "@")
			if i := strings.IndexAny(name, "(<"); i >= 0 {
				name = name[:i]
			}
			mods = append(mods, "@"+name)
			if testAnnotations[lang.LastIdent(name)] {
				test = true
			}
		default:
			mods = append(mods, lang.OneLine(t.Text(ch)))
		}
	}
	return vis, mods, test
}

// visibility: Kotlin declarations are public unless marked; internal is
// visible in the compilation unit only.
func visibility(x *lang.Extractor, s *lang.Symbol, n int32, c state) (mods []string, test bool) {
	vis, mods, test := modifiers(x, n)
	switch vis {
	case "", "public":
		s.Exported, s.Visibility = true, lang.VisPublic
	case "protected":
		s.Visibility = lang.VisProtected
	case "private":
		s.Visibility = lang.VisPrivate
	default:
		s.Visibility = lang.VisInternal
	}
	return mods, test
}

func importDecl(x *lang.Extractor, n int32) {
	t := x.Tree
	q := t.ChildOfKind(n, "qualified_identifier")
	if q < 0 {
		q = t.ChildOfKind(n, "identifier")
	}
	if q < 0 {
		return
	}
	src := lang.OneLine(t.Text(q))
	imp := lang.Import{Source: src, Line: t.StartLine(n), Symbol: 0}
	text := strings.TrimSpace(t.Text(n))
	switch {
	case strings.HasSuffix(text, "*"):
		imp.Names = []lang.ImportName{{Name: "*"}}
	default:
		// the alias is the identifier after the path
		for ch := range t.NamedChildren(n) {
			if ch != q && t.Kind(ch) == "identifier" {
				imp.Alias = t.Text(ch)
			}
		}
	}
	x.Facts.Imports = append(x.Facts.Imports, imp)
}

// stripType reduces a type as written to its name: "List<Item>?" ->
// "List", "a.b.C<T>" -> "a.b.C".
func stripType(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, "?! ")
	if strings.ContainsAny(s, "()-> ") {
		return "" // a function type
	}
	return s
}

// extensionOf is the type an extension function extends, "" when s is
// none or extends what no class declares: a function type, one of its
// own type parameters (fun <T> T.also()).
func extensionOf(s lang.Symbol) string {
	recv := stripType(s.Signature.Receiver)
	if recv == "" {
		return ""
	}
	for _, g := range s.Signature.Generics {
		// "T", "reified T", "T : Comparable<T>"
		name, _, _ := strings.Cut(g, ":")
		if f := strings.Fields(name); len(f) > 0 && f[len(f)-1] == recv {
			return ""
		}
	}
	for _, r := range recv {
		if r != '.' && r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return ""
		}
	}
	return recv
}

// isType reports whether a node kind is a type.
func isType(k string) bool {
	switch k {
	case "user_type", "nullable_type", "function_type", "parenthesized_type", "non_nullable_type",
		"type_modifiers", "dynamic":
		return true
	}
	return false
}

// typeOf is the declared type of a variable_declaration or parameter.
func typeOf(x *lang.Extractor, n int32) string {
	for ch := range x.Tree.NamedChildren(n) {
		if isType(x.Tree.Kind(ch)) {
			return lang.OneLine(x.Tree.Text(ch))
		}
	}
	return ""
}

func class(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	name := t.Field(n, "name")
	if name < 0 {
		name = t.ChildOfKind(n, "identifier")
	}
	if name < 0 {
		return
	}
	parent := c.sym
	if c.members >= 0 {
		parent = c.members
	}
	s := lang.Symbol{Kind: lang.KindClass, Name: t.Text(name), Parent: parent}
	mods, _ := visibility(x, &s, n, c)
	iface := false
	for ch := range t.Children(n) {
		if t.Kind(ch) == "interface" && !t.Named(ch) {
			iface = true
		}
	}
	if iface {
		s.Kind = lang.KindInterface
	}
	if t.Kind(n) == "object_declaration" {
		mods = append(mods, "object")
	}
	s.Signature.Modifiers = mods
	if tp := t.ChildOfKind(n, "type_parameters"); tp >= 0 {
		for p := range t.NamedChildren(tp) {
			s.Signature.Generics = append(s.Signature.Generics, lang.OneLine(t.Text(p)))
		}
	}
	body := t.ChildOfKind(n, "class_body")
	if body < 0 {
		body = t.ChildOfKind(n, "enum_class_body")
	}
	// primary constructor parameters: val/var ones are properties
	var props []int32
	if pc := t.ChildOfKind(n, "primary_constructor"); pc >= 0 {
		if cps := t.ChildOfKind(pc, "class_parameters"); cps >= 0 {
			for p := range t.NamedChildren(cps) {
				if t.Kind(p) != "class_parameter" {
					continue
				}
				id := t.ChildOfKind(p, "identifier")
				if id < 0 {
					continue
				}
				param := lang.Param{Name: t.Text(id), Type: typeOf(x, p)}
				if nx := t.NextSibling(p); nx >= 0 && t.Named(nx) && t.Kind(nx) != "class_parameter" {
					param.Default = lang.OneLine(t.Text(nx))
				}
				s.Signature.Params = append(s.Signature.Params, param)
				for k := range t.Children(p) {
					if kk := t.Kind(k); (kk == "val" || kk == "var") && !t.Named(k) {
						props = append(props, p)
						s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: param.Name, Type: param.Type})
						break
					}
				}
			}
		}
	}
	var extends, implements []int32
	if ds := t.ChildOfKind(n, "delegation_specifiers"); ds >= 0 {
		for d := range t.NamedChildren(ds) {
			ty := t.FirstNamedChild(d)
			if ty < 0 {
				continue
			}
			if t.Kind(ty) == "constructor_invocation" {
				if u := t.ChildOfKind(ty, "user_type"); u >= 0 {
					extends = append(extends, u)
				}
				continue
			}
			if t.Kind(ty) == "explicit_delegation" {
				ty = t.FirstNamedChild(ty)
			}
			if ty >= 0 && t.Kind(ty) == "user_type" {
				if iface {
					extends = append(extends, ty)
				} else {
					implements = append(implements, ty)
				}
			}
		}
	}
	for _, b := range append(append([]int32{}, extends...), implements...) {
		s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(b)))
	}
	if body >= 0 {
		for m := range t.NamedChildren(body) {
			switch t.Kind(m) {
			case "property_declaration":
				if vd := t.ChildOfKind(m, "variable_declaration"); vd >= 0 {
					if id := t.ChildOfKind(vd, "identifier"); id >= 0 {
						typ := typeOf(x, vd)
						if typ == "" {
							typ = initType(x, m)
						}
						s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(id), Type: typ})
					}
				}
			case "enum_entry":
				if id := t.ChildOfKind(m, "identifier"); id >= 0 {
					s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(id), Type: s.Name})
				}
			}
		}
	}
	s.Signature.Text = x.HeaderText(n, body)
	s.Doc = x.DocBefore(n)
	sym := x.AddSymbol(s, n, name, body)
	for _, b := range extends {
		typeRef(x, b, sym, lang.RefExtends)
	}
	for _, b := range implements {
		typeRef(x, b, sym, lang.RefImplements)
	}
	scope := &lang.Scope{Parent: c.scope}
	for _, f := range x.Facts.Symbols[sym].Signature.Fields {
		scope.Set(f.Name, stripType(f.Type), "", "")
	}
	scope.Set("this", x.Facts.Symbols[sym].Name, "", "")
	inner := state{sym: sym, members: sym, cls: sym, iface: iface, scope: scope}
	for _, p := range props {
		id := t.ChildOfKind(p, "identifier")
		ps := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(id), Parent: sym}
		mods, _ := visibility(x, &ps, p, inner)
		ps.Signature.Modifiers = mods
		ps.Signature.Returns = typeOf(x, p)
		ps.Signature.Text = lang.OneLine(t.Text(p))
		x.AddSymbol(ps, p, id, -1)
	}
	// delegation calls: Base(args) runs code
	if ds := t.ChildOfKind(n, "delegation_specifiers"); ds >= 0 {
		for d := range t.Descendants(ds) {
			if t.Kind(d) == "value_arguments" {
				node(x, d, state{sym: sym, members: -1, cls: sym, scope: scope})
			}
		}
	}
	if body >= 0 {
		for m := range t.NamedChildren(body) {
			if t.Kind(m) == "enum_entry" {
				if id := t.ChildOfKind(m, "identifier"); id >= 0 {
					es := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(id), Parent: sym, Exported: s.Exported,
						Visibility: x.Facts.Symbols[sym].Visibility}
					es.Signature.Returns = s.Name
					es.Signature.Text = lang.OneLine(t.Text(m))
					x.AddSymbol(es, m, id, -1)
				}
				for ch := range t.NamedChildren(m) {
					if t.Kind(ch) != "identifier" {
						node(x, ch, state{sym: sym, members: -1, cls: sym, scope: scope})
					}
				}
				continue
			}
			node(x, m, inner)
		}
	}
}

// stdResult is the type the standard library's builders return, so
// that calls on what they make are known to be the library's.
var stdResult = map[string]string{
	"listOf": "List", "mutableListOf": "MutableList", "arrayListOf": "ArrayList", "emptyList": "List",
	"buildList": "List", "setOf": "Set", "mutableSetOf": "MutableSet", "hashSetOf": "HashSet", "emptySet": "Set",
	"mapOf": "Map", "mutableMapOf": "MutableMap", "hashMapOf": "HashMap", "emptyMap": "Map", "buildMap": "Map",
	"arrayOf": "Array", "sequenceOf": "Sequence", "buildString": "String", "lazy": "Lazy",
}

// initType guesses a property's type from its initializer: a
// constructor call T(...) gives T.
func initType(x *lang.Extractor, prop int32) string {
	t := x.Tree
	for ch := range t.NamedChildren(prop) {
		if t.Kind(ch) == "call_expression" {
			if f := t.FirstNamedChild(ch); f >= 0 && t.Kind(f) == "identifier" {
				if lang.IsUpper(t.Text(f)) {
					return t.Text(f)
				}
				return stdResult[t.Text(f)]
			}
		}
	}
	return ""
}

// typeRef records a reference of kind to the type at node ty.
func typeRef(x *lang.Extractor, ty int32, sym int, kind string) {
	typ := stripType(x.Tree.Text(ty))
	name, qual := lang.SplitType(typ)
	if name == "" {
		return
	}
	x.Ref(lang.Ref{Kind: kind, Name: name, Qualifier: qual, Symbol: sym}, ty)
}

// paramList reads function_value_parameters, declaring them in scope.
func paramList(x *lang.Extractor, list int32, scope *lang.Scope) []lang.Param {
	t := x.Tree
	if list < 0 {
		return nil
	}
	var out []lang.Param
	vararg := false
	for p := range t.NamedChildren(list) {
		switch t.Kind(p) {
		case "parameter_modifiers":
			vararg = strings.Contains(t.Text(p), "vararg")
		case "parameter":
			id := t.ChildOfKind(p, "identifier")
			if id < 0 {
				continue
			}
			param := lang.Param{Name: t.Text(id), Type: typeOf(x, p), Variadic: vararg}
			vararg = false
			if nx := t.NextSibling(p); nx >= 0 && t.Named(nx) && t.Kind(nx) != "parameter" && t.Kind(nx) != "parameter_modifiers" {
				param.Default = lang.OneLine(t.Text(nx))
				param.Optional = true
			}
			out = append(out, param)
			if scope != nil {
				scope.Set(param.Name, stripType(param.Type), "", "")
			}
		}
	}
	return out
}

func function(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	parent := c.sym
	kind := lang.KindFunction
	if c.members >= 0 {
		parent, kind = c.members, lang.KindMethod
	}
	s := lang.Symbol{Kind: kind, Name: t.Text(name), Parent: parent}
	mods, test := visibility(x, &s, n, c)
	if c.static {
		mods = append(mods, "static")
	}
	if c.iface && c.members >= 0 && !lang.ContainsStr(mods, "abstract") && t.ChildOfKind(n, "function_body") < 0 {
		mods = append(mods, "abstract")
	}
	scope := &lang.Scope{Parent: c.scope}
	var params int32 = -1
	for ch := range t.NamedChildren(n) {
		k := t.Kind(ch)
		switch {
		case k == "type_parameters":
			for p := range t.NamedChildren(ch) {
				s.Signature.Generics = append(s.Signature.Generics, lang.OneLine(t.Text(p)))
			}
		case k == "function_value_parameters":
			params = ch
		case isType(k) && ch < name:
			// fun Receiver.name(): an extension function
			s.Signature.Receiver = lang.OneLine(t.Text(ch))
			scope.Set("this", stripType(s.Signature.Receiver), "", "")
		case isType(k) && params >= 0:
			s.Signature.Returns = lang.OneLine(t.Text(ch))
		}
	}
	s.Signature.Params = paramList(x, params, scope)
	s.Signature.Modifiers = mods
	if recv := extensionOf(s); recv != "" && c.members < 0 && parent == 0 {
		// a top-level fun T.name() is one of T's methods to a reader and
		// to resolution (v.name() with v: T); the receiver stays in the
		// signature, which tells it from a member
		s.Container, s.Kind = recv, lang.KindMethod
	}
	body := t.ChildOfKind(n, "function_body")
	s.Signature.Text = x.HeaderText(n, body)
	s.Doc = x.DocBefore(n)
	s.IsTest = test || x.Facts.IsTest && strings.HasPrefix(s.Name, "test")
	sym := x.AddSymbol(s, n, name, body)
	if body >= 0 {
		inner := state{sym: sym, members: -1, cls: c.cls, scope: scope, top: true}
		for ch := range t.NamedChildren(body) {
			if t.Kind(ch) == "block" {
				for st := range t.NamedChildren(ch) {
					node(x, st, inner)
				}
			} else {
				inner.top = false
				node(x, ch, inner)
			}
		}
	}
}

func constructor(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	if c.members < 0 {
		return
	}
	cls := x.Facts.Symbols[c.members]
	s := lang.Symbol{Kind: lang.KindConstructor, Name: cls.Name, Parent: c.members}
	s.Signature.Modifiers, _ = visibility(x, &s, n, c)
	scope := &lang.Scope{Parent: c.scope}
	s.Signature.Params = paramList(x, t.ChildOfKind(n, "function_value_parameters"), scope)
	body := t.ChildOfKind(n, "block")
	s.Signature.Text = x.HeaderText(n, body)
	s.Doc = x.DocBefore(n)
	sym := x.AddSymbol(s, n, -1, body)
	inner := state{sym: sym, members: -1, cls: c.cls, scope: scope}
	if d := t.ChildOfKind(n, "constructor_delegation_call"); d >= 0 {
		// this(...) and super(...): the class's own constructor or its base
		target := cls.Name
		if strings.HasPrefix(strings.TrimSpace(t.Text(d)), "super") && len(cls.Signature.Bases) > 0 {
			target = stripType(cls.Signature.Bases[0])
		}
		name, qual := lang.SplitType(target)
		x.Ref(lang.Ref{Kind: lang.RefNew, Name: name, Qualifier: qual, Symbol: sym}, d)
		for ch := range t.NamedChildren(d) {
			node(x, ch, inner)
		}
	}
	if body >= 0 {
		inner.top = true
		for st := range t.NamedChildren(body) {
			node(x, st, inner)
		}
	}
}

func property(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	vd := t.ChildOfKind(n, "variable_declaration")
	var id int32 = -1
	if vd >= 0 {
		id = t.ChildOfKind(vd, "identifier")
	}
	typ := ""
	if vd >= 0 {
		typ = typeOf(x, vd)
	}
	// the initializer: a call, its callee and the type it makes
	var init int32 = -1
	for ch := range t.NamedChildren(n) {
		if ch != vd && t.Kind(ch) != "modifiers" && t.Kind(ch) != "type_parameters" && t.Kind(ch) != "getter" &&
			t.Kind(ch) != "setter" && t.Kind(ch) != "property_delegate" {
			init = ch
			break
		}
	}
	call := ""
	if typ == "" && init >= 0 && t.Kind(init) == "call_expression" {
		if f := t.FirstNamedChild(init); f >= 0 {
			switch t.Kind(f) {
			case "identifier":
				if lang.IsUpper(t.Text(f)) {
					typ = t.Text(f)
				} else if std := stdResult[t.Text(f)]; std != "" {
					typ = std
				} else {
					call = t.Text(f)
				}
			case "navigation_expression":
				call = chains.Chain(x.Tree, f)
			}
		}
	}
	local := c.members < 0 && c.sym != 0 && x.Facts.Symbols[c.sym].Kind != lang.KindClass && x.Facts.Symbols[c.sym].Kind != lang.KindInterface
	if id >= 0 && local {
		c.scope.Set(t.Text(id), stripType(typ), call, "")
		c.top = false
		for ch := range t.NamedChildren(n) {
			if ch != vd {
				node(x, ch, c)
			}
		}
		return
	}
	sym := c.sym
	if id >= 0 {
		parent := c.sym
		if c.members >= 0 {
			parent = c.members
		}
		s := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(id), Parent: parent}
		mods, _ := visibility(x, &s, n, c)
		if c.static {
			mods = append(mods, "static")
		}
		for ch := range t.Children(n) {
			if k := t.Kind(ch); (k == "val" || k == "var") && !t.Named(ch) {
				mods = append(mods, k)
			}
		}
		s.Signature.Modifiers = mods
		s.Signature.Returns = typ
		s.Signature.Text = lang.Shorten(lang.OneLine(t.Text(n)), lang.MaxSigText)
		s.Doc = x.DocBefore(n)
		sym = x.AddSymbol(s, n, id, init)
		if c.members < 0 {
			c.scope.Set(t.Text(id), stripType(typ), call, "")
		}
	}
	inner := c
	inner.sym, inner.members, inner.top = sym, -1, false
	for ch := range t.NamedChildren(n) {
		if ch != vd && t.Kind(ch) != "modifiers" {
			node(x, ch, inner)
		}
	}
}

// chains reads navigation chains of plain names ("a.b.c", "this.repo").
var chains = &lang.ChainKinds{Ident: "identifier", SelfKind: "this_expression", SelfWord: "this", SuperKind: "super_expression",
	Nav: "navigation_expression", Call: "call_expression"}

func call(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	f := t.FirstNamedChild(n)
	if f < 0 {
		return
	}
	switch t.Kind(f) {
	case "identifier":
		name := t.Text(f)
		kind := lang.RefCall
		if lang.IsUpper(name) {
			kind = lang.RefNew // Kotlin constructs without new
		}
		x.Ref(lang.Ref{Kind: kind, Name: name, Symbol: c.sym}, f)
	case "navigation_expression":
		var parts []int32
		for ch := range t.NamedChildren(f) {
			parts = append(parts, ch)
		}
		if len(parts) < 2 {
			return
		}
		last := parts[len(parts)-1]
		if t.Kind(last) != "identifier" {
			return
		}
		r := lang.Ref{Kind: lang.RefCall, Name: t.Text(last), Symbol: c.sym}
		recv := parts[0]
		if len(parts) > 2 {
			// a.b.c(): the receiver is everything before the last name
			q := ""
			for _, p := range parts[:len(parts)-1] {
				s := chains.Chain(x.Tree, p)
				if s == "" {
					q = ""
					break
				}
				if q != "" {
					q += "."
				}
				q += s
			}
			r.Qualifier = q
		} else {
			r.Qualifier, r.QualifierCall = chains.Receiver(t, recv)
		}
		if r.Qualifier != "" && r.QualifierCall == "" {
			self, super := "", ""
			if c.cls >= 0 {
				cls := &x.Facts.Symbols[c.cls]
				self = cls.Name
				if len(cls.Signature.Bases) > 0 {
					super = stripType(cls.Signature.Bases[0])
				}
			}
			chains.TypeHead(&r, c.scope, self, super)
		}
		lang.SettleCall(&r)
		x.Ref(r, last)
	}
}

// guard records if (cond) return/throw at the top of a function body.
func guard(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	cond := t.Field(n, "condition")
	if cond < 0 {
		return
	}
	for ch := range t.NamedChildren(n) {
		if ch == cond {
			continue
		}
		body := ch
		if t.Kind(body) == "block" {
			if first := t.FirstNamedChild(body); first >= 0 && t.NamedChildCount(body) == 1 {
				body = first
			}
		}
		switch t.Kind(body) {
		case "return_expression":
			x.Guard(c.sym, t.Text(cond), "return", n)
		case "throw_expression":
			x.Guard(c.sym, t.Text(cond), "throw", n)
		}
		return
	}
}

// resolver is the package resolver Kotlin shares with Swift and Scala.
var resolver = lang.NewPackageResolver("kotlin", []string{".kt", ".kts"}, lang.PackageRules{Self: "this", Explicit: true,
	StripType: stripType, Std: lang.WordList(data, "std.txt"), Common: lang.WordList(data, "common_methods.txt"),
	// a Gradle script calls its DSL
	DSLFile: func(p string) bool { return strings.HasSuffix(p, ".gradle.kts") }})

// builtins are the functions of kotlin.* and kotlin.io.* that every
// file calls without an import; calls to them are dropped.
var builtins = lang.WordFile(data, "builtins.txt")
