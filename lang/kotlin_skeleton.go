package lang

func init() {
	skelRulesByName["kotlin"] = &SkelRules{
		Marker:   "/* ... */",
		Control:  KindSet("if_expression", "for_statement", "while_statement", "do_while_statement", "when_expression", "try_expression"),
		Exits:    KindSet("return_expression", "throw_expression"),
		Blocks:   KindSet("block"),
		Clauses:  KindSet("catch_block", "finally_block"),
		Cases:    KindSet("when_entry"),
		Nested:   KindSet("class_declaration", "object_declaration", "function_declaration"),
		Member:   ktSkelMember,
		Exported: ktSkelExported,
	}
}

func ktSkelMember(s *Skel, n int32) Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "package_header", "import":
		return Shape{Kind: ShapeVerbatim}
	case "class_declaration", "object_declaration", "companion_object":
		for c := range t.NamedChildren(n) {
			if k := t.Kind(c); k == "class_body" || k == "enum_class_body" {
				return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(c, HoleMembers)}}
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
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	}
	return Shape{Kind: ShapeLine}
}

// ktSkelExported: what is not private, internal or protected-only.
func ktSkelExported(s *Skel, n, container int32) bool {
	t := s.Tree
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
