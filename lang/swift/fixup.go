package swift

import (
	"bytes"

	"github.com/sdl-dev/sdl/lang"
)

// fixup returns what the parser reads instead of src, of the same length,
// where the pinned grammar cannot read valid Swift. Every rewrite keeps
// every offset and line, so the names, ranges and signatures the symbols
// keep are the file's own text; strings and comments are not matched.
//
//   - an attribute with an empty argument list, @Option() or @MainActor(),
//     loses its "()": the grammar reads the pair as a force unwrap and
//     reports a missing "!" (tree-sitter-swift#616, fixed upstream after
//     the newest commit the module proxy serves);
//   - the empty tuple as a value, send(()), init(x: ()), return (), reads
//     as "[]": the same misreading, on every call that passes Void;
//   - a case path, CasePaths' prefix operator /Action.child, loses its
//     "/", which the grammar reads as the start of a regex literal;
//   - a "$" inside an identifier, the _$id and _$observationRegistrar that
//     macros such as @ObservableState declare, reads as "_";
//   - an #if whose branches hold only attributes, #if X @available(...)
//     #else @available(...) #endif before a declaration, loses its
//     directive lines: the grammar reads no directive among a
//     declaration's attributes, and the declaration lost its doc comment;
//   - "sending", "isolated", "__shared" and "__owned" before a type,
//     -> sending R, _ f: sending @escaping () -> Void, isolation: isolated
//     (any Actor)?, for method: __shared HTTPRequest.Method, are blanked:
//     the grammar knows neither, and reads the type after them as it
//     reads the one after inout or consuming, outside the type's text;
//   - a freestanding macro without arguments as a value, = #isolation,
//     = #_sourceLocation, reads as an identifier, its "#" an "_": the
//     grammar reads a macro only with its arguments, and a bare "#" word
//     only among its literals (#file, #line).
func fixup(src []byte) []byte {
	code := codeOnly(src)
	var out []byte
	set := func(i int, b byte) {
		if out == nil {
			out = bytes.Clone(src)
		}
		out[i] = b
	}
	for _, r := range attributeDirectives(code) {
		for i := r[0]; i < r[1]; i++ {
			set(i, ' ')
		}
	}
	for i := 0; i < len(code); i++ {
		switch code[i] {
		case '@':
			if j := emptyAttributeArgs(code, i); j > 0 {
				set(j, ' ')
				set(j+1, ' ')
				i = j + 1
			}
		case '(':
			if emptyTupleValue(code, i) {
				set(i, '[')
				set(i+1, ']')
				i++
			}
		case '/':
			if casePath(code, i) {
				set(i, ' ')
			}
		case '$':
			if i > 0 && isIdent(code[i-1]) && i+1 < len(code) && isIdent(code[i+1]) {
				set(i, '_')
			}
		case '#':
			if bareMacro(code, i) {
				set(i, '_')
			}
		case 's', 'i', '_':
			if n := typeModifier(code, i); n > 0 {
				for j := i; j < i+n; j++ {
					set(j, ' ')
				}
				i += n - 1
			}
		}
	}
	if out == nil {
		return src
	}
	return out
}

// directiveError tells the zero-width ERROR node the pinned grammar leaves
// right before an #if, #elseif, #else or #endif among the members of a
// type (tree-sitter-swift#514; it reads the directive and the members
// all the same) from a syntax error. One with width, or elsewhere, counts.
func directiveError(t *lang.Tree, n int32) bool {
	nd := &t.Nodes[n]
	if nd.StartByte != nd.EndByte {
		return false
	}
	if p := t.Parent(n); p < 0 || !typeBodies[t.Kind(p)] {
		return false
	}
	return directive(t.Src[nd.EndByte:]) != ""
}

// typeBodies are the node kinds of a type's members.
var typeBodies = lang.KindSet("class_body", "enum_class_body", "protocol_body")

// attributeDirectives returns the [start, end) offsets of the directive
// lines of every #if ... #endif whose branches hold only attributes, each
// line without its line break. A nested #if is left as it is.
func attributeDirectives(code []byte) [][2]int {
	var out, block [][2]int
	open := false
	for start := 0; start < len(code); {
		end := bytes.IndexByte(code[start:], '\n')
		if end < 0 {
			end = len(code)
		} else {
			end += start
		}
		line := bytes.TrimSpace(code[start:end])
		word := directive(line)
		switch {
		case word == "#if":
			open, block = true, [][2]int{{start, end}}
		case !open:
		case word == "#elseif" || word == "#else":
			block = append(block, [2]int{start, end})
		case word == "#endif":
			block = append(block, [2]int{start, end})
			if onlyAttributes(code, block) {
				out = append(out, block...)
			}
			open = false
		}
		start = end + 1
	}
	return out
}

