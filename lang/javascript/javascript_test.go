package javascript

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

func extractLoose(t *testing.T, p, src string) *lang.FileFacts {
	t.Helper()
	ps := lang.NewParser()
	defer ps.Close()
	l := lang.ForPath(p)
	if l == nil {
		t.Fatalf("no language for %s", p)
	}
	f, err := lang.Extract(ps, l, p, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// symbolOf finds a symbol by kind and qualified name.
func symbolOf(t *testing.T, f *lang.FileFacts, kind, qual string) *lang.Symbol {
	t.Helper()
	for i := range f.Symbols {
		if f.Symbols[i].Kind == kind && f.Symbols[i].Qualified() == qual {
			return &f.Symbols[i]
		}
	}
	var have []string
	for _, s := range f.Symbols {
		have = append(have, s.Kind+" "+s.Qualified())
	}
	t.Fatalf("no %s %s; have %v", kind, qual, have)
	return nil
}

func refs(f *lang.FileFacts, name string) []lang.Ref {
	var out []lang.Ref
	for _, r := range f.Refs {
		if r.Name == name {
			out = append(out, r)
		}
	}
	return out
}

func TestRegistration(t *testing.T) {
	for p, want := range map[string]string{"a.js": "javascript", "a.jsx": "javascript", "a.mjs": "javascript",
		"a.cjs": "javascript", "a.ts": "typescript", "a.d.ts": "typescript", "a.mts": "typescript", "a.cts": "typescript",
		"a.tsx": "tsx"} {
		if l := lang.ForPath(p); l == nil || l.Name != want {
			t.Errorf("%s: got %v, want %s", p, l, want)
		}
	}
}

func TestClassesAndMembers(t *testing.T) {
	f := extractLoose(t, "src/shop/cart.ts", `
import { Base } from './base';

/** Cart holds items. */
export abstract class Cart<T extends Item = Item> extends Base<T> implements Sized, Named {
  private items: T[] = [];
  protected static count = 0;
  #secret = 1;
  readonly label?: string;

  constructor(private readonly db: Db, public name = 'cart', ...rest: string[]) {
    super(db);
    this.total = new Money();
  }

  /** add puts an item in the cart. */
  async add(item: T, qty?: number): Promise<void> {
    if (!item) throw new TypeError('no item');
    this.items.push(item);
    await this.db.save(item);
  }

  get size(): number { return this.items.length; }
  static create(): Cart { return null as any; }
  abstract checkout(): void;
  *[Symbol.iterator]() {}
  onClick = (e: Event) => { this.add(e.item); };
}
`)
	if f.Module != "src/shop/cart" {
		t.Errorf("module %q", f.Module)
	}
	cart := symbolOf(t, f, lang.KindClass, "Cart")
	if !cart.Exported || cart.Visibility != lang.VisExported {
		t.Errorf("Cart exported=%v vis=%s", cart.Exported, cart.Visibility)
	}
	if cart.Doc != "Cart holds items." {
		t.Errorf("Cart doc %q", cart.Doc)
	}
	if got := strings.Join(cart.Signature.Bases, ","); got != "Base<T>,Sized,Named" {
		t.Errorf("bases %q", got)
	}
	if got := strings.Join(cart.Signature.Generics, ","); got != "T extends Item = Item" {
		t.Errorf("generics %q", got)
	}
	if got := strings.Join(cart.Signature.Modifiers, ","); got != "abstract" {
		t.Errorf("modifiers %q", got)
	}
	fields := map[string]string{}
	for _, fd := range cart.Signature.Fields {
		fields[fd.Name] = fd.Type
	}
	for name, typ := range map[string]string{"items": "T[]", "count": "number", "#secret": "number", "label": "string",
		"db": "Db", "name": "", "total": "Money"} {
		if got, ok := fields[name]; !ok || got != typ {
			t.Errorf("field %s: %q (present %v), want %q", name, got, ok, typ)
		}
	}
	if v := symbolOf(t, f, lang.KindVariable, "Cart.items"); v.Visibility != lang.VisPrivate || v.Exported {
		t.Errorf("items vis %s exported %v", v.Visibility, v.Exported)
	}
	if v := symbolOf(t, f, lang.KindVariable, "Cart.count"); v.Visibility != lang.VisProtected || strings.Join(v.Signature.Modifiers, ",") != "static" {
		t.Errorf("count vis %s mods %v", v.Visibility, v.Signature.Modifiers)
	}
	if v := symbolOf(t, f, lang.KindVariable, "Cart.#secret"); v.Visibility != lang.VisPrivate {
		t.Errorf("#secret vis %s", v.Visibility)
	}
	ctor := symbolOf(t, f, lang.KindConstructor, "Cart.constructor")
	ps := ctor.Signature.Params
	if len(ps) != 3 || ps[0].Name != "db" || ps[0].Type != "Db" || ps[1].Default != "'cart'" || !ps[1].Optional ||
		ps[2].Name != "rest" || !ps[2].Variadic || ps[2].Type != "string[]" {
		t.Errorf("constructor params %+v", ps)
	}
	add := symbolOf(t, f, lang.KindMethod, "Cart.add")
	if add.Doc != "add puts an item in the cart." || add.Signature.Returns != "Promise<void>" ||
		strings.Join(add.Signature.Modifiers, ",") != "async" || add.Visibility != lang.VisPublic || !add.Exported {
		t.Errorf("add: %+v", add)
	}
	if p := add.Signature.Params; len(p) != 2 || p[1].Name != "qty" || !p[1].Optional || p[1].Type != "number" {
		t.Errorf("add params %+v", p)
	}
	if len(add.Invariants) != 1 || add.Invariants[0].Text != "if !item then throw" {
		t.Errorf("add invariants %+v", add.Invariants)
	}
	if m := symbolOf(t, f, lang.KindMethod, "Cart.size"); strings.Join(m.Signature.Modifiers, ",") != "get" || m.Signature.Returns != "number" {
		t.Errorf("size %+v", m.Signature)
	}
	if m := symbolOf(t, f, lang.KindMethod, "Cart.create"); strings.Join(m.Signature.Modifiers, ",") != "static" {
		t.Errorf("create %+v", m.Signature)
	}
	if m := symbolOf(t, f, lang.KindMethod, "Cart.checkout"); strings.Join(m.Signature.Modifiers, ",") != "abstract" {
		t.Errorf("checkout %+v", m.Signature)
	}
	if m := symbolOf(t, f, lang.KindMethod, "Cart.[Symbol.iterator]"); strings.Join(m.Signature.Modifiers, ",") != "generator" {
		t.Errorf("iterator %+v", m.Signature)
	}
	symbolOf(t, f, lang.KindMethod, "Cart.onClick")

	// references and what is known of their qualifiers
	want := map[string]lang.Ref{
		"Base":        {Kind: lang.RefExtends},
		"Sized":       {Kind: lang.RefImplements},
		"constructor": {Kind: lang.RefCall, Qualifier: "super", QualifierType: "Base"},
		"Money":       {Kind: lang.RefNew},
		"save":        {Kind: lang.RefCall, Qualifier: "this.db", QualifierType: "Cart"},
		"push":        {Kind: lang.RefCall, Qualifier: "this.items", QualifierType: "Cart"},
	}
	for name, w := range want {
		rs := refs(f, name)
		if len(rs) != 1 || rs[0].Kind != w.Kind || rs[0].Qualifier != w.Qualifier || rs[0].QualifierType != w.QualifierType {
			t.Errorf("ref %s: %+v, want %+v", name, rs, w)
		}
	}
	// this in an arrow-function field is the instance
	if rs := refs(f, "add"); len(rs) != 1 || rs[0].QualifierType != "Cart" || f.Symbols[rs[0].Symbol].Name != "onClick" {
		t.Errorf("onClick's this.add: %+v", rs)
	}
	// builtins are left to resolution, not dropped here
	if rs := refs(f, "TypeError"); len(rs) != 1 || rs[0].Kind != lang.RefNew {
		t.Errorf("TypeError: %+v", rs)
	}
}

func TestDeclarations(t *testing.T) {
	f := extractLoose(t, "lib/api.ts", `
// eslint-disable-next-line no-console
/** Loads a user. */
export async function load<T>(id: string, opts: Options = {}): Promise<T> {
  function helper(x: number) { return x * 2; }
  const inner = (y: number): number => helper(y);
  return inner(1) as any;
}

export function over(a: string): string;
export function over(a: number): number;
export function over(a: any): any { return a; }

/** A point. */
export interface Point extends Base, ns.Other<T> {
  x: number;
  y?: number;
  /** distance to another point */
  dist(p: Point): number;
}

export type Id = string | number;
type Shape = { kind: string; area(): number };

export const enum Color { Red = 'r', Green }

export namespace Geo {
  export function area(s: Shape): number { return s.area(); }
  function hidden() {}
}

declare module 'legacy' {
  export function old(): void;
}

export const LIMIT = 10, NAME = 'api';
let counter = 0;
const { a, b: renamed } = settings;
export default class { run() {} }
`)
	load := symbolOf(t, f, lang.KindFunction, "load")
	if load.Doc != "Loads a user." {
		t.Errorf("load doc %q", load.Doc)
	}
	if load.Signature.Returns != "Promise<T>" || strings.Join(load.Signature.Generics, ",") != "T" ||
		len(load.Signature.Params) != 2 || load.Signature.Params[1].Default != "{}" || load.Signature.Params[1].Type != "Options" {
		t.Errorf("load sig %+v", load.Signature)
	}
	helper := symbolOf(t, f, lang.KindFunction, "load.helper")
	inner := symbolOf(t, f, lang.KindFunction, "load.inner")
	if inner.Signature.Returns != "number" || len(inner.Signature.Params) != 1 || helper.Exported {
		t.Errorf("inner %+v", inner.Signature)
	}
	n := 0
	for _, s := range f.Symbols {
		if s.Kind == lang.KindFunction && s.Name == "over" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d overloads of over, want 3", n)
	}
	pt := symbolOf(t, f, lang.KindInterface, "Point")
	if len(pt.Signature.Fields) != 2 || pt.Signature.Fields[1].Name != "y" || !pt.Signature.Fields[1].Optional ||
		strings.Join(pt.Signature.Bases, ",") != "Base,ns.Other<T>" {
		t.Errorf("Point %+v", pt.Signature)
	}
	if d := symbolOf(t, f, lang.KindMethod, "Point.dist"); d.Doc != "distance to another point" || d.Signature.Returns != "number" {
		t.Errorf("dist %+v", d)
	}
	if rs := refs(f, "Other"); len(rs) != 1 || rs[0].Kind != lang.RefExtends || rs[0].Qualifier != "ns" {
		t.Errorf("Other ref %+v", rs)
	}
	if id := symbolOf(t, f, lang.KindType, "Id"); id.Signature.Returns != "string | number" || !id.Exported {
		t.Errorf("Id %+v", id)
	}
	shape := symbolOf(t, f, lang.KindType, "Shape")
	if len(shape.Signature.Fields) != 1 || shape.Exported {
		t.Errorf("Shape %+v", shape)
	}
	symbolOf(t, f, lang.KindMethod, "Shape.area")
	if c := symbolOf(t, f, lang.KindType, "Color"); strings.Join(c.Signature.Modifiers, ",") != "enum,const" || len(c.Signature.Fields) != 2 {
		t.Errorf("Color %+v", c.Signature)
	}
	symbolOf(t, f, lang.KindModule, "Geo")
	if a := symbolOf(t, f, lang.KindFunction, "Geo.area"); !a.Exported {
		t.Error("Geo.area not exported")
	}
	if h := symbolOf(t, f, lang.KindFunction, "Geo.hidden"); h.Exported || h.Visibility != lang.VisInternal {
		t.Errorf("Geo.hidden %v %s", h.Exported, h.Visibility)
	}
	if m := symbolOf(t, f, lang.KindModule, "legacy"); !m.Exported {
		t.Error("declare module not exported")
	}
	if o := symbolOf(t, f, lang.KindFunction, "legacy.old"); strings.Join(o.Signature.Modifiers, ",") != "declare" {
		t.Errorf("legacy.old modifiers %v", o.Signature.Modifiers)
	}
	if l := symbolOf(t, f, lang.KindVariable, "LIMIT"); !l.Exported || strings.Join(l.Signature.Modifiers, ",") != "const" || l.Signature.Returns != "number" {
		t.Errorf("LIMIT %+v", l)
	}
	symbolOf(t, f, lang.KindVariable, "NAME")
	if c := symbolOf(t, f, lang.KindVariable, "counter"); c.Exported || c.Visibility != lang.VisInternal {
		t.Errorf("counter %+v", c)
	}
	symbolOf(t, f, lang.KindVariable, "a")
	symbolOf(t, f, lang.KindVariable, "renamed")
	d := symbolOf(t, f, lang.KindClass, "default")
	if !d.Exported || strings.Join(d.Signature.Modifiers, ",") != "default" {
		t.Errorf("default class %+v", d)
	}
	symbolOf(t, f, lang.KindMethod, "default.run")
	// the local call of a nested function
	if rs := refs(f, "helper"); len(rs) != 1 || f.Symbols[rs[0].Symbol].Name != "inner" {
		t.Errorf("helper refs %+v", rs)
	}
}

func TestImports(t *testing.T) {
	f := extractLoose(t, "src/app.ts", `
import def, { a, b as c } from './x';
import * as ns from '../y';
import './side-effect';
import type { T } from './types';
import fs = require('fs');
const { p, q: r } = require('./z');
const whole = require('./w');
const member = require('./m').thing;
export { e, f as g } from './barrel';
export * from './all';
export * as grouped from './group';
async function later() {
  const mod = await import('./lazy');
  import('./fire');
}
`)
	got := map[string]string{}
	for _, imp := range f.Imports {
		var names []string
		for _, n := range imp.Names {
			names = append(names, n.Name+">"+n.Local())
		}
		got[imp.Source] = fmt.Sprintf("alias=%s names=%s sym=%d", imp.Alias, strings.Join(names, ","), imp.Symbol)
	}
	want := map[string]string{
		"./x":           "alias= names=default>def,a>a,b>c sym=0",
		"../y":          "alias=ns names= sym=0",
		"./side-effect": "alias= names= sym=0",
		"./types":       "alias= names=T>T sym=0",
		"fs":            "alias=fs names= sym=0",
		"./z":           "alias= names=p>p,q>r sym=0",
		"./w":           "alias=whole names= sym=0",
		"./m":           "alias= names=thing>member sym=0",
		"./barrel":      "alias= names=e>e,f>g sym=0",
		"./all":         "alias= names=*>* sym=0",
		"./group":       "alias=grouped names= sym=0",
		"./lazy":        "alias=mod names= sym=1",
		"./fire":        "alias= names= sym=1",
	}
	for src, w := range want {
		if got[src] != w {
			t.Errorf("import %s: %q, want %q", src, got[src], w)
		}
	}
	if len(f.Imports) != len(want) {
		t.Errorf("%d imports, want %d: %v", len(f.Imports), len(want), got)
	}
	if rs := refs(f, "require"); len(rs) != 0 {
		t.Errorf("require is an import, not a call: %+v", rs)
	}
	// re-exports are in the module's export table
	var table []string
	for _, e := range f.Symbols[0].Signature.Fields {
		table = append(table, e.Name+"="+e.Type+"@"+e.Default)
	}
	if got := strings.Join(table, " "); got != "e=e@./barrel g=f@./barrel *=*@./all grouped=*@./group" {
		t.Errorf("export table %q", got)
	}
}

func TestCommon(t *testing.T) {
	f := extractLoose(t, "lib/router.js", `
'use strict';
/**
 * Router matches paths.
 * @param {Object} opts settings
 * @param {string} [prefix]
 * @returns {Router}
 */
function Router(opts, prefix) {
  this.stack = [];
}

Router.prototype.route = function route(path) {
  return this.match(path);
};

Router.prototype.match = function (path) {};
Router.create = () => new Router();
var proto = {};
proto.handle = proto.dispatch = function handle(req) {};

function helper() {}

exports = module.exports = Router;
module.exports.helper = helper;
exports.version = '1.0';
exports.make = function () {};
`)
	r := symbolOf(t, f, lang.KindFunction, "Router")
	if !r.Exported || r.Signature.Returns != "Router" {
		t.Errorf("Router %+v", r)
	}
	if ps := r.Signature.Params; len(ps) != 2 || ps[0].Type != "Object" || ps[1].Type != "string" || !ps[1].Optional {
		t.Errorf("JSDoc params %+v", ps)
	}
	route := symbolOf(t, f, lang.KindMethod, "Router.route")
	if route.Parent == 0 || !route.Exported {
		t.Errorf("route %+v", route)
	}
	symbolOf(t, f, lang.KindMethod, "Router.match")
	symbolOf(t, f, lang.KindMethod, "Router.create")
	symbolOf(t, f, lang.KindMethod, "proto.handle")
	symbolOf(t, f, lang.KindMethod, "proto.dispatch")
	if h := symbolOf(t, f, lang.KindFunction, "helper"); !h.Exported {
		t.Error("helper exported through module.exports.helper")
	}
	if v := symbolOf(t, f, lang.KindVariable, "version"); !v.Exported {
		t.Error("version not exported")
	}
	symbolOf(t, f, lang.KindFunction, "make")
	if rs := refs(f, "match"); len(rs) != 1 || rs[0].QualifierType != "Router" {
		t.Errorf("this.match in a prototype method: %+v", rs)
	}
	var table []string
	for _, e := range f.Symbols[0].Signature.Fields {
		table = append(table, e.Name+"="+e.Type)
	}
	if got := strings.Join(table, " "); got != "default=Router" {
		t.Errorf("export table %q", got)
	}
}

func TestScopesAndQualifiers(t *testing.T) {
	f := extractLoose(t, "src/run.ts", `
import { Client } from './client';
const shared = new Client();

export function run(c: Client, opts: { retries: number; log: Logger }, { user }: Props) {
  const x = new Store();
  const y = makeStore();
  const z = y as Store;
  let w: Store | null = null;
  c.get();
  x.put();
  y.put();
  z.put();
  w.put();
  shared.close();
  opts.log.info();
  user.greet();
  makeStore().items.clear();
  'a,b'.split(',');
  [1, 2].map(String);
  [].forEach(function (item) { item.go(); });
  const cb = () => 1;
  cb();
  items.forEach((it) => it.done());
  for (const [, fn] of pairs) fn();
  if (!c) {
    return undefined;
  }
}
`)
	check := func(name, qual, qtype, qcall string) {
		t.Helper()
		for _, r := range f.Refs {
			if r.Name == name && r.Qualifier == qual {
				if r.QualifierType != qtype || r.QualifierCall != qcall {
					t.Errorf("%s.%s: type %q call %q, want %q %q", qual, name, r.QualifierType, r.QualifierCall, qtype, qcall)
				}
				return
			}
		}
		t.Errorf("no ref %s.%s", qual, name)
	}
	check("get", "c", "Client", "")
	check("put", "x", "Store", "")
	check("put", "y", "", "makeStore")
	check("put", "z", "Store", "")
	check("put", "w", "Store | null", "")
	check("close", "shared", "Client", "")
	check("info", "opts.log", "{ retries: number; log: Logger }", "")
	check("greet", "user", "Props['user']", "")
	check("clear", "makeStore().items", "", "makeStore")
	check("split", "'a,b'", "string", "")
	check("map", "[1, 2]", "Array", "")
	if rs := refs(f, "fn"); len(rs) != 0 {
		t.Errorf("call of a local recorded: %+v", rs)
	}
	// a function-valued const is a nested function, called by name
	symbolOf(t, f, lang.KindFunction, "run.cb")
	if rs := refs(f, "cb"); len(rs) != 1 {
		t.Errorf("call of run.cb: %+v", rs)
	}
	run := symbolOf(t, f, lang.KindFunction, "run")
	if len(run.Invariants) != 1 || run.Invariants[0].Text != "if !c then return undefined" {
		t.Errorf("guards %+v", run.Invariants)
	}
}

func TestXAndTests(t *testing.T) {
	f := extractLoose(t, "src/__tests__/view.test.tsx", `
import { Button } from '../ui';
import * as ui from '../ui';
export const View = ({ label }: { label: string }) => (
  <div>
    <Button label={label} />
    <ui.Icon name="x" />
    <span>{label}</span>
  </div>
);
describe('View', () => { it('renders', () => { expect(View).toBeTruthy(); }); });
`)
	if !f.IsTest || !f.Symbols[0].IsTest {
		t.Error("test file not marked")
	}
	v := symbolOf(t, f, lang.KindFunction, "View")
	if !v.IsTest {
		t.Error("symbol of a test file not marked")
	}
	if rs := refs(f, "Button"); len(rs) != 1 || rs[0].Kind != lang.RefCall {
		t.Errorf("Button %+v", rs)
	}
	if rs := refs(f, "Icon"); len(rs) != 1 || rs[0].Qualifier != "ui" {
		t.Errorf("Icon %+v", rs)
	}
	if rs := refs(f, "span"); len(rs) != 0 {
		t.Errorf("html element recorded: %+v", rs)
	}
	for _, p := range []string{"a.spec.js", "test/a.js", "src/__tests__/b.ts", "x.test.mjs"} {
		if !lang.IsTestPath(p) {
			t.Errorf("%s is a test", p)
		}
	}
	if lang.IsTestPath("src/testing.ts") || lang.IsTestPath("src/contest/a.ts") {
		t.Error("not tests")
	}
}

func TestBrokenFile(t *testing.T) {
	f := extractLoose(t, "broken.js", `
function ok() { return 1; }
function broken( {
  return ok(;
}
function later() { return ok(); }
`)
	if len(f.Errors) == 0 {
		t.Error("no syntax errors reported")
	}
	symbolOf(t, f, lang.KindFunction, "ok")
	symbolOf(t, f, lang.KindFunction, "later")
}

// TestGaveUpAtModuleLevel: where the parser gives up on a statement at the
// module level (a callback left open), the declarations it recovered after
// it are still the module's (the query runs from ERROR nodes there).
func TestGaveUpAtModuleLevel(t *testing.T) {
	f := extractLoose(t, "open.js", `
const LIMIT = 3;
describe('x', () => {
  const inner = 1;
exports.later = function () { return LIMIT; };
const api = { get() { return inner; } };
`)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	symbolOf(t, f, lang.KindVariable, "LIMIT")
	symbolOf(t, f, lang.KindFunction, "later")
	symbolOf(t, f, lang.KindVariable, "api")
	symbolOf(t, f, lang.KindMethod, "api.get")
}

func TestHostileInput(t *testing.T) {
	// deep nesting and garbage must not panic
	src := strings.Repeat("f(", 3000) + strings.Repeat(")", 3000) + "\n" + strings.Repeat("{[(", 500) + "class { x = "
	extractLoose(t, "deep.ts", src)
	extractLoose(t, "deep.js", strings.Repeat("a.", 5000)+"b()")
	extractLoose(t, "empty.ts", "")
}

// testTable is the txtar runner's table (fixtureTable) over a
// few in-memory files.
type testTable struct{ *langtest.Table }

func newTestTable(t *testing.T, srcs map[string]string) (*testTable, map[string]*lang.FileFacts) {
	t.Helper()
	files := map[string][]byte{}
	for p, src := range srcs {
		files[p] = []byte(src)
	}
	tab := langtest.NewTable(t, files)
	return &testTable{tab}, tab.Facts
}

// resolveAll resolves every reference and import of file p and returns
// "kind qual.name -> path:qualified [rule]" lines.
func (tab *testTable) resolveAll(facts map[string]*lang.FileFacts, p string) map[string]string {
	f := facts[p]
	l := lang.ForPath(p)
	fi := tab.Files[p]
	out := map[string]string{}
	show := func(res lang.Resolution) string {
		if res.Target == nil {
			return "? [" + res.Rule + "]"
		}
		q := res.Target.Qualified()
		if res.Target.Kind == lang.KindModule && res.Target.ID == tab.Files[res.Target.Path].ModuleID {
			q = "<module>"
		}
		return res.Target.Path + ":" + q + " [" + res.Rule + "]"
	}
	for i := range f.Imports {
		imp := &f.Imports[i]
		ctx := &lang.Context{File: fi, Table: tab}
		for _, n := range imp.Resolved() {
			out["import "+imp.Source+" "+n] = show(l.ResolveImport(ctx, imp, n))
		}
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		s := r.Symbol
		if s < 0 {
			s = 0
		}
		ctx := &lang.Context{File: fi, From: langtest.Target(p, f, s), Table: tab}
		key := r.Kind + " " + r.Name
		if r.Qualifier != "" {
			key = r.Kind + " " + r.Qualifier + "." + r.Name
		}
		out[key] = show(l.Resolve(ctx, r))
	}
	return out
}

func TestResolve(t *testing.T) {
	tab, facts := newTestTable(t, map[string]string{
		"src/models/entity.ts": `
export abstract class Entity {
  abstract validate(): void;
  protected touch(): void {}
}`,
		"src/models/item.ts": `
import { Entity } from './entity';
export class Item extends Entity implements Priced {
  constructor(public name: string) { super(); }
  validate(): void { this.touch(); }
  rename(n: string): this { return this; }
  static create(): Item { return new Item('x'); }
}
export interface Priced { price(): number; }
export const makeItem = Item.create;
`,
		"src/models/index.ts": `
export * from './item';
export { Entity as BaseEntity } from './entity';
`,
		"src/util/format.ts": `
export default function formatPrice(n: number): string { return String(n); }
export const round = (n: number) => Math.round(n);
export namespace Money { export function parse(s: string) { return 1; } }
`,
		"src/util/index.ts": `export { default as formatPrice, round } from './format';`,
		"src/store.ts": `
import { Item, BaseEntity, makeItem } from './models';
import { formatPrice } from './util/index.js';
import * as fmt from './util/format';
import { EventEmitter } from 'events';
import lodash from 'lodash';
const legacy = require('./legacy');

class Repo { find(id: string): Item { return new Item(id); } }

export class Store extends EventEmitter {
  private repo = new Repo();
  constructor(private readonly items: Item[]) { super(); }
  add(item: Item): void {
    item.validate();
    item.rename('x').validate();
    makeItem().rename('y');
    this.repo.find('a').rename('b');
    this.emit('added');
    this.items.push(item);
    formatPrice(1);
    fmt.round(2);
    fmt.Money.parse('1');
    lodash.map([], String);
    legacy.helper();
    legacy();
    helperHere();
    parseInt('1');
    console.log(distinctiveName());
    thing.update();
    new BaseEntity();
    setTimeout(() => {}, 1);
  }
}
function helperHere() {}
`,
		"src/legacy.js": `
function main() {}
function helper() {}
module.exports = main;
module.exports.helper = helper;
`,
		"src/other.ts": `
export function distinctiveName() { return 1; }
class A { update() {} }
class B { update() {} }
`,
	})
	got := tab.resolveAll(facts, "src/store.ts")
	want := map[string]string{
		"import ./models Item":               "src/models/item.ts:Item [import]",
		"import ./models BaseEntity":         "src/models/entity.ts:Entity [import]",
		"import ./util/index.js formatPrice": "src/util/format.ts:formatPrice [import]",
		"import ./util/format ":              "src/util/format.ts:<module> [import]",
		"import events EventEmitter":         "? [external]",
		"import lodash default":              "? [external]",
		"import ./legacy ":                   "src/legacy.js:<module> [import]",
		"call item.validate":                 "src/models/item.ts:Item.validate [receiver]",
		"call item.rename().validate":        "src/models/item.ts:Item.validate [receiver]",
		"call this.repo.find().rename":       "src/models/item.ts:Item.rename [receiver]",
		"call this.emit":                     "? [external]",
		"call this.items.push":               "? [external]",
		"call formatPrice":                   "src/util/format.ts:formatPrice [import]",
		"call fmt.round":                     "src/util/format.ts:round [import]",
		"call fmt.Money.parse":               "src/util/format.ts:Money.parse [import]",
		"call lodash.map":                    "? [external]",
		"call legacy.helper":                 "src/legacy.js:helper [import]",
		"call legacy":                        "src/legacy.js:main [import]",
		"call helperHere":                    "src/store.ts:helperHere [same_file]",
		"call parseInt":                      "? [builtin]",
		"call console.log":                   "? [external]",
		"call distinctiveName":               "src/other.ts:distinctiveName [unique_name]",
		"call thing.update":                  "? [ambiguous]",
		"new BaseEntity":                     "src/models/entity.ts:Entity [import]",
		"new Repo":                           "src/store.ts:Repo [same_file]",
		"call setTimeout":                    "? [builtin]",
		"extends EventEmitter":               "? [external]",
		"call super.constructor":             "? [external]",
		"new Item":                           "src/models/item.ts:Item [same_file]",
	}
	// new Item inside Repo.find binds through the import, not the file
	want["new Item"] = "src/models/item.ts:Item [import]"
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %q, want %q", k, got[k], w)
		}
	}
	item := tab.resolveAll(facts, "src/models/item.ts")
	for k, w := range map[string]string{
		"extends Entity":         "src/models/entity.ts:Entity [import]",
		"implements Priced":      "src/models/item.ts:Priced [same_file]",
		"call this.touch":        "src/models/entity.ts:Entity.touch [receiver]",
		"call super.constructor": "src/models/entity.ts:Entity [receiver]",
	} {
		if item[k] != w {
			t.Errorf("item.ts %s: got %q, want %q", k, item[k], w)
		}
	}
}

