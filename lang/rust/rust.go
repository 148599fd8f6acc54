// Package rust is sdl's room for Rust: items come from tags.scm, and
// defs.go says what their attributes, modifiers and doc comments make of
// them and adds the functions macros declare; this file walks the file,
// placing the items where it meets them, and the code (impls and traits,
// uses, macros, the types of locals, panics and side effects), resolve.go resolves through the
// crate's module tree, uses, impls and traits, and skeleton.go holds the
// skeleton rules of its braced bodies.
package rust

import (
	"cmp"
	"embed"
	"slices"
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

//go:embed tags.scm
var tags string

func init() {
	lang.Register(lang.Spec{
		Name:       "rust",
		Extensions: []string{".rs"},
		Grammar:    grammar.Rust(),
		Query:      tags, QueryFile: "lang/rust/tags.scm",
		QueryRoots: []string{"function_item", "function_signature_item", "macro_definition", "struct_item", "union_item",
			"enum_item", "trait_item", "type_item", "mod_item", "const_item", "static_item", "impl_item"},
		Comments:   []string{"line_comment", "block_comment"},
		Strings:    []string{"string_literal", "raw_string_literal", "char_literal"},
		Idents:     []string{"identifier", "type_identifier", "field_identifier", "shorthand_field_identifier"},
		Data:       data,
		Builtins:   builtins,
		Defs:       defs,
		Place:      true,
		LocalItems: true,
		OwnBases:   true,
		OwnDocs:    true,
		Symbol:     symbol,
		Finish:     finish,
		Resolver:   lang.Resolvers{Ref: resolve, Import: resolveImport},
		SkelRules:  skeleton,
		Fixup:      fixup,
	})
}

// cratePlace is where a Rust file sits in its crate, judged by its path alone.
type cratePlace struct {
	Module string // "axum::routing"; the crate root is the crate name
	Root   string // the module of the crate root that `crate::` names
	// Children is the module under which `mod x;` finds x: the file's own
	// module, except for crate roots not named lib.rs or main.rs
	// (tests/a.rs, src/bin/x.rs), whose submodules are their siblings.
	Children string
	CrateDir string // the directory holding src/, tests/, Cargo.toml
}

// placeOf places a file in its crate. The crate directory is the one that
// holds the last src/ on the path (or tests/, examples/, benches/ for files
// outside src/); its name, with '-' as '_', is the crate name, or "crate"
// at the repository root, whose own name is not known.
func placeOf(p string) cratePlace {
	segs := strings.Split(p, "/")
	stem := strings.TrimSuffix(segs[len(segs)-1], ".rs")
	dirs := segs[:len(segs)-1]
	var crateDir, rest []string
	si := -1
	for i := len(dirs) - 1; i >= 0; i-- {
		if dirs[i] == "src" {
			si = i
			break
		}
	}
	outside := false
	if si >= 0 {
		crateDir, rest = dirs[:si], dirs[si+1:]
	} else {
		ti := -1
		for i := len(dirs) - 1; i >= 0; i-- {
			if d := dirs[i]; d == "tests" || d == "examples" || d == "benches" {
				ti = i
				break
			}
		}
		if ti >= 0 {
			crateDir, rest = dirs[:ti], dirs[ti:]
			outside = true
		} else {
			crateDir = dirs
		}
	}
	crate := "crate"
	if len(crateDir) > 0 {
		crate = ident(crateDir[len(crateDir)-1])
	}
	mod := []string{crate}
	for _, d := range rest {
		mod = append(mod, ident(d))
	}
	dirMod := strings.Join(mod, "::")
	named := stem == "mod" || stem == "lib" || stem == "main"
	if !named {
		mod = append(mod, ident(stem))
	}
	f := cratePlace{Module: strings.Join(mod, "::"), CrateDir: strings.Join(crateDir, "/")}
	f.Root, f.Children = crate, f.Module
	switch {
	case si >= 0 && len(rest) >= 1 && rest[0] == "bin":
		// src/bin/x.rs and src/bin/x/main.rs are crates of their own
		if len(rest) == 1 {
			f.Root = f.Module
			if !named {
				f.Children = dirMod
			}
		} else {
			f.Root = crate + "::bin::" + ident(rest[1])
		}
	case outside:
		// tests/a.rs, examples/b/main.rs: each is a crate root
		if len(rest) == 1 {
			f.Root = f.Module
			if !named {
				f.Children = dirMod
			}
		} else {
			f.Root = crate + "::" + ident(rest[0]) + "::" + ident(rest[1])
		}
	case si < 0 && !outside && len(crateDir) == len(dirs):
		// build.rs and other files beside Cargo.toml are crate roots
		f.Root = f.Module
		if !named {
			f.Children = dirMod
		}
	}
	return f
}

func ident(s string) string { return strings.ReplaceAll(s, "-", "_") }

// state is where the walk is: the symbol code belongs to, the inline
// modules it is in, and the type Self means there.
type state struct {
	parent   int
	mods     []string          // inline `mod x { }` names from the file's module down
	selfType string            // the type Self means inside an impl or a trait, as a path
	bounds   map[string]string // the impl's or trait's generic parameters' first bounds
}

// scope maps a function's local names to what is known of their types.
// x -> "Foo", "_" when unknown; x -> the callee of its initializer; a
// generic parameter's first trait bound is a TypeVar.
type scope struct {
	lang.Scope
	self string
}

func newScope(self string) *scope {
	return &scope{Scope: lang.Scope{Types: map[string]string{}, Calls: map[string]string{}, TypeVars: map[string]string{}}, self: self}
}

// fnScope is the scope of a function declared in c: Self and the
// bounds of the enclosing impl's or trait's generic parameters.
func fnScope(c state) *scope {
	s := newScope(c.selfType)
	for k, v := range c.bounds {
		s.TypeVars[k] = v
	}
	return s
}

// walker is the walk of the file's containers, which places the query's
// definitions where it meets them (Extractor.Define) and walks the code of
// their symbols.
type walker struct {
	x *lang.Extractor
	t *lang.Tree
	// types indexes the type symbols met so far by name, for impls; bases
	// are the traits the file's impls implement, by type symbol
	types map[string][]int
	bases map[int][]string
	mods  []string // the inline modules being walked, for items in blocks
}

// finish names the file's module after its place in the crate and walks
// the file: its items, what its functions call, construct and guard, the
// traits its impls implement, its uses.
func finish(x *lang.Extractor) {
	rf := placeOf(x.Path)
	x.Facts.Module = rf.Module
	x.Facts.Symbols[0].Name = rf.Module[strings.LastIndex(rf.Module, ":")+1:]
	w := &walker{x: x, t: x.Tree, bases: map[int][]string{}, types: map[string][]int{}}
	w.container(0, state{parent: 0}, nil, true)
	for sym, bs := range w.bases {
		s := &x.Facts.Symbols[sym]
		s.Signature.Bases = append(s.Signature.Bases, bs...)
	}
}

// define is the symbol of item n, hanging from parent; parent when n
// makes none (no definition, a name the parser found missing).
func (w *walker) define(n int32, parent int) int {
	sym, ok := w.x.Define(n, parent)
	if !ok {
		return parent
	}
	if typeKinds[w.t.Kind(n)] {
		name := w.t.FieldText(n, "name")
		w.types[name] = append(w.types[name], sym)
	}
	return sym
}

// container walks the children of a source file, a declaration list or a
// block: the code of items, and statements, which are code of the symbol
// c.parent (scope is nil outside function bodies). top marks a function's
// own body, where early exits are guards. Impl blocks are walked last so
// that they find the types of their container.
func (w *walker) container(n int32, c state, scope *scope, top bool) {
	t := w.t
	var impls []int32
	var inner []string
	// In an ERROR node, "fn name(" whose item did not parse names a
	// function: the code after it is taken as its body.
	isErr, afterFn := t.Kind(n) == "ERROR", false
	code, codeScope := c.parent, scope
	for ch := range t.Children(n) {
		k := t.Kind(ch)
		if isErr {
			if !t.Named(ch) {
				afterFn = k == "fn"
				continue
			}
			if afterFn && k == "identifier" {
				afterFn = false
				code, codeScope = w.define(ch, c.parent), newScope(c.selfType)
				continue
			}
			afterFn = false
			if k == "parameters" && code != c.parent {
				w.x.Facts.Symbols[code].Signature.Params, w.x.Facts.Symbols[code].Signature.Receiver = params(t, ch, codeScope)
				continue
			}
		}
		switch k {
		case "line_comment", "block_comment":
			if t.Field(ch, "inner") >= 0 {
				inner = append(inner, docText(t, ch))
			}
			continue
		case "attribute_item":
			w.x.Define(ch, c.parent) // a proc-macro function's derive macro
			continue
		case "inner_attribute_item":
			continue
		}
		if !t.Named(ch) {
			continue
		}
		switch {
		case k == "impl_item":
			impls = append(impls, ch)
		case itemKinds[k]:
			w.item(ch, c)
		case k == "ERROR":
			w.container(ch, c, scope, false)
		case codeScope == nil:
			// code outside functions: macro calls at module level (a
			// generator's too, bitflags!'s types), recovered fragments
			if k == "macro_invocation" && isBitflags(t, ch) {
				w.bitflags(ch, c)
			}
			w.x.Define(ch, c.parent) // a generator's function
			w.expr(ch, code, newScope(c.selfType))
		default:
			if top {
				w.guard(ch, code)
			}
			w.expr(ch, code, codeScope)
		}
	}
	for _, p := range impls {
		w.impl(p, c)
	}
	if len(inner) > 0 && c.parent >= 0 && c.parent < len(w.x.Facts.Symbols) && w.x.Facts.Symbols[c.parent].Kind == lang.KindModule {
		s := &w.x.Facts.Symbols[c.parent]
		if s.Doc != "" {
			s.Doc += "\n"
		}
		s.Doc += joinDoc(inner)
	}
}

// item walks what an item holds of code, and the uses it makes.
func (w *walker) item(n int32, c state) {
	t := w.t
	self := c.parent
	if t.Kind(n) != "type_item" || holder(t, n) < 0 { // an impl's or a trait's associated type is no alias
		self = w.define(n, c.parent)
	}
	name, body := t.Field(n, "name"), t.Field(n, "body")
	switch t.Kind(n) {
	case "function_item":
		if name < 0 || body < 0 {
			return
		}
		scope := fnScope(c)
		generics(t, n, scope)
		params(t, t.Field(n, "parameters"), scope)
		// items nested in a function do not see the outer Self
		w.body(body, state{parent: self, mods: c.mods}, scope)
	case "trait_item":
		if name < 0 {
			return
		}
		if b := t.Field(n, "bounds"); b >= 0 {
			for sb := range t.NamedChildren(b) {
				switch t.Kind(sb) {
				case "type_identifier", "scoped_type_identifier", "generic_type":
					w.typeRef(sb, self, lang.RefExtends, sb, "")
				}
			}
		}
		if body >= 0 {
			w.container(body, state{parent: self, mods: c.mods, selfType: t.Text(name), bounds: bounds(t, n)}, nil, false)
		}
	case "mod_item":
		if name < 0 {
			return
		}
		if body < 0 {
			// mod x; imports the submodule's file
			src := append([]string{"self"}, c.mods...)
			w.x.Facts.Imports = append(w.x.Facts.Imports, lang.Import{Source: strings.Join(append(src, t.Text(name)), "::"),
				Line: t.StartLine(n), Symbol: c.parent})
			return
		}
		inner := state{parent: self, mods: append(slices.Clone(c.mods), t.Text(name))}
		saved := w.mods
		w.mods = inner.mods
		w.container(body, inner, nil, false)
		w.mods = saved
	case "const_item", "static_item":
		if val := t.Field(n, "value"); name >= 0 && val >= 0 {
			w.expr(val, self, newScope(c.selfType))
		}
	case "use_declaration":
		w.use(n, c)
	case "extern_crate_declaration":
		w.externCrate(n, c)
	case "foreign_mod_item":
		if body >= 0 {
			w.container(body, c, nil, false)
		}
	}
}

// impl records the trait an impl implements, as a reference and a base
// of its type when the file declares the type, and walks its items.
func (w *walker) impl(n int32, c state) {
	t := w.t
	typ := t.Field(n, "type")
	if typ < 0 {
		return
	}
	typePath := typePath(t, deref(t, typ))
	typeName := lang.LastIdent(typePath)
	trait := t.Field(n, "trait")
	owner := lastBeside(w.types[typeName], c.parent, func(i int) int { return w.x.Facts.Symbols[i].Parent })
	if trait >= 0 && !negativeImpl(t, trait) {
		if owner >= 0 {
			w.typeRef(trait, owner, lang.RefImplements, n, "")
			w.bases[owner] = append(w.bases[owner], implBase(t, trait, t.Field(n, "body")))
		} else {
			w.typeRef(trait, c.parent, lang.RefImplements, n, typeName)
		}
	}
	if body := t.Field(n, "body"); body >= 0 {
		inner := state{parent: c.parent, mods: c.mods, selfType: typePath, bounds: bounds(t, n)}
		if owner >= 0 {
			inner.parent = owner
		}
		w.container(body, inner, nil, false)
	}
}

// body walks a function body: its statements are the top level, where an
// early exit is a guard.
func (w *walker) body(body int32, c state, scope *scope) {
	if w.t.Kind(body) != "block" {
		w.expr(body, c.parent, scope)
		return
	}
	w.container(body, c, scope, true)
}

// docText is the text of one doc comment without its markers.
func docText(t *lang.Tree, c int32) string {
	d := t.Field(c, "doc")
	if d < 0 {
		return ""
	}
	s := strings.TrimSuffix(t.Text(d), "\n")
	s = strings.TrimSuffix(s, "\r")
	if t.Kind(c) == "block_comment" {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			l = strings.TrimSpace(l)
			l = strings.TrimPrefix(l, "*")
			lines[i] = strings.TrimPrefix(l, " ")
		}
		return strings.Join(lines, "\n")
	}
	return strings.TrimPrefix(s, " ")
}