// directive is the directive a trimmed line starts with: "#if", "#elseif",
// "#else", "#endif", or "".
func directive(line []byte) string {
	for _, w := range []string{"#if", "#elseif", "#else", "#endif"} {
		if bytes.HasPrefix(line, []byte(w)) && (len(line) == len(w) || !isIdent(line[len(w)])) {
			return w
		}
	}
	return ""
}

// onlyAttributes tells whether the text between the directive lines of
// block is attributes and nothing else, @a @b(...) each branch, with at
// least one.
func onlyAttributes(code []byte, block [][2]int) bool {
	n := 0
	for k := 0; k+1 < len(block); k++ {
		for i := skipSpace(code, block[k][1]); i < block[k+1][0]; i = skipSpace(code, i) {
			if code[i] != '@' {
				return false
			}
			j := i + 1
			for j < len(code) && (isIdent(code[j]) || code[j] == '.') {
				j++
			}
			if j == i+1 {
				return false
			}
			if j < len(code) && code[j] == '(' {
				if j = closeOf(code, j+1); j < 0 || j > block[k+1][0] {
					return false
				}
			}
			i, n = j, n+1
		}
	}
	return n > 0
}

// emptyAttributeArgs is the offset of the "()" of the attribute whose "@"
// is at code[i], -1 when it has none or arguments.
func emptyAttributeArgs(code []byte, i int) int {
	if i > 0 && isIdent(code[i-1]) {
		return -1
	}
	j := i + 1
	for j < len(code) && (isIdent(code[j]) || code[j] == '.') {
		j++
	}
	if j == i+1 || j+1 >= len(code) || code[j] != '(' || code[j+1] != ')' {
		return -1
	}
	return j
}

// emptyTupleValue tells whether the "()" at code[i] is the empty tuple as
// a value: an argument, an assigned or returned value, a statement of its
// own. As a type, -> (), Result<(), E>, (()) -> Void, typealias V = (),
// and as a closure's parameter list, { () in }, the grammar reads it.
func emptyTupleValue(code []byte, i int) bool {
	if i+1 >= len(code) || code[i+1] != ')' {
		return false
	}
	next := skipSpace(code, i+2)
	for _, w := range []string{"->", "async", "throws", "rethrows", "in", ">", "=", "?", "!", "."} {
		if bytes.HasPrefix(code[next:], []byte(w)) && (len(w) == 1 || w == "->" || next+len(w) >= len(code) || !isIdent(code[next+len(w)])) {
			return false
		}
	}
	p := i - 1
	for p >= 0 && isSpace(code[p]) {
		p--
	}
	if p < 0 {
		return false
	}
	switch code[p] {
	case '(', ',':
		// an element of a function type's parameter list, (Int, ()) -> X
		if end := closeOf(code, i+2); end > 0 {
			after := code[skipSpace(code, end):]
			for _, w := range []string{"->", "async", "throws", "rethrows"} {
				if bytes.HasPrefix(after, []byte(w)) {
					return false
				}
			}
		}
		return true
	case ':':
		// an argument's label, f(x: ()), not a type annotation
		return next < len(code) && (code[next] == ')' || code[next] == ',')
	case '{':
		return true
	case '=':
		line := code[bytes.LastIndexByte(code[:p], '\n')+1 : p]
		return !bytes.Contains(line, []byte("typealias"))
	}
	return p >= 5 && string(code[p-5:p+1]) == "return" && (p < 6 || !isIdent(code[p-6]))
}

// casePath tells whether the "/" at code[i] is CasePaths' prefix operator
// before a case, /Action.child: at the start of an operand, followed by a
// type name, a dot and a member, and not closed by another "/" the way a
// regex literal /Foo.bar/ is.
func casePath(code []byte, i int) bool {
	if i > 0 && (isIdent(code[i-1]) || code[i-1] == ')' || code[i-1] == ']' || code[i-1] == '/') {
		return false
	}
	j := i + 1
	if j >= len(code) || code[j] < 'A' || code[j] > 'Z' {
		return false
	}
	dots := 0
	for j < len(code) && (isIdent(code[j]) || code[j] == '.') {
		if code[j] == '.' {
			dots++
		}
		j++
	}
	return dots > 0 && code[j-1] != '.' && (j == len(code) || code[j] != '/')
}

// typeModifiers are the words the grammar does not know that may lead a
// type: SE-0430's sending, SE-0313's isolated parameter, and the old
// spellings of borrowing and consuming.
var typeModifiers = []string{"sending", "isolated", "__shared", "__owned"}