// FuzzExtract checks that no input makes extraction or resolution of
// JavaScript, TypeScript or TSX panic.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"export default class extends A { #x = 1; get y() { return this.#x } }",
		"module.exports = exports = function f() {}; f.prototype.m = f.prototype.n = () => this.m()",
		"import a, * as b from './c'; export * as d from './e'; export { f as default } from 'g'",
		"namespace N { export declare function f<T>(x?: T, ...r: T[]): asserts x is T; }",
		"const { a: { b = c } = {}, ...d } = require('./x'); for (const [k, v] of m) v(k)",
		"<A.B c={d}><E/></A.B>",
		"class C { constructor(private a: A) { super(); this.b = new B(); } m() { return this.a.b().c.d() } }",
	} {
		f.Add(s)
	}
	ps := lang.NewParser()
	defer ps.Close()
	ps.Timeout = 2 * time.Second
	f.Fuzz(func(t *testing.T, src string) {
		// a hang in the walker or resolver fails with the input
		tm := time.AfterFunc(10*time.Second, func() { debug.SetTraceback("all"); panic(fmt.Sprintf("hang on %q", src)) })
		defer tm.Stop()
		for _, p := range []string{"a.js", "a.ts", "a.tsx"} {
			facts, err := lang.Extract(ps, lang.ForPath(p), p, []byte(src))
			if err != nil {
				continue
			}
			tab := langtest.NewTable(t, nil)
			tab.Add(p, facts)
			tab.ResolveAll()
		}
	})
}

