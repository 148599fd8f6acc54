package lang

func init() {
	skelRulesByName["bash"] = &SkelRules{
		Marker:      "...",
		LineComment: "#",
		Control: KindSet("if_statement", "for_statement", "c_style_for_statement", "while_statement",
			"case_statement"),
		Exits:    KindSet(),
		Blocks:   KindSet("compound_statement"),
		Nested:   KindSet("function_definition"),
		Member:   shSkelMember,
		Stmt:     shSkelStmt,
		Exported: shSkelExported,
		ExitCall: shSkelExitCall,
	}
}

// Bash's control-flow bodies are statements between keywords (then, elif,
// else, fi, do, done, esac): its holes are the runs of statements, the
// keywords and conditions between them the frame.

// shSkelHoles finds the runs of statements of an if, a loop or a case.
func shSkelHoles(s *Skel, n int32) []Hole {
	t := s.Tree
	var hs []Hole
	var walk func(n int32, depth int)
	run := func(owner int32, items []int32) {
		if h, ok := RunHole(t, owner, items); ok {
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

func shSkelMember(s *Skel, n int32) Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "function_definition":
		if b := t.Field(n, "body"); b >= 0 && (t.Kind(b) == "compound_statement" || t.Kind(b) == "subshell") {
			return Shape{Kind: ShapeFrame, Holes: []Hole{s.BodyHole(b, HoleCode)}}
		}
	default:
		if sh, ok := shSkelStmt(s, n); ok {
			return sh
		}
	}
	return Shape{Kind: ShapeLine}
}

func shSkelStmt(s *Skel, n int32) (Shape, bool) {
	t := s.Tree
	switch t.Kind(n) {
	case "if_statement", "for_statement", "c_style_for_statement", "while_statement", "case_statement":
		return Shape{Kind: ShapeFrame, Holes: shSkelHoles(s, n)}, true
	case "redirected_statement":
		// while read ...; do ... done < file
		if b := t.Field(n, "body"); b >= 0 && s.Rules.Control[t.Kind(b)] {
			return Shape{Kind: ShapeFrame, Holes: shSkelHoles(s, b)}, true
		}
	case "list":
		// cond || exit 1: kept when it leaves
		var last int32 = -1
		for c := range t.NamedChildren(n) {
			last = c
		}
		if last >= 0 && shSkelExitCall(t, last) {
			return Shape{Kind: ShapeLine}, true
		}
	}
	return Shape{}, false
}

// shSkelExitCall: exit, return and die-like calls leave the function.
func shSkelExitCall(t *Tree, n int32) bool {
	if t.Kind(n) == "compound_statement" {
		var last int32 = -1
		for c := range t.NamedChildren(n) {
			last = c
		}
		return last >= 0 && shSkelExitCall(t, last)
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

// shSkelExported: functions not named _private, and everything else a
// script does at its top.
func shSkelExported(s *Skel, n, container int32) bool {
	t := s.Tree
	if t.Kind(n) == "function_definition" {
		name := t.FieldText(n, "name")
		return name == "" || name[0] != '_'
	}
	return true
}
