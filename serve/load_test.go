package serve_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// TestManyServersWhileIndexing: eight readers (four server processes and
// four terminal query processes) read the same index while a writer adds
// versions; no call fails, no reader sees a partial version, and each
// server answers from the newest version once it is committed.
func TestManyServersWhileIndexing(t *testing.T) {
	root, db := repoCopy(t, "go")
	stopFile := filepath.Join(t.TempDir(), "stop")
	var readers []*exec.Cmd
	var outs []*strings.Builder
	for i := 0; i < 4; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SDL_TEST_READER_ROOT="+root, "SDL_TEST_READER_DB="+db, "SDL_TEST_READER_STOP="+stopFile)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		readers, outs = append(readers, cmd), append(outs, out)
	}
	var clients []*client.Client
	for i := 0; i < 4; i++ {
		c := stdioClient(t, root, db)
		initialize(t, c)
		clients = append(clients, c)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	stop := make(chan struct{})
	for i, c := range clients {
		wg.Add(1)
		go func(i int, c *client.Client) {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					if n >= 15 {
						return
					}
				default:
				}
				tool, args := "sdl_symbol_search", `{"query": "Store"}`
				switch n % 3 {
				case 1:
					tool, args = "sdl_symbol_get_card", `{"symbolRef": {"name": "NewStore"}}`
				case 2:
					tool, args = "sdl_slice_build", `{"taskText": "add an item", "budget": {"maxEstimatedTokens": 800}}`
				}
				if text, isErr := call(t, c, tool, args); isErr {
					errs <- fmt.Errorf("server %d %s: %s", i, tool, text)
				}
			}
		}(i, c)
	}
	last := 10
	if n, _ := strconv.Atoi(os.Getenv("SDL_SOAK_VERSIONS")); n > last {
		last = n // make soak
	}
	for v := 2; v <= last; v++ {
		time.Sleep(150 * time.Millisecond) // let the readers read each version
		f := filepath.Join(root, "store", fmt.Sprintf("gen%d.go", v))
		os.WriteFile(f, []byte(fmt.Sprintf("package store\n\n// Version%d marks v%d.\nfunc Version%d() int { return %d }\n", v, v, v, v)), 0o644)
		if _, err := index.Run(context.Background(), index.Options{Root: root, NoGit: true}); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	os.WriteFile(stopFile, nil, 0o644)
	for i, r := range readers {
		if err := r.Wait(); err != nil {
			t.Errorf("terminal reader %d: %v: %s", i, err, outs[i])
		} else if !strings.Contains(outs[i].String(), "versions seen:") {
			t.Errorf("terminal reader %d: %s", i, outs[i])
		} else {
			t.Logf("terminal reader %d: %s", i, strings.TrimSpace(outs[i].String()))
		}
	}
	for i, c := range clients {
		if text, _ := call(t, c, "sdl_symbol_search", fmt.Sprintf(`{"query": "Version%d"}`, last)); !strings.Contains(text, fmt.Sprintf(`"name":"Version%d"`, last)) ||
			!strings.Contains(text, fmt.Sprintf(`"ledgerVersion":"v%d"`, last)) {
			t.Errorf("server %d after v%d: %s", i, last, text)
		}
	}
}

// BenchmarkServeLoad: a server process over HTTP on loopback, 8 clients
// issuing a fixed mix of search, card and slice calls on an index of
// $(go env GOROOT)/src (SDL_BENCH_DB reuses one). Reports throughput,
// p50/p99 latency and the server's peak RSS.
func BenchmarkServeLoad(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
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
	rows, _ := x.DB.Query(`SELECT name FROM symbols WHERE to_seq IS NULL AND kind IN ('function', 'method') AND rowid % 700 = 0 LIMIT 100`)
	var names []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	rows.Close()
	x.Close()

	port := "127.0.0.1:0"
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), "SDL_TEST_SERVE_ROOT="+root, "SDL_TEST_SERVE_DB="+db, "SDL_TEST_SERVE_HTTP="+port)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Process.Kill()
	var addr string
	buf := make([]byte, 256)
	n, _ := stdout.Read(buf)
	addr = strings.TrimSpace(string(buf[:n]))
	url := "http://" + addr + "/mcp"

	const clients, perClient = 8, 60
	var mu sync.Mutex
	var lat []time.Duration
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c, err := client.NewStreamableHttpClient(url)
			if err != nil {
				b.Error(err)
				return
			}
			defer c.Close()
			ctx := context.Background()
			c.Start(ctx)
			initClient(c)
			for j := 0; j < perClient; j++ {
				name := names[(i*perClient+j)%len(names)]
				tool, args := "sdl_symbol_search", fmt.Sprintf(`{"query": %q, "limit": 10}`, name)
				switch j % 4 {
				case 1:
					tool, args = "sdl_symbol_get_card", fmt.Sprintf(`{"symbolRef": {"name": %q}}`, name)
				case 3:
					tool, args = "sdl_slice_build", fmt.Sprintf(`{"taskText": "fix %s when the input is empty"}`, name)
				}
				t0 := time.Now()
				callQuiet(c, tool, args)
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	wall := time.Since(start)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	rss := peakRSS(cmd.Process.Pid)
	b.ReportMetric(float64(len(lat))/wall.Seconds(), "calls/s")
	b.ReportMetric(lat[len(lat)/2].Seconds()*1000, "p50-ms")
	b.ReportMetric(lat[len(lat)*99/100].Seconds()*1000, "p99-ms")
	b.ReportMetric(float64(rss)/1024, "server-peak-RSS-MB")
	b.Logf("%d clients, %d calls in %v: %.1f calls/s, p50 %v, p99 %v, server peak RSS %d MB",
		clients, len(lat), wall.Round(time.Millisecond), float64(len(lat))/wall.Seconds(), lat[len(lat)/2], lat[len(lat)*99/100], rss/1024)
}

// peakRSS reads a process's peak resident set size in KB (Linux).
func peakRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				return n
			}
		}
	}
	return 0
}