func TestSourceFiles(t *testing.T) {
	tab, _ := newTestTable(t, map[string]string{
		"src/a.ts":           `export const a = 1;`,
		"src/types.d.ts":     `export interface T {}`,
		"src/comp.tsx":       `export const C = () => null;`,
		"src/lib/index.js":   `module.exports = {};`,
		"src/esm/mod.mts":    `export const m = 1;`,
		"src/legacy/old.cjs": `exports.o = 1;`,
	})
	if m := tab.Files["src/types.d.ts"].Module; m != "src/types" {
		t.Errorf("module of a .d.ts: %q", m)
	}
	for spec, want := range map[string]string{
		"./a":                "src/a.ts",
		"./a.js":             "src/a.ts", // TypeScript ESM names the output
		"./types":            "src/types.d.ts",
		"./comp.jsx":         "src/comp.tsx",
		"./comp":             "src/comp.tsx",
		"./lib":              "src/lib/index.js",
		"./esm/mod.mjs":      "src/esm/mod.mts",
		"./legacy/old.cjs":   "src/legacy/old.cjs",
		"./missing":          "",
		"../../outside":      "<external>",
		"react":              "<external>",
		"@scope/pkg/sub/dir": "<external>",
	} {
		f, ext := sourceFile(tab, "src/main.ts", spec)
		if ext {
			f = "<external>"
		}
		if f != want {
			t.Errorf("%s: %q, want %q", spec, f, want)
		}
	}
}

