package lang

import (
	"path"
	"strings"
)

// javaLangTypes are the types of java.lang, which every file sees without
// an import.
var javaLangTypes = wordSet("java", "types.txt")

// javaCommonMethods are method names of the JDK's everyday types so
// widespread that a unique definition in the repository says little about
// which one a call on a value of unknown type means.
var javaCommonMethods = wordSet("java", "common_methods.txt")

func init() {
	l := ByName("java")
	l.resolve = resolveJava
	l.resolveImport = resolveJavaImport
	// what derive.go's Java table misses: instance calls on the usual
	// names of files and connections
}

// javaObjectMethods are the methods every object has: on a value of
// unknown type they mean Object's. javaEnumMethods are those every enum
// has, which the index does not tell from other classes.
var (
	javaObjectMethods = map[string]bool{
		"equals": true, "hashCode": true, "toString": true, "getClass": true, "clone": true, "finalize": true,
		"notify": true, "notifyAll": true, "wait": true,
	}
	javaEnumMethods = map[string]bool{
		"values": true, "valueOf": true, "ordinal": true, "name": true, "compareTo": true, "getDeclaringClass": true,
		"describeConstable": true,
	}
)

// maxJavaTypeDepth bounds the nested lookups of one type resolution
// (member types inherited through supertypes of enclosing classes), which
// cyclic or hostile code could otherwise make endless.
const maxJavaTypeDepth = 10

// javaBindings maps the names a file's single imports bind: a type's
// simple name to its single-type import, "\x00"+member to a single static
// import.
func javaBindings(fi *FileInfo) map[string]Binding {
	return fi.BindingsWith(func() map[string]Binding {
		m := map[string]Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			switch {
			case len(imp.Names) == 0:
				_, name := LastSegment(imp.Source)
				m[name] = Binding{Imp: imp}
			case imp.Names[0].Name != "*":
				m["\x00"+imp.Names[0].Name] = Binding{Imp: imp, Name: imp.Names[0].Name}
			}
		}
		return m
	})
}

func isJavaPath(p string) bool { return strings.HasSuffix(p, ".java") }

// javaPkgInRepo reports whether some file of the repository declares
// exactly package pkg.
func javaPkgInRepo(tab Table, pkg string) bool {
	if pkg == "" {
		return false
	}
	return tab.Memo("java.pkg\x00"+pkg, func() string {
		for _, f := range tab.ModuleFiles("java", pkg) {
			if fi := tab.File(f); fi != nil && fi.Module == pkg {
				return "1"
			}
		}
		return ""
	}) != ""
}

// javaTopType finds the top-level type name of package pkg; dir breaks
// ties between source roots that repeat a package (main and test).
func javaTopType(tab Table, pkg, name, dir string) *Target {
	cands := Pick(tab.ByName(name), func(t *Target) bool {
		return t.Container == "" && IsTypeKind(t.Kind) && t.Module == pkg && isJavaPath(t.Path)
	})
	if pkg == "" {
		// the default package: files without a package clause, per directory
		cands = Pick(cands, func(t *Target) bool { return t.Dir() == dir })
	}
	if len(cands) > 1 && dir != "" {
		if same := Pick(cands, func(t *Target) bool { return t.Dir() == dir }); len(same) == 1 {
			return same[0]
		}
	}
	return One(PreferDefinitions(cands))
}

// javaMember finds the member called name of kind ("type" for any type)
// declared directly in type typ; of overloads, the first.
func javaMember(tab Table, typ *Target, name, kind string) *Target {
	q := typ.Qualified()
	for _, t := range tab.ByName(name) {
		if t.Path != typ.Path || t.Container != q {
			continue
		}
		if kind == "type" && IsTypeKind(t.Kind) || t.Kind == kind {
			return t
		}
	}
	return nil
}

// javaTypeByQualified finds the type of file p by its qualified name.
func javaTypeByQualified(tab Table, p, qualified string) *Target {
	container, name := LastSegment(qualified)
	for _, t := range tab.ByName(name) {
		if t.Path == p && t.Container == container && IsTypeKind(t.Kind) {
			return t
		}
	}
	return nil
}

// javaEnclosingType is the innermost type of file p whose qualified name
// is container or a prefix of it.
func javaEnclosingType(tab Table, p, container string) *Target {
	for container != "" {
		if t := javaTypeByQualified(tab, p, container); t != nil {
			return t
		}
		container, _ = LastSegment(container)
	}
	return nil
}

