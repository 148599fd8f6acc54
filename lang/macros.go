package lang

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"strings"
)

// Macros the grammar cannot read are neutralised before the parse, as
// ctags does with its macro definitions (-D): the lists are data, one file
// per language under macros/, and each macro is overwritten by spaces (or
// by a shorter replacement padded with spaces) so that every byte offset,
// column and line of the file stays exact. A Qt header is otherwise a
// string of syntax errors: "signals:", "Q_OBJECT" and "class Q_CORE_EXPORT
// QString" are not C++ until the preprocessor has run.

//go:embed macros/*.txt
var macroFiles embed.FS

// macroCond limits where a macro rule applies.
type macroCond uint8

const (
	condBeforeName  macroCond = 1 << iota // the next token is a name
	condBeforeColon                       // the next token is ":" (not "::")
	condBeforeSemi                        // the next token is ";"
	condBeforeBrace                       // the next token is "{"
	condAfterAccess                       // the previous token is public, private or protected
	condAfterParen                        // the previous token is ")", outside code
	condLineStart                         // the first token of its line
)

var macroConds = map[string]macroCond{
	"before name": condBeforeName, "before :": condBeforeColon, "before ;": condBeforeSemi, "before {": condBeforeBrace,
	"after access": condAfterAccess, "after )": condAfterParen, "line start": condLineStart,
}

// macroRule is one line of a macros file.
type macroRule struct {
	name string // the name, or a pattern with * (a run of [A-Z0-9_])
	args bool   // NAME(...): the parenthesised arguments go too
	repl string // what replaces it, padded with spaces; "" blanks it
	cond macroCond
}

// macroSet is the rules of one language.
type macroSet struct {
	exact    map[string][]macroRule
	patterns []macroRule
}

// loadMacros parses the embedded macro files named, in order.
func loadMacros(files ...string) *macroSet {
	set := &macroSet{exact: map[string][]macroRule{}}
	for _, f := range files {
		data, err := macroFiles.ReadFile("macros/" + f)
		if err != nil {
			panic(fmt.Sprintf("lang: macros/%s: %v", f, err)) // embedded: a build error
		}
		rules, err := parseMacros(data)
		if err != nil {
			panic(fmt.Sprintf("lang: macros/%s: %v", f, err))
		}
		for _, r := range rules {
			if strings.Contains(r.name, "*") {
				set.patterns = append(set.patterns, r)
			} else {
				set.exact[r.name] = append(set.exact[r.name], r)
			}
		}
	}
	return set
}

// parseMacros reads rules: "NAME[(...)] [=> text] [cond]...", # comments.
func parseMacros(data []byte) ([]macroRule, error) {
	var out []macroRule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		var r macroRule
		for {
			i := strings.LastIndexByte(line, '[')
			if i < 0 || !strings.HasSuffix(line, "]") {
				break
			}
			c, ok := macroConds[line[i+1:len(line)-1]]
			if !ok {
				return nil, fmt.Errorf("line %d: unknown condition %s", n, line[i:])
			}
			r.cond |= c
			line = strings.TrimSpace(line[:i])
		}
		if i := strings.Index(line, "=>"); i >= 0 {
			r.repl = strings.TrimSpace(line[i+2:])
			line = strings.TrimSpace(line[:i])
		}
		if strings.HasSuffix(line, "(...)") {
			r.args = true
			line = strings.TrimSuffix(line, "(...)")
		}
		if line == "" || strings.IndexFunc(line, func(c rune) bool { return !(c == '*' || c < 0x80 && isIdentByte(byte(c))) }) >= 0 {
			return nil, fmt.Errorf("line %d: bad macro name %q", n, line)
		}
		if !r.args && len(r.repl) > len(line) {
			return nil, fmt.Errorf("line %d: replacement %q is longer than %s", n, r.repl, line)
		}
		r.name = line
		out = append(out, r)
	}
	return out, sc.Err()
}

// globUpper matches name against a pattern whose * stands for a non-empty
// run of upper-case letters, digits and underscores.
func globUpper(pat, name string) bool {
	i := strings.IndexByte(pat, '*')
	if i < 0 {
		return pat == name
	}
	if !strings.HasPrefix(name, pat[:i]) {
		return false
	}
	rest := pat[i+1:]
	for j := i + 1; j <= len(name); j++ {
		c := name[j-1]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
		if globUpper(rest, name[j:]) {
			return true
		}
	}
	return false
}

