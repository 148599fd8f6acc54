package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// Vectors are derived data, like metrics: they exist for the current
// symbols only, are not versioned, and are computed for new and changed
// symbols only. The text a model sees of a symbol (embed.Doc) is hashed;
// a symbol whose text did not change keeps its vector, and a vector is
// reused for any symbol with the same text. A different model (its id or
// its dimension) drops every vector, and every symbol is embedded again.
// A symbol left without a vector (the endpoint was down) makes its file
// be parsed again by the next run, which embeds it then.

// EmbedSummary says what a run did about vectors.
type EmbedSummary struct {
	// Model is the index's embedding model; "none" when it has no vectors.
	Model    string `json:"model"`
	Dim      int    `json:"dim,omitempty"`
	Embedded int    `json:"embedded"` // vectors computed by this run
	Reused   int    `json:"reused"`   // vectors taken from symbols with the same text
	// Missing counts current symbols without a vector.
	Missing int `json:"missing"`
	// MemoriesEmbedded counts the memories whose vectors this run
	// computed (or reused by text); MemoriesMissing the current memories
	// without a vector.
	MemoriesEmbedded int `json:"memoriesEmbedded,omitempty"`
	MemoriesMissing  int `json:"memoriesMissing,omitempty"`
	// Reembed says why every vector was computed again.
	Reembed string `json:"reembed,omitempty"`
	// Removed says the run removed the index's vectors (--embed none).
	Removed bool `json:"removed,omitempty"`
	// Error says why vectors are missing: the endpoint is down, or not
	// configured. Indexing completes without them.
	Error string `json:"error,omitempty"`
}

// embedJob is a symbol row to embed.
type embedJob struct {
	rowid int64
	hash  string
	doc   embed.Doc
}

// vectorSet names the tables of one kind of embedded rows.
type vectorSet struct {
	vec    string // the vec0 table
	hashes string // rowid -> text hash
}

var (
	symbolSet = vectorSet{vec: schema.SymbolVectors, hashes: schema.SymbolEmbeddings}
	memorySet = vectorSet{vec: schema.MemoryVectors, hashes: schema.MemoryEmbeddings}
)

// embedder is the embedding state of one run.
type embedder struct {
	p   embed.Provider // nil: no new vectors
	dim int
	// keep: the index's vectors stay although p is nil (an HTTP model
	// whose endpoint is down or not configured here)
	keep    bool
	jobs    []embedJob
	closed  []int64 // symbol rows closed by this run
	sum     EmbedSummary
	changed bool // the vector tables changed: commit even without a new version
	failed  bool // the provider failed: the rest of the run embeds nothing
	// prevModel is the index's model before the run; want the model
	// this run was asked to use
	prevModel, want string
}

// on reports whether symbols are embedded by this run.
func (e *embedder) on() bool { return e != nil && e.p != nil }

// symbolDoc is what a model sees of a symbol.
func symbolDoc(path string, s *lang.Symbol) embed.Doc {
	doc := s.Doc
	if doc == "" {
		doc = s.Summary
	}
	return embed.Doc{Name: s.Name, Container: s.Container, Kind: s.Kind, Signature: s.Signature.Text, Doc: doc,
		Path: path, Body: s.Idents, Comments: s.Words}
}

// queue records a symbol row to embed.
func (e *embedder) queue(rowid int64, path string, s *lang.Symbol) {
	if !e.on() || s.Kind == lang.KindModule {
		return
	}
	d := symbolDoc(path, s)
	e.jobs = append(e.jobs, embedJob{rowid: rowid, hash: d.Hash(), doc: d})
}

// readEmbedMeta reads the model an index's vectors come from ("" when
// unknown, "none" when it was built without).
func readEmbedMeta(ctx context.Context, q schema.Querier) (string, int) {
	model, _ := schema.GetMeta(ctx, q, schema.MetaEmbeddingModel)
	dimText, _ := schema.GetMeta(ctx, q, schema.MetaEmbeddingDim)
	dim, _ := strconv.Atoi(dimText)
	return model, dim
}

