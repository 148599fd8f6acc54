// Package kotlin is sdl's room for Kotlin: classes, objects, functions,
// properties, bases, the package and imports come from tags.scm; this
// file holds what a query cannot say (signatures, visibility, which
// properties are symbols, and a walk that types locals and receivers for
// the calls it records, with guards, throws and side effects), resolution
// through the package resolver it shares with Swift and Scala, and the
// skeleton rules of its braced bodies.
package kotlin

import (
	"embed"
	"slices"
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

//go:embed tags.scm
var tags string

func init() {
	lang.Register(lang.Spec{
		Name:       "kotlin",
		Extensions: []string{".kt", ".kts"},
		Grammar:    grammar.Kotlin(),
		Query:      tags, QueryFile: "lang/kotlin/tags.scm",
		QueryRoots: []string{"class_declaration", "object_declaration", "annotated_expression", "function_declaration",
			"secondary_constructor", "type_alias", "property_declaration", "enum_entry", "package_header", "import"},
		Comments:  []string{"line_comment", "block_comment"},
		Strings:   []string{"string_literal", "multiline_string_literal", "character_literal"},
		Idents:    []string{"identifier"},
		Data:      data,
		Builtins:  lang.WordFile(data, "builtins.txt"),
		QueryRoot: property,
		Defs:      defs,
		DefName:   constructorName,
		Symbol:    symbol,
		Ref:       baseRef,
		Import:    importDecl,
		Finish:    finish,
		Resolver:  resolver,
		SkelRules: skeleton,
		Fixup:     func(src []byte) []byte { return multiDollarStrings(primaryConstructorVisibility(src)) },
	})
}

// property says whether the query runs from property n: one in a
// function's code, or in another property's initializer or a
// parameter's default (an object literal's, a lambda's), is a local, no
// symbol; that of a class, an
// object, an enum constant or the file is one.
func property(t *lang.Tree, n int32) bool {
	if t.Kind(n) != "property_declaration" {
		return true
	}
	for p := t.Parent(n); p >= 0; p = t.Parent(p) {
		switch t.Kind(p) {
		case "function_declaration", "secondary_constructor", "property_declaration", "class_parameter":
			return false
		case "class_declaration", "object_declaration", "enum_entry":
			return true
		}
	}
	return true
}

// defs makes an annotated class the grammar misread span its
// annotations.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	for i, d := range ds {
		for t.Kind(d.Node) == "annotated_expression" && t.Kind(t.Parent(d.Node)) == "annotated_expression" {
			d.Node = t.Parent(d.Node)
		}
		ds[i] = d
	}
	return ds
}

// owner is the class or object whose body (or companion object's body)
// declares n, -1 for none, and whether a companion object's does.
func owner(t *lang.Tree, n int32) (cls int32, companion bool) {
	p := t.Parent(n)
	if k := t.Kind(p); k != "class_body" && k != "enum_class_body" {
		return -1, false
	}
	p = t.Parent(p)
	if p >= 0 && t.Kind(p) == "companion_object" && t.Parent(p) >= 0 {
		p, companion = t.Parent(t.Parent(p)), true
	}
	if p < 0 || t.Kind(p) != "class_declaration" && t.Kind(p) != "object_declaration" {
		return -1, false
	}
	return p, companion
}

// constructorName names a secondary constructor after its class; one
// outside a class body makes no symbol.
func constructorName(t *lang.Tree, d lang.Def) string {
	if cls, _ := owner(t, d.Node); cls >= 0 {
		if name := t.Field(cls, "name"); name >= 0 {
			return t.Text(name)
		}
	}
	return ""
}