func joinDoc(parts []string) string {
	for len(parts) > 0 && strings.TrimSpace(parts[0]) == "" {
		parts = parts[1:]
	}
	for len(parts) > 0 && strings.TrimSpace(parts[len(parts)-1]) == "" {
		parts = parts[:len(parts)-1]
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// attrInfo is what the walker reads from an item's attributes.
type attrInfo struct {
	test    bool     // #[test], #[tokio::test], ...
	cfgTest bool     // #[cfg(test)]
	derives []string // #[derive(Debug, Clone)]: traits the type implements
}

func readAttrs(t *lang.Tree, attrs []int32) attrInfo {
	var a attrInfo
	for _, at := range attrs {
		attr := t.ChildOfKind(at, "attribute")
		if attr < 0 {
			continue
		}
		p := t.FirstNamedChild(attr)
		if p < 0 {
			continue
		}
		name := t.Text(p)
		last := name[strings.LastIndex(name, ":")+1:]
		switch {
		case last == "test" || name == "rstest" || name == "test_case" || name == "quickcheck" || name == "proptest":
			a.test = true
		case name == "cfg":
			if args := t.Field(attr, "arguments"); args >= 0 {
				s := t.Text(args)
				if strings.Contains(s, "test") && !strings.Contains(s, "not") {
					a.cfgTest = true
				}
			}
		case name == "derive":
			if args := t.Field(attr, "arguments"); args >= 0 {
				inner := strings.Trim(t.Text(args), "()")
				for _, d := range strings.Split(inner, ",") {
					if d = strings.Join(strings.Fields(d), ""); d != "" {
						a.derives = append(a.derives, d)
					}
				}
			}
		}
	}
	return a
}

// generics lists type parameters and where predicates ("T: Clone",
// "where T: Send").
func generics(t *lang.Tree, n int32, scope *scope) []string {
	var out []string
	if tp := t.Field(n, "type_parameters"); tp >= 0 {
		for p := range t.NamedChildren(tp) {
			out = append(out, lang.OneLine(t.Text(p)))
			if scope != nil && t.Kind(p) == "type_parameter" {
				if b := t.Field(p, "bounds"); b >= 0 {
					if first := firstTrait(t, b); first != "" {
						scope.TypeVars[t.FieldText(p, "name")] = first
					}
				}
			}
		}
	}
	if wc := t.ChildOfKind(n, "where_clause"); wc >= 0 {
		for p := range t.NamedChildren(wc) {
			out = append(out, "where "+lang.OneLine(t.Text(p)))
			if scope != nil {
				left := t.Field(p, "left")
				if b := t.Field(p, "bounds"); b >= 0 && left >= 0 && t.Kind(left) == "type_identifier" {
					if _, ok := scope.TypeVars[t.Text(left)]; !ok {
						if first := firstTrait(t, b); first != "" {
							scope.TypeVars[t.Text(left)] = first
						}
					}
				}
			}
		}
	}
	return out
}

// bounds maps the generic parameters of an impl or a trait to their first
// trait bounds.
func bounds(t *lang.Tree, n int32) map[string]string {
	s := newScope("")
	generics(t, n, s)
	if len(s.TypeVars) == 0 {
		return nil
	}
	return s.TypeVars
}

// firstTrait is the first trait of a bound list that is not a lifetime
// or ?Sized.
func firstTrait(t *lang.Tree, bounds int32) string {
	for b := range t.NamedChildren(bounds) {
		switch t.Kind(b) {
		case "type_identifier", "scoped_type_identifier", "generic_type", "function_type":
			return typePath(t, b)
		}
	}
	return ""
}

// returnsSelf reports a return type that is the impl's type: Self, the
// type's name, or either in a Result or Option.
func returnsSelf(ret, self string) bool {
	ret = strings.TrimSpace(ret)
	for _, w := range []string{"Result<", "Option<", "io::Result<"} {
		if strings.HasPrefix(ret, w) {
			ret = strings.TrimPrefix(ret, w)
			if i := strings.IndexAny(ret, ",>"); i >= 0 {
				ret = ret[:i]
			}
		}
	}
	if i := strings.IndexByte(ret, '<'); i >= 0 {
		ret = ret[:i]
	}
	ret = strings.TrimSpace(ret)
	return ret == "Self" || self != "" && ret == self
}

// params reads a parameter list, typing the names it binds in scope. The
// receiver (self, &self, &mut self, self: Box<Self>) is returned apart.
func params(t *lang.Tree, list int32, scope *scope) ([]lang.Param, string) {
	if list < 0 {
		return nil, ""
	}
	var out []lang.Param
	recv := ""
	for p := range t.NamedChildren(list) {
		switch t.Kind(p) {
		case "self_parameter":
			recv = lang.OneLine(t.Text(p))
		case "parameter":
			pat := t.Field(p, "pattern")
			typ := t.Field(p, "type")
			typText := ""
			if typ >= 0 {
				typText = lang.OneLine(t.Text(typ))
			}
			if pat >= 0 && t.Kind(pat) == "self" {
				recv = "self: " + typText
				continue
			}
			name := ""
			if pat >= 0 {
				name = lang.OneLine(t.Text(pat))
				if t.Kind(pat) == "identifier" && scope != nil {
					scope.Types[name] = simpleType(t, typ, scope)
				} else {
					bindPattern(t, pat, scope)
					wrapperPattern(t, pat, typ, scope)
				}
			}
			if mut := t.ChildOfKind(p, "mutable_specifier"); mut >= 0 && name != "" {
				name = "mut " + name
			}
			out = append(out, lang.Param{Name: name, Type: typText})
		case "variadic_parameter":
			out = append(out, lang.Param{Name: t.FieldText(p, "pattern"), Type: "...", Variadic: true})
		case "type_identifier", "generic_type", "reference_type", "primitive_type", "scoped_type_identifier",
			"tuple_type", "array_type", "function_type", "pointer_type", "abstract_type", "dynamic_type":
			// closure_parameters or fn types: a type alone
			out = append(out, lang.Param{Type: lang.OneLine(t.Text(p))})
		case "identifier":
			out = append(out, lang.Param{Name: t.Text(p)})
			if scope != nil {
				scope.Types[t.Text(p)] = "_"
			}
		default:
			bindPattern(t, p, scope)
		}
	}
	return out, recv
}

// wrapperPattern types the inner name of a destructured wrapper
// parameter, the extractor idiom State(state): State<AppState>.
func wrapperPattern(t *lang.Tree, pat, typ int32, scope *scope) {
	if scope == nil || typ < 0 || t.Kind(pat) != "tuple_struct_pattern" || t.Kind(typ) != "generic_type" {
		return
	}
	if lang.LastIdent(t.FieldText(pat, "type")) != lang.LastIdent(typePath(t, typ)) {
		return
	}
	inner := int32(-1)
	for c := range t.NamedChildren(pat) {
		if t.FieldName(c) == "type" {
			continue
		}
		if inner >= 0 || t.Kind(c) != "identifier" {
			return
		}
		inner = c
	}
	args := t.Field(typ, "type_arguments")
	if inner < 0 || args < 0 {
		return
	}
	if a := t.FirstNamedChild(args); a >= 0 {
		scope.Types[t.Text(inner)] = simpleType(t, a, scope)
	}
}

// bindPattern marks the names a pattern binds as locals of unknown type.
// Upper-case names in patterns are constants and unit variants.
func bindPattern(t *lang.Tree, p int32, scope *scope) {
	if p < 0 || scope == nil {
		return
	}
	bind := func(i int32) {
		if name := t.Text(i); name != "" && !lang.IsUpper(name) && name != "_" {
			scope.Types[name] = "_"
			delete(scope.Calls, name)
		}
	}
	if k := t.Kind(p); k == "identifier" || k == "shorthand_field_identifier" {
		bind(p)
		return
	}
	// a match arm's guard (Some(x) if ctx.ready()) is code, not a pattern:
	// its names are used, not bound
	guard := int32(-1)
	if t.Kind(p) == "match_pattern" {
		guard = t.Field(p, "condition")
	}
	for d := range t.Descendants(p) {
		if guard >= 0 && d >= guard && d < t.Nodes[guard].End {
			continue
		}
		switch t.Kind(d) {
		case "identifier", "shorthand_field_identifier":
			// the type of a tuple struct or struct pattern is no binding
			if f := t.FieldName(d); f == "type" || f == "name" && t.Kind(d) == "identifier" {
				continue
			}
			if par := t.Parent(d); par >= 0 && (t.Kind(par) == "scoped_identifier" || t.Kind(par) == "scoped_type_identifier") {
				continue
			}
			bind(d)
		}
	}
}

// simpleType reduces a type node to the name resolution looks up: the
// path of the type without references, smart pointers and arguments; a
// generic parameter becomes its first bound; "_" when nothing is known.
func simpleType(t *lang.Tree, typ int32, scope *scope) string {
	for depth := 0; typ >= 0 && depth < 8; depth++ {
		switch t.Kind(typ) {
		case "reference_type", "pointer_type":
			typ = t.Field(typ, "type")
			continue
		case "abstract_type", "dynamic_type":
			tr := t.Field(typ, "trait")
			if tr < 0 {
				return "_"
			}
			if t.Kind(tr) == "trait_bounds" {
				return cmp.Or(firstTrait(t, tr), "_")
			}
			typ = tr
			continue
		case "generic_type":
			base := typePath(t, typ)
			if wrapperTypes[base] {
				if args := t.Field(typ, "type_arguments"); args >= 0 {
					if a := t.FirstNamedChild(args); a >= 0 {
						typ = a
						continue
					}
				}
			}
			return base
		case "type_identifier":
			name := t.Text(typ)
			if name == "Self" && scope != nil && scope.self != "" {
				return scope.self
			}
			if scope != nil {
				if b, ok := scope.TypeVars[name]; ok {
					return b
				}
			}
			return name
		case "scoped_type_identifier", "primitive_type":
			return typePath(t, typ)
		case "function_type":
			return typePath(t, typ)
		}
		return "_"
	}
	return "_"
}

// wrapperTypes are smart pointers whose methods calls reach through.
var wrapperTypes = map[string]bool{"Box": true, "Arc": true, "Rc": true, "Pin": true, "Cow": true}

// typePath renders a type or path node as a path without generic
// arguments: "crate::x::Foo".
func typePath(t *lang.Tree, n int32) string {
	var b strings.Builder
	pathInto(t, n, &b, 0)
	return b.String()
}

func pathInto(t *lang.Tree, n int32, b *strings.Builder, depth int) {
	if n < 0 || depth > 32 {
		return
	}
	switch t.Kind(n) {
	case "scoped_identifier", "scoped_type_identifier":
		if p := t.Field(n, "path"); p >= 0 {
			pathInto(t, p, b, depth+1)
			b.WriteString("::")
		} else if first := t.FirstNamedChild(n); first >= 0 && t.FieldName(first) == "" && first != t.Field(n, "name") {
			// ::std::x, where the grammar gives no path field
			pathInto(t, first, b, depth+1)
			b.WriteString("::")
		}
		pathInto(t, t.Field(n, "name"), b, depth+1)
	case "generic_type", "generic_type_with_turbofish", "generic_function":
		inner := t.Field(n, "type")
		if inner < 0 {
			inner = t.Field(n, "function")
		}
		pathInto(t, inner, b, depth+1)
	case "function_type":
		if tr := t.Field(n, "trait"); tr >= 0 {
			pathInto(t, tr, b, depth+1)
		}
	case "bracketed_type":
		// <T as Trait>: the trait names the items; <T>: the type
		if q := t.FirstNamedChild(n); q >= 0 && t.Kind(q) == "qualified_type" {
			if a := t.Field(q, "alias"); a >= 0 {
				pathInto(t, a, b, depth+1)
				return
			}
			pathInto(t, t.Field(q, "type"), b, depth+1)
		} else if q >= 0 {
			pathInto(t, q, b, depth+1)
		}
	default:
		b.WriteString(lang.OneLine(t.Text(n)))
	}
}

// fields lists struct fields (tuple fields are named 0, 1, ...) and enum
// variants, which are no symbols but name what Enum::Variant means.
func fields(t *lang.Tree, body int32) []lang.Param {
	var out []lang.Param
	switch t.Kind(body) {
	case "field_declaration_list":
		for f := range t.NamedChildren(body) {
			if t.Kind(f) == "field_declaration" {
				out = append(out, lang.Param{Name: t.FieldText(f, "name"), Type: lang.OneLine(t.FieldText(f, "type"))})
			}
		}
	case "ordered_field_declaration_list":
		i := 0
		for f := range t.Children(body) {
			if t.FieldName(f) == "type" {
				out = append(out, lang.Param{Name: strconv.Itoa(i), Type: lang.OneLine(t.Text(f))})
				i++
			}
		}
	case "enum_variant_list":
		for v := range t.NamedChildren(body) {
			if t.Kind(v) == "enum_variant" {
				p := lang.Param{Name: t.FieldText(v, "name")}
				if vb := t.Field(v, "body"); vb >= 0 {
					p.Type = lang.OneLine(t.Text(vb))
				}
				out = append(out, p)
			}
		}
	}
	return out
}

// typeRef records a reference of kind to the type written at typ.
func (w *walker) typeRef(typ int32, sym int, kind string, at int32, qualType string) {
	p := typePath(w.t, typ)
	name, qual := p, ""
	if i := strings.LastIndex(p, "::"); i >= 0 {
		name, qual = p[i+2:], p[:i]
	}
	w.x.Ref(lang.Ref{Kind: kind, Name: name, Qualifier: qual, QualifierType: qualType, Symbol: sym}, at)
}

// implBase is how a type's bases show a trait it implements. A Future or
// IntoFuture shows its Output, which is what .await gives, and a Deref
// its Target, whose methods the type's values have:
// "IntoFuture<Output = Response>", "Deref<Target = Inner>".
func implBase(t *lang.Tree, trait, body int32) string {
	text := lang.OneLine(t.Text(trait))
	assoc := ""
	switch lang.LastIdent(text) {
	case "Future", "IntoFuture":
		assoc = "Output"
	case "Deref":
		assoc = "Target"
	}
	if assoc != "" && !strings.Contains(text, "<") && body >= 0 {
		for it := range t.NamedChildren(body) {
			if t.Kind(it) == "type_item" && t.FieldText(it, "name") == assoc {
				return text + "<" + assoc + " = " + lang.OneLine(t.FieldText(it, "type")) + ">"
			}
		}
	}
	return text
}

// deref strips references from a type node: impl Trait for &'a Foo.
func deref(t *lang.Tree, typ int32) int32 {
	for i := 0; i < 4 && typ >= 0 && (t.Kind(typ) == "reference_type" || t.Kind(typ) == "pointer_type"); i++ {
		typ = t.Field(typ, "type")
	}
	return typ
}

// negativeImpl reports impl !Trait for T, whose "!" the tree leaves out.
func negativeImpl(t *lang.Tree, trait int32) bool {
	s := t.Nodes[trait].StartByte
	for s > 0 {
		s--
		switch t.Src[s] {
		case ' ', '\t', '\n', '\r':
			continue
		case '!':
			return true
		}
		return false
	}
	return false
}

func (w *walker) externCrate(n int32, c state) {
	t := w.t
	name := t.FieldText(n, "name")
	if name == "" {
		return
	}
	imp := lang.Import{Source: name, Alias: t.FieldText(n, "alias"), Line: t.StartLine(n), Symbol: c.parent}
	w.x.Facts.Imports = append(w.x.Facts.Imports, imp)
}

// use flattens a use tree into imports: one per module path, naming what
// it brings in. use a::b binds b from a; use a (one segment), a::{self}
// and extern crate bind the module itself. Paths inside inline modules are
// rewritten relative to the file's module, so that resolution needs no
// knowledge of where the use sits: in mod tests, super::* becomes self.
func (w *walker) use(n int32, c state) {
	t := w.t
	arg := t.Field(n, "argument")
	if arg < 0 {
		return
	}
	line := t.StartLine(n)
	var order []string
	bySrc := map[string]*lang.Import{}
	add := func(src []string, name, alias string) {
		src = normalizeUse(src, c.mods)
		key := strings.Join(src, "::")
		if name == "" {
			// the module itself: an import of its own
			w.x.Facts.Imports = append(w.x.Facts.Imports, lang.Import{Source: key, Alias: alias, Line: line, Symbol: c.parent})
			return
		}
		imp := bySrc[key]
		if imp == nil {
			imp = &lang.Import{Source: key, Line: line, Symbol: c.parent}
			bySrc[key] = imp
			order = append(order, key)
		}
		imp.Names = append(imp.Names, lang.ImportName{Name: name, Alias: alias})
	}
	w.useTree(arg, nil, add, 0)
	for _, k := range order {
		w.x.Facts.Imports = append(w.x.Facts.Imports, *bySrc[k])
	}
}

func (w *walker) useTree(n int32, prefix []string, add func([]string, string, string), depth int) {
	t := w.t
	if n < 0 || depth > 16 {
		return
	}
	leaf := func(p []string, alias string) {
		full := append(append([]string(nil), prefix...), p...)
		switch {
		case len(full) == 0:
		case full[len(full)-1] == "self":
			// a::{self}: the module a
			add(full[:len(full)-1], "", alias)
		case len(full) == 1:
			add(full, "", alias)
		default:
			add(full[:len(full)-1], full[len(full)-1], alias)
		}
	}
	switch t.Kind(n) {
	case "identifier", "crate", "self", "super", "scoped_identifier", "metavariable":
		leaf(segments(t, n), "")
	case "use_as_clause":
		leaf(segments(t, t.Field(n, "path")), t.FieldText(n, "alias"))
	case "use_list":
		for ch := range t.NamedChildren(n) {
			w.useTree(ch, prefix, add, depth+1)
		}
	case "scoped_use_list":
		p := append(append([]string(nil), prefix...), segments(t, t.Field(n, "path"))...)
		w.useTree(t.Field(n, "list"), p, add, depth+1)
	case "use_wildcard":
		p := append([]string(nil), prefix...)
		if inner := t.FirstNamedChild(n); inner >= 0 {
			p = append(p, segments(t, inner)...)
		}
		if len(p) > 0 {
			add(p, "*", "")
		}
	}
}

// segments splits a path node into its segments.
func segments(t *lang.Tree, n int32) []string {
	if n < 0 {
		return nil
	}
	p := typePath(t, n)
	p = strings.TrimPrefix(p, "::")
	if p == "" {
		return nil
	}
	return strings.Split(p, "::")
}

// normalizeUse rewrites a use path written inside inline modules mods so
// that self and super are relative to the file's module.
func normalizeUse(src, mods []string) []string {
	if len(mods) == 0 || len(src) == 0 {
		return src
	}
	ms := append([]string(nil), mods...)
	switch src[0] {
	case "super":
		for len(src) > 0 && src[0] == "super" && len(ms) > 0 {
			src = src[1:]
			ms = ms[:len(ms)-1]
		}
		if len(src) > 0 && src[0] == "super" {
			return src
		}
		return append(append([]string{"self"}, ms...), src...)
	case "self":
		return append(append([]string{"self"}, ms...), src[1:]...)
	}
	return src
}

// expr walks code that belongs to symbol sym, recording calls,
// constructions, macro uses and panics, and typing locals in scope.

// expr walks code that belongs to symbol sym, recording calls,
// constructions, macro uses and panics, and typing locals in scope.
func (w *walker) expr(n int32, sym int, scope *scope) {
	t := w.t
	switch t.Kind(n) {
	case "call_expression":
		// the receiver and the arguments are evaluated first: their
		// calls come first in the summary
		for c := range t.NamedChildren(n) {
			w.expr(c, sym, scope)
		}
		w.call(n, sym, scope)
		return
	case "macro_invocation":
		w.macroCall(n, sym, scope)
		return
	case "struct_expression":
		w.structExpr(n, sym, scope)
	case "let_declaration":
		w.let(n, sym, scope)
		return
	case "closure_expression":
		params(t, t.Field(n, "parameters"), scope)
	case "for_expression":
		bindPattern(t, t.Field(n, "pattern"), scope)
	case "let_condition", "match_arm":
		bindPattern(t, t.Field(n, "pattern"), scope)
	case "block":
		// a nested block may declare items of its own
		c := state{parent: sym, mods: w.mods, selfType: scope.self}
		w.container(n, c, scope, false)
		return
	case "macro_definition":
		return
	}
	for c := range t.NamedChildren(n) {
		w.expr(c, sym, scope)
	}
}

// let walks an initializer, then types the names the pattern binds: from
// an annotation, a struct literal, Type::new(), or the call whose result
// the variable holds.
func (w *walker) let(n int32, sym int, scope *scope) {
	t := w.t
	pat, typ, val := t.Field(n, "pattern"), t.Field(n, "type"), t.Field(n, "value")
	if val >= 0 {
		w.expr(val, sym, scope)
	}
	if alt := t.Field(n, "alternative"); alt >= 0 {
		w.expr(alt, sym, scope)
	}
	if pat < 0 {
		return
	}
	if t.Kind(pat) != "identifier" {
		bindPattern(t, pat, scope)
		return
	}
	name := t.Text(pat)
	delete(scope.Calls, name)
	switch {
	case typ >= 0:
		scope.Types[name] = simpleType(t, typ, scope)
	case val >= 0:
		ty, expr := w.valueType(val, scope, 0)
		scope.Types[name] = cmp.Or(ty, "_")
		if ty == "" && expr != "" {
			scope.Calls[name] = callee(expr)
		}
	default:
		scope.Types[name] = "_"
	}
}

// valueType is what an initializer tells of its type: a type name, or the
// callee whose result it is.
func (w *walker) valueType(v int32, scope *scope, depth int) (typ, call string) {
	t := w.t
	if depth > 8 {
		return "", ""
	}
	switch t.Kind(v) {
	case "struct_expression":
		p := typePath(t, t.Field(v, "name"))
		if p == "Self" {
			p = scope.self
		}
		if strings.Contains(p, "::") && lang.IsUpper(lang.LastIdent(qualOf(p))) {
			// Enum::Variant { }: the enum
			p = qualOf(p)
		}
		return p, ""
	case "parenthesized_expression", "reference_expression":
		if inner := t.FirstNamedChild(v); inner >= 0 {
			return w.valueType(inner, scope, depth+1)
		}
	case "try_expression", "await_expression":
		// Foo::new()? is a Foo; f()? and f().await are what f gives,
		// unwrapped or awaited
		if inner := t.FirstNamedChild(v); inner >= 0 {
			if ty, _ := w.valueType(inner, scope, depth+1); ty != "" {
				return ty, ""
			}
		}
		return "", w.qual(v, scope, true, 0)
	case "identifier":
		name := t.Text(v)
		if c, ok := scope.Calls[name]; ok {
			return "", callExpr(c)
		}
		if ty, ok := scope.Types[name]; ok && ty != "_" {
			return ty, ""
		}
	case "self":
		return scope.self, ""
	case "match_expression":
		// match f() { Ok(x) => x, Err(e) => return .. }: what f gives
		if body := t.Field(v, "body"); body >= 0 {
			if arm := t.FirstNamedChild(body); arm >= 0 && unwrapArm(t, arm) {
				ty, expr := w.valueType(t.Field(v, "value"), scope, depth+1)
				if expr != "" {
					expr += "?"
				}
				return ty, expr
			}
		}
	case "type_cast_expression":
		if ty := simpleType(t, t.Field(v, "type"), scope); ty != "_" {
			return ty, ""
		}
	case "call_expression":
		fn := t.Field(v, "function")
		if fn < 0 {
			return "", ""
		}
		if t.Kind(fn) == "generic_function" {
			fn = t.Field(fn, "function")
		}
		switch t.Kind(fn) {
		case "scoped_identifier":
			qual := typePath(t, t.Field(fn, "path"))
			name := t.FieldText(fn, "name")
			if qual == "Self" {
				qual = scope.self
			}
			if wrapperTypes[qual] && name == "new" {
				// Arc::new(Foo::new()): the methods are Foo's
				if args := t.Field(v, "arguments"); args >= 0 {
					if a := t.FirstNamedChild(args); a >= 0 {
						return w.valueType(a, scope, depth+1)
					}
				}
				return "", ""
			}
			if name == "new" && lang.IsUpper(lang.LastIdent(qual)) {
				return qual, ""
			}
			if lang.IsUpper(name) && lang.IsUpper(lang.LastIdent(qual)) {
				return qual, "" // Enum::Variant(..)
			}
		case "identifier":
			if name := t.Text(fn); lang.IsUpper(name) && !builtins.Has(name) {
				return name, "" // a tuple struct
			}
		case "field_expression":
			switch t.FieldText(fn, "field") {
			case "clone", "to_owned":
				return w.valueType(t.Field(fn, "value"), scope, depth+1)
			}
		}
		return "", w.qual(v, scope, true, 0)
	}
	return "", ""
}

// callee is how a local's initializer is kept as Ref.QualifierCall:
// the callee when the initializer is a plain call ("Foo::open",
// "<Client>.get"), else the whole rendered expression ("f()?",
// "client.get().await").
func callee(expr string) string {
	if strings.HasSuffix(expr, "()") {
		return expr[:len(expr)-2]
	}
	return expr
}

// callExpr turns a Ref.QualifierCall back into the expression it stands
// for.
func callExpr(qc string) string {
	if strings.HasSuffix(qc, ")") || strings.HasSuffix(qc, "?") || strings.HasSuffix(qc, ".await") {
		return qc
	}
	return qc + "()"
}

// qualOf is the qualifier of a path: "a::b::C" -> "a::b".
func qualOf(p string) string {
	if i := strings.LastIndex(p, "::"); i >= 0 {
		return p[:i]
	}
	return ""
}

// qual renders an expression as a qualifier: paths, fields and calls with
// their arguments left out ("Router::new().route()", "self.state.db").
// typed replaces a typed local at the head with its type ("<Foo>.build"),
// for a callee recorded apart from its scope.
func (w *walker) qual(n int32, scope *scope, typed bool, depth int) string {
	t := w.t
	if n < 0 {
		return ""
	}
	if depth > 48 {
		return "..."
	}
	switch t.Kind(n) {
	case "identifier", "self":
		name := t.Text(n)
		if typed && scope != nil {
			if name == "self" && scope.self != "" {
				return "<" + scope.self + ">"
			}
			if c, ok := scope.Calls[name]; ok {
				return callExpr(c) // the call the local holds the result of
			}
			if ty, ok := scope.Types[name]; ok {
				return "<" + ty + ">"
			}
		}
		return name
	case "field_identifier", "type_identifier", "integer_literal", "super", "crate":
		return t.Text(n)
	case "field_expression":
		return w.qual(t.Field(n, "value"), scope, typed, depth+1) + "." + t.FieldText(n, "field")
	case "scoped_identifier", "scoped_type_identifier", "generic_type", "generic_type_with_turbofish":
		return typePath(t, n)
	case "generic_function":
		return w.qual(t.Field(n, "function"), scope, typed, depth+1)
	case "call_expression":
		return w.qual(t.Field(n, "function"), scope, typed, depth+1) + "()"
	case "try_expression":
		return w.qual(t.FirstNamedChild(n), scope, typed, depth+1) + "?"
	case "await_expression":
		return w.qual(t.FirstNamedChild(n), scope, typed, depth+1) + ".await"
	case "index_expression":
		return w.qual(t.FirstNamedChild(n), scope, typed, depth+1) + "[]"
	case "parenthesized_expression":
		inner := t.FirstNamedChild(n)
		switch t.Kind(inner) {
		case "identifier", "field_expression", "call_expression", "self", "scoped_identifier":
			return w.qual(inner, scope, typed, depth+1)
		}
		return "(" + lang.Shorten(lang.OneLine(t.Text(inner)), 40) + ")"
	case "reference_expression", "unary_expression":
		return w.qual(t.FirstNamedChild(n), scope, typed, depth+1)
	case "macro_invocation":
		return typePath(t, t.Field(n, "macro")) + "!()"
	}
	return lang.Shorten(lang.OneLine(t.Text(n)), 40)
}

// headType types the first identifier of a method call's receiver: self
// is the impl's type, a local its known type ("_" when unknown) or the
// callee of its initializer.
func (w *walker) headType(r *lang.Ref, value int32, scope *scope) {
	t := w.t
	n := value
	for i := 0; i < 64 && n >= 0; i++ {
		switch t.Kind(n) {
		case "field_expression":
			n = t.Field(n, "value")
			continue
		case "call_expression":
			fn := t.Field(n, "function")
			if fn >= 0 && (t.Kind(fn) == "identifier" || t.Kind(fn) == "scoped_identifier") {
				return // f().m(): a function's result, rendered as such
			}
			n = fn
			continue
		case "generic_function":
			n = t.Field(n, "function")
			continue
		case "try_expression", "await_expression", "index_expression", "parenthesized_expression",
			"reference_expression", "unary_expression":
			n = t.FirstNamedChild(n)
			continue
		case "self":
			r.QualifierType = scope.self
		case "identifier":
			name := t.Text(n)
			if c, ok := scope.Calls[name]; ok {
				r.QualifierCall = c
			} else if ty, ok := scope.Types[name]; ok {
				r.QualifierType = ty
			} else if !lang.IsUpper(name) {
				// a value the walker did not see bound: not a path,
				// which would have been written a::f()
				r.QualifierType = "_"
			}
		}
		return
	}
}

func (w *walker) call(n int32, sym int, scope *scope) {
	t := w.t
	fn := t.Field(n, "function")
	if fn >= 0 && t.Kind(fn) == "generic_function" {
		fn = t.Field(fn, "function")
	}
	if fn < 0 {
		return
	}
	switch t.Kind(fn) {
	case "identifier":
		name := t.Text(fn)
		if _, local := scope.Types[name]; local {
			return // a closure or function value held in a local
		}
		r := lang.Ref{Kind: lang.RefCall, Name: name, Symbol: sym}
		if lang.IsUpper(name) {
			r.Kind = lang.RefNew // a tuple struct or a variant
			if name == "Self" && scope.self != "" {
				r.Name, r.Qualifier = lang.LastIdent(scope.self), qualOf(scope.self)
			}
		}
		w.x.Ref(r, n)
	case "scoped_identifier":
		name := t.FieldText(fn, "name")
		r := lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: typePath(t, t.Field(fn, "path")), Symbol: sym}
		if lang.IsUpper(name) {
			r.Kind = lang.RefNew
		}
		w.pathType(&r, scope)
		w.x.Ref(r, n)
	case "field_expression":
		value := t.Field(fn, "value")
		name := t.FieldText(fn, "field")
		r := lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: w.qual(value, scope, false, 0), Symbol: sym}
		w.headType(&r, value, scope)
		if (name == "unwrap" || name == "expect") && !w.x.Facts.Symbols[sym].IsTest {
			w.x.Throw(sym, "panics", r.Qualifier+"."+name+"()", n)
		}
		w.x.Ref(r, n)
	}
}

