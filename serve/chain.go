package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sdl-dev/sdl/query"

	"github.com/xrash/smetrics"
)

// sdl.chain runs several actions in one round trip. A step's args may
// hold references to earlier results: a string that is exactly "$N" or
// "$N.path" (path: .field, [i], [-1] for the last, [*] for every element)
// is replaced by that value, keeping its JSON type. Internal transforms
// (dataPick, dataMap, dataFilter, dataSort, dataTemplate) reshape results
// between actions without a round trip to the model.

// Limits of a chain.
const (
	MaxChainSteps = 50
)

// ChainRequest is sdl.chain.
type ChainRequest struct {
	Steps   []ChainStep  `json:"steps"`
	Budget  *ChainBudget `json:"budget,omitempty"`
	OnError string       `json:"onError,omitempty"`
	Trace   *ChainTrace  `json:"trace,omitempty"`
}

// ChainStep is one action call or transform.
type ChainStep struct {
	Fn   string          `json:"fn"`
	Args json.RawMessage `json:"args,omitempty"`
}

// minChainTokens is the smallest budget.maxTokens of a chain.
const minChainTokens = 200

// ChainBudget bounds a chain.
type ChainBudget struct {
	// MaxTokens bounds the whole answer; steps that take a budget get
	// what is left when their args set none.
	MaxTokens     int `json:"maxTokens,omitempty"`
	MaxSteps      int `json:"maxSteps,omitempty"`
	MaxDurationMs int `json:"maxDurationMs,omitempty"`
}

// ChainTrace asks for a trace of each step.
type ChainTrace struct {
	Enabled     bool `json:"enabled"`
	IncludeArgs bool `json:"includeArgs,omitempty"`
}

// StepResult is one step's outcome.
type StepResult struct {
	Step       int    `json:"step"`
	Fn         string `json:"fn"`
	Status     string `json:"status"` // ok | error | skipped
	Result     any    `json:"result,omitempty"`
	Error      string `json:"error,omitempty"`
	Code       string `json:"code,omitempty"`
	Tokens     int    `json:"tokens"`
	DurationMs int64  `json:"durationMs"`
	CacheHit   bool   `json:"cacheHit,omitempty"`
	// Elided says why the result is not shown (the budget) and how to
	// get it.
	Elided string `json:"elided,omitempty"`
}

// ChainResponse is what a chain returns.
type ChainResponse struct {
	Results  []StepResult `json:"results"`
	Budget   ChainUsage   `json:"budget"`
	Warnings []string     `json:"warnings"`
	Trace    []TraceEntry `json:"trace,omitempty"`
}

// ChainUsage reports the budget.
type ChainUsage struct {
	MaxTokens       int    `json:"maxTokens"`
	UsedTokens      int    `json:"usedTokens"`
	ResponseTokens  int    `json:"responseTokens"`
	StepsRun        int    `json:"stepsRun"`
	StepsSucceeded  int    `json:"stepsSucceeded"`
	StepsFailed     int    `json:"stepsFailed"`
	StepsSkipped    int    `json:"stepsSkipped"`
	CacheHits       int    `json:"cacheHits"`
	DurationMs      int64  `json:"durationMs"`
	Exhausted       bool   `json:"exhausted,omitempty"`
	ExhaustedReason string `json:"exhaustedReason,omitempty"`
}

// TraceEntry is one step of the trace.
type TraceEntry struct {
	Step     int            `json:"step"`
	Fn       string         `json:"fn"`
	Tool     string         `json:"tool,omitempty"`
	Refs     []string       `json:"refs,omitempty"`
	Injected []string       `json:"injected,omitempty"`
	Args     map[string]any `json:"args,omitempty"`
	Status   string         `json:"status"`
	Ms       int64          `json:"ms"`
	Tokens   int            `json:"tokens"`
}

var transforms = map[string]func(args map[string]any) (any, error){
	"dataPick":     dataPick,
	"dataMap":      dataMap,
	"dataFilter":   dataFilter,
	"dataSort":     dataSort,
	"dataTemplate": dataTemplate,
}

// transformNames in the order the manual lists them.
var transformNames = []string{"dataPick", "dataMap", "dataFilter", "dataSort", "dataTemplate"}

