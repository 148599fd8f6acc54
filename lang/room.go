package lang

import (
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"unsafe"
)

// Spec is a language given as data: the way a room (lang/<language>/)
// adds a language. Its definitions, references and imports come from a
// tags query (see doc.go for the capture names); its hooks say what a
// query cannot: signatures, visibility, the file's module, type names.
type Spec struct {
	Name       string
	Extensions []string // with the dot
	Filenames  []string
	Grammar    unsafe.Pointer // a function of lang/grammar: grammar.Go()
	// Query is the tags query; QueryFile its name, for messages.
	Query, QueryFile string
	// QueryRoots, when set, are the node kinds the query runs from: each
	// of its patterns starts at one of them, and only as deep below it as
	// the pattern reaches, so the code of a method body that holds no
	// definition is never walked (for Java, a query run over the whole
	// tree cost 13% of an index's CPU).
	QueryRoots []string
	// QueryRoot, when set, says whether the query runs from node n of a
	// root kind: a cheap look at it (Ruby's calls of attr_accessor among
	// all its calls) spares running the query from each.
	QueryRoot func(t *Tree, n int32) bool
	// Comments, Strings and Idents are the node kinds of comments, string
	// literals and identifiers (full-text words and fingerprints).
	Comments, Strings, Idents []string
	// Builtins are functions every file calls without an import: calls to
	// them are not resolved and summaries leave them out. The room's
	// builtins.txt, read at its first use.
	Builtins WordSet
	// TestFiles are path.Match patterns of the base names of test files;
	// TestDirs are directory names whose files are tests.
	TestFiles, TestDirs []string
	// Data holds the room's data files, embedded: testpaths.txt and
	// effects.txt are read at registration; word lists through WordFile.
	Data fs.FS

	// Symbol completes a symbol made from a definition match: signature,
	// visibility, the container a name like M.f carries. It returns false
	// to drop the definition.
	Symbol func(t *Tree, d Def, s *Symbol) bool
	// Ref completes a reference (its qualifier's type, say); it returns
	// false to drop it.
	Ref func(t *Tree, m *Match, r *Ref) bool
	// Import reads an @import node into the imports it binds; without it,
	// the @import.source, @import.alias and @import.name captures do.
	Import func(t *Tree, node int32) []Import
	// Module names the file for other files' imports; without it, the
	// @module captures joined with "." do.
	Module func(filePath string, t *Tree, captured string) string
	// Defs sees the file's definitions at once, outer first, and returns
	// those that make symbols: what a match alone cannot say, such as
	// Bash's rule that a variable assigned again is no new symbol. A
	// definition it drops leaves its references to the enclosing symbol.
	Defs func(t *Tree, defs []Def) []Def
	// DefName, when set, names a definition whose match captured no @name
	// (Kotlin's secondary constructor, which is its class's); one it
	// names "" is dropped, as is every unnamed one without it.
	DefName func(t *Tree, d Def) string
	// LocalItems keeps a variable defined in a function a symbol (Rust's
	// const and static items), where a local variable is dropped.
	LocalItems bool
	// OwnBases says the hooks name every type's bases: its extends and
	// implements references add none (Rust's impls say which traits are
	// a type's bases, and not every impl does).
	OwnBases bool
	// OwnDocs says the Symbol hook reads each definition's doc itself,
	// so the engine reads none before it (DocBefore).
	OwnDocs bool
	// Finish completes the file's facts after the query's, with the
	// Extractor: guards, a file's doc, a symbol a later statement changes.
	Finish func(x *Extractor)
	// Place says Finish places the definitions: the engine makes no
	// symbol of them before it, and its walk of the file calls
	// Extractor.Define where it meets each declaration, so the walk's
	// reach and order decide which are symbols and their parents
	// (doc.go, "Placing definitions"). The query's references and
	// imports are recorded after Finish.
	Place bool

	// Fixup, when set, returns what the parser reads instead of a file's
	// source, of the same length, where the grammar cannot read valid
	// code; the tree keeps the source as its text.
	Fixup func(src []byte) []byte
	// Insert, when set, returns what the parser reads where the grammar
	// needs bytes the code lacks (C# 12's "class C(int x) : B(x);" has no
	// body, which tree-sitter-c-sharp requires: the room reads "{}" for its
	// ";"), with the ascending offsets in that text of the bytes it added,
	// or nil when it adds none. The tree keeps the source as its text, its
	// ranges mapped back: an added byte is an empty node.
	Insert func(src []byte) ([]byte, []uint32)
	// NoError, when set, says whether ERROR node n is a leftover of the
	// pinned grammar in valid code rather than a syntax error (Swift's
	// zero-width one before a directive among a type's members): the
	// file's diagnostics leave it out, so a file with no other error is
	// not marked a parse error. It sees ERROR nodes only, never MISSING
	// ones; without it every ERROR counts.
	NoError func(t *Tree, n int32) bool
	// Pick, when set, chooses the language a file is parsed as from its
	// content (a .h file is C or C++ by what it holds), and may return the
	// source with what the grammar cannot read blanked out: the same
	// length, so that every offset and line still holds.
	Pick func(filePath string, src []byte) (*Language, []byte)

	Resolver Resolver
	// Project reads the language's project files (PHP's composer.json,
	// JavaScript's package.json).
	Project  ProjectReader
	Skeleton *SkeletonSpec
	// SkelRules, instead of Skeleton, are skeleton rules written in Go,
	// for a language whose clauses a SkeletonSpec cannot
	// name.
	SkelRules *SkelRules
}

