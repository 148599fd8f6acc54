package query_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/query"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenQueries are, per fixture, searches, cards and slice tasks whose
// answers are kept in testdata/golden/query.
var goldenQueries = map[string]struct {
	searches []string
	cards    []string
	slices   []string
}{
	"go":         {[]string{"NewStore", "Store.Add", "save items to disk", "Get"}, []string{"Store.Add", "DB.Save", "Item"}, []string{"the store refuses items when it is full"}},
	"python":     {[]string{"Store", "restock", "load items json"}, []string{"Store"}, []string{"restock the inventory when stock is low"}},
	"typescript": {[]string{"formatPrice", "fetch catalog"}, nil, []string{"format a price with the currency"}},
	"javascript": {[]string{"EventEmitter", "parse config"}, nil, []string{"emit an event when the cart changes"}},
	"rust":       {[]string{"Store", "shelf full"}, nil, []string{"store rejects an item when the shelf is full"}},
	"java":       {[]string{"Order", "apply discount"}, nil, []string{"apply a discount to the order total"}},
}

// TestGoldenQueries compares search rankings, cards and slices on the
// fixture repositories with their golden listings.
func TestGoldenQueries(t *testing.T) {
	ctx := context.Background()
	for repo, q := range goldenQueries {
		t.Run(repo, func(t *testing.T) {
			x := fixture(t, repo)
			var b bytes.Buffer
			for _, s := range q.searches {
				resp, err := x.Search(ctx, query.SearchRequest{Query: s, Limit: 5})
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "search %q lanes=%s\n", s, strings.Join(resp.Lanes, "+"))
				for i, r := range resp.Results {
					fmt.Fprintf(&b, "  %d %s %s %s:%d %v\n", i+1, r.Kind, nameOf(r.Name, r.Qualified), r.File, r.Range.StartLine, r.Lanes)
				}
			}
			for _, name := range q.cards {
				res, err := x.Card(ctx, query.CardRequest{SymbolRef: &query.SymbolRef{Name: name}})
				if err != nil {
					t.Fatalf("card %s: %v", name, err)
				}
				c := res.(*query.Card)
				fmt.Fprintf(&b, "card %s\n", name)
				c.Etag, c.Version = "", nil
				writeIndented(&b, c)
			}
			for _, task := range q.slices {
				resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: task, Budget: &query.SliceBudget{MaxCards: 12, MaxEstimatedTokens: 1500}})
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "slice %q: %d cards, %d edges, %d frontier, truncated=%v\n", task, len(resp.Slice.Cards),
					len(resp.Slice.Edges), len(resp.Slice.Frontier), resp.Slice.Truncation != nil)
				in := map[string]bool{}
				for i, c := range resp.Slice.Cards {
					in[c.SymbolID] = true
					fmt.Fprintf(&b, "  %d %s %s %s:%d-%d %s\n", i+1, c.Kind, nameOf(c.Name, joinName(c.Container, c.Name)), c.File,
						c.Range.StartLine, c.Range.EndLine, c.Detail)
				}
				for _, f := range resp.Slice.Frontier {
					if in[f.SymbolID] {
						t.Errorf("frontier %s is also a card", f.Name)
					}
					if f.Why == "" {
						t.Errorf("frontier %s has no why", f.Name)
					}
					fmt.Fprintf(&b, "  frontier %s %s:%d (%s)\n", f.Name, f.File, f.Line, f.Why)
				}
			}
			golden := filepath.Join("..", "testdata", "golden", "query", repo+".txt")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./query -run TestGoldenQueries -update)", err)
			}
			if !bytes.Equal(want, b.Bytes()) {
				t.Errorf("%s differs from %s:\n%s", repo, golden, diffLines(string(want), b.String()))
			}
		})
	}
}

func nameOf(name, qualified string) string {
	if qualified != "" {
		return qualified
	}
	return name
}

func joinName(container, name string) string {
	if container == "" {
		return name
	}
	return container + "." + name
}

func writeIndented(b *bytes.Buffer, v any) {
	js, _ := jsonIndent(v)
	for _, l := range strings.Split(strings.TrimRight(js, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
}

func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			out = append(out, fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, a, c))
		}
		if len(out) == 10 {
			break
		}
	}
	return strings.Join(out, "\n")
}

func jsonIndent(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return b.String(), err
}
