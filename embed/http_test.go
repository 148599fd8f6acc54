package embed_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/embed"
)

// fakeServer is an OpenAI-compatible /v1/embeddings endpoint. Each input
// gets a vector derived from its length, so answers can be checked.
type fakeServer struct {
	mu       sync.Mutex
	requests int
	inputs   []int // inputs per request
	auth     []string
	fail     int // answer this many requests with 503 first
	status   int // then this status instead of 200, when set
	dim      func(n int) int
	srv      *httptest.Server
}

func newFake(t *testing.T) *fakeServer {
	f := &fakeServer{dim: func(int) int { return 4 }}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if f.fail > 0 {
		f.fail--
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
		return
	}
	if f.status != 0 {
		http.Error(w, `{"error":"bad model"}`, f.status)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.inputs = append(f.inputs, len(req.Input))
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	var data []item
	// answer in reverse order: clients must use index
	for i := len(req.Input) - 1; i >= 0; i-- {
		v := make([]float64, f.dim(f.requests))
		v[0] = float64(len(req.Input[i]))
		v[1] = 3
		data = append(data, item{Object: "embedding", Index: i, Embedding: v})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func newHTTP(t *testing.T, f *fakeServer, mod func(*embed.HTTPConfig)) *embed.HTTP {
	t.Helper()
	cfg := embed.HTTPConfig{URL: f.srv.URL, Model: "nomic-embed-text", Key: "sekret", BatchSize: 2, Backoff: time.Millisecond, Retries: 2}
	if mod != nil {
		mod(&cfg)
	}
	h, err := embed.NewHTTP(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHTTPBatchesInOrder(t *testing.T) {
	f := newFake(t)
	h := newHTTP(t, f, nil)
	docs := []embed.Doc{{Name: "a"}, {Name: "bb"}, {Name: "ccc"}, {Name: "dddd"}, {Name: "eeeee"}}
	vs, err := h.EmbedDocs(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(f.inputs) != "[2 2 1]" {
		t.Errorf("batches %v, want [2 2 1]", f.inputs)
	}
	for i, v := range vs {
		// the vector is (len, 3, 0, 0) normalized: order by input length
		want := float64(len(docs[i].Text()))
		if got := float64(v[0]) / float64(v[1]) * 3; got < want-1e-3 || got > want+1e-3 {
			t.Errorf("vector %d belongs to another input (%.2f, want %.0f)", i, got, want)
		}
		if n := cosine(v, v); n < 0.9999 || n > 1.0001 {
			t.Errorf("vector %d not unit length: %f", i, n)
		}
	}
	if h.Dim() != 4 || h.ID() != "http/nomic-embed-text" {
		t.Errorf("dim %d id %s", h.Dim(), h.ID())
	}
	for _, a := range f.auth {
		if a != "Bearer sekret" {
			t.Errorf("authorization %q", a)
		}
	}
}

func TestHTTPRetriesWithBackoff(t *testing.T) {
	f := newFake(t)
	f.fail = 2
	h := newHTTP(t, f, nil)
	if _, err := h.EmbedQuery(context.Background(), "retry me"); err != nil {
		t.Fatalf("two 503s then success: %v", err)
	}
	if f.requests != 3 {
		t.Errorf("%d requests, want 3", f.requests)
	}
	// more failures than retries: unavailable
	f.fail = 5
	_, err := h.EmbedQuery(context.Background(), "retry me")
	if !errors.Is(err, embed.ErrUnavailable) || !strings.Contains(err.Error(), "503") {
		t.Errorf("err %v, want ErrUnavailable naming the status", err)
	}
}

func TestHTTPPermanentErrorsAreNotRetried(t *testing.T) {
	f := newFake(t)
	f.status = http.StatusUnauthorized
	h := newHTTP(t, f, nil)
	_, err := h.EmbedQuery(context.Background(), "x")
	if err == nil || errors.Is(err, embed.ErrUnavailable) || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "bad model") {
		t.Errorf("err %v, want the 401 and the server's message", err)
	}
	if f.requests != 1 {
		t.Errorf("%d requests, want 1", f.requests)
	}
}

func TestHTTPEndpointDown(t *testing.T) {
	f := newFake(t)
	url := f.srv.URL
	f.srv.Close()
	h, err := embed.NewHTTP(embed.HTTPConfig{URL: url, Model: "m", Retries: 1, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.EmbedDocs(context.Background(), []embed.Doc{{Name: "x"}})
	if !errors.Is(err, embed.ErrUnavailable) || !strings.Contains(err.Error(), url) {
		t.Errorf("err %v, want ErrUnavailable naming the endpoint", err)
	}
}

func TestHTTPDimensionMismatch(t *testing.T) {
	f := newFake(t)
	f.dim = func(n int) int { return 3 + n } // each answer one longer
	h := newHTTP(t, f, nil)
	if _, err := h.EmbedQuery(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	_, err := h.EmbedQuery(context.Background(), "second")
	if !errors.Is(err, embed.ErrDimension) {
		t.Errorf("err %v, want ErrDimension", err)
	}
}

func TestHTTPTimeout(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer srv.Close()
	defer close(block)
	h, _ := embed.NewHTTP(embed.HTTPConfig{URL: srv.URL, Model: "m", Timeout: 20 * time.Millisecond, Retries: 1, Backoff: time.Millisecond})
	if _, err := h.EmbedQuery(context.Background(), "x"); !errors.Is(err, embed.ErrUnavailable) {
		t.Errorf("err %v, want ErrUnavailable after timeouts", err)
	}
}

func TestHTTPEndpointURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:11434":                 "http://localhost:11434/v1/embeddings",
		"http://localhost:8080/v1/":              "http://localhost:8080/v1/embeddings",
		"https://api.openai.com/v1/embeddings":   "https://api.openai.com/v1/embeddings",
		"http://tei.internal/custom/embeddings/": "http://tei.internal/custom/embeddings",
	} {
		h, err := embed.NewHTTP(embed.HTTPConfig{URL: in, Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		if h.Endpoint() != want {
			t.Errorf("%s: endpoint %s, want %s", in, h.Endpoint(), want)
		}
	}
	for _, cfg := range []embed.HTTPConfig{{Model: "m"}, {URL: "localhost:1", Model: "m"}, {URL: "http://x"}} {
		if _, err := embed.NewHTTP(cfg); !errors.Is(err, embed.ErrConfig) {
			t.Errorf("%+v: err %v, want ErrConfig", cfg, err)
		}
	}
}
