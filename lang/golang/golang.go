// Package golang is sdl's room for Go (named golang: go is a keyword):
// its definitions and imports from a tags query (tags.scm), the walk of
// its code (calls, the types of locals, guards and side effects),
// resolution through packages, imports, embedded fields and the build
// target's files, and the skeleton rules of its braced bodies. The build
// target (lang.GoTarget) and go.mod reading (lang.GoModules) stay in
// lang: the index configures them.
package golang

import (
	"embed"
	"slices"
	"strconv"
	"strings"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/grammar"
)

// data holds the room's data files: test-path patterns, side effects and
// word lists.
//
//go:embed *.txt
var data embed.FS

//go:embed tags.scm
var tags string

func init() {
	l := lang.Register(lang.Spec{
		Name:       "go",
		Extensions: []string{".go"},
		Grammar:    grammar.Go(),
		Query:      tags, QueryFile: "lang/golang/tags.scm",
		QueryRoots: []string{"function_declaration", "method_declaration", "type_declaration", "var_declaration", "const_declaration", "import_spec"},
		QueryRoot:  atTop,
		Comments:   []string{"comment"},
		Strings:    []string{"interpreted_string_literal", "raw_string_literal", "rune_literal"},
		Idents:     []string{"identifier", "field_identifier", "type_identifier", "package_identifier"},
		Data:       data,
		Builtins:   builtins,
		Defs:       defs,
		Symbol:     symbol,
		Import:     importSpec,
		Finish:     finish,
		Resolver:   resolver{},
		SkelRules:  skeleton,
	})
	l.Project = lang.GoModulesReader{}
}

// newScope makes the scope of a function: Go's walker reads and writes
// its maps directly, a name's type and the call it holds apart, with the
// type of that call's first part (Heads).
func newScope() *lang.Scope {
	return &lang.Scope{Types: map[string]string{}, Calls: map[string]string{}, Heads: map[string]string{}}
}

// declaration is the declaration at the top of the file that holds or is
// n: the outermost node above n but the root that is not an ERROR.
func declaration(t *lang.Tree, n int32) int32 {
	d := n
	for p := n; p > 0; p = t.Parent(p) {
		if t.Kind(p) != "ERROR" {
			d = p
		}
	}
	return d
}

// atTop says whether the query runs from node n: a declaration at the top
// of the file, or an import spec anywhere in one.
func atTop(t *lang.Tree, n int32) bool {
	d := declaration(t, n)
	if t.Kind(n) == "import_spec" {
		return t.Kind(d) == "import_declaration"
	}
	return d == n
}

// specs lists the var and const specs of declaration decl: its own, in
// parentheses or not; a function literal's in a value are its locals.
func specs(t *lang.Tree, decl int32) []int32 {
	var out []int32
	for c := range t.NamedChildren(decl) {
		switch t.Kind(c) {
		case "const_spec", "var_spec":
			out = append(out, c)
		case "var_spec_list":
			out = append(out, specs(t, c)...)
		}
	}
	return out
}

// names lists the names a var or const spec declares, but _.
func names(t *lang.Tree, spec int32) []int32 {
	var out []int32
	for c := range t.Children(spec) {
		if t.FieldName(c) == "name" && t.Kind(c) == "identifier" && t.Text(c) != "_" {
			out = append(out, c)
		}
	}
	return out
}

// defs makes a definition of each name but _ of each spec of a var or
// const declaration, whose symbol spans its spec, or the declaration when
// it holds one spec; a type's symbol spans its declaration when that holds
// it alone.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	var out []lang.Def
	for _, d := range ds {
		switch d.Kind {
		case lang.KindVariable:
			ss := specs(t, d.Node)
			for _, spec := range ss {
				if len(ss) > 1 {
					d.Node = spec
				}
				for _, c := range names(t, spec) {
					d.Name, d.Body = c, t.Field(spec, "value")
					out = append(out, d)
				}
			}
			continue
		case lang.KindType:
			if decl := t.Parent(d.Node); t.NamedChildCount(decl) == 1 {
				d.Node = decl
			}
		}
		out = append(out, d)
	}
	return out
}

