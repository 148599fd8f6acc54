package php

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

const shopSrc = `<?php
declare(strict_types=1);

namespace App\Models;

use App\Contracts\Priced;
use App\Support\{Str, Arr as A};
use function App\Support\helper;
use const App\Support\MAX;
require_once __DIR__ . '/../bootstrap.php';
include 'config.php';

/**
 * An item.
 * @property string $name
 */
#[Entity]
final class Item extends Model implements Priced, \JsonSerializable
{
    use HasTags, Timestamps;

    public const TAX = 0.2;
    private static int $count = 0;
    /** @var Store|null */
    protected $store = null;

    public function __construct(private string $name, public readonly float $price = 1.0, ...$rest)
    {
        parent::__construct();
    }

    /**
     * The gross price.
     * @param Store $s where
     * @return float
     */
    public function gross($s, int|float $n = 2): float
    {
        return 1.0;
    }

    abstract protected function hidden(): void;
    public static function make(): static { return new static("x", 1); }
    function implicit() {}
}

interface Shape extends Base { public function area(): float; }
trait HasTags { public function tags(): array { return []; } }
enum Suit: string { case Hearts = 'H'; public function color(): string { return 'Red'; } }
function top(int $a): int { return $a; }
const LIMIT = 5;
define('MAX_SIZE', 10);
`

func TestSymbols(t *testing.T) {
	f := langtest.Extract(t, "src/Models/Item.php", shopSrc)
	if f.Module != `App\Models` || f.Symbols[0].Name != `App\Models` || f.IsTest {
		t.Errorf("module %q, module symbol %q", f.Module, f.Symbols[0].Name)
	}
	item := langtest.Sym(t, f, "Item")
	if item.Kind != lang.KindClass || !item.Exported || item.Doc != "An item.\n@property string $name" {
		t.Errorf("Item: %s %v %q", item.Kind, item.Exported, item.Doc)
	}
	if got := strings.Join(item.Signature.Bases, ","); got != `Model,Priced,\JsonSerializable,HasTags,Timestamps` {
		t.Errorf("bases %q", got)
	}
	if got := strings.Join(item.Signature.Modifiers, ","); got != "#[Entity],final" {
		t.Errorf("modifiers %q", got)
	}
	var fields []string
	for _, p := range item.Signature.Fields {
		fields = append(fields, p.Name+":"+p.Type)
	}
	if got := strings.Join(fields, ","); got != "TAX:,count:int,store:Store,name:string,price:float" {
		t.Errorf("fields %q", got)
	}
	for _, tc := range []struct {
		q, kind, vis, returns, mods string
	}{
		{"Item.TAX", lang.KindVariable, lang.VisPublic, "", "const"},
		{"Item.count", lang.KindVariable, lang.VisPrivate, "int", "static"},
		{"Item.store", lang.KindVariable, lang.VisProtected, "Store", ""},
		{"Item.__construct", lang.KindConstructor, lang.VisPublic, "", ""},
		{"Item.name", lang.KindVariable, lang.VisPrivate, "string", "promoted"},
		{"Item.price", lang.KindVariable, lang.VisPublic, "float", "readonly,promoted"},
		{"Item.gross", lang.KindMethod, lang.VisPublic, "float", ""},
		{"Item.hidden", lang.KindMethod, lang.VisProtected, "void", "abstract"},
		{"Item.make", lang.KindMethod, lang.VisPublic, "static", "static"},
		{"Item.implicit", lang.KindMethod, lang.VisPublic, "", ""},
		{"Shape", lang.KindInterface, lang.VisPublic, "", ""},
		{"Shape.area", lang.KindMethod, lang.VisPublic, "float", ""},
		{"HasTags", lang.KindClass, lang.VisPublic, "", "trait"},
		{"Suit", lang.KindClass, lang.VisPublic, "", "enum"},
		{"Suit.Hearts", lang.KindVariable, lang.VisPublic, "Suit", "case"},
		{"Suit.color", lang.KindMethod, lang.VisPublic, "string", ""},
		{"top", lang.KindFunction, lang.VisPublic, "int", ""},
		{"LIMIT", lang.KindVariable, lang.VisPublic, "", "const"},
		{"MAX_SIZE", lang.KindVariable, lang.VisPublic, "", "const"},
	} {
		s := langtest.Sym(t, f, tc.q)
		if s.Kind != tc.kind || s.Visibility != tc.vis || s.Signature.Returns != tc.returns || strings.Join(s.Signature.Modifiers, ",") != tc.mods {
			t.Errorf("%s: %s %s returns %q mods %q", tc.q, s.Kind, s.Visibility, s.Signature.Returns, s.Signature.Modifiers)
		}
	}
	gross := langtest.Sym(t, f, "Item.gross")
	if ps := gross.Signature.Params; len(ps) != 2 || ps[0].Name != "$s" || ps[0].Type != "Store" || ps[1].Type != "int|float" || ps[1].Default != "2" {
		t.Errorf("gross params %+v", gross.Signature.Params)
	}
	if ps := langtest.Sym(t, f, "Item.__construct").Signature.Params; len(ps) != 3 || !ps[2].Variadic || ps[1].Default != "1.0" {
		t.Errorf("constructor params %+v", ps)
	}
	want := `App\Contracts\Priced@6 App\Support\Str@7 App\Support\Arr alias=A@7 App\Support names=helper@8 ` +
		`App\Support alias=const names=MAX@9 ./../bootstrap.php@10 config.php@11`
	if got := strings.Join(langtest.Imports(f), " "); got != want {
		t.Errorf("imports %s\nwant    %s", got, want)
	}
}

