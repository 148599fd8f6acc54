package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// inProcess is a server over a fixture copy, called in process.
type inProcess struct {
	t     *testing.T
	srv   *serve.Server
	repos *serve.Repos
	root  string
	db    string
}

func newInProcess(t *testing.T, fixture string) *inProcess {
	t.Helper()
	root, db := repoCopy(t, fixture)
	repos, err := serve.NewRepos(serve.NewRepo("shop", root, db))
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.NewRegistry(), repos, serve.Options{Version: "test", BufferDebounce: 20 * time.Millisecond})
	p := &inProcess{t: t, srv: srv, repos: repos, root: root, db: db}
	t.Cleanup(repos.Close)
	return p
}

// call runs a tool and returns its JSON answer, failing the test on error.
func (p *inProcess) call(tool, args string) string {
	p.t.Helper()
	out, err := p.srv.Call(context.Background(), tool, json.RawMessage(args))
	if err != nil {
		p.t.Fatalf("%s %s: %v", tool, args, err)
	}
	return string(out)
}

// fail runs a tool that must fail and returns the error text.
func (p *inProcess) fail(tool, args string) string {
	p.t.Helper()
	out, err := p.srv.Call(context.Background(), tool, json.RawMessage(args))
	if err == nil {
		p.t.Fatalf("%s %s: no error, got %s", tool, args, out)
	}
	return err.Error()
}

func pushArgs(event, file, content string, version int, dirty bool) string {
	return fmt.Sprintf(`{"eventType": %q, "filePath": %q, "content": %q, "version": %d, "dirty": %v, "timestamp": "2026-11-21T10:00:00Z", "language": "go"}`,
		event, file, content, version, dirty)
}

