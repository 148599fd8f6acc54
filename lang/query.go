package lang

/*
#cgo CFLAGS: -I${SRCDIR}/tsapi -std=c11
#include <stdlib.h>
#include "flat.h"

*/
import "C"

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unsafe"
)

// ErrQuery is returned when a language's query file does not compile
// against its grammar: a node kind or field the grammar lacks, a syntax
// error, a capture name sdl does not know.
var ErrQuery = errors.New("query does not compile")

// maxQueryCaptures bounds the captures one file's query run returns: a
// real file has a few per line, hostile input no more than this.
const maxQueryCaptures = 1 << 20

// queryMaxDepth is flat.h's SDL_QUERY_MAX_DEPTH: a query run over the
// whole tree starts no match deeper.
const queryMaxDepth = C.SDL_QUERY_MAX_DEPTH

// Query is a compiled tree-sitter query (a tags.scm-style file). It is
// compiled once, when its language registers, and shared by every parser.
type Query struct {
	q        *C.TSQuery
	captures []string      // capture id -> name, without the @
	preds    [][]predicate // pattern -> its text predicates
	// roots, when set, are the grammar symbols the query runs from
	// (Spec.QueryRoots), by symbol id; rootIf, when set, keeps the nodes
	// of those kinds it may run from (Spec.QueryRoot)
	roots  []bool
	rootIf func(t *Tree, n int32) bool
}

// predicate is a text predicate of a pattern (#eq?, #match?, #any-of?),
// which tree-sitter leaves to its caller.
type predicate struct {
	op      string
	capture int
	other   int // a second capture, -1 when the argument is a string
	args    []string
	re      *regexp.Regexp
}

// CompileQuery compiles src (named file, for messages) against language
// l's grammar.
func CompileQuery(l *Language, file, src string) (*Query, error) {
	cs := C.CString(src)
	defer C.free(unsafe.Pointer(cs))
	var off C.uint32_t
	var et C.TSQueryError
	q := C.ts_query_new((*C.TSLanguage)(l.ready()), cs, C.uint32_t(len(src)), &off, &et)
	if q == nil {
		return nil, fmt.Errorf("%w: %s: %s: %s", ErrQuery, l.Name, queryPos(file, src, int(off)), queryErrText(et, src, int(off)))
	}
	out := &Query{q: q}
	nc := int(C.ts_query_capture_count(q))
	for i := 0; i < nc; i++ {
		var n C.uint32_t
		out.captures = append(out.captures, C.GoStringN(C.ts_query_capture_name_for_id(q, C.uint32_t(i), &n), C.int(n)))
	}
	np := int(C.ts_query_pattern_count(q))
	out.preds = make([][]predicate, np)
	for p := 0; p < np; p++ {
		ps, err := out.patternPredicates(p)
		if err != nil {
			start := int(C.ts_query_start_byte_for_pattern(q, C.uint32_t(p)))
			C.ts_query_delete(q)
			return nil, fmt.Errorf("%w: %s: %s: %v", ErrQuery, l.Name, queryPos(file, src, start), err)
		}
		out.preds[p] = ps
	}
	return out, nil
}

func (q *Query) patternPredicates(p int) ([]predicate, error) {
	var n C.uint32_t
	steps := C.ts_query_predicates_for_pattern(q.q, C.uint32_t(p), &n)
	all := unsafe.Slice(steps, int(n))
	var out []predicate
	var cur []C.TSQueryPredicateStep
	for _, s := range all {
		if s._type != C.TSQueryPredicateStepTypeDone {
			cur = append(cur, s)
			continue
		}
		pr, ok, err := q.predicate(cur)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, pr)
		}
		cur = cur[:0]
	}
	return out, nil
}

func (q *Query) str(id C.uint32_t) string {
	var n C.uint32_t
	return C.GoStringN(C.ts_query_string_value_for_id(q.q, id, &n), C.int(n))
}

