package lang

func init() {
	skelRulesByName["go"] = &SkelRules{
		Marker:     "/* ... */",
		Control:    KindSet("if_statement", "for_statement", "expression_switch_statement", "type_switch_statement", "select_statement"),
		Exits:      KindSet("return_statement", "break_statement", "continue_statement", "goto_statement", "fallthrough_statement"),
		Blocks:     KindSet("block"),
		Cases:      KindSet("expression_case", "default_case", "type_case", "communication_case"),
		Wrappers:   KindSet("labeled_statement"),
		CaseItems:  goSkelCaseItems,
		Member:     goSkelMember,
		Exported:   goSkelExported,
		ExitCall:   goSkelExitCall,
		CaseBodies: map[string]bool{},
	}
}

func goSkelMember(s *Skel, n int32) Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "package_clause", "import_declaration":
		return Shape{Kind: ShapeVerbatim}
	case "function_declaration", "method_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	case "type_declaration":
		if s.GroupParen(n) {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(n, HoleMembers)}}
		}
		for spec := range t.NamedChildren(n) {
			if hs := goSkelTypeHoles(s, spec); hs != nil {
				return Shape{Kind: ShapeFrame, Holes: hs}
			}
		}
	case "type_spec", "type_alias":
		if hs := goSkelTypeHoles(s, n); hs != nil {
			return Shape{Kind: ShapeFrame, Holes: hs}
		}
	case "const_declaration", "var_declaration":
		if l := t.ChildOfKind(n, "var_spec_list"); l >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(l, HoleMembers)}}
		}
		if s.GroupParen(n) {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(n, HoleMembers)}}
		}
	}
	return Shape{Kind: ShapeLine}
}

// goSkelTypeHoles finds the field or method list of a struct or interface type.
func goSkelTypeHoles(s *Skel, spec int32) []Hole {
	t := s.Tree
	typ := t.Field(spec, "type")
	if typ < 0 {
		return nil
	}
	switch t.Kind(typ) {
	case "struct_type":
		if fl := t.ChildOfKind(typ, "field_declaration_list"); fl >= 0 {
			return []Hole{s.BodyHole(fl, HoleMembers)}
		}
	case "interface_type":
		return []Hole{s.BodyHole(typ, HoleMembers)}
	}
	return nil
}

func goSkelCaseItems(s *Skel, c int32) ([]int32, bool) {
	t := s.Tree
	if l := t.ChildOfKind(c, "statement_list"); l >= 0 {
		return s.ItemsOf(l, 0, t.Nodes[l].End), true
	}
	return nil, true
}

func goSkelExported(s *Skel, n, container int32) bool {
	t := s.Tree
	switch t.Kind(n) {
	case "function_declaration", "method_declaration", "type_spec", "type_alias", "method_elem":
		return IsUpper(NameOf(t, n))
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
				return IsUpper(t.Text(c))
			}
		}
		return false
	case "field_declaration":
		if name := t.Field(n, "name"); name >= 0 {
			return IsUpper(t.Text(name))
		}
		return IsUpper(goBaseType(t.FieldText(n, "type")))
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
