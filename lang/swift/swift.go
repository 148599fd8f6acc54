// Package swift is sdl's room for Swift: types, protocols, functions,
// properties, bases and imports come from tags.scm; this file holds what
// a query cannot say (signatures, visibility, an extension's type, which
// base is a superclass, and a walk that types locals and receivers for
// the calls it records, with guards, throws and side effects),
// resolution through the package resolver it shares with Kotlin and
// Scala, and the skeleton rules of its braced bodies.
package swift

import (
	"bytes"
	"embed"
	"path"
	"slices"
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
	lang.Register(lang.Spec{
		Name:       "swift",
		Extensions: []string{".swift"},
		Grammar:    grammar.Swift(),
		Query:      tags, QueryFile: "lang/swift/tags.scm",
		QueryRoots: []string{"class_declaration", "protocol_declaration", "function_declaration",
			"protocol_function_declaration", "init_declaration", "deinit_declaration", "subscript_declaration",
			"property_declaration", "protocol_property_declaration", "typealias_declaration",
			"associatedtype_declaration", "enum_entry", "import_declaration"},
		Comments:  []string{"comment", "multiline_comment"},
		Strings:   []string{"line_string_literal", "multi_line_string_literal", "raw_string_literal"},
		Idents:    []string{"simple_identifier", "type_identifier"},
		Data:      data,
		Builtins:  lang.WordFile(data, "builtins.txt"),
		QueryRoot: property,
		Defs:      defs,
		DefName:   defName,
		Symbol:    symbol,
		Ref:       baseRef,
		Import:    importDecl,
		Module:    func(p string, _ *lang.Tree, _ string) string { return moduleOf(p) },
		Finish:    finish,
		Resolver:  resolver,
		SkelRules: skeleton,
		Fixup:     fixup,
		NoError:   directiveError,
	})
}

// knownProtocols are protocols classes commonly list first.
var knownProtocols = lang.WordFile(data, "types.txt")

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

// types are the node kinds of types.
var types = lang.KindSet("user_type", "optional_type", "array_type", "dictionary_type", "tuple_type", "function_type",
	"opaque_type", "existential_type", "metatype", "protocol_composition_type", "type_parameter_pack",
	"type_pack_expansion", "suppressed_constraint")

// property says whether the query runs from property n: one in a
// function's code, in another property's accessors or initializer, or in
// a closure in a type, is a local, no symbol; that of a type, an
// extension or the file is one.
func property(t *lang.Tree, n int32) bool {
	if t.Kind(n) != "property_declaration" {
		return true
	}
	lambda := false
	for p := t.Parent(n); p >= 0; p = t.Parent(p) {
		switch t.Kind(p) {
		case "function_declaration", "init_declaration", "deinit_declaration", "subscript_declaration",
			"property_declaration":
			return false
		case "lambda_literal":
			lambda = true
		case "class_declaration", "protocol_declaration":
			return !lambda
		}
	}
	return true
}

// defs finds the names and bodies the query leaves to it (see tags.scm)
// and makes each name of "case a, b" a constant spanning the case; an
// extension is no definition.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	var out []lang.Def
	for _, d := range ds {
		n := d.Node
		switch t.Kind(n) {
		case "class_declaration", "protocol_declaration":
			if declKind(t, n) == "extension" {
				continue
			}
			d.Name, d.Body = t.Field(n, "name"), t.Field(n, "body")
		case "property_declaration", "protocol_property_declaration":
			d.Name, _ = propName(t, n)
			d.Body = t.ChildOfKind(n, "computed_property")
		case "typealias_declaration", "associatedtype_declaration":
			d.Name = t.ChildOfKind(n, "type_identifier")
		case "enum_entry":
			for ch := range t.NamedChildren(n) {
				if t.FieldName(ch) == "name" {
					d.Name = ch
					out = append(out, d)
				}
			}
			continue
		case "function_declaration", "protocol_function_declaration":
			// an identifier or a custom operator; one named by punctuation
			// ("+") has none, and makes no symbol
			for ch := range t.NamedChildren(n) {
				if k := t.Kind(ch); k == "simple_identifier" || strings.HasSuffix(k, "operator") {
					d.Name = ch
					break
				}
			}
			fallthrough
		default:
			d.Body = body(t, n)
		}
		out = append(out, d)
	}
	return out
}

