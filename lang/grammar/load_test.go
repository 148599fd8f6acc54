//go:build sdl_compact

package grammar

import (
	"strings"
	"testing"
)

// BenchmarkFill is a language's first-use cost in the compact build:
// decompressing its tables into place (go test -tags sdl_compact -bench
// Fill ./lang/grammar/).
func BenchmarkFill(b *testing.B) {
	for _, g := range grammars {
		name := strings.TrimSuffix(strings.TrimPrefix(g.blob, "zgrammar_"), ".zst")
		b.Run(name, func(b *testing.B) {
			total := 0
			for _, s := range g.sizes {
				total += s
			}
			b.SetBytes(int64(total))
			for b.Loop() {
				if err := g.fill(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
