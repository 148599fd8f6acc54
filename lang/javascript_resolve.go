package lang

import (
	"path"
	"strings"
)

// jsBuiltins are the functions and constructors of the language itself:
// calls to them are dropped.
var jsBuiltins = wordSet("javascript", "builtins.txt")

// jsGlobals are the global objects of JavaScript runtimes: a call on them
// (console.log, Math.max, process.exit) is external.
var jsGlobals = wordSet("javascript", "globals.txt")

// jsExternalFuncs are global functions of runtimes and test runners that
// are worth keeping in the graph as external calls.
var jsExternalFuncs = wordSet("javascript", "external_functions.txt")

// jsBuiltinTypes are types whose members are the runtime's.
var jsBuiltinTypes = wordSet("javascript", "types.txt")

// jsCommonMethods are method names of the standard objects (arrays,
// strings, promises, maps, streams, emitters) and of most frameworks: a
// unique definition in the repository says little about a call of one.
var jsCommonMethods = wordSet("javascript", "common_methods.txt")

func init() {
	for _, name := range []string{"javascript", "typescript", "tsx"} {
		l := ByName(name)
		l.builtins = jsBuiltins
		l.resolve = resolveJS
		l.resolveImport = resolveJSImport
	}
}

// jsBindings maps the local names a file's imports bind to them: the
// module itself (binding.name "") or one name of it.
func (ctx *Context) jsBindings() map[string]Binding {
	return ctx.File.BindingsWith(func() map[string]Binding {
		return jsFileBindings(ctx.File)
	})
}

func jsFileBindings(fi *FileInfo) map[string]Binding {
	m := map[string]Binding{}
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if imp.Alias != "" {
			m[imp.Alias] = Binding{Imp: imp}
		}
		for _, n := range imp.Names {
			if n.Name == "*" {
				continue
			}
			m[n.Local()] = Binding{Imp: imp, Name: n.Name}
		}
	}
	return m
}

// The extensions relative imports may leave out, in the order TypeScript
// and bundlers try them.
var jsProbeExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.mts", ".d.cts"}

// jsSourceFile maps an import specifier written in file from to the
// repository file it names. external is true for packages.
func jsSourceFile(tab Table, from, spec string) (file string, external bool) {
	dir := path.Dir(from)
	v := tab.Memo("js.src\x00"+dir+"\x00"+spec, func() string {
		f, ext := jsSourceFileUncached(tab, dir, spec)
		if ext {
			return "\x00"
		}
		return f
	})
	if v == "\x00" {
		return "", true
	}
	return v, false
}

func jsSourceFileUncached(tab Table, dir, spec string) (string, bool) {
	switch {
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		p := path.Join(dir, spec)
		if p == ".." || strings.HasPrefix(p, "../") {
			return "", true // outside the indexed tree
		}
		return jsProbe(tab, p), false
	case strings.HasPrefix(spec, "/"):
		return jsProbe(tab, strings.TrimPrefix(path.Clean(spec), "/")), false
	case strings.HasPrefix(spec, "@/") || strings.HasPrefix(spec, "~/") || strings.HasPrefix(spec, "#/"):
		// the usual path aliases of a project's own sources, under the
		// package of the importing file, then under the repository
		rest := spec[2:]
		for _, pkg := range []string{jsPackageDir(tab, dir), "."} {
			for _, root := range []string{"src", "", "app", "lib"} {
				if f := jsProbe(tab, path.Join(pkg, root, rest)); f != "" {
					return f, false
				}
			}
		}
		return "", false
	}
	return jsPackageFile(tab, spec)
}

// jsPackageDir is the directory of the repository's package that holds
// dir: the deepest one with a package.json.
func jsPackageDir(tab Table, dir string) string {
	best := "."
	for _, p := range jsPackages(tab) {
		d := p.Dir
		if (dir == d || strings.HasPrefix(dir, d+"/")) && len(d) > len(best) {
			best = d
		}
	}
	return best
}

