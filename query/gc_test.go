package query_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// viewDump lists the rows of the view of version seq.
func viewDump(t *testing.T, db *sql.DB, seq int64) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT 'f', path_id, hash, status FROM files WHERE from_seq <= ?1 AND (to_seq IS NULL OR to_seq > ?1) ORDER BY path_id`,
		`SELECT 's', id, digest, fingerprint FROM symbols WHERE from_seq <= ?1 AND (to_seq IS NULL OR to_seq > ?1) ORDER BY id`,
		`SELECT 'e', src, COALESCE(dst, ''), digest FROM edges WHERE from_seq <= ?1 AND (to_seq IS NULL OR to_seq > ?1) ORDER BY src, digest`,
	} {
		rows, err := db.Query(q, seq)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var a, c, d, e string
			rows.Scan(&a, &c, &d, &e)
			fmt.Fprintf(&b, "%s %s %s %s\n", a, c, d, e)
		}
		rows.Close()
	}
	return b.String()
}

// TestGC keeps the newest versions intact: their views, their deltas and
// the hash chain from the oldest kept one; a reader that was open goes on.
func TestGC(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	for _, step := range h.steps {
		h.apply(step)
		h.index()
	}
	vs, err := h.x.Versions(ctx)
	if err != nil || len(vs) != 9 {
		t.Fatalf("9 versions expected: %d %v", len(vs), err)
	}
	big := &query.SliceBudget{MaxCards: 500, MaxEstimatedTokens: 100000}
	deltaJSON := func(from, to string) string {
		t.Helper()
		d, err := h.x.Delta(ctx, query.DeltaRequest{FromVersion: from, ToVersion: to, Budget: big})
		if err != nil {
			t.Fatal(err)
		}
		return string(query.EncodeJSON(d))
	}
	beforeDelta := deltaJSON("v7", "v9")
	views := map[int64]string{}
	for _, seq := range []int64{7, 8, 9} {
		views[seq] = viewDump(t, h.x.DB, seq)
	}
	// a reader in the middle of a read transaction
	tx, err := h.x.DB.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow(`SELECT COUNT(*) FROM versions`).Scan(&n); err != nil || n != 9 {
		t.Fatalf("reader: %d %v", n, err)
	}

	res, err := index.GC(ctx, h.db, 3)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Kept, ",") != "v9,v8,v7" || len(res.Removed) != 6 || res.SymbolRows == 0 || res.EdgeRows == 0 {
		t.Fatalf("gc: %+v", res)
	}
	if !res.CheckpointPending {
		t.Errorf("a reader held a snapshot: the checkpoint waits for it, got %+v", res)
	}
	// the reader still sees its snapshot, and finishes
	if err := tx.QueryRow(`SELECT COUNT(*) FROM versions`).Scan(&n); err != nil || n != 9 {
		t.Errorf("reader after gc: %d %v", n, err)
	}
	tx.Rollback()

	after, err := h.x.Versions(ctx)
	if err != nil || len(after) != 3 || after[0].ID != "v7" {
		t.Fatalf("versions after gc: %+v %v", after, err)
	}
	if after[0].PrevHash != vs[5].Hash {
		t.Errorf("the oldest kept version keeps its prev_hash")
	}
	for i := 1; i < len(after); i++ {
		if after[i].PrevHash != after[i-1].Hash {
			t.Errorf("chain broken at %s", after[i].ID)
		}
	}
	for seq, want := range views {
		if got := viewDump(t, h.x.DB, seq); got != want {
			t.Errorf("the view of v%d changed", seq)
		}
	}
	if got := deltaJSON("v7", "v9"); got != beforeDelta {
		t.Errorf("delta v7..v9 changed:\n%s\n%s", beforeDelta, got)
	}
	for _, table := range []string{"symbols", "edges", "files"} {
		var old int
		h.x.DB.QueryRow(`SELECT COUNT(*) FROM ` + table + ` WHERE to_seq <= 7`).Scan(&old)
		if old != 0 {
			t.Errorf("%s: %d rows only pruned versions could see", table, old)
		}
	}
	if _, err := h.x.ResolveVersion(ctx, "fromVersion", "v6"); !errors.Is(err, query.ErrInvalid) {
		t.Errorf("a pruned version: %v", err)
	}
	var ok string
	if err := h.x.DB.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Errorf("integrity: %s %v", ok, err)
	}
	// indexing goes on
	editFile(t, h.root, "store/item.go", "return float64(i.Qty) * i.Price", "return i.Price * float64(i.Qty)")
	if sum := h.index(); sum.Version != "v10" {
		t.Errorf("after gc: %s", sum.Version)
	}
	if d := deltaJSON("v9", "v10"); !strings.Contains(d, `"name":"Item.Total"`) {
		t.Errorf("delta after gc: %s", d)
	}
	// no reader: the file shrinks
	res, err = index.GC(ctx, h.db, 2)
	if err != nil || strings.Join(res.Kept, ",") != "v10,v9" || res.CheckpointPending || res.BytesAfter >= res.BytesBefore {
		t.Errorf("gc without readers: %+v %v", res, err)
	}
	// nothing to prune
	res, err = index.GC(ctx, h.db, 10)
	if err != nil || len(res.Removed) != 0 || len(res.Kept) != 2 {
		t.Errorf("keep more than there are: %+v %v", res, err)
	}
}
