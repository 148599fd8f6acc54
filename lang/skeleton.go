package lang

import (
	"bytes"
	"sort"
	"strings"
)

// A skeleton is a file or symbol with its implementation bodies elided:
// imports, declarations and signatures, comments cut to their first line,
// and the control flow of function bodies (if, for, switch, try, ...) as
// headers down to a depth, with return/raise/throw lines kept. What a
// language calls a declaration, a block or a clause lives in its room, as
// SkelRules (lang/<language>/skeleton.go) or a Spec's SkeletonSpec; this
// file is the shared renderer.

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
		return r.Marker
	}
	return "/* ... */"
}

// CommentPrefix is how a line comment starts in a language ("//" or "#").
func CommentPrefix(l *Language) string {
	if r := skelRulesFor(l); r != nil && r.LineComment != "" {
		return r.LineComment
	} else if r != nil && r.Indented {
		return "#"
	}
	return "//"
}

// HasSkeleton reports whether sdl can skeletonize files of language l.
func HasSkeleton(l *Language) bool { return skelRulesFor(l) != nil }

var skelRulesByName = map[string]*SkelRules{}

func skelRulesFor(l *Language) *SkelRules {
	if l == nil {
		return nil
	}
	return skelRulesByName[l.Name]
}

// HoleKind says how the renderer renders a Hole.
type HoleKind uint8

const (
	HoleCode     HoleKind = iota // the statements of a function or control-flow body
	HoleMembers                  // the members of a type, class, module or declaration group
	HoleCases                    // the case clauses of a switch or match
	HoleCaseBody                 // the statements of one case clause, without braces
	HoleClause                   // else, elif, catch, finally or else-if: part of its statement
	HoleStmt                     // a body that is one statement without braces: if (x) return y;
	HoleMember                   // one declaration inside a wrapper: export <declaration>
)

// Hole is a part of a node that the skeleton renders on its own terms; the
// text around the holes is the node's frame (its header and punctuation).
type Hole struct {
	Kind        HoleKind
	Node        int32
	Start, End  uint32
	Open, Close int // byte offsets of the brackets around the body, -1 when it has none
	Items       []int32
}

// ShapeKind says how much of a node the skeleton keeps.
type ShapeKind uint8

const (
	ShapeElide    ShapeKind = iota // elided: stands behind a marker
	ShapeLine                      // the first line, with the marker and closing brackets when longer
	ShapeVerbatim                  // the whole node, as written
	ShapeFrame                     // the frame of the node, with its holes rendered
	ShapeDoc                       // a docstring: its first line
	ShapeSkip                      // nothing at all
)

// Shape is how the skeleton renders a node: its kind, and the holes
// rendered on their own terms when it is a frame.
type Shape struct {
	Kind  ShapeKind
	Holes []Hole
	// End, when past the node's end, is where a verbatim or framed text
	// ends: a token the grammar leaves outside the node (C++'s "public" is
	// the access specifier, its ":" a sibling; so is the ";" after a class)
	End uint32
}

// SkelRules is what the renderer needs to know of a language.
type SkelRules struct {
	Marker      string
	LineComment string // how a line comment starts, when not "//" (or "#" for indented languages)
	Indented    bool   // bodies are indented blocks after a colon (Python)
	// Docstrings: a string statement opening a body is its documentation.
	Docstrings bool

	Control     map[string]bool // statements with bodies: if, for, while, switch, try, ...
	Exits       map[string]bool // statements kept as one line: return, throw, raise, break, continue
	Blocks      map[string]bool // blocks of statements
	Clauses     map[string]bool // clauses rendered as part of their statement: else, catch, finally, ...
	Cases       map[string]bool // case clauses of a switch or match
	CaseBodies  map[string]bool // the bodies that hold case clauses
	CaseParents map[string]bool // statements whose block child holds case clauses (Python match)
	Wrappers    map[string]bool // statements that wrap one other: labeled or expression statements
	Nested      map[string]bool // declarations that may appear among statements
	Attrs       map[string]bool // attributes that precede a declaration as siblings (Rust)

	Member    func(s *Skel, n int32) Shape
	Stmt      func(s *Skel, n int32) (Shape, bool) // a language's own reading of a statement; false for the shared one
	CaseItems func(s *Skel, n int32) ([]int32, bool)
	Exported  func(s *Skel, n, container int32) bool
	ExitCall  func(t *Tree, n int32) bool
}

