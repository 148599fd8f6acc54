// Package swift is sdl's room for Swift: a walker over the syntax tree
// (types, extensions, protocols, functions, properties, imports, guards
// and side effects), resolution through the package resolver it shares
// with Kotlin and Scala, and the skeleton rules of its braced bodies.
package swift

import (
	"embed"
	"path"
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
		Name:          "swift",
		Extensions:    []string{".swift"},
		Grammar:       grammar.Swift(),
		Comments:      []string{"comment", "multiline_comment"},
		Strings:       []string{"line_string_literal", "multi_line_string_literal", "raw_string_literal"},
		Idents:        []string{"simple_identifier", "type_identifier"},
		Data:          data,
		Builtins:      builtins,
		Extract:       extract,
		Resolve:       resolver.Resolve,
		ResolveImport: resolver.ResolveImport,
		Skeleton:      skeleton,
		Fixup:         emptyAttributeArgs,
	})
}

// state is where the Swift walker is. Scopes are Kotlin's: names to types
// or to the calls they were assigned from.
type state struct {
	sym     int // the symbol code belongs to
	members int // the type whose body is walked, -1 in code
	cls     int // the innermost type, -1 outside
	owner   string
	proto   bool // in a protocol body: members are requirements
	protos  map[string]bool
	top     bool // a statement of a function body itself
	scope   *lang.Scope
}

func extract(x *lang.Extractor) {
	x.Facts.Module = moduleOf(x.Path)
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
	c := state{members: -1, cls: -1, scope: &lang.Scope{}, protos: protos}
	for n := range x.Tree.NamedChildren(0) {
		node(x, n, c)
	}
}

// knownProtocols are protocols of the standard library and Foundation
// that classes commonly list first.
var knownProtocols = map[string]bool{
	"Codable": true, "Encodable": true, "Decodable": true, "Equatable": true, "Hashable": true, "Comparable": true,
	"Error": true, "CustomStringConvertible": true, "CustomDebugStringConvertible": true, "Sendable": true,
	"Identifiable": true, "ObservableObject": true, "CaseIterable": true, "RawRepresentable": true, "Sequence": true,
	"Collection": true, "IteratorProtocol": true, "LocalizedError": true, "View": true, "App": true,
	"URLSessionDelegate": true, "URLSessionTaskDelegate": true, "URLSessionDataDelegate": true,
}