// defName names init, deinit and subscript, which have no name node.
func defName(t *lang.Tree, d lang.Def) string {
	switch k := t.Kind(d.Node); k {
	case "init_declaration", "deinit_declaration", "subscript_declaration":
		return strings.TrimSuffix(k, "_declaration")
	}
	return ""
}

// owner is the type declaration (an extension's too) whose body declares
// n, -1 for none.
func owner(t *lang.Tree, n int32) int32 {
	switch t.Kind(t.Parent(n)) {
	case "class_body", "enum_class_body", "protocol_body":
		return t.Parent(t.Parent(n))
	}
	return -1
}

// declKind is the keyword a type declaration starts with: class, struct,
// enum, actor, extension or protocol.
func declKind(t *lang.Tree, n int32) string {
	if k := t.Field(n, "declaration_kind"); k >= 0 {
		return t.Text(k)
	}
	return ""
}

// symbol completes a definition of the query: visibility, modifiers,
// signature, and the type an extension's member belongs to.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	n := d.Node
	own := owner(t, n)
	mods, test := visibility(t, s, n, own)
	if own >= 0 && declKind(t, own) == "extension" {
		// extension T: its members are T's
		s.Container = lang.StripType(t.FieldText(own, "name"))
		if s.Kind == lang.KindFunction {
			s.Kind = lang.KindMethod
		}
	}
	switch t.Kind(n) {
	case "class_declaration", "protocol_declaration":
		mods = classSymbol(t, n, s, mods)
	case "function_declaration", "protocol_function_declaration", "init_declaration", "deinit_declaration",
		"subscript_declaration":
		for ch := range t.Children(n) {
			switch t.Kind(ch) {
			case "async":
				mods = append(mods, "async")
			case "throws": // the grammar's throws node also holds rethrows
				w := "throws"
				if strings.HasPrefix(t.Text(ch), "rethrows") {
					w = "rethrows"
				}
				mods = append(mods, w)
			}
		}
		if own >= 0 && t.Kind(own) == "protocol_declaration" {
			mods = append(mods, "abstract")
		}
		s.Signature.Params = paramList(t, n)
		for ch := range t.NamedChildren(n) {
			switch k := t.Kind(ch); {
			case k == "type_parameters":
				s.Signature.Generics = t.ItemTexts(ch)
			case types[k] && s.Signature.Returns == "":
				s.Signature.Returns = lang.OneLine(t.Text(ch))
			}
		}
		s.IsTest = test
	case "property_declaration", "protocol_property_declaration":
		if vb := t.ChildOfKind(n, "value_binding_pattern"); vb >= 0 {
			mods = append(mods, lang.OneLine(t.Text(vb)))
		}
		_, s.Signature.Returns = propName(t, n)
		s.Signature.Text = lang.Shorten(s.Signature.Text, lang.MaxSigText)
	case "enum_entry":
		// a case is as visible as its enum, and of its type
		if own >= 0 {
			visibility(t, s, own, -1)
			s.Signature.Returns = t.FieldText(own, "name")
		}
		mods = nil
		s.Signature.Text = lang.OneLine(t.Text(n))
	case "typealias_declaration", "associatedtype_declaration":
		s.Signature.Text = lang.OneLine(t.Text(n))
	}
	s.Signature.Modifiers = mods
	if kept, start := sigStart(t, n); start > t.Nodes[n].StartByte && s.Signature.Text != "" {
		switch t.Kind(n) {
		case "enum_entry", "typealias_declaration", "associatedtype_declaration":
		default:
			x := lang.Extractor{Tree: t}
			s.Signature.Text = strings.TrimSpace(kept + " " + x.HeaderTextFrom(n, start, d.Body))
		}
	}
	if s.Doc == "" {
		s.Doc = docAcrossDirectives(t, n)
	}
	return true
}

