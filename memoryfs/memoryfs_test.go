package memoryfs

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// specExample is the memory file of the spec, byte for byte.
const specExample = `---
memoryId: a1b2c3d4e5f6g7h8
type: bugfix
title: Race condition in authenticate() session map
tags: [auth, concurrency, mutex]
confidence: 0.9
symbols: [sym_abc123, sym_def456]
files: [src/auth/authenticate.ts, src/auth/session-store.ts]
createdAt: 2026-03-15T10:30:00.000Z
deleted: false
---

The ` + "`authenticate()`" + ` function was reading and writing to the session map
without synchronization. Under concurrent requests, two sessions could
overwrite each other's tokens.

**Fix:** Added a mutex lock around the session map read-write block.
The lock is acquired before reading the current session state and released
after writing the new token. See commit abc1234.

**Root cause:** The session store was designed for single-threaded use
but started receiving concurrent calls after the connection pool was
introduced in v0.7.
`

func TestSpecExampleRoundTrip(t *testing.T) {
	m, err := Parse([]byte(specExample))
	if err != nil {
		t.Fatal(err)
	}
	want := Memory{ID: "a1b2c3d4e5f6g7h8", Type: TypeBugfix, Title: "Race condition in authenticate() session map",
		Tags: []string{"auth", "concurrency", "mutex"}, Confidence: 0.9, Symbols: []string{"sym_abc123", "sym_def456"},
		Files: []string{"src/auth/authenticate.ts", "src/auth/session-store.ts"}, CreatedAt: time.Date(2026, 3, 15, 10, 30, 0, 0, time.UTC)}
	if m.ID != want.ID || m.Type != want.Type || m.Title != want.Title || m.Confidence != want.Confidence ||
		!m.CreatedAt.Equal(want.CreatedAt) || m.Deleted || m.Stale ||
		fmt.Sprint(m.Tags, m.Symbols, m.Files) != fmt.Sprint(want.Tags, want.Symbols, want.Files) {
		t.Fatalf("parsed %+v\nwant %+v", m, want)
	}
	if !strings.HasPrefix(m.Content, "The `authenticate()` function") || !strings.HasSuffix(m.Content, "introduced in v0.7.") {
		t.Errorf("content %q", m.Content)
	}
	out, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != specExample {
		t.Errorf("marshal differs from the spec's file:\n%s", out)
	}
}

