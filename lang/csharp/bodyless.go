package csharp

import (
	"bytes"
	"slices"

	"github.com/sdl-dev/sdl/lang"
)

// Bodyless types. C# 12 lets a class, struct or interface end with ";"
// instead of a body ("public class Changed(int n) : ValueChanged<int>(n);",
// "private static class Unknown;"), as records could before; the grammar
// (tree-sitter-c-sharp 0.23) requires a body. Such a declaration was an
// error that swallowed the next member's body: eShop's one-line message
// class was lost, Polly's "class TestOptions : ResilienceStrategyOptions;"
// took the next declaration with it. The parser reads "{}" for the ";".

// maxHeader bounds how far a declaration's header is scanned for its end.
const maxHeader = 4 << 10

// typeModifiers are the words that may precede class, struct or interface
// on the line of a declaration.
var typeModifiers = map[string]bool{"public": true, "private": true, "protected": true, "internal": true,
	"static": true, "sealed": true, "abstract": true, "partial": true, "unsafe": true, "new": true,
	"file": true, "readonly": true, "ref": true}

// bodyless returns src with "{}" read for the ";" that ends each bodyless
// type declaration, and the offsets of the added "}"s, or nil, nil.
func bodyless(src []byte) ([]byte, []uint32) {
	var semis []int
	for _, kw := range []string{"class", "struct", "interface"} {
		for i := 0; ; {
			k := bytes.Index(src[i:], []byte(kw))
			if k < 0 {
				break
			}
			at := i + k
			i = at + len(kw)
			if s := bodylessEnd(src, at, len(kw)); s >= 0 {
				semis = append(semis, s)
			}
		}
	}
	if len(semis) == 0 {
		return nil, nil
	}
	slices.Sort(semis)
	out := make([]byte, 0, len(src)+len(semis))
	ins := make([]uint32, 0, len(semis))
	from := 0
	for _, s := range semis {
		out = append(out, src[from:s]...)
		out = append(out, '{', '}')
		ins = append(ins, uint32(len(out)-1))
		from = s + 1
	}
	return append(out, src[from:]...), ins
}

// bodylessEnd returns the offset of the ";" that ends the type declaration
// whose keyword (of n bytes) is at src[at:], or -1 when it is none or has a
// body: the keyword starts a line after modifiers only and a name follows.
func bodylessEnd(src []byte, at, n int) int {
	if at > 0 && isIdentByte(src[at-1]) || at+n >= len(src) || !lang.IsSpaceByte(src[at+n]) {
		return -1
	}
	lineStart := bytes.LastIndexByte(src[:at], '\n') + 1
	for _, w := range bytes.Fields(src[lineStart:at]) {
		if !typeModifiers[string(w)] {
			return -1 // a constraint (where T : class), a comment, a record, ...
		}
	}
	i := at + n
	for i < len(src) && lang.IsSpaceByte(src[i]) {
		i++
	}
	if i >= len(src) || !isIdentByte(src[i]) {
		return -1
	}
	depth := 0 // of (), [] and <>
	for end := min(len(src), i+maxHeader); i < end; i++ {
		switch c := src[i]; c {
		case '(', '[', '<':
			depth++
		case ')', ']', '>':
			depth--
		case '{', '}':
			return -1
		case '=':
			if depth == 0 {
				return -1 // a field or an expression, no declaration
			}
		case ';':
			if depth == 0 {
				return i
			}
			return -1
		case '"', '\'':
			j := bytes.IndexByte(src[i+1:], c)
			if j < 0 {
				return -1
			}
			i += j + 1
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				j := bytes.IndexByte(src[i:], '\n')
				if j < 0 {
					return -1
				}
				i += j
			} else if i+1 < len(src) && src[i+1] == '*' {
				j := bytes.Index(src[i+2:], []byte("*/"))
				if j < 0 {
					return -1
				}
				i += j + 3
			}
		}
	}
	return -1
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '@' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
