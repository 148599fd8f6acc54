package javascript

import "github.com/sdl-dev/sdl/lang"

var skeleton = &lang.SkelRules{
	Marker: "/* ... */",
	Control: lang.KindSet("if_statement", "for_statement", "for_in_statement", "while_statement", "do_statement",
		"switch_statement", "try_statement", "with_statement"),
	Exits:      lang.KindSet("return_statement", "throw_statement", "break_statement", "continue_statement"),
	Blocks:     lang.KindSet("statement_block"),
	Clauses:    lang.KindSet("else_clause", "catch_clause", "finally_clause"),
	Cases:      lang.KindSet("switch_case", "switch_default"),
	CaseBodies: lang.KindSet("switch_body"),
	Wrappers:   lang.KindSet("labeled_statement"),
	Nested: lang.KindSet("function_declaration", "generator_function_declaration", "class_declaration",
		"abstract_class_declaration"),
	Member:    skelMember,
	Exported:  skelExported,
	CaseItems: skelCaseItems,
}

// skelBodies are the member lists of classes, interfaces, enums and
// object types.
var skelBodies = lang.KindSet("class_body", "interface_body", "enum_body", "object_type", "statement_block")

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "import_statement":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "export_statement":
		if d := t.Field(n, "declaration"); d >= 0 {
			if sh := skelMember(s, d); sh.Kind == lang.ShapeFrame {
				return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.NodeHole(d, lang.HoleMember)}}
			}
		}
		// export default function () {} has a value, not a declaration
		if v := t.Field(n, "value"); v >= 0 {
			if hs := skelFuncHoles(s, v); hs != nil {
				return lang.Shape{Kind: lang.ShapeFrame, Holes: hs}
			}
		}
	case "function_declaration", "generator_function_declaration", "method_definition", "function_expression",
		"arrow_function", "generator_function", "class_static_block":
		if hs := skelFuncHoles(s, n); hs != nil {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: hs}
		}
	case "class_declaration", "abstract_class_declaration", "class", "interface_declaration", "enum_declaration",
		"module", "internal_module":
		if b := t.Field(n, "body"); b >= 0 {
			kind := lang.HoleMembers
			if t.Kind(b) == "statement_block" {
				kind = lang.HoleMembers // a namespace: its declarations are members
			}
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, kind)}}
		}
	case "type_alias_declaration":
		if v := t.Field(n, "value"); v >= 0 && t.Kind(v) == "object_type" {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(v, lang.HoleMembers)}}
		}
	case "lexical_declaration", "variable_declaration", "variable_declarator", "public_field_definition",
		"field_definition", "expression_statement", "ambient_declaration":
		// const f = () => {...}, handler = function () {...}, field = () => {...}
		var hs []lang.Hole
		for d := range t.Descendants(n) {
			switch t.Kind(d) {
			case "arrow_function", "function_expression", "function", "generator_function":
				if p := t.Parent(d); p != n && t.Kind(p) != "variable_declarator" && t.Kind(p) != "assignment_expression" &&
					t.Kind(p) != "public_field_definition" && t.Kind(p) != "field_definition" {
					continue
				}
				hs = append(hs, skelFuncHoles(s, d)...)
			case "class":
				if b := t.Field(d, "body"); b >= 0 && t.Parent(d) != -1 {
					hs = append(hs, s.BodyHole(b, lang.HoleMembers))
				}
			}
		}
		if len(hs) > 0 && !overlapping(hs) {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: hs}
		}
	default:
		if s.Rules.Control[k] {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: s.ControlHoles(n)}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

// skelFuncHoles is the body of a function whose body is a block.
func skelFuncHoles(s *lang.Skel, n int32) []lang.Hole {
	t := s.Tree
	b := t.Field(n, "body")
	if b < 0 || t.Kind(b) != "statement_block" {
		return nil
	}
	return []lang.Hole{s.BodyHole(b, lang.HoleCode)}
}

// overlapping reports whether holes nest in one another (a function inside
// a function's body), which a frame cannot render.
func overlapping(hs []lang.Hole) bool {
	for i := 1; i < len(hs); i++ {
		if hs[i].Start < hs[i-1].End {
			return true
		}
	}
	return false
}

func skelCaseItems(s *lang.Skel, c int32) ([]int32, bool) {
	t := s.Tree
	var out []int32
	for ch := range t.NamedChildren(c) {
		if t.FieldName(ch) == "body" {
			out = append(out, ch)
		}
	}
	return out, true
}

// skelExported: at the top of a module, what it exports; in a class, what
// is not private.
func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	if container == 0 {
		switch t.Kind(n) {
		case "export_statement", "import_statement":
			return true
		case "expression_statement":
			// module.exports = ..., exports.x = ...
			if a := t.FirstNamedChild(n); a >= 0 && t.Kind(a) == "assignment_expression" {
				left := t.FieldText(a, "left")
				return left == "module.exports" || len(left) > 8 && left[:8] == "exports." ||
					len(left) > 15 && left[:15] == "module.exports."
			}
		case "ambient_declaration":
			return true
		}
		return false
	}
	switch t.Kind(n) {
	case "method_definition", "public_field_definition", "field_definition", "method_signature",
		"abstract_method_signature", "property_signature":
		if name := t.Field(n, "name"); name >= 0 && t.Kind(name) == "private_property_identifier" {
			return false
		}
		for c := range t.NamedChildren(n) {
			if t.Kind(c) == "accessibility_modifier" {
				return t.Text(c) == "public"
			}
		}
	}
	return true
}
