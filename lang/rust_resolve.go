package lang

import (
	"path"
	"strings"
)

// rsBuiltins are calls the index does not record: the prelude's variant
// constructors and drop, and the standard library's macros (named with
// their "!", as the extractor records macro uses).
var rsBuiltins = wordSet("rust", "builtins.txt")

// rsPrelude are the names every Rust module sees without a use: the
// prelude's types and traits and the primitive types. A path through them
// leads outside the repository.
var rsPrelude = wordSet("rust", "prelude.txt")

// rsStdCrates are the crates of the standard distribution.
var rsStdCrates = map[string]bool{"std": true, "core": true, "alloc": true, "proc_macro": true, "test": true}

// rsCommonMethods are method names of the standard library's types and
// traits so widespread that a unique definition in the repository says
// little about which one a call on an unknown receiver means.
var rsCommonMethods = wordSet("rust", "common_methods.txt")

func init() {
	l := ByName("rust")
	l.builtins = rsBuiltins
	l.resolve = resolveRust
	l.resolveImport = resolveRustImport
}

// rsEnt is what a Rust path leads to: a module (a file, and an inline
// module path inside it), an item, or something outside the repository.
type rsEnt struct {
	file string
	cont string
	sym  *Target
	ext  bool
}

func (e rsEnt) isMod() bool { return e.file != "" && e.sym == nil && !e.ext }

type rsRes struct {
	tab  Table
	ctx  *Context
	file string
}

func newRsRes(ctx *Context) *rsRes {
	return &rsRes{tab: ctx.Table, ctx: ctx, file: ctx.File.Path}
}

// encode and decode store an entity in Table.Memo.
func rsEncode(e rsEnt, ok bool) string {
	switch {
	case !ok:
		return ""
	case e.ext:
		return "x"
	case e.sym != nil:
		return "s" + e.sym.ID + "\x00" + e.sym.Name + "\x00" + e.sym.Path
	}
	return "f" + e.file + "\x00" + e.cont
}

func (r *rsRes) decode(s string) (rsEnt, bool) {
	if s == "" {
		return rsEnt{}, false
	}
	switch s[0] {
	case 'x':
		return rsEnt{ext: true}, true
	case 's':
		parts := strings.SplitN(s[1:], "\x00", 3)
		if len(parts) == 3 {
			for _, t := range r.tab.ByName(parts[1]) {
				if t.ID == parts[0] && t.Path == parts[2] {
					return rsEnt{sym: t}, true
				}
			}
		}
		return rsEnt{}, false
	}
	file, cont, _ := strings.Cut(s[1:], "\x00")
	return rsEnt{file: file, cont: cont}, true
}

// modFile returns the file whose module is exactly mod; when several
// crates share a name, the one nearest to from, then a lib.rs.
func (r *rsRes) modFile(from, mod string) string {
	return r.tab.Memo("rs.mf\x00"+path.Dir(from)+"\x00"+mod, func() string {
		best, bestScore := "", -1
		for _, p := range r.tab.ModuleFiles("rust", mod) {
			fi := r.tab.File(p)
			if fi == nil || fi.Module != mod {
				continue
			}
			score := commonPrefix(from, p) * 4
			switch path.Base(p) {
			case "lib.rs":
				score += 2
			case "main.rs", "mod.rs":
				score++
			}
			if score > bestScore {
				best, bestScore = p, score
			}
		}
		return best
	})
}

// crateFile returns the lib.rs of the repository's crate called name, the
// One nearest to from when several share the name.
func (r *rsRes) crateFile(from, name string) string {
	return r.tab.Memo("rs.crate\x00"+path.Dir(from)+"\x00"+name, func() string {
		best, bestScore := "", -1
		for _, p := range r.tab.ModuleFiles("rust", name) {
			fi := r.tab.File(p)
			if fi == nil || fi.Module != name || path.Base(p) != "lib.rs" {
				continue
			}
			if score := commonPrefix(from, p); score > bestScore {
				best, bestScore = p, score
			}
		}
		return best
	})
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// rsBindings maps the names a file's use, mod and extern crate items bind
// to their imports. A name bound more than once (cfg alternatives, or a
// macro and a trait of one name in different namespaces) keeps the others
// under "name\x001", "name\x002", ...: see rsBindingsOf.
func rsBindings(fi *FileInfo) map[string]Binding {
	return fi.BindingsWith(func() map[string]Binding {
		m := map[string]Binding{}
		put := func(name string, b Binding) {
			key := name
			for i := 1; ; i++ {
				if _, ok := m[key]; !ok {
					m[key] = b
					return
				}
				key = name + "\x00" + itoa(i)
			}
		}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if len(imp.Names) == 0 {
				name := imp.Alias
				if name == "" {
					name = imp.Source[strings.LastIndex(imp.Source, ":")+1:]
				}
				if name != "_" && name != "self" && name != "super" && name != "crate" {
					put(name, Binding{Imp: imp})
				}
				continue
			}
			for _, n := range imp.Names {
				if n.Name == "*" {
					continue
				}
				if local := n.Local(); local != "_" {
					put(local, Binding{Imp: imp, Name: n.Name})
				}
			}
		}
		return m
	})
}

// rsBindingsOf lists every binding of a name in a file.
func rsBindingsOf(fi *FileInfo, name string) []Binding {
	m := rsBindings(fi)
	b, ok := m[name]
	if !ok {
		return nil
	}
	out := []Binding{b}
	for i := 1; ; i++ {
		b, ok := m[name+"\x00"+itoa(i)]
		if !ok {
			return out
		}
		out = append(out, b)
	}
}

func rsGlobs(fi *FileInfo) []*Import {
	var out []*Import
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		for _, n := range imp.Names {
			if n.Name == "*" {
				out = append(out, imp)
				break
			}
		}
	}
	return out
}

func rsSplit(p string) []string {
	p = strings.TrimPrefix(p, "::")
	if p == "" {
		return nil
	}
	return strings.Split(p, "::")
}

// path resolves a path written in file: its first segment through the
// file's bindings, child modules, items and the repository's crates; the
// rest through members. skip is the import whose own path this is.
func (r *rsRes) path(file string, segs []string, depth int, skip *Import) (rsEnt, bool) {
	if len(segs) == 0 || depth > MaxDepth {
		return rsEnt{}, false
	}
	if skip == nil && depth == 0 {
		key := "rs.path\x00" + file + "\x00" + strings.Join(segs, "::")
		return r.decode(r.tab.Memo(key, func() string { return rsEncode(r.pathUncached(file, segs, depth, nil)) }))
	}
	return r.pathUncached(file, segs, depth, skip)
}

func (r *rsRes) pathUncached(file string, segs []string, depth int, skip *Import) (rsEnt, bool) {
	e, ok := r.first(file, segs[0], depth, skip)
	for _, s := range segs[1:] {
		if !ok || e.ext {
			return e, ok
		}
		e, ok = r.member(e, s, depth+1)
	}
	return e, ok
}

