package query

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sdl-dev/sdl/lang"
)

// RRF is the k of reciprocal rank fusion.
const rrfK = 60

// Lane weights of the fusion. An exact name match counts twice (times how
// exact it is); the vector lane counts as much as the full-text one when
// a search asks for it (semantic: true).
const (
	weightExact  = 2.0
	weightFTS    = 1.0
	weightVector = 1.0
)

// testWeight scales the score of test code in search results and slices
// unless the query asks for tests (asksForTests) or a slice starts from a
// failing test. A repository's tests repeat the words of the code they
// test, more often than the code does: on gin, "render JSON response"
// returned 19 Test* functions in its 20 results, and not Context.JSON.
const testWeight = 0.5

// testWords are the words that make a query ask for tests.
var testWords = map[string]bool{"test": true, "tests": true, "testing": true, "spec": true, "specs": true}

// asksForTests reports whether a query, or a task's first line (its title,
// as a commit message's), asks about tests: a word or identifier part of
// it is test, tests, testing, spec or specs (TestRenderJSON, "tests for
// Bind"). The body of a long task often mentions tests in passing, and
// still asks about the code.
func asksForTests(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	for _, w := range identifierWords(first) {
		for _, p := range lang.SplitIdent(w) {
			if testWords[p] {
				return true
			}
		}
	}
	return false
}

// SearchRequest is sdl.symbol.search.
type SearchRequest struct {
	Query                    string   `json:"query"`
	Kinds                    []string `json:"kinds,omitempty"`
	Limit                    int      `json:"limit,omitempty"`
	Semantic                 bool     `json:"semantic,omitempty"`
	IncludeRetrievalEvidence bool     `json:"includeRetrievalEvidence,omitempty"`
}

// SearchResult is one match.
type SearchResult struct {
	SymbolID  string   `json:"symbolId"`
	Name      string   `json:"name"`
	Qualified string   `json:"qualifiedName,omitempty"`
	Kind      string   `json:"kind"`
	File      string   `json:"file"`
	Range     Range    `json:"range"`
	Exported  bool     `json:"exported"`
	Signature string   `json:"signature,omitempty"`
	Summary   string   `json:"summary,omitempty"`
	Score     float64  `json:"score"`
	Lanes     []string `json:"lanes"`
}

// SearchResponse answers a search.
type SearchResponse struct {
	Results           []SearchResult `json:"results"`
	RetrievalMode     string         `json:"retrievalMode"`
	Lanes             []string       `json:"lanes"`
	RetrievalEvidence *Evidence      `json:"retrievalEvidence,omitempty"`
	Truncation        *Truncation    `json:"truncation,omitempty"`
	LedgerVersion     string         `json:"ledgerVersion"`
}

// Evidence says how results were found.
type Evidence struct {
	Sources        []string       `json:"sources"`
	CandidateCount map[string]int `json:"candidateCounts"`
	Terms          []string       `json:"terms"`
	Identifiers    []string       `json:"identifiers,omitempty"`
	FusionLatency  float64        `json:"fusionLatencyMs"`
	FallbackReason string         `json:"fallbackReason,omitempty"`
}

// Truncation says results were cut.
type Truncation struct {
	Truncated bool   `json:"truncated"`
	Returned  int    `json:"returned"`
	Available int    `json:"available"`
	Reason    string `json:"reason"`
}

// hit is a candidate symbol with the evidence of each lane.
type hit struct {
	id     string
	score  float64 // fused
	lanes  map[string]int
	raw    map[string]float64
	isTest bool // test code, as the exact or full-text lane found it
}

