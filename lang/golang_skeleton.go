package lang

func init() {
	skelRulesByName["go"] = &skelRules{
		marker:     "/* ... */",
		control:    kindSet("if_statement", "for_statement", "expression_switch_statement", "type_switch_statement", "select_statement"),
		exits:      kindSet("return_statement", "break_statement", "continue_statement", "goto_statement", "fallthrough_statement"),
		blocks:     kindSet("block"),
		cases:      kindSet("expression_case", "default_case", "type_case", "communication_case"),
		wrappers:   kindSet("labeled_statement"),
		caseItems:  goSkelCaseItems,
		member:     goSkelMember,
		exported:   goSkelExported,
		exitCall:   goSkelExitCall,
		caseBodies: map[string]bool{},
	}
}

func goSkelMember(s *skel, n int32) shape {
	t := s.t
	switch t.Kind(n) {
	case "package_clause", "import_declaration":
		return shape{kind: shapeVerbatim}
	case "function_declaration", "method_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	case "type_declaration":
		if s.groupParen(n) {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(n, holeMembers)}}
		}
		for spec := range t.NamedChildren(n) {
			if hs := goSkelTypeHoles(s, spec); hs != nil {
				return shape{kind: shapeFrame, holes: hs}
			}
		}
	case "type_spec", "type_alias":
		if hs := goSkelTypeHoles(s, n); hs != nil {
			return shape{kind: shapeFrame, holes: hs}
		}
	case "const_declaration", "var_declaration":
		if l := t.ChildOfKind(n, "var_spec_list"); l >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(l, holeMembers)}}
		}
		if s.groupParen(n) {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(n, holeMembers)}}
		}
	}
	return shape{kind: shapeLine}
}

// goSkelTypeHoles finds the field or method list of a struct or interface type.
func goSkelTypeHoles(s *skel, spec int32) []hole {
	t := s.t
	typ := t.Field(spec, "type")
	if typ < 0 {
		return nil
	}
	switch t.Kind(typ) {
	case "struct_type":
		if fl := t.ChildOfKind(typ, "field_declaration_list"); fl >= 0 {
			return []hole{s.bodyHole(fl, holeMembers)}
		}
	case "interface_type":
		return []hole{s.bodyHole(typ, holeMembers)}
	}
	return nil
}

func goSkelCaseItems(s *skel, c int32) ([]int32, bool) {
	t := s.t
	if l := t.ChildOfKind(c, "statement_list"); l >= 0 {
		return s.itemsOf(l, 0, t.Nodes[l].End), true
	}
	return nil, true
}

func goSkelExported(s *skel, n, container int32) bool {
	t := s.t
	switch t.Kind(n) {
	case "function_declaration", "method_declaration", "type_spec", "type_alias", "method_elem":
		return isUpper(nameOf(t, n))
	case "type_declaration", "const_declaration", "var_declaration", "var_spec_list":
		for spec := range t.NamedChildren(n) {
			if goSkelExported(s, spec, n) {
				return true
			}
		}
		return false
	case "const_spec", "var_spec":
		for c := range t.Children(n) {
			if t.FieldName(c) == "name" {
				return isUpper(t.Text(c))
			}
		}
		return false
	case "field_declaration":
		if name := t.Field(n, "name"); name >= 0 {
			return isUpper(t.Text(name))
		}
		return isUpper(goBaseType(t.FieldText(n, "type")))
	case "type_elem":
		return true
	case "package_clause", "import_declaration":
		return true
	}
	return false
}

// goSkelExitCall recognises the calls that end a function: panic, os.Exit,
// log.Fatal and its kin.
func goSkelExitCall(t *Tree, n int32) bool {
	if t.Kind(n) != "expression_statement" {
		return false
	}
	call := t.FirstNamedChild(n)
	if call < 0 || t.Kind(call) != "call_expression" {
		return false
	}
	switch t.FieldText(call, "function") {
	case "panic", "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln":
		return true
	}
	return false
}
