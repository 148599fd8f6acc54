package lang

// Symbol kinds, as the spec names them.
const (
	KindFunction    = "function"
	KindClass       = "class"
	KindInterface   = "interface"
	KindType        = "type"
	KindModule      = "module"
	KindMethod      = "method"
	KindConstructor = "constructor"
	KindVariable    = "variable"
)

// Kinds lists every symbol kind, in the order the spec gives them.
var Kinds = []string{KindFunction, KindClass, KindInterface, KindType, KindModule, KindMethod, KindConstructor, KindVariable}

// Visibility values.
const (
	VisPublic    = "public"
	VisProtected = "protected"
	VisPrivate   = "private"
	VisExported  = "exported"
	VisInternal  = "internal"
)

// Reference kinds.
const (
	RefCall       = "call"       // f(), x.f()
	RefNew        = "new"        // new T(), T{}, T() of a class
	RefExtends    = "extends"    // class A extends B, class A(B)
	RefImplements = "implements" // class A implements I, impl I for A
	// RefReference is a use that is not a call: a method value, a function
	// passed as an argument (precise modes only).
	RefReference = "ref"
)

// FileFacts is what extraction learns from one file, before resolution.
type FileFacts struct {
	// Module is the name other files use to import this file or its
	// package: the Go package name, the dotted Python module, the Java
	// package, the Rust module path. Empty where imports name paths.
	Module  string
	Symbols []Symbol
	Imports []Import
	Refs    []Ref
	Errors  []Diagnostic
	// Faults are the stages of this file's extraction that failed; the
	// facts hold what was extracted before.
	Faults []Fault
	IsTest bool // a test file, by the language's conventions
	// Build is the file's build constraint as one expression (Go: its
	// //go:build line and file-name suffix), "" when every build has it.
	Build string
	// Lang is the language the file was parsed as: its extension's, or
	// the one its content chose (a .h header holding C++).
	Lang string
}

// Range is a source range: lines are 1-based, columns 0-based byte offsets.
type Range struct {
	StartLine int `json:"startLine"`
	StartCol  int `json:"startCol"`
	EndLine   int `json:"endLine"`
	EndCol    int `json:"endCol"`
}

// Symbol is one definition.
type Symbol struct {
	Kind       string
	Name       string
	Container  string // qualified name of the enclosing symbol, "" at top level
	Parent     int    // index of the enclosing symbol in FileFacts.Symbols, -1 at top level
	Range      Range
	StartByte  uint32
	EndByte    uint32
	Exported   bool
	Visibility string
	Signature  Signature
	Doc        string
	IsTest     bool

	// Filled by the shared part of extraction.
	Fingerprint string
	Idents      []string // distinct identifiers of the symbol's own code
	Words       string   // comments and string literals of its own code
	Invariants  []Fact
	SideEffects []Fact
	Summary     string
}

// Qualified is the container-qualified name.
func (s *Symbol) Qualified() string {
	if s.Container == "" {
		return s.Name
	}
	return s.Container + "." + s.Name
}

// Signature is a parsed signature. Fields holds the members of a class or
// struct with their types, which resolution uses to follow a.b.c().
type Signature struct {
	Text      string   `json:"text,omitempty"`
	Params    []Param  `json:"params,omitempty"`
	Returns   string   `json:"returns,omitempty"`
	Generics  []string `json:"generics,omitempty"`
	Receiver  string   `json:"receiver,omitempty"`
	Modifiers []string `json:"modifiers,omitempty"`
	Bases     []string `json:"bases,omitempty"`
	Fields    []Param  `json:"fields,omitempty"`
	// TypeParams are the type parameters that have a constraint, each
	// with it as its Type (T extends Base: {T, Base}), for a room whose
	// resolution looks a member of a T-typed value up on Base. Generics
	// keeps the text as written.
	TypeParams []Param `json:"typeParams,omitempty"`
}

// Param is a parameter or a field.
type Param struct {
	Name     string `json:"name"`
	Type     string `json:"type,omitempty"`
	Default  string `json:"default,omitempty"`
	Variadic bool   `json:"variadic,omitempty"`
	Optional bool   `json:"optional,omitempty"`
}

// Fact is an invariant or a side effect with its provenance.
type Fact struct {
	Kind     string `json:"kind"`     // "guard", "throws", "fs.write", "network", ...
	Text     string `json:"text"`     // human-readable statement
	Line     int    `json:"line"`     // where the evidence is
	Evidence string `json:"evidence"` // the code that shows it, shortened
}

// Import is one import binding.
type Import struct {
	Source string       // the module, package or path as written: "fmt", "./util", "a.b"
	Alias  string       // the local name bound to the module itself, if any
	Names  []ImportName // names imported from it (from-imports, named imports)
	Line   int
	Symbol int // enclosing symbol, -1 at module level
	// Global is C#'s "global using": it opens the namespace to every file
	// of the project, not only its own.
	Global bool `json:",omitempty"`
}

// Resolved returns what resolution binds an import by, one edge each:
// every name it brings in, or "" for the module itself when it names none.
func (imp *Import) Resolved() []string {
	if len(imp.Names) == 0 {
		return []string{""}
	}
	out := make([]string, len(imp.Names))
	for i, n := range imp.Names {
		out[i] = n.Name
	}
	return out
}

// ImportName is a name brought in by an import; Name "*" is a wildcard and
// "default" a default import.
type ImportName struct {
	Name  string
	Alias string
}

// Local returns the name the import binds locally.
func (n ImportName) Local() string {
	if n.Alias != "" {
		return n.Alias
	}
	return n.Name
}

// Ref is a reference from a symbol to a name that resolution will try to
// bind to a symbol.
type Ref struct {
	Kind      string // RefCall, RefNew, RefExtends, RefImplements
	Name      string // the referenced identifier
	Qualifier string // what came before the name: "fmt", "self", "s.conn"; "" when bare
	// QualifierType is the type of the qualifier's first part when the
	// extractor could tell (a typed parameter, a receiver, x := T{}).
	QualifierType string
	// QualifierCall names the function whose result the qualifier is
	// (x := NewT(); x.M()), so resolution can use its return type.
	QualifierCall string
	Symbol        int // index of the enclosing symbol, -1 at module level
	Line          int
}

// Diagnostic is a problem found in a file.
type Diagnostic struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}