func (r *rsRes) first(file, seg string, depth int, skip *Import) (rsEnt, bool) {
	rf := r.rustFile(file)
	switch seg {
	case "crate", "$crate":
		if rf.Module == rf.Root {
			// a crate root: main.rs beside lib.rs is a crate of its own
			return rsEnt{file: file}, true
		}
		if f := r.modFile(file, rf.Root); f != "" {
			return rsEnt{file: f}, true
		}
		return rsEnt{}, false
	case "self":
		return rsEnt{file: file}, true
	case "super":
		if i := strings.LastIndex(rf.Module, "::"); i >= 0 {
			if f := r.modFile(file, rf.Module[:i]); f != "" {
				return rsEnt{file: f}, true
			}
		}
		return rsEnt{}, false
	}
	if rsStdCrates[seg] {
		return rsEnt{ext: true}, true
	}
	if fi := r.tab.File(file); fi != nil {
		bound := false
		for _, b := range rsBindingsOf(fi, seg) {
			if b.Imp == skip {
				continue
			}
			if e, ok := r.binding(file, b, depth+1); ok {
				return e, true
			}
			bound = true
		}
		if bound {
			return rsEnt{}, false // bound to something we cannot see
		}
	}
	if f := r.modFile(file, rf.Children+"::"+seg); f != "" {
		return rsEnt{file: f}, true
	}
	if file == r.file {
		if t := r.inScope(seg, func(t *Target) bool { return t.Kind != KindMethod && t.Kind != KindConstructor }); t != nil {
			if t.Kind == KindModule {
				return rsEnt{file: file, cont: t.Qualified()}, true
			}
			return rsEnt{sym: t}, true
		}
	} else if e, ok := r.item(rsEnt{file: file}, seg, false); ok {
		return e, true
	}
	if fi := r.tab.File(file); fi != nil {
		for _, g := range rsGlobs(fi) {
			if g == skip {
				continue
			}
			ge, ok := r.glob(file, g)
			if !ok || ge.ext || ge.file == file && ge.cont == "" {
				continue
			}
			if m, ok := r.member(ge, seg, depth+1); ok {
				return m, true
			}
		}
	}
	if f := r.crateFile(file, seg); f != "" {
		return rsEnt{file: f}, true // a library crate of the repository
	}
	if IsUpper(seg) && !rsPrelude[seg] {
		return rsEnt{}, false // a type we cannot see
	}
	return rsEnt{ext: true}, true
}

// Binding resolves what an import binding names.
func (r *rsRes) binding(file string, b Binding, depth int) (rsEnt, bool) {
	if depth > MaxDepth {
		return rsEnt{}, false
	}
	key := "rs.bind\x00" + file + "\x00" + b.Imp.Source + "\x00" + b.Name + "\x00" + itoa(b.Imp.Line)
	if depth <= 1 {
		return r.decode(r.tab.Memo(key, func() string { return rsEncode(r.bindingUncached(file, b, depth)) }))
	}
	return r.bindingUncached(file, b, depth)
}

func (r *rsRes) bindingUncached(file string, b Binding, depth int) (rsEnt, bool) {
	e, ok := r.path(file, rsSplit(b.Imp.Source), depth, b.Imp)
	if !ok || e.ext || b.Name == "" {
		return e, ok
	}
	return r.member(e, b.Name, depth+1)
}

// rsRank orders the kinds an item name may have by namespace: a path
// segment or a type (value false) means a module or a type before a
// function or a static; a call (value true) the other way round. A module
// and a function of the same name coexist in Rust.
func rsRank(kind string, value bool) int {
	r := 1
	switch kind {
	case KindModule:
		r = 0
	case KindFunction, KindVariable:
		r = 2
	}
	if value {
		r = 2 - r
	}
	return r
}

// item finds an item named name declared in a module entity itself.
func (r *rsRes) item(e rsEnt, name string, value bool) (rsEnt, bool) {
	var found *Target
	for _, t := range r.tab.ByName(name) {
		if t.Path != e.file || t.Container != e.cont || t.Kind == KindMethod || t.Kind == KindConstructor {
			continue
		}
		if t.Kind == KindModule && t.Container == "" {
			if fi := r.tab.File(t.Path); fi != nil && fi.ModuleID == t.ID {
				continue // the file's own module symbol
			}
		}
		if found == nil || rsRank(t.Kind, value) < rsRank(found.Kind, value) {
			found = t
		}
	}
	if found == nil {
		return rsEnt{}, false
	}
	if found.Kind == KindModule {
		return rsEnt{file: e.file, cont: found.Qualified()}, true
	}
	return rsEnt{sym: found}, true
}

// member resolves name inside an entity: an item of a module, a child
// module, a re-export or a glob import of the module; a variant of an
// enum; an associated function of a type or a trait.
func (r *rsRes) member(e rsEnt, name string, depth int) (rsEnt, bool) {
	return r.memberNS(e, name, depth, false)
}

// glob resolves the path of a glob import of file: what its names come
// from. Every lookup through the file's globs needs it, so it is
// memoised, computed afresh (depth 1) apart from the reference that asks.
func (r *rsRes) glob(file string, g *Import) (rsEnt, bool) {
	key := "rs.glob\x00" + file + "\x00" + itoa(g.Line) + "\x00" + g.Source
	return r.decode(r.tab.Memo(key, func() string {
		return rsEncode(r.neutral().pathUncached(file, rsSplit(g.Source), 1, g))
	}))
}

// neutral is a resolver of paths that does not depend on the referencing
// file's scopes, for values memoised for every file.
func (r *rsRes) neutral() *rsRes { return &rsRes{tab: r.tab, ctx: r.ctx} }

// memberNS is member with the namespace a call's name is looked up in. The
// members of a module are memoised: globs and re-exports make the same
// lookups again and again.
func (r *rsRes) memberNS(e rsEnt, name string, depth int, value bool) (rsEnt, bool) {
	if e.isMod() && depth <= MaxDepth {
		key := "rs.member\x00" + e.file + "\x00" + e.cont + "\x00" + name
		if value {
			key += "\x00v"
		}
		return r.decode(r.tab.Memo(key, func() string { return rsEncode(r.neutral().memberUncached(e, name, 1, value)) }))
	}
	return r.memberUncached(e, name, depth, value)
}

