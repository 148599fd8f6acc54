// Package c is sdl's room for C and C++, two Specs that share one query
// (the C++ grammar extends the C one) and its hooks: functions, types,
// namespaces, includes, macros read as the preprocessor would, guards and
// side effects; resolution through includes, namespaces, usings and base
// classes; a .h header parsed as C++ when its content says so
// (Spec.Pick); and the skeleton rules of braced bodies.
package c

import (
	"bytes"
	"embed"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/grammar"
)

// C and C++ share one query and its hooks: the C++ grammar extends the C
// one, so a C tree is a C++ tree without the C++ node kinds.
//
// What .h means: a .h file is C unless its content uses C++ syntax
// (namespaces, classes with access sections, templates, "::", extension-less
// standard headers such as <vector>); then it is parsed with the C++
// grammar (Spec.Pick), and recorded as C++. Where the content does not
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

// tags is the query both grammars share; cppTags adds what only C++ has.
//
//go:embed tags.scm
var tags string

//go:embed cpp.scm
var cppTags string

func init() {
	// the macro lists are read at the first C or C++ file, not by every
	// process at start-up
	macros := sync.OnceValues(func() (c, cpp *macroSet) {
		c, cpp = loadMacros("c.txt"), loadMacros("c.txt", "cpp.txt")
		cpp.cplusplus = true
		return c, cpp
	})
	register := func(s lang.Spec) *lang.Language {
		s.Comments, s.Data, s.Builtins = []string{"comment"}, data, builtins
		s.QueryRoots, s.QueryRoot = append(rootKinds, s.QueryRoots...), root
		s.Defs, s.Symbol, s.Import, s.Finish, s.OwnDocs, s.OwnBases = defs, symbol, imports, finish, true, true
		// the name other files include this file by: its path, found by
		// any suffix of whole segments (see Table.ModuleFiles)
		s.Module = func(filePath string, _ *lang.Tree, _ string) string { return filePath }
		s.Resolver, s.SkelRules = lang.Resolvers{Ref: resolve, Import: resolveImport}, skeleton()
		return lang.Register(s)
	}
	// Pick runs at parse time, when both are registered
	var c, cpp *lang.Language
	c = register(lang.Spec{
		Name:       "c",
		Extensions: []string{".c", ".h"},
		Grammar:    grammar.C(),
		Query:      tags, QueryFile: "lang/c/tags.scm",
		Strings: []string{"string_literal", "char_literal", "system_lib_string"},
		Idents:  []string{"identifier", "field_identifier", "type_identifier", "statement_identifier"},
		Pick: func(filePath string, src []byte) (*lang.Language, []byte) {
			cMacros, cppMacros := macros()
			// a .c file is C (as linguist has it); a header may hold C++
			if (filePath == "" || isHeader(filePath)) && looksLikeCpp(src) {
				return cpp, cppMacros.blank(blankExportMacros(namespaceMacros(src)))
			}
			return c, cMacros.blank(blankExportMacros(src))
		},
	})
	cpp = register(lang.Spec{
		Name: "cpp",
		Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++",
			".ipp", ".tpp"},
		Grammar: grammar.CPP(),
		Query:   tags + cppTags, QueryFile: "lang/c/tags.scm and cpp.scm",
		QueryRoots: []string{"class_specifier", "namespace_definition", "alias_declaration", "using_declaration", "namespace_alias_definition"},
		Strings:    []string{"string_literal", "char_literal", "system_lib_string", "raw_string_literal"},
		Idents:     []string{"identifier", "field_identifier", "type_identifier", "statement_identifier", "namespace_identifier"},
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
// named pattern "cpp"), a few of them widened. A marker in the branch of
// "#ifdef __cplusplus" does not count: a C header may offer C++ callers
// an overload there (libuv's uv.h, extern "C++" { ... }).
func looksLikeCpp(src []byte) bool {
	inBlock := false
	cppOnly := 0 // the nesting of conditionals inside a "#ifdef __cplusplus" branch, plus one
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
		if l[0] == '#' {
			d := directive(l)
			switch {
			case cppOnly == 0 && (d == "ifdef __cplusplus" || d == "if defined(__cplusplus)" || d == "if defined __cplusplus"):
				cppOnly = 1
				continue
			case cppOnly > 0 && strings.HasPrefix(d, "if"):
				cppOnly++
			case cppOnly > 0 && strings.HasPrefix(d, "endif"):
				cppOnly--
			case cppOnly == 1 && (strings.HasPrefix(d, "else") || strings.HasPrefix(d, "elif")):
				cppOnly = 0
			}
		}
		if cppOnly > 0 {
			continue
		}
		if lineMarker(l) {
			return true
		}
	}
	return false
}

// directive returns a preprocessor line without its "#", its comment and
// extra blanks: "ifdef __cplusplus".
func directive(l []byte) string {
	d := string(bytes.TrimSpace(l[1:]))
	if i := strings.Index(d, "//"); i >= 0 {
		d = d[:i]
	}
	if i := strings.Index(d, "/*"); i >= 0 {
		d = d[:i]
	}
	return strings.Join(strings.Fields(d), " ")
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

// rootKinds are the nodes the query runs from in both grammars; C++ adds
// its own.
var rootKinds = []string{"function_definition", "declaration", "field_declaration", "type_definition",
	"struct_specifier", "union_specifier", "enum_specifier", "preproc_def", "preproc_function_def", "preproc_include"}

// root reports whether the query runs from node n: a declaration of the
// file, where walked says the file declares, not one in a function's
// code; a record where a declaration of the file has it as its type; a
// using directive anywhere but a class body (in a function, an import of
// that function).
func root(t *lang.Tree, n int32) bool {
	switch t.Kind(n) {
	case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
		switch p := t.Parent(n); t.Kind(p) {
		case "declaration", "field_declaration", "type_definition":
			return t.FieldName(n) == "type" && walked(t, p)
		}
	case "using_declaration":
		return t.Kind(t.Parent(n)) != "field_declaration_list"
	case "field_declaration":
		// a data member is its class's field, not a symbol: the query
		// reads the methods a class declares
		if p := t.Kind(t.Parent(n)); (p == "field_declaration_list" || strings.HasPrefix(p, "preproc_")) && unwrapDeclarator(t, t.Field(n, "declarator")).fn < 0 {
			return false
		}
	}
	return walked(t, n)
}

// walked reports whether node n is a declaration of the file: a child of
// the file, of a namespace, linkage or template, of a preprocessor
// conditional among them, or a member of a class body.
func walked(t *lang.Tree, n int32) bool {
	p := t.Parent(n)
	if p <= 0 {
		return p == 0 // the root's children, whatever its kind (ERROR)
	}
	switch t.Kind(p) {
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		if f := t.FieldName(n); f == "condition" || f == "name" {
			return false
		}
		return walked(t, p)
	case "declaration_list", "ERROR":
		return walked(t, p)
	case "linkage_specification", "namespace_definition":
		return t.FieldName(n) == "body" && walked(t, p)
	case "template_declaration":
		return t.FieldName(n) != "parameters" && walked(t, p)
	case "field_declaration_list":
		// the members of a named (or typedef-named) struct, union or class
		switch r := t.Parent(p); t.Kind(r) {
		case "struct_specifier", "union_specifier", "class_specifier":
			if t.Field(r, "name") < 0 && t.Kind(t.Parent(r)) != "type_definition" {
				return false
			}
			return root(t, r)
		}
	}
	return false
}

// defs says which node each definition's symbol spans: a declaration of
// one name spans the declaration (a declarator each of several), and a
// template's declaration its template; the name an anonymous record takes
// from its typedef is the record's alone.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	named := map[int32]bool{}
	for _, d := range ds {
		if isRecord(t.Kind(d.Node)) && t.Field(d.Node, "name") < 0 {
			named[d.Name] = true
		}
	}
	out := ds[:0]
	for _, d := range ds {
		if p := t.Parent(d.Node); t.FieldName(d.Node) == "declarator" {
			if named[d.Name] && t.Kind(p) == "type_definition" {
				continue
			}
			// a function declared spans its declaration; a variable
			// too, unless the declaration declares several
			if fn := unwrapDeclarator(t, d.Node).fn >= 0 && !isFuncPointer(t, d.Node); !fn {
				if !several(t, p) {
					d.Node = p
				}
				out = append(out, d)
				continue
			}
			d.Node = p
		}
		if p := t.Parent(d.Node); p >= 0 && t.Kind(p) == "template_declaration" {
			d.Node = p
		}
		out = append(out, d)
	}
	return out
}

func isRecord(k string) bool {
	return k == "struct_specifier" || k == "union_specifier" || k == "enum_specifier" || k == "class_specifier"
}

// several reports whether declaration n declares more than one name.
func several(t *lang.Tree, n int32) bool {
	count := 0
	for ch := range t.Children(n) {
		if t.FieldName(ch) == "declarator" {
			count++
		}
	}
	return count > 1
}

// inner is the declaration a template declares, n itself for another.
func inner(t *lang.Tree, n int32) int32 {
	if t.Kind(n) != "template_declaration" {
		return n
	}
	in := n
	for ch := range t.NamedChildren(n) {
		if t.FieldName(ch) != "parameters" && !t.IsComment(ch) {
			in = ch // the last: what the grammar could not read comes first
		}
	}
	return in
}

// place is where a declaration stands: the class whose body holds it (-1
// outside one) and the access there, whether an anonymous namespace hides
// it, and the template around it (-1).
type place struct {
	cls    int32
	access string
	hidden bool
	tmpl   int32
}

func placeOf(t *lang.Tree, n int32) place {
	pl := place{cls: -1, tmpl: -1}
	// the template around n, or around the declaration n is the type of
	for a, i := n, 0; a >= 0 && i < 3; a, i = t.Parent(a), i+1 {
		if k := t.Kind(a); k == "template_declaration" {
			pl.tmpl = a
			break
		} else if i > 0 && k != "declaration" && k != "field_declaration" {
			break
		}
	}
	for a := t.Parent(n); a >= 0; a = t.Parent(a) {
		switch t.Kind(a) {
		case "field_declaration_list":
			if pl.cls < 0 {
				pl.cls, pl.access = t.Parent(a), lang.VisPublic
				if t.Kind(pl.cls) == "class_specifier" {
					pl.access = lang.VisPrivate
				}
				pl.access = access(t, a, n, pl.access)
			}
		case "namespace_definition":
			pl.hidden = pl.hidden || t.Field(a, "name") < 0
		}
	}
	return pl
}

// access is the access in force at member m of class body b, acc where
// none is said: the last access specifier before it, also one a
// preprocessor conditional of the body before it (or holding it) says.
func access(t *lang.Tree, b, m int32, acc string) string {
	for ch := range t.NamedChildren(b) {
		if t.Nodes[ch].StartByte > t.Nodes[m].StartByte {
			break
		}
		if k := t.Kind(ch); strings.HasPrefix(k, "preproc_") && t.Kind(b) == "field_declaration_list" {
			acc = access(t, ch, m, acc)
		} else if a := strings.TrimSpace(strings.TrimSuffix(t.Text(ch), ":")); k == "access_specifier" && (a == "public" || a == "protected" || a == "private") {
			acc = a
		}
	}
	return acc
}

// nsPath is the qualified name of the namespaces around n.
func nsPath(t *lang.Tree, n int32) string {
	q := ""
	for a := t.Parent(n); a >= 0; a = t.Parent(a) {
		if t.Kind(a) == "namespace_definition" {
			q = join(namespaceName(t, a), q)
		}
	}
	return q
}

// symbol completes the symbol of a definition: its declared name and
// kind, signature, visibility and doc. An out-of-line method's class and
// a member's export are finish's: they need the file's other symbols.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	at := d.Node
	if t.FieldName(at) == "declarator" {
		at = t.Parent(at) // one of several names a declaration declares
	}
	n, pl := at, placeOf(t, at)
	if t.Kind(at) == "template_declaration" {
		// the template's declaration that holds the name
		for n = d.Name; n >= 0 && t.Parent(n) != at; n = t.Parent(n) {
		}
		if n < 0 {
			return false
		}
	}
	if pl.tmpl >= 0 && pl.tmpl != at {
		at = pl.tmpl // a record a template's declaration defines
		s.Signature.Text = headerText(t, at, d.Body)
	}
	s.Doc = doc(t, at)
	switch k := t.Kind(n); {
	case k == "function_definition":
		return functionSymbol(t, n, d.Name, pl, s)
	case k == "preproc_def" || k == "preproc_function_def":
		return macro(t, n, s)
	case isRecord(k):
		return record(t, n, d, pl, s)
	case k == "namespace_definition":
		return namespace(t, n, pl, s)
	case k == "alias_declaration":
		s.Signature.Returns = lang.OneLine(t.FieldText(n, "type"))
		s.Signature.Generics = generics(t, pl.tmpl)
		visibility(t, s, pl, false)
		s.Signature.Text = strings.TrimSuffix(lang.OneLine(t.Text(d.Node)), ";")
		return true
	}
	if t.Kind(n) == "type_definition" {
		return typedef(t, n, d.Name, s)
	}
	return declared(t, n, d.Name, pl, s)
}

