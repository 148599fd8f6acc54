// Package langtest holds what the tests of the language rooms
// (lang/<language>) share, so that a new room's tests do not copy them.
package langtest

import (
	"testing"

	"github.com/sdl-dev/sdl/lang"
)

// Extract extracts src as the language its path names, and fails t on an
// error, a fault or a parse error: a room's test inputs are valid code.
func Extract(t testing.TB, path, src string) *lang.FileFacts {
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
	if len(f.Faults) > 0 || len(f.Errors) > 0 {
		t.Fatalf("%s: faults %v, errors %v", path, f.Faults, f.Errors)
	}
	return f
}
