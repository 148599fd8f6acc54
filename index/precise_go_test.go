package index

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoPrecise indexes a module whose calls the heuristics get wrong or
// cannot decide, with precise mode and without, and checks each edge.
func TestGoPrecise(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	root := filepath.Join("..", "testdata", "repos", "gotypes")
	edgesWith := func(mode string) string {
		db := filepath.Join(t.TempDir(), "index.db")
		opts := testOptions(root, db)
		opts.GoPrecise = mode
		sum, err := Run(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if mode == PreciseOn && (sum.PreciseGo != 5 || sum.PreciseGoFailed != 1) {
			t.Errorf("type-checked %d packages, %d failed; want 5 and 1", sum.PreciseGo, sum.PreciseGoFailed)
		}
		return string(dump(t, db, "edges"))
	}
	heur := edgesWith(PreciseOff)
	prec := edgesWith(PreciseOn)
	for _, c := range []struct{ heuristic, precise string }{
		// an inner d (a *cat.Cat) shadows the outer one (a *dog.Dog)
		{"main call d.Feed -> cat/cat.go:Cat.Feed [receiver", "main call d.Feed -> dog/dog.go:Dog.Feed [types 1"},
		// a parameter shadows the package's New: the heuristics see the
		// parameter too
		{"Apply call New -> ? [dynamic", "Apply call New -> ? [dynamic"},
		// an interface call through a slice element and a map value
		{"main call a.Speak -> ? [ambiguous", "main call a.Speak -> animal/animal.go:Speaker.Speak [types 1"},
		{`main call kennel["rex"].Feed -> ? [ambiguous`, `main call kennel["rex"].Feed -> dog/dog.go:Dog.Feed [types 1`},
		// a method of strings.Builder, outside the tree: the heuristics know
		// the field k.log is of another package
		{"main call k.log.String -> ? [external", "main call k.log.String -> ? [external"},
		// a local function variable named like a function of the tree
		{"main call Describe -> ? [dynamic", "main call Describe -> ? [dynamic"},
		{"", "main ref Speak -> dog/dog.go:Dog.Speak [types 1"},
		{"", "cat/cat.go:Cat implements animal.Speaker -> animal/animal.go:Speaker [types 1"},
		{"", "cat/cat.go:Cat implements animal.Feeder -> animal/animal.go:Feeder [types 1"},
		{"", "dog/dog.go:Dog implements animal.Speaker -> animal/animal.go:Speaker [types 1"},
		{"", "main import example.com/zoo/cat -> cat/cat.go:cat [types 1"},
		// broken/ does not type-check: the heuristics decide its file
		{"broken/broken.go:Bad call helper -> broken/broken.go:helper [same_file", "broken/broken.go:Bad call helper -> broken/broken.go:helper [same_file"},
	} {
		if c.heuristic != "" && !strings.Contains(heur, c.heuristic) {
			t.Errorf("heuristic mode: no edge %q in\n%s", c.heuristic, heur)
		}
		if !strings.Contains(prec, c.precise) {
			t.Errorf("precise mode: no edge %q in\n%s", c.precise, prec)
		}
	}
	// no implements edge between two interfaces or from a type that lacks a method
	if strings.Contains(prec, "Speaker implements") || strings.Contains(prec, "keeper implements") {
		t.Errorf("spurious implements edge:\n%s", prec)
	}
}

// TestGoHeuristicRules covers two resolution rules the accuracy report
// asked for: a tree inside a module learns its import path prefix from the
// go.mod above it, and code outside _test.go files never binds to
// declarations of test files.
func TestGoHeuristicRules(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.22\n")
	writeFile(t, dir, "sub/a/a.go", "package a\n\n// Hello greets.\nfunc Hello() string { return \"hi\" }\n")
	writeFile(t, dir, "sub/b/b.go", "package b\n\nimport \"example.com/m/sub/a\"\n\n// Use calls a.\nfunc Use(m map[string]fake) string { m[\"x\"].Probe(); return a.Hello() }\n\ntype fake interface{}\n")
	writeFile(t, dir, "sub/b/b_test.go", "package b\n\ntype tester struct{}\n\nfunc (tester) Probe() {}\n")
	db := filepath.Join(t.TempDir(), "index.db")
	opts := testOptions(filepath.Join(dir, "sub"), db)
	opts.GoPrecise = PreciseOff
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	edges := string(dump(t, db, "edges"))
	if !strings.Contains(edges, "b/b.go:Use call a.Hello -> a/a.go:Hello [import") {
		t.Errorf("the import through the go.mod above the root is not resolved:\n%s", edges)
	}
	if strings.Contains(edges, "-> b/b_test.go:tester.Probe") {
		t.Errorf("non-test code bound to a test file's method:\n%s", edges)
	}
}

// TestGoPreciseOrder checks the order precise mode type-checks a module's
// packages in: a chain of packages, each seeing the types of the one it
// imports from the export data sdl wrote after checking it, a type
// declared in one package reached through another's exported function,
// and an import cycle, which must neither hang the run nor leave the
// packages outside it without facts.
func TestGoPreciseOrder(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.22\n")
	writeFile(t, dir, "a/a.go", "package a\n\ntype Conn struct{}\n\nfunc (c *Conn) Close() error { return nil }\n")
	writeFile(t, dir, "b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nfunc Dial() *a.Conn { return &a.Conn{} }\n")
	writeFile(t, dir, "c/c.go", "package c\n\nimport \"example.com/m/b\"\n\nfunc Run() error { return b.Dial().Close() }\n")
	writeFile(t, dir, "x/x.go", "package x\n\nimport \"example.com/m/y\"\n\nfunc X() { y.Y() }\n")
	writeFile(t, dir, "y/y.go", "package y\n\nimport \"example.com/m/x\"\n\nfunc Y() { x.X() }\n")
	db := filepath.Join(t.TempDir(), "index.db")
	opts := testOptions(dir, db)
	opts.GoPrecise = PreciseOn
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	// go list reports the cycle on one of its packages and lists no files
	// for either
	if sum.PreciseGo != 4 || sum.PreciseGoFailed != 1 {
		t.Errorf("type-checked %d packages, %d failed; want 4 and 1 (the cycle)", sum.PreciseGo, sum.PreciseGoFailed)
	}
	edges := string(dump(t, db, "edges"))
	for _, want := range []string{
		"c/c.go:Run call b.Dial().Close -> a/a.go:Conn.Close [types 1",
		"c/c.go:Run call b.Dial -> b/b.go:Dial [types 1",
		"b/b.go:Dial new a.Conn -> a/a.go:Conn [types 1",
		// the heuristics decide the cycle's calls
		"x/x.go:X call y.Y -> y/y.go:Y [import",
	} {
		if !strings.Contains(edges, want) {
			t.Errorf("no edge %q in\n%s", want, edges)
		}
	}
}

// TestGoPreciseIncremental checks that an incremental run type-checks only
// the changed package when what it offers its importers is unchanged, and
// the packages that may depend on it when that changed, and that either
// way the edges are those of a full build of the same files.
func TestGoPreciseIncremental(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	ctx := context.Background()
	dir := t.TempDir()
	writeFile(t, dir, "go.mod", "module example.com/m\n\ngo 1.22\n")
	writeFile(t, dir, "i/i.go", "package i\n\ntype Closer interface{ Close() error }\n")
	conn := "package a\n\ntype Conn struct{}\n\nfunc (c *Conn) Close() error { return nil }\n"
	writeFile(t, dir, "a/a.go", conn)
	writeFile(t, dir, "b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nfunc Dial() *a.Conn { return &a.Conn{} }\n")
	writeFile(t, dir, "c/c.go", "package c\n\nimport \"example.com/m/b\"\n\nfunc Run() error { return b.Dial().Close() }\n")
	writeFile(t, dir, "d/d.go", "package d\n\nfunc Alone() {}\n")
	db := filepath.Join(t.TempDir(), "index.db")
	run := func(root, db string) *Summary {
		t.Helper()
		opts := testOptions(root, db)
		opts.GoPrecise = PreciseOn
		sum, err := Run(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	run(dir, db)
	for _, step := range []struct {
		name, content string
		checked       int
	}{
		// a body edit that moves lines: only package a is checked again
		{"body", "package a\n\nimport \"errors\"\n\n// Conn is a connection.\ntype Conn struct{}\n\nfunc (c *Conn) Close() error { return errors.New(\"closed\") }\n", 1},
		// Close renamed: b and c (through b) may see a different a
		{"api", "package a\n\ntype Conn struct{}\n\nfunc (c *Conn) Shutdown() error { return nil }\n", 5},
	} {
		writeFile(t, dir, "a/a.go", step.content)
		sum := run(dir, db)
		if sum.PreciseGo != step.checked {
			t.Errorf("%s: type-checked %d packages, want %d", step.name, sum.PreciseGo, step.checked)
		}
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		run(dir, fresh)
		if got, want := string(dump(t, db, "edges")), string(dump(t, fresh, "edges")); got != want {
			t.Errorf("%s: incremental edges differ from a full build's:\n%s", step.name, lineDiff(want, got))
		}
		if step.name == "body" && !strings.Contains(string(dump(t, db, "edges")), "a/a.go:Conn implements i.Closer -> i/i.go:Closer [types 1") {
			t.Errorf("%s: the implements edge to another package's interface is lost:\n%s", step.name, dump(t, db, "edges"))
		}
	}
}

// TestGoPreciseUpgrade checks that the default indexes a Go module with the
// heuristics, that --precise on then upgrades it in place (a new version
// whose edges are those of a precise build of the same files), that the
// default keeps the mode the index holds, and that --precise off goes back
// to the heuristics' edges, all in one ledger.
func TestGoPreciseUpgrade(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	ctx := context.Background()
	root := filepath.Join("..", "testdata", "repos", "gotypes")
	run := func(db, mode string) *Summary {
		t.Helper()
		opts := testOptions(root, db)
		opts.GoPrecise = mode
		sum, err := Run(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	fresh := func(mode string) string {
		db := filepath.Join(t.TempDir(), "fresh.db")
		run(db, mode)
		return string(dump(t, db, "edges"))
	}
	db := filepath.Join(t.TempDir(), "index.db")
	for _, step := range []struct {
		mode    string
		seq     int64
		checked int    // packages type-checked
		like    string // the full build whose edges the index holds
	}{
		{PreciseAuto, 1, 0, PreciseOff}, // the first index waits for no go command
		{PreciseOn, 2, 5, PreciseOn},    // upgraded: a new version
		{PreciseOn, 2, 0, PreciseOn},    // nothing left to check
		{PreciseAuto, 2, 0, PreciseOn},  // the index keeps its mode
		{PreciseOff, 3, 0, PreciseOff},  // back to the heuristics
		{PreciseAuto, 3, 0, PreciseOff},
	} {
		sum := run(db, step.mode)
		if sum.Rebuilt || sum.Seq != step.seq || sum.Versions != step.seq || sum.PreciseGo != step.checked {
			t.Errorf("--precise %q: v%d of %d versions (rebuilt %v), %d packages checked; want v%d, none rebuilt, %d checked",
				step.mode, sum.Seq, sum.Versions, sum.Rebuilt, sum.PreciseGo, step.seq, step.checked)
		}
		if got, want := string(dump(t, db, "edges")), fresh(step.like); got != want {
			t.Errorf("--precise %q: edges differ from a full build with %q:\n%s", step.mode, step.like, lineDiff(want, got))
		}
	}

	// a package of generated files only is not indexed, so never checked:
	// the runs after an upgrade do not try again
	gen := t.TempDir()
	writeFile(t, gen, "go.mod", "module example.com/g\n\ngo 1.22\n")
	writeFile(t, gen, "a/a.go", "package a\n\nfunc A() { B() }\n\nfunc B() {}\n")
	writeFile(t, gen, "pb/pb.go", "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage pb\n\nfunc P() {}\n")
	db = filepath.Join(t.TempDir(), "gen.db")
	for i, mode := range []string{PreciseOff, PreciseOn, PreciseAuto, PreciseOn} {
		opts := testOptions(gen, db)
		opts.GoPrecise = mode
		sum, err := Run(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if want := min(i+1, 2); sum.Seq != int64(want) || i > 1 && sum.PreciseGo != 0 {
			t.Errorf("generated package, run %d (%q): v%d, %d packages checked; want v%d, none after the upgrade",
				i+1, mode, sum.Seq, sum.PreciseGo, want)
		}
	}

	// Go files outside any module: nothing to type-check, no empty version
	dir := t.TempDir()
	writeFile(t, dir, "a.go", "package a\n\nfunc A() { B() }\n\nfunc B() {}\n")
	db = filepath.Join(t.TempDir(), "loose.db")
	for i := 0; i < 2; i++ {
		opts := testOptions(dir, db)
		opts.GoPrecise = PreciseOn
		sum, err := Run(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Seq != 1 {
			t.Errorf("a tree without go.mod, run %d: v%d, want v1", i+1, sum.Seq)
		}
	}
}
