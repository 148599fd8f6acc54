// Package javascript is sdl's room for JavaScript, TypeScript and TSX,
// which share one walker (the TypeScript grammars extend the JavaScript
// one): modules, classes, functions, imports and exports, the types of
// values, guards and side effects; resolution through relative and package
// imports (package.json: javascript.Packages), exports and base types;
// and the skeleton rules of braced bodies. TypeScript's declared types and
// namespaces come from typescript.scm, placed by the walk.
package javascript

import (
	"bytes"
	"embed"
	"path"
	"strings"
	"unsafe"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/grammar"
)

// data holds the family's data files: test-path patterns, side effects
// and word lists, the same for the three languages.
//
//go:embed *.txt
var data embed.FS

//go:embed typescript.scm
var tags string

func init() {
	comments := []string{"comment", "html_comment"}
	strs := []string{"string", "template_string", "regex"}
	idents := []string{"identifier", "property_identifier", "private_property_identifier", "shorthand_property_identifier",
		"shorthand_property_identifier_pattern", "type_identifier", "statement_identifier"}
	lang.RegisterWalker(lang.Walker{
		Name: "javascript", Extensions: []string{".js", ".jsx", ".mjs", ".cjs"}, Grammar: grammar.JavaScript(),
		Comments: comments, Strings: strs, Idents: idents,
		Data: data, Builtins: builtins, Extract: extract,
		Resolve: resolve, ResolveImport: resolveImport,
		Skeleton: skeleton, Project: PackagesReader{},
	})
	// TypeScript's declared types and namespaces come from typescript.scm,
	// which the walk places (see there); JavaScript's grammar has none
	ts := func(name string, ext []string, grammar unsafe.Pointer, fixup func([]byte) []byte) lang.Spec {
		return lang.Spec{
			Name: name, Extensions: ext, Grammar: grammar, Fixup: fixup,
			Query: tags, QueryFile: "lang/javascript/typescript.scm", QueryRoots: []string{"interface_declaration",
				"type_alias_declaration", "enum_declaration", "internal_module", "module"},
			Comments: comments, Strings: strs, Idents: idents,
			Data: data, Builtins: lang.WordList(data, "builtins.txt"),
			Defs:     func(*lang.Tree, []lang.Def) []lang.Def { return nil }, // the walk places them
			Finish:   extract,
			Resolver: lang.Resolvers{Ref: resolve, Import: resolveImport}, SkelRules: skeleton, Project: PackagesReader{},
		}
	}
	lang.Register(ts("typescript", []string{".ts", ".mts", ".cts"}, grammar.TypeScript(), separateCallSignatures))
	lang.Register(ts("tsx", []string{".tsx"}, grammar.TSX(), nil))
}

// scope maps the local names of a function, and the module's, to what
// is known of their values: a declared or constructed type, or the call
// whose result they hold. A type parameter's constraint is a TypeVar; a
// function's scope is Func.
type scope struct{ lang.Scope }

func newScope(outer *scope) *scope {
	s := &scope{}
	if outer != nil {
		s.Parent = &outer.Scope
	}
	return s
}

func newFuncScope(outer *scope) *scope {
	s := newScope(outer)
	s.Func = true
	return s
}

// local reports whether name is a parameter or local variable of an
// enclosing function: calling it calls a value, not a declaration.
func (s *scope) local(name string) bool {
	for sc := &s.Scope; sc != nil; sc = sc.Parent {
		if _, ok := sc.Types[name]; ok && sc.Func {
			return true
		}
	}
	return false
}

// constraint maps a type parameter to its constraint (T extends Entity:
// Entity); other types are returned as they are.
func (s *scope) constraint(typ string) string {
	if c, ok := s.TypeVar(typ); ok {
		return c
	}
	return typ
}

// addTypeParams declares the type parameters of a type_parameters node.
func (s *scope) addTypeParams(t *lang.Tree, list int32) {
	if list < 0 {
		return
	}
	for p := range t.NamedChildren(list) {
		name := t.FieldText(p, "name")
		if name == "" {
			continue
		}
		c := ""
		if cn := t.Field(p, "constraint"); cn >= 0 {
			if ty := t.FirstNamedChild(cn); ty >= 0 {
				c = lang.OneLine(t.Text(ty))
			}
		}
		s.SetTypeVar(name, c)
	}
}

func (s *scope) setCall(name, call string) { s.Scope.SetCall(name, call, "") }

// declare records a local that hides outer ones of the same name and whose
// value says nothing about its type.
func (s *scope) declare(name string) { s.SetType(name, "") }

// lookup returns what the innermost scope declaring name knows of it.
func (s *scope) lookup(name string) (typ, call string) {
	typ, call, _, _ = s.Scope.Lookup(name)
	return typ, call
}

// state is where the walk is: the symbol references belong to, the parent
// of symbols declared here, and what `this` means.
type state struct {
	sym    int
	parent int
	scope  *scope
	this   string // the type `this` stands for, "" when unknown
	super  string // the base class of `this`
	level  bool   // module or namespace level: declarations are symbols
	top    bool   // the statements of a function's own body (guards)
}

// decl says how a declaration was written: under `export`, `export
// default`, with which doc.
type decl struct {
	exported  bool
	isDefault bool
	docNode   int32 // the node whose preceding comment is the doc
	node      int32 // the node that spans the whole declaration
}

type walkState struct {
	x       *lang.Extractor
	t       *lang.Tree
	ts      bool // a TypeScript grammar: types come from annotations, not JSDoc
	ambient bool // in a declaration file or a declare block

	// exportAs is the module's export table for what is not exported
	// where it is declared: Name is the exported name, Type the local
	// name (export { a as b }, export default a, module.exports = {b: a})
	// or, with Default the module it comes from, the imported name
	// (export { a as b } from './x'; "*" for export * [as ns]). The
	// module symbol's Fields keep it for resolution.
	exportAs  []lang.Param
	exportIDs map[string]bool // local names exported by a list or CommonJS
	// defs are the definitions typescript.scm found, by node: the walk places
	// them (their parent, export and doc) where it meets them
	defs map[int32]lang.Def
}

func extract(x *lang.Extractor) {
	w := &walkState{x: x, t: x.Tree, ts: x.Tree.Lang.Name != "javascript"}
	x.Facts.Module = moduleName(x.Path)
	x.Facts.Symbols[0].Name = path.Base(x.Facts.Module)
	w.ambient = strings.Contains(path.Base(x.Path), ".d.")
	w.defs = make(map[int32]lang.Def, len(x.Tree.Matches))
	for i := range x.Tree.Matches {
		m := &x.Tree.Matches[i]
		for _, c := range m.Captures {
			if kind, ok := strings.CutPrefix(c.Name, "definition."); ok {
				w.defs[c.Node] = lang.Def{Node: c.Node, Name: m.Node("name"), Body: m.Node("body"), Kind: kind, Match: m}
			}
		}
	}
	w.moduleDoc()
	c := &state{sym: 0, parent: 0, scope: newScope(nil), level: true}
	w.block(0, c)
	w.finishExports()
}

// moduleName is the repository path without its extension (".d.ts"
// counts as one): what relative imports name.
func moduleName(p string) string {
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(p, ext) {
			return strings.TrimSuffix(p, ext)
		}
	}
	return strings.TrimSuffix(p, path.Ext(p))
}

// moduleDoc takes a file-level JSDoc (@file, @fileoverview, @module,
// @packageDocumentation) as the module's doc.
func (w *walkState) moduleDoc() {
	t := w.t
	for c := range t.Children(0) {
		if !t.IsComment(c) {
			return
		}
		txt := t.Text(c)
		if strings.HasPrefix(txt, "/**") && (strings.Contains(txt, "@file") || strings.Contains(txt, "@module") ||
			strings.Contains(txt, "@packageDocumentation")) {
			doc := lang.CleanComment(txt)
			for _, tag := range []string{"@fileoverview", "@file", "@module", "@packageDocumentation"} {
				doc = strings.Replace(doc, tag, "", 1)
			}
			w.x.Facts.Symbols[0].Doc = strings.TrimSpace(doc)
			return
		}
	}
}

// block walks the statements of a container: the program, a namespace
// body, a recovered ERROR node.
func (w *walkState) block(n int32, c *state) {
	for s := range kids(w.t, n) {
		w.walk(s, c)
	}
}

// walk visits node n: declarations become symbols, calls references.
func (w *walkState) walk(n int32, c *state) {
	t := w.t
	switch t.Kind(n) {
	case "import_statement":
		w.importStmt(n, c)
		return
	case "export_statement":
		w.exportStmt(n, c)
		return
	}
	if w.declaration(n, c, decl{docNode: n}) {
		return
	}
	switch t.Kind(n) {
	case "expression_statement":
		if c.level {
			if e := t.FirstNamedChild(n); e >= 0 {
				switch t.Kind(e) {
				case "assignment_expression":
					if w.assignment(e, n, c) {
						return
					}
				case "internal_module", "module":
					w.namespace(e, c, decl{docNode: n, node: e})
					return
				}
			}
		}
	case "class":
		w.class(n, "", c, decl{node: n})
		return
	case "function_expression", "generator_function", "arrow_function":
		w.closure(n, c)
		return
	case "call_expression":
		w.call(n, c)
	case "new_expression":
		w.newExpr(n, c)
	case "if_statement":
		if c.top {
			w.guard(n, c)
		}
	case "throw_statement":
		w.throw(n, c)
	case "for_in_statement":
		// for (const [k, fn] of xs): k and fn are locals
		if l := t.Field(n, "left"); l >= 0 {
			if t.Kind(l) == "identifier" {
				c.scope.declare(t.Text(l))
			} else if t.Kind(l) != "member_expression" {
				w.declarePattern(l, c.scope)
			}
		}
	case "catch_clause":
		if p := t.Field(n, "parameter"); p >= 0 {
			if t.Kind(p) == "identifier" {
				c.scope.declare(t.Text(p))
			} else {
				w.declarePattern(p, c.scope)
			}
		}
	case "jsx_opening_element", "jsx_self_closing_element":
		w.jsxRef(n, c)
	case "assignment_expression":
		w.localAssign(n, c)
	case "statement_block":
		if c.top {
			// a function's body: its statements are the top level
			w.hoist(n, c.scope)
			for s := range kids(w.t, n) {
				w.walk(s, c)
			}
			return
		}
	case "ERROR":
		for s := range kids(w.t, n) {
			w.walk(s, c)
		}
		return
	}
	if c.top || c.level {
		// below the function body's own statements nothing is a guard,
		// below the module's nothing is a module-level declaration
		inner := *c
		inner.top, inner.level = false, false
		c = &inner
	}
	for s := range kids(w.t, n) {
		w.walk(s, c)
	}
}