// openEmbedder chooses this run's provider from the options and the
// model the index has (prev), and learns the model's dimension. An HTTP
// model that cannot be reached, or is the index's model but is not
// configured here, leaves the run without new vectors, not failed.
func (b *build) openEmbedder(ctx context.Context, prev string) (*embedder, error) {
	e := &embedder{prevModel: prev}
	down := func(want string, err error) (*embedder, error) {
		e.p, e.keep, e.want = nil, true, want
		e.sum.Model = want
		if prev != "" && prev != embed.ProviderNone {
			e.sum.Model = prev
		}
		e.sum.Error = err.Error()
		return e, nil
	}
	p := b.opts.Embedder
	cfg := b.opts.Embedding
	if p == nil {
		switch {
		case cfg.Provider != "":
		case prev == embed.ProviderNone:
			cfg.Provider = embed.ProviderNone
		case prev != "":
			cfg.Provider = embed.ProviderOf(prev)
		}
		var err error
		p, err = cfg.Open()
		if err != nil {
			if b.opts.Embedding.Provider != "" || !errors.Is(err, embed.ErrConfig) {
				return nil, fmt.Errorf("embedding: %w", err)
			}
			return down(prev, fmt.Errorf("the index's vectors come from %s, which is not configured here: %w", prev, err))
		}
	}
	if p == nil {
		e.sum.Model = embed.ProviderNone
		e.want = embed.ProviderNone
		return e, nil
	}
	e.p = p
	e.want = p.ID()
	e.sum.Model = p.ID()
	e.dim = p.Dim()
	if e.dim == 0 {
		// ask once before the run: a down endpoint is known at once, and
		// the dimension decides whether the stored vectors still fit
		v, err := p.EmbedQuery(ctx, "dimension probe")
		if err == nil && len(v) == 0 {
			err = fmt.Errorf("%w: %s returned no vector", embed.ErrDimension, p.ID())
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return down(p.ID(), fmt.Errorf("%w; indexed without new vectors", err))
		}
		e.dim = len(v)
	}
	e.sum.Dim = e.dim
	return e, nil
}

// prepareVectors brings the vector tables to the run's model: it drops
// them when the model changed or vectors are off, and creates them for a
// model that has none yet. It reports whether every symbol must be
// embedded again.
func (e *embedder) prepareVectors(ctx context.Context, q schema.Querier, prevDim int) error {
	prevModel := e.prevModel
	if e.keep {
		return nil
	}
	exists, err := schema.TableExists(ctx, q, symbolSet.vec)
	if err != nil {
		return err
	}
	want := e.sum.Model
	if exists && (want != prevModel || e.dim != prevDim) {
		if e.p != nil && prevModel != "" && prevModel != embed.ProviderNone {
			if want != prevModel {
				e.sum.Reembed = fmt.Sprintf("the model changed from %s to %s", prevModel, want)
			} else {
				e.sum.Reembed = fmt.Sprintf("%s now has %d dimensions, the index %d", want, e.dim, prevDim)
			}
		}
		if _, err := q.ExecContext(ctx, `DROP TABLE `+symbolSet.vec+`; DELETE FROM `+symbolSet.hashes+`;
			DROP TABLE IF EXISTS `+memorySet.vec+`; DELETE FROM `+memorySet.hashes); err != nil {
			return fmt.Errorf("drop vectors: %w", err)
		}
		e.sum.Removed = e.p == nil
		exists = false
		e.changed = true
	}
	if e.p != nil && !exists {
		if err := schema.CreateVectors(ctx, q, symbolSet.vec, e.dim); err != nil {
			return err
		}
		e.changed = true
	}
	if e.p != nil {
		// memories' vectors come and go with the symbols'
		mem, err := schema.TableExists(ctx, q, memorySet.vec)
		if err != nil {
			return err
		}
		if !mem {
			if _, err := q.ExecContext(ctx, `DELETE FROM `+memorySet.hashes); err != nil {
				return fmt.Errorf("create memory vectors: %w", err)
			}
			if err := schema.CreateVectors(ctx, q, memorySet.vec, e.dim); err != nil {
				return err
			}
			e.changed = true
		}
	}
	if want != prevModel {
		e.changed = true
	}
	return nil
}

