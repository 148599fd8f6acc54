package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"modernc.org/sqlite"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// ExtractVersion changes whenever extraction or resolution changes what
// they produce, so that an index written by an older sdl is rebuilt.
const ExtractVersion = "18"

var (
	// ErrNoDir means the directory to index does not exist.
	ErrNoDir = errors.New("no such directory")
	// ErrReadOnly means the index cannot be written where it should go.
	ErrReadOnly = errors.New("cannot write the index")
	// ErrDiskFull means a write failed for want of space (a full disk or
	// a file size limit); the previous index is intact.
	ErrDiskFull = errors.New("no space to write the index (disk full or file size limit)")
)

// Options configure an index run.
type Options struct {
	Root    string // the repository to index
	DB      string // the index file; default Root/.sdl/index.db
	Workers int    // parse workers; default GOMAXPROCS
	// Full re-parses and re-resolves every file instead of only the changed
	// ones. The result is recorded as a new version of the existing file,
	// even when no file changed.
	Full bool
	Walk WalkOptions
	// Now is the time recorded in the ledger; zero means the current time.
	// Commands set it from SOURCE_DATE_EPOCH for reproducible files.
	Now time.Time
	// NoGit skips reading git metadata (commit, dirty state, churn).
	NoGit bool
	// Rev, when set, indexes the tree of this git revision (a commit, a
	// branch, a tag, HEAD~2...) read from the object database of the
	// repository at Root instead of the working tree, and records the
	// version with that commit and Rev as its ref. Root may be a bare
	// repository then.
	Rev string
	// Progress, if set, is called as work advances, from one goroutine.
	Progress func(Progress)
	// SDLVersion is recorded in the file's meta table.
	SDLVersion string
	// Trace, if set, receives the duration of each phase.
	Trace io.Writer
	// Embedder computes symbol vectors. When nil, Embedding chooses the
	// provider; its Provider "" keeps the index's model, or uses
	// embed.DefaultProvider for an index that has none. An empty Embedding
	// is read from the root's .sdl/config.yaml and the environment.
	Embedder  embed.Provider
	Embedding embed.Config
	// Paths, when set, limits an incremental run to these repository
	// paths: the rest of the tree is taken as unchanged, without a walk.
	// A path that no longer exists is removed. Runs that must rebuild
	// still walk the whole tree.
	Paths []string
	// MemoryBudget bounds the parse results a full build keeps in memory
	// until resolution; beyond it they are spilled to a temporary file
	// next to the index. 0 means DefaultMemoryBudget.
	MemoryBudget int64
	// NoStamps stores no stat stamps (modification times), so that the
	// file depends on the tree's content alone (reproducible builds); every
	// run then reads every file.
	NoStamps bool
	// NoSync skips fsync: for scratch copies, which a crash may lose.
	NoSync bool
	// VersionSuffix is appended to the id of the version a run records:
	// a scratch copy indexing drafts marks its versions ("v2-draft") so
	// they are not taken for versions of the shared file.
	VersionSuffix string
	// Overlay holds file contents that replace what is on disk (unsaved
	// editor buffers); a path not on disk is added.
	Overlay map[string][]byte
	// GoPrecise selects Go precise mode, which resolves the references of Go
	// modules with go/types: PreciseOn type-checks (and upgrades an index
	// of heuristic edges in place, as a new version), PreciseOff never does
	// (and resolves precise edges again with the heuristics), PreciseAuto
	// (the default) keeps what the index holds: precise when an earlier
	// run chose PreciseOn, else the heuristics. A revision (Rev) is never
	// type-checked.
	GoPrecise string
	// SCIP lists SCIP index files whose definitions and references are
	// imported after resolution (see scip.go).
	SCIP []string
	// GoTarget is the target Go build constraints are evaluated for; nil
	// means LoadGoTarget's (.sdl/config.yaml and the environment).
	GoTarget *lang.GoTarget
}

// Progress reports how far a run has come.
type Progress struct {
	Phase string // walk, parse, resolve, derive, write
	Done  int
	Total int
}

