package query_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// BenchmarkQueriesGoroot measures query latency on an index of
// $(go env GOROOT)/src (built once, or taken from SDL_BENCH_DB): search,
// card and slice (4000 tokens), reported as p50 and p99 in milliseconds.
// SDL_BENCH_ROOT and SDL_BENCH_DB point it at the index of another tree.
func BenchmarkQueriesGoroot(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if r := os.Getenv("SDL_BENCH_ROOT"); r != "" {
		root = r // with SDL_BENCH_DB: an index of another tree (make soak)
	}
	db := os.Getenv("SDL_BENCH_DB")
	if db == "" {
		db = filepath.Join(b.TempDir(), "index.db")
		if _, err := index.Run(context.Background(), index.Options{Root: root, DB: db, NoGit: true}); err != nil {
			b.Fatal(err)
		}
	}
	x, err := query.Open(db, root)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	ctx := context.Background()
	query.Tokens("warm up the tokenizer")

	// names spread over the index, deterministically
	rows, err := x.DB.Query(`SELECT id, name FROM symbols WHERE to_seq IS NULL AND kind != 'module' AND rowid % 500 = 0 ORDER BY rowid LIMIT 200`)
	if err != nil {
		b.Fatal(err)
	}
	var ids, names []string
	for rows.Next() {
		var id, name string
		rows.Scan(&id, &name)
		ids, names = append(ids, id), append(names, name)
	}
	rows.Close()
	searches := append(append([]string{}, names...), "parse http header", "tls handshake timeout", "json decoder buffer",
		"walk the directory tree", "sort a slice stably", "goroutine scheduler preemption")
	tasks := []string{
		"http client does not follow redirects when the request body is nil",
		"json decoder returns the wrong offset for syntax errors in nested arrays",
		"tls handshake fails when the server sends an empty certificate list",
		"filepath.Walk follows symlinks into loops on windows",
		"the sort package panics on a nil less function",
		"net/url does not escape the fragment when it contains spaces",
		"bufio.Scanner loses the last token when the input has no trailing newline",
		"time.Parse accepts an invalid day of month for February",
		"strconv.ParseFloat rounds incorrectly for very long mantissas",
		"os/exec leaks file descriptors when Start fails",
	}
	measure := func(name string, n int, f func(i int) error) {
		var ds []time.Duration
		for i := 0; i < n; i++ {
			start := time.Now()
			if err := f(i); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			ds = append(ds, time.Since(start))
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		p50 := ds[len(ds)/2].Seconds() * 1000
		p99 := ds[len(ds)*99/100].Seconds() * 1000
		b.ReportMetric(p50, name+"-p50-ms")
		b.ReportMetric(p99, name+"-p99-ms")
		b.Logf("%-6s n=%d p50 %.2f ms p99 %.2f ms", name, n, p50, p99)
	}
	for i := 0; i < b.N; i++ {
		measure("search", len(searches), func(i int) error {
			_, err := x.Search(ctx, query.SearchRequest{Query: searches[i], Limit: 20})
			return err
		})
		measure("card", len(ids), func(i int) error {
			_, err := x.Card(ctx, query.CardRequest{SymbolID: ids[i]})
			return err
		})
		measure("slice", len(tasks)*3, func(i int) error {
			_, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: tasks[i%len(tasks)]})
			return err
		})
	}
}
