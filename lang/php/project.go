package php

import (
	"encoding/json"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// projectKey is the Table.Project key of the autoload maps.
const projectKey = "php.psr4"

// PSR4 maps a PHP namespace prefix (without its trailing backslash) to a
// directory of the repository.
type PSR4 struct{ Prefix, Dir string }

// Autoload are the PSR-4 maps of the repository's composer.json files
// (autoload and autoload-dev): resolution maps a class name to the file
// it lives in with them, and tells the repository's namespaces from its
// dependencies'.
type Autoload []PSR4

// IsProject marks Autoload as a lang.Project.
func (Autoload) IsProject() {}

// AutoloadReader reads composer.json files.
type AutoloadReader struct{}

func (AutoloadReader) Key() string  { return projectKey }
func (AutoloadReader) File() string { return "composer.json" }

func (AutoloadReader) Read(tree lang.ProjectFiles, dirs []string) lang.Project {
	seen := map[PSR4]bool{}
	var out Autoload
	for _, d := range dirs {
		data, err := tree.ReadFile(path.Join(d, "composer.json"))
		if err != nil {
			continue
		}
		var c struct {
			Autoload struct {
				PSR4 map[string]json.RawMessage `json:"psr-4"`
			} `json:"autoload"`
			AutoloadDev struct {
				PSR4 map[string]json.RawMessage `json:"psr-4"`
			} `json:"autoload-dev"`
		}
		if json.Unmarshal(data, &c) != nil {
			continue
		}
		for _, m := range []map[string]json.RawMessage{c.Autoload.PSR4, c.AutoloadDev.PSR4} {
			for prefix, raw := range m {
				// a directory or a list of them
				var dirsOf []string
				var one string
				if json.Unmarshal(raw, &one) == nil {
					dirsOf = []string{one}
				} else if json.Unmarshal(raw, &dirsOf) != nil {
					continue
				}
				prefix = strings.Trim(prefix, `\`)
				for _, sub := range dirsOf {
					dir := path.Clean(path.Join(d, filepath.ToSlash(sub)))
					if strings.HasPrefix(dir, "..") || strings.ContainsAny(prefix+dir, "\t\n") {
						continue
					}
					if e := (PSR4{prefix, dir}); !seen[e] {
						seen[e] = true
						out = append(out, e)
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Prefix+"\t"+out[i].Dir < out[j].Prefix+"\t"+out[j].Dir })
	return out
}

func autoload(tab lang.Table) Autoload {
	a, _ := tab.Project(projectKey).(Autoload)
	return a
}
