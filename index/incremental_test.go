package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/embed"
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
	name string
	do   func(t *testing.T, root string)
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
		}},
		{"change a signature", func(t *testing.T, r string) {
			replaceIn(t, r, "store/db.go", "func Open(path string) (*DB, error) {", "func Open(path string, create bool) (*DB, error) {")
		}},
		{"add a file with a new caller and a new callee", func(t *testing.T, r string) {
			writeFile(t, r, "store/report.go", "package store\n\n// Report prints the value.\nfunc (s *Store) Report() float64 { return s.Value() + bonus() }\n\nfunc bonus() float64 { return 1 }\n")
		}},
		{"define a name that was unresolved", func(t *testing.T, r string) {
			replaceIn(t, r, "store/store.go", "func (s *Store) sortedIDs() []string {", "func each(it *Item) {}\n\nfunc (s *Store) sortedIDs() []string {")
		}},
		{"rename a method its callers use", func(t *testing.T, r string) {
			replaceIn(t, r, "store/item.go", "func (i *Item) Total() float64 {", "func (i *Item) Sum() float64 {")
		}},
		{"delete a file others call into", func(t *testing.T, r string) {
			if err := os.Remove(filepath.Join(r, "store/report.go")); err != nil {
				t.Fatal(err)
			}
		}},
		{"move a function to another file", func(t *testing.T, r string) {
			replaceIn(t, r, "store/store.go", "// NewStore returns an empty store that saves to db.\nfunc NewStore(db *DB) *Store {\n\treturn &Store{items: map[string]*Item{}, db: db}\n}\n", "")
			writeFile(t, r, "store/new.go", "package store\n\n// NewStore returns an empty store that saves to db.\nfunc NewStore(db *DB) *Store {\n\treturn &Store{items: map[string]*Item{}, db: db}\n}\n")
		}},
		{"fix the broken file", func(t *testing.T, r string) {
			replaceIn(t, r, "broken/broken.go", "func Broken( {\n\treturn Fine(\n}", "func Broken() int {\n\treturn Fine()\n}")
		}},
	}
	for i, step := range steps {
		step.do(t, root)
		sum, err := Run(ctx, testOptions(root, db))
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, step.name, err)
		}
		if !sum.NewVersion || sum.Seq != int64(i+2) {
			t.Fatalf("step %d (%s): got version %s new=%v", i, step.name, sum.Version, sum.NewVersion)
		}
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		opts := testOptions(root, fresh)
		opts.Embedding.Provider = embed.ProviderBuiltin
		if _, err := Run(ctx, opts); err != nil {
			t.Fatal(err)
		}
		if st := readVectors(t, db); st.vectors == 0 || st.hashes != st.symbols {
			t.Errorf("step %d (%s): vectors %+v", i, step.name, st)
		}
		for _, part := range []string{"symbols", "edges", "files", "vectors"} {
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
