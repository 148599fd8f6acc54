package python

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// builtins are the names of builtins.py: calls to them are dropped and
// kept out of summaries. open, exit and the other builtins with side
// effects are not among them (see externalBuiltins).
var builtins = lang.WordFile(data, "builtins.txt")

// externalBuiltins are builtins whose calls are worth keeping: they
// touch files, the process or run code. They resolve as external.
var externalBuiltins = lang.NameSet(`open exit quit input exec eval __import__ breakpoint`)

// builtinTypes are the builtin classes a call or literal makes an
// instance of; a method call on one is a builtin.
var builtinTypes = lang.WordFile(data, "types.txt")

// commonMethods are method names so widespread, on builtin types and in
// the standard library, that a unique definition in the repository says
// little about which one a call means.
var commonMethods = lang.WordFile(data, "common_methods.txt")

// bindings maps the names a file's module-level imports bind to their
// imports; the first binding of a name wins.
func bindings(fi *lang.FileInfo) map[string]lang.Binding {
	return fi.BindingsWith(func() map[string]lang.Binding {
		m := map[string]lang.Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if imp.Symbol > 0 {
				continue
			}
			for _, local := range bound(imp) {
				if _, ok := m[local.name]; !ok {
					m[local.name] = lang.Binding{Imp: imp, Name: local.imported}
				}
			}
		}
		return m
	})
}

type local struct{ name, imported string }

// bound lists the local names an import binds and what each is.
func bound(imp *lang.Import) []local {
	if len(imp.Names) == 0 {
		name := imp.Alias
		if name == "" {
			// import a.b binds a
			name, _, _ = strings.Cut(imp.Source, ".")
		}
		if name == "" {
			return nil
		}
		return []local{{name: name}}
	}
	var out []local
	for _, n := range imp.Names {
		if n.Name != "*" {
			out = append(out, local{name: n.Local(), imported: n.Name})
		}
	}
	return out
}

// binding finds the import that binds name for a reference at line: an
// import in a function (the latest one above the line), else a module-level
// one. line 0 asks for module-level imports only. Which function a
// reference is in is not known here: an import in one function is taken to
// bind the name below it in the file.
func binding(fi *lang.FileInfo, name string, line int) (lang.Binding, bool) {
	if line > 0 {
		for i := len(fi.Imports) - 1; i >= 0; i-- {
			imp := &fi.Imports[i]
			if imp.Symbol <= 0 || imp.Line > line {
				continue
			}
			for _, local := range bound(imp) {
				if local.name == name {
					return lang.Binding{Imp: imp, Name: local.imported}, true
				}
			}
		}
	}
	b, ok := bindings(fi)[name]
	return b, ok
}

// isInit reports whether a file is a package's __init__.
func isInit(p string) bool {
	b := path.Base(p)
	return b == "__init__.py" || b == "__init__.pyi"
}

// parentModule drops the last segment of a dotted module.
func parentModule(m string) string {
	if i := strings.LastIndexByte(m, '.'); i >= 0 {
		return m[:i]
	}
	return ""
}

// absModule turns an import source into an absolute dotted module; a
// relative one is resolved against the file's package. ok is false when
// the dots climb above the repository.
func absModule(fi *lang.FileInfo, src string) (mod string, relative, ok bool) {
	if !strings.HasPrefix(src, ".") {
		return src, false, true
	}
	rest := strings.TrimLeft(src, ".")
	dots := len(src) - len(rest)
	pkg := fi.Module
	if !isInit(fi.Path) {
		pkg = parentModule(pkg)
	}
	for i := 1; i < dots; i++ {
		if pkg == "" {
			return "", true, false
		}
		pkg = parentModule(pkg)
	}
	switch {
	case pkg == "":
		return rest, true, true
	case rest == "":
		return pkg, true, true
	}
	return pkg + "." + rest, true, true
}

// moduleCands lists the files that an import of mod can mean: exactly
// that module (exact), or any module ending with it whose first segment
// is a top-level package (its directory is in no package).
func moduleCands(tab lang.Table, mod string, exact bool) []string {
	if mod == "" {
		return nil
	}
	key := "py.mod\x00"
	if exact {
		key = "py.modx\x00"
	}
	v := tab.Memo(key+mod, func() string {
		var out []string
		for _, f := range tab.ModuleFiles("python", mod) {
			fi := tab.File(f)
			if fi == nil {
				continue
			}
			if fi.Module == mod || !exact && topLevel(tab, f, fi.Module, mod) {
				out = append(out, f)
			}
		}
		// an implementation before its stub
		sort.SliceStable(out, func(i, j int) bool {
			return !strings.HasSuffix(out[i], ".pyi") && strings.HasSuffix(out[j], ".pyi")
		})
		return strings.Join(out, "\n")
	})
	if v == "" {
		return nil
	}
	return strings.Split(v, "\n")
}

