package lang

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IdentMatch is one occurrence of a requested identifier in a syntax tree.
type IdentMatch struct {
	Name string
	Line int    // 1-based
	Node int32  // the matching node
	Kind string // its node kind: "identifier", "field_identifier", "if", ...
	// Keyword is true for a keyword or a literal keyword (if, return,
	// this, nil) rather than a name the code chose.
	Keyword bool
}

// MatchIdentifiers finds, in [start, end) of t, the tokens whose text is one
// of names: identifiers of every sort (variables, fields, properties,
// types), keywords, and for a dotted name ("this.cache", "s.items") the
// expression spelled that way. Words inside strings and comments, and parts
// of longer names, are not tokens of their own, so they never match.
func MatchIdentifiers(t *Tree, start, end uint32, names []string) []IdentMatch {
	want := map[string]bool{}
	dotted := map[string]bool{}
	for _, n := range names {
		if strings.ContainsAny(n, ".:") {
			dotted[strings.Join(strings.Fields(n), "")] = true
		} else {
			want[n] = true
		}
	}
	var out []IdentMatch
	for i := int32(0); i < t.Len(); {
		nd := &t.Nodes[i]
		if nd.EndByte <= start || nd.StartByte >= end {
			i = nd.End
			continue
		}
		if t.IsComment(i) || t.IsString(i) && !t.hasCodeInside(i) {
			i = nd.End
			continue
		}
		if nd.StartByte >= start && nd.EndByte <= end {
			if t.IsLeaf(i) {
				text := t.Text(i)
				name := text
				if !want[name] && len(name) > 1 && (name[0] == '@' || name[0] == '$') {
					// Ruby's @ivar and @@cvar, a global $var: the name without its sigil
					name = strings.TrimLeft(name, "@$")
				}
				if want[name] {
					ident, keyword := t.tokenClass(i, text)
					if ident || keyword {
						out = append(out, IdentMatch{Name: name, Line: t.StartLine(i), Node: i, Kind: t.Kind(i), Keyword: keyword})
					}
				}
			} else if len(dotted) > 0 && nd.EndByte-nd.StartByte < 512 {
				if text := strings.Join(strings.Fields(t.Text(i)), ""); dotted[text] && !sameSpan(t, out, i) {
					out = append(out, IdentMatch{Name: text, Line: t.StartLine(i), Node: i, Kind: t.Kind(i)})
				}
			}
		}
		i++
	}
	return out
}

// sameSpan reports whether the last match covers the same text as node i
// (an expression list around one expression).
func sameSpan(t *Tree, out []IdentMatch, i int32) bool {
	if len(out) == 0 {
		return false
	}
	last := &t.Nodes[out[len(out)-1].Node]
	return last.StartByte == t.Nodes[i].StartByte && last.EndByte == t.Nodes[i].EndByte
}

// hasCodeInside reports whether a string node holds code: a template
// string's substitutions, a shell string's expansions, a PHP string's
// variables.
func (t *Tree) hasCodeInside(i int32) bool {
	for c := range t.Descendants(i) {
		switch t.Kind(c) {
		case "template_substitution", "interpolation", "format_expression",
			"simple_expansion", "expansion", "command_substitution", "variable_name":
			return true
		}
	}
	return false
}

// tokenClass tells whether leaf i is a name (an identifier of any sort) or
// a keyword, as opposed to the content of a literal.
func (t *Tree) tokenClass(i int32, text string) (ident, keyword bool) {
	if t.IsIdent(i) {
		return true, false
	}
	if !isWord(text) {
		return false, false
	}
	k := t.Kind(i)
	if !t.Named(i) {
		return false, true // an anonymous word token is a keyword: if, return, catch
	}
	// named keyword-like leaves: this, self, super, nil, null, true, None
	if strings.EqualFold(k, text) {
		return false, true
	}
	// other named leaves that are names in some grammar (shorthand fields,
	// Python's keyword-named identifiers), never literal contents
	if strings.HasSuffix(k, "identifier") || k == "self" || k == "super" {
		return true, false
	}
	return false, false
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// WordAt reports whether name occurs in line at a word boundary, for text
// that is not code (skeleton lines, strings, comments).
func WordAt(line, name string) bool {
	if name == "" {
		return false
	}
	for off := 0; ; {
		i := strings.Index(line[off:], name)
		if i < 0 {
			return false
		}
		i += off
		j := i + len(name)
		if !wordByteBefore(line, i) && !wordByteAfter(line, j) {
			return true
		}
		off = i + 1
	}
}

func wordByteBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func wordByteAfter(s string, j int) bool {
	if j >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[j:])
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Block is the smallest statement or block node inside [start, end) that
// holds every given node, as a byte range; ok is false when the nodes have
// no such ancestor below the range itself.
func Block(t *Tree, start, end uint32, nodes []int32) (uint32, uint32, bool) {
	if len(nodes) == 0 {
		return 0, 0, false
	}
	lo, hi := t.Nodes[nodes[0]].StartByte, t.Nodes[nodes[0]].EndByte
	for _, n := range nodes[1:] {
		lo, hi = min(lo, t.Nodes[n].StartByte), max(hi, t.Nodes[n].EndByte)
	}
	// climb from the first node to the smallest named ancestor spanning all
	for a := nodes[0]; a >= 0; a = t.Parent(a) {
		nd := &t.Nodes[a]
		if nd.StartByte > lo || nd.EndByte < hi || !t.Named(a) {
			continue
		}
		if nd.StartByte < start || nd.EndByte > end || nd.StartByte == start && nd.EndByte == end {
			return 0, 0, false
		}
		k := t.Kind(a)
		if strings.HasSuffix(k, "statement") || strings.HasSuffix(k, "block") || strings.HasSuffix(k, "_clause") ||
			strings.HasSuffix(k, "_expression") && t.StartLine(a) != t.EndLine(a) || strings.HasSuffix(k, "_case") ||
			strings.HasSuffix(k, "_arm") || strings.HasSuffix(k, "declaration") {
			if t.StartLine(a) == t.EndLine(a) {
				// one line is not a block: take the statement around it
				continue
			}
			return nd.StartByte, nd.EndByte, true
		}
	}
	return 0, 0, false
}