// moduleOf is the module a file belongs to: Swift Package Manager's
// Sources/<Target>/ and Tests/<Target>/, else the top directory (an Xcode
// target's folder), else "" for files at the root.
func moduleOf(p string) string {
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

// isType reports whether a node kind is a type.
func isType(k string) bool {
	switch k {
	case "user_type", "optional_type", "array_type", "dictionary_type", "tuple_type", "function_type",
		"opaque_type", "existential_type", "metatype", "protocol_composition_type",
		"type_parameter_pack", "type_pack_expansion", "suppressed_constraint":
		return true
	}
	return false
}

func node(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	switch t.Kind(n) {
	case "comment", "multiline_comment", "modifiers", "attribute":
		return
	case "import_declaration":
		importDecl(x, n)
		return
	case "class_declaration", "protocol_declaration":
		class(x, n, c)
		return
	case "function_declaration", "protocol_function_declaration", "init_declaration", "deinit_declaration",
		"subscript_declaration":
		function(x, n, c)
		return
	case "property_declaration", "protocol_property_declaration":
		property(x, n, c)
		return
	case "typealias_declaration", "associatedtype_declaration":
		if name := t.ChildOfKind(n, "type_identifier"); name >= 0 {
			s := lang.Symbol{Kind: lang.KindType, Name: t.Text(name), Parent: c.sym}
			if c.members >= 0 {
				s.Parent = c.members
			}
			visibility(x, &s, n, c)
			s.Signature.Text = lang.OneLine(t.Text(n))
			s.Doc = x.DocBefore(n)
			x.AddSymbol(s, n, name, -1)
		}
		return
	case "call_expression":
		call(x, n, c)
	case "guard_statement":
		if c.top {
			guard(x, n, c)
		}
	case "if_statement":
		if c.top {
			ifGuard(x, n, c)
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
		inner.scope = &lang.Scope{Parent: c.scope}
		inner.members, inner.top = -1, false
		for ch := range t.NamedChildren(n) {
			node(x, ch, inner)
		}
		return
	case "statements":
		for ch := range t.NamedChildren(n) {
			node(x, ch, c)
		}
		return
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		node(x, ch, c)
	}
}

// visibility reads modifiers: Swift's default is internal (the module);
// public and open are seen by importers. Members of a protocol take the
// protocol's visibility.
func visibility(x *lang.Extractor, s *lang.Symbol, n int32, c state) (mods []string, test bool) {
	t := x.Tree
	vis := ""
	if m := t.ChildOfKind(n, "modifiers"); m >= 0 {
		for ch := range t.NamedChildren(m) {
			switch t.Kind(ch) {
			case "visibility_modifier":
				if w := lang.OneLine(t.Text(ch)); !strings.Contains(w, "(") {
					vis = w
				} else if vis == "" {
					mods = append(mods, w) // private(set): the getter keeps the default
				}
			case "attribute":
				name := strings.TrimPrefix(lang.OneLine(t.Text(ch)), "@")
				if i := strings.IndexAny(name, "(<"); i >= 0 {
					name = name[:i]
				}
				mods = append(mods, "@"+name)
				if name == "Test" {
					test = true
				}
			default:
				mods = append(mods, lang.OneLine(t.Text(ch)))
			}
		}
	}
	if vis == "" && c.proto && c.members >= 0 {
		s.Exported, s.Visibility = x.Facts.Symbols[c.members].Exported, x.Facts.Symbols[c.members].Visibility
		return mods, test
	}
	switch vis {
	case "public", "open":
		s.Exported, s.Visibility = true, lang.VisPublic
		if vis == "open" {
			mods = append(mods, "open")
		}
	case "private", "fileprivate":
		s.Visibility = lang.VisPrivate
	default:
		s.Visibility = lang.VisInternal
	}
	return mods, test
}

func importDecl(x *lang.Extractor, n int32) {
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
	imp := lang.Import{Source: parts[0], Line: t.StartLine(n), Symbol: 0}
	kinded := false
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "class", "struct", "enum", "protocol", "func", "var", "let", "typealias":
			kinded = !t.Named(ch)
		}
	}
	if kinded && len(parts) > 1 {
		// import class UIKit.UIView: one declaration
		imp.Names = []lang.ImportName{{Name: parts[len(parts)-1]}}
	} else {
		imp.Source = strings.Join(parts, ".")
	}
	x.Facts.Imports = append(x.Facts.Imports, imp)
}

func class(x *lang.Extractor, n int32, c state) {
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
		owner := lang.StripType(t.Text(name))
		for _, b := range bases {
			typeRef(x, b, 0, lang.RefImplements)
		}
		inner := state{sym: 0, members: 0, cls: -1, owner: owner, scope: &lang.Scope{Parent: c.scope}, protos: c.protos}
		inner.scope.Set("self", owner, "", "")
		if body >= 0 {
			for m := range t.NamedChildren(body) {
				node(x, m, inner)
			}
		}
		return
	}
	s := lang.Symbol{Kind: lang.KindClass, Name: t.Text(name), Parent: parent}
	if declKind == "protocol" {
		s.Kind = lang.KindInterface
	}
	mods, _ := visibility(x, &s, n, c)
	if declKind != "class" && declKind != "protocol" {
		mods = append(mods, declKind)
	}
	s.Signature.Modifiers = mods
	if tp := t.ChildOfKind(n, "type_parameters"); tp >= 0 {
		for p := range t.NamedChildren(tp) {
			s.Signature.Generics = append(s.Signature.Generics, lang.OneLine(t.Text(p)))
		}
	}
	for _, b := range bases {
		s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(b)))
	}
	if body >= 0 {
		for m := range t.NamedChildren(body) {
			switch t.Kind(m) {
			case "property_declaration", "protocol_property_declaration":
				if id, typ := propName(x, m); id >= 0 {
					s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(id), Type: typ})
				}
			case "enum_entry":
				for ch := range t.NamedChildren(m) {
					if t.Kind(ch) == "simple_identifier" {
						s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(ch), Type: s.Name})
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
		kind := lang.RefImplements
		first := lang.StripType(t.Text(b))
		if i == 0 && (declKind == "class" || declKind == "actor") && !c.protos[first] && !knownProtocols[first] ||
			declKind == "protocol" {
			kind = lang.RefExtends
		}
		typeRef(x, b, sym, kind)
	}
	scope := &lang.Scope{Parent: c.scope}
	for _, f := range x.Facts.Symbols[sym].Signature.Fields {
		scope.Set(f.Name, lang.StripType(f.Type), "", "")
	}
	scope.Set("self", x.Facts.Symbols[sym].Name, "", "")
	inner := state{sym: sym, members: sym, cls: sym, proto: declKind == "protocol", scope: scope, protos: c.protos}
	if body >= 0 {
		for m := range t.NamedChildren(body) {
			if t.Kind(m) == "enum_entry" {
				for ch := range t.NamedChildren(m) {
					if t.Kind(ch) == "simple_identifier" {
						es := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(ch), Parent: sym, Exported: s.Exported,
							Visibility: x.Facts.Symbols[sym].Visibility}
						es.Signature.Returns = s.Name
						es.Signature.Text = lang.OneLine(t.Text(m))
						x.AddSymbol(es, m, ch, -1)
					}
				}
				continue
			}
			node(x, m, inner)
		}
	}
}

