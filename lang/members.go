package lang

// baseRef is a base type as a language's rules resolved it: the type of
// the repository, or nil with the rule that left it unbound (external for
// a library's type).
type baseRef struct {
	t    *Target
	rule string
}

// typedValue is what resolution knows of the type of a value, such as a
// call's qualifier: a type of the repository, or ext for a type outside
// it (whose members are external), and the rule that bound the type.
type typedValue struct {
	t    *Target
	ext  bool
	rule string
}

// memberRules are what a language tells the one member lookup over base
// types: how it finds a member declared in a type itself, how it resolves
// a type's bases, and which names every type may inherit from the
// language's root object (Object, object, stdClass).
type memberRules struct {
	// own returns the member name declared in typ itself, or nil.
	own func(tab Table, typ *Target, name string) *Target
	// bases resolves typ's bases (of every part of a partial type).
	bases func(tab Table, typ *Target, depth int) []baseRef
	// rootMember reports whether a member name that typ and its bases
	// lack may still come from outside the repository: a method of the
	// root object. nBases counts the bases that bases returned.
	rootMember func(tab Table, typ *Target, nBases int, name string) bool
}

// findMember finds member name of typ, then of its bases, depth first in
// declaration order. ext reports that the search met a base outside the
// repository (or a root-object member) that may hold the name. Bases are
// followed down to MaxDepth; a type reached there is still searched
// itself.
func (r *memberRules) findMember(tab Table, typ *Target, name string, depth int) (m *Target, ext bool) {
	if m := r.own(tab, typ, name); m != nil {
		return m, false
	}
	if depth > MaxDepth {
		return nil, false
	}
	bases := r.bases(tab, typ, depth)
	for _, b := range bases {
		if b.t == nil {
			ext = ext || b.rule == RuleExternal
			continue
		}
		if b.t.ID == typ.ID {
			continue
		}
		if m, e := r.findMember(tab, b.t, name, depth+1); m != nil {
			return m, false
		} else if e {
			ext = true
		}
	}
	if r.rootMember != nil && r.rootMember(tab, typ, len(bases), name) {
		ext = true
	}
	return nil, ext
}