// predicate reads one predicate; directives (#set!, #strip!,
// #select-adjacent!) are for editors and are dropped.
func (q *Query) predicate(steps []C.TSQueryPredicateStep) (predicate, bool, error) {
	if len(steps) == 0 || steps[0]._type != C.TSQueryPredicateStepTypeString {
		return predicate{}, false, fmt.Errorf("a predicate without a name")
	}
	op := q.str(steps[0].value_id)
	if strings.HasSuffix(op, "!") {
		return predicate{}, false, nil
	}
	switch op {
	case "eq?", "not-eq?", "match?", "not-match?", "any-of?", "not-any-of?":
	default:
		return predicate{}, false, fmt.Errorf("unknown predicate #%s", op)
	}
	if len(steps) < 3 || steps[1]._type != C.TSQueryPredicateStepTypeCapture {
		return predicate{}, false, fmt.Errorf("#%s needs a capture and an argument", op)
	}
	pr := predicate{op: op, capture: int(steps[1].value_id), other: -1}
	for _, s := range steps[2:] {
		if s._type == C.TSQueryPredicateStepTypeCapture {
			pr.other = int(s.value_id)
			continue
		}
		pr.args = append(pr.args, q.str(s.value_id))
	}
	if strings.HasSuffix(op, "match?") {
		if len(pr.args) != 1 {
			return predicate{}, false, fmt.Errorf("#%s needs one pattern", op)
		}
		re, err := regexp.Compile(pr.args[0])
		if err != nil {
			return predicate{}, false, fmt.Errorf("#%s: %w", op, err)
		}
		pr.re = re
	}
	return pr, true, nil
}

func queryPos(file, src string, off int) string {
	off = min(max(off, 0), len(src))
	line := strings.Count(src[:off], "\n") + 1
	col := off - strings.LastIndexByte(src[:off], '\n')
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}

// queryErrText names what is wrong at off: the node kind or field the
// grammar lacks, spelled as in the file.
func queryErrText(et C.TSQueryError, src string, off int) string {
	word := src[min(max(off, 0), len(src)):]
	if i := strings.IndexFunc(word, func(r rune) bool {
		return !(r == '_' || r == '.' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}); i >= 0 {
		word = word[:i]
	}
	switch et {
	case C.TSQueryErrorNodeType:
		return fmt.Sprintf("node kind %q is not in the grammar", word)
	case C.TSQueryErrorField:
		return fmt.Sprintf("field %q is not in the grammar", word)
	case C.TSQueryErrorCapture:
		return fmt.Sprintf("capture %q is not defined in its pattern", word)
	case C.TSQueryErrorStructure:
		return "a pattern's structure is impossible in the grammar"
	case C.TSQueryErrorSyntax:
		return "syntax error"
	}
	return "invalid query"
}

// Capture is one captured node of a match: its capture name and its
// index in the flattened tree.
type Capture struct {
	Name string
	Node int32
}

// Match is one match of a query: the pattern that matched and what it
// captured, in the order of the pattern's captures.
type Match struct {
	Pattern  int
	Captures []Capture
}

// Node returns the node captured as name, or -1.
func (m *Match) Node(name string) int32 {
	for _, c := range m.Captures {
		if c.Name == name {
			return c.Node
		}
	}
	return -1
}

// setRoots makes the query run from the nodes of the kinds roots only
// (Spec.QueryRoots). A kind the grammar lacks, or a pattern that starts
// at another kind, would never match: it fails here, by name and line.
func (q *Query) setRoots(l *Language, file, src string, roots []string) error {
	l.loadNames()
	q.roots = l.kindSet(roots)
	for _, r := range roots {
		if !slices.Contains(l.kinds, r) {
			return fmt.Errorf("%w: %s: %s: query root %q is not in the grammar", ErrQuery, l.Name, file, r)
		}
	}
	for p := range q.preds {
		start := int(C.ts_query_start_byte_for_pattern(q.q, C.uint32_t(p)))
		kind := ""
		if rest := src[start:]; strings.HasPrefix(rest, "(") {
			kind = strings.TrimSpace(rest[1:])
			if i := strings.IndexFunc(kind, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }); i >= 0 {
				kind = kind[:i]
			}
		}
		if !slices.Contains(roots, kind) {
			return fmt.Errorf("%w: %s: %s: a pattern starts at %q, not at a query root (%s)", ErrQuery, l.Name, queryPos(file, src, start), kind, strings.Join(roots, ", "))
		}
	}
	return nil
}

