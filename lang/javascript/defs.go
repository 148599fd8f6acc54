package javascript

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// maxChain bounds the assignments of a chain read for its value
// (exports = module.exports = X).
const maxChain = 8

// defs sees the query's definitions of a file at once: it names a module
// level statement's bound variables, says what a CommonJS assignment
// defines, and drops a named function or class expression that another
// definition names (const f = function g() {} is f).
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	out := make([]lang.Def, 0, len(ds))
	held := map[int32]bool{}
	defined := map[int32]bool{}
	for _, d := range ds {
		n := d.Node
		if held[n] {
			continue // a named function or class expression another names (held before, as outer)
		}
		if p := t.Parent(n); t.Kind(p) == "class_body" && !defined[t.Parent(p)] && !held[t.Parent(p)] {
			continue // a member of a class no symbol is made of: new (class { ... })
		}
		defined[n] = true
		switch k := t.Kind(n); k {
		case "lexical_declaration", "variable_declaration":
			out = varDefs(t, d, out, held)
			continue
		case "expression_statement":
			out = assignDefs(t, d, out, held)
			continue
		case "variable_declarator":
			if held[d.Match.Node("_value")] {
				continue // a module level one varDefs named
			}
			if p := t.Parent(n); len(declarators(t, p)) == 1 {
				d.Node = p
			}
		case "field_definition", "public_field_definition":
			if v := t.Field(n, "value"); v >= 0 && isFunc(t.Kind(v)) {
				d.Kind = lang.KindMethod
			}
		}
		if v := d.Match.Node("_value"); v >= 0 {
			held[v] = true
		}
		if v := valueOf(t, n); d.Body < 0 || v != n {
			d.Body = t.Field(v, "body")
			if d.Kind == lang.KindVariable {
				d.Body = t.Field(n, "value")
			}
		}
		out = append(out, d)
	}
	return out
}

// varDefs makes a variable of each name a module level declaration binds;
// a function or class held through a wrapper or an assignment chain (var
// f = module.exports = function) is named by it, require() binds imports.
func varDefs(t *lang.Tree, d lang.Def, out []lang.Def, held map[int32]bool) []lang.Def {
	decls := declarators(t, d.Node)
	for _, v := range decls {
		name, val := t.Field(v, "name"), t.Field(v, "value")
		if name < 0 {
			continue
		}
		node := v
		if len(decls) == 1 {
			node = d.Node
		}
		if val >= 0 {
			if _, _, ok := required(t, val); ok {
				continue // an import
			}
			if uv, kind := innermost(t, val), valueKind(t, innermost(t, val)); t.Kind(name) == "identifier" && kind != lang.KindVariable {
				if uv != val {
					held[uv] = true
					out = append(out, lang.Def{Node: node, Name: name, Body: t.Field(uv, "body"), Kind: kind, Match: d.Match})
				}
				continue // else the declarator's own definition
			}
			val = innermost(t, val)
		}
		for _, id := range patternNames(t, name) {
			out = append(out, lang.Def{Node: node, Name: id, Body: val, Kind: lang.KindVariable, Match: d.Match})
		}
	}
	return out
}

