package lang

import (
	"path"
	"strings"
	"sync"
)

// Resolution rules, from the most to the least certain. The rule that bound
// an edge is stored with it.
const (
	RuleSameFile    = "same_file"    // defined in the same file
	RuleImport      = "import"       // bound by an import
	RuleReceiver    = "receiver"     // a method of the receiver's, self's or a typed variable's type
	RuleSamePackage = "same_package" // same Go package, Java package or Rust module
	RuleUniqueName  = "unique_name"  // the only symbol of that name in the repository
	RuleAmbiguous   = "ambiguous"    // several candidates and nothing to choose between them
	RuleExternal    = "external"     // outside the repository (a dependency or the standard library)
	RuleUnresolved  = "unresolved"   // no rule applied
	RuleBuiltin     = "builtin"      // a language builtin: not recorded
	// RuleNotValue: a RefReference that binds no function or method of the
	// repository (a variable, a field, a constant, a guess): not recorded.
	RuleNotValue = "not_value"
	RulePrecise  = "precise" // proven by a type checker or a SCIP index
	RuleTypes    = "types"   // proven by go/types (Go precise mode)
	RuleSCIP     = "scip"    // proven by an imported SCIP index
	// RuleDynamic: the type checker proved a call goes through a variable
	// or field of function type, so it has no static target; or the
	// extractor saw that the callee is a parameter or local (Go).
	RuleDynamic = "dynamic"
)

// IsPrecise reports whether rule comes from a type checker or SCIP index.
func IsPrecise(rule string) bool {
	return rule == RulePrecise || rule == RuleTypes || rule == RuleSCIP
}

// Confidence of each rule.
var ruleConfidence = map[string]float64{
	RuleSameFile:    0.95,
	RuleImport:      0.95,
	RuleReceiver:    0.9,
	RuleSamePackage: 0.85,
	RuleUniqueName:  0.6,
	RulePrecise:     1.0,
	RuleTypes:       1.0,
	RuleSCIP:        1.0,
}

// RuleConfidence returns the confidence of an edge bound by rule.
func RuleConfidence(rule string) float64 { return ruleConfidence[rule] }

// Target is what resolution knows of a symbol it can bind a reference to.
type Target struct {
	ID        string
	Path      string
	Kind      string
	Name      string
	Container string
	Exported  bool
	Returns   string   // a function's return type, a variable's type
	Fields    []Param  // a class's or struct's members with their types
	Bases     []string // a class's bases or embedded types
	Receiver  string   // a method's declared receiver (Go's, a Kotlin extension's)
	Arity     int      // how many type parameters it declares: C#'s Foo and Foo<T> are two types
	// TypeParams are its constrained type parameters (Signature.TypeParams):
	// a field typed T of a class<T extends Base> has Base's members. Only
	// rooms that fill Signature.TypeParams see any.
	TypeParams []Param
	Module     string // the module of the file it is defined in
	// Test: it is defined in a test file (FileFacts.IsTest), known from
	// extraction, so that resolution never matches the path again.
	Test bool
}

// Qualified is the container-qualified name.
func (t *Target) Qualified() string {
	if t.Container == "" {
		return t.Name
	}
	return t.Container + "." + t.Name
}

// Dir is the directory of the target's file.
func (t *Target) Dir() string { return path.Dir(t.Path) }

// Table answers resolution's questions about the repository's symbols.
type Table interface {
	// ByName returns every symbol called name, in a stable order.
	ByName(name string) []*Target
	// File returns what is known of an indexed file, or nil.
	File(path string) *FileInfo
	// ModuleFiles returns the files of a language whose module is module,
	// or ends with it at a segment boundary: a Java package, a Python
	// dotted module. For Go, module is a package directory.
	ModuleFiles(lang, module string) []string
	// DirFiles returns the indexed files directly in a directory.
	DirFiles(dir string) []string
	// Config returns repository-level settings a language's rules need
	// (the Go build target), by key.
	Config(key string) []string
	// Project returns what the repository's project files say (a
	// ProjectReader's result), by the reader's key; nil when none.
	Project(key string) Project
	// Memo returns the value cached under key, computing it with f the
	// first time. It is safe for concurrent use.
	Memo(key string, f func() string) string
}

// ModuleKeys returns the names a Table finds a module by: the module
// itself and every suffix of whole segments, so that "src.flask.helpers"
// is found by "flask.helpers" and "helpers" too.
func ModuleKeys(module string) []string {
	var out []string
	for m := module; m != ""; {
		out = append(out, m)
		i := strings.IndexAny(m, "./:")
		if i < 0 {
			break
		}
		m = strings.TrimLeft(m[i:], "./:")
	}
	return out
}

