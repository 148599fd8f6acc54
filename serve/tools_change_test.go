package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// TestChangeTools drives delta, risk and refresh as a client would: build
// a slice, let the index move on, ask what changed.
func TestChangeTools(t *testing.T) {
	ctx := context.Background()
	root, db := repoCopy(t, "go")
	repos, err := serve.NewRepos(serve.NewRepo("shop", root, db))
	if err != nil {
		t.Fatal(err)
	}
	defer repos.Close()
	reg := serve.NewRegistry()
	for _, name := range []string{"sdl_delta_get", "sdl_pr_risk_analyze", "sdl_slice_refresh"} {
		tl, err := reg.Lookup(name)
		if err != nil || !tl.ReadOnly || tl.MCPName() != name {
			t.Errorf("%s: %+v %v", name, tl, err)
		}
	}
	s := serve.New(reg, repos, serve.Options{Version: "test"})
	callJSON := func(name, args string, v any) string {
		t.Helper()
		out, err := s.Call(ctx, name, json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s %s: %v", name, args, err)
		}
		if v != nil {
			if err := json.Unmarshal(out, v); err != nil {
				t.Fatal(err)
			}
		}
		return string(out)
	}
	var search query.SearchResponse
	callJSON("sdl_symbol_search", `{"query": "Store.Add", "limit": 1}`, &search)
	var slice query.SliceResponse
	callJSON("sdl_slice_build", `{"entrySymbols": ["`+search.Results[0].SymbolID+`"], "budget": {"maxCards": 4}}`, &slice)

	p := filepath.Join(root, "store", "db.go")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), "0o644", "0o600", 1)), 0o644)
	if _, err := index.Run(ctx, index.Options{Root: root, NoGit: true}); err != nil {
		t.Fatal(err)
	}

	var delta query.DeltaResponse
	out := callJSON("sdl_delta_get", `{"fromVersion": "v1", "toVersion": "v2"}`, &delta)
	if len(delta.Delta.Changes) != 1 || delta.Delta.Changes[0].Name != "DB.Save" || !strings.Contains(out, `"ledgerVersion":"v2"`) {
		t.Errorf("delta: %s", out)
	}
	var risk query.RiskResponse
	out = callJSON("sdl.pr.risk.analyze", `{"fromVersion": "HEAD~1", "toVersion": "HEAD", "riskThreshold": 0}`, &risk)
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(risk.PolicyDecision.AuditHash) || risk.PolicyDecision.Decision == "" ||
		len(risk.Analysis.Factors) != 6 || !risk.EscalationRequired {
		t.Errorf("risk: %s", out)
	}
	var again query.RiskResponse
	callJSON("sdl_pr_risk_analyze", `{"fromVersion": "v1", "toVersion": "v2", "riskThreshold": 0}`, &again)
	if again.PolicyDecision.AuditHash != risk.PolicyDecision.AuditHash {
		t.Errorf("the same analysis, another audit hash")
	}
	var ref query.RefreshResponse
	out = callJSON("sdl_slice_refresh", `{"sliceHandle": "`+slice.SliceHandle+`", "knownVersion": "`+slice.LedgerVersion+`"}`, &ref)
	if ref.NotModified || ref.Delta == nil || len(ref.Delta.Changes) != 1 || ref.CurrentVersion != "v2" {
		t.Errorf("refresh from v1: %s", out)
	}
	callJSON("sdl_slice_refresh", `{"sliceHandle": "`+slice.SliceHandle+`", "knownVersion": "v2"}`, &ref)
	if !ref.NotModified || ref.Delta != nil {
		t.Errorf("refresh from v2: %+v", ref)
	}

	for args, field := range map[string]string{
		`{"fromVersion": "v9", "toVersion": "v1"}`:                             "fromVersion",
		`{"fromVersion": "v1"}`:                                                "toVersion",
		`{"fromVersion": "v1", "toVersion": "v2", "maxDepth": 99}`:             "maxDepth",
		`{"fromVersion": "v1", "toVersion": "v2", "budget": {"maxCards": -1}}`: "budget.maxCards",
	} {
		_, err := s.Call(ctx, "sdl_delta_get", json.RawMessage(args))
		if !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: %v, want an error naming %s", args, err, field)
		}
	}
	if _, err := s.Call(ctx, "sdl_pr_risk_analyze", json.RawMessage(`{"fromVersion": "v1", "toVersion": "v2", "riskThreshold": 101}`)); !errors.Is(err, query.ErrInvalid) {
		t.Errorf("riskThreshold 101: %v", err)
	}
	if _, err := s.Call(ctx, "sdl_slice_refresh", json.RawMessage(`{"sliceHandle": "x", "knownVersion": "v1", "since": 1}`)); !errors.Is(err, serve.ErrArgs) {
		t.Errorf("unknown argument: %v", err)
	}
}
