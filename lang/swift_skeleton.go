package lang

func init() {
	skelRulesByName["swift"] = &skelRules{
		marker:   "/* ... */",
		exits:    kindSet("control_transfer_statement"),
		blocks:   kindSet("statements"),
		nested:   kindSet("class_declaration", "protocol_declaration", "function_declaration"),
		member:   swSkelMember,
		exported: swSkelExported,
	}
}

func swSkelMember(s *skel, n int32) shape {
	t := s.t
	switch t.Kind(n) {
	case "import_declaration":
		return shape{kind: shapeVerbatim}
	case "class_declaration", "protocol_declaration":
		for c := range t.NamedChildren(n) {
			if k := t.Kind(c); k == "class_body" || k == "enum_class_body" || k == "protocol_body" {
				return shape{kind: shapeFrame, holes: []hole{s.bodyHole(c, holeMembers)}}
			}
		}
	case "function_declaration", "init_declaration", "deinit_declaration":
		if b := t.ChildOfKind(n, "function_body"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	case "subscript_declaration", "property_declaration":
		if b := t.ChildOfKind(n, "computed_property"); b >= 0 {
			return shape{kind: shapeFrame, holes: []hole{s.bodyHole(b, holeCode)}}
		}
	}
	return shape{kind: shapeLine}
}

// swSkelExported: public and open declarations, protocol requirements,
// imports and enum cases.
func swSkelExported(s *skel, n, container int32) bool {
	t := s.t
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