func TestNamespaceBlocks(t *testing.T) {
	f := langtest.Extract(t, "a.php", "<?php\nnamespace A\\B {\n  class C { function m() {} }\n}\nnamespace {\n  function g() {}\n}\n")
	if f.Module != `A\B` {
		t.Errorf("module %q", f.Module)
	}
	langtest.Sym(t, f, "C.m")
	langtest.Sym(t, f, "g")
	g := langtest.Extract(t, "t.php", "<html><?php foreach ($rows as $r): ?><b><?= $r->name() ?></b><?php endforeach; ?></html>\n")
	langtest.WantAll(t, langtest.Refs(g), "<module> call $r.name")
}

func TestTestFiles(t *testing.T) {
	for p, want := range map[string]bool{
		"tests/StoreTest.php":     true,
		"tests/Unit/Helpers.php":  true,
		"src/StoreTest.php":       true,
		"src/Inventory/Store.php": false,
		"src/Testimonial.php":     false,
	} {
		if got := lang.IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%s) = %v", p, got)
		}
	}
	f := langtest.Extract(t, "src/Util.php", `<?php
class Util {
    #[Test] public function works() {}
    /** @test */ public function documented() {}
    public function helper() {}
}`)
	if !langtest.Sym(t, f, "Util.works").IsTest || !langtest.Sym(t, f, "Util.documented").IsTest || langtest.Sym(t, f, "Util.helper").IsTest {
		t.Error("test methods by attribute and annotation")
	}
}

func TestRefs(t *testing.T) {
	f := langtest.Extract(t, "A.php", `<?php
namespace P;
class A extends B implements I {
    use T;
    private Repo $repo;
    public function __construct() { parent::__construct(); }
    /** @param Item[] $items */
    public function run(Item $item, array $items) {
        $item->save();
        $this->repo->flush();
        $this->local();
        self::make();
        static::make();
        parent::boot();
        Helper::run();
        \Lib\Helper::run();
        $x = new Widget();
        $x->spin();
        $c = $this->repo->cursor();
        $c->next();
        $this->repo->cursor()->next();
        helper();
        \strlen("x");
        Sub\fn();
        $item?->save();
        foreach ($items as $it) { $it->save(); }
        $f = fn($v) => $v->hash();
        (new Widget())->spin();
        $y = Factory::make();
        $y->go();
        echo `+"`ls`"+`;
        exit(1);
    }
}`)
	langtest.WantAll(t, langtest.Refs(f),
		"A extends B",
		"A implements I",
		"A implements T",
		"A.__construct call parent.__construct",
		`A.run call $item.save [Item]`,
		`A.run call $this->repo.flush [\P\A]`,
		`A.run call $this.local [\P\A]`,
		`A.run call self.make [\P\A]`,
		`A.run call static.make [\P\A]`,
		"A.run call parent.boot",
		"A.run call Helper.run [Helper]",
		`A.run call \Lib\Helper.run [\Lib\Helper]`,
		"A.run new Widget",
		"A.run call $x.spin [Widget]",
		`A.run call $c.next [\P\A] {$this->repo->cursor}`,
		`A.run call $this->repo->cursor().next [\P\A] {$this->repo->cursor}`,
		"A.run call helper",
		"A.run call strlen",
		"A.run call Sub.fn",
		"A.run call $it.save [Item]",
		"A.run call $v.hash",
		"A.run call new Widget().spin [Widget]",
		"A.run call $y.go {Factory::make}",
		"A.run call shell_exec",
		"A.run call exit",
	)
}

func TestGuardsAndThrows(t *testing.T) {
	f := langtest.Extract(t, "G.php", `<?php
function m($s, $n) {
    if ($s === null) { throw new \InvalidArgumentException("s"); }
    if ($n < 0) return false;
    if (!$n) exit(1);
    work();
    work();
    work();
    foreach ([1] as $i) { throw new \RuntimeException("loop"); }
}`)
	langtest.WantAll(t, langtest.FactTexts(langtest.Sym(t, f, "m").Invariants),
		"guard: if $s === null then throw",
		"guard: if $n < 0 then return false",
		"guard: if !$n then exit",
		`throws: throws \RuntimeException`)
}

