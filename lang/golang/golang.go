// Package golang is sdl's room for Go (named golang: go is a keyword):
// a walker over the syntax tree (packages, functions, methods, types,
// imports, the types of locals, guards and side effects), resolution
// through packages, imports, embedded fields and the build target's
// files, and the skeleton rules of its braced bodies. The build target
// (lang.GoTarget) and go.mod reading (lang.GoModules) stay in lang: the
// index configures them.
package golang

import (
	"embed"
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

func init() {
	lang.RegisterWalker(lang.Walker{
		Name:          "go",
		Extensions:    []string{".go"},
		Grammar:       grammar.Go(),
		Comments:      []string{"comment"},
		Strings:       []string{"interpreted_string_literal", "raw_string_literal", "rune_literal"},
		Idents:        []string{"identifier", "field_identifier", "type_identifier", "package_identifier"},
		Data:          data,
		Builtins:      builtins,
		Extract:       extract,
		Resolve:       resolve,
		ResolveImport: resolveImport,
		Skeleton:      skeleton,
		Project:       lang.GoModulesReader{},
	})
}

// newScope makes the scope of a function: Go's walker reads and writes
// its maps directly, a name's type and the call it holds apart.
func newScope() *lang.Scope {
	return &lang.Scope{Types: map[string]string{}, Calls: map[string]string{}}
}

func extract(x *lang.Extractor) {
	topLevel(x, 0)
	importsC := false
	for _, imp := range x.Facts.Imports {
		importsC = importsC || imp.Source == "C"
	}
	x.Facts.Build = lang.GoBuildConstraint(x.Path, x.Tree.Src, importsC)
}

func topLevel(x *lang.Extractor, parent int32) {
	t := x.Tree
	for c := range t.NamedChildren(parent) {
		switch t.Kind(c) {
		case "package_clause":
			if p := t.ChildOfKind(c, "package_identifier"); p >= 0 {
				x.Facts.Module = t.Text(p)
				x.Facts.Symbols[0].Name = x.Facts.Module
				x.Facts.Symbols[0].Doc = x.DocBefore(c)
			}
		case "import_declaration":
			imports(x, c)
		case "function_declaration", "method_declaration":
			funcDecl(x, c)
		case "type_declaration":
			typeDecl(x, c, 0)
		case "const_declaration", "var_declaration":
			varDecl(x, c, 0)
		case "ERROR":
			topLevel(x, c)
		default:
			walkBody(x, c, 0, newScope(), false)
		}
	}
}

func imports(x *lang.Extractor, decl int32) {
	t := x.Tree
	for spec := range t.Descendants(decl) {
		if t.Kind(spec) != "import_spec" {
			continue
		}
		p := t.Field(spec, "path")
		if p < 0 {
			continue
		}
		src, err := strconv.Unquote(t.Text(p))
		if err != nil {
			src = strings.Trim(t.Text(p), "\"`")
		}
		imp := lang.Import{Source: src, Line: t.StartLine(spec), Symbol: 0}
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
		x.Facts.Imports = append(x.Facts.Imports, imp)
	}
}

func paramList(x *lang.Extractor, list int32, scope *lang.Scope) []lang.Param {
	t := x.Tree
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

// result renders a result: "error", or "(int, error)".
func result(x *lang.Extractor, res int32) string {
	if res < 0 {
		return ""
	}
	return lang.OneLine(x.Tree.Text(res))
}

func funcDecl(x *lang.Extractor, n int32) {
	t := x.Tree
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	body := t.Field(n, "body")
	scope := newScope()
	s := lang.Symbol{Kind: lang.KindFunction, Name: t.Text(name), Parent: 0}
	s.Exported = lang.IsUpper(s.Name)
	if s.Exported {
		s.Visibility = lang.VisExported
	} else {
		s.Visibility = lang.VisInternal
	}
	if recv := t.Field(n, "receiver"); recv >= 0 {
		s.Kind = lang.KindMethod
		ps := paramList(x, recv, scope)
		if len(ps) > 0 {
			s.Signature.Receiver = ps[0].Type
			s.Container = baseType(ps[0].Type)
		}
	}
	s.Signature.Params = paramList(x, t.Field(n, "parameters"), scope)
	s.Signature.Returns = result(x, t.Field(n, "result"))
	s.Signature.Generics = x.Tree.ItemTexts(t.Field(n, "type_parameters"))
	s.Signature.Text = x.HeaderText(n, body)
	s.Doc = x.DocBefore(n)
	if x.Facts.IsTest && s.Kind == lang.KindFunction {
		for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if strings.HasPrefix(s.Name, p) {
				s.IsTest = true
			}
		}
	}
	sym := x.AddSymbol(s, n, name, body)
	if body >= 0 {
		walkBody(x, body, sym, scope, true)
	}
}

// baseType strips pointers, packages and type arguments: "*pkg.T[K]" -> "T".
func baseType(typ string) string {
	return lang.LastIdent(strings.TrimLeft(typ, "*"))
}

func typeDecl(x *lang.Extractor, decl int32, parent int) {
	t := x.Tree
	for spec := range t.NamedChildren(decl) {
		k := t.Kind(spec)
		if k != "type_spec" && k != "type_alias" {
			continue
		}
		name := t.Field(spec, "name")
		if name < 0 {
			continue
		}
		typ := t.Field(spec, "type")
		s := lang.Symbol{Kind: lang.KindType, Name: t.Text(name), Parent: parent}
		s.Exported = lang.IsUpper(s.Name)
		s.Signature.Generics = x.Tree.ItemTexts(t.Field(spec, "type_parameters"))
		s.Doc = x.DocBefore(spec)
		if s.Doc == "" && t.NamedChildCount(decl) == 1 {
			s.Doc = x.DocBefore(decl)
		}
		node := spec
		if t.NamedChildCount(decl) == 1 {
			node = decl
		}
		var members []int32
		if typ >= 0 {
			switch t.Kind(typ) {
			case "struct_type":
				s.Kind = lang.KindClass
				s.Signature.Text = "type " + t.Text(name) + " struct"
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
			case "interface_type":
				s.Kind = lang.KindInterface
				s.Signature.Text = "type " + t.Text(name) + " interface"
				for m := range t.NamedChildren(typ) {
					switch t.Kind(m) {
					case "method_elem":
						members = append(members, m)
					case "type_elem":
						s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(m)))
					}
				}
			default:
				s.Signature.Text = x.HeaderText(spec, -1)
				s.Signature.Returns = lang.OneLine(t.Text(typ))
			}
		}
		if s.Signature.Text == "" {
			s.Signature.Text = x.HeaderText(spec, -1)
		}
		sym := x.AddSymbol(s, node, name, typ)
		for _, b := range x.Facts.Symbols[sym].Signature.Bases {
			x.Ref(lang.Ref{Kind: lang.RefExtends, Name: baseType(b), Qualifier: typeQualifier(b), Symbol: sym}, spec)
		}
		for _, m := range members {
			mn := t.Field(m, "name")
			if mn < 0 {
				continue
			}
			ms := lang.Symbol{Kind: lang.KindMethod, Name: t.Text(mn), Parent: sym}
			ms.Exported = lang.IsUpper(ms.Name)
			ms.Signature.Params = paramList(x, t.Field(m, "parameters"), nil)
			ms.Signature.Returns = result(x, t.Field(m, "result"))
			ms.Signature.Text = lang.OneLine(t.Text(m))
			ms.Doc = x.DocBefore(m)
			x.AddSymbol(ms, m, mn, -1)
		}
		if typ >= 0 && t.Kind(typ) == "struct_type" {
			// field types can hold calls only in tags; nothing to walk
			continue
		}
	}
}