// refRE matches a whole-string reference: $N, $N.a.b[0], $N[*].id.
var refRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\$(\d+)((?:\.[A-Za-z_][A-Za-z0-9_]*|\[-?\d+\]|\[\*\])*)$`)
})

// chainStepError is a step failure with its step and place.
func stepErr(i int, format string, a ...any) error {
	return fmt.Errorf("%w: step %d: %s", ErrArgs, i, fmt.Sprintf(format, a...))
}

// runChain executes a chain.
func (s *Server) runChain(ctx context.Context, r *Repo, req *ChainRequest) (*ChainResponse, error) {
	start := time.Now()
	if len(req.Steps) == 0 {
		return nil, fmt.Errorf("%w: steps: give at least one step {fn, args}, e.g. [{\"fn\": \"symbolSearch\", \"args\": {\"query\": \"parseConfig\"}}]", ErrArgs)
	}
	if len(req.Steps) > MaxChainSteps {
		return nil, fmt.Errorf("%w: steps: %d steps, at most %d", ErrArgs, len(req.Steps), MaxChainSteps)
	}
	switch req.OnError {
	case "":
		req.OnError = "stop"
	case "stop", "continue":
	default:
		return nil, fmt.Errorf("%w: onError: %q is not one of stop, continue", ErrArgs, req.OnError)
	}
	b := ChainBudget{}
	if req.Budget != nil {
		b = *req.Budget
	}
	if b.MaxTokens < 0 || b.MaxSteps < 0 || b.MaxDurationMs < 0 {
		return nil, fmt.Errorf("%w: budget: maxTokens, maxSteps and maxDurationMs must be positive", ErrArgs)
	}
	if b.MaxTokens == 0 || b.MaxTokens > s.opts.MaxOutputTokens {
		b.MaxTokens = s.opts.MaxOutputTokens
	}
	if b.MaxTokens < minChainTokens {
		return nil, fmt.Errorf("%w: budget.maxTokens: %d is too small for any answer; give at least %d", ErrArgs, b.MaxTokens, minChainTokens)
	}

	// check the whole plan before running any of it
	tools := make([]*Tool, len(req.Steps))
	args := make([]any, len(req.Steps))
	refsOf := make([][]string, len(req.Steps))
	usedLater := map[int]bool{}
	for i, st := range req.Steps {
		if st.Fn == "" {
			return nil, stepErr(i, "fn: required, an action name (symbolSearch, symbolGetCard, ...; see sdl_manual) or a transform (%s)", strings.Join(transformNames, ", "))
		}
		if _, ok := transforms[st.Fn]; !ok {
			t, err := s.reg.Lookup(st.Fn)
			if err != nil {
				return nil, stepErr(i, "fn: unknown action %q%s; sdl_action_search finds actions by what they do", st.Fn, s.reg.suggest(st.Fn))
			}
			// a chain inside a chain is refused (its steps belong in this
			// one); orchestrate is one step like any other, which is how the
			// smaller tool surfaces, which do not list it, reach it
			if t.Name == "sdl.chain" {
				return nil, stepErr(i, "fn: %s cannot run inside a chain; add its steps to this chain instead", t.ActionName())
			}
			tools[i] = t
		}
		var a any = map[string]any{}
		if len(st.Args) > 0 && string(st.Args) != "null" {
			if err := json.Unmarshal(st.Args, &a); err != nil {
				return nil, stepErr(i, "args: not valid JSON: %v", err)
			}
			if _, ok := a.(map[string]any); !ok {
				return nil, stepErr(i, "args: must be an object of the action's arguments")
			}
		}
		var perr error
		walkStrings(a, "args", func(where, s string) {
			m := refRE().FindStringSubmatch(s)
			if m == nil {
				if perr == nil && strings.HasPrefix(s, "$") && len(s) > 1 && s[1] >= '0' && s[1] <= '9' {
					perr = stepErr(i, "%s: %q is not a reference: write $N, $N.field, $N.list[0].field or $N.list[*].field", where, s)
				}
				return
			}
			n, err := strconv.Atoi(m[1])
			if (err != nil || n >= i) && perr == nil {
				perr = stepErr(i, "%s: %q refers to step %s, which has not run yet; step %d can use $0 to $%d", where, s, m[1], i, i-1)
				if i == 0 {
					perr = stepErr(i, "%s: %q: the first step has no earlier results to refer to", where, s)
				}
			}
			usedLater[n] = true
			refsOf[i] = append(refsOf[i], s)
		})
		if perr != nil {
			return nil, perr
		}
		if m := a.(map[string]any); tools[i] != nil {
			if id, ok := m["repoId"].(string); ok && id != r.ID {
				return nil, stepErr(i, "args.repoId: %q; a chain works on one repository, %q", id, r.ID)
			}
		}
		args[i] = a
	}

	resp := &ChainResponse{Results: make([]StepResult, 0, len(req.Steps)), Warnings: []string{}}
	results := make([]any, len(req.Steps))
	failed := make([]string, len(req.Steps))
	cards := map[string]map[string]any{} // symbolId -> the card an earlier step returned
	rungs := map[string]string{}         // symbolId -> the cheapest rung that covered it
	used := 0
	stop := ""
	for i, st := range req.Steps {
		res := StepResult{Step: i, Fn: st.Fn}
		tr := TraceEntry{Step: i, Fn: st.Fn, Refs: refsOf[i]}
		if tools[i] != nil {
			res.Fn, tr.Tool = tools[i].ActionName(), tools[i].MCPName()
		}
		switch {
		case stop != "":
			res.Status, res.Error = "skipped", stop
		case b.MaxSteps > 0 && resp.Budget.StepsRun >= b.MaxSteps:
			stop = fmt.Sprintf("budget.maxSteps (%d) reached", b.MaxSteps)
			res.Status, res.Error = "skipped", stop
			resp.Budget.Exhausted, resp.Budget.ExhaustedReason = true, stop
		case b.MaxDurationMs > 0 && time.Since(start) > time.Duration(b.MaxDurationMs)*time.Millisecond:
			stop = fmt.Sprintf("budget.maxDurationMs (%d) reached", b.MaxDurationMs)
			res.Status, res.Error = "skipped", stop
			resp.Budget.Exhausted, resp.Budget.ExhaustedReason = true, stop
		case used >= b.MaxTokens:
			stop = fmt.Sprintf("budget.maxTokens (%d) used up", b.MaxTokens)
			res.Status, res.Error = "skipped", stop
			resp.Budget.Exhausted, resp.Budget.ExhaustedReason = true, stop
		}
		if res.Status == "skipped" {
			resp.Budget.StepsSkipped++
			resp.Results = append(resp.Results, res)
			tr.Status = res.Status
			if req.Trace != nil && req.Trace.Enabled {
				resp.Trace = append(resp.Trace, tr)
			}
			continue
		}
		t0 := time.Now()
		resolved, err := resolveRefs(i, args[i], results, failed)
		var out any
		var shown json.RawMessage
		if err == nil {
			m := resolved.(map[string]any)
			if tools[i] == nil {
				out, err = transforms[st.Fn](m)
				if err != nil {
					err = stepErr(i, "%s: %v", st.Fn, err)
				}
			} else {
				tr.Injected = s.injectChain(tools[i], m, r, b.MaxTokens-used, cards)
				if w := ladderWarning(i, tools[i], m, rungs); w != "" {
					resp.Warnings = append(resp.Warnings, w)
				}
				shown, err = s.Call(ctx, tools[i].Name, query.EncodeJSON(m))
				if err == nil {
					err = json.Unmarshal(shown, &out)
				}
				if err != nil {
					err = fmt.Errorf("step %d (%s): %w", i, tools[i].ActionName(), err)
				}
			}
			if req.Trace != nil && req.Trace.IncludeArgs {
				tr.Args = m
			}
		}
		res.DurationMs = time.Since(t0).Milliseconds()
		resp.Budget.StepsRun++
		if err != nil {
			res.Status, res.Error = "error", err.Error()
			res.Code = errorCode(err)
			failed[i] = err.Error()
			resp.Budget.StepsFailed++
			if req.OnError == "stop" {
				stop = fmt.Sprintf("step %d failed and onError is stop", i)
			}
		} else {
			res.Status, res.Result = "ok", out
			if tools[i] != nil {
				res.Result = shown // the tool's answer as it came, fields in order
			}
			results[i] = out
			resp.Budget.StepsSucceeded++
			if tools[i] != nil {
				if notModified(out) {
					res.CacheHit = true
					resp.Budget.CacheHits++
				}
				noteCards(tools[i], out, cards, rungs)
				// later references see the card itself, not the marker
				results[i] = expandNotModified(out, cards)
			}
		}
		res.Tokens = query.Tokens(string(query.EncodeJSON(res)))
		used += res.Tokens
		tr.Status, tr.Ms, tr.Tokens = res.Status, res.DurationMs, res.Tokens
		resp.Results = append(resp.Results, res)
		if req.Trace != nil && req.Trace.Enabled {
			resp.Trace = append(resp.Trace, tr)
		}
	}
	resp.Budget.MaxTokens = b.MaxTokens
	resp.Budget.DurationMs = time.Since(start).Milliseconds()
	if err := fitChain(resp, usedLater); err != nil {
		return nil, err
	}
	return resp, nil
}

// fitChain holds the answer within budget.maxTokens: results that later
// steps consumed go first, then the largest.
func fitChain(resp *ChainResponse, usedLater map[int]bool) error {
	size := func() int {
		n := 0
		for _, r := range resp.Results {
			n += r.Tokens
		}
		resp.Budget.UsedTokens = n
		return query.Tokens(string(query.EncodeJSON(resp)))
	}
	n := size()
	for n > resp.Budget.MaxTokens {
		best := -1
		for i, r := range resp.Results {
			if r.Result == nil {
				continue
			}
			if best < 0 || usedLater[i] && !usedLater[best] || usedLater[i] == usedLater[best] && r.Tokens > resp.Results[best].Tokens {
				best = i
			}
		}
		if best < 0 {
			if len(resp.Trace) > 0 {
				resp.Trace = nil
				resp.Warnings = append(resp.Warnings, "the trace was left out to fit budget.maxTokens")
				n = size()
				continue
			}
			return fmt.Errorf("%w: budget.maxTokens: %d tokens cannot hold even the steps' statuses (%d); give more", ErrArgs, resp.Budget.MaxTokens, n)
		}
		r := &resp.Results[best]
		r.Result = nil
		r.Elided = fmt.Sprintf("%d tokens, over budget.maxTokens", r.Tokens)
		if usedLater[best] {
			r.Elided += "; later steps used it"
		}
		r.Elided += "; run the step alone to see it"
		r.Tokens = query.Tokens(string(query.EncodeJSON(r)))
		n = size()
	}
	resp.Budget.ResponseTokens = n
	return nil
}

// resolveRefs returns args with every reference replaced by its value.
func resolveRefs(step int, v any, results []any, failed []string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := resolveRefs(step, e, results, failed)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := resolveRefs(step, e, results, failed)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case string:
		m := refRE().FindStringSubmatch(x)
		if m == nil {
			return x, nil
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || n >= step || n >= len(results) {
			return nil, stepErr(step, "%q refers to step %s, which has not run before step %d", x, m[1], step)
		}
		if failed[n] != "" {
			return nil, stepErr(step, "%q: step %d failed (%s), so it has no result", x, n, failed[n])
		}
		if results[n] == nil {
			return nil, stepErr(step, "%q: step %d was skipped and has no result", x, n)
		}
		val, err := walkPath(results[n], m[2], fmt.Sprintf("$%d", n))
		if err != nil {
			return nil, stepErr(step, "%q: %v", x, err)
		}
		return val, nil
	}
	return v, nil
}

// pathStep is one element of a reference path.
var pathRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.([A-Za-z_][A-Za-z0-9_]*)|\[(-?\d+|\*)\]`) })