func TestSideEffects(t *testing.T) {
	f := langtest.Extract(t, "E.php", `<?php
function m() {
    file_put_contents('a', 'b');
    $s = file_get_contents('a');
    $ch = curl_init('http://x');
    exec('ls');
    getenv('HOME');
    $this->pdo->query('select 1');
    die('x');
}`)
	langtest.WantAll(t, langtest.FactTexts(langtest.Sym(t, f, "m").SideEffects),
		"fs.write: writes files", "fs.read: reads files", "network: network access", "process: starts processes",
		"env: reads environment variables", "database: database access", "exit: exits the process")
}

func TestBrokenInput(t *testing.T) {
	f := langtest.ExtractBroken(t, "B.php", `<?php
class B {
    public function fine(Item $item): float { return $item->gross(); }
    public function half(Item $item) {
        $x = $item->gross(;
    }
    public function after(): float { return $this->fine(null); }
}`)
	if len(f.Errors) == 0 {
		t.Error("no syntax errors reported")
	}
	langtest.Sym(t, f, "B.fine")
	langtest.Sym(t, f, "B.after")
	langtest.WantAll(t, langtest.Refs(f), `B.after call $this.fine [\B]`)
}

// TestPlaces: where a declaration is decides what it makes: a method of
// an anonymous class is the named class's around it, or a function of
// the function around it; a constant in a function is the function's,
// and define() at the top of a file makes one (as the walk before
// tags.scm made them), all in the order of the file.
func TestPlaces(t *testing.T) {
	f := langtest.Extract(t, "script.php", `<?php
namespace App;
const TOP = 1;
define('LEGACY', 2);
function helper() {
    const INNER = 3;
    $o = new class { public function run() { return 1; } };
}
class Service extends Base implements Contract {
    use Loggable;
    private int $count = 0, $other;
    const LIMIT = 10;
    public function __construct(private Repo $repo, int $plain) {}
    public function handle() {
        $h = new class { public $p; public function inner() {} };
        function nested() {}
    }
}
enum Suit { case Hearts; case Spades; }
function method_outside() {}
`)
	got := langtest.Symbols(f)
	want := []string{"variable TOP public", "variable LEGACY public", "function helper public", "variable helper.INNER public",
		"function helper.run public", "class Service public", "variable Service.count private",
		"variable Service.other private", "variable Service.LIMIT public", "constructor Service.__construct public",
		"variable Service.repo private", "method Service.handle public", "variable Service.p public",
		"method Service.inner public", "function Service.handle.nested public", "class Suit public",
		"variable Suit.Hearts public", "variable Suit.Spades public", "function method_outside public"}
	if !slices.Equal(got, want) {
		t.Errorf("symbols\n%q\nwant\n%q", got, want)
	}
}

// A PHPDoc of block tags alone has no description to summarise:
// EasyAdminBundle's classes, documented "@author Javier Eguiluz <...>",
// were summarised by their author.
func TestSummaryLeavesTagsOut(t *testing.T) {
	f := langtest.Extract(t, "src/Field/FieldTrait.php", "<?php\nnamespace A;\n\n"+
		"/**\n * @author Javier Eguiluz <javier.eguiluz@gmail.com>\n */\ntrait FieldTrait { public $dto; }\n\n"+
		"/**\n * Sets the label\n * @param string $l the label\n */\nfunction label($l) {}\n")
	if got := langtest.Sym(t, f, "FieldTrait").Summary; strings.Contains(got, "@author") || !strings.Contains(got, "FieldTrait") {
		t.Errorf("FieldTrait summary %q", got)
	}
	if got := langtest.Sym(t, f, "label").Summary; got != "Sets the label" {
		t.Errorf("label summary %q", got)
	}
}

// new static() outside every class names no class: extraction records
// the call and does not fail (it indexed out of range, and the file lost
// the rest of its calls).
func TestNewStaticOutsideClass(t *testing.T) {
	f := langtest.Extract(t, "f.php", "<?php\nfunction make() { return (new static())->build(); }\nfunction after() { helper(); }\n")
	langtest.WantAll(t, langtest.Refs(f), "after call helper")
}

// An enum may declare constants (PHP 8.1). tree-sitter-php before
// v0.24 could not parse one in an enum body: the enum vanished and its
// methods became functions of the file (an enum with a constant before
// its methods), or its constants were lost in an error (monolog's
// Level, constants after the methods).
func TestEnumConstants(t *testing.T) {
	f := langtest.Extract(t, "src/Size.php", `<?php
namespace App;
enum Size: string
{
    case Small = 's';
    private const MAP = ['s' => 'Small'];
    public static function nameFor(string $k): ?string { return self::MAP[$k] ?? null; }
    public const VALUES = [1, 2];
}
`)
	got := langtest.Symbols(f)
	want := []string{"class Size public", "variable Size.Small public", "variable Size.MAP private",
		"method Size.nameFor public", "variable Size.VALUES public"}
	if !slices.Equal(got, want) {
		t.Errorf("symbols\n%q\nwant\n%q", got, want)
	}
}
