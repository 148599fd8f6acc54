package c

import (
	"path"
	"sort"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// Resolution for C and C++ (one family: C++ calls C, and a .h file may be
// read as either).
//
// A C program links one global namespace of functions: a name is visible
// where a header declares it (the include closure of the file: its
// #includes resolved to repository files, transitively), and a header's
// declaration and a source file's definition are one function: calls bind
// to the definition. C++ adds namespaces (searched from the innermost
// enclosing one outwards, plus using directives and declarations), classes
// (methods found through typed locals, parameters, members, this, and base
// classes) and overloads (of one name in one scope the first definition:
// references carry no argument types or counts).

// builtins are language builtins and macros of the standard library that
// read like calls: they are dropped.
var builtins = lang.WordFile(data, "builtins.txt")

// commonMethods are method names of the standard library's types (and
// conventions everyone follows) so widespread that a unique definition in
// the repository says little about which one a call on a value of unknown
// type means.
var commonMethods = lang.WordFile(data, "common_methods.txt")

// incPrefix starts the keys of a file's bindings that name the files its
// include closure holds.
const incPrefix = "\x00inc\x00"

// bindings maps what a file's imports bring in: using namespace X
// ("\x00ns\x00X"), using X::y (y), namespace aliases (the alias), and the
// files of its include closure (incPrefix + path).
func bindings(tab lang.Table, fi *lang.FileInfo) map[string]lang.Binding {
	return fi.BindingsWith(func() map[string]lang.Binding {
		m := map[string]lang.Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			switch {
			case len(imp.Names) > 0 && imp.Names[0].Name == "*":
				m["\x00ns\x00"+dots(imp.Source)] = lang.Binding{Imp: imp}
			case len(imp.Names) > 0:
				m[imp.Names[0].Local()] = lang.Binding{Imp: imp, Name: imp.Names[0].Name}
			case imp.Alias != "":
				m[imp.Alias] = lang.Binding{Imp: imp}
			}
		}
		for _, p := range closure(tab, fi.Path) {
			m[incPrefix+p] = lang.Binding{Name: p}
		}
		return m
	})
}

// dots writes a C++ scope with dots: "std::filesystem" -> "std.filesystem".
func dots(s string) string {
	return strings.TrimPrefix(strings.ReplaceAll(s, "::", "."), ".")
}

// usings lists the namespaces a file's using directives bring in.
func usings(b map[string]lang.Binding) []string {
	var out []string
	for k := range b {
		if strings.HasPrefix(k, "\x00ns\x00") {
			out = append(out, k[4:])
		}
	}
	sort.Strings(out)
	return out
}

// maxClosure bounds the include closure of one file.
const maxClosure = 1024

// closure is the file and the repository files it includes, transitively.
func closure(tab lang.Table, file string) []string {
	seen := map[string]bool{file: true}
	out := []string{file}
	for i := 0; i < len(out) && len(out) < maxClosure; i++ {
		for _, inc := range directIncludes(tab, out[i]) {
			if !seen[inc] {
				seen[inc] = true
				out = append(out, inc)
			}
		}
	}
	return out
}

// directIncludes lists the repository files a file includes.
func directIncludes(tab lang.Table, file string) []string {
	v := tab.Memo("c.includes\x00"+file, func() string {
		fi := tab.File(file)
		if fi == nil {
			return ""
		}
		var out []string
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if !isInclude(imp) {
				continue
			}
			if p, _ := includeFile(tab, file, imp.Source); p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, "\x00")
	})
	if v == "" {
		return nil
	}
	return strings.Split(v, "\x00")
}

func isInclude(imp *lang.Import) bool { return len(imp.Names) == 0 && imp.Alias == "" }

// includeFile resolves an #include written in file from: "x.h" against
// the including file's directory, then against every indexed file whose
// path ends with it (include/ directories first, then the nearest one);
// <x.h> only when it names a path (<lib/x.h>) that the repository has, or a
// file under an include directory. It returns the path, or the rule that
// explains why there is none (external for system headers).
func includeFile(tab lang.Table, from, src string) (string, string) {
	v := tab.Memo("c.inc\x00"+from+"\x00"+src, func() string {
		p, rule := includeFileUncached(tab, from, src)
		if p != "" {
			return "=" + p
		}
		return rule
	})
	if strings.HasPrefix(v, "=") {
		return v[1:], ""
	}
	return "", v
}

