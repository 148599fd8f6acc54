package c

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

func extractLoose(t *testing.T, filePath, src string) *lang.FileFacts {
	t.Helper()
	p := lang.NewParser()
	defer p.Close()
	f, err := lang.Extract(p, lang.ForPath(filePath), filePath, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// syms renders a file's symbols: "kind qualified vis".
func syms(f *lang.FileFacts) []string {
	var out []string
	for _, s := range f.Symbols[1:] {
		out = append(out, s.Kind+" "+s.Qualified()+" "+s.Visibility)
	}
	return out
}

func symbolOf(t *testing.T, f *lang.FileFacts, kind, qualified string) *lang.Symbol {
	t.Helper()
	for i := range f.Symbols {
		if f.Symbols[i].Qualified() == qualified && f.Symbols[i].Kind == kind {
			return &f.Symbols[i]
		}
	}
	t.Fatalf("no %s %s in %v", kind, qualified, syms(f))
	return nil
}

func TestLooksLikeCpp(t *testing.T) {
	for src, want := range map[string]bool{
		"int f(void);\n": false,
		"#include <stdio.h>\nstruct s { int a; };\n":                       false,
		"/* see A::b */\nint x;\n":                                         false,
		"// std::vector\nint x;\n":                                         false,
		"int class_count;\n":                                               false,
		"#include <vector>\n":                                              true,
		"namespace a {\n}\n":                                               true,
		"template <typename T> T f(T);\n":                                  true,
		"class A {\npublic:\n  int x;\n};\n":                               true,
		"int y = std::max(1, 2);\n":                                        true,
		"#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n":       false,
		"static void f(void) {\n\tasm volatile(\"\" ::: \"memory\");\n}\n": false,
		"int n = f(name,\n    template + 2);\n":                            false,
		"enum class Mode { A, B };\n":                                      true,
		"constexpr int N = 3;\n":                                           true,
		"#if __cplusplus > 201103L\n#endif\n":                              true,
		"x = ::getpid();\n":                                                true,
	} {
		if got := looksLikeCpp([]byte(src)); got != want {
			t.Errorf("cLooksLikeCpp(%q) = %v, want %v", src, got, want)
		}
	}
	// the parser picks the grammar by content
	p := lang.NewParser()
	defer p.Close()
	tr, err := p.Parse(lang.ByName("c"), []byte("namespace a { class B {}; }\n"))
	if err != nil || tr.Lang.Name != "cpp" {
		t.Errorf("a .h holding C++ parsed as %v (%v)", tr.Lang.Name, err)
	}
	// a .c file is C whatever it holds, as linguist has it
	if f := extractLoose(t, "src/a.c", "namespace a { class B {}; }\n"); f.Lang != "c" {
		t.Errorf("a .c file parsed as %s", f.Lang)
	}
	if f := extractLoose(t, "src/a.h", "namespace a { class B {}; }\n"); f.Lang != "cpp" {
		t.Errorf("a .h holding C++ parsed as %s", f.Lang)
	}
}

func TestExportMacros(t *testing.T) {
	src := "namespace db {\nclass DB_EXPORT Slice {\n public:\n  Slice() {}\n};\nstruct DB_EXPORT Options : Base { int x; };\n" +
		"class Plain final {};\nint CLASS_COUNT = 1;\n}\n"
	if b := blankExportMacros([]byte(src)); len(b) != len(src) || strings.Contains(string(b), "DB_EXPORT") ||
		!strings.Contains(string(b), "CLASS_COUNT") {
		t.Errorf("blanked:\n%s", b)
	}
	f := extractLoose(t, "include/db/slice.h", src)
	langtest.WantAll(t, syms(f), "class db.Slice exported", "constructor db.Slice.Slice public", "class db.Options exported", "class db.Plain exported")
	if s := symbolOf(t, f, lang.KindClass, "db.Slice"); s.Signature.Text != "class Slice" {
		t.Errorf("signature %q", s.Signature.Text)
	}
}

// A library's namespace macro on a line of its own is blanked: without
// it the grammar read the first declaration after
// NLOHMANN_JSON_NAMESPACE_BEGIN as an error and lost it.
func TestNamespaceMacros(t *testing.T) {
	src := "#pragma once\nNLOHMANN_JSON_NAMESPACE_BEGIN\nnamespace detail {\ntemplate<typename T>\nstruct json_sax {\n  virtual bool null() = 0;\n};\n}\n" +
		"NLOHMANN_JSON_NAMESPACE_END\nFMT_BEGIN_NAMESPACE\nclass buffer { int size() const { return 0; } };\nFMT_END_NAMESPACE;\n" +
		"int NAMESPACE_BEGIN_COUNT = 1;\n#define MY_NAMESPACE_BEGIN namespace my {\n"
	b := namespaceMacros([]byte(src))
	if len(b) != len(src) || strings.Contains(string(b), "_NAMESPACE_END") || strings.Contains(string(b), "NAMESPACE_BEGIN\n") ||
		!strings.Contains(string(b), "NAMESPACE_BEGIN_COUNT") || !strings.Contains(string(b), "#define MY_NAMESPACE_BEGIN") {
		t.Errorf("read as:\n%s", b)
	}
	f := extractLoose(t, "include/nlohmann/json_sax.hpp", src)
	langtest.WantAll(t, syms(f), "interface detail.json_sax exported", "method detail.json_sax.null public", "class buffer exported")
	if len(f.Errors) > 0 {
		t.Errorf("parse errors: %v", f.Errors)
	}
}

func TestCSymbols(t *testing.T) {
	src := `#include "kv/hash.h"
#include <stdio.h>

/** The most entries. */
#define MAX_ENTRIES 64
#define SQUARE(x) ((x) * (x))
#define GUARD_H

/**
 * A shape with a callback.
 */
struct shape {
    int (*area)(const struct shape *s);
    double w, h;
};

typedef struct shape shape_t;
typedef struct { int x; } point_t;
typedef int (*cmp_fn)(const void *, const void *);
enum color { RED, GREEN = 2 };

static int counter = 0, *ptr;
int visible = 1;

/// Adds two numbers.
int add(int a, int b);
static inline unsigned twice(unsigned v) { return v * 2; }
int sum(const int *xs, size_t n, ...);
`
	f := extractLoose(t, "include/shape.h", src)
	langtest.WantAll(t, syms(f),
		"variable MAX_ENTRIES exported", "function SQUARE exported", "class shape exported", "type shape_t exported",
		"class point_t exported", "type cmp_fn exported", "type color exported", "variable counter internal",
		"variable ptr internal", "variable visible exported", "function add exported", "function twice internal",
		"function sum exported")
	for _, s := range f.Symbols {
		if s.Name == "GUARD_H" {
			t.Errorf("a valueless macro is a symbol: %+v", s)
		}
	}
	if f.Module != "include/shape.h" {
		t.Errorf("module %q", f.Module)
	}
	sh := symbolOf(t, f, lang.KindClass, "shape")
	if sh.Doc != "A shape with a callback." || len(sh.Signature.Fields) != 3 || sh.Signature.Fields[0].Type != "int (*)(const struct shape *s)" {
		t.Errorf("struct shape: doc %q fields %+v", sh.Doc, sh.Signature.Fields)
	}
	if td := symbolOf(t, f, lang.KindType, "shape_t"); td.Signature.Returns != "struct shape" {
		t.Errorf("typedef returns %q", td.Signature.Returns)
	}
	add := symbolOf(t, f, lang.KindFunction, "add")
	if add.Doc != "Adds two numbers." || add.Signature.Returns != "int" || len(add.Signature.Params) != 2 ||
		add.Signature.Params[1].Name != "b" || !slices.Contains(add.Signature.Modifiers, "declaration") {
		t.Errorf("add: %+v doc %q", add.Signature, add.Doc)
	}
	sum := symbolOf(t, f, lang.KindFunction, "sum")
	if ps := sum.Signature.Params; len(ps) != 3 || ps[0].Type != "const int *" || !ps[2].Variadic {
		t.Errorf("sum params %+v", ps)
	}
	if m := symbolOf(t, f, lang.KindFunction, "SQUARE"); len(m.Signature.Params) != 1 || !slices.Contains(m.Signature.Modifiers, "macro") {
		t.Errorf("SQUARE: %+v", m.Signature)
	}
	if p := symbolOf(t, f, lang.KindVariable, "ptr"); p.Signature.Returns != "int *" {
		t.Errorf("ptr returns %q", p.Signature.Returns)
	}
	langtest.WantAll(t, importSources(f), "kv/hash.h", "<stdio.h>")
}

func importSources(f *lang.FileFacts) []string {
	var out []string
	for _, i := range f.Imports {
		s := i.Source
		for _, n := range i.Names {
			s += " " + n.Name
		}
		if i.Alias != "" {
			s += " as " + i.Alias
		}
		out = append(out, s)
	}
	return out
}

// refs renders references: "from kind qualifier.name [type] {call}".
func refs(f *lang.FileFacts) []string { return langtest.Refs(f) }

func TestSourceFile(t *testing.T) {
	src := `#include "store.h"
static int helper(int);
int add(int a, int b);

static int helper(int x)
{
    return x + 1;
}

/* Runs it. */
int run(struct shape *p, shape_t s, int (*cb)(int))
{
    if (p == NULL)
        return -1;
    assert(s.w > 0);
    if (!cb) { goto fail; }
    FILE *f = fopen("out", "w");
    fwrite(p, 1, 1, f);
    p->area(p);
    s.area(&s);
    cb(1);
    qsort(p, 1, 1, compare_items);
    return helper(add(1, 2)) + SQUARE(2);
fail:
    exit(1);
}

static const struct ops table = { .open = run, .close = helper };
`
	f := extractLoose(t, "src/run.c", src)
	syms := syms(f)
	langtest.WantAll(t, syms, "function helper internal", "function run exported", "variable table internal")
	for _, s := range syms {
		if s == "function add exported" {
			t.Errorf("a prototype in a source file is a symbol")
		}
	}
	run := symbolOf(t, f, lang.KindFunction, "run")
	if run.Doc != "Runs it." {
		t.Errorf("doc %q", run.Doc)
	}
	var inv []string
	for _, i := range run.Invariants {
		inv = append(inv, i.Text)
	}
	langtest.WantAll(t, inv, "if p == NULL then return -1", "if !(s.w > 0) then abort", "if !cb then goto fail")
	var eff []string
	for _, e := range run.SideEffects {
		eff = append(eff, e.Kind)
	}
	langtest.WantAll(t, eff, "fs", "fs.write", "exit")
	refs := refs(f)
	langtest.WantAll(t, refs, "run call p.area [shape]", "run call s.area [shape_t]", "run call helper", "run call add",
		"run call SQUARE", "run call compare_items [&]", "table call run [&]", "table call helper [&]")
	for _, r := range refs {
		if strings.HasSuffix(r, "call cb") {
			t.Errorf("a call through a parameter is a reference: %s", r)
		}
	}
}

const shapeSrc = `#pragma once
#include <memory>
#include "geo/base.h"

namespace geo {
namespace detail { int helper(int x); }

/// Shape is what every figure implements.
class Shape {
public:
    virtual ~Shape() = default;
    /// The area.
    virtual double area() const = 0;
};

/// An interface only.
class Drawable {
public:
    virtual void draw() = 0;
};

class Circle final : public Shape, private Drawable {
public:
    explicit Circle(double r) : Shape(), r_(r) {}
    double area() const override;
    static Circle unit();
    template <typename T> T as() const { return T(r_); }
    bool operator==(const Circle& o) const;
protected:
    void draw() override;
private:
    double r_;
    std::unique_ptr<Shape> inner_;
};

template <typename T, int N = 3>
struct Box : Shape { T items[N]; };

enum class Kind : int { A, B };
using Id = unsigned long;
}

namespace {
int hidden() { return 1; }
}
`

func TestCppSymbols(t *testing.T) {
	f := extractLoose(t, "include/geo/shape.hpp", shapeSrc)
	langtest.WantAll(t, syms(f),
		"module geo public", "module geo.detail public", "function geo.detail.helper exported",
		"interface geo.Shape exported", "method geo.Shape.~Shape public", "method geo.Shape.area public",
		"interface geo.Drawable exported", "class geo.Circle exported", "constructor geo.Circle.Circle public",
		"method geo.Circle.area public", "method geo.Circle.unit public", "method geo.Circle.as public",
		"method geo.Circle.operator== public", "method geo.Circle.draw protected", "class geo.Box exported",
		"type geo.Kind exported", "type geo.Id exported", "function hidden internal")
	shape := symbolOf(t, f, lang.KindInterface, "geo.Shape")
	if shape.Doc != "Shape is what every figure implements." || !slices.Contains(shape.Signature.Modifiers, "abstract") {
		t.Errorf("Shape: doc %q mods %v", shape.Doc, shape.Signature.Modifiers)
	}
	area := symbolOf(t, f, lang.KindMethod, "geo.Shape.area")
	if area.Doc != "The area." || !slices.Contains(area.Signature.Modifiers, "virtual") || !slices.Contains(area.Signature.Modifiers, "abstract") ||
		!slices.Contains(area.Signature.Modifiers, "const") || area.Signature.Returns != "double" {
		t.Errorf("area: %+v doc %q", area.Signature, area.Doc)
	}
	circle := symbolOf(t, f, lang.KindClass, "geo.Circle")
	if strings.Join(circle.Signature.Bases, ",") != "Shape,Drawable" || len(circle.Signature.Fields) != 2 ||
		circle.Signature.Fields[1].Type != "std::unique_ptr<Shape>" || !slices.Contains(circle.Signature.Modifiers, "final") {
		t.Errorf("Circle: %+v", circle.Signature)
	}
	if as := symbolOf(t, f, lang.KindMethod, "geo.Circle.as"); len(as.Signature.Generics) != 1 || as.Signature.Generics[0] != "typename T" {
		t.Errorf("as generics %v", as.Signature.Generics)
	}
	if box := symbolOf(t, f, lang.KindClass, "geo.Box"); strings.Join(box.Signature.Generics, ";") != "typename T;int N = 3" {
		t.Errorf("Box generics %v", box.Signature.Generics)
	}
	if r := symbolOf(t, f, lang.KindMethod, "geo.Circle.draw"); r.Exported {
		t.Errorf("a protected method is exported")
	}
	langtest.WantAll(t, refs(f), "geo.Circle extends Shape", "geo.Circle extends Drawable", "geo.Box extends Shape",
		"geo.Circle.Circle call Shape.Shape [::]")
}

func TestOutOfLineAndCalls(t *testing.T) {
	src := `#include "geo/shape.hpp"
#include <vector>

using namespace geo;
using geo::Circle;
namespace gr = geo::render;

namespace geo {

double Circle::area() const {
    if (r_ < 0) throw std::domain_error("negative");
    return r_ * r_ * detail::helper(2);
}

Circle Circle::unit() {
    Circle c(1.0);
    auto p = std::make_unique<Circle>(2.0);
    auto* q = new Circle(3.0);
    Circle* raw = q;
    p->area();
    raw->draw();
    c.area();
    this->area();
    inner_->area();
    ::geo::detail::helper(1);
    Shape::make();
    gr::Canvas canvas;
    canvas.add(q);
    auto made = factory.build();
    made.run();
    return c;
}

}

geo::Circle::~Circle() {}
`
	f := extractLoose(t, "src/circle.cpp", src)
	langtest.WantAll(t, syms(f), "method geo.Circle.area public", "method geo.Circle.unit public", "method geo.Circle.~Circle public")
	area := symbolOf(t, f, lang.KindMethod, "geo.Circle.area")
	if len(area.Invariants) != 1 || area.Invariants[0].Text != "if r_ < 0 then throw" {
		t.Errorf("area invariants %+v", area.Invariants)
	}
	langtest.WantAll(t, refs(f),
		"geo.Circle.area call detail.helper [::]",
		"geo.Circle.unit new Circle",
		"geo.Circle.unit call std.make_unique [::]",
		"geo.Circle.unit call p.area [Circle]",
		"geo.Circle.unit call raw.draw [Circle]",
		"geo.Circle.unit call c.area [Circle]",
		"geo.Circle.unit call this.area [geo.Circle]",
		"geo.Circle.unit call inner_.area",
		"geo.Circle.unit call geo::detail.helper [::]",
		"geo.Circle.unit call Shape.make [::]",
		"geo.Circle.unit call canvas.add [gr::Canvas]",
		"geo.Circle.unit call made.run {factory.build}")
	langtest.WantAll(t, importSources(f), "geo/shape.hpp", "<vector>", "geo *", "geo Circle", "geo::render as gr")
}

func TestTestFiles(t *testing.T) {
	for p, want := range map[string]bool{
		"tests/store.c": true, "src/store_test.cc": true, "src/db_unittest.cc": true, "test_store.c": true,
		"src/StoreTest.cpp": true, "src/store.c": false, "src/testing_util.h": false, "src/contest.c": false,
	} {
		if got := lang.IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%s) = %v", p, got)
		}
	}
	f := extractLoose(t, "src/db_test.cc", "TEST(DBTest, Empty) { ASSERT_EQ(1, Count()); }\nTEST_F(DBTest, Put) { db_->Put(\"a\"); }\n")
	langtest.WantAll(t, syms(f), "function DBTest.Empty internal", "function DBTest.Put internal")
	for _, s := range f.Symbols[1:] {
		if !s.IsTest {
			t.Errorf("%s is not a test", s.Name)
		}
	}
	// Catch2 (CLI11's tests): TEST_CASE names a test by a string,
	// TEST_CASE_METHOD by a fixture and a string; the name has no quotes
	f = extractLoose(t, "tests/AppTest.cpp", "TEST_CASE(\"OneFlag\", \"[app]\") { CHECK(run()); }\n"+
		"TEST_CASE_METHOD(TApp, \"OneFlagShort\", \"[app]\") { app.add_flag(\"-c\"); }\n")
	langtest.WantAll(t, syms(f), "function OneFlag internal", "function TApp.OneFlagShort internal")
}

