// Package csharp is sdl's room for C#: types, delegates and members come
// from tags.scm; this file holds what a query cannot say (signatures,
// visibility, docs, and a walk over namespaces, usings and code that
// places each declaration where it meets it and follows the types of
// locals, fields and receivers to the calls it records, with guards,
// throws and side effects), resolution through namespaces, usings,
// nested and base types, and the skeleton rules of its braced bodies.
package csharp

import (
	"embed"
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
		Name:       "csharp",
		Extensions: []string{".cs"},
		Grammar:    grammar.CSharp(),
		Query:      tags, QueryFile: "lang/csharp/tags.scm",
		QueryRoots: append(append(append([]string(nil), typeDecls...), methodDecls...), "property_declaration",
			"event_declaration", "field_declaration", "event_field_declaration", "enum_member_declaration"),
		Comments: []string{"comment"},
		Strings: []string{"string_literal", "verbatim_string_literal", "raw_string_literal", "character_literal",
			"interpolated_string_expression"},
		Idents:    []string{"identifier"},
		Data:      data,
		Builtins:  lang.WordFile(data, "builtins.txt"),
		Defs:      defs,
		Symbol:    symbol,
		Place:     true,
		Finish:    finish,
		Resolver:  lang.Resolvers{Ref: resolve, Import: resolveImport},
		SkelRules: skeleton,
		Fixup:     fixup,
		Insert:    bodyless,
	})
}

// A lang.Scope maps the variables visible in some code to what is known
// of their type, like Java's: a method's locals, its class's fields and
// properties, the outer class's; a collection's element type (of
// List<Item>, Item[], IEnumerable<Item>) is an Elem.

// declare sets the type of name from a type as written, remembering
// the element type of a collection for foreach.
func declare(s *lang.Scope, name, typ string) {
	s.SetType(name, varType(typ))
	s.SetElem(name, elemType(typ))
}

// collections are the generic collections whose one type argument is
// what foreach yields.
var collections = lang.NameSet(`List IList IEnumerable ICollection IReadOnlyList IReadOnlyCollection HashSet ISet
	SortedSet Queue Stack LinkedList ImmutableList ImmutableArray ImmutableHashSet Span ReadOnlySpan
	IAsyncEnumerable ObservableCollection Collection ConcurrentBag ConcurrentQueue BlockingCollection`)

// elemType is the element type of a collection type as written:
// "List<Item>" -> "Item", "Item[]" -> "Item", "List<Rule<T>>" -> "Rule";
// "" for others.
func elemType(typ string) string {
	typ = strings.TrimSuffix(strings.TrimSpace(typ), "?")
	if strings.HasSuffix(typ, "[]") {
		return varType(strings.TrimSuffix(typ, "[]"))
	}
	i := strings.IndexByte(typ, '<')
	if i < 0 || !strings.HasSuffix(typ, ">") || !collections[lang.LastIdent(typ[:i])] {
		return ""
	}
	arg := typ[i+1 : len(typ)-1]
	if arity(typ) != 1 {
		return "" // a dictionary's pairs
	}
	return varType(arg)
}

// state is where the walk of finish is.
type state struct {
	sym   int         // the symbol code belongs to
	body  bool        // walking a type's body, whose declarations are its members (c.sym)
	cls   int         // the innermost named type, -1 outside every type
	top   bool        // a statement of a method body itself, where an early exit is a guard
	scope *lang.Scope // the variables in scope
}

// testAttributes mark test methods and classes (NUnit, xUnit, MSTest).
var testAttributes = lang.WordFile(data, "test_annotations.txt")

// finish walks the file for its namespace, usings and what its symbols
// call and construct, guard and throw.
func finish(x *lang.Extractor) {
	c := state{sym: 0, cls: -1, scope: &lang.Scope{}}
	namespace(x, 0, "", c)
}

// typeDecls and methodDecls are the node kinds of declarations of types
// and delegates, and of methods and their kin.
var (
	typeDecls = []string{"class_declaration", "struct_declaration", "record_declaration", "interface_declaration",
		"enum_declaration", "delegate_declaration"}
	methodDecls = []string{"method_declaration", "constructor_declaration", "destructor_declaration",
		"operator_declaration", "conversion_operator_declaration", "indexer_declaration", "local_function_statement"}
	typeKinds   = lang.KindSet(typeDecls...)
	methodKinds = lang.KindSet(methodDecls...)
)

// defs gives each declaration its body, and a field declaration of one
// variable the declaration's range (its modifiers and doc); each
// variable of int a, b; keeps its own.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	for i, d := range ds {
		ds[i].Body = bodyOf(t, d.Node)
		if t.Kind(d.Node) == "variable_declarator" && oneVariable(t, t.Parent(d.Node)) {
			ds[i].Node = t.Parent(t.Parent(d.Node))
		}
	}
	return ds
}

// bodyOf is the code of declaration n: a type's members, a method's
// block or => expression, a property's accessors or value, an enum
// member's value, a variable's initializer; -1 for none.
func bodyOf(t *lang.Tree, n int32) int32 {
	if t.Kind(n) == "variable_declarator" {
		return declaratorValue(t, n)
	}
	for _, f := range [...]string{"body", "accessors", "value"} {
		if b := t.Field(n, f); b >= 0 {
			return b
		}
	}
	return -1
}

// oneVariable reports whether variable declaration v declares one
// variable (int a;, not int a, b;).
func oneVariable(t *lang.Tree, v int32) bool {
	n := 0
	for d := range t.NamedChildren(v) {
		if t.Kind(d) == "variable_declarator" {
			n++
		}
	}
	return n == 1
}

