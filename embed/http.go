package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"
)

// HTTPConfig configures an OpenAI-compatible /v1/embeddings endpoint:
// OpenAI, Ollama, llama.cpp's server, vLLM, text-embeddings-inference.
type HTTPConfig struct {
	URL   string // the server (http://localhost:11434) or the endpoint itself (.../v1/embeddings)
	Model string
	Key   string // sent as a bearer token when set
	// BatchSize is the inputs per request (default 64).
	BatchSize int
	// Timeout bounds one request (default 60s).
	Timeout time.Duration
	// Retries after a failed request (default 3), waiting Backoff (default
	// 500ms), then twice as long each time.
	Retries int
	Backoff time.Duration
	// Client, if set, sends the requests (tests).
	Client *http.Client
}

// HTTP is an OpenAI-compatible embedding provider.
type HTTP struct {
	cfg      HTTPConfig
	endpoint string

	mu  sync.Mutex
	dim int
}

// NewHTTP checks a configuration and returns its provider. It does not
// contact the server.
func NewHTTP(cfg HTTPConfig) (*HTTP, error) {
	if cfg.URL == "" {
		return nil, fmt.Errorf("%w: no endpoint URL; set SDL_EMBED_URL or embedding.url in .sdl/config.yaml", ErrConfig)
	}
	if !strings.HasPrefix(cfg.URL, "http://") && !strings.HasPrefix(cfg.URL, "https://") {
		return nil, fmt.Errorf("%w: URL %q must start with http:// or https://", ErrConfig, cfg.URL)
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("%w: no model name; set SDL_EMBED_MODEL or embedding.model in .sdl/config.yaml", ErrConfig)
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 64
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.Retries < 0 {
		cfg.Retries = 0
	} else if cfg.Retries == 0 {
		cfg.Retries = 3
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	return &HTTP{cfg: cfg, endpoint: endpointOf(cfg.URL)}, nil
}

// endpointOf completes a server URL to its embeddings endpoint.
func endpointOf(u string) string {
	u = strings.TrimRight(u, "/")
	switch {
	case strings.HasSuffix(u, "/embeddings"):
		return u
	case strings.HasSuffix(u, "/v1"):
		return u + "/embeddings"
	}
	return u + "/v1/embeddings"
}

// ID implements Provider: the model name, which is what decides the
// vectors (the same model behind another URL gives the same ones).
func (h *HTTP) ID() string { return "http/" + h.cfg.Model }

// Dim implements Provider: 0 until the first answer.
func (h *HTTP) Dim() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dim
}

// Endpoint is the URL requests go to.
func (h *HTTP) Endpoint() string { return h.endpoint }

// EmbedDocs implements Provider, in batches.
func (h *HTTP) EmbedDocs(ctx context.Context, docs []Doc) ([][]float32, error) {
	texts := make([]string, len(docs))
	for i := range docs {
		texts[i] = docs[i].Text()
	}
	return h.embed(ctx, texts)
}

// EmbedQuery implements Provider.
func (h *HTTP) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	if len(text) > maxDocText {
		text = text[:maxDocText]
	}
	vs, err := h.embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

func (h *HTTP) embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += h.cfg.BatchSize {
		batch := texts[start:min(start+h.cfg.BatchSize, len(texts))]
		vs, err := h.batch(ctx, batch)
		if err != nil {
			return out, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

type embeddingRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
}

// permanent marks an error a retry would not cure.
type permanent struct{ error }

// batch sends one request, retrying failures that may pass: network
// errors, timeouts, 429 and 5xx answers.
func (h *HTTP) batch(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(embeddingRequest{Model: h.cfg.Model, Input: texts})
	if err != nil {
		return nil, err
	}
	wait := h.cfg.Backoff
	var last error
	for attempt := 0; attempt <= h.cfg.Retries; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			case <-t.C:
			}
			wait *= 2
		}
		vs, err := h.send(ctx, body, len(texts))
		if err == nil {
			return vs, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var p permanent
		if errors.As(err, &p) {
			return nil, p.error
		}
		last = err
	}
	return nil, fmt.Errorf("%w: %s after %d attempts: %v", ErrUnavailable, h.endpoint, h.cfg.Retries+1, last)
}

func (h *HTTP) send(ctx context.Context, body []byte, n int) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, h.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, permanent{fmt.Errorf("%w: %v", ErrConfig, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	if h.cfg.Key != "" {
		req.Header.Set("Authorization", "Bearer "+h.cfg.Key)
	}
	resp, err := h.cfg.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return nil, fmt.Errorf("%s: %s", resp.Status, snippet(data))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, permanent{fmt.Errorf("embedding request to %s: %s: %s", h.endpoint, resp.Status, snippet(data))}
	}
	var er embeddingResponse
	if err := json.Unmarshal(data, &er); err != nil {
		return nil, permanent{fmt.Errorf("embedding answer from %s is not OpenAI-compatible JSON: %v", h.endpoint, err)}
	}
	if len(er.Data) != n {
		return nil, permanent{fmt.Errorf("embedding answer from %s has %d vectors for %d inputs", h.endpoint, len(er.Data), n)}
	}
	out := make([][]float32, n)
	for _, d := range er.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, permanent{fmt.Errorf("embedding answer from %s has a bad index %d", h.endpoint, d.Index)}
		}
		if err := h.checkDim(len(d.Embedding)); err != nil {
			return nil, permanent{err}
		}
		out[d.Index] = unit(d.Embedding)
	}
	return out, nil
}

// checkDim learns the dimension from the first vector and holds every
// later one to it.
func (h *HTTP) checkDim(n int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n == 0 {
		return fmt.Errorf("%w: %s returned an empty vector", ErrDimension, h.endpoint)
	}
	if h.dim == 0 {
		h.dim = n
		return nil
	}
	if n != h.dim {
		return fmt.Errorf("%w: model %s returned %d dimensions after %d", ErrDimension, h.cfg.Model, n, h.dim)
	}
	return nil
}

// unit scales a vector to length 1 (servers do not all normalize); nil
// for a zero vector, which has no direction.
func unit(v []float64) []float32 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	if s == 0 {
		return nil
	}
	out := make([]float32, len(v))
	s = math.Sqrt(s)
	for i, x := range v {
		out[i] = float32(x / s)
	}
	return out
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
