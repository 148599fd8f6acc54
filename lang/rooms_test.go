package lang_test

// The rooms register into the lang package under test (an external test
// package may import what imports lang), so lang's own tests, the
// resolution cases among them, see their languages.
import _ "github.com/sdl-dev/sdl/lang/rooms"