// Search finds symbols by name and text.
func (x *Index) Search(ctx context.Context, req SearchRequest) (*SearchResponse, error) {
	start := time.Now()
	q := strings.TrimSpace(req.Query)
	if q == "" {
		return nil, invalidf("query", "must be a non-empty search text")
	}
	if len(q) > 4000 {
		return nil, invalidf("query", "at most 4000 characters, got %d; search for the key identifiers", len(q))
	}
	if req.Limit == 0 {
		req.Limit = 50
	}
	if req.Limit < 1 || req.Limit > 1000 {
		return nil, invalidf("limit", "must be between 1 and 1000, got %d", req.Limit)
	}
	for _, k := range req.Kinds {
		if !validKind(k) {
			return nil, invalidf("kinds", "%q is not a kind; use %s", k, strings.Join(lang.Kinds, ", "))
		}
	}
	ver, err := x.Current(ctx)
	if err != nil {
		return nil, err
	}
	pool := req.Limit * 3
	if pool < 100 {
		pool = 100
	}
	hits, ev, err := x.retrieve(ctx, q, req.Kinds, pool, req.Semantic)
	if err != nil {
		return nil, err
	}
	resp := &SearchResponse{Results: []SearchResult{}, RetrievalMode: ModeLexical, Lanes: ev.Sources, LedgerVersion: ver.ID}
	for _, l := range ev.Sources {
		if l == "vector" {
			resp.RetrievalMode = ModeHybrid
		}
	}
	available := len(hits)
	if len(hits) > req.Limit {
		hits = hits[:req.Limit]
		resp.Truncation = &Truncation{Truncated: true, Returned: req.Limit, Available: available, Reason: "limit"}
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	rows, err := x.symbols(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, h := range hits {
		r := rows[h.id]
		if r == nil {
			continue
		}
		res := SearchResult{SymbolID: r.ID, Name: r.Name, Kind: r.Kind, File: r.Path, Range: r.Range, Exported: r.Exported,
			Summary: r.Summary, Score: round4(h.score), Signature: signatureText(r.Signature)}
		if r.Qualified != r.Name {
			res.Qualified = r.Qualified
		}
		for _, l := range []string{"exact", "fts", "vector"} {
			if _, ok := h.lanes[l]; ok {
				res.Lanes = append(res.Lanes, l)
			}
		}
		resp.Results = append(resp.Results, res)
	}
	ev.FusionLatency = round4(float64(time.Since(start).Microseconds()) / 1000)
	if req.IncludeRetrievalEvidence {
		resp.RetrievalEvidence = ev
	}
	return resp, nil
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// signatureText extracts the text of a stored signature.
func signatureText(js string) string {
	const key = `"text":"`
	i := strings.Index(js, key)
	if i < 0 {
		return ""
	}
	s := js[i+len(key):]
	// the text is the first field and ends at the next unescaped quote
	var b strings.Builder
	for j := 0; j < len(s); j++ {
		c := s[j]
		if c == '\\' && j+1 < len(s) {
			j++
			switch s[j] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[j])
			}
			continue
		}
		if c == '"' {
			break
		}
		b.WriteByte(c)
	}
	return b.String()
}

// retrieve runs the lanes and fuses them; semantic adds the vector lane
// when the index has vectors, and says in the evidence why not otherwise.
func (x *Index) retrieve(ctx context.Context, text string, kinds []string, pool int, semantic bool) ([]*hit, *Evidence, error) {
	terms, idents := queryTerms(text)
	ev := &Evidence{Terms: terms, Identifiers: idents, CandidateCount: map[string]int{}}
	hits := map[string]*hit{}
	get := func(id string) *hit {
		h := hits[id]
		if h == nil {
			h = &hit{id: id, lanes: map[string]int{}, raw: map[string]float64{}}
			hits[id] = h
		}
		return h
	}
	kindOK := func(k string) bool {
		if len(kinds) == 0 {
			return true
		}
		for _, want := range kinds {
			if want == k {
				return true
			}
		}
		return false
	}

	// exact lane: the whole query, and each identifier in it, as a name
	names := []string{}
	if !strings.ContainsAny(text, " \t\n") {
		names = append(names, text)
	}
	for _, id := range idents {
		if id != text {
			names = append(names, id)
		}
	}
	exact, err := x.exactNames(ctx, names)
	if err != nil {
		return nil, nil, err
	}
	rank := 0
	for _, e := range exact {
		if !kindOK(e.kind) {
			continue
		}
		h := get(e.id)
		h.isTest = h.isTest || e.isTest
		if _, ok := h.lanes["exact"]; !ok {
			h.lanes["exact"] = rank
			h.raw["exact"] = e.weight
			rank++
		}
	}
	// a file's module (one per file, the only module without a parent) is
	// left out of the lanes, which are about code; a module the code
	// declares (Ruby's module, a C++ or TypeScript namespace, Rust's mod)
	// is found by its name like a class. Asked for by kind, modules are
	// found by name or path.
	if slices.Contains(kinds, lang.KindModule) {
		mods, err := x.moduleNames(ctx, names, terms)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range mods {
			h := get(e.id)
			if _, ok := h.lanes["exact"]; !ok {
				h.lanes["exact"] = rank
				h.raw["exact"] = e.weight
				rank++
			}
		}
	}
	ev.CandidateCount["exact"] = rank
	ev.Sources = append(ev.Sources, "exact")

	// full-text lane
	if ftsMatch(terms) != "" {
		if len(terms) > 48 {
			terms = terms[:48]
		}
		// names first: search is about names, and the name columns are
		// small; the other text only when names give too little
		fts, err := x.ftsRank(ctx, colsNames, terms, pool)
		if err != nil {
			return nil, nil, err
		}
		if len(fts) < pool/2 {
			more, err := x.ftsRank(ctx, colsText, terms, pool)
			if err != nil {
				return nil, nil, err
			}
			// bm25 over columns is close to additive: a symbol's score is
			// the sum of its scores in the two column sets
			at := map[string]int{}
			for i, f := range fts {
				at[f.id] = i
			}
			for _, f := range more {
				if i, ok := at[f.id]; ok {
					fts[i].score += f.score
				} else {
					fts = append(fts, f)
				}
			}
			sort.SliceStable(fts, func(i, j int) bool {
				if fts[i].score != fts[j].score {
					return fts[i].score > fts[j].score
				}
				return fts[i].id < fts[j].id
			})
		}
		rank = 0
		for _, f := range fts {
			if !kindOK(f.kind) {
				continue
			}
			h := get(f.id)
			h.isTest = h.isTest || f.isTest
			h.lanes["fts"] = rank
			h.raw["fts"] = f.score
			rank++
			if rank >= pool {
				break
			}
		}
		ev.CandidateCount["fts"] = rank
		ev.Sources = append(ev.Sources, "fts")
	}

	// vector lane
	if semantic {
		vs, reason, err := x.vectorSearch(ctx, text, pool)
		if err != nil {
			return nil, nil, err
		}
		ev.FallbackReason = reason
		if reason == "" {
			rank = 0
			for _, v := range vs {
				if !kindOK(v.kind) {
					continue
				}
				h := get(v.id)
				h.lanes["vector"] = rank
				h.raw["vector"] = v.sim
				rank++
			}
			ev.CandidateCount["vector"] = rank
			ev.Sources = append(ev.Sources, "vector")
		}
	}

	out := make([]*hit, 0, len(hits))
	demoteTests := !asksForTests(text)
	for _, h := range hits {
		for lane, r := range h.lanes {
			w := weightFTS
			switch lane {
			case "exact":
				w = weightExact * h.raw["exact"]
			case "vector":
				w = weightVector
			}
			h.score += w / float64(rrfK+r+1)
		}
		if demoteTests && h.isTest {
			h.score *= testWeight
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id < out[j].id
	})
	return out, ev, nil
}

// constructorNameWeight scales the exact match of a constructor named
// like its class (Java, Kotlin, C#, C++) when the query is that bare
// name: the name is the type's, and the type is what it asks for. The
// full-text lane also favours the constructor, whose qualified name
// repeats the word (JsonReader.JsonReader): at full weight moshi's two
// protected constructors came before the class JsonReader. At half, the
// class, first in the exact lane, stays ahead whatever the full-text lane
// says: 2/(k+1) > 1/(k+2) + 1/(k+1).
const constructorNameWeight = 0.5

type exactHit struct {
	id, kind string
	weight   float64
	isTest   bool
}

// exactNames finds symbols named exactly (or case-insensitively, weighted
// lower) by one of names; a qualified name (Store.Add) matches through its
// last segment and the qualified name. Every lookup uses an index.
func (x *Index) exactNames(ctx context.Context, names []string) ([]exactHit, error) {
	var out []exactHit
	seen := map[string]bool{}
	for _, n := range names {
		if n == "" || len(n) > 200 {
			continue
		}
		short := lastSegment(n)
		rows, err := x.queryPrepared(ctx, `SELECT s.id, s.kind, s.name, s.qualified, s.is_test FROM symbols s JOIN paths p ON p.id = s.path_id
			WHERE s.to_seq IS NULL AND s.name = ?1 COLLATE NOCASE AND (s.kind != 'module' OR s.parent_id != '')
			ORDER BY s.is_test, p.path, s.start_line LIMIT 300`, short)
		if err != nil {
			return nil, fmt.Errorf("exact search: %w", err)
		}
		type match struct {
			id, kind string
			w        float64
			isTest   bool
		}
		var ms []match
		for rows.Next() {
			var id, kind, name, qualified string
			var isTest int
			if err := rows.Scan(&id, &kind, &name, &qualified, &isTest); err != nil {
				rows.Close()
				return nil, err
			}
			w := 0.6 // another case
			switch {
			case n != short && (qualified == n || strings.HasSuffix(qualified, "."+n)):
				w = 1
			case n != short && strings.EqualFold(qualified, n):
				w = 0.8
			case n != short:
				w = 0.4 // the last segment only
			case name == n:
				w = 1
			}
			if kind == lang.KindConstructor && n == short && name == n {
				w *= constructorNameWeight
			}
			if isTest != 0 {
				w *= 0.7
			}
			ms = append(ms, match{id, kind, w, isTest != 0})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].w > ms[j].w })
		for _, m := range ms {
			if !seen[m.id] {
				seen[m.id] = true
				out = append(out, exactHit{m.id, m.kind, m.w, m.isTest})
			}
		}
	}
	return out, nil
}

