// Package lua is sdl's room for Lua: definitions, references and
// require calls come from tags.scm; this file holds what a query cannot
// say (the table a function is stored in, the local name a module is
// required into) and Lua's resolution: a module is a file found by its
// dotted name, and a call M.f() binds to the function f stored in the
// table the file it required returns.
package lua

import (
	"embed"
	"path"
	"slices"
	"strings"

	"github.com/sdl-dev/sdl/lang/grammar"

	"github.com/sdl-dev/sdl/lang"
)

// Name is the language's name in the index.
const Name = "lua"

var (
	//go:embed tags.scm
	tags string
	//go:embed *.txt
	data embed.FS

	builtins = lang.WordFile(data, "builtins.txt")
	std      = lang.WordFile(data, "std.txt")    // the standard library's tables: string, table, os, ...
	common   = lang.WordFile(data, "common.txt") // method names too common to bind by name alone
)

func init() {
	lang.Register(lang.Spec{
		Name:       Name,
		Extensions: []string{".lua"},
		Grammar:    grammar.Lua(),
		Query:      tags,
		QueryFile:  "lang/lua/tags.scm",
		Comments:   []string{"comment"},
		Strings:    []string{"string"},
		Idents:     []string{"identifier"},
		Builtins:   lang.WordFile(data, "builtins.txt"),
		TestFiles:  []string{"*_spec.lua", "*_test.lua", "test_*.lua"},
		TestDirs:   []string{"spec", "test", "tests"},
		Symbol:     symbol,
		Ref:        ref,
		Import:     imports,
		Module:     module,
		Resolver:   resolver{},
		Skeleton: &lang.SkeletonSpec{
			Marker:      "-- ...",
			LineComment: "--",
			Control:     []string{"if_statement", "for_statement", "while_statement", "repeat_statement"},
			Exits:       []string{"return_statement", "break_statement", "goto_statement"},
			Blocks:      []string{"block"},
			Clauses:     []string{"elseif_statement", "else_statement"},
			Nested:      []string{"function_declaration"},
			Code:        map[string]string{"function_declaration": "block"},
		},
	})
}

// symbol names the table a function is stored in as its container, and
// reads its parameters (the query's @_params). A function stored in a
// table built inside a function (a busted test's mock, a metatable's
// __index) is a local value, not a symbol: Kong's specs held 20
// strategy.select each.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	field := t.Kind(d.Node) == "field"
	if field && inFunction(t, d.Node) {
		return false
	}
	if t.Kind(t.Parent(d.Node)) == "variable_declaration" {
		// local f = function: the match is the assignment inside the local
		s.Signature.Text = "local " + s.Signature.Text
	}
	if d.Kind == lang.KindVariable {
		// a table over many lines is its first: the rest is code (Kong's
		// transformers tables printed their functions' bodies)
		if first, _, ok := strings.Cut(t.Text(d.Node), "\n"); ok {
			s.Signature.Text = strings.TrimSpace(first)
		}
	}
	if p := t.Parent(d.Name); t.Kind(p) == "dot_index_expression" || t.Kind(p) == "method_index_expression" {
		s.Container, s.Parent = t.FieldText(p, "table"), 0
	}
	if field {
		// { f = function() end } assigned to a name: that name's; in the
		// table the file returns: the module's
		s.Parent = 0
		if n := assignedTo(t, t.Parent(d.Node)); n >= 0 {
			s.Container = t.Text(n)
		} else if rs := holder(t, t.Parent(d.Node)); rs >= 0 && t.Kind(rs) == "return_statement" && t.Parent(rs) == 0 {
			s.Container = strings.TrimSuffix(path.Base(t.Path), ".lua") // a/b/phases.lua's is phases
			if s.Container == "init" {
				s.Container = path.Base(path.Dir(t.Path)) // a/b/init.lua's is b
			}
		}
	}
	if v := d.Match.Node("_alias"); v >= 0 {
		if !chunkFunction(t, t.Text(v)) {
			return false // T.__index = T, M.VERSION = VERSION: no function's name
		}
		s.Kind = lang.KindFunction // M.f = f of the file's function f
	}
	if ps := d.Match.Node("_params"); ps >= 0 {
		for c := range t.NamedChildren(ps) {
			s.Signature.Params = append(s.Signature.Params, lang.Param{Name: t.Text(c), Variadic: t.Kind(c) == "vararg_expression"})
		}
	}
	s.Exported, s.Visibility = true, lang.VisPublic
	if strings.HasPrefix(s.Signature.Text, "local ") {
		s.Exported, s.Visibility = false, lang.VisPrivate
	}
	lines := strings.Split(s.Doc, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(strings.TrimLeft(l, "-"))
	}
	s.Doc = strings.Join(lines, "\n")
	return true
}

