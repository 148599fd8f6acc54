package index

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/sdl-dev/sdl/lang"
)

// factStore keeps what a full build resolves once every file is parsed:
// each file's symbols (lightened), imports and references. It holds them
// in memory up to a byte budget and writes the rest to a temporary file,
// so the memory of a build does not grow with the size of the tree.
type factStore struct {
	budget int64
	used   int64
	mem    []*fileResult // nil where spilled
	offs   []int64
	lens   []int
	f      *os.File
	size   int64
	buf    bytes.Buffer
	spills int
}

// DefaultMemoryBudget is what parse results may hold in memory during a
// full build before they are spilled to disk.
const DefaultMemoryBudget = 256 << 20

// spilled is a file result as written to the spill file.
type spilled struct {
	Path  string
	Lang  string
	IDs   []string
	Facts *lang.FileFacts
}

func newFactStore(budget int64, dir string) *factStore {
	return &factStore{budget: budget}
}

// put keeps r, in memory or on disk. In memory, resolution reads a file's
// symbols through r.targets (the build's table holds them anyway), so the
// symbols themselves go: on GOROOT/src they were a sixth of the live heap
// at the build's peak.
func (s *factStore) put(r *fileResult, dir string) error {
	n := factSize(r)
	if s.used+n <= s.budget && r.targets != nil {
		s.used += n
		r.facts.Symbols = nil
		// an exact-size copy: the spare capacity that append left would
		// stay live until resolution (28 of 211 MB of the live heap on
		// GOROOT/src); lang.Extract's are exact already
		if cap(r.facts.Refs) > len(r.facts.Refs) {
			r.facts.Refs = slices.Clip(append([]lang.Ref(nil), r.facts.Refs...))
		}
		s.mem = append(s.mem, r)
		s.offs, s.lens = append(s.offs, 0), append(s.lens, 0)
		return nil
	}
	if s.f == nil {
		f, err := os.CreateTemp(dir, "sdl-spill-*")
		if err != nil {
			return fmt.Errorf("spill parse results: %w", err)
		}
		// the file is only ours: gone when closed, even after a crash
		os.Remove(f.Name())
		s.f = f
	}
	lighten(r)
	s.buf.Reset()
	if err := gob.NewEncoder(&s.buf).Encode(&spilled{Path: r.entry.Path, Lang: r.entry.Lang.Name, IDs: r.ids, Facts: r.facts}); err != nil {
		return fmt.Errorf("spill %s: %w", r.entry.Path, err)
	}
	if _, err := s.f.WriteAt(s.buf.Bytes(), s.size); err != nil {
		return fmt.Errorf("spill parse results: %w", err)
	}
	s.mem = append(s.mem, nil)
	s.offs, s.lens = append(s.offs, s.size), append(s.lens, s.buf.Len())
	s.size += int64(s.buf.Len())
	s.spills++
	return nil
}

func (s *factStore) len() int { return len(s.mem) }

// get returns result i; safe for concurrent use.
func (s *factStore) get(i int) (*fileResult, error) {
	if r := s.mem[i]; r != nil {
		return r, nil
	}
	buf := make([]byte, s.lens[i])
	if _, err := s.f.ReadAt(buf, s.offs[i]); err != nil {
		return nil, fmt.Errorf("read spilled parse results: %w", err)
	}
	var sp spilled
	if err := gob.NewDecoder(bytes.NewReader(buf)).Decode(&sp); err != nil {
		return nil, fmt.Errorf("read spilled parse results: %w", err)
	}
	return &fileResult{entry: Entry{Path: sp.Path, Lang: lang.ByName(sp.Lang)}, ids: sp.IDs, facts: sp.Facts, status: StatusOK}, nil
}

// drop releases result i once it is resolved.
func (s *factStore) drop(i int) {
	if s.mem[i] != nil {
		s.mem[i].facts = nil
		s.mem[i] = nil
	}
}

func (s *factStore) close() {
	if s.f != nil {
		s.f.Close()
	}
}

// factSize estimates the bytes a result held in memory keeps: its ids,
// references and imports (its symbols are the table's targets).
func factSize(r *fileResult) int64 {
	n := 200 + 40*len(r.ids)
	for _, id := range r.ids {
		n += len(id)
	}
	for i := range r.facts.Refs {
		ref := &r.facts.Refs[i]
		n += 96 + len(ref.Name) + len(ref.Qualifier) + len(ref.QualifierType) + len(ref.QualifierCall)
	}
	for i := range r.facts.Imports {
		imp := &r.facts.Imports[i]
		n += 96 + len(imp.Source) + len(imp.Alias) + 40*len(imp.Names)
	}
	return int64(n)
}

// spillDir is where a build spills: next to the index, on the disk that
// has room for it.
func spillDir(db string) string { return filepath.Dir(db) }
