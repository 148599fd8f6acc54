package kotlin

import "github.com/sdl-dev/sdl/lang"

var skeleton = &lang.SkelRules{
	Marker:   "/* ... */",
	Control:  lang.KindSet("if_expression", "for_statement", "while_statement", "do_while_statement", "when_expression", "try_expression"),
	Exits:    lang.KindSet("return_expression", "throw_expression"),
	Blocks:   lang.KindSet("block"),
	Clauses:  lang.KindSet("catch_block", "finally_block"),
	Cases:    lang.KindSet("when_entry"),
	Nested:   lang.KindSet("class_declaration", "object_declaration", "function_declaration"),
	Member:   skelMember,
	Exported: skelExported,
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "package_header", "import":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "class_declaration", "object_declaration", "companion_object":
		for c := range t.NamedChildren(n) {
			if k := t.Kind(c); k == "class_body" || k == "enum_class_body" {
				return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(c, lang.HoleMembers)}}
			}
		}
	case "function_declaration", "secondary_constructor", "anonymous_initializer":
		b := t.ChildOfKind(n, "function_body")
		if b >= 0 {
			b = t.ChildOfKind(b, "block")
		} else {
			b = t.ChildOfKind(n, "block")
		}
		if b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

// skelExported: what is not private, internal or protected-only.
func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	switch t.Kind(n) {
	case "package_header", "import", "enum_entry", "companion_object":
		return true
	}
	if m := t.ChildOfKind(n, "modifiers"); m >= 0 {
		for c := range t.NamedChildren(m) {
			if t.Kind(c) == "visibility_modifier" {
				w := t.Text(c)
				return w == "public" || w == "protected"
			}
		}
	}
	return true
}
