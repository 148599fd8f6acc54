package lang

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// effect is a side effect that a call reveals.
type effect struct {
	kind string // fs.read, fs.write, network, database, process, env, exit
	text string
}

// effectRules is, per language, a table from "qualifier.name" (the
// qualifier's last segment) or "name" alone (a bare call) to an effect.
// methodEffects matches a method name on a qualifier that looks like a
// database or client handle.
type effectRules struct {
	calls   map[string]effect
	methods map[string]effect
	handle  *regexp.Regexp
}

// qualTail returns the last segment of a qualifier: "std::fs" -> "fs",
// "a.b.c" -> "c".
func qualTail(q string) string {
	if i := strings.LastIndex(q, "::"); i >= 0 {
		q = q[i+2:]
	}
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		q = q[i+1:]
	}
	return strings.TrimSuffix(q, "()")
}

// sideEffects derives the side effects of a symbol from its calls.
func sideEffects(l *Language, calls []Ref) []Fact {
	if l.effects == nil {
		return nil
	}
	rules := l.effects()
	if rules == nil {
		return nil
	}
	var out []Fact
	seen := map[string]bool{}
	for _, r := range calls {
		if r.Kind != RefCall && r.Kind != RefNew {
			continue
		}
		key := r.Name
		if r.Qualifier != "" {
			key = qualTail(r.Qualifier) + "." + r.Name
		}
		e, ok := rules.calls[key]
		if !ok && r.Qualifier != "" && rules.handle != nil {
			if me, mok := rules.methods[r.Name]; mok && rules.handle.MatchString(r.Qualifier) {
				e, ok = me, true
			}
		}
		if !ok || seen[e.text] {
			continue
		}
		seen[e.text] = true
		ev := r.Name
		if r.Qualifier != "" {
			ev = r.Qualifier + "." + r.Name
		}
		out = append(out, Fact{Kind: e.kind, Text: e.text, Line: r.Line, Evidence: Shorten(ev, MaxEvidence)})
	}
	return out
}

// SplitIdent splits an identifier into its lower-case words:
// "getHTTPResponse_v2" -> [get http response v2].
func SplitIdent(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r):
			// a new word starts at an upper-case letter that follows a
			// lower-case one, or that precedes one in an acronym run
			// (HTTPServer: HTTP, Server), except for a plural acronym
			// (IDs, URLs)
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
				flush()
			} else if i > 0 && unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) && !pluralAcronym(rs, i) {
				flush()
			}
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// pluralAcronym reports whether the upper-case rs[i] is followed by a lone
// "s" that ends the word: the D of "IDs".
func pluralAcronym(rs []rune, i int) bool {
	return i+1 < len(rs) && rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLower(rs[i+2]))
}

// firstSentence returns the first sentence of a doc comment: of its
// description, which the first block tag ends ("@author", "@param" in
// PHPDoc, Javadoc, JSDoc); a doc of tags alone has none, or a class read
// "@author Javier Eguiluz <javier.eguiluz@...>" as its summary.
func firstSentence(doc string) string {
	doc = strings.TrimSpace(doc)
	for _, tag := range [...]string{"@brief ", "@summary "} { // tags that hold it
		doc = strings.TrimSpace(strings.TrimPrefix(doc, tag))
	}
	if blockTag(doc) {
		return ""
	}
	if i := strings.Index(doc, "\n@"); i >= 0 && blockTag(doc[i+1:]) {
		doc = doc[:i]
	}
	// a blank line ends the first paragraph
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	doc = OneLine(doc)
	for i := 0; i < len(doc); i++ {
		if doc[i] == '.' && (i+1 == len(doc) || doc[i+1] == ' ') {
			// not an abbreviation like "e.g." or "i.e."
			if i >= 3 && (doc[i-2] == '.' || doc[i-3:i] == " eg" || doc[i-3:i] == " ie") || i >= 1 && doc[i-1] >= '0' && doc[i-1] <= '9' {
				continue
			}
			return doc[:i+1]
		}
	}
	return Shorten(doc, 240)
}

// blockTag reports whether s starts with a doc block tag: "@" and a
// letter ("@param", "@author"), not an address or "@{link}".
func blockTag(s string) bool {
	return len(s) > 1 && s[0] == '@' && (s[1] >= 'a' && s[1] <= 'z' || s[1] >= 'A' && s[1] <= 'Z')
}

// summarize writes a one or two line summary: the doc's first sentence,
// or else a description made from the name, the signature and the calls.
func summarize(s *Symbol, calls []Ref, builtins WordSet) string {
	if s.Doc != "" {
		if fs := firstSentence(s.Doc); len(fs) > 3 {
			return Shorten(fs, 240)
		}
	}
	words := SplitIdent(s.Name)
	phrase := strings.Join(words, " ")
	if r, size := utf8.DecodeRuneInString(phrase); size > 0 {
		phrase = string(unicode.ToUpper(r)) + phrase[size:]
	}
	var b strings.Builder
	switch s.Kind {
	case KindFunction, KindMethod, KindConstructor:
		if s.Kind == KindConstructor {
			b.WriteString("Constructs ")
			if s.Container != "" {
				b.WriteString(LastIdent(s.Container))
			} else {
				b.WriteString(s.Name)
			}
		} else {
			b.WriteString(phrase)
		}
		if s.Signature.Returns != "" {
			b.WriteString("; returns ")
			b.WriteString(Shorten(s.Signature.Returns, 60))
		}
		var names []string
		seen := map[string]bool{}
		for _, c := range calls {
			if c.Kind != RefCall && c.Kind != RefNew || c.Qualifier == "" && builtins.Has(c.Name) {
				continue
			}
			n := c.Name
			if c.Qualifier != "" && len(c.Qualifier) < 20 {
				n = c.Qualifier + "." + c.Name
			}
			if c.Kind == RefNew {
				n = "new " + n
			}
			if seen[n] {
				continue
			}
			seen[n] = true
			names = append(names, n)
			if len(names) == 4 {
				break
			}
		}
		if len(names) > 0 {
			b.WriteString("; calls ")
			b.WriteString(strings.Join(names, ", "))
		}
	case KindClass, KindInterface:
		b.WriteString(strings.ToUpper(s.Kind[:1]) + s.Kind[1:] + " " + s.Name)
		if len(s.Signature.Bases) > 0 {
			b.WriteString(" (" + Shorten(strings.Join(s.Signature.Bases, ", "), 80) + ")")
		}
		if n := len(s.Signature.Fields); n > 0 {
			var fs []string
			for i, f := range s.Signature.Fields {
				if i == 5 {
					fs = append(fs, "...")
					break
				}
				fs = append(fs, f.Name)
			}
			b.WriteString(" with " + strings.Join(fs, ", "))
		}
	case KindModule:
		b.WriteString("Module " + s.Name)
	default:
		b.WriteString(phrase)
		if len(s.Signature.Fields) == 0 && s.Signature.Returns != "" {
			b.WriteString(": " + Shorten(s.Signature.Returns, 80))
		}
	}
	return b.String()
}
