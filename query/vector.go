package query

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/schema"
)

// Retrieval modes an answer reports.
const (
	ModeHybrid  = "hybrid"  // the vector lane ran with the lexical ones
	ModeLexical = "lexical" // exact and full-text lanes only
)

// minSimilarity keeps the vector lane to neighbours at least this share
// of the nearest one's cosine: past that, averaged vectors of unrelated
// code differ by noise, and rank fusion would still credit them.
const minSimilarity = 0.5

// vecHit is a symbol found by the vector lane.
type vecHit struct {
	id, kind string
	sim      float64 // cosine similarity
}

// queryEmbedders caches the provider that embeds questions, per model.
type queryEmbedders struct {
	mu sync.Mutex
	m  map[string]embed.Provider
}

// SetEmbedder makes x embed questions with p when the index's vectors
// come from p's model (tests, and servers that configure providers).
func (x *Index) SetEmbedder(p embed.Provider) {
	x.embedders.mu.Lock()
	defer x.embedders.mu.Unlock()
	if x.embedders.m == nil {
		x.embedders.m = map[string]embed.Provider{}
	}
	x.embedders.m[p.ID()] = p
}

// embedderFor returns the provider of model, or why there is none.
func (x *Index) embedderFor(model string) (embed.Provider, string) {
	x.embedders.mu.Lock()
	defer x.embedders.mu.Unlock()
	if p, ok := x.embedders.m[model]; ok {
		return p, ""
	}
	var p embed.Provider
	switch embed.ProviderOf(model) {
	case embed.ProviderBuiltin:
		b, err := embed.Default()
		if err != nil {
			return nil, err.Error()
		}
		if b.ID() != model {
			return nil, fmt.Sprintf("the index's vectors come from %s and this sdl has %s: run sdl index to embed again", model, b.ID())
		}
		p = b
	case embed.ProviderHTTP:
		cfg, err := embed.LoadConfig(x.Root)
		if err == nil {
			// a question waits for its answer: one retry, not the indexer's three
			cfg.Provider = embed.ProviderHTTP
			cfg.HTTP.Retries = 1
			p, err = cfg.Open()
		}
		if err != nil {
			return nil, fmt.Sprintf("the index's vectors come from %s, which is not configured here (%v)", model, err)
		}
		if p.ID() != model {
			return nil, fmt.Sprintf("model mismatch: the index's vectors come from %s, the configured model is %s", model, p.ID())
		}
	default:
		return nil, fmt.Sprintf("unknown embedding model %q", model)
	}
	if x.embedders.m == nil {
		x.embedders.m = map[string]embed.Provider{}
	}
	x.embedders.m[model] = p
	return p, ""
}

// vectorInfo reads the index's embedding model and dimension; model is ""
// when the index has no vectors.
func (x *Index) vectorInfo(ctx context.Context) (string, int, error) {
	model, err := schema.GetMeta(ctx, x.DB, schema.MetaEmbeddingModel)
	if err != nil {
		return "", 0, fmt.Errorf("read meta: %w", err)
	}
	if model == "" || model == embed.ProviderNone {
		return "", 0, nil
	}
	var dim int
	if v, err := schema.GetMeta(ctx, x.DB, schema.MetaEmbeddingDim); err == nil {
		fmt.Sscan(v, &dim)
	}
	ok, err := schema.TableExists(ctx, x.DB, schema.SymbolVectors)
	if err != nil || !ok || dim == 0 {
		return "", 0, err
	}
	return model, dim, nil
}

// VectorLaneReason says why the vector lane cannot run on this index, or
// "" when it can.
func (x *Index) VectorLaneReason(ctx context.Context) string {
	model, _, err := x.vectorInfo(ctx)
	switch {
	case err != nil:
		return err.Error()
	case model == "":
		return "no vectors in this index: sdl index --embed builtin adds them"
	}
	if _, reason := x.embedderFor(model); reason != "" {
		return reason
	}
	return ""
}

// vectorSearch finds the symbols whose vectors are nearest to text's. When
// the lane cannot run it returns no hits and the reason, never an error
// for a missing or unreachable model.
func (x *Index) vectorSearch(ctx context.Context, text string, k int) ([]vecHit, string, error) {
	model, dim, err := x.vectorInfo(ctx)
	if err != nil {
		return nil, "", err
	}
	if model == "" {
		return nil, "no vectors in this index: sdl index --embed builtin adds them", nil
	}
	p, reason := x.embedderFor(model)
	if p == nil {
		return nil, reason, nil
	}
	q, err := p.EmbedQuery(ctx, text)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, fmt.Sprintf("could not embed the query: %v", err), nil
	}
	if q == nil {
		return nil, "no word of the query is known to the embedding model", nil
	}
	if len(q) != dim {
		return nil, fmt.Sprintf("%v: the index has %d dimensions, %s gave %d", embed.ErrDimension, dim, model, len(q)), nil
	}
	hits, err := x.knn(ctx, embed.Quantize(q), k)
	if err != nil || len(hits) == 0 {
		return hits, "", err
	}
	floor := minSimilarity * hits[0].sim
	n := 0
	for _, h := range hits {
		if h.sim > 0 && h.sim >= floor {
			hits[n] = h
			n++
		}
	}
	return hits[:n], "", nil
}

// knn asks vec0 for the k nearest current symbols. vec0 scans every vector
// in its chunks (no approximate index), which measured faster than loading
// the vectors into Go for a scan in a process that answers one question
// (BenchmarkQueriesGoroot: vec0-knn against scan-cold and scan-warm).
func (x *Index) knn(ctx context.Context, q []int8, k int) ([]vecHit, error) {
	if k > 4096 {
		k = 4096 // vec0's limit
	}
	blob := make([]byte, len(q))
	for i, v := range q {
		blob[i] = byte(v)
	}
	rows, err := x.DB.QueryContext(ctx, `SELECT s.id, s.kind, v.distance
		FROM (SELECT rowid, distance FROM `+schema.SymbolVectors+` WHERE embedding MATCH vec_int8(?) AND k = ?) v
		JOIN symbols s ON s.rowid = v.rowid
		WHERE s.to_seq IS NULL AND s.kind != 'module'
		ORDER BY v.distance, s.id`, blob, k)
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	defer rows.Close()
	var out []vecHit
	for rows.Next() {
		var h vecHit
		var dist float64
		if err := rows.Scan(&h.id, &h.kind, &dist); err != nil {
			return nil, err
		}
		h.sim = 1 - dist
		out = append(out, h)
	}
	if err := rows.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	return out, rows.Err()
}
