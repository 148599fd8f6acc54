package index

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/schema"
)

// fakeEmbedder records what it embeds; its vectors come from a hash of
// the document's text.
type fakeEmbedder struct {
	mu   sync.Mutex
	id   string
	dim  int
	err  error // returned by EmbedDocs when set
	docs []string
}

func (f *fakeEmbedder) ID() string { return f.id }
func (f *fakeEmbedder) Dim() int   { return f.dim }

func (f *fakeEmbedder) vector(text string) []float32 {
	sum := sha256.Sum256([]byte(text))
	v := make([]float32, f.dim)
	for i := range v {
		v[i] = float32(int(sum[i%32])-128) / 128
	}
	return v
}

func (f *fakeEmbedder) EmbedDocs(ctx context.Context, docs []embed.Doc) ([][]float32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	out := make([][]float32, len(docs))
	for i := range docs {
		name := docs[i].Name
		if docs[i].Container != "" {
			name = docs[i].Container + "." + name
		}
		f.docs = append(f.docs, name)
		out[i] = f.vector(docs[i].Text())
	}
	return out, nil
}

func (f *fakeEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return f.vector(text), nil
}

func (f *fakeEmbedder) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.docs
	f.docs = nil
	sort.Strings(out)
	return out
}

// vectorState reads what the index holds about vectors.
type vectorState struct {
	model, dim               string
	symbols, hashes, vectors int
}