// blank returns src with the set's macros neutralised. It copies src only
// when it changes something. Comments, string and character literals and
// preprocessor lines are not touched: a #define of an export macro stays.
func (m *macroSet) blank(src []byte) []byte {
	if m == nil {
		return src
	}
	out := src
	var prev []byte // the previous token when it was a name, else nil
	paren := false  // the previous token was ")"
	lineStart := true
	// braces opened right after ")" hold code (a function body, a block
	// of if or while); "after )" rules, meant for a declarator's
	// attributes, do not apply inside them: "if (x) LOG_ERROR(y);" stays
	var braces []bool
	code := 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#' && lineStart:
			i = skipDirective(src, i)
			prev, paren = nil, false
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
				i += j + 4
			} else {
				i = len(src)
			}
			continue // a comment is no token: prev and lineStart stay
		case c == '"' || c == '\'':
			i = skipQuoted(src, i)
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentByte(src[j]) && src[j] != '$' {
				j++
			}
			name := src[i:j]
			if end, repl, ok := m.match(src, i, j, name, prev, paren && code == 0, lineStart); ok {
				if &out[0] == &src[0] {
					out = append([]byte(nil), src...)
				}
				fillBlank(out[i:end], repl)
				if repl == "" {
					i = end // as if it were not there: what came before still holds
					continue
				}
				j = end
			}
			prev, paren, lineStart = name, false, false
			i = j
			continue
		case c == '{':
			braces = append(braces, paren)
			if paren {
				code++
			}
			i++
		case c == '}':
			if n := len(braces); n > 0 {
				if braces[n-1] {
					code--
				}
				braces = braces[:n-1]
			}
			i++
		case c >= '0' && c <= '9':
			for i < len(src) && isIdentByte(src[i]) {
				i++
			}
		default:
			i++
		}
		prev, paren, lineStart = nil, c == ')', false
	}
	return out
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// match finds the rule for the name at src[i:j] and returns where the text
// it replaces ends and its replacement.
func (m *macroSet) match(src []byte, i, j int, name, prev []byte, paren, lineStart bool) (int, string, bool) {
	try := func(r *macroRule) (int, string, bool) {
		end := j
		if r.args {
			k := skipSpace(src, j)
			if k >= len(src) || src[k] != '(' {
				return 0, "", false
			}
			end = closeParen(src, k)
			if end < 0 {
				return 0, "", false
			}
		}
		if r.cond&condLineStart != 0 && !lineStart {
			return 0, "", false
		}
		if r.cond&condAfterAccess != 0 && string(prev) != "public" && string(prev) != "private" && string(prev) != "protected" {
			return 0, "", false
		}
		if r.cond&condAfterParen != 0 && !paren {
			return 0, "", false
		}
		k := skipSpace(src, end)
		next := byte(0)
		if k < len(src) {
			next = src[k]
		}
		if r.cond&condBeforeSemi != 0 && next != ';' || r.cond&condBeforeBrace != 0 && next != '{' {
			return 0, "", false
		}
		if r.cond&condBeforeName != 0 && (k >= len(src) || !isIdentStart(src[k])) {
			return 0, "", false
		}
		if r.cond&condBeforeColon != 0 && (k >= len(src) || src[k] != ':' || k+1 < len(src) && src[k+1] == ':') {
			return 0, "", false
		}
		if len(r.repl) > end-i {
			return 0, "", false
		}
		return end, r.repl, true
	}
	rules := m.exact[string(name)]
	for x := range rules {
		if end, repl, ok := try(&rules[x]); ok {
			return end, repl, true
		}
	}
	if len(m.patterns) == 0 || !upperName(name) {
		return 0, "", false
	}
	s := string(name)
	for x := range m.patterns {
		if globUpper(m.patterns[x].name, s) {
			if end, repl, ok := try(&m.patterns[x]); ok {
				return end, repl, true
			}
		}
	}
	return 0, "", false
}

// upperName reports whether a name is written like a macro: upper-case
// letters, digits and at least one underscore.
func upperName(name []byte) bool {
	under := false
	for _, c := range name {
		switch {
		case c == '_':
			under = true
		case c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return under
}

// fillBlank overwrites b with repl and spaces, keeping line breaks.
func fillBlank(b []byte, repl string) {
	n := copy(b, repl)
	for k := n; k < len(b); k++ {
		if b[k] != '\n' && b[k] != '\r' {
			b[k] = ' '
		}
	}
}

// skipSpace skips blanks and line breaks.
func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// closeParen returns the offset just past the parenthesis that closes the
// one at src[open], or -1 when the file ends first. Strings are skipped so
// that a ")" inside one does not count.
func closeParen(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src); {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"', '\'':
			i = skipQuoted(src, i)
			continue
		}
		i++
	}
	return -1
}

// skipQuoted returns the offset past the string or character literal that
// opens at src[i]; a literal stops at the end of its line.
func skipQuoted(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src) && src[i] != q && src[i] != '\n'; i++ {
		if src[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// skipDirective returns the offset of the line after the preprocessor
// directive at src[i], following backslash continuations.
func skipDirective(src []byte, i int) int {
	for i < len(src) {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return len(src)
		}
		end := i + j
		k := end
		if k > i && src[k-1] == '\r' {
			k--
		}
		i = end + 1
		if k == 0 || src[k-1] != '\\' {
			return end
		}
	}
	return i
}
