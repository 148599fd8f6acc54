package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// TestWireFormat: the compact slice of each version holds the cards, edges
// and files of the standard one in fewer tokens. With SDL_WIRE_ROOT (an
// indexed repository) and SDL_WIRE_TASKS (an eval tasks.jsonl, filtered by
// SDL_WIRE_REPO) it measures the same on those tasks; the figures are
// logged (go test -v).
func TestWireFormat(t *testing.T) {
	type task struct{ root, db, text string }
	var tasks []task
	for repo, texts := range map[string][]string{
		"go":   {"save the items of the store to disk", "add an item to the store"},
		"java": {"order items total price shop"},
	} {
		root, db := repoCopy(t, repo)
		for _, s := range texts {
			tasks = append(tasks, task{root, db, s})
		}
	}
	if root := os.Getenv("SDL_WIRE_ROOT"); root != "" {
		f, err := os.Open(os.Getenv("SDL_WIRE_TASKS"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			var tk struct{ Repo, Task string }
			json.Unmarshal(sc.Bytes(), &tk)
			if tk.Repo == os.Getenv("SDL_WIRE_REPO") {
				tasks = append(tasks, task{root, filepath.Join(root, ".sdl", "index.db"), strings.SplitN(tk.Task, "\n", 2)[0]})
			}
		}
		f.Close()
	}
	servers := map[string]*serve.Server{}
	total := map[string]int{}
	for _, tk := range tasks {
		srv := servers[tk.root]
		if srv == nil {
			repos, err := serve.NewRepos(serve.NewRepo("r", tk.root, tk.db))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(repos.Close)
			srv = serve.New(serve.NewRegistry(), repos, serve.Options{Version: "test"})
			servers[tk.root] = srv
		}
		args := func(extra string) []byte {
			q, _ := json.Marshal(tk.text)
			return []byte(`{"taskText": ` + string(q) + extra + `}`)
		}
		std, err := srv.Call(context.Background(), "sdl.slice.build", args(""))
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			SliceHandle string `json:"sliceHandle"`
			Slice       struct {
				Cards []struct {
					SymbolID string `json:"symbolId"`
					File     string `json:"file"`
				} `json:"cards"`
				Edges []json.RawMessage `json:"edges"`
			} `json:"slice"`
		}
		json.Unmarshal(std, &s)
		nStd := query.Tokens(string(std))
		total["standard"] += nStd
		line := fmt.Sprintf("%q: standard %d tokens", tk.text, nStd)
		for v := 1; v <= 3; v++ {
			out, err := srv.Call(context.Background(), "sdl.slice.build", args(fmt.Sprintf(`, "wireFormat": "compact", "wireFormatVersion": %d`, v)))
			if err != nil {
				t.Fatal(err)
			}
			n := query.Tokens(string(out))
			total[fmt.Sprintf("compact v%d", v)] += n
			line += fmt.Sprintf(", v%d %d (%.0f%%)", v, n, 100*float64(n)/float64(nStd))
			var c struct {
				WireFormat string `json:"wireFormat"`
				Slice      struct {
					Cards []struct {
						ID string `json:"id"`
						F  any    `json:"f"`
					} `json:"cards"`
					Files     []string                     `json:"files"`
					Edges     json.RawMessage              `json:"edges"`
					WeakEdges map[string][]json.RawMessage `json:"weakEdges"`
				} `json:"slice"`
			}
			if err := json.Unmarshal(out, &c); err != nil {
				t.Fatal(err)
			}
			if len(s.Slice.Cards) < 2 {
				continue // too small to gain: it may go as it is
			}
			if c.WireFormat != "compact" || n >= nStd {
				t.Errorf("%q v%d: %d tokens against %d standard (%s)", tk.text, v, n, nStd, c.WireFormat)
				continue
			}
			// the same cards, files and edges
			if len(c.Slice.Cards) != len(s.Slice.Cards) {
				t.Errorf("%q v%d: %d cards, standard %d", tk.text, v, len(c.Slice.Cards), len(s.Slice.Cards))
				continue
			}
			for i, card := range c.Slice.Cards {
				file := fmt.Sprint(card.F)
				if v >= 2 {
					file = c.Slice.Files[int(card.F.(float64))]
				}
				if card.ID != s.Slice.Cards[i].SymbolID || file != s.Slice.Cards[i].File {
					t.Errorf("%q v%d: card %d is %s in %s, standard %s in %s", tk.text, v, i, card.ID, file, s.Slice.Cards[i].SymbolID, s.Slice.Cards[i].File)
				}
			}
			edges := 0
			if v < 3 {
				var l []json.RawMessage
				json.Unmarshal(c.Slice.Edges, &l)
				edges = len(l)
			} else {
				var g map[string][][]int
				json.Unmarshal(c.Slice.Edges, &g)
				for _, lists := range g {
					for _, l := range lists {
						edges += len(l) - 1
					}
				}
				for _, l := range c.Slice.WeakEdges {
					edges += len(l)
				}
			}
			if edges != len(s.Slice.Edges) {
				t.Errorf("%q v%d: %d edges, standard %d", tk.text, v, edges, len(s.Slice.Edges))
			}
		}
		t.Log(line)
	}
	t.Logf("%d slices: %v", len(tasks), total)
}
