package query_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/sdl-dev/sdl/query"
)

var sliceTasks = map[string][]string{
	"go":         {"the store refuses items when it is full", "save items to the json database file", "Store.Add panics on nil item"},
	"python":     {"restock the inventory when stock is low", "load items from the json repository"},
	"typescript": {"format a price with the currency", "fetch the catalog from the server"},
	"rust":       {"store rejects an item when the shelf is full"},
	"java":       {"apply a discount to the order total"},
}

// TestSliceBudgets builds slices for several tasks and budgets and checks
// the promise: the whole response never exceeds its token budget, and
// never holds more cards than maxCards.
func TestSliceBudgets(t *testing.T) {
	ctx := context.Background()
	for repo, tasks := range sliceTasks {
		x := fixture(t, repo)
		for _, task := range tasks {
			for _, budget := range []int{query.MinSliceTokens, 350, 600, 1000, 2500, 4000} {
				for _, maxCards := range []int{1, 5, 50} {
					resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: task,
						Budget: &query.SliceBudget{MaxCards: maxCards, MaxEstimatedTokens: budget}})
					if err != nil {
						t.Fatalf("%s %q budget %d: %v", repo, task, budget, err)
					}
					b := query.EncodeJSON(resp)
					if n := query.Tokens(string(b)); n > budget {
						t.Errorf("%s %q: response of %d tokens over budget %d", repo, task, n, budget)
					}
					if resp.EstimatedTokens > budget || resp.EstimatedTokens <= 0 {
						t.Errorf("%s %q: estimatedTokens %d for budget %d", repo, task, resp.EstimatedTokens, budget)
					}
					if got, want := resp.SliceEtag.SliceHash, query.SliceHashOf(&resp.Slice); got != want {
						t.Errorf("%s %q budget %d: sliceHash %s, of the cards sent %s", repo, task, budget, got, want)
					}
					if n := len(resp.Slice.Cards) + len(resp.Slice.CardRefs); n > maxCards {
						t.Errorf("%s %q: %d cards over maxCards %d", repo, task, n, maxCards)
					}
					// the smallest budget allowed holds a card
					if n := len(resp.Slice.Cards) + len(resp.Slice.CardRefs); n == 0 {
						t.Errorf("%s %q budget %d: no card", repo, task, budget)
					}
				}
			}
		}
	}
}