// chunkFunction reports whether the file's top level defines a function
// called name: function name(), local function name(), local name =
// function, or a local name given a function later (local yield; do
// yield = function() end end).
func chunkFunction(t *lang.Tree, name string) bool {
	for c := range t.NamedChildren(0) {
		stmts := []int32{c} // an assignment's own
		switch t.Kind(c) {
		case "function_declaration":
			if t.FieldText(c, "name") == name {
				return true
			}
		case "variable_declaration":
			stmts = []int32{t.ChildOfKind(c, "assignment_statement")}
		case "do_statement":
			stmts = children(t, t.ChildOfKind(c, "block"))
		}
		if slices.ContainsFunc(stmts, func(as int32) bool { return assignsFunction(t, as, name) }) {
			return true
		}
	}
	return false
}

// assignsFunction reports whether statement as gives name a function.
func assignsFunction(t *lang.Tree, as int32, name string) bool {
	if as < 0 || t.Kind(as) != "assignment_statement" {
		return false
	}
	vl, el := t.ChildOfKind(as, "variable_list"), t.ChildOfKind(as, "expression_list")
	if vl < 0 || el < 0 {
		return false
	}
	n, v := t.Field(vl, "name"), t.Field(el, "value")
	return n >= 0 && v >= 0 && t.Text(n) == name && t.Kind(v) == "function_definition"
}

// children are the named children of node n, none when n is -1.
func children(t *lang.Tree, n int32) []int32 {
	if n < 0 {
		return nil
	}
	return slices.Collect(t.NamedChildren(n))
}

// inFunction reports whether node n lies in the body of a function.
func inFunction(t *lang.Tree, n int32) bool {
	for p := t.Parent(n); p >= 0; p = t.Parent(p) {
		if k := t.Kind(p); k == "function_definition" || k == "function_declaration" {
			return true
		}
	}
	return false
}

// ref reads a bare call of a local alias (local find = string.find;
// find(s)) as the call of what it aliases, and a bare call of any other
// local value as a call on an unknown receiver, which no global function
// of the same name may claim.
func ref(t *lang.Tree, m *lang.Match, r *lang.Ref) bool {
	if r.Kind == lang.RefReference {
		// M.f = f: the function of the file the module's name leads to
		return chunkFunction(t, r.Name)
	}
	if mod := requiredModule(t, m.Node("receiver")); mod != "" {
		r.Qualifier, r.QualifierCall = mod, "require" // require("m").f()
		return true
	}
	if strings.ContainsAny(r.Qualifier, "()[]{}'\" :") {
		r.Qualifier = "?" // a call's result, an index, a method chain
	}
	if r.Qualifier != "" {
		return true
	}
	call := t.Parent(m.Node("name"))
	for blk := t.Parent(call); blk >= 0; blk = t.Parent(blk) {
		if k := t.Kind(blk); k != "block" && k != "chunk" {
			continue
		}
		var value int32 = -1
		found := false
		for c := range t.ChildrenBefore(blk, call) {
			if v, ok := localValue(t, c, r.Name); ok {
				value, found = v, true // the last declaration before the call wins
			}
		}
		if !found {
			continue
		}
		switch {
		case value >= 0 && t.Kind(value) == "dot_index_expression" && requiredModule(t, t.Field(value, "table")) != "":
			// local f = require("m").f
			r.Qualifier, r.QualifierCall, r.Name = requiredModule(t, t.Field(value, "table")), "require", t.FieldText(value, "field")
		case value >= 0 && t.Kind(value) == "dot_index_expression" && !strings.ContainsAny(t.Text(value), "()[]{} \n"):
			r.Qualifier, r.Name = t.FieldText(value, "table"), t.FieldText(value, "field")
		case value >= 0 && t.Kind(value) == "identifier":
			r.Name = t.Text(value) // local type = type: the global's call
		case value != -2:
			r.Qualifier = "?"
		}
		return true
	}
	return true
}

