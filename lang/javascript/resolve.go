package javascript

import (
	"path"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// builtins are the functions and constructors of the language itself:
// calls to them are dropped.
var builtins = lang.WordFile(data, "builtins.txt")

// globals are the global objects of JavaScript runtimes: a call on them
// (console.log, Math.max, process.exit) is external.
var globals = lang.WordFile(data, "globals.txt")

// externalFuncs are global functions of runtimes and test runners that
// are worth keeping in the graph as external calls.
var externalFuncs = lang.WordFile(data, "external_functions.txt")

// builtinTypes are types whose members are the runtime's.
var builtinTypes = lang.WordFile(data, "types.txt")

// commonMethods are method names of the standard objects (arrays,
// strings, promises, maps, streams, emitters) and of most frameworks: a
// unique definition in the repository says little about a call of one.
var commonMethods = lang.WordFile(data, "common_methods.txt")

// bindings maps the local names a file's imports bind to them: the
// module itself (binding.name "") or one name of it.
func bindings(ctx *lang.Context) map[string]lang.Binding {
	return ctx.File.BindingsWith(func() map[string]lang.Binding {
		return fileBindings(ctx.File)
	})
}

func fileBindings(fi *lang.FileInfo) map[string]lang.Binding {
	m := map[string]lang.Binding{}
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if imp.Alias != "" {
			m[imp.Alias] = lang.Binding{Imp: imp}
		}
		for _, n := range imp.Names {
			if n.Name == "*" {
				continue
			}
			m[n.Local()] = lang.Binding{Imp: imp, Name: n.Name}
		}
	}
	return m
}

// The extensions relative imports may leave out, in the order TypeScript
// and bundlers try them.
var probeExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.mts", ".d.cts"}

