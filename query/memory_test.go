package query_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/schema"
)

var testNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// memFixture copies a fixture repository, lets setup write memory files
// and the feedback sidecar (it gets the root and the symbol ids by
// qualified name of a first index), indexes it again and opens it.
func memFixture(t *testing.T, name string, setup func(root string, ids map[string]string)) (*query.Index, string) {
	t.Helper()
	return memFixtureWith(t, name, embed.Config{}, setup)
}

// memFixtureWith is memFixture with an embedding choice for the index.
func memFixtureWith(t *testing.T, name string, cfg embed.Config, setup func(root string, ids map[string]string)) (*query.Index, string) {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", name))
	root := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(root, ".sdl", "index.db")
	opts := index.Options{Root: root, DB: db, NoGit: true, Workers: 2, Now: time.Unix(1700000000, 0), SDLVersion: "test",
		Embedding: cfg}
	if _, err := index.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	rows, err := x.DB.Query(`SELECT qualified, id FROM symbols WHERE to_seq IS NULL`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var q, id string
		rows.Scan(&q, &id)
		ids[q] = id
	}
	rows.Close()
	x.Close()
	setup(root, ids)
	if _, err := index.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	x, err = query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	x.Clock = func() time.Time { return testNow }
	t.Cleanup(func() { x.Close() })
	return x, root
}

func write(t *testing.T, root string, m *memoryfs.Memory) {
	t.Helper()
	if m.CreatedAt.IsZero() {
		m.CreatedAt = testNow
	}
	if _, _, err := memoryfs.Write(root, m); err != nil {
		t.Fatal(err)
	}
}

func memIDs(ms []*query.Memory) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.MemoryID)
	}
	return strings.Join(out, ",")
}

func TestMemoryQueryFilters(t *testing.T) {
	x, _ := memFixture(t, "go", func(root string, ids map[string]string) {
		write(t, root, &memoryfs.Memory{ID: "a", Type: "bugfix", Title: "Add on nil", Content: "Add panics.", Confidence: 0.6,
			Tags: []string{"store", "panic"}, Symbols: []string{ids["Store.Add"]}, CreatedAt: testNow.Add(-48 * time.Hour)})
		write(t, root, &memoryfs.Memory{ID: "b", Type: "decision", Title: "JSON file", Content: "One file.", Confidence: 0.9,
			Tags: []string{"storage"}, Symbols: []string{ids["DB.Save"]}, CreatedAt: testNow.Add(-24 * time.Hour)})
		write(t, root, &memoryfs.Memory{ID: "c", Type: "task_context", Title: "handoff", Content: "Half done.", Confidence: 0.5,
			Stale: true, StaleVersion: "v1", CreatedAt: testNow})
	})
	ctx := context.Background()
	cases := []struct {
		req  query.MemoryQueryRequest
		want string
	}{
		{query.MemoryQueryRequest{}, "c,b,a"},
		{query.MemoryQueryRequest{SortBy: "confidence"}, "b,a,c"},
		{query.MemoryQueryRequest{Types: []string{"bugfix", "decision"}}, "b,a"},
		{query.MemoryQueryRequest{Tags: []string{"panic", "storage"}}, "b,a"},
		{query.MemoryQueryRequest{Tags: []string{"none"}}, ""},
		{query.MemoryQueryRequest{StaleOnly: true}, "c"},
		{query.MemoryQueryRequest{Limit: 2}, "c,b"},
	}
	for _, c := range cases {
		resp, err := x.QueryMemories(ctx, c.req)
		if err != nil {
			t.Fatal(err)
		}
		if got := memIDs(resp.Memories); got != c.want {
			t.Errorf("%+v: got %s, want %s", c.req, got, c.want)
		}
	}
	resp, _ := x.QueryMemories(ctx, query.MemoryQueryRequest{Limit: 1})
	if resp.Total != 3 || len(resp.Memories) != 1 || resp.Memories[0].Content != "Half done." || !resp.Memories[0].Stale {
		t.Errorf("limit 1: %+v", resp)
	}
	// linked symbols
	rows, _ := x.QueryMemories(ctx, query.MemoryQueryRequest{})
	var add string
	for _, m := range rows.Memories {
		if m.MemoryID == "a" {
			add = m.SymbolIDs[0]
		}
	}
	resp, _ = x.QueryMemories(ctx, query.MemoryQueryRequest{SymbolIDs: []string{add}})
	if got := memIDs(resp.Memories); got != "a" {
		t.Errorf("by symbol: %s", got)
	}
}

