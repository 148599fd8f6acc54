package lang

/*
#cgo CFLAGS: -I${SRCDIR}/tsapi -std=c11 -O2 -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE
#include "flat.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"sort"
	"time"
	"unsafe"

	// The tree-sitter runtime itself: its C code is linked into the binary
	// and called from flat.c.
	_ "github.com/tree-sitter/go-tree-sitter"
)

// Node flags, as set by flat.c.
const (
	FlagNamed    = 1
	FlagError    = 2
	FlagMissing  = 4
	FlagExtra    = 8
	FlagHasError = 16
)

// Node is one syntax node of a flattened tree. Nodes are stored in
// pre-order; the children of node i are i+1, Nodes[i+1].End, ... up to
// Nodes[i].End. The layout matches sdl_node in flat.h.
type Node struct {
	Kind      uint16
	Field     uint16
	Flags     uint16
	_         uint16
	Parent    int32
	End       int32
	StartByte uint32
	EndByte   uint32
	StartRow  uint32
	StartCol  uint32
	EndRow    uint32
	EndCol    uint32
}

func init() {
	if unsafe.Sizeof(Node{}) != unsafe.Sizeof(C.sdl_node{}) {
		panic("lang: Node and sdl_node differ in size")
	}
	// This init runs after go-tree-sitter's, which installs its allocator.
	C.sdl_use_libc_allocator()
}

// ReleaseMemory gives the memory that parsers and trees freed back to the
// system: call it when a batch of parses is over (see flat.c).
func ReleaseMemory() { C.sdl_release_memory() }

// ErrParse is returned when tree-sitter produces no tree at all (timeout or
// an unusable grammar); a tree with syntax errors is not an error.
var ErrParse = errors.New("parse failed")

// DefaultParseTimeout bounds the parse of one file. Real files take
// milliseconds; only hostile input comes near it.
const DefaultParseTimeout = 20 * time.Second

// Parser parses files of any registered language. It is not safe for
// concurrent use: keep one per worker.
type Parser struct {
	p       *C.TSParser
	buf     []Node
	Timeout time.Duration
}

// NewParser returns a parser; Close it when done.
func NewParser() *Parser {
	return &Parser{p: C.ts_parser_new(), Timeout: DefaultParseTimeout}
}

// Close frees the parser.
func (p *Parser) Close() {
	if p.p != nil {
		C.ts_parser_delete(p.p)
		p.p = nil
	}
}

// Parse parses src as language l (or the language l picks for this content:
// the tree's Lang says which, and its Src what was parsed) and returns the
// flattened tree. The tree
// shares no memory with C; it keeps a reference to src, and its nodes live in
// the parser's buffer: the tree is valid until the next call of Parse.
func (p *Parser) Parse(l *Language, src []byte) (*Tree, error) {
	return p.ParseFile(l, "", src)
}

// ParseFile is Parse for the file at filePath, whose name can limit what
// its content may choose: a .c file is C whatever it holds, a .h header
// may be C++. An empty filePath leaves the choice to the content.
func (p *Parser) ParseFile(l *Language, filePath string, src []byte) (*Tree, error) {
	return p.parse(l, filePath, src, nil)
}

// parse is ParseFile; query, when set, replaces the language's query
// (tests run a roots query over the whole tree with it).
func (p *Parser) parse(l *Language, filePath string, src []byte, query func(*Query) *Query) (*Tree, error) {
	if l.pick != nil {
		l, src = l.pick(filePath, src)
	}
	if len(src) > 1<<31-1 {
		return nil, fmt.Errorf("%w: file of %d bytes is too large", ErrParse, len(src))
	}
	parsed := src
	if l.fixup != nil {
		if f := l.fixup(src); len(f) == len(src) {
			parsed = f
		}
	}
	var inserted []uint32
	if l.insert != nil {
		if f, ins := l.insert(parsed); len(ins) > 0 && len(f) == len(parsed)+len(ins) && len(f) <= 1<<31-1 {
			parsed, inserted = f, ins
		}
	}
	var srcPtr *C.char
	if len(parsed) > 0 {
		srcPtr = (*C.char)(unsafe.Pointer(&parsed[0]))
	}
	var count C.uint32_t
	tree := C.sdl_parse(p.p, (*C.TSLanguage)(l.ready()), srcPtr, C.uint32_t(len(parsed)),
		C.uint64_t(p.Timeout.Milliseconds()), &count)
	if tree == nil {
		return nil, fmt.Errorf("%w: %s parser gave up (timeout %s)", ErrParse, l.Name, p.Timeout)
	}
	var raw []C.sdl_capture
	var kept *C.TSTree // a query with roots runs from them once the tree is flat
	q := l.Query()
	if query != nil && q != nil {
		q = query(q)
	}
	switch {
	case q != nil && q.roots != nil:
		kept = C.ts_tree_copy(tree)
	case q != nil:
		raw = runQuery(tree, q)
	}
	n := int(count)
	if cap(p.buf) < n {
		p.buf = make([]Node, n+n/4)
	}
	buf := p.buf[:n]
	var written C.uint32_t
	if n > 0 {
		written = C.sdl_flatten(tree, srcPtr, (*C.sdl_node)(unsafe.Pointer(&buf[0])), C.uint32_t(n))
	} else {
		C.sdl_tree_delete(tree)
	}
	l.loadNames() // a tree's readers ask its kinds and syntax
	if kept != nil {
		// the tree as parsed, whose offsets the nodes still have
		raw = runQueryAt(kept, q, &Tree{Lang: l, Path: filePath, Src: parsed, Nodes: buf[:written]})
		C.sdl_tree_delete(kept)
	}
	if inserted != nil {
		unshift(buf[:written], raw, inserted)
	}
	t := &Tree{Lang: l, Path: filePath, Src: src, Nodes: buf[:written]}
	if q != nil {
		t.Matches = t.matches(q, raw)
	}
	return t, nil
}

// unshift maps the offsets and columns of nodes and captures in a text with
// bytes inserted at the offsets ins back to the text without them.
func unshift(nodes []Node, raw []C.sdl_capture, ins []uint32) {
	before := func(b uint32) uint32 { // inserted bytes before offset b
		return uint32(sort.Search(len(ins), func(i int) bool { return ins[i] >= b }))
	}
	// col maps a column at offset b: the inserted bytes on its line before
	// it (no inserted byte is a newline)
	col := func(b, c uint32) uint32 { return c - (before(b) - before(b-min(c, b))) }
	for i := range nodes {
		n := &nodes[i]
		n.StartCol, n.EndCol = col(n.StartByte, n.StartCol), col(n.EndByte, n.EndCol)
		n.StartByte, n.EndByte = n.StartByte-before(n.StartByte), n.EndByte-before(n.EndByte)
	}
	for i := range raw {
		c := &raw[i]
		c.start_byte -= C.uint32_t(before(uint32(c.start_byte)))
		c.end_byte -= C.uint32_t(before(uint32(c.end_byte)))
	}
}

// Tree is a flattened syntax tree over Src.
type Tree struct {
	Lang *Language
	// Path is the repository path the file was parsed as ("" for Parse),
	// for a room's hook that names things after the file (Lua's module).
	Path  string
	Src   []byte
	Nodes []Node
	// Matches are the matches of the language's query (Spec.Query) in
	// source order, for a language that has one.
	Matches []Match
}

// Len is the number of nodes.
func (t *Tree) Len() int32 { return int32(len(t.Nodes)) }

// Kind is the node kind of node i ("function_declaration").
func (t *Tree) Kind(i int32) string { return t.Lang.KindName(t.Nodes[i].Kind) }

// FieldName is the name of the field node i fills in its parent, or "".
func (t *Tree) FieldName(i int32) string { return t.Lang.FieldName(t.Nodes[i].Field) }

// Named reports whether node i is a named node (not punctuation or a keyword).
func (t *Tree) Named(i int32) bool { return t.Nodes[i].Flags&FlagNamed != 0 }

// IsError reports whether node i is an ERROR or MISSING node.
func (t *Tree) IsError(i int32) bool { return t.Nodes[i].Flags&(FlagError|FlagMissing) != 0 }

// HasError reports whether node i contains a syntax error.
func (t *Tree) HasError(i int32) bool { return t.Nodes[i].Flags&FlagHasError != 0 }

// Text returns the source text of node i.
func (t *Tree) Text(i int32) string {
	n := &t.Nodes[i]
	return string(t.Src[n.StartByte:n.EndByte])
}

// Bytes returns the source bytes of node i without copying.
func (t *Tree) Bytes(i int32) []byte {
	n := &t.Nodes[i]
	return t.Src[n.StartByte:n.EndByte]
}

// Parent returns the parent of node i, or -1.
func (t *Tree) Parent(i int32) int32 { return t.Nodes[i].Parent }

// FirstChild returns the first child of node i, or -1.
func (t *Tree) FirstChild(i int32) int32 {
	if i+1 < t.Nodes[i].End {
		return i + 1
	}
	return -1
}

// NextSibling returns the next sibling of node i, or -1.
func (t *Tree) NextSibling(i int32) int32 {
	next := t.Nodes[i].End
	p := t.Nodes[i].Parent
	if p >= 0 && next < t.Nodes[p].End {
		return next
	}
	return -1
}

// PrevSibling returns the previous sibling of node i, or -1. In pre-order
// the node just before i is the previous sibling or its last descendant,
// so climbing from it finds the sibling in O(depth).
func (t *Tree) PrevSibling(i int32) int32 {
	p := t.Nodes[i].Parent
	if p < 0 || i-1 == p {
		return -1
	}
	c := i - 1
	for c >= 0 && t.Nodes[c].Parent != p {
		c = t.Nodes[c].Parent
	}
	return c
}

// Children yields the children of node i, named or not.
func (t *Tree) Children(i int32) func(yield func(int32) bool) {
	return func(yield func(int32) bool) {
		end := t.Nodes[i].End
		for c := i + 1; c < end; c = t.Nodes[c].End {
			if !yield(c) {
				return
			}
		}
	}
}

// NamedChildren yields the named children of node i that are not comments
// or other extras. ERROR nodes are yielded although tree-sitter flags them
// as extras: what a parser recovered inside them is still code.
func (t *Tree) NamedChildren(i int32) func(yield func(int32) bool) {
	return func(yield func(int32) bool) {
		end := t.Nodes[i].End
		for c := i + 1; c < end; c = t.Nodes[c].End {
			f := t.Nodes[c].Flags
			if f&FlagNamed != 0 && (f&FlagExtra == 0 || f&FlagError != 0) {
				if !yield(c) {
					return
				}
			}
		}
	}
}

// ChildrenBefore yields the named children of node p that start before
// node n starts: the statements of a block that the code at n comes
// after, where a room's hook looks for a local's declaration (Lua's
// local aliases, Scala's types of vals).
func (t *Tree) ChildrenBefore(p, n int32) func(yield func(int32) bool) {
	return func(yield func(int32) bool) {
		for c := range t.NamedChildren(p) {
			if t.Nodes[c].StartByte >= t.Nodes[n].StartByte || !yield(c) {
				return
			}
		}
	}
}

// Field returns the first child of node i in the named field, or -1.
func (t *Tree) Field(i int32, name string) int32 {
	id := t.Lang.FieldID(name)
	if id == 0 {
		return -1
	}
	end := t.Nodes[i].End
	for c := i + 1; c < end; c = t.Nodes[c].End {
		if t.Nodes[c].Field == id {
			return c
		}
	}
	return -1
}

// FieldText returns the text of the named field of node i, or "".
func (t *Tree) FieldText(i int32, name string) string {
	if c := t.Field(i, name); c >= 0 {
		return t.Text(c)
	}
	return ""
}

// ChildOfKind returns the first child of node i of the given kind, or -1.
func (t *Tree) ChildOfKind(i int32, kind string) int32 {
	end := t.Nodes[i].End
	for c := i + 1; c < end; c = t.Nodes[c].End {
		if t.Kind(c) == kind {
			return c
		}
	}
	return -1
}

// Descendants yields node i's descendants in pre-order (not i itself).
func (t *Tree) Descendants(i int32) func(yield func(int32) bool) {
	return func(yield func(int32) bool) {
		end := t.Nodes[i].End
		for c := i + 1; c < end; c++ {
			if !yield(c) {
				return
			}
		}
	}
}

// IsLeaf reports whether node i has no children.
func (t *Tree) IsLeaf(i int32) bool { return t.Nodes[i].End == i+1 }

// StartLine and EndLine are 1-based line numbers of node i.
func (t *Tree) StartLine(i int32) int { return int(t.Nodes[i].StartRow) + 1 }
func (t *Tree) EndLine(i int32) int   { return int(t.Nodes[i].EndRow) + 1 }

// NamedChildCount counts the named, non-extra children of node i.
func (t *Tree) NamedChildCount(i int32) int {
	n := 0
	for range t.NamedChildren(i) {
		n++
	}
	return n
}

// FirstNamedChild returns the first named, non-extra child of node i, or -1.
func (t *Tree) FirstNamedChild(i int32) int32 {
	for c := range t.NamedChildren(i) {
		return c
	}
	return -1
}