// symbol completes the symbol of a definition: its signature, and what
// its declaration says of it.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	x := &lang.Extractor{Tree: t}
	s.Exported = lang.IsUpper(s.Name)
	switch d.Kind {
	case lang.KindFunction:
		if recv := t.Field(d.Node, "receiver"); recv >= 0 {
			s.Kind = lang.KindMethod
			if ps := paramList(t, recv, nil); len(ps) > 0 {
				s.Signature.Receiver = ps[0].Type
				s.Container = baseType(ps[0].Type)
			}
		}
		fallthrough
	case lang.KindMethod:
		s.Signature.Params = paramList(t, t.Field(d.Node, "parameters"), nil)
		s.Signature.Returns = lang.OneLine(t.FieldText(d.Node, "result"))
		s.Signature.Generics = t.ItemTexts(t.Field(d.Node, "type_parameters"))
		if d.Kind == lang.KindMethod { // an interface's
			s.Signature.Text = lang.OneLine(t.Text(d.Node))
		}
	default: // a type or a variable, whose doc may lead its declaration
		spec := t.Parent(d.Name)
		if s.Doc = x.DocBefore(spec); s.Doc == "" && d.Node != spec {
			s.Doc = x.DocBefore(d.Node)
		}
		if d.Kind == lang.KindType {
			s.Signature.Generics = t.ItemTexts(t.Field(spec, "type_parameters"))
			typeSymbol(x, spec, d.Body, s)
			break
		}
		s.Parent = 0 // a var in a function literal of a var's value too
		s.Signature.Text = x.HeaderText(spec, -1)
		if s.Signature.Returns = t.FieldText(spec, "type"); s.Signature.Returns == "" && d.Body >= 0 {
			s.Signature.Returns = literalType(t, d.Body)
		}
		if t.Kind(declaration(t, spec)) == "const_declaration" {
			s.Signature.Modifiers = []string{"const"}
		}
	}
	return true
}

// typeSymbol completes the symbol of type spec: a struct is a class with
// fields, whose embedded types are its bases; an interface's embedded
// types are its bases.
func typeSymbol(x *lang.Extractor, spec, typ int32, s *lang.Symbol) {
	t := x.Tree
	switch {
	case typ >= 0 && t.Kind(typ) == "struct_type":
		s.Kind = lang.KindClass
		s.Signature.Text = "type " + s.Name + " struct"
		if fl := t.ChildOfKind(typ, "field_declaration_list"); fl >= 0 {
			for fd := range t.NamedChildren(fl) {
				if t.Kind(fd) != "field_declaration" {
					continue
				}
				ft := t.FieldText(fd, "type")
				named := false
				for c := range t.Children(fd) {
					if t.FieldName(c) == "name" {
						named = true
						s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(c), Type: ft})
					}
				}
				if !named && ft != "" { // embedded
					s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: baseType(ft), Type: ft})
					s.Signature.Bases = append(s.Signature.Bases, ft)
				}
			}
		}
	case typ >= 0 && t.Kind(typ) == "interface_type":
		s.Kind = lang.KindInterface
		s.Signature.Text = "type " + s.Name + " interface"
		for m := range t.NamedChildren(typ) {
			if t.Kind(m) == "type_elem" {
				s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(m)))
			}
		}
	default:
		s.Signature.Text = x.HeaderText(spec, -1)
		if typ >= 0 {
			s.Signature.Returns = lang.OneLine(t.Text(typ))
		}
	}
}

func importSpec(t *lang.Tree, spec int32) []lang.Import {
	p := t.Field(spec, "path")
	if p < 0 {
		return nil
	}
	src, err := strconv.Unquote(t.Text(p))
	if err != nil {
		src = strings.Trim(t.Text(p), "\"`")
	}
	imp := lang.Import{Source: src}
	if n := t.Field(spec, "name"); n >= 0 {
		switch name := t.Text(n); name {
		case ".":
			imp.Names = []lang.ImportName{{Name: "*"}}
		case "_":
			imp.Alias = "_"
		default:
			imp.Alias = name
		}
	}
	return []lang.Import{imp}
}

