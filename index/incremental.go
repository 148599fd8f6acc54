package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// oldFile is a file row of the current version.
type oldFile struct {
	pid     int64
	hash    string
	size    int64
	mtime   int64
	status  string
	reason  string
	lang    string
	module  string
	imports string
	build   string
	test    bool
}

// incrementalMmap maps the index file for the reads of an incremental run
// (address space, not memory): the pages of the file rows, the symbols and
// the edges it looks up are read where the OS keeps them, without a read
// call and a copy into the connection's cache each.
const incrementalMmap = "mmap_size(1073741824)"

// incremental records a new version in the existing index, parsing only
// the files whose content changed, in one transaction: parse (the changed
// files) -> resolve (theirs, and what the changes may move) ->
// finishVersion; or, when nothing changed, upToDate. It returns a
// *rebuildError when the index must be built again instead.
func (b *build) incremental(ctx context.Context) (err error) {
	sync := "synchronous(NORMAL)"
	if b.opts.NoSync {
		sync = "synchronous(OFF)"
	}
	db, err := schema.OpenWrite(b.opts.DB, "journal_mode(WAL)", sync, "cache_size(-65536)", incrementalMmap)
	if err != nil {
		return classifyWriteError(err, b.opts.DB)
	}
	defer db.Close()
	defer func() {
		var rb *rebuildError
		if err != nil && !errors.As(err, &rb) {
			err = classifyWriteError(err, b.opts.DB)
		}
	}()
	b.prevModel, b.prevDim = readEmbedMeta(ctx, db)
	// read before the options: a rebuild keeps the index's precise mode
	b.precisePrev = readPreciseState(ctx, db)
	if reason, err := b.optionsChanged(ctx, db); err != nil {
		return err
	} else if reason != "" {
		return &rebuildError{Decision{State: StateOptions, Reason: reason}}
	}

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	return b.incrementalTx(ctx, tx)
}

// previous is what an incremental run starts from: the last version.
type previous struct {
	seq         int64
	files       map[string]*oldFile
	counts      counts
	commit, ref string
}

// changeSet is what the parse stage of an incremental run found.
type changeSet struct {
	seen    map[string]bool // every path the walk listed
	changed []*fileResult   // files written anew (indexed or not)
	paths   []string        // their paths
	gone    []string        // files removed
	// names of symbols added, removed or changed, and the ids of the
	// removed ones: edges naming them may bind elsewhere
	names      map[string]bool
	removedIDs map[string]bool
	// names of the types among them: a function that returns one, or a
	// type with a field of one, may now type a qualifier differently
	types   map[string]bool
	stamped int // files whose stat stamp was brought up to date
}

func (b *build) incrementalTx(ctx context.Context, tx *sql.Tx) error {
	prev, err := b.loadPrevious(ctx, tx)
	if err != nil {
		return err
	}
	defer b.w.close()
	seq := prev.seq + 1
	b.sum.Seq = seq
	if b.only != nil {
		b.projectOfPaths(ctx, tx, prev.files)
	}
	fs := b.resolutionSet()
	for p, o := range prev.files {
		if indexedStatus(o.status) {
			fs.put(&fileEntry{path: p, lang: o.lang, module: o.module, rawImpts: o.imports, build: o.build, test: o.test})
		}
	}
	cs, err := b.parseChanged(ctx, tx, prev.files, fs)
	if err != nil {
		return err
	}
	if err := b.removeGone(ctx, prev.files, cs, fs); err != nil {
		return err
	}
	b.sum.Files = len(cs.seen)
	if b.only != nil {
		b.sum.Files = len(b.tree)
	}
	// A revision named by --rev gets its version even when its tree is
	// the same as the last one, so that the commit can be named later
	// (sdl risk --from origin/main) as long as it differs.
	newRev := b.opts.Rev != "" && (b.git.commit != prev.commit || b.git.ref != prev.ref)
	// precise mode: the packages of the changed Go files, those not
	// type-checked yet, and those that may depend on them are checked (or,
	// going back to the heuristics, resolved without the type checker)
	ownDirs, goDirs := b.preciseDirs(prev.files, cs.changed, cs.gone)
	treeSame := b.sum.FilesAdded+b.sum.FilesChanged+b.sum.FilesRemoved+b.sum.SkipsChanged == 0 && b.sum.SymbolsAdded+b.sum.SymbolsChgd+b.sum.SymbolsMoved+b.sum.SymbolsRmvd == 0 && !newRev
	// --full is the way out of an index whose rows went stale without a
	// change of its files (an edge of one file that depends on a file that
	// changed, like C#'s global usings; a build of sdl that extracts
	// otherwise under the same ExtractVersion): it resolves every file and
	// records the result as a new version, never "up to date"
	if b.opts.Full {
		treeSame = false
	}
	if treeSame && len(goDirs) == 0 {
		return b.upToDate(ctx, tx, prev, cs.stamped)
	}
	affected, err := b.resolveChanged(ctx, tx, prev.files, fs, cs, ownDirs, goDirs)
	if err != nil {
		return err
	}
	if treeSame && b.w.edgeWrites == 0 {
		// the type checker (or the heuristics, going back to them) bound
		// every edge as it was: the same version, and the state it leaves
		return b.upToDate(ctx, tx, prev, cs.stamped)
	}
	for id := range cs.removedIDs {
		affected[id] = true
	}
	b.decided(Decision{State: StateIncremental})
	return b.finishVersion(ctx, tx, version{seq: seq, prev: prev.counts, affected: affected, changes: b.changes,
		id: VersionID(seq) + b.opts.VersionSuffix})
}

