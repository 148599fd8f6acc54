package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// TestToolSchemas checks that what tools/list tells a client to send is
// what the server takes: each tool's example is valid under its schema and
// accepted, and a call made valid under the schema by setting any one
// argument to any value the schema allows (each enum value, the bounds) is
// never refused for its arguments.
func TestToolSchemas(t *testing.T) {
	p := newInProcess(t, "go")
	for _, tool := range p.srv.Registry().Tools() {
		if err := tool.SchemaError(); err != nil {
			t.Errorf("%s: %v", tool.Name, err)
			continue
		}
		raw := tool.InputSchemaJSON()
		var js jsonschema.Schema
		if err := json.Unmarshal(raw, &js); err != nil {
			t.Fatalf("%s: schema %s: %v", tool.Name, raw, err)
		}
		rs, err := js.Resolve(nil)
		if err != nil {
			t.Errorf("%s: schema does not resolve: %v\n%s", tool.Name, err, raw)
			continue
		}
		var generic map[string]any
		if err := json.Unmarshal(raw, &generic); err != nil {
			t.Fatalf("%s: schema %s: %v", tool.Name, raw, err)
		}
		for _, where := range bareSchemas(generic, "inputSchema") {
			// the MCP inspector (--strict) refuses a tool with one
			t.Errorf("%s: %s is a bare boolean where clients expect a schema object", tool.Name, where)
		}
		if tool.Example == "" {
			t.Errorf("%s has no example", tool.Name)
			continue
		}
		var example map[string]any
		if err := json.Unmarshal([]byte(tool.Example), &example); err != nil {
			t.Fatalf("%s: example %s: %v", tool.Name, tool.Example, err)
		}
		if err := rs.Validate(example); err != nil {
			t.Errorf("%s: its example %s is not valid under its schema: %v", tool.Name, tool.Example, err)
		}
		if tool.Name == "sdl.index.refresh" {
			continue // rebuilds the index: covered by its own tests
		}
		refused := func(err error) bool {
			return errors.Is(err, serve.ErrArgs) || errors.Is(err, query.ErrInvalid)
		}
		b, _ := json.Marshal(example)
		_, baseErr := p.srv.Call(context.Background(), tool.Name, b)
		if refused(baseErr) {
			// an example names things of its own (versions, handles) that
			// this fixture need not have: the refusal must be about those
			t.Logf("%s: the fixture has no %s: %v", tool.Name, tool.Example, baseErr)
		}
		check := func(label string, args map[string]any) {
			t.Helper()
			if err := rs.Validate(args); err != nil {
				t.Errorf("%s %s: a value made from the schema is not valid under it: %v", tool.Name, label, err)
				return
			}
			b, _ := json.Marshal(args)
			_, err := p.srv.Call(context.Background(), tool.Name, b)
			if refused(err) && (baseErr == nil || err.Error() != baseErr.Error()) {
				t.Errorf("%s %s: the schema allows %s, the server refuses it: %v", tool.Name, label, b, err)
			}
		}
		props, _ := js.Properties, 0
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			if name == "repoId" {
				continue
			}
			for i, v := range schemaValues(props[name]) {
				args := map[string]any{}
				for k, e := range example {
					args[k] = e
				}
				args[name] = v
				check(fmt.Sprintf("%s#%d", name, i), args)
			}
		}
	}
}

// schemaValues are values a schema allows: each enum value, the bounds of a
// number, both booleans, an object filled the same way. A free string (an
// id, a path, a time) is left out: what it must name is not the schema's.
func schemaValues(s *jsonschema.Schema) []any {
	if s == nil {
		return nil
	}
	if len(s.Enum) > 0 {
		return s.Enum
	}
	typ := s.Type
	if typ == "" && len(s.Types) > 0 {
		typ = s.Types[0]
	}
	switch typ {
	case "boolean":
		return []any{true, false}
	case "integer", "number":
		var out []any
		if s.Minimum != nil {
			out = append(out, *s.Minimum)
		}
		if s.Maximum != nil {
			out = append(out, *s.Maximum)
		}
		if len(out) == 0 {
			out = append(out, 1)
		}
		return out
	case "array":
		var out []any
		for _, v := range schemaValues(s.Items) {
			out = append(out, []any{v})
		}
		return out
	case "object":
		if len(s.Properties) == 0 {
			return []any{map[string]any{}}
		}
		var out []any
		for name, ps := range s.Properties {
			for _, v := range schemaValues(ps) {
				obj := map[string]any{name: v}
				for _, r := range s.Required {
					if r != name {
						if rv := schemaValues(s.Properties[r]); len(rv) > 0 {
							obj[r] = rv[0]
						} else if ex := s.Properties[r].Examples; len(ex) > 0 {
							obj[r] = ex[0] // a name the schema gives as valid
						} else {
							obj[r] = "x"
						}
					}
				}
				out = append(out, obj)
			}
		}
		return out
	}
	return nil
}

// bareSchemas lists where a schema holds a boolean in place of the schema
// of a property or of an array's items.
func bareSchemas(s map[string]any, at string) []string {
	var out []string
	if props, ok := s["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			switch p := props[n].(type) {
			case bool:
				out = append(out, at+".properties."+n)
			case map[string]any:
				out = append(out, bareSchemas(p, at+".properties."+n)...)
			}
		}
	}
	switch it := s["items"].(type) {
	case bool:
		out = append(out, at+".items")
	case map[string]any:
		out = append(out, bareSchemas(it, at+".items")...)
	}
	return out
}