// macro makes #define NAME(args) a function and #define NAME value a
// variable, hung from the file: a macro knows no namespace or class.
func macro(t *lang.Tree, n int32, s *lang.Symbol) bool {
	s.Parent, s.Exported = 0, isHeader(t.Path)
	s.Signature.Modifiers = []string{"macro"}
	s.Signature.Text = lang.Shorten(lang.OneLine(strings.TrimRight(t.Text(n), "\n")), lang.MaxSigText)
	if t.Kind(n) == "preproc_def" {
		if strings.TrimSpace(t.FieldText(n, "value")) == "" {
			return false // an include guard, a feature flag
		}
		s.Signature.Modifiers = append(s.Signature.Modifiers, "const")
		return true
	}
	s.Kind = lang.KindFunction // in a class body too
	ps := t.Field(n, "parameters")
	if ps < 0 {
		return true
	}
	for p := range t.NamedChildren(ps) {
		if t.Kind(p) == "identifier" {
			s.Signature.Params = append(s.Signature.Params, lang.Param{Name: t.Text(p)})
		}
	}
	if strings.Contains(t.Text(ps), "...") {
		s.Signature.Params = append(s.Signature.Params, lang.Param{Name: "...", Variadic: true})
	}
	return true
}

// functionSymbol completes a function or method defined at n (a
// function_definition, or a declaration for a prototype) with declarator
// dn.
func functionSymbol(t *lang.Tree, n, dn int32, pl place, s *lang.Symbol) bool {
	d := unwrapDeclarator(t, dn)
	if d.fn < 0 || d.name < 0 {
		return false // a macro-mangled declaration: its code is the file's
	}
	if testMacros[t.Text(d.name)] && t.Field(n, "type") < 0 {
		var args []string
		if ps := t.Field(d.fn, "parameters"); ps >= 0 {
			for p := range t.NamedChildren(ps) {
				args = append(args, lang.OneLine(t.Text(p)))
			}
		}
		return testSymbol(t.Text(d.name), args, nsPath(t, n), s)
	}
	scopeName, name, dtor := nameParts(t, d.name)
	if name == "" {
		return false
	}
	s.Name, s.Kind = name, lang.KindFunction
	mods := modifiers(t, n, d.fn)
	if pl.tmpl >= 0 {
		mods = append([]string{"template"}, mods...)
		s.Signature.Generics = generics(t, pl.tmpl)
	}
	if t.Field(n, "body") < 0 && pl.cls < 0 {
		mods = append(mods, "declaration")
	}
	if t.Kind(n) != "function_definition" && pl.tmpl < 0 {
		s.Signature.Text = headerText(t, n, -1) // one of a declaration's names
	}
	s.Signature.Modifiers = mods
	if pl.cls >= 0 && scopeName == "" {
		s.Kind = lang.KindMethod
		if _, cls, _ := nameParts(t, t.Field(pl.cls, "name")); !dtor && name == cls {
			s.Kind = lang.KindConstructor
		}
	}
	visibility(t, s, pl, slices.Contains(mods, "static") && pl.cls < 0)
	s.Signature.Params = params(t, t.Field(d.fn, "parameters"), nil)
	s.Signature.Returns = returnType(t, n, d)
	return true
}

