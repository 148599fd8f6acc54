package lang_test

// The rooms register into the lang package under test (an external test
// package may import what imports lang), so lang's own tests, the
// resolution cases among them, see their languages.
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
