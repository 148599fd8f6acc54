package lang

import (
	"slices"
	"strings"
)

// SkeletonSpec is a room's skeleton rules as data: the node kinds the
// shared renderer needs to know, and which child of a declaration holds
// its members or its code.
type SkeletonSpec struct {
	Marker      string // what stands for elided code: "/* ... */", "-- ..."
	LineComment string // how a line comment starts, when not "//"

	Control, Exits, Blocks, Clauses, Cases, CaseBodies, Wrappers, Nested []string
	// Verbatim are the members shown whole (package and import lines).
	Verbatim []string
	// Members maps a declaration kind to the kind of its child holding its
	// members (a class to its body); Code maps one to the child holding
	// its statements (a function to its block).
	Members, Code map[string]string
	// Hidden are the modifier words that keep a member out of an
	// exported-only skeleton ("private").
	Hidden []string
}

func (sp *SkeletonSpec) rules() *skelRules {
	return &skelRules{
		marker:      sp.Marker,
		lineComment: sp.LineComment,
		control:     kindSet(sp.Control...),
		exits:       kindSet(sp.Exits...),
		blocks:      kindSet(sp.Blocks...),
		clauses:     kindSet(sp.Clauses...),
		cases:       kindSet(sp.Cases...),
		caseBodies:  kindSet(sp.CaseBodies...),
		wrappers:    kindSet(sp.Wrappers...),
		nested:      kindSet(sp.Nested...),
		member:      sp.member,
		exported:    sp.exported,
	}
}

func (sp *SkeletonSpec) member(s *skel, n int32) shape {
	t := s.t
	k := t.Kind(n)
	if slices.Contains(sp.Verbatim, k) {
		return shape{kind: shapeVerbatim}
	}
	if body, ok := sp.Members[k]; ok {
		if b := t.ChildOfKind(n, body); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeMembers)}}
		}
	}
	if body, ok := sp.Code[k]; ok {
		if b := t.ChildOfKind(n, body); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	}
	return shape{kind: shapeLine}
}

// exported: a member whose header holds none of the hidden words.
func (sp *SkeletonSpec) exported(s *skel, n, container int32) bool {
	head := s.t.Text(n)
	if i := strings.IndexAny(head, "{=\n"); i >= 0 {
		head = head[:i]
	}
	for _, w := range strings.Fields(head) {
		if slices.Contains(sp.Hidden, w) {
			return false
		}
	}
	return true
}