// walkDecl walks the declaration of an export or declare statement.
func (w *walkState) walkDecl(n int32, c *state, d decl) {
	if !w.declaration(n, c, d) {
		w.walk(n, c)
	}
}

// declaration makes the symbols of declaration n, documented by
// d.docNode, and reports whether n is one.
func (w *walkState) declaration(n int32, c *state, d decl) bool {
	t := w.t
	d.node = n
	switch t.Kind(n) {
	case "function_declaration", "generator_function_declaration", "function_signature":
		w.function(n, t.Field(n, "name"), "", c, d)
	case "class_declaration", "abstract_class_declaration":
		w.class(n, "", c, d)
	case "interface_declaration":
		w.iface(n, c, d)
	case "type_alias_declaration":
		w.typeAlias(n, c, d)
	case "enum_declaration":
		w.enum(n, c, d)
	case "internal_module", "module":
		w.namespace(n, c, d)
	case "lexical_declaration", "variable_declaration", "using_declaration":
		w.varDecl(n, c, d)
	case "ambient_declaration":
		// declare function f(); declare global { ... }
		was := w.ambient
		w.ambient = true
		defer func() { w.ambient = was }()
		for e := range kids(w.t, n) {
			if t.Kind(e) == "statement_block" {
				w.block(e, c)
			} else {
				w.walkDecl(e, c, d)
			}
		}
	default:
		return false
	}
	return true
}

// ---- imports and exports

// stringText returns the value of a string literal node.
func stringText(t *lang.Tree, n int32) string {
	if n < 0 {
		return ""
	}
	if f := t.ChildOfKind(n, "string_fragment"); f >= 0 && t.Nodes[n].End == f+1 {
		return t.Text(f)
	}
	s := t.Text(n)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') {
		s = s[1 : len(s)-1]
	}
	return s
}

func (w *walkState) addImport(imp lang.Import) {
	if imp.Source == "" {
		return
	}
	w.x.Facts.Imports = append(w.x.Facts.Imports, imp)
}

func (w *walkState) importStmt(n int32, c *state) {
	t := w.t
	imp := lang.Import{Source: stringText(t, t.Field(n, "source")), Line: t.StartLine(n), Symbol: c.sym}
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "import_clause":
			for e := range t.NamedChildren(ch) {
				switch t.Kind(e) {
				case "identifier":
					imp.Names = append(imp.Names, lang.ImportName{Name: "default", Alias: t.Text(e)})
				case "namespace_import":
					if id := t.ChildOfKind(e, "identifier"); id >= 0 {
						imp.Alias = t.Text(id)
					}
				case "named_imports":
					for s := range t.NamedChildren(e) {
						if t.Kind(s) != "import_specifier" {
							continue
						}
						name := nameText(t, t.Field(s, "name"))
						alias := nameText(t, t.Field(s, "alias"))
						if alias == name {
							alias = ""
						}
						imp.Names = append(imp.Names, lang.ImportName{Name: name, Alias: alias})
					}
				}
			}
		case "import_require_clause":
			// import x = require('./y')
			imp.Source = stringText(t, t.Field(ch, "source"))
			if id := t.ChildOfKind(ch, "identifier"); id >= 0 {
				imp.Alias = t.Text(id)
			}
		}
	}
	if imp.Alias != "" && len(imp.Names) > 0 {
		// import d, * as ns from './x': two bindings, two imports
		w.addImport(lang.Import{Source: imp.Source, Alias: imp.Alias, Line: imp.Line, Symbol: imp.Symbol})
		imp.Alias = ""
	}
	w.addImport(imp)
}

// nameText is the text of an identifier or string name ("default", 'a-b').
func nameText(t *lang.Tree, n int32) string {
	if n < 0 {
		return ""
	}
	if t.Kind(n) == "string" {
		return stringText(t, n)
	}
	return t.Text(n)
}

func (w *walkState) exportStmt(n int32, c *state) {
	t := w.t
	isDefault := t.ChildOfKind(n, "default") >= 0
	if d := t.Field(n, "declaration"); d >= 0 {
		w.walkDecl(d, c, decl{exported: true, isDefault: isDefault, docNode: n})
		return
	}
	if v := t.Field(n, "value"); v >= 0 {
		// export default <expression>
		w.exportValue(v, n, c)
		return
	}
	src := t.Field(n, "source")
	var names []lang.ImportName
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "export_clause":
			for s := range t.NamedChildren(ch) {
				if t.Kind(s) != "export_specifier" {
					continue
				}
				name := nameText(t, t.Field(s, "name"))
				alias := nameText(t, t.Field(s, "alias"))
				if alias == name {
					alias = ""
				}
				names = append(names, lang.ImportName{Name: name, Alias: alias})
			}
		case "namespace_export":
			// export * as ns from './x'
			if id := t.FirstNamedChild(ch); id >= 0 && src >= 0 {
				w.addImport(lang.Import{Source: stringText(t, src), Alias: nameText(t, id), Line: t.StartLine(n), Symbol: c.sym})
				if c.sym == 0 {
					w.addExport(lang.Param{Name: nameText(t, id), Type: "*", Default: stringText(t, src)})
				}
			}
			return
		case "identifier":
			// TypeScript's export = X
			if src < 0 && c.sym == 0 {
				w.exportName("default", t.Text(ch))
			}
			return
		}
	}
	if src >= 0 {
		// a re-export: an import of the module that binds no local
		// name of its own, followed by resolution through barrels
		if len(names) == 0 {
			names = []lang.ImportName{{Name: "*"}}
		}
		w.addImport(lang.Import{Source: stringText(t, src), Names: names, Line: t.StartLine(n), Symbol: c.sym})
		if c.sym == 0 {
			for _, nm := range names {
				w.addExport(lang.Param{Name: nm.Local(), Type: nm.Name, Default: stringText(t, src)})
			}
		}
		return
	}
	if c.sym != 0 {
		return
	}
	for _, nm := range names {
		if nm.Alias == "" {
			w.exportName(nm.Name, nm.Name)
		} else {
			w.exportName(nm.Alias, nm.Name)
		}
	}
}

// exportName records that the module exports local as name.
func (w *walkState) exportName(name, local string) {
	if w.exportIDs == nil {
		w.exportIDs = map[string]bool{}
	}
	w.exportIDs[local] = true
	w.addExport(lang.Param{Name: name, Type: local})
}

// addExport adds an entry of the export table; a later one of the same
// name replaces an earlier (export default twice is an error anyway).
func (w *walkState) addExport(p lang.Param) {
	if p.Name != "*" {
		for i := range w.exportAs {
			if w.exportAs[i].Name == p.Name {
				w.exportAs[i] = p
				return
			}
		}
	}
	w.exportAs = append(w.exportAs, p)
}

// exportValue handles export default <expression>.
func (w *walkState) exportValue(v, stmt int32, c *state) {
	t := w.t
	d := decl{exported: true, isDefault: true, docNode: stmt, node: v}
	switch t.Kind(v) {
	case "identifier":
		w.exportName("default", t.Text(v))
	case "function_expression", "generator_function", "arrow_function", "function":
		w.function(v, t.Field(v, "name"), "default", c, d)
	case "class":
		w.class(v, "default", c, d)
	default:
		w.walk(v, c)
	}
}

// finishExports marks the symbols that export lists and CommonJS
// assignments export, and leaves the export aliases on the module symbol.
func (w *walkState) finishExports() {
	f := w.x.Facts
	if len(w.exportIDs) > 0 {
		for i := 1; i < len(f.Symbols); i++ {
			s := &f.Symbols[i]
			if s.Parent == 0 && s.Container == "" && w.exportIDs[s.Name] && !s.Exported {
				s.Exported = true
				if s.Visibility == lang.VisInternal {
					s.Visibility = lang.VisExported
				}
			} else if p := s.Parent; p > 0 && p < i && f.Symbols[p].Exported && !s.Exported && s.Visibility == lang.VisPublic &&
				f.Symbols[p].Kind != lang.KindFunction {
				// the public members of what was exported after
				// they were declared (Router.prototype.route)
				s.Exported = true
			} else if p > 0 && p < i && f.Symbols[p].Kind == lang.KindFunction && s.Kind == lang.KindMethod && f.Symbols[p].Exported {
				s.Exported = true
			}
		}
	}
	// export { a } of a declared a says nothing the symbol does not
	var table []lang.Param
	for _, p := range w.exportAs {
		if p.Default == "" && p.Name == p.Type && w.declared(p.Name) {
			continue
		}
		table = append(table, p)
	}
	f.Symbols[0].Signature.Fields = table
}

// declared reports a top-level symbol called name.
func (w *walkState) declared(name string) bool {
	for i := 1; i < len(w.x.Facts.Symbols); i++ {
		if s := &w.x.Facts.Symbols[i]; s.Parent == 0 && s.Container == "" && s.Name == name {
			return true
		}
	}
	return false
}

// ---- declarations

// vis returns the visibility of a top-level or namespace-level symbol.
func topVis(exported bool) string {
	if exported {
		return lang.VisExported
	}
	return lang.VisInternal
}

// function adds a function symbol for n (a declaration, signature, arrow
// function or function expression) called name (or named by nameNode),
// and walks its body.
func (w *walkState) function(n, nameNode int32, name string, c *state, d decl) int {
	t := w.t
	if name == "" {
		if nameNode < 0 {
			return -1
		}
		name = t.Text(nameNode)
	}
	if d.node < 0 {
		d.node = n
	}
	body := t.Field(n, "body")
	s := lang.Symbol{Kind: lang.KindFunction, Name: name, Parent: c.parent, Exported: d.exported}
	s.Visibility = topVis(d.exported)
	s.Doc = w.doc(d.docNode)
	scope := newFuncScope(c.scope)
	w.signature(&s.Signature, n, scope, s.Doc)
	if d.isDefault {
		s.Signature.Modifiers = append(s.Signature.Modifiers, "default")
	}
	if t.Kind(n) == "function_signature" {
		// a declaration in a .d.ts or declare block, else an overload
		if w.ambient {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "declare")
		} else {
			s.Signature.Modifiers = append(s.Signature.Modifiers, "overload")
		}
	}
	s.Signature.Text = w.x.HeaderText(d.node, body)
	sym := w.x.AddSymbol(s, d.node, nameNode, body)
	if d.isDefault && name != "default" && c.sym == 0 {
		w.exportName("default", name)
	}
	inner := &state{sym: sym, parent: sym, scope: scope, this: c.this, super: c.super, top: true}
	if t.Kind(n) != "arrow_function" {
		// a function has its own this
		inner.this, inner.super = "", ""
	}
	w.walkFunctionParts(n, body, inner)
	return sym
}

