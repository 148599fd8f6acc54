package python

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

func extractLoose(t *testing.T, path, src string) *lang.FileFacts {
	t.Helper()
	p := lang.NewParser()
	defer p.Close()
	f, err := lang.Extract(p, lang.ByName("python"), path, []byte(src))
	if err != nil {
		t.Fatalf("extract %s: %v", path, err)
	}
	return f
}

func symbolOf(t *testing.T, f *lang.FileFacts, qualified string) *lang.Symbol {
	t.Helper()
	for i := range f.Symbols {
		if f.Symbols[i].Qualified() == qualified && f.Symbols[i].Kind != lang.KindModule {
			return &f.Symbols[i]
		}
	}
	var have []string
	for _, s := range f.Symbols {
		have = append(have, s.Kind+" "+s.Qualified())
	}
	t.Fatalf("no symbol %s; have %v", qualified, have)
	return nil
}

// refs renders a file's references as "owner: kind qual.name [type] {call}".
func refs(f *lang.FileFacts) []string {
	var out []string
	for _, r := range f.Refs {
		s := fmt.Sprintf("%s: %s ", f.Symbols[r.Symbol].Qualified(), r.Kind)
		if r.Qualifier != "" {
			s += r.Qualifier + "."
		}
		s += r.Name
		if r.QualifierType != "" {
			s += " [" + r.QualifierType + "]"
		}
		if r.QualifierCall != "" {
			s += " {" + r.QualifierCall + "}"
		}
		out = append(out, s)
	}
	return out
}

func has(t *testing.T, got []string, want ...string) {
	t.Helper()
	set := map[string]bool{}
	for _, g := range got {
		set[g] = true
	}
	for _, w := range want {
		if !set[w] {
			t.Errorf("missing %q in:\n  %s", w, strings.Join(got, "\n  "))
		}
	}
}

func lacks(t *testing.T, got []string, unwanted ...string) {
	t.Helper()
	for _, g := range got {
		for _, u := range unwanted {
			if g == u {
				t.Errorf("unexpected %q", u)
			}
		}
	}
}

func TestModuleAndTests(t *testing.T) {
	for _, c := range []struct {
		path, module string
		test         bool
	}{
		{"pkg/sub/mod.py", "pkg.sub.mod", false},
		{"pkg/__init__.py", "pkg", false},
		{"src/flask/helpers.py", "src.flask.helpers", false},
		{"stubs/mod.pyi", "stubs.mod", false},
		{"setup.py", "setup", false},
		{"pkg/test_mod.py", "pkg.test_mod", true},
		{"pkg/mod_test.py", "pkg.mod_test", true},
		{"conftest.py", "conftest", true},
		{"tests/helpers.py", "tests.helpers", true},
		{"lib/test/support.py", "lib.test.support", true},
		{"testing_utils.py", "testing_utils", false},
	} {
		f := extractLoose(t, c.path, "x = 1\n")
		if f.Module != c.module || f.IsTest != c.test || f.Symbols[0].Name != c.module {
			t.Errorf("%s: module %q test %v (symbol %q), want %q %v", c.path, f.Module, f.IsTest, f.Symbols[0].Name, c.module, c.test)
		}
	}
}

