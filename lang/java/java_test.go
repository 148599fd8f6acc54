package java

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

func extractLoose(t *testing.T, filePath, src string) *lang.FileFacts {
	t.Helper()
	p := lang.NewParser()
	defer p.Close()
	f, err := lang.Extract(p, lang.ByName("java"), filePath, []byte(src))
	if err != nil {
		t.Fatal(err)
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

const shopSrc = `package com.example.shop;

import java.util.List;
import java.util.*;
import static java.util.Objects.requireNonNull;
import static org.junit.Assert.*;

/**
 * A shop.
 * Sells things.
 */
@Deprecated
public abstract class Shop<T extends Comparable<T>> extends Base<T> implements Named, Sized<T> {
    /** The most items. */
    public static final int MAX = 3, MIN = 1;
    protected List<String> names = new ArrayList<>();
    private Inventory inv;

    public Shop(int size, String... rest) throws java.io.IOException, ShopException {
        super(size);
        this.reset();
    }

    Shop() {
        this(0);
    }

    // Sells one item.
    @Override
    public synchronized <R> R sell(final Map<String, R> prices, int[] counts) throws ShopException {
        return null;
    }

    protected abstract void restock();

    private static class Ledger {
        void post() {}
    }

    class Till {}
}

interface Named {
    String name();
    default String label() { return name(); }
    int LIMIT = 10;
}

record Point(int x, int y) implements Named {
    Point {
        if (x < 0) throw new IllegalArgumentException("x");
    }
    public String name() { return "p"; }
}

enum Color { RED, GREEN { void glow() {} }; Color() {} }

@interface Audited { String value() default ""; }
`

func TestSymbols(t *testing.T) {
	f := extractLoose(t, "src/main/java/com/example/shop/Shop.java", shopSrc)
	if f.Module != "com.example.shop" || f.Symbols[0].Name != "com.example.shop" {
		t.Errorf("module %q, module symbol %q", f.Module, f.Symbols[0].Name)
	}
	if f.IsTest {
		t.Error("main file marked as a test")
	}
	shop := symbolOf(t, f, "Shop")
	if shop.Kind != lang.KindClass || !shop.Exported || shop.Visibility != lang.VisPublic {
		t.Errorf("Shop: %s %v %s", shop.Kind, shop.Exported, shop.Visibility)
	}
	if got := strings.Join(shop.Signature.Bases, ","); got != "Base<T>,Named,Sized<T>" {
		t.Errorf("bases %q", got)
	}
	if got := strings.Join(shop.Signature.Generics, ","); got != "T extends Comparable<T>" {
		t.Errorf("generics %q", got)
	}
	if got := strings.Join(shop.Signature.Modifiers, ","); got != "@Deprecated,abstract" {
		t.Errorf("modifiers %q", got)
	}
	if shop.Doc != "A shop.\nSells things." {
		t.Errorf("doc %q", shop.Doc)
	}
	var fields []string
	for _, p := range shop.Signature.Fields {
		fields = append(fields, p.Name+":"+p.Type)
	}
	if got := strings.Join(fields, ","); got != "MAX:int,MIN:int,names:List<String>,inv:Inventory" {
		t.Errorf("fields %q", got)
	}

	max := symbolOf(t, f, "Shop.MAX")
	if max.Kind != lang.KindVariable || max.Signature.Returns != "int" || max.Doc != "The most items." ||
		strings.Join(max.Signature.Modifiers, ",") != "static,final" || max.Visibility != lang.VisPublic {
		t.Errorf("MAX: %+v", max)
	}
	if v := symbolOf(t, f, "Shop.names"); v.Visibility != lang.VisProtected || v.Exported {
		t.Errorf("names: %s %v", v.Visibility, v.Exported)
	}
	if v := symbolOf(t, f, "Shop.inv"); v.Visibility != lang.VisPrivate {
		t.Errorf("inv: %s", v.Visibility)
	}

	ctor := symbolOf(t, f, "Shop.Shop")
	if ctor.Kind != lang.KindConstructor || len(ctor.Signature.Params) != 2 {
		t.Fatalf("constructor: %+v", ctor)
	}
	if p := ctor.Signature.Params[1]; p.Name != "rest" || p.Type != "String..." || !p.Variadic {
		t.Errorf("varargs param %+v", p)
	}
	if got := strings.Join(ctor.Signature.Modifiers, ","); got != "throws java.io.IOException,throws ShopException" {
		t.Errorf("throws %q", got)
	}
	var pkgCtor *lang.Symbol
	for i := range f.Symbols {
		if f.Symbols[i].Kind == lang.KindConstructor && f.Symbols[i].Visibility == lang.VisInternal {
			pkgCtor = &f.Symbols[i]
		}
	}
	if pkgCtor == nil || pkgCtor.Exported {
		t.Error("package-private constructor not found")
	}

	sell := symbolOf(t, f, "Shop.sell")
	if sell.Kind != lang.KindMethod || sell.Signature.Returns != "R" || strings.Join(sell.Signature.Generics, ",") != "R" {
		t.Errorf("sell: %+v", sell.Signature)
	}
	if got := strings.Join(sell.Signature.Modifiers, ","); got != "@Override,synchronized,throws ShopException" {
		t.Errorf("sell modifiers %q", got)
	}
	if ps := sell.Signature.Params; len(ps) != 2 || ps[0].Name != "prices" || ps[0].Type != "Map<String, R>" || ps[1].Type != "int[]" {
		t.Errorf("sell params %+v", ps)
	}
	if sell.Doc != "Sells one item." {
		t.Errorf("sell doc %q", sell.Doc)
	}
	if r := symbolOf(t, f, "Shop.restock"); strings.Join(r.Signature.Modifiers, ",") != "abstract" || r.Visibility != lang.VisProtected {
		t.Errorf("restock: %+v", r)
	}
	ledger := symbolOf(t, f, "Shop.Ledger")
	if ledger.Kind != lang.KindClass || ledger.Visibility != lang.VisPrivate || f.Symbols[ledger.Parent].Name != "Shop" {
		t.Errorf("Ledger: %+v", ledger)
	}
	symbolOf(t, f, "Shop.Ledger.post")
	symbolOf(t, f, "Shop.Till")

	named := symbolOf(t, f, "Named")
	if named.Kind != lang.KindInterface || named.Exported {
		t.Errorf("Named: %s %v", named.Kind, named.Exported)
	}
	// interface members are public without saying so
	if m := symbolOf(t, f, "Named.name"); !m.Exported || m.Kind != lang.KindMethod {
		t.Errorf("Named.name: %+v", m)
	}
	if m := symbolOf(t, f, "Named.label"); strings.Join(m.Signature.Modifiers, ",") != "default" {
		t.Errorf("label modifiers %v", m.Signature.Modifiers)
	}
	if v := symbolOf(t, f, "Named.LIMIT"); !v.Exported || v.Signature.Returns != "int" {
		t.Errorf("LIMIT: %+v", v)
	}

	point := symbolOf(t, f, "Point")
	if point.Kind != lang.KindClass || strings.Join(point.Signature.Modifiers, ",") != "record" || len(point.Signature.Fields) != 2 {
		t.Errorf("Point: %+v", point.Signature)
	}
	if x := symbolOf(t, f, "Point.x"); x.Kind != lang.KindVariable || x.Signature.Returns != "int" {
		t.Errorf("Point.x: %+v", x)
	}
	if c := symbolOf(t, f, "Point.Point"); c.Kind != lang.KindConstructor || len(c.Signature.Params) != 2 || len(c.Invariants) != 1 {
		t.Errorf("compact constructor: %+v %+v", c.Signature, c.Invariants)
	}

	color := symbolOf(t, f, "Color")
	if strings.Join(color.Signature.Modifiers, ",") != "enum" {
		t.Errorf("Color modifiers %v", color.Signature.Modifiers)
	}
	if g := symbolOf(t, f, "Color.GREEN"); g.Kind != lang.KindVariable || g.Signature.Returns != "Color" {
		t.Errorf("GREEN: %+v", g)
	}
	for _, s := range f.Symbols {
		if s.Name == "glow" {
			t.Error("a method of an enum constant's body is a symbol")
		}
	}
	symbolOf(t, f, "Color.Color")
	if a := symbolOf(t, f, "Audited"); a.Kind != lang.KindInterface {
		t.Errorf("Audited: %s", a.Kind)
	}
	if v := symbolOf(t, f, "Audited.value"); v.Kind != lang.KindMethod || v.Signature.Returns != "String" || !v.Exported {
		t.Errorf("Audited.value: %+v", v)
	}
}

func TestImports(t *testing.T) {
	f := extractLoose(t, "Shop.java", shopSrc)
	var got []string
	for _, imp := range f.Imports {
		s := imp.Source
		for _, n := range imp.Names {
			s += " " + n.Name
		}
		got = append(got, fmt.Sprintf("%s@%d", s, imp.Line))
	}
	want := "java.util.List@3,java.util *@4,java.util.Objects requireNonNull@5,org.junit.Assert *@6"
	if strings.Join(got, ",") != want {
		t.Errorf("imports %s, want %s", strings.Join(got, ","), want)
	}
}

func TestTestFiles(t *testing.T) {
	for p, want := range map[string]bool{
		"src/test/java/a/Foo.java":         true,
		"module/src/test/java/a/Foo.java":  true,
		"src/main/java/a/FooTest.java":     true,
		"src/main/java/a/FooTests.java":    true,
		"src/main/java/a/FooIT.java":       true,
		"src/main/java/a/TestFoo.java":     true,
		"src/main/java/a/Testimonial.java": false,
		"src/main/java/a/Foo.java":         false,
	} {
		if got := lang.IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%s) = %v", p, got)
		}
	}
	f := extractLoose(t, "src/main/java/a/Util.java", `package a;
class Util {
    @Test void works() {}
    @org.junit.jupiter.params.ParameterizedTest void many() {}
    void helper() {}
}`)
	if !symbolOf(t, f, "Util.works").IsTest || !symbolOf(t, f, "Util.many").IsTest || symbolOf(t, f, "Util.helper").IsTest {
		t.Error("test methods by annotation")
	}
	if f.Module != "a" {
		t.Errorf("module %q", f.Module)
	}
	g := extractLoose(t, "src/test/java/a/UtilTest.java", "class UtilTest { void helper() {} }")
	if !g.IsTest || !symbolOf(t, g, "UtilTest.helper").IsTest || g.Module != "" {
		t.Errorf("test file: %v %q", g.IsTest, g.Module)
	}
}

