package serve_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/query"
)

// TestCatalogIsTheRegistry: the catalog that sdl.manual and
// sdl.action.search draw from lists every tool the MCP server serves, and
// nothing else.
func TestCatalogIsTheRegistry(t *testing.T) {
	p := newInProcess(t, "go")
	var served []string
	for name := range p.srv.MCP().ListTools() {
		served = append(served, name)
	}
	sort.Strings(served)
	var manual struct {
		Manual        string   `json:"manual"`
		Actions       []string `json:"actions"`
		TokenEstimate int      `json:"tokenEstimate"`
	}
	json.Unmarshal([]byte(p.call("sdl.manual", `{"format": "json"}`)), &manual)
	var entries []struct {
		Name    string   `json:"name"`
		MCPName string   `json:"mcpName"`
		Params  []string `json:"params"`
	}
	if err := json.Unmarshal([]byte(manual.Manual), &entries); err != nil {
		t.Fatalf("json manual: %v", err)
	}
	var listed []string
	for _, e := range entries {
		listed = append(listed, e.MCPName)
	}
	sort.Strings(listed)
	if strings.Join(listed, " ") != strings.Join(served, " ") {
		t.Errorf("manual lists:\n%s\nthe server serves:\n%s", strings.Join(listed, " "), strings.Join(served, " "))
	}
	for _, want := range []string{"sdl_agent_orchestrate", "sdl_chain", "sdl_action_search", "sdl_manual", "sdl_buffer_push",
		"sdl_buffer_checkpoint", "sdl_buffer_status"} {
		if !contains(served, want) {
			t.Errorf("%s is not served", want)
		}
	}
	if manual.TokenEstimate != query.Tokens(p.call("sdl.manual", `{"format": "json"}`))-query.Tokens(`,"ledgerVersion":"v1"`) && manual.TokenEstimate == 0 {
		t.Errorf("tokenEstimate %d", manual.TokenEstimate)
	}

	// every format renders every action, with its parameters
	for _, format := range []string{"typescript", "markdown"} {
		var m struct {
			Manual string `json:"manual"`
		}
		json.Unmarshal([]byte(p.call("sdl.manual", fmt.Sprintf(`{"format": %q}`, format))), &m)
		for _, e := range entries {
			if !strings.Contains(m.Manual, e.Name) {
				t.Errorf("%s manual lacks %s", format, e.Name)
			}
		}
		if format == "typescript" && !strings.Contains(m.Manual, "function symbolSearch(args: { repoId?: string; query: string;") {
			t.Errorf("typescript manual: %.600s", m.Manual)
		}
	}
	// filtered by names and by a query
	var some struct {
		Actions []string `json:"actions"`
	}
	json.Unmarshal([]byte(p.call("sdl.manual", `{"actions": ["sliceBuild", "sdl.symbol.getCard"], "includeExamples": true}`)), &some)
	if strings.Join(some.Actions, ",") != "sliceBuild,symbolGetCard" {
		t.Errorf("manual by actions: %v", some.Actions)
	}
	if msg := p.fail("sdl.manual", `{"actions": ["sliceBiuld"]}`); !strings.Contains(msg, "sliceBiuld") {
		t.Errorf("manual with an unknown action: %s", msg)
	}
	if msg := p.fail("sdl.manual", `{"format": "yaml"}`); !strings.Contains(msg, "format") {
		t.Errorf("manual with a bad format: %s", msg)
	}
}

func TestActionSearch(t *testing.T) {
	p := newInProcess(t, "go")
	for _, tc := range []struct{ query, want string }{
		{"who calls this", "symbolGetCard"},
		{"what calls parseConfig", "symbolGetCard"},
		{"raw code window", "codeNeedWindow"},
		{"skeleton of a file", "codeGetSkeleton"},
		{"push unsaved editor buffer", "bufferPush"},
		{"run several steps in one call", "chain"},
		{"task slice", "sliceBuild"},
	} {
		var resp struct {
			Actions []struct {
				Name   string         `json:"name"`
				Schema map[string]any `json:"schema"`
			} `json:"actions"`
			TokenEstimate int `json:"tokenEstimate"`
		}
		out := p.call("sdl.action.search", fmt.Sprintf(`{"query": %q, "limit": 3}`, tc.query))
		json.Unmarshal([]byte(out), &resp)
		var names []string
		for _, a := range resp.Actions {
			names = append(names, a.Name)
		}
		if !contains(names, tc.want) {
			t.Errorf("action search %q: top 3 %v, want %s", tc.query, names, tc.want)
		}
		if resp.TokenEstimate <= 0 || len(resp.Actions) > 3 {
			t.Errorf("action search %q: %s", tc.query, out)
		}
	}
	out := p.call("sdl.action.search", `{"query": "slice", "limit": 1, "includeSchemas": true, "includeExamples": true}`)
	if !strings.Contains(out, `"schema":{`) || !strings.Contains(out, `"example":`) {
		t.Errorf("schemas and examples: %s", out)
	}
	if msg := p.fail("sdl.action.search", `{"query": "x", "limit": 99}`); !strings.Contains(msg, "limit") {
		t.Errorf("bad limit: %s", msg)
	}
}