// symbol completes a definition of the query: visibility, modifiers and
// signature.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	n := d.Node
	cls, companion := owner(t, n)
	mods, test := visibility(t, s, n)
	if companion {
		mods = append(mods, "static")
	}
	switch t.Kind(n) {
	case "class_declaration", "object_declaration":
		mods = classSymbol(t, n, s, mods)
	case "annotated_expression":
		mods = misreadClass(t, n, d.Name, s)
	case "function_declaration":
		if cls >= 0 && keyword(t, cls, "interface") && !slices.Contains(mods, "abstract") && t.ChildOfKind(n, "function_body") < 0 {
			mods = append(mods, "abstract")
		}
		funcSignature(t, n, s)
		if recv := extensionOf(*s); recv != "" && s.Parent == 0 {
			// a top-level fun T.name() is one of T's methods to a reader and
			// to resolution (v.name() with v: T); the receiver stays in the
			// signature, which tells it from a member
			s.Container, s.Kind = recv, lang.KindMethod
		}
		s.IsTest = test
	case "secondary_constructor":
		s.Signature.Params = paramList(t, t.ChildOfKind(n, "function_value_parameters"))
	case "property_declaration":
		for ch := range t.Children(n) {
			if k := t.Kind(ch); (k == "val" || k == "var") && !t.Named(ch) {
				mods = append(mods, k)
			}
		}
		s.Signature.Returns, _ = propType(t, n)
		s.Signature.Text = lang.Shorten(lang.OneLine(t.Text(n)), lang.MaxSigText)
	case "class_parameter":
		s.Signature.Returns = typeOf(t, n)
		s.Signature.Text = lang.OneLine(t.Text(n))
	case "enum_entry":
		// an enum constant is as visible as its class, and of its type
		if cls >= 0 {
			visibility(t, s, cls)
			s.Signature.Returns = t.FieldText(cls, "name")
		}
		mods = nil
		s.Signature.Text = lang.OneLine(t.Text(n))
	case "type_alias":
		s.Signature.Text = lang.OneLine(t.Text(n))
	}
	s.Signature.Modifiers = mods
	return true
}

// children are the named children of the node at the path of kinds
// below n: children(t, n, "class_body") are a class's members.
func children(t *lang.Tree, n int32, path ...string) []int32 {
	for _, k := range path {
		if n = t.ChildOfKind(n, k); n < 0 {
			return nil
		}
	}
	var out []int32
	for ch := range t.NamedChildren(n) {
		out = append(out, ch)
	}
	return out
}

// propName is a property's name node, -1 for none (a destructuring).
func propName(t *lang.Tree, n int32) int32 {
	if vd := t.ChildOfKind(n, "variable_declaration"); vd >= 0 {
		return t.ChildOfKind(vd, "identifier")
	}
	return -1
}

// keyword reports whether node n has the anonymous child word.
func keyword(t *lang.Tree, n int32, word string) bool {
	for ch := range t.Children(n) {
		if t.Kind(ch) == word && !t.Named(ch) {
			return true
		}
	}
	return false
}

// classSymbol reads a class's or object's kind, type parameters, primary
// constructor, bases and fields.
func classSymbol(t *lang.Tree, n int32, s *lang.Symbol, mods []string) []string {
	iface := keyword(t, n, "interface")
	if iface {
		s.Kind = lang.KindInterface
	}
	if t.Kind(n) == "object_declaration" {
		mods = append(mods, "object")
	}
	s.Signature.Generics = t.ItemTexts(t.ChildOfKind(n, "type_parameters"))
	// primary constructor parameters: val/var ones are properties
	for _, p := range children(t, n, "primary_constructor", "class_parameters") {
		id := t.ChildOfKind(p, "identifier")
		if t.Kind(p) != "class_parameter" || id < 0 {
			continue
		}
		param := lang.Param{Name: t.Text(id), Type: typeOf(t, p)}
		if nx := t.NextSibling(p); nx >= 0 && t.Named(nx) && t.Kind(nx) != "class_parameter" {
			param.Default = lang.OneLine(t.Text(nx))
		}
		s.Signature.Params = append(s.Signature.Params, param)
		if keyword(t, p, "val") || keyword(t, p, "var") {
			s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: param.Name, Type: param.Type})
		}
	}
	// the bases as written: what a class extends first, then what it
	// implements
	var extends, implements []string
	for _, d := range children(t, n, "delegation_specifiers") {
		ty := t.FirstNamedChild(d)
		switch {
		case ty >= 0 && t.Kind(ty) == "constructor_invocation":
			if u := t.ChildOfKind(ty, "user_type"); u >= 0 {
				extends = append(extends, lang.OneLine(t.Text(u)))
			}
			continue
		case ty >= 0 && t.Kind(ty) == "explicit_delegation":
			ty = t.FirstNamedChild(ty)
		}
		if ty >= 0 && t.Kind(ty) == "user_type" {
			if iface {
				extends = append(extends, lang.OneLine(t.Text(ty)))
			} else {
				implements = append(implements, lang.OneLine(t.Text(ty)))
			}
		}
	}
	s.Signature.Bases = append(extends, implements...)
	for _, m := range append(children(t, n, "class_body"), children(t, n, "enum_class_body")...) {
		switch t.Kind(m) {
		case "property_declaration":
			if id := propName(t, m); id >= 0 {
				typ, _ := propType(t, m)
				s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(id), Type: typ})
			}
		case "enum_entry":
			if id := t.ChildOfKind(m, "identifier"); id >= 0 {
				s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(id), Type: s.Name})
			}
		}
	}
	return mods
}