// Summary describes what a run did.
type Summary struct {
	DB            string `json:"db"`
	Version       string `json:"version"`
	Seq           int64  `json:"seq"`
	NewVersion    bool   `json:"newVersion"`
	Rebuilt       bool   `json:"rebuilt"`
	RebuildReason string `json:"rebuildReason,omitempty"`
	// State is what the run decided (see IndexState).
	State       IndexState `json:"state"`
	Files       int        `json:"files"`
	Parsed      int        `json:"parsed"`
	Skipped     int        `json:"skipped"`
	ParseErrors int        `json:"parseErrors"`
	Unreadable  int        `json:"unreadable"`
	// FilesAdded, FilesChanged and FilesRemoved count source files, the
	// ones with symbols: a file that became skipped is removed, one that
	// stopped being skipped added.
	FilesAdded   int `json:"filesAdded"`
	FilesChanged int `json:"filesChanged"`
	FilesRemoved int `json:"filesRemoved"`
	// SkipsChanged counts the records of skipped paths that appeared, went
	// or changed reason (the hidden directory sdl init writes): they make a
	// new version, but they are not files of the source.
	SkipsChanged int   `json:"skipsChanged"`
	Symbols      int64 `json:"symbols"`
	Edges        int64 `json:"edges"`
	SymbolsAdded int   `json:"symbolsAdded"`
	SymbolsChgd  int   `json:"symbolsChanged"`
	// SymbolsMoved counts symbols whose code is the same but whose lines
	// moved (an edit above them): not a change a user acts on, so apart.
	SymbolsMoved int            `json:"symbolsMoved"`
	SymbolsRmvd  int            `json:"symbolsRemoved"`
	Versions     int64          `json:"versions"`
	Seconds      float64        `json:"seconds"`
	Bytes        int64          `json:"bytes"`
	Languages    map[string]int `json:"languages"`
	GitCommit    string         `json:"gitCommit,omitempty"`
	// PreciseGo counts the Go packages type-checked by precise mode and
	// PreciseGoFailed those with type errors (their files fall back).
	PreciseGo       int `json:"preciseGoPackages,omitempty"`
	PreciseGoFailed int `json:"preciseGoFailed,omitempty"`
	// VersionsDropped counts the versions of the file a rebuild replaced.
	VersionsDropped int64 `json:"versionsDropped,omitempty"`
	// GoPrecise is "types" when this run type-checked Go packages.
	GoPrecise string `json:"goPrecise,omitempty"`
	// GoHeuristic is set when the index's Go edges come from the
	// heuristics alone and a go toolchain could type-check them
	// (PreciseOn): what a terminal suggests.
	GoHeuristic bool `json:"goHeuristic,omitempty"`
	// SCIP counts what SCIP import did.
	SCIP      *SCIPSummary  `json:"scip,omitempty"`
	Embedding *EmbedSummary `json:"embedding,omitempty"`
	GitRef    string        `json:"gitRef,omitempty"`
	// Memories says what the run did with .sdl-memory and feedback.
	Memories *MemorySummary `json:"memories,omitempty"`
	// Faults counts the current files with a stage that failed (a panic,
	// the depth limit, a spent work budget): sdl info lists them.
	Faults int `json:"faults"`
}

// DefaultDB is the index path for a repository root.
func DefaultDB(root string) string { return filepath.Join(root, ".sdl", "index.db") }

// walk lists the whole tree.
func (b *build) walk(ctx context.Context) error {
	b.progress("walk", 0, 0)
	entries, seen, err := walkTree(ctx, b.root, b.src, b.opts.Walk)
	if err != nil {
		return err
	}
	b.entries = b.overlaid(entries)
	assignLanguages(b.entries, nil)
	b.project = readProjects(b.src, b.entries, seen.has)
	return nil
}