// KindSet is the set of node kinds given, for SkelRules.
func KindSet(kinds ...string) map[string]bool {
	m := make(map[string]bool, len(kinds))
	for _, k := range kinds {
		m[k] = true
	}
	return m
}

// Skel renders one skeleton.
type Skel struct {
	Tree       *Tree
	Rules      *SkelRules
	opts       SkeletonOptions
	maxDepth   int
	LineStarts []uint32
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
	s := &Skel{Tree: t, Rules: r, opts: opts, maxDepth: opts.Depth}
	if s.maxDepth <= 0 {
		s.maxDepth = DefaultSkeletonDepth
	}
	s.LineStarts = append(s.LineStarts, 0)
	for i, c := range t.Src {
		if c == '\n' {
			s.LineStarts = append(s.LineStarts, uint32(i+1))
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
		s.memberList(s.ItemsOf(0, 0, t.Nodes[0].End), 0)
		s.nl()
		return s.out
	}
	for _, n := range s.within(start, end) {
		s.nl()
		row := s.Row(t.Nodes[n].StartByte)
		if prefix := t.Src[s.LineStarts[row]:t.Nodes[n].StartByte]; isBlank(prefix) {
			s.put(string(prefix), row)
		}
		if t.IsComment(n) {
			s.put(s.commentLine(n), row)
			continue
		}
		sh := r.Member(s, n)
		if sh.Kind == ShapeSkip {
			sh.Kind = ShapeLine
		}
		s.render(n, sh, 0)
	}
	s.nl()
	return dedent(s.out)
}

// within lists the outermost named nodes inside [start, end).
func (s *Skel) within(start, end uint32) []int32 {
	t := s.Tree
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

// ItemsOf lists the named children of n between the child indexes from
// and to (exclusive), flattening statement lists and declaration groups
// that only hold items.
func (s *Skel) ItemsOf(n, from, to int32) []int32 {
	t := s.Tree
	var out []int32
	for c := range t.Children(n) {
		if c <= from && from != 0 || c >= to || !t.Named(c) {
			continue
		}
		switch t.Kind(c) {
		case "statement_list", "enum_body_declarations", "statements":
			out = append(out, s.ItemsOf(c, 0, t.Nodes[c].End)...)
		default:
			out = append(out, c)
		}
	}
	return out
}

// BodyHole makes a hole of n: its items, between the opening bracket
// before its first item and the closing bracket that ends it, when it has
// them (the flattened tree has no punctuation nodes, so the brackets are
// found in the source).
func (s *Skel) BodyHole(n int32, kind HoleKind) Hole {
	t := s.Tree
	h := Hole{Kind: kind, Node: n, Open: -1, Close: -1, Start: t.Nodes[n].StartByte, End: t.Nodes[n].EndByte}
	h.Items = s.ItemsOf(n, 0, t.Nodes[n].End)
	limit := h.End
	if len(h.Items) > 0 {
		limit = t.Nodes[h.Items[0]].StartByte
	}
	s.bracket(&h, h.Start, limit)
	return h
}

// bracket finds the opening bracket of h in [from, limit) and the closing
// one at the end of h, and keeps the items between them.
func (s *Skel) bracket(h *Hole, from, limit uint32) {
	src := s.Tree.Src
	open := -1
	for i := from; i < limit && i < h.End; i++ {
		if src[i] == '{' || src[i] == '(' {
			open = int(i)
			break
		}
	}
	if open < 0 {
		return
	}
	e := int(h.End)
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
	h.Open, h.Close = open, e-1
	h.Start, h.End = uint32(open), uint32(e)
	items := h.Items[:0:0]
	for _, c := range h.Items {
		if s.Tree.Nodes[c].StartByte > uint32(open) && s.Tree.Nodes[c].EndByte <= uint32(e-1) {
			items = append(items, c)
		}
	}
	h.Items = items
}

// GroupParen reports whether a declaration groups its specs in parens:
// const ( ... ).
func (s *Skel) GroupParen(n int32) bool {
	t := s.Tree
	c := t.FirstNamedChild(n)
	if c < 0 {
		return false
	}
	return strings.Contains(string(t.Src[t.Nodes[n].StartByte:t.Nodes[c].StartByte]), "(")
}

// ControlHoles finds the bodies and clauses of a control-flow statement.
func (s *Skel) ControlHoles(n int32) []Hole {
	t, r := s.Tree, s.Rules
	var hs []Hole
	var cases []int32
	for c := range t.NamedChildren(n) {
		k, f := t.Kind(c), t.FieldName(c)
		switch {
		case r.CaseParents[t.Kind(n)] && r.Blocks[k], r.CaseBodies[k]:
			hs = append(hs, s.BodyHole(c, HoleCases))
		case r.Blocks[k]:
			hs = append(hs, s.BodyHole(c, HoleCode))
		case r.Cases[k]:
			cases = append(cases, c)
		case r.Clauses[k], r.Control[k] && f != "consequence" && f != "body":
			hs = append(hs, s.NodeHole(c, HoleClause))
		case f == "consequence" || f == "body" || f == "alternative":
			hs = append(hs, s.NodeHole(c, HoleStmt))
		}
	}
	if len(cases) > 0 {
		// Go's switch holds its cases itself, between its own braces,
		// which follow its header.
		first := t.Nodes[cases[0]].StartByte
		h := Hole{Kind: HoleCases, Node: n, Open: -1, Close: -1, Items: cases,
			Start: first, End: t.Nodes[cases[len(cases)-1]].EndByte}
		from := t.Nodes[n].StartByte
		for c := range t.Children(n) {
			if t.Nodes[c].EndByte <= first {
				from = t.Nodes[c].EndByte
			}
		}
		all := Hole{Open: -1, Close: -1, Start: t.Nodes[n].StartByte, End: t.Nodes[n].EndByte, Items: cases}
		if s.bracket(&all, from, first); all.Open >= 0 {
			h = all
			h.Kind, h.Node = HoleCases, n
		}
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].Start < hs[j].Start })
	return hs
}

