package serve_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// FuzzToolArguments sends arbitrary argument bytes to a tool picked by the
// fuzzer: the answer is valid JSON within the output cap, or an error; never
// a panic. The seeds are every tool's example.
func FuzzToolArguments(f *testing.F) {
	root, db := repoCopy(f, "go")
	repos, err := serve.NewRepos(serve.NewRepo("shop", root, db))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(repos.Close)
	srv := serve.New(serve.NewRegistry(), repos, serve.Options{Version: "test", BufferDebounce: 20 * time.Millisecond})
	var names []string
	for _, tool := range srv.Registry().Tools() {
		if tool.Name == "sdl.index.refresh" {
			continue // rebuilds the index: its own tests cover it
		}
		names = append(names, tool.Name)
	}
	for i, name := range names {
		ex := "{}"
		for _, tool := range srv.Registry().Tools() {
			if tool.Name == name && tool.Example != "" {
				ex = tool.Example
			}
		}
		f.Add(uint8(i), []byte(ex))
		f.Add(uint8(i), []byte(strings.Replace(ex, `"`, `"../`, 2)))
	}
	f.Add(uint8(0), []byte(`{"query": "a OR (b", "limit": -1}`))
	f.Add(uint8(1), []byte(`[1, 2, 3]`))
	f.Add(uint8(2), []byte(`{"symbolId": {"$ref": 1}}`))
	f.Fuzz(func(t *testing.T, pick uint8, raw []byte) {
		if len(raw) > 1<<16 {
			return
		}
		name := names[int(pick)%len(names)]
		out, err := callNoPanic(srv, name, raw)
		if err != nil {
			if strings.HasPrefix(err.Error(), "panic") {
				t.Fatalf("%s %s: %v", name, raw, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("%s %s: invalid JSON %.200s", name, raw, out)
		}
		if n := query.Tokens(string(out)); n > serve.DefaultMaxOutputTokens {
			t.Fatalf("%s %s: %d tokens, over the cap", name, raw, n)
		}
	})
}
