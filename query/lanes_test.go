package query_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/txtar"

	"github.com/sdl-dev/sdl/query"
)

func TestErrorMessages(t *testing.T) {
	for name, c := range map[string]struct {
		text          string
		msgs, classes []string
		firstPhrase   string
	}{
		"python": {"Loading fails:\n```\nE   TypeError: File must be opened in binary mode, e.g. use `open('foo.toml', 'rb')`\n```\n",
			[]string{"File must be opened in binary mode, e.g. use"}, []string{"TypeError"}, "file must"},
		"short message": {"raises ValueError: unknown region 'at'", []string{"unknown region 'at'"}, []string{"ValueError"}, "unknown region"},
		"java": {"Exception in thread \"main\" com.shop.OutOfStockException: no shelf holds sku 42\n",
			[]string{"no shelf holds sku 42"}, []string{"OutOfStockException"}, "no shelf"},
		"go panic":    {"panic: store: shelf index out of range\n\ngoroutine 1 [running]:", []string{"store: shelf index out of range"}, nil, "store shelf"},
		"quoted":      {`the log says "could not connect to the broker" twice`, []string{"could not connect to the broker"}, nil, "not connect"},
		"apostrophes": {"it doesn't work and it isn't clear why", nil, nil, ""},
		"none":        {"Make the cache bigger", nil, nil, ""},
	} {
		msgs, classes, phrases := query.ErrorMessagesForTest(c.text)
		if !slices.Equal(msgs, c.msgs) || !slices.Equal(classes, c.classes) {
			t.Errorf("%s: messages %q classes %q, want %q %q", name, msgs, classes, c.msgs, c.classes)
			continue
		}
		if c.firstPhrase != "" && (len(phrases) == 0 || len(phrases[0]) == 0 || phrases[0][0] != c.firstPhrase) {
			t.Errorf("%s: phrases %q, want %q first", name, phrases, c.firstPhrase)
		}
	}
}

// FuzzErrorMessages: any text gives a bounded number of messages, and
// phrases of letters, digits and single spaces only, since each becomes an
// FTS5 phrase query.
func FuzzErrorMessages(f *testing.F) {
	f.Add("E   TypeError: File must be opened in binary mode")
	f.Add(`panic: x y z` + "\n" + `"quoted words here"`)
	f.Add("'a b c' FooError(\"d e f\")")
	f.Fuzz(func(t *testing.T, s string) {
		msgs, classes, phrases := query.ErrorMessagesForTest(s)
		if len(msgs) > 8 || len(classes) > 8 {
			t.Fatalf("%d messages, %d classes", len(msgs), len(classes))
		}
		for _, ps := range phrases {
			for _, p := range ps {
				words := strings.Split(p, " ")
				if len(words) < 2 || len(words) > 3 {
					t.Fatalf("phrase %q", p)
				}
				for _, w := range words {
					if w == "" || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
						t.Fatalf("phrase %q has word %q", p, w)
					}
				}
			}
		}
	})
}

// TestTraceLane: a trace pasted into the task text ranks its innermost
// frame of the project first, resolves frames by their function's name
// when the lines moved, and drops a frame of another package that shares
// only a file's base name with the project.
func TestTraceLane(t *testing.T) {
	ar := txtar.Parse([]byte(`
-- shop/store.py --
def add(shelf, item):
    check(shelf)
    shelf.append(item)


def check(shelf):
    if len(shelf) > 3:
        raise ValueError("shelf full")
-- shop/pathlib.py --
def resolve(p):
    return p
-- shop/cli.py --
from .store import add


def main():
    add([], 1)
`))
	x := txtarIndex(t, ar)
	task := "adding to a shelf crashes\nTraceback (most recent call last):\n" +
		"  File \"/usr/lib/python3.11/site-packages/shop/cli.py\", line 5, in main\n" +
		"  File \"/usr/lib/python3.11/site-packages/shop/store.py\", line 2, in add\n" +
		"  File \"/usr/lib/python3.11/site-packages/shop/store.py\", line 80, in check\n" +
		"  File \"/usr/lib/python3.11/pathlib.py\", line 1, in resolve\n" +
		"OSError: boom\n"
	resp, err := x.BuildSlice(context.Background(), query.SliceRequest{TaskText: task, IncludeRetrievalEvidence: true})
	if err != nil {
		t.Fatal(err)
	}
	var trace []string
	for _, s := range resp.RetrievalEvidence.Seeds {
		if s.Source == "taskText trace" {
			trace = append(trace, s.Name)
		}
	}
	if want := []string{"check", "add", "main"}; !slices.Equal(trace, want) {
		t.Errorf("trace seeds %q, want %q (innermost first, by name, without pathlib's resolve)", trace, want)
	}
	// the lane's scores: the innermost frame highest, library frames of
	// the project scaled by traceLibraryFactor, each frame out by traceDecay
	cands, err := x.RankCandidates(context.Background(), query.SliceRequest{TaskText: task}, 20)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, c := range cands {
		got[c.Name] = c.Features.Trace
	}
	want := map[string]float64{"check": 0.7, "add": 0.49, "main": 0.343, "resolve": 0}
	for name, w := range want {
		if math.Abs(got[name]-w) > 1e-9 {
			t.Errorf("trace score of %s %v, want %v (all: %v)", name, got[name], w, got)
		}
	}
}
