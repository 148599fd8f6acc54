package lang

import "strings"

func init() {
	skelRulesByName["rust"] = &SkelRules{
		Marker: "/* ... */",
		Control: KindSet("if_expression", "match_expression", "for_expression", "while_expression", "loop_expression",
			"unsafe_block", "async_block"),
		Exits:      KindSet("return_expression", "break_expression", "continue_expression"),
		Blocks:     KindSet("block"),
		Clauses:    KindSet("else_clause"),
		Cases:      KindSet("match_arm"),
		CaseBodies: KindSet("match_block"),
		Wrappers:   KindSet("expression_statement"),
		Nested: KindSet("function_item", "struct_item", "enum_item", "impl_item", "trait_item", "mod_item",
			"union_item"),
		Attrs:    KindSet("attribute_item", "inner_attribute_item"),
		Member:   rustSkelMember,
		Stmt:     rustSkelStmt,
		Exported: rustSkelExported,
		ExitCall: rustSkelExitCall,
	}
}

func rustSkelMember(s *Skel, n int32) Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "use_declaration", "extern_crate_declaration":
		return Shape{Kind: ShapeVerbatim}
	case "function_item":
		if b := t.Field(n, "body"); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	case "struct_item", "union_item", "enum_item", "trait_item", "impl_item", "mod_item", "foreign_mod_item":
		b := t.Field(n, "body")
		if b < 0 {
			b = t.ChildOfKind(n, "declaration_list")
		}
		if b >= 0 && t.Kind(b) != "ordered_field_declaration_list" {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleMembers)}}
		}
	}
	return Shape{Kind: ShapeLine}
}

// rustSkelStmt reads what Rust writes as expressions: let x = match ...,
// and a block's tail expression, which is its value.
func rustSkelStmt(s *Skel, n int32) (Shape, bool) {
	t, r := s.Tree, s.Rules
	k := t.Kind(n)
	switch {
	case k == "let_declaration":
		if v := t.Field(n, "value"); v >= 0 && r.Control[t.Kind(v)] {
			return Shape{Kind: ShapeFrame, Holes: s.ControlHoles(v)}, true
		}
		return Shape{Kind: ShapeElide}, true
	case k == "expression_statement", k == "empty_statement", r.Nested[k], r.Attrs[k], r.Control[k], r.Exits[k],
		strings.HasSuffix(k, "_item"), strings.HasSuffix(k, "_declaration"), t.IsComment(n):
		return Shape{}, false
	}
	// a tail expression without a semicolon: the value of its block
	if p := t.Parent(n); p >= 0 && t.Kind(p) == "block" {
		var last int32 = -1
		for c := range t.NamedChildren(p) {
			last = c
		}
		if last == n {
			return Shape{Kind: ShapeLine}, true
		}
	}
	return Shape{}, false
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
func rustSkelExported(s *Skel, n, container int32) bool {
	t := s.Tree
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
