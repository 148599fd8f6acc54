package query_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/schema"
)

// ftsQuestions are the questions the Go bm25 is checked on: names,
// prose, identifiers, words in many symbols and in none.
var ftsQuestions = []string{
	"persist items as json in one file", "NewStore", "Store.Add", "error handling for missing items",
	"load save path", "test", "parse config from environment", "nothingmatchesthisword", "users user_id getUserById",
}

// TestGoBM25MatchesFTS5 holds the Go scorer to FTS5's bm25(): the same
// rows, the same scores and the same order, for every lane's column set,
// on fixture indexes of several languages and on an index that an
// incremental run changed (deleted rows, more than one segment).
func TestGoBM25MatchesFTS5(t *testing.T) {
	ctx := context.Background()
	indexes := map[string]*query.Index{"go": fixture(t, "go"), "python": fixture(t, "python"), "typescript": fixture(t, "typescript")}
	indexes["python after an edit"] = editedFixture(t, "python")
	for name, x := range indexes {
		for _, cols := range []string{"{name qualified}", "{signature doc path words}", ""} {
			for _, q := range ftsQuestions {
				sqlRows, goRows, err := x.BM25BothForTest(ctx, cols, q)
				if err != nil {
					if strings.Contains(err.Error(), "no terms") {
						continue
					}
					t.Fatalf("%s %s %q: %v", name, cols, q, err)
				}
				if len(sqlRows) != len(goRows) {
					t.Errorf("%s %s %q: FTS5 matched %d rows, Go %d", name, cols, q, len(sqlRows), len(goRows))
					continue
				}
				for i := range sqlRows {
					a, b := sqlRows[i], goRows[i]
					if a.Rowid != b.Rowid || math.Abs(a.Score-b.Score) > 1e-12*math.Abs(a.Score) {
						t.Errorf("%s %s %q row %d: FTS5 %+v, Go %+v", name, cols, q, i, a, b)
						break
					}
				}
			}
		}
	}
}

// TestFTSRankFromHeldTerms: a lane answered from the held terms finds the
// symbols FTS5 finds, in its order.
func TestFTSRankFromHeldTerms(t *testing.T) {
	ctx := context.Background()
	x := fixture(t, "go")
	for _, cols := range []string{"{name qualified}", "{signature doc path words}", ""} {
		for _, q := range ftsQuestions {
			a, b, err := x.FTSRankBothForTest(ctx, cols, q, 10)
			if err != nil {
				t.Fatalf("%s %q: %v", cols, q, err)
			}
			if !slices.Equal(a, b) {
				t.Errorf("%s %q: FTS5 %v, held terms %v", cols, q, a, b)
			}
		}
	}
}

