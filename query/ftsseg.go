package query

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/sdl-dev/sdl/schema"
)

// A term's rows and counts per column, read from FTS5's own pages of
// symbols_fts (its %_data table) and decoded in Go: what the fts5vocab
// instance table yields, at a fraction of its cost (a row of a virtual
// table per instance), and with nothing written at index time. The record
// formats are those of SQLite's ext/fts5/fts5_index.c (its header comment):
// the structure record lists the segments, each a run of leaf pages of
// terms and their doclists; contentless_delete tables add, per segment,
// tombstone hash pages of the rowids deleted from it.

// errSegmentFormat means the full-text index holds a record this reader
// does not know: the caller leaves the term to FTS5.
var errSegmentFormat = errors.New("full-text segments: unknown record")

// The rowids of %_data records (fts5_index.c): the structure record, and
// a segment's leaf pages and tombstone pages by segment id and page.
const (
	ftsStructureRowid = 10
	ftsSegIDShift     = 31 + 5 + 1 // page bits, dlidx height bits, dlidx flag
	ftsTombstoneSegs  = 1 << 16
	// ftsMaxLevel is FTS5's bound on a structure's levels (FTS5_MAX_LEVEL,
	// fts5_index.c): a record that claims more is not FTS5's, and a
	// hostile count would otherwise size an allocation
	ftsMaxLevel = 64
)

func ftsLeafRowid(seg, page int) int64 { return int64(seg)<<ftsSegIDShift + int64(page) }

// segQueries are the statements that read FTS5's records, prepared once
// on the connection that reads them (a statement's preparation costs more
// than its run).
type segQueries struct {
	conn        *sql.Conn
	idx, leaves *sql.Stmt
	// a term's reading: in a transaction, from the structure record on
	begin, commit, structure *sql.Stmt
}

func prepareSegQueries(ctx context.Context, conn *sql.Conn) (*segQueries, error) {
	q := &segQueries{conn: conn}
	var err error
	// the leaf holding a term's first bytes: the largest term at most it
	if q.idx, err = conn.PrepareContext(ctx, `SELECT pgno FROM symbols_fts_idx WHERE segid = ? AND term <= ? ORDER BY term DESC LIMIT 1`); err != nil {
		return nil, fmt.Errorf("full-text segments: %w", err)
	}
	for _, p := range []struct {
		st **sql.Stmt
		q  string
	}{{&q.leaves, `SELECT id, block FROM symbols_fts_data WHERE id BETWEEN ? AND ?`},
		{&q.begin, `BEGIN`}, {&q.commit, `COMMIT`},
		{&q.structure, `SELECT block FROM symbols_fts_data WHERE id = ` + strconv.Itoa(ftsStructureRowid)}} {
		if *p.st, err = conn.PrepareContext(ctx, p.q); err != nil {
			q.close()
			return nil, fmt.Errorf("full-text segments: %w", err)
		}
	}
	return q, nil
}

func (q *segQueries) close() {
	for _, st := range []*sql.Stmt{q.idx, q.leaves, q.begin, q.commit, q.structure} {
		if st != nil {
			st.Close()
		}
	}
}

// ftsSegment is a segment of the full-text index: its leaves are pages
// first..last; deleted are the rowids of its tombstone pages, read once.
type ftsSegment struct {
	id, first, last int
	tombPages       int
	deleted         map[int64]bool
	tombRead        bool
}

// ftsStructure is the full-text index's segments, newest first: a rowid
// in a newer segment hides the same rowid in an older one.
type ftsStructure struct {
	segs []*ftsSegment
	rec  []byte // the record it was decoded from
}

// readStructure reads and decodes the structure record.
func readStructure(ctx context.Context, conn *sql.Conn) (*ftsStructure, error) {
	rec, err := readStructureRecord(ctx, conn)
	if err != nil {
		return nil, err
	}
	return decodeStructure(rec)
}

func readStructureRecord(ctx context.Context, conn *sql.Conn) ([]byte, error) {
	var rec []byte
	if err := conn.QueryRowContext(ctx, `SELECT block FROM symbols_fts_data WHERE id = ?`, ftsStructureRowid).Scan(&rec); err != nil {
		return nil, fmt.Errorf("full-text structure: %w", err)
	}
	return rec, nil
}