// topLevel reports whether file f, of module fileMod, is importable as
// mod: the directory that holds mod's first segment is no package.
func topLevel(tab lang.Table, f, fileMod, mod string) bool {
	k := strings.Count(fileMod, ".") - strings.Count(mod, ".")
	if k <= 0 {
		return k == 0
	}
	segs := strings.Split(f, "/")
	if k >= len(segs) {
		return false
	}
	dir := strings.Join(segs[:k], "/")
	return tab.File(dir+"/__init__.py") == nil && tab.File(dir+"/__init__.pyi") == nil
}

// pick chooses among the files of a module: the stub only when no
// implementation, non-test files first, then the one nearest to the
// importing file. "" when that leaves a tie.
func pick(tab lang.Table, cands []string, from string) string {
	if len(cands) == 0 {
		return ""
	}
	impl := lang.PickPaths(cands, func(f string) bool { return !strings.HasSuffix(f, ".pyi") })
	if len(impl) > 0 {
		cands = impl
	}
	if len(cands) == 1 {
		return cands[0]
	}
	if nt := lang.PickPaths(cands, func(f string) bool { return !lang.TestFile(tab, f) }); len(nt) > 0 {
		cands = nt
	}
	if len(cands) == 1 {
		return cands[0]
	}
	best, bestLen, tie := "", -1, false
	for _, c := range cands {
		n := lang.CommonDirLen(c, from)
		switch {
		case n > bestLen:
			best, bestLen, tie = c, n, false
		case n == bestLen:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// resolveModule finds the file of an imported module. The rule is
// RuleImport when found, RuleExternal when the module is not the
// repository's, RuleUnresolved (or ambiguous) otherwise.
func resolveModule(tab lang.Table, fi *lang.FileInfo, src string) (string, string) {
	mod, relative, ok := absModule(fi, src)
	if !ok || mod == "" {
		return "", lang.RuleUnresolved
	}
	cands := moduleCands(tab, mod, relative)
	if p := pick(tab, cands, fi.Path); p != "" {
		return p, lang.RuleImport
	}
	if len(cands) > 1 {
		return "", lang.RuleAmbiguous
	}
	if relative {
		return "", lang.RuleUnresolved
	}
	// a module of a package of ours that is not there (generated, or a
	// C extension) is not external
	if top, _, _ := strings.Cut(mod, "."); top != mod && len(moduleCands(tab, top, false)) > 0 {
		return "", lang.RuleUnresolved
	}
	return "", lang.RuleExternal
}

// resolveImport binds name, imported by imp ("" or "*": the module).
func resolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	if name == "" || name == "*" {
		p, rule := resolveModule(ctx.Table, ctx.File, imp.Source)
		if p == "" {
			return lang.Unbound(rule, 0)
		}
		if t := lang.ModuleTarget(ctx.Table, p); t != nil {
			return lang.Bound(t, lang.RuleImport)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	return rule(resolveBinding(ctx.Table, ctx.File, lang.Binding{Imp: imp, Name: name}, 0), lang.RuleImport)
}

// rule rebinds a found target with rule, leaving misses as they are.
func rule(r lang.Resolution, rule string) lang.Resolution {
	if r.Target != nil {
		return lang.Bound(r.Target, rule)
	}
	return r
}

// resolveBinding resolves what an import binds: a module, or a name
// from a module (a symbol, a submodule, or a name it imports itself).
func resolveBinding(tab lang.Table, fi *lang.FileInfo, b lang.Binding, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	imp := b.Imp
	if b.Name == "" {
		src := imp.Source
		if imp.Alias == "" {
			src, _, _ = strings.Cut(src, ".")
		}
		p, rule := resolveModule(tab, fi, src)
		if p == "" {
			return lang.Unbound(rule, 0)
		}
		return moduleRes(tab, p)
	}
	p, rule := resolveModule(tab, fi, imp.Source)
	if p != "" {
		res := moduleMember(tab, p, b.Name, depth+1)
		if res.Target == nil && res.Rule == lang.RuleUnresolved && !strings.HasPrefix(imp.Source, ".") {
			if mfi := tab.File(p); mfi != nil && mfi.Module != imp.Source {
				// a directory of ours only guessed to be on the path
				// (celery's examples/pydantic) that lacks the name: the
				// import means the library it is named after
				return lang.Unbound(lang.RuleExternal, 0)
			}
		}
		return res
	}
	// a package without __init__.py: the name can only be a submodule
	if mod, relative, ok := absModule(fi, imp.Source); ok && rule != lang.RuleAmbiguous {
		sub := b.Name
		if mod != "" {
			sub = mod + "." + b.Name
		}
		if sp := pick(tab, moduleCands(tab, sub, relative), fi.Path); sp != "" {
			return moduleRes(tab, sp)
		}
	}
	return lang.Unbound(rule, 0)
}

func moduleRes(tab lang.Table, p string) lang.Resolution {
	if t := lang.ModuleTarget(tab, p); t != nil {
		return lang.Bound(t, lang.RuleImport)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// moduleMember finds name in the module file modPath: a top-level
// symbol, a submodule of a package, a name the module imports itself, or
// one of its star imports.
func moduleMember(tab lang.Table, modPath, name string, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	for _, t := range tab.ByName(name) {
		if t.Path == modPath && t.Container == "" && t.Kind != lang.KindModule {
			return lang.Bound(t, lang.RuleImport)
		}
	}
	if isInit(modPath) {
		dir := path.Dir(modPath)
		for _, f := range []string{dir + "/" + name + ".py", dir + "/" + name + "/__init__.py",
			dir + "/" + name + ".pyi", dir + "/" + name + "/__init__.pyi"} {
			if tab.File(f) != nil {
				return moduleRes(tab, f)
			}
		}
	}
	fi := tab.File(modPath)
	if fi == nil {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if b, ok := binding(fi, name, 0); ok {
		return resolveBinding(tab, fi, b, depth+1)
	}
	return starMember(tab, fi, name, depth)
}

// starMember looks for name in the modules a file star-imports.
func starMember(tab lang.Table, fi *lang.FileInfo, name string, depth int) lang.Resolution {
	external := false
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if len(imp.Names) != 1 || imp.Names[0].Name != "*" {
			continue
		}
		p, rule := resolveModule(tab, fi, imp.Source)
		if p == "" {
			external = external || rule == lang.RuleExternal
			continue
		}
		if p == fi.Path {
			continue
		}
		if r := moduleMember(tab, p, name, depth+1); r.Target != nil || r.Rule == lang.RuleExternal {
			return r
		}
	}
	if external {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

func resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution { return resolveRef(ctx, r, 0) }

func resolveRef(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if r.Qualifier == "" {
		return resolveName(ctx, r.Name, r.Line, depth)
	}
	q := r.Qualifier
	tab := ctx.Table
	if strings.HasPrefix(q, "super(") {
		// super().m(): m of the enclosing class's bases
		cls := resolveType(tab, ctx.File, ctx.From, r.QualifierType, r.Line, depth)
		if cls.Target == nil {
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		return final(baseMember(tab, cls.Target, r.Name, depth+1), cls.Target, r.Name)
	}
	var typ lang.Resolution
	var rest []string
	typed := true
	switch {
	case r.QualifierCall != "":
		typ = callResult(ctx, r.QualifierCall, r.QualifierType, r.Line, depth)
		rest, typed = afterCall(q)
	case r.QualifierType != "":
		typ = resolveType(tab, ctx.File, ctx.From, r.QualifierType, r.Line, depth)
		rest = strings.Split(q, ".")[1:]
	default:
		typed = false
	}
	if typed {
		switch {
		case typ.Target != nil:
			if res, ok := walk(tab, typ.Target, rest, r.Name, depth); ok {
				return res
			}
		case typ.Rule == lang.RuleExternal, typ.Rule == lang.RuleBuiltin:
			return lang.Unbound(typ.Rule, 0)
		}
	} else if r.QualifierCall == "" && !strings.ContainsAny(q, "([{\"' ") {
		if res, ok := resolveDotted(ctx, strings.Split(q, "."), r.Name, r.Line, depth); ok {
			return res
		}
	}
	return uniqueMethod(tab, ctx.File, r.Name)
}

// resolveName binds a bare name: the file's own definitions, its
// imports, the builtins, then its star imports.
func resolveName(ctx *lang.Context, name string, line, depth int) lang.Resolution {
	if t := sameFile(ctx, name); t != nil {
		return lang.Bound(t, lang.RuleSameFile)
	}
	if b, ok := binding(ctx.File, name, line); ok {
		return rule(resolveBinding(ctx.Table, ctx.File, b, depth), lang.RuleImport)
	}
	if externalBuiltins[name] {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if builtins.Has(name) {
		return lang.Unbound(lang.RuleBuiltin, 0)
	}
	return rule(starMember(ctx.Table, ctx.File, name, depth), lang.RuleImport)
}

// sameFile finds the definition a bare name means in its own file: the
// innermost one among the enclosing functions' nested definitions and the
// top-level ones. Class bodies are no scope for the methods in them.
func sameFile(ctx *lang.Context, name string) *lang.Target {
	var best *lang.Target
	bestDepth := -1
	for _, t := range ctx.Table.ByName(name) {
		if t.Path != ctx.File.Path || t.Kind == lang.KindModule {
			continue
		}
		if d := visibleDepth(ctx, t.Container); d > bestDepth {
			best, bestDepth = t, d
		}
	}
	return best
}

// visibleDepth says whether the definitions of container are visible
// from ctx.From: -1 when not, else how deep container is.
func visibleDepth(ctx *lang.Context, container string) int {
	if container == "" {
		return 0
	}
	from := ctx.From
	if from == nil || from.Kind == lang.KindModule {
		return -1
	}
	fq := from.Qualified()
	switch {
	case container == fq && from.Kind != lang.KindVariable:
		return len(container)
	case from.Kind == lang.KindVariable && container == from.Container:
		// a class-level variable's value sees the class body
		return len(container)
	case strings.HasPrefix(fq, container+"."):
		if c := symbolAt(ctx.Table, ctx.File.Path, container); c != nil {
			switch c.Kind {
			case lang.KindFunction, lang.KindMethod, lang.KindConstructor:
				return len(container)
			}
		}
	}
	return -1
}

// symbolAt finds the symbol of file p whose qualified name is q.
func symbolAt(tab lang.Table, p, q string) *lang.Target {
	name, cont := q, ""
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		name, cont = q[i+1:], q[:i]
	}
	for _, t := range tab.ByName(name) {
		if t.Path == p && t.Container == cont {
			return t
		}
	}
	return nil
}

// resolveDotted binds a.b.name where a is not typed by the extractor:
// a class or function of the file, an imported module or name, a builtin.
// ok is false when nothing was learnt.
func resolveDotted(ctx *lang.Context, segs []string, name string, line, depth int) (lang.Resolution, bool) {
	tab := ctx.Table
	head := segs[0]
	if t := sameFile(ctx, head); t != nil {
		return walk(tab, t, segs[1:], name, depth)
	}
	if b, ok := binding(ctx.File, head, line); ok {
		if b.Name == "" && b.Imp.Alias == "" {
			return moduleChain(ctx, segs, name, depth)
		}
		bt := resolveBinding(tab, ctx.File, b, depth)
		if bt.Target == nil {
			return lang.Unbound(bt.Rule, 0), bt.Rule == lang.RuleExternal
		}
		return walk(tab, bt.Target, segs[1:], name, depth)
	}
	if builtins.Has(head) {
		return lang.Unbound(lang.RuleBuiltin, 0), true
	}
	if r := starMember(tab, ctx.File, head, depth); r.Target != nil {
		return walk(tab, r.Target, segs[1:], name, depth)
	}
	return lang.Unbound(lang.RuleUnresolved, 0), false
}

// moduleChain binds a.b.c.name when import a.b (or a.b.c) bound a: the
// longest imported module the chain starts with.
func moduleChain(ctx *lang.Context, segs []string, name string, depth int) (lang.Resolution, bool) {
	for k := len(segs); k >= 1; k-- {
		mod := strings.Join(segs[:k], ".")
		if !imported(ctx.File, mod) {
			continue
		}
		p, rule := resolveModule(ctx.Table, ctx.File, mod)
		if p == "" {
			if rule == lang.RuleExternal {
				return lang.Unbound(lang.RuleExternal, 0), true
			}
			continue
		}
		if t := lang.ModuleTarget(ctx.Table, p); t != nil {
			return walk(ctx.Table, t, segs[k:], name, depth)
		}
	}
	return lang.Unbound(lang.RuleUnresolved, 0), false
}

// imported reports whether the file imports mod or a module in it.
func imported(fi *lang.FileInfo, mod string) bool {
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if len(imp.Names) == 0 && imp.Alias == "" && (imp.Source == mod || strings.HasPrefix(imp.Source, mod+".")) {
			return true
		}
	}
	return false
}

// walk follows attributes segs from head, then binds name on what they
// lead to. ok is false when the way was lost (an untyped attribute).
func walk(tab lang.Table, head *lang.Target, segs []string, name string, depth int) (lang.Resolution, bool) {
	cur := head
	if len(segs) > 0 || !isNamespace(cur.Kind) {
		if !isNamespace(cur.Kind) {
			tr := valueType(tab, cur, depth)
			if tr.Target == nil {
				return lang.Unbound(tr.Rule, 0), tr.Rule == lang.RuleExternal || tr.Rule == lang.RuleBuiltin
			}
			cur = tr.Target
		}
	}
	for _, seg := range segs {
		if seg == "" || strings.ContainsAny(seg, "([") {
			return lang.Unbound(lang.RuleUnresolved, 0), false
		}
		next := attr(tab, cur, seg, depth)
		if next.Target == nil {
			return lang.Unbound(next.Rule, 0), next.Rule == lang.RuleExternal || next.Rule == lang.RuleBuiltin
		}
		cur = next.Target
	}
	return final(member(tab, cur, name, depth), cur, name), true
}

// final turns the outcome of a member lookup into a resolution: import
// for a module's member, receiver for a class's.
func final(m lang.Resolution, on *lang.Target, name string) lang.Resolution {
	if m.Target == nil {
		if m.Rule == lang.RuleExternal || m.Rule == lang.RuleBuiltin {
			return lang.Unbound(m.Rule, 0)
		}
		if lang.IsTypeKind(on.Kind) && dunder(name) {
			// a special method no class of ours defines is object's
			return lang.Unbound(lang.RuleBuiltin, 0)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if on.Kind == lang.KindModule {
		return lang.Bound(m.Target, lang.RuleImport)
	}
	return lang.Bound(m.Target, lang.RuleReceiver)
}

// dunder reports whether name is a special name: __init__, __dict__.
func dunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// isNamespace reports whether a target's attributes are its nested
// definitions (a module, class or function) rather than its value's.
func isNamespace(kind string) bool {
	switch kind {
	case lang.KindModule, lang.KindClass, lang.KindInterface, lang.KindType, lang.KindFunction, lang.KindMethod, lang.KindConstructor:
		return true
	}
	return false
}

// valueType is the type of a variable's value (its annotation or the
// class it was made from).
func valueType(tab lang.Table, t *lang.Target, depth int) lang.Resolution {
	if t.Kind == lang.KindVariable && t.Returns != "" {
		return resolveType(tab, tab.File(t.Path), classOf(tab, t), t.Returns, 0, depth+1)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// members are Python's rules for the engine's walk over base classes:
// breadth first, close to the MRO. A builtin base (dict, Exception)
// leaves a missing member to the builtins, but object, every class's
// root, does not.
var members *lang.MemberRules

func init() {
	members = &lang.MemberRules{BreadthFirst: true, Bases: classBases}
}

// classBases resolves the bases of class c as the walk reads them.
func classBases(tab lang.Table, c *lang.Target, depth int) []lang.BaseRef {
	fi := tab.File(c.Path)
	bases := c.Bases
	if len(bases) > lang.MaxBases {
		bases = bases[:lang.MaxBases] // the walk reads no more: resolve no more
	}
	out := make([]lang.BaseRef, 0, len(bases))
	for _, b := range bases {
		bt := resolveType(tab, fi, classOf(tab, c), b, 0, depth+1)
		switch {
		case bt.Target != nil && lang.IsTypeKind(bt.Target.Kind):
			out = append(out, lang.BaseRef{Target: bt.Target})
		case bt.Rule == lang.RuleExternal, bt.Rule == lang.RuleBuiltin && lang.LastIdent(b) != "object":
			out = append(out, lang.BaseRef{Rule: bt.Rule})
		default:
			out = append(out, lang.BaseRef{Rule: lang.RuleUnresolved})
		}
	}
	return out
}

// ownMember finds the definition called name directly in t among cands,
// the symbols of that name.
func ownMember(cands []*lang.Target, t *lang.Target) *lang.Target {
	q := t.Qualified()
	for _, c := range cands {
		if c.Path == t.Path && c.Container == q {
			return c
		}
	}
	return nil
}

// member finds attribute name of t: a module's member, a class's own
// definition or its bases', a function's nested definition. When no class
// of ours has it but a base is external (or builtin), the call goes there.
func member(tab lang.Table, t *lang.Target, name string, depth int) lang.Resolution {
	if t.Kind == lang.KindModule {
		return moduleMember(tab, t.Path, name, depth+1)
	}
	if !lang.IsTypeKind(t.Kind) {
		if m := ownMember(tab.ByName(name), t); m != nil {
			return lang.Bound(m, lang.RuleReceiver)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	return inClasses(tab, t, name, depth, "")
}

// baseMember finds name in the bases of class t, as super() does.
func baseMember(tab lang.Table, t *lang.Target, name string, depth int) lang.Resolution {
	return inClasses(tab, t, name, depth, t.ID)
}

// inClasses finds name in class t or its bases, in the order of members'
// walk; the class whose id is skip does not count (t, for super()).
func inClasses(tab lang.Table, t *lang.Target, name string, depth int, skip string) lang.Resolution {
	cands := tab.ByName(name)
	var found *lang.Target
	ok, miss := members.Walk(tab, t, depth, func(c *lang.Target) bool {
		if c.ID == skip {
			return false
		}
		found = ownMember(cands, c)
		return found != nil
	})
	if ok {
		return lang.Bound(found, lang.RuleReceiver)
	}
	return lang.Unbound(miss, 0)
}

// attr is what t.seg denotes, as something with attributes: a field's
// or property's type, a nested class, a module's member.
func attr(tab lang.Table, t *lang.Target, seg string, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if t.Kind == lang.KindModule {
		m := moduleMember(tab, t.Path, seg, depth+1)
		if m.Target == nil || isNamespace(m.Target.Kind) {
			return m
		}
		return valueType(tab, m.Target, depth)
	}
	cands := tab.ByName(seg)
	res := lang.Unbound(lang.RuleUnresolved, 0)
	visit := func(c *lang.Target) bool {
		for _, f := range c.Fields {
			if f.Name == seg {
				if f.Type == "" {
					res = lang.Unbound(lang.RuleUnresolved, 0)
				} else {
					res = resolveType(tab, tab.File(c.Path), c, f.Type, 0, depth+1)
				}
				return true
			}
		}
		m := ownMember(cands, c)
		if m == nil {
			return false
		}
		res = lang.Unbound(lang.RuleUnresolved, 0)
		switch m.Kind {
		case lang.KindClass, lang.KindInterface, lang.KindType:
			res = lang.Bound(m, lang.RuleReceiver)
		case lang.KindMethod, lang.KindFunction:
			// a property
			if m.Returns != "" {
				res = resolveType(tab, tab.File(m.Path), c, m.Returns, 0, depth+1)
			}
		case lang.KindVariable:
			res = valueType(tab, m, depth)
		}
		return true
	}
	if !lang.IsTypeKind(t.Kind) {
		visit(t)
		return res
	}
	ok, miss := members.Walk(tab, t, depth, visit)
	if ok {
		return res
	}
	if miss == lang.RuleUnresolved && dunder(seg) {
		// __dict__, __class__: what every object has
		miss = lang.RuleBuiltin
	}
	return lang.Unbound(miss, 0)
}

// classOf is the class t is or is defined in, the meaning of Self.
func classOf(tab lang.Table, t *lang.Target) *lang.Target {
	if t == nil {
		return nil
	}
	if lang.IsTypeKind(t.Kind) {
		return t
	}
	if t.Container == "" {
		return nil
	}
	if c := symbolAt(tab, t.Path, t.Container); c != nil && lang.IsTypeKind(c.Kind) {
		return c
	}
	return nil
}

// resolveType resolves a type written in file fi (an annotation, a
// field's type, a base class), seen from symbol from.
func resolveType(tab lang.Table, fi *lang.FileInfo, from *lang.Target, typ string, line, depth int) lang.Resolution {
	if fi == nil || depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	field, ok := strings.CutSuffix(typ, "[*]")
	values := false
	if !ok {
		// for v in self.d.values(): a value of the field's mapping
		field, values = strings.CutSuffix(typ, "[*v]")
	}
	if ok || values {
		// for x in self.lines: an element of the field's annotation
		head, seg, _ := strings.Cut(field, ".")
		cls := classOf(tab, from)
		if head != "self" || cls == nil || strings.Contains(seg, ".") {
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		ft, owner := fieldDecl(tab, cls, seg, depth+1)
		elem := elemType(ft)
		if values {
			_, elem = dictArgs(ft)
		}
		if elem != "" {
			return resolveType(tab, tab.File(owner.Path), owner, elem, 0, depth+1)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	typ = cleanType(typ)
	if typ == "" {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	ctx := &lang.Context{File: fi, From: from, Table: tab}
	if strings.HasSuffix(typ, "()") {
		// a field holding the result of a call
		fn := strings.TrimSuffix(typ, "()")
		head, _, _ := strings.Cut(fn, ".")
		headType := ""
		if (head == "self" || head == "cls") && classOf(tab, from) != nil {
			headType = classOf(tab, from).Qualified()
		}
		return callResult(ctx, fn, headType, line, depth)
	}
	if typ == "Self" || typ == "typing.Self" || typ == "typing_extensions.Self" {
		if c := classOf(tab, from); c != nil {
			return lang.Bound(c, lang.RuleReceiver)
		}
	}
	segs := strings.Split(typ, ".")
	var r lang.Resolution
	if len(segs) == 1 {
		r = resolveName(ctx, typ, line, depth+1)
	} else {
		var ok bool
		r, ok = resolveDotted(ctx, segs[:len(segs)-1], segs[len(segs)-1], line, depth+1)
		if !ok {
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
	}
	if r.Target != nil && !isNamespace(r.Target.Kind) {
		return valueType(tab, r.Target, depth)
	}
	return r
}

// cleanType reduces an annotation to the one class it names:
// Optional[Foo], "Foo", Foo | None, list[Foo] (a list), ClassVar[Foo].
func cleanType(typ string) string {
	for i := 0; i < 4; i++ {
		var union bool
		if typ, union = unquoteUnion(typ); union {
			continue
		}
		open := strings.IndexByte(typ, '[')
		if open < 0 {
			break
		}
		if !strings.HasSuffix(typ, "]") {
			return ""
		}
		outer, args := typ[:open], splitTop(typ[open+1:len(typ)-1], ',')
		switch lang.LastIdent(outer) {
		case "Optional", "ClassVar", "Final", "Annotated", "Type", "type", "Required", "NotRequired", "ReadOnly":
			typ = args[0]
		case "Union":
			typ = oneNotNone(args)
		default:
			return outer
		}
	}
	if strings.ContainsAny(typ, "[]|,\"' ") {
		return ""
	}
	return typ
}

// unquoteUnion trims an annotation and takes off its quotes ("Foo"); a
// union (Foo | None) becomes its one member that is not None, and union
// reports that it did, so the caller looks again.
func unquoteUnion(typ string) (string, bool) {
	typ = strings.TrimSpace(typ)
	if len(typ) >= 2 && (typ[0] == '"' || typ[0] == '\'') && typ[len(typ)-1] == typ[0] {
		typ = strings.TrimSpace(typ[1 : len(typ)-1])
	}
	if parts := splitTop(typ, '|'); len(parts) > 1 {
		return oneNotNone(parts), true
	}
	return typ, false
}

// oneNotNone returns the one member of a union that is not None.
func oneNotNone(parts []string) string {
	one := ""
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "None" || p == "" {
			continue
		}
		if one != "" {
			return ""
		}
		one = p
	}
	return one
}

// splitTop splits s at sep outside brackets and parentheses.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// callResult is the type of what calling fn returns: the class it
// instantiates, or the class its return annotation names. headType is the
// type of fn's qualifier head when the extractor knew it.
func callResult(ctx *lang.Context, fn, headType string, line, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	item := noItem
	if i := strings.LastIndex(fn, "()["); i >= 0 && strings.HasSuffix(fn, "]") {
		// a, b = f(): "f()[1]" is b, an element of what f returns
		n, err := strconv.Atoi(fn[i+3 : len(fn)-1])
		if fn[i+3:len(fn)-1] == "*" {
			// for x in f(): "f()[*]" is an element of what f returns
			n, err = elemItem, nil
		}
		if err != nil {
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		fn, item = fn[:i], n
	}
	r := &lang.Ref{Kind: lang.RefCall, Name: fn, Line: line}
	if q, name, ok := splitLast(fn); ok {
		r.Name, r.Qualifier = name, q
		r.QualifierType = headType
		if i := strings.LastIndexByte(q, ')'); i >= 0 {
			// f().x.g: g of the x of what f returns
			r.QualifierCall = callee(q[:i+1])
		}
	}
	if r.Name == "" || strings.ContainsAny(r.Name, "()[]") {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	res := resolveRef(ctx, r, depth+1)
	if res.Target == nil && res.Rule == lang.RuleBuiltin && item == elemItem {
		// for s in self.streams.values(): what a builtin's collection
		// holds is not a builtin
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if res.Target == nil {
		if res.Rule == lang.RuleExternal || res.Rule == lang.RuleBuiltin {
			return res
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if res.Rule == lang.RuleUniqueName {
		// one guess is enough
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	t := res.Target
	if item != noItem {
		elem := tupleItem(t.Returns, item)
		if item == elemItem {
			elem = elemType(t.Returns)
		}
		if elem == "" || t.Kind != lang.KindFunction && t.Kind != lang.KindMethod {
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		return resolveType(ctx.Table, ctx.Table.File(t.Path), t, elem, 0, depth+1)
	}
	switch t.Kind {
	case lang.KindClass, lang.KindInterface, lang.KindType:
		return lang.Bound(t, lang.RuleReceiver)
	case lang.KindFunction, lang.KindMethod:
		if t.Returns != "" {
			return resolveType(ctx.Table, ctx.Table.File(t.Path), t, t.Returns, 0, depth+1)
		}
	case lang.KindVariable:
		// a variable holding a class: calling it makes an instance
		if strings.HasPrefix(t.Returns, "type[") || strings.HasPrefix(t.Returns, "Type[") {
			return resolveType(ctx.Table, ctx.Table.File(t.Path), classOf(ctx.Table, t), t.Returns, 0, depth+1)
		}
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// noItem is a call's whole result; elemItem an element of the collection
// it returns, where tupleItem takes an index.
const (
	noItem   = -1
	elemItem = -2
)

// fieldDecl is the annotation of the field seg of class cls or of its
// bases, as written, with the class that declares it.
func fieldDecl(tab lang.Table, cls *lang.Target, seg string, depth int) (string, *lang.Target) {
	typ, owner := "", (*lang.Target)(nil)
	members.Walk(tab, cls, depth, func(c *lang.Target) bool {
		for _, f := range c.Fields {
			if f.Name == seg {
				typ, owner = f.Type, c
				return true
			}
		}
		return false
	})
	return typ, owner
}

// iterables are the generic types whose first argument is what a loop
// over them yields: a sequence's element, a mapping's key.
var iterables = map[string]bool{"List": true, "list": true, "Sequence": true, "MutableSequence": true,
	"Iterable": true, "Iterator": true, "Collection": true, "Set": true, "set": true, "FrozenSet": true,
	"frozenset": true, "AbstractSet": true, "MutableSet": true, "Deque": true, "deque": true, "Generator": true,
	"AsyncIterator": true, "AsyncIterable": true, "AsyncGenerator": true, "Reversible": true, "KeysView": true,
	"ValuesView": true, "Dict": true, "dict": true, "Mapping": true, "MutableMapping": true, "DefaultDict": true,
	"defaultdict": true, "OrderedDict": true, "Counter": true, "ChainMap": true}

// mappings are the iterables whose two arguments are keys and values.
var mappings = map[string]bool{"Dict": true, "dict": true, "Mapping": true, "MutableMapping": true,
	"DefaultDict": true, "defaultdict": true, "OrderedDict": true, "ChainMap": true}

// generic splits "Outer[A, B]" into its outer name's last part and its
// arguments, past Optional[...] and "| None"; ok is false for others.
func generic(typ string) (outer string, args []string, ok bool) {
	for i := 0; i < 4; i++ {
		var union bool
		if typ, union = unquoteUnion(typ); union {
			continue
		}
		open := strings.IndexByte(typ, '[')
		if open < 0 || !strings.HasSuffix(typ, "]") {
			return "", nil, false
		}
		outer, args = lang.LastIdent(typ[:open]), splitTop(typ[open+1:len(typ)-1], ',')
		for j := range args {
			args[j] = strings.TrimSpace(args[j])
		}
		if outer != "Optional" || len(args) != 1 {
			return outer, args, true
		}
		typ = args[0]
	}
	return "", nil, false
}

// elemType is what a loop over a value of type typ yields, as written:
// "List[Line]" -> "Line", "Dict[str, Style]" -> "str", "tuple[X, ...]" ->
// "X"; "" when typ says nothing of it.
func elemType(typ string) string {
	outer, args, ok := generic(typ)
	switch {
	case !ok:
		return ""
	case iterables[outer]:
		return args[0]
	case (outer == "tuple" || outer == "Tuple") && len(args) == 2 && args[1] == "...":
		return args[0]
	}
	return ""
}

// dictArgs are the key and value types of a mapping type as written.
func dictArgs(typ string) (k, v string) {
	outer, args, ok := generic(typ)
	switch {
	case ok && mappings[outer] && len(args) == 2:
		return args[0], args[1]
	case ok && outer == "Counter" && len(args) == 1:
		return args[0], "int"
	}
	return "", ""
}

// tupleItem is element i of a tuple annotation: "tuple[A, B]", 1 -> "B".
func tupleItem(typ string, i int) string {
	typ = strings.Trim(strings.TrimSpace(typ), "\"'")
	open := strings.IndexByte(typ, '[')
	if open < 0 || !strings.HasSuffix(typ, "]") {
		return ""
	}
	switch lang.LastIdent(typ[:open]) {
	case "tuple", "Tuple":
	default:
		return ""
	}
	args := splitTop(typ[open+1:len(typ)-1], ',')
	if i >= len(args) || strings.TrimSpace(args[len(args)-1]) == "..." {
		return ""
	}
	return strings.TrimSpace(args[i])
}

// splitLast splits "a.b(x).c" into "a.b(x)" and "c" at the last dot
// outside parentheses.
func splitLast(s string) (string, string, bool) {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')', ']':
			depth++
		case '(', '[':
			depth--
		case '.':
			if depth == 0 {
				return s[:i], s[i+1:], true
			}
		}
	}
	return "", s, false
}

// callee strips the argument list from a call: "a.b(x, y)" -> "a.b".
func callee(s string) string {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return s[:i]
			}
		}
	}
	return ""
}

// afterCall returns the attributes that follow the last call of a
// qualifier ("a.b(x).c.d" -> c, d); for a name that holds a call's
// result, those after the name. ok is false when a subscript intervenes.
func afterCall(q string) ([]string, bool) {
	i := strings.LastIndexByte(q, ')')
	if i < 0 {
		segs := strings.Split(q, ".")
		return segs[1:], !strings.ContainsAny(q, "[")
	}
	rest := q[i+1:]
	if rest == "" {
		return nil, true
	}
	if rest[0] != '.' || strings.ContainsAny(rest, "[") {
		return nil, false
	}
	return strings.Split(rest[1:], "."), true
}

// uniqueMethod binds a method call whose receiver is unknown when one
// method of that name exists and the name is distinctive. Code outside
// the tests is not bound to a method of the tests, and a stub's method
// does not compete with its implementation's.
func uniqueMethod(tab lang.Table, from *lang.FileInfo, name string) lang.Resolution {
	if commonMethods.Has(name) || strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	fromTest := from.Test
	ms := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		if t.Kind != lang.KindMethod || !fromTest && t.Test {
			return false
		}
		fi := tab.File(t.Path)
		return fi != nil && fi.Lang == "python"
	})
	if len(ms) > 1 {
		impl := map[string]bool{}
		for _, m := range ms {
			if !strings.HasSuffix(m.Path, ".pyi") {
				impl[strings.TrimSuffix(m.Path, ".py")+"\x00"+m.Qualified()] = true
			}
		}
		ms = lang.Pick(ms, func(t *lang.Target) bool {
			return !strings.HasSuffix(t.Path, ".pyi") || !impl[strings.TrimSuffix(t.Path, ".pyi")+"\x00"+t.Qualified()]
		})
	}
	switch len(ms) {
	case 0:
		return lang.Unbound(lang.RuleUnresolved, 0)
	case 1:
		return lang.Bound(ms[0], lang.RuleUniqueName)
	}
	return lang.Unbound(lang.RuleAmbiguous, len(ms))
}
