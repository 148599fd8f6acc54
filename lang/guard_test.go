package lang

import (
	"sort"
	"strconv"
	"strings"
	"testing"
)

// memoOnlyTable is a Table of no symbols whose memo can be read apart,
// like the index's.
type memoOnlyTable struct{ memo map[string]string }

func (*memoOnlyTable) ByName(string) []*Target          { return nil }
func (*memoOnlyTable) File(string) *FileInfo            { return nil }
func (*memoOnlyTable) ModuleFiles(_, _ string) []string { return nil }
func (*memoOnlyTable) DirFiles(string) []string         { return nil }
func (*memoOnlyTable) Config(string) []string           { return nil }
func (*memoOnlyTable) Project(string) Project           { return nil }
func (t *memoOnlyTable) Memo(key string, f func() string) string {
	if v, ok := t.memo[key]; ok {
		return v
	}
	v := f()
	t.memo[key] = v
	return v
}
func (t *memoOnlyTable) MemoLoad(key string) (string, bool) { v, ok := t.memo[key]; return v, ok }
func (t *memoOnlyTable) MemoStore(key, v string)            { t.memo[key] = v }

func (t *memoOnlyTable) keys() []string {
	var out []string
	for k := range t.memo {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cyclic computes a and b, each of which asks for the other, the way a
// resolver's type lookups meet again through a glob import; c stands apart.
func cyclic(tab Table) map[string]func() string {
	fs := map[string]func() string{}
	fs["a"] = func() string { return "a(" + tab.Memo("b", fs["b"]) + "," + tab.Memo("c", fs["c"]) + ")" }
	fs["b"] = func() string { return "b(" + tab.Memo("a", fs["a"]) + ")" }
	fs["c"] = func() string { return "c" }
	return fs
}

func TestGuardCutsCycles(t *testing.T) {
	// entered at a, then at b: each terminates, the inner request of the
	// key in progress finds nothing
	tab := &memoOnlyTable{memo: map[string]string{}}
	g := NewGuard(tab)
	fs := cyclic(g)
	if got := g.Memo("a", fs["a"]); got != "a(b(),c)" {
		t.Errorf("a = %q, want a(b(),c)", got)
	}
	if got := g.Memo("b", fs["b"]); got != "b(a(,c))" {
		t.Errorf("b = %q, want b(a(,c))", got)
	}
	// only the value that does not depend on where the cycle was entered
	// is kept for other files
	if got := strings.Join(tab.keys(), " "); got != "c" {
		t.Errorf("memo holds %q, want only c", got)
	}
	// so another file asking in the other order gets the same answers
	tab2 := &memoOnlyTable{memo: map[string]string{}}
	g2 := NewGuard(tab2)
	fs2 := cyclic(g2)
	if b, a := g2.Memo("b", fs2["b"]), g2.Memo("a", fs2["a"]); a != "a(b(),c)" || b != "b(a(,c))" {
		t.Errorf("in the other order a = %q, b = %q", a, b)
	}
	if len(g.Faults())+len(g2.Faults()) != 0 {
		t.Errorf("a cut cycle is not a fault: %v %v", g.Faults(), g2.Faults())
	}
}

func TestGuardDepthLimit(t *testing.T) {
	tab := &memoOnlyTable{memo: map[string]string{}}
	g := NewGuard(tab)
	depth := 0
	var rec func(n int) string
	rec = func(n int) string {
		depth = max(depth, n)
		return g.Memo("k"+strconv.Itoa(n), func() string { return "x" + rec(n+1) })
	}
	got := rec(0)
	if depth != maxNesting {
		t.Errorf("recursed to %d, want the limit %d", depth, maxNesting)
	}
	if len(got) != maxNesting {
		t.Errorf("value %q: want %d levels", got, maxNesting)
	}
	if fs := g.Faults(); len(fs) != 1 || fs[0].Stage != StageResolve || fs[0].Reason != ErrDepth.Error() {
		t.Errorf("faults %+v, want one resolve fault %q", fs, ErrDepth)
	}
	if len(tab.memo) != 0 {
		t.Errorf("values cut by the limit were stored: %v", tab.keys())
	}
}

func TestGuardPanicAndBudget(t *testing.T) {
	l := ByName("python")
	tab := &memoOnlyTable{memo: map[string]string{}}
	g := NewGuard(tab)
	ctx := &Context{File: &FileInfo{Path: "a.py", Lang: "python"}, Table: g}
	ResolveHook = func(ctx *Context, r *Ref) {
		switch r.Name {
		case "boom":
			var m map[string]int
			m["x"]++ // a nil map write: a runtime panic
		case "spin":
			for {
				ctx.Table.ByName("spin")
			}
		}
	}
	defer func() { ResolveHook = nil }()
	res := g.Resolve(l, ctx, &Ref{Kind: RefCall, Name: "boom"})
	if res.Rule != RuleUnresolved || res.Target != nil {
		t.Errorf("a panicking resolution gave %+v", res)
	}
	fs := g.Faults()
	if len(fs) != 1 || fs[0].Stage != StageResolve || !strings.Contains(fs[0].Reason, "panic: assignment to entry in nil map") {
		t.Fatalf("faults %+v", fs)
	}
	g.Resolve(l, ctx, &Ref{Kind: RefCall, Name: "other"})
	if len(g.Faults()) != 1 || g.Faults()[0].Count != 1 {
		t.Errorf("the next reference resolves as usual, without a fault: %+v", g.Faults())
	}
	g.budget = g.work + 1000
	g.Resolve(l, ctx, &Ref{Kind: RefCall, Name: "spin"})
	g.Resolve(l, ctx, &Ref{Kind: RefCall, Name: "after"})
	fs = g.Faults()
	if len(fs) != 2 || fs[1].Reason != ErrBudget.Error() || fs[1].Count != 2 {
		t.Errorf("faults %+v, want the budget spent on 2 references", fs)
	}
}