// pathType types a path qualifier that starts with Self or a generic
// parameter (T::default() means T's bound).
func (w *walker) pathType(r *lang.Ref, scope *scope) {
	head, _, _ := strings.Cut(r.Qualifier, "::")
	if head == "Self" && scope.self != "" {
		r.QualifierType = scope.self
	} else if b, ok := scope.TypeVars[head]; ok && head == r.Qualifier {
		r.QualifierType = b
	}
}

func (w *walker) structExpr(n int32, sym int, scope *scope) {
	t := w.t
	p := typePath(t, t.Field(n, "name"))
	if p == "" {
		return
	}
	r := lang.Ref{Kind: lang.RefNew, Name: p, Symbol: sym}
	if i := strings.LastIndex(p, "::"); i >= 0 {
		r.Name, r.Qualifier = p[i+2:], p[:i]
		w.pathType(&r, scope)
	} else if p == "Self" && scope.self != "" {
		r.Name, r.Qualifier = lang.LastIdent(scope.self), qualOf(scope.self)
	}
	w.x.Ref(r, n)
}

// quoteMacros build token streams for proc macros.
var quoteMacros = map[string]bool{"quote": true, "quote_spanned": true, "parse_quote": true, "parse_quote_spanned": true}

// panicMacros are the macros that panic unconditionally.
var panicMacros = map[string]bool{"panic": true, "unreachable": true, "todo": true, "unimplemented": true}

