package ruby

import (
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

const shopSrc = `require "json"
require_relative "../models/item"
load "tasks.rb"
autoload :Ledger, "shop/ledger"

module Shop
  # A store of items.
  # Keeps them by name.
  class Store < Base
    include Enumerable
    extend Forwardable
    attr_accessor :name, :items
    attr_reader :count
    MAX = 10

    def initialize(name, items = [], *rest, key:, opt: 1, **kw, &blk)
      @name = name
      @index = Index.new
      super(name)
    end

    # Adds an item.
    # @param item [Item] what to add
    # @return [Boolean]
    def add(item)
      true
    end

    def self.load(path)
      new(path)
    end

    class << self
      def build; end
    end

    protected

    def guarded; end

    private

    def helper(x) = x.to_s

    public

    def shown; end

    private def hidden; end

    def later; end
    private :later
  end
end

class Shop::Item; end

Point = Struct.new(:x, :y) do
  def sum = x + y
end

def script_helper(a)
  a
end
`

func TestSymbols(t *testing.T) {
	f := langtest.Extract(t, "lib/shop/store.rb", shopSrc)
	if f.Module != "lib/shop/store" || f.IsTest {
		t.Errorf("module %q, test %v", f.Module, f.IsTest)
	}
	shop := langtest.Sym(t, f, "Shop")
	if shop.Kind != lang.KindModule || !shop.Exported {
		t.Errorf("Shop: %+v", shop)
	}
	store := langtest.Sym(t, f, "Shop.Store")
	if store.Kind != lang.KindClass || store.Doc != "A store of items.\nKeeps them by name." {
		t.Errorf("Store: %s %q", store.Kind, store.Doc)
	}
	if got := strings.Join(store.Signature.Bases, ","); got != "Base,Enumerable,Forwardable" {
		t.Errorf("bases %q", got)
	}
	var fields []string
	for _, p := range store.Signature.Fields {
		fields = append(fields, p.Name+":"+p.Type)
	}
	if got := strings.Join(fields, ","); got != "name:,items:,count:,MAX:,@index:Index" {
		t.Errorf("fields %q", got)
	}
	for _, tc := range []struct {
		q, kind, vis, mods string
	}{
		{"Shop.Store.name", lang.KindVariable, lang.VisPublic, "attr_accessor"},
		{"Shop.Store.count", lang.KindVariable, lang.VisPublic, "attr_reader"},
		{"Shop.Store.MAX", lang.KindVariable, lang.VisPublic, "const"},
		{"Shop.Store.initialize", lang.KindConstructor, lang.VisPublic, ""},
		{"Shop.Store.add", lang.KindMethod, lang.VisPublic, ""},
		{"Shop.Store.load", lang.KindMethod, lang.VisPublic, "class"},
		{"Shop.Store.build", lang.KindMethod, lang.VisPublic, "class"},
		{"Shop.Store.guarded", lang.KindMethod, lang.VisProtected, ""},
		{"Shop.Store.helper", lang.KindMethod, lang.VisPrivate, ""},
		{"Shop.Store.shown", lang.KindMethod, lang.VisPublic, ""},
		{"Shop.Store.hidden", lang.KindMethod, lang.VisPrivate, ""},
		{"Shop.Store.later", lang.KindMethod, lang.VisPrivate, ""},
		{"Shop.Item", lang.KindClass, lang.VisPublic, ""},
		{"Point", lang.KindClass, lang.VisPublic, "struct"},
		{"Point.sum", lang.KindMethod, lang.VisPublic, ""},
		{"script_helper", lang.KindFunction, lang.VisPublic, ""},
	} {
		s := langtest.Sym(t, f, tc.q)
		if s.Kind != tc.kind || s.Visibility != tc.vis || strings.Join(s.Signature.Modifiers, ",") != tc.mods {
			t.Errorf("%s: %s %s mods %q", tc.q, s.Kind, s.Visibility, s.Signature.Modifiers)
		}
	}
	init := langtest.Sym(t, f, "Shop.Store.initialize")
	var ps []string
	for _, p := range init.Signature.Params {
		s := p.Name
		if p.Default != "" {
			s += "=" + p.Default
		}
		if p.Variadic {
			s += "..."
		}
		ps = append(ps, s)
	}
	if got := strings.Join(ps, " "); got != "name items=[] *rest... key: opt:=1 **kw... &blk" {
		t.Errorf("initialize params %q", got)
	}
	add := langtest.Sym(t, f, "Shop.Store.add")
	if add.Signature.Params[0].Type != "Item" || add.Signature.Returns != "Boolean" || !strings.HasPrefix(add.Doc, "Adds an item.") {
		t.Errorf("add: %+v %q", add.Signature, add.Doc)
	}
	if l := langtest.Sym(t, f, "Shop.Store.load"); l.Signature.Returns != "Shop::Store" {
		t.Errorf("load returns %q", l.Signature.Returns)
	}
	if p := langtest.Sym(t, f, "Point"); len(p.Signature.Fields) != 2 || p.Signature.Fields[1].Name != "y" {
		t.Errorf("Point fields %+v", p.Signature.Fields)
	}
	if got := strings.Join(langtest.Imports(f), " "); got != "json@1 ../models/item@2 tasks@3 shop/ledger names=Ledger@4" {
		t.Errorf("imports %s", got)
	}
}

func TestTestFiles(t *testing.T) {
	for p, want := range map[string]bool{
		"spec/shop/store_spec.rb": true,
		"test/test_item.rb":       true,
		"lib/shop/item_test.rb":   true,
		"lib/shop/testing.rb":     false,
		"lib/shop/store.rb":       false,
	} {
		if got := lang.IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%s) = %v", p, got)
		}
	}
	f := langtest.Extract(t, "test/test_item.rb", "class TestItem < Minitest::Test\n  def test_total; end\n  def helper; end\nend\n")
	if !f.IsTest || !langtest.Sym(t, f, "TestItem.test_total").IsTest {
		t.Error("test file and test method")
	}
}

