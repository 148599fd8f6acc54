package csharp

import (
	"bytes"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// Conditional compilation. tree-sitter-c-sharp reads "#if ... #else ...
// #endif" only where each branch is whole members or statements. Where a
// branch ends inside a construct (a method header whose two signatures
// share one body, a base list, an attribute list, an initializer) the file
// becomes a string of syntax errors and its types are lost: serilog's
// "#if FEATURE_SPAN" around a signature left every method of the class a
// top-level function. There, as lang/c and ctags do, only the first branch
// is read: the directives and the other branches become spaces, so every
// offset, line and column stays exact.

// fixup returns src with the conditional groups that split a construct
// flattened to their first branch, and the directives of a file-based app
// blanked; it copies src only when it changes it.
func fixup(src []byte) []byte {
	src = appDirectives(src)
	if !bytes.Contains(src, []byte("#if")) {
		return src
	}
	out := src
	// open holds, per unclosed group, the line offsets of its directives
	// (#if, #elif/#else..., and at last #endif)
	var open [][][2]int
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		line := [2]int{i, end}
		switch directive(src[i:end]) {
		case "if":
			open = append(open, [][2]int{line})
		case "elif", "else":
			if len(open) > 0 {
				open[len(open)-1] = append(open[len(open)-1], line)
			}
		case "endif":
			if len(open) > 0 {
				g := append(open[len(open)-1], line)
				open = open[:len(open)-1]
				if splits(src, g) {
					if len(out) > 0 && &out[0] == &src[0] {
						out = append([]byte(nil), src...)
					}
					blankOthers(out, g)
				}
			}
		}
		i = end + 1
	}
	return out
}

// appDirectives returns src with the lines that open a file-based app
// (.NET 10's "dotnet run app.cs") blanked: a "#!" shebang and the "#:sdk",
// "#:package", "#:property" directives, which the grammar does not know
// (Polly's cake.cs was a syntax error from its first line).
func appDirectives(src []byte) []byte {
	body := bytes.TrimPrefix(src, []byte("\xEF\xBB\xBF"))
	if !bytes.HasPrefix(body, []byte("#!")) && !bytes.HasPrefix(body, []byte("#:")) {
		return src
	}
	out := append([]byte(nil), src...)
	first := len(src) - len(body)
	for i := first; i < len(out); {
		end := bytes.IndexByte(out[i:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += i
		}
		line := bytes.TrimRight(out[i:end], "\r")
		switch {
		case bytes.HasPrefix(line, []byte("#:")) || i == first && bytes.HasPrefix(line, []byte("#!")):
			for k := range line {
				line[k] = ' '
			}
		case len(bytes.TrimSpace(line)) > 0 && !bytes.HasPrefix(bytes.TrimSpace(line), []byte("//")):
			return out // the directives come before any code
		}
		i = end + 1
	}
	return out
}

// directive returns the keyword of a preprocessor line ("if", "endif"), or
// "" for any other line.
func directive(line []byte) string {
	l := bytes.TrimLeft(line, " \t")
	if len(l) == 0 || l[0] != '#' {
		return ""
	}
	l = bytes.TrimLeft(l[1:], " \t")
	n := 0
	for n < len(l) && l[n] >= 'a' && l[n] <= 'z' {
		n++
	}
	return string(l[:n])
}

// splits reports whether the group sits inside a construct: the code
// before its #if, or a branch, ends with a character other than the ";" or
// "}" that ends a member or a statement (or the "{" that opens a body,
// before the #if). Comments, directives and empty branches do not count.
func splits(src []byte, g [][2]int) bool {
	if c := lastCodeBefore(src, g[0][0]); c != 0 && c != ';' && c != '}' && c != '{' {
		return true // "Task F()\n#if X\n{ ... }\n#else\n;\n#endif"
	}
	for b := 0; b+1 < len(g); b++ {
		if c := lastCode(src[g[b][1]:g[b+1][0]]); c != 0 && c != ';' && c != '}' {
			return true
		}
	}
	return false
}

// lastCode returns the last character of code in a branch, or 0 when it
// has none. A "//" is a comment unless an odd number of quotes before it
// on its line puts it in a string ("http://...").
func lastCode(branch []byte) byte {
	var last byte
	for _, line := range bytes.Split(branch, []byte("\n")) {
		if directive(line) != "" {
			continue
		}
		if k := bytes.Index(line, []byte("//")); k >= 0 && bytes.Count(line[:k], []byte(`"`))%2 == 0 {
			line = line[:k]
		}
		if l := bytes.TrimRight(line, " \t\r"); len(l) > 0 {
			last = l[len(l)-1]
		}
	}
	return last
}

// lastCodeBefore returns the last character of code in the lines before
// offset i, or 0 when there is none.
func lastCodeBefore(src []byte, i int) byte {
	for i > 0 {
		from := bytes.LastIndexByte(src[:i-1], '\n') + 1
		if c := lastCode(src[from:i]); c != 0 {
			return c
		}
		i = from
	}
	return 0
}

// blankOthers turns the group's directive lines and every branch but the
// first into spaces in out, keeping the newlines.
func blankOthers(out []byte, g [][2]int) {
	lang.Blank(out[g[0][0]:g[0][1]])
	lang.Blank(out[g[1][0]:g[len(g)-1][1]])
}

// sigStart is where the signature of declaration n starts: after the
// attribute lists that lead it, which its modifiers name already
// (eShop's "[ProducesResponseType<byte[]>(..., [ "image/png", ... ])]"
// crowded the signature of GetItemPictureById out of its card).
func sigStart(t *lang.Tree, n int32) uint32 {
	start := t.Nodes[n].StartByte
	for ch := range t.Children(n) {
		if k := t.Kind(ch); k != "attribute_list" && k != "comment" {
			break
		}
		start = t.Nodes[ch].EndByte
	}
	return start
}

// headerText is x.HeaderText from after the attributes (sigStart), the
// declaration's source up to its body on one line, read as the parser read
// it when a conditional group split the header: the first branch, without
// the directives.
func headerText(x *lang.Extractor, node, body int32) string {
	t := x.Tree
	start := sigStart(t, node)
	h := x.HeaderTextFrom(node, start, body)
	if !strings.Contains(h, "#") {
		return h
	}
	end := t.Nodes[node].EndByte
	if body >= 0 {
		end = t.Nodes[body].StartByte
	}
	var b []byte
	depth := 0
	skipFrom := -1 // the depth of the group whose branch is not read, -1 when reading
	for _, line := range bytes.SplitAfter(t.Src[start:max(start, end)], []byte("\n")) {
		switch directive(line) {
		case "":
			if skipFrom < 0 {
				b = append(b, line...)
			}
		case "if":
			depth++
		case "elif", "else":
			if skipFrom < 0 {
				skipFrom = depth
			}
		case "endif":
			if skipFrom == depth {
				skipFrom = -1
			}
			depth--
		}
	}
	return strings.TrimSpace(lang.OneLine(string(b)))
}