// misreadClass reads the class the pinned grammar reads as an expression:
// an annotated class with neither parameters nor body, "@DslMarker
// annotation class KoinDslMarker" or "@RequiresOptIn(...) annotation class
// KoinInternalApi", becomes the annotations of the identifiers
// "annotation class KoinDslMarker".
func misreadClass(t *lang.Tree, n, name int32, s *lang.Symbol) []string {
	var mods []string
	for e := n; t.Kind(e) == "annotated_expression"; {
		next := int32(-1)
		for ch := range t.NamedChildren(e) {
			if t.Kind(ch) == "annotation" {
				mods = append(mods, annotation(t, ch))
			} else {
				next = ch
			}
		}
		e = next
	}
	s.Exported, s.Visibility = true, lang.VisPublic
	// the modifier before "class", or the two of "(args) public annotation"
	// when the last annotation lost its arguments to the infix call
	words := []int32{t.FirstNamedChild(t.Parent(name))}
	if head := words[0]; t.Kind(head) == "infix_expression" {
		words = words[:0]
		for ch := range t.NamedChildren(head) {
			if t.Kind(ch) == "identifier" {
				words = append(words, ch)
			}
		}
	}
	for _, ch := range words {
		switch w := t.Text(ch); w {
		case "private", "protected", "internal":
			s.Exported, s.Visibility = false, w
		case "public":
		default:
			mods = append(mods, w)
		}
	}
	s.Signature.Text = lang.OneLine(t.Text(n))
	return mods
}

// annotation is how an annotation reads among modifiers: "@Name".
func annotation(t *lang.Tree, n int32) string {
	name := strings.TrimPrefix(lang.OneLine(t.Text(n)), "@")
	if i := strings.IndexAny(name, "(<"); i >= 0 {
		name = name[:i]
	}
	return "@" + name
}

// testAnnotations mark test functions (JUnit 4 and 5, kotlin.test).
var testAnnotations = lang.WordFile(data, "test_annotations.txt")