func TestRefs(t *testing.T) {
	f := extractLoose(t, "A.java", `package p;
class A extends B implements I, J<String> {
    private Store store;
    private static final Helper HELPER = Helper.create();

    A(int n) { super(n); }
    A() { this(1); }

    void run(Item item, Map<String, Item> byName) {
        bare();
        this.bare();
        super.base();
        item.price();
        store.items().first();
        this.store.save();
        HELPER.help();
        Util.check(item);
        Item local = new Item();
        local.total();
        var made = new Widget(1);
        made.spin();
        var got = store.find("x");
        got.open();
        got.next().close();
        ((Widget) thing).spin();
        "s".length();
        new Builder().name("a").build();
        byName.get("a").price();
        list.forEach(Item::price);
        list.map(this::convert);
        Runnable r = () -> lambdaCall();
        new Thread() {
            public void run() { inner(); }
        };
        for (Item it : items) { it.price(); }
        try (Reader rd = open()) { rd.read(); } catch (IOException e) { e.getMessage(); }
        if (o instanceof Widget w) { w.spin(); }
        java.util.Objects.hash(1);
        Outer.Inner.make();
        new Outer.Inner();
    }

    <T extends Widget> void generic(T t, E e) {
        t.spin();
    }
}`)
	langtest.WantAll(t, langtest.Refs(f),
		"A extends B",
		"A implements I",
		"A implements J",
		"A.HELPER call Helper.create",
		"A.A call super.B",
		"A.A call this.A [A]",
		"A.run call bare",
		"A.run call this.bare [A]",
		"A.run call super.base",
		"A.run call item.price [Item]",
		"A.run call store.items [Store]",
		"A.run call store.items().first [Store] {store.items}",
		"A.run call this.store.save [A]",
		"A.run call HELPER.help [Helper]",
		"A.run call Util.check",
		"A.run new Item",
		"A.run call local.total [Item]",
		"A.run new Widget",
		"A.run call made.spin [Widget]",
		"A.run call store.find [Store]",
		"A.run call got.open [Store] {store.find}",
		"A.run call got.next [Store] {store.find}",
		"A.run call got.next().close [Store] {store.find().next}",
		"A.run call ((Widget) thing).spin [Widget]",
		`A.run call "".length [String]`,
		"A.run new Builder",
		"A.run call new Builder().name [Builder]",
		"A.run call new Builder().name().build [Builder] {new Builder().name}",
		"A.run call byName.get().price [Map] {byName.get}",
		"A.run call Item.price",
		"A.run call this.convert [A]",
		"A.run call lambdaCall",
		"A.run new Thread",
		"A.run call inner [Thread]",
		"A.run call it.price [Item]",
		"A.run call rd.read [Reader]",
		"A.run call e.getMessage [IOException]",
		"A.run call w.spin [Widget]",
		"A.run call java.util.Objects.hash",
		"A.run call Outer.Inner.make",
		"A.run new Outer.Inner",
		"A.generic call t.spin [Widget]",
	)
	for _, s := range f.Symbols {
		if s.Name == "inner" || s.Kind == lang.KindFunction {
			t.Errorf("anonymous class member became a symbol: %s", s.Qualified())
		}
	}
}