func includeFileUncached(tab lang.Table, from, src string) (string, string) {
	system := strings.HasPrefix(src, "<")
	inc := strings.TrimSpace(strings.Trim(src, "<>"))
	if inc == "" {
		return "", lang.RuleUnresolved
	}
	if !system {
		if p := path.Join(path.Dir(from), inc); tab.File(p) != nil {
			return p, ""
		}
	}
	key := path.Clean(inc)
	for strings.HasPrefix(key, "../") {
		key = key[3:]
	}
	key = strings.TrimPrefix(key, "./")
	var cands []string
	for _, l := range []string{"c", "cpp"} {
		for _, p := range tab.ModuleFiles(l, key) {
			if p == key || strings.HasSuffix(p, "/"+key) {
				cands = append(cands, p)
			}
		}
	}
	sort.Strings(cands)
	if system {
		// <x.h> is a system header unless the repository lays it out as
		// one of its own: <lib/x.h>, or x.h in an include directory
		cands = lang.PickPaths(cands, func(p string) bool {
			return strings.Contains(key, "/") || strings.HasSuffix(strings.TrimSuffix(p, key), "include/")
		})
	}
	switch len(cands) {
	case 0:
		if system {
			return "", lang.RuleExternal
		}
		return "", lang.RuleUnresolved
	case 1:
		return cands[0], ""
	}
	// several files end with the name: an include directory's, else the
	// one nearest to the including file
	inInclude := lang.PickPaths(cands, func(p string) bool { return strings.HasSuffix(strings.TrimSuffix(p, key), "include/") })
	if len(inInclude) == 1 {
		return inInclude[0], ""
	}
	best, bestLen, tie := "", -1, false
	for _, p := range cands {
		n := lang.CommonDirLen(from, p)
		switch {
		case n > bestLen:
			best, bestLen, tie = p, n, false
		case n == bestLen:
			tie = true
		}
	}
	if tie {
		return "", lang.RuleAmbiguous
	}
	return best, ""
}

func resolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	tab := ctx.Table
	if isInclude(imp) {
		p, rule := includeFile(tab, ctx.File.Path, imp.Source)
		if p == "" {
			return lang.Unbound(rule, 0)
		}
		if t := lang.ModuleTarget(tab, p); t != nil {
			return lang.Bound(t, lang.RuleImport)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	ns := dots(imp.Source)
	if name == "" || name == "*" {
		// a namespace: any symbol of it will do, the one the file sees first
		cands := lang.Pick(tab.ByName(lastDotted(ns)), func(t *lang.Target) bool {
			return t.Kind == lang.KindModule && t.Qualified() == ns && isCFamily(t.Path)
		})
		if len(cands) == 0 {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Bound(nearest(tab, ctx.File, cands), lang.RuleImport)
	}
	cands := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return t.Container == ns && isCFamily(t.Path) && t.Kind != lang.KindModule
	})
	if len(cands) == 0 {
		if !namespaceInRepo(tab, ns) {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	return lang.Bound(nearest(tab, ctx.File, preferDefs(cands)), lang.RuleImport)
}

// nearest picks, of candidates that all mean the same entity, the one the
// file sees: in its include closure, else the first.
func nearest(tab lang.Table, fi *lang.FileInfo, cands []*lang.Target) *lang.Target {
	b := bindings(tab, fi)
	for _, c := range cands {
		if c.Path == fi.Path {
			return c
		}
	}
	for _, c := range cands {
		if _, ok := b[incPrefix+c.Path]; ok {
			return c
		}
	}
	return cands[0]
}

// isCFamily reports whether a path is a C or C++ file.
func isCFamily(p string) bool {
	l := lang.ForPath(p)
	return l != nil && (l.Name == "c" || l.Name == "cpp")
}

// namespaceInRepo reports whether the repository declares namespace ns
// (dotted), or a class of that qualified name. The standard library's
// namespace is never the repository's: a program may only specialize its
// templates there (spdlog's and fmt's "namespace std { template <>
// struct formatter<...> }"), so a name of std it does not declare, such
// as std::move, is external.
func namespaceInRepo(tab lang.Table, ns string) bool {
	if ns == "" {
		return true
	}
	if stdNamespace(ns) {
		return false
	}
	return tab.Memo("c.ns\x00"+ns, func() string {
		for _, t := range tab.ByName(lastDotted(ns)) {
			if (t.Kind == lang.KindModule || lang.IsTypeKind(t.Kind)) && t.Qualified() == ns && isCFamily(t.Path) {
				return "1"
			}
		}
		return ""
	}) != ""
}

// preferDefs orders candidates so that definitions come first: those in
// source files before those in headers (a declaration and its definition
// are one function), keeping the order otherwise.
func preferDefs(ts []*lang.Target) []*lang.Target {
	if len(ts) < 2 {
		return ts
	}
	out := make([]*lang.Target, 0, len(ts))
	for _, t := range ts {
		if !isHeader(t.Path) {
			out = append(out, t)
		}
	}
	for _, t := range ts {
		if isHeader(t.Path) {
			out = append(out, t)
		}
	}
	return out
}

// scopes is the chain of scopes a reference made in symbol from searches:
// its class or namespace, then the enclosing ones, then the global scope.
func scopes(ctx *lang.Context) []string {
	f := ctx.From
	q := ""
	if f != nil {
		switch {
		case f.Kind == lang.KindModule && f.ID == ctx.File.ModuleID:
		case f.Kind == lang.KindModule || lang.IsTypeKind(f.Kind):
			q = f.Qualified()
		default:
			q = f.Container
		}
	}
	var out []string
	for {
		out = append(out, q)
		if q == "" {
			return out
		}
		if i := strings.LastIndexByte(q, '.'); i >= 0 {
			q = q[:i]
		} else {
			q = ""
		}
	}
}

// classOf is the class whose method makes a reference, or nil.
func classOf(ctx *lang.Context) *lang.Target {
	f := ctx.From
	if f == nil || f.Container == "" {
		return nil
	}
	switch f.Kind {
	case lang.KindMethod, lang.KindConstructor:
	case lang.KindClass, lang.KindInterface:
		return f
	case lang.KindFunction:
		// TEST_F(Fixture, Name) { ... } is a method of a subclass of
		// Fixture; a function of a namespace finds no class
	default:
		return nil
	}
	return typeByQualified(ctx.Table, f.Container, ctx.File)
}

// typeByQualified finds a class by its qualified (dotted) name; of
// several (a class defined in two programs), the one the file sees.
func typeByQualified(tab lang.Table, q string, fi *lang.FileInfo) *lang.Target {
	name := lastDotted(q)
	cands := lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		return lang.IsTypeKind(t.Kind) && t.Qualified() == q && isCFamily(t.Path)
	})
	if len(cands) == 0 {
		return nil
	}
	if fi != nil && len(cands) > 1 {
		return nearest(tab, fi, cands)
	}
	return cands[0]
}

func resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	return resolveRef(ctx, r, 0)
}

func resolveRef(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	if depth > lang.MaxDepth {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	switch r.Kind {
	case lang.RefExtends, lang.RefImplements:
		return resolveTypeRef(ctx, r.Qualifier, r.Name, false)
	case lang.RefNew:
		return resolveTypeRef(ctx, r.Qualifier, r.Name, true)
	}
	if r.QualifierType == "&" {
		// a function named as a value: kept when it is one of ours
		if r.Qualifier != "" || builtins.Has(r.Name) {
			return lang.Unbound(lang.RuleBuiltin, 0)
		}
		res := resolveBare(ctx, r.Name)
		if res.Target == nil || res.Target.Kind != lang.KindFunction && res.Target.Kind != lang.KindMethod {
			return lang.Unbound(lang.RuleBuiltin, 0)
		}
		return res
	}
	if r.Qualifier == "" {
		if builtins.Has(r.Name) || strings.HasPrefix(r.Name, "__builtin_") || strings.HasPrefix(r.Name, "__sync_") ||
			strings.HasPrefix(r.Name, "__atomic_") {
			return lang.Unbound(lang.RuleBuiltin, 0)
		}
		return resolveBare(ctx, r.Name)
	}
	if r.QualifierType == scopeMark {
		return resolveScoped(ctx, r, depth)
	}
	return resolveMember(ctx, r, depth)
}

// expandAlias rewrites a dotted scope whose first part is a namespace
// alias of the file: gr.Canvas with namespace gr = geo::render is
// geo.render.Canvas.
func expandAlias(ctx *lang.Context, q string) string {
	head, rest, _ := strings.Cut(q, ".")
	b, ok := bindings(ctx.Table, ctx.File)[head]
	if !ok || b.Imp == nil || b.Imp.Alias == "" {
		return q
	}
	return join(dots(b.Imp.Source), rest)
}

// visible filters candidates to those a file can see by name: not a
// static function or variable of another source file.
func visible(ctx *lang.Context, cands []*lang.Target) []*lang.Target {
	return lang.Pick(cands, func(t *lang.Target) bool {
		if !isCFamily(t.Path) {
			return false
		}
		// not a static function of another source file, nor a type
		// defined in one
		return t.Path == ctx.File.Path || t.Exported || isHeader(t.Path)
	})
}

// inScopes keeps the candidates declared in one of the scopes (or a
// namespace a using directive brings in, or bound by a using declaration).
func inScopes(ctx *lang.Context, cands []*lang.Target, name string) []*lang.Target {
	scopes := scopes(ctx)
	b := bindings(ctx.Table, ctx.File)
	usings := usings(b)
	var used string
	if bd, ok := b[name]; ok && bd.Imp != nil && bd.Name != "" {
		used = dots(bd.Imp.Source)
	}
	for _, s := range scopes {
		// the innermost scope that declares the name hides the outer ones
		in := lang.Pick(cands, func(t *lang.Target) bool { return t.Container == s })
		if len(in) > 0 {
			return in
		}
		for _, u := range usings {
			if uq := join(s, u); s != "" {
				if in := lang.Pick(cands, func(t *lang.Target) bool { return t.Container == uq }); len(in) > 0 {
					return in
				}
			}
		}
	}
	var out []*lang.Target
	for _, u := range usings {
		out = append(out, lang.Pick(cands, func(t *lang.Target) bool { return t.Container == u })...)
	}
	if used != "" {
		out = append(out, lang.Pick(cands, func(t *lang.Target) bool { return t.Container == used })...)
	}
	return out
}

// locate binds one of several candidates for a name that all live in the
// scope the reference searched: the file's own, then the one its include
// closure declares (a declaration binds to its definition), then one in
// the same directory, then the only one; several of one function (its
// declaration, definition and overloads) count as one.
func locate(ctx *lang.Context, cands []*lang.Target, common bool) lang.Resolution {
	if len(cands) == 0 {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	fi := ctx.File
	var same []*lang.Target
	for _, c := range cands {
		if c.Path == fi.Path {
			same = append(same, c)
		}
	}
	if len(same) > 0 {
		if len(families(same)) == 1 {
			// declared here, defined elsewhere: the definition
			if d := definitionOf(ctx, same[0], cands); d != nil && d.Path != fi.Path && isHeader(fi.Path) {
				return lang.Bound(d, lang.RuleImport)
			}
			return lang.Bound(preferDefs(same)[0], lang.RuleSameFile)
		}
	}
	b := bindings(ctx.Table, fi)
	var seen []*lang.Target
	for _, c := range cands {
		if _, ok := b[incPrefix+c.Path]; ok {
			seen = append(seen, c)
		}
	}
	if len(seen) > 0 {
		fams := families(seen)
		if len(fams) == 1 {
			if d := definitionOf(ctx, seen[0], cands); d != nil {
				return lang.Bound(d, lang.RuleImport)
			}
			return lang.Bound(preferDefs(seen)[0], lang.RuleImport)
		}
		return lang.Unbound(lang.RuleAmbiguous, len(fams))
	}
	dir := path.Dir(fi.Path)
	near := lang.Pick(cands, func(t *lang.Target) bool { return path.Dir(t.Path) == dir })
	if len(near) > 0 {
		if fams := families(near); len(fams) == 1 {
			if d := definitionOf(ctx, near[0], cands); d != nil {
				return lang.Bound(d, lang.RuleSamePackage)
			}
			return lang.Bound(preferDefs(near)[0], lang.RuleSamePackage)
		}
	}
	fams := families(cands)
	if len(fams) > 1 {
		return lang.Unbound(lang.RuleAmbiguous, len(fams))
	}
	if common {
		return lang.Unbound(lang.RuleUnresolved, len(cands))
	}
	if d := definitionOf(ctx, cands[0], cands); d != nil {
		return lang.Bound(d, lang.RuleUniqueName)
	}
	return lang.Bound(preferDefs(cands)[0], lang.RuleUniqueName)
}

// families groups candidates by what they define: kind class and
// qualified name (a function's declarations, definitions and overloads
// are one family). Definitions of one name in several source files are
// several families: several programs, or static functions.
func families(ts []*lang.Target) [][]*lang.Target {
	idx := map[string]int{}
	var out [][]*lang.Target
	for _, t := range ts {
		k := familyKind(t.Kind) + "\x00" + t.Qualified()
		if !isHeader(t.Path) && (t.Kind == lang.KindFunction || t.Kind == lang.KindVariable) && t.Container == "" {
			// a global function defined in two source files: two
			// programs' (or static) functions
			k += "\x00" + t.Path
		}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], t)
	}
	// source definitions of a global function join the header family of
	// the same name, when there is exactly one such definition
	if len(out) > 1 {
		var header, defs []int
		for i, f := range out {
			if isHeader(f[0].Path) {
				header = append(header, i)
			} else {
				defs = append(defs, i)
			}
		}
		if len(header) == 1 && len(defs) == 1 && familyKind(out[header[0]][0].Kind) == familyKind(out[defs[0]][0].Kind) &&
			out[header[0]][0].Qualified() == out[defs[0]][0].Qualified() {
			return [][]*lang.Target{append(out[defs[0]], out[header[0]]...)}
		}
	}
	return out
}