// NodeHole is a hole of kind over the whole of node n.
func (s *Skel) NodeHole(n int32, kind HoleKind) Hole {
	return Hole{Kind: kind, Node: n, Open: -1, Close: -1, Start: s.Tree.Nodes[n].StartByte, End: s.Tree.Nodes[n].EndByte}
}

// caseShape reads one case clause of a switch or match.
func (s *Skel) caseShape(c int32) Shape {
	t := s.Tree
	for ch := range t.NamedChildren(c) {
		if s.Rules.Blocks[t.Kind(ch)] {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(ch, HoleCode)}}
		}
	}
	if s.Rules.CaseItems != nil {
		if items, ok := s.Rules.CaseItems(s, c); ok {
			if len(items) == 0 {
				return Shape{Kind: ShapeLine}
			}
			h := Hole{Kind: HoleCaseBody, Node: c, Open: -1, Close: -1, Items: items,
				Start: t.Nodes[items[0]].StartByte, End: t.Nodes[items[len(items)-1]].EndByte}
			return Shape{Kind: ShapeFrame, Holes: []Hole{h}}
		}
	}
	return Shape{Kind: ShapeLine}
}

// stmtShape reads a statement of a function body.
func (s *Skel) stmtShape(n int32, first bool) Shape {
	t, r := s.Tree, s.Rules
	if r.Stmt != nil {
		if sh, ok := r.Stmt(s, n); ok {
			return sh
		}
	}
	k := t.Kind(n)
	switch {
	case first && r.Docstrings && s.IsDocstring(n):
		return Shape{Kind: ShapeDoc}
	case r.Control[k]:
		return Shape{Kind: ShapeFrame, Holes: s.ControlHoles(n)}
	case r.Exits[k], r.ExitCall != nil && r.ExitCall(t, n):
		return Shape{Kind: ShapeLine}
	case r.Nested[k]:
		return r.Member(s, n)
	case r.Wrappers[k]:
		var c int32 = -1
		for ch := range t.NamedChildren(n) {
			c = ch
		}
		if c >= 0 {
			ck := t.Kind(c)
			switch {
			case r.Control[ck]:
				return Shape{Kind: ShapeFrame, Holes: s.ControlHoles(c)}
			case r.Exits[ck], r.ExitCall != nil && r.ExitCall(t, c):
				return Shape{Kind: ShapeLine}
			}
		}
	}
	return Shape{Kind: ShapeElide}
}

