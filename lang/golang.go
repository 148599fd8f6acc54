package lang

import (
	"strconv"
	"strings"

	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
)

func init() {
	l := &Language{Name: "go", Extensions: []string{".go"}, extract: extractGo, Project: GoModulesReader{}}
	register(l, tsgo.Language())
	l.setSyntax([]string{"comment"},
		[]string{"interpreted_string_literal", "raw_string_literal", "rune_literal"},
		[]string{"identifier", "field_identifier", "type_identifier", "package_identifier"})
}

// newGoScope makes the scope of a function: Go's walker reads and writes
// its maps directly, a name's type and the call it holds apart.
func newGoScope() *scope {
	return &scope{types: map[string]string{}, calls: map[string]string{}}
}

func extractGo(x *extractor) {
	if x.t.Lang.IsTestPath(x.path) {
		x.f.IsTest = true
		x.f.Symbols[0].IsTest = true
	}
	goTopLevel(x, 0)
	importsC := false
	for _, imp := range x.f.Imports {
		importsC = importsC || imp.Source == "C"
	}
	x.f.Build = GoBuildConstraint(x.path, x.t.Src, importsC)
}

func goTopLevel(x *extractor, parent int32) {
	t := x.t
	for c := range t.NamedChildren(parent) {
		switch t.Kind(c) {
		case "package_clause":
			if p := t.ChildOfKind(c, "package_identifier"); p >= 0 {
				x.f.Module = t.Text(p)
				x.f.Symbols[0].Name = x.f.Module
				x.f.Symbols[0].Doc = x.docBefore(c)
			}
		case "import_declaration":
			goImports(x, c)
		case "function_declaration", "method_declaration":
			goFunc(x, c)
		case "type_declaration":
			goTypeDecl(x, c, 0)
		case "const_declaration", "var_declaration":
			goVarDecl(x, c, 0)
		case "ERROR":
			goTopLevel(x, c)
		default:
			goBody(x, c, 0, newGoScope(), false)
		}
	}
}

func goImports(x *extractor, decl int32) {
	t := x.t
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
		imp := Import{Source: src, Line: t.StartLine(spec), Symbol: 0}
		if n := t.Field(spec, "name"); n >= 0 {
			switch name := t.Text(n); name {
			case ".":
				imp.Names = []ImportName{{Name: "*"}}
			case "_":
				imp.Alias = "_"
			default:
				imp.Alias = name
			}
		}
		x.f.Imports = append(x.f.Imports, imp)
	}
}

func goParams(x *extractor, list int32, scope *scope) []Param {
	t := x.t
	if list < 0 {
		return nil
	}
	var out []Param
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
				out = append(out, Param{Name: name, Type: typ, Variadic: variadic})
				if scope != nil {
					scope.types[name] = strings.TrimPrefix(typ, "...")
				}
			}
		}
		if !named {
			out = append(out, Param{Type: typ, Variadic: variadic})
		}
	}
	return out
}

func goGenerics(x *extractor, list int32) []string {
	t := x.t
	if list < 0 {
		return nil
	}
	var out []string
	for p := range t.NamedChildren(list) {
		out = append(out, oneLine(t.Text(p)))
	}
	return out
}

// goResult renders a result: "error", or "(int, error)".
func goResult(x *extractor, res int32) string {
	if res < 0 {
		return ""
	}
	return oneLine(x.t.Text(res))
}

func goFunc(x *extractor, n int32) {
	t := x.t
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	body := t.Field(n, "body")
	scope := newGoScope()
	s := Symbol{Kind: KindFunction, Name: t.Text(name), Parent: 0}
	s.Exported = isUpper(s.Name)
	if s.Exported {
		s.Visibility = VisExported
	} else {
		s.Visibility = VisInternal
	}
	if recv := t.Field(n, "receiver"); recv >= 0 {
		s.Kind = KindMethod
		ps := goParams(x, recv, scope)
		if len(ps) > 0 {
			s.Signature.Receiver = ps[0].Type
			s.Container = goBaseType(ps[0].Type)
		}
	}
	s.Signature.Params = goParams(x, t.Field(n, "parameters"), scope)
	s.Signature.Returns = goResult(x, t.Field(n, "result"))
	s.Signature.Generics = goGenerics(x, t.Field(n, "type_parameters"))
	s.Signature.Text = x.headerText(n, body)
	s.Doc = x.docBefore(n)
	if x.f.IsTest && s.Kind == KindFunction {
		for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if strings.HasPrefix(s.Name, p) {
				s.IsTest = true
			}
		}
	}
	sym := x.addSymbol(s, n, name, body)
	if body >= 0 {
		goBody(x, body, sym, scope, true)
	}
}