// editedFixture indexes a copy of a fixture repository, adds a function
// to one of its files and deletes another, indexes again (an incremental
// run) and opens the result.
func editedFixture(t *testing.T, name string) *query.Index {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", name))
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "index.db")
	opts := index.Options{Root: root, DB: db, NoGit: true, Workers: 2, Now: time.Unix(1700000000, 0), SDLVersion: "test"}
	if _, err := index.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 2 {
		t.Fatalf("%s: %d Python files", name, len(files))
	}
	slices.Sort(files)
	f, err := os.OpenFile(files[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n\ndef save_items_to_json_file(path, items):\n    \"\"\"Persist the items as json in one file.\"\"\"\n    return path\n")
	f.Close()
	if err := os.Remove(files[len(files)-1]); err != nil {
		t.Fatal(err)
	}
	opts.Now = opts.Now.Add(time.Hour)
	sum, err := index.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.NewVersion || sum.Rebuilt {
		t.Fatalf("the edit made no new version: %+v", sum)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// TestTermsReadOnFirstAsking: once the row lengths are read, a question
// is answered from held terms at its first asking.
func TestTermsReadOnFirstAsking(t *testing.T) {
	x := fixture(t, "go")
	for _, q := range []string{"NewStore", "persist items as json"} {
		ok, err := x.HeldAnswersForTest(context.Background(), "{name qualified}", q, 10)
		if err != nil || !ok {
			t.Errorf("%q: answered from held terms %v, %v", q, ok, err)
		}
	}
}

// TestSegmentTermsMatchVocab holds the Go reader of FTS5's segments to
// FTS5's own fts5vocab instance table: every term's rows and counts per
// column, on fixtures of several languages and on an index an incremental
// run changed (tombstones of deleted rows).
func TestSegmentTermsMatchVocab(t *testing.T) {
	ctx := context.Background()
	indexes := map[string]*query.Index{"go": fixture(t, "go"), "python": fixture(t, "python"), "typescript": fixture(t, "typescript")}
	indexes["python after an edit"] = editedFixture(t, "python")
	for name, x := range indexes {
		bad, n, err := x.SegmentTermsCheckForTest(ctx, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var notes []string
		for len(bad) > 0 && strings.HasPrefix(bad[0], "(") {
			notes, bad = append(notes, bad[0]), bad[1:]
		}
		t.Logf("%s: %d terms %v", name, n, notes)
		if n < 100 || len(bad) > 0 {
			t.Errorf("%s: %d terms, %d differ: %q", name, n, len(bad), bad[:min(len(bad), 10)])
		}
		if strings.Contains(name, "edit") && len(notes) < 2 {
			t.Errorf("%s: %v, want more than one segment and tombstones", name, notes)
		}
	}
}

// TestSegmentTermsMatchVocabLongLists: the same on a full-text table made
// to hold what the fixtures are too small for: doclists over many pages, a
// position list longer than a page, several segments, and rows deleted,
// some inserted again under the same rowid.
func TestSegmentTermsMatchVocabLongLists(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	db, err := schema.OpenWrite(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Create(ctx, db); err != nil {
		t.Fatal(err)
	}
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon")
	row := func(r int) []any {
		var cols []any
		for c := range 7 {
			var ws []string
			for k := 0; k < (r*7+c)%5; k++ {
				ws = append(ws, words[(r*31+c*17+k*7)%len(words)])
			}
			if c == 5 {
				ws = append(ws, "common") // in every row: a doclist over many pages
				if r%997 == 0 {
					ws = append(ws, strings.Repeat("repeated ", 3000)) // a position list longer than a page
				}
			}
			cols = append(cols, strings.Join(ws, " "))
		}
		return append([]any{r}, cols...)
	}
	insert := func(from, to int) {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for r := from; r < to; r++ {
			if _, err := tx.Exec(`INSERT INTO symbols_fts(rowid, name, qualified, signature, doc, path, body, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, row(r)...); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	for from := 1; from < 20000; from += 5000 {
		insert(from, from+5000) // a segment a transaction
	}
	if _, err := db.Exec(`DELETE FROM symbols_fts WHERE rowid % 13 = 0 OR rowid BETWEEN 9000 AND 9100`); err != nil {
		t.Fatal(err)
	}
	insert(9000, 9050) // deleted rows back under their rowids
	db.Close()
	x, err := query.Open(path, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	bad, n, err := x.SegmentTermsCheckForTest(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d terms: %q", n, bad)
	if n != len(words)+2 || len(bad) != 2 || !strings.Contains(bad[0], "segments") || !strings.Contains(bad[1], "tombstone") {
		t.Errorf("%d terms, want %d; differ or notes: %q", n, len(words)+2, bad)
	}
}

// TestBM25BoundedMatchesAllLengths: scoring with the lengths of only the
// rows whose bound can reach the best n finds the same best n, with the
// same scores, as scoring every matched row.
func TestBM25BoundedMatchesAllLengths(t *testing.T) {
	ctx := context.Background()
	indexes := map[string]*query.Index{"go": fixture(t, "go"), "python after an edit": editedFixture(t, "python")}
	fewer := false
	for name, x := range indexes {
		for _, cols := range []string{"{name qualified}", "{signature doc path words}", ""} {
			for _, q := range ftsQuestions {
				for _, n := range []int{1, 3, 25, 1000} {
					all, bounded, read, matched, err := x.BoundedBothForTest(ctx, cols, q, n)
					if err != nil {
						if strings.Contains(err.Error(), "were not held") {
							continue // no terms
						}
						t.Fatalf("%s %s %q: %v", name, cols, q, err)
					}
					if !slices.Equal(all, bounded) {
						t.Errorf("%s %s %q best %d: every length %v, bounded %v", name, cols, q, n, all, bounded)
					}
					if read < matched {
						fewer = true
					}
				}
			}
		}
	}
	if !fewer {
		t.Error("the bounded scorer never read fewer lengths than the rows it matched")
	}
}

// TestLengthTableMatchesDocsize reads the lengths bm25 divides by from
// symbol_lengths and from FTS5's docsize table: the same for every row,
// also after incremental runs.
func TestLengthTableMatchesDocsize(t *testing.T) {
	ctx := context.Background()
	for name, x := range map[string]*query.Index{"go": fixture(t, "go"), "python after an edit": editedFixture(t, "python")} {
		differ, rows, err := x.LengthsBothForTest(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rows == 0 || len(differ) > 0 {
			t.Errorf("%s: %d rows, differing at %v", name, rows, differ)
		}
	}
}

// TestLengthTableHostile: a symbol_lengths block that is not one sdl
// wrote (a shared or hostile index.db) makes a search fail with
// schema.ErrLengths, not panic or rank by wrong lengths.
func TestLengthTableHostile(t *testing.T) {
	ctx := context.Background()
	x := fixture(t, "go")
	w, err := schema.OpenWrite(x.Path)
	if err != nil {
		t.Fatal(err)
	}
	// a varint past int32
	if _, err := w.Exec(`UPDATE symbol_lengths SET lens = x'01ffffffff0f' WHERE block = 0`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, once := range []bool{false, true} {
		y, err := query.Open(x.Path, x.Root)
		if once {
			y, err = query.OpenOnce(x.Path, x.Root)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, err = y.Search(ctx, query.SearchRequest{Query: "open the store"})
		y.Close()
		if !errors.Is(err, schema.ErrLengths) {
			t.Errorf("once=%v: search over a hostile length table: %v, want ErrLengths", once, err)
		}
	}
}

// TestLengthTableMissing: a file without symbol_lengths (dropped by hand:
// every file of this schema has it) is answered from FTS5's docsize
// table, with the same answers.
func TestLengthTableMissing(t *testing.T) {
	ctx := context.Background()
	x := fixture(t, "go")
	ask := func(y *query.Index) string {
		var out []string
		for _, q := range ftsQuestions {
			r, err := y.Search(ctx, query.SearchRequest{Query: q, Limit: 10})
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			for _, h := range r.Results {
				out = append(out, fmt.Sprintf("%s %s %v", q, h.SymbolID, h.Score))
			}
		}
		return strings.Join(out, "\n")
	}
	want := map[bool]string{}
	for _, once := range []bool{false, true} {
		y, err := query.OpenOnce(x.Path, x.Root)
		if !once {
			y, err = query.Open(x.Path, x.Root)
		}
		if err != nil {
			t.Fatal(err)
		}
		want[once] = ask(y)
		y.Close()
	}
	w, err := schema.OpenWrite(x.Path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`DROP TABLE symbol_lengths`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, once := range []bool{false, true} {
		y, err := query.OpenOnce(x.Path, x.Root)
		if !once {
			y, err = query.Open(x.Path, x.Root)
		}
		if err != nil {
			t.Fatal(err)
		}
		// a server's first questions go to FTS5 while it reads docsize
		// in the background; later ones to the Go scorer: both the same
		for range 2 {
			if got := ask(y); got != want[once] || got == "" {
				t.Errorf("once=%v: without the table:\n%s\nwith it:\n%s", once, got, want[once])
			}
		}
		y.Close()
	}
}
