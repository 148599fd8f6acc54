package lang

import (
	"path"
	"sort"
	"strings"
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

// cBuiltins are language builtins and macros of the standard library that
// read like calls: they are dropped.
var cBuiltins = wordSet("c", "builtins.txt")

// cCommonMethods are method names of the standard library's types (and
// conventions everyone follows) so widespread that a unique definition in
// the repository says little about which one a call on a value of unknown
// type means.
var cCommonMethods = wordSet("c", "common_methods.txt")

func init() {
	for _, name := range []string{"c", "cpp"} {
		l := ByName(name)
		l.builtins = cBuiltins
		l.resolve = resolveC
		l.resolveImport = resolveCImport
	}
}

// cFileScope is the key of a file's bindings that names the files its
// include closure holds.
const cIncPrefix = "\x00inc\x00"

// cBindings maps what a file's imports bring in: using namespace X
// ("\x00ns\x00X"), using X::y (y), namespace aliases (the alias), and the
// files of its include closure (cIncPrefix + path).
func cBindings(tab Table, fi *FileInfo) map[string]Binding {
	return fi.BindingsWith(func() map[string]Binding {
		m := map[string]Binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			switch {
			case len(imp.Names) > 0 && imp.Names[0].Name == "*":
				m["\x00ns\x00"+cDots(imp.Source)] = Binding{Imp: imp}
			case len(imp.Names) > 0:
				m[imp.Names[0].Local()] = Binding{Imp: imp, Name: imp.Names[0].Name}
			case imp.Alias != "":
				m[imp.Alias] = Binding{Imp: imp}
			}
		}
		for _, p := range cClosure(tab, fi.Path) {
			m[cIncPrefix+p] = Binding{Name: p}
		}
		return m
	})
}

// cDots writes a C++ scope with dots: "std::filesystem" -> "std.filesystem".
func cDots(s string) string {
	return strings.TrimPrefix(strings.ReplaceAll(s, "::", "."), ".")
}

// cUsings lists the namespaces a file's using directives bring in.
func cUsings(b map[string]Binding) []string {
	var out []string
	for k := range b {
		if strings.HasPrefix(k, "\x00ns\x00") {
			out = append(out, k[4:])
		}
	}
	sort.Strings(out)
	return out
}

// maxCClosure bounds the include closure of one file.
const maxCClosure = 1024

// cClosure is the file and the repository files it includes, transitively.
func cClosure(tab Table, file string) []string {
	seen := map[string]bool{file: true}
	out := []string{file}
	for i := 0; i < len(out) && len(out) < maxCClosure; i++ {
		for _, inc := range cDirectIncludes(tab, out[i]) {
			if !seen[inc] {
				seen[inc] = true
				out = append(out, inc)
			}
		}
	}
	return out
}