// TestGoldenFiles writes memories and compares the files with goldens,
// then reads the goldens back.
func TestGoldenFiles(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
	cases := map[string]*Memory{
		"decision": {ID: "0123456789abcdef", Type: TypeDecision, Title: "Use a mutex: not a concurrent map",
			Tags: []string{"auth", "a, b", "yes"}, Confidence: 0.95, Symbols: []string{"9f8e7d6c5b4a3210", "0000000000000001"},
			Fingerprints:       map[string]string{"9f8e7d6c5b4a3210": "00c0ffee00c0ffee", "0000000000000001": "1234567890123456"},
			FingerprintVersion: "2", CreatedAt: created, Content: "After investigating, a mutex.\n\n- ConcurrentHashMap: overhead\n---\nnot front matter\n"},
		"stale": {ID: "stale0000000001", Type: TypeBugfix, Title: "'quoted' title # with a hash", Confidence: 1,
			Files: []string{"src/a b.go"}, CreatedAt: created, Stale: true, StaleVersion: "v7", Content: "body"},
		"deleted": {ID: "deleted000000001", Type: TypeTaskContext, Title: "handoff", Confidence: 0, CreatedAt: created,
			Deleted: true, Content: "  indented\r\nwindows line\n\nlast"},
	}
	root := t.TempDir()
	for name, m := range cases {
		rel, data, err := Write(root, m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rel != RelPath(m.Type, m.ID) || !strings.HasPrefix(rel, ".sdl-memory/"+TypeDir(m.Type)+"/") {
			t.Errorf("%s: written to %s", name, rel)
		}
		disk, err := os.ReadFile(FilePath(root, m.Type, m.ID))
		if err != nil || !bytes.Equal(disk, data) {
			t.Fatalf("%s: file differs from the bytes returned: %v", name, err)
		}
		golden := filepath.Join("..", "testdata", "golden", "memoryfs", name+".md")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			os.WriteFile(golden, data, 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./memoryfs -update)", err)
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%s: file differs from %s:\n%s", name, golden, data)
		}
		back, err := Parse(want)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if back.Content != m.Content || back.Title != m.Title || back.Stale != m.Stale || back.StaleVersion != m.StaleVersion ||
			back.Deleted != m.Deleted || back.Confidence != m.Confidence || !back.CreatedAt.Equal(m.CreatedAt) ||
			fmt.Sprint(back.Tags, back.Symbols, back.Files) != fmt.Sprint(m.Tags, m.Symbols, m.Files) ||
			fmt.Sprint(back.Fingerprints) != fmt.Sprint(m.Fingerprints) || back.FingerprintVersion != m.FingerprintVersion {
			t.Errorf("%s: read back %+v, wrote %+v", name, back, m)
		}
	}
	// no temporary files are left behind
	leftovers, _ := filepath.Glob(filepath.Join(root, Dir, "*", ".tmp-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// A hand-written file keeps the keys sdl does not know when it is
// rewritten.
func TestUnknownKeysSurviveRewrite(t *testing.T) {
	in := "---\ntype: decision\ntitle: t\nowner: alice\nreviewers:\n  - bob\n---\nbody\n"
	m, _, err := parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	m.ID = "abc"
	m.Stale = true
	out, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "owner: alice\nreviewers:\n  - bob\n") || !strings.Contains(string(out), "stale: true") {
		t.Errorf("rewritten:\n%s", out)
	}
}

func valid() *Memory {
	return &Memory{ID: "0123456789abcdef", Type: TypeBugfix, Title: "t", Content: "c", Confidence: 0.5}
}

func TestValidateLimits(t *testing.T) {
	n := func(k int, prefix string) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return out
	}
	cases := []struct {
		name  string
		edit  func(m *Memory)
		field string // "" means valid
	}{
		{"title 120", func(m *Memory) { m.Title = strings.Repeat("é", 120) }, ""},
		{"title 121", func(m *Memory) { m.Title = strings.Repeat("é", 121) }, "title"},
		{"title empty", func(m *Memory) { m.Title = "" }, "title"},
		{"title blank", func(m *Memory) { m.Title = "  \t" }, "title"},
		{"content 50000", func(m *Memory) { m.Content = strings.Repeat("ü", 50000) }, ""},
		{"content 50001", func(m *Memory) { m.Content = strings.Repeat("ü", 50001) }, "content"},
		{"content empty", func(m *Memory) { m.Content = "" }, "content"},
		{"tags 20", func(m *Memory) { m.Tags = n(20, "t") }, ""},
		{"tags 21", func(m *Memory) { m.Tags = n(21, "t") }, "tags"},
		{"tag empty", func(m *Memory) { m.Tags = []string{""} }, "tags"},
		{"symbols 100", func(m *Memory) { m.Symbols = n(100, "s") }, ""},
		{"symbols 101", func(m *Memory) { m.Symbols = n(101, "s") }, "symbolIds"},
		{"files 100", func(m *Memory) { m.Files = n(100, "f") }, ""},
		{"files 101", func(m *Memory) { m.Files = n(101, "f") }, "fileRelPaths"},
		{"file outside", func(m *Memory) { m.Files = []string{"../etc/passwd"} }, "fileRelPaths"},
		{"file absolute", func(m *Memory) { m.Files = []string{"/etc/passwd"} }, "fileRelPaths"},
		{"confidence 0", func(m *Memory) { m.Confidence = 0 }, ""},
		{"confidence 1", func(m *Memory) { m.Confidence = 1 }, ""},
		{"confidence -0.01", func(m *Memory) { m.Confidence = -0.01 }, "confidence"},
		{"confidence 1.01", func(m *Memory) { m.Confidence = 1.01 }, "confidence"},
		{"confidence NaN", func(m *Memory) { m.Confidence = math.NaN() }, "confidence"},
		{"type", func(m *Memory) { m.Type = "note" }, "type"},
		{"id", func(m *Memory) { m.ID = "../x" }, "memoryId"},
		{"id 64", func(m *Memory) { m.ID = strings.Repeat("a", 64) }, ""},
		{"id 65", func(m *Memory) { m.ID = strings.Repeat("a", 65) }, "memoryId"},
	}
	for _, c := range cases {
		m := valid()
		c.edit(m)
		err := m.Validate()
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field != "" && err == nil:
			t.Errorf("%s: accepted", c.name)
		case c.field != "" && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.field+":")):
			t.Errorf("%s: error %q does not name %s", c.name, err, c.field)
		}
	}
}

