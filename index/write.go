package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/sdl-dev/sdl/lang"
)

// writer holds the prepared statements of one write transaction. Only the
// writer goroutine uses it.
type writer struct {
	tx  *sql.Tx
	seq int64
	// rowCtx is the context of row statements: the run's values without
	// its cancellation (see exec)
	rowCtx context.Context
	stmts  map[string]*sql.Stmt
	// paths interns repository paths; ids are assigned in first-seen
	// order, which is path order, so a rebuild assigns the same ids.
	paths    map[string]int64
	nextPath int64
	// rows inserted into and closed in the current view, for the ledger
	symbolDelta, edgeDelta int64
	// edgeWrites counts the edges inserted and closed
	edgeWrites int64
	// closedSyms are the symbol rows closed by this run: their vectors go
	closedSyms []int64
	// conn, when set, is the connection of tx: the hot row statements of
	// a full build then run on its driver connection (see direct)
	conn *sql.Conn
	drv  map[string]driver.Stmt
	nv   []driver.NamedValue
	// batches holds the rows of the bulk inserts not yet written, by
	// statement, while a full build batches them (see batchRows); nextSym
	// is then the rowid of the next symbol, given explicitly
	batches map[string]*rowBatch
	nextSym int64
	// ftsBlocks are the symbol_lengths blocks of the full-text rows
	// written or deleted, to write again before the commit (lengths.go)
	ftsBlocks map[int64]bool
}

// batchRowsN is how many rows one INSERT of a full build writes. What a
// statement costs apart from its values (the step's setup, the reset,
// the bindings cleared, the call through database/sql) is then paid once
// for them: a quarter of an edge row's cost with one row a statement.
const batchRowsN = 16

// rowBatch is the values of the rows of one statement not yet written.
type rowBatch struct {
	name string
	args []any
	rows int
	// first is the rowid the first row is to get, or 0 when the caller
	// does not need it (see batched)
	first int64
}