// visibility reads a declaration's modifiers: Kotlin declarations are
// public unless marked; internal is visible in the compilation unit only.
// It returns the other modifiers and annotations, and whether an
// annotation marks a test.
func visibility(t *lang.Tree, s *lang.Symbol, n int32) (mods []string, test bool) {
	vis := ""
	for _, ch := range children(t, n, "modifiers") {
		switch t.Kind(ch) {
		case "visibility_modifier":
			vis = t.Text(ch)
		case "annotation":
			a := annotation(t, ch)
			mods = append(mods, a)
			test = test || testAnnotations.Has(lang.LastIdent(a[1:]))
		default:
			mods = append(mods, lang.OneLine(t.Text(ch)))
		}
	}
	s.Exported = false
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

func importDecl(t *lang.Tree, n int32) []lang.Import {
	q := t.ChildOfKind(n, "qualified_identifier")
	if q < 0 {
		q = t.ChildOfKind(n, "identifier")
	}
	if q < 0 {
		return nil
	}
	imp := lang.Import{Source: lang.OneLine(t.Text(q))}
	if strings.HasSuffix(strings.TrimSpace(t.Text(n)), "*") {
		imp.Names = []lang.ImportName{{Name: "*"}}
	} else {
		// the alias is the identifier after the path
		for ch := range t.NamedChildren(n) {
			if ch != q && t.Kind(ch) == "identifier" {
				imp.Alias = t.Text(ch)
			}
		}
	}
	return []lang.Import{imp}
}

// baseRef reads a base type as written ("a.b.C<T>") into its name and
// qualifier.
func baseRef(t *lang.Tree, m *lang.Match, r *lang.Ref) bool {
	r.Name, r.Qualifier = lang.SplitType(stripType(r.Name))
	return r.Name != ""
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

// types are the node kinds of types.
var types = lang.KindSet("user_type", "nullable_type", "function_type", "parenthesized_type", "non_nullable_type",
	"type_modifiers", "dynamic")

// typeOf is the declared type of a variable_declaration or parameter.
func typeOf(t *lang.Tree, n int32) string {
	for ch := range t.NamedChildren(n) {
		if types[t.Kind(ch)] {
			return lang.OneLine(t.Text(ch))
		}
	}
	return ""
}

// stdResult is the type the standard library's builders return, so
// that calls on what they make are known to be the library's.
var stdResult = map[string]string{
	"listOf": "List", "mutableListOf": "MutableList", "arrayListOf": "ArrayList", "emptyList": "List",
	"buildList": "List", "setOf": "Set", "mutableSetOf": "MutableSet", "hashSetOf": "HashSet", "emptySet": "Set",
	"mapOf": "Map", "mutableMapOf": "MutableMap", "hashMapOf": "HashMap", "emptyMap": "Map", "buildMap": "Map",
	"arrayOf": "Array", "sequenceOf": "Sequence", "buildString": "String", "lazy": "Lazy",
}

// propType is a property's declared type, else the type its initializer
// constructs (T(...), listOf(...)), and else the call whose result it
// holds.
func propType(t *lang.Tree, n int32) (typ, call string) {
	if vd := t.ChildOfKind(n, "variable_declaration"); vd >= 0 {
		if typ = typeOf(t, vd); typ != "" {
			return typ, ""
		}
	}
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "variable_declaration", "modifiers", "type_parameters", "getter", "setter", "property_delegate":
			continue
		case "call_expression":
			switch f := t.FirstNamedChild(ch); {
			case f >= 0 && t.Kind(f) == "identifier" && lang.IsUpper(t.Text(f)):
				return t.Text(f), ""
			case f >= 0 && t.Kind(f) == "identifier" && stdResult[t.Text(f)] != "":
				return stdResult[t.Text(f)], ""
			case f >= 0 && t.Kind(f) == "identifier":
				return "", t.Text(f)
			case f >= 0 && t.Kind(f) == "navigation_expression":
				return "", chains.Chain(t, f)
			}
		}
		break // the initializer is the first of the rest
	}
	return "", ""
}

// paramList reads function_value_parameters.
func paramList(t *lang.Tree, list int32) []lang.Param {
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
			param := lang.Param{Name: t.Text(id), Type: typeOf(t, p), Variadic: vararg}
			vararg = false
			if nx := t.NextSibling(p); nx >= 0 && t.Named(nx) && t.Kind(nx) != "parameter" && t.Kind(nx) != "parameter_modifiers" {
				param.Default = lang.OneLine(t.Text(nx))
				param.Optional = true
			}
			out = append(out, param)
		}
	}
	return out
}

