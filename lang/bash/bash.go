// Package bash is sdl's room for Bash and POSIX shell scripts: a walker
// over the syntax tree (functions, variables, source imports, guards and
// side effects), resolution of calls through sourced scripts, and the
// skeleton rules of if, loops and case.
package bash

import (
	"embed"
	"path"
	"strings"
	"unicode/utf8"

	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"

	"github.com/sdl-dev/sdl/lang"
)

// data holds the room's data files: test-path patterns, side effects and
// the shell's builtins.
//
//go:embed *.txt
var data embed.FS

func init() {
	lang.RegisterWalker(lang.Walker{
		Name: "bash", Extensions: []string{".sh", ".bash"},
		Filenames: []string{".bashrc", ".bash_profile", ".bash_aliases", ".bash_logout"},
		Grammar:   tsbash.Language(),
		Comments:  []string{"comment"},
		Strings:   []string{"string", "raw_string", "ansi_c_string", "translated_string", "heredoc_body"},
		Idents:    []string{"variable_name", "word"},
		Data:      data,
		Builtins:  builtins,
		Extract:   extract,
		Resolve:   resolve, ResolveImport: resolveImport,
		Skeleton: skeleton,
	})
}

// walk is where the Bash walker is.
type walk struct {
	sym int  // the symbol code belongs to
	top bool // a statement of a function body itself, where an early exit is a guard
	fn  bool // inside a function body
}

func extract(x *lang.Extractor) {
	if x.Tree.Lang.IsTestPath(x.Path) {
		x.Facts.IsTest = true
		x.Facts.Symbols[0].IsTest = true
	}
	// source finds a script by its path; resolution matches the end of it
	x.Facts.Module = x.Path
	x.Facts.Symbols[0].Doc = fileDoc(x)
	seen := map[string]bool{}
	statements(x, 0, walk{sym: 0}, seen)
}

// fileDoc is the comment block at the top of a script, after the
// shebang.
func fileDoc(x *lang.Extractor) string {
	t := x.Tree
	var parts []string
	line := uint32(0)
	for c := range t.Children(0) {
		if t.Kind(c) != "comment" {
			break
		}
		text := t.Text(c)
		if t.Nodes[c].StartRow == 0 && strings.HasPrefix(text, "#!") {
			line = 1
			continue
		}
		if t.Nodes[c].StartRow > line+1 && len(parts) > 0 {
			break
		}
		parts = append(parts, text)
		line = t.Nodes[c].EndRow
	}
	return lang.CleanComment(strings.Join(parts, "\n"))
}

// statements walks a list of statements. seen holds the variables a
// script's top level declared already: a reassignment is no new symbol.
func statements(x *lang.Extractor, n int32, c walk, seen map[string]bool) {
	for st := range x.Tree.NamedChildren(n) {
		node(x, st, c, seen)
	}
}

// node walks one node.
func node(x *lang.Extractor, n int32, c walk, seen map[string]bool) {
	t := x.Tree
	switch t.Kind(n) {
	case "comment":
		return
	case "function_definition":
		function(x, n, c)
		return
	case "variable_assignment":
		if !c.fn && seen != nil {
			variable(x, n, n, c, nil, seen)
			return
		}
	case "declaration_command":
		declaration(x, n, c, seen)
		return
	case "command":
		command(x, n, c)
		return
	case "redirected_statement":
		for ch := range t.NamedChildren(n) {
			if t.FieldName(ch) == "redirect" && t.Kind(ch) == "file_redirect" && writesFile(x, ch) {
				// > file, >> file: writes it
				x.Ref(lang.Ref{Kind: lang.RefCall, Name: ">", Symbol: c.sym}, ch)
			}
		}
	case "list":
		if c.top {
			listGuard(x, n, c)
		}
	case "if_statement":
		if c.top {
			ifGuard(x, n, c)
		}
	case "subshell", "compound_statement":
		// ( ... ) and { ... } at the top of a script stay top-level code
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		node(x, ch, c, seen)
	}
}