// loadPrevious reads the last version and its files, opens the embedder
// and the writer of the new version (the caller closes it), and starts
// the new tree from the old one.
func (b *build) loadPrevious(ctx context.Context, tx *sql.Tx) (*previous, error) {
	prev := &previous{}
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(seq), 0) FROM versions").Scan(&prev.seq); err != nil {
		return nil, fmt.Errorf("read ledger: %w", err)
	}
	var err error
	if prev.files, err = loadFiles(ctx, tx); err != nil {
		return nil, err
	}
	if b.emb, err = b.openEmbedder(ctx, b.prevModel); err != nil {
		return nil, err
	}
	b.sum.Embedding = &b.emb.sum
	if err := b.emb.prepareVectors(ctx, tx, b.prevDim); err != nil {
		return nil, err
	}
	if b.emb.on() {
		if b.reembed, err = missingFiles(ctx, tx); err != nil {
			return nil, err
		}
	}
	if prev.seq > 0 {
		if err := tx.QueryRowContext(ctx, "SELECT files, symbols, edges, git_commit, git_ref FROM versions WHERE seq = ?", prev.seq).
			Scan(&prev.counts.files, &prev.counts.symbols, &prev.counts.edges, &prev.commit, &prev.ref); err != nil {
			return nil, fmt.Errorf("read ledger: %w", err)
		}
	}
	b.changes = newSymChanges()
	b.tree = map[string]fileState{}
	for p, o := range prev.files {
		b.tree[p] = fileState{o.status, o.hash, o.reason, o.lang}
	}
	// last: the caller closes it
	if b.w, err = newWriter(ctx, tx, prev.seq+1); err != nil {
		return nil, err
	}
	return prev, nil
}

// projectOfPaths reads the project files of a run over a few paths: the
// modules and packages come from the files the index already holds.
func (b *build) projectOfPaths(ctx context.Context, tx *sql.Tx, olds map[string]*oldFile) {
	var others []string
	var notGo []Entry // the entries, and the other files, but for Go's
	for _, e := range b.entries {
		if e.Lang == nil || e.Lang.Project == nil || e.Lang.Project.Key() != lang.ProjectGoModules {
			notGo = append(notGo, e)
		}
	}
	for p, o := range olds {
		if !b.only[p] {
			if l := lang.ByName(o.lang); l == nil || l.Project == nil || l.Project.Key() != lang.ProjectGoModules {
				notGo = append(notGo, Entry{Path: p, Lang: l})
			}
			others = append(others, p)
		}
	}
	assignLanguages(b.entries, others)
	b.project = readProjects(b.src, notGo, nil)
	// the go.mod files of the last run, and those above the files of
	// this one (a new module), without reading every directory again
	var mods lang.GoModules
	if old, err := schema.GetMeta(ctx, tx, schema.MetaGoModules); err == nil && old != "" {
		mods = parseGoModulesMeta(old)
	}
	mods = append(mods, readProjects(b.src, b.entries, nil).goModules()...)
	lang.SortGoModules(mods)
	mods = slices.Compact(mods)
	b.project[lang.ProjectGoModules] = mods
}