func readVectors(t *testing.T, db string) vectorState {
	t.Helper()
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var s vectorState
	s.model, _ = schema.GetMeta(context.Background(), conn, schema.MetaEmbeddingModel)
	s.dim, _ = schema.GetMeta(context.Background(), conn, schema.MetaEmbeddingDim)
	conn.QueryRow(`SELECT count(*) FROM symbols WHERE to_seq IS NULL AND kind != 'module'`).Scan(&s.symbols)
	conn.QueryRow(`SELECT count(*) FROM symbol_embeddings`).Scan(&s.hashes)
	if ok, _ := schema.TableExists(context.Background(), conn, schema.SymbolVectors); ok {
		if err := conn.QueryRow(`SELECT count(*) FROM symbol_vec`).Scan(&s.vectors); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func embedRepo(t *testing.T) (root, db string) {
	root = filepath.Join(t.TempDir(), "repo")
	copyDir(t, "../testdata/repos/go", root)
	return root, filepath.Join(t.TempDir(), "index.db")
}

func runWith(t *testing.T, root, db string, p embed.Provider, cfg embed.Config) *Summary {
	t.Helper()
	opts := testOptions(root, db)
	opts.Embedder, opts.Embedding = p, cfg
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// The built-in model embeds every symbol but modules, and the index
// records the model.
func TestEmbedBuiltinFullBuild(t *testing.T) {
	root, db := embedRepo(t)
	sum := runWith(t, root, db, nil, embed.Config{Provider: embed.ProviderBuiltin})
	m, _ := embed.Default()
	st := readVectors(t, db)
	if st.model != m.ID() || st.dim != fmt.Sprint(m.Dim()) {
		t.Errorf("meta model %q dim %q, want %s %d", st.model, st.dim, m.ID(), m.Dim())
	}
	if st.symbols == 0 || st.hashes != st.symbols || st.vectors != st.symbols {
		t.Errorf("%d symbols, %d hashes, %d vectors", st.symbols, st.hashes, st.vectors)
	}
	e := sum.Embedding
	if e == nil || e.Embedded != st.symbols || e.Missing != 0 || e.Model != m.ID() || e.Error != "" {
		t.Errorf("summary %+v", e)
	}
}

// An unchanged symbol keeps its vector; a changed one is embedded again; a
// symbol that only moved reuses its vector.
func TestEmbedOnlyNewAndChanged(t *testing.T) {
	root, db := embedRepo(t)
	f := &fakeEmbedder{id: "fake/a", dim: 8}
	runWith(t, root, db, f, embed.Config{})
	first := f.take()
	if len(first) != readVectors(t, db).symbols {
		t.Fatalf("first build embedded %d of %d symbols", len(first), readVectors(t, db).symbols)
	}

	replaceIn(t, root, "store/item.go", "return i.Price * float64(i.Qty)", "return i.Price * float64(i.Qty) * taxRate")
	sum := runWith(t, root, db, f, embed.Config{})
	if got := f.take(); fmt.Sprint(got) != "[Item.Total]" {
		t.Errorf("after a body edit embedded %v, want [Item.Total]", got)
	}
	if sum.Embedding.Embedded != 1 || sum.Embedding.Reused != 0 {
		t.Errorf("summary %+v", sum.Embedding)
	}

	// lines move, texts do not: every vector is reused
	replaceIn(t, root, "store/item.go", "package store\n", "package store\n\n\n")
	sum = runWith(t, root, db, f, embed.Config{})
	if got := f.take(); len(got) != 0 {
		t.Errorf("after moving lines embedded %v", got)
	}
	if sum.Embedding.Reused == 0 || sum.Embedding.Embedded != 0 {
		t.Errorf("summary %+v, want reused vectors", sum.Embedding)
	}
	st := readVectors(t, db)
	if st.hashes != st.symbols || st.vectors != st.symbols {
		t.Errorf("%+v: vectors of closed rows left or current ones missing", st)
	}

	// nothing changed: nothing embedded, no new version
	sum = runWith(t, root, db, f, embed.Config{})
	if got := f.take(); len(got) != 0 || sum.NewVersion {
		t.Errorf("a run without changes embedded %v (new version %v)", got, sum.NewVersion)
	}
}

// A different model, or the same one with another dimension, embeds every
// symbol again, without a new version of the tree.
func TestEmbedModelChange(t *testing.T) {
	root, db := embedRepo(t)
	a := &fakeEmbedder{id: "fake/a", dim: 8}
	runWith(t, root, db, a, embed.Config{})
	n := readVectors(t, db).symbols

	b := &fakeEmbedder{id: "fake/b", dim: 8}
	sum := runWith(t, root, db, b, embed.Config{})
	if got := len(b.take()); got != n {
		t.Errorf("model change embedded %d of %d", got, n)
	}
	if sum.NewVersion || !strings.Contains(sum.Embedding.Reembed, "fake/a to fake/b") {
		t.Errorf("new version %v, reembed %q", sum.NewVersion, sum.Embedding.Reembed)
	}
	if st := readVectors(t, db); st.model != "fake/b" || st.vectors != n {
		t.Errorf("after the change %+v", st)
	}

	wide := &fakeEmbedder{id: "fake/b", dim: 16}
	sum = runWith(t, root, db, wide, embed.Config{})
	if got := len(wide.take()); got != n || !strings.Contains(sum.Embedding.Reembed, "16 dimensions") {
		t.Errorf("dimension change embedded %d of %d (%q)", got, n, sum.Embedding.Reembed)
	}
	if st := readVectors(t, db); st.dim != "16" || st.vectors != n {
		t.Errorf("after the dimension change %+v", st)
	}
}

// A provider that fails does not fail the run: the index is written, the
// summary says what is missing, and the next run embeds it.
func TestEmbedProviderDown(t *testing.T) {
	root, db := embedRepo(t)
	f := &fakeEmbedder{id: "fake/a", dim: 8}
	runWith(t, root, db, f, embed.Config{})
	f.take()

	f.err = fmt.Errorf("%w: connection refused", embed.ErrUnavailable)
	replaceIn(t, root, "store/db.go", "func Open(path string) (*DB, error) {", "func Open(path string, create bool) (*DB, error) {")
	sum := runWith(t, root, db, f, embed.Config{})
	if !sum.NewVersion || sum.Embedding.Missing != 1 || !strings.Contains(sum.Embedding.Error, "connection refused") {
		t.Fatalf("new version %v, embedding %+v", sum.NewVersion, sum.Embedding)
	}

	f.err = nil
	sum = runWith(t, root, db, f, embed.Config{})
	if got := f.take(); fmt.Sprint(got) != "[Open]" || sum.NewVersion || sum.Embedding.Missing != 0 {
		t.Errorf("the next run embedded %v (new version %v, %+v)", got, sum.NewVersion, sum.Embedding)
	}
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	runWith(t, root, fresh, &fakeEmbedder{id: "fake/a", dim: 8}, embed.Config{})
	if got, want := string(dump(t, db, "vectors")), string(dump(t, fresh, "vectors")); got != want {
		t.Errorf("vectors differ from a fresh index:\n%s", lineDiff(want, got))
	}
}

// An HTTP endpoint that is down: the index is built without vectors and
// says so; the model is remembered for the next run.
func TestEmbedHTTPEndpointDown(t *testing.T) {
	root, db := embedRepo(t)
	srv := httptest.NewServer(nil)
	url := srv.URL
	srv.Close()
	cfg := embed.Config{Provider: embed.ProviderHTTP, HTTP: embed.HTTPConfig{URL: url, Model: "nomic-embed-text", Retries: -1}}
	sum := runWith(t, root, db, nil, cfg)
	e := sum.Embedding
	if !strings.Contains(e.Error, "unavailable") || e.Missing == 0 || e.Embedded != 0 {
		t.Errorf("summary %+v", e)
	}
	if st := readVectors(t, db); st.model != "http/nomic-embed-text" || st.vectors != 0 {
		t.Errorf("state %+v", st)
	}
	// configured nowhere now: the run keeps the model and says why
	sum = runWith(t, root, db, nil, embed.Config{})
	if !strings.Contains(sum.Embedding.Error, "not configured") {
		t.Errorf("summary %+v", sum.Embedding)
	}
}

// none removes the vectors, and stays chosen.
func TestEmbedNone(t *testing.T) {
	root, db := embedRepo(t)
	runWith(t, root, db, nil, embed.Config{Provider: embed.ProviderBuiltin})
	runWith(t, root, db, nil, embed.Config{Provider: embed.ProviderNone})
	if st := readVectors(t, db); st.model != embed.ProviderNone || st.hashes != 0 || st.vectors != 0 {
		t.Errorf("after none %+v", st)
	}
	replaceIn(t, root, "store/item.go", "return i.Price * float64(i.Qty)", "return float64(i.Qty) * i.Price")
	sum := runWith(t, root, db, nil, embed.Config{})
	if st := readVectors(t, db); st.model != embed.ProviderNone || st.hashes != 0 || sum.Embedding.Embedded != 0 {
		t.Errorf("an unconfigured run after none: %+v %+v", st, sum.Embedding)
	}
	// and back
	sum = runWith(t, root, db, nil, embed.Config{Provider: embed.ProviderBuiltin})
	if st := readVectors(t, db); st.vectors != st.symbols || sum.Embedding.Embedded != st.symbols {
		t.Errorf("builtin again: %+v %+v", st, sum.Embedding)
	}
}

// An explicit provider that is not configured is an error before any
// work.
func TestEmbedBadConfig(t *testing.T) {
	root, db := embedRepo(t)
	opts := testOptions(root, db)
	opts.Embedding = embed.Config{Provider: embed.ProviderHTTP}
	if _, err := Run(context.Background(), opts); !errors.Is(err, embed.ErrConfig) {
		t.Errorf("err %v, want ErrConfig", err)
	}
}

// A run embeds as it goes, not all at the end: the vectors are those of
// one batch at the end, and a provider that fails is not asked again in
// the same run.
func TestEmbedInBatches(t *testing.T) {
	root, db := embedRepo(t)
	runWith(t, root, db, &fakeEmbedder{id: "fake/a", dim: 8}, embed.Config{})
	defer func(n int) { embedFlushAt = n }(embedFlushAt)
	embedFlushAt = 2
	f := &countingEmbedder{fakeEmbedder: fakeEmbedder{id: "fake/a", dim: 8}}
	small := filepath.Join(t.TempDir(), "small.db")
	runWith(t, root, small, f, embed.Config{})
	if f.calls < 3 {
		t.Errorf("%d calls to the provider, want several batches", f.calls)
	}
	if got, want := string(dump(t, small, "vectors")), string(dump(t, db, "vectors")); got != want {
		t.Errorf("vectors in batches differ:\n%s", lineDiff(want, got))
	}

	down := &countingEmbedder{fakeEmbedder: fakeEmbedder{id: "fake/a", dim: 8, err: fmt.Errorf("%w: refused", embed.ErrUnavailable)}}
	sum := runWith(t, root, filepath.Join(t.TempDir(), "down.db"), down, embed.Config{})
	if down.calls != 1 || sum.Embedding.Missing != readVectors(t, db).symbols {
		t.Errorf("a failing provider was asked %d times; summary %+v", down.calls, sum.Embedding)
	}
}

// countingEmbedder counts the calls of EmbedDocs.
type countingEmbedder struct {
	fakeEmbedder
	calls int
}

func (c *countingEmbedder) EmbedDocs(ctx context.Context, docs []embed.Doc) ([][]float32, error) {
	c.calls++
	return c.fakeEmbedder.EmbedDocs(ctx, docs)
}

// memoryVectors reads the memories' vectors: memory id -> has a vector,
// and the number of hash rows.
func memoryVectors(t *testing.T, db string) (map[string]bool, int) {
	t.Helper()
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var hashes int
	if err := conn.QueryRow(`SELECT count(*) FROM memory_embeddings`).Scan(&hashes); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	if ok, _ := schema.TableExists(context.Background(), conn, schema.MemoryVectors); !ok {
		return out, hashes
	}
	rows, err := conn.Query(`SELECT m.id FROM memory_vec v JOIN memories m ON m.seq = v.rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		rows.Scan(&id)
		out[id] = true
	}
	var all int
	conn.QueryRow(`SELECT count(*) FROM memory_vec`).Scan(&all)
	if all != len(out) {
		t.Errorf("%d memory vectors, %d of current memories", all, len(out))
	}
	return out, hashes
}

// memoryTitles keeps the memory titles among what a fake embedded.
func memoryTitles(docs []string) string {
	var out []string
	for _, d := range docs {
		if strings.HasPrefix(d, "mem ") {
			out = append(out, d)
		}
	}
	return strings.Join(out, ",")
}

// Memories get vectors from the index's model: new and changed ones only,
// again on a model change, and they lose them when removed or marked
// deleted, or when vectors are turned off.
func TestEmbedMemories(t *testing.T) {
	root, db := embedRepo(t)
	mem := func(id, content string) *memoryfs.Memory {
		return &memoryfs.Memory{ID: id, Type: "decision", Title: "mem " + id, Content: content, Confidence: 0.9,
			CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	}
	storeMemory(t, root, mem("a", "Sessions expire after an hour."))
	storeMemory(t, root, mem("b", "The catalog is cached for a minute."))
	a := &fakeEmbedder{id: "fake/a", dim: 8}
	sum := runWith(t, root, db, a, embed.Config{})
	if got := memoryTitles(a.take()); got != "mem a,mem b" || sum.Embedding.MemoriesEmbedded != 2 {
		t.Errorf("first run embedded memories %q (%d)", got, sum.Embedding.MemoriesEmbedded)
	}
	if v, h := memoryVectors(t, db); !v["a"] || !v["b"] || h != 2 {
		t.Errorf("after the first run: vectors %v, %d hashes", v, h)
	}

	// nothing changed: nothing embedded
	sum = runWith(t, root, db, a, embed.Config{})
	if got := memoryTitles(a.take()); got != "" || sum.Embedding.MemoriesEmbedded != 0 {
		t.Errorf("unchanged run embedded memories %q", got)
	}

	// a changed memory only, in a run without code changes
	storeMemory(t, root, mem("b", "The catalog is cached for ten minutes now."))
	runWith(t, root, db, a, embed.Config{})
	if got := memoryTitles(a.take()); got != "mem b" {
		t.Errorf("after changing b embedded %q", got)
	}
	if v, h := memoryVectors(t, db); len(v) != 2 || h != 2 {
		t.Errorf("after changing b: vectors %v, %d hashes", v, h)
	}

	// a new model embeds every memory again
	b := &fakeEmbedder{id: "fake/b", dim: 8}
	runWith(t, root, db, b, embed.Config{})
	if got := memoryTitles(b.take()); got != "mem a,mem b" {
		t.Errorf("model change embedded memories %q", got)
	}
	if v, _ := memoryVectors(t, db); len(v) != 2 {
		t.Errorf("after the model change: vectors %v", v)
	}

	// a removed memory loses its vector; one marked deleted too
	if err := os.Remove(filepath.Join(root, ".sdl-memory", "decisions", "a.md")); err != nil {
		t.Fatal(err)
	}
	runWith(t, root, db, b, embed.Config{})
	if v, h := memoryVectors(t, db); v["a"] || !v["b"] || h != 1 {
		t.Errorf("after removing a: vectors %v, %d hashes", v, h)
	}
	del := mem("b", "The catalog is cached for ten minutes now.")
	del.Deleted = true
	storeMemory(t, root, del)
	runWith(t, root, db, b, embed.Config{})
	if v, h := memoryVectors(t, db); len(v) != 0 || h != 0 {
		t.Errorf("after marking b deleted: vectors %v, %d hashes", v, h)
	}

	// a memory stored while the provider is down gets its vector later
	storeMemory(t, root, mem("c", "Prices are in cents."))
	b.err = errors.New("down")
	sum = runWith(t, root, db, b, embed.Config{})
	if v, _ := memoryVectors(t, db); v["c"] || sum.Embedding.MemoriesMissing != 1 {
		t.Errorf("provider down: vectors %v, missing %d", v, sum.Embedding.MemoriesMissing)
	}
	b.err = nil
	b.take()
	runWith(t, root, db, b, embed.Config{})
	if v, _ := memoryVectors(t, db); !v["c"] {
		t.Errorf("provider back: vectors %v", v)
	}

	// vectors off: the memories' go too
	runWith(t, root, db, nil, embed.Config{Provider: embed.ProviderNone})
	if v, h := memoryVectors(t, db); len(v) != 0 || h != 0 {
		t.Errorf("after --embed none: vectors %v, %d hashes", v, h)
	}
}