// maxModuleHits bounds the modules one name or term brings in.
const maxModuleHits = 200

// moduleNames finds module symbols named by one of names (weight 1) or
// whose file's path contains one of terms as a path segment or file stem
// (weight 0.5).
func (x *Index) moduleNames(ctx context.Context, names, terms []string) ([]exactHit, error) {
	var out []exactHit
	seen := map[string]bool{}
	add := func(q string, w float64, args ...any) error {
		rows, err := x.DB.QueryContext(ctx, `SELECT s.id, s.is_test FROM symbols s JOIN paths p ON p.id = s.path_id
			WHERE s.to_seq IS NULL AND s.kind = 'module' AND `+q+` ORDER BY s.is_test, p.path LIMIT `+fmt.Sprint(maxModuleHits), args...)
		if err != nil {
			return fmt.Errorf("module search: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var isTest int
			if err := rows.Scan(&id, &isTest); err != nil {
				return err
			}
			if !seen[id] {
				seen[id] = true
				out = append(out, exactHit{id, lang.KindModule, w, isTest != 0})
			}
		}
		return rows.Err()
	}
	for _, n := range names {
		if n != "" && len(n) <= 200 {
			if err := add(`s.name = ?1 COLLATE NOCASE`, 1, lastSegment(n)); err != nil {
				return nil, err
			}
		}
	}
	for _, t := range terms {
		// a directory named t, or a file whose stem is t
		e := likeEscape(t)
		if err := add(`(p.path LIKE ?1 ESCAPE '\' OR p.path LIKE ?2 ESCAPE '\' OR p.path LIKE ?3 ESCAPE '\' OR p.path LIKE ?4 ESCAPE '\')`, 0.5,
			e+"/%", "%/"+e+"/%", e+".%", "%/"+e+".%"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}

func lastSegment(n string) string {
	if i := strings.LastIndexAny(n, ".:"); i >= 0 && i < len(n)-1 {
		return n[i+1:]
	}
	return n
}

type ftsHit struct {
	id, kind, path  string
	name, container string
	lines           [2]int  // start and end line
	score           float64 // higher is better
	isTest          bool
	parentID        string
	current         bool
}

// ftsSearch runs a full-text query and returns current symbols by bm25.
func (x *Index) ftsSearch(ctx context.Context, match string, limit int) ([]ftsHit, error) {
	// rank inside the full-text table first and join only the best: a
	// join per matched row costs more than the ranking itself
	rows, err := x.queryPrepared(ctx, `SELECT s.id, s.kind, p.path, s.is_test, f.score, s.parent_id, s.to_seq IS NULL,
			s.name, s.container, s.start_line, s.end_line
		FROM (SELECT rowid, -bm25(symbols_fts, `+ftsWeights+`) AS score FROM symbols_fts
			WHERE symbols_fts MATCH ? ORDER BY score DESC LIMIT ?) f
		JOIN symbols s ON s.rowid = f.rowid JOIN paths p ON p.id = s.path_id
		WHERE s.kind != 'module'
		ORDER BY f.score DESC, s.id`, match, limit+limit/4)
	if err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	defer rows.Close()
	var out []ftsHit
	for rows.Next() {
		var h ftsHit
		var isTest, current int
		if err := rows.Scan(&h.id, &h.kind, &h.path, &isTest, &h.score, &h.parentID, &current,
			&h.name, &h.container, &h.lines[0], &h.lines[1]); err != nil {
			return nil, err
		}
		h.isTest, h.current = isTest != 0, current != 0
		out = append(out, h)
	}
	return out, rows.Err()
}