// The memories' full-text index ranks: bm25 is not zero, and a memory that
// says more about the words comes first.
func TestMemoryQueryRelevance(t *testing.T) {
	x, _ := memFixture(t, "go", func(root string, ids map[string]string) {
		write(t, root, &memoryfs.Memory{ID: "best", Type: "bugfix", Title: "Token expiry check", Content: "The token expiry was compared in local time; token expiry is UTC now.", Confidence: 0.5, CreatedAt: testNow.Add(-72 * time.Hour)})
		write(t, root, &memoryfs.Memory{ID: "some", Type: "decision", Title: "Sessions", Content: "Sessions carry a token and a long description of many other unrelated things about cookies and storage.", Confidence: 0.5, CreatedAt: testNow.Add(-24 * time.Hour)})
		write(t, root, &memoryfs.Memory{ID: "none", Type: "decision", Title: "Logging", Content: "We log to stderr.", Confidence: 0.5, CreatedAt: testNow})
		// more memories without the words, so that bm25's idf of "token" is
		// positive
		for i := 0; i < 5; i++ {
			write(t, root, &memoryfs.Memory{ID: fmt.Sprintf("filler%d", i), Type: "decision", Title: "Other", Content: "Nothing here.", Confidence: 0.5})
		}
	})
	resp, err := x.QueryMemories(context.Background(), query.MemoryQueryRequest{Query: "token expiry", SortBy: "relevance"})
	if err != nil {
		t.Fatal(err)
	}
	if got := memIDs(resp.Memories); got != "best,some" {
		t.Fatalf("got %s, want best,some", got)
	}
	s0, s1 := *resp.Memories[0].Score, *resp.Memories[1].Score
	if s0 != 1 || s1 <= 0 || s1 >= s0 {
		t.Errorf("scores %v %v: bm25 must rank (best 1, the other between 0 and 1)", s0, s1)
	}
	// the default order is still recency, among the matches
	resp, _ = x.QueryMemories(context.Background(), query.MemoryQueryRequest{Query: "token expiry"})
	if got := memIDs(resp.Memories); got != "some,best" {
		t.Errorf("recency: got %s", got)
	}
	// stemming: "expiring tokens" finds them too
	resp, _ = x.QueryMemories(context.Background(), query.MemoryQueryRequest{Query: "tokens"})
	if resp.Total != 2 {
		t.Errorf("tokens: %d matches", resp.Total)
	}
}

func TestMemoryRequestLimits(t *testing.T) {
	x := fixture(t, "go")
	ctx := context.Background()
	many := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint(i)
		}
		return out
	}
	for _, c := range []struct {
		field string
		call  func() error
	}{
		{"query", func() error {
			_, err := x.QueryMemories(ctx, query.MemoryQueryRequest{Query: strings.Repeat("a", 1001)})
			return err
		}},
		{"types", func() error {
			_, err := x.QueryMemories(ctx, query.MemoryQueryRequest{Types: []string{"note"}})
			return err
		}},
		{"tags", func() error { _, err := x.QueryMemories(ctx, query.MemoryQueryRequest{Tags: many(21)}); return err }},
		{"symbolIds", func() error {
			_, err := x.QueryMemories(ctx, query.MemoryQueryRequest{SymbolIDs: many(101)})
			return err
		}},
		{"limit", func() error { _, err := x.QueryMemories(ctx, query.MemoryQueryRequest{Limit: 101}); return err }},
		{"sortBy", func() error { _, err := x.QueryMemories(ctx, query.MemoryQueryRequest{SortBy: "random"}); return err }},
		{"sortBy", func() error {
			_, err := x.QueryMemories(ctx, query.MemoryQueryRequest{SortBy: "relevance"})
			return err
		}},
		{"symbolIds", func() error { _, err := x.SurfaceMemories(ctx, query.SurfaceRequest{SymbolIDs: many(501)}); return err }},
		{"taskType", func() error { _, err := x.SurfaceMemories(ctx, query.SurfaceRequest{TaskType: "note"}); return err }},
		{"limit", func() error { _, err := x.SurfaceMemories(ctx, query.SurfaceRequest{Limit: 51}); return err }},
		{"limit", func() error { _, err := x.QueryFeedback(ctx, query.FeedbackQueryRequest{Limit: 1001}); return err }},
		{"since", func() error {
			_, err := x.QueryFeedback(ctx, query.FeedbackQueryRequest{Since: "yesterday"})
			return err
		}},
		{"memoryLimit", func() error {
			n := 21
			_, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "add", MemoryLimit: &n})
			return err
		}},
	} {
		err := c.call()
		if !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), ": "+c.field+": ") {
			t.Errorf("%s: %v", c.field, err)
		}
	}
	// the largest valid values pass
	if _, err := x.SurfaceMemories(ctx, query.SurfaceRequest{SymbolIDs: many(500), Limit: 50}); err != nil {
		t.Error(err)
	}
}