// IsDocstring reports whether n is a statement that is only a string.
func (s *Skel) IsDocstring(n int32) bool {
	t := s.Tree
	if t.Kind(n) != "expression_statement" || t.NamedChildCount(n) != 1 {
		return false
	}
	return t.IsString(t.FirstNamedChild(n))
}

// render writes node n in the given shape; depth is the depth of n among
// the statements of a body (0 for declarations).
func (s *Skel) render(n int32, sh Shape, depth int) {
	switch sh.Kind {
	case ShapeVerbatim:
		s.copySrc(s.Tree.Nodes[n].StartByte, max(s.Tree.Nodes[n].EndByte, sh.End), false)
	case ShapeLine, ShapeElide, ShapeSkip:
		s.line(n)
	case ShapeDoc:
		s.docLine(n)
	case ShapeFrame:
		s.frame(n, sh.Holes, depth)
		if e := s.Tree.Nodes[n].EndByte; sh.End > e {
			s.copySrc(e, sh.End, false)
		}
	}
}

// frame writes the text of n around its holes, and the holes.
func (s *Skel) frame(n int32, holes []Hole, depth int) {
	pos := s.Tree.Nodes[n].StartByte
	for _, h := range holes {
		if h.Start < pos {
			continue
		}
		trim := h.Kind == HoleCode || h.Kind == HoleMembers || h.Kind == HoleCases || h.Kind == HoleCaseBody
		s.copySrc(pos, h.Start, trim)
		s.hole(h, depth)
		pos = h.End
	}
	s.copySrc(pos, s.Tree.Nodes[n].EndByte, false)
}

func (s *Skel) hole(h Hole, depth int) {
	switch h.Kind {
	case HoleCode, HoleCaseBody:
		s.code(h, depth+1)
	case HoleMembers:
		s.members(h)
	case HoleCases:
		s.cases(h, depth)
	case HoleClause:
		s.frame(h.Node, s.ControlHoles(h.Node), depth)
	case HoleStmt:
		sh := Shape{Kind: ShapeElide}
		if depth+1 <= s.maxDepth {
			sh = s.stmtShape(h.Node, false)
		}
		if sh.Kind == ShapeElide {
			s.put(s.Rules.Marker, -1)
			return
		}
		s.render(h.Node, sh, depth+1)
	case HoleMember:
		s.render(h.Node, s.Rules.Member(s, h.Node), depth)
	}
}

