package query

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// DefaultContextLines is how many lines around each hot-path match are
// shown when the request does not say.
const DefaultContextLines = 3

// maxContextLines bounds contextLines: beyond it, ask for a window.
const maxContextLines = 100

// HotPathRequest asks for the lines of a symbol that use some identifiers
// (sdl.code.getHotPath).
type HotPathRequest struct {
	SymbolID          string   `json:"symbolId"`
	IdentifiersToFind []string `json:"identifiersToFind"`
	ContextLines      *int     `json:"contextLines,omitempty"`
	MaxLines          int      `json:"maxLines,omitempty"`
	MaxTokens         int      `json:"maxTokens,omitempty"`
}

// HotPathResponse is a hot-path excerpt.
type HotPathResponse struct {
	Excerpt         string `json:"excerpt"`
	File            string `json:"file"`
	SymbolID        string `json:"symbolId"`
	Range           Range  `json:"range"`
	EstimatedTokens int    `json:"estimatedTokens"`
	// MatchedIdentifiers were found as tokens of the code (the AST).
	MatchedIdentifiers []string `json:"matchedIdentifiers"`
	// TextMatchedIdentifiers were not found in the code, only as text: in
	// strings, in comments or inside longer names. Their lines are shown.
	TextMatchedIdentifiers []string `json:"textMatchedIdentifiers,omitempty"`
	// NotFound were found nowhere in the symbol.
	NotFound           []string `json:"notFound,omitempty"`
	MatchedLineNumbers []int    `json:"matchedLineNumbers"`
	Truncated          bool     `json:"truncated"`
	Warnings           []string `json:"warnings,omitempty"`
	LedgerVersion      string   `json:"ledgerVersion"`
	StaleFiles         []string `json:"staleFiles,omitempty"`
}

// HotPath returns the lines of a symbol holding the given identifiers, with
// context lines around them and "⋮ N lines" where lines are skipped.
func (x *Index) HotPath(ctx context.Context, req HotPathRequest) (*HotPathResponse, error) {
	if err := checkIdentifiers("identifiersToFind", req.IdentifiersToFind, true); err != nil {
		return nil, err
	}
	ctxLines := DefaultContextLines
	if req.ContextLines != nil {
		ctxLines = *req.ContextLines
	}
	if ctxLines < 0 || ctxLines > maxContextLines {
		return nil, invalidf("contextLines", "must be between 0 and %d, got %d", maxContextLines, ctxLines)
	}
	if req.MaxLines < 0 {
		return nil, invalidf("maxLines", "must be positive, got %d", req.MaxLines)
	}
	maxTokens, err := budget("maxTokens", req.MaxTokens, DefaultHotPathTokens)
	if err != nil {
		return nil, err
	}
	ver, err := x.Current(ctx)
	if err != nil {
		return nil, err
	}
	row, src, a, b, warnings, err := x.symbolSource(ctx, req.SymbolID)
	if err != nil {
		return nil, err
	}
	defer src.close()
	resp := &HotPathResponse{File: src.path, SymbolID: row.ID, Range: row.Range, LedgerVersion: ver.ID, Warnings: warnings}
	resp.StaleFiles = x.staleFiles(ctx, []string{src.path})
	hp := findIdentifiers(src, a, b, req.IdentifiersToFind)
	resp.MatchedIdentifiers, resp.TextMatchedIdentifiers, resp.NotFound = hp.ast, hp.text, hp.missing
	if resp.MatchedIdentifiers == nil {
		resp.MatchedIdentifiers = []string{}
	}
	resp.MatchedLineNumbers = hp.lines
	first, last := src.lineOf(a), src.lineOf(max(b, a+1)-1)
	resp.Excerpt, resp.Truncated, err = excerpt(src, first, last, hp.lines, ctxLines, req.MaxLines, maxTokens)
	if err != nil {
		return nil, err
	}
	resp.EstimatedTokens = Tokens(resp.Excerpt)
	return resp, nil
}

// identHits are the identifiers found in a range.
type identHits struct {
	ast, text, missing []string
	lines              []int // sorted source lines holding a match of either sort
	matches            []lang.IdentMatch
	named              []string // AST matches that are names, not keywords
}

