// Package ruby is sdl's room for Ruby: classes, modules, methods,
// constants and attributes come from tags.scm; this file holds what a
// query cannot say (visibility and class methods by the statements
// before a def, mixins, the types of locals and instance variables, the
// calls, requires, guards and side effects a walk of the code finds),
// resolution of constants and methods through nesting, mixins and
// superclasses, and the skeleton rules of its keyword-delimited bodies.
package ruby

import (
	"embed"
	"path"
	"strings"

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
		Name:       "ruby",
		Extensions: []string{".rb", ".rake", ".gemspec", ".ru"},
		Filenames:  []string{"Rakefile", "Gemfile", "Guardfile", "Vagrantfile"},
		Grammar:    grammar.Ruby(),
		Query:      tags, QueryFile: "lang/ruby/tags.scm",
		QueryRoots: []string{"class", "module", "method", "singleton_method", "assignment", "operator_assignment", "call"},
		QueryRoot:  queryRoot,
		Comments:   []string{"comment"},
		Strings: []string{"string", "heredoc_body", "simple_symbol", "delimited_symbol", "character", "regex", "subshell",
			"string_array", "symbol_array"},
		Idents:   []string{"identifier", "constant", "instance_variable", "class_variable", "global_variable"},
		Data:     data,
		Builtins: builtins,
		Symbol:   symbol,
		Place:    true,
		// other files require this one by its path without the extension,
		// found by any suffix of whole segments ("shop/store")
		Module: func(filePath string, _ *lang.Tree, _ string) string {
			return strings.TrimSuffix(filePath, path.Ext(filePath))
		},
		Finish:    finish,
		Resolver:  lang.Resolvers{Ref: resolve, Import: resolveImport},
		SkelRules: skeleton,
	})
}

// attrCalls declare attributes of a class: Ruby's attr_accessor and
// friends, and ActiveSupport's class-level ones (cattr_accessor :x,
// class_attribute :y), which Rails code and sidekiq's tests call as
// methods of the class (self.class.iterated_objects). tags.scm lists the
// same names.
var attrCalls = lang.KindSet("attr_accessor", "attr_reader", "attr_writer", "attr",
	"cattr_accessor", "cattr_reader", "cattr_writer", "mattr_accessor", "mattr_reader", "mattr_writer", "class_attribute")

// queryRoot spares the query the assignments of locals and the calls of
// methods other than attr_accessor and friends, most of a file's code.
func queryRoot(t *lang.Tree, n int32) bool {
	switch t.Kind(n) {
	case "assignment", "operator_assignment":
		l := t.Field(n, "left")
		return l >= 0 && t.Kind(l) == "constant"
	case "call":
		if t.Field(n, "receiver") >= 0 {
			return false
		}
		return attrCalls[t.FieldText(n, "method")]
	}
	return true
}

// symbol names a class or module after the last part of its name, in the
// container the rest of its name extends, and names an attribute.
func symbol(t *lang.Tree, d lang.Def, s *lang.Symbol) bool {
	switch t.Kind(d.Node) {
	case "class", "module":
		full := strings.TrimPrefix(constText(t, d.Name), "::")
		if i := strings.LastIndex(full, "::"); i >= 0 {
			s.Name, s.Container = full[i+2:], strings.Trim(s.Container+"."+strings.ReplaceAll(full[:i], "::", "."), ".")
		} else {
			s.Name = full
		}
	case "assignment", "operator_assignment", "method", "singleton_method":
	default:
		s.Name = symbolName(t, d.Node)
	}
	return s.Name != ""
}

// fill completes the symbol the query made at sym with what the walk
// knows (kind, visibility, signature, doc); its name, container, range
// and parent stay as made.
func fill(x *lang.Extractor, sym int, s lang.Symbol) {
	made := &x.Facts.Symbols[sym]
	s.Name, s.Container, s.Parent = made.Name, made.Container, made.Parent
	s.Range, s.StartByte, s.EndByte = made.Range, made.StartByte, made.EndByte
	s.IsTest = s.IsTest || x.Facts.IsTest
	if s.Visibility == "" {
		s.Visibility = lang.VisInternal
		if s.Exported {
			s.Visibility = lang.VisExported
		}
	}
	*made = s
}

// walk is where the Ruby walker is.
type walk struct {
	sym    int         // the symbol code belongs to
	cls    int         // the innermost class or module, -1 at top level
	vis    string      // the visibility of the next def in a class body
	static bool        // defs are class methods: class << self, module_function
	inDef  bool        // inside a method body
	method string      // the method's name, for super
	top    bool        // a statement of a method body itself, where an early exit is a guard
	scope  *lang.Scope // local variables
	ivars  map[string]string
}

// home is the symbol a definition the walk meets hangs from: the class
// whose body (or a constant's value there) holds it, else the code
// around it.
func (c walk) home() int {
	if c.cls >= 0 && !c.inDef {
		return c.cls
	}
	return c.sym
}

// finish walks the file: what depends on the statements before a
// definition, and the calls, requires, guards and side effects of code.
func finish(x *lang.Extractor) {
	c := walk{sym: 0, cls: -1, vis: lang.VisPublic, scope: &lang.Scope{Parent: nil}, ivars: map[string]string{}}
	statements(x, 0, c)
}

