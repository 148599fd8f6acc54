// Package lang holds everything sdl knows about each programming language:
// the tree-sitter grammar, the walker that turns a syntax tree into symbols,
// imports and references, the rules that resolve references to symbols, and
// the tables that recognise side effects. Both package index (which writes
// the index) and package query (which parses files on demand for skeletons
// and hot paths) use it.
//
// Parsing crosses into C twice per file: once to parse, once to copy the
// whole tree into a Go array of Nodes (flat.c). Everything after that is Go.
//
// Data a language is configured by lives in data/<language>/ as plain
// text, embedded in the binary and read once at start-up (data.go): the
// patterns of its test files (testpaths.txt, read by the one test-path
// predicate IsTestPath that index, query and serve share), its word lists
// (builtins.txt, common_methods.txt, std.txt) and its side-effect table
// (effects.txt, over the effects of data/effects.txt). Its resolution is
// locked by the txtar cases of testdata/resolve/<language>/
// (resolve_txtar_test.go says the format).
package lang
