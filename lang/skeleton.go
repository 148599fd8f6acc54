package lang

import (
	"sort"
	"strings"
)

// A skeleton is a file or symbol with its implementation bodies elided:
// imports, declarations and signatures, comments cut to their first line,
// and the control flow of function bodies (if, for, switch, try, ...) as
// headers down to a depth, with return/raise/throw lines kept. What a
// language calls a declaration, a block or a clause lives in its
// <language>_skeleton.go file as a skelRules table; this file is the shared
// renderer.

// SkeletonOptions shape a skeleton.
type SkeletonOptions struct {
	// ExportedOnly leaves out what other packages or modules cannot use.
	ExportedOnly bool
	// Depth is how many levels of statements inside a function body are
	// shown; deeper bodies are elided. 0 means DefaultSkeletonDepth.
	Depth int
}

// DefaultSkeletonDepth shows a function's statements and one level of
// control flow inside them.
const DefaultSkeletonDepth = 2

// SkeletonLine is one line of a skeleton.
type SkeletonLine struct {
	// Line is the 1-based source line the text starts on; 0 for a blank
	// separator line.
	Line int    `json:"line"`
	Text string `json:"text"`
}

// SkeletonMarker is the text that stands for elided code in a language:
// "..." for Python, "/* ... */" for C-like languages.
func SkeletonMarker(l *Language) string {
	if r := skelRulesFor(l); r != nil {
		return r.marker
	}
	return "/* ... */"
}

// CommentPrefix is how a line comment starts in a language ("//" or "#").
func CommentPrefix(l *Language) string {
	if r := skelRulesFor(l); r != nil && r.lineComment != "" {
		return r.lineComment
	} else if r != nil && r.indented {
		return "#"
	}
	return "//"
}

// HasSkeleton reports whether sdl can skeletonize files of language l.
func HasSkeleton(l *Language) bool { return skelRulesFor(l) != nil }

var skelRulesByName = map[string]*skelRules{}

func skelRulesFor(l *Language) *skelRules {
	if l == nil {
		return nil
	}
	return skelRulesByName[l.Name]
}

type holeKind uint8

const (
	holeCode     holeKind = iota // the statements of a function or control-flow body
	holeMembers                  // the members of a type, class, module or declaration group
	holeCases                    // the case clauses of a switch or match
	holeCaseBody                 // the statements of one case clause, without braces
	holeClause                   // else, elif, catch, finally or else-if: part of its statement
	holeStmt                     // a body that is one statement without braces: if (x) return y;
	holeMember                   // one declaration inside a wrapper: export <declaration>
)

// hole is a part of a node that the skeleton renders on its own terms; the
// text around the holes is the node's frame (its header and punctuation).
type hole struct {
	kind        holeKind
	node        int32
	start, end  uint32
	open, close int // byte offsets of the brackets around the body, -1 when it has none
	items       []int32
}

type shapeKind uint8

const (
	shapeElide    shapeKind = iota // elided: stands behind a marker
	shapeLine                      // the first line, with the marker and closing brackets when longer
	shapeVerbatim                  // the whole node, as written
	shapeFrame                     // the frame of the node, with its holes rendered
	shapeDoc                       // a docstring: its first line
	shapeSkip                      // nothing at all
)

type shape struct {
	kind  shapeKind
	holes []hole
}

// skelRules is what the renderer needs to know of a language.
type skelRules struct {
	marker      string
	lineComment string // how a line comment starts, when not "//" (or "#" for indented languages)
	indented    bool   // bodies are indented blocks after a colon (Python)
	// docstrings: a string statement opening a body is its documentation.
	docstrings bool

	control     map[string]bool // statements with bodies: if, for, while, switch, try, ...
	exits       map[string]bool // statements kept as one line: return, throw, raise, break, continue
	blocks      map[string]bool // blocks of statements
	clauses     map[string]bool // clauses rendered as part of their statement: else, catch, finally, ...
	cases       map[string]bool // case clauses of a switch or match
	caseBodies  map[string]bool // the bodies that hold case clauses
	caseParents map[string]bool // statements whose block child holds case clauses (Python match)
	wrappers    map[string]bool // statements that wrap one other: labeled or expression statements
	nested      map[string]bool // declarations that may appear among statements
	attrs       map[string]bool // attributes that precede a declaration as siblings (Rust)

	member    func(s *skel, n int32) shape
	stmt      func(s *skel, n int32) (shape, bool) // a language's own reading of a statement; false for the shared one
	caseItems func(s *skel, n int32) ([]int32, bool)
	exported  func(s *skel, n, container int32) bool
	exitCall  func(t *Tree, n int32) bool
}

