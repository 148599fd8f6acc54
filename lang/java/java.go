// Package java is sdl's room for Java: a walker over the syntax tree
// (packages, types, members, imports, the types of locals, guards, throws
// and side effects), resolution through packages, imports, nested and
// base types, and the skeleton rules of its braced bodies.
package java

import (
	"embed"
	"strings"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/grammar"
)

// data holds the room's data files: test-path patterns, side effects and
// word lists.
//
//go:embed *.txt
var data embed.FS

func init() {
	lang.RegisterWalker(lang.Walker{
		Name:       "java",
		Extensions: []string{".java"},
		Grammar:    grammar.Java(),
		Comments:   []string{"line_comment", "block_comment"},
		Strings:    []string{"string_literal", "character_literal"},
		Idents:     []string{"identifier", "type_identifier"},
		Data:       data,
		Extract:    extract,
		Resolve:    resolve, ResolveImport: resolveImport,
		Skeleton: skeleton,
	})
}

// A lang.Scope maps the variables visible in some code to what is known
// of their type. Scopes chain: a method's locals, its class's fields, the
// outer class's fields. Java forbids a local to shadow another local, so
// one map per method is close enough to block scoping. A type variable's
// bound (its erasure, "T" -> "Comparable") is a TypeVar.

// setType declares name in s with its type, a type variable erased.
func setType(s *lang.Scope, name, typ string) { s.SetType(name, erase(s, typ)) }

// erase replaces a type variable by its bound: the methods a value of
// type T has are its bound's ("Object" when it has none).
func erase(s *lang.Scope, typ string) string {
	base := strings.TrimRight(typ, "[]")
	if !lang.IsUpper(base) || strings.IndexByte(base, '.') >= 0 {
		return typ
	}
	if b, ok := s.TypeVar(base); ok {
		return b + typ[len(base):]
	}
	return typ
}

// declareTypeParams puts the type parameters of a class or method in
// scope.
func declareTypeParams(s *lang.Scope, x *lang.Extractor, list int32) {
	t := x.Tree
	if list < 0 {
		return
	}
	for p := range t.NamedChildren(list) {
		name, bound := "", "Object"
		for ch := range t.NamedChildren(p) {
			switch t.Kind(ch) {
			case "type_identifier":
				name = t.Text(ch)
			case "type_bound":
				if b := t.FirstNamedChild(ch); b >= 0 {
					bound = stripType(t.Text(b))
				}
			}
		}
		if name == "" {
			continue
		}
		if bound == name {
			bound = "Object"
		}
		s.SetTypeVar(name, bound)
	}
}

// state is where the walker is: which symbol code belongs to, and what
// declarations there make.
type state struct {
	sym     int         // the symbol code belongs to
	members int         // the class whose body is being walked, -1 in code and anonymous bodies
	cls     int         // the innermost named class, -1 outside every class
	iface   bool        // members are implicitly public (interface, annotation type)
	anon    string      // base type of the innermost anonymous class body, "" outside
	top     bool        // a statement of a method body itself, where an early exit is a guard
	scope   *lang.Scope // the variables in scope
	file    *file
}

// file is what the walk of one file shares.
type file struct {
	// prev is each node's previous sibling, -1 for none: Tree.PrevSibling
	// scans the siblings before it, which makes the docs of a class with
	// thousands of members quadratic.
	prev []int32
}

func newFile(t *lang.Tree) *file {
	prev := make([]int32, t.Len())
	for i := range prev {
		prev[i] = -1
	}
	for i := int32(0); i < t.Len(); i++ {
		last := int32(-1)
		for c := i + 1; c < t.Nodes[i].End; c = t.Nodes[c].End {
			prev[c] = last
			last = c
		}
	}
	return &file{prev: prev}
}

// testAnnotations mark test methods (JUnit 4 and 5, TestNG).
var testAnnotations = lang.WordFile(data, "test_annotations.txt")

func extract(x *lang.Extractor) {
	root := &lang.Scope{}
	c := state{sym: 0, members: -1, cls: -1, scope: root, file: newFile(x.Tree)}
	for n := range x.Tree.NamedChildren(0) {
		walkNode(x, n, c)
	}
}

