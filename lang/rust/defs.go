package rust

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// itemKinds are the node kinds that declare items.
var itemKinds = map[string]bool{
	"function_item": true, "function_signature_item": true, "struct_item": true, "union_item": true,
	"enum_item": true, "trait_item": true, "impl_item": true, "type_item": true, "mod_item": true,
	"const_item": true, "static_item": true, "macro_definition": true, "use_declaration": true,
	"extern_crate_declaration": true, "foreign_mod_item": true,
}

// typeKinds are the items an impl may name.
var typeKinds = map[string]bool{"struct_item": true, "union_item": true, "enum_item": true, "trait_item": true, "type_item": true}

// defs adds the functions no item declares, which the walk of rust.go
// defines where it meets them: a generator macro's invocation (its
// first identifier argument names the function), "fn name(" in code
// the parser gave up on (the name), and the types and flags of a
// bitflags! invocation (bitflags.go). A generator's definitions are the
// invocation's match, for the Symbol hook.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	gens := map[string][]lang.Capture{}
	for _, d := range ds {
		if _, ok := generator(t, d.Node); ok && t.Kind(d.Node) == "macro_definition" {
			gens[t.Text(d.Name)] = append(gens[t.Text(d.Name)], lang.Capture{Name: "_gen", Node: d.Node})
		}
	}
	flags := bytes.Contains(t.Src, []byte("bitflags"))
	if bytes.Contains(t.Src, []byte("proc_macro_derive")) {
		ds = append(ds, deriveDefs(t, ds)...)
	}
	if len(gens) == 0 && !t.HasError(0) && !flags {
		return ds
	}
	for n := int32(0); n < t.Len(); n++ {
		switch t.Kind(n) {
		case "macro_invocation":
			if flags && isBitflags(t, n) {
				ds = append(ds, bitflagsDefs(t, n)...)
				continue
			}
			g := gens[t.FieldText(n, "macro")]
			name, _ := generatedName(t, n)
			if len(g) == 0 || name < 0 {
				continue
			}
			at := n // the container's statement
			if p := t.Parent(n); t.Kind(p) == "expression_statement" && t.FirstNamedChild(p) == n {
				at = p
			}
			ds = append(ds, lang.Def{Node: at, Name: name, Body: -1, Kind: lang.KindFunction, Match: &lang.Match{Pattern: -1, Captures: g}})
		case "ERROR":
			afterFn := false
			for ch := range t.Children(n) {
				if afterFn && t.Kind(ch) == "identifier" {
					ds = append(ds, lang.Def{Node: ch, Name: ch, Body: -1, Kind: lang.KindFunction})
				}
				afterFn = !t.Named(ch) && t.Kind(ch) == "fn"
			}
		}
	}
	return ds
}

// deriveCapture marks the derive macro a proc-macro function defines.
const deriveCapture = "_derive"

// deriveDefs are the derive macros the functions of ds define: the
// function of #[proc_macro_derive(ConfigDeserialize, attributes(config))]
// defines the macro ConfigDeserialize, a second symbol of the same code
// (alacritty_config_derive's: 25 imports of them were unresolved).
func deriveDefs(t *lang.Tree, ds []lang.Def) []lang.Def {
	var out []lang.Def
	for _, d := range ds {
		if t.Kind(d.Node) != "function_item" {
			continue
		}
		attrs, _ := leading(t, d.Node)
		for _, at := range attrs {
			attr := t.ChildOfKind(at, "attribute")
			if attr < 0 {
				continue
			}
			if p := t.FirstNamedChild(attr); p < 0 || t.Text(p) != "proc_macro_derive" {
				continue
			}
			args := t.Field(attr, "arguments")
			if args < 0 {
				continue
			}
			if name := t.ChildOfKind(args, "identifier"); name >= 0 {
				// made of the attribute: the function's code is the function's
				out = append(out, lang.Def{Node: at, Name: name, Body: -1, Kind: lang.KindFunction,
					Match: &lang.Match{Pattern: -1, Captures: []lang.Capture{{Name: deriveCapture, Node: d.Node}}}})
			}
		}
	}
	return out
}

