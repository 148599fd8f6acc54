package index

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/schema"
)

// Each run decides what to do with the file it finds, and says so in the
// summary and the trace: build a missing one, find a current one up to
// date or record a new version, and rebuild one of another schema, of
// other options or a damaged one.
func TestIndexStates(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeFile(t, root, "a.go", "package a\n\nfunc A() int { return B() }\n")
	writeFile(t, root, "b.go", "package a\n\nfunc B() int { return 1 }\n")
	db := filepath.Join(t.TempDir(), "index.db")
	run := func(opts Options) (*Summary, string) {
		t.Helper()
		var trace bytes.Buffer
		opts.Root, opts.DB, opts.NoGit, opts.Trace = root, db, true, &trace
		opts.Embedding = embed.Config{Provider: embed.ProviderNone}
		sum, err := Run(ctx, opts)
		if err != nil {
			t.Fatalf("index: %v", err)
		}
		return sum, trace.String()
	}
	check := func(name string, sum *Summary, trace string, want IndexState, rebuilt bool, version string) {
		t.Helper()
		if sum.State != want || sum.Rebuilt != rebuilt || sum.Version != version {
			t.Errorf("%s: state %q rebuilt %v version %s, want %q %v %s", name, sum.State, sum.Rebuilt, sum.Version, want, rebuilt, version)
		}
		if !strings.Contains(trace, "decision: "+string(want)) {
			t.Errorf("%s: the trace does not say %q:\n%s", name, "decision: "+want, trace)
		}
		if rebuilt && (sum.RebuildReason == "" || !strings.Contains(trace, sum.RebuildReason)) {
			t.Errorf("%s: reason %q, trace:\n%s", name, sum.RebuildReason, trace)
		}
	}

	sum, trace := run(Options{})
	check("missing file", sum, trace, StateNew, false, "v1")
	sum, trace = run(Options{})
	check("no change", sum, trace, StateUpToDate, false, "v1")
	writeFile(t, root, "b.go", "package a\n\nfunc B() int { return 2 }\n")
	sum, trace = run(Options{})
	check("one file edited", sum, trace, StateIncremental, false, "v2")
	sum, trace = run(Options{Paths: []string{"b.go"}})
	check("paths, unchanged", sum, trace, StateUpToDate, false, "v2")

	sum, trace = run(Options{Walk: WalkOptions{MaxFileSize: 1 << 10}})
	check("other options", sum, trace, StateOptions, true, "v1")
	if sum.VersionsDropped != 2 {
		t.Errorf("other options: %d versions dropped, want 2", sum.VersionsDropped)
	}

	setUserVersion(t, db, schema.Version+1)
	sum, trace = run(Options{Walk: WalkOptions{MaxFileSize: 1 << 10}})
	check("other schema", sum, trace, StateSchema, true, "v1")

	// a truncated file keeps its header: the damage shows when the run
	// reads it
	writeFile(t, root, "c.go", "package a\n\nfunc C() int { return A() }\n")
	if err := os.Truncate(db, 12288); err != nil {
		t.Fatal(err)
	}
	sum, trace = run(Options{Walk: WalkOptions{MaxFileSize: 1 << 10}, Paths: []string{"c.go"}})
	check("damaged file", sum, trace, StateCorrupt, true, "v1")
	if sum.Files != 3 {
		t.Errorf("damaged file: the rebuild indexed %d files, want the whole tree's 3", sum.Files)
	}
}

// setUserVersion writes the schema version of an index file, as another
// sdl would have.
func setUserVersion(t *testing.T, path string, v int) {
	t.Helper()
	db, err := schema.OpenWrite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		t.Fatal(err)
	}
}