func (w *walker) macroCall(n int32, sym int, scope *scope) {
	t := w.t
	m := t.Field(n, "macro")
	if m < 0 {
		return
	}
	p := typePath(t, m)
	r := lang.Ref{Kind: lang.RefCall, Name: p + "!", Symbol: sym}
	if i := strings.LastIndex(p, "::"); i >= 0 {
		r.Name, r.Qualifier = p[i+2:]+"!", p[:i]
	}
	tt := t.ChildOfKind(n, "token_tree")
	if quoteMacros[strings.TrimSuffix(r.Name, "!")] {
		// code a proc macro generates, not code it runs
		tt = -1
	}
	if r.Name == "cfg!" && (r.Qualifier == "" || r.Qualifier == "std" || r.Qualifier == "core") {
		// cfg!(not(windows)) holds a configuration predicate: not() and
		// any() are no calls
		tt = -1
	}
	if panicMacros[strings.TrimSuffix(r.Name, "!")] && (r.Qualifier == "" || r.Qualifier == "std" || r.Qualifier == "core") {
		what := ""
		if tt >= 0 {
			what = t.Text(tt)
		}
		w.x.Throw(sym, "panics", what, n)
	}
	w.x.Ref(r, n)
	if tt >= 0 {
		w.tokenRefs(tt, sym, scope, 0)
	}
}