// batchRows makes the row inserts of symbols and edges go in batches of
// batchRowsN rows until flush. Only a full build batches: nobody reads
// its rows back before flush, and its symbols table has had no row
// deleted, so that each new symbol gets the rowid after the largest, and
// the writer can say which before the row is written.
func (w *writer) batchRows(ctx context.Context) error {
	if w.conn == nil {
		return nil
	}
	if w.batches == nil {
		w.batches = map[string]*rowBatch{}
	}
	if err := w.tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(rowid), 0) + 1 FROM symbols`).Scan(&w.nextSym); err != nil {
		return fmt.Errorf("next symbol rowid: %w", err)
	}
	return nil
}

// batched adds a row of statement name to its batch, and writes the batch
// when full. rowid is the rowid the row is to get (0: any), which writing
// it checks.
func (w *writer) batched(name string, rowid int64, args ...any) error {
	bt := w.batches[name]
	if bt == nil {
		bt = &rowBatch{name: name, args: make([]any, 0, batchRowsN*len(args))}
		w.batches[name] = bt
	}
	if bt.rows == 0 {
		bt.first = rowid
	}
	bt.args = append(bt.args, args...)
	bt.rows++
	if bt.rows < batchRowsN {
		return nil
	}
	return w.writeBatch(bt)
}

// writeBatch writes the rows of bt: a full batch in one statement, a
// partial one row by row.
func (w *writer) writeBatch(bt *rowBatch) error {
	var res driver.Result
	var err error
	if bt.rows == batchRowsN {
		res, err = w.execDirect(bt.name+batchSuffix, bt.args)
	} else {
		n := len(bt.args) / max(bt.rows, 1)
		for i := 0; i < bt.rows && err == nil; i++ {
			res, err = w.execDirect(bt.name, bt.args[i*n:(i+1)*n])
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", bt.name, err)
	}
	if bt.first != 0 {
		// the rowids given out must be the ones the rows got
		last, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("%s: %w", bt.name, err)
		}
		if want := bt.first + int64(bt.rows) - 1; last != want {
			return fmt.Errorf("%s: rows got rowids up to %d, not %d", bt.name, last, want)
		}
	}
	clear(bt.args)
	bt.args, bt.rows = bt.args[:0], 0
	return nil
}

// flush writes the rows still in batches and stops batching.
func (w *writer) flush() error {
	for _, name := range []string{"insSym", "insEdge", "insMetric"} {
		if bt := w.batches[name]; bt != nil && bt.rows > 0 {
			if err := w.writeBatch(bt); err != nil {
				return err
			}
		}
	}
	w.batches = nil
	return nil
}

// batchSuffix names the batchRowsN-row form of a statement.
const batchSuffix = "*batch"

// statementSQL is the text of statement name, or of its batchRowsN-row
// form: its VALUES tuple repeated.
func statementSQL(name string) string {
	base, ok := strings.CutSuffix(name, batchSuffix)
	q := statements[base]
	if !ok {
		return q
	}
	i := strings.LastIndex(q, "VALUES")
	tuple := strings.TrimSpace(q[i+len("VALUES"):])
	// OR FAIL, and no rowid given: a statement of several rows that may
	// abort opens a savepoint (OR ABORT, the default, and a rowid given
	// may abort), and FTS5, in the same transaction, then writes its
	// pending terms out as a segment: one per batch instead of a few per
	// build. A failed row fails the build, which rolls back, either way.
	q = strings.Replace(q[:i], "INSERT INTO", "INSERT OR FAIL INTO", 1)
	return q + "VALUES" + strings.Repeat(tuple+", ", batchRowsN-1) + tuple
}

// directStatements are the row statements of a full build, run on the
// driver connection: database/sql's argument conversion, locks and result
// cost as much again as binding the values, on every row.
var directStatements = map[string]bool{"insPath": true, "insFile": true, "insSym": true, "insFTS": true, "insEdge": true,
	"insMetric": true}

// direct makes the writer run its row statements on conn, the connection
// its transaction was begun on, without database/sql (they are still part
// of the transaction: it is the same SQLite connection).
func (w *writer) direct(conn *sql.Conn) {
	w.conn, w.drv = conn, map[string]driver.Stmt{}
}

// execDirect runs statement name on the driver connection.
func (w *writer) execDirect(name string, args []any) (driver.Result, error) {
	var res driver.Result
	err := w.conn.Raw(func(dc any) error {
		st := w.drv[name]
		if st == nil {
			p, ok := dc.(driver.ConnPrepareContext)
			if !ok {
				return fmt.Errorf("driver %T cannot prepare statements with a context", dc)
			}
			var err error
			if st, err = p.PrepareContext(w.rowCtx, statementSQL(name)); err != nil {
				return err
			}
			w.drv[name] = st
		}
		ex, ok := st.(driver.StmtExecContext)
		if !ok {
			return fmt.Errorf("driver statement %T cannot execute with a context", st)
		}
		nv := w.nv[:0]
		for i, a := range args {
			// the conversions database/sql would make for these values
			switch v := a.(type) {
			case int:
				a = int64(v)
			case uint32:
				a = int64(v)
			case int32:
				a = int64(v)
			}
			nv = append(nv, driver.NamedValue{Ordinal: i + 1, Value: a})
		}
		w.nv = nv
		var err error
		res, err = ex.ExecContext(w.rowCtx, nv)
		return err
	})
	return res, err
}

var statements = map[string]string{
	"insPath": `INSERT INTO paths(id, path) VALUES(?, ?)`,
	"insFile": `INSERT INTO files(path_id, language, size, hash, mtime, lines, status, reason, diagnostics, faults, is_test, module, imports, build, from_seq)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"setFaults": `UPDATE files SET faults = ? WHERE path_id = ? AND to_seq IS NULL`,
	"stampFile": `UPDATE files SET mtime = ? WHERE path_id = ? AND to_seq IS NULL`,
	"closeFile": `UPDATE files SET to_seq = ? WHERE path_id = ? AND to_seq IS NULL`,
	"insSym": `INSERT INTO symbols(id, path_id, kind, name, qualified, container, parent_id, start_line, start_col, end_line, end_col,
		exported, visibility, signature, doc, summary, invariants, side_effects, fingerprint, is_test, digest, from_seq)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"insFTS":   `INSERT INTO symbols_fts(rowid, name, qualified, signature, doc, path, body, words) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
	"closeSym": `UPDATE symbols SET to_seq = ? WHERE rowid = ?`,
	"delFTS":   `DELETE FROM symbols_fts WHERE rowid = ?`,
	"oldSyms": `SELECT s.rowid, s.id, s.digest, s.fingerprint, s.kind, e.rowid IS NOT NULL, s.name, s.container, s.exported, s.signature, s.start_line, s.end_line FROM symbols s
		LEFT JOIN symbol_embeddings e ON e.rowid = s.rowid WHERE s.path_id = ? AND s.to_seq IS NULL`,
	"insMetric": `INSERT INTO metrics(id, fan_in, fan_out, test_refs, nearest_test, cluster_id) VALUES(?, ?, ?, ?, ?, ?)`,
	"oldEdges":  `SELECT rowid, digest FROM edges WHERE path_id = ? AND to_seq IS NULL`,
	"closeEdge": `UPDATE edges SET to_seq = ? WHERE rowid = ?`,
	"insEdge": `INSERT INTO edges(src, dst, kind, name, qual, qual_type, qual_call, confidence, rule, candidates, count, line, path_id, digest, from_seq)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
}

func newWriter(ctx context.Context, tx *sql.Tx, seq int64) (*writer, error) {
	w := &writer{tx: tx, seq: seq, stmts: map[string]*sql.Stmt{}, paths: map[string]int64{}}
	for name, q := range statements {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("prepare %s: %w", name, err)
		}
		w.stmts[name] = st
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, path FROM paths`)
	if err != nil {
		return nil, fmt.Errorf("load paths: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			return nil, err
		}
		w.paths[p] = id
		if id >= w.nextPath {
			w.nextPath = id + 1
		}
	}
	if w.nextPath == 0 {
		w.nextPath = 1
	}
	return w, rows.Err()
}

