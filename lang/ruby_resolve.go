package lang

import (
	"path"
	"strings"
)

// rbBuiltins are Kernel and Module methods every object has: calls to them
// are dropped. The ones with side effects (system, exec, exit, open...)
// are not among them: they resolve as external.
var rbBuiltins = wordSet("ruby", "builtins.txt")

// rbObjectMethods are methods every object has, on a value of unknown
// class.
var rbObjectMethods = wordSet("ruby", "object_methods.txt")

// rbCommonMethods are method names of the core classes and the usual
// gems so common that a unique definition in the repository says little
// about which one a call on a value of unknown class means.
var rbCommonMethods = wordSet("ruby", "common_methods.txt")

// rbCoreConstants are classes and modules of Ruby's core and standard
// library.
var rbCoreConstants = wordSet("ruby", "types.txt")

func init() {
	l := ByName("ruby")
	l.builtins = rbBuiltins
	l.resolve = resolveRuby
	l.resolveImport = resolveRubyImport

}

func isRbPath(p string) bool {
	if l := ForPath(p); l != nil {
		return l.Name == "ruby"
	}
	return false
}

// rbRequired lists the files a file requires directly, resolved.
func rbRequired(tab Table, fi *FileInfo) map[string]Binding {
	return fi.BindingsWith(func() map[string]Binding {
		m := map[string]Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if f := rbRequireFile(tab, fi, imp.Source); f != "" {
				m[f] = Binding{Imp: imp}
			}
		}
		return m
	})
}

// rbRequireFile is the repository file a require names, or "".
// require_relative paths start with a dot; the others are found on the
// load path, that is by the end of a file's path ("shop/store" is
// lib/shop/store.rb), preferring lib/.
func rbRequireFile(tab Table, fi *FileInfo, src string) string {
	src = strings.TrimSuffix(src, ".rb")
	if strings.HasPrefix(src, ".") {
		p := path.Join(path.Dir(fi.Path), src) + ".rb"
		if tab.File(p) != nil {
			return p
		}
		return ""
	}
	if strings.HasPrefix(src, "/") {
		return ""
	}
	return tab.Memo("rb.require\x00"+src, func() string {
		var best string
		for _, f := range tab.ModuleFiles("ruby", src) {
			if !strings.HasSuffix(f, ".rb") {
				continue
			}
			switch {
			case best == "":
				best = f
			case strings.HasPrefix(f, "lib/") && !strings.HasPrefix(best, "lib/"):
				best = f
			case len(f) < len(best) && strings.HasPrefix(f, "lib/") == strings.HasPrefix(best, "lib/"):
				best = f
			}
		}
		return best
	})
}

func resolveRubyImport(ctx *Context, imp *Import, name string) Resolution {
	f := rbRequireFile(ctx.Table, ctx.File, imp.Source)
	if f == "" {
		if strings.HasPrefix(imp.Source, ".") {
			return Unbound(RuleUnresolved, 0)
		}
		return Unbound(RuleExternal, 0) // a gem or the standard library
	}
	if name != "" {
		// autoload :Name, "path": the constant it promises
		for _, t := range ctx.Table.ByName(name) {
			if t.Path == f && (t.Kind == KindClass || t.Kind == KindModule) {
				return Bound(t, RuleImport)
			}
		}
	}
	if t := ModuleTarget(ctx.Table, f); t != nil {
		return Bound(t, RuleImport)
	}
	return Unbound(RuleUnresolved, 0)
}

// rbNesting is the lexical nesting of code: the qualified name of the
// class or module it is in ("Shop.Store"), or "".
func rbNesting(ctx *Context) string {
	f := ctx.From
	if f == nil || f.Kind == KindModule && f.Container == "" && f.ID == ctx.File.ModuleID {
		return ""
	}
	switch f.Kind {
	case KindClass, KindModule:
		return f.Qualified()
	}
	return rbClassContainer(ctx.Table, f)
}

// rbClassContainer is the qualified name of the class or module around a
// method or variable: its container with nested defs' names dropped.
func rbClassContainer(tab Table, f *Target) string {
	for q := f.Container; q != ""; q, _ = javaLastSeg(q) {
		c, name := javaLastSeg(q)
		for _, t := range tab.ByName(name) {
			if t.Path == f.Path && t.Container == c && (t.Kind == KindClass || t.Kind == KindModule) {
				return q
			}
		}
	}
	return ""
}