// tokenRefs finds calls in a macro's token tree, which the grammar leaves
// unparsed: a path or method chain followed by a parenthesized group
// ("f(", "a::b(", "x.m(", "name!(").
func (w *walker) tokenRefs(tt int32, sym int, scope *scope, depth int) {
	t := w.t
	if depth > 32 {
		return
	}
	var parts, seps []string
	// called is the value a "." chain goes on from when it is not a name:
	// a call's result, a literal, a group
	called := ""
	prevEnd := t.Nodes[tt].StartByte + 1
	prevText := ""
	// generic arguments of a turbofish (a::<T>::f, f::<T>()) are skipped:
	// generic counts the open angle brackets
	generic := 0
	for c := range t.Children(tt) {
		k := t.Kind(c)
		start := t.Nodes[c].StartByte
		gap := ""
		if start > prevEnd && int(start) <= len(t.Src) {
			gap = strings.TrimSpace(string(t.Src[prevEnd:start]))
		}
		leaf := t.IsLeaf(c)
		if generic > 0 {
			generic += strings.Count(gap, "<") - strings.Count(gap, ">")
			prevEnd = t.Nodes[c].EndByte
			if generic > 0 {
				continue
			}
			gap = gap[strings.LastIndexByte(gap, '>')+1:]
		} else if len(parts) > 0 && strings.HasSuffix(gap, "::<") {
			generic = 1
			prevEnd = t.Nodes[c].EndByte
			continue
		}
		switch {
		case tokenNames[k]:
			text := t.Text(c)
			switch {
			case len(parts) > 0 && (gap == "::" || gap == "."):
				parts, seps = append(parts, text), append(seps, gap)
			case called != "" && (gap == "::" || gap == "."):
				parts, seps = []string{text}, []string{gap}
			case gap == "::" || gap == "." || gap == "?.":
				// after something that is no name: `<T as X>::f`, `a?.m`
				parts, seps, called = []string{text}, []string{strings.TrimPrefix(gap, "?")}, "(...)"
			case declKeywords[prevText] && gap == "":
				parts, seps, called = nil, nil, ""
			default:
				parts, seps, called = []string{text}, []string{""}, ""
			}
		case k == "token_tree":
			open := t.Src[start]
			switch {
			case open == '[' && (strings.HasSuffix(gap, "#") || strings.HasSuffix(gap, "#!")):
				// an attribute: #[doc(..)] calls nothing, nor does the
				// #[cfg(any(..))] of a match arm after "x",
				parts, seps, called = nil, nil, ""
			case len(parts) > 0 && (gap == "" && open == '(' || gap == "!"):
				called = w.tokenCall(parts, seps, called, gap == "!", sym, scope, c)
				parts, seps = nil, nil
				w.tokenRefs(c, sym, scope, depth+1)
			default:
				parts, seps, called = nil, nil, "(...)"
				w.tokenRefs(c, sym, scope, depth+1)
			}
		case k == "await" && gap == "." && (len(parts) > 0 || called != ""):
			called = joinChain(called, parts, seps) + ".await"
			parts, seps = nil, nil
		case leaf && t.Named(c):
			// a literal: "alice".to_owned()
			parts, seps, called = nil, nil, lang.Shorten(t.Text(c), 40)
		default:
			parts, seps, called = nil, nil, ""
		}
		prevEnd = t.Nodes[c].EndByte
		prevText = ""
		if leaf {
			prevText = t.Text(c)
		}
	}
}

