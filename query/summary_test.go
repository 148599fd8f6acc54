package query_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

func TestDetectScope(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"Store.Add", query.ScopeSymbol},
		{"Context.JSON", query.ScopeSymbol}, // an extension only as files write it
		{"render.JSON", query.ScopeSymbol},
		{"NewStore", query.ScopeSymbol},
		{"Store.Add()", query.ScopeSymbol},
		{"x.Current(ctx)", query.ScopeSymbol},
		{"(*Store).Add", query.ScopeSymbol},
		{"Store::add", query.ScopeSymbol},
		{"auth middleware", query.ScopeSymbol}, // two words, none asks for work
		{"v1.2", query.ScopeSymbol},
		{"e.g.", query.ScopeSymbol},
		{"Store . Get", query.ScopeSymbol}, // punctuation is not a word
		{"", query.ScopeSymbol},
		{"store/db.go", query.ScopeFile},
		{`pkg\util.go`, query.ScopeFile},
		{"db.go", query.ScopeFile},
		{"db.go:27", query.ScopeFile},
		{"README.md", query.ScopeFile},
		{"net/http", query.ScopeFile},
		{"fix the crash in store/db.go", query.ScopeFile}, // a path wins, as the spec orders it
		{"how is config.yaml read", query.ScopeFile},
		{"fix", query.ScopeTask},
		{"Why", query.ScopeTask},
		{"debug Store.Add", query.ScopeTask},
		{"refactor: NewStore", query.ScopeTask},
		{"parse config values", query.ScopeTask}, // three words
		{"auth middleware order", query.ScopeTask},
		{"how?", query.ScopeTask},
	} {
		if got := query.DetectScope(c.q); got != c.want {
			t.Errorf("DetectScope(%q) = %s, want %s", c.q, got, c.want)
		}
	}
}

func summarize(t testing.TB, x *query.Index, req query.SummaryRequest) *query.SummaryResponse {
	t.Helper()
	resp, err := x.Summarize(context.Background(), req)
	if err != nil {
		t.Fatalf("summarize %+v: %v", req, err)
	}
	return resp
}

func keyNames(s *query.ContextSummary) map[string]string {
	out := map[string]string{}
	for _, k := range s.KeySymbols {
		out[k.Name] = k.Role
	}
	return out
}

func hasEdge(s *query.ContextSummary, from, to, kind string) bool {
	for _, d := range s.Dependencies {
		if d.From == from && d.To == to && d.Kind == kind {
			return true
		}
	}
	return false
}

func riskOf(s *query.ContextSummary, name string) *query.RiskArea {
	for i := range s.RiskAreas {
		if s.RiskAreas[i].Name == name {
			return &s.RiskAreas[i]
		}
	}
	return nil
}

