package lang

import (
	"strings"
	"testing"
)

func TestKotlinExtract(t *testing.T) {
	f := moreExtract(t, "kotlin", "src/main/kotlin/a/Store.kt", `package com.shop.store

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
	base := moreSym(t, f, "Base")
	if base.Kind != KindClass || base.Doc != "A store." || !base.Exported || len(base.Signature.Generics) != 1 {
		t.Errorf("Base = %+v", base)
	}
	if got := strings.Join(base.Signature.Bases, ","); got != "Priced,Comparable<T>" {
		t.Errorf("bases %q", got)
	}
	log := moreSym(t, f, "Base.log")
	if log.Kind != KindMethod || log.Visibility != VisProtected || len(log.Signature.Params) != 2 ||
		log.Signature.Params[0].Default != `"x"` || !log.Signature.Params[1].Variadic {
		t.Errorf("log = %+v", log)
	}
	if s := moreSym(t, f, "Priced"); s.Kind != KindInterface {
		t.Errorf("Priced kind %s", s.Kind)
	}
	if s := moreSym(t, f, "Registry.MAX"); s.Kind != KindVariable {
		t.Errorf("MAX kind %s", s.Kind)
	}
	if s := moreSym(t, f, "count"); s.Visibility != VisPrivate || s.Exported {
		t.Errorf("count = %+v", s)
	}
	if s := moreSym(t, f, "Store.repo"); s.Visibility != VisPrivate || s.Signature.Returns != "Repo" {
		t.Errorf("repo = %+v", s)
	}
	if s := moreSym(t, f, "Store.create"); !containsStr(s.Signature.Modifiers, "static") || s.Signature.Returns != "Store" {
		t.Errorf("create = %+v", s)
	}
	if s := moreSym(t, f, "Store.total.inner"); s.Kind != KindFunction {
		t.Errorf("inner kind %s", s.Kind)
	}
	total := moreSym(t, f, "Store.total")
	if got := factTexts(total.Invariants); len(got) != 2 || !strings.Contains(got[0], "count < 0") {
		t.Errorf("guards %v", got)
	}
	wantAll(t, moreImports(f), "com.shop.model.Item@3", "com.shop.model names=*@4", "kotlinx.coroutines.launch alias=go@5")
	var refs []string
	for _, r := range f.Refs {
		refs = append(refs, r.Kind+" "+r.Qualifier+"."+r.Name+" qt="+r.QualifierType)
	}
	wantAll(t, refs, "extends .Base qt=", "implements .Priced qt=", "new .Repo qt=", "call r.save qt=Repo",
		"call this.repo.load qt=Store", "call .inner qt=", "new .IllegalStateException qt=")
}

func TestKotlinResolve(t *testing.T) {
	tab, facts := newMoreTestTable(t, "kotlin", map[string]string{
		"src/main/kotlin/shop/model/Item.kt": `package shop.model
interface Priced {
    fun price(): Long
}
data class Item(val name: String) : Priced {
    override fun price(): Long = 1
}
fun describeItem(i: Item) = i.name`,
		"src/main/kotlin/shop/store/Base.kt": `package shop.store
abstract class StoreBase(protected val repo: Repo) {
    protected fun log(m: String) {}
}
class Repo {
    fun save(i: Any) {}
}`,
		"src/main/kotlin/shop/store/Store.kt": `package shop.store
import shop.model.Item
import shop.model.*
import org.slf4j.LoggerFactory
class Store(repo: Repo) : StoreBase(repo), Priced {
    override fun price(): Long = 0
    fun add(item: Item) {
        log("x")
        repo.save(item)
        item.price()
        describeItem(item)
        helper()
        LoggerFactory.getLogger("x")
        val s = make()
        s.add(item)
        weirdlyNamedThing()
    }
    companion object {
        fun make(): Store = Store(Repo())
    }
}
fun helper() {}`,
		"src/main/kotlin/other/Odd.kt": `package other
fun weirdlyNamedThing() {}`,
	}, nil)
	got := tab.resolveAll(facts)
	wantAll(t, got,
		"src/main/kotlin/shop/store/Store.kt: import shop.model.Item -> src/main/kotlin/shop/model/Item.kt:Item (import)",
		"src/main/kotlin/shop/store/Store.kt: import org.slf4j.LoggerFactory -> ? (external)",
		"src/main/kotlin/shop/store/Store.kt: Store extends StoreBase -> src/main/kotlin/shop/store/Base.kt:StoreBase (same_package)",
		"src/main/kotlin/shop/store/Store.kt: Store implements Priced -> src/main/kotlin/shop/model/Item.kt:Priced (import)",
		"src/main/kotlin/shop/store/Store.kt: Store.add call log -> src/main/kotlin/shop/store/Base.kt:StoreBase.log (receiver)",
		"src/main/kotlin/shop/store/Store.kt: Store.add call repo.save -> src/main/kotlin/shop/store/Base.kt:Repo.save (receiver)",
		"src/main/kotlin/shop/store/Store.kt: Store.add call item.price -> src/main/kotlin/shop/model/Item.kt:Item.price (receiver)",
		"src/main/kotlin/shop/store/Store.kt: Store.add call describeItem -> src/main/kotlin/shop/model/Item.kt:describeItem (import)",
		"src/main/kotlin/shop/store/Store.kt: Store.add call helper -> src/main/kotlin/shop/store/Store.kt:helper (same_file)",
		"src/main/kotlin/shop/store/Store.kt: Store.add call LoggerFactory.getLogger -> ? (external)",
		"src/main/kotlin/shop/store/Store.kt: Store.add call make -> src/main/kotlin/shop/store/Store.kt:Store.make (receiver)",
		"src/main/kotlin/shop/store/Store.kt: Store.add call s.add -> src/main/kotlin/shop/store/Store.kt:Store.add (receiver)",
		"src/main/kotlin/shop/store/Store.kt: Store.add call weirdlyNamedThing -> src/main/kotlin/other/Odd.kt:weirdlyNamedThing (unique_name)",
		"src/main/kotlin/shop/store/Store.kt: Store.make new Repo -> src/main/kotlin/shop/store/Base.kt:Repo (same_package)",
	)
}

// TestKotlinResolveMore: ambiguity between two wildcard imports, members
// of an external base, a variable assigned from a call, a nested type and
// a Gradle script's DSL.
func TestKotlinResolveMore(t *testing.T) {
	tab, facts := newMoreTestTable(t, "kotlin", map[string]string{
		"a/One.kt": `package one
fun twice() {}
class Repo {
    fun saveAll() {}
    class Cursor {
        fun advance() {}
    }
}
fun makeRepo(): Repo = Repo()
class Path {
    companion object {
        fun String.toPath(): Path = Path()
    }
}
fun Repo.describe(): String = ""`,
		"b/Two.kt": `package two
fun twice() {}`,
		"c/Use.kt": `package use
import one.*
import two.*
import one.Path.Companion.toPath
class Names : ArrayList<String>() {
    fun go() {
        twice()
        add("x")
        val r = makeRepo()
        r.saveAll()
        val c = Repo.Cursor()
        c.advance()
        "p".toPath()
        r.describe()
        r.nowhereAtAll()
    }
}`,
		"build.gradle.kts": `plugins {
    id("x")
}`,
	}, nil)
	got := tab.resolveAll(facts)
	wantAll(t, got,
		"c/Use.kt: import one * -> a/One.kt:<module> (import)",
		"c/Use.kt: import one.Path.Companion.toPath -> a/One.kt:Path.toPath (import)",
		"c/Use.kt: Names extends ArrayList -> ? (external)",
		"c/Use.kt: Names.go call twice -> ? (ambiguous)",
		"c/Use.kt: Names.go call add -> ? (external)",
		"c/Use.kt: Names.go call makeRepo -> a/One.kt:makeRepo (import)",
		"c/Use.kt: Names.go call r.saveAll -> a/One.kt:Repo.saveAll (receiver)",
		"c/Use.kt: Names.go new Repo.Cursor -> a/One.kt:Repo.Cursor (import)",
		"c/Use.kt: Names.go call c.advance -> a/One.kt:Repo.Cursor.advance (receiver)",
		"c/Use.kt: Names.go call ?.toPath -> a/One.kt:Path.toPath (import)",
		"c/Use.kt: Names.go call r.describe -> a/One.kt:describe (import)",
		"c/Use.kt: Names.go call r.nowhereAtAll -> ? (external)",
		"build.gradle.kts: <module> call plugins -> ? (external)",
	)
}
