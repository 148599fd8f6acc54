package lang

func init() {
	skelRulesByName["java"] = &skelRules{
		marker: "/* ... */",
		control: kindSet("if_statement", "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
			"switch_expression", "try_statement", "try_with_resources_statement",
			"synchronized_statement"),
		exits:      kindSet("return_statement", "throw_statement", "break_statement", "continue_statement", "yield_statement"),
		blocks:     kindSet("block", "constructor_body"),
		clauses:    kindSet("catch_clause", "finally_clause"),
		cases:      kindSet("switch_block_statement_group", "switch_rule"),
		caseBodies: kindSet("switch_block"),
		wrappers:   kindSet("labeled_statement", "expression_statement"),
		nested:     kindSet("class_declaration", "record_declaration", "interface_declaration", "enum_declaration"),
		member:     javaSkelMember,
		exported:   javaSkelExported,
		caseItems:  javaSkelCaseItems,
	}
}

func javaSkelMember(s *skel, n int32) shape {
	t := s.t
	switch t.Kind(n) {
	case "package_declaration", "import_declaration", "module_declaration":
		return shape{kind: shapeVerbatim}
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
		"annotation_type_declaration", "object_creation_expression":
		if b := t.Field(n, "body"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeMembers)}}
		}
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	case "static_initializer":
		if b := t.ChildOfKind(n, "block"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	}
	return shape{kind: shapeLine}
}

func javaSkelCaseItems(s *skel, c int32) ([]int32, bool) {
	t := s.t
	if t.Kind(c) == "switch_rule" {
		return nil, false // case X -> expression: one line
	}
	var out []int32
	for ch := range t.NamedChildren(c) {
		if t.Kind(ch) != "switch_label" {
			out = append(out, ch)
		}
	}
	return out, true
}

// javaSkelExported: public and protected members; everything an interface
// or annotation declares, and enum constants.
func javaSkelExported(s *skel, n, container int32) bool {
	t := s.t
	switch t.Kind(n) {
	case "package_declaration", "import_declaration", "module_declaration", "enum_constant":
		return true
	}
	if container > 0 {
		switch t.Kind(container) {
		case "interface_body", "annotation_type_body":
			return true
		}
	}
	m := t.ChildOfKind(n, "modifiers")
	if m < 0 {
		return false
	}
	for c := range t.Children(m) {
		if w := t.Text(c); w == "public" || w == "protected" {
			return true
		}
	}
	return false
}
