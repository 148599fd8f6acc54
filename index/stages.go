package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// An index run goes through these stages, in this order. Each is a method
// of build named here; a full build and an incremental run differ only in
// how they parse and resolve, and a --rev run (a git tree as the source)
// or an overlay run (editor buffers over the working tree) only in the
// source the walk and the parse read:
//
//	prepare   options defaulted, the index locked, the source chosen      Run
//	decide    what the existing file allows, an IndexState                decide
//	walk      the tree listed (or only the given paths); project files    walk, walkPaths
//	parse     files parsed and their rows written (a full build: every    full: parseFull
//	          file; an incremental run: the changed ones)                  incremental: parseChanged, removeGone
//	resolve   references bound, edges written (an incremental run binds    full: resolveFull
//	          again what the changes may have moved)                       incremental: resolveChanged
//	indexes   secondary indexes after the bulk inserts (full build)        full
//	scip      SCIP definitions and references imported (full build)        full
//	derive    churn, metrics, clusters, processes                         finishVersion
//	embed     the vectors of the symbols written                          sidecars
//	memories  .sdl-memory and feedback synced, the memories' vectors      sidecars
//	ledger    the version row and the meta rows                           finishVersion
//	commit    (a full build then renames its file into place)             finishVersion, publish
//
// A run that finds nothing changed records no version: it syncs the
// sidecars alone (upToDate).

// IndexState is what a run decided to do with the index file it found
// (zoekt's IndexState is the model): build it, bring it up to date with a
// new version, leave it as it is, or rebuild it, and why.
type IndexState string

const (
	// StateNew: there is no index file; a full build makes one.
	StateNew IndexState = "new"
	// StateUpToDate: nothing changed; no version is recorded.
	StateUpToDate IndexState = "up-to-date"
	// StateIncremental: the changed files make a new version.
	StateIncremental IndexState = "incremental"
	// StateSchema: the file has another schema version; it is rebuilt.
	StateSchema IndexState = "rebuild-schema"
	// StateOptions: the file was built with other options or another
	// extraction; it is rebuilt.
	StateOptions IndexState = "rebuild-options"
	// StateCorrupt: the file is damaged; it is rebuilt, as derived data.
	StateCorrupt IndexState = "rebuild-corrupt"
)

// Rebuild says the state replaces the file with a full build, which drops
// its versions.
func (s IndexState) Rebuild() bool {
	return s == StateSchema || s == StateOptions || s == StateCorrupt
}

// Decision is an IndexState with the reason for it.
type Decision struct {
	State  IndexState
	Reason string
}

func (d Decision) String() string {
	if d.Reason == "" {
		return string(d.State)
	}
	return string(d.State) + " (" + d.Reason + ")"
}

// rebuildError is how an incremental run that finds it must rebuild says
// so to Run.
type rebuildError struct{ d Decision }

func (e *rebuildError) Error() string { return "rebuild: " + e.d.String() }

// decide reads the state of the index file from its header: a missing file
// is built and one of another schema rebuilt; a readable one is indexed
// incrementally, which may still find it must rebuild (other options, a
// damaged file) or that it is up to date. Any other error (not an index)
// is returned.
func decide(db string) (Decision, error) {
	switch err := schema.Sniff(db); {
	case err == nil:
		return Decision{State: StateIncremental}, nil
	case errors.Is(err, schema.ErrNoIndex):
		return Decision{State: StateNew}, nil
	case errors.Is(err, schema.ErrVersion):
		return Decision{State: StateSchema, Reason: err.Error()}, nil
	default:
		return Decision{}, err
	}
}

// corruptDecision turns an error of an incremental run into a decision to
// rebuild when it says the file is damaged.
func corruptDecision(err error) (Decision, bool) {
	if errors.Is(schema.Corrupt(err), schema.ErrCorrupt) {
		return Decision{State: StateCorrupt, Reason: "the index file was damaged (" + err.Error() + ")"}, true
	}
	return Decision{}, false
}

// decided records the final decision in the summary and the trace.
func (b *build) decided(d Decision) {
	b.sum.State = d.State
	if d.State.Rebuild() {
		b.sum.Rebuilt = true
		b.sum.RebuildReason = d.Reason
	}
	b.tracef("decision: %s", d)
}

