package index

import (
	"encoding/json"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// readPHPAutoload finds the composer.json files above the PHP files of a
// walk and returns their PSR-4 maps (autoload and autoload-dev) as
// "prefix\tdir": a namespace prefix without its trailing backslash and a
// directory relative to the tree's root. Resolution maps a class name to the file it
// lives in with them, and tells the repository's namespaces from its
// dependencies'.
func readPHPAutoload(tree fileTree, entries []Entry) []string {
	dirs := map[string]bool{}
	for _, e := range entries {
		if e.Lang == nil || e.Lang.Name != "php" {
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
	seen := map[string]bool{}
	var out []string
	for d := range dirs {
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
					e := prefix + "\t" + dir
					if !seen[e] {
						seen[e] = true
						out = append(out, e)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
