package c

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// The declarations only C++ has: namespaces, class bodies with access
// sections, templates, using declarations and directives, aliases.

// namespace makes a named namespace a module symbol whose declarations
// hang from it; an anonymous one gives its declarations internal linkage.
func (w *walkState) namespace(n int32, c state) {
	t := w.t
	body := t.Field(n, "body")
	name := namespaceName(t, n)
	if name == "" {
		c.hidden = true
		if body >= 0 {
			w.decls(body, c)
		}
		return
	}
	q := join(c.ns, name)
	s := lang.Symbol{Kind: lang.KindModule, Name: lastDotted(name), Parent: c.parent, Doc: w.doc(n)}
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		s.Container = q[:i]
	}
	s.Exported, s.Visibility = !c.hidden, lang.VisPublic
	if c.hidden {
		s.Visibility = lang.VisInternal
	}
	if t.ChildOfKind(n, "inline") >= 0 {
		s.Signature.Modifiers = []string{"inline"}
	}
	s.Signature.Text = w.x.HeaderText(n, body)
	sym := w.x.AddSymbol(s, n, nameLeaf(t, t.Field(n, "name")), body)
	if body >= 0 {
		w.decls(body, state{parent: sym, ns: q, cls: -1, hidden: c.hidden, tmpl: -1})
	}
}

// members walks a class body: access sections, methods declared and
// defined, nested types; data members are the class's fields.
func (w *walkState) members(body int32, c state) {
	t := w.t
	for m := range t.NamedChildren(body) {
		switch t.Kind(m) {
		case "access_specifier":
			switch a := strings.TrimSpace(strings.TrimSuffix(t.Text(m), ":")); a {
			case "public", "protected", "private":
				c.access = a
			}
		case "friend_declaration", "using_declaration", "static_assert_declaration", "comment":
		case "field_declaration":
			w.declaration(m, c)
			if v := t.Field(m, "default_value"); v >= 0 {
				w.code(v, c.cls, newScope(nil), false, c)
				if ty := t.Field(m, "type"); ty >= 0 && (t.Kind(v) == "initializer_list" || t.Kind(v) == "argument_list") {
					w.construct(ty, c.cls, v)
				}
			}
		case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
			inner := m
			for ch := range t.NamedChildren(inner) {
				if f := t.FieldName(ch); f == "condition" || f == "name" {
					continue
				}
				if k := t.Kind(ch); k == "access_specifier" {
					c.access = strings.TrimSpace(strings.TrimSuffix(t.Text(ch), ":"))
					continue
				}
				w.decl(ch, c)
			}
		default:
			w.decl(m, c)
		}
	}
}

// template handles template <...> declaration: the declaration it wraps,
// with the template's parameters as its generics.
func (w *walkState) template(n int32, c state) {
	t := w.t
	c.tmpl = n
	for ch := range t.NamedChildren(n) {
		if t.FieldName(ch) == "parameters" || t.IsComment(ch) {
			continue
		}
		switch t.Kind(ch) {
		case "function_definition", "declaration", "field_declaration", "class_specifier", "struct_specifier",
			"union_specifier", "alias_declaration", "template_declaration", "concept_definition", "type_definition":
			w.decl(ch, c)
		default:
			w.decl(ch, c)
		}
	}
}

// using records using namespace X (a wildcard import of X) and using X::y
// (an import of y from X). Inside a class, using Base::f is no import.
func (w *walkState) using(n int32, c state) {
	if c.cls >= 0 {
		return
	}
	w.usingImport(n, 0)
}

func (w *walkState) usingImport(n int32, sym int) {
	t := w.t
	isNS := t.ChildOfKind(n, "namespace") >= 0
	var target int32 = -1
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "identifier", "qualified_identifier", "namespace_identifier", "type_identifier":
			target = ch
		}
	}
	if target < 0 {
		return
	}
	text := strings.Join(strings.Fields(t.Text(target)), "")
	text = strings.TrimPrefix(text, "::")
	imp := lang.Import{Line: t.StartLine(n), Symbol: sym}
	if isNS {
		imp.Source = text
		imp.Names = []lang.ImportName{{Name: "*"}}
	} else {
		i := strings.LastIndex(text, "::")
		if i < 0 {
			return
		}
		imp.Source = text[:i]
		imp.Names = []lang.ImportName{{Name: text[i+2:]}}
	}
	if imp.Source == "" {
		return
	}
	w.x.Facts.Imports = append(w.x.Facts.Imports, imp)
}

