package kotlin

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

func TestExtract(t *testing.T) {
	f := langtest.Extract(t, "src/main/kotlin/a/Store.kt", `package com.shop.store

import com.shop.model.Item
import com.shop.model.*
import kotlinx.coroutines.launch as go

/** A store. */
abstract class Base<T : Item>(val name: String) : Priced, Comparable<T> {
    abstract fun total(): Int
    protected open fun log(msg: String = "x", vararg rest: Any) { println(msg) }
}

interface Priced { fun price(): Long }

object Registry { const val MAX = 3 }

private var count = 0

class Store(private val repo: Repo) : Base<Item>("s"), Priced {
    override fun total(): Int {
        if (count < 0) return 0
        require(count < 10)
        val r = Repo()
        r.save(1)
        this.repo.load("a")
        fun inner(y: Int) = y + 1
        return inner(2)
    }
    companion object { fun create(): Store = Store(Repo()) }
    suspend fun fetch(url: String): String = throw IllegalStateException("x")
}
`)
	base := langtest.Sym(t, f, "Base")
	if base.Kind != lang.KindClass || base.Doc != "A store." || !base.Exported || len(base.Signature.Generics) != 1 {
		t.Errorf("Base = %+v", base)
	}
	if got := strings.Join(base.Signature.Bases, ","); got != "Priced,Comparable<T>" {
		t.Errorf("bases %q", got)
	}
	log := langtest.Sym(t, f, "Base.log")
	if log.Kind != lang.KindMethod || log.Visibility != lang.VisProtected || len(log.Signature.Params) != 2 ||
		log.Signature.Params[0].Default != `"x"` || !log.Signature.Params[1].Variadic {
		t.Errorf("log = %+v", log)
	}
	if s := langtest.Sym(t, f, "Priced"); s.Kind != lang.KindInterface {
		t.Errorf("Priced kind %s", s.Kind)
	}
	if s := langtest.Sym(t, f, "Registry.MAX"); s.Kind != lang.KindVariable {
		t.Errorf("MAX kind %s", s.Kind)
	}
	if s := langtest.Sym(t, f, "count"); s.Visibility != lang.VisPrivate || s.Exported {
		t.Errorf("count = %+v", s)
	}
	if s := langtest.Sym(t, f, "Store.repo"); s.Visibility != lang.VisPrivate || s.Signature.Returns != "Repo" {
		t.Errorf("repo = %+v", s)
	}
	if s := langtest.Sym(t, f, "Store.create"); !slices.Contains(s.Signature.Modifiers, "static") || s.Signature.Returns != "Store" {
		t.Errorf("create = %+v", s)
	}
	if s := langtest.Sym(t, f, "Store.total.inner"); s.Kind != lang.KindFunction {
		t.Errorf("inner kind %s", s.Kind)
	}
	total := langtest.Sym(t, f, "Store.total")
	if got := langtest.FactTexts(total.Invariants); len(got) != 2 || !strings.Contains(got[0], "count < 0") {
		t.Errorf("guards %v", got)
	}
	langtest.WantAll(t, langtest.Imports(f), "com.shop.model.Item@3", "com.shop.model names=*@4", "kotlinx.coroutines.launch alias=go@5")
	var refs []string
	for _, r := range f.Refs {
		refs = append(refs, r.Kind+" "+r.Qualifier+"."+r.Name+" qt="+r.QualifierType)
	}
	langtest.WantAll(t, refs, "extends .Base qt=", "implements .Priced qt=", "new .Repo qt=", "call r.save qt=Repo",
		"call this.repo.load qt=Store", "call .inner qt=", "new .IllegalStateException qt=")
}