// javaClassOf is the class a reference is made in: the symbol itself when
// it is a type, else the type enclosing it.
func javaClassOf(ctx *Context) *Target {
	f := ctx.From
	if f == nil || f.Kind == KindModule {
		return nil
	}
	if IsTypeKind(f.Kind) {
		return f
	}
	return javaEnclosingType(ctx.Table, f.Path, f.Container)
}

// javaOuter is the type enclosing type t, or nil.
func javaOuter(tab Table, t *Target) *Target {
	return javaEnclosingType(tab, t.Path, t.Container)
}

// javaImportedType resolves a fully qualified type name. It returns the
// type, or external when no prefix of the name is a package of the
// repository.
func javaImportedType(tab Table, fq string, depth int) (*Target, bool) {
	segs := strings.Split(fq, ".")
	for k := len(segs) - 1; k >= 1; k-- {
		pkg := strings.Join(segs[:k], ".")
		if !javaPkgInRepo(tab, pkg) {
			continue
		}
		if !IsUpper(segs[k]) {
			// a sub-package the repository lacks: a.b.gen.Type
			return nil, true
		}
		t := javaTopType(tab, pkg, segs[k], "")
		for _, s := range segs[k+1:] {
			if t == nil {
				break
			}
			t = javaNestedType(tab, t, s, depth+1)
		}
		return t, false
	}
	return nil, true
}

// javaResolveType resolves a type as written in file fi by code of the
// symbol whose qualified name is from (the member types of the classes
// around it are in scope). It returns the type and the rule that found
// it, or RuleExternal, RuleAmbiguous or RuleUnresolved.
func javaResolveType(tab Table, fi *FileInfo, from, typ string) (*Target, string) {
	return javaResolveTypeIn(tab, fi, from, typ, 0)
}

// javaResolveBase resolves a supertype named in the declaration of cls.
// The clause lies outside cls's body, so it sees the scope around cls,
// not cls's own member types.
func javaResolveBase(tab Table, cls *Target, typ string, depth int) (*Target, string) {
	fi := tab.File(cls.Path)
	if fi == nil {
		return nil, RuleUnresolved
	}
	if depth > 0 {
		// inside another resolution, where the depth bound may cut it
		// short: not worth remembering
		return javaResolveTypeIn(tab, fi, cls.Container, typ, depth)
	}
	v := tab.Memo("java.base\x00"+cls.ID+"\x00"+typ, func() string {
		t, rule := javaResolveTypeIn(tab, fi, cls.Container, typ, 0)
		if t == nil {
			return rule
		}
		return rule + "\x00" + t.Name + "\x00" + t.ID
	})
	rule, rest, ok := strings.Cut(v, "\x00")
	if !ok {
		return nil, rule
	}
	name, id, _ := strings.Cut(rest, "\x00")
	for _, t := range tab.ByName(name) {
		if t.ID == id {
			return t, rule
		}
	}
	return nil, RuleUnresolved
}

func javaResolveTypeIn(tab Table, fi *FileInfo, from, typ string, depth int) (*Target, string) {
	typ = strings.TrimSuffix(javaStripType(typ), "...")
	if typ == "" || fi == nil || depth > maxJavaTypeDepth {
		return nil, RuleUnresolved
	}
	if strings.HasSuffix(typ, "]") {
		return nil, RuleExternal // an array: Object's methods
	}
	switch typ {
	case "int", "long", "short", "byte", "char", "boolean", "float", "double", "void":
		return nil, RuleExternal
	}
	segs := strings.Split(typ, ".")
	t, rule := javaResolveSimpleType(tab, fi, from, segs[0], depth)
	if t != nil {
		for _, s := range segs[1:] {
			if t = javaNestedType(tab, t, s, depth+1); t == nil {
				return nil, RuleUnresolved
			}
		}
		return t, rule
	}
	if rule == RuleExternal || len(segs) == 1 {
		return nil, rule
	}
	// a fully qualified name
	t, ext := javaImportedType(tab, typ, depth)
	switch {
	case t != nil:
		if t.Module == fi.Module {
			return t, RuleSamePackage
		}
		return t, RuleImport
	case ext:
		return nil, RuleExternal
	}
	return nil, RuleUnresolved
}

// javaNestedType finds a member type of t, declared in it or inherited
// from its supertypes.
func javaNestedType(tab Table, t *Target, name string, depth int) *Target {
	if m := javaMember(tab, t, name, "type"); m != nil {
		return m
	}
	if depth > maxJavaTypeDepth {
		return nil
	}
	for _, b := range t.Bases {
		if bt, _ := javaResolveBase(tab, t, b, depth+1); bt != nil && bt.ID != t.ID {
			if m := javaNestedType(tab, bt, name, depth+1); m != nil {
				return m
			}
		}
	}
	return nil
}