// walkFunctionParts walks a function's decorators, parameter defaults and
// body with the function's context.
func (w *walkState) walkFunctionParts(n, body int32, c *state) {
	t := w.t
	if ps := t.Field(n, "parameters"); ps >= 0 {
		inner := *c
		inner.top = false
		for p := range kids(w.t, ps) {
			w.walk(p, &inner)
		}
	}
	if body >= 0 {
		if t.Kind(body) == "statement_block" {
			w.walk(body, c)
		} else {
			// an arrow function's expression body
			inner := *c
			inner.top = false
			w.walk(body, &inner)
		}
	}
}

// closure walks an anonymous function (a callback): its references belong
// to the enclosing symbol, its parameters make a scope of their own.
func (w *walkState) closure(n int32, c *state) {
	t := w.t
	scope := newFuncScope(c.scope)
	var sig lang.Signature
	w.signature(&sig, n, scope, "")
	inner := &state{sym: c.sym, parent: c.parent, scope: scope, this: c.this, super: c.super}
	if t.Kind(n) != "arrow_function" {
		inner.this, inner.super = "", ""
	}
	if name := t.Field(n, "name"); name >= 0 && t.Kind(n) != "arrow_function" {
		// a named function expression that is not assigned: a symbol
		// of its own, as a nested function declaration would be
		w.function(n, name, "", c, decl{docNode: -1, node: n})
		return
	}
	w.walkFunctionParts(n, t.Field(n, "body"), inner)
}

// signature fills params, returns, generics and modifiers of a function
// node and declares its parameters in scope.
func (w *walkState) signature(sig *lang.Signature, n int32, scope *scope, doc string) {
	t := w.t
	scope.addTypeParams(t, t.Field(n, "type_parameters"))
	if ps := t.Field(n, "parameters"); ps >= 0 {
		sig.Params = w.params(ps, scope)
	} else if p := t.Field(n, "parameter"); p >= 0 {
		// x => ...
		sig.Params = []lang.Param{{Name: t.Text(p)}}
		scope.declare(t.Text(p))
	}
	if rt := t.Field(n, "return_type"); rt >= 0 {
		sig.Returns = typeText(t, rt)
	}
	sig.Generics = t.ItemTexts(t.Field(n, "type_parameters"))
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "async", "static", "get", "set", "abstract", "readonly", "declare":
			sig.Modifiers = append(sig.Modifiers, t.Kind(ch))
		case "override_modifier":
			sig.Modifiers = append(sig.Modifiers, "override")
		}
	}
	if isGenerator(t, n) {
		sig.Modifiers = append(sig.Modifiers, "generator")
	}
	if !w.ts && doc != "" {
		docTypes(sig, doc, scope)
	}
}

// isGenerator reports a generator function or method: the `*` is
// punctuation, absent from the tree, so look at the source before the
// name or parameters.
func isGenerator(t *lang.Tree, n int32) bool {
	switch t.Kind(n) {
	case "generator_function", "generator_function_declaration":
		return true
	case "method_definition":
		end := int32(-1)
		if nm := t.Field(n, "name"); nm >= 0 {
			end = nm
		}
		if end < 0 {
			return false
		}
		for _, b := range t.Src[t.Nodes[n].StartByte:t.Nodes[end].StartByte] {
			if b == '*' {
				return true
			}
		}
	}
	return false
}

// typeText is the type of a type_annotation (": Foo" -> "Foo") or the
// text of a type node.
func typeText(t *lang.Tree, n int32) string {
	if n < 0 {
		return ""
	}
	switch t.Kind(n) {
	case "type_annotation", "asserts_annotation", "type_predicate_annotation", "opting_type_annotation", "omitting_type_annotation":
		if c := t.FirstNamedChild(n); c >= 0 {
			return lang.Shorten(lang.OneLine(t.Text(c)), 200)
		}
		return strings.TrimSpace(strings.TrimPrefix(lang.OneLine(t.Text(n)), ":"))
	}
	return lang.Shorten(lang.OneLine(t.Text(n)), 200)
}

// params reads formal parameters (JavaScript's bare patterns and
// TypeScript's required/optional parameters) and declares them in scope.
func (w *walkState) params(list int32, scope *scope) []lang.Param {
	t := w.t
	var out []lang.Param
	for p := range t.NamedChildren(list) {
		var prm lang.Param
		pat := p
		switch t.Kind(p) {
		case "required_parameter", "optional_parameter":
			pat = t.Field(p, "pattern")
			if pat < 0 {
				pat = t.Field(p, "name")
			}
			prm.Type = typeText(t, t.Field(p, "type"))
			if v := t.Field(p, "value"); v >= 0 {
				prm.Default = lang.Shorten(lang.OneLine(t.Text(v)), 80)
			}
			prm.Optional = t.Kind(p) == "optional_parameter"
		case "assignment_pattern":
			pat = t.Field(p, "left")
			if v := t.Field(p, "right"); v >= 0 {
				prm.Default = lang.Shorten(lang.OneLine(t.Text(v)), 80)
			}
		case "comment", "decorator":
			continue
		}
		if pat < 0 {
			continue
		}
		if t.Kind(pat) == "this" {
			continue // TypeScript's this parameter only types this
		}
		if t.Kind(pat) == "rest_pattern" {
			prm.Variadic = true
			if in := t.FirstNamedChild(pat); in >= 0 {
				pat = in
			}
		}
		prm.Name = lang.Shorten(lang.OneLine(t.Text(pat)), 80)
		if prm.Default != "" {
			prm.Optional = true
		}
		if t.Kind(pat) == "identifier" {
			typ := scope.constraint(prm.Type)
			if typ == "" && prm.Default != "" {
				if v := t.Field(p, "value"); v >= 0 {
					typ = valueType(t, v)
				} else if v := t.Field(p, "right"); v >= 0 {
					typ = valueType(t, v)
				}
			}
			scope.SetType(prm.Name, typ)
		} else {
			w.declarePattern(pat, scope)
			if t.Kind(pat) == "object_pattern" {
				w.patternTypes(pat, t.Field(p, "type"), scope)
			}
		}
		out = append(out, prm)
	}
	return out
}

// patternTypes types the names of a destructured parameter, { a, b: c }:
// by the members of an object type written in place, or as T['a'] of a
// named type T, which resolution looks up.
func (w *walkState) patternTypes(pat, ann int32, scope *scope) {
	t := w.t
	if ann < 0 {
		return
	}
	ty := t.FirstNamedChild(ann)
	if ty < 0 {
		return
	}
	named := ""
	switch t.Kind(ty) {
	case "object_type":
	case "type_identifier", "generic_type", "nested_type_identifier":
		named = typeName(lang.OneLine(t.Text(ty)))
	default:
		return
	}
	for p := range t.NamedChildren(pat) {
		key, local := "", ""
		switch t.Kind(p) {
		case "shorthand_property_identifier_pattern":
			key, local = t.Text(p), t.Text(p)
		case "pair_pattern":
			v := t.Field(p, "value")
			if v >= 0 && t.Kind(v) == "identifier" {
				key, local = propName(t, t.Field(p, "key")), t.Text(v)
			}
		case "object_assignment_pattern":
			if l := t.Field(p, "left"); l >= 0 && t.Kind(l) == "shorthand_property_identifier_pattern" {
				key, local = t.Text(l), t.Text(l)
			}
		}
		if key == "" {
			continue
		}
		if named != "" {
			scope.SetType(local, named+"['"+key+"']")
			continue
		}
		for m := range t.NamedChildren(ty) {
			if t.Kind(m) == "property_signature" && propName(t, t.Field(m, "name")) == key {
				if typ := typeText(t, t.Field(m, "type")); typ != "" {
					scope.SetType(local, scope.constraint(typ))
				}
			}
		}
	}
}

// hoist declares the variables of a function body before its statements
// are walked: functions declared above their use see them (var hoisting,
// and closures called after a later let).
func (w *walkState) hoist(body int32, scope *scope) {
	t := w.t
	for st := range t.NamedChildren(body) {
		switch t.Kind(st) {
		case "lexical_declaration", "variable_declaration":
		default:
			continue
		}
		for v := range t.NamedChildren(st) {
			if t.Kind(v) != "variable_declarator" {
				continue
			}
			name := t.Field(v, "name")
			if name < 0 {
				continue
			}
			if val := t.Field(v, "value"); val >= 0 {
				uv := unwrap(t, val)
				if isFunc(t.Kind(uv)) || t.Kind(uv) == "class" {
					continue // a symbol of its own
				}
				if _, ok := requireSource(t, uv); ok {
					continue // an import binding
				}
			}
			if t.Kind(name) == "identifier" {
				if _, known := scope.Types[t.Text(name)]; !known {
					scope.declare(t.Text(name))
				}
			} else {
				w.declarePattern(name, scope)
			}
		}
	}
}

// declarePattern declares the names a destructuring pattern binds.
func (w *walkState) declarePattern(pat int32, scope *scope) {
	t := w.t
	for d := range t.Descendants(pat) {
		switch t.Kind(d) {
		case "identifier", "shorthand_property_identifier_pattern":
			if t.FieldName(d) != "key" {
				scope.declare(t.Text(d))
			}
		}
	}
}

// valueType is the type a value expression evidently has: new T(),
// x as T, <T>x, x satisfies T.
func valueType(t *lang.Tree, v int32) string {
	v = unwrap(t, v)
	switch t.Kind(v) {
	case "array", "string", "template_string", "regex", "number":
		// not "object": the methods of an object literal are its own
		return literalType(t.Kind(v))
	case "new_expression":
		if ctor := t.Field(v, "constructor"); ctor >= 0 {
			return render(t, ctor)
		}
	case "as_expression", "satisfies_expression":
		var last int32 = -1
		for c := range t.NamedChildren(v) {
			last = c
		}
		if last >= 0 && last != t.FirstNamedChild(v) {
			typ := lang.OneLine(t.Text(last))
			if typ != "const" && typ != "any" && typ != "unknown" {
				return typ
			}
		}
	case "type_assertion":
		if ta := t.ChildOfKind(v, "type_arguments"); ta >= 0 {
			if c := t.FirstNamedChild(ta); c >= 0 {
				return lang.OneLine(t.Text(c))
			}
		}
	}
	return ""
}

// unwrap looks through parentheses, await, non-null assertions.
func unwrap(t *lang.Tree, v int32) int32 { return t.Unwrap(v, valueWrappers) }