// symbol completes a definition of the query: its name where the
// declaration has none of its own, kind, visibility, modifiers,
// signature and doc.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	x := &lang.Extractor{Tree: t}
	n, k := d.Node, t.Kind(d.Node)
	s.Exported = false
	if k == "parameter" {
		// a positional record parameter: a public property
		s.Exported, s.Visibility = true, lang.VisPublic
		s.Signature.Returns = lang.OneLine(t.FieldText(n, "type"))
		s.Signature.Modifiers = []string{"property"}
		s.Signature.Text = lang.OneLine(t.Text(n))
		s.Doc = ""
		return true
	}
	decl := n
	if k == "variable_declarator" || k == "field_declaration" || k == "event_field_declaration" {
		k, decl = "variable_declarator", t.Parent(t.Parent(t.Parent(d.Name)))
	}
	owner := d.Parent // the type whose member it is, where the walk placed it in a type's body
	def := "private"  // a member of a class or struct, or a method outside every type
	switch {
	case t.Kind(owner) == "interface_declaration" || t.Kind(owner) == "enum_declaration":
		def = "public"
	case !typeKinds[t.Kind(owner)] && typeKinds[k]:
		def = "internal"
	}
	s.Doc = doc(x, decl)
	switch {
	case k == "delegate_declaration":
		delegateSymbol(x, n, s, def)
	case typeKinds[k]:
		typeSymbol(x, n, d.Body, s, def)
	case methodKinds[k]:
		return methodSymbol(x, n, d.Body, s, def)
	case k == "enum_member_declaration":
		s.Exported, s.Visibility = true, lang.VisPublic
		s.Signature.Returns = t.FieldText(owner, "name")
		s.Signature.Modifiers = []string{"const"}
		s.Signature.Text = lang.OneLine(t.Text(n))
	case k == "variable_declarator":
		fieldSymbol(x, t.Parent(d.Name), s, def)
	default:
		propertySymbol(x, n, d.Body, s, def)
	}
	return true
}

// namespace walks the members of a compilation unit or namespace body;
// ns is the namespace they are in.
func namespace(x *lang.Extractor, n int32, ns string, c state) {
	t := x.Tree
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "using_directive":
			using(x, ch)
		case "namespace_declaration":
			name := lang.OneLine(t.FieldText(ch, "name"))
			inner := name
			if ns != "" {
				inner = ns + "." + name
			}
			if b := t.Field(ch, "body"); b >= 0 {
				namespace(x, b, inner, c)
			}
		case "file_scoped_namespace_declaration":
			// the declarations after it, its siblings, are in it
			ns = lang.OneLine(t.FieldText(ch, "name"))
		case "ERROR", "declaration_list":
			namespace(x, ch, ns, c)
		case "global_statement":
			c.top = false
			for st := range t.NamedChildren(ch) {
				node(x, st, c)
			}
		default:
			if typeKinds[t.Kind(ch)] && x.Facts.Module == "" && ns != "" {
				// the file's module is the namespace of its first type
				x.Facts.Module = ns
				x.Facts.Symbols[0].Name = ns
			}
			node(x, ch, c)
		}
	}
}

func using(x *lang.Extractor, n int32) {
	t := x.Tree
	global := false
	alias, src := "", ""
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "global":
			global = true
		case "identifier", "qualified_name", "generic_name", "alias_qualified_name":
			if t.FieldName(ch) == "name" {
				alias = t.Text(ch)
			} else {
				src = stripType(lang.OneLine(t.Text(ch)))
			}
		}
	}
	if src == "" {
		return
	}
	src = strings.TrimPrefix(src, "global::")
	imp := lang.Import{Source: src, Alias: alias, Line: t.StartLine(n), Symbol: 0, Global: global}
	if alias == "" {
		// using N; brings N's types, using static T; T's static members
		imp.Names = []lang.ImportName{{Name: "*"}}
	}
	x.Facts.Imports = append(x.Facts.Imports, imp)
}

// node walks node n: declarations become symbols, code becomes
// references, guards and throws of c.sym.
func node(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	switch k := t.Kind(n); {
	case typeKinds[k] && k != "delegate_declaration":
		typeDecl(x, n, c)
		return
	case methodKinds[k]:
		method(x, n, c)
		return
	}
	switch t.Kind(n) {
	case "delegate_declaration":
		x.Define(n, c.sym)
		return
	case "comment", "modifier", "attribute_list", "type_parameter_constraints_clause":
		return
	case "using_directive":
		using(x, n)
		return
	case "namespace_declaration":
		// a namespace the parser found inside something else
		if b := t.Field(n, "body"); b >= 0 {
			namespace(x, b, lang.OneLine(t.FieldText(n, "name")), c)
		}
		return
	case "property_declaration", "event_declaration":
		property(x, n, c)
		return
	case "field_declaration", "event_field_declaration":
		field(x, n, c)
		return
	case "enum_member_declaration":
		enumMember(x, n, c)
		return
	case "local_declaration_statement":
		if v := t.ChildOfKind(n, "variable_declaration"); v >= 0 {
			locals(x, v, c)
		}
		return
	case "invocation_expression":
		call(x, n, c)
	case "object_creation_expression":
		newExpr(x, n, c)
	case "lambda_expression", "anonymous_method_expression":
		lambda(x, n, c)
		return
	case "if_statement":
		if c.top {
			guard.Guard(x, c.sym, n)
		}
	case "throw_statement", "throw_expression":
		throw(x, n, c)
	case "expression_statement":
		if c.top {
			checkCall(x, n, c)
		}
	case "foreach_statement":
		if left := t.Field(n, "left"); left >= 0 && t.Kind(left) == "identifier" {
			typ := varType(t.FieldText(n, "type"))
			if right := t.Field(n, "right"); typ == "" && right >= 0 && t.Kind(right) == "identifier" {
				// foreach (var x in items): the element type of items
				typ = c.scope.Elem(t.Text(right))
			}
			c.scope.SetType(t.Text(left), typ)
		}
	case "catch_declaration":
		if name := t.Field(n, "name"); name >= 0 {
			c.scope.SetType(t.Text(name), stripType(t.FieldText(n, "type")))
		}
		return
	case "declaration_pattern", "declaration_expression":
		if name := t.Field(n, "name"); name >= 0 {
			c.scope.SetType(t.Text(name), varType(t.FieldText(n, "type")))
		}
		return
	case "using_statement", "fixed_statement":
		// using (var r = new R()) { ... }
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		node(x, ch, c)
	}
}

