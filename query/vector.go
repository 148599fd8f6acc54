package query

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
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
	_, q8, reason, err := x.embedQuestion(ctx, model, dim, text)
	if q8 == nil {
		return nil, reason, err
	}
	hits, warm, err := x.warmKNN(ctx, model, q8, min(k, 4096))
	if err == nil && !warm {
		hits, err = x.knn(ctx, q8, k)
	}
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

// embedQuestion embeds text with the index's model (of dimension dim),
// quantized like the stored vectors. When it cannot, the vector is nil
// and reason says why; err is for a cancelled context only.
func (x *Index) embedQuestion(ctx context.Context, model string, dim int, text string) (embed.Provider, []int8, string, error) {
	p, reason := x.embedderFor(model)
	if p == nil {
		return nil, nil, reason, nil
	}
	q, err := p.EmbedQuery(ctx, text)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, "", ctx.Err()
		}
		return nil, nil, fmt.Sprintf("could not embed the query: %v", err), nil
	}
	if q == nil {
		return nil, nil, "no word of the query is known to the embedding model", nil
	}
	if len(q) != dim {
		return nil, nil, fmt.Sprintf("%v: the index has %d dimensions, %s gave %d", embed.ErrDimension, dim, model, len(q)), nil
	}
	return p, embed.Quantize(q), "", nil
}

// knn finds the k nearest current symbols as vec0's KNN query does, from
// vec0's chunks read whole (chunkKNN), or by that query when they cannot
// be. Either scans every vector (there is no approximate index); reading
// them is a third of chunkKNN's time, which a scan of vectors kept in
// memory (scan-warm), as servers do, saves.
func (x *Index) knn(ctx context.Context, q []int8, k int) ([]vecHit, error) {
	if k > 4096 {
		k = 4096 // vec0's limit
	}
	top, err := x.chunkKNN(ctx, schema.SymbolVectors, q, k)
	if errors.Is(err, errChunkLayout) {
		return x.knnVec0(ctx, q, k)
	}
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	rows := make([]scored, len(top))
	for i, n := range top {
		rows[i] = scored{n.rowid, 1 - float64(n.dist)}
	}
	return x.symbolsOf(ctx, rows)
}

// knnVec0 asks vec0 for the k nearest current symbols.
func (x *Index) knnVec0(ctx context.Context, q []int8, k int) ([]vecHit, error) {
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

// A server answers many questions from one index: there a scan of the
// vectors kept in memory saves reading them for every question
// (BenchmarkQueriesGoroot: chunk-knn against scan-warm). The scan ranks
// them as vec0 does, so a server and a one-question process find the same
// neighbours.

// KeepVectors makes x keep the index's vectors in memory for the vector
// lane once it has loaded them in the background; until then, and after
// the file changes until they are loaded again, they are read for each
// question.
func (x *Index) KeepVectors() {
	x.vectors.mu.Lock()
	x.vectors.keep = true
	x.vectors.mu.Unlock()
}

// vectorCache is the vectors of one state of the index file, as vec0
// keeps them (its chunks in order).
type vectorCache struct {
	mu      sync.Mutex
	keep    bool
	loading bool
	key     string // of the loaded state
	checked int64  // the data version at which key was last found current
	dim     int
	chunks  []warmChunk
	n       int // vectors
}

// vectorsKey identifies the state of the vectors: the model, the ledger
// version, and the rows (vectors change without a version when a model
// changes or missing ones are added).
func (x *Index) vectorsKey(ctx context.Context, model string) (string, error) {
	var seq, n, max int64
	if err := x.DB.QueryRowContext(ctx, `SELECT COALESCE(max(seq), 0) FROM versions`).Scan(&seq); err != nil {
		return "", err
	}
	if err := x.DB.QueryRowContext(ctx, `SELECT count(*), COALESCE(max(rowid), 0) FROM `+schema.SymbolEmbeddings).Scan(&n, &max); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s|%d|%d|%d", model, seq, n, max), nil
}

// warmKNN answers from the vectors in memory when they are those of the
// file now; ok is false when they are not (loading starts then).
func (x *Index) warmKNN(ctx context.Context, model string, q []int8, k int) ([]vecHit, bool, error) {
	c := &x.vectors
	c.mu.Lock()
	keep := c.keep
	c.mu.Unlock()
	if !keep {
		return nil, false, nil
	}
	// counting the vectors for their key costs a third of a scan: not
	// while nothing was committed to the file since they were found current
	dv, err := x.dataVersion(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("vector search: %w", err)
	}
	c.mu.Lock()
	current := c.key != "" && c.checked == dv
	c.mu.Unlock()
	if !current {
		key, err := x.vectorsKey(ctx, model)
		if err != nil {
			return nil, false, fmt.Errorf("vector search: %w", err)
		}
		c.mu.Lock()
		if c.key != key {
			if !c.loading {
				c.loading = true
				go x.loadVectors(key)
			}
			c.mu.Unlock()
			return nil, false, nil
		}
		c.checked = dv
		c.mu.Unlock()
	}
	c.mu.Lock()
	chunks, dim := c.chunks, c.dim
	c.mu.Unlock()
	if dim != len(q) {
		return nil, false, nil
	}
	top := warmKNNIn(chunks, q, k)
	rows := make([]scored, len(top))
	for i, n := range top {
		rows[i] = scored{n.rowid, 1 - float64(n.dist)}
	}
	hits, err := x.symbolsOf(ctx, rows)
	return hits, err == nil, err
}

// loadVectors reads every vector into memory, for the state key.
func (x *Index) loadVectors(key string) {
	c := &x.vectors
	ctx := context.Background()
	var chunks []warmChunk
	_, dim, err := x.vectorInfo(ctx)
	if err == nil {
		chunks, err = x.loadChunks(ctx, schema.SymbolVectors, dim)
	}
	n := 0
	for _, ch := range chunks {
		for i := range ch.size() {
			if ch.valid[i/8]&(1<<(i%8)) != 0 {
				n++
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loading = false
	if err != nil {
		return // vec0 keeps answering; the next question tries again
	}
	c.key, c.chunks, c.dim, c.n = key, chunks, dim, n
}

// scored is a vector row and its cosine similarity to a question.
type scored struct {
	rowid int64
	sim   float64
}

// symbolsOf turns scored rows into hits on current symbols, in the order
// vec0's query gives: nearest first, then by id.
func (x *Index) symbolsOf(ctx context.Context, top []scored) ([]vecHit, error) {
	if len(top) == 0 {
		return nil, nil
	}
	args := make([]any, len(top))
	sim := make(map[int64]float64, len(top))
	for i, t := range top {
		args[i] = t.rowid
		sim[t.rowid] = t.sim
	}
	rows, err := x.DB.QueryContext(ctx, `SELECT rowid, id, kind FROM symbols WHERE rowid IN (`+
		strings.TrimSuffix(strings.Repeat("?,", len(args)), ",")+`) AND to_seq IS NULL AND kind != 'module'`, args...)
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	defer rows.Close()
	var out []vecHit
	for rows.Next() {
		var rowid int64
		var h vecHit
		if err := rows.Scan(&rowid, &h.id, &h.kind); err != nil {
			return nil, err
		}
		h.sim = sim[rowid]
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].sim != out[j].sim {
			return out[i].sim > out[j].sim
		}
		return out[i].id < out[j].id
	})
	return out, rows.Err()
}
