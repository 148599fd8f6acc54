// Package c is sdl's room for C and C++, which share one walker (the
// C++ grammar extends the C one): functions, types, namespaces, includes,
// macros read as the preprocessor would, guards and side effects;
// resolution through includes, namespaces, usings and base classes; a .h
// header parsed as C++ when its content says so (Walker.Pick); and the
// skeleton rules of braced bodies.
package c

import (
	"bytes"
	"embed"
	"path"
	"strings"
	"sync"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/grammar"
)

// C and C++ share one walker: the C++ grammar extends the C one, so a C
// tree is a C++ tree without the C++ node kinds.
//
// What .h means: a .h file is C unless its content uses C++ syntax
// (namespaces, classes with access sections, templates, "::", extension-less
// standard headers such as <vector>); then it is parsed with the C++
// grammar (Walker.Pick), and recorded as C++. Where the content does not
// tell, the repository does (Repo.ForPath): a header among C++ sources is
// C++.
// Extension-based alone would mis-parse the .h headers of most C++
// projects (LevelDB, LLVM, Qt all use .h), and a repository-wide switch
// would mis-parse the C headers of mixed repositories; the content and the
// nearest sources tell.
// data holds the data files C and C++ share: test-path patterns, side
// effects and word lists.
//
//go:embed *.txt
var data embed.FS

func init() {
	// the macro lists are read at the first C or C++ file, not by every
	// process at start-up
	macros := sync.OnceValues(func() (c, cpp *macroSet) {
		c, cpp = loadMacros("c.txt"), loadMacros("c.txt", "cpp.txt")
		cpp.cplusplus = true
		return c, cpp
	})
	// Pick runs at parse time, when both are registered
	var c, cpp *lang.Language
	c = lang.RegisterWalker(lang.Walker{
		Name:          "c",
		Extensions:    []string{".c", ".h"},
		Grammar:       grammar.C(),
		Comments:      []string{"comment"},
		Strings:       []string{"string_literal", "char_literal", "system_lib_string"},
		Idents:        []string{"identifier", "field_identifier", "type_identifier", "statement_identifier"},
		Data:          data,
		Builtins:      builtins,
		Extract:       extract,
		Resolve:       resolve,
		ResolveImport: resolveImport,
		Skeleton:      skeleton(),
		Pick: func(filePath string, src []byte) (*lang.Language, []byte) {
			cMacros, cppMacros := macros()
			// a .c file is C (as linguist has it); a header may hold C++
			if (filePath == "" || isHeader(filePath)) && looksLikeCpp(src) {
				return cpp, cppMacros.blank(blankExportMacros(namespaceMacros(src)))
			}
			return c, cMacros.blank(blankExportMacros(src))
		},
	})
	cpp = lang.RegisterWalker(lang.Walker{
		Name: "cpp",
		Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++",
			".ipp", ".tpp"},
		Grammar:       grammar.CPP(),
		Comments:      []string{"comment"},
		Strings:       []string{"string_literal", "char_literal", "system_lib_string", "raw_string_literal"},
		Idents:        []string{"identifier", "field_identifier", "type_identifier", "statement_identifier", "namespace_identifier"},
		Data:          data,
		Builtins:      builtins,
		Extract:       extract,
		Resolve:       resolve,
		ResolveImport: resolveImport,
		Skeleton:      skeleton(),
		Pick: func(_ string, src []byte) (*lang.Language, []byte) {
			_, cppMacros := macros()
			return cpp, cppMacros.blank(blankExportMacros(namespaceMacros(src)))
		},
	})
}

// blankExportMacros blanks the macro of "class EXPORT_MACRO Name {" (and
// struct, union): libraries mark their exported types so, and the grammar,
// which cannot expand macros, would read EXPORT_MACRO as the type's name
// and lose the declaration. Spaces keep every offset; the source is copied
// only when it has such a macro.
func blankExportMacros(src []byte) []byte {
	out := src
	for _, kw := range []string{"class ", "struct ", "union "} {
		for off := 0; ; {
			i := bytes.Index(src[off:], []byte(kw))
			if i < 0 {
				break
			}
			i += off
			off = i + len(kw)
			if i > 0 && lang.IsIdentByte(src[i-1]) {
				continue
			}
			j := off
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			m := j
			for j < len(src) && (src[j] >= 'A' && src[j] <= 'Z' || src[j] == '_' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			if j-m < 3 || j < len(src) && lang.IsIdentByte(src[j]) {
				continue // not an upper-case macro name
			}
			k := j
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			n := k
			for k < len(src) && lang.IsIdentByte(src[k]) {
				k++
			}
			if k == n || k-n == 5 && string(src[n:k]) == "final" {
				continue
			}
			for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
				k++
			}
			if k >= len(src) || src[k] != '{' && src[k] != ':' && !bytes.HasPrefix(src[k:], []byte("final")) {
				continue
			}
			if &out[0] == &src[0] {
				out = append([]byte(nil), src...)
			}
			for x := m; x < j; x++ {
				out[x] = ' '
			}
		}
	}
	return out
}

// namespaceMacros blanks a line that holds only a macro opening or closing
// a library's namespace (NLOHMANN_JSON_NAMESPACE_BEGIN, FMT_BEGIN_NAMESPACE,
// ABSL_NAMESPACE_END, PROTOBUF_NAMESPACE_OPEN), as macros/cpp.txt blanks
// QT_BEGIN_NAMESPACE: the grammar, which cannot expand it, otherwise reads
// the first declaration after it as an error and loses it (41 of
// nlohmann/json's 54 headers). The namespace's name is usually defined in
// another header, so its declarations read as top-level ones; an anonymous
// namespace in its place would make them file-local. Spaces keep every
// offset; the source is copied only when it has such a line.
func namespaceMacros(src []byte) []byte {
	if !bytes.Contains(src, []byte("NAMESPACE")) {
		return src
	}
	out := src
	off := 0
	for line := range bytes.Lines(src) {
		start := off
		off += len(line)
		trimmed := bytes.TrimLeft(line, " \t")
		word := bytes.TrimRight(trimmed, " \t\r\n;")
		if namespaceMacro(word) {
			if &out[0] == &src[0] {
				out = append([]byte(nil), src...)
			}
			i := start + len(line) - len(trimmed)
			for x := i; x < i+len(word); x++ {
				out[x] = ' '
			}
		}
	}
	return out
}

// namespaceMacro tells whether word is an upper-case macro name that opens
// or closes a namespace: it holds NAMESPACE and one of BEGIN, OPEN, START,
// END or CLOSE.
func namespaceMacro(word []byte) bool {
	if len(word) < len("NAMESPACE_END") || !bytes.Contains(word, []byte("NAMESPACE")) {
		return false
	}
	for _, b := range word {
		if !(b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_') {
			return false
		}
	}
	for _, w := range []string{"BEGIN", "OPEN", "START", "END", "CLOSE"} {
		if bytes.Contains(word, []byte(w)) {
			return true
		}
	}
	return false
}

