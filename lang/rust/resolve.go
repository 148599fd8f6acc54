package rust

import (
	"path"
	"strconv"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// builtins are calls the index does not record: the prelude's variant
// constructors and drop, and the standard library's macros (named with
// their "!", as the extractor records macro uses).
var builtins = lang.WordFile(data, "builtins.txt")

// prelude are the names every Rust module sees without a use: the
// prelude's types and traits and the primitive types. A path through them
// leads outside the repository.
var prelude = lang.WordFile(data, "prelude.txt")

// stdCrates are the crates of the standard distribution.
var stdCrates = map[string]bool{"std": true, "core": true, "alloc": true, "proc_macro": true, "test": true}

// commonMethods are method names of the standard library's types and
// traits so widespread that a unique definition in the repository says
// little about which one a call on an unknown receiver means.
var commonMethods = lang.WordFile(data, "common_methods.txt")

// ent is what a Rust path leads to: a module (a file, and an inline
// module path inside it), an item, or something outside the repository.
type ent struct {
	file string
	cont string
	sym  *lang.Target
	ext  bool
}

func (e ent) isMod() bool { return e.file != "" && e.sym == nil && !e.ext }

type resValue struct {
	tab  lang.Table
	ctx  *lang.Context
	file string
}

func newRes(ctx *lang.Context) *resValue {
	return &resValue{tab: ctx.Table, ctx: ctx, file: ctx.File.Path}
}

// encode and decode store an entity in Table.Memo.
func encode(e ent, ok bool) string {
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

func (r *resValue) decode(s string) (ent, bool) {
	if s == "" {
		return ent{}, false
	}
	switch s[0] {
	case 'x':
		return ent{ext: true}, true
	case 's':
		parts := strings.SplitN(s[1:], "\x00", 3)
		if len(parts) == 3 {
			for _, t := range r.tab.ByName(parts[1]) {
				if t.ID == parts[0] && t.Path == parts[2] {
					return ent{sym: t}, true
				}
			}
		}
		return ent{}, false
	}
	file, cont, _ := strings.Cut(s[1:], "\x00")
	return ent{file: file, cont: cont}, true
}

// modFile returns the file whose module is exactly mod; when several
// crates share a name, the one nearest to from, then a lib.rs.
func (r *resValue) modFile(from, mod string) string {
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

// childFile returns the file of the submodule name of file. A crate root
// whose submodules are its siblings (tests/a.rs, src/bin/x.rs) has those
// that a file beside it declares with mod name; (itself, or the
// tests/tests.rs whose modules the files beside it are, as ripgrep's
// are): the other files beside it are crate roots of their own, as
// tracing's tests/subscriber.rs is beside tests/event.rs.
func (r *resValue) childFile(file, name string) string {
	rf := r.rustFile(file)
	if rf.Children != rf.Module && !r.siblingModule(file, name) {
		return ""
	}
	if f := r.modFile(file, rf.Children+"::"+name); f != file {
		// tests/tempdir.rs, declared by tests/lib.rs, is no child of its own
		return f
	}
	return ""
}

// siblingModule reports whether a Rust file in file's directory declares
// mod name; at its top level.
func (r *resValue) siblingModule(file, name string) bool {
	dir := path.Dir(file)
	return r.tab.Memo("rs.sibmod\x00"+dir+"\x00"+name, func() string {
		for _, f := range r.tab.DirFiles(dir) {
			if fi := r.tab.File(f); fi != nil && strings.HasSuffix(f, ".rs") && declaresMod(fi, name) {
				return "1"
			}
		}
		return ""
	}) != ""
}

// declaresMod reports whether a file declares mod name; at its top level.
func declaresMod(fi *lang.FileInfo, name string) bool {
	for i := range fi.Imports {
		if fi.Imports[i].Source == "self::"+name {
			return true
		}
	}
	return false
}

// crateFile returns the lib.rs of the repository's crate called name, the
// one nearest to from when several share the name.
func (r *resValue) crateFile(from, name string) string {
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

// bindings maps the names a file's use, mod and extern crate items bind
// to their imports. A name bound more than once (cfg alternatives, or a
// macro and a trait of one name in different namespaces) keeps the others
// under "name\x001", "name\x002", ...: see bindingsOf.
func bindings(fi *lang.FileInfo) map[string]lang.Binding {
	return fi.BindingsWith(func() map[string]lang.Binding {
		m := map[string]lang.Binding{}
		put := func(name string, b lang.Binding) {
			key := name
			for i := 1; ; i++ {
				if _, ok := m[key]; !ok {
					m[key] = b
					return
				}
				key = name + "\x00" + strconv.Itoa(i)
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
					put(name, lang.Binding{Imp: imp})
				}
				continue
			}
			for _, n := range imp.Names {
				if n.Name == "*" {
					continue
				}
				if local := n.Local(); local != "_" {
					put(local, lang.Binding{Imp: imp, Name: n.Name})
				}
			}
		}
		return m
	})
}

// bindingsOf lists every binding of a name in a file.
func bindingsOf(fi *lang.FileInfo, name string) []lang.Binding {
	m := bindings(fi)
	b, ok := m[name]
	if !ok {
		return nil
	}
	out := []lang.Binding{b}
	for i := 1; ; i++ {
		b, ok := m[name+"\x00"+strconv.Itoa(i)]
		if !ok {
			return out
		}
		out = append(out, b)
	}
}

func globs(fi *lang.FileInfo) []*lang.Import {
	var out []*lang.Import
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

func split(p string) []string {
	p = strings.TrimPrefix(p, "::")
	if p == "" {
		return nil
	}
	return strings.Split(p, "::")
}

// path resolves a path written in file: its first segment through the
// file's bindings, child modules, items and the repository's crates; the
// rest through members. skip is the import whose own path this is.
func (r *resValue) path(file string, segs []string, depth int, skip *lang.Import) (ent, bool) {
	if len(segs) == 0 || depth > lang.MaxDepth {
		return ent{}, false
	}
	if skip == nil && depth == 0 {
		key := "rs.path\x00" + file + "\x00" + strings.Join(segs, "::")
		if segs[0] == "super" && file == r.file {
			m, _ := r.inlineMod()
			key += "\x00" + m
		}
		return r.decode(r.tab.Memo(key, func() string { return encode(r.pathUncached(file, segs, depth, nil)) }))
	}
	return r.pathUncached(file, segs, depth, skip)
}

func (r *resValue) pathUncached(file string, segs []string, depth int, skip *lang.Import) (ent, bool) {
	e, ok := r.first(file, segs[0], depth, skip)
	for _, s := range segs[1:] {
		if !ok || e.ext {
			return e, ok
		}
		e, ok = r.member(e, s, depth+1)
	}
	return e, ok
}

func (r *resValue) first(file, seg string, depth int, skip *lang.Import) (ent, bool) {
	rf := r.rustFile(file)
	switch seg {
	case "crate", "$crate":
		if rf.Module == rf.Root {
			// a crate root: main.rs beside lib.rs is a crate of its own
			return ent{file: file}, true
		}
		if f := r.modFile(file, rf.Root); f != "" {
			return ent{file: f}, true
		}
		return ent{}, false
	case "self":
		return ent{file: file}, true
	case "super":
		if m, ok := r.inlineMod(); ok && file == r.file {
			// super of an inline module (mod tests { use super::X; }):
			// the module around it in this file
			if i := strings.LastIndex(m, "."); i >= 0 {
				return ent{file: file, cont: m[:i]}, true
			}
			return ent{file: file}, true
		}
		if i := strings.LastIndex(rf.Module, "::"); i >= 0 {
			if f := r.modFile(file, rf.Module[:i]); f != "" {
				return ent{file: f}, true
			}
		}
		return ent{}, false
	}
	if stdCrates[seg] {
		return ent{ext: true}, true
	}
	if fi := r.tab.File(file); fi != nil {
		bound := false
		for _, b := range bindingsOf(fi, seg) {
			if b.Imp == skip {
				continue
			}
			if e, ok := r.binding(file, b, depth+1); ok {
				return e, true
			}
			bound = true
		}
		if bound {
			return ent{}, false // bound to something we cannot see
		}
	}
	if f := r.childFile(file, seg); f != "" {
		return ent{file: f}, true
	}
	if file == r.file {
		if t := r.inScope(seg, func(t *lang.Target) bool { return t.Kind != lang.KindMethod && t.Kind != lang.KindConstructor }); t != nil {
			if t.Kind == lang.KindModule {
				return ent{file: file, cont: t.Qualified()}, true
			}
			return ent{sym: t}, true
		}
	} else if e, ok := r.item(ent{file: file}, seg, false); ok {
		return e, true
	}
	if fi := r.tab.File(file); fi != nil {
		for _, g := range globs(fi) {
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
		return ent{file: f}, true // a library crate of the repository
	}
	if lang.IsUpper(seg) && !prelude.Has(seg) {
		return ent{}, false // a type we cannot see
	}
	return ent{ext: true}, true
}

// binding resolves what an import binding names.
func (r *resValue) binding(file string, b lang.Binding, depth int) (ent, bool) {
	if depth > lang.MaxDepth {
		return ent{}, false
	}
	key := "rs.bind\x00" + file + "\x00" + b.Imp.Source + "\x00" + b.Name + "\x00" + strconv.Itoa(b.Imp.Line)
	if depth <= 1 {
		return r.decode(r.tab.Memo(key, func() string { return encode(r.bindingUncached(file, b, depth)) }))
	}
	return r.bindingUncached(file, b, depth)
}

func (r *resValue) bindingUncached(file string, b lang.Binding, depth int) (ent, bool) {
	e, ok := r.path(file, split(b.Imp.Source), depth, b.Imp)
	if !ok || e.ext || b.Name == "" {
		return e, ok
	}
	return r.member(e, b.Name, depth+1)
}

// valueBinding resolves what an import binding names in the value
// namespace: the function, not the module, of its name.
func (r *resValue) valueBinding(file string, b lang.Binding, depth int) (ent, bool) {
	if b.Name == "" || depth > lang.MaxDepth {
		return ent{}, false
	}
	e, ok := r.path(file, split(b.Imp.Source), depth, b.Imp)
	if !ok || e.ext {
		return e, ok
	}
	return r.memberNS(e, b.Name, depth+1, true)
}

// rank orders the kinds an item name may have by namespace: a path
// segment or a type (value false) means a module or a type before a
// function or a static; a call (value true) the other way round. A module
// and a function of the same name coexist in Rust.
func rank(kind string, value bool) int {
	r := 1
	switch kind {
	case lang.KindModule:
		r = 0
	case lang.KindFunction, lang.KindVariable:
		r = 2
	}
	if value {
		r = 2 - r
	}
	return r
}

// item finds an item named name declared in a module entity itself.
func (r *resValue) item(e ent, name string, value bool) (ent, bool) {
	var found *lang.Target
	for _, t := range r.tab.ByName(name) {
		if t.Path != e.file || t.Container != e.cont || t.Kind == lang.KindMethod || t.Kind == lang.KindConstructor {
			continue
		}
		if t.Kind == lang.KindModule && t.Container == "" {
			if fi := r.tab.File(t.Path); fi != nil && fi.ModuleID == t.ID {
				continue // the file's own module symbol
			}
		}
		if found == nil || rank(t.Kind, value) < rank(found.Kind, value) {
			found = t
		}
	}
	if found == nil {
		return ent{}, false
	}
	if found.Kind == lang.KindModule {
		return ent{file: e.file, cont: found.Qualified()}, true
	}
	return ent{sym: found}, true
}

// member resolves name inside an entity: an item of a module, a child
// module, a re-export or a glob import of the module; a variant of an
// enum; an associated function of a type or a trait.
func (r *resValue) member(e ent, name string, depth int) (ent, bool) {
	return r.memberNS(e, name, depth, false)
}

// glob resolves the path of a glob import of file: what its names come
// from. Every lookup through the file's globs needs it, so it is
// memoised, computed afresh (depth 1) apart from the reference that asks.
func (r *resValue) glob(file string, g *lang.Import) (ent, bool) {
	key := "rs.glob\x00" + file + "\x00" + strconv.Itoa(g.Line) + "\x00" + g.Source
	return r.decode(r.tab.Memo(key, func() string {
		return encode(r.neutral().pathUncached(file, split(g.Source), 1, g))
	}))
}

// neutral is a resolver of paths that does not depend on the referencing
// file's scopes, for values memoised for every file.
func (r *resValue) neutral() *resValue { return &resValue{tab: r.tab, ctx: r.ctx} }

// memberNS is member with the namespace a call's name is looked up in. The
// members of a module are memoised: globs and re-exports make the same
// lookups again and again.
func (r *resValue) memberNS(e ent, name string, depth int, value bool) (ent, bool) {
	if e.isMod() && depth <= lang.MaxDepth {
		key := "rs.member\x00" + e.file + "\x00" + e.cont + "\x00" + name
		if value {
			key += "\x00v"
		}
		return r.decode(r.tab.Memo(key, func() string { return encode(r.neutral().memberUncached(e, name, 1, value)) }))
	}
	return r.memberUncached(e, name, depth, value)
}

func (r *resValue) memberUncached(e ent, name string, depth int, value bool) (ent, bool) {
	switch {
	case e.ext:
		return e, true
	case depth > lang.MaxDepth:
		return ent{}, false
	case e.sym != nil:
		t := e.sym
		if t.Kind == lang.KindClass {
			for _, f := range t.Fields {
				if f.Name == name && lang.IsUpper(name) {
					return e, true // a variant: its enum
				}
			}
		}
		if lang.IsTypeKind(t.Kind) {
			m, _, ext := r.method(t, name, 0)
			if m != nil {
				return ent{sym: m}, true
			}
			if ext {
				return ent{ext: true}, true
			}
		}
		return ent{}, false
	}
	if e.file == "" {
		return ent{}, false
	}
	if !value && e.cont == "" {
		if f := r.childFile(e.file, name); f != "" {
			return ent{file: f}, true
		}
	}
	if it, ok := r.item(e, name, value); ok {
		return it, true
	}
	if e.cont != "" {
		// mod m { mod x; }: x's file is under m's directory
		if value {
			return ent{}, false // a module is no value
		}
		if f := r.modFile(e.file, r.rustFile(e.file).Children+"::"+strings.ReplaceAll(e.cont, ".", "::")+"::"+name); f != "" {
			return ent{file: f}, true
		}
		return ent{}, false
	}
	if !value {
		if f := r.childFile(e.file, name); f != "" {
			return ent{file: f}, true
		}
	}
	fi := r.tab.File(e.file)
	if fi == nil {
		return ent{}, false
	}
	// a re-export: pub use a::b
	for _, b := range bindingsOf(fi, name) {
		if value {
			// pub use util::copy re-exports the function beside the
			// module copy: follow it in the value namespace
			if re, ok := r.valueBinding(e.file, b, depth+1); ok && !re.isMod() {
				return re, true
			}
			continue
		}
		if re, ok := r.binding(e.file, b, depth+1); ok {
			return re, true
		}
	}
	for _, g := range globs(fi) {
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
		var ms []*lang.Target
		for _, t := range r.tab.ByName(name) {
			if t.Kind == lang.KindFunction && t.Exported && t.Container == "" && r.crateDir(t.Path) == rf.CrateDir &&
				r.rustFile(t.Path).Root == rf.Root {
				ms = append(ms, t)
			}
		}
		if len(ms) == 1 {
			return ent{sym: ms[0]}, true
		}
	}
	return ent{}, false
}

// crateDir is the crate directory of a file.
func (r *resValue) crateDir(p string) string { return r.rustFile(p).CrateDir }

// rustFile is placeOf(p), memoized: resolution asks it of the same few
// files again and again.
func (r *resValue) rustFile(p string) cratePlace {
	v := r.tab.Memo("rs.file\x00"+p, func() string {
		f := placeOf(p)
		return f.Module + "\x00" + f.Root + "\x00" + f.Children + "\x00" + f.CrateDir
	})
	parts := strings.SplitN(v, "\x00", 4)
	if len(parts) != 4 {
		return placeOf(p)
	}
	return cratePlace{Module: parts[0], Root: parts[1], Children: parts[2], CrateDir: parts[3]}
}

// method finds method name of a type: its impls' methods (in the type's
// file first, then in its crate), then the default methods of the traits
// it implements. For a trait, its own methods and its supertraits'. For an
// alias, the aliased type's; ext reports an alias of a type outside the
// repository. ambiguous counts the candidates when several fit.
func (r *resValue) method(typ *lang.Target, name string, depth int) (m *lang.Target, ambiguous int, ext bool) {
	if depth > lang.MaxDepth || typ == nil {
		return nil, 0, false
	}
	if m, amb := r.ownMethod(typ, name); m != nil || amb > 0 {
		return m, amb, false
	}
	if typ.Kind == lang.KindType && typ.Returns != "" {
		// an alias: the aliased type's methods
		at, ext := r.resolveType(tyOf{s: typ.Returns, file: typ.Path})
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
		bt, ext := r.resolveType(tyOf{s: b, file: typ.Path})
		extBase = extBase || ext
		if bt != nil && bt.Kind == lang.KindInterface && bt.ID != typ.ID {
			if m, amb, _ := r.method(bt, name, depth+1); m != nil || amb > 0 {
				return m, amb, false
			}
		}
	}
	if deref != "" {
		// auto-deref: the methods of Deref's Target
		target := assoc(deref, "Target")
		dt, ext := r.resolveType(tyOf{s: target, file: typ.Path, self: typ.Name})
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
			if t.Kind == lang.KindMethod && r.containerKind(t) == lang.KindInterface {
				return nil, 0, false
			}
		}
	}
	return nil, 0, extBase
}

// ownMethod finds the method of a type's own impls (or a trait's own
// methods).
func (r *resValue) ownMethod(typ *lang.Target, name string) (*lang.Target, int) {
	var inFile, others []*lang.Target
	for _, t := range r.tab.ByName(name) {
		if (t.Kind != lang.KindMethod && t.Kind != lang.KindConstructor && !(t.Kind == lang.KindVariable && t.Container != "")) ||
			containerName(t.Container) != typ.Name {
			continue
		}
		if t.Path == typ.Path {
			inFile = append(inFile, t)
		} else if typ.Kind != lang.KindInterface { // a trait's methods sit in the trait
			others = append(others, t)
		}
	}
	switch {
	case len(inFile) == 1:
		return inFile[0], 0
	case len(inFile) > 1:
		// a type of the same name in a module of the file (alacritty's
		// trait ActionContext and, in its mod tests, a struct
		// ActionContext implementing it): the members of this very one
		var own *lang.Target
		n := 0
		for _, t := range inFile {
			if t.Container == typ.Qualified() {
				own, n = t, n+1
			}
		}
		if n == 1 {
			return own, 0
		}
		return nil, len(inFile)
	}
	if len(others) == 1 && r.crateDir(others[0].Path) == r.crateDir(typ.Path) {
		return others[0], 0
	}
	if len(others) > 0 {
		// impls elsewhere, in the type's crate or (extension traits) in
		// others: those whose file sees this very type by its name
		var seen []*lang.Target
		for _, t := range others {
			if tt, _ := r.resolveType(tyOf{s: typ.Name, file: t.Path}); tt != nil && tt.ID == typ.ID {
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
func (r *resValue) extMethod(ty tyOf, name string) *lang.Target {
	base, _ := splitGeneric(stripType(ty.s))
	base = lang.LastIdent(base)
	if base == "" || base == "_" {
		return nil
	}
	var found *lang.Target
	for _, t := range r.tab.ByName(name) {
		if t.Kind != lang.KindMethod || containerName(t.Container) != base {
			continue
		}
		if tt, ext := r.resolveType(tyOf{s: base, file: t.Path}); tt != nil || !ext {
			continue
		}
		if found != nil {
			return nil
		}
		found = t
	}
	return found
}

// assoc reads an associated type from a bound: "Deref<Target = T>".
func assoc(b, name string) string {
	i := strings.Index(b, name)
	if i < 0 {
		return ""
	}
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(b[i+len(name):]), "="))
	if j := topIndex(rest, '>'); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest)
}

// methodOfName finds the one method name of a type known by its name
// only.
func (r *resValue) methodOfName(ty tyOf, name string) *lang.Target {
	base, _ := splitGeneric(stripType(ty.s))
	if base == "Self" {
		base = ty.self
	}
	base = lang.LastIdent(base)
	if base == "" || base == "_" || prelude.Has(base) {
		return nil
	}
	var found *lang.Target
	for _, t := range r.tab.ByName(name) {
		if (t.Kind == lang.KindMethod || t.Kind == lang.KindConstructor) && containerName(t.Container) == base {
			if found != nil {
				return nil
			}
			found = t
		}
	}
	return found
}

// stdTraitMethods are the methods of the standard traits a type gets by
// derive or a blanket impl: a repository type without its own is using
// the standard library's.
var stdTraitMethods = map[string]bool{
	"clone": true, "clone_from": true, "fmt": true, "eq": true, "ne": true, "cmp": true, "partial_cmp": true,
	"lt": true, "le": true, "gt": true, "ge": true, "hash": true, "default": true, "into": true, "try_into": true,
	"from": true, "try_from": true, "to_string": true, "to_owned": true, "borrow": true, "borrow_mut": true,
	"as_ref": true, "as_mut": true, "type_id": true, "max": true, "min": true, "clamp": true,
}

// missingMethod handles a method a known repository type does not have
// among its impls and traits: a method of a trait in scope (a blanket
// impl gives it), a standard trait's, or any.
func (r *resValue) missingMethod(name string) lang.Resolution {
	if m := r.scopedTraitMethod(name); m != nil {
		return lang.Bound(m, lang.RuleReceiver)
	}
	if stdTraitMethods[name] {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return r.uniqueMethod(name, false)
}

// scopedTraitMethod finds method name in the one trait of the repository
// that declares it and is in scope in the referencing file: a trait's
// method is callable only where the trait is in scope.
func (r *resValue) scopedTraitMethod(name string) *lang.Target {
	var found *lang.Target
	for _, t := range r.tab.ByName(name) {
		if t.Kind != lang.KindMethod || r.containerKind(t) != lang.KindInterface {
			continue
		}
		if !r.traitInScope(containerName(t.Container), t.Path) {
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
// there, also renamed or as _, or re-exported by a module the file
// imports with a glob (a prelude's pub use a::Trait as __Trait).
func (r *resValue) traitInScope(trait, traitFile string) bool {
	if tt, _ := r.resolveType(tyOf{s: trait, file: r.file}); tt != nil && tt.Kind == lang.KindInterface && tt.Path == traitFile {
		return true
	}
	return r.importsTrait(r.file, r.ctx.File, trait, traitFile, 0)
}

// maxGlobHops bounds how many glob imports traitInScope follows: a file's
// use super::* of a module whose use a::prelude::* re-exports the trait
// is two.
const maxGlobHops = 2

// importsTrait reports whether a use of file imports the trait of that
// name defined in traitFile, under any name (use a::Trait as _, a prelude's alias
// __Trait), directly or through the modules its globs import.
func (r *resValue) importsTrait(file string, fi *lang.FileInfo, trait, traitFile string, hops int) bool {
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if len(imp.Names) == 0 {
			if e, ok := r.binding(file, lang.Binding{Imp: imp}, hops); ok && isTrait(e, trait, traitFile) {
				return true
			}
			continue
		}
		for _, n := range imp.Names {
			if n.Name == "*" {
				continue
			}
			if e, ok := r.binding(file, lang.Binding{Imp: imp, Name: n.Name}, hops); ok && isTrait(e, trait, traitFile) {
				return true
			}
		}
	}
	if hops >= maxGlobHops {
		return false
	}
	for _, g := range globs(fi) {
		ge, ok := r.glob(file, g)
		if !ok || ge.ext || ge.file == "" || ge.file == file || ge.cont != "" {
			continue
		}
		if gf := r.tab.File(ge.file); gf != nil && r.importsTrait(ge.file, gf, trait, traitFile, hops+1) {
			return true
		}
	}
	return false
}

// isTrait reports whether e is the trait of that name defined in traitFile.
func isTrait(e ent, trait, traitFile string) bool {
	return e.sym != nil && e.sym.Kind == lang.KindInterface && e.sym.Name == trait && e.sym.Path == traitFile
}

// containerName is the last part of a container: "m.Foo" -> "Foo".
func containerName(c string) string {
	return c[strings.LastIndexByte(c, '.')+1:]
}

// tyOf is a type as written, with the file it is written in and the type
// Self means there.
type tyOf struct {
	s, file, self string
}

// resolveType resolves a written type to its symbol; ext reports a type
// from outside the repository.
func (r *resValue) resolveType(ty tyOf) (*lang.Target, bool) {
	s := stripType(ty.s)
	for i := 0; i < 4; i++ {
		base, args := splitGeneric(s)
		if wrapperTypes[base] && len(args) > 0 {
			s = stripType(args[0])
			continue
		}
		break
	}
	base, _ := splitGeneric(s)
	switch {
	case base == "" || base == "_" || strings.HasPrefix(base, "(") || strings.HasPrefix(base, "["):
		return nil, false
	case base == "Self":
		if ty.self == "" || ty.self == "Self" {
			return nil, false
		}
		return r.resolveType(tyOf{s: ty.self, file: ty.file})
	}
	key := "rs.type\x00" + ty.file + "\x00" + base
	e, ok := r.decode(r.tab.Memo(key, func() string { return encode(r.typeUncached(ty.file, base)) }))
	if !ok {
		return nil, false
	}
	if e.ext {
		return nil, true
	}
	if e.sym != nil && (lang.IsTypeKind(e.sym.Kind)) {
		return e.sym, false
	}
	return nil, false
}

func (r *resValue) typeUncached(file, base string) (ent, bool) {
	if strings.Contains(base, "::") {
		return r.path(file, split(base), 1, nil)
	}
	// a type of this file, at any depth
	var same []*lang.Target
	for _, t := range r.tab.ByName(base) {
		if t.Path == file && lang.IsTypeKind(t.Kind) {
			same = append(same, t)
		}
	}
	if len(same) == 1 {
		return ent{sym: same[0]}, true
	}
	for _, t := range same {
		if t.Container == "" {
			return ent{sym: t}, true
		}
	}
	if e, ok := r.path(file, []string{base}, 1, nil); ok && (e.ext || e.sym != nil) {
		return e, true
	}
	if fi := r.tab.File(file); fi != nil {
		for _, g := range globs(fi) {
			ge, ok := r.glob(file, g)
			if !ok || ge.ext {
				continue
			}
			if m, ok := r.member(ge, base, 2); ok && m.sym != nil {
				return m, true
			}
		}
	}
	if prelude.Has(base) {
		return ent{ext: true}, true
	}
	return ent{}, false
}

// stripType removes references, lifetimes, mut, dyn and impl from a
// written type: "&'a mut dyn Foo + Send" -> "Foo".
func stripType(s string) string {
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
	if i := topIndex(s, '+'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// splitGeneric splits "a::Foo<A, B<C>>" into "a::Foo" and [A, B<C>].
func splitGeneric(s string) (string, []string) {
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

// topIndex is the index of c outside brackets, or -1. A closing
// bracket c is found where it closes nothing opened after the start.
func topIndex(s string, c byte) int {
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

// elem is the element type indexing a collection gives: Vec<T>, [T],
// VecDeque<T>, HashMap<K, V>, BTreeMap<K, V>, IndexMap<K, V>.
func elem(ty tyOf) (tyOf, bool) {
	s := stripType(ty.s)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		inner := s[1 : len(s)-1]
		if i := topIndex(inner, ';'); i >= 0 {
			inner = inner[:i]
		}
		ty.s = strings.TrimSpace(inner)
		return ty, true
	}
	base, args := splitGeneric(s)
	switch lang.LastIdent(base) {
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

// unwrap is the type inside a Result, an Option or a Poll (what ?,
// unwrap and expect give).
func unwrap(ty tyOf) tyOf {
	base, args := splitGeneric(stripType(ty.s))
	base = base[strings.LastIndex(base, ":")+1:]
	if len(args) > 0 && (strings.HasSuffix(base, "Result") || base == "Option" || base == "Poll") {
		ty.s = args[0]
	}
	return ty
}

// await is the type .await gives: the Output of an impl Future, or of the
// Future or IntoFuture a repository type implements.
func (r *resValue) await(ty tyOf) tyOf {
	if out := future(ty); out.s != ty.s {
		return out
	}
	if t, _ := r.resolveType(ty); t != nil {
		for _, b := range t.Bases {
			if strings.Contains(b, "Future<") && strings.Contains(b, "Output") {
				return future(tyOf{s: b, file: t.Path, self: t.Name})
			}
		}
	}
	return ty
}

// future is the output of an impl Future<Output = T>.
func future(ty tyOf) tyOf {
	if i := strings.Index(ty.s, "Output"); i >= 0 && strings.Contains(ty.s, "Future") {
		rest := strings.TrimSpace(ty.s[i+len("Output"):])
		rest = strings.TrimSpace(strings.TrimPrefix(rest, "="))
		if j := topIndex(rest, '>'); j >= 0 {
			rest = rest[:j]
		} else {
			rest = strings.TrimSuffix(rest, ">")
		}
		ty.s = strings.TrimSpace(rest)
	}
	return ty
}

func resolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	r := newRes(ctx)
	e, ok := r.path(r.file, split(imp.Source), 0, imp)
	if ok && !e.ext && name != "" && name != "*" {
		e, ok = r.member(e, name, 1)
	}
	if !ok {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if e.ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if t := r.target(e); t != nil {
		return lang.Bound(t, lang.RuleImport)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// target is the symbol an entity stands for: an item, an inline module's
// symbol or a file's module symbol.
func (r *resValue) target(e ent) *lang.Target {
	switch {
	case e.sym != nil:
		return e.sym
	case e.file == "":
		return nil
	case e.cont != "":
		name := e.cont[strings.LastIndexByte(e.cont, '.')+1:]
		for _, t := range r.tab.ByName(name) {
			if t.Path == e.file && t.Kind == lang.KindModule && t.Qualified() == e.cont {
				return t
			}
		}
		return nil
	}
	return lang.ModuleTarget(r.tab, e.file)
}

func resolve(ctx *lang.Context, ref *lang.Ref) lang.Resolution {
	r := newRes(ctx)
	switch {
	case ref.Kind == lang.RefImplements || ref.Kind == lang.RefExtends:
		return r.typeRef(ref)
	case ref.Qualifier == "":
		return r.bare(ref)
	}
	return r.qualified(ref)
}

// rule is same_file for a target in the referencing file, else rule.
func (r *resValue) ruleFor(t *lang.Target, rule string) lang.Resolution {
	if t.Path == r.file && rule == lang.RuleImport {
		return lang.Bound(t, lang.RuleSameFile)
	}
	return lang.Bound(t, rule)
}

func (r *resValue) typeRef(ref *lang.Ref) lang.Resolution {
	if ref.Qualifier != "" {
		e, ok := r.path(r.file, split(ref.Qualifier), 0, nil)
		if ok && !e.ext {
			e, ok = r.member(e, ref.Name, 1)
		}
		return r.entResolution(e, ok, lang.RuleImport)
	}
	t, ext := r.resolveType(tyOf{s: ref.Name, file: r.file})
	if t != nil {
		return r.ruleFor(t, lang.RuleImport)
	}
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

func (r *resValue) entResolution(e ent, ok bool, rule string) lang.Resolution {
	switch {
	case !ok:
		return lang.Unbound(lang.RuleUnresolved, 0)
	case e.ext:
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if t := r.target(e); t != nil {
		return r.ruleFor(t, rule)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// scopeOf is the qualified name items of the referencing symbol's
// enclosing modules and functions start with.
func (r *resValue) scopeOf() string {
	f := r.ctx.From
	if f == nil || f.Kind == lang.KindModule && f.Container == "" && f.ID == r.ctx.File.ModuleID {
		return ""
	}
	return f.Qualified()
}

// inlineMod is the qualified name of the innermost inline module of the
// referencing file that holds the referencing symbol (or is it).
func (r *resValue) inlineMod() (string, bool) {
	for q := r.scopeOf(); q != ""; {
		for _, t := range r.tab.ByName(q[strings.LastIndex(q, ".")+1:]) {
			if t.Kind == lang.KindModule && t.Path == r.file && t.Qualified() == q && t.ID != r.ctx.File.ModuleID {
				return q, true
			}
		}
		i := strings.LastIndex(q, ".")
		if i < 0 {
			break
		}
		q = q[:i]
	}
	return "", false
}

// inScope finds an item of the referencing file visible from the
// referencing symbol: declared at the top level, or in a module or
// function that encloses the symbol, the nearest first.
func (r *resValue) inScope(name string, keep func(*lang.Target) bool) *lang.Target {
	scope := r.scopeOf()
	var best *lang.Target
	bestLen, tie := -1, false
	for _, t := range r.tab.ByName(name) {
		if t.Path != r.file || !keep(t) {
			continue
		}
		if t.Container != "" && scope != t.Container && !strings.HasPrefix(scope, t.Container+".") {
			continue
		}
		if t.Kind == lang.KindModule && t.Container == "" && t.ID == r.ctx.File.ModuleID {
			continue
		}
		switch l := len(t.Container); {
		case l > bestLen:
			best, bestLen, tie = t, l, false
		case l == bestLen:
			switch a, b := rank(t.Kind, false), rank(best.Kind, false); {
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
func (r *resValue) bare(ref *lang.Ref) lang.Resolution {
	if builtins.Has(ref.Name) {
		return lang.Unbound(lang.RuleBuiltin, 0)
	}
	macro := strings.HasSuffix(ref.Name, "!")
	name := strings.TrimSuffix(ref.Name, "!")
	keep := func(t *lang.Target) bool {
		switch {
		case macro:
			return t.Kind == lang.KindFunction
		case ref.Kind == lang.RefNew:
			return lang.IsTypeKind(t.Kind)
		}
		return t.Kind != lang.KindMethod && t.Kind != lang.KindConstructor && t.Kind != lang.KindModule && t.Kind != lang.KindInterface
	}
	// a call looks its name up among values: a module of that name is no candidate
	value := !macro && ref.Kind != lang.RefNew
	cands := r.tab.ByName(name)
	if t := r.inScope(name, keep); t != nil {
		return lang.Bound(t, lang.RuleSameFile)
	}
	fi := r.ctx.File
	if bs := bindingsOf(fi, name); len(bs) > 0 {
		var e ent
		ok := false
		modules := 0
		for _, b := range bs {
			e, ok = r.binding(r.file, b, 0)
			if ok && e.sym != nil && !keep(e.sym) && !(ref.Kind == lang.RefNew && e.sym.Kind == lang.KindClass) {
				ok = false
			}
			if ok && e.isMod() && (value || macro) {
				// use crate::middleware::map_request binds the function
				// beside the module of its name (axum's); mod tempdir;
				// binds only the module, and the function may come from
				// a glob, as just's tests/lib.rs's does; use crate::keymap
				// also binds the #[macro_export] keymap! at the crate root
				e, ok = r.valueBinding(r.file, b, 0)
				if !ok || e.isMod() || e.sym != nil && !keep(e.sym) {
					ok = false
					modules++
				}
			}
			if ok {
				break
			}
		}
		if ok || modules < len(bs) {
			return r.entResolution(e, ok, lang.RuleImport)
		}
	}
	extGlob := false
	for _, g := range globs(fi) {
		ge, ok := r.path(r.file, split(g.Source), 0, g)
		if !ok {
			continue
		}
		if ge.ext {
			extGlob = true
			continue
		}
		if m, ok := r.memberNS(ge, name, 1, value); ok {
			if m.ext {
				return lang.Unbound(lang.RuleExternal, 0)
			}
			if t := r.target(m); t != nil && (keep(t) || m.sym != nil && ref.Kind == lang.RefNew) {
				rule := lang.RuleImport
				if g.Source == "super" && t.Path != r.file {
					rule = lang.RuleSamePackage // a child module's use super::*
				}
				return r.ruleFor(t, rule)
			}
		}
	}
	if macro {
		// macro_rules! macros reach the whole crate by textual scope
		crate := r.crateDir(r.file)
		var ms []*lang.Target
		for _, t := range cands {
			if t.Kind == lang.KindFunction && r.crateDir(t.Path) == crate {
				ms = append(ms, t)
			}
		}
		switch {
		case len(ms) == 1 || len(ms) > 1 && oneFile(ms):
			// several in one file are cfg alternatives of one macro
			return lang.Bound(ms[0], lang.RuleSamePackage)
		case len(ms) > 1:
			return lang.Unbound(lang.RuleAmbiguous, len(ms))
		}
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if prelude.Has(name) || extGlob {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	// nothing in scope: a distinctive name defined once in the crate
	crate := r.crateDir(r.file)
	var one []*lang.Target
	for _, t := range cands {
		if keep(t) && t.Kind != lang.KindVariable && r.crateDir(t.Path) == crate {
			one = append(one, t)
		}
	}
	if len(one) == 1 && !commonMethods.Has(name) {
		return lang.Bound(one[0], lang.RuleUniqueName)
	}
	if len(one) > 1 {
		return lang.Unbound(lang.RuleAmbiguous, len(one))
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// oneFile reports whether all targets are in one file.
func oneFile(ts []*lang.Target) bool {
	for _, t := range ts[1:] {
		if t.Path != ts[0].Path {
			return false
		}
	}
	return true
}

// head splits a rendered qualifier into its head and the rest: "a::b()
// .c" -> "a::b", "().c"; "<Foo>.x" -> "<Foo>", ".x".
func head(q string) (head, rest string) {
	if strings.HasPrefix(q, "<") {
		if i := topIndex(q[1:], '>'); i >= 0 {
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

func (r *resValue) qualified(ref *lang.Ref) lang.Resolution {
	q := ref.Qualifier
	head, rest := head(q)
	isPath := rest == "" && !strings.HasPrefix(head, "<") && head != "self" &&
		(ref.QualifierType == "" && ref.QualifierCall == "" || lang.IsUpper(head))
	if isPath {
		return r.pathRef(ref)
	}
	if strings.HasSuffix(ref.Name, "!") {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	ty, ext, known := r.eval(ref)
	if known {
		t, text := r.resolveType(ty)
		if t != nil {
			m, amb, mext := r.method(t, ref.Name, 0)
			switch {
			case m != nil:
				return lang.Bound(m, lang.RuleReceiver)
			case amb > 0:
				return lang.Unbound(lang.RuleAmbiguous, amb)
			case mext:
				if m := r.extMethod(ty, ref.Name); m != nil {
					return lang.Bound(m, lang.RuleReceiver)
				}
				return lang.Unbound(lang.RuleExternal, 0)
			}
			return r.missingMethod(ref.Name)
		}
		if !text {
			// a type the index has no symbol for (declared inside a
			// macro such as pin_project!) whose impls it has
			if m := r.methodOfName(ty, ref.Name); m != nil {
				return lang.Bound(m, lang.RuleReceiver)
			}
		} else if m := r.extMethod(ty, ref.Name); m != nil {
			return lang.Bound(m, lang.RuleReceiver)
		}
		ext = ext || text
	}
	return r.uniqueMethod(ref.Name, ext)
}

// pathRef resolves a::b::name and Type::name.
func (r *resValue) pathRef(ref *lang.Ref) lang.Resolution {
	segs := split(ref.Qualifier)
	var e ent
	ok := false
	macro := strings.HasSuffix(ref.Name, "!")
	name := strings.TrimSuffix(ref.Name, "!")
	if ref.QualifierType != "" && lang.IsUpper(segs[0]) {
		// Self::f, T::f with T: Bound
		if t, ext := r.resolveType(tyOf{s: ref.QualifierType, file: r.file}); t != nil {
			e, ok = ent{sym: t}, true
		} else if ext {
			return lang.Unbound(lang.RuleExternal, 0)
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
	if !ok && lang.IsUpper(segs[len(segs)-1]) {
		// a type the index has no symbol for, whose impls it has
		ty := tyOf{s: ref.Qualifier, file: r.file}
		if ref.QualifierType != "" {
			ty.s = ref.QualifierType
		}
		if m := r.methodOfName(ty, name); m != nil {
			return lang.Bound(m, lang.RuleReceiver)
		}
	}
	if !ok {
		if lang.IsUpper(segs[len(segs)-1]) && len(segs) == 1 {
			// an unknown type: a generic parameter, or a glob's
			if fi := r.ctx.File; fi != nil {
				for _, g := range globs(fi) {
					if ge, ok := r.path(r.file, split(g.Source), 0, g); ok && ge.ext {
						return lang.Unbound(lang.RuleExternal, 0)
					}
				}
			}
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if e.ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if e.sym != nil && e.sym.Kind == lang.KindVariable {
		// STATIC.method(): the static's type
		t, ext := r.resolveType(tyOf{s: e.sym.Returns, file: e.sym.Path})
		if t == nil {
			return r.uniqueMethod(name, ext)
		}
		e = ent{sym: t}
	}
	if e.sym != nil && lang.IsTypeKind(e.sym.Kind) {
		t := e.sym
		if macro {
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		for _, f := range t.Fields {
			if f.Name == name && lang.IsUpper(name) && t.Kind == lang.KindClass {
				return r.ruleFor(t, lang.RuleImport) // Enum::Variant: the enum
			}
		}
		m, amb, mext := r.method(t, name, 0)
		switch {
		case m != nil:
			return lang.Bound(m, lang.RuleReceiver)
		case amb > 0:
			return lang.Unbound(lang.RuleAmbiguous, amb)
		case mext:
			return lang.Unbound(lang.RuleExternal, 0)
		}
		if m := r.scopedTraitMethod(name); m != nil {
			return lang.Bound(m, lang.RuleReceiver)
		}
		if stdTraitMethods[name] {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if !e.isMod() {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	m, ok := r.memberNS(e, name, 1, ref.Kind == lang.RefCall)
	if !ok && macro {
		// #[macro_export] macros live at the crate root, wherever defined
		return r.bare(&lang.Ref{Kind: ref.Kind, Name: ref.Name})
	}
	return r.entResolution(m, ok, lang.RuleImport)
}

// uniqueMethod binds a method call whose receiver type is unknown: to the
// one method of that name when the name is distinctive and its type is in
// reach (in the caller's crate, or named by the caller's imports). With no
// method of that name in the repository the call is a library's.
func (r *resValue) uniqueMethod(name string, ext bool) lang.Resolution {
	ms := lang.Pick(r.tab.ByName(name), func(t *lang.Target) bool { return t.Kind == lang.KindMethod || t.Kind == lang.KindConstructor })
	switch {
	case ext || len(ms) == 0:
		return lang.Unbound(lang.RuleExternal, 0)
	case len(ms) > 1:
		if !commonMethods.Has(name) {
			id := r.tab.Memo("rs.trait\x00"+name, func() string {
				if m := r.traitMethod(ms); m != nil {
					return m.ID
				}
				return ""
			})
			for _, m := range ms {
				if id != "" && m.ID == id {
					return lang.Bound(m, lang.RuleUniqueName)
				}
			}
		}
		return lang.Unbound(lang.RuleAmbiguous, len(ms))
	case commonMethods.Has(name):
		return lang.Unbound(lang.RuleUnresolved, 1)
	}
	m := ms[0]
	if r.crateDir(m.Path) != r.crateDir(r.file) {
		if _, ok := bindings(r.ctx.File)[containerName(m.Container)]; !ok {
			return lang.Unbound(lang.RuleUnresolved, 1)
		}
	}
	return lang.Bound(m, lang.RuleUniqueName)
}

// traitMethod picks, among several methods of one name, the declaration
// in the one trait that has it when every other is in the impl of a type
// that implements that trait: what a call on a value of unknown type
// means at least.
func (r *resValue) traitMethod(ms []*lang.Target) *lang.Target {
	var decl *lang.Target
	for _, m := range ms {
		if r.containerKind(m) == lang.KindInterface {
			if decl != nil {
				return nil
			}
			decl = m
		}
	}
	if decl == nil {
		return nil
	}
	trait := containerName(decl.Container)
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
func (r *resValue) containerKind(m *lang.Target) string {
	name := containerName(m.Container)
	if name == "" {
		return ""
	}
	for _, t := range r.tab.ByName(name) {
		if t.Path == m.Path && lang.IsTypeKind(t.Kind) {
			return t.Kind
		}
	}
	return ""
}

// implements reports whether method m sits in an impl of trait: its type
// lists the trait among its bases, or its file has an impl of it for a
// type defined elsewhere. With no way to tell it is taken as so when the
// file names the trait.
func (r *resValue) implements(m *lang.Target, trait string) bool {
	name := containerName(m.Container)
	for _, t := range r.tab.ByName(name) {
		if t.Path == m.Path && lang.IsTypeKind(t.Kind) {
			for _, b := range t.Bases {
				if lang.LastIdent(b) == trait {
					return true
				}
			}
			return false
		}
	}
	// the type is defined elsewhere: the impl is in this file, which
	// must see the trait
	tt, _ := r.resolveType(tyOf{s: trait, file: m.Path})
	return tt != nil && tt.Kind == lang.KindInterface
}

// selfName is the type self means in the referencing symbol.
func (r *resValue) selfName() string {
	if f := r.ctx.From; f != nil && (f.Kind == lang.KindMethod || f.Kind == lang.KindConstructor) {
		return containerName(f.Container)
	}
	return ""
}

// eval works out the type of a method call's receiver from its rendered
// qualifier: the head (self, a typed local, the result of a call, a path)
// and then fields, method calls, ? and .await. known is false when the
// receiver could not be followed; ext when it leads out of the repository.
func (r *resValue) eval(ref *lang.Ref) (ty tyOf, ext, known bool) {
	head, rest := head(ref.Qualifier)
	self := r.selfName()
	switch {
	case ref.QualifierCall != "" && !strings.HasPrefix(rest, "()") && !strings.HasPrefix(head, "<"):
		// the local holds what an expression gives: evaluate it instead
		return r.evalExpr(callExpr(ref.QualifierCall)+rest, self)
	case ref.QualifierType != "" && !strings.HasPrefix(rest, "()") && !strings.Contains(head, "::"):
		if ref.QualifierType == "_" {
			return ty, false, false
		}
		return r.follow(tyOf{s: ref.QualifierType, file: r.file, self: self}, rest, 0)
	}
	return r.evalExpr(ref.Qualifier, self)
}

// evalExpr works out the type of a rendered expression written in the
// referencing file: a head (<Type>, self, a call of a path, a static) and
// then fields, method calls, ? and .await. Results are memoized: builder
// chains share their prefixes.
func (r *resValue) evalExpr(expr, self string) (tyOf, bool, bool) {
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
		return tyOf{}, false, false
	}
	return tyOf{s: parts[0], file: parts[1], self: parts[2]}, v[0] == 'x', v[0] == 'k'
}

func (r *resValue) evalUncached(expr, self string) (ty tyOf, ext, known bool) {
	head, rest := head(expr)
	switch {
	case strings.HasPrefix(head, "<"):
		if len(head) < 2 || !strings.HasSuffix(head, ">") {
			return ty, false, false
		}
		ty = tyOf{s: head[1 : len(head)-1], file: r.file, self: self}
		if ty.s == "_" {
			return ty, false, false
		}
	case head == "self":
		if self == "" {
			return ty, false, false
		}
		ty = tyOf{s: self, file: r.file, self: self}
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
		e, ok := r.path(r.file, split(head), 0, nil)
		if !ok {
			return ty, false, false
		}
		if e.ext {
			return ty, true, false
		}
		if e.sym == nil || e.sym.Kind != lang.KindVariable || e.sym.Returns == "" {
			return ty, false, false
		}
		ty = tyOf{s: e.sym.Returns, file: e.sym.Path}
	}
	return r.follow(ty, rest, 0)
}

// follow applies the operations of a rendered qualifier to a type.
func (r *resValue) follow(ty tyOf, rest string, depth int) (tyOf, bool, bool) {
	for steps := 0; rest != "" && steps < 32; steps++ {
		switch {
		case strings.HasPrefix(rest, "?"):
			ty = unwrap(ty)
			rest = rest[1:]
		case strings.HasPrefix(rest, ".await"):
			ty = r.await(ty)
			rest = rest[len(".await"):]
		case strings.HasPrefix(rest, "[]"):
			elem, ok := elem(ty)
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
					ty = unwrap(ty)
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
						ty, found = tyOf{s: f.Type, file: t.Path, self: t.Name}, true
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
				// a method a blanket impl of a trait in scope gives, as
				// missingMethod binds a call: registry().with(a).with(b)
				m = r.scopedTraitMethod(name)
			}
			if m == nil {
				return ty, false, false
			}
			if m.Returns == "" {
				return ty, false, false
			}
			ty = tyOf{s: m.Returns, file: m.Path, self: containerName(m.Container)}
		default:
			return ty, false, false
		}
	}
	return ty, false, rest == ""
}

// callResult is the type a call of callee returns: callee is rendered like
// a qualifier ("Foo::open", "<Foo>.build", "self.make", "a.b().c").
func (r *resValue) callResult(callee, self string, depth int) (tyOf, bool, bool) {
	if depth > lang.MaxDepth {
		return tyOf{}, false, false
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
	var res lang.Resolution
	switch {
	case sep == "":
		res = r.bare(&lang.Ref{Kind: lang.RefCall, Name: name})
	case sep == "::":
		sub := &lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: qual}
		if h, _, _ := strings.Cut(qual, "::"); h == "Self" {
			sub.QualifierType = self
		}
		if lang.IsUpper(name) {
			sub.Kind = lang.RefNew
		}
		res = r.pathRef(sub)
	default:
		sub := &lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: qual}
		if qual == "self" {
			sub.QualifierType = self
		}
		res = r.qualified(sub)
	}
	if res.Rule == lang.RuleExternal {
		return tyOf{}, true, false
	}
	t := res.Target
	if t == nil {
		return tyOf{}, false, false
	}
	if lang.IsTypeKind(t.Kind) {
		return tyOf{s: t.Name, file: t.Path}, false, true // a tuple struct or a variant
	}
	if t.Returns == "" {
		return tyOf{}, false, false
	}
	return tyOf{s: t.Returns, file: t.Path, self: containerName(t.Container)}, false, true
}
