package lang_test

import (
	"slices"
	"strings"
	"testing"

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