// sourceFile maps an import specifier written in file from to the
// repository file it names. external is true for packages.
func sourceFile(tab lang.Table, from, spec string) (file string, external bool) {
	dir := path.Dir(from)
	v := tab.Memo("js.src\x00"+dir+"\x00"+spec, func() string {
		f, ext := sourceFileUncached(tab, dir, spec)
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

func sourceFileUncached(tab lang.Table, dir, spec string) (string, bool) {
	switch {
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		p := path.Join(dir, spec)
		if p == ".." || strings.HasPrefix(p, "../") {
			return "", true // outside the indexed tree
		}
		return probe(tab, p), false
	case strings.HasPrefix(spec, "/"):
		return probe(tab, strings.TrimPrefix(path.Clean(spec), "/")), false
	case strings.HasPrefix(spec, "@/") || strings.HasPrefix(spec, "~/") || strings.HasPrefix(spec, "#/"):
		// the usual path aliases of a project's own sources, under the
		// package of the importing file, then under the repository
		rest := spec[2:]
		for _, pkg := range []string{packageDir(tab, dir), "."} {
			for _, root := range []string{"src", "", "app", "lib"} {
				if f := probe(tab, path.Join(pkg, root, rest)); f != "" {
					return f, false
				}
			}
		}
		return "", false
	}
	return packageFile(tab, spec)
}

// packageDir is the directory of the repository's package that holds
// dir: the deepest one with a package.json.
func packageDir(tab lang.Table, dir string) string {
	best := "."
	for _, p := range packages(tab) {
		d := p.Dir
		if (dir == d || strings.HasPrefix(dir, d+"/")) && len(d) > len(best) {
			best = d
		}
	}
	return best
}

// packageFile maps a bare specifier naming a package of the repository
// ("zod/v4", "@scope/pkg") to its source: the subpath under the package's
// directory, its src/ or lib/, by the conventions of TypeScript packages
// that export their sources. Other packages are external.
func packageFile(tab lang.Table, spec string) (string, bool) {
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
	for _, p := range packages(tab) {
		dir := p.Dir
		if p.Name != name {
			continue
		}
		if sub == "" {
			// package.json's source, module or main
			for _, e := range p.Entries {
				if f := probe(tab, path.Join(dir, e)); f != "" {
					return f, false
				}
			}
		}
		for _, root := range []string{"src", "", "lib", "source"} {
			base := path.Join(dir, root, sub)
			if sub == "" {
				base = path.Join(dir, root, "index")
			}
			if f := probe(tab, base); f != "" {
				return f, false
			}
		}
		return "", false // ours, but its sources are not where we look
	}
	return "", true
}

// probe finds the file an extensionless, .js-for-.ts or directory
// specifier means.
func probe(tab lang.Table, p string) string {
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
	for _, e := range probeExts {
		if tab.File(p+e) != nil {
			return p + e
		}
	}
	for _, e := range probeExts {
		if f := path.Join(p, "index"+e); tab.File(f) != nil {
			return f
		}
	}
	return ""
}

// wantKind says what a name is looked up for: a call, a construction, a
// type, or anything.
type wantKind int

const (
	wantAny wantKind = iota
	wantCallable
	wantType
)

// pick chooses among same-named top-level symbols of one file: the kind
// the use wants, and of overloads the last (the implementation).
func pick(cands []*lang.Target, want wantKind) *lang.Target {
	if len(cands) == 0 {
		return nil
	}
	if len(cands) == 1 {
		return cands[0]
	}
	rank := func(k string) int {
		switch want {
		case wantCallable:
			switch k {
			case lang.KindFunction, lang.KindClass, lang.KindMethod, lang.KindConstructor:
				return 0
			case lang.KindVariable:
				return 1
			case lang.KindModule:
				return 2
			}
		case wantType:
			switch k {
			case lang.KindClass, lang.KindInterface:
				return 0
			case lang.KindType:
				return 1
			case lang.KindModule, lang.KindVariable, lang.KindFunction:
				return 2
			}
		default:
			// a value before a type of the same name (TypeScript's
			// const X = ...; type X = ...)
			switch k {
			case lang.KindClass, lang.KindFunction:
				return 0
			case lang.KindVariable, lang.KindModule:
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

// topLevel returns the top-level symbols of file called name, without
// the file's own module symbol.
func topLevel(tab lang.Table, file, name string) []*lang.Target {
	fi := tab.File(file)
	return lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return t.Path == file && t.Container == "" && (fi == nil || t.ID != fi.ModuleID)
	})
}

// moduleSymbol is the module symbol of a file as stored, with the
// export aliases in its Fields.
func moduleSymbol(tab lang.Table, file string) *lang.Target {
	fi := tab.File(file)
	if fi == nil {
		return nil
	}
	name := path.Base(moduleName(file))
	for _, t := range tab.ByName(name) {
		if t.ID == fi.ModuleID {
			return t
		}
	}
	return nil
}

// exportTable is a file's export table: the Fields of its module
// symbol (see walkState.exportAs).
func exportTable(tab lang.Table, file string) []lang.Param {
	// memoized: finding the module symbol scans every module of its
	// name, and a monorepo has thousands called index
	v := tab.Memo("js.exports\x00"+file, func() string {
		m := moduleSymbol(tab, file)
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
	var out []lang.Param
	for _, e := range strings.Split(strings.TrimSuffix(v, "\x01"), "\x01") {
		parts := strings.SplitN(e, "\x00", 3)
		if len(parts) == 3 {
			out = append(out, lang.Param{Name: parts[0], Type: parts[1], Default: parts[2]})
		}
	}
	return out
}

// export finds the symbol file exports as name, following aliases and
// re-exports through barrel files. external reports a name re-exported
// from a package.
func export(tab lang.Table, file, name string, want wantKind) (*lang.Target, bool) {
	return exportDepth(tab, file, name, want, 0)
}

func exportDepth(tab lang.Table, file, name string, want wantKind, depth int) (*lang.Target, bool) {
	if depth > lang.MaxDepth || file == "" {
		return nil, false
	}
	key := "js.export\x00" + file + "\x00" + name + "\x00" + string(rune('0'+want))
	v := tab.Memo(key, func() string {
		t, ext := exportUncached(tab, file, name, want, depth)
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
		return lang.ModuleTarget(tab, parts[2]), false
	}
	for _, t := range tab.ByName(parts[1]) {
		if t.ID == parts[0] {
			return t, false
		}
	}
	return nil, false
}

func exportUncached(tab lang.Table, file, name string, want wantKind, depth int) (*lang.Target, bool) {
	fi := tab.File(file)
	if fi == nil {
		return nil, false
	}
	table := exportTable(tab, file)
	local, listed := name, false
	for _, e := range table {
		if e.Name != name {
			continue
		}
		if e.Default != "" {
			// export { a as name } from './x', export * as name from './x'
			f, ext := sourceFile(tab, file, e.Default)
			if ext {
				return nil, true
			}
			if e.Type == "*" {
				if f == "" {
					return nil, false
				}
				return lang.ModuleTarget(tab, f), false
			}
			return importedName(tab, f, e.Type, want, depth+1)
		}
		local, listed = e.Type, true
		break
	}
	if t := pick(topLevel(tab, file, local), want); t != nil {
		return t, false
	}
	if listed {
		// import { a } from './x'; export { a }: what the import binds
		if b, ok := fileBindings(fi)[local]; ok {
			f, ext := sourceFile(tab, file, b.Imp.Source)
			if ext {
				return nil, true
			}
			return importedName(tab, f, b.Name, want, depth+1)
		}
		return nil, false
	}
	if name == "default" {
		// no export default: the module itself (module.exports = {...})
		return lang.ModuleTarget(tab, file), false
	}
	// export * from './x': the name may come from any of them
	var found *lang.Target
	external := false
	for _, e := range table {
		if e.Name != "*" || e.Default == "" {
			continue
		}
		f, ext := sourceFile(tab, file, e.Default)
		if ext {
			external = true
			continue
		}
		t, ext := exportDepth(tab, f, name, want, depth+1)
		if ext {
			external = true
		}
		if t != nil && t.Path == f && !t.Exported && !exportListed(tab, f, name) {
			// a top-level name f keeps to itself is none of its exports
			// (mikro-orm's colors.ts has a const wrap beside entity/wrap.ts's
			// export function wrap, both under core's export *)
			t = nil
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

// exportListed reports whether file's export table names name (export { a },
// export { a as name }).
func exportListed(tab lang.Table, file, name string) bool {
	for _, e := range exportTable(tab, file) {
		if e.Name == name {
			return true
		}
	}
	return false
}

// importedName is what name imported from file means: the default
// export, the module itself ("" for `import * as`, require), or a named
// export.
func importedName(tab lang.Table, file, name string, want wantKind, depth int) (*lang.Target, bool) {
	if file == "" {
		return nil, false
	}
	if name == "" || name == "*" {
		return lang.ModuleTarget(tab, file), false
	}
	return exportDepth(tab, file, name, want, depth)
}

func resolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	f, ext := sourceFile(ctx.Table, ctx.File.Path, imp.Source)
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if f == "" {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	t, ext := importedName(ctx.Table, f, name, wantAny, 0)
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	if t == nil {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	return lang.Bound(t, lang.RuleImport)
}

// bound resolves a local name bound by an import: its target, or
// external.
func bound(ctx *lang.Context, b lang.Binding, want wantKind) (*lang.Target, bool) {
	f, ext := sourceFile(ctx.Table, ctx.File.Path, b.Imp.Source)
	if ext {
		return nil, true
	}
	return importedName(ctx.Table, f, b.Name, want, 0)
}

func resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	return resolveRef(ctx, r, 0)
}

func resolveRef(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	want := wantCallable
	if r.Kind == lang.RefExtends || r.Kind == lang.RefImplements {
		want = wantType
	}
	if r.Qualifier == "" {
		return resolveBare(ctx, r.Name, want)
	}
	return resolveQualified(ctx, r, want, depth)
}

// scopeChain lists the containers a name used in from can be declared
// in, innermost first: "outer.inner", "outer", "".
func scopeChain(ctx *lang.Context) []string {
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

// resolveBare binds an unqualified name: a declaration in an enclosing
// scope of the same file, an import, a builtin, a unique definition.
func resolveBare(ctx *lang.Context, name string, want wantKind) lang.Resolution {
	tab := ctx.Table
	all := tab.ByName(name)
	local := lang.Pick(all, func(t *lang.Target) bool {
		if t.Path != ctx.File.Path || t.ID == ctx.File.ModuleID {
			return false
		}
		switch t.Kind {
		case lang.KindMethod, lang.KindConstructor:
			return false
		case lang.KindVariable:
			return t.Container == "" // class fields are not in scope
		}
		return true
	})
	if len(local) > 0 {
		for _, cont := range scopeChain(ctx) {
			if c := pick(lang.Pick(local, func(t *lang.Target) bool { return t.Container == cont }), want); c != nil {
				return lang.Bound(c, lang.RuleSameFile)
			}
		}
	}
	if b, ok := bindings(ctx)[name]; ok {
		t, ext := bound(ctx, b, want)
		if ext {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		if t != nil && b.Name == "" && t.Kind == lang.KindModule {
			// const x = require('./y'); x(): what y exports as a whole
			if d, _ := export(tab, t.Path, "default", want); d != nil {
				t = d
			}
		}
		if t != nil {
			return lang.Bound(t, lang.RuleImport)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if want == wantType && builtinTypes.Has(name) || want != wantType && builtins.Has(name) {
		return lang.Unbound(lang.RuleBuiltin, 0)
	}
	if externalFuncs.Has(name) || want == wantType && builtins.Has(name) {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	// a global of another file: scripts without modules, declare global
	cands := lang.Pick(all, func(t *lang.Target) bool {
		if t.Container != "" || !isPath(t.Path) {
			return false
		}
		switch t.Kind {
		case lang.KindFunction, lang.KindClass:
			return true
		case lang.KindInterface, lang.KindType:
			return want == wantType
		}
		return false
	})
	cands = lang.PreferDefinitions(cands)
	if len(cands) == 1 && !commonMethods.Has(name) {
		return lang.Bound(cands[0], lang.RuleUniqueName)
	}
	if len(cands) > 1 {
		return lang.Unbound(lang.RuleAmbiguous, len(cands))
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// isPath reports a file of JavaScript, TypeScript or TSX.
func isPath(p string) bool {
	switch path.Ext(p) {
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return true
	}
	return false
}

// resolveQualified binds x.f(), this.f(), ns.f(), new ns.C().
func resolveQualified(ctx *lang.Context, r *lang.Ref, want wantKind, depth int) lang.Resolution {
	tab := ctx.Table
	head := head(r.Qualifier)
	if r.QualifierType != "" || r.QualifierCall != "" || head == "this" || head == "super" {
		typ, ext := qualifierType(ctx, r, depth)
		if typ != nil {
			m, mext := findMember(tab, typ, r.Name)
			if m != nil {
				return lang.Bound(m, lang.RuleReceiver)
			}
			if strings.HasPrefix(typ.Name, openType) {
				// the subtype a type parameter stands for, or the
				// object type written in place, may have it
				if res := uniqueMember(tab, r.Name); !mext || res.Target != nil || res.Candidates > 0 {
					return res
				}
			}
			if mext {
				return lang.Unbound(lang.RuleExternal, 0)
			}
			if head == "super" && r.Name == "constructor" && typ.Kind == lang.KindClass {
				// super() of a base without a constructor of its own
				return lang.Bound(typ, lang.RuleReceiver)
			}
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		if ext {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		if head == "this" || head == "super" {
			return uniqueMember(tab, r.Name)
		}
	}
	simple := !strings.ContainsAny(r.Qualifier, "([")
	if simple && r.QualifierType == "" && r.QualifierCall == "" {
		segs := strings.Split(r.Qualifier, ".")
		// the head: a declaration of this file, or an import
		var base *lang.Target
		rule := lang.RuleSameFile
		local := lang.Pick(tab.ByName(head), func(t *lang.Target) bool {
			return t.Path == ctx.File.Path && t.ID != ctx.File.ModuleID && t.Kind != lang.KindMethod && t.Kind != lang.KindConstructor &&
				(t.Kind != lang.KindVariable || t.Container == "")
		})
		for _, cont := range scopeChain(ctx) {
			if c := pick(lang.Pick(local, func(t *lang.Target) bool { return t.Container == cont }), wantAny); c != nil {
				base = c
				break
			}
		}
		if base == nil {
			if b, ok := bindings(ctx)[head]; ok {
				t, ext := bound(ctx, b, wantAny)
				if ext {
					return lang.Unbound(lang.RuleExternal, 0)
				}
				if t == nil {
					return lang.Unbound(lang.RuleUnresolved, 0)
				}
				base, rule = t, lang.RuleImport
			} else if globals.Has(head) {
				return lang.Unbound(lang.RuleExternal, 0)
			}
		}
		if base != nil {
			for _, seg := range segs[1:] {
				next, ext := memberValue(tab, base, seg)
				if ext {
					return lang.Unbound(lang.RuleExternal, 0)
				}
				if next == nil {
					base = nil
					break
				}
				base = next
			}
		}
		if base != nil && base.Kind == lang.KindModule && len(segs) == 1 && (r.Name == "call" || r.Name == "apply") {
			// const bind = require('function-bind'); bind.call(...)
			if d, _ := export(tab, base.Path, "default", wantCallable); d != nil && d.Kind != lang.KindModule {
				base = d
			}
		}
		if base != nil && (r.Name == "call" || r.Name == "apply") && (base.Kind == lang.KindFunction || base.Kind == lang.KindMethod ||
			base.Kind == lang.KindVariable && len(members(tab, base, r.Name)) == 0) {
			// f.call(this, ...): a call of f, or of the function a
			// variable holds (var slice = Array.prototype.slice)
			return lang.Bound(base, rule)
		}
		if base != nil {
			t, ext, viaType := memberOf(tab, base, r.Name, want)
			if ext {
				return lang.Unbound(lang.RuleExternal, 0)
			}
			if t != nil {
				if viaType {
					rule = lang.RuleReceiver
				}
				return lang.Bound(t, rule)
			}
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
	}
	return uniqueMember(tab, r.Name)
}

// memberOf finds member name of what base is: a module's export, a
// namespace's or object's member, a class's static method, a typed
// variable's method. viaType reports the last.
func memberOf(tab lang.Table, base *lang.Target, name string, want wantKind) (t *lang.Target, external, viaType bool) {
	if fi := tab.File(base.Path); fi != nil && base.ID == fi.ModuleID {
		t, ext := moduleMember(tab, base.Path, name, want)
		return t, ext, false
	}
	if m, ext := findMember(tab, base, name); m != nil || ext {
		return m, ext, false
	}
	if base.Kind == lang.KindVariable && base.Returns != "" {
		typ, ext := resolveType(tab, base.Path, base.Returns, 0)
		if typ != nil {
			m, mext := findMember(tab, typ, name)
			return m, mext, true
		}
		return nil, ext, false
	}
	return nil, false, false
}

// moduleMember is name of a module: what it exports under that name,
// or else a member of what it exports as a whole (module.exports = obj).
func moduleMember(tab lang.Table, file, name string, want wantKind) (*lang.Target, bool) {
	t, ext := export(tab, file, name, want)
	if t != nil || ext {
		return t, ext
	}
	d, _ := export(tab, file, "default", wantAny)
	if d == nil || d.ID == moduleTargetID(tab, file) {
		return nil, false
	}
	m, ext, _ := memberOf(tab, d, name, want)
	return m, ext
}

func moduleTargetID(tab lang.Table, file string) string {
	if fi := tab.File(file); fi != nil {
		return fi.ModuleID
	}
	return ""
}

// memberValue is what base.seg is, in a qualifier a.b.c: an export of a
// module, a namespace member, a field's type.
func memberValue(tab lang.Table, base *lang.Target, seg string) (*lang.Target, bool) {
	if fi := tab.File(base.Path); fi != nil && base.ID == fi.ModuleID {
		return moduleMember(tab, base.Path, seg, wantAny)
	}
	if t := pick(members(tab, base, seg), wantAny); t != nil {
		if t.Kind == lang.KindVariable && t.Returns != "" {
			return resolveType(tab, t.Path, t.Returns, 0)
		}
		return t, false
	}
	return fieldType(tab, base, seg, 0)
}

// members lists the members called name of container c. Containers are
// known by name only, and TypeScript merges same-named declarations (an
// interface and a function $constructor), so the kinds must fit too: a
// function's nested functions are not its members.
func members(tab lang.Table, c *lang.Target, name string) []*lang.Target {
	q := c.Qualified()
	return lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		if t.Path != c.Path || t.Container != q {
			return false
		}
		switch c.Kind {
		case lang.KindModule:
			return true // a namespace
		case lang.KindClass, lang.KindInterface, lang.KindType:
			return t.Kind == lang.KindMethod || t.Kind == lang.KindConstructor || t.Kind == lang.KindVariable
		}
		// an object or a function with members assigned to it
		return t.Kind == lang.KindMethod
	})
}

// typeMembers finds a callable member through a type's bases; a base
// from outside the repository may define it. It is set by init: resolving
// a base leads back to member lookups.
var typeMembers *lang.MemberRules

func init() {
	typeMembers = &lang.MemberRules{
		Own: func(tab lang.Table, typ *lang.Target, name string) *lang.Target {
			return pick(members(tab, typ, name), wantCallable)
		},
		Bases: func(tab lang.Table, typ *lang.Target, _ int) []lang.BaseRef {
			out := make([]lang.BaseRef, 0, len(typ.Bases))
			for _, b := range typ.Bases {
				bt, ext := resolveType(tab, typ.Path, b, 0)
				if ext {
					out = append(out, lang.BaseRef{Rule: lang.RuleExternal})
				}
				if bt != nil {
					out = append(out, lang.BaseRef{Target: bt})
				}
			}
			return out
		},
	}
}

// findMember finds member name of type typ, following its bases. external
// reports a base from outside the repository, which may define it.
func findMember(tab lang.Table, typ *lang.Target, name string) (*lang.Target, bool) {
	if typ == nil {
		return nil, false
	}
	return typeMembers.FindMember(tab, typ, name, 0)
}

// fieldType is the type of field name of typ: a declared field, a
// getter's return type; following bases.
func fieldType(tab lang.Table, typ *lang.Target, name string, depth int) (*lang.Target, bool) {
	if depth > lang.MaxDepth || typ == nil {
		return nil, false
	}
	for _, f := range typ.Fields {
		if f.Name == name {
			if f.Type == "" {
				return nil, false
			}
			return boundType(tab, typ.Path, f.Type, boundBy(f.Type, typ.TypeParams))
		}
	}
	for _, m := range members(tab, typ, name) {
		if m.Returns != "" {
			return boundType(tab, m.Path, m.Returns, boundBy(boundBy(m.Returns, m.TypeParams), typ.TypeParams))
		}
	}
	external := false
	for _, b := range typ.Bases {
		bt, ext := resolveType(tab, typ.Path, b, 0)
		external = external || ext
		if bt != nil {
			if ft, fext := fieldType(tab, bt, name, depth+1); ft != nil || fext {
				return ft, fext
			}
		}
	}
	return nil, external
}

// qualifierType works out the type of a call's qualifier from what the
// extractor knew: this, a typed local, the result of a call.
func qualifierType(ctx *lang.Context, r *lang.Ref, depth int) (*lang.Target, bool) {
	tab := ctx.Table
	q := r.Qualifier
	var typ *lang.Target
	var ext bool
	var rest string
	switch {
	case r.QualifierCall != "" && strings.Contains(q, "()"):
		// a.b().c: the type b returns, then its field c
		i := strings.LastIndex(q, "()")
		headType := ""
		if head(r.QualifierCall) == head(q) {
			headType = r.QualifierType
		}
		typ, ext = callResult(ctx, r.QualifierCall, headType, depth)
		rest = strings.TrimPrefix(q[i+2:], ".")
	case strings.HasPrefix(q, "new "):
		typ, ext = resolveType(tab, ctx.File.Path, r.QualifierType, 0)
		if i := strings.LastIndex(q, "()"); i >= 0 {
			rest = strings.TrimPrefix(q[i+2:], ".")
		}
	case r.QualifierCall != "":
		// x = f(); x.m()
		typ, ext = callResult(ctx, r.QualifierCall, "", depth)
		_, rest, _ = strings.Cut(q, ".")
	case r.QualifierType != "":
		typ, ext = resolveType(tab, ctx.File.Path, r.QualifierType, 0)
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
		typ, ext = fieldType(tab, typ, seg, 0)
		if typ == nil {
			return nil, ext
		}
	}
	return typ, false
}

// callResult is the type a call of callee returns.
func callResult(ctx *lang.Context, callee, headType string, depth int) (*lang.Target, bool) {
	r := &lang.Ref{Kind: lang.RefCall, Name: callee}
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
	res := resolveRef(ctx, r, depth+1)
	if res.Rule == lang.RuleExternal || res.Rule == lang.RuleBuiltin {
		return nil, true
	}
	t := res.Target
	if t == nil {
		return nil, false
	}
	if t.Kind == lang.KindClass {
		return t, false // a class called as a factory
	}
	if t.Kind == lang.KindVariable && strings.HasPrefix(t.Returns, "typeof ") && depth < lang.MaxDepth {
		// const string = ZodString.create: what the aliased function returns
		fi := ctx.Table.File(t.Path)
		if fi == nil {
			return nil, false
		}
		actx := &lang.Context{File: fi, Table: ctx.Table}
		return callResult(actx, strings.TrimPrefix(t.Returns, "typeof "), "", depth+1)
	}
	if t.Returns == "" {
		return nil, false
	}
	if t.Returns == "this" && t.Container != "" {
		// a fluent method: the type it is declared in
		return containerType(ctx.Table, t), false
	}
	ret := boundBy(unpromise(t.Returns), t.TypeParams)
	if t.Kind == lang.KindMethod && typeParamLike(ret) {
		// get(): EM of a class<EM extends EntityManager>
		if c := containerType(ctx.Table, t); c != nil {
			ret = boundBy(ret, c.TypeParams)
		}
	}
	return boundType(ctx.Table, t.Path, unpromise(t.Returns), ret)
}

// openType starts the name of a type of no symbol that may have members
// its bases lack: the type of a value typed by a type parameter, whose
// bases are the constraint (the value is of a subtype of it), or an
// intersection with an object type written in place.
const openType = "open "

// boundType resolves typ, written in file from, whose type parameters
// bound wrote as their constraints (boundBy): when it names any, the type
// is one of unknown name whose base is the constraint.
func boundType(tab lang.Table, from, typ, bound string) (*lang.Target, bool) {
	if bound == typ {
		return resolveType(tab, from, typ, 0)
	}
	bases := []string{bound}
	if plainIntersection(bound) {
		// its own bases: an intersection's target has no ID to tell it
		// from this one by
		bases = bases[:0]
		for _, p := range splitTop(bound) {
			if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "{") {
				bases = append(bases, p)
			}
		}
	}
	return &lang.Target{Path: from, Kind: lang.KindType, Name: openType + bound, Bases: bases}, false
}

// boundBy writes in typ the constraints of the type parameters of params
// it names (bindTypeParams).
func boundBy(typ string, params []lang.Param) string {
	if len(params) == 0 {
		return typ
	}
	return bindTypeParams(typ, func(name string) (string, bool) {
		for _, p := range params {
			if p.Name == name {
				return p.Type, true
			}
		}
		return "", false
	})
}

// typeParamLike reports a type that may name a type parameter of the
// class around a method: a bare name, alone or in an intersection.
func typeParamLike(typ string) bool {
	for _, p := range splitTop(typ) {
		p = strings.TrimSpace(p)
		if p != "" && !strings.ContainsAny(p, ".<>[]{}()'\" ") {
			return true
		}
	}
	return false
}

// containerType is the class, interface or object type member m is
// declared in.
func containerType(tab lang.Table, m *lang.Target) *lang.Target {
	name := m.Container
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return pick(lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return t.Path == m.Path && t.Qualified() == m.Container && t.Kind != lang.KindMethod && t.Kind != lang.KindFunction
	}), wantType)
}

// unpromise is T of Promise<T>: what an awaited call yields.
func unpromise(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "Promise<") && strings.HasSuffix(s, ">") {
		return s[len("Promise<") : len(s)-1]
	}
	return s
}

// resolveType resolves a type written in file from to the class,
// interface, type or object it names. external reports a builtin or
// imported type, whose members are not in the repository.
func resolveType(tab lang.Table, from, typ string, depth int) (*lang.Target, bool) {
	if depth > lang.MaxDepth {
		return nil, false
	}
	typ = strings.TrimSpace(typ)
	typ = strings.TrimPrefix(typ, "readonly ")
	if strings.ContainsAny(typ, "|&") {
		// T | null | undefined: the one type that is not nothing
		var keep []string
		for _, part := range splitTop(typ) {
			part = strings.TrimSpace(part)
			switch part {
			case "null", "undefined", "void", "":
				continue
			}
			keep = append(keep, part)
		}
		if len(keep) > 1 && plainIntersection(typ) {
			return intersection(tab, from, keep), false
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
			base, bext := resolveType(tab, from, typ[:i], depth+1)
			if base == nil {
				return nil, bext
			}
			return fieldType(tab, base, strings.Trim(typ[i+1:len(typ)-1], "'\""), 0)
		}
	}
	name := typeName(typ)
	if name == "any" || name == "unknown" {
		return nil, false // could be anything, ours included
	}
	// the qualified name of a class of this very file (this's type)
	if strings.Contains(name, ".") {
		last := name[strings.LastIndexByte(name, '.')+1:]
		for _, t := range tab.ByName(last) {
			if t.Path == from && t.Qualified() == name && t.Kind != lang.KindMethod {
				return followAlias(tab, t, depth)
			}
		}
	}
	res := resolveBareType(tab, from, name)
	if res.Target != nil {
		return followAlias(tab, res.Target, depth)
	}
	return nil, res.Rule == lang.RuleExternal || res.Rule == lang.RuleBuiltin
}

// plainIntersection reports a type whose top-level & join types, not the
// branches of a union or a conditional type (C extends X ? this & Y : this)
// or a function type's result.
func plainIntersection(typ string) bool {
	depth := 0
	for i := 0; i < len(typ); i++ {
		switch typ[i] {
		case '=':
			if i+1 < len(typ) && typ[i+1] == '>' {
				if depth == 0 {
					return false
				}
				i++ // an arrow's > closes nothing
			}
		case '<', '(', '{', '[':
			depth++
		case '>', ')', '}', ']':
			if depth > 0 {
				depth--
			}
		case '|', '?':
			if depth == 0 {
				return false
			}
		}
	}
	return true
}

// intersection is the type A & B: a type of no symbol (no ID) whose
// bases are its named parts, so that a member or field is looked up in
// each. An object type written in place ({ x: number }) has no symbols to
// find: it is left out, and the type is open (openType).
func intersection(tab lang.Table, from string, parts []string) *lang.Target {
	named := parts[:0:0]
	for _, p := range parts {
		if !strings.HasPrefix(p, "{") {
			named = append(named, p)
		}
	}
	switch {
	case len(named) == 0:
		return nil
	case len(named) < len(parts):
		return &lang.Target{Path: from, Kind: lang.KindType, Name: openType + strings.Join(named, " & "), Bases: named}
	case len(named) == 1:
		t, _ := resolveType(tab, from, named[0], 1)
		return t
	}
	return &lang.Target{Path: from, Kind: lang.KindType, Name: strings.Join(named, " & "), Bases: named}
}

// followAlias follows type X = Y to Y.
func followAlias(tab lang.Table, t *lang.Target, depth int) (*lang.Target, bool) {
	if t.Kind == lang.KindType && len(t.Fields) == 0 && t.Returns != "" {
		return resolveType(tab, t.Path, t.Returns, depth+1)
	}
	return t, false
}

// resolveBareType binds a type name, possibly qualified (ns.T), as used
// in file from.
func resolveBareType(tab lang.Table, from, name string) lang.Resolution {
	fi := tab.File(from)
	if fi == nil {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	ctx := &lang.Context{File: fi, Table: tab}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		r := &lang.Ref{Kind: lang.RefExtends, Name: name[strings.LastIndexByte(name, '.')+1:], Qualifier: name[:strings.LastIndexByte(name, '.')]}
		return resolveQualified(ctx, r, wantType, 0)
	}
	if builtinTypes.Has(name) {
		return lang.Unbound(lang.RuleBuiltin, 0)
	}
	return resolveBare(ctx, name, wantType)
}

// splitTop splits a type at the | and & that are not nested in <>, (),
// {} or [].
func splitTop(s string) []string {
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

// uniqueMember binds x.m() with nothing known of x when exactly one
// method m exists and m is distinctive.
func uniqueMember(tab lang.Table, name string) lang.Resolution {
	ms := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return t.Kind == lang.KindMethod && isPath(t.Path)
	})
	ms = lang.PreferDefinitions(ms)
	if len(ms) == 0 {
		if commonMethods.Has(name) {
			// no method of the repository has the name: the
			// runtime's (an array's map, a promise's then)
			return lang.Unbound(lang.RuleExternal, 0)
		}
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
