package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// hostileValues are what an agent (or an attacker behind one) may send in
// place of each kind of argument.
func hostileValues(typ string) map[string]any {
	deep := any("x")
	for i := 0; i < 5000; i++ {
		deep = map[string]any{"a": deep}
	}
	deepList := any("x")
	for i := 0; i < 5000; i++ {
		deepList = []any{deepList}
	}
	huge := make([]any, 100000)
	for i := range huge {
		huge[i] = "x"
	}
	v := map[string]any{
		"wrong type (object)": map[string]any{"x": 1},
		"null":                nil,
		"deep object":         deep,
		"deep array":          deepList,
	}
	switch typ {
	case "string":
		for k, s := range map[string]string{
			"traversal":          "../../../../etc/passwd",
			"absolute":           "/etc/passwd",
			"windows traversal":  `..\..\..\windows\win.ini`,
			"nul":                "store/\x00item.go",
			"10 MB":              strings.Repeat("a", 10<<20),
			"fts quote":          `"unterminated`,
			"fts operators":      `a OR (b AND NOT`,
			"fts near":           `NEAR(a b, 2`,
			"fts column":         `{name signature}: x*`,
			"fts star":           `*`,
			"fts caret":          `^x`,
			"sql":                `'; DROP TABLE symbols; --`,
			"invalid utf-8":      "\xff\xfe\xfd",
			"newlines":           "a\nb\r\nc",
			"empty":              "",
			"whitespace":         "   ",
			"reference":          "$0.results[0]",
			"template":           "{{.}}",
			"regexp bomb":        strings.Repeat("(a*)*", 200) + "b",
			"many words":         strings.Repeat("word ", 100000),
			"unicode confusable": "ѕtore",
		} {
			v[k] = s
		}
		v["wrong type (number)"] = 42
	case "integer", "number":
		v["negative"] = -1
		v["huge"] = 1e300
		v["fraction"] = 2.5
		v["wrong type (string)"] = "ten"
	case "boolean":
		v["wrong type (string)"] = "yes"
	case "array":
		v["huge"] = huge
		v["wrong type (string)"] = "x"
		v["traversal items"] = []any{"../../etc/passwd", "/etc/passwd"}
		v["mixed items"] = []any{1, "x", nil, map[string]any{}}
	case "object":
		v["wrong type (number)"] = 5
		v["traversal values"] = map[string]any{"name": "../../etc/passwd", "file": "/etc/passwd"}
	}
	return v
}

// TestHostileArguments sends every hostile value in every argument of every
// tool, one at a time on top of the tool's example: each call answers or
// fails with an error; none panics, hangs, leaks a file from outside the
// repository, or answers beyond the output cap.
func TestHostileArguments(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of calls")
	}
	p := newInProcess(t, "go")
	calls, failures := 0, 0
	values := map[string]map[string]any{} // by argument type, built once
	for _, tool := range p.srv.Registry().Tools() {
		if tool.Name == "sdl.index.refresh" {
			continue // rebuilds the index: covered by its own tests
		}
		base := map[string]any{}
		if tool.Example != "" {
			if err := json.Unmarshal([]byte(tool.Example), &base); err != nil {
				t.Fatalf("%s: example %s: %v", tool.Name, tool.Example, err)
			}
		}
		for _, arg := range tool.Args {
			if values[arg.Type] == nil {
				values[arg.Type] = hostileValues(arg.Type)
			}
			for label, val := range values[arg.Type] {
				args := map[string]any{}
				for k, v := range base {
					args[k] = v
				}
				args[arg.Name] = val
				raw, err := json.Marshal(args)
				if err != nil {
					t.Fatalf("marshal: %v", err)
				}
				calls++
				out, err := callNoPanic(p.srv, tool.Name, raw)
				if err != nil {
					failures++
					if strings.Contains(err.Error(), "panic") {
						t.Errorf("%s.%s = %s: %v", tool.Name, arg.Name, label, err)
					}
					continue
				}
				if strings.Contains(string(out), "root:x:0:0") || strings.Contains(string(out), "[fonts]") {
					t.Errorf("%s.%s = %s: a file from outside the repository leaked: %.300s", tool.Name, arg.Name, label, out)
				}
				if n := query.Tokens(string(out)); n > serve.DefaultMaxOutputTokens {
					t.Errorf("%s.%s = %s: %d tokens, over the cap", tool.Name, arg.Name, label, n)
				}
				if !json.Valid(out) {
					t.Errorf("%s.%s = %s: invalid JSON: %.200s", tool.Name, arg.Name, label, out)
				}
			}
		}
	}
	t.Logf("%d hostile calls, %d refused", calls, failures)
	// the index is intact afterwards
	if out := p.call("sdl.symbol.search", `{"query": "NewStore"}`); !strings.Contains(out, `"name":"NewStore"`) {
		t.Errorf("after the hostile calls: %s", out)
	}
}

func callNoPanic(srv *serve.Server, name string, raw []byte) (out json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return srv.Call(context.Background(), name, raw)
}
