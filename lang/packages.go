package lang

import (
	"io/fs"
	"strings"
)

// PackageRules configure the resolver that Kotlin and Swift share for a
// room whose language works alike: files in packages (or modules) see
// their package's top-level names and what they import; members are found
// through an implicit this/self and the bases of the types around.
type PackageRules struct {
	Self   string   // "this" or "self"
	Std    []string // standard-library names every file sees: external
	Common []string // method names too common to bind by name alone
	// Explicit: imports bind single names (import a.b.C), an Import with
	// Names [{"*"}] is a wildcard; else an import binds a whole module.
	Explicit bool
	// StripType reduces a declared type ("List[Foo]", "Foo?") to the name
	// to resolve ("List"); required.
	StripType func(string) string
	// DSLFile, when set, reports a file whose calls of names found
	// nowhere go to its DSL, outside the repository (a Gradle script).
	DSLFile func(path string) bool
	// Extensions: types are extended anywhere in their module (Swift's
	// extension A { struct B } and extension A: P { } in another file
	// than A), so a nested type is looked for in the module's files, not
	// the file alone, and a member no type along a receiver's bases has
	// may be that of a protocol the type conforms to in an extension the
	// resolver cannot see: when no base is outside the repository but
	// Markers, the one protocol of the repository with a member of that
	// name binds it by unique name.
	Extensions bool
	// Markers are protocols outside the repository that give a type no
	// member a call names (Swift's Sendable, Equatable): with Extensions,
	// a base that is one does not keep a member the type lacks from the
	// repository's protocols.
	Markers []string
}

// NewPackageResolver returns the package resolver for the language name
// whose files have the extensions ext.
func NewPackageResolver(name string, ext []string, r PackageRules) Resolver {
	L := &ktsLang{name: name, ext: ext, self: r.Self, explicit: r.Explicit, stripType: r.StripType, dslFile: r.DSLFile,
		extensions: r.Extensions, std: map[string]bool{}, common: map[string]bool{}, markers: map[string]bool{}}
	for _, n := range r.Markers {
		L.markers[n] = true
	}
	for _, n := range r.Std {
		L.std[n] = true
	}
	for _, n := range r.Common {
		L.common[n] = true
	}
	return L
}

// Resolve binds a reference.
func (L *ktsLang) Resolve(ctx *Context, r *Ref) Resolution { return L.resolve(ctx, r, 0) }

// ResolveImport binds an import.
func (L *ktsLang) ResolveImport(ctx *Context, imp *Import, name string) Resolution {
	return L.resolveImport(ctx, imp, name)
}

// WordList reads the word list name of a room's embedded data files, in
// order, for rules that take words (PackageRules.Std, Common). The list
// must exist.
func WordList(fsys fs.FS, name string) []string {
	lines, ok := readLines(fsys, name)
	if !ok {
		panic("lang: no data file " + name)
	}
	var out []string
	for _, l := range lines {
		out = append(out, strings.Fields(l)...)
	}
	return out
}

// Words splits a word list (a room's builtins or common names, written
// as a raw string) into its words.
func Words(s string) []string { return strings.Fields(s) }