// headerExts are the extensions of headers: their prototypes are symbols
// (the API, with its documentation), and resolution prefers a definition
// in a source file to a declaration in a header.
var headerExts = map[string]bool{".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".h++": true}

func isHeader(p string) bool { return headerExts[strings.ToLower(path.Ext(p))] }

// looksLikeCpp reports whether C-named source holds C++: a line that opens
// a namespace, declares a template, a class or a scoped enum, starts an
// access section, a using directive, a constexpr declaration or a try or
// catch block, includes a standard C++ header (<vector>, <cstdio>), tests
// __cplusplus against a version, or code (not a comment) that uses "::".
// These are GitHub linguist's C++ markers for .h files (heuristics.yml,
// named pattern "cpp"), a few of them widened.
func looksLikeCpp(src []byte) bool {
	inBlock := false
	for len(src) > 0 {
		var line []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			line, src = src, nil
		}
		l := bytes.TrimLeft(line, " \t")
		if inBlock {
			i := bytes.Index(l, []byte("*/"))
			if i < 0 {
				continue
			}
			inBlock = false
			l = bytes.TrimLeft(l[i+2:], " \t")
		}
		if len(l) == 0 || l[0] == '/' && len(l) > 1 && l[1] == '/' {
			continue
		}
		if bytes.HasPrefix(l, []byte("/*")) {
			if !bytes.Contains(l[2:], []byte("*/")) {
				inBlock = true
			}
			continue
		}
		if l[0] == '*' {
			continue // the middle of a block comment
		}
		if lineMarker(l) {
			return true
		}
	}
	return false
}

func lineMarker(l []byte) bool {
	word := func(w string) bool {
		return bytes.HasPrefix(l, []byte(w)) && (len(l) == len(w) || !lang.IsIdentByte(l[len(w)]))
	}
	switch {
	case word("namespace"), word("template") && bytes.HasPrefix(bytes.TrimLeft(l[8:], " \t"), []byte("<")),
		word("using") && bytes.Contains(l, []byte("namespace")),
		word("constexpr"), word("enum") && (nextWord(l[4:], "class") || nextWord(l[4:], "struct")),
		word("try") && (len(bytes.TrimSpace(l[3:])) == 0 || bytes.HasPrefix(bytes.TrimLeft(l[3:], " \t"), []byte("{"))),
		word("catch") && bytes.HasPrefix(bytes.TrimLeft(l[5:], " \t"), []byte("(")),
		word("public") && bytes.HasPrefix(bytes.TrimLeft(l[6:], " \t"), []byte(":")),
		word("private") && bytes.HasPrefix(bytes.TrimLeft(l[7:], " \t"), []byte(":")),
		word("protected") && bytes.HasPrefix(bytes.TrimLeft(l[9:], " \t"), []byte(":")),
		bytes.HasPrefix(l, []byte(`extern "C++"`)):
		return true
	case word("class"):
		// class Name { / class Name : / class Name; (C has no classes; a
		// variable named class would be followed by an operator)
		rest := bytes.TrimLeft(l[5:], " \t")
		n := 0
		for n < len(rest) && lang.IsIdentByte(rest[n]) {
			n++
		}
		if n == 0 {
			return false
		}
		after := bytes.TrimLeft(rest[n:], " \t")
		return len(after) == 0 || after[0] == '{' || after[0] == ':' || after[0] == ';' || lang.IsIdentByte(after[0])
	case bytes.HasPrefix(l, []byte("#")):
		d := bytes.TrimLeft(l[1:], " \t")
		if bytes.HasPrefix(d, []byte("if")) && bytes.Contains(d, []byte("__cplusplus >")) {
			return true // a header that needs a C++ standard
		}
		if bytes.HasPrefix(d, []byte("include")) {
			d = bytes.TrimLeft(d[7:], " \t")
			if len(d) > 0 && d[0] == '<' {
				if end := bytes.IndexByte(d, '>'); end > 1 {
					name := d[1:end]
					return bytes.IndexByte(name, '.') < 0 && bytes.IndexByte(name, '/') < 0
				}
			}
		}
		return false
	}
	// "::" before a name in code (A::b, ::b; not asm's "::: clobbers"),
	// outside a trailing comment and string literals
	if i := scopeOp(l); i >= 0 {
		head := l[:i]
		if bytes.Contains(head, []byte("//")) || bytes.Contains(head, []byte("/*")) || bytes.Count(head, []byte(`"`))%2 == 1 {
			return false
		}
		return true
	}
	return false
}

// scopeOp returns the offset of the first "::" in l that is followed by a
// name (or ~, a destructor) and not part of a longer run of colons, or -1.
func scopeOp(l []byte) int {
	for off := 0; ; {
		i := bytes.Index(l[off:], []byte("::"))
		if i < 0 {
			return -1
		}
		i += off
		off = i + 2
		if i > 0 && l[i-1] == ':' || off >= len(l) {
			continue
		}
		if c := l[off]; c == '~' || lang.IsIdentByte(c) && !(c >= '0' && c <= '9') {
			return i
		}
	}
}

// nextWord reports whether rest, after blanks, starts with the word w.
func nextWord(rest []byte, w string) bool {
	rest = bytes.TrimLeft(rest, " \t")
	return bytes.HasPrefix(rest, []byte(w)) && (len(rest) == len(w) || !lang.IsIdentByte(rest[len(w)]))
}

// walkState is the state of one file's walk.
type walkState struct {
	x      *lang.Extractor
	t      *lang.Tree
	cpp    bool
	header bool
	// namespaces lists the namespaces this file opens, qualified: in
	// "void A::f() {}", A names a namespace when the file opens one of that
	// name, else a class.
	namespaces map[string]bool
	// classes maps the qualified names of the classes this file defines to
	// their symbols: an out-of-line method finds its class's fields there.
	classes map[string]int
	// testBody is the block a test macro took as its body where the
	// grammar split the two (TEST_CASE("x") { ... } read as a call and a
	// block): the file's walk must not read it again as its own code.
	testBody int32
}

// state is where the walker declares things.
type state struct {
	parent int    // the symbol declarations hang from
	ns     string // qualified name of the innermost namespace or class, "" at file scope
	cls    int    // the class whose body is walked, -1 elsewhere
	access string // the access in force in a class body
	hidden bool   // inside an anonymous namespace: internal linkage
	tmpl   int32  // the template_declaration around the declaration, -1
}

func extract(x *lang.Extractor) {
	w := &walkState{x: x, t: x.Tree, cpp: x.Tree.Lang.Name == "cpp", header: isHeader(x.Path),
		namespaces: map[string]bool{}, classes: map[string]int{}, testBody: -1}
	// the name other files include this file by: its path, found by any
	// suffix of whole segments (see Table.ModuleFiles)
	x.Facts.Module = x.Path
	if w.cpp {
		w.collectNamespaces(0, "")
	}
	w.decls(0, state{parent: 0, cls: -1, tmpl: -1})
}

// collectNamespaces records the namespaces the file opens.
func (w *walkState) collectNamespaces(n int32, prefix string) {
	t := w.t
	for c := range t.NamedChildren(n) {
		switch t.Kind(c) {
		case "namespace_definition":
			name := namespaceName(t, c)
			q := prefix
			if name != "" {
				q = join(prefix, name)
				w.namespaces[q] = true
				// a nested a::b also opens a
				for i := strings.IndexByte(q, '.'); i >= 0; {
					w.namespaces[q[:i]] = true
					j := strings.IndexByte(q[i+1:], '.')
					if j < 0 {
						break
					}
					i += 1 + j
				}
			}
			if b := t.Field(c, "body"); b >= 0 {
				w.collectNamespaces(b, q)
			}
		case "linkage_specification", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
			"declaration_list", "ERROR":
			w.collectNamespaces(c, prefix)
		}
	}
}

// namespaceName is the name of a namespace definition, dotted for
// namespace a::b; "" for an anonymous one.
func namespaceName(t *lang.Tree, n int32) string {
	name := t.Field(n, "name")
	if name < 0 {
		return ""
	}
	return strings.ReplaceAll(strings.Join(strings.Fields(t.Text(name)), ""), "::", ".")
}

// join joins qualified names with dots.
func join(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "." + b
}

