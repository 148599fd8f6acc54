package javascript

import (
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// projectKey is the Table.Project key of the packages.
const projectKey = "js.packages"

// Package is a named package.json: its directory, its name and its
// entry files (source, module and main, those given): a monorepo's files
// import one another by these names.
type Package struct {
	Dir, Name string
	Entries   []string
}

// Packages are the repository's JavaScript and TypeScript packages.
type Packages []Package

// IsProject marks Packages as a lang.Project.
func (Packages) IsProject() {}

// PackagesReader reads package.json files.
type PackagesReader struct{}

func (PackagesReader) Key() string  { return projectKey }
func (PackagesReader) File() string { return "package.json" }

func (PackagesReader) Read(tree lang.ProjectFiles, dirs []string) lang.Project {
	var out Packages
	for _, d := range dirs {
		data, err := tree.ReadFile(path.Join(d, "package.json"))
		if err != nil {
			continue
		}
		var pkg struct {
			Name   string `json:"name"`
			Source string `json:"source"`
			Module string `json:"module"`
			Main   string `json:"main"`
		}
		if json.Unmarshal(data, &pkg) != nil || pkg.Name == "" || strings.ContainsAny(pkg.Name, "\t\n") {
			continue
		}
		p := Package{Dir: d, Name: pkg.Name}
		for _, e := range []string{pkg.Source, pkg.Module, pkg.Main} {
			if e != "" && !strings.ContainsAny(e, "\t\n,") {
				p.Entries = append(p.Entries, e)
			}
		}
		out = append(out, p)
	}
	// the order of "dir\tname\tentries" lines, which resolution kept before
	key := func(p Package) string { return p.Dir + "\t" + p.Name + "\t" + strings.Join(p.Entries, ",") }
	sort.Slice(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

func packages(tab lang.Table) Packages {
	p, _ := tab.Project(projectKey).(Packages)
	return p
}