// missingFiles lists the files with current symbols that have no vector
// (nor a recorded attempt) for the run's model.
func missingFiles(ctx context.Context, q schema.Querier) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT p.path FROM symbols s JOIN paths p ON p.id = s.path_id
		LEFT JOIN `+symbolSet.hashes+` e ON e.rowid = s.rowid
		WHERE s.to_seq IS NULL AND s.kind != 'module' AND e.rowid IS NULL`)
	if err != nil {
		return nil, fmt.Errorf("find symbols without vectors: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out[p] = true
	}
	return out, rows.Err()
}

// embedBatch is how many documents go to the provider at once.
const embedBatch = 512

// flush embeds the queued symbols, reusing vectors by text hash, stores
// them, and removes the vectors of the rows this run closed. A provider
// failure ends embedding, not the run: the symbols left stay without
// vectors and the summary says why.
func (e *embedder) flush(ctx context.Context, q querier, progress func(done, total int)) (err error) {
	if e == nil {
		return nil
	}
	exists, err := schema.TableExists(ctx, q, symbolSet.vec)
	if err != nil {
		return err
	}
	if exists && len(e.closed) > 0 {
		// after the new rows took what they can of the closed rows' vectors
		defer func() {
			if err == nil {
				err = deleteVectors(ctx, q, symbolSet, e.closed)
				e.changed = true
			}
		}()
	}
	if !e.on() || len(e.jobs) == 0 {
		return nil
	}
	if e.failed {
		e.jobs = nil // the provider failed earlier in this run: do not wait on it again
		return nil
	}
	n, r, err := e.embedJobs(ctx, q, symbolSet, e.jobs, progress)
	e.sum.Embedded += n
	e.sum.Reused += r
	e.jobs = nil
	return err
}

// embedJobs embeds jobs into set, reusing the vectors stored there for
// the same text; it returns how many jobs got a vector computed now and
// how many took a stored one. A
// provider failure is recorded in the summary and ends embedding for the
// run, without an error.
func (e *embedder) embedJobs(ctx context.Context, q querier, set vectorSet, jobs []embedJob, progress func(done, total int)) (embedded, reused int, err error) {
	insHash, err := q.PrepareContext(ctx, `INSERT OR REPLACE INTO `+set.hashes+`(rowid, hash) VALUES(?, ?)`)
	if err != nil {
		return 0, 0, err
	}
	defer insHash.Close()
	insVec, err := q.PrepareContext(ctx, `INSERT INTO `+set.vec+`(rowid, embedding) VALUES(?, vec_int8(?))`)
	if err != nil {
		return 0, 0, err
	}
	defer insVec.Close()
	store := func(rowid int64, hash string, v []int8) error {
		if _, err := insHash.ExecContext(ctx, rowid, hash); err != nil {
			return fmt.Errorf("store vector: %w", err)
		}
		if v == nil {
			return nil // no word the model knows: recorded, no vector
		}
		if _, err := insVec.ExecContext(ctx, rowid, int8Blob(v)); err != nil {
			return fmt.Errorf("store vector: %w", err)
		}
		return nil
	}
	e.changed = true

	// the same text once; vectors already stored for a text are reused
	byHash := map[string][]int{}
	var order []string
	for i, j := range jobs {
		if _, ok := byHash[j.hash]; !ok {
			order = append(order, j.hash)
		}
		byHash[j.hash] = append(byHash[j.hash], i)
	}
	known, err := storedVectors(ctx, q, set, order)
	if err != nil {
		return 0, 0, err
	}
	var todo []string
	for _, h := range order {
		v, ok := known[h]
		if !ok {
			todo = append(todo, h)
			continue
		}
		for _, i := range byHash[h] {
			if err := store(jobs[i].rowid, h, v); err != nil {
				return 0, 0, err
			}
			reused++
		}
	}
	for start := 0; start < len(todo); start += embedBatch {
		progress(start, len(todo))
		hs := todo[start:min(start+embedBatch, len(todo))]
		docs := make([]embed.Doc, len(hs))
		for k, h := range hs {
			docs[k] = jobs[byHash[h][0]].doc
		}
		vs, err := e.p.EmbedDocs(ctx, docs)
		if err == nil && len(vs) != len(docs) {
			err = fmt.Errorf("%s returned %d vectors for %d texts", e.p.ID(), len(vs), len(docs))
		}
		for _, v := range vs {
			if err == nil && v != nil && len(v) != e.dim {
				err = fmt.Errorf("%w: %s returned %d dimensions, the index has %d", embed.ErrDimension, e.p.ID(), len(v), e.dim)
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return 0, 0, ctx.Err()
			}
			e.sum.Error = err.Error()
			e.failed = true
			break
		}
		for k, h := range hs {
			var q8 []int8
			if vs[k] != nil {
				q8 = embed.Quantize(vs[k])
			}
			for _, i := range byHash[h] {
				if err := store(jobs[i].rowid, h, q8); err != nil {
					return 0, 0, err
				}
				embedded++
			}
		}
	}
	return embedded, reused, nil
}

// storedVectors finds stored vectors by text hash (nil for a text with no
// vector), for the hashes that have one.
func storedVectors(ctx context.Context, q schema.Querier, set vectorSet, hashes []string) (map[string][]int8, error) {
	out := map[string][]int8{}
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM `+set.hashes+` LIMIT 1)`).Scan(&n); err != nil || n == 0 {
		return out, err
	}
	for chunk := range slices.Chunk(hashes, schema.MaxInList) {
		args := schema.Args(chunk)
		rows, err := q.QueryContext(ctx, `SELECT hash, min(rowid) FROM `+set.hashes+` WHERE hash IN (`+schema.Placeholders(len(chunk))+`) GROUP BY hash`, args...)
		if err != nil {
			return nil, fmt.Errorf("find stored vectors: %w", err)
		}
		found := map[string]int64{}
		for rows.Next() {
			var h string
			var rowid int64
			if err := rows.Scan(&h, &rowid); err != nil {
				rows.Close()
				return nil, err
			}
			found[h] = rowid
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for h, rowid := range found {
			var blob []byte
			err := q.QueryRowContext(ctx, `SELECT embedding FROM `+set.vec+` WHERE rowid = ?`, rowid).Scan(&blob)
			if errors.Is(err, sql.ErrNoRows) {
				out[h] = nil
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("read stored vector: %w", err)
			}
			v := make([]int8, len(blob))
			for i, c := range blob {
				v[i] = int8(c)
			}
			out[h] = v
		}
	}
	return out, nil
}