// decls walks the declarations directly inside n: a translation unit, a
// namespace or linkage body, a preprocessor conditional.
func (w *walkState) decls(n int32, c state) {
	t := w.t
	for ch := range t.NamedChildren(n) {
		w.decl(ch, c)
	}
}

func (w *walkState) decl(n int32, c state) {
	t := w.t
	switch t.Kind(n) {
	case "comment", "preproc_call":
	case "preproc_include":
		w.include(n, c)
	case "preproc_def", "preproc_function_def":
		w.macro(n, c)
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		for ch := range t.NamedChildren(n) {
			if f := t.FieldName(ch); f == "condition" || f == "name" {
				continue
			}
			w.decl(ch, c)
		}
	case "function_definition":
		w.function(n, c)
	case "declaration", "field_declaration":
		w.declaration(n, c)
	case "type_definition":
		w.typedef(n, c)
	case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
		w.record(n, c, "")
	case "namespace_definition":
		w.namespace(n, c)
	case "linkage_specification":
		if b := t.Field(n, "body"); b >= 0 {
			if t.Kind(b) == "declaration_list" {
				w.decls(b, c)
			} else {
				w.decl(b, c)
			}
		}
	case "template_declaration":
		w.template(n, c)
	case "using_declaration":
		w.using(n, c)
	case "namespace_alias_definition":
		w.namespaceAlias(n, c)
	case "alias_declaration":
		w.alias(n, c)
	case "declaration_list", "ERROR":
		w.decls(n, c)
	case "expression_statement":
		if w.testMacro(n, c) {
			return
		}
		w.code(n, c.parent, newScope(nil), false, c)
	case "compound_statement":
		if n == w.testBody {
			return // the test's body, read by testMacro
		}
		// the body of a macro-defined function the grammar could not
		// see as one (TEST(a, b) { ... } in C): code of the enclosing symbol
		w.code(n, c.parent, newScope(nil), false, c)
	default:
		w.code(n, c.parent, newScope(nil), false, c)
	}
}

// include records #include "x.h" (Source x.h) and #include <x.h>
// (Source <x.h>).
func (w *walkState) include(n int32, c state) {
	t := w.t
	p := t.Field(n, "path")
	if p < 0 {
		return
	}
	src := t.Text(p)
	switch t.Kind(p) {
	case "string_literal":
		src = strings.Trim(src, `"`)
	case "system_lib_string":
	default:
		return // #include MACRO
	}
	if strings.TrimSpace(strings.Trim(src, "<>")) == "" {
		return
	}
	w.x.Facts.Imports = append(w.x.Facts.Imports, lang.Import{Source: src, Line: t.StartLine(n), Symbol: 0})
}

// macro makes #define NAME(args) a function and #define NAME value a
// variable. A macro without a value (an include guard, a feature flag)
// is no symbol.
func (w *walkState) macro(n int32, c state) {
	t := w.t
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	val := t.Field(n, "value")
	// a macro knows no namespace or class: it hangs from the file
	s := lang.Symbol{Name: t.Text(name), Parent: 0, Doc: w.doc(n)}
	s.Signature.Modifiers = []string{"macro"}
	s.Exported = w.header
	s.Signature.Text = lang.Shorten(lang.OneLine(strings.TrimRight(t.Text(n), "\n")), lang.MaxSigText)
	if t.Kind(n) == "preproc_function_def" {
		s.Kind = lang.KindFunction
		if ps := t.Field(n, "parameters"); ps >= 0 {
			for p := range t.NamedChildren(ps) {
				if t.Kind(p) == "identifier" {
					s.Signature.Params = append(s.Signature.Params, lang.Param{Name: t.Text(p)})
				} else if t.Kind(p) == "..." || strings.Contains(t.Text(p), "...") {
					s.Signature.Params = append(s.Signature.Params, lang.Param{Name: "...", Variadic: true})
				}
			}
			if strings.Contains(t.Text(ps), "...") && (len(s.Signature.Params) == 0 || !s.Signature.Params[len(s.Signature.Params)-1].Variadic) {
				s.Signature.Params = append(s.Signature.Params, lang.Param{Name: "...", Variadic: true})
			}
		}
	} else {
		if val < 0 || strings.TrimSpace(t.Text(val)) == "" {
			return
		}
		s.Kind = lang.KindVariable
		s.Signature.Modifiers = append(s.Signature.Modifiers, "const")
	}
	sym := w.x.AddSymbol(s, n, name, val)
	w.trimNewline(sym)
	if val >= 0 {
		w.macroCalls(t.Bytes(val), s.Signature.Params, s.Name, sym, n)
	}
}

// maxMacroCalls bounds the calls one macro's body contributes.
const maxMacroCalls = 16

