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

// # How to add a language
//
// A language is a room, lang/<language>/, a package that registers it from
// its init function with Register(Spec{...}); index and query import the
// room (index/rooms.go, query/rooms.go) and so does lang's own tests
// (rooms_test.go), so lang imports none of them. lang/lua (367 lines of Go
// and 65 of query) and lang/scala (278 and 87) are the models. A room holds:
//
//   - the grammar: pin its Go module at an exact version in go.mod and give
//     Spec.Grammar its Language();
//   - tags.scm, embedded: the definitions, references and imports, started
//     from the grammar's own queries/tags.scm. Captures: @definition.<kind>
//     on the defining node, kind one of Kinds (function, class, interface,
//     type, module, method, constructor, variable; a function inside a
//     class becomes a method, a variable inside a function is dropped);
//     @name on its name and @body on its body; @reference.<kind> (call,
//     new, extends, implements, ref) with @name and, for x.f(), @receiver;
//     @import with @import.source, @import.alias, @import.name, or the
//     Import hook; @module, the file's package (several join with ".").
//     Captures starting with _ are the query's own, for predicates (#eq?,
//     #not-eq?, #match?, #any-of? and their negations). The query is
//     compiled when the room registers, and TestQueriesCompile compiles
//     every room's file: a node kind, field or capture the grammar or sdl
//     does not know fails by name and line;
//   - hooks for what a query cannot say, each optional: Symbol (signature,
//     visibility, a container such as Lua's M in M.f), Ref (a receiver's
//     type from a parameter or a local), Import, Module;
//   - resolution: a Resolver. NewPackageResolver is the one Kotlin and
//     Swift share (packages, imports of names and wildcards, members
//     through this and the bases); a language whose modules are files
//     writes its own from Bound, Unbound, Pick and ModuleTarget, as lua.go;
//   - word lists as data files (builtins, standard library names, names
//     too common to bind by name alone), test-file patterns, and a
//     SkeletonSpec naming the node kinds the skeleton renderer needs;
//   - tests: resolution cases in lang/testdata/resolve/<language>/*.txtar
//     (TestResolveTxtar), extraction tests on real code (langtest.Extract
//     parses a test input and fails on its errors), a seed in FuzzExtract,
//     and a case in testdata/script.
