package query_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/query"
)

// windowRepo is a copy of the Go fixture with a policy file (none when
// policy is ""), and the ids of Store.Add (lines 23-32) and Store.Value.
func windowRepo(t *testing.T, policy string) (*query.Index, string, map[string]string) {
	t.Helper()
	x, root := fixtureCopy(t, "go")
	if policy != "" {
		writePolicy(t, root, policy)
	}
	ids := map[string]string{}
	for _, s := range symbolsOf(t, x, "store/store.go") {
		ids[s.Qualified] = s.ID
	}
	return x, root, ids
}

func writePolicy(t *testing.T, root, text string) {
	t.Helper()
	p := filepath.Join(root, ".sdl", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

type auditRec struct {
	Decision     string   `json:"decision"`
	DowngradedTo string   `json:"downgradedTo"`
	BreakGlass   bool     `json:"breakGlass"`
	SymbolID     string   `json:"symbolId"`
	Reason       string   `json:"reason"`
	Why          []string `json:"why"`
	Lines        []int    `json:"lines"`
	Tokens       int      `json:"tokens"`
}

func auditLog(t *testing.T, x *query.Index) []auditRec {
	t.Helper()
	f, err := os.Open(x.AuditPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []auditRec
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r auditRec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

func need(t *testing.T, x *query.Index, req query.WindowRequest) *query.WindowResponse {
	t.Helper()
	resp, err := x.NeedWindow(context.Background(), req)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	// no answer is above its caps
	if n := len(strings.Split(resp.Code, "\n")); resp.Code != "" && n > resp.Caps.MaxLines {
		t.Fatalf("%d lines over the cap %d:\n%s", n, resp.Caps.MaxLines, resp.Code)
	}
	if n := query.Tokens(resp.Code); n > resp.Caps.MaxTokens || resp.EstimatedTokens != n {
		t.Fatalf("%d tokens (estimated %d), cap %d", n, resp.EstimatedTokens, resp.Caps.MaxTokens)
	}
	return resp
}

func hasText(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func TestWindowIdentifiersFound(t *testing.T) {
	x, _, ids := windowRepo(t, "")
	resp := need(t, x, query.WindowRequest{SymbolID: ids["Store.Add"], Reason: "the full-store check", ExpectedLines: 12,
		IdentifiersToFind: []string{"MaxItems", "nosuch"}})
	if !resp.Approved || resp.DowngradedTo != "" || !hasText(resp.WhyApproved, "identifiers found in the code of Store.Add: MaxItems (not in the code: nosuch)") {
		t.Fatalf("%+v", resp)
	}
	lines := strings.Split(resp.Code, "\n")
	if len(lines) != 10 || !strings.HasPrefix(lines[0], "23  func (s *Store) Add") || !strings.HasPrefix(lines[9], "32  }") {
		t.Errorf("code:\n%s", resp.Code)
	}
	if resp.Range.StartLine != 23 || resp.Range.EndLine != 32 || len(resp.MatchedLineNumbers) != 1 || resp.MatchedLineNumbers[0] != 24 {
		t.Errorf("range %+v, matched lines %v", resp.Range, resp.MatchedLineNumbers)
	}
	if resp.Caps != (query.WindowCaps{MaxLines: 12, MaxTokens: 1400}) || resp.PolicySource != "defaults" {
		t.Errorf("caps %+v from %s", resp.Caps, resp.PolicySource)
	}
	log := auditLog(t, x)
	if len(log) != 1 || log[0].Decision != "approved" || log[0].SymbolID != ids["Store.Add"] || log[0].Reason != "the full-store check" ||
		log[0].Lines[0] != 23 || log[0].Tokens != resp.EstimatedTokens {
		t.Errorf("audit %+v", log)
	}
}

func TestWindowIdentifiersRequired(t *testing.T) {
	x, _, ids := windowRepo(t, "")
	resp := need(t, x, query.WindowRequest{SymbolID: ids["Store.Add"], Reason: "curious", ExpectedLines: 10})
	if resp.Approved || resp.Code != "" || !hasText(resp.WhyDenied, "requires identifiersToFind") || !hasText(resp.WhyDenied, "no sliceContext") {
		t.Fatalf("%+v", resp)
	}
	if a := resp.NextBestAction; a == nil || a.Tool != "sdl.symbol.getCard" || a.Args["symbolId"] != ids["Store.Add"] {
		t.Errorf("next %+v", resp.NextBestAction)
	}
	s := resp.SuggestedNextRequest
	if s == nil || len(s.IdentifiersToFind) == 0 {
		t.Fatalf("suggestion %+v", s)
	}
	if again := need(t, x, *s); !again.Approved {
		t.Errorf("the suggested request %+v is denied: %v", s, again.WhyDenied)
	}
}

func TestWindowIdentifiersMissing(t *testing.T) {
	x, _, ids := windowRepo(t, "")
	resp := need(t, x, query.WindowRequest{SymbolID: ids["Store.Add"], Reason: "r", ExpectedLines: 10, IdentifiersToFind: []string{"tokenExpiry"}})
	if resp.Approved || !hasText(resp.WhyDenied, "none of identifiersToFind (tokenExpiry) is in the code of Store.Add") {
		t.Fatalf("%+v", resp)
	}
	a := resp.NextBestAction
	if a == nil || a.Tool != "sdl.code.getSkeleton" || a.Args["symbolId"] != ids["Store.Add"] {
		t.Errorf("next %+v", a)
	}
	if s := resp.SuggestedNextRequest; s == nil || !need(t, x, *s).Approved || s.BreakGlass {
		t.Errorf("suggestion %+v does not pass", s)
	}
	// only in a string: the hot path shows it
	resp = need(t, x, query.WindowRequest{SymbolID: ids["Store.Add"], Reason: "r", ExpectedLines: 10, IdentifiersToFind: []string{"store"}})
	if resp.Approved || resp.NextBestAction.Tool != "sdl.code.getHotPath" || !hasText(resp.WhyDenied, "only in strings, comments or longer names") {
		t.Errorf("text-only: %+v %+v", resp.WhyDenied, resp.NextBestAction)
	}
	// keywords alone do not count
	resp = need(t, x, query.WindowRequest{SymbolID: ids["Store.Add"], Reason: "r", ExpectedLines: 10, IdentifiersToFind: []string{"if", "return"}})
	if resp.Approved || !hasText(resp.WhyDenied, "only keywords") {
		t.Errorf("keywords: %+v", resp)
	}
	// denied, the suggestion approved, denied, denied
	if log := auditLog(t, x); len(log) != 4 || log[0].Decision != "denied" || log[1].Decision != "approved" ||
		log[2].Decision != "denied" || log[3].Decision != "denied" {
		t.Errorf("denials not audited: %+v", log)
	}
}

func TestWindowSliceContext(t *testing.T) {
	ctx := context.Background()
	x, _, ids := windowRepo(t, "policy:\n  requireIdentifiers: false\n")
	add := ids["Store.Add"]
	resp := need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 10,
		SliceContext: &query.SliceContext{SymbolIDs: []string{ids["Store.Get"], add}}})
	if !resp.Approved || !hasText(resp.WhyApproved, "listed in sliceContext.symbolIds") {
		t.Fatalf("symbolIds: %+v", resp)
	}
	resp = need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 10,
		SliceContext: &query.SliceContext{SymbolIDs: []string{ids["Store.Get"]}}})
	if resp.Approved || !hasText(resp.WhyDenied, "not among sliceContext.symbolIds") {
		t.Fatalf("other symbolIds: %+v", resp)
	}
	// a slice handle: the slice is rebuilt from it
	sl, err := x.BuildSlice(ctx, query.SliceRequest{EntrySymbols: []string{add}})
	if err != nil {
		t.Fatal(err)
	}
	resp = need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 10,
		SliceContext: &query.SliceContext{SliceHandle: sl.SliceHandle}})
	if !resp.Approved || !hasText(resp.WhyApproved, "of slice "+sl.SliceHandle) {
		t.Fatalf("handle: %+v", resp)
	}
	resp = need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 10,
		SliceContext: &query.SliceContext{SliceHandle: "sl_0000000000"}})
	if resp.Approved || !hasText(resp.WhyDenied, "sliceContext.sliceHandle") {
		t.Fatalf("unknown handle: %+v", resp)
	}
	// the task's text: the slice built for it
	resp = need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 10,
		SliceContext: &query.SliceContext{TaskText: "Store.Add puts an item in the store and saves it"}})
	if !resp.Approved || !hasText(resp.WhyApproved, "slice for sliceContext.taskText") {
		t.Fatalf("task text: %+v", resp)
	}
}