func TestSurfaceScore(t *testing.T) {
	var add, save, value string
	x, _ := memFixture(t, "go", func(root string, ids map[string]string) {
		add, save, value = ids["Store.Add"], ids["DB.Save"], ids["Store.Value"]
		write(t, root, &memoryfs.Memory{ID: "today", Type: "bugfix", Title: "t", Content: "c", Confidence: 0.9, Symbols: []string{add}})
		write(t, root, &memoryfs.Memory{ID: "month", Type: "bugfix", Title: "t", Content: "c", Confidence: 0.9, Symbols: []string{add, save},
			CreatedAt: testNow.Add(-30 * 24 * time.Hour)})
		write(t, root, &memoryfs.Memory{ID: "repo", Type: "decision", Title: "t", Content: "c", Confidence: 0.8})
		write(t, root, &memoryfs.Memory{ID: "file", Type: "decision", Title: "t", Content: "c", Confidence: 1, Files: []string{"store/db.go"}})
		write(t, root, &memoryfs.Memory{ID: "other", Type: "bugfix", Title: "t", Content: "c", Confidence: 1, Symbols: []string{value}})
	})
	ctx := context.Background()
	resp, err := x.SurfaceMemories(ctx, query.SurfaceRequest{SymbolIDs: []string{add, save}})
	if err != nil {
		t.Fatal(err)
	}
	// confidence x 1/(1+days/30) x linked/queried, exactly
	want := map[string]float64{
		"today": 0.9 * 1 * 0.5, // one of two query symbols
		"month": 0.9 * 0.5 * 1, // both, 30 days old
		"file":  0,             // linked to no query symbol, but to store/db.go, which holds DB.Save
		"repo":  0,             // repo-level: always qualifies, with no overlap
	}
	// today and month tie at 0.45: confidence x recency breaks it; of the
	// zeros, the memory about a file at hand comes first; "other" (linked
	// only to Store.Value) is about other code
	if got := memIDs(resp.Memories); got != "today,month,file,repo" || resp.Total != 4 {
		t.Errorf("order %s, total %d", got, resp.Total)
	}
	raw := string(query.EncodeJSON(resp))
	if !strings.Contains(raw, `"memoryId":"repo"`) || strings.Count(raw, `"score":`) != 4 || strings.Count(raw, `"matchedSymbols":`) != 4 ||
		!strings.Contains(raw, `"matchedSymbols":[]`) {
		t.Errorf("every surfaced memory carries score and matchedSymbols: %s", raw)
	}
	for _, m := range resp.Memories {
		if math.Abs(*m.Score-want[m.MemoryID]) > 1e-4 {
			t.Errorf("%s: score %v, want %v", m.MemoryID, *m.Score, want[m.MemoryID])
		}
	}
	if resp.Memories[1].MatchedSymbols == nil || len(resp.Memories[1].MatchedSymbols) != 2 {
		t.Errorf("matched symbols %v", resp.Memories[1].MatchedSymbols)
	}
	// no symbols: every memory, overlap 1
	resp, _ = x.SurfaceMemories(ctx, query.SurfaceRequest{TaskType: "bugfix", Limit: 2})
	if got := memIDs(resp.Memories); got != "other,today" || resp.Total != 3 {
		t.Errorf("no symbols: %s (total %d)", got, resp.Total)
	}
}

