package lang

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQueriesCompile compiles every room's query files against the
// grammar of the room's language: a node kind or field the grammar lacks,
// or a capture sdl does not read, fails here by name and position.
func TestQueriesCompile(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("*", "*.scm"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("found %d query files, want the rooms' (scala, lua)", len(files))
	}
	for _, f := range files {
		// a room's tags.scm is its language's; a room of several
		// languages names a query file after the one it is for
		// (javascript/typescript.scm)
		l := ByName(strings.TrimSuffix(filepath.Base(f), ".scm"))
		if l == nil {
			name := filepath.Dir(f)
			if name == "golang" {
				name = "go" // Go's room is golang: go is a keyword
			}
			l = ByName(name)
		}
		if l == nil {
			t.Errorf("%s: no language %q registered (is the room imported by rooms_test.go?)", f, filepath.Dir(f))
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		q, err := CompileQuery(l, f, string(src))
		if err == nil {
			err = checkCaptures(q)
		}
		if err != nil {
			t.Errorf("%v", err)
		}
		if l.Query() == nil {
			t.Errorf("%s: language %s runs no query", f, l.Name)
		}
	}
}

// TestQueryErrors: what is wrong with a query is named, with its place.
func TestQueryErrors(t *testing.T) {
	l := ByName("lua")
	if l == nil {
		t.Skip("the lua room is not linked into this test")
	}
	for _, c := range []struct{ src, want string }{
		{"(function_declaration\n  name: (identifer) @name) @definition.function", `q.scm:2:10: node kind "identifer" is not in the grammar`},
		{"(function_declaration nam: (identifier) @name) @definition.function", `field "nam" is not in the grammar`},
		{"(function_declaration name: (identifier) @name) @definition.enum", "@definition.enum names no symbol kind"},
		{"(function_call name: (identifier) @name) @reference.calls", "@reference.calls names no reference kind"},
		{"(function_call name: (identifier) @name (#eq? @name))", "#eq? needs a capture and an argument"},
		{"(function_call name: (identifier) @name) @calls", "unknown capture @calls"},
	} {
		q, err := CompileQuery(l, "q.scm", c.src)
		if err == nil {
			err = checkCaptures(q)
		}
		if !errors.Is(err, ErrQuery) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an ErrQuery saying %s", c.src, err, c.want)
		}
	}
}

// TestQueryRoots: a query that runs from its roots (Spec.QueryRoots) may
// not hold a pattern that starts elsewhere, which would never match, nor
// name a root the grammar lacks.
func TestQueryRoots(t *testing.T) {
	l := ByName("lua")
	if l == nil {
		t.Skip("the lua room is not linked into this test")
	}
	roots := []string{"chunk", "function_declaration"}
	for _, c := range []struct {
		src   string
		roots []string
		want  string
	}{
		{"(function_declaration name: (identifier) @name) @definition.function\n\n(function_call name: (identifier) @name) @reference.call",
			roots, `q.scm:3:1: a pattern starts at "function_call", not at a query root`},
		{"(function_declaration name: (identifier) @name) @definition.function", []string{"chunk", "function_definiton"},
			`query root "function_definiton" is not in the grammar`},
	} {
		q, err := CompileQuery(l, "q.scm", c.src)
		if err != nil {
			t.Fatal(err)
		}
		err = q.setRoots(l, "q.scm", c.src, c.roots)
		if !errors.Is(err, ErrQuery) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an ErrQuery saying %s", c.src, err, c.want)
		}
	}
	src := "(chunk (function_declaration name: (identifier) @name) @definition.function)"
	q, err := CompileQuery(l, "q.scm", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.setRoots(l, "q.scm", src, roots); err != nil {
		t.Errorf("a pattern rooted at chunk: %v", err)
	}
}

// TestQueryPredicates: #eq?, #not-eq?, #match? and #any-of? filter
// matches by their captures' text, which tree-sitter leaves to sdl.
func TestQueryPredicates(t *testing.T) {
	l := ByName("lua")
	if l == nil {
		t.Skip("the lua room is not linked into this test")
	}
	src := "require('a')\nprint(1)\nfoo(2)\nbar(3)\n"
	for _, c := range []struct{ pred, want string }{
		{`(#eq? @name "print")`, "print"},
		{`(#not-eq? @name "require")`, "print foo bar"},
		{`(#match? @name "^[fb]")`, "foo bar"},
		{`(#any-of? @name "foo" "require")`, "require foo"},
		{`(#not-any-of? @name "foo" "require")`, "print bar"},
	} {
		q, err := CompileQuery(l, "q.scm", "(function_call name: (identifier) @name "+c.pred+")")
		if err != nil {
			t.Fatal(err)
		}
		saved := l.Query() // compiled now, so that Parse runs q instead
		l.query = q
		p := NewParser()
		tr, err := p.Parse(l, []byte(src))
		l.query = saved
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range tr.Matches {
			got = append(got, tr.Text(m.Node("name")))
		}
		p.Close()
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: matched %q, want %q", c.pred, got, c.want)
		}
	}
}

// FuzzTagsExtract: the query-driven extractor over arbitrary bytes as
// each language that has a query must not panic and returns well-formed
// facts, every match capturing a node of the tree.
func FuzzTagsExtract(f *testing.F) {
	f.Add(uint8(0), "local M = {}\nfunction M.f(a) return M.g(a) end\nfunction M:h() self:f() end\nreturn M\n")
	f.Add(uint8(1), "package a\nimport b.{C => D, _}\nclass E extends F with G { def h(i: D): Int = i.j(new K()) }\n")
	f.Add(uint8(1), "object { def (((")
	f.Fuzz(func(t *testing.T, which uint8, src string) {
		var langs []*Language
		for _, l := range All() {
			if l.Query() != nil {
				langs = append(langs, l)
			}
		}
		if len(langs) == 0 || len(src) > 1<<16 {
			return
		}
		l := langs[int(which)%len(langs)]
		p := NewParser()
		defer p.Close()
		tr, err := p.Parse(l, []byte(src))
		if err != nil {
			return
		}
		for _, m := range tr.Matches {
			for _, c := range m.Captures {
				if c.Node < 0 || c.Node >= tr.Len() {
					t.Fatalf("capture %s of node %d outside the tree of %d", c.Name, c.Node, tr.Len())
				}
			}
		}
		checkFacts(t, ExtractTree(tr, "dir/file"+l.Extensions[0]), src)
	})
}