func TestParseProblems(t *testing.T) {
	long := strings.Repeat("x", MaxContent+1)
	cases := []struct {
		name, text string
		line       int
		msg        string
	}{
		{"no front matter", "hello\n", 1, "starts with a --- line"},
		{"not closed", "---\ntype: bugfix\ntitle: t\n", 1, "not closed"},
		{"bad yaml", "---\ntype: bugfix\ntitle: c\n  d: e\n---\nbody\n", 4, "not valid YAML: mapping values are not allowed"},
		{"unknown type", "---\ntype: note\ntitle: t\n---\nbody\n", 2, "type"},
		{"missing title", "---\ntype: bugfix\n---\nbody\n", 2, "title: missing"},
		{"missing type", "---\ntitle: t\n---\nbody\n", 2, "type: missing"},
		{"empty front matter", "---\n---\nbody\n", 2, "empty"},
		{"not a mapping", "---\n- a\n---\nbody\n", 2, "mapping"},
		{"empty body", "---\ntype: bugfix\ntitle: t\n---\n\n", 5, "content: must not be empty"},
		{"oversized content", "---\ntype: bugfix\ntitle: t\n---\n\n" + long + "\n", 5, "content: at most 50000"},
		{"invalid utf-8", "---\ntype: bugfix\ntitle: t\n---\n\nok\nbad \xff here\n", 7, "invalid UTF-8"},
		{"bad confidence", "---\ntype: bugfix\ntitle: t\nconfidence: high\n---\nb\n", 4, "confidence"},
		{"confidence range", "---\ntype: bugfix\ntitle: t\nconfidence: 2\n---\nb\n", 4, "confidence"},
		{"bad time", "---\ntype: bugfix\ntitle: t\ncreatedAt: yesterday\n---\nb\n", 4, "createdAt"},
		{"bad bool", "---\ntype: bugfix\ntitle: t\ndeleted: maybe\n---\nb\n", 4, "deleted"},
		{"tags mapping", "---\ntype: bugfix\ntitle: t\ntags: {a: b}\n---\nb\n", 4, "tags"},
		{"duplicate key", "---\ntype: bugfix\ntitle: t\ntitle: u\n---\nb\n", 4, "given twice"},
		{"fingerprints list", "---\ntype: bugfix\ntitle: t\nfingerprints: [a]\n---\nb\n", 4, "fingerprints: must be a mapping"},
		{"fingerprint empty", "---\ntype: bugfix\ntitle: t\nfingerprints: {a: ''}\n---\nb\n", 4, "fingerprints: a symbol id and its fingerprint"},
		{"title list", "---\ntype: bugfix\ntitle: [a]\n---\nb\n", 3, "title"},
		{"too many tags", "---\ntype: bugfix\ntitle: t\ntags: [" + strings.Repeat("x,", 20) + "x]\n---\nb\n", 4, "tags: at most 20"},
	}
	for _, c := range cases {
		_, p := LoadBytes(".sdl-memory/bugfixes/m1.md", []byte(c.text), time.Unix(0, 0))
		if p == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if p.Line != c.line || !strings.Contains(p.Message, c.msg) || p.Path != ".sdl-memory/bugfixes/m1.md" {
			t.Errorf("%s: got %v, want line %d and %q", c.name, p, c.line, c.msg)
		}
	}
}

// A hand-written file may leave out memoryId (the file name is the id),
// createdAt (the file's time), confidence (0.8) and the lists.
func TestHandWrittenDefaults(t *testing.T) {
	mt := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)
	f, p := LoadBytes(".sdl-memory/decisions/why-sqlite.md", []byte("---\r\ntype: decision\r\ntitle: Why SQLite\r\n---\r\n\r\nOne file.\r\n"), mt)
	if p != nil {
		t.Fatal(p)
	}
	m := f.Memory
	if m.ID != "why-sqlite" || !m.CreatedAt.Equal(mt) || m.Confidence != DefaultConfidence || m.Content != "One file." || len(m.Tags) != 0 {
		t.Errorf("got %+v", m)
	}
	if _, p := LoadBytes(".sdl-memory/decisions/not an id.md", []byte("---\ntype: decision\ntitle: x\n---\nb\n"), mt); p == nil {
		t.Errorf("a file name that is not an id was accepted without memoryId")
	}
}

