package query

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/sdl-dev/sdl/schema"
)

// FeedbackQueryRequest is sdl.agent.feedback.query.
type FeedbackQueryRequest struct {
	VersionID string `json:"versionId,omitempty"`
	Limit     int    `json:"limit,omitempty"`
	Since     string `json:"since,omitempty"`
}

// FeedbackQueryResponse is its answer.
type FeedbackQueryResponse struct {
	RepoID          string            `json:"repoId"`
	Feedback        []schema.Feedback `json:"feedback"`
	AggregatedStats FeedbackStats     `json:"aggregatedStats"`
	HasMore         bool              `json:"hasMore"`
}

// FeedbackStats aggregates the records that match a query.
type FeedbackStats struct {
	TotalFeedback     int           `json:"totalFeedback"`
	TopUsefulSymbols  []SymbolCount `json:"topUsefulSymbols"`
	TopMissingSymbols []SymbolCount `json:"topMissingSymbols"`
}

// SymbolCount is how many records name a symbol.
type SymbolCount struct {
	SymbolID string `json:"symbolId"`
	Count    int    `json:"count"`
}

// Feedback limits.
const (
	DefaultFeedbackLimit = 100
	MaxFeedbackLimit     = 1000
	topFeedbackSymbols   = 10
)

// feedbackPath is the sidecar the serve process appends to.
func (x *Index) feedbackPath() string { return schema.FeedbackPath(x.Path) }

// allFeedback returns every feedback record: those the index imported and
// those appended to the sidecar since, newest first. limit > 0 keeps only
// the newest imported ones.
func (x *Index) allFeedback(ctx context.Context, limit int) ([]schema.Feedback, error) {
	q := `SELECT id, version_id, slice_handle, task_type, task_text, task_tags, useful, missing, created_at
		FROM feedback ORDER BY created_at DESC, id`
	var args []any
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	rows, err := x.DB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read feedback: %w", err)
	}
	var out []schema.Feedback
	seen := map[string]bool{}
	for rows.Next() {
		var f schema.Feedback
		var tags, useful, missing string
		if err := rows.Scan(&f.FeedbackID, &f.VersionID, &f.SliceHandle, &f.TaskType, &f.TaskText, &tags, &useful, &missing, &f.CreatedAt); err != nil {
			rows.Close()
			return nil, err
		}
		json.Unmarshal([]byte(tags), &f.TaskTags)
		json.Unmarshal([]byte(useful), &f.UsefulSymbols)
		json.Unmarshal([]byte(missing), &f.MissingSymbols)
		seen[f.FeedbackID] = true
		out = append(out, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// the records appended since the last index run: the index remembers
	// how far it read
	offText, _ := schema.GetMeta(ctx, x.DB, schema.MetaFeedbackOffset)
	off, _ := strconv.ParseInt(offText, 10, 64)
	pending, _, _, err := schema.ReadFeedback(x.feedbackPath(), off)
	if err != nil {
		return nil, err
	}
	for _, f := range pending {
		if !seen[f.FeedbackID] {
			seen[f.FeedbackID] = true
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].CreatedAt != out[j].CreatedAt {
			return out[i].CreatedAt > out[j].CreatedAt
		}
		return out[i].FeedbackID < out[j].FeedbackID
	})
	return out, nil
}

// QueryFeedback lists feedback records, newest first, with the symbols
// most often reported useful and missing among all that match.
func (x *Index) QueryFeedback(ctx context.Context, req FeedbackQueryRequest) (*FeedbackQueryResponse, error) {
	if req.Limit == 0 {
		req.Limit = DefaultFeedbackLimit
	}
	if req.Limit < 1 || req.Limit > MaxFeedbackLimit {
		return nil, invalidf("limit", "must be between 1 and %d, got %d", MaxFeedbackLimit, req.Limit)
	}
	var since time.Time
	if req.Since != "" {
		t, err := time.Parse(time.RFC3339Nano, req.Since)
		if err != nil {
			return nil, invalidf("since", "%q is not an ISO timestamp like 2026-01-02T15:04:05Z", req.Since)
		}
		since = t
	}
	all, err := x.allFeedback(ctx, 0)
	if err != nil {
		return nil, err
	}
	resp := &FeedbackQueryResponse{RepoID: x.RepoID, Feedback: []schema.Feedback{}}
	useful, missing := map[string]int{}, map[string]int{}
	for _, f := range all {
		if req.VersionID != "" && f.VersionID != req.VersionID {
			continue
		}
		if !since.IsZero() {
			t, err := time.Parse(time.RFC3339Nano, f.CreatedAt)
			if err != nil || t.Before(since) {
				continue
			}
		}
		resp.AggregatedStats.TotalFeedback++
		for _, s := range distinct(f.UsefulSymbols) {
			useful[s]++
		}
		for _, s := range distinct(f.MissingSymbols) {
			missing[s]++
		}
		if len(resp.Feedback) < req.Limit {
			f.UsefulSymbols, f.MissingSymbols, f.TaskTags = nonNil(f.UsefulSymbols), nonNil(f.MissingSymbols), nonNil(f.TaskTags)
			resp.Feedback = append(resp.Feedback, f)
		} else {
			resp.HasMore = true
		}
	}
	resp.AggregatedStats.TopUsefulSymbols = topCounts(useful)
	resp.AggregatedStats.TopMissingSymbols = topCounts(missing)
	return resp, nil
}

