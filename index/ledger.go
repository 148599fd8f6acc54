package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// VersionID is the human-facing id of a ledger version.
func VersionID(seq int64) string { return fmt.Sprintf("v%d", seq) }

// counts are the totals the ledger records for a version.
type counts struct{ files, symbols, edges int64 }

// treeHash hashes the new version's files: path, status, content hash and
// skip reason, in path order.
func (b *build) treeHash() string {
	paths := make([]string, 0, len(b.tree))
	for p := range b.tree {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		st := b.tree[p]
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\n", p, st.status, st.hash, st.reason)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// indexedFiles counts the files of the new version that hold symbols.
func (b *build) indexedFiles() int64 {
	var n int64
	for _, st := range b.tree {
		if indexedStatus(st.status) {
			n++
		}
	}
	return n
}

// recordVersion appends the ledger row of version seq and the meta rows.
// The counts are those of the previous version plus the rows the writer
// inserted and closed.
func (b *build) recordVersion(ctx context.Context, tx *sql.Tx, seq int64, prevCounts counts, meta [][2]string) error {
	tree := b.treeHash()
	var prev string
	if err := tx.QueryRowContext(ctx, "SELECT hash FROM versions WHERE seq = ?", seq-1).Scan(&prev); err != nil && err != sql.ErrNoRows {
		return err
	}
	c := counts{files: b.indexedFiles(), symbols: prevCounts.symbols + b.w.symbolDelta, edges: prevCounts.edges + b.w.edgeDelta}
	files, symbols, edges := c.files, c.symbols, c.edges
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\n%d\n%s\n%s\n%v", prev, seq, tree, b.git.commit, b.git.dirty)))
	hash := hex.EncodeToString(h[:])
	created := b.opts.Now.UTC().Format(time.RFC3339)
	_, err := tx.ExecContext(ctx, `INSERT INTO versions(seq, id, created_at, git_commit, git_dirty, git_ref, tree_hash, prev_hash, hash,
		files, symbols, edges, files_added, files_changed, files_removed, symbols_added, symbols_changed, symbols_removed)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		seq, VersionID(seq)+b.opts.VersionSuffix, created, b.git.commit, boolInt(b.git.dirty), b.git.ref, tree, prev, hash,
		files, symbols, edges, b.sum.FilesAdded, b.sum.FilesChanged, b.sum.FilesRemoved,
		b.sum.SymbolsAdded, b.sum.SymbolsChgd, b.sum.SymbolsRmvd)
	if err != nil {
		return fmt.Errorf("record version: %w", err)
	}
	optHash, optJSON := b.options()
	// in a fixed order: the layout of the page depends on it
	for _, kv := range append(meta, [][2]string{
		{schema.MetaGoModules, goModulesMeta(b.project.goModules())},
		{schema.MetaOptions, optJSON},
		{schema.MetaOptionsHash, optHash},
		{schema.MetaRepoID, filepath.Base(b.root)},
		{schema.MetaSDLVersion, b.opts.SDLVersion},
	}...) {
		if err := schema.SetMeta(ctx, tx, kv[0], kv[1]); err != nil {
			return fmt.Errorf("write meta: %w", err)
		}
	}
	b.sum.NewVersion = true
	b.sum.GitCommit = b.git.commit
	b.sum.GitRef = b.git.ref
	return b.fillTotals(ctx, tx, seq, c)
}

// fillTotals fills the summary's totals for version seq with counts c.
func (b *build) fillTotals(ctx context.Context, tx *sql.Tx, seq int64, c counts) error {
	b.sum.Seq = seq
	b.sum.Version = VersionID(seq) + b.opts.VersionSuffix
	b.sum.Symbols, b.sum.Edges = c.symbols, c.edges
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM versions`).Scan(&b.sum.Versions); err != nil {
		return fmt.Errorf("count versions: %w", err)
	}
	b.sum.Files, b.sum.Skipped, b.sum.ParseErrors, b.sum.Unreadable = 0, 0, 0, 0
	for p, st := range b.tree {
		switch st.status {
		case StatusOK, StatusParseError:
			b.sum.Files++
			if st.lang != "" {
				b.sum.Languages[st.lang]++
			} else if l := lang.ForPath(p); l != nil {
				b.sum.Languages[l.Name]++
			}
			if st.status == StatusParseError {
				b.sum.ParseErrors++
			}
		case StatusParseFailed:
			b.sum.ParseErrors++
		case StatusUnreadable:
			b.sum.Unreadable++
		default:
			b.sum.Skipped++
		}
	}
	return nil
}
