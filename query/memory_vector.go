package query

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/schema"
)

// Lane weights of memory search: a bm25 match counts fully and the vector
// lane half. With rrfK = 60 a memory only the vectors find ranks below the
// first sixty bm25 matches, and one that both lanes find rises above those
// only bm25 finds.
const (
	memoryWeightFTS    = 1.0
	memoryWeightVector = 0.5
)

// memoryVectors scores the memories of ms by the cosine of their vectors
// to text's, keeping those at least minSimilarity of the nearest one's.
// Memories stored since the last index run (not in the index's vectors)
// are embedded now. When the lane cannot run it returns no scores and the
// reason; err is for failures of the index file.
func (x *Index) memoryVectors(ctx context.Context, ms map[string]*Memory, text string) (map[string]float64, string, error) {
	model, dim, err := x.vectorInfo(ctx)
	if err != nil {
		return nil, "", err
	}
	if model == "" {
		return nil, "no vectors in this index: sdl index --embed builtin adds them", nil
	}
	ok, err := schema.TableExists(ctx, x.DB, schema.MemoryVectors)
	if err != nil {
		return nil, "", fmt.Errorf("memory vectors: %w", err)
	}
	if !ok {
		return nil, "the index has no memory vectors: run sdl index", nil
	}
	p, q, reason, err := x.embedQuestion(ctx, model, dim, text)
	if q == nil {
		return nil, reason, err
	}
	sims := map[string]float64{}
	bySeq := make(map[int64]string, len(ms))
	var fresh []*Memory
	for _, m := range ms {
		if m.seq == 0 {
			fresh = append(fresh, m)
		} else {
			bySeq[m.seq] = m.MemoryID
		}
	}
	rows, err := x.DB.QueryContext(ctx, `SELECT rowid, embedding FROM `+schema.MemoryVectors)
	if err != nil {
		return nil, "", fmt.Errorf("memory vectors: %w", err)
	}
	for rows.Next() {
		var seq int64
		var blob []byte
		if err := rows.Scan(&seq, &blob); err != nil {
			rows.Close()
			return nil, "", err
		}
		id, ok := bySeq[seq]
		if !ok || len(blob) != len(q) {
			continue // a memory changed or removed since the last index run
		}
		v := make([]int8, len(blob))
		for i, b := range blob {
			v[i] = int8(b)
		}
		sims[id] = cosine8(q, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, "", fmt.Errorf("memory vectors: %w", err)
	}
	if len(fresh) > 0 {
		// stored since the last index run: embedded now, like the
		// indexer would (a failure leaves them to the bm25 lane)
		sort.Slice(fresh, func(i, j int) bool { return fresh[i].MemoryID < fresh[j].MemoryID })
		docs := make([]embed.Doc, len(fresh))
		for i, m := range fresh {
			docs[i] = embed.MemoryDoc(m.Type, m.Title, m.Content, m.Tags)
		}
		vs, err := p.EmbedDocs(ctx, docs)
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		if err == nil && len(vs) == len(fresh) {
			for i, v := range vs {
				if len(v) == len(q) {
					sims[fresh[i].MemoryID] = cosine8(q, embed.Quantize(v))
				}
			}
		}
	}
	var top float64
	for _, s := range sims {
		top = math.Max(top, s)
	}
	for id, s := range sims {
		if s <= 0 || s < minSimilarity*top {
			delete(sims, id)
		}
	}
	return sims, "", nil
}

// cosine8 is the cosine of two int8 vectors of one length.
func cosine8(a, b []int8) float64 {
	var dot, na, nb int64
	for i := range a {
		dot += int64(a[i]) * int64(b[i])
		na += int64(a[i]) * int64(a[i])
		nb += int64(b[i]) * int64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return float64(dot) / math.Sqrt(float64(na)*float64(nb))
}

// fuseMemoryLanes fuses the bm25 scores and vector similarities of
// memories by weighted reciprocal rank, normalized to the best (1).
func fuseMemoryLanes(bm25, vec map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for _, lane := range []struct {
		scores map[string]float64
		w      float64
	}{{bm25, memoryWeightFTS}, {vec, memoryWeightVector}} {
		ids := make([]string, 0, len(lane.scores))
		for id := range lane.scores {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool {
			if a, b := lane.scores[ids[i]], lane.scores[ids[j]]; a != b {
				return a > b
			}
			return ids[i] < ids[j]
		})
		for r, id := range ids {
			out[id] += lane.w / float64(rrfK+r+1)
		}
	}
	var top float64
	for _, s := range out {
		top = math.Max(top, s)
	}
	for id, s := range out {
		out[id] = s / top
	}
	return out
}
