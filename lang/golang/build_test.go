package golang

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

// linuxTarget is a fixed target, so that the tests do not depend on the
// machine that runs them.
func linuxTarget() lang.GoTarget { return lang.DefaultGoTarget().WithPlatform("linux", "amd64") }

// newTable is a table over a few Go files, compiled for target.
func newTable(t *testing.T, files map[string]string, target lang.GoTarget) (*langtest.Table, map[string]*lang.FileFacts) {
	t.Helper()
	srcs := map[string][]byte{}
	for p, src := range files {
		srcs[p] = []byte(src)
	}
	tab := langtest.NewTable(t, srcs)
	tab.SetConfig(lang.ConfigGoTarget, target.Config())
	return tab, tab.Facts
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
	tab, facts := newTable(t, variantRepo, linuxTarget())
	tab.SetProject(lang.ProjectGoModules, lang.GoModules{{Dir: ".", Path: "example.com/m"}})
	langtest.WantAll(t, resolveAll(tab, facts),
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
	tab, facts := newTable(t, variantRepo, linuxTarget().WithPlatform("windows", "arm64"))
	tab.SetProject(lang.ProjectGoModules, lang.GoModules{{Dir: ".", Path: "example.com/m"}})
	langtest.WantAll(t, resolveAll(tab, facts),
		"p/use.go: Use call helper -> p/a_win.go:helper (same_package)",
		"p/use.go: Use call open -> p/x_windows.go:open (same_package)",
		"p/use.go: Use call f.Name -> p/x_windows.go:Flags.Name (receiver)",
		"p/x_windows.go: open call helper -> p/a_win.go:helper (same_package)",
	)
}

// Without constraints the two definitions stay ambiguous: the preference
// comes from the constraints alone.
func TestGoResolveNoConstraintStaysAmbiguous(t *testing.T) {
	tab, facts := newTable(t, map[string]string{
		"p/a.go":   "package p\n\nfunc helper() int { return 1 }\n",
		"p/b.go":   "package p\n\nfunc helper() int { return 2 }\n",
		"p/use.go": "package p\n\nfunc Use() { helper() }\n",
	}, linuxTarget())
	langtest.WantAll(t, resolveAll(tab, facts), "p/use.go: Use call helper -> ? (ambiguous)")
}

// resolveAll resolves every reference and import of the files and renders
// each as "path: from kind qualifier.name -> target (rule)".
func resolveAll(tab *langtest.Table, facts map[string]*lang.FileFacts) []string {
	var out []string
	render := func(res lang.Resolution) string {
		if res.Target == nil {
			return "? (" + res.Rule + ")"
		}
		tq := res.Target.Qualified()
		if fi := tab.Files[res.Target.Path]; fi != nil && fi.ModuleID == res.Target.ID {
			tq = "<module>"
		}
		return res.Target.Path + ":" + tq + " (" + res.Rule + ")"
	}
	for p, f := range facts {
		l := lang.ByName(f.Lang)
		ctx := &lang.Context{File: tab.Files[p], Table: tab}
		for i := range f.Imports {
			imp := &f.Imports[i]
			for _, n := range imp.Resolved() {
				out = append(out, strings.TrimSpace(fmt.Sprintf("%s: import %s %s", p, imp.Source, n))+" -> "+render(l.ResolveImport(ctx, imp, n)))
			}
		}
		for i := range f.Refs {
			r := &f.Refs[i]
			s := r.Symbol
			if s < 0 || s >= len(f.Symbols) {
				s = 0
			}
			ctx.From = langtest.Target(p, f, s)
			q := r.Name
			if r.Qualifier != "" {
				q = r.Qualifier + "." + r.Name
			}
			from := f.Symbols[s].Qualified()
			if s == 0 {
				from = "<module>"
			}
			out = append(out, fmt.Sprintf("%s: %s %s %s -> %s", p, from, r.Kind, q, render(l.Resolve(ctx, r))))
		}
	}
	sort.Strings(out)
	return out
}
