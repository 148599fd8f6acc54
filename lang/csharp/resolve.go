package csharp

import (
	"path"
	"slices"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// builtins are calls that are operators in disguise.
var builtins = lang.WordFile(data, "builtins.txt")

// objectMethods are the methods every object has.
var objectMethods = lang.WordFile(data, "object_methods.txt")

// commonMethods are method names of the BCL's everyday types so common
// that a unique definition in the repository says little about which one
// a call on a value of unknown type means.
var commonMethods = lang.WordFile(data, "common_methods.txt")

// bclTypes are framework types the repository does not define.
var bclTypes = lang.WordFile(data, "types.txt")

func isCSPath(p string) bool { return strings.HasSuffix(p, ".cs") }

// bindings maps a file's using aliases to their targets.
func bindings(fi *lang.FileInfo) map[string]lang.Binding {
	return fi.BindingsWith(func() map[string]lang.Binding {
		m := map[string]lang.Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if imp.Alias != "" {
				m[imp.Alias] = lang.Binding{Imp: imp}
			}
		}
		return m
	})
}

// usings lists the namespaces (and static types) a file's using
// directives open, then those the global usings of its project open: a
// project's GlobalUsings.cs sits in its root, a directory above the file
// (eShop's test projects reach their service's commands only so).
func usings(tab lang.Table, fi *lang.FileInfo) []string {
	var out []string
	for i := range fi.Imports {
		if imp := &fi.Imports[i]; imp.Alias == "" {
			out = append(out, imp.Source)
		}
	}
	for dir := path.Dir(fi.Path); ; dir = path.Dir(dir) {
		if g := globalUsings(tab, dir); g != "" {
			out = append(out, strings.Split(g, "\n")...)
		}
		if dir == "." || dir == "/" || dir == "" {
			break
		}
	}
	return out
}

// globalUsings lists, one a line, the namespaces that the global usings
// of the C# files directly in dir open.
func globalUsings(tab lang.Table, dir string) string {
	return tab.Memo("cs.global\x00"+dir, func() string {
		var out []string
		for _, f := range tab.DirFiles(dir) {
			if !isCSPath(f) {
				continue
			}
			if fi := tab.File(f); fi != nil {
				for i := range fi.Imports {
					if imp := &fi.Imports[i]; imp.Global && imp.Alias == "" {
						out = append(out, imp.Source)
					}
				}
			}
		}
		return strings.Join(out, "\n")
	})
}

// namespaceFiles returns the files that declare exactly namespace ns.
func namespaceFiles(tab lang.Table, ns string) []string {
	var out []string
	for _, f := range tab.ModuleFiles("csharp", ns) {
		if fi := tab.File(f); fi != nil && fi.Module == ns {
			out = append(out, f)
		}
	}
	return out
}

// namespaceDeclared reports whether some file declares exactly
// namespace ns; resolution asks for every type name, so it is cached.
func namespaceDeclared(tab lang.Table, ns string) bool {
	return tab.Memo("cs.ns\x00"+ns, func() string {
		for _, f := range tab.ModuleFiles("csharp", ns) {
			if fi := tab.File(f); fi != nil && fi.Module == ns {
				return "1"
			}
		}
		return ""
	}) != ""
}

// namespaceInRepo reports whether namespace ns is the repository's: a
// file declares it, or it shares its root with the namespace of the file
// asking (a parent namespace that holds only namespaces).
func namespaceInRepo(tab lang.Table, fi *lang.FileInfo, ns string) bool {
	if ns == "" {
		return false
	}
	if namespaceDeclared(tab, ns) {
		return true
	}
	root, _, _ := strings.Cut(ns, ".")
	mine, _, _ := strings.Cut(fi.Module, ".")
	return root == mine && root != "System" && root != "Microsoft"
}

// parents lists a namespace and its enclosing namespaces, innermost
// first: "A.B.C" -> A.B.C, A.B, A.
func parents(ns string) []string {
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

// topTypes finds the top-level types called name in namespace ns.
// The parts of a partial class count as one: the one in prefer (a path)
// when it has one, else the first.
func topTypes(tab lang.Table, ns, name, prefer string) []*lang.Target {
	cands := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return t.Container == "" && lang.IsTypeKind(t.Kind) && t.Module == ns && isCSPath(t.Path)
	})
	return onePerType(cands, prefer)
}