// assignDefs reads a module level assignment: module.exports = function
// or class is the module's default export, exports.x = ... its export x,
// X.prototype.m = function and X.m = function methods of X (X the symbol
// of that name declared before, else their container).
func assignDefs(t *lang.Tree, d lang.Def, out []lang.Def, held map[int32]bool) []lang.Def {
	targets, right := chain(t, t.FirstNamedChild(d.Node))
	if right < 0 {
		return out
	}
	kind := valueKind(t, right)
	for _, l := range targets {
		switch lt := render(t, l); {
		case lt == "module.exports" || lt == "exports":
			if lt == "exports" && len(targets) == 1 {
				continue // rebinding exports alone exports nothing
			}
			if kind != lang.KindVariable {
				held[right] = true
				name := t.Field(right, "name") // else module.exports: no leaf, as a name no fingerprint skips
				if name < 0 {
					name = l
				}
				out = append(out, lang.Def{Node: d.Node, Name: name, Body: t.Field(right, "body"), Kind: kind, Match: d.Match})
			}
			return out
		case strings.HasPrefix(lt, "module.exports.") || strings.HasPrefix(lt, "exports."):
			if name := strings.TrimPrefix(strings.TrimPrefix(lt, "module."), "exports."); strings.ContainsAny(name, ".([") || t.Kind(right) == "identifier" {
				return out // a property of an export, or another name's export
			}
			held[right] = true
			body := t.Field(right, "body")
			if kind == lang.KindVariable {
				body = right
			}
			return append(out, lang.Def{Node: d.Node, Name: t.Field(l, "property"), Body: body, Kind: kind, Match: d.Match})
		}
	}
	if kind != lang.KindFunction {
		return out
	}
	first := true
	for _, l := range targets {
		if t.Kind(l) != "member_expression" {
			continue
		}
		lt := render(t, l)
		owner := strings.TrimSuffix(lt[:strings.LastIndexByte(lt, '.')], ".prototype")
		name := t.Field(l, "property")
		if owner == "" || strings.ContainsAny(owner, "()[ ") || owner == "this" || name < 0 {
			continue
		}
		def := lang.Def{Node: l, Name: name, Body: -1, Kind: lang.KindMethod, Match: d.Match}
		if first {
			// the first name holds the body; another is a second name
			def.Node, def.Body = d.Node, t.Field(right, "body")
			first = false
		}
		for i := len(out) - 1; i >= 0; i-- {
			if o := out[i]; o.Kind != lang.KindMethod && o.Name >= 0 && t.Text(o.Name) == owner && atTop(t, o.Node) {
				def.Parent = o.Node
				break
			}
		}
		held[right] = true
		out = append(out, def)
	}
	return out
}

// valueKind is the kind of symbol value v makes: a function, a class or
// else a variable.
func valueKind(t *lang.Tree, v int32) string {
	switch {
	case isFunc(t.Kind(v)):
		return lang.KindFunction
	case t.Kind(v) == "class":
		return lang.KindClass
	}
	return lang.KindVariable
}

// chain reads an assignment and those it assigns (a = b = value): the
// targets, outer first, and the value, unwrapped.
func chain(t *lang.Tree, e int32) (targets []int32, value int32) {
	value = e
	for i := 0; i < maxChain && value >= 0 && t.Kind(value) == "assignment_expression"; i++ {
		if l := t.Field(value, "left"); l >= 0 {
			targets = append(targets, l)
		}
		value = t.Field(value, "right")
	}
	if value < 0 || len(targets) == 0 {
		return nil, -1
	}
	return targets, unwrap(t, value)
}

// innermost is the value of v through an assignment chain, unwrapped.
func innermost(t *lang.Tree, v int32) int32 {
	if _, val := chain(t, v); val >= 0 {
		return val
	}
	return unwrap(t, v)
}

// atTop reports a definition made at the top of the module.
func atTop(t *lang.Tree, n int32) bool {
	p := t.Parent(n)
	for p > 0 {
		switch t.Kind(p) {
		case "export_statement", "lexical_declaration", "variable_declaration":
			p = t.Parent(p)
			continue
		}
		break
	}
	return p == 0
}

// declarators are the variable declarators of a declaration.
func declarators(t *lang.Tree, n int32) []int32 {
	var out []int32
	for v := range kids(t, n) {
		if t.Kind(v) == "variable_declarator" {
			out = append(out, v)
		}
	}
	return out
}

// valueOf is the node that holds what definition node n defines: the
// function or class a variable, field, property or assignment holds,
// else n itself.
func valueOf(t *lang.Tree, n int32) int32 {
	switch t.Kind(n) {
	case "lexical_declaration", "variable_declaration":
		if ds := declarators(t, n); len(ds) == 1 {
			return valueOf(t, ds[0])
		}
	case "variable_declarator", "pair", "field_definition", "public_field_definition":
		if v := t.Field(n, "value"); v >= 0 {
			return innermost(t, v)
		}
	case "expression_statement":
		return innermost(t, t.FirstNamedChild(n))
	case "member_expression":
		return innermost(t, t.Parent(n)) // the second name of X.a = X.b = function
	}
	return n
}

