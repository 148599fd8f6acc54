package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// TestMain lets the test binary act as "sdl serve" over stdio, or as a
// terminal reader that checks what it reads.
func TestMain(m *testing.M) {
	if db := os.Getenv("SDL_TEST_READER_DB"); db != "" {
		os.Exit(readLoop(os.Getenv("SDL_TEST_READER_ROOT"), db, os.Getenv("SDL_TEST_READER_STOP")))
	}
	if root := os.Getenv("SDL_TEST_SERVE_ROOT"); root != "" {
		repos, err := serve.NewRepos(serve.NewRepo("shop", root, os.Getenv("SDL_TEST_SERVE_DB")))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		srv := serve.New(serve.NewRegistry(), repos, serve.Options{Version: "test"})
		if addr := os.Getenv("SDL_TEST_SERVE_HTTP"); addr != "" {
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Println(ln.Addr().String())
			http.Serve(ln, srv.HTTPHandler(serve.HTTPOptions{}))
			os.Exit(0)
		}
		if err := srv.ServeStdio(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// repoCopy copies a fixture repository and indexes it.
func repoCopy(t testing.TB, name string) (root, db string) {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", name))
	root = filepath.Join(t.TempDir(), name)
	if err := copyTree(src, root); err != nil {
		t.Fatal(err)
	}
	db = filepath.Join(root, ".sdl", "index.db")
	if _, err := index.Run(context.Background(), index.Options{Root: root, NoGit: true, SDLVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	return root, db
}

func copyTree(src, dst string) error {
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
}

func initialize(t *testing.T, c *client.Client) *mcp.InitializeResult {
	t.Helper()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "sdl-test", Version: "1"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return res
}

// call calls a tool and returns its text and whether it is an error.
func call(t *testing.T, c *client.Client, name string, args string) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	if args != "" {
		var m map[string]any
		if err := json.Unmarshal([]byte(args), &m); err != nil {
			t.Fatalf("bad test arguments %s: %v", args, err)
		}
		req.Params.Arguments = m
	}
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items", name, len(res.Content))
	}
	text, ok := res.Content[0].(mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content %T", name, res.Content[0])
	}
	return text.Text, res.IsError
}

func stdioClient(t *testing.T, root, db string) *client.Client {
	t.Helper()
	c, err := client.NewStdioMCPClient(os.Args[0], []string{"SDL_TEST_SERVE_ROOT=" + root, "SDL_TEST_SERVE_DB=" + db}, "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestStdio talks to a real server process over stdio with mcp-go's client:
// initialize, list the tools, call each with valid arguments.
func TestStdio(t *testing.T) {
	root, db := repoCopy(t, "go")
	c := stdioClient(t, root, db)
	init := initialize(t, c)
	if !strings.Contains(init.Instructions, "sdl_symbol_search") || init.ServerInfo.Name != "sdl" {
		t.Errorf("initialize: %+v", init)
	}
	tools, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]mcp.Tool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = tl
		if strings.Contains(tl.Name, ".") {
			t.Errorf("tool %s has a dot in its name", tl.Name)
		}
		var schema map[string]any
		raw, _ := json.Marshal(tl.InputSchema)
		if len(tl.RawInputSchema) > 0 {
			raw = tl.RawInputSchema
		}
		if err := json.Unmarshal(raw, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("tool %s schema %s", tl.Name, raw)
		}
		if tl.Description == "" || len(tl.Description) < 60 {
			t.Errorf("tool %s has a thin description", tl.Name)
		}
	}
	for _, want := range []string{"sdl_symbol_search", "sdl_symbol_get_card", "sdl_symbol_get_cards", "sdl_slice_build",
		"sdl_slice_spillover_get", "sdl_info", "sdl_usage_stats", "sdl_repo_status", "sdl_index_refresh",
		"sdl_code_get_skeleton", "sdl_code_get_hot_path", "sdl_code_need_window", "sdl_policy_get", "sdl_policy_set",
		"sdl_context_summary", "sdl_agent_orchestrate", "sdl_chain", "sdl_action_search", "sdl_manual", "sdl_buffer_push",
		"sdl_buffer_checkpoint", "sdl_buffer_status", "sdl_delta_get", "sdl_pr_risk_analyze", "sdl_slice_refresh"} {
		tl, ok := names[want]
		if !ok {
			t.Errorf("tool %s not listed", want)
			continue
		}
		ro := tl.Annotations.ReadOnlyHint != nil && *tl.Annotations.ReadOnlyHint
		writes := want == "sdl_index_refresh" || want == "sdl_policy_set" || want == "sdl_buffer_push" ||
			want == "sdl_buffer_checkpoint" || want == "sdl_chain"
		if ro == writes {
			t.Errorf("tool %s readOnlyHint %v", want, ro)
		}
	}
	text, isErr := call(t, c, "sdl_symbol_search", `{"query": "NewStore"}`)
	if isErr || !strings.Contains(text, `"name":"NewStore"`) || !strings.Contains(text, `"ledgerVersion":"v1"`) {
		t.Fatalf("search: %s", text)
	}
	// the dotted spelling reaches the same tool
	if text, isErr := call(t, c, "sdl.symbol.getCard", `{"symbolRef": {"name": "Store.Add"}}`); isErr || !strings.Contains(text, `"DB.Save (store/db.go)"`) {
		t.Errorf("getCard: %s", text)
	}
	if text, isErr := call(t, c, "sdl_symbol_get_cards", `{"symbolRefs": [{"name": "NewStore"}, {"name": "Nope"}]}`); isErr || !strings.Contains(text, `"not_found"`) {
		t.Errorf("getCards: %s", text)
	}
	text, isErr = call(t, c, "sdl_slice_build", `{"repoId": "shop", "taskText": "save items to disk", "budget": {"maxCards": 2, "maxEstimatedTokens": 600}}`)
	if isErr {
		t.Fatalf("slice: %s", text)
	}
	var slice struct {
		Slice struct {
			Cards      []map[string]any `json:"cards"`
			Truncation struct {
				SpilloverHandle string `json:"spilloverHandle"`
			} `json:"truncation"`
		} `json:"slice"`
		EstimatedTokens int `json:"estimatedTokens"`
	}
	json.Unmarshal([]byte(text), &slice)
	if len(slice.Slice.Cards) == 0 || slice.Slice.Truncation.SpilloverHandle == "" || slice.EstimatedTokens > 600 {
		t.Fatalf("slice: %s", text)
	}
	if text, isErr := call(t, c, "sdl_slice_spillover_get", fmt.Sprintf(`{"spilloverHandle": %q, "pageSize": 3}`, slice.Slice.Truncation.SpilloverHandle)); isErr || !strings.Contains(text, `"symbols":[{`) {
		t.Errorf("spillover: %s", text)
	}
	var card struct {
		SymbolID string `json:"symbolId"`
	}
	text, _ = call(t, c, "sdl_symbol_get_card", `{"symbolRef": {"name": "Store.Add"}, "detail": "minimal"}`)
	json.Unmarshal([]byte(text), &card)
	for _, tc := range []struct{ tool, args, want string }{
		{"sdl_code_get_skeleton", `{"file": "store/store.go"}`, `func (s *Store) Add(item *Item) error {`},
		{"sdl_code_get_skeleton", fmt.Sprintf(`{"symbolId": %q}`, card.SymbolID), `/* ... */`},
		{"sdl_code_get_hot_path", fmt.Sprintf(`{"symbolId": %q, "identifiersToFind": ["MaxItems"]}`, card.SymbolID), `"matchedIdentifiers":["MaxItems"]`},
		{"sdl_code_need_window", fmt.Sprintf(`{"symbolId": %q, "reason": "the guard", "expectedLines": 12, "identifiersToFind": ["ErrFull"]}`, card.SymbolID), `"approved":true`},
		{"sdl_policy_get", `{}`, `"maxWindowLines":180`},
		{"sdl_policy_set", `{"policyPatch": {"maxWindowLines": 220}}`, `"maxWindowLines":220`},
		{"sdl_context_summary", `{"query": "Store.Add", "budget": 800}`, `Store.Add`},
		{"sdl_agent_orchestrate", `{"taskType": "debug", "taskText": "adding items fails when the store is full", "budget": {"maxTokens": 2000}}`, `"success":true`},
		{"sdl_chain", `{"steps": [{"fn": "symbolSearch", "args": {"query": "NewStore"}}, {"fn": "symbolGetCard", "args": {"symbolId": "$0.results[0].symbolId", "detail": "minimal"}}]}`, `"stepsSucceeded":2`},
		{"sdl_action_search", `{"query": "raw code"}`, `"codeNeedWindow"`},
		{"sdl_manual", `{"actions": ["chain"]}`, `function chain(`},
		{"sdl_buffer_status", `{}`, `"enabled":true`},
	} {
		if text, isErr := call(t, c, tc.tool, tc.args); isErr || !strings.Contains(text, tc.want) {
			t.Errorf("%s %s: %s", tc.tool, tc.args, text)
		}
	}
	if text, isErr := call(t, c, "sdl_info", ""); isErr || !strings.Contains(text, `"repoId":"shop"`) {
		t.Errorf("info: %s", text)
	}
	if text, isErr := call(t, c, "sdl_repo_status", `{}`); isErr || !strings.Contains(text, `"fresh":true`) {
		t.Errorf("status: %s", text)
	}
	if text, isErr := call(t, c, "sdl_usage_stats", `{"scope": "session"}`); isErr || !strings.Contains(text, `"sdl_symbol_search"`) {
		t.Errorf("usage: %s", text)
	}
	// an edit: status says stale, answers list the file, refresh records v2
	f := filepath.Join(root, "store", "item.go")
	data, _ := os.ReadFile(f)
	os.WriteFile(f, append(data, []byte("\n// Discount is new.\nfunc Discount(p float64) float64 { return p * 0.9 }\n")...), 0o644)
	if text, _ := call(t, c, "sdl_repo_status", `{}`); !strings.Contains(text, `"changedFiles":["store/item.go"]`) {
		t.Errorf("status after edit: %s", text)
	}
	if text, _ := call(t, c, "sdl_symbol_get_card", `{"symbolRef": {"name": "Item"}, "detail": "minimal"}`); !strings.Contains(text, `"staleFiles":["store/item.go"]`) {
		t.Errorf("card of a changed file: %s", text)
	}
	if text, isErr := call(t, c, "sdl_index_refresh", `{}`); isErr || !strings.Contains(text, `"ledgerVersion":"v2"`) {
		t.Fatalf("refresh: %s", text)
	}
	if text, _ := call(t, c, "sdl_symbol_search", `{"query": "Discount"}`); !strings.Contains(text, `"name":"Discount"`) || !strings.Contains(text, `"ledgerVersion":"v2"`) {
		t.Errorf("search after refresh: %s", text)
	}
}

// TestBadArguments: every kind of bad argument is a tool error that names
// the field and says what to send instead.
func TestBadArguments(t *testing.T) {
	root, db := repoCopy(t, "go")
	c := stdioClient(t, root, db)
	initialize(t, c)
	for _, tc := range []struct{ tool, args, want string }{
		{"sdl_symbol_get_card", `{}`, "symbolId/symbolRef"},
		{"sdl_symbol_search", `{}`, "query"},
		{"sdl_symbol_search", `{"query": "x", "limit": "ten"}`, "limit: must be an integer"},
		{"sdl_symbol_search", `{"query": "x", "limit": 5000}`, "limit: must be between 1 and 1000"},
		{"sdl_symbol_search", `{"query": "x", "kinds": ["widget"]}`, `kinds[0]: \"widget\" is not one of function, class`},
		{"sdl_symbol_search", `{"query": "x", "frobnicate": true}`, `unknown argument \"frobnicate\"`},
		{"sdl_slice_build", `{"editedFiles": ["../../etc/passwd"]}`, "editedFiles"},
		{"sdl_slice_build", `{"failingTestPath": "/etc/passwd"}`, "outside the repository"},
		{"sdl_slice_build", `{"taskText": "x", "budget": {"maxEstimatedTokens": 10}}`, "budget.maxEstimatedTokens"},
		// a field unknown inside an object argument is named by its path,
		// with what that object takes (it read: unknown argument
		// "maxTokens"; sdl_slice_build takes: repoId, taskText, ...)
		{"sdl_slice_build", `{"taskText": "x", "budget": {"maxTokens": 10}}`, `unknown argument \"budget.maxTokens\"; budget takes: maxCards, maxEstimatedTokens`},
		{"sdl_slice_build", `{"taskText": "x", "minConfidence": 2}`, "minConfidence"},
		{"sdl_slice_spillover_get", `{"spilloverHandle": "sp_nope"}`, "unknown handle"},
		{"sdl_symbol_search", `{"query": "x", "repoId": "elsewhere"}`, `unknown repoId \"elsewhere\": this server knows shop`},
		{"sdl_usage_stats", `{"scope": "forever"}`, "scope"},
		// an id from an older index: how to find the current one
		{"sdl_symbol_get_card", `{"symbolId": "sym_nope"}`, "symbolRef {name, file?}"},
	} {
		text, isErr := call(t, c, tc.tool, tc.args)
		if !isErr {
			t.Errorf("%s %s: no error: %s", tc.tool, tc.args, text)
			continue
		}
		if !strings.Contains(text, tc.want) || !strings.Contains(text, `"code":`) {
			t.Errorf("%s %s: %s, want it to mention %s", tc.tool, tc.args, text, tc.want)
		}
	}
	// an unknown tool is a protocol error
	req := mcp.CallToolRequest{}
	req.Params.Name = "sdl_no_such_tool"
	if _, err := c.CallTool(context.Background(), req); err == nil {
		t.Error("unknown tool: no error")
	}
}

func httpServer(t *testing.T, root, db, token string, maxOut int) *httptest.Server {
	t.Helper()
	repos, err := serve.NewRepos(serve.NewRepo("shop", root, db))
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.NewRegistry(), repos, serve.Options{Version: "test", MaxOutputTokens: maxOut})
	ts := httptest.NewServer(srv.HTTPHandler(serve.HTTPOptions{Token: token}))
	t.Cleanup(func() { ts.Close(); repos.Close() })
	return ts
}

// TestHTTPConcurrentClients: several clients over HTTP at once, each with
// its own session, get their own answers.
func TestHTTPConcurrentClients(t *testing.T) {
	root, db := repoCopy(t, "python")
	ts := httpServer(t, root, db, "secret", 0)
	queries := []string{"Store", "restock", "Item", "load", "save"}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c, err := client.NewStreamableHttpClient(ts.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer secret"}))
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			initialize(t, c)
			for j := 0; j < 10; j++ {
				q := queries[(i+j)%len(queries)]
				text, isErr := call(t, c, "sdl_symbol_search", fmt.Sprintf(`{"query": %q, "limit": 5}`, q))
				if isErr || !strings.Contains(strings.ToLower(text), strings.ToLower(q)) {
					errs <- fmt.Errorf("client %d query %s: %s", i, q, text)
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestHTTPAuth(t *testing.T) {
	root, db := repoCopy(t, "go")
	ts := httpServer(t, root, db, "secret", 0)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		name, header string
		want         int
		says         string // in the body and the challenge
	}{
		{"no token", "", http.StatusUnauthorized, "missing bearer token: start the client with Authorization: Bearer"},
		{"wrong token", "Bearer nope", http.StatusUnauthorized, "wrong bearer token"},
		{"token without the scheme", "secret", http.StatusUnauthorized, "missing bearer token"},
		{"right token", "Bearer secret", http.StatusOK, ""},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.header != "" {
			req.Header.Set("Authorization", tc.header)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
		if tc.says == "" {
			continue
		}
		// the JSON-RPC error of MCP, and RFC 6750's challenge
		var rpc struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(got, &rpc); err != nil || !strings.Contains(rpc.Error.Message, tc.says) {
			t.Errorf("%s: body %s, want a JSON-RPC error saying %q", tc.name, got, tc.says)
		}
		if ch := resp.Header.Get("WWW-Authenticate"); !strings.Contains(ch, "error_description=") || !strings.Contains(ch, tc.says) {
			t.Errorf("%s: WWW-Authenticate %q", tc.name, ch)
		}
	}
	// a plain GET of /mcp, without a session, is answered at once
	get, _ := http.NewRequest("GET", ts.URL+"/mcp", nil)
	get.Header.Set("Authorization", "Bearer secret")
	resp, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(got), "Mcp-Session-Id") {
		t.Errorf("GET /mcp without a session: %d %s", resp.StatusCode, got)
	}
	// a token in the query string is not a token
	resp, err = http.Post(ts.URL+"/mcp?token=secret", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("token in the URL: status %d", resp.StatusCode)
	}
	if err := serve.CheckAddr("0.0.0.0:7331", ""); err == nil {
		t.Error("a non-loopback address without a token was accepted")
	}
	for _, ok := range []string{"127.0.0.1:7331", "[::1]:7331", "localhost:7331"} {
		if err := serve.CheckAddr(ok, ""); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestOutputCap: an answer never exceeds the output cap; a long list is
// cut and says so.
func TestOutputCap(t *testing.T) {
	root, db := repoCopy(t, "java")
	ts := httpServer(t, root, db, "", 400)
	c, err := client.NewStreamableHttpClient(ts.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	initialize(t, c)
	text, isErr := call(t, c, "sdl_symbol_search", `{"query": "shop order item", "limit": 200}`)
	if isErr || !strings.Contains(text, `"outputCap"`) {
		t.Fatalf("capped search: %s", text)
	}
	if n := tokens(text); n > 400 {
		t.Errorf("answer of %d tokens over the cap of 400", n)
	}
}

// TestNewVersionWithoutRestart: a server sees a version added by another
// process (sdl index) on its next call, and a rebuilt file too.
func TestNewVersionWithoutRestart(t *testing.T) {
	root, db := repoCopy(t, "go")
	ts := httpServer(t, root, db, "", 0)
	c, err := client.NewStreamableHttpClient(ts.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	initialize(t, c)
	call(t, c, "sdl_symbol_search", `{"query": "Store"}`)
	os.WriteFile(filepath.Join(root, "store", "extra.go"), []byte("package store\n\n// Audit logs.\nfunc Audit() {}\n"), 0o644)
	if _, err := index.Run(context.Background(), index.Options{Root: root, NoGit: true}); err != nil {
		t.Fatal(err)
	}
	if text, _ := call(t, c, "sdl_symbol_search", `{"query": "Audit"}`); !strings.Contains(text, `"name":"Audit"`) || !strings.Contains(text, `"v2"`) {
		t.Errorf("after a new version: %s", text)
	}
	// a full rebuild renames a new file into place
	os.Remove(db)
	os.WriteFile(filepath.Join(root, "store", "more.go"), []byte("package store\n\nfunc Reconcile() {}\n"), 0o644)
	if _, err := index.Run(context.Background(), index.Options{Root: root, NoGit: true}); err != nil {
		t.Fatal(err)
	}
	// the next call reopens the replaced file
	if text, _ := call(t, c, "sdl_symbol_search", `{"query": "Reconcile"}`); !strings.Contains(text, `"name":"Reconcile"`) {
		t.Errorf("after a rebuild: %s", text)
	}
}

func tokens(s string) int { return query.Tokens(s) }

// initClient initializes a client without a test to report to.
func initClient(c *client.Client) error {
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "sdl-bench", Version: "1"}
	_, err := c.Initialize(context.Background(), req)
	return err
}

// callQuiet calls a tool and ignores the answer.
func callQuiet(c *client.Client, name, args string) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	var m map[string]any
	json.Unmarshal([]byte(args), &m)
	req.Params.Arguments = m
	c.CallTool(context.Background(), req)
}

// readLoop reads the index as terminal commands do, until stop exists (and
// at least 20 rounds ran), checking in each round, within one read
// transaction, that the newest version's recorded counts are those of the
// current view: a reader never sees a partial version.
func readLoop(root, db, stop string) int {
	ctx := context.Background()
	seen := map[string]bool{}
	for n := 0; ; n++ {
		if _, err := os.Stat(stop); err == nil && n >= 20 {
			fmt.Printf("versions seen: %d in %d rounds\n", len(seen), n)
			return 0
		}
		x, err := query.Open(db, root)
		if err != nil {
			fmt.Println("open:", err)
			return 1
		}
		err = func() error {
			defer x.Close()
			tx, err := x.DB.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			var id string
			var files, symbols, edges, cf, cs, ce int
			if err := tx.QueryRow(`SELECT id, files, symbols, edges FROM versions ORDER BY seq DESC LIMIT 1`).Scan(&id, &files, &symbols, &edges); err != nil {
				return err
			}
			if err := tx.QueryRow(`SELECT
				(SELECT COUNT(*) FROM files WHERE to_seq IS NULL AND status IN ('ok', 'parse_error')),
				(SELECT COUNT(*) FROM symbols WHERE to_seq IS NULL),
				(SELECT COUNT(*) FROM edges WHERE to_seq IS NULL)`).Scan(&cf, &cs, &ce); err != nil {
				return err
			}
			if cf != files || cs != symbols || ce != edges {
				return fmt.Errorf("partial version %s: recorded %d/%d/%d, current view %d/%d/%d", id, files, symbols, edges, cf, cs, ce)
			}
			tx.Rollback()
			seen[id] = true
			if _, err := x.Search(ctx, query.SearchRequest{Query: "Store", Limit: 10}); err != nil {
				return err
			}
			_, err = x.BuildSlice(ctx, query.SliceRequest{TaskText: "add an item", Budget: &query.SliceBudget{MaxEstimatedTokens: 800}})
			return err
		}()
		if err != nil {
			fmt.Println("round", n, err)
			return 1
		}
	}
}

// TestHTTPLimits: a body over the limit is refused and the server goes on;
// a request past its deadline fails with an error that says so.
func TestHTTPLimits(t *testing.T) {
	root, db := repoCopy(t, "go")
	repos, err := serve.NewRepos(serve.NewRepo("shop", root, db))
	if err != nil {
		t.Fatal(err)
	}
	defer repos.Close()
	srv := serve.New(serve.NewRegistry(), repos, serve.Options{Version: "test"})
	ts := httptest.NewServer(srv.HTTPHandler(serve.HTTPOptions{MaxBodyBytes: 4096}))
	defer ts.Close()
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sdl_symbol_search","arguments":{"query":"` + strings.Repeat("a", 8192) + `"}}}`
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(big))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK && !strings.Contains(string(body), "error") {
		t.Errorf("a body over the limit was served: %d %.200s", resp.StatusCode, body)
	}
	c, err := client.NewStreamableHttpClient(ts.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	initialize(t, c)
	if text, isErr := call(t, c, "sdl_symbol_search", `{"query": "NewStore"}`); isErr || !strings.Contains(text, "NewStore") {
		t.Errorf("after the refused body: %s", text)
	}

	// a deadline that has passed: the call fails and says why
	expired := httptest.NewServer(srv.HTTPHandler(serve.HTTPOptions{Timeout: time.Nanosecond}))
	defer expired.Close()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ = http.NewRequest("POST", expired.URL+"/mcp", strings.NewReader(init))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !(resp.StatusCode == http.StatusGatewayTimeout && strings.Contains(string(body), "timed out")) && !strings.Contains(string(body), "deadline") {
		t.Errorf("a request past its deadline: %d %.300s", resp.StatusCode, body)
	}
	t.Logf("past the deadline: %d %s", resp.StatusCode, body)
}
