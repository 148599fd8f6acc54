package serve

import (
	"context"
	"os"
	"path/filepath"
	"sync"

	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/query"
)

// memoryFiles is the memory overlay of a repository: the memory files
// that differ from what the index holds, read from disk on every call so
// that a memory stored by this process, another server or a terminal
// command is answered at once. Files are identified by size, time and
// inode; a file is read again only when those change.
type memoryFiles struct {
	root   string
	repoID string

	mu    sync.Mutex
	cache map[string]cachedMemory // by repository-relative path
}

type cachedMemory struct {
	size, mtime int64
	ino         uint64
	file        *memoryfs.File // nil: the file has a problem
}

// NewMemoryOverlay returns the overlay of the memory files under root, for
// query.Index.MemoryFiles.
func NewMemoryOverlay(root string) query.MemoryOverlay {
	return &memoryFiles{root: root, repoID: memoryfs.RepoID(root), cache: map[string]cachedMemory{}}
}

// Diff implements query.MemoryOverlay. It applies the rules of the index
// run: malformed files are left out (a memory the index holds from such a
// file stays), and of two files with one id the first in path order
// counts.
func (o *memoryFiles) Diff(ctx context.Context, indexed map[string]query.IndexedMemory) ([]*query.Memory, []string, error) {
	entries, _ := memoryfs.List(o.root)
	o.mu.Lock()
	defer o.mu.Unlock()
	seen := map[string]bool{}
	live := map[string]bool{}
	broken := map[string]bool{}
	var changed []*query.Memory
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		live[e.Path] = true
		f := o.load(e)
		if f == nil {
			broken[e.Path] = true
			continue
		}
		if seen[f.Memory.ID] {
			continue
		}
		seen[f.Memory.ID] = true
		if im, ok := indexed[f.Memory.ID]; ok && im.FileHash == f.Hash && im.Path == f.Path {
			continue
		}
		changed = append(changed, toQueryMemory(f, o.repoID))
	}
	for p := range o.cache {
		if !live[p] {
			delete(o.cache, p)
		}
	}
	var gone []string
	for id, im := range indexed {
		// a file that no longer parses keeps the memory the index holds,
		// as the next index run will
		if !seen[id] && !broken[im.Path] {
			gone = append(gone, id)
		}
	}
	return changed, gone, nil
}

// load reads a listed file, or returns what was read of it before.
func (o *memoryFiles) load(e memoryfs.Entry) *memoryfs.File {
	c := cachedMemory{size: e.Size, mtime: e.ModTime.UnixNano(), ino: inodeOf(e.Info)}
	if old, ok := o.cache[e.Path]; ok && old.size == c.size && old.mtime == c.mtime && old.ino == c.ino {
		return old.file
	}
	f, _ := memoryfs.Load(o.root, e)
	c.file = f
	o.cache[e.Path] = c
	return f
}

func toQueryMemory(f *memoryfs.File, repoID string) *query.Memory {
	m := f.Memory
	q := &query.Memory{MemoryID: m.ID, Type: m.Type, Title: m.Title, Content: m.Content, Tags: m.Tags, Confidence: m.Confidence,
		SymbolIDs: m.Symbols, FileRelPaths: m.Files, Stale: m.Stale, StaleVersion: m.StaleVersion, Path: f.Path, Deleted: m.Deleted,
		ContentHash: memoryfs.ContentHash(repoID, m.Type, m.Title, m.Content), FileHash: f.Hash}
	q.SetCreated(m.CreatedAt)
	return q
}

// memoryPath is the absolute path of a repository-relative memory file.
func memoryPath(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

// fileExists reports whether p exists.
func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
