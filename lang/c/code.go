package c

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// walkState is the state of finish's walk of one file.
type walkState struct {
	x   *lang.Extractor
	t   *lang.Tree
	cpp bool
	// syms maps the node each symbol spans to it
	syms map[int32]int
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

// finish completes what the query's symbols cannot say alone (an
// out-of-line method's class, a member's export, a macro's last line),
// then walks the file's declarations for the code between them: calls,
// constructions, guards, the tests macros define.
func finish(x *lang.Extractor) {
	t := x.Tree
	w := &walkState{x: x, t: t, cpp: t.Lang.Name == "cpp", syms: map[int32]int{}, namespaces: map[string]bool{},
		classes: map[string]int{}, testBody: -1}
	syms := x.Facts.Symbols
	for i := 1; i < len(syms); i++ {
		w.syms[x.SymNode[i]] = i
		n, q := inner(t, x.SymNode[i]), syms[i].Qualified()
		switch {
		case syms[i].Kind == lang.KindModule:
			for j := 0; j <= len(q); j++ {
				if j == len(q) || q[j] == '.' {
					w.namespaces[q[:j]] = true // a nested a.b also opens a
				}
			}
		case isRecord(t.Kind(n)):
			w.classes[q] = i
		case t.Kind(n) == "preproc_def" || t.Kind(n) == "preproc_function_def":
			w.trimNewline(i)
		}
	}
	for i := 1; i < len(syms); i++ {
		s := &syms[i]
		if p := s.Parent; p > 0 && (syms[p].Kind == lang.KindClass || syms[p].Kind == lang.KindInterface) {
			s.Exported = s.Exported && syms[p].Exported
		}
		if s.Kind == lang.KindFunction || s.Kind == lang.KindMethod {
			w.outOfLine(i)
		}
	}
	w.decls(0, 0)
	syms = x.Facts.Symbols // the walk adds the symbols of test macros
	for i := range x.Facts.Imports {
		// the file's imports, or a function's
		if k := syms[x.Facts.Imports[i].Symbol].Kind; k != lang.KindFunction && k != lang.KindMethod && k != lang.KindConstructor {
			x.Facts.Imports[i].Symbol = 0
		}
	}
}

// outOfLine places a function defined or declared as A::f: a method of
// class A (a constructor when f is A), or a function of namespace A, as
// visible as what it defines.
func (w *walkState) outOfLine(i int) {
	t, s := w.t, &w.x.Facts.Symbols[i]
	n := inner(t, w.x.SymNode[i])
	if t.FieldName(n) != "declarator" {
		n = t.Field(n, "declarator")
	}
	d := unwrapDeclarator(t, n)
	scopeName, name, dtor := nameParts(t, d.name)
	if scopeName == "" {
		return
	}
	ns := ""
	if s.Parent > 0 {
		ns = w.x.Facts.Symbols[s.Parent].Qualified()
	}
	container := join(ns, scopeName)
	if q := w.namespaceOf(ns, scopeName); q != "" {
		container = q
	} else {
		s.Kind = lang.KindMethod
		if _, ok := w.classes[container]; !ok {
			if _, ok := w.classes[scopeName]; ok {
				container = scopeName
			}
		}
		if !dtor && name == lastDotted(container) {
			s.Kind = lang.KindConstructor
		}
	}
	s.Container = container
	if pl := placeOf(t, w.x.SymNode[i]); pl.cls < 0 {
		// as visible as what it defines (a member: as its class says)
		s.Exported, s.Visibility = !pl.hidden, lang.VisPublic
		if pl.hidden {
			s.Visibility = lang.VisInternal
		} else if s.Kind == lang.KindFunction {
			s.Visibility = lang.VisExported
		}
	}
}

// sym is the symbol of declaration n (or of the template around it).
func (w *walkState) sym(n int32) (int, bool) {
	if s, ok := w.syms[n]; ok {
		return s, true
	}
	if p := w.t.Parent(n); p >= 0 && w.t.Kind(p) == "template_declaration" {
		s, ok := w.syms[p]
		return s, ok
	}
	return 0, false
}

// namespaceOf is the qualified namespace scope names from inside ns, or "".
func (w *walkState) namespaceOf(ns, scope string) string {
	for w.cpp {
		if q := join(ns, scope); w.namespaces[q] {
			return q
		}
		if ns == "" {
			break
		}
		ns = ns[:max(strings.LastIndexByte(ns, '.'), 0)]
	}
	return ""
}

// decls walks the declarations directly inside n (a translation unit, a
// namespace or linkage body, a preprocessor conditional), whose code is
// symbol sym's.
func (w *walkState) decls(n int32, sym int) {
	for ch := range w.t.NamedChildren(n) {
		w.decl(ch, sym)
	}
}

func (w *walkState) decl(n int32, sym int) {
	t := w.t
	switch t.Kind(n) {
	case "comment", "preproc_call", "preproc_include", "using_declaration", "namespace_alias_definition", "alias_declaration":
	case "preproc_def", "preproc_function_def":
		if s, ok := w.syms[n]; ok && t.Field(n, "value") >= 0 {
			w.macroCalls(t.Bytes(t.Field(n, "value")), w.x.Facts.Symbols[s].Signature.Params, w.x.Facts.Symbols[s].Name, s, n)
		}
	case "function_definition":
		w.function(n, sym)
	case "declaration", "field_declaration":
		w.declaration(n, sym)
	case "type_definition":
		if typ := t.Field(n, "type"); typ >= 0 && isRecord(t.Kind(typ)) {
			w.record(typ, sym)
		}
	case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
		w.record(n, sym)
	case "enumerator":
		if v := t.Field(n, "value"); v >= 0 {
			w.code(v, sym, newScope(nil), false)
		}
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef", "template_declaration",
		"declaration_list", "ERROR", "linkage_specification", "namespace_definition":
		if s, ok := w.syms[n]; ok && t.Kind(n) == "namespace_definition" {
			sym = s
		}
		for ch := range t.NamedChildren(n) {
			if f := t.FieldName(ch); f != "condition" && f != "name" && f != "parameters" {
				w.decl(ch, sym)
			}
		}
	case "expression_statement":
		if !w.testMacro(n, sym) {
			w.code(n, sym, newScope(nil), false)
		}
	case "compound_statement":
		// the body of a macro-defined function the grammar could not
		// see as one (TEST(a, b) { ... } in C): code of the enclosing
		// symbol, unless a test macro read it
		if n != w.testBody {
			w.code(n, sym, newScope(nil), false)
		}
	default:
		w.code(n, sym, newScope(nil), false)
	}
}

// function walks a function's code with its parameters' and class's
// fields' types in scope.
func (w *walkState) function(n int32, around int) {
	t := w.t
	body := t.Field(n, "body")
	sym, ok := w.sym(n)
	if !ok {
		if body >= 0 {
			w.code(body, around, newScope(nil), false) // not a function after all
		}
		return
	}
	s := &w.x.Facts.Symbols[sym]
	scope, cls := newScope(nil), 0
	if s.Kind == lang.KindMethod || s.Kind == lang.KindConstructor {
		// the class it is defined in, else the class it names (A::f)
		var ok bool
		cls, ok = s.Parent, s.Parent > 0 && isRecord(t.Kind(inner(t, w.x.SymNode[s.Parent])))
		if !ok {
			cls, ok = w.classes[s.Container]
		}
		scope.cls = s.Container
		if ok {
			scope.cls = w.x.Facts.Symbols[cls].Qualified()
			for _, f := range w.x.Facts.Symbols[cls].Signature.Fields {
				scope.setField(f.Name, fieldBaseType(f.Type))
			}
		}
	}
	if d := unwrapDeclarator(t, t.Field(n, "declarator")); d.fn >= 0 && !(len(s.Signature.Modifiers) > 0 && testMacros[s.Signature.Modifiers[0]]) {
		params(t, t.Field(d.fn, "parameters"), scope)
	}
	if body < 0 {
		return
	}
	// member initializers: base constructors and members' construction
	if fil := t.ChildOfKind(n, "field_initializer_list"); fil >= 0 {
		w.fieldInits(fil, sym, scope, cls)
	}
	w.code(body, sym, scope, t.Kind(body) != "try_statement")
}

// declaration walks the records a declaration defines and the
// initializers of the variables it declares; a class member's default
// value is its class's code.
func (w *walkState) declaration(n int32, sym int) {
	t := w.t
	typ := t.Field(n, "type")
	if typ >= 0 && isRecord(t.Kind(typ)) && t.Field(typ, "body") >= 0 {
		w.record(typ, sym)
	}
	if v := t.Field(n, "default_value"); v >= 0 && t.Kind(t.Parent(n)) == "field_declaration_list" {
		w.code(v, sym, newScope(nil), false)
		if t.Kind(v) == "initializer_list" || t.Kind(v) == "argument_list" {
			w.construct(typ, sym, v)
		}
	}
	for dn := range t.Children(n) {
		if t.FieldName(dn) != "declarator" {
			continue
		}
		d := unwrapDeclarator(t, dn)
		s, ok := w.syms[dn] // one of several names, else the declaration's
		if !ok {
			s, ok = w.sym(n)
		}
		if !ok || d.value < 0 || w.x.Facts.Symbols[s].Kind != lang.KindVariable {
			continue
		}
		w.code(d.value, s, newScope(nil), false)
		if w.cpp && (t.Kind(d.value) == "argument_list" || t.Kind(d.value) == "initializer_list") {
			w.construct(typ, s, d.value)
		}
	}
}

// record walks a class's bases and members, an enum's values; an
// anonymous struct's members are code of the symbol around it.
func (w *walkState) record(n int32, around int) {
	t := w.t
	body := t.Field(n, "body")
	sym, ok := w.sym(n)
	if body < 0 || !ok {
		if body >= 0 {
			w.code(body, around, newScope(nil), false)
		}
		return
	}
	for _, b := range bases(t, n) {
		bn, bq := typeRefName(t, b)
		w.x.Ref(lang.Ref{Kind: lang.RefExtends, Name: bn, Qualifier: bq, Symbol: sym}, b)
	}
	for m := range t.NamedChildren(body) {
		switch t.Kind(m) {
		case "access_specifier", "friend_declaration", "using_declaration", "static_assert_declaration":
		default:
			w.decl(m, sym)
		}
	}
}

// maxMacroCalls bounds the calls one macro's body contributes.
const maxMacroCalls = 16

// The code of C and C++ functions: calls, constructions, guards, throws,
// and the types of the locals that method calls go through.

// scope maps the names visible in a function to what is known of their
// types. One map per function is close enough to block scoping; lambdas
// get their own.
type scope struct {
	lang.Scope
	fields map[string]string // the enclosing class's data members -> simple type
	cls    string            // the enclosing class, qualified (dotted), "" outside methods
	outer  *scope
}

func newScope(outer *scope) *scope {
	s := &scope{outer: outer}
	if outer != nil {
		s.Parent = &outer.Scope
		s.cls = outer.cls
	}
	return s
}

func (s *scope) setField(name, typ string) {
	if s.fields == nil {
		s.fields = map[string]string{}
	}
	s.fields[name] = typ
}

// field finds a data member of the enclosing class this file defines.
func (s *scope) field(name string) (string, bool) {
	for ; s != nil; s = s.outer {
		if t, found := s.fields[name]; found {
			return t, true
		}
	}
	return "", false
}

// varType is the simple type of a variable declared with type node typ
// and declarator decorations deco ("" for builtin types and auto).
func varType(t *lang.Tree, typ int32, deco string) string {
	if typ < 0 {
		return ""
	}
	switch t.Kind(typ) {
	case "primitive_type", "sized_type_specifier", "placeholder_type_specifier", "decltype":
		return ""
	}
	return simpleType(t.Text(typ))
}

// code walks code that belongs to symbol sym. top is true for the
// statements of a function's own body, where an early exit is a guard.
func (w *walkState) code(n int32, sym int, scope *scope, top bool) {
	t := w.t
	switch t.Kind(n) {
	case "comment":
		return
	case "call_expression":
		w.call(n, sym, scope)
		if fn := t.Field(n, "function"); fn >= 0 {
			switch t.Kind(fn) {
			case "identifier", "qualified_identifier", "template_function":
				// the callee is a name: nothing in it to walk
				if args := t.Field(n, "arguments"); args >= 0 {
					w.code(args, sym, scope, false)
				}
				return
			}
		}
	case "new_expression":
		if ty := t.Field(n, "type"); ty >= 0 {
			w.construct(ty, sym, n)
		}
		for ch := range t.NamedChildren(n) {
			if t.FieldName(ch) != "type" {
				w.code(ch, sym, scope, false)
			}
		}
		return
	case "declaration":
		w.local(n, sym, scope)
		return
	case "compound_statement":
		if top {
			for st := range t.NamedChildren(n) {
				w.code(st, sym, scope, true)
			}
			return
		}
	case "if_statement":
		if top {
			guard.Guard(w.x, sym, n)
		}
	case "throw_statement":
		w.throwStmt(n, sym)
	case "expression_statement":
		if top {
			w.assertGuard(n, sym)
		}
	case "lambda_expression":
		inner := newScope(scope)
		if d := t.Field(n, "declarator"); d >= 0 {
			params(t, t.Field(d, "parameters"), inner)
		}
		if b := t.Field(n, "body"); b >= 0 {
			w.code(b, sym, inner, false)
		}
		return
	case "for_range_loop":
		if d := t.Field(n, "declarator"); d >= 0 {
			dd := unwrapDeclarator(t, d)
			if dd.name >= 0 {
				scope.SetType(t.Text(dd.name), varType(t, t.Field(n, "type"), dd.deco))
			}
		}
		for ch := range t.NamedChildren(n) {
			if f := t.FieldName(ch); f != "declarator" && f != "type" {
				w.code(ch, sym, scope, false)
			}
		}
		return
	case "catch_clause":
		params(t, t.Field(n, "parameters"), scope)
		if b := t.Field(n, "body"); b >= 0 {
			w.code(b, sym, scope, false)
		}
		return
	case "using_declaration":
		return // an import of the function (the query's)
	case "field_initializer_list":
		w.fieldInits(n, sym, scope, w.classes[scope.cls])
		return
	case "identifier":
		w.funcRef(n, sym, scope)
		return
	case "type_identifier", "primitive_type", "sized_type_specifier", "template_argument_list", "string_literal",
		"number_literal", "char_literal", "preproc_arg":
		return
	}
	for ch := range t.NamedChildren(n) {
		w.code(ch, sym, scope, false)
	}
}

// local types the names a declaration in a function body declares, records
// constructions (T x(args), T x{args}), and walks initializers.
func (w *walkState) local(n int32, sym int, scope *scope) {
	t := w.t
	typ := t.Field(n, "type")
	if typ >= 0 {
		switch t.Kind(typ) {
		case "struct_specifier", "union_specifier", "class_specifier", "enum_specifier":
			if b := t.Field(typ, "body"); b >= 0 {
				w.code(b, sym, scope, false)
			}
		}
	}
	auto := typ >= 0 && t.Kind(typ) == "placeholder_type_specifier"
	for dn := range t.Children(n) {
		if t.FieldName(dn) != "declarator" {
			continue
		}
		d := unwrapDeclarator(t, dn)
		if d.name < 0 {
			continue
		}
		if d.fn >= 0 {
			// T x(a[1]) reads as a prototype (the most vexing parse); in
			// C++ code a local of class type declared so is a construction
			if !w.cpp || typ < 0 || t.Kind(d.name) != "identifier" || varType(t, typ, "") == "" || d.fn != declaratorChild(t, dn) && d.fn != dn {
				continue
			}
			w.construct(typ, sym, d.fn)
			scope.SetType(t.Text(d.name), varType(t, typ, d.deco))
			continue
		}
		name := t.Text(d.name)
		vt := varType(t, typ, d.deco)
		v := d.value
		if v < 0 {
			v = t.Field(n, "value") // if (auto x = f()): a condition's declaration
		}
		if v >= 0 {
			w.code(v, sym, scope, false)
			if w.cpp && !auto && (t.Kind(v) == "argument_list" || t.Kind(v) == "initializer_list") {
				w.construct(typ, sym, v)
			}
		}
		if auto && v >= 0 {
			vt = ""
			switch t.Kind(v) {
			case "new_expression":
				vt = varType(t, t.Field(v, "type"), "")
			case "call_expression":
				if made := madeType(t, v); made != "" {
					vt = made
				} else if fn := t.Field(v, "function"); fn >= 0 && t.Kind(fn) == "template_function" && casts[t.FieldText(fn, "name")] {
					if args := t.Field(fn, "arguments"); args >= 0 {
						if a := t.FirstNamedChild(args); a >= 0 {
							vt = simpleType(t.Text(a)) // auto p = static_cast<T*>(x)
						}
					}
				} else if fn := t.Field(v, "function"); fn >= 0 {
					head, call := w.head(v, scope)
					if call != "" {
						scope.SetCall(name, call, head)
						continue
					}
				}
			case "compound_literal_expression":
				vt = varType(t, t.Field(v, "type"), "")
			}
		}
		scope.SetType(name, vt)
	}
}

// madeType is the type a make_unique<T>() or make_shared<T>() call makes,
// or "".
func madeType(t *lang.Tree, call int32) string {
	fn := t.Field(call, "function")
	for i := 0; fn >= 0 && t.Kind(fn) == "qualified_identifier" && i < 8; i++ {
		fn = t.Field(fn, "name")
	}
	if fn < 0 || t.Kind(fn) != "template_function" {
		return ""
	}
	switch t.FieldText(fn, "name") {
	case "make_unique", "make_shared", "allocate_shared", "make_optional":
		if args := t.Field(fn, "arguments"); args >= 0 {
			if a := t.FirstNamedChild(args); a >= 0 {
				return simpleType(t.Text(a))
			}
		}
	}
	return ""
}

// casts are the named casts, which read like calls of templates.
var casts = map[string]bool{"static_cast": true, "dynamic_cast": true, "const_cast": true, "reinterpret_cast": true,
	"bit_cast": true, "static_pointer_cast": false}

// call records a call.
func (w *walkState) call(n int32, sym int, scope *scope) {
	t := w.t
	fn := t.Field(n, "function")
	if fn < 0 {
		return
	}
	switch t.Kind(fn) {
	case "identifier":
		name := t.Text(fn)
		if _, _, _, local := scope.Lookup(name); local {
			return // a call through a function pointer or a lambda held in a local
		}
		w.x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Symbol: sym}, n)
	case "template_function":
		name := t.FieldText(fn, "name")
		if casts[name] {
			return
		}
		w.x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Symbol: sym}, n)
	case "qualified_identifier":
		var segs []string
		q := fn
		global := false
		for i := 0; q >= 0 && t.Kind(q) == "qualified_identifier" && i < 32; i++ {
			if s := t.Field(q, "scope"); s >= 0 {
				segs = append(segs, strings.ReplaceAll(scopeText(t, s), ".", "::"))
			} else if i == 0 {
				global = true
			}
			q = t.Field(q, "name")
		}
		if q < 0 {
			return
		}
		_, name, _ := nameParts(t, q)
		if name == "" || casts[name] {
			return
		}
		_ = global
		r := lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: strings.Join(segs, "::"), Symbol: sym}
		if r.Qualifier != "" {
			r.QualifierType = scopeMark
		}
		w.x.Ref(r, n)
		if made := madeType(t, n); made != "" {
			mn, mq := made, ""
			if i := strings.LastIndex(made, "::"); i >= 0 {
				mn, mq = made[i+2:], made[:i]
			}
			w.x.Ref(lang.Ref{Kind: lang.RefNew, Name: mn, Qualifier: mq, Symbol: sym}, n)
		}
	case "field_expression":
		obj := t.Field(fn, "argument")
		field := t.Field(fn, "field")
		if obj < 0 || field < 0 {
			return
		}
		_, name, _ := nameParts(t, field)
		if t.Kind(field) == "dependent_name" {
			if in := t.FirstNamedChild(field); in >= 0 {
				_, name, _ = nameParts(t, in)
			}
		}
		if name == "" {
			return
		}
		r := lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: expr(t, obj, 0), Symbol: sym}
		r.QualifierType, r.QualifierCall = w.head(obj, scope)
		w.x.Ref(r, n)
	}
}