func TestChainReferencesAndTransforms(t *testing.T) {
	p := newInProcess(t, "go")
	out := p.call("sdl.chain", `{"steps": [
		{"fn": "symbolSearch", "args": {"query": "Store", "limit": 5}},
		{"fn": "dataFilter", "args": {"from": "$0.results", "where": [{"field": "kind", "op": "in", "value": ["method", "function"]}, {"field": "file", "op": "startsWith", "value": "store/"}]}},
		{"fn": "dataSort", "args": {"from": "$1", "by": "name", "order": "desc"}},
		{"fn": "dataMap", "args": {"from": "$2", "field": "symbolId"}},
		{"fn": "symbolGetCards", "args": {"symbolIds": "$3", "detail": "minimal"}},
		{"fn": "dataPick", "args": {"from": "$4.cards", "fields": {"id": "symbolId", "line": "range.startLine", "name": "name"}}},
		{"fn": "dataTemplate", "args": {"template": "{{name}}@{{line}}", "data": "$5", "joiner": ","}},
		{"fn": "symbolGetCard", "args": {"symbolId": "$3[0]", "detail": "minimal"}},
		{"fn": "dataTemplate", "args": {"template": "{{name}} in {{file}}", "data": "$7"}}
	], "trace": {"enabled": true, "includeArgs": true}}`)
	var resp struct {
		Results []struct {
			Step     int             `json:"step"`
			Fn       string          `json:"fn"`
			Status   string          `json:"status"`
			Result   json.RawMessage `json:"result"`
			Error    string          `json:"error"`
			CacheHit bool            `json:"cacheHit"`
		} `json:"results"`
		Budget struct {
			MaxTokens, ResponseTokens, StepsSucceeded, CacheHits int
		} `json:"budget"`
		Trace []struct {
			Refs     []string `json:"refs"`
			Injected []string `json:"injected"`
		} `json:"trace"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Budget.StepsSucceeded != 9 {
		t.Fatalf("chain: %s", out)
	}
	// the filter kept methods and functions, the sort ordered them by name, descending
	var sorted []struct{ Name, Kind string }
	json.Unmarshal(resp.Results[2].Result, &sorted)
	if len(sorted) < 2 {
		t.Fatalf("filter: %s", resp.Results[1].Result)
	}
	for i, s := range sorted {
		if s.Kind != "method" && s.Kind != "function" {
			t.Errorf("filter kept a %s", s.Kind)
		}
		if i > 0 && sorted[i-1].Name < s.Name {
			t.Errorf("sort desc: %s before %s", sorted[i-1].Name, s.Name)
		}
	}
	var ids []string
	json.Unmarshal(resp.Results[3].Result, &ids)
	if len(ids) != len(sorted) {
		t.Errorf("map: %s", resp.Results[3].Result)
	}
	var rendered string
	json.Unmarshal(resp.Results[6].Result, &rendered)
	if parts := strings.Split(rendered, ","); len(parts) != len(ids) || !strings.Contains(parts[0], "@") {
		t.Errorf("template over a list: %q", rendered)
	}
	// the card fetched again came back notModified, and $7 still reads as the card
	if !resp.Results[7].CacheHit || !strings.Contains(string(resp.Results[7].Result), `"notModified":true`) || resp.Budget.CacheHits != 1 {
		t.Errorf("etag reuse: %s", resp.Results[7].Result)
	}
	var line string
	json.Unmarshal(resp.Results[8].Result, &line)
	if !strings.HasSuffix(line, " in store/store.go") {
		t.Errorf("reference into a cached card: %q", line)
	}
	if len(resp.Trace) != 9 || strings.Join(resp.Trace[4].Refs, "") != "$3" || len(resp.Trace[7].Injected) == 0 {
		t.Errorf("trace: %+v", resp.Trace)
	}
	if resp.Budget.ResponseTokens > resp.Budget.MaxTokens || query.Tokens(out) > resp.Budget.MaxTokens+20 {
		t.Errorf("budget: %+v, answer %d tokens", resp.Budget, query.Tokens(out))
	}
}

func TestChainErrors(t *testing.T) {
	p := newInProcess(t, "go")
	for _, tc := range []struct{ args, want string }{
		{`{"steps": []}`, "steps: give at least one step"},
		{`{"steps": [{"fn": "symbolSerch", "args": {"query": "x"}}]}`, `step 0: fn: unknown action "symbolSerch" (did you mean symbolSearch?)`},
		{`{"steps": [{"fn": "symbolGetCard", "args": {"symbolId": "$0.results[0].symbolId"}}]}`, "the first step has no earlier results"},
		{`{"steps": [{"fn": "symbolSearch", "args": {"query": "x"}}, {"fn": "symbolGetCard", "args": {"symbolId": "$2.id"}}]}`, "step 1: args.symbolId: \"$2.id\" refers to step 2, which has not run yet; step 1 can use $0 to $0"},
		{`{"steps": [{"fn": "symbolSearch", "args": {"query": "x"}}, {"fn": "symbolGetCard", "args": {"symbolId": "$0.results[x]"}}]}`, "is not a reference"},
		{`{"steps": [{"fn": "chain", "args": {}}]}`, "cannot run inside a chain"},
		{`{"steps": [{"fn": "symbolSearch", "args": {"query": "x"}}], "onError": "retry"}`, "onError"},
		{`{"steps": [{"fn": "symbolSearch", "args": {"query": "x", "repoId": "other"}}]}`, "a chain works on one repository"},
	} {
		if msg := p.fail("sdl.chain", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, msg, tc.want)
		}
	}

	// orchestrate runs as a step: the surfaces that do not list it reach it so
	out0 := p.call("sdl.chain", `{"steps": [{"fn": "agentOrchestrate", "args": {"taskType": "debug",
		"taskText": "adding items fails when the store is full", "budget": {"maxTokens": 2000}}}]}`)
	if !strings.Contains(out0, `"status":"ok"`) && !strings.Contains(out0, `"status": "ok"`) {
		t.Errorf("orchestrate as a chain step: %s", out0)
	}

	// a bad path into a result names the step and the path, and onError decides what follows
	bad := `{"steps": [
		{"fn": "symbolSearch", "args": {"query": "Store", "limit": 2}},
		{"fn": "symbolGetCard", "args": {"symbolId": "$0.results[7].symbolId"}},
		{"fn": "symbolGetCard", "args": {"symbolId": "$0.resultz[0].symbolId"}},
		{"fn": "dataTemplate", "args": {"template": "{{nope}}", "data": "$0.results[0]"}},
		{"fn": "dataFilter", "args": {"from": "$0.results", "where": [{"field": "kind", "op": "like", "value": "x"}]}},
		{"fn": "symbolGetCard", "args": {"symbolId": "$1.symbolId"}},
		{"fn": "symbolSearch", "args": {"query": "Item"}}
	], "onError": %q}`
	out := p.call("sdl.chain", fmt.Sprintf(bad, "continue"))
	var resp struct {
		Results []struct {
			Status, Error string
		} `json:"results"`
	}
	json.Unmarshal([]byte(out), &resp)
	for i, want := range []string{"",
		`step 1: "$0.results[7].symbolId": $0.results has 2 elements (indexes 0 to 1): no element [7]`,
		`step 2: "$0.resultz[0].symbolId": $0 has no field "resultz"; it has:`,
		`step 3: dataTemplate: template placeholder {{nope}} in data: element has no field "nope"`,
		`step 4: dataFilter: where[0].op: "like" is not one of eq`,
		`step 5: "$1.symbolId": step 1 failed`,
		""} {
		if want == "" {
			if resp.Results[i].Status != "ok" {
				t.Errorf("step %d: %+v", i, resp.Results[i])
			}
			continue
		}
		if resp.Results[i].Status != "error" || !strings.Contains(resp.Results[i].Error, want) {
			t.Errorf("step %d:\n got %q\nwant %q", i, resp.Results[i].Error, want)
		}
	}
	json.Unmarshal([]byte(p.call("sdl.chain", fmt.Sprintf(bad, "stop"))), &resp)
	if resp.Results[1].Status != "error" || resp.Results[2].Status != "skipped" || resp.Results[6].Status != "skipped" {
		t.Errorf("onError stop: %+v", resp.Results)
	}
}

func TestChainBudgetAndLadder(t *testing.T) {
	p := newInProcess(t, "go")
	card := p.call("sdl.symbol.getCard", `{"symbolRef": {"name": "Store.Add"}, "detail": "minimal"}`)
	var c struct {
		SymbolID string `json:"symbolId"`
	}
	json.Unmarshal([]byte(card), &c)
	// raw code first: a warning that names the ladder
	out := p.call("sdl.chain", fmt.Sprintf(`{"steps": [{"fn": "codeNeedWindow", "args": {"symbolId": %q, "reason": "the guard", "expectedLines": 12, "identifiersToFind": ["ErrFull"]}}]}`, c.SymbolID))
	if !strings.Contains(out, "before any card, skeleton or hot path") {
		t.Errorf("ladder warning: %s", out)
	}
	// card first: no warning
	out = p.call("sdl.chain", fmt.Sprintf(`{"steps": [{"fn": "symbolGetCard", "args": {"symbolId": %q}}, {"fn": "codeNeedWindow", "args": {"symbolId": "$0.symbolId", "reason": "the guard", "expectedLines": 12, "identifiersToFind": ["ErrFull"]}}]}`, c.SymbolID))
	if strings.Contains(out, "before any card") {
		t.Errorf("ladder warning after a card: %s", out)
	}
	// a small budget: the answer stays within it, results later steps used are elided first,
	// and steps beyond the budget are skipped
	for _, max := range []int{300, 600, 1200} {
		out = p.call("sdl.chain", fmt.Sprintf(`{"steps": [
			{"fn": "symbolSearch", "args": {"query": "Store", "limit": 20}},
			{"fn": "symbolGetCards", "args": {"symbolIds": "$0.results[*].symbolId"}},
			{"fn": "sliceBuild", "args": {"taskText": "add items to the store"}},
			{"fn": "codeGetSkeleton", "args": {"file": "store/store.go"}}
		], "budget": {"maxTokens": %d}, "onError": "continue"}`, max))
		var resp struct {
			Budget struct {
				MaxTokens, ResponseTokens int
				Exhausted                 bool
			} `json:"budget"`
			Results []struct {
				Status, Elided string
			} `json:"results"`
		}
		json.Unmarshal([]byte(out), &resp)
		// the server's stamp (ledgerVersion) comes on top of the chain's own count
		if n := query.Tokens(out); resp.Budget.ResponseTokens > max || n > max+15 {
			t.Errorf("maxTokens %d: answer %d tokens (%d counted): %.400s", max, n, resp.Budget.ResponseTokens, out)
		}
		elided := 0
		for _, r := range resp.Results {
			if r.Elided != "" || r.Status == "skipped" {
				elided++
			}
		}
		if elided == 0 {
			t.Errorf("maxTokens %d: nothing elided or skipped: %.300s", max, out)
		}
	}
}

func TestOrchestratePlans(t *testing.T) {
	p := newInProcess(t, "go")
	type report struct {
		Success        bool   `json:"success"`
		Answer         string `json:"answer"`
		NextBestAction string `json:"nextBestAction"`
		TaskID         string `json:"taskId"`
		Path           struct {
			Rungs     []string       `json:"rungs"`
			Trimmed   []string       `json:"trimmed"`
			Estimates map[string]int `json:"estimates"`
			Source    string         `json:"estimateSource"`
		} `json:"path"`
		ActionsTaken []struct {
			Rung, Tool, Status string
			CacheHit           bool
		} `json:"actionsTaken"`
		FinalEvidence []struct {
			Type, Reference, Summary, Timestamp, File string
		} `json:"finalEvidence"`
		Metrics struct {
			TotalTokens, TotalActions, SuccessfulActions, FailedActions, CacheHits int
			TotalDurationMs                                                        int64
		} `json:"metrics"`
	}
	run := func(args string) (report, string) {
		out := p.call("sdl.agent.orchestrate", args)
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r, out
	}
	task := "adding an item fails with ErrFull even when the store has room"
	want := map[string][]string{
		"debug":     {"card", "skeleton", "hotPath"},
		"review":    {"card", "skeleton", "hotPath"},
		"implement": {"card", "skeleton", "hotPath"},
		"explain":   {"card", "skeleton"},
	}
	for tt, rungs := range want {
		r, out := run(fmt.Sprintf(`{"taskType": %q, "taskText": %q, "budget": {"maxTokens": 4000}}`, tt, task))
		if !r.Success || strings.Join(r.Path.Rungs, ",") != strings.Join(rungs, ",") || r.Path.Source != "measured" {
			t.Errorf("%s: path %v (%s): %.500s", tt, r.Path.Rungs, r.Path.Source, out)
		}
		if !strings.Contains(r.Answer, "Store.Add") || r.NextBestAction == "" || !strings.HasPrefix(r.TaskID, "task_") {
			t.Errorf("%s: answer %q next %q", tt, r.Answer, r.NextBestAction)
		}
		types := map[string]bool{}
		for _, e := range r.FinalEvidence {
			types[e.Type] = true
			if e.Reference == "" || e.Summary == "" || e.Timestamp == "" {
				t.Errorf("%s: evidence %+v", tt, e)
			}
		}
		if !types["symbolCard"] || !types["skeleton"] {
			t.Errorf("%s: evidence types %v", tt, types)
		}
		if r.Metrics.TotalTokens > 4000 || r.Metrics.TotalTokens != query.Tokens(strings.TrimSuffix(strings.Split(out, `,"ledgerVersion"`)[0], "}")+"}") && r.Metrics.TotalTokens <= 0 {
			t.Errorf("%s: metrics %+v", tt, r.Metrics)
		}
		if r.Metrics.TotalActions != r.Metrics.SuccessfulActions+r.Metrics.FailedActions || r.Metrics.TotalActions == 0 {
			t.Errorf("%s: metrics %+v", tt, r.Metrics)
		}
	}
	// budgets: smaller budgets trim rungs from the end, never the card rung, and the answer fits
	prev := 99
	for _, max := range []int{4000, 900, 450} {
		r, out := run(fmt.Sprintf(`{"taskType": "debug", "taskText": %q, "budget": {"maxTokens": %d}}`, task, max))
		if len(r.Path.Rungs) == 0 || r.Path.Rungs[0] != "card" || len(r.Path.Rungs) > prev {
			t.Errorf("maxTokens %d: rungs %v", max, r.Path.Rungs)
		}
		prev = len(r.Path.Rungs)
		if n := query.Tokens(out); n > max+15 {
			t.Errorf("maxTokens %d: answer is %d tokens", max, n)
		}
		if max == 450 && len(r.Path.Trimmed) == 0 {
			t.Errorf("maxTokens %d: nothing trimmed: %v", max, r.Path)
		}
	}
	// maxActions bounds the calls
	r, _ := run(fmt.Sprintf(`{"taskType": "review", "taskText": %q, "budget": {"maxActions": 2}}`, task))
	if len(r.ActionsTaken) > 2+len(r.Path.Trimmed)*0 && countOK(r.ActionsTaken) > 2 {
		t.Errorf("maxActions 2: %d actions ran", countOK(r.ActionsTaken))
	}
	// focus, tests and diagnostics
	r, out := run(`{"taskType": "debug", "taskText": "the broken function", "options": {"focusPaths": ["broken/"], "includeTests": true, "requireDiagnostics": true}}`)
	hasDiag := false
	for _, e := range r.FinalEvidence {
		if e.Type == "diagnostic" && e.File == "broken/broken.go" {
			hasDiag = true
		}
		if e.File != "" && !strings.HasPrefix(e.File, "broken/") && e.Type == "symbolCard" {
			t.Errorf("focusPaths broken/: evidence from %s", e.File)
		}
	}
	if !hasDiag || !contains(r.Path.Rungs, "raw") && !contains(r.Path.Trimmed, "raw") {
		t.Errorf("requireDiagnostics: %.800s", out)
	}
	r, out = run(`{"taskType": "implement", "taskText": "change how items are saved", "options": {"focusSymbols": ["DB.Save"], "includeTests": true}}`)
	if !strings.Contains(r.Answer, "DB.Save") {
		t.Errorf("focusSymbols: %s", r.Answer)
	}
	// the same run again is answered from the cache
	r2, _ := run(`{"taskType": "implement", "taskText": "change how items are saved", "options": {"focusSymbols": ["DB.Save"], "includeTests": true}}`)
	if r2.Metrics.CacheHits == 0 || r2.TaskID == r.TaskID {
		t.Errorf("second run: %+v %s", r2.Metrics, r2.TaskID)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"taskType": "fix", "taskText": "x"}`, `taskType: "fix" is not one of debug, review, implement, explain`},
		{`{"taskType": "debug", "taskText": ""}`, "taskText: required"},
		{`{"taskType": "debug", "taskText": "x", "budget": {"maxTokens": 50}}`, "budget.maxTokens: must be at least 400, got 50"},
		{`{"taskType": "debug", "taskText": "x", "options": {"focusPaths": ["../etc"]}}`, "options.focusPaths[0]"},
	} {
		if msg := p.fail("sdl.agent.orchestrate", tc.args); !strings.Contains(msg, tc.want) {
			t.Errorf("%s: got %s, want %s", tc.args, msg, tc.want)
		}
	}
	_ = out
}

func countOK(as []struct {
	Rung, Tool, Status string
	CacheHit           bool
}) int {
	n := 0
	for _, a := range as {
		if a.Status != "skipped" {
			n++
		}
	}
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