// writesFile reports whether a redirection writes a file (not
// /dev/null or another descriptor).
func writesFile(x *lang.Extractor, r int32) bool {
	t := x.Tree
	dest := t.FieldText(r, "destination")
	if dest == "" || dest == "/dev/null" || strings.HasPrefix(dest, "&") {
		return false
	}
	text := t.Text(r)
	if i := strings.Index(text, dest); i >= 0 {
		text = text[:i]
	}
	return strings.Contains(text, ">") && !strings.Contains(text, ">&")
}

func function(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	body := t.Field(n, "body")
	s := lang.Symbol{Kind: lang.KindFunction, Name: t.Text(name), Parent: c.sym}
	if strings.HasPrefix(s.Name, "_") {
		s.Visibility = lang.VisPrivate
	} else {
		s.Exported, s.Visibility = true, lang.VisPublic
	}
	s.Signature.Text = x.HeaderText(n, body)
	s.Doc = x.DocBefore(n)
	s.Signature.Params = params(x, body, s.Doc)
	if x.Facts.IsTest && strings.HasPrefix(s.Name, "test") {
		s.IsTest = true
	}
	sym := x.AddSymbol(s, n, name, body)
	if body < 0 {
		return
	}
	inner := walk{sym: sym, fn: true, top: true}
	if t.Kind(body) == "compound_statement" {
		for st := range t.NamedChildren(body) {
			node(x, st, inner, nil)
		}
		return
	}
	inner.top = false
	node(x, body, inner, nil)
}

// params names a function's positional parameters from the locals it
// assigns them to (local name="$1"), or from its doc.
func params(x *lang.Extractor, body int32, doc string) []lang.Param {
	t := x.Tree
	if body < 0 {
		return nil
	}
	var out []lang.Param
	for st := range t.NamedChildren(body) {
		if t.Kind(st) != "declaration_command" {
			continue
		}
		for a := range t.NamedChildren(st) {
			if t.Kind(a) != "variable_assignment" {
				continue
			}
			v := t.Field(a, "value")
			if v < 0 {
				continue
			}
			text := strings.Trim(t.Text(v), `"'`)
			switch {
			case len(text) == 2 && text[0] == '$' && text[1] >= '1' && text[1] <= '9',
				strings.HasPrefix(text, "${") && len(text) >= 4 && text[2] >= '1' && text[2] <= '9':
				p := lang.Param{Name: t.FieldText(a, "name")}
				if i := strings.Index(text, ":-"); i >= 0 {
					p.Default = strings.TrimSuffix(text[i+2:], "}")
					p.Optional = true
				}
				out = append(out, p)
			case text == "$@" || text == "$*" || text == "${@}":
				out = append(out, lang.Param{Name: t.FieldText(a, "name"), Variadic: true})
			}
		}
	}
	return out
}

// declaration handles export, readonly, declare, typeset and local:
// at the top of a script their variables are symbols.
func declaration(x *lang.Extractor, n int32, c walk, seen map[string]bool) {
	t := x.Tree
	kw := ""
	var flags []string
	for ch := range t.Children(n) {
		switch k := t.Kind(ch); k {
		case "export", "readonly", "declare", "typeset", "local":
			kw = k
		case "word":
			if strings.HasPrefix(t.Text(ch), "-") {
				flags = append(flags, t.Text(ch))
			}
		}
	}
	exported := kw == "export"
	mods := []string{kw}
	for _, f := range flags {
		if strings.Contains(f, "x") && strings.HasPrefix(f, "-") {
			exported = true
		}
		if strings.Contains(f, "r") {
			mods = append(mods, "readonly")
		}
		if strings.Contains(f, "f") && kw == "export" {
			// export -f name: functions, not variables
			return
		}
	}
	if kw == "readonly" {
		mods = []string{"readonly"}
	}
	if exported && kw != "export" {
		mods = append(mods, "export")
	}
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "variable_assignment":
			if kw == "local" || c.fn || seen == nil {
				in := c
				in.top = false
				if v := t.Field(ch, "value"); v >= 0 {
					node(x, v, in, nil)
				}
				continue
			}
			s := mods
			variable(x, n, ch, c, s, seen, exported)
		case "variable_name":
			// export NAME: an existing variable is exported
			if exported && !c.fn && seen != nil {
				name := t.Text(ch)
				for i := range x.Facts.Symbols {
					if sym := &x.Facts.Symbols[i]; sym.Kind == lang.KindVariable && sym.Name == name && sym.Parent == c.sym {
						sym.Exported, sym.Visibility = true, lang.VisExported
					}
				}
			}
		}
	}
}

