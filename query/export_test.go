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
// read (graphCallers), with how many ids the latter found callers of.
// Ranking reads the edges of every nth id and the rows of every nth end
// of them: graphCallers reads the rest.
func (x *Index) CallersForTest(ctx context.Context, ids []string, minCall float64, nth int) (fromIndex, fromGraph map[string][]Dep, answered int, err error) {
	x.graphCache.clear()
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	opts := CardOptions{MinCallConfidence: minCall}
	if fromIndex, err = x.callers(ctx, args, opts); err != nil {
		return nil, nil, 0, err
	}
	// what ranking reads: the edges of the ids, the rows of their ends
	var ranked []string
	for i, id := range ids {
		if i%nth == 0 {
			ranked = append(ranked, id)
		}
	}
	edges, err := x.edgesTouching(ctx, ranked, 0, 0)
	if err != nil {
		return nil, nil, 0, err
	}
	var ends []string
	for i, e := range edges {
		if i%nth == 0 {
			ends = append(ends, e.src, e.dst)
		}
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
	fromGraph, err = x.graphCallers(ctx, args, opts)
	return fromIndex, fromGraph, len(fromGraph), err
}

// RowScoreForTest is a full-text row and its bm25 score.
type RowScoreForTest struct {
	Rowid int64
	Score float64
}

// BM25BothForTest scores the full-text query of text in cols (a column
// set of the lanes) twice: by FTS5's bm25() in SQL, and by the Go scorer
// over the held terms, which it loads first. Both lists hold every
// matching row, best first, equal scores by rowid.
func (x *Index) BM25BothForTest(ctx context.Context, cols, text string) (sqlRows, goRows []RowScoreForTest, err error) {
	terms, _ := queryTerms(text)
	match := withColumns(cols, ftsMatch(terms))
	if match == "" {
		return nil, nil, fmt.Errorf("no terms in %q", text)
	}
	rows, err := x.DB.QueryContext(ctx, `SELECT rowid, -bm25(symbols_fts, `+ftsWeights+`) AS s FROM symbols_fts
		WHERE symbols_fts MATCH ? ORDER BY s DESC, rowid`, match)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r RowScoreForTest
		if err := rows.Scan(&r.Rowid, &r.Score); err != nil {
			return nil, nil, err
		}
		sqlRows = append(sqlRows, r)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	held, lens, nRow, avgdl, err := x.holdForTest(ctx, cols, terms)
	if err != nil {
		return nil, nil, err
	}
	mask, _ := columnMask(cols)
	for _, r := range bm25Rows(held, mask, lens, nRow, avgdl, len(sqlRows)+1) {
		goRows = append(goRows, RowScoreForTest{r.rowid, r.score})
	}
	return sqlRows, goRows, nil
}

// holdForTest loads the terms of a query in the columns of cols and
// returns what the Go scorer reads of them.
func (x *Index) holdForTest(ctx context.Context, cols string, terms []string) ([]*termRows, *rowLens, int64, float64, error) {
	mask, _ := columnMask(cols)
	// as ftsHeld does: a first look at the file forgets what was held
	if _, err := x.dataVersion(ctx); err != nil {
		return nil, nil, 0, 0, err
	}
	x.fts.lookup(x, nil, mask)
	x.fts.wg.Wait()
	if _, ok, err := x.ftsHeld(ctx, cols, terms, 1); err != nil || !ok {
		return nil, nil, 0, 0, fmt.Errorf("the terms of %v were not held: %v", terms, err)
	}
	var words []string
	for _, t := range terms {
		if singleToken(t) {
			words = append(words, t)
		}
	}
	st, err := stems.stem(ctx, words)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	phrases := make([]string, len(words))
	for i, w := range words {
		phrases[i] = st[w]
	}
	h, ok := x.fts.lookup(x, phrases, mask)
	if !ok || len(h.missing) > 0 {
		return nil, nil, 0, 0, fmt.Errorf("the terms of %v were not held", terms)
	}
	return h.rows, h.lens, h.nRow, h.avgdl, nil
}

// FTSRankBothForTest runs a lane's full-text query through FTS5 and
// through the held terms (loaded first) and returns the symbol ids of
// each, best first.
func (x *Index) FTSRankBothForTest(ctx context.Context, cols, text string, limit int) (fromSQL, fromGo []string, err error) {
	terms, _ := queryTerms(text)
	a, err := x.ftsSearch(ctx, withColumns(cols, ftsMatch(terms)), limit)
	if err != nil {
		return nil, nil, err
	}
	if _, _, _, _, err := x.holdForTest(ctx, cols, terms); err != nil {
		return nil, nil, err
	}
	b, ok, err := x.ftsHeld(ctx, cols, terms, limit)
	if err != nil || !ok {
		return nil, nil, fmt.Errorf("held terms did not answer: %v", err)
	}
	for _, h := range a {
		fromSQL = append(fromSQL, h.id)
	}
	for _, h := range b {
		fromGo = append(fromGo, h.id)
	}
	return fromSQL, fromGo, nil
}

// HeldAnswersForTest reports whether a lane's full-text query of text is
// answered from held terms at its first asking, once the row lengths are
// read: its terms are read on the spot.
func (x *Index) HeldAnswersForTest(ctx context.Context, cols, text string, limit int) (bool, error) {
	if _, err := x.dataVersion(ctx); err != nil {
		return false, err
	}
	x.fts.lookup(x, nil, 0)
	x.fts.wg.Wait()
	terms, _ := queryTerms(text)
	_, ok, err := x.ftsHeld(ctx, cols, terms, limit)
	return ok, err
}

// CardTokenCap is the most one card of an adaptive slice may cost at
// budget.
func CardTokenCap(budget int) int { return cardTokenCap(budget) }

// LeadCards is how many first cards outrank a slice's frontier and edges.
const LeadCards = leadCards

// MinimalCardTokens is what card c costs in a slice at minimal detail.
func MinimalCardTokens(c *Card) int {
	_, n := sliceCard(c, DetailMinimal)
	return n
}

// SliceHashOf is the sliceHash a slice's etag should carry.
func SliceHashOf(s *Slice) string { return sliceHash(s) }

// SegmentTermsCheckForTest reads every term of the full-text index (every
// stride-th, from the first) from FTS5's segments in Go and from its
// fts5vocab instance table, and returns the terms whose rows or counts
// differ (after notes of the segments and tombstone pages when there are
// more than one and any, in parentheses), and how many terms were
// compared.
func (x *Index) SegmentTermsCheckForTest(ctx context.Context, stride int) ([]string, int, error) {
	conn, err := x.DB.Conn(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, instancesTable+`; CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING fts5vocab(main, symbols_fts, 'row')`); err != nil {
		return nil, 0, err
	}
	rows, err := conn.QueryContext(ctx, `SELECT term, doc FROM temp.v`)
	if err != nil {
		return nil, 0, err
	}
	var terms []string
	docs := map[string]int{}
	for i := 0; rows.Next(); i++ {
		var t string
		var doc int
		if err := rows.Scan(&t, &doc); err != nil {
			rows.Close()
			return nil, 0, err
		}
		if i%stride == 0 {
			terms = append(terms, t)
			docs[t] = doc
		}
	}
	rows.Close()
	st, err := readStructure(ctx, conn)
	if err != nil {
		return nil, 0, err
	}
	q, err := prepareSegQueries(ctx, conn)
	if err != nil {
		return nil, 0, err
	}
	defer q.close()
	var bad []string
	segs, tombs := len(st.segs), 0
	for _, s := range st.segs {
		tombs += s.tombPages
	}
	if segs > 1 {
		bad = append(bad, fmt.Sprintf("(%d segments)", segs))
	}
	if tombs > 0 {
		bad = append(bad, fmt.Sprintf("(%d tombstone pages)", tombs))
	}
	const all = 1<<len(ftsColumns) - 1
	for _, t := range terms {
		want, err := readTerm(ctx, conn, t, all)
		if err != nil {
			return nil, 0, err
		}
		got, err := readSegmentTerm(ctx, q, st, t)
		if err != nil {
			return nil, 0, fmt.Errorf("%q: %w", t, err)
		}
		// the vocabulary's document count (docFreqs) is the rows read
		if (want == nil) != (got == nil) || want != nil && (fmt.Sprint(want.rows) != fmt.Sprint(got.rows) ||
			fmt.Sprint(want.tf) != fmt.Sprint(got.tf) || docs[t] != len(got.rows)) {
			bad = append(bad, t)
		}
	}
	return bad, len(terms), nil
}

// BoundedBothForTest scores the full-text query of text in cols with every
// row's length (bm25Rows) and with the lengths of the rows whose bound
// can reach the best n (bm25Bounded), and returns both lists, how many
// lengths the second read and how many rows matched.
func (x *Index) BoundedBothForTest(ctx context.Context, cols, text string, n int) (all, bounded []RowScoreForTest, read, matched int, err error) {
	terms, _ := queryTerms(text)
	held, lens, nRow, avgdl, err := x.holdForTest(ctx, cols, terms)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	mask, _ := columnMask(cols)
	matched = len(bm25Rows(held, mask, lens, nRow, avgdl, 1<<16))
	for _, r := range bm25Rows(held, mask, lens, nRow, avgdl, n) {
		all = append(all, RowScoreForTest{r.rowid, r.score})
	}
	top, err := bm25Bounded(held, mask, nRow, avgdl, n, func(ids []int64) (map[int64]int32, error) {
		read += len(ids)
		out := map[int64]int32{}
		for _, id := range ids {
			out[id] = lens.at(id)
		}
		return out, nil
	})
	for _, r := range top {
		bounded = append(bounded, RowScoreForTest{r.rowid, r.score})
	}
	return all, bounded, read, matched, err
}

// LengthsBothForTest reads every row's length from symbol_lengths and
// from FTS5's docsize table, and returns the rows where they differ and
// how many rows the table holds.
func (x *Index) LengthsBothForTest(ctx context.Context) (differ []int64, rows int, err error) {
	conn, err := x.DB.Conn(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer conn.Close()
	table, ok, err := readLengthTable(ctx, conn)
	if err != nil || !ok {
		return nil, 0, fmt.Errorf("no symbol_lengths: %v", err)
	}
	docsize, _, _, err := readLengths(ctx, conn)
	if err != nil {
		return nil, 0, err
	}
	ids, _, err := readRowLengths(ctx, conn, `SELECT group_concat(id, ','), group_concat(sz, x'') FROM symbols_fts_docsize`)
	if err != nil {
		return nil, 0, err
	}
	top := int64(len(table.dense))
	for _, id := range ids {
		top = max(top, id+1)
	}
	for r := range top {
		if table.at(r) != docsize.at(r) {
			differ = append(differ, r)
		}
		if table.at(r) != 0 {
			rows++
		}
	}
	return differ, rows, nil
}
