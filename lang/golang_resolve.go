package lang

import (
	"path"
	"strings"
)

var goBuiltins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true, "delete": true,
	"imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true,
	// conversions to predeclared types read like calls
	"bool": true, "byte": true, "complex64": true, "complex128": true, "error": true, "float32": true,
	"float64": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true, "rune": true,
	"string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"any": true,
}

// goCommonMethods are method names so widespread that a unique definition
// in the repository says little about which one a call means.
var goCommonMethods = map[string]bool{
	"String": true, "Error": true, "Close": true, "Read": true, "Write": true, "Len": true, "Less": true,
	"Swap": true, "Lock": true, "Unlock": true, "RLock": true, "RUnlock": true, "Done": true, "Err": true,
	"Value": true, "Get": true, "Set": true, "Add": true, "Del": true, "Wait": true, "Run": true, "Do": true,
	"Reset": true, "Next": true, "Scan": true, "Load": true, "Store": true, "Delete": true, "Has": true,
	"Write String": true, "WriteString": true, "WriteByte": true, "WriteRune": true, "Bytes": true, "Name": true,
	"Type": true, "Kind": true, "Int": true, "Uint": true, "Float": true, "Bool": true, "Len32": true,
	"Unwrap": true, "Is": true, "As": true, "Format": true, "Sprintf": true, "Printf": true, "Println": true,
	"Fatal": true, "Fatalf": true, "Errorf": true, "Helper": true, "Log": true, "Logf": true, "Cleanup": true,
	"Skip": true, "Skipf": true, "Parallel": true, "Equal": true, "Copy": true, "Clone": true, "Stop": true,
	"Start": true, "Open": true, "Flush": true, "Seek": true, "Sum": true, "Init": true, "Put": true,
	"Query": true, "Exec": true, "Send": true, "Recv": true, "Call": true, "Handle": true, "ServeHTTP": true,
	"MarshalJSON": true, "UnmarshalJSON": true, "Marshal": true, "Unmarshal": true, "Encode": true, "Decode": true,
}

func init() {
	l := ByName("go")
	l.builtins = goBuiltins
	l.resolve = resolveGo
	l.resolveImport = resolveGoImport
}