var valueWrappers = lang.KindSet("parenthesized_expression", "await_expression", "non_null_expression")

// doc returns the doc comment before node: the JSDoc block right above
// it, or else the line comments right above it, leaving out tool
// directives (eslint-disable, @ts-ignore, prettier-ignore).
func (w *walkState) doc(node int32) string {
	t := w.t
	if node < 0 {
		return ""
	}
	var parts []string
	line := t.Nodes[node].StartRow
	for c := prevSibling(t, node); c >= 0 && t.IsComment(c); c = prevSibling(t, c) {
		if t.Nodes[c].EndRow+1 < line {
			break
		}
		txt := t.Text(c)
		line = t.Nodes[c].StartRow
		if directive(txt) {
			continue
		}
		if strings.HasPrefix(txt, "/**") {
			// the JSDoc block is the doc, whatever lies above it
			parts = append(parts[:0], txt)
			break
		}
		if strings.HasPrefix(txt, "/*") && len(parts) > 0 {
			break
		}
		parts = append(parts, txt)
	}
	if len(parts) == 0 {
		return ""
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return lang.CleanComment(strings.Join(parts, "\n"))
}

// prevSibling is Tree.PrevSibling without the scan of all earlier
// siblings, which is quadratic over the thousands of statements of a
// large file: the node before i in pre-order lies in its previous sibling.
func prevSibling(t *lang.Tree, i int32) int32 {
	p := t.Parent(i)
	if p < 0 || i-1 <= p {
		return -1
	}
	j := i - 1
	for j >= 0 && t.Parent(j) != p {
		j = t.Parent(j)
	}
	return j
}

func directive(c string) bool {
	c = strings.TrimSpace(strings.TrimLeft(c, "/*"))
	for _, p := range []string{"eslint", "@ts-", "prettier-ignore", "istanbul", "tslint", "jshint", "global ", "c8 ", "biome-ignore", "#region", "#endregion", "webpack"} {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	return false
}

// docTypes takes parameter and return types from a JSDoc comment, the
// only types plain JavaScript writes down.
func docTypes(sig *lang.Signature, doc string, scope *scope) {
	if !strings.Contains(doc, "@") {
		return
	}
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		var tag string
		switch {
		case strings.HasPrefix(line, "@param "), strings.HasPrefix(line, "@arg "), strings.HasPrefix(line, "@argument "):
			tag = "param"
		case strings.HasPrefix(line, "@returns "), strings.HasPrefix(line, "@return "):
			tag = "returns"
		default:
			continue
		}
		_, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		typ := ""
		if strings.HasPrefix(rest, "{") {
			depth, end := 0, -1
			for i := 0; i < len(rest); i++ {
				if rest[i] == '{' {
					depth++
				} else if rest[i] == '}' {
					depth--
					if depth == 0 {
						end = i
						break
					}
				}
			}
			if end < 0 {
				continue
			}
			typ = strings.TrimSpace(rest[1:end])
			rest = strings.TrimSpace(rest[end+1:])
		}
		if typ == "" {
			continue
		}
		if tag == "returns" {
			if sig.Returns == "" {
				sig.Returns = typ
			}
			continue
		}
		name, _, _ := strings.Cut(rest, " ")
		optional := strings.HasPrefix(name, "[")
		name = strings.Trim(name, "[]")
		name, _, _ = strings.Cut(name, "=")
		if strings.HasSuffix(typ, "=") {
			optional, typ = true, strings.TrimSuffix(typ, "=")
		}
		for i := range sig.Params {
			if sig.Params[i].Name == name && sig.Params[i].Type == "" {
				sig.Params[i].Type = typ
				sig.Params[i].Optional = sig.Params[i].Optional || optional
				if scope != nil {
					scope.SetType(name, strings.TrimPrefix(typ, "..."))
				}
			}
		}
	}
}

// class adds a class symbol with its members. name overrides the class's
// own name (class expressions assigned to a variable, export default).
func (w *walkState) class(n int32, name string, c *state, d decl) int {
	t := w.t
	nameNode := t.Field(n, "name")
	if name == "" || (name == "default" && nameNode >= 0) {
		if nameNode < 0 {
			w.walkChildren(n, c)
			return -1
		}
		name = t.Text(nameNode)
	}
	if d.node < 0 {
		d.node = n
	}
	body := t.Field(n, "body")
	s := lang.Symbol{Kind: lang.KindClass, Name: name, Parent: c.parent, Exported: d.exported, Visibility: topVis(d.exported)}
	s.Doc = w.doc(d.docNode)
	s.Signature.Generics = t.ItemTexts(t.Field(n, "type_parameters"))
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "abstract", "declare":
			s.Signature.Modifiers = append(s.Signature.Modifiers, t.Kind(ch))
		}
	}
	if d.isDefault {
		s.Signature.Modifiers = append(s.Signature.Modifiers, "default")
	}
	type heritage struct {
		kind string
		node int32
	}
	var bases []heritage
	if h := t.ChildOfKind(n, "class_heritage"); h >= 0 {
		for ch := range t.NamedChildren(h) {
			switch t.Kind(ch) {
			case "extends_clause":
				for v := range t.Children(ch) {
					if t.FieldName(v) == "value" {
						bases = append(bases, heritage{lang.RefExtends, v})
					}
				}
			case "implements_clause":
				for v := range t.NamedChildren(ch) {
					bases = append(bases, heritage{lang.RefImplements, v})
				}
			default:
				// JavaScript: class_heritage holds the expression
				bases = append(bases, heritage{lang.RefExtends, ch})
			}
		}
	}
	superName := ""
	for _, b := range bases {
		txt := lang.OneLine(t.Text(b.node))
		if ta := t.NextSibling(b.node); ta >= 0 && t.FieldName(ta) == "type_arguments" {
			txt += lang.OneLine(t.Text(ta)) // extends Base<T>
		}
		if b.kind == lang.RefExtends && t.Kind(b.node) == "call_expression" {
			// class A extends mixin(B) { }
			txt = render(t, b.node)
		}
		s.Signature.Bases = append(s.Signature.Bases, txt)
		if b.kind == lang.RefExtends && superName == "" {
			superName = typeName(txt)
		}
	}
	s.Signature.Text = w.x.HeaderText(d.node, body)
	sym := w.x.AddSymbol(s, d.node, nameNode, body)
	if d.isDefault && c.sym == 0 && name != "default" {
		w.exportName("default", name)
	}
	qual := w.x.Facts.Symbols[sym].Qualified()
	cscope := c.scope
	if tp := t.Field(n, "type_parameters"); tp >= 0 {
		cscope = newScope(c.scope)
		cscope.addTypeParams(t, tp)
	}
	cc := &state{sym: sym, parent: sym, scope: cscope, this: qual, super: superName}
	for _, b := range bases {
		if t.Kind(b.node) == "call_expression" {
			w.walk(b.node, cc)
			continue
		}
		ref := lang.Ref{Kind: b.kind, Symbol: sym}
		ref.Name, ref.Qualifier = splitType(lang.OneLine(t.Text(b.node)))
		w.x.Ref(ref, b.node)
	}
	for dec := range t.Children(n) {
		if t.FieldName(dec) == "decorator" {
			w.walk(dec, cc)
		}
	}
	if body >= 0 {
		w.classBody(body, sym, cc, d.exported)
	}
	return sym
}

// walkChildren walks the named children of n.
func (w *walkState) walkChildren(n int32, c *state) {
	for ch := range kids(w.t, n) {
		w.walk(ch, c)
	}
}

// splitType splits a heritage or type reference into its name and
// qualifier: "ns.Base<T>" -> "Base", "ns".
func splitType(s string) (name, qual string) {
	if i := strings.IndexAny(s, "<("); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:], s[:i]
	}
	return s, ""
}

