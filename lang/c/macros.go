package c

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"strings"

	"github.com/sdl-dev/sdl/lang"
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
type macroCond uint16

const (
	condBeforeName  macroCond = 1 << iota // the next token is a name
	condBeforeColon                       // the next token is ":" (not "::")
	condBeforeSemi                        // the next token is ";"
	condBeforeBrace                       // the next token is "{"
	condAfterAccess                       // the previous token is public, private or protected
	condAfterParen                        // the previous token is ")", outside code
	condLineStart                         // the first token of its line
	condAlone                             // the only token of its line (with its arguments)
	condInRecord                          // directly in the body of a struct, union or class
	condDeclaration                       // outside code, its arguments end in a parameter list and ";" or "{" follows
	condOutside                           // at file or namespace level, not before a function's name
)

// where a name is, for the conditions [in record] and [outside]
const (
	inRecord = 1 + iota // directly in a struct, union or class body
	outside             // at file level or in a namespace or extern "C" block
)

var macroConds = map[string]macroCond{
	"before name": condBeforeName, "before :": condBeforeColon, "before ;": condBeforeSemi, "before {": condBeforeBrace,
	"after access": condAfterAccess, "after )": condAfterParen, "line start": condLineStart,
	"alone": condAlone, "in record": condInRecord, "declaration": condDeclaration, "outside": condOutside,
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
	// cplusplus: the language defines __cplusplus (it decides which
	// branch of "#ifdef __cplusplus" is read)
	cplusplus bool
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
		if line == "" || strings.IndexFunc(line, func(c rune) bool { return !(c == '*' || c < 0x80 && lang.IsIdentByte(byte(c))) }) >= 0 {
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
	// attributes, do not apply inside them: "if (x) LOG_ERROR(y);" stays.
	// Braces opened after "struct Name" (union, class) hold members.
	var braces []braceKind
	code := 0
	head := braceOther // braceRecord or braceEnum since struct, union, class or enum, through a head's tokens (names, ":", ",", "<", ">")
	eq := false        // the previous token was "="
	var calls []bool   // per open parenthesis: it opened a call's arguments
	argStart := false  // the previous token opened a call's argument
	depth := 0         // of parentheses
	var skips [][2]int // ranges of flattened groups to pass over, in order
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
			if len(skips) > 0 && skips[0][0] == i {
				// a directive, or a branch not read, of a flattened group
				i, skips = skips[0][1], skips[1:]
				continue
			}
			end := skipDirective(src, i)
			kw := directiveName(src[i:end])
			if kw == "if" || kw == "ifdef" || kw == "ifndef" {
				inInit := len(braces) > 0 && braces[len(braces)-1] == braceInit
				if g := scanCondGroup(src, i); g != nil && (g.flatten(depth > 0 || inInit) || g.decided(m.cplusplus) != -2 && bytes.Contains(g.cond, []byte("__cplusplus"))) {
					if &out[0] == &src[0] {
						out = append([]byte(nil), src...)
					}
					r := g.blankOthers(out, m.cplusplus)
					skips = append(r, skips...) // an inner group ends before the outer's next directive
					continue
				}
			}
			if kw == "define" && bytes.Contains(src[i:end], []byte("*/")) {
				out = blankDefineComments(src, out, i, end)
			}
			if kw == "if" || kw == "elif" {
				out = blankIncludeArgs(src, out, i, end)
			}
			i = end
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
			for j < len(src) && lang.IsIdentByte(src[j]) && src[j] != '$' {
				j++
			}
			name := src[i:j]
			if argStart && code > 0 && typeArg(src, j) {
				// "container_of(w, struct uv__work, wq)": a macro's argument
				// that names a type is no expression; its name alone is
				if &out[0] == &src[0] {
					out = append([]byte(nil), src...)
				}
				fillBlank(out[i:j], "")
				i, argStart = j, false
				continue
			}
			argStart = false
			where := 0
			switch {
			case len(braces) > 0 && braces[len(braces)-1] == braceRecord:
				where = inRecord
			case depth == 0 && (len(braces) == 0 || braces[len(braces)-1] == braceOther):
				where = outside
			}
			if end, repl, ok := m.match(src, i, j, name, prev, paren && code == 0, lineStart, where, code > 0); ok {
				if &out[0] == &src[0] {
					out = append([]byte(nil), src...)
				}
				if repl == unwrap {
					// the name and its parentheses go; the arguments are read
					open := skipSpace(src, j)
					fillBlank(out[i:open+1], "")
					fillBlank(out[end-1:end], "")
					i = open + 1
					continue
				}
				fillBlank(out[i:end], repl)
				if repl == "" {
					i = end // as if it were not there: what came before still holds
					continue
				}
				j = end
			}
			switch string(name) {
			case "enum":
				head = braceEnum
			case "struct", "union", "class":
				if head != braceEnum { // not "enum class"
					head = braceRecord
				}
			}
			prev, paren, lineStart, eq = name, false, false, false
			i = j
			continue
		case c == '{':
			switch {
			case paren:
				braces = append(braces, braceCode)
				code++
			case head != braceOther:
				braces = append(braces, head)
			case eq || len(braces) > 0 && braces[len(braces)-1] == braceInit:
				braces = append(braces, braceInit)
			default:
				braces = append(braces, braceOther)
			}
			i++
		case c == '}':
			if n := len(braces); n > 0 {
				if braces[n-1] == braceCode {
					code--
				}
				braces = braces[:n-1]
			}
			i++
		case head != braceOther && (c == ':' || c == ',' || c == '<' || c == '>'):
			i++
			continue // a record's head goes on: "class A : public B<C> {"
		case c == '(':
			depth++
			call := prev != nil && !notCall[string(prev)]
			calls = append(calls, call)
			prev, paren, lineStart, head, eq, argStart = nil, false, false, braceOther, false, call
			i++
			continue
		case c == ')':
			if depth > 0 {
				depth--
			}
			if n := len(calls); n > 0 {
				calls = calls[:n-1]
			}
			i++
		case c == ',' && len(calls) > 0 && calls[len(calls)-1]:
			prev, paren, lineStart, head, eq, argStart = nil, false, false, braceOther, false, true
			i++
			continue
		case c >= '0' && c <= '9':
			for i < len(src) && lang.IsIdentByte(src[i]) {
				i++
			}
		default:
			i++
		}
		prev, paren, lineStart = nil, c == ')', false
		head, eq = braceOther, c == '='
	}
	return out
}