// rbClasses returns the classes and modules of qualified name q: every
// reopening of it, over all files.
func rbClasses(tab Table, q string) []*Target {
	c, name := javaLastSeg(q)
	return Pick(tab.ByName(name), func(t *Target) bool {
		return (t.Kind == KindClass || t.Kind == KindModule) && t.Container == c && isRbPath(t.Path) && !rbFileModule(tab, t)
	})
}

// rbFileModule reports whether t is the module symbol of its file (a
// Rakefile's), not a Ruby module.
func rbFileModule(tab Table, t *Target) bool {
	if t.Kind != KindModule || t.Container != "" {
		return false
	}
	fi := tab.File(t.Path)
	return fi != nil && fi.ModuleID == t.ID
}

// rbPick chooses, of the reopenings of one class, the one a reference
// from file fi means, and the rule that says so: the one in fi, one in
// a file fi requires, the one whose file Zeitwerk would autoload it from
// (shop/models/item.rb for Shop::Models::Item), else the first.
func rbPick(tab Table, fi *FileInfo, parts []*Target) (*Target, string) {
	if len(parts) == 0 {
		return nil, RuleUnresolved
	}
	for _, p := range parts {
		if p.Path == fi.Path {
			return p, RuleSameFile
		}
	}
	req := rbRequired(tab, fi)
	best, score := parts[0], -1
	for _, p := range parts {
		s := 0
		if _, ok := req[p.Path]; ok {
			s += 4
		}
		if strings.HasSuffix(strings.TrimSuffix(p.Path, ".rb"), rbUnderscore(p.Qualified())) {
			s += 2
		}
		if len(p.Bases) > 0 {
			s++ // the opening that names the superclass
		}
		if s > score {
			best, score = p, s
		}
	}
	if score >= 2 {
		return best, RuleImport
	}
	return best, RuleUniqueName
}

// rbUnderscore turns a qualified constant into the path Zeitwerk and
// Rails expect it in: "Shop.HTTPClient" -> "shop/http_client".
func rbUnderscore(q string) string {
	var b strings.Builder
	for i, seg := range strings.Split(q, ".") {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(strings.Join(SplitIdent(seg), "_"))
	}
	return b.String()
}

// rbResolveConst resolves a constant as written ("Item", "Models::Item",
// "::Top") by code nested in nesting, as Ruby does: the lexical scopes
// from the innermost out, then the top level.
//
// It is memoised per file, scope and name: the ancestors of every class a
// method is looked up in are resolved again and again.
func rbResolveConst(tab Table, fi *FileInfo, nesting, name string) (*Target, string) {
	v := tab.Memo("rb.const\x00"+fi.Path+"\x00"+nesting+"\x00"+name, func() string {
		t, rule := rbResolveConstUncached(tab, fi, nesting, name)
		if t == nil {
			return rule
		}
		return rule + "\x00" + t.ID + "\x00" + t.Name + "\x00" + t.Path
	})
	parts := strings.SplitN(v, "\x00", 4)
	if len(parts) < 4 {
		if parts[0] == "" {
			return nil, RuleUnresolved // a cut cycle
		}
		return nil, parts[0]
	}
	for _, t := range tab.ByName(parts[2]) {
		if t.ID == parts[1] && t.Path == parts[3] {
			return t, parts[0]
		}
	}
	return nil, RuleUnresolved
}

