package main

import (
	"os"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestInstallableAtVersion guards the README's install path: `go install
// github.com/sdl-dev/sdl/cmd/sdl@VERSION` refuses a module whose go.mod has
// a replace or exclude directive (go help install), though every build in
// this checkout would still pass.
func TestInstallableAtVersion(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Replace {
		t.Errorf("go.mod:%d: replace %s: go install ...@VERSION would refuse the module", r.Syntax.Start.Line, r.Old.Path)
	}
	for _, x := range f.Exclude {
		t.Errorf("go.mod:%d: exclude %s: go install ...@VERSION would refuse the module", x.Syntax.Start.Line, x.Mod.Path)
	}
}