// runQueryAt runs q, whose patterns start at its roots, from each node of
// the flattened tree t of a root kind, over tree, the tree t was
// flattened from (and t.Src the text it was parsed from).
func runQueryAt(tree *C.TSTree, q *Query, t *Tree) []C.sdl_capture {
	var roots []C.uint32_t
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if int(n.Kind) < len(q.roots) && q.roots[n.Kind] && (q.rootIf == nil || q.rootIf(t, int32(i))) {
			roots = append(roots, C.uint32_t(i))
		}
	}
	if len(roots) == 0 {
		return nil
	}
	var src *C.char // read only inside nodes' ranges, so nil when empty
	if len(t.Src) > 0 {
		src = (*C.char)(unsafe.Pointer(&t.Src[0]))
	}
	var n C.uint32_t
	p := C.sdl_query_captures_at(tree, src, (*C.sdl_node)(unsafe.Pointer(&t.Nodes[0])), C.uint32_t(len(t.Nodes)),
		q.q, &roots[0], C.uint32_t(len(roots)), maxQueryCaptures, &n)
	if p == nil {
		return nil
	}
	defer C.free(unsafe.Pointer(p))
	return slices.Clone(unsafe.Slice(p, int(n)))
}

// runQuery runs q over a tree before it is flattened and returns the raw
// captures, ordered by match.
func runQuery(tree *C.TSTree, q *Query) []C.sdl_capture {
	var n C.uint32_t
	p := C.sdl_query_captures(tree, q.q, maxQueryCaptures, &n)
	if p == nil {
		return nil
	}
	defer C.free(unsafe.Pointer(p))
	return slices.Clone(unsafe.Slice(p, int(n)))
}

// matches turns raw captures into matches over the flattened tree,
// dropping the captures of nodes the flat tree leaves out (punctuation)
// and the matches whose text predicates fail.
func (t *Tree) matches(q *Query, raw []C.sdl_capture) []Match {
	var out []Match
	for i := 0; i < len(raw); {
		j := i
		for j < len(raw) && raw[j].match == raw[i].match {
			j++
		}
		m := Match{Pattern: int(raw[i].pattern)}
		nodes := make(map[int][]int32, j-i)
		for _, c := range raw[i:j] {
			n := t.find(uint32(c.start_byte), uint32(c.end_byte), uint16(c.symbol))
			if n < 0 {
				continue
			}
			m.Captures = append(m.Captures, Capture{Name: q.captures[c.capture], Node: n})
			nodes[int(c.capture)] = append(nodes[int(c.capture)], n)
		}
		if len(m.Captures) > 0 && t.holds(q.preds[m.Pattern], nodes) {
			out = append(out, m)
		}
		i = j
	}
	return out
}

// find returns the outermost node of the flattened tree with the range
// [start, end) and kind, or -1. In pre-order the start bytes never
// decrease, so the nodes starting at start are one run of the array.
func (t *Tree) find(start, end uint32, kind uint16) int32 {
	lo := sort.Search(len(t.Nodes), func(i int) bool { return t.Nodes[i].StartByte >= start })
	for i := lo; i < len(t.Nodes) && t.Nodes[i].StartByte == start; i++ {
		if t.Nodes[i].EndByte == end && t.Nodes[i].Kind == kind {
			return int32(i)
		}
	}
	return -1
}

// holds evaluates a match's text predicates.
func (t *Tree) holds(preds []predicate, nodes map[int][]int32) bool {
	for _, p := range preds {
		for _, n := range nodes[p.capture] {
			text := t.Text(n)
			var ok bool
			switch p.op {
			case "eq?", "not-eq?":
				want := ""
				if p.other >= 0 {
					if o := nodes[p.other]; len(o) > 0 {
						want = t.Text(o[0])
					}
				} else if len(p.args) > 0 {
					want = p.args[0]
				}
				ok = (text == want) == (p.op == "eq?")
			case "match?", "not-match?":
				ok = p.re.MatchString(text) == (p.op == "match?")
			case "any-of?", "not-any-of?":
				ok = slices.Contains(p.args, text) == (p.op == "any-of?")
			}
			if !ok {
				return false
			}
		}
	}
	return true
}
