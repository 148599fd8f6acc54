package memoryfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Problem is a memory file that could not be used, and why. Scanning
// reports problems and goes on; it never fails on a file.
type Problem struct {
	Path    string `json:"path"` // repository-relative
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

func (p *Problem) Error() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Path, p.Message)
}

// Entry is a memory file found on disk, before it is read.
type Entry struct {
	Path    string // repository-relative, with '/'
	Size    int64
	ModTime time.Time
	Info    fs.FileInfo
}

// File is a memory file that was read and parsed.
type File struct {
	Path   string // repository-relative, with '/'
	Memory *Memory
	// Hash is the hash of the file's bytes (Hash).
	Hash string
}

// ScanResult is every memory file under a root: the valid ones in path
// order (deleted ones included, marked), and the problems with the others.
type ScanResult struct {
	Files    []File
	Problems []Problem
}

// List finds the .md files under root/.sdl-memory, in path order, without
// reading them. Symbolic links are not followed. A directory that cannot
// be read is a problem; a missing .sdl-memory is no memories.
func List(root string) ([]Entry, []Problem) {
	base := filepath.Join(root, Dir)
	var out []Entry
	var probs []Problem
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		rel := relTo(root, p)
		if err != nil {
			if p == base && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			probs = append(probs, Problem{Path: rel, Message: "cannot read: " + err.Error()})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			return nil
		}
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".tmp-") {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			probs = append(probs, Problem{Path: rel, Message: "a symbolic link; memory files must be regular files"})
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) { // removed meanwhile
				probs = append(probs, Problem{Path: rel, Message: "cannot read: " + err.Error()})
			}
			return nil
		}
		out = append(out, Entry{Path: rel, Size: fi.Size(), ModTime: fi.ModTime(), Info: fi})
		return nil
	})
	if err != nil && !errors.Is(err, fs.SkipAll) {
		probs = append(probs, Problem{Path: Dir, Message: "cannot read: " + err.Error()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, probs
}

func relTo(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// Load reads and parses one listed memory file. A file without memoryId
// takes its id from its name; one without createdAt takes its
// modification time.
func Load(root string, e Entry) (*File, *Problem) {
	data, err := readLimited(filepath.Join(root, filepath.FromSlash(e.Path)))
	if err != nil {
		return nil, &Problem{Path: e.Path, Message: "cannot read: " + err.Error()}
	}
	return LoadBytes(e.Path, data, e.ModTime)
}

// LoadBytes parses the bytes of the memory file at rel, as Load does.
func LoadBytes(rel string, data []byte, modTime time.Time) (*File, *Problem) {
	m, lines, err := parse(data)
	if err != nil {
		return nil, asProblem(rel, err)
	}
	if m.ID == "" {
		m.ID = strings.TrimSuffix(path.Base(rel), ".md")
		if !ValidID(m.ID) {
			return nil, &Problem{Path: rel, Line: 2, Message: "memoryId: missing, and the file name is not a valid id"}
		}
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = modTime.UTC().Truncate(time.Millisecond)
	}
	if err := m.Validate(); err != nil {
		return nil, asProblem(rel, lineOf(err, lines))
	}
	return &File{Path: rel, Memory: m, Hash: Hash(data)}, nil
}

// Scan reads every memory file under root. Files come in path order; when
// two files claim the same memoryId, the first keeps it and the second is
// a problem. Scan never fails: unreadable and malformed files are
// problems.
func Scan(root string) *ScanResult {
	entries, probs := List(root)
	res := &ScanResult{Problems: probs}
	byID := map[string]string{}
	for _, e := range entries {
		f, p := Load(root, e)
		if p != nil {
			res.Problems = append(res.Problems, *p)
			continue
		}
		if other, dup := byID[f.Memory.ID]; dup {
			res.Problems = append(res.Problems, Problem{Path: e.Path, Line: 2,
				Message: fmt.Sprintf("memoryId %s is already used by %s", f.Memory.ID, other)})
			continue
		}
		byID[f.Memory.ID] = e.Path
		res.Files = append(res.Files, *f)
	}
	sort.SliceStable(res.Problems, func(i, j int) bool { return res.Problems[i].Path < res.Problems[j].Path })
	return res
}

// Exists reports whether a memory file exists at rel.
func Exists(root, rel string) bool {
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}
