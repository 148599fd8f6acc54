package query_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// BenchmarkMemories measures what 1,000 memory files cost, on a copy of
// $(go env GOROOT)/src/encoding, each as a ratio to the same work without
// memories in the same run:
//   - importIndexRatio: the index run that imports them / a run with no change
//   - steadyIndexRatio: a run with no change and 1,000 memories / one with none
//   - sliceRatio: slice.build (p50, memories surfaced) / the same with includeMemories false
//   - overlaySliceRatio: the same through the serve overlay (files read from disk), as a server answers
func BenchmarkMemories(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src", "encoding")
	root := filepath.Join(b.TempDir(), "encoding")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	db := filepath.Join(b.TempDir(), "index.db")
	ctx := context.Background()
	opts := index.Options{Root: root, DB: db, NoGit: true}
	runIndex := func() time.Duration {
		t0 := time.Now()
		if _, err := index.Run(ctx, opts); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	runIndex()
	steady0 := runIndex()

	x, err := query.Open(db, root)
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	rows, err := x.DB.Query(`SELECT id FROM symbols WHERE to_seq IS NULL AND kind != 'module' ORDER BY id`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	x.Close()
	rng := rand.New(rand.NewSource(1))
	words := strings.Fields("the decoder buffer grows when a token spans two reads so the offset is kept in bytes not runes " +
		"base64 padding is optional in the raw encodings and json numbers keep their text until asked")
	const n = 1000
	now := time.Now().UTC()
	for i := 0; i < n; i++ {
		var body []string
		for j := 0; j < 40+rng.Intn(80); j++ {
			body = append(body, words[rng.Intn(len(words))])
		}
		m := &memoryfs.Memory{ID: fmt.Sprintf("bench%05d", i), Type: memoryfs.Types[i%3], Title: fmt.Sprintf("note %d on %s", i, words[i%len(words)]),
			Content: strings.Join(body, " "), Confidence: 0.5 + 0.5*rng.Float64(), CreatedAt: now.Add(-time.Duration(rng.Intn(90*24)) * time.Hour)}
		if i%10 != 0 { // one in ten is repo-level
			for k := 0; k < 1+rng.Intn(3); k++ {
				m.Symbols = append(m.Symbols, ids[rng.Intn(len(ids))])
			}
		}
		if _, _, err := memoryfs.Write(root, m); err != nil {
			b.Fatal(err)
		}
	}
	imported := runIndex()
	steady1 := runIndex()

	x, err = query.Open(db, root)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	query.Tokens("warm up the tokenizer")
	tasks := []string{"json decoder returns the wrong offset for syntax errors", "base64 decoding of unpadded input fails",
		"xml encoder escapes attribute values twice", "csv reader loses the last field when the line has no newline",
		"gob encoder panics on a nil map", "hex dump prints the wrong offset for the last line", "pem decode skips headers",
		"binary varint overflows on ten bytes", "asn1 unmarshal accepts trailing data", "base32 encoding with custom alphabet"}
	off := false
	slices := func(with bool) (time.Duration, int) {
		var ds []time.Duration
		surfaced := 0
		for _, task := range tasks {
			req := query.SliceRequest{TaskText: task}
			if !with {
				req.IncludeMemories = &off
			}
			t0 := time.Now()
			resp, err := x.BuildSlice(ctx, req)
			if err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
			surfaced += len(resp.Memories)
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2], surfaced
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		slices(true) // warm caches alike
		without, _ := slices(false)
		with, surfaced := slices(true)
		x.MemoryFiles = serve.NewMemoryOverlay(root)
		slices(true)
		overlay, _ := slices(true)
		x.MemoryFiles = nil
		b.ReportMetric(float64(imported)/float64(steady0), "importIndexRatio")
		b.ReportMetric(float64(steady1)/float64(steady0), "steadyIndexRatio")
		b.ReportMetric(float64(steady0.Microseconds())/1000, "steadyIndex0ms")
		b.ReportMetric(float64(steady1.Microseconds())/1000, "steadyIndex1000ms")
		b.ReportMetric(float64(with)/float64(without), "sliceRatio")
		b.ReportMetric(float64(overlay)/float64(without), "overlaySliceRatio")
		b.ReportMetric(float64(without.Microseconds())/1000, "sliceP50ms")
		b.ReportMetric(float64(surfaced)/float64(len(tasks)), "memoriesPerSlice")
	}
}
