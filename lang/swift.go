package lang

import (
	"path"
	"strings"

	tsswift "github.com/alex-pinkus/tree-sitter-swift/bindings/go"
)

func init() {
	l := &Language{Name: "swift", Extensions: []string{".swift"}, extract: extractSwift}
	register(l, tsswift.Language())
	l.setSyntax([]string{"comment", "multiline_comment"},
		[]string{"line_string_literal", "multi_line_string_literal", "raw_string_literal"},
		[]string{"simple_identifier", "type_identifier"})
}

// swCtx is where the Swift walker is. Scopes are Kotlin's: names to types
// or to the calls they were assigned from.
type swCtx struct {
	sym     int // the symbol code belongs to
	members int // the type whose body is walked, -1 in code
	cls     int // the innermost type, -1 outside
	owner   string
	proto   bool // in a protocol body: members are requirements
	protos  map[string]bool
	top     bool // a statement of a function body itself
	scope   *Scope
}

func extractSwift(x *Extractor) {
	x.Facts.Module = swiftModuleOf(x.Path)
	if x.Tree.Lang.IsTestPath(x.Path) {
		x.Facts.IsTest = true
		x.Facts.Symbols[0].IsTest = true
	}
	if x.Facts.Module != "" {
		x.Facts.Symbols[0].Name = x.Facts.Module
	}
	// the protocols this file declares: a class's first base that is one
	// is a conformance, not a superclass
	protos := map[string]bool{}
	for n := range x.Tree.NamedChildren(0) {
		if x.Tree.Kind(n) == "protocol_declaration" {
			if id := x.Tree.ChildOfKind(n, "type_identifier"); id >= 0 {
				protos[x.Tree.Text(id)] = true
			}
		}
	}
	c := swCtx{members: -1, cls: -1, scope: &Scope{}, protos: protos}
	for n := range x.Tree.NamedChildren(0) {
		swNode(x, n, c)
	}
}

// swKnownProtocols are protocols of the standard library and Foundation
// that classes commonly list first.
var swKnownProtocols = map[string]bool{
	"Codable": true, "Encodable": true, "Decodable": true, "Equatable": true, "Hashable": true, "Comparable": true,
	"Error": true, "CustomStringConvertible": true, "CustomDebugStringConvertible": true, "Sendable": true,
	"Identifiable": true, "ObservableObject": true, "CaseIterable": true, "RawRepresentable": true, "Sequence": true,
	"Collection": true, "IteratorProtocol": true, "LocalizedError": true, "View": true, "App": true,
	"URLSessionDelegate": true, "URLSessionTaskDelegate": true, "URLSessionDataDelegate": true,
}

// swiftModuleOf is the module a file belongs to: Swift Package Manager's
// Sources/<Target>/ and Tests/<Target>/, else the top directory (an Xcode
// target's folder), else "" for files at the root.
func swiftModuleOf(p string) string {
	segs := strings.Split(path.Dir(p), "/")
	for i := 0; i+1 < len(segs); i++ {
		if segs[i] == "Sources" || segs[i] == "Tests" {
			return segs[i+1]
		}
	}
	if len(segs) > 0 && segs[0] != "." {
		return segs[0]
	}
	return ""
}

// swIsType reports whether a node kind is a type.
func swIsType(k string) bool {
	switch k {
	case "user_type", "optional_type", "array_type", "dictionary_type", "tuple_type", "function_type",
		"opaque_type", "existential_type", "metatype", "protocol_composition_type", "implicitly_unwrapped_type",
		"type_parameter_pack", "type_pack_expansion", "suppressed_constraint":
		return true
	}
	return false
}

