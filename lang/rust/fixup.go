package rust

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/grammar"
)

// fixup is what the parser reads of a Rust file: its tokens the grammar
// does not know blanked (blankTokens), then the items macros wrap
// unwrapped (unwrapItemMacros). It returns nil when it changes nothing.
func fixup(src []byte) []byte {
	out := blankTokens(src)
	in := src
	if out != nil {
		in = out
	}
	if un := unwrapItemMacros(in); un != nil {
		return un
	}
	return out
}

// unsafeWord and externWord open Rust 2024's `unsafe extern "C" { .. }`.
var unsafeWord, externWord = []byte("unsafe"), []byte("extern")

// blankTokens blanks, outside comments and literals, the tokens the
// grammar does not know and that carry nothing sdl reads, each byte a
// space so that every offset stays: all but the last attribute of a
// function's parameter, the `unsafe` of Rust 2024's
// `unsafe extern "C" { .. }` (the grammar knows `extern "C" { .. }`
// only, and made the block's functions an error and code: alacritty's
// proc_pidinfo had the signature `unsafe extern "C" { pub fn ...`), and a
// `~` in a macro's tokens (`$(,~$notmode:expr)*`, `~BindingMode::VI`:
// alacritty's bindings.rs had 50 syntax errors). It returns nil when it
// blanks nothing.
func blankTokens(src []byte) []byte {
	attrs := paramAttrs(src)
	if bytes.IndexByte(src, '~') < 0 && !bytes.Contains(src, unsafeWord) && !attrs {
		return nil
	}
	var out []byte
	blank := func(from, to int) {
		if out == nil {
			out = bytes.Clone(src)
		}
		for k := from; k < to; k++ {
			out[k] = ' '
		}
	}
	var params []bool // the open parentheses: is each a fn's parameter list?
	last := byte(0)   // the last byte of code before i
	for i := 0; i < len(src); i++ {
		if j := skipLiteral(src, i); j != i {
			if j < 0 {
				break
			}
			if src[i] != '/' {
				last = src[j]
			}
			i = j
			continue
		}
		switch c := src[i]; {
		case lang.IsSpaceByte(c):
			continue
		case c == '~':
			blank(i, i+1)
			continue
		case c == 'u' && bytes.HasPrefix(src[i:], unsafeWord) && (i == 0 || !isIdentByte(src[i-1])) && unsafeExternBlock(src[i+len(unsafeWord):]):
			blank(i, i+len(unsafeWord))
			i += len(unsafeWord) - 1
		case isIdentByte(c):
			// the rest of a word: r in `for` opens no raw string
			for i+1 < len(src) && isIdentByte(src[i+1]) {
				i++
			}
		case c == '(' && attrs:
			params = append(params, fnParams(src, i))
		case c == ')' && len(params) > 0:
			params = params[:len(params)-1]
		case c == '#' && len(params) > 0 && params[len(params)-1] && (last == '(' || last == ','):
			// a parameter's attributes: the grammar takes one, so all
			// but the last are blanked (alacritty's Window::new has
			// #[rustfmt::skip] #[cfg(..)] x11_visual: ..); sdl reads none
			end := attrEnd(src, i)
			if end < 0 {
				break
			}
			next := end + 1
			for next < len(src) && lang.IsSpaceByte(src[next]) {
				next++
			}
			if attrEnd(src, next) < 0 {
				break
			}
			blank(i, end+1)
			i = next - 1
			continue // the parameter still starts after last
		}
		last = src[i]
	}
	return out
}

// paramAttrs reports whether src may hold an attribute of a parameter:
// a #[ after ( or , and spaces.
func paramAttrs(src []byte) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("#["))
		if j < 0 {
			return false
		}
		k := i + j - 1
		for k >= 0 && lang.IsSpaceByte(src[k]) {
			k--
		}
		if k >= 0 && (src[k] == '(' || src[k] == ',') {
			return true
		}
		i += j + 2
	}
}

// attrEnd is the offset of the ] that closes the outer attribute #[..]
// at i, or -1 when none starts there.
func attrEnd(src []byte, i int) int {
	if i+1 >= len(src) || src[i] != '#' || src[i+1] != '[' {
		return -1
	}
	return closingBracket(src, i+1)
}

