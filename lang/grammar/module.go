//go:build !sdl_compact

package grammar

import (
	"unsafe"

	tsswift "github.com/alex-pinkus/tree-sitter-swift/bindings/go"
	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	tslua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// The grammars as their modules' bindings compile them: what go build,
// go test and go install use. This file is also the list cmd/grammargen
// reads: each function's one call names the binding, and through it the
// parser.c, that the compact build compresses.

func Bash() unsafe.Pointer       { return tsbash.Language() }
func C() unsafe.Pointer          { return tsc.Language() }
func CPP() unsafe.Pointer        { return tscpp.Language() }
func CSharp() unsafe.Pointer     { return tscsharp.Language() }
func Go() unsafe.Pointer         { return tsgo.Language() }
func Java() unsafe.Pointer       { return tsjava.Language() }
func JavaScript() unsafe.Pointer { return tsjs.Language() }
func Kotlin() unsafe.Pointer     { return tskotlin.Language() }
func Lua() unsafe.Pointer        { return tslua.Language() }
func PHP() unsafe.Pointer        { return tsphp.LanguagePHP() }
func Python() unsafe.Pointer     { return tspy.Language() }
func Ruby() unsafe.Pointer       { return tsruby.Language() }
func Rust() unsafe.Pointer       { return tsrust.Language() }
func Scala() unsafe.Pointer      { return tsscala.Language() }
func Swift() unsafe.Pointer      { return tsswift.Language() }
func TSX() unsafe.Pointer        { return tsts.LanguageTSX() }
func TypeScript() unsafe.Pointer { return tsts.LanguageTypescript() }

// Load makes a grammar's tables ready for use; the modules' tables are
// compiled in, ready.
func Load(unsafe.Pointer) {}
