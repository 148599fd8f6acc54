package query

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sdl-dev/sdl/schema"
)

// TestReadLengthTableLayouts reads symbol_lengths tables of three layouts
// back through readLengthTable: blocks without a gap, blocks with a gap
// (dense still), and blocks far apart (sparse): every row's length is the
// one written, and a rowid between blocks has none.
func TestReadLengthTableLayouts(t *testing.T) {
	const lb = schema.LengthsBlock
	full := func(seed uint32) []uint32 {
		l := make([]uint32, lb)
		for i := range l {
			l[i] = seed + uint32(i%7)
		}
		return l
	}
	few := []uint32{0, 3, 0, 9}
	for _, c := range []struct {
		name       string
		blocks     map[int64][]uint32
		wantSparse bool
	}{
		{"no gap", map[int64][]uint32{0: full(1), 1: full(20)}, false},
		{"a gap", map[int64][]uint32{0: full(1), 2: full(20)}, false},
		{"far apart", map[int64][]uint32{0: few, 100: few}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := schema.OpenWrite(filepath.Join(t.TempDir(), "l.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`CREATE TABLE symbol_lengths (block INTEGER PRIMARY KEY, lens BLOB NOT NULL)`); err != nil {
				t.Fatal(err)
			}
			top := int64(0)
			for b, l := range c.blocks {
				if _, err := db.Exec(`INSERT INTO symbol_lengths VALUES(?, ?)`, b, schema.EncodeLengths(l)); err != nil {
					t.Fatal(err)
				}
				top = max(top, (b+1)*lb)
			}
			conn, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			lens, ok, err := readLengthTable(ctx, conn)
			if err != nil || !ok {
				t.Fatalf("read: ok %v, %v", ok, err)
			}
			if (lens.sparse != nil) != c.wantSparse {
				t.Errorf("sparse %v, want %v", lens.sparse != nil, c.wantSparse)
			}
			for r := range top + lb {
				want := int32(0)
				if l, ok := c.blocks[r/lb]; ok && int(r%lb) < len(l) {
					want = int32(l[r%lb])
				}
				if got := lens.at(r); got != want {
					t.Fatalf("row %d: length %d, want %d", r, got, want)
				}
			}
		})
	}
}
