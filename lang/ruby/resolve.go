package ruby

import (
	"path"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// builtins are Kernel and Module methods every object has: calls to them
// are dropped. The ones with side effects (system, exec, exit, open...)
// are not among them: they resolve as external.
var builtins = lang.WordFile(data, "builtins.txt")

// objectMethods are methods every object has, on a value of unknown
// class.
var objectMethods = lang.WordFile(data, "object_methods.txt")

// commonMethods are method names of the core classes and the usual
// gems so common that a unique definition in the repository says little
// about which one a call on a value of unknown class means.
var commonMethods = lang.WordFile(data, "common_methods.txt")

// coreConstants are classes and modules of Ruby's core and standard
// library.
var coreConstants = lang.WordFile(data, "types.txt")

func isPath(p string) bool {
	if l := lang.ForPath(p); l != nil {
		return l.Name == "ruby"
	}
	return false
}

// required lists the files a file requires directly, resolved.
func required(tab lang.Table, fi *lang.FileInfo) map[string]lang.Binding {
	return fi.BindingsWith(func() map[string]lang.Binding {
		m := map[string]lang.Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if f := requireFile(tab, fi, imp.Source); f != "" {
				m[f] = lang.Binding{Imp: imp}
			}
		}
		return m
	})
}

// requireFile is the repository file a require names, or "".
// require_relative paths start with a dot; the others are found on the
// load path, that is by the end of a file's path ("shop/store" is
// lib/shop/store.rb), preferring lib/.
func requireFile(tab lang.Table, fi *lang.FileInfo, src string) string {
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

func resolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	f := requireFile(ctx.Table, ctx.File, imp.Source)
	if f == "" {
		if strings.HasPrefix(imp.Source, ".") {
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		return lang.Unbound(lang.RuleExternal, 0) // a gem or the standard library
	}
	if name != "" {
		// autoload :Name, "path": the constant it promises
		for _, t := range ctx.Table.ByName(name) {
			if t.Path == f && (t.Kind == lang.KindClass || t.Kind == lang.KindModule) {
				return lang.Bound(t, lang.RuleImport)
			}
		}
	}
	if t := lang.ModuleTarget(ctx.Table, f); t != nil {
		return lang.Bound(t, lang.RuleImport)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// nesting is the lexical nesting of code: the qualified name of the
// class or module it is in ("Shop.Store"), or "".
func nesting(ctx *lang.Context) string {
	f := ctx.From
	if f == nil || f.Kind == lang.KindModule && f.Container == "" && f.ID == ctx.File.ModuleID {
		return ""
	}
	switch f.Kind {
	case lang.KindClass, lang.KindModule:
		return f.Qualified()
	}
	return classContainer(ctx.Table, f)
}

// classContainer is the qualified name of the class or module around a
// method or variable: its container with nested defs' names dropped.
func classContainer(tab lang.Table, f *lang.Target) string {
	for q := f.Container; q != ""; q, _ = lang.LastSegment(q) {
		c, name := lang.LastSegment(q)
		for _, t := range tab.ByName(name) {
			if t.Path == f.Path && t.Container == c && (t.Kind == lang.KindClass || t.Kind == lang.KindModule) {
				return q
			}
		}
	}
	return ""
}

// classes returns the classes and modules of qualified name q: every
// reopening of it, over all files.
func classes(tab lang.Table, q string) []*lang.Target {
	c, name := lang.LastSegment(q)
	return lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return (t.Kind == lang.KindClass || t.Kind == lang.KindModule) && t.Container == c && isPath(t.Path) && !fileModule(tab, t)
	})
}

// fileModule reports whether t is the module symbol of its file (a
// Rakefile's), not a Ruby module.
func fileModule(tab lang.Table, t *lang.Target) bool {
	if t.Kind != lang.KindModule || t.Container != "" {
		return false
	}
	fi := tab.File(t.Path)
	return fi != nil && fi.ModuleID == t.ID
}

// pick chooses, of the reopenings of one class, the one a reference
// from file fi means, and the rule that says so: the one in fi, one in
// a file fi requires, the one whose file Zeitwerk would autoload it from
// (shop/models/item.rb for Shop::Models::Item), else the first.
func pick(tab lang.Table, fi *lang.FileInfo, parts []*lang.Target) (*lang.Target, string) {
	if len(parts) == 0 {
		return nil, lang.RuleUnresolved
	}
	for _, p := range parts {
		if p.Path == fi.Path {
			return p, lang.RuleSameFile
		}
	}
	req := required(tab, fi)
	best, score := parts[0], -1
	for _, p := range parts {
		s := 0
		if _, ok := req[p.Path]; ok {
			s += 4
		}
		if strings.HasSuffix(strings.TrimSuffix(p.Path, ".rb"), underscore(p.Qualified())) {
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
		return best, lang.RuleImport
	}
	return best, lang.RuleUniqueName
}

// underscore turns a qualified constant into the path Zeitwerk and
// Rails expect it in: "Shop.HTTPClient" -> "shop/http_client".
func underscore(q string) string {
	var b strings.Builder
	for i, seg := range strings.Split(q, ".") {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(strings.Join(lang.SplitIdent(seg), "_"))
	}
	return b.String()
}

// resolveConst resolves a constant as written ("Item", "Models::Item",
// "::Top") by code nested in nesting, as Ruby does: the lexical scopes
// from the innermost out, then the top level.
//
// It is memoised per file, scope and name: the ancestors of every class a
// method is looked up in are resolved again and again.
func resolveConst(tab lang.Table, fi *lang.FileInfo, nesting, name string) (*lang.Target, string) {
	v := tab.Memo("rb.const\x00"+fi.Path+"\x00"+nesting+"\x00"+name, func() string {
		t, rule := resolveConstUncached(tab, fi, nesting, name)
		if t == nil {
			return rule
		}
		return rule + "\x00" + t.ID + "\x00" + t.Name + "\x00" + t.Path
	})
	parts := strings.SplitN(v, "\x00", 4)
	if len(parts) < 4 {
		if parts[0] == "" {
			return nil, lang.RuleUnresolved // a cut cycle
		}
		return nil, parts[0]
	}
	for _, t := range tab.ByName(parts[2]) {
		if t.ID == parts[1] && t.Path == parts[3] {
			return t, parts[0]
		}
	}
	return nil, lang.RuleUnresolved
}

func resolveConstUncached(tab lang.Table, fi *lang.FileInfo, nesting, name string) (*lang.Target, string) {
	abs := strings.HasPrefix(name, "::")
	rel := strings.ReplaceAll(strings.TrimPrefix(name, "::"), "::", ".")
	if rel == "" {
		return nil, lang.RuleUnresolved
	}
	var scopes []string
	if !abs {
		for q := nesting; q != ""; q, _ = lang.LastSegment(q) {
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
		if parts := classes(tab, q); len(parts) > 0 {
			return pick(tab, fi, parts)
		}
		// a constant that is no class: MAX = 3
		c, last := lang.LastSegment(q)
		for _, t := range tab.ByName(last) {
			if t.Kind == lang.KindVariable && t.Container == c && lang.IsUpper(last) && isPath(t.Path) {
				if t.Path == fi.Path {
					return t, lang.RuleSameFile
				}
				return t, lang.RuleImport
			}
		}
	}
	head, _, _ := strings.Cut(rel, ".")
	if coreConstants.Has(head) {
		return nil, lang.RuleExternal
	}
	// a class of that name elsewhere may be the one meant; ActiveJob::Base
	// is none of the repository's Base classes that are not ActiveJob's
	_, last := lang.LastSegment(rel)
	qualified := strings.Contains(rel, ".")
	any := lang.Pick(tab.ByName(last), func(t *lang.Target) bool {
		return (t.Kind == lang.KindClass || t.Kind == lang.KindModule) && isPath(t.Path) &&
			(!qualified || strings.HasSuffix("."+t.Qualified(), "."+rel))
	})
	if len(any) == 0 {
		return nil, lang.RuleExternal // a gem's
	}
	return nil, lang.RuleUnresolved
}

// findMethod finds method name of a class or module (any reopening),
// then of its mixins and superclasses. Attributes count: x.name calls
// the reader attr_accessor :name made. ext reports an ancestor outside
// the repository, which may define it. Of several definitions in the
// class that has it, the one in fi's file wins.
func findMethod(tab lang.Table, fi *lang.FileInfo, cls *lang.Target, name string, depth int) (m *lang.Target, ext bool) {
	if depth > lang.MaxDepth {
		return nil, false
	}
	owner, ext := methodOwner(tab, cls, name)
	if owner == "" {
		return nil, ext
	}
	ms := ownMethods(tab, owner, name)
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

// ownMethods are the methods (and attributes) name of class q itself.
func ownMethods(tab lang.Table, q, name string) []*lang.Target {
	return lang.Pick(tab.ByName(strings.TrimSuffix(name, "=")), func(t *lang.Target) bool {
		return t.Container == q && isPath(t.Path) &&
			(t.Kind == lang.KindMethod || t.Kind == lang.KindConstructor && name == "initialize" || t.Kind == lang.KindVariable && !lang.IsUpper(t.Name))
	})
}

// methodOwner is the qualified name of the class, among cls and its
// ancestors, whose own method name a call on cls reaches, or "" and
// whether an ancestor outside the repository may have it. It is the same
// for every file, and memoised: classes share their ancestors.
func methodOwner(tab lang.Table, cls *lang.Target, name string) (string, bool) {
	v := tab.Memo("rb.owner\x00"+cls.ID+"\x00"+cls.Path+"\x00"+name, func() string {
		o, ext := methodOwnerUncached(tab, cls, name)
		if ext {
			return o + "\x00x"
		}
		return o + "\x00"
	})
	o, x, _ := strings.Cut(v, "\x00")
	return o, x == "x"
}

func methodOwnerUncached(tab lang.Table, cls *lang.Target, name string) (owner string, ext bool) {
	m, ext := members.FindMember(tab, cls, name, 0)
	if m == nil {
		return "", ext
	}
	return m.Container, false
}

// members finds a method through a class's reopenings, mixins and
// superclasses; a class without a superclass of ours may still have
// Object's methods. It is set by init: resolving a base constant leads
// back to member lookups.
var members *lang.MemberRules

func init() {
	members = &lang.MemberRules{
		Own: func(tab lang.Table, typ *lang.Target, name string) *lang.Target {
			if ms := ownMethods(tab, typ.Qualified(), name); len(ms) > 0 {
				return ms[0]
			}
			return nil
		},
		Bases: func(tab lang.Table, typ *lang.Target, _ int) []lang.BaseRef {
			q := typ.Qualified()
			var out []lang.BaseRef
			for _, part := range parts(tab, typ) {
				pfi := tab.File(part.Path)
				if pfi == nil {
					continue
				}
				for _, b := range part.Bases {
					var bt *lang.Target
					rule := ""
					if own := classes(tab, q+"."+strings.ReplaceAll(b, "::", ".")); len(own) > 0 && !strings.HasPrefix(b, "::") {
						// include ClassMethods: a module of its own, which a
						// mixin names from inside the class
						bt, rule = pick(tab, pfi, own)
					} else {
						bt, rule = resolveConst(tab, pfi, part.Container, b)
					}
					if bt != nil && bt.Qualified() == q {
						continue
					}
					out = append(out, lang.BaseRef{Target: bt, Rule: rule})
				}
			}
			return out
		},
		RootMember: func(tab lang.Table, typ *lang.Target, _ int, name string) bool {
			if !objectMethods.Has(name) {
				return false
			}
			for _, part := range parts(tab, typ) {
				if part.Kind == lang.KindClass && len(part.Bases) > 0 && tab.File(part.Path) != nil {
					return false // a superclass holds Object's methods, or overrides them
				}
			}
			return true
		},
	}
}

// parts are the reopenings of class or module typ.
func parts(tab lang.Table, typ *lang.Target) []*lang.Target {
	if parts := classes(tab, typ.Qualified()); len(parts) > 0 {
		return parts
	}
	return []*lang.Target{typ}
}

func resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	return resolveDepth(ctx, r, 0)
}

func resolveDepth(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	tab := ctx.Table
	nesting := nesting(ctx)
	switch r.Kind {
	case lang.RefNew, lang.RefExtends, lang.RefImplements:
		name := r.Name
		if r.Qualifier != "" {
			name = r.Qualifier + "::" + r.Name
		}
		from := nesting
		if r.Kind == lang.RefExtends && ctx.From != nil {
			from = ctx.From.Container // class A < B: B is looked up around A
		}
		t, rule := resolveConst(tab, ctx.File, from, name)
		if t == nil {
			return lang.Unbound(rule, 0)
		}
		return lang.Bound(t, rule)
	}
	if r.Qualifier == "" {
		if builtins.Has(r.Name) {
			return lang.Unbound(lang.RuleBuiltin, 0)
		}
		return resolveBare(ctx, r, nesting)
	}
	switch {
	case r.Qualifier == "self":
		if nesting == "" {
			return resolveBare(ctx, &lang.Ref{Kind: lang.RefCall, Name: r.Name}, "")
		}
		return resolveBare(ctx, r, nesting)
	case r.Qualifier == "super":
		return resolveSuper(ctx, r, nesting)
	case r.QualifierType != "" && r.QualifierCall != "" && !strings.HasSuffix(r.QualifierCall, ".class"):
		// @store.item.price: the class known is the head's (@store's),
		// price is a method of what item returns
		return onCallResult(ctx, r, depth)
	case r.QualifierType != "":
		cls, rule := resolveConst(tab, ctx.File, nesting, r.QualifierType)
		if cls == nil {
			if rule == lang.RuleExternal {
				// a Time, a Set, a gem's class: its methods are not the
				// repository's, whatever it defines under the same name
				return lang.Unbound(lang.RuleExternal, 0)
			}
			return unknownReceiver(tab, r.Name)
		}
		if m, ext := findMethod(tab, ctx.File, cls, r.Name, 0); m != nil {
			return lang.Bound(m, lang.RuleReceiver)
		} else if ext {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		if r.Name == "new" && cls.Kind == lang.KindClass {
			// k = Class.new(Base); k.new: an instance of Base's, as Base.new
			return lang.Bound(cls, lang.RuleReceiver)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	case r.QualifierCall != "":
		return onCallResult(ctx, r, depth)
	}
	// Const.m or Mod::Const.m: a class method
	if lang.IsUpper(r.Qualifier) || strings.HasPrefix(r.Qualifier, "::") {
		q := r.Qualifier
		if strings.ContainsAny(q, "(.[") {
			return unknownReceiver(tab, r.Name)
		}
		cls, rule := resolveConst(tab, ctx.File, nesting, q)
		if cls == nil {
			if rule == lang.RuleExternal {
				return lang.Unbound(lang.RuleExternal, 0)
			}
			return lang.Unbound(rule, 0)
		}
		if cls.Kind == lang.KindVariable {
			return unknownReceiver(tab, r.Name)
		}
		if m, ext := findMethod(tab, ctx.File, cls, r.Name, 0); m != nil {
			if rule == lang.RuleSameFile && m.Path != ctx.File.Path {
				rule = lang.RuleReceiver
			}
			return lang.Bound(m, rule)
		} else if ext {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	return unknownReceiver(tab, r.Name)
}

// resolveBare binds a call of a method of self: the class's own
// methods (in any reopening), its mixins' and ancestors'; then the
// top-level methods of the file, of the files it requires, of the
// repository.
func resolveBare(ctx *lang.Context, r *lang.Ref, nesting string) lang.Resolution {
	tab := ctx.Table
	ext := false
	if nesting != "" {
		parts := classes(tab, nesting)
		if len(parts) > 0 {
			cls, _ := pick(tab, ctx.File, parts)
			m, e := findMethod(tab, ctx.File, cls, r.Name, 0)
			if m != nil {
				if m.Path == ctx.File.Path && m.Container == nesting {
					return lang.Bound(m, lang.RuleSameFile)
				}
				return lang.Bound(m, lang.RuleReceiver)
			}
			ext = e
		}
	}
	// a def nested in the calling method, or a top-level def
	if f := ctx.From; f != nil {
		for _, t := range tab.ByName(r.Name) {
			if t.Kind == lang.KindFunction && t.Path == ctx.File.Path && (t.Container == "" || t.Container == f.Qualified()) {
				return lang.Bound(t, lang.RuleSameFile)
			}
		}
	}
	funcs := lang.Pick(tab.ByName(r.Name), func(t *lang.Target) bool {
		return t.Kind == lang.KindFunction && t.Container == "" && isPath(t.Path)
	})
	req := required(tab, ctx.File)
	if c := lang.One(lang.Pick(funcs, func(t *lang.Target) bool { _, ok := req[t.Path]; return ok })); c != nil {
		return lang.Bound(c, lang.RuleImport)
	}
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if len(funcs) == 1 && !commonMethods.Has(r.Name) {
		return lang.Bound(funcs[0], lang.RuleUniqueName)
	}
	if len(funcs) > 1 {
		return lang.Unbound(lang.RuleAmbiguous, len(funcs))
	}
	if len(lang.Pick(tab.ByName(r.Name), func(t *lang.Target) bool { return isPath(t.Path) && lang.IsCallable(t.Kind) })) == 0 {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// resolveSuper binds super: the same method in the ancestors.
func resolveSuper(ctx *lang.Context, r *lang.Ref, nesting string) lang.Resolution {
	tab := ctx.Table
	parts := classes(tab, nesting)
	ext := len(parts) == 0
	for _, part := range parts {
		pfi := tab.File(part.Path)
		if pfi == nil {
			continue
		}
		for _, b := range part.Bases {
			bt, rule := resolveConst(tab, pfi, part.Container, b)
			if bt == nil {
				ext = ext || rule == lang.RuleExternal
				continue
			}
			if m, e := findMethod(tab, ctx.File, bt, r.Name, 1); m != nil {
				return lang.Bound(m, lang.RuleReceiver)
			} else if e {
				ext = true
			}
		}
		if len(part.Bases) == 0 {
			ext = true // Object's
		}
	}
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// onCallResult binds r, a call on what the call r.QualifierCall
// returned.
func onCallResult(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	cls, lib := callResult(ctx, r.QualifierCall, r.QualifierType, depth)
	if cls != nil {
		if m, ext := findMethod(ctx.Table, ctx.File, cls, r.Name, 0); m != nil {
			return lang.Bound(m, lang.RuleReceiver)
		} else if ext {
			return lang.Unbound(lang.RuleExternal, 0)
		}
	}
	if lib && r.QualifierType != "" {
		// e.diagnostic.location with e a Parser::SyntaxError: the chain
		// left the repository through its head's class, a library's
		return lang.Unbound(lang.RuleExternal, 0)
	}
	res := unknownReceiver(ctx.Table, r.Name)
	if lib && res.Target == nil {
		// a method of what a library call returned
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return res
}

// callResult is the class a call returns, from its YARD @return tag;
// lib reports a call of a library's. headType is the class of the
// chain's head, when known (@store in @store.item).
func callResult(ctx *lang.Context, fn, headType string, depth int) (cls *lang.Target, lib bool) {
	if strings.ReplaceAll(fn, "()", "") == "self.class.new" && headType != "" {
		// copy = self.class.new(...): another instance of self's class
		cls, _ = resolveConst(ctx.Table, ctx.File, nesting(ctx), headType)
		if cls != nil && cls.Kind == lang.KindVariable {
			cls = nil
		}
		return cls, false
	}
	r := &lang.Ref{Kind: lang.RefCall, Name: fn}
	segs := lang.SplitQualifier(fn)
	if len(segs) > 1 {
		r.Name = segs[len(segs)-1]
		r.Qualifier = fn[:len(fn)-len(r.Name)-1]
		r.QualifierType = headType
		if strings.HasSuffix(r.Qualifier, ")") {
			r.QualifierCall = strings.TrimSuffix(r.Qualifier, "()")
		}
	}
	if strings.ContainsAny(r.Name, "()[ ") {
		return nil, false
	}
	res := resolveDepth(ctx, r, depth+1)
	m := res.Target
	if m == nil || m.Returns == "" {
		return nil, res.Rule == lang.RuleExternal
	}
	fi := ctx.Table.File(m.Path)
	if fi == nil {
		return nil, false
	}
	cls, _ = resolveConst(ctx.Table, fi, classContainer(ctx.Table, m), m.Returns)
	if cls == nil || cls.Kind == lang.KindVariable {
		return nil, false
	}
	return cls, false
}

// unknownReceiver binds a call on a value of unknown class: the only
// method of that name in the repository, when the name is distinctive; a
// name no method of the repository has is a library's.
func unknownReceiver(tab lang.Table, name string) lang.Resolution {
	if objectMethods.Has(name) {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	ms := lang.Pick(tab.ByName(strings.TrimSuffix(name, "=")), func(t *lang.Target) bool {
		return (t.Kind == lang.KindMethod || t.Kind == lang.KindVariable && !lang.IsUpper(t.Name) && t.Container != "") && isPath(t.Path)
	})
	// a class reopened over files counts once
	return lang.UniqueMethod(ms, func(a, b *lang.Target) bool { return a.Container == b.Container }, commonMethods.Has(name))
}
