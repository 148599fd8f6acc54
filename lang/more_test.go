package lang

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// Helpers of the tests of the languages still in lang (Go).

// moreTestTable is the txtar runner's table (fixtureTable) over a few
// files of one language, with the repository facts a test gives.
type moreTestTable struct{ *fixtureTable }

func newMoreTestTable(t *testing.T, lang string, files map[string]string, config map[string][]string) (*moreTestTable, map[string]*FileFacts) {
	t.Helper()
	srcs := map[string][]byte{}
	for p, src := range files {
		if l := ForPath(p); l == nil || l.Name != lang {
			t.Fatalf("%s is not a %s file", p, lang)
		}
		srcs[p] = []byte(src)
	}
	tab := newFixtureTable(t, srcs)
	for k, v := range config {
		tab.config[k] = v
	}
	return &moreTestTable{tab}, tab.facts
}

func moreTestTarget(p string, f *FileFacts, i int) *Target { return fixtureTarget(p, f, i) }

// resolveAll resolves every reference and import of the files and renders
// each as "path: from kind qualifier.name -> target (rule)".
func (tab *moreTestTable) resolveAll(facts map[string]*FileFacts) []string {
	var out []string
	render := func(res Resolution) string {
		if res.Target == nil {
			return "? (" + res.Rule + ")"
		}
		tq := res.Target.Qualified()
		if fi := tab.files[res.Target.Path]; fi != nil && fi.ModuleID == res.Target.ID {
			tq = "<module>"
		}
		return res.Target.Path + ":" + tq + " (" + res.Rule + ")"
	}
	for p, f := range facts {
		l := ByName(f.Lang)
		ctx := &Context{File: tab.files[p], Table: tab}
		for i := range f.Imports {
			imp := &f.Imports[i]
			for _, n := range imp.Resolved() {
				out = append(out, strings.TrimSpace(fmt.Sprintf("%s: import %s %s", p, imp.Source, n))+" -> "+render(l.ResolveImport(ctx, imp, n)))
			}
		}
		for i := range f.Refs {
			r := &f.Refs[i]
			s := r.Symbol
			if s < 0 || s >= len(f.Symbols) {
				s = 0
			}
			ctx.From = moreTestTarget(p, f, s)
			q := r.Name
			if r.Qualifier != "" {
				q = r.Qualifier + "." + r.Name
			}
			from := f.Symbols[s].Qualified()
			if s == 0 {
				from = "<module>"
			}
			out = append(out, fmt.Sprintf("%s: %s %s %s -> %s", p, from, r.Kind, q, render(l.Resolve(ctx, r))))
		}
	}
	sort.Strings(out)
	return out
}

func wantAll(t *testing.T, have []string, want ...string) {
	t.Helper()
	set := map[string]bool{}
	for _, h := range have {
		set[h] = true
	}
	for _, w := range want {
		if !set[w] {
			t.Errorf("missing %q in:\n  %s", w, strings.Join(have, "\n  "))
		}
	}
}
