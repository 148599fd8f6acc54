// Package langtest holds what the tests of the language rooms
// (lang/<language>) share, so that a new room's tests do not copy them.
package langtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
)

// Extract extracts src as the language its path names, and fails t on an
// error, a fault or a parse error: a room's test inputs are valid code.
func Extract(t testing.TB, path, src string) *lang.FileFacts {
	t.Helper()
	f := ExtractBroken(t, path, src)
	if len(f.Faults) > 0 || len(f.Errors) > 0 {
		t.Fatalf("%s: faults %v, errors %v", path, f.Faults, f.Errors)
	}
	return f
}

// ExtractBroken extracts src as the language its path names and fails t
// only on an error: for inputs that are broken on purpose, whose parse
// errors and faults the test itself checks.
func ExtractBroken(t testing.TB, path, src string) *lang.FileFacts {
	t.Helper()
	l := lang.ForPath(path)
	if l == nil {
		t.Fatalf("%s: no language", path)
	}
	p := lang.NewParser()
	defer p.Close()
	f, err := lang.Extract(p, l, path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Sym finds the symbol of a qualified name (not the file's module), and
// fails t, listing the symbols, when there is none.
func Sym(t testing.TB, f *lang.FileFacts, qualified string) *lang.Symbol {
	t.Helper()
	for i := 1; i < len(f.Symbols); i++ {
		if f.Symbols[i].Qualified() == qualified {
			return &f.Symbols[i]
		}
	}
	var have []string
	for _, s := range f.Symbols {
		have = append(have, s.Kind+" "+s.Qualified())
	}
	t.Fatalf("no symbol %s; have %v", qualified, have)
	return nil
}

// Symbols renders a file's symbols, but its module, as "kind qualified
// visibility".
func Symbols(f *lang.FileFacts) []string {
	var out []string
	for _, s := range f.Symbols[1:] {
		out = append(out, s.Kind+" "+s.Qualified()+" "+s.Visibility)
	}
	return out
}

// Imports renders a file's imports as "source alias=A names=a,b as c@line".
func Imports(f *lang.FileFacts) []string {
	var out []string
	for _, imp := range f.Imports {
		s := imp.Source
		if imp.Alias != "" {
			s += " alias=" + imp.Alias
		}
		if len(imp.Names) > 0 {
			var ns []string
			for _, n := range imp.Names {
				if n.Alias != "" {
					ns = append(ns, n.Name+" as "+n.Alias)
				} else {
					ns = append(ns, n.Name)
				}
			}
			s += " names=" + strings.Join(ns, ",")
		}
		out = append(out, fmt.Sprintf("%s@%d", s, imp.Line))
	}
	return out
}

// Refs renders a file's references, one string each:
// "from kind qualifier.name [type] {call}", from "<module>" for the file.
func Refs(f *lang.FileFacts) []string {
	var out []string
	for _, r := range f.Refs {
		from := "-"
		if r.Symbol >= 0 && r.Symbol < len(f.Symbols) {
			from = f.Symbols[r.Symbol].Qualified()
			if r.Symbol == 0 {
				from = "<module>"
			}
		}
		s := from + " " + r.Kind + " "
		if r.Qualifier != "" {
			s += r.Qualifier + "."
		}
		s += r.Name
		if r.QualifierType != "" {
			s += " [" + r.QualifierType + "]"
		}
		if r.QualifierCall != "" {
			s += " {" + r.QualifierCall + "}"
		}
		out = append(out, s)
	}
	return out
}

// FactTexts renders a symbol's invariants or side effects as "kind: text".
func FactTexts(fs []lang.Fact) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind+": "+f.Text)
	}
	return out
}

// WantAll fails t for each wanted string that have lacks.
func WantAll(t testing.TB, have []string, want ...string) {
	t.Helper()
	set := map[string]bool{}
	for _, h := range have {
		set[h] = true
	}
	for _, w := range want {
		if !set[w] {
			t.Errorf("missing %q in:\n  %s", w, strings.Join(have, "\n  "))
		}
	}
}
