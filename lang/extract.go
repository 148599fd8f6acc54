package lang

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Limits on what one symbol contributes to the full-text index.
const (
	maxIdents      = 256
	maxWords       = 1024
	MaxSigText     = 400
	maxDoc         = 4000
	MaxEvidence    = 120
	maxFactsPerSym = 12
)

// syntax holds the node kinds a language uses for comments, strings and
// identifiers, as bitsets over grammar symbol ids.
type syntax struct {
	comment []bool
	str     []bool
	ident   []bool
}

// setSyntax names the kinds of comments, string literals and identifiers;
// loadNames makes them into sets of grammar symbol ids.
func (l *Language) setSyntax(comments, strs, idents []string) {
	l.synNames = [3][]string{comments, strs, idents}
}

func (l *Language) kindSet(names []string) []bool {
	set := make([]bool, len(l.kinds))
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for id, k := range l.kinds {
		if want[k] {
			set[id] = true
		}
	}
	return set
}

// IsComment reports whether node i is a comment.
func (t *Tree) IsComment(i int32) bool { return inSet(t.Lang.syn.comment, t.Nodes[i].Kind) }

// IsString reports whether node i is a string literal.
func (t *Tree) IsString(i int32) bool { return inSet(t.Lang.syn.str, t.Nodes[i].Kind) }

// IsIdent reports whether node i is an identifier of any sort.
func (t *Tree) IsIdent(i int32) bool { return inSet(t.Lang.syn.ident, t.Nodes[i].Kind) }

func inSet(set []bool, kind uint16) bool { return int(kind) < len(set) && set[kind] }

// Extractor carries the state of one file's extraction.
type Extractor struct {
	Tree     *Tree
	Facts    *FileFacts
	Path     string
	SymNode  []int32 // the node each symbol was made from
	nameNode []int32 // the node of each symbol's name, -1 when none
	bodyNode []int32 // the node of each symbol's body, -1 when none
	Guards   [][]Fact
	throws   [][]Fact
	// symOf maps the nodes of SymNode[1:symSeen] to their symbols
	// (SymbolOf)
	symOf   map[int32]int
	symSeen int
	// spec and defsAt, for a Spec that places its definitions: the
	// query's definitions by defining node, until Define makes them
	spec   *Spec
	defsAt map[int32][]Def
	// scratch holds the slices reused from file to file
	scratch *extractScratch
}

// Extract parses src as language l and returns what the file defines and
// references. A file with syntax errors is extracted as far as tree-sitter
// recovered it; its errors are listed in FileFacts.Errors.
func Extract(p *Parser, l *Language, filePath string, src []byte) (*FileFacts, error) {
	t, err := p.ParseFile(l, filePath, src)
	if err != nil {
		return nil, err
	}
	return ExtractTree(t, filePath), nil
}

// extractScratch is where one file's symbols and references grow, and its
// symbols' fingerprint texts, kept from file to file: grown afresh for
// every file they were a fifth of a full build's allocations, twice the
// size of what the facts keep, which get exact-size copies.
type extractScratch struct {
	syms  []Symbol
	refs  []Ref
	hs    []fpHasher
	byRef []Ref // finish's references grouped by symbol
}

// maxScratchSymbols bounds the scratch a pool keeps: the symbols of a file
// that has more (generated tables) are not kept for the next file.
const (
	maxScratchSymbols = 1 << 13
	maxScratchRefs    = 1 << 16
)

var scratchPool = sync.Pool{New: func() any { return new(extractScratch) }}

// keep takes back what file facts f grew in the scratch and gives f
// exact-size copies.
func (sc *extractScratch) keep(f *FileFacts) {
	syms, refs := f.Symbols, f.Refs
	f.Symbols, f.Refs = exactCopy(syms), exactCopy(refs)
	clear(syms)
	clear(refs)
	sc.syms, sc.refs = nil, nil
	if cap(syms) <= maxScratchSymbols {
		sc.syms = syms[:0]
	}
	if cap(refs) <= maxScratchRefs {
		sc.refs = refs[:0]
	}
}