func (r *rsRes) memberUncached(e rsEnt, name string, depth int, value bool) (rsEnt, bool) {
	switch {
	case e.ext:
		return e, true
	case depth > MaxDepth:
		return rsEnt{}, false
	case e.sym != nil:
		t := e.sym
		if t.Kind == KindClass {
			for _, f := range t.Fields {
				if f.Name == name && IsUpper(name) {
					return e, true // a variant: its enum
				}
			}
		}
		if IsTypeKind(t.Kind) {
			m, _, ext := r.method(t, name, 0)
			if m != nil {
				return rsEnt{sym: m}, true
			}
			if ext {
				return rsEnt{ext: true}, true
			}
		}
		return rsEnt{}, false
	}
	if e.file == "" {
		return rsEnt{}, false
	}
	if !value && e.cont == "" {
		if f := r.modFile(e.file, r.rustFile(e.file).Children+"::"+name); f != "" {
			return rsEnt{file: f}, true
		}
	}
	if it, ok := r.item(e, name, value); ok {
		return it, true
	}
	if e.cont != "" {
		// mod m { mod x; }: x's file is under m's directory
		if f := r.modFile(e.file, r.rustFile(e.file).Children+"::"+strings.ReplaceAll(e.cont, ".", "::")+"::"+name); f != "" {
			return rsEnt{file: f}, true
		}
		return rsEnt{}, false
	}
	if f := r.modFile(e.file, r.rustFile(e.file).Children+"::"+name); f != "" {
		return rsEnt{file: f}, true
	}
	fi := r.tab.File(e.file)
	if fi == nil {
		return rsEnt{}, false
	}
	// a re-export: pub use a::b
	for _, b := range rsBindingsOf(fi, name) {
		if re, ok := r.binding(e.file, b, depth+1); ok {
			return re, true
		}
	}
	for _, g := range rsGlobs(fi) {
		ge, ok := r.glob(e.file, g)
		if !ok || ge.ext || ge == e {
			continue
		}
		if m, ok := r.member(ge, name, depth+1); ok {
			return m, true
		}
	}
	if rf := r.rustFile(e.file); rf.Module == rf.Root {
		// #[macro_export] puts a macro at its crate's root wherever it is
		// defined: an exported top-level function-kind item of the crate
		var ms []*Target
		for _, t := range r.tab.ByName(name) {
			if t.Kind == KindFunction && t.Exported && t.Container == "" && r.crateDir(t.Path) == rf.CrateDir &&
				r.rustFile(t.Path).Root == rf.Root {
				ms = append(ms, t)
			}
		}
		if len(ms) == 1 {
			return rsEnt{sym: ms[0]}, true
		}
	}
	return rsEnt{}, false
}

// crateDir is the crate directory of a file.
func (r *rsRes) crateDir(p string) string { return r.rustFile(p).CrateDir }

// rustFile is rustFile(p), memoized: resolution asks it of the same few
// files again and again.
func (r *rsRes) rustFile(p string) rsFile {
	v := r.tab.Memo("rs.file\x00"+p, func() string {
		f := rustFile(p)
		return f.Module + "\x00" + f.Root + "\x00" + f.Children + "\x00" + f.CrateDir
	})
	parts := strings.SplitN(v, "\x00", 4)
	if len(parts) != 4 {
		return rustFile(p)
	}
	return rsFile{Module: parts[0], Root: parts[1], Children: parts[2], CrateDir: parts[3]}
}

// method finds method name of a type: its impls' methods (in the type's
// file first, then in its crate), then the default methods of the traits
// it implements. For a trait, its own methods and its supertraits'. For an
// alias, the aliased type's; ext reports an alias of a type outside the
// repository. ambiguous counts the candidates when several fit.
func (r *rsRes) method(typ *Target, name string, depth int) (m *Target, ambiguous int, ext bool) {
	if depth > MaxDepth || typ == nil {
		return nil, 0, false
	}
	if m, amb := r.ownMethod(typ, name); m != nil || amb > 0 {
		return m, amb, false
	}
	if typ.Kind == KindType && typ.Returns != "" {
		// an alias: the aliased type's methods
		at, ext := r.resolveType(rsTy{s: typ.Returns, file: typ.Path})
		if at != nil && at.ID != typ.ID {
			return r.method(at, name, depth+1)
		}
		return nil, 0, ext
	}
	var deref string
	extBase := false
	for _, b := range typ.Bases {
		if strings.HasPrefix(b, "Deref<Target") {
			deref = b
			continue
		}
		bt, ext := r.resolveType(rsTy{s: b, file: typ.Path})
		extBase = extBase || ext
		if bt != nil && bt.Kind == KindInterface && bt.ID != typ.ID {
			if m, amb, _ := r.method(bt, name, depth+1); m != nil || amb > 0 {
				return m, amb, false
			}
		}
	}
	if deref != "" {
		// auto-deref: the methods of Deref's Target
		target := rsAssoc(deref, "Target")
		dt, ext := r.resolveType(rsTy{s: target, file: typ.Path, self: typ.Name})
		if dt != nil && dt.ID != typ.ID {
			return r.method(dt, name, depth+1)
		}
		return nil, 0, ext
	}
	// not the type's own nor its repository traits': a method of a trait
	// from outside that it implements or derives, unless a trait of the
	// repository has it (a blanket impl may give it to the type)
	if extBase {
		for _, t := range r.tab.ByName(name) {
			if t.Kind == KindMethod && r.containerKind(t) == KindInterface {
				return nil, 0, false
			}
		}
	}
	return nil, 0, extBase
}

// ownMethod finds the method of a type's own impls (or a trait's own
// methods).
func (r *rsRes) ownMethod(typ *Target, name string) (*Target, int) {
	var inFile, others []*Target
	for _, t := range r.tab.ByName(name) {
		if (t.Kind != KindMethod && t.Kind != KindConstructor && !(t.Kind == KindVariable && t.Container != "")) ||
			rsContainerName(t.Container) != typ.Name {
			continue
		}
		if t.Path == typ.Path {
			inFile = append(inFile, t)
		} else if typ.Kind != KindInterface { // a trait's methods sit in the trait
			others = append(others, t)
		}
	}
	switch {
	case len(inFile) == 1:
		return inFile[0], 0
	case len(inFile) > 1:
		return nil, len(inFile)
	}
	if len(others) == 1 && r.crateDir(others[0].Path) == r.crateDir(typ.Path) {
		return others[0], 0
	}
	if len(others) > 0 {
		// impls elsewhere, in the type's crate or (extension traits) in
		// others: those whose file sees this very type by its name
		var seen []*Target
		for _, t := range others {
			if tt, _ := r.resolveType(rsTy{s: typ.Name, file: t.Path}); tt != nil && tt.ID == typ.ID {
				seen = append(seen, t)
			}
		}
		switch {
		case len(seen) == 1:
			return seen[0], 0
		case len(seen) > 1:
			return nil, len(seen)
		}
	}
	return nil, 0
}

// extMethod finds the method an extension trait of the repository gives a
// type from outside it: impl RequestExt for http::Request. The impl's file
// must see the type's name as outside the repository too.
func (r *rsRes) extMethod(ty rsTy, name string) *Target {
	base, _ := rsSplitGeneric(rsStripType(ty.s))
	base = LastIdent(base)
	if base == "" || base == "_" {
		return nil
	}
	var found *Target
	for _, t := range r.tab.ByName(name) {
		if t.Kind != KindMethod || rsContainerName(t.Container) != base {
			continue
		}
		if tt, ext := r.resolveType(rsTy{s: base, file: t.Path}); tt != nil || !ext {
			continue
		}
		if found != nil {
			return nil
		}
		found = t
	}
	return found
}

