package lang

import (
	"path"
	"strings"
)

var goBuiltins = wordSet("go", "builtins.txt")

// goCommonMethods are method names so widespread that a unique definition
// in the repository says little about which one a call means.
var goCommonMethods = wordSet("go", "common_methods.txt")

func init() {
	l := ByName("go")
	l.builtins = goBuiltins
	l.resolve = resolveGo
	l.resolveImport = resolveGoImport
}

// goBindings maps the names a Go file's imports bind to their imports.
func (ctx *Context) goBindings() map[string]Binding {
	return ctx.File.BindingsWith(func() map[string]Binding {
		m := map[string]Binding{}
		for i := range ctx.File.Imports {
			imp := &ctx.File.Imports[i]
			name := imp.Alias
			if name == "_" || (len(imp.Names) > 0 && imp.Names[0].Name == "*") {
				continue
			}
			if name == "" {
				name = goPackageName(ctx.Table, imp.Source)
			}
			m[name] = Binding{Imp: imp}
		}
		return m
	})
}

// goPackageName is the name a Go import binds by default: the package
// clause of the imported directory when it is in the repository, else the
// last path element without a version suffix or go- prefix.
func goPackageName(tab Table, importPath string) string {
	return tab.Memo("go.pkgname\x00"+importPath, func() string { return goPackageNameUncached(tab, importPath) })
}

