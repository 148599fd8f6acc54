package csharp

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

const shopSrc = `using System;
using System.IO;
using Models = Shop.Models;
using static System.Math;

namespace Shop.Core
{
    /// <summary>
    /// A store of <see cref="Item"/>s.
    /// </summary>
    /// <typeparam name="T">The key.</typeparam>
    [Serializable]
    public partial class Store<T> : StoreBase, IStore where T : class
    {
        private readonly List<Item> _items = new();
        public const int Max = 10, Min = 1;
        public int Count { get; private set; }
        protected string Name => "x";
        public event EventHandler Changed;
        internal Item Last;

        public Store(int n) : base(n) { _items = new List<Item>(); }

        // Adds many.
        public static async Task<int> AddAsync(Item item, int qty = 1, params string[] tags)
        {
            return 1;
        }

        public T this[int i] => default;
        ~Store() {}
        public static Store<T> operator +(Store<T> a, Store<T> b) => a;
        int IStore.Size() => 0; int IStore.Count => Count;
        void Hidden() {}

        struct Inner { public int X; }
        protected enum Color { Red, Green = 2 }
        public delegate void Handler(int x);
    }

    public interface IStore { void Add(Item i); int Size(); int Count { get; } }
    public record Point(int X, int Y);
    public record struct P2(int A);
    public static class Ext { public static int Twice(this int x) => x * 2; }
}
`

func TestSymbols(t *testing.T) {
	f := langtest.Extract(t, "src/Shop/Store.cs", shopSrc)
	if f.Module != "Shop.Core" || f.Symbols[0].Name != "Shop.Core" || f.IsTest {
		t.Errorf("module %q, module symbol %q, test %v", f.Module, f.Symbols[0].Name, f.IsTest)
	}
	store := langtest.Sym(t, f, "Store")
	if store.Kind != lang.KindClass || !store.Exported || store.Visibility != lang.VisPublic {
		t.Errorf("Store: %s %v %s", store.Kind, store.Exported, store.Visibility)
	}
	if got := strings.Join(store.Signature.Bases, ","); got != "StoreBase,IStore" {
		t.Errorf("bases %q", got)
	}
	if got := strings.Join(store.Signature.Generics, ","); got != "T" {
		t.Errorf("generics %q", got)
	}
	if got := strings.Join(store.Signature.Modifiers, ","); got != "partial,[Serializable]" {
		t.Errorf("modifiers %q", got)
	}
	if store.Doc != "A store of Items.\n\nT: The key." {
		t.Errorf("doc %q", store.Doc)
	}
	var fields []string
	for _, p := range store.Signature.Fields {
		fields = append(fields, p.Name+":"+p.Type)
	}
	if got := strings.Join(fields, ","); got != "_items:List<Item>,Max:int,Min:int,Count:int,Name:string,Changed:EventHandler,Last:Item" {
		t.Errorf("fields %q", got)
	}
	for _, tc := range []struct {
		q, kind, vis, returns, mods string
	}{
		{"Store._items", lang.KindVariable, lang.VisPrivate, "List<Item>", "readonly"},
		{"Store.Max", lang.KindVariable, lang.VisPublic, "int", "const"},
		{"Store.Count", lang.KindVariable, lang.VisPublic, "int", "property,get,private set"},
		{"Store.Name", lang.KindVariable, lang.VisProtected, "string", "property"},
		{"Store.Changed", lang.KindVariable, lang.VisPublic, "EventHandler", "event"},
		{"Store.Last", lang.KindVariable, lang.VisInternal, "Item", ""},
		{"Store.Store", lang.KindConstructor, lang.VisPublic, "", ""},
		{"Store.AddAsync", lang.KindMethod, lang.VisPublic, "Task<int>", "static,async"},
		{"Store.this[]", lang.KindMethod, lang.VisPublic, "T", ""},
		{"Store.~Store", lang.KindMethod, lang.VisPrivate, "", ""},
		{"Store.operator +", lang.KindMethod, lang.VisPublic, "Store<T>", "static"},
		{"Store.Size", lang.KindMethod, lang.VisPublic, "int", "implements IStore"},
		{"Store.Hidden", lang.KindMethod, lang.VisPrivate, "void", ""},
		{"Store.Inner", lang.KindClass, lang.VisPrivate, "", "struct"},
		{"Store.Inner.X", lang.KindVariable, lang.VisPublic, "int", ""},
		{"Store.Color", lang.KindClass, lang.VisProtected, "", "enum"},
		{"Store.Color.Green", lang.KindVariable, lang.VisPublic, "Color", "const"},
		{"Store.Handler", lang.KindType, lang.VisPublic, "void", "delegate"},
		{"IStore", lang.KindInterface, lang.VisPublic, "", ""},
		{"IStore.Add", lang.KindMethod, lang.VisPublic, "void", ""},
		{"IStore.Count", lang.KindVariable, lang.VisPublic, "int", "property,get"},
		{"Point", lang.KindClass, lang.VisPublic, "", "record"},
		{"Point.X", lang.KindVariable, lang.VisPublic, "int", "property"},
		{"P2", lang.KindClass, lang.VisPublic, "", "record,struct"},
		{"Ext.Twice", lang.KindMethod, lang.VisPublic, "int", "static,extension"},
	} {
		s := langtest.Sym(t, f, tc.q)
		if s.Kind != tc.kind || s.Visibility != tc.vis || s.Signature.Returns != tc.returns || strings.Join(s.Signature.Modifiers, ",") != tc.mods {
			t.Errorf("%s: %s %s returns %q mods %q", tc.q, s.Kind, s.Visibility, s.Signature.Returns, s.Signature.Modifiers)
		}
	}
	// int IStore.Count is IStore's, reached through it: no field of Store
	// (the fields above list Count once), and says so
	var explicit []string
	for _, s := range f.Symbols {
		if s.Qualified() == "Store.Count" {
			explicit = append(explicit, s.Visibility+" "+strings.Join(s.Signature.Modifiers, ","))
		}
	}
	if got := strings.Join(explicit, "; "); got != "public property,get,private set; public property,implements IStore" {
		t.Errorf("Store.Count symbols %q", got)
	}
	add := langtest.Sym(t, f, "Store.AddAsync")
	if ps := add.Signature.Params; len(ps) != 3 || ps[0].Name != "item" || ps[0].Type != "Item" ||
		ps[1].Default != "1" || !ps[1].Optional || ps[2].Name != "tags" || ps[2].Type != "string[]" || !ps[2].Variadic {
		t.Errorf("AddAsync params %+v", add.Signature.Params)
	}
	if add.Doc != "Adds many." {
		t.Errorf("AddAsync doc %q", add.Doc)
	}
	if p := langtest.Sym(t, f, "Point"); len(p.Signature.Fields) != 2 || len(p.Signature.Params) != 2 {
		t.Errorf("Point: %+v", p.Signature)
	}
	if h := langtest.Sym(t, f, "Store.Handler"); len(h.Signature.Params) != 1 || h.Signature.Params[0].Type != "int" {
		t.Errorf("Handler: %+v", h.Signature)
	}
	if got := strings.Join(langtest.Imports(f), " "); got != "System names=*@1 System.IO names=*@2 Shop.Models alias=Models@3 System.Math names=*@4" {
		t.Errorf("imports %s", got)
	}
}

