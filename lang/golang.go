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
func newGoScope() *Scope {
	return &Scope{Types: map[string]string{}, Calls: map[string]string{}}
}

func extractGo(x *Extractor) {
	if x.Tree.Lang.IsTestPath(x.Path) {
		x.Facts.IsTest = true
		x.Facts.Symbols[0].IsTest = true
	}
	goTopLevel(x, 0)
	importsC := false
	for _, imp := range x.Facts.Imports {
		importsC = importsC || imp.Source == "C"
	}
	x.Facts.Build = GoBuildConstraint(x.Path, x.Tree.Src, importsC)
}

func goTopLevel(x *Extractor, parent int32) {
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

func goImports(x *Extractor, decl int32) {
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
		x.Facts.Imports = append(x.Facts.Imports, imp)
	}
}

func goParams(x *Extractor, list int32, scope *Scope) []Param {
	t := x.Tree
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
					scope.Types[name] = strings.TrimPrefix(typ, "...")
				}
			}
		}
		if !named {
			out = append(out, Param{Type: typ, Variadic: variadic})
		}
	}
	return out
}

func goGenerics(x *Extractor, list int32) []string {
	t := x.Tree
	if list < 0 {
		return nil
	}
	var out []string
	for p := range t.NamedChildren(list) {
		out = append(out, OneLine(t.Text(p)))
	}
	return out
}

// goResult renders a result: "error", or "(int, error)".
func goResult(x *Extractor, res int32) string {
	if res < 0 {
		return ""
	}
	return OneLine(x.Tree.Text(res))
}

func goFunc(x *Extractor, n int32) {
	t := x.Tree
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	body := t.Field(n, "body")
	scope := newGoScope()
	s := Symbol{Kind: KindFunction, Name: t.Text(name), Parent: 0}
	s.Exported = IsUpper(s.Name)
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
	s.Signature.Text = x.HeaderText(n, body)
	s.Doc = x.DocBefore(n)
	if x.Facts.IsTest && s.Kind == KindFunction {
		for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if strings.HasPrefix(s.Name, p) {
				s.IsTest = true
			}
		}
	}
	sym := x.AddSymbol(s, n, name, body)
	if body >= 0 {
		goBody(x, body, sym, scope, true)
	}
}

// goBaseType strips pointers, packages and type arguments: "*pkg.T[K]" -> "T".
func goBaseType(typ string) string {
	return LastIdent(strings.TrimLeft(typ, "*"))
}

func goTypeDecl(x *Extractor, decl int32, parent int) {
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
		s := Symbol{Kind: KindType, Name: t.Text(name), Parent: parent}
		s.Exported = IsUpper(s.Name)
		s.Signature.Generics = goGenerics(x, t.Field(spec, "type_parameters"))
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
						s.Signature.Bases = append(s.Signature.Bases, OneLine(t.Text(m)))
					}
				}
			default:
				s.Signature.Text = x.HeaderText(spec, -1)
				s.Signature.Returns = OneLine(t.Text(typ))
			}
		}
		if s.Signature.Text == "" {
			s.Signature.Text = x.HeaderText(spec, -1)
		}
		sym := x.AddSymbol(s, node, name, typ)
		for _, b := range x.Facts.Symbols[sym].Signature.Bases {
			x.Ref(Ref{Kind: RefExtends, Name: goBaseType(b), Qualifier: goTypeQualifier(b), Symbol: sym}, spec)
		}
		for _, m := range members {
			mn := t.Field(m, "name")
			if mn < 0 {
				continue
			}
			ms := Symbol{Kind: KindMethod, Name: t.Text(mn), Parent: sym}
			ms.Exported = IsUpper(ms.Name)
			ms.Signature.Params = goParams(x, t.Field(m, "parameters"), nil)
			ms.Signature.Returns = goResult(x, t.Field(m, "result"))
			ms.Signature.Text = OneLine(t.Text(m))
			ms.Doc = x.DocBefore(m)
			x.AddSymbol(ms, m, mn, -1)
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

func goVarDecl(x *Extractor, decl int32, parent int) {
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
			s := Symbol{Kind: KindVariable, Name: t.Text(c), Parent: parent}
			if s.Name == "_" {
				continue
			}
			s.Exported = IsUpper(s.Name)
			s.Signature.Text = x.HeaderText(spec, -1)
			s.Signature.Returns = typ
			if typ == "" && val >= 0 {
				s.Signature.Returns = goLiteralType(t, val)
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
			goBody(x, val, first, newGoScope(), false)
		}
	}
}