func swNode(x *Extractor, n int32, c swCtx) {
	t := x.Tree
	switch t.Kind(n) {
	case "comment", "multiline_comment", "modifiers", "attribute":
		return
	case "import_declaration":
		swImport(x, n)
		return
	case "class_declaration", "protocol_declaration":
		swClass(x, n, c)
		return
	case "function_declaration", "protocol_function_declaration", "init_declaration", "deinit_declaration",
		"subscript_declaration":
		swFunction(x, n, c)
		return
	case "property_declaration", "protocol_property_declaration":
		swProperty(x, n, c)
		return
	case "typealias_declaration", "associatedtype_declaration":
		if name := t.ChildOfKind(n, "type_identifier"); name >= 0 {
			s := Symbol{Kind: KindType, Name: t.Text(name), Parent: c.sym}
			if c.members >= 0 {
				s.Parent = c.members
			}
			swVisibility(x, &s, n, c)
			s.Signature.Text = OneLine(t.Text(n))
			s.Doc = x.DocBefore(n)
			x.AddSymbol(s, n, name, -1)
		}
		return
	case "call_expression":
		swCall(x, n, c)
	case "guard_statement":
		if c.top {
			swGuard(x, n, c)
		}
	case "if_statement":
		if c.top {
			swIfGuard(x, n, c)
		}
	case "control_transfer_statement":
		if t.ChildOfKind(n, "throw_keyword") >= 0 {
			what := ""
			for ch := range t.NamedChildren(n) {
				if t.Kind(ch) != "throw_keyword" {
					what = t.Text(ch)
					if t.Kind(ch) == "call_expression" {
						if f := t.FirstNamedChild(ch); f >= 0 {
							what = t.Text(f)
						}
					}
					break
				}
			}
			x.Throw(c.sym, "throws", what, n)
		}
	case "lambda_literal":
		inner := c
		inner.scope = &Scope{Parent: c.scope}
		inner.members, inner.top = -1, false
		for ch := range t.NamedChildren(n) {
			swNode(x, ch, inner)
		}
		return
	case "statements":
		for ch := range t.NamedChildren(n) {
			swNode(x, ch, c)
		}
		return
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		swNode(x, ch, c)
	}
}

// swVisibility reads modifiers: Swift's default is internal (the module);
// public and open are seen by importers. Members of a protocol take the
// protocol's visibility.
func swVisibility(x *Extractor, s *Symbol, n int32, c swCtx) (mods []string, test bool) {
	t := x.Tree
	vis := ""
	if m := t.ChildOfKind(n, "modifiers"); m >= 0 {
		for ch := range t.NamedChildren(m) {
			switch t.Kind(ch) {
			case "visibility_modifier":
				if w := OneLine(t.Text(ch)); !strings.Contains(w, "(") {
					vis = w
				} else if vis == "" {
					mods = append(mods, w) // private(set): the getter keeps the default
				}
			case "attribute":
				name := strings.TrimPrefix(OneLine(t.Text(ch)), "@")
				if i := strings.IndexAny(name, "(<"); i >= 0 {
					name = name[:i]
				}
				mods = append(mods, "@"+name)
				if name == "Test" {
					test = true
				}
			default:
				mods = append(mods, OneLine(t.Text(ch)))
			}
		}
	}
	if vis == "" && c.proto && c.members >= 0 {
		s.Exported, s.Visibility = x.Facts.Symbols[c.members].Exported, x.Facts.Symbols[c.members].Visibility
		return mods, test
	}
	switch vis {
	case "public", "open":
		s.Exported, s.Visibility = true, VisPublic
		if vis == "open" {
			mods = append(mods, "open")
		}
	case "private", "fileprivate":
		s.Visibility = VisPrivate
	default:
		s.Visibility = VisInternal
	}
	return mods, test
}

func swImport(x *Extractor, n int32) {
	t := x.Tree
	id := t.ChildOfKind(n, "identifier")
	if id < 0 {
		return
	}
	var parts []string
	for ch := range t.NamedChildren(id) {
		parts = append(parts, t.Text(ch))
	}
	if len(parts) == 0 {
		return
	}
	imp := Import{Source: parts[0], Line: t.StartLine(n), Symbol: 0}
	kinded := false
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "class", "struct", "enum", "protocol", "func", "var", "let", "typealias":
			kinded = !t.Named(ch)
		}
	}
	if kinded && len(parts) > 1 {
		// import class UIKit.UIView: one declaration
		imp.Names = []ImportName{{Name: parts[len(parts)-1]}}
	} else {
		imp.Source = strings.Join(parts, ".")
	}
	x.Facts.Imports = append(x.Facts.Imports, imp)
}