// macroCalls records the calls a macro's body makes: the grammar keeps the
// body as text, so identifiers followed by "(" are found in it, except
// member calls, keywords and the macro's parameters.
func (w *walkState) macroCalls(body []byte, params []lang.Param, self string, sym int, at int32) {
	n := 0
	for i := 0; i < len(body) && n < maxMacroCalls; {
		c := body[i]
		switch {
		case c == '"' || c == '\'':
			// skip a literal
			j := i + 1
			for j < len(body) && body[j] != c {
				if body[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			continue
		case !lang.IsIdentByte(c) || c >= '0' && c <= '9':
			i++
			continue
		}
		j := i
		for j < len(body) && lang.IsIdentByte(body[j]) {
			j++
		}
		word := string(body[i:j])
		member := i > 0 && (body[i-1] == '.' || i > 1 && body[i-2] == '-' && body[i-1] == '>')
		k := j
		for k < len(body) && (body[k] == ' ' || body[k] == '\t') {
			k++
		}
		if k < len(body) && body[k] == '(' && !member && !macroKeywords[word] && word != self && !strings.HasPrefix(word, "__") {
			isParam := false
			for _, p := range params {
				if p.Name == word {
					isParam = true
				}
			}
			if !isParam {
				w.x.Ref(lang.Ref{Kind: lang.RefCall, Name: word, Symbol: sym}, at)
				n++
			}
		}
		i = j
	}
}

// macroKeywords are words followed by "(" in a macro body that are no
// calls.
var macroKeywords = map[string]bool{
	"if": true, "while": true, "for": true, "switch": true, "return": true, "sizeof": true, "defined": true,
	"typeof": true, "alignof": true, "_Alignof": true, "_Generic": true, "do": true, "else": true, "case": true,
	"int": true, "char": true, "long": true, "unsigned": true, "void": true, "double": true, "float": true,
	"short": true, "signed": true, "const": true, "struct": true, "union": true, "decltype": true,
	"static_cast": true, "reinterpret_cast": true, "const_cast": true, "dynamic_cast": true, "noexcept": true,
}

// trimNewline ends a preprocessor symbol's range with its line: the
// directive's node holds the newline that ends it.
func (w *walkState) trimNewline(sym int) {
	s := &w.x.Facts.Symbols[sym]
	if s.Range.EndCol != 0 || s.Range.EndLine <= s.Range.StartLine || s.EndByte == 0 {
		return
	}
	end := int(s.EndByte) - 1
	for end > int(s.StartByte) && (w.t.Src[end-1] == '\n' || w.t.Src[end-1] == '\r') {
		end--
	}
	s.EndByte = uint32(end)
	s.Range.EndLine--
	line := end
	for line > 0 && w.t.Src[line-1] != '\n' {
		line--
	}
	s.Range.EndCol = end - line
}

// doc is the comment block right above node n: /** */, /// or // lines, with
// no blank line between them and n, not trailing code on their line.
func (w *walkState) doc(n int32) string {
	t := w.t
	var parts []string
	line := t.Nodes[n].StartRow
	for p := t.PrevSibling(n); p >= 0 && t.IsComment(p); {
		if t.Nodes[p].EndRow+1 < line {
			break
		}
		prev := t.PrevSibling(p)
		if prev >= 0 && !t.IsComment(prev) && t.Nodes[prev].EndRow == t.Nodes[p].StartRow && t.Nodes[prev].EndCol > 0 {
			break // a comment trailing the previous declaration
		}
		text := t.Text(p)
		if strings.HasPrefix(text, "///<") || strings.HasPrefix(text, "/**<") || strings.HasPrefix(text, "//!<") {
			break // documents the previous member
		}
		parts = append(parts, text)
		line = t.Nodes[p].StartRow
		p = prev
	}
	if len(parts) == 0 {
		return ""
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return lang.CleanComment(strings.Join(parts, "\n"))
}

// declNode is the node a declaration's comments precede: the template
// around it, if any.
func (c state) declNode(n int32) int32 {
	if c.tmpl >= 0 {
		return c.tmpl
	}
	return n
}

// declarator is what a declarator chain declares.
type declarator struct {
	name  int32  // the declared name (identifier, qualified_identifier, destructor_name, operator_name, ...), -1
	fn    int32  // the function_declarator, -1 when not a function
	value int32  // the initializer, -1
	deco  string // "*", "&", "[]" applied to the base type, outermost first
}

// unwrapDeclarator follows a declarator down to its name.
func (w *walkState) unwrapDeclarator(d int32) declarator {
	t := w.t
	out := declarator{name: -1, fn: -1, value: -1}
	for i := 0; d >= 0 && i < 64; i++ {
		switch t.Kind(d) {
		case "init_declarator":
			out.value = t.Field(d, "value")
			d = t.Field(d, "declarator")
		case "pointer_declarator":
			if out.fn < 0 {
				out.deco += "*"
			}
			d = declaratorChild(t, d)
		case "reference_declarator":
			if out.fn < 0 {
				if strings.HasPrefix(strings.TrimSpace(t.Text(d)), "&&") {
					out.deco += "&&"
				} else {
					out.deco += "&"
				}
			}
			d = declaratorChild(t, d)
		case "array_declarator":
			if out.fn < 0 {
				out.deco += "[]"
			}
			d = t.Field(d, "declarator")
		case "function_declarator":
			if out.fn < 0 {
				out.fn = d
			}
			d = t.Field(d, "declarator")
		case "parenthesized_declarator", "attributed_declarator":
			d = declaratorChild(t, d)
		default:
			out.name = d
			return out
		}
	}
	return out
}

// declaratorChild is the declarator inside a pointer, reference or
// parenthesized declarator (its declarator field, or its last named child).
func declaratorChild(t *lang.Tree, d int32) int32 {
	if c := t.Field(d, "declarator"); c >= 0 {
		return c
	}
	last := int32(-1)
	for c := range t.NamedChildren(d) {
		switch t.Kind(c) {
		case "type_qualifier", "ms_pointer_modifier", "ms_based_modifier", "attribute_specifier", "attribute_declaration":
		default:
			last = c
		}
	}
	return last
}

// nameParts splits a declared name into its scope ("geo.Shape") and its
// simple name ("area", "~Shape", "operator=="), with whether it is a
// destructor.
func (w *walkState) nameParts(n int32) (scope, name string, dtor bool) {
	t := w.t
	var segs []string
	for i := 0; n >= 0 && i < 32; i++ {
		switch t.Kind(n) {
		case "qualified_identifier":
			if s := t.Field(n, "scope"); s >= 0 {
				segs = append(segs, scopeText(t, s))
			}
			n = t.Field(n, "name")
			continue
		case "destructor_name":
			return strings.Join(segs, "."), "~" + strings.TrimSpace(strings.TrimPrefix(lang.OneLine(t.Text(n)), "~")), true
		case "operator_name", "operator_cast":
			return strings.Join(segs, "."), lang.OneLine(t.Text(n)), false
		case "template_function", "template_type", "template_method":
			return strings.Join(segs, "."), t.FieldText(n, "name"), false
		default:
			return strings.Join(segs, "."), t.Text(n), false
		}
	}
	return strings.Join(segs, "."), "", false
}

// scopeText renders a scope node (a namespace, a class, a template
// instance) without template arguments, dotted.
func scopeText(t *lang.Tree, s int32) string {
	switch t.Kind(s) {
	case "template_type":
		return t.FieldText(s, "name")
	case "qualified_identifier":
		var parts []string
		if sc := t.Field(s, "scope"); sc >= 0 {
			parts = append(parts, scopeText(t, sc))
		}
		if n := t.Field(s, "name"); n >= 0 {
			parts = append(parts, scopeText(t, n))
		}
		return strings.Join(parts, ".")
	}
	return strings.Join(strings.Fields(t.Text(s)), "")
}

// baseType is the text of a declaration from its start to its declarator
// (specifiers and base type), without storage classes and attributes: the
// base type as written, "const char".
func (w *walkState) baseType(n int32) string {
	t := w.t
	var parts []string
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "type_qualifier":
			parts = append(parts, t.Text(ch))
		default:
			if t.FieldName(ch) != "type" {
				continue
			}
			switch t.Kind(ch) {
			case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
				// struct tag { ... }: the tag names the type
				kw := strings.TrimSuffix(t.Kind(ch), "_specifier")
				if nm := t.Field(ch, "name"); nm >= 0 {
					parts = append(parts, kw+" "+lang.OneLine(t.Text(nm)))
				} else {
					parts = append(parts, kw)
				}
			default:
				parts = append(parts, lang.OneLine(t.Text(ch)))
			}
		}
	}
	return strings.Join(parts, " ")
}

// typeWithDeco joins a base type and declarator decorations: "char" and
// "*" -> "char *".
func typeWithDeco(base, deco string) string {
	if deco == "" {
		return base
	}
	return base + " " + deco
}

// modifiers reads the specifiers of a declaration and of its function
// declarator.
func (w *walkState) modifiers(n, fn int32) []string {
	t := w.t
	var mods []string
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "storage_class_specifier":
			mods = append(mods, t.Text(ch))
		case "virtual", "explicit_function_specifier", "friend":
			mods = append(mods, lang.OneLine(t.Text(ch)))
		case "type_qualifier":
			if k := t.Text(ch); k == "constexpr" || k == "consteval" || k == "constinit" {
				mods = append(mods, k)
			}
		case "default_method_clause":
			mods = append(mods, "= default")
		case "delete_method_clause":
			mods = append(mods, "= delete")
		case "pure_virtual_clause":
			mods = append(mods, "abstract")
		}
	}
	if fn >= 0 {
		for ch := range t.Children(fn) {
			switch t.Kind(ch) {
			case "type_qualifier":
				mods = append(mods, t.Text(ch)) // a const method
			case "virtual_specifier":
				mods = append(mods, t.Text(ch))
			case "noexcept":
				mods = append(mods, "noexcept")
			}
		}
	}
	// virtual f() = 0: the grammar keeps the 0 as a default value
	if v := t.Field(n, "default_value"); v >= 0 && fn >= 0 && t.Text(v) == "0" {
		mods = append(mods, "abstract")
	}
	return mods
}

func hasMod(mods []string, m string) bool {
	for _, x := range mods {
		if x == m {
			return true
		}
	}
	return false
}

