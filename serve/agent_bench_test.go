package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// benchIndex is the index of GOROOT/src: SDL_BENCH_DB reuses one.
func benchIndex(b *testing.B) (root, db string) {
	root = filepath.Join(runtime.GOROOT(), "src")
	db = os.Getenv("SDL_BENCH_DB")
	if db == "" {
		db = filepath.Join(b.TempDir(), "index.db")
		if _, err := index.Run(context.Background(), index.Options{Root: root, DB: db, NoGit: true}); err != nil {
			b.Fatal(err)
		}
	}
	return root, db
}

// BenchmarkRungCosts measures what each rung of the ladder costs on real
// functions of GOROOT, against the planner's estimates (the spec's per-rung
// numbers and the skeleton and hot-path ratios orchestrate uses).
func BenchmarkRungCosts(b *testing.B) {
	root, db := benchIndex(b)
	ctx := context.Background()
	x, err := query.Open(db, root)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	rows, err := x.DB.Query(`SELECT id FROM symbols WHERE to_seq IS NULL AND kind IN ('function', 'method')
		AND end_line - start_line >= 4 AND rowid % 97 = 0 LIMIT 300`)
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for rows.Next() {
		var id string
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	var card, skel, hot, raw []float64
	for i := 0; i < b.N; i++ {
		card, skel, hot, raw = nil, nil, nil, nil
		for _, id := range ids {
			code, err := x.Code(ctx, id)
			if err != nil || len(code.Identifiers) < 2 {
				continue
			}
			c, err := x.Card(ctx, query.CardRequest{SymbolID: id, Detail: "compact"})
			if err != nil {
				continue
			}
			s, err := x.Skeleton(ctx, query.SkeletonRequest{SymbolID: id, MaxTokens: 20000})
			if err != nil {
				continue
			}
			h, err := x.HotPath(ctx, query.HotPathRequest{SymbolID: id, IdentifiersToFind: code.Identifiers[:2], MaxTokens: 20000})
			if err != nil {
				continue
			}
			card = append(card, float64(query.Tokens(string(query.EncodeJSON(c)))))
			skel = append(skel, float64(query.Tokens(s.Skeleton)))
			hot = append(hot, float64(query.Tokens(h.Excerpt)))
			raw = append(raw, float64(code.Tokens))
		}
	}
	mean := func(v []float64) float64 {
		t := 0.0
		for _, x := range v {
			t += x
		}
		return t / float64(len(v))
	}
	median := func(v []float64) float64 {
		s := append([]float64{}, v...)
		sort.Float64s(s)
		return s[len(s)/2]
	}
	ratio := func(a, r []float64) float64 {
		v := make([]float64, len(a))
		for i := range a {
			v[i] = a[i] / r[i]
		}
		return median(v)
	}
	for _, bucket := range [][2]float64{{0, 150}, {150, 500}, {500, 1e9}} {
		var bs, bh, br []float64
		for i := range raw {
			if raw[i] >= bucket[0] && raw[i] < bucket[1] {
				bs, bh, br = append(bs, skel[i]), append(bh, hot[i]), append(br, raw[i])
			}
		}
		if len(br) > 0 {
			fmt.Printf("raw %v-%v tokens: %d functions, median skeleton/raw %.2f, hot path/raw %.2f\n", bucket[0], bucket[1], len(br), ratio(bs, br), ratio(bh, br))
		}
	}
	b.ReportMetric(float64(len(raw)), "symbols")
	b.ReportMetric(mean(card), "card-tokens")
	b.ReportMetric(mean(skel), "skeleton-tokens")
	b.ReportMetric(mean(hot), "hotpath-tokens")
	b.ReportMetric(mean(raw), "raw-tokens")
	b.ReportMetric(ratio(skel, raw), "skeleton/raw")
	b.ReportMetric(ratio(hot, raw), "hotpath/raw")
	fmt.Printf("rung costs over %d GOROOT functions (mean/median tokens): card %.0f/%.0f, skeleton %.0f/%.0f, hot path %.0f/%.0f, raw %.0f/%.0f; median skeleton/raw %.2f, hot path/raw %.2f\n",
		len(raw), mean(card), median(card), mean(skel), median(skel), mean(hot), median(hot), mean(raw), median(raw), ratio(skel, raw), ratio(hot, raw))
}

// BenchmarkOverlay measures a live buffer on GOROOT: the first push (a
// copy of the index and an incremental run) and each later edit, until a
// search finds the edit, against parsing the same file alone.
func BenchmarkOverlay(b *testing.B) {
	root, db := benchIndex(b)
	// the overlay's scratch copy goes next to the index: use a copy of it
	dir := b.TempDir()
	if err := index.Snapshot(context.Background(), db, filepath.Join(dir, "index.db")); err != nil {
		b.Fatal(err)
	}
	db = filepath.Join(dir, "index.db")
	rel := "net/http/server.go"
	src, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	var first, edits, parse []time.Duration
	for i := 0; i < b.N; i++ {
		repos, _ := serve.NewRepos(serve.NewRepo("go", root, db))
		srv := serve.New(serve.NewRegistry(), repos, serve.Options{Version: "bench"})
		for v := 1; v <= 11; v++ {
			name := fmt.Sprintf("ListenAndServeRenamed%d", v)
			content := strings.Replace(string(src), "func (s *Server) ListenAndServe() error {", "func (s *Server) "+name+"() error {", 1)
			args, _ := json.Marshal(map[string]any{"eventType": "change", "filePath": rel, "content": content, "version": v,
				"dirty": true, "timestamp": "2026-11-21T10:00:00Z"})
			t0 := time.Now()
			if _, err := srv.Call(context.Background(), "sdl.buffer.push", args); err != nil {
				b.Fatal(err)
			}
			out, err := srv.Call(context.Background(), "sdl.symbol.search", json.RawMessage(fmt.Sprintf(`{"query": %q, "limit": 1}`, name)))
			if err != nil || !strings.Contains(string(out), name) {
				b.Fatalf("search %s: %v %.300s", name, err, out)
			}
			if v == 1 {
				first = append(first, time.Since(t0))
			} else {
				edits = append(edits, time.Since(t0))
			}
			p := lang.NewParser()
			t1 := time.Now()
			if _, err := lang.Extract(p, lang.ForPath(rel), rel, []byte(content)); err != nil {
				b.Fatal(err)
			}
			parse = append(parse, time.Since(t1))
			p.Close()
		}
		repos.Close()
	}
	med := func(d []time.Duration) time.Duration {
		s := append([]time.Duration{}, d...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	b.ReportMetric(float64(med(first).Milliseconds()), "first-push-ms")
	b.ReportMetric(float64(med(edits).Milliseconds()), "edit-ms")
	b.ReportMetric(float64(med(parse).Milliseconds()), "parse-ms")
	fmt.Printf("overlay on GOROOT (%s, %d bytes): first push to searchable %v (copy + index), each later edit %v, parsing the file alone %v (%.1fx)\n",
		rel, len(src), med(first), med(edits), med(parse), float64(med(edits))/float64(med(parse)))
}
