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

func goBuildConfig(t GoTarget) map[string][]string {
	return map[string][]string{ConfigGoTarget: t.Config()}
}

// variantRepo defines helper, open and Flags.Name twice each: once for
// windows, once for every other target, by //go:build line and by file
// name; its callers live in a plain file and in the windows variants.
var variantRepo = map[string]string{
	"p/a_tag.go":      "//go:build !windows\n\npackage p\n\nfunc helper() int { return 1 }\n",
	"p/a_win.go":      "//go:build windows\n\npackage p\n\nfunc helper() int { return 2 }\n\nfunc winOnly() { helper() }\n",
	"p/x_linux.go":    "package p\n\ntype Flags struct{}\n\nfunc (Flags) Name() string { return \"l\" }\n\nfunc open() error { return nil }\n",
	"p/x_windows.go":  "package p\n\ntype Flags struct{}\n\nfunc (Flags) Name() string { return \"w\" }\n\nfunc open() error { helper(); return nil }\n",
	"p/use.go":        "package p\n\nfunc Use() {\n\thelper()\n\topen()\n\tvar f Flags\n\tf.Name()\n}\n",
	"q/q.go":          "package q\n\nimport \"example.com/m/p\"\n\nfunc Q() { p.Exported() }\n",
	"p/exp_darwin.go": "package p\n\nfunc Exported() {}\n",
	"p/exp_other.go":  "//go:build !darwin\n\npackage p\n\nfunc Exported() {}\n",
}

func TestGoResolveBuildVariants(t *testing.T) {
	cfg := goBuildConfig(linuxTarget())
	tab, facts := newMoreTestTable(t, "go", variantRepo, cfg)
	tab.project = map[string]Project{ProjectGoModules: GoModules{{Dir: ".", Path: "example.com/m"}}}
	wantAll(t, tab.resolveAll(facts),
		// a caller compiled for linux binds the linux variants, as surely
		// as a name defined once
		"p/use.go: Use call helper -> p/a_tag.go:helper (same_package)",
		"p/use.go: Use call open -> p/x_linux.go:open (same_package)",
		"p/use.go: Use call f.Name -> p/x_linux.go:Flags.Name (receiver)",
		"q/q.go: Q call p.Exported -> p/exp_other.go:Exported (import)",
		// the windows files are indexed and their calls bind the windows
		// variants
		"p/a_win.go: winOnly call helper -> p/a_win.go:helper (same_file)",
		"p/x_windows.go: open call helper -> p/a_win.go:helper (same_package)",
	)
	for p, f := range facts {
		if got, want := f.Build != "", p != "p/use.go" && p != "q/q.go"; got != want {
			t.Errorf("%s: Build %q", p, f.Build)
		}
	}
}

func TestGoResolveBuildVariantsOtherTarget(t *testing.T) {
	cfg := goBuildConfig(linuxTarget().WithPlatform("windows", "arm64"))
	tab, facts := newMoreTestTable(t, "go", variantRepo, cfg)
	tab.project = map[string]Project{ProjectGoModules: GoModules{{Dir: ".", Path: "example.com/m"}}}
	wantAll(t, tab.resolveAll(facts),
		"p/use.go: Use call helper -> p/a_win.go:helper (same_package)",
		"p/use.go: Use call open -> p/x_windows.go:open (same_package)",
		"p/use.go: Use call f.Name -> p/x_windows.go:Flags.Name (receiver)",
		"p/x_windows.go: open call helper -> p/a_win.go:helper (same_package)",
	)
}

// Without constraints the two definitions stay ambiguous: the preference
// comes from the constraints alone.
func TestGoResolveNoConstraintStaysAmbiguous(t *testing.T) {
	tab, facts := newMoreTestTable(t, "go", map[string]string{
		"p/a.go":   "package p\n\nfunc helper() int { return 1 }\n",
		"p/b.go":   "package p\n\nfunc helper() int { return 2 }\n",
		"p/use.go": "package p\n\nfunc Use() { helper() }\n",
	}, goBuildConfig(linuxTarget()))
	wantAll(t, tab.resolveAll(facts), "p/use.go: Use call helper -> ? (ambiguous)")
}

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