// walkNode walks node n: declarations become symbols, code becomes
// references, guards and throws of c.sym.
func walkNode(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	switch t.Kind(n) {
	case "line_comment", "block_comment", "modifiers", "marker_annotation", "annotation":
		return
	case "package_declaration":
		for ch := range t.NamedChildren(n) {
			if k := t.Kind(ch); k == "scoped_identifier" || k == "identifier" {
				x.Facts.Module = lang.OneLine(t.Text(ch))
				x.Facts.Symbols[0].Name = x.Facts.Module
				x.Facts.Symbols[0].Doc = doc(x, c, n)
			}
		}
		return
	case "import_declaration":
		importDecl(x, n)
		return
	case "class_declaration", "record_declaration", "enum_declaration", "interface_declaration", "annotation_type_declaration":
		class(x, n, c)
		return
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration":
		method(x, n, c)
		return
	case "field_declaration", "constant_declaration":
		field(x, n, c)
		return
	case "enum_constant":
		enumConstant(x, n, c)
		return
	case "static_initializer":
		for ch := range t.NamedChildren(n) {
			walkNode(x, ch, c)
		}
		return
	case "local_variable_declaration":
		local(x, n, c)
		return
	case "method_invocation":
		call(x, n, c)
	case "object_creation_expression":
		newExpr(x, n, c)
		return
	case "explicit_constructor_invocation":
		ctorCall(x, n, c)
	case "method_reference":
		methodRef(x, n, c)
		return
	case "lambda_expression":
		lambda(x, n, c)
		return
	case "if_statement":
		if c.top {
			guard.Guard(x, c.sym, n)
		}
	case "throw_statement":
		throw(x, n, c)
	case "assert_statement":
		if c.top {
			if cond := t.FirstNamedChild(n); cond >= 0 {
				x.Guard(c.sym, "!("+t.Text(cond)+")", "throw", n)
			}
		}
	case "expression_statement":
		if c.top {
			checkCall(x, n, c)
		}
	case "enhanced_for_statement":
		if name := t.Field(n, "name"); name >= 0 {
			typ := varType(x, n)
			if v := t.Field(n, "value"); typ == "" && v >= 0 && t.Kind(v) == "identifier" {
				// for (var e : array): the array's element type
				if vt, _, _, ok := c.scope.Lookup(t.Text(v)); ok && strings.HasSuffix(vt, "[]") {
					typ = vt[:len(vt)-2]
				}
			}
			setType(c.scope, t.Text(name), typ)
		}
	case "catch_formal_parameter":
		if name := t.Field(n, "name"); name >= 0 {
			typ := ""
			if ct := t.ChildOfKind(n, "catch_type"); ct >= 0 {
				if first := t.FirstNamedChild(ct); first >= 0 {
					typ = stripType(t.Text(first))
				}
			}
			setType(c.scope, t.Text(name), typ)
		}
	case "resource":
		if name := t.Field(n, "name"); name >= 0 {
			declare(x, c.scope, t.Text(name), varType(x, n), t.Field(n, "value"), c)
			return
		}
	case "instanceof_expression":
		if name := t.Field(n, "name"); name >= 0 {
			setType(c.scope, t.Text(name), stripType(t.FieldText(n, "right")))
		}
	case "type_pattern":
		var typ string
		for ch := range t.NamedChildren(n) {
			if t.Kind(ch) == "identifier" && typ != "" {
				setType(c.scope, t.Text(ch), typ)
			} else {
				typ = stripType(t.Text(ch))
			}
		}
		return
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		walkNode(x, ch, c)
	}
}

// varType is the declared type of a declaration node with a type
// field, generics stripped; "" for var.
func varType(x *lang.Extractor, n int32) string {
	typ := stripType(x.Tree.FieldText(n, "type"))
	if typ == "var" {
		return ""
	}
	return typ
}

