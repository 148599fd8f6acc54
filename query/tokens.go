package query

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Tokens counts the tokens of s with a real BPE tokenizer (o200k_base,
// its vocabulary embedded in the binary: o200k.go). Budgets are promises,
// so they are kept in real tokens, not in an estimate.
//
// The count is the tokenizer module's codec's (TestTokensMatchCodec),
// computed faster: the text is split into the codec's pieces here
// (splitO200k, the same split as its regular expression, which costs more
// than the rest of the count), each piece is byte-pair encoded on a table
// read in place (the codec builds a 200,000-entry map first, tens of
// milliseconds in every process), and each piece's count is remembered,
// so the JSON keys and common words that make up most of an answer are
// counted once per process.
func Tokens(s string) int {
	if !utf8.ValidString(s) {
		// the codec's split reads each invalid byte as U+FFFD
		s = string([]rune(s))
	}
	n := 0
	for i := 0; i < len(s); {
		end := splitO200k(s, i)
		if end < 0 {
			// a character no piece matches (DEL) is skipped, as the codec does
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		n += pieceTokens(s[i:end])
		i = end
	}
	return n
}

// pieceCache holds the token counts of short pieces.
var pieceCache struct {
	mu sync.Mutex
	m  map[string]int
}

const (
	maxCachedPiece = 48      // bytes; longer pieces are rare and counted each time
	maxPieceCache  = 1 << 17 // entries, a few MB; the cache starts over when full
)

// pieceTokens counts the tokens of one piece of the split.
func pieceTokens(p string) int {
	if len(p) > maxCachedPiece {
		return bpeCount(p)
	}
	pieceCache.mu.Lock()
	n, ok := pieceCache.m[p]
	pieceCache.mu.Unlock()
	if ok {
		return n
	}
	n = bpeCount(p)
	pieceCache.mu.Lock()
	if pieceCache.m == nil || len(pieceCache.m) >= maxPieceCache {
		pieceCache.m = make(map[string]int, 1024)
	}
	pieceCache.m[strings.Clone(p)] = n
	pieceCache.mu.Unlock()
	return n
}

// splitO200k returns the end of the piece of valid UTF-8 text s that
// starts at byte i, or -1 when no piece starts there. It is o200k_base's
// pre-tokenizer, an alternation tried in order, the first that matches
// winning:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	\p{N}{1,3}
//	 ?[^\s\p{L}\p{N}]+[\r\n/]*
//	\s*[\r\n]+
//	\s+(?!\S)
//	\s+
//
// with the character classes exactly as the codec's compiled expression
// tests them (TestTokensMatchCodec and FuzzTokens compare the two).
func splitO200k(s string, i int) int {
	r, size := utf8.DecodeRuneInString(s[i:])
	// the two letter branches: an optional prefix, tried with it first
	starts := [2]int{i, -1}
	if prefixClass(r) {
		starts = [2]int{i + size, i}
	}
	for _, j := range starts {
		if j < 0 {
			break
		}
		if e := lettersLowerEnd(s, j); e >= 0 {
			return contraction(s, e)
		}
	}
	for _, j := range starts {
		if j < 0 {
			break
		}
		if e := lettersUpperEnd(s, j); e >= 0 {
			return contraction(s, e)
		}
	}
	// \p{N}{1,3}
	if isN(r) {
		e := i + size
		for k := 1; k < 3 && e < len(s); k++ {
			r2, sz := utf8.DecodeRuneInString(s[e:])
			if !isN(r2) {
				break
			}
			e += sz
		}
		return e
	}
	// ' ?[^\s\p{L}\p{N}]+[\r\n/]*', its parts atomic
	j := i
	if s[i] == ' ' {
		j++
	}
	if j < len(s) {
		if e := runEnd(s, j, symbolClass); e > j {
			for e < len(s) && (s[e] == '\r' || s[e] == '\n' || s[e] == '/') {
				e++
			}
			return e
		}
	}
	if !unicode.IsSpace(r) {
		return -1
	}
	// the run of white space from i, and where its last rune starts
	w, last, firstNL := i, i, -1
	for w < len(s) {
		r2, sz := utf8.DecodeRuneInString(s[w:])
		if !unicode.IsSpace(r2) {
			break
		}
		if firstNL < 0 && (r2 == '\r' || r2 == '\n') {
			firstNL = w
		}
		last = w
		w += sz
	}
	// \s*[\r\n]+: the codec's compiled expression gives the first loop
	// back to the first line break of the run, not the last one, and takes
	// the line breaks from there
	if firstNL >= 0 {
		e := firstNL + 1
		for e < len(s) && (s[e] == '\r' || s[e] == '\n') {
			e++
		}
		return e
	}
	// \s+(?!\S): all of a run that ends the text, else all but its last rune
	if w == len(s) {
		return w
	}
	if last > i {
		return last
	}
	// \s+
	return w
}

// lettersLowerEnd matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+
// at j, the first loop giving back runes until the second can match, and
// returns its end or -1.
func lettersLowerEnd(s string, j int) int {
	for p := runEnd(s, j, upperClass); ; {
		if e := runEnd(s, p, lowerClass); e > p {
			return e
		}
		if p == j {
			return -1
		}
		_, sz := utf8.DecodeLastRuneInString(s[:p])
		p -= sz
	}
}

// lettersUpperEnd matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*
// at j and returns its end or -1.
func lettersUpperEnd(s string, j int) int {
	e := runEnd(s, j, upperClass)
	if e == j {
		return -1
	}
	return runEnd(s, e, lowerClass)
}

// runEnd is the end of the run of runes of class starting at e.
func runEnd(s string, e int, class func(rune) bool) int {
	for e < len(s) {
		r, sz := utf8.DecodeRuneInString(s[e:])
		if !class(r) {
			break
		}
		e += sz
	}
	return e
}

// contraction extends a letter piece ending at e by (?i:'s|'t|'re|'ve|'m|'ll|'d).
func contraction(s string, e int) int {
	if e+1 >= len(s) || s[e] != '\'' {
		return e
	}
	r, sz := utf8.DecodeRuneInString(s[e+1:])
	next := byte(0)
	if e+1+sz < len(s) {
		next = s[e+1+sz] | 0x20 // lower-cases an ASCII letter
	}
	switch r {
	case 's', 'S', 't', 'T', 'ſ', 'm', 'M', 'd', 'D':
		return e + 1 + sz
	case 'r', 'R', 'v', 'V':
		if next == 'e' {
			return e + 3
		}
	case 'l', 'L':
		if next == 'l' {
			return e + 3
		}
	}
	return e
}

// The character classes, as the codec's compiled expression tests them:
// its ASCII tables leave DEL (U+007F) out of [^\r\n\p{L}\p{N}] and
// [^\s\p{L}\p{N}], so no piece matches it.

// prefixClass is [^\r\n\p{L}\p{N}].
func prefixClass(r rune) bool {
	if r < utf8.RuneSelf {
		return r != '\r' && r != '\n' && r != 0x7f && !asciiLetterOrDigit(r)
	}
	return !unicode.In(r, unicode.L, unicode.N)
}

// symbolClass is [^\s\p{L}\p{N}].
func symbolClass(r rune) bool {
	if r < utf8.RuneSelf {
		return !(r >= '\t' && r <= '\r') && r != ' ' && r != 0x7f && !asciiLetterOrDigit(r)
	}
	return !unicode.IsSpace(r) && !unicode.In(r, unicode.L, unicode.N)
}

// upperClass is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
func upperClass(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'A' && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

// lowerClass is [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func lowerClass(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

// isN is \p{N}.
func isN(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '0' && r <= '9'
	}
	return unicode.In(r, unicode.N)
}

func asciiLetterOrDigit(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}
