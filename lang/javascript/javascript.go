// Package javascript is sdl's room for JavaScript, TypeScript and TSX,
// which share one walker (the TypeScript grammars extend the JavaScript
// one). Definitions come from javascript.scm (and fields.scm for
// JavaScript's class fields, typescript.scm for TypeScript's own kinds),
// named and completed by the hooks of defs.go; the walk here types values,
// records calls, guards and side effects, imports and exports. Resolution
// goes through relative and package imports (package.json:
// javascript.Packages), exports and base types; the skeleton rules read
// braced bodies.
package javascript

import (
	"bytes"
	"embed"
	"path"
	"slices"
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

// the query files: javascript.scm for the family, fields.scm for
// JavaScript's class fields, typescript.scm for TypeScript's own kinds
var (
	//go:embed javascript.scm
	jsTags string
	//go:embed fields.scm
	jsFields string
	//go:embed typescript.scm
	tsTags string
)

func init() {
	comments := []string{"comment", "html_comment"}
	strs := []string{"string", "template_string", "regex"}
	idents := []string{"identifier", "property_identifier", "private_property_identifier", "shorthand_property_identifier",
		"shorthand_property_identifier_pattern", "type_identifier", "statement_identifier"}
	// the kinds javascript.scm's patterns start at; typescript.scm's add
	// theirs
	roots := []string{"function_declaration", "generator_function_declaration", "function_expression", "generator_function",
		"class_declaration", "class", "variable_declarator", "class_body", "export_statement", "lexical_declaration",
		"variable_declaration", "expression_statement"}
	spec := func(name string, ext []string, grammar unsafe.Pointer, fixup func([]byte) []byte, query string, roots []string) lang.Spec {
		return lang.Spec{
			Name: name, Extensions: ext, Grammar: grammar, Fixup: fixup,
			Query: query, QueryFile: "lang/javascript/javascript.scm+" + name, QueryRoots: roots, QueryRoot: queryRoot,
			Comments: comments, Strings: strs, Idents: idents,
			Data: data, Builtins: lang.WordFile(data, "builtins.txt"),
			Defs: defs, Symbol: symbol, Ref: baseName, OwnDocs: true, OwnBases: true, Finish: extract,
			Resolver: lang.Resolvers{Ref: resolve, Import: resolveImport}, SkelRules: skeleton, Project: PackagesReader{},
		}
	}
	lang.Register(spec("javascript", []string{".js", ".jsx", ".mjs", ".cjs"}, grammar.JavaScript(), loneAmpersands, jsTags+jsFields, roots))
	tsRoots := append(slices.Clone(roots), "interface_declaration", "type_alias_declaration", "enum_declaration",
		"internal_module", "module", "function_signature", "abstract_class_declaration")
	lang.Register(spec("typescript", []string{".ts", ".mts", ".cts"}, grammar.TypeScript(),
		func(src []byte) []byte { return keywordNames(separateCallSignatures(src)) }, jsTags+tsTags, tsRoots))
	lang.Register(spec("tsx", []string{".tsx"}, grammar.TSX(),
		func(src []byte) []byte { return keywordNames(loneAmpersands(src)) }, jsTags+tsTags, tsRoots))
}

// baseName reads the base an interface extends, ns.Base<T>, as Base of
// ns.
func baseName(_ *lang.Tree, _ *lang.Match, r *lang.Ref) bool {
	r.Name, r.Qualifier = splitType(lang.OneLine(r.Name))
	return true
}

// queryRoot spares running the query from the roots that are every
// callback and local of a file: a declarator defines only a function or
// class, a function or class expression only when it is named, an export
// only as export default <value>, a declaration, an assignment or an
// object only at the level of the module or a namespace.
func queryRoot(t *lang.Tree, n int32) bool {
	switch t.Kind(n) {
	case "variable_declarator":
		v := t.Field(n, "value")
		if v >= 0 && t.Kind(v) == "parenthesized_expression" {
			v = t.FirstNamedChild(v)
		}
		return v >= 0 && (isFunc(t.Kind(v)) || t.Kind(v) == "class" || t.Kind(v) == "object" && level(t, t.Parent(n)))
	case "function_expression", "generator_function", "class":
		return t.Field(n, "name") >= 0
	case "export_statement":
		return t.Field(n, "value") >= 0
	case "lexical_declaration", "variable_declaration":
		return level(t, n)
	case "expression_statement":
		e := t.FirstNamedChild(n)
		return e >= 0 && t.Kind(e) == "assignment_expression" && level(t, n)
	}
	return true
}

// level reports a statement of the module or of a namespace (under export
// or declare, or in code the parser gave up on there), whose declarations
// are symbols as a function's are not.
func level(t *lang.Tree, n int32) bool {
	p := t.Parent(n)
	for p > 0 && (t.Kind(p) == "ERROR" || t.Kind(p) == "export_statement" || t.Kind(p) == "ambient_declaration") {
		p = t.Parent(p)
	}
	if p > 0 && t.Kind(p) == "statement_block" {
		k := t.Kind(t.Parent(p))
		return k == "internal_module" || k == "module" || k == "ambient_declaration"
	}
	return p <= 0
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
// Entity), also as a part of an intersection (T & { x: number }); other
// types are returned as they are.
func (s *scope) constraint(typ string) string {
	return bindTypeParams(typ, func(name string) (string, bool) { return s.TypeVar(name) })
}

// bindTypeParams writes the constraint of each type parameter typ is, or
// each part of its intersection is, in its place; bound says a name's
// constraint, "" for a parameter without one: nothing is known of it.
func bindTypeParams(typ string, bound func(name string) (string, bool)) string {
	if !strings.Contains(typ, "&") {
		if c, ok := bound(strings.TrimSpace(typ)); ok {
			return c
		}
		return typ
	}
	parts := splitTop(typ)
	if len(parts) < 2 || !plainIntersection(typ) {
		return typ
	}
	changed := false
	for i, p := range parts {
		if c, ok := bound(strings.TrimSpace(p)); ok {
			parts[i], changed = " "+c+" ", true
		}
	}
	if !changed {
		return typ
	}
	return strings.TrimSpace(strings.Join(parts, "&"))
}

// typeParams are the type parameters of a type_parameters node that have
// a constraint, each with it as its Type.
func typeParams(t *lang.Tree, list int32) []lang.Param {
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for p := range t.NamedChildren(list) {
		name := t.FieldText(p, "name")
		if cn := t.Field(p, "constraint"); name != "" && cn >= 0 {
			if ty := t.FirstNamedChild(cn); ty >= 0 {
				out = append(out, lang.Param{Name: name, Type: lang.OneLine(t.Text(ty))})
			}
		}
	}
	return out
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

// state is where the walk is: the symbol references belong to, and what
// `this` means.
type state struct {
	sym   int
	scope *scope
	this  string // the type `this` stands for, "" when unknown
	super string // the base class of `this`
	top   bool   // the statements of a function's own body (guards)
}

type walkState struct {
	x *lang.Extractor
	t *lang.Tree

	// exportAs is the module's export table for what is not exported
	// where it is declared: Name is the exported name, Type the local
	// name (export { a as b }, export default a, module.exports = {b: a})
	// or, with Default the module it comes from, the imported name
	// (export { a as b } from './x'; "*" for export * [as ns]). The
	// module symbol's Fields keep it for resolution.
	exportAs  []lang.Param
	exportIDs map[string]bool // local names exported by a list or CommonJS
	// syms are the symbols the query made, by their node (the first of
	// a destructuring's names)
	syms map[int32]int
}

// extract walks the file the query's symbols were made of: it types
// locals, records calls, guards and throws in the symbol they are made in,
// and reads the module's imports and exports.
func extract(x *lang.Extractor) {
	w := &walkState{x: x, t: x.Tree, syms: make(map[int32]int, len(x.SymNode))}
	x.Facts.Module = moduleName(x.Path)
	x.Facts.Symbols[0].Name = path.Base(x.Facts.Module)
	for i := len(x.SymNode) - 1; i > 0; i-- {
		w.syms[x.SymNode[i]] = i
	}
	w.moduleDoc()
	w.block(0, &state{scope: newScope(nil)})
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

// block walks the children of n: the statements of the program, a
// namespace body, a recovered ERROR node.
func (w *walkState) block(n int32, c *state) {
	for s := range kids(w.t, n) {
		w.walk(s, c)
	}
}

// walk visits node n: it enters the symbols the query made, types locals
// and records calls.
func (w *walkState) walk(n int32, c *state) {
	t := w.t
	switch t.Kind(n) {
	case "import_statement":
		w.importStmt(n, c)
		return
	case "export_statement":
		w.exportStmt(n, c)
		return
	case "lexical_declaration", "variable_declaration", "using_declaration":
		w.varDecl(n, c)
		return
	case "internal_module", "module":
		if sym, ok := w.syms[n]; ok && t.Field(n, "body") >= 0 {
			w.block(t.Field(n, "body"), &state{sym: sym, scope: newScope(c.scope)})
		} else if body := t.Field(n, "body"); body >= 0 && t.Field(n, "name") < 0 {
			w.block(body, c)
		}
		return
	case "interface_declaration", "type_alias_declaration", "enum_declaration":
		return // types: an interface's bases are typescript.scm's
	case "class_declaration", "abstract_class_declaration", "class":
		if sym, ok := w.syms[n]; ok {
			w.class(n, sym, c)
		} else {
			w.block(n, c)
		}
		return
	case "function_declaration", "generator_function_declaration", "function_signature", "function_expression",
		"generator_function", "arrow_function", "function", "method_definition", "pair", "expression_statement":
		if e := t.FirstNamedChild(n); t.Kind(n) == "expression_statement" && level(t, n) && t.Kind(e) == "assignment_expression" {
			w.exportNames(e)
		}
		if sym, ok := w.syms[n]; ok {
			w.enter(sym, valueOf(t, n), c)
			return
		}
		switch t.Kind(n) {
		case "method_definition", "pair", "expression_statement":
		default:
			w.function(n, c.sym, c) // a callback
			return
		}
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
				declarePattern(t, l, c.scope)
			}
		}
	case "catch_clause":
		if p := t.Field(n, "parameter"); p >= 0 {
			if t.Kind(p) == "identifier" {
				c.scope.declare(t.Text(p))
			} else {
				declarePattern(t, p, c.scope)
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
			w.block(n, c)
			return
		}
	case "ERROR":
		w.block(n, c)
		return
	}
	if c.top {
		// below the function body's own statements nothing is a guard
		inner := *c
		inner.top = false
		c = &inner
	}
	w.block(n, c)
}

// functions are the nodes of functions and methods, with a body or not.
var functions = lang.KindSet("arrow_function", "function_expression", "generator_function", "function", "function_declaration",
	"generator_function_declaration", "function_signature", "method_definition", "method_signature", "abstract_method_signature")

// enter walks what symbol sym, defined by v (a function, a class, a
// variable's value), holds; it returns a function's scope.
func (w *walkState) enter(sym int, v int32, c *state) *scope {
	switch k := w.t.Kind(v); {
	case k == "class":
		w.class(v, sym, c)
	case functions[k]:
		return w.function(v, sym, c)
	case v != w.x.SymNode[sym]:
		w.walk(v, &state{sym: sym, scope: c.scope, this: c.this, super: c.super})
	}
	return nil
}

// function walks function v, the code of symbol sym, or of a callback
// when sym is the symbol around it (c.sym: no guards of its own), and
// returns its scope. A function has its own this; a method's is its
// container; an arrow function's is the code's around it.
func (w *walkState) function(v int32, sym int, c *state) *scope {
	t, s := w.t, &w.x.Facts.Symbols[sym]
	scope := newFuncScope(c.scope)
	doc := ""
	if sym != c.sym {
		doc = s.Doc
	}
	signature(t, &lang.Signature{}, v, scope, doc, t.Lang.Name != "javascript")
	fc := &state{sym: sym, scope: scope, this: c.this, super: c.super, top: sym != c.sym}
	if t.Kind(v) != "arrow_function" {
		fc.this, fc.super = "", ""
		if sym != c.sym && s.Kind != lang.KindFunction {
			fc.this, fc.super = s.Container, c.super
		}
	}
	w.walkFunctionParts(v, t.Field(v, "body"), fc)
	return scope
}

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
					imp.Names = append(imp.Names, specifiers(t, e, "import_specifier")...)
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

// specifiers are the names of an import or export list, { a, b as c }.
func specifiers(t *lang.Tree, list int32, kind string) []lang.ImportName {
	var out []lang.ImportName
	for s := range t.NamedChildren(list) {
		if t.Kind(s) == kind {
			name, alias := nameText(t, t.Field(s, "name")), nameText(t, t.Field(s, "alias"))
			if alias == name {
				alias = ""
			}
			out = append(out, lang.ImportName{Name: name, Alias: alias})
		}
	}
	return out
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
		w.walk(d, c)
		if name := t.Field(d, "name"); isDefault && name >= 0 && c.sym == 0 {
			w.exportName("default", t.Text(name))
		}
		return
	}
	if v := t.Field(n, "value"); v >= 0 {
		// export default <expression>
		if t.Kind(v) == "identifier" {
			w.exportName("default", t.Text(v))
		} else {
			w.walk(v, c)
		}
		return
	}
	src := t.Field(n, "source")
	var names []lang.ImportName
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "export_clause":
			names = append(names, specifiers(t, ch, "export_specifier")...)
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
		w.exportName(nm.Local(), nm.Name)
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

// finishExports marks the symbols that export lists and CommonJS
// assignments export and the members exported with what holds them (a
// class, an object, the function whose prototype they extend), and leaves
// the export aliases on the module symbol.
func (w *walkState) finishExports() {
	f := w.x.Facts
	for i := 1; i < len(f.Symbols); i++ {
		switch s, p := &f.Symbols[i], f.Symbols[i].Parent; {
		case p == 0 && s.Container == "" && w.exportIDs[s.Name] && !s.Exported:
			s.Exported = true
			if s.Visibility == lang.VisInternal {
				s.Visibility = lang.VisExported
			}
		case p > 0 && (s.Kind == lang.KindMethod || s.Kind == lang.KindConstructor ||
			s.Kind == lang.KindVariable && lang.IsTypeKind(f.Symbols[p].Kind)):
			s.Exported = f.Symbols[p].Exported && s.Visibility == lang.VisPublic
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

// signature fills params, returns, generics and modifiers of a function
// node and declares its parameters in scope; ts says types come from
// annotations, not JSDoc.
func signature(t *lang.Tree, sig *lang.Signature, n int32, scope *scope, doc string, ts bool) {
	scope.addTypeParams(t, t.Field(n, "type_parameters"))
	if ps := t.Field(n, "parameters"); ps >= 0 {
		sig.Params = params(t, ps, scope)
	} else if p := t.Field(n, "parameter"); p >= 0 {
		// x => ...
		sig.Params = []lang.Param{{Name: t.Text(p)}}
		scope.declare(t.Text(p))
	}
	if rt := t.Field(n, "return_type"); rt >= 0 {
		sig.Returns = typeText(t, rt)
	}
	sig.Generics = t.ItemTexts(t.Field(n, "type_parameters"))
	sig.TypeParams = typeParams(t, t.Field(n, "type_parameters"))
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
	if !ts && doc != "" {
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
func params(t *lang.Tree, list int32, scope *scope) []lang.Param {
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
			declarePattern(t, pat, scope)
			if t.Kind(pat) == "object_pattern" {
				patternTypes(t, pat, t.Field(p, "type"), scope)
			}
		}
		out = append(out, prm)
	}
	return out
}

// patternTypes types the names of a destructured parameter, { a, b: c }:
// by the members of an object type written in place, or as T['a'] of a
// named type T, which resolution looks up.
func patternTypes(t *lang.Tree, pat, ann int32, scope *scope) {
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
				declarePattern(t, name, scope)
			}
		}
	}
}

// declarePattern declares the names a destructuring pattern binds.
func declarePattern(t *lang.Tree, pat int32, scope *scope) {
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
func doc(t *lang.Tree, node int32) string {
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

// class walks class n, the code of symbol sym: its bases, decorators and
// members.
func (w *walkState) class(n int32, sym int, c *state) {
	t := w.t
	superName := ""
	bases := heritage(t, n)
	for _, b := range bases {
		if b.kind == lang.RefExtends {
			superName = typeName(b.text)
			break
		}
	}
	cscope := c.scope
	if tp := t.Field(n, "type_parameters"); tp >= 0 {
		cscope = newScope(c.scope)
		cscope.addTypeParams(t, tp)
	}
	cc := &state{sym: sym, scope: cscope, this: w.x.Facts.Symbols[sym].Qualified(), super: superName}
	for _, b := range bases {
		if t.Kind(b.node) == "call_expression" {
			w.walk(b.node, cc)
		} else {
			r := lang.Ref{Kind: b.kind, Symbol: sym}
			r.Name, r.Qualifier = splitType(lang.OneLine(t.Text(b.node)))
			w.x.Ref(r, b.node)
		}
	}
	for dec := range t.Children(n) {
		if t.FieldName(dec) == "decorator" {
			w.walk(dec, cc)
		}
	}
	body := t.Field(n, "body")
	if body < 0 {
		return
	}
	// its fields: declared, constructor parameter properties, this.x =
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
	var decorators []int32
	for m := range kids(w.t, body) {
		switch t.Kind(m) {
		case "decorator":
			decorators = append(decorators, m)
			continue
		case "class_static_block":
			w.block(m, &state{sym: sym, scope: newFuncScope(cscope), this: cc.this, super: cc.super})
		}
		ms, ok := w.syms[m]
		if !ok {
			continue
		}
		for _, dec := range decorators {
			w.walk(dec, &state{sym: ms, scope: cscope, this: cc.this, super: cc.super})
		}
		decorators = decorators[:0]
		var mscope *scope
		if v := valueOf(t, m); v != m || t.Kind(m) == "method_definition" {
			mscope = w.enter(ms, v, cc)
		}
		switch s := &w.x.Facts.Symbols[ms]; s.Kind {
		case lang.KindVariable:
			addField(lang.Param{Name: s.Name, Type: s.Signature.Returns, Optional: optionalAfter(t, t.Field(m, "name"))})
		case lang.KindConstructor:
			ps, mbody := t.Field(m, "parameters"), t.Field(m, "body")
			if ps < 0 || mbody < 0 || mscope == nil {
				continue // what the parser recovered of one
			}
			// constructor(private db: Db)
			for p := range t.NamedChildren(ps) {
				pat := t.Field(p, "pattern")
				if pat >= 0 && t.Kind(pat) == "identifier" && (t.ChildOfKind(p, "accessibility_modifier") >= 0 ||
					t.ChildOfKind(p, "readonly") >= 0 || t.ChildOfKind(p, "override_modifier") >= 0) {
					addField(lang.Param{Name: t.Text(pat), Type: typeText(t, t.Field(p, "type")), Optional: t.Kind(p) == "optional_parameter"})
				}
			}
			for _, f := range thisFields(t, mbody, mscope) {
				addField(f)
			}
		}
	}
	w.x.Facts.Symbols[sym].Signature.Fields = fields
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
func thisFields(t *lang.Tree, body int32, scope *scope) []lang.Param {
	var out []lang.Param
	for st := range kids(t, body) {
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

// varDecl handles const/let/var: a symbol's value is walked as its code;
// require() and import() are imports; the names of other values are typed
// locals.
func (w *walkState) varDecl(n int32, c *state) {
	t := w.t
	decls := declarators(t, n)
	for _, v := range decls {
		nameNode := t.Field(v, "name")
		val := t.Field(v, "value")
		if nameNode < 0 {
			continue
		}
		node := v
		if len(decls) == 1 {
			node = n
		}
		if val >= 0 && w.requireDecl(nameNode, val, c) {
			continue
		}
		if val >= 0 && t.Kind(val) == "assignment_expression" && t.Kind(nameNode) == "identifier" {
			// var app = exports = module.exports = {}: app is the
			// module's export, the innermost value its value
			targets, right := chain(t, val)
			for _, l := range targets {
				if c.sym == 0 && render(t, l) == "module.exports" {
					w.exportName("default", t.Text(nameNode))
				}
			}
			if right >= 0 {
				val = right
			}
		}
		sym, isSym := w.syms[node]
		if val >= 0 && t.Kind(nameNode) == "identifier" {
			if uv := unwrap(t, val); isFunc(t.Kind(uv)) || t.Kind(uv) == "class" {
				if isSym {
					w.enter(sym, uv, c)
				} else {
					w.walk(uv, c)
				}
				continue
			}
		}
		typ, call := varType(t, v, val, node), ""
		if uv := unwrap(t, val); typ == "" && val >= 0 && t.Kind(uv) == "call_expression" {
			if fn := t.Field(uv, "function"); fn >= 0 {
				call = render(t, fn)
			}
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
			declarePattern(t, nameNode, c.scope)
		}
		if val < 0 {
			continue
		}
		if isSym {
			w.walk(val, &state{sym: sym, scope: c.scope})
		} else {
			w.walk(val, c)
		}
	}
}

// exportNames records what a module level assignment exports under
// another name: module.exports = a, module.exports = { a, b: c },
// exports.x = a.
func (w *walkState) exportNames(e int32) {
	t := w.t
	targets, right := chain(t, e)
	for _, l := range targets {
		switch lt := render(t, l); {
		case lt == "module.exports" || lt == "exports":
			if lt == "exports" && len(targets) == 1 {
				continue // rebinding exports alone exports nothing
			}
			switch t.Kind(right) {
			case "identifier":
				w.exportName("default", t.Text(right))
			case "class":
				if name := t.Field(right, "name"); name >= 0 {
					w.exportName("default", t.Text(name)) // module.exports = class Cursor {}
				}
			case "object":
				for m := range kids(w.t, right) {
					switch t.Kind(m) {
					case "shorthand_property_identifier":
						w.exportName(t.Text(m), t.Text(m))
					case "pair":
						key, val := propName(t, t.Field(m, "key")), t.Field(m, "value")
						if val >= 0 && key != "" && t.Kind(unwrap(t, val)) == "identifier" {
							w.exportName(key, t.Text(unwrap(t, val)))
						}
					}
				}
			}
			return
		case strings.HasPrefix(lt, "module.exports.") || strings.HasPrefix(lt, "exports."):
			if name := strings.TrimPrefix(strings.TrimPrefix(lt, "module."), "exports."); !strings.ContainsAny(name, ".([") && t.Kind(right) == "identifier" {
				w.exportName(name, t.Text(right))
			}
			return
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

// requireDecl handles const x = require('y'), const {a, b: c} =
// require('y') and const m = await import('y') as imports.
func (w *walkState) requireDecl(nameNode, val int32, c *state) bool {
	t := w.t
	src, member, ok := required(t, val)
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
		declarePattern(t, nameNode, c.scope)
	default:
		declarePattern(t, nameNode, c.scope)
	}
	w.addImport(imp)
	return true
}

// required reads a value that is require('y'), require('y').x (member
// x) or import('y').
func required(t *lang.Tree, val int32) (src, member string, ok bool) {
	call := unwrap(t, val)
	if t.Kind(call) == "member_expression" {
		member, call = t.FieldText(call, "property"), t.Field(call, "object")
	}
	src, ok = requireSource(t, call)
	return src, member, ok
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
// and TypeScript's f<T>(); and "await f<T>(x)", which the TypeScript
// grammars read as a call of "await f" (the type arguments bind the call
// to the await), a call of f all the same.
var calleeWrappers = lang.KindSet("parenthesized_expression", "non_null_expression", "instantiation_expression", "await_expression")

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

// loneAmpersands returns src with '|' for each '&' that is neither part of
// "&&" or "&=" nor the start of a character reference (&amp; &#38;
// &#x26;). The JSX grammars end JSX text at '&' and accept only a
// character reference after it, in text and in attribute strings alike,
// so "Terms & Conditions" and href="/?a=1&utm_source=x" were syntax
// errors (trpc's footer.tsx and media.tsx). Elsewhere '|' keeps the
// code's shape: a | b for a & b, the union A | B for the intersection
// A & B, other text inside a string, a regex or a comment; answers and
// fingerprints read the file's own text, not this.
func loneAmpersands(src []byte) []byte {
	var out []byte
	for i := bytes.IndexByte(src, '&'); i >= 0; {
		if (i == 0 || src[i-1] != '&') && (i+1 == len(src) || src[i+1] != '&' && src[i+1] != '=') && !charRef(src[i+1:]) {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[i] = '|'
		}
		j := bytes.IndexByte(src[i+1:], '&')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if out == nil {
		return src
	}
	return out
}

// keywordNames returns src with '_' for the first letter of each
// "abstract", "accessor" and "using" that is a name, not the keyword: the
// TypeScript grammars read those words as modifiers or a declaration
// wherever they stand, so a property "abstract?: boolean", a method
// "accessor()" and a variable "using" read in "${using}" or "f(using)"
// were syntax errors (mikro-orm's typings.ts, defineEntity.ts and
// SchemaHelper.ts, 50 errors in the last). A word is a name when what
// follows it cannot follow the keyword: for the modifiers, one of
// "?:(<=;,)!}" or the end; for "using", anything but a name
// ("using x = f()", "await using x") or a word that continues an
// expression ("using as T"). "_bstract" is a name of the same length;
// the tree keeps the file's text.
func keywordNames(src []byte) []byte {
	var out []byte
	for _, w := range [...]string{"abstract", "accessor", "using"} {
		for i := 0; ; {
			k := bytes.Index(src[i:], []byte(w))
			if k < 0 {
				break
			}
			k += i
			i = k + len(w)
			if k > 0 && identByte(src[k-1]) || i < len(src) && identByte(src[i]) || !keywordAsName(w, src[i:]) {
				continue
			}
			if out == nil {
				out = bytes.Clone(src)
			}
			out[k] = '_'
		}
	}
	if out == nil {
		return src
	}
	return out
}

// keywordAsName reports whether keyword w, followed by rest, is a name.
func keywordAsName(w string, rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if len(rest) == 0 {
		return true
	}
	if w != "using" {
		return bytes.IndexByte([]byte("?:(<=;,)!}"), rest[0]) >= 0
	}
	if !identByte(rest[0]) || '0' <= rest[0] && rest[0] <= '9' {
		return true
	}
	n := 0
	for n < len(rest) && identByte(rest[n]) {
		n++
	}
	switch string(rest[:n]) {
	case "as", "satisfies", "instanceof", "in":
		return true
	}
	return false
}

// identByte reports whether c can be part of a JavaScript name (a byte
// of a UTF-8 sequence counts as one).
func identByte(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// charRef reports whether b (what follows a '&') completes an HTML
// character reference as the JSX grammars read one: a name of up to 30
// letters, # and up to 5 digits, or #x and up to 6 hex digits, then ';'.
func charRef(b []byte) bool {
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	hex := func(c byte) bool { return digit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	letter := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
	class, limit := letter, 30
	if len(b) > 0 && b[0] == '#' {
		b, class, limit = b[1:], digit, 5
		if len(b) > 0 && (b[0] == 'x' || b[0] == 'X') {
			b, class, limit = b[1:], hex, 6
		}
	}
	n := 0
	for n < len(b) && n <= limit && class(b[n]) {
		n++
	}
	return n > 0 && n <= limit && n < len(b) && b[n] == ';'
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