// overlaid adds the overlay's files that the walk did not find, so an
// unsaved new file is indexed; overlay files the walk found read their
// content from the overlay when parsed.
func (b *build) overlaid(entries []Entry) []Entry {
	if b.opts.NoStamps {
		for i := range entries {
			entries[i].MTime = 0
		}
	}
	if len(b.opts.Overlay) == 0 {
		return entries
	}
	have := map[string]int{}
	for i, e := range entries {
		have[e.Path] = i
	}
	added := false
	for p, data := range b.opts.Overlay {
		p, _ = cleanRel(p)
		if i, ok := have[p]; ok {
			if entries[i].Skip == "" || entries[i].Skip == SkipTooLarge || entries[i].Skip == SkipUnreadable {
				entries[i].Size = int64(len(data))
				entries[i].Skip, entries[i].Err = "", nil
				if entries[i].Size > b.opts.Walk.MaxFileSize {
					entries[i].Skip = SkipTooLarge
				}
			}
			continue
		}
		l := lang.ForPath(p)
		if l == nil {
			continue
		}
		e := Entry{Path: p, Lang: l, Size: int64(len(data))}
		if e.Size > b.opts.Walk.MaxFileSize {
			e.Skip = SkipTooLarge
		}
		entries = append(entries, e)
		added = true
	}
	if added {
		sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	}
	return entries
}

// assignLanguages gives each entry the language its repository decides
// (lang.Repo: a .h header among C++ sources is C++). others are the paths
// of the repository's other files, when entries are not all of them.
func assignLanguages(entries []Entry, others []string) {
	paths := others
	for _, e := range entries {
		if e.Lang != nil {
			paths = append(paths, e.Path)
		}
	}
	repo := lang.NewRepo(paths)
	for i := range entries {
		if entries[i].Lang != nil {
			entries[i].Lang = repo.ForPath(entries[i].Path)
		}
	}
}

// fileState is what the ledger's tree hash covers of a file (status, hash
// and reason), and the language it was parsed as, for the summary.
type fileState struct{ status, hash, reason, lang string }

type build struct {
	opts    Options
	tree    map[string]fileState // the new version's files
	w       *writer
	root    string
	src     fileTree // the working tree or a git revision
	entries []Entry
	// project is what the project files say (Go modules, JavaScript
	// packages, PHP autoload maps)
	project projects
	// preciseMeta is the Go precise state this run leaves (MetaGoPrecise)
	preciseMeta string
	// only, when set, is the set of paths an incremental run looks at.
	only map[string]bool
	git  gitInfo
	sum  *Summary
	// embedding: this run's state, and the index's model before it
	emb       *embedder
	prevModel string
	prevDim   int
	reembed   map[string]bool // files parsed again only to embed their symbols
	// changes are the symbol changes of an incremental run, for memories
	changes *symChanges

	phase      string
	phaseStart time.Time

	// preciseMeta is written when not empty or when preciseReset (going
	// back to the heuristics) is set; precisePrev is the state the last
	// run left, or nil
	preciseReset bool
	precisePrev  *preciseState
}

func (b *build) progress(phase string, done, total int) {
	if b.opts.Trace != nil && phase != b.phase {
		now := time.Now()
		if b.phase != "" {
			fmt.Fprintf(b.opts.Trace, "%-8s %6.2fs\n", b.phase, now.Sub(b.phaseStart).Seconds())
		}
		b.phase, b.phaseStart = phase, now
	}
	if b.opts.Progress != nil {
		b.opts.Progress(Progress{Phase: phase, Done: done, Total: total})
	}
}

// tracef writes a line to the trace (sdl index --trace), if any.
func (b *build) tracef(format string, args ...any) {
	if b.opts.Trace != nil {
		fmt.Fprintf(b.opts.Trace, format+"\n", args...)
	}
}