// typeQualifier returns the package of a qualified type: "*pkg.T" -> "pkg".
func typeQualifier(typ string) string {
	typ = strings.TrimLeft(typ, "*")
	if i := strings.IndexByte(typ, '['); i >= 0 {
		typ = typ[:i]
	}
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		return typ[:i]
	}
	return ""
}

func varDecl(x *lang.Extractor, decl int32, parent int) {
	t := x.Tree
	var specs []int32
	for c := range t.Descendants(decl) {
		if k := t.Kind(c); k == "const_spec" || k == "var_spec" {
			specs = append(specs, c)
		}
	}
	for _, spec := range specs {
		typ := t.FieldText(spec, "type")
		val := t.Field(spec, "value")
		doc := x.DocBefore(spec)
		if doc == "" && len(specs) == 1 {
			doc = x.DocBefore(decl)
		}
		node := spec
		if len(specs) == 1 {
			node = decl
		}
		var first = -1
		for c := range t.Children(spec) {
			if t.FieldName(c) != "name" || t.Kind(c) != "identifier" {
				continue
			}
			s := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(c), Parent: parent}
			if s.Name == "_" {
				continue
			}
			s.Exported = lang.IsUpper(s.Name)
			s.Signature.Text = x.HeaderText(spec, -1)
			s.Signature.Returns = typ
			if typ == "" && val >= 0 {
				s.Signature.Returns = literalType(t, val)
			}
			if t.Kind(decl) == "const_declaration" {
				s.Signature.Modifiers = []string{"const"}
			}
			s.Doc = doc
			sym := x.AddSymbol(s, node, c, val)
			if first < 0 {
				first = sym
			}
		}
		if val >= 0 && first >= 0 {
			walkBody(x, val, first, newScope(), false)
		}
	}
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
	case "short_var_declaration", "assignment_statement":
		assign(x, n, scope)
		if t.Kind(n) == "short_var_declaration" {
			declareLocals(t, t.Field(n, "left"), scope)
		}
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
			for c := range t.Children(n) {
				if t.FieldName(c) == "name" {
					scope.Types[t.Text(c)] = typ
				}
			}
		}
	case "func_literal":
		paramList(x, t.Field(n, "parameters"), scope)
	case "if_statement":
		if top {
			guard(x, n, sym)
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
		r.QualifierCall = c
	}
	if t.Kind(op) == "call_expression" {
		// f().M(): the qualifier is the result of f
		if inner := t.Field(op, "function"); inner >= 0 {
			r.QualifierCall = lang.OneLine(t.Text(inner))
		}
	}
	return r, true
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
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Symbol: sym}, n)
	case "selector_expression":
		if r, ok := selectorRef(x, fn, lang.RefCall, sym, scope); ok {
			x.Ref(r, n)
		}
	case "index_expression":
		// F[T](x)
		if inner := t.FirstChild(fn); inner >= 0 && t.Kind(inner) == "identifier" {
			x.Ref(lang.Ref{Kind: lang.RefCall, Name: t.Text(inner), Symbol: sym}, n)
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
				scope.Calls[name] = lang.OneLine(t.Text(fn))
				delete(scope.Types, name)
			}
		case "type_assertion_expression":
			if typ := t.FieldText(v, "type"); typ != "" {
				scope.Types[name] = typ
			}
		}
	}
}

// guard records if cond { return ... } and if cond { panic(...) } at the
// top of a function body.
func guard(x *lang.Extractor, n int32, sym int) {
	t := x.Tree
	cons := t.Field(n, "consequence")
	cond := t.Field(n, "condition")
	if cons < 0 || cond < 0 || t.Field(n, "alternative") >= 0 {
		return
	}
	first := int32(-1)
	for c := range t.NamedChildren(cons) {
		if t.Kind(c) == "statement_list" {
			for st := range t.NamedChildren(c) {
				first = st
				break
			}
		} else {
			first = c
		}
		break
	}
	if first < 0 {
		return
	}
	switch t.Kind(first) {
	case "return_statement":
		x.Guard(sym, t.Text(cond), t.ReturnAction(first), n)
	case "expression_statement":
		if call := t.FirstNamedChild(first); call >= 0 && t.Kind(call) == "call_expression" && t.FieldText(call, "function") == "panic" {
			x.Guard(sym, t.Text(cond), "panic", n)
		}
	}
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