// stripType reduces a type as written to what resolution needs:
// no annotations, type arguments or white space. "@NonNull Map<K, V>[]"
// -> "Map[]".
func stripType(s string) string {
	if !strings.ContainsAny(s, "<@ \t\r\n") {
		return s
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '<':
			depth++
		case ch == '>':
			if depth > 0 {
				depth--
			}
		case depth > 0, ch == ' ', ch == '\t', ch == '\r', ch == '\n':
		case ch == '@':
			// an annotation: its name, then perhaps its arguments
			i++
			for i < len(s) && (lang.IsIdentByte(s[i]) || s[i] == '.') {
				i++
			}
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i < len(s) && s[i] == '(' {
				pd := 0
				for ; i < len(s); i++ {
					if s[i] == '(' {
						pd++
					} else if s[i] == ')' {
						pd--
						if pd == 0 {
							break
						}
					}
				}
			} else {
				i--
			}
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// doc returns the Javadoc of a declaration: the nearest /** */ comment
// before it (other comments may sit between), or one placed after its
// annotations; failing that, the line comments right above it.
func doc(x *lang.Extractor, c state, n int32) string {
	t := x.Tree
	prevOf := c.file.prev
	for p := prevOf[n]; p >= 0 && t.IsComment(p); p = prevOf[p] {
		if t.Kind(p) == "block_comment" && strings.HasPrefix(t.Text(p), "/**") {
			return lang.CleanComment(t.Text(p))
		}
	}
	if m := t.ChildOfKind(n, "modifiers"); m >= 0 {
		for ch := range t.Children(m) {
			if t.Kind(ch) == "block_comment" && strings.HasPrefix(t.Text(ch), "/**") {
				return lang.CleanComment(t.Text(ch))
			}
		}
	}
	// line comments directly above, not trailing the previous line's code
	var parts []string
	line := t.Nodes[n].StartRow
	for p := prevOf[n]; p >= 0 && t.Kind(p) == "line_comment"; {
		if t.Nodes[p].EndRow+1 < line {
			break
		}
		prev := prevOf[p]
		if prev >= 0 && t.Nodes[prev].EndRow == t.Nodes[p].StartRow {
			break
		}
		parts = append(parts, t.Text(p))
		line = t.Nodes[p].StartRow
		p = prev
	}
	if len(parts) == 0 {
		return ""
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return lang.CleanComment(strings.Join(parts, "\n"))
}

// modifiers reads a declaration's modifiers: its visibility ("" for package
// private), the other modifiers and annotations, and whether an annotation
// marks a test.
func modifiers(x *lang.Extractor, n int32) (vis string, mods []string, test bool) {
	t := x.Tree
	add := func(ch int32) {
		switch k := t.Kind(ch); k {
		case "public", "protected", "private":
			vis = k
		case "static", "abstract", "final", "default", "synchronized", "native", "strictfp", "transient", "volatile",
			"sealed", "non-sealed":
			mods = append(mods, k)
		case "marker_annotation", "annotation":
			name := lang.OneLine(t.FieldText(ch, "name"))
			mods = append(mods, "@"+name)
			if testAnnotations[lang.LastIdent(name)] {
				test = true
			}
		}
	}
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "modifiers":
			for m := range t.Children(ch) {
				add(m)
			}
		case "marker_annotation", "annotation":
			add(ch)
		}
	}
	return vis, mods, test
}

// sigStart is where the signature of declaration n starts: after the
// annotations that lead it, which its modifiers name already (a test's
// "@CsvSource({...})" ran to hundreds of characters ahead of its name).
func sigStart(t *lang.Tree, n int32) uint32 {
	start := t.Nodes[n].StartByte
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "modifiers":
			for m := range t.Children(ch) {
				switch t.Kind(m) {
				case "marker_annotation", "annotation", "line_comment", "block_comment":
					start = t.Nodes[m].EndByte
				default:
					return start
				}
			}
		case "marker_annotation", "annotation", "line_comment", "block_comment":
			start = t.Nodes[ch].EndByte
		default:
			return start
		}
	}
	return start
}

// visibility maps a modifier to the symbol's visibility.
func visibility(s *lang.Symbol, vis string, implicitPublic bool) {
	switch {
	case vis == "public" || vis == "" && implicitPublic:
		s.Exported, s.Visibility = true, lang.VisPublic
	case vis == "protected":
		s.Visibility = lang.VisProtected
	case vis == "private":
		s.Visibility = lang.VisPrivate
	default:
		s.Visibility = lang.VisInternal
	}
}

func importDecl(x *lang.Extractor, n int32) {
	t := x.Tree
	static := false
	wild := false
	src := ""
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "static":
			static = true
		case "asterisk":
			wild = true
		case "scoped_identifier", "identifier":
			src = lang.OneLine(t.Text(ch))
		}
	}
	if src == "" {
		return
	}
	imp := lang.Import{Source: src, Line: t.StartLine(n), Symbol: 0}
	switch {
	case wild:
		// import a.b.*; (a package's types) or import static a.b.C.*;
		// (a class's static members): both name their source and "*".
		imp.Names = []lang.ImportName{{Name: "*"}}
	case static:
		// import static a.b.C.m;
		i := strings.LastIndexByte(src, '.')
		if i < 0 {
			return
		}
		imp.Source = src[:i]
		imp.Names = []lang.ImportName{{Name: src[i+1:]}}
	}
	x.Facts.Imports = append(x.Facts.Imports, imp)
}

// classFields lists the fields a class body declares, with their
// types, for Signature.Fields and the scope of its methods.
func classFields(x *lang.Extractor, n, body int32, enumName string) []lang.Param {
	t := x.Tree
	var out []lang.Param
	if ps := t.Field(n, "parameters"); ps >= 0 { // record components
		for p := range t.NamedChildren(ps) {
			if name := t.Field(p, "name"); name >= 0 {
				out = append(out, lang.Param{Name: t.Text(name), Type: lang.OneLine(t.FieldText(p, "type"))})
			}
		}
	}
	if body < 0 {
		return out
	}
	var scan func(b int32)
	scan = func(b int32) {
		for m := range t.NamedChildren(b) {
			switch t.Kind(m) {
			case "field_declaration", "constant_declaration":
				typ := lang.OneLine(t.FieldText(m, "type"))
				for d := range t.Children(m) {
					if t.FieldName(d) != "declarator" {
						continue
					}
					if name := t.Field(d, "name"); name >= 0 {
						dt := typ
						if dims := t.Field(d, "dimensions"); dims >= 0 {
							dt += t.Text(dims)
						}
						out = append(out, lang.Param{Name: t.Text(name), Type: dt})
					}
				}
			case "enum_constant":
				if name := t.Field(m, "name"); name >= 0 {
					out = append(out, lang.Param{Name: t.Text(name), Type: enumName})
				}
			case "enum_body_declarations", "ERROR":
				scan(m)
			}
		}
	}
	scan(body)
	return out
}

