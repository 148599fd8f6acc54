package embed

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens turns text (source code, comments, prose) into the model's units:
// identifiers and words split at camelCase, snake_case and digits-to-letter
// boundaries, lower-cased, without one-letter parts, numbers and
// stopwords, in order. The trainer and every caller use this one function,
// so the table's vocabulary and the text it is applied to agree.
func Tokens(text string) []string {
	var out []string
	EachToken(text, func(t string) { out = append(out, t) })
	return out
}

// EachToken calls f with each token of text, in order, without building a
// slice; the trainer tokenizes gigabytes with it.
func EachToken(text string, f func(string)) {
	var buf []byte
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		word := text[start:end]
		start = -1
		splitWord(word, func(part string) {
			if len(part) < 2 || len(part) > maxTokenLen || isNumber(part) {
				return
			}
			buf = appendLower(buf[:0], part)
			if stopwords[string(buf)] {
				return
			}
			f(string(buf))
		})
	}
	for i, r := range text {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
}

// maxTokenLen drops hashes, base64 and other long runs that are not words.
const maxTokenLen = 24

// splitWord splits an identifier into its words: getHTTPResponse -> get,
// HTTP, Response; user_id -> user, id; IDs stays one word. The rules are
// those of lang.SplitIdent, which the full-text index uses, kept here
// because this package imports nothing of sdl's.
func splitWord(s string, f func(string)) {
	start := -1
	var prev rune
	for i, r := range s {
		switch {
		case r == '_':
			if start >= 0 {
				f(s[start:i])
				start = -1
			}
		case unicode.IsUpper(r):
			if start >= 0 && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
				f(s[start:i])
				start = i
			} else if start >= 0 && unicode.IsUpper(prev) {
				next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
				if unicode.IsLower(next) && !pluralAcronym(s, i, r) {
					f(s[start:i])
					start = i
				}
			}
			if start < 0 {
				start = i
			}
		default:
			if start < 0 {
				start = i
			}
		}
		prev = r
	}
	if start >= 0 {
		f(s[start:])
	}
}

// pluralAcronym reports whether the upper-case r at s[i] is followed by a
// lone "s" that ends the word: the D of "IDs".
func pluralAcronym(s string, i int, r rune) bool {
	rest := s[i+utf8.RuneLen(r):]
	if !strings.HasPrefix(rest, "s") {
		return false
	}
	next, _ := utf8.DecodeRuneInString(rest[1:])
	return len(rest) == 1 || !unicode.IsLower(next)
}

func appendLower(buf []byte, s string) []byte {
	for _, r := range s {
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			buf = append(buf, byte(r))
			continue
		}
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
	}
	return buf
}

func isNumber(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// stopwords carry no meaning of their own in code or in prose about code:
// English function words and keywords that are only syntax. Keywords that
// are also words of prose about code (default, delete, import, type,
// private, string) stay: idf weighs them down.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`an the and or not no nor of to in on at by for from with into onto is are was were be
	been being it its this that these those as if then than so do does did can could should would will shall may might
	must has have had we you they he she them our your their there here what which who whom whose how all any each every
	some more most other only own same too very just also but about up out off again once per etc eg ie
	func def fn var let const return else elif while break continue switch case pass try except finally catch yield
	self true false nil null none undefined void typeof instanceof lambda mut impl pub mod crate dyn`) {
		stopwords[w] = true
	}
}