func kindSet(kinds ...string) map[string]bool {
	m := make(map[string]bool, len(kinds))
	for _, k := range kinds {
		m[k] = true
	}
	return m
}

// skel renders one skeleton.
type skel struct {
	t          *Tree
	r          *skelRules
	opts       SkeletonOptions
	maxDepth   int
	lineStarts []uint32
	comments   []int32 // comment nodes, in source order
	unit       string  // one level of indentation
	out        []SkeletonLine
	cur        strings.Builder
	curRow     int
	curSet     bool
}

// Skeleton renders the skeleton of the code in [start, end) of a parsed
// file: the whole file when the range covers it, else the outermost nodes
// that lie within the range (a symbol), dedented. It returns nil for a
// language without skeleton rules.
func Skeleton(t *Tree, start, end uint32, opts SkeletonOptions) []SkeletonLine {
	r := skelRulesFor(t.Lang)
	if r == nil || t.Len() == 0 {
		return nil
	}
	s := &skel{t: t, r: r, opts: opts, maxDepth: opts.Depth}
	if s.maxDepth <= 0 {
		s.maxDepth = DefaultSkeletonDepth
	}
	s.lineStarts = append(s.lineStarts, 0)
	for i, c := range t.Src {
		if c == '\n' {
			s.lineStarts = append(s.lineStarts, uint32(i+1))
		}
	}
	for i := int32(0); i < t.Len(); i++ {
		if t.IsComment(i) {
			s.comments = append(s.comments, i)
		}
	}
	s.unit = indentUnit(t.Src)
	root := t.Nodes[0]
	if start <= root.StartByte && end >= root.EndByte || start == 0 && int(end) >= len(t.Src) {
		s.memberList(s.itemsOf(0, 0, t.Nodes[0].End), 0)
		s.nl()
		return s.out
	}
	for _, n := range s.within(start, end) {
		s.nl()
		row := s.row(t.Nodes[n].StartByte)
		if prefix := t.Src[s.lineStarts[row]:t.Nodes[n].StartByte]; isBlank(prefix) {
			s.put(string(prefix), row)
		}
		if t.IsComment(n) {
			s.put(s.commentLine(n), row)
			continue
		}
		sh := r.member(s, n)
		if sh.kind == shapeSkip {
			sh.kind = shapeLine
		}
		s.render(n, sh, 0)
	}
	s.nl()
	return dedent(s.out)
}

// within lists the outermost named nodes inside [start, end).
func (s *skel) within(start, end uint32) []int32 {
	t := s.t
	var out []int32
	for i := int32(0); i < t.Len(); {
		n := &t.Nodes[i]
		switch {
		case n.EndByte <= start || n.StartByte >= end:
			i = n.End
		case n.StartByte >= start && n.EndByte <= end:
			if t.Named(i) && n.EndByte > n.StartByte {
				out = append(out, i)
			}
			i = n.End
		default:
			i++
		}
	}
	return out
}

// itemsOf lists the named children of n between the child indexes from
// and to (exclusive), flattening statement lists and declaration groups
// that only hold items.
func (s *skel) itemsOf(n, from, to int32) []int32 {
	t := s.t
	var out []int32
	for c := range t.Children(n) {
		if c <= from && from != 0 || c >= to || !t.Named(c) {
			continue
		}
		switch t.Kind(c) {
		case "statement_list", "enum_body_declarations", "statements":
			out = append(out, s.itemsOf(c, 0, t.Nodes[c].End)...)
		default:
			out = append(out, c)
		}
	}
	return out
}