// scopeMark is the QualifierType of a call through a scope (ns::f(),
// Class::f()): its qualifier names a namespace or a class, not a value.
const scopeMark = "::"

// expr renders an expression used as a qualifier with arguments left out
// and -> written as ".": "a->b(x).c" -> "a.b().c".
func expr(t *lang.Tree, n int32, depth int) string {
	if depth > lang.MaxChain {
		return "..."
	}
	switch t.Kind(n) {
	case "identifier", "this", "field_identifier", "namespace_identifier", "type_identifier":
		return t.Text(n)
	case "field_expression":
		a, f := t.Field(n, "argument"), t.Field(n, "field")
		if a < 0 || f < 0 {
			break
		}
		return expr(t, a, depth+1) + "." + expr(t, f, depth+1)
	case "call_expression":
		if f := t.Field(n, "function"); f >= 0 {
			return expr(t, f, depth+1) + "()"
		}
	case "qualified_identifier", "template_function", "template_type":
		s := strings.Join(strings.Fields(t.Text(n)), "")
		if i := strings.IndexByte(s, '<'); i >= 0 {
			s = s[:i]
		}
		return s
	case "template_method":
		return t.FieldText(n, "name")
	case "subscript_expression":
		if a := t.Field(n, "argument"); a >= 0 {
			return expr(t, a, depth+1) + "[]"
		}
	case "parenthesized_expression":
		if in := t.FirstNamedChild(n); in >= 0 {
			return expr(t, in, depth+1)
		}
	case "pointer_expression":
		if a := t.Field(n, "argument"); a >= 0 {
			return expr(t, a, depth+1)
		}
	}
	return lang.Shorten(lang.OneLine(t.Text(n)), 40)
}

