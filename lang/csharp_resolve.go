package lang

import (
	"path"
	"strings"
)

// csBuiltins are calls that are operators in disguise.
var csBuiltins = wordSet("csharp", "builtins.txt")

// csObjectMethods are the methods every object has.
var csObjectMethods = wordSet("csharp", "object_methods.txt")

// csCommonMethods are method names of the BCL's everyday types so common
// that a unique definition in the repository says little about which one
// a call on a value of unknown type means.
var csCommonMethods = wordSet("csharp", "common_methods.txt")

// csBCLTypes are framework types the repository does not define.
var csBCLTypes = wordSet("csharp", "types.txt")

func init() {
	l := ByName("csharp")
	l.builtins = csBuiltins
	l.resolve = resolveCSharp
	l.resolveImport = resolveCSharpImport

}

// maxCSDepth bounds nested resolutions (a call's result type, a base's
// base), which cyclic or hostile code could otherwise make endless.
const maxCSDepth = 8

func isCSPath(p string) bool { return strings.HasSuffix(p, ".cs") }

// csBindings maps a file's using aliases to their targets.
func csBindings(fi *FileInfo) map[string]Binding {
	return fi.BindingsWith(func() map[string]Binding {
		m := map[string]Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if imp.Alias != "" {
				m[imp.Alias] = Binding{Imp: imp}
			}
		}
		return m
	})
}

// csUsings lists the namespaces (and static types) a file's using
// directives open.
func csUsings(fi *FileInfo) []string {
	var out []string
	for i := range fi.Imports {
		if imp := &fi.Imports[i]; imp.Alias == "" {
			out = append(out, imp.Source)
		}
	}
	return out
}

// csNamespaceFiles returns the files that declare exactly namespace ns.
func csNamespaceFiles(tab Table, ns string) []string {
	var out []string
	for _, f := range tab.ModuleFiles("csharp", ns) {
		if fi := tab.File(f); fi != nil && fi.Module == ns {
			out = append(out, f)
		}
	}
	return out
}

// csNamespaceDeclared reports whether some file declares exactly
// namespace ns; resolution asks for every type name, so it is cached.
func csNamespaceDeclared(tab Table, ns string) bool {
	return tab.Memo("cs.ns\x00"+ns, func() string {
		for _, f := range tab.ModuleFiles("csharp", ns) {
			if fi := tab.File(f); fi != nil && fi.Module == ns {
				return "1"
			}
		}
		return ""
	}) != ""
}

// csNamespaceInRepo reports whether namespace ns is the repository's: a
// file declares it, or it shares its root with the namespace of the file
// asking (a parent namespace that holds only namespaces).
func csNamespaceInRepo(tab Table, fi *FileInfo, ns string) bool {
	if ns == "" {
		return false
	}
	if csNamespaceDeclared(tab, ns) {
		return true
	}
	root, _, _ := strings.Cut(ns, ".")
	mine, _, _ := strings.Cut(fi.Module, ".")
	return root == mine && root != "System" && root != "Microsoft"
}

// csParents lists a namespace and its enclosing namespaces, innermost
// first: "A.B.C" -> A.B.C, A.B, A.
func csParents(ns string) []string {
	var out []string
	for ns != "" {
		out = append(out, ns)
		i := strings.LastIndexByte(ns, '.')
		if i < 0 {
			break
		}
		ns = ns[:i]
	}
	return out
}

// csTopTypes finds the top-level types called name in namespace ns.
// The parts of a partial class count as one: the one in prefer (a path)
// when it has one, else the first.
func csTopTypes(tab Table, ns, name, prefer string) []*Target {
	cands := Pick(tab.ByName(name), func(t *Target) bool {
		return t.Container == "" && IsTypeKind(t.Kind) && t.Module == ns && isCSPath(t.Path)
	})
	return csOnePerType(cands, prefer)
}

// csOnePerType keeps one part of each partial type: the one in the file
// prefer, else the one in the file named after it (Store.cs), else the
// One that lists the bases, else the first.
func csOnePerType(cands []*Target, prefer string) []*Target {
	if len(cands) < 2 {
		return cands
	}
	rank := func(t *Target) int {
		switch {
		case t.Path == prefer:
			return 3
		case path.Base(t.Path) == t.Name+".cs":
			return 2
		case len(t.Bases) > 0:
			return 1
		}
		return 0
	}
	var out []*Target
	seen := map[string]int{}
	for _, c := range cands {
		key := c.Module + "\x00" + c.Qualified()
		if i, ok := seen[key]; ok {
			if rank(c) > rank(out[i]) {
				out[i] = c
			}
			continue
		}
		seen[key] = len(out)
		out = append(out, c)
	}
	return out
}

