package lang

import (
	"strings"
)

// Kotlin and Swift resolve alike: a file sees the top-level names of its
// own module (a Kotlin package, a Swift target), of what it imports, and
// the members of the classes around it through an implicit this/self;
// constructions are calls of a type's name; extensions add members to
// types in other files. ktsLang holds what differs.
type ktsLang struct {
	name   string
	ext    []string
	self   string          // "this" or "self"
	std    map[string]bool // names of the standard library every file sees: external
	common map[string]bool // method names too common to bind by name alone
	// explicit reports whether imports bind single names (Kotlin's import
	// a.b.C); Swift imports whole modules.
	explicit bool
	// stripType reduces a declared type to the name to resolve.
	stripType func(string) string
	// dslFile reports a file whose calls a name found nowhere binds to
	// its DSL, outside the repository (Kotlin's Gradle scripts).
	dslFile func(path string) bool
	// extensions: PackageRules.Extensions
	extensions bool
	markers    map[string]bool // PackageRules.Markers
}

func (L *ktsLang) isLang(p string) bool {
	for _, e := range L.ext {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// moduleInRepo reports whether some file of the repository is exactly in
// module mod.
func (L *ktsLang) moduleInRepo(tab Table, mod string) bool {
	if mod == "" {
		return false
	}
	return tab.Memo(L.name+".mod\x00"+mod, func() string {
		for _, f := range tab.ModuleFiles(L.name, mod) {
			if fi := tab.File(f); fi != nil && fi.Module == mod {
				return "1"
			}
		}
		return ""
	}) == "1"
}

// topLevel returns the top-level symbols called name in module mod (or in
// the file p when mod is "").
func (L *ktsLang) topLevel(tab Table, name, mod, p string, keep func(*Target) bool) []*Target {
	return Pick(tab.ByName(name), func(t *Target) bool {
		if !L.isLang(t.Path) || t.Container != "" && !L.topExtension(t) || t.Kind == KindModule || keep != nil && !keep(t) {
			return false
		}
		if p != "" {
			return t.Path == p
		}
		return t.Module == mod
	})
}

// topExtension reports whether t is a top-level extension function (fun
// T.name()): a member of T to its callers, and a top-level name of its
// package to imports.
func (L *ktsLang) topExtension(t *Target) bool {
	return t.Receiver != "" && t.Container == L.strip(t.Receiver)
}

// extensionOf binds a call of name on a value of typ, a type outside the
// repository (List, String), to a top-level extension of typ the file
// sees: its own, one it imports by name, its package's, a star import's.
func (L *ktsLang) extensionOf(ctx *Context, typ, name string) (Resolution, bool) {
	if typ == "" {
		return Resolution{}, false
	}
	tab, fi := ctx.Table, ctx.File
	keep := func(t *Target) bool { return L.topExtension(t) && t.Container == typ }
	if res, ok := oneOr(L.samePart(L.topLevel(tab, name, "", fi.Path, keep)), RuleSameFile); ok {
		return res, true
	}
	if b, ok := L.bindings(fi)[name]; ok {
		mod, n := LastSegment(b.Imp.Source)
		if res, ok := oneOr(L.samePart(L.topLevel(tab, n, mod, "", keep)), RuleImport); ok {
			return res, true
		}
	}
	if fi.Module != "" {
		if res, ok := oneOr(L.samePart(L.topLevel(tab, name, fi.Module, "", keep)), RuleSamePackage); ok {
			return res, true
		}
	}
	var viaWild []*Target
	for _, m := range L.wildModules(fi) {
		viaWild = append(viaWild, L.topLevel(tab, name, m, "", keep)...)
	}
	return oneOr(L.samePart(viaWild), RuleImport)
}

// bindings maps the local names a Kotlin file's single imports bind to
// those imports.
func (L *ktsLang) bindings(fi *FileInfo) map[string]Binding {
	return fi.BindingsWith(func() map[string]Binding {
		m := map[string]Binding{}
		if !L.explicit {
			return m
		}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if len(imp.Names) > 0 {
				continue
			}
			_, name := LastSegment(imp.Source)
			local := name
			if imp.Alias != "" {
				local = imp.Alias
			}
			m[local] = Binding{Imp: imp, Name: name}
		}
		return m
	})
}

// wildModules are the modules whose top-level names a file sees whole:
// Kotlin's import a.b.*, Swift's import M.
func (L *ktsLang) wildModules(fi *FileInfo) []string {
	var out []string
	for _, imp := range fi.Imports {
		if L.explicit && (len(imp.Names) == 0 || imp.Names[0].Name != "*") {
			continue
		}
		if !L.explicit && len(imp.Names) > 0 {
			continue
		}
		out = append(out, imp.Source)
	}
	return out
}

// hasExternal reports whether a file imports something from outside the
// repository, so that a name found nowhere in it is likely that's.
func (L *ktsLang) hasExternal(tab Table, fi *FileInfo) bool {
	for _, imp := range fi.Imports {
		mod := imp.Source
		if L.explicit && len(imp.Names) == 0 {
			mod, _ = LastSegment(mod)
		}
		if !L.moduleInRepo(tab, mod) {
			return true
		}
	}
	return false
}

// oneOr is one or ambiguous: the single candidate bound by rule, else ambiguous.
func oneOr(ts []*Target, rule string) (Resolution, bool) {
	switch len(ts) {
	case 0:
		return Resolution{}, false
	case 1:
		return Bound(ts[0], rule), true
	}
	return Unbound(RuleAmbiguous, len(ts)), true
}

// resolveType binds a type name as written in file fi, from inside the
// symbol qualified from: nested types of the classes around, the file, its
// imports, its module, the standard library, a unique name.
func (L *ktsLang) resolveType(tab Table, fi *FileInfo, from, typ string, depth int) Resolution {
	typ = strings.TrimSpace(typ)
	if typ == "" || depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		head, name := typ[:i], typ[i+1:]
		if res := L.resolveType(tab, fi, from, head, depth+1); res.Target != nil {
			if t := L.nested(tab, res.Target, name); t != nil {
				return Bound(t, res.Rule)
			}
			return Unbound(RuleUnresolved, 0)
		}
		// a package: a.b.C
		if L.moduleInRepo(tab, head) {
			if res, ok := oneOr(L.samePart(L.topLevel(tab, name, head, "", isTypeTarget)), RuleImport); ok {
				return res
			}
			return Unbound(RuleUnresolved, 0)
		}
		return Unbound(RuleExternal, 0)
	}
	types := Pick(tab.ByName(typ), func(t *Target) bool { return IsTypeKind(t.Kind) && L.isLang(t.Path) })
	// nested in the classes around
	for c := from; c != ""; c, _ = LastSegment(c) {
		if ts := Pick(types, func(t *Target) bool { return t.Container == c && t.Path == fi.Path }); len(ts) > 0 {
			res, _ := oneOr(ts, RuleSameFile)
			return res
		}
		if L.extensions {
			// declared in an extension of c in another file of the module
			if ts := Pick(types, func(t *Target) bool { return t.Container == c && t.Module == fi.Module }); len(ts) > 0 {
				res, _ := oneOr(L.samePart(ts), RuleSamePackage)
				return res
			}
		}
		if !strings.Contains(c, ".") {
			break
		}
	}
	// a class and its companion object (Scala) are one name in one file
	if res, ok := oneOr(L.samePart(Pick(types, func(t *Target) bool { return t.Path == fi.Path && t.Container == "" })), RuleSameFile); ok {
		return res
	}
	if b, ok := L.bindings(fi)[typ]; ok {
		mod, name := LastSegment(b.Imp.Source)
		if !L.moduleInRepo(tab, mod) {
			return Unbound(RuleExternal, 0)
		}
		if res, ok := oneOr(L.samePart(L.topLevel(tab, name, mod, "", isTypeTarget)), RuleImport); ok {
			return res
		}
		return Unbound(RuleUnresolved, 0)
	}
	if fi.Module != "" {
		if res, ok := oneOr(L.samePart(Pick(types, func(t *Target) bool { return t.Module == fi.Module && t.Container == "" })), RuleSamePackage); ok {
			return res
		}
	}
	var viaWild []*Target
	for _, m := range L.wildModules(fi) {
		viaWild = append(viaWild, Pick(types, func(t *Target) bool { return t.Module == m && t.Container == "" })...)
	}
	if res, ok := oneOr(L.samePart(viaWild), RuleImport); ok {
		return res
	}
	if L.std[typ] {
		return Unbound(RuleExternal, 0)
	}
	if res, ok := oneOr(L.samePart(Pick(types, func(t *Target) bool { return t.Container == "" })), RuleUniqueName); ok && res.Target != nil {
		return res
	}
	if L.hasExternal(tab, fi) {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// samePart keeps one of several declarations of one qualified name in one
// module (an expect and its actual, a type redeclared in broken code).
func (L *ktsLang) samePart(ts []*Target) []*Target {
	if len(ts) < 2 {
		return ts
	}
	q, m := ts[0].Qualified(), ts[0].Module
	for _, t := range ts[1:] {
		if t.Qualified() != q || t.Module != m {
			return PreferDefinitions(ts)
		}
	}
	return ts[:1]
}

func isTypeTarget(t *Target) bool { return IsTypeKind(t.Kind) }

// nested finds a member type of t.
func (L *ktsLang) nested(tab Table, t *Target, name string) *Target {
	q := t.Qualified()
	return One(Pick(tab.ByName(name), func(c *Target) bool {
		return IsTypeKind(c.Kind) && c.Container == q && L.isLang(c.Path)
	}))
}

// member finds a member of type typ called name, its own (declared in its
// body or in an extension of it) or inherited through its bases. ext is
// true when some base is outside the repository, where the member may be.
func (L *ktsLang) member(tab Table, typ *Target, name string, depth int) (m *Target, ext bool) {
	if typ == nil || depth > MaxDepth {
		return nil, false
	}
	q := typ.Qualified()
	ms := Pick(tab.ByName(name), func(c *Target) bool {
		if c.Container != q || c.Kind == KindModule || !L.isLang(c.Path) || c.Module != typ.Module && c.Kind == KindClass {
			return false
		}
		if L.topExtension(c) && c.Module != typ.Module {
			// an extension of a type of this name, maybe another package's
			// one: its file must see typ by that name
			efi := tab.File(c.Path)
			if efi == nil {
				return false
			}
			t := L.resolveType(tab, efi, "", c.Container, depth+1).Target
			return t != nil && t.ID == typ.ID
		}
		return true
	})
	if len(ms) > 0 {
		// overloads of one name count once: the first, in a stable order
		return ms[0], false
	}
	fi := tab.File(typ.Path)
	if fi == nil {
		return nil, false
	}
	for _, b := range typ.Bases {
		res := L.resolveType(tab, fi, typ.Container, L.strip(b), depth+1)
		if res.Target == nil {
			if res.Rule == RuleExternal {
				ext = true
			}
			continue
		}
		if res.Target.ID == typ.ID {
			continue
		}
		if m, e := L.member(tab, res.Target, name, depth+1); m != nil {
			return m, false
		} else if e {
			ext = true
		}
	}
	return nil, ext
}

func (L *ktsLang) strip(s string) string { return L.stripType(s) }

// enclosingType is the type whose member the reference is made in: the
// container of a method, or the type around a nested function.
func (L *ktsLang) enclosingType(ctx *Context) *Target {
	if ctx.From == nil {
		return nil
	}
	tab := ctx.Table
	q := ctx.From.Container
	if IsTypeKind(ctx.From.Kind) {
		q = ctx.From.Qualified()
	}
	for q != "" {
		head, name := LastSegment(q)
		ts := Pick(tab.ByName(name), func(t *Target) bool {
			return IsTypeKind(t.Kind) && t.Container == head && L.isLang(t.Path)
		})
		if same := Pick(ts, func(t *Target) bool { return t.Path == ctx.File.Path }); len(same) > 0 {
			return same[0]
		}
		if mod := Pick(ts, func(t *Target) bool { return t.Module == ctx.File.Module }); len(mod) > 0 {
			// an extension's members: the type they extend
			return mod[0]
		}
		if len(ts) == 1 {
			return ts[0]
		}
		q = head
	}
	return nil
}

// typeOfValue returns the type a value of declared type typ has, seen
// from fi.
func (L *ktsLang) typeOfValue(tab Table, fi *FileInfo, from, typ string, depth int) Resolution {
	typ = L.strip(typ)
	if typ == "" {
		return Unbound(RuleUnresolved, 0)
	}
	return L.resolveType(tab, fi, from, typ, depth)
}

// field returns the type of member name of typ: a property's declared
// type, walking bases.
func (L *ktsLang) field(tab Table, typ *Target, name string, depth int) (string, *Target) {
	if typ == nil || depth > MaxDepth {
		return "", nil
	}
	for _, f := range typ.Fields {
		if f.Name == name {
			return f.Type, typ
		}
	}
	if m, _ := L.member(tab, typ, name, depth); m != nil && m.Kind == KindVariable {
		return m.Returns, m
	}
	return "", nil
}

func (L *ktsLang) from(ctx *Context) string {
	if ctx.From == nil || ctx.From.Kind == KindModule {
		return ""
	}
	return ctx.From.Qualified()
}

func (L *ktsLang) resolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	tab := ctx.Table
	switch r.Kind {
	case RefExtends, RefImplements:
		typ := r.Name
		if r.Qualifier != "" {
			typ = r.Qualifier + "." + r.Name
		}
		from := ""
		if ctx.From != nil {
			from = ctx.From.Container
		}
		res := L.resolveType(tab, ctx.File, from, typ, 0)
		if res.Target != nil && ctx.From != nil && res.Target.ID == ctx.From.ID {
			return Unbound(RuleUnresolved, 0)
		}
		return res
	case RefNew:
		typ := r.Name
		if r.Qualifier != "" && r.Qualifier != "?" {
			typ = r.Qualifier + "." + r.Name
		}
		res := L.resolveType(tab, ctx.File, L.from(ctx), typ, 0)
		if res.Target != nil || res.Rule == RuleAmbiguous {
			return res
		}
		if r.Qualifier == "" {
			// Foo() may be a function named like a type
			if fres := L.bare(ctx, r); fres.Target != nil {
				return fres
			}
		}
		return res
	}
	if r.Qualifier == "" {
		return L.bare(ctx, r)
	}
	return L.qualified(ctx, r, depth)
}

// bare binds f(): a local function, a member of the types around (an
// implicit this), the file's, an import's, the module's, a unique name.
func (L *ktsLang) bare(ctx *Context, r *Ref) Resolution {
	tab := ctx.Table
	fi := ctx.File
	cands := Pick(tab.ByName(r.Name), func(t *Target) bool { return L.isLang(t.Path) && t.Kind != KindModule })
	// functions nested in the enclosing ones
	if ctx.From != nil {
		for c := ctx.From.Qualified(); c != ""; c, _ = LastSegment(c) {
			if ts := Pick(cands, func(t *Target) bool {
				return t.Path == fi.Path && t.Container == c && t.Kind == KindFunction
			}); len(ts) > 0 {
				return Bound(ts[0], RuleSameFile)
			}
			if !strings.Contains(c, ".") {
				break
			}
		}
	}
	ext := false
	for typ, d := L.enclosingType(ctx), 0; typ != nil && d < MaxDepth; d++ {
		if m, e := L.member(tab, typ, r.Name, 0); m != nil {
			return Bound(m, RuleReceiver)
		} else if e {
			ext = true
		}
		if typ.Container == "" {
			break
		}
		typ = L.enclosingType(&Context{File: ctx.File, From: &Target{Container: typ.Container, Kind: KindMethod}, Table: tab})
	}
	if res, ok := oneOr(L.samePart(L.topLevel(tab, r.Name, "", fi.Path, nil)), RuleSameFile); ok {
		return res
	}
	if b, ok := L.bindings(fi)[r.Name]; ok {
		mod, name := LastSegment(b.Imp.Source)
		if m := L.importedMember(tab, fi, b.Imp.Source); m != nil {
			return Bound(m, RuleImport)
		}
		if !L.moduleInRepo(tab, mod) {
			return Unbound(RuleExternal, 0)
		}
		if res, ok := oneOr(L.samePart(L.topLevel(tab, name, mod, "", nil)), RuleImport); ok {
			return res
		}
	}
	if fi.Module != "" {
		if res, ok := oneOr(L.samePart(L.topLevel(tab, r.Name, fi.Module, "", nil)), RuleSamePackage); ok {
			return res
		}
	}
	var viaWild []*Target
	for _, m := range L.wildModules(fi) {
		viaWild = append(viaWild, L.topLevel(tab, r.Name, m, "", nil)...)
	}
	if res, ok := oneOr(L.samePart(viaWild), RuleImport); ok {
		return res
	}
	if l := ByName(L.name); l.builtins.Has(r.Name) {
		return Unbound(RuleBuiltin, 0)
	}
	if ext || L.std[r.Name] {
		return Unbound(RuleExternal, 0)
	}
	if res := L.unique(tab, r.Name); res.Target != nil {
		return res
	}
	if L.hasExternal(tab, fi) || !L.definedAnywhere(tab, r.Name) || L.dslFile != nil && L.dslFile(fi.Path) {
		// a Gradle script calls its DSL
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// minUniqueName is the shortest name a unique-name guess binds: shorter
// ones (run, get, add) are defined too often for one definition to say
// much.
const minUniqueName = 4

// distinctive reports whether a unique-name guess may bind name: not a
// common one, nor a short one.
func (L *ktsLang) distinctive(name string) bool {
	return !L.common[name] && len(name) >= minUniqueName
}

// unique binds a distinctive name defined once in the repository: a bare
// call's last resort, and m() on a value of unknown type.
func (L *ktsLang) unique(tab Table, name string) Resolution {
	if !L.distinctive(name) {
		return Unbound(RuleUnresolved, 0)
	}
	ts := Pick(tab.ByName(name), func(t *Target) bool {
		return L.isLang(t.Path) && IsCallable(t.Kind) && t.Kind != KindVariable
	})
	if t := One(L.samePart(ts)); t != nil {
		return Bound(t, RuleUniqueName)
	}
	if t := One(PreferDefinitions(ts)); t != nil {
		return Bound(t, RuleUniqueName)
	}
	if len(ts) > 1 {
		return Unbound(RuleAmbiguous, len(ts))
	}
	return Unbound(RuleUnresolved, 0)
}

// qualified binds q.m(): through the type of q's head (typed, this/self,
// assigned from a call, a type name), then the properties along q.
func (L *ktsLang) qualified(ctx *Context, r *Ref, depth int) Resolution {
	res := L.qualifiedMember(ctx, r, depth)
	if (res.Target == nil || res.Rule == RuleUniqueName) && L.explicit {
		// x.f() where f is no member of x's type but a top-level function
		// in scope: a Kotlin extension function
		if e := L.extension(ctx, r.Name); e.Target != nil || e.Rule == RuleAmbiguous && res.Rule != RuleAmbiguous {
			return e
		}
	}
	if res.Target == nil && res.Rule != RuleExternal && !L.definedAnywhere(ctx.Table, r.Name) {
		// nothing of that name in the repository: the callee is outside
		return Unbound(RuleExternal, 0)
	}
	return res
}

// extension finds the top-level function name that the file sees: its
// own, a single import's, its package's, a wildcard import's.
func (L *ktsLang) extension(ctx *Context, name string) Resolution {
	tab, fi := ctx.Table, ctx.File
	fn := func(t *Target) bool { return t.Kind == KindFunction }
	if res, ok := oneOr(L.samePart(L.topLevel(tab, name, "", fi.Path, fn)), RuleSameFile); ok {
		return res
	}
	if b, ok := L.bindings(fi)[name]; ok {
		mod, n := LastSegment(b.Imp.Source)
		if res, ok := oneOr(L.samePart(L.topLevel(tab, n, mod, "", fn)), RuleImport); ok {
			return res
		}
		if m := L.importedMember(tab, fi, b.Imp.Source); m != nil {
			return Bound(m, RuleImport)
		}
	}
	if fi.Module != "" {
		if res, ok := oneOr(L.samePart(L.topLevel(tab, name, fi.Module, "", fn)), RuleSamePackage); ok {
			return res
		}
	}
	var viaWild []*Target
	for _, m := range L.wildModules(fi) {
		viaWild = append(viaWild, L.topLevel(tab, name, m, "", fn)...)
	}
	res, _ := oneOr(L.samePart(viaWild), RuleImport)
	return res
}

// importedMember binds import a.b.T.m and import a.b.T.Companion.m: a
// member of a type (an object's, a companion's).
func (L *ktsLang) importedMember(tab Table, fi *FileInfo, src string) *Target {
	owner, name := LastSegment(src)
	owner = strings.TrimSuffix(owner, ".Companion")
	if owner == "" || L.moduleInRepo(tab, owner) || !strings.Contains(owner, ".") {
		return nil
	}
	res := L.resolveType(tab, fi, "", owner, 0)
	if res.Target == nil {
		return nil
	}
	m, _ := L.member(tab, res.Target, name, 0)
	return m
}

// definedAnywhere reports whether some symbol of the language is called
// name.
func (L *ktsLang) definedAnywhere(tab Table, name string) bool {
	for _, t := range tab.ByName(name) {
		if L.isLang(t.Path) && t.Kind != KindModule {
			return true
		}
	}
	return false
}

func (L *ktsLang) qualifiedMember(ctx *Context, r *Ref, depth int) Resolution {
	tab := ctx.Table
	fi := ctx.File
	if r.Qualifier == "?" {
		return L.unique(tab, r.Name)
	}
	segs := strings.Split(r.Qualifier, ".")
	var head Resolution
	rest := segs[1:]
	switch {
	case r.QualifierCall != "":
		head = L.callResult(ctx, r.QualifierCall, depth)
		if strings.HasSuffix(r.Qualifier, "()") {
			rest = nil
		}
	case r.QualifierType != "":
		head = L.typeOfValue(tab, fi, L.from(ctx), r.QualifierType, 0)
	case segs[0] == L.self:
		if t := L.enclosingType(ctx); t != nil {
			head = Bound(t, RuleReceiver)
		}
	case IsUpper(segs[0]):
		// a type: its companion's or static members, an object's, an
		// enum's; or a package path a.b.C
		head = L.resolveType(tab, fi, L.from(ctx), segs[0], 0)
		for len(rest) > 0 && head.Target != nil {
			if t := L.nested(tab, head.Target, rest[0]); t != nil {
				head.Target, rest = t, rest[1:]
				continue
			}
			break
		}
	default:
		if b, ok := L.bindings(fi)[segs[0]]; ok {
			mod, _ := LastSegment(b.Imp.Source)
			if !L.moduleInRepo(tab, mod) {
				return Unbound(RuleExternal, 0)
			}
		}
		if L.explicit && len(segs) > 1 {
			// a fully qualified call: a.b.C.m() or a.b.f()
			for i := len(segs); i > 0; i-- {
				pkg := strings.Join(segs[:i], ".")
				if !L.moduleInRepo(tab, pkg) {
					continue
				}
				if i == len(segs) {
					res, _ := oneOr(L.samePart(L.topLevel(tab, r.Name, pkg, "", nil)), RuleImport)
					if res.Target != nil {
						return res
					}
				}
				break
			}
		}
		if L.std[segs[0]] {
			return Unbound(RuleExternal, 0)
		}
		// a property of the enclosing type or of its bases (implicit this)
		if enc := L.enclosingType(ctx); enc != nil {
			if ft, owner := L.field(tab, enc, segs[0], 0); ft != "" {
				if ofi := tab.File(owner.Path); ofi != nil {
					head = L.typeOfValue(tab, ofi, owner.Qualified(), ft, 0)
					if owner.Kind == KindVariable {
						head = L.typeOfValue(tab, ofi, owner.Container, ft, 0)
					}
				}
			}
		}
		if head.Target == nil && head.Rule != RuleExternal {
			return L.unique(tab, r.Name)
		}
	}
	typ := head.Target
	if typ == nil {
		if head.Rule == RuleExternal || head.Rule == RuleBuiltin {
			if r.QualifierType != "" && len(rest) == 0 {
				// v.f() with v: List<T>: the repository's fun List<T>.f()
				if res, ok := L.extensionOf(ctx, L.strip(r.QualifierType), r.Name); ok {
					return res
				}
			}
			return Unbound(RuleExternal, 0)
		}
		return L.unique(tab, r.Name)
	}
	for i, seg := range rest {
		ft, _ := L.field(tab, typ, seg, 0)
		if ft == "" {
			return L.unique(tab, r.Name)
		}
		tfi := tab.File(typ.Path)
		if tfi == nil {
			return Unbound(RuleUnresolved, 0)
		}
		res := L.typeOfValue(tab, tfi, typ.Qualified(), ft, 0)
		if res.Target == nil {
			if res.Rule == RuleExternal {
				if res, ok := L.extensionOf(ctx, L.strip(ft), r.Name); ok && i == len(rest)-1 {
					return res
				}
				return Unbound(RuleExternal, 0)
			}
			return L.unique(tab, r.Name)
		}
		typ = res.Target
	}
	if !IsTypeKind(typ.Kind) {
		return L.unique(tab, r.Name)
	}
	m, ext := L.member(tab, typ, r.Name, 0)
	if m != nil {
		return Bound(m, RuleReceiver)
	}
	if L.common[r.Name] || ext && L.opaque(tab, typ, 0) {
		return Unbound(RuleExternal, 0)
	}
	if res := L.protocolMember(tab, r.Name); res.Target != nil {
		return res
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// opaque reports whether a base of typ, or of its bases in the
// repository, is outside the repository and no marker
// (PackageRules.Markers): a member typ lacks may be that base's. It is
// asked only when some base is outside; without Extensions the answer is
// yes.
func (L *ktsLang) opaque(tab Table, typ *Target, depth int) bool {
	fi := tab.File(typ.Path)
	if !L.extensions || fi == nil || depth > MaxDepth {
		return true
	}
	for _, b := range typ.Bases {
		if b = L.strip(b); L.markers[b] {
			continue
		}
		res := L.resolveType(tab, fi, typ.Container, b, depth+1)
		if res.Target == nil && res.Rule == RuleExternal ||
			res.Target != nil && res.Target.ID != typ.ID && L.opaque(tab, res.Target, depth+1) {
			return true
		}
	}
	return false
}

// protocolMember binds a member name that no type along a receiver's
// bases has, none of them outside the repository but markers, when types
// conform to protocols in extensions (PackageRules.Extensions), to the
// one protocol of the repository that has it, by unique name: which
// protocols the type conforms to elsewhere is not known here.
func (L *ktsLang) protocolMember(tab Table, name string) Resolution {
	if !L.extensions || !L.distinctive(name) {
		return Unbound(RuleUnresolved, 0)
	}
	ms := Pick(tab.ByName(name), func(c *Target) bool {
		if c.Kind != KindMethod || !L.isLang(c.Path) {
			return false
		}
		head, last := LastSegment(c.Container)
		return One(Pick(tab.ByName(last), func(p *Target) bool {
			return p.Kind == KindInterface && p.Container == head && p.Module == c.Module
		})) != nil
	})
	if t := One(L.samePart(ms)); t != nil {
		return Bound(t, RuleUniqueName)
	}
	return Unbound(RuleUnresolved, 0)
}

// callResult is the type a call returns: a constructor's class, a
// function's declared return type.
func (L *ktsLang) callResult(ctx *Context, call string, depth int) Resolution {
	q, name := LastSegment(call)
	kind := RefCall
	if q == "" && IsUpper(name) {
		kind = RefNew
	}
	res := L.resolve(ctx, &Ref{Kind: kind, Name: name, Qualifier: q}, depth+1)
	t := res.Target
	if t == nil {
		return res
	}
	if IsTypeKind(t.Kind) {
		return res
	}
	if t.Kind == KindConstructor {
		if fi := ctx.Table.File(t.Path); fi != nil {
			return L.resolveType(ctx.Table, fi, t.Container, t.Container, 0)
		}
	}
	if t.Returns == "" {
		return Unbound(RuleUnresolved, 0)
	}
	fi := ctx.Table.File(t.Path)
	if fi == nil {
		return Unbound(RuleUnresolved, 0)
	}
	return L.typeOfValue(ctx.Table, fi, t.Container, t.Returns, 0)
}

// resolveImport binds a Kotlin import of a type or function, a package
// (import a.b.*), or a Swift module.
func (L *ktsLang) resolveImport(ctx *Context, imp *Import, name string) Resolution {
	tab := ctx.Table
	if L.explicit && len(imp.Names) == 0 {
		mod, n := LastSegment(imp.Source)
		if m := L.importedMember(tab, ctx.File, imp.Source); m != nil {
			return Bound(m, RuleImport)
		}
		if !L.moduleInRepo(tab, mod) {
			// import a.b.C.Inner, or outside the repository
			if res := L.resolveType(tab, ctx.File, "", imp.Source, 0); res.Target != nil {
				return Bound(res.Target, RuleImport)
			}
			return Unbound(RuleExternal, 0)
		}
		res, ok := oneOr(L.samePart(L.topLevel(tab, n, mod, "", nil)), RuleImport)
		if ok {
			return res
		}
		return Unbound(RuleUnresolved, 0)
	}
	mod := imp.Source
	if !L.moduleInRepo(tab, mod) {
		return Unbound(RuleExternal, 0)
	}
	if name != "" && name != "*" {
		res, ok := oneOr(L.samePart(L.topLevel(tab, name, mod, "", nil)), RuleImport)
		if ok {
			return res
		}
		return Unbound(RuleUnresolved, 0)
	}
	var first string
	for _, f := range tab.ModuleFiles(L.name, mod) {
		if fi := tab.File(f); fi == nil || fi.Module != mod {
			continue
		}
		if first == "" || !TestFile(tab, f) && TestFile(tab, first) {
			first = f
		}
	}
	if t := ModuleTarget(tab, first); t != nil {
		return Bound(t, RuleImport)
	}
	return Unbound(RuleUnresolved, 0)
}
