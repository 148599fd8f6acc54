package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The SCIP fixture is produced from testdata/scip/typescript with
//
//	cd testdata/scip/typescript && npx @sourcegraph/scip-typescript@0.4.0 index --output ../typescript.scip
//
// (make scip-fixtures).

// TestSCIPImport imports the committed SCIP index of a small TypeScript
// project and checks that it upgrades, adds and points edges at leaves.
func TestSCIPImport(t *testing.T) {
	root := filepath.Join("..", "testdata", "scip", "typescript")
	run := func(scip ...string) (string, *Summary) {
		db := filepath.Join(t.TempDir(), "index.db")
		opts := testOptions(root, db)
		opts.SCIP = scip
		sum, err := Run(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return string(dump(t, db, "edges")), sum
	}
	heur, _ := run()
	got, sum := run(filepath.Join("..", "testdata", "scip", "typescript.scip"))
	if sum.SCIP == nil || sum.SCIP.Documents != 2 || sum.SCIP.Upgraded == 0 || sum.SCIP.External != 3 {
		t.Errorf("summary %+v", sum.SCIP)
	}
	for _, c := range []struct{ heuristic, scip string }{
		// s is a Square, proven by the checker; the heuristics cannot choose
		{"src/main.ts:largest call s.area -> ? [ambiguous", "src/main.ts:largest call s.area -> src/shapes.ts:Square.area [scip 1"},
		{"src/main.ts:largest call best.area -> ? [ambiguous", "src/main.ts:largest call best.area -> src/shapes.ts:Square.area [scip 1"},
		{"src/shapes.ts:total call s.area -> ? [ambiguous", "src/shapes.ts:total call s.area -> src/shapes.ts:Shape.area [scip 1"},
		// constructors are the class
		{"src/main.ts:main new Square -> src/shapes.ts:Square [import", "src/main.ts:main new Square -> src/shapes.ts:Square [scip 1"},
		{"src/shapes.ts:Circle implements Shape -> src/shapes.ts:Shape [same_file", "src/shapes.ts:Circle implements Shape -> src/shapes.ts:Shape [scip 1"},
		// external symbols are leaf nodes
		{"src/main.ts:main call console.log -> ? [external", "src/main.ts:main call console.log -> scip:typescript:log [scip 1"},
		// a reference that is not a call
		{"", "src/main.ts:largest ref Square -> src/shapes.ts:Square [scip 1"},
	} {
		if c.heuristic != "" && !strings.Contains(heur, c.heuristic) {
			t.Errorf("heuristics: no %q in\n%s", c.heuristic, heur)
		}
		if !strings.Contains(got, c.scip) {
			t.Errorf("scip: no %q in\n%s", c.scip, got)
		}
	}
	// the import statement's mentions are not ref edges of the module
	if strings.Contains(got, "src/main.ts:main ref") {
		t.Errorf("module-level ref edges from the import line:\n%s", got)
	}
}

func TestSCIPBadFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.scip")
	if err := os.WriteFile(bad, []byte("\x0a\xff\xff\xff\xff\x0fnot protobuf"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{bad, filepath.Join(t.TempDir(), "missing.scip")} {
		db := filepath.Join(t.TempDir(), "index.db")
		opts := testOptions(filepath.Join("..", "testdata", "scip", "typescript"), db)
		opts.SCIP = []string{f}
		if _, err := Run(context.Background(), opts); !errors.Is(err, ErrSCIP) {
			t.Errorf("%s: err = %v, want ErrSCIP", f, err)
		}
		if _, err := os.Stat(db); err == nil {
			t.Errorf("%s: a failed import left an index", f)
		}
	}
}

// FuzzReadSCIP feeds arbitrary bytes to the SCIP reader: an error, never a
// panic.
func FuzzReadSCIP(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("..", "testdata", "scip", "typescript.scip"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte("\x12\x05hello"))
	root := filepath.Join("..", "testdata", "scip", "typescript")
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "f.scip")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		sum := &SCIPSummary{}
		_ = readSCIP(context.Background(), dirTree{root}, file, func(string) bool { return true }, sum,
			map[string][2]any{}, map[string][]scipRef{}, map[string]string{}, map[string]string{})
	})
}