// Generic call signatures of an interface or object type separated by line
// breaks only (hono's Get, zustand's store types) are valid TypeScript that
// tree-sitter-typescript cannot parse (tree-sitter-typescript#335): the
// error swallowed the rest of hono's src/types.ts, 38 of its 58 types. The
// file is read as if each such member ended with a semicolon. The same for
// "export type * from" (TypeScript 5.0), which the grammar does not know.
func TestGenericCallSignatures(t *testing.T) {
	f := extractLoose(t, "src/types.ts", `
export interface Get<E> {
  <Key extends keyof E>(key: Key): E[Key]
  <Key extends string>(key: Key): unknown
}

export interface Handlers {
  <P extends string>(path: P): Promise<void>
  // two handlers
  <
    P extends string,
    R = unknown
  >(path: P, r: R): void
}

type UseState = {
  <T>(initial: T): [T, (v: T) => void]
  <T = undefined>(): [T | undefined, (v: T) => void]
}

export type After = { a: number }
export type * from './other'
export type * as ns from './other'

export const pick = (a: number) =>
  <T>(x: T): T => x

export function less(a: number, b: number): boolean {
  return a
    <b
}
`)
	if len(f.Errors) != 0 {
		t.Errorf("syntax errors: %+v", f.Errors)
	}
	symbolOf(t, f, lang.KindInterface, "Get")
	symbolOf(t, f, lang.KindInterface, "Handlers")
	symbolOf(t, f, lang.KindType, "UseState")
	symbolOf(t, f, lang.KindType, "After")
	symbolOf(t, f, lang.KindFunction, "less")
	star := 0
	for _, imp := range f.Imports {
		if imp.Source == "./other" {
			star++
		}
	}
	if star != 2 {
		t.Errorf("%d re-exports of ./other, want 2: %+v", star, f.Imports)
	}
	// what the parser read is not what answers show: the skeleton is the
	// file's own text
	ps := lang.NewParser()
	defer ps.Close()
	src := "interface Get<E> {\n  <K extends keyof E>(key: K): E[K]\n  <K extends string>(key: K): unknown\n}\n"
	tree, err := ps.ParseFile(lang.ForPath("a.ts"), "a.ts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, l := range lang.Skeleton(tree, 0, uint32(len(src)), lang.SkeletonOptions{}) {
		text = append(text, l.Text)
	}
	if got := strings.Join(text, "\n") + "\n"; got != src {
		t.Errorf("skeleton:\n%s\nwant the source:\n%s", got, src)
	}
	// the same length: every line and offset holds
	if s := symbolOf(t, f, lang.KindType, "After"); s.Range.StartLine != 21 {
		t.Errorf("After starts at line %d, want 21", s.Range.StartLine)
	}
}