// walkPath follows a path (".a[0].b", "[*].id") from v; at names the
// prefix walked so far, for errors.
func walkPath(v any, p, at string) (any, error) {
	ms := pathRE().FindAllStringSubmatch(p, -1)
	for k, m := range ms {
		switch {
		case m[1] != "":
			obj, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s is %s, not an object with field %s", at, kindOf(v), m[1])
			}
			next, ok := obj[m[1]]
			if !ok {
				return nil, fmt.Errorf("%s has no field %q; it has: %s", at, m[1], strings.Join(keysOf(obj), ", "))
			}
			v, at = next, at+"."+m[1]
		case m[2] == "*":
			arr, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%s is %s, not an array to take [*] of", at, kindOf(v))
			}
			rest := strings.Join(func() []string {
				var s []string
				for _, r := range ms[k+1:] {
					s = append(s, r[0])
				}
				return s
			}(), "")
			out := make([]any, 0, len(arr))
			for i, e := range arr {
				r, err := walkPath(e, rest, fmt.Sprintf("%s[%d]", at, i))
				if err != nil {
					return nil, err
				}
				out = append(out, r)
			}
			return out, nil
		default:
			arr, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%s is %s, not an array to index", at, kindOf(v))
			}
			i, err := strconv.Atoi(m[2])
			if err != nil {
				return nil, fmt.Errorf("%s[%s]: not an index", at, m[2])
			}
			j := i
			if j < 0 {
				j += len(arr)
			}
			if j < 0 || j >= len(arr) {
				if len(arr) == 0 {
					return nil, fmt.Errorf("%s is an empty array: no element [%d]", at, i)
				}
				return nil, fmt.Errorf("%s has %d elements (indexes 0 to %d): no element [%d]", at, len(arr), len(arr)-1, i)
			}
			v, at = arr[j], fmt.Sprintf("%s[%d]", at, i)
		}
	}
	return v, nil
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