// goBindings maps the names a Go file's imports bind to their imports.
func (ctx *Context) goBindings() map[string]binding {
	return ctx.File.bindingsWith(func() map[string]binding {
		m := map[string]binding{}
		for i := range ctx.File.Imports {
			imp := &ctx.File.Imports[i]
			name := imp.Alias
			if name == "_" || (len(imp.Names) > 0 && imp.Names[0].Name == "*") {
				continue
			}
			if name == "" {
				name = goPackageName(ctx.Table, imp.Source)
			}
			m[name] = binding{imp: imp}
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
					(!built || goFileBuilt(tab, f)) {
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
	for _, m := range goModules(tab) {
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
		return unbound(RuleExternal, 0)
	}
	files := ctx.Table.ModuleFiles("go", dir)
	if name == "" || name == "*" {
		for _, built := range []bool{true, false} {
			for _, f := range files {
				if isTestPath(f) || built && !goFileBuilt(ctx.Table, f) {
					continue
				}
				if t := moduleTarget(ctx.Table, f); t != nil {
					return bound(t, RuleImport)
				}
			}
		}
		if len(files) > 0 {
			if t := moduleTarget(ctx.Table, files[0]); t != nil {
				return bound(t, RuleImport)
			}
		}
	}
	return unbound(RuleUnresolved, 0)
}

func resolveGo(ctx *Context, r *Ref) Resolution {
	return goResolve(ctx, r, 0)
}

func goResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > MaxDepth {
		return unbound(RuleUnresolved, 0)
	}
	if r.Qualifier == "" {
		if r.Kind == RefCall && goBuiltins[r.Name] {
			return unbound(RuleBuiltin, 0)
		}
		return goResolveBare(ctx, r.Name, r.Kind != RefCall)
	}
	// pkg.Name: the qualifier is an import binding, unless a local
	// variable of the same name shadows it
	if r.QualifierType == "" && r.QualifierCall == "" && !strings.ContainsAny(r.Qualifier, ".([") {
		if b, ok := ctx.goBindings()[r.Qualifier]; ok {
			dir := goImportDir(ctx.Table, b.imp.Source)
			if dir == "" {
				return unbound(RuleExternal, 0)
			}
			cands := pick(ctx.Table.ByName(r.Name), func(t *Target) bool { return t.Container == "" && t.Dir() == dir })
			if c := one(preferDefinitions(goPreferBuilt(ctx.Table, ctx.File.Path, cands))); c != nil {
				return bound(c, RuleImport)
			}
			return unbound(RuleUnresolved, len(cands))
		}
	}
	// a method call: find the qualifier's type
	typ, external := goQualifierType(ctx, r, depth)
	if typ != nil {
		if m := goMethod(ctx.Table, typ, r.Name, 0); m != nil {
			return bound(m, RuleReceiver)
		}
		return unbound(RuleUnresolved, 0)
	}
	if external {
		return unbound(RuleExternal, 0)
	}
	// Type.Method used as a method expression, or a package-level variable
	if !strings.ContainsAny(r.Qualifier, ".([") {
		if v := goResolveBare(ctx, r.Qualifier, true); v.Target != nil {
			if isTypeKind(v.Target.Kind) {
				if m := goMethod(ctx.Table, v.Target, r.Name, 0); m != nil {
					return bound(m, RuleReceiver)
				}
			} else if v.Target.Kind == KindVariable && v.Target.Returns != "" {
				if typ := goResolveType(ctx.Table, v.Target.Path, v.Target.Returns); typ != nil {
					if m := goMethod(ctx.Table, typ, r.Name, 0); m != nil {
						return bound(m, RuleReceiver)
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
	cands := pick(ctx.Table.ByName(name), func(t *Target) bool {
		return t.Container == "" && (types || isCallable(t.Kind) || isTypeKind(t.Kind)) && goVisible(ctx.File.Path, t)
	})
	if len(cands) == 0 {
		return unbound(RuleUnresolved, 0)
	}
	if c := one(pick(cands, func(t *Target) bool { return t.Path == ctx.File.Path })); c != nil {
		return bound(c, RuleSameFile)
	}
	samePkg := goPreferBuilt(ctx.Table, ctx.File.Path, pick(cands, func(t *Target) bool { return t.Dir() == dir }))
	if c := one(preferDefinitions(samePkg)); c != nil {
		return bound(c, RuleSamePackage)
	}
	if len(samePkg) > 1 {
		return unbound(RuleAmbiguous, len(samePkg))
	}
	for i := range ctx.File.Imports {
		imp := &ctx.File.Imports[i]
		if len(imp.Names) == 0 || imp.Names[0].Name != "*" {
			continue
		}
		d := goImportDir(ctx.Table, imp.Source)
		if c := one(goPreferBuilt(ctx.Table, ctx.File.Path, pick(cands, func(t *Target) bool { return t.Dir() == d }))); d != "" && c != nil {
			return bound(c, RuleImport)
		}
	}
	return unbound(RuleUnresolved, 0)
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
		dir = goImportDir(tab, b.imp.Source)
		if dir == "" {
			return nil, true
		}
	}
	cands := pick(tab.ByName(name), func(t *Target) bool {
		return t.Container == "" && isTypeKind(t.Kind) && t.Dir() == dir
	})
	return one(preferDefinitions(goPreferBuilt(tab, fromPath, cands))), false
}

// goMethod finds method name of typ, following embedded types.
func goMethod(tab Table, typ *Target, name string, depth int) *Target {
	if depth > MaxDepth {
		return nil
	}
	dir := typ.Dir()
	ms := pick(tab.ByName(name), func(t *Target) bool {
		return t.Kind == KindMethod && t.Container == typ.Name && t.Dir() == dir
	})
	// the methods of a type declared in one variant file come from the
	// variant files the same build compiles
	if m := one(preferDefinitions(goPreferBuilt(tab, typ.Path, ms))); m != nil {
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
	ms := goPreferBuilt(tab, from, pick(tab.ByName(name), func(t *Target) bool { return t.Kind == KindMethod && goVisible(from, t) }))
	if len(ms) == 0 {
		return unbound(RuleUnresolved, 0)
	}
	if len(ms) > 1 {
		return unbound(RuleAmbiguous, len(ms))
	}
	if goCommonMethods[name] {
		return unbound(RuleUnresolved, 1)
	}
	return bound(ms[0], RuleUniqueName)
}