// rsAssoc reads an associated type from a bound: "Deref<Target = T>".
func rsAssoc(b, name string) string {
	i := strings.Index(b, name)
	if i < 0 {
		return ""
	}
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(b[i+len(name):]), "="))
	if j := rsTopIndex(rest, '>'); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest)
}

// methodOfName finds the one method name of a type known by its name
// only.
func (r *rsRes) methodOfName(ty rsTy, name string) *Target {
	base, _ := rsSplitGeneric(rsStripType(ty.s))
	if base == "Self" {
		base = ty.self
	}
	base = LastIdent(base)
	if base == "" || base == "_" || rsPrelude[base] {
		return nil
	}
	var found *Target
	for _, t := range r.tab.ByName(name) {
		if (t.Kind == KindMethod || t.Kind == KindConstructor) && rsContainerName(t.Container) == base {
			if found != nil {
				return nil
			}
			found = t
		}
	}
	return found
}

// rsStdTraitMethods are the methods of the standard traits a type gets by
// derive or a blanket impl: a repository type without its own is using
// the standard library's.
var rsStdTraitMethods = map[string]bool{
	"clone": true, "clone_from": true, "fmt": true, "eq": true, "ne": true, "cmp": true, "partial_cmp": true,
	"lt": true, "le": true, "gt": true, "ge": true, "hash": true, "default": true, "into": true, "try_into": true,
	"from": true, "try_from": true, "to_string": true, "to_owned": true, "borrow": true, "borrow_mut": true,
	"as_ref": true, "as_mut": true, "type_id": true, "max": true, "min": true, "clamp": true,
}

// missingMethod handles a method a known repository type does not have
// among its impls and traits: a method of a trait in scope (a blanket
// impl gives it), a standard trait's, or any.
func (r *rsRes) missingMethod(name string) Resolution {
	if m := r.scopedTraitMethod(name); m != nil {
		return Bound(m, RuleReceiver)
	}
	if rsStdTraitMethods[name] {
		return Unbound(RuleExternal, 0)
	}
	return r.uniqueMethod(name, false)
}

// scopedTraitMethod finds method name in the one trait of the repository
// that declares it and is in scope in the referencing file: a trait's
// method is callable only where the trait is in scope.
func (r *rsRes) scopedTraitMethod(name string) *Target {
	var found *Target
	for _, t := range r.tab.ByName(name) {
		if t.Kind != KindMethod || r.containerKind(t) != KindInterface {
			continue
		}
		if !r.traitInScope(rsContainerName(t.Container), t.Path) {
			continue
		}
		if found != nil {
			return nil
		}
		found = t
	}
	return found
}

// traitInScope reports whether the trait of that name defined in
// traitFile is in scope in the referencing file: defined or imported
// there, also as _.
func (r *rsRes) traitInScope(trait, traitFile string) bool {
	if tt, _ := r.resolveType(rsTy{s: trait, file: r.file}); tt != nil {
		return tt.Kind == KindInterface && tt.Path == traitFile
	}
	for i := range r.ctx.File.Imports {
		imp := &r.ctx.File.Imports[i]
		for _, n := range imp.Names {
			if n.Alias == "_" && n.Name == trait {
				e, ok := r.binding(r.file, Binding{Imp: imp, Name: n.Name}, 0)
				if ok && e.sym != nil && e.sym.Path == traitFile {
					return true
				}
			}
		}
	}
	return false
}

// rsContainerName is the last part of a container: "m.Foo" -> "Foo".
func rsContainerName(c string) string {
	return c[strings.LastIndexByte(c, '.')+1:]
}

// rsTy is a type as written, with the file it is written in and the type
// Self means there.
type rsTy struct {
	s, file, self string
}

// resolveType resolves a written type to its symbol; ext reports a type
// from outside the repository.
func (r *rsRes) resolveType(ty rsTy) (*Target, bool) {
	s := rsStripType(ty.s)
	for i := 0; i < 4; i++ {
		base, args := rsSplitGeneric(s)
		if rsWrapperTypes[base] && len(args) > 0 {
			s = rsStripType(args[0])
			continue
		}
		break
	}
	base, _ := rsSplitGeneric(s)
	switch {
	case base == "" || base == "_" || strings.HasPrefix(base, "(") || strings.HasPrefix(base, "["):
		return nil, false
	case base == "Self":
		if ty.self == "" || ty.self == "Self" {
			return nil, false
		}
		return r.resolveType(rsTy{s: ty.self, file: ty.file})
	}
	key := "rs.type\x00" + ty.file + "\x00" + base
	e, ok := r.decode(r.tab.Memo(key, func() string { return rsEncode(r.typeUncached(ty.file, base)) }))
	if !ok {
		return nil, false
	}
	if e.ext {
		return nil, true
	}
	if e.sym != nil && (IsTypeKind(e.sym.Kind)) {
		return e.sym, false
	}
	return nil, false
}

func (r *rsRes) typeUncached(file, base string) (rsEnt, bool) {
	if strings.Contains(base, "::") {
		return r.path(file, rsSplit(base), 1, nil)
	}
	// a type of this file, at any depth
	var same []*Target
	for _, t := range r.tab.ByName(base) {
		if t.Path == file && IsTypeKind(t.Kind) {
			same = append(same, t)
		}
	}
	if len(same) == 1 {
		return rsEnt{sym: same[0]}, true
	}
	for _, t := range same {
		if t.Container == "" {
			return rsEnt{sym: t}, true
		}
	}
	if e, ok := r.path(file, []string{base}, 1, nil); ok && (e.ext || e.sym != nil) {
		return e, true
	}
	if fi := r.tab.File(file); fi != nil {
		for _, g := range rsGlobs(fi) {
			ge, ok := r.glob(file, g)
			if !ok || ge.ext {
				continue
			}
			if m, ok := r.member(ge, base, 2); ok && m.sym != nil {
				return m, true
			}
		}
	}
	if rsPrelude[base] {
		return rsEnt{ext: true}, true
	}
	return rsEnt{}, false
}