// TestJSXAmpersands: a bare '&' in JSX text or in an attribute string
// ("Terms & Conditions", href="/?a=1&utm_source=x") is no syntax error,
// the components used after it are still called, and the code's own '&'
// (a & b, A & B, &&, &=) and character references parse as before, in
// .tsx and .jsx alike; a signature shows the file's text.
func TestJSXAmpersands(t *testing.T) {
	src := `type Props = { a: number } & { b: string };

export function Footer(props: Props) {
  let flags = props.a & 4;
  flags &= 2;
  const ok = flags && props.b;
  return (
    <footer title='Q&A'>
      <a href="https://vercel.com/?utm_source=trpc&utm_campaign=oss">Terms & Conditions &amp; more&nbsp;&#38;&#x26;</a>
      <Logo />
      R&D{ok}
    </footer>
  );
}

function Logo() {
  return <svg />;
}
`
	for _, p := range []string{"src/footer.tsx", "src/footer.jsx"} {
		code := src
		if strings.HasSuffix(p, ".jsx") {
			code = strings.NewReplacer("(props: Props)", "(props)", "type Props = { a: number } & { b: string };", "const mask = 1 & 3;").Replace(src)
		}
		f := extractLoose(t, p, code)
		if len(f.Errors) != 0 {
			t.Errorf("%s: syntax errors: %+v", p, f.Errors)
		}
		symbolOf(t, f, lang.KindFunction, "Footer")
		symbolOf(t, f, lang.KindFunction, "Logo")
		langtest.WantAll(t, langtest.Refs(f), "Footer call Logo")
		if strings.HasSuffix(p, ".tsx") {
			// the type reads as the file has it, not as the parser did
			if sig := symbolOf(t, f, lang.KindType, "Props").Signature.Text; !strings.Contains(sig, "} & {") {
				t.Errorf("%s: Props signature %q, want the intersection as written", p, sig)
			}
		}
	}
}

