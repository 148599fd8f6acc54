package query

import (
	"context"
	"fmt"
	"unicode/utf8"
)

// KNNForTest runs the vector lane's vec0 query alone and returns how many
// symbols it found, for benchmarks.
func (x *Index) KNNForTest(ctx context.Context, q []int8, k int) (int, error) {
	hits, err := x.knnVec0(ctx, q, k)
	return len(hits), err
}

// ChunkKNNForTest runs the vector lane's query from vec0's chunks alone
// and returns how many symbols it found, for benchmarks.
func (x *Index) ChunkKNNForTest(ctx context.Context, q []int8, k int) (int, error) {
	hits, err := x.knn(ctx, q, k)
	return len(hits), err
}

// KNNAllForTest returns the ids and similarities of the k nearest
// symbols: by vec0's query, from its chunks, and from the vectors in
// memory (LoadVectorsForTest first).
func (x *Index) KNNAllForTest(ctx context.Context, q []int8, k int) (vec0, chunks, warm []string, err error) {
	show := func(hs []vecHit) []string {
		var out []string
		for _, h := range hs {
			out = append(out, fmt.Sprintf("%s %.9g", h.id, h.sim))
		}
		return out
	}
	a, err := x.knnVec0(ctx, q, k)
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := x.knn(ctx, q, k)
	if err != nil {
		return nil, nil, nil, err
	}
	model, _, err := x.vectorInfo(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	c, ok, err := x.warmKNN(ctx, model, q, k)
	if err != nil || !ok {
		return nil, nil, nil, fmt.Errorf("no vectors in memory: %v", err)
	}
	return show(a), show(b), show(c), nil
}

// LoadVectorsForTest loads the vectors into memory now, as KeepVectors
// does in the background, and reports how many it holds.
func (x *Index) LoadVectorsForTest(ctx context.Context) (int, error) {
	model, _, err := x.vectorInfo(ctx)
	if err != nil {
		return 0, err
	}
	key, err := x.vectorsKey(ctx, model)
	if err != nil {
		return 0, err
	}
	x.KeepVectors()
	x.loadVectors(key)
	x.vectors.mu.Lock()
	defer x.vectors.mu.Unlock()
	return x.vectors.n, nil
}

// WarmKNNForTest runs the in-memory scan alone; ok is false when the
// vectors in memory are not those of the file.
func (x *Index) WarmKNNForTest(ctx context.Context, q []int8, k int) (int, bool, error) {
	model, _, err := x.vectorInfo(ctx)
	if err != nil {
		return 0, false, err
	}
	hits, ok, err := x.warmKNN(ctx, model, q, k)
	return len(hits), ok, err
}

// ReachForTest exposes the blast radius query to the external tests.
func ReachForTest(x *Index, ctx context.Context, v int64, seeds []string, depth int) (map[string]map[string]int, bool, error) {
	return x.reach(ctx, v, seeds, depth)
}

// ReachPlanForTest is the query plan of the blast radius query at version v.
func ReachPlanForTest(x *Index, ctx context.Context, v int64) ([]string, error) {
	rows, err := x.DB.QueryContext(ctx, "EXPLAIN QUERY PLAN "+reachQuery, `["x"]`, v, 4, reachLimit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			return nil, err
		}
		out = append(out, detail)
	}
	return out, rows.Err()
}

// SplitTokensForTest splits valid UTF-8 text into the pieces Tokens counts
// one by one (a character no piece matches is left out).
func SplitTokensForTest(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		e := splitO200k(s, i)
		if e < 0 {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		out = append(out, s[i:e])
		i = e
	}
	return out
}

// O200kTableForTest returns the embedded vocabulary, token by rank.
func O200kTableForTest() map[uint32]string {
	out := make(map[uint32]string, o200kLen())
	for i := range o200kLen() {
		tok, r := o200kEntry(i)
		out[r] = tok
	}
	return out
}

// O200kRankForTest looks a token up in the embedded vocabulary.
func O200kRankForTest(tok string) (uint32, bool) {
	r := o200kRank(tok)
	return r, r != noRank
}

// BM25ForTest is the reference of the query benchmarks: one bare FTS5
// bm25 query over the symbols' full text, the terms of text OR-ed, the
// best limit rows, with nothing joined or fused. It returns how many rows
// it read.
func (x *Index) BM25ForTest(ctx context.Context, text string, limit int) (int, error) {
	terms, _ := queryTerms(text)
	m := ftsMatch(terms)
	if m == "" {
		return 0, nil
	}
	rows, err := x.DB.QueryContext(ctx, `SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH ? ORDER BY bm25(symbols_fts) LIMIT ?`, m, limit)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}

// ErrorMessagesForTest returns the messages and exception classes the
// error-message lane reads in a task text, and each message's phrases.
func ErrorMessagesForTest(text string) (msgs, classes []string, phrases [][]string) {
	msgs, classes = errorMessages(text)
	for _, m := range msgs {
		phrases = append(phrases, messagePhrases(m))
	}
	return msgs, classes, phrases
}

// IsProjectPackageForTest tells whether prog names a folder of the index,
// as the command-line lane asks of a program at a prompt.
func (x *Index) IsProjectPackageForTest(ctx context.Context, prog string) bool {
	return x.isProjectPackage(ctx, prog)
}

// CallersForTest returns the callers of ids as a card reads them from the
// index, and as a slice orders them from the edges and rows its ranking
// read (graphCallers), with how many ids the latter answered.
func (x *Index) CallersForTest(ctx context.Context, ids []string, minCall float64) (fromIndex, fromGraph map[string][]Dep, answered int, err error) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	opts := CardOptions{MinCallConfidence: minCall}
	if fromIndex, err = x.callers(ctx, args, opts); err != nil {
		return nil, nil, 0, err
	}
	// what ranking reads: the edges of the ids, the rows of their ends
	edges, err := x.edgesTouching(ctx, ids, 0, 0)
	if err != nil {
		return nil, nil, 0, err
	}
	var ends []string
	for _, e := range edges {
		ends = append(ends, e.src, e.dst)
	}
	if opts.callerRows, err = x.rankRows(ctx, ends, nil); err != nil {
		return nil, nil, 0, err
	}
	// every other row as the full-text lane gives it: without a
	// qualified name
	opts.unnamed = map[string]*symbolRow{}
	n := 0
	for _, id := range ends {
		if r := opts.callerRows[id]; r != nil && opts.unnamed[id] == nil && r.Qualified != "" {
			if n++; n%2 == 0 {
				bare := *r
				bare.Qualified = ""
				opts.callerRows[id], opts.unnamed[id] = &bare, &bare
			}
		}
	}
	fromGraph, rest, err := x.graphCallers(ctx, args, opts)
	return fromIndex, fromGraph, len(ids) - len(rest), err
}
