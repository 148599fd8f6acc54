package query_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// BenchmarkChangeHistory indexes the last SDL_BENCH_COMMITS (default 50)
// first-parent commits of the git repository SDL_BENCH_HISTORY (a bare
// clone will do) with --rev, oldest first, into one index, and reports:
// the time of the first (full) build and of each next (incremental) one,
// the file's growth per version, and the latency of delta, risk and a
// slice refresh between consecutive versions and across the whole range;
// and, after each commit, a refresh of a slice held since the version
// before against building that slice again.
func BenchmarkChangeHistory(b *testing.B) {
	repo := os.Getenv("SDL_BENCH_HISTORY")
	if repo == "" {
		b.Skip("set SDL_BENCH_HISTORY to a git repository")
	}
	n := 50
	if s := os.Getenv("SDL_BENCH_COMMITS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	out, err := exec.Command("git", "-C", repo, "log", "--first-parent", "--format=%H", "-"+strconv.Itoa(n)).Output()
	if err != nil {
		b.Fatal(err)
	}
	commits := strings.Fields(string(out))
	for i, j := 0, len(commits)-1; i < j; i, j = i+1, j-1 {
		commits[i], commits[j] = commits[j], commits[i]
	}
	ctx := context.Background()
	db := filepath.Join(b.TempDir(), "index.db")
	var full time.Duration
	var incr []time.Duration
	var sizes []int64
	timeIt := func(f func()) time.Duration { t0 := time.Now(); f(); return time.Since(t0) }
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	// as an agent would: after each commit, refresh the slice it holds
	// from the version before, against building the slice again
	var x *query.Index
	var handle string
	var stepRefresh, stepBuild []time.Duration
	var stepTokens []int
	stepNotModified := 0
	task := query.SliceRequest{TaskText: "handle the request and write the response"}
	for i, c := range commits {
		t0 := time.Now()
		sum, err := index.Run(ctx, index.Options{Root: repo, DB: db, Rev: c})
		if err != nil {
			b.Fatalf("%s: %v", c, err)
		}
		if i == 0 {
			full = time.Since(t0)
			if x, err = query.Open(db, repo); err != nil {
				b.Fatal(err)
			}
			defer x.Close()
			s, err := x.BuildSlice(ctx, task)
			if err != nil {
				b.Fatal(err)
			}
			handle = s.SliceHandle
		} else {
			incr = append(incr, time.Since(t0))
			var r *query.RefreshResponse
			stepRefresh = append(stepRefresh, timeIt(func() {
				if r, err = x.RefreshSlice(ctx, query.RefreshRequest{SliceHandle: handle, KnownVersion: fmt.Sprintf("v%d", sum.Seq-1)}); err != nil {
					b.Fatal(err)
				}
			}))
			stepTokens = append(stepTokens, query.Tokens(string(query.EncodeJSON(r))))
			if r.NotModified {
				stepNotModified++
			}
			stepBuild = append(stepBuild, timeIt(func() {
				if _, err := x.BuildSlice(ctx, task); err != nil {
					b.Fatal(err)
				}
			}))
		}
		sizes = append(sizes, checkpointedSize(b, db))
	}
	vs, _ := x.Versions(ctx)
	last := len(vs)
	sort.Ints(stepTokens)
	b.Logf("after each commit, a slice refresh from the version before (%d of %d notModified): p50 %.1f ms, max %.1f ms, %d tokens (max %d); "+
		"building the slice again: p50 %.1f ms", stepNotModified, len(stepRefresh), ms(pct(stepRefresh, 50)), ms(pct(stepRefresh, 100)),
		stepTokens[(len(stepTokens)-1)/2], stepTokens[len(stepTokens)-1], ms(pct(stepBuild, 50)))

	var deltas, risks []time.Duration
	changes := 0
	for v := 2; v <= last; v++ {
		from, to := fmt.Sprintf("v%d", v-1), fmt.Sprintf("v%d", v)
		deltas = append(deltas, timeIt(func() {
			d, err := x.Delta(ctx, query.DeltaRequest{FromVersion: from, ToVersion: to})
			if err != nil {
				b.Fatal(err)
			}
			changes += int(d.Delta.Summary.SymbolsAdded + d.Delta.Summary.SymbolsModified + d.Delta.Summary.SymbolsRemoved + d.Delta.Summary.SymbolsRenamed)
		}))
		risks = append(risks, timeIt(func() {
			if _, err := x.AnalyzeRisk(ctx, query.RiskRequest{FromVersion: from, ToVersion: to}); err != nil {
				b.Fatal(err)
			}
		}))
	}
	var whole query.DeltaSummary
	wholeDelta := timeIt(func() {
		d, err := x.Delta(ctx, query.DeltaRequest{FromVersion: "v1", ToVersion: "HEAD"})
		if err != nil {
			b.Fatal(err)
		}
		whole = d.Delta.Summary
	})
	wholeRisk := timeIt(func() {
		if _, err := x.AnalyzeRisk(ctx, query.RiskRequest{FromVersion: "v1", ToVersion: "HEAD"}); err != nil {
			b.Fatal(err)
		}
	})
	slice, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "handle the request and write the response"})
	if err != nil {
		b.Fatal(err)
	}
	// a refresh against building the slice again: time and answer size
	var refresh, builds []time.Duration
	var refreshTokens []int
	notModified := 0
	for v := 1; v < last; v++ {
		var r *query.RefreshResponse
		refresh = append(refresh, timeIt(func() {
			if r, err = x.RefreshSlice(ctx, query.RefreshRequest{SliceHandle: slice.SliceHandle, KnownVersion: fmt.Sprintf("v%d", v)}); err != nil {
				b.Fatal(err)
			}
		}))
		refreshTokens = append(refreshTokens, query.Tokens(string(query.EncodeJSON(r))))
		if r.NotModified {
			notModified++
		}
		builds = append(builds, timeIt(func() {
			if _, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "handle the request and write the response"}); err != nil {
				b.Fatal(err)
			}
		}))
	}
	// a handle this process did not build: the slice is built again
	other, err := query.Open(db, repo)
	if err != nil {
		b.Fatal(err)
	}
	defer other.Close()
	var rebuilt []time.Duration
	for v := 1; v < last; v += 4 {
		rebuilt = append(rebuilt, timeIt(func() {
			if _, err := other.RefreshSlice(ctx, query.RefreshRequest{SliceHandle: slice.SliceHandle, KnownVersion: fmt.Sprintf("v%d", v)}); err != nil {
				b.Fatal(err)
			}
		}))
	}
	sort.Ints(refreshTokens)
	sliceTokens := query.Tokens(string(query.EncodeJSON(slice)))

	b.ReportMetric(ms(full), "full-build-ms")
	b.ReportMetric(ms(pct(incr, 50)), "incr-p50-ms")
	b.ReportMetric(ms(pct(incr, 100)), "incr-max-ms")
	b.ReportMetric(float64(sizes[len(sizes)-1]-sizes[0])/float64(max(1, len(sizes)-1))/1024, "KiB/version")
	b.ReportMetric(ms(pct(deltas, 50)), "delta-p50-ms")
	b.ReportMetric(ms(pct(risks, 50)), "risk-p50-ms")
	b.ReportMetric(ms(pct(refresh, 50)), "refresh-p50-ms")
	b.Logf("%d commits of %s: full build %.0f ms (%.1f MiB); incremental p50 %.0f ms, mean %.0f ms, max %.0f ms; "+
		"file %.1f -> %.1f MiB (%.1f KiB a version)", len(commits), repo, ms(full), float64(sizes[0])/(1<<20),
		ms(pct(incr, 50)), ms(mean(incr)), ms(pct(incr, 100)), float64(sizes[0])/(1<<20), float64(sizes[len(sizes)-1])/(1<<20),
		float64(sizes[len(sizes)-1]-sizes[0])/float64(max(1, len(sizes)-1))/1024)
	b.Logf("consecutive versions (%d symbol changes in all): delta p50 %.1f ms, max %.1f ms; risk p50 %.1f ms, max %.1f ms; "+
		"refresh p50 %.1f ms, max %.1f ms", changes, ms(pct(deltas, 50)), ms(pct(deltas, 100)), ms(pct(risks, 50)), ms(pct(risks, 100)),
		ms(pct(refresh, 50)), ms(pct(refresh, 100)))
	b.Logf("slice refresh from each older version (%d of %d notModified): p50 %.1f ms, %d tokens (max %d); building the slice again: p50 %.1f ms, %d tokens; "+
		"a refresh in another process (the slice rebuilt at the current version): p50 %.1f ms",
		notModified, len(refresh), ms(pct(refresh, 50)), refreshTokens[(len(refreshTokens)-1)/2], refreshTokens[len(refreshTokens)-1],
		ms(pct(builds, 50)), sliceTokens, ms(pct(rebuilt, 50)))
	b.Logf("v1..%s (%d added, %d modified, %d removed, %d renamed, %d relocated; radius %d): delta %.1f ms, risk %.1f ms",
		vs[last-1].ID, whole.SymbolsAdded, whole.SymbolsModified, whole.SymbolsRemoved, whole.SymbolsRenamed, whole.SymbolsRelocated,
		whole.BlastRadius, ms(wholeDelta), ms(wholeRisk))
}

// checkpointedSize is the size of the index once its WAL is folded in.
func checkpointedSize(b *testing.B, db string) int64 {
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		b.Fatal(err)
	}
	conn.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	var pages, size int64
	conn.QueryRow(`PRAGMA page_count`).Scan(&pages)
	conn.QueryRow(`PRAGMA page_size`).Scan(&size)
	conn.Close()
	return pages * size
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration{}, ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s) - 1) * p / 100
	return s[i]
}

func mean(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	var t time.Duration
	for _, d := range ds {
		t += d
	}
	return t / time.Duration(len(ds))
}