// declared completes what declarator dn of declaration n declares: a
// prototype (a symbol in a header, where it is the API; in a source file
// it only forward-declares), a method declared in its class, a global
// variable. A class's data members are its fields, not symbols.
func declared(t *lang.Tree, n, dn int32, pl place, s *lang.Symbol) bool {
	header := isHeader(t.Path)
	d := unwrapDeclarator(t, dn)
	if d.name < 0 {
		return false
	}
	if d.fn >= 0 && !isFuncPointer(t, dn) {
		return (pl.cls >= 0 || header) && functionSymbol(t, n, dn, pl, s)
	}
	mods := modifiers(t, n, -1)
	if pl.cls >= 0 || slices.Contains(mods, "extern") && !header {
		return false // a field; a variable defined elsewhere
	}
	scopeName, name, _ := nameParts(t, d.name)
	if name == "" || t.Kind(d.name) == "type_identifier" {
		return false
	}
	s.Name, s.Kind = name, lang.KindVariable
	if scopeName != "" {
		// int A::count = 0: a static member's definition
		s.Container = join(nsPath(t, n), scopeName)
	}
	s.Doc = doc(t, n)
	base := baseType(t, n)
	if strings.HasPrefix(base, "const ") || strings.Contains(base, " const") {
		mods = append(mods, "const")
	}
	s.Signature.Modifiers = mods
	s.Signature.Returns = typeWithDeco(base, d.deco)
	visibility(t, s, pl, slices.Contains(mods, "static"))
	if several(t, n) {
		dt := t.Text(dn)
		if d.value >= 0 && t.Nodes[d.value].StartByte > t.Nodes[dn].StartByte {
			dt = string(t.Src[t.Nodes[dn].StartByte:t.Nodes[d.value].StartByte])
		}
		dt = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(dt), "="))
		s.Signature.Text = lang.Shorten(lang.OneLine(base+" "+dt), lang.MaxSigText)
	} else {
		text := headerText(t, n, d.value)
		s.Signature.Text = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(text, "=")), ";")
	}
	return true
}