// cDirectIncludes lists the repository files a file includes.
func cDirectIncludes(tab Table, file string) []string {
	v := tab.Memo("c.includes\x00"+file, func() string {
		fi := tab.File(file)
		if fi == nil {
			return ""
		}
		var out []string
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if !cIsInclude(imp) {
				continue
			}
			if p, _ := cIncludeFile(tab, file, imp.Source); p != "" {
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

func cIsInclude(imp *Import) bool { return len(imp.Names) == 0 && imp.Alias == "" }

// cIncludeFile resolves an #include written in file from: "x.h" against
// the including file's directory, then against every indexed file whose
// path ends with it (include/ directories first, then the nearest one);
// <x.h> only when it names a path (<lib/x.h>) that the repository has, or a
// file under an include directory. It returns the path, or the rule that
// explains why there is none (external for system headers).
func cIncludeFile(tab Table, from, src string) (string, string) {
	v := tab.Memo("c.inc\x00"+from+"\x00"+src, func() string {
		p, rule := cIncludeFileUncached(tab, from, src)
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

func cIncludeFileUncached(tab Table, from, src string) (string, string) {
	system := strings.HasPrefix(src, "<")
	inc := strings.TrimSpace(strings.Trim(src, "<>"))
	if inc == "" {
		return "", RuleUnresolved
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
		cands = PickPaths(cands, func(p string) bool {
			return strings.Contains(key, "/") || strings.HasSuffix(strings.TrimSuffix(p, key), "include/")
		})
	}
	switch len(cands) {
	case 0:
		if system {
			return "", RuleExternal
		}
		return "", RuleUnresolved
	case 1:
		return cands[0], ""
	}
	// several files end with the name: an include directory's, else the
	// one nearest to the including file
	inInclude := PickPaths(cands, func(p string) bool { return strings.HasSuffix(strings.TrimSuffix(p, key), "include/") })
	if len(inInclude) == 1 {
		return inInclude[0], ""
	}
	best, bestLen, tie := "", -1, false
	for _, p := range cands {
		n := CommonDirLen(from, p)
		switch {
		case n > bestLen:
			best, bestLen, tie = p, n, false
		case n == bestLen:
			tie = true
		}
	}
	if tie {
		return "", RuleAmbiguous
	}
	return best, ""
}

func resolveCImport(ctx *Context, imp *Import, name string) Resolution {
	tab := ctx.Table
	if cIsInclude(imp) {
		p, rule := cIncludeFile(tab, ctx.File.Path, imp.Source)
		if p == "" {
			return Unbound(rule, 0)
		}
		if t := ModuleTarget(tab, p); t != nil {
			return Bound(t, RuleImport)
		}
		return Unbound(RuleUnresolved, 0)
	}
	ns := cDots(imp.Source)
	if name == "" || name == "*" {
		// a namespace: any symbol of it will do, the one the file sees first
		cands := Pick(tab.ByName(lastDotted(ns)), func(t *Target) bool {
			return t.Kind == KindModule && t.Qualified() == ns && cIsCFamily(t.Path)
		})
		if len(cands) == 0 {
			return Unbound(RuleExternal, 0)
		}
		return Bound(cNearest(tab, ctx.File, cands), RuleImport)
	}
	cands := Pick(tab.ByName(name), func(t *Target) bool {
		return t.Container == ns && cIsCFamily(t.Path) && t.Kind != KindModule
	})
	if len(cands) == 0 {
		if !cNamespaceInRepo(tab, ns) {
			return Unbound(RuleExternal, 0)
		}
		return Unbound(RuleUnresolved, 0)
	}
	return Bound(cNearest(tab, ctx.File, cPreferDefs(cands)), RuleImport)
}

// cNearest picks, of candidates that all mean the same entity, the one the
// file sees: in its include closure, else the first.
func cNearest(tab Table, fi *FileInfo, cands []*Target) *Target {
	b := cBindings(tab, fi)
	for _, c := range cands {
		if c.Path == fi.Path {
			return c
		}
	}
	for _, c := range cands {
		if _, ok := b[cIncPrefix+c.Path]; ok {
			return c
		}
	}
	return cands[0]
}

// cIsCFamily reports whether a path is a C or C++ file.
func cIsCFamily(p string) bool {
	l := ForPath(p)
	return l != nil && (l.Name == "c" || l.Name == "cpp")
}

// cNamespaceInRepo reports whether the repository declares namespace ns
// (dotted), or a class of that qualified name.
func cNamespaceInRepo(tab Table, ns string) bool {
	if ns == "" {
		return true
	}
	return tab.Memo("c.ns\x00"+ns, func() string {
		for _, t := range tab.ByName(lastDotted(ns)) {
			if (t.Kind == KindModule || IsTypeKind(t.Kind)) && t.Qualified() == ns && cIsCFamily(t.Path) {
				return "1"
			}
		}
		return ""
	}) != ""
}

// cPreferDefs orders candidates so that definitions come first: those in
// source files before those in headers (a declaration and its definition
// are one function), keeping the order otherwise.
func cPreferDefs(ts []*Target) []*Target {
	if len(ts) < 2 {
		return ts
	}
	out := make([]*Target, 0, len(ts))
	for _, t := range ts {
		if !cIsHeader(t.Path) {
			out = append(out, t)
		}
	}
	for _, t := range ts {
		if cIsHeader(t.Path) {
			out = append(out, t)
		}
	}
	return out
}

// cScopes is the chain of scopes a reference made in symbol from searches:
// its class or namespace, then the enclosing ones, then the global scope.
func cScopes(ctx *Context) []string {
	f := ctx.From
	q := ""
	if f != nil {
		switch {
		case f.Kind == KindModule && f.ID == ctx.File.ModuleID:
		case f.Kind == KindModule || IsTypeKind(f.Kind):
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

// cClassOf is the class whose method makes a reference, or nil.
func cClassOf(ctx *Context) *Target {
	f := ctx.From
	if f == nil || f.Container == "" {
		return nil
	}
	switch f.Kind {
	case KindMethod, KindConstructor:
	case KindClass, KindInterface:
		return f
	case KindFunction:
		// TEST_F(Fixture, Name) { ... } is a method of a subclass of
		// Fixture; a function of a namespace finds no class
	default:
		return nil
	}
	return cTypeByQualified(ctx.Table, f.Container, ctx.File)
}

// cTypeByQualified finds a class by its qualified (dotted) name; of
// several (a class defined in two programs), the one the file sees.
func cTypeByQualified(tab Table, q string, fi *FileInfo) *Target {
	name := lastDotted(q)
	cands := Pick(tab.ByName(name), func(t *Target) bool {
		return IsTypeKind(t.Kind) && t.Qualified() == q && cIsCFamily(t.Path)
	})
	if len(cands) == 0 {
		return nil
	}
	if fi != nil && len(cands) > 1 {
		return cNearest(tab, fi, cands)
	}
	return cands[0]
}

func resolveC(ctx *Context, r *Ref) Resolution {
	return cResolve(ctx, r, 0)
}

const maxCDepth = 6

func cResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > maxCDepth {
		return Unbound(RuleUnresolved, 0)
	}
	switch r.Kind {
	case RefExtends, RefImplements:
		return cResolveTypeRef(ctx, r.Qualifier, r.Name, false)
	case RefNew:
		return cResolveTypeRef(ctx, r.Qualifier, r.Name, true)
	}
	if r.QualifierType == "&" {
		// a function named as a value: kept when it is one of ours
		if r.Qualifier != "" || cBuiltins[r.Name] {
			return Unbound(RuleBuiltin, 0)
		}
		res := cResolveBare(ctx, r.Name)
		if res.Target == nil || res.Target.Kind != KindFunction && res.Target.Kind != KindMethod {
			return Unbound(RuleBuiltin, 0)
		}
		return res
	}
	if r.Qualifier == "" {
		if cBuiltins[r.Name] || strings.HasPrefix(r.Name, "__builtin_") || strings.HasPrefix(r.Name, "__sync_") ||
			strings.HasPrefix(r.Name, "__atomic_") {
			return Unbound(RuleBuiltin, 0)
		}
		return cResolveBare(ctx, r.Name)
	}
	if r.QualifierType == cScopeMark {
		return cResolveScoped(ctx, r, depth)
	}
	return cResolveMember(ctx, r, depth)
}

// cExpandAlias rewrites a dotted scope whose first part is a namespace
// alias of the file: gr.Canvas with namespace gr = geo::render is
// geo.render.Canvas.
func cExpandAlias(ctx *Context, q string) string {
	head, rest, _ := strings.Cut(q, ".")
	b, ok := cBindings(ctx.Table, ctx.File)[head]
	if !ok || b.Imp == nil || b.Imp.Alias == "" {
		return q
	}
	return cJoin(cDots(b.Imp.Source), rest)
}

// cVisible filters candidates to those a file can see by name: not a
// static function or variable of another source file.
func cVisible(ctx *Context, cands []*Target) []*Target {
	return Pick(cands, func(t *Target) bool {
		if !cIsCFamily(t.Path) {
			return false
		}
		// not a static function of another source file, nor a type
		// defined in one
		return t.Path == ctx.File.Path || t.Exported || cIsHeader(t.Path)
	})
}

// cInScopes keeps the candidates declared in one of the scopes (or a
// namespace a using directive brings in, or bound by a using declaration).
func cInScopes(ctx *Context, cands []*Target, name string) []*Target {
	scopes := cScopes(ctx)
	b := cBindings(ctx.Table, ctx.File)
	usings := cUsings(b)
	var used string
	if bd, ok := b[name]; ok && bd.Imp != nil && bd.Name != "" {
		used = cDots(bd.Imp.Source)
	}
	for _, s := range scopes {
		// the innermost scope that declares the name hides the outer ones
		in := Pick(cands, func(t *Target) bool { return t.Container == s })
		if len(in) > 0 {
			return in
		}
		for _, u := range usings {
			if uq := cJoin(s, u); s != "" {
				if in := Pick(cands, func(t *Target) bool { return t.Container == uq }); len(in) > 0 {
					return in
				}
			}
		}
	}
	var out []*Target
	for _, u := range usings {
		out = append(out, Pick(cands, func(t *Target) bool { return t.Container == u })...)
	}
	if used != "" {
		out = append(out, Pick(cands, func(t *Target) bool { return t.Container == used })...)
	}
	return out
}

// cLocate binds one of several candidates for a name that all live in the
// Scope the reference searched: the file's own, then the one its include
// closure declares (a declaration binds to its definition), then one in
// the same directory, then the only one; several of one function (its
// declaration, definition and overloads) count as one.
func cLocate(ctx *Context, cands []*Target, common bool) Resolution {
	if len(cands) == 0 {
		return Unbound(RuleUnresolved, 0)
	}
	fi := ctx.File
	var same []*Target
	for _, c := range cands {
		if c.Path == fi.Path {
			same = append(same, c)
		}
	}
	if len(same) > 0 {
		if len(cFamilies(same)) == 1 {
			// declared here, defined elsewhere: the definition
			if d := cDefinitionOf(ctx, same[0], cands); d != nil && d.Path != fi.Path && cIsHeader(fi.Path) {
				return Bound(d, RuleImport)
			}
			return Bound(cPreferDefs(same)[0], RuleSameFile)
		}
	}
	b := cBindings(ctx.Table, fi)
	var seen []*Target
	for _, c := range cands {
		if _, ok := b[cIncPrefix+c.Path]; ok {
			seen = append(seen, c)
		}
	}
	if len(seen) > 0 {
		fams := cFamilies(seen)
		if len(fams) == 1 {
			if d := cDefinitionOf(ctx, seen[0], cands); d != nil {
				return Bound(d, RuleImport)
			}
			return Bound(cPreferDefs(seen)[0], RuleImport)
		}
		return Unbound(RuleAmbiguous, len(fams))
	}
	dir := path.Dir(fi.Path)
	near := Pick(cands, func(t *Target) bool { return path.Dir(t.Path) == dir })
	if len(near) > 0 {
		if fams := cFamilies(near); len(fams) == 1 {
			if d := cDefinitionOf(ctx, near[0], cands); d != nil {
				return Bound(d, RuleSamePackage)
			}
			return Bound(cPreferDefs(near)[0], RuleSamePackage)
		}
	}
	fams := cFamilies(cands)
	if len(fams) > 1 {
		return Unbound(RuleAmbiguous, len(fams))
	}
	if common {
		return Unbound(RuleUnresolved, len(cands))
	}
	if d := cDefinitionOf(ctx, cands[0], cands); d != nil {
		return Bound(d, RuleUniqueName)
	}
	return Bound(cPreferDefs(cands)[0], RuleUniqueName)
}

// cFamilies groups candidates by what they define: kind class and
// qualified name (a function's declarations, definitions and overloads
// are one family). Definitions of one name in several source files are
// several families: several programs, or static functions.
func cFamilies(ts []*Target) [][]*Target {
	idx := map[string]int{}
	var out [][]*Target
	for _, t := range ts {
		k := cFamilyKind(t.Kind) + "\x00" + t.Qualified()
		if !cIsHeader(t.Path) && (t.Kind == KindFunction || t.Kind == KindVariable) && t.Container == "" {
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
			if cIsHeader(f[0].Path) {
				header = append(header, i)
			} else {
				defs = append(defs, i)
			}
		}
		if len(header) == 1 && len(defs) == 1 && cFamilyKind(out[header[0]][0].Kind) == cFamilyKind(out[defs[0]][0].Kind) &&
			out[header[0]][0].Qualified() == out[defs[0]][0].Qualified() {
			return [][]*Target{append(out[defs[0]], out[header[0]]...)}
		}
	}
	return out
}

func cFamilyKind(k string) string {
	switch k {
	case KindMethod, KindConstructor, KindFunction:
		return "fn"
	case KindClass, KindInterface, KindType:
		return "type"
	}
	return k
}

// cDefinitionOf finds the definition of what decl declares: itself when it
// is one, else the only candidate of its family in a source file; of
// several such definitions (a function defined by two programs), the one
// whose file is named after decl's header, or in the caller's directory.
func cDefinitionOf(ctx *Context, decl *Target, cands []*Target) *Target {
	if !cIsHeader(decl.Path) {
		return decl
	}
	q := decl.Qualified()
	fk := cFamilyKind(decl.Kind)
	var defs []*Target
	for _, c := range cands {
		if !cIsHeader(c.Path) && c.Qualified() == q && cFamilyKind(c.Kind) == fk && (c.Exported || c.Container != "") {
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
	var near []*Target
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

// cResolveBare binds an unqualified call: a method of the class the call
// is made in (or of its bases), else a function, macro or variable the
// scopes see.
func cResolveBare(ctx *Context, name string) Resolution {
	tab := ctx.Table
	if cls := cClassOf(ctx); cls != nil {
		if m, _, _ := cMethod(ctx, cls, name, 0); m != nil {
			if m.Path == ctx.File.Path {
				return Bound(m, RuleSameFile)
			}
			return Bound(m, RuleReceiver)
		}
	}
	cands := cVisible(ctx, Pick(tab.ByName(name), func(t *Target) bool {
		switch t.Kind {
		case KindFunction, KindVariable:
			return true
		case KindClass, KindType:
			return true // T(x): a construction or a functional cast
		}
		return false
	}))
	if len(cands) == 0 {
		return Unbound(RuleExternal, 0)
	}
	in := cInScopes(ctx, cands, name)
	if len(in) == 0 {
		return Unbound(RuleUnresolved, 0)
	}
	res := cLocate(ctx, in, false)
	if res.Target != nil && IsTypeKind(res.Target.Kind) {
		if c := cConstructor(ctx, res.Target); c != nil {
			res.Target = c
		}
	}
	return res
}

// cResolveScoped binds ns::f(), Class::f(), Base::f(), Class::Class().
func cResolveScoped(ctx *Context, r *Ref, depth int) Resolution {
	tab := ctx.Table
	// namespace fs = std::filesystem; fs::f()
	q := cExpandAlias(ctx, cDots(r.Qualifier))
	// a class: a static method, an explicit base method, a constructor
	if typ, rule, _ := cResolveTypeName(ctx, q, 0); typ != nil {
		if r.Name == typ.Name {
			if c := cConstructor(ctx, typ); c != nil {
				return Bound(c, RuleReceiver)
			}
			return Bound(typ, rule)
		}
		m, _, mext := cMethod(ctx, typ, r.Name, 0)
		if m != nil {
			if m.Path == ctx.File.Path {
				return Bound(m, RuleSameFile)
			}
			return Bound(m, RuleReceiver)
		}
		if mext {
			return Unbound(RuleExternal, 0)
		}
		return Unbound(RuleUnresolved, 0)
	}
	// a namespace, written from inside the scopes
	cands := Pick(tab.ByName(r.Name), func(t *Target) bool {
		return cIsCFamily(t.Path) && (t.Kind == KindFunction || t.Kind == KindVariable || IsTypeKind(t.Kind))
	})
	for _, s := range cScopes(ctx) {
		full := cJoin(s, q)
		in := Pick(cands, func(t *Target) bool { return t.Container == full })
		if len(in) > 0 {
			return cLocate(ctx, cVisible(ctx, in), false)
		}
	}
	for _, u := range cUsings(cBindings(tab, ctx.File)) {
		full := cJoin(u, q)
		if in := Pick(cands, func(t *Target) bool { return t.Container == full }); len(in) > 0 {
			return cLocate(ctx, cVisible(ctx, in), false)
		}
	}
	if !cNamespaceInRepo(tab, q) && !cNamespaceInRepoAnywhere(tab, q) {
		return Unbound(RuleExternal, 0)
	}
	return Unbound(RuleUnresolved, 0)
}

// cNamespaceInRepoAnywhere reports whether some namespace of the
// repository ends with ns (it may be written relative to a using).
func cNamespaceInRepoAnywhere(tab Table, ns string) bool {
	last := lastDotted(ns)
	for _, t := range tab.ByName(last) {
		if (t.Kind == KindModule || IsTypeKind(t.Kind)) && cIsCFamily(t.Path) {
			if q := t.Qualified(); q == ns || strings.HasSuffix(q, "."+ns) {
				return true
			}
		}
	}
	return false
}

// cConstructor is the constructor of class typ (a definition first), or
// nil.
func cConstructor(ctx *Context, typ *Target) *Target {
	if typ.Kind != KindClass {
		return nil
	}
	q := typ.Qualified()
	cs := Pick(ctx.Table.ByName(typ.Name), func(t *Target) bool { return t.Kind == KindConstructor && t.Container == q })
	if len(cs) == 0 {
		return nil
	}
	return cPreferDefs(cs)[0]
}

// cResolveTypeRef binds a type named in a base clause (new: a
// construction, bound to the constructor when the class has one).
func cResolveTypeRef(ctx *Context, qual, name string, construct bool) Resolution {
	q := cDots(qual)
	typ, rule, ext := cResolveTypeName(ctx, cJoin(q, name), 0)
	if typ == nil {
		if ext {
			return Unbound(RuleExternal, 0)
		}
		return Unbound(rule, 0)
	}
	if construct {
		if c := cConstructor(ctx, typ); c != nil {
			return Bound(c, rule)
		}
	}
	return Bound(typ, rule)
}

// cResolveTypeName resolves a type written (dotted) in the reference's
// file and scopes: a class, struct, union, enum, typedef or alias; a
// typedef of a struct resolves to the struct. ext reports a type of the
// standard library or another outside library.
func cResolveTypeName(ctx *Context, q string, depth int) (*Target, string, bool) {
	q = strings.TrimPrefix(q, ".")
	if q == "" || depth > MaxDepth {
		return nil, RuleUnresolved, false
	}
	if strings.IndexByte(q, '.') > 0 {
		q = cExpandAlias(ctx, q)
	}
	tab := ctx.Table
	name, qual := lastDotted(q), ""
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		qual = q[:i]
	}
	if cPrimitive[name] && qual == "" {
		return nil, RuleUnresolved, true
	}
	cands := Pick(tab.ByName(name), func(t *Target) bool { return IsTypeKind(t.Kind) && cIsCFamily(t.Path) })
	if len(cands) == 0 {
		return nil, RuleExternal, true
	}
	var in []*Target
	if qual != "" {
		for _, s := range cScopes(ctx) {
			full := cJoin(s, qual)
			if in = Pick(cands, func(t *Target) bool { return t.Container == full }); len(in) > 0 {
				break
			}
		}
		if len(in) == 0 {
			for _, u := range cUsings(cBindings(tab, ctx.File)) {
				full := cJoin(u, qual)
				if in = Pick(cands, func(t *Target) bool { return t.Container == full }); len(in) > 0 {
					break
				}
			}
		}
		if len(in) == 0 {
			// written from elsewhere: any type whose qualified name ends so
			in = Pick(cands, func(t *Target) bool { return strings.HasSuffix("."+t.Qualified(), "."+q) })
			if len(in) == 0 {
				return nil, RuleUnresolved, !cNamespaceInRepoAnywhere(tab, qual)
			}
		}
	} else {
		in = cInScopes(ctx, cands, name)
		if len(in) == 0 {
			// a type of another namespace, named unqualified: seen through
			// an include and a using the index does not follow
			in = cands
		}
	}
	res := cLocate(ctx, cTypeDefsFirst(in), false)
	if res.Target == nil {
		return nil, res.Rule, false
	}
	t := res.Target
	// a typedef or alias of another type: that type
	if t.Kind == KindType && t.Returns != "" {
		if inner := cSimpleType(t.Returns); inner != "" && inner != t.Name {
			fi := tab.File(t.Path)
			if fi != nil {
				ictx := &Context{File: fi, Table: tab, From: &Target{Kind: KindType, Name: t.Name, Container: t.Container, Path: t.Path}}
				if it, _, iext := cResolveTypeName(ictx, cDots(inner), depth+1); it != nil {
					return it, res.Rule, false
				} else if iext {
					return nil, RuleExternal, true
				}
			}
		}
	}
	return t, res.Rule, false
}

// cTypeDefsFirst keeps a type's full definitions ahead of typedefs of the
// same name (typedef struct foo foo;).
func cTypeDefsFirst(ts []*Target) []*Target {
	var cls, other []*Target
	for _, t := range ts {
		if t.Kind == KindClass || t.Kind == KindInterface {
			cls = append(cls, t)
		} else {
			other = append(other, t)
		}
	}
	if len(cls) > 0 {
		// typedef struct node node: the struct is the type
		sameName := Pick(other, func(t *Target) bool { return cSimpleType(t.Returns) != t.Name })
		return append(cls, sameName...)
	}
	return other
}

// cMethod finds method name of class typ or of its bases. indirect is true
// when the class has a data member of that name (a call through a
// function pointer or a callable member); ext when a base lies outside the
// repository.
func cMethod(ctx *Context, typ *Target, name string, depth int) (m *Target, indirect, ext bool) {
	if depth > maxCDepth {
		return nil, false, false
	}
	q := typ.Qualified()
	ms := Pick(ctx.Table.ByName(name), func(t *Target) bool {
		return (t.Kind == KindMethod || t.Kind == KindConstructor) && t.Container == q && cIsCFamily(t.Path)
	})
	if len(ms) > 0 {
		ms = cPreferDefs(ms)
		if ctx.From != nil && ms[0].ID == ctx.From.ID {
			// an overload calling its own name delegates to another
			// overload more often than it recurses
			for _, o := range ms[1:] {
				if o.ID != ctx.From.ID && !cIsHeader(o.Path) {
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
	bctx := &Context{File: fi, Table: ctx.Table, From: typ}
	for _, b := range typ.Bases {
		bt, _, bext := cResolveTypeName(bctx, cDots(cBaseName(b)), depth+1)
		if bt == nil {
			ext = ext || bext
			continue
		}
		if bt.ID == typ.ID {
			continue
		}
		bm, bind, be := cMethod(ctx, bt, name, depth+1)
		if bm != nil || bind {
			return bm, bind, false
		}
		ext = ext || be
	}
	return nil, false, ext
}

// cBaseName strips a base clause's template arguments: "Base<T>" -> "Base".
func cBaseName(b string) string {
	if i := strings.IndexByte(b, '<'); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(b)
}

// cFieldType is the type of data member name of typ or of its bases.
func cFieldType(ctx *Context, typ *Target, name string, depth int) (*Target, bool) {
	if depth > maxCDepth {
		return nil, false
	}
	fi := ctx.Table.File(typ.Path)
	if fi == nil {
		return nil, false
	}
	fctx := &Context{File: fi, Table: ctx.Table, From: typ}
	for _, f := range typ.Fields {
		if f.Name == name {
			ft := cFieldBaseType(f.Type)
			if ft == "" {
				return nil, false
			}
			t, _, ext := cResolveTypeName(fctx, cDots(ft), depth+1)
			return t, ext
		}
	}
	for _, b := range typ.Bases {
		if bt, _, _ := cResolveTypeName(fctx, cDots(cBaseName(b)), depth+1); bt != nil && bt.ID != typ.ID {
			if t, ext := cFieldType(ctx, bt, name, depth+1); t != nil || ext {
				return t, ext
			}
		}
	}
	return nil, false
}

// cSplitQualifier splits a member qualifier at its dots, keeping calls
// whole: "a.b().c" -> ["a", "b()", "c"].
func cSplitQualifier(q string) []string {
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

// cResolveMember binds a.f(), p->f(), this->f(), a.b.f(), f().g().
func cResolveMember(ctx *Context, r *Ref, depth int) Resolution {
	segs := cSplitQualifier(r.Qualifier)
	var typ *Target
	ext := false
	rest := segs[1:]
	switch {
	case r.QualifierCall != "":
		typ, ext = cCallResult(ctx, r.QualifierCall, r.QualifierType, depth)
		// the parts after the last call are members
		rest = nil
		for i := len(segs) - 1; i >= 0; i-- {
			if strings.HasSuffix(segs[i], ")") {
				rest = segs[i+1:]
				break
			}
		}
	case r.QualifierType != "":
		typ, _, ext = cResolveTypeName(ctx, cDots(r.QualifierType), 0)
	default:
		typ, ext = cHeadType(ctx, segs[0])
	}
	for _, s := range rest {
		if typ == nil {
			break
		}
		if strings.ContainsAny(s, "()[") {
			typ = nil
			break
		}
		typ, ext = cFieldType(ctx, typ, s, 0)
	}
	if typ != nil {
		m, indirect, mext := cMethod(ctx, typ, r.Name, 0)
		switch {
		case m != nil:
			if m.Path == ctx.File.Path {
				return Bound(m, RuleSameFile)
			}
			return Bound(m, RuleReceiver)
		case indirect:
			return Unbound(RuleUnresolved, 0) // a call through a function pointer member
		case mext, cSmartPointerMethods[r.Name]:
			// a base outside the repository; p.get() on a smart pointer
			return Unbound(RuleExternal, 0)
		}
		return Unbound(RuleUnresolved, 0)
	}
	if ext {
		return Unbound(RuleExternal, 0)
	}
	return cUniqueMethod(ctx, r.Name)
}

// cSmartPointerMethods are the methods of std::unique_ptr, shared_ptr and
// optional themselves: p.get() is not a method of p's element type.
var cSmartPointerMethods = map[string]bool{
	"get": true, "reset": true, "release": true, "swap": true, "use_count": true, "lock": true, "expired": true,
	"value": true, "has_value": true, "value_or": true, "emplace": true, "owner_before": true,
}

// cHeadType types the first part of a qualifier the extractor could not: a
// member of the class the reference is made in (or of its bases), or a
// global variable.
func cHeadType(ctx *Context, head string) (*Target, bool) {
	if strings.ContainsAny(head, "()[") || head == "" {
		return nil, false
	}
	if cls := cClassOf(ctx); cls != nil {
		if t, ext := cFieldType(ctx, cls, head, 0); t != nil || ext {
			return t, ext
		}
	}
	vars := cVisible(ctx, Pick(ctx.Table.ByName(head), func(t *Target) bool { return t.Kind == KindVariable && t.Returns != "" }))
	if len(vars) == 0 {
		return nil, false
	}
	in := cInScopes(ctx, vars, head)
	res := cLocate(ctx, in, false)
	if res.Target == nil {
		return nil, false
	}
	st := cSimpleType(res.Target.Returns)
	if st == "" {
		return nil, false
	}
	fi := ctx.Table.File(res.Target.Path)
	if fi == nil {
		return nil, false
	}
	vctx := &Context{File: fi, Table: ctx.Table, From: res.Target}
	t, _, ext := cResolveTypeName(vctx, cDots(st), 0)
	return t, ext
}

// cCallResult is the type a call returns: fn is the call as the extractor
// rendered it ("a.b", "geo::make"), headType the type of its first part.
func cCallResult(ctx *Context, fn, headType string, depth int) (*Target, bool) {
	r := &Ref{Kind: RefCall, Name: fn}
	segs := cSplitQualifier(fn)
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
	res := cResolve(ctx, r, depth+1)
	if res.Rule == RuleExternal {
		return nil, true
	}
	t := res.Target
	if t == nil {
		return nil, false
	}
	if IsTypeKind(t.Kind) {
		return t, false // T(...): a T
	}
	if t.Kind == KindConstructor {
		return cTypeByQualified(ctx.Table, t.Container, ctx.File), false
	}
	ret := cSimpleType(t.Returns)
	if ret == "" {
		return nil, false
	}
	fi := ctx.Table.File(t.Path)
	if fi == nil {
		return nil, false
	}
	rctx := &Context{File: fi, Table: ctx.Table, From: t}
	typ, _, ext := cResolveTypeName(rctx, cDots(ret), depth+1)
	return typ, ext
}

// cUniqueMethod binds a method call on a value of unknown type to the only
// method of that name, if the name is distinctive. A name that no method
// of the repository has is a library's, unless some struct has a member of
// that name (a call through a function pointer).
func cUniqueMethod(ctx *Context, name string) Resolution {
	ms := Pick(ctx.Table.ByName(name), func(t *Target) bool {
		return (t.Kind == KindMethod) && cIsCFamily(t.Path)
	})
	if len(ms) == 0 {
		if !cFileIsCpp(ctx.File) {
			// C has no methods: a call through a function pointer member
			return Unbound(RuleUnresolved, 0)
		}
		return Unbound(RuleExternal, 0)
	}
	fams := cFamilies(ms)
	if len(fams) > 1 {
		return Unbound(RuleAmbiguous, len(fams))
	}
	if cCommonMethods[name] {
		return Unbound(RuleUnresolved, len(ms))
	}
	return Bound(cPreferDefs(ms)[0], RuleUniqueName)
}

// cFileIsCpp reports whether a file is C++: by its language, or for a .h
// read as C++, by its imports (using directives, <vector>-style headers).
func cFileIsCpp(fi *FileInfo) bool {
	if fi.Lang == "cpp" {
		return true
	}
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if !cIsInclude(imp) {
			return true
		}
		if strings.HasPrefix(imp.Source, "<") && !strings.Contains(imp.Source, ".") {
			return true
		}
	}
	return false
}
