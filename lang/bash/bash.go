// Package bash is sdl's room for Bash and POSIX shell scripts: functions,
// variables, commands and source imports come from tags.scm; this file
// holds what a query cannot say (which assignments are symbols, the
// command a wrapper runs, guards and side effects), resolution of calls
// through sourced scripts, and the skeleton rules of if, loops and case.
package bash

import (
	"embed"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/lang/grammar"

	"github.com/sdl-dev/sdl/lang"
)

// data holds the room's data files: test-path patterns, side effects and
// the shell's builtins.
//
//go:embed *.txt
var data embed.FS

//go:embed tags.scm
var tags string

func init() {
	lang.Register(lang.Spec{
		Name: "bash", Extensions: []string{".sh", ".bash"},
		Filenames: []string{".bashrc", ".bash_profile", ".bash_aliases", ".bash_logout"},
		Grammar:   grammar.Bash(),
		Query:     tags, QueryFile: "lang/bash/tags.scm",
		Comments: []string{"comment"},
		Strings:  []string{"string", "raw_string", "ansi_c_string", "translated_string", "heredoc_body"},
		Idents:   []string{"variable_name", "word"},
		Data:     data,
		Builtins: builtins,
		Symbol:   symbol,
		Defs:     defs,
		Ref:      ref,
		Import:   imports,
		// source finds a script by its path; resolution matches the end of it
		Module:    func(filePath string, _ *lang.Tree, _ string) string { return filePath },
		Finish:    finish,
		Resolver:  lang.Resolvers{Ref: resolve, Import: resolveImport},
		SkelRules: skeleton,
	})
}

// finish adds the script's doc, the exports of variables assigned
// before, and the guards of functions.
func finish(x *lang.Extractor) {
	t := x.Tree
	x.Facts.Symbols[0].Doc = fileDoc(x)
	// a declaration's variable spans the declaration (its doc is the
	// declaration's); its own assignment stays the node its value's
	// commands hang from, for declare A=$(f) B=$(g) is one node
	for i, n := range x.SymNode {
		if p := t.Parent(n); t.Kind(n) == "variable_assignment" && t.Kind(p) == "declaration_command" {
			s := &x.Facts.Symbols[i]
			s.Range, s.StartByte, s.EndByte = t.Range(p), t.Nodes[p].StartByte, t.Nodes[p].EndByte
			s.Doc = x.DocBefore(p)
			x.SymNode[i] = p
		}
	}
	for n := int32(0); n < t.Len(); n++ {
		if t.Kind(n) == "declaration_command" && topLevel(t, n) && walked(t, n) {
			exportNames(x, n)
		}
	}
	for i, n := range x.SymNode {
		if t.Kind(n) != "function_definition" {
			continue
		}
		body := t.Field(n, "body")
		if body < 0 || t.Kind(body) != "compound_statement" {
			continue
		}
		// an early exit among the statements of a function body itself
		for st := range t.NamedChildren(body) {
			switch t.Kind(st) {
			case "list":
				listGuard(x, st, i)
			case "if_statement":
				ifGuard(x, st, i)
			}
		}
	}
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

// topLevel reports whether node n is script-level code, where an
// assignment makes a variable: not in a function, a command (FOO=1 cmd)
// or another assignment's value, nor in a declaration other than as its
// own assignment.
func topLevel(t *lang.Tree, n int32) bool {
	for c, p := n, t.Parent(n); p >= 0; c, p = p, t.Parent(p) {
		switch t.Kind(p) {
		case "function_definition", "command", "variable_assignment":
			return false
		case "declaration_command":
			if p != t.Parent(n) || t.Kind(c) != "variable_assignment" {
				return false
			}
		}
	}
	return true
}

// walked reports whether node n is in code whose commands sdl reads:
// not in a command's name ($(pick) args), a declaration's words other
// than its assignments (export "$(...)"), the name of an assignment that
// makes a variable, an export -f or a function without a name.
func walked(t *lang.Tree, n int32) bool {
	for c, p := n, t.Parent(n); p >= 0; c, p = p, t.Parent(p) {
		switch t.Kind(p) {
		case "command":
			if t.FieldName(c) == "name" {
				return false
			}
		case "declaration_command":
			if t.Kind(c) != "variable_assignment" || declaration(t, p).exportF {
				return false
			}
		case "variable_assignment":
			if t.FieldName(c) == "name" && (t.Kind(t.Parent(p)) == "declaration_command" || topLevel(t, p)) {
				return false
			}
		case "function_definition":
			if t.Field(p, "name") < 0 {
				return false
			}
		}
	}
	return true
}

// defs keeps the variables a script's top level assigns, the first time
// it assigns each, and the functions in code sdl reads.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	seen := map[string]bool{}
	var out []lang.Def
	for _, d := range ds {
		if !walked(t, d.Node) {
			continue
		}
		if d.Kind == lang.KindVariable {
			if !topLevel(t, d.Node) {
				continue
			}
			if p := t.Parent(d.Node); t.Kind(p) == "declaration_command" {
				if decl := declaration(t, p); decl.kw == "local" {
					continue
				}
			}
			if seen[t.Text(d.Name)] {
				continue // a reassignment is no new symbol
			}
			seen[t.Text(d.Name)] = true
		}
		out = append(out, d)
	}
	return out
}

