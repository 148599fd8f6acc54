package golang

import "github.com/sdl-dev/sdl/lang"

var skeleton = &lang.SkelRules{
	Marker:     "/* ... */",
	Control:    lang.KindSet("if_statement", "for_statement", "expression_switch_statement", "type_switch_statement", "select_statement"),
	Exits:      lang.KindSet("return_statement", "break_statement", "continue_statement", "goto_statement", "fallthrough_statement"),
	Blocks:     lang.KindSet("block"),
	Cases:      lang.KindSet("expression_case", "default_case", "type_case", "communication_case"),
	Wrappers:   lang.KindSet("labeled_statement"),
	CaseItems:  skelCaseItems,
	Member:     skelMember,
	Exported:   skelExported,
	ExitCall:   skelExitCall,
	CaseBodies: map[string]bool{},
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "package_clause", "import_declaration":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "function_declaration", "method_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	case "type_declaration":
		if s.GroupParen(n) {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(n, lang.HoleMembers)}}
		}
		for spec := range t.NamedChildren(n) {
			if hs := skelTypeHoles(s, spec); hs != nil {
				return lang.Shape{Kind: lang.ShapeFrame, Holes: hs}
			}
		}
	case "type_spec", "type_alias":
		if hs := skelTypeHoles(s, n); hs != nil {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: hs}
		}
	case "const_declaration", "var_declaration":
		if l := t.ChildOfKind(n, "var_spec_list"); l >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(l, lang.HoleMembers)}}
		}
		if s.GroupParen(n) {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(n, lang.HoleMembers)}}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

// skelTypeHoles finds the field or method list of a struct or interface type.
func skelTypeHoles(s *lang.Skel, spec int32) []lang.Hole {
	t := s.Tree
	typ := t.Field(spec, "type")
	if typ < 0 {
		return nil
	}
	switch t.Kind(typ) {
	case "struct_type":
		if fl := t.ChildOfKind(typ, "field_declaration_list"); fl >= 0 {
			return []lang.Hole{s.BodyHole(fl, lang.HoleMembers)}
		}
	case "interface_type":
		return []lang.Hole{s.BodyHole(typ, lang.HoleMembers)}
	}
	return nil
}

func skelCaseItems(s *lang.Skel, c int32) ([]int32, bool) {
	t := s.Tree
	if l := t.ChildOfKind(c, "statement_list"); l >= 0 {
		return s.ItemsOf(l, 0, t.Nodes[l].End), true
	}
	return nil, true
}

func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	switch t.Kind(n) {
	case "function_declaration", "method_declaration", "type_spec", "type_alias", "method_elem":
		return lang.IsUpper(lang.NameOf(t, n))
	case "type_declaration", "const_declaration", "var_declaration", "var_spec_list":
		for spec := range t.NamedChildren(n) {
			if skelExported(s, spec, n) {
				return true
			}
		}
		return false
	case "const_spec", "var_spec":
		for c := range t.Children(n) {
			if t.FieldName(c) == "name" {
				return lang.IsUpper(t.Text(c))
			}
		}
		return false
	case "field_declaration":
		if name := t.Field(n, "name"); name >= 0 {
			return lang.IsUpper(t.Text(name))
		}
		return lang.IsUpper(baseType(t.FieldText(n, "type")))
	case "type_elem":
		return true
	case "package_clause", "import_declaration":
		return true
	}
	return false
}

// skelExitCall recognises the calls that end a function: panic, os.Exit,
// log.Fatal and its kin.
func skelExitCall(t *lang.Tree, n int32) bool {
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
