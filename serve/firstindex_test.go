package serve_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/serve"
)

// TestServeBeforeTheFirstIndex: a server over a repository nobody indexed
// answers at once: while it builds the index, calls that need it say how
// far it got, the tools that need none work, and then everything answers.
func TestServeBeforeTheFirstIndex(t *testing.T) {
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", "go"))
	root := filepath.Join(t.TempDir(), "shop")
	if err := copyTree(src, root); err != nil {
		t.Fatal(err)
	}
	repo := serve.NewRepo("shop", root, "")
	repos, err := serve.NewRepos(repo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(repos.Close)
	srv := serve.New(serve.NewRegistry(), repos, serve.Options{Version: "test"})
	ctx := context.Background()

	parsing, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var once sync.Once
	hold := func(p index.Progress) {
		if p.Total > 0 { // the build is under way: hold it there
			once.Do(func() { close(parsing); <-release })
		}
	}
	if !repo.IndexInBackground(ctx, index.Options{NoGit: true, SDLVersion: "test", Progress: hold}, t.Logf, done) {
		t.Fatal("no build started for a repository without an index")
	}
	<-parsing
	_, err = srv.Call(ctx, "sdl.symbol.search", []byte(`{"query": "NewStore"}`))
	if !errors.Is(err, serve.ErrIndexing) || !strings.Contains(err.Error(), " files") {
		t.Errorf("a search during the first index: %v, want an error saying indexing, N of M files", err)
	}
	if _, err := srv.Call(ctx, "sdl.info", []byte(`{}`)); err != nil {
		t.Errorf("sdl.info during the first index: %v", err)
	}
	if _, err := srv.Call(ctx, "sdl.index.refresh", []byte(`{}`)); !errors.Is(err, serve.ErrIndexing) {
		t.Errorf("a refresh during the first index runs a second writer: %v", err)
	}
	close(release)
	<-done
	out, err := srv.Call(ctx, "sdl.symbol.search", []byte(`{"query": "NewStore"}`))
	if err != nil || !strings.Contains(string(out), `"name":"NewStore"`) {
		t.Errorf("after the first index: %s %v", out, err)
	}
	if repo.IndexInBackground(ctx, index.Options{NoGit: true}, t.Logf, nil) {
		t.Error("a second build started over an existing index")
	}
}