// javaExtBase reports whether t or one of its supertypes in the repository
// has a supertype outside it.
func javaExtBase(tab Table, t *Target, depth int) bool {
	if depth > MaxDepth {
		return false
	}
	for _, b := range t.Bases {
		bt, rule := javaResolveBase(tab, t, b, 0)
		if rule == RuleExternal || bt != nil && bt.ID != t.ID && javaExtBase(tab, bt, depth+1) {
			return true
		}
	}
	return false
}

// javaResolveSimpleType resolves a simple type name, in the order Java
// scopes them: the classes around the code and their member types,
// inherited ones too, single-type imports, the package, java.lang,
// on-demand imports.
func javaResolveSimpleType(tab Table, fi *FileInfo, from, name string, depth int) (*Target, string) {
	// the file's own types, innermost first
	var best *Target
	for _, t := range tab.ByName(name) {
		if t.Path != fi.Path || !IsTypeKind(t.Kind) {
			continue
		}
		if t.Container != "" && t.Container != from && !strings.HasPrefix(from, t.Container+".") {
			continue
		}
		if best == nil || len(t.Container) > len(best.Container) {
			best = t
		}
	}
	if best != nil {
		return best, RuleSameFile
	}
	// member types the classes around the code inherit, if the
	// repository has a member type of that name at all
	member := false
	for _, t := range tab.ByName(name) {
		if t.Container != "" && IsTypeKind(t.Kind) {
			member = true
			break
		}
	}
	for c := javaEnclosingType(tab, fi.Path, from); member && c != nil; c = javaOuter(tab, c) {
		if m := javaNestedType(tab, c, name, depth+1); m != nil {
			return m, RuleSameFile
		}
	}
	bind := javaBindings(fi)
	if b, ok := bind[name]; ok {
		t, ext := javaImportedType(tab, b.Imp.Source, depth)
		if t != nil {
			return t, RuleImport
		}
		if ext {
			return nil, RuleExternal
		}
		return nil, RuleUnresolved
	}
	// a member type brought by a static import
	if b, ok := bind["\x00"+name]; ok {
		owner, ext := javaImportedType(tab, b.Imp.Source, depth)
		if owner != nil {
			if m := javaMember(tab, owner, name, "type"); m != nil {
				return m, RuleImport
			}
		} else if ext && IsUpper(name) {
			return nil, RuleExternal
		}
	}
	if t := javaTopType(tab, fi.Module, name, path.Dir(fi.Path)); t != nil {
		if t.Path == fi.Path {
			return t, RuleSameFile
		}
		return t, RuleSamePackage
	}
	if javaLangTypes[name] {
		return nil, RuleExternal
	}
	extWild := false
	var found []*Target
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if len(imp.Names) == 0 || imp.Names[0].Name != "*" {
			continue
		}
		if javaPkgInRepo(tab, imp.Source) {
			if t := javaTopType(tab, imp.Source, name, ""); t != nil {
				found = append(found, t)
			}
			continue
		}
		owner, ext := javaImportedType(tab, imp.Source, depth)
		switch {
		case owner != nil:
			if m := javaNestedType(tab, owner, name, depth+1); m != nil {
				found = append(found, m)
			}
		case ext:
			extWild = true
		}
	}
	if len(found) == 1 {
		return found[0], RuleImport
	}
	if len(found) > 1 {
		return nil, RuleAmbiguous
	}
	if !IsUpper(name) {
		return nil, RuleUnresolved
	}
	// an upper-case name no scope of ours declares, where a library's
	// names are in scope: on-demand imports, member types inherited from
	// a library class
	if extWild {
		return nil, RuleExternal
	}
	for c := javaEnclosingType(tab, fi.Path, from); c != nil; c = javaOuter(tab, c) {
		if javaExtBase(tab, c, 0) {
			return nil, RuleExternal
		}
	}
	return nil, RuleUnresolved
}

// javaMembers finds methods through supertypes, with java.lang.Object's
// (and Enum's) methods outside the repository.
var javaMembers = &MemberRules{
	Own: func(tab Table, typ *Target, name string) *Target { return javaMember(tab, typ, name, KindMethod) },
	Bases: func(tab Table, typ *Target, _ int) []BaseRef {
		out := make([]BaseRef, 0, len(typ.Bases))
		for _, b := range typ.Bases {
			bt, rule := javaResolveBase(tab, typ, b, 0)
			out = append(out, BaseRef{bt, rule})
		}
		return out
	},
	RootMember: func(_ Table, typ *Target, _ int, name string) bool {
		return (len(typ.Bases) == 0 || typ.Kind == KindInterface) && (javaObjectMethods[name] || javaEnumMethods[name])
	},
}

