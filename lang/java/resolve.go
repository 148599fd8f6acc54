package java

import (
	"path"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// langTypes are the types of java.lang, which every file sees without
// an import.
var langTypes = lang.WordFile(data, "types.txt")

// commonMethods are method names of the JDK's everyday types so
// widespread that a unique definition in the repository says little about
// which one a call on a value of unknown type means.
var commonMethods = lang.WordFile(data, "common_methods.txt")

// objectMethods are the methods every object has: on a value of
// unknown type they mean Object's. enumMethods are those every enum
// has, which the index does not tell from other classes.
var (
	objectMethods = map[string]bool{
		"equals": true, "hashCode": true, "toString": true, "getClass": true, "clone": true, "finalize": true,
		"notify": true, "notifyAll": true, "wait": true,
	}
	enumMethods = map[string]bool{
		"values": true, "valueOf": true, "ordinal": true, "name": true, "compareTo": true, "getDeclaringClass": true,
		"describeConstable": true,
	}
)

// bindings maps the names a file's single imports bind: a type's
// simple name to its single-type import, "\x00"+member to a single static
// import.
func bindings(fi *lang.FileInfo) map[string]lang.Binding {
	return fi.BindingsWith(func() map[string]lang.Binding {
		m := map[string]lang.Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			switch {
			case len(imp.Names) == 0:
				_, name := lang.LastSegment(imp.Source)
				m[name] = lang.Binding{Imp: imp}
			case imp.Names[0].Name != "*":
				m["\x00"+imp.Names[0].Name] = lang.Binding{Imp: imp, Name: imp.Names[0].Name}
			}
		}
		return m
	})
}

func isPath(p string) bool { return strings.HasSuffix(p, ".java") }

// typePath reports whether the types of file p are Java's to see: a
// Java file's, and a Kotlin file's (not a script's), which compile to the
// same classes in the same packages. A project that mixes the two (moshi:
// Kotlin sources, Java tests and examples) imports one from the other.
func typePath(p string) bool { return isPath(p) || strings.HasSuffix(p, ".kt") }

// pkgLangs are the languages whose files declare the packages Java
// imports from.
var pkgLangs = [...]string{"java", "kotlin"}

// pkgInRepo reports whether some Java or Kotlin file of the repository
// declares exactly package pkg.
func pkgInRepo(tab lang.Table, pkg string) bool {
	if pkg == "" {
		return false
	}
	return tab.Memo("java.pkg\x00"+pkg, func() string {
		for _, l := range pkgLangs {
			for _, f := range tab.ModuleFiles(l, pkg) {
				if fi := tab.File(f); fi != nil && fi.Module == pkg && typePath(f) {
					return "1"
				}
			}
		}
		return ""
	}) != ""
}

// topType finds the top-level type name of package pkg; dir breaks
// ties between source roots that repeat a package (main and test).
func topType(tab lang.Table, pkg, name, dir string) *lang.Target {
	cands := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return t.Container == "" && lang.IsTypeKind(t.Kind) && t.Module == pkg && typePath(t.Path)
	})
	if pkg == "" {
		// the default package: files without a package clause, per directory
		cands = lang.Pick(cands, func(t *lang.Target) bool { return t.Dir() == dir })
	}
	if len(cands) > 1 && dir != "" {
		if same := lang.Pick(cands, func(t *lang.Target) bool { return t.Dir() == dir }); len(same) == 1 {
			return same[0]
		}
	}
	return lang.One(lang.PreferDefinitions(cands))
}

// findMember finds the member called name of kind ("type" for any type)
// declared directly in type typ; of overloads, the first.
func findMember(tab lang.Table, typ *lang.Target, name, kind string) *lang.Target {
	q := typ.Qualified()
	for _, t := range tab.ByName(name) {
		if t.Path != typ.Path || t.Container != q {
			continue
		}
		if kind == "type" && lang.IsTypeKind(t.Kind) || t.Kind == kind {
			return t
		}
	}
	return nil
}

// importedType resolves a fully qualified type name. It returns the
// type, or external when no prefix of the name is a package of the
// repository.
func importedType(tab lang.Table, fq string, depth int) (*lang.Target, bool) {
	segs := strings.Split(fq, ".")
	for k := len(segs) - 1; k >= 1; k-- {
		pkg := strings.Join(segs[:k], ".")
		if !pkgInRepo(tab, pkg) {
			continue
		}
		if !lang.IsUpper(segs[k]) {
			// a sub-package the repository lacks: a.b.gen.Type
			return nil, true
		}
		t := topType(tab, pkg, segs[k], "")
		for _, s := range segs[k+1:] {
			if t == nil {
				break
			}
			t = nestedType(tab, t, s, depth+1)
		}
		return t, false
	}
	return nil, true
}