// lastBeside returns the last of cands whose parent is parent, else the
// last of cands, else -1.
func lastBeside(cands []int, parent int, parentOf func(int) int) int {
	for j := len(cands) - 1; j >= 0; j-- {
		if parentOf(cands[j]) == parent {
			return cands[j]
		}
	}
	if len(cands) > 0 {
		return cands[len(cands)-1]
	}
	return -1
}

// holder is the impl or trait whose body declares item n, -1 when none.
func holder(t *lang.Tree, n int32) int32 {
	for p := t.Parent(n); p > 0; p = t.Parent(p) {
		switch o := t.Parent(p); {
		case t.Kind(p) == "ERROR":
		case t.Kind(p) != "declaration_list":
			return -1
		case t.Kind(o) == "foreign_mod_item":
			p = o
		case t.Kind(o) == "impl_item" || t.Kind(o) == "trait_item":
			return o
		default:
			return -1
		}
	}
	return -1
}

// generatedName is the first identifier among the arguments of a
// generator macro's invocation m, -1 when none leads them, and the doc
// comments before it.
func generatedName(t *lang.Tree, m int32) (int32, []string) {
	var doc []string
	tt := t.ChildOfKind(m, "token_tree")
	if tt < 0 {
		return -1, nil
	}
	for ch := range t.Children(tt) {
		switch t.Kind(ch) {
		case "identifier":
			return ch, doc
		case "line_comment", "block_comment":
			if t.Field(ch, "outer") >= 0 {
				doc = append(doc, docText(t, ch))
			}
			continue
		case "token_tree":
			continue // an attribute's #[..]
		}
		break
	}
	return -1, nil
}

// gen is what a generator macro's functions are: public, and what they
// return.
type gen struct {
	pub     bool
	returns string
}

// generator reads a macro_rules! macro that expands to a function named
// by its first ident fragment ($name:ident ... fn $name).
func generator(t *lang.Tree, def int32) (gen, bool) {
	var g gen
	found := false
	for rule := range t.NamedChildren(def) {
		if t.Kind(rule) != "macro_rule" {
			continue
		}
		v := ""
		for d := range t.Descendants(t.Field(rule, "left")) {
			if t.Kind(d) == "token_binding_pattern" && t.FieldText(d, "type") == "ident" {
				v = t.FieldText(d, "name")
				break
			}
		}
		right := t.Field(rule, "right")
		if v == "" || right < 0 {
			continue
		}
		prev, prev2 := "", ""
		for d := range t.Descendants(right) {
			if !t.IsLeaf(d) {
				continue
			}
			text := t.Text(d)
			if prev == "fn" && text == v {
				found = true
				g.pub = g.pub || prev2 == "pub"
				if g.returns == "" {
					g.returns = genReturns(string(t.Src[t.Nodes[d].EndByte:t.Nodes[right].EndByte]))
				}
			}
			prev2, prev = prev, text
		}
	}
	return g, found
}

// genReturns reads the return type of a function in a macro's
// transcriber, from the text after its name: "<H>(h: H) -> Router<S> where".
func genReturns(s string) string {
	i := strings.Index(s, "->")
	if i < 0 {
		return ""
	}
	// the parameters end before the arrow: no body in between
	if strings.Contains(s[:i], "{") {
		return ""
	}
	s = s[i+2:]
	end := len(s)
	for _, stop := range []string{"{", " where", "\n", ";"} {
		if j := strings.Index(s, stop); j >= 0 && j < end {
			end = j
		}
	}
	ret := strings.TrimSpace(s[:end])
	if strings.Contains(ret, "$") {
		return ""
	}
	return ret
}