// blankIncludeArgs blanks the argument of a call in the #if or #elif line
// at src[from:to] that names a header, <name> or "name", in out (a copy of
// src once it differs) and returns out: tree-sitter reads
// __has_include(<version>) only under that name, not under a library's
// FMT_HAS_INCLUDE(<string_view>), and its #if or #elif node was a syntax
// error that swallowed the branch.
func blankIncludeArgs(src, out []byte, from, to int) []byte {
	for k := from; k < to; k++ {
		if src[k] != '(' {
			continue
		}
		a := k + 1
		for a < to && (src[a] == ' ' || src[a] == '\t') {
			a++
		}
		if a >= to || src[a] != '<' && src[a] != '"' {
			continue
		}
		end := bytes.IndexByte(src[a+1:to], ')')
		if end < 0 {
			return out
		}
		end += a + 1
		if &out[0] == &src[0] {
			out = append([]byte(nil), src...)
		}
		fillBlank(out[k+1:end], "")
		k = end
	}
	return out
}

// blankDefineComments blanks the block comments of the multi-line #define
// at src[from:to] in out (a copy of src once it differs) and returns out:
// tree-sitter-c ends the macro at the second comment of its continuation
// lines and reads the rest as code, which made libuv's uv.h one syntax
// error from its first line ("#define UV_REQ_FIELDS \ /* public */ \
// void* data; \ /* read-only */ \ ...").
func blankDefineComments(src, out []byte, from, to int) []byte {
	if !bytes.Contains(src[from:to], []byte("\\\n")) && !bytes.Contains(src[from:to], []byte("\\\r\n")) {
		return out
	}
	for k := from; k < to; {
		switch {
		case src[k] == '"' || src[k] == '\'':
			k = skipQuoted(src, k)
		case src[k] == '/' && k+1 < to && src[k+1] == '*':
			e := bytes.Index(src[k+2:to], []byte("*/"))
			if e < 0 {
				return out
			}
			if &out[0] == &src[0] {
				out = append([]byte(nil), src...)
			}
			fillBlank(out[k:k+2+e+2], "")
			k += e + 4
		default:
			k++
		}
	}
	return out
}

// notCall are the words before a parenthesis that opens no call: the
// operators that take a type, and statements.
var notCall = map[string]bool{"sizeof": true, "alignof": true, "_Alignof": true, "__alignof__": true, "offsetof": true,
	"__builtin_offsetof": true, "va_arg": true, "__builtin_va_arg": true, "typeof": true, "__typeof__": true, "_Generic": true,
	"__builtin_types_compatible_p": true, "if": true, "while": true, "for": true, "switch": true, "return": true}

// typeArg reports whether the word ending at src[j] is struct, union or
// enum and, with the name after it, the whole argument: a name, then ","
// or ")".
func typeArg(src []byte, j int) bool {
	i := j
	for i > 0 && lang.IsIdentByte(src[i-1]) {
		i--
	}
	if w := string(src[i:j]); w != "struct" && w != "union" && w != "enum" {
		return false
	}
	k := skipSpace(src, j)
	n := k
	for k < len(src) && lang.IsIdentByte(src[k]) {
		k++
	}
	if k == n {
		return false
	}
	k = skipSpace(src, k)
	return k < len(src) && (src[k] == ',' || src[k] == ')')
}