// finish walks the file's declarations for what the query's symbols
// call, construct, guard and panic, and reads its package and build
// constraint.
func finish(x *lang.Extractor) {
	syms := make(map[int32]int, len(x.SymNode)) // a node -> the first symbol the query made of it
	for i := len(x.SymNode) - 1; i >= 1; i-- {
		syms[x.SymNode[i]] = i
	}
	declarations(x, 0, syms)
	// a type's bases are its references too, made where its spec starts
	for i, sym := range x.Facts.Symbols {
		spec := x.SymNode[i]
		if x.Tree.Kind(spec) == "type_declaration" {
			spec = x.Tree.FirstNamedChild(spec)
		}
		for _, b := range sym.Signature.Bases {
			x.Ref(lang.Ref{Kind: lang.RefExtends, Name: baseType(b), Qualifier: typeQualifier(b), Symbol: i}, spec)
		}
	}
	importsC := slices.ContainsFunc(x.Facts.Imports, func(imp lang.Import) bool { return imp.Source == "C" })
	x.Facts.Build = lang.GoBuildConstraint(x.Path, x.Tree.Src, importsC)
}

func declarations(x *lang.Extractor, parent int32, syms map[int32]int) {
	t := x.Tree
	for c := range t.NamedChildren(parent) {
		switch t.Kind(c) {
		case "package_clause":
			if p := t.ChildOfKind(c, "package_identifier"); p >= 0 {
				x.Facts.Module = t.Text(p)
				x.Facts.Symbols[0].Name = x.Facts.Module
				x.Facts.Symbols[0].Doc = x.DocBefore(c)
			}
		case "import_declaration", "type_declaration":
		case "function_declaration", "method_declaration":
			if body := t.Field(c, "body"); body >= 0 && t.Field(c, "name") >= 0 {
				scope := newScope()
				paramList(t, t.Field(c, "receiver"), scope)
				paramList(t, t.Field(c, "parameters"), scope)
				walkBody(x, body, syms[c], scope, true)
			}
		case "const_declaration", "var_declaration":
			for _, spec := range specs(t, c) {
				// the value is code of its first name's symbol (of the spec,
				// or the declaration), or the file's when the names are all
				// _ (var _ = register(), var _ I = (*T)(nil)) or empty
				sym, ok := syms[spec]
				if !ok {
					sym = syms[c]
				}
				if v := t.Field(spec, "value"); v >= 0 {
					if ns := names(t, spec); len(ns) == 0 || t.Text(ns[0]) == "" {
						sym = 0
					}
					walkBody(x, v, sym, newScope(), false)
				}
			}
		case "ERROR":
			declarations(x, c, syms)
		default:
			walkBody(x, c, 0, newScope(), false)
		}
	}
}

func paramList(t *lang.Tree, list int32, scope *lang.Scope) []lang.Param {
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for p := range t.NamedChildren(list) {
		k := t.Kind(p)
		if k != "parameter_declaration" && k != "variadic_parameter_declaration" {
			continue
		}
		typ := t.FieldText(p, "type")
		variadic := k == "variadic_parameter_declaration"
		if variadic {
			typ = "..." + typ
		}
		named := false
		for n := range t.Children(p) {
			if t.FieldName(n) == "name" {
				named = true
				name := t.Text(n)
				out = append(out, lang.Param{Name: name, Type: typ, Variadic: variadic})
				if scope != nil {
					scope.Types[name] = strings.TrimPrefix(typ, "...")
				}
			}
		}
		if !named {
			out = append(out, lang.Param{Type: typ, Variadic: variadic})
		}
	}
	return out
}

// baseType strips pointers, packages and type arguments: "*pkg.T[K]" -> "T".
func baseType(typ string) string {
	return lang.LastIdent(strings.TrimLeft(typ, "*"))
}

