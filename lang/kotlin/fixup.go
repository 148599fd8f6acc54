package kotlin

import (
	"bytes"

	"github.com/sdl-dev/sdl/lang"
)

// primaryConstructorVisibility returns what the parser reads instead of
// src: the visibility modifier of every primary constructor ("class A
// private constructor(", "class B<T> @Inject internal constructor(")
// becomes spaces. The pinned grammar misreads such a header after two
// annotations and "open" ("@A @B open class K protected constructor()
// {...}" becomes an expression, no error reported, and the class and its
// members are lost); "@A @B open class K constructor()" it reads right. The
// walker takes nothing from that modifier, and the tree keeps the original
// text. Same length, so every offset and line still holds.
//
// The grammar also ends the class at a line break before a bare
// "constructor" ("class Options\n  private constructor(", as ktfmt
// writes a long header: moshi's JsonReader.Options made the whole of
// JsonReader an error). There the keyword moves up behind the name, one
// space after it, and the gap's line breaks follow it: "class Options
// constructor\n   (" the grammar reads right, and every line still holds.
func primaryConstructorVisibility(src []byte) []byte {
	var out []byte
	for i := 0; i+len("class") <= len(src); i++ {
		if !word(src, i, "class") || i > 0 && (isIdent(src[i-1]) || src[i-1] == ':' || src[i-1] == '.') {
			continue
		}
		j := skipSpace(src, i+len("class"))
		k := j
		for k < len(src) && isIdent(src[k]) {
			k++
		}
		if k == j {
			continue
		}
		hdr := k // the end of the name or of its type parameters
		j = skipSpace(src, k)
		if j < len(src) && src[j] == '<' {
			if j = lang.ClosingBracket(src, j, '<', '>'); j < 0 {
				continue
			}
			hdr = j
			j = skipSpace(src, j)
		}
		annotated := false
		// the visibility words between the class name (or its annotations
		// on the constructor) and the keyword
		var vis [][2]int
		for j < len(src) {
			if src[j] == '@' {
				annotated = true
				k := j + 1
				for k < len(src) && (isIdent(src[k]) || src[k] == '.') {
					k++
				}
				if k == j+1 {
					break
				}
				if k < len(src) && src[k] == '(' {
					if k = lang.ClosingBracket(src, k, '(', ')'); k < 0 {
						break
					}
				}
				j = skipSpace(src, k)
				continue
			}
			if w := visibilityWord(src, j); w > 0 {
				vis = append(vis, [2]int{j, j + w})
				j = skipSpace(src, j+w)
				continue
			}
			break
		}
		if !word(src, j, "constructor") {
			continue
		}
		end := j + len("constructor")
		if k := skipSpace(src, end); k >= len(src) || src[k] != '(' {
			continue
		}
		broken := !annotated && bytes.IndexByte(src[hdr:j], '\n') >= 0
		if len(vis) == 0 && !broken {
			continue
		}
		if out == nil {
			out = append([]byte(nil), src...)
		}
		for _, v := range vis {
			for k := v[0]; k < v[1]; k++ {
				out[k] = ' '
			}
		}
		if broken {
			moveUp(out[hdr:end])
		}
		i = end - 1
	}
	if out == nil {
		return src
	}
	return out
}

// moveUp rewrites gap, white space (line breaks among it) then the
// keyword "constructor", as " constructor" then the same white space less
// one byte that is not a line break; a gap of line breaks alone stays.
func moveUp(gap []byte) {
	ws := len(gap) - len("constructor")
	r := bytes.IndexFunc(gap[:ws], func(c rune) bool { return c != '\n' && c != '\r' })
	if r < 0 {
		return
	}
	rest := append(append([]byte(nil), gap[:r]...), gap[r+1:ws]...)
	copy(gap, " constructor")
	copy(gap[len(" constructor"):], rest)
}

// visibilityWord returns the length of the visibility modifier at i, 0 if
// there is none.
func visibilityWord(src []byte, i int) int {
	for _, w := range []string{"private", "protected", "internal", "public"} {
		if word(src, i, w) {
			return len(w)
		}
	}
	return 0
}

// word reports whether src holds the whole word w at i.
func word(src []byte, i int, w string) bool {
	return i+len(w) <= len(src) && string(src[i:i+len(w)]) == w && (i+len(w) == len(src) || !isIdent(src[i+len(w)]))
}

func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

func isIdent(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b >= 0x80
}

// multiDollarStrings returns what the parser reads for Kotlin 2.2's
// multi-dollar strings, $$"{\"$foo\": 1}" and $$"""...""", which the
// pinned grammar does not know (a syntax error, moshi's
// GeneratedAdaptersTest): the prefix's dollars become spaces; in the
// body, a run of fewer dollars than the prefix's before a name or '{' is
// text, so spaces too, and a run of as many or more interpolates as one
// '$' (the literal ones before it become spaces). What remains is a
// string the grammar reads, of the same length and lines.
func multiDollarStrings(src []byte) []byte {
	var out []byte
	for i := 0; i+2 < len(src); i++ {
		if src[i] != '$' || src[i+1] != '$' ||
			i > 0 && (isIdent(src[i-1]) || src[i-1] == '$' || src[i-1] == '"' || src[i-1] == '\\') {
			continue
		}
		q := i
		for q < len(src) && src[q] == '$' {
			q++
		}
		n := q - i
		if q >= len(src) || src[q] != '"' {
			i = q - 1
			continue
		}
		raw := q+2 < len(src) && src[q+1] == '"' && src[q+2] == '"'
		if out == nil {
			out = bytes.Clone(src)
		}
		lang.Blank(out[i:q])
		j := q + 1
		if raw {
			j = q + 3
		}
	body:
		for j < len(src) {
			switch c := src[j]; {
			case !raw && c == '\\':
				j += 2
			case !raw && c == '\n':
				break body // unterminated: leave the rest to the grammar
			case c == '"':
				if !raw {
					j++
					break body
				}
				if j+2 < len(src) && src[j+1] == '"' && src[j+2] == '"' {
					j += 3
					break body
				}
				j++
			case c == '$':
				k := j
				for k < len(src) && src[k] == '$' {
					k++
				}
				next := k < len(src) && (src[k] == '{' || isIdent(src[k]))
				switch {
				case k-j >= n && next:
					lang.Blank(out[j : k-1])
					if src[k] == '{' {
						if k = lang.ClosingBracket(src, k, '{', '}'); k < 0 {
							break body
						}
					}
				case next:
					lang.Blank(out[j:k])
				}
				j = k
			default:
				j++
			}
		}
		i = j - 1
	}
	if out == nil {
		return src
	}
	return out
}
