package python

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// The hooks of tags.scm: what a match alone cannot say of a definition.

// queryRoot runs the query from every definition and import, and from
// the assignments and type aliases outside functions (a function's
// locals are no symbols): the outer one of a = b = v.
func queryRoot(t *lang.Tree, n int32) bool {
	switch k := t.Kind(n); k {
	case "assignment", "type_alias_statement":
		if p := t.Parent(n); p >= 0 && t.Kind(p) == "assignment" {
			return false
		}
		s := scopeOf(t, n)
		return s < 0 || t.Kind(s) == "class_definition"
	}
	return true
}

// defs makes a decorated definition's range start at its decorators,
// names the targets of an assignment, and keeps a variable only where its
// name is new in its scope, as the walk has it: "f = wrap(f)" after def f
// is no variable.
func defs(t *lang.Tree, ds []lang.Def) []lang.Def {
	var out []lang.Def
	defined := map[made]bool{} // the names defined, by the function or class around them
	for _, d := range ds {
		if t.Kind(d.Node) != "assignment" {
			if p := t.Parent(d.Node); p >= 0 && t.Kind(p) == "decorated_definition" {
				d.Node = p
			}
			defined[made{scopeOf(t, d.Node), t.Text(d.Name)}] = true
			out = append(out, d)
			continue
		}
		stmt := d.Node
		if p := t.Parent(stmt); p >= 0 && t.Kind(p) == "expression_statement" {
			stmt = p
		}
		targets, _, val := chain(t, d.Node)
		for _, b := range binds(t, targets, val) {
			if k := (made{scopeOf(t, stmt), t.Text(b[0])}); !defined[k] {
				defined[k] = true
				out = append(out, lang.Def{Node: stmt, Name: b[0], Body: -1, Kind: lang.KindVariable, Match: d.Match})
			}
		}
	}
	return out
}

// scopeOf is the function or class whose names node n defines, -1 for
// the module's.
func scopeOf(t *lang.Tree, n int32) int32 {
	for p := t.Parent(n); p >= 0; p = t.Parent(p) {
		if k := t.Kind(p); k == "function_definition" || k == "class_definition" {
			return p
		}
	}
	return -1
}

// symbol completes a definition's symbol: visibility, signature,
// decorators, bases and docstring. What depends on where the walk meets
// it (a method's kind, a test method, a variable's type) the walk adds.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	s.Visibility = visibility(s.Name)
	n, dec := d.Node, int32(-1)
	if t.Kind(n) == "decorated_definition" {
		n, dec = t.Field(n, "definition"), n
	}
	sig := &s.Signature
	switch t.Kind(n) {
	case "function_definition":
		switch {
		case s.Kind == lang.KindMethod && s.Name == "__init__":
			s.Kind = lang.KindConstructor
		case s.Kind == lang.KindFunction && strings.HasPrefix(s.Name, "test_"):
			s.IsTest = true
		}
		if t.ChildOfKind(n, "async") >= 0 {
			sig.Modifiers = append(sig.Modifiers, "async")
		}
		for _, e := range decorators(t, dec) {
			d := decoratorName(t, e)
			sig.Modifiers = append(sig.Modifiers, d)
			if lang.LastIdent(d) == "abstractmethod" {
				sig.Modifiers = append(sig.Modifiers, "abstract")
			}
		}
		sig.Params = params(t, t.Field(n, "parameters"))
		if ret := t.Field(n, "return_type"); ret >= 0 {
			sig.Returns, _ = text(t, ret, maxTypeText)
		}
	case "class_definition":
		// a Protocol is an interface, an ABC abstract, a TestCase a test
		if supers := t.Field(n, "superclasses"); supers >= 0 {
			for a := range t.NamedChildren(supers) {
				switch t.Kind(a) {
				case "keyword_argument":
					if t.FieldText(a, "name") == "metaclass" {
						v := fieldText(t, a, "value", 120)
						sig.Modifiers = append(sig.Modifiers, "metaclass="+v)
						if lang.LastIdent(v) == "ABCMeta" {
							sig.Modifiers = append(sig.Modifiers, "abstract")
						}
					}
				case "list_splat", "dictionary_splat", "comment":
				default:
					b, _ := text(t, a, maxTypeText)
					sig.Bases = append(sig.Bases, b)
					switch lang.LastIdent(b) {
					case "Protocol":
						s.Kind = lang.KindInterface
					case "ABC":
						sig.Modifiers = append(sig.Modifiers, "abstract")
					}
					if strings.HasSuffix(lang.LastIdent(b), "TestCase") {
						s.IsTest = true
					}
				}
			}
		}
		for _, e := range decorators(t, dec) {
			sig.Modifiers = append(sig.Modifiers, decoratorName(t, e))
		}
	case "type_alias_statement":
		if right := t.Field(n, "right"); right >= 0 {
			sig.Returns, _ = text(t, right, maxTypeText)
		}
		return true
	default: // a variable
		if s.Doc == "" {
			// an attribute docstring: a string statement right after
			if next := t.NextSibling(n); next >= 0 && t.Kind(next) == "expression_statement" {
				if str := t.FirstNamedChild(next); str >= 0 && t.Kind(str) == "string" && t.NextSibling(str) < 0 {
					s.Doc = cleanDoc(stringValue(t, str))
				}
			}
		}
		if lang.IsUpper(s.Name) && strings.ToUpper(s.Name) == s.Name {
			sig.Modifiers = []string{"const"}
		}
		return true
	}
	sig.Generics = typeParams(t, t.Field(n, "type_parameters"))
	// a definition's source up to its body, without the colon: the
	// engine's text unless that starts at the decorators
	if dec >= 0 {
		sig.Text = (&lang.Extractor{Tree: t}).HeaderText(n, d.Body)
	}
	sig.Text = strings.TrimSpace(strings.TrimSuffix(sig.Text, ":"))
	if doc := docstring(t, d.Body); doc != "" {
		s.Doc = doc
	}
	return true
}

// imports reads an import statement into the imports it binds: import
// a.b, c as d; from .m import x, y as z; from m import *.
func imports(t *lang.Tree, n int32) []lang.Import {
	var names []lang.ImportName
	for ch := range t.Children(n) {
		switch {
		case t.Kind(ch) == "wildcard_import":
			names = append(names, lang.ImportName{Name: "*"})
		case t.FieldName(ch) != "name":
		case t.Kind(ch) == "dotted_name":
			names = append(names, lang.ImportName{Name: dottedText(t, ch)})
		case t.Kind(ch) == "aliased_import":
			names = append(names, lang.ImportName{Name: dottedText(t, t.Field(ch, "name")), Alias: t.FieldText(ch, "alias")})
		}
	}
	if t.Kind(n) == "import_statement" {
		var out []lang.Import
		for _, in := range names {
			if in.Name != "" {
				out = append(out, lang.Import{Source: in.Name, Alias: in.Alias})
			}
		}
		return out
	}
	src := dottedText(t, t.Field(n, "module_name"))
	if src == "" || len(names) == 0 {
		return nil
	}
	return []lang.Import{{Source: src, Names: names}}
}

// dottedText is a dotted or relative module name without the white
// space and line continuations Python allows inside it.
func dottedText(t *lang.Tree, n int32) string {
	if n < 0 {
		return ""
	}
	return strings.Join(strings.FieldsFunc(t.Text(n), func(r rune) bool { return strings.ContainsRune(" \t\r\n\\", r) }), "")
}