// headerText is Extractor.HeaderText for a hook, which has no Extractor.
func headerText(t *lang.Tree, n, body int32) string {
	return (&lang.Extractor{Tree: t}).HeaderText(n, body)
}

// typedef makes a name of typedef n (declarator dn) a type whose Returns
// is the type it names.
func typedef(t *lang.Tree, n, dn int32, s *lang.Symbol) bool {
	base := baseType(t, n)
	d := unwrapDeclarator(t, dn)
	if d.name < 0 {
		return false
	}
	s.Name, s.Kind = t.Text(d.name), lang.KindType
	if d.fn < 0 && d.deco == "" && strings.HasSuffix(base, " "+s.Name) && strings.Count(base, " ") == 1 {
		return false // typedef struct foo foo: the struct is the type
	}
	if d.fn >= 0 {
		// typedef int (*cmp_fn)(const void *, const void *)
		s.Signature.Params = params(t, t.Field(d.fn, "parameters"), nil)
		s.Signature.Returns = strings.TrimPrefix(funcPointerType(t, n, d), "typedef ")
		s.Signature.Modifiers = []string{"function pointer"}
	} else {
		s.Signature.Returns = typeWithDeco(base, d.deco)
	}
	visibility(t, s, placeOf(t, n), false)
	s.Doc = doc(t, n)
	s.Signature.Text = strings.TrimSuffix(lang.OneLine(t.Text(n)), ";")
	if several(t, n) {
		s.Signature.Text = "typedef " + typeWithDeco(base, d.deco) + " " + s.Name
	}
	return true
}

