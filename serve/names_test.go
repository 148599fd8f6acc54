package serve_test

import (
	"context"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// toolNameRef matches what reads as a tool name in text: sdl.x.y or sdl_x.
var toolNameRef = regexp.MustCompile(`\bsdl(?:[._][a-zA-Z]+)+\b`)

// TestEveryNamedToolIsListed collects everything a client reads (the
// instructions, tools/list, and the answers and errors of every tool called
// with its example, with nothing, with an unknown argument and with ids
// that name nothing) and checks that each tool name in it is one tools/list
// gives, so that a client can call what a hint tells it to.
func TestEveryNamedToolIsListed(t *testing.T) {
	p := newInProcess(t, "go")
	c, err := client.NewInProcessClient(p.srv.MCP())
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
	list, _ := json.Marshal(tools)
	texts := map[string]string{"instructions": init.Instructions, "tools/list": string(list)}
	bad := []string{`{}`, `{"noSuchArgument": 1}`, `{"symbolId": "0000000000000000", "sliceHandle": "sl_00000000000000000000", ` +
		`"spilloverHandle": "sp_00000000000000000000", "memoryId": "nope", "file": "no/such.go", "query": "zzqqxx", "fromVersion": "v9", "toVersion": "v1"}`}
	for _, tl := range p.srv.Registry().Tools() {
		if tl.Name == "sdl.index.refresh" {
			continue
		}
		args := append([]string{tl.Example}, bad...)
		for i, a := range args {
			text, _ := call(t, c, tl.MCPName(), a)
			texts[tl.MCPName()+"#"+string(rune('0'+i))] = text
		}
	}
	// the dotted spelling, which reaches the same tool
	for _, name := range []string{"sdl.symbol.getCard"} {
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
	if seen < 50 {
		t.Errorf("only %d tool names seen: the test reads too little", seen)
	}
}