// javaFindMethod finds method name of typ or of its supertypes. ext
// reports that the search met a supertype outside the repository, where
// the method may be. A record's component accessor binds to the
// component.
func javaFindMethod(tab Table, typ *Target, name string) (m *Target, ext bool) {
	if m, ext = javaMembers.FindMember(tab, typ, name, 0); m == nil {
		if f := javaMember(tab, typ, name, KindVariable); f != nil {
			return f, false
		}
	}
	return m, ext
}

// javaValue is what resolution knows of the type of a value.
type javaValue struct {
	t    *Target // a type of the repository
	ext  bool    // a type outside the repository: its methods are external
	lib  bool    // unknown, but the value came from a library
	weak bool    // found through a guess by unique name
}

// javaFieldValue is the type of field name of typ or of its supertypes;
// found reports that the field exists.
func javaFieldValue(tab Table, typ *Target, name string, depth int) (v javaValue, found bool) {
	for _, f := range typ.Fields {
		if f.Name == name {
			t, rule := javaResolveType(tab, tab.File(typ.Path), typ.Qualified(), f.Type)
			return javaValue{t: t, ext: rule == RuleExternal}, true
		}
	}
	if depth > MaxDepth {
		return v, false
	}
	for _, b := range typ.Bases {
		bt, rule := javaResolveBase(tab, typ, b, 0)
		if bt == nil {
			// a field of a library supertype: its type is unknown
			v.lib = v.lib || rule == RuleExternal
			continue
		}
		if bt.ID == typ.ID {
			continue
		}
		if fv, ok := javaFieldValue(tab, bt, name, depth+1); ok {
			return fv, true
		}
	}
	return v, false
}

func resolveJavaImport(ctx *Context, imp *Import, name string) Resolution {
	tab := ctx.Table
	switch name {
	case "":
		t, ext := javaImportedType(tab, imp.Source, 0)
		if t != nil {
			return Bound(t, RuleImport)
		}
		if ext {
			return Unbound(RuleExternal, 0)
		}
	case "*":
		if javaPkgInRepo(tab, imp.Source) {
			var first string
			for _, f := range tab.ModuleFiles("java", imp.Source) {
				if fi := tab.File(f); fi == nil || fi.Module != imp.Source {
					continue
				}
				if first == "" {
					first = f
				}
				if !IsTestPath(f) {
					first = f
					break
				}
			}
			if t := ModuleTarget(tab, first); t != nil {
				return Bound(t, RuleImport)
			}
			return Unbound(RuleUnresolved, 0)
		}
		t, ext := javaImportedType(tab, imp.Source, 0)
		if t != nil {
			return Bound(t, RuleImport)
		}
		if ext {
			return Unbound(RuleExternal, 0)
		}
	default:
		owner, ext := javaImportedType(tab, imp.Source, 0)
		if owner == nil {
			if ext {
				return Unbound(RuleExternal, 0)
			}
			return Unbound(RuleUnresolved, 0)
		}
		if m := javaStaticMember(tab, owner, name); m != nil {
			return Bound(m, RuleImport)
		}
		if javaExtBase(tab, owner, 0) {
			return Unbound(RuleExternal, 0)
		}
	}
	return Unbound(RuleUnresolved, 0)
}

// javaStaticMember finds what a static import of name from owner brings:
// a method, a field or a member type, its own or inherited.
func javaStaticMember(tab Table, owner *Target, name string) *Target {
	for _, kind := range []string{KindMethod, KindVariable, "type"} {
		if m := javaMember(tab, owner, name, kind); m != nil {
			return m
		}
	}
	if m, _ := javaFindMethod(tab, owner, name); m != nil {
		return m
	}
	return javaNestedType(tab, owner, name, 0)
}

func resolveJava(ctx *Context, r *Ref) Resolution {
	return javaResolve(ctx, r, 0)
}

// javaFrom is the qualified name of the symbol a reference is made in,
// which scopes type names.
func javaFrom(ctx *Context) string {
	if ctx.From == nil || ctx.From.Kind == KindModule {
		return ""
	}
	return ctx.From.Qualified()
}

