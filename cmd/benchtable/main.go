// Command benchtable prints the speed table of issues 18 and 20 from the
// output of `go test -bench` (what make bench runs): each figure beside
// its reference measured in the same run (a bare tree-sitter parse, ctags,
// a bare FTS5 bm25 query, a no-op process start, the BM25 build of the
// eval) and their ratio, which holds on a busy machine where the absolute
// figures move by 2x. A figure whose benchmark did not run says so; a
// metric a benchmark does not report (yet) prints as ?, and a note under
// the table names it: the hook another benchmark fills.
//
//	go test -run '^$' -bench . -benchtime 1x ./index/ ./query/ > bench.txt
//	go run ./cmd/benchtable bench.txt
package main

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// row is one figure of the table. Its cells are templates: {metric} is a
// metric the benchmark reported, {a|b} the ratio of two of them.
type row struct {
	figure, bench     string
	value, ref, ratio string
	goal              string
}

// rows follow issue 20's table, then issue 18's part 5. The index rows
// read BenchmarkIndexGoroot's runs: the default, sdl-precise-s (a
// --precise on run) and ctags-s (`ctags -R` over the same tree), each
// beside the raw parse of the same run. BenchmarkIndexLarge (with
// SDL_BENCH_CHECKOUTS) reports the index of large checkouts beside the
// eval's BM25 build of the same files.
var rows = []row{
	{"GOROOT/src full index, default", "BenchmarkIndexGoroot",
		"{sdl-s} s", "raw parse {raw-s} s; raw+tags {raw+tags-s} s", "{x-raw}x raw; {x-raw+tags}x raw+tags", "<= 2x raw, <= 1.5x raw+tags"},
	{"same, `--precise on`", "BenchmarkIndexGoroot",
		"{sdl-precise-s} s", "raw parse {raw-s} s", "{sdl-precise-s|raw-s}x raw", ""},
	{"against `ctags -R --languages=Go`", "BenchmarkIndexGoroot",
		"{sdl-s} s", "ctags {ctags-s} s", "{sdl-s|ctags-s}x ctags", "<= 6x"},
	{"re-index after touching one file (GOROOT/src)", "BenchmarkIndexGoroot",
		"{touch1-s} s", "full index {sdl-s} s", "{touch1-s|sdl-s}x the full index", "< 0.3 s"},
	{"peak RSS, GOROOT/src full index", "BenchmarkIndexGoroot",
		"{peak-RSS-MB} MB", "", "", "<= 500 MB"},
	{"search p50 / p99", "BenchmarkQueriesGoroot",
		"{search-p50-ms} / {search-p99-ms} ms; CPU {search-cpu-ms} ms a call", "bare bm25 {bm25-p50-ms} / {bm25-p99-ms} ms; CPU {bm25-cpu-ms} ms", "{search/bm25}x bm25 (p50); {search-cpu/bm25}x its CPU", "<= 1 / 10 ms"},
	{"search p50 / p99, the same questions again (a server holds their terms)", "BenchmarkQueriesGoroot",
		"{search-again-p50-ms} / {search-again-p99-ms} ms; CPU {search-again-cpu-ms} ms a call", "bare bm25 {bm25-p50-ms} / {bm25-p99-ms} ms; CPU {bm25-cpu-ms} ms", "{search-again-cpu-ms|bm25-cpu-ms}x its CPU", "<= 1 / 10 ms"},
	// an index has no vectors unless asked (embed.DefaultProvider): the
	// lexical slice is what a default index answers; the bench's index
	// has the built-in vectors to measure the vector lane too
	{"slice p50 / p99 at 4000 tokens, default index (no vectors)", "BenchmarkQueriesGoroot",
		"{slice-lexical-p50-ms} / {slice-lexical-p99-ms} ms; CPU {slice-lexical-cpu-ms} ms a call", "bare bm25 {bm25-p50-ms} ms; CPU {bm25-cpu-ms} ms", "{slice-lexical-p50-ms|bm25-p50-ms}x bm25 (p50); {slice-lexical-cpu-ms|bm25-cpu-ms}x its CPU", "<= 15 / 30 ms"},
	{"same, with built-in vectors read from the file (`--embed builtin`)", "BenchmarkQueriesGoroot",
		"{slice-p50-ms} / {slice-p99-ms} ms; CPU {slice-cpu-ms} ms a call", "bare bm25 {bm25-p50-ms} ms; CPU {bm25-cpu-ms} ms", "{slice/bm25}x bm25 (p50); {slice-cpu/bm25}x its CPU", ""},
	{"same, vectors held by a server", "BenchmarkQueriesGoroot",
		"{slice-server-p50-ms} / {slice-server-p99-ms} ms; CPU {slice-server-cpu-ms} ms a call", "bare bm25 {bm25-p50-ms} ms; CPU {bm25-cpu-ms} ms", "{slice-server/bm25}x bm25 (p50); {slice-server-cpu/bm25}x its CPU", ""},
	{"`sdl slice` as a whole process on GOROOT/src", "BenchmarkProcessSlice",
		"{slice-p50-ms} ms wall, {slice-cpu-ms} ms CPU, {slice-peak-MiB} MiB peak",
		"`sdl version` {version-p50-ms} ms wall, {version-cpu-ms} ms CPU, {version-peak-MiB} MiB",
		"{slice/version}x wall; {slice-cpu/version}x CPU", "<= 40 ms, <= 60 MB"},
	{"binary, `-s -w`", "BenchmarkProcessSlice",
		"{binary-MB} MB", "", "", "<= 40 MB"},
	{"index of large checkouts (SDL_BENCH_CHECKOUTS), mean / max", "BenchmarkIndexLarge",
		"{sdl-mean-s} / {sdl-max-s} s; CPU {sdl-cpu-mean-s} s mean", "the eval's BM25 build {bm25-mean-s} / {bm25-max-s} s; CPU {bm25-cpu-mean-s} s mean",
		"{sdl-mean-s|bm25-mean-s}x BM25 (mean); {sdl-cpu-mean-s|bm25-cpu-mean-s}x its CPU", "mean <= the BM25 build"},
	{"slice in a warm server, largest dev2 repository (SDL_BENCH_LARGE)", "BenchmarkSliceLarge",
		"p50 {warm-p50-ms} / p99 {warm-p99-ms} ms; CPU {warm-cpu-ms} ms a slice", "", "", "p50 <= 50 ms"},
	{"`sdl slice` process, largest dev2 repository", "BenchmarkSliceLarge",
		"{slice-p50-ms} ms wall, {slice-cpu-ms} ms CPU", "`sdl version` {version-p50-ms} ms wall, {version-cpu-ms} ms CPU",
		"{slice/version}x wall; {slice-cpu/version}x CPU", "p50 <= 100 ms"},
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchtable: ")
	var in io.Reader = os.Stdin
	if len(os.Args) > 1 {
		var rs []io.Reader
		for _, p := range os.Args[1:] {
			f, err := os.Open(p)
			if err != nil {
				log.Fatal(err)
			}
			defer f.Close()
			rs = append(rs, f)
		}
		in = io.MultiReader(rs...)
	}
	results, err := parse(in)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(table(results))
}

