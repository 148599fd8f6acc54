package query_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/query"
)

// TestSliceReportsWhatItUsed: the seeds found from the task text have
// names, paths that name no indexed file are warned about (editedFiles and
// failingTestPath alike), the default budget keeps a short frontier, and a
// slice without cards carries no memories.
func TestSliceReportsWhatItUsed(t *testing.T) {
	x, _ := memFixture(t, "go", func(root string, ids map[string]string) {
		write(t, root, &memoryfs.Memory{ID: "a", Type: "bugfix", Title: "Add on nil", Content: "Add panics.", Confidence: 0.9,
			Symbols: []string{ids["Store.Add"]}, CreatedAt: testNow.Add(-time.Hour)})
		write(t, root, &memoryfs.Memory{ID: "b", Type: "decision", Title: "unlinked", Content: "About nothing here.", Confidence: 0.9})
	})
	ctx := context.Background()
	resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "add an item to the store", IncludeRetrievalEvidence: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.RetrievalEvidence.Seeds) == 0 {
		t.Fatal("no seeds")
	}
	for _, s := range resp.RetrievalEvidence.Seeds {
		if s.Name == "" {
			t.Errorf("seed %+v has no name", s)
		}
	}
	if len(resp.Slice.Frontier) == 0 && resp.Slice.Truncation != nil {
		t.Errorf("a truncated slice at the default budget lost its frontier: %+v", resp.Slice.Truncation)
	}

	for _, req := range []query.SliceRequest{
		{TaskText: "add an item", EditedFiles: []string{"store/nope.go"}},
		{TaskText: "add an item", FailingTestPath: "store/nope_test.go"},
	} {
		resp, err := x.BuildSlice(ctx, req)
		if err != nil {
			t.Errorf("%+v: %v", req, err)
			continue
		}
		if !strings.Contains(strings.Join(resp.Warnings, "\n"), "nope") || len(resp.Slice.Cards) == 0 {
			t.Errorf("%+v: warnings %q, %d cards", req, resp.Warnings, len(resp.Slice.Cards))
		}
	}

	// nothing matches: no cards, and no memory about other code
	resp, err = x.BuildSlice(ctx, query.SliceRequest{TaskText: "zzqx wibble frobnicate"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Slice.Cards) != 0 || len(resp.Memories) != 0 {
		t.Errorf("a slice matching nothing: %d cards, memories %+v", len(resp.Slice.Cards), resp.Memories)
	}
	// a slice about Store.Add carries the memory about it and not the unlinked one
	resp, err = x.BuildSlice(ctx, query.SliceRequest{TaskText: "Store.Add"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range resp.Memories {
		got = append(got, m.MemoryID)
	}
	if strings.Join(got, ",") != "a" {
		t.Errorf("memories of a slice about Store.Add: %v, want a", got)
	}
}

// TestSliceKeepsAFrontier: cut to its budget, a slice gives up cards before
// the few symbols that just missed it.
func TestSliceKeepsAFrontier(t *testing.T) {
	x := fixture(t, "java")
	for _, budget := range []int{600, 1000, 4000} {
		resp, err := x.BuildSlice(context.Background(), query.SliceRequest{TaskText: "order items total price shop",
			Budget: &query.SliceBudget{MaxEstimatedTokens: budget}})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Slice.Truncation != nil && resp.Slice.Truncation.DroppedCards > 0 && len(resp.Slice.Frontier) == 0 && len(resp.Slice.Cards) > 1 {
			t.Errorf("budget %d: %d cards, %d dropped, and no frontier", budget, len(resp.Slice.Cards), resp.Slice.Truncation.DroppedCards)
		}
	}
}
