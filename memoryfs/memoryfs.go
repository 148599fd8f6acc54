// Package memoryfs reads and writes development memories as markdown files:
// .sdl-memory/<type-dir>/<memoryId>.md, YAML front matter and a markdown
// body. The files are the source of truth for memories: they are committed
// with the code, and every index run imports them. Writes are atomic (a
// temporary file renamed over the old one), so readers and other writers
// never see half a file. It imports nothing of sdl's.
package memoryfs

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// Dir is the directory of memory files under a repository root.
const Dir = ".sdl-memory"

// Memory types.
const (
	TypeDecision    = "decision"
	TypeBugfix      = "bugfix"
	TypeTaskContext = "task_context"
)

// Types lists the memory types in the order the spec gives them.
var Types = []string{TypeDecision, TypeBugfix, TypeTaskContext}

// typeDirs maps a type to its directory under Dir.
var typeDirs = map[string]string{
	TypeDecision:    "decisions",
	TypeBugfix:      "bugfixes",
	TypeTaskContext: "task_context",
}

// Limits of a memory (the spec's sdl.memory.store).
const (
	MaxTitle          = 120   // characters
	MaxContent        = 50000 // characters
	MaxTags           = 20
	MaxLinks          = 100 // symbols, and files
	MaxIDLen          = 64
	DefaultConfidence = 0.8
	// MaxFileSize bounds a memory file read from disk: the largest valid
	// memory is far smaller, and a bigger file is not read whole.
	MaxFileSize = 1 << 20
)

// ErrInvalid means a memory breaks a rule of the format or a limit; the
// message names the field.
var ErrInvalid = errors.New("invalid memory")

// Memory is one memory file.
type Memory struct {
	ID           string
	Type         string
	Title        string
	Tags         []string
	Confidence   float64
	Symbols      []string // symbol ids
	Files        []string // repository-relative paths
	CreatedAt    time.Time
	Deleted      bool
	Stale        bool
	StaleVersion string
	// Fingerprints record what the memory was written against: for each
	// linked symbol, the fingerprint of its code as the writer saw it (an
	// editor buffer, or a file newer than the index). The index compares
	// them with the code when it imports the file, so a change made between
	// storing and indexing flags the memory stale. FingerprintVersion names
	// the extraction that computed them; other versions are not compared.
	Fingerprints       map[string]string
	FingerprintVersion string
	// Content is the markdown body.
	Content string

	// extra holds front matter keys sdl does not know, kept in order so
	// that rewriting a hand-written file loses nothing.
	extra []extraField
}

// TypeDir returns the directory name of a memory type ("" if unknown).
func TypeDir(typ string) string { return typeDirs[typ] }

// ValidType reports whether typ is a memory type.
func ValidType(typ string) bool { return typeDirs[typ] != "" }

// RelPath is the repository-relative path of a memory's file, with '/'.
func RelPath(typ, id string) string {
	return path.Join(Dir, TypeDir(typ), id+".md")
}

// FilePath is the path of a memory's file under root.
func FilePath(root, typ, id string) string {
	return filepath.Join(root, filepath.FromSlash(RelPath(typ, id)))
}

// ContentHash is the deduplication key of a memory: SHA-256 over repoId,
// type, title and content, each followed by a NUL byte so that no two
// different tuples hash the same text.
func ContentHash(repoID, typ, title, content string) string {
	h := sha256.New()
	for _, s := range []string{repoID, typ, title, content} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// RepoID is the repository id that content hashes use: the name of the
// repository's directory, as the index records it.
func RepoID(root string) string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return filepath.Base(root)
}

// IDFromHash derives a memory id from a content hash: its first 16 hex
// digits. Deriving ids from content means two writers storing the same
// memory at once write the same file instead of two copies.
func IDFromHash(contentHash string) string {
	if len(contentHash) < 16 {
		return contentHash
	}
	return contentHash[:16]
}

// RandomID returns 16 random hex digits, for when the derived id is taken
// by another memory.
func RandomID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported platforms; fall back to
		// the clock rather than panic
		return fmt.Sprintf("%016x", time.Now().UnixNano())
	}
	return hex.EncodeToString(b[:])
}

