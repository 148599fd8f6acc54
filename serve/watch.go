package serve

import (
	"context"
	"errors"
	"io/fs"
	"log"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/lang"
)

// WatchOptions configure Watch.
type WatchOptions struct {
	// Debounce is how long changes settle before they are indexed.
	Debounce time.Duration
	// Poll is the interval of the fallback when the system cannot watch
	// every directory (inotify limits); 0 means 5 s.
	Poll       time.Duration
	SDLVersion string
	Log        *log.Logger
	// OnIndex, if set, is called after each index run.
	OnIndex func(*index.Summary, error)
}

// DefaultWatchDebounce lets an editor's save (often a write and a rename)
// settle into one run.
const DefaultWatchDebounce = 300 * time.Millisecond

// treeFiles change what the whole tree's index holds: a change to one of
// them re-walks the tree instead of indexing the files that changed.
var treeFiles = map[string]bool{".gitignore": true, ".sdlignore": true, "go.mod": true, "package.json": true}

// Watch keeps a repository's index up to date until ctx is done: saved
// files are indexed (an incremental run of just those files, a new
// version) shortly after they change, so answers never silently fall
// behind the disk. Where the system cannot watch every directory it polls
// with whole incremental runs instead.
func Watch(ctx context.Context, r *Repo, opts WatchOptions) error {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultWatchDebounce
	}
	if opts.Poll <= 0 {
		opts.Poll = 5 * time.Second
	}
	if opts.Log == nil {
		opts.Log = log.New(discard{}, "", 0)
	}
	w := &watcher{r: r, opts: opts, changed: map[string]bool{}}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		opts.Log.Printf("watch %s: %v; polling every %s instead", r.Root, err, opts.Poll)
		return w.poll(ctx)
	}
	defer fw.Close()
	w.fw = fw
	if err := w.addTree(r.Root); err != nil {
		opts.Log.Printf("watch %s: %v; polling every %s instead", r.Root, err, opts.Poll)
		fw.Close()
		return w.poll(ctx)
	}
	opts.Log.Printf("watch %s: %d directories", r.Root, w.dirs)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			if w.note(ev) {
				timer.Reset(opts.Debounce)
			}
		case err, ok := <-fw.Errors:
			if !ok {
				return nil
			}
			// an overflow loses events: a whole run catches up
			opts.Log.Printf("watch %s: %v; indexing the whole tree", r.Root, err)
			w.mu.Lock()
			w.whole = true
			w.mu.Unlock()
			timer.Reset(opts.Debounce)
		case <-timer.C:
			w.run(ctx)
		}
	}
}

type watcher struct {
	r    *Repo
	opts WatchOptions
	fw   *fsnotify.Watcher
	dirs int

	mu      sync.Mutex
	changed map[string]bool
	whole   bool
}

// skipDir reports whether a directory is never indexed, so not watched.
func skipDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", ".sdl", ".sdl-memory":
		return true
	}
	if _, ok := index.DefaultSkipDirs[name]; ok {
		return true
	}
	return strings.HasPrefix(name, ".")
}

// addTree watches dir and every directory under it that could hold
// indexed files.
func (w *watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != w.r.Root && skipDir(d.Name()) {
			return filepath.SkipDir
		}
		if err := w.fw.Add(p); err != nil {
			return err
		}
		w.dirs++
		return nil
	})
}

// note records an event; it reports whether the event matters.
func (w *watcher) note(ev fsnotify.Event) bool {
	rel, err := filepath.Rel(w.r.Root, ev.Name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, part := range strings.Split(path.Dir(rel), "/") {
		if part != "." && skipDir(part) {
			return false
		}
	}
	base := path.Base(rel)
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			if skipDir(base) {
				return false
			}
			// a new directory: watch it, and index what it already holds
			w.addTree(ev.Name)
			filepath.WalkDir(ev.Name, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					if r, err := filepath.Rel(w.r.Root, p); err == nil {
						w.mark(filepath.ToSlash(r))
					}
				}
				return nil
			})
			return true
		}
	}
	if ev.Op == fsnotify.Chmod {
		return false
	}
	return w.mark(rel)
}

func (w *watcher) mark(rel string) bool {
	base := path.Base(rel)
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case treeFiles[base]:
		w.whole = true
	case lang.ForPath(base) != nil:
		w.changed[rel] = true
	default:
		// a renamed or removed directory shows as one path: the files
		// that were under it are known only to the index
		if _, err := os.Stat(filepath.Join(w.r.Root, filepath.FromSlash(rel))); errors.Is(err, fs.ErrNotExist) && path.Ext(base) == "" {
			w.whole = true
			return true
		}
		return false
	}
	return true
}

// run indexes what changed.
func (w *watcher) run(ctx context.Context) {
	w.mu.Lock()
	whole := w.whole
	paths := make([]string, 0, len(w.changed))
	for p := range w.changed {
		paths = append(paths, p)
	}
	w.changed, w.whole = map[string]bool{}, false
	w.mu.Unlock()
	if !whole && len(paths) == 0 {
		return
	}
	sort.Strings(paths)
	o := index.Options{Root: w.r.Root, DB: w.r.DB, SDLVersion: w.opts.SDLVersion}
	if !whole {
		o.Paths = paths
	}
	sum, err := index.Run(ctx, o)
	if err != nil {
		w.opts.Log.Printf("watch %s: index: %v", w.r.ID, err)
	} else if sum.NewVersion {
		w.opts.Log.Printf("watch %s: %s (%d added, %d changed, %d removed files)", w.r.ID, sum.Version, sum.FilesAdded, sum.FilesChanged, sum.FilesRemoved)
		w.r.live.baseChanged()
	}
	if w.opts.OnIndex != nil {
		w.opts.OnIndex(sum, err)
	}
}

// poll runs a whole incremental index at each interval.
func (w *watcher) poll(ctx context.Context) error {
	t := time.NewTicker(w.opts.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			w.mu.Lock()
			w.whole = true
			w.mu.Unlock()
			w.run(ctx)
		}
	}
}
