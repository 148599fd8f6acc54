package serve

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestLimit: with every slot busy a request waits, then gets 503 and a
// Retry-After; once a slot frees, requests are served again.
func TestLimit(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 2)
	h := limit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	}), 2, 10*time.Millisecond)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", nil))
			if rec.Code != http.StatusOK {
				t.Errorf("a request within the cap: %d", rec.Code)
			}
		}()
	}
	<-entered
	<-entered
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", nil))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a request over the cap: %d %v", rec.Code, rec.Header())
	}
	close(release)
	wg.Wait()
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("after the slots freed: %d", rec.Code)
	}
}