// localValue reports whether statement c declares the local name, and
// the value it is given: -1 for none, -2 for a local function (which the
// file's own symbols bind).
func localValue(t *lang.Tree, c int32, name string) (int32, bool) {
	switch t.Kind(c) {
	case "function_declaration":
		if t.FieldName(c) == "local_declaration" && t.FieldText(c, "name") == name {
			return -2, true
		}
	case "variable_declaration":
		names, values := children(t, c), []int32(nil)
		if as := t.ChildOfKind(c, "assignment_statement"); as >= 0 {
			names, values = children(t, t.ChildOfKind(as, "variable_list")), children(t, t.ChildOfKind(as, "expression_list"))
		}
		switch i := slices.IndexFunc(names, func(n int32) bool { return t.Text(n) == name }); {
		case i < 0:
		case i >= len(values):
			return -1, true
		case t.Kind(values[i]) == "function_definition":
			return -2, true // local f = function: a local function
		default:
			return values[i], true
		}
	}
	return 0, false
}

// assignedTo is the first name of the assignment whose values hold
// expression e (local M = {...}, local x = require "a"), -1 when e is no
// assigned value.
func assignedTo(t *lang.Tree, e int32) int32 {
	if as := holder(t, e); as >= 0 && t.Kind(as) == "assignment_statement" {
		if vl := t.ChildOfKind(as, "variable_list"); vl >= 0 {
			return t.Field(vl, "name")
		}
	}
	return -1
}

// holder is the statement whose values hold expression e: an assignment,
// a return; -1 when none does.
func holder(t *lang.Tree, e int32) int32 {
	if el := t.Parent(e); el >= 0 && t.Kind(el) == "expression_list" {
		return t.Parent(el)
	}
	return -1
}

// requiredModule is the module of node n when it is a call require "m"
// or require("m"), "" for any other node.
func requiredModule(t *lang.Tree, n int32) string {
	if n < 0 || t.Kind(n) != "function_call" || t.FieldText(n, "name") != "require" {
		return ""
	}
	str := t.ChildOfKind(t.Field(n, "arguments"), "string")
	if str < 0 {
		return ""
	}
	if c := t.ChildOfKind(str, "string_content"); c >= 0 {
		return t.Text(c)
	}
	return t.Text(str)
}

// imports reads require "a.b": the module, and the name the result is
// assigned to (local x = require "a.b") as the import's alias.
func imports(t *lang.Tree, call int32) []lang.Import {
	src := requiredModule(t, call)
	if src == "" {
		return nil
	}
	imp := lang.Import{Source: src}
	if n := assignedTo(t, call); n >= 0 && t.FirstChild(t.Parent(call)) == call && t.Kind(n) == "identifier" {
		imp.Alias = t.Text(n)
	}
	return []lang.Import{imp}
}

// module is the name require finds a file by: its path as dots, without
// .lua, a directory's init.lua by the directory's name.
func module(p string, _ *lang.Tree, _ string) string {
	p = strings.TrimSuffix(p, ".lua")
	p = strings.TrimSuffix(p, "/init")
	return strings.ReplaceAll(p, "/", ".")
}

type resolver struct{}

func isLua(t *lang.Target) bool { return path.Ext(t.Path) == ".lua" && t.Kind != lang.KindModule }

// moduleFiles are the files require(mod) may load: those whose module is
// mod or ends with it (the search path's root is not known), outside
// tests first, then the shortest.
func moduleFiles(tab lang.Table, mod string) []string {
	files := slices.Clone(tab.ModuleFiles(Name, mod))
	slices.SortStableFunc(files, func(a, b string) int { return len(a) - len(b) })
	test := func(p string) bool { return lang.TestFile(tab, p) }
	return append(lang.PickPaths(files, func(p string) bool { return !test(p) }), lang.PickPaths(files, test)...)
}