// Resolver binds the references and imports of one language.
type Resolver interface {
	Resolve(ctx *Context, r *Ref) Resolution
	ResolveImport(ctx *Context, imp *Import, name string) Resolution
}

// Resolvers is a Resolver made of a room's two functions.
type Resolvers struct {
	Ref    func(ctx *Context, r *Ref) Resolution
	Import func(ctx *Context, imp *Import, name string) Resolution
}

func (rs Resolvers) Resolve(ctx *Context, r *Ref) Resolution { return rs.Ref(ctx, r) }
func (rs Resolvers) ResolveImport(ctx *Context, imp *Import, name string) Resolution {
	return rs.Import(ctx, imp, name)
}

// Def is one definition a query found: the defining node, its name and
// body (-1 when not captured), and the symbol kind of its capture.
type Def struct {
	Node, Name, Body int32
	Kind             string
	Match            *Match
	// Parent, when a Defs hook sets it (0 when not), is the defining node
	// of the definition this one hangs from, where that is not the
	// nearest one around it: Rust's impl members hang from their type,
	// declared elsewhere; PHP's methods of an anonymous class in a method
	// from the named class. A definition it places is kept even as a
	// function's variable. In Define (Spec.Place) the Symbol hook sees
	// there the node of the parent the walk gave, 0 for the file.
	Parent int32
}

// Capture names of a tags query: @definition.<kind> and @reference.<kind>
// take the kinds below; @name, @body, @receiver, @module, @import and its
// parts are fixed; captures starting with _ are the query's own.
var refKinds = map[string]string{"call": RefCall, "new": RefNew, "extends": RefExtends, "implements": RefImplements, "ref": RefReference}

var fixedCaptures = []string{"name", "body", "receiver", "module", "import", "import.source", "import.alias", "import.name", "doc"}

// Register adds the language of a room. Its query is compiled when the
// language parses its first file, not at start-up: tree-sitter analyses
// the whole grammar for it (about 160 ms of CPU for Scala's here), which a
// process that parses no Scala should not pay. A query that does not
// compile panics then; TestQueriesCompile compiles every room's query, so
// that a node kind the grammar lacks fails a test before anything ships.
func Register(s Spec) *Language {
	l := &Language{Name: s.Name, Extensions: s.Extensions, Filenames: s.Filenames, data: s.Data, fixup: s.Fixup, insert: s.Insert, noError: s.NoError, Project: s.Project, pick: s.Pick}
	register(l, s.Grammar)
	l.setSyntax(s.Comments, s.Strings, s.Idents)
	l.builtins = s.Builtins
	l.querySrc = func() (*Query, error) {
		q, err := CompileQuery(l, s.QueryFile, s.Query)
		if err == nil {
			err = checkCaptures(q)
		}
		if err == nil && len(s.QueryRoots) > 0 {
			err = q.setRoots(l, s.QueryFile, s.Query, s.QueryRoots)
			q.rootIf = s.QueryRoot
		}
		return q, err
	}
	spec := s
	// the one test-path predicate (IsTestPath) reads the spec's patterns
	l.testPaths = append(l.testPaths, spec.testRules()...)
	l.extract = func(x *Extractor) { extractTags(x, &spec) }
	if s.Resolver != nil {
		l.resolve = s.Resolver.Resolve
		l.resolveImport = s.Resolver.ResolveImport
	}
	if s.Skeleton != nil {
		skelRulesByName[s.Name] = s.Skeleton.rules()
	}
	if s.SkelRules != nil {
		skelRulesByName[s.Name] = s.SkelRules
	}
	return l
}

