package lang

func init() {
	skelRulesByName["swift"] = &SkelRules{
		Marker:   "/* ... */",
		Exits:    KindSet("control_transfer_statement"),
		Blocks:   KindSet("statements"),
		Nested:   KindSet("class_declaration", "protocol_declaration", "function_declaration"),
		Member:   swSkelMember,
		Exported: swSkelExported,
	}
}

func swSkelMember(s *Skel, n int32) Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "import_declaration":
		return Shape{Kind: ShapeVerbatim}
	case "class_declaration", "protocol_declaration":
		for c := range t.NamedChildren(n) {
			if k := t.Kind(c); k == "class_body" || k == "enum_class_body" || k == "protocol_body" {
				return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(c, HoleMembers)}}
			}
		}
	case "function_declaration", "init_declaration", "deinit_declaration":
		if b := t.ChildOfKind(n, "function_body"); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	case "subscript_declaration", "property_declaration":
		if b := t.ChildOfKind(n, "computed_property"); b >= 0 {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	}
	return Shape{Kind: ShapeLine}
}

// swSkelExported: public and open declarations, protocol requirements,
// imports and enum cases.
func swSkelExported(s *Skel, n, container int32) bool {
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