// statements walks the statements of a program, class or module body, or
// method body, in order: visibility keywords affect the defs after them.
func statements(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	for st := range t.NamedChildren(n) {
		switch t.Kind(st) {
		case "identifier":
			if c.cls >= 0 && !c.inDef {
				switch name := t.Text(st); name {
				case "private", "protected", "public":
					c.vis = name
					c.static = false
					continue
				case "module_function":
					c.static = true
					continue
				}
			}
		case "comment":
			continue
		}
		node(x, st, c)
	}
}

// node walks one node.
func node(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	switch t.Kind(n) {
	case "comment":
		return
	case "class":
		class(x, n, c, false)
		return
	case "module":
		class(x, n, c, true)
		return
	case "singleton_class":
		// class << self: its defs are class methods
		if b := t.Field(n, "body"); b >= 0 {
			c.static = true
			statements(x, b, c)
		}
		return
	case "method", "singleton_method":
		method(x, n, c)
		return
	case "assignment", "operator_assignment":
		assign(x, n, c)
		return
	case "call":
		call(x, n, c)
		return
	case "identifier":
		// a name that is no local variable is a call of a method of self
		name := t.Text(n)
		if p := t.Parent(n); p >= 0 && t.Kind(p) == "ERROR" {
			return // debris of a syntax error
		}
		if _, _, _, ok := c.scope.Lookup(name); !ok && !notCalls[name] {
			if name == "new" && c.cls >= 0 && c.static {
				// new in a class method: an instance of the class
				rn, rq := splitConst(strings.ReplaceAll(x.Facts.Symbols[c.cls].Qualified(), ".", "::"))
				x.Ref(lang.Ref{Kind: lang.RefNew, Name: rn, Qualifier: rq, Symbol: c.sym}, n)
				return
			}
			x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Symbol: c.sym}, n)
		}
		return
	case "super":
		if c.method != "" {
			x.Ref(lang.Ref{Kind: lang.RefCall, Name: c.method, Qualifier: "super", Symbol: c.sym}, n)
		}
		return
	case "subshell":
		// `cmd`: runs a shell command
		x.Ref(lang.Ref{Kind: lang.RefCall, Name: "`", Symbol: c.sym}, n)
	case "block", "do_block", "lambda":
		inner := c
		inner.scope = &lang.Scope{Parent: c.scope}
		inner.top = false
		for ch := range t.NamedChildren(n) {
			if k := t.Kind(ch); k == "block_parameters" || k == "lambda_parameters" {
				params(x, ch, inner.scope)
				continue
			}
			node(x, ch, inner)
		}
		return
	case "if_modifier", "unless_modifier":
		if c.top {
			modifierGuard(x, n, c)
		}
	case "if", "unless":
		if c.top {
			guard(x, n, c)
		}
	case "rescue":
		// rescue E => e
		if v := t.ChildOfKind(n, "exception_variable"); v >= 0 {
			if id := t.FirstNamedChild(v); id >= 0 {
				typ := ""
				if ex := t.ChildOfKind(n, "exceptions"); ex >= 0 && t.NamedChildCount(ex) == 1 {
					typ = constText(t, t.FirstNamedChild(ex))
				}
				c.scope.SetType(t.Text(id), typ)
			}
		}
	case "for":
		if p := t.Field(n, "pattern"); p >= 0 {
			declareTargets(x, p, c.scope)
		}
	case "method_parameters", "block_parameters", "lambda_parameters":
		return
	case "pair":
		// key: value, where the key is no call
		if v := t.Field(n, "value"); v >= 0 {
			if k := t.Field(n, "key"); k >= 0 && t.Kind(k) != "hash_key_symbol" && t.Kind(k) != "simple_symbol" {
				node(x, k, c)
			}
			node(x, v, c)
		}
		return
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		node(x, ch, c)
	}
}

// notCalls are bare words that are no method calls of self.
var notCalls = lang.NameSet(`__method__ __FILE__ __LINE__ __dir__ __callee__ private protected public
	module_function nil true false self`)

// constText renders a constant or scope resolution: "Foo::Bar", "::Top".
func constText(t *lang.Tree, n int32) string {
	if n < 0 {
		return ""
	}
	switch t.Kind(n) {
	case "constant":
		return t.Text(n)
	case "scope_resolution":
		scope := t.Field(n, "scope")
		name := t.FieldText(n, "name")
		if scope < 0 {
			return "::" + name
		}
		s := constText(t, scope)
		if s == "" {
			return ""
		}
		return s + "::" + name
	}
	return ""
}

