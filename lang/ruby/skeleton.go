package ruby

import "github.com/sdl-dev/sdl/lang"

var skeleton = &lang.SkelRules{
	Marker:      "# ...",
	LineComment: "#",
	Control:     lang.KindSet("if", "unless", "while", "until", "for", "case", "case_match", "begin"),
	Exits:       lang.KindSet("return", "break", "next", "redo", "retry"),
	Nested:      lang.KindSet("method", "singleton_method", "class", "module"),
	Member:      skelMember,
	Stmt:        skelStmt,
	Exported:    skelExported,
	ExitCall:    skelExitCall,
}

// Ruby's bodies are statements between keywords (then, else, when, do,
// end), not bracketed blocks: its holes are the runs of statements, and
// the keywords between them are the frame.

// skelItems lists the statements of a body node: its named children
// but the clauses listed in stop, the conditions and parameters.
func skelItems(t *lang.Tree, n int32) (items, clauses []int32) {
	for c := range t.Children(n) {
		if !t.Named(c) {
			continue
		}
		switch t.Kind(c) {
		case "rescue", "else", "ensure", "elsif", "when", "in_clause":
			clauses = append(clauses, c)
		case "exceptions", "exception_variable", "block_parameters", "method_parameters", "pattern":
		default:
			switch t.FieldName(c) {
			case "condition", "value", "pattern", "parameters", "name", "superclass", "object", "guard":
				continue
			}
			items = append(items, c)
		}
	}
	return items, clauses
}

// skelHoles finds the runs of statements of a control-flow statement,
// a method body or a clause, with the clauses after them.
func skelHoles(s *lang.Skel, n int32) []lang.Hole {
	t := s.Tree
	var hs []lang.Hole
	var walk func(n int32, depth int)
	walk = func(n int32, depth int) {
		if depth > 64 {
			return
		}
		var items, clauses []int32
		switch t.Kind(n) {
		case "if", "unless", "elsif", "while", "until", "for", "when", "in_clause", "rescue":
			for c := range t.NamedChildren(n) {
				switch t.FieldName(c) {
				case "consequence", "body":
					walk(c, depth+1)
				case "alternative":
					clauses = append(clauses, c)
				}
			}
		default:
			items, clauses = skelItems(t, n)
		}
		if h, ok := lang.RunHole(t, n, items); ok {
			hs = append(hs, h)
		}
		for _, c := range clauses {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return hs
}

func skelMember(s *lang.Skel, n int32) lang.Shape {
	t := s.Tree
	switch k := t.Kind(n); k {
	case "method", "singleton_method":
		if b := t.Field(n, "body"); b >= 0 && t.Kind(b) == "body_statement" {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: skelHoles(s, b)}
		}
	case "class", "module", "singleton_class":
		b := t.Field(n, "body")
		if b < 0 {
			return lang.Shape{Kind: lang.ShapeLine}
		}
		items, _ := skelItems(t, b)
		// comments between the header and the first member sit in the
		// class node, before its body
		var lead []int32
		for c := range t.Children(n) {
			if t.IsComment(c) && t.Nodes[c].StartByte < t.Nodes[b].StartByte {
				lead = append(lead, c)
			}
		}
		items = append(lead, items...)
		if len(items) == 0 {
			return lang.Shape{Kind: lang.ShapeLine}
		}
		h := lang.Hole{Kind: lang.HoleMembers, Node: b, Open: -1, Close: -1, Items: items,
			Start: t.Nodes[items[0]].StartByte, End: t.Nodes[items[len(items)-1]].EndByte}
		return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{h}}
	case "call":
		// private def x ... end
		if args := t.Field(n, "arguments"); args >= 0 && t.Field(n, "receiver") < 0 {
			if m := t.FirstNamedChild(args); m >= 0 && (t.Kind(m) == "method" || t.Kind(m) == "singleton_method") {
				return lang.Shape{Kind: lang.ShapeFrame, Holes: []lang.Hole{s.NodeHole(m, lang.HoleMember)}}
			}
		}
	default:
		if s.Rules.Control[k] {
			return lang.Shape{Kind: lang.ShapeFrame, Holes: skelHoles(s, n)}
		}
	}
	return lang.Shape{Kind: lang.ShapeLine}
}

func skelStmt(s *lang.Skel, n int32) (lang.Shape, bool) {
	t := s.Tree
	switch t.Kind(n) {
	case "if", "unless", "while", "until", "for", "case", "case_match", "begin":
		return lang.Shape{Kind: lang.ShapeFrame, Holes: skelHoles(s, n)}, true
	case "if_modifier", "unless_modifier", "while_modifier", "until_modifier", "rescue_modifier":
		// raise X if y, return unless z: one line, kept when it exits
		if b := t.Field(n, "body"); b >= 0 && (s.Rules.Exits[t.Kind(b)] || skelExitCall(t, b)) {
			return lang.Shape{Kind: lang.ShapeLine}, true
		}
	}
	return lang.Shape{}, false
}

// skelExitCall: raise, fail, exit and abort leave the method.
func skelExitCall(t *lang.Tree, n int32) bool {
	switch t.Kind(n) {
	case "call":
		if t.Field(n, "receiver") >= 0 {
			return false
		}
		switch t.FieldText(n, "method") {
		case "raise", "fail", "exit", "exit!", "abort", "throw":
			return true
		}
	case "identifier":
		switch t.Text(n) {
		case "raise", "fail", "exit", "abort":
			return true
		}
	}
	return false
}

// skelExported: what private and protected (bare, or around a def) do
// not hide.
func skelExported(s *lang.Skel, n, container int32) bool {
	t := s.Tree
	switch t.Kind(n) {
	case "method", "singleton_method":
	case "call":
		switch t.FieldText(n, "method") {
		case "private", "protected", "private_class_method":
			return false
		}
		return true
	case "identifier":
		switch t.Text(n) {
		case "private", "protected":
			return false
		}
		return true
	default:
		return true
	}
	if t.Kind(n) == "singleton_method" {
		return true
	}
	// the last bare visibility word above it in the same body
	for p := t.PrevSibling(n); p >= 0; p = t.PrevSibling(p) {
		if t.Kind(p) == "identifier" {
			switch t.Text(p) {
			case "private", "protected":
				return false
			case "public":
				return true
			}
		}
	}
	return true
}
