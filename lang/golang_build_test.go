package lang

import (
	"go/build"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// linuxTarget is a fixed target, so that the tests do not depend on the
// machine that runs them.
func linuxTarget() GoTarget { return DefaultGoTarget().WithPlatform("linux", "amd64") }

func TestGoBuildConstraint(t *testing.T) {
	for _, c := range []struct{ path, src, want string }{
		{"a.go", "package a\n", ""},
		{"a.go", "// Copyright\n\n//go:build linux && !cgo\n\n// Package a.\npackage a\n", "linux && !cgo"},
		{"a.go", "// +build linux darwin\n// +build amd64\n\npackage a\n", "(linux || darwin) && amd64"},
		{"a.go", "//go:build windows\n// +build linux\n\npackage a\n", "windows"},
		{"a.go", "/* a\nblock */\n//go:build plan9\npackage a\n", "plan9"},
		{"a.go", "package a\n\n//go:build windows\n", ""}, // after the package clause: no constraint
		{"x_windows.go", "package a\n", "windows"},
		{"x_windows_arm64_test.go", "package a\n", "windows && arm64"},
		{"x_arm64.go", "//go:build !purego\n\npackage a\n", "!purego && arm64"},
		{"windows.go", "package a\n", ""}, // the part before the first _ never counts
		{"x_unix.go", "package a\n", ""},  // unix is no GOOS
		{"x_test.go", "package a\n", ""},
	} {
		if got := GoBuildConstraint(c.path, []byte(c.src), false); got != c.want {
			t.Errorf("GoBuildConstraint(%s, %q) = %q, want %q", c.path, c.src, got, c.want)
		}
	}
	if got := GoBuildConstraint("c.go", []byte("package c\n"), true); got != "cgo" {
		t.Errorf("a file importing C: %q, want cgo", got)
	}
}

// The constraint and the target decide as go/build does, on every file of
// the standard library.
func TestGoBuildMatchesGoBuild(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no GOROOT/src")
	}
	ctxt := build.Default
	target := DefaultGoTarget()
	set := target.tagSet()
	files, differ := 0, 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		want, err := ctxt.MatchFile(filepath.Dir(p), name)
		if err != nil {
			return nil // a file go/build cannot read: not ours to judge
		}
		files++
		expr := GoBuildConstraint(name, src, strings.Contains(string(src), "import \"C\""))
		got := true
		if expr != "" {
			got = goMatch(goExpr(expr), set)
		}
		if got != want {
			differ++
			if differ <= 10 {
				t.Errorf("%s: constraint %q: compiled %v, go/build says %v", p, expr, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 1000 {
		t.Fatalf("only %d files checked", files)
	}
	if differ > 0 {
		t.Errorf("%d of %d files differ", differ, files)
	}
}

// A file excluded for the target resolves under a target that compiles
// it, close to the default.
func TestGoFileTarget(t *testing.T) {
	def := linuxTarget()
	for _, c := range []struct {
		expr string
		want []string // tags the found target has
		not  []string // and does not have
	}{
		{"windows", []string{"windows", "amd64"}, []string{"linux", "unix"}},
		{"!unix", []string{"windows"}, []string{"linux"}},
		{"darwin && arm64 && !cgo", []string{"darwin", "arm64", "unix"}, []string{"cgo", "amd64"}},
		{"goexperiment.jsonv2", []string{"goexperiment.jsonv2", "linux"}, nil},
		{"ignore", []string{"ignore", "linux"}, nil},
	} {
		s := goFileTarget(def, goExpr(c.expr))
		if s == nil {
			t.Errorf("%s: no target", c.expr)
			continue
		}
		for _, tag := range c.want {
			if !s[tag] {
				t.Errorf("%s: target %s lacks %s", c.expr, tagKey(s), tag)
			}
		}
		for _, tag := range c.not {
			if s[tag] {
				t.Errorf("%s: target %s has %s", c.expr, tagKey(s), tag)
			}
		}
	}
	if s := goFileTarget(def, goExpr("linux && windows")); s != nil {
		t.Errorf("an unsatisfiable constraint found %s", tagKey(s))
	}
}