// params reads a parameter list, typing the names it binds in scope.
func (w *walkState) params(list int32, scope *scope) []lang.Param {
	t := w.t
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for p := range t.NamedChildren(list) {
		switch t.Kind(p) {
		case "variadic_parameter":
			out = append(out, lang.Param{Name: "...", Variadic: true})
		case "parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration":
			d := w.unwrapDeclarator(t.Field(p, "declarator"))
			if t.Kind(p) == "variadic_parameter_declaration" {
				if d.name >= 0 && t.Kind(d.name) == "variadic_declarator" {
					if in := t.FirstNamedChild(d.name); in >= 0 {
						d.name = in
					} else {
						d.name = -1
					}
				}
			}
			prm := lang.Param{Variadic: t.Kind(p) == "variadic_parameter_declaration"}
			start, end := t.Nodes[p].StartByte, t.Nodes[p].EndByte
			if dv := t.Field(p, "default_value"); dv >= 0 {
				prm.Default = lang.OneLine(t.Text(dv))
				end = t.Nodes[dv].StartByte
				prm.Optional = true
			}
			typ := string(t.Src[start:end])
			if d.name >= 0 && (t.Kind(d.name) == "identifier" || t.Kind(d.name) == "field_identifier") {
				prm.Name = t.Text(d.name)
				a, b := t.Nodes[d.name].StartByte-start, t.Nodes[d.name].EndByte-start
				if int(b) <= len(typ) {
					typ = typ[:a] + typ[b:]
				}
			}
			typ = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(lang.OneLine(typ)), "="))
			typ = strings.ReplaceAll(typ, "( *)", "(*)")
			prm.Type = typ
			if typ == "void" && prm.Name == "" {
				continue // f(void)
			}
			out = append(out, prm)
			if scope != nil && prm.Name != "" {
				scope.SetType(prm.Name, w.varType(t.Field(p, "type"), d.deco))
			}
		}
	}
	return out
}

// visibility sets a symbol's visibility from its context: class
// members by access, others by linkage.
func (w *walkState) visibility(s *lang.Symbol, c state, static bool) {
	switch {
	case c.cls >= 0:
		s.Visibility = c.access
		if s.Visibility == "" {
			s.Visibility = lang.VisPublic
		}
		s.Exported = s.Visibility == lang.VisPublic && w.x.Facts.Symbols[c.cls].Exported
	case static || c.hidden:
		s.Exported, s.Visibility = false, lang.VisInternal
	default:
		s.Exported, s.Visibility = true, lang.VisExported
		if !w.header && s.Kind != lang.KindFunction && s.Kind != lang.KindVariable && s.Kind != lang.KindMethod && s.Kind != lang.KindConstructor {
			// a type defined in a source file is seen by that file only
			s.Exported, s.Visibility = false, lang.VisInternal
		}
	}
}

// function handles a function definition: a function, a method defined
// in its class, or an out-of-line method (void A::f() {}).
func (w *walkState) function(n int32, c state) {
	t := w.t
	d := w.unwrapDeclarator(t.Field(n, "declarator"))
	body := t.Field(n, "body")
	if d.fn < 0 || d.name < 0 {
		// not a function after all (a macro-mangled declaration): its
		// code still counts
		if body >= 0 {
			w.code(body, c.parent, newScope(nil), false, c)
		}
		return
	}
	if w.testFunction(n, d, c) {
		return
	}
	sym, scope := w.functionSymbol(n, d, c, body)
	if body < 0 {
		return
	}
	// member initializers: base constructors and members' construction
	if fil := t.ChildOfKind(n, "field_initializer_list"); fil >= 0 {
		w.fieldInits(fil, sym, scope, c)
	}
	if t.Kind(body) == "try_statement" {
		w.code(body, sym, scope, false, c)
		return
	}
	w.code(body, sym, scope, true, c)
}

// functionSymbol adds the symbol of a function or method declared or
// defined at n, and returns it with the scope of its parameters.
func (w *walkState) functionSymbol(n int32, d declarator, c state, body int32) (int, *scope) {
	t := w.t
	scopeName, name, dtor := w.nameParts(d.name)
	s := lang.Symbol{Kind: lang.KindFunction, Name: name, Parent: c.parent}
	if name == "" {
		return c.parent, newScope(nil)
	}
	mods := w.modifiers(n, d.fn)
	if c.tmpl >= 0 {
		mods = append([]string{"template"}, mods...)
	}
	if body < 0 && !(c.cls >= 0) {
		mods = append(mods, "declaration")
	}
	s.Signature.Modifiers = mods
	container := c.ns
	cls := c.cls
	if scopeName != "" {
		// A::f: a method of class A, or a function of namespace A
		full := join(c.ns, scopeName)
		if w.isNamespace(c.ns, scopeName) {
			container = w.namespaceOf(c.ns, scopeName)
		} else {
			s.Kind = lang.KindMethod
			container = full
			if i, ok := w.classes[full]; ok {
				cls = i
			} else if i, ok := w.classes[scopeName]; ok {
				cls = i
				container = scopeName
			}
		}
	} else if c.cls >= 0 {
		s.Kind = lang.KindMethod
	}
	if s.Kind == lang.KindMethod {
		clsName := lastDotted(container)
		switch {
		case dtor:
		case name == clsName:
			s.Kind = lang.KindConstructor
		}
	}
	if container != "" && (scopeName != "" || c.parent == 0) {
		s.Container = container
	}
	static := hasMod(mods, "static") && c.cls < 0
	w.visibility(&s, c, static)
	if scopeName != "" && c.cls < 0 {
		// an out-of-line definition: as visible as what it defines
		s.Exported, s.Visibility = !c.hidden, lang.VisPublic
		if s.Kind == lang.KindFunction {
			s.Visibility = lang.VisExported
		}
		if c.hidden {
			s.Visibility = lang.VisInternal
		}
	}
	scope := newScope(nil)
	if cls >= 0 {
		scope.cls = w.x.Facts.Symbols[cls].Qualified()
		for _, f := range w.x.Facts.Symbols[cls].Signature.Fields {
			scope.setField(f.Name, fieldBaseType(f.Type))
		}
	} else if s.Kind == lang.KindMethod || s.Kind == lang.KindConstructor {
		scope.cls = container
	}
	s.Signature.Params = w.params(t.Field(d.fn, "parameters"), scope)
	s.Signature.Returns = w.returnType(n, d)
	if c.tmpl >= 0 {
		s.Signature.Generics = w.generics(c.tmpl)
	}
	s.Signature.Text = w.x.HeaderText(c.declNode(n), body)
	s.Doc = w.doc(c.declNode(n))
	if w.x.Facts.IsTest && s.Kind == lang.KindFunction {
		low := strings.ToLower(name)
		if strings.HasPrefix(low, "test") {
			s.IsTest = true
		}
	}
	node := n
	if c.tmpl >= 0 && t.Parent(n) == c.tmpl {
		node = c.tmpl
	}
	sym := w.x.AddSymbol(s, node, nameLeaf(t, d.name), body)
	return sym, scope
}

// nameLeaf is the identifier leaf of a declared name, for the fingerprint.
func nameLeaf(t *lang.Tree, n int32) int32 {
	for i := 0; n >= 0 && i < 32; i++ {
		if t.IsLeaf(n) {
			return n
		}
		if nm := t.Field(n, "name"); nm >= 0 {
			n = nm
			continue
		}
		n = t.FirstNamedChild(n)
	}
	return -1
}

