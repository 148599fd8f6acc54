package query

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// bm25 in Go, for an Index that answers many questions (a server).
//
// FTS5's bm25() costs about 1.3 µs of CPU for every row a query matches,
// two thirds of it a statement per row that reads the row's length; a
// common word ("test" is in 30k of GOROOT's 104k symbols) makes a search
// cost tens of milliseconds. An Index that answers many questions holds,
// for each term it was asked about, the rows holding the term in the
// columns it was asked about, with its count in each (read from an
// fts5vocab instance table, at about the cost of FTS5 answering once), and
// every row's length (read once, in the background); it scores a query
// whose terms it holds in Go with FTS5's own formula, at some ns a row.
// A process that answers one question (OpenOnce) holds nothing: it reads
// its pages cold, and the Go scorer fed with the lengths of only the rows
// it matched read about as many pages as FTS5 (measured: no gain).

// ftsColumns are the columns of symbols_fts, in order, and
// ftsColumnWeights their bm25 weights: a term in a symbol's name says far
// more than the same term among the identifiers of its body.
var (
	ftsColumns       = [...]string{"name", "qualified", "signature", "doc", "path", "body", "words"}
	ftsColumnWeights = [len(ftsColumns)]float64{10, 6, 3, 2.5, 2, 1, 0.5}
)

// ftsWeights is ftsColumnWeights as the arguments of bm25() after the
// table: FTS5 and the Go scorer read the same weights.
var ftsWeights = func() string {
	var s []string
	for _, w := range ftsColumnWeights {
		s = append(s, strconv.FormatFloat(w, 'f', -1, 64))
	}
	return strings.Join(s, ", ")
}()

// The constants of FTS5's bm25 (fts5_aux.c).
const (
	bm25K1     = 1.2
	bm25B      = 0.75
	bm25MinIDF = 1e-6
)

// maxHeldRows bounds the rows an Index holds over all its terms (about 22
// bytes each); past it, the terms are dropped and read again as asked.
// maxTermInstances bounds the instances of one term read for a question
// (about 0.5 µs each; "test" has 128k in GOROOT/src, in all columns): a
// term with more is left to FTS5.
const (
	maxHeldRows      = 1 << 20
	maxTermInstances = 1 << 18
)

// termRows are the current rows holding a term in the columns of cols, by
// rowid, with the term's count in each of them.
type termRows struct {
	cols uint8
	rows []int64
	tf   [][len(ftsColumns)]uint16
}

// ftsTerms is what an Index holds of its full-text table. Held terms and
// lens are never changed once stored, only replaced: a query reads them
// without the lock.
type ftsTerms struct {
	mu    sync.Mutex
	gen   int64 // counts resets: what was read before one is dropped
	lens  *rowLens
	nRow  int64
	avgdl float64
	terms map[string]*termRows
	// onceLens are the lengths of rows read so far in a process that asks
	// one question (OpenOnce)
	onceLens map[int64]int32
	held     int
	big      map[string]bool  // terms of more than maxTermInstances
	symbols  map[int64]ftsHit // the symbols of rows read (ftsRows), without scores
	loading  bool             // the row lengths are being read
	noTable  bool             // the file has no symbol_lengths table
	failed   bool             // reading them failed: FTS5 answers until the file changes
	closed   bool
	wg       sync.WaitGroup
}

// reset forgets what was read of the file: it changed.
func (t *ftsTerms) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen++
	t.lens, t.terms, t.held, t.big, t.symbols, t.failed = nil, nil, 0, nil, nil, false
	t.onceLens, t.nRow, t.avgdl, t.noTable = nil, 0, 0, false
}

// close waits for the reading of the row lengths.
func (t *ftsTerms) close() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.wg.Wait()
}

// held is what the Go scorer reads of a query's terms.
type held struct {
	rows    []*termRows // by term; nil where missing
	missing []int       // the terms not held in the query's columns
	lens    *rowLens
	nRow    int64
	avgdl   float64
	gen     int64
}