func TestSliceMemories(t *testing.T) {
	x, _ := memFixture(t, "go", func(root string, ids map[string]string) {
		write(t, root, &memoryfs.Memory{ID: "nil", Type: "bugfix", Title: "Add panics on a nil item", Confidence: 0.9,
			Content: strings.Repeat("The nil check in Add panics with a clear message. ", 100), Symbols: []string{ids["Store.Add"]}})
		write(t, root, &memoryfs.Memory{ID: "far", Type: "bugfix", Title: "unrelated", Content: "c", Confidence: 1, Symbols: []string{ids["main"]}})
	})
	ctx := context.Background()
	// four cards: Store.Add first, main (the "far" memory's symbol, which
	// calls it) fifth
	resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "Store.Add should not panic on a nil item", Budget: &query.SliceBudget{MaxCards: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Memories) != 1 || resp.Memories[0].MemoryID != "nil" || !resp.Memories[0].ContentTruncated ||
		len([]rune(resp.Memories[0].Content)) > 501 || len(resp.Memories[0].LinkedSymbols) != 1 {
		t.Fatalf("memories %+v", resp.Memories)
	}
	off := false
	resp, _ = x.BuildSlice(ctx, query.SliceRequest{TaskText: "add an item to the store", IncludeMemories: &off})
	if len(resp.Memories) != 0 {
		t.Errorf("includeMemories false: %+v", resp.Memories)
	}
	zero := 0
	resp, _ = x.BuildSlice(ctx, query.SliceRequest{TaskText: "add an item to the store", MemoryLimit: &zero})
	if len(resp.Memories) != 0 {
		t.Errorf("memoryLimit 0: %+v", resp.Memories)
	}
	// the budget holds with memories in it, and memories give way to cards
	// beyond a tenth of the budget
	for _, budget := range []int{query.MinSliceTokens, 400, 500, 1000, 4000} {
		resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "add an item to the store",
			Budget: &query.SliceBudget{MaxEstimatedTokens: budget}})
		if err != nil {
			t.Fatal(err)
		}
		if n := query.Tokens(string(query.EncodeJSON(resp))); n > budget || resp.EstimatedTokens > budget {
			t.Errorf("budget %d: %d tokens", budget, n)
		}
		if len(resp.Memories) > 0 && query.Tokens(string(query.EncodeJSON(resp.Memories))) > budget/10 && len(resp.Slice.Cards) == 0 {
			t.Errorf("budget %d: memories took the place of every card", budget)
		}
	}
}

// brokenOverlay fails, as a memory directory that cannot be read would.
type brokenOverlay struct{}

func (brokenOverlay) Diff(context.Context, map[string]query.IndexedMemory) ([]*query.Memory, []string, error) {
	return nil, nil, errors.New("disk on fire")
}