func keysOf(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// walkStrings calls fn on every string in v with where it is.
func walkStrings(v any, where string, fn func(where, s string)) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range keysOf(x) {
			walkStrings(x[k], where+"."+k, fn)
		}
	case []any:
		for i, e := range x {
			walkStrings(e, fmt.Sprintf("%s[%d]", where, i), fn)
		}
	case string:
		fn(where, x)
	}
}

// injectChain fills arguments a step left out from what the chain knows:
// the repository, a budget from what is left, and the etags of cards
// earlier steps returned (so a card fetched twice comes back notModified).
func (s *Server) injectChain(t *Tool, m map[string]any, r *Repo, left int, cards map[string]map[string]any) []string {
	var did []string
	if !t.NoRepo {
		if _, ok := m["repoId"]; !ok {
			m["repoId"] = r.ID
		}
	}
	if left < 200 {
		left = 200
	}
	detail, _ := m["detail"].(string)
	etag := func(id string) string {
		c := cards[id]
		if c == nil {
			return ""
		}
		have, _ := c["detail"].(string)
		if detailRank(have) < detailRank(detail) {
			return ""
		}
		e, _ := c["etag"].(string)
		return e
	}
	switch t.Name {
	case "sdl.slice.build":
		b, _ := m["budget"].(map[string]any)
		if b == nil {
			b = map[string]any{}
			m["budget"] = b
		}
		if _, ok := b["maxEstimatedTokens"]; !ok {
			b["maxEstimatedTokens"] = min(left, query.MaxSliceTokens)
			did = append(did, fmt.Sprintf("budget.maxEstimatedTokens=%d", b["maxEstimatedTokens"]))
		}
	case "sdl.code.getSkeleton", "sdl.code.getHotPath":
		if _, ok := m["maxTokens"]; !ok {
			m["maxTokens"] = max(left, 50)
			did = append(did, fmt.Sprintf("maxTokens=%d", m["maxTokens"]))
		}
	case "sdl.context.summary":
		if _, ok := m["budget"]; !ok {
			m["budget"] = left
			did = append(did, fmt.Sprintf("budget=%d", left))
		}
	case "sdl.symbol.getCard":
		if id, ok := m["symbolId"].(string); ok {
			if _, set := m["ifNoneMatch"]; !set && etag(id) != "" {
				m["ifNoneMatch"] = etag(id)
				did = append(did, "ifNoneMatch from an earlier step")
			}
		}
	case "sdl.symbol.getCards":
		if ids, ok := m["symbolIds"].([]any); ok {
			known, _ := m["knownEtags"].(map[string]any)
			n := 0
			for _, v := range ids {
				id, _ := v.(string)
				if e := etag(id); e != "" {
					if known == nil {
						known = map[string]any{}
					}
					if _, set := known[id]; !set {
						known[id] = e
						n++
					}
				}
			}
			if n > 0 {
				m["knownEtags"] = known
				did = append(did, fmt.Sprintf("knownEtags (%d) from earlier steps", n))
			}
		}
	}
	return did
}

