package lang

import (
	"path"
	"sort"
	"strconv"
	"strings"
)

// pyBuiltins are the names of builtins.py: calls to them are dropped and
// kept out of summaries. open, exit and the other builtins with side
// effects are not among them (see pyExternalBuiltins).
var pyBuiltins = wordSet("python", "builtins.txt")

// pyExternalBuiltins are builtins whose calls are worth keeping: they
// touch files, the process or run code. They resolve as external.
var pyExternalBuiltins = NameSet(`open exit quit input exec eval __import__ breakpoint`)

// pyBuiltinTypes are the builtin classes a call or literal makes an
// instance of; a method call on one is a builtin.
var pyBuiltinTypes = wordSet("python", "types.txt")

// pyCommonMethods are method names so widespread, on builtin types and in
// the standard library, that a unique definition in the repository says
// little about which one a call means.
var pyCommonMethods = wordSet("python", "common_methods.txt")

func init() {
	l := ByName("python")
	l.builtins = pyBuiltins
	l.resolve = resolvePython
	l.resolveImport = resolvePythonImport

	// Effects derive.go does not list yet.
}

// pyBindings maps the names a file's module-level imports bind to their
// imports; the first binding of a name wins.
func pyBindings(fi *FileInfo) map[string]Binding {
	return fi.BindingsWith(func() map[string]Binding {
		m := map[string]Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if imp.Symbol > 0 {
				continue
			}
			for _, local := range pyBound(imp) {
				if _, ok := m[local.name]; !ok {
					m[local.name] = Binding{Imp: imp, Name: local.imported}
				}
			}
		}
		return m
	})
}

type pyLocal struct{ name, imported string }

// pyBound lists the local names an import binds and what each is.
func pyBound(imp *Import) []pyLocal {
	if len(imp.Names) == 0 {
		name := imp.Alias
		if name == "" {
			// import a.b binds a
			name, _, _ = strings.Cut(imp.Source, ".")
		}
		if name == "" {
			return nil
		}
		return []pyLocal{{name: name}}
	}
	var out []pyLocal
	for _, n := range imp.Names {
		if n.Name != "*" {
			out = append(out, pyLocal{name: n.Local(), imported: n.Name})
		}
	}
	return out
}

// pyBinding finds the import that binds name for a reference at line: an
// import in a function (the latest one above the line), else a module-level
// One. line 0 asks for module-level imports only. Which function a
// reference is in is not known here: an import in one function is taken to
// bind the name below it in the file.
func pyBinding(fi *FileInfo, name string, line int) (Binding, bool) {
	if line > 0 {
		for i := len(fi.Imports) - 1; i >= 0; i-- {
			imp := &fi.Imports[i]
			if imp.Symbol <= 0 || imp.Line > line {
				continue
			}
			for _, local := range pyBound(imp) {
				if local.name == name {
					return Binding{Imp: imp, Name: local.imported}, true
				}
			}
		}
	}
	b, ok := pyBindings(fi)[name]
	return b, ok
}

// pyIsInit reports whether a file is a package's __init__.
func pyIsInit(p string) bool {
	b := path.Base(p)
	return b == "__init__.py" || b == "__init__.pyi"
}

// pyParentModule drops the last segment of a dotted module.
func pyParentModule(m string) string {
	if i := strings.LastIndexByte(m, '.'); i >= 0 {
		return m[:i]
	}
	return ""
}

// pyAbsModule turns an import source into an absolute dotted module; a
// relative one is resolved against the file's package. ok is false when
// the dots climb above the repository.
func pyAbsModule(fi *FileInfo, src string) (mod string, relative, ok bool) {
	if !strings.HasPrefix(src, ".") {
		return src, false, true
	}
	rest := strings.TrimLeft(src, ".")
	dots := len(src) - len(rest)
	pkg := fi.Module
	if !pyIsInit(fi.Path) {
		pkg = pyParentModule(pkg)
	}
	for i := 1; i < dots; i++ {
		if pkg == "" {
			return "", true, false
		}
		pkg = pyParentModule(pkg)
	}
	switch {
	case pkg == "":
		return rest, true, true
	case rest == "":
		return pkg, true, true
	}
	return pkg + "." + rest, true, true
}