// joinChain renders a token chain that continues from called.
func joinChain(called string, parts, seps []string) string {
	var b strings.Builder
	b.WriteString(called)
	for i, p := range parts {
		if i > 0 || called != "" {
			b.WriteString(seps[i])
		}
		b.WriteString(p)
	}
	return b.String()
}

// tokenNames are the token kinds a path or a method chain is made of.
var tokenNames = map[string]bool{"identifier": true, "self": true, "super": true, "crate": true,
	"primitive_type": true, "metavariable": true}

// declKeywords introduce a declared name, not a call, in a token tree.
var declKeywords = map[string]bool{"fn": true, "struct": true, "enum": true, "union": true, "mod": true,
	"trait": true, "macro_rules": true, "type": true}

// tokenCall records the call a token chain makes and returns its rendering
// for a chain that goes on after it.
func (w *walker) tokenCall(parts, seps []string, called string, macro bool, sym int, scope *scope, at int32) string {
	var qb strings.Builder
	qb.WriteString(called)
	for i := 0; i < len(parts)-1; i++ {
		if i > 0 || called != "" {
			qb.WriteString(seps[i])
		}
		qb.WriteString(parts[i])
	}
	name := parts[len(parts)-1]
	lastSep := seps[len(seps)-1]
	r := lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: qb.String(), Symbol: sym}
	switch {
	case macro:
		r.Name += "!"
	case lastSep == ".":
		// a method call: type the head as in code
		head := parts[0]
		switch {
		case called != "":
			r.QualifierType = "_"
		case head == "self":
			r.QualifierType = scope.self
		default:
			if c, ok := scope.Calls[head]; ok {
				r.QualifierCall = c
			} else if ty, ok := scope.Types[head]; ok {
				r.QualifierType = ty
			} else if !lang.IsUpper(head) {
				r.QualifierType = "_"
			}
		}
	case r.Qualifier == "":
		if _, local := scope.Types[name]; local {
			return name + "()"
		}
		if lang.IsUpper(name) {
			r.Kind = lang.RefNew
		}
	default:
		if lang.IsUpper(name) {
			r.Kind = lang.RefNew
		}
		w.pathType(&r, scope)
	}
	w.x.Ref(r, at)
	if r.Qualifier == "" {
		return r.Name + "()"
	}
	return r.Qualifier + lastSep + r.Name + "()"
}