// symbol reads a function's visibility and parameters, and a
// variable's modifiers.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	if d.Kind == lang.KindFunction {
		if strings.HasPrefix(s.Name, "_") {
			s.Exported, s.Visibility = false, lang.VisPrivate
		} else {
			s.Exported, s.Visibility = true, lang.VisPublic
		}
		s.Signature.Params = params(t, d.Body)
		return true
	}
	s.Exported, s.Visibility = false, lang.VisInternal
	n := d.Node
	if p := t.Parent(n); t.Kind(p) == "declaration_command" {
		n = p
		decl := declaration(t, p)
		if decl.exported {
			s.Exported, s.Visibility = true, lang.VisExported
		}
		s.Signature.Modifiers = decl.mods
	}
	s.Signature.Text = lang.Shorten(lang.OneLine(t.Text(n)), 120)
	if d.Body >= 0 && t.Kind(d.Body) == "array" {
		s.Signature.Returns = "array"
	}
	return true
}

// params names a function's positional parameters from the locals it
// assigns them to (local name="$1").
func params(t *lang.Tree, body int32) []lang.Param {
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

// decl is what a declaration's keyword and flags say: export, readonly,
// declare, typeset or local.
type decl struct {
	kw       string
	mods     []string
	exported bool
	exportF  bool // export -f name: functions, not variables
}

func declaration(t *lang.Tree, n int32) decl {
	var d decl
	var flags []string
	for ch := range t.Children(n) {
		switch k := t.Kind(ch); k {
		case "export", "readonly", "declare", "typeset", "local":
			d.kw = k
		case "word":
			if strings.HasPrefix(t.Text(ch), "-") {
				flags = append(flags, t.Text(ch))
			}
		}
	}
	d.exported = d.kw == "export"
	d.mods = []string{d.kw}
	for _, f := range flags {
		if strings.Contains(f, "x") && strings.HasPrefix(f, "-") {
			d.exported = true
		}
		if strings.Contains(f, "r") {
			d.mods = append(d.mods, "readonly")
		}
		if strings.Contains(f, "f") && d.kw == "export" {
			d.exportF = true
		}
	}
	if d.kw == "readonly" {
		d.mods = []string{"readonly"}
	}
	if d.exported && d.kw != "export" {
		d.mods = append(d.mods, "export")
	}
	return d
}

// exportNames marks the variables an export NAME (declare -x NAME) at
// the top of a script names as exported, when assigned before it.
func exportNames(x *lang.Extractor, n int32) {
	t := x.Tree
	d := declaration(t, n)
	if !d.exported || d.exportF {
		return
	}
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) != "variable_name" {
			continue
		}
		name := t.Text(ch)
		for i := range x.Facts.Symbols {
			if sym := &x.Facts.Symbols[i]; sym.Kind == lang.KindVariable && sym.Name == name && sym.Parent == 0 && x.SymNode[i] <= n {
				sym.Exported, sym.Visibility = true, lang.VisExported
			}
		}
	}
}

// ref keeps the commands sdl reads: a command's name unless it is the
// debris of a syntax error, the command a wrapper runs, a redirection
// that writes a file (as a call of >).
func ref(t *lang.Tree, m *lang.Match, r *lang.Ref) bool {
	name := m.Node("name")
	at := t.Parent(name) // the command, for a command's name or a wrapper's argument
	switch {
	case t.Kind(name) == "file_redirect":
		if t.FieldName(name) != "redirect" || !writesFile(t, name) {
			return false
		}
		r.Name, at = ">", name
	case t.Kind(at) == "command_name":
		if notCommands[r.Name] || !utf8.ValidString(r.Name) {
			return false
		}
		at = t.Parent(at)
	default:
		if wrapped(t, at) != name {
			return false
		}
		r.Name = path.Base(wordText(t, name))
	}
	return walked(t, at)
}

// imports reads source file and . file.
func imports(t *lang.Tree, n int32) []lang.Import {
	if !walked(t, n) {
		return nil
	}
	for ch := range t.NamedChildren(n) {
		if t.FieldName(ch) != "argument" {
			continue
		}
		if src := wordText(t, ch); src != "" && utf8.ValidString(src) {
			return []lang.Import{{Source: src}}
		}
		return nil
	}
	return nil
}

// writesFile reports whether a redirection writes a file (not
// /dev/null or another descriptor).
func writesFile(t *lang.Tree, r int32) bool {
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

// wrapperArgs are, per wrapper, the options that take a value.
var wrapperArgs = map[string]string{
	"sudo": "ugChprtUD", "doas": "uC", "nice": "n", "xargs": "InPLsdEa", "timeout": "sk", "ionice": "cnp",
	"flock": "wE", "watch": "nd", "env": "uCS", "stdbuf": "ioe", "chroot": "",
}

// notCommands are words a broken script leaves where a command would
// be.
var notCommands = lang.NameSet(`{ } ( ) fi then else elif done do esac in ;; !`)

// wrapped is the argument of a wrapper command (sudo -u x kubectl ...)
// that names the command it runs, past the wrapper's options; -1 when
// that command is in a variable or no word.
func wrapped(t *lang.Tree, n int32) int32 {
	name := t.FieldText(n, "name")
	var args []int32
	for ch := range t.NamedChildren(n) {
		if t.FieldName(ch) == "argument" {
			args = append(args, ch)
		}
	}
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
			return -1 // a command in a variable
		}
		if k := t.Kind(a); k == "word" || k == "string" || k == "raw_string" {
			return a
		}
		return -1
	}
	return -1
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
func listGuard(x *lang.Extractor, n int32, sym int) {
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
	x.Guard(sym, cond, action, n)
}

// ifGuard records if cond; then exit/return; fi (no else) among the
// statements of a function body.
func ifGuard(x *lang.Extractor, n int32, sym int) {
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
		x.Guard(sym, strings.Join(cond, "; "), action, n)
	}
}
