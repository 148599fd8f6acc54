package query_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// embedFixture indexes a fixture repository with an embedding choice.
func embedFixture(t testing.TB, name string, p embed.Provider, cfg embed.Config) *query.Index {
	t.Helper()
	root, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", name))
	db := filepath.Join(t.TempDir(), "index.db")
	_, err := index.Run(context.Background(), index.Options{Root: root, DB: db, NoGit: true, Workers: 2,
		Now: time.Unix(1700000000, 0), SDLVersion: "test", Embedder: p, Embedding: cfg})
	if err != nil {
		t.Fatalf("index %s: %v", name, err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// hashEmbedder is a provider whose vectors hash the text: any id, any
// dimension.
type hashEmbedder struct {
	id  string
	dim int
}

func (h hashEmbedder) ID() string { return h.id }
func (h hashEmbedder) Dim() int   { return h.dim }
func (h hashEmbedder) vec(s string) []float32 {
	sum := sha256.Sum256([]byte(s))
	v := make([]float32, h.dim)
	for i := range v {
		v[i] = float32(int(sum[i%32])-128) / 128
	}
	return v
}
func (h hashEmbedder) EmbedDocs(ctx context.Context, docs []embed.Doc) ([][]float32, error) {
	out := make([][]float32, len(docs))
	for i := range docs {
		out[i] = h.vec(docs[i].Text())
	}
	return out, nil
}
func (h hashEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return h.vec(text), nil
}

var builtinCfg = embed.Config{Provider: embed.ProviderBuiltin}

// With vectors, semantic search finds by meaning what shares no word with
// the query, and says it ran hybrid.
func TestSearchSemanticHybrid(t *testing.T) {
	x := embedFixture(t, "go", nil, builtinCfg)
	ctx := context.Background()
	// no word in common with any symbol: the lexical lanes find nothing
	const q = "flush the stock to the filesystem"
	lex, err := x.Search(ctx, query.SearchRequest{Query: q, IncludeRetrievalEvidence: true})
	if err != nil {
		t.Fatal(err)
	}
	if lex.RetrievalMode != query.ModeLexical || slices.Contains(lex.Lanes, "vector") || len(lex.Results) != 0 {
		t.Errorf("without semantic: mode %s lanes %v, %d results", lex.RetrievalMode, lex.Lanes, len(lex.Results))
	}
	hyb, err := x.Search(ctx, query.SearchRequest{Query: q, Semantic: true, IncludeRetrievalEvidence: true})
	if err != nil {
		t.Fatal(err)
	}
	if hyb.RetrievalMode != query.ModeHybrid || !slices.Contains(hyb.Lanes, "vector") || hyb.RetrievalEvidence.FallbackReason != "" {
		t.Fatalf("semantic: mode %s lanes %v evidence %+v", hyb.RetrievalMode, hyb.Lanes, hyb.RetrievalEvidence)
	}
	if hyb.RetrievalEvidence.CandidateCount["vector"] == 0 {
		t.Errorf("the vector lane found nothing")
	}
	// DB.Save ("Save writes all items to disk") among the first two
	var top []string
	for _, r := range hyb.Results[:min(2, len(hyb.Results))] {
		top = append(top, r.Name)
		if fmt.Sprint(r.Lanes) != "[vector]" {
			t.Errorf("%s found by %v", r.Name, r.Lanes)
		}
	}
	if !slices.Contains(top, "Save") {
		t.Errorf("first results %v, want DB.Save", top)
	}
	// the floor keeps the lane from returning every symbol
	if n := hyb.RetrievalEvidence.CandidateCount["vector"]; n >= 20 {
		t.Errorf("the vector lane returned %d candidates", n)
	}
}

func TestSearchSemanticFallbacks(t *testing.T) {
	ctx := context.Background()
	search := func(x *query.Index) *query.SearchResponse {
		t.Helper()
		resp, err := x.Search(ctx, query.SearchRequest{Query: "persist items", Semantic: true, IncludeRetrievalEvidence: true})
		if err != nil {
			t.Fatal(err)
		}
		if resp.RetrievalMode != query.ModeLexical || slices.Contains(resp.Lanes, "vector") || len(resp.Results) == 0 {
			t.Errorf("mode %s lanes %v, %d results", resp.RetrievalMode, resp.Lanes, len(resp.Results))
		}
		return resp
	}
	for name, c := range map[string]struct {
		p      embed.Provider
		cfg    embed.Config
		setup  func(x *query.Index)
		reason string
	}{
		"no vectors":        {cfg: embed.Config{Provider: embed.ProviderNone}, reason: "no vectors in this index"},
		"other builtin":     {p: hashEmbedder{"builtin/sdl-code-1@00000000", 128}, reason: "run sdl index to embed again"},
		"http unconfigured": {p: hashEmbedder{"http/nomic-embed-text", 8}, reason: "not configured here"},
		"dimension": {p: hashEmbedder{"test/hash", 8}, reason: "dimension mismatch",
			setup: func(x *query.Index) { x.SetEmbedder(hashEmbedder{"test/hash", 16}) }},
		"unknown model": {p: hashEmbedder{"test/hash", 8}, reason: "unknown embedding model"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(embed.EnvURL, "")
			t.Setenv(embed.EnvProvider, "")
			x := embedFixture(t, "go", c.p, c.cfg)
			if c.setup != nil {
				c.setup(x)
			}
			resp := search(x)
			if r := resp.RetrievalEvidence.FallbackReason; !strings.Contains(r, c.reason) {
				t.Errorf("reason %q, want %q", r, c.reason)
			}
		})
	}
	// a provider set for the index's model makes it hybrid
	x := embedFixture(t, "go", hashEmbedder{"test/hash", 8}, embed.Config{})
	x.SetEmbedder(hashEmbedder{"test/hash", 8})
	resp, err := x.Search(ctx, query.SearchRequest{Query: "persist items", Semantic: true})
	if err != nil || resp.RetrievalMode != query.ModeHybrid {
		t.Errorf("with the index's provider: %v %v", resp.RetrievalMode, err)
	}
}

// Slices seed from vectors too when the index has them, and say so.
func TestSliceRetrievalMode(t *testing.T) {
	ctx := context.Background()
	x := embedFixture(t, "go", nil, builtinCfg)
	const task = "the shop total is wrong when an item has several units"
	resp, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: task, IncludeRetrievalEvidence: true})
	if err != nil {
		t.Fatal(err)
	}
	if resp.RetrievalMode != query.ModeHybrid || !slices.Contains(resp.RetrievalEvidence.Lanes, "vector") {
		t.Errorf("mode %s lanes %v", resp.RetrievalMode, resp.RetrievalEvidence.Lanes)
	}
	names := map[string]bool{}
	for _, c := range resp.Slice.Cards {
		names[c.Container+"."+c.Name] = true
	}
	if !names["Item.Total"] || !names["Store.Value"] {
		t.Errorf("cards %v, want Item.Total and Store.Value", names)
	}
	off := false
	resp, err = x.BuildSlice(ctx, query.SliceRequest{TaskText: task, IncludeRetrievalEvidence: true, Semantic: &off})
	if err != nil {
		t.Fatal(err)
	}
	if resp.RetrievalMode != query.ModeLexical || !strings.Contains(resp.RetrievalEvidence.FallbackReason, "semantic: false") {
		t.Errorf("semantic false: mode %s evidence %+v", resp.RetrievalMode, resp.RetrievalEvidence)
	}
	// no task text, no text retrieval: no mode
	resp, err = x.BuildSlice(ctx, query.SliceRequest{EditedFiles: []string{"store/item.go"}})
	if err != nil || resp.RetrievalMode != "" {
		t.Errorf("edited files only: mode %q %v", resp.RetrievalMode, err)
	}
}