// head works out what is known of a qualifier: the type of its first part
// (a typed local, this, a member of the class), and the last call in it,
// whose result the rest hangs from.
func (w *walkState) head(obj int32, scope *scope) (typ, call string) {
	t := w.t
	// the last call of the chain: a.b().c -> a.b
	for n, i := obj, 0; n >= 0 && i <= lang.MaxChain; i++ {
		k := t.Kind(n)
		if k == "call_expression" {
			if f := t.Field(n, "function"); f >= 0 {
				call = expr(t, f, 0)
			}
			break
		}
		switch k {
		case "field_expression", "subscript_expression", "pointer_expression":
			n = t.Field(n, "argument")
		case "parenthesized_expression":
			n = t.FirstNamedChild(n)
		default:
			n = -1
		}
	}
	n := obj
	for i := 0; i <= lang.MaxChain; i++ {
		next := int32(-1)
		switch t.Kind(n) {
		case "field_expression", "subscript_expression", "pointer_expression":
			next = t.Field(n, "argument")
		case "call_expression":
			f := t.Field(n, "function")
			if f >= 0 && t.Kind(f) == "field_expression" {
				next = t.Field(f, "argument")
			} else if f >= 0 && (t.Kind(f) == "identifier" || t.Kind(f) == "qualified_identifier") {
				return "", call // f().m(): the call tells
			}
		case "parenthesized_expression":
			next = t.FirstNamedChild(n)
		}
		if next < 0 {
			break
		}
		n = next
	}
	switch t.Kind(n) {
	case "this":
		return scope.cls, call
	case "identifier":
		name := t.Text(n)
		vt, vc, vh, ok := scope.Lookup(name)
		switch {
		case ok && vc == "":
			return vt, call
		case ok && call == "":
			return vh, vc
		case ok && strings.HasPrefix(call, name):
			return vh, vc + "()" + call[len(name):]
		case ok:
			return vt, call
		}
		if ft, found := scope.field(name); found {
			return ft, call
		}
	case "new_expression":
		return varType(t, t.Field(n, "type"), ""), call
	}
	return "", call
}

