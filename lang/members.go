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

// MemberRules are what a language tells the one member lookup over base
// types: how it finds a member declared in a type itself, how it resolves
// a type's bases, and which names every type may inherit from the
// language's root object (Object, object, stdClass).
type MemberRules struct {
	// Own returns the member name declared in typ itself, or nil.
	Own func(tab Table, typ *Target, name string) *Target
	// Bases resolves typ's bases (of every part of a partial type).
	Bases func(tab Table, typ *Target, depth int) []BaseRef
	// RootMember reports whether a member name that typ and its bases
	// lack may still come from outside the repository: a method of the
	// root object. nBases counts the bases that Bases returned.
	RootMember func(tab Table, typ *Target, nBases int, name string) bool
}

// FindMember finds member name of typ, then of its bases, depth first in
// declaration order. ext reports that the search met a base outside the
// repository (or a root-object member) that may hold the name. Bases are
// followed down to MaxDepth; a type reached there is still searched
// itself.
func (r *MemberRules) FindMember(tab Table, typ *Target, name string, depth int) (m *Target, ext bool) {
	if m := r.Own(tab, typ, name); m != nil {
		return m, false
	}
	if depth > MaxDepth {
		return nil, false
	}
	bases := r.Bases(tab, typ, depth)
	for _, b := range bases {
		if b.Target == nil {
			ext = ext || b.Rule == RuleExternal
			continue
		}
		if b.Target.ID == typ.ID {
			continue
		}
		if m, e := r.FindMember(tab, b.Target, name, depth+1); m != nil {
			return m, false
		} else if e {
			ext = true
		}
	}
	if r.RootMember != nil && r.RootMember(tab, typ, len(bases), name) {
		ext = true
	}
	return nil, ext
}