func TestNamespaces(t *testing.T) {
	f := langtest.Extract(t, "a.cs", "namespace A.B { namespace C { class D {} } }\n")
	if f.Module != "A.B.C" {
		t.Errorf("nested namespace: module %q", f.Module)
	}
	g := langtest.Extract(t, "b.cs", "using X;\nnamespace A.B;\nclass D { void M() {} }\n")
	if g.Module != "A.B" || langtest.Sym(t, g, "D.M").Parent == 0 {
		t.Errorf("file-scoped namespace: module %q", g.Module)
	}
	h := langtest.Extract(t, "Program.cs", "using System;\nConsole.WriteLine(\"hi\");\nstatic int Twice(int x) => x * 2;\n")
	if h.Module != "" || langtest.Sym(t, h, "Twice").Kind != lang.KindFunction {
		t.Errorf("top-level statements: %q", h.Module)
	}
	langtest.WantAll(t, langtest.Refs(h), "<module> call Console.WriteLine")
}

func TestTestFiles(t *testing.T) {
	for p, want := range map[string]bool{
		"tests/Shop.Tests/StoreTests.cs": true,
		"src/Shop.Tests/Helpers.cs":      true,
		"src/Shop/StoreTest.cs":          true,
		"test/Foo.cs":                    true,
		"src/Shop/Store.cs":              false,
		"src/Shop/Testimonial.cs":        false,
	} {
		if got := lang.IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%s) = %v", p, got)
		}
	}
	f := langtest.Extract(t, "src/Util.cs", `class Util {
    [Test] public void Works() {}
    [Fact] public void Facts() {}
    [NUnit.Framework.TestCase(1)] public void Case(int x) {}
    public void Helper() {}
}`)
	if !langtest.Sym(t, f, "Util.Works").IsTest || !langtest.Sym(t, f, "Util.Facts").IsTest || !langtest.Sym(t, f, "Util.Case").IsTest ||
		langtest.Sym(t, f, "Util.Helper").IsTest {
		t.Error("test methods by attribute")
	}
}