// symbol completes the symbol of an item from what its attributes,
// modifiers and doc comments say, and what the impl or trait whose body
// declares it makes of it.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	if d.Match != nil && len(d.Match.Captures) > 0 {
		switch d.Match.Captures[0].Name {
		case bitflagsCapture:
			bitflagsSymbol(t, d, s)
			return true
		case deriveCapture:
			// the derive macro a proc-macro function defines: what
			// `use x_derive::Name` and #[derive(Name)] name
			fn := d.Match.Captures[0].Node
			_, doc := leading(t, fn)
			s.Kind, s.Exported, s.Visibility, s.Doc = lang.KindFunction, true, lang.VisExported, joinDoc(doc)
			s.Signature = lang.Signature{Text: "#[proc_macro_derive(" + s.Name + ")] fn " + t.FieldText(fn, "name"), Modifiers: []string{"macro", "derive"}}
			return true
		}
	}
	n := d.Node
	attrs, doc := leading(t, n)
	a := readAttrs(t, attrs)
	h := holder(t, n)
	inImpl := h >= 0 && t.Kind(h) == "impl_item"
	test := inTest(t, n)
	s.Doc = joinDoc(doc)
	s.Exported, s.Visibility = visibility(t, n, h)
	s.IsTest = test || a.cfgTest
	sig := &s.Signature
	switch t.Kind(n) {
	case "identifier": // "fn name(" in code the parser gave up on
		s.Kind, s.Exported, s.Visibility, s.IsTest, sig.Text = lang.KindFunction, false, lang.VisPrivate, test, ""
	case "expression_statement", "macro_invocation": // a generator's invocation
		m := n
		if t.Kind(m) == "expression_statement" {
			m = t.FirstNamedChild(m)
		}
		var g gen
		for _, c := range d.Match.Captures {
			gi, _ := generator(t, c.Node)
			g.pub = g.pub || gi.pub
			g.returns = cmp.Or(g.returns, gi.returns)
		}
		_, more := generatedName(t, m)
		s.Kind, s.Doc, s.IsTest, s.Exported, s.Visibility = lang.KindFunction, joinDoc(append(doc, more...)), test, g.pub, lang.VisPrivate
		if g.pub {
			s.Visibility = lang.VisExported
		}
		sig.Returns = g.returns
		if inImpl {
			s.Kind = lang.KindMethod
			if !typeKinds[t.Kind(d.Parent)] {
				s.Container = lang.LastIdent(selfType(t, h))
			}
		}
		sig.Text = lang.Shorten(lang.OneLine(t.Text(m)), 120)
	case "function_item", "function_signature_item":
		s.Kind = lang.KindFunction
		if h >= 0 {
			s.Kind = lang.KindMethod
			if inImpl && !typeKinds[t.Kind(d.Parent)] {
				s.Container = lang.LastIdent(selfType(t, h))
			}
		}
		if mods := t.ChildOfKind(n, "function_modifiers"); mods >= 0 {
			for m := range t.Children(mods) {
				switch k := t.Kind(m); k {
				case "extern_modifier":
					sig.Modifiers = append(sig.Modifiers, lang.OneLine(t.Text(m)))
				default:
					sig.Modifiers = append(sig.Modifiers, k)
				}
			}
		}
		sig.Generics = generics(t, n, nil)
		sig.Params, sig.Receiver = params(t, t.Field(n, "parameters"), nil)
		if rt := t.Field(n, "return_type"); rt >= 0 {
			sig.Returns = lang.OneLine(t.Text(rt))
		}
		if h >= 0 && sig.Receiver == "" {
			sig.Modifiers = append(sig.Modifiers, "static")
			if inImpl && returnsSelf(sig.Returns, lang.LastIdent(selfType(t, h))) {
				s.Kind = lang.KindConstructor
			}
		}
		if h >= 0 && !inImpl && d.Body < 0 {
			sig.Modifiers = append(sig.Modifiers, "abstract")
		}
		s.IsTest = test || a.test || a.cfgTest
	case "struct_item", "union_item", "enum_item":
		sig.Generics, sig.Bases = generics(t, n, nil), a.derives
		if d.Body >= 0 {
			sig.Fields = fields(t, d.Body)
		}
	case "trait_item":
		sig.Generics = generics(t, n, nil)
		if b := t.Field(n, "bounds"); b >= 0 {
			for sb := range t.NamedChildren(b) {
				switch t.Kind(sb) {
				case "type_identifier", "scoped_type_identifier", "generic_type":
					sig.Bases = append(sig.Bases, lang.OneLine(t.Text(sb)))
				}
			}
		}
	case "type_item":
		sig.Generics, sig.Returns, sig.Text = generics(t, n, nil), lang.OneLine(t.FieldText(n, "type")), lang.OneLine(t.Text(n))
	case "mod_item":
		s.Exported, s.Visibility = visibility(t, n, -1)
	case "const_item", "static_item":
		sig.Modifiers = []string{"const"}
		if t.Kind(n) == "static_item" {
			sig.Modifiers = []string{"static"}
			if t.ChildOfKind(n, "mutable_specifier") >= 0 {
				sig.Modifiers = append(sig.Modifiers, "mut")
			}
		}
		sig.Returns = lang.OneLine(t.FieldText(n, "type"))
		sig.Text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sig.Text), "="))
		if k := t.Kind(d.Parent); inImpl && (d.Parent == 0 || k == "mod_item") {
			s.Container = lang.LastIdent(selfType(t, h))
		}
	case "macro_definition":
		// macro_rules! macros are private to their crate unless exported
		s.Exported, s.Visibility = false, lang.VisInternal
		for _, at := range attrs {
			if strings.Contains(t.Text(at), "macro_export") {
				s.Exported, s.Visibility = true, lang.VisExported
			}
		}
		s.Kind, sig.Modifiers, sig.Text = lang.KindFunction, []string{"macro"}, "macro_rules! "+s.Name
	}
	return true
}