// lookup returns what is held of terms in the columns of mask; false when
// the row lengths are not read yet (their reading is started) or a term
// has too many instances to hold.
func (t *ftsTerms) lookup(x *Index, terms []string, mask uint8) (held, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := held{rows: make([]*termRows, len(terms)), lens: t.lens, nRow: t.nRow, avgdl: t.avgdl, gen: t.gen}
	if t.lens == nil {
		if !t.loading && !t.closed && !t.failed {
			t.loading = true
			t.wg.Add(1)
			go t.loadLengths(x, t.gen)
		}
		return h, false
	}
	for i, term := range terms {
		if t.big[term] {
			return h, false
		}
		if r := t.terms[term]; r != nil && r.cols&mask == mask {
			h.rows[i] = r
		} else {
			h.missing = append(h.missing, i)
		}
	}
	return h, true
}

// missingCols are the columns to read a term in: the query's, and those
// it is held in already.
func (t *ftsTerms) missingCols(term string, mask uint8) uint8 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r := t.terms[term]; r != nil {
		return mask | r.cols
	}
	return mask
}

// store holds a term read for generation gen; nil marks a term of too
// many instances.
func (t *ftsTerms) store(gen int64, term string, r *termRows) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen != gen {
		return
	}
	if r == nil {
		if t.big == nil {
			t.big = map[string]bool{}
		}
		t.big[term] = true
		return
	}
	if t.terms == nil || t.held+len(r.rows) > maxHeldRows {
		t.terms, t.held = map[string]*termRows{}, 0
	}
	if old := t.terms[term]; old != nil {
		t.held -= len(old.rows)
	}
	t.terms[term] = r
	t.held += len(r.rows)
}

