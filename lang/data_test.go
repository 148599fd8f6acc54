package lang

import (
	"io/fs"
	"path"
	"strings"
	"testing"
)

// TestLanguageData reads every room's data files as the package does and
// checks that each is one the package reads, parses, and lists no word twice (a
// repeated word in a list is an edit gone wrong).
func TestLanguageData(t *testing.T) {
	n := 0
	check := func(fsys fs.FS, root, dir string) error {
		return fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txt") {
				return err
			}
			n++
			name := path.Base(p)
			lines, _ := readLines(fsys, p)
			switch name {
			case "testpaths.txt":
				if _, err := parseTestPaths(dir, lines); err != nil {
					t.Error(err)
				}
			case "effects.txt":
				if _, err := parseEffects(dir, lines); err != nil {
					t.Error(err)
				}
			case "builtins.txt", "common_methods.txt", "std.txt", "types.txt", "globals.txt", "prelude.txt", "test_annotations.txt", "external_functions.txt", "object_methods.txt", "markers.txt":
				seen := map[string]bool{}
				for _, l := range lines {
					for _, w := range strings.Fields(l) {
						if seen[w] {
							t.Errorf("%s: %s twice", p, w)
						}
						seen[w] = true
					}
				}
				if len(seen) == 0 {
					t.Errorf("%s: empty", p)
				}
			default:
				t.Errorf("%s: no reader for this file", p)
			}
			return nil
		})
	}
	// a room's data files are its own: its language's, at the room's root
	var err error
	for _, l := range All() {
		if l.data != nil && err == nil {
			err = check(l.data, ".", l.Name)
		}
	}
	if err != nil || n == 0 {
		t.Fatalf("walk data: %d files, %v", n, err)
	}
	for _, bad := range [][]string{{"read os.Open"}, {"nosuch: f"}, {"method db: Query"}, {"handle ("}, {"read: a a"}} {
		if _, err := parseEffects("x", bad); err == nil {
			t.Errorf("effects %q: accepted", bad)
		}
	}
}