// optionsHash covers everything that changes what the index holds for the
// same tree.
func (b *build) options() (string, string) {
	var langs []string
	for _, l := range lang.All() {
		langs = append(langs, l.Name)
	}
	var skip []string
	for d, r := range b.opts.Walk.SkipDirs {
		skip = append(skip, d+"="+r)
	}
	sort.Strings(skip)
	o := map[string]any{
		"extract":     ExtractVersion,
		"schema":      schema.Version,
		"languages":   langs,
		"maxFileSize": b.opts.Walk.MaxFileSize,
		"skipDirs":    skip,
		"hidden":      b.opts.Walk.Hidden,
		"scip":        scipHashes(b.opts.SCIP),
		// edges follow the files the target compiles
		"goTarget":   b.opts.GoTarget.String(),
		"goToolTags": b.opts.GoTarget.ToolTags,
	}
	if b.opts.Walk.Generated {
		// only when set: the default keeps the hash of earlier indexes
		o["generated"] = true
	}
	js, _ := json.Marshal(o)
	sum := sha256.Sum256(js)
	return hex.EncodeToString(sum[:8]), string(js)
}

// optionsChanged says why the index's options differ from this run's, so
// that it must be built again, or "". Go precise mode is not an option of
// the file: each edge records its rule, a run switches modes by resolving
// the Go files again as a new version, and working-tree runs and --rev
// runs (never type-checked) share one ledger. The options of a file
// written before that are compared without it, so it is not rebuilt.
func (b *build) optionsChanged(ctx context.Context, q schema.Querier) (string, error) {
	hash, js := b.options()
	old, err := schema.GetMeta(ctx, q, schema.MetaOptionsHash)
	if err != nil {
		return "", fmt.Errorf("read index: %w", err)
	}
	if old == hash {
		return "", nil
	}
	if oldJS, err := schema.GetMeta(ctx, q, schema.MetaOptions); err == nil && oldJS != "" {
		var o map[string]any
		if json.Unmarshal([]byte(oldJS), &o) == nil {
			delete(o, "goPrecise")
			if same, err := json.Marshal(o); err == nil && string(same) == js {
				return "", nil
			}
		}
	}
	return "index options or sdl's extraction changed", nil
}

// peekVersions counts the versions of an index file that a rebuild will
// replace (0 when it cannot be read).
func peekVersions(ctx context.Context, path string) int64 {
	db, err := sql.Open("sqlite", schema.DSN(path, true))
	if err != nil {
		return 0
	}
	defer db.Close()
	var n int64
	if db.QueryRowContext(ctx, "SELECT COUNT(*) FROM versions").Scan(&n) != nil {
		return 0
	}
	return n
}

// full builds a new index in a temporary file and renames it into place:
// parse (every file) -> resolve -> indexes -> scip -> finishVersion ->
// publish.
func (b *build) full(ctx context.Context) (err error) {
	tmp := fmt.Sprintf("%s.tmp-%d", b.opts.DB, os.Getpid())
	removeStaleTemps(b.opts.DB)
	os.Remove(tmp)
	defer func() {
		if err != nil {
			os.Remove(tmp)
			os.Remove(tmp + "-journal")
			err = classifyWriteError(err, b.opts.DB)
		}
	}()
	// a new file has no precise state to reset (an incremental run that
	// turned into this rebuild may have set it)
	b.preciseReset = false
	db, conn, tx, err := b.createTemp(ctx, tmp)
	if db != nil {
		defer func() {
			if db != nil {
				db.Close()
			}
		}()
	}
	if err != nil {
		return err
	}
	defer conn.Close()
	defer tx.Rollback()
	w, err := newWriter(ctx, tx, 1)
	if err != nil {
		return err
	}
	defer w.close()
	w.direct(conn)
	b.w = w
	b.tree = map[string]fileState{}
	if err := w.ftsHash(ctx, ftsBuildHash); err != nil {
		return err
	}

	// what resolution needs of each file, in memory up to a budget and
	// spilled to disk beyond it; the symbol table and the graph are built
	// as files arrive
	fs := b.resolutionSet()
	budget := b.opts.MemoryBudget
	if budget <= 0 {
		budget = DefaultMemoryBudget
	}
	store := newFactStore(budget, spillDir(b.opts.DB))
	defer store.close()
	tab := newMemTable(fs)
	g := newGraph()
	// the type checker's facts first: its peak (syntax and types of the
	// packages being checked) then does not add to the parse results held
	// for resolution
	gp, err := b.loadPrecise(ctx, nil, nil)
	if err != nil {
		return err
	}
	if gp != nil {
		b.preciseMeta = gp.state(nil)
	}
	b.sum.Seq = 1
	if err := b.parseFull(ctx, tx, fs, store, tab, g); err != nil {
		return err
	}
	if store.spills > 0 {
		b.tracef("  spilled %d of %d files' parse results (%d MB) beyond %d MB in memory",
			store.spills, store.len(), store.size>>20, budget>>20)
	}
	fs.index()
	if err := b.resolveFull(ctx, store, tab, gp, g); err != nil {
		return err
	}
	gp = nil
	if err := w.ftsHash(ctx, ftsDefaultHash); err != nil {
		return err
	}
	if err := w.ftsOptimize(ctx); err != nil {
		return err
	}
	b.progress("indexes", 0, 0)
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = -%d", indexCacheKiB)); err != nil {
		return fmt.Errorf("cache size: %w", err)
	}
	if err := schema.CreateIndexes(ctx, tx); err != nil {
		return err
	}
	if len(b.opts.SCIP) > 0 {
		b.progress("scip", 0, 0)
		if err := b.importSCIP(ctx, tx, w, g); err != nil {
			return err
		}
	}
	if err := b.finishVersion(ctx, tx, version{seq: 1, g: g, id: VersionID(1)}); err != nil {
		return err
	}
	w.close()
	conn.Close() // the only connection: publish needs it back
	err = b.publish(ctx, db, tmp)
	db = nil
	return err
}