// onePerType keeps one part of each partial type: the one in the file
// prefer, else the one in the file named after it (Store.cs), else the
// one that lists the bases, else the first.
func onePerType(cands []*lang.Target, prefer string) []*lang.Target {
	if len(cands) < 2 {
		return cands
	}
	rank := func(t *lang.Target) int {
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
	var out []*lang.Target
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

// parts returns every part of a (partial) type: the types of the same
// qualified name in the same namespace.
func parts(tab lang.Table, typ *lang.Target) []*lang.Target {
	out := []*lang.Target{typ}
	for _, t := range tab.ByName(typ.Name) {
		if t.ID != typ.ID && lang.IsTypeKind(t.Kind) && t.Container == typ.Container && t.Module == typ.Module && isCSPath(t.Path) {
			out = append(out, t)
		}
	}
	return out
}

// twin is the type of typ's name, container and namespace that declares
// n type parameters (Foo for 0, Foo<T> for 1): C# tells them apart by
// arity alone, resolution by name finds either. typ when it has n, or no
// single other has.
func twin(tab lang.Table, typ *lang.Target, n int) *lang.Target {
	if typ.Arity == n {
		return typ
	}
	cands := lang.Pick(tab.ByName(typ.Name), func(t *lang.Target) bool {
		return t.Arity == n && lang.IsTypeKind(t.Kind) && t.Container == typ.Container && t.Module == typ.Module && isCSPath(t.Path)
	})
	if t := lang.One(onePerType(cands, typ.Path)); t != nil {
		return t
	}
	return typ
}

// nested finds the member type name of typ (any of its parts).
func nested(tab lang.Table, typ *lang.Target, name string) *lang.Target {
	q := typ.Qualified()
	cands := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return lang.IsTypeKind(t.Kind) && t.Container == q && t.Module == typ.Module && isCSPath(t.Path)
	})
	return lang.One(onePerType(cands, typ.Path))
}

// taskResult unwraps Task<T> and ValueTask<T>: an awaited call's value.
func taskResult(typ string) string {
	typ = strings.TrimSpace(typ)
	for _, w := range []string{"Task<", "ValueTask<", "System.Threading.Tasks.Task<"} {
		if strings.HasPrefix(typ, w) && strings.HasSuffix(typ, ">") {
			return typ[len(w) : len(typ)-1]
		}
	}
	return typ
}

// resolveType resolves a type as written in file fi by code in the
// container from (the member types of the classes around it are in
// scope). It returns the type and the rule that found it, or
// RuleExternal, RuleAmbiguous or RuleUnresolved.
func resolveType(tab lang.Table, fi *lang.FileInfo, from, typ string, depth int) (*lang.Target, string) {
	typ = stripType(typ)
	if typ == "" || fi == nil || depth > lang.MaxDepth {
		return nil, lang.RuleUnresolved
	}
	if strings.HasSuffix(typ, "]") || strings.HasSuffix(typ, "*") || lang.PrimitiveTypes[typ] {
		return nil, lang.RuleExternal
	}
	if !strings.Contains(typ, ".") && !strings.Contains(typ, "::") {
		return resolveSimpleType(tab, fi, from, typ, depth)
	}
	typ = strings.ReplaceAll(typ, "::", ".")
	segs := strings.Split(typ, ".")
	// Outer.Inner, or Alias.Type
	if b, ok := bindings(fi)[segs[0]]; ok {
		return resolveQualifiedType(tab, fi, b.Imp.Source+"."+strings.Join(segs[1:], "."), depth+1)
	}
	if head, rule := resolveSimpleType(tab, fi, from, segs[0], depth+1); head != nil {
		for _, s := range segs[1:] {
			if head = nested(tab, head, s); head == nil {
				return nil, lang.RuleUnresolved
			}
		}
		return head, rule
	}
	return resolveQualifiedType(tab, fi, typ, depth+1)
}