// typeName is the name of a type reference without type arguments:
// "ns.Base<T>" -> "ns.Base".
func typeName(s string) string {
	if i := strings.IndexAny(s, "<("); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// memberVis reads a member's accessibility: TypeScript's modifiers and
// JavaScript's #private names.
func memberVis(t *lang.Tree, n int32, name string) string {
	if strings.HasPrefix(name, "#") {
		return lang.VisPrivate
	}
	if a := t.ChildOfKind(n, "accessibility_modifier"); a >= 0 {
		switch strings.TrimSpace(t.Text(a)) {
		case "private":
			return lang.VisPrivate
		case "protected":
			return lang.VisProtected
		}
	}
	return lang.VisPublic
}

// propName is the name of a class member or object property.
func propName(t *lang.Tree, n int32) string {
	if n < 0 {
		return ""
	}
	switch t.Kind(n) {
	case "string":
		return stringText(t, n)
	case "computed_property_name":
		return lang.Shorten(lang.OneLine(t.Text(n)), 60)
	}
	return t.Text(n)
}

func (w *walkState) classBody(body int32, cls int, c *state, exported bool) {
	t := w.t
	var fields []lang.Param
	addField := func(p lang.Param) {
		for i := range fields {
			if fields[i].Name == p.Name {
				if fields[i].Type == "" {
					fields[i].Type = p.Type
				}
				return
			}
		}
		fields = append(fields, p)
	}
	var pendingDecorators []int32
	for m := range kids(w.t, body) {
		kind := t.Kind(m)
		if kind == "decorator" {
			pendingDecorators = append(pendingDecorators, m)
			continue
		}
		switch kind {
		case "method_definition", "abstract_method_signature", "method_signature":
			nameNode := t.Field(m, "name")
			name := propName(t, nameNode)
			if name == "" {
				continue
			}
			s := lang.Symbol{Kind: lang.KindMethod, Name: name, Parent: cls}
			if name == "constructor" && kind == "method_definition" {
				s.Kind = lang.KindConstructor
			}
			s.Visibility = memberVis(t, m, name)
			s.Exported = exported && s.Visibility == lang.VisPublic
			s.Doc = w.doc(m)
			scope := newFuncScope(c.scope)
			w.signature(&s.Signature, m, scope, s.Doc)
			if kind == "method_signature" {
				s.Signature.Modifiers = append(s.Signature.Modifiers, "overload")
			}
			mbody := t.Field(m, "body")
			s.Signature.Text = w.x.HeaderText(m, mbody)
			sym := w.x.AddSymbol(s, m, nameNode, mbody)
			mc := &state{sym: sym, parent: sym, scope: scope, this: c.this, super: c.super, top: true}
			for _, dec := range pendingDecorators {
				w.walk(dec, mc)
			}
			pendingDecorators = pendingDecorators[:0]
			if s.Kind == lang.KindConstructor {
				// parameter properties: constructor(private db: Db)
				if ps := t.Field(m, "parameters"); ps >= 0 {
					for p := range t.NamedChildren(ps) {
						if t.ChildOfKind(p, "accessibility_modifier") < 0 && t.ChildOfKind(p, "readonly") < 0 && t.ChildOfKind(p, "override_modifier") < 0 {
							continue
						}
						if pat := t.Field(p, "pattern"); pat >= 0 && t.Kind(pat) == "identifier" {
							addField(lang.Param{Name: t.Text(pat), Type: typeText(t, t.Field(p, "type")), Optional: t.Kind(p) == "optional_parameter"})
						}
					}
				}
				// this.x = ... in the constructor
				if mbody >= 0 {
					for _, f := range w.thisFields(mbody, scope) {
						addField(f)
					}
				}
			}
			w.walkFunctionParts(m, mbody, mc)
		case "public_field_definition", "field_definition":
			nameNode := t.Field(m, "name")
			if nameNode < 0 {
				nameNode = t.Field(m, "property")
			}
			name := propName(t, nameNode)
			if name == "" {
				continue
			}
			val := t.Field(m, "value")
			typ := typeText(t, t.Field(m, "type"))
			if typ == "" && val >= 0 {
				typ = valueType(t, val)
			}
			fd := lang.Param{Name: name, Type: typ, Optional: optionalAfter(t, nameNode)}
			vis := memberVis(t, m, name)
			if val >= 0 && isFunc(t.Kind(val)) {
				// handler = () => {}: a method in all but syntax
				s := lang.Symbol{Kind: lang.KindMethod, Name: name, Parent: cls, Visibility: vis}
				s.Exported = exported && vis == lang.VisPublic
				s.Doc = w.doc(m)
				scope := newFuncScope(c.scope)
				w.signature(&s.Signature, val, scope, s.Doc)
				for ch := range t.Children(m) {
					if k := t.Kind(ch); k == "static" || k == "readonly" {
						s.Signature.Modifiers = append(s.Signature.Modifiers, k)
					}
				}
				fbody := t.Field(val, "body")
				s.Signature.Text = w.x.HeaderText(m, fbody)
				sym := w.x.AddSymbol(s, m, nameNode, fbody)
				mc := &state{sym: sym, parent: sym, scope: scope, this: c.this, super: c.super, top: true}
				if t.Kind(val) != "arrow_function" {
					mc.this, mc.super = "", ""
				}
				w.walkFunctionParts(val, fbody, mc)
				continue
			}
			s := lang.Symbol{Kind: lang.KindVariable, Name: name, Parent: cls, Visibility: vis}
			s.Exported = exported && vis == lang.VisPublic
			s.Doc = w.doc(m)
			s.Signature.Returns = typ
			for ch := range t.Children(m) {
				switch k := t.Kind(ch); k {
				case "static", "readonly", "declare", "abstract":
					s.Signature.Modifiers = append(s.Signature.Modifiers, k)
				case "override_modifier":
					s.Signature.Modifiers = append(s.Signature.Modifiers, "override")
				}
			}
			s.Signature.Text = w.x.HeaderText(m, -1)
			sym := w.x.AddSymbol(s, m, nameNode, val)
			addField(fd)
			fc := &state{sym: sym, parent: sym, scope: c.scope, this: c.this, super: c.super}
			for _, dec := range pendingDecorators {
				w.walk(dec, fc)
			}
			pendingDecorators = pendingDecorators[:0]
			if val >= 0 {
				w.walk(val, fc)
			}
		case "class_static_block":
			w.walkChildren(m, &state{sym: cls, parent: cls, scope: newFuncScope(c.scope), this: c.this, super: c.super})
		}
	}
	w.x.Facts.Symbols[cls].Signature.Fields = fields
}

// optionalAfter reports the `?` of an optional member, which the tree
// leaves out as punctuation.
func optionalAfter(t *lang.Tree, name int32) bool {
	if name < 0 {
		return false
	}
	end := int(t.Nodes[name].EndByte)
	return end < len(t.Src) && t.Src[end] == '?'
}

func isFunc(kind string) bool {
	switch kind {
	case "arrow_function", "function_expression", "generator_function", "function":
		return true
	}
	return false
}

// thisFields finds this.x = <value> in a constructor body, typing x by
// the value: new T(), a typed parameter.
func (w *walkState) thisFields(body int32, scope *scope) []lang.Param {
	t := w.t
	var out []lang.Param
	for st := range kids(w.t, body) {
		if t.Kind(st) != "expression_statement" {
			continue
		}
		a := t.FirstNamedChild(st)
		if a < 0 || t.Kind(a) != "assignment_expression" {
			continue
		}
		left, right := t.Field(a, "left"), t.Field(a, "right")
		if left < 0 || right < 0 || t.Kind(left) != "member_expression" {
			continue
		}
		obj := t.Field(left, "object")
		if obj < 0 || t.Kind(obj) != "this" {
			continue
		}
		name := t.FieldText(left, "property")
		typ := valueType(t, right)
		if typ == "" && t.Kind(right) == "identifier" {
			typ, _ = scope.lookup(t.Text(right))
		}
		out = append(out, lang.Param{Name: name, Type: typ})
	}
	return out
}

// define starts the symbol of the definition typescript.scm found at n (a
// declared type, a namespace, a method signature) where the walk is: c's
// parent, exported and documented as d says; false when it has none (no
// name, or code the query does not read).
func (w *walkState) define(n int32, c *state, d decl) (s lang.Symbol, def lang.Def, ok bool) {
	def, ok = w.defs[n]
	if !ok || def.Name < 0 {
		return s, def, false
	}
	s = lang.Symbol{Kind: def.Kind, Name: propName(w.t, def.Name), Parent: c.parent, Exported: d.exported, Visibility: topVis(d.exported)}
	s.Doc = w.doc(d.docNode)
	s.Signature.Generics = w.t.ItemTexts(w.t.Field(n, "type_parameters"))
	return s, def, true
}

// iface adds an interface with its method signatures as methods and its
// properties as fields.
func (w *walkState) iface(n int32, c *state, d decl) {
	t := w.t
	s, def, ok := w.define(n, c, d)
	if !ok {
		return
	}
	var exts []int32
	if ec := t.ChildOfKind(n, "extends_type_clause"); ec >= 0 {
		for ty := range t.NamedChildren(ec) {
			exts = append(exts, ty)
			s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(ty)))
		}
	}
	s.Signature.Text = w.x.HeaderText(d.node, def.Body)
	sym := w.x.AddSymbol(s, d.node, def.Name, def.Body)
	if d.isDefault && c.sym == 0 {
		w.exportName("default", s.Name)
	}
	for _, e := range exts {
		ref := lang.Ref{Kind: lang.RefExtends, Symbol: sym}
		ref.Name, ref.Qualifier = splitType(lang.OneLine(t.Text(e)))
		w.x.Ref(ref, e)
	}
	if def.Body >= 0 {
		w.x.Facts.Symbols[sym].Signature.Fields = w.objectType(def.Body, sym, d.exported)
	}
}

// objectType reads the members of an interface body or object type:
// method signatures become methods of sym, properties its fields.
func (w *walkState) objectType(body int32, sym int, exported bool) []lang.Param {
	t := w.t
	var fields []lang.Param
	for m := range kids(w.t, body) {
		if s, _, ok := w.define(m, &state{parent: sym}, decl{exported: exported, docNode: m}); ok {
			s.Visibility = lang.VisPublic
			s.Signature.Generics = nil
			w.signature(&s.Signature, m, newScope(nil), s.Doc)
			s.Signature.Text = lang.OneLine(t.Text(m))
			w.x.AddSymbol(s, m, t.Field(m, "name"), -1)
		} else if t.Kind(m) == "property_signature" {
			name := propName(t, t.Field(m, "name"))
			if name == "" {
				continue
			}
			fields = append(fields, lang.Param{Name: name, Type: typeText(t, t.Field(m, "type")),
				Optional: optionalAfter(t, t.Field(m, "name"))})
		}
	}
	return fields
}

func (w *walkState) typeAlias(n int32, c *state, d decl) {
	t := w.t
	s, def, ok := w.define(n, c, d)
	if !ok {
		return
	}
	val := def.Body
	s.Signature.Returns = typeText(t, val)
	s.Signature.Text = w.x.HeaderText(d.node, -1)
	sym := w.x.AddSymbol(s, d.node, def.Name, val)
	if val >= 0 && t.Kind(val) == "object_type" {
		w.x.Facts.Symbols[sym].Signature.Fields = w.objectType(val, sym, d.exported)
		w.x.Facts.Symbols[sym].Signature.Returns = ""
	}
}

func (w *walkState) enum(n int32, c *state, d decl) {
	t := w.t
	s, def, ok := w.define(n, c, d)
	if !ok {
		return
	}
	s.Signature.Modifiers = []string{"enum"}
	if t.ChildOfKind(n, "const") >= 0 {
		s.Signature.Modifiers = append(s.Signature.Modifiers, "const")
	}
	if def.Body >= 0 {
		for m := range t.NamedChildren(def.Body) {
			switch t.Kind(m) {
			case "enum_assignment":
				s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: propName(t, t.Field(m, "name")),
					Default: lang.Shorten(lang.OneLine(t.FieldText(m, "value")), 60)})
			case "property_identifier", "string", "number", "computed_property_name":
				s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: propName(t, m)})
			}
		}
	}
	s.Signature.Text = w.x.HeaderText(d.node, def.Body)
	w.x.AddSymbol(s, d.node, def.Name, def.Body)
}

// namespace adds a TypeScript namespace or ambient module, whose members
// are its children.
func (w *walkState) namespace(n int32, c *state, d decl) {
	t := w.t
	s, def, ok := w.define(n, c, d)
	if !ok {
		if body := t.Field(n, "body"); body >= 0 && t.Field(n, "name") < 0 {
			w.block(body, c)
		}
		return
	}
	if t.Kind(def.Name) == "string" {
		// declare module 'x' describes another module: public by nature
		s.Exported, s.Visibility = true, lang.VisExported
	}
	s.Signature.Generics = nil
	s.Signature.Text = w.x.HeaderText(d.node, def.Body)
	sym := w.x.AddSymbol(s, d.node, def.Name, def.Body)
	if def.Body >= 0 {
		w.block(def.Body, &state{sym: sym, parent: sym, scope: newScope(c.scope), level: true})
	}
}