// exportedAt reports a declaration under export (and declare).
func exportedAt(t *lang.Tree, n int32) bool {
	if t.Kind(n) == "variable_declarator" {
		n = t.Parent(n)
	}
	p := t.Parent(n)
	if t.Kind(p) == "ambient_declaration" {
		p = t.Parent(p)
	}
	return t.Kind(p) == "export_statement"
}

// docNode is the node whose comment documents definition n: the export
// or declare statement around a declaration, a declaration's first
// declarator's statement; none for a function or class expression.
func docNode(t *lang.Tree, n int32) int32 {
	p := t.Parent(n)
	switch t.Kind(n) {
	case "function_expression", "generator_function", "class", "arrow_function":
		if t.Kind(p) == "export_statement" {
			return p
		}
		return -1
	case "variable_declarator":
		if ds := declarators(t, p); len(ds) == 0 || ds[0] != n {
			return n
		}
		n = p
	}
	for p := t.Parent(n); p > 0 && (t.Kind(p) == "export_statement" || t.Kind(p) == "ambient_declaration"); p = t.Parent(p) {
		n = p
	}
	return n
}

// header is a definition's text up to its end, on one line.
func header(t *lang.Tree, n int32) string {
	x := lang.Extractor{Tree: t}
	return x.HeaderText(n, -1)
}

// symbol completes the symbol of a definition: its name where the code
// gives another (default, exports.x), signature, visibility, doc. Members
// are exported with what holds them (finishExports).
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	n, v, p := d.Node, valueOf(t, d.Node), t.Parent(d.Node)
	s.Name = propName(t, d.Name) // unquoted: declare module 'x', 'a-b'() {}
	s.Doc = doc(t, docNode(t, n))
	s.Exported = exportedAt(t, n) // AddSymbol's visibility follows, a member's is its own
	var mods []string
	switch pk := t.Kind(p); {
	case pk == "class_body":
		s.Visibility = memberVis(t, n, s.Name)
		if t.Kind(n) == "method_definition" && s.Name == "constructor" {
			s.Kind = lang.KindConstructor
		}
	case d.Kind == lang.KindMethod && (t.Kind(n) == "expression_statement" || t.Kind(n) == "member_expression"):
		// X.prototype.m = function: X's when X is declared here
		s.Visibility = lang.VisPublic
		if d.Parent == 0 {
			lt := render(t, t.Parent(d.Name))
			s.Container = strings.TrimSuffix(lt[:strings.LastIndexByte(lt, '.')], ".prototype")
		}
	case t.Kind(n) == "expression_statement":
		s.Exported = true
		if t.Kind(d.Name) != "property_identifier" {
			s.Name, mods = "default", []string{"default"} // module.exports = function
		}
	case pk == "object":
		// a function of the object module.exports is, or a method of
		// a module level variable's
		s.Exported = t.Kind(t.Parent(p)) == "assignment_expression"
		if !s.Exported {
			s.Visibility = lang.VisPublic
		}
	case pk == "export_statement" && t.ChildOfKind(p, "default") >= 0:
		s.Exported, mods = true, []string{"default"}
	case t.Kind(n) == "method_signature":
		s.Visibility = lang.VisPublic
	}
	ts := t.Lang.Name != "javascript"
	switch s.Kind {
	case lang.KindFunction, lang.KindMethod, lang.KindConstructor:
		funcSymbol(t, n, v, s, ts)
	case lang.KindClass:
		if own := t.Field(v, "name"); own >= 0 && s.Name == "default" {
			s.Name = t.Text(own) // module.exports = class Foo {}
		}
		classSymbol(t, v, s)
	case lang.KindVariable:
		varSymbol(t, d, s)
	default:
		typeSymbol(t, d, s)
	}
	s.Signature.Modifiers = append(s.Signature.Modifiers, mods...)
	return true
}