// typeList returns the types of a superclass, super_interfaces or
// extends_interfaces node, as written.
func typeList(x *lang.Extractor, n int32) []int32 {
	t := x.Tree
	var out []int32
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) == "type_list" {
			for ty := range t.NamedChildren(ch) {
				out = append(out, ty)
			}
		} else {
			out = append(out, ch)
		}
	}
	return out
}

func class(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	name := t.Field(n, "name")
	if name < 0 {
		return
	}
	body := t.Field(n, "body")
	kind := t.Kind(n)
	parent := c.sym
	if c.members >= 0 {
		parent = c.members
	}
	s := lang.Symbol{Kind: lang.KindClass, Name: t.Text(name), Parent: parent}
	if kind == "interface_declaration" || kind == "annotation_type_declaration" {
		s.Kind = lang.KindInterface
	}
	vis, mods, _ := modifiers(x, n)
	visibility(&s, vis, c.iface && c.members >= 0)
	switch kind {
	case "enum_declaration":
		mods = append(mods, "enum")
	case "record_declaration":
		mods = append(mods, "record")
	case "annotation_type_declaration":
		mods = append(mods, "@interface")
	}
	s.Signature.Modifiers = mods
	s.Signature.Generics = x.Tree.ItemTexts(t.Field(n, "type_parameters"))
	var extends, implements []int32
	if sc := t.Field(n, "superclass"); sc >= 0 {
		extends = typeList(x, sc)
	}
	if si := t.Field(n, "interfaces"); si >= 0 {
		implements = typeList(x, si)
	}
	if ei := t.ChildOfKind(n, "extends_interfaces"); ei >= 0 {
		extends = append(extends, typeList(x, ei)...)
	}
	for _, b := range extends {
		s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(b)))
	}
	for _, b := range implements {
		s.Signature.Bases = append(s.Signature.Bases, lang.OneLine(t.Text(b)))
	}
	enumName := ""
	if kind == "enum_declaration" {
		enumName = s.Name
	}
	s.Signature.Fields = classFields(x, n, body, enumName)
	s.Signature.Text = x.HeaderTextFrom(n, sigStart(t, n), body)
	s.Doc = doc(x, c, n)
	sym := x.AddSymbol(s, n, name, body)
	for _, b := range extends {
		typeRef(x, b, sym, lang.RefExtends)
	}
	for _, b := range implements {
		typeRef(x, b, sym, lang.RefImplements)
	}
	scope := &lang.Scope{Parent: c.scope}
	declareTypeParams(scope, x, t.Field(n, "type_parameters"))
	for _, f := range x.Facts.Symbols[sym].Signature.Fields {
		setType(scope, f.Name, stripType(f.Type))
	}
	inner := state{sym: sym, members: sym, cls: sym, iface: s.Kind == lang.KindInterface, scope: scope, file: c.file}
	// record components are fields, and public through their accessors
	if ps := t.Field(n, "parameters"); ps >= 0 && kind == "record_declaration" {
		for p := range t.NamedChildren(ps) {
			pn := t.Field(p, "name")
			if pn < 0 {
				continue
			}
			ps := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(pn), Parent: sym, Exported: true, Visibility: lang.VisPublic}
			ps.Signature.Returns = lang.OneLine(t.FieldText(p, "type"))
			ps.Signature.Text = lang.OneLine(t.Text(p))
			x.AddSymbol(ps, p, pn, -1)
		}
	}
	if body >= 0 {
		for m := range t.NamedChildren(body) {
			walkNode(x, m, inner)
		}
	}
}

// typeRef records a reference of kind to the type written at node ty.
func typeRef(x *lang.Extractor, ty int32, sym int, kind string) {
	name, qual := lang.SplitType(stripType(x.Tree.Text(ty)))
	if name == "" {
		return
	}
	x.Ref(lang.Ref{Kind: kind, Name: name, Qualifier: qual, Symbol: sym}, ty)
}

