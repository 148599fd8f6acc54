package index

import (
	"database/sql"
	"path/filepath"
	"testing"
)

// TestFullBuildBatches checks what a full build's batched inserts must
// keep: each symbol's full-text row under the symbol's rowid (the writer
// gives rowids out before the rows are written), every edge written, and
// the full-text terms written out once at the end, not at every batch (a
// statement of several rows that takes a savepoint makes FTS5 flush).
func TestFullBuildBatches(t *testing.T) {
	for _, fixture := range []string{"go", "python", "typescript"} {
		t.Run(fixture, func(t *testing.T) {
			db, err := sql.Open("sqlite", indexFixture(t, filepath.Join("..", "testdata", "repos", fixture)))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			count := func(q string) int {
				t.Helper()
				var n int
				if err := db.QueryRow(q).Scan(&n); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				return n
			}
			syms, edges := count(`SELECT count(*) FROM symbols`), count(`SELECT count(*) FROM edges`)
			if syms <= batchRowsN || edges <= batchRowsN {
				t.Fatalf("%d symbols, %d edges: the fixture does not fill a batch of %d", syms, edges, batchRowsN)
			}
			if n := count(`SELECT count(*) FROM symbols_fts_docsize`); n != syms {
				t.Errorf("%d full-text rows for %d symbols", n, syms)
			}
			if n := count(`SELECT count(*) FROM symbols s LEFT JOIN symbols_fts_docsize d ON d.id = s.rowid WHERE d.id IS NULL`); n != 0 {
				t.Errorf("%d symbols without a full-text row under their rowid", n)
			}
			// each symbol is found by its name under its own rowid
			rows, err := db.Query(`SELECT rowid, name FROM symbols WHERE name GLOB '[A-Za-z]*' AND name NOT GLOB '*[^A-Za-z0-9_]*'`)
			if err != nil {
				t.Fatal(err)
			}
			type sym struct {
				rowid int64
				name  string
			}
			var all []sym
			for rows.Next() {
				var s sym
				if err := rows.Scan(&s.rowid, &s.name); err != nil {
					t.Fatal(err)
				}
				all = append(all, s)
			}
			rows.Close()
			for _, s := range all {
				var n int
				if err := db.QueryRow(`SELECT count(*) FROM symbols_fts WHERE symbols_fts MATCH ? AND rowid = ?`,
					`name:"`+s.name+`"`, s.rowid).Scan(&n); err != nil {
					t.Fatalf("match %s: %v", s.name, err)
				}
				if n != 1 {
					t.Errorf("symbol %s (rowid %d) not found by its name", s.name, s.rowid)
				}
			}
			if n := count(`SELECT count(DISTINCT origin) FROM symbols_fts_docsize`); n != 1 {
				t.Errorf("the full-text terms were written out %d times, want once", n)
			}
		})
	}
}