// The page cache of a full build, in KiB. While rows are appended a page
// is written once and not read again, so a small cache costs nothing, and
// the build's peak of memory (the parse results held for resolution) is
// then; the sorts of CREATE INDEX after it use a larger one.
const (
	buildCacheKiB = 8 << 10
	indexCacheKiB = 32 << 10
)

// createTemp creates the file a full build writes, with the embedder and
// the vector tables, and begins its transaction on the one connection
// the build uses. The database is returned
// for the caller to close even when it fails after opening it.
func (b *build) createTemp(ctx context.Context, tmp string) (*sql.DB, *sql.Conn, *sql.Tx, error) {
	db, err := schema.OpenWrite(tmp, "page_size(8192)", "journal_mode(OFF)", "synchronous(OFF)",
		"temp_store(MEMORY)", fmt.Sprintf("cache_size(-%d)", buildCacheKiB), "threads(2)")
	if err != nil {
		return nil, nil, nil, err
	}
	if err := schema.Create(ctx, db); err != nil {
		return db, nil, nil, err
	}
	if b.emb, err = b.openEmbedder(ctx, b.prevModel); err != nil {
		return db, nil, nil, err
	}
	b.emb.prevModel = ""
	b.sum.Embedding = &b.emb.sum
	if err := b.emb.prepareVectors(ctx, db, 0); err != nil {
		return db, nil, nil, err
	}
	// one connection, used directly by the writer's bulk inserts
	// (writer.direct): the file has no other reader or writer
	conn, err := db.Conn(ctx)
	if err != nil {
		return db, nil, nil, err
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		conn.Close()
		return db, nil, nil, err
	}
	return db, conn, tx, nil
}

