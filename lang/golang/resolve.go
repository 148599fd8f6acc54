package golang

import (
	"path"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

var builtins = lang.WordFile(data, "builtins.txt")

// commonMethods are method names so widespread that a unique definition
// in the repository says little about which one a call means.
var commonMethods = lang.WordFile(data, "common_methods.txt")

// bindings maps the names a Go file's imports bind to their imports.
func bindings(ctx *lang.Context) map[string]lang.Binding {
	return ctx.File.BindingsWith(func() map[string]lang.Binding {
		m := map[string]lang.Binding{}
		for i := range ctx.File.Imports {
			imp := &ctx.File.Imports[i]
			name := imp.Alias
			if name == "_" || (len(imp.Names) > 0 && imp.Names[0].Name == "*") {
				continue
			}
			if name == "" {
				name = packageName(ctx.Table, imp.Source)
			}
			m[name] = lang.Binding{Imp: imp}
		}
		return m
	})
}

// packageName is the name a Go import binds by default: the package
// clause of the imported directory when it is in the repository, else the
// last path element without a version suffix or go- prefix.
func packageName(tab lang.Table, importPath string) string {
	return tab.Memo("go.pkgname\x00"+importPath, func() string { return packageNameUncached(tab, importPath) })
}

func packageNameUncached(tab lang.Table, importPath string) string {
	if dir := importDir(tab, importPath); dir != "" {
		// a compiled file's package clause: a //go:build ignore file
		// beside the package is often a package main
		files := tab.ModuleFiles("go", dir)
		for _, built := range []bool{true, false} {
			for _, f := range files {
				if fi := tab.File(f); fi != nil && fi.Module != "" && !strings.HasSuffix(fi.Module, "_test") &&
					(!built || lang.GoFileBuilt(tab, f)) {
					return fi.Module
				}
			}
		}
	}
	base := path.Base(importPath)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(importPath))
	}
	if i := strings.Index(base, ".v"); i > 0 {
		base = base[:i]
	}
	base = strings.TrimPrefix(base, "go-")
	base = strings.TrimSuffix(base, "-go")
	base = strings.TrimSuffix(base, ".go")
	return strings.ReplaceAll(base, "-", "")
}

// importDir maps an import path to a directory of the repository, or ""
// when it lies outside.
func importDir(tab lang.Table, importPath string) string {
	return tab.Memo("go.importdir\x00"+importPath, func() string { return importDirUncached(tab, importPath) })
}

func importDirUncached(tab lang.Table, importPath string) string {
	best, bestLen := "", -1
	for _, m := range lang.GoModulesOf(tab) {
		dir, mod := m.Dir, m.Path
		var rest string
		switch {
		case mod == "std":
			first, _, _ := strings.Cut(importPath, "/")
			if strings.Contains(first, ".") || first == "cmd" {
				continue
			}
			rest = importPath
		case importPath == mod:
			rest = ""
		case strings.HasPrefix(importPath, mod+"/"):
			rest = importPath[len(mod)+1:]
		default:
			continue
		}
		if len(mod) > bestLen {
			best, bestLen = path.Join(dir, rest), len(mod)
		}
	}
	if bestLen < 0 {
		return ""
	}
	if len(tab.ModuleFiles("go", best)) == 0 {
		return ""
	}
	return best
}

// resolver binds Go's references and imports.
type resolver struct{}

