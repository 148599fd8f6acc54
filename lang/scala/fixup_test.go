package scala

import (
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang/langtest"
)

// TestFixupCirce: valid Scala that tree-sitter-scala reads as errors, as
// circe writes it, parses without one, and what follows it is extracted:
// ArraySeqSuite's forAll { intArray: Array[Int] => }, LargeNumberDecoder
// Tests' empty self-type, JsonLiteralMacros' given ... with { }.
func TestFixupCirce(t *testing.T) {
	src := `package io.circe

trait LargeNumberDecoderTests { this: CirceMunitSuite => }

class ArraySeqSuite extends CirceMunitSuite {
  property("decoding an arraySeq") {
    forAll { intArray: Array[Int] =>
      val jsonArray = Json.arr(intArray.map(_.asJson).toIndexedSeq: _*)
      assert(jsonArray.isArray)
    }
  }

  def after(): Int = 1
}

object JsonLiteralMacros {
  inline given Facade[Expr[Json]] with {
    private def toJsonKey(s: String): Expr[String] = Expr(s)
    def jnull(index: Int): Expr[Json] = '{ Json.Null }
  }

  def jsonImpl(sc: Expr[StringContext]): Expr[Json] = '{ Json.Null }
}
`
	f := langtest.Extract(t, "modules/tests/shared/src/test/scala/io/circe/ArraySeqSuite.scala", src)
	var got []string
	for _, s := range f.Symbols[1:] {
		got = append(got, s.Kind+" "+s.Qualified())
	}
	for _, want := range []string{"interface LargeNumberDecoderTests", "method ArraySeqSuite.after", "method JsonLiteralMacros.jsonImpl"} {
		if !strings.Contains(strings.Join(got, "\n")+"\n", want+"\n") {
			t.Errorf("no %s in %q", want, got)
		}
	}
}

// TestFixupLeavesTheRest: strings and comments are not rewritten, a
// parenthesised parameter and a type ascription are left as they are,
// and the length never changes.
func TestFixupLeavesTheRest(t *testing.T) {
	for _, src := range []string{
		`val s = "{ x: Int => }"` + "\n",
		"// forAll { x: Int => }\n",
		"/* given A with { /* nested */ } */\n",
		"xs.map { (x: Int) => x }\n",
		"val y = { x: Int }\n",
		"xs.foreach { case x: Int => x }\n",
		`val c = '{'` + "\nval s = '{ x }\n",
	} {
		if got := string(fixup([]byte(src))); got != src {
			t.Errorf("fixup(%q) = %q, want it unchanged", src, got)
		}
	}
	src := "forAll { xs: List[Int] =>\n  xs\n}\ngiven A with {\n  def f = \"}\"\n}\n"
	got := string(fixup([]byte(src)))
	if want := "forAll { xs            =>\n  xs\n}\ngiven A with  \n  def f = \"}\"\n \n"; got != want {
		t.Errorf("fixup:\n%s\nwant:\n%s", got, want)
	}
}

// FuzzFixup: whatever the input, the fixup keeps every byte offset and
// line break, and changes nothing but to spaces.
func FuzzFixup(f *testing.F) {
	for _, s := range []string{"forAll { xs: List[Int] =>\n  xs\n}\n", "given A with {\n  def f = 1\n}\n", "trait A { this: B => }",
		`"""a"""" '\n' /* /* */ { x: T => } */ 'c' "{"`, "{ x: T =>", "given with {{", "/*", `"`, "'"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out := fixup(src)
		if len(out) != len(src) {
			t.Fatalf("length %d, want %d", len(out), len(src))
		}
		for i := range src {
			if out[i] != src[i] && (out[i] != ' ' || src[i] == '\n' || src[i] == '\r') {
				t.Fatalf("byte %d: %q became %q", i, src[i], out[i])
			}
		}
	})
}