// varType is a declared type stripped for resolution; "" for var.
func varType(typ string) string {
	typ = stripType(typ)
	if typ == "var" || typ == "dynamic" {
		return ""
	}
	return typ
}

// stripType reduces a type as written to what resolution needs: no
// type arguments, nullable marks, global:: or white space.
// "global::System.Collections.Generic.List<Item>?" -> "System.Collections.Generic.List".
func stripType(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "global::")
	if !strings.ContainsAny(s, "<? \t\r\n(") {
		return s
	}
	if strings.HasPrefix(s, "(") {
		return "" // a tuple
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
		case depth > 0, ch == ' ', ch == '\t', ch == '\r', ch == '\n', ch == '?':
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// arity counts the type arguments of the type a written type names (its
// last segment): "IDictionary<string, List<int>>?" -> 2, "IValidator" -> 0.
func arity(s string) int {
	s = strings.TrimSuffix(strings.TrimSpace(s), "?")
	if !strings.HasSuffix(s, ">") {
		return 0
	}
	n, depth := 1, 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case '>':
			depth++
		case '<':
			if depth--; depth == 0 {
				return n
			}
		case ',':
			if depth == 1 {
				n++
			}
		}
	}
	return 0
}

// modifiers reads a declaration's modifiers: its visibility ("" for the
// default), the others, and whether an attribute marks a test.
func modifiers(x *lang.Extractor, n int32) (vis string, mods []string, attrs []string, test bool) {
	t := x.Tree
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "modifier":
			switch m := strings.TrimSpace(t.Text(ch)); m {
			case "public", "private", "protected", "internal":
				if vis != "" {
					vis += " " + m // protected internal, private protected
				} else {
					vis = m
				}
			default:
				mods = append(mods, m)
			}
		case "attribute_list":
			for a := range t.NamedChildren(ch) {
				if t.Kind(a) != "attribute" {
					continue
				}
				name := lang.OneLine(t.FieldText(a, "name"))
				attrs = append(attrs, "["+name+"]")
				if testAttributes.Has(strings.TrimSuffix(lang.LastIdent(name), "Attribute")) {
					test = true
				}
			}
		}
	}
	return vis, mods, attrs, test
}

// visibility sets a symbol's visibility from its access modifier; def
// is the language's default where none is written.
func visibility(s *lang.Symbol, vis, def string) {
	if vis == "" {
		vis = def
	}
	switch {
	case vis == "public":
		s.Exported, s.Visibility = true, lang.VisPublic
	case strings.Contains(vis, "protected"):
		s.Visibility = lang.VisProtected
	case vis == "private":
		s.Visibility = lang.VisPrivate
	default:
		s.Visibility = lang.VisInternal
	}
}

// doc is the documentation comment above a declaration: /// XML doc
// with its tags read as text, or plain comments right above it.
func doc(x *lang.Extractor, n int32) string {
	d := dropCode(x.DocBefore(n))
	if d == "" || !strings.Contains(d, "<") {
		return d
	}
	return xmlDoc(d)
}

// dropCode leaves out the lines of a comment that are code commented
// out, which is no documentation: Ocelot's "//[InlineData(2, 50)]" above
// a test, "//protected static FileRouteBox<FileRoute> Box(...) => new(route);"
// above a property became their docs and summaries.
func dropCode(d string) string {
	// an XML doc's <code> examples are the doc's own
	if !strings.ContainsAny(d, ";{}]") || strings.Contains(d, "<summary>") || strings.Contains(d, "<remarks>") {
		return d
	}
	lines := strings.Split(d, "\n")
	kept := lines[:0]
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if i := strings.Index(t, " //"); i > 0 { // code, then a comment on it
			t = strings.TrimSpace(t[:i])
		}
		if strings.HasSuffix(t, ";") || t == "{" || t == "}" || strings.HasSuffix(t, ") {") ||
			strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			continue
		}
		kept = append(kept, l)
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}

// xmlDoc turns an XML doc comment into text: <summary> and the like
// vanish, <see cref="X"/> and <paramref name="x"/> become their names,
// <param name="x"> becomes "x: ", <returns> "Returns: ".
func xmlDoc(d string) string {
	var b strings.Builder
	for i := 0; i < len(d); {
		if d[i] != '<' {
			b.WriteByte(d[i])
			i++
			continue
		}
		j := strings.IndexByte(d[i:], '>')
		if j < 0 {
			b.WriteString(d[i:])
			break
		}
		tag := d[i+1 : i+j]
		i += j + 1
		name, attr := tag, ""
		if k := strings.IndexAny(tag, " \t"); k >= 0 {
			name = tag[:k]
			if q := strings.IndexByte(tag, '"'); q >= 0 {
				if r := strings.IndexByte(tag[q+1:], '"'); r >= 0 {
					attr = tag[q+1 : q+1+r]
				}
			}
		}
		attr = strings.TrimPrefix(attr, "T:")
		attr = strings.TrimPrefix(attr, "M:")
		switch strings.TrimSuffix(name, "/") {
		case "see", "seealso", "paramref", "typeparamref":
			b.WriteString(attr)
		case "param", "typeparam":
			b.WriteString(attr + ": ")
		case "returns":
			b.WriteString("Returns: ")
		case "exception":
			b.WriteString("Throws " + attr + ": ")
		}
	}
	lines := strings.Split(b.String(), "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// baseRef is the reference kind of a base in a type's base list: C#
// does not tell a base class from an interface there, so the convention
// (IName is an interface) and the declaring kind decide.
func baseRef(kind, base string, first bool) string {
	name := lang.LastIdent(stripType(base))
	switch {
	case kind == "interface_declaration":
		return lang.RefExtends
	case len(name) > 1 && name[0] == 'I' && lang.IsUpper(name[1:]):
		return lang.RefImplements
	case kind == "struct_declaration" || !first:
		return lang.RefImplements
	}
	return lang.RefExtends
}

func typeSymbol(x *lang.Extractor, n, body int32, s *lang.Symbol, def string) {
	t := x.Tree
	kind := t.Kind(n)
	vis, mods, attrs, test := modifiers(x, n)
	visibility(s, vis, def)
	switch kind {
	case "struct_declaration":
		mods = append(mods, "struct")
	case "record_declaration":
		mods = append(mods, "record")
		if t.ChildOfKind(n, "struct") >= 0 {
			mods = append(mods, "struct")
		}
	case "enum_declaration":
		mods = append(mods, "enum")
	}
	s.Signature.Modifiers = append(mods, attrs...)
	s.Signature.Generics = generics(x, n)
	for _, b := range bases(t, n) {
		s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(b)))
	}
	ps := t.ChildOfKind(n, "parameter_list") // a record's or class's primary constructor
	s.Signature.Fields = typeFields(x, ps, body, s.Name, kind == "enum_declaration")
	if ps >= 0 {
		s.Signature.Params = paramList(x, ps, nil)
	}
	s.Signature.Text = headerText(x, n, body)
	s.IsTest = test
}