func rbResolveConstUncached(tab Table, fi *FileInfo, nesting, name string) (*Target, string) {
	abs := strings.HasPrefix(name, "::")
	rel := strings.ReplaceAll(strings.TrimPrefix(name, "::"), "::", ".")
	if rel == "" {
		return nil, RuleUnresolved
	}
	var scopes []string
	if !abs {
		for q := nesting; q != ""; q, _ = javaLastSeg(q) {
			scopes = append(scopes, q)
			if !strings.Contains(q, ".") {
				break
			}
		}
	}
	scopes = append(scopes, "")
	for _, s := range scopes {
		q := rel
		if s != "" {
			q = s + "." + rel
		}
		if parts := rbClasses(tab, q); len(parts) > 0 {
			return rbPick(tab, fi, parts)
		}
		// a constant that is no class: MAX = 3
		c, last := javaLastSeg(q)
		for _, t := range tab.ByName(last) {
			if t.Kind == KindVariable && t.Container == c && IsUpper(last) && isRbPath(t.Path) {
				if t.Path == fi.Path {
					return t, RuleSameFile
				}
				return t, RuleImport
			}
		}
	}
	head, _, _ := strings.Cut(rel, ".")
	if rbCoreConstants[head] {
		return nil, RuleExternal
	}
	_, last := javaLastSeg(rel)
	any := Pick(tab.ByName(last), func(t *Target) bool {
		return (t.Kind == KindClass || t.Kind == KindModule) && isRbPath(t.Path)
	})
	if len(any) == 0 {
		return nil, RuleExternal // a gem's
	}
	return nil, RuleUnresolved
}

// rbFindMethod finds method name of a class or module (any reopening),
// then of its mixins and superclasses. Attributes count: x.name calls
// the reader attr_accessor :name made. ext reports an ancestor outside
// the repository, which may define it. Of several definitions in the
// class that has it, the one in fi's file wins.
func rbFindMethod(tab Table, fi *FileInfo, cls *Target, name string, depth int) (m *Target, ext bool) {
	if depth > MaxDepth {
		return nil, false
	}
	owner, ext := rbMethodOwner(tab, cls, name)
	if owner == "" {
		return nil, ext
	}
	ms := rbOwnMethods(tab, owner, name)
	for _, m := range ms {
		if m.Path == fi.Path {
			return m, false
		}
	}
	if len(ms) == 0 {
		return nil, false
	}
	return ms[0], false
}

// rbOwnMethods are the methods (and attributes) name of class q itself.
func rbOwnMethods(tab Table, q, name string) []*Target {
	return Pick(tab.ByName(strings.TrimSuffix(name, "=")), func(t *Target) bool {
		return t.Container == q && isRbPath(t.Path) &&
			(t.Kind == KindMethod || t.Kind == KindConstructor && name == "initialize" || t.Kind == KindVariable && !IsUpper(t.Name))
	})
}

// rbMethodOwner is the qualified name of the class, among cls and its
// ancestors, whose own method name a call on cls reaches, or "" and
// whether an ancestor outside the repository may have it. It is the same
// for every file, and memoised: classes share their ancestors.
func rbMethodOwner(tab Table, cls *Target, name string) (string, bool) {
	v := tab.Memo("rb.owner\x00"+cls.ID+"\x00"+cls.Path+"\x00"+name, func() string {
		o, ext := rbMethodOwnerUncached(tab, cls, name)
		if ext {
			return o + "\x00x"
		}
		return o + "\x00"
	})
	o, x, _ := strings.Cut(v, "\x00")
	return o, x == "x"
}

func rbMethodOwnerUncached(tab Table, cls *Target, name string) (owner string, ext bool) {
	m, ext := rbMembers.FindMember(tab, cls, name, 0)
	if m == nil {
		return "", ext
	}
	return m.Container, false
}

// rbMembers finds a method through a class's reopenings, mixins and
// superclasses; a class without a superclass of ours may still have
// Object's methods. It is set by init: resolving a base constant leads
// back to member lookups.
var rbMembers *MemberRules

func init() {
	rbMembers = &MemberRules{
		Own: func(tab Table, typ *Target, name string) *Target {
			if ms := rbOwnMethods(tab, typ.Qualified(), name); len(ms) > 0 {
				return ms[0]
			}
			return nil
		},
		Bases: func(tab Table, typ *Target, _ int) []BaseRef {
			q := typ.Qualified()
			var out []BaseRef
			for _, part := range rbParts(tab, typ) {
				pfi := tab.File(part.Path)
				if pfi == nil {
					continue
				}
				for _, b := range part.Bases {
					bt, rule := rbResolveConst(tab, pfi, part.Container, b)
					if bt != nil && bt.Qualified() == q {
						continue
					}
					out = append(out, BaseRef{bt, rule})
				}
			}
			return out
		},
		RootMember: func(tab Table, typ *Target, _ int, name string) bool {
			if !rbObjectMethods[name] {
				return false
			}
			for _, part := range rbParts(tab, typ) {
				if part.Kind == KindClass && len(part.Bases) > 0 && tab.File(part.Path) != nil {
					return false // a superclass holds Object's methods, or overrides them
				}
			}
			return true
		},
	}
}