// goBaseType strips pointers, packages and type arguments: "*pkg.T[K]" -> "T".
func goBaseType(typ string) string {
	return lastIdent(strings.TrimLeft(typ, "*"))
}

func goTypeDecl(x *extractor, decl int32, parent int) {
	t := x.t
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
		s := Symbol{Kind: KindType, Name: t.Text(name), Parent: parent}
		s.Exported = isUpper(s.Name)
		s.Signature.Generics = goGenerics(x, t.Field(spec, "type_parameters"))
		s.Doc = x.docBefore(spec)
		if s.Doc == "" && t.NamedChildCount(decl) == 1 {
			s.Doc = x.docBefore(decl)
		}
		node := spec
		if t.NamedChildCount(decl) == 1 {
			node = decl
		}
		var members []int32
		if typ >= 0 {
			switch t.Kind(typ) {
			case "struct_type":
				s.Kind = KindClass
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
								s.Signature.Fields = append(s.Signature.Fields, Param{Name: t.Text(c), Type: ft})
							}
						}
						if !named && ft != "" { // embedded
							s.Signature.Fields = append(s.Signature.Fields, Param{Name: goBaseType(ft), Type: ft})
							s.Signature.Bases = append(s.Signature.Bases, ft)
						}
					}
				}
			case "interface_type":
				s.Kind = KindInterface
				s.Signature.Text = "type " + t.Text(name) + " interface"
				for m := range t.NamedChildren(typ) {
					switch t.Kind(m) {
					case "method_elem":
						members = append(members, m)
					case "type_elem":
						s.Signature.Bases = append(s.Signature.Bases, oneLine(t.Text(m)))
					}
				}
			default:
				s.Signature.Text = x.headerText(spec, -1)
				s.Signature.Returns = oneLine(t.Text(typ))
			}
		}
		if s.Signature.Text == "" {
			s.Signature.Text = x.headerText(spec, -1)
		}
		sym := x.addSymbol(s, node, name, typ)
		for _, b := range x.f.Symbols[sym].Signature.Bases {
			x.ref(Ref{Kind: RefExtends, Name: goBaseType(b), Qualifier: goTypeQualifier(b), Symbol: sym}, spec)
		}
		for _, m := range members {
			mn := t.Field(m, "name")
			if mn < 0 {
				continue
			}
			ms := Symbol{Kind: KindMethod, Name: t.Text(mn), Parent: sym}
			ms.Exported = isUpper(ms.Name)
			ms.Signature.Params = goParams(x, t.Field(m, "parameters"), nil)
			ms.Signature.Returns = goResult(x, t.Field(m, "result"))
			ms.Signature.Text = oneLine(t.Text(m))
			ms.Doc = x.docBefore(m)
			x.addSymbol(ms, m, mn, -1)
		}
		if typ >= 0 && t.Kind(typ) == "struct_type" {
			// field types can hold calls only in tags; nothing to walk
			continue
		}
	}
}

// goTypeQualifier returns the package of a qualified type: "*pkg.T" -> "pkg".
func goTypeQualifier(typ string) string {
	typ = strings.TrimLeft(typ, "*")
	if i := strings.IndexByte(typ, '['); i >= 0 {
		typ = typ[:i]
	}
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		return typ[:i]
	}
	return ""
}

func goVarDecl(x *extractor, decl int32, parent int) {
	t := x.t
	var specs []int32
	for c := range t.Descendants(decl) {
		if k := t.Kind(c); k == "const_spec" || k == "var_spec" {
			specs = append(specs, c)
		}
	}
	for _, spec := range specs {
		typ := t.FieldText(spec, "type")
		val := t.Field(spec, "value")
		doc := x.docBefore(spec)
		if doc == "" && len(specs) == 1 {
			doc = x.docBefore(decl)
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
			s := Symbol{Kind: KindVariable, Name: t.Text(c), Parent: parent}
			if s.Name == "_" {
				continue
			}
			s.Exported = isUpper(s.Name)
			s.Signature.Text = x.headerText(spec, -1)
			s.Signature.Returns = typ
			if typ == "" && val >= 0 {
				s.Signature.Returns = goLiteralType(t, val)
			}
			if t.Kind(decl) == "const_declaration" {
				s.Signature.Modifiers = []string{"const"}
			}
			s.Doc = doc
			sym := x.addSymbol(s, node, c, val)
			if first < 0 {
				first = sym
			}
		}
		if val >= 0 && first >= 0 {
			goBody(x, val, first, newGoScope(), false)
		}
	}
}