// braceKind tells what a brace opened.
type braceKind uint8

const (
	braceOther  braceKind = iota
	braceCode             // a function body or a block
	braceRecord           // the members of a struct, union or class
	braceEnum             // the enumerators of an enum
	braceInit             // an initializer: "= {", and the braces inside it
)

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// match finds the rule for the name at src[i:j] and returns where the text
// it replaces ends and its replacement.
func (m *macroSet) match(src []byte, i, j int, name, prev []byte, paren, lineStart bool, where int, inCode bool) (int, string, bool) {
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
		if r.cond&(condLineStart|condAlone) != 0 && !lineStart || r.cond&condAlone != 0 && !lineEnd(src, end) {
			return 0, "", false
		}
		if r.cond&condInRecord != 0 && where != inRecord {
			return 0, "", false
		}
		if r.cond&condOutside != 0 && (where != outside || gnuReturnType(src, end)) {
			return 0, "", false
		}
		if r.cond&condDeclaration != 0 && (inCode || !r.args || !wrapsDeclaration(src, skipSpace(src, j), end)) {
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

// unwrap is the replacement "...": the macro stands for its arguments.
const unwrap = "..."

// wrapsDeclaration reports whether the parenthesised arguments at
// src[open:end] hold a function's declaration, its parameter list last,
// and ";" or "{" follows them: "UV_UNUSED(static int uv__stat(const char*
// path)) {".
func wrapsDeclaration(src []byte, open, end int) bool {
	args := bytes.TrimSpace(src[open+1 : end-1])
	if len(args) < 3 || args[len(args)-1] != ')' || !isIdentStart(args[0]) || bytes.IndexByte(args, '(') < 0 {
		return false
	}
	k := skipSpace(src, end)
	return k < len(src) && (src[k] == ';' || src[k] == '{')
}

// gnuReturnType reports whether the line after src[end] starts with a name
// and "(", or with "{": the macro is then a return type written on its own
// line, GNU style ("static GType\ngtk_widget_get_type (void)"), or the
// head of a definition, not a declaration of its own. A macro name and
// "(" count only when a body follows.
func gnuReturnType(src []byte, end int) bool {
	k := skipSpace(src, end)
	if k < len(src) && src[k] == '{' {
		return true // a test macro's body: "TEST_IMPL(name)\n{"
	}
	n := k
	for k < len(src) && lang.IsIdentByte(src[k]) {
		k++
	}
	if k == n {
		return false
	}
	macro := upperName(src[n:k])
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	if k >= len(src) || src[k] != '(' {
		return false
	}
	if !macro {
		return true
	}
	// another macro: a definition's head when a body follows its
	// arguments (jemalloc's "TEST_END\n\nTEST_BEGIN(test_x) {", which the
	// grammar reads as one definition), else a declaration of its own
	// ("FMT_MODULE_EXPORT_BEGIN\nFMT_GCC_PRAGMA(...)")
	e := closeParen(src, k)
	if e < 0 {
		return false
	}
	e = skipSpace(src, e)
	return e < len(src) && src[e] == '{'
}

// lineEnd reports whether only blanks or a comment follow src[i] on its
// line.
func lineEnd(src []byte, i int) bool {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
		i++
	}
	return i == len(src) || src[i] == '\n' || src[i] == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*')
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

// Conditional compilation. tree-sitter parses "#if ... #else ... #endif"
// as a node of its own, which works where each branch is a whole
// declaration or statement, and fails where a branch opens a brace the
// other closes, or sits inside an expression or an argument list. There,
// as ctags does, only one branch is read: the first, or the one a
// condition sdl can decide selects ("#if 0", "#ifdef __cplusplus"); the
// directives and the other branches become spaces. A group on
// __cplusplus is always read so: a C header's C++ branch ("extern "C++"
// { ... static_cast<T>(x) ... }", libuv's uv.h) is no C, and the C
// compiler never sees it.

// condGroup is one "#if" to its "#endif" at one nesting level.
type condGroup struct {
	lines  [][2]int // the directive lines: #if, #elif/#else..., #endif (offsets of start and end)
	parens []int    // per branch: parentheses opened minus closed
	braces []int    // per branch: braces opened minus closed
	cond   []byte   // the text of the #if line
}

// directiveName returns the keyword of a directive line ("if", "endif").
func directiveName(line []byte) string {
	l := bytes.TrimLeft(line, " \t")
	if len(l) == 0 || l[0] != '#' {
		return ""
	}
	l = bytes.TrimLeft(l[1:], " \t")
	n := 0
	for n < len(l) && (l[n] >= 'a' && l[n] <= 'z') {
		n++
	}
	return string(l[:n])
}

// maxCondGroup bounds the bytes a group is scanned for its #endif.
const maxCondGroup = 1 << 20

// scanCondGroup reads the group whose #if line starts at src[i], or
// returns nil when it has no #endif.
func scanCondGroup(src []byte, i int) *condGroup {
	end := skipDirective(src, i)
	g := &condGroup{lines: [][2]int{{i, end}}, cond: src[i:end], parens: []int{0}, braces: []int{0}}
	nest := 0
	lineStart := false
	for k := end; k < len(src) && k-i < maxCondGroup; {
		c := src[k]
		switch {
		case c == '\n':
			lineStart = true
			k++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			k++
			continue
		case c == '#' && lineStart:
			e := skipDirective(src, k)
			switch directiveName(src[k:e]) {
			case "if", "ifdef", "ifndef":
				nest++
			case "elif", "else", "elifdef", "elifndef":
				if nest == 0 {
					g.lines = append(g.lines, [2]int{k, e})
					g.parens, g.braces = append(g.parens, 0), append(g.braces, 0)
				}
			case "endif":
				if nest == 0 {
					g.lines = append(g.lines, [2]int{k, e})
					return g
				}
				nest--
			}
			k = e
			continue
		case c == '/' && k+1 < len(src) && src[k+1] == '/':
			for k < len(src) && src[k] != '\n' {
				k++
			}
			continue
		case c == '/' && k+1 < len(src) && src[k+1] == '*':
			if j := bytes.Index(src[k+2:], []byte("*/")); j >= 0 {
				k += j + 4
			} else {
				k = len(src)
			}
			continue
		case c == '"' || c == '\'':
			k = skipQuoted(src, k)
		case c == '(' || c == ')' || c == '{' || c == '}':
			d := 1
			if c == ')' || c == '}' {
				d = -1
			}
			b := len(g.parens) - 1
			if c == '(' || c == ')' {
				g.parens[b] += d
			} else {
				g.braces[b] += d
			}
			k++
		default:
			k++
		}
		lineStart = false
	}
	return nil
}

// decided returns 0 when the group's condition is one sdl can evaluate
// and holds, -1 when it does not hold (then the #else branch, if there is
// one and no #elif, is read), or -2 when sdl cannot tell.
func (g *condGroup) decided(cplusplus bool) int {
	cond := string(bytes.Join(bytes.Fields(g.cond), []byte(" ")))
	cond = strings.TrimPrefix(strings.Replace(cond, "# ", "#", 1), "#")
	if i := strings.Index(cond, "//"); i >= 0 {
		cond = strings.TrimSpace(cond[:i])
	}
	if i := strings.Index(cond, "/*"); i >= 0 {
		cond = strings.TrimSpace(cond[:i])
	}
	var truth bool
	switch cond {
	case "if 0":
		truth = false
	case "if 1":
		truth = true
	case "ifdef __cplusplus", "if defined(__cplusplus)", "if defined __cplusplus":
		truth = cplusplus
	case "ifndef __cplusplus", "if !defined(__cplusplus)", "if !defined __cplusplus":
		truth = !cplusplus
	default:
		return -2
	}
	if truth {
		return 0
	}
	return -1
}

// flatten reports whether the group is read as one branch: where a branch
// leaves braces or parentheses open, or where the group sits inside
// parentheses.
func (g *condGroup) flatten(inParens bool) bool {
	if inParens {
		return true
	}
	for b := range g.parens {
		if g.parens[b] != 0 || g.braces[b] != 0 {
			return true
		}
	}
	return false
}

// blankOthers turns the group's directives and all branches but the one
// read into spaces in out, and returns the ranges it blanked, in order.
func (g *condGroup) blankOthers(out []byte, cplusplus bool) [][2]int {
	keep := 0
	if d := g.decided(cplusplus); d != -2 {
		keep = d
		if d == -1 && len(g.lines) == 3 && directiveName(out[g.lines[1][0]:g.lines[1][1]]) == "else" {
			keep = 1 // "#if 0 ... #else ... #endif": the #else branch
		}
	}
	var blanked [][2]int
	for b := 0; b+1 < len(g.lines); b++ {
		from, to := g.lines[b][0], g.lines[b][1]
		if b != keep {
			to = g.lines[b+1][0] // the directive and its branch
		}
		fillBlank(out[from:to], "")
		blanked = append(blanked, [2]int{from, to})
	}
	last := g.lines[len(g.lines)-1]
	fillBlank(out[last[0]:last[1]], "")
	return append(blanked, last)
}