// csParts returns every part of a (partial) type: the types of the same
// qualified name in the same namespace.
func csParts(tab Table, typ *Target) []*Target {
	out := []*Target{typ}
	for _, t := range tab.ByName(typ.Name) {
		if t.ID != typ.ID && IsTypeKind(t.Kind) && t.Container == typ.Container && t.Module == typ.Module && isCSPath(t.Path) {
			out = append(out, t)
		}
	}
	return out
}

// csNested finds the member type name of typ (any of its parts).
func csNested(tab Table, typ *Target, name string) *Target {
	q := typ.Qualified()
	cands := Pick(tab.ByName(name), func(t *Target) bool {
		return IsTypeKind(t.Kind) && t.Container == q && t.Module == typ.Module && isCSPath(t.Path)
	})
	return One(csOnePerType(cands, typ.Path))
}

// csEnclosing is the innermost type of file fi whose qualified name is
// container or a prefix of it.
func csEnclosing(tab Table, p, container string) *Target {
	for container != "" {
		c, name := LastSegment(container)
		for _, t := range tab.ByName(name) {
			if t.Path == p && t.Container == c && IsTypeKind(t.Kind) {
				return t
			}
		}
		container = c
	}
	return nil
}

// csClassOf is the type a reference is made in.
func csClassOf(ctx *Context) *Target {
	f := ctx.From
	if f == nil || f.Kind == KindModule {
		return nil
	}
	if IsTypeKind(f.Kind) {
		return f
	}
	return csEnclosing(ctx.Table, f.Path, f.Container)
}

// csTaskResult unwraps Task<T> and ValueTask<T>: an awaited call's value.
func csTaskResult(typ string) string {
	typ = strings.TrimSpace(typ)
	for _, w := range []string{"Task<", "ValueTask<", "System.Threading.Tasks.Task<"} {
		if strings.HasPrefix(typ, w) && strings.HasSuffix(typ, ">") {
			return typ[len(w) : len(typ)-1]
		}
	}
	return typ
}

// csResolveType resolves a type as written in file fi by code in the
// container from (the member types of the classes around it are in
// Scope). It returns the type and the rule that found it, or
// RuleExternal, RuleAmbiguous or RuleUnresolved.
func csResolveType(tab Table, fi *FileInfo, from, typ string, depth int) (*Target, string) {
	typ = csStripType(typ)
	if typ == "" || fi == nil || depth > maxCSDepth {
		return nil, RuleUnresolved
	}
	if strings.HasSuffix(typ, "]") || strings.HasSuffix(typ, "*") || PrimitiveTypes[typ] {
		return nil, RuleExternal
	}
	if !strings.Contains(typ, ".") && !strings.Contains(typ, "::") {
		return csResolveSimpleType(tab, fi, from, typ, depth)
	}
	typ = strings.ReplaceAll(typ, "::", ".")
	segs := strings.Split(typ, ".")
	// Outer.Inner, or Alias.Type
	if b, ok := csBindings(fi)[segs[0]]; ok {
		return csResolveQualifiedType(tab, fi, b.Imp.Source+"."+strings.Join(segs[1:], "."), depth+1)
	}
	if head, rule := csResolveSimpleType(tab, fi, from, segs[0], depth+1); head != nil {
		for _, s := range segs[1:] {
			if head = csNested(tab, head, s); head == nil {
				return nil, RuleUnresolved
			}
		}
		return head, rule
	}
	return csResolveQualifiedType(tab, fi, typ, depth+1)
}

// csResolveQualifiedType resolves a namespace-qualified type name:
// Shop.Models.Item, or relative to the file's namespace.
func csResolveQualifiedType(tab Table, fi *FileInfo, typ string, depth int) (*Target, string) {
	segs := strings.Split(typ, ".")
	var prefixes []string
	prefixes = append(prefixes, "")
	for _, p := range csParents(fi.Module) {
		prefixes = append(prefixes, p+".")
	}
	inRepo := false
	for _, pre := range prefixes {
		for k := len(segs) - 1; k >= 1; k-- {
			ns := pre + strings.Join(segs[:k], ".")
			if !csNamespaceDeclared(tab, ns) {
				continue
			}
			inRepo = true
			t := One(csTopTypes(tab, ns, segs[k], fi.Path))
			for _, s := range segs[k+1:] {
				if t == nil {
					break
				}
				t = csNested(tab, t, s)
			}
			if t != nil {
				rule := RuleImport
				switch {
				case t.Path == fi.Path:
					rule = RuleSameFile
				case t.Module == fi.Module:
					rule = RuleSamePackage
				}
				return t, rule
			}
		}
	}
	if inRepo || csNamespaceInRepo(tab, fi, strings.Join(segs[:len(segs)-1], ".")) {
		return nil, RuleUnresolved
	}
	return nil, RuleExternal
}

