package lang

import "strings"

func init() {
	skelRulesByName["python"] = &SkelRules{
		Marker:     "...",
		Indented:   true,
		Docstrings: true,
		Control: KindSet("if_statement", "for_statement", "while_statement", "try_statement", "with_statement",
			"match_statement"),
		Exits:       KindSet("return_statement", "raise_statement", "break_statement", "continue_statement"),
		Blocks:      KindSet("block"),
		Clauses:     KindSet("elif_clause", "else_clause", "except_clause", "finally_clause"),
		Cases:       KindSet("case_clause"),
		CaseParents: KindSet("match_statement"),
		Nested:      KindSet("function_definition", "class_definition", "decorated_definition"),
		Member:      pySkelMember,
		Exported:    pySkelExported,
	}
}

func pySkelMember(s *Skel, n int32) Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "import_statement", "import_from_statement", "future_import_statement":
		return Shape{Kind: ShapeVerbatim}
	case "function_definition", "class_definition":
		return pySkelDef(s, n, n)
	case "decorated_definition":
		if d := t.Field(n, "definition"); d >= 0 {
			return pySkelDef(s, n, d)
		}
	case "expression_statement":
		if s.IsDocstring(n) {
			return Shape{Kind: ShapeDoc}
		}
	default:
		if s.Rules.Control[k] {
			// module-level control flow: if __name__ == "__main__", try: import
			return Shape{Kind: ShapeFrame, Holes: s.ControlHoles(n)}
		}
	}
	return Shape{Kind: ShapeLine}
}

// pySkelDef frames a definition (n, or the decorated definition around
// it) around the body of def.
func pySkelDef(s *Skel, n, def int32) Shape {
	t := s.Tree
	b := t.Field(def, "body")
	if b < 0 {
		return Shape{Kind: ShapeLine}
	}
	kind := HoleCode
	if t.Kind(def) == "class_definition" {
		kind = HoleMembers
	}
	return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, kind)}}
}

// pySkelExported: a name without a leading underscore, or a dunder name.
func pySkelExported(s *Skel, n, container int32) bool {
	t := s.Tree
	name := ""
	switch t.Kind(n) {
	case "function_definition", "class_definition":
		name = NameOf(t, n)
	case "decorated_definition":
		if d := t.Field(n, "definition"); d >= 0 {
			name = NameOf(t, d)
		}
	case "expression_statement":
		if s.IsDocstring(n) {
			return true
		}
		if a := t.FirstNamedChild(n); a >= 0 && (t.Kind(a) == "assignment" || t.Kind(a) == "augmented_assignment") {
			name = t.FieldText(a, "left")
		}
	case "import_statement", "import_from_statement", "future_import_statement":
		return true
	default:
		return false
	}
	return pySkelPublic(name)
}

func pySkelPublic(name string) bool {
	if name == "" {
		return false
	}
	return !strings.HasPrefix(name, "_") || strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}