// sharedSearch searches the shared index file directly, as another
// process would.
func sharedSearch(t *testing.T, db, root, q string) string {
	t.Helper()
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	res, err := x.Search(context.Background(), query.SearchRequest{Query: q, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	return string(query.EncodeJSON(res))
}

func TestBufferOverlayShadowsIndex(t *testing.T) {
	p := newInProcess(t, "go")
	item, err := os.ReadFile(filepath.Join(p.root, "store/item.go"))
	if err != nil {
		t.Fatal(err)
	}
	renamed := strings.Replace(string(item), "func (i *Item) Total() float64 {", "func (i *Item) GrandTotal() float64 {", 1)
	if renamed == string(item) {
		t.Fatal("fixture changed: no Item.Total")
	}

	out := p.call("sdl.buffer.push", pushArgs("change", "store/item.go", renamed, 2, true))
	if !strings.Contains(out, `"accepted":true`) || !strings.Contains(out, `"parseScheduled":true`) {
		t.Fatalf("push: %s", out)
	}

	// before any save the new name is found, from the overlay, and the old one is gone
	out = p.call("sdl.symbol.search", `{"query": "GrandTotal"}`)
	if !strings.Contains(out, `"name":"GrandTotal"`) || !strings.Contains(out, `"overlay":{`) || !strings.Contains(out, `"files":["store/item.go"]`) {
		t.Fatalf("search for the new name: %s", out)
	}
	if !strings.Contains(out, `"ledgerVersion":"v2-draft"`) {
		t.Errorf("an overlay answer is stamped with a draft version: %s", out)
	}
	if msg := p.fail("sdl.symbol.getCard", `{"symbolRef": {"name": "Item.Total"}}`); !strings.Contains(msg, "not found") {
		t.Errorf("card of the old name: %v", msg)
	}
	card := p.call("sdl.symbol.getCard", `{"symbolRef": {"name": "Item.GrandTotal"}}`)
	var c struct {
		SymbolID string `json:"symbolId"`
		File     string `json:"file"`
	}
	json.Unmarshal([]byte(card), &c)
	if c.File != "store/item.go" || c.SymbolID == "" {
		t.Fatalf("card of the new name: %s", card)
	}
	if out := p.call("sdl.code.getSkeleton", `{"file": "store/item.go"}`); !strings.Contains(out, "GrandTotal()") {
		t.Errorf("skeleton reads the buffer: %s", out)
	}
	if out := p.call("sdl.code.getHotPath", fmt.Sprintf(`{"symbolId": %q, "identifiersToFind": ["Price"]}`, c.SymbolID)); !strings.Contains(out, "GrandTotal") || !strings.Contains(out, `"matchedIdentifiers":["Price"]`) {
		t.Errorf("hot path reads the buffer: %s", out)
	}
	if out := p.call("sdl.slice.build", `{"taskText": "GrandTotal of an item is wrong", "budget": {"maxCards": 5}}`); !strings.Contains(out, `"GrandTotal"`) {
		t.Errorf("slice sees the buffer: %s", out)
	}
	// the overlay's file is not reported stale: the answer was built from the buffer
	if out := p.call("sdl.symbol.getCard", `{"symbolRef": {"name": "Item.GrandTotal"}, "detail": "minimal"}`); strings.Contains(out, "staleFiles") {
		t.Errorf("overlay file reported stale: %s", out)
	}

	// the shared file is untouched: another reader still sees Total
	if out := sharedSearch(t, p.db, p.root, "GrandTotal"); strings.Contains(out, `"name":"GrandTotal"`) {
		t.Fatalf("a draft reached the shared index: %s", out)
	}
	st := p.call("sdl.buffer.status", `{}`)
	if !strings.Contains(st, `"dirtyBuffers":1`) || !strings.Contains(st, `"overlayFiles":["store/item.go"]`) || !strings.Contains(st, `"lastCheckpointResult":null`) ||
		!strings.Contains(st, `"lastCheckpointError":null`) || !strings.Contains(st, `"reconcileQueueDepth":1`) || !strings.Contains(st, `"reconcileInflight":false`) {
		t.Errorf("status: %s", st)
	}

	// an unsaved new file is indexed too
	p.call("sdl.buffer.push", pushArgs("open", "store/draft.go", "package store\n\n// Draftsman drafts.\nfunc Draftsman() int { return 1 }\n", 1, true))
	if out := p.call("sdl.symbol.search", `{"query": "Draftsman"}`); !strings.Contains(out, `"file":"store/draft.go"`) {
		t.Errorf("search for a symbol of an unsaved new file: %s", out)
	}
	// closing it drops it
	p.call("sdl.buffer.push", pushArgs("close", "store/draft.go", "", 2, false))
	if out := p.call("sdl.symbol.search", `{"query": "Draftsman"}`); strings.Contains(out, `"name":"Draftsman"`) {
		t.Errorf("a closed buffer still answers: %s", out)
	}
	if out := p.call("sdl.symbol.search", `{"query": "GrandTotal"}`); !strings.Contains(out, `"name":"GrandTotal"`) {
		t.Errorf("closing one buffer dropped another: %s", out)
	}

	// an older version of a buffer is ignored, with a warning
	out = p.call("sdl.buffer.push", pushArgs("change", "store/item.go", string(item), 1, true))
	if !strings.Contains(out, `"accepted":false`) || !strings.Contains(out, "older than version 2") {
		t.Errorf("stale version: %s", out)
	}

	// a checkpoint records the draft as a new version of the shared index
	out = p.call("sdl.buffer.checkpoint", `{"reason": "test"}`)
	if !strings.Contains(out, `"checkpointedFiles":1`) || !strings.Contains(out, `"ledgerVersion":"v2"`) || !strings.Contains(out, `"result":"success"`) {
		t.Fatalf("checkpoint: %s", out)
	}
	if out := sharedSearch(t, p.db, p.root, "GrandTotal"); !strings.Contains(out, `"name":"GrandTotal"`) {
		t.Fatalf("checkpoint did not reach the shared index: %s", out)
	}
	st = p.call("sdl.buffer.status", `{}`)
	if !strings.Contains(st, `"overlayFiles":[]`) || !strings.Contains(st, `"lastCheckpointResult":"success"`) || !strings.Contains(st, `"reconcileQueueDepth":0`) {
		t.Errorf("status after checkpoint: %s", st)
	}
	if out := p.call("sdl.symbol.search", `{"query": "GrandTotal"}`); !strings.Contains(out, `"ledgerVersion":"v2"`) || strings.Contains(out, `"overlay"`) {
		t.Errorf("after a checkpoint answers come from the shared index: %s", out)
	}

	// closing the unsaved buffer puts the file on disk back in the index
	p.call("sdl.buffer.push", pushArgs("close", "store/item.go", "", 3, false))
	waitFor(t, func() bool {
		return strings.Contains(p.call("sdl.buffer.status", `{}`), `"checkpointPending":false`)
	})
	if out := sharedSearch(t, p.db, p.root, "GrandTotal"); strings.Contains(out, `"name":"GrandTotal"`) {
		t.Errorf("closing an unsaved buffer left its text in the index: %s", out)
	}

	// a save is checkpointed: write the file as an editor would, then push save
	saved := strings.Replace(string(item), "func (i *Item) Total() float64 {", "func (i *Item) Subtotal() float64 {", 1)
	os.WriteFile(filepath.Join(p.root, "store/item.go"), []byte(saved), 0o644)
	p.call("sdl.buffer.push", pushArgs("open", "store/item.go", saved, 4, false))
	p.call("sdl.buffer.push", pushArgs("save", "store/item.go", saved, 5, false))
	if out := p.call("sdl.symbol.search", `{"query": "Subtotal"}`); !strings.Contains(out, `"name":"Subtotal"`) || strings.Contains(out, `"overlay"`) {
		t.Errorf("search after save: %s", out)
	}
	if out := sharedSearch(t, p.db, p.root, "Subtotal"); !strings.Contains(out, `"name":"Subtotal"`) {
		t.Errorf("save did not reach the shared index: %s", out)
	}

	// no scratch file outlives the server
	p.repos.Close()
	left, _ := filepath.Glob(filepath.Join(p.root, ".sdl", "overlay-*"))
	if len(left) > 0 {
		t.Errorf("overlay files left: %v", left)
	}
}

func TestBufferPushRefusals(t *testing.T) {
	p := newInProcess(t, "go")
	big := strings.Repeat("x", serve.MaxBufferBytes+1)
	for _, tc := range []struct{ args, want string }{
		{pushArgs("change", "../outside.go", "package x", 1, true), `filePath: "../outside.go" holds ".."`},
		{pushArgs("change", "store/../../outside.go", "package x", 1, true), `holds ".."`},
		{pushArgs("change", "/etc/passwd.go", "package x", 1, true), "is absolute"},
		{pushArgs("change", ".sdl/index.go", "package x", 1, true), "inside .sdl"},
		{pushArgs("change", "store/big.go", big, 1, true), "over the limit of 5242880 (5 MB)"},
		{pushArgs("type", "store/item.go", "x", 1, true), `eventType: "type" is not one of open, change, save, close, checkpoint`},
		{`{"eventType": "change", "filePath": "a.go", "content": "x", "dirty": true, "timestamp": "2026-11-21T10:00:00Z"}`, "version: required"},
		{`{"eventType": "change", "filePath": "a.go", "content": "x", "version": 1, "timestamp": "2026-11-21T10:00:00Z"}`, "dirty: required"},
		{`{"eventType": "change", "filePath": "a.go", "version": 1, "dirty": true, "timestamp": "2026-11-21T10:00:00Z"}`, "content: required"},
		{`{"eventType": "change", "filePath": "a.go", "content": "x", "version": 1, "dirty": true, "timestamp": "yesterday"}`, "timestamp: \"yesterday\" is not an ISO 8601 time"},
		{`{"eventType": "change", "filePath": "a.go", "content": "x", "version": 1, "dirty": true, "timestamp": "2026-11-21T10:00:00Z", "selections": [{"startLine": 5, "startCol": 0, "endLine": 2, "endCol": 0}]}`, "selections[0]"},
	} {
		if msg := p.fail("sdl.buffer.push", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("%.80s: got %q, want it to say %q", tc.args, msg, tc.want)
		}
	}
	if st := p.call("sdl.buffer.status", `{}`); !strings.Contains(st, `"buffers":[]`) {
		t.Errorf("a refused push left a buffer: %s", st)
	}
}

// waitFor polls cond; the background work it waits on has no deadline of
// its own, and the test's timeout bounds it.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for !cond() {
		time.Sleep(10 * time.Millisecond)
	}
}

