package python

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

var skeleton = &lang.SkelRules{
	Marker:     "...",
	Indented:   true,
	Docstrings: true,
	Control: lang.KindSet("if_statement", "for_statement", "while_statement", "try_statement", "with_statement",
		"match_statement"),
	Exits:       lang.KindSet("return_statement", "raise_statement", "break_statement", "continue_statement"),
	Blocks:      lang.KindSet("block"),
	Clauses:     lang.KindSet("elif_clause", "else_clause", "except_clause", "finally_clause"),
	Cases:       lang.KindSet("case_clause"),
	CaseParents: lang.KindSet("match_statement"),
	Nested:      lang.KindSet("function_definition", "class_definition", "decorated_definition"),
	Member:      skelMember,
	Exported:    skelExported,
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "import_statement", "import_from_statement", "future_import_statement":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "function_definition", "class_definition":
		return skelDef(s, n, n)
	case "decorated_definition":
		if d := t.Field(n, "definition"); d >= 0 {
			return skelDef(s, n, d)
		}
	case "expression_statement":
		if s.IsDocstring(n) {
			return lang.Shape{Kind: lang.ShapeDoc}
		}
	default:
		if s.Rules.Control[k] {
			// module-level control flow: if __name__ == "__main__", try: import
			return lang.Shape{Kind: lang.ShapeFrame, Holes: s.ControlHoles(n)}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

// skelDef frames a definition (n, or the decorated definition around
// it) around the body of def.
func skelDef(s *lang.Skel, n, def int32) lang.Shape {
	t := s.Tree
	b := t.Field(def, "body")
	if b < 0 {
		return lang.Shape{Kind: lang.ShapeLine}
	}
	kind := lang.HoleCode
	if t.Kind(def) == "class_definition" {
		kind = lang.HoleMembers
	}
	return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, kind)}}
}

// skelExported: a name without a leading underscore, or a dunder name.
func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	name := ""
	switch t.Kind(n) {
	case "function_definition", "class_definition":
		name = lang.NameOf(t, n)
	case "decorated_definition":
		if d := t.Field(n, "definition"); d >= 0 {
			name = lang.NameOf(t, d)
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
	return skelPublic(name)
}

func skelPublic(name string) bool {
	if name == "" {
		return false
	}
	return !strings.HasPrefix(name, "_") || strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}
