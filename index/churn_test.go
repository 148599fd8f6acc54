package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/schema"
)

// churnOf lists the current file_metrics rows of an index by path.
func churnOf(t *testing.T, db string) string {
	t.Helper()
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT p.path, m.churn FROM file_metrics m JOIN paths p ON p.id = m.path_id ORDER BY p.path`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var p string
		var n int
		if err := rows.Scan(&p, &n); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d\n", p, n)
	}
	return b.String()
}

// TestChurnFollowsHead checks that the churn an incremental run leaves,
// whether HEAD moved or files came and went at the same HEAD, is what a
// full index of the same tree writes.
func TestChurnFollowsHead(t *testing.T) {
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	writeFile(t, repo, "a.go", "package a\n\nfunc A() {}\n")
	writeFile(t, repo, "b.go", "package a\n\nfunc B() { A() }\n")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "one")
	db := filepath.Join(t.TempDir(), "inc.db")
	opts := func(db string) Options {
		return Options{Root: repo, DB: db, Workers: 2, Now: time.Unix(1700000000, 0), SDLVersion: "test"}
	}
	ctx := context.Background()
	if _, err := Run(ctx, opts(db)); err != nil {
		t.Fatal(err)
	}
	if got := churnOf(t, db); got != "a.go 1\nb.go 1\n" {
		t.Fatalf("first index: churn\n%s", got)
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"a commit moves HEAD", func() {
			writeFile(t, repo, "a.go", "package a\n\nfunc A() { B() }\n")
			gitRun(t, repo, "commit", "-q", "-am", "two")
		}},
		{"a file removed at the same HEAD", func() {
			if err := os.Remove(filepath.Join(repo, "b.go")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a new file at the same HEAD", func() {
			writeFile(t, repo, "c.go", "package a\n\nfunc C() {}\n")
		}},
		{"the removed file back at the same HEAD", func() {
			gitRun(t, repo, "checkout", "--", "b.go")
		}},
		{"an edit at the same HEAD", func() {
			writeFile(t, repo, "a.go", "package a\n\nfunc A() { B(); C() }\n")
		}},
	}
	for i, s := range steps {
		s.do()
		sum, err := Run(ctx, opts(db))
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, s.name, err)
		}
		if !sum.NewVersion {
			t.Fatalf("step %d (%s): no new version", i, s.name)
		}
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		if _, err := Run(ctx, opts(fresh)); err != nil {
			t.Fatal(err)
		}
		if got, want := churnOf(t, db), churnOf(t, fresh); got != want {
			t.Errorf("step %d (%s): churn\n%swant\n%s", i, s.name, got, want)
		}
	}
	if got := churnOf(t, db); got != "a.go 2\nb.go 1\n" {
		t.Errorf("last step: churn\n%s", got)
	}
}