// testTable is the txtar runner's table (fixtureTable) over a few C and
// C++ files parsed in the test.
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

// resolved resolves every reference of file p and renders the outcomes:
// "from kind qual.name -> path:qualified rule" (or "-> rule").
func resolved(tab *testTable, facts map[string]*lang.FileFacts, p string) []string {
	f := facts[p]
	fi := tab.File(p)
	l := lang.ByName(fi.Lang)
	var out []string
	for i := range f.Refs {
		r := &f.Refs[i]
		s := &f.Symbols[r.Symbol]
		res := l.Resolve(&lang.Context{File: fi, From: langtest.Target(p, f, r.Symbol), Table: tab}, r)
		name := r.Name
		if r.Qualifier != "" {
			name = r.Qualifier + "." + r.Name
		}
		line := s.Qualified() + " " + r.Kind + " " + name + " -> "
		if res.Target != nil {
			line += res.Target.Path + ":" + res.Target.Qualified() + fmt.Sprintf("@%d ", tab.line(facts, res.Target)) + res.Rule
		} else {
			line += res.Rule
		}
		out = append(out, line)
	}
	for i := range f.Imports {
		imp := &f.Imports[i]
		name := ""
		if len(imp.Names) > 0 {
			name = imp.Names[0].Name
		}
		res := l.ResolveImport(&lang.Context{File: fi, Table: tab}, imp, name)
		line := "import " + imp.Source + " " + name + " -> "
		if res.Target != nil {
			line += res.Target.Path + ":" + res.Target.Qualified() + " " + res.Rule
		} else {
			line += res.Rule
		}
		out = append(out, line)
	}
	return out
}

