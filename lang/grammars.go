package lang

import (
	"unsafe"

	"github.com/sdl-dev/sdl/lang/grammar"
)

// The grammar modules of the languages sdl indexes are pinned in go.mod;
// each language's room registers its grammar (a function of lang/grammar)
// from its init function. In the compact build (make build) a grammar's
// tables are compressed and filled on first use, so every use of the
// grammar goes through ready.

// ready returns the language's *TSLanguage with its tables filled.
func (l *Language) ready() unsafe.Pointer {
	grammar.Load(l.ts)
	return l.ts
}