// code writes a body of statements at the given depth: the kept ones, and a
// marker for each run of elided ones.
func (s *Skel) code(h Hole, depth int) {
	t := s.Tree
	var stmts []int32
	for _, c := range h.Items {
		if !t.IsComment(c) {
			stmts = append(stmts, c)
		}
	}
	shapes := make([]Shape, len(stmts))
	kept := false
	if depth <= s.maxDepth {
		for i, c := range stmts {
			shapes[i] = s.stmtShape(c, i == 0)
			kept = kept || shapes[i].Kind != ShapeElide
		}
	}
	braced := h.Open >= 0
	open, close := "", ""
	if braced {
		open, close = string(t.Src[h.Open]), string(t.Src[h.Close])
	}
	if !kept {
		switch {
		case braced && len(stmts) == 0:
			s.put(" "+open+close, -1)
		case braced:
			s.put(" "+open+" "+s.Rules.Marker+" "+close, -1)
		case len(stmts) > 0 || s.Rules.Indented:
			s.put(" "+s.Rules.Marker, -1)
		}
		return
	}
	inline := s.oneLine(h)
	if braced {
		s.put(" "+open, -1)
	}
	prevMarker := false
	for i, c := range stmts {
		if shapes[i].Kind == ShapeElide {
			if !prevMarker {
				s.sep(inline, c)
				s.put(s.Rules.Marker, s.Row(t.Nodes[c].StartByte))
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
func (s *Skel) cases(h Hole, depth int) {
	t := s.Tree
	inline := s.oneLine(h)
	if h.Open >= 0 {
		s.put(" "+string(t.Src[h.Open]), -1)
	}
	for _, c := range h.Items {
		if t.IsComment(c) {
			continue
		}
		s.sep(inline, c)
		s.render(c, s.caseShape(c), depth)
	}
	if h.Open >= 0 {
		s.closeWith(h, inline, string(t.Src[h.Close]))
	}
}

// members writes the members of a type, class or group.
func (s *Skel) members(h Hole) {
	t := s.Tree
	var visible []int32
	hidden := false
	for _, c := range h.Items {
		if t.IsComment(c) || !s.opts.ExportedOnly || s.Rules.Exported(s, c, h.Node) {
			visible = append(visible, c)
		} else {
			hidden = true
		}
	}
	if h.Open >= 0 && !hidden && s.Row(h.Start) == s.endRow(h.End) {
		s.put(" ", -1)
		s.copySrc(h.Start, h.End, false)
		return
	}
	open, close := "", ""
	if h.Open >= 0 {
		open, close = string(t.Src[h.Open]), string(t.Src[h.Close])
	}
	if !hasCode(t, visible) {
		switch {
		case h.Open >= 0 && hidden:
			s.put(" "+open+" "+s.Rules.Marker+" "+close, -1)
		case h.Open >= 0:
			s.put(" "+open+close, -1)
		default:
			s.put(" "+s.Rules.Marker, -1)
		}
		return
	}
	if h.Open >= 0 {
		s.put(" "+open, -1)
	}
	s.memberList(visible, h.Node)
	if h.Open >= 0 {
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
func (s *Skel) memberList(items []int32, container int32) {
	t, r := s.Tree, s.Rules
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
		row := s.Row(t.Nodes[c].StartByte)
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
		if r.Attrs[k] {
			pending = append(pending, c)
			continue
		}
		if s.opts.ExportedOnly && !r.Exported(s, c, container) {
			pending = nil
			continue
		}
		sh := r.Member(s, c)
		if sh.Kind == ShapeSkip {
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
func (s *Skel) emitPrefix(pending []int32, prevEnd *int) {
	t := s.Tree
	s.nl()
	first := s.Row(t.Nodes[pending[0]].StartByte)
	if *prevEnd >= 0 && first > *prevEnd+1 {
		s.blank()
	}
	inRun := false
	for i, c := range pending {
		row := s.Row(t.Nodes[c].StartByte)
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
					c, row = d, s.Row(t.Nodes[d].StartByte)
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
func (s *Skel) trailingComment(c int32) {
	s.nl()
	if len(s.out) == 0 {
		return
	}
	last := &s.out[len(s.out)-1]
	last.Text += " " + s.commentLine(c)
}

// line writes the first line of n; a node of several lines gets the
// marker, and its last line when that only closes brackets.
func (s *Skel) line(n int32) {
	t := s.Tree
	a, b := t.Nodes[n].StartByte, t.Nodes[n].EndByte
	r0, r1 := s.Row(a), s.endRow(b)
	// annotations on lines of their own ("@Deprecated", "[JsonIgnore]")
	// are kept whole, and the declaration's line after them: its first
	// line alone said "@Deprecated /* ... */" and hid the name
	for r0 < r1 {
		first := strings.TrimRight(string(t.Src[a:s.LineStarts[r0+1]-1]), " \t\r")
		if !annotationLine(first) {
			break
		}
		s.put(first, r0)
		s.nl()
		r0++
		lead := s.leading(r0)
		s.put(string(lead), -1)
		a = s.LineStarts[r0] + uint32(len(lead))
	}
	if r1 <= r0 { // one line, or empty (a MISSING node at a line's start)
		// the separator after a field or item is punctuation, which the
		// tree does not hold
		if int(b) < len(t.Src) && (t.Src[b] == ',' || t.Src[b] == ';') {
			b++
		}
		s.put(strings.TrimRight(string(t.Src[a:b]), " \t\r\n"), r0)
		return
	}
	firstEnd := s.LineStarts[r0+1] - 1
	first := strings.TrimRight(string(t.Src[a:firstEnd]), " \t\r")
	last := strings.TrimSpace(string(t.Src[s.LineStarts[r1]:b]))
	if !isClosers(last) {
		s.put(first+" "+s.Rules.Marker, r0)
		return
	}
	// an opener on a line of its own (C#'s "new Route()\n{", a property
	// whose "{" is below its name) is elided with the middle: write it
	// back, or the line reads "new Route() /* ... */ };"
	// (before a trailing comment, which would swallow them)
	if open, cut := missingOpeners(first, last); open != "" {
		code, comment := strings.TrimRight(first[:cut], " \t"), first[cut:]
		s.put(code+" "+open+" "+s.Rules.Marker+" "+last, r0)
		if comment != "" {
			s.put(" "+comment, -1)
		}
		return
	}
	s.put(first+" "+s.Rules.Marker+" "+last, r0)
}

// openerOf is the opening bracket of each closing one.
var openerOf = map[byte]byte{')': '(', ']': '[', '}': '{'}

// missingOpeners returns the opening brackets, outermost first, that the
// closers of last need and first leaves unopened, and where first's code
// ends (before a trailing "//" comment).
func missingOpeners(first, last string) (string, int) {
	var stack []byte // first's unclosed openers, outermost first
	cut := len(first)
	for i := 0; i < len(first); i++ {
		switch c := first[i]; c {
		case '(', '[', '{':
			stack = append(stack, c)
		case ')', ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case '"', '\'':
			j := strings.IndexByte(first[i+1:], c)
			if j < 0 {
				return "", len(first) // a string runs on: no telling
			}
			i += j + 1
		case '/':
			if strings.HasPrefix(first[i:], "//") {
				cut = i
				i = len(first)
			}
		}
	}
	var closers []byte // innermost first
	for i := 0; i < len(last); i++ {
		if c := last[i]; c == ')' || c == ']' || c == '}' {
			closers = append(closers, c)
		}
	}
	var open []byte
	for i := len(closers) - 1 - len(stack); i >= 0; i-- {
		open = append(open, openerOf[closers[i]])
	}
	return string(open), cut
}

// annotationLine reports whether a line holds annotations or attributes
// only, each whole: "@Override", "@SuppressWarnings("unchecked")",
// "[Obsolete("no")]", "#[inline]".
func annotationLine(l string) bool {
	l = strings.TrimSpace(l)
	if l == "" || l[0] != '@' && l[0] != '[' && !strings.HasPrefix(l, "#[") {
		return false
	}
	if l[0] != '@' && !strings.HasSuffix(l, "]") {
		return false
	}
	depth := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"', '\'':
			j := strings.IndexByte(l[i+1:], l[i])
			if j < 0 {
				return false
			}
			i += j + 1
		case '=', ';':
			if depth == 0 {
				return false // code: "@x = 1;" is no annotation
			}
		}
	}
	return depth == 0
}

// isClosers reports whether s only closes brackets: "})", "];".
func isClosers(s string) bool {
	if s == "" || len(s) > 8 {
		return false
	}
	return strings.Trim(s, ")]}>;, ") == ""
}

// docLine writes the first line of a docstring statement.
func (s *Skel) docLine(n int32) {
	t := s.Tree
	str := t.FirstNamedChild(n)
	text := t.Text(str)
	row := s.Row(t.Nodes[n].StartByte)
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
func (s *Skel) commentLine(c int32) string {
	text := strings.TrimRight(s.Tree.Text(c), " \t\r\n")
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
func (s *Skel) copySrc(a, b uint32, trim bool) {
	if b <= a {
		return
	}
	t := s.Tree
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
		row := s.Row(g.a)
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
func (s *Skel) oneLine(h Hole) bool {
	if s.Row(h.Start) != s.endRow(h.End) {
		return false
	}
	if h.Open >= 0 {
		return true
	}
	src := s.Tree.Src
	for i := int(h.Start) - 1; i >= 0; i-- {
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
func (s *Skel) sep(inline bool, c int32) {
	if inline {
		s.put(" ", -1)
		return
	}
	s.nl()
	s.put(s.indentFor(c), s.Row(s.Tree.Nodes[c].StartByte))
}

// closeWith writes the closing bracket of a body.
func (s *Skel) closeWith(h Hole, inline bool, close string) {
	if inline {
		s.put(" "+close, -1)
		return
	}
	s.nl()
	t := s.Tree
	cb := uint32(h.Close)
	row := s.Row(cb)
	prefix := t.Src[s.LineStarts[row]:cb]
	if !isBlank(prefix) {
		prefix = s.leading(s.Row(uint32(h.Open)))
	}
	s.put(string(prefix)+close, row)
}

// indentFor is the indentation of the line n starts, or one level deeper
// than that line when n does not start it.
func (s *Skel) indentFor(n int32) string {
	start := s.Tree.Nodes[n].StartByte
	row := s.Row(start)
	prefix := s.Tree.Src[s.LineStarts[row]:start]
	if row == 0 {
		// a byte order mark is no code: the first line of a C# file
		// saved by Visual Studio starts at column 0 all the same
		prefix = bytes.TrimPrefix(prefix, []byte("\xEF\xBB\xBF"))
	}
	if isBlank(prefix) {
		return string(prefix)
	}
	return string(s.leading(row)) + s.unit
}

// leading is the white space that starts a row.
func (s *Skel) leading(row int) []byte {
	src := s.Tree.Src
	i := s.LineStarts[row]
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

// Row is the 0-based row of a byte offset.
func (s *Skel) Row(b uint32) int {
	return sort.Search(len(s.LineStarts), func(i int) bool { return s.LineStarts[i] > b }) - 1
}

// endRow is the row of the last byte before end.
func (s *Skel) endRow(end uint32) int {
	if end > 0 {
		end--
	}
	return s.Row(end)
}

// put appends text to the current line; row (0-based, -1 for unknown) is
// where the text comes from, and names the line when it starts it.
func (s *Skel) put(text string, row int) {
	if text == "" {
		return
	}
	if !s.curSet && row >= 0 && strings.TrimSpace(text) != "" {
		s.curRow, s.curSet = row, true
	}
	s.cur.WriteString(text)
}

// nl ends the current line; a line of white space only is dropped.
func (s *Skel) nl() {
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
func (s *Skel) blank() {
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

// NameOf is the text of the name field of n, or "".
func NameOf(t *Tree, n int32) string { return t.FieldText(n, "name") }

// RunHole makes a code hole of a run of statements.
func RunHole(t *Tree, n int32, items []int32) (Hole, bool) {
	var stmts []int32
	for _, c := range items {
		if !t.IsComment(c) {
			stmts = append(stmts, c)
		}
	}
	if len(stmts) == 0 {
		return Hole{}, false
	}
	return Hole{Kind: HoleCode, Node: n, Open: -1, Close: -1, Items: items,
		Start: t.Nodes[items[0]].StartByte, End: t.Nodes[items[len(items)-1]].EndByte}, true
}