func (resolver) ResolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	files := moduleFiles(ctx.Table, imp.Source)
	if len(files) == 0 {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if t := lang.ModuleTarget(ctx.Table, files[0]); t != nil {
		return lang.Bound(t, lang.RuleImport)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

func (resolver) Resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	tab, fi := ctx.Table, ctx.File
	cands := lang.Pick(tab.ByName(r.Name), isLua)
	if r.Qualifier == "" {
		if ts := lang.Pick(cands, func(t *lang.Target) bool { return t.Path == fi.Path && visibleFrom(t, ctx.From) }); len(ts) > 0 {
			return lang.Bound(ts[0], lang.RuleSameFile)
		}
		if builtins.Has(r.Name) {
			return lang.Unbound(lang.RuleBuiltin, 0)
		}
		// a global function defined in another file (a local one is
		// seen only in its own)
		return lang.Unique(lang.PreferDefinitions(lang.Pick(cands, func(t *lang.Target) bool {
			return t.Container == "" && t.Kind != lang.KindVariable && t.Exported
		})))
	}
	q := r.Qualifier
	if q == "?" {
		return unknownReceiver(r, cands)
	}
	if q == "self" && ctx.From != nil && ctx.From.Container != "" {
		// self in function T:m() is a T
		own := ctx.From.Container
		if ts := lang.Pick(cands, func(t *lang.Target) bool { return t.Container == own && t.Path == fi.Path }); len(ts) > 0 {
			return lang.Bound(ts[0], lang.RuleReceiver)
		}
		q = own
	}
	if r.QualifierCall == "require" {
		return inModule(tab, q, cands)
	}
	for _, imp := range fi.Imports {
		if imp.Alias != "" && imp.Alias == q {
			return inModule(tab, imp.Source, cands)
		}
	}
	if ts := lang.Pick(cands, func(t *lang.Target) bool { return t.Path == fi.Path && t.Container == q }); len(ts) > 0 {
		return lang.Bound(ts[0], lang.RuleSameFile)
	}
	head, _, _ := strings.Cut(q, ".")
	if std.Has(head) {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if len(cands) == 0 {
		return lang.Unbound(lang.RuleExternal, 0) // no function of ours has the name: a library's
	}
	if res := lang.Unique(lang.PreferDefinitions(lang.Pick(cands, func(t *lang.Target) bool { return t.Container == q }))); res.Rule != lang.RuleExternal {
		return res
	}
	return unknownReceiver(r, cands)
}

// inModule binds a function of the table module mod returns.
func inModule(tab lang.Table, mod string, cands []*lang.Target) lang.Resolution {
	files := moduleFiles(tab, mod)
	if len(files) == 0 {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if ts := lang.Pick(cands, func(t *lang.Target) bool { return t.Path == files[0] && t.Container != "" }); len(ts) > 0 {
		return lang.Bound(ts[0], lang.RuleImport)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// visibleFrom reports whether a bare name in the code of from can mean
// function t of the same file: a function of the file's top level, or a
// local function nested in from or in a function around it (its
// container is then that function; a table's function, M.f, is exported
// and is reached as M.f only).
func visibleFrom(t, from *lang.Target) bool {
	if t.Container == "" {
		return true
	}
	if t.Exported || from == nil {
		return false
	}
	q := from.Qualified()
	return q == t.Container || strings.HasPrefix(q, t.Container+".")
}

// unknownReceiver binds x:m() on a value of unknown type to the one
// method of ours called m, when the name is distinctive enough to tell.
func unknownReceiver(r *lang.Ref, cands []*lang.Target) lang.Resolution {
	if !common.Has(r.Name) && len(r.Name) > 3 {
		if ms := lang.PreferDefinitions(lang.Pick(cands, func(t *lang.Target) bool { return t.Kind == lang.KindMethod })); len(ms) == 1 {
			return lang.Bound(ms[0], lang.RuleUniqueName)
		}
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}