// namespaceAlias records namespace fs = std::filesystem as an import of
// std::filesystem bound to fs.
func (w *walkState) namespaceAlias(n int32, c state) {
	t := w.t
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	var target int32 = -1
	for ch := range t.NamedChildren(n) {
		if ch != name && t.FieldName(ch) != "name" {
			target = ch
		}
	}
	if target < 0 {
		return
	}
	src := strings.TrimPrefix(strings.Join(strings.Fields(t.Text(target)), ""), "::")
	w.x.Facts.Imports = append(w.x.Facts.Imports, lang.Import{Source: src, Alias: t.Text(name), Line: t.StartLine(n), Symbol: 0})
}

// alias makes using Name = type a type symbol.
func (w *walkState) alias(n int32, c state) {
	t := w.t
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	s := lang.Symbol{Kind: lang.KindType, Name: t.Text(name), Parent: c.parent, Doc: w.doc(c.declNode(n))}
	s.Signature.Returns = lang.OneLine(t.FieldText(n, "type"))
	if c.tmpl >= 0 {
		s.Signature.Generics = w.generics(c.tmpl)
	}
	w.visibility(&s, c, false)
	s.Signature.Text = strings.TrimSuffix(lang.OneLine(t.Text(c.declNode(n))), ";")
	node := n
	if c.tmpl >= 0 && t.Parent(n) == c.tmpl {
		node = c.tmpl
	}
	w.x.AddSymbol(s, node, name, -1)
}

// fieldInits walks a constructor's member initializer list: Base(args)
// calls a base class's constructor; member(args) walks its arguments.
func (w *walkState) fieldInits(fil int32, sym int, scope *scope, c state) {
	t := w.t
	var bases []string
	if i, ok := w.classes[scope.cls]; ok {
		bases = w.x.Facts.Symbols[i].Signature.Bases
	}
	for fi := range t.NamedChildren(fil) {
		if t.Kind(fi) != "field_initializer" {
			continue
		}
		first := t.FirstNamedChild(fi)
		if first < 0 {
			continue
		}
		name, qual := typeRefName(t, first)
		if t.Kind(first) == "field_identifier" || t.Kind(first) == "template_method" {
			name = t.Text(first)
			if t.Kind(first) == "template_method" {
				name = t.FieldText(first, "name")
			}
		}
		if name != "" && isBaseInit(name, qual, bases) {
			q := name
			if qual != "" {
				q = qual + "::" + name
			}
			w.x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: q, QualifierType: scopeMark, Symbol: sym}, fi)
		}
		for ch := range t.NamedChildren(fi) {
			if ch != first {
				w.code(ch, sym, scope, false, c)
			}
		}
	}
}

// isBaseInit reports whether an initializer names a base class: one of
// the class's bases when the walker knows them, else a type-like name
// (Base, ns::Base) rather than a member's (name_, m_name, name).
func isBaseInit(name, qual string, bases []string) bool {
	if len(bases) > 0 {
		for _, b := range bases {
			bn := b
			if i := strings.IndexByte(bn, '<'); i >= 0 {
				bn = bn[:i]
			}
			if lastColon(strings.TrimSpace(bn)) == name {
				return true
			}
		}
		return false
	}
	return qual != "" || lang.IsUpper(name) && !strings.HasSuffix(name, "_") && !strings.HasPrefix(name, "m_")
}

// construct records the construction of a value of the type written at
// typ (T x(args), T x{args}, a member initializer).
func (w *walkState) construct(typ int32, sym int, at int32) {
	t := w.t
	if typ < 0 {
		return
	}
	switch t.Kind(typ) {
	case "type_identifier", "qualified_identifier", "template_type":
	default:
		return
	}
	name, qual := typeRefName(t, typ)
	if name == "" || primitive[name] {
		return
	}
	w.x.Ref(lang.Ref{Kind: lang.RefNew, Name: name, Qualifier: qual, Symbol: sym}, at)
}
