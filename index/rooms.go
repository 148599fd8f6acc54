package index

// The languages that live in rooms of their own (lang/<language>/)
// register from their init functions; the index and the query package
// import them, so lang itself imports none of them.
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
