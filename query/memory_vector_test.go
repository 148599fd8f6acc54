package query_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/query"
)

// memoriesByMeaning stores memories none of which shares a word with
// "authenticate": the one about logging in is near it only by meaning.
func memoriesByMeaning(t *testing.T, cfg embed.Config) *query.Index {
	x, _ := memFixtureWith(t, "go", cfg, func(root string, ids map[string]string) {
		write(t, root, &memoryfs.Memory{ID: "signin", Type: "bugfix", Title: "Login lockout",
			Content: "A user who types a wrong password three times waits before the next login attempt.", Confidence: 0.8})
		write(t, root, &memoryfs.Memory{ID: "cents", Type: "decision", Title: "Prices in cents",
			Content: "Item prices are integers counting cents, never floats.", Confidence: 0.8})
		write(t, root, &memoryfs.Memory{ID: "cache", Type: "decision", Title: "Catalog cache",
			Content: "The catalog client caches responses for a minute.", Confidence: 0.8})
	})
	return x
}

func TestMemoryQueryHybrid(t *testing.T) {
	ctx := context.Background()
	const q = "authenticate"

	// without vectors: bm25 alone finds nothing, and says so
	lex := memoriesByMeaning(t, embed.Config{})
	resp, err := lex.QueryMemories(ctx, query.MemoryQueryRequest{Query: q, SortBy: "relevance"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Total != 0 || resp.RetrievalMode != query.ModeLexical || !strings.Contains(resp.FallbackReason, "no vectors") {
		t.Errorf("without vectors: %d found (%s), mode %s, reason %q", resp.Total, memIDs(resp.Memories), resp.RetrievalMode, resp.FallbackReason)
	}

	// with the built-in model's vectors: the login memory first
	x := memoriesByMeaning(t, builtinCfg)
	resp, err = x.QueryMemories(ctx, query.MemoryQueryRequest{Query: q, SortBy: "relevance"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.RetrievalMode != query.ModeHybrid || resp.FallbackReason != "" {
		t.Fatalf("with vectors: mode %s, reason %q", resp.RetrievalMode, resp.FallbackReason)
	}
	if len(resp.Memories) == 0 || resp.Memories[0].MemoryID != "signin" || *resp.Memories[0].Score != 1 {
		t.Fatalf("with vectors: got %s, want signin first", memIDs(resp.Memories))
	}
	for _, m := range resp.Memories[1:] {
		if *m.Score >= 1 {
			t.Errorf("%s scores %v, as high as the nearest", m.MemoryID, *m.Score)
		}
	}

	// semantic: false is bm25 only, on the same index
	off := false
	resp, _ = x.QueryMemories(ctx, query.MemoryQueryRequest{Query: q, Semantic: &off})
	if resp.Total != 0 || resp.RetrievalMode != query.ModeLexical || !strings.Contains(resp.FallbackReason, "semantic: false") {
		t.Errorf("semantic false: %d found, mode %s, reason %q", resp.Total, resp.RetrievalMode, resp.FallbackReason)
	}

	// no query: no mode
	resp, _ = x.QueryMemories(ctx, query.MemoryQueryRequest{})
	if resp.RetrievalMode != "" || resp.Total != 3 {
		t.Errorf("no query: mode %q, %d memories", resp.RetrievalMode, resp.Total)
	}
}

// A word match and a match by meaning both count: the memory both lanes
// find ranks first, and the one only bm25 finds stays in.
func TestMemoryQueryFusion(t *testing.T) {
	x := memoriesByMeaning(t, builtinCfg)
	resp, err := x.QueryMemories(context.Background(), query.MemoryQueryRequest{Query: "password prices", SortBy: "relevance"})
	if err != nil {
		t.Fatal(err)
	}
	got := memIDs(resp.Memories)
	if resp.RetrievalMode != query.ModeHybrid || !strings.Contains(got, "signin") || !strings.Contains(got, "cents") {
		t.Errorf("mode %s, got %s", resp.RetrievalMode, got)
	}
}

// A memory stored since the last index run is embedded at query time.
func TestMemoryQueryHybridOverlay(t *testing.T) {
	x := memoriesByMeaning(t, builtinCfg)
	fresh := &query.Memory{MemoryID: "fresh", Type: "bugfix", Title: "Password reset",
		Content: "Reset links expire; the user must login again.", Confidence: 0.7}
	fresh.SetCreated(testNow)
	x.MemoryFiles = fakeOverlay{changed: []*query.Memory{fresh}, gone: []string{"signin"}}
	resp, err := x.QueryMemories(context.Background(), query.MemoryQueryRequest{Query: "authenticate", SortBy: "relevance"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.RetrievalMode != query.ModeHybrid || len(resp.Memories) == 0 || resp.Memories[0].MemoryID != "fresh" {
		t.Errorf("mode %s, got %s, want fresh first", resp.RetrievalMode, memIDs(resp.Memories))
	}
}