// record completes a struct, union, enum or class with a body; an
// anonymous one is named by its typedef (d.Name).
func record(t *lang.Tree, n int32, d lang.Def, pl place, s *lang.Symbol) bool {
	kind := t.Kind(n)
	body := t.Field(n, "body")
	nameNode := t.Field(n, "name")
	if nameNode >= 0 {
		_, s.Name, _ = nameParts(t, nameNode)
	}
	s.Kind = lang.KindClass
	switch kind {
	case "struct_specifier", "union_specifier":
		s.Signature.Modifiers = []string{strings.TrimSuffix(kind, "_specifier")}
	case "enum_specifier":
		s.Kind = lang.KindType
		s.Signature.Modifiers = []string{"enum"}
		if t.ChildOfKind(n, "class") >= 0 || t.ChildOfKind(n, "struct") >= 0 {
			s.Signature.Modifiers = []string{"enum class"}
		}
	}
	if pl.tmpl >= 0 {
		s.Signature.Generics = generics(t, pl.tmpl)
		if nameNode >= 0 && t.Kind(nameNode) == "template_type" {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "specialization")
		}
	}
	if t.ChildOfKind(n, "virtual_specifier") >= 0 {
		s.Signature.Modifiers = append(s.Signature.Modifiers, "final")
	}
	for _, b := range bases(t, n) {
		s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(b)))
	}
	if kind == "enum_specifier" {
		if b := t.Field(n, "base"); b >= 0 {
			s.Signature.Returns = lang.OneLine(t.Text(b))
		}
		for e := range t.NamedChildren(body) {
			if en := t.Field(e, "name"); en >= 0 && t.Kind(e) == "enumerator" {
				s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(en), Type: s.Name, Default: lang.OneLine(t.FieldText(e, "value"))})
			}
		}
	} else {
		s.Signature.Fields = fields(t, body)
		if abstract, iface := abstractness(t, body); abstract {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "abstract")
			if iface {
				s.Kind = lang.KindInterface
			}
		}
	}
	visibility(t, s, pl, false)
	if p := t.Parent(n); s.Doc == "" && (t.Kind(p) == "type_definition" || t.Kind(p) == "declaration") {
		s.Doc = doc(t, p)
	}
	return true
}

