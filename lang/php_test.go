package lang

import (
	"strings"
	"testing"
)

const phpShopSrc = `<?php
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

func TestPHPSymbols(t *testing.T) {
	f := moreExtract(t, "php", "src/Models/Item.php", phpShopSrc)
	if f.Module != `App\Models` || f.Symbols[0].Name != `App\Models` || f.IsTest {
		t.Errorf("module %q, module symbol %q", f.Module, f.Symbols[0].Name)
	}
	item := moreSym(t, f, "Item")
	if item.Kind != KindClass || !item.Exported || item.Doc != "An item.\n@property string $name" {
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
		{"Item.TAX", KindVariable, VisPublic, "", "const"},
		{"Item.count", KindVariable, VisPrivate, "int", "static"},
		{"Item.store", KindVariable, VisProtected, "Store", ""},
		{"Item.__construct", KindConstructor, VisPublic, "", ""},
		{"Item.name", KindVariable, VisPrivate, "string", "promoted"},
		{"Item.price", KindVariable, VisPublic, "float", "readonly,promoted"},
		{"Item.gross", KindMethod, VisPublic, "float", ""},
		{"Item.hidden", KindMethod, VisProtected, "void", "abstract"},
		{"Item.make", KindMethod, VisPublic, "static", "static"},
		{"Item.implicit", KindMethod, VisPublic, "", ""},
		{"Shape", KindInterface, VisPublic, "", ""},
		{"Shape.area", KindMethod, VisPublic, "float", ""},
		{"HasTags", KindClass, VisPublic, "", "trait"},
		{"Suit", KindClass, VisPublic, "", "enum"},
		{"Suit.Hearts", KindVariable, VisPublic, "Suit", "case"},
		{"Suit.color", KindMethod, VisPublic, "string", ""},
		{"top", KindFunction, VisPublic, "int", ""},
		{"LIMIT", KindVariable, VisPublic, "", "const"},
		{"MAX_SIZE", KindVariable, VisPublic, "", "const"},
	} {
		s := moreSym(t, f, tc.q)
		if s.Kind != tc.kind || s.Visibility != tc.vis || s.Signature.Returns != tc.returns || strings.Join(s.Signature.Modifiers, ",") != tc.mods {
			t.Errorf("%s: %s %s returns %q mods %q", tc.q, s.Kind, s.Visibility, s.Signature.Returns, s.Signature.Modifiers)
		}
	}
	gross := moreSym(t, f, "Item.gross")
	if ps := gross.Signature.Params; len(ps) != 2 || ps[0].Name != "$s" || ps[0].Type != "Store" || ps[1].Type != "int|float" || ps[1].Default != "2" {
		t.Errorf("gross params %+v", gross.Signature.Params)
	}
	if ps := moreSym(t, f, "Item.__construct").Signature.Params; len(ps) != 3 || !ps[2].Variadic || ps[1].Default != "1.0" {
		t.Errorf("constructor params %+v", ps)
	}
	want := `App\Contracts\Priced@6 App\Support\Str@7 App\Support\Arr alias=A@7 App\Support names=helper@8 ` +
		`App\Support alias=const names=MAX@9 ./../bootstrap.php@10 config.php@11`
	if got := strings.Join(moreImports(f), " "); got != want {
		t.Errorf("imports %s\nwant    %s", got, want)
	}
}

func TestPHPNamespaceBlocks(t *testing.T) {
	f := moreExtract(t, "php", "a.php", "<?php\nnamespace A\\B {\n  class C { function m() {} }\n}\nnamespace {\n  function g() {}\n}\n")
	if f.Module != `A\B` {
		t.Errorf("module %q", f.Module)
	}
	moreSym(t, f, "C.m")
	moreSym(t, f, "g")
	g := moreExtract(t, "php", "t.php", "<html><?php foreach ($rows as $r): ?><b><?= $r->name() ?></b><?php endforeach; ?></html>\n")
	wantAll(t, javaRefs(g), "<module> call $r.name")
}

func TestPHPTestFiles(t *testing.T) {
	for p, want := range map[string]bool{
		"tests/StoreTest.php":     true,
		"tests/Unit/Helpers.php":  true,
		"src/StoreTest.php":       true,
		"src/Inventory/Store.php": false,
		"src/Testimonial.php":     false,
	} {
		if got := phpIsTestPath(p); got != want {
			t.Errorf("phpIsTestPath(%s) = %v", p, got)
		}
	}
	f := moreExtract(t, "php", "src/Util.php", `<?php
