package query_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// processRuns is how many times each process is started.
const processRuns = 20

// BenchmarkProcessSlice measures `sdl slice` as a whole process on an index
// of $(go env GOROOT)/src (built once with the binary, or SDL_BENCH_DB),
// against `sdl version`, a process that starts and does nothing, in the
// same run: p50 wall time and peak RSS of each, and the size of the binary.
// It runs bin/sdl (make bench builds it; SDL_BIN names another). Peak RSS
// counts the pages of the binary and of the index file a process maps, not
// only its own memory, so the reference is measured alongside.
func BenchmarkProcessSlice(b *testing.B) {
	src := os.Getenv("SDL_BIN")
	if src == "" {
		src = filepath.Join("..", "bin", "sdl")
	}
	if _, err := os.Stat(src); err != nil {
		b.Skipf("no binary at %s (make build, or SDL_BIN)", src)
	}
	bin, err := filepath.Abs(src)
	if err != nil {
		b.Fatal(err)
	}
	if st, err := os.Stat(bin); err == nil {
		b.ReportMetric(float64(st.Size())/1e6, "binary-MB")
		b.Logf("binary %s: %.1f MB", src, float64(st.Size())/1e6)
	}
	db := os.Getenv("SDL_BENCH_DB")
	if db == "" {
		db = filepath.Join(b.TempDir(), "index.db")
		out, err := exec.Command(bin, "index", "--db", db, filepath.Join(runtime.GOROOT(), "src")).CombinedOutput()
		if err != nil {
			b.Fatalf("sdl index: %v\n%s", err, out)
		}
	}
	// A child that Go starts (vfork) inherits this process's peak RSS as
	// its own, so the peak is taken by GNU time, which forks: KiB, for both
	// processes alike.
	gnuTime, _ := exec.LookPath("/usr/bin/time")
	rssFile := filepath.Join(b.TempDir(), "rss")
	run := func(name string, args ...string) (p50 float64) {
		var walls []float64
		var peak int64
		for range processRuns {
			cmd := exec.Command(bin, args...)
			if gnuTime != "" {
				cmd = exec.Command(gnuTime, append([]string{"-f", "%M", "-o", rssFile, bin}, args...)...)
			}
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("sdl %s: %v\n%s", name, err, out)
			}
			walls = append(walls, time.Since(start).Seconds()*1000)
			if gnuTime == "" {
				continue
			}
			data, err := os.ReadFile(rssFile)
			if err != nil {
				b.Fatal(err)
			}
			kib, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
			if err != nil {
				b.Fatalf("peak RSS of sdl %s: %q", name, data)
			}
			peak = max(peak, kib)
		}
		sort.Float64s(walls)
		p50 = walls[len(walls)/2]
		b.ReportMetric(p50, name+"-p50-ms")
		b.ReportMetric(float64(peak)/1024, name+"-peak-MiB")
		b.Logf("%-7s n=%d p50 %.1f ms p90 %.1f ms peak RSS %.1f MiB", name, processRuns, p50, walls[len(walls)*9/10], float64(peak)/1024)
		return p50
	}
	for i := 0; i < b.N; i++ {
		ref := run("version", "version")
		p50 := run("slice", "slice", "--db", db, "fix the timeout in the HTTP client")
		b.ReportMetric(p50/ref, "slice/version")
		b.Logf("slice: %.1fx the no-op process start", p50/ref)
	}
}
