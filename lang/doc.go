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
// Data a language is configured by lives beside its code as plain text,
// embedded in the binary and read once at start-up (data.go), in its room
// (lang/<language>/*.txt): the patterns of its test files (testpaths.txt, read by the one test-path
// predicate IsTestPath that extraction and serve share; resolution reads
// the flag extraction set, Target.Test), its word lists
// (builtins.txt, common_methods.txt, std.txt) and its side-effect table
// (effects.txt, over the effects of data/effects.txt). Its resolution is
// locked by the txtar cases of testdata/resolve/<language>/
// (resolve_txtar_test.go says the format).
package lang

// # How to add a language
//
// A language is a room, lang/<language>/, a package that registers it from
// its init function; package lang/rooms imports every room, and index,
// query and lang's own tests (rooms_test.go) import it, so lang imports
// none of them. A room registers in one of two ways:
//
//   - Register(Spec{...}): a tags query (tags.scm) finds definitions,
//     references and imports, and Go hooks say what a query cannot. For a
//     language whose files read plainly: lang/lua (430 lines of Go and 102
//     of query) and lang/scala (431 lines of Go, 128 of them the Fixup of
//     what its grammar misreads, and 103 of query) are the models; what
//     their Go holds is what no query says: a name's kind or container
//     that depends on another statement of the file (Lua's M.f = f is a
//     function only when f is one; a package object names the package
//     unless a packaging block of its name follows), the local a receiver
//     or a bare call names (ChildrenBefore), signatures, import selectors,
//     and resolution. lang/bash (848 and 40) is the model of a query with
//     more Go beside it (which assignments make variables, the command a
//     wrapper runs, guards: the Defs and Finish hooks), and lang/java of
//     a query for definitions beside a walk for type inference: its
//     Finish walks the file for calls, resolving receivers through the
//     types of locals, fields and parameters, and looks up the symbol the
//     query made of each declaration it meets; lang/ruby's Finish walk
//     also completes each symbol with what the statements before it say
//     (private, module_function, class << self: fill). lang/csharp and
//     lang/php are Java's shape: their Defs hook says where the walk meets
//     a declaration (place: a type's member, code, a script's top level,
//     or nowhere the walk reads) and, for PHP, the class that holds it
//     (Def.Parent: an anonymous class's methods are the named class's);
//     their Finish walks find the query's symbols with
//     Extractor.SymbolOf. lang/golang and lang/rust are that shape too
//     (Go's Defs makes one definition of each name of a var spec; Rust's
//     hangs an impl's items from their type with Def.Parent), and so are
//     lang/kotlin and lang/swift, which share a resolver (a QueryRoot
//     keeps the query from local properties; DefName names what has no
//     name node, a secondary constructor, init). Each pattern with child
//     steps costs tree-sitter an analysis of the grammar when the query
//     compiles, which for Swift's large grammar came to most of a second:
//     Swift's patterns capture the defining nodes alone and its Defs
//     hook finds their names and bodies.
//   - RegisterWalker(Walker{...}): a walker, Go code that walks the syntax
//     tree with an Extractor (AddSymbol, Ref, Guard, Throw, DocBefore,
//     HeaderText), for a language whose scopes, types and effects a query
//     cannot follow: lang/python, lang/c (C and
//     C++) and lang/javascript (JavaScript; TypeScript and TSX are Specs
//     whose Finish is the walker).
//     The engine a walker uses is lang's: Scope (local names and their
//     types, a collection's element type, type parameters' bounds, whether
//     it is a function's; a walker holds a *Scope, or embeds one beside what
//     only its language tracks), IfGuard (if (cond) return/throw guards, a
//     language giving its fields and exits), MemberRules.FindMember and
//     Walk (a member over base types, depth first or, as Python's,
//     breadth first), the Context, Resolution and Target helpers (Bound,
//     Unbound, Pick, One, ModuleTarget, PreferDefinitions, TestFile,
//     UniqueMethod, EnclosingType, Outer, ClassOf, AfterCall), the shared
//     limits (MaxDepth, MaxChain, MaxAncestors, MaxBases, MaxSigText,
//     MaxEvidence) and the
//     skeleton renderer's SkelRules, Skel, Shape and Hole.
//
// A room holds:
//
//   - the grammar: pin its Go module at an exact version in go.mod, add its
//     function to lang/grammar/module.go (and its pair to compact_test.go)
//     and give Spec.Grammar (Walker.Grammar) that function's result;
//   - for a Spec, tags.scm, embedded: the definitions, references and
//     imports, started from the grammar's own queries/tags.scm. Captures:
//     @definition.<kind> on the defining node, kind one of Kinds
//     (function, class, interface, type, module, method, constructor,
//     variable; a function inside a class becomes a method, a variable
//     inside a function is dropped); @name on its name (a definition
//     without one is dropped, unless the DefName hook names it: Kotlin's
//     secondary constructors, named after their class) and @body on its
//     body; @reference.<kind> (call, new, extends, implements, ref) with
//     @name and, for x.f(), @receiver; @import with @import.source,
//     @import.alias, @import.name, or the Import hook; @module, the file's
//     package (several join with "."). Captures starting with _ are the
//     query's own, for predicates (#eq?, #not-eq?, #match?, #any-of? and
//     their negations) and for the hooks, which read them from the match
//     (Def.Match.Node: Lua's @_params, the parameters of a function, and
//     @_alias, the value of M.f = f). Where a query can say it, say it
//     there rather than in a hook: which parents make a val a member
//     (Scala), which statements hold an alias (Lua). A node two patterns
//     capture as a definition makes one symbol, of the first match; make
//     patterns exclusive rather than rely on which that is. The query is compiled when the room registers, and
//     TestQueriesCompile compiles every room's file: a node kind, field or
//     capture the grammar or sdl does not know fails by name and line.
//     A query runs over the whole tree, which costs a walk of every node
//     in C (for Java, 13% of an index's CPU); with Spec.QueryRoots it
//     runs from the nodes of those kinds only, each pattern starting at
//     one and reaching no deeper than it names (lang/java: each
//     declaration and import, so method bodies are never walked; its Defs
//     hook says which declarations are members), and a pattern that
//     starts at another kind fails to compile. Spec.QueryRoot narrows
//     the roots by a look at the node (lang/ruby runs it from calls of
//     attr_accessor, not from every call);
//   - for a Spec, hooks for what a query cannot say, each optional: Symbol
//     (signature, visibility, a container such as Lua's M in M.f; the
//     Tree's Path names the file), Ref (a receiver's type from a parameter
//     or a local, found with Tree.ChildrenBefore; false drops it),
//     Import, Module; Defs, the file's definitions at once, which it
//     filters (Bash: only a variable's first assignment at the top of a
//     script), orders, adds to and hangs elsewhere (Def.Parent: lang/rust
//     walks its containers over items alone, impls last, and hangs an
//     impl's items from their type); Finish, run last with the Extractor, for what spans the
//     file or needs its symbols (Bash's guards, file doc, export NAME);
//     for a Walker, Extract, the walker itself;
//   - resolution: a Resolver (Spec.Resolver), or Resolve and ResolveImport
//     (Walker). NewPackageResolver is the one Kotlin, Swift and Scala
//     share (packages, imports of names and wildcards, members through
//     this and the bases); a language whose modules are files writes its
//     own from Bound, Unbound, Pick, Unique and ModuleTarget, as lang/lua
//     and lang/bash do;
//   - its data files, embedded from the room's own directory (//go:embed
//     *.txt, given as Walker.Data, read with WordFile and WordList): word
//     lists (builtins, standard library names, names too common to bind by
//     name alone), testpaths.txt and effects.txt (Walker.Data, Spec.Data);
//     a Spec may name its test files in TestFiles and TestDirs instead;
//   - a Fixup (Spec.Fixup, Walker.Fixup) only where the pinned grammar
//     cannot read valid code: it returns source of the same length, the
//     code it cannot read made spaces with Blank (lang/scala, lang/csharp);
//   - the skeleton rules: a SkeletonSpec naming the node kinds the renderer
//     needs, or SkelRules with its own Member and Stmt readings
//     (Walker.Skeleton, Spec.SkelRules);
//   - a ProjectReader when the language has project files (Spec.Project,
//     Walker.Project; lang/php reads composer.json);
//   - tests: resolution cases in lang/testdata/resolve/<language>/*.txtar
//     (TestResolveTxtar), extraction tests on real code (langtest.Extract
//     parses a test input and fails on its errors; langtest.Sym, Refs,
//     Imports and FactTexts render what came out; langtest.Table resolves
//     a few files as the index would), a seed in FuzzExtract, and a case in
//     testdata/script. A new room is named in lang/rooms and
//     kinds_test.go's rooms.