// typeRef records a reference of kind to the type at node ty.
func typeRef(x *lang.Extractor, ty int32, sym int, kind string) {
	name, qual := lang.SplitType(lang.StripType(x.Tree.Text(ty)))
	if name == "" {
		return
	}
	x.Ref(lang.Ref{Kind: kind, Name: name, Qualifier: qual, Symbol: sym}, ty)
}

// paramList reads the parameter children of a declaration, declaring them
// in scope.
func paramList(x *lang.Extractor, n int32, scope *lang.Scope) []lang.Param {
	t := x.Tree
	var out []lang.Param
	for p := range t.NamedChildren(n) {
		if t.Kind(p) != "parameter" {
			if t.FieldName(p) == "default_value" {
				if len(out) > 0 {
					out[len(out)-1].Default = lang.OneLine(t.Text(p))
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
			case isType(k) && typ == "":
				typ = lang.OneLine(t.Text(ch))
			}
		}
		if name == "" {
			continue
		}
		param := lang.Param{Name: name, Type: typ, Variadic: strings.HasSuffix(strings.TrimSpace(t.Text(p)), "...")}
		if param.Variadic {
			param.Type += "..."
		}
		out = append(out, param)
		if scope != nil {
			scope.Set(name, lang.StripType(typ), "", "")
		}
	}
	return out
}

func function(x *lang.Extractor, n int32, c state) {
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
	s := lang.Symbol{Kind: lang.KindFunction, Name: nameText, Parent: c.sym}
	if c.members >= 0 {
		s.Parent, s.Kind = c.members, lang.KindMethod
		if c.owner != "" {
			s.Container = c.owner
		}
	}
	if kind == "init_declaration" {
		s.Kind = lang.KindConstructor
	}
	mods, test := visibility(x, &s, n, c)
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
	scope := &lang.Scope{Parent: c.scope}
	s.Signature.Params = paramList(x, n, scope)
	for ch := range t.NamedChildren(n) {
		switch k := t.Kind(ch); {
		case k == "type_parameters":
			for p := range t.NamedChildren(ch) {
				s.Signature.Generics = append(s.Signature.Generics, lang.OneLine(t.Text(p)))
			}
		case isType(k) && s.Signature.Returns == "":
			s.Signature.Returns = lang.OneLine(t.Text(ch))
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
		inner := state{sym: sym, members: -1, cls: c.cls, owner: c.owner, scope: scope, top: true, protos: c.protos}
		for ch := range t.NamedChildren(body) {
			node(x, ch, inner)
		}
	}
}

// propName returns a property's name node and its declared (or
// constructed) type.
func propName(x *lang.Extractor, n int32) (int32, string) {
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
				typ = lang.OneLine(t.Text(ty))
			}
		case "call_expression":
			if f := t.FirstNamedChild(ch); f >= 0 && typ == "" && t.Kind(f) == "simple_identifier" && lang.IsUpper(t.Text(f)) {
				typ = t.Text(f)
			}
		}
	}
	return id, typ
}