// fnParams reports whether the ( at open opens a function's parameters:
// `fn name(` or `fn name<..>(`.
func fnParams(src []byte, open int) bool {
	k := open - 1
	for k >= 0 && lang.IsSpaceByte(src[k]) {
		k--
	}
	if k >= 0 && src[k] == '>' {
		depth := 0
		for ; k >= 0; k-- {
			if src[k] == '>' {
				depth++
			} else if src[k] == '<' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		k--
		for k >= 0 && (src[k] == ' ' || src[k] == '\t') {
			k--
		}
	}
	end := k + 1
	for k >= 0 && isIdentByte(src[k]) {
		k--
	}
	if k+1 == end {
		return false
	}
	for k >= 0 && lang.IsSpaceByte(src[k]) {
		k--
	}
	return k >= 1 && src[k] == 'n' && src[k-1] == 'f' && (k < 2 || !isIdentByte(src[k-2]))
}

// unsafeExternBlock reports whether rest, what follows an `unsafe`, is
// ` extern "ABI" {` or ` extern {`: a foreign block, not an
// `unsafe extern "C" fn`.
func unsafeExternBlock(rest []byte) bool {
	r := bytes.TrimLeft(rest, " \t\r\n")
	if len(r) == len(rest) || !bytes.HasPrefix(r, externWord) {
		return false
	}
	r = r[len(externWord):]
	if len(r) > 0 && isIdentByte(r[0]) {
		return false
	}
	r = bytes.TrimLeft(r, " \t\r\n")
	if len(r) > 0 && r[0] == '"' {
		e := skipString(r, 0)
		if e < 0 {
			return false
		}
		r = bytes.TrimLeft(r[e+1:], " \t\r\n")
	}
	return len(r) > 0 && r[0] == '{'
}

// itemKeywords are the words an item starts with (after its attributes,
// doc comments and visibility): what a macro body that wraps items opens
// with.
var itemKeywords = []string{"pub", "mod", "fn", "use", "impl", "struct", "enum", "union", "trait", "type", "const",
	"static", "unsafe", "async", "extern", "macro_rules"}

// unwrapItemMacros blanks a macro invocation that wraps items to gate
// them, the way tracing's feature! { #![all(feature = "fmt")] pub mod fmt; }
// and tokio's cfg_rt! { pub mod runtime; } declare whole modules: the
// line's `name! {` and its closing brace become spaces, so the grammar
// reads the items the compiler sees after the expansion, and
// `registry()` or `mod runtime` exist. Only a body that parses as Rust
// items without an error is unwrapped (lazy_static!'s static ref does: its
// statics are the file's): a DSL such as bitflags!'s struct F: u32 stays a
// macro invocation (whose types bitflags.go reads). It returns nil when it
// blanks nothing.
func unwrapItemMacros(src []byte) []byte {
	if !bytes.Contains(src, []byte("!")) {
		return nil
	}
	var out []byte
	var parser *sitter.Parser
	defer func() {
		if parser != nil {
			parser.Close()
		}
	}()
	for line := 0; line < len(src); {
		next := bytes.IndexByte(src[line:], '\n')
		if next < 0 {
			next = len(src)
		} else {
			next += line + 1
		}
		start, open := itemMacroOpen(src, line, next)
		line = next
		if open < 0 {
			continue
		}
		end := closingBrace(src, open)
		if end < 0 {
			continue
		}
		body := src[open+1 : end]
		if bytes.IndexByte(body, '$') >= 0 || !startsWithItem(body) {
			continue
		}
		if parser == nil {
			parser = sitter.NewParser()
			// the room's grammar, compact or not: the binding's own would
			// link a second copy of its tables
			g := grammar.Rust()
			grammar.Load(g)
			if parser.SetLanguage(sitter.NewLanguage(g)) != nil {
				return nil
			}
		}
		tree := parser.Parse(body, nil)
		if tree == nil {
			continue
		}
		bad := tree.RootNode().HasError()
		tree.Close()
		if bad {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		for i := start; i <= open; i++ {
			out[i] = ' '
		}
		out[end] = ' '
	}
	return out
}

// itemMacroOpen finds, on the line src[line:next], a macro invocation
// with braces that begins the line (`name! {`, `path::name!{`); it returns
// where its name starts and the offset of its opening brace, or -1.
func itemMacroOpen(src []byte, line, next int) (start, open int) {
	i := line
	for i < next && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	start = i
	for {
		j := i
		for j < next && isIdentByte(src[j]) {
			j++
		}
		if j == i || src[i] >= '0' && src[i] <= '9' {
			return start, -1
		}
		if j+1 < next && src[j] == ':' && src[j+1] == ':' {
			i = j + 2
			continue
		}
		if string(src[i:j]) == "macro_rules" {
			return start, -1
		}
		i = j
		break
	}
	if i >= next || src[i] != '!' {
		return start, -1
	}
	i++
	for i < next && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= next || src[i] != '{' {
		return start, -1
	}
	return start, i
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// startsWithItem reports whether body's first token after comments and
// attributes is one an item starts with.
func startsWithItem(body []byte) bool {
	i := 0
	for i < len(body) {
		switch {
		case body[i] == ' ' || body[i] == '\t' || body[i] == '\n' || body[i] == '\r':
			i++
		case bytes.HasPrefix(body[i:], []byte("//")):
			nl := bytes.IndexByte(body[i:], '\n')
			if nl < 0 {
				return false
			}
			i += nl + 1
		case bytes.HasPrefix(body[i:], []byte("/*")):
			e := bytes.Index(body[i+2:], []byte("*/"))
			if e < 0 {
				return false
			}
			i += e + 4
		case body[i] == '#':
			// #[attr] or #![attr]
			j := i + 1
			if j < len(body) && body[j] == '!' {
				j++
			}
			if j >= len(body) || body[j] != '[' {
				return false
			}
			e := closingBracket(body, j)
			if e < 0 {
				return false
			}
			i = e + 1
		default:
			j := i
			for j < len(body) && isIdentByte(body[j]) {
				j++
			}
			word := string(body[i:j])
			for _, k := range itemKeywords {
				if word == k {
					return true
				}
			}
			return false
		}
	}
	return false
}

// closingBracket finds the ] that closes the [ at open, or -1.
func closingBracket(b []byte, open int) int {
	depth := 0
	for i := open; i < len(b); i++ {
		switch b[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		case '"':
			i = skipString(b, i)
			if i < 0 {
				return -1
			}
		}
	}
	return -1
}

// closingBrace finds the } that closes the { at open, skipping comments,
// strings and character literals, or -1.
func closingBrace(b []byte, open int) int {
	depth := 0
	for i := open; i < len(b); i++ {
		switch b[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		default:
			if i = skipLiteral(b, i); i < 0 {
				return -1
			}
		}
	}
	return -1
}

// skipLiteral returns the offset of the last byte of the comment, string
// or character literal that starts at i, i when none does, or -1 when it
// does not end.
func skipLiteral(b []byte, i int) int {
	switch c := b[i]; {
	case c == '/' && i+1 < len(b) && b[i+1] == '/':
		nl := bytes.IndexByte(b[i:], '\n')
		if nl < 0 {
			return -1
		}
		return i + nl
	case c == '/' && i+1 < len(b) && b[i+1] == '*':
		// block comments nest
		d := 0
		j := i
		for ; j+1 < len(b); j++ {
			if b[j] == '/' && b[j+1] == '*' {
				d++
				j++
			} else if b[j] == '*' && b[j+1] == '/' {
				d--
				j++
				if d == 0 {
					break
				}
			}
		}
		if d != 0 {
			return -1
		}
		return j
	case c == 'r' && i+1 < len(b) && (b[i+1] == '#' || b[i+1] == '"') && (i == 0 || !isIdentByte(b[i-1])):
		// r"..." and r#"..."#
		j := i + 1
		hashes := 0
		for j < len(b) && b[j] == '#' {
			hashes++
			j++
		}
		if j >= len(b) || b[j] != '"' {
			return i // r#ident
		}
		closer := append([]byte{'"'}, bytes.Repeat([]byte{'#'}, hashes)...)
		e := bytes.Index(b[j+1:], closer)
		if e < 0 {
			return -1
		}
		return j + 1 + e + len(closer) - 1
	case c == '"':
		return skipString(b, i)
	case c == '\'':
		// a character literal ('x', '\n', '\u{1F600}'), else a lifetime
		if i+2 < len(b) && b[i+1] == '\\' {
			e := bytes.IndexByte(b[i+2:], '\'')
			if e < 0 {
				return -1
			}
			return i + 2 + e
		} else if i+2 < len(b) && b[i+2] == '\'' {
			return i + 2
		} else if i+1 < len(b) && b[i+1] >= 0x80 {
			// a multi-byte character
			if e := bytes.IndexByte(b[i+1:min(len(b), i+6)], '\''); e >= 0 {
				return i + 1 + e
			}
		}
	}
	return i
}

// skipString returns the offset of the " that closes the string opening
// at i, or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}