// variable makes a top-level assignment a variable symbol, the first
// time the script assigns it.
func variable(x *lang.Extractor, decl, a int32, c walk, mods []string, seen map[string]bool, exported ...bool) {
	t := x.Tree
	name := t.Field(a, "name")
	val := t.Field(a, "value")
	in := c
	in.top = false
	if name < 0 || t.Kind(name) != "variable_name" || seen[t.Text(name)] {
		if val >= 0 {
			node(x, val, in, nil)
		}
		return
	}
	seen[t.Text(name)] = true
	s := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(name), Parent: c.sym, Visibility: lang.VisInternal}
	if len(exported) > 0 && exported[0] {
		s.Exported, s.Visibility = true, lang.VisExported
	}
	s.Signature.Modifiers = mods
	s.Signature.Text = lang.Shorten(lang.OneLine(t.Text(decl)), 120)
	if val >= 0 && t.Kind(val) == "array" {
		s.Signature.Returns = "array"
	}
	s.Doc = x.DocBefore(decl)
	sym := x.AddSymbol(s, decl, name, val)
	if val >= 0 {
		in.sym = sym
		node(x, val, in, nil)
	}
}

// wrapperArgs are, per wrapper, the options that take a value.
var wrapperArgs = map[string]string{
	"sudo": "ugChprtUD", "doas": "uC", "nice": "n", "xargs": "InPLsdEa", "timeout": "sk", "ionice": "cnp",
	"flock": "wE", "watch": "nd", "env": "uCS", "stdbuf": "ioe", "chroot": "",
}

// notCommands are words a broken script leaves where a command would
// be.
var notCommands = lang.NameSet(`{ } ( ) fi then else elif done do esac in ;; !`)

// wrappers run the command that follows their options.
var wrappers = lang.NameSet(`sudo exec env nohup time command builtin xargs timeout nice ionice stdbuf doas chroot
	watch flock setsid unbuffer`)

// command records a command as a call of that name, and, for source
// and ., an import.
func command(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	nameNode := t.Field(n, "name")
	in := c
	in.top = false
	var args []int32
	for ch := range t.NamedChildren(n) {
		if t.FieldName(ch) == "argument" {
			args = append(args, ch)
		}
	}
	walkRest := func() {
		for ch := range t.NamedChildren(n) {
			if ch != nameNode {
				node(x, ch, in, nil)
			}
		}
	}
	if nameNode < 0 {
		walkRest()
		return
	}
	word := t.FirstNamedChild(nameNode)
	if word < 0 || t.Kind(word) != "word" {
		walkRest() // $CMD args, "$(...)": a command we cannot name
		return
	}
	name := t.Text(word)
	if notCommands[name] || !utf8.ValidString(name) {
		walkRest() // debris of a syntax error
		return
	}
	switch name {
	case "source", ".":
		if len(args) > 0 {
			if src := wordText(t, args[0]); src != "" && utf8.ValidString(src) {
				x.Facts.Imports = append(x.Facts.Imports, lang.Import{Source: src, Line: t.StartLine(n), Symbol: c.sym})
			}
		}
	}
	x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Symbol: c.sym}, n)
	if wrappers[name] {
		// sudo -u x kubectl ...: the wrapped command runs too
		skip := false
		for i, a := range args {
			w := wordText(t, a)
			if skip {
				skip = false
				continue
			}
			if strings.HasPrefix(w, "-") && len(w) == 2 && strings.IndexByte(wrapperArgs[name], w[1]) >= 0 {
				skip = true // an option that takes a value
				continue
			}
			if w == "" || strings.HasPrefix(w, "-") || strings.Contains(w, "=") || name == "timeout" && i == 0 {
				continue
			}
			if strings.ContainsAny(w, "$`") || !utf8.ValidString(w) {
				break // a command in a variable
			}
			if t.Kind(a) == "word" || t.Kind(a) == "string" || t.Kind(a) == "raw_string" {
				x.Ref(lang.Ref{Kind: lang.RefCall, Name: path.Base(w), Symbol: c.sym}, a)
			}
			break
		}
	}
	walkRest()
}