// findIdentifiers matches identifiers as tokens of the code; one with no
// token anywhere in the range falls back to its text: a whole word first
// (in strings and comments), then any occurrence (inside longer names).
func findIdentifiers(src *source, a, b uint32, ids []string) identHits {
	var h identHits
	h.matches = lang.MatchIdentifiers(src.tree, a, b, ids)
	byName := map[string]bool{}
	named := map[string]bool{}
	lines := map[int]bool{}
	for _, m := range h.matches {
		key := m.Name
		byName[key] = true
		if !m.Keyword {
			named[key] = true
		}
		lines[m.Line] = true
	}
	first, last := src.lineOf(a), src.lineOf(max(b, a+1)-1)
	seen := map[string]bool{}
	for _, id := range ids {
		norm := id
		if strings.ContainsAny(id, ".:") {
			norm = strings.Join(strings.Fields(id), "")
		}
		if seen[norm] {
			continue
		}
		seen[norm] = true
		if byName[norm] {
			h.ast = append(h.ast, id)
			if named[norm] {
				h.named = append(h.named, id)
			}
			continue
		}
		var hit []int
		for _, whole := range []bool{true, false} {
			for n := first; n <= last; n++ {
				l := src.line(n)
				if whole && lang.WordAt(l, id) || !whole && strings.Contains(l, id) {
					hit = append(hit, n)
				}
			}
			if len(hit) > 0 {
				break
			}
		}
		if len(hit) == 0 {
			h.missing = append(h.missing, id)
			continue
		}
		h.text = append(h.text, id)
		for _, n := range hit {
			lines[n] = true
		}
	}
	for n := range lines {
		h.lines = append(h.lines, n)
	}
	sort.Ints(h.lines)
	if h.lines == nil {
		h.lines = []int{}
	}
	return h
}

// lineOf is the 1-based line of a byte offset.
func (s *source) lineOf(off uint32) int {
	return sort.Search(len(s.lineStarts), func(i int) bool { return s.lineStarts[i] > int(off) })
}

// excerpt renders lines first..last that are within ctx lines of a hit,
// plus the first line (the symbol's header), numbered, with "⋮ N lines"
// for each run of skipped lines, cut to the budgets.
func excerpt(src *source, first, last int, hits []int, ctx, maxLines, maxTokens int) (string, bool, error) {
	show := map[int]bool{first: true}
	for _, h := range hits {
		for n := max(first, h-ctx); n <= min(last, h+ctx); n++ {
			show[n] = true
		}
	}
	width := len(fmt.Sprint(last))
	var out []string
	gap := 0
	for n := first; n <= last; n++ {
		if !show[n] {
			gap++
			continue
		}
		if gap > 0 {
			out = append(out, gapLine(gap))
			gap = 0
		}
		out = append(out, numbered(width, n, src.line(n)))
	}
	if gap > 0 {
		out = append(out, gapLine(gap))
	}
	text, k := fitLines(out, maxLines, maxTokens)
	if k == 0 && len(out) > 0 {
		return "", false, invalidf("maxTokens", "%d tokens cannot hold the first line of the excerpt (%d tokens); send more", maxTokens, Tokens(out[0]))
	}
	truncated := k < len(out)
	if truncated && k > 1 && strings.HasPrefix(out[k-1], "⋮") {
		// a page that ends on a gap says nothing of what follows it
		text, k = fitLines(out[:k-1], maxLines, maxTokens)
	}
	return text, truncated, nil
}

func gapLine(n int) string {
	if n == 1 {
		return "⋮ 1 line"
	}
	return fmt.Sprintf("⋮ %d lines", n)
}

// numbered renders one source line with its number.
func numbered(width, n int, text string) string {
	return fmt.Sprintf("%*d  %s", width, n, cutLine(text))
}

// SymbolCode describes the code of a symbol as it is now: its identifiers
// (distinct, most used first) and its size.
type SymbolCode struct {
	SymbolID    string
	File        string
	Lines       int
	Tokens      int
	Identifiers []string
}

// Code reads a symbol's code and lists its identifiers, for planners that
// must choose identifiers for a hot path or estimate a rung's cost.
func (x *Index) Code(ctx context.Context, id string) (*SymbolCode, error) {
	row, src, a, b, _, err := x.symbolSource(ctx, id)
	if err != nil {
		return nil, err
	}
	defer src.close()
	ids := distinctiveIdentifiers(src, a, b, "", 1<<30)
	return &SymbolCode{SymbolID: row.ID, File: src.path, Lines: src.lineOf(max(b, a+1)-1) - src.lineOf(a) + 1,
		Tokens: Tokens(string(src.src[a:b])), Identifiers: ids}, nil
}