// jsPackageFile maps a bare specifier naming a package of the repository
// ("zod/v4", "@scope/pkg") to its source: the subpath under the package's
// directory, its src/ or lib/, by the conventions of TypeScript packages
// that export their sources. Other packages are external.
func jsPackageFile(tab Table, spec string) (string, bool) {
	name, sub := spec, ""
	if i := strings.IndexByte(spec, '/'); i >= 0 {
		if strings.HasPrefix(spec, "@") {
			if j := strings.IndexByte(spec[i+1:], '/'); j >= 0 {
				name, sub = spec[:i+1+j], spec[i+2+j:]
			}
		} else {
			name, sub = spec[:i], spec[i+1:]
		}
	}
	for _, p := range jsPackages(tab) {
		dir := p.Dir
		if p.Name != name {
			continue
		}
		if sub == "" {
			// package.json's source, module or main
			for _, e := range p.Entries {
				if f := jsProbe(tab, path.Join(dir, e)); f != "" {
					return f, false
				}
			}
		}
		for _, root := range []string{"src", "", "lib", "source"} {
			base := path.Join(dir, root, sub)
			if sub == "" {
				base = path.Join(dir, root, "index")
			}
			if f := jsProbe(tab, base); f != "" {
				return f, false
			}
		}
		return "", false // ours, but its sources are not where we look
	}
	return "", true
}

// jsProbe finds the file an extensionless, .js-for-.ts or directory
// specifier means.
func jsProbe(tab Table, p string) string {
	ext := path.Ext(p)
	switch ext {
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		if tab.File(p) != nil {
			return p
		}
		// TypeScript's ESM imports name the .js a .ts file compiles to
		stem := strings.TrimSuffix(p, ext)
		var alts []string
		switch ext {
		case ".js":
			alts = []string{".ts", ".tsx", ".d.ts"}
		case ".jsx":
			alts = []string{".tsx"}
		case ".mjs":
			alts = []string{".mts", ".d.mts"}
		case ".cjs":
			alts = []string{".cts", ".d.cts"}
		}
		for _, a := range alts {
			if tab.File(stem+a) != nil {
				return stem + a
			}
		}
	}
	for _, e := range jsProbeExts {
		if tab.File(p+e) != nil {
			return p + e
		}
	}
	for _, e := range jsProbeExts {
		if f := path.Join(p, "index"+e); tab.File(f) != nil {
			return f
		}
	}
	return ""
}

// jsWant says what a name is looked up for: a call, a construction, a
// type, or anything.
type jsWant int

const (
	jsAny jsWant = iota
	jsCallable
	jsType
)

// jsPick chooses among same-named top-level symbols of one file: the kind
// the use wants, and of overloads the last (the implementation).
func jsPick(cands []*Target, want jsWant) *Target {
	if len(cands) == 0 {
		return nil
	}
	if len(cands) == 1 {
		return cands[0]
	}
	rank := func(k string) int {
		switch want {
		case jsCallable:
			switch k {
			case KindFunction, KindClass, KindMethod, KindConstructor:
				return 0
			case KindVariable:
				return 1
			case KindModule:
				return 2
			}
		case jsType:
			switch k {
			case KindClass, KindInterface:
				return 0
			case KindType:
				return 1
			case KindModule, KindVariable, KindFunction:
				return 2
			}
		default:
			// a value before a type of the same name (TypeScript's
			// const X = ...; type X = ...)
			switch k {
			case KindClass, KindFunction:
				return 0
			case KindVariable, KindModule:
				return 1
			}
			return 2
		}
		return 3
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if rank(c.Kind) < rank(best.Kind) || rank(c.Kind) == rank(best.Kind) && c.Kind == best.Kind {
			best = c
		}
	}
	// symbols of different kinds that rank the same: no choosing
	for _, c := range cands {
		if c != best && c.Kind != best.Kind && rank(c.Kind) == rank(best.Kind) {
			return nil
		}
	}
	return best
}

// jsTopLevel returns the top-level symbols of file called name, without
// the file's own module symbol.
func jsTopLevel(tab Table, file, name string) []*Target {
	fi := tab.File(file)
	return Pick(tab.ByName(name), func(t *Target) bool {
		return t.Path == file && t.Container == "" && (fi == nil || t.ID != fi.ModuleID)
	})
}

// jsModuleSymbol is the module symbol of a file as stored, with the
// export aliases in its Fields.
func jsModuleSymbol(tab Table, file string) *Target {
	fi := tab.File(file)
	if fi == nil {
		return nil
	}
	name := path.Base(jsModuleName(file))
	for _, t := range tab.ByName(name) {
		if t.ID == fi.ModuleID {
			return t
		}
	}
	return nil
}