func lastDotted(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// isNamespace reports whether scope, written inside namespace ns, names a
// namespace this file opens.
func (w *walkState) isNamespace(ns, scope string) bool {
	return w.namespaceOf(ns, scope) != ""
}

// namespaceOf is the qualified namespace scope names from inside ns, or "".
func (w *walkState) namespaceOf(ns, scope string) string {
	if !w.cpp {
		return ""
	}
	for {
		if q := join(ns, scope); w.namespaces[q] {
			return q
		}
		if ns == "" {
			return ""
		}
		if i := strings.LastIndexByte(ns, '.'); i >= 0 {
			ns = ns[:i]
		} else {
			ns = ""
		}
	}
}

// returnType is the type a function declarator returns: the declaration's
// base type and the pointers between it and the function's name; a
// trailing return type when there is one.
func (w *walkState) returnType(n int32, d declarator) string {
	t := w.t
	if tr := t.ChildOfKind(d.fn, "trailing_return_type"); tr >= 0 {
		return strings.TrimPrefix(strings.TrimSpace(lang.OneLine(t.Text(tr))), "-> ")
	}
	base := w.baseType(n)
	if base == "" {
		return ""
	}
	// the decorations between the declaration's declarator and the
	// function declarator: Shape *make(), const T &get()
	deco := ""
	for dd := t.Field(n, "declarator"); dd >= 0 && dd != d.fn; {
		switch t.Kind(dd) {
		case "pointer_declarator":
			deco += "*"
		case "reference_declarator":
			deco += "&"
		}
		next := declaratorChild(t, dd)
		if next == dd {
			break
		}
		dd = next
	}
	return typeWithDeco(base, deco)
}

// generics lists the parameters of a template declaration.
func (w *walkState) generics(tmpl int32) []string {
	t := w.t
	ps := t.Field(tmpl, "parameters")
	if ps < 0 {
		return nil
	}
	out := t.ItemTexts(ps)
	if out == nil {
		out = []string{} // template <>: a specialization
	}
	return out
}

// declaration handles a declaration: global variables, prototypes (in
// headers: in source files they only forward-declare what is defined
// somewhere), struct definitions inside it, and in a class body the
// members.
func (w *walkState) declaration(n int32, c state) {
	t := w.t
	typ := t.Field(n, "type")
	if typ >= 0 {
		switch t.Kind(typ) {
		case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
			if t.Field(typ, "body") >= 0 {
				w.record(typ, c, "")
			}
		}
	}
	var decls []int32
	for ch := range t.Children(n) {
		if t.FieldName(ch) == "declarator" {
			decls = append(decls, ch)
		}
	}
	mods := w.modifiers(n, -1)
	static := hasMod(mods, "static")
	extern := hasMod(mods, "extern")
	for _, dn := range decls {
		d := w.unwrapDeclarator(dn)
		if d.name < 0 {
			continue
		}
		if d.fn >= 0 && !isFuncPointer(t, dn) {
			// a prototype, or a method declared in its class
			if c.cls < 0 && !w.header {
				continue
			}
			if t.Kind(t.Parent(n)) == "compound_statement" {
				continue
			}
			w.functionSymbol(n, d, c, -1)
			continue
		}
		if c.cls >= 0 {
			continue // data members are the class's fields
		}
		if extern && !w.header {
			continue // declares a variable defined elsewhere
		}
		scopeName, name, _ := w.nameParts(d.name)
		if name == "" || t.Kind(d.name) == "type_identifier" {
			continue
		}
		s := lang.Symbol{Kind: lang.KindVariable, Name: name, Parent: c.parent}
		if scopeName != "" {
			// int A::count = 0: a static member's definition
			s.Container = join(c.ns, scopeName)
		}
		s.Signature.Modifiers = append([]string(nil), mods...)
		base := w.baseType(n)
		if strings.HasPrefix(base, "const ") || strings.Contains(base, " const") {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "const")
		}
		s.Signature.Returns = typeWithDeco(base, d.deco)
		w.visibility(&s, c, static)
		s.Doc = w.doc(n)
		if len(decls) > 1 {
			dt := t.Text(dn)
			if d.value >= 0 && t.Nodes[d.value].StartByte > t.Nodes[dn].StartByte {
				dt = string(t.Src[t.Nodes[dn].StartByte:t.Nodes[d.value].StartByte])
			}
			dt = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(dt), "="))
			s.Signature.Text = lang.Shorten(lang.OneLine(base+" "+dt), lang.MaxSigText)
		} else {
			s.Signature.Text = w.x.HeaderText(n, d.value)
			s.Signature.Text = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(s.Signature.Text, "=")), ";")
		}
		node := dn
		if len(decls) == 1 {
			node = n
		}
		sym := w.x.AddSymbol(s, node, nameLeaf(t, d.name), d.value)
		if d.value >= 0 {
			scope := newScope(nil)
			w.code(d.value, sym, scope, false, c)
			if w.cpp && (t.Kind(d.value) == "argument_list" || t.Kind(d.value) == "initializer_list") {
				w.construct(typ, sym, d.value)
			}
		}
	}
}

// typedef makes each name a type symbol whose Returns is the type it
// names; an anonymous struct it names becomes a class of that name.
func (w *walkState) typedef(n int32, c state) {
	t := w.t
	typ := t.Field(n, "type")
	var decls []int32
	for ch := range t.Children(n) {
		if t.FieldName(ch) == "declarator" {
			decls = append(decls, ch)
		}
	}
	if typ >= 0 {
		switch t.Kind(typ) {
		case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
			if t.Field(typ, "body") >= 0 {
				if t.Field(typ, "name") < 0 && len(decls) > 0 {
					// typedef struct { ... } name_t;
					d := w.unwrapDeclarator(decls[0])
					if d.name >= 0 && d.deco == "" && d.fn < 0 {
						w.record(typ, c, t.Text(d.name))
						decls = decls[1:]
						if len(decls) == 0 {
							return
						}
					}
				} else {
					w.record(typ, c, "")
				}
			}
		}
	}
	base := w.baseType(n)
	for _, dn := range decls {
		d := w.unwrapDeclarator(dn)
		if d.name < 0 {
			continue
		}
		if d.fn < 0 && d.deco == "" && strings.HasSuffix(base, " "+t.Text(d.name)) && strings.Count(base, " ") == 1 {
			continue // typedef struct foo foo: the struct is the type
		}
		s := lang.Symbol{Kind: lang.KindType, Name: t.Text(d.name), Parent: c.parent, Doc: w.doc(n)}
		if d.fn >= 0 {
			// typedef int (*cmp_fn)(const void *, const void *)
			s.Signature.Params = w.params(t.Field(d.fn, "parameters"), nil)
			s.Signature.Returns = strings.TrimPrefix(funcPointerType(t, n, d), "typedef ")
			s.Signature.Modifiers = []string{"function pointer"}
		} else {
			s.Signature.Returns = typeWithDeco(base, d.deco)
		}
		w.visibility(&s, c, false)
		s.Signature.Text = strings.TrimSuffix(lang.OneLine(t.Text(n)), ";")
		if len(decls) > 1 {
			s.Signature.Text = "typedef " + typeWithDeco(base, d.deco) + " " + s.Name
		}
		node := dn
		if len(decls) == 1 {
			node = n
		}
		w.x.AddSymbol(s, node, nameLeaf(t, d.name), -1)
	}
}

