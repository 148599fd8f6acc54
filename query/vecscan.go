package query

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
)

// A vec0 KNN query compares the question with every vector, and then picks
// the k nearest of each chunk of 1024 by k passes over the chunk, which
// costs more than the distances. chunkKNN gives the same answer from the
// vectors themselves: it reads vec0's chunk tables (the vectors of a chunk
// are one blob) and computes the distances as vec0 does, the nearest k
// picked by the order vec0 picks them in. Should the tables not be laid
// out as expected, it says so and vec0 answers.

// errChunkLayout means vec0's tables are not as chunkKNN reads them.
var errChunkLayout = errors.New("vec0 chunk layout not recognized")

// vecChunk is one chunk of a vec0 table: where it comes in chunk order,
// its rows (int64s) and which of them hold a vector (a bitmap).
type vecChunk struct {
	order  int
	rowids []byte
	valid  []byte
}

func (c *vecChunk) size() int { return len(c.rowids) / 8 }

func (c *vecChunk) rowid(i int) int64 { return int64(binary.LittleEndian.Uint64(c.rowids[8*i:])) }

// near is a vector row and its cosine distance to a question, with where
// vec0 finds it (chunk order, index in the chunk) to order ties as it does.
type near struct {
	dist         float32
	chunk, index int
	rowid        int64
}

// before orders candidates as vec0 keeps them: nearer first; on a tie the
// earlier chunk, and in one chunk the later row.
func (a near) before(b near) bool {
	if a.dist != b.dist {
		return a.dist < b.dist
	}
	if a.chunk != b.chunk {
		return a.chunk < b.chunk
	}
	return a.index > b.index
}

// nearest keeps the k best candidates, best first.
type nearest struct {
	k   int
	top []near
}

func (n *nearest) add(c near) {
	if len(n.top) == n.k && !c.before(n.top[n.k-1]) {
		return
	}
	at := sort.Search(len(n.top), func(j int) bool { return c.before(n.top[j]) })
	n.top = append(n.top, near{})
	copy(n.top[at+1:], n.top[at:])
	n.top[at] = c
	if len(n.top) > n.k {
		n.top = n.top[:n.k]
	}
}

// cosineInt8 is vec0's cosine distance between an int8 vector a and the
// question q (qq its sum of squares): the sums are exact (vec0 keeps them
// in float32, which holds them), the rest in float64, rounded to float32.
func cosineInt8(a []byte, q []int32, qq int32) float32 {
	return cosine(dotInt8(a, q), sumSquares(a[:len(q)]), qq)
}

// cosine is the distance from the exact sums: the dot product of a vector
// and the question, and the sums of squares of each.
func cosine(dot, aa, qq int32) float32 {
	return float32(1 - float64(dot)/(math.Sqrt(float64(aa))*math.Sqrt(float64(qq))))
}

// dotInt8 is the dot product of an int8 vector a and q. Eight at a time
// into two sums: the scan of every vector is the vector lane's cost, and
// this runs it at about half the time of one product at a time.
func dotInt8(a []byte, q []int32) int32 {
	var d0, d1 int32
	a = a[:len(q)]
	i := 0
	for ; i+8 <= len(q); i += 8 {
		v, w := a[i:i+8:i+8], q[i:i+8:i+8]
		d0 += int32(int8(v[0]))*w[0] + int32(int8(v[1]))*w[1] + int32(int8(v[2]))*w[2] + int32(int8(v[3]))*w[3]
		d1 += int32(int8(v[4]))*w[4] + int32(int8(v[5]))*w[5] + int32(int8(v[6]))*w[6] + int32(int8(v[7]))*w[7]
	}
	d := d0 + d1
	for ; i < len(q); i++ {
		d += int32(int8(a[i])) * q[i]
	}
	return d
}

// squares holds the square of each int8, by its byte: a load costs less
// than a product in the scan.
var squares = func() (t [256]int32) {
	for i := range t {
		v := int32(int8(byte(i)))
		t[i] = v * v
	}
	return t
}()

// sumSquares is the sum of the squares of the int8 vector a.
func sumSquares(a []byte) int32 {
	var s0, s1 int32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		v := a[i : i+8 : i+8]
		s0 += squares[v[0]] + squares[v[1]] + squares[v[2]] + squares[v[3]]
		s1 += squares[v[4]] + squares[v[5]] + squares[v[6]] + squares[v[7]]
	}
	s := s0 + s1
	for ; i < len(a); i++ {
		s += squares[a[i]]
	}
	return s
}

// question is a question's vector as the scans use it.
type question struct {
	q  []int32
	qq int32 // its sum of squares
}

func newQuestion(q []int8) question {
	out := question{q: make([]int32, len(q))}
	for i, c := range q {
		out.q[i] = int32(c)
		out.qq += int32(c) * int32(c)
	}
	return out
}

// scanChunk adds the vectors of a chunk (data, len(q) bytes each) to top.
// norms, when not nil, holds each vector's sum of squares (a chunk kept in
// memory): then only the dot products are left to compute.
func (q question) scanChunk(c *vecChunk, data []byte, norms []int32, top *nearest) {
	dim := len(q.q)
	for i := range c.size() {
		if c.valid[i/8]&(1<<(i%8)) == 0 {
			continue
		}
		a := data[i*dim : (i+1)*dim]
		var aa int32
		if norms != nil {
			aa = norms[i]
		} else {
			aa = sumSquares(a)
		}
		d := cosine(dotInt8(a, q.q), aa, q.qq)
		if d != d { // NaN: a zero vector
			continue
		}
		top.add(near{dist: d, chunk: c.order, index: i, rowid: c.rowid(i)})
	}
}

