package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/schema"
)

// memRepo copies the Go fixture and indexes it.
func memRepo(t *testing.T) (root, db string) {
	t.Helper()
	root = filepath.Join(t.TempDir(), "shop")
	copyDir(t, "../testdata/repos/go", root)
	db = filepath.Join(root, ".sdl", "index.db")
	run(t, root, db)
	return root, db
}

func run(t *testing.T, root, db string) *Summary {
	t.Helper()
	sum, err := Run(context.Background(), testOptions(root, db))
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func openDB(t *testing.T, db string) *sql.DB {
	t.Helper()
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// symID finds the current id of a symbol by qualified name.
func symID(t *testing.T, db, qualified string) string {
	t.Helper()
	var id string
	if err := openDB(t, db).QueryRow(`SELECT id FROM symbols WHERE to_seq IS NULL AND qualified = ?`, qualified).Scan(&id); err != nil {
		t.Fatalf("symbol %s: %v", qualified, err)
	}
	return id
}

func storeMemory(t *testing.T, root string, m *memoryfs.Memory) {
	t.Helper()
	if m.CreatedAt.IsZero() {
		m.CreatedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if m.Confidence == 0 {
		m.Confidence = 0.9
	}
	if _, _, err := memoryfs.Write(root, m); err != nil {
		t.Fatal(err)
	}
}

type memState struct {
	stale   bool
	version string
	symbols string
	deleted bool
}

func memories(t *testing.T, db string) map[string]memState {
	t.Helper()
	conn := openDB(t, db)
	rows, err := conn.Query(`SELECT m.id, m.stale, m.stale_version, m.deleted,
		COALESCE((SELECT group_concat(symbol_id, ',') FROM (SELECT symbol_id FROM memory_symbols s WHERE s.memory_id = m.id ORDER BY symbol_id)), '')
		FROM memories m`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]memState{}
	for rows.Next() {
		var id string
		var s memState
		if err := rows.Scan(&id, &s.stale, &s.version, &s.deleted, &s.symbols); err != nil {
			t.Fatal(err)
		}
		out[id] = s
	}
	return out
}

func TestMemoryImport(t *testing.T) {
	root, db := memRepo(t)
	add := symID(t, db, "Store.Add")
	storeMemory(t, root, &memoryfs.Memory{ID: "m1", Type: memoryfs.TypeBugfix, Title: "Add panics on nil", Content: "Guard added.", Symbols: []string{add}})
	writeFile(t, root, ".sdl-memory/decisions/why-json.md", "---\ntype: decision\ntitle: Why JSON\ntags: [storage]\n---\n\nOne file, readable.\n")
	writeFile(t, root, ".sdl-memory/decisions/off.md", "---\ntype: decision\ntitle: Old\ndeleted: true\n---\n\nNo longer true.\n")
	writeFile(t, root, ".sdl-memory/bugfixes/broken.md", "---\ntype: bugfix\ntitle: x\n  bad: indent\n---\nbody\n")
	sum := run(t, root, db) // no code change: the up-to-date run still imports
	if sum.NewVersion {
		t.Errorf("memory files alone made a new version")
	}
	ms := sum.Memories
	if ms == nil || ms.Imported != 2 || ms.Memories != 2 || len(ms.Problems) != 1 || ms.Problems[0].Path != ".sdl-memory/bugfixes/broken.md" || ms.Problems[0].Line != 4 {
		t.Fatalf("summary %+v", ms)
	}
	got := memories(t, db)
	if len(got) != 3 || got["m1"].symbols != add || got["m1"].stale || !got["off"].deleted || got["why-json"].deleted {
		t.Fatalf("memories %+v", got)
	}
	var n int
	openDB(t, db).QueryRow(`SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH 'readable'`).Scan(&n)
	if n != 1 {
		t.Errorf("full text finds %d memories for 'readable', want 1", n)
	}
	// nothing changed: nothing imported again
	if sum := run(t, root, db); sum.Memories.Imported != 0 || sum.Memories.Removed != 0 {
		t.Errorf("second run %+v", sum.Memories)
	}
	// a file removed: its memory goes; a file now deleted: true is removed
	os.Remove(filepath.Join(root, ".sdl-memory/bugfixes/m1.md"))
	replaceIn(t, root, ".sdl-memory/decisions/why-json.md", "title: Why JSON", "title: Why JSON\ndeleted: true")
	sum = run(t, root, db)
	if sum.Memories.Removed != 2 || sum.Memories.Memories != 0 {
		t.Errorf("after removal %+v", sum.Memories)
	}
	got = memories(t, db)
	if _, ok := got["m1"]; ok || !got["why-json"].deleted {
		t.Errorf("memories %+v", got)
	}
	openDB(t, db).QueryRow(`SELECT COUNT(*) FROM memories_fts`).Scan(&n)
	if n != 0 {
		t.Errorf("%d full-text rows left for removed memories", n)
	}
}

func TestMemoryStaleness(t *testing.T) {
	root, db := memRepo(t)
	add, get, value, sorted := symID(t, db, "Store.Add"), symID(t, db, "Store.Get"), symID(t, db, "Store.Value"), symID(t, db, "Store.sortedIDs")
	storeMemory(t, root, &memoryfs.Memory{ID: "edited", Type: memoryfs.TypeBugfix, Title: "Add", Content: "about Add", Symbols: []string{add, get}})
	storeMemory(t, root, &memoryfs.Memory{ID: "moved", Type: memoryfs.TypeDecision, Title: "Get", Content: "about Get", Symbols: []string{get}})
	storeMemory(t, root, &memoryfs.Memory{ID: "renamed", Type: memoryfs.TypeDecision, Title: "sortedIDs", Content: "about sortedIDs", Symbols: []string{sorted}})
	storeMemory(t, root, &memoryfs.Memory{ID: "removed", Type: memoryfs.TypeTaskContext, Title: "Value", Content: "about Value", Symbols: []string{value}})
	storeMemory(t, root, &memoryfs.Memory{ID: "repo", Type: memoryfs.TypeDecision, Title: "repo-level", Content: "no links"})
	run(t, root, db)

	// Add's body changes; Get only moves down (a comment line above);
	// sortedIDs is renamed with its body unchanged; Value is deleted
	replaceIn(t, root, "store/store.go", `panic("store: nil item")`, `return ErrNil`)
	replaceIn(t, root, "store/store.go", "// Get returns the item with this id.", "//\n// Get returns the item with this id.")
	replaceIn(t, root, "store/store.go", "func (s *Store) sortedIDs() []string {", "func (s *Store) orderedIDs() []string {")
	replaceIn(t, root, "store/store.go", "s.sortedIDs()", "s.orderedIDs()")
	replaceIn(t, root, "store/store.go", "// Value sums the totals of all items.\nfunc (s *Store) Value() float64 {", "func (s *Store) value() float64 {")
	sum := run(t, root, db)
	if !sum.NewVersion || sum.Version != "v2" {
		t.Fatalf("no new version: %+v", sum)
	}
	ordered := symID(t, db, "Store.orderedIDs")
	got := memories(t, db)
	if s := got["edited"]; !s.stale || s.version != "v2" {
		t.Errorf("memory of an edited symbol: %+v", s)
	}
	if s := got["moved"]; s.stale {
		t.Errorf("memory of a symbol that only moved is stale: %+v", s)
	}
	if s := got["renamed"]; !s.stale || s.symbols != ordered {
		t.Errorf("memory of a renamed symbol: %+v, want stale and linked to %s", s, ordered)
	}
	if s := got["removed"]; !s.stale || s.symbols != value {
		t.Errorf("memory of a removed symbol: %+v", s)
	}
	if got["repo"].stale {
		t.Errorf("a repo-level memory is stale")
	}
	if sum.Memories.Stale != 3 || sum.Memories.Relinked != 1 {
		t.Errorf("summary %+v", sum.Memories)
	}
	// the flag and the new link are in the files
	f, err := memoryfs.Read(root, memoryfs.RelPath(memoryfs.TypeDecision, "renamed"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Memory.Stale || f.Memory.StaleVersion != "v2" || fmt.Sprint(f.Memory.Symbols) != fmt.Sprint([]string{ordered}) {
		t.Errorf("file %+v", f.Memory)
	}
	// rewriting the files is not an import: the next run changes nothing
	if sum := run(t, root, db); sum.Memories.Imported != 0 || sum.NewVersion {
		t.Errorf("run after flagging: %+v", sum.Memories)
	}

	// a rebuild from scratch keeps the flags the files hold
	os.Remove(db)
	run(t, root, db)
	got = memories(t, db)
	if !got["edited"].stale || got["edited"].version != "v2" || got["moved"].stale {
		t.Errorf("after a rebuild: %+v", got)
	}

	// storing again (the file rewritten without the flag) clears it
	f, _ = memoryfs.Read(root, memoryfs.RelPath(memoryfs.TypeBugfix, "edited"))
	f.Memory.Stale, f.Memory.StaleVersion = false, ""
	memoryfs.Write(root, f.Memory)
	run(t, root, db)
	if got := memories(t, db); got["edited"].stale {
		t.Errorf("an updated memory is still stale")
	}
}

// A memory file changed in the same run as its symbol is about the new
// code: it is not flagged.
func TestMemoryUpdatedWithCodeIsNotStale(t *testing.T) {
	root, db := memRepo(t)
	add := symID(t, db, "Store.Add")
	storeMemory(t, root, &memoryfs.Memory{ID: "m", Type: memoryfs.TypeBugfix, Title: "Add", Content: "v1", Symbols: []string{add}})
	run(t, root, db)
	replaceIn(t, root, "store/store.go", `panic("store: nil item")`, `return ErrNil`)
	storeMemory(t, root, &memoryfs.Memory{ID: "m", Type: memoryfs.TypeBugfix, Title: "Add", Content: "v2: returns ErrNil", Symbols: []string{add}})
	run(t, root, db)
	if got := memories(t, db); got["m"].stale {
		t.Errorf("flagged: %+v", got["m"])
	}
}

// A memory's recorded fingerprints are compared at import, in a full
// build too: the one written against other code is flagged, the one
// written against this code is not, and one recorded by another
// extraction version is not compared.
func TestMemoryFingerprintsComparedAtImport(t *testing.T) {
	root, db := memRepo(t)
	add := symID(t, db, "Store.Add")
	src, err := os.ReadFile(filepath.Join(root, "store", "store.go"))
	if err != nil {
		t.Fatal(err)
	}
	fps, err := Fingerprints("store/store.go", src)
	if err != nil {
		t.Fatal(err)
	}
	var indexed string
	openDB(t, db).QueryRow(`SELECT fingerprint FROM symbols WHERE id = ? AND to_seq IS NULL`, add).Scan(&indexed)
	if fps[add] == "" || fps[add] != indexed {
		t.Fatalf("Fingerprints gives %q for Store.Add, the index %q", fps[add], indexed)
	}
	if _, err := Fingerprints("README.txt", []byte("text")); !errors.Is(err, ErrNotCode) {
		t.Errorf("a file of no language: %v", err)
	}
	for id, fp := range map[string]string{"same": fps[add], "other": "0000000000000000"} {
		storeMemory(t, root, &memoryfs.Memory{ID: id, Type: memoryfs.TypeBugfix, Title: id, Content: id, Symbols: []string{add},
			Fingerprints: map[string]string{add: fp}, FingerprintVersion: ExtractVersion})
	}
	storeMemory(t, root, &memoryfs.Memory{ID: "older", Type: memoryfs.TypeBugfix, Title: "older", Content: "older", Symbols: []string{add},
		Fingerprints: map[string]string{add: "0000000000000000"}, FingerprintVersion: "0"})
	sum := run(t, root, db)
	if sum.Memories.Imported != 3 || sum.Memories.Stale != 1 {
		t.Errorf("incremental run: %+v", sum.Memories)
	}
	check := func(when string) {
		got := memories(t, db)
		if got["same"].stale || !got["other"].stale || got["older"].stale {
			t.Errorf("%s: %+v", when, got)
		}
	}
	check("incremental run")
	f, err := memoryfs.Read(root, memoryfs.RelPath(memoryfs.TypeBugfix, "other"))
	if err != nil || !f.Memory.Stale || f.Memory.Fingerprints[add] != "0000000000000000" {
		t.Errorf("the file of the flagged memory: %v %+v", err, f)
	}
	// a rebuild imports every file again, and agrees
	os.Remove(db)
	run(t, root, db)
	check("rebuild")
}

func TestFeedbackImport(t *testing.T) {
	root, db := memRepo(t)
	side := schema.FeedbackPath(db)
	for i := 0; i < 3; i++ {
		if err := schema.AppendFeedback(side, &schema.Feedback{FeedbackID: fmt.Sprintf("f%d", i), VersionID: "v1", SliceHandle: "h",
			UsefulSymbols: []string{"a", "b"}, MissingSymbols: []string{"c"}, TaskText: "fix add", CreatedAt: "2026-01-01T00:00:00Z"}); err != nil {
			t.Fatal(err)
		}
	}
	// a line still being written, and one that is not a record
	fh, _ := os.OpenFile(side, os.O_APPEND|os.O_WRONLY, 0o644)
	fh.WriteString("not json\n{\"feedbackId\": \"f9\", \"versionId\"")
	fh.Close()
	sum := run(t, root, db)
	if sum.Memories.FeedbackImported != 3 || sum.Memories.FeedbackSkipped != 1 {
		t.Fatalf("summary %+v", sum.Memories)
	}
	fh, _ = os.OpenFile(side, os.O_APPEND|os.O_WRONLY, 0o644)
	fh.WriteString(`: "v1", "sliceHandle": "h", "usefulSymbols": ["a"], "createdAt": "2026-01-02T00:00:00Z"}` + "\n")
	fh.Close()
	sum = run(t, root, db)
	if sum.Memories.FeedbackImported != 1 {
		t.Fatalf("second run %+v", sum.Memories)
	}
	var n, useful int
	conn := openDB(t, db)
	conn.QueryRow(`SELECT COUNT(*) FROM feedback`).Scan(&n)
	conn.QueryRow(`SELECT COUNT(*) FROM feedback_symbols WHERE symbol_id = 'a' AND missing = 0`).Scan(&useful)
	if n != 4 || useful != 4 {
		t.Errorf("%d records, %d useful links to a; want 4 and 4", n, useful)
	}
	// a rebuild imports the whole file again
	os.Remove(db)
	if sum := run(t, root, db); sum.Memories.FeedbackImported != 4 {
		t.Errorf("rebuild imported %d", sum.Memories.FeedbackImported)
	}
}

// Corrupted, truncated and oversized memory files are recorded problems
// that name the file; the run succeeds, the other memories are imported
// whole, and a memory whose file breaks keeps what it last held.
func TestCorruptMemoryFiles(t *testing.T) {
	root, db := memRepo(t)
	add := symID(t, db, "Store.Add")
	storeMemory(t, root, &memoryfs.Memory{ID: "good", Type: memoryfs.TypeBugfix, Title: "Add panics on nil", Content: "Guard added before the map write.", Symbols: []string{add}})
	storeMemory(t, root, &memoryfs.Memory{ID: "victim", Type: memoryfs.TypeDecision, Title: "Why JSON", Content: "One readable file per store.", Tags: []string{"storage"}})
	if sum := run(t, root, db); sum.Memories.Imported != 2 {
		t.Fatalf("first import %+v", sum.Memories)
	}

	// binary garbage: invalid UTF-8 and NUL bytes
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(i*131 + 7)
	}
	writeFile(t, root, ".sdl-memory/bugfixes/garbage.md", string(garbage))
	// valid UTF-8 that is not a memory: NUL bytes and no front matter
	writeFile(t, root, ".sdl-memory/bugfixes/nul.md", "\x00\x00\x00---\x00")
	// front matter cut off mid-way, as by a crash during a copy
	writeFile(t, root, ".sdl-memory/decisions/truncated.md", "---\nmemoryId: truncated\ntype: decision\ntitle: Half a")
	// a file far over the size of any memory
	writeFile(t, root, ".sdl-memory/task_context/huge.md", "---\ntype: task_context\ntitle: huge\n---\n\n"+strings.Repeat("x", memoryfs.MaxFileSize))
	// an empty file
	writeFile(t, root, ".sdl-memory/task_context/empty.md", "")
	// a memory that was imported, then truncated in its front matter (a
	// merge conflict or an interrupted editor would do the same)
	victim := filepath.Join(root, ".sdl-memory/decisions/victim.md")
	data, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(victim, data[:40], 0o644); err != nil {
		t.Fatal(err)
	}

	sum, err := Run(context.Background(), testOptions(root, db))
	if err != nil {
		t.Fatalf("a corrupt memory file failed the run: %v", err)
	}
	ms := sum.Memories
	want := map[string]string{
		".sdl-memory/bugfixes/garbage.md":    "invalid UTF-8",
		".sdl-memory/bugfixes/nul.md":        "starts with a --- line",
		".sdl-memory/decisions/truncated.md": "not closed",
		".sdl-memory/decisions/victim.md":    "not closed",
		".sdl-memory/task_context/huge.md":   "over the 1048576-byte limit",
		".sdl-memory/task_context/empty.md":  "starts with a --- line",
	}
	if len(ms.Problems) != len(want) {
		t.Errorf("%d problems, want %d: %+v", len(ms.Problems), len(want), ms.Problems)
	}
	for _, p := range ms.Problems {
		if w, ok := want[p.Path]; !ok || !strings.Contains(p.Message, w) {
			t.Errorf("problem %s: %q, want it to say %q", p.Path, p.Message, w)
		}
		if !strings.Contains(p.Error(), p.Path) {
			t.Errorf("problem %q does not name its file", p.Error())
		}
	}
	if ms.Memories != 2 || ms.Removed != 0 || ms.Kept != 1 {
		t.Errorf("summary %+v: want both memories, victim kept", ms)
	}
	// the problems are recorded in the index, file by file
	conn := openDB(t, db)
	recorded := map[string]string{}
	rows, err := conn.Query(`SELECT path, message FROM memory_problems`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p, m string
		rows.Scan(&p, &m)
		recorded[p] = m
	}
	rows.Close()
	for p, w := range want {
		if !strings.Contains(recorded[p], w) {
			t.Errorf("recorded problem of %s: %q", p, recorded[p])
		}
	}
	// the good memory is whole: links and full text; the victim keeps its
	// last imported state, searchable
	got := memories(t, db)
	if len(got) != 2 || got["good"].symbols != add || got["victim"].deleted {
		t.Errorf("memories %+v", got)
	}
	var n int
	conn.QueryRow(`SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH 'readable OR guard'`).Scan(&n)
	if n != 2 {
		t.Errorf("full text finds %d memories, want 2", n)
	}
	// an edit of the linked code still flags the good memory, and never
	// rewrites a broken file
	replaceIn(t, root, "store/store.go", `panic("store: nil item")`, `return ErrFull`)
	sum = run(t, root, db)
	if sum.Memories.Stale != 1 || !memories(t, db)["good"].stale {
		t.Errorf("stale after edit: %+v", sum.Memories)
	}
	if after, _ := os.ReadFile(victim); string(after) != string(data[:40]) {
		t.Errorf("the broken file was rewritten: %q", after)
	}
	// fixed files clear their problems; removing a broken file removes its memory
	if err := os.WriteFile(victim, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"bugfixes/garbage.md", "bugfixes/nul.md", "decisions/truncated.md", "task_context/huge.md", "task_context/empty.md"} {
		os.Remove(filepath.Join(root, ".sdl-memory", p))
	}
	sum = run(t, root, db)
	if len(sum.Memories.Problems) != 0 || sum.Memories.Memories != 2 || sum.Memories.Kept != 0 {
		t.Errorf("after the fix %+v", sum.Memories)
	}
	openDB(t, db).QueryRow(`SELECT COUNT(*) FROM memory_problems`).Scan(&n)
	if n != 0 {
		t.Errorf("%d problems still recorded", n)
	}
	os.WriteFile(victim, []byte("---\ntype: [\n"), 0o644)
	run(t, root, db)
	os.Remove(victim)
	sum = run(t, root, db)
	if _, ok := memories(t, db)["victim"]; ok || sum.Memories.Removed != 1 {
		t.Errorf("a broken file that is removed keeps its memory: %+v", sum.Memories)
	}
}