func swClass(x *Extractor, n int32, c swCtx) {
	t := x.Tree
	var name int32 = -1
	declKind := "protocol"
	for ch := range t.Children(n) {
		switch k := t.Kind(ch); {
		case !t.Named(ch) && (k == "class" || k == "struct" || k == "enum" || k == "extension" || k == "actor" || k == "protocol"):
			declKind = k
		case name < 0 && (k == "type_identifier" || k == "user_type"):
			name = ch
		}
	}
	if name < 0 {
		return
	}
	body := t.Field(n, "body")
	if body < 0 {
		for ch := range t.NamedChildren(n) {
			if k := t.Kind(ch); k == "class_body" || k == "enum_class_body" || k == "protocol_body" {
				body = ch
			}
		}
	}
	var bases []int32
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) == "inheritance_specifier" {
			if ty := t.FirstNamedChild(ch); ty >= 0 {
				bases = append(bases, ty)
			}
		}
	}
	parent := c.sym
	if c.members >= 0 {
		parent = c.members
	}
	if declKind == "extension" {
		// extension T: its members are T's; T's conformances are the
		// file's references
		owner := StripType(t.Text(name))
		for _, b := range bases {
			swTypeRef(x, b, 0, RefImplements)
		}
		inner := swCtx{sym: 0, members: 0, cls: -1, owner: owner, scope: &Scope{Parent: c.scope}, protos: c.protos}
		inner.scope.Set("self", owner, "", "")
		if body >= 0 {
			for m := range t.NamedChildren(body) {
				swNode(x, m, inner)
			}
		}
		return
	}
	s := Symbol{Kind: KindClass, Name: t.Text(name), Parent: parent}
	if declKind == "protocol" {
		s.Kind = KindInterface
	}
	mods, _ := swVisibility(x, &s, n, c)
	if declKind != "class" && declKind != "protocol" {
		mods = append(mods, declKind)
	}
	s.Signature.Modifiers = mods
	if tp := t.ChildOfKind(n, "type_parameters"); tp >= 0 {
		for p := range t.NamedChildren(tp) {
			s.Signature.Generics = append(s.Signature.Generics, OneLine(t.Text(p)))
		}
	}
	for _, b := range bases {
		s.Signature.Bases = append(s.Signature.Bases, OneLine(t.Text(b)))
	}
	if body >= 0 {
		for m := range t.NamedChildren(body) {
			switch t.Kind(m) {
			case "property_declaration", "protocol_property_declaration":
				if id, typ := swPropName(x, m); id >= 0 {
					s.Signature.Fields = append(s.Signature.Fields, Param{Name: t.Text(id), Type: typ})
				}
			case "enum_entry":
				for ch := range t.NamedChildren(m) {
					if t.Kind(ch) == "simple_identifier" {
						s.Signature.Fields = append(s.Signature.Fields, Param{Name: t.Text(ch), Type: s.Name})
					}
				}
			}
		}
	}
	s.Signature.Text = x.HeaderText(n, body)
	s.Doc = x.DocBefore(n)
	sym := x.AddSymbol(s, n, name, body)
	for i, b := range bases {
		// a class's first base may be its superclass; the rest, and every
		// base of a struct, enum or protocol, are protocols
		kind := RefImplements
		first := StripType(t.Text(b))
		if i == 0 && (declKind == "class" || declKind == "actor") && !c.protos[first] && !swKnownProtocols[first] ||
			declKind == "protocol" {
			kind = RefExtends
		}
		swTypeRef(x, b, sym, kind)
	}
	scope := &Scope{Parent: c.scope}
	for _, f := range x.Facts.Symbols[sym].Signature.Fields {
		scope.Set(f.Name, StripType(f.Type), "", "")
	}
	scope.Set("self", x.Facts.Symbols[sym].Name, "", "")
	inner := swCtx{sym: sym, members: sym, cls: sym, proto: declKind == "protocol", scope: scope, protos: c.protos}
	if body >= 0 {
		for m := range t.NamedChildren(body) {
			if t.Kind(m) == "enum_entry" {
				for ch := range t.NamedChildren(m) {
					if t.Kind(ch) == "simple_identifier" {
						es := Symbol{Kind: KindVariable, Name: t.Text(ch), Parent: sym, Exported: s.Exported,
							Visibility: x.Facts.Symbols[sym].Visibility}
						es.Signature.Returns = s.Name
						es.Signature.Text = OneLine(t.Text(m))
						x.AddSymbol(es, m, ch, -1)
					}
				}
				continue
			}
			swNode(x, m, inner)
		}
	}
}