// guard records if (cond) return/throw/goto/exit at the top of a body.
var guard = lang.IfGuard{Body: "consequence", Block: "compound_statement", Cond: guardCond, Exit: exit}

// guardCond is an if's condition without its parentheses, or C++'s
// condition_clause's value.
func guardCond(t *lang.Tree, cond int32) string {
	condText := t.Text(cond)
	if k := t.Kind(cond); k == "parenthesized_expression" || k == "condition_clause" {
		if in := t.FirstNamedChild(cond); in >= 0 {
			condText = t.Text(in)
		}
		if k == "condition_clause" {
			if v := t.Field(cond, "value"); v >= 0 {
				condText = t.Text(v)
			}
		}
	}
	return condText
}

// exit is the action of a statement that leaves a function: return,
// throw, goto (the kernel's error exit) or a call that ends the process.
func exit(t *lang.Tree, st int32) string {
	switch t.Kind(st) {
	case "goto_statement":
		return "goto " + t.FieldText(st, "label")
	case "expression_statement":
		if call := t.FirstNamedChild(st); call >= 0 && t.Kind(call) == "call_expression" {
			return exitCalls[lastColon(t.FieldText(call, "function"))]
		}
	}
	return lang.ExitAction(t, st)
}

// exitCalls end the process (or the program's run) where they are called.
var exitCalls = map[string]string{
	"exit": "exit", "_exit": "exit", "_Exit": "exit", "quick_exit": "exit", "abort": "abort", "err": "exit",
	"errx": "exit", "panic": "abort", "die": "exit", "fatal": "exit", "BUG": "abort", "terminate": "abort",
}