// wordText is the literal text of a word or string, with the quotes
// removed and expansions kept as written.
func wordText(t *lang.Tree, n int32) string {
	s := t.Text(n)
	switch t.Kind(n) {
	case "string", "raw_string":
		if len(s) >= 2 {
			s = s[1 : len(s)-1]
		}
	case "word", "concatenation", "simple_expansion", "expansion":
	default:
		return ""
	}
	s = strings.ReplaceAll(s, `"`, "")
	if strings.ContainsAny(s, "\n") {
		return ""
	}
	return s
}

// exitAction is the early exit a statement makes: exit, return, or a
// call of a function named like die; "" for others.
func exitAction(x *lang.Extractor, st int32) string {
	t := x.Tree
	for t.Kind(st) == "compound_statement" || t.Kind(st) == "subshell" {
		// { echo usage; exit 1; }: its last statement
		var last int32 = -1
		for ch := range t.NamedChildren(st) {
			last = ch
		}
		if last < 0 {
			return ""
		}
		st = last
	}
	if t.Kind(st) == "redirected_statement" {
		if b := t.Field(st, "body"); b >= 0 {
			st = b
		}
	}
	if t.Kind(st) != "command" {
		return ""
	}
	name := t.FieldText(st, "name")
	switch name {
	case "exit", "return":
		return lang.Shorten(lang.OneLine(t.Text(st)), 60)
	case "die", "fatal", "abort", "error_exit", "fail", "panic", "bail", "usage":
		return name
	}
	return ""
}

// listGuard records cmd || exit and cmd && exit among the statements
// of a function body.
func listGuard(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	var parts []int32
	for ch := range t.NamedChildren(n) {
		parts = append(parts, ch)
	}
	if len(parts) != 2 {
		return
	}
	action := exitAction(x, parts[1])
	if action == "" {
		return
	}
	op := strings.TrimSpace(string(t.Src[t.Nodes[parts[0]].EndByte:t.Nodes[parts[1]].StartByte]))
	cond := t.Text(parts[0])
	if op == "||" {
		cond = "!(" + cond + ")"
	}
	x.Guard(c.sym, cond, action, n)
}

// ifGuard records if cond; then exit/return; fi (no else) among the
// statements of a function body.
func ifGuard(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	var cond []string
	var first int32 = -1
	for ch := range t.NamedChildren(n) {
		switch {
		case t.Kind(ch) == "elif_clause" || t.Kind(ch) == "else_clause":
			return
		case t.FieldName(ch) == "condition":
			cond = append(cond, t.Text(ch))
		case first < 0 && !t.IsComment(ch):
			first = ch
		}
	}
	if first < 0 || len(cond) == 0 {
		return
	}
	if action := exitAction(x, first); action != "" {
		x.Guard(c.sym, strings.Join(cond, "; "), action, n)
	}
}
