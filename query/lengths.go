package query

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/sdl-dev/sdl/schema"
)

// readLengthTable reads every full-text row's length from symbol_lengths
// (schema/lengths.go): about 1.5 bytes a row in some dozens of blobs,
// where FTS5's docsize table is a B-tree row per symbol. ok is false for a
// file without the table. Each block is decoded once, into a buffer the
// row count sizes; blocks 0..n-1 without a gap (the usual file) are the
// dense lengths as they stand.
func readLengthTable(ctx context.Context, conn *sql.Conn) (lens *rowLens, ok bool, err error) {
	rows, err := conn.QueryContext(ctx, `SELECT block, lens, count(*) OVER () FROM symbol_lengths ORDER BY block`)
	if err != nil {
		if exists, e := schema.TableExists(ctx, conn, "symbol_lengths"); e == nil && !exists {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("full-text lengths: %w", err)
	}
	defer rows.Close()
	var buf []int32 // the blocks read, one after another
	var at []int64  // each one's first rowid
	held := 0       // rows of a length above 0
	for rows.Next() {
		var n, count int64
		var b sql.RawBytes
		if err := rows.Scan(&n, &b, &count); err != nil {
			return nil, false, fmt.Errorf("full-text lengths: %w", err)
		}
		if n < 0 || n >= maxLengthBlocks || count > maxLengthBlocks {
			return nil, false, fmt.Errorf("%w: block %d of %d", schema.ErrLengths, n, count)
		}
		if buf == nil {
			buf = make([]int32, 0, count*schema.LengthsBlock)
		}
		buf = slices.Grow(buf, schema.LengthsBlock)
		l := buf[len(buf) : len(buf)+schema.LengthsBlock]
		if err := schema.DecodeLengths(b, l); err != nil {
			return nil, false, fmt.Errorf("block %d: %w", n, err)
		}
		buf, at = buf[:len(buf)+schema.LengthsBlock], append(at, n*schema.LengthsBlock)
		for _, v := range l {
			if v != 0 {
				held++
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("full-text lengths: %w", err)
	}
	top := int64(0) // past the last row
	if len(at) > 0 {
		top = at[len(at)-1] + schema.LengthsBlock
	}
	if top > maxDenseSlack*int64(held)+1024 {
		// rowids left behind by many incremental runs: a map takes less
		m := make(map[int64]int32, held)
		for i, a := range at {
			for j, v := range buf[i*schema.LengthsBlock : (i+1)*schema.LengthsBlock] {
				if v != 0 {
					m[a+int64(j)] = v
				}
			}
		}
		return &rowLens{sparse: m}, true, nil
	}
	if top == int64(len(buf)) {
		return &rowLens{dense: buf}, true, nil
	}
	dense := make([]int32, top)
	for i, a := range at {
		copy(dense[a:], buf[i*schema.LengthsBlock:(i+1)*schema.LengthsBlock])
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
