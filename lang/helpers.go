package lang

import (
	"bytes"
	"strings"
)

// AddSymbol appends s, made from node (its name at nameNode, its body at
// bodyNode; -1 when absent), and returns its index. s.Parent must be set;
// the container and range are filled in here.
//
// A symbol without a name (a MISSING identifier in broken code) is not
// added: the parent's index is returned, so what hangs from it hangs from
// the parent.
func (x *Extractor) AddSymbol(s Symbol, node, nameNode, bodyNode int32) int {
	t := x.Tree
	if strings.TrimSpace(s.Name) == "" {
		if s.Parent >= 0 && s.Parent < len(x.Facts.Symbols) {
			return s.Parent
		}
		return 0
	}
	if s.Parent >= 0 && s.Parent < len(x.Facts.Symbols) && s.Parent != 0 && s.Container == "" {
		s.Container = x.Facts.Symbols[s.Parent].Qualified()
	}
	s.Range = t.Range(node)
	s.StartByte, s.EndByte = t.Nodes[node].StartByte, t.Nodes[node].EndByte
	if s.Visibility == "" {
		if s.Exported {
			s.Visibility = VisExported
		} else {
			s.Visibility = VisInternal
		}
	}
	if x.Facts.IsTest {
		s.IsTest = true
	}
	x.Facts.Symbols = append(x.Facts.Symbols, s)
	x.SymNode = append(x.SymNode, node)
	x.nameNode = append(x.nameNode, nameNode)
	x.bodyNode = append(x.bodyNode, bodyNode)
	x.Guards = append(x.Guards, nil)
	x.throws = append(x.throws, nil)
	return len(x.Facts.Symbols) - 1
}

// SymbolOf is the symbol made of declaration node n (the node AddSymbol
// was given), for a walk that meets the declarations a tags query made
// symbols of (a Spec's Finish). A declaration whose name node is blank
// (the parser made it up) made none: AddSymbol returned the symbol around
// it, around, whose code its code is; ok is false when n made no symbol
// otherwise.
func (x *Extractor) SymbolOf(n, name int32, around int) (sym int, ok bool) {
	if x.symOf == nil {
		x.symOf, x.symSeen = make(map[int32]int, len(x.SymNode)), 1
	}
	for ; x.symSeen < len(x.SymNode); x.symSeen++ {
		x.symOf[x.SymNode[x.symSeen]] = x.symSeen
	}
	if s, ok := x.symOf[n]; ok {
		return s, true
	}
	return around, name >= 0 && strings.TrimSpace(x.Tree.Text(name)) == ""
}

// Declared is SymbolOf for declaration n named by its "name" field; ok
// is false when n has none, which a walk reads nothing of.
func (x *Extractor) Declared(n int32, around int) (sym int, ok bool) {
	name := x.Tree.Field(n, "name")
	sym, _ = x.SymbolOf(n, name, around)
	return sym, name >= 0
}

// Ref records a reference from symbol sym made at node.
func (x *Extractor) Ref(r Ref, node int32) {
	if r.Name == "" {
		return
	}
	r.Line = x.Tree.StartLine(node)
	x.Facts.Refs = append(x.Facts.Refs, r)
}

// Guard records an invariant enforced by an early exit.
func (x *Extractor) Guard(sym int, cond, action string, node int32) {
	if sym < 0 || cond == "" {
		return
	}
	text := "if " + Shorten(OneLine(cond), 80) + " then " + action
	x.Guards[sym] = append(x.Guards[sym], Fact{Kind: "guard", Text: text, Line: x.Tree.StartLine(node), Evidence: Shorten(OneLine(x.Tree.Text(node)), MaxEvidence)})
}

// Throw records that symbol sym raises, throws or panics at node.
func (x *Extractor) Throw(sym int, verb, what string, node int32) {
	if sym < 0 {
		return
	}
	text := verb
	if what != "" {
		text += " " + Shorten(OneLine(what), 80)
	}
	x.throws[sym] = append(x.throws[sym], Fact{Kind: verb, Text: text, Line: x.Tree.StartLine(node), Evidence: Shorten(OneLine(x.Tree.Text(node)), MaxEvidence)})
}

