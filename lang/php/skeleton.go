package php

import "github.com/sdl-dev/sdl/lang"

var skeleton = &lang.SkelRules{
	Marker: "/* ... */",
	Control: lang.KindSet("if_statement", "for_statement", "foreach_statement", "while_statement", "do_statement",
		"switch_statement", "try_statement"),
	Exits: lang.KindSet("return_statement", "break_statement", "continue_statement", "exit_statement",
		"throw_expression"),
	Blocks:     lang.KindSet("compound_statement", "colon_block"),
	Clauses:    lang.KindSet("else_clause", "else_if_clause", "catch_clause", "finally_clause"),
	Cases:      lang.KindSet("case_statement", "default_statement"),
	CaseBodies: lang.KindSet("switch_block"),
	Wrappers:   lang.KindSet("expression_statement", "named_label_statement"),
	Nested:     lang.KindSet("function_definition", "class_declaration"),
	Member:     skelMember,
	Exported:   skelExported,
	CaseItems:  skelCaseItems,
	ExitCall:   skelExitCall,
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "php_tag", "namespace_use_declaration", "declare_statement":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "text_interpolation", "text":
		// HTML: the first stretch stands for the template, the rest goes
		for p := t.PrevSibling(n); p >= 0; p = t.PrevSibling(p) {
			if k := t.Kind(p); k == "text_interpolation" || k == "text" {
				return lang.Shape{Kind: lang.ShapeSkip}
			}
		}
		return lang.Shape{Kind: lang.ShapeLine}
	case "expression_statement", "echo_statement":
		// <?= expr ?> in a template
		if p := t.PrevSibling(n); p >= 0 && t.Kind(p) == "text_interpolation" {
			if b := t.Bytes(p); len(b) >= 3 && string(b[len(b)-3:]) == "<?=" {
				return lang.Shape{Kind: lang.ShapeSkip}
			}
		}
	case "namespace_definition", "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleMembers)}}
		}
	case "function_definition", "method_declaration":
		if b := t.Field(n, "body"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	default:
		if s.Rules.Control[k] {
			// a script's control flow
			return lang.Shape{Kind: lang.ShapeFrame, Holes: s.ControlHoles(n)}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

func skelCaseItems(s *lang.Skel, c int32) ([]int32, bool) {
	t := s.Tree
	var out []int32
	for ch := range t.NamedChildren(c) {
		if t.FieldName(ch) != "value" {
			out = append(out, ch)
		}
	}
	return out, true
}

// skelExitCall: exit(), die() and throw in a statement leave.
func skelExitCall(t *lang.Tree, n int32) bool {
	if t.Kind(n) == "function_call_expression" {
		switch t.FieldText(n, "function") {
		case "exit", "die":
			return true
		}
	}
	return false
}

// skelExported: members without private or protected, and what a file
// declares at its top.
func skelExported(s *lang.Skel, n, container int32) bool {
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
