package scala

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/sdl-dev/sdl/lang"
)

// fixup returns the source the parser reads, of the same length, where
// tree-sitter-scala v0.24.0 cannot read valid Scala (circe's files):
//
//   - a lambda's one typed parameter without parentheses, Scala 2's
//     forAll { xs: Array[Int] => ... }, loses its type: { xs     => ...
//     and a self-type with nothing after it, { this: Suite => }, is blanked;
//   - a given with a braced body, given Facade[Json] with { ... }, has its
//     braces blanked: the grammar reads the indented body.
//
// Strings and comments are not code: nothing in them is matched.
func fixup(src []byte) []byte {
	code, out := codeOnly(src), bytes.Clone(src)
	for _, m := range typedParam().FindAllSubmatchIndex(code, -1) {
		// m[2:4] is ": Type " before =>; m[1] is the end of =>
		if rest := bytes.TrimLeft(code[m[1]:], " \t\r\n"); len(rest) > 0 && rest[0] == '}' {
			lang.Blank(out[m[0]+1 : len(code)-len(rest)])
		} else {
			lang.Blank(out[m[2]:m[3]])
		}
	}
	for _, m := range givenWith().FindAllIndex(code, -1) {
		if open, end := m[1]-1, matchBrace(code, m[1]-1); end > 0 {
			out[open], out[end] = ' ', ' '
		}
	}
	return out
}

var (
	// { name: Type => at a block's start (the type on one line, without
	// braces, parentheses or =)
	typedParam = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\{[ \t\r\n]*[A-Za-z_][A-Za-z0-9_]*([ \t]*:[A-Za-z0-9_ \t\[\],.*]+?)=>`)
	})
	// given ... with { on one line
	givenWith = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bgiven\b[^\n{};=]*\bwith[ \t]*\{`) })
)

// matchBrace is the offset of the } that closes the { at open, -1 if none.
func matchBrace(code []byte, open int) int {
	depth := 0
	for i := open; i < len(code); i++ {
		switch code[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// codeOnly is src with its strings, character literals and comments
// blanked, so that a brace or a => in them matches nothing.
func codeOnly(src []byte) []byte {
	return lang.BlankLiterals(src, literalEnd)
}

// literalEnd is the end of the comment, string or character literal that
// starts at offset i of src, i when none does.
func literalEnd(src []byte, i int) int {
	switch rest := src[i:]; {
	case bytes.HasPrefix(rest, []byte("//")):
		if end := bytes.IndexByte(rest, '\n'); end >= 0 {
			return i + end
		}
		return len(src)
	case bytes.HasPrefix(rest, []byte("/*")):
		return lang.NestedCommentEnd(src, i) // Scala's block comments nest
	case bytes.HasPrefix(rest, []byte(`"""`)):
		end := bytes.Index(src[i+3:], []byte(`"""`))
		if end < 0 {
			return len(src)
		}
		j := i + 3 + end + 3
		for j < len(src) && src[j] == '"' { // """a"""" ends at the last quote
			j++
		}
		return j
	case src[i] == '"':
		j := i + 1
		for j < len(src) && src[j] != '"' && src[j] != '\n' {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		return min(j+1, len(src))
	case src[i] == '\'' && i+2 < len(src) && (src[i+2] == '\'' || src[i+1] == '\\'):
		// 'x' or '\n' (a symbol literal 'name has no closing quote)
		if k := bytes.IndexByte(src[i+2:], '\''); k >= 0 && src[i+1] == '\\' {
			return min(i+2+k+1, len(src))
		}
		return min(i+3, len(src))
	}
	return i
}
