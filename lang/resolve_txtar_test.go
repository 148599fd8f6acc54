package lang_test

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
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
// bound edges with the want section, so that an edge lost or gained fails.
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
		if lang.ByName(name) == nil {
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
	tab := langtest.NewTable(t, srcs)
	edges, unbound := tab.ResolveAll()
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