// jsExportTable is a file's export table: the Fields of its module
// symbol (see jsWalker.exportAs).
func jsExportTable(tab Table, file string) []Param {
	// memoized: finding the module symbol scans every module of its
	// name, and a monorepo has thousands called index
	v := tab.Memo("js.exports\x00"+file, func() string {
		m := jsModuleSymbol(tab, file)
		if m == nil {
			return ""
		}
		var b strings.Builder
		for _, f := range m.Fields {
			b.WriteString(f.Name + "\x00" + f.Type + "\x00" + f.Default + "\x01")
		}
		return b.String()
	})
	if v == "" {
		return nil
	}
	var out []Param
	for _, e := range strings.Split(strings.TrimSuffix(v, "\x01"), "\x01") {
		parts := strings.SplitN(e, "\x00", 3)
		if len(parts) == 3 {
			out = append(out, Param{Name: parts[0], Type: parts[1], Default: parts[2]})
		}
	}
	return out
}

const jsMaxChain = 6

// jsExport finds the symbol file exports as name, following aliases and
// re-exports through barrel files. external reports a name re-exported
// from a package.
func jsExport(tab Table, file, name string, want jsWant) (*Target, bool) {
	return jsExportDepth(tab, file, name, want, 0)
}

func jsExportDepth(tab Table, file, name string, want jsWant, depth int) (*Target, bool) {
	if depth > jsMaxChain || file == "" {
		return nil, false
	}
	key := "js.export\x00" + file + "\x00" + name + "\x00" + string(rune('0'+want))
	v := tab.Memo(key, func() string {
		t, ext := jsExportUncached(tab, file, name, want, depth)
		switch {
		case ext:
			return "\x00"
		case t == nil:
			return ""
		}
		return t.ID + "\x00" + t.Name + "\x00" + t.Path
	})
	if v == "" {
		return nil, false
	}
	if v == "\x00" {
		return nil, true
	}
	parts := strings.SplitN(v, "\x00", 3)
	if len(parts) != 3 {
		return nil, false
	}
	if fi := tab.File(parts[2]); fi != nil && fi.ModuleID == parts[0] {
		return ModuleTarget(tab, parts[2]), false
	}
	for _, t := range tab.ByName(parts[1]) {
		if t.ID == parts[0] {
			return t, false
		}
	}
	return nil, false
}

func jsExportUncached(tab Table, file, name string, want jsWant, depth int) (*Target, bool) {
	fi := tab.File(file)
	if fi == nil {
		return nil, false
	}
	table := jsExportTable(tab, file)
	local, listed := name, false
	for _, e := range table {
		if e.Name != name {
			continue
		}
		if e.Default != "" {
			// export { a as name } from './x', export * as name from './x'
			f, ext := jsSourceFile(tab, file, e.Default)
			if ext {
				return nil, true
			}
			if e.Type == "*" {
				if f == "" {
					return nil, false
				}
				return ModuleTarget(tab, f), false
			}
			return jsImportedName(tab, f, e.Type, want, depth+1)
		}
		local, listed = e.Type, true
		break
	}
	if t := jsPick(jsTopLevel(tab, file, local), want); t != nil {
		return t, false
	}
	if listed {
		// import { a } from './x'; export { a }: what the import binds
		if b, ok := jsFileBindings(fi)[local]; ok {
			f, ext := jsSourceFile(tab, file, b.Imp.Source)
			if ext {
				return nil, true
			}
			return jsImportedName(tab, f, b.Name, want, depth+1)
		}
		return nil, false
	}
	if name == "default" {
		// no export default: the module itself (module.exports = {...})
		return ModuleTarget(tab, file), false
	}
	// export * from './x': the name may come from any of them
	var found *Target
	external := false
	for _, e := range table {
		if e.Name != "*" || e.Default == "" {
			continue
		}
		f, ext := jsSourceFile(tab, file, e.Default)
		if ext {
			external = true
			continue
		}
		t, ext := jsExportDepth(tab, f, name, want, depth+1)
		if ext {
			external = true
		}
		if t != nil {
			if found != nil && found.ID != t.ID {
				return nil, false // exported by two: ambiguous, as in ES
			}
			found = t
		}
	}
	if found != nil {
		return found, false
	}
	return nil, external
}

// jsImportedName is what name imported from file means: the default
// export, the module itself ("" for `import * as`, require), or a named
// export.
func jsImportedName(tab Table, file, name string, want jsWant, depth int) (*Target, bool) {
	if file == "" {
		return nil, false
	}
	if name == "" || name == "*" {
		return ModuleTarget(tab, file), false
	}
	return jsExportDepth(tab, file, name, want, depth)
}