// typeQualifier returns the package of a qualified type: "*pkg.T" -> "pkg".
func typeQualifier(typ string) string {
	typ, _, _ = strings.Cut(strings.TrimLeft(typ, "*"), "[")
	q, _ := lang.LastSegment(typ)
	return q
}

// walkBody walks code that belongs to symbol sym, recording calls,
// constructions, guards and panics. top is true for the statements of a
// function's own body, where an early return is a guard.
func walkBody(x *lang.Extractor, n int32, sym int, scope *lang.Scope, top bool) {
	t := x.Tree
	switch t.Kind(n) {
	case "call_expression":
		call(x, n, sym, scope)
	case "composite_literal":
		if typ := t.Field(n, "type"); typ >= 0 {
			typeRef(x, typ, sym, lang.RefNew, n)
		}
	case "short_var_declaration":
		// the right side is read before the names it declares: in
		// fresh := fresh(e), fresh is the package's function
		right := t.Field(n, "right")
		if right >= 0 {
			walkBody(x, right, sym, scope, false)
		}
		assign(x, n, scope)
		declareLocals(t, t.Field(n, "left"), scope)
		for c := range t.NamedChildren(n) {
			if c != right {
				walkBody(x, c, sym, scope, false)
			}
		}
		return
	case "assignment_statement":
		assign(x, n, scope)
	case "range_clause":
		declareLocals(t, t.Field(n, "left"), scope)
	case "argument_list":
		for c := range t.NamedChildren(n) {
			value(x, c, sym, scope)
		}
	case "literal_element":
		if t.FieldName(n) != "key" {
			value(x, t.FirstNamedChild(n), sym, scope)
		}
	case "expression_list":
		if f := t.FieldName(n); f == "right" || f == "value" || t.Kind(t.Parent(n)) == "return_statement" {
			for c := range t.NamedChildren(n) {
				value(x, c, sym, scope)
			}
		}
	case "var_spec":
		if typ := t.FieldText(n, "type"); typ != "" {
			for _, c := range names(t, n) {
				scope.Types[t.Text(c)] = typ
			}
		}
	case "func_literal":
		paramList(t, t.Field(n, "parameters"), scope)
	case "if_statement":
		if top {
			guards.Guard(x, sym, n)
		}
	case "block":
		if top {
			// the function body: its statements are the top level
			for c := range t.NamedChildren(n) {
				if t.Kind(c) == "statement_list" {
					for st := range t.NamedChildren(c) {
						walkBody(x, st, sym, scope, true)
					}
				} else {
					walkBody(x, c, sym, scope, true)
				}
			}
			return
		}
	}
	for c := range t.NamedChildren(n) {
		walkBody(x, c, sym, scope, false)
	}
}

// value records the function or method that expression n may name
// where it is used as a value, not called: passed (http.HandlerFunc(
// mx.routeHTTP)), assigned, returned or put in a literal. Extraction cannot
// tell a function from a variable or a field, so the reference is a
// candidate: resolution keeps it only when it binds a function or method
// (Language.Resolve), and a local name is not one.
func value(x *lang.Extractor, n int32, sym int, scope *lang.Scope) {
	t := x.Tree
	if n < 0 {
		return
	}
	switch t.Kind(n) {
	case "identifier":
		name := t.Text(n)
		if name == "_" || local(scope, name) {
			return
		}
		x.Ref(lang.Ref{Kind: lang.RefReference, Name: name, Symbol: sym}, n)
	case "selector_expression":
		if r, ok := selectorRef(x, n, lang.RefReference, sym, scope); ok {
			x.Ref(r, n)
		}
	case "parenthesized_expression":
		value(x, t.FirstNamedChild(n), sym, scope)
	}
}

// local reports whether name is a parameter or local variable the
// scope has seen declared.
func local(scope *lang.Scope, name string) bool {
	_, typed := scope.Types[name]
	_, called := scope.Calls[name]
	return typed || called
}