// bases are the types in a type's base list, as written.
func bases(t *lang.Tree, n int32) []int32 {
	var out []int32
	if bl := t.ChildOfKind(n, "base_list"); bl >= 0 {
		for b := range t.NamedChildren(bl) {
			if t.Kind(b) == "argument_list" {
				continue
			}
			if t.Kind(b) == "primary_constructor_base_type" {
				// record R(int X) : Base(X)
				if ty := t.FirstNamedChild(b); ty >= 0 {
					out = append(out, ty)
				}
				continue
			}
			out = append(out, b)
		}
	}
	return out
}

// typeDecl records a type's bases and walks its body with its fields in
// scope.
func typeDecl(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	sym, _ := x.Define(n, c.sym)
	if t.Field(n, "name") < 0 {
		return
	}
	if ps := t.ChildOfKind(n, "parameter_list"); ps >= 0 {
		for p := range t.NamedChildren(ps) {
			x.Define(p, sym) // a record's positional parameters, its properties
		}
	}
	kind := t.Kind(n)
	for i, b := range bases(t, n) {
		typ := stripType(t.Text(b))
		bn, bq := lang.SplitType(typ)
		x.Ref(lang.Ref{Kind: baseRef(kind, typ, i == 0), Name: bn, Qualifier: bq, Symbol: sym}, b)
	}
	scope := &lang.Scope{Parent: c.scope}
	for _, f := range x.Facts.Symbols[sym].Signature.Fields {
		declare(scope, f.Name, f.Type)
	}
	inner := state{sym: sym, body: true, cls: sym, scope: scope}
	if body := t.Field(n, "body"); body >= 0 {
		for m := range t.NamedChildren(body) {
			node(x, m, inner)
		}
	}
}

// typeFields lists the fields, properties, events and enum members a
// type declares with their types, and a record's positional parameters.
func typeFields(x *lang.Extractor, ps, body int32, typeName string, enum bool) []lang.Param {
	t := x.Tree
	var out []lang.Param
	if ps >= 0 {
		for p := range t.NamedChildren(ps) {
			if name := t.Field(p, "name"); name >= 0 && t.Kind(p) == "parameter" {
				out = append(out, lang.Param{Name: t.Text(name), Type: lang.OneLine(t.FieldText(p, "type"))})
			}
		}
	}
	if body < 0 {
		return out
	}
	for m := range t.NamedChildren(body) {
		switch t.Kind(m) {
		case "field_declaration", "event_field_declaration":
			v := t.ChildOfKind(m, "variable_declaration")
			if v < 0 {
				continue
			}
			typ := lang.OneLine(t.FieldText(v, "type"))
			for d := range t.NamedChildren(v) {
				if t.Kind(d) == "variable_declarator" {
					if name := t.Field(d, "name"); name >= 0 {
						out = append(out, lang.Param{Name: t.Text(name), Type: typ})
					}
				}
			}
		case "property_declaration", "event_declaration":
			// an explicit interface implementation (I.P) is no member
			// of the type by name: this.P and x.P mean the type's own P
			if t.ChildOfKind(m, "explicit_interface_specifier") >= 0 {
				continue
			}
			if name := t.Field(m, "name"); name >= 0 {
				out = append(out, lang.Param{Name: t.Text(name), Type: lang.OneLine(t.FieldText(m, "type"))})
			}
		case "enum_member_declaration":
			if name := t.Field(m, "name"); name >= 0 && enum {
				out = append(out, lang.Param{Name: t.Text(name), Type: typeName})
			}
		}
	}
	return out
}

func generics(x *lang.Extractor, n int32) []string {
	t := x.Tree
	list := t.Field(n, "type_parameters")
	if list < 0 {
		list = t.ChildOfKind(n, "type_parameter_list")
	}
	if list < 0 {
		return nil
	}
	// a type parameter's attributes ("[DynamicallyAccessedMembers(...)] TH")
	// are no part of its name
	var out []string
	for p := range t.NamedChildren(list) {
		if t.Kind(p) != "type_parameter" {
			continue
		}
		from := sigStart(t, p)
		out = append(out, lang.OneLine(string(t.Src[from:t.Nodes[p].EndByte])))
	}
	return out
}

