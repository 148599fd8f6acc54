package lang

import (
	"io/fs"
	"path"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
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

// TestWordFileLazy: a word list is read at its first use, by one of many
// goroutines asking at once (go test -race), and answers as the file
// says; a missing file panics when the room declares it, not later.
func TestWordFileLazy(t *testing.T) {
	fsys := fstest.MapFS{"words.txt": {Data: []byte("# comment\nalpha beta\n\n  gamma\n")}}
	w := WordFile(fsys, "words.txt")
	var wg sync.WaitGroup
	got := make([][4]bool, 8)
	for i := range got {
		wg.Go(func() {
			got[i] = [4]bool{w.Has("alpha"), w.Has("beta"), w.Has("gamma"), w.Has("comment")}
		})
	}
	wg.Wait()
	for i, g := range got {
		if g != [4]bool{true, true, true, false} {
			t.Errorf("goroutine %d: alpha, beta, gamma, comment = %v, want true true true false", i, g)
		}
	}
	// read once: a change to the file after the first use is not seen
	fsys["words.txt"] = &fstest.MapFile{Data: []byte("delta")}
	if !w.Has("alpha") || w.Has("delta") {
		t.Error("the list was read again after its first use")
	}
	if (WordSet{}).Has("alpha") {
		t.Error("the zero WordSet holds a word")
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "no data file nosuch.txt") {
			t.Errorf("missing file: recovered %v, want a panic naming it", r)
		}
	}()
	WordFile(fsys, "nosuch.txt")
}
