package java

import "github.com/sdl-dev/sdl/lang"

var skeleton = &lang.SkelRules{
	Marker: "/* ... */",
	Control: lang.KindSet("if_statement", "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
		"switch_expression", "try_statement", "try_with_resources_statement",
		"synchronized_statement"),
	Exits:      lang.KindSet("return_statement", "throw_statement", "break_statement", "continue_statement", "yield_statement"),
	Blocks:     lang.KindSet("block", "constructor_body"),
	Clauses:    lang.KindSet("catch_clause", "finally_clause"),
	Cases:      lang.KindSet("switch_block_statement_group", "switch_rule"),
	CaseBodies: lang.KindSet("switch_block"),
	Wrappers:   lang.KindSet("labeled_statement", "expression_statement"),
	Nested:     lang.KindSet("class_declaration", "record_declaration", "interface_declaration", "enum_declaration"),
	Member:     skelMember,
	Exported:   skelExported,
	CaseItems:  skelCaseItems,
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "package_declaration", "import_declaration", "module_declaration":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
		"annotation_type_declaration", "object_creation_expression":
		if b := t.Field(n, "body"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleMembers)}}
		}
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	case "static_initializer":
		if b := t.ChildOfKind(n, "block"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

func skelCaseItems(s *lang.Skel, c int32) ([]int32, bool) {
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

// skelExported: public and protected members; everything an interface
// or annotation declares, and enum constants.
func skelExported(s *lang.Skel, n, container int32) bool {
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
