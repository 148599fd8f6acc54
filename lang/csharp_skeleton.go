package lang

import "strings"

func init() {
	skelRulesByName["csharp"] = &skelRules{
		marker: "/* ... */",
		control: kindSet("if_statement", "for_statement", "foreach_statement", "while_statement", "do_statement",
			"switch_statement", "try_statement", "using_statement", "lock_statement", "fixed_statement",
			"checked_statement", "unsafe_statement"),
		exits: kindSet("return_statement", "throw_statement", "break_statement", "continue_statement",
			"yield_statement", "goto_statement"),
		blocks:     kindSet("block"),
		clauses:    kindSet("catch_clause", "finally_clause"),
		cases:      kindSet("switch_section"),
		caseBodies: kindSet("switch_body"),
		wrappers:   kindSet("labeled_statement"),
		nested:     kindSet("local_function_statement"),
		member:     csSkelMember,
		exported:   csSkelExported,
		caseItems:  csSkelCaseItems,
	}
}

func csSkelMember(s *skel, n int32) shape {
	t := s.t
	switch k := t.Kind(n); k {
	case "using_directive", "file_scoped_namespace_declaration", "extern_alias_directive":
		return shape{kind: shapeVerbatim}
	case "namespace_declaration", "class_declaration", "struct_declaration", "record_declaration",
		"interface_declaration", "enum_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeMembers)}}
		}
	case "method_declaration", "constructor_declaration", "destructor_declaration", "operator_declaration",
		"conversion_operator_declaration", "local_function_statement", "accessor_declaration":
		if b := t.Field(n, "body"); b >= 0 && t.Kind(b) == "block" {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	case "property_declaration", "indexer_declaration", "event_declaration":
		// accessors with bodies are members of their own
		if acc := t.Field(n, "accessors"); acc >= 0 {
			for a := range t.NamedChildren(acc) {
				if b := t.Field(a, "body"); b >= 0 && t.Kind(b) == "block" {
					return shape{kind: shapeFrame, holes: []hole{s.bodyHole(acc, holeMembers)}}
				}
			}
		}
	case "global_statement":
		if c := t.FirstNamedChild(n); c >= 0 && s.r.control[t.Kind(c)] {
			return shape{kind: shapeFrame, holes: s.controlHoles(c)}
		}
	}
	return shape{kind: shapeLine}
}

func csSkelCaseItems(s *skel, c int32) ([]int32, bool) {
	t := s.t
	var out []int32
	for ch := range t.NamedChildren(c) {
		if k := t.Kind(ch); strings.HasSuffix(k, "statement") || k == "block" {
			out = append(out, ch)
		}
	}
	return out, true
}

// csSkelExported: public and protected members, everything an interface
// or enum declares, usings and namespaces.
func csSkelExported(s *skel, n, container int32) bool {
	t := s.t
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
