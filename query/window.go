package query

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sdl-dev/sdl/lang"
)

// A raw window (rung 4) is the last resort of the ladder: a request must
// say why it needs raw code, and the policy decides. The request is
// approved when the identifiers it names are in the symbol's code, when the
// symbol is in the task's slice, or on break-glass where the policy allows
// it; an approved window larger than the caps is downgraded to a hot path
// or a skeleton; anything else is denied with the call to make instead.
// Every decision is appended to .sdl/audit.jsonl beside the index.

// Granularities of a window.
const (
	GranularitySymbol     = "symbol"     // the symbol's lines
	GranularityBlock      = "block"      // the smallest block holding every match
	GranularityFileWindow = "fileWindow" // lines of the file around the first match
)

// WindowRequest asks for raw code (sdl.code.needWindow).
type WindowRequest struct {
	SymbolID          string        `json:"symbolId"`
	Reason            string        `json:"reason"`
	ExpectedLines     int           `json:"expectedLines"`
	IdentifiersToFind []string      `json:"identifiersToFind,omitempty"`
	Granularity       string        `json:"granularity,omitempty"`
	MaxTokens         int           `json:"maxTokens,omitempty"`
	SliceContext      *SliceContext `json:"sliceContext,omitempty"`
	// BreakGlass bypasses the rules when the policy allows it; audited.
	BreakGlass bool `json:"breakGlass,omitempty"`
}

// SliceContext is the task a window is for. A symbol in it is approved:
// listed in symbolIds, or a card or frontier symbol of the slice that
// sliceHandle names (rebuilt from the handle), or of the slice built for
// taskText.
type SliceContext struct {
	TaskText    string   `json:"taskText,omitempty"`
	SliceHandle string   `json:"sliceHandle,omitempty"`
	SymbolIDs   []string `json:"symbolIds,omitempty"`
}

// WindowResponse is an approved window (or its downgrade), or a denial.
type WindowResponse struct {
	Approved        bool     `json:"approved"`
	SymbolID        string   `json:"symbolId"`
	File            string   `json:"file,omitempty"`
	Range           *Range   `json:"range,omitempty"`
	Code            string   `json:"code,omitempty"`
	WhyApproved     []string `json:"whyApproved,omitempty"`
	EstimatedTokens int      `json:"estimatedTokens"`
	// DowngradedFrom is set when the window was too large for the caps:
	// "rawWindow"; DowngradedTo says what was sent instead: "hotPath" or
	// "skeleton".
	DowngradedFrom     string   `json:"downgradedFrom,omitempty"`
	DowngradedTo       string   `json:"downgradedTo,omitempty"`
	MatchedIdentifiers []string `json:"matchedIdentifiers,omitempty"`
	MatchedLineNumbers []int    `json:"matchedLineNumbers,omitempty"`
	Truncated          bool     `json:"truncated,omitempty"`

	WhyDenied            []string        `json:"whyDenied,omitempty"`
	SuggestedNextRequest *WindowRequest  `json:"suggestedNextRequest,omitempty"`
	NextBestAction       *NextBestAction `json:"nextBestAction,omitempty"`

	// Caps are the limits the answer was held to: the request's, clamped
	// to the policy.
	Caps          WindowCaps `json:"caps"`
	PolicySource  string     `json:"policySource"`
	Warnings      []string   `json:"warnings,omitempty"`
	LedgerVersion string     `json:"ledgerVersion"`
	StaleFiles    []string   `json:"staleFiles,omitempty"`
}

// WindowCaps are the effective limits of a window.
type WindowCaps struct {
	MaxLines  int `json:"maxLines"`
	MaxTokens int `json:"maxTokens"`
}

// NextBestAction is the call to make instead of a denied window.
type NextBestAction struct {
	Tool      string         `json:"tool"`
	Args      map[string]any `json:"args"`
	Rationale string         `json:"rationale"`
}

// Decisions, as audited.
const (
	decisionApproved   = "approved"
	decisionDowngraded = "downgraded"
	decisionDenied     = "denied"
)

