package rust

import (
	"slices"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// bitflagsCapture marks the definitions a bitflags! invocation declares,
// for the Symbol hook.
const bitflagsCapture = "_bitflags"

// flagsType is one type a bitflags! invocation declares:
//
//	bitflags! { #[derive(Debug)] pub struct Mode: u8 { const VI = 1; } }
//
// The grammar leaves the invocation a token tree, yet the type and its
// flags are what the crate's code names (Mode::VI, impl Mode { .. }).
type flagsType struct {
	start  int32   // the first token of "pub struct Name": where the symbol starts
	name   int32   // Name
	body   int32   // the { .. } of its flags: the symbol's node
	consts []int32 // the names of its flags
	attrs  []int32 // the [..] of its attributes
	doc    []string
	vis    string // "pub", "pub(crate)", ..., "" when private
}

// isBitflags reports whether macro invocation m is bitflags!
// (bitflags::bitflags! too).
func isBitflags(t *lang.Tree, m int32) bool {
	p := typePath(t, t.Field(m, "macro"))
	return p == "bitflags" || strings.HasSuffix(p, "::bitflags")
}

// bitflagsTypes reads the types of bitflags! invocation m: each
// "[attrs] [pub[(..)]] struct Name: T { const A = ..; .. }" of its token
// tree. A malformed one ends the reading.
func bitflagsTypes(t *lang.Tree, m int32) []flagsType {
	tt := t.ChildOfKind(m, "token_tree")
	if tt < 0 {
		return nil
	}
	var out []flagsType
	cur := flagsType{start: -1, name: -1, body: -1}
	for ch := range t.Children(tt) {
		k := t.Kind(ch)
		switch {
		case k == "line_comment" || k == "block_comment":
			if t.Field(ch, "outer") >= 0 {
				cur.doc = append(cur.doc, docText(t, ch))
			}
		case k == "token_tree" && cur.name < 0 && strings.HasPrefix(t.Text(ch), "["):
			cur.attrs = append(cur.attrs, ch)
		case k == "pub" && cur.start < 0:
			cur.start, cur.vis = ch, "pub"
		case k == "token_tree" && cur.vis == "pub" && cur.name < 0 && strings.HasPrefix(t.Text(ch), "("):
			cur.vis += strings.Join(strings.Fields(t.Text(ch)), "")
		case k == "struct" && cur.name < 0:
			if cur.start < 0 {
				cur.start = ch
			}
			n := t.NextSibling(ch)
			if n < 0 || t.Kind(n) != "identifier" {
				return out
			}
			cur.name = n
		case k == "token_tree" && cur.name >= 0 && strings.HasPrefix(t.Text(ch), "{"):
			cur.body = ch
			afterConst := false
			for c := range t.Children(ch) {
				if afterConst && t.Kind(c) == "identifier" {
					cur.consts = append(cur.consts, c)
				}
				afterConst = t.Kind(c) == "const"
			}
			out = append(out, cur)
			cur = flagsType{start: -1, name: -1, body: -1}
		}
	}
	return out
}

// bitflagsDefs are the definitions of bitflags! invocation m: a class per
// type, made from its body, and a variable per flag.
func bitflagsDefs(t *lang.Tree, m int32) []lang.Def {
	var ds []lang.Def
	for _, ft := range bitflagsTypes(t, m) {
		match := &lang.Match{Pattern: -1, Captures: []lang.Capture{{Name: bitflagsCapture, Node: m}}}
		ds = append(ds, lang.Def{Node: ft.body, Name: ft.name, Body: ft.body, Kind: lang.KindClass, Match: match})
		for _, c := range ft.consts {
			ds = append(ds, lang.Def{Node: c, Name: c, Body: -1, Kind: lang.KindVariable, Match: match})
		}
	}
	return ds
}

// bitflagsSymbol completes the symbol of a type or flag of a bitflags!
// invocation.
func bitflagsSymbol(t *lang.Tree, d lang.Def, s *lang.Symbol) {
	m := d.Match.Captures[0].Node
	for _, ft := range bitflagsTypes(t, m) {
		if d.Node != ft.body && !slices.Contains(ft.consts, d.Node) {
			continue
		}
		s.Exported, s.Visibility = false, lang.VisPrivate
		switch {
		case ft.vis == "pub":
			s.Exported, s.Visibility = true, lang.VisExported
		case ft.vis == "pub(self)":
		case ft.vis != "":
			s.Visibility = lang.VisInternal
		}
		s.IsTest = inTest(t, m)
		sig := &s.Signature
		if d.Node != ft.body { // a flag: an associated const of the type
			sig.Modifiers, sig.Returns = []string{"const"}, t.Text(ft.name)
			sig.Text = "const " + t.Text(d.Name)
			s.Doc = joinDoc(flagDoc(t, d.Node))
			return
		}
		s.Doc = joinDoc(ft.doc)
		sig.Text = strings.TrimSpace(strings.Join(strings.Fields(string(t.Src[t.Nodes[ft.start].StartByte:t.Nodes[ft.body].StartByte])), " "))
		for _, a := range ft.attrs {
			sig.Bases = append(sig.Bases, derives(t, a)...)
		}
		return
	}
}

// flagDoc is the outer doc comment before the const of flag name n.
func flagDoc(t *lang.Tree, n int32) []string {
	var doc []string
	kw := t.PrevSibling(n)
	if kw < 0 {
		return nil
	}
	for p := t.PrevSibling(kw); p >= 0; p = t.PrevSibling(p) {
		k := t.Kind(p)
		if k != "line_comment" && k != "block_comment" {
			if k == "token_tree" && strings.HasPrefix(t.Text(p), "[") {
				continue // an attribute
			}
			break
		}
		if t.Field(p, "outer") >= 0 {
			doc = append([]string{docText(t, p)}, doc...)
		}
	}
	return doc
}

// derives are the traits of attribute token tree a, "[derive(A, B)]".
func derives(t *lang.Tree, a int32) []string {
	first := t.FirstNamedChild(a)
	if first < 0 || t.Text(first) != "derive" {
		return nil
	}
	args := t.NextSibling(first)
	if args < 0 || t.Kind(args) != "token_tree" {
		return nil
	}
	var out []string
	for _, f := range strings.Split(strings.Trim(t.Text(args), "()"), ",") {
		if f = strings.Join(strings.Fields(f), ""); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// bitflags places the types and flags of bitflags! invocation m in
// symbol c.parent: a type is a type that the file's impls find, and spans
// the invocation that declares it alone (whose skeleton is the
// invocation's), else its own "pub struct" to its last flag.
func (w *walker) bitflags(m int32, c state) {
	t := w.t
	types := bitflagsTypes(t, m)
	for _, ft := range types {
		sym, ok := w.x.Define(ft.body, c.parent)
		if !ok {
			continue
		}
		s := &w.x.Facts.Symbols[sym]
		if len(types) == 1 {
			s.Range, s.StartByte, s.EndByte = t.Range(m), t.Nodes[m].StartByte, t.Nodes[m].EndByte
		} else {
			st := t.Range(ft.start)
			s.Range.StartLine, s.Range.StartCol, s.StartByte = st.StartLine, st.StartCol, t.Nodes[ft.start].StartByte
		}
		name := t.Text(ft.name)
		w.types[name] = append(w.types[name], sym)
		for _, cn := range ft.consts {
			w.x.Define(cn, sym)
		}
	}
}