// goBody walks code that belongs to symbol sym, recording calls,
// constructions, guards and panics. top is true for the statements of a
// function's own body, where an early return is a guard.
func goBody(x *extractor, n int32, sym int, scope *scope, top bool) {
	t := x.t
	switch t.Kind(n) {
	case "call_expression":
		goCall(x, n, sym, scope)
	case "composite_literal":
		if typ := t.Field(n, "type"); typ >= 0 {
			goTypeRef(x, typ, sym, RefNew, n)
		}
	case "short_var_declaration", "assignment_statement":
		goAssign(x, n, scope)
		if t.Kind(n) == "short_var_declaration" {
			goDeclareLocals(t, t.Field(n, "left"), scope)
		}
	case "range_clause":
		goDeclareLocals(t, t.Field(n, "left"), scope)
	case "argument_list":
		for c := range t.NamedChildren(n) {
			goValue(x, c, sym, scope)
		}
	case "literal_element":
		if t.FieldName(n) != "key" {
			goValue(x, t.FirstNamedChild(n), sym, scope)
		}
	case "expression_list":
		if f := t.FieldName(n); f == "right" || f == "value" || t.Kind(t.Parent(n)) == "return_statement" {
			for c := range t.NamedChildren(n) {
				goValue(x, c, sym, scope)
			}
		}
	case "var_spec":
		if typ := t.FieldText(n, "type"); typ != "" {
			for c := range t.Children(n) {
				if t.FieldName(c) == "name" {
					scope.types[t.Text(c)] = typ
				}
			}
		}
	case "func_literal":
		goParams(x, t.Field(n, "parameters"), scope)
	case "if_statement":
		if top {
			goGuard(x, n, sym)
		}
	case "block":
		if top {
			// the function body: its statements are the top level
			for c := range t.NamedChildren(n) {
				if t.Kind(c) == "statement_list" {
					for st := range t.NamedChildren(c) {
						goBody(x, st, sym, scope, true)
					}
				} else {
					goBody(x, c, sym, scope, true)
				}
			}
			return
		}
	}
	for c := range t.NamedChildren(n) {
		goBody(x, c, sym, scope, false)
	}
}

// goValue records the function or method that expression n may name
// where it is used as a value, not called: passed (http.HandlerFunc(
// mx.routeHTTP)), assigned, returned or put in a literal. Extraction cannot
// tell a function from a variable or a field, so the reference is a
// candidate: resolution keeps it only when it binds a function or method
// (Language.Resolve), and a local name is not one.
func goValue(x *extractor, n int32, sym int, scope *scope) {
	t := x.t
	if n < 0 {
		return
	}
	switch t.Kind(n) {
	case "identifier":
		name := t.Text(n)
		if name == "_" || goLocal(scope, name) {
			return
		}
		x.ref(Ref{Kind: RefReference, Name: name, Symbol: sym}, n)
	case "selector_expression":
		if r, ok := goSelectorRef(x, n, RefReference, sym, scope); ok {
			x.ref(r, n)
		}
	case "parenthesized_expression":
		goValue(x, t.FirstNamedChild(n), sym, scope)
	}
}

// goLocal reports whether name is a parameter or local variable the
// scope has seen declared.
func goLocal(scope *scope, name string) bool {
	_, typed := scope.types[name]
	_, called := scope.calls[name]
	return typed || called
}

// goDeclareLocals declares the names of list (x, y := ..., for k, v :=
// range) in scope, keeping what goAssign learnt of their types.
func goDeclareLocals(t *Tree, list int32, scope *scope) {
	if list < 0 {
		return
	}
	for c := range t.NamedChildren(list) {
		if t.Kind(c) != "identifier" {
			continue
		}
		if name := t.Text(c); !goLocal(scope, name) {
			scope.types[name] = ""
		}
	}
}

