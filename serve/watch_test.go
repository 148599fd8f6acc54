package serve_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/serve"
)

// TestWatchIndexesSavedFiles: with a watcher running, an edit, a new file
// in a new directory and a removal each reach the index as a new version
// without anyone asking.
func TestWatchIndexesSavedFiles(t *testing.T) {
	p := newInProcess(t, "go")
	repo, _ := p.repos.Get("shop")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	var runs []string
	wg.Add(1)
	go func() {
		defer wg.Done()
		serve.Watch(ctx, repo, serve.WatchOptions{Debounce: 30 * time.Millisecond, SDLVersion: "test",
			OnIndex: func(s *index.Summary, err error) {
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					runs = append(runs, "error: "+err.Error())
				} else {
					runs = append(runs, s.Version)
				}
			}})
	}()
	defer func() { cancel(); wg.Wait() }()
	// the watcher is up once a first change is seen; keep touching until then
	found := func(q, name string) bool {
		return strings.Contains(sharedSearch(t, p.db, p.root, q), `"name":"`+name+`"`)
	}
	f := filepath.Join(p.root, "store", "item.go")
	data, _ := os.ReadFile(f)
	edited := append(append([]byte{}, data...), []byte("\n// Discount lowers a price.\nfunc Discount(p float64) float64 { return p * 0.9 }\n")...)
	waitFor(t, func() bool {
		os.WriteFile(f, edited, 0o644)
		time.Sleep(50 * time.Millisecond)
		return found("Discount", "Discount")
	})
	os.MkdirAll(filepath.Join(p.root, "report"), 0o755)
	os.WriteFile(filepath.Join(p.root, "report", "report.go"), []byte("package report\n\n// Summarize reports totals.\nfunc Summarize() int { return 0 }\n"), 0o644)
	waitFor(t, func() bool { return found("Summarize", "Summarize") })
	os.Remove(filepath.Join(p.root, "report", "report.go"))
	waitFor(t, func() bool { return !found("Summarize", "Summarize") })
	// a run's version is searchable before its OnIndex call returns
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(runs) >= 3 })
	mu.Lock()
	defer mu.Unlock()
	for _, r := range runs {
		if strings.HasPrefix(r, "error") {
			t.Errorf("watch run: %s", r)
		}
	}
	if len(runs) < 3 {
		t.Errorf("runs: %v", runs)
	}
}