// FileInfo is what resolution needs of a file.
type FileInfo struct {
	Path    string
	Lang    string
	Module  string
	Imports []Import
	// ModuleID is the id of the file's module symbol.
	ModuleID string
	// Build is the file's build constraint (FileFacts.Build).
	Build string
	// Test: the file is a test (FileFacts.IsTest).
	Test bool

	bindOnce sync.Once
	bindings map[string]Binding
}

// Bindings returns the local names the file's imports bind, computed once
// per file with make.
func (fi *FileInfo) BindingsWith(make func() map[string]Binding) map[string]Binding {
	fi.bindOnce.Do(func() { fi.bindings = make() })
	return fi.bindings
}

// Resolution is the outcome of resolving one reference.
type Resolution struct {
	Target     *Target // nil when not bound
	Rule       string
	Confidence float64
	// Candidates counts the symbols an ambiguous reference could mean.
	Candidates int
}

// Bound is a resolution that binds target t by rule, with the rule's
// confidence.
func Bound(t *Target, rule string) Resolution {
	return Resolution{Target: t, Rule: rule, Confidence: ruleConfidence[rule]}
}

// Unbound is a resolution that binds nothing, by rule (external,
// ambiguous among candidates, unresolved).
func Unbound(rule string, candidates int) Resolution {
	return Resolution{Rule: rule, Candidates: candidates}
}

// Context is the file a reference is made in, and the symbol making it.
type Context struct {
	File  *FileInfo
	From  *Target // the enclosing symbol
	Table Table
}

// Binding is what a local name of a file binds through its imports: the
// import, and the name imported from it.
type Binding struct {
	Imp  *Import
	Name string // the imported name, "" when the module itself is bound
}

// Resolve binds a reference made in ctx.
func (l *Language) Resolve(ctx *Context, r *Ref) Resolution {
	if l.resolve == nil {
		return Unbound(RuleUnresolved, 0)
	}
	res := l.resolve(guardedContext(ctx), r)
	if r.Kind == RefReference && !valueTarget(res) {
		return Unbound(RuleNotValue, 0)
	}
	return res
}

// NoEdge reports whether a resolved reference of kind is no edge at all:
// a value reference that bound no function (RuleNotValue, or a guard's
// fault). Extraction records every name used as a value, and unbound ones
// would be noise that call-following code reads as calls; the index and
// the resolution tests drop them by this one rule.
func NoEdge(kind string, res Resolution) bool {
	return kind == RefReference && res.Target == nil
}

// valueTarget reports whether res binds a function or method by a rule
// that knows it: extraction records every name used as a value, most of
// them variables and fields, so a unique-name guess would bind a field
// read to a method that merely shares its name.
func valueTarget(res Resolution) bool {
	if res.Target == nil || res.Rule == RuleUniqueName {
		return false
	}
	switch res.Target.Kind {
	case KindFunction, KindMethod:
		return true
	}
	return false
}

// guardedContext returns ctx with its table under a Guard: resolvers
// rely on its cycle cuts and nesting limit to terminate.
func guardedContext(ctx *Context) *Context {
	if _, ok := ctx.Table.(*Guard); ok {
		return ctx
	}
	c := *ctx
	c.Table = NewGuard(ctx.Table)
	return &c
}

// ResolveImport binds an import: the module itself (name "") or one name
// it brings in.
func (l *Language) ResolveImport(ctx *Context, imp *Import, name string) Resolution {
	if l.resolveImport == nil {
		return Unbound(RuleUnresolved, 0)
	}
	return l.resolveImport(guardedContext(ctx), imp, name)
}

// typeAt is the type of file p whose qualified name is qualified, or nil.
func typeAt(tab Table, p, qualified string) *Target {
	container, name := LastSegment(qualified)
	for _, t := range tab.ByName(name) {
		if t.Path == p && t.Container == container && IsTypeKind(t.Kind) {
			return t
		}
	}
	return nil
}

// EnclosingType is the innermost type of file p whose qualified name is
// container or a prefix of it, or nil.
func EnclosingType(tab Table, p, container string) *Target {
	for container != "" {
		if t := typeAt(tab, p, container); t != nil {
			return t
		}
		container, _ = LastSegment(container)
	}
	return nil
}