// benchLine is a result line of go test -bench: the name (with the
// GOMAXPROCS suffix), the iterations, then value-unit pairs.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// parse reads the metrics of each benchmark; a benchmark run twice keeps
// the last figures.
func parse(r io.Reader) (map[string]map[string]float64, error) {
	out := map[string]map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		metrics := map[string]float64{}
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("parse %s: %q is not a number", m[1], f[i])
			}
			metrics[f[i+1]] = v
		}
		out[m[1]] = metrics
	}
	return out, sc.Err()
}

var placeholder = regexp.MustCompile(`\{([^{}|]+)(?:\|([^{}]+))?\}`)

// fill replaces the placeholders of a cell; a metric the benchmark did not
// report prints as ? and is named in missing.
func fill(cell string, metrics map[string]float64) (s string, missing []string) {
	s = placeholder.ReplaceAllStringFunc(cell, func(p string) string {
		m := placeholder.FindStringSubmatch(p)
		v, ok := metrics[m[1]]
		if !ok {
			missing = append(missing, m[1])
			return "?"
		}
		if m[2] != "" {
			d, ok := metrics[m[2]]
			if !ok || d == 0 {
				missing = append(missing, m[2])
				return "?"
			}
			v /= d
		}
		return number(v)
	})
	return s, missing
}

// number prints three significant digits, without an exponent.
func number(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
}

func table(results map[string]map[string]float64) string {
	var b strings.Builder
	b.WriteString("| figure | measured | reference, same run | ratio | goal |\n|---|---|---|---|---|\n")
	var hooks []string
	for _, r := range rows {
		metrics, ran := results[r.bench]
		if !ran {
			fmt.Fprintf(&b, "| %s | not run (%s) | | | %s |\n", r.figure, r.bench, r.goal)
			continue
		}
		var missing []string
		cells := make([]string, 3)
		for i, c := range []string{r.value, r.ref, r.ratio} {
			s, miss := fill(c, metrics)
			cells[i] = s
			missing = append(missing, miss...)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.figure, cells[0], cells[1], cells[2], r.goal)
		if len(missing) > 0 {
			hooks = append(hooks, fmt.Sprintf("%s: %s does not report %s", r.figure, r.bench, strings.Join(unique(missing), ", ")))
		}
	}
	for _, h := range hooks {
		b.WriteString("\n- not measured yet: " + h)
	}
	if len(hooks) > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

func unique(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