func (req *WindowRequest) validate() error {
	if strings.TrimSpace(req.SymbolID) == "" {
		return invalidf("symbolId", "must be a symbol id (find one with sdl.symbol.search)")
	}
	if strings.TrimSpace(req.Reason) == "" {
		return invalidf("reason", "say why raw code is needed, e.g. \"exact branch logic of the timeout check\"")
	}
	if len(req.Reason) > 2000 {
		return invalidf("reason", "at most 2000 bytes")
	}
	if req.ExpectedLines < 1 {
		return invalidf("expectedLines", "must be at least 1: how many lines you expect to need")
	}
	if err := checkIdentifiers("identifiersToFind", req.IdentifiersToFind, false); err != nil {
		return err
	}
	switch req.Granularity {
	case "", GranularitySymbol, GranularityBlock, GranularityFileWindow:
	default:
		return invalidf("granularity", "%q is not a granularity; use symbol, block or fileWindow", req.Granularity)
	}
	if req.MaxTokens < 0 {
		return invalidf("maxTokens", "must be positive, got %d", req.MaxTokens)
	}
	if c := req.SliceContext; c != nil && len(c.SymbolIDs) > 500 {
		return invalidf("sliceContext.symbolIds", "at most 500 ids, got %d", len(c.SymbolIDs))
	}
	return nil
}

// verdict is the policy's judgement of a request.
type verdict struct {
	approved  bool
	why, deny []string
	hits      identHits
}

// judge applies the policy's rules to a request for the symbol at [a, b)
// of src.
func (x *Index) judge(ctx context.Context, req *WindowRequest, pol Policy, row *symbolRow, src *source, a, b uint32) verdict {
	var v verdict
	v.hits = findIdentifiers(src, a, b, req.IdentifiersToFind)
	identsOK := true
	if pol.RequireIdentifiers && len(req.IdentifiersToFind) == 0 {
		identsOK = false
		v.deny = append(v.deny, "the policy requires identifiersToFind (requireIdentifiers: true): name the identifiers you expect in the code")
	}
	found := false
	switch {
	case len(req.IdentifiersToFind) == 0:
	case len(v.hits.named) > 0:
		found = true
		why := "identifiers found in the code of " + row.Qualified + ": " + strings.Join(v.hits.ast, ", ")
		if miss := append(append([]string{}, v.hits.text...), v.hits.missing...); len(miss) > 0 {
			why += " (not in the code: " + strings.Join(miss, ", ") + ")"
		}
		v.why = append(v.why, why)
	case len(v.hits.ast) > 0:
		v.deny = append(v.deny, "only keywords of identifiersToFind ("+strings.Join(v.hits.ast, ", ")+") are in the code of "+row.Qualified+"; name a variable, field, function or type")
	default:
		what := "none of identifiersToFind (" + strings.Join(req.IdentifiersToFind, ", ") + ") is in the code of " + row.Qualified
		if len(v.hits.text) > 0 {
			what += "; " + strings.Join(v.hits.text, ", ") + " only in strings, comments or longer names"
		}
		v.deny = append(v.deny, what)
	}
	inSlice, how := x.inSliceContext(ctx, req.SliceContext, row.ID)
	switch {
	case inSlice && identsOK:
		v.why = append(v.why, "the symbol is in the slice context ("+how+")")
	case inSlice:
		v.deny = append(v.deny, "the symbol is in the slice context ("+how+"), but the policy requires identifiersToFind")
	default:
		v.deny = append(v.deny, how)
	}
	breakGlass := false
	if req.BreakGlass {
		if pol.AllowBreakGlass {
			breakGlass = true
			v.why = append(v.why, "break-glass, allowed by the policy (allowBreakGlass: true) and audited")
		} else {
			v.deny = append(v.deny, "break-glass is disabled by the policy (allowBreakGlass: false); a maintainer can allow it with sdl policy set allowBreakGlass=true")
		}
	}
	v.approved = breakGlass || identsOK && (found || inSlice)
	return v
}

