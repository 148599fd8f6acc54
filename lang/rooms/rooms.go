// Package rooms registers every language that lives in a room of its own
// (lang/<language>/): each room registers from its init function, and
// lang imports none of them, so what parses or resolves code (index,
// query, lang's own tests) imports this package for its side effect. A
// new room is named here once.
package rooms

import (
	_ "github.com/sdl-dev/sdl/lang/bash"
	_ "github.com/sdl-dev/sdl/lang/c"
	_ "github.com/sdl-dev/sdl/lang/csharp"
	_ "github.com/sdl-dev/sdl/lang/golang"
	_ "github.com/sdl-dev/sdl/lang/java"
	_ "github.com/sdl-dev/sdl/lang/javascript"
	_ "github.com/sdl-dev/sdl/lang/kotlin"
	_ "github.com/sdl-dev/sdl/lang/lua"
	_ "github.com/sdl-dev/sdl/lang/php"
	_ "github.com/sdl-dev/sdl/lang/python"
	_ "github.com/sdl-dev/sdl/lang/ruby"
	_ "github.com/sdl-dev/sdl/lang/rust"
	_ "github.com/sdl-dev/sdl/lang/scala"
	_ "github.com/sdl-dev/sdl/lang/swift"
)