// pyModuleCands lists the files that an import of mod can mean: exactly
// that module (exact), or any module ending with it whose first segment
// is a top-level package (its directory is in no package).
func pyModuleCands(tab Table, mod string, exact bool) []string {
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
			if fi.Module == mod || !exact && pyTopLevel(tab, f, fi.Module, mod) {
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

// pyTopLevel reports whether file f, of module fileMod, is importable as
// mod: the directory that holds mod's first segment is no package.
func pyTopLevel(tab Table, f, fileMod, mod string) bool {
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

// pyPick chooses among the files of a module: the stub only when no
// implementation, non-test files first, then the one nearest to the
// importing file. "" when that leaves a tie.
func pyPick(cands []string, from string) string {
	if len(cands) == 0 {
		return ""
	}
	impl := pick2(cands, func(f string) bool { return !strings.HasSuffix(f, ".pyi") })
	if len(impl) > 0 {
		cands = impl
	}
	if len(cands) == 1 {
		return cands[0]
	}
	if nt := pick2(cands, func(f string) bool { return !IsTestPath(f) }); len(nt) > 0 {
		cands = nt
	}
	if len(cands) == 1 {
		return cands[0]
	}
	best, bestLen, tie := "", -1, false
	for _, c := range cands {
		n := commonDirLen(c, from)
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

func pick2(ss []string, keep func(string) bool) []string {
	var out []string
	for _, s := range ss {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// commonDirLen counts the leading directories two paths share.
func commonDirLen(a, b string) int {
	as, bs := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

// pyResolveModule finds the file of an imported module. The rule is
// RuleImport when found, RuleExternal when the module is not the
// repository's, RuleUnresolved (or ambiguous) otherwise.
func pyResolveModule(tab Table, fi *FileInfo, src string) (string, string) {
	mod, relative, ok := pyAbsModule(fi, src)
	if !ok || mod == "" {
		return "", RuleUnresolved
	}
	cands := pyModuleCands(tab, mod, relative)
	if p := pyPick(cands, fi.Path); p != "" {
		return p, RuleImport
	}
	if len(cands) > 1 {
		return "", RuleAmbiguous
	}
	if relative {
		return "", RuleUnresolved
	}
	// a module of a package of ours that is not there (generated, or a
	// C extension) is not external
	if top, _, _ := strings.Cut(mod, "."); top != mod && len(pyModuleCands(tab, top, false)) > 0 {
		return "", RuleUnresolved
	}
	return "", RuleExternal
}

func resolvePythonImport(ctx *Context, imp *Import, name string) Resolution {
	if name == "" || name == "*" {
		p, rule := pyResolveModule(ctx.Table, ctx.File, imp.Source)
		if p == "" {
			return Unbound(rule, 0)
		}
		if t := ModuleTarget(ctx.Table, p); t != nil {
			return Bound(t, RuleImport)
		}
		return Unbound(RuleUnresolved, 0)
	}
	return pyRule(pyResolveBinding(ctx.Table, ctx.File, Binding{Imp: imp, Name: name}, 0), RuleImport)
}

// pyRule rebinds a found target with rule, leaving misses as they are.
func pyRule(r Resolution, rule string) Resolution {
	if r.Target != nil {
		return Bound(r.Target, rule)
	}
	return r
}

// pyResolveBinding resolves what an import binds: a module, or a name
// from a module (a symbol, a submodule, or a name it imports itself).
func pyResolveBinding(tab Table, fi *FileInfo, b Binding, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	imp := b.Imp
	if b.Name == "" {
		src := imp.Source
		if imp.Alias == "" {
			src, _, _ = strings.Cut(src, ".")
		}
		p, rule := pyResolveModule(tab, fi, src)
		if p == "" {
			return Unbound(rule, 0)
		}
		return pyModuleRes(tab, p)
	}
	p, rule := pyResolveModule(tab, fi, imp.Source)
	if p != "" {
		return pyModuleMember(tab, p, b.Name, depth+1)
	}
	// a package without __init__.py: the name can only be a submodule
	if mod, relative, ok := pyAbsModule(fi, imp.Source); ok && rule != RuleAmbiguous {
		sub := b.Name
		if mod != "" {
			sub = mod + "." + b.Name
		}
		if sp := pyPick(pyModuleCands(tab, sub, relative), fi.Path); sp != "" {
			return pyModuleRes(tab, sp)
		}
	}
	return Unbound(rule, 0)
}

func pyModuleRes(tab Table, p string) Resolution {
	if t := ModuleTarget(tab, p); t != nil {
		return Bound(t, RuleImport)
	}
	return Unbound(RuleUnresolved, 0)
}

// pyModuleMember finds name in the module file modPath: a top-level
// symbol, a submodule of a package, a name the module imports itself, or
// One of its star imports.
func pyModuleMember(tab Table, modPath, name string, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	for _, t := range tab.ByName(name) {
		if t.Path == modPath && t.Container == "" && t.Kind != KindModule {
			return Bound(t, RuleImport)
		}
	}
	if pyIsInit(modPath) {
		dir := path.Dir(modPath)
		for _, f := range []string{dir + "/" + name + ".py", dir + "/" + name + "/__init__.py",
			dir + "/" + name + ".pyi", dir + "/" + name + "/__init__.pyi"} {
			if tab.File(f) != nil {
				return pyModuleRes(tab, f)
			}
		}
	}
	fi := tab.File(modPath)
	if fi == nil {
		return Unbound(RuleUnresolved, 0)
	}
	if b, ok := pyBinding(fi, name, 0); ok {
		return pyResolveBinding(tab, fi, b, depth+1)
	}
	return pyStarMember(tab, fi, name, depth)
}

// pyStarMember looks for name in the modules a file star-imports.
func pyStarMember(tab Table, fi *FileInfo, name string, depth int) Resolution {
	external := false
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if len(imp.Names) != 1 || imp.Names[0].Name != "*" {
			continue
		}
		p, rule := pyResolveModule(tab, fi, imp.Source)
		if p == "" {
			external = external || rule == RuleExternal
			continue
		}
		if p == fi.Path {
			continue
		}
		if r := pyModuleMember(tab, p, name, depth+1); r.Target != nil || r.Rule == RuleExternal {
			return r
		}
	}
	if external {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

func resolvePython(ctx *Context, r *Ref) Resolution {
	return pyResolve(ctx, r, 0)
}

func pyResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	if r.Qualifier == "" {
		return pyResolveName(ctx, r.Name, r.Line, depth)
	}
	q := r.Qualifier
	tab := ctx.Table
	if strings.HasPrefix(q, "super(") {
		// super().m(): m of the enclosing class's bases
		cls := pyResolveType(tab, ctx.File, ctx.From, r.QualifierType, r.Line, depth)
		if cls.Target == nil {
			return Unbound(RuleUnresolved, 0)
		}
		return pyFinal(pyBaseMember(tab, cls.Target, r.Name, depth+1), cls.Target, r.Name)
	}
	var typ Resolution
	var rest []string
	typed := true
	switch {
	case r.QualifierCall != "":
		typ = pyCallResult(ctx, r.QualifierCall, r.QualifierType, r.Line, depth)
		rest, typed = pyAfterCall(q)
	case r.QualifierType != "":
		typ = pyResolveType(tab, ctx.File, ctx.From, r.QualifierType, r.Line, depth)
		rest = strings.Split(q, ".")[1:]
	default:
		typed = false
	}
	if typed {
		switch {
		case typ.Target != nil:
			if res, ok := pyWalk(tab, typ.Target, rest, r.Name, depth); ok {
				return res
			}
		case typ.Rule == RuleExternal, typ.Rule == RuleBuiltin:
			return Unbound(typ.Rule, 0)
		}
	} else if r.QualifierCall == "" && !strings.ContainsAny(q, "([{\"' ") {
		if res, ok := pyResolveDotted(ctx, strings.Split(q, "."), r.Name, r.Line, depth); ok {
			return res
		}
	}
	return pyUniqueMethod(tab, ctx.File, r.Name)
}

// pyResolveName binds a bare name: the file's own definitions, its
// imports, the builtins, then its star imports.
func pyResolveName(ctx *Context, name string, line, depth int) Resolution {
	if t := pySameFile(ctx, name); t != nil {
		return Bound(t, RuleSameFile)
	}
	if b, ok := pyBinding(ctx.File, name, line); ok {
		return pyRule(pyResolveBinding(ctx.Table, ctx.File, b, depth), RuleImport)
	}
	if pyExternalBuiltins[name] {
		return Unbound(RuleExternal, 0)
	}
	if pyBuiltins[name] {
		return Unbound(RuleBuiltin, 0)
	}
	return pyRule(pyStarMember(ctx.Table, ctx.File, name, depth), RuleImport)
}

// pySameFile finds the definition a bare name means in its own file: the
// innermost one among the enclosing functions' nested definitions and the
// top-level ones. Class bodies are no scope for the methods in them.
func pySameFile(ctx *Context, name string) *Target {
	var best *Target
	bestDepth := -1
	for _, t := range ctx.Table.ByName(name) {
		if t.Path != ctx.File.Path || t.Kind == KindModule {
			continue
		}
		if d := pyVisibleDepth(ctx, t.Container); d > bestDepth {
			best, bestDepth = t, d
		}
	}
	return best
}

// pyVisibleDepth says whether the definitions of container are visible
// from ctx.From: -1 when not, else how deep container is.
func pyVisibleDepth(ctx *Context, container string) int {
	if container == "" {
		return 0
	}
	from := ctx.From
	if from == nil || from.Kind == KindModule {
		return -1
	}
	fq := from.Qualified()
	switch {
	case container == fq && from.Kind != KindVariable:
		return len(container)
	case from.Kind == KindVariable && container == from.Container:
		// a class-level variable's value sees the class body
		return len(container)
	case strings.HasPrefix(fq, container+"."):
		if c := pySymbolAt(ctx.Table, ctx.File.Path, container); c != nil {
			switch c.Kind {
			case KindFunction, KindMethod, KindConstructor:
				return len(container)
			}
		}
	}
	return -1
}

// pySymbolAt finds the symbol of file p whose qualified name is q.
func pySymbolAt(tab Table, p, q string) *Target {
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

// pyResolveDotted binds a.b.name where a is not typed by the extractor:
// a class or function of the file, an imported module or name, a builtin.
// ok is false when nothing was learnt.
func pyResolveDotted(ctx *Context, segs []string, name string, line, depth int) (Resolution, bool) {
	tab := ctx.Table
	head := segs[0]
	if t := pySameFile(ctx, head); t != nil {
		return pyWalk(tab, t, segs[1:], name, depth)
	}
	if b, ok := pyBinding(ctx.File, head, line); ok {
		if b.Name == "" && b.Imp.Alias == "" {
			return pyModuleChain(ctx, segs, name, depth)
		}
		bt := pyResolveBinding(tab, ctx.File, b, depth)
		if bt.Target == nil {
			return Unbound(bt.Rule, 0), bt.Rule == RuleExternal
		}
		return pyWalk(tab, bt.Target, segs[1:], name, depth)
	}
	if pyBuiltins[head] {
		return Unbound(RuleBuiltin, 0), true
	}
	if r := pyStarMember(tab, ctx.File, head, depth); r.Target != nil {
		return pyWalk(tab, r.Target, segs[1:], name, depth)
	}
	return Unbound(RuleUnresolved, 0), false
}

// pyModuleChain binds a.b.c.name when import a.b (or a.b.c) bound a: the
// longest imported module the chain starts with.
func pyModuleChain(ctx *Context, segs []string, name string, depth int) (Resolution, bool) {
	for k := len(segs); k >= 1; k-- {
		mod := strings.Join(segs[:k], ".")
		if !pyImported(ctx.File, mod) {
			continue
		}
		p, rule := pyResolveModule(ctx.Table, ctx.File, mod)
		if p == "" {
			if rule == RuleExternal {
				return Unbound(RuleExternal, 0), true
			}
			continue
		}
		if t := ModuleTarget(ctx.Table, p); t != nil {
			return pyWalk(ctx.Table, t, segs[k:], name, depth)
		}
	}
	return Unbound(RuleUnresolved, 0), false
}

// pyImported reports whether the file imports mod or a module in it.
func pyImported(fi *FileInfo, mod string) bool {
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if len(imp.Names) == 0 && imp.Alias == "" && (imp.Source == mod || strings.HasPrefix(imp.Source, mod+".")) {
			return true
		}
	}
	return false
}

// pyWalk follows attributes segs from head, then binds name on what they
// lead to. ok is false when the way was lost (an untyped attribute).
func pyWalk(tab Table, head *Target, segs []string, name string, depth int) (Resolution, bool) {
	cur := head
	if len(segs) > 0 || !pyIsNamespace(cur.Kind) {
		if !pyIsNamespace(cur.Kind) {
			tr := pyValueType(tab, cur, depth)
			if tr.Target == nil {
				return Unbound(tr.Rule, 0), tr.Rule == RuleExternal || tr.Rule == RuleBuiltin
			}
			cur = tr.Target
		}
	}
	for _, seg := range segs {
		if seg == "" || strings.ContainsAny(seg, "([") {
			return Unbound(RuleUnresolved, 0), false
		}
		next := pyAttr(tab, cur, seg, depth)
		if next.Target == nil {
			return Unbound(next.Rule, 0), next.Rule == RuleExternal || next.Rule == RuleBuiltin
		}
		cur = next.Target
	}
	return pyFinal(pyMember(tab, cur, name, depth), cur, name), true
}

// pyFinal turns the outcome of a member lookup into a resolution: import
// for a module's member, receiver for a class's.
func pyFinal(m Resolution, on *Target, name string) Resolution {
	if m.Target == nil {
		if m.Rule == RuleExternal || m.Rule == RuleBuiltin {
			return Unbound(m.Rule, 0)
		}
		if IsTypeKind(on.Kind) && pyDunder(name) {
			// a special method no class of ours defines is object's
			return Unbound(RuleBuiltin, 0)
		}
		return Unbound(RuleUnresolved, 0)
	}
	if on.Kind == KindModule {
		return Bound(m.Target, RuleImport)
	}
	return Bound(m.Target, RuleReceiver)
}

// pyDunder reports whether name is a special name: __init__, __dict__.
func pyDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// pyIsNamespace reports whether a target's attributes are its nested
// definitions (a module, class or function) rather than its value's.
func pyIsNamespace(kind string) bool {
	switch kind {
	case KindModule, KindClass, KindInterface, KindType, KindFunction, KindMethod, KindConstructor:
		return true
	}
	return false
}

// pyValueType is the type of a variable's value (its annotation or the
// class it was made from).
func pyValueType(tab Table, t *Target, depth int) Resolution {
	if t.Kind == KindVariable && t.Returns != "" {
		return pyResolveType(tab, tab.File(t.Path), pyClassOf(tab, t), t.Returns, 0, depth+1)
	}
	return Unbound(RuleUnresolved, 0)
}

// Bounds on a class hierarchy: a hostile file can make each class derive
// from hundreds of others.
const (
	pyMaxAncestors = 32
	pyMaxBases     = 16
)

// pyAncestors visits class t and the classes it derives from, each once,
// breadth first in the order of the bases (Python's MRO for single and
// most multiple inheritance), until visit returns true. Bases are resolved
// only as far as the visit goes. It returns whether visit stopped it, and
// otherwise whether a base outside the repository (RuleExternal) or a
// builtin one other than object (RuleBuiltin) was met.
func pyAncestors(tab Table, t *Target, depth int, visit func(*Target) bool) (bool, string) {
	miss := RuleUnresolved
	seen := map[string]bool{t.ID: true}
	queue := []*Target{t}
	for i := 0; i < len(queue) && i < pyMaxAncestors; i++ {
		c := queue[i]
		if visit(c) {
			return true, ""
		}
		if depth > MaxDepth {
			continue
		}
		fi := tab.File(c.Path)
		for j, b := range c.Bases {
			if j == pyMaxBases {
				break
			}
			bt := pyResolveType(tab, fi, pyClassOf(tab, c), b, 0, depth+1)
			switch {
			case bt.Target != nil && IsTypeKind(bt.Target.Kind):
				if !seen[bt.Target.ID] {
					seen[bt.Target.ID] = true
					queue = append(queue, bt.Target)
				}
			case bt.Rule == RuleExternal:
				miss = RuleExternal
			case bt.Rule == RuleBuiltin && miss != RuleExternal && LastIdent(b) != "object":
				miss = RuleBuiltin
			}
		}
	}
	return false, miss
}

// pyOwnMember finds the definition called name directly in t among cands,
// the symbols of that name.
func pyOwnMember(cands []*Target, t *Target) *Target {
	q := t.Qualified()
	for _, c := range cands {
		if c.Path == t.Path && c.Container == q {
			return c
		}
	}
	return nil
}

// pyMember finds attribute name of t: a module's member, a class's own
// definition or its bases', a function's nested definition. When no class
// of ours has it but a base is external (or builtin), the call goes there.
func pyMember(tab Table, t *Target, name string, depth int) Resolution {
	if t.Kind == KindModule {
		return pyModuleMember(tab, t.Path, name, depth+1)
	}
	cands := tab.ByName(name)
	if !IsTypeKind(t.Kind) {
		if m := pyOwnMember(cands, t); m != nil {
			return Bound(m, RuleReceiver)
		}
		return Unbound(RuleUnresolved, 0)
	}
	var found *Target
	ok, miss := pyAncestors(tab, t, depth, func(c *Target) bool {
		found = pyOwnMember(cands, c)
		return found != nil
	})
	if ok {
		return Bound(found, RuleReceiver)
	}
	return Unbound(miss, 0)
}

// pyBaseMember finds name in the bases of class t, as super() does.
func pyBaseMember(tab Table, t *Target, name string, depth int) Resolution {
	cands := tab.ByName(name)
	var found *Target
	ok, miss := pyAncestors(tab, t, depth, func(c *Target) bool {
		if c.ID == t.ID {
			return false
		}
		found = pyOwnMember(cands, c)
		return found != nil
	})
	if ok {
		return Bound(found, RuleReceiver)
	}
	return Unbound(miss, 0)
}

// pyAttr is what t.seg denotes, as something with attributes: a field's
// or property's type, a nested class, a module's member.
func pyAttr(tab Table, t *Target, seg string, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	if t.Kind == KindModule {
		m := pyModuleMember(tab, t.Path, seg, depth+1)
		if m.Target == nil || pyIsNamespace(m.Target.Kind) {
			return m
		}
		return pyValueType(tab, m.Target, depth)
	}
	cands := tab.ByName(seg)
	res := Unbound(RuleUnresolved, 0)
	visit := func(c *Target) bool {
		for _, f := range c.Fields {
			if f.Name == seg {
				if f.Type == "" {
					res = Unbound(RuleUnresolved, 0)
				} else {
					res = pyResolveType(tab, tab.File(c.Path), c, f.Type, 0, depth+1)
				}
				return true
			}
		}
		m := pyOwnMember(cands, c)
		if m == nil {
			return false
		}
		res = Unbound(RuleUnresolved, 0)
		switch m.Kind {
		case KindClass, KindInterface, KindType:
			res = Bound(m, RuleReceiver)
		case KindMethod, KindFunction:
			// a property
			if m.Returns != "" {
				res = pyResolveType(tab, tab.File(m.Path), c, m.Returns, 0, depth+1)
			}
		case KindVariable:
			res = pyValueType(tab, m, depth)
		}
		return true
	}
	if !IsTypeKind(t.Kind) {
		visit(t)
		return res
	}
	ok, miss := pyAncestors(tab, t, depth, visit)
	if ok {
		return res
	}
	if miss == RuleUnresolved && pyDunder(seg) {
		// __dict__, __class__: what every object has
		miss = RuleBuiltin
	}
	return Unbound(miss, 0)
}

// pyClassOf is the class t is or is defined in, the meaning of Self.
func pyClassOf(tab Table, t *Target) *Target {
	if t == nil {
		return nil
	}
	if IsTypeKind(t.Kind) {
		return t
	}
	if t.Container == "" {
		return nil
	}
	if c := pySymbolAt(tab, t.Path, t.Container); c != nil && IsTypeKind(c.Kind) {
		return c
	}
	return nil
}

// pyResolveType resolves a type written in file fi (an annotation, a
// field's type, a base class), seen from symbol from.
func pyResolveType(tab Table, fi *FileInfo, from *Target, typ string, line, depth int) Resolution {
	if fi == nil || depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	typ = pyCleanType(typ)
	if typ == "" {
		return Unbound(RuleUnresolved, 0)
	}
	ctx := &Context{File: fi, From: from, Table: tab}
	if strings.HasSuffix(typ, "()") {
		// a field holding the result of a call
		fn := strings.TrimSuffix(typ, "()")
		head, _, _ := strings.Cut(fn, ".")
		headType := ""
		if (head == "self" || head == "cls") && pyClassOf(tab, from) != nil {
			headType = pyClassOf(tab, from).Qualified()
		}
		return pyCallResult(ctx, fn, headType, line, depth)
	}
	if typ == "Self" || typ == "typing.Self" || typ == "typing_extensions.Self" {
		if c := pyClassOf(tab, from); c != nil {
			return Bound(c, RuleReceiver)
		}
	}
	segs := strings.Split(typ, ".")
	var r Resolution
	if len(segs) == 1 {
		r = pyResolveName(ctx, typ, line, depth+1)
	} else {
		var ok bool
		r, ok = pyResolveDotted(ctx, segs[:len(segs)-1], segs[len(segs)-1], line, depth+1)
		if !ok {
			return Unbound(RuleUnresolved, 0)
		}
	}
	if r.Target != nil && !pyIsNamespace(r.Target.Kind) {
		return pyValueType(tab, r.Target, depth)
	}
	return r
}

// pyCleanType reduces an annotation to the one class it names:
// Optional[Foo], "Foo", Foo | None, list[Foo] (a list), ClassVar[Foo].
func pyCleanType(typ string) string {
	for i := 0; i < 4; i++ {
		typ = strings.TrimSpace(typ)
		if len(typ) >= 2 && (typ[0] == '"' || typ[0] == '\'') && typ[len(typ)-1] == typ[0] {
			typ = strings.TrimSpace(typ[1 : len(typ)-1])
		}
		if parts := pySplitTop(typ, '|'); len(parts) > 1 {
			typ = pyOneNotNone(parts)
			continue
		}
		open := strings.IndexByte(typ, '[')
		if open < 0 {
			break
		}
		if !strings.HasSuffix(typ, "]") {
			return ""
		}
		outer, args := typ[:open], pySplitTop(typ[open+1:len(typ)-1], ',')
		switch LastIdent(outer) {
		case "Optional", "ClassVar", "Final", "Annotated", "Type", "type", "Required", "NotRequired", "ReadOnly":
			typ = args[0]
		case "Union":
			typ = pyOneNotNone(args)
		default:
			return outer
		}
	}
	if strings.ContainsAny(typ, "[]|,\"' ") {
		return ""
	}
	return typ
}

// pyOneNotNone returns the one member of a union that is not None.
func pyOneNotNone(parts []string) string {
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

// pySplitTop splits s at sep outside brackets and parentheses.
func pySplitTop(s string, sep byte) []string {
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

// pyCallResult is the type of what calling fn returns: the class it
// instantiates, or the class its return annotation names. headType is the
// type of fn's qualifier head when the extractor knew it.
func pyCallResult(ctx *Context, fn, headType string, line, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	item := -1
	if i := strings.LastIndex(fn, "()["); i >= 0 && strings.HasSuffix(fn, "]") {
		// a, b = f(): "f()[1]" is b, an element of what f returns
		n, err := strconv.Atoi(fn[i+3 : len(fn)-1])
		if err != nil {
			return Unbound(RuleUnresolved, 0)
		}
		fn, item = fn[:i], n
	}
	r := &Ref{Kind: RefCall, Name: fn, Line: line}
	if q, name, ok := pySplitLast(fn); ok {
		r.Name, r.Qualifier = name, q
		r.QualifierType = headType
		if i := strings.LastIndexByte(q, ')'); i >= 0 {
			// f().x.g: g of the x of what f returns
			r.QualifierCall = pyCallee(q[:i+1])
		}
	}
	if r.Name == "" || strings.ContainsAny(r.Name, "()[]") {
		return Unbound(RuleUnresolved, 0)
	}
	res := pyResolve(ctx, r, depth+1)
	if res.Target == nil {
		if res.Rule == RuleExternal || res.Rule == RuleBuiltin {
			return res
		}
		return Unbound(RuleUnresolved, 0)
	}
	if res.Rule == RuleUniqueName {
		// one guess is enough
		return Unbound(RuleUnresolved, 0)
	}
	t := res.Target
	if item >= 0 {
		elem := pyTupleItem(t.Returns, item)
		if elem == "" || t.Kind != KindFunction && t.Kind != KindMethod {
			return Unbound(RuleUnresolved, 0)
		}
		return pyResolveType(ctx.Table, ctx.Table.File(t.Path), t, elem, 0, depth+1)
	}
	switch t.Kind {
	case KindClass, KindInterface, KindType:
		return Bound(t, RuleReceiver)
	case KindFunction, KindMethod:
		if t.Returns != "" {
			return pyResolveType(ctx.Table, ctx.Table.File(t.Path), t, t.Returns, 0, depth+1)
		}
	case KindVariable:
		// a variable holding a class: calling it makes an instance
		if strings.HasPrefix(t.Returns, "type[") || strings.HasPrefix(t.Returns, "Type[") {
			return pyResolveType(ctx.Table, ctx.Table.File(t.Path), pyClassOf(ctx.Table, t), t.Returns, 0, depth+1)
		}
	}
	return Unbound(RuleUnresolved, 0)
}

// pyTupleItem is element i of a tuple annotation: "tuple[A, B]", 1 -> "B".
func pyTupleItem(typ string, i int) string {
	typ = strings.Trim(strings.TrimSpace(typ), "\"'")
	open := strings.IndexByte(typ, '[')
	if open < 0 || !strings.HasSuffix(typ, "]") {
		return ""
	}
	switch LastIdent(typ[:open]) {
	case "tuple", "Tuple":
	default:
		return ""
	}
	args := pySplitTop(typ[open+1:len(typ)-1], ',')
	if i >= len(args) || strings.TrimSpace(args[len(args)-1]) == "..." {
		return ""
	}
	return strings.TrimSpace(args[i])
}

// pySplitLast splits "a.b(x).c" into "a.b(x)" and "c" at the last dot
// outside parentheses.
func pySplitLast(s string) (string, string, bool) {
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

// pyCallee strips the argument list from a call: "a.b(x, y)" -> "a.b".
func pyCallee(s string) string {
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

// pyAfterCall returns the attributes that follow the last call of a
// qualifier ("a.b(x).c.d" -> c, d); for a name that holds a call's
// result, those after the name. ok is false when a subscript intervenes.
func pyAfterCall(q string) ([]string, bool) {
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

// pyUniqueMethod binds a method call whose receiver is unknown when one
// method of that name exists and the name is distinctive. Code outside
// the tests is not bound to a method of the tests, and a stub's method
// does not compete with its implementation's.
func pyUniqueMethod(tab Table, from *FileInfo, name string) Resolution {
	if pyCommonMethods[name] || strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") {
		return Unbound(RuleUnresolved, 0)
	}
	fromTest := IsTestPath(from.Path)
	ms := Pick(tab.ByName(name), func(t *Target) bool {
		if t.Kind != KindMethod || !fromTest && IsTestPath(t.Path) {
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
		ms = Pick(ms, func(t *Target) bool {
			return !strings.HasSuffix(t.Path, ".pyi") || !impl[strings.TrimSuffix(t.Path, ".pyi")+"\x00"+t.Qualified()]
		})
	}
	switch len(ms) {
	case 0:
		return Unbound(RuleUnresolved, 0)
	case 1:
		return Bound(ms[0], RuleUniqueName)
	}
	return Unbound(RuleAmbiguous, len(ms))
}
