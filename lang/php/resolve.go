package php

import (
	"path"
	"slices"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// builtins are PHP's everyday functions and language constructs that
// read like calls: calls to them are dropped. Functions with side effects
// (file_put_contents, curl_exec, exec, mail...) are not among them: they
// resolve as external.
var builtins = lang.WordFile(data, "builtins.txt")

// commonMethods are method names so common in frameworks and the
// standard library that a unique definition in the repository says little
// about which one a call on a value of unknown class means.
var commonMethods = lang.WordFile(data, "common_methods.txt")

// objectMagic are the magic methods every object may have.
var objectMagic = lang.WordFile(data, "object_methods.txt")

func isPath(p string) bool {
	ext := path.Ext(p)
	return ext == ".php" || ext == ".phtml"
}

// useMaps are the names a file's use statements bind: classes (and
// namespaces) by alias, functions and constants by name.
type useMaps struct {
	classes, funcs, consts map[string]string // local name -> fully qualified name
}

func uses(fi *lang.FileInfo) *useMaps {
	m := fi.BindingsWith(func() map[string]lang.Binding {
		out := map[string]lang.Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if strings.Contains(imp.Source, "/") || strings.HasSuffix(imp.Source, ".php") || strings.HasPrefix(imp.Source, ".") {
				continue // an include
			}
			switch {
			case len(imp.Names) > 0 && imp.Alias == "const":
				for _, n := range imp.Names {
					out["c\x00"+n.Local()] = lang.Binding{Imp: imp, Name: n.Name}
				}
			case len(imp.Names) > 0:
				for _, n := range imp.Names {
					out["f\x00"+strings.ToLower(n.Local())] = lang.Binding{Imp: imp, Name: n.Name}
				}
			default:
				local := imp.Alias
				if local == "" {
					_, local = splitName(imp.Source)
				}
				out["k\x00"+strings.ToLower(local)] = lang.Binding{Imp: imp}
			}
		}
		return out
	})
	u := &useMaps{classes: map[string]string{}, funcs: map[string]string{}, consts: map[string]string{}}
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

// qualify turns a class name as written in file fi into its fully
// qualified name (no leading backslash), by PHP's rules: \A\B is itself,
// an alias of a use statement is what it stands for (also as the first
// part of A\B), anything else is in the file's namespace. imported
// reports a name a use statement or a full name gave.
func qualify(fi *lang.FileInfo, written string) (fqn string, imported bool) {
	written = strings.TrimSpace(written)
	if strings.HasPrefix(written, `\`) {
		return strings.TrimPrefix(written, `\`), true
	}
	if strings.HasPrefix(strings.ToLower(written), `namespace\`) {
		return join(fi.Module, written[len(`namespace\`):]), false
	}
	first, rest, qualified := strings.Cut(written, `\`)
	uses := uses(fi)
	if full, ok := uses.classes[strings.ToLower(first)]; ok {
		if qualified {
			return full + `\` + rest, true
		}
		return full, true
	}
	return join(fi.Module, written), false
}

func join(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + `\` + name
}

// psr4 lists the repository's PSR-4 prefixes and directories.
func psr4(tab lang.Table) [][2]string {
	var out [][2]string
	for _, e := range autoload(tab) {
		out = append(out, [2]string{e.Prefix, e.Dir})
	}
	return out
}

// psr4Files are the files PSR-4 says class fqn lives in.
func psr4Files(tab lang.Table, fqn string) []string {
	var out []string
	for _, m := range psr4(tab) {
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

// namespaceOurs reports whether namespace ns belongs to the
// repository: a PSR-4 prefix of its composer.json covers it, or a file
// declares it, or (without composer.json) it shares its root with the
// namespace of the file asking.
func namespaceOurs(tab lang.Table, fi *lang.FileInfo, ns string) bool {
	psr := psr4(tab)
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

// findClass finds the class (interface, trait, enum) of a fully
// qualified name. ext reports a namespace outside the repository.
func findClass(tab lang.Table, fi *lang.FileInfo, fqn string) (t *lang.Target, ext bool) {
	ns, name := splitName(fqn)
	if name == "" {
		return nil, false
	}
	cands := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return lang.IsTypeKind(t.Kind) && t.Container == "" && strings.EqualFold(t.Module, ns) && isPath(t.Path)
	})
	if len(cands) > 1 {
		// the same class twice: the one PSR-4 loads
		files := psr4Files(tab, fqn)
		if c := lang.One(lang.Pick(cands, func(t *lang.Target) bool {
			for _, f := range files {
				if t.Path == f {
					return true
				}
			}
			return false
		})); c != nil {
			return c, false
		}
		return lang.One(lang.PreferDefinitions(cands)), false
	}
	if len(cands) == 1 {
		return cands[0], false
	}
	// the file PSR-4 names, whatever namespace it says
	for _, f := range psr4Files(tab, fqn) {
		for _, t := range tab.ByName(name) {
			if t.Path == f && lang.IsTypeKind(t.Kind) && t.Container == "" {
				return t, false
			}
		}
	}
	if builtinClasses.Has(fqn) {
		return nil, true
	}
	return nil, !namespaceOurs(tab, fi, ns)
}

// builtinClasses are classes of PHP itself, in the global namespace.
var builtinClasses = lang.WordFile(data, "types.txt")

// resolveClass resolves a class as written in file fi by code in the
// class cls (for self, static and parent): the class and the rule.
func resolveClass(tab lang.Table, fi *lang.FileInfo, cls *lang.Target, written string) (*lang.Target, string) {
	switch strings.ToLower(written) {
	case "self", "static", "$this":
		if cls != nil {
			return cls, lang.RuleSameFile
		}
		return nil, lang.RuleUnresolved
	case "parent":
		if cls == nil || len(cls.Bases) == 0 {
			return nil, lang.RuleUnresolved
		}
		return resolveClass(tab, tab.File(cls.Path), nil, cls.Bases[0])
	}
	if lang.PrimitiveTypes[strings.ToLower(written)] || written == "" {
		return nil, lang.RuleExternal
	}
	fqn, imported := qualify(fi, written)
	t, ext := findClass(tab, fi, fqn)
	if t == nil && !imported && !strings.Contains(written, `\`) {
		// an unqualified name PHP did not find in the namespace: the
		// global class of that name (Exception)
		if g, gext := findClass(tab, fi, written); g != nil {
			t, ext = g, false
		} else if gext || builtinClasses.Has(written) {
			return nil, lang.RuleExternal
		}
	}
	switch {
	case t == nil && ext:
		return nil, lang.RuleExternal
	case t == nil:
		return nil, lang.RuleUnresolved
	case t.Path == fi.Path:
		return t, lang.RuleSameFile
	case imported:
		return t, lang.RuleImport
	case strings.EqualFold(t.Module, fi.Module):
		return t, lang.RuleSamePackage
	}
	return t, lang.RuleImport
}

// members finds methods of a class, then of its parents, interfaces
// and traits; the magic methods may come from outside the repository.
var members = &lang.MemberRules{
	Own: func(tab lang.Table, cls *lang.Target, name string) *lang.Target {
		q := cls.Qualified()
		for _, t := range tab.ByName(name) {
			if (t.Kind == lang.KindMethod || t.Kind == lang.KindConstructor) && t.Path == cls.Path && t.Container == q {
				return t
			}
		}
		return nil
	},
	Bases: func(tab lang.Table, cls *lang.Target, _ int) []lang.BaseRef {
		fi := tab.File(cls.Path)
		if fi == nil {
			return nil
		}
		out := make([]lang.BaseRef, 0, len(cls.Bases))
		for _, b := range cls.Bases {
			bt, rule := resolveClass(tab, fi, nil, b)
			out = append(out, lang.BaseRef{Target: bt, Rule: rule})
		}
		return out
	},
	RootMember: func(_ lang.Table, _ *lang.Target, _ int, name string) bool { return objectMagic.Has(name) },
}

// fieldType is the class of property name of cls, following parents
// and traits.
func fieldType(tab lang.Table, cls *lang.Target, name string, depth int) (t *lang.Target, ext, found bool) {
	if depth > lang.MaxDepth {
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
			ft, rule := resolveClass(tab, fi, cls, f.Type)
			return ft, ft == nil && rule == lang.RuleExternal, true
		}
	}
	// an enum's case is a value of the enum: Level::Error->getName()
	for _, c := range tab.ByName(name) {
		if c.Kind == lang.KindVariable && c.Returns != "" && c.Path == cls.Path && c.Container == cls.Qualified() {
			ct, rule := resolveClass(tab, fi, cls, c.Returns)
			return ct, ct == nil && rule == lang.RuleExternal, true
		}
	}
	for _, b := range cls.Bases {
		bt, rule := resolveClass(tab, fi, nil, b)
		if bt == nil {
			ext = ext || rule == lang.RuleExternal
			continue
		}
		if bt.ID == cls.ID {
			continue
		}
		if ft, e, ok := fieldType(tab, bt, name, depth+1); ok {
			return ft, e, true
		}
	}
	return nil, ext, false
}

// included lists the files a file includes or requires, resolved.
func included(tab lang.Table, fi *lang.FileInfo) map[string]bool {
	v := tab.Memo("php.inc\x00"+fi.Path, func() string {
		var out []string
		for i := range fi.Imports {
			if f := includeFile(tab, fi, fi.Imports[i].Source); f != "" {
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

// includeFile is the repository file an include names: relative to
// the file (./x, __DIR__ . '/x'), else to the file's directory or the
// repository root (the include path's usual entries).
func includeFile(tab lang.Table, fi *lang.FileInfo, src string) string {
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

func resolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	tab, fi := ctx.Table, ctx.File
	if f := includeFile(tab, fi, imp.Source); f != "" {
		if t := lang.ModuleTarget(tab, f); t != nil {
			return lang.Bound(t, lang.RuleImport)
		}
	}
	if strings.Contains(imp.Source, "/") || strings.HasSuffix(imp.Source, ".php") {
		return lang.Unbound(lang.RuleUnresolved, 0) // an include of a file the repository lacks
	}
	if name != "" {
		// use function A\f; use const A\X
		fqn := join(imp.Source, name)
		if t := findFunction(tab, fqn, imp.Alias == "const"); t != nil {
			return lang.Bound(t, lang.RuleImport)
		}
		if namespaceOurs(tab, fi, imp.Source) {
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		return lang.Unbound(lang.RuleExternal, 0)
	}
	t, ext := findClass(tab, fi, imp.Source)
	if t != nil {
		return lang.Bound(t, lang.RuleImport)
	}
	// use A\B as namespace alias
	for _, f := range tab.ModuleFiles("php", imp.Source) {
		if ffi := tab.File(f); ffi != nil && ffi.Module == imp.Source {
			if mt := lang.ModuleTarget(tab, f); mt != nil {
				return lang.Bound(mt, lang.RuleImport)
			}
		}
	}
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// findFunction finds the function (or constant) of a fully qualified
// name.
func findFunction(tab lang.Table, fqn string, constant bool) *lang.Target {
	ns, name := splitName(fqn)
	cands := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		if !isPath(t.Path) || t.Container != "" || !strings.EqualFold(t.Module, ns) {
			return false
		}
		if constant {
			return t.Kind == lang.KindVariable
		}
		return t.Kind == lang.KindFunction
	})
	if len(cands) == 0 && !constant {
		// function names are case-insensitive
		lower := strings.ToLower(name)
		if lower != name {
			return findFunction(tab, join(ns, lower), false)
		}
	}
	return lang.One(lang.PreferDefinitions(cands))
}

func resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	return resolveRef(ctx, r, 0)
}

func resolveRef(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	res, _ := resolveOn(ctx, r, depth)
	return res
}

// resolveOn resolves r and says on which class it looked the method up:
// the receiver's, which a method returning self or static hands on.
func resolveOn(ctx *lang.Context, r *lang.Ref, depth int) (lang.Resolution, *lang.Target) {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0), nil
	}
	tab := ctx.Table
	cls := lang.ClassOf(ctx)
	switch r.Kind {
	case lang.RefNew, lang.RefExtends, lang.RefImplements:
		written := r.Name
		if r.Qualifier == `\` {
			written = `\` + r.Name
		} else if r.Qualifier != "" {
			written = r.Qualifier + `\` + r.Name
		}
		t, rule := resolveClass(tab, ctx.File, cls, written)
		if t == nil {
			return lang.Unbound(rule, 0), nil
		}
		return lang.Bound(t, rule), nil
	}
	if r.Qualifier == "parent" {
		return resolveParent(ctx, r, cls), nil
	}
	if r.Qualifier == "" || r.QualifierType == "" && r.QualifierCall == "" && !strings.ContainsAny(r.Qualifier, "$:>(") {
		// f(), A\f(): a function (a static call has its class as the
		// qualifier's type)
		return resolveFunction(ctx, r), nil
	}
	segs := splitQualifier(r.Qualifier)
	var v lang.TypedValue
	rest := segs[1:]
	head := segs[0]
	switch {
	case r.QualifierCall != "":
		v = callResult(ctx, r.QualifierCall, r.QualifierType, depth)
		rest = lang.AfterCall(segs)
	case strings.EqualFold(head, "parent"):
		return resolveParent(ctx, r, cls), nil
	case r.QualifierType != "":
		t, rule := resolveClass(tab, ctx.File, cls, r.QualifierType)
		v = lang.TypedValue{Target: t, Ext: t == nil && rule == lang.RuleExternal, Rule: lang.RuleReceiver}
		if len(segs) == 1 && !strings.HasPrefix(head, "$") && !strings.HasPrefix(head, "new ") && t != nil {
			v.Rule = rule // self::m(), static::m()
			if t == cls && rule == lang.RuleSameFile {
				v.Rule = lang.RuleSameFile
			}
		}
	case strings.HasPrefix(head, "$"):
		// a variable the extractor could not type
		return unknownReceiver(tab, r.Name), nil
	case strings.HasPrefix(head, "new "):
		t, rule := resolveClass(tab, ctx.File, cls, strings.TrimSuffix(strings.TrimPrefix(head, "new "), "()"))
		v = lang.TypedValue{Target: t, Ext: t == nil && rule == lang.RuleExternal, Rule: lang.RuleReceiver}
	default:
		// Foo::m(): a static call
		t, rule := resolveClass(tab, ctx.File, cls, head)
		v = lang.TypedValue{Target: t, Ext: t == nil && rule == lang.RuleExternal, Rule: rule}
	}
	for _, s := range rest {
		if v.Target == nil {
			break
		}
		if strings.ContainsAny(s, "()[") {
			v = lang.TypedValue{}
			break
		}
		ft, e, found := fieldType(tab, v.Target, strings.TrimPrefix(s, "$"), 0)
		if !found {
			v = lang.TypedValue{}
			break
		}
		v = lang.TypedValue{Target: ft, Ext: e, Rule: lang.RuleReceiver}
	}
	if v.Target == nil {
		if v.Ext {
			return lang.Unbound(lang.RuleExternal, 0), nil
		}
		return unknownReceiver(tab, r.Name), nil
	}
	m, ext := members.FindMember(tab, v.Target, r.Name, 0)
	if m != nil {
		rule := v.Rule
		if rule == lang.RuleSameFile && m.Path != ctx.File.Path {
			rule = lang.RuleReceiver
		}
		if rule == "" {
			rule = lang.RuleReceiver
		}
		return lang.Bound(m, rule), v.Target
	}
	if ext {
		return lang.Unbound(lang.RuleExternal, 0), v.Target
	}
	return lang.Unbound(lang.RuleUnresolved, 0), nil
}

// splitQualifier splits a qualifier at -> and :: outside parentheses:
// "$this->repo->find()->x" -> ["$this", "repo", "find()", "x"].
func splitQualifier(q string) []string {
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

// resolveFunction binds f() and A\f(): a use function binding, the
// namespace's function, then the global one (PHP's fallback).
func resolveFunction(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	tab, fi := ctx.Table, ctx.File
	name := r.Name
	if r.Qualifier == "" && builtins.Has(strings.ToLower(name)) {
		return lang.Unbound(lang.RuleBuiltin, 0)
	}
	var fqn string
	imported := false
	switch {
	case strings.HasPrefix(r.Qualifier, `\`):
		fqn, imported = join(strings.TrimPrefix(r.Qualifier, `\`), name), true
	case r.Qualifier != "":
		q, imp := qualify(fi, r.Qualifier+`\`+name)
		fqn, imported = q, imp
	default:
		if full, ok := uses(fi).funcs[strings.ToLower(name)]; ok {
			fqn, imported = full, true
		} else {
			fqn = join(fi.Module, name)
		}
	}
	rule := func(t *lang.Target) string {
		switch {
		case t.Path == fi.Path:
			return lang.RuleSameFile
		case imported:
			return lang.RuleImport
		case strings.EqualFold(t.Module, fi.Module) && t.Module != "":
			return lang.RuleSamePackage
		case included(tab, fi)[t.Path]:
			return lang.RuleImport
		}
		return lang.RuleUniqueName
	}
	if t := findFunction(tab, fqn, false); t != nil {
		return lang.Bound(t, rule(t))
	}
	if r.Qualifier == "" && !imported && fi.Module != "" {
		// the global function
		if t := findFunction(tab, name, false); t != nil {
			return lang.Bound(t, rule(t))
		}
	}
	if len(lang.Pick(tab.ByName(name), func(t *lang.Target) bool { return t.Kind == lang.KindFunction && isPath(t.Path) })) == 0 {
		return lang.Unbound(lang.RuleExternal, 0) // PHP's own, or a library's
	}
	ns, _ := splitName(fqn)
	if imported && !namespaceOurs(tab, fi, ns) {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// resolveParent binds parent::m() and parent::__construct().
func resolveParent(ctx *lang.Context, r *lang.Ref, cls *lang.Target) lang.Resolution {
	if cls == nil || len(cls.Bases) == 0 {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	bt, rule := resolveClass(ctx.Table, ctx.Table.File(cls.Path), nil, cls.Bases[0])
	if bt == nil {
		if rule == lang.RuleExternal {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if m, ext := members.FindMember(ctx.Table, bt, r.Name, 0); m != nil {
		return lang.Bound(m, lang.RuleReceiver)
	} else if ext || r.Name == "__construct" {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// callResult is the class a call returns, from its declared or
// documented return type.
func callResult(ctx *lang.Context, fn, headType string, depth int) lang.TypedValue {
	segs := splitQualifier(fn)
	r := &lang.Ref{Kind: lang.RefCall, Name: segs[len(segs)-1]}
	if len(segs) > 1 {
		q := fn[:len(fn)-len(r.Name)]
		static := strings.HasSuffix(q, "::")
		q = strings.TrimSuffix(strings.TrimSuffix(q, "->"), "::")
		r.Qualifier = q
		r.QualifierType = headType
		if static && headType == "" && len(segs) == 2 && !strings.ContainsAny(q, "$( ") {
			r.QualifierType = q // Status::tryFrom()->label(): the class is the type
		}
		// "new self()" heads the chain (new self())->a()->b(): an object,
		// not a call whose result a() is called on
		if strings.HasSuffix(q, ")") && !(len(segs) == 2 && strings.HasPrefix(segs[0], "new ")) {
			r.QualifierCall = strings.TrimSuffix(q, "()")
		}
	}
	if strings.ContainsAny(r.Name, "()[ $") {
		return lang.TypedValue{}
	}
	res, on := resolveOn(ctx, r, depth+1)
	if res.Rule == lang.RuleExternal {
		// BackedEnum's from() and tryFrom() return the enum itself
		if on != nil && (r.Name == "from" || r.Name == "tryFrom") && slices.Contains(on.Bases, `\BackedEnum`) {
			return lang.TypedValue{Target: on, Rule: lang.RuleReceiver}
		}
		return lang.TypedValue{Ext: true}
	}
	m := res.Target
	if m == nil || m.Returns == "" {
		return lang.TypedValue{}
	}
	// a fluent setter of a trait or a parent returns the receiver: the
	// class that uses the trait, whose own methods the chain goes on to
	switch strings.ToLower(strings.TrimPrefix(m.Returns, "?")) {
	case "self", "static", "$this":
		if on != nil {
			return lang.TypedValue{Target: on, Rule: lang.RuleReceiver}
		}
	}
	mfi := ctx.Table.File(m.Path)
	if mfi == nil {
		return lang.TypedValue{}
	}
	var owner *lang.Target
	if m.Container != "" {
		owner = lang.ClassOf(&lang.Context{File: mfi, Table: ctx.Table, From: m})
	}
	ret := strings.TrimPrefix(m.Returns, "?")
	if i := strings.IndexByte(ret, '|'); i >= 0 {
		ret = ret[:i]
	}
	t, rule := resolveClass(ctx.Table, mfi, owner, ret)
	return lang.TypedValue{Target: t, Ext: t == nil && rule == lang.RuleExternal, Rule: lang.RuleReceiver}
}

// unknownReceiver binds a call on a value of unknown class: the only
// method of that name in the repository when the name is distinctive; a
// name no method of the repository has is a library's.
func unknownReceiver(tab lang.Table, name string) lang.Resolution {
	ms := lang.Pick(tab.ByName(name), func(t *lang.Target) bool { return t.Kind == lang.KindMethod && isPath(t.Path) })
	return lang.UniqueMethod(ms, func(a, b *lang.Target) bool { return a.Container == b.Container && a.Path == b.Path }, commonMethods.Has(name))
}
