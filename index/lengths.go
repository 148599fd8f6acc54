package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/sdl-dev/sdl/schema"
)

// touchFTS notes that the full-text row rowid was written or deleted: its
// block of symbol_lengths is written again before the run commits.
func (w *writer) touchFTS(rowid int64) {
	if w.ftsBlocks == nil {
		w.ftsBlocks = map[int64]bool{}
	}
	w.ftsBlocks[rowid/schema.LengthsBlock] = true
}

// writeLengths writes the symbol_lengths blocks of the full-text rows this
// run touched, from FTS5's docsize table: the lengths are FTS5's own
// (its tokenizer counted them), so the two never disagree. A run of
// consecutive blocks is read in one statement.
func (w *writer) writeLengths(ctx context.Context, tx *sql.Tx) error {
	if len(w.ftsBlocks) == 0 {
		return nil
	}
	blocks := make([]int64, 0, len(w.ftsBlocks))
	for b := range w.ftsBlocks {
		blocks = append(blocks, b)
	}
	slices.Sort(blocks)
	for i := 0; i < len(blocks); {
		j := i + 1
		for j < len(blocks) && blocks[j] == blocks[j-1]+1 {
			j++
		}
		if err := writeLengthBlocks(ctx, tx, blocks[i], blocks[j-1]); err != nil {
			return err
		}
		i = j
	}
	w.ftsBlocks = nil
	return nil
}

// writeLengthBlocks writes blocks first..last of symbol_lengths; a block
// without rows is deleted. The docsize rows are read a row apiece: on
// GOROOT/src's 104k rows that takes about a third longer than one
// group_concat of them parsed as text (tens of ms of a minute's run), and
// leaves no text format to parse.
func writeLengthBlocks(ctx context.Context, tx *sql.Tx, first, last int64) error {
	lo, hi := first*schema.LengthsBlock, (last+1)*schema.LengthsBlock
	rows, err := tx.QueryContext(ctx, `SELECT id, sz FROM symbols_fts_docsize WHERE id >= ? AND id < ? ORDER BY id`, lo, hi)
	if err != nil {
		return fmt.Errorf("full-text lengths: %w", err)
	}
	defer rows.Close()
	lens := make([][]uint32, last-first+1)
	for rows.Next() {
		var id int64
		var sz sql.RawBytes
		if err := rows.Scan(&id, &sz); err != nil {
			return fmt.Errorf("full-text lengths: %w", err)
		}
		n, k, err := schema.DocsizeLength(sz, schema.SymbolsFTSColumns)
		if err == nil && k != len(sz) {
			err = fmt.Errorf("%d docsize bytes past the last column", len(sz)-k)
		}
		if err != nil {
			return fmt.Errorf("full-text lengths: row %d: %w", id, err)
		}
		b := id/schema.LengthsBlock - first
		if lens[b] == nil {
			lens[b] = make([]uint32, schema.LengthsBlock)
		}
		lens[b][id%schema.LengthsBlock] = uint32(n)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("full-text lengths: %w", err)
	}
	rows.Close()
	for i, l := range lens {
		block := first + int64(i)
		if l == nil {
			if _, err := tx.ExecContext(ctx, `DELETE FROM symbol_lengths WHERE block = ?`, block); err != nil {
				return fmt.Errorf("full-text lengths: %w", err)
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO symbol_lengths(block, lens) VALUES(?, ?)`, block, schema.EncodeLengths(l)); err != nil {
			return fmt.Errorf("full-text lengths: %w", err)
		}
	}
	return nil
}