// funcSymbol fills the signature of function fn, defined at n.
func funcSymbol(t *lang.Tree, n, fn int32, s *lang.Symbol, ts bool) {
	signature(t, &s.Signature, fn, newFuncScope(nil), s.Doc, ts)
	switch t.Kind(n) {
	case "function_signature":
		// a declaration in a .d.ts or declare block, else an overload
		if strings.Contains(t.Path, ".d.") || inAmbient(t, n) {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "declare")
		} else {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "overload")
		}
	case "method_signature":
		if t.Kind(t.Parent(n)) == "class_body" {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "overload")
		} else {
			s.Signature.Text = lang.OneLine(t.Text(n))
		}
	case "field_definition", "public_field_definition":
		for ch := range t.Children(n) {
			if k := t.Kind(ch); k == "static" || k == "readonly" {
				s.Signature.Modifiers = append(s.Signature.Modifiers, k)
			}
		}
	case "member_expression":
		s.Signature.Text = lang.OneLine(t.Text(n))
	}
}

func inAmbient(t *lang.Tree, n int32) bool {
	for p := t.Parent(n); p > 0; p = t.Parent(p) {
		if t.Kind(p) == "ambient_declaration" {
			return true
		}
	}
	return false
}

// classSymbol fills the signature of class n: its bases and modifiers
// (the walk adds its fields).
func classSymbol(t *lang.Tree, n int32, s *lang.Symbol) {
	s.Signature.Generics = t.ItemTexts(t.Field(n, "type_parameters"))
	s.Signature.TypeParams = typeParams(t, t.Field(n, "type_parameters"))
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "abstract", "declare":
			s.Signature.Modifiers = append(s.Signature.Modifiers, t.Kind(ch))
		}
	}
	for _, b := range heritage(t, n) {
		s.Signature.Bases = append(s.Signature.Bases, b.text)
	}
}

// varSymbol fills a variable's signature: a module level one's type and
// const, a class field's type and modifiers, exports.x's value type.
func varSymbol(t *lang.Tree, d lang.Def, s *lang.Symbol) {
	n := d.Node
	switch t.Kind(n) {
	case "expression_statement":
		s.Signature.Returns = valueType(t, d.Body)
		s.Signature.Text = lang.Shorten(header(t, n), 120)
		return
	case "field_definition", "public_field_definition":
		s.Signature.Returns = typeText(t, t.Field(n, "type"))
		if v := t.Field(n, "value"); s.Signature.Returns == "" && v >= 0 {
			s.Signature.Returns = valueType(t, v)
		}
		for ch := range t.Children(n) {
			switch k := t.Kind(ch); k {
			case "static", "readonly", "declare", "abstract":
				s.Signature.Modifiers = append(s.Signature.Modifiers, k)
			case "override_modifier":
				s.Signature.Modifiers = append(s.Signature.Modifiers, "override")
			}
		}
		s.Signature.Text = header(t, n)
		return
	}
	stmt, v := n, n
	if t.Kind(n) == "variable_declarator" {
		stmt = t.Parent(n)
	} else {
		v = declarators(t, n)[0]
	}
	isConst := t.FieldText(stmt, "kind") == "const" || t.ChildOfKind(stmt, "const") >= 0
	if isConst {
		s.Signature.Modifiers = []string{"const"}
	}
	if d.Name == t.Field(v, "name") {
		val := d.Body
		typ := varType(t, v, val, n)
		if typ == "" && val >= 0 && isConst {
			// const string = ZodString.create: an alias of a
			// function, typed as TypeScript would write it
			if uv := unwrap(t, val); t.Kind(uv) == "member_expression" || t.Kind(uv) == "identifier" {
				if r := render(t, uv); !strings.ContainsAny(r, "()[ ") {
					typ = "typeof " + r
				}
			}
		}
		s.Signature.Returns = typ
	}
	s.Signature.Text = lang.Shorten(header(t, n), 120)
}