// rsStripType removes references, lifetimes, mut, dyn and impl from a
// written type: "&'a mut dyn Foo + Send" -> "Foo".
func rsStripType(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i < 8; i++ {
		prev := s
		s = strings.TrimLeft(s, "&*")
		s = strings.TrimSpace(s)
		if strings.HasPrefix(s, "'") {
			if j := strings.IndexByte(s, ' '); j >= 0 {
				s = s[j+1:]
			}
		}
		for _, p := range []string{"mut ", "const ", "dyn ", "impl "} {
			s = strings.TrimPrefix(s, p)
		}
		s = strings.TrimSpace(s)
		if s == prev {
			break
		}
	}
	if i := rsTopIndex(s, '+'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// rsSplitGeneric splits "a::Foo<A, B<C>>" into "a::Foo" and [A, B<C>].
func rsSplitGeneric(s string) (string, []string) {
	i := strings.IndexByte(s, '<')
	if i < 0 {
		return strings.TrimSpace(s), nil
	}
	base := strings.TrimSpace(strings.TrimSuffix(s[:i], "::"))
	inner := s[i+1:]
	if j := strings.LastIndexByte(inner, '>'); j >= 0 {
		inner = inner[:j]
	}
	var args []string
	depth, start := 0, 0
	for k := 0; k < len(inner); k++ {
		switch inner[k] {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(inner[start:k]))
				start = k + 1
			}
		}
	}
	if rest := strings.TrimSpace(inner[start:]); rest != "" {
		args = append(args, rest)
	}
	return base, args
}

// rsTopIndex is the index of c outside brackets, or -1. A closing
// bracket c is found where it closes nothing opened after the start.
func rsTopIndex(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		if s[i] == c && depth == 0 {
			return i
		}
		switch s[i] {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			depth--
		}
	}
	return -1
}

// rsElem is the element type indexing a collection gives: Vec<T>, [T],
// VecDeque<T>, HashMap<K, V>, BTreeMap<K, V>, IndexMap<K, V>.
func rsElem(ty rsTy) (rsTy, bool) {
	s := rsStripType(ty.s)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		inner := s[1 : len(s)-1]
		if i := rsTopIndex(inner, ';'); i >= 0 {
			inner = inner[:i]
		}
		ty.s = strings.TrimSpace(inner)
		return ty, true
	}
	base, args := rsSplitGeneric(s)
	switch LastIdent(base) {
	case "Vec", "VecDeque", "SmallVec":
		if len(args) >= 1 {
			ty.s = args[0]
			return ty, true
		}
	case "HashMap", "BTreeMap", "IndexMap":
		if len(args) >= 2 {
			ty.s = args[1]
			return ty, true
		}
	}
	return ty, false
}

// rsUnwrap is the type inside a Result, an Option or a Poll (what ?,
// unwrap and expect give).
func rsUnwrap(ty rsTy) rsTy {
	base, args := rsSplitGeneric(rsStripType(ty.s))
	base = base[strings.LastIndex(base, ":")+1:]
	if len(args) > 0 && (strings.HasSuffix(base, "Result") || base == "Option" || base == "Poll") {
		ty.s = args[0]
	}
	return ty
}

// await is the type .await gives: the Output of an impl Future, or of the
// Future or IntoFuture a repository type implements.
func (r *rsRes) await(ty rsTy) rsTy {
	if out := rsFuture(ty); out.s != ty.s {
		return out
	}
	if t, _ := r.resolveType(ty); t != nil {
		for _, b := range t.Bases {
			if strings.Contains(b, "Future<") && strings.Contains(b, "Output") {
				return rsFuture(rsTy{s: b, file: t.Path, self: t.Name})
			}
		}
	}
	return ty
}

// rsFuture is the output of an impl Future<Output = T>.
func rsFuture(ty rsTy) rsTy {
	if i := strings.Index(ty.s, "Output"); i >= 0 && strings.Contains(ty.s, "Future") {
		rest := strings.TrimSpace(ty.s[i+len("Output"):])
		rest = strings.TrimSpace(strings.TrimPrefix(rest, "="))
		if j := rsTopIndex(rest, '>'); j >= 0 {
			rest = rest[:j]
		} else {
			rest = strings.TrimSuffix(rest, ">")
		}
		ty.s = strings.TrimSpace(rest)
	}
	return ty
}

func resolveRustImport(ctx *Context, imp *Import, name string) Resolution {
	r := newRsRes(ctx)
	e, ok := r.path(r.file, rsSplit(imp.Source), 0, imp)
	if ok && !e.ext && name != "" && name != "*" {
		e, ok = r.member(e, name, 1)
	}
	if !ok {
		return Unbound(RuleUnresolved, 0)
	}
	if e.ext {
		return Unbound(RuleExternal, 0)
	}
	if t := r.target(e); t != nil {
		return Bound(t, RuleImport)
	}
	return Unbound(RuleUnresolved, 0)
}

// target is the symbol an entity stands for: an item, an inline module's
// symbol or a file's module symbol.
func (r *rsRes) target(e rsEnt) *Target {
	switch {
	case e.sym != nil:
		return e.sym
	case e.file == "":
		return nil
	case e.cont != "":
		name := e.cont[strings.LastIndexByte(e.cont, '.')+1:]
		for _, t := range r.tab.ByName(name) {
			if t.Path == e.file && t.Kind == KindModule && t.Qualified() == e.cont {
				return t
			}
		}
		return nil
	}
	return ModuleTarget(r.tab, e.file)
}

func resolveRust(ctx *Context, ref *Ref) Resolution {
	r := newRsRes(ctx)
	switch {
	case ref.Kind == RefImplements || ref.Kind == RefExtends:
		return r.typeRef(ref)
	case ref.Qualifier == "":
		return r.bare(ref)
	}
	return r.qualified(ref)
}

// rule is same_file for a target in the referencing file, else rule.
func (r *rsRes) ruleFor(t *Target, rule string) Resolution {
	if t.Path == r.file && rule == RuleImport {
		return Bound(t, RuleSameFile)
	}
	return Bound(t, rule)
}

