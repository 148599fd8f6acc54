package query_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/query"
)

// processRuns is how many times each process is started.
const processRuns = 20

// BenchmarkProcessSlice measures `sdl slice` as a whole process on an index
// of $(go env GOROOT)/src (built once with the binary, or SDL_BENCH_DB),
// against `sdl version`, a process that starts and does nothing, in the
// same run: p50 wall time, p50 CPU time (user+system, steadier than wall
// on a busy machine) and peak RSS of each, and the size of the binary.
// It runs bin/sdl (make bench builds it; SDL_BIN names another). Peak RSS
// counts the pages of the binary and of the index file a process maps, not
// only its own memory, so the reference is measured alongside.
func BenchmarkProcessSlice(b *testing.B) {
	bin := benchBinary(b)
	if st, err := os.Stat(bin); err == nil {
		b.ReportMetric(float64(st.Size())/1e6, "binary-MB")
		b.Logf("binary %s: %.1f MB", bin, float64(st.Size())/1e6)
	}
	root := filepath.Join(runtime.GOROOT(), "src")
	db := os.Getenv("SDL_BENCH_DB")
	if db == "" {
		db = benchIndexWith(b, bin, root)
	}
	for i := 0; i < b.N; i++ {
		ref := runProcesses(b, bin, "version", [][]string{{"version"}})
		// --root: the slice reads its cards' files to tell stale ones
		slice := runProcesses(b, bin, "slice", [][]string{{"slice", "--db", db, "--root", root, "fix the timeout in the HTTP client"}})
		reportAgainst(b, "slice", slice, ref)
	}
}

// BenchmarkSliceLarge measures slices on a large checkout (issue 18: the
// largest repository of the dev2 set), SDL_BENCH_LARGE, indexed once with
// the binary (or SDL_BENCH_LARGE_DB): in a warm process, as a server
// answers (p50 and p99 of every task three times, after one slice has
// warmed it, and the CPU time of a slice), and as a whole `sdl slice` process against `sdl version` in
// the same run. The tasks are SDL_BENCH_TASKS, one per line, or the
// questions of BenchmarkQueriesGoroot.
//
//	SDL_BENCH_LARGE=/tmp/eslint SDL_BENCH_TASKS=tasks.txt go test ./query -run '^$' -bench SliceLarge -benchtime 1x
func BenchmarkSliceLarge(b *testing.B) {
	root := os.Getenv("SDL_BENCH_LARGE")
	if root == "" {
		b.Skip("SDL_BENCH_LARGE is not set (a checkout of a large repository)")
	}
	bin := benchBinary(b)
	db := os.Getenv("SDL_BENCH_LARGE_DB")
	if db == "" {
		db = benchIndexWith(b, bin, root)
	}
	tasks := benchTasks(b)
	x, err := query.Open(db, root)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	ctx := context.Background()
	var args [][]string
	for _, t := range tasks {
		args = append(args, []string{"slice", "--db", db, "--root", root, t})
	}
	for i := 0; i < b.N; i++ {
		if _, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: tasks[0]}); err != nil {
			b.Fatal(err)
		}
		var ds []float64
		cpu0 := cpuTime()
		for j := 0; j < 3*len(tasks); j++ {
			start := time.Now()
			if _, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: tasks[j%len(tasks)]}); err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(start).Seconds()*1000)
		}
		cpu := (cpuTime() - cpu0).Seconds() * 1000 / float64(len(ds))
		sort.Float64s(ds)
		b.ReportMetric(ds[len(ds)/2], "warm-p50-ms")
		b.ReportMetric(ds[len(ds)*99/100], "warm-p99-ms")
		b.ReportMetric(cpu, "warm-cpu-ms")
		b.Logf("warm   n=%d p50 %.1f ms p99 %.1f ms, CPU %.1f ms a slice", len(ds), ds[len(ds)/2], ds[len(ds)*99/100], cpu)
		ref := runProcesses(b, bin, "version", [][]string{{"version"}})
		slice := runProcesses(b, bin, "slice", args)
		reportAgainst(b, "slice", slice, ref)
	}
}

// benchBinary is bin/sdl (make bench builds it) or SDL_BIN.
func benchBinary(b *testing.B) string {
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
	return bin
}

// benchIndexWith indexes root with the binary into a temporary file.
func benchIndexWith(b *testing.B, bin, root string) string {
	db := filepath.Join(b.TempDir(), "index.db")
	out, err := exec.Command(bin, "index", "--no-git", "--db", db, root).CombinedOutput()
	if err != nil {
		b.Fatalf("sdl index: %v\n%s", err, out)
	}
	return db
}

// benchTasks reads SDL_BENCH_TASKS, one task per line.
func benchTasks(b *testing.B) []string {
	p := os.Getenv("SDL_BENCH_TASKS")
	if p == "" {
		return []string{"http client does not follow redirects when the request body is nil",
			"json decoder returns the wrong offset for syntax errors in nested arrays",
			"fix the timeout in the HTTP client"}
	}
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var tasks []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		b.Fatalf("%s holds no task", p)
	}
	return tasks
}

// processFigures are the p50 wall and CPU times (ms) and the peak RSS
// (MiB) of a command started processRuns times.
type processFigures struct {
	wall, cpu, peak float64
}

// runProcesses starts the binary processRuns times, cycling through the
// argument lists. A child that Go starts (vfork) inherits this process's
// peak RSS as its own, so the peak is taken by GNU time, which forks:
// alike for every process measured. The CPU time is the child's rusage
// (with GNU time's own, well under a millisecond), to the microsecond.
func runProcesses(b *testing.B, bin, name string, args [][]string) processFigures {
	gnuTime, _ := exec.LookPath("/usr/bin/time")
	out := filepath.Join(b.TempDir(), "time")
	var walls, cpus []float64
	var peak float64
	for i := range processRuns {
		a := args[i%len(args)]
		cmd := exec.Command(bin, a...)
		if gnuTime != "" {
			cmd = exec.Command(gnuTime, append([]string{"-f", "%M", "-o", out, bin}, a...)...)
		}
		start := time.Now()
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("sdl %s: %v\n%s", name, err, msg)
		}
		walls = append(walls, time.Since(start).Seconds()*1000)
		ps := cmd.ProcessState
		cpus = append(cpus, (ps.UserTime()+ps.SystemTime()).Seconds()*1000)
		if gnuTime == "" {
			continue
		}
		data, err := os.ReadFile(out)
		if err != nil {
			b.Fatal(err)
		}
		kib, err := strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
		if err != nil {
			b.Fatalf("peak RSS of sdl %s: %q", name, data)
		}
		peak = max(peak, kib/1024)
	}
	fig := processFigures{wall: median(walls), cpu: median(cpus), peak: peak}
	b.ReportMetric(fig.wall, name+"-p50-ms")
	b.ReportMetric(fig.cpu, name+"-cpu-ms")
	if gnuTime != "" {
		b.ReportMetric(fig.peak, name+"-peak-MiB")
	}
	b.Logf("%-7s n=%d wall p50 %.1f ms, CPU p50 %.1f ms, peak RSS %.1f MiB", name, processRuns, fig.wall, fig.cpu, fig.peak)
	return fig
}

// reportAgainst reports a process's figures as ratios to the reference's.
func reportAgainst(b *testing.B, name string, p, ref processFigures) {
	b.ReportMetric(p.wall/ref.wall, name+"/version")
	b.ReportMetric(p.cpu/ref.cpu, name+"-cpu/version")
	b.Logf("%s: %.1fx the no-op process start (wall), %.1fx its CPU", name, p.wall/ref.wall, p.cpu/ref.cpu)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