// exactCopy is a copy of s with no spare capacity, nil when s is empty.
func exactCopy[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// ExtractTree extracts facts from an already parsed tree.
func ExtractTree(t *Tree, filePath string) *FileFacts {
	sc := scratchPool.Get().(*extractScratch)
	defer scratchPool.Put(sc)
	return extractTree(t, filePath, sc)
}

// extractTree is ExtractTree growing what it can in sc (nil: none).
func extractTree(t *Tree, filePath string, sc *extractScratch) *FileFacts {
	f := &FileFacts{Lang: t.Lang.Name}
	if sc != nil {
		f.Symbols, f.Refs = sc.syms[:0], sc.refs[:0]
		defer sc.keep(f)
	}
	x := &Extractor{Tree: t, Facts: f, Path: filePath, scratch: sc}
	if t.Len() == 0 {
		x.addModule(-1)
		return f
	}
	x.addModule(0)
	// a test file by the parsed language's rules: a script without an
	// extension is parsed by its #! line, which ForPath cannot see
	if t.Lang.IsTestPath(filePath) {
		f.IsTest = true
		f.Symbols[0].IsTest = true
	}
	if !guarded(StageExtract, &f.Faults, func() {
		if ExtractHook != nil {
			ExtractHook(filePath)
		}
		t.Lang.extract(x)
	}) {
		x.truncate()
	}
	f.Errors = t.errorDiagnostics(50)
	guarded(StageDerive, &f.Faults, x.finish)
	return f
}

// ExtractHook, when set, runs inside the guarded extraction of every
// file. Tests set it to inject faults.
var ExtractHook func(filePath string)

// truncate makes what a failed extraction left consistent: the symbols
// whose bookkeeping is complete, and the references and imports that hang
// from them.
func (x *Extractor) truncate() {
	n := min(len(x.Facts.Symbols), len(x.SymNode), len(x.nameNode), len(x.bodyNode), len(x.Guards), len(x.throws))
	x.Facts.Symbols, x.SymNode, x.nameNode, x.bodyNode = x.Facts.Symbols[:n], x.SymNode[:n], x.nameNode[:n], x.bodyNode[:n]
	x.Guards, x.throws = x.Guards[:n], x.throws[:n]
	for i := range x.Facts.Symbols {
		if x.Facts.Symbols[i].Parent >= n {
			x.Facts.Symbols[i].Parent = -1
		}
	}
	refs := x.Facts.Refs[:0]
	for _, r := range x.Facts.Refs {
		if r.Symbol < n {
			refs = append(refs, r)
		}
	}
	x.Facts.Refs = refs
	imps := x.Facts.Imports[:0]
	for _, imp := range x.Facts.Imports {
		if imp.Symbol < n {
			imps = append(imps, imp)
		}
	}
	x.Facts.Imports = imps
}

// addModule adds the file's module symbol, which every top-level symbol
// and every module-level reference hangs from.
func (x *Extractor) addModule(root int32) {
	name := strings.TrimSuffix(path.Base(x.Path), path.Ext(x.Path))
	s := Symbol{Kind: KindModule, Name: name, Parent: -1, Exported: true, Visibility: VisPublic}
	if root >= 0 {
		s.Range = x.Tree.Range(root)
		s.StartByte, s.EndByte = x.Tree.Nodes[root].StartByte, x.Tree.Nodes[root].EndByte
		s.Range.StartLine, s.Range.StartCol = 1, 0
	}
	x.Facts.Symbols = append(x.Facts.Symbols, s)
	x.SymNode = append(x.SymNode, root)
	x.nameNode = append(x.nameNode, -1)
	x.bodyNode = append(x.bodyNode, root)
	x.Guards = append(x.Guards, nil)
	x.throws = append(x.throws, nil)
}

// Range returns the source range of node i.
func (t *Tree) Range(i int32) Range {
	n := &t.Nodes[i]
	return Range{StartLine: int(n.StartRow) + 1, StartCol: int(n.StartCol), EndLine: int(n.EndRow) + 1, EndCol: int(n.EndCol)}
}

// errorDiagnostics lists up to max syntax errors of the tree, but the
// ERROR nodes the language's NoError says are none.
func (t *Tree) errorDiagnostics(max int) []Diagnostic {
	var out []Diagnostic
	if t.Len() == 0 || !t.HasError(0) {
		return nil
	}
	for i := int32(0); i < t.Len(); {
		n := &t.Nodes[i]
		if n.Flags&FlagHasError == 0 && n.Flags&(FlagError|FlagMissing) == 0 {
			i = n.End
			continue
		}
		if n.Flags&FlagMissing != 0 {
			out = append(out, Diagnostic{Line: int(n.StartRow) + 1, Col: int(n.StartCol), Message: fmt.Sprintf("missing %s", t.Kind(i))})
		} else if n.Flags&FlagError != 0 {
			if t.Lang.noError != nil && t.Lang.noError(t, i) {
				i = n.End
				continue
			}
			out = append(out, Diagnostic{Line: int(n.StartRow) + 1, Col: int(n.StartCol), Message: "syntax error: unexpected " + Shorten(OneLine(t.Text(i)), 40)})
			if len(out) >= max {
				break
			}
			i = n.End
			continue
		}
		if len(out) >= max {
			break
		}
		i++
	}
	return out
}

// OneLine collapses runs of white space, newlines included, to one space.
func OneLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// Shorten cuts s to at most n bytes on a rune boundary, marking the cut.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// finish computes, for every symbol, what the shared rules derive from its
// own code: fingerprint, identifiers, words, facts and summary.
func (x *Extractor) finish() {
	t, f := x.Tree, x.Facts
	n := len(f.Symbols)
	type span struct {
		sym        int
		start, end int32
	}
	order := make([]span, 0, n)
	for s := 0; s < n; s++ {
		if i := x.SymNode[s]; i >= 0 {
			order = append(order, span{s, i, t.Nodes[i].End})
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return order[a].start < order[b].start })

	idents := make([]map[string]struct{}, n)
	words := make([]strings.Builder, n)
	hs := x.fpHashers(n)
	var stack []span
	next := 0
	for i := int32(0); i < t.Len(); {
		for len(stack) > 0 && i >= stack[len(stack)-1].end {
			done := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				// the enclosing symbol's next gap starts after this one:
				// a member's code belongs to the member's fingerprint
				// alone, so a container changes when its own code does
				hs[stack[len(stack)-1].sym].skip(t.Nodes[x.SymNode[done.sym]].EndByte)
			}
		}
		for next < len(order) && order[next].start <= i {
			if order[next].start == i {
				stack = append(stack, order[next])
			}
			next++
		}
		if len(stack) == 0 {
			i++
			continue
		}
		s := stack[len(stack)-1].sym
		node := &t.Nodes[i]
		switch {
		case t.IsComment(i):
			// Comments outside every symbol are mostly the doc comments
			// of the symbols that follow them, already kept as their docs.
			if s != 0 {
				addWords(&words[s], t.Bytes(i))
			}
			hs[s].gap(t.Src, node.StartByte)
			hs[s].skip(node.EndByte)
			i = node.End
			continue
		case t.IsString(i):
			b := t.Bytes(i)
			hs[s].gap(t.Src, node.StartByte)
			hs[s].add(node.Kind, b, node.EndByte)
			addWords(&words[s], b)
			i = node.End
			continue
		case node.End == i+1: // a leaf
			if i == x.nameNode[s] {
				hs[s].skip(node.EndByte)
				break
			}
			b := t.Bytes(i)
			hs[s].gap(t.Src, node.StartByte)
			hs[s].add(node.Kind, b, node.EndByte)
			if t.IsIdent(i) && len(b) > 1 && len(b) < 64 {
				m := idents[s]
				if m == nil {
					m = map[string]struct{}{}
					idents[s] = m
				}
				// looked up first: the lookup does not copy b, and a body
				// repeats most of its identifiers
				if _, ok := m[string(b)]; !ok && len(m) < maxIdents {
					m[string(b)] = struct{}{}
				}
			}
		}
		i++
	}
	// A container's fingerprint also covers which members it has.
	for s := n - 1; s >= 1; s-- {
		p := f.Symbols[s].Parent
		if p > 0 && p < n {
			hs[p].addString(f.Symbols[s].Kind + " " + f.Symbols[s].Name)
		}
	}
	// each symbol's references in order, cut from one array: appending
	// them one by one was a twentieth of a full build's allocations
	start := make([]int, n+1)
	for _, r := range f.Refs {
		if r.Symbol >= 0 && r.Symbol < n {
			start[r.Symbol+1]++
		}
	}
	for s := 1; s <= n; s++ {
		start[s] += start[s-1]
	}
	byRef := x.refsByCaller(start[n])
	defer clear(byRef)
	fill := append([]int(nil), start[:n]...)
	for _, r := range f.Refs {
		if r.Symbol >= 0 && r.Symbol < n {
			byRef[fill[r.Symbol]] = r
			fill[r.Symbol]++
		}
	}
	calls := make([][]Ref, n)
	for s := 0; s < n; s++ {
		if start[s] < start[s+1] {
			calls[s] = byRef[start[s]:start[s+1]:start[s+1]]
		}
	}
	for s := 0; s < n; s++ {
		sym := &f.Symbols[s]
		validText(sym)
		sym.Fingerprint = hs[s].sum()
		if m := idents[s]; len(m) > 0 {
			sym.Idents = make([]string, 0, len(m))
			for k := range m {
				sym.Idents = append(sym.Idents, k)
			}
			sort.Strings(sym.Idents)
		}
		sym.Words = words[s].String()
		sym.Invariants = capFacts(append(x.Guards[s], unguarded(x.throws[s], x.Guards[s])...))
		sym.SideEffects = capFacts(sideEffects(t.Lang, calls[s]))
		if sym.Doc != "" {
			sym.Doc = Shorten(sym.Doc, maxDoc)
		}
		sym.Signature.Text = Shorten(sym.Signature.Text, MaxSigText)
		sym.Summary = summarize(sym, calls[s], t.Lang.builtins)
	}
}

