package serve

import (
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestJSONSchemaLazyDrafts: mcp-go's server validates with
// santhosh-tekuri/jsonschema, whose drafts' meta-schemas sdl's copy
// (third_party/jsonschema) compiles at the first NewCompiler instead of at
// start-up. Compilers made at once by many goroutines (go test -race) all
// check schemas against their meta-schema, which needs the drafts: a
// schema of the wrong shape is refused, a good one validates.
func TestJSONSchemaLazyDrafts(t *testing.T) {
	const good = `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
		"properties": {"limit": {"type": "integer", "minimum": 1}}, "required": ["limit"]}`
	const bad = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": 5}`
	compile := func(src string) (*jsonschema.Schema, error) {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(src))
		if err != nil {
			return nil, err
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("mem://s.json", doc); err != nil {
			return nil, err
		}
		return c.Compile("mem://s.json")
	}
	var wg sync.WaitGroup
	errs := make([]string, 8)
	for i := range errs {
		wg.Go(func() {
			s, err := compile(good)
			if err != nil {
				errs[i] = "good schema: " + err.Error()
				return
			}
			for _, c := range []struct {
				inst string
				ok   bool
			}{{`{"limit": 3}`, true}, {`{"limit": 0}`, false}, {`{}`, false}} {
				v, _ := jsonschema.UnmarshalJSON(strings.NewReader(c.inst))
				if err := s.Validate(v); (err == nil) != c.ok {
					errs[i] = c.inst + ": validation error " + errString(err)
					return
				}
			}
			if _, err := compile(bad); err == nil {
				errs[i] = `{"type": 5} compiled: the meta-schema did not check it`
			}
		})
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Errorf("goroutine %d: %s", i, e)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}