class Util {
    #[Test] public function works() {}
    /** @test */ public function documented() {}
    public function helper() {}
}`)
	if !moreSym(t, f, "Util.works").IsTest || !moreSym(t, f, "Util.documented").IsTest || moreSym(t, f, "Util.helper").IsTest {
		t.Error("test methods by attribute and annotation")
	}
}

func TestPHPRefs(t *testing.T) {
	f := moreExtract(t, "php", "A.php", `<?php
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
	wantAll(t, javaRefs(f),
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

func TestPHPGuardsAndThrows(t *testing.T) {
	f := moreExtract(t, "php", "G.php", `<?php
function m($s, $n) {
    if ($s === null) { throw new \InvalidArgumentException("s"); }
    if ($n < 0) return false;
    if (!$n) exit(1);
    work();
    work();
    work();
    foreach ([1] as $i) { throw new \RuntimeException("loop"); }
}`)
	wantAll(t, factTexts(moreSym(t, f, "m").Invariants),
		"guard: if $s === null then throw",
		"guard: if $n < 0 then return false",
		"guard: if !$n then exit",
		`throws: throws \RuntimeException`)
}

func TestPHPSideEffects(t *testing.T) {
	f := moreExtract(t, "php", "E.php", `<?php
function m() {
    file_put_contents('a', 'b');
    $s = file_get_contents('a');
    $ch = curl_init('http://x');
    exec('ls');
    getenv('HOME');
    $this->pdo->query('select 1');
    die('x');
}`)
	wantAll(t, factTexts(moreSym(t, f, "m").SideEffects),
		"fs.write: writes files", "fs.read: reads files", "network: network access", "process: starts processes",
		"env: reads environment variables", "database: database access", "exit: exits the process")
}

func TestPHPBrokenInput(t *testing.T) {
	f := moreExtract(t, "php", "B.php", `<?php
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
	moreSym(t, f, "B.fine")
	moreSym(t, f, "B.after")
	wantAll(t, javaRefs(f), `B.after call $this.fine [\B]`)
}

func TestPHPResolve(t *testing.T) {
	files := map[string]string{
		"src/Models/Item.php": `<?php
namespace Shop\Models;
final class Item implements Priced {
    use HasTags;
    public function __construct(public string $name) {}
    public function gross(): float { return Tax::rate(); }
    public static function make(): static { return new static('x'); }
}`,
		"src/Models/Priced.php": `<?php
namespace Shop\Models;
interface Priced { public function gross(): float; }`,
		"src/Models/HasTags.php": `<?php
namespace Shop\Models;
trait HasTags { public function tag(string $t): static { return $this; } }`,
		"src/Models/Tax.php": `<?php
namespace Shop\Models;
class Tax { public static function rate(): float { return 0.2; } }`,
		"src/Legacy/OddPlace.php": `<?php
namespace Shop\Legacy\Misplaced;
class OddPlace { public function distinctive(): void {} }`,
		"src/Inventory/Base.php": `<?php
namespace Shop\Inventory;
abstract class Base {
    public function __construct(protected \Psr\Log\LoggerInterface $logger) {}
    protected function log(string $m): void { $this->logger->info($m); }
}`,
		"src/Inventory/Repo.php": `<?php
namespace Shop\Inventory;
use Shop\Models\Item;
class Repo {
    public function find(string $n): ?Item { return null; }
    public function self(): static { return $this; }
}`,
		"src/Inventory/Store.php": `<?php
namespace Shop\Inventory;
use Shop\Models\Item;
use Shop\Models as M;
use Shop\Legacy\OddPlace;
use function Shop\money;
use GuzzleHttp\Client;
require_once __DIR__ . '/../helpers.php';
class Store extends Base {
    private Repo $repo;
    public function __construct(\Psr\Log\LoggerInterface $logger) { parent::__construct($logger); }
    public function add(Item $item): void {
        $this->log('x');
        $item->gross();
        $item->tag('new');
        $this->repo->find('x')->gross();
        $this->repo->self()->find('y');
        $found = $this->repo->find('z');
        $found->gross();
        M\Tax::rate();
        Item::make();
        self::helper();
        money(1.0);
        strlen('x');
        array_map(fn($x) => $x, []);
        file_put_contents('a', 'b');
        $c = new Client();
        $c->get('/');
        (new OddPlace())->distinctive();
        $unknown->distinctive();
        $unknown->get();
        \Vendor\Lib\thing();
    }
    private static function helper(): void {}
}`,
		"src/helpers.php": `<?php
namespace Shop;
function money(float $x): string { return (string) $x; }`,
		"public/index.php": `<?php
require __DIR__ . '/../src/helpers.php';
require __DIR__ . '/../vendor/autoload.php';
use Shop\Inventory\Store;
$s = new Store(null);
$s->add(null);
\Shop\money(2.0);`,
	}
	tab, facts := newMoreTestTable(t, "php", files, nil)
	tab.project = map[string]Project{ProjectPHPAutoload: PHPAutoload{{Prefix: "Shop", Dir: "src"}}}
	got := tab.resolveAll(facts)
	wantAll(t, got,
		// use statements, includes, PSR-4
		`src/Inventory/Store.php: import Shop\Models\Item -> src/Models/Item.php:Item (import)`,
		`src/Inventory/Store.php: import Shop\Models -> src/Models/HasTags.php:<module> (import)`,
		`src/Inventory/Store.php: import Shop money -> src/helpers.php:money (import)`,
		`src/Inventory/Store.php: import GuzzleHttp\Client -> ? (external)`,
		`src/Inventory/Store.php: import Shop\Legacy\OddPlace -> src/Legacy/OddPlace.php:OddPlace (import)`,
		`src/Inventory/Store.php: import ./../helpers.php -> src/helpers.php:<module> (import)`,
		`public/index.php: import ./../vendor/autoload.php -> ? (unresolved)`,
		`public/index.php: import Shop\Inventory\Store -> src/Inventory/Store.php:Store (import)`,
		// heritage: same namespace, traits
		`src/Inventory/Store.php: Store extends Base -> src/Inventory/Base.php:Base (same_package)`,
		`src/Models/Item.php: Item implements Priced -> src/Models/Priced.php:Priced (same_package)`,
		`src/Models/Item.php: Item implements HasTags -> src/Models/HasTags.php:HasTags (same_package)`,
		// receivers: $this, parents, traits, properties, return types
		`src/Inventory/Store.php: Store.add call $this.log -> src/Inventory/Base.php:Base.log (receiver)`,
		`src/Inventory/Store.php: Store.__construct call parent.__construct -> src/Inventory/Base.php:Base.__construct (receiver)`,
		`src/Inventory/Store.php: Store.add call $item.gross -> src/Models/Item.php:Item.gross (receiver)`,
		`src/Inventory/Store.php: Store.add call $item.tag -> src/Models/HasTags.php:HasTags.tag (receiver)`,
		`src/Inventory/Store.php: Store.add call $this->repo.find -> src/Inventory/Repo.php:Repo.find (receiver)`,
		`src/Inventory/Store.php: Store.add call $this->repo->find().gross -> src/Models/Item.php:Item.gross (receiver)`,
		`src/Inventory/Store.php: Store.add call $this->repo->self().find -> src/Inventory/Repo.php:Repo.find (receiver)`,
		`src/Inventory/Store.php: Store.add call $found.gross -> src/Models/Item.php:Item.gross (receiver)`,
		`src/Models/Item.php: Item.make new \Shop\Models.Item -> src/Models/Item.php:Item (same_file)`,
		// static calls
		`src/Models/Item.php: Item.gross call Tax.rate -> src/Models/Tax.php:Tax.rate (same_package)`,
		`src/Inventory/Store.php: Store.add call M\Tax.rate -> src/Models/Tax.php:Tax.rate (import)`,
		`src/Inventory/Store.php: Store.add call Item.make -> src/Models/Item.php:Item.make (import)`,
		`src/Inventory/Store.php: Store.add call self.helper -> src/Inventory/Store.php:Store.helper (same_file)`,
		// functions: use function, builtins, libraries
		`src/Inventory/Store.php: Store.add call money -> src/helpers.php:money (import)`,
		`src/Inventory/Store.php: Store.add call file_put_contents -> ? (external)`,
		`src/Inventory/Store.php: Store.add call \Vendor\Lib.thing -> ? (external)`,
		`public/index.php: <module> call \Shop.money -> src/helpers.php:money (import)`,
		`public/index.php: <module> new Store -> src/Inventory/Store.php:Store (import)`,
		`public/index.php: <module> call $s.add -> src/Inventory/Store.php:Store.add (receiver)`,
		// library classes and unknown receivers
		`src/Inventory/Store.php: Store.add new Client -> ? (external)`,
		`src/Inventory/Store.php: Store.add call $c.get -> ? (external)`,
		`src/Inventory/Base.php: Base.log call $this->logger.info -> ? (external)`,
		`src/Inventory/Store.php: Store.add call new OddPlace().distinctive -> src/Legacy/OddPlace.php:OddPlace.distinctive (receiver)`,
		`src/Inventory/Store.php: Store.add call $unknown.distinctive -> src/Legacy/OddPlace.php:OddPlace.distinctive (unique_name)`,
	)
	wantAll(t, got, "src/Inventory/Store.php: Store.add call strlen -> ? (builtin)",
		"src/Inventory/Store.php: Store.add call array_map -> ? (builtin)")
}
