package query

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/schema"
)

// ErrMemoryNotFound means no current memory has the id.
var ErrMemoryNotFound = errors.New("memory not found")

// Memory types, as in the files.
var memoryTypes = map[string]bool{"decision": true, "bugfix": true, "task_context": true}

// Memory is a development memory as answers show it.
type Memory struct {
	MemoryID     string   `json:"memoryId"`
	Type         string   `json:"type"`
	Title        string   `json:"title"`
	Content      string   `json:"content"`
	Tags         []string `json:"tags"`
	Confidence   float64  `json:"confidence"`
	SymbolIDs    []string `json:"symbolIds"`
	FileRelPaths []string `json:"fileRelPaths"`
	CreatedAt    string   `json:"createdAt"`
	Stale        bool     `json:"stale"`
	StaleVersion string   `json:"staleVersion,omitempty"`
	// Path is the memory's file, repository-relative.
	Path string `json:"path"`
	// Score and MatchedSymbols are set by surfacing (and Score by a text
	// query).
	Score          *float64 `json:"score,omitempty"`
	MatchedSymbols []string `json:"matchedSymbols,omitempty"`

	// Deleted marks a file that says deleted: true; such a memory is never
	// answered.
	Deleted bool `json:"-"`
	// ContentHash is the deduplication key (SHA-256 of repoId, type,
	// title, content); FileHash the hash of the file's bytes.
	ContentHash string `json:"-"`
	FileHash    string `json:"-"`

	seq        int64 // the full-text rowid in the index; 0 for a memory read from its file
	hasContent bool
	created    time.Time
}

// IndexedMemory is what the index holds of a memory file.
type IndexedMemory struct {
	Path     string
	FileHash string
}

// MemoryOverlay tells what the memory files on disk hold that the index
// does not yet: memories stored or removed since the last index run.
type MemoryOverlay interface {
	// Diff compares the memory files with indexed (memory id -> what the
	// index holds). It returns the memories of files that are new or
	// changed (complete, with content; Deleted set for files marked
	// deleted) and the ids of indexed memories whose files are gone.
	Diff(ctx context.Context, indexed map[string]IndexedMemory) (changed []*Memory, gone []string, err error)
}

// SetCreated records the creation time of a memory built outside the
// index (by a MemoryOverlay).
func (m *Memory) SetCreated(t time.Time) {
	m.created = t.UTC()
	m.CreatedAt = t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
	m.hasContent = true
}

// now is the clock of recency factors.
func (x *Index) now() time.Time {
	if x.Clock != nil {
		return x.Clock()
	}
	return time.Now()
}

// memoryCache keeps the memory rows of the index between calls, until an
// index run changes them (the meta key memories_hash).
type memoryCache struct {
	mu   sync.Mutex
	key  string
	rows map[string]*Memory
}

// loadMemories reads every memory row of the index, without content. The
// memories are copies the caller may change.
func (x *Index) loadMemories(ctx context.Context) (map[string]*Memory, error) {
	key, err := schema.GetMeta(ctx, x.DB, schema.MetaMemoriesHash)
	if err != nil {
		return nil, fmt.Errorf("read memories: %w", err)
	}
	c := &x.memories
	c.mu.Lock()
	defer c.mu.Unlock()
	if key == "" || key != c.key {
		rows, err := x.readMemories(ctx)
		if err != nil {
			return nil, err
		}
		c.key, c.rows = key, rows
	}
	out := make(map[string]*Memory, len(c.rows))
	for id, m := range c.rows {
		cp := *m
		out[id] = &cp
	}
	return out, nil
}

