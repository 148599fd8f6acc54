package lang

// scope is what a walker knows of the local names of one block, function
// or file: each name's type as written ("" when unknown), or the call it
// was assigned from and the type of that call's first part (the head).
// Lookups go out through the enclosing scopes. A language keeps what else
// it tracks beside it (Java's type variables, C#'s element types).
type scope struct {
	types  map[string]string // x -> "Item", "" when unknown
	calls  map[string]string // x -> "factory.create" (x = factory.create())
	heads  map[string]string // x -> the type of the call's first part, "Factory"
	parent *scope
}

// setType declares name with a type; it holds no call's result.
func (s *scope) setType(name, typ string) {
	s.setTypeOnly(name, typ)
	delete(s.calls, name)
}

// setTypeOnly sets the type of name and keeps the call it holds.
func (s *scope) setTypeOnly(name, typ string) {
	if s.types == nil {
		s.types = map[string]string{}
	}
	s.types[name] = typ
}

// setCall declares name as holding the result of call fn, whose first
// part has type head ("" when unknown).
func (s *scope) setCall(name, fn, head string) {
	s.set(name, "", fn, head)
}

// set declares name with a type and the call it holds, either may be "".
func (s *scope) set(name, typ, fn, head string) {
	if s.calls == nil {
		s.calls, s.heads = map[string]string{}, map[string]string{}
	}
	s.setTypeOnly(name, typ)
	s.calls[name] = fn
	s.heads[name] = head
}

// lookup returns what the innermost scope that declares name knows of it.
func (s *scope) lookup(name string) (typ, call, head string, ok bool) {
	for ; s != nil; s = s.parent {
		if t, found := s.types[name]; found {
			return t, s.calls[name], s.heads[name], true
		}
	}
	return "", "", "", false
}