// loadLengths reads the row lengths in the background: a server's first
// questions are FTS5's.
func (t *ftsTerms) loadLengths(x *Index, gen int64) {
	defer t.wg.Done()
	ctx := context.Background()
	var lens *rowLens
	var nRow int64
	var avgdl float64
	conn, err := x.DB.Conn(ctx)
	if err == nil {
		lens, nRow, avgdl, err = readLengths(ctx, conn)
		conn.Close()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.loading = false
	if t.gen != gen {
		return
	}
	if err != nil {
		t.failed = true
		return
	}
	t.lens, t.nRow, t.avgdl = lens, nRow, avgdl
}

// rowLens are the lengths in tokens of full-text rows: by rowid in a
// slice when the rowids are dense (a map lookup was two thirds of the Go
// scorer's time), else in a map.
type rowLens struct {
	dense  []int32
	sparse map[int64]int32
}

// maxDenseSlack is how many rowids a dense rowLens may hold per row: past
// it (rowids left behind by many incremental runs) a map takes less.
const maxDenseSlack = 4

// at is the length of row r; 0 for a row it does not hold (the docsize
// table holds a record for every row).
func (l *rowLens) at(r int64) int32 {
	if l.sparse != nil {
		return l.sparse[r]
	}
	if r >= 0 && r < int64(len(l.dense)) {
		return l.dense[r]
	}
	return 0
}

// newRowLens holds the lengths of rows: ids[i] has lens[i].
func newRowLens(ids []int64, lens []int32) *rowLens {
	var top int64
	for _, id := range ids {
		top = max(top, id)
	}
	if top < 0 || top >= maxDenseSlack*int64(len(ids))+1024 {
		m := make(map[int64]int32, len(ids))
		for i, id := range ids {
			m[id] = lens[i]
		}
		return &rowLens{sparse: m}
	}
	d := make([]int32, top+1)
	for i, id := range ids {
		d[id] = lens[i]
	}
	return &rowLens{dense: d}
}

// readTotals reads the full-text table's row count and its average row
// length in tokens (the averages record), which bm25 reads.
func readTotals(ctx context.Context, conn *sql.Conn) (int64, float64, error) {
	var avg []byte
	if err := conn.QueryRowContext(ctx, `SELECT block FROM symbols_fts_data WHERE id = 1`).Scan(&avg); err != nil {
		return 0, 0, fmt.Errorf("full-text totals: %w", err)
	}
	nRow, n := schema.SQLiteVarint(avg)
	var nToken int64
	for range ftsColumns {
		if n <= 0 || n > len(avg) {
			return 0, 0, fmt.Errorf("full-text totals: a record of %d bytes", len(avg))
		}
		avg = avg[n:]
		var v int64
		v, n = schema.SQLiteVarint(avg)
		nToken += v
	}
	if nRow <= 0 {
		return 0, 0, fmt.Errorf("full-text totals: %d rows", nRow)
	}
	return nRow, float64(nToken) / float64(nRow), nil
}

// readLengths reads every row's length in tokens (FTS5's docsize table)
// and the table's totals.
func readLengths(ctx context.Context, conn *sql.Conn) (*rowLens, int64, float64, error) {
	nRow, avgdl, err := readTotals(ctx, conn)
	if err != nil {
		return nil, 0, 0, err
	}
	ids, lens, err := readRowLengths(ctx, conn, `SELECT group_concat(id, ','), group_concat(sz, x'') FROM symbols_fts_docsize`)
	if err != nil {
		return nil, 0, 0, err
	}
	return newRowLens(ids, lens), nRow, avgdl, nil
}

// readRowLengths runs q, which aggregates rows of the docsize table into
// their ids and their size records, each concatenated in the same order:
// one result, where a row apiece through database/sql cost twice the
// reading. A size record is a varint a column; a row's length their sum.
func readRowLengths(ctx context.Context, conn *sql.Conn, q string, args ...any) ([]int64, []int32, error) {
	var idList, sizes sql.RawBytes
	rows, err := conn.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("full-text lengths: %w", err)
	}
	defer rows.Close()
	if rows.Next() {
		if err := rows.Scan(&idList, &sizes); err != nil {
			return nil, nil, fmt.Errorf("full-text lengths: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("full-text lengths: %w", err)
	}
	var ids []int64
	var lens []int32
	for len(idList) > 0 {
		var id int64
		d := 0
		for ; d < len(idList) && d < 18 && idList[d] >= '0' && idList[d] <= '9'; d++ {
			id = id*10 + int64(idList[d]-'0')
		}
		if d == 0 || (d < len(idList) && idList[d] != ',') {
			return nil, nil, fmt.Errorf("full-text lengths: an id list at %q", idList[:min(len(idList), 20)])
		}
		idList = idList[min(d+1, len(idList)):]
		var n int64
		for range ftsColumns {
			v, k := schema.SQLiteVarint(sizes)
			if k <= 0 {
				return nil, nil, fmt.Errorf("full-text lengths: row %d", id)
			}
			n += v
			sizes = sizes[k:]
		}
		ids, lens = append(ids, id), append(lens, int32(n))
	}
	if len(sizes) != 0 {
		return nil, nil, fmt.Errorf("full-text lengths: %d bytes past the last row", len(sizes))
	}
	return ids, lens, nil
}

// instancesTable is the fts5vocab table of every instance of every term,
// created in TEMP (the file is read-only) on the connection that reads it.
const instancesTable = `CREATE VIRTUAL TABLE IF NOT EXISTS temp.symbols_instances USING fts5vocab(main, symbols_fts, 'instance')`

// readTerm reads the rows holding term in the columns of cols and its
// count in each; nil, nil for a term of more than maxTermInstances
// instances there, or a count past uint16. The instances come as one
// string ("12body,12name,40doc"): the vocabulary table yields them at
// about 0.2 µs each, and a result row apiece through database/sql cost
// four times that.
func readTerm(ctx context.Context, conn *sql.Conn, term string, cols uint8) (*termRows, error) {
	// every column needs no filter (a third of the read)
	where := ""
	if cols != 1<<len(ftsColumns)-1 {
		var in []string
		for c, name := range ftsColumns {
			if cols&(1<<c) != 0 {
				in = append(in, "'"+name+"'")
			}
		}
		where = ` AND col IN (` + strings.Join(in, ", ") + `)`
	}
	var n int
	var list sql.RawBytes
	rows, err := conn.QueryContext(ctx, `SELECT count(*), group_concat(doc || col, ',') FROM (SELECT doc, col FROM temp.symbols_instances
		WHERE term = ?`+where+` LIMIT `+strconv.Itoa(maxTermInstances+1)+`)`, term)
	if err != nil {
		return nil, fmt.Errorf("full-text term: %w", err)
	}
	defer rows.Close()
	if rows.Next() {
		if err := rows.Scan(&n, &list); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if n > maxTermInstances {
		return nil, nil
	}
	r := &termRows{cols: cols, rows: []int64{}}
	for len(list) > 0 {
		item := list
		if i := bytes.IndexByte(list, ','); i >= 0 {
			item, list = list[:i], list[i+1:]
		} else {
			list = nil
		}
		d, doc := 0, int64(0)
		for ; d < len(item) && d < 18 && item[d] >= '0' && item[d] <= '9'; d++ {
			doc = doc*10 + int64(item[d]-'0')
		}
		c := -1
		for i, name := range ftsColumns {
			if string(item[d:]) == name { // compared without a copy
				c = i
				break
			}
		}
		if d == 0 || c < 0 {
			return nil, fmt.Errorf("full-text term: instance %q", item)
		}
		// instances come by row; a row out of order would break the merge
		if k := len(r.rows); k == 0 || r.rows[k-1] != doc {
			if k > 0 && doc < r.rows[k-1] {
				return nil, nil
			}
			r.rows = append(r.rows, doc)
			r.tf = append(r.tf, [len(ftsColumns)]uint16{})
		}
		tf := &r.tf[len(r.tf)-1]
		if tf[c] == math.MaxUint16 {
			return nil, nil
		}
		tf[c]++
	}
	return r, nil
}

func ftsColumn(name string) int {
	for i, c := range ftsColumns {
		if c == name {
			return i
		}
	}
	return -1
}

// columnMask turns a column set of the lanes (colsNames, colsText,
// colsAll) into a bit per column of ftsColumns.
func columnMask(cols string) (uint8, bool) {
	cols = strings.TrimSpace(cols)
	if cols == "" {
		return 1<<len(ftsColumns) - 1, true
	}
	if !strings.HasPrefix(cols, "{") || !strings.HasSuffix(cols, "}") {
		return 0, false
	}
	var m uint8
	for _, name := range strings.Fields(cols[1 : len(cols)-1]) {
		c := ftsColumn(name)
		if c < 0 {
			return 0, false
		}
		m |= 1 << c
	}
	return m, m != 0
}

// rowScore is a full-text row and its bm25 score (higher is better).
type rowScore struct {
	rowid int64
	score float64
}

// nextRow returns the least rowid among the phrases' rows at their
// positions at (each phrase's rows ascend), or false when every phrase is
// read to its end.
func nextRow(phrases []*termRows, at []int) (int64, bool) {
	r, ok := int64(0), false
	for i, p := range phrases {
		if at[i] < len(p.rows) && (!ok || p.rows[at[i]] < r) {
			r, ok = p.rows[at[i]], true
		}
	}
	return r, ok
}

// bm25Rows scores the rows holding any of the phrases (the rows of each
// query term, in the query's order) in the columns of mask as FTS5's
// bm25() with ftsColumnWeights scores them, and returns the best n, best
// first (equal scores by rowid). The arithmetic is FTS5's, operation for
// operation (fts5Bm25Function), so the scores are the same doubles.
func bm25Rows(phrases []*termRows, mask uint8, lens *rowLens, nRow int64, avgdl float64, n int) []rowScore {
	freq, idf := bm25Setup(phrases, mask, nRow)
	at := make([]int, len(phrases))
	top := make(scoreHeap, 0, n+1)
	for {
		r, ok := nextRow(phrases, at)
		if !ok {
			break
		}
		score, matched := 0.0, false
		var D float64
		for i, p := range phrases {
			if at[i] >= len(p.rows) || p.rows[at[i]] != r {
				continue
			}
			f := freq(&p.tf[at[i]])
			at[i]++
			if f == 0 {
				continue
			}
			if !matched {
				matched, D = true, float64(lens.at(r))
			}
			score = score + bm25Term(idf[i], f, D, avgdl)
		}
		if matched && n > 0 {
			top.offer(rowScore{r, score}, n)
		}
	}
	sort.Slice(top, func(i, j int) bool { return top[i].better(top[j]) })
	return top
}

// bm25Setup returns a row's weighted frequency of a phrase in the columns
// of mask, and each phrase's IDF.
func bm25Setup(phrases []*termRows, mask uint8, nRow int64) (func(*[len(ftsColumns)]uint16) float64, []float64) {
	var cols []int // the columns of mask
	for c := range ftsColumns {
		if mask&(1<<c) != 0 {
			cols = append(cols, c)
		}
	}
	// FTS5 adds a column's weight for each instance; the weights are
	// multiples of 0.5 and the counts small, so products and sums are
	// exact and equal to its sums in any order
	freq := func(tf *[len(ftsColumns)]uint16) float64 {
		f := 0.0
		for _, c := range cols {
			if k := tf[c]; k != 0 {
				f += float64(k) * ftsColumnWeights[c]
			}
		}
		return f
	}
	// a phrase's IDF counts the rows holding it in the columns
	idf := make([]float64, len(phrases))
	for i, p := range phrases {
		hits := int64(0)
		for j := range p.rows {
			if freq(&p.tf[j]) > 0 {
				hits++
			}
		}
		v := math.Log((float64(nRow-hits) + 0.5) / (float64(hits) + 0.5))
		if v <= 0 {
			v = bm25MinIDF
		}
		idf[i] = v
	}
	return freq, idf
}

// bm25Term is a phrase's part of a row's score, f its weighted frequency
// and D the row's length: FTS5's expression, rounded where it rounds (the
// conversions keep the compiler from fusing a multiply and an add). It
// never grows with D, also in floating point: every operation is monotone.
func bm25Term(idf, f, D, avgdl float64) float64 {
	return float64(idf * (float64(f*(bm25K1+1)) / (f + float64(bm25K1*(1-bm25B+float64(bm25B*D)/avgdl)))))
}

// bm25Bounded returns what bm25Rows returns without the length of every
// matched row: a row's score is bounded from above by the score it would
// have at the least length it can have (the instances of the query's
// terms it holds, in every column), and rows are scored exactly, their
// lengths read by lengths in batches, best bound first, only while a
// bound can still reach the best n. A process that asks one question
// reads some hundred lengths instead of thousands.
func bm25Bounded(phrases []*termRows, mask uint8, nRow int64, avgdl float64, n int,
	lengths func([]int64) (map[int64]int32, error)) ([]rowScore, error) {
	if n <= 0 {
		return nil, nil
	}
	freq, idf := bm25Setup(phrases, mask, nRow)
	type cand struct {
		rowid int64
		bound float64
		f     []float64 // by phrase; 0 where the row does not hold it
	}
	var cands []cand
	at := make([]int, len(phrases))
	for {
		r, ok := nextRow(phrases, at)
		if !ok {
			break
		}
		c := cand{rowid: r, f: make([]float64, len(phrases))}
		matched := false
		var least int64
		for i, p := range phrases {
			if at[i] >= len(p.rows) || p.rows[at[i]] != r {
				continue
			}
			tf := &p.tf[at[i]]
			at[i]++
			// a term twice in the query counts once in the row's length
			if slices.Index(phrases, p) == i {
				for _, k := range tf {
					least += int64(k)
				}
			}
			if c.f[i] = freq(tf); c.f[i] != 0 {
				matched = true
			}
		}
		if !matched {
			continue
		}
		c.bound = bm25Score(c.f, idf, float64(least), avgdl)
		cands = append(cands, c)
	}
	slices.SortFunc(cands, func(a, b cand) int {
		switch {
		case a.bound != b.bound:
			return -cmp.Compare(a.bound, b.bound)
		default:
			return cmp.Compare(a.rowid, b.rowid)
		}
	})
	top := make(scoreHeap, 0, n+1)
	// a row whose bound is below the worst kept score cannot enter
	open := func(c cand) bool { return len(top) < n || c.bound >= top[0].score }
	batch := 2 * n
	for i := 0; i < len(cands) && open(cands[i]); {
		j := i
		var ids []int64
		for ; j < len(cands) && len(ids) < batch && open(cands[j]); j++ {
			ids = append(ids, cands[j].rowid)
		}
		lens, err := lengths(ids)
		if err != nil {
			return nil, err
		}
		for _, c := range cands[i:j] {
			top.offer(rowScore{c.rowid, bm25Score(c.f, idf, float64(lens[c.rowid]), avgdl)}, n)
		}
		i, batch = j, 2*batch
	}
	sort.Slice(top, func(i, j int) bool { return top[i].better(top[j]) })
	return top, nil
}

// bm25Score sums the phrases' parts of a row's score in the query's order,
// as bm25Rows does.
func bm25Score(f, idf []float64, D, avgdl float64) float64 {
	score := 0.0
	for i, fi := range f {
		if fi != 0 {
			score = score + bm25Term(idf[i], fi, D, avgdl)
		}
	}
	return score
}

func (a rowScore) better(b rowScore) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.rowid < b.rowid
}

// scoreHeap keeps the best n rows: a min-heap by rowScore.better, the
// worst kept row on top.
type scoreHeap []rowScore

func (h *scoreHeap) offer(s rowScore, n int) {
	if len(*h) == n {
		if !s.better((*h)[0]) {
			return
		}
		(*h)[0] = s
		h.down(0)
		return
	}
	*h = append(*h, s)
	for i := len(*h) - 1; i > 0; {
		p := (i - 1) / 2
		if !(*h)[p].better((*h)[i]) {
			break
		}
		(*h)[p], (*h)[i] = (*h)[i], (*h)[p]
		i = p
	}
}

func (h scoreHeap) down(i int) {
	for {
		l, worst := 2*i+1, i
		if l < len(h) && h[worst].better(h[l]) {
			worst = l
		}
		if r := l + 1; r < len(h) && h[worst].better(h[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// ftsRank runs the full-text query of terms (OR-ed, in cols) and returns
// current non-module symbols by bm25, best first: from the held terms when
// the Index holds them all, else from FTS5.
func (x *Index) ftsRank(ctx context.Context, cols string, terms []string, limit int) ([]ftsHit, error) {
	match := withColumns(cols, ftsMatch(terms))
	if match == "" {
		return nil, nil
	}
	if hits, ok, err := x.ftsHeld(ctx, cols, terms, limit); err != nil || ok {
		return hits, err
	}
	return x.ftsSearch(ctx, match, limit)
}

// ftsHeld answers ftsRank from the held terms; false when it cannot.
func (x *Index) ftsHeld(ctx context.Context, cols string, terms []string, limit int) ([]ftsHit, bool, error) {
	mask, ok := columnMask(cols)
	if !ok {
		return nil, false, nil
	}
	var words []string
	for _, t := range terms {
		if singleToken(t) {
			words = append(words, t)
		}
	}
	// what was held is forgotten when the file changed
	if _, err := x.dataVersion(ctx); err != nil {
		return nil, false, err
	}
	st, err := stems.stem(ctx, words)
	if err != nil {
		return nil, false, err
	}
	phrases := make([]string, len(words))
	for i, w := range words {
		if phrases[i] = st[w]; phrases[i] == "" {
			return nil, false, nil // a word the tokenizer keeps no term of
		}
	}
	if err := x.tableLengths(ctx); err != nil {
		return nil, false, err
	}
	if x.oneShot {
		return x.ftsOnce(ctx, phrases, mask, limit)
	}
	h, ok := x.fts.lookup(x, phrases, mask)
	if !ok {
		return nil, false, nil
	}
	// a term not held in these columns is read now, at about the cost of
	// FTS5 answering once
	for _, i := range h.missing {
		r, err := x.readHeldTerm(ctx, phrases[i], x.fts.missingCols(phrases[i], mask))
		if err != nil {
			return nil, false, err
		}
		x.fts.store(h.gen, phrases[i], r)
		if r == nil {
			return nil, false, nil
		}
		h.rows[i] = r
	}
	top := bm25Rows(h.rows, mask, h.lens, h.nRow, h.avgdl, limit+limit/4)
	hits, err := x.ftsRows(ctx, top)
	return hits, err == nil, err
}

// ftsOnce answers ftsHeld in a process that asks one question: the terms
// are read as a server reads them, and the lengths of only the rows they
// hold (a server reads every row's once, in the background).
func (x *Index) ftsOnce(ctx context.Context, phrases []string, mask uint8, limit int) ([]ftsHit, bool, error) {
	rows := make([]*termRows, len(phrases))
	for i, p := range phrases {
		r, err := x.heldTerm(ctx, p)
		if err != nil || r == nil {
			return nil, false, err
		}
		rows[i] = r
	}
	if lens, nRow, avgdl := x.fts.lengths(); lens != nil {
		hits, err := x.ftsRows(ctx, bm25Rows(rows, mask, lens, nRow, avgdl, limit+limit/4))
		return hits, err == nil, err
	}
	nRow, avgdl, err := x.onceTotals(ctx)
	if err != nil {
		return nil, false, err
	}
	top, err := bm25Bounded(rows, mask, nRow, avgdl, limit+limit/4, func(ids []int64) (map[int64]int32, error) {
		return x.onceLengths(ctx, ids)
	})
	if err != nil {
		return nil, false, err
	}
	hits, err := x.ftsRows(ctx, top)
	return hits, err == nil, err
}

// heldTerm returns a term's rows in every column: held, or read and then
// held. nil for a term of too many instances to read.
func (x *Index) heldTerm(ctx context.Context, term string) (*termRows, error) {
	const all = 1<<len(ftsColumns) - 1
	gen := x.fts.generation()
	if r := x.fts.heldIn(term, all); r != nil {
		return r, nil
	}
	r, err := x.readHeldTerm(ctx, term, all)
	if err != nil {
		return nil, err
	}
	x.fts.store(gen, term, r)
	return r, nil
}

// generation counts the resets of what is held.
func (t *ftsTerms) generation() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.gen
}

// onceTotals returns the full-text table's row count and average row
// length, read once.
func (x *Index) onceTotals(ctx context.Context) (int64, float64, error) {
	t := &x.fts
	t.mu.Lock()
	nRow, avgdl := t.nRow, t.avgdl
	t.mu.Unlock()
	if nRow > 0 {
		return nRow, avgdl, nil
	}
	v := &x.vocab
	v.mu.Lock()
	err := v.open(ctx, x)
	if err == nil {
		nRow, avgdl, err = readTotals(ctx, v.conn)
	}
	v.mu.Unlock()
	if err != nil {
		return 0, 0, err
	}
	t.mu.Lock()
	t.nRow, t.avgdl = nRow, avgdl
	t.mu.Unlock()
	return nRow, avgdl, nil
}

// onceLengths returns the lengths of rows, read from the docsize table (as
// one aggregate: a row apiece through database/sql cost twice as much)
// for the rows not read before.
func (x *Index) onceLengths(ctx context.Context, ids []int64) (map[int64]int32, error) {
	t := &x.fts
	out := make(map[int64]int32, len(ids))
	var list strings.Builder
	t.mu.Lock()
	for _, r := range ids {
		if n, ok := t.onceLens[r]; ok {
			out[r] = n
			continue
		}
		list.WriteByte(',')
		list.WriteString(strconv.FormatInt(r, 10))
	}
	t.mu.Unlock()
	if list.Len() == 0 {
		return out, nil
	}
	v := &x.vocab
	v.mu.Lock()
	err := v.open(ctx, x)
	var read []int64
	var lens []int32
	if err == nil {
		read, lens, err = readRowLengths(ctx, v.conn, `SELECT group_concat(id, ','), group_concat(sz, x'') FROM symbols_fts_docsize
			WHERE id IN (SELECT value FROM json_each(?))`, "["+list.String()[1:]+"]")
	}
	v.mu.Unlock()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.onceLens == nil {
		t.onceLens = map[int64]int32{}
	}
	for i, id := range read {
		t.onceLens[id] = lens[i]
		out[id] = lens[i]
	}
	return out, nil
}

// ftsRows loads the symbols of scored full-text rows, modules left out,
// best first as ftsSearch orders them (score, then id). The symbols of
// rows read before come from memory: a server's questions share many.
func (x *Index) ftsRows(ctx context.Context, top []rowScore) ([]ftsHit, error) {
	if len(top) == 0 {
		return nil, nil
	}
	known, gen := x.fts.symbolsOf(top)
	var ids strings.Builder
	ids.WriteByte('[')
	for _, r := range top {
		if _, ok := known[r.rowid]; ok {
			continue
		}
		if ids.Len() > 1 {
			ids.WriteByte(',')
		}
		ids.WriteString(strconv.FormatInt(r.rowid, 10))
	}
	ids.WriteByte(']')
	if ids.Len() > 2 {
		rows, err := x.queryPrepared(ctx, `SELECT s.rowid, s.id, s.kind, p.path, s.is_test, s.parent_id, s.to_seq IS NULL,
				s.name, s.container, s.start_line, s.end_line
			FROM json_each(?) j JOIN symbols s ON s.rowid = j.value JOIN paths p ON p.id = s.path_id`, ids.String())
		if err != nil {
			return nil, fmt.Errorf("full-text search: %w", err)
		}
		read := map[int64]ftsHit{}
		for rows.Next() {
			var h ftsHit
			var rowid int64
			var isTest, current int
			if err := rows.Scan(&rowid, &h.id, &h.kind, &h.path, &isTest, &h.parentID, &current,
				&h.name, &h.container, &h.lines[0], &h.lines[1]); err != nil {
				rows.Close()
				return nil, err
			}
			h.isTest, h.current = isTest != 0, current != 0
			read[rowid] = h
			known[rowid] = h
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		x.fts.keepSymbols(gen, read)
	}
	var out []ftsHit
	for _, r := range top {
		if h, ok := known[r.rowid]; ok && h.kind != lang.KindModule {
			h.score = r.score
			out = append(out, h)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id < out[j].id
	})
	return out, nil
}

// maxHeldSymbols bounds the symbols of full-text rows an Index keeps
// (ftsRows); past it, they are dropped and read again as asked.
const maxHeldSymbols = 1 << 16

// symbolsOf returns the symbols kept of rows, and the generation to keep
// more under.
func (t *ftsTerms) symbolsOf(rows []rowScore) (map[int64]ftsHit, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[int64]ftsHit, len(rows))
	for _, r := range rows {
		if h, ok := t.symbols[r.rowid]; ok {
			out[r.rowid] = h
		}
	}
	return out, t.gen
}

// keepSymbols keeps the symbols of rows read for generation gen.
func (t *ftsTerms) keepSymbols(gen int64, read map[int64]ftsHit) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen != gen {
		return
	}
	if t.symbols == nil || len(t.symbols)+len(read) > maxHeldSymbols {
		t.symbols = make(map[int64]ftsHit, len(read))
	}
	for id, h := range read {
		t.symbols[id] = h
	}
}

// queryPrepared runs q with its statement prepared once per Index:
// preparing a query costs more than running it on a small answer (the
// full-text query with its joins: about 150 µs of 250). A process that
// asks one question runs each about once, and prepares as it goes: a kept
// statement is prepared again on every connection it runs on.
func (x *Index) queryPrepared(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if x.oneShot {
		return x.DB.QueryContext(ctx, q, args...)
	}
	st, err := x.prepared(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// prepared returns the statement of q, prepared once per Index.
func (x *Index) prepared(ctx context.Context, q string) (*sql.Stmt, error) {
	x.stmtMu.Lock()
	defer x.stmtMu.Unlock()
	if st, ok := x.stmts[q]; ok {
		return st, nil
	}
	st, err := x.DB.PrepareContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if x.stmts == nil {
		x.stmts = map[string]*sql.Stmt{}
	}
	x.stmts[q] = st
	return st, nil
}

// closeStatements closes the prepared statements.
func (x *Index) closeStatements() {
	x.stmtMu.Lock()
	defer x.stmtMu.Unlock()
	for _, st := range x.stmts {
		st.Close()
	}
	x.stmts = nil
}

// readHeldTerm reads a term in every column on the statistics
// connection: from FTS5's segments (readSegmentTerm), or, when they hold a
// record that reader does not know, from the fts5vocab instance table
// (readTerm). The columns of cols are the ones the caller needs.
func (x *Index) readHeldTerm(ctx context.Context, term string, cols uint8) (*termRows, error) {
	v := &x.vocab
	v.mu.Lock()
	defer v.mu.Unlock()
	// another lane may have read it meanwhile
	if r := x.fts.heldIn(term, cols); r != nil {
		return r, nil
	}
	if err := v.open(ctx, x); err != nil {
		return nil, err
	}
	if v.segQ == nil {
		q, err := prepareSegQueries(ctx, v.conn)
		if err != nil {
			return nil, err
		}
		v.segQ = q
	}
	// the structure and the pages it names are read in one transaction: an
	// index run that commits in between may have merged the segments away
	if _, err := v.segQ.begin.ExecContext(ctx); err != nil {
		return nil, fmt.Errorf("full-text segments: %w", err)
	}
	defer v.segQ.commit.ExecContext(context.WithoutCancel(ctx))
	var rec []byte
	if err := v.segQ.structure.QueryRowContext(ctx).Scan(&rec); err != nil {
		return nil, fmt.Errorf("full-text structure: %w", err)
	}
	// any change of the full-text index rewrites the structure record
	if v.segs == nil || !bytes.Equal(v.segs.rec, rec) {
		st, err := decodeStructure(rec)
		if err != nil && !errors.Is(err, errSegmentFormat) {
			return nil, err
		}
		v.segs = st // nil again for a structure of an unknown format
	}
	if v.segs != nil {
		r, err := readSegmentTerm(ctx, v.segQ, v.segs, term)
		if !errors.Is(err, errSegmentFormat) {
			return r, err
		}
	}
	if !v.instances {
		if _, err := v.conn.ExecContext(ctx, instancesTable); err != nil {
			return nil, fmt.Errorf("full-text instances: %w", err)
		}
		v.instances = true
	}
	return readTerm(ctx, v.conn, term, cols)
}

// heldIn returns the term's rows when they are held in the columns of cols.
func (t *ftsTerms) heldIn(term string, cols uint8) *termRows {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r := t.terms[term]; r != nil && r.cols&cols == cols {
		return r
	}
	return nil
}