// paramList reads formal parameters, declaring them in scope.
func paramList(x *lang.Extractor, list int32, scope *lang.Scope) []lang.Param {
	t := x.Tree
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for p := range t.NamedChildren(list) {
		switch t.Kind(p) {
		case "formal_parameter":
			name := t.FieldText(p, "name")
			typ := lang.OneLine(t.FieldText(p, "type"))
			if dims := t.Field(p, "dimensions"); dims >= 0 {
				typ += t.Text(dims)
			}
			out = append(out, lang.Param{Name: name, Type: typ})
			if scope != nil && name != "" {
				setType(scope, name, stripType(typ))
			}
		case "spread_parameter":
			var typ, name string
			for ch := range t.NamedChildren(p) {
				switch t.Kind(ch) {
				case "modifiers":
				case "variable_declarator":
					name = t.FieldText(ch, "name")
				default:
					if typ == "" {
						typ = lang.OneLine(t.Text(ch))
					}
				}
			}
			out = append(out, lang.Param{Name: name, Type: typ + "...", Variadic: true})
			if scope != nil && name != "" {
				setType(scope, name, stripType(typ)+"[]")
			}
		}
	}
	return out
}

func method(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	name := t.Field(n, "name")
	body := t.Field(n, "body")
	scope := &lang.Scope{Parent: c.scope}
	if c.members < 0 && c.sym != 0 {
		// a method of an anonymous class, or one the parser could not
		// place: not a symbol, its code belongs to the enclosing one
		paramList(x, t.Field(n, "parameters"), scope)
		if body >= 0 {
			c.scope, c.top = scope, false
			walkNode(x, body, c)
		}
		return
	}
	if name < 0 {
		return
	}
	kind := lang.KindMethod
	switch t.Kind(n) {
	case "constructor_declaration", "compact_constructor_declaration":
		kind = lang.KindConstructor
	}
	parent := c.members
	if parent < 0 {
		// a method outside any class: a script or a broken file
		parent, kind = 0, lang.KindFunction
	}
	declareTypeParams(scope, x, t.Field(n, "type_parameters"))
	s := lang.Symbol{Kind: kind, Name: t.Text(name), Parent: parent}
	vis, mods, test := modifiers(x, n)
	visibility(&s, vis, c.iface)
	if th := t.ChildOfKind(n, "throws"); th >= 0 {
		for ty := range t.NamedChildren(th) {
			mods = append(mods, "throws "+lang.OneLine(t.Text(ty)))
		}
	}
	s.Signature.Modifiers = mods
	s.Signature.Generics = x.Tree.ItemTexts(t.Field(n, "type_parameters"))
	if t.Kind(n) == "compact_constructor_declaration" && c.members >= 0 {
		// the compact constructor takes the record's components
		for _, f := range x.Facts.Symbols[c.members].Signature.Fields {
			setType(scope, f.Name, stripType(f.Type))
		}
		if rn := x.SymNode[c.members]; rn >= 0 {
			s.Signature.Params = paramList(x, t.Field(rn, "parameters"), nil)
		}
	} else {
		s.Signature.Params = paramList(x, t.Field(n, "parameters"), scope)
	}
	if ty := t.Field(n, "type"); ty >= 0 {
		s.Signature.Returns = lang.OneLine(t.Text(ty))
		if dims := t.Field(n, "dimensions"); dims >= 0 {
			s.Signature.Returns += t.Text(dims)
		}
	}
	s.Signature.Text = x.HeaderTextFrom(n, sigStart(t, n), body)
	s.Doc = doc(x, c, n)
	s.IsTest = test
	sym := x.AddSymbol(s, n, name, body)
	if v := t.Field(n, "value"); v >= 0 { // an annotation element's default
		walkNode(x, v, state{sym: sym, members: -1, cls: c.cls, scope: scope, file: c.file})
	}
	if body < 0 {
		return
	}
	inner := state{sym: sym, members: -1, cls: c.cls, scope: scope, top: true, file: c.file}
	for st := range t.NamedChildren(body) {
		walkNode(x, st, inner)
	}
}

func field(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	typ := lang.OneLine(t.FieldText(n, "type"))
	var decls []int32
	for d := range t.Children(n) {
		if t.FieldName(d) == "declarator" {
			decls = append(decls, d)
		}
	}
	if c.members < 0 {
		// a field of an anonymous class: its initializers are code of the
		// enclosing symbol
		for _, d := range decls {
			if name := t.Field(d, "name"); name >= 0 {
				declare(x, c.scope, t.Text(name), stripType(typ), t.Field(d, "value"), c)
			}
		}
		return
	}
	vis, mods, _ := modifiers(x, n)
	doc := doc(x, c, n)
	for _, d := range decls {
		name := t.Field(d, "name")
		if name < 0 {
			continue
		}
		s := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(name), Parent: c.members, Doc: doc}
		visibility(&s, vis, c.iface)
		s.Signature.Returns = typ
		if dims := t.Field(d, "dimensions"); dims >= 0 {
			s.Signature.Returns += t.Text(dims)
		}
		s.Signature.Modifiers = mods
		if t.Kind(n) == "constant_declaration" {
			s.Signature.Modifiers = append(append([]string(nil), mods...), "static", "final")
		}
		node := d
		if len(decls) == 1 {
			node = n
		}
		val := t.Field(d, "value")
		head := sigStart(t, n)
		if ty := t.Field(n, "type"); ty >= 0 {
			s.Signature.Text = lang.OneLine(string(t.Src[head:t.Nodes[ty].EndByte])) + " " + s.Name
		}
		sym := x.AddSymbol(s, node, name, val)
		if val >= 0 {
			walkNode(x, val, state{sym: sym, members: -1, cls: c.cls, scope: c.scope, file: c.file})
		}
	}
}

