package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"

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
// consecutive blocks is read in one statement, its rows aggregated into
// one result (a row apiece through database/sql cost several times the
// reading).
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
// without rows is deleted.
func writeLengthBlocks(ctx context.Context, tx *sql.Tx, first, last int64) error {
	lo, hi := first*schema.LengthsBlock, (last+1)*schema.LengthsBlock
	var ids, sizes []byte
	err := tx.QueryRowContext(ctx, `SELECT ifnull(group_concat(id, ','), ''), ifnull(group_concat(sz, x''), x'') FROM
		(SELECT id, sz FROM symbols_fts_docsize WHERE id >= ? AND id < ? ORDER BY id)`, lo, hi).Scan(&ids, &sizes)
	if err != nil {
		return fmt.Errorf("full-text lengths: %w", err)
	}
	lens := make([][]uint32, last-first+1)
	for len(ids) > 0 {
		d := 0
		for d < len(ids) && ids[d] != ',' {
			d++
		}
		id, err := strconv.ParseInt(string(ids[:d]), 10, 64)
		if err != nil || id < lo || id >= hi {
			return fmt.Errorf("full-text lengths: docsize id %q", ids[:d])
		}
		ids = ids[min(d+1, len(ids)):]
		n, k, err := schema.DocsizeLength(sizes, schema.SymbolsFTSColumns)
		if err != nil {
			return fmt.Errorf("full-text lengths: row %d: %w", id, err)
		}
		sizes = sizes[k:]
		b := id/schema.LengthsBlock - first
		if lens[b] == nil {
			lens[b] = make([]uint32, schema.LengthsBlock)
		}
		lens[b][id%schema.LengthsBlock] = uint32(n)
	}
	if len(sizes) != 0 {
		return fmt.Errorf("full-text lengths: %d docsize bytes past the last row", len(sizes))
	}
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
