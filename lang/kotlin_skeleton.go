package lang

func init() {
	skelRulesByName["kotlin"] = &skelRules{
		marker:   "/* ... */",
		control:  kindSet("if_expression", "for_statement", "while_statement", "do_while_statement", "when_expression", "try_expression"),
		exits:    kindSet("return_expression", "throw_expression"),
		blocks:   kindSet("block"),
		clauses:  kindSet("catch_block", "finally_block"),
		cases:    kindSet("when_entry"),
		nested:   kindSet("class_declaration", "object_declaration", "function_declaration"),
		member:   ktSkelMember,
		exported: ktSkelExported,
	}
}

func ktSkelMember(s *skel, n int32) shape {
	t := s.t
	switch t.Kind(n) {
	case "package_header", "import":
		return shape{kind: shapeVerbatim}
	case "class_declaration", "object_declaration", "companion_object":
		for c := range t.NamedChildren(n) {
			if k := t.Kind(c); k == "class_body" || k == "enum_class_body" {
				return shape{kind: shapeFrame, holes: []hole{s.bodyHole(c, holeMembers)}}
			}
		}
	case "function_declaration", "secondary_constructor", "anonymous_initializer":
		b := t.ChildOfKind(n, "function_body")
		if b >= 0 {
			b = t.ChildOfKind(b, "block")
		} else {
			b = t.ChildOfKind(n, "block")
		}
		if b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	}
	return shape{kind: shapeLine}
}

// ktSkelExported: what is not private, internal or protected-only.
func ktSkelExported(s *skel, n, container int32) bool {
	t := s.t
	switch t.Kind(n) {
	case "package_header", "import", "enum_entry", "companion_object":
		return true
	}
	if m := t.ChildOfKind(n, "modifiers"); m >= 0 {
		for c := range t.NamedChildren(m) {
			if t.Kind(c) == "visibility_modifier" {
				w := t.Text(c)
				return w == "public" || w == "protected"
			}
		}
	}
	return true
}