var detailRanks = map[string]int{"minimal": 1, "signature": 2, "deps": 3, "compact": 4, "full": 5, "": 5}

func detailRank(d string) int { return detailRanks[d] }

// expandNotModified replaces notModified markers by the cards the chain
// holds, so references into a cached card work.
func expandNotModified(out any, cards map[string]map[string]any) any {
	m, ok := out.(map[string]any)
	if !ok {
		return out
	}
	full := func(c any) any {
		cm, _ := c.(map[string]any)
		if nm, _ := cm["notModified"].(bool); nm {
			if id, _ := cm["symbolId"].(string); cards[id] != nil {
				return cards[id]
			}
		}
		return c
	}
	if nm, _ := m["notModified"].(bool); nm {
		return full(m)
	}
	if cs, ok := m["cards"].([]any); ok {
		cp := make(map[string]any, len(m))
		for k, v := range m {
			cp[k] = v
		}
		list := make([]any, len(cs))
		for i, c := range cs {
			list[i] = full(c)
		}
		cp["cards"] = list
		return cp
	}
	return out
}

// notModified reports whether a result is (or holds only) cards the chain
// already had.
func notModified(out any) bool {
	m, ok := out.(map[string]any)
	if !ok {
		return false
	}
	if nm, _ := m["notModified"].(bool); nm {
		return true
	}
	if cs, ok := m["cards"].([]any); ok && len(cs) > 0 {
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			if nm, _ := cm["notModified"].(bool); !nm {
				return false
			}
		}
		return true
	}
	return false
}