// funcValue is the QualifierType of a bare call of a parameter, receiver
// or local whose type is not written (cancel from ctx, cancel :=
// context.WithCancel(ctx)).
const funcValue = "func"

// valueType is what a bare call of name records as its QualifierType: ""
// for a declaration's name, else the type of the parameter, receiver or
// local it calls (funcValue when unknown), which resolution reads as a
// call of a function value with no static target (lang.RuleDynamic).
func valueType(scope *lang.Scope, name string) string {
	if !local(scope, name) {
		return ""
	}
	if typ := scope.Types[name]; typ != "" {
		return typ
	}
	return funcValue
}

// declareLocals declares the names of list (x, y := ..., for k, v :=
// range) in scope, keeping what assign learnt of their types.
func declareLocals(t *lang.Tree, list int32, scope *lang.Scope) {
	if list < 0 {
		return
	}
	for c := range t.NamedChildren(list) {
		if t.Kind(c) != "identifier" {
			continue
		}
		if name := t.Text(c); !local(scope, name) {
			scope.Types[name] = ""
		}
	}
}

// selectorRef is the reference of kind that selector expression sel
// (x.M, pkg.F, f().M) makes, with what the scope knows of its qualifier.
func selectorRef(x *lang.Extractor, sel int32, kind string, sym int, scope *lang.Scope) (lang.Ref, bool) {
	t := x.Tree
	op := t.Field(sel, "operand")
	field := t.Field(sel, "field")
	if op < 0 || field < 0 {
		return lang.Ref{}, false
	}
	r := lang.Ref{Kind: kind, Name: t.Text(field), Qualifier: lang.OneLine(t.Text(op)), Symbol: sym}
	if q := r.Qualifier; strings.HasPrefix(q, "(*") && strings.HasSuffix(q, ")") && !strings.ContainsAny(q[2:len(q)-1], "()[") {
		// (*T).M, a method expression: T's method
		r.Qualifier = q[2 : len(q)-1]
	}
	head := r.Qualifier
	if i := strings.IndexAny(head, ".(["); i >= 0 {
		head = head[:i]
	}
	if typ, ok := scope.Types[head]; ok {
		r.QualifierType = typ
	} else if c, ok := scope.Calls[head]; ok {
		// x.M() with x := a.b(): the result of a.b, a's type the head
		r.QualifierCall, r.QualifierType = c, scope.Heads[head]
	}
	if t.Kind(op) == "call_expression" {
		// f().M(): the qualifier is the result of f
		if inner := t.Field(op, "function"); inner >= 0 {
			r.QualifierCall, _ = chainCall(scope, lang.OneLine(t.Text(inner)))
		}
	}
	return r, true
}

// chainCall is the call fn (x.M, a.b().M) written from what scope knows
// of its first part, and that part's type: x.M with x := a.b() is
// a.b().M, whose head is a's type, as resolution reads a chain.
func chainCall(scope *lang.Scope, fn string) (call, head string) {
	h := fn
	if i := strings.IndexAny(h, ".(["); i >= 0 {
		h = h[:i]
	}
	if len(h) == len(fn) || fn[len(h)] != '.' {
		return fn, ""
	}
	if typ, ok := scope.Types[h]; ok {
		return fn, typ
	}
	if c, ok := scope.Calls[h]; ok {
		return c + "()" + fn[len(h):], scope.Heads[h]
	}
	return fn, ""
}

func call(x *lang.Extractor, n int32, sym int, scope *lang.Scope) {
	t := x.Tree
	fn := t.Field(n, "function")
	if fn < 0 {
		return
	}
	switch t.Kind(fn) {
	case "identifier":
		name := t.Text(fn)
		if name == "panic" {
			x.Throw(sym, "panics", t.FieldText(n, "arguments"), n)
		}
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, QualifierType: valueType(scope, name), Symbol: sym}, n)
	case "selector_expression":
		if r, ok := selectorRef(x, fn, lang.RefCall, sym, scope); ok {
			x.Ref(r, n)
		}
	case "index_expression":
		// F[T](x)
		if inner := t.FirstChild(fn); inner >= 0 && t.Kind(inner) == "identifier" {
			x.Ref(lang.Ref{Kind: lang.RefCall, Name: t.Text(inner), QualifierType: valueType(scope, t.Text(inner)), Symbol: sym}, n)
		}
	}
}