func TestRefs(t *testing.T) {
	f := langtest.Extract(t, "A.cs", `namespace P;
class A : B, IC {
    private Store store;
    private static readonly Helper Shared = Helper.Create();
    private List<Item> items = new();
    A(int n) : base(n) {}
    A() : this(1) {}
    async Task Run(Item item, Repo repo) {
        item.Save();
        store.Flush();
        this.Local();
        base.Parent();
        var x = new Widget();
        x.Spin();
        var c = repo.Cursor();
        c.Next();
        repo.Cursor().Next();
        Item y = Factory.Make();
        y.Save();
        await repo.LoadAsync().ConfigureAwait(false);
        Static.Call();
        Generic<int>(1);
        item?.Save();
        foreach (var it in items) { it.Save(); }
        if (o is Widget w) w.Spin();
        Func<int, int> f = v => v.Hash();
        ((Widget)o).Spin();
        $"{x.Name}".Trim();
        Local2();
        void Local2() {}
    }
}`)
	langtest.WantAll(t, langtest.Refs(f),
		"A extends B",
		"A implements IC",
		"A.Shared call Helper.Create",
		"A.items new List",
		"A.A call base.B",
		"A.A call this.A [A]",
		"A.Run call item.Save [Item]",
		"A.Run call store.Flush [Store]",
		"A.Run call this.Local [A]",
		"A.Run call base.Parent",
		"A.Run new Widget",
		"A.Run call x.Spin [Widget]",
		"A.Run call repo.Cursor [Repo]",
		"A.Run call c.Next [Repo] {repo.Cursor}",
		"A.Run call repo.Cursor().Next [Repo] {repo.Cursor}",
		"A.Run call Factory.Make",
		"A.Run call y.Save [Item]",
		"A.Run call repo.LoadAsync().ConfigureAwait [Repo] {repo.LoadAsync}",
		"A.Run call Static.Call",
		"A.Run call Generic",
		"A.Run call item.Save [Item]",
		"A.Run call it.Save [Item]",
		"A.Run call w.Spin [Widget]",
		"A.Run call v.Hash",
		"A.Run call ((Widget) o).Spin [Widget]",
		"A.Run call Local2",
	)
}

func TestGuardsAndThrows(t *testing.T) {
	f := langtest.Extract(t, "G.cs", `class G {
    void M(string s, int n) {
        ArgumentNullException.ThrowIfNull(s);
        if (n < 0) throw new ArgumentOutOfRangeException(nameof(n));
        if (n == 0) { return; }
        Debug.Assert(n > 1);
        Work();
        if (n > 9) throw new InvalidOperationException();
        Work();
        Work();
        for (;;) { throw new IOException("loop"); }
    }
    int P => throw new NotSupportedException();
}`)
	m := langtest.Sym(t, f, "G.M")
	langtest.WantAll(t, langtest.FactTexts(m.Invariants),
		"guard: if s == null then throw",
		"guard: if n < 0 then throw",
		"guard: if n == 0 then return",
		"guard: if !(n > 1) then throw",
		"guard: if n > 9 then throw",
		"throws: throws IOException")
	langtest.WantAll(t, langtest.FactTexts(langtest.Sym(t, f, "G.P").Invariants), "throws: throws NotSupportedException")
}

func TestSideEffects(t *testing.T) {
	f := langtest.Extract(t, "E.cs", `class E {
    void M() {
        File.WriteAllText("a", "b");
        var s = File.ReadAllText("a");
        var c = new HttpClient();
        Process.Start("ls");
        Environment.GetEnvironmentVariable("HOME");
        cmd.ExecuteNonQuery();
        Environment.Exit(1);
    }
}`)
	langtest.WantAll(t, langtest.FactTexts(langtest.Sym(t, f, "E.M").SideEffects),
		"fs.write: writes files", "fs.read: reads files", "network: network access", "process: starts processes",
		"env: reads environment variables", "database: database access", "exit: exits the process")
}