// decodeStructure decodes the structure record (fts5StructureDecode).
func decodeStructure(rec []byte) (*ftsStructure, error) {
	if len(rec) < 4 {
		return nil, errSegmentFormat
	}
	i := 4 // the configuration cookie
	v2 := len(rec) >= 8 && bytes.Equal(rec[4:8], []byte{0xff, 0, 0, 1})
	if v2 {
		i += 4
	}
	bad := false
	next := func() int64 {
		v, n := schema.SQLiteVarint(rec[min(i, len(rec)):])
		if n == 0 {
			bad = true
		}
		i += n
		return v
	}
	nLevel, nSeg := next(), next()
	next() // the write counter
	if bad || nLevel < 0 || nLevel > ftsMaxLevel || nSeg < 0 || nSeg > 1<<16 {
		return nil, errSegmentFormat
	}
	levels := make([][]*ftsSegment, nLevel)
	for l := range levels {
		next() // segments in an ongoing merge
		n := next()
		if bad || n < 0 || n > nSeg {
			return nil, errSegmentFormat
		}
		for range n {
			s := &ftsSegment{id: int(next()), first: int(next()), last: int(next())}
			if v2 {
				next() // origin counters
				next()
				s.tombPages = int(next())
				next() // tombstone entries, rows
				next()
			}
			if bad || s.id <= 0 || s.first <= 0 || s.last < s.first || s.tombPages < 0 {
				return nil, errSegmentFormat
			}
			levels[l] = append(levels[l], s)
		}
	}
	// level 0 is the newest; within a level the last segment is
	// (fts5MultiIterNew visits them in this order)
	st := &ftsStructure{rec: rec}
	for _, segs := range levels {
		for k := len(segs) - 1; k >= 0; k-- {
			st.segs = append(st.segs, segs[k])
		}
	}
	return st, nil
}