func resolveJSImport(ctx *Context, imp *Import, name string) Resolution {
	f, ext := jsSourceFile(ctx.Table, ctx.File.Path, imp.Source)
	if ext {
		return Unbound(RuleExternal, 0)
	}
	if f == "" {
		return Unbound(RuleUnresolved, 0)
	}
	t, ext := jsImportedName(ctx.Table, f, name, jsAny, 0)
	if ext {
		return Unbound(RuleExternal, 0)
	}
	if t == nil {
		return Unbound(RuleUnresolved, 0)
	}
	return Bound(t, RuleImport)
}

// jsBound resolves a local name bound by an import: its target, or
// external.
func (ctx *Context) jsBound(b Binding, want jsWant) (*Target, bool) {
	f, ext := jsSourceFile(ctx.Table, ctx.File.Path, b.Imp.Source)
	if ext {
		return nil, true
	}
	return jsImportedName(ctx.Table, f, b.Name, want, 0)
}

func resolveJS(ctx *Context, r *Ref) Resolution {
	return jsResolve(ctx, r, 0)
}

func jsResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > MaxDepth {
		return Unbound(RuleUnresolved, 0)
	}
	want := jsCallable
	if r.Kind == RefExtends || r.Kind == RefImplements {
		want = jsType
	}
	if r.Qualifier == "" {
		return jsResolveBare(ctx, r.Name, want)
	}
	return jsResolveQualified(ctx, r, want, depth)
}

// jsScopeChain lists the containers a name used in from can be declared
// in, innermost first: "outer.inner", "outer", "".
func jsScopeChain(ctx *Context) []string {
	from := ctx.From
	if from == nil || from.ID == ctx.File.ModuleID {
		return []string{""}
	}
	q := from.Qualified()
	chain := []string{q}
	for {
		i := strings.LastIndexByte(q, '.')
		if i < 0 {
			break
		}
		q = q[:i]
		chain = append(chain, q)
	}
	return append(chain, "")
}

// jsResolveBare binds an unqualified name: a declaration in an enclosing
// Scope of the same file, an import, a builtin, a unique definition.
func jsResolveBare(ctx *Context, name string, want jsWant) Resolution {
	tab := ctx.Table
	all := tab.ByName(name)
	local := Pick(all, func(t *Target) bool {
		if t.Path != ctx.File.Path || t.ID == ctx.File.ModuleID {
			return false
		}
		switch t.Kind {
		case KindMethod, KindConstructor:
			return false
		case KindVariable:
			return t.Container == "" // class fields are not in scope
		}
		return true
	})
	if len(local) > 0 {
		for _, cont := range jsScopeChain(ctx) {
			if c := jsPick(Pick(local, func(t *Target) bool { return t.Container == cont }), want); c != nil {
				return Bound(c, RuleSameFile)
			}
		}
	}
	if b, ok := ctx.jsBindings()[name]; ok {
		t, ext := ctx.jsBound(b, want)
		if ext {
			return Unbound(RuleExternal, 0)
		}
		if t != nil && b.Name == "" && t.Kind == KindModule {
			// const x = require('./y'); x(): what y exports as a whole
			if d, _ := jsExport(tab, t.Path, "default", want); d != nil {
				t = d
			}
		}
		if t != nil {
			return Bound(t, RuleImport)
		}
		return Unbound(RuleUnresolved, 0)
	}
	if want == jsType && jsBuiltinTypes[name] || want != jsType && jsBuiltins[name] {
		return Unbound(RuleBuiltin, 0)
	}
	if jsExternalFuncs[name] || want == jsType && jsBuiltins[name] {
		return Unbound(RuleExternal, 0)
	}
	// a global of another file: scripts without modules, declare global
	cands := Pick(all, func(t *Target) bool {
		if t.Container != "" || !jsPath(t.Path) {
			return false
		}
		switch t.Kind {
		case KindFunction, KindClass:
			return true
		case KindInterface, KindType:
			return want == jsType
		}
		return false
	})
	cands = PreferDefinitions(cands)
	if len(cands) == 1 && !jsCommonMethods[name] {
		return Bound(cands[0], RuleUniqueName)
	}
	if len(cands) > 1 {
		return Unbound(RuleAmbiguous, len(cands))
	}
	return Unbound(RuleUnresolved, 0)
}

