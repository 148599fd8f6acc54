package rust

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

var skeleton = &lang.SkelRules{
	Marker: "/* ... */",
	Control: lang.KindSet("if_expression", "match_expression", "for_expression", "while_expression", "loop_expression",
		"unsafe_block", "async_block"),
	Exits:      lang.KindSet("return_expression", "break_expression", "continue_expression"),
	Blocks:     lang.KindSet("block"),
	Clauses:    lang.KindSet("else_clause"),
	Cases:      lang.KindSet("match_arm"),
	CaseBodies: lang.KindSet("match_block"),
	Wrappers:   lang.KindSet("expression_statement"),
	Nested: lang.KindSet("function_item", "struct_item", "enum_item", "impl_item", "trait_item", "mod_item",
		"union_item"),
	Attrs:    lang.KindSet("attribute_item", "inner_attribute_item"),
	Member:   skelMember,
	Stmt:     skelStmt,
	Exported: skelExported,
	ExitCall: skelExitCall,
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "use_declaration", "extern_crate_declaration":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "macro_invocation":
		// bitflags!'s flags are its types' definitions, as a struct's
		// fields are
		if isBitflags(t, n) {
			return lang.Shape{Kind: lang.ShapeVerbatim}
		}
	case "function_item":
		if b := t.Field(n, "body"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	case "struct_item", "union_item", "enum_item", "trait_item", "impl_item", "mod_item", "foreign_mod_item":
		b := t.Field(n, "body")
		if b < 0 {
			b = t.ChildOfKind(n, "declaration_list")
		}
		if b >= 0 && t.Kind(b) != "ordered_field_declaration_list" {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleMembers)}}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

// skelStmt reads what Rust writes as expressions: let x = match ...,
// and a block's tail expression, which is its value.
func skelStmt(s *lang.Skel, n int32) (lang.Shape, bool) {
	t, r := s.Tree, s.Rules
	k := t.Kind(n)
	switch {
	case k == "let_declaration":
		if v := t.Field(n, "value"); v >= 0 && r.Control[t.Kind(v)] {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: s.ControlHoles(v)}, true
		}
		return lang.Shape{Kind: lang.ShapeElide}, true
	case k == "expression_statement", k == "empty_statement", r.Nested[k], r.Attrs[k], r.Control[k], r.Exits[k],
		strings.HasSuffix(k, "_item"), strings.HasSuffix(k, "_declaration"), t.IsComment(n):
		return lang.Shape{}, false
	}
	// a tail expression without a semicolon: the value of its block
	if p := t.Parent(n); p >= 0 && t.Kind(p) == "block" {
		var last int32 = -1
		for c := range t.NamedChildren(p) {
			last = c
		}
		if last == n {
			return lang.Shape{Kind: lang.ShapeLine}, true
		}
	}
	return lang.Shape{}, false
}

func skelExitCall(t *lang.Tree, n int32) bool {
	if t.Kind(n) != "macro_invocation" {
		return false
	}
	switch t.FieldText(n, "macro") {
	case "panic", "unreachable", "todo", "unimplemented", "bail":
		return true
	}
	return false
}

// skelExported: pub items; every member of a trait, of a trait impl
// and every variant of an enum is as visible as its container.
func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	if container > 0 {
		switch t.Kind(container) {
		case "enum_variant_list":
			return true
		case "declaration_list":
			if p := t.Parent(container); p >= 0 && (t.Kind(p) == "trait_item" || t.Kind(p) == "impl_item" && t.Field(p, "trait") >= 0) {
				return true
			}
		}
	}
	switch t.Kind(n) {
	case "use_declaration", "extern_crate_declaration":
		return true
	case "impl_item":
		if t.Field(n, "trait") >= 0 {
			return true
		}
		// an inherent impl shows when it has a pub member
		if b := t.Field(n, "body"); b >= 0 {
			for c := range t.NamedChildren(b) {
				if skelPub(t, c) {
					return true
				}
			}
		}
		return false
	case "macro_definition":
		return false
	case "macro_invocation":
		for _, ft := range bitflagsTypes(t, n) {
			if ft.vis == "pub" {
				return true
			}
		}
		return false
	}
	return skelPub(t, n)
}

func skelPub(t *lang.Tree, n int32) bool {
	for c := range t.NamedChildren(n) {
		if t.Kind(c) == "visibility_modifier" {
			return t.Text(c) == "pub"
		}
	}
	return false
}
