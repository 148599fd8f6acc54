package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// toolNameRef matches what reads as a tool name in text: sdl.x.y or sdl_x.
var toolNameRef = regexp.MustCompile(`\bsdl(?:[._][a-zA-Z]+)+\b`)

// TestEveryNamedToolIsListed collects everything a client reads (the
// instructions, tools/list, the answers and errors of every tool called
// with its example, with nothing, with an unknown argument and with ids
// that name nothing, and the server's log, which a client such as the MCP
// inspector prints beside them) and checks that each tool name in it is one tools/list
// gives, so that a client can call what a hint tells it to.
func TestEveryNamedToolIsListed(t *testing.T) {
	sizes := map[string]int{}
	for _, surface := range serve.Surfaces {
		t.Run(surface, func(t *testing.T) { sizes[surface] = everyNamedToolIsListed(t, surface) })
	}
	if !(sizes[serve.SurfaceGateway] < sizes[serve.SurfaceLadder] && sizes[serve.SurfaceLadder] < sizes[serve.SurfaceAll]) {
		t.Errorf("tools/list tokens by surface: %v", sizes)
	}
}

// everyNamedToolIsListed checks one surface and returns the tokens of its
// tools/list.
func everyNamedToolIsListed(t *testing.T, surface string) int {
	p := newInProcess(t, "go")
	repos := p.repos
	var logged bytes.Buffer
	srv := serve.New(serve.NewRegistry(), repos, serve.Options{Version: "test", Tools: surface, Log: log.New(&logged, "", 0)})
	c, err := client.NewInProcessClient(srv.MCP())
	if err != nil {
		t.Fatal(err)
	}
	init := initialize(t, c)
	tools, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tl := range tools.Tools {
		listed[tl.Name] = true
	}
	list, _ := json.Marshal(tools.Tools)
	n := query.Tokens(string(list))
	t.Logf("surface %s: tools/list has %d tools, %d bytes, %d tokens (o200k)", surface, len(tools.Tools), len(list), n)
	texts := map[string]string{"instructions": init.Instructions, "tools/list": string(list)}
	bad := []string{`{}`, `{"noSuchArgument": 1}`, `{"symbolId": "0000000000000000", "sliceHandle": "sl_00000000000000000000", ` +
		`"spilloverHandle": "sp_00000000000000000000", "memoryId": "nope", "file": "no/such.go", "query": "zzqqxx", "fromVersion": "v9", "toVersion": "v1"}`}
	for _, tl := range srv.Registry().ListedTools() {
		if tl.Name == "sdl.index.refresh" {
			continue
		}
		args := append([]string{tl.Example}, bad...)
		for i, a := range args {
			text, _ := call(t, c, tl.MCPName(), a)
			texts[tl.MCPName()+"#"+string(rune('0'+i))] = text
		}
	}
	// the dotted spelling, which reaches the same tool; and every action
	// through sdl_chain, whatever the surface lists
	texts["chain"], _ = call(t, c, "sdl_chain", `{"steps": [{"fn": "sliceBuild", "args": {"taskText": "add an item"}}, `+
		`{"fn": "deltaGet", "args": {"fromVersion": "v1", "toVersion": "v1"}}, {"fn": "memoryQuery", "args": {"query": "x"}}]}`)
	if !strings.Contains(texts["chain"], `"status":"ok"`) || strings.Contains(texts["chain"], `"status":"error"`) {
		t.Errorf("sdl_chain over actions the surface does not list: %s", texts["chain"])
	}
	// a field that holds a tool's name holds one a program can use: the
	// listed MCP name, or the chain step of an unlisted tool
	found, _ := call(t, c, "sdl_action_search", `{"query": "build a slice for a task", "limit": 25}`)
	var actions struct {
		Actions []struct {
			Name    string `json:"name"`
			MCPName string `json:"mcpName"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(found), &actions); err != nil || len(actions.Actions) == 0 {
		t.Errorf("sdl_action_search: %v: %s", err, found)
	}
	for _, a := range actions.Actions {
		if !listed[a.MCPName] && a.MCPName != a.Name {
			t.Errorf("sdl_action_search gives %s the mcpName %q: neither listed nor its chain step", a.Name, a.MCPName)
		}
	}
	for _, name := range []string{"sdl.symbol.getCard"} {
		if !srv.Registry().Listed(mustLookup(t, srv, name)) {
			continue
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = name
		req.Params.Arguments = map[string]any{"symbolRef": map[string]any{"name": "NewStore"}}
		if res, err := c.CallTool(context.Background(), req); err != nil {
			texts[name] = err.Error()
		} else if len(res.Content) == 1 {
			if tc, ok := res.Content[0].(mcp.TextContent); ok {
				texts[name] = tc.Text
			}
		}
	}
	texts["server log"] = logged.String()
	keys := make([]string, 0, len(texts))
	for k := range texts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	seen := 0
	for _, k := range keys {
		for _, m := range toolNameRef.FindAllString(texts[k], -1) {
			seen++
			if !listed[m] {
				i := strings.Index(texts[k], m)
				t.Errorf("%s names %s, which tools/list does not give: ...%s...", k, m, texts[k][max(0, i-80):min(len(texts[k]), i+80)])
			}
		}
	}
	if seen < 20 {
		t.Errorf("only %d tool names seen: the test reads too little", seen)
	}
	return n
}

func mustLookup(t *testing.T, srv *serve.Server, name string) *serve.Tool {
	tl, err := srv.Registry().Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}