func TestSymbols(t *testing.T) {
	src := `"""Shop models.

Second paragraph.
"""
from typing import Protocol
from abc import ABC, abstractmethod

__all__ = ["Item", "make", "_exported_private"]

MAX_ITEMS: int = 10
registry = {}
_cache = None
DEFAULT = OTHER = None
handler_class = Handler


class Clock(Protocol):
    def now(self) -> float: ...


class Base(ABC):
    @abstractmethod
    def run(self): ...


@dataclass(frozen=True)
class Item(Base, metaclass=Meta):
    """An item."""

    sku: str
    qty: int = 1
    count = 0

    def __init__(self, sku: str, *args, repo: "Repo" = None, **kw) -> None:
        self.sku = sku
        self.repo = repo
        self.clock = SystemClock()
        self.store = make_store()
        self._secret = 1

    @property
    def total(self) -> float:
        """The total."""
        return 0.0

    @staticmethod
    def parse(text, /, *, strict=False):
        pass

    def __repr__(self):
        return "Item"

    def _protected(self):
        pass

    def __private(self):
        pass

    class Inner:
        pass


async def make(n: int = 2) -> "Item":
    def helper(x):
        class Local:
            pass
        return x
    return helper(n)


def _exported_private():
    pass


def not_exported():
    pass


def first[T](xs: list[T]) -> T:
    return xs[0]


if True:
    def conditional():
        pass
`
	f := extractLoose(t, "shop/models.py", src)
	if f.Symbols[0].Doc != "Shop models.\n\nSecond paragraph." {
		t.Errorf("module doc %q", f.Symbols[0].Doc)
	}
	for _, c := range []struct {
		q, kind, vis string
		exported     bool
	}{
		{"MAX_ITEMS", lang.KindVariable, lang.VisPublic, false},
		{"registry", lang.KindVariable, lang.VisPublic, false},
		{"_cache", lang.KindVariable, lang.VisProtected, false},
		{"__all__", lang.KindVariable, lang.VisPublic, false},
		{"Clock", lang.KindInterface, lang.VisPublic, false},
		{"Clock.now", lang.KindMethod, lang.VisPublic, false},
		{"Base", lang.KindClass, lang.VisPublic, false},
		{"Item", lang.KindClass, lang.VisPublic, true},
		{"Item.sku", lang.KindVariable, lang.VisPublic, true},
		{"Item.__init__", lang.KindConstructor, lang.VisPublic, true},
		{"Item.total", lang.KindMethod, lang.VisPublic, true},
		{"Item.__repr__", lang.KindMethod, lang.VisPublic, true},
		{"Item._protected", lang.KindMethod, lang.VisProtected, false},
		{"Item.__private", lang.KindMethod, lang.VisPrivate, false},
		{"Item.Inner", lang.KindClass, lang.VisPublic, true},
		{"make", lang.KindFunction, lang.VisPublic, true},
		{"make.helper", lang.KindFunction, lang.VisPublic, false},
		{"make.helper.Local", lang.KindClass, lang.VisPublic, false},
		{"_exported_private", lang.KindFunction, lang.VisProtected, true},
		{"not_exported", lang.KindFunction, lang.VisPublic, false},
		{"conditional", lang.KindFunction, lang.VisPublic, false},
	} {
		s := symbolOf(t, f, c.q)
		if s.Kind != c.kind || s.Visibility != c.vis || s.Exported != c.exported {
			t.Errorf("%s: %s %s exported=%v, want %s %s %v", c.q, s.Kind, s.Visibility, s.Exported, c.kind, c.vis, c.exported)
		}
	}
	// a = b = v defines both
	symbolOf(t, f, "DEFAULT")
	symbolOf(t, f, "OTHER")
	if s := symbolOf(t, f, "MAX_ITEMS"); s.Signature.Returns != "int" || strings.Join(s.Signature.Modifiers, ",") != "const" {
		t.Errorf("MAX_ITEMS sig %+v", s.Signature)
	}
	if s := symbolOf(t, f, "handler_class"); s.Signature.Returns != "type[Handler]" {
		t.Errorf("handler_class returns %q", s.Signature.Returns)
	}
	item := symbolOf(t, f, "Item")
	if item.Doc != "An item." || strings.Join(item.Signature.Bases, ",") != "Base" {
		t.Errorf("Item doc %q bases %v", item.Doc, item.Signature.Bases)
	}
	if got := strings.Join(item.Signature.Modifiers, ","); got != "metaclass=Meta,dataclass" {
		t.Errorf("Item modifiers %q", got)
	}
	var fields []string
	for _, p := range item.Signature.Fields {
		fields = append(fields, p.Name+":"+p.Type)
	}
	if got := strings.Join(fields, " "); got != `sku:str qty:int count:int repo:"Repo" clock:SystemClock store:make_store() _secret:int` {
		t.Errorf("Item fields %s", got)
	}
	if s := symbolOf(t, f, "Base"); strings.Join(s.Signature.Modifiers, ",") != "abstract" {
		t.Errorf("Base modifiers %v", s.Signature.Modifiers)
	}
	if s := symbolOf(t, f, "Base.run"); strings.Join(s.Signature.Modifiers, ",") != "abstractmethod,abstract" {
		t.Errorf("Base.run modifiers %v", s.Signature.Modifiers)
	}
	init := symbolOf(t, f, "Item.__init__")
	var params []string
	for _, p := range init.Signature.Params {
		params = append(params, fmt.Sprintf("%s:%s=%s/%v/%v", p.Name, p.Type, p.Default, p.Variadic, p.Optional))
	}
	if got := strings.Join(params, " "); got != `self:=/false/false sku:str=/false/false *args:=/true/false repo:"Repo"=None/false/true **kw:=/true/false` {
		t.Errorf("__init__ params %s", got)
	}
	if init.Signature.Returns != "None" || init.Signature.Text != `def __init__(self, sku: str, *args, repo: "Repo" = None, **kw) -> None` {
		t.Errorf("__init__ sig %q returns %q", init.Signature.Text, init.Signature.Returns)
	}
	parse := symbolOf(t, f, "Item.parse")
	params = params[:0]
	for _, p := range parse.Signature.Params {
		params = append(params, p.Name)
	}
	if strings.Join(params, " ") != "text / * strict" || strings.Join(parse.Signature.Modifiers, ",") != "staticmethod" {
		t.Errorf("parse params %v modifiers %v", params, parse.Signature.Modifiers)
	}
	total := symbolOf(t, f, "Item.total")
	if total.Doc != "The total." || total.Signature.Returns != "float" || total.Signature.Modifiers[0] != "property" {
		t.Errorf("total %+v doc %q", total.Signature, total.Doc)
	}
	make := symbolOf(t, f, "make")
	if make.Signature.Modifiers[0] != "async" || make.Signature.Returns != `"Item"` || make.Signature.Params[0].Default != "2" {
		t.Errorf("make %+v", make.Signature)
	}
	if s := symbolOf(t, f, "first"); strings.Join(s.Signature.Generics, ",") != "T" {
		t.Errorf("first generics %v", s.Signature.Generics)
	}
	if s := symbolOf(t, f, "Item"); s.Range.StartLine != 26 {
		t.Errorf("a decorated class starts at its decorator: line %d", s.Range.StartLine)
	}
}