// A top-level extension function is a method of the type it extends; one
// on a function type or on its own type parameter stays a function.
func TestExtensionContainer(t *testing.T) {
	f := langtest.Extract(t, "src/Url.kt", `package http
fun URLBuilder.takeFrom(url: String): URLBuilder = this
fun io.ktor.Headers?.names(): Set<String> = emptySet()
fun <T> T.also2(): T = this
fun (() -> Unit).run2() {}
class Box { fun String.shout() = this }
`)
	take := langtest.Sym(t, f, "URLBuilder.takeFrom")
	if take.Kind != lang.KindMethod || take.Signature.Receiver != "URLBuilder" || !strings.Contains(take.Signature.Text, "fun URLBuilder.takeFrom") {
		t.Errorf("takeFrom = %+v", take)
	}
	if s := langtest.Sym(t, f, "io.ktor.Headers.names"); s.Kind != lang.KindMethod {
		t.Errorf("names = %+v", s)
	}
	for _, q := range []string{"also2", "run2"} {
		if s := langtest.Sym(t, f, q); s.Kind != lang.KindFunction || s.Container != "" {
			t.Errorf("%s = %+v", q, s)
		}
	}
	if s := langtest.Sym(t, f, "Box.shout"); s.Kind != lang.KindMethod {
		t.Errorf("member extension = %+v", s)
	}
}

// A primary constructor with a visibility modifier, after two annotations
// and "open", is still a class with members (koin's KoinApplication, whose
// members were top-level functions), and a secondary constructor keeps its
// own visibility.
func TestPrimaryConstructorVisibility(t *testing.T) {
	f := langtest.Extract(t, "src/KoinApplication.kt", `package org.koin.core

import kotlin.time.measureTime

@OptIn(KoinInternalApi::class)
@KoinApplicationDslMarker
open class KoinApplication protected constructor() {
    val koin = Koin()
    fun modules(vararg modules: Module): KoinApplication = this
}

@Deprecated("x")
@Suppress("unused")
open class Holder<T : Any> @Inject internal constructor(val value: T) {
    fun get(): T = value
    private constructor(x: Int) : this(x as T)
}
`)
	app := langtest.Sym(t, f, "KoinApplication")
	if app.Kind != lang.KindClass || !strings.Contains(app.Signature.Text, "protected constructor()") {
		t.Errorf("KoinApplication = %+v", app)
	}
	if s := langtest.Sym(t, f, "KoinApplication.modules"); s.Kind != lang.KindMethod {
		t.Errorf("modules = %+v", s)
	}
	langtest.Sym(t, f, "KoinApplication.koin")
	if got := langtest.Symbols(f); !slices.Contains(got, "constructor Holder.Holder private") {
		t.Errorf("secondary constructor lost its visibility: %v", got)
	}
	langtest.Sym(t, f, "Holder.get")
	langtest.Sym(t, f, "Holder.value")
}

// An annotated annotation class with neither parameters nor body, which the
// grammar reads as an expression, is still a class (koin's KoinDslMarker and
// KoinInternalApi, imported by most of its files); an annotated call is not.
func TestAnnotatedMarkerClass(t *testing.T) {
	f := langtest.Extract(t, "src/Markers.kt", `package org.koin.core.module

@DslMarker
annotation class KoinDslMarker

/** Internal API. */
@RequiresOptIn(message = "internal", level = RequiresOptIn.Level.ERROR)
@Retention(AnnotationRetention.BINARY)
annotation class KoinInternalApi

fun main() {
    @Suppress("x")
    foo bar baz
}
`)
	m := langtest.Sym(t, f, "KoinDslMarker")
	if m.Kind != lang.KindClass || !m.Exported || !slices.Contains(m.Signature.Modifiers, "@DslMarker") || !slices.Contains(m.Signature.Modifiers, "annotation") {
		t.Errorf("KoinDslMarker = %+v", m)
	}
	in := langtest.Sym(t, f, "KoinInternalApi")
	if in.Kind != lang.KindClass || !in.Exported || in.Doc != "Internal API." ||
		!slices.Contains(in.Signature.Modifiers, "@Retention") {
		t.Errorf("KoinInternalApi = %+v", in)
	}
	if got := langtest.Symbols(f); len(got) != 3 {
		t.Errorf("symbols %v", got)
	}
}