// parseFull parses every file of the walk, writes its file and symbol
// rows, and keeps what resolution needs: the file in fs, the symbols in
// tab and g, the parse results in store.
func (b *build) parseFull(ctx context.Context, tx *sql.Tx, fs *fileSet, store *factStore, tab *memTable, g *graph) error {
	w := b.w
	total := len(b.entries)
	done := 0
	var busy time.Duration
	if err := w.batchRows(ctx); err != nil {
		return err
	}
	err := parseAll(ctx, b.src, b.opts.Overlay, b.entries, b.opts.Workers, b.opts.Walk, nil, func(r *fileResult) error {
		t0 := time.Now()
		defer func() { busy += time.Since(t0) }()
		done++
		if done%64 == 0 || done == total {
			b.progress("parse", done, total)
		}
		b.count(r)
		if r.indexed() {
			b.sum.FilesAdded++
		} else {
			b.sum.SkipsChanged++
		}
		b.tree[r.entry.Path] = fileState{r.status, r.hash, r.reason, r.langName()}
		pid, err := w.pathID(ctx, r.entry.Path)
		if err != nil {
			return err
		}
		if err := w.writeFile(ctx, pid, r); err != nil {
			return err
		}
		if !r.indexed() {
			return nil
		}
		for i := range r.facts.Symbols {
			rowid, err := w.insertSymbol(ctx, pid, r.entry.Path, r.rows[i])
			if err != nil {
				return err
			}
			b.emb.queue(rowid, r.entry.Path, &r.facts.Symbols[i])
		}
		if err := b.embedSome(ctx, tx); err != nil {
			return err
		}
		b.sum.SymbolsAdded += len(r.facts.Symbols)
		fs.put(&fileEntry{path: r.entry.Path, lang: r.entry.Lang.Name, module: r.facts.Module,
			imports: r.facts.Imports, loaded: true, build: r.facts.Build, test: r.facts.IsTest})
		r.targets = make([]*lang.Target, len(r.facts.Symbols))
		for i := range r.facts.Symbols {
			s := &r.facts.Symbols[i]
			r.targets[i] = targetOf(r, i)
			tab.add(r.targets[i])
			g.addSymbol(r.ids[i], r.entry.Path, s.Name, s.Kind, s.IsTest)
		}
		r.rows = nil
		return store.put(r, spillDir(b.opts.DB))
	})
	if err != nil {
		return err
	}
	if err := w.flush(); err != nil {
		return err
	}
	b.tracef("  writer busy %.2fs during parse", busy.Seconds())
	return nil
}

// resolveFull binds the references of every file in store, in parallel
// and in file order, writes the edges and adds them to g.
func (b *build) resolveFull(ctx context.Context, store *factStore, tab *memTable, gp *goPrecise, g *graph) error {
	w := b.w
	type resolved struct {
		path   string
		edges  []edgeRow
		faults []lang.Fault // when resolution added some
		work   int
		err    error
	}
	maxWork, maxWorkPath := 0, ""
	if err := w.batchRows(ctx); err != nil {
		return err
	}
	err := ordered(ctx, store.len(), b.opts.Workers, func() (func(int) resolved, func()) {
		sc := &edgeScratch{}
		return func(i int) resolved {
			r, err := store.get(i)
			if err != nil {
				return resolved{err: err}
			}
			before := len(r.faults)
			res := resolved{path: r.entry.Path, edges: fileEdges(r, tab, gp.file(r.entry.Path), sc)}
			if len(r.faults) > before {
				res.faults = r.faults
			}
			res.work = r.work
			return res
		}, func() {}
	}, func(n int, res resolved) error {
		if n%64 == 0 {
			b.progress("resolve", n, store.len())
		}
		if res.err != nil {
			return res.err
		}
		pid := w.paths[res.path]
		if res.work > maxWork {
			maxWork, maxWorkPath = res.work, res.path
		}
		if res.faults != nil {
			if err := w.setFaults(ctx, pid, res.faults); err != nil {
				return err
			}
		}
		for i := range res.edges {
			if err := w.insertEdge(ctx, pid, &res.edges[i]); err != nil {
				return err
			}
			g.add(&res.edges[i])
		}
		store.drop(n) // resolution is done with this file
		return nil
	})
	if err != nil {
		return err
	}
	if err := w.flush(); err != nil {
		return err
	}
	b.tracef("  most resolution work in one file: %d of %d units, %s", maxWork, lang.FileWorkBudget, maxWorkPath)
	return nil
}