// swTypeRef records a reference of kind to the type at node ty.
func swTypeRef(x *Extractor, ty int32, sym int, kind string) {
	name, qual := SplitType(StripType(x.Tree.Text(ty)))
	if name == "" {
		return
	}
	x.Ref(Ref{Kind: kind, Name: name, Qualifier: qual, Symbol: sym}, ty)
}

// swParams reads the parameter children of a declaration, declaring them
// in scope.
func swParams(x *Extractor, n int32, scope *Scope) []Param {
	t := x.Tree
	var out []Param
	for p := range t.NamedChildren(n) {
		if t.Kind(p) != "parameter" {
			if t.FieldName(p) == "default_value" {
				if len(out) > 0 {
					out[len(out)-1].Default = OneLine(t.Text(p))
					out[len(out)-1].Optional = true
				}
			}
			continue
		}
		var name, typ string
		for ch := range t.NamedChildren(p) {
			switch k := t.Kind(ch); {
			case k == "simple_identifier" && t.FieldName(ch) != "external_name":
				name = t.Text(ch)
			case swIsType(k) && typ == "":
				typ = OneLine(t.Text(ch))
			}
		}
		if name == "" {
			continue
		}
		param := Param{Name: name, Type: typ, Variadic: strings.HasSuffix(strings.TrimSpace(t.Text(p)), "...")}
		if param.Variadic {
			param.Type += "..."
		}
		out = append(out, param)
		if scope != nil {
			scope.Set(name, StripType(typ), "", "")
		}
	}
	return out
}

func swFunction(x *Extractor, n int32, c swCtx) {
	t := x.Tree
	kind := t.Kind(n)
	var name int32 = -1
	nameText := ""
	switch kind {
	case "init_declaration":
		nameText = "init"
	case "deinit_declaration":
		nameText = "deinit"
	case "subscript_declaration":
		nameText = "subscript"
	default:
		for ch := range t.NamedChildren(n) {
			if k := t.Kind(ch); k == "simple_identifier" || strings.HasSuffix(k, "operator") {
				name, nameText = ch, t.Text(ch)
				break
			}
		}
	}
	if nameText == "" {
		return
	}
	s := Symbol{Kind: KindFunction, Name: nameText, Parent: c.sym}
	if c.members >= 0 {
		s.Parent, s.Kind = c.members, KindMethod
		if c.owner != "" {
			s.Container = c.owner
		}
	}
	if kind == "init_declaration" {
		s.Kind = KindConstructor
	}
	mods, test := swVisibility(x, &s, n, c)
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "async":
			mods = append(mods, "async")
		case "throws":
			// the grammar's throws node also holds rethrows
			if strings.HasPrefix(t.Text(ch), "rethrows") {
				mods = append(mods, "rethrows")
			} else {
				mods = append(mods, "throws")
			}
		}
	}
	if c.proto {
		mods = append(mods, "abstract")
	}
	s.Signature.Modifiers = mods
	scope := &Scope{Parent: c.scope}
	s.Signature.Params = swParams(x, n, scope)
	for ch := range t.NamedChildren(n) {
		switch k := t.Kind(ch); {
		case k == "type_parameters":
			for p := range t.NamedChildren(ch) {
				s.Signature.Generics = append(s.Signature.Generics, OneLine(t.Text(p)))
			}
		case swIsType(k) && s.Signature.Returns == "":
			s.Signature.Returns = OneLine(t.Text(ch))
		}
	}
	body := t.Field(n, "body")
	if body < 0 {
		body = t.ChildOfKind(n, "function_body")
	}
	if body < 0 {
		body = t.ChildOfKind(n, "computed_property")
	}
	s.Signature.Text = x.HeaderText(n, body)
	s.Doc = x.DocBefore(n)
	s.IsTest = test || x.Facts.IsTest && c.members >= 0 && strings.HasPrefix(s.Name, "test")
	sym := x.AddSymbol(s, n, name, body)
	if body >= 0 {
		inner := swCtx{sym: sym, members: -1, cls: c.cls, owner: c.owner, scope: scope, top: true, protos: c.protos}
		for ch := range t.NamedChildren(body) {
			swNode(x, ch, inner)
		}
	}
}

