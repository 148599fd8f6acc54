package lang

func init() {
	skelRulesByName["php"] = &skelRules{
		marker: "/* ... */",
		control: kindSet("if_statement", "for_statement", "foreach_statement", "while_statement", "do_statement",
			"switch_statement", "try_statement"),
		exits: kindSet("return_statement", "break_statement", "continue_statement", "exit_statement",
			"throw_expression"),
		blocks:     kindSet("compound_statement", "colon_block"),
		clauses:    kindSet("else_clause", "else_if_clause", "catch_clause", "finally_clause"),
		cases:      kindSet("case_statement", "default_statement"),
		caseBodies: kindSet("switch_block"),
		wrappers:   kindSet("expression_statement", "named_label_statement"),
		nested:     kindSet("function_definition", "class_declaration"),
		member:     phpSkelMember,
		exported:   phpSkelExported,
		caseItems:  phpSkelCaseItems,
		exitCall:   phpSkelExitCall,
	}
}

func phpSkelMember(s *skel, n int32) shape {
	t := s.t
	switch k := t.Kind(n); k {
	case "php_tag", "namespace_use_declaration", "declare_statement":
		return shape{kind: shapeVerbatim}
	case "text_interpolation", "text":
		// HTML: the first stretch stands for the template, the rest goes
		for p := t.PrevSibling(n); p >= 0; p = t.PrevSibling(p) {
			if k := t.Kind(p); k == "text_interpolation" || k == "text" {
				return shape{kind: shapeSkip}
			}
		}
		return shape{kind: shapeLine}
	case "expression_statement", "echo_statement":
		// <?= expr ?> in a template
		if p := t.PrevSibling(n); p >= 0 && t.Kind(p) == "text_interpolation" {
			if b := t.Bytes(p); len(b) >= 3 && string(b[len(b)-3:]) == "<?=" {
				return shape{kind: shapeSkip}
			}
		}
	case "namespace_definition", "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeMembers)}}
		}
	case "function_definition", "method_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	default:
		if s.r.control[k] {
			// a script's control flow
			return shape{kind: shapeFrame, holes: s.controlHoles(n)}
		}
	}
	return shape{kind: shapeLine}
}

func phpSkelCaseItems(s *skel, c int32) ([]int32, bool) {
	t := s.t
	var out []int32
	for ch := range t.NamedChildren(c) {
		if t.FieldName(ch) != "value" {
			out = append(out, ch)
		}
	}
	return out, true
}

// phpSkelExitCall: exit(), die() and throw in a statement leave.
func phpSkelExitCall(t *Tree, n int32) bool {
	if t.Kind(n) == "function_call_expression" {
		switch t.FieldText(n, "function") {
		case "exit", "die":
			return true
		}
	}
	return false
}

// phpSkelExported: members without private or protected, and what a file
// declares at its top.
func phpSkelExported(s *skel, n, container int32) bool {
	t := s.t
	for c := range t.Children(n) {
		if t.Kind(c) == "visibility_modifier" {
			switch t.Text(c) {
			case "private", "protected":
				return false
			}
		}
	}
	return true
}