func csResolveSimpleType(tab Table, fi *FileInfo, from, name string, depth int) (*Target, string) {
	if PrimitiveTypes[name] {
		return nil, RuleExternal
	}
	// member types of the types around the code, and of their bases
	for c := csEnclosing(tab, fi.Path, from); c != nil; c = csEnclosing(tab, c.Path, c.Container) {
		if nt := csNested(tab, c, name); nt != nil {
			if nt.Path == fi.Path {
				return nt, RuleSameFile
			}
			return nt, RuleSamePackage
		}
		if c.Name == name && c.Container == "" {
			return c, RuleSameFile
		}
	}
	// the namespace of the file and its parents
	for _, ns := range csParents(fi.Module) {
		ts := csTopTypes(tab, ns, name, fi.Path)
		if len(ts) == 1 {
			if ts[0].Path == fi.Path {
				return ts[0], RuleSameFile
			}
			return ts[0], RuleSamePackage
		}
		if len(ts) > 1 {
			return nil, RuleAmbiguous
		}
	}
	if fi.Module == "" {
		// the global namespace
		if ts := csTopTypes(tab, "", name, fi.Path); len(ts) == 1 {
			if ts[0].Path == fi.Path {
				return ts[0], RuleSameFile
			}
			return ts[0], RuleSamePackage
		}
	}
	// a using alias, then the namespaces using directives open
	if b, ok := csBindings(fi)[name]; ok {
		if t, rule := csResolveQualifiedType(tab, fi, b.Imp.Source, depth+1); t != nil || rule == RuleExternal {
			if t != nil {
				rule = RuleImport
			}
			return t, rule
		}
	}
	var found []*Target
	external := false
	for _, u := range csUsings(fi) {
		ts := csTopTypes(tab, u, name, fi.Path)
		if len(ts) == 0 && !csNamespaceDeclared(tab, u) {
			// using static Type; its member types
			if owner, _ := csResolveQualifiedType(tab, fi, u, depth+1); owner != nil {
				if nt := csNested(tab, owner, name); nt != nil {
					ts = []*Target{nt}
				}
			} else if !csNamespaceInRepo(tab, fi, u) {
				external = true
			}
		}
		found = append(found, ts...)
	}
	found = csOnePerType(found, fi.Path)
	switch {
	case len(found) == 1:
		return found[0], RuleImport
	case len(found) > 1:
		return nil, RuleAmbiguous
	}
	// nothing visible: a framework type, or one a global using brings
	all := csOnePerType(Pick(tab.ByName(name), func(t *Target) bool {
		return IsTypeKind(t.Kind) && t.Container == "" && isCSPath(t.Path)
	}), fi.Path)
	switch {
	case len(all) == 0 || csBCLTypes[name] && external:
		return nil, RuleExternal
	case len(all) == 1:
		return all[0], RuleUniqueName
	}
	return nil, RuleAmbiguous
}

// csMembers finds methods in any part of a partial type, then in its
// bases; a type without bases has System.Object's methods.
var csMembers = &MemberRules{
	Own: func(tab Table, typ *Target, name string) *Target {
		q := typ.Qualified()
		ms := Pick(tab.ByName(name), func(t *Target) bool {
			return t.Kind == KindMethod && t.Container == q && t.Module == typ.Module && isCSPath(t.Path)
		})
		for _, m := range ms {
			if m.Path == typ.Path {
				return m
			}
		}
		if len(ms) > 0 {
			return ms[0]
		}
		return nil
	},
	Bases: func(tab Table, typ *Target, depth int) []BaseRef {
		var out []BaseRef
		for _, part := range csParts(tab, typ) {
			fi := tab.File(part.Path)
			for _, b := range part.Bases {
				bt, rule := csResolveType(tab, fi, part.Container, b, depth+1)
				out = append(out, BaseRef{bt, rule})
			}
		}
		return out
	},
	RootMember: func(_ Table, _ *Target, nBases int, name string) bool { return nBases == 0 && csObjectMethods[name] },
}