// TestSliceBudgetKeepsTheBestCards checks that a small budget is packed by
// value: the cards below the first few give their detail before a card is
// left out, so an adaptive slice holds about as many cards as one of
// signatures only, its first card (one per 1000 tokens) keeps its detail,
// and no card is more detailed than the cards above it (but the first).
func TestSliceBudgetKeepsTheBestCards(t *testing.T) {
	ctx := context.Background()
	for repo, tasks := range sliceTasks {
		x := fixture(t, repo)
		for _, task := range tasks {
			for _, budget := range []int{1000, 1500, 2500} {
				req := query.SliceRequest{TaskText: task, Budget: &query.SliceBudget{MaxCards: 50, MaxEstimatedTokens: budget}}
				resp, err := x.BuildSlice(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				req.CardDetail = query.DetailSignature
				sig, err := x.BuildSlice(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				cards := resp.Slice.Cards
				if len(cards) == 0 {
					t.Fatalf("%s %q budget %d: no card", repo, task, budget)
				}
				var got []string
				for i, c := range cards {
					got = append(got, c.Name+":"+c.Detail)
					if i > 1 && detailOrder[c.Detail] > detailOrder[cards[i-1].Detail] {
						t.Errorf("%s %q budget %d: card %d more detailed than the one above: %v", repo, task, budget, i+1, got)
					}
				}
				// one card per 1000 tokens keeps its detail (compact, the
				// first four of an adaptive slice)
				for i := range min(len(cards), max(1, budget/1000)) {
					if cards[i].Detail != query.DetailCompact {
						t.Errorf("%s %q budget %d: card %d at %s, want compact: %v", repo, task, budget, i+1, cards[i].Detail, got)
					}
				}
				if n, m := len(cards), len(sig.Slice.Cards); n < m-1 {
					t.Errorf("%s %q budget %d: %d cards, a slice of signatures holds %d: %v", repo, task, budget, n, m, got)
				}
			}
		}
	}
}

var detailOrder = map[string]int{query.DetailMinimal: 0, query.DetailSignature: 1, query.DetailDeps: 2, query.DetailCompact: 3, query.DetailFull: 4}

func TestSliceFindsTheTask(t *testing.T) {
	x := fixture(t, "go")
	ctx := context.Background()
	for task, want := range map[string]string{
		"Store.Add should not panic on a nil item":      "Add",
		"the database file is written with permissions": "Save",
		"sum the value of every item in the store":      "Value",
	} {
		resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: task})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range resp.Slice.Cards[:min(3, len(resp.Slice.Cards))] {
			names = append(names, c.Name)
		}
		if !contains(names, want) {
			t.Errorf("task %q: top cards %v, want %s among them", task, names, want)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, v := range ss {
		if v == s {
			return true
		}
	}
	return false
}

// TestSpilloverCoversEverything pages through the overflow of a small slice:
// the slice and its pages list every ranked symbol exactly once, and a
// freshly opened index (a restarted server) resolves the handle.
func TestSpilloverCoversEverything(t *testing.T) {
	x := fixture(t, "python")
	ctx := context.Background()
	resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "restock the inventory of the store",
		Budget: &query.SliceBudget{MaxCards: 3, MaxEstimatedTokens: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	tr := resp.Slice.Truncation
	if tr == nil || tr.SpilloverHandle == "" || tr.DroppedCards == 0 {
		t.Fatalf("expected a truncated slice with a spillover handle, got %+v", tr)
	}
	seen := map[string]int{}
	for _, c := range resp.Slice.Cards {
		seen[c.SymbolID]++
	}
	// a restarted server: a new Index on the same file
	y, err := query.Open(x.Path, x.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	cursor, pages, total := "", 0, 0
	for {
		page, err := y.Spillover(ctx, query.SpilloverRequest{SpilloverHandle: tr.SpilloverHandle, Cursor: cursor, PageSize: 7})
		if err != nil {
			t.Fatal(err)
		}
		total = page.Total
		for _, c := range page.Symbols {
			seen[c.SymbolID]++
			if c.Detail != query.DetailFull {
				t.Errorf("spillover card at detail %q, want full", c.Detail)
			}
		}
		pages++
		if !page.HasMore {
			break
		}
		cursor = page.Cursor
		if pages > 100 {
			t.Fatal("spillover does not end")
		}
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("symbol %s listed %d times", id, n)
		}
	}
	if len(seen) != total+len(resp.Slice.Cards) {
		t.Errorf("slice %d + spillover %d != %d symbols seen", len(resp.Slice.Cards), total, len(seen))
	}
	if _, err := y.Spillover(ctx, query.SpilloverRequest{SpilloverHandle: "sp_00000000000000000000"}); !errors.Is(err, query.ErrHandle) {
		t.Errorf("unknown handle: %v", err)
	}
}

func TestSliceKnownEtags(t *testing.T) {
	x := fixture(t, "go")
	ctx := context.Background()
	first, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "add an item to the store"})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]string{}
	for _, c := range first.Slice.Cards[:3] {
		known[c.SymbolID] = c.Etag
	}
	second, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "add an item to the store", KnownCardEtags: known})
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Slice.CardRefs) != 3 {
		t.Fatalf("cardRefs %+v, want the 3 known cards", second.Slice.CardRefs)
	}
	for _, r := range second.Slice.CardRefs {
		if !r.NotModified || known[r.SymbolID] != r.Etag {
			t.Errorf("card ref %+v", r)
		}
	}
	for _, c := range second.Slice.Cards {
		if _, ok := known[c.SymbolID]; ok {
			t.Errorf("known card %s sent again", c.Name)
		}
	}
}