// leading are the attributes and outer doc comments before item n.
func leading(t *lang.Tree, n int32) (attrs []int32, doc []string) {
	for p := t.PrevSibling(n); p >= 0; p = t.PrevSibling(p) {
		k := t.Kind(p)
		switch {
		case k == "line_comment" || k == "block_comment":
			if t.Field(p, "outer") >= 0 {
				doc = append(doc, docText(t, p))
			}
			continue
		case k == "attribute_item":
			attrs = append(attrs, p)
			continue
		case k == "inner_attribute_item" || !t.Named(p):
			continue
		}
		break
	}
	slices.Reverse(attrs)
	slices.Reverse(doc)
	return attrs, doc
}

// inTest reports an item inside test code: a test function, or an item
// marked #[cfg(test)].
func inTest(t *lang.Tree, n int32) bool {
	for a := t.Parent(n); a > 0; a = t.Parent(a) {
		switch t.Kind(a) {
		case "function_item", "mod_item", "trait_item", "impl_item", "const_item", "static_item":
			attrs, _ := leading(t, a)
			if at := readAttrs(t, attrs); at.cfgTest || at.test && t.Kind(a) == "function_item" {
				return true
			}
		}
	}
	return false
}

// visibility reads an item's visibility modifier: pub is exported,
// pub(crate), pub(super) and pub(in path) are internal, none is private.
// Without one, a trait's items are as visible as the trait and a trait
// impl's are exported.
func visibility(t *lang.Tree, n, h int32) (bool, string) {
	v := t.ChildOfKind(n, "visibility_modifier")
	switch {
	case v >= 0:
	case h >= 0 && t.Kind(h) == "trait_item":
		return visibility(t, h, holder(t, h))
	case h >= 0 && t.Field(h, "trait") >= 0:
		return true, lang.VisExported
	default:
		return false, lang.VisPrivate
	}
	switch strings.Join(strings.Fields(t.Text(v)), "") {
	case "pub":
		return true, lang.VisExported
	case "pub(self)":
		return false, lang.VisPrivate
	}
	return false, lang.VisInternal
}

// selfType is the type Self means in impl or trait h, as a path.
func selfType(t *lang.Tree, h int32) string {
	if t.Kind(h) == "trait_item" {
		return t.FieldText(h, "name")
	}
	return typePath(t, deref(t, t.Field(h, "type")))
}
