// Package php is sdl's room for PHP: classes, functions, methods,
// properties, constants and enum cases come from tags.scm; this file
// holds what a query cannot say (signatures, visibility, PHPDoc, and a
// walk over namespaces, uses, includes and code that places each
// declaration in the class that holds it and follows the classes of
// variables to the calls it records, with guards and side effects),
// resolution through namespaces, uses, PSR-4 autoload
// maps and base classes, and the skeleton rules of its braced bodies.
package php

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
	// the php grammar, not php_only: templates interleave HTML
	lang.Register(lang.Spec{
		Name:       "php",
		Extensions: []string{".php", ".phtml"},
		Grammar:    grammar.PHP(),
		Query:      tags, QueryFile: "lang/php/tags.scm",
		QueryRoots: append(slices.Clone(classDecls), "function_definition", "method_declaration", "property_declaration",
			"const_declaration", "enum_case"),
		Comments: []string{"comment"},
		Strings:  []string{"string", "encapsed_string", "heredoc", "nowdoc", "shell_command_expression"},
		Idents:   []string{"name"},
		Data:     data,
		Builtins: lang.WordFile(data, "builtins.txt"),
		Defs:     defs,
		Symbol:   symbol,
		Place:    true,
		// a constant in a function is the function's: no local
		LocalItems: true,
		Finish:     finish,
		Resolver:   lang.Resolvers{Ref: resolve, Import: resolveImport},
		SkelRules:  skeleton,
		Project:    AutoloadReader{},
	})
}

// newScope is the scope of a function: what is known of the class of its
// variables, a typed parameter, $x = new Foo, or the call they hold ("$x"
// -> "Foo" as written, or the call "$repo->find" it holds); an array of
// Foo (Foo[] in its doc) has the Elem "Foo".
func newScope() *lang.Scope { return &lang.Scope{Types: map[string]string{}} }

// state is where the walk of finish is.
type state struct {
	sym   int         // the symbol code belongs to
	cls   int         // the innermost class, interface, trait or enum, -1 outside
	ns    string      // the namespace
	top   bool        // a statement of a function body itself, where an early exit is a guard
	scope *lang.Scope // the variables of the function
	fn    bool        // inside a function body
	// elems are the element classes of the class's array properties,
	// from their PHPDoc (@var Handler[], @var list<Handler>)
	elems map[string]string
}

// finish walks the file for its namespace, uses, includes, define()
// constants and what its symbols call and construct, guard and throw.
func finish(x *lang.Extractor) {
	c := state{sym: 0, cls: -1, scope: newScope()}
	statements(x, 0, &c)
}

// classDecls are the node kinds of classes, interfaces, traits and enums.
var (
	classDecls = []string{"class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"}
	classKinds = lang.KindSet(classDecls...)
)

// constValue is the value of a constant, -1 for none or for an element
// that names none.
func constValue(t *lang.Tree, el int32) int32 {
	val := int32(-1)
	if name := t.FirstNamedChild(el); name >= 0 && t.Kind(name) == "name" {
		for ch := range t.NamedChildren(el) {
			if ch != name {
				val = ch
			}
		}
	}
	return val
}

// defs gives a constant its value as body.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	for i, d := range ds {
		if t.Kind(d.Node) == "const_element" {
			ds[i].Body = constValue(t, d.Node)
		}
	}
	return ds
}

// symbol completes a definition of the query: its kind, visibility,
// modifiers, signature and PHPDoc.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	x := &lang.Extractor{Tree: t}
	n := d.Node
	s.Exported, s.Visibility, s.Doc = true, lang.VisPublic, ""
	switch k := t.Kind(n); {
	case classKinds[k]:
		classSymbol(x, n, d.Body, s)
	case k == "method_declaration" && s.Kind != lang.KindFunction:
		if strings.EqualFold(s.Name, "__construct") {
			s.Kind = lang.KindConstructor
		}
		methodSymbol(x, n, s)
	case k == "function_definition", k == "method_declaration":
		s.Kind = lang.KindFunction
		functionSymbol(x, n, s)
	case k == "property_promotion_parameter":
		s.Name = strings.TrimPrefix(s.Name, "$")
		pvis, pmods := modifiers(x, n)
		visibility(s, pvis)
		s.Signature.Modifiers = append(pmods, "promoted")
		s.Signature.Returns = lang.OneLine(t.FieldText(n, "type"))
		s.Signature.Text = lang.OneLine(t.Text(n))
	case k == "property_element":
		s.Name = strings.TrimPrefix(s.Name, "$")
		propertySymbol(x, t.Parent(n), s)
	case k == "const_element":
		decl := t.Parent(n)
		vis, mods := modifiers(x, decl)
		visibility(s, vis)
		s.Doc = doc(x, decl)
		s.Signature.Modifiers = append(mods, "const")
		s.Signature.Text = lang.OneLine(t.Text(n))
	case k == "enum_case":
		s.Signature.Returns = t.FieldText(d.Parent, "name") // its enum
		s.Signature.Modifiers = []string{"case"}
		s.Signature.Text = lang.OneLine(t.Text(n))
	}
	return true
}