func (resolver) ResolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	dir := importDir(ctx.Table, imp.Source)
	if dir == "" {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	files := ctx.Table.ModuleFiles("go", dir)
	if name == "" || name == "*" {
		for _, built := range []bool{true, false} {
			for _, f := range files {
				if lang.TestFile(ctx.Table, f) || built && !lang.GoFileBuilt(ctx.Table, f) {
					continue
				}
				if t := lang.ModuleTarget(ctx.Table, f); t != nil {
					return lang.Bound(t, lang.RuleImport)
				}
			}
		}
		if len(files) > 0 {
			if t := lang.ModuleTarget(ctx.Table, files[0]); t != nil {
				return lang.Bound(t, lang.RuleImport)
			}
		}
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

func (resolver) Resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	return resolveRef(ctx, r, 0)
}

func resolveRef(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if r.Qualifier == "" {
		if r.Kind == lang.RefCall && r.QualifierType != "" {
			// a call of a parameter, receiver or local (valueType)
			return lang.Unbound(lang.RuleDynamic, 0)
		}
		if r.Kind == lang.RefCall && builtins.Has(r.Name) {
			return lang.Unbound(lang.RuleBuiltin, 0)
		}
		return resolveBare(ctx, r.Name, r.Kind != lang.RefCall)
	}
	// pkg.Name: the qualifier is an import binding, unless a local
	// variable of the same name shadows it
	if r.QualifierType == "" && r.QualifierCall == "" && !strings.ContainsAny(r.Qualifier, ".([") {
		if b, ok := bindings(ctx)[r.Qualifier]; ok {
			dir := importDir(ctx.Table, b.Imp.Source)
			if dir == "" {
				return lang.Unbound(lang.RuleExternal, 0)
			}
			cands := lang.Pick(ctx.Table.ByName(r.Name), func(t *lang.Target) bool { return t.Container == "" && t.Dir() == dir })
			if c := lang.One(lang.PreferDefinitions(lang.GoPreferBuilt(ctx.Table, ctx.File.Path, cands))); c != nil {
				return lang.Bound(c, lang.RuleImport)
			}
			return lang.Unbound(lang.RuleUnresolved, len(cands))
		}
	}
	// pkg.Var.M(): a package-level variable of an imported package
	if r.QualifierType == "" && r.QualifierCall == "" && !strings.ContainsAny(r.Qualifier, "([") {
		if head, rest, ok := strings.Cut(r.Qualifier, "."); ok {
			if b, ok := bindings(ctx)[head]; ok {
				if res, ok := packageVarMethod(ctx, b, strings.Split(rest, "."), r.Name); ok {
					return res
				}
			}
		}
	}
	// a method call: find the qualifier's type
	typ, external := qualifierType(ctx, r, depth)
	if typ != nil {
		m, ext := method(ctx.Table, typ, r.Name, 0)
		switch {
		case m != nil:
			return lang.Bound(m, lang.RuleReceiver)
		case ext:
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if external {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	// Type.Method used as a method expression, or a package-level variable
	if !strings.ContainsAny(r.Qualifier, ".([") {
		if v := resolveBare(ctx, r.Qualifier, true); v.Target != nil {
			if lang.IsTypeKind(v.Target.Kind) {
				if m, _ := method(ctx.Table, v.Target, r.Name, 0); m != nil {
					return lang.Bound(m, lang.RuleReceiver)
				}
			} else if v.Target.Kind == lang.KindVariable && v.Target.Returns != "" {
				typ, ext := resolveTypeExt(ctx.Table, v.Target.Path, v.Target.Returns)
				if typ != nil {
					if m, _ := method(ctx.Table, typ, r.Name, 0); m != nil {
						return lang.Bound(m, lang.RuleReceiver)
					}
				} else if ext {
					// var mu sync.RWMutex; mu.RLock(): the other package's
					return lang.Unbound(lang.RuleExternal, 0)
				}
			}
		}
	}
	return uniqueMethod(ctx.Table, ctx.File.Path, r.Name)
}

// packageVarMethod binds method name called on pkg.Var (and the fields
// after it, segs) where b binds pkg: external when the package is not the
// repository's, else through the variable's type. ok is false when the
// variable or its type is not known, for the callers' other rules.
func packageVarMethod(ctx *lang.Context, b lang.Binding, segs []string, name string) (res lang.Resolution, ok bool) {
	dir := importDir(ctx.Table, b.Imp.Source)
	if dir == "" {
		return lang.Unbound(lang.RuleExternal, 0), true
	}
	v := lang.One(lang.PreferDefinitions(lang.GoPreferBuilt(ctx.Table, ctx.File.Path, lang.Pick(ctx.Table.ByName(segs[0]), func(t *lang.Target) bool {
		return t.Container == "" && t.Kind == lang.KindVariable && t.Dir() == dir
	}))))
	if v == nil || v.Returns == "" {
		return lang.Resolution{}, false
	}
	typ, external := resolveTypeExt(ctx.Table, v.Path, v.Returns)
	for _, seg := range segs[1:] {
		if typ == nil {
			break
		}
		typ, external = fieldType(ctx.Table, typ, seg, 0)
	}
	if typ == nil {
		if external {
			return lang.Unbound(lang.RuleExternal, 0), true
		}
		return lang.Resolution{}, false
	}
	m, ext := method(ctx.Table, typ, name, 0)
	switch {
	case m != nil:
		return lang.Bound(m, lang.RuleReceiver), true
	case ext:
		return lang.Unbound(lang.RuleExternal, 0), true
	}
	return lang.Unbound(lang.RuleUnresolved, 0), true
}

// visible reports whether code in file from can use t: the declarations
// of _test.go files exist only for the tests of their package.
func visible(from string, t *lang.Target) bool {
	return !strings.HasSuffix(t.Path, "_test.go") || strings.HasSuffix(from, "_test.go")
}

// resolveBare binds an unqualified name: same file, same package, then
// dot imports. types is true when the name is used as a type. A name none
// of these declares, in a file that dot-imports another module's package
// (. "github.com/onsi/gomega"), is that package's: external.
func resolveBare(ctx *lang.Context, name string, types bool) lang.Resolution {
	dir := path.Dir(ctx.File.Path)
	cands := lang.Pick(ctx.Table.ByName(name), func(t *lang.Target) bool {
		return t.Container == "" && (types || lang.IsCallable(t.Kind) || lang.IsTypeKind(t.Kind)) && visible(ctx.File.Path, t)
	})
	if len(cands) == 0 {
		return unboundBare(ctx)
	}
	if c := lang.One(lang.Pick(cands, func(t *lang.Target) bool { return t.Path == ctx.File.Path })); c != nil {
		return lang.Bound(c, lang.RuleSameFile)
	}
	samePkg := lang.GoPreferBuilt(ctx.Table, ctx.File.Path, lang.Pick(cands, func(t *lang.Target) bool { return t.Dir() == dir }))
	if c := lang.One(lang.PreferDefinitions(samePkg)); c != nil {
		return lang.Bound(c, lang.RuleSamePackage)
	}
	if len(samePkg) > 1 {
		return lang.Unbound(lang.RuleAmbiguous, len(samePkg))
	}
	for i := range ctx.File.Imports {
		imp := &ctx.File.Imports[i]
		if len(imp.Names) == 0 || imp.Names[0].Name != "*" {
			continue
		}
		d := importDir(ctx.Table, imp.Source)
		if c := lang.One(lang.GoPreferBuilt(ctx.Table, ctx.File.Path, lang.Pick(cands, func(t *lang.Target) bool { return t.Dir() == d }))); d != "" && c != nil {
			return lang.Bound(c, lang.RuleImport)
		}
	}
	return unboundBare(ctx)
}

// unboundBare is what a bare name no file of the repository declares
// resolves to: external when the file dot-imports a package from outside
// the repository, which may declare it, else unresolved.
func unboundBare(ctx *lang.Context) lang.Resolution {
	for i := range ctx.File.Imports {
		imp := &ctx.File.Imports[i]
		if len(imp.Names) > 0 && imp.Names[0].Name == "*" && importDir(ctx.Table, imp.Source) == "" {
			return lang.Unbound(lang.RuleExternal, 0)
		}
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// qualifierType works out the type of a method call's qualifier. external
// is true when the type is known to come from outside the repository.
func qualifierType(ctx *lang.Context, r *lang.Ref, depth int) (typ *lang.Target, external bool) {
	segs := strings.Split(r.Qualifier, ".")
	switch {
	case r.QualifierCall != "":
		// x := f(); x.M() or a.f().M(): the type f returns (QualifierType
		// is then the type of f's qualifier)
		typ, external = callResultType(ctx, r.QualifierCall, r.QualifierType, depth)
		if strings.Contains(r.Qualifier, "(") {
			return typ, external
		}
	case r.QualifierType != "":
		typ, external = resolveTypeExt(ctx.Table, ctx.File.Path, r.QualifierType)
	default:
		return nil, false
	}
	for _, seg := range segs[1:] {
		if typ == nil || strings.ContainsAny(seg, "()[") {
			return nil, external
		}
		// a field of another package's type (app.server with server
		// *fasthttp.Server) makes the call external
		typ, external = fieldType(ctx.Table, typ, seg, 0)
	}
	return typ, external
}

// callResultType is the type a call of fn returns; headType is the type
// of fn's qualifier when the extractor knew it (c.Flags() with c typed).
func callResultType(ctx *lang.Context, fn, headType string, depth int) (*lang.Target, bool) {
	r := &lang.Ref{Kind: lang.RefCall, Name: fn}
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		r.Name, r.Qualifier = fn[i+1:], fn[:i]
		if !strings.ContainsAny(r.Qualifier, ".([") {
			r.QualifierType = headType
		} else if open := callOpen(r.Qualifier); open > 0 {
			// a.b(x).M: the result of a.b, whose head has headType
			r.QualifierCall, r.QualifierType = r.Qualifier[:open], headType
		}
	}
	if strings.ContainsAny(r.Name, "()[") {
		return nil, false
	}
	res := resolveRef(ctx, r, depth+1)
	if res.Rule == lang.RuleExternal {
		return nil, true
	}
	if res.Target == nil || res.Target.Returns == "" {
		return nil, false
	}
	ret := strings.TrimSpace(res.Target.Returns)
	if strings.HasPrefix(ret, "(") {
		ret = strings.TrimPrefix(ret, "(")
		ret, _, _ = strings.Cut(ret, ",")
		ret = strings.TrimSuffix(strings.TrimSpace(ret), ")")
		// a named result: "(s *Server, err error)"
		if f := strings.Fields(ret); len(f) == 2 {
			ret = f[1]
		}
	}
	return resolveTypeExt(ctx.Table, res.Target.Path, ret)
}

// callOpen is the offset of the parenthesis that opens the arguments of
// a qualifier that ends in a call (a.b(x) gives 3), or -1.
func callOpen(q string) int {
	if !strings.HasSuffix(q, ")") {
		return -1
	}
	depth := 0
	for i := len(q) - 1; i >= 0; i-- {
		switch q[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// resolveType resolves a type expression written in file fromPath.
func resolveType(tab lang.Table, fromPath, typ string) *lang.Target {
	t, _ := resolveTypeExt(tab, fromPath, typ)
	return t
}

// resolveTypeExt resolves a type expression; external reports a type of
// a package outside the repository or a predeclared one.
func resolveTypeExt(tab lang.Table, fromPath, typ string) (*lang.Target, bool) {
	typ = strings.TrimSpace(typ)
	typ = strings.TrimLeft(typ, "*&")
	if strings.HasPrefix(typ, "[]") || strings.HasPrefix(typ, "map[") || strings.HasPrefix(typ, "func") || strings.HasPrefix(typ, "chan") {
		return nil, false // no methods of ours
	}
	if i := strings.IndexByte(typ, '['); i >= 0 {
		typ = typ[:i]
	}
	name, qual := typ, ""
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		name, qual = typ[i+1:], typ[:i]
	}
	if name == "" {
		return nil, false
	}
	if builtins.Has(name) && qual == "" {
		return nil, true
	}
	dir := path.Dir(fromPath)
	if qual != "" {
		fi := tab.File(fromPath)
		if fi == nil {
			return nil, false
		}
		ctx := &lang.Context{File: fi, Table: tab}
		b, ok := bindings(ctx)[qual]
		if !ok {
			return nil, false
		}
		dir = importDir(tab, b.Imp.Source)
		if dir == "" {
			return nil, true
		}
	}
	cands := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return t.Container == "" && lang.IsTypeKind(t.Kind) && t.Dir() == dir
	})
	return lang.One(lang.PreferDefinitions(lang.GoPreferBuilt(tab, fromPath, cands))), false
}

// method finds method name of typ, following embedded types. external
// is true when it is not found and typ embeds a type of another package,
// which may bring it (l.Lock() with sync.Mutex embedded).
func method(tab lang.Table, typ *lang.Target, name string, depth int) (m *lang.Target, external bool) {
	if depth > lang.MaxDepth {
		return nil, false
	}
	dir := typ.Dir()
	ms := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return t.Kind == lang.KindMethod && t.Container == typ.Name && t.Dir() == dir
	})
	// the methods of a type declared in one variant file come from the
	// variant files the same build compiles
	if m := lang.One(lang.PreferDefinitions(lang.GoPreferBuilt(tab, typ.Path, ms))); m != nil {
		return m, false
	}
	for _, b := range typ.Bases {
		bt, ext := resolveTypeExt(tab, typ.Path, b)
		if bt != nil {
			m, ext = method(tab, bt, name, depth+1)
			if m != nil {
				return m, false
			}
		}
		external = external || ext
	}
	return nil, external
}

// fieldType is the type of field name of typ, following embedded types.
// external is true when the field's type is another package's, or when
// the field is not found and typ embeds a type of another package.
func fieldType(tab lang.Table, typ *lang.Target, name string, depth int) (ft *lang.Target, external bool) {
	if depth > lang.MaxDepth {
		return nil, false
	}
	for _, f := range typ.Fields {
		if f.Name == name {
			return resolveTypeExt(tab, typ.Path, f.Type)
		}
	}
	for _, b := range typ.Bases {
		bt, ext := resolveTypeExt(tab, typ.Path, b)
		if bt != nil {
			ft, ext = fieldType(tab, bt, name, depth+1)
			if ft != nil {
				return ft, false
			}
		}
		external = external || ext
	}
	return nil, external
}

// uniqueMethod binds a method call whose receiver type is unknown when
// exactly one method of that name exists and the name is distinctive.
func uniqueMethod(tab lang.Table, from, name string) lang.Resolution {
	ms := lang.GoPreferBuilt(tab, from, lang.Pick(tab.ByName(name), func(t *lang.Target) bool { return t.Kind == lang.KindMethod && visible(from, t) }))
	if len(ms) == 0 {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if len(ms) > 1 {
		return lang.Unbound(lang.RuleAmbiguous, len(ms))
	}
	if commonMethods.Has(name) {
		return lang.Unbound(lang.RuleUnresolved, 1)
	}
	return lang.Bound(ms[0], lang.RuleUniqueName)
}
