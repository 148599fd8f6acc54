package lang

import "strings"

func init() {
	skelRulesByName["python"] = &skelRules{
		marker:     "...",
		indented:   true,
		docstrings: true,
		control: kindSet("if_statement", "for_statement", "while_statement", "try_statement", "with_statement",
			"match_statement"),
		exits:       kindSet("return_statement", "raise_statement", "break_statement", "continue_statement"),
		blocks:      kindSet("block"),
		clauses:     kindSet("elif_clause", "else_clause", "except_clause", "finally_clause"),
		cases:       kindSet("case_clause"),
		caseParents: kindSet("match_statement"),
		nested:      kindSet("function_definition", "class_definition", "decorated_definition"),
		member:      pySkelMember,
		exported:    pySkelExported,
	}
}

func pySkelMember(s *skel, n int32) shape {
	t := s.t
	switch k := t.Kind(n); k {
	case "import_statement", "import_from_statement", "future_import_statement":
		return shape{kind: shapeVerbatim}
	case "function_definition", "class_definition":
		return pySkelDef(s, n, n)
	case "decorated_definition":
		if d := t.Field(n, "definition"); d >= 0 {
			return pySkelDef(s, n, d)
		}
	case "expression_statement":
		if s.isDocstring(n) {
			return shape{kind: shapeDoc}
		}
	default:
		if s.r.control[k] {
			// module-level control flow: if __name__ == "__main__", try: import
			return shape{kind: shapeFrame, holes: s.controlHoles(n)}
		}
	}
	return shape{kind: shapeLine}
}

// pySkelDef frames a definition (n, or the decorated definition around
// it) around the body of def.
func pySkelDef(s *skel, n, def int32) shape {
	t := s.t
	b := t.Field(def, "body")
	if b < 0 {
		return shape{kind: shapeLine}
	}
	kind := holeCode
	if t.Kind(def) == "class_definition" {
		kind = holeMembers
	}
	return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, kind)}}
}

// pySkelExported: a name without a leading underscore, or a dunder name.
func pySkelExported(s *skel, n, container int32) bool {
	t := s.t
	name := ""
	switch t.Kind(n) {
	case "function_definition", "class_definition":
		name = nameOf(t, n)
	case "decorated_definition":
		if d := t.Field(n, "definition"); d >= 0 {
			name = nameOf(t, d)
		}
	case "expression_statement":
		if s.isDocstring(n) {
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