// varDecl handles const/let/var: functions and classes assigned to a
// name are symbols of that name; require() and import() are imports;
// other values are variables at module level and typed locals below it.
func (w *walkState) varDecl(n int32, c *state, d decl) {
	t := w.t
	isConst := t.FieldText(n, "kind") == "const" || t.ChildOfKind(n, "const") >= 0
	var decls []int32
	for v := range kids(w.t, n) {
		if t.Kind(v) == "variable_declarator" {
			decls = append(decls, v)
		}
	}
	for _, v := range decls {
		nameNode := t.Field(v, "name")
		val := t.Field(v, "value")
		if nameNode < 0 {
			continue
		}
		node := v
		if len(decls) == 1 {
			node = d.node
		}
		vd := d
		vd.node = node
		if len(decls) > 1 {
			vd.docNode = v
			if v == decls[0] {
				vd.docNode = n
			}
		}
		if val >= 0 && w.requireDecl(nameNode, val, c) {
			continue
		}
		if val >= 0 && t.Kind(val) == "assignment_expression" && t.Kind(nameNode) == "identifier" {
			// var app = exports = module.exports = {}: app is the
			// module's export, the innermost value its value
			for i := 0; i < 8 && t.Kind(val) == "assignment_expression"; i++ {
				if l := t.Field(val, "left"); l >= 0 && c.sym == 0 && render(t, l) == "module.exports" {
					w.exportName("default", t.Text(nameNode))
				}
				r := t.Field(val, "right")
				if r < 0 {
					break
				}
				val = r
			}
		}
		if t.Kind(nameNode) == "identifier" && val >= 0 {
			uv := unwrap(t, val)
			if isFunc(t.Kind(uv)) {
				w.function(uv, nameNode, "", c, vd)
				continue
			}
			if t.Kind(uv) == "class" {
				w.class(uv, t.Text(nameNode), c, vd)
				continue
			}
		}
		typ := typeText(t, t.Field(v, "type"))
		if typ == "" && val >= 0 {
			typ = valueType(t, val)
		}
		call := ""
		if typ == "" && val >= 0 {
			if uv := unwrap(t, val); t.Kind(uv) == "call_expression" {
				if fn := t.Field(uv, "function"); fn >= 0 {
					call = render(t, fn)
				}
			}
		}
		if !w.ts && typ == "" {
			typ = docType(w.doc(vd.docNode))
		}
		if t.Kind(nameNode) == "identifier" {
			name := t.Text(nameNode)
			if typ != "" {
				c.scope.SetType(name, typ)
			} else if call != "" {
				c.scope.setCall(name, call)
			} else {
				c.scope.declare(name)
			}
		} else {
			w.declarePattern(nameNode, c.scope)
		}
		if !c.level {
			if val >= 0 {
				w.walk(val, c)
			}
			continue
		}
		// module level: a variable per bound name
		first := -1
		for _, id := range patternNames(t, nameNode) {
			s := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(id), Parent: c.parent, Exported: d.exported, Visibility: topVis(d.exported)}
			s.Doc = w.doc(vd.docNode)
			if isConst {
				s.Signature.Modifiers = []string{"const"}
			}
			if id == nameNode {
				s.Signature.Returns = typ
				if typ == "" && val >= 0 && isConst {
					// const string = ZodString.create: an alias of
					// a function, typed as TypeScript would write it
					if uv := unwrap(t, val); t.Kind(uv) == "member_expression" || t.Kind(uv) == "identifier" {
						if r := render(t, uv); !strings.ContainsAny(r, "()[ ") {
							s.Signature.Returns = "typeof " + r
						}
					}
				}
			}
			s.Signature.Text = lang.Shorten(w.x.HeaderText(node, -1), 120)
			sym := w.x.AddSymbol(s, node, id, val)
			if first < 0 {
				first = sym
			}
		}
		if val >= 0 && first >= 0 {
			vc := &state{sym: first, parent: first, scope: c.scope}
			if uv := unwrap(t, val); t.Kind(uv) == "object" && t.Kind(nameNode) == "identifier" {
				w.objectMembers(uv, first, vc, d.exported)
			} else {
				w.walk(val, vc)
			}
		}
	}
}

// docType reads the @type {T} of a JSDoc comment.
func docType(doc string) string {
	i := strings.Index(doc, "@type {")
	if i < 0 {
		return ""
	}
	rest := doc[i+len("@type {"):]
	if j := strings.IndexByte(rest, '}'); j > 0 {
		return strings.TrimSpace(rest[:j])
	}
	return ""
}

// patternNames lists the identifiers a declarator's name binds.
func patternNames(t *lang.Tree, n int32) []int32 {
	if t.Kind(n) == "identifier" {
		return []int32{n}
	}
	var out []int32
	for d := range t.Descendants(n) {
		switch t.Kind(d) {
		case "identifier", "shorthand_property_identifier_pattern":
			if t.FieldName(d) != "key" && t.FieldName(d) != "right" && !inDefault(t, d, n) {
				out = append(out, d)
			}
		}
	}
	return out
}

// inDefault reports whether identifier d lies in a default value of
// pattern root ({a = b}: b is not bound).
func inDefault(t *lang.Tree, d, root int32) bool {
	for p := t.Parent(d); p >= 0 && p != root; p = t.Parent(p) {
		if t.FieldName(p) == "right" || t.FieldName(p) == "value" && t.Kind(t.Parent(p)) == "object_assignment_pattern" {
			return true
		}
	}
	return false
}

// objectMembers makes the function-valued properties of a module-level
// object literal methods of its variable: const api = { get() {} }.
func (w *walkState) objectMembers(obj int32, owner int, c *state, exported bool) {
	t := w.t
	qual := w.x.Facts.Symbols[owner].Qualified()
	for m := range kids(w.t, obj) {
		var nameNode, fn int32 = -1, -1
		switch t.Kind(m) {
		case "method_definition":
			nameNode, fn = t.Field(m, "name"), m
		case "pair":
			if v := t.Field(m, "value"); v >= 0 && isFunc(t.Kind(v)) {
				nameNode, fn = t.Field(m, "key"), v
			}
		}
		if fn < 0 || nameNode < 0 {
			w.walk(m, c)
			continue
		}
		s := lang.Symbol{Kind: lang.KindMethod, Name: propName(t, nameNode), Parent: owner, Visibility: lang.VisPublic, Exported: exported}
		s.Doc = w.doc(m)
		scope := newFuncScope(c.scope)
		w.signature(&s.Signature, fn, scope, s.Doc)
		body := t.Field(fn, "body")
		s.Signature.Text = w.x.HeaderText(m, body)
		sym := w.x.AddSymbol(s, m, nameNode, body)
		mc := &state{sym: sym, parent: sym, scope: scope, this: qual, top: true}
		if t.Kind(fn) == "arrow_function" {
			mc.this = c.this
		}
		w.walkFunctionParts(fn, body, mc)
	}
}

// requireDecl handles const x = require('y'), const {a, b: c} =
// require('y') and const m = await import('y') as imports.
func (w *walkState) requireDecl(nameNode, val int32, c *state) bool {
	t := w.t
	call := unwrap(t, val)
	var member string
	if t.Kind(call) == "member_expression" {
		// const x = require('y').x
		member = t.FieldText(call, "property")
		call = t.Field(call, "object")
	}
	src, ok := requireSource(t, call)
	if !ok {
		return false
	}
	imp := lang.Import{Source: src, Line: t.StartLine(val), Symbol: c.sym}
	switch t.Kind(nameNode) {
	case "identifier":
		if member != "" {
			imp.Names = []lang.ImportName{{Name: member, Alias: t.Text(nameNode)}}
			if member == t.Text(nameNode) {
				imp.Names[0].Alias = ""
			}
		} else {
			imp.Alias = t.Text(nameNode)
		}
		c.scope.declare(t.Text(nameNode))
	case "object_pattern":
		for p := range t.NamedChildren(nameNode) {
			switch t.Kind(p) {
			case "shorthand_property_identifier_pattern":
				imp.Names = append(imp.Names, lang.ImportName{Name: t.Text(p)})
			case "pair_pattern":
				k, v := propName(t, t.Field(p, "key")), t.Field(p, "value")
				if v >= 0 && t.Kind(v) == "assignment_pattern" {
					v = t.Field(v, "left")
				}
				if v >= 0 && t.Kind(v) == "identifier" {
					nm := lang.ImportName{Name: k, Alias: t.Text(v)}
					if nm.Alias == nm.Name {
						nm.Alias = ""
					}
					imp.Names = append(imp.Names, nm)
				}
			case "object_assignment_pattern":
				if l := t.Field(p, "left"); l >= 0 {
					imp.Names = append(imp.Names, lang.ImportName{Name: t.Text(l)})
				}
			}
		}
		w.declarePattern(nameNode, c.scope)
	default:
		w.declarePattern(nameNode, c.scope)
	}
	w.addImport(imp)
	return true
}

// requireSource recognises require('x') and import('x') calls.
func requireSource(t *lang.Tree, call int32) (string, bool) {
	if call < 0 || t.Kind(call) != "call_expression" {
		return "", false
	}
	fn := t.Field(call, "function")
	if fn < 0 {
		return "", false
	}
	if k := t.Kind(fn); k != "import" && !(k == "identifier" && t.Text(fn) == "require") {
		return "", false
	}
	args := t.Field(call, "arguments")
	if args < 0 {
		return "", false
	}
	a := t.FirstNamedChild(args)
	if a < 0 || t.Kind(a) != "string" {
		return "", false
	}
	return stringText(t, a), true
}

// assignment handles the module-level assignments that define or export
// things: module.exports = ..., exports.x = ..., X.prototype.m =
// function, X.m = function. It reports whether it handled e.
func (w *walkState) assignment(e, stmt int32, c *state) bool {
	t := w.t
	left, right := t.Field(e, "left"), t.Field(e, "right")
	if left < 0 || right < 0 {
		return false
	}
	// exports = module.exports = X: the innermost right side is the value
	targets := []int32{left}
	for i := 0; i < 8 && t.Kind(right) == "assignment_expression"; i++ {
		if l := t.Field(right, "left"); l >= 0 {
			targets = append(targets, l)
		}
		right = t.Field(right, "right")
		if right < 0 {
			return false
		}
	}
	d := decl{docNode: stmt, node: stmt}
	for _, l := range targets {
		lt := render(t, l)
		switch {
		case lt == "module.exports" || lt == "exports":
			if lt == "exports" && len(targets) == 1 {
				continue // rebinding exports alone exports nothing
			}
			w.moduleExports(right, c, d)
			return true
		case strings.HasPrefix(lt, "module.exports.") || strings.HasPrefix(lt, "exports."):
			name := strings.TrimPrefix(strings.TrimPrefix(lt, "module."), "exports.")
			if strings.ContainsAny(name, ".([") {
				return false // exports.a.b = ...: a property of an export
			}
			w.exportsProp(name, l, right, c, d)
			return true
		}
	}
	// X.prototype.m = function, X.m = function; X.a = X.b = function
	// makes both, the body walked once
	if !isFunc(t.Kind(unwrap(t, right))) {
		return false
	}
	done := false
	for _, l := range targets {
		if t.Kind(l) != "member_expression" {
			continue
		}
		lt := render(t, l)
		owner := strings.TrimSuffix(lt[:strings.LastIndexByte(lt, '.')], ".prototype")
		name := t.FieldText(l, "property")
		if owner == "" || strings.ContainsAny(owner, "()[ ") || owner == "this" || name == "" {
			continue
		}
		if done {
			w.ownerMethod(owner, name, t.Field(l, "property"), unwrap(t, right), c, decl{docNode: -1, node: l}, false)
			continue
		}
		w.ownerMethod(owner, name, t.Field(l, "property"), unwrap(t, right), c, d, true)
		done = true
	}
	return done
}

