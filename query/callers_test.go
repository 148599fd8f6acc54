package query_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// A slice orders the callers of its cards from the edges and rows its
// ranking read, and a card reads them from the index: the two agree
// (the card's etag hashes them), also past maxCalledBy callers, whose
// first ones are chosen by confidence, file and line, and on the
// fixtures of every language.
func TestCallersFromGraph(t *testing.T) {
	ctx := context.Background()
	// Target is called 30 times, from three files, some callers twice
	root := t.TempDir()
	files := map[string][]string{"a.go": nil, "b/b.go": nil, "c.go": nil}
	n := 0
	for _, f := range []string{"c.go", "a.go", "b/b.go"} {
		for i := 0; i < 10; i++ {
			n++
			body := "Target()"
			if i%3 == 0 {
				body += "\n\tTarget()"
			}
			files[f] = append(files[f], fmt.Sprintf("func Caller%d() {\n\t%s\n}\n", n, body))
		}
	}
	files["a.go"] = append(files["a.go"], "func Target() {}\n")
	for f, funcs := range files {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		pkg := "package main\n\n"
		if strings.HasPrefix(f, "b/") {
			pkg = "package b\n\nimport \"x/y\"\n\n"
			for i := range funcs {
				funcs[i] = strings.ReplaceAll(funcs[i], "Target()", "y.Target()")
			}
		}
		if err := os.WriteFile(p, []byte(pkg+strings.Join(funcs, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x/y\n"), 0o644)
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := index.Run(ctx, index.Options{Root: root, DB: db, NoGit: true, Workers: 2, Now: time.Unix(1700000000, 0), SDLVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	check := func(x *query.Index, name string, minCall float64, nth int) (answered, callers int) {
		t.Helper()
		var ids []string
		rows, err := x.DB.Query(`SELECT id FROM symbols WHERE to_seq IS NULL ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id string
			rows.Scan(&id)
			ids = append(ids, id)
		}
		rows.Close()
		fromIndex, fromGraph, answered, err := x.CallersForTest(ctx, ids, minCall, nth)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if !reflect.DeepEqual(fromGraph[id], fromIndex[id]) {
				t.Errorf("%s: callers of %s from the graph:\n%v\nfrom the index:\n%v", name, id, fromGraph[id], fromIndex[id])
			}
			callers += len(fromGraph[id])
		}
		return answered, callers
	}
	answered, callers := check(x, "Target", 0, 1)
	// ranking read a third of the edges and of the rows: the rest is read
	if a, c := check(x, "Target", 0, 3); a != answered || c != callers {
		t.Errorf("from a third of the graph: %d symbols with %d callers, want %d with %d", a, c, answered, callers)
	}
	target, err := x.Resolve(ctx, query.SymbolRef{Name: "Target"})
	if err != nil {
		t.Fatal(err)
	}
	full, _, _, err := x.CallersForTest(ctx, []string{target.ID}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(full[target.ID]); got != 20 {
		t.Errorf("Target lists %d callers, want the first 20 of its 40 calls", got)
	}
	if answered == 0 || callers < 20 {
		t.Errorf("the graph answered %d symbols with %d callers", answered, callers)
	}
	for _, lang := range []string{"go", "python", "typescript", "java"} {
		y := fixture(t, lang)
		for _, mc := range []float64{0, 0.8} {
			answered, callers := check(y, lang, mc, 1)
			if answered == 0 {
				t.Errorf("%s: the graph answered no symbol", lang)
			}
			if a, c := check(y, lang, mc, 3); a != answered || c != callers {
				t.Errorf("%s: from a third of the graph: %d symbols with %d callers, want %d with %d", lang, a, c, answered, callers)
			}
		}
	}
}