// DocBefore returns the text of the comments that immediately precede node
// (no blank line between them and the node, or between each other), with
// comment markers removed.
func (x *Extractor) DocBefore(node int32) string {
	t := x.Tree
	var parts []string
	line := t.Nodes[node].StartRow
	for c := t.PrevSibling(node); c >= 0 && t.IsComment(c); c = t.PrevSibling(c) {
		if t.Nodes[c].EndRow+1 < line {
			break
		}
		parts = append(parts, t.Text(c))
		line = t.Nodes[c].StartRow
	}
	if len(parts) == 0 {
		return ""
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return CleanComment(strings.Join(parts, "\n"))
}

// CleanComment strips comment markers (//, ///, //!, #, /* */, /** */,
// leading *) from a comment block and trims it.
func CleanComment(s string) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "///"), strings.HasPrefix(l, "//!"):
			l = l[3:]
		case strings.HasPrefix(l, "//"):
			l = l[2:]
		case strings.HasPrefix(l, "#"):
			l = strings.TrimLeft(l, "#")
		}
		l = strings.TrimPrefix(l, "/**")
		l = strings.TrimPrefix(l, "/*")
		l = strings.TrimSuffix(l, "*/")
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "*") {
			l = strings.TrimSpace(strings.TrimLeft(l, "*"))
		}
		out = append(out, l)
	}
	// drop leading and trailing blank lines
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// HeaderText is the source of node up to (not including) its body, on one
// line: the declaration's signature as written.
func (x *Extractor) HeaderText(node, body int32) string {
	return x.HeaderTextFrom(node, x.Tree.Nodes[node].StartByte, body)
}

// HeaderTextFrom is HeaderText from offset start within node: after the
// annotations that lead a declaration, which its modifiers name already
// and whose arguments would crowd out the signature.
func (x *Extractor) HeaderTextFrom(node int32, start uint32, body int32) string {
	t := x.Tree
	start = max(start, t.Nodes[node].StartByte)
	end := t.Nodes[node].EndByte
	if body >= 0 {
		end = t.Nodes[body].StartByte
	}
	end = max(end, start)
	if end-start > 4*MaxSigText {
		end = start + 4*MaxSigText
	}
	// Comments inside the header are left out: on one line, a "# pylint:
	// disable=..." or "// why" among the parameters would run into them.
	var b []byte
	from := start
	for i := node + 1; i < t.Nodes[node].End && t.Nodes[i].StartByte < end; i++ {
		if !t.IsComment(i) || t.Nodes[i].StartByte < start {
			continue
		}
		b = append(b, t.Src[from:t.Nodes[i].StartByte]...)
		b = append(b, ' ')
		from = min(t.Nodes[i].EndByte, end)
		i = t.Nodes[i].End - 1
	}
	if b == nil {
		return strings.TrimSpace(OneLine(string(t.Src[start:end])))
	}
	b = append(b, t.Src[from:end]...)
	return strings.TrimSpace(OneLine(string(b)))
}

// LastIdent returns the last identifier segment of a dotted, scoped or
// pointer-ish type or expression: "*pkg.Foo[T]" -> "Foo".
func LastIdent(s string) string {
	if i := strings.IndexAny(s, "[<("); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, "?!")
	for _, sep := range []string{"::", ".", "\\"} {
		if i := strings.LastIndex(s, sep); i >= 0 {
			s = s[i+len(sep):]
		}
	}
	return strings.TrimLeft(strings.TrimSpace(s), "*&[]")
}

// IsUpper reports whether s starts with an upper-case ASCII letter.
func IsUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// Unparen returns the expression inside any parentheses around n.
func (t *Tree) Unparen(n int32) int32 { return t.Unwrap(n, parens) }

var parens = KindSet("parenthesized_expression")