// statements walks a program or a namespace body in order: a
// namespace statement puts what follows it in the namespace.
func statements(x *lang.Extractor, n int32, c *state) {
	t := x.Tree
	for st := range t.NamedChildren(n) {
		switch t.Kind(st) {
		case "namespace_definition":
			ns := strings.TrimPrefix(lang.OneLine(t.FieldText(st, "name")), `\`)
			if x.Facts.Module == "" && ns != "" {
				x.Facts.Module = ns
				x.Facts.Symbols[0].Name = ns
				x.Facts.Symbols[0].Doc = doc(x, st)
			}
			if b := t.Field(st, "body"); b >= 0 {
				inner := *c
				inner.ns = ns
				statements(x, b, &inner)
			} else {
				c.ns = ns
			}
		case "ERROR", "compound_statement":
			statements(x, st, c)
		default:
			node(x, st, *c)
		}
	}
}

// node walks one node.
func node(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	switch t.Kind(n) {
	case "comment", "php_tag", "text", "text_interpolation", "attribute_list", "visibility_modifier",
		"static_modifier", "final_modifier", "abstract_modifier", "readonly_modifier":
		return
	case "namespace_use_declaration":
		use(x, n, c)
		return
	case "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
		class(x, n, c)
		return
	case "function_definition", "method_declaration":
		function(x, n, c)
		return
	case "property_declaration":
		property(x, n, c)
		return
	case "const_declaration":
		constDecl(x, n, c)
		return
	case "enum_case":
		if c.cls >= 0 {
			x.Define(n, c.cls)
		}
		return
	case "use_declaration":
		return // traits: read with the class
	case "include_expression", "include_once_expression", "require_expression", "require_once_expression":
		include(x, n, c)
		return
	case "function_call_expression":
		callFunc(x, n, c)
	case "member_call_expression", "nullsafe_member_call_expression":
		callMember(x, n, c)
	case "scoped_call_expression":
		callScoped(x, n, c)
	case "object_creation_expression":
		newExpr(x, n, c)
	case "array_creation_expression":
		callableArray(x, n, c)
	case "anonymous_function", "arrow_function":
		closure(x, n, c)
		return
	case "assignment_expression":
		assign(x, n, c)
		return
	case "foreach_statement":
		// foreach ($xs as $k => $x): $x is an element of $xs
		var kids []int32
		for ch := range t.NamedChildren(n) {
			if t.FieldName(ch) != "body" {
				kids = append(kids, ch)
			}
		}
		if len(kids) >= 2 {
			elem := ""
			switch src := kids[0]; t.Kind(src) {
			case "variable_name":
				elem = c.scope.Elem(t.Text(src))
			case "member_access_expression":
				if t.FieldText(src, "object") == "$this" {
					elem = c.elems[t.FieldText(src, "name")]
				}
			}
			val := kids[len(kids)-1]
			if t.Kind(val) == "pair" {
				if k := t.FirstNamedChild(val); k >= 0 && t.Kind(k) == "variable_name" {
					c.scope.SetType(t.Text(k), "")
				}
				var last int32 = -1
				for v := range t.NamedChildren(val) {
					last = v
				}
				val = last
			}
			if val >= 0 && t.Kind(val) == "variable_name" {
				c.scope.SetType(t.Text(val), elem)
			}
		}
	case "catch_clause":
		if name := t.Field(n, "name"); name >= 0 {
			typ := ""
			if tl := t.Field(n, "type"); tl >= 0 && t.NamedChildCount(tl) == 1 {
				typ = lang.OneLine(t.Text(t.FirstNamedChild(tl)))
			}
			c.scope.SetType(t.Text(name), typ)
		}
	case "if_statement":
		if c.top {
			guard.Guard(x, c.sym, n)
		}
	case "throw_expression":
		throw(x, n, c)
	case "exit_statement":
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: "exit", Symbol: c.sym}, n)
	case "shell_command_expression":
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: "shell_exec", Symbol: c.sym}, n)
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		node(x, ch, c)
	}
}

// doc is the PHPDoc block above a declaration (other comments may sit
// between), or the line comments right above it.
func doc(x *lang.Extractor, n int32) string {
	t := x.Tree
	for p := t.PrevSibling(n); p >= 0 && t.IsComment(p); p = t.PrevSibling(p) {
		if strings.HasPrefix(t.Text(p), "/**") {
			return lang.CleanComment(t.Text(p))
		}
	}
	return x.DocBefore(n)
}

// docTypes reads @param Type $name, @return Type and @var Type from a
// doc comment.
func docTypes(doc string) (params map[string]string, ret, varType string) {
	if !strings.Contains(doc, "@") {
		return nil, "", ""
	}
	for _, l := range strings.Split(doc, "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		typ := firstType(f[1])
		switch f[0] {
		case "@param":
			name := ""
			for _, w := range f[1:] {
				if strings.HasPrefix(w, "$") || strings.HasPrefix(w, "...$") {
					name = strings.TrimPrefix(w, "...")
					break
				}
			}
			if name != "" && f[1] != "" && !strings.HasPrefix(f[1], "$") {
				if params == nil {
					params = map[string]string{}
				}
				params[name] = f[1]
			}
		case "@return":
			ret = typ
		case "@var":
			varType = typ
		}
	}
	return params, ret, varType
}

// elemType is the element class of an array doc type: "Item[]",
// "array<string, Item>", "list<Item>", "iterable<Item>" -> "Item".
func elemType(s string) string {
	if strings.HasSuffix(s, "[]") {
		return firstType(strings.TrimSuffix(s, "[]"))
	}
	i := strings.IndexByte(s, '<')
	if i < 0 || !strings.HasSuffix(s, ">") {
		return ""
	}
	switch strings.ToLower(s[:i]) {
	case "array", "list", "iterable", "non-empty-array", "non-empty-list", "\\traversable", "traversable":
	default:
		return ""
	}
	args := s[i+1 : len(s)-1]
	if j := strings.LastIndexByte(args, ','); j >= 0 {
		args = args[j+1:]
	}
	return firstType(strings.TrimSpace(args))
}

// firstType is the first class of a doc type: "?Foo|null" -> "Foo",
// "Foo[]" -> "" (an array), "int" -> "int".
func firstType(s string) string {
	s = strings.TrimPrefix(s, "?")
	if i := strings.IndexAny(s, "|&<{"); i >= 0 {
		s = s[:i]
	}
	if strings.HasSuffix(s, "]") || strings.HasPrefix(s, "$") {
		return ""
	}
	return s
}

// typeText is a declared type for resolution: the class of ?Foo,
// Foo|null; "" for unions of classes and primitives.
func typeText(t *lang.Tree, n int32) string {
	if n < 0 {
		return ""
	}
	switch t.Kind(n) {
	case "named_type":
		return lang.OneLine(t.Text(n))
	case "optional_type":
		if in := t.FirstNamedChild(n); in >= 0 {
			return typeText(t, in)
		}
	case "union_type":
		// Foo|null
		var cls []string
		for ch := range t.NamedChildren(n) {
			if k := t.Kind(ch); k == "named_type" || k == "optional_type" {
				cls = append(cls, typeText(t, ch))
			} else if t.Text(ch) != "null" {
				return ""
			}
		}
		if len(cls) == 1 {
			return cls[0]
		}
	case "primitive_type":
		return t.Text(n)
	}
	return ""
}

// modifiers reads the modifiers of a declaration.
func modifiers(x *lang.Extractor, n int32) (vis string, mods []string) {
	t := x.Tree
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "visibility_modifier":
			vis = strings.ToLower(t.Text(ch))
		case "static_modifier":
			mods = append(mods, "static")
		case "final_modifier":
			mods = append(mods, "final")
		case "abstract_modifier":
			mods = append(mods, "abstract")
		case "readonly_modifier":
			mods = append(mods, "readonly")
		case "attribute_list":
			for a := range t.Descendants(ch) {
				if t.Kind(a) == "attribute" {
					if name := t.FirstNamedChild(a); name >= 0 {
						mods = append(mods, "#["+lang.OneLine(t.Text(name))+"]")
					}
				}
			}
		}
	}
	return vis, mods
}

func visibility(s *lang.Symbol, vis string) {
	switch vis {
	case "private":
		s.Exported, s.Visibility = false, lang.VisPrivate
	case "protected":
		s.Exported, s.Visibility = false, lang.VisProtected
	default:
		s.Exported, s.Visibility = true, lang.VisPublic
	}
}

// use records use A\B; use A\B as C; use A\{B, C as D}; use function
// A\f; use const A\X. A class import's source is the class; a function's
// or constant's is its namespace, with the name as an imported name.
func use(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	kind := ""
	prefix := ""
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "function", "const":
			kind = t.Kind(ch)
		case "namespace_name":
			prefix = strings.TrimPrefix(lang.OneLine(t.Text(ch)), `\`)
		}
	}
	var clauses []int32
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "namespace_use_clause":
			clauses = append(clauses, ch)
		case "namespace_use_group":
			for cl := range t.NamedChildren(ch) {
				if t.Kind(cl) == "namespace_use_clause" {
					clauses = append(clauses, cl)
				}
			}
		}
	}
	for _, cl := range clauses {
		ck := kind
		var name, alias string
		for ch := range t.Children(cl) {
			switch {
			case t.Kind(ch) == "function" || t.Kind(ch) == "const":
				ck = t.Kind(ch)
			case t.FieldName(ch) == "alias":
				alias = t.Text(ch)
			case t.Kind(ch) == "qualified_name" || t.Kind(ch) == "name" && name == "":
				name = strings.TrimPrefix(lang.OneLine(t.Text(ch)), `\`)
			}
		}
		if name == "" {
			continue
		}
		full := name
		if prefix != "" {
			full = prefix + `\` + name
		}
		imp := lang.Import{Line: t.StartLine(cl), Symbol: c.sym}
		if ck != "" {
			ns, fn := splitName(full)
			imp.Source = ns
			imp.Names = []lang.ImportName{{Name: fn, Alias: alias}}
			if ck == "const" {
				imp.Alias = "const"
			}
		} else {
			imp.Source, imp.Alias = full, alias
		}
		x.Facts.Imports = append(x.Facts.Imports, imp)
	}
}

// splitName splits "A\B\C" into "A\B" and "C".
func splitName(s string) (ns, name string) {
	if i := strings.LastIndexByte(s, '\\'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

// include records require/include of a literal path. A path built
// from __DIR__ (or dirname(__FILE__)) is relative to the file and starts
// with "./"; a bare one is looked up in the include path.
func include(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	arg := t.FirstNamedChild(n)
	for arg >= 0 && t.Kind(arg) == "parenthesized_expression" {
		arg = t.FirstNamedChild(arg)
	}
	src := ""
	switch {
	case arg < 0:
	case t.Kind(arg) == "string" || t.Kind(arg) == "encapsed_string":
		src = stringText(t, arg)
	case t.Kind(arg) == "binary_expression":
		l, r := t.Field(arg, "left"), t.Field(arg, "right")
		if l >= 0 && r >= 0 && (t.Text(l) == "__DIR__" || strings.HasPrefix(strings.ReplaceAll(t.Text(l), " ", ""), "dirname(__FILE__)")) {
			if s := stringText(t, r); s != "" {
				src = "./" + strings.TrimPrefix(s, "/")
			}
		}
	}
	if src != "" {
		x.Facts.Imports = append(x.Facts.Imports, lang.Import{Source: src, Line: t.StartLine(n), Symbol: c.sym})
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		node(x, ch, c)
	}
}

// stringText is the text of a string without interpolation, or "".
func stringText(t *lang.Tree, n int32) string {
	if t.Kind(n) != "string" && t.Kind(n) != "encapsed_string" {
		return ""
	}
	var b strings.Builder
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) != "string_content" {
			return ""
		}
		b.WriteString(t.Text(ch))
	}
	return b.String()
}

// around is the symbol a declaration met at c belongs to when it is a
// class's member: the innermost class, else the symbol whose code holds it.
func (c state) around() int {
	if c.cls >= 0 {
		return c.cls
	}
	return c.sym
}

func classSymbol(x *lang.Extractor, n, body int32, s *lang.Symbol) {
	t := x.Tree
	_, mods := modifiers(x, n)
	switch t.Kind(n) {
	case "trait_declaration":
		mods = append(mods, "trait")
	case "enum_declaration":
		mods = append(mods, "enum")
	}
	s.Signature.Modifiers = mods
	bs, _ := bases(t, n)
	for _, b := range bs {
		s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(b)))
	}
	if t.Kind(n) == "enum_declaration" {
		// every enum implements UnitEnum, a backed one BackedEnum: PHP's
		// Suit::cases(), Suit::from() and tryFrom() come from them
		base := `\UnitEnum`
		for ch := range t.NamedChildren(n) {
			if t.Kind(ch) == "primitive_type" {
				base = `\BackedEnum`
			}
		}
		s.Signature.Bases = append(s.Signature.Bases, base)
	}
	s.Signature.Fields = classFields(x, body)
	s.Doc = doc(x, n)
}

// bases are the classes a class extends, then the interfaces it
// implements and the traits it uses, with the kind of reference each is.
func bases(t *lang.Tree, n int32) (nodes []int32, kinds []string) {
	body := t.Field(n, "body")
	for _, g := range [...]struct{ clause, kind string }{{"base_clause", lang.RefExtends},
		{"class_interface_clause", lang.RefImplements}, {"use_declaration", lang.RefImplements}} {
		in := n
		if g.clause == "use_declaration" {
			if in = body; in < 0 {
				break
			}
		}
		for ch := range t.NamedChildren(in) {
			if t.Kind(ch) != g.clause {
				continue
			}
			for b := range t.NamedChildren(ch) {
				if k := t.Kind(b); in == n || k == "name" || k == "qualified_name" {
					nodes, kinds = append(nodes, b), append(kinds, g.kind)
				}
			}
		}
	}
	return nodes, kinds
}

// class records a class's bases and walks its body.
func class(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	sym, _ := x.Define(n, c.around())
	if t.Field(n, "name") < 0 {
		return
	}
	bs, kinds := bases(t, n)
	for i, b := range bs {
		rq, rn := splitName(lang.OneLine(t.Text(b)))
		x.Ref(lang.Ref{Kind: kinds[i], Name: rn, Qualifier: rq, Symbol: sym}, b)
	}
	inner := state{sym: sym, cls: sym, ns: c.ns, scope: newScope(), elems: propertyElems(x, t.Field(n, "body"))}
	walkBody(x, t.Field(n, "body"), inner)
}

// propertyElems maps a class's array properties to their element class,
// which their PHPDoc names: foreach ($this->handlers as $handler) walks
// HandlerInterfaces when $handlers is documented @var
// list<HandlerInterface> (monolog's Logger and GroupHandler).
func propertyElems(x *lang.Extractor, body int32) map[string]string {
	t := x.Tree
	if body < 0 {
		return nil
	}
	var out map[string]string
	for m := range t.NamedChildren(body) {
		if t.Kind(m) != "property_declaration" {
			continue
		}
		e := elemType(docVar(doc(x, m)))
		if e == "" {
			continue
		}
		for el := range t.NamedChildren(m) {
			if name := t.Field(el, "name"); t.Kind(el) == "property_element" && name >= 0 {
				if out == nil {
					out = map[string]string{}
				}
				out[strings.TrimPrefix(t.Text(name), "$")] = e
			}
		}
	}
	return out
}

// docVar is the type a doc comment's @var tag names, as written.
func docVar(doc string) string {
	for _, l := range strings.Split(doc, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "@var" {
			return f[1]
		}
	}
	return ""
}

// classFields lists a class's properties (with promoted constructor
// parameters) and constants with their types.
func classFields(x *lang.Extractor, body int32) []lang.Param {
	t := x.Tree
	if body < 0 {
		return nil
	}
	var out []lang.Param
	for m := range t.NamedChildren(body) {
		switch t.Kind(m) {
		case "property_declaration":
			typ := typeText(t, t.Field(m, "type"))
			if typ == "" {
				_, _, typ = docTypes(doc(x, m))
			}
			for el := range t.NamedChildren(m) {
				if t.Kind(el) == "property_element" {
					if name := t.Field(el, "name"); name >= 0 {
						out = append(out, lang.Param{Name: strings.TrimPrefix(t.Text(name), "$"), Type: typ})
					}
				}
			}
		case "const_declaration":
			for el := range t.NamedChildren(m) {
				if t.Kind(el) == "const_element" {
					if name := t.FirstNamedChild(el); name >= 0 {
						out = append(out, lang.Param{Name: t.Text(name)})
					}
				}
			}
		case "method_declaration":
			if t.FieldText(m, "name") != "__construct" {
				continue
			}
			if ps := t.Field(m, "parameters"); ps >= 0 {
				for p := range t.NamedChildren(ps) {
					if t.Kind(p) == "property_promotion_parameter" {
						out = append(out, lang.Param{Name: strings.TrimPrefix(t.FieldText(p, "name"), "$"),
							Type: typeText(t, t.Field(p, "type"))})
					}
				}
			}
		}
	}
	return out
}

// paramList reads formal parameters, declaring them in scope; docTypes
// are the PHPDoc @param types of untyped ones.
func paramList(x *lang.Extractor, list int32, scope *lang.Scope, docTypes map[string]string) []lang.Param {
	t := x.Tree
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for p := range t.NamedChildren(list) {
		k := t.Kind(p)
		if k != "simple_parameter" && k != "variadic_parameter" && k != "property_promotion_parameter" {
			continue
		}
		pr := lang.Param{Name: t.FieldText(p, "name"), Type: lang.OneLine(t.FieldText(p, "type"))}
		if d := t.Field(p, "default_value"); d >= 0 {
			pr.Default = lang.Shorten(lang.OneLine(t.Text(d)), 40)
			pr.Optional = true
		}
		if k == "variadic_parameter" {
			pr.Variadic = true
		}
		typ := typeText(t, t.Field(p, "type"))
		doc := docTypes[pr.Name]
		if pr.Type == "" && firstType(doc) != "" {
			pr.Type = firstType(doc)
			typ = pr.Type
		}
		out = append(out, pr)
		if scope != nil && pr.Name != "" {
			if pr.Variadic {
				typ = ""
			}
			scope.SetType(pr.Name, typ)
			if e := elemType(doc); e != "" {
				scope.SetElem(pr.Name, e)
			}
		}
	}
	return out
}

// functionSymbol completes a function or method: its PHPDoc, parameters
// (typed by the PHPDoc where the code does not say) and return type;
// its signature is its header, to the body the query captured.
func functionSymbol(x *lang.Extractor, n int32, s *lang.Symbol) {
	t := x.Tree
	s.Doc = doc(x, n)
	ptypes, ret, _ := docTypes(s.Doc)
	s.Signature.Params = paramList(x, t.Field(n, "parameters"), nil, ptypes)
	s.Signature.Returns = lang.OneLine(t.FieldText(n, "return_type"))
	if s.Signature.Returns == "" {
		s.Signature.Returns = ret
	}
}

// walkBody walks the statements of a function body.
func walkBody(x *lang.Extractor, body int32, c state) {
	if body < 0 {
		return
	}
	for st := range x.Tree.NamedChildren(body) {
		node(x, st, c)
	}
}

func methodSymbol(x *lang.Extractor, n int32, s *lang.Symbol) {
	vis, mods := modifiers(x, n)
	visibility(s, vis)
	s.Signature.Modifiers = mods
	functionSymbol(x, n, s)
	if strings.Contains(s.Doc, "@test") {
		s.IsTest = true
	}
	for _, m := range mods {
		if m == "#[Test]" || strings.HasSuffix(m, `\Test]`) {
			s.IsTest = true
		}
	}
}

// function walks the body of a function or method with its parameters in
// scope; a method outside every class is a function.
func function(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	around := c.sym
	if t.Kind(n) == "method_declaration" {
		around = c.around()
	}
	sym, _ := x.Define(n, around)
	if t.Field(n, "name") < 0 {
		return
	}
	if ps := t.Field(n, "parameters"); ps >= 0 && c.cls >= 0 && x.Facts.Symbols[sym].Kind == lang.KindConstructor {
		for p := range t.NamedChildren(ps) {
			x.Define(p, c.cls) // a promoted parameter, a property of the class
		}
	}
	scope := newScope()
	ptypes, _, _ := docTypes(doc(x, n))
	paramList(x, t.Field(n, "parameters"), scope, ptypes)
	walkBody(x, t.Field(n, "body"), state{sym: sym, cls: c.cls, ns: c.ns, scope: scope, fn: true, top: true, elems: c.elems})
}

func propertySymbol(x *lang.Extractor, n int32, s *lang.Symbol) {
	t := x.Tree
	vis, mods := modifiers(x, n)
	visibility(s, vis)
	s.Doc = doc(x, n)
	s.Signature.Returns = lang.OneLine(t.FieldText(n, "type"))
	if s.Signature.Returns == "" {
		_, _, s.Signature.Returns = docTypes(s.Doc)
	}
	s.Signature.Modifiers = mods
	s.Signature.Text = x.HeaderText(n, -1)
}

// property walks the default values of a class's properties.
func property(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	if c.cls < 0 {
		return
	}
	for el := range t.NamedChildren(n) {
		name := t.Field(el, "name")
		if t.Kind(el) != "property_element" || name < 0 {
			continue
		}
		sym, _ := x.Define(el, c.cls)
		if val := t.Field(el, "default_value"); val >= 0 {
			node(x, val, state{sym: sym, cls: c.cls, ns: c.ns, scope: newScope()})
		}
	}
}

// constDecl walks the values of constants.
func constDecl(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	for el := range t.NamedChildren(n) {
		if t.Kind(el) != "const_element" {
			continue
		}
		sym, _ := x.Define(el, c.around())
		if val := constValue(t, el); val >= 0 {
			node(x, val, state{sym: sym, cls: c.cls, ns: c.ns, scope: newScope()})
		}
	}
}

// expr renders an expression used as a qualifier with arguments left
// out: "$a->b($x)->c" -> "$a->b()->c", "Foo::make(1)" -> "Foo::make()".
func expr(t *lang.Tree, n int32, depth int) string {
	if depth > lang.MaxChain {
		return "..."
	}
	switch t.Kind(n) {
	case "variable_name", "name", "relative_scope":
		return t.Text(n)
	case "qualified_name":
		return lang.OneLine(t.Text(n))
	case "member_access_expression", "nullsafe_member_access_expression":
		if o := t.Field(n, "object"); o >= 0 {
			return expr(t, o, depth+1) + "->" + t.FieldText(n, "name")
		}
	case "member_call_expression", "nullsafe_member_call_expression":
		if o := t.Field(n, "object"); o >= 0 {
			return expr(t, o, depth+1) + "->" + t.FieldText(n, "name") + "()"
		}
	case "scoped_call_expression":
		if sc := t.Field(n, "scope"); sc >= 0 {
			return expr(t, sc, depth+1) + "::" + t.FieldText(n, "name") + "()"
		}
	case "scoped_property_access_expression":
		if sc := t.Field(n, "scope"); sc >= 0 {
			return expr(t, sc, depth+1) + "::" + t.FieldText(n, "name")
		}
	case "class_constant_access_expression":
		var parts []string
		for ch := range t.NamedChildren(n) {
			parts = append(parts, expr(t, ch, depth+1))
		}
		return strings.Join(parts, "::")
	case "function_call_expression":
		if f := t.Field(n, "function"); f >= 0 {
			return expr(t, f, depth+1) + "()"
		}
	case "object_creation_expression":
		if cls := newClass(t, n); cls != "" {
			return "new " + cls + "()"
		}
	case "parenthesized_expression":
		if in := t.FirstNamedChild(n); in >= 0 {
			return expr(t, in, depth+1)
		}
	case "subscript_expression":
		if in := t.FirstNamedChild(n); in >= 0 {
			return expr(t, in, depth+1) + "[]"
		}
	case "string", "encapsed_string":
		return `""`
	}
	return lang.Shorten(lang.OneLine(t.Text(n)), 40)
}

// newClass is the class a new expression names ("" for new $x and
// anonymous classes).
func newClass(t *lang.Tree, n int32) string {
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "name", "qualified_name":
			return lang.OneLine(t.Text(ch))
		}
		break
	}
	return ""
}

// head works out what is known of a qualifier: the class of its first
// part ($this, a typed variable, new Foo) and, when it is or holds a
// call, that call.
func head(x *lang.Extractor, obj int32, c state) (typ, call string) {
	t := x.Tree
	switch t.Kind(obj) {
	case "member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression", "function_call_expression":
		call = strings.TrimSuffix(expr(t, obj, 0), "()")
	}
	n := obj
	for i := 0; i <= lang.MaxChain; i++ {
		next := int32(-1)
		switch t.Kind(n) {
		case "member_call_expression", "nullsafe_member_call_expression", "member_access_expression",
			"nullsafe_member_access_expression":
			next = t.Field(n, "object")
		case "parenthesized_expression", "subscript_expression":
			next = t.FirstNamedChild(n)
		}
		if next < 0 {
			break
		}
		n = next
	}
	switch t.Kind(n) {
	case "variable_name":
		name := t.Text(n)
		if name == "$this" {
			if c.cls >= 0 {
				typ = className(x, c)
			}
			break
		}
		vt, ok := c.scope.Types[name]
		vc := ""
		if c.scope.Calls != nil {
			vc = c.scope.Calls[name]
		}
		switch {
		case !ok:
		case vc == "":
			typ = vt
		case call == "":
			typ, call = c.scope.Heads[name], vc
		case strings.HasPrefix(call, name):
			typ, call = c.scope.Heads[name], vc+"()"+call[len(name):]
		}
	case "object_creation_expression":
		typ = newClass(t, n)
		if typ == "static" || typ == "self" {
			typ = className(x, c)
		}
	}
	return typ, call
}

// className is the fully qualified name of the class around code, ""
// outside every class (new static() in a function).
func className(x *lang.Extractor, c state) string {
	if c.cls < 0 {
		return ""
	}
	name := x.Facts.Symbols[c.cls].Name
	if c.ns != "" {
		return `\` + c.ns + `\` + name
	}
	return `\` + name
}

func callFunc(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	fn := t.Field(n, "function")
	if fn < 0 {
		return
	}
	switch t.Kind(fn) {
	case "name", "qualified_name":
		full := strings.TrimPrefix(lang.OneLine(t.Text(fn)), `\`)
		ns, name := splitName(full)
		if strings.HasPrefix(lang.OneLine(t.Text(fn)), `\`) && ns != "" {
			ns = `\` + ns
		}
		switch strings.ToLower(name) {
		case "die":
			name = "exit"
		case "define":
			define(x, n, c)
		}
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: ns, Symbol: c.sym}, n)
	}
}

// define makes define('NAME', value) at the top of a file a constant.
func define(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	if c.fn || c.cls >= 0 {
		return
	}
	args := t.Field(n, "arguments")
	if args < 0 {
		return
	}
	first := t.FirstNamedChild(args)
	if first < 0 {
		return
	}
	if s := t.FirstNamedChild(first); s >= 0 {
		if name := stringText(t, s); name != "" {
			sym := lang.Symbol{Kind: lang.KindVariable, Name: name, Parent: c.sym, Exported: true, Visibility: lang.VisPublic,
				Doc: doc(x, t.Parent(n))}
			sym.Signature.Modifiers = []string{"const"}
			sym.Signature.Text = lang.Shorten(lang.OneLine(t.Text(n)), 120)
			x.AddSymbol(sym, n, -1, -1)
		}
	}
}

func callMember(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	obj := t.Field(n, "object")
	name := t.Field(n, "name")
	if obj < 0 || name < 0 || t.Kind(name) != "name" {
		return
	}
	r := lang.Ref{Kind: lang.RefCall, Name: t.Text(name), Qualifier: expr(t, obj, 0), Symbol: c.sym}
	r.QualifierType, r.QualifierCall = head(x, obj, c)
	x.Ref(r, n)
}

func callScoped(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	scope := t.Field(n, "scope")
	name := t.Field(n, "name")
	if scope < 0 || name < 0 || t.Kind(name) != "name" {
		return
	}
	r := lang.Ref{Kind: lang.RefCall, Name: t.Text(name), Qualifier: expr(t, scope, 0), Symbol: c.sym}
	switch t.Kind(scope) {
	case "relative_scope":
		if c.cls >= 0 && r.Qualifier != "parent" {
			r.QualifierType = className(x, c)
		}
	case "name", "qualified_name":
		// Foo::m(): the class as written, which tells a static call from
		// a namespaced function's
		r.QualifierType = r.Qualifier
	case "variable_name", "member_access_expression", "member_call_expression":
		r.QualifierType, r.QualifierCall = head(x, scope, c)
	}
	x.Ref(r, n)
}

func newExpr(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	if ac := t.ChildOfKind(n, "anonymous_class"); ac >= 0 {
		// new class extends Base {...}: its code is the enclosing symbol's
		if bc := t.ChildOfKind(ac, "base_clause"); bc >= 0 {
			if b := t.FirstNamedChild(bc); b >= 0 {
				rq, rn := splitName(lang.OneLine(t.Text(b)))
				x.Ref(lang.Ref{Kind: lang.RefNew, Name: rn, Qualifier: rq, Symbol: c.sym}, n)
			}
		}
		return
	}
	cls := newClass(t, n)
	if cls == "" {
		return
	}
	if (cls == "static" || cls == "self") && c.cls >= 0 {
		cls = className(x, c)
	}
	rq, rn := splitName(cls)
	x.Ref(lang.Ref{Kind: lang.RefNew, Name: rn, Qualifier: rq, Symbol: c.sym}, n)
}

// callableArray records the method a callable array names without
// calling it: [Foo::class, 'm'] (a Laravel route's action), [$this, 'm'],
// [self::class, 'm']. Only a two-element list whose second element is a
// literal name qualifies; resolution keeps the reference only when the
// class has that method, so ['id', 'name'] leaves nothing.
func callableArray(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	var els []int32
	for el := range t.NamedChildren(n) {
		if t.Kind(el) != "array_element_initializer" || t.NamedChildCount(el) != 1 {
			return // a keyed or spread element
		}
		els = append(els, t.FirstNamedChild(el))
	}
	if len(els) != 2 {
		return
	}
	name := stringText(t, els[1])
	if !isIdent(name) {
		return
	}
	r := lang.Ref{Kind: lang.RefReference, Name: name, Symbol: c.sym}
	switch recv := els[0]; t.Kind(recv) {
	case "variable_name":
		if t.Text(recv) != "$this" || c.cls < 0 {
			return
		}
		r.Qualifier, r.QualifierType = "$this", className(x, c)
	case "class_constant_access_expression":
		var member int32 = -1
		for ch := range t.NamedChildren(recv) {
			member = ch
		}
		scope := t.FirstNamedChild(recv)
		if scope < 0 || member == scope || !strings.EqualFold(t.Text(member), "class") {
			return
		}
		switch t.Kind(scope) {
		case "name", "qualified_name":
			// as a static call Foo::m() records it: the class as written
			r.Qualifier = lang.OneLine(t.Text(scope))
			r.QualifierType = r.Qualifier
		case "relative_scope":
			if c.cls < 0 || strings.EqualFold(t.Text(scope), "parent") {
				return
			}
			r.Qualifier, r.QualifierType = t.Text(scope), className(x, c)
		default:
			return
		}
	default:
		return
	}
	x.Ref(r, n)
}

// isIdent reports whether s is a PHP identifier, the name of a method.
func isIdent(s string) bool {
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// closure walks a closure: its parameters are its own, what use ()
// brings and an arrow function's outer variables are the enclosing scope's.
func closure(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	inner := c
	inner.top = false
	inner.fn = true
	scope := newScope()
	for k, v := range c.scope.Types {
		scope.Types[k] = v
	}
	paramList(x, t.Field(n, "parameters"), scope, nil)
	inner.scope = scope
	if b := t.Field(n, "body"); b >= 0 {
		node(x, b, inner)
	}
}

// assign learns variable classes from $x = new Foo, $x = Foo::make()
// and $x = $a->b(), and walks the value.
func assign(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	left, right := t.Field(n, "left"), t.Field(n, "right")
	in := c
	in.top = false
	if right >= 0 {
		node(x, right, in)
	}
	if left < 0 {
		return
	}
	if t.Kind(left) != "variable_name" {
		node(x, left, in)
		return
	}
	name := t.Text(left)
	if right < 0 {
		c.scope.SetType(name, "")
		return
	}
	switch t.Kind(right) {
	case "object_creation_expression":
		typ := newClass(t, right)
		if (typ == "static" || typ == "self") && c.cls >= 0 {
			typ = className(x, c)
		}
		c.scope.SetType(name, typ)
	case "member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression", "function_call_expression":
		head, call := head(x, right, c)
		if t.Kind(right) == "scoped_call_expression" {
			if sc := t.Field(right, "scope"); sc >= 0 && t.Kind(sc) == "relative_scope" && c.cls >= 0 {
				head = className(x, c)
			}
		}
		c.scope.SetCall(name, call, head)
	case "class_constant_access_expression":
		// $level = Level::Error: an enum case is of its enum (a class
		// constant's value has no methods to call, so the class costs nothing)
		c.scope.SetType(name, constClass(x, right, c))
	default:
		c.scope.SetType(name, "")
	}
}

// constClass is the class of Foo::CASE (self::CASE, static::CASE in a
// class), "" for Foo::class, a string.
func constClass(x *lang.Extractor, n int32, c state) string {
	t := x.Tree
	var member int32 = -1
	for ch := range t.NamedChildren(n) {
		member = ch
	}
	scope := t.FirstNamedChild(n)
	if scope < 0 || member == scope || strings.EqualFold(t.Text(member), "class") {
		return ""
	}
	switch t.Kind(scope) {
	case "name", "qualified_name":
		return lang.OneLine(t.Text(scope))
	case "relative_scope":
		if c.cls >= 0 && !strings.EqualFold(t.Text(scope), "parent") {
			return className(x, c)
		}
	}
	return ""
}

// guard records if (cond) return/throw at the top of a function body.
var guard = lang.IfGuard{Body: "body", Block: "compound_statement", Else: []string{"else_clause", "else_if_clause"}, Exit: exit}

// exit is the action of a statement that leaves a function: return,
// throw (an expression in PHP 8) or exit.
func exit(t *lang.Tree, st int32) string {
	switch t.Kind(st) {
	case "return_statement":
		return t.ReturnAction(st)
	case "expression_statement":
		if e := t.FirstNamedChild(st); e >= 0 && t.Kind(e) == "throw_expression" {
			return "throw"
		}
	case "exit_statement":
		return "exit"
	}
	return ""
}

func throw(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	e := t.FirstNamedChild(n)
	if e < 0 {
		return
	}
	what := lang.OneLine(t.Text(e))
	if t.Kind(e) == "object_creation_expression" {
		if cls := newClass(t, e); cls != "" {
			what = cls
		}
	}
	x.Throw(c.sym, "throws", what, n)
}