// resolveQualifiedType resolves a namespace-qualified type name:
// Shop.Models.Item, or relative to the file's namespace.
func resolveQualifiedType(tab lang.Table, fi *lang.FileInfo, typ string, depth int) (*lang.Target, string) {
	segs := strings.Split(typ, ".")
	var prefixes []string
	prefixes = append(prefixes, "")
	for _, p := range parents(fi.Module) {
		prefixes = append(prefixes, p+".")
	}
	inRepo := false
	for _, pre := range prefixes {
		for k := len(segs) - 1; k >= 1; k-- {
			ns := pre + strings.Join(segs[:k], ".")
			if !namespaceDeclared(tab, ns) {
				continue
			}
			inRepo = true
			t := lang.One(topTypes(tab, ns, segs[k], fi.Path))
			for _, s := range segs[k+1:] {
				if t == nil {
					break
				}
				t = nested(tab, t, s)
			}
			if t != nil {
				rule := lang.RuleImport
				switch {
				case t.Path == fi.Path:
					rule = lang.RuleSameFile
				case t.Module == fi.Module:
					rule = lang.RuleSamePackage
				}
				return t, rule
			}
		}
	}
	if inRepo || namespaceInRepo(tab, fi, strings.Join(segs[:len(segs)-1], ".")) {
		return nil, lang.RuleUnresolved
	}
	return nil, lang.RuleExternal
}

// nearRule is the rule of a type found in the namespaces of fi or around
// its code: the same file's, else the same namespace's.
func nearRule(t *lang.Target, fi *lang.FileInfo) string {
	if t.Path == fi.Path {
		return lang.RuleSameFile
	}
	return lang.RuleSamePackage
}

func resolveSimpleType(tab lang.Table, fi *lang.FileInfo, from, name string, depth int) (*lang.Target, string) {
	if lang.PrimitiveTypes[name] {
		return nil, lang.RuleExternal
	}
	// member types of the types around the code, and of their bases
	for c := lang.EnclosingType(tab, fi.Path, from); c != nil; c = lang.Outer(tab, c) {
		if nt := nested(tab, c, name); nt != nil {
			return nt, nearRule(nt, fi)
		}
		if c.Name == name && c.Container == "" {
			return c, lang.RuleSameFile
		}
	}
	// the namespace of the file and its parents
	for _, ns := range parents(fi.Module) {
		ts := topTypes(tab, ns, name, fi.Path)
		if len(ts) == 1 {
			return ts[0], nearRule(ts[0], fi)
		}
		if len(ts) > 1 {
			return nil, lang.RuleAmbiguous
		}
	}
	if fi.Module == "" {
		// the global namespace
		if ts := topTypes(tab, "", name, fi.Path); len(ts) == 1 {
			return ts[0], nearRule(ts[0], fi)
		}
	}
	// a using alias, then the namespaces using directives open
	if b, ok := bindings(fi)[name]; ok {
		if t, rule := resolveQualifiedType(tab, fi, b.Imp.Source, depth+1); t != nil || rule == lang.RuleExternal {
			if t != nil {
				rule = lang.RuleImport
			}
			return t, rule
		}
	}
	var found []*lang.Target
	external := false
	for _, u := range usings(tab, fi) {
		ts := topTypes(tab, u, name, fi.Path)
		if len(ts) == 0 && !namespaceDeclared(tab, u) {
			// using static Type; its member types
			if owner, _ := resolveQualifiedType(tab, fi, u, depth+1); owner != nil {
				if nt := nested(tab, owner, name); nt != nil {
					ts = []*lang.Target{nt}
				}
			} else if !namespaceInRepo(tab, fi, u) {
				external = true
			}
		}
		found = append(found, ts...)
	}
	found = onePerType(found, fi.Path)
	switch {
	case len(found) == 1:
		return found[0], lang.RuleImport
	case len(found) > 1:
		return nil, lang.RuleAmbiguous
	}
	// nothing visible: a framework type, or one a global using brings
	all := onePerType(lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return lang.IsTypeKind(t.Kind) && t.Container == "" && isCSPath(t.Path)
	}), fi.Path)
	switch {
	case len(all) == 0 || bclTypes.Has(name) && external:
		return nil, lang.RuleExternal
	case len(all) == 1:
		return all[0], lang.RuleUniqueName
	}
	return nil, lang.RuleAmbiguous
}