func TestAllUnknown(t *testing.T) {
	f := extractLoose(t, "m.py", "from x import names\n__all__ = names + ['a']\ndef a(): pass\ndef b(): pass\ndef _c(): pass\n")
	if !symbolOf(t, f, "a").Exported || !symbolOf(t, f, "b").Exported || symbolOf(t, f, "_c").Exported {
		t.Error("a computed __all__ must not restrict the exported names")
	}
	f = extractLoose(t, "m.py", "__all__ = ['a']\n__all__ += ['b']\ndef a(): pass\ndef b(): pass\ndef c(): pass\n")
	if !symbolOf(t, f, "a").Exported || !symbolOf(t, f, "b").Exported || symbolOf(t, f, "c").Exported {
		t.Error("__all__ += must add names")
	}
}

func TestTestSymbols(t *testing.T) {
	f := extractLoose(t, "pkg/checks.py", `
import unittest

def test_thing():
    pass

def helper():
    pass

class TestCase(unittest.TestCase):
    def test_a(self):
        pass
    def helper(self):
        pass
`)
	if f.IsTest {
		t.Error("pkg/checks.py is no test file")
	}
	for q, want := range map[string]bool{"test_thing": true, "helper": false, "TestCase": true, "TestCase.test_a": true, "TestCase.helper": false} {
		if got := symbolOf(t, f, q).IsTest; got != want {
			t.Errorf("%s IsTest %v, want %v", q, got, want)
		}
	}
	f = extractLoose(t, "tests/test_x.py", "def util():\n    pass\n")
	if !f.IsTest || !symbolOf(t, f, "util").IsTest {
		t.Error("everything in a test file is test code")
	}
}