// jsPath reports a file of JavaScript, TypeScript or TSX.
func jsPath(p string) bool {
	switch path.Ext(p) {
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return true
	}
	return false
}

// jsResolveQualified binds x.f(), this.f(), ns.f(), new ns.C().
func jsResolveQualified(ctx *Context, r *Ref, want jsWant, depth int) Resolution {
	tab := ctx.Table
	head := jsHead(r.Qualifier)
	if r.QualifierType != "" || r.QualifierCall != "" || head == "this" || head == "super" {
		typ, ext := jsQualifierType(ctx, r, depth)
		if typ != nil {
			m, mext := jsMember(tab, typ, r.Name)
			if m != nil {
				return Bound(m, RuleReceiver)
			}
			if mext {
				return Unbound(RuleExternal, 0)
			}
			if head == "super" && r.Name == "constructor" && typ.Kind == KindClass {
				// super() of a base without a constructor of its own
				return Bound(typ, RuleReceiver)
			}
			return Unbound(RuleUnresolved, 0)
		}
		if ext {
			return Unbound(RuleExternal, 0)
		}
		if head == "this" || head == "super" {
			return jsUniqueMember(tab, r.Name)
		}
	}
	simple := !strings.ContainsAny(r.Qualifier, "([")
	if simple && r.QualifierType == "" && r.QualifierCall == "" {
		segs := strings.Split(r.Qualifier, ".")
		// the head: a declaration of this file, or an import
		var base *Target
		rule := RuleSameFile
		local := Pick(tab.ByName(head), func(t *Target) bool {
			return t.Path == ctx.File.Path && t.ID != ctx.File.ModuleID && t.Kind != KindMethod && t.Kind != KindConstructor &&
				(t.Kind != KindVariable || t.Container == "")
		})
		for _, cont := range jsScopeChain(ctx) {
			if c := jsPick(Pick(local, func(t *Target) bool { return t.Container == cont }), jsAny); c != nil {
				base = c
				break
			}
		}
		if base == nil {
			if b, ok := ctx.jsBindings()[head]; ok {
				t, ext := ctx.jsBound(b, jsAny)
				if ext {
					return Unbound(RuleExternal, 0)
				}
				if t == nil {
					return Unbound(RuleUnresolved, 0)
				}
				base, rule = t, RuleImport
			} else if jsGlobals[head] {
				return Unbound(RuleExternal, 0)
			}
		}
		if base != nil {
			for _, seg := range segs[1:] {
				next, ext := jsMemberValue(tab, base, seg)
				if ext {
					return Unbound(RuleExternal, 0)
				}
				if next == nil {
					base = nil
					break
				}
				base = next
			}
		}
		if base != nil && base.Kind == KindModule && len(segs) == 1 && (r.Name == "call" || r.Name == "apply") {
			// const bind = require('function-bind'); bind.call(...)
			if d, _ := jsExport(tab, base.Path, "default", jsCallable); d != nil && d.Kind != KindModule {
				base = d
			}
		}
		if base != nil && (r.Name == "call" || r.Name == "apply") && (base.Kind == KindFunction || base.Kind == KindMethod ||
			base.Kind == KindVariable && len(jsMembers(tab, base, r.Name)) == 0) {
			// f.call(this, ...): a call of f, or of the function a
			// variable holds (var slice = Array.prototype.slice)
			return Bound(base, rule)
		}
		if base != nil {
			t, ext, viaType := jsMemberOf(tab, base, r.Name, want)
			if ext {
				return Unbound(RuleExternal, 0)
			}
			if t != nil {
				if viaType {
					rule = RuleReceiver
				}
				return Bound(t, rule)
			}
			return Unbound(RuleUnresolved, 0)
		}
	}
	return jsUniqueMember(tab, r.Name)
}

// jsMemberOf finds member name of what base is: a module's export, a
// namespace's or object's member, a class's static method, a typed
// variable's method. viaType reports the last.
func jsMemberOf(tab Table, base *Target, name string, want jsWant) (t *Target, external, viaType bool) {
	if fi := tab.File(base.Path); fi != nil && base.ID == fi.ModuleID {
		t, ext := jsModuleMember(tab, base.Path, name, want)
		return t, ext, false
	}
	if m, ext := jsMember(tab, base, name); m != nil || ext {
		return m, ext, false
	}
	if base.Kind == KindVariable && base.Returns != "" {
		typ, ext := jsResolveType(tab, base.Path, base.Returns, 0)
		if typ != nil {
			m, mext := jsMember(tab, typ, name)
			return m, mext, true
		}
		return nil, ext, false
	}
	return nil, false, false
}

