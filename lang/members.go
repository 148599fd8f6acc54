package lang

// BaseRef is a base type as a language's rules resolved it: the type of
// the repository, or nil with the rule that left it unbound (external for
// a library's type).
type BaseRef struct {
	Target *Target
	Rule   string
}

// TypedValue is what resolution knows of the type of a value, such as a
// call's qualifier: a type of the repository, or ext for a type outside
// it (whose members are external), and the rule that bound the type.
type TypedValue struct {
	Target *Target
	Ext    bool
	Rule   string
}

// Bounds on a breadth-first search of a class hierarchy: a hostile file
// can make each class derive from hundreds of others, and the search keeps
// every type it met.
const (
	MaxAncestors = 32 // types one search visits
	MaxBases     = 16 // bases read of one type
)

// MemberRules are what a language tells the one member lookup over base
// types: how it finds a member declared in a type itself, how it resolves
// a type's bases, which names every type may inherit from the language's
// root object (Object, object, stdClass), and in which order the bases
// are searched.
type MemberRules struct {
	// Own returns the member name declared in typ itself, or nil: what
	// FindMember looks for. A language whose lookups find more than a
	// type's own members (Python's attributes: fields, properties) calls
	// Walk with a visit of its own instead.
	Own func(tab Table, typ *Target, name string) *Target
	// Bases resolves typ's bases (of every part of a partial type).
	Bases func(tab Table, typ *Target, depth int) []BaseRef
	// RootMember reports whether a member name that typ and its bases
	// lack may still come from outside the repository: a method of the
	// root object. nBases counts the bases that Bases returned.
	RootMember func(tab Table, typ *Target, nBases int, name string) bool
	// BreadthFirst makes the search (FindMember, Walk) visit a type, then
	// its bases, then theirs, each type once: Python's method resolution
	// order for single and most multiple inheritance. Otherwise it is
	// depth first in declaration order (Java, C#, PHP, Ruby, JavaScript).
	BreadthFirst bool
}

// FindMember finds member name of typ, then of its bases, in the rules'
// order (Walk). ext reports that the search met a base outside the
// repository (or a root-object member) that may hold the name.
func (r *MemberRules) FindMember(tab Table, typ *Target, name string, depth int) (m *Target, ext bool) {
	visit := func(c *Target) bool {
		m = r.Own(tab, c, name)
		return m != nil
	}
	var root func(*Target, int) bool
	if r.RootMember != nil {
		root = func(c *Target, nBases int) bool { return r.RootMember(tab, c, nBases, name) }
	}
	var w walk
	if r.BreadthFirst {
		w = r.breadthFirst(tab, typ, depth, visit, root)
	} else {
		w = r.depthFirst(tab, typ, depth, visit, root)
	}
	if w.found {
		return m, false
	}
	return nil, w.ext
}

// Walk visits typ and the types it derives from, in the rules' order,
// until visit returns true. It returns whether visit stopped it, and
// otherwise the rule of what the bases left open: RuleExternal when one
// lies outside the repository, else RuleBuiltin when one is a builtin
// type the Bases hook named (its members are the language's), else
// RuleUnresolved.
func (r *MemberRules) Walk(tab Table, typ *Target, depth int, visit func(*Target) bool) (found bool, miss string) {
	var w walk
	if r.BreadthFirst {
		w = r.breadthFirst(tab, typ, depth, visit, nil)
	} else {
		w = r.depthFirst(tab, typ, depth, visit, nil)
	}
	switch {
	case w.found:
		return true, ""
	case w.ext:
		return false, RuleExternal
	case w.builtin:
		return false, RuleBuiltin
	}
	return false, RuleUnresolved
}

// walk is the outcome of a search over a type and its bases: visit
// stopped it, or what the bases left open.
type walk struct{ found, ext, builtin bool }

// note records a base the rules left unbound.
func (w *walk) note(b BaseRef) {
	w.ext = w.ext || b.Rule == RuleExternal
	w.builtin = w.builtin || b.Rule == RuleBuiltin
}

// depthFirst visits typ, then each base and its bases in declaration
// order. Bases are followed down to MaxDepth; a type reached there is
// still visited itself. root, when not nil, says after a type's bases
// whether the root object may hold what was looked for.
func (r *MemberRules) depthFirst(tab Table, typ *Target, depth int, visit func(*Target) bool, root func(*Target, int) bool) (w walk) {
	if visit(typ) {
		return walk{found: true}
	}
	if depth > MaxDepth {
		return w
	}
	bases := r.Bases(tab, typ, depth)
	for _, b := range bases {
		if b.Target == nil {
			w.note(b)
			continue
		}
		if b.Target.ID == typ.ID {
			continue
		}
		sub := r.depthFirst(tab, b.Target, depth+1, visit, root)
		if sub.found {
			return sub
		}
		w.ext, w.builtin = w.ext || sub.ext, w.builtin || sub.builtin
	}
	if root != nil && root(typ, len(bases)) {
		w.ext = true
	}
	return w
}

// breadthFirst visits typ and the types it derives from, each once,
// level by level in the order of the bases; up to MaxAncestors types and
// the first MaxBases bases of each. Bases are resolved only as far as the
// visit goes, all at the depth after depth: a search that starts beyond
// MaxDepth visits typ alone.
func (r *MemberRules) breadthFirst(tab Table, typ *Target, depth int, visit func(*Target) bool, root func(*Target, int) bool) (w walk) {
	seen := map[string]bool{typ.ID: true}
	queue := []*Target{typ}
	for i := 0; i < len(queue) && i < MaxAncestors; i++ {
		c := queue[i]
		if visit(c) {
			return walk{found: true}
		}
		if depth > MaxDepth {
			continue
		}
		bases := r.Bases(tab, c, depth)
		for j, b := range bases {
			if j == MaxBases {
				break
			}
			if b.Target == nil {
				w.note(b)
			} else if !seen[b.Target.ID] {
				seen[b.Target.ID] = true
				queue = append(queue, b.Target)
			}
		}
		if root != nil && root(c, len(bases)) {
			w.ext = true
		}
	}
	return w
}