// bases are the types of a class's base clause.
func bases(t *lang.Tree, n int32) []int32 {
	var out []int32
	bc := t.ChildOfKind(n, "base_class_clause")
	if bc < 0 {
		return nil
	}
	for b := range t.NamedChildren(bc) {
		if k := t.Kind(b); k != "access_specifier" && k != "virtual" {
			out = append(out, b)
		}
	}
	return out
}

// namespace completes a named namespace, a module; a::b is b in a.
func namespace(t *lang.Tree, n int32, pl place, s *lang.Symbol) bool {
	name := namespaceName(t, n)
	s.Name = lastDotted(name)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		s.Container = join(nsPath(t, n), name[:i])
	}
	s.Exported, s.Visibility = !pl.hidden, lang.VisPublic
	if pl.hidden {
		s.Visibility = lang.VisInternal
	}
	if t.ChildOfKind(n, "inline") >= 0 {
		s.Signature.Modifiers = []string{"inline"}
	}
	return true
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

// visibility sets a symbol's visibility from where it stands: a class
// member's by access (finish makes it exported only when its class is),
// others by linkage.
func visibility(t *lang.Tree, s *lang.Symbol, pl place, static bool) {
	switch {
	case pl.cls >= 0:
		s.Visibility = pl.access
		s.Exported = s.Visibility == lang.VisPublic
	case static || pl.hidden:
		s.Exported, s.Visibility = false, lang.VisInternal
	default:
		s.Exported, s.Visibility = true, lang.VisExported
		if !isHeader(t.Path) && s.Kind != lang.KindFunction && s.Kind != lang.KindVariable && s.Kind != lang.KindMethod && s.Kind != lang.KindConstructor {
			// a type defined in a source file is seen by that file only
			s.Exported, s.Visibility = false, lang.VisInternal
		}
	}
}