// funcSignature reads a function's type parameters, receiver, parameters
// and result.
func funcSignature(t *lang.Tree, n int32, s *lang.Symbol) {
	name := t.Field(n, "name")
	var params int32 = -1
	for ch := range t.NamedChildren(n) {
		switch k := t.Kind(ch); {
		case k == "type_parameters":
			s.Signature.Generics = t.ItemTexts(ch)
		case k == "function_value_parameters":
			params = ch
		case types[k] && ch < name:
			// fun Receiver.name(): an extension function
			s.Signature.Receiver = lang.OneLine(t.Text(ch))
		case types[k] && params >= 0:
			s.Signature.Returns = lang.OneLine(t.Text(ch))
		}
	}
	s.Signature.Params = paramList(t, params)
}

// state is where the walk of the code is.
type state struct {
	sym   int // the symbol code belongs to
	cls   int // the innermost class, -1 outside
	top   bool
	scope *lang.Scope
}

// finish names the file's module after its package and walks the file
// for what its symbols call and construct, guard and throw.
func finish(x *lang.Extractor) {
	if x.Facts.Module = lang.OneLine(x.Facts.Module); x.Facts.Module != "" {
		x.Facts.Symbols[0].Name = x.Facts.Module
	}
	c := state{cls: -1, scope: &lang.Scope{}}
	for n := range x.Tree.NamedChildren(0) {
		node(x, n, c)
	}
}

func node(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	switch t.Kind(n) {
	case "line_comment", "block_comment", "modifiers", "annotation", "file_annotation", "shebang", "package_header",
		"import", "type_alias":
		return
	case "class_declaration", "object_declaration":
		class(x, n, c)
		return
	case "annotated_expression":
		if _, ok := x.SymbolOf(n, -1, c.sym); ok {
			return // a class the grammar misread
		}
	case "function_declaration":
		function(x, n, c)
		return
	case "secondary_constructor":
		constructor(x, n, c)
		return
	case "property_declaration":
		propertyCode(x, n, c)
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
	case "callable_reference", "navigation_expression":
		reference(x, n, c)
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
					c.scope.Set(t.Text(id), typeOf(t, ch), "", "")
				}
			}
		}
	case "lambda_literal", "anonymous_function", "object_literal":
		inner := c
		inner.scope = &lang.Scope{Parent: c.scope}
		inner.top = false
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

// class walks a class's delegation calls (Base(args) runs code) and its
// body, its fields and this in scope.
func class(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	sym, scope, ok := declared(x, n, c)
	if !ok {
		return
	}
	for _, f := range x.Facts.Symbols[sym].Signature.Fields {
		scope.Set(f.Name, stripType(f.Type), "", "")
	}
	scope.Set("this", x.Facts.Symbols[sym].Name, "", "")
	inner := state{sym: sym, cls: sym, scope: scope}
	// the grammar reads "A by b {" as a call of b with a lambda: that
	// lambda is the class's body, whose members the query found
	if ds := t.ChildOfKind(n, "delegation_specifiers"); ds >= 0 {
		walked := int32(-1) // the end of the last node walked
		for d := range t.Descendants(ds) {
			if k := t.Kind(d); d >= walked && (k == "value_arguments" || k == "lambda_literal") {
				walk := node
				if k == "lambda_literal" {
					walk = delegatedBody
				}
				walk(x, d, inner)
				walked = t.Nodes[d].End
			}
		}
	}
	for _, m := range append(children(t, n, "class_body"), children(t, n, "enum_class_body")...) {
		node(x, m, inner)
	}
}

// delegatedBody walks the lambda the grammar makes of the body of a class
// "A by b {", in which "init {" reads as a call of init with a lambda:
// that is the class's initializer, whose code is walked, and no call.
func delegatedBody(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	c.scope, c.top = &lang.Scope{Parent: c.scope}, false
	for st := range t.NamedChildren(n) {
		if f := t.FirstNamedChild(st); t.Kind(st) == "call_expression" && t.NamedChildCount(st) == 2 &&
			t.Kind(f) == "identifier" && t.Text(f) == "init" {
			if l := t.ChildOfKind(st, "annotated_lambda"); l >= 0 {
				st = l
			}
		}
		node(x, st, c)
	}
}