func TestRefs(t *testing.T) {
	f := langtest.Extract(t, "a.rb", `class A < B
  include M
  def initialize
    @repo = Repo.new
  end

  def run(item, n = 1)
    item.save
    x = Widget.new
    x.spin
    c = @repo.cursor
    c.next_page
    @repo.cursor.next_page
    self.helper
    helper
    helper2 item
    local = 1
    local
    Foo::Bar.baz
    ::Top.run
    super
    items.each { |i| i.save }
    `+"`ls`"+`
    y = find(1)
    y.name
  end

  def self.make
    new
  end
end`)
	langtest.WantAll(t, langtest.Refs(f),
		"A extends B",
		"A implements M",
		"A.initialize new Repo",
		"A.run call item.save",
		"A.run new Widget",
		"A.run call x.spin [Widget]",
		"A.run call @repo.cursor [Repo]",
		"A.run call c.next_page [Repo] {@repo.cursor}", // the local keeps the head type of the call it holds
		"A.run call @repo.cursor().next_page [Repo] {@repo.cursor}",
		"A.run call self.helper [A]",
		"A.run call helper",
		"A.run call helper2",
		"A.run call Foo::Bar.baz",
		"A.run call ::Top.run",
		"A.run call super.run",
		"A.run call items",
		"A.run call items.each {items}",
		"A.run call i.save",
		"A.run call `",
		"A.run call find",
		"A.run call y.name {find}",
		"A.make new A",
	)
	for _, r := range langtest.Refs(f) {
		if strings.HasSuffix(r, "call local") || strings.HasSuffix(r, "call n") {
			t.Errorf("a local variable read as a call: %s", r)
		}
	}
	// RSpec's let names a value for the examples
	g := langtest.Extract(t, "spec/a_spec.rb", `RSpec.describe A do
  let(:a) { A.new }
  it "runs" do
    a.run
  end
end`)
	langtest.WantAll(t, langtest.Refs(g), "<module> call a.run [A]")
}

func TestGuardsAndThrows(t *testing.T) {
	f := langtest.Extract(t, "g.rb", `def m(s, n)
  raise ArgumentError, "no s" if s.nil?
  return unless n
  if n < 0
    raise RangeError
  end
  fail "bad" unless n.even?
  work
  work
  work
  raise IOError.new("x") if n > 9
end`)
	langtest.WantAll(t, langtest.FactTexts(langtest.Sym(t, f, "m").Invariants),
		"guard: if s.nil? then raise",
		"guard: if !(n) then return",
		"guard: if n < 0 then raise",
		"guard: if !(n.even?) then raise",
		"guard: if n > 9 then raise")
	g := langtest.Extract(t, "h.rb", "def m\n  work\n  work\n  work\n  [1].each { raise KeyError, \"k\" }\nend\n")
	langtest.WantAll(t, langtest.FactTexts(langtest.Sym(t, g, "m").Invariants), "raises: raises KeyError")
}

func TestSideEffects(t *testing.T) {
	f := langtest.Extract(t, "e.rb", `def m
  File.write("a", "b")
  File.read("a")
  Net::HTTP.get(URI("http://x"))
  system("ls")
  ENV.fetch("HOME")
  FileUtils.rm_rf("tmp")
  @db.execute("select 1")
  exit 1
end`)
	langtest.WantAll(t, langtest.FactTexts(langtest.Sym(t, f, "m").SideEffects),
		"fs.write: writes files", "fs.read: reads files", "network: network access", "process: starts processes",
		"env: reads environment variables", "database: database access", "exit: exits the process")
}

func TestBrokenInput(t *testing.T) {
	f := langtest.ExtractBroken(t, "b.rb", `module Shop
  class Broken
    def fine(item)
      item.gross
    end

    def half(item)
      item.gross(]
    end

    def after
      fine(nil)
    end
  end
end`)
	if len(f.Errors) == 0 {
		t.Error("no syntax errors reported")
	}
	langtest.Sym(t, f, "Shop.Broken.fine")
	langtest.Sym(t, f, "Shop.Broken.after")
	langtest.WantAll(t, langtest.Refs(f), "Shop.Broken.after call fine")
}

// TestPlaces: which definitions the query finds are symbols, and whose:
// an attribute's names; no def in a mixin's argument; a def in a
// constant's value (no struct) is its class's method, a struct's def the
// struct's; a def in a def is a function of the outer.
func TestPlaces(t *testing.T) {
	src := `module Outer
  class Host
    attr_reader :a, "b"
    prepend Module.new { def hidden_mixin; end }
    Enc = Class.new(Base) { def enc_method; end }.new
    Point = Struct.new(:x) do
      def norm; end
    end
    def m
      def inner; end
    end
  end
end
`
	f := langtest.Extract(t, "host.rb", src)
	var got []string
	for _, s := range f.Symbols[1:] {
		parent := "-"
		if s.Parent > 0 {
			parent = f.Symbols[s.Parent].Qualified()
		}
		got = append(got, s.Kind+" "+s.Qualified()+" in "+parent)
	}
	want := []string{"module Outer in -", "class Outer.Host in Outer", "variable Outer.Host.a in Outer.Host",
		"variable Outer.Host.b in Outer.Host", "variable Outer.Host.Enc in Outer.Host", "method Outer.Host.enc_method in Outer.Host",
		"class Outer.Host.Point in Outer.Host", "method Outer.Host.Point.norm in Outer.Host.Point", "method Outer.Host.m in Outer.Host",
		"function Outer.Host.m.inner in Outer.Host.m"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