// checkCaptures reports a capture name a tags query may not use.
func checkCaptures(q *Query) error {
	for _, c := range q.captures {
		switch {
		case strings.HasPrefix(c, "_"), slices.Contains(fixedCaptures, c):
		case strings.HasPrefix(c, "definition."):
			if !slices.Contains(Kinds, strings.TrimPrefix(c, "definition.")) {
				return fmt.Errorf("%w: @%s names no symbol kind (%s)", ErrQuery, c, strings.Join(Kinds, ", "))
			}
		case strings.HasPrefix(c, "reference."):
			if refKinds[strings.TrimPrefix(c, "reference.")] == "" {
				return fmt.Errorf("%w: @%s names no reference kind (call, new, extends, implements, ref)", ErrQuery, c)
			}
		default:
			return fmt.Errorf("%w: unknown capture @%s", ErrQuery, c)
		}
	}
	return nil
}

// Query returns the language's compiled tags query, nil for a language
// whose extractor is written in Go.
func (l *Language) Query() *Query {
	if l.querySrc == nil {
		return nil
	}
	l.queryOnce.Do(func() {
		q, err := l.querySrc()
		if err != nil {
			panic(fmt.Sprintf("lang: %v", err))
		}
		l.query = q
	})
	return l.query
}

// testRules are the spec's test-file patterns as rules of a
// testpaths.txt: TestFiles match base names, TestDirs any directory.
func (s *Spec) testRules() testPathRules {
	var rs testPathRules
	for _, pat := range s.TestFiles {
		rs = append(rs, pathRule{where: "base", glob: pat})
	}
	for _, d := range s.TestDirs {
		rs = append(rs, pathRule{where: "dir", glob: d})
	}
	return rs
}

// extractTags makes a file's facts from its query matches.
func extractTags(x *Extractor, s *Spec) {
	t := x.Tree
	var defs []Def
	var module []string
	seen := map[int32]bool{}
	for i := range t.Matches {
		m := &t.Matches[i]
		for _, c := range m.Captures {
			switch {
			case strings.HasPrefix(c.Name, "definition."):
				if seen[c.Node] {
					continue
				}
				seen[c.Node] = true
				defs = append(defs, Def{Node: c.Node, Name: m.Node("name"), Body: m.Node("body"), Kind: strings.TrimPrefix(c.Name, "definition."), Match: m})
			case c.Name == "module":
				module = append(module, t.Text(c.Node))
			}
		}
	}
	// outer definitions first, so that a parent is added before its members
	sort.SliceStable(defs, func(a, b int) bool {
		na, nb := &t.Nodes[defs[a].Node], &t.Nodes[defs[b].Node]
		return defs[a].Node < defs[b].Node || defs[a].Node == defs[b].Node && na.EndByte > nb.EndByte
	})
	if s.Defs != nil {
		defs = s.Defs(t, defs)
	}
	symOf := map[int32]int{} // defining node -> symbol
	// enclosing is the symbol whose code holds node n: the innermost
	// symbol whose node is an ancestor, the module when none is
	enclosing := func(n int32) int {
		for p := t.Parent(n); p >= 0; p = t.Parent(p) {
			if s, ok := symOf[p]; ok {
				return s
			}
		}
		return 0
	}
	refs := func() {
		for i := range t.Matches {
			m := &t.Matches[i]
			for _, c := range m.Captures {
				switch {
				case strings.HasPrefix(c.Name, "reference."):
					x.tagRef(s, m, c, enclosing(c.Node))
				case c.Name == "import":
					x.tagImport(s, m, c.Node, enclosing(c.Node))
				}
			}
		}
	}
	if s.Place {
		x.spec, x.defsAt = s, make(map[int32][]Def, len(defs))
		for _, d := range defs {
			x.defsAt[d.Node] = append(x.defsAt[d.Node], d)
		}
	} else {
		for _, d := range defs {
			parent := enclosing(d.Node)
			if p, ok := symOf[d.Parent]; ok && d.Parent > 0 {
				parent = p
			}
			if i, ok := x.defSymbol(s, d, parent, d.Parent != 0); ok {
				symOf[d.Node] = i
			}
		}
		refs()
	}
	captured := strings.Join(module, ".")
	if s.Module != nil {
		captured = s.Module(x.Path, t, captured)
	}
	x.Facts.Module = captured
	if s.Finish != nil {
		s.Finish(x)
	}
	if s.Place {
		// the walk placed the symbols: a reference or import is made in
		// the innermost one around it
		for i, n := range x.SymNode[1:] {
			if _, ok := symOf[n]; !ok && n >= 0 {
				symOf[n] = i + 1
			}
		}
		refs()
	}
	// a class's extends and implements references are its bases, unless
	// its Symbol hook named them as written (Java's keep their type
	// arguments: "Comparable<T>")
	if s.OwnBases {
		return
	}
	named := map[int]bool{}
	for i := range x.Facts.Symbols {
		if len(x.Facts.Symbols[i].Signature.Bases) > 0 {
			named[i] = true
		}
	}
	for _, r := range x.Facts.Refs {
		if (r.Kind == RefExtends || r.Kind == RefImplements) && r.Symbol > 0 && IsTypeKind(x.Facts.Symbols[r.Symbol].Kind) && !named[r.Symbol] {
			b := r.Name
			if r.Qualifier != "" {
				b = r.Qualifier + "." + b
			}
			sig := &x.Facts.Symbols[r.Symbol].Signature
			sig.Bases = append(sig.Bases, b)
		}
	}
}