// TestWindowSliceNeedsIdentifiers: with requireIdentifiers, a symbol in the
// slice still needs identifiers named, found or not.
func TestWindowSliceNeedsIdentifiers(t *testing.T) {
	x, _, ids := windowRepo(t, "")
	add := ids["Store.Add"]
	sc := &query.SliceContext{SymbolIDs: []string{add}}
	resp := need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 10, SliceContext: sc})
	if resp.Approved || !hasText(resp.WhyDenied, "in the slice context (listed in sliceContext.symbolIds), but the policy requires identifiersToFind") {
		t.Fatalf("%+v", resp)
	}
	resp = need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 10, SliceContext: sc, IdentifiersToFind: []string{"nosuch"}})
	if !resp.Approved || !hasText(resp.WhyApproved, "slice context") {
		t.Fatalf("%+v", resp)
	}
}

func TestWindowCaps(t *testing.T) {
	x, root, ids := windowRepo(t, "")
	add := ids["Store.Add"]
	resp := need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 10000, MaxTokens: 99999, IdentifiersToFind: []string{"items"}})
	if resp.Caps != (query.WindowCaps{MaxLines: 180, MaxTokens: 1400}) || !resp.Approved || resp.DowngradedTo != "" {
		t.Errorf("defaults clamp: %+v", resp.Caps)
	}
	writePolicy(t, root, "# team policy\npolicy:\n  maxWindowLines: 6\n  maxWindowTokens: 60\n")
	resp = need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 50, IdentifiersToFind: []string{"items"}})
	if resp.Caps != (query.WindowCaps{MaxLines: 6, MaxTokens: 60}) || resp.PolicySource != ".sdl/config.yaml" {
		t.Errorf("file clamp: %+v from %s", resp.Caps, resp.PolicySource)
	}
	// Store.Add has 10 lines: over the cap, the identifiers' lines instead
	if !resp.Approved || resp.DowngradedFrom != "rawWindow" || resp.DowngradedTo != "hotPath" || !resp.Truncated ||
		!strings.HasPrefix(resp.Code, "23  func (s *Store) Add") {
		t.Errorf("downgrade: %+v", resp)
	}
	// a token cap below the window's size downgrades too
	resp = need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 6, MaxTokens: 50, IdentifiersToFind: []string{"ErrFull"}})
	if resp.Caps.MaxTokens != 50 || resp.DowngradedTo != "hotPath" {
		t.Errorf("token cap: %+v", resp)
	}
	// within the caps: the raw window
	resp = need(t, x, query.WindowRequest{SymbolID: ids["Store.Get"], Reason: "r", ExpectedLines: 6, IdentifiersToFind: []string{"items"}})
	if !resp.Approved || resp.DowngradedTo != "" || len(strings.Split(resp.Code, "\n")) != 4 {
		t.Errorf("small window: %+v", resp)
	}
	if log := auditLog(t, x); len(log) != 4 || log[1].Decision != "downgraded" || log[1].DowngradedTo != "hotPath" || log[3].Decision != "approved" {
		t.Errorf("audit %+v", log)
	}
}