// deleteVectors removes the vectors of rows.
func deleteVectors(ctx context.Context, q schema.Querier, set vectorSet, rowids []int64) error {
	for chunk := range slices.Chunk(rowids, schema.MaxInList) {
		args := schema.Args(chunk)
		ph := schema.Placeholders(len(chunk))
		if _, err := q.ExecContext(ctx, `DELETE FROM `+set.vec+` WHERE rowid IN (`+ph+`)`, args...); err != nil {
			return fmt.Errorf("delete vectors: %w", err)
		}
		if _, err := q.ExecContext(ctx, `DELETE FROM `+set.hashes+` WHERE rowid IN (`+ph+`)`, args...); err != nil {
			return fmt.Errorf("delete vectors: %w", err)
		}
	}
	return nil
}

func int8Blob(v []int8) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}

// finish counts the symbols without vectors and returns the meta rows
// that record the model (none when the index's model stays).
func (e *embedder) finish(ctx context.Context, q schema.Querier) ([][2]string, error) {
	if e == nil {
		return nil, nil
	}
	if e.on() || e.keep {
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM symbols s LEFT JOIN `+symbolSet.hashes+` e ON e.rowid = s.rowid
			WHERE s.to_seq IS NULL AND s.kind != 'module' AND e.rowid IS NULL`).Scan(&e.sum.Missing); err != nil {
			return nil, fmt.Errorf("count symbols without vectors: %w", err)
		}
	}
	if e.keep {
		if e.prevModel != "" && e.prevModel != embed.ProviderNone {
			return nil, nil // the index's model and vectors stay
		}
		// remember the model asked for: the next run embeds with it
		return [][2]string{{schema.MetaEmbeddingDim, ""}, {schema.MetaEmbeddingModel, e.want}}, nil
	}
	dim := ""
	if e.on() {
		dim = strconv.Itoa(e.dim)
	}
	return [][2]string{{schema.MetaEmbeddingDim, dim}, {schema.MetaEmbeddingModel, e.sum.Model}}, nil
}

// embedFlushAt is how many queued symbols a run embeds and stores before
// it parses on: the queue holds each symbol's text, which a large tree
// must not keep until the end.
var embedFlushAt = 8 * embedBatch

// embedSome embeds the queued symbols once there are embedFlushAt of them.
func (b *build) embedSome(ctx context.Context, tx querier) error {
	if b.emb == nil || len(b.emb.jobs) < embedFlushAt {
		return nil
	}
	return b.emb.flush(ctx, tx, func(int, int) {})
}

// embedAll stores the vectors of the queued symbols, removes those of the
// closed ones, and returns the meta rows of the model.
func (b *build) embedAll(ctx context.Context, tx querier) ([][2]string, error) {
	b.emb.closed = b.w.closedSyms
	b.progress("embed", 0, len(b.emb.jobs))
	if err := b.emb.flush(ctx, tx, func(done, total int) { b.progress("embed", done, total) }); err != nil {
		return nil, err
	}
	return b.emb.finish(ctx, tx)
}

// embedMemories brings the memories' vectors up to the memories after
// an index run imported the memory files: memories are few, so every run
// compares each current memory's text hash with the one its vector was
// computed from, embeds the new and changed ones (reusing a stored vector
// of the same text), and removes the vectors of memories that are gone or
// marked deleted. Without a provider (the endpoint is down) it only
// removes: the next run embeds what is missing.
func (b *build) embedMemories(ctx context.Context, tx querier) error {
	e := b.emb
	if e == nil {
		return nil
	}
	exists, err := schema.TableExists(ctx, tx, memorySet.vec)
	if err != nil || !exists {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT m.seq, m.type, m.title, m.content, m.tags, COALESCE(e.hash, '')
		FROM memories m LEFT JOIN `+memorySet.hashes+` e ON e.rowid = m.seq WHERE m.deleted = 0 ORDER BY m.seq`)
	if err != nil {
		return fmt.Errorf("read memories to embed: %w", err)
	}
	var jobs []embedJob
	var stale []int64 // rows whose text changed: their old vectors go first
	for rows.Next() {
		var seq int64
		var typ, title, content, tagsJSON, had string
		if err := rows.Scan(&seq, &typ, &title, &content, &tagsJSON, &had); err != nil {
			rows.Close()
			return err
		}
		var tags []string
		_ = json.Unmarshal([]byte(tagsJSON), &tags) // written by putMemory; unreadable tags embed as none
		d := embed.MemoryDoc(typ, title, content, tags)
		h := d.Hash()
		if h == had {
			continue
		}
		if had != "" {
			stale = append(stale, seq)
		}
		jobs = append(jobs, embedJob{rowid: seq, hash: h, doc: d})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var gone []int64
	rs, err := tx.QueryContext(ctx, `SELECT rowid FROM `+memorySet.hashes+` WHERE rowid NOT IN (SELECT seq FROM memories WHERE deleted = 0)`)
	if err != nil {
		return fmt.Errorf("find vectors of removed memories: %w", err)
	}
	for rs.Next() {
		var r int64
		if err := rs.Scan(&r); err != nil {
			rs.Close()
			return err
		}
		gone = append(gone, r)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return err
	}
	if len(stale) > 0 {
		if err := deleteVectors(ctx, tx, memorySet, stale); err != nil {
			return err
		}
		e.changed = true
	}
	if e.on() && !e.failed && len(jobs) > 0 {
		n, r, err := e.embedJobs(ctx, tx, memorySet, jobs, func(int, int) {})
		if err != nil {
			return err
		}
		e.sum.MemoriesEmbedded += n + r
	}
	// after the new rows took what they can of the removed ones' vectors
	if len(gone) > 0 {
		if err := deleteVectors(ctx, tx, memorySet, gone); err != nil {
			return err
		}
		e.changed = true
	}
	return tx.QueryRowContext(ctx, `SELECT count(*) FROM memories m LEFT JOIN `+memorySet.hashes+` e ON e.rowid = m.seq
		WHERE m.deleted = 0 AND e.rowid IS NULL`).Scan(&e.sum.MemoriesMissing)
}

// peekEmbedMeta reads the embedding model of an index of another schema
// version, so that a rebuild keeps the choice; "" when it cannot.
func peekEmbedMeta(ctx context.Context, path string) (string, error) {
	db, err := sql.Open("sqlite", schema.DSN(path, true))
	if err != nil {
		return "", err
	}
	defer db.Close()
	m, _ := readEmbedMeta(ctx, db)
	return m, nil
}