// jsModuleMember is name of a module: what it exports under that name,
// or else a member of what it exports as a whole (module.exports = obj).
func jsModuleMember(tab Table, file, name string, want jsWant) (*Target, bool) {
	t, ext := jsExport(tab, file, name, want)
	if t != nil || ext {
		return t, ext
	}
	d, _ := jsExport(tab, file, "default", jsAny)
	if d == nil || d.ID == moduleTargetID(tab, file) {
		return nil, false
	}
	m, ext, _ := jsMemberOf(tab, d, name, want)
	return m, ext
}

func moduleTargetID(tab Table, file string) string {
	if fi := tab.File(file); fi != nil {
		return fi.ModuleID
	}
	return ""
}

// jsMemberValue is what base.seg is, in a qualifier a.b.c: an export of a
// module, a namespace member, a field's type.
func jsMemberValue(tab Table, base *Target, seg string) (*Target, bool) {
	if fi := tab.File(base.Path); fi != nil && base.ID == fi.ModuleID {
		return jsModuleMember(tab, base.Path, seg, jsAny)
	}
	if t := jsPick(jsMembers(tab, base, seg), jsAny); t != nil {
		if t.Kind == KindVariable && t.Returns != "" {
			return jsResolveType(tab, t.Path, t.Returns, 0)
		}
		return t, false
	}
	return jsFieldType(tab, base, seg, 0)
}

// jsMembers lists the members called name of container c. Containers are
// known by name only, and TypeScript merges same-named declarations (an
// interface and a function $constructor), so the kinds must fit too: a
// function's nested functions are not its members.
func jsMembers(tab Table, c *Target, name string) []*Target {
	q := c.Qualified()
	return Pick(tab.ByName(name), func(t *Target) bool {
		if t.Path != c.Path || t.Container != q {
			return false
		}
		switch c.Kind {
		case KindModule:
			return true // a namespace
		case KindClass, KindInterface, KindType:
			return t.Kind == KindMethod || t.Kind == KindConstructor || t.Kind == KindVariable
		}
		// an object or a function with members assigned to it
		return t.Kind == KindMethod
	})
}

// jsTypeMembers finds a callable member through a type's bases; a base
// from outside the repository may define it. It is set by init: resolving
// a base leads back to member lookups.
var jsTypeMembers *MemberRules

func init() {
	jsTypeMembers = &MemberRules{
		Own: func(tab Table, typ *Target, name string) *Target {
			return jsPick(jsMembers(tab, typ, name), jsCallable)
		},
		Bases: func(tab Table, typ *Target, _ int) []BaseRef {
			out := make([]BaseRef, 0, len(typ.Bases))
			for _, b := range typ.Bases {
				bt, ext := jsResolveType(tab, typ.Path, b, 0)
				if ext {
					out = append(out, BaseRef{Rule: RuleExternal})
				}
				if bt != nil {
					out = append(out, BaseRef{Target: bt})
				}
			}
			return out
		},
	}
}

// jsMember finds member name of type typ, following its bases. external
// reports a base from outside the repository, which may define it.
func jsMember(tab Table, typ *Target, name string) (*Target, bool) {
	if typ == nil {
		return nil, false
	}
	return jsTypeMembers.FindMember(tab, typ, name, 0)
}

// jsFieldType is the type of field name of typ: a declared field, a
// getter's return type; following bases.
func jsFieldType(tab Table, typ *Target, name string, depth int) (*Target, bool) {
	if depth > MaxDepth || typ == nil {
		return nil, false
	}
	for _, f := range typ.Fields {
		if f.Name == name {
			if f.Type == "" {
				return nil, false
			}
			return jsResolveType(tab, typ.Path, f.Type, 0)
		}
	}
	for _, m := range jsMembers(tab, typ, name) {
		if m.Returns != "" {
			return jsResolveType(tab, m.Path, m.Returns, 0)
		}
	}
	external := false
	for _, b := range typ.Bases {
		bt, ext := jsResolveType(tab, typ.Path, b, 0)
		external = external || ext
		if bt != nil {
			if ft, fext := jsFieldType(tab, bt, name, depth+1); ft != nil || fext {
				return ft, fext
			}
		}
	}
	return nil, external
}