func enumConstant(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	name := t.Field(n, "name")
	sym := c.sym
	enum := ""
	if c.members >= 0 && name >= 0 {
		enum = x.Facts.Symbols[c.members].Name
		s := lang.Symbol{Kind: lang.KindVariable, Name: t.Text(name), Parent: c.members, Exported: true, Visibility: lang.VisPublic}
		s.Signature.Returns = enum
		s.Signature.Modifiers = []string{"static", "final"}
		_, mods, _ := modifiers(x, n)
		s.Signature.Modifiers = append(s.Signature.Modifiers, mods...)
		s.Signature.Text = t.Text(name)
		s.Doc = doc(x, c, n)
		sym = x.AddSymbol(s, n, name, t.Field(n, "body"))
	}
	inner := state{sym: sym, members: -1, cls: c.cls, scope: c.scope, file: c.file}
	if args := t.Field(n, "arguments"); args >= 0 {
		walkNode(x, args, inner)
	}
	if b := t.Field(n, "body"); b >= 0 {
		// a constant's body is an anonymous subclass of the enum
		inner.anon = enum
		inner.scope = &lang.Scope{Parent: c.scope}
		for m := range t.NamedChildren(b) {
			walkNode(x, m, inner)
		}
	}
}

func local(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	typ := varType(x, n)
	for d := range t.Children(n) {
		if t.FieldName(d) != "declarator" {
			continue
		}
		name := t.Field(d, "name")
		if name < 0 {
			continue
		}
		dt := typ
		if dims := t.Field(d, "dimensions"); dims >= 0 && dt != "" {
			dt += "[]"
		}
		declare(x, c.scope, t.Text(name), dt, t.Field(d, "value"), c)
	}
}

// declare declares a variable of declared type typ ("" for var),
// learning its type from its initializer when needed, and walks the
// initializer.
func declare(x *lang.Extractor, scope *lang.Scope, name, typ string, val int32, c state) {
	t := x.Tree
	c.top = false
	if val >= 0 {
		walkNode(x, val, c)
	}
	if typ != "" || val < 0 {
		setType(scope, name, typ)
		return
	}
	// var x = ...: the initializer tells
	v := t.Unparen(val)
	switch t.Kind(v) {
	case "object_creation_expression":
		if ty := t.Field(v, "type"); ty >= 0 {
			setType(scope, name, stripType(t.Text(ty)))
			return
		}
	case "cast_expression":
		setType(scope, name, stripType(t.FieldText(v, "type")))
		return
	case "string_literal":
		setType(scope, name, "String")
		return
	case "method_invocation":
		head, call := head(x, v, c)
		scope.SetCall(name, call, head)
		return
	}
	setType(scope, name, "")
}

// expr renders an expression used as a qualifier, with arguments
// left out: "a.b(x, y).c" -> "a.b().c", "new Foo(1)" -> "new Foo()".
func expr(t *lang.Tree, n int32, depth int) string {
	if depth > lang.MaxChain {
		return "..."
	}
	switch t.Kind(n) {
	case "identifier", "this", "super", "type_identifier":
		return t.Text(n)
	case "field_access":
		obj := t.Field(n, "object")
		field := t.Field(n, "field")
		if obj < 0 || field < 0 {
			break
		}
		return expr(t, obj, depth+1) + "." + t.Text(field)
	case "method_invocation":
		s := t.FieldText(n, "name") + "()"
		if obj := t.Field(n, "object"); obj >= 0 {
			s = expr(t, obj, depth+1) + "." + s
		}
		return s
	case "object_creation_expression":
		return "new " + stripType(t.FieldText(n, "type")) + "()"
	case "parenthesized_expression":
		if in := t.FirstNamedChild(n); in >= 0 {
			return "(" + expr(t, in, depth+1) + ")"
		}
	case "cast_expression":
		if v := t.Field(n, "value"); v >= 0 {
			return "(" + stripType(t.FieldText(n, "type")) + ") " + expr(t, v, depth+1)
		}
	case "array_access":
		if a := t.Field(n, "array"); a >= 0 {
			return expr(t, a, depth+1) + "[]"
		}
	case "string_literal":
		return `""`
	}
	return lang.Shorten(lang.OneLine(t.Text(n)), 40)
}

