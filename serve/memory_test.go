package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/schema"
	"github.com/sdl-dev/sdl/serve"
)

// memServer is an in-process server over a copy of the Go fixture.
func memServer(t *testing.T, root, db string) *serve.Server {
	t.Helper()
	repos, err := serve.NewRepos(serve.NewRepo("shop", root, db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(repos.Close)
	return serve.New(serve.NewRegistry(), repos, serve.Options{Version: "test"})
}

func callJSON(t *testing.T, s *serve.Server, name string, args any, out any) error {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := s.Call(context.Background(), name, raw)
	if err != nil {
		return err
	}
	if out != nil {
		if err := json.Unmarshal(res, out); err != nil {
			t.Fatalf("%s: %v in %s", name, err, res)
		}
	}
	return nil
}

func mustCall(t *testing.T, s *serve.Server, name string, args any, out any) {
	t.Helper()
	if err := callJSON(t, s, name, args, out); err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
}

func symbolID(t *testing.T, db, qualified string) string {
	t.Helper()
	x, err := query.Open(db, "")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var id string
	if err := x.DB.QueryRow(`SELECT id FROM symbols WHERE to_seq IS NULL AND qualified = ?`, qualified).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func reindex(t *testing.T, root string) *index.Summary {
	t.Helper()
	sum, err := index.Run(context.Background(), index.Options{Root: root, NoGit: true, SDLVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

type queryResp struct {
	Memories []struct {
		MemoryID     string   `json:"memoryId"`
		Title        string   `json:"title"`
		Content      string   `json:"content"`
		Type         string   `json:"type"`
		Tags         []string `json:"tags"`
		Stale        bool     `json:"stale"`
		StaleVersion string   `json:"staleVersion"`
		SymbolIDs    []string `json:"symbolIds"`
		Path         string   `json:"path"`
	} `json:"memories"`
	Total int `json:"total"`
}

func TestMemoryStoreQueryRemove(t *testing.T) {
	root, db := repoCopy(t, "go")
	s := memServer(t, root, db)
	add := symbolID(t, db, "Store.Add")
	store := map[string]any{"type": "bugfix", "title": "Add panics on a nil item", "content": "Callers must check for nil.",
		"tags": []string{"store"}, "confidence": 0.9, "symbolIds": []string{add}}
	var st serve.MemoryStoreResponse
	mustCall(t, s, "sdl.memory.store", store, &st)
	if !st.OK || !st.Created || st.Deduplicated || len(st.MemoryID) != 16 || st.Path != ".sdl-memory/bugfixes/"+st.MemoryID+".md" {
		t.Fatalf("store: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(root, st.Path)); err != nil {
		t.Fatal(err)
	}
	// visible at once, before any index run: to queries, surfacing and slices
	var q queryResp
	mustCall(t, s, "sdl.memory.query", map[string]any{"query": "nil"}, &q)
	if q.Total != 1 || q.Memories[0].MemoryID != st.MemoryID || q.Memories[0].Content != "Callers must check for nil." {
		t.Fatalf("query: %+v", q)
	}
	var slice query.SliceResponse
	mustCall(t, s, "sdl.slice.build", map[string]any{"taskText": "Store.Add should not panic on a nil item", "budget": map[string]any{"maxCards": 5}}, &slice)
	if len(slice.Memories) != 1 || slice.Memories[0].MemoryID != st.MemoryID {
		t.Errorf("slice memories %+v", slice.Memories)
	}

	// the same memory again: deduplicated
	var again serve.MemoryStoreResponse
	mustCall(t, s, "sdl.memory.store", store, &again)
	if !again.Deduplicated || again.Created || again.MemoryID != st.MemoryID {
		t.Errorf("second store: %+v", again)
	}
	// after an index run too, the file is the same memory: nothing doubles
	sum := reindex(t, root)
	if sum.Memories.Imported != 1 {
		t.Errorf("index imported %+v", sum.Memories)
	}
	mustCall(t, s, "sdl.memory.store", store, &again)
	if !again.Deduplicated || again.MemoryID != st.MemoryID {
		t.Errorf("store after index: %+v", again)
	}
	mustCall(t, s, "sdl.memory.query", map[string]any{}, &q)
	if q.Total != 1 {
		t.Errorf("%d memories after index, want 1", q.Total)
	}

	// upsert by id: tags kept when left out, content and type changed, the
	// file moves with the type
	var up serve.MemoryStoreResponse
	mustCall(t, s, "sdl.memory.store", map[string]any{"memoryId": st.MemoryID, "type": "decision", "title": "Add refuses nil",
		"content": "Add panics on nil by design."}, &up)
	if up.Created || up.MemoryID != st.MemoryID || up.Path != ".sdl-memory/decisions/"+st.MemoryID+".md" {
		t.Errorf("upsert: %+v", up)
	}
	if _, err := os.Stat(filepath.Join(root, st.Path)); !os.IsNotExist(err) {
		t.Errorf("the old file of a memory that changed type is still there")
	}
	mustCall(t, s, "sdl.memory.query", map[string]any{}, &q)
	if q.Total != 1 || q.Memories[0].Type != "decision" || fmt.Sprint(q.Memories[0].Tags) != "[store]" || len(q.Memories[0].SymbolIDs) != 1 {
		t.Errorf("after upsert: %+v", q)
	}

	// remove keeping the file: marked deleted, answered no more, and the
	// index keeps it deleted
	var rm serve.MemoryRemoveResponse
	mustCall(t, s, "sdl.memory.remove", map[string]any{"memoryId": st.MemoryID, "deleteFile": false}, &rm)
	if rm.FileDeleted || !rm.OK {
		t.Errorf("remove: %+v", rm)
	}
	f, err := memoryfs.Read(root, up.Path)
	if err != nil || !f.Memory.Deleted {
		t.Fatalf("file after remove: %v %+v", err, f)
	}
	mustCall(t, s, "sdl.memory.query", map[string]any{}, &q)
	if q.Total != 0 {
		t.Errorf("a removed memory is answered: %+v", q)
	}
	reindex(t, root)
	mustCall(t, s, "sdl.memory.query", map[string]any{}, &q)
	if q.Total != 0 {
		t.Errorf("a removed memory is answered after index: %+v", q)
	}
	if err := callJSON(t, s, "sdl.memory.remove", map[string]any{"memoryId": st.MemoryID}, nil); !errors.Is(err, query.ErrMemoryNotFound) {
		t.Errorf("removing twice: %v", err)
	}

	// storing it again brings it back under its id (the deleted file is
	// overwritten); removing deletes the file
	var back serve.MemoryStoreResponse
	mustCall(t, s, "sdl.memory.store", map[string]any{"type": "decision", "title": "Add refuses nil", "content": "Add panics on nil by design."}, &back)
	mustCall(t, s, "sdl.memory.remove", map[string]any{"memoryId": back.MemoryID}, &rm)
	if !rm.FileDeleted {
		t.Errorf("remove: %+v", rm)
	}
	if _, err := os.Stat(filepath.Join(root, rm.Path)); !os.IsNotExist(err) {
		t.Errorf("deleteFile true left the file")
	}
}

// Updating a stale memory by id clears the flag, in the file and in
// answers.
func TestMemoryUpsertClearsStale(t *testing.T) {
	root, db := repoCopy(t, "go")
	s := memServer(t, root, db)
	add := symbolID(t, db, "Store.Add")
	var st serve.MemoryStoreResponse
	mustCall(t, s, "sdl.memory.store", map[string]any{"type": "bugfix", "title": "nil", "content": "c", "symbolIds": []string{add}}, &st)
	reindex(t, root)
	p := filepath.Join(root, "store", "store.go")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), `panic("store: nil item")`, `return ErrNil`, 1)), 0o644)
	reindex(t, root)
	var q queryResp
	mustCall(t, s, "sdl.memory.query", map[string]any{"staleOnly": true}, &q)
	if q.Total != 1 || !q.Memories[0].Stale || q.Memories[0].StaleVersion != "v2" {
		t.Fatalf("stale: %+v", q)
	}
	mustCall(t, s, "sdl.memory.store", map[string]any{"memoryId": st.MemoryID, "type": "bugfix", "title": "nil", "content": "c, checked again"}, &st)
	mustCall(t, s, "sdl.memory.query", map[string]any{"staleOnly": true}, &q)
	if q.Total != 0 {
		t.Errorf("still stale after an update: %+v", q)
	}
	f, _ := memoryfs.Read(root, st.Path)
	if f.Memory.Stale || f.Memory.StaleVersion != "" || len(f.Memory.Symbols) != 1 {
		t.Errorf("file %+v", f.Memory)
	}
}

func TestMemoryStoreLimits(t *testing.T) {
	root, db := repoCopy(t, "go")
	s := memServer(t, root, db)
	add := symbolID(t, db, "Store.Add")
	n := func(k int, f func(int) string) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	base := func() map[string]any { return map[string]any{"type": "bugfix", "title": "t", "content": "c"} }
	cases := []struct {
		field string
		set   func(m map[string]any)
		ok    bool
	}{
		{"title", func(m map[string]any) { m["title"] = strings.Repeat("t", 120) }, true},
		{"title", func(m map[string]any) { m["title"] = strings.Repeat("t", 121) }, false},
		{"title", func(m map[string]any) { delete(m, "title") }, false},
		{"content", func(m map[string]any) { m["content"] = strings.Repeat("c", 50000) }, true},
		{"content", func(m map[string]any) { m["content"] = strings.Repeat("c", 50001) }, false},
		{"tags", func(m map[string]any) { m["tags"] = n(20, func(i int) string { return fmt.Sprint("t", i) }) }, true},
		{"tags", func(m map[string]any) { m["tags"] = n(21, func(i int) string { return fmt.Sprint("t", i) }) }, false},
		{"symbolIds", func(m map[string]any) { m["symbolIds"] = n(100, func(int) string { return add }) }, true},
		{"symbolIds", func(m map[string]any) { m["symbolIds"] = n(101, func(int) string { return add }) }, false},
		{"symbolIds", func(m map[string]any) { m["symbolIds"] = []string{"0000000000000000"} }, false},
		{"fileRelPaths", func(m map[string]any) { m["fileRelPaths"] = n(100, func(i int) string { return fmt.Sprint("f", i) }) }, true},
		{"fileRelPaths", func(m map[string]any) { m["fileRelPaths"] = n(101, func(i int) string { return fmt.Sprint("f", i) }) }, false},
		{"fileRelPaths", func(m map[string]any) { m["fileRelPaths"] = []string{"../secret"} }, false},
		{"confidence", func(m map[string]any) { m["confidence"] = 0 }, true},
		{"confidence", func(m map[string]any) { m["confidence"] = 1 }, true},
		{"confidence", func(m map[string]any) { m["confidence"] = 1.5 }, false},
		{"confidence", func(m map[string]any) { m["confidence"] = -0.1 }, false},
		{"type", func(m map[string]any) { m["type"] = "note" }, false},
		{"memoryId", func(m map[string]any) { m["memoryId"] = "../../x" }, false},
	}
	for i, c := range cases {
		args := base()
		args["content"] = fmt.Sprintf("case %d", i) // distinct: no dedup
		c.set(args)
		err := callJSON(t, s, "sdl.memory.store", args, nil)
		switch {
		case c.ok && err != nil:
			t.Errorf("%d %s: %v", i, c.field, err)
		case !c.ok && (!errors.Is(err, serve.ErrArgs) || !strings.Contains(err.Error(), c.field+":")):
			t.Errorf("%d %s: %v", i, c.field, err)
		}
	}
}

// Two servers over one repository store at once: every memory lands in a
// complete file, a memory both store is one file, and each server answers
// with the other's memories.
func TestConcurrentStoresFromTwoServers(t *testing.T) {
	root, db := repoCopy(t, "go")
	a, b := memServer(t, root, db), memServer(t, root, db)
	const each = 12
	var wg sync.WaitGroup
	ids := make(chan string, 4*each)
	for si, s := range []*serve.Server{a, b} {
		for i := 0; i < each; i++ {
			wg.Add(2)
			go func(si, i int, s *serve.Server) {
				defer wg.Done()
				var r serve.MemoryStoreResponse
				if err := callJSON(t, s, "sdl.memory.store", map[string]any{"type": "task_context", "title": fmt.Sprintf("server %d note %d", si, i),
					"content": strings.Repeat("x", 1000*(i+1))}, &r); err != nil {
					t.Error(err)
					return
				}
				ids <- r.MemoryID
			}(si, i, s)
			go func(s *serve.Server) {
				defer wg.Done()
				if err := callJSON(t, s, "sdl.memory.store", map[string]any{"type": "decision", "title": "shared", "content": "both store this"}, nil); err != nil {
					t.Error(err)
				}
			}(s)
		}
	}
	wg.Wait()
	close(ids)
	distinct := map[string]bool{}
	for id := range ids {
		distinct[id] = true
	}
	if len(distinct) != 2*each {
		t.Errorf("%d distinct ids for %d memories", len(distinct), 2*each)
	}
	res := memoryfs.Scan(root)
	if len(res.Problems) > 0 {
		t.Errorf("problems: %v", res.Problems)
	}
	if len(res.Files) != 2*each+1 {
		t.Errorf("%d files, want %d (the shared memory once)", len(res.Files), 2*each+1)
	}
	for _, s := range []*serve.Server{a, b} {
		var q queryResp
		mustCall(t, s, "sdl.memory.query", map[string]any{"limit": 100}, &q)
		if q.Total != 2*each+1 {
			t.Errorf("a server answers %d memories, want %d", q.Total, 2*each+1)
		}
	}
	if sum := reindex(t, root); sum.Memories.Memories != 2*each+1 {
		t.Errorf("index holds %d", sum.Memories.Memories)
	}
}

// Two server processes (the test binary as sdl serve over stdio) store
// the same memories at once.
func TestConcurrentStoresTwoProcesses(t *testing.T) {
	root, db := repoCopy(t, "go")
	ca, cb := stdioClient(t, root, db), stdioClient(t, root, db)
	initialize(t, ca)
	initialize(t, cb)
	var wg sync.WaitGroup
	for _, c := range []*client.Client{ca, cb} {
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func(i int, c *client.Client) {
				defer wg.Done()
				args := fmt.Sprintf(`{"type": "bugfix", "title": "same %d", "content": "%s"}`, i%4, strings.Repeat("y", 2000))
				if text, isErr := call(t, c, "sdl_memory_store", args); isErr {
					t.Errorf("store: %s", text)
				}
			}(i, c)
		}
	}
	wg.Wait()
	res := memoryfs.Scan(root)
	var titles []string
	for _, f := range res.Files {
		titles = append(titles, f.Memory.Title)
	}
	sort.Strings(titles)
	if len(res.Problems) > 0 || fmt.Sprint(titles) != "[same 0 same 1 same 2 same 3]" {
		t.Errorf("files %v, problems %v", titles, res.Problems)
	}
}

func TestFeedbackTools(t *testing.T) {
	root, db := repoCopy(t, "go")
	s := memServer(t, root, db)
	add, save := symbolID(t, db, "Store.Add"), symbolID(t, db, "DB.Save")
	var fb serve.FeedbackResponse
	mustCall(t, s, "sdl.agent.feedback", map[string]any{"versionId": "v1", "sliceHandle": "sl_x", "usefulSymbols": []string{add, save},
		"missingSymbols": []string{save}, "taskType": "debug", "taskText": "saving fails"}, &fb)
	if !fb.OK || fb.SymbolsRecorded != 3 || fb.VersionID != "v1" || fb.RepoID != "shop" || fb.FeedbackID == "" {
		t.Fatalf("feedback: %+v", fb)
	}
	data, err := os.ReadFile(schema.FeedbackPath(db))
	if err != nil || strings.Count(string(data), "\n") != 1 {
		t.Fatalf("sidecar: %v %q", err, data)
	}
	var fq query.FeedbackQueryResponse
	mustCall(t, s, "sdl.agent.feedback.query", map[string]any{}, &fq)
	if len(fq.Feedback) != 1 || fq.Feedback[0].TaskText != "saving fails" || fq.AggregatedStats.TopMissingSymbols[0].SymbolID != save {
		t.Errorf("query before index: %+v", fq)
	}
	// a slice answered from unsaved buffers has the next version, marked
	// draft; its symbols may exist only in the drafts
	mustCall(t, s, "sdl.agent.feedback", map[string]any{"versionId": "v2-draft", "sliceHandle": "sl_y", "usefulSymbols": []string{"0123456789abcdef"}}, &fb)
	if !fb.OK || fb.VersionID != "v2-draft" {
		t.Errorf("draft feedback: %+v", fb)
	}
	reindex(t, root)
	mustCall(t, s, "sdl.agent.feedback.query", map[string]any{}, &fq)
	if len(fq.Feedback) != 2 || fq.AggregatedStats.TotalFeedback != 2 {
		t.Errorf("query after index: %+v", fq)
	}
	for _, c := range []struct {
		field string
		args  map[string]any
	}{
		{"versionId", map[string]any{"versionId": "v9", "sliceHandle": "h", "usefulSymbols": []string{add}}},
		{"versionId", map[string]any{"versionId": "v3-draft", "sliceHandle": "h", "usefulSymbols": []string{add}}},
		{"versionId", map[string]any{"versionId": "v1-drafty", "sliceHandle": "h", "usefulSymbols": []string{add}}},
		{"versionId", map[string]any{"sliceHandle": "h", "usefulSymbols": []string{add}}},
		{"sliceHandle", map[string]any{"versionId": "v1", "usefulSymbols": []string{add}}},
		{"usefulSymbols", map[string]any{"versionId": "v1", "sliceHandle": "h", "usefulSymbols": []string{}}},
		{"usefulSymbols", map[string]any{"versionId": "v1", "sliceHandle": "h", "usefulSymbols": []string{"Store.Add"}}},
		{"missingSymbols", map[string]any{"versionId": "v1", "sliceHandle": "h", "usefulSymbols": []string{add}, "missingSymbols": []string{"nope"}}},
		{"taskType", map[string]any{"versionId": "v1", "sliceHandle": "h", "usefulSymbols": []string{add}, "taskType": "play"}},
		{"taskText", map[string]any{"versionId": "v1", "sliceHandle": "h", "usefulSymbols": []string{add}, "taskText": strings.Repeat("t", 20001)}},
	} {
		err := callJSON(t, s, "sdl.agent.feedback", c.args, nil)
		if !errors.Is(err, serve.ErrArgs) || !strings.Contains(err.Error(), c.field+":") {
			t.Errorf("%s: %v", c.field, err)
		}
	}
}

// The memory and feedback tools are listed with snake_case names, and only
// the ones that write say so.
func TestMemoryToolsListed(t *testing.T) {
	root, db := repoCopy(t, "go")
	c := stdioClient(t, root, db)
	initialize(t, c)
	tools, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	ro := map[string]bool{}
	for _, tl := range tools.Tools {
		ro[tl.Name] = tl.Annotations.ReadOnlyHint != nil && *tl.Annotations.ReadOnlyHint
	}
	for name, want := range map[string]bool{"sdl_memory_store": false, "sdl_memory_query": true, "sdl_memory_remove": false,
		"sdl_memory_surface": true, "sdl_agent_feedback": false, "sdl_agent_feedback_query": true} {
		got, ok := ro[name]
		if !ok || got != want {
			t.Errorf("%s: listed %v, readOnlyHint %v, want %v", name, ok, got, want)
		}
	}
	// an unknown memory is a not_found error the model can act on
	text, isErr := call(t, c, "sdl_memory_remove", `{"memoryId": "0123456789abcdef"}`)
	if !isErr || !strings.Contains(text, `"code":"not_found"`) || !strings.Contains(text, "sdl_memory_query") {
		t.Errorf("remove unknown: %s", text)
	}
}

// Corrupt memory files never fail a tool: the server answers the other
// memories, keeps the one whose file broke, stores new ones, and the
// index run that follows records the files as problems.
func TestCorruptMemoryFilesInServe(t *testing.T) {
	root, db := repoCopy(t, "go")
	s := memServer(t, root, db)
	var good, victim serve.MemoryStoreResponse
	mustCall(t, s, "sdl.memory.store", map[string]any{"type": "bugfix", "title": "Add panics on nil", "content": "Guard added.",
		"symbolIds": []string{symbolID(t, db, "Store.Add")}}, &good)
	mustCall(t, s, "sdl.memory.store", map[string]any{"type": "decision", "title": "Why JSON", "content": "One readable file."}, &victim)
	reindex(t, root)

	garbage := make([]byte, 2048)
	for i := range garbage {
		garbage[i] = byte(i*197 + 3)
	}
	os.WriteFile(filepath.Join(root, ".sdl-memory/bugfixes/garbage.md"), garbage, 0o644)
	os.WriteFile(filepath.Join(root, ".sdl-memory/decisions/cut.md"), []byte("---\ntype: decision\ntitle: Cut"), 0o644)
	os.MkdirAll(filepath.Join(root, ".sdl-memory/task_context"), 0o755)
	os.WriteFile(filepath.Join(root, ".sdl-memory/task_context/huge.md"),
		[]byte("---\ntype: task_context\ntitle: huge\n---\n\n"+strings.Repeat("y", memoryfs.MaxFileSize)), 0o644)
	vp := filepath.Join(root, victim.Path)
	data, _ := os.ReadFile(vp)
	os.WriteFile(vp, append([]byte("<<<<<<< HEAD\n"), data...), 0o644) // a merge conflict

	var q queryResp
	mustCall(t, s, "sdl.memory.query", map[string]any{}, &q)
	ids := []string{}
	for _, m := range q.Memories {
		ids = append(ids, m.MemoryID)
	}
	sort.Strings(ids)
	want := []string{good.MemoryID, victim.MemoryID}
	sort.Strings(want)
	if fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Errorf("memories with corrupt files around: %v, want %v", ids, want)
	}
	var slice query.SliceResponse
	// the task names the symbol the good memory is about: a slice carries
	// only memories about its cards
	mustCall(t, s, "sdl.slice.build", map[string]any{"taskText": "Store.Add panics on a nil item", "budget": map[string]any{"maxCards": 5}}, &slice)
	if len(slice.Warnings) != 0 || len(slice.Memories) == 0 {
		t.Errorf("slice: memories %+v, warnings %v", slice.Memories, slice.Warnings)
	}
	var st serve.MemoryStoreResponse
	mustCall(t, s, "sdl.memory.store", map[string]any{"type": "task_context", "title": "Handoff", "content": "Half done."}, &st)
	if !st.Created {
		t.Errorf("store next to corrupt files: %+v", st)
	}
	// removing the broken memory keeping its file is refused with the
	// file's problem, and nothing is written
	err := callJSON(t, s, "sdl.memory.remove", map[string]any{"memoryId": victim.MemoryID, "deleteFile": false}, nil)
	if err == nil || !strings.Contains(err.Error(), victim.Path) {
		t.Errorf("remove of a broken file: %v", err)
	}
	if after, _ := os.ReadFile(vp); !strings.HasPrefix(string(after), "<<<<<<<") {
		t.Errorf("the broken file was rewritten")
	}

	sum := reindex(t, root)
	if sum.Memories.Memories != 3 || sum.Memories.Kept != 1 || len(sum.Memories.Problems) != 4 {
		t.Errorf("index: %+v", sum.Memories)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	in, err := x.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{}
	for _, p := range in.MemoryProblems {
		paths = append(paths, p.Path)
	}
	wantPaths := []string{".sdl-memory/bugfixes/garbage.md", victim.Path, ".sdl-memory/decisions/cut.md", ".sdl-memory/task_context/huge.md"}
	sort.Strings(wantPaths)
	if in.Memories != 3 || fmt.Sprint(paths) != fmt.Sprint(wantPaths) {
		t.Errorf("info: %d memories, problems %v", in.Memories, in.MemoryProblems)
	}
}

// Unsaved editor buffers never rewrite memory files; memories stored
// while drafts are open are answered at once; the checkpoint that records
// the code flags the memory in its file.
func TestMemoriesWithDraftBuffers(t *testing.T) {
	p := newInProcess(t, "go")
	total := symbolID(t, p.db, "Item.Total")
	var st serve.MemoryStoreResponse
	mustCall(t, p.srv, "sdl.memory.store", map[string]any{"type": "bugfix", "title": "Total rounds down", "content": "Cents are truncated.",
		"symbolIds": []string{total}}, &st)
	reindex(t, p.root)
	file := filepath.Join(p.root, st.Path)
	before, _ := os.ReadFile(file)

	item, _ := os.ReadFile(filepath.Join(p.root, "store/item.go"))
	edited := strings.Replace(string(item), "func (i *Item) Total() float64 {\n", "func (i *Item) Total() float64 {\n\tif i == nil {\n\t\treturn 0\n\t}\n", 1)
	if edited == string(item) {
		t.Fatal("fixture changed: no Item.Total")
	}
	p.call("sdl.buffer.push", pushArgs("change", "store/item.go", edited, 2, true))
	// a slice answers from the drafts (it indexes them into a scratch
	// copy): the memory is there, flagged for the draft, its file untouched
	slice := p.call("sdl.slice.build", `{"taskText": "total of an item", "budget": {"maxCards": 5}}`)
	if !strings.Contains(slice, `"ledgerVersion":"v2-draft"`) || !strings.Contains(slice, `"memoryId":"`+st.MemoryID+`"`) {
		t.Fatalf("slice with drafts open: %s", slice)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Errorf("an unsaved draft rewrote the memory file:\n%s", after)
	}
	// a memory stored while drafts are open is in the next draft slice
	var fresh serve.MemoryStoreResponse
	mustCall(t, p.srv, "sdl.memory.store", map[string]any{"type": "decision", "title": "Totals in cents", "content": "Use int cents.",
		"symbolIds": []string{total}}, &fresh)
	slice = p.call("sdl.slice.build", `{"taskText": "total of an item", "budget": {"maxCards": 5}}`)
	if !strings.Contains(slice, `"ledgerVersion":"v2-draft"`) || !strings.Contains(slice, `"memoryId":"`+fresh.MemoryID+`"`) {
		t.Errorf("a memory stored with drafts open is not in the draft slice: %s", slice)
	}

	out := p.call("sdl.buffer.checkpoint", `{"reason": "test"}`)
	if !strings.Contains(out, `"result":"success"`) {
		t.Fatalf("checkpoint: %s", out)
	}
	f, err := memoryfs.Read(p.root, st.Path)
	if err != nil || !f.Memory.Stale || f.Memory.StaleVersion != "v2" {
		t.Errorf("after the checkpoint the file is not flagged: %v %+v", err, f)
	}
}

// A memory stored while an editor buffer holds unsaved code is written
// against that code: saved and indexed, it is fresh; discarded, the index
// flags it stale at the first run that imports it.
func TestMemoryWrittenAgainstABuffer(t *testing.T) {
	p := newInProcess(t, "go")
	total := symbolID(t, p.db, "Item.Total")
	file := filepath.Join(p.root, "store", "item.go")
	orig, _ := os.ReadFile(file)
	draft := strings.Replace(string(orig), "func (i *Item) Total() float64 {\n", "func (i *Item) Total() float64 {\n\tif i == nil {\n\t\treturn 0\n\t}\n", 1)
	if draft == string(orig) {
		t.Fatal("fixture changed: no Item.Total")
	}
	seen, err := index.Fingerprints("store/item.go", []byte(draft))
	if err != nil {
		t.Fatal(err)
	}
	indexed, _ := index.Fingerprints("store/item.go", orig)
	if seen[total] == "" || seen[total] == indexed[total] {
		t.Fatalf("the draft does not change Total's fingerprint: %q vs %q", seen[total], indexed[total])
	}

	p.call("sdl.buffer.push", pushArgs("change", "store/item.go", draft, 2, true))
	var saved serve.MemoryStoreResponse
	mustCall(t, p.srv, "sdl.memory.store", map[string]any{"type": "bugfix", "title": "Total of nil is 0", "content": "A nil item totals 0.",
		"symbolIds": []string{total}}, &saved)
	f, err := memoryfs.Read(p.root, saved.Path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Memory.Fingerprints[total] != seen[total] || f.Memory.FingerprintVersion != index.ExtractVersion {
		t.Fatalf("recorded %v (version %q), want the draft's %s", f.Memory.Fingerprints, f.Memory.FingerprintVersion, seen[total])
	}

	// the draft is saved, then indexed: the memory is about this code
	if err := os.WriteFile(file, []byte(draft), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := reindex(t, p.root)
	if m := sum.Memories; m == nil || m.Imported != 1 || m.Stale != 0 {
		t.Fatalf("saved draft: %+v", m)
	}

	// another draft, a memory about it, and the draft is discarded: the
	// code the index imports it with is not what it was written against
	other := strings.Replace(draft, "return 0\n", "return -1\n", 1)
	p.call("sdl.buffer.push", pushArgs("change", "store/item.go", other, 3, true))
	var discarded serve.MemoryStoreResponse
	mustCall(t, p.srv, "sdl.memory.store", map[string]any{"type": "decision", "title": "Total of nil is -1", "content": "A sentinel.",
		"symbolIds": []string{total}}, &discarded)
	p.call("sdl.buffer.push", pushArgs("close", "store/item.go", "", 4, false))
	sum = reindex(t, p.root)
	if m := sum.Memories; m == nil || m.Imported != 1 || m.Stale != 1 {
		t.Fatalf("discarded draft: %+v", m)
	}
	for _, c := range []struct {
		path  string
		stale bool
	}{{saved.Path, false}, {discarded.Path, true}} {
		f, err := memoryfs.Read(p.root, c.path)
		if err != nil || f.Memory.Stale != c.stale {
			t.Errorf("%s: stale %v, want %v (%v)", c.path, f != nil && f.Memory.Stale, c.stale, err)
		}
	}
}