func TestGuardsAndThrows(t *testing.T) {
	f := extractLoose(t, "G.java", `class G {
    int f(String s, int n) {
        Objects.requireNonNull(s, "s");
        this.s = Objects.requireNonNull(s);
        Preconditions.checkArgument(n > 0, "n");
        assert n < 100 : "big";
        if (s.isEmpty()) return 0;
        if (n == 1) {
            throw new IllegalStateException("one");
        }
        if (n == 2) { return 2; } else { return 3; }
        while (true) {
            if (n == 3) return 3;
        }
        throw new UnsupportedOperationException();
    }
}`)
	m := symbolOf(t, f, "G.f")
	var got []string
	for _, fct := range m.Invariants {
		got = append(got, fct.Kind+": "+fct.Text)
	}
	want := []string{
		"guard: if s == null then throw",
		"guard: if s == null then throw",
		"guard: if !(n > 0) then throw",
		"guard: if !(n < 100) then throw",
		"guard: if s.isEmpty() then return 0",
		"guard: if n == 1 then throw",
		"throws: throws UnsupportedOperationException",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("invariants:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSideEffects(t *testing.T) {
	f := extractLoose(t, "E.java", `class E {
    void io() throws Exception {
        Files.readString(path);
        new FileOutputStream("x");
        String home = System.getenv("HOME");
        new ProcessBuilder("ls").start();
        System.exit(1);
    }
}`)
	var kinds []string
	for _, e := range symbolOf(t, f, "E.io").SideEffects {
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, ","); got != "fs.read,fs.write,env,process,exit" {
		t.Errorf("side effects %s", got)
	}
}

func TestLocalClassAndDocs(t *testing.T) {
	f := extractLoose(t, "L.java", `class L {
    int x; // trailing comment, not a doc

    void m() {
        class Local {
            void lm() { helper(); }
        }
        new Local().lm();
    }

    /* a plain block comment */
    void n() {}
}`)
	local := symbolOf(t, f, "L.m.Local")
	if local.Kind != lang.KindClass || f.Symbols[local.Parent].Qualified() != "L.m" {
		t.Errorf("local class parent %d", local.Parent)
	}
	symbolOf(t, f, "L.m.Local.lm")
	if d := symbolOf(t, f, "L.m").Doc; d != "" {
		t.Errorf("a trailing comment became a doc: %q", d)
	}
	if d := symbolOf(t, f, "L.n").Doc; d != "" {
		t.Errorf("a plain block comment became a doc: %q", d)
	}
	langtest.WantAll(t, langtest.Refs(f), "L.m.Local.lm call helper", "L.m new Local", "L.m call new Local().lm [Local]")
}

func TestBrokenInput(t *testing.T) {
	src := `package a;
import b.C;
public class Broken {
    public int fine(Item item) { return item.gross(); }
    public void broken( {
        int x = ;
        fine(null);
    }
    public String after() { return fine(null) + ""; }
}`
	f := extractLoose(t, "Broken.java", src)
	if len(f.Errors) == 0 {
		t.Error("no syntax errors reported")
	}
	symbolOf(t, f, "Broken.fine")
	symbolOf(t, f, "Broken.after")
	langtest.WantAll(t, langtest.Refs(f), "Broken.fine call item.gross [Item]", "Broken.after call fine")

	// every prefix of a file, and deep nesting, must extract without
	// panicking
	full := shopSrc + src
	p := lang.NewParser()
	defer p.Close()
	for i := 0; i < len(full); i += 7 {
		if _, err := lang.Extract(p, lang.ByName("java"), "X.java", []byte(full[:i])); err != nil {
			t.Fatal(err)
		}
	}
	deep := "class D { void m() { int x = " + strings.Repeat("(", 3000) + "1" + strings.Repeat(")", 3000) +
		"; a" + strings.Repeat(".b()", 2000) + "; " + strings.Repeat("new A() { void f() { ", 200) +
		strings.Repeat("} };", 200) + " } }"
	if _, err := lang.Extract(p, lang.ByName("java"), "D.java", []byte(deep)); err != nil {
		t.Fatal(err)
	}
}

// TestPlaces: which declarations are symbols where the query finds them:
// a type's members, and methods outside every symbol (a script's, one in
// an anonymous class there), which are functions; a method of an
// anonymous class in a symbol's code is none, nor a field outside a type.
func TestPlaces(t *testing.T) {
	src := `package p;
import q.R;
Runnable r2 = new Runnable() {
    public void run() { go(); }
};
void helper() {
    Object o = new Object() { public String toString() { return ""; } };
}
class Ok {
    void m() {}
    int x = ;
    public Ok() { }
}`
	f := extractLoose(t, "Script.java", src)
	var got []string
	for _, s := range f.Symbols[1:] {
		got = append(got, s.Kind+" "+s.Qualified())
	}
	want := []string{"function run", "function helper", "class Ok", "method Ok.m", "variable Ok.x", "constructor Ok.Ok"}
	if !slices.Equal(got, want) {
		t.Errorf("symbols %q, want %q", got, want)
	}
	langtest.WantAll(t, langtest.Refs(f), "run call go")
}

// testTable is the txtar runner's table (fixtureTable) over a few
// Java files parsed in the test.
type testTable struct{ *langtest.Table }

func newTestTable(t *testing.T, files map[string]string) (*testTable, map[string]*lang.FileFacts) {
	t.Helper()
	srcs := map[string][]byte{}
	for p, src := range files {
		srcs[p] = []byte(src)
	}
	tab := langtest.NewTable(t, srcs)
	return &testTable{tab}, tab.Facts
}

func testTarget(p string, f *lang.FileFacts, i int) *lang.Target {
	return langtest.Target(p, f, i)
}

// resolveAll resolves every reference and import of the files and renders
// each as "path: from kind qualifier.name -> target (rule)".
func (tab *testTable) resolveAll(facts map[string]*lang.FileFacts) []string {
	l := lang.ByName("java")
	var out []string
	for p, f := range facts {
		ctx := &lang.Context{File: tab.Files[p], Table: tab}
		render := func(res lang.Resolution) string {
			if res.Target == nil {
				return "? (" + res.Rule + ")"
			}
			tq := res.Target.Qualified()
			if res.Target.Kind == lang.KindModule {
				tq = "<module " + res.Target.Name + ">"
			}
			return res.Target.Path + ":" + tq + " (" + res.Rule + ")"
		}
		for i := range f.Imports {
			imp := &f.Imports[i]
			names := []string{""}
			if len(imp.Names) > 0 {
				names = []string{imp.Names[0].Name}
			}
			for _, n := range names {
				out = append(out, strings.TrimSpace(fmt.Sprintf("%s: import %s %s", p, imp.Source, n))+" -> "+render(l.ResolveImport(ctx, imp, n)))
			}
		}
		for i := range f.Refs {
			r := &f.Refs[i]
			ctx.From = testTarget(p, f, r.Symbol)
			q := r.Name
			if r.Qualifier != "" {
				q = r.Qualifier + "." + r.Name
			}
			from := f.Symbols[r.Symbol].Qualified()
			if r.Symbol == 0 {
				from = "<module>"
			}
			out = append(out, fmt.Sprintf("%s: %s %s %s -> %s", p, from, r.Kind, q, render(l.Resolve(ctx, r))))
		}
	}
	sort.Strings(out)
	return out
}

func TestResolveHostile(t *testing.T) {
	// long call chains, cyclic inheritance and self-referencing member
	// types must resolve in bounded time
	chain := "a" + strings.Repeat(".b()", 3000)
	tab, facts := newTestTable(t, map[string]string{
		"h/A.java": `package h;
class A extends B { B b() { return null; } class In extends B.In {} void m() { ` + chain + `; b().b().c(); In.x(); } }`,
		"h/B.java": `package h;
class B extends A { A b() { return null; } class In extends A.In {} }`,
		"h/C.java": `package h;
class C extends C implements C.I { interface I extends I {} void m() { n(); this.n(); super.n(); } }`,
	})
	got := tab.resolveAll(facts)
	if len(got) < 3000 {
		t.Errorf("%d resolutions", len(got))
	}
}

// A signature starts after the annotations that lead the declaration; its
// modifiers name them. commons-lang's parameterized tests carried their
// whole @CsvSource table ahead of the method's name.
func TestSignatureAfterAnnotations(t *testing.T) {
	f := langtest.Extract(t, "src/test/java/p/FractionTest.java", `package p;

@SuppressWarnings("deprecation")
public class FractionTest {
    @Deprecated
    public static final int X = 1;

    @ParameterizedTest
    @CsvSource({ "0, 37, -464320789, 46", "0, 37, -464320788, 9" })
    void testHashCodeNotEquals(final int n, final int d) { }

    /** Doc. */
    @Override // why
    public String toString() { return ""; }
}
`)
	for q, want := range map[string]string{
		"FractionTest":                       "public class FractionTest",
		"FractionTest.X":                     "public static final int X",
		"FractionTest.testHashCodeNotEquals": "void testHashCodeNotEquals(final int n, final int d)",
		"FractionTest.toString":              "public String toString()",
	} {
		if got := langtest.Sym(t, f, q).Signature.Text; got != want {
			t.Errorf("%s: signature %q, want %q", q, got, want)
		}
	}
	if mods := langtest.Sym(t, f, "FractionTest.testHashCodeNotEquals").Signature.Modifiers; !slices.Contains(mods, "@CsvSource") {
		t.Errorf("testHashCodeNotEquals: modifiers %v lack @CsvSource", mods)
	}
}
