package lang

import (
	"path"
	"sort"

	"golang.org/x/mod/modfile"
)

// ProjectFiles reads the files of the tree being indexed (a working tree
// or a git revision) by repository path.
type ProjectFiles interface {
	ReadFile(path string) ([]byte, error)
}

// A ProjectReader reads a language's project files (go.mod, package.json,
// composer.json): what its resolution rules need to know of the
// repository as a whole. Languages that share rules share a reader; a
// language without project files has none.
type ProjectReader interface {
	// Key is the Table.Project key of what the reader reads.
	Key() string
	// File is the project file's name, looked for in each directory that
	// holds a file of the language or is above one.
	File() string
	// Read reads the project files of dirs, which hold one, in path order.
	Read(tree ProjectFiles, dirs []string) Project
}

// Project is what a reader found: GoModules or a room's own (PHP's
// autoload maps, JavaScript's packages). IsProject marks the types that are one.
type Project interface{ IsProject() }

// The Table.Project keys of the readers.
const (
	ProjectGoModules = "go.modules"
)

// ProjectReaders lists the readers of the registered languages, once
// each, by key.
func ProjectReaders() []ProjectReader {
	seen := map[string]bool{}
	var out []ProjectReader
	for _, l := range languages {
		if r := l.Project; r != nil && !seen[r.Key()] {
			seen[r.Key()] = true
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// GoModule is a go.mod file: its directory ("." for the root) and its
// module path.
type GoModule struct{ Dir, Path string }

// GoModules are the repository's Go modules, by directory.
type GoModules []GoModule

// IsProject marks GoModules as a Project.
func (GoModules) IsProject() {}

// SortGoModules puts modules in the order readers return them.
func SortGoModules(m GoModules) {
	sort.Slice(m, func(i, j int) bool { return m[i].Dir+"\t"+m[i].Path < m[j].Dir+"\t"+m[j].Path })
}

// GoModulesReader reads go.mod files.
type GoModulesReader struct{}

func (GoModulesReader) Key() string  { return ProjectGoModules }
func (GoModulesReader) File() string { return "go.mod" }

func (GoModulesReader) Read(tree ProjectFiles, dirs []string) Project {
	var out GoModules
	for _, d := range dirs {
		data, err := tree.ReadFile(path.Join(d, "go.mod"))
		if err != nil {
			continue
		}
		if mod := modfile.ModulePath(data); mod != "" {
			out = append(out, GoModule{Dir: d, Path: mod})
		}
	}
	SortGoModules(out)
	return out
}

// GoModulesOf is the Go modules a table knows.
func GoModulesOf(tab Table) GoModules {
	m, _ := tab.Project(ProjectGoModules).(GoModules)
	return m
}