// record handles a struct, union, enum or class with a body. name is the
// typedef name of an anonymous one.
func (w *walkState) record(n int32, c state, name string) int {
	t := w.t
	body := t.Field(n, "body")
	nameNode := t.Field(n, "name")
	if nameNode >= 0 {
		_, name, _ = w.nameParts(nameNode)
	}
	if body < 0 || name == "" {
		if body >= 0 {
			// an anonymous struct or union: its members' code
			w.code(body, c.parent, newScope(nil), false, c)
		}
		return -1
	}
	kind := t.Kind(n)
	s := lang.Symbol{Kind: lang.KindClass, Name: name, Parent: c.parent}
	if kind == "enum_specifier" {
		s.Kind = lang.KindType
	}
	switch kind {
	case "struct_specifier":
		s.Signature.Modifiers = []string{"struct"}
	case "union_specifier":
		s.Signature.Modifiers = []string{"union"}
	case "enum_specifier":
		s.Signature.Modifiers = []string{"enum"}
		if t.ChildOfKind(n, "class") >= 0 || t.ChildOfKind(n, "struct") >= 0 {
			s.Signature.Modifiers = []string{"enum class"}
		}
	}
	if c.tmpl >= 0 {
		s.Signature.Generics = w.generics(c.tmpl)
		if nameNode >= 0 && t.Kind(nameNode) == "template_type" {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "specialization")
		}
	}
	if t.ChildOfKind(n, "virtual_specifier") >= 0 {
		s.Signature.Modifiers = append(s.Signature.Modifiers, "final")
	}
	var bases []int32
	if bc := t.ChildOfKind(n, "base_class_clause"); bc >= 0 {
		for b := range t.NamedChildren(bc) {
			switch t.Kind(b) {
			case "access_specifier", "virtual":
			default:
				bases = append(bases, b)
				s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(b)))
			}
		}
	}
	if kind == "enum_specifier" {
		if b := t.Field(n, "base"); b >= 0 {
			s.Signature.Returns = lang.OneLine(t.Text(b))
		}
		for e := range t.NamedChildren(body) {
			if t.Kind(e) == "enumerator" {
				if en := t.Field(e, "name"); en >= 0 {
					s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(en), Type: name, Default: lang.OneLine(t.FieldText(e, "value"))})
				}
			}
		}
	} else {
		s.Signature.Fields = w.fields(body)
	}
	abstract, iface := w.abstractness(body)
	if abstract && kind != "enum_specifier" {
		s.Signature.Modifiers = append(s.Signature.Modifiers, "abstract")
		if iface {
			s.Kind = lang.KindInterface
		}
	}
	w.visibility(&s, c, false)
	if c.cls >= 0 && s.Visibility == "" {
		s.Visibility = lang.VisPublic
	}
	s.Signature.Text = w.x.HeaderText(c.declNode(n), body)
	s.Doc = w.doc(c.declNode(n))
	if s.Doc == "" && t.Kind(t.Parent(n)) == "type_definition" {
		s.Doc = w.doc(t.Parent(n))
	} else if s.Doc == "" && t.Kind(t.Parent(n)) == "declaration" {
		s.Doc = w.doc(t.Parent(n))
	}
	node := n
	if c.tmpl >= 0 && t.Parent(n) == c.tmpl {
		node = c.tmpl
	}
	sym := w.x.AddSymbol(s, node, nameLeaf(t, nameNode), body)
	q := w.x.Facts.Symbols[sym].Qualified()
	w.classes[q] = sym
	for _, b := range bases {
		bn, bq := typeRefName(t, b)
		w.x.Ref(lang.Ref{Kind: lang.RefExtends, Name: bn, Qualifier: bq, Symbol: sym}, b)
	}
	if kind == "enum_specifier" {
		for e := range t.NamedChildren(body) {
			if v := t.Field(e, "value"); v >= 0 {
				w.code(v, sym, newScope(nil), false, c)
			}
		}
		return sym
	}
	access := lang.VisPublic
	if kind == "class_specifier" {
		access = lang.VisPrivate
	}
	inner := state{parent: sym, ns: q, cls: sym, access: access, hidden: c.hidden, tmpl: -1}
	w.members(body, inner)
	return sym
}

// abstractness reports whether a class body declares a pure virtual
// method, and whether it declares nothing else (no data, no defined
// methods): C++'s interface.
func (w *walkState) abstractness(body int32) (abstract, iface bool) {
	t := w.t
	iface = true
	for m := range t.NamedChildren(body) {
		switch t.Kind(m) {
		case "field_declaration":
			d := w.unwrapDeclarator(t.Field(m, "declarator"))
			if d.fn < 0 {
				iface = false
				continue
			}
			if v := t.Field(m, "default_value"); v >= 0 && t.Text(v) == "0" {
				abstract = true
			} else {
				iface = false
			}
		case "function_definition":
			d := w.unwrapDeclarator(t.Field(m, "declarator"))
			if d.name >= 0 && t.Kind(d.name) == "destructor_name" {
				continue // virtual ~I() {}
			}
			iface = false
		case "declaration":
			d := w.unwrapDeclarator(t.Field(m, "declarator"))
			if d.name >= 0 && t.Kind(d.name) == "destructor_name" {
				continue
			}
			iface = false
		case "access_specifier", "comment":
		default:
			iface = false
		}
	}
	return abstract, abstract && iface
}

// fields lists the data members of a struct, union or class body.
func (w *walkState) fields(body int32) []lang.Param {
	t := w.t
	var out []lang.Param
	var scan func(b int32, depth int)
	scan = func(b int32, depth int) {
		for m := range t.NamedChildren(b) {
			switch t.Kind(m) {
			case "field_declaration":
				base := w.baseType(m)
				named := false
				for dn := range t.Children(m) {
					if t.FieldName(dn) != "declarator" {
						continue
					}
					d := w.unwrapDeclarator(dn)
					if d.name < 0 || (d.fn >= 0 && !isFuncPointer(t, dn)) {
						continue // a method
					}
					named = true
					typ := typeWithDeco(base, d.deco)
					if d.fn >= 0 {
						typ = funcPointerType(t, m, d)
					}
					out = append(out, lang.Param{Name: t.Text(d.name), Type: typ})
				}
				if !named && depth < 4 {
					// an anonymous struct or union member: its fields are
					// the enclosing one's
					if ty := t.Field(m, "type"); ty >= 0 {
						if bb := t.Field(ty, "body"); bb >= 0 && t.Field(ty, "name") < 0 {
							scan(bb, depth+1)
						}
					}
				}
			case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
				if depth < 4 {
					scan(m, depth+1)
				}
			}
		}
	}
	scan(body, 0)
	return out
}

// isFuncPointer reports whether a declarator declares a pointer to a
// function (a field holding a callback), not a function.
func isFuncPointer(t *lang.Tree, d int32) bool {
	for i := 0; d >= 0 && i < 32; i++ {
		switch t.Kind(d) {
		case "function_declarator":
			// int (*cb)(void) is a pointer; int (name)(void), as Lua
			// writes its API to keep macros off it, is a function
			inner := t.Field(d, "declarator")
			if inner < 0 || t.Kind(inner) != "parenthesized_declarator" {
				return false
			}
			in := declaratorChild(t, inner)
			return in >= 0 && t.Kind(in) != "identifier" && t.Kind(in) != "field_identifier"
		case "init_declarator", "array_declarator":
			d = t.Field(d, "declarator")
		case "pointer_declarator", "reference_declarator", "parenthesized_declarator":
			d = declaratorChild(t, d)
		default:
			return false
		}
	}
	return false
}

// funcPointerType renders the type of a function pointer member:
// "int (*)(const struct shape *s)".
func funcPointerType(t *lang.Tree, decl int32, d declarator) string {
	s := lang.OneLine(t.Text(decl))
	if d.name >= 0 {
		a := t.Nodes[d.name].StartByte - t.Nodes[decl].StartByte
		b := t.Nodes[d.name].EndByte - t.Nodes[decl].StartByte
		full := t.Text(decl)
		if int(b) <= len(full) {
			s = lang.OneLine(full[:a] + full[b:])
		}
	}
	return strings.TrimSuffix(strings.TrimSpace(s), ";")
}

