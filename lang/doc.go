// Package lang holds everything sdl knows about each programming language:
// the tree-sitter grammar, the query and the walk that turn a syntax tree
// into symbols, imports and references, the rules that resolve references to symbols, and
// the tables that recognise side effects. Both package index (which writes
// the index) and package query (which parses files on demand for skeletons
// and hot paths) use it.
//
// Parsing crosses into C twice per file: once to parse, once to copy the
// whole tree into a Go array of Nodes (flat.c), read from tree-sitter's
// subtrees through its internal headers (tsapi/ts, copies from the pinned
// go-tree-sitter: a version bump that changes them fails
// TestInternalHeadersMatch; copy them again and run TestFlattenMatchesCursor).
// A query with roots (Spec.QueryRoots) crosses a third time. Everything
// after that is Go.
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
//     types of locals, fields and parameters, and places the query's
//     definitions where it meets them (Spec.Place, below); lang/ruby's
//     Finish walk places the query's definitions too, and completes each
//     symbol with what the statements before it say (private,
//     module_function, class << self: fill). lang/csharp, lang/php and
//     lang/rust are Java's shape (PHP's walk places an anonymous class's
//     methods in the named class around it, Rust's an impl's items in
//     their type, impls last; Rust's Defs adds the functions a generator
//     macro's invocation declares). lang/golang's and lang/python's walks
//     look up the symbols the engine made by their nodes (Go's Defs makes
//     one definition of each name of a var spec; Python's names each
//     target of an assignment and keeps a name only where it is new in its
//     function or class, and its QueryRoot leaves a function's
//     assignments out). lang/c is two Specs, C and C++, sharing tags.scm
//     (cpp.scm adds what only C++'s grammar has): its Defs says which node
//     a symbol spans (a declaration of one name, a template), its Symbol
//     reads the declared name from the declarator, and its Finish places
//     an out-of-line A::f and walks the code; Spec.Pick chooses the
//     language of a file from its content (a .h header holding C++ is
//     C++). lang/javascript (JavaScript, TypeScript,
//     TSX: one query file for the family and one for TypeScript's kinds)
//     is Java's shape too: its Defs names what a module level statement or
//     a CommonJS assignment defines, X.prototype.m hanging from X with
//     Def.Parent. So are lang/kotlin and lang/swift, which share a
//     resolver (a QueryRoot keeps the query from local properties; DefName
//     names what has no name node, a secondary constructor, init). Each
//     pattern with child steps costs tree-sitter an analysis of the
//     grammar when the query compiles, which for Swift's large grammar
//     came to most of a second: Swift's patterns capture the defining
//     nodes alone and its Defs hook finds their names and bodies.
//   - Every room is a Spec: each language's definitions come from its
//     query. A Finish hook that walks the syntax tree with the Extractor
//     (AddSymbol, Ref, Guard, Throw, DocBefore, HeaderText) for what a
//     query cannot follow (scopes, types, effects) uses lang's engine:
//     Scope (local names and their types, a collection's element type,
//     type parameters' bounds, whether it is a function's; a walk holds a
//     *Scope, or embeds one beside what only its language tracks), IfGuard (if (cond) return/throw guards, a
//     language giving its fields and exits), MemberRules.FindMember and
//     Walk (a member over base types, depth first or, as Python's,
//     breadth first), the Context, Resolution and Target helpers (Bound,
//     Unbound, Pick, One, ModuleTarget, PreferDefinitions, TestFile,
//     UniqueMethod, EnclosingType, Outer, ClassOf, AfterCall), the shared
//     limits (MaxDepth, MaxChain, MaxAncestors, MaxBases, MaxSigText,
//     MaxEvidence) and the
//     skeleton renderer's SkelRules, Skel, Shape and Hole. A room whose
//     types have constrained type parameters may fill
//     Signature.TypeParams (each parameter with its constraint as its
//     Type); resolution then reads them as Target.TypeParams, so that a
//     field typed T of a class<T extends Base> is looked up on Base
//     (lang/javascript). Rooms that leave it empty see nothing of it.
//
// # Placing definitions
//
// A query finds declarations wherever they are; which of them become
// symbols, and under which parent, a Spec decides in one of two ways.
//
// By default the engine places them: a definition's parent is the
// nearest definition around it (or the Def.Parent a Defs hook gives), a
// variable in a function's code is no symbol unless Spec.LocalItems, and
// a function in a type is a method. A room whose Finish walks the file
// anyway (for the types of locals, calls, guards) then restates in its
// Defs hook where that walk goes, so that the symbols and the walk agree.
//
// With Spec.Place, the walk places them, and the rule is: a definition is
// a symbol where, and only where, the Finish walk meets it and calls
// x.Define(node, around), around being the symbol whose body or code the
// walk is in, which becomes its parent; symbols come in the walk's order.
// The engine's rules above still hold in Define (a variable met in a
// function's code is none unless LocalItems, a function in a type is a
// method, a blank name is none), and one more: a method or constructor
// met outside every type (at the file's top, in code) is a function. A
// walk may call Define wherever it meets a declaration and read ok false
// as "this is code of around"; what decides a member is the walk's own
// state (Java's: in a named type's body, not an anonymous class's). What
// the query does not capture the walk cannot define: the query says what
// a definition is, the walk where it belongs (a Defs hook may still add
// definitions no pattern matches, as Rust's for the functions a macro
// declares, and set their bodies). Several definitions at one node are
// made together, the first returned. The Symbol hook runs in Define, the
// symbol's Container already its parent's qualified name and Def.Parent
// its parent's node (0, the root, for the file). The query's references
// and imports are recorded after Finish, each in the innermost symbol
// around it; a walk that panics loses them with the symbols it had not
// placed yet, so a damaged file the walk trips on keeps less.
//
// To opt in: set Place; make the Finish walk call x.Define(node, around)
// where it meets each declaration, where it looked the engine's symbol up
// before (SymbolOf, a map of SymNode); read in the Symbol hook what the
// placing says (Def.Parent, Container) rather than climbing the tree; and
// delete the Defs code that restated the walk's reach and order. A
// declaration the walk does not reach is then no symbol: make the walk
// reach what should be one (Ruby's walk reads a class's ERROR children as
// its body). lang/java (the smallest change) and lang/ruby are the models;
// lang/csharp, lang/php and lang/rust follow.
//
// A room holds:
//
//   - the grammar: pin its Go module at an exact version in go.mod, add its
//     function to lang/grammar/module.go (and its pair to compact_test.go)
//     and give Spec.Grammar that function's result;
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
//     script), orders, adds to and hangs elsewhere (Def.Parent); Finish,
//     run last with the Extractor, for what spans the
//     file or needs its symbols (Bash's guards, file doc, export NAME);
//   - resolution: a Resolver (Spec.Resolver; lang.Resolvers makes one of
//     a Resolve and a ResolveImport function). NewPackageResolver is the one Kotlin, Swift and Scala
//     share (packages, imports of names and wildcards, members through
//     this and the bases; PackageRules.Extensions, set by Swift, looks
//     for a nested type in its module's files and binds a member a type
//     lacks to the one protocol that has it, for types extended
//     anywhere, unless a base outside the repository other than its
//     Markers may have it); a language whose modules are files writes its
//     own from Bound, Unbound, Pick, Unique and ModuleTarget, as lang/lua
//     and lang/bash do;
//   - its data files, embedded from the room's own directory (//go:embed
//     *.txt, given as Spec.Data, read with WordFile and WordList): word
//     lists (builtins, standard library names, names too common to bind by
//     name alone), testpaths.txt and effects.txt (Spec.Data);
//     a Spec may name its test files in TestFiles and TestDirs instead;
//   - a Fixup (Spec.Fixup) only where the pinned grammar
//     cannot read valid code: it returns source of the same length, the
//     code it cannot read made spaces with Blank (lang/scala, lang/csharp);
//     and a NoError (Spec.NoError) only where the grammar leaves an ERROR
//     node in code it reads right (lang/swift: the zero-width one before
//     a directive in a type's body), so that such a file is not marked a
//     parse error;
//   - the skeleton rules: a SkeletonSpec naming the node kinds the renderer
//     needs, or SkelRules with its own Member and Stmt readings
//     (Spec.Skeleton, Spec.SkelRules);
//   - a ProjectReader when the language has project files (Spec.Project;
//     lang/php reads composer.json);
//   - tests: resolution cases in lang/testdata/resolve/<language>/*.txtar
//     (TestResolveTxtar), extraction tests on real code (langtest.Extract
//     parses a test input and fails on its errors; langtest.Sym, Refs,
//     Imports and FactTexts render what came out; langtest.Table resolves
//     a few files as the index would), a seed in FuzzExtract, and a case in
//     testdata/script. A new room is named in lang/rooms and
//     kinds_test.go's rooms.