func TestSummarySymbolScope(t *testing.T) {
	x := fixture(t, "go")
	resp := summarize(t, x, query.SummaryRequest{Query: "Store.Add"})
	s := resp.Summary
	if s.Scope != query.ScopeSymbol || resp.Format != query.FormatMarkdown || resp.LedgerVersion != "v1" || resp.RepoID == "" {
		t.Fatalf("scope %s, format %s, version %s, repo %q", s.Scope, resp.Format, resp.LedgerVersion, resp.RepoID)
	}
	if len(s.KeySymbols) == 0 || s.KeySymbols[0].Name != "Store.Add" || s.KeySymbols[0].Role != "target" {
		t.Fatalf("first key symbol %+v, want the target Store.Add", s.KeySymbols)
	}
	k := s.KeySymbols[0]
	if k.Signature != "func (s *Store) Add(item *Item) error" || k.Summary != "Add puts an item in the store and saves it." ||
		k.File != "store/store.go" || k.Line != 23 {
		t.Errorf("target %+v", k)
	}
	names := keyNames(s)
	for name, role := range map[string]string{"DB.Save": "callee", "main": "caller", "TestAdd": "caller", "Store": "container"} {
		if names[name] != role {
			t.Errorf("key symbol %s has role %q, want %q (all: %v)", name, names[name], role, names)
		}
	}
	for _, e := range [][3]string{{"Store.Add", "DB.Save", "call"}, {"main", "Store.Add", "call"}, {"TestAdd", "Store.Add", "call"}} {
		if !hasEdge(s, e[0], e[1], e[2]) {
			t.Errorf("no edge %s -> %s (%s) in %+v", e[0], e[1], e[2], s.Dependencies)
		}
	}
	save := riskOf(s, "DB.Save")
	if save == nil || !containsText(save.Reasons, "side effect: writes files (os.WriteFile)") || !containsText(save.Reasons, "no test references it") {
		t.Errorf("risk of DB.Save = %+v, want its file write and no tests", save)
	}
	if add := riskOf(s, "Store.Add"); add == nil || !containsText(add.Reasons, "then panic") || containsText(add.Reasons, "no test") {
		t.Errorf("risk of Store.Add = %+v, want its guards and no claim it is untested (TestAdd calls it)", add)
	}
	if riskOf(s, "TestAdd") != nil {
		t.Errorf("a test is listed as a risk area")
	}
	files := map[string]query.FileTouched{}
	for _, f := range s.Files {
		files[f.Path] = f
	}
	if f := files["store/store.go"]; f.KeySymbols != 2 || f.Symbols != 8 || f.Churn != nil {
		t.Errorf("store/store.go: %+v, want 2 key symbols (Store.Add, Store) of 8, no churn without git", f)
	}
	if _, ok := files["store/db.go"]; !ok {
		t.Errorf("files %+v lack store/db.go", s.Files)
	}
	for _, want := range []string{"# Context summary: Store.Add", "## Key symbols", "## Dependency graph", "## Risk areas", "## Files touched",
		"- `Store.Add` method · store/store.go:23 · target", "`func (s *Store) Add(item *Item) error`",
		"- Store.Add -> DB.Save (call)", "writes files (os.WriteFile)", "- store/db.go: "} {
		if !strings.Contains(resp.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, resp.Content)
		}
	}
	if s.Truncated || strings.Contains(resp.Content, "Cut to fit") {
		t.Errorf("a small summary was cut:\n%s", resp.Content)
	}
	if s.EstimatedTokens != query.Tokens(resp.Content) {
		t.Errorf("estimatedTokens %d, content has %d", s.EstimatedTokens, query.Tokens(resp.Content))
	}
}