// line is the start line of a target, to tell overloads apart.
func (tab *testTable) line(facts map[string]*lang.FileFacts, t *lang.Target) int {
	var i int
	fmt.Sscanf(t.ID[strings.LastIndexByte(t.ID, '#')+1:], "%d", &i)
	return facts[t.Path].Symbols[i].Range.StartLine
}

func TestCResolution(t *testing.T) {
	tab, facts := newTestTable(t, map[string]string{
		"include/kv/store.h": "#include \"kv/hash.h\"\n#define KV_EMPTY(s) ((s)->n == 0)\n" +
			"typedef struct kv { int n; int (*save)(int); struct kv *next; } kv;\nint kv_put(kv *s, int v);\n",
		"include/kv/hash.h": "unsigned kv_hash(const char *s);\nstatic inline unsigned kv_bucket(const char *k) { return kv_hash(k) % 64; }\n",
		"src/store.c":       "#include \"kv/store.h\"\n#include <stdlib.h>\nint kv_put(kv *s, int v) { s->save(v); s->next->save(v); return helper(v) + kv_bucket(\"a\"); }\nstatic int helper(int v) { return v; }\n",
		"src/hash.c":        "#include \"kv/hash.h\"\nunsigned kv_hash(const char *s) { return 0; }\n",
		"src/main.c":        "#include \"kv/store.h\"\n#define LOG(x) log_line(x)\nint main(void) { kv s; kv_put(&s, 1); if (KV_EMPTY(&s)) return 1; printf(\"x\"); helper(2); local_only(); LOG(1); return 0; }\nstatic void local_only(void) {}\n",
		"src/log.c":         "void log_line(int x) {}\n",
		"tools/a.c":         "int usage(void) { return 1; }\n",
		"tools/b.c":         "int usage(void) { return 2; }\nint other(void) { return usage(); }\n",
		"tools/c.c":         "int call_usage(void) { return usage(); }\n",
	})
	got := append(resolved(tab, facts, "src/store.c"), resolved(tab, facts, "src/main.c")...)
	got = append(got, resolved(tab, facts, "include/kv/hash.h")...)
	got = append(got, resolved(tab, facts, "tools/b.c")...)
	got = append(got, resolved(tab, facts, "tools/c.c")...)
	langtest.WantAll(t, got,
		// a call through a function pointer member binds nothing
		"kv_put call s.save -> unresolved",
		"kv_put call s.next.save -> unresolved",
		// same file, also when defined after the call
		"kv_put call helper -> src/store.c:helper@4 same_file",
		// a static inline function of an included header
		"kv_put call kv_bucket -> include/kv/hash.h:kv_bucket@2 import",
		// header pairing: the declaration in store.h, the definition in store.c
		"main call kv_put -> src/store.c:kv_put@3 import",
		"kv_bucket call kv_hash -> src/hash.c:kv_hash@2 import",
		// macros are functions
		"main call KV_EMPTY -> include/kv/store.h:KV_EMPTY@2 import",
		"LOG call log_line -> src/log.c:log_line@1 same_package",
		// the C library is outside the repository
		"main call printf -> external",
		// a static function of another source file is not visible: the
		// call is to some function outside
		"main call helper -> external",
		"main call local_only -> src/main.c:local_only@4 same_file",
		// two programs define usage: the caller's own file, else ambiguous
		"other call usage -> tools/b.c:usage@1 same_file",
		"call_usage call usage -> ambiguous",
		"import kv/store.h  -> include/kv/store.h:include/kv/store.h import",
		"import <stdlib.h>  -> external",
	)
}