// A primary constructor on the line after the class name (ktfmt's long
// header), with or without a visibility, keeps the class and the class
// around it (moshi's JsonReader, whose Options made all of it an error):
// members, parameters and lines hold; a name at column 0 of the next line
// is left alone.
func TestPrimaryConstructorOnNextLine(t *testing.T) {
	f := langtest.Extract(t, "src/JsonReader.kt", `package com.squareup.moshi

public sealed class JsonReader : Closeable {
  public abstract fun peek(): Token

  public class Options
  private constructor(
    internal val strings: Array<out String>,
  ) {
    public fun strings(): List<String> = strings.toList()
  }

  public class Plain<T>
      constructor(val value: T) {
    fun get(): T = value
  }

  public fun after(): Int = 1
}
`)
	if s := langtest.Sym(t, f, "JsonReader"); s.Kind != lang.KindClass || s.Range.StartLine != 3 || s.Range.EndLine != 19 {
		t.Errorf("JsonReader = %+v", s)
	}
	if s := langtest.Sym(t, f, "JsonReader.Options"); s.Range.StartLine != 6 || s.Range.EndLine != 11 ||
		!strings.Contains(s.Signature.Text, "constructor") {
		t.Errorf("Options = %+v", s)
	}
	langtest.Sym(t, f, "JsonReader.Options.strings")
	if s := langtest.Sym(t, f, "JsonReader.Plain.get"); s.Range.StartLine != 15 {
		t.Errorf("Plain.get = %+v", s)
	}
	langtest.Sym(t, f, "JsonReader.Plain.value")
	if s := langtest.Sym(t, f, "JsonReader.after"); s.Kind != lang.KindMethod || s.Range.StartLine != 18 {
		t.Errorf("after = %+v", s)
	}
}

// Two annotations with arguments and a visibility before an annotation
// class with neither parameters nor body (moshi's ToJson and FromJson,
// which its Java tests import) still make a class, its visibility read.
func TestAnnotatedMarkerClassWithVisibility(t *testing.T) {
	f := langtest.Extract(t, "src/ToJson.kt", `package com.squareup.moshi

@Retention(RUNTIME) @Target(FUNCTION) public annotation class ToJson

@Retention(RUNTIME) @Target(FUNCTION) internal annotation class Hidden

fun after() {}
`)
	to := langtest.Sym(t, f, "ToJson")
	if to.Kind != lang.KindClass || !to.Exported || to.Range.StartLine != 3 ||
		!slices.Contains(to.Signature.Modifiers, "@Target") || !slices.Contains(to.Signature.Modifiers, "annotation") {
		t.Errorf("ToJson = %+v", to)
	}
	if h := langtest.Sym(t, f, "Hidden"); h.Kind != lang.KindClass || h.Exported || h.Visibility != "internal" {
		t.Errorf("Hidden = %+v", h)
	}
	if got := langtest.Symbols(f); len(got) != 3 {
		t.Errorf("symbols %v", got)
	}
}

// A function reference is a call of the function it names (moshi's
// peeked.use(::labelIndex), labelIndex's only caller): "::g", "A::g",
// "x::g", "this::g", and "::A" constructs A; navigation is not one.
func TestFunctionReference(t *testing.T) {
	f := langtest.Extract(t, "src/A.kt", `package a

class A {
  fun f(x: A): Int = x.use(::g)
  fun h(x: A) {
    listOf(1).map(A::g)
    foo(x::k)
    bar(::A)
    baz(this::m)
    qux(String::class, A::class.java)
    x.n
  }
  fun g(x: Int) = x
}
`)
	langtest.WantAll(t, langtest.Refs(f), "A.f call g", "A.h call A.g", "A.h call x.k", "A.h new A", "A.h call this.m")
	for _, r := range langtest.Refs(f) {
		if strings.Contains(r, "x.n") || strings.Contains(r, "class") {
			t.Errorf("navigation read as a reference: %s", r)
		}
	}
}

// Multi-dollar strings (Kotlin 2.2), $$"..." and $$"""...""", are no
// syntax errors (moshi's GeneratedAdaptersTest): a single '$' in them is
// text, "$$name" and "$${...}" interpolate, and the code after them keeps
// its symbols and lines.
func TestMultiDollarStrings(t *testing.T) {
	f := langtest.Extract(t, "src/DollarTest.kt", `package a

class DollarTest {
  fun json(foo: String): String {
    val a = $$"{\"$foo\": \"bar\"}"
    val b = $$"""{"$schema": "$${foo.trim()}", "x": $$foo, "y": ${"$"}}"""
    return a + b + "plain $foo"
  }

  fun after(): Int = 1
}
`)
	if s := langtest.Sym(t, f, "DollarTest.after"); s.Range.StartLine != 10 {
		t.Errorf("after = %+v", s)
	}
	langtest.WantAll(t, langtest.Refs(f), "DollarTest.json call foo.trim [String]")
}
