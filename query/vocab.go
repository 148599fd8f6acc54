package query

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// The full-text index's statistics: how many symbols each term occurs in.
// bm25 costs a little for every symbol a query matches, and a word that
// occurs in thousands of symbols ("http" in net/http) adds much cost and
// almost no ranking signal, so slices leave such words out when rarer
// ones remain.

// stemmer turns words into the index's terms with the index's own
// tokenizer (porter over unicode61), in a private in-memory database: no
// second stemmer implementation to drift from the index.
type stemmer struct {
	mu   sync.Mutex
	db   *sql.DB
	seen map[string]string // word -> term, "" when none
	// the statements of a stemming, prepared once: their parsing cost
	// about as much as the stemming of a question's words
	clearSt, insertSt, readSt *sql.Stmt
}

var stems = &stemmer{}

func (s *stemmer) stem(ctx context.Context, words []string) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// a word's stem never changes: only new words go through the table
	out := map[string]string{}
	var fresh []string
	for _, w := range words {
		if t, ok := s.seen[w]; ok {
			if t != "" {
				out[w] = t
			}
		} else {
			fresh = append(fresh, w)
		}
	}
	if len(fresh) == 0 {
		return out, nil
	}
	got, err := s.stemFresh(ctx, fresh)
	if err != nil {
		return nil, err
	}
	if s.seen == nil || len(s.seen) > maxStems {
		s.seen = map[string]string{}
	}
	for _, w := range fresh {
		s.seen[w] = got[w] // "" for a word that is no term
		if t := got[w]; t != "" {
			out[w] = t
		}
	}
	return out, nil
}

// maxStems bounds the stems a process remembers; stemBatch is the words
// one statement stems when they go in as parameters.
const (
	maxStems  = 1 << 16
	stemBatch = 500
)

func (s *stemmer) stemFresh(ctx context.Context, words []string) (map[string]string, error) {
	if s.db == nil {
		db, err := sql.Open("sqlite", ":memory:")
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1)
		// contentless and without column sizes: only the terms are read
		// back, and storing the words and their lengths was a third of
		// the stemming
		if _, err := db.Exec(`CREATE VIRTUAL TABLE w USING fts5(t, content = '', columnsize = 0,
				tokenize = 'porter unicode61 remove_diacritics 2');
			CREATE VIRTUAL TABLE wv USING fts5vocab(w, 'instance')`); err != nil {
			db.Close()
			return nil, fmt.Errorf("stemmer: %w", err)
		}
		for _, p := range []struct {
			st **sql.Stmt
			q  string
		}{{&s.clearSt, `INSERT INTO w(w) VALUES('delete-all')`},
			{&s.insertSt, `INSERT INTO w(rowid, t) SELECT key + 1, value FROM json_each(?)`},
			{&s.readSt, `SELECT doc, term FROM wv`}} {
			if *p.st, err = db.PrepareContext(ctx, p.q); err != nil {
				db.Close()
				return nil, fmt.Errorf("stemmer: %w", err)
			}
		}
		s.db = db
	}
	if _, err := s.clearSt.ExecContext(ctx); err != nil {
		return nil, err
	}
	if err := s.insert(ctx, words); err != nil {
		return nil, err
	}
	rows, err := s.readSt.QueryContext(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var doc int
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			return nil, err
		}
		if doc >= 1 && doc <= len(words) {
			out[words[doc-1]] = term
		}
	}
	return out, rows.Err()
}

