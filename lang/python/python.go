// Package python is sdl's room for Python: classes, functions,
// variables, type aliases and imports come from tags.scm, with the hooks
// of tags.go for what a query cannot say; this file walks the code for
// the types of locals and attributes, calls, guards, raises and __all__;
// resolution goes through modules, packages, imports and base classes;
// the skeleton rules read indented bodies and docstrings.
package python

import (
	"cmp"
	"embed"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/grammar"
)

// data holds the room's data files: test-path patterns, side effects and
// word lists.
//
//go:embed *.txt
var data embed.FS

//go:embed tags.scm
var tags string

func init() {
	lang.Register(lang.Spec{
		Name:       "python",
		Extensions: []string{".py", ".pyi"},
		Grammar:    grammar.Python(),
		Query:      tags, QueryFile: "lang/python/tags.scm",
		QueryRoots: []string{"function_definition", "class_definition", "assignment", "type_alias_statement",
			"import_statement", "import_from_statement"},
		QueryRoot: queryRoot,
		Comments:  []string{"comment"},
		Strings:   []string{"string"},
		Idents:    []string{"identifier"},
		Data:      data,
		Builtins:  builtins,
		Defs:      defs,
		Symbol:    symbol,
		Import:    imports,
		Module:    func(filePath string, _ *lang.Tree, _ string) string { return moduleName(filePath) },
		Finish:    finish,
		Resolver:  lang.Resolvers{Ref: resolve, Import: resolveImport},
		SkelRules: skeleton,
	})
}

// Where a statement is: what it defines depends on it.
const (
	moduleLevel = iota
	classLevel
	funcLevel
)

// scope maps local names to what is known of their values, chained to
// the scopes of the enclosing functions and the module. A name known with
// an empty type is a local of unknown type: it hides outer names. A name
// holds a type or a call's result, never both.
type scope struct{ lang.Scope }

func newScope(outer *scope, fn bool) *scope {
	s := &scope{Scope: lang.Scope{Func: fn}}
	if outer != nil {
		s.Parent = &outer.Scope
	}
	return s
}

// callInfo is the call whose result a name holds: fn as written, and the
// type of fn's qualifier head when known (x = self.make()).
type callInfo struct{ fn, headType string }

func (s *scope) lookup(name string) (string, callInfo) {
	typ, fn, head, _ := s.Scope.Lookup(name)
	if fn == "" {
		return typ, callInfo{}
	}
	return "", callInfo{fn: fn, headType: head}
}

func (s *scope) setCall(name string, c callInfo) { s.Scope.SetCall(name, c.fn, c.headType) }

// set records what an assignment tells of name.
func (s *scope) set(name, typ string, c callInfo) {
	if typ == "" && c.fn != "" {
		s.setCall(name, c)
		return
	}
	s.SetType(name, typ)
}

// state is where the walker is: the symbol that owns the references and
// definitions met there, and what self means.
type state struct {
	owner     int
	level     int
	scope     *scope
	cls       int    // the class whose body this is, at class level
	selfClass string // qualified class of the enclosing method, for super()
	initOf    int    // the class whose fields self.x = ... defines, or -1
	selfName  string // the method's first parameter, when initOf >= 0
	clsParam  string // a classmethod's first parameter: cls(...) builds the class
}

// at is c with what is met there owned by symbol sym.
func (c *state) at(sym int) *state {
	cp := *c
	cp.owner = sym
	return &cp
}

// walker is the state of one Python file's extraction.
type walker struct {
	x       *lang.Extractor
	t       *lang.Tree
	fields  map[int][]lang.Param
	defined map[made]int // (parent symbol, name) -> symbol, so a reassignment is not a new variable
	made    map[made]int
	all     map[string]bool
	allBad  bool           // __all__ is not a plain list of strings
	covered map[int32]bool // raise statements already reported by a guard
}

// made is a definition the query made a symbol of: its node and name (the
// names of "a, b = f()" share their statement); or, in defined, a name
// and the symbol it is defined in.
type made struct {
	node int32
	name string
}

// finish walks the file's code, which finds the symbols the query made
// of the definitions it meets.
func finish(x *lang.Extractor) {
	p := &walker{x: x, t: x.Tree, fields: map[int][]lang.Param{}, defined: map[made]int{}, made: map[made]int{}}
	for i, n := range x.SymNode[1:] {
		p.made[made{n, x.Facts.Symbols[i+1].Name}] = i + 1
	}
	if x.Facts.Module != "" {
		x.Facts.Symbols[0].Name = x.Facts.Module
	}
	x.Facts.Symbols[0].Doc = docstring(x.Tree, 0)
	scope := newScope(nil, false)
	p.prescan(0, scope)
	p.children(0, &state{owner: 0, level: moduleLevel, scope: scope, cls: -1, initOf: -1})
	p.finishSymbols()
}

// symOf is the symbol the query made of the definition at node named
// name, as the walk meets it; owner when none (an empty name).
func (p *walker) symOf(node int32, name string, owner int) int {
	if sym, ok := p.made[made{node, name}]; ok {
		return sym
	}
	return owner
}

// met is the symbol of function or class n (decorated by dec, -1 when
// not), its name defined in c's scope; ok is false for one without a
// name, walked as plain code.
func (p *walker) met(n, dec int32, c *state) (sym int, name string, ok bool) {
	nameN := p.t.Field(n, "name")
	if nameN < 0 {
		p.children(n, c)
		return 0, "", false
	}
	node := n
	if dec >= 0 {
		node = dec
	}
	name = p.t.Text(nameN)
	sym = p.symOf(node, name, c.owner)
	p.defined[made{int32(c.owner), name}] = sym
	return sym, name, true
}

// moduleName is the dotted module of a file: pkg/sub/mod.py ->
// "pkg.sub.mod", pkg/__init__.py -> "pkg".
func moduleName(p string) string {
	p = strings.TrimSuffix(p, path.Ext(p))
	segs := strings.Split(p, "/")
	if segs[len(segs)-1] == "__init__" {
		segs = segs[:len(segs)-1]
	}
	return strings.Join(segs, ".")
}

// visibility is the convention: __x private, _x protected, dunders and
// everything else public.
func visibility(name string) string {
	switch {
	case len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__"):
		return lang.VisPublic
	case strings.HasPrefix(name, "__"):
		return lang.VisPrivate
	case strings.HasPrefix(name, "_"):
		return lang.VisProtected
	}
	return lang.VisPublic
}