func property(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	id, typ := propName(x, n)
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
			call = chains.Chain(x.Tree, f)
		}
	}
	local := c.members < 0 && c.sym != 0
	if id >= 0 && local {
		c.scope.Set(t.Text(id), lang.StripType(typ), call, "")
		c.top = false
		if value >= 0 {
			node(x, value, c)
		}
		return
	}
	sym := c.sym
	if id >= 0 {
		s := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(id), Parent: c.sym}
		if c.members >= 0 {
			s.Parent = c.members
			if c.owner != "" {
				s.Container = c.owner
			}
		}
		mods, _ := visibility(x, &s, n, c)
		if vb := t.ChildOfKind(n, "value_binding_pattern"); vb >= 0 {
			mods = append(mods, lang.OneLine(t.Text(vb)))
		}
		s.Signature.Modifiers = mods
		s.Signature.Returns = typ
		s.Signature.Text = lang.Shorten(lang.OneLine(x.HeaderText(n, t.ChildOfKind(n, "computed_property"))), lang.MaxSigText)
		s.Doc = x.DocBefore(n)
		sym = x.AddSymbol(s, n, id, value)
		if c.members < 0 {
			c.scope.Set(t.Text(id), lang.StripType(typ), call, "")
		}
	}
	inner := c
	inner.sym, inner.members, inner.top = sym, -1, false
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "pattern", "type_annotation", "modifiers", "value_binding_pattern":
		default:
			node(x, ch, inner)
		}
	}
}

// chains reads navigation chains of plain names ("a.b.c", "self.repo").
var chains = &lang.ChainKinds{Ident: "simple_identifier", SelfKind: "self_expression", SelfWord: "self", SuperKind: "super_expression",
	Nav: "navigation_expression", NavSuffix: "navigation_suffix", Call: "call_expression"}

func call(x *lang.Extractor, n int32, c state) {
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
		kind := lang.RefCall
		if lang.IsUpper(name) {
			kind = lang.RefNew
		}
		// items[0] is a subscript, not a call
		if cs := t.ChildOfKind(n, "call_suffix"); cs >= 0 && strings.HasPrefix(t.Text(cs), "[") {
			return
		}
		x.Ref(lang.Ref{Kind: kind, Name: name, Symbol: c.sym}, f)
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
		r := lang.Ref{Kind: lang.RefCall, Name: t.Text(last), Symbol: c.sym}
		if target >= 0 {
			r.Qualifier, r.QualifierCall = chains.Receiver(t, target)
		}
		if r.Qualifier != "" && r.QualifierCall == "" {
			super := ""
			if c.cls >= 0 && len(x.Facts.Symbols[c.cls].Signature.Bases) > 0 {
				super = lang.StripType(x.Facts.Symbols[c.cls].Signature.Bases[0])
			}
			head := chains.TypeHead(&r, c.scope, "", super)
			if r.Name == "init" && (head == "self" || head == "super") && !strings.Contains(r.Qualifier, ".") {
				// self.init(...) and super.init(...): a constructor
				r.Kind, r.Name, r.Qualifier = lang.RefNew, r.QualifierType, ""
				if r.Name == "" {
					return
				}
			}
		}
		lang.SettleCall(&r)
		x.Ref(r, last)
	}
}

// guard records guard cond else { return/throw }.
func guard(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	var conds []string
	action := ""
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "statements":
			if first := t.FirstNamedChild(ch); first >= 0 {
				action = exit(x, first)
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

// ifGuard records if cond { return/throw } at the top of a body.
func ifGuard(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	cond := t.Field(n, "condition")
	if cond < 0 {
		return
	}
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) == "statements" {
			if first := t.FirstNamedChild(ch); first >= 0 && t.NamedChildCount(ch) == 1 {
				if a := exit(x, first); a != "" {
					x.Guard(c.sym, t.Text(cond), a, n)
				}
			}
			return
		}
	}
}

// exit says how a statement leaves: "return", "throw", or "".
func exit(x *lang.Extractor, n int32) string {
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