func TestScan(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".sdl-memory/bugfixes/aaaa.md", "---\nmemoryId: aaaa\ntype: bugfix\ntitle: one\n---\n\nbody\n")
	write(".sdl-memory/bugfixes/bad.md", "---\ntype: bugfix\ntitle: [x\n---\n\nbody\n")
	write(".sdl-memory/decisions/dup.md", "---\nmemoryId: aaaa\ntype: decision\ntitle: two\n---\n\nbody\n")
	write(".sdl-memory/decisions/gone.md", "---\ntype: decision\ntitle: gone\ndeleted: true\n---\n\nbody\n")
	write(".sdl-memory/task_context/notes.txt", "not a memory")
	write(".sdl-memory/task_context/.tmp-x.md-123", "partial")
	write(".sdl-memory/nested/deeper/cccc.md", "---\ntype: task_context\ntitle: deep\n---\n\nbody\n")
	write(".sdl-memory/big.md", strings.Repeat("x", MaxFileSize+1))
	if err := os.Symlink("/etc/passwd", filepath.Join(root, ".sdl-memory", "link.md")); err != nil {
		t.Fatal(err)
	}
	res := Scan(root)
	var got []string
	for _, f := range res.Files {
		got = append(got, fmt.Sprintf("%s:%s:%v", f.Path, f.Memory.ID, f.Memory.Deleted))
	}
	want := []string{".sdl-memory/bugfixes/aaaa.md:aaaa:false", ".sdl-memory/decisions/gone.md:gone:true", ".sdl-memory/nested/deeper/cccc.md:cccc:false"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("files %v, want %v", got, want)
	}
	var probs []string
	for _, p := range res.Problems {
		probs = append(probs, p.Error())
	}
	wantProbs := []string{".sdl-memory/big.md: cannot read", ".sdl-memory/bugfixes/bad.md:2: front matter is not valid YAML",
		".sdl-memory/decisions/dup.md:2: memoryId aaaa is already used by .sdl-memory/bugfixes/aaaa.md", ".sdl-memory/link.md: a symbolic link"}
	if len(probs) != len(wantProbs) {
		t.Fatalf("problems %q, want %q", probs, wantProbs)
	}
	for i := range wantProbs {
		if !strings.HasPrefix(probs[i], wantProbs[i]) {
			t.Errorf("problem %q, want %q...", probs[i], wantProbs[i])
		}
	}
	// no .sdl-memory at all: no memories, no problems
	if res := Scan(t.TempDir()); len(res.Files)+len(res.Problems) != 0 {
		t.Errorf("empty root: %+v", res)
	}
}

// Writers racing on one file leave one complete file, never a mix.
func TestConcurrentWritesAreAtomic(t *testing.T) {
	root := t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			m := valid()
			m.Content = strings.Repeat(fmt.Sprintf("writer %d ", i), 2000)
			if _, _, err := Write(root, m); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	f, err := Read(root, RelPath(TypeBugfix, "0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(f.Memory.Content, " ", 3)
	if f.Memory.Content != strings.Repeat(first[0]+" "+first[1]+" ", 2000) {
		t.Errorf("the file mixes writers")
	}
	entries, _ := os.ReadDir(filepath.Join(root, Dir, "bugfixes"))
	if len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1", len(entries))
	}
}

func TestRemoveRefusesOtherFiles(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "keep.md"), []byte("x"), 0o644)
	for _, rel := range []string{"keep.md", "../keep.md", ".sdl-memory/../keep.md"} {
		if err := Remove(root, rel); err == nil {
			t.Errorf("removed %s", rel)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "keep.md")); err != nil {
		t.Errorf("keep.md is gone")
	}
}

func TestContentHashAndIDs(t *testing.T) {
	a := ContentHash("r", "bugfix", "t", "c")
	if a != ContentHash("r", "bugfix", "t", "c") || len(a) != 64 {
		t.Fatalf("hash %q", a)
	}
	// fields do not run into each other
	if ContentHash("r", "bugfix", "tc", "") == ContentHash("r", "bugfix", "t", "c") {
		t.Errorf("title/content boundary is not part of the hash")
	}
	if id := IDFromHash(a); len(id) != 16 || !ValidID(id) {
		t.Errorf("derived id %q", id)
	}
	if r1, r2 := RandomID(), RandomID(); r1 == r2 || len(r1) != 16 {
		t.Errorf("random ids %q %q", r1, r2)
	}
}

// FuzzParse: the parser never panics, and whatever it accepts writes back
// to a file that reads the same.
func FuzzParse(f *testing.F) {
	f.Add([]byte(specExample))
	f.Add([]byte("---\ntype: decision\ntitle: x\nowner: {a: [1, 2]}\n---\n\nbody\n"))
	f.Add([]byte("---\r\ntype: task_context\r\ntitle: 'a: b'\r\nstale: true\r\nstaleVersion: v3\r\n---\r\n\r\nbody\r\n"))
	f.Add([]byte("---\ntype: bugfix\ntitle: |\n  multi\n  ---\n---\nx\n"))
	f.Add([]byte("---\nmemoryId: &a x\ntype: bugfix\ntitle: *a\n---\nx"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fl, p := LoadBytes(".sdl-memory/bugfixes/fuzz.md", data, time.Unix(1700000000, 0))
		if p != nil {
			if p.Message == "" {
				t.Fatalf("a problem without a message")
			}
			return
		}
		out, err := Marshal(fl.Memory)
		if err != nil {
			t.Fatalf("accepted but cannot write: %v", err)
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("wrote a file it cannot read: %v\n%s", err, out)
		}
		out2, err := Marshal(again)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("round trip differs:\n%s\n---- vs ----\n%s", out, out2)
		}
		if again.Content != fl.Memory.Content || again.Title != fl.Memory.Title {
			t.Fatalf("content or title changed in a round trip")
		}
	})
}
