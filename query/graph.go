package query

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// Edge weights by kind, as the spec orders them: call > config > import.
var edgeWeight = map[string]float64{
	lang.RefCall:       1.0,
	lang.RefNew:        0.9,
	"config":           0.8,
	lang.RefImplements: 0.8,
	lang.RefExtends:    0.8,
	"import":           0.6,
	lang.RefReference:  0.7,
}

// graphEdge is a resolved current edge.
type graphEdge struct {
	src, dst string
	kind     string
	conf     float64
	count    int
	rowid    int64
}

// edgesTouching loads the resolved current edges with an end in ids whose
// confidence is at least minConf (minCallConf for calls): each (src, dst,
// kind) once, as its first row (the lowest rowid) that passes, ordered by
// src, dst and kind. The edges of each id are remembered until the file
// changes.
func (x *Index) edgesTouching(ctx context.Context, ids []string, minConf, minCallConf float64) ([]graphEdge, error) {
	if _, err := x.dataVersion(ctx); err != nil {
		return nil, err
	}
	byID, missing := x.graphCache.edgesOf(ids)
	for chunk := range slices.Chunk(missing, schema.MaxInListTwice) {
		args := append(schema.Args(chunk), schema.Args(chunk)...)
		ph := schema.Placeholders(len(chunk))
		// into marks the rows of the second half: an edge with both ends
		// in the chunk came in the first, as its source's
		rows, err := x.DB.QueryContext(ctx, `SELECT src, dst, kind, confidence, count, rowid, 0 FROM edges
			WHERE to_seq IS NULL AND dst IS NOT NULL AND src IN (`+ph+`)
			UNION ALL SELECT src, dst, kind, confidence, count, rowid, 1 FROM edges
			WHERE to_seq IS NULL AND dst IN (`+ph+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("load edges: %w", err)
		}
		got := make(map[string][]graphEdge, len(chunk))
		for _, id := range chunk {
			got[id] = []graphEdge{}
		}
		for rows.Next() {
			var e graphEdge
			var into bool
			if err := rows.Scan(&e.src, &e.dst, &e.kind, &e.conf, &e.count, &e.rowid, &into); err != nil {
				rows.Close()
				return nil, err
			}
			_, fromChunk := got[e.src]
			if into && fromChunk {
				continue // both ends in the chunk
			}
			if fromChunk {
				got[e.src] = append(got[e.src], e)
			}
			if _, ok := got[e.dst]; ok && e.dst != e.src {
				got[e.dst] = append(got[e.dst], e)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for id, es := range got {
			byID[id] = es
			x.graphCache.putEdges(id, es)
		}
	}
	first := map[[3]string]graphEdge{}
	for _, id := range ids {
		for _, e := range byID[id] {
			if e.conf < minConf || (e.kind == lang.RefCall && e.conf < minCallConf) || e.src == e.dst {
				continue
			}
			k := [3]string{e.src, e.dst, e.kind}
			if f, ok := first[k]; !ok || e.rowid < f.rowid {
				first[k] = e
			}
		}
	}
	out := make([]graphEdge, 0, len(first))
	for _, e := range first {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].src != out[j].src {
			return out[i].src < out[j].src
		}
		if out[i].dst != out[j].dst {
			return out[i].dst < out[j].dst
		}
		return out[i].kind < out[j].kind
	})
	return out, nil
}

// graphCache remembers, for the symbols slices and summaries looked at,
// their edges and what ranking needs of them, until the file changes
// (vocab.open clears it): consecutive questions about one code base look
// at many of the same symbols. What it holds is shared and never changed.
type graphCache struct {
	mu     sync.Mutex
	edges  map[string][]graphEdge // id -> the resolved edges with an end at id
	nEdges int
	rows   map[string]*symbolRow // id -> file, kind, parent, is_test
}

// Bounds of the graph cache: a symbol called from thousands of places
// holds thousands of edges.
const (
	maxCachedEdges = 100000
	maxCachedRows  = 30000
)