// jsQualifierType works out the type of a call's qualifier from what the
// Extractor knew: this, a typed local, the result of a call.
func jsQualifierType(ctx *Context, r *Ref, depth int) (*Target, bool) {
	tab := ctx.Table
	q := r.Qualifier
	var typ *Target
	var ext bool
	var rest string
	switch {
	case r.QualifierCall != "" && strings.Contains(q, "()"):
		// a.b().c: the type b returns, then its field c
		i := strings.LastIndex(q, "()")
		headType := ""
		if jsHead(r.QualifierCall) == jsHead(q) {
			headType = r.QualifierType
		}
		typ, ext = jsCallResult(ctx, r.QualifierCall, headType, depth)
		rest = strings.TrimPrefix(q[i+2:], ".")
	case strings.HasPrefix(q, "new "):
		typ, ext = jsResolveType(tab, ctx.File.Path, r.QualifierType, 0)
		if i := strings.LastIndex(q, "()"); i >= 0 {
			rest = strings.TrimPrefix(q[i+2:], ".")
		}
	case r.QualifierCall != "":
		// x = f(); x.m()
		typ, ext = jsCallResult(ctx, r.QualifierCall, "", depth)
		_, rest, _ = strings.Cut(q, ".")
	case r.QualifierType != "":
		typ, ext = jsResolveType(tab, ctx.File.Path, r.QualifierType, 0)
		_, rest, _ = strings.Cut(q, ".")
	default:
		return nil, false
	}
	if rest == "" || typ == nil {
		return typ, ext
	}
	for _, seg := range strings.Split(rest, ".") {
		if seg == "" || strings.ContainsAny(seg, "()[") {
			return nil, false
		}
		typ, ext = jsFieldType(tab, typ, seg, 0)
		if typ == nil {
			return nil, ext
		}
	}
	return typ, false
}

// jsCallResult is the type a call of callee returns.
func jsCallResult(ctx *Context, callee, headType string, depth int) (*Target, bool) {
	r := &Ref{Kind: RefCall, Name: callee}
	if i := strings.LastIndexByte(callee, '.'); i >= 0 {
		r.Name, r.Qualifier = callee[i+1:], callee[:i]
		r.QualifierType = headType
		if j := strings.LastIndex(r.Qualifier, "()"); j >= 0 {
			// f().g(): g of what f returns
			r.QualifierCall = r.Qualifier[:j]
		}
	}
	if strings.ContainsAny(r.Name, "()[ ") {
		return nil, false
	}
	res := jsResolve(ctx, r, depth+1)
	if res.Rule == RuleExternal || res.Rule == RuleBuiltin {
		return nil, true
	}
	t := res.Target
	if t == nil {
		return nil, false
	}
	if t.Kind == KindClass {
		return t, false // a class called as a factory
	}
	if t.Kind == KindVariable && strings.HasPrefix(t.Returns, "typeof ") && depth < MaxDepth {
		// const string = ZodString.create: what the aliased function returns
		fi := ctx.Table.File(t.Path)
		if fi == nil {
			return nil, false
		}
		actx := &Context{File: fi, Table: ctx.Table}
		return jsCallResult(actx, strings.TrimPrefix(t.Returns, "typeof "), "", depth+1)
	}
	if t.Returns == "" {
		return nil, false
	}
	if t.Returns == "this" && t.Container != "" {
		// a fluent method: the type it is declared in
		return jsContainerType(ctx.Table, t), false
	}
	return jsResolveType(ctx.Table, t.Path, jsUnpromise(t.Returns), 0)
}

// jsContainerType is the class, interface or object type member m is
// declared in.
func jsContainerType(tab Table, m *Target) *Target {
	name := m.Container
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return jsPick(Pick(tab.ByName(name), func(t *Target) bool {
		return t.Path == m.Path && t.Qualified() == m.Container && t.Kind != KindMethod && t.Kind != KindFunction
	}), jsType)
}

// jsUnpromise is T of Promise<T>: what an awaited call yields.
func jsUnpromise(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "Promise<") && strings.HasSuffix(s, ">") {
		return s[len("Promise<") : len(s)-1]
	}
	return s
}