func TestImports(t *testing.T) {
	f := extractLoose(t, "pkg/mod.py", `
from __future__ import annotations
import os
import os.path
import a.b as c, d
from a.b import x, y as z
from . import sibling
from .. import parent_name
from ..pkg2.mod import (
    thing,
)
from .sub import *
from a . b import spaced

def f():
    import json
    from .lazy import late as l
`)
	var got []string
	for _, imp := range f.Imports {
		s := fmt.Sprintf("%d@%s %s", imp.Line, f.Symbols[imp.Symbol].Name, imp.Source)
		if imp.Alias != "" {
			s += " as " + imp.Alias
		}
		for _, n := range imp.Names {
			s += " " + n.Name
			if n.Alias != "" {
				s += ":" + n.Alias
			}
		}
		got = append(got, s)
	}
	want := []string{
		"3@pkg.mod os",
		"4@pkg.mod os.path",
		"5@pkg.mod a.b as c",
		"5@pkg.mod d",
		"6@pkg.mod a.b x y:z",
		"7@pkg.mod . sibling",
		"8@pkg.mod .. parent_name",
		"9@pkg.mod ..pkg2.mod thing",
		"12@pkg.mod .sub *",
		"13@pkg.mod a.b spaced",
		"16@f json",
		"17@f .lazy late:l",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("imports:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRefs(t *testing.T) {
	f := extractLoose(t, "shop/store.py", `
import logging
from .repo import Repo

log = logging.getLogger(__name__)


class Store(Base):
    def __init__(self, repo: Repo, clock=None):
        super().__init__()
        self.repo = repo
        self.items = []

    def save(self, order: "Order", cb) -> None:
        if order is None:
            raise ValueError("no order")
        if not order.lines:
            return
        assert self.repo is not None
        self.repo.save(order)
        self.repo.conn().commit()
        order.validate()
        cb(order)
        total = compute(order)
        total.round()
        client = Client(timeout=3)
        client.send(order)
        "-".join(order.lines)
        self.items.append(order)
        log.info("saved")
        for client in []:
            client.close()
        data = make().payload
        data.strip()
        raise StoreError(order)

    @classmethod
    def create(cls, path):
        store = cls(Repo(path))
        with open(path) as fh:
            fh.read()
        try:
            pass
        except KeyError as e:
            e.describe()
        return store

    @util.timed
    @total.setter
    def total(self):
        return [x.value() for x in self.items]
`)
	refs := refs(f)
	has(t, refs,
		"log: call logging.getLogger",
		"Store: extends Base",
		"Store.__init__: call super().__init__ [Store]",
		"Store.save: call self.repo.save [Store]",
		"Store.save: call self.repo.conn [Store]",
		"Store.save: call self.repo.conn().commit [Store] {self.repo.conn}",
		`Store.save: call order.validate ["Order"]`,
		"Store.save: call compute",
		"Store.save: call total.round {compute}",
		"Store.save: new Client",
		"Store.save: call client.send [Client]",
		`Store.save: call "-".join [str]`,
		"Store.save: call self.items.append [Store]",
		"Store.save: call log.info {logging.getLogger}",
		"Store.save: call client.close",
		"Store.save: call make",
		"Store.save: new StoreError",
		"Store.create: new Store",
		"Store.create: new Repo",
		"Store.create: call open",
		"Store.create: call fh.read {open}",
		"Store.create: call e.describe [KeyError]",
		"Store.total: call util.timed",
		"Store.total: call x.value [self.items[*]]", // an element of the field, which the resolver reads
	)
	lacks(t, refs, "Store.save: call cb", "Store.total: call total.setter")
	save := symbolOf(t, f, "Store.save")
	var inv []string
	for _, fact := range save.Invariants {
		inv = append(inv, fact.Kind+": "+fact.Text)
	}
	want := []string{
		"guard: if order is None then raise ValueError",
		"guard: if not order.lines then return",
		"assert: assert self.repo is not None",
		"raises: raises StoreError",
	}
	if strings.Join(inv, "\n") != strings.Join(want, "\n") {
		t.Errorf("invariants:\n%s\nwant:\n%s", strings.Join(inv, "\n"), strings.Join(want, "\n"))
	}
	var effects []string
	for _, e := range symbolOf(t, f, "Store.create").SideEffects {
		effects = append(effects, e.Kind)
	}
	if strings.Join(effects, ",") != "fs" {
		t.Errorf("create effects %v", effects)
	}
}

func TestSyntaxError(t *testing.T) {
	f := extractLoose(t, "broken.py", `
def fine():
    return helper()

def broken(item):
    if item.check() != ""
        return item.total
    return 0

class StillHere:
    def method(self):
        return fine()
`)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax error reported")
	}
	for _, q := range []string{"fine", "broken", "StillHere", "StillHere.method"} {
		symbolOf(t, f, q)
	}
	has(t, refs(f), "fine: call helper", "broken: call item.check", "StillHere.method: call fine")
}

func TestHostileInput(t *testing.T) {
	// a generated chain of calls: every call is a reference, none may copy
	// the whole chain
	f := extractLoose(t, "chain.py", "x = a"+strings.Repeat(".b()", 20000)+"\n")
	for _, r := range f.Refs {
		if len(r.Qualifier) > 200 || len(r.QualifierCall) > 200 {
			t.Fatalf("qualifier of %d bytes", len(r.Qualifier)+len(r.QualifierCall))
		}
	}
	for _, src := range []string{
		strings.Repeat("(", 5000) + strings.Repeat(")", 5000),
		"x = " + strings.Repeat("[", 3000) + strings.Repeat("]", 3000),
		strings.Repeat("a.", 5000) + "b()",
		"def f(:\n" + strings.Repeat("  class\n", 200),
		"\x00\xff\xfe",
		"",
	} {
		extractLoose(t, "h.py", src)
	}
}

func TestRelativeModules(t *testing.T) {
	for _, c := range []struct{ path, module, src, want string }{
		{"a/b/c.py", "a.b.c", ".x", "a.b.x"},
		{"a/b/c.py", "a.b.c", "..x.y", "a.x.y"},
		{"a/b/__init__.py", "a.b", ".x", "a.b.x"},
		{"a/b/__init__.py", "a.b", "..", "a"},
		{"a/b/c.py", "a.b.c", ".", "a.b"},
		{"c.py", "c", ".x", "x"},
		{"c.py", "c", "..x", ""},
		{"a/b.py", "a.b", "abs.mod", "abs.mod"},
	} {
		got, _, _ := absModule(&lang.FileInfo{Path: c.path, Module: c.module}, c.src)
		if got != c.want {
			t.Errorf("%s from %s: %q, want %q", c.src, c.path, got, c.want)
		}
	}
}

func TestCleanType(t *testing.T) {
	for in, want := range map[string]string{
		"Foo":                      "Foo",
		`"Foo"`:                    "Foo",
		"Optional[Foo]":            "Foo",
		"typing.Optional[mod.Foo]": "mod.Foo",
		"Foo | None":               "Foo",
		"None | Foo":               "Foo",
		"Union[Foo, None]":         "Foo",
		"Union[Foo, Bar]":          "",
		"Foo | Bar":                "",
		"list[Foo]":                "list",
		"dict[str, Foo]":           "dict",
		"ClassVar[Foo]":            "Foo",
		"type[Foo]":                "Foo",
		"Generic[T]":               "Generic",
		"Callable[[int], str]":     "Callable",
		"make()":                   "make()",
	} {
		if got := cleanType(in); got != want {
			t.Errorf("pyCleanType(%q) = %q, want %q", in, got, want)
		}
	}
}

// A comment among the parameters stays out of the signature: on one line it
// would run into the parameters after it.
func TestSignatureLeavesCommentsOut(t *testing.T) {
	f := langtest.Extract(t, "pkg/bar.py", `class Bar:
    def __init__(self, iterable=None,
                 ascii=None,  # pylint: disable=redefined-builtin
                 disable=False):
        pass
`)
	got := langtest.Sym(t, f, "Bar.__init__").Signature.Text
	if want := "def __init__(self, iterable=None, ascii=None, disable=False)"; got != want {
		t.Errorf("signature %q, want %q", got, want)
	}
}

// Names bound by unpacking at module or class level are symbols, as ctags
// has them: celery's worker modules bind "debug, info, error = logger.debug,
// logger.info, logger.error" and call debug() throughout.
func TestUnpackedNames(t *testing.T) {
	f := langtest.Extract(t, "pkg/term.py", `import logging
logger = logging.getLogger(__name__)
BLACK, RED, GREEN = range(3)
debug, info = (logger.debug,  # the bound methods
               logger.info)
(x, [y, *rest]) = 1, [2, 3, 4]


class App:
    IS_macOS, IS_WINDOWS = Platform(), False

    def run(self):
        a, b = 1, 2
        return a + b
`)
	for _, q := range []string{"BLACK", "RED", "GREEN", "debug", "info", "x", "y", "rest", "App.IS_macOS", "App.IS_WINDOWS"} {
		if s := langtest.Sym(t, f, q); s.Kind != lang.KindVariable {
			t.Errorf("%s: kind %s", q, s.Kind)
		}
	}
	if got := langtest.Sym(t, f, "App.IS_macOS").Signature.Returns; got != "Platform" {
		t.Errorf("App.IS_macOS: type %q, want Platform (its element of the value)", got)
	}
	if got := langtest.Sym(t, f, "debug").Signature.Text; got != "debug, info = (logger.debug, logger.info)" {
		t.Errorf("debug: signature %q, want the statement without its comment", got)
	}
	if got := langtest.Sym(t, f, "RED").Signature.Returns; got != "" {
		t.Errorf("RED: type %q, want none (an element of range(3))", got)
	}
	for _, s := range f.Symbols {
		if s.Name == "a" || s.Name == "b" {
			t.Errorf("a method's local %s is a symbol", s.Qualified())
		}
	}
}

// Python 3.12's type statement defines a type: "type Vector = list[float]"
// was no symbol, so an import or annotation of Vector bound to nothing.
func TestTypeAliasStatement(t *testing.T) {
	f := langtest.Extract(t, "pkg/vec.py", `from dataclasses import dataclass

# A list of coordinates.
type Vector = list[float]


class Grid:
    type Cell[T] = tuple[T, T]

    def run(self):
        type Local = int
        return Local
`)
	v := langtest.Sym(t, f, "Vector")
	if v.Kind != lang.KindType || v.Signature.Text != "type Vector = list[float]" || v.Signature.Returns != "list[float]" || v.Doc != "A list of coordinates." {
		t.Errorf("Vector: kind %s, signature %q, type %q, doc %q", v.Kind, v.Signature.Text, v.Signature.Returns, v.Doc)
	}
	if c := langtest.Sym(t, f, "Grid.Cell"); c.Kind != lang.KindType {
		t.Errorf("Grid.Cell: kind %s", c.Kind)
	}
	for _, s := range f.Symbols {
		if s.Name == "Local" {
			t.Errorf("a function's local type alias is a symbol: %s", s.Qualified())
		}
	}
}

// TestPlaces: where a definition is decides whether it makes a symbol and
// of which kind: an assignment is a variable outside functions only, and
// in a class inside one; a name assigned after its def is the def's; a
// decorated definition starts at its decorator; and code the parser could
// not place (a damaged copy of scrapy's DataURIDownloadHandler, whose
// method lies in an ERROR before the class body) still makes its symbols,
// in the order of the source.
func TestPlaces(t *testing.T) {
	src := `import os

@decorate
def f(x=0):
    import json
    y = 1
    class Local:
        z = 2
    type T = int
    return y

f = wrap(f)
a, b = 1, 2
c = d = 3

class DataURIDownloadHandler(BaseDownloadHandler):
    async def download_request(self, request: Request) -> Response:
        uri = parse_data_uri(request.url)
        respcls = responsetypes.from_mimetype(uri.media_type)

        if issubclass(respcls, TextResponse) and uri.
    media_type.split("/")[0] == "text":
            charset = uri.media_type_parameters.get("charset")
            return respcls(url=request.url, body=uri.data, encoding=charset)

        return respcls(url=request.url, body=uri.data)
`
	f := extractLoose(t, "m.py", src)
	var got []string
	for _, s := range f.Symbols[1:] {
		got = append(got, fmt.Sprintf("%s %s %d", s.Kind, s.Qualified(), s.Range.StartLine))
	}
	want := []string{"function f 3", "class f.Local 7", "variable f.Local.z 8", "variable a 13", "variable b 13",
		"variable c 14", "variable d 14", "class DataURIDownloadHandler 16",
		"method DataURIDownloadHandler.download_request 17", "variable DataURIDownloadHandler.charset 23"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	langtest.WantAll(t, langtest.Refs(f), "f call wrap", "f call decorate")
	langtest.WantAll(t, langtest.Imports(f), "os@1", "json@5")
	if imp := f.Imports[len(f.Imports)-1]; f.Symbols[imp.Symbol].Name != "f" {
		t.Errorf("import json made in %s, want f", f.Symbols[imp.Symbol].Name)
	}
}