func TestWindowBreakGlass(t *testing.T) {
	x, root, ids := windowRepo(t, "")
	add := ids["Store.Add"]
	resp := need(t, x, query.WindowRequest{SymbolID: add, Reason: "prod incident", ExpectedLines: 10, BreakGlass: true})
	if resp.Approved || !hasText(resp.WhyDenied, "break-glass is disabled by the policy") {
		t.Fatalf("break-glass not allowed: %+v", resp)
	}
	if resp.SuggestedNextRequest == nil || resp.SuggestedNextRequest.BreakGlass {
		t.Errorf("suggestion %+v", resp.SuggestedNextRequest)
	}
	writePolicy(t, root, "policy:\n  allowBreakGlass: true\n  maxWindowLines: 4\n")
	resp = need(t, x, query.WindowRequest{SymbolID: add, Reason: "prod incident", ExpectedLines: 10, BreakGlass: true})
	if !resp.Approved || !hasText(resp.WhyApproved, "break-glass, allowed by the policy") {
		t.Fatalf("break-glass allowed: %+v", resp)
	}
	// no identifier to show: over the 4-line cap the skeleton stands in
	if resp.DowngradedTo != "skeleton" || !strings.HasPrefix(resp.Code, "func (s *Store) Add(item *Item) error {") {
		t.Errorf("downgrade: %+v", resp)
	}
	log := auditLog(t, x)
	if len(log) != 2 || log[0].Decision != "denied" || !log[1].BreakGlass || log[1].Decision != "downgraded" || log[1].DowngradedTo != "skeleton" {
		t.Errorf("audit %+v", log)
	}
	// with break-glass allowed, a denied request's suggestion may use it
	resp = need(t, x, query.WindowRequest{SymbolID: ids["Repository"], Reason: "r", ExpectedLines: 3, IdentifiersToFind: []string{"nosuch"}})
	if resp.Approved || resp.SuggestedNextRequest == nil || !need(t, x, *resp.SuggestedNextRequest).Approved {
		t.Errorf("suggestion: %+v", resp.SuggestedNextRequest)
	}
}