// guard records an early exit among a function body's top statements:
// if cond { return .. } (no else), if cond { panic!(..) }, let-else, and
// assert!(cond).
func (w *walker) guard(st int32, sym int) {
	t := w.t
	n := st
	if t.Kind(n) == "expression_statement" {
		n = t.FirstNamedChild(n)
	}
	if n < 0 {
		return
	}
	switch t.Kind(n) {
	case "if_expression":
		if t.Field(n, "alternative") >= 0 {
			return
		}
		cond, cons := t.Field(n, "condition"), t.Field(n, "consequence")
		if cond < 0 || cons < 0 {
			return
		}
		if action := w.exitAction(t.FirstNamedChild(cons)); action != "" {
			w.x.Guard(sym, t.Text(cond), action, n)
		}
	case "let_declaration":
		alt := t.Field(n, "alternative")
		pat, val := t.Field(n, "pattern"), t.Field(n, "value")
		if alt < 0 || pat < 0 || val < 0 {
			return
		}
		if action := w.exitAction(t.FirstNamedChild(alt)); action != "" {
			w.x.Guard(sym, t.Text(val)+" does not match "+t.Text(pat), action, n)
		}
	case "macro_invocation":
		name := t.FieldText(n, "macro")
		tt := t.ChildOfKind(n, "token_tree")
		if tt < 0 {
			return
		}
		if w.x.Facts.Symbols[sym].IsTest {
			return // a test's assertions are its checks, not preconditions
		}
		switch name {
		case "assert", "debug_assert":
			if c := firstArg(t.Text(tt)); c != "" {
				w.x.Guard(sym, "!("+c+")", "panic", n)
			}
		case "ensure":
			if c := firstArg(t.Text(tt)); c != "" {
				w.x.Guard(sym, "!("+c+")", "return error", n)
			}
		}
	}
}

