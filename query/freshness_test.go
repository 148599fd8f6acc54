package query_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// TestStaleFilesAfterRememberedHash: a server (query.Open) remembers the
// hash of a file by its size and modification time, and still tells an
// edit of the same size: one made later (a new time), and one made in the
// clock tick of the first reading (a time it may share), whose hash it
// never remembered.
func TestStaleFilesAfterRememberedHash(t *testing.T) {
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", "go"))
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := index.Run(context.Background(), index.Options{Root: root, DB: db, NoGit: true, Workers: 2,
		Now: time.Unix(1700000000, 0), SDLVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	ctx := context.Background()
	const rel = "store/store.go"
	name := filepath.Join(root, rel)
	orig, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	// the same size, another content: one byte of the file changed
	i := bytes.IndexByte(orig, '\n')
	edited := slices.Clone(orig)
	edited[i-1] ^= 1
	stale := func(want bool, when string) {
		t.Helper()
		got := slices.Contains(x.StaleFiles(ctx, []string{rel}), rel)
		if got != want {
			t.Errorf("%s: stale %v, want %v", when, got, want)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	stale(false, "as indexed, an hour old")
	stale(false, "as indexed, asked again (the remembered hash)")
	if err := os.WriteFile(name, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	later := old.Add(time.Minute)
	if err := os.Chtimes(name, later, later); err != nil {
		t.Fatal(err)
	}
	stale(true, "edited, same size, a later time")
	// written back just now: its hash is not remembered, so a second
	// edit of the same size that keeps the time is seen
	if err := os.WriteFile(name, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	stale(false, "written back just now")
	if err := os.WriteFile(name, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	stale(true, "edited again in the same clock tick")
}

// TestStaleFilesByStamp: a file whose size and modification time are
// those the index read it at is taken as unchanged without being read, by
// the rule an index run takes it by, so the two agree: an edit that keeps
// both is not seen by either, and one that moves the time is seen.
func TestStaleFilesByStamp(t *testing.T) {
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", "go"))
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	const rel = "store/store.go"
	name := filepath.Join(root, rel)
	// an hour old: the index trusts the time (a fresh one may be shared
	// with an edit still to come)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "index.db")
	opts := index.Options{Root: root, DB: db, NoGit: true, Workers: 2, Now: time.Unix(1700000000, 0), SDLVersion: "test"}
	ctx := context.Background()
	if _, err := index.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	edited := slices.Clone(orig)
	i := bytes.IndexByte(orig, '\n')
	edited[i-1] ^= 1
	for _, open := range []func(string, string) (*query.Index, error){query.Open, query.OpenOnce} {
		x, err := open(db, root)
		if err != nil {
			t.Fatal(err)
		}
		stale := func(want bool, when string) {
			t.Helper()
			if got := slices.Contains(x.StaleFiles(ctx, []string{rel}), rel); got != want {
				t.Errorf("%s: stale %v, want %v", when, got, want)
			}
		}
		stale(false, "as indexed")
		if err := os.WriteFile(name, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		later := old.Add(time.Minute)
		if err := os.Chtimes(name, later, later); err != nil {
			t.Fatal(err)
		}
		stale(true, "edited, same size, a later time")
		if err := os.Chtimes(name, old, old); err != nil {
			t.Fatal(err)
		}
		stale(false, "edited, same size and time as indexed")
		if err := os.WriteFile(name, orig, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, old, old); err != nil {
			t.Fatal(err)
		}
		x.Close()
	}
	// an index run takes the same edit as unchanged: the file keeps its
	// hash
	hash := func() string {
		x, err := query.Open(db, root)
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		var h string
		if err := x.DB.QueryRow(`SELECT f.hash FROM files f JOIN paths p ON p.id = f.path_id WHERE f.to_seq IS NULL AND p.path = ?`, rel).Scan(&h); err != nil {
			t.Fatal(err)
		}
		return h
	}
	before := hash()
	if err := os.WriteFile(name, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := index.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	if after := hash(); after != before {
		t.Errorf("an index run read the file whose stamp it holds: hash %s -> %s", before, after)
	}
}