func familyKind(k string) string {
	switch k {
	case lang.KindMethod, lang.KindConstructor, lang.KindFunction:
		return "fn"
	case lang.KindClass, lang.KindInterface, lang.KindType:
		return "type"
	}
	return k
}

// definitionOf finds the definition of what decl declares: itself when it
// is one, else the only candidate of its family in a source file; of
// several such definitions (a function defined by two programs), the one
// whose file is named after decl's header, or in the caller's directory.
func definitionOf(ctx *lang.Context, decl *lang.Target, cands []*lang.Target) *lang.Target {
	if !isHeader(decl.Path) {
		return decl
	}
	q := decl.Qualified()
	fk := familyKind(decl.Kind)
	var defs []*lang.Target
	for _, c := range cands {
		if !isHeader(c.Path) && c.Qualified() == q && familyKind(c.Kind) == fk && (c.Exported || c.Container != "") {
			defs = append(defs, c)
		}
	}
	if len(defs) == 0 {
		return nil
	}
	paths := map[string]bool{}
	for _, d := range defs {
		paths[d.Path] = true
	}
	if len(paths) == 1 {
		return defs[0]
	}
	stem := strings.TrimSuffix(decl.Path, path.Ext(decl.Path))
	for _, d := range defs {
		if strings.TrimSuffix(d.Path, path.Ext(d.Path)) == stem {
			return d
		}
	}
	for _, d := range defs {
		if strings.TrimSuffix(path.Base(d.Path), path.Ext(d.Path)) == path.Base(stem) {
			return d
		}
	}
	dir := path.Dir(ctx.File.Path)
	var near []*lang.Target
	for _, d := range defs {
		if path.Dir(d.Path) == dir {
			near = append(near, d)
		}
	}
	if len(near) > 0 {
		return near[0]
	}
	return nil
}