// exitAction describes the first statement of a block when it leaves the
// function: "return Err(..)", "panic", "return error" (bail!).
func (w *walker) exitAction(st int32) string {
	t := w.t
	if st < 0 {
		return ""
	}
	if t.Kind(st) == "expression_statement" {
		st = t.FirstNamedChild(st)
		if st < 0 {
			return ""
		}
	}
	switch t.Kind(st) {
	case "return_expression":
		if v := t.FirstNamedChild(st); v >= 0 {
			return "return " + lang.Shorten(lang.OneLine(t.Text(v)), 60)
		}
		return "return"
	case "macro_invocation":
		name := t.FieldText(st, "macro")
		name = name[strings.LastIndex(name, ":")+1:]
		switch {
		case panicMacros[name]:
			return "panic"
		case name == "bail":
			return "return error"
		}
	}
	return ""
}

// firstArg is the first argument of a macro's token tree "(a, b)".
func firstArg(tt string) string {
	if len(tt) < 2 {
		return ""
	}
	s := tt[1 : len(tt)-1]
	depth := 0
	inStr := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			return strings.TrimSpace(s[:i])
		}
	}
	return strings.TrimSpace(s)
}

// unwrapArm reports a match arm Ok(x) => x or Some(x) => x.
func unwrapArm(t *lang.Tree, arm int32) bool {
	pat := t.Field(arm, "pattern")
	if pat >= 0 && t.Kind(pat) == "match_pattern" {
		pat = t.FirstNamedChild(pat)
	}
	val := t.Field(arm, "value")
	if pat < 0 || val < 0 || t.Kind(pat) != "tuple_struct_pattern" || t.Kind(val) != "identifier" {
		return false
	}
	if ty := t.FieldText(pat, "type"); ty != "Ok" && ty != "Some" {
		return false
	}
	n := 0
	bound := ""
	for c := range t.NamedChildren(pat) {
		if t.FieldName(c) == "type" {
			continue
		}
		n++
		bound = t.Text(c)
	}
	return n == 1 && bound == t.Text(val)
}