// TestWrappedCallee: a callee inside wrappers ((f)(), f!(), f<T>()) is
// called by its name, through up to lang.MaxChain of them, and new reads
// its constructor the same way.
func TestWrappedCallee(t *testing.T) {
	deep := strings.Repeat("(", lang.MaxChain-1) + "f" + strings.Repeat(")", lang.MaxChain-1)
	f := langtest.Extract(t, "a.ts", "function f() {}\nclass K {}\nfunction g() {\n  "+deep+"();\n  (f!)<number>();\n  new (K)();\n}\n")
	refs := langtest.Refs(f)
	n := 0
	for _, r := range refs {
		if r == "g call f" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("g calls f twice through its wrappers, found %d in:\n  %s", n, strings.Join(refs, "\n  "))
	}
	langtest.WantAll(t, refs, "g new K")
}

// TestPlacedDefinitions: typescript.scm finds the declared types,
// namespaces and method signatures, and the walk places each where it
// meets it: in a function, under a namespace, in a TSX file; an object
// type in an annotation holds no methods.
func TestPlacedDefinitions(t *testing.T) {
	src := `export namespace Geo { export interface P { m(): void } }
function f(): void {
  interface Local { g(): number }
  enum E { A }
  type T = { h(): void };
  let x: { notAMethod(): void } = null!;
}
`
	for _, p := range []string{"a.ts", "a.tsx"} {
		f := langtest.Extract(t, p, src)
		var have []string
		for _, s := range f.Symbols[1:] {
			have = append(have, fmt.Sprintf("%s %s exported=%v", s.Kind, s.Qualified(), s.Exported))
		}
		langtest.WantAll(t, have, "module Geo exported=true", "interface Geo.P exported=true", "method Geo.P.m exported=true",
			"function f exported=false", "interface f.Local exported=false", "method f.Local.g exported=false",
			"type f.E exported=false", "type f.T exported=false", "method f.T.h exported=false")
		if len(have) != 9 {
			t.Errorf("%s: %d symbols, want 9: %v", p, len(have), have)
		}
	}
}