func TestIncludeResolution(t *testing.T) {
	tab, _ := newTestTable(t, map[string]string{
		"src/a.c":              "",
		"src/util/x.h":         "",
		"lib/util/x.h":         "",
		"include/proj/api.h":   "",
		"src/net/conn.h":       "",
		"third/include/json.h": "",
	})
	for _, tc := range []struct{ from, src, want string }{
		{"src/a.c", "util/x.h", "src/util/x.h"},         // relative to the including file
		{"src/a.c", "proj/api.h", "include/proj/api.h"}, // any file ending with the path
		{"src/a.c", "<proj/api.h>", "include/proj/api.h"},
		{"src/a.c", "<json.h>", "third/include/json.h"}, // in an include directory
		{"src/a.c", "<stdio.h>", "external"},
		{"src/a.c", "missing.h", "unresolved"},
		{"src/a.c", "../src/net/conn.h", "src/net/conn.h"},
		{"src/net/conn.h", "x.h", "src/util/x.h"}, // several: the nearest
	} {
		p, rule := includeFile(tab, tc.from, tc.src)
		got := p
		if p == "" {
			got = rule
		}
		if got != tc.want {
			t.Errorf("#include %s in %s: %s, want %s", tc.src, tc.from, got, tc.want)
		}
	}
}

