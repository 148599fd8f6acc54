package schema

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The symbol_lengths table: the length in tokens of every symbols_fts row,
// which bm25 divides by. FTS5 keeps it in symbols_fts_docsize, a B-tree
// row per symbol; a question that matches thousands of rows paid a lookup
// for each. Here block b holds the rows b*LengthsBlock ..
// b*LengthsBlock+LengthsBlock-1, each an unsigned LEB128 varint (0 where
// there is no row), trailing zeros left out: about 1.5 bytes a row.

// LengthsBlock is how many rowids one symbol_lengths row holds.
const LengthsBlock = 4096

// ErrLengths means a symbol_lengths block is not one this sdl wrote.
var ErrLengths = errors.New("full-text lengths: bad block")

// EncodeLengths encodes the lengths of a block's rows, in rowid order (at
// most LengthsBlock of them).
func EncodeLengths(lens []uint32) []byte {
	n := len(lens)
	for n > 0 && lens[n-1] == 0 {
		n--
	}
	out := make([]byte, 0, n+n/2)
	for _, v := range lens[:n] {
		out = binary.AppendUvarint(out, uint64(v))
	}
	return out
}

// DecodeLengths decodes a block into dst (of LengthsBlock entries), rows
// past its end 0. A value past int32, a varint cut short or more than
// LengthsBlock of them is ErrLengths: the file is not trusted.
func DecodeLengths(b []byte, dst []int32) error {
	if len(dst) < LengthsBlock {
		return fmt.Errorf("decode lengths: %d entries to decode into", len(dst))
	}
	i := 0
	for len(b) > 0 {
		if i == LengthsBlock {
			return fmt.Errorf("%w: more than %d rows", ErrLengths, LengthsBlock)
		}
		v, k := binary.Uvarint(b)
		if k <= 0 {
			return fmt.Errorf("%w: row %d", ErrLengths, i)
		}
		if v > math.MaxInt32 {
			return fmt.Errorf("%w: row %d is %d tokens", ErrLengths, i, v)
		}
		dst[i] = int32(v)
		b = b[k:]
		i++
	}
	clear(dst[i:LengthsBlock])
	return nil
}

// SymbolsFTSColumns is how many columns symbols_fts has (tables.sql).
const SymbolsFTSColumns = 7

// DocsizeLength reads a row's record of FTS5's docsize table from the
// front of b: a size per column, each a SQLite varint (big-endian groups
// of 7 bits, the ninth byte whole). It returns the row's length (their
// sum) and the record's size in bytes.
func DocsizeLength(b []byte, columns int) (n int64, size int, err error) {
	for range columns {
		u, k := SQLiteVarint(b[size:])
		if k == 0 {
			return 0, 0, fmt.Errorf("full-text docsize: a record cut short")
		}
		if u < 0 || u > math.MaxInt32 || n+u > math.MaxInt32 {
			return 0, 0, fmt.Errorf("full-text docsize: a row of more than %d tokens", math.MaxInt32)
		}
		n += u
		size += k
	}
	return n, size, nil
}

// SQLiteVarint decodes SQLite's varint (FTS5 writes its records with it):
// big-endian groups of 7 bits, the ninth byte whole. n is 0 past the end.
func SQLiteVarint(b []byte) (v int64, n int) {
	var u uint64
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, 0
		}
		if i == 8 {
			u = u<<8 | uint64(b[i])
			return int64(u), 9
		}
		u = u<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return int64(u), i + 1
		}
	}
	return int64(u), 9
}
