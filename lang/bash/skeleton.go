package bash

import "github.com/sdl-dev/sdl/lang"

var skeleton = &lang.SkelRules{
	Marker:      "...",
	LineComment: "#",
	Control: lang.KindSet("if_statement", "for_statement", "c_style_for_statement", "while_statement",
		"case_statement"),
	Exits:    lang.KindSet(),
	Blocks:   lang.KindSet("compound_statement"),
	Nested:   lang.KindSet("function_definition"),
	Member:   skelMember,
	Stmt:     skelStmt,
	Exported: skelExported,
	ExitCall: skelExitCall,
}

// Bash's control-flow bodies are statements between keywords (then, elif,
// else, fi, do, done, esac): its holes are the runs of statements, the
// keywords and conditions between them the frame.

// skelHoles finds the runs of statements of an if, a loop or a case.
func skelHoles(s *lang.Skel, n int32) []lang.Hole {
	t := s.Tree
	var hs []lang.Hole
	var walk func(n int32, depth int)
	run := func(owner int32, items []int32) {
		if h, ok := lang.RunHole(t, owner, items); ok {
			hs = append(hs, h)
		}
	}
	walk = func(n int32, depth int) {
		if depth > 64 {
			return
		}
		var items []int32
		for c := range t.Children(n) {
			if !t.Named(c) {
				continue
			}
			switch k := t.Kind(c); {
			case k == "elif_clause" || k == "else_clause" || k == "case_item":
				run(n, items)
				items = nil
				walk(c, depth+1)
			case k == "do_group":
				run(n, items)
				items = nil
				walk(c, depth+1)
			case t.FieldName(c) != "":
				// a condition, a loop variable and its values, a pattern
				if len(items) > 0 {
					run(n, items)
					items = nil
				}
			default:
				items = append(items, c)
			}
		}
		run(n, items)
	}
	walk(n, 0)
	return hs
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "function_definition":
		if b := t.Field(n, "body"); b >= 0 && (t.Kind(b) == "compound_statement" || t.Kind(b) == "subshell") {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.BodyHole(b, lang.HoleCode)}}
		}
	default:
		if sh, ok := skelStmt(s, n); ok {
			return sh
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

func skelStmt(s *lang.Skel, n int32) (lang.Shape, bool) {
	t := s.Tree
	switch t.Kind(n) {
	case "if_statement", "for_statement", "c_style_for_statement", "while_statement", "case_statement":
		return lang.Shape{Kind: lang.ShapeFrame, Holes: skelHoles(s, n)}, true
	case "redirected_statement":
		// while read ...; do ... done < file
		if b := t.Field(n, "body"); b >= 0 && s.Rules.Control[t.Kind(b)] {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: skelHoles(s, b)}, true
		}
	case "list":
		// cond || exit 1: kept when it leaves
		var last int32 = -1
		for c := range t.NamedChildren(n) {
			last = c
		}
		if last >= 0 && skelExitCall(t, last) {
			return lang.Shape{Kind: lang.ShapeLine}, true
		}
	}
	return lang.Shape{}, false
}

// skelExitCall: exit, return and die-like calls leave the function.
func skelExitCall(t *lang.Tree, n int32) bool {
	if t.Kind(n) == "compound_statement" {
		var last int32 = -1
		for c := range t.NamedChildren(n) {
			last = c
		}
		return last >= 0 && skelExitCall(t, last)
	}
	if t.Kind(n) != "command" {
		return false
	}
	switch t.FieldText(n, "name") {
	case "exit", "return", "die", "fatal", "abort", "error_exit":
		return true
	}
	return false
}

// skelExported: functions not named _private, and everything else a
// script does at its top.
func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	if t.Kind(n) == "function_definition" {
		name := t.FieldText(n, "name")
		return name == "" || name[0] != '_'
	}
	return true
}
