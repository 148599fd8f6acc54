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
		case "class", "arrow_function", "function_expression", "generator_function":
			if t.Kind(t.Parent(n)) == "export_statement" && t.Kind(n) == "class" {
				d.Kind = lang.KindClass // export default class {}
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
	kept := out[:0]
	for _, d := range out {
		switch t.Kind(d.Node) {
		case "function_expression", "generator_function", "class":
			if held[d.Node] {
				continue
			}
		}
		kept = append(kept, d)
	}
	return kept
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
			if requires(t, val) {
				continue // an import
			}
			if uv := innermost(t, val); t.Kind(name) == "identifier" && (isFunc(t.Kind(uv)) || t.Kind(uv) == "class") {
				if uv != val {
					held[uv] = true
					kind := lang.KindFunction
					if t.Kind(uv) == "class" {
						kind = lang.KindClass
					}
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
	fn := isFunc(t.Kind(right))
	kind := lang.KindFunction
	if t.Kind(right) == "class" {
		kind = lang.KindClass
	} else if !fn {
		kind = lang.KindVariable
	}
	for _, l := range targets {
		switch lt := render(t, l); {
		case lt == "module.exports" || lt == "exports":
			if lt == "exports" && len(targets) == 1 {
				continue // rebinding exports alone exports nothing
			}
			if kind != lang.KindVariable {
				held[right] = true
				out = append(out, lang.Def{Node: d.Node, Name: l, Body: t.Field(right, "body"), Kind: kind, Match: d.Match})
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
	if !fn {
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
		if _, v := chain(t, t.FirstNamedChild(n)); v >= 0 {
			return v
		}
	case "member_expression":
		// the second name of X.a = X.b = function
		p := t.Parent(n)
		for t.Kind(t.Parent(p)) == "assignment_expression" {
			p = t.Parent(p)
		}
		if _, v := chain(t, p); v >= 0 {
			return v
		}
	}
	return n
}

// exportedAt reports a declaration under export (and declare).
func exportedAt(t *lang.Tree, n int32) bool {
	if t.Kind(n) == "variable_declarator" {
		n = t.Parent(n)
	}
	for p := t.Parent(n); p > 0; p = t.Parent(p) {
		switch t.Kind(p) {
		case "export_statement":
			return true
		case "ambient_declaration":
			continue
		}
		break
	}
	return false
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
// are exported with their container (exportMembers).
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	n, v := d.Node, valueOf(t, d.Node)
	ts := t.Lang.Name != "javascript"
	s.Doc = doc(t, docNode(t, n))
	s.Exported = exportedAt(t, n)
	member := false
	if k := t.Kind(d.Name); k == "string" || k == "computed_property_name" {
		s.Name = propName(t, d.Name) // declare module 'x', 'a-b'() {}
	}
	switch t.Kind(n) {
	case "expression_statement":
		s.Exported = true
		if t.Kind(d.Name) != "property_identifier" {
			s.Name = "default"
			s.Signature.Modifiers = append(s.Signature.Modifiers, "default")
		}
	case "member_expression":
		member = true
	case "method_definition", "pair":
		// a method of a module level object, or a function of the
		// object module.exports is
		s.Name = propName(t, d.Name)
		if obj := t.Parent(n); t.Kind(t.Parent(obj)) == "assignment_expression" {
			s.Exported = true
		} else {
			member = true
		}
	case "arrow_function", "function_expression", "generator_function", "class":
		if t.Kind(t.Parent(n)) == "export_statement" {
			s.Exported = true
			s.Signature.Modifiers = append(s.Signature.Modifiers, "default")
		}
	}
	if d.Kind == lang.KindMethod && t.Kind(n) == "expression_statement" {
		member = true
	}
	if p := t.Parent(n); t.Kind(p) == "export_statement" && t.ChildOfKind(p, "default") >= 0 && t.Field(p, "value") < 0 {
		s.Signature.Modifiers = append(s.Signature.Modifiers, "default")
	}
	s.Visibility = topVis(s.Exported)
	if t.Kind(t.Parent(n)) == "class_body" {
		s.Name = propName(t, d.Name)
		s.Visibility = memberVis(t, n, s.Name)
	} else if member || t.Kind(n) == "method_signature" {
		s.Visibility = lang.VisPublic
	}
	if d.Kind == lang.KindMethod && t.Kind(n) == "expression_statement" || t.Kind(n) == "member_expression" {
		if d.Parent == 0 {
			lt := render(t, t.Parent(d.Name))
			s.Container = strings.TrimSuffix(lt[:strings.LastIndexByte(lt, '.')], ".prototype")
		}
	}
	switch s.Kind {
	case lang.KindFunction, lang.KindMethod:
		if t.Kind(n) == "method_definition" && s.Name == "constructor" && t.Kind(t.Parent(n)) == "class_body" {
			s.Kind = lang.KindConstructor
		}
		funcSymbol(t, n, v, s, ts)
	case lang.KindClass:
		if own := t.Field(v, "name"); own >= 0 && s.Name == "default" {
			s.Name = t.Text(own) // module.exports = class Foo {}
		}
		classSymbol(t, v, s, ts)
	case lang.KindVariable:
		varSymbol(t, d, s, ts)
	default:
		typeSymbol(t, d, s)
	}
	return true
}

// funcSymbol fills the signature of function fn, defined at n.
func funcSymbol(t *lang.Tree, n, fn int32, s *lang.Symbol, ts bool) {
	mods := s.Signature.Modifiers // default, after async and the like
	s.Signature.Modifiers = nil
	signature(t, &s.Signature, fn, newFuncScope(nil), s.Doc, ts)
	s.Signature.Modifiers = append(s.Signature.Modifiers, mods...)
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

// classSymbol fills the signature of class n: its bases, modifiers and
// fields (declared, constructor parameter properties, this.x = ...).
func classSymbol(t *lang.Tree, n int32, s *lang.Symbol, ts bool) {
	s.Signature.Generics = t.ItemTexts(t.Field(n, "type_parameters"))
	mods := s.Signature.Modifiers
	s.Signature.Modifiers = nil
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "abstract", "declare":
			s.Signature.Modifiers = append(s.Signature.Modifiers, t.Kind(ch))
		}
	}
	s.Signature.Modifiers = append(s.Signature.Modifiers, mods...)
	for _, b := range heritage(t, n) {
		s.Signature.Bases = append(s.Signature.Bases, b.text)
	}
	body := t.Field(n, "body")
	if body < 0 {
		return
	}
	var fields []lang.Param
	addField := func(p lang.Param) {
		for i := range fields {
			if fields[i].Name == p.Name {
				if fields[i].Type == "" {
					fields[i].Type = p.Type
				}
				return
			}
		}
		fields = append(fields, p)
	}
	for m := range kids(t, body) {
		switch t.Kind(m) {
		case "method_definition":
			if propName(t, t.Field(m, "name")) != "constructor" {
				continue
			}
			// parameter properties: constructor(private db: Db)
			if ps := t.Field(m, "parameters"); ps >= 0 {
				for p := range t.NamedChildren(ps) {
					if t.ChildOfKind(p, "accessibility_modifier") < 0 && t.ChildOfKind(p, "readonly") < 0 && t.ChildOfKind(p, "override_modifier") < 0 {
						continue
					}
					if pat := t.Field(p, "pattern"); pat >= 0 && t.Kind(pat) == "identifier" {
						addField(lang.Param{Name: t.Text(pat), Type: typeText(t, t.Field(p, "type")), Optional: t.Kind(p) == "optional_parameter"})
					}
				}
			}
			// this.x = ... in the constructor
			if mbody := t.Field(m, "body"); mbody >= 0 {
				scope := newFuncScope(nil)
				signature(t, &lang.Signature{}, m, scope, doc(t, m), ts)
				for _, f := range thisFields(t, mbody, scope) {
					addField(f)
				}
			}
		case "public_field_definition", "field_definition":
			name := t.Field(m, "name")
			if name < 0 {
				name = t.Field(m, "property")
			}
			val := t.Field(m, "value")
			if propName(t, name) == "" || val >= 0 && isFunc(t.Kind(val)) {
				continue
			}
			typ := typeText(t, t.Field(m, "type"))
			if typ == "" && val >= 0 {
				typ = valueType(t, val)
			}
			addField(lang.Param{Name: propName(t, name), Type: typ, Optional: optionalAfter(t, name)})
		}
	}
	s.Signature.Fields = fields
}

// varSymbol fills a variable's signature: a module level one's type and
// const, a class field's type and modifiers, exports.x's value type.
func varSymbol(t *lang.Tree, d lang.Def, s *lang.Symbol, ts bool) {
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
		typ := typeText(t, t.Field(v, "type"))
		val := d.Body
		if typ == "" && val >= 0 {
			typ = valueType(t, val)
		}
		if !ts && typ == "" {
			typ = docType(s.Doc)
		}
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
		s.Signature.Generics = nil
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
	var bases []base
	h := t.ChildOfKind(n, "class_heritage")
	if h < 0 {
		return nil
	}
	for ch := range t.NamedChildren(h) {
		switch t.Kind(ch) {
		case "extends_clause":
			for v := range t.Children(ch) {
				if t.FieldName(v) == "value" {
					bases = append(bases, base{kind: lang.RefExtends, node: v})
				}
			}
		case "implements_clause":
			for v := range t.NamedChildren(ch) {
				bases = append(bases, base{kind: lang.RefImplements, node: v})
			}
		default:
			// JavaScript: class_heritage holds the expression
			bases = append(bases, base{kind: lang.RefExtends, node: ch})
		}
	}
	for i := range bases {
		b := &bases[i]
		b.text = lang.OneLine(t.Text(b.node))
		if ta := t.NextSibling(b.node); ta >= 0 && t.FieldName(ta) == "type_arguments" {
			b.text += lang.OneLine(t.Text(ta)) // extends Base<T>
		}
		if b.kind == lang.RefExtends && t.Kind(b.node) == "call_expression" {
			// class A extends mixin(B) { }
			b.text = render(t, b.node)
		}
	}
	return bases
}

// requires reports a require('y'), require('y').x or import('y') value.
func requires(t *lang.Tree, val int32) bool {
	call := unwrap(t, val)
	if t.Kind(call) == "member_expression" {
		call = t.Field(call, "object")
	}
	_, ok := requireSource(t, call)
	return ok
}