// bodyHole makes a hole of n: its items, between the opening bracket
// before its first item and the closing bracket that ends it, when it has
// them (the flattened tree has no punctuation nodes, so the brackets are
// found in the source).
func (s *skel) bodyHole(n int32, kind holeKind) hole {
	t := s.t
	h := hole{kind: kind, node: n, open: -1, close: -1, start: t.Nodes[n].StartByte, end: t.Nodes[n].EndByte}
	h.items = s.itemsOf(n, 0, t.Nodes[n].End)
	limit := h.end
	if len(h.items) > 0 {
		limit = t.Nodes[h.items[0]].StartByte
	}
	s.bracket(&h, h.start, limit)
	return h
}

// bracket finds the opening bracket of h in [from, limit) and the closing
// one at the end of h, and keeps the items between them.
func (s *skel) bracket(h *hole, from, limit uint32) {
	src := s.t.Src
	open := -1
	for i := from; i < limit && i < h.end; i++ {
		if src[i] == '{' || src[i] == '(' {
			open = int(i)
			break
		}
	}
	if open < 0 {
		return
	}
	e := int(h.end)
	for e > open+1 && (src[e-1] == ' ' || src[e-1] == '\t' || src[e-1] == '\n' || src[e-1] == '\r') {
		e--
	}
	want := byte('}')
	if src[open] == '(' {
		want = ')'
	}
	if e <= open+1 || src[e-1] != want {
		return
	}
	h.open, h.close = open, e-1
	h.start, h.end = uint32(open), uint32(e)
	items := h.items[:0:0]
	for _, c := range h.items {
		if s.t.Nodes[c].StartByte > uint32(open) && s.t.Nodes[c].EndByte <= uint32(e-1) {
			items = append(items, c)
		}
	}
	h.items = items
}

// groupParen reports whether a declaration groups its specs in parens:
// const ( ... ).
func (s *skel) groupParen(n int32) bool {
	t := s.t
	c := t.FirstNamedChild(n)
	if c < 0 {
		return false
	}
	return strings.Contains(string(t.Src[t.Nodes[n].StartByte:t.Nodes[c].StartByte]), "(")
}

// controlHoles finds the bodies and clauses of a control-flow statement.
func (s *skel) controlHoles(n int32) []hole {
	t, r := s.t, s.r
	var hs []hole
	var cases []int32
	for c := range t.NamedChildren(n) {
		k, f := t.Kind(c), t.FieldName(c)
		switch {
		case r.caseParents[t.Kind(n)] && r.blocks[k], r.caseBodies[k]:
			hs = append(hs, s.bodyHole(c, holeCases))
		case r.blocks[k]:
			hs = append(hs, s.bodyHole(c, holeCode))
		case r.cases[k]:
			cases = append(cases, c)
		case r.clauses[k], r.control[k] && f != "consequence" && f != "body":
			hs = append(hs, s.nodeHole(c, holeClause))
		case f == "consequence" || f == "body" || f == "alternative":
			hs = append(hs, s.nodeHole(c, holeStmt))
		}
	}
	if len(cases) > 0 {
		// Go's switch holds its cases itself, between its own braces,
		// which follow its header.
		first := t.Nodes[cases[0]].StartByte
		h := hole{kind: holeCases, node: n, open: -1, close: -1, items: cases,
			start: first, end: t.Nodes[cases[len(cases)-1]].EndByte}
		from := t.Nodes[n].StartByte
		for c := range t.Children(n) {
			if t.Nodes[c].EndByte <= first {
				from = t.Nodes[c].EndByte
			}
		}
		all := hole{open: -1, close: -1, start: t.Nodes[n].StartByte, end: t.Nodes[n].EndByte, items: cases}
		if s.bracket(&all, from, first); all.open >= 0 {
			h = all
			h.kind, h.node = holeCases, n
		}
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].start < hs[j].start })
	return hs
}