// readTombstones reads the rowids deleted from a segment: every filled slot
// of its hash pages (fts5IndexTombstoneQuery), rowid 0 by a flag.
func (s *ftsSegment) readTombstones(ctx context.Context, q *segQueries) error {
	if s.tombRead {
		return nil
	}
	s.tombRead = true
	if s.tombPages == 0 {
		return nil
	}
	s.deleted = map[int64]bool{}
	rows, err := q.leaves.QueryContext(ctx, ftsLeafRowid(s.id+ftsTombstoneSegs, 0), ftsLeafRowid(s.id+ftsTombstoneSegs, s.tombPages-1))
	if err != nil {
		return fmt.Errorf("full-text tombstones: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var p sql.RawBytes
		if err := rows.Scan(&id, &p); err != nil {
			return err
		}
		if len(p) < 8 {
			return errSegmentFormat
		}
		key := 8
		if p[0] == 4 {
			key = 4
		}
		slots := 1
		if len(p) > 16 {
			slots = (len(p) - 8) / key
		}
		if id == ftsLeafRowid(s.id+ftsTombstoneSegs, 0) && p[1] != 0 {
			s.deleted[0] = true
		}
		for k := range slots {
			o := 8 + k*key
			if o+key > len(p) {
				break
			}
			var v uint64
			for _, c := range p[o : o+key] {
				v = v<<8 | uint64(c)
			}
			if v != 0 {
				s.deleted[int64(v)] = true
			}
		}
	}
	return rows.Err()
}

// segEntry is a rowid of a term's doclist in one segment: its counts per
// column, or a delete marker.
type segEntry struct {
	rowid int64
	del   bool
	tf    [len(ftsColumns)]uint16
}

// errTooMany stops the reading of a term with more instances than a
// question reads (maxTermInstances) or a count past uint16.
var errTooMany = errors.New("full-text term: too many instances")

// readSegmentTerm reads the current rows holding term (a token of the
// tokenizer) and its count in each column, from every segment; nil, nil
// for a term of more than maxTermInstances instances or a count past
// uint16.
func readSegmentTerm(ctx context.Context, q *segQueries, st *ftsStructure, term string) (*termRows, error) {
	key := append([]byte{'0'}, term...) // the main index's prefix byte
	var entries []segEntry
	ends := make([]int, len(st.segs)) // where each segment's entries end
	instances := 0
	for rank, s := range st.segs {
		if err := s.readTombstones(ctx, q); err != nil {
			return nil, err
		}
		n := len(entries)
		var err error
		entries, err = readSegmentDoclist(ctx, q, s, key, entries, &instances)
		if errors.Is(err, errTooMany) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if s.deleted != nil {
			kept := entries[:n]
			for _, e := range entries[n:] {
				if !s.deleted[e.rowid] {
					kept = append(kept, e)
				}
			}
			entries = kept
		}
		ends[rank] = len(entries)
	}
	// each segment's entries come by rowid: merged, the newest segment's
	// entry of a rowid is the row's
	at := make([]int, len(st.segs))
	for k := range at {
		if k > 0 {
			at[k] = ends[k-1]
		}
	}
	r := &termRows{cols: 1<<len(ftsColumns) - 1, rows: make([]int64, 0, len(entries)), tf: make([][len(ftsColumns)]uint16, 0, len(entries))}
	for {
		best := -1
		for k := range at {
			if at[k] < ends[k] && (best < 0 || entries[at[k]].rowid < entries[at[best]].rowid) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		e := &entries[at[best]]
		for k := range at {
			if at[k] < ends[k] && entries[at[k]].rowid == e.rowid {
				at[k]++
			}
		}
		if !e.del {
			r.rows = append(r.rows, e.rowid)
			r.tf = append(r.tf, e.tf)
		}
	}
	return r, nil
}

// readSegmentDoclist appends the entries of key's doclist in segment s.
// The leaf holding key's first bytes is the one %_idx points at (the
// largest term at most key); the doclist runs on over the following pages
// until the next term.
func readSegmentDoclist(ctx context.Context, q *segQueries, s *ftsSegment, key []byte, out []segEntry, instances *int) ([]segEntry, error) {
	start := s.first
	var pg int64
	err := q.idx.QueryRowContext(ctx, s.id, key).Scan(&pg)
	switch {
	case err == sql.ErrNoRows:
	case err != nil:
		return out, fmt.Errorf("full-text segment index: %w", err)
	default:
		start = max(start, int(pg>>1)) // the low bit flags a doclist index
	}
	rows, err := q.leaves.QueryContext(ctx, ftsLeafRowid(s.id, start), ftsLeafRowid(s.id, s.last))
	if err != nil {
		return out, fmt.Errorf("full-text leaves: %w", err)
	}
	defer rows.Close()
	d := doclistDecoder{out: out, instances: instances}
	for rows.Next() {
		var id int64
		var p sql.RawBytes
		if err := rows.Scan(&id, &p); err != nil {
			return d.out, err
		}
		done, err := d.page(p, key)
		if err != nil {
			return d.out, err
		}
		if done {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return d.out, err
	}
	return d.finish()
}

// doclistDecoder reads a term's doclist page by page. Varints are never
// split across pages (the writer flushes a page between them); a position
// list may be, and the first rowid of a page that continues a doclist is
// stored whole, not as a delta.
type doclistDecoder struct {
	out       []segEntry
	instances *int
	found     bool  // the term was found; its doclist is being read
	rowid     int64 // the last rowid read
	left      int   // bytes of the current position list still to read
	col       int   // its current column
	colNext   bool  // the next varint is a column number
	entry     segEntry
	open      bool // entry is being read (a value: a pointer apiece was an allocation per row)
}

// page reads one leaf page; done when the doclist (or the search for the
// term) is over.
func (d *doclistDecoder) page(p []byte, key []byte) (bool, error) {
	if len(p) < 4 {
		return false, errSegmentFormat
	}
	firstRowid := int(p[0])<<8 | int(p[1])
	szLeaf := int(p[2])<<8 | int(p[3])
	if szLeaf > len(p) || szLeaf < 4 {
		return false, errSegmentFormat
	}
	// the offsets of the page's terms (its footer)
	var terms []int
	for o, at := szLeaf, 0; o < len(p); {
		v, n := schema.SQLiteVarint(p[o:])
		if n == 0 {
			return false, errSegmentFormat
		}
		at += int(v)
		terms = append(terms, at)
		o += n
	}
	if !d.found {
		// look for the term among the page's terms
		var prev []byte
		for i, at := range terms {
			if at < 4 || at >= szLeaf {
				return false, errSegmentFormat
			}
			o := at
			var t []byte
			if i == 0 {
				n, k := schema.SQLiteVarint(p[o:])
				if k == 0 || n < 0 || o+k+int(n) > szLeaf {
					return false, errSegmentFormat
				}
				t = p[o+k : o+k+int(n)]
				o += k + int(n)
			} else {
				pre, k1 := schema.SQLiteVarint(p[o:])
				suf, k2 := schema.SQLiteVarint(p[o+k1:])
				if k1 == 0 || k2 == 0 || pre < 0 || suf < 0 || int(pre) > len(prev) || o+k1+k2+int(suf) > szLeaf {
					return false, errSegmentFormat
				}
				t = append(prev[:pre:pre], p[o+k1+k2:o+k1+k2+int(suf)]...)
				o += k1 + k2 + int(suf)
			}
			switch c := bytes.Compare(t, key); {
			case c > 0:
				return true, nil // not in this segment
			case c == 0:
				d.found = true
				end := szLeaf
				if i+1 < len(terms) {
					end = terms[i+1]
				}
				return d.read(p, o, end, o, end < szLeaf)
			}
			prev = append(prev[:0:0], t...)
		}
		// every term here sorts before key: it may start on a later page
		return false, nil
	}
	// a page the doclist runs on to: its data up to its first term
	end := szLeaf
	if len(terms) > 0 {
		end = terms[0]
	}
	return d.read(p, 4, end, firstRowid, len(terms) > 0)
}

// read decodes the doclist's bytes p[o:end]; absAt is the offset of a
// rowid stored whole (the doclist's first, or the first of a page it
// continues onto). last: the doclist ends at end (a term follows).
func (d *doclistDecoder) read(p []byte, o, end, absAt int, last bool) (bool, error) {
	for o < end {
		if d.left > 0 {
			// the position list: a column's positions, each +2, with
			// 0x01 and a column number between columns
			v, n := schema.SQLiteVarint(p[o:])
			if n == 0 || n > d.left || o+n > end {
				return false, errSegmentFormat
			}
			o += n
			d.left -= n
			switch {
			case d.colNext:
				if v < 0 || v >= int64(len(ftsColumns)) {
					return false, errSegmentFormat
				}
				d.col, d.colNext = int(v), false
			case v == 1:
				d.colNext = true
			default:
				if d.entry.tf[d.col] == math.MaxUint16 {
					return false, errTooMany
				}
				d.entry.tf[d.col]++
				if *d.instances++; *d.instances > maxTermInstances {
					return false, errTooMany
				}
			}
			continue
		}
		if d.open {
			d.flush()
		}
		// a rowid (the first of the doclist and of a continued page whole,
		// else a delta), then the position list's size*2 + delete flag
		v, n := schema.SQLiteVarint(p[o:])
		if n == 0 || o+n > end {
			return false, errSegmentFormat
		}
		if o == absAt {
			d.rowid = v
		} else {
			d.rowid += v
		}
		o += n
		sz, k := schema.SQLiteVarint(p[o:])
		if k == 0 || o+k > end {
			return false, errSegmentFormat
		}
		o += k
		d.entry, d.open = segEntry{rowid: d.rowid, del: sz&1 != 0}, true
		d.left, d.col, d.colNext = int(sz>>1), 0, false
	}
	if last {
		if d.left > 0 {
			return false, errSegmentFormat
		}
		return true, nil
	}
	return false, nil
}

func (d *doclistDecoder) flush() {
	d.out = append(d.out, d.entry)
	d.open = false
}

// finish ends the doclist: at its next term or its segment's last page.
func (d *doclistDecoder) finish() ([]segEntry, error) {
	if d.left > 0 {
		return d.out, errSegmentFormat
	}
	if d.open {
		d.flush()
	}
	return d.out, nil
}
