package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/schema"
)

// copyDir copies a fixture repository.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type edit struct {
	name  string
	do    func(t *testing.T, root string)
	paths []string // the files the edit touched
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceIn(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, rel)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIncrementalMatchesFull applies a scripted history of edits to the Go
// fixture and checks after each step that the current view of the
// incrementally maintained index equals a fresh index of the same tree.
func TestIncrementalMatchesFull(t *testing.T) {
	t.Run("walk", func(t *testing.T) { testIncremental(t, false) })
	// a run limited to the touched paths (a checkpoint, a watcher) must
	// come to the same index as one that walks the tree
	t.Run("paths", func(t *testing.T) { testIncremental(t, true) })
}

func testIncremental(t *testing.T, limit bool) {
	root := filepath.Join(t.TempDir(), "repo")
	copyDir(t, "../testdata/repos/go", root)
	db := filepath.Join(t.TempDir(), "inc.db")
	ctx := context.Background()
	// with vectors: later runs keep the index's model
	opts := testOptions(root, db)
	opts.Embedding.Provider = embed.ProviderBuiltin
	if _, err := Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	steps := []edit{
		{"edit a body", func(t *testing.T, r string) {
			replaceIn(t, r, "store/item.go", "return i.Price * float64(i.Qty)", "return float64(i.Qty) * i.Price")
		}, []string{"store/item.go"}},
		{"change a signature", func(t *testing.T, r string) {
			replaceIn(t, r, "store/db.go", "func Open(path string) (*DB, error) {", "func Open(path string, create bool) (*DB, error) {")
		}, []string{"store/db.go"}},
		{"add a file with a new caller and a new callee", func(t *testing.T, r string) {
			writeFile(t, r, "store/report.go", "package store\n\n// Report prints the value.\nfunc (s *Store) Report() float64 { return s.Value() + bonus() }\n\nfunc bonus() float64 { return 1 }\n")
		}, []string{"store/report.go"}},
		{"define a name that was unresolved", func(t *testing.T, r string) {
			replaceIn(t, r, "store/store.go", "func (s *Store) sortedIDs() []string {", "func each(it *Item) {}\n\nfunc (s *Store) sortedIDs() []string {")
		}, []string{"store/store.go"}},
		{"rename a method its callers use", func(t *testing.T, r string) {
			replaceIn(t, r, "store/item.go", "func (i *Item) Total() float64 {", "func (i *Item) Sum() float64 {")
		}, []string{"store/item.go"}},
		{"delete a file others call into", func(t *testing.T, r string) {
			if err := os.Remove(filepath.Join(r, "store/report.go")); err != nil {
				t.Fatal(err)
			}
		}, []string{"store/report.go"}},
		{"move a function to another file", func(t *testing.T, r string) {
			replaceIn(t, r, "store/store.go", "// NewStore returns an empty store that saves to db.\nfunc NewStore(db *DB) *Store {\n\treturn &Store{items: map[string]*Item{}, db: db}\n}\n", "")
			writeFile(t, r, "store/new.go", "package store\n\n// NewStore returns an empty store that saves to db.\nfunc NewStore(db *DB) *Store {\n\treturn &Store{items: map[string]*Item{}, db: db}\n}\n")
		}, []string{"store/store.go", "store/new.go"}},
		{"fix the broken file", func(t *testing.T, r string) {
			replaceIn(t, r, "broken/broken.go", "func Broken( {\n\treturn Fine(\n}", "func Broken() int {\n\treturn Fine()\n}")
		}, []string{"broken/broken.go"}},
		{"add a test file that sorts first in its package", func(t *testing.T, r string) {
			writeFile(t, r, "store/a_test.go", "package store\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { bonusA() }\n\nfunc bonusA() {}\n")
		}, []string{"store/a_test.go"}},
		{"edit a file that imports the package", func(t *testing.T, r string) {
			// its import binds the package through a file of code: the
			// test flag of a file of an earlier version comes from the index
			replaceIn(t, r, "cmd/shopctl/main.go", "store.Open(\"shop.json\")", "store.Open(\"shop.db\")")
		}, []string{"cmd/shopctl/main.go"}},
	}
	for i, step := range steps {
		step.do(t, root)
		opts := testOptions(root, db)
		if limit {
			opts.Paths = step.paths
		}
		sum, err := Run(ctx, opts)
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, step.name, err)
		}
		if !sum.NewVersion || sum.Seq != int64(i+2) {
			t.Fatalf("step %d (%s): got version %s new=%v", i, step.name, sum.Version, sum.NewVersion)
		}
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		fopts := testOptions(root, fresh)
		fopts.Embedding.Provider = embed.ProviderBuiltin
		if _, err := Run(ctx, fopts); err != nil {
			t.Fatal(err)
		}
		if st := readVectors(t, db); st.vectors == 0 || st.hashes != st.symbols {
			t.Errorf("step %d (%s): vectors %+v", i, step.name, st)
		}
		for _, part := range []string{"symbols", "edges", "files", "vectors", "lengths"} {
			got, want := string(dump(t, db, part)), string(dump(t, fresh, part))
			if got != want {
				t.Errorf("step %d (%s): incremental %s differ from a fresh index:\n%s", i, step.name, part, lineDiff(want, got))
			}
		}
		if n := checkIntact(t, db); n != i+2 {
			t.Errorf("step %d: %d versions", i, n)
		}
	}
}