func (s *skel) nodeHole(n int32, kind holeKind) hole {
	return hole{kind: kind, node: n, open: -1, close: -1, start: s.t.Nodes[n].StartByte, end: s.t.Nodes[n].EndByte}
}

// caseShape reads one case clause of a switch or match.
func (s *skel) caseShape(c int32) shape {
	t := s.t
	for ch := range t.NamedChildren(c) {
		if s.r.blocks[t.Kind(ch)] {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(ch, holeCode)}}
		}
	}
	if s.r.caseItems != nil {
		if items, ok := s.r.caseItems(s, c); ok {
			if len(items) == 0 {
				return shape{kind: shapeLine}
			}
			h := hole{kind: holeCaseBody, node: c, open: -1, close: -1, items: items,
				start: t.Nodes[items[0]].StartByte, end: t.Nodes[items[len(items)-1]].EndByte}
			return shape{kind: shapeFrame, holes: []hole{h}}
		}
	}
	return shape{kind: shapeLine}
}

// stmtShape reads a statement of a function body.
func (s *skel) stmtShape(n int32, first bool) shape {
	t, r := s.t, s.r
	if r.stmt != nil {
		if sh, ok := r.stmt(s, n); ok {
			return sh
		}
	}
	k := t.Kind(n)
	switch {
	case first && r.docstrings && s.isDocstring(n):
		return shape{kind: shapeDoc}
	case r.control[k]:
		return shape{kind: shapeFrame, holes: s.controlHoles(n)}
	case r.exits[k], r.exitCall != nil && r.exitCall(t, n):
		return shape{kind: shapeLine}
	case r.nested[k]:
		return r.member(s, n)
	case r.wrappers[k]:
		var c int32 = -1
		for ch := range t.NamedChildren(n) {
			c = ch
		}
		if c >= 0 {
			ck := t.Kind(c)
			switch {
			case r.control[ck]:
				return shape{kind: shapeFrame, holes: s.controlHoles(c)}
			case r.exits[ck], r.exitCall != nil && r.exitCall(t, c):
				return shape{kind: shapeLine}
			}
		}
	}
	return shape{kind: shapeElide}
}

// isDocstring reports whether n is a statement that is only a string.
func (s *skel) isDocstring(n int32) bool {
	t := s.t
	if t.Kind(n) != "expression_statement" || t.NamedChildCount(n) != 1 {
		return false
	}
	return t.IsString(t.FirstNamedChild(n))
}

// render writes node n in the given shape; depth is the depth of n among
// the statements of a body (0 for declarations).
func (s *skel) render(n int32, sh shape, depth int) {
	switch sh.kind {
	case shapeVerbatim:
		s.copySrc(s.t.Nodes[n].StartByte, s.t.Nodes[n].EndByte, false)
	case shapeLine, shapeElide, shapeSkip:
		s.line(n)
	case shapeDoc:
		s.docLine(n)
	case shapeFrame:
		s.frame(n, sh.holes, depth)
	}
}

// frame writes the text of n around its holes, and the holes.
func (s *skel) frame(n int32, holes []hole, depth int) {
	pos := s.t.Nodes[n].StartByte
	for _, h := range holes {
		if h.start < pos {
			continue
		}
		trim := h.kind == holeCode || h.kind == holeMembers || h.kind == holeCases || h.kind == holeCaseBody
		s.copySrc(pos, h.start, trim)
		s.hole(h, depth)
		pos = h.end
	}
	s.copySrc(pos, s.t.Nodes[n].EndByte, false)
}

func (s *skel) hole(h hole, depth int) {
	switch h.kind {
	case holeCode, holeCaseBody:
		s.code(h, depth+1)
	case holeMembers:
		s.members(h)
	case holeCases:
		s.cases(h, depth)
	case holeClause:
		s.frame(h.node, s.controlHoles(h.node), depth)
	case holeStmt:
		sh := shape{kind: shapeElide}
		if depth+1 <= s.maxDepth {
			sh = s.stmtShape(h.node, false)
		}
		if sh.kind == shapeElide {
			s.put(s.r.marker, -1)
			return
		}
		s.render(h.node, sh, depth+1)
	case holeMember:
		s.render(h.node, s.r.member(s, h.node), depth)
	}
}

