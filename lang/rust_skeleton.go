package lang

import "strings"

func init() {
	skelRulesByName["rust"] = &skelRules{
		marker: "/* ... */",
		control: kindSet("if_expression", "match_expression", "for_expression", "while_expression", "loop_expression",
			"unsafe_block", "async_block"),
		exits:      kindSet("return_expression", "break_expression", "continue_expression"),
		blocks:     kindSet("block"),
		clauses:    kindSet("else_clause"),
		cases:      kindSet("match_arm"),
		caseBodies: kindSet("match_block"),
		wrappers:   kindSet("expression_statement"),
		nested: kindSet("function_item", "struct_item", "enum_item", "impl_item", "trait_item", "mod_item",
			"union_item"),
		attrs:    kindSet("attribute_item", "inner_attribute_item"),
		member:   rustSkelMember,
		stmt:     rustSkelStmt,
		exported: rustSkelExported,
		exitCall: rustSkelExitCall,
	}
}

func rustSkelMember(s *skel, n int32) shape {
	t := s.t
	switch t.Kind(n) {
	case "use_declaration", "extern_crate_declaration":
		return shape{kind: shapeVerbatim}
	case "function_item":
		if b := t.Field(n, "body"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	case "struct_item", "union_item", "enum_item", "trait_item", "impl_item", "mod_item", "foreign_mod_item":
		b := t.Field(n, "body")
		if b < 0 {
			b = t.ChildOfKind(n, "declaration_list")
		}
		if b >= 0 && t.Kind(b) != "ordered_field_declaration_list" {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeMembers)}}
		}
	}
	return shape{kind: shapeLine}
}

// rustSkelStmt reads what Rust writes as expressions: let x = match ...,
// and a block's tail expression, which is its value.
func rustSkelStmt(s *skel, n int32) (shape, bool) {
	t, r := s.t, s.r
	k := t.Kind(n)
	switch {
	case k == "let_declaration":
		if v := t.Field(n, "value"); v >= 0 && r.control[t.Kind(v)] {
			return shape{kind: shapeFrame, holes: s.controlHoles(v)}, true
		}
		return shape{kind: shapeElide}, true
	case k == "expression_statement", k == "empty_statement", r.nested[k], r.attrs[k], r.control[k], r.exits[k],
		strings.HasSuffix(k, "_item"), strings.HasSuffix(k, "_declaration"), t.IsComment(n):
		return shape{}, false
	}
	// a tail expression without a semicolon: the value of its block
	if p := t.Parent(n); p >= 0 && t.Kind(p) == "block" {
		var last int32 = -1
		for c := range t.NamedChildren(p) {
			last = c
		}
		if last == n {
			return shape{kind: shapeLine}, true
		}
	}
	return shape{}, false
}

func rustSkelExitCall(t *Tree, n int32) bool {
	if t.Kind(n) != "macro_invocation" {
		return false
	}
	switch t.FieldText(n, "macro") {
	case "panic", "unreachable", "todo", "unimplemented", "bail":
		return true
	}
	return false
}

// rustSkelExported: pub items; every member of a trait, of a trait impl
// and every variant of an enum is as visible as its container.
func rustSkelExported(s *skel, n, container int32) bool {
	t := s.t
	if container > 0 {
		switch t.Kind(container) {
		case "enum_variant_list":
			return true
		case "declaration_list":
			if p := t.Parent(container); p >= 0 && (t.Kind(p) == "trait_item" || t.Kind(p) == "impl_item" && t.Field(p, "trait") >= 0) {
				return true
			}
		}
	}
	switch t.Kind(n) {
	case "use_declaration", "extern_crate_declaration":
		return true
	case "impl_item":
		if t.Field(n, "trait") >= 0 {
			return true
		}
		// an inherent impl shows when it has a pub member
		if b := t.Field(n, "body"); b >= 0 {
			for c := range t.NamedChildren(b) {
				if rustSkelPub(t, c) {
					return true
				}
			}
		}
		return false
	case "macro_definition":
		return false
	}
	return rustSkelPub(t, n)
}

func rustSkelPub(t *Tree, n int32) bool {
	for c := range t.NamedChildren(n) {
		if t.Kind(c) == "visibility_modifier" {
			return t.Text(c) == "pub"
		}
	}
	return false
}