// defSymbol makes the symbol of definition d, a member of symbol parent,
// by the rules every Spec shares: a variable in a function's code is none
// unless the room keeps local items or the definition was placed there
// (a Defs hook's Parent), a function in a type is a method. ok is false
// when it makes none.
func (x *Extractor) defSymbol(s *Spec, d Def, parent int, placed bool) (int, bool) {
	t := x.Tree
	var name string
	switch {
	case d.Name >= 0:
		name = t.Text(d.Name)
	case s.DefName != nil:
		name = s.DefName(t, d)
	}
	if name == "" {
		return parent, false
	}
	pk := x.Facts.Symbols[parent].Kind
	if d.Kind == KindVariable && !placed && !s.LocalItems && (pk == KindFunction || pk == KindMethod || pk == KindConstructor) {
		return parent, false // a function's locals are not symbols
	}
	if d.Kind == KindFunction && IsTypeKind(pk) {
		d.Kind = KindMethod
	}
	sym := Symbol{Kind: d.Kind, Name: name, Parent: parent, Exported: true}
	if x.defsAt != nil && parent > 0 {
		// placed by a walk (Define): the Symbol hook sees the container,
		// which a name like Ruby's A::B extends
		sym.Container = x.Facts.Symbols[parent].Qualified()
	}
	if !s.OwnDocs {
		sym.Doc = x.DocBefore(d.Node)
	}
	sym.Signature.Text = x.HeaderText(d.Node, d.Body)
	if s.Symbol != nil && !s.Symbol(t, d, &sym) {
		return parent, false
	}
	i := x.AddSymbol(sym, d.Node, d.Name, d.Body)
	return i, i == len(x.Facts.Symbols)-1
}

// Define makes the symbols of the query's definitions at node n, for the
// Finish walk of a Spec that places its definitions (Spec.Place), which
// meets n in the body or code of symbol around: their parent. The rules
// of defSymbol hold, a method or constructor outside every type (at the
// file's top, in code) is a function, and each definition is made once:
// met again, n makes none. It returns the first symbol made; ok is false,
// and sym around, when it makes none.
func (x *Extractor) Define(n int32, around int) (sym int, ok bool) {
	sym = around
	pk := x.Facts.Symbols[around].Kind
	for _, d := range x.defsAt[n] {
		if (d.Kind == KindMethod || d.Kind == KindConstructor) && !IsTypeKind(pk) && (around == 0 || pk != KindModule) {
			d.Kind = KindFunction
		}
		d.Parent = max(x.SymNode[around], 0) // for the Symbol hook: the parent's node, the root for the file
		if i, made := x.defSymbol(x.spec, d, around, false); made && !ok {
			sym, ok = i, true
		}
	}
	delete(x.defsAt, n)
	return sym, ok
}

// tagRef records the reference of capture c, made in symbol owner.
func (x *Extractor) tagRef(s *Spec, m *Match, c Capture, owner int) {
	t := x.Tree
	name := m.Node("name")
	if name < 0 {
		return
	}
	r := Ref{Kind: refKinds[strings.TrimPrefix(c.Name, "reference.")], Name: t.Text(name), Symbol: owner}
	if q := m.Node("receiver"); q >= 0 {
		r.Qualifier = OneLine(t.Text(q))
	}
	if s.Ref != nil && !s.Ref(t, m, &r) {
		return
	}
	x.Ref(r, c.Node)
}

func (x *Extractor) tagImport(s *Spec, m *Match, node int32, sym int) {
	t := x.Tree
	var imps []Import
	if s.Import != nil {
		imps = s.Import(t, node)
	} else if src := m.Node("import.source"); src >= 0 {
		imp := Import{Source: t.Text(src)}
		if a := m.Node("import.alias"); a >= 0 {
			imp.Alias = t.Text(a)
		}
		for _, c := range m.Captures {
			if c.Name == "import.name" {
				imp.Names = append(imp.Names, ImportName{Name: t.Text(c.Node)})
			}
		}
		imps = []Import{imp}
	}
	for _, imp := range imps {
		imp.Line, imp.Symbol = t.StartLine(node), sym
		x.Facts.Imports = append(x.Facts.Imports, imp)
	}
}
