package lang

// Scope is what a walker knows of the local names of one block, function
// or file: each name's type as written ("" when unknown), or the call it
// was assigned from and the type of that call's first part (the head).
// Lookups go out through the enclosing scopes. A language keeps what else
// it tracks beside it (Java's type variables, C#'s element types).
type Scope struct {
	Types  map[string]string // x -> "Item", "" when unknown
	Calls  map[string]string // x -> "factory.create" (x = factory.create())
	Heads  map[string]string // x -> the type of the call's first part, "Factory"
	Parent *Scope
}

// SetType declares name with a type; it holds no call's result.
func (s *Scope) SetType(name, typ string) {
	s.SetTypeOnly(name, typ)
	delete(s.Calls, name)
}

// SetTypeOnly sets the type of name and keeps the call it holds.
func (s *Scope) SetTypeOnly(name, typ string) {
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
	s.SetTypeOnly(name, typ)
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