// rbParts are the reopenings of class or module typ.
func rbParts(tab Table, typ *Target) []*Target {
	if parts := rbClasses(tab, typ.Qualified()); len(parts) > 0 {
		return parts
	}
	return []*Target{typ}
}

func resolveRuby(ctx *Context, r *Ref) Resolution {
	return rbResolve(ctx, r, 0)
}

func rbResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	tab := ctx.Table
	nesting := rbNesting(ctx)
	switch r.Kind {
	case RefNew, RefExtends, RefImplements:
		name := r.Name
		if r.Qualifier != "" {
			name = r.Qualifier + "::" + r.Name
		}
		from := nesting
		if r.Kind == RefExtends && ctx.From != nil {
			from = ctx.From.Container // class A < B: B is looked up around A
		}
		t, rule := rbResolveConst(tab, ctx.File, from, name)
		if t == nil {
			return Unbound(rule, 0)
		}
		return Bound(t, rule)
	}
	if r.Qualifier == "" {
		if rbBuiltins[r.Name] {
			return Unbound(RuleBuiltin, 0)
		}
		return rbResolveBare(ctx, r, nesting)
	}
	switch {
	case r.Qualifier == "self":
		if nesting == "" {
			return rbResolveBare(ctx, &Ref{Kind: RefCall, Name: r.Name}, "")
		}
		return rbResolveBare(ctx, r, nesting)
	case r.Qualifier == "super":
		return rbResolveSuper(ctx, r, nesting)
	case r.QualifierType != "":
		cls, _ := rbResolveConst(tab, ctx.File, nesting, r.QualifierType)
		if cls == nil {
			return rbUnknownReceiver(tab, r.Name)
		}
		if m, ext := rbFindMethod(tab, ctx.File, cls, r.Name, 0); m != nil {
			return Bound(m, RuleReceiver)
		} else if ext {
			return Unbound(RuleExternal, 0)
		}
		return Unbound(RuleUnresolved, 0)
	case r.QualifierCall != "":
		cls, lib := rbCallResult(ctx, r.QualifierCall, depth)
		if cls != nil {
			if m, ext := rbFindMethod(tab, ctx.File, cls, r.Name, 0); m != nil {
				return Bound(m, RuleReceiver)
			} else if ext {
				return Unbound(RuleExternal, 0)
			}
		}
		res := rbUnknownReceiver(tab, r.Name)
		if lib && res.Target == nil {
			// a method of what a library call returned
			return Unbound(RuleExternal, 0)
		}
		return res
	}
	// Const.m or Mod::Const.m: a class method
	if IsUpper(r.Qualifier) || strings.HasPrefix(r.Qualifier, "::") {
		q := r.Qualifier
		if strings.ContainsAny(q, "(.[") {
			return rbUnknownReceiver(tab, r.Name)
		}
		cls, rule := rbResolveConst(tab, ctx.File, nesting, q)
		if cls == nil {
			if rule == RuleExternal {
				return Unbound(RuleExternal, 0)
			}
			return Unbound(rule, 0)
		}
		if cls.Kind == KindVariable {
			return rbUnknownReceiver(tab, r.Name)
		}
		if m, ext := rbFindMethod(tab, ctx.File, cls, r.Name, 0); m != nil {
			if rule == RuleSameFile && m.Path != ctx.File.Path {
				rule = RuleReceiver
			}
			return Bound(m, rule)
		} else if ext {
			return Unbound(RuleExternal, 0)
		}
		return Unbound(RuleUnresolved, 0)
	}
	return rbUnknownReceiver(tab, r.Name)
}

