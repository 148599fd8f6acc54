package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sdl-dev/sdl/schema"
)

// VersionID is the human-facing id of a ledger version.
func VersionID(seq int64) string { return fmt.Sprintf("v%d", seq) }

// treeHash hashes the current file rows: path, status, content hash and
// skip reason, in path order.
func treeHash(ctx context.Context, tx *sql.Tx) (string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT p.path, f.status, f.hash, f.reason FROM files f
		JOIN paths p ON p.id = f.path_id WHERE f.to_seq IS NULL ORDER BY p.path`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	h := sha256.New()
	for rows.Next() {
		var p, st, hash, reason string
		if err := rows.Scan(&p, &st, &hash, &reason); err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\n", p, st, hash, reason)
	}
	return hex.EncodeToString(h.Sum(nil)), rows.Err()
}

// finishVersion appends the ledger row of version seq and the meta rows.
func (b *build) finishVersion(ctx context.Context, tx *sql.Tx, seq int64, gitRef string) error {
	tree, err := treeHash(ctx, tx)
	if err != nil {
		return fmt.Errorf("hash tree: %w", err)
	}
	var prev string
	if err := tx.QueryRowContext(ctx, "SELECT hash FROM versions WHERE seq = ?", seq-1).Scan(&prev); err != nil && err != sql.ErrNoRows {
		return err
	}
	var files, symbols, edges int64
	if err := tx.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM files WHERE to_seq IS NULL AND status IN ('ok', 'parse_error')),
		(SELECT COUNT(*) FROM symbols WHERE to_seq IS NULL),
		(SELECT COUNT(*) FROM edges WHERE to_seq IS NULL)`).Scan(&files, &symbols, &edges); err != nil {
		return fmt.Errorf("count: %w", err)
	}
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\n%d\n%s\n%s\n%v", prev, seq, tree, b.git.commit, b.git.dirty)))
	hash := hex.EncodeToString(h[:])
	created := b.opts.Now.UTC().Format(time.RFC3339)
	_, err = tx.ExecContext(ctx, `INSERT INTO versions(seq, id, created_at, git_commit, git_dirty, git_ref, tree_hash, prev_hash, hash,
		files, symbols, edges, files_added, files_changed, files_removed, symbols_added, symbols_changed, symbols_removed)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		seq, VersionID(seq), created, b.git.commit, boolInt(b.git.dirty), gitRef, tree, prev, hash,
		files, symbols, edges, b.sum.FilesAdded, b.sum.FilesChanged, b.sum.FilesRemoved,
		b.sum.SymbolsAdded, b.sum.SymbolsChgd, b.sum.SymbolsRmvd)
	if err != nil {
		return fmt.Errorf("record version: %w", err)
	}
	optHash, optJSON := b.options()
	for k, v := range map[string]string{
		schema.MetaSDLVersion:  b.opts.SDLVersion,
		schema.MetaOptionsHash: optHash,
		schema.MetaOptions:     optJSON,
		schema.MetaRepoID:      filepath.Base(b.root),
		schema.MetaGoModules:   strings.Join(b.goModules, "\n"),
	} {
		if err := schema.SetMeta(ctx, tx, k, v); err != nil {
			return fmt.Errorf("write meta: %w", err)
		}
	}
	b.sum.NewVersion = true
	b.sum.GitCommit = b.git.commit
	return b.fillTotals(ctx, tx, seq)
}

// fillTotals fills the summary's totals from the current view.
func (b *build) fillTotals(ctx context.Context, tx *sql.Tx, seq int64) error {
	b.sum.Seq = seq
	b.sum.Version = VersionID(seq)
	if err := tx.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM symbols WHERE to_seq IS NULL),
		(SELECT COUNT(*) FROM edges WHERE to_seq IS NULL),
		(SELECT COUNT(*) FROM versions)`).Scan(&b.sum.Symbols, &b.sum.Edges, &b.sum.Versions); err != nil {
		return fmt.Errorf("count: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT language, COUNT(*) FROM files
		WHERE to_seq IS NULL AND status IN ('ok', 'parse_error') GROUP BY language`)
	if err != nil {
		return err
	}
	defer rows.Close()
	b.sum.Files = 0
	for rows.Next() {
		var l string
		var n int
		if err := rows.Scan(&l, &n); err != nil {
			return err
		}
		b.sum.Languages[l] = n
		b.sum.Files += n
	}
	return rows.Err()
}