// moduleExports handles module.exports = value.
func (w *walkState) moduleExports(v int32, c *state, d decl) {
	t := w.t
	v = unwrap(t, v)
	d.exported, d.isDefault = true, true
	switch t.Kind(v) {
	case "identifier":
		w.exportName("default", t.Text(v))
	case "function_expression", "generator_function", "arrow_function":
		w.function(v, t.Field(v, "name"), "default", c, d)
	case "class":
		w.class(v, "default", c, d)
	case "object":
		for m := range kids(w.t, v) {
			switch t.Kind(m) {
			case "shorthand_property_identifier":
				w.exportName(t.Text(m), t.Text(m))
			case "pair":
				key := propName(t, t.Field(m, "key"))
				val := t.Field(m, "value")
				if val < 0 || key == "" {
					continue
				}
				uv := unwrap(t, val)
				switch {
				case t.Kind(uv) == "identifier":
					w.exportName(key, t.Text(uv))
				case isFunc(t.Kind(uv)):
					w.function(uv, t.Field(m, "key"), key, c, decl{exported: true, docNode: m, node: m})
				default:
					w.walk(m, c)
				}
			case "method_definition":
				w.function(m, t.Field(m, "name"), "", c, decl{exported: true, docNode: m, node: m})
			default:
				w.walk(m, c)
			}
		}
	default:
		w.walk(v, c)
	}
}

// exportsProp handles exports.name = value.
func (w *walkState) exportsProp(name string, left, v int32, c *state, d decl) {
	t := w.t
	v = unwrap(t, v)
	d.exported = true
	nameNode := t.Field(left, "property")
	switch {
	case t.Kind(v) == "identifier":
		w.exportName(name, t.Text(v))
	case isFunc(t.Kind(v)):
		w.function(v, nameNode, name, c, d)
	case t.Kind(v) == "class":
		w.class(v, name, c, d)
	default:
		s := lang.Symbol{Kind: lang.KindVariable, Name: name, Parent: c.parent, Exported: true, Visibility: lang.VisExported}
		s.Doc = w.doc(d.docNode)
		s.Signature.Returns = valueType(t, v)
		s.Signature.Text = lang.Shorten(w.x.HeaderText(d.node, -1), 120)
		sym := w.x.AddSymbol(s, d.node, nameNode, v)
		w.walk(v, &state{sym: sym, parent: sym, scope: c.scope})
	}
}

// ownerMethod adds X.prototype.m = function / X.m = function as method m
// of X; X is the symbol of that name in the file when there is one.
func (w *walkState) ownerMethod(owner, name string, nameNode, fn int32, c *state, d decl, walkBody bool) {
	parent := c.parent
	container := owner
	for i := len(w.x.Facts.Symbols) - 1; i > 0; i-- {
		s := &w.x.Facts.Symbols[i]
		if s.Parent == c.parent && s.Qualified() == w.qualifiedIn(c.parent, owner) && s.Kind != lang.KindMethod {
			parent, container = i, ""
			break
		}
	}
	t := w.t
	s := lang.Symbol{Kind: lang.KindMethod, Name: name, Parent: parent, Container: container, Visibility: lang.VisPublic}
	if parent != c.parent {
		s.Exported = w.x.Facts.Symbols[parent].Exported
	}
	s.Doc = w.doc(d.docNode)
	scope := newFuncScope(c.scope)
	w.signature(&s.Signature, fn, scope, s.Doc)
	body := t.Field(fn, "body")
	if !walkBody {
		// another name of a function already walked
		s.Signature.Text = lang.OneLine(t.Text(d.node))
		w.x.AddSymbol(s, d.node, nameNode, -1)
		return
	}
	s.Signature.Text = w.x.HeaderText(d.node, body)
	sym := w.x.AddSymbol(s, d.node, nameNode, body)
	this := owner
	if parent != c.parent {
		this = w.x.Facts.Symbols[parent].Qualified()
	}
	mc := &state{sym: sym, parent: sym, scope: scope, this: this, top: true}
	if t.Kind(fn) == "arrow_function" {
		mc.this = c.this
	}
	w.walkFunctionParts(fn, body, mc)
}

// qualifiedIn is the qualified name a symbol called name declared under
// parent has.
func (w *walkState) qualifiedIn(parent int, name string) string {
	if parent <= 0 {
		return name
	}
	return w.x.Facts.Symbols[parent].Qualified() + "." + name
}

// localAssign learns types from x = new T() below the module level, and
// walks the assignment.
func (w *walkState) localAssign(n int32, c *state) {
	t := w.t
	left, right := t.Field(n, "left"), t.Field(n, "right")
	if left < 0 || right < 0 || t.Kind(left) != "identifier" {
		return
	}
	name := t.Text(left)
	if typ := valueType(t, right); typ != "" {
		c.scope.assign(name, typ, "")
	} else if uv := unwrap(t, right); t.Kind(uv) == "call_expression" {
		if fn := t.Field(uv, "function"); fn >= 0 {
			if _, ok := requireSource(t, uv); ok {
				return
			}
			c.scope.assign(name, "", render(t, fn))
		}
	}
}

// assign updates what the innermost scope that declares name knows.
func (s *scope) assign(name, typ, call string) {
	for sc := &s.Scope; sc != nil; sc = sc.Parent {
		if _, ok := sc.Types[name]; ok || sc.Parent == nil {
			if typ != "" {
				sc.SetType(name, typ)
			} else {
				sc.SetCall(name, call, "")
			}
			return
		}
	}
}

// ---- references

// render renders an expression used as a qualifier or callee on one
// line: a.b.c, this.x, f().g, with optional chaining and non-null
// assertions dropped.
func render(t *lang.Tree, n int32) string {
	var b strings.Builder
	renderTo(t, n, &b, 0)
	return b.String()
}

func renderTo(t *lang.Tree, n int32, b *strings.Builder, depth int) {
	if depth > 32 || b.Len() > 200 {
		b.WriteString("...")
		return
	}
	switch t.Kind(n) {
	case "identifier", "this", "super", "property_identifier", "private_property_identifier", "type_identifier":
		b.Write(t.Bytes(n))
	case "member_expression", "nested_identifier", "nested_type_identifier":
		obj := t.Field(n, "object")
		if obj < 0 {
			obj = t.Field(n, "module")
		}
		prop := t.Field(n, "property")
		if prop < 0 {
			prop = t.Field(n, "name")
		}
		if obj < 0 || prop < 0 {
			b.WriteString(lang.Shorten(lang.OneLine(t.Text(n)), 60))
			return
		}
		renderTo(t, obj, b, depth+1)
		b.WriteByte('.')
		b.Write(t.Bytes(prop))
	case "call_expression":
		if fn := t.Field(n, "function"); fn >= 0 {
			renderTo(t, fn, b, depth+1)
		}
		b.WriteString("()")
	case "subscript_expression":
		if obj := t.Field(n, "object"); obj >= 0 {
			renderTo(t, obj, b, depth+1)
		}
		b.WriteString("[]")
	case "parenthesized_expression", "non_null_expression", "await_expression":
		if c := t.FirstNamedChild(n); c >= 0 {
			if t.Kind(n) == "parenthesized_expression" && !simpleExpr(t.Kind(c)) {
				b.WriteString("(" + lang.Shorten(lang.OneLine(t.Text(c)), 40) + ")")
				return
			}
			renderTo(t, c, b, depth+1)
		}
	case "new_expression":
		b.WriteString("new ")
		if c := t.Field(n, "constructor"); c >= 0 {
			renderTo(t, c, b, depth+1)
		}
		b.WriteString("()")
	default:
		b.WriteString(lang.Shorten(lang.OneLine(t.Text(n)), 60))
	}
}

// simpleExpr reports the expressions a qualifier renders by their
// parts; others render as their text in parentheses.
func simpleExpr(kind string) bool {
	switch kind {
	case "identifier", "this", "super", "member_expression", "call_expression", "subscript_expression",
		"parenthesized_expression", "non_null_expression", "await_expression", "new_expression":
		return true
	}
	return false
}

// literalType is the runtime type of a literal used as a qualifier
// ('a,b'.split(), [1, 2].map()), whose methods are the runtime's.
func literalType(kind string) string {
	switch kind {
	case "string", "template_string":
		return "string"
	case "array":
		return "Array"
	case "number":
		return "number"
	case "regex":
		return "RegExp"
	case "object":
		return "Object"
	}
	return ""
}

// head is the first identifier of a rendered qualifier: "a" of a.b().c.
func head(q string) string {
	if i := strings.IndexAny(q, ".(["); i >= 0 {
		return q[:i]
	}
	return q
}

// qualified fills a reference's qualifier, and what is known of its
// type, from the object of a member expression.
func (w *walkState) qualified(r *lang.Ref, obj int32, c *state) {
	t := w.t
	r.Qualifier = render(t, obj)
	head := head(r.Qualifier)
	switch head {
	case "this":
		r.QualifierType = c.this
	case "super":
		r.QualifierType = c.super
	default:
		if !strings.HasPrefix(r.Qualifier, "new ") {
			r.QualifierType, r.QualifierCall = c.scope.lookup(head)
		}
	}
	u := unwrap(t, obj)
	switch t.Kind(u) {
	case "call_expression":
		if fn := t.Field(u, "function"); fn >= 0 {
			r.QualifierCall = render(t, fn)
		}
	case "new_expression", "as_expression", "satisfies_expression", "type_assertion":
		r.QualifierType = valueType(t, u)
		r.QualifierCall = ""
	default:
		if lt := literalType(t.Kind(u)); lt != "" {
			r.QualifierType, r.QualifierCall = lt, ""
		} else if !simpleExpr(t.Kind(u)) {
			r.QualifierType, r.QualifierCall = "", ""
		} else if i := strings.LastIndex(r.Qualifier, "()"); i > 0 && r.QualifierCall == "" && !strings.HasPrefix(r.Qualifier, "new ") {
			// f().a.b: the fields of what f returns
			r.QualifierCall = r.Qualifier[:i]
		}
	}
}

