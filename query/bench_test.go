package query_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// BenchmarkQueriesGoroot measures query latency on an index of
// $(go env GOROOT)/src with the built-in model's vectors (built once, or
// taken from SDL_BENCH_DB): search without and with the vector lane, the
// same searches again (search-again: a server holds the full-text terms it
// was asked about and scores them in Go), card, and slice (4000 tokens)
// with and without the vector lane, reported as p50 and p99 in
// milliseconds. The reference, measured in the same run on the same
// questions, is one bare FTS5 bm25 query (bm25), so that search/bm25 and
// slice/bm25 hold on a busy machine; the CPU time of a call (the mean,
// the process's own) moves less than the wall time when other processes
// take the cores. The vector lane alone is measured on the same questions:
// vec0 KNN in SQLite, the same answer from vec0's chunks read whole
// (chunk-knn, what a one-question process does), loading every vector into
// memory (scan-cold, what a server pays once) and a Go scan of them
// (scan-warm, what a server does after), and semantic search with the
// vectors in memory; and slice as sdl serve answers it, with the vectors
// in memory (slice-server).
// SDL_BENCH_ROOT and SDL_BENCH_DB point it at the index of another tree.
func BenchmarkQueriesGoroot(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if r := os.Getenv("SDL_BENCH_ROOT"); r != "" {
		root = r // with SDL_BENCH_DB: an index of another tree (make soak)
	}
	db := os.Getenv("SDL_BENCH_DB")
	if db == "" {
		db = filepath.Join(b.TempDir(), "index.db")
		if _, err := index.Run(context.Background(), index.Options{Root: root, DB: db, NoGit: true,
			Embedding: embed.Config{Provider: embed.ProviderBuiltin}}); err != nil {
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
	cpus := map[string]float64{} // CPU time of a call, by name
	measure := func(name string, n int, f func(i int) error) (p50 float64) {
		var ds []time.Duration
		cpu0 := cpuTime()
		for i := 0; i < n; i++ {
			start := time.Now()
			if err := f(i); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			ds = append(ds, time.Since(start))
		}
		cpu := (cpuTime() - cpu0).Seconds() * 1000 / float64(n)
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		p50 = ds[len(ds)/2].Seconds() * 1000
		p99 := ds[len(ds)*99/100].Seconds() * 1000
		b.ReportMetric(p50, name+"-p50-ms")
		b.ReportMetric(p99, name+"-p99-ms")
		b.ReportMetric(cpu, name+"-cpu-ms")
		cpus[name] = cpu
		b.Logf("%-6s n=%d p50 %.2f ms p99 %.2f ms, CPU %.2f ms a call", name, n, p50, p99, cpu)
		return p50
	}
	for _, q := range searches {
		// the reference goes first: it should not pay for paging the
		// full-text table in alone
		if _, err := x.BM25ForTest(ctx, q, 20); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < b.N; i++ {
		ref := measure("bm25", len(searches), func(i int) error {
			_, err := x.BM25ForTest(ctx, searches[i], 20)
			return err
		})
		search := measure("search", len(searches), func(i int) error {
			_, err := x.Search(ctx, query.SearchRequest{Query: searches[i], Limit: 20})
			return err
		})
		// the same questions again: a server holds the terms it was asked
		// about (ftsrank.go), so this is what it pays for its vocabulary
		measure("search-again", len(searches), func(i int) error {
			_, err := x.Search(ctx, query.SearchRequest{Query: searches[i], Limit: 20})
			return err
		})
		measure("card", len(ids), func(i int) error {
			_, err := x.Card(ctx, query.CardRequest{SymbolID: ids[i]})
			return err
		})
		slice := measure("slice", len(tasks)*3, func(i int) error {
			_, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: tasks[i%len(tasks)]})
			return err
		})
		b.ReportMetric(search/ref, "search/bm25")
		b.ReportMetric(slice/ref, "slice/bm25")
		b.ReportMetric(cpus["search"]/cpus["bm25"], "search-cpu/bm25")
		b.ReportMetric(cpus["slice"]/cpus["bm25"], "slice-cpu/bm25")
		if x.VectorLaneReason(ctx) != "" {
			b.Logf("no vector lane: %s", x.VectorLaneReason(ctx))
			continue
		}
		off := false
		measure("slice-lexical", len(tasks)*3, func(i int) error {
			_, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: tasks[i%len(tasks)], Semantic: &off})
			return err
		})
		// slice as a server answers it: sdl serve keeps the vectors in
		// memory (KeepVectors), which the slices above read from the
		// file; one slice loads them first
		srv, err := query.Open(x.Path, x.Root)
		if err != nil {
			b.Fatal(err)
		}
		srv.KeepVectors()
		if _, err := srv.BuildSlice(ctx, query.SliceRequest{TaskText: tasks[0]}); err != nil {
			b.Fatal(err)
		}
		served := measure("slice-server", len(tasks)*3, func(i int) error {
			_, err := srv.BuildSlice(ctx, query.SliceRequest{TaskText: tasks[i%len(tasks)]})
			return err
		})
		srv.Close()
		b.ReportMetric(served/ref, "slice-server/bm25")
		b.ReportMetric(cpus["slice-server"]/cpus["bm25"], "slice-server-cpu/bm25")
		measure("search-semantic", len(searches), func(i int) error {
			_, err := x.Search(ctx, query.SearchRequest{Query: searches[i], Limit: 20, Semantic: true})
			return err
		})
		benchVectorLane(b, x, append(append([]string{}, tasks...), searches[len(searches)-6:]...), measure)
	}
}

// benchVectorLane times the k=100 nearest neighbours of questions: with
// vec0, from its chunks, and with a Go scan of int8 vectors.
func benchVectorLane(b *testing.B, x *query.Index, questions []string, measure func(string, int, func(int) error) float64) {
	ctx := context.Background()
	m, err := embed.Default()
	if err != nil {
		b.Fatal(err)
	}
	qs := make([][]int8, len(questions))
	for i, q := range questions {
		qs[i] = embed.Quantize(m.TextVector(q))
	}
	const k = 100
	measure("embed-question", len(questions), func(i int) error {
		m.TextVector(questions[i])
		return nil
	})
	measure("vec0-knn", len(qs)*2, func(i int) error {
		n, err := x.KNNForTest(ctx, qs[i%len(qs)], k)
		if err == nil && n == 0 {
			err = fmt.Errorf("no neighbours")
		}
		return err
	})
	measure("chunk-knn", len(qs)*2, func(i int) error {
		n, err := x.ChunkKNNForTest(ctx, qs[i%len(qs)], k)
		if err == nil && n == 0 {
			err = fmt.Errorf("no neighbours")
		}
		return err
	})
	measure("scan-cold", 3, func(i int) error {
		// what a process that keeps vectors pays once: load them all
		y, err := query.Open(x.Path, x.Root)
		if err != nil {
			return err
		}
		defer y.Close()
		if n, err := y.LoadVectorsForTest(ctx); err != nil || n == 0 {
			return fmt.Errorf("loaded %d vectors: %v", n, err)
		}
		return nil
	})
	n, err := x.LoadVectorsForTest(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n), "vectors")
	measure("scan-warm", len(qs)*2, func(i int) error {
		n, ok, err := x.WarmKNNForTest(ctx, qs[i%len(qs)], k)
		if err == nil && (!ok || n == 0) {
			err = fmt.Errorf("no neighbours from memory")
		}
		return err
	})
	measure("search-semantic-warm", len(questions), func(i int) error {
		_, err := x.Search(ctx, query.SearchRequest{Query: questions[i], Limit: 20, Semantic: true})
		return err
	})
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