// swPropName returns a property's name node and its declared (or
// constructed) type.
func swPropName(x *Extractor, n int32) (int32, string) {
	t := x.Tree
	var id int32 = -1
	typ := ""
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "pattern":
			if b := t.ChildOfKind(ch, "simple_identifier"); b >= 0 && id < 0 {
				id = b
			}
		case "type_annotation":
			if ty := t.FirstNamedChild(ch); ty >= 0 && typ == "" {
				typ = OneLine(t.Text(ty))
			}
		case "call_expression":
			if f := t.FirstNamedChild(ch); f >= 0 && typ == "" && t.Kind(f) == "simple_identifier" && IsUpper(t.Text(f)) {
				typ = t.Text(f)
			}
		}
	}
	return id, typ
}

func swProperty(x *Extractor, n int32, c swCtx) {
	t := x.Tree
	id, typ := swPropName(x, n)
	var value int32 = -1
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "pattern", "type_annotation", "modifiers", "value_binding_pattern", "protocol_property_requirements":
		default:
			if value < 0 {
				value = ch
			}
		}
	}
	call := ""
	if value >= 0 && t.Kind(value) == "call_expression" && typ == "" {
		if f := t.FirstNamedChild(value); f >= 0 {
			call = swChain(x, f)
		}
	}
	local := c.members < 0 && c.sym != 0
	if id >= 0 && local {
		c.scope.Set(t.Text(id), StripType(typ), call, "")
		c.top = false
		if value >= 0 {
			swNode(x, value, c)
		}
		return
	}
	sym := c.sym
	if id >= 0 {
		s := Symbol{Kind: KindVariable, Name: t.Text(id), Parent: c.sym}
		if c.members >= 0 {
			s.Parent = c.members
			if c.owner != "" {
				s.Container = c.owner
			}
		}
		mods, _ := swVisibility(x, &s, n, c)
		if vb := t.ChildOfKind(n, "value_binding_pattern"); vb >= 0 {
			mods = append(mods, OneLine(t.Text(vb)))
		}
		s.Signature.Modifiers = mods
		s.Signature.Returns = typ
		s.Signature.Text = Shorten(OneLine(x.HeaderText(n, t.ChildOfKind(n, "computed_property"))), MaxSigText)
		s.Doc = x.DocBefore(n)
		sym = x.AddSymbol(s, n, id, value)
		if c.members < 0 {
			c.scope.Set(t.Text(id), StripType(typ), call, "")
		}
	}
	inner := c
	inner.sym, inner.members, inner.top = sym, -1, false
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "pattern", "type_annotation", "modifiers", "value_binding_pattern":
		default:
			swNode(x, ch, inner)
		}
	}
}

// swChain returns the text of a navigation chain of plain names
// ("a.b.c", "self.repo"), or "" when some part is not a name.
func swChain(x *Extractor, n int32) string {
	t := x.Tree
	switch t.Kind(n) {
	case "simple_identifier":
		return t.Text(n)
	case "self_expression":
		return "self"
	case "super_expression":
		return "super"
	case "navigation_expression":
		var parts []string
		for ch := range t.NamedChildren(n) {
			var p string
			if t.Kind(ch) == "navigation_suffix" {
				if s := t.FirstNamedChild(ch); s >= 0 && t.Kind(s) == "simple_identifier" {
					p = t.Text(s)
				}
			} else {
				p = swChain(x, ch)
			}
			if p == "" {
				return ""
			}
			parts = append(parts, p)
		}
		return strings.Join(parts, ".")
	}
	return ""
}

