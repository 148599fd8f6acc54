package index

// The languages that live in rooms of their own register from their init
// functions (lang/rooms names them all); lang itself imports none of them.
import _ "github.com/sdl-dev/sdl/lang/rooms"