// resolveType resolves a type as written in file fi by code of the
// symbol whose qualified name is from (the member types of the classes
// around it are in scope). It returns the type and the rule that found
// it, or RuleExternal, RuleAmbiguous or RuleUnresolved.
func resolveType(tab lang.Table, fi *lang.FileInfo, from, typ string) (*lang.Target, string) {
	return resolveTypeIn(tab, fi, from, typ, 0)
}

// resolveBase resolves a supertype named in the declaration of cls.
// The clause lies outside cls's body, so it sees the scope around cls,
// not cls's own member types.
func resolveBase(tab lang.Table, cls *lang.Target, typ string, depth int) (*lang.Target, string) {
	fi := tab.File(cls.Path)
	if fi == nil {
		return nil, lang.RuleUnresolved
	}
	if depth > 0 {
		// inside another resolution, where the depth bound may cut it
		// short: not worth remembering
		return resolveTypeIn(tab, fi, cls.Container, typ, depth)
	}
	v := tab.Memo("java.base\x00"+cls.ID+"\x00"+typ, func() string {
		t, rule := resolveTypeIn(tab, fi, cls.Container, typ, 0)
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
	return nil, lang.RuleUnresolved
}

func resolveTypeIn(tab lang.Table, fi *lang.FileInfo, from, typ string, depth int) (*lang.Target, string) {
	typ = strings.TrimSuffix(stripType(typ), "...")
	if typ == "" || fi == nil || depth > lang.MaxDepth {
		return nil, lang.RuleUnresolved
	}
	if strings.HasSuffix(typ, "]") {
		return nil, lang.RuleExternal // an array: Object's methods
	}
	switch typ {
	case "int", "long", "short", "byte", "char", "boolean", "float", "double", "void":
		return nil, lang.RuleExternal
	}
	segs := strings.Split(typ, ".")
	t, rule := resolveSimpleType(tab, fi, from, segs[0], depth)
	if t != nil {
		for _, s := range segs[1:] {
			if t = nestedType(tab, t, s, depth+1); t == nil {
				return nil, lang.RuleUnresolved
			}
		}
		return t, rule
	}
	if rule == lang.RuleExternal || len(segs) == 1 {
		return nil, rule
	}
	// a fully qualified name
	t, ext := importedType(tab, typ, depth)
	switch {
	case t != nil:
		if t.Module == fi.Module {
			return t, lang.RuleSamePackage
		}
		return t, lang.RuleImport
	case ext:
		return nil, lang.RuleExternal
	}
	return nil, lang.RuleUnresolved
}

// nestedType finds a member type of t, declared in it or inherited
// from its supertypes.
func nestedType(tab lang.Table, t *lang.Target, name string, depth int) *lang.Target {
	if m := findMember(tab, t, name, "type"); m != nil {
		return m
	}
	if depth > lang.MaxDepth {
		return nil
	}
	for _, b := range t.Bases {
		if bt, _ := resolveBase(tab, t, b, depth+1); bt != nil && bt.ID != t.ID {
			if m := nestedType(tab, bt, name, depth+1); m != nil {
				return m
			}
		}
	}
	return nil
}

// extBase reports whether t or one of its supertypes in the repository
// has a supertype outside it.
func extBase(tab lang.Table, t *lang.Target, depth int) bool {
	if depth > lang.MaxDepth {
		return false
	}
	for _, b := range t.Bases {
		bt, rule := resolveBase(tab, t, b, 0)
		if rule == lang.RuleExternal || bt != nil && bt.ID != t.ID && extBase(tab, bt, depth+1) {
			return true
		}
	}
	return false
}

// resolveSimpleType resolves a simple type name, in the order Java
// scopes them: the classes around the code and their member types,
// inherited ones too, single-type imports, the package, java.lang,
// on-demand imports.
func resolveSimpleType(tab lang.Table, fi *lang.FileInfo, from, name string, depth int) (*lang.Target, string) {
	// the file's own types, innermost first
	var best *lang.Target
	for _, t := range tab.ByName(name) {
		if t.Path != fi.Path || !lang.IsTypeKind(t.Kind) {
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
		return best, lang.RuleSameFile
	}
	// member types the classes around the code inherit, if the
	// repository has a member type of that name at all
	member := false
	for _, t := range tab.ByName(name) {
		if t.Container != "" && lang.IsTypeKind(t.Kind) {
			member = true
			break
		}
	}
	for c := lang.EnclosingType(tab, fi.Path, from); member && c != nil; c = lang.Outer(tab, c) {
		if m := nestedType(tab, c, name, depth+1); m != nil {
			return m, lang.RuleSameFile
		}
	}
	bind := bindings(fi)
	if b, ok := bind[name]; ok {
		t, ext := importedType(tab, b.Imp.Source, depth)
		if t != nil {
			return t, lang.RuleImport
		}
		if ext {
			return nil, lang.RuleExternal
		}
		return nil, lang.RuleUnresolved
	}
	// a member type brought by a static import
	if b, ok := bind["\x00"+name]; ok {
		owner, ext := importedType(tab, b.Imp.Source, depth)
		if owner != nil {
			if m := findMember(tab, owner, name, "type"); m != nil {
				return m, lang.RuleImport
			}
		} else if ext && lang.IsUpper(name) {
			return nil, lang.RuleExternal
		}
	}
	if t := topType(tab, fi.Module, name, path.Dir(fi.Path)); t != nil {
		if t.Path == fi.Path {
			return t, lang.RuleSameFile
		}
		return t, lang.RuleSamePackage
	}
	if langTypes.Has(name) {
		return nil, lang.RuleExternal
	}
	extWild := false
	var found []*lang.Target
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if len(imp.Names) == 0 || imp.Names[0].Name != "*" {
			continue
		}
		if pkgInRepo(tab, imp.Source) {
			if t := topType(tab, imp.Source, name, ""); t != nil {
				found = append(found, t)
			}
			continue
		}
		owner, ext := importedType(tab, imp.Source, depth)
		switch {
		case owner != nil:
			if m := nestedType(tab, owner, name, depth+1); m != nil {
				found = append(found, m)
			}
		case ext:
			extWild = true
		}
	}
	if len(found) == 1 {
		return found[0], lang.RuleImport
	}
	if len(found) > 1 {
		return nil, lang.RuleAmbiguous
	}
	if !lang.IsUpper(name) {
		return nil, lang.RuleUnresolved
	}
	// an upper-case name no scope of ours declares, where a library's
	// names are in scope: on-demand imports, member types inherited from
	// a library class
	if extWild {
		return nil, lang.RuleExternal
	}
	for c := lang.EnclosingType(tab, fi.Path, from); c != nil; c = lang.Outer(tab, c) {
		if extBase(tab, c, 0) {
			return nil, lang.RuleExternal
		}
	}
	return nil, lang.RuleUnresolved
}

// members finds methods through supertypes, with java.lang.Object's
// (and Enum's) methods outside the repository.
var members = &lang.MemberRules{
	Own: func(tab lang.Table, typ *lang.Target, name string) *lang.Target {
		if m := findMember(tab, typ, name, lang.KindMethod); m != nil || !strings.HasSuffix(typ.Path, ".kt") {
			return m
		}
		return kotlinProperty(tab, typ, name)
	},
	Bases: func(tab lang.Table, typ *lang.Target, _ int) []lang.BaseRef {
		out := make([]lang.BaseRef, 0, len(typ.Bases))
		for _, b := range typ.Bases {
			bt, rule := resolveBase(tab, typ, b, 0)
			out = append(out, lang.BaseRef{Target: bt, Rule: rule})
		}
		return out
	},
	RootMember: func(_ lang.Table, typ *lang.Target, _ int, name string) bool {
		return (len(typ.Bases) == 0 || typ.Kind == lang.KindInterface) && (objectMethods[name] || enumMethods[name])
	},
}

// kotlinProperty is the property of Kotlin class typ that Java calls
// through its accessor: getPath() calls path, setLenient(b) lenient or
// isLenient, isLenient() isLenient or lenient (moshi's Java tests, 134
// accessor calls on JsonReader and JsonWriter), or nil.
func kotlinProperty(tab lang.Table, typ *lang.Target, name string) *lang.Target {
	for _, prefix := range [...]string{"get", "set", "is"} {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || rest == "" || !lang.IsUpper(rest) {
			continue
		}
		cands := []string{strings.ToLower(rest[:1]) + rest[1:], rest}
		switch prefix {
		case "is":
			cands = append([]string{name}, cands...)
		case "set":
			cands = append(cands, "is"+rest) // var isLenient: setLenient(b)
		}
		for _, c := range cands {
			if f := findMember(tab, typ, c, lang.KindVariable); f != nil {
				return f
			}
		}
	}
	return nil
}

// findMethod finds method name of typ or of its supertypes. ext
// reports that the search met a supertype outside the repository, where
// the method may be. A record's component accessor binds to the
// component.
func findMethod(tab lang.Table, typ *lang.Target, name string) (m *lang.Target, ext bool) {
	if m, ext = members.FindMember(tab, typ, name, 0); m == nil {
		if f := findMember(tab, typ, name, lang.KindVariable); f != nil {
			return f, false
		}
	}
	return m, ext
}

// value is what resolution knows of the type of a value.
type value struct {
	t    *lang.Target // a type of the repository
	ext  bool         // a type outside the repository: its methods are external
	lib  bool         // unknown, but the value came from a library
	weak bool         // found through a guess by unique name
}

// fieldValue is the type of field name of typ or of its supertypes;
// found reports that the field exists.
func fieldValue(tab lang.Table, typ *lang.Target, name string, depth int) (v value, found bool) {
	for _, f := range typ.Fields {
		if f.Name == name {
			t, rule := resolveType(tab, tab.File(typ.Path), typ.Qualified(), f.Type)
			return value{t: t, ext: rule == lang.RuleExternal}, true
		}
	}
	if depth > lang.MaxDepth {
		return v, false
	}
	for _, b := range typ.Bases {
		bt, rule := resolveBase(tab, typ, b, 0)
		if bt == nil {
			// a field of a library supertype: its type is unknown
			v.lib = v.lib || rule == lang.RuleExternal
			continue
		}
		if bt.ID == typ.ID {
			continue
		}
		if fv, ok := fieldValue(tab, bt, name, depth+1); ok {
			return fv, true
		}
	}
	return v, false
}

func resolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	tab := ctx.Table
	switch name {
	case "":
		t, ext := importedType(tab, imp.Source, 0)
		if t != nil {
			return lang.Bound(t, lang.RuleImport)
		}
		if ext {
			return lang.Unbound(lang.RuleExternal, 0)
		}
	case "*":
		if pkgInRepo(tab, imp.Source) {
			var first string
		files:
			for _, l := range pkgLangs {
				for _, f := range tab.ModuleFiles(l, imp.Source) {
					if fi := tab.File(f); fi == nil || fi.Module != imp.Source || !typePath(f) {
						continue
					}
					if first == "" {
						first = f
					}
					if !lang.TestFile(tab, f) {
						first = f
						break files
					}
				}
			}
			if t := lang.ModuleTarget(tab, first); t != nil {
				return lang.Bound(t, lang.RuleImport)
			}
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		t, ext := importedType(tab, imp.Source, 0)
		if t != nil {
			return lang.Bound(t, lang.RuleImport)
		}
		if ext {
			return lang.Unbound(lang.RuleExternal, 0)
		}
	default:
		owner, ext := importedType(tab, imp.Source, 0)
		if owner == nil {
			if ext {
				return lang.Unbound(lang.RuleExternal, 0)
			}
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		if m := staticMember(tab, owner, name); m != nil {
			return lang.Bound(m, lang.RuleImport)
		}
		if extBase(tab, owner, 0) {
			return lang.Unbound(lang.RuleExternal, 0)
		}
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// staticMember finds what a static import of name from owner brings:
// a method, a field or a member type, its own or inherited.
func staticMember(tab lang.Table, owner *lang.Target, name string) *lang.Target {
	for _, kind := range []string{lang.KindMethod, lang.KindVariable, "type"} {
		if m := findMember(tab, owner, name, kind); m != nil {
			return m
		}
	}
	if m, _ := findMethod(tab, owner, name); m != nil {
		return m
	}
	return nestedType(tab, owner, name, 0)
}

func resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	return resolveRef(ctx, r, 0)
}

// from is the qualified name of the symbol a reference is made in,
// which scopes type names.
func from(ctx *lang.Context) string {
	if ctx.From == nil || ctx.From.Kind == lang.KindModule {
		return ""
	}
	return ctx.From.Qualified()
}

// maxResolveDepth bounds the recursion through call chains
// (a.b().c().d()), each level a shorter chain.
const maxResolveDepth = lang.MaxChain + 4

func resolveRef(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	if depth > maxResolveDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	switch r.Kind {
	case lang.RefNew, lang.RefExtends, lang.RefImplements:
		return resolveTypeRef(ctx, r)
	}
	if r.Qualifier == "" {
		return resolveBare(ctx, r)
	}
	return resolveQualified(ctx, r, depth)
}

// resolveTypeRef binds new T(), extends T and implements T to T.
func resolveTypeRef(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	tab := ctx.Table
	typ := r.Name
	if r.Qualifier != "" {
		typ = r.Qualifier + "." + r.Name
	}
	from := from(ctx)
	if r.Kind != lang.RefNew && ctx.From != nil {
		// a class's supertypes are named outside its body
		from = ctx.From.Container
	}
	if r.Kind == lang.RefNew && r.QualifierType != "" && r.Qualifier == "" {
		// new Inner() in an anonymous class body, or outer.new Inner():
		// a member type of that type first
		if owner, _ := resolveType(tab, ctx.File, from, r.QualifierType); owner != nil {
			if t := nestedType(tab, owner, r.Name, 0); t != nil {
				return lang.Bound(t, lang.RuleReceiver)
			}
		}
	}
	t, rule := resolveType(tab, ctx.File, from, typ)
	if t != nil && ctx.From != nil && t.ID == ctx.From.ID && r.Kind != lang.RefNew {
		return lang.Unbound(lang.RuleUnresolved, 0) // class Foo extends a Foo of elsewhere
	}
	if t != nil {
		return lang.Bound(t, rule)
	}
	return lang.Unbound(rule, 0)
}

// resolveBare binds m(): a method of the class the call is in or of
// its supertypes, then of the classes around it, then a static import.
func resolveBare(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	tab := ctx.Table
	ext := false
	if r.QualifierType != "" {
		// in an anonymous class body: its base type comes first
		if typ, rule := resolveType(tab, ctx.File, from(ctx), r.QualifierType); typ != nil {
			if m, e := findMethod(tab, typ, r.Name); m != nil && m.Kind == lang.KindMethod {
				return lang.Bound(m, lang.RuleReceiver)
			} else {
				ext = e
			}
		} else if rule == lang.RuleExternal {
			ext = true
		}
	}
	for c := lang.ClassOf(ctx); c != nil; c = lang.Outer(tab, c) {
		if m := findMember(tab, c, r.Name, lang.KindMethod); m != nil {
			return lang.Bound(m, lang.RuleSameFile)
		}
		m, e := findMethod(tab, c, r.Name)
		if m != nil && m.Kind == lang.KindMethod {
			return lang.Bound(m, lang.RuleReceiver)
		}
		ext = ext || e
	}
	if b, ok := bindings(ctx.File)["\x00"+r.Name]; ok {
		owner, e := importedType(tab, b.Imp.Source, 0)
		if owner != nil {
			if m, _ := findMethod(tab, owner, r.Name); m != nil {
				return lang.Bound(m, lang.RuleImport)
			}
		} else if e {
			return lang.Unbound(lang.RuleExternal, 0)
		}
	}
	for i := range ctx.File.Imports {
		imp := &ctx.File.Imports[i]
		if len(imp.Names) == 0 || imp.Names[0].Name != "*" || pkgInRepo(tab, imp.Source) {
			continue
		}
		owner, e := importedType(tab, imp.Source, 0)
		if owner != nil {
			if m, _ := findMethod(tab, owner, r.Name); m != nil && m.Kind == lang.KindMethod {
				return lang.Bound(m, lang.RuleImport)
			}
		} else if e {
			// import static org.junit.Assert.*; (a package's types hold
			// no methods)
			_, last := lang.LastSegment(imp.Source)
			ext = ext || lang.IsUpper(last)
		}
	}
	if ext || objectMethods[r.Name] {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return uniqueMethod(tab, r.Name)
}

func resolveQualified(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	tab := ctx.Table
	q := r.Qualifier
	cls := lang.ClassOf(ctx)
	segs := lang.SplitQualifier(q)
	self := segs[0] == "this" || segs[0] == "super"
	var v value
	rule := lang.RuleReceiver
	rest := segs[1:]
	switch {
	case q == "this" && cls != nil && r.Name == cls.Name && r.QualifierCall == "":
		// this(...): another constructor of the class
		if c := constructor(tab, cls, ctx.From); c != nil {
			return lang.Bound(c, lang.RuleSameFile)
		}
		v.t = cls
	case r.QualifierCall != "":
		// a.b().m(), or x.m() with x = a.b(): the type b returns; what
		// follows the call in the qualifier are fields
		v = callResult(ctx, r.QualifierCall, r.QualifierType, depth)
		rest = lang.AfterCall(segs)
	case self && r.QualifierType != "" && (segs[0] == "super" || cls == nil || r.QualifierType != cls.Qualified()):
		// this and super in an anonymous class body: its base type
		v = typeValue(ctx, r.QualifierType)
	case self && cls == nil:
		return lang.Unbound(lang.RuleUnresolved, 0)
	case q == "super":
		return resolveSuper(ctx, r, cls)
	case segs[0] == "this":
		v.t = cls
	case r.QualifierType != "":
		v = typeValue(ctx, r.QualifierType)
	default:
		var res *lang.Resolution
		v, rule, rest, res = headValue(ctx, r, cls, segs)
		if res != nil {
			return *res
		}
	}
	for _, s := range rest {
		if v.t == nil {
			break
		}
		if s == "this" {
			rule = lang.RuleReceiver // Outer.this: the enclosing instance, of type Outer
			continue
		}
		if strings.ContainsAny(s, "()[") {
			v = value{}
			break
		}
		fv, found := fieldValue(tab, v.t, s, 0)
		if !found {
			if nt := nestedType(tab, v.t, s, 0); nt != nil {
				v.t = nt
				continue
			}
		}
		fv.weak = v.weak
		v, rule = fv, lang.RuleReceiver
	}
	if v.t == nil {
		if v.ext {
			return lang.Unbound(lang.RuleExternal, 0) // a method of a library type
		}
		return unknownReceiver(tab, r.Name, v.lib)
	}
	m, ext := findMethod(tab, v.t, r.Name)
	if m != nil {
		if v.weak {
			rule = lang.RuleUniqueName
		}
		return lang.Bound(m, rule)
	}
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// typeValue is the value of a type the extractor wrote down.
func typeValue(ctx *lang.Context, typ string) value {
	t, rule := resolveType(ctx.Table, ctx.File, from(ctx), typ)
	return value{t: t, ext: t == nil && rule == lang.RuleExternal}
}

// headValue works out the first part of a qualifier the extractor
// could not type: a field the class inherits, a statically imported
// field, a type (Type.m(), Outer.Inner.m(), a.b.Type.m()). It returns the
// value, the rule for a static call, the parts of the qualifier left, or
// a final resolution.
func headValue(ctx *lang.Context, r *lang.Ref, cls *lang.Target, segs []string) (value, string, []string, *lang.Resolution) {
	tab := ctx.Table
	head := segs[0]
	done := func(res lang.Resolution) (value, string, []string, *lang.Resolution) {
		return value{}, "", nil, &res
	}
	if strings.HasPrefix(head, "new ") || strings.HasPrefix(head, "(") || strings.HasPrefix(head, `"`) {
		return done(unknownReceiver(tab, r.Name, false))
	}
	// a field the class or a class around it inherits, which the
	// extractor could not see (it saw their own fields: a name it left
	// untyped that one of them declares is a local shadowing it)
	for c := cls; c != nil; c = lang.Outer(tab, c) {
		for _, b := range c.Bases {
			bt, _ := resolveBase(tab, c, b, 0)
			if bt == nil || bt.ID == c.ID {
				continue
			}
			if v, found := fieldValue(tab, bt, head, 1); found {
				return v, lang.RuleReceiver, segs[1:], nil
			}
		}
	}
	// a field brought by a static import, single or on demand
	bind := bindings(ctx.File)
	if b, ok := bind["\x00"+head]; ok {
		if owner, ext := importedType(tab, b.Imp.Source, 0); owner != nil {
			if v, found := fieldValue(tab, owner, head, 0); found {
				return v, lang.RuleReceiver, segs[1:], nil
			}
		} else if ext {
			return done(lang.Unbound(lang.RuleExternal, 0))
		}
	}
	if !lang.IsUpper(head) || strings.ToUpper(head) == head {
		for i := range ctx.File.Imports {
			imp := &ctx.File.Imports[i]
			if len(imp.Names) == 0 || imp.Names[0].Name != "*" || pkgInRepo(tab, imp.Source) {
				continue
			}
			if owner, _ := importedType(tab, imp.Source, 0); owner != nil {
				if v, found := fieldValue(tab, owner, head, 0); found {
					return v, lang.RuleReceiver, segs[1:], nil
				}
			}
		}
	}
	t, tr, used := qualifierType(ctx, segs)
	switch {
	case t != nil:
		return value{t: t}, tr, segs[used:], nil
	case tr == lang.RuleExternal:
		return done(lang.Unbound(lang.RuleExternal, 0))
	}
	if lang.IsUpper(head) && len(segs) == 1 {
		// Type.m() with a type the repository lacks (generated code): a
		// method of a class of that name, or nothing
		ms := lang.Pick(tab.ByName(r.Name), func(m *lang.Target) bool {
			_, c := lang.LastSegment(m.Container)
			return m.Kind == lang.KindMethod && c == head && isPath(m.Path)
		})
		if m := oneFamily(tab, ms); m != nil {
			return done(lang.Bound(m, lang.RuleUniqueName))
		}
		return done(lang.Unbound(lang.RuleUnresolved, len(ms)))
	}
	return done(unknownReceiver(tab, r.Name, false))
}

// qualifierType resolves the longest leading part of a qualifier
// that names a type. used is how many parts it took.
func qualifierType(ctx *lang.Context, segs []string) (t *lang.Target, rule string, used int) {
	tab := ctx.Table
	head := stripType(segs[0])
	t, rule = resolveSimpleType(tab, ctx.File, from(ctx), head, 0)
	if t != nil {
		used = 1
		for used < len(segs) {
			nt := nestedType(tab, t, segs[used], 0)
			if nt == nil {
				break
			}
			t = nt
			used++
		}
		return t, rule, used
	}
	if rule == lang.RuleExternal || len(segs) == 1 || lang.IsUpper(head) {
		return nil, rule, 0
	}
	// a.b.Type: a package, then a type
	for k := len(segs) - 1; k >= 1; k-- {
		pkg := strings.Join(segs[:k], ".")
		if !pkgInRepo(tab, pkg) {
			continue
		}
		t = topType(tab, pkg, stripType(segs[k]), "")
		if t == nil {
			return nil, lang.RuleUnresolved, 0
		}
		used = k + 1
		for used < len(segs) {
			nt := nestedType(tab, t, segs[used], 0)
			if nt == nil {
				break
			}
			t = nt
			used++
		}
		if t.Module == ctx.File.Module {
			return t, lang.RuleSamePackage, used
		}
		return t, lang.RuleImport, used
	}
	// a lower-case head that is no variable, field or package of ours,
	// followed by a type: java.util.Objects.m()
	for _, s := range segs[1:] {
		if lang.IsUpper(s) {
			return nil, lang.RuleExternal, 0
		}
	}
	return nil, lang.RuleUnresolved, 0
}

// resolveSuper binds super.m() and super(...).
func resolveSuper(ctx *lang.Context, r *lang.Ref, cls *lang.Target) lang.Resolution {
	tab := ctx.Table
	ext := len(cls.Bases) == 0
	for i, b := range cls.Bases {
		bt, rule := resolveBase(tab, cls, b, 0)
		if bt == nil {
			if rule == lang.RuleExternal {
				ext = true
			}
			continue
		}
		if i == 0 && r.Name == bt.Name {
			// super(...): a constructor of the superclass
			if c := constructor(tab, bt, nil); c != nil {
				return lang.Bound(c, lang.RuleReceiver)
			}
			return lang.Bound(bt, lang.RuleReceiver)
		}
		m, e := findMethod(tab, bt, r.Name)
		if m != nil {
			return lang.Bound(m, lang.RuleReceiver)
		}
		ext = ext || e
	}
	if ext || objectMethods[r.Name] {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// constructor is the first constructor of typ other than self.
func constructor(tab lang.Table, typ, self *lang.Target) *lang.Target {
	q := typ.Qualified()
	for _, t := range tab.ByName(typ.Name) {
		if t.Kind == lang.KindConstructor && t.Path == typ.Path && t.Container == q && (self == nil || t.ID != self.ID) {
			return t
		}
	}
	return nil
}

// callResult is the value a call returns: fn is the call as the
// extractor rendered it ("a.b().c"), headType the type of its first part.
// Of overloads that return different types, the first whose type
// resolves, as a guess.
func callResult(ctx *lang.Context, fn, headType string, depth int) value {
	tab := ctx.Table
	r := lang.ChainCallRef(fn, headType)
	if r == nil {
		return value{}
	}
	res := resolveRef(ctx, r, depth+1)
	if res.Rule == lang.RuleExternal {
		switch {
		case objectMethods[r.Name]:
			// getClass(), toString(), hashCode(): a Class, a String, an int
			return value{ext: true}
		case r.QualifierType == "" && r.QualifierCall == "" && lang.IsUpper(r.Qualifier) &&
			!strings.ContainsAny(r.Qualifier, ".(") && !identityCalls[r.Name]:
			// Library.factory(): a value of the library's own types
			return value{ext: true}
		}
		return value{lib: true}
	}
	m := res.Target
	if m == nil || m.Kind == lang.KindConstructor || lang.IsTypeKind(m.Kind) {
		return value{}
	}
	weak := res.Rule == lang.RuleUniqueName
	fi := tab.File(m.Path)
	t, rule := resolveType(tab, fi, m.Qualified(), m.Returns)
	if t == nil && m.Kind == lang.KindMethod {
		for _, o := range tab.ByName(m.Name) {
			if o.Kind == lang.KindMethod && o.Path == m.Path && o.Container == m.Container && o.Returns != m.Returns {
				if ot, _ := resolveType(tab, fi, o.Qualified(), o.Returns); ot != nil {
					// which overload is called is a guess: say so
					return value{t: ot, weak: true}
				}
			}
		}
	}
	return value{t: t, ext: t == nil && rule == lang.RuleExternal, weak: weak}
}

// identityCalls return their argument: their result may be of any
// type.
var identityCalls = map[string]bool{
	"requireNonNull": true, "requireNonNullElse": true, "requireNonNullElseGet": true, "checkNotNull": true,
	"notNull": true, "cast": true, "firstNonNull": true, "defaultIfNull": true,
}

// unknownReceiver binds a method call on a value of unknown type:
// Object's methods are external; a value from a library whose method name
// is common is a library's; else the method is found by unique name.
func unknownReceiver(tab lang.Table, name string, lib bool) lang.Resolution {
	if objectMethods[name] {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	res := uniqueMethod(tab, name)
	if lib && res.Target == nil && commonMethods.Has(name) {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return res
}

// uniqueMethod binds a call whose receiver type is unknown to the only
// method of that name in the repository, if the name is distinctive. The
// overloads of a method count as one, and so do the overrides of a method
// declared once in a type that all the others' types extend. A name no
// method of the repository has is external.
func uniqueMethod(tab lang.Table, name string) lang.Resolution {
	ms := lang.Pick(tab.ByName(name), func(t *lang.Target) bool { return t.Kind == lang.KindMethod && isPath(t.Path) })
	if len(ms) == 0 {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	m := oneFamily(tab, ms)
	if m == nil {
		return lang.Unbound(lang.RuleAmbiguous, len(ms))
	}
	if commonMethods.Has(name) {
		return lang.Unbound(lang.RuleUnresolved, len(ms))
	}
	return lang.Bound(m, lang.RuleUniqueName)
}

// maxFamily bounds the candidates oneFamily compares.
const maxFamily = 16

// oneFamily returns the root of ms when they are the overloads and
// overrides of one method: one declaration whose type every other
// candidate's type is, or extends.
func oneFamily(tab lang.Table, ms []*lang.Target) *lang.Target {
	if len(ms) == 0 || len(ms) > maxFamily {
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
	owners := make([]*lang.Target, len(ms))
	for i, m := range ms {
		owners[i] = lang.Outer(tab, m)
		if owners[i] == nil {
			return nil
		}
	}
	for i, root := range owners {
		all := true
		for j, o := range owners {
			if o.ID != root.ID && !subtype(tab, o, root, 0) {
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

// subtype reports whether t extends or implements root, in the
// repository.
func subtype(tab lang.Table, t, root *lang.Target, depth int) bool {
	if depth > lang.MaxDepth {
		return false
	}
	for _, b := range t.Bases {
		bt, _ := resolveBase(tab, t, b, 0)
		if bt == nil || bt.ID == t.ID {
			continue
		}
		if bt.ID == root.ID || subtype(tab, bt, root, depth+1) {
			return true
		}
	}
	return false
}