func swCall(x *Extractor, n int32, c swCtx) {
	t := x.Tree
	f := t.FirstNamedChild(n)
	// a + f(x) parses as (a + f)(x): the callee is the right operand
	for f >= 0 && t.Field(f, "rhs") >= 0 && t.Kind(f) != "navigation_expression" {
		f = t.Field(f, "rhs")
	}
	if f < 0 {
		return
	}
	switch t.Kind(f) {
	case "simple_identifier":
		name := t.Text(f)
		kind := RefCall
		if IsUpper(name) {
			kind = RefNew
		}
		// items[0] is a subscript, not a call
		if cs := t.ChildOfKind(n, "call_suffix"); cs >= 0 && strings.HasPrefix(t.Text(cs), "[") {
			return
		}
		x.Ref(Ref{Kind: kind, Name: name, Symbol: c.sym}, f)
	case "navigation_expression":
		var target, suffix int32 = -1, -1
		for ch := range t.NamedChildren(f) {
			if t.Kind(ch) == "navigation_suffix" {
				suffix = ch
			} else if target < 0 {
				target = ch
			}
		}
		if suffix < 0 {
			return
		}
		last := t.FirstNamedChild(suffix)
		if last < 0 || t.Kind(last) != "simple_identifier" {
			return
		}
		r := Ref{Kind: RefCall, Name: t.Text(last), Symbol: c.sym}
		if target >= 0 {
			if s := swChain(x, target); s != "" {
				r.Qualifier = s
			} else if t.Kind(target) == "call_expression" {
				if cf := t.FirstNamedChild(target); cf >= 0 {
					if chain := swChain(x, cf); chain != "" {
						r.Qualifier = chain + "()"
						r.QualifierCall = chain
					}
				}
			}
		}
		if r.Qualifier != "" && r.QualifierCall == "" {
			head := r.Qualifier
			if i := strings.IndexByte(head, '.'); i >= 0 {
				head = head[:i]
			}
			switch head {
			case "self":
				if typ, _, _, ok := c.scope.Lookup("self"); ok {
					r.QualifierType = typ
				}
			case "super":
				if c.cls >= 0 && len(x.Facts.Symbols[c.cls].Signature.Bases) > 0 {
					r.QualifierType = StripType(x.Facts.Symbols[c.cls].Signature.Bases[0])
				}
			default:
				if typ, call, _, ok := c.scope.Lookup(head); ok {
					r.QualifierType, r.QualifierCall = typ, call
				}
			}
			if r.Name == "init" && (head == "self" || head == "super") && !strings.Contains(r.Qualifier, ".") {
				// self.init(...) and super.init(...): a constructor
				r.Kind, r.Name, r.Qualifier = RefNew, r.QualifierType, ""
				if r.Name == "" {
					return
				}
			}
		}
		if r.Kind == RefCall && r.QualifierType == "" && r.QualifierCall == "" && IsUpper(r.Name) && IsUpper(r.Qualifier) {
			// Outer.Inner(...): a nested type's construction
			r.Kind = RefNew
		}
		if r.Kind == RefCall && r.Qualifier == "" && r.QualifierCall == "" {
			r.Qualifier = "?"
		}
		x.Ref(r, last)
	}
}

// swGuard records guard cond else { return/throw }.
func swGuard(x *Extractor, n int32, c swCtx) {
	t := x.Tree
	var conds []string
	action := ""
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "statements":
			if first := t.FirstNamedChild(ch); first >= 0 {
				action = swExit(x, first)
			}
		case "else", "comment", "multiline_comment":
		default:
			if t.FieldName(ch) == "condition" || action == "" {
				conds = append(conds, t.Text(ch))
			}
		}
	}
	if action != "" && len(conds) > 0 {
		x.Guard(c.sym, "!("+strings.Join(conds, ", ")+")", action, n)
	}
}

// swIfGuard records if cond { return/throw } at the top of a body.
func swIfGuard(x *Extractor, n int32, c swCtx) {
	t := x.Tree
	cond := t.Field(n, "condition")
	if cond < 0 {
		return
	}
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) == "statements" {
			if first := t.FirstNamedChild(ch); first >= 0 && t.NamedChildCount(ch) == 1 {
				if a := swExit(x, first); a != "" {
					x.Guard(c.sym, t.Text(cond), a, n)
				}
			}
			return
		}
	}
}

// swExit says how a statement leaves: "return", "throw", or "".
func swExit(x *Extractor, n int32) string {
	t := x.Tree
	if t.Kind(n) != "control_transfer_statement" {
		if t.Kind(n) == "call_expression" {
			if f := t.FirstNamedChild(n); f >= 0 && (t.Text(f) == "fatalError" || t.Text(f) == "preconditionFailure") {
				return "panic"
			}
		}
		return ""
	}
	if t.ChildOfKind(n, "throw_keyword") >= 0 {
		return "throw"
	}
	txt := strings.TrimSpace(t.Text(n))
	if strings.HasPrefix(txt, "return") {
		return "return"
	}
	return ""
}
