package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
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