// typeSymbol fills TypeScript's declared types: an interface's bases and
// fields, an alias's type, an enum's members; a namespace.
func typeSymbol(t *lang.Tree, d lang.Def, s *lang.Symbol) {
	n, body := d.Node, d.Body
	s.Signature.Generics = t.ItemTexts(t.Field(n, "type_parameters"))
	s.Signature.TypeParams = typeParams(t, t.Field(n, "type_parameters"))
	switch t.Kind(n) {
	case "interface_declaration":
		if ec := t.ChildOfKind(n, "extends_type_clause"); ec >= 0 {
			for ty := range t.NamedChildren(ec) {
				s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(ty)))
			}
		}
		if body >= 0 {
			s.Signature.Fields = objectFields(t, body)
		}
	case "type_alias_declaration":
		s.Signature.Text = header(t, n)
		if body >= 0 && t.Kind(body) == "object_type" {
			s.Signature.Fields = objectFields(t, body)
		} else {
			s.Signature.Returns = typeText(t, body)
		}
	case "enum_declaration":
		s.Signature.Modifiers = []string{"enum"}
		if t.ChildOfKind(n, "const") >= 0 {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "const")
		}
		if body >= 0 {
			for m := range t.NamedChildren(body) {
				switch t.Kind(m) {
				case "enum_assignment":
					s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: propName(t, t.Field(m, "name")),
						Default: lang.Shorten(lang.OneLine(t.FieldText(m, "value")), 60)})
				case "property_identifier", "string", "number", "computed_property_name":
					s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: propName(t, m)})
				}
			}
		}
	case "internal_module", "module":
		s.Signature.Generics, s.Signature.TypeParams = nil, nil
		if t.Kind(d.Name) == "string" {
			// declare module 'x' describes another module: public by nature
			s.Exported, s.Visibility = true, lang.VisExported
		}
	}
}

// objectFields are the properties of an interface body or object type.
func objectFields(t *lang.Tree, body int32) []lang.Param {
	var fields []lang.Param
	for m := range kids(t, body) {
		if t.Kind(m) != "property_signature" {
			continue
		}
		if name := propName(t, t.Field(m, "name")); name != "" {
			fields = append(fields, lang.Param{Name: name, Type: typeText(t, t.Field(m, "type")),
				Optional: optionalAfter(t, t.Field(m, "name"))})
		}
	}
	return fields
}

// base is a class's base as written: extends or implements, its node and
// text.
type base struct {
	kind string
	node int32
	text string
}

// heritage lists the bases of class n.
func heritage(t *lang.Tree, n int32) []base {
	h := t.ChildOfKind(n, "class_heritage")
	if h < 0 {
		return nil
	}
	var bases []base
	add := func(kind string, b int32) {
		text := lang.OneLine(t.Text(b))
		if ta := t.NextSibling(b); ta >= 0 && t.FieldName(ta) == "type_arguments" {
			text += lang.OneLine(t.Text(ta)) // extends Base<T>
		}
		if kind == lang.RefExtends && t.Kind(b) == "call_expression" {
			text = render(t, b) // class A extends mixin(B) { }
		}
		bases = append(bases, base{kind, b, text})
	}
	for ch := range t.NamedChildren(h) {
		switch t.Kind(ch) {
		case "extends_clause":
			for v := range t.Children(ch) {
				if t.FieldName(v) == "value" {
					add(lang.RefExtends, v)
				}
			}
		case "implements_clause":
			for v := range t.NamedChildren(ch) {
				add(lang.RefImplements, v)
			}
		default:
			add(lang.RefExtends, ch) // JavaScript: class_heritage holds the expression
		}
	}
	return bases
}

// varType is the type of declarator v holding val, as written, as its
// value shows, or (JavaScript) as the JSDoc of its statement node says.
func varType(t *lang.Tree, v, val, node int32) string {
	typ := typeText(t, t.Field(v, "type"))
	if typ == "" && val >= 0 {
		typ = valueType(t, val)
	}
	if typ == "" && t.Lang.Name == "javascript" {
		typ = docType(doc(t, docNode(t, node)))
	}
	return typ
}
