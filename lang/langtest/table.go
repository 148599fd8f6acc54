package langtest

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/sdl-dev/sdl/lang"
)

// Table is a lang.Table over a few files a room's test parses, built as
// the index's in-memory table is: every symbol, the module symbols
// included, by name in path order; modules found by every suffix of whole
// segments (lang.ModuleKeys); a Go module is a package directory; the
// project files (go.mod, package.json, composer.json) read by the
// registered languages' ProjectReaders. It is the table of lang's
// resolution cases (TestResolveTxtar), for the rooms' own resolution tests.
type Table struct {
	Paths   []string // source files, sorted
	Facts   map[string]*lang.FileFacts
	Files   map[string]*lang.FileInfo
	byName  map[string][]*lang.Target
	dirs    map[string][]string
	modules map[string][]string // lang \x00 module-or-suffix -> paths
	config  map[string][]string
	project map[string]lang.Project
	memo    sync.Map
}

// NewTable extracts the files of srcs (path -> source) that a language
// claims and makes their table. Go build constraints are evaluated for
// linux/amd64, so that a test does not depend on the machine it runs on.
func NewTable(t testing.TB, srcs map[string][]byte) *Table {
	t.Helper()
	tab := &Table{Facts: map[string]*lang.FileFacts{}, Files: map[string]*lang.FileInfo{}, byName: map[string][]*lang.Target{},
		dirs: map[string][]string{}, modules: map[string][]string{},
		config:  map[string][]string{lang.ConfigGoTarget: lang.DefaultGoTarget().WithPlatform("linux", "amd64").Config()},
		project: map[string]lang.Project{}}
	var all []string
	for p := range srcs {
		all = append(all, p)
	}
	sort.Strings(all)
	p := lang.NewParser()
	defer p.Close()
	for _, fp := range all {
		l := lang.ForPath(fp)
		if l == nil {
			continue
		}
		f, err := lang.Extract(p, l, fp, srcs[fp])
		if err != nil {
			t.Fatalf("extract %s: %v", fp, err)
		}
		if len(f.Faults) > 0 {
			// a panic the engine caught: the index would keep nothing of
			// the file, whatever edges the facts hold
			t.Fatalf("extract %s: faults %v", fp, f.Faults)
		}
		tab.Add(fp, f)
	}
	tab.readProjects(srcs)
	return tab
}

// Add puts an extracted file in the table; files come in path order.
func (tab *Table) Add(fp string, f *lang.FileFacts) {
	tab.Paths = append(tab.Paths, fp)
	tab.Facts[fp] = f
	tab.Files[fp] = &lang.FileInfo{Path: fp, Lang: f.Lang, Module: f.Module, Imports: f.Imports,
		ModuleID: targetID(fp, 0), Build: f.Build, Test: f.IsTest}
	tab.dirs[path.Dir(fp)] = append(tab.dirs[path.Dir(fp)], fp)
	for _, k := range lang.ModuleKeys(f.Module) {
		key := f.Lang + "\x00" + k
		tab.modules[key] = append(tab.modules[key], fp)
	}
	for i := range f.Symbols {
		tg := Target(fp, f, i)
		tab.byName[tg.Name] = append(tab.byName[tg.Name], tg)
	}
}

// readProjects reads the project files among srcs with the registered
// languages' ProjectReaders, as the index does.
func (tab *Table) readProjects(srcs map[string][]byte) {
	for _, r := range lang.ProjectReaders() {
		var dirs []string
		for p := range srcs {
			if path.Base(p) == r.File() {
				dirs = append(dirs, path.Dir(p))
			}
		}
		if len(dirs) == 0 {
			continue
		}
		sort.Strings(dirs)
		tab.project[r.Key()] = r.Read(srcFiles(srcs), dirs)
	}
}

// srcFiles reads a test's files by repository path.
type srcFiles map[string][]byte

func (s srcFiles) ReadFile(p string) ([]byte, error) {
	if b, ok := s[p]; ok {
		return b, nil
	}
	return nil, fs.ErrNotExist
}

func targetID(p string, i int) string { return p + "#" + strconv.Itoa(i) }