func TestCppResolution(t *testing.T) {
	tab, facts := newTestTable(t, map[string]string{
		"include/geo/shape.h": shapeSrc,
		"src/circle.cpp": `#include "geo/shape.h"
namespace geo {
namespace detail { int helper(int x) { return x; } }
Circle::Circle(double r) : Shape(), r_(r) {}
double Circle::area() const { return r_ * detail::helper(1); }
Circle Circle::unit() { Circle c(1.0); c.area(); this->draw(); inner_->area(); area(); return c; }
void Circle::draw() {}
bool Circle::operator==(const Circle& o) const { return r_ == o.r_; }
}
`,
		"src/rect.hpp": "#include \"geo/shape.h\"\nnamespace geo { class Rect : public Shape { public: void scale(double f); void scale(double x, double y); double area() const override; }; }\n",
		"src/rect.cpp": "#include \"rect.hpp\"\nnamespace geo {\nvoid Rect::scale(double f) { scale(f, f); }\nvoid Rect::scale(double x, double y) {}\ndouble Rect::area() const { return 1; }\n}\n",
		"src/main.cpp": `#include "geo/shape.h"
#include "rect.hpp"
#include <vector>
using namespace geo;
using geo::Circle;
namespace g = geo;
int main() {
    Circle c = Circle::unit();
    auto p = std::make_unique<Circle>(2.0);
    p->area();
    Rect* r = new Rect();
    r->scale(2.0);
    r->draw();
    Shape* s = r;
    s->area();
    g::Circle::unit();
    geo::detail::helper(3);
    std::vector<int> v;
    v.push_back(1);
    auto u = Circle::unit();
    u.area();
    return 0;
}
`,
	})
	got := append(resolved(tab, facts, "src/circle.cpp"), resolved(tab, facts, "src/main.cpp")...)
	got = append(got, resolved(tab, facts, "src/rect.cpp")...)
	got = append(got, resolved(tab, facts, "include/geo/shape.h")...)
	langtest.WantAll(t, got,
		// a base class's constructor from an initializer list
		"geo.Circle.Circle call Shape.Shape -> include/geo/shape.h:geo.Shape@9 import",
		// a namespace-qualified call from inside the namespace
		"geo.Circle.area call detail.helper -> src/circle.cpp:geo.detail.helper@3 same_file",
		// typed locals, this, members (declared in the header's class)
		"geo.Circle.unit call c.area -> src/circle.cpp:geo.Circle.area@5 same_file",
		"geo.Circle.unit call this.draw -> src/circle.cpp:geo.Circle.draw@7 same_file",
		"geo.Circle.unit call inner_.area -> include/geo/shape.h:geo.Shape.area@13 receiver",
		"geo.Circle.unit call area -> src/circle.cpp:geo.Circle.area@5 same_file",
		// declared in the class, defined out of line: the definition
		"main call Circle.unit -> src/circle.cpp:geo.Circle.unit@6 receiver",
		"main call p.area -> src/circle.cpp:geo.Circle.area@5 receiver",
		"main new Circle -> src/circle.cpp:geo.Circle.Circle@4 import",
		"main new Rect -> src/rect.hpp:geo.Rect@2 import",
		// overloads: the first definition; inherited methods through bases
		// (Rect has no draw: neither has Shape)
		"main call r.scale -> src/rect.cpp:geo.Rect.scale@3 receiver",
		"main call r.draw -> unresolved",
		"main call s.area -> include/geo/shape.h:geo.Shape.area@13 receiver",
		// a namespace alias; a fully qualified call
		"main call g::Circle.unit -> src/circle.cpp:geo.Circle.unit@6 receiver",
		"main call geo::detail.helper -> src/circle.cpp:geo.detail.helper@3 import",
		// the standard library
		"main call std.make_unique -> external",
		"main call v.push_back -> external",
		// a local assigned a call's result
		"main call u.area -> src/circle.cpp:geo.Circle.area@5 receiver",
		// an overload calling its name delegates to the other overload
		"geo.Rect.scale call scale -> src/rect.cpp:geo.Rect.scale@4 same_file",
		"geo.Circle extends Shape -> include/geo/shape.h:geo.Shape@9 same_file",
		"import geo * -> include/geo/shape.h:geo import",
		"import geo Circle -> include/geo/shape.h:geo.Circle import",
		"import <vector>  -> external",
	)
}
