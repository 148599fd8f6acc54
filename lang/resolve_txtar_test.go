package lang

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/resolve")

// Sections of a resolution case besides its source files.
const (
	wantSection       = "want"       // every bound edge, one a line
	unresolvedSection = "unresolved" // optional: every reference left unbound, with its rule
)

// TestResolveTxtar runs the resolution cases of testdata/resolve/<lang>/:
// each txtar file holds source files and the edges the language's resolver
// binds among them. The runner extracts every file, builds a table of all
// of them the way the index does, resolves every import and reference
// under a Guard as index.fileEdges does, and compares the whole set of
// Bound edges with the want section, so that an edge lost or gained fails.
// An edge line is
//
//	<from file>:<from symbol> -> <to file>:<to symbol> <kind> <rule> <confidence>
//
// where a file's module symbol is written <module>. With -update the want
// (and, when present, unresolved) sections are rewritten.
func TestResolveTxtar(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "resolve", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no cases under testdata/resolve")
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		if ByName(name) == nil {
			t.Errorf("testdata/resolve/%s: no language of that name", name)
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
		for _, file := range files {
			t.Run(name+"/"+strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
				runResolveCase(t, file)
			})
		}
	}
}

func runResolveCase(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(ar.Comment)) == "" {
		t.Errorf("%s: no comment saying what the case proves", file)
	}
	srcs := map[string][]byte{}
	var wantData, unresolvedData []byte
	hasUnresolved := false
	for _, f := range ar.Files {
		switch f.Name {
		case wantSection:
			wantData = f.Data
		case unresolvedSection:
			unresolvedData, hasUnresolved = f.Data, true
		default:
			srcs[f.Name] = f.Data
		}
	}
	tab := newFixtureTable(t, srcs)
	edges, unbound := tab.resolveAll()
	if *update {
		for i := range ar.Files {
			switch ar.Files[i].Name {
			case wantSection:
				ar.Files[i].Data = joinLines(edges)
			case unresolvedSection:
				ar.Files[i].Data = joinLines(unbound)
			}
		}
		if wantData == nil && !hasWant(ar) {
			ar.Files = append(ar.Files, txtar.File{Name: wantSection, Data: joinLines(edges)})
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	compareLines(t, "edges", splitLines(wantData), edges)
	if hasUnresolved {
		compareLines(t, "unresolved references", splitLines(unresolvedData), unbound)
	}
}

func hasWant(ar *txtar.Archive) bool {
	for _, f := range ar.Files {
		if f.Name == wantSection {
			return true
		}
	}
	return false
}

func splitLines(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return sortedUnique(out)
}

func joinLines(ls []string) []byte {
	if len(ls) == 0 {
		return nil
	}
	return []byte(strings.Join(ls, "\n") + "\n")
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

// compareLines fails with the lines missing from got and the lines got
// has beyond want.
func compareLines(t *testing.T, what string, want, got []string) {
	t.Helper()
	have := map[string]bool{}
	for _, g := range got {
		have[g] = true
	}
	wanted := map[string]bool{}
	var missing, extra []string
	for _, w := range want {
		wanted[w] = true
		if !have[w] {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if !wanted[g] {
			extra = append(extra, g)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%s missing:\n  %s", what, strings.Join(missing, "\n  "))
	}
	if len(extra) > 0 {
		t.Errorf("%s not wanted:\n  %s", what, strings.Join(extra, "\n  "))
	}
}

// fixtureTable is a Table over the files of one case, built as the
// index's in-memory table (index.fileSet and index.memTable) is: every
// symbol, the module symbols included, by name in path order; modules
// found by every suffix of whole segments (ModuleKeys); a Go module is a
// package directory; the repository facts of Config read from the case's
// go.mod, package.json and composer.json files as the index reads them.
type fixtureTable struct {
	paths   []string // source files, sorted
	facts   map[string]*FileFacts
	files   map[string]*FileInfo
	byName  map[string][]*Target
	dirs    map[string][]string
	modules map[string][]string // lang \x00 module-or-suffix -> paths
	config  map[string][]string
	project map[string]Project
	memo    sync.Map
}

func newFixtureTable(t *testing.T, srcs map[string][]byte) *fixtureTable {
	t.Helper()
	tab := emptyFixtureTable()
	var all []string
	for p := range srcs {
		all = append(all, p)
	}
	sort.Strings(all)
	p := NewParser()
	defer p.Close()
	for _, fp := range all {
		l := ForPath(fp)
		if l == nil {
			continue
		}
		f, err := Extract(p, l, fp, srcs[fp])
		if err != nil {
			t.Fatalf("extract %s: %v", fp, err)
		}
		tab.add(fp, f)
	}
	tab.readProjects(srcs)
	return tab
}

// emptyFixtureTable is a table of no file, with the Go target fixed: the
// index evaluates Go build constraints for one target, and a case must
// not depend on the machine that runs it.
func emptyFixtureTable() *fixtureTable {
	return &fixtureTable{facts: map[string]*FileFacts{}, files: map[string]*FileInfo{}, byName: map[string][]*Target{},
		dirs: map[string][]string{}, modules: map[string][]string{},
		config:  map[string][]string{ConfigGoTarget: linuxTarget().Config()},
		project: map[string]Project{}}
}

// add puts an extracted file in the table; files come in path order.
func (tab *fixtureTable) add(fp string, f *FileFacts) {
	tab.paths = append(tab.paths, fp)
	tab.facts[fp] = f
	tab.files[fp] = &FileInfo{Path: fp, Lang: f.Lang, Module: f.Module, Imports: f.Imports,
		ModuleID: fixtureID(fp, 0), Build: f.Build}
	tab.dirs[path.Dir(fp)] = append(tab.dirs[path.Dir(fp)], fp)
	for _, k := range ModuleKeys(f.Module) {
		key := f.Lang + "\x00" + k
		tab.modules[key] = append(tab.modules[key], fp)
	}
	for i := range f.Symbols {
		tg := fixtureTarget(fp, f, i)
		tab.byName[tg.Name] = append(tab.byName[tg.Name], tg)
	}
}

// readProjects reads the case's project files (go.mod, package.json,
// composer.json) with the registered languages' ProjectReaders, as the
// index does.
func (tab *fixtureTable) readProjects(srcs map[string][]byte) {
	for _, r := range ProjectReaders() {
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

// srcFiles reads a case's files by repository path.
type srcFiles map[string][]byte

func (s srcFiles) ReadFile(p string) ([]byte, error) {
	if b, ok := s[p]; ok {
		return b, nil
	}
	return nil, fs.ErrNotExist
}

func fixtureID(p string, i int) string { return p + "#" + strconv.Itoa(i) }

func fixtureTarget(p string, f *FileFacts, i int) *Target {
	s := &f.Symbols[i]
	return &Target{ID: fixtureID(p, i), Path: p, Kind: s.Kind, Name: s.Name, Container: s.Container,
		Exported: s.Exported, Returns: s.Signature.Returns, Fields: s.Signature.Fields, Bases: s.Signature.Bases,
		Module: f.Module}
}

func (tab *fixtureTable) ByName(name string) []*Target { return tab.byName[name] }
func (tab *fixtureTable) File(p string) *FileInfo      { return tab.files[p] }
func (tab *fixtureTable) DirFiles(dir string) []string { return tab.dirs[dir] }
func (tab *fixtureTable) Config(key string) []string   { return tab.config[key] }
func (tab *fixtureTable) Project(key string) Project   { return tab.project[key] }
func (tab *fixtureTable) ModuleFiles(l, module string) []string {
	if l == "go" {
		return tab.DirFiles(module)
	}
	return tab.modules[l+"\x00"+module]
}
func (tab *fixtureTable) Memo(key string, f func() string) string {
	if v, ok := tab.memo.Load(key); ok {
		return v.(string)
	}
	v := f()
	tab.memo.Store(key, v)
	return v
}

// symbolName renders a symbol of file p for an edge line: the file's own
// module symbol as <module> (a Ruby or Rust module keeps its name).
func (tab *fixtureTable) symbolName(p, id, q string) string {
	if fi := tab.files[p]; fi != nil && fi.ModuleID == id {
		return p + ":<module>"
	}
	return p + ":" + q
}

// resolveAll resolves every import and reference of every file, as
// index.fileEdges does, and returns the bound edges and the unbound
// references, each rendered one a line, sorted and without repeats.
func (tab *fixtureTable) resolveAll() (edges, unbound []string) {
	for _, p := range tab.paths {
		f := tab.facts[p]
		l := ByName(f.Lang)
		g := NewGuard(tab)
		ctx := &Context{File: tab.files[p], Table: g}
		from := func(s int) string {
			if s <= 0 || s >= len(f.Symbols) {
				s = 0
			}
			sym := &f.Symbols[s]
			return tab.symbolName(p, fixtureID(p, s), sym.Qualified())
		}
		add := func(src, what, kind string, res Resolution) {
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
			ctx.From = fixtureTarget(p, f, s)
			what := r.Name
			if r.Qualifier != "" {
				what = r.Qualifier + "." + r.Name
			}
			res := g.Resolve(l, ctx, r)
			if NoEdge(r.Kind, res) {
				continue // no edge, as in the index
			}
			add(from(s), what, r.Kind, res)
		}
	}
	return sortedUnique(edges), sortedUnique(unbound)
}