// publish finishes the file of a full build (WAL from now on), closes it
// and renames it into place.
func (b *build) publish(ctx context.Context, db *sql.DB, tmp string) error {
	b.progress("write", 0, 0)
	if _, err := db.ExecContext(ctx, "PRAGMA optimize; PRAGMA journal_mode = WAL"); err != nil {
		db.Close()
		return fmt.Errorf("finish index: %w", err)
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return replaceFile(tmp, b.opts.DB)
}

// lighten drops what resolution does not need of a file's symbols once
// they are written: what a spilled result keeps of them.
func lighten(r *fileResult) {
	for i := range r.facts.Symbols {
		s := &r.facts.Symbols[i]
		s.Doc, s.Summary, s.Words, s.Idents = "", "", "", nil
		s.Invariants, s.SideEffects = nil, nil
		s.Signature.Text, s.Signature.Params, s.Signature.Generics, s.Signature.Modifiers = "", nil, nil, nil
	}
}

func (b *build) count(r *fileResult) {
	switch r.status {
	case StatusOK:
		b.sum.Parsed++
	case StatusParseError, StatusParseFailed:
		b.sum.Parsed++
		b.sum.ParseErrors++
	case StatusSkipped:
		b.sum.Skipped++
	case StatusUnreadable:
		b.sum.Unreadable++
	}
}

// insertEdge writes an edge of the file pid.
func (w *writer) insertEdge(ctx context.Context, pid int64, e *edgeRow) error {
	var dst any
	if e.dst != "" {
		dst = e.dst
	}
	if w.batches != nil {
		err := w.batched("insEdge", 0, e.src, dst, e.kind, e.name, e.qual, e.qualType, e.qualCall, e.confidence,
			e.rule, e.candidates, e.count, e.line, pid, e.digest, w.seq)
		if err == nil {
			w.edgeDelta++
			w.edgeWrites++
		}
		return err
	}
	_, err := w.exec(ctx, "insEdge", e.src, dst, e.kind, e.name, e.qual, e.qualType, e.qualCall, e.confidence,
		e.rule, e.candidates, e.count, e.line, pid, e.digest, w.seq)
	if err == nil {
		w.edgeDelta++
		w.edgeWrites++
	}
	return err
}

// replaceFile moves a finished index into place. A stale WAL of the file
// it replaces must not be replayed onto the new one, so it goes first.
func replaceFile(tmp, dst string) error {
	if f, err := os.Open(tmp); err == nil {
		f.Sync()
		f.Close()
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(dst + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%w: %v", ErrReadOnly, err)
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("%w: %v", ErrReadOnly, err)
	}
	if d, err := os.Open(filepath.Dir(dst)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// removeStaleTemps deletes temporary files of builds that died.
func removeStaleTemps(db string) {
	matches, _ := filepath.Glob(db + ".tmp-*")
	for _, m := range matches {
		pidText := strings.TrimPrefix(m, db+".tmp-")
		pidText = strings.TrimSuffix(pidText, "-journal")
		pid, err := strconv.Atoi(pidText)
		if err == nil && pid != os.Getpid() && processAlive(pid) {
			continue
		}
		os.Remove(m)
	}
}

// classifyWriteError turns SQLite's and the OS's errors about space and
// permissions into sdl's.
func classifyWriteError(err error, db string) error {
	if errors.Is(err, ErrDiskFull) || errors.Is(err, ErrReadOnly) {
		return err
	}
	msg := err.Error()
	var se *sqlite.Error
	code := 0
	if errors.As(err, &se) {
		code = se.Code()
	}
	const (
		sqliteReadOnly   = 8
		sqliteFull       = 13
		sqliteCantOpen   = 14
		sqliteIOErrWrite = 778  // SQLITE_IOERR_WRITE: ENOSPC, EFBIG, EDQUOT
		sqliteIOErrShm   = 4874 // SQLITE_IOERR_SHMSIZE: no room for the WAL index
	)
	switch {
	case code == sqliteFull || code == sqliteIOErrWrite || code == sqliteIOErrShm || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EFBIG):
		return fmt.Errorf("%w while writing %s; the previous index is intact: %v", ErrDiskFull, db, err)
	case code&0xff == sqliteReadOnly || code == sqliteCantOpen || errors.Is(err, os.ErrPermission) ||
		errors.Is(err, syscall.EROFS) || strings.Contains(msg, "unable to open database file"):
		return fmt.Errorf("%w at %s: %v", ErrReadOnly, db, err)
	}
	return err
}