// head works out what is known of a qualifier's value: the type of
// its first part (a variable, this, new T(), a cast) and, when the
// qualifier is a call or a variable assigned from one, that call. With a
// call, typ is the type of the call's first part: for x in
// "var x = store.cursor(); x.next()", the call is "store.cursor" and typ
// the type of store.
func head(x *lang.Extractor, obj int32, c state) (typ, call string) {
	t := x.Tree
	// the last call of the qualifier: a.b().c -> a.b
	for n, i := obj, 0; n >= 0 && i <= lang.MaxChain; i++ {
		if k := t.Kind(n); k == "method_invocation" {
			call = strings.TrimSuffix(expr(t, n, 0), "()")
			break
		} else if k != "field_access" {
			break
		}
		n = t.Field(n, "object")
	}
	n := obj
	for i := 0; i <= lang.MaxChain; i++ {
		next := int32(-1)
		switch t.Kind(n) {
		case "method_invocation", "field_access":
			next = t.Field(n, "object")
		case "array_access":
			next = t.Field(n, "array")
		case "parenthesized_expression":
			next = t.FirstNamedChild(n)
		}
		if next < 0 {
			break
		}
		n = next
	}
	switch t.Kind(n) {
	case "identifier":
		name := t.Text(n)
		vt, vc, vh, ok := c.scope.Lookup(name)
		switch {
		case !ok:
			if e := erase(c.scope, name); e != name {
				typ = e // T::m, E.valueOf(): a type variable stands for its bound
			}
		case vc == "":
			typ = vt
		case call == "":
			// x.m() or x.f.m() with x = a.b()
			typ, call = vh, vc
		case strings.HasPrefix(call, name):
			// x.c().m() with x = a.b(): a.b().c().m()
			typ, call = vh, vc+"()"+call[len(name):]
		}
	case "this", "super":
		switch {
		case c.anon != "":
			// this and super of an anonymous class are its base
			typ = c.anon
		case t.Kind(n) == "this" && c.cls >= 0:
			typ = x.Facts.Symbols[c.cls].Qualified()
		}
	case "object_creation_expression":
		typ = stripType(t.FieldText(n, "type"))
	case "cast_expression":
		typ = stripType(t.FieldText(n, "type"))
	case "string_literal":
		typ = "String"
	case "class_literal":
		typ = "Class"
	case "binary_expression":
		// ("x" + y).m(): a string concatenation (the operator, being
		// punctuation, is not in the tree: it is the text between)
		l, r := t.Field(n, "left"), t.Field(n, "right")
		if l >= 0 && r >= 0 && (t.Kind(l) == "string_literal" || t.Kind(r) == "string_literal") &&
			strings.TrimSpace(string(t.Src[t.Nodes[l].EndByte:t.Nodes[r].StartByte])) == "+" {
			typ = "String"
		}
	}
	return typ, call
}

func call(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	name := t.FieldText(n, "name")
	r := lang.Ref{Kind: lang.RefCall, Name: name, Symbol: c.sym}
	obj := t.Field(n, "object")
	if obj < 0 {
		obj = t.ChildOfKind(n, "super")
	}
	if obj < 0 {
		// the implicit this of an anonymous class body is its base type
		r.QualifierType = c.anon
	} else {
		r.Qualifier = expr(t, obj, 0)
		r.QualifierType, r.QualifierCall = head(x, obj, c)
	}
	x.Ref(r, n)
}

func newExpr(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	ty := t.Field(n, "type")
	typ := ""
	if ty >= 0 {
		typ = stripType(t.Text(ty))
		name, qual := lang.SplitType(typ)
		r := lang.Ref{Kind: lang.RefNew, Name: name, Qualifier: qual, Symbol: c.sym}
		if qual == "" {
			if outer := t.FirstNamedChild(n); outer >= 0 && outer != ty && t.Kind(outer) != "argument_list" &&
				t.Kind(outer) != "class_body" && t.Kind(outer) != "type_arguments" && t.Nodes[outer].StartByte < t.Nodes[ty].StartByte {
				// outer.new Inner(): a member type of outer's type
				r.QualifierType, _ = head(x, outer, c)
			} else {
				// new Inner() in an anonymous class body may mean a
				// member type of its base
				r.QualifierType = c.anon
			}
		}
		x.Ref(r, n)
	}
	inner := c
	inner.top = false
	for ch := range t.NamedChildren(n) {
		switch t.Kind(ch) {
		case "class_body":
			// an anonymous class: its members are code of the enclosing
			// symbol, and its bare calls may mean its base's methods
			a := inner
			a.members = -1
			a.anon = typ
			a.scope = &lang.Scope{Parent: c.scope}
			for m := range t.NamedChildren(ch) {
				walkNode(x, m, a)
			}
		case "argument_list":
			walkNode(x, ch, inner)
		default:
			if ch != ty {
				walkNode(x, ch, inner)
			}
		}
	}
}