// maxJavaResolveDepth bounds the recursion through call chains
// (a.b().c().d()), each level a shorter chain.
const maxJavaResolveDepth = maxJavaChain + 4

func javaResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > maxJavaResolveDepth {
		return Unbound(RuleUnresolved, 0)
	}
	switch r.Kind {
	case RefNew, RefExtends, RefImplements:
		return javaResolveTypeRef(ctx, r)
	}
	if r.Qualifier == "" {
		return javaResolveBare(ctx, r)
	}
	return javaResolveQualified(ctx, r, depth)
}

// javaResolveTypeRef binds new T(), extends T and implements T to T.
func javaResolveTypeRef(ctx *Context, r *Ref) Resolution {
	tab := ctx.Table
	typ := r.Name
	if r.Qualifier != "" {
		typ = r.Qualifier + "." + r.Name
	}
	from := javaFrom(ctx)
	if r.Kind != RefNew && ctx.From != nil {
		// a class's supertypes are named outside its body
		from = ctx.From.Container
	}
	if r.Kind == RefNew && r.QualifierType != "" && r.Qualifier == "" {
		// new Inner() in an anonymous class body, or outer.new Inner():
		// a member type of that type first
		if owner, _ := javaResolveType(tab, ctx.File, from, r.QualifierType); owner != nil {
			if t := javaNestedType(tab, owner, r.Name, 0); t != nil {
				return Bound(t, RuleReceiver)
			}
		}
	}
	t, rule := javaResolveType(tab, ctx.File, from, typ)
	if t != nil && ctx.From != nil && t.ID == ctx.From.ID && r.Kind != RefNew {
		return Unbound(RuleUnresolved, 0) // class Foo extends a Foo of elsewhere
	}
	if t != nil {
		return Bound(t, rule)
	}
	return Unbound(rule, 0)
}

// javaResolveBare binds m(): a method of the class the call is in or of
// its supertypes, then of the classes around it, then a static import.
func javaResolveBare(ctx *Context, r *Ref) Resolution {
	tab := ctx.Table
	ext := false
	if r.QualifierType != "" {
		// in an anonymous class body: its base type comes first
		if typ, rule := javaResolveType(tab, ctx.File, javaFrom(ctx), r.QualifierType); typ != nil {
			if m, e := javaFindMethod(tab, typ, r.Name); m != nil && m.Kind == KindMethod {
				return Bound(m, RuleReceiver)
			} else {
				ext = e
			}
		} else if rule == RuleExternal {
			ext = true
		}
	}
	for c := javaClassOf(ctx); c != nil; c = javaOuter(tab, c) {
		if m := javaMember(tab, c, r.Name, KindMethod); m != nil {
			return Bound(m, RuleSameFile)
		}
		m, e := javaFindMethod(tab, c, r.Name)
		if m != nil && m.Kind == KindMethod {
			return Bound(m, RuleReceiver)
		}
		ext = ext || e
	}
	if b, ok := javaBindings(ctx.File)["\x00"+r.Name]; ok {
		owner, e := javaImportedType(tab, b.Imp.Source, 0)
		if owner != nil {
			if m, _ := javaFindMethod(tab, owner, r.Name); m != nil {
				return Bound(m, RuleImport)
			}
		} else if e {
			return Unbound(RuleExternal, 0)
		}
	}
	for i := range ctx.File.Imports {
		imp := &ctx.File.Imports[i]
		if len(imp.Names) == 0 || imp.Names[0].Name != "*" || javaPkgInRepo(tab, imp.Source) {
			continue
		}
		owner, e := javaImportedType(tab, imp.Source, 0)
		if owner != nil {
			if m, _ := javaFindMethod(tab, owner, r.Name); m != nil && m.Kind == KindMethod {
				return Bound(m, RuleImport)
			}
		} else if e {
			// import static org.junit.Assert.*; (a package's types hold
			// no methods)
			_, last := LastSegment(imp.Source)
			ext = ext || IsUpper(last)
		}
	}
	if ext || javaObjectMethods[r.Name] {
		return Unbound(RuleExternal, 0)
	}
	return javaUniqueMethod(tab, r.Name)
}