func (r *rsRes) typeRef(ref *Ref) Resolution {
	if ref.Qualifier != "" {
		e, ok := r.path(r.file, rsSplit(ref.Qualifier), 0, nil)
		if ok && !e.ext {
			e, ok = r.member(e, ref.Name, 1)
		}
		return r.entResolution(e, ok, RuleImport)
	}
	t, ext := r.resolveType(rsTy{s: ref.Name, file: r.file})
	if t != nil {
		return r.ruleFor(t, RuleImport)
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

func (r *rsRes) entResolution(e rsEnt, ok bool, rule string) Resolution {
	switch {
	case !ok:
		return Unbound(RuleUnresolved, 0)
	case e.ext:
		return Unbound(RuleExternal, 0)
	}
	if t := r.target(e); t != nil {
		return r.ruleFor(t, rule)
	}
	return Unbound(RuleUnresolved, 0)
}

// scopeOf is the qualified name items of the referencing symbol's
// enclosing modules and functions start with.
func (r *rsRes) scopeOf() string {
	f := r.ctx.From
	if f == nil || f.Kind == KindModule && f.Container == "" && f.ID == r.ctx.File.ModuleID {
		return ""
	}
	return f.Qualified()
}

// inScope finds an item of the referencing file visible from the
// referencing symbol: declared at the top level, or in a module or
// function that encloses the symbol, the nearest first.
func (r *rsRes) inScope(name string, keep func(*Target) bool) *Target {
	scope := r.scopeOf()
	var best *Target
	bestLen, tie := -1, false
	for _, t := range r.tab.ByName(name) {
		if t.Path != r.file || !keep(t) {
			continue
		}
		if t.Container != "" && scope != t.Container && !strings.HasPrefix(scope, t.Container+".") {
			continue
		}
		if t.Kind == KindModule && t.Container == "" && t.ID == r.ctx.File.ModuleID {
			continue
		}
		switch l := len(t.Container); {
		case l > bestLen:
			best, bestLen, tie = t, l, false
		case l == bestLen:
			switch a, b := rsRank(t.Kind, false), rsRank(best.Kind, false); {
			case a < b:
				best, tie = t, false
			case a == b:
				tie = true
			}
		}
	}
	if tie {
		return nil
	}
	return best
}

// bare resolves an unqualified name: items of the same file (the nearest
// enclosing scope first), the file's use bindings, glob imports, the
// crate's macros, the prelude.
func (r *rsRes) bare(ref *Ref) Resolution {
	if rsBuiltins[ref.Name] {
		return Unbound(RuleBuiltin, 0)
	}
	macro := strings.HasSuffix(ref.Name, "!")
	name := strings.TrimSuffix(ref.Name, "!")
	keep := func(t *Target) bool {
		switch {
		case macro:
			return t.Kind == KindFunction
		case ref.Kind == RefNew:
			return IsTypeKind(t.Kind)
		}
		return t.Kind != KindMethod && t.Kind != KindConstructor && t.Kind != KindModule && t.Kind != KindInterface
	}
	cands := r.tab.ByName(name)
	if t := r.inScope(name, keep); t != nil {
		return Bound(t, RuleSameFile)
	}
	fi := r.ctx.File
	if bs := rsBindingsOf(fi, name); len(bs) > 0 {
		var e rsEnt
		ok := false
		for _, b := range bs {
			e, ok = r.binding(r.file, b, 0)
			if ok && e.sym != nil && !keep(e.sym) && !(ref.Kind == RefNew && e.sym.Kind == KindClass) {
				ok = false
			}
			if ok {
				break
			}
		}
		return r.entResolution(e, ok, RuleImport)
	}
	extGlob := false
	for _, g := range rsGlobs(fi) {
		ge, ok := r.path(r.file, rsSplit(g.Source), 0, g)
		if !ok {
			continue
		}
		if ge.ext {
			extGlob = true
			continue
		}
		if m, ok := r.member(ge, name, 1); ok {
			if m.ext {
				return Unbound(RuleExternal, 0)
			}
			if t := r.target(m); t != nil && (keep(t) || m.sym != nil && ref.Kind == RefNew) {
				rule := RuleImport
				if g.Source == "super" && t.Path != r.file {
					rule = RuleSamePackage // a child module's use super::*
				}
				return r.ruleFor(t, rule)
			}
		}
	}
	if macro {
		// macro_rules! macros reach the whole crate by textual scope
		crate := r.crateDir(r.file)
		var ms []*Target
		for _, t := range cands {
			if t.Kind == KindFunction && r.crateDir(t.Path) == crate {
				ms = append(ms, t)
			}
		}
		switch {
		case len(ms) == 1 || len(ms) > 1 && rsOneFile(ms):
			// several in one file are cfg alternatives of one macro
			return Bound(ms[0], RuleSamePackage)
		case len(ms) > 1:
			return Unbound(RuleAmbiguous, len(ms))
		}
		return Unbound(RuleExternal, 0)
	}
	if rsPrelude[name] || extGlob {
		return Unbound(RuleExternal, 0)
	}
	// nothing in scope: a distinctive name defined once in the crate
	crate := r.crateDir(r.file)
	var one []*Target
	for _, t := range cands {
		if keep(t) && t.Kind != KindVariable && r.crateDir(t.Path) == crate {
			one = append(one, t)
		}
	}
	if len(one) == 1 && !rsCommonMethods[name] {
		return Bound(one[0], RuleUniqueName)
	}
	if len(one) > 1 {
		return Unbound(RuleAmbiguous, len(one))
	}
	return Unbound(RuleUnresolved, 0)
}

// rsOneFile reports whether all targets are in one file.
func rsOneFile(ts []*Target) bool {
	for _, t := range ts[1:] {
		if t.Path != ts[0].Path {
			return false
		}
	}
	return true
}

// rsHead splits a rendered qualifier into its head and the rest: "a::b()
// .c" -> "a::b", "().c"; "<Foo>.x" -> "<Foo>", ".x".
func rsHead(q string) (head, rest string) {
	if strings.HasPrefix(q, "<") {
		if i := rsTopIndex(q[1:], '>'); i >= 0 {
			return q[:i+2], q[i+2:]
		}
		return q, ""
	}
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case '.', '(', '?', '[', '!':
			return q[:i], q[i:]
		case '<':
			// a path with generic arguments left in: stop at it
			return q[:i], ""
		}
	}
	return q, ""
}

func (r *rsRes) qualified(ref *Ref) Resolution {
	q := ref.Qualifier
	head, rest := rsHead(q)
	isPath := rest == "" && !strings.HasPrefix(head, "<") && head != "self" &&
		(ref.QualifierType == "" && ref.QualifierCall == "" || IsUpper(head))
	if isPath {
		return r.pathRef(ref)
	}
	if strings.HasSuffix(ref.Name, "!") {
		return Unbound(RuleUnresolved, 0)
	}
	ty, ext, known := r.eval(ref)
	if known {
		t, text := r.resolveType(ty)
		if t != nil {
			m, amb, mext := r.method(t, ref.Name, 0)
			switch {
			case m != nil:
				return Bound(m, RuleReceiver)
			case amb > 0:
				return Unbound(RuleAmbiguous, amb)
			case mext:
				if m := r.extMethod(ty, ref.Name); m != nil {
					return Bound(m, RuleReceiver)
				}
				return Unbound(RuleExternal, 0)
			}
			return r.missingMethod(ref.Name)
		}
		if !text {
			// a type the index has no symbol for (declared inside a
			// macro such as pin_project!) whose impls it has
			if m := r.methodOfName(ty, ref.Name); m != nil {
				return Bound(m, RuleReceiver)
			}
		} else if m := r.extMethod(ty, ref.Name); m != nil {
			return Bound(m, RuleReceiver)
		}
		ext = ext || text
	}
	return r.uniqueMethod(ref.Name, ext)
}

