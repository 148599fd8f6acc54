package lang

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestQueryRootsMatchWholeTree: a query run from its roots (flat.c's
// cursor walking from one root node to the next) finds exactly what the
// same query finds run over the whole tree, on the source files of every
// room's resolution cases. A walk that lost its way, or ran from a node
// other than the root it was given, finds other matches.
func TestQueryRootsMatchWholeTree(t *testing.T) {
	p := NewParser()
	defer p.Close()
	checked := map[string]int{}
	// a room without a case of its own (TSX shares JavaScript's room)
	tsx := txtar.File{Name: "c.tsx", Data: []byte("import {B} from './b';\n" +
		"export class C extends B { m(): JSX.Element { const f = () => <div onClick={this.n}>{g()}</div>; return f(); } }\n" +
		"export function D(p: {x: number}) { return <C x={p.x} />; }\nexport const E = (q: string) => <D x={1} />;\n")}
	eachCaseSource(t, []txtar.File{tsx}, func(file string, f txtar.File, l *Language) {
		name, diff, err := rootsVsWhole(p, l, f.Name, f.Data)
		if err != nil {
			t.Fatalf("%s: %s: %v", file, f.Name, err)
		}
		if diff != "" {
			t.Errorf("%s: %s (%s): from the roots and over the whole tree differ:\n%s", file, f.Name, name, diff)
		}
		if name != "" {
			checked[name]++
		}
	})
	for _, l := range All() {
		if q := l.Query(); q != nil && q.roots != nil && checked[l.Name] == 0 {
			t.Errorf("%s runs its query from roots, and no resolution case has a file of it", l.Name)
		}
	}
}

// FuzzQueryRoots: over arbitrary bytes as each language whose query runs
// from roots, the matches from the roots are those over the whole tree.
func FuzzQueryRoots(f *testing.F) {
	f.Add(uint8(0), "package a\nimport \"b\"\nfunc f() { g() }\ntype T struct{}\nfunc (T) m() {}\nvar v = 1\n")
	f.Add(uint8(1), "class A(B):\n    x: int = 1\n    def f(self):\n        def g(): pass\n        return g\n")
	f.Add(uint8(2), "class C { fun f() { val x = 1 }; val y: Int get() = 2; object O }\n")
	f.Add(uint8(3), "struct S { var a: Int; func f() {} }\nextension S { init() {} }\n")
	f.Add(uint8(4), "class A { void m() { class L {} } }\n{{{ ((( ]]]")
	f.Fuzz(func(t *testing.T, which uint8, src string) {
		var langs []*Language
		for _, l := range All() {
			if q := l.Query(); q != nil && q.roots != nil {
				langs = append(langs, l)
			}
		}
		if len(langs) == 0 || len(src) > 1<<14 {
			return
		}
		l := langs[int(which)%len(langs)]
		p := NewParser()
		defer p.Close()
		_, diff, err := rootsVsWhole(p, l, "f"+l.Extensions[0], []byte(src))
		if err == nil && diff != "" {
			t.Errorf("%s: from the roots and over the whole tree differ:\n%s", l.Name, diff)
		}
	})
}

// rootsVsWhole parses src as l twice: its query run from every node of a
// root kind (the QueryRoot hook aside, which only narrows them), then
// over the whole tree. It returns the language that parsed src when its
// query runs from roots ("" otherwise), and the matches one run found and
// the other did not.
func rootsVsWhole(p *Parser, l *Language, path string, src []byte) (string, string, error) {
	var name string
	fromRoots := func(q *Query) *Query {
		c := *q
		c.rootIf = nil
		return &c
	}
	whole := func(q *Query) *Query {
		c := *q
		c.roots, c.rootIf = nil, nil
		return &c
	}
	a, err := p.parse(l, path, src, fromRoots)
	if err != nil {
		return "", "", err
	}
	if a.Lang.Query() == nil || a.Lang.Query().roots == nil {
		return "", "", nil
	}
	name = a.Lang.Name
	if deeperThan(a, queryMaxDepth-1) {
		return name, "", nil // where the whole-tree run stops looking
	}
	ka := matchKeys(a)
	b, err := p.parse(l, path, src, whole)
	if err != nil {
		return name, "", err
	}
	kb := matchKeys(b)
	var diff []string
	for _, k := range ka {
		if i, ok := slices.BinarySearch(kb, k); ok {
			kb = slices.Delete(kb, i, i+1)
			continue
		}
		diff = append(diff, "  only from the roots: "+k)
	}
	for _, k := range kb {
		diff = append(diff, "  only over the whole tree: "+k)
	}
	return name, strings.Join(diff, "\n"), nil
}

// matchKeys spells each match of t as its pattern and captures, sorted.
func matchKeys(t *Tree) []string {
	var keys []string
	for _, m := range t.Matches {
		k := fmt.Sprint(m.Pattern)
		for _, c := range m.Captures {
			k += fmt.Sprintf(" %s=%s@%d", c.Name, t.Kind(c.Node), c.Node)
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// deeperThan reports whether a node of t lies deeper than depth.
func deeperThan(t *Tree, depth int) bool {
	d := make([]int, len(t.Nodes))
	for i := range t.Nodes {
		if p := t.Nodes[i].Parent; p >= 0 {
			d[i] = d[p] + 1
			if d[i] > depth {
				return true
			}
		}
	}
	return false
}