// inSliceContext reports whether a symbol is in the request's slice
// context, and how; when it is not, the text says why.
func (x *Index) inSliceContext(ctx context.Context, sc *SliceContext, id string) (bool, string) {
	if sc == nil || len(sc.SymbolIDs) == 0 && strings.TrimSpace(sc.SliceHandle) == "" && strings.TrimSpace(sc.TaskText) == "" {
		return false, "no sliceContext: a symbol in the task's slice (sliceHandle, symbolIds or taskText) is approved"
	}
	for _, s := range sc.SymbolIDs {
		if s == id {
			return true, "listed in sliceContext.symbolIds"
		}
	}
	var reasons []string
	if len(sc.SymbolIDs) > 0 {
		reasons = append(reasons, "not among sliceContext.symbolIds")
	}
	if h := strings.TrimSpace(sc.SliceHandle); h != "" {
		req, _, err := x.sliceRequestOf(h)
		if err != nil {
			reasons = append(reasons, "sliceContext.sliceHandle: "+err.Error())
		} else if in, where := x.sliceHolds(ctx, *req, id); in {
			return true, where + " of slice " + shortHandle(h)
		} else {
			reasons = append(reasons, "not in slice "+shortHandle(h)+" or its frontier")
		}
	}
	if t := strings.TrimSpace(sc.TaskText); t != "" && strings.TrimSpace(sc.SliceHandle) == "" {
		if in, where := x.sliceHolds(ctx, SliceRequest{TaskText: t}, id); in {
			return true, where + " of the slice for sliceContext.taskText"
		}
		reasons = append(reasons, "not in the slice for sliceContext.taskText or its frontier")
	}
	return false, "the symbol is " + strings.Join(reasons, "; ")
}

// sliceHolds builds a slice and reports whether id is one of its cards or
// on its frontier.
func (x *Index) sliceHolds(ctx context.Context, req SliceRequest, id string) (bool, string) {
	resp, err := x.BuildSlice(ctx, req)
	if err != nil {
		return false, ""
	}
	for _, c := range resp.Slice.Cards {
		if c.SymbolID == id {
			return true, "a card"
		}
	}
	for _, r := range resp.Slice.CardRefs {
		if r.SymbolID == id {
			return true, "a card"
		}
	}
	for _, f := range resp.Slice.Frontier {
		if f.SymbolID == id {
			return true, "on the frontier"
		}
	}
	return false, ""
}

// NeedWindow decides a request for raw code and answers it.
func (x *Index) NeedWindow(ctx context.Context, req WindowRequest) (*WindowResponse, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	info, err := x.Policy()
	if err != nil {
		return nil, err
	}
	pol := info.Policy
	ver, err := x.Current(ctx)
	if err != nil {
		return nil, err
	}
	row, src, a, b, warnings, err := x.symbolSource(ctx, req.SymbolID)
	if err != nil {
		return nil, err
	}
	defer src.close()
	caps := WindowCaps{MaxLines: min(req.ExpectedLines, pol.MaxWindowLines), MaxTokens: pol.MaxWindowTokens}
	if req.MaxTokens > 0 {
		caps.MaxTokens = min(req.MaxTokens, pol.MaxWindowTokens)
	}
	resp := &WindowResponse{SymbolID: row.ID, File: src.path, Caps: caps, PolicySource: info.Source,
		LedgerVersion: ver.ID, Warnings: warnings}
	resp.StaleFiles = x.staleFiles(ctx, []string{src.path})
	if len(resp.StaleFiles) > 0 {
		resp.Warnings = append(resp.Warnings, src.path+" changed on disk since "+ver.ID+": the code is the file as it is now (run sdl index)")
	}
	v := x.judge(ctx, &req, pol, row, src, a, b)
	if !v.approved {
		resp.WhyDenied = v.deny
		resp.SuggestedNextRequest = x.suggest(ctx, &req, pol, row, src, a, b)
		resp.NextBestAction = nextBestAction(&req, row, v)
		x.audit(req, resp, row, decisionDenied)
		return resp, nil
	}
	resp.Approved, resp.WhyApproved = true, v.why
	resp.MatchedIdentifiers, resp.MatchedLineNumbers = v.hits.ast, v.hits.lines
	first, last := src.lineOf(a), src.lineOf(max(b, a+1)-1)
	lo, hi := windowLines(src, req.Granularity, first, last, a, b, v.hits, caps.MaxLines)
	width := len(fmt.Sprint(hi))
	lines := make([]string, 0, hi-lo+1)
	for n := lo; n <= hi; n++ {
		lines = append(lines, numbered(width, n, src.line(n)))
	}
	code := strings.Join(lines, "\n")
	if len(lines) <= caps.MaxLines && Tokens(code) <= caps.MaxTokens {
		resp.Code = code
		resp.Range = &Range{StartLine: lo, EndLine: hi}
		resp.EstimatedTokens = Tokens(code)
		if err := x.audit(req, resp, row, decisionApproved); err != nil {
			return nil, err
		}
		return resp, nil
	}
	// too large for the caps: the lines that matter, or the shape
	resp.DowngradedFrom = "rawWindow"
	why := fmt.Sprintf("the window (%d lines, %d tokens) exceeds the caps (%d lines, %d tokens)",
		len(lines), Tokens(code), caps.MaxLines, caps.MaxTokens)
	if len(v.hits.lines) > 0 {
		resp.DowngradedTo = "hotPath"
		resp.Code, resp.Truncated, err = excerpt(src, first, last, v.hits.lines, DefaultContextLines, caps.MaxLines, caps.MaxTokens)
		why += ": sent the lines holding the identifiers, with context"
	} else {
		resp.DowngradedTo = "skeleton"
		all := lang.Skeleton(src.tree, a, b, lang.SkeletonOptions{})
		texts := make([]string, len(all))
		for i, l := range all {
			texts[i] = cutLine(l.Text)
		}
		var k int
		resp.Code, k = fitLines(texts, caps.MaxLines, caps.MaxTokens)
		resp.Truncated = k < len(texts)
		why += ": sent the skeleton"
	}
	if err != nil {
		return nil, err
	}
	if req.ExpectedLines < last-first+1 && last-first+1 <= pol.MaxWindowLines {
		why += fmt.Sprintf(" (the symbol has %d lines: ask with expectedLines %d for all of it)", last-first+1, last-first+1)
	}
	resp.WhyApproved = append(resp.WhyApproved, why)
	resp.Range = &Range{StartLine: first, EndLine: last}
	resp.EstimatedTokens = Tokens(resp.Code)
	if err := x.audit(req, resp, row, decisionDowngraded); err != nil {
		return nil, err
	}
	return resp, nil
}