// insert puts words into the table, word i at row i+1. A slice stems the
// words of hundreds of candidates' names and paths: they go in as one
// JSON array, read by json_each, rather than a statement of a row each or
// of hundreds of placeholders, whose parsing cost more than the stemming.
// Words that are not UTF-8, which JSON cannot carry as they are, go in as
// parameters.
func (s *stemmer) insert(ctx context.Context, words []string) error {
	valid := true
	for _, w := range words {
		if !utf8.ValidString(w) {
			valid = false
			break
		}
	}
	if valid {
		list, err := json.Marshal(words)
		if err != nil {
			return err
		}
		_, err = s.insertSt.ExecContext(ctx, string(list))
		return err
	}
	for start := 0; start < len(words); start += stemBatch {
		chunk := words[start:min(start+stemBatch, len(words))]
		var q strings.Builder
		q.WriteString(`INSERT INTO w(rowid, t) VALUES`)
		args := make([]any, 0, 2*len(chunk))
		for i, w := range chunk {
			if i > 0 {
				q.WriteByte(',')
			}
			q.WriteString("(?, ?)")
			args = append(args, start+i+1, w)
		}
		if _, err := s.db.ExecContext(ctx, q.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// vocab answers document frequencies from the index's full-text table.
// Its connection also watches the file for commits by other connections
// (an index run), which end what the Index remembers of the file.
type vocab struct {
	mu        sync.Mutex
	conn      *sql.Conn
	version   int64          // PRAGMA data_version when docs were read
	docs      map[string]int // term -> document frequency
	instances bool           // conn has temp.symbols_instances (ftsrank.go)
	rowTable  bool           // conn has temp.symbols_vocab
	segs      *ftsStructure  // the full-text index's segments (ftsseg.go), read on first use
	segQ      *segQueries    // their statements on conn
}

// open prepares the connection and, when the file changed since, forgets
// what was read from it. v.mu is held.
func (v *vocab) open(ctx context.Context, x *Index) error {
	if v.conn == nil {
		conn, err := x.DB.Conn(ctx)
		if err != nil {
			return err
		}
		v.conn, v.version = conn, -1
	}
	var version int64
	if err := v.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&version); err != nil {
		return err
	}
	if version == v.version {
		return nil
	}
	v.version, v.docs, v.segs = version, map[string]int{}, nil
	x.cardCache.clear()
	x.graphCache.clear()
	x.fts.reset()
	return nil
}

// dataVersion changes whenever another connection commits to the index
// file; what was read from it before may be stale then.
func (x *Index) dataVersion(ctx context.Context) (int64, error) {
	v := &x.vocab
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.open(ctx, x); err != nil {
		return 0, err
	}
	return v.version, nil
}

// docFreqs returns, for each word, the number of current symbols whose
// full-text row holds its term: the rows of the term, read from FTS5's
// segments and held for the full-text lanes that read it next; for a term
// of too many instances to read, the vocabulary's count.
func (x *Index) docFreqs(ctx context.Context, words []string) (map[string]int, error) {
	st, err := stems.stem(ctx, words)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, w := range words {
		term, ok := st[w]
		if !ok {
			continue
		}
		r, err := x.heldTerm(ctx, term)
		if err != nil {
			return nil, err
		}
		if r != nil {
			out[w] = len(r.rows)
			continue
		}
		if out[w], err = x.vocabDocs(ctx, term); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// vocabDocs counts the rows holding term from the fts5vocab row table,
// which walks the term's whole list: it is remembered.
func (x *Index) vocabDocs(ctx context.Context, term string) (int, error) {
	v := &x.vocab
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.open(ctx, x); err != nil {
		return 0, err
	}
	if doc, ok := v.docs[term]; ok {
		return doc, nil
	}
	// made when first needed: most processes never ask it
	if !v.rowTable {
		if _, err := v.conn.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.symbols_vocab USING fts5vocab(main, symbols_fts, 'row')`); err != nil {
			return 0, fmt.Errorf("vocabulary: %w", err)
		}
		v.rowTable = true
	}
	var doc int
	err := v.conn.QueryRowContext(ctx, `SELECT doc FROM temp.symbols_vocab WHERE term = ?`, term).Scan(&doc)
	if err != nil && err != sql.ErrNoRows {
		return 0, err
	}
	if len(v.docs) >= maxStems {
		v.docs = map[string]int{}
	}
	v.docs[term] = doc
	return doc, nil
}

// closeVocab releases the statistics connection.
func (x *Index) closeVocab() {
	x.vocab.mu.Lock()
	defer x.vocab.mu.Unlock()
	if x.vocab.segQ != nil {
		x.vocab.segQ.close()
		x.vocab.segQ = nil
	}
	if x.vocab.conn != nil {
		x.vocab.conn.Close()
		x.vocab.conn = nil
	}
}

// informative drops the most common terms while the symbols the query
// would match (the sum of the terms' document frequencies) exceed budget,
// keeping at least keep terms and the order of the rest. Small and middle
// sized repositories stay under the budget and lose nothing; in a large one
// "http" in net/http goes, "redirect" stays.
func informative(terms []string, df map[string]int, budget, keep int) []string {
	total := 0
	for _, t := range terms {
		total += df[t]
	}
	if total <= budget || len(terms) <= keep {
		return terms
	}
	byDF := append([]string(nil), terms...)
	sort.SliceStable(byDF, func(i, j int) bool { return df[byDF[i]] > df[byDF[j]] })
	drop := map[string]bool{}
	for _, t := range byDF {
		if total <= budget || len(terms)-len(drop) <= keep {
			break
		}
		drop[t] = true
		total -= df[t]
	}
	var out []string
	for _, t := range terms {
		if !drop[t] {
			out = append(out, t)
		}
	}
	return out
}
