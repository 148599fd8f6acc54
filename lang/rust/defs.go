package rust

import (
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

// defs keeps the items the walk of rust.go reaches as items, adds the
// functions no item declares (a generator macro's invocation, "fn name("
// in code the parser gave up on), and orders them as the walk meets them:
// a container's impls after its other items, so that an impl's items hang
// from its type wherever the container declares it.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	out := ds[:0]
	for _, d := range ds {
		if walked(t, t.Parent(d.Node), 0) && !(t.Kind(d.Node) == "type_item" && holder(t, d.Node) >= 0) {
			out = append(out, d)
		}
	}
	impls := map[int32]bool{}
	for i := range t.Matches {
		if n := t.Matches[i].Node("_impl"); n >= 0 && walked(t, t.Parent(n), 0) {
			impls[n] = true
			out = append(out, lang.Def{Node: n, Name: -1, Body: -1})
		}
	}
	out = append(out, madeFunctions(t)...)
	keys := make(map[int32][]uint64, len(out))
	for _, d := range out {
		keys[d.Node] = walkKey(t, d.Node)
	}
	slices.SortStableFunc(out, func(a, b lang.Def) int { return slices.Compare(keys[a.Node], keys[b.Node]) })
	// each impl's type: the last type of its name met before it, one
	// declared beside the impl first
	kept := make(map[int32]bool, len(out))
	owner := map[int32]int32{}
	types := map[string][]int32{}
	parentOf := map[int32]int32{}
	// parent is the item node n hangs from: its impl's type, the item
	// around it, or the function "fn name(" began in code the parser gave
	// up on; 0 for the file
	parent := func(n int32) int32 {
		for ch, a := n, t.Parent(n); a >= 0; ch, a = a, t.Parent(a) {
			if o := owner[a]; o > 0 {
				return o
			}
			if kept[a] {
				return a
			}
			if t.Kind(a) == "ERROR" && ch != n && !itemKinds[t.Kind(ch)] && t.Kind(ch) != "ERROR" {
				if f := errorFn(t, a, ch); f >= 0 {
					return f
				}
			}
		}
		return 0
	}
	res := out[:0]
	for _, d := range out {
		p := parent(d.Node)
		if impls[d.Node] {
			typ := typePath(t, deref(t, t.Field(d.Node, "type")))
			owner[d.Node] = lastBeside(types[lang.LastIdent(typ)], p, func(i int32) int32 { return parentOf[i] })
			continue
		}
		kept[d.Node], parentOf[d.Node] = true, p
		if typeKinds[t.Kind(d.Node)] {
			name := t.Text(d.Name)
			types[name] = append(types[name], d.Node)
		}
		if p > 0 && !isAncestor(t, p, d.Node) {
			d.Parent = p
		}
		res = append(res, d)
	}
	return res
}

// lastBeside returns the last of cands whose parent is parent, else the
// last of cands, else -1.
func lastBeside[T int | int32](cands []T, parent T, parentOf func(T) T) T {
	for j := len(cands) - 1; j >= 0; j-- {
		if parentOf(cands[j]) == parent {
			return cands[j]
		}
	}
	if len(cands) > 0 {
		return cands[len(cands)-1]
	}
	var none T
	return none - 1
}

func isAncestor(t *lang.Tree, a, n int32) bool {
	for p := t.Parent(n); p >= 0; p = t.Parent(p) {
		if p == a {
			return true
		}
	}
	return false
}

// walkKey orders nodes as the walk meets them: at each container on the
// way down, the child's index, an impl's after every other child's.
func walkKey(t *lang.Tree, n int32) []uint64 {
	var key []uint64
	for a := n; a > 0; a = t.Parent(a) {
		if p := t.Parent(a); containerKinds[t.Kind(p)] || p == 0 {
			k := uint64(a)
			if t.Kind(a) == "impl_item" {
				k |= 1 << 32
			}
			key = append(key, k)
		}
	}
	slices.Reverse(key)
	return key
}

// containerKinds are the nodes the walk reads as lists of items and
// statements.
var containerKinds = map[string]bool{"declaration_list": true, "block": true, "ERROR": true}