// code writes a body of statements at the given depth: the kept ones, and a
// marker for each run of elided ones.
func (s *skel) code(h hole, depth int) {
	t := s.t
	var stmts []int32
	for _, c := range h.items {
		if !t.IsComment(c) {
			stmts = append(stmts, c)
		}
	}
	shapes := make([]shape, len(stmts))
	kept := false
	if depth <= s.maxDepth {
		for i, c := range stmts {
			shapes[i] = s.stmtShape(c, i == 0)
			kept = kept || shapes[i].kind != shapeElide
		}
	}
	braced := h.open >= 0
	open, close := "", ""
	if braced {
		open, close = string(t.Src[h.open]), string(t.Src[h.close])
	}
	if !kept {
		switch {
		case braced && len(stmts) == 0:
			s.put(" "+open+close, -1)
		case braced:
			s.put(" "+open+" "+s.r.marker+" "+close, -1)
		case len(stmts) > 0 || s.r.indented:
			s.put(" "+s.r.marker, -1)
		}
		return
	}
	inline := s.oneLine(h)
	if braced {
		s.put(" "+open, -1)
	}
	prevMarker := false
	for i, c := range stmts {
		if shapes[i].kind == shapeElide {
			if !prevMarker {
				s.sep(inline, c)
				s.put(s.r.marker, s.row(t.Nodes[c].StartByte))
			}
			prevMarker = true
			continue
		}
		s.sep(inline, c)
		s.render(c, shapes[i], depth)
		prevMarker = false
	}
	if braced {
		s.closeWith(h, inline, close)
	}
}

// cases writes the case clauses of a switch or match.
func (s *skel) cases(h hole, depth int) {
	t := s.t
	inline := s.oneLine(h)
	if h.open >= 0 {
		s.put(" "+string(t.Src[h.open]), -1)
	}
	for _, c := range h.items {
		if t.IsComment(c) {
			continue
		}
		s.sep(inline, c)
		s.render(c, s.caseShape(c), depth)
	}
	if h.open >= 0 {
		s.closeWith(h, inline, string(t.Src[h.close]))
	}
}

// members writes the members of a type, class or group.
func (s *skel) members(h hole) {
	t := s.t
	var visible []int32
	hidden := false
	for _, c := range h.items {
		if t.IsComment(c) || !s.opts.ExportedOnly || s.r.exported(s, c, h.node) {
			visible = append(visible, c)
		} else {
			hidden = true
		}
	}
	if h.open >= 0 && !hidden && s.row(h.start) == s.endRow(h.end) {
		s.put(" ", -1)
		s.copySrc(h.start, h.end, false)
		return
	}
	open, close := "", ""
	if h.open >= 0 {
		open, close = string(t.Src[h.open]), string(t.Src[h.close])
	}
	if !hasCode(t, visible) {
		switch {
		case h.open >= 0 && hidden:
			s.put(" "+open+" "+s.r.marker+" "+close, -1)
		case h.open >= 0:
			s.put(" "+open+close, -1)
		default:
			s.put(" "+s.r.marker, -1)
		}
		return
	}
	if h.open >= 0 {
		s.put(" "+open, -1)
	}
	s.memberList(visible, h.node)
	if h.open >= 0 {
		s.closeWith(h, false, close)
	}
}

func hasCode(t *Tree, items []int32) bool {
	for _, c := range items {
		if !t.IsComment(c) {
			return true
		}
	}
	return false
}