// TestIncrementalLocalImport: a call bound through an import inside its
// function (rich's Text.from_markup: from .markup import render) binds
// the same when a change elsewhere, a method of the same name renamed,
// has the edge resolved again without a parse: the import is found by the
// call's line, as in a full build.
func TestIncrementalLocalImport(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "pkg/__init__.py", "")
	writeFile(t, root, "pkg/markup.py", "def render(s):\n    return s\n")
	writeFile(t, root, "pkg/text.py", "class Text:\n    @classmethod\n    def from_markup(cls, s):\n"+
		"        from .markup import render\n\n        return render(s)\n")
	writeFile(t, root, "pkg/spinner.py", "class Spinner:\n    def render(self):\n        return 1\n")
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "inc.db")
	if _, err := Run(ctx, testOptions(root, db)); err != nil {
		t.Fatal(err)
	}
	replaceIn(t, root, "pkg/spinner.py", "def render(self)", "def render_frame(self)")
	if _, err := Run(ctx, testOptions(root, db)); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	if _, err := Run(ctx, testOptions(root, fresh)); err != nil {
		t.Fatal(err)
	}
	got, want := string(dump(t, db, "edges")), string(dump(t, fresh, "edges"))
	if !strings.Contains(want, "render") {
		t.Fatalf("a fresh index has no edge to render:\n%s", want)
	}
	if got != want {
		t.Errorf("incremental edges differ from a fresh index:\n%s", lineDiff(want, got))
	}
}

// TestDeterministic indexes the same tree twice and expects the same bytes.
func TestDeterministic(t *testing.T) {
	for _, dir := range fixtures(t) {
		a, b := indexFixture(t, dir), indexFixture(t, dir)
		da, err := os.ReadFile(a)
		if err != nil {
			t.Fatal(err)
		}
		dbb, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		if string(da) != string(dbb) {
			t.Errorf("%s: two indexes of the same tree differ", dir)
		}
	}
}