// jsResolveType resolves a type written in file from to the class,
// interface, type or object it names. external reports a builtin or
// imported type, whose members are not in the repository.
func jsResolveType(tab Table, from, typ string, depth int) (*Target, bool) {
	if depth > MaxDepth {
		return nil, false
	}
	typ = strings.TrimSpace(typ)
	typ = strings.TrimPrefix(typ, "readonly ")
	if strings.ContainsAny(typ, "|&") {
		// T | null | undefined: the one type that is not nothing
		var keep []string
		for _, part := range jsSplitTop(typ) {
			part = strings.TrimSpace(part)
			switch part {
			case "null", "undefined", "void", "":
				continue
			}
			keep = append(keep, part)
		}
		if len(keep) != 1 {
			return nil, false
		}
		typ = keep[0]
	}
	if typ == "" || strings.HasPrefix(typ, "{") || strings.HasPrefix(typ, "(") || strings.HasPrefix(typ, "typeof ") ||
		strings.HasPrefix(typ, "'") || strings.HasPrefix(typ, "\"") {
		return nil, false
	}
	if strings.HasSuffix(typ, "[]") {
		return nil, true // an array's members are the runtime's
	}
	if strings.HasSuffix(typ, "']") || strings.HasSuffix(typ, "\"]") {
		// T['f']: the type of T's field f
		if i := strings.LastIndexByte(typ, '['); i > 0 {
			base, bext := jsResolveType(tab, from, typ[:i], depth+1)
			if base == nil {
				return nil, bext
			}
			return jsFieldType(tab, base, strings.Trim(typ[i+1:len(typ)-1], "'\""), 0)
		}
	}
	name := jsTypeName(typ)
	if name == "any" || name == "unknown" {
		return nil, false // could be anything, ours included
	}
	// the qualified name of a class of this very file (this's type)
	if strings.Contains(name, ".") {
		last := name[strings.LastIndexByte(name, '.')+1:]
		for _, t := range tab.ByName(last) {
			if t.Path == from && t.Qualified() == name && t.Kind != KindMethod {
				return jsFollowAlias(tab, t, depth)
			}
		}
	}
	res := jsResolveBareType(tab, from, name)
	if res.Target != nil {
		return jsFollowAlias(tab, res.Target, depth)
	}
	return nil, res.Rule == RuleExternal || res.Rule == RuleBuiltin
}

// jsFollowAlias follows type X = Y to Y.
func jsFollowAlias(tab Table, t *Target, depth int) (*Target, bool) {
	if t.Kind == KindType && len(t.Fields) == 0 && t.Returns != "" {
		return jsResolveType(tab, t.Path, t.Returns, depth+1)
	}
	return t, false
}

// jsResolveBareType binds a type name, possibly qualified (ns.T), as used
// in file from.
func jsResolveBareType(tab Table, from, name string) Resolution {
	fi := tab.File(from)
	if fi == nil {
		return Unbound(RuleUnresolved, 0)
	}
	ctx := &Context{File: fi, Table: tab}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		r := &Ref{Kind: RefExtends, Name: name[strings.LastIndexByte(name, '.')+1:], Qualifier: name[:strings.LastIndexByte(name, '.')]}
		return jsResolveQualified(ctx, r, jsType, 0)
	}
	if jsBuiltinTypes[name] {
		return Unbound(RuleBuiltin, 0)
	}
	return jsResolveBare(ctx, name, jsType)
}

// jsSplitTop splits a type at the | and & that are not nested in <>, (),
// {} or [].
func jsSplitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '{', '[':
			depth++
		case '>', ')', '}', ']':
			if depth > 0 {
				depth--
			}
		case '|', '&':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// jsUniqueMember binds x.m() with nothing known of x when exactly one
// method m exists and m is distinctive.
func jsUniqueMember(tab Table, name string) Resolution {
	ms := Pick(tab.ByName(name), func(t *Target) bool {
		return t.Kind == KindMethod && jsPath(t.Path)
	})
	ms = PreferDefinitions(ms)
	if len(ms) == 0 {
		if jsCommonMethods[name] {
			// no method of the repository has the name: the
			// runtime's (an array's map, a promise's then)
			return Unbound(RuleExternal, 0)
		}
		return Unbound(RuleUnresolved, 0)
	}
	if len(ms) > 1 {
		return Unbound(RuleAmbiguous, len(ms))
	}
	if jsCommonMethods[name] {
		return Unbound(RuleUnresolved, 1)
	}
	return Bound(ms[0], RuleUniqueName)
}