// doc is the comment block right above node n: /** */, /// or // lines, with
// no blank line between them and n, not trailing code on their line.
func doc(t *lang.Tree, n int32) string {
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

// declarator is what a declarator chain declares.
type declarator struct {
	name  int32  // the declared name (identifier, qualified_identifier, destructor_name, operator_name, ...), -1
	fn    int32  // the function_declarator, -1 when not a function
	value int32  // the initializer, -1
	deco  string // "*", "&", "[]" applied to the base type, outermost first
}

// unwrapDeclarator follows a declarator down to its name.
func unwrapDeclarator(t *lang.Tree, d int32) declarator {
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
func nameParts(t *lang.Tree, n int32) (scope, name string, dtor bool) {
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
func baseType(t *lang.Tree, n int32) string {
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
func modifiers(t *lang.Tree, n, fn int32) []string {
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

// params reads a parameter list, typing the names it binds in scope.
func params(t *lang.Tree, list int32, scope *scope) []lang.Param {
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for p := range t.NamedChildren(list) {
		switch t.Kind(p) {
		case "variadic_parameter":
			out = append(out, lang.Param{Name: "...", Variadic: true})
		case "parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration":
			d := unwrapDeclarator(t, t.Field(p, "declarator"))
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
				scope.SetType(prm.Name, varType(t, t.Field(p, "type"), d.deco))
			}
		}
	}
	return out
}

func lastDotted(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// returnType is the type a function declarator returns: the declaration's
// base type and the pointers between it and the function's name; a
// trailing return type when there is one.
func returnType(t *lang.Tree, n int32, d declarator) string {
	if tr := t.ChildOfKind(d.fn, "trailing_return_type"); tr >= 0 {
		return strings.TrimPrefix(strings.TrimSpace(lang.OneLine(t.Text(tr))), "-> ")
	}
	base := baseType(t, n)
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
func generics(t *lang.Tree, tmpl int32) []string {
	if tmpl < 0 {
		return nil
	}
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

// abstractness reports whether a class body declares a pure virtual
// method, and whether it declares nothing else (no data, no defined
// methods): C++'s interface.
func abstractness(t *lang.Tree, body int32) (abstract, iface bool) {
	iface = true
	for m := range t.NamedChildren(body) {
		switch t.Kind(m) {
		case "field_declaration":
			d := unwrapDeclarator(t, t.Field(m, "declarator"))
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
			d := unwrapDeclarator(t, t.Field(m, "declarator"))
			if d.name >= 0 && t.Kind(d.name) == "destructor_name" {
				continue // virtual ~I() {}
			}
			iface = false
		case "declaration":
			d := unwrapDeclarator(t, t.Field(m, "declarator"))
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
func fields(t *lang.Tree, body int32) []lang.Param {
	var out []lang.Param
	var scan func(b int32, depth int)
	scan = func(b int32, depth int) {
		for m := range t.NamedChildren(b) {
			switch t.Kind(m) {
			case "field_declaration":
				base := baseType(t, m)
				named := false
				for dn := range t.Children(m) {
					if t.FieldName(dn) != "declarator" {
						continue
					}
					d := unwrapDeclarator(t, dn)
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

// testMacros define test cases: GoogleTest, Catch2, doctest, Boost.Test.
var testMacros = map[string]bool{
	"TEST": true, "TEST_F": true, "TEST_P": true, "TYPED_TEST": true, "TYPED_TEST_P": true, "FRIEND_TEST": false,
	"TEST_CASE": true, "TEST_CASE_METHOD": true, "SCENARIO": true, "BOOST_AUTO_TEST_CASE": true,
	"BOOST_FIXTURE_TEST_CASE": true,
}

// testSymbol makes s the test function a test macro defines, in namespace
// ns: TEST(Suite, Name) is Suite.Name; TEST_CASE("name") is named by its
// string.
func testSymbol(macro string, args []string, ns string, s *lang.Symbol) bool {
	if len(args) == 0 {
		return false
	}
	s.Kind, s.IsTest, s.Exported, s.Visibility = lang.KindFunction, true, false, lang.VisInternal
	if strings.HasPrefix(args[0], `"`) {
		s.Name = strings.Trim(args[0], `"`)
	} else if len(args) >= 2 {
		s.Container = join(ns, args[0])
		s.Name = strings.Trim(args[1], `"`) // Catch2's TEST_CASE_METHOD(Fixture, "name", "[tags]")
	} else {
		s.Name = args[0]
	}
	s.Signature.Modifiers = []string{macro}
	return strings.TrimSpace(s.Name) != ""
}

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