// memberList writes declarations one per line. Comments and attributes
// right above a declaration go with it (the comments cut to their first
// line); a blank line in the source between two members is kept.
func (s *skel) memberList(items []int32, container int32) {
	t, r := s.t, s.r
	var pending []int32
	prevEnd := -1 // the last row written by this list
	flush := func() {
		if len(pending) > 0 && !s.opts.ExportedOnly {
			s.emitPrefix(pending, &prevEnd)
		}
		pending = nil
	}
	for _, c := range items {
		k := t.Kind(c)
		row := s.row(t.Nodes[c].StartByte)
		if t.IsComment(c) {
			if prevEnd >= 0 && row == prevEnd && len(pending) == 0 {
				s.trailingComment(c)
				continue
			}
			if len(pending) > 0 && row > s.endRow(t.Nodes[pending[len(pending)-1]].EndByte)+1 {
				flush()
			}
			pending = append(pending, c)
			continue
		}
		if len(pending) > 0 && s.endRow(t.Nodes[pending[len(pending)-1]].EndByte)+1 < row {
			flush()
		}
		if r.attrs[k] {
			pending = append(pending, c)
			continue
		}
		if s.opts.ExportedOnly && !r.exported(s, c, container) {
			pending = nil
			continue
		}
		sh := r.member(s, c)
		if sh.kind == shapeSkip {
			pending = nil
			continue
		}
		if len(pending) > 0 {
			s.emitPrefix(pending, &prevEnd)
			pending = nil
		} else {
			s.nl()
			if prevEnd >= 0 && row > prevEnd+1 {
				s.blank()
			}
		}
		s.nl()
		s.put(s.indentFor(c), row)
		s.render(c, sh, 0)
		prevEnd = s.endRow(t.Nodes[c].EndByte)
	}
	flush()
}

// emitPrefix writes the comments and attributes that precede a member.
func (s *skel) emitPrefix(pending []int32, prevEnd *int) {
	t := s.t
	s.nl()
	first := s.row(t.Nodes[pending[0]].StartByte)
	if *prevEnd >= 0 && first > *prevEnd+1 {
		s.blank()
	}
	inRun := false
	for i, c := range pending {
		row := s.row(t.Nodes[c].StartByte)
		if t.IsComment(c) {
			// a run of line comments is one comment: its first line stands
			// for it, or the first that says more than an XML doc tag
			// (/// <summary>)
			if inRun {
				continue
			}
			inRun = true
			for _, d := range pending[i:] {
				if !t.IsComment(d) {
					break
				}
				if !isDocTag(s.commentLine(d)) {
					c, row = d, s.row(t.Nodes[d].StartByte)
					break
				}
			}
			s.nl()
			s.put(s.indentFor(c)+s.commentLine(c), row)
		} else {
			inRun = false
			s.nl()
			s.put(s.indentFor(c), row)
			s.line(c)
		}
		*prevEnd = s.endRow(t.Nodes[c].EndByte)
	}
}

// isDocTag reports whether a comment line is only an XML doc tag:
// "/// <summary>".
func isDocTag(line string) bool {
	l := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "/"))
	return strings.HasPrefix(l, "<") && strings.HasSuffix(l, ">") && !strings.Contains(l[1:], "<")
}

// trailingComment appends a comment that ends the previous line.
func (s *skel) trailingComment(c int32) {
	s.nl()
	if len(s.out) == 0 {
		return
	}
	last := &s.out[len(s.out)-1]
	last.Text += " " + s.commentLine(c)
}

// line writes the first line of n; a node of several lines gets the
// marker, and its last line when that only closes brackets.
func (s *skel) line(n int32) {
	t := s.t
	a, b := t.Nodes[n].StartByte, t.Nodes[n].EndByte
	r0, r1 := s.row(a), s.endRow(b)
	if r1 <= r0 { // one line, or empty (a MISSING node at a line's start)
		// the separator after a field or item is punctuation, which the
		// tree does not hold
		if int(b) < len(t.Src) && (t.Src[b] == ',' || t.Src[b] == ';') {
			b++
		}
		s.put(strings.TrimRight(string(t.Src[a:b]), " \t\r\n"), r0)
		return
	}
	firstEnd := s.lineStarts[r0+1] - 1
	s.put(strings.TrimRight(string(t.Src[a:firstEnd]), " \t\r")+" "+s.r.marker, r0)
	if last := strings.TrimSpace(string(t.Src[s.lineStarts[r1]:b])); isClosers(last) {
		s.put(" "+last, -1)
	}
}