// rbResolveBare binds a call of a method of self: the class's own
// methods (in any reopening), its mixins' and ancestors'; then the
// top-level methods of the file, of the files it requires, of the
// repository.
func rbResolveBare(ctx *Context, r *Ref, nesting string) Resolution {
	tab := ctx.Table
	ext := false
	if nesting != "" {
		parts := rbClasses(tab, nesting)
		if len(parts) > 0 {
			cls, _ := rbPick(tab, ctx.File, parts)
			m, e := rbFindMethod(tab, ctx.File, cls, r.Name, 0)
			if m != nil {
				if m.Path == ctx.File.Path && m.Container == nesting {
					return Bound(m, RuleSameFile)
				}
				return Bound(m, RuleReceiver)
			}
			ext = e
		}
	}
	// a def nested in the calling method, or a top-level def
	if f := ctx.From; f != nil {
		for _, t := range tab.ByName(r.Name) {
			if t.Kind == KindFunction && t.Path == ctx.File.Path && (t.Container == "" || t.Container == f.Qualified()) {
				return Bound(t, RuleSameFile)
			}
		}
	}
	funcs := Pick(tab.ByName(r.Name), func(t *Target) bool {
		return t.Kind == KindFunction && t.Container == "" && isRbPath(t.Path)
	})
	req := rbRequired(tab, ctx.File)
	if c := One(Pick(funcs, func(t *Target) bool { _, ok := req[t.Path]; return ok })); c != nil {
		return Bound(c, RuleImport)
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	if len(funcs) == 1 && !rbCommonMethods[r.Name] {
		return Bound(funcs[0], RuleUniqueName)
	}
	if len(funcs) > 1 {
		return Unbound(RuleAmbiguous, len(funcs))
	}
	if len(Pick(tab.ByName(r.Name), func(t *Target) bool { return isRbPath(t.Path) && IsCallable(t.Kind) })) == 0 {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// rbResolveSuper binds super: the same method in the ancestors.
func rbResolveSuper(ctx *Context, r *Ref, nesting string) Resolution {
	tab := ctx.Table
	parts := rbClasses(tab, nesting)
	ext := len(parts) == 0
	for _, part := range parts {
		pfi := tab.File(part.Path)
		if pfi == nil {
			continue
		}
		for _, b := range part.Bases {
			bt, rule := rbResolveConst(tab, pfi, part.Container, b)
			if bt == nil {
				ext = ext || rule == RuleExternal
				continue
			}
			if m, e := rbFindMethod(tab, ctx.File, bt, r.Name, 1); m != nil {
				return Bound(m, RuleReceiver)
			} else if e {
				ext = true
			}
		}
		if len(part.Bases) == 0 {
			ext = true // Object's
		}
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// rbCallResult is the class a call returns, from its YARD @return tag;
// lib reports a call of a library's.
func rbCallResult(ctx *Context, fn string, depth int) (cls *Target, lib bool) {
	r := &Ref{Kind: RefCall, Name: fn}
	segs := javaSplitQualifier(fn)
	if len(segs) > 1 {
		r.Name = segs[len(segs)-1]
		r.Qualifier = fn[:len(fn)-len(r.Name)-1]
		if strings.HasSuffix(r.Qualifier, ")") {
			r.QualifierCall = strings.TrimSuffix(r.Qualifier, "()")
		}
	}
	if strings.ContainsAny(r.Name, "()[ ") {
		return nil, false
	}
	res := rbResolve(ctx, r, depth+1)
	m := res.Target
	if m == nil || m.Returns == "" {
		return nil, res.Rule == RuleExternal
	}
	fi := ctx.Table.File(m.Path)
	if fi == nil {
		return nil, false
	}
	cls, _ = rbResolveConst(ctx.Table, fi, rbClassContainer(ctx.Table, m), m.Returns)
	if cls == nil || cls.Kind == KindVariable {
		return nil, false
	}
	return cls, false
}

// rbUnknownReceiver binds a call on a value of unknown class: the only
// method of that name in the repository, when the name is distinctive; a
// name no method of the repository has is a library's.
func rbUnknownReceiver(tab Table, name string) Resolution {
	if rbObjectMethods[name] {
		return Unbound(RuleExternal, 0)
	}
	ms := Pick(tab.ByName(strings.TrimSuffix(name, "=")), func(t *Target) bool {
		return (t.Kind == KindMethod || t.Kind == KindVariable && !IsUpper(t.Name) && t.Container != "") && isRbPath(t.Path)
	})
	// a class reopened over files counts once
	return UniqueMethod(ms, func(a, b *Target) bool { return a.Container == b.Container }, rbCommonMethods[name])
}