// walked reports whether the walk reads node p as a container: the file,
// an item's body, a block of code, code the parser gave up on among them.
func walked(t *lang.Tree, p int32, depth int) bool {
	for ; depth < lang.MaxDepth*8; depth++ {
		if p == 0 {
			return true
		}
		if p < 0 {
			return false
		}
		switch o := t.Parent(p); t.Kind(p) {
		case "ERROR":
			p = o
			continue
		case "declaration_list":
			if t.Field(o, "body") != p || !ownsBody(t, o) {
				return false
			}
			p = t.Parent(o)
			continue
		case "block":
			if t.Kind(o) == "function_item" && t.Field(o, "body") == p && t.Field(o, "name") >= 0 && walked(t, t.Parent(o), depth+1) {
				return true // a function's body
			}
			return inCode(t, p, depth+1)
		}
		return false
	}
	return false
}

// ownsBody reports an item whose body the walk reads.
func ownsBody(t *lang.Tree, o int32) bool {
	switch t.Kind(o) {
	case "mod_item", "trait_item":
		return t.Field(o, "name") >= 0
	case "impl_item":
		return t.Field(o, "type") >= 0
	case "foreign_mod_item":
		return true
	}
	return false
}

// inCode reports whether the walk reads node n as code: inside a
// statement of a container, or a const's value, but not in a macro's
// tokens or a let's pattern.
func inCode(t *lang.Tree, n int32, depth int) bool {
	for ch, a := n, t.Parent(n); a >= 0; ch, a = a, t.Parent(a) {
		k := t.Kind(a)
		switch {
		case containerKinds[k] || a == 0:
			ck := t.Kind(ch)
			return !itemKinds[ck] && ck != "ERROR" && walked(t, a, depth+1)
		case k == "const_item" || k == "static_item":
			if containerKinds[t.Kind(t.Parent(a))] || t.Parent(a) == 0 {
				return t.FieldName(ch) == "value" && t.Field(a, "name") >= 0 && walked(t, t.Parent(a), depth+1)
			}
		case k == "macro_invocation" || k == "macro_definition":
			return false
		case k == "let_declaration":
			if f := t.FieldName(ch); f != "value" && f != "alternative" {
				return false
			}
		case itemKinds[k]:
			if containerKinds[t.Kind(t.Parent(a))] || t.Parent(a) == 0 {
				return false
			}
		}
	}
	return false
}

// holder is the impl or trait whose body declares item n, -1 when none.
func holder(t *lang.Tree, n int32) int32 {
	p := t.Parent(n)
	for p > 0 {
		for p > 0 && t.Kind(p) == "ERROR" {
			p = t.Parent(p)
		}
		if p <= 0 || t.Kind(p) != "declaration_list" {
			return -1
		}
		switch o := t.Parent(p); t.Kind(o) {
		case "impl_item", "trait_item":
			return o
		case "foreign_mod_item":
			p = t.Parent(o)
			continue
		}
		return -1
	}
	return -1
}

// madeFunctions are the functions no item declares: a generator macro's
// invocation outside function bodies declares the one named by its first
// identifier, and "fn name(" in code the parser gave up on names one.
func madeFunctions(t *lang.Tree) []lang.Def {
	var out []lang.Def
	gens := map[string][]lang.Capture{}
	if strings.Contains(string(t.Src), "macro_rules") {
		for i := int32(0); i < t.Len(); i++ {
			if t.Kind(i) == "macro_definition" {
				if _, ok := generator(t, i); ok {
					name := t.FieldText(i, "name")
					gens[name] = append(gens[name], lang.Capture{Name: "_gen", Node: i})
				}
			}
		}
	}
	hasErr := t.HasError(0)
	if len(gens) == 0 && !hasErr {
		return nil
	}
	for i := int32(0); i < t.Len(); i++ {
		switch t.Kind(i) {
		case "macro_invocation":
			n := i
			if p := t.Parent(i); t.Kind(p) == "expression_statement" && t.FirstNamedChild(p) == i {
				n = p
			}
			g := gens[t.FieldText(i, "macro")]
			if len(g) == 0 || !walked(t, t.Parent(n), 0) || inFunction(t, n) {
				continue
			}
			if name := generatedName(t, i); name >= 0 {
				out = append(out, lang.Def{Node: n, Name: name, Body: -1, Kind: lang.KindFunction, Match: &lang.Match{Pattern: -1, Captures: g}})
			}
		case "ERROR":
			if !hasErr || !walked(t, i, 0) {
				continue
			}
			afterFn := false
			for ch := range t.Children(i) {
				if !t.Named(ch) {
					afterFn = t.Kind(ch) == "fn"
					continue
				}
				if afterFn && t.Kind(ch) == "identifier" {
					out = append(out, lang.Def{Node: ch, Name: ch, Body: -1, Kind: lang.KindFunction})
				}
				afterFn = false
			}
		}
	}
	return out
}