// TestOverlay indexes unsaved contents (an edited file and a new one) and
// expects the index a disk holding those contents would give.
func TestOverlay(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "repo")
	copyDir(t, "../testdata/repos/go", root)
	db := filepath.Join(t.TempDir(), "overlay.db")
	if _, err := Run(ctx, testOptions(root, db)); err != nil {
		t.Fatal(err)
	}
	item, err := os.ReadFile(filepath.Join(root, "store/item.go"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(item), "func (i *Item) Total() float64 {", "func (i *Item) GrandTotal() float64 {", 1)
	added := "package store\n\nfunc Draft() float64 { return 2 }\n"
	opts := testOptions(root, db)
	opts.Paths = []string{"store/item.go", "store/draft.go"}
	opts.Overlay = map[string][]byte{"store/item.go": []byte(edited), "store/draft.go": []byte(added)}
	sum, err := Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.FilesAdded != 1 || sum.FilesChanged != 1 {
		t.Errorf("overlay run: %d files added, %d changed; want 1 and 1", sum.FilesAdded, sum.FilesChanged)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "store/item.go")); string(got) != string(item) {
		t.Fatal("an overlay run wrote to the repository")
	}

	disk := filepath.Join(t.TempDir(), "repo")
	copyDir(t, root, disk)
	writeFile(t, disk, "store/item.go", edited)
	writeFile(t, disk, "store/draft.go", added)
	fresh := indexFixture(t, disk)
	for _, part := range []string{"symbols", "edges", "files", "lengths"} {
		if got, want := string(dump(t, db, part)), string(dump(t, fresh, part)); got != want {
			t.Errorf("overlay %s differ from an index of the same contents on disk:\n%s", part, lineDiff(want, got))
		}
	}

	// a path outside the repository is refused before anything is written
	opts.Overlay = map[string][]byte{"../evil.go": []byte(added)}
	if _, err := Run(ctx, opts); !errors.Is(err, ErrPath) {
		t.Errorf("overlay path with ..: got %v, want ErrPath", err)
	}
}