// typeRef records a reference of kind to the type written at node typ.
func typeRef(x *lang.Extractor, typ int32, sym int, kind string, at int32) {
	t := x.Tree
	switch t.Kind(typ) {
	case "type_identifier":
		x.Ref(lang.Ref{Kind: kind, Name: t.Text(typ), Symbol: sym}, at)
	case "qualified_type":
		x.Ref(lang.Ref{Kind: kind, Name: t.FieldText(typ, "name"), Qualifier: t.FieldText(typ, "package"), Symbol: sym}, at)
	case "generic_type":
		if inner := t.Field(typ, "type"); inner >= 0 {
			typeRef(x, inner, sym, kind, at)
		}
	}
}

// assign learns the types of variables from x := T{}, x := &T{},
// x := NewT(), x := y.(T) and var x T.
func assign(x *lang.Extractor, n int32, scope *lang.Scope) {
	t := x.Tree
	left, right := t.Field(n, "left"), t.Field(n, "right")
	if left < 0 || right < 0 {
		return
	}
	var names []string
	for c := range t.NamedChildren(left) {
		names = append(names, t.Text(c))
	}
	i := 0
	for v := range t.NamedChildren(right) {
		if i >= len(names) {
			break
		}
		name := names[i]
		i++
		if t.Kind(v) == "unary_expression" {
			if op := t.Field(v, "operand"); op >= 0 {
				v = op
			}
		}
		switch t.Kind(v) {
		case "composite_literal":
			if typ := t.FieldText(v, "type"); typ != "" {
				scope.Types[name] = typ
			}
		case "call_expression":
			if fn := t.Field(v, "function"); fn >= 0 {
				if t.Text(fn) == "new" {
					if args := t.Field(v, "arguments"); args >= 0 {
						if a := t.FirstNamedChild(args); a >= 0 {
							scope.Types[name] = t.Text(a)
						}
					}
					break
				}
				scope.Calls[name], scope.Heads[name] = chainCall(scope, lang.OneLine(t.Text(fn)))
				delete(scope.Types, name)
			}
		case "type_assertion_expression":
			if typ := t.FieldText(v, "type"); typ != "" {
				scope.Types[name] = typ
			}
		}
	}
}

// guards are Go's if cond { return ... } and if cond { panic(...) } at
// the top of a function body; the condition as written.
var guards = lang.IfGuard{Body: "consequence", Block: "block", Cond: (*lang.Tree).Text, Exit: exit}

// exit is the action of the first statement of a guard's block, whose
// statements are a statement_list: a return, or a call of panic.
func exit(t *lang.Tree, st int32) string {
	if t.Kind(st) == "statement_list" {
		st = t.FirstNamedChild(st)
	}
	switch {
	case st < 0:
	case t.Kind(st) == "return_statement":
		return t.ReturnAction(st)
	case t.Kind(st) == "expression_statement":
		if call := t.FirstNamedChild(st); call >= 0 && t.Kind(call) == "call_expression" && t.FieldText(call, "function") == "panic" {
			return "panic"
		}
	}
	return ""
}

// literalType is the type of a value list that is a single composite
// literal (T{} or &T{}), else "".
func literalType(t *lang.Tree, list int32) string {
	if t.NamedChildCount(list) != 1 {
		return ""
	}
	v := t.FirstNamedChild(list)
	if t.Kind(v) == "unary_expression" {
		if op := t.Field(v, "operand"); op >= 0 {
			v = op
		}
	}
	if t.Kind(v) == "composite_literal" {
		return t.FieldText(v, "type")
	}
	return ""
}
