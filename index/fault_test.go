package index

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// TestFaultsAreRecorded injects a panic and an endless recursion into the
// resolver and a panic into the extraction of one file each: the run
// finishes with a complete version, each fault is recorded on its file
// with the stage, and the files keep what was indexed before the fault.
// An incremental run keeps them, and records them again for a file it
// parses again.
func TestFaultsAreRecorded(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "util.py", "def helper():\n    return 1\n")
	writeFile(t, root, "fault_boom.py", "from util import helper\n\n\ndef first():\n    return helper()\n\n\n"+
		"def explode():\n    return 2\n\n\ndef caller():\n    explode()\n    return helper()\n")
	writeFile(t, root, "fault_deep.py", "def recurse():\n    return recurse_more()\n\n\ndef recurse_more():\n    return 1\n")
	writeFile(t, root, "fault_broken.py", "def lost():\n    return 3\n")

	var explosions atomic.Int32
	lang.ResolveHook = func(ctx *lang.Context, r *lang.Ref) {
		switch {
		case ctx.File.Path == "fault_boom.py" && r.Name == "explode":
			explosions.Add(1)
			panic("injected")
		case ctx.File.Path == "fault_deep.py" && r.Name == "recurse_more":
			// a resolver that recurses without end through its memo
			var rec func(n int) string
			rec = func(n int) string {
				return ctx.Table.Memo("fault\x00"+strings.Repeat("x", n), func() string { return rec(n + 1) })
			}
			rec(0)
		}
	}
	lang.ExtractHook = func(p string) {
		if p == "fault_broken.py" {
			panic("injected into extraction")
		}
	}
	defer func() { lang.ResolveHook, lang.ExtractHook = nil, nil }()

	db := filepath.Join(t.TempDir(), "index.db")
	sum, err := Run(context.Background(), Options{Root: root, DB: db, NoGit: true})
	if err != nil {
		t.Fatalf("index: %v", err)
	}
	if sum.Faults != 3 || sum.Files != 4 {
		t.Fatalf("summary: %d faults in %d files, want 3 in 4", sum.Faults, sum.Files)
	}
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	checkFaults := func(when string) {
		t.Helper()
		if n := query(t, conn, `SELECT COUNT(*) FROM versions`)[0][0]; n == "0" {
			t.Fatalf("%s: no version written", when)
		}
		got := map[string][]lang.Fault{}
		for _, row := range query(t, conn, `SELECT p.path, f.status, f.faults FROM files f JOIN paths p ON p.id = f.path_id WHERE f.to_seq IS NULL`) {
			if row[1] != StatusOK {
				t.Errorf("%s: %s has status %s", when, row[0], row[1])
			}
			if row[2] == "" {
				continue
			}
			var fs []lang.Fault
			if err := json.Unmarshal([]byte(row[2]), &fs); err != nil {
				t.Fatalf("%s: faults of %s: %v", when, row[0], err)
			}
			got[row[0]] = fs
		}
		want := map[string]struct{ stage, reason string }{
			"fault_boom.py":   {lang.StageResolve, "panic: injected"},
			"fault_deep.py":   {lang.StageResolve, lang.ErrDepth.Error()},
			"fault_broken.py": {lang.StageExtract, "panic: injected into extraction"},
		}
		for p, w := range want {
			fs := got[p]
			if len(fs) != 1 || fs[0].Stage != w.stage || !strings.HasPrefix(fs[0].Reason, w.reason) {
				t.Errorf("%s: faults of %s = %+v, want one %s fault %q", when, p, fs, w.stage, w.reason)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: faults on %d files, want %d: %v", when, len(got), len(want), got)
		}
		// the faulty files keep their symbols and every other edge
		syms := query(t, conn, `SELECT s.name FROM symbols s JOIN paths p ON p.id = s.path_id
			WHERE s.to_seq IS NULL AND p.path = 'fault_boom.py' AND s.kind = 'function' ORDER BY s.name`)
		if len(syms) != 3 {
			t.Errorf("%s: functions of fault_boom.py: %v", when, syms)
		}
		edges := map[string]string{}
		for _, row := range query(t, conn, `SELECT p.path, e.name, e.rule, COUNT(*) FROM edges e JOIN paths p ON p.id = e.path_id
			WHERE e.to_seq IS NULL AND e.kind = 'call' GROUP BY 1, 2, 3`) {
			edges[row[0]+" "+row[1]] = row[2] + " x" + row[3]
		}
		for k, w := range map[string]string{
			"fault_boom.py helper":       lang.RuleImport + " x2",
			"fault_boom.py explode":      lang.RuleUnresolved + " x1",
			"fault_deep.py recurse_more": lang.RuleSameFile + " x1",
		} {
			if edges[k] != w {
				t.Errorf("%s: edge %s: %q, want %q (all: %v)", when, k, edges[k], w, edges)
			}
		}
	}
	checkFaults("full build")

	// unchanged files keep their faults; a file parsed again gets its own
	writeFile(t, root, "util.py", "def helper():\n    return 1\n\n\ndef more():\n    return 2\n")
	writeFile(t, root, "fault_boom.py", "from util import helper\n\n\ndef first():\n    return helper()\n\n\n"+
		"def explode():\n    return 2\n\n\ndef caller():\n    explode()\n    return helper()\n# edited\n")
	sum, err = Run(context.Background(), Options{Root: root, DB: db, NoGit: true})
	if err != nil {
		t.Fatalf("index again: %v", err)
	}
	if sum.Faults != 3 || sum.Seq != 2 {
		t.Fatalf("incremental: %d faults at seq %d, want 3 at 2", sum.Faults, sum.Seq)
	}
	checkFaults("incremental")

	// a name that boom.py calls appears elsewhere: its unchanged edges are
	// resolved again, and the fault found again is recorded once
	writeFile(t, root, "util.py", "def helper():\n    return 1\n\n\ndef explode():\n    return 2\n")
	before := explosions.Load()
	sum, err = Run(context.Background(), Options{Root: root, DB: db, NoGit: true})
	if err != nil {
		t.Fatalf("index a third time: %v", err)
	}
	if explosions.Load() != before+1 {
		t.Errorf("the call of explode was resolved %d times again, want once", explosions.Load()-before)
	}
	if sum.Faults != 3 || sum.Seq != 3 {
		t.Fatalf("re-resolution: %d faults at seq %d, want 3 at 3", sum.Faults, sum.Seq)
	}
	checkFaults("re-resolution")
}
