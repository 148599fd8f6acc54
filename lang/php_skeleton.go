package lang

func init() {
	skelRulesByName["php"] = &SkelRules{
		Marker: "/* ... */",
		Control: KindSet("if_statement", "for_statement", "foreach_statement", "while_statement", "do_statement",
			"switch_statement", "try_statement"),
		Exits: KindSet("return_statement", "break_statement", "continue_statement", "exit_statement",
			"throw_expression"),
		Blocks:     KindSet("compound_statement", "colon_block"),
		Clauses:    KindSet("else_clause", "else_if_clause", "catch_clause", "finally_clause"),
		Cases:      KindSet("case_statement", "default_statement"),
		CaseBodies: KindSet("switch_block"),
		Wrappers:   KindSet("expression_statement", "named_label_statement"),
		Nested:     KindSet("function_definition", "class_declaration"),
		Member:     phpSkelMember,
		Exported:   phpSkelExported,
		CaseItems:  phpSkelCaseItems,
		ExitCall:   phpSkelExitCall,
	}
}

func phpSkelMember(s *Skel, n int32) Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "php_tag", "namespace_use_declaration", "declare_statement":
		return Shape{Kind: ShapeVerbatim}
	case "text_interpolation", "text":
		// HTML: the first stretch stands for the template, the rest goes
		for p := t.PrevSibling(n); p >= 0; p = t.PrevSibling(p) {
			if k := t.Kind(p); k == "text_interpolation" || k == "text" {
				return Shape{Kind: ShapeSkip}
			}
		}
		return Shape{Kind: ShapeLine}
	case "expression_statement", "echo_statement":
		// <?= expr ?> in a template
		if p := t.PrevSibling(n); p >= 0 && t.Kind(p) == "text_interpolation" {
			if b := t.Bytes(p); len(b) >= 3 && string(b[len(b)-3:]) == "<?=" {
				return Shape{Kind: ShapeSkip}
			}
		}
	case "namespace_definition", "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleMembers)}}
		}
	case "function_definition", "method_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	default:
		if s.Rules.Control[k] {
			// a script's control flow
			return Shape{Kind: ShapeFrame, Holes: s.ControlHoles(n)}
		}
	}
	return Shape{Kind: ShapeLine}
}

func phpSkelCaseItems(s *Skel, c int32) ([]int32, bool) {
	t := s.Tree
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
func phpSkelExported(s *Skel, n, container int32) bool {
	t := s.Tree
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
