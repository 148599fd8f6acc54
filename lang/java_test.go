package lang

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"testing"
)

func javaExtract(t *testing.T, filePath, src string) *FileFacts {
	t.Helper()
	p := NewParser()
	defer p.Close()
	f, err := Extract(p, ByName("java"), filePath, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func javaSym(t *testing.T, f *FileFacts, qualified string) *Symbol {
	t.Helper()
	for i := range f.Symbols {
		if f.Symbols[i].Qualified() == qualified && f.Symbols[i].Kind != KindModule {
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

// javaRefs renders the references of a file, one string each:
// "from kind qualifier.name [type] {call}".
func javaRefs(f *FileFacts) []string {
	var out []string
	for _, r := range f.Refs {
		from := "-"
		if r.Symbol >= 0 && r.Symbol < len(f.Symbols) {
			from = f.Symbols[r.Symbol].Qualified()
			if r.Symbol == 0 {
				from = "<module>"
			}
		}
		s := from + " " + r.Kind + " "
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

func wantAll(t *testing.T, have []string, want ...string) {
	t.Helper()
	set := map[string]bool{}
	for _, h := range have {
		set[h] = true
	}
	for _, w := range want {
		if !set[w] {
			t.Errorf("missing %q in:\n  %s", w, strings.Join(have, "\n  "))
		}
	}
}

const javaShopSrc = `package com.example.shop;

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

func TestJavaSymbols(t *testing.T) {
	f := javaExtract(t, "src/main/java/com/example/shop/Shop.java", javaShopSrc)
	if f.Module != "com.example.shop" || f.Symbols[0].Name != "com.example.shop" {
		t.Errorf("module %q, module symbol %q", f.Module, f.Symbols[0].Name)
	}
	if f.IsTest {
		t.Error("main file marked as a test")
	}
	shop := javaSym(t, f, "Shop")
	if shop.Kind != KindClass || !shop.Exported || shop.Visibility != VisPublic {
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

	max := javaSym(t, f, "Shop.MAX")
	if max.Kind != KindVariable || max.Signature.Returns != "int" || max.Doc != "The most items." ||
		strings.Join(max.Signature.Modifiers, ",") != "static,final" || max.Visibility != VisPublic {
		t.Errorf("MAX: %+v", max)
	}
	if v := javaSym(t, f, "Shop.names"); v.Visibility != VisProtected || v.Exported {
		t.Errorf("names: %s %v", v.Visibility, v.Exported)
	}
	if v := javaSym(t, f, "Shop.inv"); v.Visibility != VisPrivate {
		t.Errorf("inv: %s", v.Visibility)
	}

	ctor := javaSym(t, f, "Shop.Shop")
	if ctor.Kind != KindConstructor || len(ctor.Signature.Params) != 2 {
		t.Fatalf("constructor: %+v", ctor)
	}
	if p := ctor.Signature.Params[1]; p.Name != "rest" || p.Type != "String..." || !p.Variadic {
		t.Errorf("varargs param %+v", p)
	}
	if got := strings.Join(ctor.Signature.Modifiers, ","); got != "throws java.io.IOException,throws ShopException" {
		t.Errorf("throws %q", got)
	}
	var pkgCtor *Symbol
	for i := range f.Symbols {
		if f.Symbols[i].Kind == KindConstructor && f.Symbols[i].Visibility == VisInternal {
			pkgCtor = &f.Symbols[i]
		}
	}
	if pkgCtor == nil || pkgCtor.Exported {
		t.Error("package-private constructor not found")
	}

	sell := javaSym(t, f, "Shop.sell")
	if sell.Kind != KindMethod || sell.Signature.Returns != "R" || strings.Join(sell.Signature.Generics, ",") != "R" {
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
	if r := javaSym(t, f, "Shop.restock"); strings.Join(r.Signature.Modifiers, ",") != "abstract" || r.Visibility != VisProtected {
		t.Errorf("restock: %+v", r)
	}
	ledger := javaSym(t, f, "Shop.Ledger")
	if ledger.Kind != KindClass || ledger.Visibility != VisPrivate || f.Symbols[ledger.Parent].Name != "Shop" {
		t.Errorf("Ledger: %+v", ledger)
	}
	javaSym(t, f, "Shop.Ledger.post")
	javaSym(t, f, "Shop.Till")

	named := javaSym(t, f, "Named")
	if named.Kind != KindInterface || named.Exported {
		t.Errorf("Named: %s %v", named.Kind, named.Exported)
	}
	// interface members are public without saying so
	if m := javaSym(t, f, "Named.name"); !m.Exported || m.Kind != KindMethod {
		t.Errorf("Named.name: %+v", m)
	}
	if m := javaSym(t, f, "Named.label"); strings.Join(m.Signature.Modifiers, ",") != "default" {
		t.Errorf("label modifiers %v", m.Signature.Modifiers)
	}
	if v := javaSym(t, f, "Named.LIMIT"); !v.Exported || v.Signature.Returns != "int" {
		t.Errorf("LIMIT: %+v", v)
	}

	point := javaSym(t, f, "Point")
	if point.Kind != KindClass || strings.Join(point.Signature.Modifiers, ",") != "record" || len(point.Signature.Fields) != 2 {
		t.Errorf("Point: %+v", point.Signature)
	}
	if x := javaSym(t, f, "Point.x"); x.Kind != KindVariable || x.Signature.Returns != "int" {
		t.Errorf("Point.x: %+v", x)
	}
	if c := javaSym(t, f, "Point.Point"); c.Kind != KindConstructor || len(c.Signature.Params) != 2 || len(c.Invariants) != 1 {
		t.Errorf("compact constructor: %+v %+v", c.Signature, c.Invariants)
	}

	color := javaSym(t, f, "Color")
	if strings.Join(color.Signature.Modifiers, ",") != "enum" {
		t.Errorf("Color modifiers %v", color.Signature.Modifiers)
	}
	if g := javaSym(t, f, "Color.GREEN"); g.Kind != KindVariable || g.Signature.Returns != "Color" {
		t.Errorf("GREEN: %+v", g)
	}
	for _, s := range f.Symbols {
		if s.Name == "glow" {
			t.Error("a method of an enum constant's body is a symbol")
		}
	}
	javaSym(t, f, "Color.Color")
	if a := javaSym(t, f, "Audited"); a.Kind != KindInterface {
		t.Errorf("Audited: %s", a.Kind)
	}
	if v := javaSym(t, f, "Audited.value"); v.Kind != KindMethod || v.Signature.Returns != "String" || !v.Exported {
		t.Errorf("Audited.value: %+v", v)
	}
}

func TestJavaImports(t *testing.T) {
	f := javaExtract(t, "Shop.java", javaShopSrc)
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

func TestJavaTestFiles(t *testing.T) {
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
		if got := javaIsTestPath(p); got != want {
			t.Errorf("javaIsTestPath(%s) = %v", p, got)
		}
	}
	f := javaExtract(t, "src/main/java/a/Util.java", `package a;
class Util {
    @Test void works() {}
    @org.junit.jupiter.params.ParameterizedTest void many() {}
    void helper() {}
}`)
	if !javaSym(t, f, "Util.works").IsTest || !javaSym(t, f, "Util.many").IsTest || javaSym(t, f, "Util.helper").IsTest {
		t.Error("test methods by annotation")
	}
	if f.Module != "a" {
		t.Errorf("module %q", f.Module)
	}
	g := javaExtract(t, "src/test/java/a/UtilTest.java", "class UtilTest { void helper() {} }")
	if !g.IsTest || !javaSym(t, g, "UtilTest.helper").IsTest || g.Module != "" {
		t.Errorf("test file: %v %q", g.IsTest, g.Module)
	}
}

func TestJavaRefs(t *testing.T) {
	f := javaExtract(t, "A.java", `package p;
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
	wantAll(t, javaRefs(f),
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
		if s.Name == "inner" || s.Kind == KindFunction {
			t.Errorf("anonymous class member became a symbol: %s", s.Qualified())
		}
	}
}

func TestJavaGuardsAndThrows(t *testing.T) {
	f := javaExtract(t, "G.java", `class G {
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
	m := javaSym(t, f, "G.f")
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

func TestJavaSideEffects(t *testing.T) {
	f := javaExtract(t, "E.java", `class E {
    void io() throws Exception {
        Files.readString(path);
        new FileOutputStream("x");
        String home = System.getenv("HOME");
        new ProcessBuilder("ls").start();
        System.exit(1);
    }
}`)
	var kinds []string
	for _, e := range javaSym(t, f, "E.io").SideEffects {
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, ","); got != "fs.read,fs.write,env,process,exit" {
		t.Errorf("side effects %s", got)
	}
}

func TestJavaLocalClassAndDocs(t *testing.T) {
	f := javaExtract(t, "L.java", `class L {
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
	local := javaSym(t, f, "L.m.Local")
	if local.Kind != KindClass || f.Symbols[local.Parent].Qualified() != "L.m" {
		t.Errorf("local class parent %d", local.Parent)
	}
	javaSym(t, f, "L.m.Local.lm")
	if d := javaSym(t, f, "L.m").Doc; d != "" {
		t.Errorf("a trailing comment became a doc: %q", d)
	}
	if d := javaSym(t, f, "L.n").Doc; d != "" {
		t.Errorf("a plain block comment became a doc: %q", d)
	}
	wantAll(t, javaRefs(f), "L.m.Local.lm call helper", "L.m new Local", "L.m call new Local().lm [Local]")
}

func TestJavaBrokenInput(t *testing.T) {
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
	f := javaExtract(t, "Broken.java", src)
	if len(f.Errors) == 0 {
		t.Error("no syntax errors reported")
	}
	javaSym(t, f, "Broken.fine")
	javaSym(t, f, "Broken.after")
	wantAll(t, javaRefs(f), "Broken.fine call item.gross [Item]", "Broken.after call fine")

	// every prefix of a file, and deep nesting, must extract without
	// panicking
	full := javaShopSrc + src
	p := NewParser()
	defer p.Close()
	for i := 0; i < len(full); i += 7 {
		if _, err := Extract(p, ByName("java"), "X.java", []byte(full[:i])); err != nil {
			t.Fatal(err)
		}
	}
	deep := "class D { void m() { int x = " + strings.Repeat("(", 3000) + "1" + strings.Repeat(")", 3000) +
		"; a" + strings.Repeat(".b()", 2000) + "; " + strings.Repeat("new A() { void f() { ", 200) +
		strings.Repeat("} };", 200) + " } }"
	if _, err := Extract(p, ByName("java"), "D.java", []byte(deep)); err != nil {
		t.Fatal(err)
	}
}

// javaTestTable is a Table over a few Java files parsed in the test.
type javaTestTable struct {
	byName  map[string][]*Target
	files   map[string]*FileInfo
	modules map[string][]string
	memo    sync.Map
}

func newJavaTestTable(t *testing.T, files map[string]string) (*javaTestTable, map[string]*FileFacts) {
	t.Helper()
	tab := &javaTestTable{byName: map[string][]*Target{}, files: map[string]*FileInfo{}, modules: map[string][]string{}}
	facts := map[string]*FileFacts{}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := javaExtract(t, p, files[p])
		facts[p] = f
		tab.files[p] = &FileInfo{Path: p, Lang: "java", Module: f.Module, Imports: f.Imports, ModuleID: javaTestID(p, 0)}
		if f.Module != "" {
			tab.modules[f.Module] = append(tab.modules[f.Module], p)
		}
		for i := range f.Symbols {
			tab.add(javaTestTarget(p, f, i))
		}
	}
	return tab, facts
}

func javaTestID(p string, i int) string { return fmt.Sprintf("%s#%d", p, i) }

func javaTestTarget(p string, f *FileFacts, i int) *Target {
	s := &f.Symbols[i]
	return &Target{ID: javaTestID(p, i), Path: p, Kind: s.Kind, Name: s.Name, Container: s.Container, Exported: s.Exported,
		Returns: s.Signature.Returns, Fields: s.Signature.Fields, Bases: s.Signature.Bases, Module: f.Module}
}

func (tab *javaTestTable) add(t *Target)                    { tab.byName[t.Name] = append(tab.byName[t.Name], t) }
func (tab *javaTestTable) ByName(name string) []*Target     { return tab.byName[name] }
func (tab *javaTestTable) File(p string) *FileInfo          { return tab.files[p] }
func (tab *javaTestTable) Config(string) []string           { return nil }
func (*javaTestTable) Project(string) Project               { return nil }
func (tab *javaTestTable) ModuleFiles(_, m string) []string { return tab.modules[m] }
func (tab *javaTestTable) DirFiles(dir string) []string {
	var out []string
	for p := range tab.files {
		if path.Dir(p) == dir {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
func (tab *javaTestTable) Memo(key string, f func() string) string {
	if v, ok := tab.memo.Load(key); ok {
		return v.(string)
	}
	v := f()
	tab.memo.Store(key, v)
	return v
}

// resolveAll resolves every reference and import of the files and renders
// each as "path: from kind qualifier.name -> target (rule)".
func (tab *javaTestTable) resolveAll(facts map[string]*FileFacts) []string {
	l := ByName("java")
	var out []string
	for p, f := range facts {
		ctx := &Context{File: tab.files[p], Table: tab}
		render := func(res Resolution) string {
			if res.Target == nil {
				return "? (" + res.Rule + ")"
			}
			tq := res.Target.Qualified()
			if res.Target.Kind == KindModule {
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
			ctx.From = javaTestTarget(p, f, r.Symbol)
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

func TestJavaResolve(t *testing.T) {
	tab, facts := newJavaTestTable(t, map[string]string{
		"src/com/ex/model/Item.java": `package com.ex.model;
public record Item(String name, int price) {
    public int gross() { return price + Tax.of(price); }
    public static Item parse(String s) { return new Item(s, 1); }
}`,
		"src/com/ex/model/Tax.java": `package com.ex.model;
public final class Tax {
    public static int of(int p) { return p / 5; }
    public static class Table { public int rate() { return 5; } }
}`,
		"src/com/ex/Base.java": `package com.ex;
import com.ex.model.Item;
public abstract class Base implements Sink {
    protected Repo repo;
    protected void log(String s) {}
    public abstract void accept(Item item);
    public Base() {}
}`,
		"src/com/ex/Sink.java": `package com.ex;
public interface Sink { void accept(com.ex.model.Item item); default void flush() {} }`,
		"src/com/ex/Repo.java": `package com.ex;
import java.util.ArrayList;
public class Repo extends ArrayList<String> {
    public Repo self() { return this; }
    public Cursor cursor() { return new Cursor(); }
    public class Cursor { public boolean more() { return false; } }
    public void persistAll() {}
}`,
		"src/com/ex/Shop.java": `package com.ex;

import static com.ex.model.Tax.of;
import static org.junit.Assert.*;

import java.util.List;
import com.ex.model.*;
import com.ex.model.Tax.Table;

public class Shop extends Base {
    private final Item special = Item.parse("x");

    public Shop() { super(); }

    @Override
    public void accept(Item item) {
        log("x");
        flush();
        item.gross();
        item.price();
        special.gross();
        repo.self().cursor().more();
        repo.size();
        repo.persistAll();
        of(3);
        assertTrue(true);
        new Table().rate();
        Tax.of(1);
        List<Item> items = List.of();
        items.add(item);
        items.get(0).gross();
        item.toString();
        super.log("y");
        this.log("z");
        helper();
        unknown.distinctiveName();
        item.hashCode();
        new Runnable() { public void run() { log("anon"); } };
        java.util.Objects.hash(1);
        com.ex.model.Tax.of(2);
    }

    private void helper() {}
}`,
		"src/com/ex/other/Odd.java": `package com.ex.other;
public class Odd { public void distinctiveName() {} }`,
		"src/com/ex/other/Gen.java": `package com.ex.other;
import com.ex.gen.Missing;
import com.ex.model.Gone;
public class Gen {
    void g() { Missing.build(); new Missing(); Gone.away(); }
}`,
	})
	got := tab.resolveAll(facts)
	wantAll(t, got,
		// imports
		"src/com/ex/Shop.java: import com.ex.model.Tax of -> src/com/ex/model/Tax.java:Tax.of (import)",
		"src/com/ex/Shop.java: import org.junit.Assert * -> ? (external)",
		"src/com/ex/Shop.java: import java.util.List -> ? (external)",
		"src/com/ex/Shop.java: import com.ex.model * -> src/com/ex/model/Item.java:<module com.ex.model> (import)",
		"src/com/ex/Shop.java: import com.ex.model.Tax.Table -> src/com/ex/model/Tax.java:Tax.Table (import)",
		"src/com/ex/other/Gen.java: import com.ex.gen.Missing -> ? (external)",
		"src/com/ex/Base.java: import com.ex.model.Item -> src/com/ex/model/Item.java:Item (import)",
		// heritage
		"src/com/ex/Shop.java: Shop extends Base -> src/com/ex/Base.java:Base (same_package)",
		"src/com/ex/Base.java: Base implements Sink -> src/com/ex/Sink.java:Sink (same_package)",
		"src/com/ex/Repo.java: Repo extends ArrayList -> ? (external)",
		// same file, receiver
		"src/com/ex/model/Item.java: Item.gross call Tax.of -> src/com/ex/model/Tax.java:Tax.of (same_package)",
		"src/com/ex/model/Item.java: Item.parse new Item -> src/com/ex/model/Item.java:Item (same_file)",
		"src/com/ex/Shop.java: Shop.accept call helper -> src/com/ex/Shop.java:Shop.helper (same_file)",
		"src/com/ex/Shop.java: Shop.accept call log -> src/com/ex/Base.java:Base.log (receiver)",
		"src/com/ex/Shop.java: Shop.accept call flush -> src/com/ex/Sink.java:Sink.flush (receiver)",
		"src/com/ex/Shop.java: Shop.accept call item.gross -> src/com/ex/model/Item.java:Item.gross (receiver)",
		"src/com/ex/Shop.java: Shop.accept call item.price -> src/com/ex/model/Item.java:Item.price (receiver)",
		"src/com/ex/Shop.java: Shop.accept call special.gross -> src/com/ex/model/Item.java:Item.gross (receiver)",
		"src/com/ex/Shop.java: Shop.accept call repo.self -> src/com/ex/Repo.java:Repo.self (receiver)",
		"src/com/ex/Shop.java: Shop.accept call repo.self().cursor -> src/com/ex/Repo.java:Repo.cursor (receiver)",
		"src/com/ex/Shop.java: Shop.accept call repo.self().cursor().more -> src/com/ex/Repo.java:Repo.Cursor.more (receiver)",
		"src/com/ex/Shop.java: Shop.accept call repo.size -> ? (external)",
		"src/com/ex/Shop.java: Shop.accept call repo.persistAll -> src/com/ex/Repo.java:Repo.persistAll (receiver)",
		"src/com/ex/Shop.java: Shop.accept call super.log -> src/com/ex/Base.java:Base.log (receiver)",
		"src/com/ex/Shop.java: Shop.accept call this.log -> src/com/ex/Base.java:Base.log (receiver)",
		"src/com/ex/Shop.java: Shop.Shop call super.Base -> src/com/ex/Base.java:Base.Base (receiver)",
		"src/com/ex/Shop.java: Shop.accept call log -> src/com/ex/Base.java:Base.log (receiver)",
		// static imports, types through imports
		"src/com/ex/Shop.java: Shop.accept call of -> src/com/ex/model/Tax.java:Tax.of (import)",
		"src/com/ex/Shop.java: Shop.accept call assertTrue -> ? (external)",
		"src/com/ex/Shop.java: Shop.accept new Table -> src/com/ex/model/Tax.java:Tax.Table (import)",
		"src/com/ex/Shop.java: Shop.accept call new Table().rate -> src/com/ex/model/Tax.java:Tax.Table.rate (receiver)",
		"src/com/ex/Shop.java: Shop.accept call Tax.of -> src/com/ex/model/Tax.java:Tax.of (import)",
		"src/com/ex/Shop.java: Shop.special call Item.parse -> src/com/ex/model/Item.java:Item.parse (import)",
		"src/com/ex/Shop.java: Shop.accept call com.ex.model.Tax.of -> src/com/ex/model/Tax.java:Tax.of (import)",
		// library types and values
		"src/com/ex/Shop.java: Shop.accept call List.of -> ? (external)",
		"src/com/ex/Shop.java: Shop.accept call items.add -> ? (external)",
		"src/com/ex/Shop.java: Shop.accept call items.get -> ? (external)",
		"src/com/ex/Shop.java: Shop.accept call items.get().gross -> src/com/ex/model/Item.java:Item.gross (unique_name)",
		"src/com/ex/Shop.java: Shop.accept call item.toString -> ? (external)",
		"src/com/ex/Shop.java: Shop.accept call item.hashCode -> ? (external)",
		"src/com/ex/Shop.java: Shop.accept call java.util.Objects.hash -> ? (external)",
		"src/com/ex/Shop.java: Shop.accept new Runnable -> ? (external)",
		// unknown receiver: a distinctive name, once in the repository
		"src/com/ex/Shop.java: Shop.accept call unknown.distinctiveName -> src/com/ex/other/Odd.java:Odd.distinctiveName (unique_name)",
		// a package the repository lacks, and a class it lacks in a
		// package it has (generated code)
		"src/com/ex/other/Gen.java: Gen.g call Missing.build -> ? (external)",
		"src/com/ex/other/Gen.java: Gen.g new Missing -> ? (external)",
		"src/com/ex/other/Gen.java: import com.ex.model.Gone -> ? (unresolved)",
		"src/com/ex/other/Gen.java: Gen.g call Gone.away -> ? (unresolved)",
	)
	wantAll(t, got, "src/com/ex/Shop.java: Shop.accept call log -> src/com/ex/Base.java:Base.log (receiver)")
}

func TestJavaResolveAmbiguity(t *testing.T) {
	tab, facts := newJavaTestTable(t, map[string]string{
		"a/A.java":    `package a; public class A { public void process() {} public void render() {} }`,
		"b/B.java":    `package b; public class B { public void process() {} }`,
		"c/Base.java": `package c; public abstract class Base { public abstract void render(); public void draw() {} }`,
		"c/Sub.java":  `package c; public class Sub extends Base { public void draw() {} }`,
		"d/D.java": `package d; class D {
    void f() {
        x.process();
        y.draw();
        z.get();
        w.neverDefined();
        new Object() { void g() { fromAnon(); } };
    }
}`,
	})
	got := tab.resolveAll(facts)
	wantAll(t, got,
		"d/D.java: D.f call x.process -> ? (ambiguous)",
		// overrides of one method count as one: the declaration they override
		"d/D.java: D.f call y.draw -> c/Base.java:Base.draw (unique_name)",
		"d/D.java: D.f call z.get -> ? (external)",
		"d/D.java: D.f call w.neverDefined -> ? (external)",
	)
}

func TestJavaResolveNested(t *testing.T) {
	tab, facts := newJavaTestTable(t, map[string]string{
		"p/Outer.java": `package p;
public class Outer {
    public static final Helper SHARED = new Helper(), OTHER = null;
    public class Inner { public void poke() {} }
    protected static class Step { public Step next() { return this; } public void run() {} }
    void go() {}
}`,
		"p/Helper.java": `package p;
public class Helper { public int assist() { return 1; } }`,
		"p/Derived.java": `package p;
import static p.Outer.SHARED;
import static p.Outer.*;
public class Derived extends Outer {
    static class Local extends Step {
        void walk() { next().run(); }
    }
    void use(Outer o, String[] names) {
        o.new Inner().poke();
        SHARED.assist();
        OTHER.assist();
        Outer.this.go();
        for (var n : names) { n.length(); }
        ("a" + n).trim();
        new Outer() { void f() { new Inner().poke(); } };
    }
    <T> void gen(T t, java.util.List<T> ts) { t.hashCode(); t.assist(); }
    <E extends Enum<E>> void en(E e) { list.map(E::name); }
}`,
	})
	wantAll(t, tab.resolveAll(facts),
		// a nested class extends a member type its outer class inherits
		"p/Derived.java: Derived.Local extends Step -> p/Outer.java:Outer.Step (same_file)",
		"p/Derived.java: Derived.Local.walk call next -> p/Outer.java:Outer.Step.next (receiver)",
		"p/Derived.java: Derived.Local.walk call next().run -> p/Outer.java:Outer.Step.run (receiver)",
		"p/Derived.java: Derived.use new Inner -> p/Outer.java:Outer.Inner (receiver)",
		"p/Derived.java: Derived.use call SHARED.assist -> p/Helper.java:Helper.assist (receiver)",
		"p/Derived.java: Derived.use call OTHER.assist -> p/Helper.java:Helper.assist (receiver)",
		"p/Derived.java: Derived.use call Outer.this.go -> p/Outer.java:Outer.go (receiver)",
		"p/Derived.java: Derived.use call n.length -> ? (external)",
		`p/Derived.java: Derived.use call ("a" + n).trim -> ? (external)`,
		"p/Derived.java: Derived.use call new Inner().poke -> p/Outer.java:Outer.Inner.poke (receiver)",
		// an unbounded type variable has Object's methods only
		"p/Derived.java: Derived.gen call t.hashCode -> ? (external)",
		"p/Derived.java: Derived.gen call t.assist -> ? (external)",
		"p/Derived.java: Derived.en call E.name -> ? (external)",
		"p/Derived.java: import p.Outer SHARED -> p/Outer.java:Outer.SHARED (import)",
	)
}

func TestJavaResolveHostile(t *testing.T) {
	// long call chains, cyclic inheritance and self-referencing member
	// types must resolve in bounded time
	chain := "a" + strings.Repeat(".b()", 3000)
	tab, facts := newJavaTestTable(t, map[string]string{
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

func TestJavaResolveShadowing(t *testing.T) {
	tab, facts := newJavaTestTable(t, map[string]string{
		"s/Base.java":   `package s; public class Base { protected Gadget tool; }`,
		"s/Gadget.java": `package s; public class Gadget { public void whirr() {} }`,
		"s/Widget.java": `package s; public class Widget { public void spin() {} public void whirr() {} }`,
		"s/User.java": `package s;
public class User extends Base {
    private Widget part;
    void f(java.util.List<String> names) {
        part.spin();
        tool.whirr();
        names.forEach(part -> part.whirr());
        names.forEach(tool -> tool.whirr());
    }
}`,
	})
	got := tab.resolveAll(facts)
	wantAll(t, got,
		"s/User.java: User.f call part.spin -> s/Widget.java:Widget.spin (receiver)",
		// an inherited field the extractor could not see
		"s/User.java: User.f call tool.whirr -> s/Gadget.java:Gadget.whirr (receiver)",
		// a lambda parameter shadows the field of the same name
		"s/User.java: User.f call part.whirr -> ? (ambiguous)",
	)
}