// Target is symbol i of file p as the table holds it, the module at 0.
func Target(p string, f *lang.FileFacts, i int) *lang.Target {
	s := &f.Symbols[i]
	return &lang.Target{ID: targetID(p, i), Path: p, Kind: s.Kind, Name: s.Name, Container: s.Container,
		Exported: s.Exported, Returns: s.Signature.Returns, Fields: s.Signature.Fields, Bases: s.Signature.Bases,
		Receiver: s.Signature.Receiver, Arity: len(s.Signature.Generics), TypeParams: s.Signature.TypeParams,
		Module: f.Module, Test: f.IsTest}
}

// SetConfig sets a repository fact of Config (the Go build target, say).
func (tab *Table) SetConfig(key string, v []string) { tab.config[key] = v }

// SetProject sets what a project reader would have found under key.
func (tab *Table) SetProject(key string, p lang.Project) { tab.project[key] = p }

// The lang.Table methods.

func (tab *Table) ByName(name string) []*lang.Target { return tab.byName[name] }
func (tab *Table) File(p string) *lang.FileInfo      { return tab.Files[p] }
func (tab *Table) DirFiles(dir string) []string      { return tab.dirs[dir] }
func (tab *Table) Config(key string) []string        { return tab.config[key] }
func (tab *Table) Project(key string) lang.Project   { return tab.project[key] }
func (tab *Table) ModuleFiles(l, module string) []string {
	if l == "go" {
		return tab.DirFiles(module)
	}
	return tab.modules[l+"\x00"+module]
}
func (tab *Table) Memo(key string, f func() string) string {
	if v, ok := tab.memo.Load(key); ok {
		return v.(string)
	}
	v := f()
	tab.memo.Store(key, v)
	return v
}

// symbolName renders a symbol of file p for an edge line: the file's own
// module symbol as <module> (a Ruby or Rust module keeps its name).
func (tab *Table) symbolName(p, id, q string) string {
	if fi := tab.Files[p]; fi != nil && fi.ModuleID == id {
		return p + ":<module>"
	}
	return p + ":" + q
}

// ResolveAll resolves every import and reference of every file, as
// index.fileEdges does, and returns the bound edges and the unbound
// references, each rendered one a line, sorted and without repeats.
func (tab *Table) ResolveAll() (edges, unbound []string) {
	for _, p := range tab.Paths {
		f := tab.Facts[p]
		l := lang.ByName(f.Lang)
		g := lang.NewGuard(tab)
		ctx := &lang.Context{File: tab.Files[p], Table: g}
		from := func(s int) string {
			if s <= 0 || s >= len(f.Symbols) {
				s = 0
			}
			sym := &f.Symbols[s]
			return tab.symbolName(p, targetID(p, s), sym.Qualified())
		}
		add := func(src, what, kind string, res lang.Resolution) {
			if res.Target != nil {
				to := tab.symbolName(res.Target.Path, res.Target.ID, res.Target.Qualified())
				edges = append(edges, fmt.Sprintf("%s -> %s %s %s %s", src, to, kind, res.Rule,
					strconv.FormatFloat(res.Confidence, 'f', -1, 64)))
				return
			}
			line := fmt.Sprintf("%s -> ? %s %s %s", src, what, kind, res.Rule)
			if res.Candidates > 0 {
				line += " " + strconv.Itoa(res.Candidates)
			}
			unbound = append(unbound, line)
		}
		for i := range f.Imports {
			imp := &f.Imports[i]
			for _, n := range imp.Resolved() {
				what := imp.Source
				if n != "" {
					what += "#" + n
				}
				add(from(imp.Symbol), what, "import", g.ResolveImport(l, ctx, imp, n))
			}
		}
		for i := range f.Refs {
			r := &f.Refs[i]
			s := r.Symbol
			if s < 0 || s >= len(f.Symbols) {
				s = 0
			}
			ctx.From = Target(p, f, s)
			what := r.Name
			if r.Qualifier != "" {
				what = r.Qualifier + "." + r.Name
			}
			res := g.Resolve(l, ctx, r)
			if lang.NoEdge(r.Kind, res) {
				continue // no edge, as in the index
			}
			add(from(s), what, r.Kind, res)
		}
	}
	return sortedUnique(edges), sortedUnique(unbound)
}

func sortedUnique(ls []string) []string {
	sort.Strings(ls)
	out := ls[:0]
	for i, l := range ls {
		if i == 0 || l != ls[i-1] {
			out = append(out, l)
		}
	}
	return out
}