// openAIServer is an OpenAI-compatible /v1/embeddings endpoint that embeds
// each input with the built-in model, so that its vectors mean something.
func openAIServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	m, err := embed.Default()
	if err != nil {
		t.Fatal(err)
	}
	var inputs atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "test-embed" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		inputs.Add(int64(len(req.Input)))
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		data := []item{}
		for i, s := range req.Input {
			v := m.TextVector(s)
			if v == nil {
				v = make([]float32, m.Dim())
				v[0] = 1
			}
			data = append(data, item{i, v})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
	}))
	t.Cleanup(srv.Close)
	return srv, &inputs
}

// An index embedded through an OpenAI-compatible endpoint answers
// semantic searches through the same endpoint, configured from the
// environment; when the endpoint goes away, search says so and runs
// lexical.
func TestSearchSemanticHTTP(t *testing.T) {
	srv, inputs := openAIServer(t)
	t.Setenv(embed.EnvProvider, "")
	t.Setenv(embed.EnvURL, srv.URL)
	t.Setenv(embed.EnvModel, "test-embed")
	t.Setenv(embed.EnvKey, "")
	cfg, err := embed.LoadConfig("")
	if err != nil || cfg.Provider != embed.ProviderHTTP {
		t.Fatalf("config %+v %v", cfg, err)
	}
	x := embedFixture(t, "go", nil, cfg)
	indexed := inputs.Load()
	if indexed == 0 {
		t.Fatal("indexing sent nothing to the endpoint")
	}
	ctx := context.Background()
	resp, err := x.Search(ctx, query.SearchRequest{Query: "flush the stock to the filesystem", Semantic: true, IncludeRetrievalEvidence: true})
	if err != nil {
		t.Fatal(err)
	}
	if resp.RetrievalMode != query.ModeHybrid || len(resp.Results) == 0 {
		t.Fatalf("mode %s, %d results, evidence %+v", resp.RetrievalMode, len(resp.Results), resp.RetrievalEvidence)
	}
	if inputs.Load() != indexed+1 {
		t.Errorf("the query sent %d inputs, want 1", inputs.Load()-indexed)
	}
	var names []string
	for _, r := range resp.Results[:min(3, len(resp.Results))] {
		names = append(names, r.Name)
	}
	if !slices.Contains(names, "Save") {
		t.Errorf("first results %v, want DB.Save", names)
	}

	srv.Close()
	resp, err = x.Search(ctx, query.SearchRequest{Query: "persist items", Semantic: true, IncludeRetrievalEvidence: true})
	if err != nil {
		t.Fatal(err)
	}
	if resp.RetrievalMode != query.ModeLexical || !strings.Contains(resp.RetrievalEvidence.FallbackReason, "could not embed the query") {
		t.Errorf("endpoint gone: mode %s, reason %q", resp.RetrievalMode, resp.RetrievalEvidence.FallbackReason)
	}
}