// goBody walks code that belongs to symbol sym, recording calls,
// constructions, guards and panics. top is true for the statements of a
// function's own body, where an early return is a guard.
func goBody(x *Extractor, n int32, sym int, scope *Scope, top bool) {
	t := x.Tree
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
					scope.Types[t.Text(c)] = typ
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
func goValue(x *Extractor, n int32, sym int, scope *Scope) {
	t := x.Tree
	if n < 0 {
		return
	}
	switch t.Kind(n) {
	case "identifier":
		name := t.Text(n)
		if name == "_" || goLocal(scope, name) {
			return
		}
		x.Ref(Ref{Kind: RefReference, Name: name, Symbol: sym}, n)
	case "selector_expression":
		if r, ok := goSelectorRef(x, n, RefReference, sym, scope); ok {
			x.Ref(r, n)
		}
	case "parenthesized_expression":
		goValue(x, t.FirstNamedChild(n), sym, scope)
	}
}

// goLocal reports whether name is a parameter or local variable the
// Scope has seen declared.
func goLocal(scope *Scope, name string) bool {
	_, typed := scope.Types[name]
	_, called := scope.Calls[name]
	return typed || called
}

// goDeclareLocals declares the names of list (x, y := ..., for k, v :=
// range) in scope, keeping what goAssign learnt of their types.
func goDeclareLocals(t *Tree, list int32, scope *Scope) {
	if list < 0 {
		return
	}
	for c := range t.NamedChildren(list) {
		if t.Kind(c) != "identifier" {
			continue
		}
		if name := t.Text(c); !goLocal(scope, name) {
			scope.Types[name] = ""
		}
	}
}

// goSelectorRef is the reference of kind that selector expression sel
// (x.M, pkg.F, f().M) makes, with what the scope knows of its qualifier.
func goSelectorRef(x *Extractor, sel int32, kind string, sym int, scope *Scope) (Ref, bool) {
	t := x.Tree
	op := t.Field(sel, "operand")
	field := t.Field(sel, "field")
	if op < 0 || field < 0 {
		return Ref{}, false
	}
	r := Ref{Kind: kind, Name: t.Text(field), Qualifier: OneLine(t.Text(op)), Symbol: sym}
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
			r.QualifierCall = OneLine(t.Text(inner))
		}
	}
	return r, true
}

func goCall(x *Extractor, n int32, sym int, scope *Scope) {
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
		x.Ref(Ref{Kind: RefCall, Name: name, Symbol: sym}, n)
	case "selector_expression":
		if r, ok := goSelectorRef(x, fn, RefCall, sym, scope); ok {
			x.Ref(r, n)
		}
	case "index_expression":
		// F[T](x)
		if inner := t.FirstChild(fn); inner >= 0 && t.Kind(inner) == "identifier" {
			x.Ref(Ref{Kind: RefCall, Name: t.Text(inner), Symbol: sym}, n)
		}
	}
}

// goTypeRef records a reference of kind to the type written at node typ.
func goTypeRef(x *Extractor, typ int32, sym int, kind string, at int32) {
	t := x.Tree
	switch t.Kind(typ) {
	case "type_identifier":
		x.Ref(Ref{Kind: kind, Name: t.Text(typ), Symbol: sym}, at)
	case "qualified_type":
		x.Ref(Ref{Kind: kind, Name: t.FieldText(typ, "name"), Qualifier: t.FieldText(typ, "package"), Symbol: sym}, at)
	case "generic_type":
		if inner := t.Field(typ, "type"); inner >= 0 {
			goTypeRef(x, inner, sym, kind, at)
		}
	}
}

// goAssign learns the types of variables from x := T{}, x := &T{},
// x := NewT(), x := y.(T) and var x T.
func goAssign(x *Extractor, n int32, scope *Scope) {
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
				scope.Calls[name] = OneLine(t.Text(fn))
				delete(scope.Types, name)
			}
		case "type_assertion_expression":
			if typ := t.FieldText(v, "type"); typ != "" {
				scope.Types[name] = typ
			}
		}
	}
}

// goGuard records if cond { return ... } and if cond { panic(...) } at the
// top of a function body.
func goGuard(x *Extractor, n int32, sym int) {
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