func (x *Index) readMemories(ctx context.Context) (map[string]*Memory, error) {
	rows, err := x.DB.QueryContext(ctx, `SELECT seq, id, type, title, tags, confidence, created_at, deleted, stale, stale_version,
		path, content_hash, file_hash FROM memories`)
	if err != nil {
		return nil, fmt.Errorf("read memories: %w", err)
	}
	out := map[string]*Memory{}
	for rows.Next() {
		m := &Memory{}
		var tags, created string
		if err := rows.Scan(&m.seq, &m.MemoryID, &m.Type, &m.Title, &tags, &m.Confidence, &created, &m.Deleted, &m.Stale,
			&m.StaleVersion, &m.Path, &m.ContentHash, &m.FileHash); err != nil {
			rows.Close()
			return nil, err
		}
		json.Unmarshal([]byte(tags), &m.Tags)
		m.CreatedAt = created
		m.created, _ = time.Parse(time.RFC3339Nano, created)
		m.Tags, m.SymbolIDs, m.FileRelPaths = nonNil(m.Tags), []string{}, []string{}
		out[m.MemoryID] = m
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, q := range []string{`SELECT memory_id, symbol_id FROM memory_symbols ORDER BY memory_id, symbol_id`,
		`SELECT memory_id, path FROM memory_files ORDER BY memory_id, path`} {
		rows, err := x.DB.QueryContext(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("read memory links: %w", err)
		}
		for rows.Next() {
			var id, v string
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return nil, err
			}
			if m := out[id]; m != nil {
				if strings.Contains(q, "symbol_id") {
					m.SymbolIDs = append(m.SymbolIDs, v)
				} else {
					m.FileRelPaths = append(m.FileRelPaths, v)
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Memories returns every current memory: the index's, with the memory
// files that changed since the last index run laid over them (when the
// index has a MemoryOverlay). Deleted memories are left out unless
// withDeleted. Content is loaded only for memories read from files.
func (x *Index) Memories(ctx context.Context, withDeleted bool) (map[string]*Memory, error) {
	ms, err := x.loadMemories(ctx)
	if err != nil {
		return nil, err
	}
	if x.MemoryFiles != nil {
		indexed := make(map[string]IndexedMemory, len(ms))
		for id, m := range ms {
			indexed[id] = IndexedMemory{Path: m.Path, FileHash: m.FileHash}
		}
		changed, gone, err := x.MemoryFiles.Diff(ctx, indexed)
		if err != nil {
			return nil, fmt.Errorf("read memory files: %w", err)
		}
		for _, id := range gone {
			delete(ms, id)
		}
		for _, m := range changed {
			m.hasContent = true
			m.Tags, m.SymbolIDs, m.FileRelPaths = nonNil(m.Tags), nonNil(m.SymbolIDs), nonNil(m.FileRelPaths)
			ms[m.MemoryID] = m
		}
	}
	if !withDeleted {
		for id, m := range ms {
			if m.Deleted {
				delete(ms, id)
			}
		}
	}
	return ms, nil
}

// fillContent loads the content of memories that came from the index.
func (x *Index) fillContent(ctx context.Context, ms []*Memory) error {
	var ids []any
	byID := map[string]*Memory{}
	for _, m := range ms {
		if !m.hasContent {
			ids = append(ids, m.MemoryID)
			byID[m.MemoryID] = m
		}
	}
	for chunk := range slices.Chunk(ids, schema.MaxInList) {
		rows, err := x.DB.QueryContext(ctx, `SELECT id, content FROM memories WHERE id IN (`+schema.Placeholders(len(chunk))+`)`, chunk...)
		if err != nil {
			return fmt.Errorf("read memories: %w", err)
		}
		for rows.Next() {
			var id, c string
			if err := rows.Scan(&id, &c); err != nil {
				rows.Close()
				return err
			}
			if m := byID[id]; m != nil {
				m.Content, m.hasContent = c, true
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// MemoryQueryRequest is sdl.memory.query.
type MemoryQueryRequest struct {
	Query     string   `json:"query,omitempty"`
	Types     []string `json:"types,omitempty"`
	Tags      []string `json:"tags,omitempty"`
	SymbolIDs []string `json:"symbolIds,omitempty"`
	StaleOnly bool     `json:"staleOnly,omitempty"`
	Limit     int      `json:"limit,omitempty"`
	SortBy    string   `json:"sortBy,omitempty"`
	// Semantic false keeps the vector lane out of a text query; by
	// default it runs when the index has vectors.
	Semantic *bool `json:"semantic,omitempty"`
}

// MemoryQueryResponse is the answer of sdl.memory.query.
type MemoryQueryResponse struct {
	Memories []*Memory `json:"memories"`
	Total    int       `json:"total"`
	// RetrievalMode says how a text query was matched: "hybrid" (bm25
	// and vectors, fused by rank) or "lexical" (bm25 only); absent
	// without a query.
	RetrievalMode string `json:"retrievalMode,omitempty"`
	// FallbackReason says why the vector lane did not run.
	FallbackReason string `json:"fallbackReason,omitempty"`
}

func checkTypes(field string, types []string) error {
	for _, t := range types {
		if !memoryTypes[t] {
			return invalidf(field, "%q is not a memory type; use decision, bugfix or task_context", t)
		}
	}
	return nil
}

// QueryMemories searches and filters memories: text over title and
// content (FTS5, and the memories' vectors when the index has them),
// types, tags (any), linked symbols (any), stale only. Sorted by recency
// (default), confidence, or relevance (bm25 of the text, title weighted
// twice; fused by rank with the vector lane's cosine when it runs).
func (x *Index) QueryMemories(ctx context.Context, req MemoryQueryRequest) (*MemoryQueryResponse, error) {
	if utf8.RuneCountInString(req.Query) > 1000 {
		return nil, invalidf("query", "at most 1000 characters")
	}
	if err := checkTypes("types", req.Types); err != nil {
		return nil, err
	}
	if len(req.Tags) > 20 {
		return nil, invalidf("tags", "at most 20, got %d", len(req.Tags))
	}
	if len(req.SymbolIDs) > 100 {
		return nil, invalidf("symbolIds", "at most 100, got %d", len(req.SymbolIDs))
	}
	if req.Limit == 0 {
		req.Limit = 20
	}
	if req.Limit < 1 || req.Limit > 100 {
		return nil, invalidf("limit", "must be between 1 and 100, got %d", req.Limit)
	}
	switch req.SortBy {
	case "":
		req.SortBy = "recency"
	case "recency", "confidence":
	case "relevance":
		if strings.TrimSpace(req.Query) == "" {
			return nil, invalidf("sortBy", "relevance needs a query; use recency or confidence without one")
		}
	default:
		return nil, invalidf("sortBy", "%q is not an order; use recency, confidence or relevance", req.SortBy)
	}
	ms, err := x.Memories(ctx, false)
	if err != nil {
		return nil, err
	}
	types, tags, syms := setOf(req.Types), setOf(req.Tags), setOf(req.SymbolIDs)
	var scores map[string]float64
	resp := &MemoryQueryResponse{}
	if strings.TrimSpace(req.Query) != "" {
		if scores, err = x.memoryText(ctx, ms, req.Query); err != nil {
			return nil, err
		}
		resp.RetrievalMode = ModeLexical
		if req.Semantic != nil && !*req.Semantic {
			resp.FallbackReason = "the request turned the vector lane off (semantic: false)"
		} else {
			sims, reason, err := x.memoryVectors(ctx, ms, req.Query)
			if err != nil {
				return nil, err
			}
			if reason != "" {
				resp.FallbackReason = reason
			} else {
				resp.RetrievalMode = ModeHybrid
				scores = fuseMemoryLanes(scores, sims)
			}
		}
	}
	var out []*Memory
	for _, m := range ms {
		if len(types) > 0 && !types[m.Type] || req.StaleOnly && !m.Stale || len(tags) > 0 && !anyIn(m.Tags, tags) ||
			len(syms) > 0 && !anyIn(m.SymbolIDs, syms) {
			continue
		}
		if scores != nil {
			s, ok := scores[m.MemoryID]
			if !ok {
				continue
			}
			s = round4(s)
			m.Score = &s
		}
		out = append(out, m)
	}
	sortMemories(out, req.SortBy)
	resp.Total = len(out)
	if len(out) > req.Limit {
		out = out[:req.Limit]
	}
	if err := x.fillContent(ctx, out); err != nil {
		return nil, err
	}
	resp.Memories = nonNilMem(out)
	return resp, nil
}

func sortMemories(ms []*Memory, by string) {
	sort.Slice(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		switch by {
		case "confidence":
			if a.Confidence != b.Confidence {
				return a.Confidence > b.Confidence
			}
		case "relevance", "score":
			if sa, sb := deref(a.Score), deref(b.Score); sa != sb {
				return sa > sb
			}
		}
		if !a.created.Equal(b.created) {
			return a.created.After(b.created)
		}
		return a.MemoryID < b.MemoryID
	})
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// memoryText scores the memories that match text, normalized to the
// best (1). It asks the index's memories_fts when every memory is as the
// index holds it, and otherwise indexes the current memories in a
// throwaway in-memory table with the same tokenizer, so that memories
// stored since the last index run match the same way.
func (x *Index) memoryText(ctx context.Context, ms map[string]*Memory, text string) (map[string]float64, error) {
	terms, _ := queryTerms(text)
	if len(terms) == 0 {
		// only stopwords ("fix the bug"): match the words themselves
		for _, w := range identifierWords(strings.ToLower(text)) {
			if len(w) > 1 {
				terms = append(terms, w)
			}
		}
	}
	match := ftsMatch(terms)
	if match == "" {
		return map[string]float64{}, nil
	}
	overlaid := false
	bySeq := map[int64]string{}
	for _, m := range ms {
		if m.seq == 0 {
			overlaid = true
		}
		bySeq[m.seq] = m.MemoryID
	}
	raw := map[string]float64{}
	const q = `SELECT rowid, -bm25(memories_fts, 2.0, 1.0) FROM memories_fts WHERE memories_fts MATCH ?`
	if !overlaid {
		rows, err := x.DB.QueryContext(ctx, q, match)
		if err != nil {
			return nil, fmt.Errorf("search memories: %w", err)
		}
		for rows.Next() {
			var seq int64
			var s float64
			if err := rows.Scan(&seq, &s); err != nil {
				rows.Close()
				return nil, err
			}
			if id, ok := bySeq[seq]; ok {
				raw[id] = s
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	} else {
		list := make([]*Memory, 0, len(ms))
		for _, m := range ms {
			list = append(list, m)
		}
		sort.Slice(list, func(i, j int) bool { return list[i].MemoryID < list[j].MemoryID })
		if err := x.fillContent(ctx, list); err != nil {
			return nil, err
		}
		var err error
		if raw, err = scratchFTS(ctx, list, q, match); err != nil {
			return nil, err
		}
	}
	var top float64
	for _, s := range raw {
		top = math.Max(top, s)
	}
	out := make(map[string]float64, len(raw))
	for id, s := range raw {
		if top > 0 {
			out[id] = s / top
		} else {
			out[id] = 0
		}
	}
	return out, nil
}

// scratchFTS indexes ms in an in-memory FTS5 table like memories_fts and
// runs q.
func scratchFTS(ctx context.Context, ms []*Memory, q, match string) (map[string]float64, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx) // one connection: each has its own :memory:
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE VIRTUAL TABLE memories_fts USING fts5(title, content,
		tokenize = 'porter unicode61 remove_diacritics 2')`); err != nil {
		return nil, fmt.Errorf("search memories: %w", err)
	}
	for i, m := range ms {
		if _, err := conn.ExecContext(ctx, `INSERT INTO memories_fts(rowid, title, content) VALUES(?, ?, ?)`, i+1, m.Title, m.Content); err != nil {
			return nil, err
		}
	}
	rows, err := conn.QueryContext(ctx, q, match)
	if err != nil {
		return nil, fmt.Errorf("search memories: %w", err)
	}
	defer rows.Close()
	out := map[string]float64{}
	for rows.Next() {
		var i int64
		var s float64
		if err := rows.Scan(&i, &s); err != nil {
			return nil, err
		}
		if i >= 1 && int(i) <= len(ms) {
			out[ms[i-1].MemoryID] = s
		}
	}
	return out, rows.Err()
}

// SurfaceRequest is sdl.memory.surface.
type SurfaceRequest struct {
	SymbolIDs []string `json:"symbolIds,omitempty"`
	TaskType  string   `json:"taskType,omitempty"`
	Limit     int      `json:"limit,omitempty"`
}

// SurfaceResponse is the answer of sdl.memory.surface.
type SurfaceResponse struct {
	Memories []*Memory `json:"memories"`
	Total    int       `json:"total"`
}

// MarshalJSON writes each surfaced memory with its score and
// matchedSymbols always present (the spec's SurfacedMemory), even when
// zero or empty.
func (r SurfaceResponse) MarshalJSON() ([]byte, error) {
	type surfaced struct {
		*Memory
		Score          float64  `json:"score"`
		MatchedSymbols []string `json:"matchedSymbols"`
	}
	out := struct {
		Memories []surfaced `json:"memories"`
		Total    int        `json:"total"`
	}{Memories: []surfaced{}, Total: r.Total}
	for _, m := range r.Memories {
		out.Memories = append(out.Memories, surfaced{m, deref(m.Score), nonNil(m.MatchedSymbols)})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// SurfaceMemories ranks the memories relevant to a set of symbols by
// confidence x recency x overlap (see surface).
func (x *Index) SurfaceMemories(ctx context.Context, req SurfaceRequest) (*SurfaceResponse, error) {
	if len(req.SymbolIDs) > 500 {
		return nil, invalidf("symbolIds", "at most 500, got %d", len(req.SymbolIDs))
	}
	if req.TaskType != "" {
		if err := checkTypes("taskType", []string{req.TaskType}); err != nil {
			return nil, err
		}
	}
	if req.Limit == 0 {
		req.Limit = 10
	}
	if req.Limit < 1 || req.Limit > 50 {
		return nil, invalidf("limit", "must be between 1 and 50, got %d", req.Limit)
	}
	out, total, err := x.surface(ctx, req.SymbolIDs, req.TaskType, req.Limit)
	if err != nil {
		return nil, err
	}
	return &SurfaceResponse{Memories: nonNilMem(out), Total: total}, nil
}

// surface scores memories for the query symbols q as the spec defines:
//
//	score = confidence x recencyFactor x overlapFactor
//	recencyFactor = 1 / (1 + daysSinceCreation/30)
//	overlapFactor = (symbols of q the memory is linked to) / |q|; 1 when q is empty
//
// The candidates are the memories linked to a symbol of q, the repo-level
// memories (linked to no symbol), which always qualify, and those linked
// to a file that holds a symbol of q. A memory linked only to other
// symbols is about other code and is left out. Equal scores (the zero of
// a repo-level memory, say) are ordered by the memories about the files
// at hand first, then confidence x recency.
func (x *Index) surface(ctx context.Context, q []string, typ string, limit int) ([]*Memory, int, error) {
	ms, err := x.Memories(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	return x.surfaceIn(ctx, ms, q, typ, limit, false)
}

// surfaceIn ranks the memories ms as surface does.
// With related, only memories about the query symbols (linked to one, or
// to the file of one) come: a slice shows the memories about its cards,
// and none when it has no cards, not the repository's best memories.
func (x *Index) surfaceIn(ctx context.Context, ms map[string]*Memory, q []string, typ string, limit int, related bool) ([]*Memory, int, error) {
	if related && len(q) == 0 {
		return nil, 0, nil
	}
	qset := setOf(q)
	nq := float64(len(qset))
	var qfiles map[string]bool // the files of the query symbols
	if nq > 0 {
		for _, m := range ms {
			if len(m.FileRelPaths) == 0 {
				continue
			}
			rows, err := x.rankRows(ctx, sortedKeys(qset), nil)
			if err != nil {
				return nil, 0, err
			}
			qfiles = map[string]bool{}
			for _, r := range rows {
				qfiles[r.Path] = true
			}
			break
		}
	}
	now := x.now()
	type cand struct {
		m       *Memory
		inFiles bool
		prior   float64 // confidence x recency, for ties
	}
	var cs []cand
	for _, m := range ms {
		if typ != "" && m.Type != typ {
			continue
		}
		var matched []string
		inFiles := false
		overlap := 1.0
		if nq > 0 {
			for _, s := range m.SymbolIDs {
				if qset[s] {
					matched = append(matched, s)
				}
			}
			for _, f := range m.FileRelPaths {
				inFiles = inFiles || qfiles[f]
			}
			if len(matched) == 0 && !inFiles && (related || len(m.SymbolIDs) > 0) {
				continue
			}
			overlap = float64(len(matched)) / nq
		}
		days := now.Sub(m.created).Hours() / 24
		if days < 0 || m.created.IsZero() {
			days = 0
		}
		prior := m.Confidence / (1 + days/30)
		s := round4(prior * overlap)
		m.Score = &s
		sort.Strings(matched)
		m.MatchedSymbols = nonNil(matched)
		cs = append(cs, cand{m, inFiles, prior})
	}
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if *a.m.Score != *b.m.Score {
			return *a.m.Score > *b.m.Score
		}
		if a.inFiles != b.inFiles {
			return a.inFiles
		}
		if a.prior != b.prior {
			return a.prior > b.prior
		}
		return a.m.MemoryID < b.m.MemoryID
	})
	total := len(cs)
	out := make([]*Memory, 0, min(limit, len(cs)))
	for _, c := range cs[:min(limit, len(cs))] {
		out = append(out, c.m)
	}
	if err := x.fillContent(ctx, out); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// Memory returns one current memory, with content.
func (x *Index) Memory(ctx context.Context, id string, withDeleted bool) (*Memory, error) {
	ms, err := x.Memories(ctx, withDeleted)
	if err != nil {
		return nil, err
	}
	m := ms[id]
	if m == nil {
		return nil, fmt.Errorf("%w: no memory has id %q; find ids with sdl.memory.query", ErrMemoryNotFound, id)
	}
	if err := x.fillContent(ctx, []*Memory{m}); err != nil {
		return nil, err
	}
	return m, nil
}

func setOf(ss []string) map[string]bool {
	out := make(map[string]bool, len(ss))
	for _, s := range ss {
		out[s] = true
	}
	return out
}

func anyIn(ss []string, set map[string]bool) bool {
	for _, s := range ss {
		if set[s] {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilMem(s []*Memory) []*Memory {
	if s == nil {
		return []*Memory{}
	}
	return s
}

// sliceMemories adds to a slice the memories about its cards. Failing to
// surface memories never fails the slice: it becomes a warning.
func (x *Index) sliceMemories(ctx context.Context, req *SliceRequest, resp *SliceResponse) {
	limit := memoryLimit(req)
	if limit == 0 {
		return
	}
	ids := make([]string, 0, len(resp.Slice.Cards)+len(resp.Slice.CardRefs))
	for _, c := range resp.Slice.Cards {
		ids = append(ids, c.SymbolID)
	}
	for _, c := range resp.Slice.CardRefs {
		ids = append(ids, c.SymbolID)
	}
	ms, _, err := x.sliceSurface(ctx, req, ids, limit)
	if err != nil {
		resp.Warnings = append(resp.Warnings, "memories were not surfaced: "+err.Error())
		return
	}
	resp.Memories = sliceMemoriesOf(ms)
}

// sliceSurface surfaces memories for a slice, loading them once a build.
func (x *Index) sliceSurface(ctx context.Context, req *SliceRequest, ids []string, limit int) ([]*Memory, int, error) {
	if req.mems == nil && req.memsErr == nil {
		req.mems, req.memsErr = x.Memories(ctx, false)
	}
	if req.memsErr != nil {
		return nil, 0, req.memsErr
	}
	if len(req.mems) == 0 {
		return nil, 0, nil
	}
	return x.surfaceIn(ctx, req.mems, ids, "", limit, true)
}

// memoryLimit is how many memories a slice request wants (0: none).
func memoryLimit(req *SliceRequest) int {
	if req.noHandle || req.IncludeMemories != nil && !*req.IncludeMemories {
		return 0
	}
	if req.MemoryLimit != nil {
		return *req.MemoryLimit
	}
	return DefaultMemoryLimit
}

// memoryReserve is the room a slice keeps for the memories about its best
// candidates: what they cost, up to a tenth of the budget. Without it the
// cards of any real repository fill the budget and memories never fit;
// with it, memories displace at most the last cards, and only when there
// are memories about the code at hand. The slice's memories are chosen
// again for the cards that made it.
func (x *Index) memoryReserve(ctx context.Context, req *SliceRequest, ranks []ranked) int {
	limit := memoryLimit(req)
	if limit == 0 || len(ranks) == 0 {
		return 0
	}
	n := min(len(ranks), req.Budget.MaxCards)
	ids := make([]string, 0, n)
	for _, rk := range ranks[:n] {
		ids = append(ids, rk.id)
	}
	ms, _, err := x.sliceSurface(ctx, req, ids, limit)
	if err != nil || len(ms) == 0 {
		return 0
	}
	return min(Tokens(mustJSON(sliceMemoriesOf(ms))), memoryRoom(req.Budget.MaxEstimatedTokens))
}

// memoryRoom is the share of a slice's budget memories may take from
// cards.
func memoryRoom(budget int) int { return budget / 10 }

func sliceMemoriesOf(ms []*Memory) []SliceMemory {
	var out []SliceMemory
	for _, m := range ms {
		sm := SliceMemory{MemoryID: m.MemoryID, Type: m.Type, Title: m.Title, Content: m.Content, Confidence: m.Confidence,
			Stale: m.Stale, StaleVersion: m.StaleVersion, LinkedSymbols: nonNil(m.MatchedSymbols), Tags: m.Tags, Score: deref(m.Score)}
		if utf8.RuneCountInString(sm.Content) > sliceMemoryMaxRunes {
			sm.Content = cutRunes(sm.Content, sliceMemoryMaxRunes)
			sm.ContentTruncated = true
		}
		out = append(out, sm)
	}
	return out
}

// cutRunes shortens s to at most n runes, at a space when one is near.
func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := n
	for i := n; i > n*4/5; i-- {
		if r[i] == ' ' || r[i] == '\n' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " \n") + "…"
}

// MissingSymbols returns the ids among ids that name no symbol of the
// ledger version seq (0: the current version), in their order.
func (x *Index) MissingSymbols(ctx context.Context, ids []string, seq int64) ([]string, error) {
	found := map[string]bool{}
	for chunk := range slices.Chunk(ids, schema.MaxInList) {
		args := schema.Args(chunk)
		cond := `to_seq IS NULL`
		if seq > 0 {
			cond = `from_seq <= ? AND (to_seq IS NULL OR to_seq > ?)`
			args = append(args, seq, seq)
		}
		rows, err := x.DB.QueryContext(ctx, `SELECT DISTINCT id FROM symbols WHERE id IN (`+schema.Placeholders(len(chunk))+`) AND `+cond, args...)
		if err != nil {
			return nil, fmt.Errorf("check symbols: %w", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			found[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	var out []string
	for _, id := range ids {
		if !found[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

// CodeFingerprint is where the current version holds a symbol's code, and the
// code's fingerprint.
type CodeFingerprint struct {
	Path        string
	FileHash    string // the content hash of the file, as the index records it
	Fingerprint string
}

// CodeFingerprints returns the CodeFingerprint of each id the current version
// holds; ids it does not hold are left out.
func (x *Index) CodeFingerprints(ctx context.Context, ids []string) (map[string]CodeFingerprint, error) {
	out := map[string]CodeFingerprint{}
	for chunk := range slices.Chunk(ids, schema.MaxInList) {
		args := schema.Args(chunk)
		rows, err := x.DB.QueryContext(ctx, `SELECT s.id, p.path, f.hash, s.fingerprint FROM symbols s
			JOIN paths p ON p.id = s.path_id JOIN files f ON f.path_id = s.path_id AND f.to_seq IS NULL
			WHERE s.to_seq IS NULL AND s.id IN (`+schema.Placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("read symbol code: %w", err)
		}
		for rows.Next() {
			var id string
			var c CodeFingerprint
			if err := rows.Scan(&id, &c.Path, &c.FileHash, &c.Fingerprint); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = c
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
