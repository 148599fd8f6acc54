package query

import (
	"strings"
	"unicode"

	"github.com/sdl-dev/sdl/lang"
)

// stopwords are English words that carry no signal in a query about code.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or not no nor of to in on at by for from with without into onto over under
	is are was were be been being it its it's this that these those as if when while then than so such do does did done
	doing can could should would will shall may might must has have had having i we you they he she them our your their
	there here what which who whom whose how why where all any each every some more most other only own same too very just
	also but about up down out off again once via per use used using uses get gets got make makes made like need needs
	want wants new now one two first last way see also etc e g ie eg fix fixes fixed fixing issue issues bug bugs problem
	problems error errors when case cases work works working instead currently still even because since however though
	let lets add adds added remove removed change changes changed update updated support supports should shouldn't doesn't
	don't isn't wasn't can't won't true false null none nil`) {
		stopwords[w] = true
	}
}

// queryTerms turns any text into search terms: identifiers whole and split
// into their words, lower-cased, without stopwords, numbers or one-letter
// words, each once, in order of first appearance. Identifiers (words with an
// upper-case letter inside, an underscore, or a digit) are reported apart:
// they are the strongest evidence a task text holds.
func queryTerms(text string) (terms []string, idents []string) {
	seen := map[string]bool{}
	add := func(t string) {
		if len(t) < 2 || seen[t] || stopwords[t] || isNumber(t) {
			return
		}
		seen[t] = true
		terms = append(terms, t)
	}
	seenID := map[string]bool{}
	for _, w := range identifierWords(text) {
		parts := lang.SplitIdent(w)
		if looksLikeIdentifier(w) && !seenID[w] {
			seenID[w] = true
			idents = append(idents, w)
		}
		if len(parts) > 1 {
			add(strings.ToLower(strings.Trim(w, "_")))
		}
		for _, p := range parts {
			add(p)
		}
	}
	return terms, idents
}

// identifierWords splits text into runs of letters, digits and underscores.
func identifierWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
}

// looksLikeIdentifier reports whether a word reads as code rather than
// English: camelCase, snake_case or with digits after letters.
func looksLikeIdentifier(w string) bool {
	if len(w) < 3 {
		return false
	}
	upperInside, lower := false, false
	for i, r := range w {
		switch {
		case r == '_' && i > 0 && i < len(w)-1:
			return true
		case unicode.IsUpper(r) && i > 0:
			upperInside = true
		case unicode.IsLower(r):
			lower = true
		}
	}
	return upperInside && lower
}

func isNumber(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// ftsMatch renders terms as an FTS5 query: every term a quoted string
// (so no user text is ever FTS syntax), joined with OR. Only terms that
// the index's tokenizer keeps as one token are used: a term it would split
// ("url_for") would be a phrase, and its parts are terms of their own.
func ftsMatch(terms []string) string {
	var b strings.Builder
	n := 0
	for _, t := range terms {
		if !singleToken(t) {
			continue
		}
		if n > 0 {
			b.WriteString(" OR ")
		}
		n++
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(t, `"`, `""`))
		b.WriteByte('"')
	}
	return b.String()
}

// singleToken reports whether the unicode61 tokenizer keeps t as one token:
// letters and digits only.
func singleToken(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// Column sets for the full-text lanes. The body column (identifiers of
// the code) is the largest by far: a prose word matches it in thousands of
// symbols, and bm25 is paid per match. Prose searches the other columns;
// identifiers, which are specific, search all of them.
const (
	colsNames = "{name qualified}"
	colsText  = "{signature doc path words}"
	colsAll   = ""
)

// withColumns restricts an FTS5 query to a column set.
func withColumns(cols, match string) string {
	if cols == "" || match == "" {
		return match
	}
	return cols + " : (" + match + ")"
}
