package index

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/sdl-dev/sdl/lang"
)

// projects is what the project files of the tree say, by reader key
// (lang.ProjectReader): what resolution needs of the repository as a whole.
type projects map[string]lang.Project

// readProjects runs the project reader of each language of entries on the
// directories that hold a file of the language or are above one. has says
// whether a directory holds a file; nil means try to read it.
func readProjects(tree fileTree, entries []Entry, has func(dir, file string) bool) projects {
	readers := map[string]lang.ProjectReader{}
	dirs := map[string]map[string]bool{} // reader key -> directories
	for _, e := range entries {
		if e.Lang == nil || e.Lang.Project == nil {
			continue
		}
		r := e.Lang.Project
		k := r.Key()
		ds := dirs[k]
		if ds == nil {
			readers[k], ds = r, map[string]bool{}
			dirs[k] = ds
		}
		for d := path.Dir(e.Path); ; d = path.Dir(d) {
			if ds[d] {
				break
			}
			ds[d] = true
			if d == "." || d == "/" {
				break
			}
		}
	}
	out := projects{}
	for k, r := range readers {
		var list []string
		for d := range dirs[k] {
			if has == nil || has(d, r.File()) {
				list = append(list, d)
			}
		}
		sort.Strings(list)
		out[k] = r.Read(tree, list)
	}
	if mods, ok := out[lang.ProjectGoModules].(lang.GoModules); ok {
		out[lang.ProjectGoModules] = goModuleAbove(tree, mods)
	}
	return out
}

// goModules are the Go modules of the tree.
func (p projects) goModules() lang.GoModules {
	m, _ := p[lang.ProjectGoModules].(lang.GoModules)
	return m
}

// goModuleAbove adds, for a tree on disk whose root is a directory inside
// a module (GOROOT/src/net) and has Go files but no go.mod, the module of
// the go.mod above it, with the root's import path prefix.
func goModuleAbove(tree fileTree, mods lang.GoModules) lang.GoModules {
	if len(mods) > 0 && mods[0].Dir == "." {
		return mods // a module at the root
	}
	dt, ok := tree.(dirTree)
	if !ok {
		return mods
	}
	abs, err := filepath.Abs(dt.root)
	if err != nil {
		return mods
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			if mod := modfile.ModulePath(data); mod != "" {
				if rel, err := filepath.Rel(d, abs); err == nil {
					prefix := path.Join(mod, filepath.ToSlash(rel))
					if mod == "std" {
						prefix = filepath.ToSlash(rel)
					}
					mods = append(mods, lang.GoModule{Dir: ".", Path: prefix})
				}
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	lang.SortGoModules(mods)
	return mods
}

// goModulesMeta encodes Go modules for the index's meta table (one
// "dir\tmodule/path" line each), which a run over a few paths reads back
// instead of reading every directory again.
func goModulesMeta(m lang.GoModules) string {
	lines := make([]string, len(m))
	for i, g := range m {
		lines[i] = g.Dir + "\t" + g.Path
	}
	return strings.Join(lines, "\n")
}

// parseGoModulesMeta reads what goModulesMeta wrote.
func parseGoModulesMeta(s string) lang.GoModules {
	var out lang.GoModules
	for _, line := range strings.Split(s, "\n") {
		if dir, mod, ok := strings.Cut(line, "\t"); ok {
			out = append(out, lang.GoModule{Dir: dir, Path: mod})
		}
	}
	return out
}