// Run indexes opts.Root into opts.DB: a full build when there is no usable
// index, else an incremental run that records a new version if anything
// changed.
func Run(ctx context.Context, opts Options) (*Summary, error) {
	start := time.Now()
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	st, err := os.Stat(root)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s", ErrNoDir, opts.Root)
		}
		return nil, fmt.Errorf("index: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrNoDir, opts.Root)
	}
	if err := opts.defaults(root); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(opts.DB), 0o755); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrReadOnly, err)
	}
	unlock, err := lockIndex(ctx, opts.DB)
	if err != nil {
		return nil, err
	}
	defer unlock()

	for p := range opts.Overlay {
		if _, err := cleanRel(p); err != nil {
			return nil, err
		}
	}
	b := &build{opts: opts, root: root, src: dirTree{root}, sum: &Summary{DB: opts.DB, Languages: map[string]int{}}}
	closeSrc, err := b.source(ctx)
	if err != nil {
		return nil, err
	}
	defer closeSrc()
	if err := b.run(ctx); err != nil {
		return nil, err
	}
	b.report()
	b.progress("done", 0, 0)
	b.sum.Seconds = time.Since(start).Seconds()
	return b.sum, nil
}

// defaults fills what the caller left out.
func (opts *Options) defaults(root string) error {
	if opts.DB == "" {
		opts.DB = DefaultDB(root)
	}
	opts.DB, _ = filepath.Abs(opts.DB)
	if opts.Embedder == nil && opts.Embedding.Provider == "" && opts.Embedding.HTTP.URL == "" && opts.Embedding.HTTP.Model == "" {
		// callers that say nothing (serve's refresh, watcher, buffers) use
		// the repository's settings, as sdl index does
		var err error
		if opts.Embedding, err = embed.LoadConfig(root); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	if opts.GoTarget == nil {
		t, err := LoadGoTarget(root, os.Getenv)
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
		opts.GoTarget = &t
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.Walk.MaxFileSize <= 0 {
		opts.Walk.MaxFileSize = DefaultMaxFileSize
	}
	if !opts.Walk.Generated {
		s, err := LoadSettings(root)
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
		opts.Walk.Generated = s.Generated
	}
	if opts.Walk.SkipDirs == nil {
		opts.Walk.SkipDirs = DefaultSkipDirs
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	return nil
}

// source chooses what the run reads: the working tree (with the overlay's
// buffers over it), or the tree of a git revision. It returns what
// releases the source.
func (b *build) source(ctx context.Context) (func(), error) {
	opts := b.opts
	if opts.Rev == "" {
		if !opts.NoGit {
			b.git = readGit(ctx, b.root)
		}
		return func() {}, nil
	}
	if opts.NoGit {
		return nil, fmt.Errorf("%w: a revision is read with git; NoGit excludes it", ErrRev)
	}
	if len(opts.Paths) > 0 || len(opts.Overlay) > 0 {
		// both describe the working tree, which a revision does not read
		return nil, fmt.Errorf("%w: a revision is indexed whole, without paths or an overlay", ErrRev)
	}
	if opts.GoPrecise == PreciseOn {
		return nil, fmt.Errorf("%w: --precise on type-checks the files on disk with the go command, and a revision is "+
			"read from git objects: index it without --precise (its Go files keep the edges they have and the "+
			"heuristics resolve the changed ones), or check it out and index the working tree", ErrRev)
	}
	gt, err := openGitTree(ctx, b.root, opts.Rev)
	if err != nil {
		return nil, err
	}
	b.src = gt
	b.git = readGitRev(ctx, b.root, gt.commit, opts.Rev)
	return gt.close, nil
}

// run decides, walks, and builds the index or a new version of it.
func (b *build) run(ctx context.Context) error {
	d, sniffErr := decide(b.opts.DB)
	// a run over a few paths of a usable index walks only those
	if len(b.opts.Paths) > 0 && sniffErr == nil && d.State == StateIncremental && !b.opts.Full {
		if err := b.walkPaths(); err != nil {
			return err
		}
	} else if err := b.walk(ctx); err != nil {
		return err
	}
	if sniffErr != nil {
		return sniffErr
	}
	if d.State == StateIncremental {
		err := b.incremental(ctx)
		var rb *rebuildError
		if cd, ok := corruptDecision(err); ok {
			d = cd
		} else if errors.As(err, &rb) {
			d = rb.d
		} else {
			return err // done, or failed
		}
		if b.only != nil {
			// a rebuild reads the whole tree
			b.only = nil
			if err := b.walk(ctx); err != nil {
				return err
			}
		}
	}
	switch d.State {
	case StateSchema:
		b.sum.VersionsDropped = peekVersions(ctx, b.opts.DB)
		b.prevModel, _ = peekEmbedMeta(ctx, b.opts.DB)
	case StateOptions:
		b.sum.VersionsDropped = peekVersions(ctx, b.opts.DB)
	}
	b.decided(d)
	return b.full(ctx)
}

// walkPaths lists only the paths of an incremental run limited to them.
func (b *build) walkPaths() error {
	b.progress("walk", 0, 0)
	entries, err := WalkPaths(b.root, b.opts.Paths, b.opts.Walk)
	if err != nil {
		return err
	}
	b.entries = b.overlaid(entries)
	b.only = map[string]bool{}
	for _, e := range b.entries {
		b.only[e.Path] = true
	}
	for _, p := range b.opts.Paths {
		p, _ = cleanRel(p)
		b.only[p] = true
	}
	return nil
}

// report fills what the summary says of the file and of Go precise mode.
func (b *build) report() {
	if fi, err := os.Stat(b.opts.DB); err == nil {
		b.sum.Bytes = fi.Size()
		if wal, err := os.Stat(b.opts.DB + "-wal"); err == nil {
			b.sum.Bytes += wal.Size()
		}
	}
	if _, onDisk := b.src.(dirTree); onDisk && b.opts.GoPrecise == PreciseAuto && b.precisePrev == nil &&
		b.sum.GoPrecise == "" && b.sum.Languages["go"] > 0 && len(b.preciseModules()) > 0 && goToolchain() != "" {
		b.sum.GoHeuristic = true
	}
}

// resolutionSet is the file set resolution reads, with the repository's
// project files and the Go target.
func (b *build) resolutionSet() *fileSet {
	fs := newFileSet()
	fs.project = b.project
	fs.config[lang.ConfigGoTarget] = b.opts.GoTarget.Config()
	return fs
}

// sidecars is the stage every run ends with, whether or not it records a
// version: the vectors of the symbols written, the memory files and the
// feedback synced (memories linked to the changed symbols ch flagged stale
// at version), the memories' vectors, and the count of files with faults.
// It returns the meta rows to write and whether it wrote anything.
func (b *build) sidecars(ctx context.Context, tx *sql.Tx, ch *symChanges, version string) ([][2]string, bool, error) {
	meta, err := b.embedAll(ctx, tx)
	if err != nil {
		return nil, false, err
	}
	if b.preciseMeta != "" || b.preciseReset {
		meta = append(meta, [2]string{schema.MetaGoPrecise, b.preciseMeta})
	}
	wrote, err := b.syncSidecars(ctx, tx, ch, version)
	if err != nil {
		return nil, false, err
	}
	if err := b.embedMemories(ctx, tx); err != nil {
		return nil, false, err
	}
	if err := b.countFaults(ctx, tx); err != nil {
		return nil, false, err
	}
	return meta, wrote, nil
}

// version is what the tail of a run that records a version needs.
type version struct {
	seq  int64
	prev counts // the previous version's totals (zero for a full build)
	// g is a full build's graph; affected, the symbols an incremental
	// run's edges changed
	g        *graph
	affected map[string]bool
	changes  *symChanges // an incremental run's symbol changes, for memories
	id       string      // the version memories are flagged stale at
}

// finishVersion is the tail every run that records a version shares:
// derive -> embed -> memories -> ledger -> commit.
func (b *build) finishVersion(ctx context.Context, tx *sql.Tx, v version) error {
	b.progress("derive", 0, 0)
	if err := b.derive(ctx, tx, v.g, v.affected); err != nil {
		return err
	}
	meta, _, err := b.sidecars(ctx, tx, v.changes, v.id)
	if err != nil {
		return err
	}
	if err := b.w.writeLengths(ctx, tx); err != nil {
		return err
	}
	b.progress("ledger", 0, 0)
	if err := b.recordVersion(ctx, tx, v.seq, v.prev, meta); err != nil {
		return err
	}
	b.progress("commit", 0, 0)
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