// isClosers reports whether s only closes brackets: "})", "];".
func isClosers(s string) bool {
	if s == "" || len(s) > 8 {
		return false
	}
	return strings.Trim(s, ")]}>;, ") == ""
}

// docLine writes the first line of a docstring statement.
func (s *skel) docLine(n int32) {
	t := s.t
	str := t.FirstNamedChild(n)
	text := t.Text(str)
	row := s.row(t.Nodes[n].StartByte)
	if !strings.Contains(text, "\n") {
		s.put(text, row)
		return
	}
	i := strings.IndexAny(text, `"'`)
	if i < 0 {
		s.put(firstLine(text), row)
		return
	}
	q := text[i : i+1]
	if strings.HasPrefix(text[i:], q+q+q) {
		q = q + q + q
	}
	prefix := text[:i] + q
	body := strings.TrimSuffix(text[len(prefix):], q)
	first := ""
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			first = l
			break
		}
	}
	s.put(prefix+first+q, row)
}

// commentLine is the first line of a comment; a block comment stays closed.
func (s *skel) commentLine(c int32) string {
	text := strings.TrimRight(s.t.Text(c), " \t\r\n")
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		return text
	}
	first := strings.TrimSpace(lines[0])
	if first == "/*" || first == "/**" || first == "/*!" {
		for _, l := range lines[1:] {
			l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "*"))
			l = strings.TrimSpace(strings.TrimSuffix(l, "*/"))
			if l != "" {
				return first + " " + l + " */"
			}
		}
		return first + " */"
	}
	if strings.HasPrefix(first, "/*") && !strings.HasSuffix(first, "*/") {
		return first + " */"
	}
	return first
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimRight(s[:i], " \t\r")
	}
	return s
}

// copySrc writes the source in [a, b) without the comments in it; trim
// drops trailing white space (the text before a body).
func (s *skel) copySrc(a, b uint32, trim bool) {
	if b <= a {
		return
	}
	t := s.t
	type seg struct{ a, b uint32 }
	var segs []seg
	pos := a
	i := sort.Search(len(s.comments), func(i int) bool { return t.Nodes[s.comments[i]].StartByte >= a })
	for ; i < len(s.comments); i++ {
		c := &t.Nodes[s.comments[i]]
		if c.StartByte >= b {
			break
		}
		if c.EndByte > b {
			continue
		}
		if c.StartByte > pos {
			segs = append(segs, seg{pos, c.StartByte})
		}
		pos = max(pos, c.EndByte)
	}
	if pos < b {
		segs = append(segs, seg{pos, b})
	}
	if trim {
		for len(segs) > 0 {
			last := &segs[len(segs)-1]
			text := strings.TrimRight(string(t.Src[last.a:last.b]), " \t\r\n")
			if text == "" {
				segs = segs[:len(segs)-1]
				continue
			}
			last.b = last.a + uint32(len(text))
			break
		}
	}
	for _, g := range segs {
		row := s.row(g.a)
		text := string(t.Src[g.a:g.b])
		for {
			j := strings.IndexByte(text, '\n')
			if j < 0 {
				s.put(text, row)
				break
			}
			s.put(text[:j], row)
			s.nl()
			text = text[j+1:]
			row++
		}
	}
}

// oneLine reports whether a body is written on one line with the text
// before it: { return x } or "if x: return y".
func (s *skel) oneLine(h hole) bool {
	if s.row(h.start) != s.endRow(h.end) {
		return false
	}
	if h.open >= 0 {
		return true
	}
	src := s.t.Src
	for i := int(h.start) - 1; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t':
			continue
		case '\n', '\r':
			return false
		}
		return true
	}
	return false
}

