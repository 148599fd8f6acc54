package query

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/sdl-dev/sdl/schema"
)

func TestQueryTerms(t *testing.T) {
	terms, idents := queryTerms("Fix getUserById() in user_store.go when the HTTPServer times out (see #42)")
	want := "getuserbyid user id user_store store go httpserver http server times"
	if got := strings.Join(terms, " "); got != want {
		t.Errorf("terms = %q, want %q", got, want)
	}
	if got := strings.Join(idents, " "); got != "getUserById user_store HTTPServer" {
		t.Errorf("identifiers = %q", got)
	}
}

// ftsDB is an in-memory FTS5 table shaped like the index's.
func ftsDB(t testing.TB) *sql.DB {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE VIRTUAL TABLE f USING fts5(name, body, content='', contentless_delete=1,
		tokenize='porter unicode61 remove_diacritics 2'); INSERT INTO f(rowid, name, body) VALUES(1, 'url_for', 'build a url')`); err != nil {
		t.Fatal(err)
	}
	return db
}

// FuzzFTSQuery feeds any text through the sanitizer to a real FTS5 index:
// no text may produce an FTS syntax error.
func FuzzFTSQuery(f *testing.F) {
	for _, s := range []string{`url_for "quoted" AND OR NOT NEAR(a b)`, `a* ^b -c +d {e} col:x`, "\x00\xff'\"", `((()))"`, "ñandú über"} {
		f.Add(s)
	}
	db := ftsDB(f)
	f.Fuzz(func(t *testing.T, text string) {
		terms, _ := queryTerms(text)
		q := ftsMatch(terms)
		if q == "" {
			return
		}
		rows, err := db.Query(`SELECT rowid FROM f WHERE f MATCH ?`, q)
		if err != nil {
			t.Fatalf("text %q gave query %q: %v", text, q, err)
		}
		rows.Close()
	})
}

// TestSchemaFTSRanks guards the full-text table's options: some
// combinations (contentless with detail=column) make bm25() always 0.
func TestSchemaFTSRanks(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	defer db.Close()
	if err := schema.Create(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO symbols_fts(rowid, name, qualified, signature, doc, path, body, words) VALUES
		(1, 'filename', 'Attachment filename', '', 'the file name of an attachment', 'response attachment', '', ''),
		(2, 'other', 'other', '', 'nothing to see', 'x', 'filename', ''),
		(3, 'third', 'third', '', 'unrelated', 'y', '', '')`); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT rowid, -bm25(symbols_fts, `+ftsWeights+`) FROM symbols_fts WHERE symbols_fts MATCH ? ORDER BY 2 DESC`, ftsMatch([]string{"filenames"}))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int
	var scores []float64
	for rows.Next() {
		var id int
		var s float64
		rows.Scan(&id, &s)
		ids, scores = append(ids, id), append(scores, s)
	}
	if len(ids) != 2 || ids[0] != 1 || scores[0] <= scores[1] || scores[1] <= 0 {
		t.Fatalf("bm25 ranking %v %v: want 1 before 2, both positive (stemming filenames -> filename)", ids, scores)
	}
}
