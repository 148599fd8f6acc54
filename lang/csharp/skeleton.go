package csharp

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

var skeleton = &lang.SkelRules{
	Marker: "/* ... */",
	Control: lang.KindSet("if_statement", "for_statement", "foreach_statement", "while_statement", "do_statement",
		"switch_statement", "try_statement", "using_statement", "lock_statement", "fixed_statement",
		"checked_statement", "unsafe_statement"),
	Exits: lang.KindSet("return_statement", "throw_statement", "break_statement", "continue_statement",
		"yield_statement", "goto_statement"),
	Blocks:     lang.KindSet("block"),
	Clauses:    lang.KindSet("catch_clause", "finally_clause"),
	Cases:      lang.KindSet("switch_section"),
	CaseBodies: lang.KindSet("switch_body"),
	Wrappers:   lang.KindSet("labeled_statement"),
	Nested:     lang.KindSet("local_function_statement"),
	Member:     skelMember,
	Exported:   skelExported,
	CaseItems:  skelCaseItems,
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "using_directive", "file_scoped_namespace_declaration", "extern_alias_directive":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "namespace_declaration", "class_declaration", "struct_declaration", "record_declaration",
		"interface_declaration", "enum_declaration":
		// a bodyless type's body is the ";" read as "{}" (bodyless.go)
		if b := t.Field(n, "body"); b >= 0 && t.Text(b) != ";" {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleMembers)}}
		}
	case "method_declaration", "constructor_declaration", "destructor_declaration", "operator_declaration",
		"conversion_operator_declaration", "local_function_statement", "accessor_declaration":
		if b := t.Field(n, "body"); b >= 0 && t.Kind(b) == "block" {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	case "property_declaration", "indexer_declaration", "event_declaration":
		// accessors with bodies are members of their own
		if acc := t.Field(n, "accessors"); acc >= 0 {
			for a := range t.NamedChildren(acc) {
				if b := t.Field(a, "body"); b >= 0 && t.Kind(b) == "block" {
					return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(acc, lang.HoleMembers)}}
				}
			}
		}
	case "global_statement":
		if c := t.FirstNamedChild(n); c >= 0 && s.Rules.Control[t.Kind(c)] {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: s.ControlHoles(c)}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

func skelCaseItems(s *lang.Skel, c int32) ([]int32, bool) {
	t := s.Tree
	var out []int32
	for ch := range t.NamedChildren(c) {
		if k := t.Kind(ch); strings.HasSuffix(k, "statement") || k == "block" {
			out = append(out, ch)
		}
	}
	return out, true
}

// skelExported: public and protected members, everything an interface
// or enum declares, usings and namespaces.
func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	switch t.Kind(n) {
	case "using_directive", "namespace_declaration", "file_scoped_namespace_declaration", "enum_member_declaration",
		"extern_alias_directive":
		return true
	case "accessor_declaration":
		for c := range t.Children(n) {
			if t.Kind(c) == "modifier" && t.Text(c) == "private" {
				return false
			}
		}
		return true
	}
	if container > 0 {
		if p := t.Parent(container); p >= 0 && t.Kind(p) == "interface_declaration" {
			return true
		}
	}
	for c := range t.Children(n) {
		if t.Kind(c) == "modifier" {
			if w := t.Text(c); w == "public" || w == "protected" {
				return true
			}
		}
	}
	return false
}