// members finds methods in any part of a partial type, then in its
// bases; a type without bases has System.Object's methods.
var members = &lang.MemberRules{
	Own: func(tab lang.Table, typ *lang.Target, name string) *lang.Target {
		q := typ.Qualified()
		ms := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
			return t.Kind == lang.KindMethod && t.Container == q && t.Module == typ.Module && isCSPath(t.Path)
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
	Bases: func(tab lang.Table, typ *lang.Target, depth int) []lang.BaseRef {
		var out []lang.BaseRef
		ps := parts(tab, typ)
		for _, part := range ps {
			fi := tab.File(part.Path)
			for _, b := range part.Bases {
				bt, rule := resolveType(tab, fi, part.Container, b, depth+1)
				// no type derives from itself: a base of its own name is
				// a twin of another arity (IValidator<T> : IValidator),
				// which parts holds already; counted, it would hide
				// System.Object's methods from both
				if bt != nil && slices.ContainsFunc(ps, func(p *lang.Target) bool { return p.ID == bt.ID }) {
					continue
				}
				out = append(out, lang.BaseRef{Target: bt, Rule: rule})
			}
		}
		return out
	},
	RootMember: func(_ lang.Table, _ *lang.Target, nBases int, name string) bool {
		return nBases == 0 && objectMethods.Has(name)
	},
}

// fieldType is the type of field or property name of typ, following
// its parts and bases. found is false when typ has no such member.
func fieldType(tab lang.Table, typ *lang.Target, name string, depth int) (t *lang.Target, ext, found bool) {
	if depth > lang.MaxDepth {
		return nil, false, false
	}
	parts := parts(tab, typ)
	for _, part := range parts {
		for _, f := range part.Fields {
			if f.Name == name {
				ft, rule := resolveType(tab, tab.File(part.Path), part.Qualified(), f.Type, depth+1)
				return ft, ft == nil && rule == lang.RuleExternal, true
			}
		}
	}
	for _, part := range parts {
		fi := tab.File(part.Path)
		for _, b := range part.Bases {
			bt, rule := resolveType(tab, fi, part.Container, b, depth+1)
			if bt == nil {
				if rule == lang.RuleExternal {
					ext = true
				}
				continue
			}
			if bt.ID == typ.ID {
				continue
			}
			if ft, e, ok := fieldType(tab, bt, name, depth+1); ok {
				return ft, e, true
			}
		}
	}
	return nil, ext, false
}

func resolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	tab := ctx.Table
	fi := ctx.File
	files := namespaceFiles(tab, imp.Source)
	if len(files) > 0 {
		for _, f := range files {
			if !lang.TestFile(tab, f) {
				if t := lang.ModuleTarget(tab, f); t != nil {
					return lang.Bound(t, lang.RuleImport)
				}
			}
		}
		if t := lang.ModuleTarget(tab, files[0]); t != nil {
			return lang.Bound(t, lang.RuleImport)
		}
	}
	// using static T; or using A = N.T;
	if t, rule := resolveQualifiedType(tab, fi, imp.Source, 0); t != nil {
		return lang.Bound(t, lang.RuleImport)
	} else if rule == lang.RuleExternal {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

func resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	return resolveRef(ctx, r, 0)
}

// from is the container code of the reference sees member types from.
func from(ctx *lang.Context) string {
	if ctx.From == nil || ctx.From.Kind == lang.KindModule {
		return ""
	}
	return ctx.From.Qualified()
}

func resolveRef(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	tab := ctx.Table
	switch r.Kind {
	case lang.RefExtends, lang.RefImplements, lang.RefNew:
		from := from(ctx)
		if r.Kind != lang.RefNew && ctx.From != nil {
			from = ctx.From.Container // a base list sees the scope around the type
		}
		typ := r.Name
		if r.Qualifier != "" {
			typ = r.Qualifier + "." + r.Name
		}
		t, rule := resolveType(tab, ctx.File, from, typ, depth)
		if t != nil && r.Kind != lang.RefNew && ctx.From != nil {
			// the base as written has its type arguments: of
			// IValidator<T> : IValidator, the base is the twin of arity 0
			for _, b := range ctx.From.Bases {
				if stripType(b) == typ {
					if tw := twin(tab, t, arity(b)); tw != t {
						t = tw
						if rule == lang.RuleSameFile || rule == lang.RuleSamePackage {
							rule = nearRule(t, ctx.File)
						}
					}
					break
				}
			}
		}
		if t != nil {
			return lang.Bound(t, rule)
		}
		return lang.Unbound(rule, 0)
	}
	if r.Qualifier == "" {
		if builtins.Has(r.Name) {
			return lang.Unbound(lang.RuleBuiltin, 0)
		}
		return resolveBare(ctx, r)
	}
	return resolveQualified(ctx, r, depth)
}

// resolveBare binds f(): a local function, a method of the class or of
// the classes around it (any part, then their bases), a method of a type
// opened by using static.
func resolveBare(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	tab := ctx.Table
	if f := ctx.From; f != nil && f.Kind != lang.KindModule {
		// local functions of the enclosing method and the methods around it
		for q := f.Qualified(); q != ""; q, _ = lang.LastSegment(q) {
			for _, t := range tab.ByName(r.Name) {
				if t.Kind == lang.KindFunction && t.Path == f.Path && t.Container == q {
					return lang.Bound(t, lang.RuleSameFile)
				}
			}
			if !strings.Contains(q, ".") {
				break
			}
		}
	}
	ext := false
	for c := lang.ClassOf(ctx); c != nil; c = lang.Outer(tab, c) {
		m, e := members.FindMember(tab, c, r.Name, 0)
		if m != nil {
			if m.Path == ctx.File.Path && m.Container == c.Qualified() {
				return lang.Bound(m, lang.RuleSameFile)
			}
			return lang.Bound(m, lang.RuleReceiver)
		}
		ext = ext || e
	}
	if ctx.From == nil || ctx.From.Kind == lang.KindModule || lang.ClassOf(ctx) == nil {
		// top-level statements and scripts: functions of the file
		for _, t := range tab.ByName(r.Name) {
			if t.Kind == lang.KindFunction && t.Path == ctx.File.Path && t.Container == "" {
				return lang.Bound(t, lang.RuleSameFile)
			}
		}
	}
	for _, u := range usings(ctx.Table, ctx.File) {
		if namespaceDeclared(tab, u) {
			continue
		}
		owner, rule := resolveQualifiedType(tab, ctx.File, u, 0)
		if owner != nil {
			if m, _ := members.FindMember(tab, owner, r.Name, 0); m != nil {
				return lang.Bound(m, lang.RuleImport)
			}
		} else if rule == lang.RuleExternal {
			// using static System.Math;
			_, last := lang.LastSegment(u)
			ext = ext || lang.IsUpper(last)
		}
	}
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return uniqueMethod(tab, r.Name, false)
}

func resolveQualified(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	tab := ctx.Table
	q := r.Qualifier
	cls := lang.ClassOf(ctx)
	segs := lang.SplitQualifier(q)
	rest := segs[1:]
	v := lang.TypedValue{Rule: lang.RuleReceiver}
	switch {
	case q == "this" && cls != nil && r.Name == cls.Name && r.QualifierCall == "":
		// : this(...): another constructor of the class
		for _, t := range tab.ByName(cls.Name) {
			if t.Kind == lang.KindConstructor && t.Container == cls.Qualified() && t.Module == cls.Module &&
				(ctx.From == nil || t.ID != ctx.From.ID) {
				return lang.Bound(t, lang.RuleSameFile)
			}
		}
		return lang.Bound(cls, lang.RuleSameFile)
	case q == "base":
		return resolveBase(ctx, r, cls)
	case r.QualifierCall != "":
		v = callResult(ctx, r.QualifierCall, r.QualifierType, depth)
		rest = lang.AfterCall(segs)
	case segs[0] == "this":
		if cls == nil {
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		v.Target = cls
	case r.QualifierType != "":
		t, rule := resolveType(tab, ctx.File, from(ctx), r.QualifierType, depth+1)
		v.Target, v.Ext = t, t == nil && rule == lang.RuleExternal
	default:
		var res *lang.Resolution
		v, rest, res = headValue(ctx, r, cls, segs, depth)
		if res != nil {
			return *res
		}
	}
	for _, s := range rest {
		if v.Target == nil {
			break
		}
		if strings.ContainsAny(s, "()[") {
			v = lang.TypedValue{}
			break
		}
		ft, e, found := fieldType(tab, v.Target, s, depth+1)
		if !found {
			if nt := nested(tab, v.Target, s); nt != nil {
				v.Target = nt
				continue
			}
		}
		v = lang.TypedValue{Target: ft, Ext: e, Rule: lang.RuleReceiver}
	}
	if v.Target == nil {
		if v.Ext {
			// a library type: an extension method of ours may extend it
			if r.QualifierType != "" && len(rest) == 0 {
				if res, ok := extensionMethod(ctx, r.Name, []string{r.QualifierType}); ok {
					return res
				}
			}
			return lang.Unbound(lang.RuleExternal, 0)
		}
		if res, ok := extensionMethod(ctx, r.Name, nil); ok {
			return res
		}
		return uniqueMethod(tab, r.Name, true)
	}
	m, ext := members.FindMember(tab, v.Target, r.Name, depth+1)
	if m != nil {
		return lang.Bound(m, v.Rule)
	}
	if p := delegateMember(tab, v.Target, r.Name, depth+1); p != nil {
		return lang.Bound(p, v.Rule)
	}
	if res, ok := extensionMethod(ctx, r.Name, append([]string{v.Target.Name}, v.Target.Bases...)); ok {
		return res
	}
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// delegateMember finds the property or field name of typ or its bases:
// x.P() where x's type has no method P invokes the delegate P holds
// (FluentValidation's ValidatorOptions.Global.PropertyNameResolver(...),
// a Func<...> property), so the call reads P.
func delegateMember(tab lang.Table, typ *lang.Target, name string, depth int) *lang.Target {
	var p *lang.Target
	members.Walk(tab, typ, depth, func(c *lang.Target) bool {
		q := c.Qualified()
		for _, t := range tab.ByName(name) {
			if t.Kind == lang.KindVariable && t.Container == q && t.Module == c.Module && isCSPath(t.Path) {
				p = t
				return true
			}
		}
		return false
	})
	return p
}

// extensionMethod binds x.M() to an extension method M of ours, declared
// "static M(this T x)", when x's type (one of recv, as written) has no
// member M; with recv nil, x's type unknown, only when every C# method of
// that name is an extension. Of those whose receiver type is x's, the ones
// nearest the caller win (ASP.NET solutions declare an
// AddApplicationServices(this IHostApplicationBuilder) in every service,
// each for its own Program.cs, in a namespace its GlobalUsings.cs opens),
// then those the calling file sees: its namespace and the ones around it,
// its usings (a global using lies in another file, so when it sees none
// all count). ok is false when there is no candidate.
func extensionMethod(ctx *lang.Context, name string, recv []string) (lang.Resolution, bool) {
	tab := ctx.Table
	var want map[string]bool
	if recv != nil {
		want = map[string]bool{}
		for _, t := range recv {
			_, n := lang.LastSegment(stripType(t))
			want[n] = true
		}
	}
	var cands, derived, anyType []*lang.Target
	for _, m := range tab.ByName(name) {
		if m.Kind != lang.KindMethod || !isCSPath(m.Path) {
			continue
		}
		if m.Receiver == "" {
			if want == nil {
				return lang.Resolution{}, false // an instance method may be it
			}
			continue
		}
		switch _, n := lang.LastSegment(stripType(m.Receiver)); {
		case want == nil || want[n]:
			cands = append(cands, m)
		case n == "object" || n == "Object":
			anyType = append(anyType, m) // this T x, unconstrained
		case derives(tab, n, want):
			// x known by a base type only (a fluent extension's constraint)
			derived = append(derived, m)
		}
	}
	if len(cands) == 0 {
		cands = derived
	}
	if len(cands) == 0 {
		cands = anyType
	}
	if len(cands) == 0 || ctx.File == nil {
		return lang.Resolution{}, false
	}
	best := -1
	var near []*lang.Target
	for _, m := range cands {
		switch d := lang.CommonDirLen(ctx.File.Path, m.Path); {
		case d > best:
			best, near = d, []*lang.Target{m}
		case d == best:
			near = append(near, m)
		}
	}
	seen := map[string]bool{"": true}
	for _, ns := range parents(ctx.File.Module) {
		seen[ns] = true
	}
	for _, u := range usings(ctx.Table, ctx.File) {
		seen[u] = true
	}
	if vis := lang.Pick(near, func(m *lang.Target) bool { return seen[m.Module] }); len(vis) > 0 {
		near = vis
	}
	rule := lang.RuleReceiver
	if want == nil {
		rule = lang.RuleUniqueName
	}
	// overloads in one class count once
	res := lang.UniqueMethod(near, func(a, b *lang.Target) bool { return a.Path == b.Path && a.Container == b.Container }, false)
	if res.Target != nil {
		res = lang.Bound(res.Target, rule)
	}
	return res, true
}

// headValue works out the first part of a qualifier the extractor could
// not type: a field the class inherits, a type (Type.M(), Outer.Inner.M(),
// Ns.Type.M(), Alias.M()).
func headValue(ctx *lang.Context, r *lang.Ref, cls *lang.Target, segs []string, depth int) (lang.TypedValue, []string, *lang.Resolution) {
	tab := ctx.Table
	head := segs[0]
	done := func(res lang.Resolution) (lang.TypedValue, []string, *lang.Resolution) {
		return lang.TypedValue{}, nil, &res
	}
	if strings.HasPrefix(head, "new ") || strings.HasPrefix(head, "(") || strings.HasPrefix(head, `"`) {
		return done(uniqueMethod(tab, r.Name, true))
	}
	if lang.PrimitiveTypes[head] {
		return done(lang.Unbound(lang.RuleExternal, 0)) // int.Parse, string.Join
	}
	// a field or property of the class or a class around it, inherited
	// or declared in another part
	for c := cls; c != nil; c = lang.Outer(tab, c) {
		if ft, e, found := fieldType(tab, c, head, depth+1); found {
			return lang.TypedValue{Target: ft, Ext: e, Rule: lang.RuleReceiver}, segs[1:], nil
		} else if e && !lang.IsUpper(head) {
			return done(lang.Unbound(lang.RuleExternal, 0))
		}
	}
	// a type, perhaps namespace-qualified, perhaps through an alias; a
	// lower-case name is a variable the extractor did not see, unless an
	// alias or a namespace of ours
	_, alias := bindings(ctx.File)[head]
	if !lang.IsUpper(head) && !alias && !namespaceInRepo(tab, ctx.File, head) {
		return done(uniqueMethod(tab, r.Name, true))
	}
	for k := len(segs); k >= 1; k-- {
		t, rule := resolveType(tab, ctx.File, from(ctx), strings.Join(segs[:k], "."), depth+1)
		if t != nil {
			return lang.TypedValue{Target: t, Rule: rule}, segs[k:], nil
		}
		if k == 1 && rule == lang.RuleExternal {
			return done(lang.Unbound(lang.RuleExternal, 0))
		}
	}
	if lang.IsUpper(head) && len(segs) == 1 {
		// Type.M() with a type the repository lacks under that name
		ms := lang.Pick(tab.ByName(r.Name), func(m *lang.Target) bool {
			_, c := lang.LastSegment(m.Container)
			return m.Kind == lang.KindMethod && c == head && isCSPath(m.Path)
		})
		if len(ms) == 0 {
			return done(lang.Unbound(lang.RuleExternal, 0))
		}
		if m := lang.One(ms); m != nil {
			return done(lang.Bound(m, lang.RuleUniqueName))
		}
		return done(lang.Unbound(lang.RuleAmbiguous, len(ms)))
	}
	return done(uniqueMethod(tab, r.Name, true))
}

// resolveBase binds base.M() and : base(...).
func resolveBase(ctx *lang.Context, r *lang.Ref, cls *lang.Target) lang.Resolution {
	tab := ctx.Table
	if cls == nil {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	ext := true
	for _, part := range parts(tab, cls) {
		fi := tab.File(part.Path)
		for i, b := range part.Bases {
			bt, _ := resolveType(tab, fi, part.Container, b, 1)
			if bt == nil {
				continue
			}
			if i == 0 && bt.Kind == lang.KindClass {
				ext = false
			}
			if r.Name == bt.Name {
				// : base(...): a constructor of the base class
				for _, t := range tab.ByName(bt.Name) {
					if t.Kind == lang.KindConstructor && t.Container == bt.Qualified() && t.Module == bt.Module {
						return lang.Bound(t, lang.RuleReceiver)
					}
				}
				return lang.Bound(bt, lang.RuleReceiver)
			}
			if m, e := members.FindMember(tab, bt, r.Name, 1); m != nil {
				return lang.Bound(m, lang.RuleReceiver)
			} else if e {
				ext = true
			}
		}
	}
	if ext || objectMethods.Has(r.Name) {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// callResult is the value a call returns: fn as the extractor rendered
// it ("a.B().C"), headType the type of its first part.
func callResult(ctx *lang.Context, fn, headType string, depth int) lang.TypedValue {
	r := lang.ChainCallRef(fn, headType)
	if r == nil {
		return lang.TypedValue{}
	}
	res := resolveRef(ctx, r, depth+1)
	if res.Rule == lang.RuleExternal {
		return lang.TypedValue{Ext: objectMethods.Has(r.Name)}
	}
	m := res.Target
	if m == nil || m.Kind == lang.KindConstructor || lang.IsTypeKind(m.Kind) {
		return lang.TypedValue{}
	}
	ret := taskResult(m.Returns)
	t, rule := resolveType(ctx.Table, ctx.Table.File(m.Path), m.Qualified(), ret, depth+1)
	if t == nil && m.Receiver != "" && typeParam(stripType(ret)) {
		// a fluent extension returns what it extends ("TBuilder
		// AddRetry<TBuilder>(this TBuilder b)"): at least its constraint
		if stripType(m.Receiver) == "object" {
			return lang.TypedValue{}
		}
		t, rule = resolveType(ctx.Table, ctx.Table.File(m.Path), m.Qualified(), m.Receiver, depth+1)
	}
	out := lang.TypedValue{Target: t, Ext: t == nil && rule == lang.RuleExternal, Rule: lang.RuleReceiver}
	if res.Rule == lang.RuleUniqueName {
		out.Rule = lang.RuleUniqueName
	}
	return out
}

// derives reports whether a C# type of ours called name has one of bases
// among its direct bases.
func derives(tab lang.Table, name string, bases map[string]bool) bool {
	for _, t := range tab.ByName(name) {
		if !lang.IsTypeKind(t.Kind) || !isCSPath(t.Path) {
			continue
		}
		for _, b := range t.Bases {
			if _, n := lang.LastSegment(stripType(b)); bases[n] {
				return true
			}
		}
	}
	return false
}

// typeParam reports whether a type name reads as a type parameter: T,
// TResult, TBuilder.
func typeParam(name string) bool {
	return name == "T" || len(name) > 1 && name[0] == 'T' && lang.IsUpper(name[1:])
}

// uniqueMethod binds a call on a value of unknown type to the only C#
// method of that name in the repository when the name is distinctive. A
// name no method of the repository has is a library's.
func uniqueMethod(tab lang.Table, name string, qualified bool) lang.Resolution {
	if objectMethods.Has(name) {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	ms := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return (t.Kind == lang.KindMethod || !qualified && t.Kind == lang.KindFunction) && isCSPath(t.Path)
	})
	// the parts of one partial class, or overloads, count once
	return lang.UniqueMethod(ms, func(a, b *lang.Target) bool { return a.Container == b.Container && a.Module == b.Module }, commonMethods.Has(name))
}
