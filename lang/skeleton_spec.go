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

func (sp *SkeletonSpec) rules() *SkelRules {
	return &SkelRules{
		Marker:      sp.Marker,
		LineComment: sp.LineComment,
		Control:     KindSet(sp.Control...),
		Exits:       KindSet(sp.Exits...),
		Blocks:      KindSet(sp.Blocks...),
		Clauses:     KindSet(sp.Clauses...),
		Cases:       KindSet(sp.Cases...),
		CaseBodies:  KindSet(sp.CaseBodies...),
		Wrappers:    KindSet(sp.Wrappers...),
		Nested:      KindSet(sp.Nested...),
		Member:      sp.member,
		Exported:    sp.exported,
	}
}

func (sp *SkeletonSpec) member(s *Skel, n int32) Shape {
	t := s.Tree
	k := t.Kind(n)
	if slices.Contains(sp.Verbatim, k) {
		return Shape{Kind: ShapeVerbatim}
	}
	if body, ok := sp.Members[k]; ok {
		if b := t.ChildOfKind(n, body); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleMembers)}}
		}
	}
	if body, ok := sp.Code[k]; ok {
		if b := t.ChildOfKind(n, body); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	}
	return Shape{Kind: ShapeLine}
}

// exported: a member whose header holds none of the hidden words.
func (sp *SkeletonSpec) exported(s *Skel, n, container int32) bool {
	head := s.Tree.Text(n)
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