// receiverType is the type an extension method extends, from the type of
// its this parameter: for one of the method's type parameters
// ("AddRetry<TBuilder>(this TBuilder builder) where TBuilder :
// ResiliencePipelineBuilderBase", as Polly writes them) the type its
// constraint names, else "object", which every type is.
func receiverType(x *lang.Extractor, n int32, typ string) string {
	t := x.Tree
	name := stripType(typ)
	generic := false
	for _, g := range generics(x, n) {
		if f := strings.Fields(g); len(f) > 0 && f[len(f)-1] == name {
			generic = true
		}
	}
	if !generic {
		return typ
	}
	for cl := range t.Children(n) {
		if t.Kind(cl) != "type_parameter_constraints_clause" {
			continue
		}
		if id := t.ChildOfKind(cl, "identifier"); id < 0 || t.Text(id) != name {
			continue
		}
		for c := range t.NamedChildren(cl) {
			if t.Kind(c) == "type_parameter_constraint" {
				if ty := t.Field(c, "type"); ty >= 0 {
					return lang.OneLine(t.Text(ty))
				}
			}
		}
	}
	return "object"
}

// paramList reads a parameter list, declaring the parameters in scope.
// The grammar leaves a params array's type and name loose in the list,
// after the params keyword.
func paramList(x *lang.Extractor, list int32, scope *lang.Scope) []lang.Param {
	t := x.Tree
	if list < 0 {
		return nil
	}
	var out []lang.Param
	variadic := false
	var loose lang.Param
	for p := range t.Children(list) {
		switch t.Kind(p) {
		case "params":
			variadic = true
			loose = lang.Param{Variadic: true}
		case "parameter":
			pr := lang.Param{Name: t.FieldText(p, "name"), Type: lang.OneLine(t.FieldText(p, "type"))}
			if v := t.ChildOfKind(p, "params"); v >= 0 {
				pr.Variadic = true
			}
			for ch := range t.NamedChildren(p) {
				if t.FieldName(ch) == "" && t.Kind(ch) != "modifier" && t.Kind(ch) != "attribute_list" {
					// the default value: = expr
					pr.Default = lang.Shorten(lang.OneLine(t.Text(ch)), 40)
					pr.Optional = true
				}
			}
			out = append(out, pr)
			if scope != nil && pr.Name != "" {
				declare(scope, pr.Name, pr.Type)
			}
		default:
			if !variadic {
				continue
			}
			switch t.FieldName(p) {
			case "type":
				loose.Type = lang.OneLine(t.Text(p))
			case "name":
				loose.Name = t.Text(p)
				out = append(out, loose)
				if scope != nil {
					declare(scope, loose.Name, loose.Type)
				}
				variadic = false
			}
		}
	}
	return out
}

// extension reports whether the first parameter is this (an extension
// method).
func extension(t *lang.Tree, list int32) bool {
	p := int32(-1)
	if list >= 0 {
		p = t.FirstNamedChild(list)
	}
	if p < 0 || t.Kind(p) != "parameter" {
		return false
	}
	for ch := range t.Children(p) {
		if t.Kind(ch) == "modifier" && t.Text(ch) == "this" {
			return true
		}
	}
	return false
}

// methodSymbol completes a method, constructor, destructor, operator,
// conversion, indexer or local function; false for an operator whose
// token the parser lost.
func methodSymbol(x *lang.Extractor, n, body int32, s *lang.Symbol, def string) bool {
	t := x.Tree
	kind := t.Kind(n)
	switch kind {
	case "destructor_declaration":
		s.Name = "~" + s.Name
	case "operator_declaration":
		// the operator token is punctuation, which the tree leaves out:
		// it is the text between the keyword and the parameters
		s.Name = ""
		kw, ps := t.ChildOfKind(n, "operator"), t.Field(n, "parameters")
		if kw >= 0 && ps >= 0 && t.Nodes[kw].EndByte <= t.Nodes[ps].StartByte {
			s.Name = "operator " + strings.TrimSpace(string(t.Src[t.Nodes[kw].EndByte:t.Nodes[ps].StartByte]))
		}
		if s.Name == "" {
			return false
		}
	case "conversion_operator_declaration":
		s.Name = "operator " + stripType(t.FieldText(n, "type"))
	case "indexer_declaration":
		s.Name = "this[]"
	case "local_function_statement":
		s.Kind, def = lang.KindFunction, "private"
	}
	vis, mods, attrs, test := modifiers(x, n)
	if kind == "local_function_statement" {
		vis = ""
	} else if t.ChildOfKind(n, "explicit_interface_specifier") >= 0 {
		def = "public" // reached through the interface
	}
	visibility(s, vis, def)
	params := t.Field(n, "parameters")
	if extension(t, params) {
		mods = append(mods, "extension")
	}
	if ei := t.ChildOfKind(n, "explicit_interface_specifier"); ei >= 0 {
		mods = append(mods, "implements "+strings.TrimSuffix(lang.OneLine(t.Text(ei)), "."))
	}
	s.Signature.Modifiers = append(mods, attrs...)
	s.Signature.Generics = generics(x, n)
	s.Signature.Params = paramList(x, params, nil)
	if extension(t, params) && len(s.Signature.Params) > 0 {
		// the type it extends, whose values call it as their own method
		s.Signature.Receiver = receiverType(x, n, s.Signature.Params[0].Type)
	}
	if r := t.Field(n, "returns"); r >= 0 {
		s.Signature.Returns = lang.OneLine(t.Text(r))
	} else if ty := t.Field(n, "type"); ty >= 0 {
		s.Signature.Returns = lang.OneLine(t.Text(ty))
	}
	s.Signature.Text = headerText(x, n, body)
	s.IsTest = test
	return true
}

// method walks a method's constructor initializer and body with its
// parameters in scope.
func method(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	kind := t.Kind(n)
	body := t.Field(n, "body")
	scope := &lang.Scope{Parent: c.scope}
	if !c.body && c.sym != 0 && kind != "local_function_statement" {
		// a method the parser could not place: its code is the
		// enclosing symbol's
		paramList(x, t.Field(n, "parameters"), scope)
		if body >= 0 {
			c.scope, c.top = scope, false
			node(x, body, c)
		}
		return
	}
	sym, ok := x.Define(n, c.sym)
	if name := t.Field(n, "name"); !ok && (name < 0 || strings.TrimSpace(t.Text(name)) != "") {
		return // no name; one the parser made up leaves its code to c.sym
	}
	paramList(x, t.Field(n, "parameters"), scope)
	inner := state{sym: sym, cls: c.cls, scope: scope, top: true}
	if ci := t.ChildOfKind(n, "constructor_initializer"); ci >= 0 {
		ctorInit(x, ci, inner)
	}
	body = bodyOf(t, n)
	if body < 0 {
		return
	}
	switch t.Kind(body) {
	case "block":
		for st := range t.NamedChildren(body) {
			node(x, st, inner)
		}
	default:
		inner.top = false
		node(x, body, inner)
	}
}