// assertGuard records assert(cond) and static_assert(cond) at the top of a
// body: the function aborts unless cond holds.
func (w *walkState) assertGuard(st int32, sym int) {
	t := w.t
	call := t.FirstNamedChild(st)
	if call < 0 || t.Kind(call) != "call_expression" {
		return
	}
	switch t.FieldText(call, "function") {
	case "assert", "g_assert", "ASSERT", "DCHECK", "CHECK":
	default:
		return
	}
	args := t.Field(call, "arguments")
	if args < 0 {
		return
	}
	if a := t.FirstNamedChild(args); a >= 0 {
		w.x.Guard(sym, "!("+t.Text(a)+")", "abort", st)
	}
}

// throwStmt records throw X(...) as a throw of X.
func (w *walkState) throwStmt(n int32, sym int) {
	t := w.t
	e := t.FirstNamedChild(n)
	what := ""
	if e >= 0 {
		what = lang.OneLine(t.Text(e))
		switch t.Kind(e) {
		case "call_expression":
			what = lang.OneLine(t.FieldText(e, "function"))
		case "new_expression":
			what = lang.OneLine(t.FieldText(e, "type"))
		}
	}
	w.x.Throw(sym, "throws", what, n)
}

// funcRef records a function named as a value (an entry of a table of
// operations, a callback passed to a call, a handler assigned to a
// member): code reaches it through a pointer. The reference carries the
// type "&"; resolution keeps it only when it binds to a function.
func (w *walkState) funcRef(n int32, sym int, scope *scope) {
	t := w.t
	p := t.Parent(n)
	if p >= 0 && t.Kind(p) == "pointer_expression" {
		p = t.Parent(p) // &handler
	}
	if p < 0 {
		return
	}
	switch t.Kind(p) {
	case "argument_list", "initializer_list":
	case "initializer_pair", "assignment_expression":
		if f := t.FieldName(n); f != "value" && f != "right" && t.Kind(t.Parent(n)) != "pointer_expression" {
			return
		}
	default:
		return
	}
	name := t.Text(n)
	if len(name) < 2 || strings.ToUpper(name) == name {
		return // a constant or a macro
	}
	if _, _, _, local := scope.Lookup(name); local {
		return
	}
	if _, member := scope.field(name); member {
		return
	}
	w.x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, QualifierType: "&", Symbol: sym}, n)
}
