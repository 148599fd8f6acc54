package query

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sdl-dev/sdl/schema"
)

// StaleFiles returns those of paths whose content on disk differs from the
// indexed version.
func (x *Index) StaleFiles(ctx context.Context, paths []string) []string {
	return x.staleFiles(ctx, paths)
}

// staleFiles returns those of paths whose content on disk differs from
// the indexed version (or that are gone), so an answer never presents stale
// data as fresh. It hashes only the files it is given.
func (x *Index) staleFiles(ctx context.Context, paths []string) []string {
	if len(paths) == 0 || x.Root == "" {
		return nil
	}
	args := schema.Args(paths)
	rows, err := x.DB.QueryContext(ctx, `SELECT p.path, f.hash, f.size, f.mtime FROM files f JOIN paths p ON p.id = f.path_id
		WHERE f.to_seq IS NULL AND p.path IN (`+schema.Placeholders(len(paths))+`)`, args...)
	if err != nil {
		return nil
	}
	defer rows.Close()
	indexed := map[string]fileStamp{}
	for rows.Next() {
		var p string
		var f fileStamp
		if rows.Scan(&p, &f.hash, &f.size, &f.mtime) == nil {
			indexed[p] = f
		}
	}
	var stale []string
	for _, p := range paths {
		f, ok := indexed[p]
		if !ok {
			continue // not a source file of the index (a config file, say)
		}
		if x.sameStamp(p, f) {
			continue
		}
		h, err := x.fileHash(p)
		if err != nil || h != f.hash {
			stale = append(stale, p)
		}
	}
	return stale
}

// fileStamp is what the index holds of a file's content: its hash, and
// the size and modification time it was read at (mtime 0 when the index
// did not trust the time).
type fileStamp struct {
	hash        string
	size, mtime int64
}

// sameStamp tells whether the file on disk has the size and modification
// time the index read it at: the rule by which an index run takes a file
// as unchanged without reading it, so it is not read and hashed here
// either (a slice hashed 0.5 MB of its cards' files). An editor's buffer
// for the file is never taken as unchanged.
func (x *Index) sameStamp(rel string, f fileStamp) bool {
	if f.mtime == 0 {
		return false
	}
	if x.Unsaved != nil {
		if _, ok := x.Unsaved(rel); ok {
			return false
		}
	}
	st, err := os.Stat(filepath.Join(x.Root, filepath.FromSlash(rel)))
	return err == nil && st.Mode().IsRegular() && st.Size() == f.size && st.ModTime().UnixNano() == f.mtime
}

// fileHash is the content hash of a file (the index's: the first half of
// its SHA-256, in hex). An Index that answers many questions remembers the
// hash by the file's size and modification time: a slice hashed 0.5 MB of
// its cards' files each time, 8% of a server's slice.
func (x *Index) fileHash(rel string) (string, error) {
	if x.Unsaved != nil {
		if data, ok := x.Unsaved(rel); ok {
			return contentHash(data), nil
		}
	}
	name := filepath.Join(x.Root, filepath.FromSlash(rel))
	if x.oneShot {
		data, err := os.ReadFile(name)
		if err != nil {
			return "", err
		}
		return contentHash(data), nil
	}
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if h, ok := x.hashes.get(rel, st); ok {
		return h, nil
	}
	start := time.Now()
	data, err := io.ReadAll(f)
	if err != nil {
		return "", err
	}
	h := contentHash(data)
	x.hashes.put(rel, st, h, start)
	return h, nil
}

func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// racyWindow is how close to its hashing a file's modification time may
// be for the hash to be remembered: a write within the same clock tick as
// the read leaves the time as it was (git's "racily clean" files).
const racyWindow = 2 * time.Second

// maxHashedFiles bounds the hashes an Index remembers; past it, they are
// dropped and taken again as asked.
const maxHashedFiles = 1 << 14

// fileHashes remembers the content hashes of files by size and
// modification time.
type fileHashes struct {
	mu sync.Mutex
	m  map[string]fileHashEntry
}

