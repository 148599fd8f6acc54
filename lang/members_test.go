package lang_test

import (
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

// TestFindMemberOrder: over a diamond (D from B and C, both from A; A and
// C define ping) a depth-first search finds A's ping through B, a
// breadth-first one C's, as Python's MRO does; both report a base outside
// the repository when nothing of ours has the name.
func TestFindMemberOrder(t *testing.T) {
	src := "class A:\n    def ping(self): pass\nclass B(A): pass\nclass C(A):\n    def ping(self): pass\n" +
		"class D(B, C): pass\nclass E(D, Lib): pass\n"
	tab := langtest.NewTable(t, map[string][]byte{"m.py": []byte(src)})
	class := func(name string) *lang.Target {
		for _, c := range tab.ByName(name) {
			if c.Kind == lang.KindClass {
				return c
			}
		}
		return nil
	}
	rules := func(bfs bool) *lang.MemberRules {
		return &lang.MemberRules{
			BreadthFirst: bfs,
			Own: func(tab lang.Table, typ *lang.Target, name string) *lang.Target {
				for _, m := range tab.ByName(name) {
					if m.Container == typ.Qualified() {
						return m
					}
				}
				return nil
			},
			Bases: func(_ lang.Table, typ *lang.Target, _ int) []lang.BaseRef {
				var out []lang.BaseRef
				for _, b := range typ.Bases {
					if c := class(b); c != nil {
						out = append(out, lang.BaseRef{Target: c})
					} else {
						out = append(out, lang.BaseRef{Rule: lang.RuleExternal})
					}
				}
				return out
			},
		}
	}
	for _, c := range []struct {
		bfs  bool
		want string
	}{{false, "A"}, {true, "C"}} {
		r := rules(c.bfs)
		m, ext := r.FindMember(tab, class("D"), "ping", 0)
		if m == nil || m.Container != c.want || ext {
			t.Errorf("breadth first %v: D.ping found %+v (ext %v), want %s.ping", c.bfs, m, ext, c.want)
		}
		if m, ext := r.FindMember(tab, class("E"), "pong", 0); m != nil || !ext {
			t.Errorf("breadth first %v: E.pong found %+v (ext %v), want nothing and a base outside", c.bfs, m, ext)
		}
		if found, miss := r.Walk(tab, class("E"), 0, func(*lang.Target) bool { return false }); found || miss != lang.RuleExternal {
			t.Errorf("breadth first %v: a walk of E that finds nothing: %v %q, want %q", c.bfs, found, miss, lang.RuleExternal)
		}
	}
}
