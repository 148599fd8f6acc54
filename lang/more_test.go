package lang

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
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

// moreTestTable is a Table over a few files of one language parsed in a
// test; modules are found by every suffix of whole segments, as in the
// index.
type moreTestTable struct {
	lang    string
	byName  map[string][]*Target
	files   map[string]*FileInfo
	modules map[string][]string
	config  map[string][]string
	project map[string]Project
	memo    sync.Map
}

func newMoreTestTable(t *testing.T, lang string, files map[string]string, config map[string][]string) (*moreTestTable, map[string]*FileFacts) {
	t.Helper()
	tab := &moreTestTable{lang: lang, byName: map[string][]*Target{}, files: map[string]*FileInfo{},
		modules: map[string][]string{}, config: config}
	facts := map[string]*FileFacts{}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := moreExtract(t, lang, p, files[p])
		facts[p] = f
		tab.files[p] = &FileInfo{Path: p, Lang: lang, Module: f.Module, Imports: f.Imports, ModuleID: moreTestID(p, 0), Build: f.Build}
		for m := f.Module; m != ""; {
			tab.modules[m] = append(tab.modules[m], p)
			i := strings.IndexAny(m, "./:")
			if i < 0 {
				break
			}
			m = strings.TrimLeft(m[i:], "./:")
		}
		for i := range f.Symbols {
			tg := moreTestTarget(p, f, i)
			tab.byName[tg.Name] = append(tab.byName[tg.Name], tg)
		}
	}
	return tab, facts
}

func moreTestID(p string, i int) string { return fmt.Sprintf("%s#%d", p, i) }

func moreTestTarget(p string, f *FileFacts, i int) *Target {
	s := &f.Symbols[i]
	return &Target{ID: moreTestID(p, i), Path: p, Kind: s.Kind, Name: s.Name, Container: s.Container, Exported: s.Exported,
		Returns: s.Signature.Returns, Fields: s.Signature.Fields, Bases: s.Signature.Bases, Module: f.Module}
}

func (tab *moreTestTable) ByName(name string) []*Target     { return tab.byName[name] }
func (tab *moreTestTable) File(p string) *FileInfo          { return tab.files[p] }
func (tab *moreTestTable) Config(key string) []string       { return tab.config[key] }
func (tab *moreTestTable) Project(key string) Project       { return tab.project[key] }
func (tab *moreTestTable) ModuleFiles(_, m string) []string { return tab.modules[m] }
func (tab *moreTestTable) DirFiles(dir string) []string {
	var out []string
	for p := range tab.files {
		if path.Dir(p) == dir {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
func (tab *moreTestTable) Memo(key string, f func() string) string {
	if v, ok := tab.memo.Load(key); ok {
		return v.(string)
	}
	v := f()
	tab.memo.Store(key, v)
	return v
}

// resolveAll resolves every reference and import of the files and renders
// each as "path: from kind qualifier.name -> target (rule)".
func (tab *moreTestTable) resolveAll(facts map[string]*FileFacts) []string {
	l := ByName(tab.lang)
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
		ctx := &Context{File: tab.files[p], Table: tab}
		for i := range f.Imports {
			imp := &f.Imports[i]
			names := []string{""}
			if len(imp.Names) > 0 {
				names = names[:0]
				for _, n := range imp.Names {
					names = append(names, n.Name)
				}
			}
			for _, n := range names {
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