// pathRef resolves a::b::name and Type::name.
func (r *rsRes) pathRef(ref *Ref) Resolution {
	segs := rsSplit(ref.Qualifier)
	var e rsEnt
	ok := false
	macro := strings.HasSuffix(ref.Name, "!")
	name := strings.TrimSuffix(ref.Name, "!")
	if ref.QualifierType != "" && IsUpper(segs[0]) {
		// Self::f, T::f with T: Bound
		if t, ext := r.resolveType(rsTy{s: ref.QualifierType, file: r.file}); t != nil {
			e, ok = rsEnt{sym: t}, true
		} else if ext {
			return Unbound(RuleExternal, 0)
		}
		for _, s := range segs[1:] {
			if !ok {
				break
			}
			e, ok = r.member(e, s, 1)
		}
	} else {
		e, ok = r.path(r.file, segs, 0, nil)
	}
	if !ok && IsUpper(segs[len(segs)-1]) {
		// a type the index has no symbol for, whose impls it has
		ty := rsTy{s: ref.Qualifier, file: r.file}
		if ref.QualifierType != "" {
			ty.s = ref.QualifierType
		}
		if m := r.methodOfName(ty, name); m != nil {
			return Bound(m, RuleReceiver)
		}
	}
	if !ok {
		if IsUpper(segs[len(segs)-1]) && len(segs) == 1 {
			// an unknown type: a generic parameter, or a glob's
			if fi := r.ctx.File; fi != nil {
				for _, g := range rsGlobs(fi) {
					if ge, ok := r.path(r.file, rsSplit(g.Source), 0, g); ok && ge.ext {
						return Unbound(RuleExternal, 0)
					}
				}
			}
		}
		return Unbound(RuleUnresolved, 0)
	}
	if e.ext {
		return Unbound(RuleExternal, 0)
	}
	if e.sym != nil && e.sym.Kind == KindVariable {
		// STATIC.method(): the static's type
		t, ext := r.resolveType(rsTy{s: e.sym.Returns, file: e.sym.Path})
		if t == nil {
			return r.uniqueMethod(name, ext)
		}
		e = rsEnt{sym: t}
	}
	if e.sym != nil && IsTypeKind(e.sym.Kind) {
		t := e.sym
		if macro {
			return Unbound(RuleUnresolved, 0)
		}
		for _, f := range t.Fields {
			if f.Name == name && IsUpper(name) && t.Kind == KindClass {
				return r.ruleFor(t, RuleImport) // Enum::Variant: the enum
			}
		}
		m, amb, mext := r.method(t, name, 0)
		switch {
		case m != nil:
			return Bound(m, RuleReceiver)
		case amb > 0:
			return Unbound(RuleAmbiguous, amb)
		case mext:
			return Unbound(RuleExternal, 0)
		}
		if m := r.scopedTraitMethod(name); m != nil {
			return Bound(m, RuleReceiver)
		}
		if rsStdTraitMethods[name] {
			return Unbound(RuleExternal, 0)
		}
		return Unbound(RuleUnresolved, 0)
	}
	if !e.isMod() {
		return Unbound(RuleUnresolved, 0)
	}
	m, ok := r.memberNS(e, name, 1, ref.Kind == RefCall)
	if !ok && macro {
		// #[macro_export] macros live at the crate root, wherever defined
		return r.bare(&Ref{Kind: ref.Kind, Name: ref.Name})
	}
	return r.entResolution(m, ok, RuleImport)
}

// UniqueMethod binds a method call whose receiver type is unknown: to the
// One method of that name when the name is distinctive and its type is in
// reach (in the caller's crate, or named by the caller's imports). With no
// method of that name in the repository the call is a library's.
func (r *rsRes) uniqueMethod(name string, ext bool) Resolution {
	ms := Pick(r.tab.ByName(name), func(t *Target) bool { return t.Kind == KindMethod || t.Kind == KindConstructor })
	switch {
	case ext || len(ms) == 0:
		return Unbound(RuleExternal, 0)
	case len(ms) > 1:
		if !rsCommonMethods[name] {
			id := r.tab.Memo("rs.trait\x00"+name, func() string {
				if m := r.traitMethod(ms); m != nil {
					return m.ID
				}
				return ""
			})
			for _, m := range ms {
				if id != "" && m.ID == id {
					return Bound(m, RuleUniqueName)
				}
			}
		}
		return Unbound(RuleAmbiguous, len(ms))
	case rsCommonMethods[name]:
		return Unbound(RuleUnresolved, 1)
	}
	m := ms[0]
	if r.crateDir(m.Path) != r.crateDir(r.file) {
		if _, ok := rsBindings(r.ctx.File)[rsContainerName(m.Container)]; !ok {
			return Unbound(RuleUnresolved, 1)
		}
	}
	return Bound(m, RuleUniqueName)
}

// traitMethod picks, among several methods of one name, the declaration
// in the one trait that has it when every other is in the impl of a type
// that implements that trait: what a call on a value of unknown type
// means at least.
func (r *rsRes) traitMethod(ms []*Target) *Target {
	var decl *Target
	for _, m := range ms {
		if r.containerKind(m) == KindInterface {
			if decl != nil {
				return nil
			}
			decl = m
		}
	}
	if decl == nil {
		return nil
	}
	trait := rsContainerName(decl.Container)
	for _, m := range ms {
		if m == decl {
			continue
		}
		if !r.implements(m, trait) {
			return nil
		}
	}
	return decl
}

// containerKind is the kind of the symbol a method's container names in
// the method's file ("" when it is not there).
func (r *rsRes) containerKind(m *Target) string {
	name := rsContainerName(m.Container)
	if name == "" {
		return ""
	}
	for _, t := range r.tab.ByName(name) {
		if t.Path == m.Path && IsTypeKind(t.Kind) {
			return t.Kind
		}
	}
	return ""
}

// implements reports whether method m sits in an impl of trait: its type
// lists the trait among its bases, or its file has an impl of it for a
// type defined elsewhere. With no way to tell it is taken as so when the
// file names the trait.
func (r *rsRes) implements(m *Target, trait string) bool {
	name := rsContainerName(m.Container)
	for _, t := range r.tab.ByName(name) {
		if t.Path == m.Path && IsTypeKind(t.Kind) {
			for _, b := range t.Bases {
				if LastIdent(b) == trait {
					return true
				}
			}
			return false
		}
	}
	// the type is defined elsewhere: the impl is in this file, which
	// must see the trait
	tt, _ := r.resolveType(rsTy{s: trait, file: m.Path})
	return tt != nil && tt.Kind == KindInterface
}

// selfName is the type self means in the referencing symbol.
func (r *rsRes) selfName() string {
	if f := r.ctx.From; f != nil && (f.Kind == KindMethod || f.Kind == KindConstructor) {
		return rsContainerName(f.Container)
	}
	return ""
}