// capWords reports whether a name is written like a class: Foo, HTTPServer
// (not FOO, which is a constant).
func capWords(name string) bool {
	return lang.IsUpper(name) && (len(name) == 1 || strings.ContainsAny(name[1:], "abcdefghijklmnopqrstuvwxyz"))
}

// finishSymbols applies what is known only after the whole file: __all__
// and the exported flags that depend on the containers.
func (p *walker) finishSymbols() {
	syms := p.x.Facts.Symbols
	for i := 1; i < len(syms); i++ {
		s := &syms[i]
		switch {
		case s.Parent == 0:
			if p.all != nil && !p.allBad {
				s.Exported = p.all[s.Name]
			} else {
				s.Exported = s.Visibility == lang.VisPublic
			}
		case s.Parent > 0 && s.Parent < i && lang.IsTypeKind(syms[s.Parent].Kind):
			s.Exported = s.Visibility == lang.VisPublic && syms[s.Parent].Exported
		default:
			s.Exported = false
		}
	}
	for cls, fs := range p.fields {
		syms[cls].Signature.Fields = fs
	}
}

// prescan learns the types of module-level variables before the walk, so
// that functions defined above an assignment still see its type.
func (p *walker) prescan(root int32, scope *scope) {
	t := p.t
	for st := range t.NamedChildren(root) {
		if t.Kind(st) != "expression_statement" {
			continue
		}
		a := t.FirstNamedChild(st)
		if a < 0 || t.Kind(a) != "assignment" {
			continue
		}
		left, right := t.Field(a, "left"), t.Field(a, "right")
		if left < 0 || t.Kind(left) != "identifier" {
			continue
		}
		typ, call := "", callInfo{}
		if ty := t.Field(a, "type"); ty >= 0 {
			typ, _ = text(t, ty, maxTypeText)
		} else if right >= 0 {
			typ, call = p.valueType(right, &state{scope: scope, cls: -1, initOf: -1})
		}
		if typ != "" || call.fn != "" {
			scope.set(t.Text(left), typ, call)
		}
	}
}

// Limits on the texts taken from the source: a generated file can hold a
// chain of thousands of calls, and every call in it is a reference.
const (
	maxTypeText  = 200
	maxQualifier = 120
)

// text is node n's source on one line, at most max bytes; cut reports
// that it was longer. A long node is not copied whole.
func text(t *lang.Tree, n int32, max int) (string, bool) {
	start, end := t.Nodes[n].StartByte, t.Nodes[n].EndByte
	long := int(end-start) > 4*max+16
	if long {
		end = start + uint32(4*max+16)
		for end > start && !utf8.RuneStart(t.Src[end]) {
			end--
		}
	}
	s := lang.OneLine(string(t.Src[start:end]))
	if long && len(s) <= max {
		s += "..."
	}
	if long || len(s) > max {
		return lang.Shorten(s, max), true
	}
	return s, false
}

// fieldText is the text of node n's field, as text gives it.
func fieldText(t *lang.Tree, n int32, field string, max int) string {
	if f := t.Field(n, field); f >= 0 {
		s, _ := text(t, f, max)
		return s
	}
	return ""
}

// node walks code: definitions become symbols, calls become references.
// top is true for the statements of a function's own body, where an early
// exit is a guard.
func (p *walker) node(n int32, c *state, top bool) {
	t := p.t
	switch t.Kind(n) {
	case "decorated_definition":
		def := t.Field(n, "definition")
		switch {
		case def < 0:
			p.children(n, c)
		case t.Kind(def) == "class_definition":
			p.class(def, n, c)
		default:
			p.function(def, n, c)
		}
		return
	case "function_definition":
		p.function(n, -1, c)
		return
	case "class_definition":
		p.class(n, -1, c)
		return
	case "expression_statement":
		for ch := range p.t.NamedChildren(n) {
			switch t.Kind(ch) {
			case "assignment":
				p.assign(ch, n, c)
			case "augmented_assignment":
				p.augAssign(ch, c)
			default:
				p.node(ch, c, false)
			}
		}
		return
	case "assignment":
		p.assign(n, n, c)
		return
	case "augmented_assignment":
		p.augAssign(n, c)
		return
	case "call":
		p.call(n, c)
		return
	case "raise_statement":
		p.raise(n, c)
	case "assert_statement":
		if top && c.level == funcLevel {
			p.assert(n, c)
		}
	case "if_statement":
		if top && c.level == funcLevel {
			p.guardIf(n, c)
		}
		if c.level == funcLevel && p.narrowed(n, c) {
			return
		}
	case "for_statement", "for_in_clause":
		if c.level == funcLevel {
			// what one element is, read before the loop rebinds a name
			left, right := t.Field(n, "left"), t.Field(n, "right")
			typs, calls := p.loopTypes(left, right, c)
			p.forget(left, c)
			p.bindLoop(left, typs, calls, c)
		}
	case "as_pattern":
		p.asPattern(n, c)
		return
	case "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension":
		if c.level == funcLevel {
			p.comprehension(n, c)
			return
		}
	case "named_expression":
		if c.level == funcLevel {
			if name := t.Field(n, "name"); name >= 0 {
				if v := t.Field(n, "value"); v >= 0 {
					typ, call := p.valueType(v, c)
					c.scope.set(t.Text(name), typ, call)
				}
			}
		}
	case "identifier", "integer", "float", "true", "false", "none", "comment", "string_start", "string_content",
		"string_end", "escape_sequence", "pass_statement", "break_statement", "continue_statement", "ellipsis":
		return
	}
	p.children(n, c)
}

func (p *walker) children(n int32, c *state) {
	for ch := range p.t.NamedChildren(n) {
		p.node(ch, c, false)
	}
}

// docstring returns the docstring of a module (n = 0) or of a block.
func docstring(t *lang.Tree, body int32) string {
	if body < 0 {
		return ""
	}
	first := t.FirstNamedChild(body)
	if first < 0 || t.Kind(first) != "expression_statement" {
		return ""
	}
	s := t.FirstNamedChild(first)
	if s < 0 || t.NextSibling(s) >= 0 {
		return ""
	}
	switch t.Kind(s) {
	case "string":
		return cleanDoc(stringValue(t, s))
	case "concatenated_string":
		var b strings.Builder
		for part := range t.NamedChildren(s) {
			if t.Kind(part) == "string" {
				b.WriteString(stringValue(t, part))
			}
		}
		return cleanDoc(b.String())
	}
	return ""
}