func delegateSymbol(x *lang.Extractor, n int32, s *lang.Symbol, def string) {
	t := x.Tree
	vis, mods, attrs, _ := modifiers(x, n)
	visibility(s, vis, def)
	s.Signature.Modifiers = append(append(mods, "delegate"), attrs...)
	s.Signature.Generics = generics(x, n)
	s.Signature.Params = paramList(x, t.Field(n, "parameters"), nil)
	s.Signature.Returns = lang.OneLine(t.FieldText(n, "type"))
	s.Signature.Text = headerText(x, n, -1)
}

// propertySymbol makes a property or an event with accessors a variable
// of its type: code reads and writes it like a field.
func propertySymbol(x *lang.Extractor, n, end int32, s *lang.Symbol, def string) {
	t := x.Tree
	vis, mods, attrs, _ := modifiers(x, n)
	ei := t.ChildOfKind(n, "explicit_interface_specifier")
	if ei >= 0 {
		def = "public"
	}
	visibility(s, vis, def)
	if t.Kind(n) == "event_declaration" {
		mods = append(mods, "event")
	} else {
		mods = append(mods, "property")
	}
	if acc := t.Field(n, "accessors"); acc >= 0 {
		for a := range t.NamedChildren(acc) {
			if t.Kind(a) != "accessor_declaration" {
				continue
			}
			an := t.FieldText(a, "name")
			if avis, _, _, _ := modifiers(x, a); avis != "" {
				an = avis + " " + an // private set
			}
			if an != "" {
				mods = append(mods, an)
			}
		}
	}
	if ei >= 0 {
		mods = append(mods, "implements "+strings.TrimSuffix(lang.OneLine(t.Text(ei)), "."))
	}
	s.Signature.Modifiers = append(mods, attrs...)
	s.Signature.Returns = lang.OneLine(t.FieldText(n, "type"))
	s.Signature.Text = headerText(x, n, end)
}

// property walks the code of a property's accessors and value.
func property(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	if !c.body || t.Field(n, "name") < 0 {
		walkChildren(x, n, c)
		return
	}
	sym, _ := x.Define(n, c.sym)
	inner := state{sym: sym, cls: c.cls, scope: &lang.Scope{Parent: c.scope}}
	if acc := t.Field(n, "accessors"); acc >= 0 {
		for a := range t.NamedChildren(acc) {
			if b := t.Field(a, "body"); b >= 0 {
				in := inner
				in.top = t.Kind(b) == "block"
				if in.top {
					for st := range t.NamedChildren(b) {
						node(x, st, in)
					}
				} else {
					node(x, b, in)
				}
			}
		}
	}
	if v := t.Field(n, "value"); v >= 0 {
		value(x, v, t.FieldText(n, "type"), inner)
	}
}

// value walks an initializer; new() takes the declared type.
func value(x *lang.Extractor, v int32, typ string, c state) {
	t := x.Tree
	c.top = false
	if k := t.Kind(v); k == "arrow_expression_clause" {
		for ch := range t.NamedChildren(v) {
			node(x, ch, c)
		}
		return
	}
	if t.Kind(v) == "implicit_object_creation_expression" {
		typedNew(x, v, varType(typ), c)
		for ch := range t.NamedChildren(v) {
			node(x, ch, c)
		}
		return
	}
	node(x, v, c)
}

func walkChildren(x *lang.Extractor, n int32, c state) {
	c.top = false
	for ch := range x.Tree.NamedChildren(n) {
		node(x, ch, c)
	}
}

// fieldSymbol completes a field of declarator d (int a = 1 in
// int a = 1, b;).
func fieldSymbol(x *lang.Extractor, d int32, s *lang.Symbol, def string) {
	t := x.Tree
	v := t.Parent(d)
	n := t.Parent(v)
	vis, mods, attrs, _ := modifiers(x, n)
	if t.Kind(n) == "event_field_declaration" {
		mods = append(mods, "event")
	}
	typ := lang.OneLine(t.FieldText(v, "type"))
	visibility(s, vis, def)
	s.Signature.Returns = typ
	s.Signature.Modifiers = append(append([]string(nil), mods...), attrs...)
	s.Signature.Text = typ + " " + s.Name
	if len(mods) > 0 || vis != "" {
		if ty := t.Field(v, "type"); ty >= 0 {
			s.Signature.Text = lang.OneLine(string(t.Src[sigStart(t, n):t.Nodes[ty].EndByte])) + " " + s.Name
		}
	}
}

// field walks the initializers of a field declaration: each field's own
// code, or, in code, the enclosing symbol's, which declare locals.
func field(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	v := t.ChildOfKind(n, "variable_declaration")
	if v < 0 {
		return
	}
	if !c.body {
		locals(x, v, c)
		return
	}
	typ := lang.OneLine(t.FieldText(v, "type"))
	for d := range t.NamedChildren(v) {
		name := t.Field(d, "name")
		if name < 0 || t.Kind(d) != "variable_declarator" {
			continue
		}
		sym, ok := x.Define(d, c.sym)
		if !ok && oneVariable(t, v) {
			sym, _ = x.Define(n, c.sym)
		}
		if val := declaratorValue(t, d); val >= 0 {
			value(x, val, typ, state{sym: sym, cls: c.cls, scope: c.scope})
		}
	}
}