func TestBrokenInput(t *testing.T) {
	f := langtest.ExtractBroken(t, "B.cs", `namespace N {
class B {
    public int Fine(Item i) => i.Total();
    public void Half(Item item {
        var x = item.Total(;
    }
    public string After() => Fine(null).ToString();
}`)
	if len(f.Errors) == 0 {
		t.Error("no syntax errors reported")
	}
	langtest.Sym(t, f, "B.Fine")
	langtest.Sym(t, f, "B.After")
	langtest.WantAll(t, langtest.Refs(f), "B.After call Fine")
}

func TestXMLDoc(t *testing.T) {
	for in, want := range map[string]string{
		"<summary>\nDoes it.\n</summary>":                                                  "Does it.",
		"<summary>Uses <see cref=\"T:A.B\"/> and <c>x</c>.</summary>":                      "Uses A.B and x.",
		"<summary>S.</summary>\n<param name=\"a\">The a.</param>\n<returns>Two.</returns>": "S.\na: The a.\nReturns: Two.",
		"<summary>S.</summary>\n<exception cref=\"IOException\">When.</exception>":         "S.\nThrows IOException: When.",
		"plain words":  "plain words",
		"a < b broken": "a < b broken",
	} {
		if got := xmlDoc(in); got != want {
			t.Errorf("csXMLDoc(%q) = %q, want %q", in, got, want)
		}
	}
}

// Conditional compilation that splits a member's header, a base list or an
// attribute list (serilog's "#if FEATURE_SPAN" around two signatures of one
// method) is read one branch at a time; before, the file was a string of
// syntax errors and its class and every member's container were lost.
// Branches that are whole members stay for tree-sitter to parse.
func TestSplitConditionals(t *testing.T) {
	f := langtest.Extract(t, "src/Binder.cs", `namespace Serilog.Capturing;

class Binder : IDisposable
#if FEATURE_ASYNCDISPOSABLE
    , IAsyncDisposable
#endif
{
#if FEATURE_SPAN
    public int Bind(ReadOnlySpan<object?> values)
#else
    public int Bind(object?[] values)
#endif
    {
        return values.Length;
    }

#if FEATURE_DEFAULT_INTERFACE
    [Obsolete]
#endif
    public void Dispose() { }

#if FEATURE_ASYNCDISPOSABLE
    public ValueTask DisposeAsync() => default;
#endif
}

interface ISink
{
    Task FlushAsync()
#if FEATURE_DEFAULT_INTERFACE
    {
        return Task.CompletedTask;
    }
#else
        ;
#endif

    void Emit(LogEvent e);
}
`)
	bind := langtest.Sym(t, f, "Binder.Bind")
	if bind.Kind != "method" || bind.Signature.Text != "public int Bind(ReadOnlySpan<object?> values)" {
		t.Errorf("Binder.Bind: kind %s, signature %q", bind.Kind, bind.Signature.Text)
	}
	if b := langtest.Sym(t, f, "Binder"); b.Kind != "class" || strings.Contains(b.Signature.Text, "#") {
		t.Errorf("Binder: kind %s, signature %q", b.Kind, b.Signature.Text)
	}
	langtest.Sym(t, f, "Binder.Dispose")
	langtest.Sym(t, f, "Binder.DisposeAsync")
	langtest.Sym(t, f, "ISink.FlushAsync")
	langtest.Sym(t, f, "ISink.Emit")
}

