package lang

import (
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"
)

// data holds data/effects.txt, the effects every language's effects.txt
// names. What configures one language, as text, lives in its room and is
// given as Spec.Data: its test-path patterns (testpaths.txt), word lists
// (builtins.txt, common_methods.txt, std.txt, types.txt, globals.txt,
// prelude.txt, test_annotations.txt, external_functions.txt,
// object_methods.txt) and side-effect table (effects.txt). All are read
// once, when the room registers (the side-effect table when an index run
// first needs it); a malformed file panics then, so that no build ships
// one (TestLanguageData reads them all).
//
//go:embed data
var data embed.FS

// readLines returns the lines of file p of fsys without comments and
// blank lines; ok is false when the file does not exist.
func readLines(fsys fs.FS, p string) (lines []string, ok bool) {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines, true
}

// WordSet is a word list of a room's embedded data files, read at its first
// use: only resolution asks most of them, and reading the thirty-odd lists
// at start-up cost every process, a slice or a search too, about 1 ms.
type WordSet struct{ set func() map[string]bool }

// WordFile is the word list name of a room's embedded data files (words
// separated by white space, # comments), read at its first use. The list
// must exist: a missing one panics at start-up, so that no build ships
// without it (asking whether the file is there reads nothing).
func WordFile(fsys fs.FS, name string) WordSet {
	if _, err := fs.Stat(fsys, name); err != nil {
		panic("lang: no data file " + name)
	}
	return WordSet{set: sync.OnceValue(func() map[string]bool {
		lines, _ := readLines(fsys, name)
		return lineWords(lines)
	})}
}

// Has reports whether word is one of the words; the zero WordSet holds
// none.
func (w WordSet) Has(word string) bool { return w.set != nil && w.set()[word] }

func lineWords(lines []string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lines {
		for _, w := range strings.Fields(l) {
			m[w] = true
		}
	}
	return m
}

// effectNames are the effects of data/effects.txt by name.
var effectNames = func() map[string]effect {
	lines, _ := readLines(data, "data/effects.txt")
	m := map[string]effect{}
	for _, l := range lines {
		f := strings.SplitN(l, " ", 3)
		if len(f) != 3 {
			panic(fmt.Sprintf("lang: data/effects.txt: %q: want NAME KIND TEXT", l))
		}
		m[f[0]] = effect{kind: f[1], text: f[2]}
	}
	return m
}()

// parseEffects reads the lines of an effects.txt.
func parseEffects(dir string, lines []string) (*effectRules, error) {
	r := &effectRules{calls: map[string]effect{}, methods: map[string]effect{}}
	for _, l := range lines {
		if h, ok := strings.CutPrefix(l, "handle "); ok {
			re, err := regexp.Compile(strings.TrimSpace(h))
			if err != nil {
				return nil, fmt.Errorf("data/%s/effects.txt: %w", dir, err)
			}
			r.handle = re
			continue
		}
		head, words, ok := strings.Cut(l, ":")
		if !ok {
			return nil, fmt.Errorf("data/%s/effects.txt: %q: want EFFECT: CALL...", dir, l)
		}
		into := r.calls
		if n, ok := strings.CutPrefix(head, "method "); ok {
			head, into = n, r.methods
		}
		e, ok := effectNames[head]
		if !ok {
			return nil, fmt.Errorf("data/%s/effects.txt: no effect %q in data/effects.txt", dir, head)
		}
		for _, w := range strings.Fields(words) {
			if _, dup := into[w]; dup {
				return nil, fmt.Errorf("data/%s/effects.txt: %s twice", dir, w)
			}
			into[w] = e
		}
	}
	if len(r.methods) > 0 && r.handle == nil {
		return nil, fmt.Errorf("data/%s/effects.txt: method effects without a handle", dir)
	}
	return r, nil
}

// lines reads one of the data files of l's room; ok is false when it has
// no such file.
func (l *Language) lines(name string) ([]string, bool) {
	if l.data == nil {
		return nil, false
	}
	return readLines(l.data, name)
}

// loadData reads l's test-path patterns, and prepares to read its
// side-effect table.
func (l *Language) loadData() {
	dir := l.Name
	lines, _ := l.lines("testpaths.txt")
	rs, err := parseTestPaths(dir, lines)
	if err != nil {
		panic(err)
	}
	l.testPaths = rs
	l.effects = sync.OnceValue(func() *effectRules {
		lines, ok := l.lines("effects.txt")
		if !ok {
			return nil
		}
		r, err := parseEffects(dir, lines)
		if err != nil {
			panic(err)
		}
		return r
	})
}
