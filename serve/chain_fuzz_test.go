package serve

import (
	"encoding/json"
	"strings"
	"testing"
)

var fuzzResult = func() any {
	var v any
	json.Unmarshal([]byte(`{"results": [{"symbolId": "a1", "name": "Add", "range": {"startLine": 3}, "tags": ["x", "y"]},
		{"symbolId": "b2", "name": "Get", "range": {"startLine": 9}}], "total": 2, "empty": [], "nil": null}`), &v)
	return v
}()

// FuzzChainReference: any string in a step's args either resolves, is left
// alone, or fails with an error naming the step; nothing panics.
func FuzzChainReference(f *testing.F) {
	for _, s := range []string{"$0", "$0.results[0].symbolId", "$0.results[*].range.startLine", "$0.results[-1]",
		"$0.empty[0]", "$0.nil.x", "$1.x", "$0.results[99999999999999999999]", "$0[0]", "$$0", "$0.results[*].tags[*]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		args := map[string]any{"x": ref, "list": []any{ref}}
		out, err := resolveRefs(1, args, []any{fuzzResult}, []string{""})
		if err != nil {
			if !strings.Contains(err.Error(), "step 1") {
				t.Fatalf("%q: error without the step: %v", ref, err)
			}
			return
		}
		if refRE().MatchString(ref) {
			return
		}
		if out.(map[string]any)["x"] != ref {
			t.Fatalf("%q: a non-reference was changed", ref)
		}
	})
}

// FuzzTransforms: transforms take any arguments without panicking.
func FuzzTransforms(f *testing.F) {
	f.Add("dataTemplate", `{"template": "{{name}} {{range.startLine}} {{ tags[0] }}", "data": {"name": "a", "range": {"startLine": 1}, "tags": ["t"]}}`)
	f.Add("dataFilter", `{"from": [{"a": 1}, {"a": "x"}], "where": [{"field": "a", "op": "matches", "value": "^x"}]}`)
	f.Add("dataSort", `{"from": [{"a": 1}, {"a": "x"}, {}], "by": ["a", "b"], "order": "desc"}`)
	f.Add("dataPick", `{"from": [{"a": {"b": [1]}}], "fields": ["a.b[0]", "c"]}`)
	f.Add("dataMap", `{"from": [{"a": 1}], "field": "a"}`)
	f.Fuzz(func(t *testing.T, fn, raw string) {
		tr, ok := transforms[fn]
		if !ok {
			return
		}
		var args map[string]any
		if json.Unmarshal([]byte(raw), &args) != nil || args == nil {
			return
		}
		tr(args)
	})
}