// C# 12's bodyless types ("class C(int x) : B(x);", "class Unknown;") are
// read as if their ";" were "{}": the grammar requires a body, and without
// one the declaration was a syntax error that took the next declaration's
// body with it (eShop's ProductCountChangedMessage, Polly's TestOptions).
func TestBodylessTypes(t *testing.T) {
	src := "\xEF\xBB\xBFnamespace Shop.Messages;\n\n" + `public class CountChanged(int count) : ValueChangedMessage<int>(count);
public sealed class Options<T> : BaseOptions<T> where T : class;
internal struct Point(int x, int y);
public interface IMarker;
public record Moved(int X) : Base(X);

public class Context
{
    private static class Unknown;
    // a comment: class NotOne;
    public string Where<T>() where T : class => "x";

    public void Run(string s = "class Nope;") { }
}
public class X; public class Y { }`
	f := langtest.Extract(t, "src/Messages/CountChanged.cs", src)
	for q, want := range map[string]string{
		"CountChanged":    "public class CountChanged(int count) : ValueChangedMessage<int>(count)",
		"Options":         "public sealed class Options<T> : BaseOptions<T> where T : class",
		"Point":           "internal struct Point(int x, int y)",
		"IMarker":         "public interface IMarker",
		"Context.Unknown": "private static class Unknown",
	} {
		s := langtest.Sym(t, f, q)
		if s.Signature.Text != want {
			t.Errorf("%s: signature %q, want %q", q, s.Signature.Text, want)
		}
		if s.Range.EndLine != s.Range.StartLine {
			t.Errorf("%s: lines %d-%d, want one line", q, s.Range.StartLine, s.Range.EndLine)
		}
	}
	if r := langtest.Sym(t, f, "CountChanged").Range; r.StartLine != 3 || r.EndCol != 71 {
		t.Errorf("CountChanged: range %+v, want line 3 to column 71, the ';'", r)
	}
	if r := langtest.Sym(t, f, "Context.Run").Range; r.StartLine != 15 || r.StartCol != 4 {
		t.Errorf("Context.Run: range %+v, want line 15 column 4", r)
	}
	if r := langtest.Sym(t, f, "Y").Range; r.StartLine != 17 || r.StartCol != 16 || r.EndCol != 34 {
		t.Errorf("Y: range %+v, want line 17 columns 16-34 (as written, not as parsed)", r)
	}
	langtest.Sym(t, f, "X")
	langtest.Sym(t, f, "Moved")

	p := lang.NewParser()
	defer p.Close()
	tr, err := p.Parse(lang.ByName("csharp"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var skel strings.Builder
	for _, l := range lang.Skeleton(tr, 0, uint32(len(src)), lang.SkeletonOptions{}) {
		skel.WriteString(l.Text + "\n")
	}
	for _, want := range []string{"public class CountChanged(int count) : ValueChangedMessage<int>(count);\n",
		"    private static class Unknown;\n"} {
		if !strings.Contains(skel.String(), want) {
			t.Errorf("skeleton lacks %q:\n%s", want, skel.String())
		}
	}
	langtest.Sym(t, f, "Context.Where")
	for _, s := range f.Symbols {
		if s.Name == "NotOne" || s.Name == "Nope" {
			t.Errorf("a comment or a string declared %s", s.Qualified())
		}
	}
}

// A signature starts after the attribute lists that lead the declaration;
// its modifiers name them. eShop's minimal-API handlers carried
// "[ProducesResponseType<...>(..., [ "image/png", ... ])]" ahead of their
// names, and a card cut the signature off before its parameters.
func TestSignatureAfterAttributes(t *testing.T) {
	f := langtest.Extract(t, "src/Catalog.API/Apis/CatalogApi.cs", `namespace eShop.Catalog.API;

[Serializable]
public static class CatalogApi
{
    [ProducesResponseType<byte[]>(StatusCodes.Status200OK, "application/octet-stream",
        [ "image/png", "image/gif", "image/jpeg" ])]
    [Obsolete] // still mapped
    public static async Task<Results<PhysicalFileHttpResult, NotFound>> GetItemPictureById(
        CatalogContext context,
        [Description("The catalog item id")] int id)
    {
        return TypedResults.NotFound();
    }

    [JsonIgnore]
    public int Count { get; set; }

    public static void Subscribe<T, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] in TH>() { }
}
`)
	for q, want := range map[string]string{
		"CatalogApi": "public static class CatalogApi",
		"CatalogApi.GetItemPictureById": "public static async Task<Results<PhysicalFileHttpResult, NotFound>> GetItemPictureById( " +
			"CatalogContext context, [Description(\"The catalog item id\")] int id)",
	} {
		if got := langtest.Sym(t, f, q).Signature.Text; got != want {
			t.Errorf("%s: signature %q, want %q", q, got, want)
		}
	}
	if got := langtest.Sym(t, f, "CatalogApi.Count").Signature.Text; strings.Contains(got, "JsonIgnore") {
		t.Errorf("CatalogApi.Count: signature %q keeps its attribute", got)
	}
	if g := langtest.Sym(t, f, "CatalogApi.Subscribe").Signature.Generics; !slices.Equal(g, []string{"T", "in TH"}) {
		t.Errorf("CatalogApi.Subscribe: generics %q, want [T in TH]", g)
	}
	if mods := langtest.Sym(t, f, "CatalogApi.GetItemPictureById").Signature.Modifiers; !slices.Contains(mods, "[Obsolete]") {
		t.Errorf("GetItemPictureById: modifiers %v lack [Obsolete]", mods)
	}
}

// A file-based app (.NET 10's "dotnet run app.cs") opens with a shebang and
// "#:" directives, which the grammar does not know: Polly's cake.cs was a
// syntax error from its first line. They read as blank lines.
func TestFileBasedAppDirectives(t *testing.T) {
	f := langtest.Extract(t, "cake.cs", `#!/usr/bin/env dotnet
#:sdk Cake.Sdk
#:package Cake.FileHelpers
#:property ProjectType=Test

// Build tasks.
var target = Argument("target", "Default");

Task("Clean").Does(() => CleanDirectories("./artifacts"));

static string Version() => "1.0";
`)
	if v := langtest.Sym(t, f, "Version"); v.Range.StartLine != 11 {
		t.Errorf("Version: line %d, want 11", v.Range.StartLine)
	}
}

// TestPlaces: where a declaration is decides what it makes: a method of
// a script's top-level statements is a function, a local function in a
// field's initializer is the field's, members of nested types are
// theirs, and a method the parser finds in a method's body is a local
// function of it (as the walk before tags.scm made them).
func TestPlaces(t *testing.T) {
	f := langtest.Extract(t, "Script.cs", `using System;
Console.WriteLine(Run(2));
static int Run(int n) => n + 1;
void Top() { }
class Outer {
    int total = Compute(() => { int Local() => 1; return Local(); }), spare;
    public event Action Changed;
    interface IShape { double Area(); int Sides { get; } }
    enum Color { Red, Green = 2 }
    public record Point(int X, int Y) : IShape { public double Area() => 0; public int Sides => 0; }
    [Obsolete] void M() {
        void Inner() { }
        public int Stray() { return 1; }
    }
    public static Outer operator +(Outer a, Outer b) => a;
    public int this[int i] => i;
    ~Outer() { }
}
`)
	got := langtest.Symbols(f)
	want := []string{"function Run private", "function Top private", "class Outer internal",
		"variable Outer.total private", "function Outer.total.Local private", "variable Outer.spare private",
		"variable Outer.Changed public", "interface Outer.IShape private", "method Outer.IShape.Area public",
		"variable Outer.IShape.Sides public", "class Outer.Color private", "variable Outer.Color.Red public",
		"variable Outer.Color.Green public", "class Outer.Point public", "variable Outer.Point.X public",
		"variable Outer.Point.Y public", "method Outer.Point.Area public", "variable Outer.Point.Sides public",
		"method Outer.M private", "function Outer.M.Inner private", "function Outer.M.Stray private",
		"method Outer.operator + public", "method Outer.this[] public", "method Outer.~Outer private"}
	if !slices.Equal(got, want) {
		t.Errorf("symbols\n%q\nwant\n%q", got, want)
	}
}

// Code commented out above a member is no doc: Ocelot's tests read
// "[InlineData(2, 50)] | [InlineData(3, 50)]" as a test's summary, and a
// field "private readonly Mock _loggerFactory;" as the next field's.
func TestCommentedOutCodeIsNoDoc(t *testing.T) {
	f := langtest.Extract(t, "unit/T.cs", `namespace N;

// [ApiController] // TODO: make it one
public class T
{
    /*private readonly Mock<ILoggerFactory> _loggerFactory;
    private readonly Mock<ILogger> _logger;*/
    private readonly Placeholders _placeholders;

    //[InlineData(2, 50)]
    //[InlineData(3, 50)]
    [InlineData(3, 100)]
    [Theory]
    public void Lease(int a, int b) { }

    // Spreads the load
    //protected static Box<Route> Box(Route route) => new(route);
    public int CancelMe => 1;
}
`)
	for q, want := range map[string]string{"T": "", "T._placeholders": "", "T.Lease": "", "T.CancelMe": "Spreads the load"} {
		if got := langtest.Sym(t, f, q).Doc; got != want {
			t.Errorf("%s doc %q, want %q", q, got, want)
		}
	}
}

func TestArity(t *testing.T) {
	for typ, want := range map[string]int{
		"IValidator":                         0,
		"IValidator<T>":                      1,
		"IValidationRule<T, TProperty>":      2,
		"IDictionary<string, List<int>>?":    2,
		"Outer<A, B>.Inner<Func<T, U, V>>":   1,
		"global::System.Tuple<int,int,int> ": 3,
	} {
		if got := arity(typ); got != want {
			t.Errorf("arity(%q) = %d, want %d", typ, got, want)
		}
	}
}
