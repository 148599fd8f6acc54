package lang

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExtract parses arbitrary bytes as each registered language (chosen by
// which): extraction and resolution must not panic, and what extraction
// returns must be well formed.
func FuzzExtract(f *testing.F) {
	seeds := map[string]string{
		"python":     "class A(B):\n    def f(self, x: int = 1) -> str:\n        if not x:\n            raise ValueError()\n        return self.g(x)\n",
		"javascript": "import {a} from './b';\nexport class C extends D { m() { return this.n(a()) } }\n",
		"typescript": "export function f<T>(x: T): T { if (!x) throw new Error('x'); return g(x) }\n",
		"rust":       "use crate::a::b;\npub struct S { x: u8 }\nimpl S { pub fn new() -> Self { S { x: b() } } }\n",
		"java":       "package p;\nimport q.R;\npublic class A extends B { void m(R r) { if (r == null) return; r.run(); } }\n",
		"go":         "package a\nfunc f() { g() }\n",
		"csharp":     "using A.B;\nnamespace N;\npublic partial class C : B, I { public int P { get; set; } void M(T t) { if (t == null) throw new E(); t.Go(); } }\npublic class K(int x) : B<int>(x);\nclass L; class Q { }\n",
		"ruby":       "require_relative 'a'\nmodule M\n  class C < B\n    include I\n    attr_reader :x\n    def f(y) = raise E if y.nil?\n  end\nend\n",
		"php":        "<?php\nnamespace A;\nuse B\\C;\nclass D extends C implements I { use T; public function f(C $c): void { if (!$c) throw new E(); $c->g(); } }\n",
		"kotlin":     "package a.b\nimport c.D\nclass E(val d: D) : F(), G { fun m(x: Int = 1): Int { if (x < 0) return 0; d.go(); return x } companion object { fun n() = E(D()) } }\n",
		"swift":      "import Foundation\nprotocol P { func f() }\nclass C: B, P { let d: D; init(d: D) { self.d = d }\n func f() { guard d.ok else { return }; d.go() } }\nextension C { func g() {} }\n",
		"bash":       "source \"$(dirname \"$0\")/lib.sh\"\nf() { [[ -n $1 ]] || die x; rm -rf \"$1\" > log; }\nexport X=1\nf \"$@\"\n",
		"c":          "#include \"a.h\"\n#define M(x) f(x)\nstruct s { int (*cb)(void); };\nstatic int g(struct s *p) { if (!p) return -1; return p->cb() + M(1); }\n",
		"scala":      "package a.b\nimport c.{D, E => F}\nclass G(val d: D) extends H with I { def m(x: Int): Int = { if (x < 0) return 0; d.go(new F()); x } }\nobject G { def apply() = new G(D()) }\n",
		"lua":        "local u = require(\"a.b\")\nlocal M = {}\nfunction M.f(x) if not x then error(\"x\") end return u.g(x) end\nfunction M:h() self:f(1) end\nreturn M\n",
		"cpp":        "namespace n {\nclass A : public B { public: A(int x) : B(x) {} virtual int f() const = 0; };\nint A::g() { if (!x) throw E(); return this->f() + ns::h(); }\n}\n",
	}
	for i, l := range All() {
		if s, ok := seeds[l.Name]; ok {
			f.Add(uint8(i), s)
		}
	}
	f.Add(uint8(0), "\x00\xff{{{((([[[")
	f.Fuzz(func(t *testing.T, which uint8, src string) {
		if len(src) > 1<<16 {
			return
		}
		langs := All()
		l := langs[int(which)%len(langs)]
		p := NewParser()
		defer p.Close()
		facts, err := Extract(p, l, "dir/file"+l.Extensions[0], []byte(src))
		if err != nil {
			return
		}
		checkFacts(t, facts, src)
	})
}

// checkFacts asserts the structural promises of extraction.
func checkFacts(t *testing.T, f *FileFacts, src string) {
	t.Helper()
	if len(f.Symbols) == 0 || f.Symbols[0].Kind != KindModule {
		t.Fatalf("no module symbol first")
	}
	lines := strings.Count(src, "\n") + 1
	for i, s := range f.Symbols {
		if s.Name == "" && s.Kind != KindModule {
			t.Errorf("symbol %d has no name", i)
		}
		if i > 0 && (s.Parent < 0 || s.Parent >= i) {
			t.Errorf("symbol %d (%s) has parent %d", i, s.Name, s.Parent)
		}
		if s.Range.StartLine < 1 || s.Range.EndLine < s.Range.StartLine || s.Range.EndLine > lines+1 {
			t.Errorf("symbol %s range %+v outside 1..%d", s.Name, s.Range, lines)
		}
		if !utf8.ValidString(s.Summary) {
			t.Errorf("symbol %s summary is not UTF-8", s.Name)
		}
	}
	for _, r := range f.Refs {
		if r.Symbol < 0 || r.Symbol >= len(f.Symbols) || r.Name == "" {
			t.Errorf("bad ref %+v", r)
		}
	}
}

func TestSplitIdent(t *testing.T) {
	for in, want := range map[string]string{
		"getUserById":     "get user by id",
		"HTTPServer":      "http server",
		"parse_config_v2": "parse config v2",
		"sortedIDs":       "sorted ids",
		"XMLHttpRequest":  "xml http request",
		"already":         "already",
		"URLsForDomain":   "urls for domain",
		"__init__":        "init",
		"Utf8Valid":       "utf8 valid",
	} {
		if got := strings.Join(SplitIdent(in), " "); got != want {
			t.Errorf("SplitIdent(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzExtractGo parses arbitrary bytes as Go: extraction must not panic,
// and what it returns must be well formed.
func FuzzExtractGo(f *testing.F) {
	f.Add("package a\nfunc f() { g() }\n")
	f.Add("package a\ntype T struct{ x int }\nfunc (t *T) M() { if t == nil { panic(1) } }\n")
	f.Add("package a\nfunc Broken( {\n")
	f.Add("\x00\xff\xfe")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		p := NewParser()
		defer p.Close()
		facts, err := Extract(p, ByName("go"), "a.go", []byte(src))
		if err != nil {
			return
		}
		checkFacts(t, facts, src)
	})
}
