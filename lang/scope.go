package lang

// Scope is what a walker knows of the local names of one block, function
// or file: each name's type as written ("" when unknown), or the call it
// was assigned from and the type of that call's first part (the head);
// the element type of a collection, the bounds of the type parameters in
// scope, and whether it is a function's. Lookups go out through the
// enclosing scopes, so a language's scope is this one, chained by Parent.
type Scope struct {
	Types    map[string]string // x -> "Item", "" when unknown
	Calls    map[string]string // x -> "factory.create" (x = factory.create())
	Heads    map[string]string // x -> the type of the call's first part, "Factory"
	Elems    map[string]string // x -> "Item" for x of type List<Item>, Item[] (what a loop over x yields)
	TypeVars map[string]string // a type parameter -> its bound or constraint, "T" -> "Comparable"
	Func     bool              // a function's scope, not a module's, class's or namespace's
	Parent   *Scope
}

// SetType declares name with a type; it holds no call's result.
func (s *Scope) SetType(name, typ string) {
	s.setTypeOnly(name, typ)
	delete(s.Calls, name)
}

// setTypeOnly sets the type of name and keeps the call it holds.
func (s *Scope) setTypeOnly(name, typ string) {
	if s.Types == nil {
		s.Types = map[string]string{}
	}
	s.Types[name] = typ
}

// SetCall declares name as holding the result of call fn, whose first
// part has type head ("" when unknown).
func (s *Scope) SetCall(name, fn, head string) {
	s.Set(name, "", fn, head)
}

// Set declares name with a type and the call it holds, either may be "".
func (s *Scope) Set(name, typ, fn, head string) {
	if s.Calls == nil {
		s.Calls, s.Heads = map[string]string{}, map[string]string{}
	}
	s.setTypeOnly(name, typ)
	s.Calls[name] = fn
	s.Heads[name] = head
}

// Lookup returns what the innermost scope that declares name knows of it.
func (s *Scope) Lookup(name string) (typ, call, head string, ok bool) {
	for ; s != nil; s = s.Parent {
		if t, found := s.Types[name]; found {
			return t, s.Calls[name], s.Heads[name], true
		}
	}
	return "", "", "", false
}

// SetElem records the element type of the collection name; "" forgets it.
func (s *Scope) SetElem(name, typ string) {
	if typ == "" {
		delete(s.Elems, name)
		return
	}
	if s.Elems == nil {
		s.Elems = map[string]string{}
	}
	s.Elems[name] = typ
}

// Elem is the element type of the collection name, from the innermost
// scope that declares name; "" when unknown.
func (s *Scope) Elem(name string) string {
	for ; s != nil; s = s.Parent {
		if e, found := s.Elems[name]; found {
			return e
		}
		if _, found := s.Types[name]; found {
			return ""
		}
	}
	return ""
}

// SetTypeVar declares the type parameter name with its bound ("" when the
// language leaves it unbounded).
func (s *Scope) SetTypeVar(name, bound string) {
	if s.TypeVars == nil {
		s.TypeVars = map[string]string{}
	}
	s.TypeVars[name] = bound
}

// TypeVar is the bound of the type parameter name in the innermost scope
// that declares it; ok is false for a name that is no type parameter.
func (s *Scope) TypeVar(name string) (bound string, ok bool) {
	for ; s != nil; s = s.Parent {
		if b, found := s.TypeVars[name]; found {
			return b, true
		}
	}
	return "", false
}

// IsLocal reports whether the innermost scope that declares name is a
// function's: calling name calls a value, not a definition.
func (s *Scope) IsLocal(name string) bool {
	for ; s != nil; s = s.Parent {
		if _, found := s.Types[name]; found {
			return s.Func
		}
	}
	return false
}
