package lang

import (
	"path"
	"strings"
)

// phpBuiltins are PHP's everyday functions and language constructs that
// read like calls: calls to them are dropped. Functions with side effects
// (file_put_contents, curl_exec, exec, mail...) are not among them: they
// resolve as external.
var phpBuiltins = wordSet("php", "builtins.txt")

// phpCommonMethods are method names so common in frameworks and the
// standard library that a unique definition in the repository says little
// about which one a call on a value of unknown class means.
var phpCommonMethods = wordSet("php", "common_methods.txt")

// phpObjectMagic are the magic methods every object may have.
var phpObjectMagic = wordSet("php", "object_methods.txt")

func init() {
	l := ByName("php")
	l.builtins = phpBuiltins
	l.resolve = resolvePHP
	l.resolveImport = resolvePHPImport

}

func isPHPPath(p string) bool {
	ext := path.Ext(p)
	return ext == ".php" || ext == ".phtml"
}

// phpUseMaps are the names a file's use statements bind: classes (and
// namespaces) by alias, functions and constants by name.
type phpUseMaps struct {
	classes, funcs, consts map[string]string // local name -> fully qualified name
}

func phpUses(fi *FileInfo) *phpUseMaps {
	m := fi.BindingsWith(func() map[string]Binding {
		out := map[string]Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if strings.Contains(imp.Source, "/") || strings.HasSuffix(imp.Source, ".php") || strings.HasPrefix(imp.Source, ".") {
				continue // an include
			}
			switch {
			case len(imp.Names) > 0 && imp.Alias == "const":
				for _, n := range imp.Names {
					out["c\x00"+n.Local()] = Binding{Imp: imp, Name: n.Name}
				}
			case len(imp.Names) > 0:
				for _, n := range imp.Names {
					out["f\x00"+strings.ToLower(n.Local())] = Binding{Imp: imp, Name: n.Name}
				}
			default:
				local := imp.Alias
				if local == "" {
					_, local = phpSplitName(imp.Source)
				}
				out["k\x00"+strings.ToLower(local)] = Binding{Imp: imp}
			}
		}
		return out
	})
	u := &phpUseMaps{classes: map[string]string{}, funcs: map[string]string{}, consts: map[string]string{}}
	for k, b := range m {
		kind, local, _ := strings.Cut(k, "\x00")
		switch kind {
		case "k":
			u.classes[local] = b.Imp.Source
		case "f":
			u.funcs[local] = b.Imp.Source + `\` + b.Name
		case "c":
			u.consts[local] = b.Imp.Source + `\` + b.Name
		}
	}
	return u
}

// phpQualify turns a class name as written in file fi into its fully
// qualified name (no leading backslash), by PHP's rules: \A\B is itself,
// an alias of a use statement is what it stands for (also as the first
// part of A\B), anything else is in the file's namespace. imported
// reports a name a use statement or a full name gave.
func phpQualify(fi *FileInfo, written string) (fqn string, imported bool) {
	written = strings.TrimSpace(written)
	if strings.HasPrefix(written, `\`) {
		return strings.TrimPrefix(written, `\`), true
	}
	if strings.HasPrefix(strings.ToLower(written), `namespace\`) {
		return phpJoin(fi.Module, written[len(`namespace\`):]), false
	}
	first, rest, qualified := strings.Cut(written, `\`)
	uses := phpUses(fi)
	if full, ok := uses.classes[strings.ToLower(first)]; ok {
		if qualified {
			return full + `\` + rest, true
		}
		return full, true
	}
	return phpJoin(fi.Module, written), false
}

func phpJoin(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + `\` + name
}

// phpPSR4 lists the repository's PSR-4 prefixes and directories.
func phpPSR4(tab Table) [][2]string {
	var out [][2]string
	for _, e := range phpAutoload(tab) {
		out = append(out, [2]string{e.Prefix, e.Dir})
	}
	return out
}

// phpPSR4Files are the files PSR-4 says class fqn lives in.
func phpPSR4Files(tab Table, fqn string) []string {
	var out []string
	for _, m := range phpPSR4(tab) {
		prefix, dir := m[0], m[1]
		rest := ""
		switch {
		case prefix == "":
			rest = fqn
		case fqn == prefix:
			continue
		case strings.HasPrefix(fqn, prefix+`\`):
			rest = fqn[len(prefix)+1:]
		default:
			continue
		}
		p := path.Join(dir, strings.ReplaceAll(rest, `\`, "/")+".php")
		if tab.File(p) != nil {
			out = append(out, p)
		}
	}
	return out
}

// phpNamespaceOurs reports whether namespace ns belongs to the
// repository: a PSR-4 prefix of its composer.json covers it, or a file
// declares it, or (without composer.json) it shares its root with the
// namespace of the file asking.
func phpNamespaceOurs(tab Table, fi *FileInfo, ns string) bool {
	psr := phpPSR4(tab)
	for _, m := range psr {
		if m[0] == "" || ns == m[0] || strings.HasPrefix(ns, m[0]+`\`) {
			return true
		}
	}
	if tab.Memo("php.ns\x00"+ns, func() string {
		for _, f := range tab.ModuleFiles("php", ns) {
			if fi := tab.File(f); fi != nil && fi.Module == ns {
				return "1"
			}
		}
		return ""
	}) != "" {
		return true
	}
	if len(psr) > 0 || ns == "" {
		return false
	}
	root, _, _ := strings.Cut(ns, `\`)
	mine, _, _ := strings.Cut(fi.Module, `\`)
	return root != "" && strings.EqualFold(root, mine)
}

// phpFindClass finds the class (interface, trait, enum) of a fully
// qualified name. ext reports a namespace outside the repository.
func phpFindClass(tab Table, fi *FileInfo, fqn string) (t *Target, ext bool) {
	ns, name := phpSplitName(fqn)
	if name == "" {
		return nil, false
	}
	cands := Pick(tab.ByName(name), func(t *Target) bool {
		return IsTypeKind(t.Kind) && t.Container == "" && strings.EqualFold(t.Module, ns) && isPHPPath(t.Path)
	})
	if len(cands) > 1 {
		// the same class twice: the one PSR-4 loads
		files := phpPSR4Files(tab, fqn)
		if c := One(Pick(cands, func(t *Target) bool {
			for _, f := range files {
				if t.Path == f {
					return true
				}
			}
			return false
		})); c != nil {
			return c, false
		}
		return One(PreferDefinitions(cands)), false
	}
	if len(cands) == 1 {
		return cands[0], false
	}
	// the file PSR-4 names, whatever namespace it says
	for _, f := range phpPSR4Files(tab, fqn) {
		for _, t := range tab.ByName(name) {
			if t.Path == f && IsTypeKind(t.Kind) && t.Container == "" {
				return t, false
			}
		}
	}
	if phpBuiltinClasses[fqn] {
		return nil, true
	}
	return nil, !phpNamespaceOurs(tab, fi, ns)
}

// phpBuiltinClasses are classes of PHP itself, in the global namespace.
var phpBuiltinClasses = wordSet("php", "types.txt")

// phpResolveClass resolves a class as written in file fi by code in the
// class cls (for self, static and parent): the class and the rule.
func phpResolveClass(tab Table, fi *FileInfo, cls *Target, written string) (*Target, string) {
	switch strings.ToLower(written) {
	case "self", "static", "$this":
		if cls != nil {
			return cls, RuleSameFile
		}
		return nil, RuleUnresolved
	case "parent":
		if cls == nil || len(cls.Bases) == 0 {
			return nil, RuleUnresolved
		}
		return phpResolveClass(tab, tab.File(cls.Path), nil, cls.Bases[0])
	}
	if PrimitiveTypes[strings.ToLower(written)] || written == "" {
		return nil, RuleExternal
	}
	fqn, imported := phpQualify(fi, written)
	t, ext := phpFindClass(tab, fi, fqn)
	if t == nil && !imported && !strings.Contains(written, `\`) {
		// an unqualified name PHP did not find in the namespace: the
		// global class of that name (Exception)
		if g, gext := phpFindClass(tab, fi, written); g != nil {
			t, ext = g, false
		} else if gext || phpBuiltinClasses[written] {
			return nil, RuleExternal
		}
	}
	switch {
	case t == nil && ext:
		return nil, RuleExternal
	case t == nil:
		return nil, RuleUnresolved
	case t.Path == fi.Path:
		return t, RuleSameFile
	case imported:
		return t, RuleImport
	case strings.EqualFold(t.Module, fi.Module):
		return t, RuleSamePackage
	}
	return t, RuleImport
}

// phpMembers finds methods of a class, then of its parents, interfaces
// and traits; the magic methods may come from outside the repository.
var phpMembers = &MemberRules{
	Own: func(tab Table, cls *Target, name string) *Target {
		q := cls.Qualified()
		for _, t := range tab.ByName(name) {
			if (t.Kind == KindMethod || t.Kind == KindConstructor) && t.Path == cls.Path && t.Container == q {
				return t
			}
		}
		return nil
	},
	Bases: func(tab Table, cls *Target, _ int) []BaseRef {
		fi := tab.File(cls.Path)
		if fi == nil {
			return nil
		}
		out := make([]BaseRef, 0, len(cls.Bases))
		for _, b := range cls.Bases {
			bt, rule := phpResolveClass(tab, fi, nil, b)
			out = append(out, BaseRef{bt, rule})
		}
		return out
	},
	RootMember: func(_ Table, _ *Target, _ int, name string) bool { return phpObjectMagic[name] },
}

// phpFieldType is the class of property name of cls, following parents
// and traits.
func phpFieldType(tab Table, cls *Target, name string, depth int) (t *Target, ext, found bool) {
	if depth > MaxDepth {
		return nil, false, false
	}
	fi := tab.File(cls.Path)
	if fi == nil {
		return nil, false, false
	}
	for _, f := range cls.Fields {
		if f.Name == name {
			if f.Type == "" {
				return nil, false, true
			}
			ft, rule := phpResolveClass(tab, fi, cls, f.Type)
			return ft, ft == nil && rule == RuleExternal, true
		}
	}
	for _, b := range cls.Bases {
		bt, rule := phpResolveClass(tab, fi, nil, b)
		if bt == nil {
			ext = ext || rule == RuleExternal
			continue
		}
		if bt.ID == cls.ID {
			continue
		}
		if ft, e, ok := phpFieldType(tab, bt, name, depth+1); ok {
			return ft, e, true
		}
	}
	return nil, ext, false
}

// phpClassOf is the class a reference is made in.
func phpClassOf(ctx *Context) *Target {
	f := ctx.From
	if f == nil || f.Kind == KindModule {
		return nil
	}
	if IsTypeKind(f.Kind) {
		return f
	}
	for q := f.Container; q != ""; q, _ = LastSegment(q) {
		c, name := LastSegment(q)
		for _, t := range ctx.Table.ByName(name) {
			if t.Path == f.Path && t.Container == c && IsTypeKind(t.Kind) {
				return t
			}
		}
	}
	return nil
}

// phpIncluded lists the files a file includes or requires, resolved.
func phpIncluded(tab Table, fi *FileInfo) map[string]bool {
	v := tab.Memo("php.inc\x00"+fi.Path, func() string {
		var out []string
		for i := range fi.Imports {
			if f := phpIncludeFile(tab, fi, fi.Imports[i].Source); f != "" {
				out = append(out, f)
			}
		}
		return strings.Join(out, "\n")
	})
	m := map[string]bool{}
	for _, f := range strings.Split(v, "\n") {
		if f != "" {
			m[f] = true
		}
	}
	return m
}

// phpIncludeFile is the repository file an include names: relative to
// the file (./x, __DIR__ . '/x'), else to the file's directory or the
// repository root (the include path's usual entries).
func phpIncludeFile(tab Table, fi *FileInfo, src string) string {
	if !strings.Contains(src, "/") && !strings.HasSuffix(src, ".php") && !strings.HasSuffix(src, ".inc") &&
		!strings.HasSuffix(src, ".phtml") {
		return "" // a use statement
	}
	if strings.HasPrefix(src, "/") {
		return ""
	}
	for _, p := range []string{path.Join(path.Dir(fi.Path), src), path.Clean(src)} {
		if strings.HasPrefix(p, "../") {
			continue
		}
		if tab.File(p) != nil {
			return p
		}
	}
	return ""
}

func resolvePHPImport(ctx *Context, imp *Import, name string) Resolution {
	tab, fi := ctx.Table, ctx.File
	if f := phpIncludeFile(tab, fi, imp.Source); f != "" {
		if t := ModuleTarget(tab, f); t != nil {
			return Bound(t, RuleImport)
		}
	}
	if strings.Contains(imp.Source, "/") || strings.HasSuffix(imp.Source, ".php") {
		return Unbound(RuleUnresolved, 0) // an include of a file the repository lacks
	}
	if name != "" {
		// use function A\f; use const A\X
		fqn := phpJoin(imp.Source, name)
		if t := phpFindFunction(tab, fqn, imp.Alias == "const"); t != nil {
			return Bound(t, RuleImport)
		}
		if phpNamespaceOurs(tab, fi, imp.Source) {
			return Unbound(RuleUnresolved, 0)
		}
		return Unbound(RuleExternal, 0)
	}
	t, ext := phpFindClass(tab, fi, imp.Source)
	if t != nil {
		return Bound(t, RuleImport)
	}
	// use A\B as namespace alias
	for _, f := range tab.ModuleFiles("php", imp.Source) {
		if ffi := tab.File(f); ffi != nil && ffi.Module == imp.Source {
			if mt := ModuleTarget(tab, f); mt != nil {
				return Bound(mt, RuleImport)
			}
		}
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// phpFindFunction finds the function (or constant) of a fully qualified
// name.
func phpFindFunction(tab Table, fqn string, constant bool) *Target {
	ns, name := phpSplitName(fqn)
	cands := Pick(tab.ByName(name), func(t *Target) bool {
		if !isPHPPath(t.Path) || t.Container != "" || !strings.EqualFold(t.Module, ns) {
			return false
		}
		if constant {
			return t.Kind == KindVariable
		}
		return t.Kind == KindFunction
	})
	if len(cands) == 0 && !constant {
		// function names are case-insensitive
		lower := strings.ToLower(name)
		if lower != name {
			return phpFindFunction(tab, phpJoin(ns, lower), false)
		}
	}
	return One(PreferDefinitions(cands))
}

func resolvePHP(ctx *Context, r *Ref) Resolution {
	return phpResolve(ctx, r, 0)
}

func phpResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	tab := ctx.Table
	cls := phpClassOf(ctx)
	switch r.Kind {
	case RefNew, RefExtends, RefImplements:
		written := r.Name
		if r.Qualifier == `\` {
			written = `\` + r.Name
		} else if r.Qualifier != "" {
			written = r.Qualifier + `\` + r.Name
		}
		t, rule := phpResolveClass(tab, ctx.File, cls, written)
		if t == nil {
			return Unbound(rule, 0)
		}
		return Bound(t, rule)
	}
	if r.Qualifier == "parent" {
		return phpResolveParent(ctx, r, cls)
	}
	if r.Qualifier == "" || r.QualifierType == "" && r.QualifierCall == "" && !strings.ContainsAny(r.Qualifier, "$:>(") {
		// f(), A\f(): a function (a static call has its class as the
		// qualifier's type)
		return phpResolveFunction(ctx, r)
	}
	segs := phpSplitQualifier(r.Qualifier)
	var v TypedValue
	rest := segs[1:]
	head := segs[0]
	switch {
	case r.QualifierCall != "":
		v = phpCallResult(ctx, r.QualifierCall, r.QualifierType, depth)
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
	case strings.EqualFold(head, "parent"):
		return phpResolveParent(ctx, r, cls)
	case r.QualifierType != "":
		t, rule := phpResolveClass(tab, ctx.File, cls, r.QualifierType)
		v = TypedValue{Target: t, Ext: t == nil && rule == RuleExternal, Rule: RuleReceiver}
		if len(segs) == 1 && !strings.HasPrefix(head, "$") && !strings.HasPrefix(head, "new ") && t != nil {
			v.Rule = rule // self::m(), static::m()
			if t == cls && rule == RuleSameFile {
				v.Rule = RuleSameFile
			}
		}
	case strings.HasPrefix(head, "$"):
		// a variable the extractor could not type
		return phpUnknownReceiver(tab, r.Name)
	case strings.HasPrefix(head, "new "):
		t, rule := phpResolveClass(tab, ctx.File, cls, strings.TrimSuffix(strings.TrimPrefix(head, "new "), "()"))
		v = TypedValue{Target: t, Ext: t == nil && rule == RuleExternal, Rule: RuleReceiver}
	default:
		// Foo::m(): a static call
		t, rule := phpResolveClass(tab, ctx.File, cls, head)
		v = TypedValue{Target: t, Ext: t == nil && rule == RuleExternal, Rule: rule}
	}
	for _, s := range rest {
		if v.Target == nil {
			break
		}
		if strings.ContainsAny(s, "()[") {
			v = TypedValue{}
			break
		}
		ft, e, found := phpFieldType(tab, v.Target, strings.TrimPrefix(s, "$"), 0)
		if !found {
			v = TypedValue{}
			break
		}
		v = TypedValue{Target: ft, Ext: e, Rule: RuleReceiver}
	}
	if v.Target == nil {
		if v.Ext {
			return Unbound(RuleExternal, 0)
		}
		return phpUnknownReceiver(tab, r.Name)
	}
	m, ext := phpMembers.FindMember(tab, v.Target, r.Name, 0)
	if m != nil {
		rule := v.Rule
		if rule == RuleSameFile && m.Path != ctx.File.Path {
			rule = RuleReceiver
		}
		if rule == "" {
			rule = RuleReceiver
		}
		return Bound(m, rule)
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// phpSplitQualifier splits a qualifier at -> and :: outside parentheses:
// "$this->repo->find()->x" -> ["$this", "repo", "find()", "x"].
func phpSplitQualifier(q string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '-':
			if depth == 0 && i+1 < len(q) && q[i+1] == '>' {
				out = append(out, q[start:i])
				start = i + 2
				i++
			}
		case ':':
			if depth == 0 && i+1 < len(q) && q[i+1] == ':' {
				out = append(out, q[start:i])
				start = i + 2
				i++
			}
		}
	}
	return append(out, q[start:])
}

// phpResolveFunction binds f() and A\f(): a use function binding, the
// namespace's function, then the global one (PHP's fallback).
func phpResolveFunction(ctx *Context, r *Ref) Resolution {
	tab, fi := ctx.Table, ctx.File
	name := r.Name
	if r.Qualifier == "" && phpBuiltins[strings.ToLower(name)] {
		return Unbound(RuleBuiltin, 0)
	}
	var fqn string
	imported := false
	switch {
	case strings.HasPrefix(r.Qualifier, `\`):
		fqn, imported = phpJoin(strings.TrimPrefix(r.Qualifier, `\`), name), true
	case r.Qualifier != "":
		q, imp := phpQualify(fi, r.Qualifier+`\`+name)
		fqn, imported = q, imp
	default:
		if full, ok := phpUses(fi).funcs[strings.ToLower(name)]; ok {
			fqn, imported = full, true
		} else {
			fqn = phpJoin(fi.Module, name)
		}
	}
	rule := func(t *Target) string {
		switch {
		case t.Path == fi.Path:
			return RuleSameFile
		case imported:
			return RuleImport
		case strings.EqualFold(t.Module, fi.Module) && t.Module != "":
			return RuleSamePackage
		case phpIncluded(tab, fi)[t.Path]:
			return RuleImport
		}
		return RuleUniqueName
	}
	if t := phpFindFunction(tab, fqn, false); t != nil {
		return Bound(t, rule(t))
	}
	if r.Qualifier == "" && !imported && fi.Module != "" {
		// the global function
		if t := phpFindFunction(tab, name, false); t != nil {
			return Bound(t, rule(t))
		}
	}
	if len(Pick(tab.ByName(name), func(t *Target) bool { return t.Kind == KindFunction && isPHPPath(t.Path) })) == 0 {
		return Unbound(RuleExternal, 0) // PHP's own, or a library's
	}
	ns, _ := phpSplitName(fqn)
	if imported && !phpNamespaceOurs(tab, fi, ns) {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// phpResolveParent binds parent::m() and parent::__construct().
func phpResolveParent(ctx *Context, r *Ref, cls *Target) Resolution {
	if cls == nil || len(cls.Bases) == 0 {
		return Unbound(RuleUnresolved, 0)
	}
	bt, rule := phpResolveClass(ctx.Table, ctx.Table.File(cls.Path), nil, cls.Bases[0])
	if bt == nil {
		if rule == RuleExternal {
			return Unbound(RuleExternal, 0)
		}
		return Unbound(RuleUnresolved, 0)
	}
	if m, ext := phpMembers.FindMember(ctx.Table, bt, r.Name, 0); m != nil {
		return Bound(m, RuleReceiver)
	} else if ext || r.Name == "__construct" {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// phpCallResult is the class a call returns, from its declared or
// documented return type.
func phpCallResult(ctx *Context, fn, headType string, depth int) TypedValue {
	segs := phpSplitQualifier(fn)
	r := &Ref{Kind: RefCall, Name: segs[len(segs)-1]}
	if len(segs) > 1 {
		q := fn[:len(fn)-len(r.Name)]
		q = strings.TrimSuffix(strings.TrimSuffix(q, "->"), "::")
		r.Qualifier = q
		r.QualifierType = headType
		if strings.HasSuffix(q, ")") {
			r.QualifierCall = strings.TrimSuffix(q, "()")
		}
	}
	if strings.ContainsAny(r.Name, "()[ $") {
		return TypedValue{}
	}
	res := phpResolve(ctx, r, depth+1)
	if res.Rule == RuleExternal {
		return TypedValue{Ext: true}
	}
	m := res.Target
	if m == nil || m.Returns == "" {
		return TypedValue{}
	}
	mfi := ctx.Table.File(m.Path)
	if mfi == nil {
		return TypedValue{}
	}
	var owner *Target
	if m.Container != "" {
		owner = phpClassOf(&Context{File: mfi, Table: ctx.Table, From: m})
	}
	ret := strings.TrimPrefix(m.Returns, "?")
	if i := strings.IndexByte(ret, '|'); i >= 0 {
		ret = ret[:i]
	}
	t, rule := phpResolveClass(ctx.Table, mfi, owner, ret)
	return TypedValue{Target: t, Ext: t == nil && rule == RuleExternal, Rule: RuleReceiver}
}

// phpUnknownReceiver binds a call on a value of unknown class: the only
// method of that name in the repository when the name is distinctive; a
// name no method of the repository has is a library's.
func phpUnknownReceiver(tab Table, name string) Resolution {
	ms := Pick(tab.ByName(name), func(t *Target) bool { return t.Kind == KindMethod && isPHPPath(t.Path) })
	return UniqueMethod(ms, func(a, b *Target) bool { return a.Container == b.Container && a.Path == b.Path }, phpCommonMethods[name])
}