func (w *walkState) call(n int32, c *state) {
	t := w.t
	fn := t.Field(n, "function")
	if fn < 0 {
		return
	}
	if src, ok := requireSource(t, n); ok {
		w.addImport(lang.Import{Source: src, Line: t.StartLine(n), Symbol: c.sym})
		return
	}
	w.valueArgs(t.Field(n, "arguments"), c)
	fn = t.Unwrap(fn, calleeWrappers)
	switch t.Kind(fn) {
	case "identifier":
		name := t.Text(fn)
		if name == "require" {
			return
		}
		if c.scope.local(name) {
			return // a callback or function value held in a local
		}
		r := lang.Ref{Kind: lang.RefCall, Name: name, Symbol: c.sym}
		w.x.Ref(r, n)
	case "member_expression":
		prop := t.Field(fn, "property")
		obj := t.Field(fn, "object")
		if prop < 0 || obj < 0 {
			return
		}
		if _, ok := requireSource(t, unwrap(t, obj)); ok {
			return // require('x').f(): the import is recorded, f is theirs
		}
		r := lang.Ref{Kind: lang.RefCall, Name: t.Text(prop), Symbol: c.sym}
		w.qualified(&r, obj, c)
		if r.Qualifier == "" {
			return
		}
		w.x.Ref(r, n)
	case "super":
		// super(...): the base class's constructor
		if c.super != "" {
			w.x.Ref(lang.Ref{Kind: lang.RefCall, Name: "constructor", Qualifier: "super", QualifierType: c.super, Symbol: c.sym}, n)
		}
	}
}

// valueArgs records the names passed as arguments that may be functions
// or methods, called later by the callee (app.get("/", handler),
// arr.map(parse), emitter.on("x", this.onX)). Extraction cannot tell them
// from variables and properties: resolution keeps a reference only when it
// binds a function or method (Language.Resolve).
func (w *walkState) valueArgs(args int32, c *state) {
	t := w.t
	if args < 0 || t.Kind(args) != "arguments" {
		return
	}
	for a := range t.NamedChildren(args) {
		switch t.Kind(a) {
		case "identifier":
			if name := t.Text(a); !c.scope.local(name) {
				w.x.Ref(lang.Ref{Kind: lang.RefReference, Name: name, Symbol: c.sym}, a)
			}
		case "member_expression":
			prop, obj := t.Field(a, "property"), t.Field(a, "object")
			if prop < 0 || obj < 0 {
				continue
			}
			r := lang.Ref{Kind: lang.RefReference, Name: t.Text(prop), Symbol: c.sym}
			w.qualified(&r, obj, c)
			if r.Qualifier != "" {
				w.x.Ref(r, a)
			}
		}
	}
}

// calleeWrappers are what unwrapping a callee looks through: (f)(), f!(),
// and TypeScript's f<T>().
var calleeWrappers = lang.KindSet("parenthesized_expression", "non_null_expression", "instantiation_expression")

func (w *walkState) newExpr(n int32, c *state) {
	t := w.t
	ctor := t.Field(n, "constructor")
	if ctor < 0 {
		return
	}
	ctor = t.Unwrap(ctor, calleeWrappers)
	switch t.Kind(ctor) {
	case "identifier":
		if c.scope.local(t.Text(ctor)) {
			return // new Class() of a class passed in
		}
		w.x.Ref(lang.Ref{Kind: lang.RefNew, Name: t.Text(ctor), Symbol: c.sym}, n)
	case "member_expression":
		prop, obj := t.Field(ctor, "property"), t.Field(ctor, "object")
		if prop < 0 || obj < 0 {
			return
		}
		r := lang.Ref{Kind: lang.RefNew, Name: t.Text(prop), Symbol: c.sym}
		w.qualified(&r, obj, c)
		w.x.Ref(r, n)
	}
}

// jsxRef records the use of a component, <Button /> or <ui.Button>, as a
// call of it; lower-case tags are HTML elements.
func (w *walkState) jsxRef(n int32, c *state) {
	t := w.t
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	switch t.Kind(name) {
	case "identifier":
		if s := t.Text(name); lang.IsUpper(s) {
			w.x.Ref(lang.Ref{Kind: lang.RefCall, Name: s, Symbol: c.sym}, n)
		}
	case "member_expression":
		prop, obj := t.Field(name, "property"), t.Field(name, "object")
		if prop >= 0 && obj >= 0 {
			r := lang.Ref{Kind: lang.RefCall, Name: t.Text(prop), Symbol: c.sym}
			w.qualified(&r, obj, c)
			w.x.Ref(r, n)
		}
	}
}

// guard records if (cond) return/throw at the top of a function body.
func (w *walkState) guard(n int32, c *state) {
	t := w.t
	cond, cons := t.Field(n, "condition"), t.Field(n, "consequence")
	if cond < 0 || cons < 0 || t.Field(n, "alternative") >= 0 {
		return
	}
	first := cons
	if t.Kind(cons) == "statement_block" {
		first = t.FirstNamedChild(cons)
	}
	if first < 0 {
		return
	}
	condText := t.UnparenText(cond)
	switch t.Kind(first) {
	case "return_statement":
		w.x.Guard(c.sym, condText, t.ReturnAction(first), n)
	case "throw_statement":
		w.x.Guard(c.sym, condText, "throw", n)
	}
}

// throw records throw <expr>: what is thrown, by class when it is
// constructed.
func (w *walkState) throw(n int32, c *state) {
	t := w.t
	v := t.FirstNamedChild(n)
	if v < 0 || t.IsComment(v) {
		return
	}
	what := lang.OneLine(t.Text(v))
	if u := unwrap(t, v); t.Kind(u) == "new_expression" {
		if ctor := t.Field(u, "constructor"); ctor >= 0 {
			what = render(t, ctor)
			if args := t.Field(u, "arguments"); args >= 0 {
				if a := t.FirstNamedChild(args); a >= 0 && t.IsString(a) {
					what += "(" + lang.Shorten(lang.OneLine(t.Text(a)), 60) + ")"
				}
			}
		}
	}
	w.x.Throw(c.sym, "throws", what, n)
}

// kids yields the named children of n that are not comments. Unlike
// Tree.NamedChildren it keeps ERROR nodes, which tree-sitter marks as
// extras, so that what they recovered is still walked.
func kids(t *lang.Tree, n int32) func(yield func(int32) bool) {
	return func(yield func(int32) bool) {
		end := t.Nodes[n].End
		for c := n + 1; c < end; c = t.Nodes[c].End {
			f := t.Nodes[c].Flags
			if f&lang.FlagNamed != 0 && (f&lang.FlagExtra == 0 || f&lang.FlagError != 0) {
				if !yield(c) {
					return
				}
			}
		}
	}
}

// separateCallSignatures returns src with a semicolon before each generic
// call signature that only a line break separates from the member before
// it: tree-sitter-typescript (#335) reads "E[Key]\n  <K extends X>(k: K)"
// as a comparison and the error swallows the rest of the file (38 of the 58
// types of hono's src/types.ts). The semicolon takes the place of the
// indentation character before '<', so every offset and line holds. A line
// qualifies when it is indented, starts a type parameter list ("<T>",
// "<T,", "<T =", "<T extends", or "<" alone) and the line before does not
// end in something an expression continues from (an operator, an opener,
// "=>"). TSX is left alone: there a line starting with '<' is JSX. The
// same way, "export type * from" loses its "type", which the grammar does
// not know there (TypeScript 5.0).
func separateCallSignatures(src []byte) []byte {
	var out []byte
	var prev []byte // the last non-blank line, trimmed
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := src[start:end]
		body := bytes.TrimLeft(line, " \t")
		indent := len(line) - len(body)
		if indent > 0 && typeParamsStart(body) && !continues(prev) {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[start+indent-1] = ';'
		} else if k := exportTypeStar(body); k >= 0 {
			// "export type * from" (TypeScript 5.0) is a syntax error to
			// the grammar; without "type" it is the same re-export
			if out == nil {
				out = bytes.Clone(src)
			}
			copy(out[start+indent+k:], "    ")
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			prev = t
		}
		start = end + 1
	}
	if out == nil {
		return src
	}
	return out
}

// typeParamsStart reports whether a line (indentation removed) opens a
// type parameter list: "<" alone, or "<Name" followed by ">", ",", "=" or
// "extends".
func typeParamsStart(b []byte) bool {
	if len(b) == 0 || b[0] != '<' {
		return false
	}
	rest := bytes.TrimLeft(b[1:], " \t")
	if len(bytes.TrimSpace(rest)) == 0 {
		return true
	}
	n := 0
	for n < len(rest) && (rest[n] == '_' || rest[n] == '$' || 'a' <= rest[n] && rest[n] <= 'z' ||
		'A' <= rest[n] && rest[n] <= 'Z' || n > 0 && '0' <= rest[n] && rest[n] <= '9') {
		n++
	}
	if n == 0 {
		return false
	}
	after := bytes.TrimLeft(rest[n:], " \t")
	return len(after) > 0 && (after[0] == '>' || after[0] == ',' || after[0] == '=') ||
		bytes.HasPrefix(after, []byte("extends ")) || bytes.HasPrefix(after, []byte("extends\t"))
}

// continues reports whether a trimmed line ends where the next line
// continues it: after an operator, an opening bracket, a separator or "=>".
func continues(line []byte) bool {
	if len(line) == 0 {
		return true
	}
	if bytes.HasSuffix(line, []byte("=>")) {
		return true
	}
	return strings.IndexByte(";{,(<[|&=:?+-*/%!~^.", line[len(line)-1]) >= 0
}

// exportTypeStar returns the offset of "type" in a line (indentation
// removed) that starts "export type *", else -1.
func exportTypeStar(b []byte) int {
	rest, ok := bytes.CutPrefix(b, []byte("export"))
	if !ok {
		return -1
	}
	t := bytes.TrimLeft(rest, " \t")
	if len(t) == len(rest) {
		return -1
	}
	after, ok := bytes.CutPrefix(t, []byte("type"))
	if !ok {
		return -1
	}
	star := bytes.TrimLeft(after, " \t")
	if len(star) == len(after) || len(star) == 0 || star[0] != '*' {
		return -1
	}
	return len(b) - len(t)
}
