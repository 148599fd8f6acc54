package rust

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

func extractSrc(t *testing.T, path, src string) *lang.FileFacts {
	t.Helper()
	p := lang.NewParser()
	defer p.Close()
	f, err := lang.Extract(p, lang.ByName("rust"), path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func symbolOf(t *testing.T, f *lang.FileFacts, qualified string) *lang.Symbol {
	t.Helper()
	for i := range f.Symbols {
		if f.Symbols[i].Qualified() == qualified {
			return &f.Symbols[i]
		}
	}
	var have []string
	for _, s := range f.Symbols {
		have = append(have, s.Kind+" "+s.Qualified())
	}
	t.Fatalf("no symbol %q; have %v", qualified, have)
	return nil
}

func TestFile(t *testing.T) {
	for _, c := range []struct{ path, module, root, children string }{
		{"src/lib.rs", "crate", "crate", "crate"},
		{"src/main.rs", "crate", "crate", "crate"},
		{"src/routing/mod.rs", "crate::routing", "crate", "crate::routing"},
		{"src/routing.rs", "crate::routing", "crate", "crate::routing"},
		{"axum-core/src/extract/rejection.rs", "axum_core::extract::rejection", "axum_core", "axum_core::extract::rejection"},
		{"shop/tests/api.rs", "shop::tests::api", "shop::tests::api", "shop::tests"},
		{"shop/tests/common/mod.rs", "shop::tests::common", "shop::tests::common", "shop::tests::common"},
		{"shop/src/bin/tool.rs", "shop::bin::tool", "shop::bin::tool", "shop::bin"},
		{"examples/hello-world/src/main.rs", "hello_world", "hello_world", "hello_world"},
		{"shop/build.rs", "shop::build", "shop::build", "shop"},
	} {
		f := placeOf(c.path)
		if f.Module != c.module || f.Root != c.root || f.Children != c.children {
			t.Errorf("%s: got module %q root %q children %q, want %q %q %q", c.path, f.Module, f.Root, f.Children, c.module, c.root, c.children)
		}
	}
}

const sample = `//! The crate doc.

use std::collections::{self, HashMap, hash_map::Entry as E};
use crate::model::{Item, store::{Store, Db as Database}};
use super::*;
pub use self::codec::encode;
extern crate serde as sd;
mod codec;

/// A point.
///
/// With two fields.
#[derive(Debug, Clone)]
pub struct Point<T: Copy> where T: Default {
    pub x: T,
    y: T,
}

pub(crate) struct Pair(pub u32, String);

/// Shapes.
pub enum Shape { Circle(f64), Square { side: f64 } }

pub trait Area: Shape2 + Send {
    /// The area.
    fn area(&self) -> f64;
    fn twice(&self) -> f64 { self.area() * 2.0 }
}

impl<T: Copy + Default> Point<T> {
    /// Makes a point.
    pub fn new(x: T, y: T) -> Self { Point { x, y } }
    pub(super) async fn dist(&self, other: &Point<T>, (a, b): (u8, u8)) -> Result<f64, String> where T: Into<f64> {
        if a > b {
            return Err("bad".into());
        }
        let Some(z) = other.get() else { return Ok(0.0) };
        assert!(a != 0, "a is zero");
        other.norm();
        self.norm();
        Ok(z)
    }
    fn norm(&mut self) {}
}

impl Area for Point<f64> {
    fn area(&self) -> f64 { 0.0 }
}

impl fmt::Display for Remote {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }
}

pub type Map<V> = HashMap<String, V>;
pub const LIMIT: usize = 10;
static mut COUNT: u32 = 0;

macro_rules! square { ($x:expr) => { $x * $x }; }

fn run(store: Arc<Store>, db: &mut Database, n: impl Area) {
    let p = Point::new(1, 2);
    let q = Point { x: 1, y: 2 };
    let r: Pair = make();
    let s = open_store();
    store.save();
    db.flush();
    p.dist();
    q.norm();
    r.0.len();
    s.items.get();
    n.area();
    square!(helper(3));
    assert_eq!(p.total(), 3);
    let v = compute().unwrap();
    let f = |k: u32| k + 1;
    f(2);
    Shape::Circle(1.0);
    collections::HashMap::new();
    todo!("later");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_runs() {
        run_it();
    }
}
`

func TestExtractSymbols(t *testing.T) {
	f := extractSrc(t, "geo/src/shapes.rs", sample)
	if f.Module != "geo::shapes" {
		t.Errorf("module = %q", f.Module)
	}
	m := &f.Symbols[0]
	if m.Name != "shapes" || m.Doc != "The crate doc." {
		t.Errorf("module symbol %q doc %q", m.Name, m.Doc)
	}

	p := symbolOf(t, f, "Point")
	if p.Kind != lang.KindClass || !p.Exported || p.Visibility != lang.VisExported {
		t.Errorf("Point: %s exported=%v %s", p.Kind, p.Exported, p.Visibility)
	}
	if p.Doc != "A point.\n\nWith two fields." {
		t.Errorf("Point doc %q", p.Doc)
	}
	if fmt.Sprint(p.Signature.Fields) != fmt.Sprint([]lang.Param{{Name: "x", Type: "T"}, {Name: "y", Type: "T"}}) {
		t.Errorf("Point fields %v", p.Signature.Fields)
	}
	if fmt.Sprint(p.Signature.Generics) != "[T: Copy where T: Default]" {
		t.Errorf("Point generics %q", p.Signature.Generics)
	}
	if fmt.Sprint(p.Signature.Bases) != "[Debug Clone Area]" {
		t.Errorf("Point bases %v (derived and implemented in the file)", p.Signature.Bases)
	}

	pair := symbolOf(t, f, "Pair")
	if pair.Visibility != lang.VisInternal || pair.Exported || len(pair.Signature.Fields) != 2 || pair.Signature.Fields[0].Name != "0" {
		t.Errorf("Pair: %s %v", pair.Visibility, pair.Signature.Fields)
	}
	shape := symbolOf(t, f, "Shape")
	if shape.Kind != lang.KindClass || len(shape.Signature.Fields) != 2 || shape.Signature.Fields[1].Name != "Square" {
		t.Errorf("Shape: %s %v", shape.Kind, shape.Signature.Fields)
	}

	area := symbolOf(t, f, "Area")
	if area.Kind != lang.KindInterface || fmt.Sprint(area.Signature.Bases) != "[Shape2 Send]" {
		t.Errorf("Area: %s %v", area.Kind, area.Signature.Bases)
	}
	if a := symbolOf(t, f, "Area.area"); a.Kind != lang.KindMethod || a.Doc != "The area." || a.Signature.Receiver != "&self" ||
		a.Signature.Returns != "f64" || fmt.Sprint(a.Signature.Modifiers) != "[abstract]" || !a.Exported {
		t.Errorf("Area.area: %+v", a)
	}
	symbolOf(t, f, "Area.twice")

	nw := symbolOf(t, f, "Point.new")
	if nw.Kind != lang.KindConstructor || nw.Doc != "Makes a point." || fmt.Sprint(nw.Signature.Modifiers) != "[static]" {
		t.Errorf("Point.new: %s %q %v", nw.Kind, nw.Doc, nw.Signature.Modifiers)
	}
	d := symbolOf(t, f, "Point.dist")
	if d.Kind != lang.KindMethod || d.Visibility != lang.VisInternal || d.Signature.Receiver != "&self" ||
		d.Signature.Returns != "Result<f64, String>" || fmt.Sprint(d.Signature.Modifiers) != "[async]" {
		t.Errorf("Point.dist: %+v", d.Signature)
	}
	if fmt.Sprint(d.Signature.Params) != fmt.Sprint([]lang.Param{{Name: "other", Type: "&Point<T>"}, {Name: "(a, b)", Type: "(u8, u8)"}}) {
		t.Errorf("Point.dist params %v", d.Signature.Params)
	}
	if fmt.Sprint(d.Signature.Generics) != "[where T: Into<f64>]" {
		t.Errorf("Point.dist generics %v", d.Signature.Generics)
	}
	var guards []string
	for _, g := range d.Invariants {
		guards = append(guards, g.Text)
	}
	want := []string{"if a > b then return Err(\"bad\".into())", "if other.get() does not match Some(z) then return Ok(0.0)", "if !(a != 0) then panic"}
	if fmt.Sprint(guards) != fmt.Sprint(want) {
		t.Errorf("Point.dist guards\n got %q\nwant %q", guards, want)
	}
	if n := symbolOf(t, f, "Point.norm"); n.Visibility != lang.VisPrivate || n.Signature.Receiver != "&mut self" {
		t.Errorf("Point.norm: %s %q", n.Visibility, n.Signature.Receiver)
	}
	if a := symbolOf(t, f, "Point.area"); !a.Exported {
		t.Errorf("trait impl methods are as visible as the trait")
	}
	// an impl of a type defined elsewhere: the method's container is the
	// type's name
	if fm := symbolOf(t, f, "Remote.fmt"); fm.Kind != lang.KindMethod || fm.Parent != 0 {
		t.Errorf("Remote.fmt: %s parent %d", fm.Kind, fm.Parent)
	}

	if a := symbolOf(t, f, "Map"); a.Kind != lang.KindType || a.Signature.Returns != "HashMap<String, V>" {
		t.Errorf("Map: %s %q", a.Kind, a.Signature.Returns)
	}
	if c := symbolOf(t, f, "LIMIT"); c.Kind != lang.KindVariable || fmt.Sprint(c.Signature.Modifiers) != "[const]" || c.Signature.Returns != "usize" {
		t.Errorf("LIMIT: %+v", c.Signature)
	}
	if c := symbolOf(t, f, "COUNT"); fmt.Sprint(c.Signature.Modifiers) != "[static mut]" || c.Visibility != lang.VisPrivate {
		t.Errorf("COUNT: %+v %s", c.Signature, c.Visibility)
	}
	if mc := symbolOf(t, f, "square"); mc.Kind != lang.KindFunction || fmt.Sprint(mc.Signature.Modifiers) != "[macro]" {
		t.Errorf("square: %s %v", mc.Kind, mc.Signature.Modifiers)
	}

	run := symbolOf(t, f, "run")
	if run.IsTest {
		t.Errorf("run is no test")
	}
	var throws []string
	for _, th := range run.Invariants {
		throws = append(throws, th.Text)
	}
	if fmt.Sprint(throws) != fmt.Sprint([]string{"panics compute().unwrap()", "panics (\"later\")"}) {
		t.Errorf("run throws %q", throws)
	}
	tm := symbolOf(t, f, "tests")
	if tm.Kind != lang.KindModule || !tm.IsTest {
		t.Errorf("tests: %s test=%v", tm.Kind, tm.IsTest)
	}
	if it := symbolOf(t, f, "tests.it_runs"); !it.IsTest {
		t.Errorf("it_runs is a test")
	}
}

func TestExtractImports(t *testing.T) {
	f := extractSrc(t, "geo/src/shapes.rs", sample)
	var got []string
	for _, im := range f.Imports {
		s := im.Source
		if im.Alias != "" {
			s += " as " + im.Alias
		}
		for _, n := range im.Names {
			s += " " + n.Name
			if n.Alias != "" {
				s += "=" + n.Alias
			}
		}
		if im.Symbol != 0 {
			s += fmt.Sprintf(" (in %s)", f.Symbols[im.Symbol].Name)
		}
		got = append(got, s)
	}
	want := []string{
		"std::collections",
		"std::collections HashMap",
		"std::collections::hash_map Entry=E",
		"crate::model Item",
		"crate::model::store Store Db=Database",
		"super *",
		"self::codec encode",
		"serde as sd",
		"self::codec",
		"self * (in tests)", // use super::* in mod tests: the file's module
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("imports\n got %q\nwant %q", got, want)
	}
}

func TestExtractRefs(t *testing.T) {
	f := extractSrc(t, "geo/src/shapes.rs", sample)
	refs := map[string]lang.Ref{}
	for _, r := range f.Refs {
		if f.Symbols[r.Symbol].Name != "run" && r.Kind != lang.RefImplements {
			continue
		}
		refs[r.Kind+" "+r.Qualifier+"."+r.Name] = r
	}
	for _, c := range []struct{ key, qualType, qualCall string }{
		{"call Point.new", "", ""},
		{"new .Point", "", ""},
		{"call store.save", "Store", ""},       // Arc<Store> reaches Store
		{"call db.flush", "Database", ""},      // &mut Database
		{"call p.dist", "Point", ""},           // let p = Point::new()
		{"call q.norm", "Point", ""},           // let q = Point { }
		{"call r.0.len", "Pair", ""},           // let r: Pair
		{"call s.items.get", "", "open_store"}, // let s = open_store()
		{"call n.area", "Area", ""},            // impl Area
		{"call .square!", "", ""},
		{"call .helper", "", ""},      // inside a macro's tokens
		{"call p.total", "Point", ""}, // inside assert_eq!
		{"call .compute", "", ""},
		{"new Shape.Circle", "", ""},
		{"call collections::HashMap.new", "", ""},
		{"call .todo!", "", ""},
		{"implements .Area", "", ""},
		{"implements fmt.Display", "Remote", ""}, // from the module: Remote is not in the file
	} {
		r, ok := refs[c.key]
		if !ok {
			var have []string
			for k := range refs {
				have = append(have, k)
			}
			sort.Strings(have)
			t.Errorf("no ref %q; have %q", c.key, have)
			continue
		}
		if r.QualifierType != c.qualType || r.QualifierCall != c.qualCall {
			t.Errorf("%s: qualType %q qualCall %q, want %q %q", c.key, r.QualifierType, r.QualifierCall, c.qualType, c.qualCall)
		}
	}
	if _, ok := refs["call .f"]; ok {
		t.Errorf("a call of a local closure is no reference")
	}
	for _, r := range f.Refs {
		if r.Kind == lang.RefImplements && r.Name == "Area" && f.Symbols[r.Symbol].Name != "Point" {
			t.Errorf("impl Area for Point: the ref is made from Point, not %s", f.Symbols[r.Symbol].Name)
		}
	}
}

func TestSyntaxError(t *testing.T) {
	f := extractSrc(t, "src/recover.rs", "fn ok() -> u32 { 1 }\nfn broken( { let x = ok();\nfn after() -> u32 { ok() }\n")
	if len(f.Errors) == 0 {
		t.Fatal("no syntax error reported")
	}
	symbolOf(t, f, "ok")
	symbolOf(t, f, "after")
	b := symbolOf(t, f, "broken")
	calls := 0
	for _, r := range f.Refs {
		if r.Name == "ok" && f.Symbols[r.Symbol].Name == "broken" {
			calls++
		}
	}
	if b.Kind != lang.KindFunction || calls != 1 {
		t.Errorf("recovered broken: %s, %d calls of ok", b.Kind, calls)
	}
}

func TestTestFiles(t *testing.T) {
	f := extractSrc(t, "shop/tests/api.rs", "fn helper() {}\n#[tokio::test]\nasync fn works() { helper(); }\n")
	if !f.IsTest || !symbolOf(t, f, "helper").IsTest {
		t.Errorf("files under tests/ are tests")
	}
	g := extractSrc(t, "shop/src/lib.rs", "#[tokio::test]\nasync fn works() {}\nfn plain() {}\n")
	if g.IsTest || !symbolOf(t, g, "works").IsTest || symbolOf(t, g, "plain").IsTest {
		t.Errorf("#[tokio::test] marks a test function")
	}
}

// testTable is the txtar runner's table (fixtureTable) over a few
// Rust files.
type testTable struct{ *langtest.Table }

func newTestTable(t *testing.T, srcs map[string]string) *testTable {
	t.Helper()
	files := map[string][]byte{}
	for p, src := range srcs {
		files[p] = []byte(src)
	}
	return &testTable{langtest.NewTable(t, files)}
}

// resolveAll renders every reference of file p as
// "from: kind qual.name -> path:qualified [rule]".
func (tab *testTable) resolveAll(p string) []string {
	l := lang.ByName("rust")
	f := tab.Facts[p]
	ctx := &lang.Context{File: tab.Files[p], Table: tab}
	var out []string
	for i := range f.Refs {
		r := &f.Refs[i]
		ctx.From = langtest.Target(p, f, r.Symbol)
		res := l.Resolve(ctx, r)
		if res.Rule == lang.RuleBuiltin {
			continue
		}
		to := "?"
		if res.Target != nil {
			to = res.Target.Path + ":" + res.Target.Qualified()
		}
		name := r.Name
		if r.Qualifier != "" {
			name = r.Qualifier + "." + r.Name
		}
		out = append(out, fmt.Sprintf("%s: %s %s -> %s [%s]", f.Symbols[r.Symbol].Qualified(), r.Kind, name, to, res.Rule))
	}
	for i := range f.Imports {
		imp := &f.Imports[i]
		for _, n := range imp.Resolved() {
			res := l.ResolveImport(ctx, imp, n)
			to := "?"
			if res.Target != nil {
				to = res.Target.Path + ":" + res.Target.Qualified()
			}
			out = append(out, fmt.Sprintf("import %s %s -> %s [%s]", imp.Source, n, to, res.Rule))
		}
	}
	return out
}

var repo = map[string]string{
	"Cargo.toml": "",
	"app/src/lib.rs": `
pub mod model;
pub mod util;
pub use model::{Item, Named};
pub use util::*;
#[cfg(feature = "old")]
pub use crate::util::Gone as Thing;
#[cfg(not(feature = "old"))]
pub use crate::model::Item as Thing;
#[macro_export]
macro_rules! log_it { () => {} }
pub static DEFAULT: Item = Item { n: 0 };
`,
	"app/src/model.rs": `
use crate::util::helper;
pub trait Named { fn name(&self) -> String; fn shout(&self) -> String { self.name() } }
pub struct Item { pub n: u32, pub inner: Inner }
pub struct Inner;
impl Inner { pub fn depth(&self) -> u32 { 0 } }
impl Item {
    pub fn new(n: u32) -> Self { helper(); Item { n, inner: Inner } }
    pub fn open(p: &str) -> Result<Self, String> { Ok(Self::new(1)) }
    pub fn bump(mut self) -> Self { self.n += 1; self }
    fn check(&self) -> bool { self.inner.depth() > 0 }
}
impl Named for Item { fn name(&self) -> String { String::new() } }
pub enum Kind { A(u32), B }
pub trait Loud { fn loud(&self) {} }
impl<T: Named> Loud for T {}
#[cfg(test)]
mod tests {
    use super::*;
    fn make() -> Item { Item::new(1) }
    #[test]
    fn t() { let i = make(); i.check(); Kind::A(1); }
}
`,
	"app/src/util.rs": `
mod more;
pub fn helper() {}
pub fn distinctive_helper() {}
`,
	"app/src/util/more.rs": `
use super::*;
fn uses_parent() { distinctive_helper(); log_it!(); }
`,
	"app/src/main.rs": `
use app::{Item, Named as _, log_it, helper, Thing};
use app::model::Loud;
use std::collections::HashMap;
use tokio::sync::Mutex;
fn main() {
    let it = Item::new(3).bump();
    it.shout();
    it.inner.depth();
    let o = Item::open("x")?;
    o.bump();
    helper();
    log_it!();
    HashMap::new();
    Mutex::new(1);
    app::model::Item::new(1);
    app::DEFAULT.bump();
    let m = HashMap::new();
    m.insert(1, 2);
    local();
    undefined_here();
    println!("{}", it.n);
    it.loud();
    Thing::new(2);
}
fn local() {}
`,
	"app/tests/it.rs": `
mod common;
use app::Item;
#[test]
fn works() { common::setup(); let i = Item::new(1); i.name(); }
`,
	"app/tests/common/mod.rs": `
pub fn setup() {}
`,
}

func TestResolve(t *testing.T) {
	tab := newTestTable(t, repo)
	check := func(file string, want ...string) {
		t.Helper()
		got := tab.resolveAll(file)
		have := map[string]bool{}
		for _, g := range got {
			have[g] = true
		}
		for _, w := range want {
			if !have[w] {
				t.Errorf("%s: missing\n  %s\nhave\n  %s", file, w, strings.Join(got, "\n  "))
			}
		}
	}
	check("app/src/main.rs",
		// import, through the crate root's re-exports and globs
		"import app Item -> app/src/model.rs:Item [import]",
		"import app Named -> app/src/model.rs:Named [import]",
		"import app log_it -> app/src/lib.rs:log_it [import]",
		"import app helper -> app/src/util.rs:helper [import]",
		"import std::collections HashMap -> ? [external]",
		"import tokio::sync Mutex -> ? [external]",
		// Type::f
		"main: call Item.new -> app/src/model.rs:Item.new [receiver]",
		// a method chain on a constructor's result
		"main: call Item::new().bump -> app/src/model.rs:Item.bump [receiver]",
		// a trait's default method on a type that implements it
		"main: call it.shout -> app/src/model.rs:Named.shout [receiver]",
		// a field's type
		"main: call it.inner.depth -> app/src/model.rs:Inner.depth [receiver]",
		// Result<Self> through ?
		"main: call o.bump -> app/src/model.rs:Item.bump [receiver]",
		"main: call helper -> app/src/util.rs:helper [import]",
		"main: call log_it! -> app/src/lib.rs:log_it [import]",
		"main: call HashMap.new -> ? [external]",
		"main: call Mutex.new -> ? [external]",
		"main: call app::model::Item.new -> app/src/model.rs:Item.new [receiver]",
		// a static's type
		"main: call app::DEFAULT.bump -> app/src/model.rs:Item.bump [receiver]",
		"main: call m.insert -> ? [external]",
		"main: call local -> app/src/main.rs:local [same_file]",
		"main: call undefined_here -> ? [unresolved]",
		// a blanket impl's method: the trait is in scope
		"main: call it.loud -> app/src/model.rs:Loud.loud [receiver]",
		// the binding that resolves, of two cfg alternatives
		"main: call Thing.new -> app/src/model.rs:Item.new [receiver]",
	)
	check("app/src/model.rs",
		"import crate::util helper -> app/src/util.rs:helper [import]",
		"Item.new: call helper -> app/src/util.rs:helper [import]",
		"Item.new: new Item -> app/src/model.rs:Item [same_file]",
		"Item.open: call Self.new -> app/src/model.rs:Item.new [receiver]",
		"Item.check: call self.inner.depth -> app/src/model.rs:Inner.depth [receiver]",
		"Named.shout: call self.name -> app/src/model.rs:Named.name [receiver]",
		"Item: implements Named -> app/src/model.rs:Named [same_file]",
		"import self * -> app/src/model.rs:app::model [import]",
		// mod tests sees its parent's items through use super::*
		"tests.t: call make -> app/src/model.rs:tests.make [same_file]",
		"tests.make: call Item.new -> app/src/model.rs:Item.new [receiver]",
		"tests.t: call i.check -> app/src/model.rs:Item.check [receiver]",
		"tests.t: new Kind.A -> app/src/model.rs:Kind [same_file]",
	)
	check("app/src/util/more.rs",
		// a child module sees its parent's items through use super::*
		"uses_parent: call distinctive_helper -> app/src/util.rs:distinctive_helper [same_package]",
		// macro_rules! macros reach the whole crate
		"uses_parent: call log_it! -> app/src/lib.rs:log_it [same_package]",
	)
	check("app/tests/it.rs",
		// mod x; in a crate root that is not lib.rs finds its sibling
		"import self::common  -> app/tests/common/mod.rs:app::tests::common [import]",
		"works: call common.setup -> app/tests/common/mod.rs:setup [import]",
		"works: call i.name -> app/src/model.rs:Item.name [receiver]",
	)
}

func TestUniqueName(t *testing.T) {
	tab := newTestTable(t, map[string]string{
		"a/src/lib.rs": "pub struct W;\nimpl W { pub fn frobnicate(&self) {} pub fn get(&self) {} }\n" +
			"fn f(x: Unknown) { x.frobnicate(); x.get(); x.unheard_of(); }\n",
		"b/src/lib.rs": "fn g(y: Unknown) { y.frobnicate(); }\n",
	})
	got := strings.Join(append(tab.resolveAll("a/src/lib.rs"), tab.resolveAll("b/src/lib.rs")...), "\n")
	for _, w := range []string{
		"f: call x.frobnicate -> a/src/lib.rs:W.frobnicate [unique_name]",
		"f: call x.get -> ? [unresolved]",        // a common name
		"f: call x.unheard_of -> ? [external]",   // no such method in the repository
		"g: call y.frobnicate -> ? [unresolved]", // W is neither in b's crate nor imported
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
}

func TestGeneratedFunctions(t *testing.T) {
	f := extractSrc(t, "r/src/routing.rs", `
macro_rules! verb {
    ($name:ident, GET) => { verb!(/// Routes GET.
        $name, GET); };
    ($(#[$m:meta])* $name:ident, $method:ident) => {
        $(#[$m])*
        pub fn $name<H>(handler: H) -> Route<H> { Route::new(handler) }
    };
}
macro_rules! chained {
    ($name:ident) => { pub fn $name(self) -> Self { self } };
}
macro_rules! noise { ($x:expr) => { $x }; }
verb!(get, GET);
noise!(skipped);
impl Route { chained!(post); }
`)
	if g := symbolOf(t, f, "get"); g.Kind != lang.KindFunction || !g.Exported || g.Signature.Returns != "Route<H>" {
		t.Errorf("get: %s exported=%v returns %q", g.Kind, g.Exported, g.Signature.Returns)
	}
	if p := symbolOf(t, f, "Route.post"); p.Kind != lang.KindMethod || p.Signature.Returns != "Self" {
		t.Errorf("Route.post: %s returns %q", p.Kind, p.Signature.Returns)
	}
	for _, s := range f.Symbols {
		if s.Name == "skipped" {
			t.Errorf("a macro that declares no function declares nothing")
		}
	}
}

// TestHostile feeds truncated and pathological sources: extraction and
// resolution must not panic and must stay fast.
func TestHostile(t *testing.T) {
	srcs := map[string]string{}
	for n := 0; n < len(sample); n += 37 {
		srcs[fmt.Sprintf("c/src/cut%d.rs", n)] = sample[:n]
	}
	srcs["c/src/deep.rs"] = "fn f() {" + strings.Repeat("{ g(", 3000) + strings.Repeat(") }", 3000) + "}"
	srcs["c/src/chain.rs"] = "fn f(x: Foo) { x" + strings.Repeat(".next()", 3000) + "; Router::new()" + strings.Repeat(".route(a, get(h))", 2000) + "; }"
	srcs["c/src/tokens.rs"] = "fn f() { m!(" + strings.Repeat("a.b(", 2000) + strings.Repeat(")", 2000) + "); n!(" + strings.Repeat("x::<", 500) + "); }"
	srcs["c/src/uses.rs"] = "use a::{" + strings.Repeat("b::{", 500) + strings.Repeat("}", 500) + "};\nuse self::*;\nuse super::*;\nuse crate::*;\nfn f() { g(); }\n"
	srcs["c/src/impls.rs"] = strings.Repeat("struct S; impl S { fn m(&self) { self.m(); } } impl T for S {}\n", 500)
	srcs["c/src/lib.rs"] = "pub use self::*;\npub use crate::uses::*;\nmod uses;\n"
	start := time.Now()
	tab := newTestTable(t, srcs)
	for p := range srcs {
		tab.resolveAll(p)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("hostile sources took %s", d)
	}
}

// TestGlobOfOwnEnum is the shape that sent hyper's h1/decode.rs into
// unbounded recursion (a stack overflow that killed sdl index): a method
// imports its own enum's variants with a glob, and a type the file does
// not define (R's bound) is looked up through that glob, the enum's
// derived traits, and the glob again. Resolution terminates and binds
// the calls.
func TestGlobOfOwnEnum(t *testing.T) {
	tab := newTestTable(t, map[string]string{
		"Cargo.toml": "",
		"src/state.rs": `#[derive(Debug, PartialEq, Clone, Copy)]
enum State {
    Start,
    End,
}

impl State {
    fn step<R: Read>(&self, rdr: &mut R) -> Option<State> {
        use self::State::*;
        match *self {
            Start => State::next(rdr),
            End => Some(End),
        }
    }

    fn next<R: Read>(rdr: &mut R) -> Option<State> {
        rdr.read_byte();
        Some(State::End)
    }
}
`,
	})
	got := strings.Join(tab.resolveAll("src/state.rs"), "\n")
	for _, w := range []string{
		"State.step: call State.next -> src/state.rs:State.next [receiver]",
		"State.next: call rdr.read_byte -> ? [external]",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing\n  %s\nhave\n  %s", w, strings.ReplaceAll(got, "\n", "\n  "))
		}
	}
}

// TestItemMacros: items a macro wraps to gate them (tracing's feature!,
// tokio's cfg_rt!, nested) are the file's items, with their docs, and
// parse without errors, as lazy_static!'s statics do (the grammar reads
// static ref); a macro whose body is a DSL rather than items (bitflags!,
// select! in a function) stays as it was, and so does every byte offset.
func TestItemMacros(t *testing.T) {
	src := `macro_rules! feature {
    (#![$meta:meta] $($item:item)*) => { $( #[cfg($meta)] $item )* }
}

feature! {
    #![all(feature = "registry", feature = "std")]
    pub use registry::Registry;

    /// Returns a default [` + "`Registry`" + `].
    pub fn registry() -> Registry {
        let s = "}"; let c = '}'; let l: &'static str = r#"{"#;
        Registry::default()
    }
}

cfg_rt! {
    pub mod runtime;
    cfg_time! {
        pub struct Sleep { ms: u64 }
        impl Sleep { pub fn reset(&mut self) {} }
    }
}

lazy_static! {
    static ref TABLE: Vec<u8> = Vec::new();
}

bitflags! {
    pub struct Flags: u32 { const A = 1; }
}

fn run() {
    tokio::select! {
        _ = a() => {}
    }
}
`
	f := extractSrc(t, "tracing-subscriber/src/lib.rs", src)
	if len(f.Errors) > 0 {
		t.Errorf("parse errors: %v", f.Errors)
	}
	reg := symbolOf(t, f, "registry")
	if reg.Kind != lang.KindFunction || reg.Doc != "Returns a default [`Registry`]." || !reg.Exported {
		t.Errorf("registry: kind %s doc %q exported %v", reg.Kind, reg.Doc, reg.Exported)
	}
	if line := strings.Count(src[:strings.Index(src, "pub fn registry")], "\n") + 1; reg.Range.StartLine != line {
		t.Errorf("registry at line %d, want %d", reg.Range.StartLine, line)
	}
	symbolOf(t, f, "Sleep")
	symbolOf(t, f, "Sleep.reset")
	var mods []string
	for _, imp := range f.Imports {
		mods = append(mods, imp.Source)
	}
	if !strings.Contains(strings.Join(mods, " "), "self::runtime") {
		t.Errorf("mod runtime; inside cfg_rt! is no import: %v", mods)
	}
	if tab := symbolOf(t, f, "TABLE"); tab.Kind != lang.KindVariable {
		t.Errorf("TABLE: kind %s", tab.Kind)
	}
	// bitflags!'s body is no items: its type and flags are the ones
	// TestBitflags reads, not the struct and const items of an unwrapping
	if fl := symbolOf(t, f, "Flags"); fl.Signature.Text != "pub struct Flags: u32" {
		t.Errorf("Flags: %q", fl.Signature.Text)
	}
	for _, s := range f.Symbols {
		if s.Parent > 0 && f.Symbols[s.Parent].Name == "run" {
			t.Errorf("a DSL macro's body was read as items: %s %s", s.Kind, s.Name)
		}
	}
}

// TestBitflags: the types a bitflags! invocation declares are classes,
// from their "pub struct" to their flags, with their docs, derives and
// visibility; the flags are their consts; the file's impls of the type
// hang from it.
func TestBitflags(t *testing.T) {
	src := `use bitflags::bitflags;

bitflags! {
    /// Modes available for key bindings.
    #[derive(Debug, Clone, Copy)]
    pub struct BindingMode: u8 {
        /// The cursor keys send application sequences.
        const APP_CURSOR = 0b0000_0001;
        const VI         = 0b0000_1000;
    }

    pub(crate) struct Other: u32 {
        const X = Self::Y.bits();
    }
}

bitflags::bitflags! {
    struct SequenceModifiers : u8 {
        const SHIFT = 0b0000_0001;
    }
}

impl BindingMode {
    pub fn new(vi: bool) -> BindingMode {
        let mut m = BindingMode::empty();
        m.set(BindingMode::VI, vi);
        m
    }
}
`
	f := extractSrc(t, "alacritty/src/config/bindings.rs", src)
	if len(f.Errors) > 0 {
		t.Errorf("parse errors: %v", f.Errors)
	}
	line := func(s string) int { return strings.Count(src[:strings.Index(src, s)], "\n") + 1 }
	bm := symbolOf(t, f, "BindingMode")
	if bm.Kind != lang.KindClass || !bm.Exported || bm.Doc != "Modes available for key bindings." ||
		bm.Signature.Text != "pub struct BindingMode: u8" || fmt.Sprint(bm.Signature.Bases) != "[Debug Clone Copy]" {
		t.Errorf("BindingMode: %s exported %v doc %q sig %q bases %v", bm.Kind, bm.Exported, bm.Doc, bm.Signature.Text, bm.Signature.Bases)
	}
	if bm.Range.StartLine != line("pub struct BindingMode") || bm.Range.EndLine != line("    pub(crate)")-2 {
		t.Errorf("BindingMode spans lines %d-%d", bm.Range.StartLine, bm.Range.EndLine)
	}
	ac := symbolOf(t, f, "BindingMode.APP_CURSOR")
	if ac.Kind != lang.KindVariable || ac.Doc != "The cursor keys send application sequences." || ac.Signature.Returns != "BindingMode" || !ac.Exported {
		t.Errorf("APP_CURSOR: %s doc %q returns %q exported %v", ac.Kind, ac.Doc, ac.Signature.Returns, ac.Exported)
	}
	symbolOf(t, f, "BindingMode.VI")
	if o := symbolOf(t, f, "Other"); o.Exported || o.Visibility != lang.VisInternal {
		t.Errorf("Other: exported %v visibility %s", o.Exported, o.Visibility)
	}
	symbolOf(t, f, "Other.X")
	if sm := symbolOf(t, f, "SequenceModifiers"); sm.Exported || sm.Visibility != lang.VisPrivate {
		t.Errorf("SequenceModifiers: exported %v visibility %s", sm.Exported, sm.Visibility)
	}
	symbolOf(t, f, "SequenceModifiers.SHIFT")
	if n := symbolOf(t, f, "BindingMode.new"); n.Kind != lang.KindConstructor || f.Symbols[n.Parent].Name != "BindingMode" {
		t.Errorf("BindingMode.new: %s under %q", n.Kind, f.Symbols[n.Parent].Name)
	}

	// the skeletons keep the flags, as a struct's keep its fields: the
	// file's (exported only too), and that of a type the invocation
	// declares alone, which spans it
	p := lang.NewParser()
	defer p.Close()
	tr, err := p.Parse(lang.ByName("rust"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	skel := func(start, end uint32, exported bool) string {
		var b strings.Builder
		for _, l := range lang.Skeleton(tr, start, end, lang.SkeletonOptions{ExportedOnly: exported}) {
			b.WriteString(l.Text + "\n")
		}
		return b.String()
	}
	if file := skel(0, uint32(len(src)), true); !strings.Contains(file, "        const APP_CURSOR = 0b0000_0001;\n") {
		t.Errorf("the file's skeleton lacks BindingMode's flags:\n%s", file)
	}
	sm := symbolOf(t, f, "SequenceModifiers")
	want := "bitflags::bitflags! {\n    struct SequenceModifiers : u8 {\n        const SHIFT = 0b0000_0001;\n    }\n}\n"
	if sm.Range.StartLine != line("bitflags::bitflags!") || skel(sm.StartByte, sm.EndByte, false) != want {
		t.Errorf("SequenceModifiers at line %d, skeleton:\n%s", sm.Range.StartLine, skel(sm.StartByte, sm.EndByte, false))
	}
}

// TestWalkOrder: the query's items are kept in the order the walk meets
// them, a container's impls after its other items, each hanging from what
// the walk says: an impl's type declared after it, the function of a
// const, the "fn name(" of code the parser gave up on.
func TestWalkOrder(t *testing.T) {
	f := extractSrc(t, "a/src/lib.rs", `impl S {
    pub fn new() -> Self { S }
}
pub struct S;
fn f() {
    const LIMIT: usize = 3;
}
mod m {
    impl super::S { fn other(&self) {} }
    pub struct T;
}
`)
	var order []string
	for _, s := range f.Symbols[1:] {
		order = append(order, s.Qualified())
	}
	if want := "[S f f.LIMIT m m.T S.other S.new]"; fmt.Sprint(order) != want {
		t.Errorf("symbols %v, want %s", order, want)
	}
	if s := symbolOf(t, f, "S.new"); s.Kind != lang.KindConstructor || f.Symbols[s.Parent].Name != "S" {
		t.Errorf("S.new: %s under %q", s.Kind, f.Symbols[s.Parent].Name)
	}
	if c := symbolOf(t, f, "f.LIMIT"); c.Kind != lang.KindVariable || fmt.Sprint(c.Signature.Modifiers) != "[const]" {
		t.Errorf("f.LIMIT: %s %v", c.Kind, c.Signature.Modifiers)
	}

	broken := extractSrc(t, "a/src/b.rs", "fn g(x: u8) -> Option<   .x\n    }\n{ fn inner() {} }\n")
	var names []string
	for _, s := range broken.Symbols[1:] {
		names = append(names, s.Qualified())
	}
	// g's item did not parse: "fn g(" names a function, without a
	// header of its own, whose code is what follows
	g := symbolOf(t, broken, "g")
	if len(broken.Errors) == 0 || fmt.Sprint(names) != "[g g.inner]" || g.Signature.Text != "" || fmt.Sprint(g.Signature.Params) != "[{x u8  false false}]" {
		t.Errorf("broken: %v errors %d, g %q %v", names, len(broken.Errors), g.Signature.Text, g.Signature.Params)
	}
}

// TestBlankTokens: Rust 2024's `unsafe extern "C" { .. }` block, a
// macro's `~` tokens and a parameter's second attribute, which the
// grammar does not know, parse without errors (alacritty's macos/proc.rs,
// config/bindings.rs and display/window.rs); the block's
// functions are the module's, with their own signatures and lines; an
// `unsafe extern "C" fn` stays unsafe, and a `~` or `unsafe extern {` in
// a string or comment stays as written.
func TestBlankTokens(t *testing.T) {
	src := `mod sys {
    // unsafe extern "C" { is Rust 2024
    unsafe extern "C" {
        pub fn proc_pidinfo(pid: c_int, buffer: *mut c_void) -> c_int;
    }
    pub unsafe extern "C" fn callback(x: i32) -> i32 { x }
}

macro_rules! bindings {
    ($ty:ident; $($key:tt $(,~$notmode:expr)* ;$action:expr);*) => {{
        let s = "~not unsafe extern {";
        vec![$($ty { key: $key, action: $action }),*]
    }};
}

fn defaults() -> Vec<KeyBinding> {
    bindings!(KeyBinding; "c", ~BindingMode::VI; Action::Copy)
}

impl Window {
    pub fn new<E: Into<u8>>(
        event_loop: &ActiveEventLoop, // (#[not, an attribute]
        #[rustfmt::skip]
        #[cfg(all(feature = "x11", not(any(target_os = "macos", windows))))]
        x11_visual: Option<X11VisualInfo>,
    ) -> Result<Window> {
        let a = [#[allow(unused)] 1, 2];
        Window::build(#[cfg(x11)] x11_visual)
    }
}
`
	f := extractSrc(t, "alacritty/src/macos/proc.rs", src)
	if len(f.Errors) > 0 {
		t.Errorf("parse errors: %v", f.Errors)
	}
	p := symbolOf(t, f, "sys.proc_pidinfo")
	if p.Signature.Text != "pub fn proc_pidinfo(pid: c_int, buffer: *mut c_void) -> c_int;" || p.Range.StartLine != 4 {
		t.Errorf("proc_pidinfo: %q at line %d", p.Signature.Text, p.Range.StartLine)
	}
	if cb := symbolOf(t, f, "sys.callback"); !strings.Contains(fmt.Sprint(cb.Signature.Modifiers), "unsafe") {
		t.Errorf("callback: modifiers %v", cb.Signature.Modifiers)
	}
	symbolOf(t, f, "defaults")
	// a parameter's attributes but the last are blanked: the grammar
	// takes one
	if n := symbolOf(t, f, "Window.new"); fmt.Sprint(n.Signature.Params) != "[{event_loop &ActiveEventLoop  false false} {x11_visual Option<X11VisualInfo>  false false}]" {
		t.Errorf("Window.new: params %v", n.Signature.Params)
	}
	out := string(blankTokens([]byte(src)))
	for _, keep := range []string{"// (#[not, an attribute]", `        #[cfg(all(feature = "x11"`, "[#[allow(unused)] 1, 2]", "build(#[cfg(x11)] x11_visual)"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%q was blanked", keep)
		}
	}
	if strings.Contains(out, "#[rustfmt::skip]") {
		t.Errorf("#[rustfmt::skip] was kept")
	}
	if len(out) != len(src) || !strings.Contains(out, `"~not unsafe extern {"`) || !strings.Contains(out, `// unsafe extern "C" { is`) ||
		strings.Contains(out, `,~$`) || strings.Contains(out, `    unsafe extern "C" {`) {
		t.Errorf("blanked:\n%s", out)
	}
}

// TestProcMacroDerive: #[proc_macro_derive(Name)] defines the derive
// macro Name, a symbol of its own made of the attribute; the function
// keeps its code: its fingerprint and identifiers are as without it.
func TestProcMacroDerive(t *testing.T) {
	src := `/// Derive ConfigDeserialize.
#[proc_macro_derive(ConfigDeserialize, attributes(config))]
pub fn derive_config_deserialize(input: TokenStream) -> TokenStream {
    config_deserialize::derive(input)
}
`
	f := extractSrc(t, "alacritty_config_derive/src/lib.rs", src)
	d := symbolOf(t, f, "ConfigDeserialize")
	if d.Kind != lang.KindFunction || !d.Exported || d.Range.StartLine != 2 || d.Range.EndLine != 2 || d.Doc != "Derive ConfigDeserialize." ||
		d.Signature.Text != "#[proc_macro_derive(ConfigDeserialize)] fn derive_config_deserialize" {
		t.Errorf("ConfigDeserialize: %s exported %v lines %d-%d doc %q sig %q", d.Kind, d.Exported, d.Range.StartLine, d.Range.EndLine, d.Doc, d.Signature.Text)
	}
	fn := symbolOf(t, f, "derive_config_deserialize")
	plain := symbolOf(t, extractSrc(t, "alacritty_config_derive/src/lib.rs", strings.Replace(src, "proc_macro_derive(ConfigDeserialize, attributes(config))", "inline", 1)), "derive_config_deserialize")
	if fn.Fingerprint != plain.Fingerprint || fmt.Sprint(fn.Idents) != fmt.Sprint(plain.Idents) || len(fn.Idents) == 0 {
		t.Errorf("derive_config_deserialize: fingerprint %s idents %v, without the derive %s %v", fn.Fingerprint, fn.Idents, plain.Fingerprint, plain.Idents)
	}
}
