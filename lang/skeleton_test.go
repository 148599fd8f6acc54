package lang

import (
	"strings"
	"testing"
	"time"
)

func skeletonOf(t *testing.T, lang, src string, opts SkeletonOptions) string {
	t.Helper()
	p := NewParser()
	defer p.Close()
	tr, err := p.Parse(ByName(lang), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range Skeleton(tr, 0, uint32(len(src)), opts) {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

// TestSkeletonElidesBodies checks the rules every language shares: bodies
// elided behind the marker, control flow and exits kept, comments cut to
// their first line.
func TestSkeletonElidesBodies(t *testing.T) {
	for _, tc := range []struct {
		lang, src string
		want, not []string
	}{
		{"go", "package p\n\n// F does it.\n// More words.\nfunc F(x int) error {\n\ty := x * 2\n\tif y > 3 {\n\t\treturn nil\n\t}\n\tz := y\n\t_ = z\n\treturn errX\n}\n",
			[]string{"// F does it.", "func F(x int) error {", "\tif y > 3 {", "\t\treturn nil", "\t/* ... */", "\treturn errX"},
			[]string{"More words", "y := x * 2", "z := y"}},
		{"python", "def f(x):\n    \"\"\"Doc line.\n\n    More.\n    \"\"\"\n    y = x * 2\n    for i in y:\n        print(i)\n    raise ValueError(x)\n",
			[]string{"def f(x):", `    """Doc line."""`, "    ...", "    for i in y: ...", "    raise ValueError(x)"},
			[]string{"More.", "y = x * 2", "print(i)"}},
		{"javascript", "/**\n * Handles it.\n * More.\n */\nfunction h(req) {\n  const a = 1;\n  try {\n    go(a);\n  } catch (e) {\n    throw e;\n  }\n}\n",
			[]string{"/** Handles it. */", "function h(req) {", "  try { /* ... */ } catch (e) {", "    throw e;"},
			[]string{"More.", "const a = 1", "go(a)"}},
		{"rust", "/// Adds.\npub fn add(a: i32) -> i32 {\n    let b = a + 1;\n    match b {\n        0 => panic!(\"zero\"),\n        _ => {}\n    }\n    b\n}\n",
			[]string{"/// Adds.", "pub fn add(a: i32) -> i32 {", "    match b {", "        0 => panic!(\"zero\"),", "    b"},
			[]string{"let b = a + 1"}},
		{"java", "class A {\n  int f(int x) {\n    int y = x;\n    while (y > 0) {\n      y--;\n    }\n    return y;\n  }\n}\n",
			[]string{"class A {", "  int f(int x) {", "    while (y > 0) { /* ... */ }", "    return y;"},
			[]string{"int y = x", "y--"}},
		{"csharp", "namespace N\n{\n    /// <summary>Adds.</summary>\n    class A\n    {\n        int F(int x)\n        {\n            var y = x;\n            foreach (var i in xs)\n            {\n                y++;\n            }\n            if (y < 0) throw new E();\n            return y;\n        }\n    }\n}\n",
			[]string{"namespace N {", "    class A {", "        int F(int x) {", "            foreach (var i in xs) { /* ... */ }",
				"            if (y < 0) throw new E();", "            return y;"},
			[]string{"var y = x", "y++"}},
		{"ruby", "# Sums.\nclass A\n  def f(x)\n    y = x * 2\n    if y > 3\n      raise ArgumentError\n    end\n    z = y\n    return z unless z\n    z\n  end\nend\n",
			[]string{"# Sums.", "class A", "  def f(x)", "    # ...", "    if y > 3", "      raise ArgumentError", "    end",
				"    return z unless z", "  end", "end"},
			[]string{"y = x * 2", "z = y"}},
		{"php", "<?php\nclass A {\n    /**\n     * Adds.\n     * More.\n     */\n    public function f($x) {\n        $y = $x;\n        foreach ($xs as $i) {\n            $y++;\n        }\n        if ($y < 0) {\n            throw new E();\n        }\n        return $y;\n    }\n}\n",
			[]string{"class A {", "    /** Adds. */", "    public function f($x) {", "        foreach ($xs as $i) { /* ... */ }",
				"            throw new E();", "        return $y;"},
			[]string{"$y = $x", "$y++", "More."}},
		{"bash", "#!/bin/bash\n\n# Builds.\nbuild() {\n  local d=\"$1\"\n  [[ -d $d ]] || die \"no dir\"\n  for f in *.c; do\n    cc \"$f\"\n  done\n  echo done\n}\n",
			[]string{"# Builds.", "build() {", "  [[ -d $d ]] || die \"no dir\"", "  for f in *.c; do ...", "  done", "  ...", "}"},
			[]string{"local d=", "cc \"$f\"", "echo done"}},
		{"c", "#include \"a.h\"\n/** Opens it.\n * More. */\nint open_it(const char *p)\n{\n    int fd = open(p, 0);\n    if (fd < 0)\n        goto fail;\n    switch (fd) {\n    case 0:\n        close(fd);\n        break;\n    }\n    return fd;\nfail:\n    return -1;\n}\n",
			[]string{"#include \"a.h\"", "/** Opens it. */", "int open_it(const char *p) {", "    if (fd < 0)", "        goto fail;", "    switch (fd) {", "    case 0:", "        break;", "    return fd;"},
			[]string{"More.", "int fd = open", "close(fd)"}},
		{"cpp", "namespace n {\n/// A thing.\nclass A : public B {\npublic:\n    int f(int x) const {\n        int y = x;\n        try { g(); } catch (const E& e) { throw; }\n        return y;\n    }\n};\n}\n",
			[]string{"namespace n {", "/// A thing.", "class A : public B {", "public:", "    int f(int x) const {", "        try { /* ... */ } catch (const E& e) { throw; }", "        return y;", "};"},
			[]string{"int y = x", "g();"}},
	} {
		got := skeletonOf(t, tc.lang, tc.src, SkeletonOptions{})
		for _, w := range tc.want {
			if !strings.Contains(got, w+"\n") {
				t.Errorf("%s: skeleton lacks line %q:\n%s", tc.lang, w, got)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: skeleton keeps %q:\n%s", tc.lang, n, got)
			}
		}
	}
}

func TestSkeletonDepth(t *testing.T) {
	src := "package p\n\nfunc F() {\n\tfor {\n\t\tif a {\n\t\t\tif b {\n\t\t\t\treturn\n\t\t\t}\n\t\t}\n\t}\n}\n"
	got := skeletonOf(t, "go", src, SkeletonOptions{Depth: 1})
	if !strings.Contains(got, "\tfor { /* ... */ }") || strings.Contains(got, "if a") {
		t.Errorf("depth 1:\n%s", got)
	}
	got = skeletonOf(t, "go", src, SkeletonOptions{Depth: 3})
	if !strings.Contains(got, "\t\t\tif b { /* ... */ }") {
		t.Errorf("depth 3:\n%s", got)
	}
}

func TestSkeletonExportedOnly(t *testing.T) {
	for _, tc := range []struct {
		lang, src string
		want, not []string
	}{
		{"go", "package p\n\nvar (\n\tX = 1\n\ty = 2\n)\n\nvar (\n\tz = 3\n)\n\n// hidden does.\nfunc hidden() {}\n\n// Shown does.\nfunc Shown() {}\n\ntype T struct {\n\tA int\n\tb int\n}\n",
			[]string{"func Shown() {}", "\tA int", "var (", "\tX = 1", ")"}, []string{"hidden", "b int", "y = 2", "z = 3"}},
		{"python", "def _p():\n    pass\n\ndef q():\n    pass\n\nclass C:\n    def __init__(self):\n        pass\n    def _x(self):\n        pass\n",
			[]string{"def q(): ...", "    def __init__(self): ..."}, []string{"_p", "_x"}},
		{"typescript", "function a() {}\nexport function b() {}\nexport class C {\n  private x = 1;\n  y = 2;\n}\n",
			[]string{"export function b() {}", "  y = 2;"}, []string{"function a", "x = 1"}},
		{"rust", "fn a() {}\npub fn b() {}\npub struct S {\n    pub x: i32,\n    y: i32,\n}\n",
			[]string{"pub fn b() {}", "    pub x: i32,"}, []string{"fn a", "y: i32"}},
		{"java", "public class A {\n  public void p() {}\n  private void q() {}\n}\n",
			[]string{"  public void p() {}"}, []string{"q()"}},
		{"csharp", "public class A {\n  public void P() {}\n  void Q() {}\n  protected int R { get; private set; }\n}\n",
			[]string{"  public void P() {}", "  protected int R { get; private set; }"}, []string{"Q()"}},
		{"ruby", "class A\n  def p; end\n\n  private\n\n  def q; end\nend\n",
			[]string{"  def p; end"}, []string{"def q"}},
		{"php", "<?php\nclass A {\n  public function p() {}\n  function d() {}\n  private function q() {}\n}\n",
			[]string{"  public function p() {}", "  function d() {}"}, []string{"q()"}},
		{"bash", "f() { :; }\n_g() { :; }\n",
			[]string{"f() { ... }"}, []string{"_g"}},
		{"kotlin", "class A {\n  fun p() {}\n  private fun q() {}\n  internal val r = 1\n}\n",
			[]string{"  fun p() {}"}, []string{"q()", "val r"}},
		{"swift", "public class A {\n  public func p() {}\n  func q() {}\n  private var r = 1\n}\n",
			[]string{"  public func p() {}"}, []string{"q()", "var r"}},
		{"c", "static int hidden(void) { return 0; }\nint shown(void) { return 1; }\nstruct s {\n    int a;\n};\n",
			[]string{"int shown(void) { return 1; }", "    int a;"}, []string{"hidden"}},
		{"cpp", "class A {\n    int secret_;\npublic:\n    void p();\nprivate:\n    void q();\n};\nstruct S { int open; };\nnamespace { void inner() {} }\n",
			[]string{"    void p();", "public:", "struct S { int open; };"}, []string{"secret_", "q()", "inner"}},
	} {
		got := skeletonOf(t, tc.lang, tc.src, SkeletonOptions{ExportedOnly: true})
		for _, w := range tc.want {
			if !strings.Contains(got, w+"\n") {
				t.Errorf("%s: exported skeleton lacks %q:\n%s", tc.lang, w, got)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: exported skeleton keeps %q:\n%s", tc.lang, n, got)
			}
		}
	}
}

func TestMatchIdentifiers(t *testing.T) {
	p := NewParser()
	defer p.Close()
	src := "package p\n\n// cache is used\nfunc f() {\n\tcacheSize := 1\n\ts := \"cache\"\n\tx.cache = s\n\tif cache != nil {\n\t}\n}\n"
	tr, err := p.Parse(ByName("go"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, m := range MatchIdentifiers(tr, 0, uint32(len(src)), []string{"cache", "if", "x.cache"}) {
		lines = append(lines, m.Line)
		if m.Name == "if" && !m.Keyword {
			t.Errorf("if is a keyword: %+v", m)
		}
	}
	// line 7: x.cache (field, and the dotted expression), line 8: if, cache
	want := []int{7, 7, 8, 8}
	if len(lines) != len(want) {
		t.Fatalf("matches on lines %v, want %v", lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Fatalf("matches on lines %v, want %v", lines, want)
		}
	}
}

// FuzzSkeleton renders arbitrary source: it must not panic, and every line
// it writes must come from somewhere in the file.
func FuzzSkeleton(f *testing.F) {
	f.Add("go", "package p\nfunc f() { if x { return } }\n")
	f.Add("python", "def f(:\n  if x:\n    return")
	f.Add("rust", "fn f() { match x { _ => { } } }")
	f.Add("javascript", "switch (x) { case 1: }")
	f.Add("java", "class A { void f() { switch (x) { case 1 -> {} } } }")
	f.Add("csharp", "namespace N { class A { int P { get { if (x) return 1; return 2; } } void F() { switch (x) { case 1: break; } } } }")
	f.Add("ruby", "class A\n  def f\n    case x\n    when 1 then y\n    else\n      begin; z; rescue; retry; end\n    end\n  end\nend")
	f.Add("php", "<?php class A { function f() { switch ($x) { case 1: break; } } } ?><p><?= $y ?></p>")
	f.Add("kotlin", "class A { fun f(x: Int) { when (x) { 1 -> g() else -> { h() } }; try { i() } catch (e: E) { throw e } } }")
	f.Add("swift", "class A { func f() { switch x { case 1: g() default: break }; do { try h() } catch { return } } }")
	f.Add("bash", "f() { if a; then b; elif c; then d; else e; fi; case $x in a) y ;; esac; }")
	f.Add("c", "#ifdef X\nint f(void) { switch (x) { case 1: return; } }\n#endif\n")
	f.Add("cpp", "template <class T> class A { public: void f() { try {} catch (...) {} } };")
	f.Fuzz(func(t *testing.T, name, src string) {
		l := ByName(name)
		if l == nil || len(src) > 1<<16 {
			return
		}
		p := NewParser()
		defer p.Close()
		p.Timeout = time.Second
		tr, err := p.Parse(l, []byte(src))
		if err != nil {
			return
		}
		lines := Skeleton(tr, 0, uint32(len(src)), SkeletonOptions{})
		nlines := strings.Count(src, "\n") + 1
		for _, ln := range lines {
			if ln.Line < 0 || ln.Line > nlines {
				t.Fatalf("line %d of a %d-line file", ln.Line, nlines)
			}
		}
		// a symbol range anywhere in the file
		if len(src) > 2 {
			Skeleton(tr, uint32(len(src)/3), uint32(len(src)/2+1), SkeletonOptions{ExportedOnly: true})
		}
	})
}

// A byte order mark before the first line (Visual Studio saves C# files
// with one) does not indent that line: eShop's skeletons began
// "    using ...".
func TestSkeletonByteOrderMark(t *testing.T) {
	for _, tc := range []struct{ lang, src, first string }{
		{"csharp", "\xEF\xBB\xBFusing System;\n\nnamespace N;\n\nclass A { }\n", "using System;\n"},
		{"java", "\xEF\xBB\xBFpackage p;\n\nclass A { }\n", "package p;\n"},
		{"python", "\xEF\xBB\xBFimport os\n\n\ndef f():\n    pass\n", "import os\n"},
	} {
		if got := skeletonOf(t, tc.lang, tc.src, SkeletonOptions{}); !strings.HasPrefix(got, tc.first) {
			t.Errorf("%s: skeleton starts %q, want %q", tc.lang, got[:min(len(got), 40)], tc.first)
		}
	}
}

// A field, property or enum constant whose annotations stand on lines of
// their own keeps them and its declaration line: commons-lang's
// JavaVersion read "@Deprecated /* ... */" for JAVA_1_9, and every C#
// property with an attribute above it read "[JsonIgnore] /* ... */".
func TestSkeletonAnnotationLines(t *testing.T) {
	for _, tc := range []struct {
		lang, src string
		want      []string
	}{
		{"java", "enum V {\n    @Deprecated\n    JAVA_1_9(9.0f, \"9\"),\n    JAVA_9(9.0f, \"9\");\n\n    @SuppressWarnings(\"unchecked\")\n    private final List<String> names =\n        new ArrayList<>();\n}\n",
			[]string{"    @Deprecated\n    JAVA_1_9(9.0f, \"9\"),\n", "    @SuppressWarnings(\"unchecked\")\n    private final List<String> names = /* ... */\n"}},
		{"csharp", "class B\n{\n    [Obsolete(\"no\")]\n    [JsonPropertyName(\"x\")]\n    public int X { get; set; }\n}\n",
			[]string{"    [Obsolete(\"no\")]\n    [JsonPropertyName(\"x\")]\n    public int X { get; set; }\n"}},
	} {
		got := skeletonOf(t, tc.lang, tc.src, SkeletonOptions{})
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: skeleton lacks %q:\n%s", tc.lang, w, got)
			}
		}
	}
}

// A declaration whose opening bracket stands on a line of its own (C#'s
// Allman style) keeps it: Ocelot's UpstreamPathTemplate read "public Regex
// Pattern /* ... */ }" and its creators "return new Route() /* ... */ };".
func TestSkeletonOpenerOnItsOwnLine(t *testing.T) {
	src := "class A\n{\n    public int P\n    {\n        get => _p;\n        set => _p = value;\n    }\n\n" +
		"    Route F()\n    {\n        return Task.FromResult(new List<S>\n        {\n            new S(\"}\"),\n        });\n    }\n\n" +
		"    static readonly string[] H = new[] // the \"(\" headers\n    {\n        \"a\",\n    };\n}\n"
	got := skeletonOf(t, "csharp", src, SkeletonOptions{})
	for _, w := range []string{
		"    public int P { /* ... */ }\n",
		"        return Task.FromResult(new List<S> { /* ... */ });\n",
		"    static readonly string[] H = new[] { /* ... */ }; // the \"(\" headers\n",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("skeleton lacks %q:\n%s", w, got)
		}
	}
}
