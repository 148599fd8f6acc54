package lang

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// Helpers shared by the tests of C#, Ruby, PHP and Bash.

func moreExtract(t *testing.T, lang, filePath, src string) *FileFacts {
	t.Helper()
	p := NewParser()
	defer p.Close()
	f, err := Extract(p, ByName(lang), filePath, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// moreSym finds the symbol of a qualified name (not the file's module).
func moreSym(t *testing.T, f *FileFacts, qualified string) *Symbol {
	t.Helper()
	for i := 1; i < len(f.Symbols); i++ {
		if f.Symbols[i].Qualified() == qualified {
			return &f.Symbols[i]
		}
	}
	var have []string
	for _, s := range f.Symbols {
		have = append(have, s.Kind+" "+s.Qualified())
	}
	t.Fatalf("no symbol %s; have %v", qualified, have)
	return nil
}

// moreImports renders imports as "source alias=A names=a,b@line".
func moreImports(f *FileFacts) []string {
	var out []string
	for _, imp := range f.Imports {
		s := imp.Source
		if imp.Alias != "" {
			s += " alias=" + imp.Alias
		}
		if len(imp.Names) > 0 {
			var ns []string
			for _, n := range imp.Names {
				if n.Alias != "" {
					ns = append(ns, n.Name+" as "+n.Alias)
				} else {
					ns = append(ns, n.Name)
				}
			}
			s += " names=" + strings.Join(ns, ",")
		}
		out = append(out, fmt.Sprintf("%s@%d", s, imp.Line))
	}
	return out
}

// facts renders a symbol's invariants or side effects as "kind: text".
func factTexts(fs []Fact) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind+": "+f.Text)
	}
	return out
}

// moreTestTable is the txtar runner's table (fixtureTable) over a few
// files of one language, with the repository facts a test gives.
type moreTestTable struct{ *fixtureTable }

func newMoreTestTable(t *testing.T, lang string, files map[string]string, config map[string][]string) (*moreTestTable, map[string]*FileFacts) {
	t.Helper()
	srcs := map[string][]byte{}
	for p, src := range files {
		if l := ForPath(p); l == nil || l.Name != lang && l.dataDirName() != ByName(lang).dataDirName() {
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

// javaRefs renders the references of a file, one string each:
// "from kind qualifier.name [type] {call}".
func javaRefs(f *FileFacts) []string {
	var out []string
	for _, r := range f.Refs {
		from := "-"
		if r.Symbol >= 0 && r.Symbol < len(f.Symbols) {
			from = f.Symbols[r.Symbol].Qualified()
			if r.Symbol == 0 {
				from = "<module>"
			}
		}
		s := from + " " + r.Kind + " "
		if r.Qualifier != "" {
			s += r.Qualifier + "."
		}
		s += r.Name
		if r.QualifierType != "" {
			s += " [" + r.QualifierType + "]"
		}
		if r.QualifierCall != "" {
			s += " {" + r.QualifierCall + "}"
		}
		out = append(out, s)
	}
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
