package c

import (
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// What only C++ reads: imports beside #include, member initializers,
// constructions.

// imports reads an import the query found: #include "x.h" (Source x.h)
// and #include <x.h> (Source <x.h>); using namespace X (a wildcard import
// of X) and using X::y (an import of y from X); namespace fs =
// std::filesystem (an import of std::filesystem bound to fs).
func imports(t *lang.Tree, n int32) []lang.Import {
	var imp lang.Import
	switch t.Kind(n) {
	case "preproc_include":
		p := t.Field(n, "path")
		imp.Source = t.Text(p)
		if t.Kind(p) == "string_literal" {
			imp.Source = strings.Trim(imp.Source, `"`)
		}
		if strings.TrimSpace(strings.Trim(imp.Source, "<>")) == "" {
			return nil
		}
		return []lang.Import{imp}
	case "namespace_alias_definition":
		name := t.Field(n, "name")
		for ch := range t.NamedChildren(n) {
			if ch != name && t.FieldName(ch) != "name" {
				imp.Source = strings.TrimPrefix(strings.Join(strings.Fields(t.Text(ch)), ""), "::")
			}
		}
		if name < 0 || imp.Source == "" {
			return nil
		}
		imp.Alias = t.Text(name)
		return []lang.Import{imp}
	}
	text := ""
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "identifier", "qualified_identifier", "namespace_identifier", "type_identifier":
			text = strings.TrimPrefix(strings.Join(strings.Fields(t.Text(ch)), ""), "::")
		}
	}
	if t.ChildOfKind(n, "namespace") >= 0 {
		imp.Source, imp.Names = text, []lang.ImportName{{Name: "*"}}
	} else if i := strings.LastIndex(text, "::"); i >= 0 {
		imp.Source, imp.Names = text[:i], []lang.ImportName{{Name: text[i+2:]}}
	}
	if imp.Source == "" {
		return nil
	}
	return []lang.Import{imp}
}

// testMacro reads a test that a macro defines where the grammar sees a
// call and a block: TEST(Suite, Name) { ... } in C files. It reports
// whether n was one.
func (w *walkState) testMacro(n int32, sym int) bool {
	t := w.t
	call := t.FirstNamedChild(n)
	if call < 0 || t.Kind(call) != "call_expression" || !testMacros[t.FieldText(call, "function")] {
		return false
	}
	body := t.NextSibling(n)
	if body < 0 || t.Kind(body) != "compound_statement" {
		return false
	}
	var args []string
	if a := t.Field(call, "arguments"); a >= 0 {
		for arg := range t.NamedChildren(a) {
			args = append(args, t.Text(arg))
		}
	}
	s, ns := lang.Symbol{Parent: sym, Doc: doc(t, n)}, ""
	if sym > 0 {
		ns = w.x.Facts.Symbols[sym].Qualified()
	}
	if !testSymbol(t.FieldText(call, "function"), args, ns, &s) {
		return false
	}
	s.Signature.Text = w.x.HeaderText(n, body)
	i := w.x.AddSymbol(s, n, -1, body)
	// the grammar splits the macro from its body: the symbol spans both
	sy := &w.x.Facts.Symbols[i]
	sy.Range.EndLine, sy.Range.EndCol = t.Range(body).EndLine, t.Range(body).EndCol
	sy.EndByte = t.Nodes[body].EndByte
	w.code(body, i, newScope(nil), true)
	w.testBody = body
	for j := range w.x.Facts.Imports {
		if imp := &w.x.Facts.Imports[j]; imp.Symbol == sym && imp.Line >= sy.Range.StartLine && imp.Line <= sy.Range.EndLine {
			imp.Symbol = i // a using in the test's body
		}
	}
	return true
}

// fieldInits walks the member initializer list of a constructor of
// class cls (0 when unknown): Base(args)
// calls a base class's constructor; member(args) walks its arguments.
func (w *walkState) fieldInits(fil int32, sym int, scope *scope, cls int) {
	t := w.t
	var bases []string
	if cls > 0 {
		bases = w.x.Facts.Symbols[cls].Signature.Bases
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
				w.code(ch, sym, scope, false)
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