// ValidID reports whether id can name a memory file: 1-64 ASCII letters,
// digits, '-' and '_' (the spec's example "a1b2c3d4e5f6g7h8" is not hex).
func ValidID(id string) bool {
	if id == "" || len(id) > MaxIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Validate checks every rule and limit of a memory. Errors wrap ErrInvalid
// and start with the field they are about.
func (m *Memory) Validate() error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrInvalid, field, fmt.Sprintf(format, args...))
	}
	if !ValidID(m.ID) {
		return bad("memoryId", "%q is not an id: use 1-%d letters, digits, '-' or '_'", m.ID, MaxIDLen)
	}
	if !ValidType(m.Type) {
		return bad("type", "%q is not a memory type: use decision, bugfix or task_context", m.Type)
	}
	if !utf8.ValidString(m.Title) || !utf8.ValidString(m.Content) {
		return bad("content", "not valid UTF-8")
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(m.Title)); n == 0 {
		return bad("title", "must not be empty")
	}
	if n := utf8.RuneCountInString(m.Title); n > MaxTitle {
		return bad("title", "at most %d characters, got %d", MaxTitle, n)
	}
	if strings.TrimSpace(m.Content) == "" {
		return bad("content", "must not be empty")
	}
	if n := utf8.RuneCountInString(m.Content); n > MaxContent {
		return bad("content", "at most %d characters, got %d", MaxContent, n)
	}
	if len(m.Tags) > MaxTags {
		return bad("tags", "at most %d, got %d", MaxTags, len(m.Tags))
	}
	for _, t := range m.Tags {
		if strings.TrimSpace(t) == "" || !utf8.ValidString(t) {
			return bad("tags", "a tag must be a non-empty string")
		}
	}
	if m.Confidence < 0 || m.Confidence > 1 || m.Confidence != m.Confidence {
		return bad("confidence", "must be between 0 and 1, got %v", m.Confidence)
	}
	if len(m.Symbols) > MaxLinks {
		return bad("symbolIds", "at most %d, got %d", MaxLinks, len(m.Symbols))
	}
	for _, s := range m.Symbols {
		if strings.TrimSpace(s) == "" || !utf8.ValidString(s) {
			return bad("symbolIds", "a symbol id must be a non-empty string")
		}
	}
	if len(m.Files) > MaxLinks {
		return bad("fileRelPaths", "at most %d, got %d", MaxLinks, len(m.Files))
	}
	for _, f := range m.Files {
		if err := checkRelPath(f); err != nil {
			return bad("fileRelPaths", "%v", err)
		}
	}
	if len(m.Fingerprints) > MaxLinks {
		return bad("fingerprints", "at most %d, got %d", MaxLinks, len(m.Fingerprints))
	}
	for id, fp := range m.Fingerprints {
		if strings.TrimSpace(id) == "" || strings.TrimSpace(fp) == "" || !utf8.ValidString(id) || !utf8.ValidString(fp) {
			return bad("fingerprints", "a symbol id and its fingerprint must be non-empty strings")
		}
	}
	return nil
}

// checkRelPath refuses paths that are empty, absolute or leave the
// repository.
func checkRelPath(p string) error {
	if strings.TrimSpace(p) == "" || !utf8.ValidString(p) {
		return errors.New("a path must be a non-empty string")
	}
	clean := path.Clean(filepath.ToSlash(p))
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Errorf("%q is outside the repository; give a path relative to the repository root", p)
	}
	return nil
}

// Write writes m to its file under root atomically: the bytes go to a
// temporary file in the same directory, which is synced and renamed over
// the file. It returns the file's repository-relative path and bytes.
func Write(root string, m *Memory) (string, []byte, error) {
	if err := m.Validate(); err != nil {
		return "", nil, err
	}
	data, err := Marshal(m)
	if err != nil {
		return "", nil, err
	}
	rel := RelPath(m.Type, m.ID)
	if err := WriteFile(filepath.Join(root, filepath.FromSlash(rel)), data); err != nil {
		return "", nil, err
	}
	return rel, data, nil
}

// WriteFile replaces the file at p with data atomically, creating its
// directory.
func WriteFile(p string, data []byte) error {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write memory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(p)+"-*")
	if err != nil {
		return fmt.Errorf("write memory: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write memory %s: %w", p, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Read reads and parses the memory file at rel (repository-relative), as
// Scan does. A problem with the file is a *Problem naming it and the line.
func Read(root, rel string) (*File, error) {
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, &Problem{Path: rel, Message: "cannot read: " + err.Error()}
	}
	f, p := Load(root, Entry{Path: rel, Size: fi.Size(), ModTime: fi.ModTime(), Info: fi})
	if p != nil {
		return nil, p
	}
	return f, nil
}

// readLimited reads a file of at most MaxFileSize bytes.
func readLimited(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("file is %d bytes, over the %d-byte limit of a memory file", fi.Size(), MaxFileSize)
	}
	// read one byte past the size: a file that grew since Stat is over
	// the limit too, and is never read whole
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("file is over the %d-byte limit of a memory file", MaxFileSize)
	}
	return data, nil
}

// Remove deletes the file of a memory at rel (repository-relative).
func Remove(root, rel string) error {
	if err := checkRelPath(rel); err != nil || !strings.HasPrefix(path.Clean(rel), Dir+"/") {
		return fmt.Errorf("remove memory: %q is not a memory file", rel)
	}
	err := os.Remove(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove memory: %w", err)
	}
	return nil
}

// Hash is the hash of a memory file's bytes, which tells a changed file
// from an unchanged one.
func Hash(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:16])
}

// FormatTime renders a creation time as the spec does:
// 2026-03-15T10:30:00.000Z.
func FormatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}
