package lang

import "strings"

// ChainKinds name the node kinds of a grammar's navigation chains of
// plain names (a.b.c, this.repo, self.repo), which Kotlin and Swift spell
// alike with other kinds. A room fills it once; Chain reads a chain by it.
type ChainKinds struct {
	Ident     string // a plain name
	SelfKind  string // the receiver's own keyword (this, self), read as SelfWord
	SelfWord  string
	SuperKind string // super, read as "super"
	Nav       string // a navigation, a.b: its named children are the parts
	Call      string // a call, f(x): its first named child is the callee
	// NavSuffix wraps the name after the dot (Swift's navigation_suffix),
	// "" when the name is a child of Nav itself
	NavSuffix string
}

// Chain returns the text of the navigation chain n, its parts joined by
// ".", or "" when some part is not a plain name.
func (k *ChainKinds) Chain(t *Tree, n int32) string {
	switch t.Kind(n) {
	case k.Ident:
		return t.Text(n)
	case k.SelfKind:
		return k.SelfWord
	case k.SuperKind:
		return "super"
	case k.Nav:
		var parts []string
		for ch := range t.NamedChildren(n) {
			var p string
			if k.NavSuffix != "" && t.Kind(ch) == k.NavSuffix {
				if s := t.FirstNamedChild(ch); s >= 0 && t.Kind(s) == k.Ident {
					p = t.Text(s)
				}
			} else {
				p = k.Chain(t, ch)
			}
			if p == "" {
				return ""
			}
			parts = append(parts, p)
		}
		return strings.Join(parts, ".")
	}
	return ""
}

// Receiver reads the receiver of a call: a chain of names ("a.b",
// "this.repo"), or a call of one ("a.b()", whose call is "a.b"); "" when
// it is neither.
func (k *ChainKinds) Receiver(t *Tree, recv int32) (qualifier, call string) {
	if s := k.Chain(t, recv); s != "" {
		return s, ""
	}
	if t.Kind(recv) == k.Call {
		if cf := t.FirstNamedChild(recv); cf >= 0 {
			if s := k.Chain(t, cf); s != "" {
				return s + "()", s
			}
		}
	}
	return "", ""
}

// TypeHead types the qualifier of r, a chain of names, by its first name,
// which it returns: the receiver's own keyword (SelfWord) is selfType, or
// what scope says of it when selfType is ""; super is superType; another
// name has the type and call scope gives it.
func (k *ChainKinds) TypeHead(r *Ref, scope *Scope, selfType, superType string) string {
	head, _, _ := strings.Cut(r.Qualifier, ".")
	switch head {
	case k.SelfWord:
		if selfType != "" {
			r.QualifierType = selfType
		} else if typ, _, _, ok := scope.Lookup(k.SelfWord); ok {
			r.QualifierType = typ
		}
	case "super":
		r.QualifierType = superType
	default:
		if typ, call, _, ok := scope.Lookup(head); ok {
			r.QualifierType, r.QualifierCall = typ, call
		}
	}
	return head
}

// SettleCall finishes a call made through a receiver: Outer.Inner(...),
// a capitalised name on a capitalised qualifier nothing typed, constructs
// a nested type; a receiver that could not be named still makes a call of
// the name ("?.name").
func SettleCall(r *Ref) {
	if r.Kind == RefCall && r.QualifierType == "" && r.QualifierCall == "" && IsUpper(r.Name) && IsUpper(r.Qualifier) {
		r.Kind = RefNew
	}
	if r.Kind == RefCall && r.Qualifier == "" && r.QualifierCall == "" {
		r.Qualifier = "?"
	}
}