// TestKeywordNames: "abstract", "accessor" and "using" as names (a
// property, a method, a variable) are no syntax errors in .ts and .tsx
// (mikro-orm's typings.ts, defineEntity.ts, SchemaHelper.ts), and the
// keywords they also are still read as keywords: an abstract class and
// method, an auto-accessor, a using declaration. Names show the file's
// text.
func TestKeywordNames(t *testing.T) {
	src := `export interface EntityMetadata {
  comment?: string;
  abstract?: boolean;
  readonly?: boolean;
}

export type Meta = { abstract: boolean; class: string };

export class PropertyBuilder {
  accessor(
    accessor: string | boolean = true,
  ): PropertyBuilder {
    return this.assignOptions({ accessor });
  }
  assignOptions(o: object): PropertyBuilder { return this; }
}

export abstract class Base {
  abstract run(): void;
  accessor size = 1;
}

export function createIndex(name: string): string {
  using lock = acquire(name);
  const using = accessMethod(name);
  quote(using as string, using.length);
  return ` + "`create index ${name}${using}`" + `;
}

export function after(): void {}
`
	for _, p := range []string{"src/typings.ts", "src/typings.tsx"} {
		f := extractLoose(t, p, src)
		if len(f.Errors) != 0 {
			t.Errorf("%s: syntax errors: %+v", p, f.Errors)
		}
		symbolOf(t, f, lang.KindMethod, "PropertyBuilder.accessor")
		symbolOf(t, f, lang.KindMethod, "PropertyBuilder.assignOptions")
		symbolOf(t, f, lang.KindClass, "Base")
		symbolOf(t, f, lang.KindMethod, "Base.run")
		if s := symbolOf(t, f, lang.KindFunction, "after"); s.Range.StartLine != 30 {
			t.Errorf("%s: after starts at line %d, want 30", p, s.Range.StartLine)
		}
		langtest.WantAll(t, langtest.Refs(f), "PropertyBuilder.accessor call this.assignOptions [PropertyBuilder]",
			"createIndex call acquire", "createIndex call accessMethod", "createIndex call quote")
		if sig := symbolOf(t, f, lang.KindClass, "Base").Signature.Text; !strings.Contains(sig, "abstract class Base") {
			t.Errorf("%s: Base signature %q", p, sig)
		}
	}
}