// declaratorValue is the initializer of a variable declarator, or -1.
func declaratorValue(t *lang.Tree, d int32) int32 {
	for ch := range t.NamedChildren(d) {
		if t.FieldName(ch) != "name" && t.Kind(ch) != "bracketed_argument_list" {
			return ch
		}
	}
	return -1
}

// enumMember walks the value of an enum member.
func enumMember(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	if !c.body || t.Field(n, "name") < 0 {
		return
	}
	sym, _ := x.Define(n, c.sym)
	if val := t.Field(n, "value"); val >= 0 {
		node(x, val, state{sym: sym, cls: c.cls, scope: c.scope})
	}
}

// locals declares the variables of a declaration in code and walks
// their initializers.
func locals(x *lang.Extractor, v int32, c state) {
	t := x.Tree
	declared := lang.OneLine(t.FieldText(v, "type"))
	typ := varType(declared)
	c.top = false
	for d := range t.NamedChildren(v) {
		if t.Kind(d) != "variable_declarator" {
			continue
		}
		name := t.Field(d, "name")
		val := declaratorValue(t, d)
		if val >= 0 {
			value(x, val, declared, c)
		}
		if name < 0 {
			continue
		}
		n := t.Text(name)
		if typ != "" || val < 0 {
			declare(c.scope, n, declared)
			continue
		}
		// var x = ...: the initializer tells
		switch vv := t.Unparen(val); t.Kind(vv) {
		case "object_creation_expression":
			declare(c.scope, n, t.FieldText(vv, "type"))
		case "cast_expression":
			c.scope.SetType(n, stripType(t.FieldText(vv, "type")))
		case "as_expression":
			c.scope.SetType(n, stripType(t.FieldText(vv, "right")))
		case "string_literal", "interpolated_string_expression", "verbatim_string_literal", "raw_string_literal":
			c.scope.SetType(n, "string")
		case "await_expression":
			if in := t.FirstNamedChild(vv); in >= 0 && t.Kind(in) == "invocation_expression" {
				head, call := head(x, in, c)
				c.scope.SetCall(n, call, head)
			} else {
				c.scope.SetType(n, "")
			}
		case "invocation_expression":
			head, call := head(x, vv, c)
			c.scope.SetCall(n, call, head)
		default:
			c.scope.SetType(n, "")
		}
	}
}

// expr renders an expression used as a qualifier with arguments left
// out: "a.B(x).C" -> "a.B().C", "new Foo(1)" -> "new Foo()".
func expr(t *lang.Tree, n int32, depth int) string {
	if depth > lang.MaxChain {
		return "..."
	}
	switch t.Kind(n) {
	case "identifier", "this", "base", "predefined_type":
		return t.Text(n)
	case "generic_name":
		if id := t.FirstNamedChild(n); id >= 0 {
			return t.Text(id)
		}
	case "member_access_expression":
		e, name := t.Field(n, "expression"), t.Field(n, "name")
		if e < 0 || name < 0 {
			break
		}
		return expr(t, e, depth+1) + "." + expr(t, name, depth+1)
	case "conditional_access_expression":
		cond := t.Field(n, "condition")
		if cond < 0 {
			break
		}
		s := expr(t, cond, depth+1)
		if b := t.ChildOfKind(n, "member_binding_expression"); b >= 0 {
			s += "." + expr(t, t.Field(b, "name"), depth+1)
		}
		return s
	case "invocation_expression":
		if fn := t.Field(n, "function"); fn >= 0 {
			return expr(t, fn, depth+1) + "()"
		}
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
	case "element_access_expression":
		if e := t.Field(n, "expression"); e >= 0 {
			return expr(t, e, depth+1) + "[]"
		}
	case "await_expression":
		if in := t.FirstNamedChild(n); in >= 0 {
			return expr(t, in, depth+1)
		}
	case "postfix_unary_expression":
		// x!.M(): the null-forgiving operator
		if in := t.FirstNamedChild(n); in >= 0 {
			return expr(t, in, depth+1)
		}
	case "string_literal", "interpolated_string_expression", "verbatim_string_literal", "raw_string_literal":
		return `""`
	case "alias_qualified_name", "qualified_name":
		return strings.TrimPrefix(lang.OneLine(t.Text(n)), "global::")
	}
	return lang.Shorten(lang.OneLine(t.Text(n)), 40)
}

// head works out what is known of a qualifier's value, like the Java room's head:
// the type of its first part (a variable, this, new T(), a cast) and,
// when the qualifier is or holds a call, that call.
func head(x *lang.Extractor, obj int32, c state) (typ, call string) {
	t := x.Tree
	// the last call of the qualifier: a.B().C -> a.B
	for n, i := obj, 0; n >= 0 && i <= lang.MaxChain; i++ {
		k := t.Kind(n)
		if k == "await_expression" || k == "postfix_unary_expression" {
			n = t.FirstNamedChild(n)
			continue
		}
		if k == "invocation_expression" {
			call = strings.TrimSuffix(expr(t, n, 0), "()")
			break
		} else if k != "member_access_expression" && k != "conditional_access_expression" {
			break
		}
		if k == "member_access_expression" {
			n = t.Field(n, "expression")
		} else {
			n = t.Field(n, "condition")
		}
	}
	n := obj
	for i := 0; i <= lang.MaxChain; i++ {
		next := int32(-1)
		switch t.Kind(n) {
		case "invocation_expression":
			next = t.Field(n, "function")
		case "member_access_expression", "element_access_expression":
			next = t.Field(n, "expression")
		case "conditional_access_expression":
			next = t.Field(n, "condition")
		case "parenthesized_expression", "await_expression", "postfix_unary_expression":
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
		case vc == "":
			typ = vt
		case call == "":
			typ, call = vh, vc
		case strings.HasPrefix(call, name):
			typ, call = vh, vc+"()"+call[len(name):]
		}
	case "this":
		if c.cls >= 0 {
			typ = x.Facts.Symbols[c.cls].Qualified()
		}
	case "object_creation_expression":
		typ = stripType(t.FieldText(n, "type"))
	case "cast_expression":
		typ = stripType(t.FieldText(n, "type"))
	case "string_literal", "interpolated_string_expression", "verbatim_string_literal", "raw_string_literal":
		typ = "string"
	}
	return typ, call
}

