package swift

import "github.com/sdl-dev/sdl/lang"

var skeleton = &lang.SkelRules{
	Marker:   "/* ... */",
	Exits:    lang.KindSet("control_transfer_statement"),
	Blocks:   lang.KindSet("statements"),
	Nested:   lang.KindSet("class_declaration", "protocol_declaration", "function_declaration"),
	Member:   skelMember,
	Exported: skelExported,
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "import_declaration":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "class_declaration", "protocol_declaration":
		for c := range t.NamedChildren(n) {
			if k := t.Kind(c); k == "class_body" || k == "enum_class_body" || k == "protocol_body" {
				return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(c, lang.HoleMembers)}}
			}
		}
	case "function_declaration", "init_declaration", "deinit_declaration":
		if b := t.ChildOfKind(n, "function_body"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	case "subscript_declaration", "property_declaration":
		if b := t.ChildOfKind(n, "computed_property"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

// skelExported: public and open declarations, protocol requirements,
// imports and enum cases.
func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	switch t.Kind(n) {
	case "import_declaration", "enum_entry", "protocol_function_declaration", "protocol_property_declaration":
		return true
	}
	if m := t.ChildOfKind(n, "modifiers"); m >= 0 {
		for c := range t.NamedChildren(m) {
			if t.Kind(c) == "visibility_modifier" {
				w := t.Text(c)
				return w == "public" || w == "open"
			}
		}
	}
	return false
}
