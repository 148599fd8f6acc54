package query

import (
	"context"
	"fmt"
	"sort"

	"github.com/sdl-dev/sdl/lang"
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
}

// edgesTouching loads the resolved current edges with an end in ids whose
// confidence is at least minConf (minCallConf for calls).
func (x *Index) edgesTouching(ctx context.Context, ids []string, minConf, minCallConf float64) ([]graphEdge, error) {
	var out []graphEdge
	seen := map[[3]string]bool{}
	for start := 0; start < len(ids); start += 400 {
		chunk := ids[start:min(start+400, len(ids))]
		args := make([]any, 0, 2*len(chunk))
		for _, id := range chunk {
			args = append(args, id)
		}
		for _, id := range chunk {
			args = append(args, id)
		}
		ph := placeholders(len(chunk))
		rows, err := x.DB.QueryContext(ctx, `SELECT src, dst, kind, confidence, count FROM edges
			WHERE to_seq IS NULL AND dst IS NOT NULL AND src IN (`+ph+`)
			UNION ALL SELECT src, dst, kind, confidence, count FROM edges
			WHERE to_seq IS NULL AND dst IN (`+ph+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("load edges: %w", err)
		}
		for rows.Next() {
			var e graphEdge
			if err := rows.Scan(&e.src, &e.dst, &e.kind, &e.conf, &e.count); err != nil {
				rows.Close()
				return nil, err
			}
			if e.conf < minConf || (e.kind == lang.RefCall && e.conf < minCallConf) || e.src == e.dst {
				continue
			}
			k := [3]string{e.src, e.dst, e.kind}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
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
