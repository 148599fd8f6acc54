package scala

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

// A file in the style of scopt's OptionParser.scala: nested package
// clauses, selector and wildcard imports, an abstract class with a
// companion object, a case class, a trait, private and protected members.
const scoptStyle = `package scopt
package internal

import scala.collection.mutable.{ListBuffer, Map => MMap}
import java.io._
import scopt.OParser

/** A parser for command line options. */
abstract class OptionParser[C](programName: String) extends OptionDefCreator[C] with Serializable {
  protected val options = new ListBuffer[OptionDef[_, C]]
  private var counter: Int = 0

  def head(xs: String*): OptionDef[Unit, C] = makeDef[Unit](Head, "").text(xs.mkString(" "))

  def parse(args: Seq[String], init: C): Option[C] = {
    val r = new ORunner()
    r.runParser(this, args, init)
  }
}

object OptionParser {
  def apply[C](name: String): OptionParser[C] = new OptionParser[C](name) {}
}

case class OptionDef[A, C](id: Int, kind: OptionDefKind)

trait OptionDefCreator[C] {
  def opt[A: Read](name: String): OptionDef[A, C]
}
`

func TestExtract(t *testing.T) {
	f := langtest.Extract(t, "shared/src/main/scala/scopt/OptionParser.scala", scoptStyle)
	if f.Module != "scopt.internal" {
		t.Errorf("module %q, want scopt.internal", f.Module)
	}
	var got []string
	for _, s := range f.Symbols[1:] {
		got = append(got, fmt.Sprintf("%s %s %d-%d %s", s.Kind, s.Qualified(), s.Range.StartLine, s.Range.EndLine, s.Visibility))
	}
	want := []string{
		"class OptionParser 9-19 public",
		"variable OptionParser.options 10-10 protected",
		"variable OptionParser.counter 11-11 private",
		"method OptionParser.head 13-13 public",
		"method OptionParser.parse 15-18 public",
		"class OptionParser 21-23 public",
		"method OptionParser.apply 22-22 public",
		"class OptionDef 25-25 public",
		"interface OptionDefCreator 27-29 public",
		"method OptionDefCreator.opt 28-28 public",
	}
	if !slices.Equal(got, want) {
		t.Errorf("symbols:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	var imps []string
	for _, imp := range f.Imports {
		s := imp.Source
		if imp.Alias != "" {
			s += "=>" + imp.Alias
		}
		for _, n := range imp.Names {
			s += "." + n.Name
		}
		imps = append(imps, s)
	}
	if want := "scala.collection.mutable.ListBuffer scala.collection.mutable.Map=>MMap java.io.* scopt.OParser"; strings.Join(imps, " ") != want {
		t.Errorf("imports %q, want %q", imps, want)
	}
	cls := f.Symbols[1]
	if cls.Doc != "A parser for command line options." || !slices.Equal(cls.Signature.Bases, []string{"OptionDefCreator", "Serializable"}) {
		t.Errorf("class doc %q bases %q", cls.Doc, cls.Signature.Bases)
	}
	if fs := cls.Signature.Fields; len(fs) != 3 || fs[0].Name != "programName" || fs[1].Name != "options" || fs[1].Type != "ListBuffer[OptionDef[_, C]]" {
		t.Errorf("fields %+v", fs)
	}
	parse := f.Symbols[5]
	if want := "def parse(args: Seq[String], init: C): Option[C]"; parse.Signature.Text != want {
		t.Errorf("parse signature %q, want %q (no = before the body)", parse.Signature.Text, want)
	}
	if want := "def head(xs: String*): OptionDef[Unit, C]"; f.Symbols[4].Signature.Text != want {
		t.Errorf("head signature %q, want %q", f.Symbols[4].Signature.Text, want)
	}
	if parse.Signature.Returns != "Option[C]" || len(parse.Signature.Params) != 2 || parse.Signature.Params[0].Type != "Seq[String]" {
		t.Errorf("parse signature %+v", parse.Signature)
	}
	var refs []string
	for _, r := range f.Refs {
		refs = append(refs, fmt.Sprintf("%s %s:%s.%s/%s", r.Kind, f.Symbols[r.Symbol].Name, r.Qualifier, r.Name, r.QualifierType+r.QualifierCall))
	}
	want = []string{
		"extends OptionParser:.OptionDefCreator/", "extends OptionParser:.Serializable/",
		"new options:.ListBuffer/",
		"call head:.makeDef/", "call head:makeDef().text/makeDef", "call head:xs.mkString/String*",
		"new parse:.ORunner/", "call parse:r.runParser/ORunner",
		"new apply:.OptionParser/",
	}
	if !slices.Equal(refs, want) {
		t.Errorf("refs:\n  %s\nwant:\n  %s", strings.Join(refs, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestTestFiles(t *testing.T) {
	for p, want := range map[string]bool{"shared/src/test/scala/scopttest/ImmutableParserSpec.scala": true,
		"src/main/scala/a/FooSuite.scala": true, "src/main/scala/a/Foo.scala": false, "build.sc": false} {
		if f := langtest.Extract(t, p, "object A\n"); f.IsTest != want {
			t.Errorf("%s: test %v, want %v", p, f.IsTest, want)
		}
	}
}

func TestStripType(t *testing.T) {
	for in, want := range map[string]string{"List[Foo]": "List", "=> Foo": "Foo", "Foo*": "Foo", "a.b.Foo[T]": "a.b.Foo", " Bar ": "Bar"} {
		if got := stripType(in); got != want {
			t.Errorf("stripType(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLocalsAndPackageObjects, in circe's style: the members of a package
// object are the members of the package it names (io.circe.syntax), vals
// inside a test's block are the test's locals, not members of the suite
// (circe's suites held a thousand such variables), a def there stays for
// the calls that bind to it, an object built
// in a val keeps its methods, and an enum lists its cases.
func TestLocalsAndPackageObjects(t *testing.T) {
	f := langtest.Extract(t, "modules/core/shared/src/main/scala/io/circe/syntax/package.scala", `package io.circe

package object syntax {
  implicit final class EncoderOps[A](private val value: A) extends AnyVal {
    final def asJson(implicit encoder: Encoder[A]): Json = encoder(value)
  }
  val Empty: Json = Json.Null
}
`)
	if f.Module != "io.circe.syntax" {
		t.Errorf("package object's module %q, want io.circe.syntax", f.Module)
	}
	// a packaging block of the object's name says the package already
	if f := langtest.Extract(t, "modules/tests/src/main/scala/io/circe/tests/examples/package.scala",
		"package io.circe.tests\n\npackage object examples extends AllInstances {\n  val glossary: Json = Json.Null\n}\n\npackage examples {\n  case class Qux[A](i: Int, a: A)\n}\n"); f.Module != "io.circe.tests.examples" {
		t.Errorf("module %q, want io.circe.tests.examples", f.Module)
	}
	if f := langtest.Extract(t, "a/package.scala", "package a {\n  package object b {\n    def f = 1\n  }\n}\n"); f.Module != "a.b" {
		t.Errorf("module %q, want a.b", f.Module)
	}
	var got []string
	for _, s := range f.Symbols[1:] {
		got = append(got, s.Kind+" "+s.Qualified())
	}
	if want := []string{"class EncoderOps", "method EncoderOps.asJson", "variable Empty"}; !slices.Equal(got, want) {
		t.Errorf("package object symbols %q, want %q", got, want)
	}

	f = langtest.Extract(t, "modules/tests/shared/src/test/scala/io/circe/DecoderSuite.scala", `package io.circe

class DecoderSuite extends CirceMunitSuite {
  val shared = Decoder[Int]

  test("prepare should move appropriately") {
    val json = Json.obj("a" -> Json.True)
    def helper(j: Json): Int = 1
    assertEquals(json.hcursor.downField("a").as[Boolean], Right(true))
  }

  "a decoder" should "fail" in {
    var failed = false
  }

  private val decodeA = new Decoder[Int] {
    def apply(c: HCursor): Decoder.Result[Int] = Right(1)
  }

  private lazy val dict: Map[String, Int] = {
    def find(p: String): Int = 1
    Map("a" -> find("a"))
  }
}

object Directions:
  enum Intercardinal:
    case NorthEast, SouthEast
    case Custom(degrees: Int)
`)
	got = nil
	for _, s := range f.Symbols[1:] {
		got = append(got, s.Kind+" "+s.Qualified())
	}
	want := []string{"class DecoderSuite", "variable DecoderSuite.shared", "method DecoderSuite.helper", "variable DecoderSuite.decodeA",
		"function DecoderSuite.decodeA.apply", "variable DecoderSuite.dict", "function DecoderSuite.dict.find",
		"class Directions", "class Directions.Intercardinal"}
	if !slices.Equal(got, want) {
		t.Errorf("suite symbols:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	var cases []string
	for _, p := range langtest.Sym(t, f, "Directions.Intercardinal").Signature.Fields {
		cases = append(cases, p.Name+":"+p.Type)
	}
	if want := []string{"NorthEast:Intercardinal", "SouthEast:Intercardinal", "Custom:(degrees: Int)"}; !slices.Equal(cases, want) {
		t.Errorf("enum cases %q, want %q", cases, want)
	}
}

// TestSkeletonPackageObject: a package object's skeleton shows its
// members, as an object's does (circe's syntax/package.scala was one
// line, package object syntax { /* ... */ }).
func TestSkeletonPackageObject(t *testing.T) {
	src := "package io.circe\n\npackage object syntax {\n  implicit final class EncoderOps[A](private val value: A) extends AnyVal {\n    final def asJson(implicit encoder: Encoder[A]): Json = {\n      encoder(value)\n    }\n  }\n}\n"
	ps := lang.NewParser()
	defer ps.Close()
	tree, err := ps.ParseFile(lang.ForPath("a.scala"), "a.scala", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, l := range lang.Skeleton(tree, 0, uint32(len(src)), lang.SkeletonOptions{}) {
		text = append(text, l.Text)
	}
	got := strings.Join(text, "\n")
	if !strings.Contains(got, "implicit final class EncoderOps") || !strings.Contains(got, "final def asJson(implicit encoder: Encoder[A]): Json") {
		t.Errorf("skeleton:\n%s\nwant EncoderOps and asJson", got)
	}
}