// edgesInto reads the resolved current edges into ids, by target: what
// the callers of a card need of the symbols ranking did not reach. They
// are not cached: graphCache holds both directions of an id.
func (x *Index) edgesInto(ctx context.Context, ids []string) (map[string][]graphEdge, error) {
	out := make(map[string][]graphEdge, len(ids))
	for chunk := range slices.Chunk(ids, schema.MaxInList) {
		args := schema.Args(chunk)
		rows, err := x.DB.QueryContext(ctx, `SELECT src, dst, kind, confidence, count, rowid FROM edges
			WHERE to_seq IS NULL AND dst IN (`+schema.Placeholders(len(chunk))+`)`, args...) // edges_cur_dst
		if err != nil {
			return nil, fmt.Errorf("load callers: %w", err)
		}
		for rows.Next() {
			var e graphEdge
			if err := rows.Scan(&e.src, &e.dst, &e.kind, &e.conf, &e.count, &e.rowid); err != nil {
				rows.Close()
				return nil, err
			}
			out[e.dst] = append(out[e.dst], e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// edgesOf returns the cached edges of ids, and the ids not cached.
func (c *graphCache) edgesOf(ids []string) (map[string][]graphEdge, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string][]graphEdge, len(ids))
	var missing []string
	for _, id := range ids {
		if es, ok := c.edges[id]; ok {
			out[id] = es
		} else if _, dup := out[id]; !dup {
			out[id] = nil
			missing = append(missing, id)
		}
	}
	return out, missing
}

func (c *graphCache) putEdges(id string, es []graphEdge) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.edges == nil || c.nEdges+len(es) > maxCachedEdges {
		c.edges, c.nEdges = map[string][]graphEdge{}, 0
	}
	c.edges[id] = es
	c.nEdges += len(es)
}

// rowsOf moves the cached rows of ids into out and returns the ids not
// cached.
func (c *graphCache) rowsOf(ids []string, out map[string]*symbolRow) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var missing []string
	for _, id := range ids {
		if r := c.rows[id]; r != nil {
			out[id] = r
		} else {
			missing = append(missing, id)
		}
	}
	return missing
}

func (c *graphCache) putRows(rows map[string]*symbolRow) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rows == nil || len(c.rows)+len(rows) > maxCachedRows {
		c.rows = map[string]*symbolRow{}
	}
	for id, r := range rows {
		c.rows[id] = r
	}
}

func (c *graphCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.edges, c.nEdges, c.rows = nil, 0, nil
}

// pagerank runs personalized PageRank over edges (followed both ways: a
// callee's relevance flows to its callers and back, the reverse direction
// weighted lower) with restart distribution seeds. It returns a score per
// node, summing to 1.
func pagerank(edges []graphEdge, seeds map[string]float64, restart float64, iters int) map[string]float64 {
	idx := map[string]int{}
	var nodes []string
	node := func(id string) int {
		if i, ok := idx[id]; ok {
			return i
		}
		idx[id] = len(nodes)
		nodes = append(nodes, id)
		return len(nodes) - 1
	}
	for _, id := range sortedIDs(seeds) {
		node(id)
	}
	type arc struct {
		to int
		w  float64
	}
	var adj [][]arc
	grow := func() {
		for len(adj) < len(nodes) {
			adj = append(adj, nil)
		}
	}
	for _, e := range edges {
		s, d := node(e.src), node(e.dst)
		grow()
		w := edgeWeight[e.kind] * e.conf
		if w == 0 {
			w = 0.5 * e.conf
		}
		adj[s] = append(adj[s], arc{d, w})
		adj[d] = append(adj[d], arc{s, 0.6 * w})
	}
	grow()
	n := len(nodes)
	if n == 0 {
		return map[string]float64{}
	}
	p := make([]float64, n)
	var total float64
	for id, w := range seeds {
		p[idx[id]] = w
		total += w
	}
	if total == 0 {
		return map[string]float64{}
	}
	for i := range p {
		p[i] /= total
	}
	outW := make([]float64, n)
	for i, as := range adj {
		for _, a := range as {
			outW[i] += a.w
		}
	}
	r := append([]float64(nil), p...)
	next := make([]float64, n)
	for it := 0; it < iters; it++ {
		for i := range next {
			next[i] = restart * p[i]
		}
		var dangling float64
		for i, as := range adj {
			if outW[i] == 0 {
				dangling += r[i]
				continue
			}
			share := (1 - restart) * r[i] / outW[i]
			for _, a := range as {
				next[a.to] += share * a.w
			}
		}
		// mass of nodes without edges returns to the seeds
		for i := range next {
			next[i] += (1 - restart) * dangling * p[i]
		}
		r, next = next, r
	}
	out := make(map[string]float64, n)
	for i, id := range nodes {
		out[id] = r[i]
	}
	return out
}

func sortedIDs(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