// sigStart is where the signature of declaration n starts, after the
// attributes that lead it, and the text of those it keeps: @available(...)
// is left out (its modifiers name it; deprecated overloads carry four that
// crowded out the signature), the rest, @MainActor, @Reducer or
// @Dependency(\.uuid), says what the declaration is.
func sigStart(t *lang.Tree, n int32) (kept string, start uint32) {
	start = t.Nodes[n].StartByte
	m := t.ChildOfKind(n, "modifiers")
	if m < 0 || t.Nodes[m].StartByte != start {
		return "", start
	}
	var rest []string
	for ch := range t.Children(m) {
		if t.Kind(ch) != "attribute" && !t.IsComment(ch) {
			break
		}
		if w := lang.OneLine(t.Text(ch)); t.Kind(ch) == "attribute" && !strings.HasPrefix(w, "@available") {
			rest = append(rest, w)
		}
		start = t.Nodes[ch].EndByte
	}
	// and the directive lines the fixup blanked among them: #endif
	for end := t.Nodes[n].EndByte; ; {
		for start < end && isSpace(t.Src[start]) {
			start++
		}
		line := t.Src[start:end]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		if directive(bytes.TrimSpace(line)) == "" {
			break
		}
		start += uint32(len(line))
	}
	return strings.Join(rest, " "), start
}

// docAcrossDirectives is the doc comment of declaration n when directive
// lines stand between them, /// doc, #if X, @available(...), #endif, the
// lines the fixup blanks; "" when none does.
func docAcrossDirectives(t *lang.Tree, n int32) string {
	c := t.PrevSibling(n)
	if c < 0 || !t.IsComment(c) {
		return ""
	}
	lines := bytes.Split(t.Src[t.Nodes[c].EndByte:t.Nodes[n].StartByte], []byte("\n"))
	if len(lines) < 3 {
		return "" // adjacent: the engine's, or none
	}
	for _, l := range lines[1 : len(lines)-1] {
		if l = bytes.TrimSpace(l); directive(l) == "" {
			return ""
		}
	}
	var parts []string
	line := t.Nodes[c].StartRow
	for ; c >= 0 && t.IsComment(c); c = t.PrevSibling(c) {
		if len(parts) > 0 && t.Nodes[c].EndRow+1 < line {
			break
		}
		parts = append(parts, t.Text(c))
		line = t.Nodes[c].StartRow
	}
	slices.Reverse(parts)
	return lang.CleanComment(strings.Join(parts, "\n"))
}

// classSymbol reads a type's kind, type parameters, bases and fields.
func classSymbol(t *lang.Tree, n int32, s *lang.Symbol, mods []string) []string {
	if k := declKind(t, n); k != "class" && k != "protocol" {
		mods = append(mods, k)
	}
	s.Signature.Generics = t.ItemTexts(t.ChildOfKind(n, "type_parameters"))
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) == "inheritance_specifier" {
			if ty := t.FirstNamedChild(ch); ty >= 0 {
				s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(ty)))
			}
		}
	}
	body := t.Field(n, "body")
	if body < 0 {
		return mods
	}
	for m := range t.NamedChildren(body) {
		switch t.Kind(m) {
		case "property_declaration", "protocol_property_declaration":
			if id, typ := propName(t, m); id >= 0 {
				s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(id), Type: typ})
			}
		case "enum_entry":
			for ch := range t.NamedChildren(m) {
				if t.FieldName(ch) == "name" {
					s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: t.Text(ch), Type: s.Name})
				}
			}
		}
	}
	return mods
}

// visibility reads modifiers: Swift's default is internal (the module);
// public and open are seen by importers. Members of a protocol, own,
// take the protocol's visibility.
func visibility(t *lang.Tree, s *lang.Symbol, n, own int32) (mods []string, test bool) {
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
				test = test || name == "Test"
			default:
				mods = append(mods, lang.OneLine(t.Text(ch)))
			}
		}
	}
	if vis == "" && own >= 0 && t.Kind(own) == "protocol_declaration" {
		visibility(t, s, own, -1)
		return mods, test
	}
	s.Exported = false
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

