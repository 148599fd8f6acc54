package query_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// fixture indexes testdata/repos/<name> and opens the index for reading.
func fixture(t testing.TB, name string) *query.Index {
	t.Helper()
	root, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", name))
	db := filepath.Join(t.TempDir(), "index.db")
	opts := index.Options{Root: root, DB: db, NoGit: true, Workers: 2, Now: time.Unix(1700000000, 0), SDLVersion: "test"}
	if _, err := exec.LookPath("go"); err == nil {
		opts.GoPrecise = index.PreciseOn // the Go goldens hold the type checker's edges
	}
	_, err := index.Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("index %s: %v", name, err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func TestSearchRanksByText(t *testing.T) {
	x := fixture(t, "go")
	resp, err := x.Search(context.Background(), query.SearchRequest{Query: "persist items as json in one file", IncludeRetrievalEvidence: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || resp.Results[0].Name != "DB" {
		t.Fatalf("first result %+v, want DB", resp.Results)
	}
	if resp.RetrievalEvidence.CandidateCount["fts"] == 0 {
		t.Errorf("the full-text lane found nothing")
	}
	// the full-text lane must rank: a symbol matching more terms first
	for i := 1; i < len(resp.Results); i++ {
		if resp.Results[i].Score > resp.Results[i-1].Score {
			t.Errorf("results out of order at %d", i)
		}
	}
}

func TestSearchExact(t *testing.T) {
	x := fixture(t, "go")
	for q, want := range map[string]string{"Store.Add": "Add", "NewStore": "NewStore", "newstore": "NewStore"} {
		resp, err := x.Search(context.Background(), query.SearchRequest{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) == 0 || resp.Results[0].Name != want {
			t.Errorf("search %q: got %+v, want %s first", q, resp.Results, want)
		}
	}
}

// TestSearchTypeBeforeConstructor: the bare name of a Java class asks
// for the class; its two constructors, named like it, come after it.
func TestSearchTypeBeforeConstructor(t *testing.T) {
	x := fixture(t, "java")
	resp, err := x.Search(context.Background(), query.SearchRequest{Query: "Store", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || resp.Results[0].Kind != "class" || resp.Results[0].Name != "Store" {
		t.Fatalf("first result %+v, want the class Store", resp.Results)
	}
	ctors := 0
	for _, r := range resp.Results {
		if r.Kind == "constructor" && r.Name == "Store" {
			ctors++
		}
	}
	if ctors != 2 {
		t.Errorf("%d constructors of Store among %+v, want both", ctors, resp.Results)
	}
}

// TestSearchModules: modules are left out of a search unless asked for by
// kind; then they are found by name and by the path of their file.
func TestSearchModules(t *testing.T) {
	x := fixture(t, "go")
	ctx := context.Background()
	for _, q := range []string{"store", "db"} {
		resp, err := x.Search(ctx, query.SearchRequest{Query: q, Kinds: []string{"module"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) == 0 {
			t.Errorf("kinds [module] %q: no result", q)
		}
		for _, r := range resp.Results {
			if r.Kind != "module" {
				t.Errorf("kinds [module] %q: a %s came back: %+v", q, r.Kind, r)
			}
		}
	}
	resp, err := x.Search(ctx, query.SearchRequest{Query: "db", Kinds: []string{"module"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || resp.Results[0].File != "store/db.go" {
		t.Errorf("the module of store/db.go for \"db\": %+v", resp.Results)
	}
	resp, err = x.Search(ctx, query.SearchRequest{Query: "store"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resp.Results {
		if r.Kind == "module" {
			t.Errorf("a module without asking: %+v", r)
		}
	}
}

// TestSearchDeclaredModules: a module the code declares (Ruby's module
// Shop::Priced) is found by its name like a class, while the file's own
// module (priced.rb's) stays out unless asked for by kind.
func TestSearchDeclaredModules(t *testing.T) {
	x := fixture(t, "ruby")
	resp, err := x.Search(context.Background(), query.SearchRequest{Query: "Priced"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || resp.Results[0].Kind != "module" || resp.Results[0].Qualified != "Shop.Priced" {
		t.Fatalf("search Priced: got %+v, want the module Shop.Priced first", resp.Results)
	}
	for _, r := range resp.Results {
		if r.Kind == "module" && r.Qualified != "Shop.Priced" {
			t.Errorf("a file's module without asking: %+v", r)
		}
	}
}
