package query

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/sdl-dev/sdl/schema"
)

// readLengthTable reads every full-text row's length from symbol_lengths
// (schema/lengths.go): about 1.5 bytes a row in some dozens of blobs,
// where FTS5's docsize table is a B-tree row per symbol. ok is false for a
// file without the table.
func readLengthTable(ctx context.Context, conn *sql.Conn) (lens *rowLens, ok bool, err error) {
	rows, err := conn.QueryContext(ctx, `SELECT block, lens FROM symbol_lengths ORDER BY block`)
	if err != nil {
		if exists, e := schema.TableExists(ctx, conn, "symbol_lengths"); e == nil && !exists {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("full-text lengths: %w", err)
	}
	defer rows.Close()
	type block struct {
		at   int64 // its first rowid
		lens []int32
	}
	var blocks []block
	held, top := 0, int64(0) // rows of a length above 0, and past the last
	for rows.Next() {
		var n int64
		var b sql.RawBytes
		if err := rows.Scan(&n, &b); err != nil {
			return nil, false, fmt.Errorf("full-text lengths: %w", err)
		}
		if n < 0 || n >= maxLengthBlocks {
			return nil, false, fmt.Errorf("%w: block %d", schema.ErrLengths, n)
		}
		l := make([]int32, schema.LengthsBlock)
		if err := schema.DecodeLengths(b, l); err != nil {
			return nil, false, fmt.Errorf("block %d: %w", n, err)
		}
		blocks = append(blocks, block{n * schema.LengthsBlock, l})
		for _, v := range l {
			if v != 0 {
				held++
			}
		}
		top = (n + 1) * schema.LengthsBlock
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("full-text lengths: %w", err)
	}
	if top > maxDenseSlack*int64(held)+1024 {
		// rowids left behind by many incremental runs: a map takes less
		m := make(map[int64]int32, held)
		for _, b := range blocks {
			for i, v := range b.lens {
				if v != 0 {
					m[b.at+int64(i)] = v
				}
			}
		}
		return &rowLens{sparse: m}, true, nil
	}
	dense := make([]int32, top)
	for _, b := range blocks {
		copy(dense[b.at:], b.lens)
	}
	return &rowLens{dense: dense}, true, nil
}

// maxLengthBlocks bounds the block numbers of symbol_lengths a reader
// accepts (rowids up to 2^31): a hostile block number would otherwise size
// an allocation.
const maxLengthBlocks = 1 << 31 / schema.LengthsBlock

// tableLengths reads the row lengths and the table's totals from
// symbol_lengths, once: a few hundred µs, so that the first question of a
// process scores in Go with every length at hand. A file without the
// table leaves them to the docsize table (loadLengths, onceLengths).
func (x *Index) tableLengths(ctx context.Context) error {
	t := &x.fts
	t.mu.Lock()
	done := t.lens != nil || t.noTable
	t.mu.Unlock()
	if done {
		return nil
	}
	v := &x.vocab
	v.mu.Lock()
	err := v.open(ctx, x)
	gen := t.generation() // after open, which resets it when the file changed
	var lens *rowLens
	var ok bool
	var nRow int64
	var avgdl float64
	if err == nil {
		lens, ok, err = readLengthTable(ctx, v.conn)
	}
	if err == nil && ok {
		nRow, avgdl, err = readTotals(ctx, v.conn)
	}
	v.mu.Unlock()
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen != gen {
		return nil // the file changed meanwhile: read again when asked
	}
	if !ok {
		t.noTable = true
		return nil
	}
	t.lens, t.nRow, t.avgdl = lens, nRow, avgdl
	return nil
}

// lengths returns the row lengths held, or nil, and the table's totals.
func (t *ftsTerms) lengths() (*rowLens, int64, float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lens, t.nRow, t.avgdl
}
