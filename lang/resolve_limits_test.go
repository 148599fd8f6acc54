package lang_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

// TestResolveHostileHierarchy: a member lookup over a class hierarchy
// where every class derives from many others, cycles included, ends
// (MaxDepth) and leaves the call unresolved.
func TestResolveHostileHierarchy(t *testing.T) {
	src := "class A(" + strings.Repeat("B, ", 2000) + "C): pass\nclass B(A, A, A, C, C): pass\nclass C(B, B, A): pass\n" +
		"def f(x: A):\n    x.m()\n    x.y.z.m()\n"
	_, unbound := langtest.NewTable(t, map[string][]byte{"h.py": []byte(src)}).ResolveAll()
	if want := "h.py:f -> ? x.m call unresolved"; !slices.Contains(unbound, want) {
		t.Errorf("missing %q in:\n  %s", want, strings.Join(unbound, "\n  "))
	}
}

// TestResolveSharedDepth: the rooms that follow chains of their own (a
// JavaScript name re-exported through barrel files, a C++ method
// inherited through bases) follow MaxDepth links of it and no more, the
// one limit every room shares.
func TestResolveSharedDepth(t *testing.T) {
	cases := []struct {
		name  string
		files func(n int) map[string][]byte
		want  string // the edge bound when the chain is within the limit
	}{
		{"javascript re-exports", func(n int) map[string][]byte {
			fs := map[string][]byte{"b0.js": []byte("export function target() {}\n")}
			for i := 1; i <= n; i++ {
				fs["b"+strconv.Itoa(i)+".js"] = []byte("export { target } from './b" + strconv.Itoa(i-1) + "';\n")
			}
			fs["main.js"] = []byte("import { target } from './b" + strconv.Itoa(n) + "';\nexport function run() { target(); }\n")
			return fs
		}, "main.js:run -> b0.js:target call import 0.95"},
		{"c++ bases", func(n int) map[string][]byte {
			var b strings.Builder
			b.WriteString("class C0 {\npublic:\n  void target() {}\n};\n")
			for i := 1; i <= n; i++ {
				b.WriteString("class C" + strconv.Itoa(i) + " : public C" + strconv.Itoa(i-1) + " {};\n")
			}
			b.WriteString("void run() {\n  C" + strconv.Itoa(n) + " x;\n  x.target();\n}\n")
			return map[string][]byte{"a.cpp": []byte(b.String())}
		}, "a.cpp:run -> a.cpp:C0.target call"},
	}
	for _, c := range cases {
		for _, n := range []int{lang.MaxDepth - 1, lang.MaxDepth + 2} {
			edges, _ := langtest.NewTable(t, c.files(n)).ResolveAll()
			found := slices.ContainsFunc(edges, func(e string) bool { return strings.HasPrefix(e, c.want) })
			if within := n < lang.MaxDepth; found != within {
				t.Errorf("%s, a chain of %d (MaxDepth %d): bound %v, want %v; edges:\n  %s", c.name, n, lang.MaxDepth, found, within, strings.Join(edges, "\n  "))
			}
		}
	}
}