func (w *writer) close() {
	for _, st := range w.stmts {
		st.Close()
	}
	if len(w.drv) > 0 {
		w.conn.Raw(func(any) error {
			for _, st := range w.drv {
				st.Close()
			}
			return nil
		})
		w.drv = nil
	}
}

// exec runs one of the writer's row statements. It does not pass ctx's
// cancellation to the driver, which would start a watcher goroutine for
// every row (a tenth of the writer's time on a large tree): a row
// statement is short, and the loops that feed the writer stop on ctx
// between files.
func (w *writer) exec(ctx context.Context, name string, args ...any) (sql.Result, error) {
	if w.rowCtx == nil {
		w.rowCtx = context.WithoutCancel(ctx)
	}
	if w.conn != nil && directStatements[name] {
		res, err := w.execDirect(name, args)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return res, nil
	}
	res, err := w.stmts[name].ExecContext(w.rowCtx, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return res, nil
}

// insertMetric writes the metrics row of symbol id.
func (w *writer) insertMetric(ctx context.Context, id string, r metricRow) error {
	if w.batches != nil {
		return w.batched("insMetric", 0, id, r.fanIn, r.fanOut, r.testRefs, r.nearest, r.cluster)
	}
	_, err := w.exec(ctx, "insMetric", id, r.fanIn, r.fanOut, r.testRefs, r.nearest, r.cluster)
	return err
}

// pathID interns p.
func (w *writer) pathID(ctx context.Context, p string) (int64, error) {
	if id, ok := w.paths[p]; ok {
		return id, nil
	}
	id := w.nextPath
	if _, err := w.exec(ctx, "insPath", id, p); err != nil {
		return 0, err
	}
	w.nextPath++
	w.paths[p] = id
	return id, nil
}

// writeFile records a file row for the new version.
func (w *writer) writeFile(ctx context.Context, pid int64, r *fileResult) error {
	language := ""
	if r.entry.Lang != nil {
		language = r.entry.Lang.Name
	}
	diags := ""
	if len(r.diags) > 0 {
		b, _ := json.Marshal(r.diags)
		diags = string(b)
	}
	module, imports, build, isTest := "", "", "", 0
	if r.facts != nil {
		module, build = r.facts.Module, r.facts.Build
		if len(r.facts.Imports) > 0 {
			b, _ := json.Marshal(r.facts.Imports)
			imports = string(b)
		}
		if r.facts.IsTest {
			isTest = 1
		}
	}
	_, err := w.exec(ctx, "insFile", pid, language, r.size, r.hash, r.mtime, r.lines, r.status, r.reason, diags,
		faultsJSON(r.faults), isTest, module, imports, build, w.seq)
	return err
}

// setFaults records the faults of a file whose row is already written:
// those of its resolution.
func (w *writer) setFaults(ctx context.Context, pid int64, faults []lang.Fault) error {
	_, err := w.exec(ctx, "setFaults", faultsJSON(faults), pid)
	return err
}

// addFaults adds faults to those recorded on a file's current row: a
// file that was not parsed again, whose references were.
func (w *writer) addFaults(ctx context.Context, pid int64, faults []lang.Fault) error {
	var have string
	if err := w.tx.QueryRowContext(ctx, `SELECT faults FROM files WHERE path_id = ? AND to_seq IS NULL`, pid).Scan(&have); err != nil {
		return fmt.Errorf("read faults: %w", err)
	}
	var all []lang.Fault
	if have != "" {
		_ = json.Unmarshal([]byte(have), &all)
	}
	// the same fault found again replaces the one recorded
next:
	for _, f := range faults {
		for i := range all {
			if all[i].Stage == f.Stage && all[i].Reason == f.Reason {
				all[i] = f
				continue next
			}
		}
		all = append(all, f)
	}
	return w.setFaults(ctx, pid, all)
}

func faultsJSON(faults []lang.Fault) string {
	if len(faults) == 0 {
		return ""
	}
	b, _ := json.Marshal(faults)
	return string(b)
}

// countFaults sets the summary's count of current files with faults.
func (b *build) countFaults(ctx context.Context, tx querier) error {
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM files WHERE to_seq IS NULL AND faults != ''`).Scan(&b.sum.Faults)
	if err != nil {
		return fmt.Errorf("count faults: %w", err)
	}
	return nil
}

// FTS5 keeps new terms in a hash of this many bytes and writes it out as a
// segment when full; segments are then merged. A full build fills the
// table in one transaction: a large hash writes a few large segments, which
// spares most of the merging (a third of the full-text work with the
// default 1 MB). The file keeps the default, for incremental runs.
const (
	ftsBuildHash   = 8 << 20
	ftsDefaultHash = 1 << 20
)

// ftsHash sets the size of the full-text table's hash of pending terms.
func (w *writer) ftsHash(ctx context.Context, size int) error {
	if _, err := w.tx.ExecContext(ctx, `INSERT INTO symbols_fts(symbols_fts, rank) VALUES('hashsize', ?)`, size); err != nil {
		return fmt.Errorf("full-text hash size: %w", err)
	}
	return nil
}

// ftsOptimize merges the full-text table's segments into one (GOROOT/src:
// five, 0.3 s of CPU): a question reads each of its terms from every
// segment, a lookup and a leaf page apiece, and merges them, which was a
// fifth of a first-asked search. It runs before CREATE INDEX, whose pages
// take the ones the old segments leave free: the file does not grow.
func (w *writer) ftsOptimize(ctx context.Context) error {
	if _, err := w.tx.ExecContext(ctx, `INSERT INTO symbols_fts(symbols_fts) VALUES('optimize')`); err != nil {
		return fmt.Errorf("full-text optimize: %w", err)
	}
	return nil
}

// symbolRow is a symbol as stored, with its full-text columns.
type symbolRow struct {
	id, parent                        string
	sym                               *lang.Symbol
	signature, invariants, sideEffect string
	digest                            string
	fts                               [6]string // name, qualified, signature, doc, path, body
}

// rowScratch is what makeSymbolRow reuses across the symbols of one file:
// the words of each identifier (the symbols of a file share most of them)
// and the set of words already in a body. A parse worker keeps it from
// file to file, emptied: words kept across files made a larger map, whose
// lookups cost more than splitting the identifiers again.
type rowScratch struct {
	words  map[string][]identWord
	seen   map[string]bool
	digest []byte // the input of a row's digest
	// path and its full-text column
	path, pathText string
}

// maxScratchWords bounds the identifiers of a file whose map a scratch
// keeps for the next.
const maxScratchWords = 1 << 12

// reset empties the scratch for the next file.
func (sc *rowScratch) reset() {
	if len(sc.words) > maxScratchWords {
		sc.words = map[string][]identWord{}
		return
	}
	clear(sc.words)
}

// identWord is a word of an identifier and its lower case.
type identWord struct{ word, lower string }

func newRowScratch() *rowScratch {
	return &rowScratch{words: map[string][]identWord{}, seen: map[string]bool{}}
}

// identWords is id followed by its words, each with its lower case.
func (sc *rowScratch) identWords(id string) []identWord {
	if w, ok := sc.words[id]; ok {
		return w
	}
	parts := lang.SplitIdent(id)
	w := make([]identWord, 0, 1+len(parts))
	w = append(w, identWord{id, strings.ToLower(id)})
	for _, p := range parts {
		w = append(w, identWord{p, strings.ToLower(p)})
	}
	sc.words[id] = w
	return w
}

func makeSymbolRow(r *fileResult, i int, sc *rowScratch) symbolRow {
	s := &r.facts.Symbols[i]
	row := symbolRow{id: r.ids[i], sym: s}
	if s.Parent >= 0 && s.Parent < len(r.ids) {
		row.parent = r.ids[s.Parent]
	}
	row.signature = jsonOrEmpty(s.Signature, "{}")
	// a nil list encodes as null, the empty value: no encoder needed
	if s.Invariants != nil {
		row.invariants = jsonOrEmpty(s.Invariants, "null")
	}
	if s.SideEffects != nil {
		row.sideEffect = jsonOrEmpty(s.SideEffects, "null")
	}
	// the digest's input in one buffer, hashed at once
	b := sc.digest[:0]
	b = strconv.AppendInt(b, int64(s.Range.StartLine), 10)
	for _, n := range []int{s.Range.StartCol, s.Range.EndLine, s.Range.EndCol, boolInt(s.Exported), boolInt(s.IsTest)} {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	for _, v := range []string{row.id, row.parent, s.Kind, s.Name, s.Container, s.Visibility, row.signature, s.Doc,
		s.Summary, row.invariants, row.sideEffect, s.Fingerprint, s.Words} {
		b = append(append(b, 0), v...)
	}
	for _, v := range s.Idents {
		b = append(append(b, 0), v...)
	}
	sum := sha256.Sum256(b)
	sc.digest = b[:0]
	row.digest = hex.EncodeToString(sum[:12])
	n, q, sig, doc, p, body := ftsText(r.entry.Path, s, sc)
	row.fts = [6]string{n, q, sig, doc, p, body}
	return row
}

// jsonOrEmpty encodes v without HTML escaping ("a > b" stays readable),
// and returns "" for the empty value.
func jsonOrEmpty(v any, empty string) string {
	e := jsonEncoders.Get().(*jsonEncoder)
	defer jsonEncoders.Put(e)
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return ""
	}
	b := bytes.TrimSuffix(e.buf.Bytes(), []byte("\n"))
	if string(b) == empty {
		return ""
	}
	return string(b)
}

// jsonEncoder is an encoder and its buffer, kept for reuse: three values
// of every symbol are encoded.
type jsonEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var jsonEncoders = sync.Pool{New: func() any {
	e := &jsonEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// insertSymbol writes a symbol row and its full-text row and returns the
// symbol's rowid.
func (w *writer) insertSymbol(ctx context.Context, pid int64, p string, row symbolRow) (int64, error) {
	s := row.sym
	args := []any{row.id, pid, s.Kind, s.Name, s.Qualified(), s.Container, row.parent,
		s.Range.StartLine, s.Range.StartCol, s.Range.EndLine, s.Range.EndCol, boolInt(s.Exported), s.Visibility,
		row.signature, s.Doc, s.Summary, row.invariants, row.sideEffect, s.Fingerprint, boolInt(s.IsTest), row.digest, w.seq}
	var rowid int64
	if w.batches != nil {
		rowid = w.nextSym
		w.nextSym++
		// the batch checks that SQLite gave the rows the rowids predicted
		if err := w.batched("insSym", rowid, args...); err != nil {
			return 0, err
		}
	} else {
		res, err := w.exec(ctx, "insSym", args...)
		if err != nil {
			return 0, err
		}
		if rowid, err = res.LastInsertId(); err != nil {
			return 0, err
		}
	}
	w.symbolDelta++
	// full-text rows go one a statement: several, their rowids given,
	// would take a savepoint each (see statementSQL)
	f := &row.fts
	w.touchFTS(rowid)
	_, err := w.exec(ctx, "insFTS", rowid, f[0], f[1], f[2], f[3], f[4], f[5], s.Words)
	return rowid, err
}

// ftsText renders the full-text columns of a symbol. Identifiers appear
// whole and split into words, so that "getUserById" matches "user".
func ftsText(p string, s *lang.Symbol, sc *rowScratch) (name, qualified, sig, doc, pathText, body string) {
	name = withParts(s.Name)
	qualified = strings.ReplaceAll(s.Qualified(), ".", " ")
	sig = s.Signature.Text
	doc = s.Doc
	if s.Summary != "" && !strings.HasPrefix(s.Doc, strings.TrimSuffix(s.Summary, ".")) {
		doc = strings.TrimSpace(doc + " " + s.Summary)
	}
	if sc.path != p || sc.pathText == "" {
		// the same for every symbol of the file
		dir, file := path.Split(p)
		sc.path = p
		sc.pathText = strings.ReplaceAll(strings.Trim(dir, "/"), "/", " ") + " " + withParts(strings.TrimSuffix(file, path.Ext(file)))
	}
	pathText = sc.pathText
	var b strings.Builder
	seen := sc.seen
	clear(seen)
	for _, id := range s.Idents {
		for _, w := range sc.identWords(id) {
			if len(w.lower) < 2 || seen[w.lower] {
				continue
			}
			seen[w.lower] = true
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w.word)
		}
	}
	body = b.String()
	return
}

// withParts is an identifier followed by its words when it has several.
func withParts(id string) string {
	parts := lang.SplitIdent(id)
	if len(parts) <= 1 {
		return id
	}
	return id + " " + strings.Join(parts, " ")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