func goPackageNameUncached(tab Table, importPath string) string {
	if dir := goImportDir(tab, importPath); dir != "" {
		// a compiled file's package clause: a //go:build ignore file
		// beside the package is often a package main
		files := tab.ModuleFiles("go", dir)
		for _, built := range []bool{true, false} {
			for _, f := range files {
				if fi := tab.File(f); fi != nil && fi.Module != "" && !strings.HasSuffix(fi.Module, "_test") &&
					(!built || GoFileBuilt(tab, f)) {
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

// goImportDir maps an import path to a directory of the repository, or ""
// when it lies outside.
func goImportDir(tab Table, importPath string) string {
	return tab.Memo("go.importdir\x00"+importPath, func() string { return goImportDirUncached(tab, importPath) })
}

func goImportDirUncached(tab Table, importPath string) string {
	best, bestLen := "", -1
	for _, m := range GoModulesOf(tab) {
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

func resolveGoImport(ctx *Context, imp *Import, name string) Resolution {
	dir := goImportDir(ctx.Table, imp.Source)
	if dir == "" {
		return Unbound(RuleExternal, 0)
	}
	files := ctx.Table.ModuleFiles("go", dir)
	if name == "" || name == "*" {
		for _, built := range []bool{true, false} {
			for _, f := range files {
				if IsTestPath(f) || built && !GoFileBuilt(ctx.Table, f) {
					continue
				}
				if t := ModuleTarget(ctx.Table, f); t != nil {
					return Bound(t, RuleImport)
				}
			}
		}
		if len(files) > 0 {
			if t := ModuleTarget(ctx.Table, files[0]); t != nil {
				return Bound(t, RuleImport)
			}
		}
	}
	return Unbound(RuleUnresolved, 0)
}

func resolveGo(ctx *Context, r *Ref) Resolution {
	return goResolve(ctx, r, 0)
}

func goResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	if r.Qualifier == "" {
		if r.Kind == RefCall && goBuiltins[r.Name] {
			return Unbound(RuleBuiltin, 0)
		}
		return goResolveBare(ctx, r.Name, r.Kind != RefCall)
	}
	// pkg.Name: the qualifier is an import binding, unless a local
	// variable of the same name shadows it
	if r.QualifierType == "" && r.QualifierCall == "" && !strings.ContainsAny(r.Qualifier, ".([") {
		if b, ok := ctx.goBindings()[r.Qualifier]; ok {
			dir := goImportDir(ctx.Table, b.Imp.Source)
			if dir == "" {
				return Unbound(RuleExternal, 0)
			}
			cands := Pick(ctx.Table.ByName(r.Name), func(t *Target) bool { return t.Container == "" && t.Dir() == dir })
			if c := One(PreferDefinitions(GoPreferBuilt(ctx.Table, ctx.File.Path, cands))); c != nil {
				return Bound(c, RuleImport)
			}
			return Unbound(RuleUnresolved, len(cands))
		}
	}
	// a method call: find the qualifier's type
	typ, external := goQualifierType(ctx, r, depth)
	if typ != nil {
		if m := goMethod(ctx.Table, typ, r.Name, 0); m != nil {
			return Bound(m, RuleReceiver)
		}
		return Unbound(RuleUnresolved, 0)
	}
	if external {
		return Unbound(RuleExternal, 0)
	}
	// Type.Method used as a method expression, or a package-level variable
	if !strings.ContainsAny(r.Qualifier, ".([") {
		if v := goResolveBare(ctx, r.Qualifier, true); v.Target != nil {
			if IsTypeKind(v.Target.Kind) {
				if m := goMethod(ctx.Table, v.Target, r.Name, 0); m != nil {
					return Bound(m, RuleReceiver)
				}
			} else if v.Target.Kind == KindVariable && v.Target.Returns != "" {
				if typ := goResolveType(ctx.Table, v.Target.Path, v.Target.Returns); typ != nil {
					if m := goMethod(ctx.Table, typ, r.Name, 0); m != nil {
						return Bound(m, RuleReceiver)
					}
				}
			}
		}
	}
	return goUniqueMethod(ctx.Table, ctx.File.Path, r.Name)
}

// goVisible reports whether code in file from can use t: the declarations
// of _test.go files exist only for the tests of their package.
func goVisible(from string, t *Target) bool {
	return !strings.HasSuffix(t.Path, "_test.go") || strings.HasSuffix(from, "_test.go")
}

// goResolveBare binds an unqualified name: same file, same package, then
// dot imports. types is true when the name is used as a type.
func goResolveBare(ctx *Context, name string, types bool) Resolution {
	dir := path.Dir(ctx.File.Path)
	cands := Pick(ctx.Table.ByName(name), func(t *Target) bool {
		return t.Container == "" && (types || IsCallable(t.Kind) || IsTypeKind(t.Kind)) && goVisible(ctx.File.Path, t)
	})
	if len(cands) == 0 {
		return Unbound(RuleUnresolved, 0)
	}
	if c := One(Pick(cands, func(t *Target) bool { return t.Path == ctx.File.Path })); c != nil {
		return Bound(c, RuleSameFile)
	}
	samePkg := GoPreferBuilt(ctx.Table, ctx.File.Path, Pick(cands, func(t *Target) bool { return t.Dir() == dir }))
	if c := One(PreferDefinitions(samePkg)); c != nil {
		return Bound(c, RuleSamePackage)
	}
	if len(samePkg) > 1 {
		return Unbound(RuleAmbiguous, len(samePkg))
	}
	for i := range ctx.File.Imports {
		imp := &ctx.File.Imports[i]
		if len(imp.Names) == 0 || imp.Names[0].Name != "*" {
			continue
		}
		d := goImportDir(ctx.Table, imp.Source)
		if c := One(GoPreferBuilt(ctx.Table, ctx.File.Path, Pick(cands, func(t *Target) bool { return t.Dir() == d }))); d != "" && c != nil {
			return Bound(c, RuleImport)
		}
	}
	return Unbound(RuleUnresolved, 0)
}

// goQualifierType works out the type of a method call's qualifier. external
// is true when the type is known to come from outside the repository.
func goQualifierType(ctx *Context, r *Ref, depth int) (typ *Target, external bool) {
	segs := strings.Split(r.Qualifier, ".")
	switch {
	case r.QualifierCall != "" && (r.QualifierType == "" || strings.Contains(r.Qualifier, "(")):
		// x := f(); x.M() or a.f().M(): the type f returns
		typ, external = goCallResultType(ctx, r.QualifierCall, r.QualifierType, depth)
		if strings.Contains(r.Qualifier, "(") {
			return typ, external
		}
	case r.QualifierType != "":
		typ, external = goResolveTypeExt(ctx.Table, ctx.File.Path, r.QualifierType)
	default:
		return nil, false
	}
	for _, seg := range segs[1:] {
		if typ == nil || strings.ContainsAny(seg, "()[") {
			return nil, external
		}
		typ = goFieldType(ctx.Table, typ, seg, 0)
	}
	return typ, external
}

// goCallResultType is the type a call of fn returns; headType is the type
// of fn's qualifier when the extractor knew it (c.Flags() with c typed).
func goCallResultType(ctx *Context, fn, headType string, depth int) (*Target, bool) {
	r := &Ref{Kind: RefCall, Name: fn}
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		r.Name, r.Qualifier = fn[i+1:], fn[:i]
		if !strings.ContainsAny(r.Qualifier, ".([") {
			r.QualifierType = headType
		}
	}
	if strings.ContainsAny(r.Name, "()[") {
		return nil, false
	}
	res := goResolve(ctx, r, depth+1)
	if res.Rule == RuleExternal {
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
	return goResolveTypeExt(ctx.Table, res.Target.Path, ret)
}

// goResolveType resolves a type expression written in file fromPath.
func goResolveType(tab Table, fromPath, typ string) *Target {
	t, _ := goResolveTypeExt(tab, fromPath, typ)
	return t
}

// goResolveTypeExt resolves a type expression; external reports a type of
// a package outside the repository or a predeclared one.
func goResolveTypeExt(tab Table, fromPath, typ string) (*Target, bool) {
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
	if goBuiltins[name] && qual == "" {
		return nil, true
	}
	dir := path.Dir(fromPath)
	if qual != "" {
		fi := tab.File(fromPath)
		if fi == nil {
			return nil, false
		}
		ctx := &Context{File: fi, Table: tab}
		b, ok := ctx.goBindings()[qual]
		if !ok {
			return nil, false
		}
		dir = goImportDir(tab, b.Imp.Source)
		if dir == "" {
			return nil, true
		}
	}
	cands := Pick(tab.ByName(name), func(t *Target) bool {
		return t.Container == "" && IsTypeKind(t.Kind) && t.Dir() == dir
	})
	return One(PreferDefinitions(GoPreferBuilt(tab, fromPath, cands))), false
}

// goMethod finds method name of typ, following embedded types.
func goMethod(tab Table, typ *Target, name string, depth int) *Target {
	if depth > MaxDepth {
		return nil
	}
	dir := typ.Dir()
	ms := Pick(tab.ByName(name), func(t *Target) bool {
		return t.Kind == KindMethod && t.Container == typ.Name && t.Dir() == dir
	})
	// the methods of a type declared in one variant file come from the
	// variant files the same build compiles
	if m := One(PreferDefinitions(GoPreferBuilt(tab, typ.Path, ms))); m != nil {
		return m
	}
	for _, b := range typ.Bases {
		if bt := goResolveType(tab, typ.Path, b); bt != nil {
			if m := goMethod(tab, bt, name, depth+1); m != nil {
				return m
			}
		}
	}
	return nil
}

// goFieldType is the type of field name of typ, following embedded types.
func goFieldType(tab Table, typ *Target, name string, depth int) *Target {
	if depth > MaxDepth {
		return nil
	}
	for _, f := range typ.Fields {
		if f.Name == name {
			return goResolveType(tab, typ.Path, f.Type)
		}
	}
	for _, b := range typ.Bases {
		if bt := goResolveType(tab, typ.Path, b); bt != nil {
			if ft := goFieldType(tab, bt, name, depth+1); ft != nil {
				return ft
			}
		}
	}
	return nil
}

// goUniqueMethod binds a method call whose receiver type is unknown when
// exactly one method of that name exists and the name is distinctive.
func goUniqueMethod(tab Table, from, name string) Resolution {
	ms := GoPreferBuilt(tab, from, Pick(tab.ByName(name), func(t *Target) bool { return t.Kind == KindMethod && goVisible(from, t) }))
	if len(ms) == 0 {
		return Unbound(RuleUnresolved, 0)
	}
	if len(ms) > 1 {
		return Unbound(RuleAmbiguous, len(ms))
	}
	if goCommonMethods[name] {
		return Unbound(RuleUnresolved, 1)
	}
	return Bound(ms[0], RuleUniqueName)
}