func TestSliceSurvivesMemoryFailure(t *testing.T) {
	x := fixture(t, "go")
	x.MemoryFiles = brokenOverlay{}
	resp, err := x.BuildSlice(context.Background(), query.SliceRequest{TaskText: "add an item to the store"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Slice.Cards) == 0 || len(resp.Warnings) != 1 || !strings.Contains(resp.Warnings[0], "disk on fire") {
		t.Errorf("cards %d, warnings %v", len(resp.Slice.Cards), resp.Warnings)
	}
	if _, err := x.QueryMemories(context.Background(), query.MemoryQueryRequest{}); err == nil {
		t.Errorf("the query tool hid the failure")
	}
}

// fakeOverlay lays fixed memories over the index.
type fakeOverlay struct {
	changed []*query.Memory
	gone    []string
}

func (o fakeOverlay) Diff(context.Context, map[string]query.IndexedMemory) ([]*query.Memory, []string, error) {
	return o.changed, o.gone, nil
}

func TestMemoryOverlay(t *testing.T) {
	x, _ := memFixture(t, "go", func(root string, ids map[string]string) {
		write(t, root, &memoryfs.Memory{ID: "old", Type: "decision", Title: "JSON storage", Content: "one file", Confidence: 0.5})
		write(t, root, &memoryfs.Memory{ID: "kept", Type: "decision", Title: "Logging", Content: "stderr", Confidence: 0.5})
	})
	fresh := &query.Memory{MemoryID: "new", Type: "bugfix", Title: "Token expiry", Content: "stored a moment ago about token expiry", Confidence: 0.7}
	fresh.SetCreated(testNow)
	deleted := &query.Memory{MemoryID: "kept", Type: "decision", Title: "Logging", Content: "stderr", Deleted: true}
	deleted.SetCreated(testNow)
	x.MemoryFiles = fakeOverlay{changed: []*query.Memory{fresh, deleted}, gone: []string{"old"}}
	resp, err := x.QueryMemories(context.Background(), query.MemoryQueryRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got := memIDs(resp.Memories); got != "new" {
		t.Errorf("got %s, want only new", got)
	}
	// text search covers memories that are not indexed yet
	resp, _ = x.QueryMemories(context.Background(), query.MemoryQueryRequest{Query: "expiry", SortBy: "relevance"})
	if got := memIDs(resp.Memories); got != "new" || *resp.Memories[0].Score != 1 {
		t.Errorf("text over the overlay: %s", got)
	}
}

func TestFeedbackQuery(t *testing.T) {
	x, root := memFixture(t, "go", func(root string, ids map[string]string) {
		side := schema.FeedbackPath(filepath.Join(root, ".sdl", "index.db"))
		for i, f := range []schema.Feedback{
			{VersionID: "v1", UsefulSymbols: []string{"a", "b"}, MissingSymbols: []string{"m"}, CreatedAt: "2026-01-01T00:00:00Z"},
			{VersionID: "v1", UsefulSymbols: []string{"a"}, CreatedAt: "2026-01-02T00:00:00Z"},
			{VersionID: "v2", UsefulSymbols: []string{"a", "c"}, MissingSymbols: []string{"m", "n"}, CreatedAt: "2026-01-03T00:00:00Z"},
		} {
			f.FeedbackID, f.SliceHandle = fmt.Sprintf("f%d", i), "h"
			schema.AppendFeedback(side, &f)
		}
	})
	// one more since the index run: answered at once
	side := schema.FeedbackPath(filepath.Join(root, ".sdl", "index.db"))
	schema.AppendFeedback(side, &schema.Feedback{FeedbackID: "f3", VersionID: "v2", SliceHandle: "h", UsefulSymbols: []string{"c"}, CreatedAt: "2026-01-04T00:00:00Z"})
	ctx := context.Background()
	resp, err := x.QueryFeedback(ctx, query.FeedbackQueryRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range resp.Feedback {
		got = append(got, f.FeedbackID)
	}
	st := resp.AggregatedStats
	if fmt.Sprint(got) != "[f3 f2 f1 f0]" || st.TotalFeedback != 4 || resp.HasMore ||
		fmt.Sprint(st.TopUsefulSymbols) != "[{a 3} {c 2} {b 1}]" || fmt.Sprint(st.TopMissingSymbols) != "[{m 2} {n 1}]" {
		t.Errorf("got %v, stats %+v", got, st)
	}
	resp, _ = x.QueryFeedback(ctx, query.FeedbackQueryRequest{VersionID: "v1", Limit: 1})
	if len(resp.Feedback) != 1 || resp.Feedback[0].FeedbackID != "f1" || !resp.HasMore || resp.AggregatedStats.TotalFeedback != 2 {
		t.Errorf("v1, limit 1: %+v", resp)
	}
	resp, _ = x.QueryFeedback(ctx, query.FeedbackQueryRequest{Since: "2026-01-03T00:00:00Z"})
	if resp.AggregatedStats.TotalFeedback != 2 {
		t.Errorf("since: %+v", resp.AggregatedStats)
	}
}

// Feedback on a similar task brings its useful symbols into the slice;
// feedback on a different task does not.
func TestSliceFeedbackBoost(t *testing.T) {
	task := "report the value of the shop inventory"
	var target string
	build := func(taskText string) *query.SliceResponse {
		x, _ := memFixture(t, "go", func(root string, ids map[string]string) {
			target = ids["Item.String"]
			schema.AppendFeedback(schema.FeedbackPath(filepath.Join(root, ".sdl", "index.db")), &schema.Feedback{FeedbackID: "f",
				VersionID: "v1", SliceHandle: "h", UsefulSymbols: []string{target}, TaskText: taskText, CreatedAt: "2026-01-01T00:00:00Z"})
		})
		resp, err := x.BuildSlice(context.Background(), query.SliceRequest{TaskText: task, IncludeRetrievalEvidence: true,
			Budget: &query.SliceBudget{MaxCards: 8}})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	rankOf := func(resp *query.SliceResponse) int {
		for i, c := range resp.Slice.Cards {
			if c.SymbolID == target {
				return i
			}
		}
		return -1
	}
	base := build("rename the command line flags")
	boosted := build("report the inventory value of the shop")
	if rankOf(base) >= 0 {
		t.Fatalf("Item.String is in the slice without feedback; pick another target")
	}
	if rankOf(boosted) < 0 {
		t.Errorf("feedback on a similar task did not bring Item.String in: %v", boosted.RetrievalEvidence.Lanes)
	}
	found := false
	for _, l := range boosted.RetrievalEvidence.Lanes {
		found = found || l == "feedback"
	}
	if !found {
		t.Errorf("lanes %v lack feedback", boosted.RetrievalEvidence.Lanes)
	}
}