// stringValue is the text between a string's quotes, escapes left as
// written.
func stringValue(t *lang.Tree, s int32) string {
	start, end := t.Nodes[s].StartByte, t.Nodes[s].EndByte
	for ch := range t.Children(s) {
		switch t.Kind(ch) {
		case "string_start":
			start = t.Nodes[ch].EndByte
		case "string_end":
			end = t.Nodes[ch].StartByte
		}
	}
	if end < start {
		return ""
	}
	return string(t.Src[start:end])
}

// cleanDoc dedents a docstring as inspect.cleandoc does.
func cleanDoc(s string) string {
	if !strings.Contains(s, "\n") {
		return strings.TrimSpace(s)
	}
	lines := strings.Split(strings.ReplaceAll(s, "\t", "        "), "\n")
	indent := -1
	for _, l := range lines[1:] {
		trimmed := strings.TrimLeft(l, " ")
		if trimmed == "" {
			continue
		}
		if d := len(l) - len(trimmed); indent < 0 || d < indent {
			indent = d
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \r")
		if indent > 0 && len(l) >= indent {
			l = l[indent:]
		} else {
			l = strings.TrimLeft(l, " ")
		}
		lines[i] = l
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// decorators returns the decorator expressions of a decorated definition.
func decorators(t *lang.Tree, dec int32) []int32 {
	if dec < 0 {
		return nil
	}
	var out []int32
	for d := range t.NamedChildren(dec) {
		if t.Kind(d) == "decorator" {
			if e := t.FirstNamedChild(d); e >= 0 {
				out = append(out, e)
			}
		}
	}
	return out
}

// decoratorName is a decorator as a modifier: "@app.route('/')" ->
// "app.route".
func decoratorName(t *lang.Tree, e int32) string {
	if t.Kind(e) == "call" {
		if fn := t.Field(e, "function"); fn >= 0 {
			e = fn
		}
	}
	d, _ := text(t, e, 120)
	return d
}

// decoratorRefs records the calls a definition's decorators make.
func (p *walker) decoratorRefs(decs []int32, sym int, c *state) {
	t := p.t
	dc := c.at(sym)
	for _, e := range decs {
		switch t.Kind(e) {
		case "identifier":
			p.x.Ref(lang.Ref{Kind: lang.RefCall, Name: t.Text(e), Symbol: sym}, e)
		case "attribute":
			// @x.setter and friends re-decorate a property: no call of note
			switch t.FieldText(e, "attribute") {
			case "setter", "getter", "deleter":
				continue
			}
			p.attrRef(e, dc, e)
		default:
			p.node(e, dc, false)
		}
	}
}

func (p *walker) function(n, dec int32, c *state) {
	t, x := p.t, p.x
	sym, name, ok := p.met(n, dec, c)
	if !ok {
		return
	}
	body := t.Field(n, "body")
	inClass := c.level == classLevel
	if inClass && sym != c.owner && strings.HasPrefix(name, "test") && x.Facts.Symbols[c.owner].IsTest {
		x.Facts.Symbols[sym].IsTest = true // a test class's test method
	}
	sig := x.Facts.Symbols[sym].Signature // the query's symbol read the parameters and decorators
	decorated := func(d string) bool {
		return slices.ContainsFunc(sig.Modifiers, func(m string) bool { return lang.LastIdent(m) == d })
	}
	static, classMethod := decorated("staticmethod"), decorated("classmethod")
	ps := sig.Params
	if sym == c.owner {
		ps = params(t, t.Field(n, "parameters"))
	}
	// the annotated parameters are typed, the others hide outer names
	scope := newScope(c.scope, true)
	for _, prm := range ps {
		typ := prm.Type
		if prm.Variadic {
			typ = "" // a tuple or dict of them
		}
		if name := strings.TrimLeft(prm.Name, "*/"); name != "" {
			scope.SetType(name, typ)
		}
	}

	fc := &state{owner: sym, level: funcLevel, scope: scope, cls: -1, initOf: -1}
	if inClass && !static && len(ps) > 0 && !strings.HasPrefix(ps[0].Name, "*") {
		first := ps[0].Name
		qual := x.Facts.Symbols[c.cls].Qualified()
		scope.SetType(first, qual)
		fc.selfClass = qual
		if classMethod {
			fc.clsParam = first
		}
		switch name {
		case "__init__", "__post_init__", "setUp", "setup_method":
			fc.initOf, fc.selfName = c.cls, first
		}
	} else if c.level == funcLevel {
		fc.selfClass = c.selfClass
	}
	// default values run when the function is defined; they are part of it
	if params := t.Field(n, "parameters"); params >= 0 {
		dc := c.at(sym)
		for prm := range t.NamedChildren(params) {
			if v := t.Field(prm, "value"); v >= 0 {
				p.node(v, dc, false)
			}
		}
	}
	p.block(n, body, fc, true)
	// last, so that a summary lists what the body calls first
	p.decoratorRefs(decorators(t, dec), sym, c)
}

// params reads a parameter list: names, annotations, defaults.

func params(t *lang.Tree, list int32) []lang.Param {
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for n := range t.NamedChildren(list) {
		var prm lang.Param
		switch t.Kind(n) {
		case "identifier":
			prm.Name = t.Text(n)
		case "typed_parameter":
			prm.Type = fieldText(t, n, "type", maxTypeText)
			if id := t.FirstNamedChild(n); id >= 0 {
				switch t.Kind(id) {
				case "identifier":
					prm.Name = t.Text(id)
				case "list_splat_pattern":
					prm.Name, prm.Variadic = "*"+splatName(t, id), true
				case "dictionary_splat_pattern":
					prm.Name, prm.Variadic = "**"+splatName(t, id), true
				}
			}
		case "default_parameter", "typed_default_parameter":
			prm.Name = t.FieldText(n, "name")
			prm.Type = fieldText(t, n, "type", maxTypeText)
			prm.Default = fieldText(t, n, "value", 60)
			prm.Optional = true
		case "list_splat_pattern":
			prm.Name, prm.Variadic = "*"+splatName(t, n), true
		case "dictionary_splat_pattern":
			prm.Name, prm.Variadic = "**"+splatName(t, n), true
		case "keyword_separator":
			prm.Name = "*"
		case "positional_separator":
			prm.Name = "/"
		default:
			continue
		}
		out = append(out, prm)
	}
	return out
}

func splatName(t *lang.Tree, n int32) string {
	if id := t.FirstNamedChild(n); id >= 0 {
		return t.Text(id)
	}
	return ""
}

func typeParams(t *lang.Tree, n int32) []string {
	if n < 0 {
		return nil
	}
	var out []string
	for c := range t.NamedChildren(n) {
		s, _ := text(t, c, 120)
		out = append(out, s)
	}
	return out
}

func (p *walker) class(n, dec int32, c *state) {
	t := p.t
	sym, _, ok := p.met(n, dec, c)
	if !ok {
		return
	}
	body := t.Field(n, "body")
	bc := c.at(sym)
	if supers := t.Field(n, "superclasses"); supers >= 0 {
		for a := range t.NamedChildren(supers) {
			switch t.Kind(a) {
			case "keyword_argument": // metaclass=M
				if v := t.Field(a, "value"); v >= 0 {
					p.node(v, bc, false)
				}
			case "list_splat", "dictionary_splat", "comment":
			default:
				p.baseRef(a, bc, a)
			}
		}
	}
	p.decoratorRefs(decorators(t, dec), sym, c)
	if body >= 0 {
		cc := &state{owner: sym, level: classLevel, scope: c.scope, cls: sym, initOf: -1}
		p.block(n, body, cc, false)
	}
}

// block walks the body of definition n, top saying whether its statements
// are a function's own, then what the parser could not place beside it.
func (p *walker) block(n, body int32, c *state, top bool) {
	if body >= 0 {
		for st := range p.t.NamedChildren(body) {
			p.node(st, c, top)
		}
	}
	for ch := range p.t.NamedChildren(n) {
		if p.t.IsError(ch) {
			p.node(ch, c, false)
		}
	}
}

// baseRef records a class's base: Base, mod.Base, Generic[T].
func (p *walker) baseRef(b int32, c *state, at int32) {
	t := p.t
	switch t.Kind(b) {
	case "identifier":
		p.x.Ref(lang.Ref{Kind: lang.RefExtends, Name: t.Text(b), Symbol: c.owner}, at)
	case "attribute":
		obj := t.Field(b, "object")
		if obj >= 0 && isDotted(t, obj) {
			q, _ := text(t, obj, maxQualifier)
			p.x.Ref(lang.Ref{Kind: lang.RefExtends, Name: t.FieldText(b, "attribute"), Qualifier: q, Symbol: c.owner}, at)
			return
		}
		p.node(b, c, false)
	case "subscript":
		if v := t.Field(b, "value"); v >= 0 {
			p.baseRef(v, c, at)
		}
		if s := t.Field(b, "subscript"); s >= 0 {
			p.node(s, c, false)
		}
	default:
		p.node(b, c, false)
	}
}

// isDotted reports whether n is a plain name or a chain of attributes
// over one.
func isDotted(t *lang.Tree, n int32) bool {
	for {
		switch t.Kind(n) {
		case "identifier":
			return true
		case "attribute":
			n = t.Field(n, "object")
			if n < 0 {
				return false
			}
		default:
			return false
		}
	}
}

// assign handles x = v, x: T = v, a = b = v and self.x = v. stmt is the
// statement that holds it, the range of a variable it defines.
func (p *walker) assign(n, stmt int32, c *state) {
	t := p.t
	targets, typN, val := chain(t, n)
	annot := ""
	if typN >= 0 {
		annot, _ = text(t, typN, maxTypeText)
	}
	vtype, vcall := "", callInfo{}
	if val >= 0 {
		vtype, vcall = p.valueType(val, c)
	}
	owner := c.owner
	if c.level != funcLevel {
		first := -1
		for _, b := range binds(t, targets, val) {
			tg, val := b[0], b[1]
			vtype, vcall := vtype, vcall
			if val != b[2] { // an element of a, b = x, y
				vtype, vcall = "", callInfo{}
				if val >= 0 {
					vtype, vcall = p.valueType(val, c)
				}
			}
			name := t.Text(tg)
			if c.level == moduleLevel && name == "__all__" {
				p.collectAll(val)
			}
			ret := annot
			if ret == "" && (capWords(lang.LastIdent(vtype)) || strings.HasPrefix(vtype, "type[")) {
				ret = vtype
			}
			sym := p.variable(name, stmt, ret, c)
			if first < 0 {
				first = sym
			}
			if c.level == classLevel {
				p.addField(c.cls, name, fieldType(annot, vtype, vcall))
			} else {
				c.scope.set(name, cmp.Or(annot, vtype), vcall)
			}
		}
		if first >= 0 {
			owner = first
		}
	}
	if val >= 0 {
		p.node(val, c.at(owner), false)
	}
	for _, tg := range targets {
		if tg < 0 {
			continue
		}
		switch t.Kind(tg) {
		case "identifier":
			if c.level == funcLevel {
				c.scope.set(t.Text(tg), cmp.Or(annot, vtype), vcall)
			}
		case "attribute":
			obj := t.Field(tg, "object")
			if c.initOf >= 0 && obj >= 0 && t.Kind(obj) == "identifier" && t.Text(obj) == c.selfName {
				p.addField(c.initOf, t.FieldText(tg, "attribute"), fieldType(annot, vtype, vcall))
			}
			p.node(tg, c, false)
		case "pattern_list", "tuple_pattern", "list_pattern":
			p.forget(tg, c)
			if c.level == funcLevel && len(targets) == 1 {
				p.unpack(tg, val, c)
			}
			p.node(tg, c, false)
		default:
			p.node(tg, c, false)
		}
	}
}

// chain reads x = v, x: T = v and a = b = v: the targets, the first
// annotation (-1 when none) and the value.
func chain(t *lang.Tree, n int32) (targets []int32, typN, val int32) {
	targets, typN, val = []int32{t.Field(n, "left")}, t.Field(n, "type"), t.Field(n, "right")
	for val >= 0 && t.Kind(val) == "assignment" {
		targets = append(targets, t.Field(val, "left"))
		if typN < 0 {
			typN = t.Field(val, "type")
		}
		val = t.Field(val, "right")
	}
	return targets, typN, val
}

// binds pairs each name an assignment defines with its value: x = v
// gives (x, v); a, b = v1, v2 gives (a, v1) and (b, v2), and a, b = f()
// both names with no value (-1), so that module and class names bound by unpacking
// (celery's "debug, info, error = logger.debug, logger.info, ...") are
// symbols as well. The third entry is the whole value.
func binds(t *lang.Tree, targets []int32, val int32) [][3]int32 {
	var out [][3]int32
	var walk func(tg, v int32)
	walk = func(tg, v int32) {
		if tg < 0 {
			return
		}
		switch t.Kind(tg) {
		case "identifier":
			out = append(out, [3]int32{tg, v, val})
		case "pattern_list", "tuple_pattern", "list_pattern":
			var elems []int32
			if v >= 0 {
				switch t.Kind(v) {
				case "expression_list", "tuple", "list":
					elems = slices.Collect(t.NamedChildren(v))
				}
			}
			names := slices.Collect(t.NamedChildren(tg))
			for i, ch := range names {
				ev := int32(-1) // an element of f(): its value is not in sight
				if len(elems) == len(names) {
					ev = elems[i]
				}
				if t.Kind(ch) == "list_splat_pattern" {
					ch, ev = t.FirstNamedChild(ch), -1
				}
				walk(ch, ev)
			}
		}
	}
	for _, tg := range targets {
		walk(tg, val)
	}
	return out
}

// fieldType is a field's type: its annotation, else what its value tells: the class
// instantiated, a builtin type, or "f()" for the result of calling f.
func fieldType(annot, typ string, call callInfo) string {
	if annot != "" || typ != "" || call.fn == "" {
		return cmp.Or(annot, typ)
	}
	if strings.ContainsAny(call.fn, "([") {
		return ""
	}
	return call.fn + "()"
}

// unpack types the names of a, b = f() as the elements of what f
// returns: "f()[0]", "f()[1]".
func (p *walker) unpack(tg, val int32, c *state) {
	t := p.t
	for val >= 0 && t.Kind(val) == "await" {
		val = t.FirstNamedChild(val)
	}
	if val < 0 || t.Kind(val) != "call" {
		return
	}
	_, call := p.valueType(val, c)
	if call.fn == "" || strings.ContainsAny(call.fn, "([") {
		return
	}
	i := 0
	for ch := range p.t.NamedChildren(tg) {
		switch t.Kind(ch) {
		case "identifier":
			c.scope.setCall(t.Text(ch), callInfo{fn: call.fn + "()[" + strconv.Itoa(i) + "]", headType: call.headType})
		case "list_splat_pattern":
			return // later positions count from the end
		}
		i++
	}
}

// loopTypes is what the names of for x in e (one target) or for a, b in
// e (a pattern) are: from e's annotation as written (lines:
// list[Line]), from the call that made e (lines = self.render(): an
// element of what render returns, "self.render()[*]"), or self.x (a
// field whose annotation the resolver reads, "self.x[*]"); for
// enumerate(e), d.items(), d.keys() and d.values() the pairs they yield.
// typs and calls have one entry per name of a pattern, one for a name.
func (p *walker) loopTypes(left, right int32, c *state) (typs []string, calls []callInfo) {
	t := p.t
	if left < 0 || right < 0 {
		return nil, nil
	}
	names := 1
	switch t.Kind(left) {
	case "identifier":
	case "pattern_list", "tuple_pattern":
		names = int(t.NamedChildCount(left))
	default:
		return nil, nil
	}
	if names == 2 && t.Kind(right) == "call" {
		fn, args := t.Field(right, "function"), t.Field(right, "arguments")
		switch {
		case fn >= 0 && t.Kind(fn) == "identifier" && t.Text(fn) == "enumerate" && args >= 0:
			if e := t.FirstNamedChild(args); e >= 0 && t.Kind(e) != "keyword_argument" {
				typ, call := p.elemOf(e, c)
				return []string{"int", typ}, []callInfo{{}, call}
			}
			return nil, nil
		case fn >= 0 && t.Kind(fn) == "attribute" && t.FieldText(fn, "attribute") == "items":
			obj := t.Field(fn, "object")
			if k, v := dictArgs(p.exprType(obj, c)); k != "" || v != "" {
				return []string{k, v}, make([]callInfo, 2)
			}
			if f := p.selfField(obj, c); f != "" {
				return []string{f + "[*]", f + "[*v]"}, make([]callInfo, 2)
			}
			return nil, nil
		}
	}
	typ, call := p.elemOf(right, c)
	if names == 1 {
		return []string{typ}, []callInfo{call}
	}
	// for a, b in pairs: pairs: list[tuple[A, B]]
	for i := 0; i < names; i++ {
		typs = append(typs, tupleItem(typ, i))
	}
	return typs, make([]callInfo, names)
}

// elemOf is what iterating e yields: a type as written, or the call
// (with the "[*]" of an element) whose result holds it.
func (p *walker) elemOf(e int32, c *state) (string, callInfo) {
	t := p.t
	switch t.Kind(e) {
	case "identifier":
		typ, call := c.scope.lookup(t.Text(e))
		if typ != "" {
			return elemType(typ), callInfo{}
		}
		if call.fn != "" && !strings.ContainsAny(call.fn, "([") {
			return "", callInfo{fn: call.fn + "()[*]", headType: call.headType}
		}
	case "attribute":
		if f := p.selfField(e, c); f != "" {
			return f + "[*]", callInfo{}
		}
	case "call":
		fn, args := t.Field(e, "function"), t.Field(e, "arguments")
		if fn < 0 {
			break
		}
		if t.Kind(fn) == "identifier" && passThrough[t.Text(fn)] {
			// sorted(xs), reversed(xs), list(xs): the elements of xs
			if args >= 0 && t.NamedChildCount(args) >= 1 {
				if a := t.FirstNamedChild(args); t.Kind(a) != "keyword_argument" {
					return p.elemOf(a, c)
				}
			}
			break
		}
		if t.Kind(fn) == "attribute" {
			switch t.FieldText(fn, "attribute") {
			case "keys", "values":
				obj, keys := t.Field(fn, "object"), t.FieldText(fn, "attribute") == "keys"
				if k, v := dictArgs(p.exprType(obj, c)); k != "" || v != "" {
					if keys {
						return k, callInfo{}
					}
					return v, callInfo{}
				}
				if f := p.selfField(obj, c); f != "" {
					if keys {
						return f + "[*]", callInfo{}
					}
					return f + "[*v]", callInfo{}
				}
			}
		}
		typ, call := p.valueType(e, c)
		if typ == "" && call.fn != "" && !strings.ContainsAny(call.fn, "([") {
			return "", callInfo{fn: call.fn + "()[*]", headType: call.headType}
		}
	}
	return "", callInfo{}
}

// selfField is "self.x" for e = self.x in a method (whatever the first
// parameter is called), the field whose annotation the resolver reads; ""
// for others.
func (p *walker) selfField(e int32, c *state) string {
	t := p.t
	if e < 0 || t.Kind(e) != "attribute" || c.selfClass == "" {
		return ""
	}
	obj := t.Field(e, "object")
	if obj < 0 || t.Kind(obj) != "identifier" || t.Text(obj) == c.clsParam {
		return ""
	}
	if typ, _ := c.scope.lookup(t.Text(obj)); typ != c.selfClass {
		return ""
	}
	return "self." + t.FieldText(e, "attribute")
}

// exprType is the type as written of a name, "" for anything else.
func (p *walker) exprType(e int32, c *state) string {
	if e < 0 || p.t.Kind(e) != "identifier" {
		return ""
	}
	typ, _ := c.scope.lookup(p.t.Text(e))
	return typ
}

// passThrough are the builtins whose result iterates as their first
// argument does.
var passThrough = map[string]bool{"sorted": true, "reversed": true, "list": true, "tuple": true, "set": true,
	"frozenset": true, "iter": true}

// bindLoop types the names a loop binds with what loopTypes found.
func (p *walker) bindLoop(left int32, typs []string, calls []callInfo, c *state) {
	t := p.t
	if left < 0 || len(typs) == 0 {
		return
	}
	if t.Kind(left) == "identifier" {
		c.scope.set(t.Text(left), typs[0], calls[0])
		return
	}
	i := 0
	for ch := range t.NamedChildren(left) {
		if i < len(typs) && t.Kind(ch) == "identifier" {
			c.scope.set(t.Text(ch), typs[i], calls[i])
		}
		i++
	}
}

// save returns what restores the names of the innermost scope as they are
// now, declared or not.
func (s *scope) save(names []string) (restore func()) {
	type was struct {
		typ, call, head string
		known           bool
	}
	old := make([]was, len(names))
	for i, n := range names {
		typ, known := s.Types[n]
		old[i] = was{typ, s.Calls[n], s.Heads[n], known}
	}
	return func() {
		for i, n := range names {
			if old[i].known {
				s.Set(n, old[i].typ, old[i].call, old[i].head)
				continue
			}
			delete(s.Types, n)
			delete(s.Calls, n)
			delete(s.Heads, n)
		}
	}
}

// comprehension walks [f(x) for x in xs if x]: its clauses first, whose
// names the body then sees typed, and ends their scope: after it, they are
// what they were.
func (p *walker) comprehension(n int32, c *state) {
	t := p.t
	body := t.Field(n, "body")
	var names []string
	for ch := range t.NamedChildren(n) {
		if t.Kind(ch) == "for_in_clause" {
			names = p.boundNames(t.Field(ch, "left"), names)
		}
	}
	back := c.scope.save(names)
	for ch := range t.NamedChildren(n) {
		if ch != body {
			p.node(ch, c, false)
		}
	}
	if body >= 0 {
		p.node(body, c, false)
	}
	back()
}

// boundNames appends the names a loop target binds.
func (p *walker) boundNames(tg int32, names []string) []string {
	t := p.t
	if tg < 0 {
		return names
	}
	if t.Kind(tg) == "identifier" {
		return append(names, t.Text(tg))
	}
	switch t.Kind(tg) {
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "list_splat_pattern", "parenthesized_expression":
		for ch := range t.NamedChildren(tg) {
			names = p.boundNames(ch, names)
		}
	}
	return names
}

// narrowed walks if isinstance(x, Foo): ... with x a Foo in the body
// (the branch's own name for it; after the if, x is what it was), and
// reports whether the condition was one. A tuple of classes narrows
// nothing.
func (p *walker) narrowed(n int32, c *state) bool {
	t := p.t
	cond, cons := t.Field(n, "condition"), t.Field(n, "consequence")
	if cond < 0 || cons < 0 || t.Kind(cond) != "call" || t.FieldText(cond, "function") != "isinstance" {
		return false
	}
	args := t.Field(cond, "arguments")
	if args < 0 {
		return false
	}
	as := slices.Collect(t.NamedChildren(args))
	if len(as) != 2 {
		return false
	}
	v, cls := as[0], as[1]
	if t.Kind(v) != "identifier" || !isDotted(t, cls) {
		return false
	}
	typ, cut := text(t, cls, maxTypeText)
	if cut || !capWords(lang.LastIdent(typ)) {
		return false
	}
	name := t.Text(v)
	p.node(cond, c, false)
	back := c.scope.save([]string{name})
	c.scope.SetType(name, typ)
	p.node(cons, c, false)
	back()
	for ch := range t.NamedChildren(n) {
		if ch != cond && ch != cons {
			p.node(ch, c, false)
		}
	}
	return true
}

// forget marks the names a target binds as locals of unknown type.
func (p *walker) forget(tg int32, c *state) {
	t := p.t
	if tg < 0 || c.level != funcLevel {
		return
	}
	if t.Kind(tg) == "identifier" {
		c.scope.SetType(t.Text(tg), "")
		return
	}
	switch t.Kind(tg) {
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "list_splat_pattern", "parenthesized_expression":
		for ch := range t.NamedChildren(tg) {
			p.forget(ch, c)
		}
	}
}

func (p *walker) augAssign(n int32, c *state) {
	t := p.t
	left, right := t.Field(n, "left"), t.Field(n, "right")
	if c.level == moduleLevel && left >= 0 && t.Text(left) == "__all__" && p.all != nil {
		p.collectAll(right)
	}
	if right >= 0 {
		p.node(right, c, false)
	}
	if left >= 0 {
		p.node(left, c, false)
	}
}

// collectAll reads __all__ = [...] or ("a", "b"), += included.
func (p *walker) collectAll(val int32) {
	t := p.t
	if p.all == nil {
		p.all = map[string]bool{}
	}
	if val < 0 {
		p.allBad = true
		return
	}
	switch t.Kind(val) {
	case "list", "tuple", "set":
	default:
		p.allBad = true
		return
	}
	for e := range t.NamedChildren(val) {
		if t.Kind(e) != "string" || t.ChildOfKind(e, "interpolation") >= 0 {
			p.allBad = true
			continue
		}
		p.all[stringValue(t, e)] = true
	}
}

// variable is the symbol of a module- or class-level variable, the one the
// query made of its first assignment in its scope, typed typ there.
func (p *walker) variable(name string, stmt int32, typ string, c *state) int {
	key := made{int32(c.owner), name}
	if sym, ok := p.defined[key]; ok {
		return sym
	}
	sym := p.symOf(stmt, name, c.owner)
	if sym != c.owner {
		p.x.Facts.Symbols[sym].Signature.Returns = typ
	}
	p.defined[key] = sym
	return sym
}

func (p *walker) addField(cls int, name, typ string) {
	if cls < 0 || name == "" {
		return
	}
	fs := p.fields[cls]
	for i := range fs {
		if fs[i].Name == name {
			if fs[i].Type == "" {
				fs[i].Type = typ
			}
			return
		}
	}
	p.fields[cls] = append(fs, lang.Param{Name: name, Type: typ})
}

// valueType is what an assigned value tells of the name's type: a class
// (Foo(...), a literal's builtin type) or the call whose result it is.
func (p *walker) valueType(v int32, c *state) (string, callInfo) {
	t := p.t
	switch t.Kind(v) {
	case "call":
		fn := t.Field(v, "function")
		if fn < 0 {
			return "", callInfo{}
		}
		if !isDotted(t, fn) {
			// f()(), a.b().c(): the result of the last call
			if t.Kind(fn) == "attribute" {
				ht, headCall := p.qualifierInfo(fn, c)
				if fnText, cut := text(t, fn, maxTypeText); headCall != "" && !cut {
					return "", callInfo{fn: fnText, headType: ht}
				}
			}
			return "", callInfo{}
		}
		name, cut := text(t, fn, maxTypeText)
		if cut {
			return "", callInfo{}
		}
		last := lang.LastIdent(name)
		switch {
		case c.clsParam != "" && name == c.clsParam:
			return c.selfClass, callInfo{}
		case capWords(last):
			return name, callInfo{}
		case name == last && builtinTypes.Has(name):
			return name, callInfo{}
		}
		head := name
		if i := strings.IndexByte(head, '.'); i >= 0 {
			head = head[:i]
		} else {
			return "", callInfo{fn: name}
		}
		ht, _ := c.scope.lookup(head)
		return "", callInfo{fn: name, headType: ht}
	case "await", "parenthesized_expression":
		if in := t.FirstNamedChild(v); in >= 0 {
			return p.valueType(in, c)
		}
	case "boolean_operator":
		// x = given or Default(): the type of the first operand that tells
		for _, f := range []string{"left", "right"} {
			if o := t.Field(v, f); o >= 0 {
				if typ, call := p.valueType(o, c); typ != "" || call.fn != "" {
					return typ, call
				}
			}
		}
	case "conditional_expression":
		// x = given if given is not None else Default(): the type of the
		// first of the two values that tells (not the condition's, nor None)
		i := 0
		for o := range t.NamedChildren(v) {
			if t.Kind(o) == "comment" {
				continue
			}
			if i++; i == 2 || t.Kind(o) == "none" {
				continue
			}
			if typ, call := p.valueType(o, c); typ != "" || call.fn != "" {
				return typ, call
			}
		}
	case "identifier", "attribute":
		if t.Kind(v) == "identifier" && c.scope != nil {
			if typ, call := c.scope.lookup(t.Text(v)); typ != "" || call.fn != "" {
				return typ, call
			}
		}
		// handler_class = Handler: the class itself, called later
		if isDotted(t, v) {
			if name, cut := text(t, v, maxTypeText); !cut && capWords(lang.LastIdent(name)) {
				return "type[" + name + "]", callInfo{}
			}
		}
	default:
		if lt := literalType(t, v); lt != "" {
			return lt, callInfo{}
		}
	}
	return "", callInfo{}
}

// literalType is the builtin type of a literal, or "".
func literalType(t *lang.Tree, v int32) string {
	switch t.Kind(v) {
	case "string", "concatenated_string":
		if s := t.Text(v); len(s) > 0 && (s[0] == 'b' || s[0] == 'B' || len(s) > 1 && (s[1] == 'b' || s[1] == 'B') && s[0] != '"' && s[0] != '\'') {
			return "bytes"
		}
		return "str"
	case "list", "list_comprehension":
		return "list"
	case "dictionary", "dictionary_comprehension":
		return "dict"
	case "set", "set_comprehension":
		return "set"
	case "tuple":
		return "tuple"
	case "integer":
		return "int"
	case "float":
		return "float"
	case "true", "false":
		return "bool"
	}
	return ""
}

// call records a call: f(), obj.m(), Foo() (an instantiation).
func (p *walker) call(n int32, c *state) {
	t := p.t
	fn := t.Field(n, "function")
	if fn >= 0 {
		switch t.Kind(fn) {
		case "identifier":
			name := t.Text(fn)
			r := lang.Ref{Kind: lang.RefCall, Name: name, Symbol: c.owner}
			switch {
			case c.level == funcLevel && name != c.clsParam && c.scope.IsLocal(name):
				// a callback or a value held in a local: nothing to bind by name
				r.Name = ""
			case c.clsParam != "" && name == c.clsParam && c.selfClass != "":
				// cls(...) in a classmethod builds the class
				r.Kind, r.Name = lang.RefNew, c.selfClass
				if i := strings.LastIndexByte(c.selfClass, '.'); i >= 0 {
					r.Name, r.Qualifier = c.selfClass[i+1:], c.selfClass[:i]
				}
			case capWords(name):
				r.Kind = lang.RefNew
			}
			p.x.Ref(r, n)
		case "attribute":
			p.attrRef(fn, c, n)
		default:
			p.node(fn, c, false)
		}
	}
	if args := t.Field(n, "arguments"); args >= 0 {
		p.valueArgs(args, c)
		p.node(args, c, false)
	}
}

// valueArgs records the names passed as arguments that may be functions
// or methods, called later by the callee (Thread(target=self.run),
// map(parse, xs), app.add_url_rule("/", view_func=index)). Extraction
// cannot tell them from variables and attributes: resolution keeps a
// reference only when it binds a function or method (Language.Resolve).
func (p *walker) valueArgs(args int32, c *state) {
	t := p.t
	if t.Kind(args) != "argument_list" {
		return
	}
	for a := range t.NamedChildren(args) {
		if t.Kind(a) == "keyword_argument" {
			a = t.Field(a, "value")
		}
		switch t.Kind(a) {
		case "identifier":
			name := t.Text(a)
			if c.level == funcLevel && c.scope.IsLocal(name) {
				continue // a parameter or local: nothing to bind by name
			}
			p.x.Ref(lang.Ref{Kind: lang.RefReference, Name: name, Symbol: c.owner}, a)
		case "attribute":
			obj, attr := t.Field(a, "object"), t.Field(a, "attribute")
			if obj < 0 || attr < 0 {
				continue
			}
			q, _ := text(t, obj, maxQualifier)
			r := lang.Ref{Kind: lang.RefReference, Name: t.Text(attr), Qualifier: q, Symbol: c.owner}
			r.QualifierType, r.QualifierCall = p.qualifierInfo(obj, c)
			p.x.Ref(r, a)
		}
	}
}

// attrRef records a call of the attribute fn (obj.name) made at node at,
// and walks obj for the calls it makes.
func (p *walker) attrRef(fn int32, c *state, at int32) {
	t := p.t
	obj, attr := t.Field(fn, "object"), t.Field(fn, "attribute")
	if obj < 0 || attr < 0 {
		p.children(fn, c)
		return
	}
	q, _ := text(t, obj, maxQualifier)
	r := lang.Ref{Kind: lang.RefCall, Name: t.Text(attr), Qualifier: q, Symbol: c.owner}
	if capWords(r.Name) {
		r.Kind = lang.RefNew
	}
	r.QualifierType, r.QualifierCall = p.qualifierInfo(obj, c)
	p.x.Ref(r, at)
	p.node(obj, c, false)
}

// qualifierInfo types a call's qualifier: the type of its head name, and
// the last call in it (a.b().c: "a.b"), whose head the type is then of.
func (p *walker) qualifierInfo(obj int32, c *state) (typ, call string) {
	t := p.t
	lastCall := int32(-1)
	n := obj
	for steps := 0; n >= 0; steps++ {
		if steps == 2*lang.MaxChain {
			// a generated chain of thousands of calls: not worth typing.
			// The walk steps through two nodes a call (call, attribute), so
			// this is MaxChain calls, the reach of the other rooms' walks.
			return "", ""
		}
		k := t.Kind(n)
		if k == "attribute" {
			n = t.Field(n, "object")
		} else if k == "call" {
			if lastCall < 0 {
				lastCall = n
			}
			n = t.Field(n, "function")
		} else if k == "subscript" {
			n = t.Field(n, "value")
		} else {
			break
		}
	}
	if n < 0 {
		return "", ""
	}
	if lastCall >= 0 {
		fn := t.Field(lastCall, "function")
		if fn >= 0 && t.Kind(fn) == "identifier" && t.Text(fn) == "super" {
			return c.selfClass, ""
		}
		if fn >= 0 {
			if text, cut := text(t, fn, maxTypeText); !cut {
				call = text
			}
		}
	}
	if t.Kind(n) == "identifier" {
		head := t.Text(n)
		ht, hc := c.scope.lookup(head)
		if ht == "" && hc.fn != "" {
			if lastCall < 0 {
				return hc.headType, hc.fn
			}
			// x = f(); x.g().h(): the call is f().g
			if strings.HasPrefix(call, head) && !strings.ContainsAny(hc.fn, "([") {
				return hc.headType, hc.fn + "()" + call[len(head):]
			}
		}
		return ht, call
	}
	return literalType(t, n), call
}

// asPattern binds the target of with x as y and except E as e.
func (p *walker) asPattern(n int32, c *state) {
	t := p.t
	val := t.FirstNamedChild(n)
	if val >= 0 {
		p.node(val, c, false)
	}
	alias := t.Field(n, "alias")
	if alias < 0 || c.level != funcLevel {
		return
	}
	target := t.FirstNamedChild(alias)
	if target < 0 || t.Kind(target) != "identifier" {
		p.forget(target, c)
		return
	}
	name := t.Text(target)
	if pa := t.Parent(n); pa >= 0 && t.Kind(pa) == "except_clause" {
		// except E as e: e is an E
		typ := ""
		if val >= 0 && isDotted(t, val) {
			typ, _ = text(t, val, maxTypeText)
		}
		c.scope.SetType(name, typ)
		return
	}
	// with Foo() as f: by convention __enter__ returns self
	typ, call := "", callInfo{}
	if val >= 0 {
		typ, call = p.valueType(val, c)
	}
	c.scope.set(name, typ, call)
}

func (p *walker) raise(n int32, c *state) {
	t := p.t
	if p.covered[n] {
		return
	}
	e := t.FirstNamedChild(n)
	if e < 0 || t.FieldName(e) == "cause" {
		return // a bare raise re-raises
	}
	p.x.Throw(c.owner, "raises", p.exceptionName(e), n)
}

// exceptionName is what a raise raises: the class of raise E(...), else
// the expression.
func (p *walker) exceptionName(e int32) string {
	t := p.t
	if t.Kind(e) == "call" {
		if fn := t.Field(e, "function"); fn >= 0 {
			e = fn
		}
	}
	s, _ := text(t, e, 80)
	return s
}

func (p *walker) assert(n int32, c *state) {
	t := p.t
	cond := t.FirstNamedChild(n)
	if cond < 0 || c.owner < 0 {
		return
	}
	cond1, _ := text(t, cond, 80)
	evidence, _ := text(t, n, lang.MaxEvidence)
	f := lang.Fact{Kind: "assert", Text: "assert " + cond1, Line: t.StartLine(n), Evidence: evidence}
	p.x.Guards[c.owner] = append(p.x.Guards[c.owner], f)
}

// guardIf records if cond: return ... and if cond: raise E at the top of a
// function body.
func (p *walker) guardIf(n int32, c *state) {
	t := p.t
	cond, cons := t.Field(n, "condition"), t.Field(n, "consequence")
	if cond < 0 || cons < 0 || t.Field(n, "alternative") >= 0 {
		return
	}
	first := t.FirstNamedChild(cons)
	if first < 0 {
		return
	}
	switch t.Kind(first) {
	case "return_statement":
		action := "return"
		if v := t.FirstNamedChild(first); v >= 0 {
			text, _ := text(t, v, 60)
			action = "return " + text
		}
		p.x.Guard(c.owner, t.Text(cond), action, n)
	case "raise_statement":
		action := "raise"
		if e := t.FirstNamedChild(first); e >= 0 && t.FieldName(e) != "cause" {
			action = "raise " + p.exceptionName(e)
		}
		p.x.Guard(c.owner, t.Text(cond), action, n)
		if p.covered == nil {
			p.covered = map[int32]bool{}
		}
		p.covered[first] = true
	}
}