// resolveBare binds an unqualified call: a method of the class the call
// is made in (or of its bases), else a function, macro or variable the
// scopes see.
func resolveBare(ctx *lang.Context, name string) lang.Resolution {
	tab := ctx.Table
	if cls := classOf(ctx); cls != nil {
		if m, _, _ := method(ctx, cls, name, 0); m != nil {
			if m.Path == ctx.File.Path {
				return lang.Bound(m, lang.RuleSameFile)
			}
			return lang.Bound(m, lang.RuleReceiver)
		}
	}
	cands := visible(ctx, lang.Pick(tab.ByName(name), func(t *lang.Target) bool {
		switch t.Kind {
		case lang.KindFunction, lang.KindVariable:
			return true
		case lang.KindClass, lang.KindType:
			return true // T(x): a construction or a functional cast
		}
		return false
	}))
	if len(cands) == 0 {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	in := inScopes(ctx, cands, name)
	if len(in) == 0 {
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	res := locate(ctx, in, false)
	if res.Target != nil && lang.IsTypeKind(res.Target.Kind) {
		if c := constructor(ctx, res.Target); c != nil {
			res.Target = c
		}
	}
	return res
}

// resolveScoped binds ns::f(), Class::f(), Base::f(), Class::Class().
func resolveScoped(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	tab := ctx.Table
	// namespace fs = std::filesystem; fs::f()
	q := expandAlias(ctx, dots(r.Qualifier))
	// a class: a static method, an explicit base method, a constructor
	if typ, rule, _ := resolveTypeName(ctx, q, 0); typ != nil {
		if r.Name == typ.Name {
			if c := constructor(ctx, typ); c != nil {
				return lang.Bound(c, lang.RuleReceiver)
			}
			return lang.Bound(typ, rule)
		}
		m, _, mext := method(ctx, typ, r.Name, 0)
		if m != nil {
			if m.Path == ctx.File.Path {
				return lang.Bound(m, lang.RuleSameFile)
			}
			return lang.Bound(m, lang.RuleReceiver)
		}
		if mext {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	// a namespace, written from inside the scopes
	cands := lang.Pick(tab.ByName(r.Name), func(t *lang.Target) bool {
		return isCFamily(t.Path) && (t.Kind == lang.KindFunction || t.Kind == lang.KindVariable || lang.IsTypeKind(t.Kind))
	})
	for _, s := range scopes(ctx) {
		full := join(s, q)
		in := lang.Pick(cands, func(t *lang.Target) bool { return t.Container == full })
		if len(in) > 0 {
			return locate(ctx, visible(ctx, in), false)
		}
	}
	for _, u := range usings(bindings(tab, ctx.File)) {
		full := join(u, q)
		if in := lang.Pick(cands, func(t *lang.Target) bool { return t.Container == full }); len(in) > 0 {
			return locate(ctx, visible(ctx, in), false)
		}
	}
	if !namespaceInRepo(tab, q) && !namespaceInRepoAnywhere(tab, q) {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// namespaceInRepoAnywhere reports whether some namespace of the
// repository ends with ns (it may be written relative to a using).
func namespaceInRepoAnywhere(tab lang.Table, ns string) bool {
	if stdNamespace(ns) {
		return false // see namespaceInRepo
	}
	last := lastDotted(ns)
	for _, t := range tab.ByName(last) {
		if (t.Kind == lang.KindModule || lang.IsTypeKind(t.Kind)) && isCFamily(t.Path) {
			if q := t.Qualified(); q == ns || strings.HasSuffix(q, "."+ns) {
				return true
			}
		}
	}
	return false
}

// stdNamespace reports whether dotted ns is std or one of its namespaces.
func stdNamespace(ns string) bool {
	return ns == "std" || strings.HasPrefix(ns, "std.")
}

// constructor is the constructor of class typ (a definition first), or
// nil.
func constructor(ctx *lang.Context, typ *lang.Target) *lang.Target {
	if typ.Kind != lang.KindClass {
		return nil
	}
	q := typ.Qualified()
	cs := lang.Pick(ctx.Table.ByName(typ.Name), func(t *lang.Target) bool { return t.Kind == lang.KindConstructor && t.Container == q })
	if len(cs) == 0 {
		return nil
	}
	return preferDefs(cs)[0]
}

// resolveTypeRef binds a type named in a base clause (new: a
// construction, bound to the constructor when the class has one).
func resolveTypeRef(ctx *lang.Context, qual, name string, construct bool) lang.Resolution {
	q := dots(qual)
	typ, rule, ext := resolveTypeName(ctx, join(q, name), 0)
	if typ == nil {
		if ext {
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Unbound(rule, 0)
	}
	if construct {
		if c := constructor(ctx, typ); c != nil {
			return lang.Bound(c, rule)
		}
	}
	return lang.Bound(typ, rule)
}

// resolveTypeName resolves a type written (dotted) in the reference's
// file and scopes: a class, struct, union, enum, typedef or alias; a
// typedef of a struct resolves to the struct. ext reports a type of the
// standard library or another outside library.
func resolveTypeName(ctx *lang.Context, q string, depth int) (*lang.Target, string, bool) {
	q = strings.TrimPrefix(q, ".")
	if q == "" || depth > lang.MaxDepth {
		return nil, lang.RuleUnresolved, false
	}
	if strings.IndexByte(q, '.') > 0 {
		q = expandAlias(ctx, q)
	}
	tab := ctx.Table
	name, qual := lastDotted(q), ""
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		qual = q[:i]
	}
	if primitive[name] && qual == "" {
		return nil, lang.RuleUnresolved, true
	}
	cands := lang.Pick(tab.ByName(name), func(t *lang.Target) bool { return lang.IsTypeKind(t.Kind) && isCFamily(t.Path) })
	if len(cands) == 0 {
		return nil, lang.RuleExternal, true
	}
	var in []*lang.Target
	if qual != "" {
		for _, s := range scopes(ctx) {
			full := join(s, qual)
			if in = lang.Pick(cands, func(t *lang.Target) bool { return t.Container == full }); len(in) > 0 {
				break
			}
		}
		if len(in) == 0 {
			for _, u := range usings(bindings(tab, ctx.File)) {
				full := join(u, qual)
				if in = lang.Pick(cands, func(t *lang.Target) bool { return t.Container == full }); len(in) > 0 {
					break
				}
			}
		}
		if len(in) == 0 {
			// written from elsewhere: any type whose qualified name ends so
			in = lang.Pick(cands, func(t *lang.Target) bool { return strings.HasSuffix("."+t.Qualified(), "."+q) })
			if len(in) == 0 {
				return nil, lang.RuleUnresolved, !namespaceInRepoAnywhere(tab, qual)
			}
		}
	} else {
		in = inScopes(ctx, cands, name)
		if len(in) == 0 {
			// a type of another namespace, named unqualified: seen through
			// an include and a using the index does not follow
			in = cands
		}
	}
	res := locate(ctx, typeDefsFirst(in), false)
	if res.Target == nil {
		return nil, res.Rule, false
	}
	t := res.Target
	// a typedef or alias of another type: that type
	if t.Kind == lang.KindType && t.Returns != "" {
		if inner := simpleType(t.Returns); inner != "" && inner != t.Name {
			fi := tab.File(t.Path)
			if fi != nil {
				ictx := &lang.Context{File: fi, Table: tab, From: &lang.Target{Kind: lang.KindType, Name: t.Name, Container: t.Container, Path: t.Path}}
				if it, _, iext := resolveTypeName(ictx, dots(inner), depth+1); it != nil {
					return it, res.Rule, false
				} else if iext {
					return nil, lang.RuleExternal, true
				}
			}
		}
	}
	return t, res.Rule, false
}

// typeDefsFirst keeps a type's full definitions ahead of typedefs of the
// same name (typedef struct foo foo;).
func typeDefsFirst(ts []*lang.Target) []*lang.Target {
	var cls, other []*lang.Target
	for _, t := range ts {
		if t.Kind == lang.KindClass || t.Kind == lang.KindInterface {
			cls = append(cls, t)
		} else {
			other = append(other, t)
		}
	}
	if len(cls) > 0 {
		// typedef struct node node: the struct is the type
		sameName := lang.Pick(other, func(t *lang.Target) bool { return simpleType(t.Returns) != t.Name })
		return append(cls, sameName...)
	}
	return other
}

// method finds method name of class typ or of its bases. indirect is true
// when the class has a data member of that name (a call through a
// function pointer or a callable member); ext when a base lies outside the
// repository.
func method(ctx *lang.Context, typ *lang.Target, name string, depth int) (m *lang.Target, indirect, ext bool) {
	if depth > lang.MaxDepth {
		return nil, false, false
	}
	q := typ.Qualified()
	ms := lang.Pick(ctx.Table.ByName(name), func(t *lang.Target) bool {
		return (t.Kind == lang.KindMethod || t.Kind == lang.KindConstructor) && t.Container == q && isCFamily(t.Path)
	})
	if len(ms) > 0 {
		ms = preferDefs(ms)
		if ctx.From != nil && ms[0].ID == ctx.From.ID {
			// an overload calling its own name delegates to another
			// overload more often than it recurses
			for _, o := range ms[1:] {
				if o.ID != ctx.From.ID && !isHeader(o.Path) {
					return o, false, false
				}
			}
		}
		return ms[0], false, false
	}
	for _, f := range typ.Fields {
		if f.Name == name {
			return nil, true, false
		}
	}
	fi := ctx.Table.File(typ.Path)
	if fi == nil {
		return nil, false, false
	}
	bctx := &lang.Context{File: fi, Table: ctx.Table, From: typ}
	for _, b := range typ.Bases {
		bt, _, bext := resolveTypeName(bctx, dots(baseName(b)), depth+1)
		if bt == nil {
			ext = ext || bext
			continue
		}
		if bt.ID == typ.ID {
			continue
		}
		bm, bind, be := method(ctx, bt, name, depth+1)
		if bm != nil || bind {
			return bm, bind, false
		}
		ext = ext || be
	}
	return nil, false, ext
}

// baseName strips a base clause's template arguments: "Base<T>" -> "Base".
func baseName(b string) string {
	if i := strings.IndexByte(b, '<'); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(b)
}

// fieldType is the type of data member name of typ or of its bases.
func fieldType(ctx *lang.Context, typ *lang.Target, name string, depth int) (*lang.Target, bool) {
	if depth > lang.MaxDepth {
		return nil, false
	}
	fi := ctx.Table.File(typ.Path)
	if fi == nil {
		return nil, false
	}
	fctx := &lang.Context{File: fi, Table: ctx.Table, From: typ}
	for _, f := range typ.Fields {
		if f.Name == name {
			ft := fieldBaseType(f.Type)
			if ft == "" {
				return nil, false
			}
			t, _, ext := resolveTypeName(fctx, dots(ft), depth+1)
			return t, ext
		}
	}
	for _, b := range typ.Bases {
		if bt, _, _ := resolveTypeName(fctx, dots(baseName(b)), depth+1); bt != nil && bt.ID != typ.ID {
			if t, ext := fieldType(ctx, bt, name, depth+1); t != nil || ext {
				return t, ext
			}
		}
	}
	return nil, false
}

// splitQualifier splits a member qualifier at its dots, keeping calls
// whole: "a.b().c" -> ["a", "b()", "c"].
func splitQualifier(q string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case '(', '[', '<':
			depth++
		case ')', ']', '>':
			depth--
		case '.':
			if depth == 0 {
				out = append(out, q[start:i])
				start = i + 1
			}
		}
	}
	return append(out, q[start:])
}

// resolveMember binds a.f(), p->f(), this->f(), a.b.f(), f().g().
func resolveMember(ctx *lang.Context, r *lang.Ref, depth int) lang.Resolution {
	typ, ext := qualifierType(ctx, r, depth)
	if typ != nil {
		m, indirect, mext := method(ctx, typ, r.Name, 0)
		switch {
		case m != nil:
			if m.Path == ctx.File.Path {
				return lang.Bound(m, lang.RuleSameFile)
			}
			return lang.Bound(m, lang.RuleReceiver)
		case indirect:
			return lang.Unbound(lang.RuleUnresolved, 0) // a call through a function pointer member
		case mext, smartPointerMethods[r.Name]:
			// a base outside the repository; p.get() on a smart pointer
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if ext {
		return lang.Unbound(lang.RuleExternal, 0)
	}
	return uniqueMethod(ctx, r.Name)
}

// qualifierType types the qualifier of member reference r: its head, then
// each member after it; ext reports a type outside the repository.
func qualifierType(ctx *lang.Context, r *lang.Ref, depth int) (*lang.Target, bool) {
	segs := splitQualifier(r.Qualifier)
	var typ *lang.Target
	ext := false
	rest := segs[1:]
	switch {
	case r.QualifierCall != "":
		typ, ext = callResult(ctx, r.QualifierCall, r.QualifierType, depth)
		// the parts after the last call are members
		rest = nil
		if i := lang.LastCall(segs); i >= 0 {
			rest = segs[i+1:]
		}
	case r.QualifierType != "":
		typ, _, ext = resolveTypeName(ctx, dots(r.QualifierType), 0)
	default:
		typ, ext = headType(ctx, segs[0])
	}
	for _, s := range rest {
		if typ == nil {
			break
		}
		if strings.ContainsAny(s, "()[") {
			typ = nil
			break
		}
		typ, ext = fieldType(ctx, typ, s, 0)
	}
	return typ, ext
}

// smartPointerMethods are the methods of std::unique_ptr, shared_ptr and
// optional themselves: p.get() is not a method of p's element type.
var smartPointerMethods = map[string]bool{
	"get": true, "reset": true, "release": true, "swap": true, "use_count": true, "lock": true, "expired": true,
	"value": true, "has_value": true, "value_or": true, "emplace": true, "owner_before": true,
}

// smartElementMethods are the methods of smart pointers and optional that
// give the element: spdlog's "auto pool_ptr = thread_pool_.lock();
// pool_ptr->post_log(...)" on a std::weak_ptr<details::thread_pool>.
var smartElementMethods = map[string]bool{"lock": true, "get": true, "value": true}

// headType types the first part of a qualifier the extractor could not: a
// member of the class the reference is made in (or of its bases), or a
// global variable.
func headType(ctx *lang.Context, head string) (*lang.Target, bool) {
	if strings.ContainsAny(head, "()[") || head == "" {
		return nil, false
	}
	if cls := classOf(ctx); cls != nil {
		if t, ext := fieldType(ctx, cls, head, 0); t != nil || ext {
			return t, ext
		}
	}
	vars := visible(ctx, lang.Pick(ctx.Table.ByName(head), func(t *lang.Target) bool { return t.Kind == lang.KindVariable && t.Returns != "" }))
	if len(vars) == 0 {
		return nil, false
	}
	in := inScopes(ctx, vars, head)
	res := locate(ctx, in, false)
	if res.Target == nil {
		return nil, false
	}
	st := simpleType(res.Target.Returns)
	if st == "" {
		return nil, false
	}
	fi := ctx.Table.File(res.Target.Path)
	if fi == nil {
		return nil, false
	}
	vctx := &lang.Context{File: fi, Table: ctx.Table, From: res.Target}
	t, _, ext := resolveTypeName(vctx, dots(st), 0)
	return t, ext
}

// callResult is the type a call returns: fn is the call as the extractor
// rendered it ("a.b", "geo::make"), headType the type of its first part.
func callResult(ctx *lang.Context, fn, headType string, depth int) (*lang.Target, bool) {
	r := &lang.Ref{Kind: lang.RefCall, Name: fn}
	segs := splitQualifier(fn)
	if len(segs) > 1 {
		r.Name = segs[len(segs)-1]
		r.Qualifier = fn[:len(fn)-len(r.Name)-1]
		r.QualifierType = headType
		if strings.HasSuffix(r.Qualifier, ")") {
			r.QualifierCall = strings.TrimSuffix(r.Qualifier, "()")
		}
	} else if i := strings.LastIndex(fn, "::"); i >= 0 {
		r.Name, r.Qualifier = fn[i+2:], fn[:i]
	}
	if strings.ContainsAny(r.Name, "()[ ") || r.Name == "" {
		return nil, false
	}
	res := resolveRef(ctx, r, depth+1)
	if res.Rule == lang.RuleExternal && smartElementMethods[r.Name] && r.Qualifier != "" {
		// p.lock(), p.get(), o.value() on a smart pointer or optional
		// give its element, the type its declaration stands for
		if typ, _ := qualifierType(ctx, r, depth+1); typ != nil {
			return typ, false
		}
	}
	if res.Rule == lang.RuleExternal {
		return nil, true
	}
	t := res.Target
	if t == nil {
		return nil, false
	}
	if lang.IsTypeKind(t.Kind) {
		return t, false // T(...): a T
	}
	if t.Kind == lang.KindConstructor {
		return typeByQualified(ctx.Table, t.Container, ctx.File), false
	}
	ret := simpleType(t.Returns)
	if ret == "" {
		return nil, false
	}
	fi := ctx.Table.File(t.Path)
	if fi == nil {
		return nil, false
	}
	rctx := &lang.Context{File: fi, Table: ctx.Table, From: t}
	typ, _, ext := resolveTypeName(rctx, dots(ret), depth+1)
	return typ, ext
}

// uniqueMethod binds a method call on a value of unknown type to the only
// method of that name, if the name is distinctive. A name that no method
// of the repository has is a library's, unless some struct has a member of
// that name (a call through a function pointer).
func uniqueMethod(ctx *lang.Context, name string) lang.Resolution {
	ms := lang.Pick(ctx.Table.ByName(name), func(t *lang.Target) bool {
		return (t.Kind == lang.KindMethod) && isCFamily(t.Path)
	})
	if len(ms) == 0 {
		if !fileIsCpp(ctx.File) {
			// C has no methods: a call through a function pointer member
			return lang.Unbound(lang.RuleUnresolved, 0)
		}
		return lang.Unbound(lang.RuleExternal, 0)
	}
	fams := families(ms)
	if len(fams) > 1 {
		return lang.Unbound(lang.RuleAmbiguous, len(fams))
	}
	if commonMethods.Has(name) {
		return lang.Unbound(lang.RuleUnresolved, len(ms))
	}
	return lang.Bound(preferDefs(ms)[0], lang.RuleUniqueName)
}

// fileIsCpp reports whether a file is C++: by its language, or for a .h
// read as C++, by its imports (using directives, <vector>-style headers).
func fileIsCpp(fi *lang.FileInfo) bool {
	if fi.Lang == "cpp" {
		return true
	}
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if !isInclude(imp) {
			return true
		}
		if strings.HasPrefix(imp.Source, "<") && !strings.Contains(imp.Source, ".") {
			return true
		}
	}
	return false
}