// sep starts the next item of a body: on a new, indented line, or after a
// space when the body is on one line.
func (s *skel) sep(inline bool, c int32) {
	if inline {
		s.put(" ", -1)
		return
	}
	s.nl()
	s.put(s.indentFor(c), s.row(s.t.Nodes[c].StartByte))
}

// closeWith writes the closing bracket of a body.
func (s *skel) closeWith(h hole, inline bool, close string) {
	if inline {
		s.put(" "+close, -1)
		return
	}
	s.nl()
	t := s.t
	cb := uint32(h.close)
	row := s.row(cb)
	prefix := t.Src[s.lineStarts[row]:cb]
	if !isBlank(prefix) {
		prefix = s.leading(s.row(uint32(h.open)))
	}
	s.put(string(prefix)+close, row)
}

// indentFor is the indentation of the line n starts, or one level deeper
// than that line when n does not start it.
func (s *skel) indentFor(n int32) string {
	start := s.t.Nodes[n].StartByte
	row := s.row(start)
	prefix := s.t.Src[s.lineStarts[row]:start]
	if isBlank(prefix) {
		return string(prefix)
	}
	return string(s.leading(row)) + s.unit
}

// leading is the white space that starts a row.
func (s *skel) leading(row int) []byte {
	src := s.t.Src
	i := s.lineStarts[row]
	j := i
	for int(j) < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return src[i:j]
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// row is the 0-based row of a byte offset.
func (s *skel) row(b uint32) int {
	return sort.Search(len(s.lineStarts), func(i int) bool { return s.lineStarts[i] > b }) - 1
}

// endRow is the row of the last byte before end.
func (s *skel) endRow(end uint32) int {
	if end > 0 {
		end--
	}
	return s.row(end)
}

// put appends text to the current line; row (0-based, -1 for unknown) is
// where the text comes from, and names the line when it starts it.
func (s *skel) put(text string, row int) {
	if text == "" {
		return
	}
	if !s.curSet && row >= 0 && strings.TrimSpace(text) != "" {
		s.curRow, s.curSet = row, true
	}
	s.cur.WriteString(text)
}

// nl ends the current line; a line of white space only is dropped.
func (s *skel) nl() {
	line := strings.TrimRight(s.cur.String(), " \t\r")
	s.cur.Reset()
	if strings.TrimSpace(line) != "" {
		row := s.curRow + 1
		if !s.curSet {
			row = 0
			if len(s.out) > 0 {
				row = s.out[len(s.out)-1].Line
			}
		}
		s.out = append(s.out, SkeletonLine{Line: row, Text: line})
	}
	s.curSet = false
}

// blank adds one empty line between two members.
func (s *skel) blank() {
	if len(s.out) > 0 && s.out[len(s.out)-1].Text != "" {
		s.out = append(s.out, SkeletonLine{Text: ""})
	}
}

// indentUnit guesses one level of indentation of a file.
func indentUnit(src []byte) string {
	for _, l := range strings.SplitN(string(src[:min(len(src), 64<<10)]), "\n", 2000) {
		switch {
		case strings.HasPrefix(l, "\t"):
			return "\t"
		case strings.HasPrefix(l, "  ") && strings.TrimSpace(l) != "":
			n := len(l) - len(strings.TrimLeft(l, " "))
			if n >= 4 {
				return "    "
			}
			return strings.Repeat(" ", n)
		}
	}
	return "    "
}

// dedent removes the white space that every non-blank line starts with.
func dedent(lines []SkeletonLine) []SkeletonLine {
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l.Text) == "" {
			continue
		}
		lead := l.Text[:len(l.Text)-len(strings.TrimLeft(l.Text, " \t"))]
		if first {
			prefix, first = lead, false
			continue
		}
		for !strings.HasPrefix(lead, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if prefix == "" {
		return lines
	}
	for i := range lines {
		lines[i].Text = strings.TrimPrefix(lines[i].Text, prefix)
	}
	return lines
}

// nameOf is the text of the name field of n, or "".
func nameOf(t *Tree, n int32) string { return t.FieldText(n, "name") }
