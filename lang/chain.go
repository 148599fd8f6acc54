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