// TestBufferConcurrentEdits pushes edits while other clients query; every
// query succeeds, and once the edits stop the overlay holds the last one.
func TestBufferConcurrentEdits(t *testing.T) {
	p := newInProcess(t, "go")
	item, _ := os.ReadFile(filepath.Join(p.root, "store/item.go"))
	done := make(chan struct{})
	errs := make(chan error, 64)
	for w := 0; w < 3; w++ {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				for _, q := range []string{`{"query": "Total"}`, `{"query": "Store"}`} {
					if _, err := p.srv.Call(context.Background(), "sdl.symbol.search", json.RawMessage(q)); err != nil {
						errs <- err
						return
					}
				}
				if _, err := p.srv.Call(context.Background(), "sdl.slice.build", json.RawMessage(`{"taskText": "item total", "budget": {"maxCards": 3}}`)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	const edits = 25
	for v := 1; v <= edits; v++ {
		name := fmt.Sprintf("Total%d", v)
		content := strings.Replace(string(item), "func (i *Item) Total() float64 {", "func (i *Item) "+name+"() float64 {", 1)
		p.call("sdl.buffer.push", pushArgs("change", "store/item.go", content, v, true))
		time.Sleep(time.Duration(v%4) * 10 * time.Millisecond)
	}
	close(done)
	for w := 0; w < 3; w++ {
		if err := <-errs; err != nil {
			t.Fatalf("query during edits: %v", err)
		}
	}
	if out := p.call("sdl.symbol.search", fmt.Sprintf(`{"query": "Total%d"}`, edits)); !strings.Contains(out, fmt.Sprintf(`"name":"Total%d"`, edits)) {
		t.Errorf("after the edits: %s", out)
	}
}