// inFunction reports a statement the walk reads with a function's scope:
// in a block, or in code the parser gave up on after "fn name(".
func inFunction(t *lang.Tree, n int32) bool {
	p := t.Parent(n)
	if t.Kind(p) == "ERROR" && errorFn(t, p, n) >= 0 {
		return true
	}
	for ; p > 0 && t.Kind(p) == "ERROR"; p = t.Parent(p) {
	}
	return t.Kind(p) == "block"
}

// errorFn is the name of the last "fn name(" before child ch of ERROR
// node e, -1 when none: the code after it is that function's.
func errorFn(t *lang.Tree, e, ch int32) int32 {
	f, afterFn := int32(-1), false
	for c := range t.Children(e) {
		if c == ch {
			break
		}
		if !t.Named(c) {
			afterFn = t.Kind(c) == "fn"
			continue
		}
		if afterFn && t.Kind(c) == "identifier" {
			f = c
		}
		afterFn = false
	}
	return f
}

// generatedName is the first identifier among the arguments of a
// generator macro's invocation m, -1 when none leads them.
func generatedName(t *lang.Tree, m int32) int32 {
	tt := t.ChildOfKind(m, "token_tree")
	if tt < 0 {
		return -1
	}
	for ch := range t.Children(tt) {
		switch t.Kind(ch) {
		case "identifier":
			return ch
		case "line_comment", "block_comment", "token_tree":
			continue // a doc comment, an attribute's #[..]
		}
		break
	}
	return -1
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
		for ch := range t.Children(t.ChildOfKind(m, "token_tree")) {
			if ch == d.Name {
				break
			}
			if t.IsComment(ch) && t.Field(ch, "outer") >= 0 {
				doc = append(doc, docText(t, ch))
			}
		}
		s.Kind, s.Doc, s.IsTest, s.Exported, s.Visibility = lang.KindFunction, joinDoc(doc), test, g.pub, lang.VisPrivate
		if g.pub {
			s.Visibility = lang.VisExported
		}
		sig.Returns = g.returns
		if inImpl {
			s.Kind = lang.KindMethod
			if d.Parent == 0 && !typeKinds[around(t, h)] {
				s.Container = lang.LastIdent(selfType(t, h))
			}
		}
		sig.Text = lang.Shorten(lang.OneLine(t.Text(m)), 120)
	case "function_item", "function_signature_item":
		s.Kind = lang.KindFunction
		if h >= 0 {
			s.Kind = lang.KindMethod
			if inImpl && d.Parent == 0 && !typeKinds[around(t, h)] {
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
		if inImpl && d.Parent == 0 {
			if k := around(t, h); k == "" || k == "mod_item" {
				s.Container = lang.LastIdent(selfType(t, h))
			}
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

// around is the kind of the item around impl, "" for the file: when the
// file declares no type the impl's items hang from, they hang from it.
func around(t *lang.Tree, impl int32) string {
	for a := t.Parent(impl); a > 0; a = t.Parent(a) {
		if k := t.Kind(a); itemKinds[k] && k != "impl_item" && k != "foreign_mod_item" {
			return k
		}
	}
	return ""
}
