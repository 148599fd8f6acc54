package main

import (
	"os"
	"strings"
	"testing"
)

// The output of one run of the query benchmarks (testdata/query.txt, as
// go test printed it) fills the query rows, with the ratios computed by
// the benchmarks and by the table; the index rows say they did not run.
func TestTableFromQueryBenchmarks(t *testing.T) {
	f, err := os.Open("testdata/query.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	results, err := parse(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := results["BenchmarkProcessSlice"]["binary-MB"]; got != 63.77 {
		t.Errorf("binary-MB = %v, want 63.77 (the -2 suffix stripped, the value read)", got)
	}
	out := table(results)
	for _, want := range []string{
		"| search p50 / p99 | 12.0 / 300 ms; CPU ? ms a call | bare bm25 23.1 / 371 ms; CPU ? ms |",
		"| 0.519x bm25 (p50); ?x its CPU | <= 1 / 10 ms |",
		"| `sdl slice` as a whole process on GOROOT/src | 254 ms wall, 75.9 ms CPU, 94.0 MiB peak | `sdl version` 18.3 ms wall, 16.1 ms CPU, 27.3 MiB | 13.9x wall; 4.73x CPU |",
		"| binary, `-s -w` | 63.8 MB |",
		"| GOROOT/src full index, default | not run (BenchmarkIndexGoroot) |",
		"| `sdl slice` process, largest dev2 repository | 167 ms wall, 51.1 ms CPU |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	// this run predates the CPU metrics of the query benchmark: a note
	// names what is missing
	if !strings.Contains(out, "not measured yet: search p50 / p99: BenchmarkQueriesGoroot does not report search-cpu-ms, bm25-cpu-ms, search-cpu/bm25") {
		t.Errorf("missing metrics are not named:\n%s", out)
	}
}

// One run of BenchmarkIndexLarge over the 13 dev2 checkouts (testdata/
// index-large.txt) fills the large-checkout row, the ratio of the means
// computed by the table.
func TestTableFromIndexLarge(t *testing.T) {
	f, err := os.Open("testdata/index-large.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	results, err := parse(f)
	if err != nil {
		t.Fatal(err)
	}
	out := table(results)
	want := "| index of large checkouts (SDL_BENCH_CHECKOUTS), mean / max | 8.99 / 26.8 s; CPU 2.75 s mean | " +
		"the eval's BM25 build 10.9 / 33.8 s; CPU 2.44 s mean | 0.826x BM25 (mean); 1.13x its CPU | mean <= the BM25 build |"
	if !strings.Contains(out, want) {
		t.Errorf("the table lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "not measured yet: index of large") {
		t.Errorf("the row names a missing metric:\n%s", out)
	}
}
