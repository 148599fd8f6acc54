package lang

import (
	"strings"
	"testing"
)

const csShopSrc = `using System;
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
        int IStore.Size() => 0;
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

func TestCSharpSymbols(t *testing.T) {
	f := moreExtract(t, "csharp", "src/Shop/Store.cs", csShopSrc)
	if f.Module != "Shop.Core" || f.Symbols[0].Name != "Shop.Core" || f.IsTest {
		t.Errorf("module %q, module symbol %q, test %v", f.Module, f.Symbols[0].Name, f.IsTest)
	}
	store := moreSym(t, f, "Store")
	if store.Kind != KindClass || !store.Exported || store.Visibility != VisPublic {
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
		{"Store._items", KindVariable, VisPrivate, "List<Item>", "readonly"},
		{"Store.Max", KindVariable, VisPublic, "int", "const"},
		{"Store.Count", KindVariable, VisPublic, "int", "property,get,private set"},
		{"Store.Name", KindVariable, VisProtected, "string", "property"},
		{"Store.Changed", KindVariable, VisPublic, "EventHandler", "event"},
		{"Store.Last", KindVariable, VisInternal, "Item", ""},
		{"Store.Store", KindConstructor, VisPublic, "", ""},
		{"Store.AddAsync", KindMethod, VisPublic, "Task<int>", "static,async"},
		{"Store.this[]", KindMethod, VisPublic, "T", ""},
		{"Store.~Store", KindMethod, VisPrivate, "", ""},
		{"Store.operator +", KindMethod, VisPublic, "Store<T>", "static"},
		{"Store.Size", KindMethod, VisPublic, "int", "implements IStore"},
		{"Store.Hidden", KindMethod, VisPrivate, "void", ""},
		{"Store.Inner", KindClass, VisPrivate, "", "struct"},
		{"Store.Inner.X", KindVariable, VisPublic, "int", ""},
		{"Store.Color", KindClass, VisProtected, "", "enum"},
		{"Store.Color.Green", KindVariable, VisPublic, "Color", "const"},
		{"Store.Handler", KindType, VisPublic, "void", "delegate"},
		{"IStore", KindInterface, VisPublic, "", ""},
		{"IStore.Add", KindMethod, VisPublic, "void", ""},
		{"IStore.Count", KindVariable, VisPublic, "int", "property,get"},
		{"Point", KindClass, VisPublic, "", "record"},
		{"Point.X", KindVariable, VisPublic, "int", "property"},
		{"P2", KindClass, VisPublic, "", "record,struct"},
		{"Ext.Twice", KindMethod, VisPublic, "int", "static,extension"},
	} {
		s := moreSym(t, f, tc.q)
		if s.Kind != tc.kind || s.Visibility != tc.vis || s.Signature.Returns != tc.returns || strings.Join(s.Signature.Modifiers, ",") != tc.mods {
			t.Errorf("%s: %s %s returns %q mods %q", tc.q, s.Kind, s.Visibility, s.Signature.Returns, s.Signature.Modifiers)
		}
	}
	add := moreSym(t, f, "Store.AddAsync")
	if ps := add.Signature.Params; len(ps) != 3 || ps[0].Name != "item" || ps[0].Type != "Item" ||
		ps[1].Default != "1" || !ps[1].Optional || ps[2].Name != "tags" || ps[2].Type != "string[]" || !ps[2].Variadic {
		t.Errorf("AddAsync params %+v", add.Signature.Params)
	}
	if add.Doc != "Adds many." {
		t.Errorf("AddAsync doc %q", add.Doc)
	}
	if p := moreSym(t, f, "Point"); len(p.Signature.Fields) != 2 || len(p.Signature.Params) != 2 {
		t.Errorf("Point: %+v", p.Signature)
	}
	if h := moreSym(t, f, "Store.Handler"); len(h.Signature.Params) != 1 || h.Signature.Params[0].Type != "int" {
		t.Errorf("Handler: %+v", h.Signature)
	}
	if got := strings.Join(moreImports(f), " "); got != "System names=*@1 System.IO names=*@2 Shop.Models alias=Models@3 System.Math names=*@4" {
		t.Errorf("imports %s", got)
	}
}

func TestCSharpNamespaces(t *testing.T) {
	f := moreExtract(t, "csharp", "a.cs", "namespace A.B { namespace C { class D {} } }\n")
	if f.Module != "A.B.C" {
		t.Errorf("nested namespace: module %q", f.Module)
	}
	g := moreExtract(t, "csharp", "b.cs", "using X;\nnamespace A.B;\nclass D { void M() {} }\n")
	if g.Module != "A.B" || moreSym(t, g, "D.M").Parent == 0 {
		t.Errorf("file-scoped namespace: module %q", g.Module)
	}
	h := moreExtract(t, "csharp", "Program.cs", "using System;\nConsole.WriteLine(\"hi\");\nstatic int Twice(int x) => x * 2;\n")
	if h.Module != "" || moreSym(t, h, "Twice").Kind != KindFunction {
		t.Errorf("top-level statements: %q", h.Module)
	}
	wantAll(t, javaRefs(h), "<module> call Console.WriteLine")
}

func TestCSharpTestFiles(t *testing.T) {
	for p, want := range map[string]bool{
		"tests/Shop.Tests/StoreTests.cs": true,
		"src/Shop.Tests/Helpers.cs":      true,
		"src/Shop/StoreTest.cs":          true,
		"test/Foo.cs":                    true,
		"src/Shop/Store.cs":              false,
		"src/Shop/Testimonial.cs":        false,
	} {
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%s) = %v", p, got)
		}
	}
	f := moreExtract(t, "csharp", "src/Util.cs", `class Util {
    [Test] public void Works() {}
    [Fact] public void Facts() {}
    [NUnit.Framework.TestCase(1)] public void Case(int x) {}
    public void Helper() {}
}`)
	if !moreSym(t, f, "Util.Works").IsTest || !moreSym(t, f, "Util.Facts").IsTest || !moreSym(t, f, "Util.Case").IsTest ||
		moreSym(t, f, "Util.Helper").IsTest {
		t.Error("test methods by attribute")
	}
}

func TestCSharpRefs(t *testing.T) {
	f := moreExtract(t, "csharp", "A.cs", `namespace P;
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
	wantAll(t, javaRefs(f),
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

func TestCSharpGuardsAndThrows(t *testing.T) {
	f := moreExtract(t, "csharp", "G.cs", `class G {
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
	m := moreSym(t, f, "G.M")
	wantAll(t, factTexts(m.Invariants),
		"guard: if s == null then throw",
		"guard: if n < 0 then throw",
		"guard: if n == 0 then return",
		"guard: if !(n > 1) then throw",
		"guard: if n > 9 then throw",
		"throws: throws IOException")
	wantAll(t, factTexts(moreSym(t, f, "G.P").Invariants), "throws: throws NotSupportedException")
}

func TestCSharpSideEffects(t *testing.T) {
	f := moreExtract(t, "csharp", "E.cs", `class E {
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
	wantAll(t, factTexts(moreSym(t, f, "E.M").SideEffects),
		"fs.write: writes files", "fs.read: reads files", "network: network access", "process: starts processes",
		"env: reads environment variables", "database: database access", "exit: exits the process")
}

func TestCSharpBrokenInput(t *testing.T) {
	f := moreExtract(t, "csharp", "B.cs", `namespace N {
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
	moreSym(t, f, "B.Fine")
	moreSym(t, f, "B.After")
	wantAll(t, javaRefs(f), "B.After call Fine")
}

func TestCSharpXMLDoc(t *testing.T) {
	for in, want := range map[string]string{
		"<summary>\nDoes it.\n</summary>":                                                  "Does it.",
		"<summary>Uses <see cref=\"T:A.B\"/> and <c>x</c>.</summary>":                      "Uses A.B and x.",
		"<summary>S.</summary>\n<param name=\"a\">The a.</param>\n<returns>Two.</returns>": "S.\na: The a.\nReturns: Two.",
		"<summary>S.</summary>\n<exception cref=\"IOException\">When.</exception>":         "S.\nThrows IOException: When.",
		"plain words":  "plain words",
		"a < b broken": "a < b broken",
	} {
		if got := csXMLDoc(in); got != want {
			t.Errorf("csXMLDoc(%q) = %q, want %q", in, got, want)
		}
	}
}