// Unwrap returns the expression inside the wrappers around n: nodes of
// the kinds in wrappers (parentheses, await, a non-null assertion) whose
// first named child is what they wrap, at most MaxChain of them; n itself
// when it is none or -1.
func (t *Tree) Unwrap(n int32, wrappers map[string]bool) int32 {
	for i := 0; i < MaxChain && n >= 0 && wrappers[t.Kind(n)]; i++ {
		in := t.FirstNamedChild(n)
		if in < 0 {
			break
		}
		n = in
	}
	return n
}

// guardStatement is the statement a guard's consequence starts with: the
// consequence itself, or the first statement (comments skipped) of a block
// of the given kind.
func (t *Tree) guardStatement(cons int32, block string) int32 {
	if t.Kind(cons) != block {
		return cons
	}
	first := t.FirstNamedChild(cons)
	for first >= 0 && t.IsComment(first) {
		first = t.NextSibling(first)
	}
	return first
}

// IfGuard says how a braced language writes an early exit at the top of a
// body, if (cond) return ...; or throw ...; with no else: Guard reads
// the if statement, the language names its fields, kinds and exits.
type IfGuard struct {
	Body  string   // the if statement's field holding the consequence
	Block string   // the kind of a braced block
	Else  []string // else clauses the grammar puts among the children, not in the alternative field
	// Cond is the condition as a guard states it; nil takes its text
	// without one pair of parentheses.
	Cond func(t *Tree, cond int32) string
	// Exit is the action of statement st when it leaves the body
	// ("return nil", "throw"), else ""; nil takes ExitAction.
	Exit func(t *Tree, st int32) string
}

// Guard records the if statement n of symbol sym as a guard when its
// consequence starts with an exit.
func (g *IfGuard) Guard(x *Extractor, sym int, n int32) {
	t := x.Tree
	cond, body := t.Field(n, "condition"), t.Field(n, g.Body)
	if cond < 0 || body < 0 || t.Field(n, "alternative") >= 0 {
		return
	}
	for _, k := range g.Else {
		if t.ChildOfKind(n, k) >= 0 {
			return
		}
	}
	first := t.guardStatement(body, g.Block)
	if first < 0 {
		return
	}
	exit, text := ExitAction, (*Tree).UnparenText
	if g.Exit != nil {
		exit = g.Exit
	}
	if g.Cond != nil {
		text = g.Cond
	}
	if action := exit(t, first); action != "" {
		x.Guard(sym, text(t, cond), action, n)
	}
}

// ExitAction is the action of a return_statement or throw_statement,
// the exits of the C family's grammars; "" for other statements.
func ExitAction(t *Tree, st int32) string {
	switch t.Kind(st) {
	case "return_statement":
		return t.ReturnAction(st)
	case "throw_statement":
		return "throw"
	}
	return ""
}

// UnparenText is the text of e without one pair of outer parentheses.
func (t *Tree) UnparenText(e int32) string {
	if t.Kind(e) == "parenthesized_expression" {
		if in := t.FirstNamedChild(e); in >= 0 {
			return t.Text(in)
		}
	}
	return t.Text(e)
}

// ReturnAction describes a guard's return statement: "return" or
// "return VALUE", the value shortened to one line.
func (t *Tree) ReturnAction(ret int32) string {
	if v := t.FirstNamedChild(ret); v >= 0 {
		return "return " + Shorten(OneLine(t.Text(v)), 60)
	}
	return "return"
}

