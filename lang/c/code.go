package c

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

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
func (w *walkState) varType(typ int32, deco string) string {
	t := w.t
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
func (w *walkState) code(n int32, sym int, scope *scope, top bool, c state) {
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
					w.code(args, sym, scope, false, c)
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
				w.code(ch, sym, scope, false, c)
			}
		}
		return
	case "declaration":
		w.local(n, sym, scope, c)
		return
	case "compound_statement":
		if top {
			for st := range t.NamedChildren(n) {
				w.code(st, sym, scope, true, c)
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
			w.params(t.Field(d, "parameters"), inner)
		}
		if b := t.Field(n, "body"); b >= 0 {
			w.code(b, sym, inner, false, c)
		}
		return
	case "for_range_loop":
		if d := t.Field(n, "declarator"); d >= 0 {
			dd := w.unwrapDeclarator(d)
			if dd.name >= 0 {
				scope.SetType(t.Text(dd.name), w.varType(t.Field(n, "type"), dd.deco))
			}
		}
		for ch := range t.NamedChildren(n) {
			if f := t.FieldName(ch); f != "declarator" && f != "type" {
				w.code(ch, sym, scope, false, c)
			}
		}
		return
	case "catch_clause":
		w.params(t.Field(n, "parameters"), scope)
		if b := t.Field(n, "body"); b >= 0 {
			w.code(b, sym, scope, false, c)
		}
		return
	case "using_declaration":
		w.usingImport(n, sym)
		return
	case "field_initializer_list":
		w.fieldInits(n, sym, scope, c)
		return
	case "identifier":
		w.funcRef(n, sym, scope)
		return
	case "type_identifier", "primitive_type", "sized_type_specifier", "template_argument_list", "string_literal",
		"number_literal", "char_literal", "preproc_arg":
		return
	}
	for ch := range t.NamedChildren(n) {
		w.code(ch, sym, scope, false, c)
	}
}

// local types the names a declaration in a function body declares, records
// constructions (T x(args), T x{args}), and walks initializers.
func (w *walkState) local(n int32, sym int, scope *scope, c state) {
	t := w.t
	typ := t.Field(n, "type")
	if typ >= 0 {
		switch t.Kind(typ) {
		case "struct_specifier", "union_specifier", "class_specifier", "enum_specifier":
			if b := t.Field(typ, "body"); b >= 0 {
				w.code(b, sym, scope, false, c)
			}
		}
	}
	auto := typ >= 0 && t.Kind(typ) == "placeholder_type_specifier"
	for dn := range t.Children(n) {
		if t.FieldName(dn) != "declarator" {
			continue
		}
		d := w.unwrapDeclarator(dn)
		if d.name < 0 {
			continue
		}
		if d.fn >= 0 {
			// T x(a[1]) reads as a prototype (the most vexing parse); in
			// C++ code a local of class type declared so is a construction
			if !w.cpp || typ < 0 || t.Kind(d.name) != "identifier" || w.varType(typ, "") == "" || d.fn != declaratorChild(t, dn) && d.fn != dn {
				continue
			}
			w.construct(typ, sym, d.fn)
			scope.SetType(t.Text(d.name), w.varType(typ, d.deco))
			continue
		}
		name := t.Text(d.name)
		vt := w.varType(typ, d.deco)
		v := d.value
		if v < 0 {
			v = t.Field(n, "value") // if (auto x = f()): a condition's declaration
		}
		if v >= 0 {
			w.code(v, sym, scope, false, c)
			if w.cpp && !auto && (t.Kind(v) == "argument_list" || t.Kind(v) == "initializer_list") {
				w.construct(typ, sym, v)
			}
		}
		if auto && v >= 0 {
			vt = ""
			switch t.Kind(v) {
			case "new_expression":
				vt = w.varType(t.Field(v, "type"), "")
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
				vt = w.varType(t.Field(v, "type"), "")
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
		_, name, _ := w.nameParts(q)
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
		_, name, _ := w.nameParts(field)
		if t.Kind(field) == "dependent_name" {
			if in := t.FirstNamedChild(field); in >= 0 {
				_, name, _ = w.nameParts(in)
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
		return w.varType(t.Field(n, "type"), ""), call
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