func call(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	fn := t.Field(n, "function")
	if fn < 0 {
		return
	}
	r := lang.Ref{Kind: lang.RefCall, Symbol: c.sym}
	switch t.Kind(fn) {
	case "identifier":
		r.Name = t.Text(fn)
	case "generic_name":
		if id := t.FirstNamedChild(fn); id >= 0 {
			r.Name = t.Text(id)
		}
	case "member_access_expression":
		e, name := t.Field(fn, "expression"), t.Field(fn, "name")
		if e < 0 || name < 0 {
			return
		}
		r.Name = expr(t, name, 0)
		r.Qualifier = expr(t, e, 0)
		r.QualifierType, r.QualifierCall = head(x, e, c)
	case "conditional_access_expression":
		cond := t.Field(fn, "condition")
		b := t.ChildOfKind(fn, "member_binding_expression")
		if cond < 0 || b < 0 {
			return
		}
		r.Name = expr(t, t.Field(b, "name"), 0)
		r.Qualifier = expr(t, cond, 0)
		r.QualifierType, r.QualifierCall = head(x, cond, c)
	case "member_binding_expression":
		// a?.B()?.C(): the C of a conditional access
		r.Name = expr(t, t.Field(fn, "name"), 0)
		if p := t.Parent(n); p >= 0 && t.Kind(p) == "conditional_access_expression" {
			if cond := t.Field(p, "condition"); cond >= 0 {
				r.Qualifier = expr(t, cond, 0)
				r.QualifierType, r.QualifierCall = head(x, cond, c)
			}
		}
	default:
		return
	}
	if r.Name == "" || r.Name == "nameof" && r.Qualifier == "" {
		return
	}
	x.Ref(r, n)
}

func newExpr(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	ty := t.Field(n, "type")
	if ty < 0 {
		return
	}
	name, qual := lang.SplitType(stripType(t.Text(ty)))
	if name == "" {
		return
	}
	x.Ref(lang.Ref{Kind: lang.RefNew, Name: name, Qualifier: qual, Symbol: c.sym}, n)
}

// typedNew records new() of the type a declaration names.
func typedNew(x *lang.Extractor, n int32, typ string, c state) {
	name, qual := lang.SplitType(typ)
	if name == "" || strings.HasSuffix(name, "]") {
		return
	}
	x.Ref(lang.Ref{Kind: lang.RefNew, Name: name, Qualifier: qual, Symbol: c.sym}, n)
}

// ctorInit records : base(...) and : this(...) as calls of a
// constructor of the base class or of the class itself.
func ctorInit(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	if c.cls < 0 {
		return
	}
	cls := &x.Facts.Symbols[c.cls]
	switch {
	case t.ChildOfKind(n, "this") >= 0:
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: cls.Name, Qualifier: "this", QualifierType: cls.Qualified(), Symbol: c.sym}, n)
	case t.ChildOfKind(n, "base") >= 0:
		name := "object"
		if len(cls.Signature.Bases) > 0 {
			name, _ = lang.SplitType(stripType(cls.Signature.Bases[0]))
		}
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: "base", Symbol: c.sym}, n)
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		node(x, ch, c)
	}
}

func lambda(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	scope := &lang.Scope{Parent: c.scope}
	if ps := t.Field(n, "parameters"); ps >= 0 {
		switch t.Kind(ps) {
		case "implicit_parameter", "identifier":
			scope.SetType(t.Text(ps), "")
		case "parameter_list":
			paramList(x, ps, scope)
		}
	}
	c.scope, c.top = scope, false
	if b := t.Field(n, "body"); b >= 0 {
		node(x, b, c)
		return
	}
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) == "block" {
			node(x, ch, c)
		}
	}
}

// guard records if (cond) return ...; and if (cond) throw ...; at the
// top of a method body.
var guard = lang.IfGuard{Body: "consequence", Block: "block", Cond: (*lang.Tree).Text}

func throw(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	e := t.FirstNamedChild(n)
	if e < 0 {
		x.Throw(c.sym, "throws", "", n) // a rethrow
		return
	}
	what := lang.OneLine(t.Text(e))
	if t.Kind(e) == "object_creation_expression" {
		what = stripType(t.FieldText(e, "type"))
	}
	x.Throw(c.sym, "throws", what, n)
}

// nullChecks throw when their first argument is null, argChecks when
// it is false.
var (
	nullChecks = map[string]bool{"ThrowIfNull": true, "ThrowIfNullOrEmpty": true, "ThrowIfNullOrWhiteSpace": true,
		"NotNull": true}
	argChecks = map[string]bool{"Requires": true, "Assert": true, "IsTrue": true}
)

// checkCall records precondition calls (ArgumentNullException.ThrowIfNull,
// Debug.Assert, Contract.Requires) in a statement of a method body.
func checkCall(x *lang.Extractor, st int32, c state) {
	t := x.Tree
	e := t.FirstNamedChild(st)
	if e < 0 || t.Kind(e) != "invocation_expression" {
		return
	}
	fn := t.Field(e, "function")
	args := t.Field(e, "arguments")
	if fn < 0 || args < 0 || t.Kind(fn) != "member_access_expression" {
		return
	}
	name := t.FieldText(fn, "name")
	arg := t.FirstNamedChild(args)
	if arg < 0 {
		return
	}
	switch {
	case nullChecks[name]:
		x.Guard(c.sym, t.Text(arg)+" == null", "throw", st)
	case argChecks[name]:
		x.Guard(c.sym, "!("+t.Text(arg)+")", "throw", st)
	case strings.HasPrefix(name, "ThrowIf"):
		x.Guard(c.sym, strings.TrimPrefix(name, "ThrowIf")+"("+t.Text(arg)+")", "throw", st)
	}
}