type fileHashEntry struct {
	size  int64
	mtime time.Time
	hash  string
}

func (c *fileHashes) get(rel string, st os.FileInfo) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[rel]
	if !ok || e.size != st.Size() || !e.mtime.Equal(st.ModTime()) {
		return "", false
	}
	return e.hash, true
}

// put remembers the hash of a file read from start on, unless the file
// was modified too close to start to tell a later write apart.
func (c *fileHashes) put(rel string, st os.FileInfo, hash string, start time.Time) {
	if st.ModTime().After(start.Add(-racyWindow)) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxHashedFiles {
		c.m = map[string]fileHashEntry{}
	}
	c.m[rel] = fileHashEntry{size: st.Size(), mtime: st.ModTime(), hash: hash}
}

// FileSizes returns the indexed size in bytes of each of paths that is a
// current file.
func (x *Index) FileSizes(ctx context.Context, paths []string) (map[string]int64, error) {
	stats, err := x.FileStats(ctx, paths)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(stats))
	for p, s := range stats {
		out[p] = s.Size
	}
	return out, nil
}

// FileStat is the indexed size of a file.
type FileStat struct {
	Size  int64
	Lines int
}

// FileStats returns the indexed size in bytes and lines of each of paths
// that is a current file.
func (x *Index) FileStats(ctx context.Context, paths []string) (map[string]FileStat, error) {
	out := map[string]FileStat{}
	if len(paths) == 0 {
		return out, nil
	}
	args := schema.Args(paths)
	rows, err := x.DB.QueryContext(ctx, `SELECT p.path, f.size, f.lines FROM files f JOIN paths p ON p.id = f.path_id
		WHERE f.to_seq IS NULL AND p.path IN (`+schema.Placeholders(len(paths))+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var s FileStat
		if err := rows.Scan(&p, &s.Size, &s.Lines); err != nil {
			return nil, err
		}
		out[p] = s
	}
	return out, rows.Err()
}

// readFile reads a repository file, or the unsaved buffer that stands
// for it.
func (x *Index) readFile(rel string) ([]byte, error) {
	if x.Unsaved != nil {
		if data, ok := x.Unsaved(rel); ok {
			return data, nil
		}
	}
	return os.ReadFile(filepath.Join(x.Root, filepath.FromSlash(rel)))
}

// FileHashes returns the indexed content hash of each of paths that is a
// current file.
func (x *Index) FileHashes(ctx context.Context, paths []string) (map[string]string, error) {
	out := map[string]string{}
	if len(paths) == 0 {
		return out, nil
	}
	args := schema.Args(paths)
	rows, err := x.DB.QueryContext(ctx, `SELECT p.path, f.hash FROM files f JOIN paths p ON p.id = f.path_id
		WHERE f.to_seq IS NULL AND p.path IN (`+schema.Placeholders(len(paths))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read files: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p, h string
		if err := rows.Scan(&p, &h); err != nil {
			return nil, err
		}
		out[p] = h
	}
	return out, rows.Err()
}

// Diagnostic is a parse problem recorded for a file.
type Diagnostic struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// FileDiagnostics returns the parse status and diagnostics of each of
// paths that is a current file with problems.
func (x *Index) FileDiagnostics(ctx context.Context, paths []string) (map[string][]Diagnostic, error) {
	out := map[string][]Diagnostic{}
	if len(paths) == 0 {
		return out, nil
	}
	args := schema.Args(paths)
	rows, err := x.DB.QueryContext(ctx, `SELECT p.path, f.diagnostics FROM files f JOIN paths p ON p.id = f.path_id
		WHERE f.to_seq IS NULL AND f.diagnostics != '' AND p.path IN (`+schema.Placeholders(len(paths))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read diagnostics: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p, d string
		if err := rows.Scan(&p, &d); err != nil {
			return nil, err
		}
		var ds []Diagnostic
		if err := json.Unmarshal([]byte(d), &ds); err != nil {
			ds = []Diagnostic{{Message: d}}
		}
		out[p] = ds
	}
	return out, rows.Err()
}