// class makes a class or module, with the mixins, attributes and
// instance variables its body declares.
func class(x *lang.Extractor, n int32, c walk, module bool) {
	t := x.Tree
	around := c.sym
	if c.cls >= 0 {
		around = c.cls // a class a method defines is its class's
	}
	sym, ok := x.Define(n, around)
	if !ok {
		return // a class whose name is no constant path
	}
	s := lang.Symbol{Kind: lang.KindClass, Exported: true, Visibility: lang.VisPublic}
	if module {
		s.Kind = lang.KindModule
	}
	body := t.Field(n, "body")
	var superNode int32 = -1
	if sc := t.Field(n, "superclass"); sc >= 0 {
		superNode = t.FirstNamedChild(sc)
		if st := constText(t, superNode); st != "" {
			s.Signature.Bases = append(s.Signature.Bases, st)
		}
	}
	ivars := map[string]string{}
	var mixins []int32
	if body >= 0 {
		s.Signature.Fields, mixins = classMembers(x, body, ivars)
		for _, m := range mixins {
			s.Signature.Bases = append(s.Signature.Bases, constText(t, m))
		}
	}
	s.Signature.Text = x.HeaderText(n, body)
	s.Doc = doc(x, n)
	fill(x, sym, s)
	if superNode >= 0 {
		if st := constText(t, superNode); st != "" {
			rn, rq := splitConst(st)
			x.Ref(lang.Ref{Kind: lang.RefExtends, Name: rn, Qualifier: rq, Symbol: sym}, superNode)
		} else {
			// class Foo < Struct.new(:a): code in the superclass clause
			node(x, superNode, walk{sym: sym, cls: c.cls, vis: lang.VisPublic, scope: c.scope, ivars: c.ivars})
		}
	}
	for _, m := range mixins {
		rn, rq := splitConst(constText(t, m))
		x.Ref(lang.Ref{Kind: lang.RefImplements, Name: rn, Qualifier: rq, Symbol: sym}, m)
	}
	inner := walk{sym: sym, cls: sym, vis: lang.VisPublic, scope: &lang.Scope{Parent: nil}, ivars: ivars}
	for ch := range t.NamedChildren(n) {
		if ch == body || t.IsError(ch) {
			statements(x, ch, inner) // what the parser could not read as the body is read as it
		}
	}
}

// splitConst splits "A::B::C" into "C" and "A::B".
func splitConst(s string) (name, qual string) {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return s[i+2:], s[:i]
	}
	return s, ""
}

// classMembers reads a class body ahead of the walk: its attributes
// (attr_accessor and friends) and constants as fields, the instance
// variables its methods assign a new object to, and its mixins.
func classMembers(x *lang.Extractor, body int32, ivars map[string]string) (fields []lang.Param, mixins []int32) {
	t := x.Tree
	seen := map[string]bool{}
	for st := range t.NamedChildren(body) {
		switch t.Kind(st) {
		case "call":
			if t.Field(st, "receiver") >= 0 {
				continue
			}
			args := t.Field(st, "arguments")
			if args < 0 {
				continue
			}
			switch m := t.FieldText(st, "method"); {
			case attrCalls[m]:
				for a := range t.NamedChildren(args) {
					if name := symbolName(t, a); name != "" && !seen[name] {
						seen[name] = true
						fields = append(fields, lang.Param{Name: name})
					}
				}
			case m == "include" || m == "extend" || m == "prepend":
				for a := range t.NamedChildren(args) {
					if constText(t, a) != "" {
						mixins = append(mixins, a)
					}
				}
			}
		case "singleton_method":
			mixins = append(mixins, hookMixins(t, st)...)
		case "assignment":
			if l := t.Field(st, "left"); l >= 0 && t.Kind(l) == "constant" && !seen[t.Text(l)] {
				seen[t.Text(l)] = true
				fields = append(fields, lang.Param{Name: t.Text(l), Type: newClass(t, t.Field(st, "right"))})
			}
		}
	}
	// @x = Foo.new(...) anywhere in the class's methods, not in the
	// classes it nests
	for d := body + 1; d < t.Nodes[body].End; d++ {
		switch t.Kind(d) {
		case "class", "module", "singleton_class":
			d = t.Nodes[d].End - 1
			continue
		case "assignment":
		default:
			continue
		}
		l := t.Field(d, "left")
		if l < 0 || t.Kind(l) != "instance_variable" {
			continue
		}
		name := t.Text(l)
		if typ := valueClass(t, t.Field(d, "right")); typ != "" {
			if _, ok := ivars[name]; !ok {
				ivars[name] = typ
				fields = append(fields, lang.Param{Name: name, Type: typ})
			}
		}
	}
	return fields, mixins
}

// hookMixins are the modules a module's included (or extended,
// prepended) hook mixes into its host: def self.included(base);
// base.extend(ClassMethods); base.include(Other); end gives every class
// that includes the module ClassMethods' and Other's methods, which
// sidekiq's jobs call (HardJob.perform_async). Methods of self and of
// the class are one namespace here, so they count as the module's own
// mixins.
func hookMixins(t *lang.Tree, n int32) []int32 {
	switch t.FieldText(n, "name") {
	case "included", "extended", "prepended":
	default:
		return nil
	}
	if o := t.Field(n, "object"); o < 0 || t.Kind(o) != "self" {
		return nil
	}
	ps := t.Field(n, "parameters")
	body := t.Field(n, "body")
	if ps < 0 || body < 0 || t.NamedChildCount(ps) != 1 || t.Kind(t.FirstNamedChild(ps)) != "identifier" {
		return nil
	}
	host := t.Text(t.FirstNamedChild(ps))
	var out []int32
	for d := range t.Descendants(body) {
		if t.Kind(d) != "call" {
			continue
		}
		recv, args := t.Field(d, "receiver"), t.Field(d, "arguments")
		if recv < 0 || args < 0 || t.Kind(recv) != "identifier" || t.Text(recv) != host {
			continue
		}
		skip := 0
		switch t.FieldText(d, "method") {
		case "include", "extend", "prepend":
		case "send", "__send__", "public_send":
			// base.send(:include, Other)
			switch symbolName(t, t.FirstNamedChild(args)) {
			case "include", "extend", "prepend":
				skip = 1
			default:
				continue
			}
		default:
			continue
		}
		i := 0
		for a := range t.NamedChildren(args) {
			if i >= skip && constText(t, a) != "" {
				out = append(out, a)
			}
			i++
		}
	}
	return out
}