// parseChanged parses the files of the walk whose stat stamp or content
// changed, and writes their files and symbols as rows of the new version.
func (b *build) parseChanged(ctx context.Context, tx *sql.Tx, olds map[string]*oldFile, fs *fileSet) (*changeSet, error) {
	w := b.w
	seq := w.seq
	cs := &changeSet{seen: map[string]bool{}, names: map[string]bool{}, removedIDs: map[string]bool{}, types: map[string]bool{}}
	unchanged := func(e *Entry, hash string) bool {
		o := olds[e.Path]
		if b.opts.Full || o == nil || o.status != StatusOK && o.status != StatusParseError || b.reembed[e.Path] {
			return false
		}
		if hash == "" {
			return o.mtime != 0 && o.mtime == e.MTime && o.size == e.Size
		}
		return o.hash == hash
	}
	todo := b.toRead(olds, unchanged, cs)
	total, done := len(todo), 0
	err := parseAll(ctx, b.src, b.opts.Overlay, todo, b.opts.Workers, b.opts.Walk, unchanged, func(r *fileResult) error {
		done++
		if done%64 == 0 || done == total {
			b.progress("parse", done, total)
		}
		p := r.entry.Path
		cs.seen[p] = true
		o := olds[p]
		if r.unchanged {
			// read (or stat) but not parsed: a no-op run reports 0 parsed
			if o != nil && r.mtime != 0 && r.mtime != o.mtime {
				// same content, new stamp (a checkout, a touch): store
				// the stamp so the next run need not read the file
				if _, err := w.exec(ctx, "stampFile", r.mtime, o.pid); err != nil {
					return err
				}
				cs.stamped++
			}
			return nil
		}
		if o != nil && !b.opts.Full && o.hash == r.hash && o.status == r.status && r.indexed() && b.reembed[p] {
			// parsed again only for the vectors of its symbols
			b.sum.Parsed++
			if err := b.queueMissing(ctx, w, o.pid, r); err != nil {
				return err
			}
			return b.embedSome(ctx, tx)
		}
		b.count(r)
		if o != nil && o.status == r.status && o.hash == r.hash && o.reason == r.reason && !r.indexed() {
			return nil // still skipped for the same reason
		}
		b.tree[p] = fileState{r.status, r.hash, r.reason, r.langName()}
		pid, err := w.pathID(ctx, p)
		if err != nil {
			return err
		}
		same := o != nil && o.hash == r.hash && o.status == r.status && r.indexed()
		switch was := o != nil && indexedStatus(o.status); {
		case !was && r.indexed():
			b.sum.FilesAdded++
		case was && !r.indexed():
			b.sum.FilesRemoved++
		case was && !same:
			b.sum.FilesChanged++
		case !was && !r.indexed():
			b.sum.SkipsChanged++
		}
		if o != nil {
			if _, err := w.exec(ctx, "closeFile", seq, pid); err != nil {
				return err
			}
		}
		if err := w.writeFile(ctx, pid, r); err != nil {
			return err
		}
		if err := b.diffSymbols(ctx, w, pid, r, cs); err != nil {
			return err
		}
		if err := b.embedSome(ctx, tx); err != nil {
			return err
		}
		cs.paths = append(cs.paths, p)
		if r.indexed() {
			fs.put(&fileEntry{path: p, lang: r.entry.Lang.Name, module: r.facts.Module, imports: r.facts.Imports, loaded: true,
				build: r.facts.Build, test: r.facts.IsTest})
			if o != nil && o.build != r.facts.Build {
				// the build now compiles the file for other targets: calls
				// to its names may bind elsewhere
				for i := range r.facts.Symbols {
					cs.names[r.facts.Symbols[i].Name] = true
					if isTypeKind(r.facts.Symbols[i].Kind) {
						cs.types[r.facts.Symbols[i].Name] = true
					}
				}
			}
		} else {
			fs.remove(p)
		}
		cs.changed = append(cs.changed, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cs, nil
}

// toRead lists the entries of the walk an incremental run must read, and
// marks the others seen. A file whose stat stamp proves it unchanged, or
// that is still skipped for the same reason, needs no worker and writes
// nothing: most of the tree, when one file changed.
func (b *build) toRead(olds map[string]*oldFile, unchanged func(*Entry, string) bool, cs *changeSet) []Entry {
	todo := make([]Entry, 0, len(b.entries)/8)
	for i := range b.entries {
		e := &b.entries[i]
		if e.Skip != "" {
			// skipped by the walk: no read, no parse
			r := parseOne(nil, b.src, nil, e, b.opts.Walk, nil)
			if o := olds[e.Path]; o != nil && o.status == r.status && o.hash == r.hash && o.reason == r.reason {
				cs.seen[e.Path] = true
				b.count(r)
				continue
			}
		} else if _, over := b.opts.Overlay[e.Path]; !over {
			if unchanged(e, "") {
				cs.seen[e.Path] = true
				continue
			}
			if o := olds[e.Path]; o != nil && o.status == StatusSkipped && !b.opts.Full &&
				o.mtime != 0 && o.mtime == e.MTime && o.size == e.Size {
				// skipped for its content (generated, minified, binary),
				// which its stamp says is the same: no read, no hash
				cs.seen[e.Path] = true
				b.count(&fileResult{status: o.status})
				continue
			}
		}
		todo = append(todo, *e)
	}
	return todo
}

// removeGone closes the rows of the files the walk no longer found (of
// the paths looked at, in a run limited to paths).
func (b *build) removeGone(ctx context.Context, olds map[string]*oldFile, cs *changeSet, fs *fileSet) error {
	w := b.w
	for p := range olds {
		if !cs.seen[p] && (b.only == nil || b.only[p]) {
			cs.gone = append(cs.gone, p)
		}
	}
	sort.Strings(cs.gone)
	for _, p := range cs.gone {
		o := olds[p]
		delete(b.tree, p)
		if indexedStatus(o.status) {
			b.sum.FilesRemoved++
		} else {
			b.sum.SkipsChanged++
		}
		if _, err := w.exec(ctx, "closeFile", w.seq, o.pid); err != nil {
			return err
		}
		if err := b.diffSymbols(ctx, w, o.pid, &fileResult{entry: Entry{Path: p}}, cs); err != nil {
			return err
		}
		if _, err := w.closeEdgesOf(ctx, o.pid, nil); err != nil {
			return err
		}
		fs.remove(p)
	}
	return nil
}

// resolveChanged binds the references of the changed files, then those of
// unchanged files the changes may move, and, in precise mode, the Go
// packages that depend on them. It returns the symbols whose edges
// changed.
func (b *build) resolveChanged(ctx context.Context, tx *sql.Tx, olds map[string]*oldFile, fs *fileSet, cs *changeSet,
	ownDirs, goDirs map[string]bool) (map[string]bool, error) {
	w := b.w
	b.progress("resolve", 0, len(cs.changed))
	tab, err := newSQLTable(ctx, tx, fs)
	if err != nil {
		return nil, err
	}
	defer tab.close()
	affected := map[string]bool{}
	var gp *goPrecise
	if len(ownDirs) > 0 {
		if gp, goDirs, err = b.preciseIncremental(ctx, olds, ownDirs, cs.gone, goDirs); err != nil {
			return nil, err
		}
	}
	sc := &edgeScratch{}
	for _, r := range cs.changed {
		pid := w.paths[r.entry.Path]
		var edges []edgeRow
		if r.indexed() {
			before := len(r.faults)
			edges = fileEdges(r, tab, gp.file(r.entry.Path), sc)
			if len(r.faults) > before {
				if err := w.setFaults(ctx, pid, r.faults); err != nil {
					return nil, err
				}
			}
		}
		if err := w.diffEdges(ctx, pid, edges, affected); err != nil {
			return nil, err
		}
	}
	if tab.err != nil {
		return nil, tab.err
	}
	changedSet := map[string]bool{}
	for _, p := range cs.paths {
		changedSet[p] = true
	}
	if err := b.reresolve(ctx, tx, w, tab, cs, changedSet, len(cs.gone) > 0 || b.sum.FilesAdded > 0, affected); err != nil {
		return nil, err
	}
	if len(goDirs) > 0 {
		if err := b.preciseUnchanged(ctx, w, tab, gp, goEntries(olds, b.tree, goDirs), changedSet, affected); err != nil {
			return nil, err
		}
	}
	return affected, nil
}

// upToDate ends a run that found nothing changed: no new version, but
// memory files, feedback, vectors, stamps and the precise state may have
// (added, dropped or recomputed), and are synced in this small
// transaction.
func (b *build) upToDate(ctx context.Context, tx *sql.Tx, prev *previous, stamped int) error {
	b.decided(Decision{State: StateUpToDate})
	b.sum.Seq = prev.seq
	meta, wrote, err := b.sidecars(ctx, tx, nil, VersionID(prev.seq))
	if err != nil {
		return err
	}
	if err := b.fillTotals(ctx, tx, prev.seq, prev.counts); err != nil {
		return err
	}
	precise := b.preciseMeta != "" || b.preciseReset
	if !wrote && !b.emb.changed && stamped == 0 && !precise {
		return nil
	}
	for _, kv := range meta {
		if err := schema.SetMeta(ctx, tx, kv[0], kv[1]); err != nil {
			return fmt.Errorf("write meta: %w", err)
		}
	}
	if err := b.w.writeLengths(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// loadFiles reads the current file rows.
func loadFiles(ctx context.Context, tx querier) (map[string]*oldFile, error) {
	rows, err := tx.QueryContext(ctx, `SELECT p.path, f.path_id, f.hash, f.size, f.mtime, f.status, f.reason, f.language, f.module, f.imports, f.build, f.is_test
		FROM files f JOIN paths p ON p.id = f.path_id WHERE f.to_seq IS NULL`)
	if err != nil {
		return nil, fmt.Errorf("read files: %w", err)
	}
	defer rows.Close()
	out := map[string]*oldFile{}
	for rows.Next() {
		var p string
		o := &oldFile{}
		if err := rows.Scan(&p, &o.pid, &o.hash, &o.size, &o.mtime, &o.status, &o.reason, &o.lang, &o.module, &o.imports, &o.build, &o.test); err != nil {
			return nil, err
		}
		out[p] = o
	}
	return out, rows.Err()
}

// diffSymbols brings the symbols of file pid to what r holds: unchanged
// rows stay, changed ones are closed and written anew, missing ones are
// closed. It adds the names of everything that changed to cs.names (and
// of the types to cs.types), the ids of removed symbols to cs.removedIDs.
func (b *build) diffSymbols(ctx context.Context, w *writer, pid int64, r *fileResult, cs *changeSet) error {
	names, removedIDs := cs.names, cs.removedIDs
	olds, err := w.oldSymbols(ctx, pid)
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	// a symbol whose name is one of a kind in its file, before and after,
	// and that resolution sees as before, binds every reference to it as
	// before: a change of its range or its body alone (a branch that
	// inserts lines above it) re-resolves no edge elsewhere. Same-named
	// symbols of a file are ordered by line for resolution, so a change to
	// one of them does.
	perName := map[string]int{}
	// the same count among the types alone: a qualifier's type is looked
	// up among types, so a type is one of a kind there though a method or
	// a field of the file has its name (type Conn and DB.Conn)
	perType := map[string]int{}
	for _, o := range olds {
		perName[o.name]++
		if isTypeKind(o.fp.kind) {
			perType[o.name]++
		}
	}
	if r.indexed() {
		for i := range r.facts.Symbols {
			perName[r.facts.Symbols[i].Name] += 1 << 16
			if isTypeKind(r.facts.Symbols[i].Kind) {
				perType[r.facts.Symbols[i].Name] += 1 << 16
			}
		}
	}
	if r.indexed() {
		for i := range r.facts.Symbols {
			row := r.rows[i]
			keep[row.id] = true
			o, ok := olds[row.id]
			if ok && o.digest == row.digest {
				if !o.hasVector {
					b.emb.queue(o.rowid, r.entry.Path, row.sym)
				}
				continue
			}
			if ok {
				if err := w.closeSymbol(ctx, o.rowid); err != nil {
					return err
				}
				// a moved range is not a change to the code; a new
				// fingerprint is
				if o.fp.fp != row.sym.Fingerprint {
					b.changes.changed[row.id] = true
				}
				if o.moved(&row) {
					b.sum.SymbolsMoved++
				} else {
					b.sum.SymbolsChgd++
				}
			} else {
				b.sum.SymbolsAdded++
				b.changes.added[row.id] = fpKey{row.sym.Kind, row.sym.Fingerprint}
			}
			same := ok && o.sameTarget(&row)
			if same && perName[row.sym.Name] == 1<<16+1 {
				// one of a kind, seen as before: no edge elsewhere moves
			} else {
				names[row.sym.Name] = true
			}
			if (isTypeKind(row.sym.Kind) || ok && isTypeKind(o.fp.kind)) && !(same && perType[row.sym.Name] == 1<<16+1) {
				cs.types[row.sym.Name] = true
			}
			if row.sym.Kind == lang.KindModule {
				// a JavaScript module's Fields are its export table:
				// references through a changed barrel may bind elsewhere
				for _, f := range row.sym.Signature.Fields {
					names[f.Name] = true
				}
			}
			rowid, err := w.insertSymbol(ctx, pid, r.entry.Path, row)
			if err != nil {
				return err
			}
			b.emb.queue(rowid, r.entry.Path, row.sym)
		}
	}
	var gone []string
	for id := range olds {
		if !keep[id] {
			gone = append(gone, id)
		}
	}
	sort.Strings(gone)
	for _, id := range gone {
		b.sum.SymbolsRmvd++
		removedIDs[id] = true
		b.changes.removed[id] = olds[id].fp
		if err := w.closeSymbol(ctx, olds[id].rowid); err != nil {
			return err
		}
	}
	if len(gone) > 0 {
		// the names of removed symbols: edges that bound to them must move
		q := `SELECT name, kind FROM symbols WHERE rowid IN (` + schema.Placeholders(len(gone)) + `)`
		args := make([]any, len(gone))
		for i, id := range gone {
			args[i] = olds[id].rowid
		}
		rows, err := w.tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var n, kind string
			if err := rows.Scan(&n, &kind); err != nil {
				rows.Close()
				return err
			}
			names[n] = true
			if isTypeKind(kind) {
				cs.types[n] = true
			}
		}
		rows.Close()
	}
	return nil
}

// oldSym is a current symbol row of a file.
type oldSym struct {
	rowid     int64
	digest    string
	fp        fpKey
	hasVector bool // embedded (or tried) with the index's model
	// what resolution sees of it (lang.Target), but for the id
	name, container, signature string
	exported                   bool
	startLine, endLine         int
}

// sameTarget says whether resolution sees the symbol of row as it saw o:
// the same name, container, exportedness and signature (the id, which
// holds the path, the kind and the qualified name, is the same).
func (o *oldSym) sameTarget(row *symbolRow) bool {
	s := row.sym
	return o.name == s.Name && o.container == s.Container && o.exported == s.Exported && o.signature == row.signature
}

// moved says whether row is o with its lines moved and nothing else
// changed that a user reads (its code, signature, name): an edit above it.
func (o *oldSym) moved(row *symbolRow) bool {
	r := row.sym.Range
	return o.fp.fp == row.sym.Fingerprint && o.sameTarget(row) && (o.startLine != r.StartLine || o.endLine != r.EndLine)
}

// oldSymbols reads the current symbol rows of file pid, by id.
func (w *writer) oldSymbols(ctx context.Context, pid int64) (map[string]oldSym, error) {
	olds := map[string]oldSym{}
	rows, err := w.stmts["oldSyms"].QueryContext(ctx, pid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var o oldSym
		var id string
		if err := rows.Scan(&o.rowid, &id, &o.digest, &o.fp.fp, &o.fp.kind, &o.hasVector, &o.name, &o.container, &o.exported, &o.signature, &o.startLine, &o.endLine); err != nil {
			return nil, err
		}
		olds[id] = o
	}
	return olds, rows.Err()
}

// queueMissing queues the symbols of an unchanged file that have no
// vector.
func (b *build) queueMissing(ctx context.Context, w *writer, pid int64, r *fileResult) error {
	olds, err := w.oldSymbols(ctx, pid)
	if err != nil {
		return err
	}
	for i := range r.facts.Symbols {
		row := r.rows[i]
		if o, ok := olds[row.id]; ok && o.digest == row.digest && !o.hasVector {
			b.emb.queue(o.rowid, r.entry.Path, row.sym)
		}
	}
	return nil
}

func (w *writer) closeSymbol(ctx context.Context, rowid int64) error {
	if _, err := w.exec(ctx, "closeSym", w.seq, rowid); err != nil {
		return err
	}
	w.closedSyms = append(w.closedSyms, rowid)
	w.symbolDelta--
	w.touchFTS(rowid)
	_, err := w.exec(ctx, "delFTS", rowid)
	return err
}

// diffEdges brings the edges of file pid to edges, recording the symbols
// whose edges changed in affected.
func (w *writer) diffEdges(ctx context.Context, pid int64, edges []edgeRow, affected map[string]bool) error {
	want := map[string]bool{}
	for _, e := range edges {
		want[e.digest] = true
	}
	have, err := w.closeEdgesOf(ctx, pid, want)
	if err != nil {
		return err
	}
	for i := range edges {
		e := &edges[i]
		if have[e.digest] {
			continue
		}
		affected[e.src] = true
		if e.dst != "" {
			affected[e.dst] = true
		}
		if err := w.insertEdge(ctx, pid, e); err != nil {
			return err
		}
	}
	return nil
}

// closeEdgesOf closes the current edges of file pid whose digest is not in
// keep and returns the digests of those that stay.
func (w *writer) closeEdgesOf(ctx context.Context, pid int64, keep map[string]bool) (map[string]bool, error) {
	rows, err := w.stmts["oldEdges"].QueryContext(ctx, pid)
	if err != nil {
		return nil, err
	}
	type old struct {
		rowid  int64
		digest string
	}
	var olds []old
	for rows.Next() {
		var o old
		if err := rows.Scan(&o.rowid, &o.digest); err != nil {
			rows.Close()
			return nil, err
		}
		olds = append(olds, o)
	}
	rows.Close()
	have := map[string]bool{}
	for _, o := range olds {
		if keep[o.digest] {
			have[o.digest] = true
			continue
		}
		if _, err := w.exec(ctx, "closeEdge", w.seq, o.rowid); err != nil {
			return nil, err
		}
		w.edgeDelta--
		w.edgeWrites++
	}
	return have, nil
}

// reresolve binds again the edges of unchanged files that may now resolve
// differently: those naming a symbol that was added, removed or changed,
// those bound to a removed symbol, and, when files came or went, imports.
func (b *build) reresolve(ctx context.Context, tx querier, w *writer, tab *sqlTable, cs *changeSet, changedPaths map[string]bool,
	filesChanged bool, affected map[string]bool) error {
	names, removedIDs := cs.names, cs.removedIDs
	var conds []string
	var args []any
	if len(names) > 0 {
		conds = append(conds, "e.name IN ("+schema.Placeholders(len(names))+")")
		for _, n := range sortedKeys(names) {
			args = append(args, n)
		}
	}
	if len(removedIDs) > 0 {
		conds = append(conds, "e.dst IN ("+schema.Placeholders(len(removedIDs))+")")
		for _, id := range sortedKeys(removedIDs) {
			args = append(args, id)
		}
	}
	if filesChanged {
		conds = append(conds, "e.kind = 'import'")
	}
	// an edge whose qualifier takes its type from a changed symbol (x :=
	// NewT(); x.M(), or x typed T) may bind elsewhere though M did not
	// change: it is picked by the names in its qual_call and qual_type
	typed, err := typedBy(ctx, tx, cs.types)
	if err != nil {
		return err
	}
	qnames := maps.Clone(names)
	maps.Copy(qnames, typed)
	qualified, err := qualifiedBy(ctx, tx, qnames)
	if err != nil {
		return err
	}
	if len(qualified) > 0 {
		conds = append(conds, "e.rowid IN (SELECT value FROM json_each(?))")
		args = append(args, qualified)
	}
	if len(conds) == 0 {
		return nil
	}
	q := `SELECT e.rowid, e.src, COALESCE(e.dst, ''), e.kind, e.name, e.qual, e.qual_type, e.qual_call, e.confidence, e.rule,
		e.candidates, e.count, e.line, e.path_id, e.digest, p.path
		FROM edges e JOIN paths p ON p.id = e.path_id WHERE e.to_seq IS NULL AND (` + strings.Join(conds, " OR ") + `)
		ORDER BY e.rowid`
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("find edges to re-resolve: %w", err)
	}
	type cand struct {
		rowid int64
		e     edgeRow
		pid   int64
		path  string
	}
	var cands []cand
	for rows.Next() {
		var c cand
		if err := rows.Scan(&c.rowid, &c.e.src, &c.e.dst, &c.e.kind, &c.e.name, &c.e.qual, &c.e.qualType, &c.e.qualCall,
			&c.e.confidence, &c.e.rule, &c.e.candidates, &c.e.count, &c.e.line, &c.pid, &c.e.digest, &c.path); err != nil {
			rows.Close()
			return err
		}
		// a precise edge stays unless its target went away
		if lang.IsPrecise(c.e.rule) && (c.e.dst == "" || !removedIDs[c.e.dst]) {
			continue
		}
		if !changedPaths[c.path] {
			cands = append(cands, c)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	from := map[string]*lang.Target{}
	// each file's references resolve under a guard of their own, as in a
	// full build; their faults are added to the file's current row
	guards := map[string]*lang.Guard{}
	gpid := map[string]int64{}
	for _, c := range cands {
		fi := tab.File(c.path)
		l := lang.ForPath(c.path)
		if fi == nil || l == nil {
			continue
		}
		g := guards[c.path]
		if g == nil {
			g = lang.NewGuard(tab)
			guards[c.path], gpid[c.path] = g, c.pid
		}
		lctx := &lang.Context{File: fi, Table: g}
		var res lang.Resolution
		if c.e.kind == KindImport {
			var imp *lang.Import
			for i := range fi.Imports {
				if fi.Imports[i].Source == c.e.qual {
					imp = &fi.Imports[i]
					break
				}
			}
			if imp == nil {
				continue
			}
			res = g.ResolveImport(l, lctx, imp, c.e.name)
		} else {
			t, ok := from[c.e.src]
			if !ok {
				t = tab.byID(ctx, c.e.src)
				from[c.e.src] = t
			}
			if t == nil {
				continue
			}
			lctx.From = t
			// the line picks the import a function makes above it (Python's
			// from .markup import render inside the caller)
			ref := lang.Ref{Kind: c.e.kind, Name: c.e.name, Qualifier: c.e.qual, QualifierType: c.e.qualType, QualifierCall: c.e.qualCall,
				Line: c.e.line}
			res = g.Resolve(l, lctx, &ref)
		}
		ne := makeEdge(c.e.src, c.e.kind, c.e.name, c.e.qual, c.e.qualType, c.e.qualCall, c.e.line, res)
		ne.count = c.e.count
		ne.setDigest()
		if ne.digest == c.e.digest {
			continue
		}
		if _, err := w.exec(ctx, "closeEdge", w.seq, c.rowid); err != nil {
			return err
		}
		w.edgeDelta--
		w.edgeWrites++
		if !recorded(c.e.kind, res) {
			continue
		}
		if err := w.insertEdge(ctx, c.pid, &ne); err != nil {
			return err
		}
		affected[ne.src] = true
		for _, id := range []string{ne.dst, c.e.dst} {
			if id != "" {
				affected[id] = true
			}
		}
	}
	for _, p := range sortedKeys(boolKeys(guards)) {
		if fs := guards[p].Faults(); len(fs) > 0 {
			if err := w.addFaults(ctx, gpid[p], fs); err != nil {
				return err
			}
		}
	}
	return tab.err
}

// maxTypeHops bounds how far typedBy follows the symbols whose result or
// field types name a changed symbol (NewStore returns *Store, Server has
// a field of type *Conn): the qualifier of an edge may reach a type
// through as many of them as there are calls and fields in a chain.
const maxTypeHops = 2

// typedBy returns the names of types and those of the current symbols
// whose return type or field types name one of them, following such
// symbols up to maxTypeHops times: an edge qualified by a call of NewStore
// binds through Store, though NewStore did not change.
func typedBy(ctx context.Context, tx querier, names map[string]bool) (map[string]bool, error) {
	if len(names) == 0 {
		return names, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT name, COALESCE(json_extract(signature, '$.returns'), '') || ' ' ||
		COALESCE((SELECT group_concat(json_extract(f.value, '$.type'), ' ') FROM json_each(signature, '$.fields') f), '')
		FROM symbols WHERE to_seq IS NULL AND (signature LIKE '%"returns"%' OR signature LIKE '%"fields"%')`)
	if err != nil {
		return nil, fmt.Errorf("find symbols typed by changed ones: %w", err)
	}
	type typed struct{ name, types string }
	var syms []typed
	for rows.Next() {
		var t typed
		if err := rows.Scan(&t.name, &t.types); err != nil {
			rows.Close()
			return nil, err
		}
		if strings.TrimSpace(t.types) != "" {
			syms = append(syms, t)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := maps.Clone(names)
	for hop := 0; hop < maxTypeHops; hop++ {
		var next []string
		for _, t := range syms {
			if !out[t.name] && namesAny(t.types, out) {
				next = append(next, t.name)
			}
		}
		if len(next) == 0 {
			break
		}
		for _, n := range next {
			out[n] = true
		}
	}
	return out, nil
}

// qualifiedBy returns, as a JSON array of rowids, the current edges whose
// qual_call or qual_type holds one of names as an identifier.
func qualifiedBy(ctx context.Context, tx querier, names map[string]bool) (string, error) {
	if len(names) == 0 {
		return "", nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT rowid, qual_call, qual_type FROM edges
		WHERE to_seq IS NULL AND (qual_call != '' OR qual_type != '')`)
	if err != nil {
		return "", fmt.Errorf("find edges by qualifier: %w", err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var rowid int64
		var call, typ string
		if err := rows.Scan(&rowid, &call, &typ); err != nil {
			return "", err
		}
		if namesAny(call, names) || namesAny(typ, names) {
			if b.Len() == 0 {
				b.WriteByte('[')
			} else {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatInt(rowid, 10))
		}
	}
	if b.Len() > 0 {
		b.WriteByte(']')
	}
	return b.String(), rows.Err()
}

// namesAny says whether an identifier of the expression s (store.NewStore,
// *Store, Map[K, V]) is one of names.
func namesAny(s string, names map[string]bool) bool {
	for s != "" {
		i := strings.IndexFunc(s, isIdentRune)
		if i < 0 {
			return false
		}
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return !isIdentRune(r) })
		if j < 0 {
			j = len(s)
		}
		if names[s[:j]] {
			return true
		}
		s = s[j:]
	}
	return false
}

func isIdentRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isTypeKind says whether symbols of kind k type values: a qualifier's
// type is one of them.
func isTypeKind(k string) bool {
	return k == lang.KindClass || k == lang.KindInterface || k == lang.KindType
}

func boolKeys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// querier is what the steps of a run need of a transaction.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}