// declared is the symbol the query made of declaration n and a scope
// for its code; ok is false when n has no name.
func declared(x *lang.Extractor, n int32, c state) (sym int, scope *lang.Scope, ok bool) {
	sym, ok = x.Declared(n, c.sym)
	return sym, &lang.Scope{Parent: c.scope}, ok
}

func function(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	sym, scope, ok := declared(x, n, c)
	if !ok {
		return
	}
	var s lang.Symbol
	funcSignature(t, n, &s)
	if s.Signature.Receiver != "" {
		scope.Set("this", stripType(s.Signature.Receiver), "", "")
	}
	for _, p := range s.Signature.Params {
		scope.Set(p.Name, stripType(p.Type), "", "")
	}
	inner := state{sym: sym, cls: c.cls, scope: scope, top: true}
	for _, ch := range children(t, n, "function_body") {
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

func constructor(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	sym, ok := x.SymbolOf(n, -1, c.sym)
	if !ok {
		return // outside a class: no constructor
	}
	cls := x.Facts.Symbols[x.Facts.Symbols[sym].Parent]
	scope := &lang.Scope{Parent: c.scope}
	for _, p := range x.Facts.Symbols[sym].Signature.Params {
		scope.Set(p.Name, stripType(p.Type), "", "")
	}
	inner := state{sym: sym, cls: c.cls, scope: scope}
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
	inner.top = true
	for _, st := range children(t, n, "block") {
		node(x, st, inner)
	}
}

// propertyCode walks a property's initializer, accessors and delegate, as
// code of its symbol; a local's type, or the call it holds the result
// of, is in scope after it.
func propertyCode(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	id := propName(t, n)
	typ, call := propType(t, n)
	sym, ok := x.SymbolOf(n, id, c.sym)
	if id >= 0 && (!ok || t.Kind(t.Parent(n)) != "class_body" && t.Kind(t.Parent(n)) != "enum_class_body") {
		c.scope.Set(t.Text(id), stripType(typ), call, "")
	}
	inner := c
	inner.sym, inner.top = sym, false
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) != "variable_declaration" {
			node(x, ch, inner)
		}
	}
}

// chains reads navigation chains of plain names ("a.b.c", "this.repo").
var chains = &lang.ChainKinds{Ident: "identifier", SelfKind: "this_expression", SelfWord: "this", SuperKind: "super_expression",
	Nav: "navigation_expression", Call: "call_expression"}

// reference records a function reference, "::labelIndex" or
// "Type::name", "value::name", as a call of it: it is passed to be called
// (moshi's peeked.use(::labelIndex) was labelIndex's only caller). "::A"
// constructs A.
func reference(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	var recv []int32
	for ch := range t.NamedChildren(n) {
		recv = append(recv, ch)
	}
	if len(recv) == 0 || t.Kind(recv[len(recv)-1]) != "identifier" || t.Text(recv[len(recv)-1]) == "class" {
		return // Foo::class is the class, no call
	}
	last := recv[len(recv)-1]
	recv = recv[:len(recv)-1]
	if t.Kind(n) == "navigation_expression" {
		// a member reference has "::" where navigation has "." (the tree
		// keeps no operator: the text tells)
		head := strings.TrimSuffix(t.Text(n), t.Text(last))
		if len(recv) != 1 || !strings.HasSuffix(strings.TrimSpace(head), "::") {
			return
		}
	} else if len(recv) != 0 {
		return
	}
	r := lang.Ref{Kind: lang.RefCall, Name: t.Text(last), Symbol: c.sym}
	if len(recv) == 1 {
		r.Qualifier, r.QualifierCall = chains.Receiver(t, recv[0])
		if r.Qualifier == "" {
			return
		}
	} else if lang.IsUpper(r.Name) {
		r.Kind = lang.RefNew
	}
	x.Ref(r, last)
}

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