func TestWalkPathsAgreesWithWalk(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, ".gitignore", "build/\n*.gen.py\n")
	writeFile(t, root, "a.go", "package a\n")
	writeFile(t, root, "build/b.go", "package b\n")
	writeFile(t, root, "pkg/.gitignore", "local.go\n")
	writeFile(t, root, "pkg/local.go", "package pkg\n")
	writeFile(t, root, "pkg/ok.go", "package pkg\n")
	writeFile(t, root, "x.gen.py", "x = 1\n")
	writeFile(t, root, "vendor/v.go", "package v\n")
	writeFile(t, root, ".hidden/h.go", "package h\n")
	writeFile(t, root, "notes.txt", "hello\n")
	all := []string{"a.go", "build/b.go", "pkg/local.go", "pkg/ok.go", "x.gen.py", "vendor/v.go", ".hidden/h.go", "notes.txt", "gone.go"}
	got, err := WalkPaths(root, all, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	walked, err := Walk(context.Background(), root, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range walked {
		if !strings.HasSuffix(e.Path, "/") {
			want = append(want, e.Path+" "+e.Skip)
		}
	}
	var have []string
	for _, e := range got {
		have = append(have, e.Path+" "+e.Skip)
	}
	if strings.Join(have, "\n") != strings.Join(want, "\n") {
		t.Errorf("WalkPaths:\n%s\nWalk:\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
	}
	for _, bad := range []string{"../x.go", "/etc/passwd", "a/../../x.go", ""} {
		if _, err := WalkPaths(root, []string{bad}, WalkOptions{}); !errors.Is(err, ErrPath) {
			t.Errorf("WalkPaths(%q): got %v, want ErrPath", bad, err)
		}
	}
}

// TestStatStamp: a file whose size and modification time are those of the
// current version is not read again; a new time makes the run read it, and
// a file changed within the racy window is read by the next run whatever
// its stamp says.
func TestStatStamp(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	copyDir(t, "../testdata/repos/go", root)
	old := time.Now().Add(-time.Hour)
	item := filepath.Join(root, "store", "item.go")
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	db := filepath.Join(t.TempDir(), "inc.db")
	ctx := context.Background()
	if _, err := Run(ctx, testOptions(root, db)); err != nil {
		t.Fatal(err)
	}
	// same size, other bytes, the old time put back: the stamp hides the
	// edit, which proves the run did not read the file (as git does)
	src, _ := os.ReadFile(item)
	edited := strings.Replace(string(src), "Price", "PRICE", 1)
	if len(edited) != len(src) || edited == string(src) {
		t.Fatal("the edit must keep the size")
	}
	must(t, os.WriteFile(item, []byte(edited), 0o644))
	must(t, os.Chtimes(item, old, old))
	res, err := Run(ctx, testOptions(root, db))
	if err != nil {
		t.Fatal(err)
	}
	if res.NewVersion || res.FilesChanged != 0 {
		t.Fatalf("an unchanged stamp: %+v", res)
	}
	// a new time: read, hashed, found changed
	newer := old.Add(time.Minute)
	must(t, os.Chtimes(item, newer, newer))
	if res, err = Run(ctx, testOptions(root, db)); err != nil {
		t.Fatal(err)
	}
	if res.FilesChanged != 1 {
		t.Fatalf("a new stamp: %+v", res)
	}
	// touched without a change: no version, but the stamp is stored so the
	// next run reads nothing
	newest := old.Add(2 * time.Minute)
	must(t, os.Chtimes(item, newest, newest))
	if res, err = Run(ctx, testOptions(root, db)); err != nil || res.NewVersion {
		t.Fatalf("touched: %+v %v", res, err)
	}
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	var stamp int64
	must(t, conn.QueryRow(`SELECT f.mtime FROM files f JOIN paths p ON p.id = f.path_id WHERE p.path = 'store/item.go' AND f.to_seq IS NULL`).Scan(&stamp))
	conn.Close()
	if stamp != newest.UnixNano() {
		t.Errorf("stored stamp %d, want %d", stamp, newest.UnixNano())
	}
	// a file written just now has no trusted stamp: a same-size edit with
	// the same time is still found by the next run
	must(t, os.WriteFile(item, src, 0o644))
	now := time.Now()
	must(t, os.Chtimes(item, now, now))
	if res, err = Run(ctx, testOptions(root, db)); err != nil || res.FilesChanged != 1 {
		t.Fatalf("racy write: %+v %v", res, err)
	}
	must(t, os.WriteFile(item, []byte(edited), 0o644))
	must(t, os.Chtimes(item, now, now))
	if res, err = Run(ctx, testOptions(root, db)); err != nil || res.FilesChanged != 1 {
		t.Fatalf("racy same-stamp edit missed: %+v %v", res, err)
	}
}

// TestFullRepairsStaleRows: --full resolves every file again and records
// a new version even when no file changed, so rows that went stale without
// a change of their file (a build of sdl that extracts otherwise under the
// same ExtractVersion, an edge that depends on another file) are repaired,
// not kept under "up to date".
func TestFullRepairsStaleRows(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	copyDir(t, "../testdata/repos/go", root)
	db := filepath.Join(t.TempDir(), "full.db")
	ctx := context.Background()
	if _, err := Run(ctx, testOptions(root, db)); err != nil {
		t.Fatal(err)
	}
	w, err := schema.OpenWrite(db)
	if err != nil {
		t.Fatal(err)
	}
	var src, dst, kind string
	if err := w.QueryRow(`SELECT src, dst, kind FROM edges WHERE to_seq IS NULL AND kind = 'call' AND dst IS NOT NULL ORDER BY src, dst LIMIT 1`).Scan(&src, &dst, &kind); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE files SET module = 'stale' WHERE to_seq IS NULL`,
		`DELETE FROM edges WHERE to_seq IS NULL AND src = '` + src + `' AND dst = '` + dst + `' AND kind = 'call'`,
	} {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()

	// a plain run sees no change of a file and leaves the rows as they are
	sum, err := Run(ctx, testOptions(root, db))
	if err != nil {
		t.Fatal(err)
	}
	if sum.State != StateUpToDate {
		t.Fatalf("plain run: state %s, want %s", sum.State, StateUpToDate)
	}
	opts := testOptions(root, db)
	opts.Full = true
	if sum, err = Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	if sum.State != StateIncremental || sum.Seq != 2 {
		t.Fatalf("--full: state %s, version %d; want %s, 2", sum.State, sum.Seq, StateIncremental)
	}
	conn := openDB(t, db)
	var stale, back int
	if err := conn.QueryRow(`SELECT count(*) FROM files WHERE to_seq IS NULL AND module = 'stale'`).Scan(&stale); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(`SELECT count(*) FROM edges WHERE to_seq IS NULL AND src = ? AND dst = ? AND kind = 'call'`, src, dst).Scan(&back); err != nil {
		t.Fatal(err)
	}
	if stale != 0 || back == 0 {
		t.Fatalf("after --full: %d files keep the stale module, edge %s -> %s present %d times", stale, src, dst, back)
	}
}
