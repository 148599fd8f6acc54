package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"modernc.org/sqlite"

	"github.com/sdl-dev/sdl/schema"
)

// GCResult says what a collection removed.
type GCResult struct {
	DB          string   `json:"db"`
	Kept        []string `json:"kept"`
	Removed     []string `json:"removed"`
	SymbolRows  int64    `json:"symbolRows"`
	EdgeRows    int64    `json:"edgeRows"`
	FileRows    int64    `json:"fileRows"`
	BytesBefore int64    `json:"bytesBefore"`
	BytesAfter  int64    `json:"bytesAfter"`
	Seconds     float64  `json:"seconds"`
	// VacuumDeferred says VACUUM could not run (another writer);
	// CheckpointPending that readers held the old pages, so the file
	// shrinks when they finish.
	VacuumDeferred    bool `json:"vacuumDeferred,omitempty"`
	CheckpointPending bool `json:"checkpointPending,omitempty"`
}

// GC keeps the newest keep versions of the index at db and prunes the
// rest: rows no kept version can see (closed at or before the oldest kept
// version) and the older ledger rows. The oldest kept version keeps its
// prev_hash, so the chain from it on still verifies. Then the file is
// vacuumed in place. It takes the writer's lock; readers go on reading
// (WAL): those in a read transaction keep their snapshot, later ones see
// the pruned file.
func GC(ctx context.Context, db string, keep int) (*GCResult, error) {
	if keep < 1 {
		return nil, fmt.Errorf("gc: keep at least one version, got %d", keep)
	}
	start := time.Now()
	if err := schema.Sniff(db); err != nil {
		return nil, err
	}
	unlock, err := lockIndex(ctx, db)
	if err != nil {
		return nil, err
	}
	defer unlock()
	res := &GCResult{DB: db, Kept: []string{}, Removed: []string{}, BytesBefore: diskSize(db)}
	conn, err := schema.OpenWrite(db, "journal_mode(WAL)", "synchronous(NORMAL)")
	if err != nil {
		return nil, classifyWriteError(err, db)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, classifyWriteError(err, db)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT seq, id FROM versions ORDER BY seq DESC`)
	if err != nil {
		return nil, fmt.Errorf("gc: read ledger: %w", err)
	}
	var oldest int64
	for rows.Next() {
		var seq int64
		var id string
		if err := rows.Scan(&seq, &id); err != nil {
			rows.Close()
			return nil, err
		}
		if len(res.Kept) < keep {
			res.Kept = append(res.Kept, id)
			oldest = seq
		} else {
			res.Removed = append(res.Removed, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(res.Removed) == 0 {
		res.BytesAfter = res.BytesBefore
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	for _, t := range []struct {
		table string
		n     *int64
	}{{"symbols", &res.SymbolRows}, {"edges", &res.EdgeRows}, {"files", &res.FileRows}} {
		// to_seq <= oldest: closed before the oldest kept version
		r, err := tx.ExecContext(ctx, `DELETE FROM `+t.table+` WHERE to_seq IS NOT NULL AND to_seq <= ?`, oldest)
		if err != nil {
			return nil, classifyWriteError(fmt.Errorf("gc %s: %w", t.table, err), db)
		}
		*t.n, _ = r.RowsAffected()
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM versions WHERE seq < ?`, oldest); err != nil {
		return nil, classifyWriteError(fmt.Errorf("gc ledger: %w", err), db)
	}
	if err := tx.Commit(); err != nil {
		return nil, classifyWriteError(fmt.Errorf("gc commit: %w", err), db)
	}
	// VACUUM rewrites the file through the WAL, so readers are not
	// disturbed; the checkpoint after it shrinks the file once no reader
	// holds an older snapshot.
	if _, err := conn.ExecContext(ctx, `VACUUM`); err != nil {
		if !isBusy(err) {
			return nil, classifyWriteError(fmt.Errorf("vacuum: %w", err), db)
		}
		res.VacuumDeferred = true
	}
	// a reader holding an older snapshot stops the checkpoint short: do
	// not wait for it, the file shrinks at a later checkpoint
	var busy, logPages, done int
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = 100`); err == nil {
		if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &done); err != nil || busy != 0 {
			res.CheckpointPending = true
		}
	}
	res.BytesAfter = diskSize(db)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// isBusy reports SQLITE_BUSY and SQLITE_LOCKED (and their extended codes).
func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code() & 0xff
		return c == 5 || c == 6
	}
	return false
}

// diskSize is the size of an index and its write-ahead log.
func diskSize(db string) int64 {
	var n int64
	for _, p := range []string{db, db + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}