// eval works out the type of a method call's receiver from its rendered
// qualifier: the head (self, a typed local, the result of a call, a path)
// and then fields, method calls, ? and .await. known is false when the
// receiver could not be followed; ext when it leads out of the repository.
func (r *rsRes) eval(ref *Ref) (ty rsTy, ext, known bool) {
	head, rest := rsHead(ref.Qualifier)
	self := r.selfName()
	switch {
	case ref.QualifierCall != "" && !strings.HasPrefix(rest, "()") && !strings.HasPrefix(head, "<"):
		// the local holds what an expression gives: evaluate it instead
		return r.evalExpr(rsCallExpr(ref.QualifierCall)+rest, self)
	case ref.QualifierType != "" && !strings.HasPrefix(rest, "()") && !strings.Contains(head, "::"):
		if ref.QualifierType == "_" {
			return ty, false, false
		}
		return r.follow(rsTy{s: ref.QualifierType, file: r.file, self: self}, rest, 0)
	}
	return r.evalExpr(ref.Qualifier, self)
}

// evalExpr works out the type of a rendered expression written in the
// referencing file: a head (<Type>, self, a call of a path, a static) and
// then fields, method calls, ? and .await. Results are memoized: builder
// chains share their prefixes.
func (r *rsRes) evalExpr(expr, self string) (rsTy, bool, bool) {
	key := "rs.eval\x00" + r.file + "\x00" + self + "\x00" + expr
	v := r.tab.Memo(key, func() string {
		ty, ext, known := r.evalUncached(expr, self)
		flags := "-"
		switch {
		case known:
			flags = "k"
		case ext:
			flags = "x"
		}
		return flags + ty.s + "\x00" + ty.file + "\x00" + ty.self
	})
	parts := strings.SplitN(v[1:], "\x00", 3)
	if len(parts) != 3 {
		return rsTy{}, false, false
	}
	return rsTy{s: parts[0], file: parts[1], self: parts[2]}, v[0] == 'x', v[0] == 'k'
}

func (r *rsRes) evalUncached(expr, self string) (ty rsTy, ext, known bool) {
	head, rest := rsHead(expr)
	switch {
	case strings.HasPrefix(head, "<"):
		if len(head) < 2 || !strings.HasSuffix(head, ">") {
			return ty, false, false
		}
		ty = rsTy{s: head[1 : len(head)-1], file: r.file, self: self}
		if ty.s == "_" {
			return ty, false, false
		}
	case head == "self":
		if self == "" {
			return ty, false, false
		}
		ty = rsTy{s: self, file: r.file, self: self}
	case strings.HasPrefix(rest, "()"):
		var ok bool
		ty, ext, ok = r.callResult(head, self, 0)
		if !ok {
			return ty, ext, false
		}
		rest = rest[2:]
	case head == "":
		return ty, false, false
	default:
		// a static, or a path to one
		e, ok := r.path(r.file, rsSplit(head), 0, nil)
		if !ok {
			return ty, false, false
		}
		if e.ext {
			return ty, true, false
		}
		if e.sym == nil || e.sym.Kind != KindVariable || e.sym.Returns == "" {
			return ty, false, false
		}
		ty = rsTy{s: e.sym.Returns, file: e.sym.Path}
	}
	return r.follow(ty, rest, 0)
}

// follow applies the operations of a rendered qualifier to a type.
func (r *rsRes) follow(ty rsTy, rest string, depth int) (rsTy, bool, bool) {
	for steps := 0; rest != "" && steps < 32; steps++ {
		switch {
		case strings.HasPrefix(rest, "?"):
			ty = rsUnwrap(ty)
			rest = rest[1:]
		case strings.HasPrefix(rest, ".await"):
			ty = r.await(ty)
			rest = rest[len(".await"):]
		case strings.HasPrefix(rest, "[]"):
			elem, ok := rsElem(ty)
			if !ok {
				return ty, false, false
			}
			ty = elem
			rest = rest[2:]
		case strings.HasPrefix(rest, "."):
			name := rest[1:]
			end := len(name)
			for i := 0; i < len(name); i++ {
				if c := name[i]; c == '.' || c == '(' || c == '?' || c == '[' {
					end = i
					break
				}
			}
			name, rest = name[:end], name[end:]
			call := strings.HasPrefix(rest, "()")
			if call {
				rest = rest[2:]
			}
			t, ext := r.resolveType(ty)
			if call {
				switch name {
				case "unwrap", "expect", "unwrap_or_default", "unwrap_or", "unwrap_or_else":
					ty = rsUnwrap(ty)
					continue
				}
			}
			if t == nil {
				return ty, ext, false
			}
			if !call {
				found := false
				for _, f := range t.Fields {
					if f.Name == name {
						ty, found = rsTy{s: f.Type, file: t.Path, self: t.Name}, true
						break
					}
				}
				if !found {
					return ty, false, false
				}
				continue
			}
			m, _, mext := r.method(t, name, 0)
			if mext {
				return ty, true, false
			}
			if m == nil {
				switch name {
				case "clone", "to_owned", "as_ref", "as_mut", "borrow", "borrow_mut":
					continue
				}
				return ty, false, false
			}
			if m.Returns == "" {
				return ty, false, false
			}
			ty = rsTy{s: m.Returns, file: m.Path, self: rsContainerName(m.Container)}
		default:
			return ty, false, false
		}
	}
	return ty, false, rest == ""
}

// callResult is the type a call of callee returns: callee is rendered like
// a qualifier ("Foo::open", "<Foo>.build", "self.make", "a.b().c").
func (r *rsRes) callResult(callee, self string, depth int) (rsTy, bool, bool) {
	if depth > MaxDepth {
		return rsTy{}, false, false
	}
	// split the callee into the receiver and the method or path member
	name, qual, sep := callee, "", ""
	for i := len(callee) - 1; i >= 0; i-- {
		c := callee[i]
		if c == '.' {
			name, qual, sep = callee[i+1:], callee[:i], "."
			break
		}
		if c == ':' && i > 0 && callee[i-1] == ':' {
			name, qual, sep = callee[i+1:], callee[:i-1], "::"
			break
		}
		if c == ')' || c == '>' || c == '?' {
			break
		}
	}
	var res Resolution
	switch {
	case sep == "":
		res = r.bare(&Ref{Kind: RefCall, Name: name})
	case sep == "::":
		sub := &Ref{Kind: RefCall, Name: name, Qualifier: qual}
		if h, _, _ := strings.Cut(qual, "::"); h == "Self" {
			sub.QualifierType = self
		}
		if IsUpper(name) {
			sub.Kind = RefNew
		}
		res = r.pathRef(sub)
	default:
		sub := &Ref{Kind: RefCall, Name: name, Qualifier: qual}
		if qual == "self" {
			sub.QualifierType = self
		}
		res = r.qualified(sub)
	}
	if res.Rule == RuleExternal {
		return rsTy{}, true, false
	}
	t := res.Target
	if t == nil {
		return rsTy{}, false, false
	}
	if IsTypeKind(t.Kind) {
		return rsTy{s: t.Name, file: t.Path}, false, true // a tuple struct or a variant
	}
	if t.Returns == "" {
		return rsTy{}, false, false
	}
	return rsTy{s: t.Returns, file: t.Path, self: rsContainerName(t.Container)}, false, true
}