func TestSliceSeeds(t *testing.T) {
	x := fixture(t, "go")
	ctx := context.Background()
	// an edited file: its symbols and callers come in
	resp, err := x.BuildSlice(ctx, query.SliceRequest{EditedFiles: []string{"store/db.go"}})
	if err != nil {
		t.Fatal(err)
	}
	names := cardNames(resp)
	for _, want := range []string{"Open", "DB.Save", "Store.Add"} {
		if !contains(names, want) {
			t.Errorf("edited store/db.go: cards %v lack %s", names, want)
		}
	}
	// a stack trace
	trace := "panic: store: nil item\n\ngoroutine 1 [running]:\nexample.com/shop/store.(*Store).Add(...)\n\t/home/u/shop/store/store.go:28 +0x1d\nmain.main()\n\t/home/u/shop/cmd/shopctl/main.go:20 +0x45\n"
	resp, err = x.BuildSlice(ctx, query.SliceRequest{StackTrace: trace, IncludeRetrievalEvidence: true})
	if err != nil {
		t.Fatal(err)
	}
	if names := cardNames(resp); len(names) < 2 || names[0] != "Store.Add" || names[1] != "main" {
		t.Errorf("stack trace slice starts %v, want Store.Add, main", names)
	}
	// entry symbols must exist
	if _, err := x.BuildSlice(ctx, query.SliceRequest{EntrySymbols: []string{"0000000000000000"}}); !errors.Is(err, query.ErrInvalid) {
		t.Errorf("unknown entry symbol: %v", err)
	}
	// a path outside the repository is refused
	if _, err := x.BuildSlice(ctx, query.SliceRequest{EditedFiles: []string{"../../etc/passwd"}}); !errors.Is(err, query.ErrInvalid) ||
		!strings.Contains(err.Error(), "editedFiles") {
		t.Errorf("path traversal: %v", err)
	}
	if _, err := x.BuildSlice(ctx, query.SliceRequest{}); !errors.Is(err, query.ErrInvalid) {
		t.Errorf("empty request: %v", err)
	}
}

func cardNames(resp *query.SliceResponse) []string {
	var out []string
	for _, c := range resp.Slice.Cards {
		n := c.Name
		if c.Container != "" {
			n = c.Container + "." + c.Name
		}
		out = append(out, n)
	}
	return out
}