func distinct(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func topCounts(m map[string]int) []SymbolCount {
	out := make([]SymbolCount, 0, len(m))
	for s, n := range m {
		out = append(out, SymbolCount{SymbolID: s, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].SymbolID < out[j].SymbolID
	})
	if len(out) > topFeedbackSymbols {
		out = out[:topFeedbackSymbols]
	}
	return out
}

// Feedback in slices: records whose task text shares at least
// feedbackMinSimilarity of its terms (Jaccard) with the new task seed
// their useful symbols with feedbackBoost x similarity. The weight is
// small next to a text match (up to 1) so that feedback reorders close
// candidates rather than displacing what the text finds.
const (
	feedbackMinSimilarity = 0.2
	feedbackBoost         = 0.5
	feedbackRecords       = 2000 // the newest records considered
)

// fbEntry is a feedback record as slices use it: the terms of its task
// text and its useful symbols.
type fbEntry struct {
	terms  map[string]bool
	useful []string
}

// feedbackCache keeps the terms of the imported feedback records, which
// change only when an index run imports more.
type feedbackCache struct {
	mu      sync.Mutex
	key     string
	entries []fbEntry
}

func toEntry(f *schema.Feedback) (fbEntry, bool) {
	if f.TaskText == "" || len(f.UsefulSymbols) == 0 {
		return fbEntry{}, false
	}
	terms, _ := queryTerms(f.TaskText)
	return fbEntry{terms: setOf(terms), useful: f.UsefulSymbols}, len(terms) > 0
}

// feedbackEntries returns the newest feedback records with task text:
// the imported ones (cached) and those appended to the sidecar since.
func (x *Index) feedbackEntries(ctx context.Context) ([]fbEntry, error) {
	var n int
	var newest, offText string
	if err := x.DB.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(MAX(created_at), ''),
		COALESCE((SELECT value FROM meta WHERE key = ?), '') FROM feedback`, schema.MetaFeedbackOffset).Scan(&n, &newest, &offText); err != nil {
		return nil, fmt.Errorf("read feedback: %w", err)
	}
	key := fmt.Sprint(n, newest, offText)
	c := &x.feedback
	c.mu.Lock()
	if c.key != key {
		c.entries, c.key = nil, ""
		rows, err := x.DB.QueryContext(ctx, `SELECT task_text, useful FROM feedback WHERE task_text != ''
			ORDER BY created_at DESC, id LIMIT ?`, feedbackRecords)
		if err != nil {
			c.mu.Unlock()
			return nil, fmt.Errorf("read feedback: %w", err)
		}
		for rows.Next() {
			var f schema.Feedback
			var useful string
			if err := rows.Scan(&f.TaskText, &useful); err != nil {
				rows.Close()
				c.mu.Unlock()
				return nil, err
			}
			json.Unmarshal([]byte(useful), &f.UsefulSymbols)
			if e, ok := toEntry(&f); ok {
				c.entries = append(c.entries, e)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			c.mu.Unlock()
			return nil, err
		}
		c.key = key
	}
	out := append([]fbEntry(nil), c.entries...)
	c.mu.Unlock()
	off, _ := strconv.ParseInt(offText, 10, 64)
	pending, _, _, err := schema.ReadFeedback(x.feedbackPath(), off)
	if err != nil {
		return nil, err
	}
	for i := range pending {
		if e, ok := toEntry(&pending[i]); ok {
			out = append(out, e)
		}
	}
	return out, nil
}

// seedFeedback seeds the useful symbols of past feedback on similar tasks.
func (b *sliceBuild) seedFeedback(ctx context.Context) error {
	terms, _ := queryTerms(b.req.TaskText)
	if len(terms) == 0 {
		return nil
	}
	entries, err := b.x.feedbackEntries(ctx)
	if err != nil {
		return err
	}
	mine := setOf(terms)
	for _, e := range entries {
		inter := 0
		for t := range e.terms {
			if mine[t] {
				inter++
			}
		}
		sim := float64(inter) / float64(len(mine)+len(e.terms)-inter)
		if sim < feedbackMinSimilarity {
			continue
		}
		w := round4(feedbackBoost * sim)
		for _, id := range e.useful {
			if w > b.seeds[id] {
				b.seed(id, w, "useful in feedback on a similar task")
				b.ev.Seeds = append(b.ev.Seeds, SeedEvidence{SymbolID: id, Source: "feedback", Weight: w})
			}
		}
		b.ev.Lanes = appendOnce(b.ev.Lanes, "feedback")
	}
	return nil
}