func importDecl(t *lang.Tree, n int32) []lang.Import {
	id := t.ChildOfKind(n, "identifier")
	if id < 0 {
		return nil
	}
	var parts []string
	for ch := range t.NamedChildren(id) {
		parts = append(parts, t.Text(ch))
	}
	if len(parts) == 0 {
		return nil
	}
	imp := lang.Import{Source: parts[0]}
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
	return []lang.Import{imp}
}

// baseRef reads a base type as written into its name and qualifier. A
// class's (or actor's) first base is its superclass unless it is a
// protocol the file declares or a well-known one.
func baseRef(t *lang.Tree, m *lang.Match, r *lang.Ref) bool {
	first := lang.StripType(r.Name)
	r.Name, r.Qualifier = lang.SplitType(first)
	spec := t.Parent(m.Node("name"))
	decl := t.Parent(spec)
	if k := declKind(t, decl); r.Kind == lang.RefImplements && (k == "class" || k == "actor") &&
		t.ChildOfKind(decl, "inheritance_specifier") == spec && !knownProtocols.Has(first) {
		r.Kind = lang.RefExtends
		for n := range t.NamedChildren(0) {
			if t.Kind(n) == "protocol_declaration" && t.FieldText(n, "name") == first {
				r.Kind = lang.RefImplements
			}
		}
	}
	return r.Name != ""
}

