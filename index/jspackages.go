package index

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// readJSPackages finds the package.json files above the JavaScript and
// TypeScript files of a walk and returns "dir\tname\tentries" for each
// named package, dir relative to root and entries its source, module and
// main files, comma-separated: a monorepo's files import one another by
// these names.
func readJSPackages(tree fileTree, entries []Entry) []string {
	dirs := map[string]bool{}
	for _, e := range entries {
		if e.Lang == nil {
			continue
		}
		switch e.Lang.Name {
		case "javascript", "typescript", "tsx":
		default:
			continue
		}
		for d := path.Dir(e.Path); ; d = path.Dir(d) {
			if dirs[d] {
				break
			}
			dirs[d] = true
			if d == "." || d == "/" {
				break
			}
		}
	}
	var out []string
	for d := range dirs {
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
		var entries []string
		for _, e := range []string{pkg.Source, pkg.Module, pkg.Main} {
			if e != "" && !strings.ContainsAny(e, "\t\n,") {
				entries = append(entries, e)
			}
		}
		out = append(out, d+"\t"+pkg.Name+"\t"+strings.Join(entries, ","))
	}
	sort.Strings(out)
	return out
}
