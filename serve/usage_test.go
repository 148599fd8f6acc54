package serve_test

import (
	"context"
	"encoding/json"
	"testing"
)

// TestUsageStats: a search counts the code of the symbols it lists, not
// the whole files they are in, and persisted sessions are added up.
func TestUsageStats(t *testing.T) {
	p := newInProcess(t, "go")
	var search struct {
		Results []struct {
			File string `json:"file"`
		} `json:"results"`
	}
	json.Unmarshal([]byte(p.call("sdl.symbol.search", `{"query": "store item", "limit": 50}`)), &search)
	files := map[string]bool{}
	for _, r := range search.Results {
		files[r.File] = true
	}
	if len(files) < 2 {
		t.Fatalf("the search should span several files: %+v", search)
	}
	x, err := p.repos.Get("")
	if err != nil {
		t.Fatal(err)
	}
	idx, err := x.Index()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for f := range files {
		paths = append(paths, f)
	}
	sizes, err := idx.FileSizes(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	whole := 0
	for _, s := range sizes {
		whole += int(s / 4)
	}
	type session struct {
		Calls         int `json:"calls"`
		RawFileTokens int `json:"rawFileTokens"`
		Sessions      int `json:"sessions"`
	}
	var u struct {
		Session       session `json:"session"`
		HistoryTotals session `json:"historyTotals"`
	}
	json.Unmarshal([]byte(p.call("sdl.usage.stats", `{"persist": true}`)), &u)
	if u.Session.RawFileTokens <= 0 || u.Session.RawFileTokens >= whole {
		t.Errorf("a search over %d files counted %d raw tokens; the whole files are %d", len(files), u.Session.RawFileTokens, whole)
	}
	p.call("sdl.symbol.search", `{"query": "save"}`)
	json.Unmarshal([]byte(p.call("sdl.usage.stats", `{"persist": true, "scope": "history"}`)), &u)
	// the first persisted session had 1 call, the second 3 (search, stats, search)
	if u.HistoryTotals.Sessions != 2 || u.HistoryTotals.Calls != 1+3 {
		t.Errorf("history totals: %+v", u.HistoryTotals)
	}
}