// ctorCall records this(...) and super(...) as calls of a constructor
// of the class or of its superclass, named after that class.
func ctorCall(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	ctor := t.Field(n, "constructor")
	if ctor < 0 || c.cls < 0 {
		return
	}
	cls := &x.Facts.Symbols[c.cls]
	switch t.Kind(ctor) {
	case "this":
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: cls.Name, Qualifier: "this", QualifierType: cls.Qualified(), Symbol: c.sym}, n)
	case "super":
		name := "Object"
		if cn := x.SymNode[c.cls]; cn >= 0 && t.Field(cn, "superclass") >= 0 && len(cls.Signature.Bases) > 0 {
			name, _ = lang.SplitType(stripType(cls.Signature.Bases[0]))
		}
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: "super", Symbol: c.sym}, n)
	}
}

// methodRef records Type::method and obj::method as calls, and
// Type::new as a construction.
func methodRef(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	first := t.FirstNamedChild(n)
	if first < 0 {
		return
	}
	last := int32(-1)
	isNew := false
	for ch := range t.Children(n) {
		switch t.Kind(ch) {
		case "new":
			isNew = true
		case "identifier":
			if ch != first {
				last = ch
			}
		}
	}
	switch {
	case isNew:
		if t.Kind(first) == "array_type" {
			return
		}
		name, qual := lang.SplitType(stripType(t.Text(first)))
		x.Ref(lang.Ref{Kind: lang.RefNew, Name: name, Qualifier: qual, Symbol: c.sym}, n)
	case last >= 0:
		r := lang.Ref{Kind: lang.RefCall, Name: t.Text(last), Qualifier: expr(t, first, 0), Symbol: c.sym}
		r.QualifierType, r.QualifierCall = head(x, first, c)
		x.Ref(r, n)
	}
	c.top = false
	if t.Kind(first) != "identifier" && t.Kind(first) != "this" && t.Kind(first) != "super" {
		walkNode(x, first, c)
	}
}

func lambda(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	scope := &lang.Scope{Parent: c.scope}
	if ps := t.Field(n, "parameters"); ps >= 0 {
		switch t.Kind(ps) {
		case "identifier":
			setType(scope, t.Text(ps), "")
		case "inferred_parameters":
			for p := range t.NamedChildren(ps) {
				setType(scope, t.Text(p), "")
			}
		case "formal_parameters":
			paramList(x, ps, scope)
		}
	}
	c.scope, c.top = scope, false
	if b := t.Field(n, "body"); b >= 0 {
		walkNode(x, b, c)
	}
}

// guard records if (cond) return ...; and if (cond) throw ...; (braced
// or not) among the statements of a method body.
var guard = lang.IfGuard{Body: "consequence", Block: "block"}

func throw(x *lang.Extractor, n int32, c state) {
	t := x.Tree
	e := t.FirstNamedChild(n)
	if e < 0 {
		return
	}
	what := lang.OneLine(t.Text(e))
	if t.Kind(e) == "object_creation_expression" {
		what = stripType(t.FieldText(e, "type"))
	}
	x.Throw(c.sym, "throws", what, n)
}

// nullChecks are the calls that throw when their first argument is
// null; argChecks throw when their first argument is false.
var (
	nullChecks = map[string]bool{"requireNonNull": true, "checkNotNull": true, "notNull": true}
	argChecks  = map[string]bool{"checkArgument": true, "checkState": true, "isTrue": true}
)

// checkCall records precondition calls (Objects.requireNonNull,
// Preconditions.checkArgument, Validate.isTrue) in a statement of a method
// body as invariants, also when their result is assigned.
func checkCall(x *lang.Extractor, st int32, c state) {
	t := x.Tree
	e := t.FirstNamedChild(st)
	for e >= 0 && t.Kind(e) == "assignment_expression" {
		e = t.Field(e, "right")
	}
	if e < 0 || t.Kind(e) != "method_invocation" {
		return
	}
	name := t.FieldText(e, "name")
	args := t.Field(e, "arguments")
	if args < 0 {
		return
	}
	arg := t.FirstNamedChild(args)
	if arg < 0 {
		return
	}
	switch {
	case nullChecks[name]:
		x.Guard(c.sym, t.Text(arg)+" == null", "throw", st)
	case argChecks[name]:
		x.Guard(c.sym, "!("+t.Text(arg)+")", "throw", st)
	}
}