// NameSet is the set of the words of a list written in the code.
func NameSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// IsIdentByte reports whether c may be part of an identifier ($ and
// letters beyond ASCII included).
func IsIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// IsSpaceByte reports whether c is white space between tokens: a space, a
// tab or a line break.
func IsSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// LastSegment splits "a.b.C" into "a.b" and "C".
func LastSegment(s string) (string, string) {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

// ItemTexts are the texts, each on one line, of the named children of
// list (a type parameter list); nil when there is no list or it is empty.
func (t *Tree) ItemTexts(list int32) []string {
	if list < 0 {
		return nil
	}
	var out []string
	for p := range t.NamedChildren(list) {
		out = append(out, OneLine(t.Text(p)))
	}
	return out
}

// LastCall is the index of the last segment of a split qualifier that is
// a call ("b()" of a.b().c), -1 when none is.
func LastCall(segs []string) int {
	for i := len(segs) - 1; i >= 0; i-- {
		if strings.HasSuffix(segs[i], ")") {
			return i
		}
	}
	return -1
}

// AfterCall is what follows the call whose result a qualifier holds: the
// segments after its last call, or after its first segment when none is a
// call (x.a where x = f()). They are fields of the call's result.
func AfterCall(segs []string) []string {
	if len(segs) == 0 {
		return nil
	}
	return segs[max(LastCall(segs), 0)+1:]
}

// SplitQualifier splits a qualifier at its dots, keeping parenthesized
// parts and a leading creation whole: "((Foo) x).y" -> ["((Foo) x)", "y"],
// "new a.B().c" -> ["new a.B()", "c"].
func SplitQualifier(q string) []string {
	var out []string
	depth, start, i := 0, 0, 0
	if strings.HasPrefix(q, "new ") {
		if j := strings.IndexByte(q, '('); j >= 0 {
			i = j
		}
	}
	for ; i < len(q); i++ {
		switch q[i] {
		case '(', '<', '[':
			depth++
		case ')', '>', ']':
			depth--
		case '.':
			if depth == 0 {
				out = append(out, q[start:i])
				start = i + 1
			}
		}
	}
	return append(out, q[start:])
}

// SplitType splits a stripped type into its simple name and its
// qualifier: "a.b.Outer.Inner" -> "Inner", "a.b.Outer".
func SplitType(typ string) (name, qual string) {
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		return typ[i+1:], typ[:i]
	}
	return typ, ""
}

// StripType reduces a type to its nominal name: "[Item]" -> "",
// "Store?" -> "Store", "Base<T>" -> "Base".
func StripType(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "some ")
	s = strings.TrimPrefix(s, "any ")
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, "?! ")
	if strings.HasPrefix(s, "[") {
		// [T] and [K: V]: the library's collections
		if strings.Contains(s, ":") {
			return "Dictionary"
		}
		return "Array"
	}
	if strings.ContainsAny(s, "[]()-> :&") {
		return ""
	}
	return s
}

// PrimitiveTypes are C#'s keywords for types and what a value of one is;
// PHP's class resolution leaves them out too.
var PrimitiveTypes = NameSet(`bool byte sbyte char decimal double float int uint nint nuint long ulong short ushort
	object string void dynamic var`)

// ClosingBracket returns the offset after the bracket close that closes
// the open at s[i], counting nested pairs, or -1 if none does: a Fixup's or
// a resolver's scan of raw text, where no tree says it.
func ClosingBracket[T ~string | ~[]byte](s T, i int, open, close byte) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// Blank overwrites b with spaces but keeps its line breaks: what a
// Fixup does to code the grammar cannot read, so that every offset, line
// and column of the rest still holds.
func Blank(b []byte) {
	for i, c := range b {
		if c != '\n' && c != '\r' {
			b[i] = ' '
		}
	}
}

// BlankLiterals is a copy of src with every comment and literal blanked
// (line breaks kept), so that a fixup's rewrites match only code; end
// gives the end of the comment or literal that starts at offset i, i when
// none does.
func BlankLiterals(src []byte, end func(src []byte, i int) int) []byte {
	code := bytes.Clone(src)
	for i := 0; i < len(src); i++ {
		if j := end(src, i); j > i {
			Blank(code[i:j])
			i = j - 1
		}
	}
	return code
}

// NestedCommentEnd is the end of the block comment that opens at offset i of
// src (`/*`), where comments nest as in Swift, Scala, Kotlin and Rust: the
// offset past its closing `*/`, len(src) when it is not closed.
func NestedCommentEnd(src []byte, i int) int {
	depth, j := 0, i
	for j < len(src) {
		switch {
		case bytes.HasPrefix(src[j:], []byte("/*")):
			depth, j = depth+1, j+2
		case bytes.HasPrefix(src[j:], []byte("*/")):
			if depth, j = depth-1, j+2; depth == 0 {
				return j
			}
		default:
			j++
		}
	}
	return j
}