// csFieldType is the type of field or property name of typ, following
// its parts and bases. found is false when typ has no such member.
func csFieldType(tab Table, typ *Target, name string, depth int) (t *Target, ext, found bool) {
	if depth > maxCSDepth {
		return nil, false, false
	}
	parts := csParts(tab, typ)
	for _, part := range parts {
		for _, f := range part.Fields {
			if f.Name == name {
				ft, rule := csResolveType(tab, tab.File(part.Path), part.Qualified(), f.Type, depth+1)
				return ft, ft == nil && rule == RuleExternal, true
			}
		}
	}
	for _, part := range parts {
		fi := tab.File(part.Path)
		for _, b := range part.Bases {
			bt, rule := csResolveType(tab, fi, part.Container, b, depth+1)
			if bt == nil {
				if rule == RuleExternal {
					ext = true
				}
				continue
			}
			if bt.ID == typ.ID {
				continue
			}
			if ft, e, ok := csFieldType(tab, bt, name, depth+1); ok {
				return ft, e, true
			}
		}
	}
	return nil, ext, false
}

func resolveCSharpImport(ctx *Context, imp *Import, name string) Resolution {
	tab := ctx.Table
	fi := ctx.File
	files := csNamespaceFiles(tab, imp.Source)
	if len(files) > 0 {
		for _, f := range files {
			if !IsTestPath(f) {
				if t := ModuleTarget(tab, f); t != nil {
					return Bound(t, RuleImport)
				}
			}
		}
		if t := ModuleTarget(tab, files[0]); t != nil {
			return Bound(t, RuleImport)
		}
	}
	// using static T; or using A = N.T;
	if t, rule := csResolveQualifiedType(tab, fi, imp.Source, 0); t != nil {
		return Bound(t, RuleImport)
	} else if rule == RuleExternal {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

func resolveCSharp(ctx *Context, r *Ref) Resolution {
	return csResolve(ctx, r, 0)
}

// csFrom is the container code of the reference sees member types from.
func csFrom(ctx *Context) string {
	if ctx.From == nil || ctx.From.Kind == KindModule {
		return ""
	}
	return ctx.From.Qualified()
}

func csResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > maxCSDepth {
		return Unbound(RuleUnresolved, 0)
	}
	tab := ctx.Table
	switch r.Kind {
	case RefExtends, RefImplements, RefNew:
		from := csFrom(ctx)
		if r.Kind != RefNew && ctx.From != nil {
			from = ctx.From.Container // a base list sees the scope around the type
		}
		typ := r.Name
		if r.Qualifier != "" {
			typ = r.Qualifier + "." + r.Name
		}
		t, rule := csResolveType(tab, ctx.File, from, typ, depth)
		if t != nil {
			return Bound(t, rule)
		}
		return Unbound(rule, 0)
	}
	if r.Qualifier == "" {
		if csBuiltins[r.Name] {
			return Unbound(RuleBuiltin, 0)
		}
		return csResolveBare(ctx, r)
	}
	return csResolveQualified(ctx, r, depth)
}

// csResolveBare binds f(): a local function, a method of the class or of
// the classes around it (any part, then their bases), a method of a type
// opened by using static.
func csResolveBare(ctx *Context, r *Ref) Resolution {
	tab := ctx.Table
	if f := ctx.From; f != nil && f.Kind != KindModule {
		// local functions of the enclosing method and the methods around it
		for q := f.Qualified(); q != ""; q, _ = LastSegment(q) {
			for _, t := range tab.ByName(r.Name) {
				if t.Kind == KindFunction && t.Path == f.Path && t.Container == q {
					return Bound(t, RuleSameFile)
				}
			}
			if !strings.Contains(q, ".") {
				break
			}
		}
	}
	ext := false
	for c := csClassOf(ctx); c != nil; c = csEnclosing(tab, c.Path, c.Container) {
		m, e := csMembers.FindMember(tab, c, r.Name, 0)
		if m != nil {
			if m.Path == ctx.File.Path && m.Container == c.Qualified() {
				return Bound(m, RuleSameFile)
			}
			return Bound(m, RuleReceiver)
		}
		ext = ext || e
	}
	if ctx.From == nil || ctx.From.Kind == KindModule || csClassOf(ctx) == nil {
		// top-level statements and scripts: functions of the file
		for _, t := range tab.ByName(r.Name) {
			if t.Kind == KindFunction && t.Path == ctx.File.Path && t.Container == "" {
				return Bound(t, RuleSameFile)
			}
		}
	}
	for _, u := range csUsings(ctx.File) {
		if csNamespaceDeclared(tab, u) {
			continue
		}
		owner, rule := csResolveQualifiedType(tab, ctx.File, u, 0)
		if owner != nil {
			if m, _ := csMembers.FindMember(tab, owner, r.Name, 0); m != nil {
				return Bound(m, RuleImport)
			}
		} else if rule == RuleExternal {
			// using static System.Math;
			_, last := LastSegment(u)
			ext = ext || IsUpper(last)
		}
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	return csUniqueMethod(tab, r.Name, false)
}

func csResolveQualified(ctx *Context, r *Ref, depth int) Resolution {
	tab := ctx.Table
	q := r.Qualifier
	cls := csClassOf(ctx)
	segs := SplitQualifier(q)
	rest := segs[1:]
	v := TypedValue{Rule: RuleReceiver}
	switch {
	case q == "this" && cls != nil && r.Name == cls.Name && r.QualifierCall == "":
		// : this(...): another constructor of the class
		for _, t := range tab.ByName(cls.Name) {
			if t.Kind == KindConstructor && t.Container == cls.Qualified() && t.Module == cls.Module &&
				(ctx.From == nil || t.ID != ctx.From.ID) {
				return Bound(t, RuleSameFile)
			}
		}
		return Bound(cls, RuleSameFile)
	case q == "base":
		return csResolveBase(ctx, r, cls)
	case r.QualifierCall != "":
		v = csCallResult(ctx, r.QualifierCall, r.QualifierType, depth)
		rest = nil
		for i := len(segs) - 1; i >= 0; i-- {
			if strings.HasSuffix(segs[i], ")") {
				rest = segs[i+1:]
				break
			}
			if i == 0 {
				rest = segs[1:]
			}
		}
	case segs[0] == "this":
		if cls == nil {
			return Unbound(RuleUnresolved, 0)
		}
		v.Target = cls
	case r.QualifierType != "":
		t, rule := csResolveType(tab, ctx.File, csFrom(ctx), r.QualifierType, depth+1)
		v.Target, v.Ext = t, t == nil && rule == RuleExternal
	default:
		var res *Resolution
		v, rest, res = csHeadValue(ctx, r, cls, segs, depth)
		if res != nil {
			return *res
		}
	}
	for _, s := range rest {
		if v.Target == nil {
			break
		}
		if strings.ContainsAny(s, "()[") {
			v = TypedValue{}
			break
		}
		ft, e, found := csFieldType(tab, v.Target, s, depth+1)
		if !found {
			if nt := csNested(tab, v.Target, s); nt != nil {
				v.Target = nt
				continue
			}
		}
		v = TypedValue{Target: ft, Ext: e, Rule: RuleReceiver}
	}
	if v.Target == nil {
		if v.Ext {
			return Unbound(RuleExternal, 0)
		}
		return csUniqueMethod(tab, r.Name, true)
	}
	m, ext := csMembers.FindMember(tab, v.Target, r.Name, depth+1)
	if m != nil {
		return Bound(m, v.Rule)
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// csHeadValue works out the first part of a qualifier the extractor could
// not type: a field the class inherits, a type (Type.M(), Outer.Inner.M(),
// Ns.Type.M(), Alias.M()).
func csHeadValue(ctx *Context, r *Ref, cls *Target, segs []string, depth int) (TypedValue, []string, *Resolution) {
	tab := ctx.Table
	head := segs[0]
	done := func(res Resolution) (TypedValue, []string, *Resolution) { return TypedValue{}, nil, &res }
	if strings.HasPrefix(head, "new ") || strings.HasPrefix(head, "(") || strings.HasPrefix(head, `"`) {
		return done(csUniqueMethod(tab, r.Name, true))
	}
	if PrimitiveTypes[head] {
		return done(Unbound(RuleExternal, 0)) // int.Parse, string.Join
	}
	// a field or property of the class or a class around it, inherited
	// or declared in another part
	for c := cls; c != nil; c = csEnclosing(tab, c.Path, c.Container) {
		if ft, e, found := csFieldType(tab, c, head, depth+1); found {
			return TypedValue{Target: ft, Ext: e, Rule: RuleReceiver}, segs[1:], nil
		} else if e && !IsUpper(head) {
			return done(Unbound(RuleExternal, 0))
		}
	}
	// a type, perhaps namespace-qualified, perhaps through an alias; a
	// lower-case name is a variable the extractor did not see, unless an
	// alias or a namespace of ours
	_, alias := csBindings(ctx.File)[head]
	if !IsUpper(head) && !alias && !csNamespaceInRepo(tab, ctx.File, head) {
		return done(csUniqueMethod(tab, r.Name, true))
	}
	for k := len(segs); k >= 1; k-- {
		t, rule := csResolveType(tab, ctx.File, csFrom(ctx), strings.Join(segs[:k], "."), depth+1)
		if t != nil {
			return TypedValue{Target: t, Rule: rule}, segs[k:], nil
		}
		if k == 1 && rule == RuleExternal {
			return done(Unbound(RuleExternal, 0))
		}
	}
	if IsUpper(head) && len(segs) == 1 {
		// Type.M() with a type the repository lacks under that name
		ms := Pick(tab.ByName(r.Name), func(m *Target) bool {
			_, c := LastSegment(m.Container)
			return m.Kind == KindMethod && c == head && isCSPath(m.Path)
		})
		if len(ms) == 0 {
			return done(Unbound(RuleExternal, 0))
		}
		if m := One(ms); m != nil {
			return done(Bound(m, RuleUniqueName))
		}
		return done(Unbound(RuleAmbiguous, len(ms)))
	}
	return done(csUniqueMethod(tab, r.Name, true))
}

// csResolveBase binds base.M() and : base(...).
func csResolveBase(ctx *Context, r *Ref, cls *Target) Resolution {
	tab := ctx.Table
	if cls == nil {
		return Unbound(RuleUnresolved, 0)
	}
	ext := true
	for _, part := range csParts(tab, cls) {
		fi := tab.File(part.Path)
		for i, b := range part.Bases {
			bt, rule := csResolveType(tab, fi, part.Container, b, 1)
			if bt == nil {
				continue
			}
			_ = rule
			if i == 0 && bt.Kind == KindClass {
				ext = false
			}
			if r.Name == bt.Name {
				// : base(...): a constructor of the base class
				for _, t := range tab.ByName(bt.Name) {
					if t.Kind == KindConstructor && t.Container == bt.Qualified() && t.Module == bt.Module {
						return Bound(t, RuleReceiver)
					}
				}
				return Bound(bt, RuleReceiver)
			}
			if m, e := csMembers.FindMember(tab, bt, r.Name, 1); m != nil {
				return Bound(m, RuleReceiver)
			} else if e {
				ext = true
			}
		}
	}
	if ext || csObjectMethods[r.Name] {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// csCallResult is the value a call returns: fn as the extractor rendered
// it ("a.B().C"), headType the type of its first part.
func csCallResult(ctx *Context, fn, headType string, depth int) TypedValue {
	r := ChainCallRef(fn, headType)
	if r == nil {
		return TypedValue{}
	}
	res := csResolve(ctx, r, depth+1)
	if res.Rule == RuleExternal {
		return TypedValue{Ext: csObjectMethods[r.Name]}
	}
	m := res.Target
	if m == nil || m.Kind == KindConstructor || IsTypeKind(m.Kind) {
		return TypedValue{}
	}
	t, rule := csResolveType(ctx.Table, ctx.Table.File(m.Path), m.Qualified(), csTaskResult(m.Returns), depth+1)
	out := TypedValue{Target: t, Ext: t == nil && rule == RuleExternal, Rule: RuleReceiver}
	if res.Rule == RuleUniqueName {
		out.Rule = RuleUniqueName
	}
	return out
}

// csUniqueMethod binds a call on a value of unknown type to the only C#
// method of that name in the repository when the name is distinctive. A
// name no method of the repository has is a library's.
func csUniqueMethod(tab Table, name string, qualified bool) Resolution {
	if csObjectMethods[name] {
		return Unbound(RuleExternal, 0)
	}
	ms := Pick(tab.ByName(name), func(t *Target) bool {
		return (t.Kind == KindMethod || !qualified && t.Kind == KindFunction) && isCSPath(t.Path)
	})
	// the parts of one partial class, or overloads, count once
	return UniqueMethod(ms, func(a, b *Target) bool { return a.Container == b.Container && a.Module == b.Module }, csCommonMethods[name])
}