// goSelectorRef is the reference of kind that selector expression sel
// (x.M, pkg.F, f().M) makes, with what the scope knows of its qualifier.
func goSelectorRef(x *extractor, sel int32, kind string, sym int, scope *scope) (Ref, bool) {
	t := x.t
	op := t.Field(sel, "operand")
	field := t.Field(sel, "field")
	if op < 0 || field < 0 {
		return Ref{}, false
	}
	r := Ref{Kind: kind, Name: t.Text(field), Qualifier: oneLine(t.Text(op)), Symbol: sym}
	if q := r.Qualifier; strings.HasPrefix(q, "(*") && strings.HasSuffix(q, ")") && !strings.ContainsAny(q[2:len(q)-1], "()[") {
		// (*T).M, a method expression: T's method
		r.Qualifier = q[2 : len(q)-1]
	}
	head := r.Qualifier
	if i := strings.IndexAny(head, ".(["); i >= 0 {
		head = head[:i]
	}
	if typ, ok := scope.types[head]; ok {
		r.QualifierType = typ
	} else if c, ok := scope.calls[head]; ok {
		r.QualifierCall = c
	}
	if t.Kind(op) == "call_expression" {
		// f().M(): the qualifier is the result of f
		if inner := t.Field(op, "function"); inner >= 0 {
			r.QualifierCall = oneLine(t.Text(inner))
		}
	}
	return r, true
}

func goCall(x *extractor, n int32, sym int, scope *scope) {
	t := x.t
	fn := t.Field(n, "function")
	if fn < 0 {
		return
	}
	switch t.Kind(fn) {
	case "identifier":
		name := t.Text(fn)
		if name == "panic" {
			x.throw(sym, "panics", t.FieldText(n, "arguments"), n)
		}
		x.ref(Ref{Kind: RefCall, Name: name, Symbol: sym}, n)
	case "selector_expression":
		if r, ok := goSelectorRef(x, fn, RefCall, sym, scope); ok {
			x.ref(r, n)
		}
	case "index_expression":
		// F[T](x)
		if inner := t.FirstChild(fn); inner >= 0 && t.Kind(inner) == "identifier" {
			x.ref(Ref{Kind: RefCall, Name: t.Text(inner), Symbol: sym}, n)
		}
	}
}

// goTypeRef records a reference of kind to the type written at node typ.
func goTypeRef(x *extractor, typ int32, sym int, kind string, at int32) {
	t := x.t
	switch t.Kind(typ) {
	case "type_identifier":
		x.ref(Ref{Kind: kind, Name: t.Text(typ), Symbol: sym}, at)
	case "qualified_type":
		x.ref(Ref{Kind: kind, Name: t.FieldText(typ, "name"), Qualifier: t.FieldText(typ, "package"), Symbol: sym}, at)
	case "generic_type":
		if inner := t.Field(typ, "type"); inner >= 0 {
			goTypeRef(x, inner, sym, kind, at)
		}
	}
}

// goAssign learns the types of variables from x := T{}, x := &T{},
// x := NewT(), x := y.(T) and var x T.
func goAssign(x *extractor, n int32, scope *scope) {
	t := x.t
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
				scope.types[name] = typ
			}
		case "call_expression":
			if fn := t.Field(v, "function"); fn >= 0 {
				if t.Text(fn) == "new" {
					if args := t.Field(v, "arguments"); args >= 0 {
						if a := t.FirstNamedChild(args); a >= 0 {
							scope.types[name] = t.Text(a)
						}
					}
					break
				}
				scope.calls[name] = oneLine(t.Text(fn))
				delete(scope.types, name)
			}
		case "type_assertion_expression":
			if typ := t.FieldText(v, "type"); typ != "" {
				scope.types[name] = typ
			}
		}
	}
}

// goGuard records if cond { return ... } and if cond { panic(...) } at the
// top of a function body.
func goGuard(x *extractor, n int32, sym int) {
	t := x.t
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
		x.guard(sym, t.Text(cond), t.returnAction(first), n)
	case "expression_statement":
		if call := t.FirstNamedChild(first); call >= 0 && t.Kind(call) == "call_expression" && t.FieldText(call, "function") == "panic" {
			x.guard(sym, t.Text(cond), "panic", n)
		}
	}
}

// goLiteralType is the type of a value list that is a single composite
// literal (T{} or &T{}), else "".
func goLiteralType(t *Tree, list int32) string {
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
