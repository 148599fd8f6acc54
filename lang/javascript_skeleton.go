package lang

func init() {
	r := &SkelRules{
		Marker: "/* ... */",
		Control: KindSet("if_statement", "for_statement", "for_in_statement", "while_statement", "do_statement",
			"switch_statement", "try_statement", "with_statement"),
		Exits:      KindSet("return_statement", "throw_statement", "break_statement", "continue_statement"),
		Blocks:     KindSet("statement_block"),
		Clauses:    KindSet("else_clause", "catch_clause", "finally_clause"),
		Cases:      KindSet("switch_case", "switch_default"),
		CaseBodies: KindSet("switch_body"),
		Wrappers:   KindSet("labeled_statement"),
		Nested: KindSet("function_declaration", "generator_function_declaration", "class_declaration",
			"abstract_class_declaration"),
		Member:    jsSkelMember,
		Exported:  jsSkelExported,
		CaseItems: jsSkelCaseItems,
	}
	for _, name := range []string{"javascript", "typescript", "tsx"} {
		skelRulesByName[name] = r
	}
}

// jsSkelBodies are the member lists of classes, interfaces, enums and
// object types.
var jsSkelBodies = KindSet("class_body", "interface_body", "enum_body", "object_type", "statement_block")

func jsSkelMember(s *Skel, n int32) Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "import_statement":
		return Shape{Kind: ShapeVerbatim}
	case "export_statement":
		if d := t.Field(n, "declaration"); d >= 0 {
			if sh := jsSkelMember(s, d); sh.Kind == ShapeFrame {
				return Shape{Kind: ShapeFrame, Holes: []Hole{s.NodeHole(d, HoleMember)}}
			}
		}
		// export default function () {} has a value, not a declaration
		if v := t.Field(n, "value"); v >= 0 {
			if hs := jsSkelFuncHoles(s, v); hs != nil {
				return Shape{Kind: ShapeFrame, Holes: hs}
			}
		}
	case "function_declaration", "generator_function_declaration", "method_definition", "function_expression",
		"arrow_function", "generator_function", "class_static_block":
		if hs := jsSkelFuncHoles(s, n); hs != nil {
			return Shape{Kind: ShapeFrame, Holes: hs}
		}
	case "class_declaration", "abstract_class_declaration", "class", "interface_declaration", "enum_declaration",
		"module", "internal_module":
		if b := t.Field(n, "body"); b >= 0 {
			kind := HoleMembers
			if t.Kind(b) == "statement_block" {
				kind = HoleMembers // a namespace: its declarations are members
			}
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, kind)}}
		}
	case "type_alias_declaration":
		if v := t.Field(n, "value"); v >= 0 && t.Kind(v) == "object_type" {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(v, HoleMembers)}}
		}
	case "lexical_declaration", "variable_declaration", "variable_declarator", "public_field_definition",
		"field_definition", "expression_statement", "ambient_declaration":
		// const f = () => {...}, handler = function () {...}, field = () => {...}
		var hs []Hole
		for d := range t.Descendants(n) {
			switch t.Kind(d) {
			case "arrow_function", "function_expression", "function", "generator_function":
				if p := t.Parent(d); p != n && t.Kind(p) != "variable_declarator" && t.Kind(p) != "assignment_expression" &&
					t.Kind(p) != "public_field_definition" && t.Kind(p) != "field_definition" {
					continue
				}
				hs = append(hs, jsSkelFuncHoles(s, d)...)
			case "class":
				if b := t.Field(d, "body"); b >= 0 && t.Parent(d) != -1 {
					hs = append(hs, s.BodyHole(b, HoleMembers))
				}
			}
		}
		if len(hs) > 0 && !overlapping(hs) {
			return Shape{Kind: ShapeFrame, Holes: hs}
		}
	default:
		if s.Rules.Control[k] {
			return Shape{Kind: ShapeFrame, Holes: s.ControlHoles(n)}
		}
	}
	return Shape{Kind: ShapeLine}
}

// jsSkelFuncHoles is the body of a function whose body is a block.
func jsSkelFuncHoles(s *Skel, n int32) []Hole {
	t := s.Tree
	b := t.Field(n, "body")
	if b < 0 || t.Kind(b) != "statement_block" {
		return nil
	}
	return []Hole{s.BodyHole(b, HoleCode)}
}

// overlapping reports whether holes nest in one another (a function inside
// a function's body), which a frame cannot render.
func overlapping(hs []Hole) bool {
	for i := 1; i < len(hs); i++ {
		if hs[i].Start < hs[i-1].End {
			return true
		}
	}
	return false
}

func jsSkelCaseItems(s *Skel, c int32) ([]int32, bool) {
	t := s.Tree
	var out []int32
	for ch := range t.NamedChildren(c) {
		if t.FieldName(ch) == "body" {
			out = append(out, ch)
		}
	}
	return out, true
}

// jsSkelExported: at the top of a module, what it exports; in a class, what
// is not private.
func jsSkelExported(s *Skel, n, container int32) bool {
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