// typeModifier is the length of the word of typeModifiers at code[i] when
// it leads a type, 0 when there is none or it is a name: it follows "->",
// ":", "(", "," or a parameter modifier, and is followed on its line by
// what a type starts with (an upper-case name, any, some, each, "@", "(",
// "["), so that sending as a variable, f(x: sending), c ? a : sending, is
// left alone.
func typeModifier(code []byte, i int) int {
	if i > 0 && isIdent(code[i-1]) {
		return 0
	}
	n := 0
	for _, w := range typeModifiers {
		if bytes.HasPrefix(code[i:], []byte(w)) {
			n = len(w)
		}
	}
	j := i + n
	if n == 0 || j >= len(code) || (code[j] != ' ' && code[j] != '\t') {
		return 0
	}
	for j < len(code) && (code[j] == ' ' || code[j] == '\t') {
		j++
	}
	if j == len(code) || !typeStart(code[j:]) {
		return 0
	}
	p := i - 1
	for p >= 0 && isSpace(code[p]) {
		p--
	}
	if p < 0 {
		return 0
	}
	switch code[p] {
	case ':', '(', ',':
		return n
	case '>':
		if p > 0 && code[p-1] == '-' {
			return n
		}
		return 0
	}
	for _, w := range []string{"inout", "borrowing", "consuming"} {
		if q := p + 1 - len(w); q >= 0 && string(code[q:p+1]) == w && (q == 0 || !isIdent(code[q-1])) {
			return n
		}
	}
	return 0
}

// typeStart tells whether rest starts the way a type does.
func typeStart(rest []byte) bool {
	switch c := rest[0]; {
	case 'A' <= c && c <= 'Z', c == '@', c == '(', c == '[':
		return true
	}
	for _, w := range []string{"any", "some", "each"} {
		if bytes.HasPrefix(rest, []byte(w)) && len(rest) > len(w) && !isIdent(rest[len(w)]) {
			return true
		}
	}
	return false
}

// hashWords are the words the grammar reads after "#" without arguments:
// its special literals and the conditional directives.
var hashWords = lang.KindSet("file", "fileID", "filePath", "line", "column", "function", "dsohandle",
	"if", "elseif", "else", "endif")

// bareMacro tells whether the "#" at code[i] starts a freestanding macro
// without arguments used as a value: after "=", "(", "," or ":", and
// followed by no "(", "<" or "{" of arguments.
func bareMacro(code []byte, i int) bool {
	if i > 0 && isIdent(code[i-1]) {
		return false
	}
	j := i + 1
	for j < len(code) && isIdent(code[j]) {
		j++
	}
	if j == i+1 || hashWords[string(code[i+1:j])] {
		return false
	}
	for j < len(code) && (code[j] == ' ' || code[j] == '\t') {
		j++
	}
	if j < len(code) && (code[j] == '(' || code[j] == '<' || code[j] == '{') {
		return false
	}
	p := i - 1
	for p >= 0 && isSpace(code[p]) {
		p--
	}
	return p >= 0 && (code[p] == '=' || code[p] == '(' || code[p] == ',' || code[p] == ':')
}

// closeOf is the offset after the ")" that closes the group open at i,
// -1 if none does.
func closeOf(code []byte, i int) int {
	depth := 0
	for ; i < len(code); i++ {
		switch code[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i + 1
			}
			depth--
		}
	}
	return -1
}

func skipSpace(code []byte, i int) int {
	for i < len(code) && isSpace(code[i]) {
		i++
	}
	return i
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func isIdent(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b >= 0x80
}

// codeOnly is src with its comments and string literals blanked (line
// breaks kept), so that nothing in them is rewritten.
func codeOnly(src []byte) []byte {
	return lang.BlankLiterals(src, literalEnd)
}

// literalEnd is the end of the comment or string literal that starts at
// offset i of src, i when none does. Block comments nest; a string's
// interpolations are blanked with it.
func literalEnd(src []byte, i int) int {
	rest := src[i:]
	switch {
	case bytes.HasPrefix(rest, []byte("//")):
		if end := bytes.IndexByte(rest, '\n'); end >= 0 {
			return i + end
		}
		return len(src)
	case bytes.HasPrefix(rest, []byte("/*")):
		return lang.NestedCommentEnd(src, i)
	case bytes.HasPrefix(rest, []byte(`"""`)):
		if end := bytes.Index(src[i+3:], []byte(`"""`)); end >= 0 {
			return i + 3 + end + 3
		}
		return len(src)
	case src[i] == '"':
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			case '\n':
				return j
			}
		}
		return len(src)
	}
	return i
}