// paramList reads the parameter children of a declaration.
func paramList(t *lang.Tree, n int32) []lang.Param {
	var out []lang.Param
	for p := range t.NamedChildren(n) {
		if t.Kind(p) != "parameter" {
			if t.FieldName(p) == "default_value" && len(out) > 0 {
				out[len(out)-1].Default, out[len(out)-1].Optional = lang.OneLine(t.Text(p)), true
			}
			continue
		}
		var name, typ string
		for ch := range t.NamedChildren(p) {
			switch k := t.Kind(ch); {
			case k == "simple_identifier" && t.FieldName(ch) != "external_name":
				name = t.Text(ch)
			case types[k] && typ == "":
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
	}
	return out
}

// propName returns a property's name node and its declared (or
// constructed) type.
func propName(t *lang.Tree, n int32) (int32, string) {
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

// state is where the walk of the code is. Scopes are Kotlin's: names to
// types or to the calls they were assigned from.
type state struct {
	sym   int // the symbol code belongs to
	cls   int // the innermost type, -1 outside
	top   bool
	scope *lang.Scope
}

// finish names the module symbol and walks the file for what its
// symbols call and construct, guard and throw.
func finish(x *lang.Extractor) {
	if x.Facts.Module != "" {
		x.Facts.Symbols[0].Name = x.Facts.Module
	}
	c := state{cls: -1, scope: &lang.Scope{}}
	for n := range x.Tree.NamedChildren(0) {
		node(x, n, c)
	}
}

func node(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	switch t.Kind(n) {
	case "comment", "multiline_comment", "modifiers", "attribute", "import_declaration", "typealias_declaration",
		"associatedtype_declaration":
		return
	case "class_declaration", "protocol_declaration":
		class(x, n, c)
		return
	case "function_declaration", "protocol_function_declaration", "init_declaration", "deinit_declaration",
		"subscript_declaration":
		function(x, n, c)
		return
	case "property_declaration", "protocol_property_declaration":
		propertyCode(x, n, c)
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
		inner.top = false
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

// class walks a type's body (not its enum cases) with its fields and
// self in scope; an extension's, as the file's code with self its type.
func class(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	name, body := t.Field(n, "name"), t.Field(n, "body")
	if name < 0 || body < 0 {
		return
	}
	scope := &lang.Scope{Parent: c.scope}
	inner := state{cls: -1, scope: scope}
	if declKind(t, n) == "extension" {
		scope.Set("self", lang.StripType(t.Text(name)), "", "")
	} else {
		sym, _ := x.SymbolOf(n, name, c.sym)
		for _, f := range x.Facts.Symbols[sym].Signature.Fields {
			scope.Set(f.Name, lang.StripType(f.Type), "", "")
		}
		scope.Set("self", x.Facts.Symbols[sym].Name, "", "")
		inner.sym, inner.cls = sym, sym
	}
	for m := range t.NamedChildren(body) {
		if t.Kind(m) != "enum_entry" {
			node(x, m, inner)
		}
	}
}

func function(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	sym, ok := x.SymbolOf(n, -1, c.sym)
	if !ok {
		return // an operator the query does not name
	}
	scope := &lang.Scope{Parent: c.scope}
	for _, p := range paramList(t, n) {
		scope.Set(p.Name, lang.StripType(p.Type), "", "")
	}
	if body := body(t, n); body >= 0 {
		inner := state{sym: sym, cls: c.cls, scope: scope, top: true}
		for ch := range t.NamedChildren(body) {
			node(x, ch, inner)
		}
	}
}

// body is a function's body or a subscript's accessors, -1 for none.
func body(t *lang.Tree, n int32) int32 {
	if b := t.Field(n, "body"); b >= 0 {
		return b
	}
	if b := t.ChildOfKind(n, "function_body"); b >= 0 {
		return b
	}
	return t.ChildOfKind(n, "computed_property")
}

// propertyCode walks a property's value and accessors as code of its symbol;
// a local's type, or the call it holds the result of, is in scope after
// it.
func propertyCode(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	id, typ := propName(t, n)
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
	if v := unwrapTry(t, value); v >= 0 && t.Kind(v) == "call_expression" && typ == "" {
		if f := callee(t, v); f >= 0 {
			call = chains.Chain(x.Tree, f)
		}
	}
	sym, ok := x.SymbolOf(n, id, c.sym)
	if id >= 0 && !ok {
		c.scope.Set(t.Text(id), lang.StripType(typ), call, "")
		c.top = false
		if value >= 0 {
			node(x, value, c)
		}
		return
	}
	if id >= 0 && owner(t, n) < 0 {
		c.scope.Set(t.Text(id), lang.StripType(typ), call, "")
	}
	inner := c
	inner.sym, inner.top = sym, false
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "pattern", "type_annotation", "modifiers", "value_binding_pattern":
		default:
			node(x, ch, inner)
		}
	}
}

// callee is what call expression n calls, through trailing closures: the
// grammar reads TestStore(initialState: s) { Feature() } as a call of the
// call TestStore(initialState: s), and the local it initialises is a
// TestStore all the same.
func callee(t *lang.Tree, n int32) int32 {
	f := t.FirstNamedChild(n)
	for f >= 0 {
		// await TestStore(...) { ... } nests the await inside the outer call
		if in := unwrapTry(t, f); in != f && t.Kind(in) == "call_expression" {
			f = in
		}
		if t.Kind(f) != "call_expression" {
			break
		}
		cs := t.ChildOfKind(n, "call_suffix")
		if cs < 0 || t.ChildOfKind(cs, "value_arguments") >= 0 {
			break
		}
		n, f = f, t.FirstNamedChild(f)
	}
	return f
}

// unwrapTry is the expression that try and await, try await f(), wrap:
// a local's value is what the call returns all the same.
func unwrapTry(t *lang.Tree, n int32) int32 {
	for n >= 0 && (t.Kind(n) == "try_expression" || t.Kind(n) == "await_expression") {
		n = t.Field(n, "expr")
	}
	return n
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

// resolver is the package resolver Swift shares with Kotlin and Scala:
// imports bind whole modules.
var resolver = lang.NewPackageResolver("swift", []string{".swift"}, lang.PackageRules{Self: "self",
	StripType: lang.StripType, Std: lang.WordList(data, "std.txt"), Common: lang.WordList(data, "common_methods.txt"),
	Extensions: true, Markers: lang.WordList(data, "markers.txt")})