// windowLines picks the lines of a window.
func windowLines(src *source, granularity string, first, last int, a, b uint32, hits identHits, maxLines int) (int, int) {
	switch granularity {
	case GranularityBlock:
		var nodes []int32
		for _, m := range hits.matches {
			if !m.Keyword {
				nodes = append(nodes, m.Node)
			}
		}
		if lo, hi, ok := lang.Block(src.tree, a, b, nodes); ok {
			return src.lineOf(lo), src.lineOf(max(hi, lo+1) - 1)
		}
	case GranularityFileWindow:
		centre := first
		if len(hits.lines) > 0 {
			centre = hits.lines[0]
		}
		lo := max(1, centre-maxLines/3)
		hi := min(src.lines(), lo+maxLines-1)
		lo = max(1, min(lo, hi-maxLines+1))
		return lo, hi
	}
	return first, last
}

// suggest finds a request that the policy approves: the same request
// naming identifiers that are in the code, or break-glass where allowed.
func (x *Index) suggest(ctx context.Context, req *WindowRequest, pol Policy, row *symbolRow, src *source, a, b uint32) *WindowRequest {
	s := *req
	s.ExpectedLines = min(max(req.ExpectedLines, src.lineOf(max(b, a+1)-1)-src.lineOf(a)+1), pol.MaxWindowLines)
	s.BreakGlass = false
	if ids := distinctiveIdentifiers(src, a, b, row.Name, 3); len(ids) > 0 {
		s.IdentifiersToFind = ids
		if x.judge(ctx, &s, pol, row, src, a, b).approved {
			return &s
		}
	}
	if pol.AllowBreakGlass {
		s.IdentifiersToFind = req.IdentifiersToFind
		s.BreakGlass = true
		return &s
	}
	return nil
}

// distinctiveIdentifiers picks up to n names that the code of a symbol
// uses most, longer names first among equals; not the symbol's own name.
func distinctiveIdentifiers(src *source, a, b uint32, own string, n int) []string {
	t := src.tree
	count := map[string]int{}
	order := map[string]int{}
	for i := int32(0); i < t.Len(); i++ {
		nd := &t.Nodes[i]
		if nd.StartByte < a || nd.EndByte > b || !t.IsIdent(i) {
			continue
		}
		name := t.Text(i)
		if len(name) < 3 || name == own || name == "self" || name == "this" {
			continue
		}
		if _, ok := order[name]; !ok {
			order[name] = len(order)
		}
		count[name]++
	}
	names := make([]string, 0, len(count))
	for k := range count {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		ci, cj := count[names[i]], count[names[j]]
		if ci != cj {
			return ci > cj
		}
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return order[names[i]] < order[names[j]]
	})
	return names[:min(n, len(names))]
}

