package c

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// skeleton is how the skeleton renderer reads C and C++.
func skeleton() *lang.SkelRules {
	return &lang.SkelRules{
		Marker: "/* ... */",
		Control: lang.KindSet("if_statement", "for_statement", "for_range_loop", "while_statement", "do_statement",
			"switch_statement", "try_statement"),
		Exits: lang.KindSet("return_statement", "break_statement", "continue_statement", "goto_statement",
			"throw_statement", "co_return_statement"),
		Blocks:      lang.KindSet("compound_statement"),
		Clauses:     lang.KindSet("else_clause", "catch_clause"),
		Cases:       lang.KindSet("case_statement"),
		CaseParents: lang.KindSet("switch_statement"),
		Wrappers:    lang.KindSet("expression_statement", "labeled_statement"),
		Member:      skelMember,
		Exported:    skelExported,
		CaseItems:   skelCaseItems,
		ExitCall:    skelExitCall,
	}
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	sh := skelShape(s, n)
	t := s.Tree
	// the ":" of "public:" and the ";" of "class A { ... };" are tokens
	// beside the node (and not in the flattened tree): the skeleton keeps them
	if k := t.Kind(n); k == "access_specifier" || sh.Kind == lang.ShapeFrame && strings.HasSuffix(k, "_specifier") {
		end := t.Nodes[n].EndByte
		i := end
		for int(i) < len(t.Src) && (t.Src[i] == ' ' || t.Src[i] == '\t') {
			i++
		}
		if int(i) < len(t.Src) && (t.Src[i] == ':' && k == "access_specifier" || t.Src[i] == ';' && k != "access_specifier") {
			sh.End = i + 1
		}
	}
	return sh
}

func skelShape(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch t.Kind(n) {
	case "preproc_include", "using_declaration", "namespace_alias_definition", "alias_declaration", "access_specifier":
		return lang.Shape{Kind: lang.ShapeVerbatim}
	case "function_definition":
		if b := t.Field(n, "body"); b >= 0 && t.Kind(b) == "compound_statement" {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	case "template_declaration":
		// the declaration it wraps, with the template header in front
		for ch := range t.NamedChildren(n) {
			if t.FieldName(ch) == "parameters" || t.IsComment(ch) {
				continue
			}
			if sh := skelMember(s, ch); sh.Kind == lang.ShapeFrame {
				return sh
			}
		}
	case "struct_specifier", "union_specifier", "class_specifier", "enum_specifier":
		if b := t.Field(n, "body"); b >= 0 {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleMembers)}}
		}
	case "declaration", "field_declaration", "type_definition":
		// struct tag { ... } name; typedef struct { ... } name_t;
		if ty := t.Field(n, "type"); ty >= 0 {
			switch t.Kind(ty) {
			case "struct_specifier", "union_specifier", "class_specifier", "enum_specifier":
				if b := t.Field(ty, "body"); b >= 0 {
					return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleMembers)}}
				}
			}
		}
	case "namespace_definition", "linkage_specification":
		if b := t.Field(n, "body"); b >= 0 && t.Kind(b) == "declaration_list" {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleMembers)}}
		}
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		var items []int32
		for ch := range t.Children(n) {
			if f := t.FieldName(ch); t.Named(ch) && f != "condition" && f != "name" {
				items = append(items, ch) // comments too: the docs of what follows
			}
		}
		if len(items) == 0 {
			return lang.Shape{Kind: lang.ShapeLine}
		}
		h := lang.Hole{Kind: lang.HoleMembers, Node: n, Open: -1, Close: -1, Items: items,
			Start: t.Nodes[items[0]].StartByte, End: t.Nodes[items[len(items)-1]].EndByte}
		// the directive's own line comes before the first item
		if line := s.LineStarts[s.Row(h.Start)]; line > t.Nodes[n].StartByte {
			h.Start = line
		}
		return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{h}}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

func skelCaseItems(s *lang.Skel, c int32) ([]int32, bool) {
	t := s.Tree
	var out []int32
	for ch := range t.NamedChildren(c) {
		if t.FieldName(ch) != "value" {
			out = append(out, ch)
		}
	}
	return out, true
}

func skelExitCall(t *lang.Tree, n int32) bool {
	if t.Kind(n) != "call_expression" {
		return false
	}
	return exitCalls[lastColon(t.FieldText(n, "function"))] != ""
}

// skelExported: what other files can use. At file scope, everything but
// static definitions; in a class, the public section (a struct's members
// are public until an access specifier says otherwise).
func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	if container > 0 && t.Kind(container) == "field_declaration_list" {
		access := "private"
		if p := t.Parent(container); p >= 0 && (t.Kind(p) == "struct_specifier" || t.Kind(p) == "union_specifier") {
			access = "public"
		}
		for c := range t.Children(container) {
			if c >= n {
				break
			}
			if t.Kind(c) == "access_specifier" {
				access = strings.TrimSpace(strings.TrimSuffix(t.Text(c), ":"))
			}
		}
		if t.Kind(n) == "access_specifier" {
			return strings.TrimSpace(strings.TrimSuffix(t.Text(n), ":")) == "public"
		}
		return access == "public"
	}
	if t.Kind(n) == "namespace_definition" && t.Field(n, "name") < 0 {
		return false // an anonymous namespace
	}
	for c := range t.Children(n) {
		if t.Kind(c) == "storage_class_specifier" && t.Text(c) == "static" {
			return false
		}
	}
	if n2 := t.FirstNamedChild(n); t.Kind(n) == "template_declaration" && n2 >= 0 {
		for c := range t.NamedChildren(n) {
			if t.FieldName(c) != "parameters" {
				return skelExported(s, c, container)
			}
		}
	}
	return true
}