// noteCards remembers the cards (and code rungs) a result holds, for etag
// reuse and the ladder check.
func noteCards(t *Tool, out any, cards map[string]map[string]any, rungs map[string]string) {
	note := func(c any, rung string) {
		cm, _ := c.(map[string]any)
		id, _ := cm["symbolId"].(string)
		if id == "" {
			return
		}
		if nm, _ := cm["notModified"].(bool); !nm && cm["etag"] != nil {
			if old := cards[id]; old == nil || detailRank(str(cm["detail"])) >= detailRank(str(old["detail"])) {
				cards[id] = cm
			}
		}
		if rungs[id] == "" {
			rungs[id] = rung
		}
	}
	m, _ := out.(map[string]any)
	switch t.Name {
	case "sdl.symbol.getCard":
		note(m, "card")
	case "sdl.symbol.getCards":
		for _, c := range asList(m["cards"]) {
			note(c, "card")
		}
	case "sdl.slice.build":
		sl, _ := m["slice"].(map[string]any)
		for _, c := range asList(sl["cards"]) {
			note(c, "card")
		}
	case "sdl.code.getSkeleton", "sdl.code.getHotPath":
		if id, _ := m["symbolId"].(string); id != "" && rungs[id] == "" {
			rungs[id] = "skeleton"
		}
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// ladderWarning warns when a step asks for raw code of a symbol no earlier
// step looked at through a card, skeleton or hot path.
func ladderWarning(i int, t *Tool, m map[string]any, rungs map[string]string) string {
	if t.Name != "sdl.code.needWindow" {
		return ""
	}
	id, _ := m["symbolId"].(string)
	if id == "" || rungs[id] != "" {
		return ""
	}
	return fmt.Sprintf("step %d (codeNeedWindow) asks for raw code of %s before any card, skeleton or hot path of it in this chain: "+
		"the ladder is card -> skeleton -> hotPath -> window, and a cheaper rung often answers (symbolGetCard, codeGetSkeleton, codeGetHotPath)", i, id)
}

// errorCode classifies a step error as errorResult does.
func errorCode(err error) string {
	var body map[string]any
	res := errorResult(nil, &Tool{}, err)
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(interface{ GetText() string }); ok {
			json.Unmarshal([]byte(tc.GetText()), &body)
		}
	}
	code, _ := body["code"].(string)
	return code
}

// suggest names the action closest to a misspelt name.
func (r *Registry) suggest(name string) string {
	best, bestD := "", 4
	k := nameKey(name)
	cands := append([]string{}, transformNames...)
	for _, t := range r.tools {
		cands = append(cands, t.ActionName())
	}
	for _, c := range cands {
		if d := smetrics.WagnerFischer(k, nameKey(c), 1, 1, 1); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}