// A server keeps the vectors in memory; its answers are those of vec0.
func TestVectorLaneWarmMatchesVec0(t *testing.T) {
	ctx := context.Background()
	cold := embedFixture(t, "python", nil, builtinCfg)
	warm, err := query.Open(cold.Path, cold.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer warm.Close()
	m, _ := embed.Default()
	q := embed.Quantize(m.TextVector("write the report to a file"))
	if _, ok, err := warm.WarmKNNForTest(ctx, q, 10); ok || err != nil {
		t.Fatalf("a fresh index answered from memory (%v %v)", ok, err)
	}
	n, err := warm.LoadVectorsForTest(ctx)
	if err != nil || n == 0 {
		t.Fatalf("loaded %d vectors: %v", n, err)
	}
	if got, ok, err := warm.WarmKNNForTest(ctx, q, 10); !ok || err != nil || got == 0 {
		t.Fatalf("after loading: %d hits, ok %v, %v", got, ok, err)
	}
	for _, text := range []string{"write the report to a file", "parse the command line arguments", "http request timeout",
		"compute the total price", "user login and password"} {
		a, err := cold.Search(ctx, query.SearchRequest{Query: text, Semantic: true, Limit: 10, IncludeRetrievalEvidence: true})
		if err != nil {
			t.Fatal(err)
		}
		b, err := warm.Search(ctx, query.SearchRequest{Query: text, Semantic: true, Limit: 10, IncludeRetrievalEvidence: true})
		if err != nil {
			t.Fatal(err)
		}
		if a.RetrievalMode != query.ModeHybrid || b.RetrievalMode != query.ModeHybrid {
			t.Errorf("%q: modes %s %s", text, a.RetrievalMode, b.RetrievalMode)
		}
		if fmt.Sprint(ids(a)) != fmt.Sprint(ids(b)) || a.RetrievalEvidence.CandidateCount["vector"] != b.RetrievalEvidence.CandidateCount["vector"] {
			t.Errorf("%q: vec0 %v (%d), memory %v (%d)", text, ids(a), a.RetrievalEvidence.CandidateCount["vector"],
				ids(b), b.RetrievalEvidence.CandidateCount["vector"])
		}
	}
}

func ids(r *query.SearchResponse) []string {
	var out []string
	for _, x := range r.Results {
		out = append(out, x.SymbolID)
	}
	return out
}

// bucketEmbedder gives the texts of one bucket (the last digit of the
// symbol's name) the same vector: thousands of symbols share a few
// vectors, so the nearest ones tie across vec0's chunks.
type bucketEmbedder struct{ hashEmbedder }

func (b bucketEmbedder) EmbedDocs(ctx context.Context, docs []embed.Doc) ([][]float32, error) {
	out := make([][]float32, len(docs))
	for i, d := range docs {
		out[i] = b.vec("bucket " + d.Name[len(d.Name)-1:])
	}
	return out, nil
}

// TestChunkKNNMatchesVec0: the vector lane's nearest symbols, read from
// vec0's chunks or scanned in memory, are those vec0's own query finds, in
// the same order and with the same similarities, ties across chunks
// included.
func TestChunkKNNMatchesVec0(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	b.WriteString("package p\n\n")
	for i := range 2600 {
		fmt.Fprintf(&b, "func f%d() {}\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "p.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := bucketEmbedder{hashEmbedder{"test/bucket", 12}}
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := index.Run(context.Background(), index.Options{Root: root, DB: db, NoGit: true, Workers: 2,
		Now: time.Unix(1700000000, 0), SDLVersion: "test", Embedder: p}); err != nil {
		t.Fatal(err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	ctx := context.Background()
	x.SetEmbedder(p)
	if n, err := x.LoadVectorsForTest(ctx); err != nil || n < 2600 {
		t.Fatalf("loaded %d vectors: %v", n, err)
	}
	for _, q := range []string{"bucket 3", "bucket 7", "anything else", "f1234"} {
		v, _ := p.EmbedQuery(ctx, q)
		for _, k := range []int{1, 10, 100, 300, 1000, 4096} {
			vec0, chunks, warm, err := x.KNNAllForTest(ctx, embed.Quantize(v), k)
			if err != nil {
				t.Fatal(err)
			}
			if len(vec0) != min(k, 2600) || !slices.Equal(vec0, chunks) || !slices.Equal(vec0, warm) {
				t.Errorf("%q k=%d: vec0 found %d, the chunks %d, memory %d, or another order", q, k, len(vec0), len(chunks), len(warm))
			}
		}
	}
}