// nextBestAction names the cheaper call that answers what a denied
// window was for.
func nextBestAction(req *WindowRequest, row *symbolRow, v verdict) *NextBestAction {
	switch {
	case len(v.hits.text) > 0:
		return &NextBestAction{Tool: "sdl.code.getHotPath",
			Args:      map[string]any{"symbolId": row.ID, "identifiersToFind": v.hits.text, "contextLines": DefaultContextLines},
			Rationale: "the identifiers occur only in strings, comments or longer names; the hot path shows those lines with context"}
	case len(req.IdentifiersToFind) > 0:
		return &NextBestAction{Tool: "sdl.code.getSkeleton",
			Args:      map[string]any{"symbolId": row.ID, "identifiersToFind": req.IdentifiersToFind},
			Rationale: "none of the identifiers is in " + row.Qualified + "; its skeleton shows the names and control flow it does have, for a fraction of the tokens"}
	}
	return &NextBestAction{Tool: "sdl.symbol.getCard",
		Args:      map[string]any{"symbolId": row.ID, "detail": DetailCompact},
		Rationale: "start with the card of " + row.Qualified + " (signature, summary, dependencies); then the skeleton, then a hot path for the identifiers you need"}
}

// auditRecord is one line of .sdl/audit.jsonl.
type auditRecord struct {
	Time          string   `json:"time"`
	Tool          string   `json:"tool"`
	RepoID        string   `json:"repoId,omitempty"`
	LedgerVersion string   `json:"ledgerVersion"`
	SymbolID      string   `json:"symbolId"`
	Symbol        string   `json:"symbol"`
	File          string   `json:"file"`
	Decision      string   `json:"decision"`
	DowngradedTo  string   `json:"downgradedTo,omitempty"`
	BreakGlass    bool     `json:"breakGlass,omitempty"`
	Reason        string   `json:"reason"`
	ExpectedLines int      `json:"expectedLines"`
	Identifiers   []string `json:"identifiers,omitempty"`
	Granularity   string   `json:"granularity,omitempty"`
	Why           []string `json:"why"`
	Lines         []int    `json:"lines,omitempty"` // first and last line served
	Tokens        int      `json:"tokens"`
}

// AuditPath is the audit log of an index: beside it, in .sdl.
func (x *Index) AuditPath() string { return filepath.Join(filepath.Dir(x.Path), "audit.jsonl") }

// audit appends a decision to the audit log. Code is only served once its
// access is recorded: a failure is an error for approvals, and a warning on
// a denial, which serves nothing.
func (x *Index) audit(req WindowRequest, resp *WindowResponse, row *symbolRow, decision string) error {
	rec := auditRecord{Time: time.Now().UTC().Format(time.RFC3339Nano), Tool: "sdl.code.needWindow", RepoID: x.RepoID,
		LedgerVersion: resp.LedgerVersion, SymbolID: row.ID, Symbol: row.Qualified, File: row.Path, Decision: decision,
		DowngradedTo: resp.DowngradedTo, BreakGlass: req.BreakGlass, Reason: req.Reason, ExpectedLines: req.ExpectedLines,
		Identifiers: req.IdentifiersToFind, Granularity: req.Granularity, Tokens: resp.EstimatedTokens}
	if resp.Approved {
		rec.Why = resp.WhyApproved
	} else {
		rec.Why = resp.WhyDenied
	}
	if resp.Range != nil {
		rec.Lines = []int{resp.Range.StartLine, resp.Range.EndLine}
	}
	line, err := json.Marshal(rec)
	if err == nil {
		err = appendLine(x.AuditPath(), line)
	}
	if err != nil {
		err = fmt.Errorf("audit log %s: %w (windows are only served when recorded)", x.AuditPath(), err)
		if !resp.Approved {
			resp.Warnings = append(resp.Warnings, err.Error())
			return nil
		}
		return err
	}
	return nil
}

// appendLine appends one line to an append-only file in one write, which
// O_APPEND keeps whole among concurrent writers.
func appendLine(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(append(line, '\n'))
	cerr := f.Close()
	return errors.Join(werr, cerr)
}
