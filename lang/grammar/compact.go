//go:build sdl_compact

package grammar

import (
	"embed"
	"fmt"
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
	sizes  []int
}

var grammars = map[unsafe.Pointer]*compact{}

// register runs from the generated init, before anything can call Load.
func register(lang unsafe.Pointer, blob string, tables unsafe.Pointer, sizes []int) {
	grammars[lang] = &compact{blob: blob, tables: tables, sizes: sizes}
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

func (g *compact) fill() error {
	z, err := blobs.ReadFile(g.blob)
	if err != nil {
		return fmt.Errorf("read blob: %w", err)
	}
	total := 0
	for _, s := range g.sizes {
		total += s
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(total)))
	if err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	defer dec.Close()
	raw, err := dec.DecodeAll(z, make([]byte, 0, total))
	if err != nil {
		return fmt.Errorf("decompress: %w", err)
	}
	if len(raw) != total {
		return fmt.Errorf("decompress: %d bytes, want %d", len(raw), total)
	}
	ptrs := unsafe.Slice((*unsafe.Pointer)(g.tables), len(g.sizes))
	for i, s := range g.sizes {
		copy(unsafe.Slice((*byte)(ptrs[i]), s), raw[:s])
		raw = raw[s:]
	}
	return nil
}