func TestWindowGranularity(t *testing.T) {
	x, _, ids := windowRepo(t, "")
	add := ids["Store.Add"]
	resp := need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 10, IdentifiersToFind: []string{"ErrFull"}, Granularity: query.GranularityBlock})
	if !resp.Approved || resp.Range.StartLine != 24 || resp.Range.EndLine != 26 || !strings.HasPrefix(resp.Code, "24  \tif len(s.items) >= MaxItems {") {
		t.Errorf("block: %+v\n%s", resp.Range, resp.Code)
	}
	resp = need(t, x, query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 9, IdentifiersToFind: []string{"panic"}, Granularity: query.GranularityFileWindow})
	// centred on line 28: 9 lines from 25
	if !resp.Approved || resp.Range.StartLine != 25 || resp.Range.EndLine != 33 || len(strings.Split(resp.Code, "\n")) != 9 {
		t.Errorf("fileWindow: %+v\n%s", resp.Range, resp.Code)
	}
}

func TestWindowValidation(t *testing.T) {
	x, root, ids := windowRepo(t, "")
	add := ids["Store.Add"]
	many := make([]string, 51)
	for i := range many {
		many[i] = "x"
	}
	for _, tc := range []struct {
		req   query.WindowRequest
		field string
	}{
		{query.WindowRequest{Reason: "r", ExpectedLines: 1}, "symbolId"},
		{query.WindowRequest{SymbolID: add, Reason: "  ", ExpectedLines: 1}, "reason"},
		{query.WindowRequest{SymbolID: add, Reason: "r"}, "expectedLines"},
		{query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 1, IdentifiersToFind: many}, "identifiersToFind"},
		{query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 1, Granularity: "page"}, "granularity"},
		{query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 1, MaxTokens: -1}, "maxTokens"},
	} {
		_, err := x.NeedWindow(context.Background(), tc.req)
		if !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), ": "+tc.field+": ") {
			t.Errorf("%+v: err %v, want ErrInvalid naming %s", tc.req, err, tc.field)
		}
	}
	if log := auditLog(t, x); len(log) != 0 {
		t.Errorf("invalid requests audited: %+v", log)
	}
	// a broken policy file is an error naming the file and the line
	writePolicy(t, root, "policy:\n  maxWindowLines: many\n")
	_, err := x.NeedWindow(context.Background(), query.WindowRequest{SymbolID: add, Reason: "r", ExpectedLines: 1, IdentifiersToFind: []string{"items"}})
	if !errors.Is(err, query.ErrConfig) || !strings.Contains(err.Error(), ".sdl/config.yaml:2: policy.maxWindowLines") {
		t.Errorf("broken policy: %v", err)
	}
}

// TestWindowAuditRequired: code is served only once its access is
// recorded; a denial, which serves none, still answers.
func TestWindowAuditRequired(t *testing.T) {
	x, _, ids := windowRepo(t, "")
	if err := os.Mkdir(x.AuditPath(), 0o755); err != nil { // a directory cannot be appended to
		t.Fatal(err)
	}
	_, err := x.NeedWindow(context.Background(), query.WindowRequest{SymbolID: ids["Store.Add"], Reason: "r", ExpectedLines: 10, IdentifiersToFind: []string{"items"}})
	if err == nil || !strings.Contains(err.Error(), "audit log") {
		t.Errorf("approved without an audit record: %v", err)
	}
	resp := need(t, x, query.WindowRequest{SymbolID: ids["Store.Add"], Reason: "r", ExpectedLines: 10, IdentifiersToFind: []string{"nosuch"}})
	if resp.Approved || !hasText(resp.Warnings, "audit log") {
		t.Errorf("denial: %+v", resp)
	}
}
