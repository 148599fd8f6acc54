package lang

func init() {
	skelRulesByName["java"] = &SkelRules{
		Marker: "/* ... */",
		Control: KindSet("if_statement", "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
			"switch_expression", "try_statement", "try_with_resources_statement",
			"synchronized_statement"),
		Exits:      KindSet("return_statement", "throw_statement", "break_statement", "continue_statement", "yield_statement"),
		Blocks:     KindSet("block", "constructor_body"),
		Clauses:    KindSet("catch_clause", "finally_clause"),
		Cases:      KindSet("switch_block_statement_group", "switch_rule"),
		CaseBodies: KindSet("switch_block"),
		Wrappers:   KindSet("labeled_statement", "expression_statement"),
		Nested:     KindSet("class_declaration", "record_declaration", "interface_declaration", "enum_declaration"),
		Member:     javaSkelMember,
		Exported:   javaSkelExported,
		CaseItems:  javaSkelCaseItems,
	}
}

func javaSkelMember(s *Skel, n int32) Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "package_declaration", "import_declaration", "module_declaration":
		return Shape{Kind: ShapeVerbatim}
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
		"annotation_type_declaration", "object_creation_expression":
		if b := t.Field(n, "body"); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleMembers)}}
		}
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	case "static_initializer":
		if b := t.ChildOfKind(n, "block"); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	}
	return Shape{Kind: ShapeLine}
}

func javaSkelCaseItems(s *Skel, c int32) ([]int32, bool) {
	t := s.Tree
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
func javaSkelExported(s *Skel, n, container int32) bool {
	t := s.Tree
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
