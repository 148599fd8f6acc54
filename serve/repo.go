package serve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// ErrUnknownRepo means a repoId names no repository the server knows.
var ErrUnknownRepo = errors.New("unknown repoId")

// ErrIndexing means the repository's first index is still being built.
var ErrIndexing = errors.New("indexing")

// building is the state of a first index built in the background.
type building struct {
	mu          sync.Mutex
	running     bool
	phase       string
	done, total int
	err         error // why the last build failed, until one succeeds
}

// Repo is a repository a server answers about: its root and its index.
type Repo struct {
	ID   string
	Root string
	DB   string

	mu    sync.Mutex
	x     *query.Index
	inode uint64
	live  *live

	// memMu serializes this process's memory writes; memories holds the
	// overlay of memory files, shared by the indexes opened in turn.
	memMu    sync.Mutex
	memories query.MemoryOverlay

	build building
}

// NewRepo describes a repository; its index is opened on first use.
func NewRepo(id, root, db string) *Repo {
	if db == "" {
		db = filepath.Join(root, ".sdl", "index.db")
	}
	if id == "" {
		id = filepath.Base(root)
	}
	r := &Repo{ID: id, Root: root, DB: db, memories: NewMemoryOverlay(root)}
	r.live = newLive(r)
	return r
}

// Index returns the open index, reopening it when the file was replaced
// (a full rebuild renames a new file into place; new versions added in
// place are seen by every new query anyway).
func (r *Repo) Index() (*query.Index, error) {
	if err := r.buildState(); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ino := fileID(r.DB)
	if r.x != nil && ino == r.inode {
		return r.x, nil
	}
	x, err := query.Open(r.DB, r.Root)
	if err != nil {
		return nil, err
	}
	if x.RepoID == "" || x.RepoID != r.ID {
		x.RepoID = r.ID
	}
	x.MemoryFiles = r.memories
	x.Unsaved = r.live.baseContent
	x.KeepVectors() // a server answers many questions: vectors in memory
	if r.x != nil {
		r.x.Close()
	}
	r.x, r.inode = x, ino
	return x, nil
}

// IndexInBackground builds the repository's index when it has none, so
// that a server started in a repository nobody indexed yet answers at once:
// calls that need the index get ErrIndexing with the progress until it is
// built, and the tools that need none (sdl_info, sdl_index_refresh) work.
// It reports whether a build started.
// done, if not nil, is closed when the build ends.
func (r *Repo) IndexInBackground(ctx context.Context, opts index.Options, logf func(string, ...any), done chan struct{}) bool {
	if fileExists(r.DB) {
		return false
	}
	b := &r.build
	b.mu.Lock()
	if b.running {
		b.mu.Unlock()
		return false
	}
	b.running, b.phase, b.done, b.total, b.err = true, "walk", 0, 0, nil
	b.mu.Unlock()
	opts.Root, opts.DB = r.Root, r.DB
	caller := opts.Progress
	opts.Progress = func(p index.Progress) {
		b.mu.Lock()
		b.phase, b.done, b.total = p.Phase, p.Done, p.Total
		b.mu.Unlock()
		if caller != nil {
			caller(p)
		}
	}
	go func() {
		sum, err := index.Run(ctx, opts)
		b.mu.Lock()
		b.running, b.err = false, err
		b.mu.Unlock()
		if done != nil {
			close(done)
		}
		if err != nil {
			logf("index %s: %v", r.Root, err)
			return
		}
		logf("indexed %s: %d files, %d symbols (%s)", r.Root, sum.Files, sum.Symbols, r.DB)
	}()
	return true
}

// buildState is ErrIndexing while a first index is being built, the
// build's error after it failed, else nil.
func (r *Repo) buildState() error {
	b := &r.build
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.running && b.total > 0:
		return fmt.Errorf("%w %s, %d of %d files (%s): its first index; ask again in a few seconds",
			ErrIndexing, r.Root, b.done, b.total, b.phase)
	case b.running:
		return fmt.Errorf("%w %s (%s): its first index; ask again in a few seconds", ErrIndexing, r.Root, b.phase)
	case b.err != nil && fileExists(r.DB):
		b.err = nil // indexed since, by sdl index
	case b.err != nil:
		return fmt.Errorf("the first index of %s failed: %w", r.Root, b.err)
	}
	return nil
}

// Building reports whether a first index is being built.
func (r *Repo) Building() bool {
	r.build.mu.Lock()
	defer r.build.mu.Unlock()
	return r.build.running
}

// Close closes the index and drops the buffers' overlay.
func (r *Repo) Close() error {
	r.live.close()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.x != nil {
		err := r.x.Close()
		r.x = nil
		return err
	}
	return nil
}

func fileID(p string) uint64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return inodeOf(fi)
}

// Repos is the set of repositories a server answers about.
type Repos struct {
	byID  map[string]*Repo
	order []string
}

// NewRepos indexes repos by id; ids must be unique.
func NewRepos(repos ...*Repo) (*Repos, error) {
	rs := &Repos{byID: map[string]*Repo{}}
	for _, r := range repos {
		if _, dup := rs.byID[r.ID]; dup {
			return nil, fmt.Errorf("two repositories with id %q: give each --repo ID=PATH a distinct id", r.ID)
		}
		rs.byID[r.ID] = r
		rs.order = append(rs.order, r.ID)
	}
	sort.Strings(rs.order)
	return rs, nil
}

// Get returns the repository named id; "" names the only one.
func (rs *Repos) Get(id string) (*Repo, error) {
	if id == "" && len(rs.order) == 1 {
		return rs.byID[rs.order[0]], nil
	}
	if r := rs.byID[id]; r != nil {
		return r, nil
	}
	if id == "" {
		return nil, fmt.Errorf("%w: repoId is required when the server has several repositories: %s", ErrUnknownRepo, strings.Join(rs.order, ", "))
	}
	return nil, fmt.Errorf("%w %q: this server knows %s", ErrUnknownRepo, id, strings.Join(rs.order, ", "))
}

// IDs lists the repository ids.
func (rs *Repos) IDs() []string { return rs.order }

// Close closes every index.
func (rs *Repos) Close() {
	for _, r := range rs.byID {
		r.Close()
	}
}