// unguarded drops the throws that a guard already reports ("if x then
// panic" and the panic itself).
func unguarded(throws, guards []Fact) []Fact {
	var out []Fact
	for _, th := range throws {
		covered := false
		for _, g := range guards {
			if th.Line >= g.Line && th.Line <= g.Line+2 && strings.HasSuffix(g.Text, " then "+guardVerb(th.Kind)) {
				covered = true
			}
		}
		if !covered {
			out = append(out, th)
		}
	}
	return out
}

// guardVerb is the action word a guard uses for a throw kind.
func guardVerb(kind string) string {
	switch kind {
	case "panics":
		return "panic"
	case "raises":
		return "raise"
	case "throws":
		return "throw"
	}
	return kind
}

func capFacts(fs []Fact) []Fact {
	if len(fs) > maxFactsPerSym {
		fs = fs[:maxFactsPerSym]
	}
	return fs
}

func addWords(b *strings.Builder, text []byte) {
	if b.Len() >= maxWords {
		return
	}
	room := maxWords - b.Len()
	if len(text) > room {
		text = text[:room]
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	// Keep letters and digits only: punctuation and comment markers add
	// nothing to full-text search.
	space := false
	for _, r := range string(text) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		} else {
			space = true
		}
	}
}

// fpHasher accumulates a symbol's fingerprint: the kinds and texts of its
// own leaves, and the punctuation between them (which the flattened tree
// leaves out), without white space or comments.
type fpHasher struct {
	buf []byte
	end uint32 // where the last leaf seen ended
	set bool
}

