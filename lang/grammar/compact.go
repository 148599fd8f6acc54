//go:build sdl_compact

package grammar

import (
	"embed"
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/zstd"
)

// The compact grammars (make build): cmd/grammargen writes each grammar's
// parser with its large tables left empty, and the tables as one zstd
// blob, which Load decompresses into them the first time the language is
// used. A process that parses nothing pays for no grammar.

//go:embed zgrammar_*.zst
var blobs embed.FS

// compact is one grammar whose tables wait in a blob.
type compact struct {
	once   sync.Once
	blob   string
	tables unsafe.Pointer // void *const *: the C arrays to fill, in blob order
	sizes  []int          // their sizes
	packed []int          // the sizes of their zstd frames in the blob
}

var grammars = map[unsafe.Pointer]*compact{}

// register runs from the generated init, before anything can call Load.
func register(lang unsafe.Pointer, blob string, tables unsafe.Pointer, sizes, packed []int) {
	grammars[lang] = &compact{blob: blob, tables: tables, sizes: sizes, packed: packed}
}

// Load fills the tables of the grammar lang (a pointer one of this
// package's functions returned) once; it is safe for concurrent use.
func Load(lang unsafe.Pointer) {
	g := grammars[lang]
	if g == nil {
		return
	}
	g.once.Do(func() {
		if err := g.fill(); err != nil {
			// the blob is embedded beside the C that checks its sizes: a
			// failure is a broken build, not a condition to handle
			panic(fmt.Errorf("grammar: %s: %w", g.blob, err))
		}
	})
}

// fill decodes each frame straight into its C table: no copy, and no Go
// buffer the size of the tables.
func (g *compact) fill() error {
	z, err := blobs.ReadFile(g.blob)
	if err != nil {
		return fmt.Errorf("read blob: %w", err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(slices.Max(g.sizes))))
	if err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	defer dec.Close()
	ptrs := unsafe.Slice((*unsafe.Pointer)(g.tables), len(g.sizes))
	for i, size := range g.sizes {
		if len(z) < g.packed[i] {
			return fmt.Errorf("table %d: the blob is short", i)
		}
		table := unsafe.Slice((*byte)(ptrs[i]), size)
		out, err := dec.DecodeAll(z[:g.packed[i]], table[:0])
		if err != nil {
			return fmt.Errorf("table %d: %w", i, err)
		}
		if len(out) != size {
			return fmt.Errorf("table %d: %d bytes, want %d", i, len(out), size)
		}
		if &out[0] != &table[0] { // the decoder grew the slice elsewhere
			copy(table, out)
		}
		z = z[g.packed[i]:]
	}
	return nil
}