func containsText(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func TestSummarySymbolForms(t *testing.T) {
	x := fixture(t, "go")
	// a type lists its members, though Go declares them apart
	s := summarize(t, x, query.SummaryRequest{Query: "Store"}).Summary
	names := keyNames(s)
	if names["Store"] != "target" || names["Store.Add"] != "member" || names["Store.Value"] != "member" {
		t.Errorf("Store: key symbols %v, want Store with its members", names)
	}
	// other spellings of a reference
	for _, q := range []string{"(*Store).Add", "Store.Add()", "`Store.Add`", "Store::Add"} {
		s := summarize(t, x, query.SummaryRequest{Query: q}).Summary
		if len(s.KeySymbols) == 0 || s.KeySymbols[0].Name != "Store.Add" {
			t.Errorf("%s: first key symbol %+v, want Store.Add", q, s.KeySymbols)
		}
	}
	// an ambiguous name keeps its candidates and says so
	s = summarize(t, x, query.SummaryRequest{Query: "Get"}).Summary
	names = keyNames(s)
	if names["Store.Get"] != "candidate" || names["Repository.Get"] != "candidate" || !containsText(s.Notes, "2 symbols are named Get") {
		t.Errorf("Get: key symbols %v, notes %v", names, s.Notes)
	}
	// an interface method has no body to test
	if r := riskOf(s, "Repository.Get"); r != nil && containsText(r.Reasons, "no test") {
		t.Errorf("Repository.Get is flagged untested: %+v", r)
	}
	// no such name: the best search match, said so
	s = summarize(t, x, query.SummaryRequest{Query: "persist"}).Summary
	if len(s.KeySymbols) == 0 || s.KeySymbols[0].Name != "DB" || !containsText(s.Notes, "no symbol has exactly this name") {
		t.Errorf("persist: %+v, notes %v", s.KeySymbols, s.Notes)
	}
	// nothing at all
	resp := summarize(t, x, query.SummaryRequest{Query: "zzqxv"})
	if len(resp.Summary.KeySymbols) != 0 || !strings.Contains(resp.Content, "nothing in the index matches") {
		t.Errorf("zzqxv: %s", resp.Content)
	}
}

func TestSummaryFileScope(t *testing.T) {
	x := fixture(t, "go")
	for _, q := range []string{"store/db.go", "db.go", "./store/db.go", `store\db.go`, "store/db.go:22"} {
		s := summarize(t, x, query.SummaryRequest{Query: q}).Summary
		if s.Scope != query.ScopeFile {
			t.Fatalf("%s: scope %s", q, s.Scope)
		}
		var got []string
		for _, k := range s.KeySymbols {
			got = append(got, k.Name)
			if k.File != "store/db.go" {
				t.Errorf("%s: key symbol %s is in %s", q, k.Name, k.File)
			}
		}
		if strings.Join(got, ",") != "DB,Open,DB.Save" {
			t.Errorf("%s: key symbols %v, want DB, Open, DB.Save (types, then functions, then methods)", q, got)
		}
		// who uses the file
		if !hasEdge(s, "main", "Open", "call") || !hasEdge(s, "Store.Add", "DB.Save", "call") {
			t.Errorf("%s: dependencies %+v lack the callers from other files", q, s.Dependencies)
		}
		if len(s.Files) != 1 || s.Files[0] != (query.FileTouched{Path: "store/db.go", KeySymbols: 3, Symbols: 3}) {
			t.Errorf("%s: files %+v", q, s.Files)
		}
		if r := riskOf(s, "Open"); r == nil || !containsText(r.Reasons, "reads environment variables") {
			t.Errorf("%s: risk of Open %+v", q, r)
		}
	}
	// a directory: the main symbols of its files
	s := summarize(t, x, query.SummaryRequest{Query: "store/"}).Summary
	inFiles := map[string]bool{}
	for _, k := range s.KeySymbols {
		if !strings.HasPrefix(k.File, "store/") {
			t.Errorf("store/: key symbol %s in %s", k.Name, k.File)
		}
		inFiles[k.File] = true
	}
	if len(inFiles) < 3 {
		t.Errorf("store/: key symbols from %v, want the files of the directory", inFiles)
	}
	// the scope forced on a bare name
	s = summarize(t, x, query.SummaryRequest{Query: "store", Scope: query.ScopeFile}).Summary
	if len(s.KeySymbols) == 0 || !strings.HasPrefix(s.KeySymbols[0].File, "store/") {
		t.Errorf("store as a file scope: %+v", s.KeySymbols)
	}
	// other words rank the file's symbols
	s = summarize(t, x, query.SummaryRequest{Query: "store/store.go value totals"}).Summary
	if len(s.KeySymbols) == 0 || s.KeySymbols[0].Name != "Store.Value" {
		t.Errorf("store/store.go value totals: %+v, want Store.Value first", s.KeySymbols)
	}
	// an absolute path inside the repository
	abs := filepath.Join(x.Root, "store", "db.go")
	s = summarize(t, x, query.SummaryRequest{Query: abs}).Summary
	if len(s.KeySymbols) != 3 {
		t.Errorf("%s: %+v", abs, s.KeySymbols)
	}
	// no such file: search, said so
	s = summarize(t, x, query.SummaryRequest{Query: "nowhere/items.go"}).Summary
	if !containsText(s.Notes, "no indexed file or directory matches; showing the best search matches") {
		t.Errorf("nowhere/items.go: notes %v", s.Notes)
	}
	// a sentence that only looks like a path is ranked as a task
	s = summarize(t, x, query.SummaryRequest{Query: "save items as JSON/text to disk"}).Summary
	if _, ok := keyNames(s)["DB.Save"]; s.Scope != query.ScopeFile || !containsText(s.Notes, "answered as a task") || !ok {
		t.Errorf("save items as JSON/text to disk: scope %s, notes %v, key symbols %v", s.Scope, s.Notes, keyNames(s))
	}
}

func TestSummaryTaskScope(t *testing.T) {
	x := fixture(t, "go")
	s := summarize(t, x, query.SummaryRequest{Query: "add an item to the store and save it to disk"}).Summary
	if s.Scope != query.ScopeTask {
		t.Fatalf("scope %s", s.Scope)
	}
	names := keyNames(s)
	for _, want := range []string{"Store.Add", "DB.Save"} {
		if _, ok := names[want]; !ok {
			t.Errorf("key symbols %v lack %s", names, want)
		}
	}
	if !hasEdge(s, "Store.Add", "DB.Save", "call") {
		t.Errorf("dependencies %+v lack Store.Add -> DB.Save", s.Dependencies)
	}
	if riskOf(s, "DB.Save") == nil {
		t.Errorf("risk areas %+v lack DB.Save", s.RiskAreas)
	}
}

func TestSummaryOtherLanguages(t *testing.T) {
	py := fixture(t, "python")
	s := summarize(t, py, query.SummaryRequest{Query: "Order.add"}).Summary
	names := keyNames(s)
	if len(s.KeySymbols) == 0 || s.KeySymbols[0].Name != "Order.add" || names["Order"] != "container" || names["Order.from_dict"] != "caller" {
		t.Errorf("python Order.add: %v", names)
	}
	if r := riskOf(s, "Order.add"); r == nil || !containsText(r.Reasons, "assert item.qty > 0") {
		t.Errorf("python Order.add risk %+v", r)
	}
	s = summarize(t, py, query.SummaryRequest{Query: "src/shop/store.py"}).Summary
	if len(s.KeySymbols) == 0 || s.KeySymbols[0].Name != "Store" {
		t.Errorf("python store.py: %+v", s.KeySymbols)
	}

	ts := fixture(t, "typescript")
	s = summarize(t, ts, query.SummaryRequest{Query: "upload items to the server"}).Summary
	if len(s.KeySymbols) == 0 || s.KeySymbols[0].Name != "upload" {
		t.Errorf("typescript task: %+v", s.KeySymbols)
	}
	if r := riskOf(s, "upload"); r == nil || !containsText(r.Reasons, "network access (fetch)") {
		t.Errorf("typescript upload risk %+v", r)
	}
	s = summarize(t, ts, query.SummaryRequest{Query: "MemoryRepository"}).Summary
	names = keyNames(s)
	if names["MemoryRepository.save"] != "member" || names["Repository"] != "supertype" {
		t.Errorf("typescript MemoryRepository: %v", names)
	}
	if !hasEdge(s, "MemoryRepository", "Repository", "implements") {
		t.Errorf("typescript MemoryRepository: dependencies %+v", s.Dependencies)
	}
}

func TestSummaryFormats(t *testing.T) {
	x := fixture(t, "go")
	md := summarize(t, x, query.SummaryRequest{Query: "Store.Add"})
	clip := summarize(t, x, query.SummaryRequest{Query: "Store.Add", Format: query.FormatClipboard})
	js := summarize(t, x, query.SummaryRequest{Query: "Store.Add", Format: query.FormatJSON})
	if clip.Format != query.FormatClipboard || js.Format != query.FormatJSON {
		t.Errorf("formats %s, %s", clip.Format, js.Format)
	}
	// the same data in every format
	if !reflect.DeepEqual(md.Summary.KeySymbols, clip.Summary.KeySymbols) || !reflect.DeepEqual(md.Summary.RiskAreas, js.Summary.RiskAreas) {
		t.Errorf("formats disagree on the data")
	}
	// clipboard: plain text, no markdown syntax
	for _, bad := range []string{"#", "`", "**", "_Cut", "\n- "} {
		if strings.Contains(clip.Content, bad) {
			t.Errorf("clipboard content holds markdown %q:\n%s", bad, clip.Content)
		}
	}
	for _, want := range []string{"Context summary: Store.Add\n", "KEY SYMBOLS\n", "DEPENDENCY GRAPH\n", "RISK AREAS\n", "FILES TOUCHED\n",
		"  Store.Add -> DB.Save (call)\n", "      func (s *Store) Add(item *Item) error\n"} {
		if !strings.Contains(clip.Content, want) {
			t.Errorf("clipboard content lacks %q:\n%s", want, clip.Content)
		}
	}
	// json: the structured summary itself
	for _, budget := range []int{200, 400, 2000} {
		js := summarize(t, x, query.SummaryRequest{Query: "Store.Add", Format: query.FormatJSON, Budget: budget})
		var got query.ContextSummary
		if err := json.Unmarshal([]byte(js.Content), &got); err != nil {
			t.Fatalf("json content does not parse: %v\n%s", err, js.Content)
		}
		if !reflect.DeepEqual(&got, js.Summary) {
			t.Errorf("budget %d: json content %+v\nstructured summary %+v", budget, got, *js.Summary)
		}
		if got.EstimatedTokens != query.Tokens(js.Content) {
			t.Errorf("budget %d: estimatedTokens %d, content has %d", budget, got.EstimatedTokens, query.Tokens(js.Content))
		}
		if budget == 200 && (!got.Truncated || got.Omitted == nil) {
			t.Errorf("budget 200: not truncated: %s", js.Content)
		}
	}
}

func TestSummaryCutsInPriorityOrder(t *testing.T) {
	x := fixture(t, "go")
	full := summarize(t, x, query.SummaryRequest{Query: "Store.Add", Budget: 5000}).Summary
	small := summarize(t, x, query.SummaryRequest{Query: "Store.Add", Budget: 300})
	s := small.Summary
	if !s.Truncated || s.Omitted == nil {
		t.Fatalf("a 300-token summary of Store.Add was not cut:\n%s", small.Content)
	}
	// what is kept is a prefix of each section
	if !reflect.DeepEqual(s.KeySymbols, full.KeySymbols[:len(s.KeySymbols)]) ||
		!reflect.DeepEqual(s.Dependencies, full.Dependencies[:len(s.Dependencies)]) {
		t.Errorf("the cut summary is not a prefix of the full one")
	}
	if len(s.KeySymbols)+s.Omitted.KeySymbols != len(full.KeySymbols) || len(s.RiskAreas)+s.Omitted.RiskAreas != len(full.RiskAreas) {
		t.Errorf("omitted counts %+v do not add up", *s.Omitted)
	}
	// the key symbols come first
	if len(s.KeySymbols) == 0 || s.KeySymbols[0].Name != "Store.Add" {
		t.Errorf("the target was cut: %+v", s.KeySymbols)
	}
	if !strings.HasSuffix(small.Content, "(raise the budget to see them)._\n") || !strings.Contains(small.Content, "_Cut to fit 300 tokens, left out: ") {
		t.Errorf("no final line says what was cut:\n%s", small.Content)
	}
}

// selfIndex indexes this repository's own source: big enough that every
// budget cuts something.
func selfIndex(t testing.TB) *query.Index {
	t.Helper()
	root, _ := filepath.Abs("..")
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := index.Run(context.Background(), index.Options{Root: root, DB: db, NoGit: true, Workers: 4,
		Now: time.Unix(1700000000, 0), SDLVersion: "test"}); err != nil {
		t.Fatalf("index %s: %v", root, err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// TestSummaryBudget: whatever the query, scope, format and budget, the
// content never exceeds the budget, and what it shows is what the
// structured summary holds.
func TestSummaryBudget(t *testing.T) {
	self := selfIndex(t)
	goFx := fixture(t, "go")
	queries := []struct {
		x *query.Index
		q string
	}{
		{self, "BuildSlice"},
		{self, "Index"},
		{self, "query/slice.go"},
		{self, "query"},
		{self, "rank symbols of a slice by text and graph around the seeds within a token budget"},
		{self, "why are stale files reported"},
		{goFx, "Store.Add"},
		{goFx, "store/"},
	}
	budgets := []int{200, 237, 300, 450, 700, 1000, 1600, 2500, 3600, 5000}
	if testing.Short() {
		budgets = []int{200, 700, 2500}
	}
	cut := map[int]bool{}
	for _, c := range queries {
		prevKeys := -1
		for _, b := range budgets {
			for _, f := range []string{query.FormatMarkdown, query.FormatClipboard, query.FormatJSON} {
				resp := summarize(t, c.x, query.SummaryRequest{Query: c.q, Budget: b, Format: f})
				n := query.Tokens(resp.Content)
				if n > b {
					t.Errorf("%q at %d (%s): %d tokens", c.q, b, f, n)
				}
				s := resp.Summary
				if s.EstimatedTokens != n {
					t.Errorf("%q at %d (%s): estimatedTokens %d, content %d", c.q, b, f, s.EstimatedTokens, n)
				}
				if s.Truncated {
					cut[b] = true
				}
				if f == query.FormatJSON {
					continue
				}
				for _, k := range s.KeySymbols {
					if !strings.Contains(resp.Content, k.Name+"` ") && !strings.Contains(resp.Content, k.Name+" (") {
						t.Errorf("%q at %d (%s): key symbol %s not in the content", c.q, b, f, k.Name)
					}
				}
				for _, d := range s.Dependencies {
					if !strings.Contains(resp.Content, d.From+" -> "+d.To) {
						t.Errorf("%q at %d (%s): edge %s -> %s not in the content", c.q, b, f, d.From, d.To)
					}
				}
				if s.Truncated != strings.Contains(resp.Content, "Cut to fit") {
					t.Errorf("%q at %d (%s): truncated %v, content says otherwise", c.q, b, f, s.Truncated)
				}
				if f == query.FormatMarkdown {
					// a larger budget never shows fewer key symbols
					if len(s.KeySymbols) < prevKeys {
						t.Errorf("%q at %d: %d key symbols, fewer than at a smaller budget (%d)", c.q, b, len(s.KeySymbols), prevKeys)
					}
					prevKeys = len(s.KeySymbols)
				}
			}
		}
	}
	// the test means something only if budgets did cut
	if !cut[200] || !cut[700] {
		t.Errorf("no summary was cut at 200 or 700 tokens: the budget was never tested")
	}
}

func TestSummaryInvalid(t *testing.T) {
	x := fixture(t, "go")
	for _, c := range []struct {
		req   query.SummaryRequest
		field string
	}{
		{query.SummaryRequest{}, "query"},
		{query.SummaryRequest{Query: " \t\n"}, "query"},
		{query.SummaryRequest{Query: "\x00\x01"}, "query"},
		{query.SummaryRequest{Query: strings.Repeat("a", 1001)}, "query"},
		{query.SummaryRequest{Query: strings.Repeat("é", 1001)}, "query"},
		{query.SummaryRequest{Query: "Store", Budget: 199}, "budget"},
		{query.SummaryRequest{Query: "Store", Budget: 20001}, "budget"},
		{query.SummaryRequest{Query: "Store", Budget: -1}, "budget"},
		{query.SummaryRequest{Query: "Store", Format: "html"}, "format"},
		{query.SummaryRequest{Query: "Store", Scope: "module"}, "scope"},
	} {
		_, err := x.Summarize(context.Background(), c.req)
		if !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), c.field+":") {
			t.Errorf("%+v: error %v, want ErrInvalid naming %s", c.req, err, c.field)
		}
	}
	// the limits themselves are fine
	for _, req := range []query.SummaryRequest{
		{Query: strings.Repeat("é", 1000)},
		{Query: "Store", Budget: 200},
		{Query: "Store", Budget: 20000},
	} {
		if _, err := x.Summarize(context.Background(), req); err != nil {
			t.Errorf("query of %d characters, budget %d: %v", len([]rune(req.Query)), req.Budget, err)
		}
	}
}

func TestSummaryCache(t *testing.T) {
	// a copy of the go fixture, to change it
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", "go"))
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "index.db")
	opts := index.Options{Root: root, DB: db, NoGit: true, Workers: 2, Now: time.Unix(1700000000, 0), SDLVersion: "test"}
	if _, err := index.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	req := query.SummaryRequest{Query: "DB.Save", Budget: 800}
	first := summarize(t, x, req)
	second := summarize(t, x, req)
	if first.Cached || !second.Cached {
		t.Fatalf("cached: first %v, second %v; want a miss then a hit", first.Cached, second.Cached)
	}
	if second.Content != first.Content || !reflect.DeepEqual(second.Summary, first.Summary) {
		t.Errorf("a cache hit differs from the answer")
	}
	// a caller changing its answer does not change the cached one
	second.Summary.KeySymbols[0].Name = "changed"
	second.Summary.RiskAreas[0].Reasons[0] = "changed"
	if third := summarize(t, x, req); third.Summary.KeySymbols[0].Name != "DB.Save" || third.Summary.RiskAreas[0].Reasons[0] == "changed" {
		t.Errorf("the cached summary was changed through an answer")
	}
	// the auto-detected scope and the same scope given share an entry
	if r := summarize(t, x, query.SummaryRequest{Query: "DB.Save", Budget: 800, Scope: query.ScopeSymbol}); !r.Cached {
		t.Errorf("scope symbol given: a miss")
	}
	// another budget or format is another answer
	if r := summarize(t, x, query.SummaryRequest{Query: "DB.Save", Budget: 801}); r.Cached {
		t.Errorf("another budget: a hit")
	}
	if r := summarize(t, x, query.SummaryRequest{Query: "DB.Save", Budget: 800, Format: query.FormatJSON}); r.Cached {
		t.Errorf("another format: a hit")
	}

	// a file changed on disk: still the cached answer (same version), but
	// the file is reported stale
	path := filepath.Join(root, "store", "db.go")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := string(data) + "\n// Flush writes nothing yet.\nfunc (d *DB) Flush() error { return d.Save(nil) }\n"
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	r := summarize(t, x, req)
	if !r.Cached || !reflect.DeepEqual(r.StaleFiles, []string{"store/db.go"}) {
		t.Errorf("after an edit: cached %v, stale %v; want a hit reporting store/db.go stale", r.Cached, r.StaleFiles)
	}
	// a new version misses and sees the change
	if _, err := index.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	r = summarize(t, x, req)
	if r.Cached || r.LedgerVersion != "v2" || len(r.StaleFiles) != 0 {
		t.Errorf("after indexing: cached %v, version %s, stale %v", r.Cached, r.LedgerVersion, r.StaleFiles)
	}
	if keyNames(r.Summary)["DB.Flush"] != "caller" {
		t.Errorf("the new version's caller DB.Flush is missing: %v", keyNames(r.Summary))
	}
}

func TestSummaryConcurrent(t *testing.T) {
	x := fixture(t, "go")
	queries := []string{"Store.Add", "store/db.go", "add an item and save it", "Item", "DB.Save"}
	want := map[string]string{}
	for _, q := range queries {
		want[q] = summarize(t, x, query.SummaryRequest{Query: q, Budget: 600}).Content
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				q := queries[(g+i)%len(queries)]
				// budgets past the cache size make it evict as it goes
				budget := 600 + (i%4)*(g+1)
				resp, err := x.Summarize(context.Background(), query.SummaryRequest{Query: q, Budget: budget})
				if err != nil {
					t.Error(err)
					return
				}
				if budget == 600 && resp.Content != want[q] {
					t.Errorf("%s: concurrent answer differs", q)
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzSummaryQuery: any text gives a valid scope, errors only as invalid
// arguments, and never exceeds the budget.
func FuzzSummaryQuery(f *testing.F) {
	x := fixture(f, "go")
	for _, q := range []string{"Store.Add", "store/db.go", "fix the save", "", " ", "\x00\xff", "a/b/c/../../..",
		"Store.Add()()", "((*", "::", "#", "`", "é" + strings.Repeat("ü", 999), strings.Repeat("word ", 300),
		"%_\\", "store/ db.go x.go y.py z.ts w.rs", "SELECT * FROM symbols; --", "\"Store\" OR name:*"} {
		f.Add(q, uint16(0), uint8(0))
		f.Add(q, uint16(4800), uint8(2))
	}
	scopes := []string{"", query.ScopeSymbol, query.ScopeFile, query.ScopeTask}
	formats := []string{query.FormatMarkdown, query.FormatJSON, query.FormatClipboard}
	f.Fuzz(func(t *testing.T, q string, budget uint16, mode uint8) {
		switch query.DetectScope(q) {
		case query.ScopeSymbol, query.ScopeFile, query.ScopeTask:
		default:
			t.Fatalf("DetectScope(%q) = %q", q, query.DetectScope(q))
		}
		b := query.MinSummaryBudget + int(budget)%(5000-query.MinSummaryBudget+1)
		req := query.SummaryRequest{Query: q, Budget: b, Scope: scopes[int(mode)%4], Format: formats[int(mode/4)%3]}
		resp, err := x.Summarize(context.Background(), req)
		if err != nil {
			if !errors.Is(err, query.ErrInvalid) {
				t.Fatalf("%+v: %v", req, err)
			}
			return
		}
		if n := query.Tokens(resp.Content); n > b {
			t.Fatalf("%+v: %d tokens", req, n)
		}
		switch resp.Summary.Scope {
		case query.ScopeSymbol, query.ScopeFile, query.ScopeTask:
		default:
			t.Fatalf("%+v: scope %q", req, resp.Summary.Scope)
		}
		if req.Scope != "" && resp.Summary.Scope != req.Scope {
			t.Fatalf("%+v: scope %q", req, resp.Summary.Scope)
		}
	})
}

// TestSummaryWholeAnswerWithinBudget: the promise covers the whole answer
// an agent receives, not only its content.
func TestSummaryWholeAnswerWithinBudget(t *testing.T) {
	x := fixture(t, "go")
	for _, q := range []string{"Store.Add", "store/db.go", "add an item to the store and save it"} {
		for _, budget := range []int{200, 300, 500, 1000, 3000} {
			for _, format := range []string{query.FormatMarkdown, query.FormatJSON, query.FormatClipboard} {
				resp := summarize(t, x, query.SummaryRequest{Query: q, Budget: budget, Format: format})
				if n := query.Tokens(string(query.EncodeJSON(resp))); n > budget {
					t.Errorf("%q %s budget %d: answer of %d tokens", q, format, budget, n)
				}
			}
		}
	}
}