// fieldBaseType reduces a field's type to the name of the type whose
// members a call through it reaches: "struct shape *" -> "shape".
func fieldBaseType(typ string) string {
	if strings.Contains(typ, "(") {
		return "" // a function pointer
	}
	return simpleType(typ)
}

// simpleType reduces a type as written to a type name resolution can
// look up: no qualifiers, tags, pointers or template arguments, except
// that a smart pointer or optional stands for its element: "const
// std::unique_ptr<geo::Circle> &" -> "geo::Circle"; "" for a primitive type.
func simpleType(typ string) string {
	typ = strings.TrimSpace(typ)
	for {
		changed := false
		for _, p := range []string{"const ", "volatile ", "struct ", "union ", "class ", "enum ", "typename ", "static ", "mutable ", "constexpr "} {
			if strings.HasPrefix(typ, p) {
				typ = strings.TrimSpace(typ[len(p):])
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	typ = strings.TrimRight(typ, "*&[] \t")
	typ = strings.TrimSuffix(typ, " const")
	typ = strings.TrimRight(typ, "*& \t")
	if i := strings.IndexByte(typ, '<'); i >= 0 {
		name := strings.TrimSpace(typ[:i])
		if smartPointers[lastColon(name)] {
			inner := typ[i+1:]
			if j := strings.LastIndexByte(inner, '>'); j >= 0 {
				inner = inner[:j]
			}
			if k := topComma(inner); k >= 0 {
				inner = inner[:k]
			}
			return simpleType(inner)
		}
		typ = name
	}
	if strings.ContainsAny(typ, " ()") || primitive[typ] || typ == "auto" {
		return ""
	}
	return typ
}

// topComma is the index of the first comma outside brackets, or -1.
func topComma(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func lastColon(s string) string {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return s[i+2:]
	}
	return s
}

// smartPointers hold a value whose methods calls through them reach.
var smartPointers = map[string]bool{
	"unique_ptr": true, "shared_ptr": true, "weak_ptr": true, "optional": true, "auto_ptr": true,
	"scoped_ptr": true, "intrusive_ptr": true, "ComPtr": true, "QSharedPointer": true, "QScopedPointer": true,
	"reference_wrapper": true, "not_null": true,
}

// primitive are the builtin types: values of them have no methods.
var primitive = map[string]bool{
	"int": true, "char": true, "short": true, "long": true, "float": true, "double": true, "void": true,
	"unsigned": true, "signed": true, "bool": true, "_Bool": true, "size_t": true, "ssize_t": true,
	"int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true, "uint8_t": true, "uint16_t": true,
	"uint32_t": true, "uint64_t": true, "intptr_t": true, "uintptr_t": true, "ptrdiff_t": true, "wchar_t": true,
	"char16_t": true, "char32_t": true, "char8_t": true, "off_t": true, "FILE": true,
}

// typeRefName splits a type named in a base clause or a new expression
// into its simple name and its qualifier: "geo::Shape<T>" -> "Shape", "geo".
func typeRefName(t *lang.Tree, n int32) (name, qual string) {
	switch t.Kind(n) {
	case "template_type":
		return t.FieldText(n, "name"), ""
	case "qualified_identifier":
		var segs []string
		for i := 0; n >= 0 && t.Kind(n) == "qualified_identifier" && i < 32; i++ {
			if s := t.Field(n, "scope"); s >= 0 {
				segs = append(segs, strings.ReplaceAll(scopeText(t, s), ".", "::"))
			}
			n = t.Field(n, "name")
		}
		if n < 0 {
			return "", ""
		}
		name, _ = typeRefName(t, n)
		return name, strings.Join(segs, "::")
	case "type_identifier", "identifier", "namespace_identifier":
		return t.Text(n), ""
	case "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
		if nm := t.Field(n, "name"); nm >= 0 {
			return typeRefName(t, nm)
		}
	}
	return "", ""
}

// testMacro reads a test that a macro defines where the grammar sees a
// call: TEST(Suite, Name) { ... } in C files. It reports whether n was one.
func (w *walkState) testMacro(n int32, c state) bool {
	t := w.t
	call := t.FirstNamedChild(n)
	if call < 0 || t.Kind(call) != "call_expression" || !testMacros[t.FieldText(call, "function")] {
		return false
	}
	next := t.NextSibling(n)
	if next < 0 || t.Kind(next) != "compound_statement" {
		return false
	}
	var args []string
	if a := t.Field(call, "arguments"); a >= 0 {
		for arg := range t.NamedChildren(a) {
			args = append(args, t.Text(arg))
		}
	}
	if w.testSymbol(n, next, t.FieldText(call, "function"), args, c) < 0 {
		return false
	}
	w.testBody = next
	return true
}

// testMacros define test cases: GoogleTest, Catch2, doctest, Boost.Test.
var testMacros = map[string]bool{
	"TEST": true, "TEST_F": true, "TEST_P": true, "TYPED_TEST": true, "TYPED_TEST_P": true, "FRIEND_TEST": false,
	"TEST_CASE": true, "TEST_CASE_METHOD": true, "SCENARIO": true, "BOOST_AUTO_TEST_CASE": true,
	"BOOST_FIXTURE_TEST_CASE": true,
}

// testFunction reads TEST(Suite, Name) { ... }, which the C++ grammar
// sees as a function named TEST.
func (w *walkState) testFunction(n int32, d declarator, c state) bool {
	t := w.t
	macro := t.Text(d.name)
	if !testMacros[macro] || t.Field(n, "type") >= 0 {
		return false
	}
	var args []string
	if ps := t.Field(d.fn, "parameters"); ps >= 0 {
		for p := range t.NamedChildren(ps) {
			args = append(args, lang.OneLine(t.Text(p)))
		}
	}
	return w.testSymbol(n, t.Field(n, "body"), macro, args, c) >= 0
}

// testSymbol adds the test function a test macro defines: TEST(Suite,
// Name) is Suite.Name; TEST_CASE("name") is named by its string.
func (w *walkState) testSymbol(n, body int32, macro string, args []string, c state) int {
	t := w.t
	if len(args) == 0 {
		return -1
	}
	s := lang.Symbol{Kind: lang.KindFunction, Parent: c.parent, IsTest: true, Exported: false, Visibility: lang.VisInternal}
	if strings.HasPrefix(args[0], `"`) {
		s.Name = strings.Trim(args[0], `"`)
	} else if len(args) >= 2 {
		s.Container = join(c.ns, args[0])
		s.Name = strings.Trim(args[1], `"`) // Catch2's TEST_CASE_METHOD(Fixture, "name", "[tags]")
	} else {
		s.Name = args[0]
	}
	if strings.TrimSpace(s.Name) == "" {
		return -1
	}
	s.Signature.Modifiers = []string{macro}
	s.Signature.Text = w.x.HeaderText(n, body)
	s.Doc = w.doc(n)
	node := n
	if body >= 0 && t.Parent(body) != n {
		// the C grammar splits the macro from its body: the symbol spans
		// both
		node = t.Parent(n)
		if node < 0 {
			node = n
		}
	}
	sym := w.x.AddSymbol(s, n, -1, body)
	if node != n && body >= 0 {
		// stretch the symbol over its body
		sy := &w.x.Facts.Symbols[sym]
		sy.Range.EndLine, sy.Range.EndCol = t.Range(body).EndLine, t.Range(body).EndCol
		sy.EndByte = t.Nodes[body].EndByte
	}
	if body >= 0 {
		w.code(body, sym, newScope(nil), true, c)
	}
	return sym
}