// Outer is the type enclosing t (a type or a member) in its file, or nil.
func Outer(tab Table, t *Target) *Target { return EnclosingType(tab, t.Path, t.Container) }

// ClassOf is the type a reference is made in: the symbol making it when
// that is a type, else the type enclosing it; nil at a file's top level.
func ClassOf(ctx *Context) *Target {
	f := ctx.From
	if f == nil || f.Kind == KindModule {
		return nil
	}
	if IsTypeKind(f.Kind) {
		return f
	}
	return Outer(ctx.Table, f)
}

// ModuleTarget returns the module symbol of a file as a target.
func ModuleTarget(tab Table, p string) *Target {
	fi := tab.File(p)
	if fi == nil || fi.ModuleID == "" {
		return nil
	}
	return &Target{ID: fi.ModuleID, Path: p, Kind: KindModule, Name: fi.Module, Exported: true, Module: fi.Module, Test: fi.Test}
}

// TestFile reports whether the indexed file p is a test, as extraction
// found it; false for a file the table does not hold.
func TestFile(tab Table, p string) bool {
	fi := tab.File(p)
	return fi != nil && fi.Test
}

// Pick filters candidates with keep and returns the survivors.
func Pick(cands []*Target, keep func(*Target) bool) []*Target {
	var out []*Target
	for _, c := range cands {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}

// One returns the single element of ts, or nil.
func One(ts []*Target) *Target {
	if len(ts) == 1 {
		return ts[0]
	}
	return nil
}

// PreferDefinitions narrows several candidates to the non-test ones, then
// to the ones not in a declaration-only position, when that leaves one.
func PreferDefinitions(ts []*Target) []*Target {
	if len(ts) < 2 {
		return ts
	}
	nonTest := Pick(ts, func(t *Target) bool { return !t.Test })
	if len(nonTest) > 0 {
		return nonTest
	}
	return ts
}

// IsCallable reports whether a symbol kind can be called.
func IsCallable(kind string) bool {
	switch kind {
	case KindFunction, KindMethod, KindConstructor, KindClass, KindVariable:
		return true
	}
	return false
}

// IsTypeKind reports whether a kind names a type.
func IsTypeKind(kind string) bool {
	switch kind {
	case KindClass, KindInterface, KindType:
		return true
	}
	return false
}

// UniqueMethod binds a call on a value of unknown type among ms, the
// repository's methods of its name: none means a library's; candidates
// that are not all one declaration (same says whether two are) are
// ambiguous; a name too common to trust (common) stays unresolved.
func UniqueMethod(ms []*Target, same func(a, b *Target) bool, common bool) Resolution {
	if len(ms) == 0 {
		return Unbound(RuleExternal, 0)
	}
	for _, m := range ms[1:] {
		if !same(ms[0], m) {
			return Unbound(RuleAmbiguous, len(ms))
		}
	}
	if common {
		return Unbound(RuleUnresolved, len(ms))
	}
	return Bound(ms[0], RuleUniqueName)
}

// PickPaths returns the paths keep accepts.
func PickPaths(ss []string, keep func(string) bool) []string {
	var out []string
	for _, s := range ss {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// CommonDirLen counts the leading directories two paths share.
func CommonDirLen(a, b string) int {
	as, bs := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

// ChainCallRef is the call ref of a call chain as the C-family extractors
// render it ("a.b().c", "new Foo().bar"): the last name called on what the
// rest evaluates to, headType the type of the chain's first part. It is nil
// when the last part is not a plain name.
func ChainCallRef(fn, headType string) *Ref {
	r := &Ref{Kind: RefCall, Name: fn}
	segs := SplitQualifier(fn)
	if len(segs) > 1 {
		r.Name = segs[len(segs)-1]
		r.Qualifier = fn[:len(fn)-len(r.Name)-1]
		r.QualifierType = headType
		if strings.HasSuffix(r.Qualifier, ")") && !strings.HasPrefix(segs[len(segs)-2], "new ") {
			r.QualifierCall = strings.TrimSuffix(r.Qualifier, "()")
		}
	}
	if strings.ContainsAny(r.Name, "()[ ") {
		return nil
	}
	return r
}

// Unique binds the one candidate by its unique name; several are
// ambiguous, and none is a name the repository does not define (a
// library's, a program's).
func Unique(ts []*Target) Resolution {
	switch len(ts) {
	case 0:
		return Unbound(RuleExternal, 0)
	case 1:
		return Bound(ts[0], RuleUniqueName)
	}
	return Unbound(RuleAmbiguous, len(ts))
}
