package query_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// rankBudgets are the budgets the ranking guard checks: the default, and a
// small one, where the best cards must survive the cut (a small budget keeps
// the best cards, not the first found).
var rankBudgets = []int{4000, 1000}

// rankCase is one "rank:" line of a ranking fixture: a task whose text does
// not name the symbol that has to change, that symbol, and the slice
// position it must reach.
type rankCase struct {
	task string
	want string // name, or container.name
	top  int
}

// TestRankingGuard indexes each fixture repository of testdata/ranking and
// checks that the symbol a task has to change comes within its rank in the
// slice, at every budget of rankBudgets. It guards the ranking: a change that
// loses one of these fails here (ranks only, no timing). The figures on real
// repositories are make eval's (docs/retrieval.md).
func TestRankingGuard(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "ranking", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no ranking fixtures")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cases, err := parseRankCases(string(ar.Comment))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			x := txtarIndex(t, ar)
			for _, c := range cases {
				for _, budget := range rankBudgets {
					resp, err := x.BuildSlice(context.Background(), query.SliceRequest{TaskText: c.task,
						Budget: &query.SliceBudget{MaxEstimatedTokens: budget}})
					if err != nil {
						t.Fatalf("%q: %v", c.task, err)
					}
					var got []string
					rank := 0
					for i, card := range resp.Slice.Cards {
						got = append(got, cardLabel(card))
						if rank == 0 && (card.Name == c.want || cardLabel(card) == c.want) {
							rank = i + 1
						}
					}
					t.Logf("budget %d, %s: rank %d", budget, c.want, rank)
					if rank == 0 || rank > c.top {
						t.Errorf("budget %d, %q: %s at rank %d, want <= %d; slice starts %v",
							budget, c.task, c.want, rank, c.top, got[:min(len(got), 6)])
					}
				}
			}
		})
	}
}

func cardLabel(c *query.Card) string {
	if c.Container == "" {
		return c.Name
	}
	return c.Container + "." + c.Name
}

// parseRankCases reads "rank: TASK | SYMBOL | TOP" lines. In TASK, \n and
// \t stand for a newline and a tab, so that a task can hold a stack trace.
func parseRankCases(comment string) ([]rankCase, error) {
	var out []rankCase
	for n, line := range strings.Split(comment, "\n") {
		rest, ok := strings.CutPrefix(line, "rank:")
		if !ok {
			continue
		}
		f := strings.Split(rest, "|")
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: want \"rank: TASK | SYMBOL | TOP\", got %q", n+1, line)
		}
		top, err := strconv.Atoi(strings.TrimSpace(f[2]))
		if err != nil || top < 1 {
			return nil, fmt.Errorf("line %d: rank %q is not a positive number", n+1, f[2])
		}
		task := strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(strings.TrimSpace(f[0]))
		out = append(out, rankCase{task: task, want: strings.TrimSpace(f[1]), top: top})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no rank: lines")
	}
	return out, nil
}

// txtarIndex writes the archive's files to a temporary repository and
// indexes it.
func txtarIndex(t *testing.T, ar *txtar.Archive) *query.Index {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	for _, f := range ar.Files {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := index.Run(context.Background(), index.Options{Root: root, DB: db, NoGit: true, Workers: 2,
		Now: time.Unix(1700000000, 0), SDLVersion: "test"}); err != nil {
		t.Fatalf("index: %v", err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}