// merge returns the k best of several tops, best first.
func merge(tops []nearest, k int) []near {
	var all []near
	for _, t := range tops {
		all = append(all, t.top...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].before(all[j]) })
	return all[:min(k, len(all))]
}

// scanWorkers is how many goroutines compute distances.
const scanWorkers = 2

// chunkKNN returns the k rows of the vec0 table name nearest to q, nearest
// first, as its KNN query would: vec0 takes each chunk's k nearest in
// order and merges them into the nearest so far, earlier ones first on a
// tie.
func (x *Index) chunkKNN(ctx context.Context, name string, q []int8, k int) ([]near, error) {
	if k <= 0 {
		return nil, nil
	}
	qu := newQuestion(q)
	chunks, err := x.readChunkRows(ctx, name)
	if err != nil {
		return nil, err
	}
	// workers take the vectors of a chunk at a time, in buffers they give
	// back: reading the next chunk goes on meanwhile
	type job struct {
		c    *vecChunk
		data []byte
	}
	jobs := make(chan job)
	free := make(chan []byte, scanWorkers+2)
	for range scanWorkers + 2 {
		free <- nil
	}
	tops := make([]nearest, scanWorkers)
	var wg sync.WaitGroup
	for w := range scanWorkers {
		tops[w].k = k
		wg.Go(func() {
			for j := range jobs {
				qu.scanChunk(j.c, j.data, nil, &tops[w])
				free <- j.data
			}
		})
	}
	err = x.feedChunks(ctx, name, len(q), chunks, func(c *vecChunk, raw []byte) {
		buf := append((<-free)[:0], raw...)
		jobs <- job{c, buf}
	})
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	return merge(tops, k), nil
}

// warmChunk is a chunk of vectors kept in memory, with the sum of squares
// of each (of its size; 0 for a row without a vector).
type warmChunk struct {
	vecChunk
	data  []byte
	norms []int32
}

// loadChunks reads every chunk of the vec0 table name into memory, in
// chunk order.
func (x *Index) loadChunks(ctx context.Context, name string, dim int) ([]warmChunk, error) {
	chunks, err := x.readChunkRows(ctx, name)
	if err != nil {
		return nil, err
	}
	out := make([]warmChunk, len(chunks))
	err = x.feedChunks(ctx, name, dim, chunks, func(c *vecChunk, raw []byte) {
		norms := make([]int32, c.size())
		for i := range norms {
			norms[i] = sumSquares(raw[i*dim : (i+1)*dim])
		}
		out[c.order] = warmChunk{*c, bytes.Clone(raw), norms}
	})
	return out, err
}

// warmKNNIn returns the k rows of chunks nearest to q, nearest first, as
// vec0's KNN query would.
func warmKNNIn(chunks []warmChunk, q []int8, k int) []near {
	if k <= 0 {
		return nil
	}
	qu := newQuestion(q)
	tops := make([]nearest, scanWorkers)
	var wg sync.WaitGroup
	for w := range scanWorkers {
		tops[w].k = k
		wg.Go(func() {
			for i := w; i < len(chunks); i += scanWorkers {
				qu.scanChunk(&chunks[i].vecChunk, chunks[i].data, chunks[i].norms, &tops[w])
			}
		})
	}
	wg.Wait()
	return merge(tops, k)
}

// readChunkRows reads the chunks' rows and bitmaps of the vec0 table name,
// numbered in chunk order, by chunk id.
func (x *Index) readChunkRows(ctx context.Context, name string) (map[int64]*vecChunk, error) {
	rows, err := x.DB.QueryContext(ctx, `SELECT chunk_id, validity, rowids FROM `+name+`_chunks ORDER BY chunk_id`)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errChunkLayout, err)
	}
	defer rows.Close()
	chunks := map[int64]*vecChunk{}
	for rows.Next() {
		var id int64
		c := &vecChunk{order: len(chunks)}
		if err := rows.Scan(&id, &c.valid, &c.rowids); err != nil {
			return nil, fmt.Errorf("%w: %v", errChunkLayout, err)
		}
		if c.size() == 0 || len(c.rowids)%8 != 0 || len(c.valid)*8 < c.size() {
			return nil, errChunkLayout
		}
		chunks[id] = c
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", errChunkLayout, err)
	}
	return chunks, nil
}

// feedChunks hands the vectors of each chunk to fn, valid until fn returns.
func (x *Index) feedChunks(ctx context.Context, name string, dim int, chunks map[int64]*vecChunk, fn func(*vecChunk, []byte)) error {
	rows, err := x.DB.QueryContext(ctx, `SELECT rowid, vectors FROM `+name+`_vector_chunks00`)
	if err != nil {
		return fmt.Errorf("%w: %v", errChunkLayout, err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var id int64
		var data sql.RawBytes
		if err := rows.Scan(&id, &data); err != nil {
			return fmt.Errorf("%w: %v", errChunkLayout, err)
		}
		c := chunks[id]
		if c == nil || len(data) != dim*c.size() {
			return errChunkLayout
		}
		fn(c, data)
		seen++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%w: %v", errChunkLayout, err)
	}
	if seen != len(chunks) {
		return errChunkLayout
	}
	return nil
}