func TestCards(t *testing.T) {
	x := fixture(t, "go")
	ctx := context.Background()
	res, err := x.Card(ctx, query.CardRequest{SymbolRef: &query.SymbolRef{Name: "Store.Add"}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.(*query.Card)
	if c.File != "store/store.go" || c.Kind != "method" || c.Signature == nil || c.Signature.Receiver != "*Store" {
		t.Fatalf("card %+v", c)
	}
	if c.Deps == nil || len(c.Deps.Calls) == 0 || !strings.HasPrefix(c.Deps.Calls[0].Label, "DB.Save") {
		t.Errorf("deps %+v, want a call to DB.Save", c.Deps)
	}
	if len(c.Deps.CalledBy) == 0 || c.Metrics == nil || c.Metrics.FanIn < 2 || c.Metrics.TestRefs != 1 {
		t.Errorf("callers %+v metrics %+v", c.Deps.CalledBy, c.Metrics)
	}
	if len(c.Invariants) != 2 {
		t.Errorf("invariants %v", c.Invariants)
	}
	// the same etag: not modified
	nm, err := x.Card(ctx, query.CardRequest{SymbolID: c.SymbolID, IfNoneMatch: c.Etag})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := nm.(*query.NotModified); !ok || !m.NotModified {
		t.Errorf("ifNoneMatch: %+v", nm)
	}
	// every detail level, each cheaper than the next
	prev := 0
	for _, d := range []string{"minimal", "signature", "deps", "compact", "full"} {
		r, err := x.Card(ctx, query.CardRequest{SymbolID: c.SymbolID, Detail: d})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		n := query.Tokens(string(b))
		if n < prev && d != "compact" {
			t.Errorf("detail %s: %d tokens, less than the level before (%d)", d, n, prev)
		}
		prev = n
		if r.(*query.Card).Etag != c.Etag {
			t.Errorf("detail %s changes the etag", d)
		}
	}
	// batch: per-symbol failures
	batch, err := x.Cards(ctx, query.CardsRequest{SymbolRefs: []query.SymbolRef{{Name: "NewStore"}, {Name: "Nope"}, {Name: "String"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(batch.Cards) != 2 || !batch.Partial || len(batch.Failures) != 1 || batch.Failures[0].Classification != "not_found" {
		t.Errorf("batch %+v", batch)
	}
	amb, err := x.Cards(ctx, query.CardsRequest{SymbolRefs: []query.SymbolRef{{Name: "store"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(amb.Failures) != 1 || amb.Failures[0].Classification != "ambiguous" || len(amb.Failures[0].Candidates) < 2 {
		t.Errorf("ambiguous batch %+v", amb)
	}
}

func TestParseStackTrace(t *testing.T) {
	for name, c := range map[string]struct {
		trace string
		want  []query.Frame
	}{
		"python": {"Traceback (most recent call last):\n  File \"/srv/app/src/flask/app.py\", line 1498, in __call__\n    return self.wsgi_app(environ, start_response)\n  File \"src/flask/ctx.py\", line 12, in push\nValueError: x\n",
			[]query.Frame{{File: "src/flask/ctx.py", Line: 12, Function: "push"}, {File: "/srv/app/src/flask/app.py", Line: 1498, Function: "__call__"}}},
		"pytest": {"/usr/local/lib/python3.8/site-packages/_pytest/runner.py:341: in from_call\n    result = func()\n<frozen importlib._bootstrap>:1014: in _gcd_import\n    ???\nsrc/_pytest/assertion/rewrite.py:695: in run\n    if self.is_rewrite_disabled(doc):\nE   TypeError: argument of type 'int' is not iterable\n",
			[]query.Frame{{File: "src/_pytest/assertion/rewrite.py", Line: 695, Function: "run"}, {File: "/usr/local/lib/python3.8/site-packages/_pytest/runner.py", Line: 341, Function: "from_call", Library: true}}},
		"pytest short": {"C:\\Python38\\lib\\pathlib.py:1266: FileNotFoundError\n", []query.Frame{{File: "C:/Python38/lib/pathlib.py", Line: 1266, Library: true}}},
		"go": {"goroutine 1 [running]:\nmain.(*T).run(...)\n\t/home/u/x/main.go:12 +0x1d\nmain.main()\n\t/home/u/x/main.go:20\n",
			[]query.Frame{{File: "/home/u/x/main.go", Line: 12, Function: "run"}, {File: "/home/u/x/main.go", Line: 20, Function: "main"}}},
		"java": {"Exception in thread \"main\" java.lang.NullPointerException\n\tat com.example.Shop.add(Shop.java:42)\n\tat com.example.Main.main(Main.java:7)\n",
			[]query.Frame{{File: "Shop.java", Line: 42, Function: "add"}, {File: "Main.java", Line: 7, Function: "main"}}},
		"java jdk": {"\tat java.util.ArrayList.get(ArrayList.java:427)\n\tat com.example.Shop.add(Shop.java:42)\n",
			[]query.Frame{{File: "ArrayList.java", Line: 427, Function: "get", Library: true}, {File: "Shop.java", Line: 42, Function: "add"}}},
		"node": {"TypeError: x is undefined\n    at format (/app/src/price.ts:10:5)\n    at Object.<anonymous> (src/index.js:3:1)\n",
			[]query.Frame{{File: "/app/src/price.ts", Line: 10, Function: "format"}, {File: "src/index.js", Line: 3, Function: "<anonymous>"}}},
		"rust":          {"thread 'main' panicked at src/store/mod.rs:31:9:\nshelf full\n", []query.Frame{{File: "src/store/mod.rs", Line: 31}}},
		"none":          {"nothing to see here: version 1.2.3", nil},
		"format string": {"DEBUG    django.db.backends:utils.py:114 (0.000)", []query.Frame{{File: "utils.py", Line: 114}}},
	} {
		got := query.ParseStackTrace(c.trace)
		if len(got) != len(c.want) {
			t.Errorf("%s: %+v, want %+v", name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s frame %d: %+v, want %+v", name, i, got[i], c.want[i])
			}
		}
	}
}

// FuzzParseStackTrace: any text parses, frames are well formed and bounded.
func FuzzParseStackTrace(f *testing.F) {
	f.Add("File \"a.py\", line 1, in f\n")
	f.Add("\tat a.B.c(B.java:9)\n")
	f.Add("main.f()\n\t/x/y.go:3 +0x1\n")
	f.Add("at f (a.ts:1:2)\n at b.rs:0")
	f.Fuzz(func(t *testing.T, s string) {
		frames := query.ParseStackTrace(s)
		if len(frames) > 200 {
			t.Fatalf("%d frames", len(frames))
		}
		for _, fr := range frames {
			if fr.File == "" || fr.Line <= 0 {
				t.Fatalf("bad frame %+v", fr)
			}
		}
	})
}

// TestCardCallersPerSymbol: a card lists the same callers whatever other
// cards its batch holds, even next to symbols with thousands of callers.
func TestCardCallersPerSymbol(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"Popular1", "Popular2", "Rare1", "Rare2", "Rare3", "Rare4"}
	var b strings.Builder
	b.WriteString("package p\n\n")
	for _, name := range names {
		fmt.Fprintf(&b, "func %s() {}\n", name)
		n := 25
		if strings.HasPrefix(name, "Popular") {
			n = 1100
		}
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "func call%s%d() { %s() }\n", name, i, name)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "p.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	x := indexRepo(t, root)
	ctx := context.Background()
	alone := map[string]*query.Card{}
	var ids []string
	for _, name := range names {
		res, err := x.Card(ctx, query.CardRequest{SymbolRef: &query.SymbolRef{Name: name}})
		if err != nil {
			t.Fatal(err)
		}
		c := res.(*query.Card)
		if c.Deps == nil || len(c.Deps.CalledBy) != 20 {
			t.Fatalf("%s alone: callers %+v, want 20", name, c.Deps)
		}
		alone[name] = c
		ids = append(ids, c.SymbolID)
	}
	all, err := x.Cards(ctx, query.CardsRequest{SymbolIDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all.Cards {
		c := r.(*query.Card)
		if want := alone[c.Name]; c.Etag != want.Etag || c.Deps == nil || !reflect.DeepEqual(c.Deps.CalledBy, want.Deps.CalledBy) {
			t.Errorf("%s in a batch: callers %+v (etag %s), alone %d (etag %s)", c.Name, c.Deps, c.Etag, len(want.Deps.CalledBy), want.Etag)
		}
	}
}

// TestSliceAgainAndAfterIndex: a slice asked again is the same slice (its
// cards are remembered), and after an index run its cards are those of
// the new state of the code.
func TestSliceAgainAndAfterIndex(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	x := h.x
	req := query.SliceRequest{TaskText: "Store.Add panics on nil item"}
	content := func(r *query.SliceResponse) string {
		b, err := json.Marshal(r.Slice.Cards)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := json.Marshal(r.Slice.Edges)
		return string(b) + string(e)
	}
	first, err := x.BuildSlice(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := x.BuildSlice(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if content(first) != content(again) {
		t.Fatalf("the same request gave another slice:\n%s\n%s", content(first), content(again))
	}
	addEtag := func(r *query.SliceResponse) string {
		for _, c := range r.Slice.Cards {
			if c.Name == "Add" && c.Container == "Store" {
				return c.Etag
			}
		}
		t.Fatalf("no Store.Add in %s", content(r))
		return ""
	}
	before := addEtag(first)

	editFile(t, h.root, "store/store.go", "\ts.items[item.ID] = item\n", "\ts.items[item.ID] = item\n\ts.sortedIDs()\n")
	h.index()
	after, err := x.BuildSlice(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	card, err := x.Card(ctx, query.CardRequest{SymbolRef: &query.SymbolRef{Name: "Store.Add"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := addEtag(after), card.(*query.Card).Etag; got != want || got == before {
		t.Errorf("after the edit: Store.Add's etag %s in the slice, %s alone, %s before", got, want, before)
	}
	// what this Index remembers gives the slice a fresh one gives
	y, err := query.Open(h.db, h.root)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	fresh, err := y.BuildSlice(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if content(after) != content(fresh) {
		t.Errorf("after the index run:\n%s\nfrom a fresh Index:\n%s", content(after), content(fresh))
	}
}

// TestSliceCardCap checks that a small budget holds the first cards of the
// ranking however long their signatures and docs: at 1000 tokens every
// card of an adaptive slice costs at most its cap (CardTokenCap), a cut
// signature is the start of the whole one, the first LeadCards cards are
// those of the 4000-token slice in the same order, and the response keeps
// to its budget. Without the cap, the fixture's cards (about 170 tokens at
// their signature) leave room for four.
func TestSliceCardCap(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "slices", "typescript-longsigs.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	x := txtarIndex(t, ar)
	ctx := context.Background()
	task := "a failed parse should report the issue path of every union, record, tuple, array, map and set"
	slice := func(budget int) *query.SliceResponse {
		resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: task, Budget: &query.SliceBudget{MaxEstimatedTokens: budget}})
		if err != nil {
			t.Fatal(err)
		}
		if n := query.Tokens(string(query.EncodeJSON(resp))); n > budget {
			t.Errorf("budget %d: response of %d tokens", budget, n)
		}
		return resp
	}
	wide, small := slice(4000), slice(1000)
	whole := map[string]string{}
	var order []string
	for _, c := range wide.Slice.Cards {
		order = append(order, c.Name)
		if c.Signature != nil {
			whole[c.SymbolID] = c.Signature.Text
		}
	}
	if len(order) < query.LeadCards {
		t.Fatalf("the 4000-token slice holds %d cards: %v", len(order), order)
	}
	var got []string
	cut := 0
	for _, c := range small.Slice.Cards {
		got = append(got, c.Name)
		if n := query.Tokens(string(query.EncodeJSON(c))) + 1; n > query.CardTokenCap(1000) {
			t.Errorf("card %s costs %d tokens, cap %d", c.Name, n, query.CardTokenCap(1000))
		}
		if c.Signature == nil {
			continue
		}
		if s, ok := strings.CutSuffix(c.Signature.Text, "…"); ok {
			cut++
			if !strings.HasPrefix(whole[c.SymbolID], s) {
				t.Errorf("card %s: cut signature %q is not the start of %q", c.Name, c.Signature.Text, whole[c.SymbolID])
			}
		}
	}
	if cut == 0 {
		t.Errorf("no signature cut at 1000 tokens: %v", got)
	}
	if len(got) < query.LeadCards || strings.Join(got[:query.LeadCards], ",") != strings.Join(order[:query.LeadCards], ",") {
		t.Errorf("first cards at 1000 tokens %v, at 4000 %v", got, order[:query.LeadCards])
	}
}

// refillTolerance is what adding a card costs beyond the card itself: a
// comma, a stale file's path, a few tokens of a new slice hash.
const refillTolerance = 30

// TestSliceRefill checks that a small slice uses the room fitBudget leaves:
// its cards are the first of the 4000-token slice, in order, and when the
// wide slice holds more, the next one would not fit even at minimal
// detail; and that the slice's hash names the cards it sends.
func TestSliceRefill(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "slices", "cpp-numparse.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	x := txtarIndex(t, ar)
	ctx := context.Background()
	task := "parse error when reading a number with an exponent from an input stream"
	slice := func(budget int) *query.SliceResponse {
		resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: task, Budget: &query.SliceBudget{MaxEstimatedTokens: budget}})
		if err != nil {
			t.Fatal(err)
		}
		if n := query.Tokens(string(query.EncodeJSON(resp))); n > budget || n > resp.EstimatedTokens {
			t.Errorf("budget %d: response of %d tokens, estimatedTokens %d", budget, n, resp.EstimatedTokens)
		}
		if got, want := resp.SliceEtag.SliceHash, query.SliceHashOf(&resp.Slice); got != want {
			t.Errorf("budget %d: sliceHash %s, of the cards sent %s", budget, got, want)
		}
		return resp
	}
	wide := slice(4000).Slice.Cards
	for _, budget := range []int{800, 1000} {
		resp := slice(budget)
		small := resp.Slice.Cards
		if len(small) >= len(wide) {
			t.Fatalf("budget %d holds %d cards, 4000 holds %d: the fixture no longer tests a refill", budget, len(small), len(wide))
		}
		for i, c := range small {
			if c.SymbolID != wide[i].SymbolID {
				t.Fatalf("budget %d: card %d is %s, at 4000 %s", budget, i, c.Name, wide[i].Name)
			}
		}
		next := wide[len(small)]
		free := budget - resp.EstimatedTokens
		if cost := query.MinimalCardTokens(next); free >= cost+refillTolerance {
			t.Errorf("budget %d: %d cards, %d tokens free, and %s would take %d at minimal detail", budget, len(small), free, next.Name, cost)
		}
	}
}