// fpHashers returns n empty hashers, whose buffers the scratch keeps for
// the next file (up to maxScratchSymbols of them, maxScratchText each).
func (x *Extractor) fpHashers(n int) []fpHasher {
	sc := x.scratch
	if sc == nil || n > maxScratchSymbols {
		return make([]fpHasher, n)
	}
	if cap(sc.hs) < n {
		sc.hs = append(sc.hs[:cap(sc.hs)], make([]fpHasher, n-cap(sc.hs))...)
	}
	hs := sc.hs[:n]
	for i := range hs {
		buf := hs[i].buf[:0]
		if cap(buf) > maxScratchText {
			buf = nil
		}
		hs[i] = fpHasher{buf: buf}
	}
	return hs
}

// refsByCaller returns room for n references, the scratch's when it has
// it.
func (x *Extractor) refsByCaller(n int) []Ref {
	sc := x.scratch
	if sc == nil || n > maxScratchRefs {
		return make([]Ref, n)
	}
	if cap(sc.byRef) < n {
		sc.byRef = make([]Ref, max(n, 2*cap(sc.byRef)))
	}
	return sc.byRef[:n]
}

// maxScratchText bounds the buffer of one hasher a scratch keeps.
const maxScratchText = 64 << 10

// gap adds the non-space bytes between the previous leaf and start.
func (h *fpHasher) gap(src []byte, start uint32) {
	if !h.set || start <= h.end || int(start) > len(src) {
		return
	}
	for _, c := range src[h.end:start] {
		if !IsSpaceByte(c) {
			h.buf = append(h.buf, c)
		}
	}
}

func (h *fpHasher) add(kind uint16, text []byte, end uint32) {
	h.buf = append(h.buf, byte(kind), byte(kind>>8))
	h.buf = append(h.buf, text...)
	h.buf = append(h.buf, 0)
	h.end, h.set = end, true
}

// skip moves past a leaf that does not count (a comment, the name).
func (h *fpHasher) skip(end uint32) { h.end, h.set = end, true }

func (h *fpHasher) addString(s string) {
	h.buf = append(h.buf, s...)
	h.buf = append(h.buf, 0)
}

func (h *fpHasher) sum() string {
	sum := sha256.Sum256(h.buf)
	return hex.EncodeToString(sum[:8])
}

// validText makes the text a symbol carries valid UTF-8: source files need
// not be, and everything sdl stores and prints is.
func validText(s *Symbol) {
	for _, p := range []*string{&s.Name, &s.Container, &s.Doc, &s.Signature.Text, &s.Signature.Returns, &s.Signature.Receiver} {
		if !utf8.ValidString(*p) {
			*p = strings.ToValidUTF8(*p, "\uFFFD")
		}
	}
	for i := range s.Signature.Params {
		s.Signature.Params[i].Name = strings.ToValidUTF8(s.Signature.Params[i].Name, "\uFFFD")
		s.Signature.Params[i].Type = strings.ToValidUTF8(s.Signature.Params[i].Type, "\uFFFD")
		s.Signature.Params[i].Default = strings.ToValidUTF8(s.Signature.Params[i].Default, "\uFFFD")
	}
	for i := range s.Signature.Fields {
		s.Signature.Fields[i].Name = strings.ToValidUTF8(s.Signature.Fields[i].Name, "\uFFFD")
		s.Signature.Fields[i].Type = strings.ToValidUTF8(s.Signature.Fields[i].Type, "\uFFFD")
	}
}