func javaResolveQualified(ctx *Context, r *Ref, depth int) Resolution {
	tab := ctx.Table
	q := r.Qualifier
	cls := javaClassOf(ctx)
	segs := SplitQualifier(q)
	self := segs[0] == "this" || segs[0] == "super"
	var v javaValue
	rule := RuleReceiver
	rest := segs[1:]
	switch {
	case q == "this" && cls != nil && r.Name == cls.Name && r.QualifierCall == "":
		// this(...): another constructor of the class
		if c := javaConstructor(tab, cls, ctx.From); c != nil {
			return Bound(c, RuleSameFile)
		}
		v.t = cls
	case r.QualifierCall != "":
		// a.b().m(), or x.m() with x = a.b(): the type b returns; what
		// follows the call in the qualifier are fields
		v = javaCallResult(ctx, r.QualifierCall, r.QualifierType, depth)
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
	case self && r.QualifierType != "" && (segs[0] == "super" || cls == nil || r.QualifierType != cls.Qualified()):
		// this and super in an anonymous class body: its base type
		v = javaTypeValue(ctx, r.QualifierType)
	case self && cls == nil:
		return Unbound(RuleUnresolved, 0)
	case q == "super":
		return javaResolveSuper(ctx, r, cls)
	case segs[0] == "this":
		v.t = cls
	case r.QualifierType != "":
		v = javaTypeValue(ctx, r.QualifierType)
	default:
		var res *Resolution
		v, rule, rest, res = javaHeadValue(ctx, r, cls, segs)
		if res != nil {
			return *res
		}
	}
	for _, s := range rest {
		if v.t == nil {
			break
		}
		if s == "this" {
			rule = RuleReceiver // Outer.this: the enclosing instance, of type Outer
			continue
		}
		if strings.ContainsAny(s, "()[") {
			v = javaValue{}
			break
		}
		fv, found := javaFieldValue(tab, v.t, s, 0)
		if !found {
			if nt := javaNestedType(tab, v.t, s, 0); nt != nil {
				v.t = nt
				continue
			}
		}
		fv.weak = v.weak
		v, rule = fv, RuleReceiver
	}
	if v.t == nil {
		if v.ext {
			return Unbound(RuleExternal, 0) // a method of a library type
		}
		return javaUnknownReceiver(tab, r.Name, v.lib)
	}
	m, ext := javaFindMethod(tab, v.t, r.Name)
	if m != nil {
		if v.weak {
			rule = RuleUniqueName
		}
		return Bound(m, rule)
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// javaTypeValue is the value of a type the extractor wrote down.
func javaTypeValue(ctx *Context, typ string) javaValue {
	t, rule := javaResolveType(ctx.Table, ctx.File, javaFrom(ctx), typ)
	return javaValue{t: t, ext: t == nil && rule == RuleExternal}
}

// javaHeadValue works out the first part of a qualifier the extractor
// could not type: a field the class inherits, a statically imported
// field, a type (Type.m(), Outer.Inner.m(), a.b.Type.m()). It returns the
// value, the rule for a static call, the parts of the qualifier left, or
// a final resolution.
func javaHeadValue(ctx *Context, r *Ref, cls *Target, segs []string) (javaValue, string, []string, *Resolution) {
	tab := ctx.Table
	head := segs[0]
	done := func(res Resolution) (javaValue, string, []string, *Resolution) {
		return javaValue{}, "", nil, &res
	}
	if strings.HasPrefix(head, "new ") || strings.HasPrefix(head, "(") || strings.HasPrefix(head, `"`) {
		return done(javaUnknownReceiver(tab, r.Name, false))
	}
	// a field the class or a class around it inherits, which the
	// extractor could not see (it saw their own fields: a name it left
	// untyped that one of them declares is a local shadowing it)
	for c := cls; c != nil; c = javaOuter(tab, c) {
		for _, b := range c.Bases {
			bt, _ := javaResolveBase(tab, c, b, 0)
			if bt == nil || bt.ID == c.ID {
				continue
			}
			if v, found := javaFieldValue(tab, bt, head, 1); found {
				return v, RuleReceiver, segs[1:], nil
			}
		}
	}
	// a field brought by a static import, single or on demand
	bind := javaBindings(ctx.File)
	if b, ok := bind["\x00"+head]; ok {
		if owner, ext := javaImportedType(tab, b.Imp.Source, 0); owner != nil {
			if v, found := javaFieldValue(tab, owner, head, 0); found {
				return v, RuleReceiver, segs[1:], nil
			}
		} else if ext {
			return done(Unbound(RuleExternal, 0))
		}
	}
	if !IsUpper(head) || strings.ToUpper(head) == head {
		for i := range ctx.File.Imports {
			imp := &ctx.File.Imports[i]
			if len(imp.Names) == 0 || imp.Names[0].Name != "*" || javaPkgInRepo(tab, imp.Source) {
				continue
			}
			if owner, _ := javaImportedType(tab, imp.Source, 0); owner != nil {
				if v, found := javaFieldValue(tab, owner, head, 0); found {
					return v, RuleReceiver, segs[1:], nil
				}
			}
		}
	}
	t, tr, used := javaQualifierType(ctx, segs)
	switch {
	case t != nil:
		return javaValue{t: t}, tr, segs[used:], nil
	case tr == RuleExternal:
		return done(Unbound(RuleExternal, 0))
	}
	if IsUpper(head) && len(segs) == 1 {
		// Type.m() with a type the repository lacks (generated code): a
		// method of a class of that name, or nothing
		ms := Pick(tab.ByName(r.Name), func(m *Target) bool {
			_, c := LastSegment(m.Container)
			return m.Kind == KindMethod && c == head && isJavaPath(m.Path)
		})
		if m := javaOneFamily(tab, ms); m != nil {
			return done(Bound(m, RuleUniqueName))
		}
		return done(Unbound(RuleUnresolved, len(ms)))
	}
	return done(javaUnknownReceiver(tab, r.Name, false))
}

// javaQualifierType resolves the longest leading part of a qualifier
// that names a type. used is how many parts it took.
func javaQualifierType(ctx *Context, segs []string) (t *Target, rule string, used int) {
	tab := ctx.Table
	head := javaStripType(segs[0])
	t, rule = javaResolveSimpleType(tab, ctx.File, javaFrom(ctx), head, 0)
	if t != nil {
		used = 1
		for used < len(segs) {
			nt := javaNestedType(tab, t, segs[used], 0)
			if nt == nil {
				break
			}
			t = nt
			used++
		}
		return t, rule, used
	}
	if rule == RuleExternal || len(segs) == 1 || IsUpper(head) {
		return nil, rule, 0
	}
	// a.b.Type: a package, then a type
	for k := len(segs) - 1; k >= 1; k-- {
		pkg := strings.Join(segs[:k], ".")
		if !javaPkgInRepo(tab, pkg) {
			continue
		}
		t = javaTopType(tab, pkg, javaStripType(segs[k]), "")
		if t == nil {
			return nil, RuleUnresolved, 0
		}
		used = k + 1
		for used < len(segs) {
			nt := javaNestedType(tab, t, segs[used], 0)
			if nt == nil {
				break
			}
			t = nt
			used++
		}
		if t.Module == ctx.File.Module {
			return t, RuleSamePackage, used
		}
		return t, RuleImport, used
	}
	// a lower-case head that is no variable, field or package of ours,
	// followed by a type: java.util.Objects.m()
	for _, s := range segs[1:] {
		if IsUpper(s) {
			return nil, RuleExternal, 0
		}
	}
	return nil, RuleUnresolved, 0
}

// javaResolveSuper binds super.m() and super(...).
func javaResolveSuper(ctx *Context, r *Ref, cls *Target) Resolution {
	tab := ctx.Table
	ext := len(cls.Bases) == 0
	for i, b := range cls.Bases {
		bt, rule := javaResolveBase(tab, cls, b, 0)
		if bt == nil {
			if rule == RuleExternal {
				ext = true
			}
			continue
		}
		if i == 0 && r.Name == bt.Name {
			// super(...): a constructor of the superclass
			if c := javaConstructor(tab, bt, nil); c != nil {
				return Bound(c, RuleReceiver)
			}
			return Bound(bt, RuleReceiver)
		}
		m, e := javaFindMethod(tab, bt, r.Name)
		if m != nil {
			return Bound(m, RuleReceiver)
		}
		ext = ext || e
	}
	if ext || javaObjectMethods[r.Name] {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// javaConstructor is the first constructor of typ other than self.
func javaConstructor(tab Table, typ, self *Target) *Target {
	q := typ.Qualified()
	for _, t := range tab.ByName(typ.Name) {
		if t.Kind == KindConstructor && t.Path == typ.Path && t.Container == q && (self == nil || t.ID != self.ID) {
			return t
		}
	}
	return nil
}

// javaCallResult is the value a call returns: fn is the call as the
// Extractor rendered it ("a.b().c"), headType the type of its first part.
// Of overloads that return different types, the first whose type
// resolves, as a guess.
func javaCallResult(ctx *Context, fn, headType string, depth int) javaValue {
	tab := ctx.Table
	r := ChainCallRef(fn, headType)
	if r == nil {
		return javaValue{}
	}
	res := javaResolve(ctx, r, depth+1)
	if res.Rule == RuleExternal {
		switch {
		case javaObjectMethods[r.Name]:
			// getClass(), toString(), hashCode(): a Class, a String, an int
			return javaValue{ext: true}
		case r.QualifierType == "" && r.QualifierCall == "" && IsUpper(r.Qualifier) &&
			!strings.ContainsAny(r.Qualifier, ".(") && !javaIdentityCalls[r.Name]:
			// Library.factory(): a value of the library's own types
			return javaValue{ext: true}
		}
		return javaValue{lib: true}
	}
	m := res.Target
	if m == nil || m.Kind == KindConstructor || IsTypeKind(m.Kind) {
		return javaValue{}
	}
	weak := res.Rule == RuleUniqueName
	fi := tab.File(m.Path)
	t, rule := javaResolveType(tab, fi, m.Qualified(), m.Returns)
	if t == nil && m.Kind == KindMethod {
		for _, o := range tab.ByName(m.Name) {
			if o.Kind == KindMethod && o.Path == m.Path && o.Container == m.Container && o.Returns != m.Returns {
				if ot, _ := javaResolveType(tab, fi, o.Qualified(), o.Returns); ot != nil {
					// which overload is called is a guess: say so
					return javaValue{t: ot, weak: true}
				}
			}
		}
	}
	return javaValue{t: t, ext: t == nil && rule == RuleExternal, weak: weak}
}

// javaIdentityCalls return their argument: their result may be of any
// type.
var javaIdentityCalls = map[string]bool{
	"requireNonNull": true, "requireNonNullElse": true, "requireNonNullElseGet": true, "checkNotNull": true,
	"notNull": true, "cast": true, "firstNonNull": true, "defaultIfNull": true,
}

// javaUnknownReceiver binds a method call on a value of unknown type:
// Object's methods are external; a value from a library whose method name
// is common is a library's; else the method is found by unique name.
func javaUnknownReceiver(tab Table, name string, lib bool) Resolution {
	if javaObjectMethods[name] {
		return Unbound(RuleExternal, 0)
	}
	res := javaUniqueMethod(tab, name)
	if lib && res.Target == nil && javaCommonMethods[name] {
		return Unbound(RuleExternal, 0)
	}
	return res
}

// javaUniqueMethod binds a call whose receiver type is unknown to the only
// method of that name in the repository, if the name is distinctive. The
// overloads of a method count as one, and so do the overrides of a method
// declared once in a type that all the others' types extend. A name no
// method of the repository has is external.
func javaUniqueMethod(tab Table, name string) Resolution {
	ms := Pick(tab.ByName(name), func(t *Target) bool { return t.Kind == KindMethod && isJavaPath(t.Path) })
	if len(ms) == 0 {
		return Unbound(RuleExternal, 0)
	}
	m := javaOneFamily(tab, ms)
	if m == nil {
		return Unbound(RuleAmbiguous, len(ms))
	}
	if javaCommonMethods[name] {
		return Unbound(RuleUnresolved, len(ms))
	}
	return Bound(m, RuleUniqueName)
}

// maxJavaFamily bounds the candidates javaOneFamily compares.
const maxJavaFamily = 16

// javaOneFamily returns the root of ms when they are the overloads and
// overrides of one method: one declaration whose type every other
// candidate's type is, or extends.
func javaOneFamily(tab Table, ms []*Target) *Target {
	if len(ms) == 0 || len(ms) > maxJavaFamily {
		return nil
	}
	same := true
	for _, m := range ms[1:] {
		if m.Path != ms[0].Path || m.Container != ms[0].Container {
			same = false
			break
		}
	}
	if same {
		return ms[0]
	}
	owners := make([]*Target, len(ms))
	for i, m := range ms {
		owners[i] = javaEnclosingType(tab, m.Path, m.Container)
		if owners[i] == nil {
			return nil
		}
	}
	for i, root := range owners {
		all := true
		for j, o := range owners {
			if o.ID != root.ID && !javaSubtype(tab, o, root, 0) {
				all = false
				break
			}
			_ = j
		}
		if all {
			return ms[i]
		}
	}
	return nil
}

// javaSubtype reports whether t extends or implements root, in the
// repository.
func javaSubtype(tab Table, t, root *Target, depth int) bool {
	if depth > MaxDepth {
		return false
	}
	for _, b := range t.Bases {
		bt, _ := javaResolveBase(tab, t, b, 0)
		if bt == nil || bt.ID == t.ID {
			continue
		}
		if bt.ID == root.ID || javaSubtype(tab, bt, root, depth+1) {
			return true
		}
	}
	return false
}