// newClass is the class of Foo.new(...) or Foo::Bar.new, else "".
func newClass(t *lang.Tree, n int32) string {
	if n < 0 || t.Kind(n) != "call" || t.FieldText(n, "method") != "new" {
		return ""
	}
	return constText(t, t.Field(n, "receiver"))
}

// valueClass is the class whose methods a local or an instance
// variable assigned Foo.new(...) has: Foo's. Class.new(Base) makes a
// subclass of Base, with Base's methods; Class.new or Module.new with no
// base has only what its block defines, unknown here, not Class's.
func valueClass(t *lang.Tree, n int32) string {
	c := newClass(t, n)
	switch c {
	case "Class", "::Class":
		if args := t.Field(n, "arguments"); args >= 0 {
			return constText(t, t.FirstNamedChild(args))
		}
		return ""
	case "Module", "::Module":
		return ""
	}
	return c
}

// symbolName is the name of :name or "name".
func symbolName(t *lang.Tree, n int32) string {
	switch t.Kind(n) {
	case "simple_symbol":
		return strings.TrimPrefix(t.Text(n), ":")
	case "string", "delimited_symbol":
		if c := t.ChildOfKind(n, "string_content"); c >= 0 {
			return t.Text(c)
		}
	}
	return ""
}

// doc is the comment block right above a declaration. A comment between
// "class Foo" and its first member sits in the class node before the body,
// so the first statement of a body looks there too. =begin/=end blocks
// count.
func doc(x *lang.Extractor, n int32) string {
	t := x.Tree
	var parts []string
	line := t.Nodes[n].StartRow
	collect := func(from int32) {
		for c := from; c >= 0 && t.Kind(c) == "comment"; c = t.PrevSibling(c) {
			if t.Nodes[c].EndRow+1 < line {
				return
			}
			if p := t.PrevSibling(c); p >= 0 && t.Nodes[p].EndRow == t.Nodes[c].StartRow && t.Kind(p) != "comment" {
				return // a comment trailing code
			}
			parts = append(parts, t.Text(c))
			line = t.Nodes[c].StartRow
		}
	}
	prev := t.PrevSibling(n)
	collect(prev)
	if prev < 0 {
		if p := t.Parent(n); p >= 0 && t.Kind(p) == "body_statement" {
			collect(t.PrevSibling(p))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	text := strings.Join(parts, "\n")
	if strings.HasPrefix(text, "=begin") {
		text = strings.TrimPrefix(text, "=begin")
		text = strings.TrimSuffix(strings.TrimSpace(text), "=end")
	}
	return lang.CleanComment(text)
}

// yard reads the types YARD tags give: @param [Type] name (or @param
// name [Type]) and @return [Type].
func yard(doc string) (params map[string]string, returns string) {
	if !strings.Contains(doc, "@") {
		return nil, ""
	}
	for _, l := range strings.Split(doc, "\n") {
		tag, rest, _ := strings.Cut(strings.TrimSpace(l), " ")
		if tag != "@param" && tag != "@return" {
			continue
		}
		// the first type of a [Type, Other] list, and the words around it
		var typ, before, after string
		if i := strings.IndexByte(rest, '['); i >= 0 {
			if j := strings.IndexByte(rest[i:], ']'); j >= 0 {
				typ = rest[i+1 : i+j]
				before, after = rest[:i], rest[i+j+1:]
				if k := strings.IndexAny(typ, ",<("); k >= 0 {
					typ = typ[:k]
				}
				typ = strings.TrimSpace(typ)
			}
		}
		if typ == "" {
			continue
		}
		if tag == "@return" {
			returns = typ
			continue
		}
		name := strings.TrimSpace(before)
		if name == "" {
			if f := strings.Fields(after); len(f) > 0 {
				name = f[0]
			}
		}
		if name != "" {
			if params == nil {
				params = map[string]string{}
			}
			params[name] = typ
		}
	}
	return params, returns
}

// params reads parameters, declaring them in scope.
func params(x *lang.Extractor, list int32, scope *lang.Scope) []lang.Param {
	t := x.Tree
	if list < 0 {
		return nil
	}
	var out []lang.Param
	for p := range t.NamedChildren(list) {
		var pr lang.Param
		switch t.Kind(p) {
		case "identifier":
			pr.Name = t.Text(p)
		case "optional_parameter":
			pr.Name = t.FieldText(p, "name")
			pr.Default = lang.Shorten(lang.OneLine(t.FieldText(p, "value")), 40)
			pr.Optional = true
		case "keyword_parameter":
			pr.Name = t.FieldText(p, "name") + ":"
			if v := t.Field(p, "value"); v >= 0 {
				pr.Default = lang.Shorten(lang.OneLine(t.Text(v)), 40)
				pr.Optional = true
			}
		case "splat_parameter":
			pr.Name, pr.Variadic = "*"+t.FieldText(p, "name"), true
		case "hash_splat_parameter":
			pr.Name, pr.Variadic = "**"+t.FieldText(p, "name"), true
		case "block_parameter":
			pr.Name = "&" + t.FieldText(p, "name")
		case "forward_parameter":
			pr.Name, pr.Variadic = "...", true
		case "destructured_parameter":
			for d := range t.Descendants(p) {
				if t.Kind(d) == "identifier" {
					scope.SetType(t.Text(d), "")
				}
			}
			pr.Name = lang.OneLine(t.Text(p))
		default:
			continue
		}
		out = append(out, pr)
		if scope != nil {
			scope.SetType(strings.TrimRight(strings.TrimLeft(pr.Name, "*&"), ":"), "")
		}
	}
	return out
}

func method(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	nameNode := t.Field(n, "name")
	if nameNode < 0 {
		return
	}
	sym, ok := x.Define(n, c.home())
	if !ok {
		return
	}
	body := t.Field(n, "body")
	name := t.Text(nameNode)
	s := lang.Symbol{Kind: lang.KindFunction}
	if c.cls >= 0 && !c.inDef {
		s.Kind = lang.KindMethod
	}
	var mods []string
	static := c.static
	if t.Kind(n) == "singleton_method" {
		obj := t.Field(n, "object")
		if obj >= 0 && (t.Kind(obj) == "self" || c.cls >= 0 && t.Text(obj) == x.Facts.Symbols[c.cls].Name) {
			static = true
		} else if obj >= 0 {
			mods = append(mods, "singleton "+t.Text(obj))
		}
	}
	if static && s.Kind == lang.KindMethod {
		mods = append(mods, "class")
	}
	if name == "initialize" && s.Kind == lang.KindMethod {
		s.Kind = lang.KindConstructor
	}
	vis := c.vis
	if s.Kind == lang.KindConstructor || static {
		if vis != lang.VisProtected && vis != lang.VisPrivate || static && t.Kind(n) == "singleton_method" {
			vis = lang.VisPublic
		}
		if s.Kind == lang.KindConstructor {
			vis = lang.VisPublic // new is public, whatever initialize is
		}
	}
	switch vis {
	case lang.VisPrivate:
		s.Visibility = lang.VisPrivate
	case lang.VisProtected:
		s.Visibility = lang.VisProtected
	default:
		s.Exported, s.Visibility = true, lang.VisPublic
	}
	s.Signature.Modifiers = mods
	scope := &lang.Scope{Parent: nil}
	s.Signature.Params = params(x, t.Field(n, "parameters"), scope)
	s.Doc = doc(x, n)
	if ptypes, ret := yard(s.Doc); ptypes != nil || ret != "" {
		for i := range s.Signature.Params {
			p := &s.Signature.Params[i]
			if typ := ptypes[strings.TrimRight(strings.TrimLeft(p.Name, "*&"), ":")]; typ != "" {
				p.Type = typ
				scope.SetType(strings.TrimRight(strings.TrimLeft(p.Name, "*&"), ":"), typ)
			}
		}
		s.Signature.Returns = ret
	}
	if s.Signature.Returns == "" && body >= 0 && c.cls >= 0 {
		// a factory: its last statement makes an instance
		last := body
		if t.Kind(body) == "body_statement" {
			last = -1
			for st := range t.NamedChildren(body) {
				last = st
			}
		}
		if last >= 0 && t.Kind(last) == "call" && t.FieldText(last, "method") == "new" {
			if recv := t.Field(last, "receiver"); recv < 0 && static {
				s.Signature.Returns = strings.ReplaceAll(x.Facts.Symbols[c.cls].Qualified(), ".", "::")
			} else if cls := constText(t, recv); cls != "" {
				s.Signature.Returns = cls
			}
		}
	}
	s.Signature.Text = x.HeaderText(n, body)
	if x.Facts.IsTest && strings.HasPrefix(name, "test_") {
		s.IsTest = true
	}
	fill(x, sym, s)
	inner := walk{sym: sym, cls: c.cls, vis: lang.VisPublic, static: static, inDef: true, method: name,
		top: true, scope: scope, ivars: c.ivars}
	for ch := range t.NamedChildren(n) {
		switch {
		case ch == body && t.Kind(body) == "body_statement", t.IsError(ch):
			statements(x, ch, inner) // what the parser could not read as the body is read as it
		case ch == body:
			in := inner
			in.top = false // def f = expr
			node(x, body, in)
		}
	}
}

// assign handles constants (and the classes Struct.new and Class.new
// make), local variables and their values.
func assign(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	left, right := t.Field(n, "left"), t.Field(n, "right")
	if left < 0 {
		return
	}
	switch t.Kind(left) {
	case "constant":
		if !c.inDef && right >= 0 {
			constant(x, n, left, right, c)
			return
		}
	case "identifier":
		name := t.Text(left)
		if right >= 0 {
			in := c
			in.top = false
			node(x, right, in)
		}
		if t.Kind(n) == "operator_assignment" {
			if _, _, _, ok := c.scope.Lookup(name); !ok {
				c.scope.SetType(name, "")
			}
			return
		}
		c.scope.SetType(name, "")
		if right < 0 {
			return
		}
		if typ := valueClass(t, right); typ != "" {
			c.scope.SetType(name, typ)
		} else if (t.Kind(right) == "call" && t.Field(right, "receiver") < 0 && t.FieldText(right, "method") == "new" ||
			t.Kind(right) == "identifier" && t.Text(right) == "new") && c.cls >= 0 && c.static {
			// x = new(...) in a class method
			c.scope.SetType(name, strings.ReplaceAll(x.Facts.Symbols[c.cls].Qualified(), ".", "::"))
		} else if t.Kind(right) == "call" {
			// x = @store.item: what item returns on @store's class, as the
			// chain @store.item.price reads it
			if typ, call := head(x, right, c); call != "" {
				c.scope.SetCall(name, call, typ)
			}
		} else if t.Kind(right) == "string" {
			c.scope.SetType(name, "String")
		}
		return
	case "left_assignment_list":
		declareTargets(x, left, c.scope)
	}
	c.top = false
	for ch := range t.NamedChildren(n) {
		if ch == left && t.Kind(left) != "call" && t.Kind(left) != "element_reference" {
			continue
		}
		node(x, ch, c)
	}
}

// declareTargets declares the local variables of a multiple assignment
// or a for loop.
func declareTargets(x *lang.Extractor, n int32, scope *lang.Scope) {
	t := x.Tree
	if t.Kind(n) == "identifier" {
		scope.SetType(t.Text(n), "")
		return
	}
	for d := range t.Descendants(n) {
		if t.Kind(d) == "identifier" {
			scope.SetType(t.Text(d), "")
		}
	}
}

// constant makes Name = value a constant, or a class when the value is
// Struct.new(...), Class.new(Base) or Data.define(...).
func constant(x *lang.Extractor, n, left, right int32, c walk) {
	t := x.Tree
	sym, ok := x.Define(n, c.home())
	if !ok {
		node(x, right, c)
		return
	}
	s := lang.Symbol{Kind: lang.KindVariable, Exported: true, Visibility: lang.VisPublic}
	s.Doc = doc(x, n)
	var block int32 = -1
	if t.Kind(right) == "call" {
		recv := constText(t, t.Field(right, "receiver"))
		meth := t.FieldText(right, "method")
		if recv == "Struct" && meth == "new" || recv == "Class" && meth == "new" || recv == "Data" && meth == "define" {
			s.Kind = lang.KindClass
			s.Signature.Modifiers = []string{strings.ToLower(recv)}
			if args := t.Field(right, "arguments"); args >= 0 {
				for a := range t.NamedChildren(args) {
					if name := symbolName(t, a); name != "" && recv != "Class" {
						s.Signature.Fields = append(s.Signature.Fields, lang.Param{Name: name})
					} else if b := constText(t, a); b != "" && recv == "Class" {
						s.Signature.Bases = append(s.Signature.Bases, b)
					}
				}
			}
			if recv == "Struct" {
				s.Signature.Bases = append([]string{"Struct"}, s.Signature.Bases...)
			}
			block = t.Field(right, "block")
		}
	}
	if s.Kind == lang.KindVariable {
		s.Signature.Modifiers = []string{"const"}
		s.Signature.Returns = newClass(t, right)
		s.Signature.Text = lang.Shorten(lang.OneLine(t.Text(n)), 120)
	} else {
		s.Signature.Text = x.HeaderText(n, block)
	}
	fill(x, sym, s)
	if s.Kind == lang.KindClass {
		for _, b := range x.Facts.Symbols[sym].Signature.Bases {
			rn, rq := splitConst(b)
			x.Ref(lang.Ref{Kind: lang.RefExtends, Name: rn, Qualifier: rq, Symbol: sym}, right)
		}
		if block >= 0 {
			inner := walk{sym: sym, cls: sym, vis: lang.VisPublic,
				scope: &lang.Scope{Parent: nil}, ivars: map[string]string{}}
			if b := t.Field(block, "body"); b >= 0 {
				statements(x, b, inner)
			}
		}
		return
	}
	node(x, right, walk{sym: sym, cls: c.cls, vis: lang.VisPublic, scope: c.scope, ivars: c.ivars})
}

// expr renders a receiver with arguments left out: "a.b(x).c" ->
// "a.b().c".
func expr(t *lang.Tree, n int32, depth int) string {
	if depth > lang.MaxChain {
		return "..."
	}
	switch t.Kind(n) {
	case "identifier", "self", "instance_variable", "class_variable", "global_variable", "constant":
		return t.Text(n)
	case "scope_resolution":
		if s := constText(t, n); s != "" {
			return s
		}
	case "call":
		m := t.FieldText(n, "method")
		recv := t.Field(n, "receiver")
		if recv < 0 {
			return m + "()"
		}
		if m == "" {
			return expr(t, recv, depth+1) + ".()" // a.(x), a lambda call
		}
		return expr(t, recv, depth+1) + "." + m + "()"
	case "parenthesized_statements":
		if in := t.FirstNamedChild(n); in >= 0 && t.NamedChildCount(n) == 1 {
			return "(" + expr(t, in, depth+1) + ")"
		}
	case "string":
		return `""`
	case "hash":
		return "{}"
	case "array":
		return "[]"
	case "element_reference":
		if o := t.Field(n, "object"); o >= 0 {
			return expr(t, o, depth+1) + "[]"
		}
	}
	return lang.Shorten(lang.OneLine(t.Text(n)), 40)
}

// head works out what is known of a receiver: the class of its first
// part (a local assigned Foo.new, an instance variable, self, Foo.new)
// and, when the receiver is or holds a call, that call.
func head(x *lang.Extractor, recv int32, c walk) (typ, call string) {
	t := x.Tree
	if t.Kind(recv) == "call" {
		if cls := valueClass(t, recv); cls != "" {
			return cls, ""
		}
		call = strings.TrimSuffix(expr(t, recv, 0), "()")
	}
	n := recv
	for i := 0; i <= lang.MaxChain && t.Kind(n) == "call"; i++ {
		r := t.Field(n, "receiver")
		if r < 0 {
			break
		}
		n = r
	}
	switch t.Kind(n) {
	case "identifier":
		name := t.Text(n)
		vt, vc, vh, ok := c.scope.Lookup(name)
		switch {
		case !ok && notCalls[name]:
		case !ok:
			// no local: a call of a method of self
			if call == "" {
				call = name
			}
		case vc == "":
			typ = vt
		case call == "":
			typ, call = vh, vc
		case strings.HasPrefix(call, name):
			typ, call = vh, vc+"()"+call[len(name):]
		}
	case "instance_variable":
		typ = c.ivars[t.Text(n)]
	case "self":
		if c.cls >= 0 && !c.static {
			typ = strings.ReplaceAll(x.Facts.Symbols[c.cls].Qualified(), ".", "::")
		}
	case "call":
		if cls := valueClass(t, n); cls != "" {
			typ = cls
		}
	case "string":
		typ = "String"
	}
	return typ, call
}

// kernelRaise are the calls that raise.
var kernelRaise = map[string]bool{"raise": true, "fail": true}

func call(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	method := t.Field(n, "method")
	recv := t.Field(n, "receiver")
	args := t.Field(n, "arguments")
	block := t.Field(n, "block")
	name := ""
	if method >= 0 {
		name = t.Text(method)
	}
	inner := c
	inner.top = false
	walkRest := func() {
		if recv >= 0 {
			node(x, recv, inner)
		}
		if args >= 0 {
			node(x, args, inner)
		}
		if block >= 0 {
			node(x, block, inner)
		}
	}
	if method >= 0 && t.Kind(method) == "super" {
		if c.method != "" {
			x.Ref(lang.Ref{Kind: lang.RefCall, Name: c.method, Qualifier: "super", Symbol: c.sym}, n)
		}
		walkRest()
		return
	}
	if recv < 0 {
		if attrCalls[name] && c.cls >= 0 && !c.inDef {
			attrs(x, n, name, args, c)
			return
		}
		switch name {
		case "require", "require_relative", "load", "autoload", "require_dependency":
			if importCall(x, n, name, args, c) {
				return
			}
		case "include", "extend", "prepend":
			if c.cls >= 0 && !c.inDef {
				return // mixins, read with the class
			}
		case "private", "protected", "public", "module_function", "private_class_method", "public_class_method":
			if c.cls >= 0 && !c.inDef && args >= 0 {
				visibilityCall(x, name, args, c)
				return
			}
		case "new":
			// new(...) in a class method: an instance of the class
			if c.cls >= 0 && c.static {
				cls := &x.Facts.Symbols[c.cls]
				rn, rq := splitConst(strings.ReplaceAll(cls.Qualified(), ".", "::"))
				x.Ref(lang.Ref{Kind: lang.RefNew, Name: rn, Qualifier: rq, Symbol: c.sym}, n)
				walkRest()
				return
			}
		}
		if (name == "let" || name == "let!" || name == "subject") && args >= 0 && block >= 0 {
			// RSpec: let(:store) { Store.new } names a value of the spec
			if a := t.FirstNamedChild(args); a >= 0 {
				if v := symbolName(t, a); v != "" {
					typ := ""
					if b := t.Field(block, "body"); b >= 0 && t.NamedChildCount(b) == 1 {
						typ = valueClass(t, t.FirstNamedChild(b))
					}
					c.scope.SetType(v, typ)
				}
			}
		}
		if kernelRaise[name] {
			what := ""
			if args >= 0 {
				if a := t.FirstNamedChild(args); a >= 0 {
					what = lang.OneLine(t.Text(a))
					if cls := constText(t, a); cls != "" {
						what = cls
					} else if cls := newClass(t, a); cls != "" {
						what = cls
					}
				}
			}
			x.Throw(c.sym, "raises", what, n)
		}
		if name != "" {
			x.Ref(lang.Ref{Kind: lang.RefCall, Name: name, Symbol: c.sym}, n)
		}
		walkRest()
		return
	}
	if name == "new" {
		if cls := constText(t, recv); cls != "" {
			rn, rq := splitConst(cls)
			x.Ref(lang.Ref{Kind: lang.RefNew, Name: rn, Qualifier: rq, Symbol: c.sym}, n)
			walkRest()
			return
		}
	}
	if name == "" {
		walkRest() // a.(x)
		return
	}
	r := lang.Ref{Kind: lang.RefCall, Name: name, Qualifier: expr(t, recv, 0), Symbol: c.sym}
	r.QualifierType, r.QualifierCall = head(x, recv, c)
	x.Ref(r, n)
	walkRest()
}

// importCall records require "x", require_relative "x", load "x.rb" and
// autoload :X, "x". A relative require's source starts with "./" or
// "../", so that resolution tells it from a load-path one.
func importCall(x *lang.Extractor, n int32, kind string, args int32, c walk) bool {
	t := x.Tree
	if args < 0 {
		return false
	}
	var str int32 = -1
	for a := range t.NamedChildren(args) {
		if t.Kind(a) == "string" {
			str = a
			break
		}
	}
	if str < 0 || t.ChildOfKind(str, "interpolation") >= 0 {
		return false
	}
	src := ""
	if sc := t.ChildOfKind(str, "string_content"); sc >= 0 {
		src = t.Text(sc)
	}
	if src == "" {
		return false
	}
	if kind == "require_relative" && !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "/") {
		src = "./" + src
	}
	if kind == "load" {
		src = strings.TrimSuffix(src, ".rb")
	}
	imp := lang.Import{Source: src, Line: t.StartLine(n), Symbol: c.sym}
	if kind == "autoload" {
		if a := t.FirstNamedChild(args); a >= 0 {
			if name := symbolName(t, a); name != "" {
				imp.Names = []lang.ImportName{{Name: name}}
			}
		}
	}
	x.Facts.Imports = append(x.Facts.Imports, imp)
	return true
}

// attrs makes the attributes attr_accessor and friends declare
// variables of the class.
func attrs(x *lang.Extractor, n int32, kind string, args int32, c walk) {
	t := x.Tree
	for a := range t.NamedChildren(args) {
		name := symbolName(t, a)
		sym, ok := x.Define(a, c.cls)
		if name == "" || !ok {
			continue
		}
		s := lang.Symbol{Kind: lang.KindVariable}
		switch c.vis {
		case lang.VisPrivate, lang.VisProtected:
			s.Visibility = c.vis
		default:
			s.Exported, s.Visibility = true, lang.VisPublic
		}
		s.Signature.Modifiers = []string{kind}
		s.Signature.Text = kind + " :" + name
		s.Doc = doc(x, n)
		if ivt := c.ivars["@"+name]; ivt != "" {
			s.Signature.Returns = ivt
		}
		fill(x, sym, s)
	}
}

// visibilityCall handles private :a, :b and private def x ... end.
func visibilityCall(x *lang.Extractor, kind string, args int32, c walk) {
	t := x.Tree
	vis := kind
	switch kind {
	case "module_function", "private_class_method", "public_class_method":
		vis = ""
	}
	for a := range t.NamedChildren(args) {
		switch t.Kind(a) {
		case "method", "singleton_method":
			in := c
			if vis != "" {
				in.vis = vis
			}
			if kind == "module_function" {
				in.static = true
			}
			method(x, a, in)
		default:
			name := symbolName(t, a)
			if name == "" {
				node(x, a, c)
				continue
			}
			for i := c.cls + 1; i < len(x.Facts.Symbols) && x.SymNode[i] < a; i++ {
				s := &x.Facts.Symbols[i]
				if s.Parent != c.cls || s.Name != name {
					continue
				}
				switch vis {
				case lang.VisPrivate, lang.VisProtected:
					s.Visibility, s.Exported = vis, false
				case lang.VisPublic:
					s.Visibility, s.Exported = lang.VisPublic, true
				}
				if kind == "module_function" && s.Kind == lang.KindMethod {
					s.Signature.Modifiers = append(s.Signature.Modifiers, "class")
				}
			}
		}
	}
}

// modifierGuard records raise ... if cond and return ... unless cond
// among the statements of a method body.
func modifierGuard(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	body, cond := t.Field(n, "body"), t.Field(n, "condition")
	if body < 0 || cond < 0 {
		return
	}
	ct := t.Text(cond)
	if t.Kind(n) == "unless_modifier" {
		ct = "!(" + ct + ")"
	}
	if action := exitAction(t, body); action != "" {
		x.Guard(c.sym, ct, action, n)
	}
}

// guard records if cond then raise/return end (no else) among the
// statements of a method body.
func guard(x *lang.Extractor, n int32, c walk) {
	t := x.Tree
	cond, cons := t.Field(n, "condition"), t.Field(n, "consequence")
	if cond < 0 || cons < 0 || t.Field(n, "alternative") >= 0 {
		return
	}
	first := t.FirstNamedChild(cons)
	if first < 0 {
		return
	}
	ct := t.Text(cond)
	if t.Kind(n) == "unless" {
		ct = "!(" + ct + ")"
	}
	if action := exitAction(t, first); action != "" {
		x.Guard(c.sym, ct, action, n)
	}
}

// exitAction is "raise" or "return ..." for a statement that leaves the
// method, else "".
func exitAction(t *lang.Tree, st int32) string {
	switch t.Kind(st) {
	case "return":
		if v := t.FirstNamedChild(st); v >= 0 {
			return "return " + lang.Shorten(lang.OneLine(t.Text(v)), 60)
		}
		return "return"
	case "call":
		if t.Field(st, "receiver") < 0 && kernelRaise[t.FieldText(st, "method")] {
			return "raise"
		}
	case "identifier":
		if kernelRaise[t.Text(st)] {
			return "raise"
		}
	}
	return ""
}
