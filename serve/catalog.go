package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/query"
)

// The action catalog is made from the registry itself: one source of truth
// for MCP tools/list, sdl.action.search, sdl.manual and the names sdl.chain
// accepts. An action's name is the tool's name without "sdl." in
// camelCase: sdl.symbol.search -> symbolSearch.

// ActionName is the name sdl.chain and the manual use for a tool.
func (t *Tool) ActionName() string {
	parts := strings.Split(strings.TrimPrefix(t.Name, "sdl."), ".")
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		} else {
			b.WriteString(p)
		}
	}
	return b.String()
}

// Action is one entry of the catalog.
type Action struct {
	Name        string         `json:"name"`    // symbolSearch
	Tool        string         `json:"tool"`    // sdl.symbol.search
	MCPName     string         `json:"mcpName"` // sdl_symbol_search
	Title       string         `json:"title"`
	Description string         `json:"description"`
	ReadOnly    bool           `json:"readOnly"`
	Schema      map[string]any `json:"schema,omitempty"`
	Params      []string       `json:"params,omitempty"`
	Example     string         `json:"example,omitempty"`
	Score       float64        `json:"score,omitempty"`
}

func actionOf(t *Tool, schemas, examples bool) Action {
	a := Action{Name: t.ActionName(), Tool: t.Name, MCPName: t.MCPName(), Title: t.Title, Description: firstSentence(t.Description),
		ReadOnly: t.ReadOnly}
	for _, arg := range t.topArgs() {
		p := arg.Name
		if !arg.Required {
			p += "?"
		}
		a.Params = append(a.Params, p)
	}
	if schemas {
		a.Schema = t.InputSchema()
		a.Description = t.Description
	}
	if examples {
		a.Example = t.Example
	}
	return a
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i+1]
	}
	return s
}

// ActionSearchRequest is sdl.action.search.
type ActionSearchRequest struct {
	Query           string `json:"query"`
	Limit           int    `json:"limit,omitempty"`
	IncludeSchemas  bool   `json:"includeSchemas,omitempty"`
	IncludeExamples bool   `json:"includeExamples,omitempty"`
}

// ActionSearchResponse is the ranked catalog.
type ActionSearchResponse struct {
	Actions       []Action `json:"actions"`
	Total         int      `json:"total"`
	TokenEstimate int      `json:"tokenEstimate"`
}

// searchActions ranks the catalog for a query: bm25 over each tool's
// name, title, description and argument names, the name weighted most.
func (r *Registry) searchActions(req *ActionSearchRequest) (*ActionSearchResponse, error) {
	if strings.TrimSpace(req.Query) == "" {
		return nil, fmt.Errorf("%w: query: required, words about what you want to do (\"find callers\", \"raw code\")", ErrArgs)
	}
	if req.Limit == 0 {
		req.Limit = 8
	}
	if req.Limit < 1 || req.Limit > 25 {
		return nil, fmt.Errorf("%w: limit: must be between 1 and 25, got %d", ErrArgs, req.Limit)
	}
	type doc struct {
		t     *Tool
		terms map[string]float64
		n     float64
	}
	tokens := func(s string) []string {
		var out []string
		for _, w := range strings.FieldsFunc(s, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			for _, p := range lang.SplitIdent(w) {
				if len(p) > 1 && !catalogStop[strings.ToLower(p)] {
					out = append(out, stem(strings.ToLower(p)))
				}
			}
		}
		return out
	}
	var docs []doc
	df := map[string]float64{}
	var total float64
	for _, t := range r.tools {
		d := doc{t: t, terms: map[string]float64{}}
		add := func(s string, w float64) {
			for _, tok := range tokens(s) {
				d.terms[tok] += w
				d.n += w
			}
		}
		add(t.Name, 3)
		add(t.Title, 3)
		// the first sentence says what the tool is for; the rest is detail
		first := firstSentence(t.Description)
		add(first, 2)
		add(strings.TrimPrefix(t.Description, first), 0.5)
		for _, a := range t.Args {
			add(a.Name, 0.5)
		}
		for tok := range d.terms {
			df[tok]++
		}
		total += d.n
		docs = append(docs, d)
	}
	avg := total / float64(len(docs))
	// a code identifier in the query ("what calls parseConfig") is what to
	// look up, not what to do: it is left out unless it names an action
	var words []string
	for _, w := range strings.Fields(req.Query) {
		w = strings.Trim(w, ".,;:!?()\"'`")
		if isIdentifierLike(w) {
			if _, err := r.Lookup(w); err != nil {
				continue
			}
		}
		words = append(words, w)
	}
	q := tokens(strings.Join(words, " "))
	if len(q) == 0 {
		q = tokens(req.Query)
	}
	var hits []Action
	for _, d := range docs {
		var s float64
		for _, tok := range q {
			tf := d.terms[tok]
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (float64(len(docs))-df[tok]+0.5)/(df[tok]+0.5))
			s += idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*d.n/avg))
		}
		if s > 0 {
			a := actionOf(d.t, req.IncludeSchemas, req.IncludeExamples)
			a.Score = math.Round(s*1000) / 1000
			hits = append(hits, a)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Name < hits[j].Name
	})
	resp := &ActionSearchResponse{Total: len(hits), Actions: hits}
	if len(hits) > req.Limit {
		resp.Actions = hits[:req.Limit]
	}
	if resp.Actions == nil {
		resp.Actions = []Action{}
	}
	resp.TokenEstimate = query.Tokens(string(query.EncodeJSON(resp)))
	return resp, nil
}

// isIdentifierLike reports whether a word is written like code:
// camelCase, snake_case or dotted.
func isIdentifierLike(w string) bool {
	if strings.ContainsAny(w, "_.") && len(w) > 2 {
		return true
	}
	for i := 1; i < len(w); i++ {
		if w[i] >= 'A' && w[i] <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z' {
			return true
		}
	}
	return false
}

var catalogStop = map[string]bool{"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "on": true,
	"for": true, "and": true, "or": true, "is": true, "it": true, "its": true, "me": true, "my": true, "what": true,
	"who": true, "how": true, "which": true, "with": true, "by": true, "this": true, "that": true, "i": true, "do": true}

// stem folds plural and verb endings so "callers" meets "caller".
func stem(w string) string {
	for _, suf := range []string{"ing", "ies", "ers", "er", "es", "ed", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			if suf == "ies" {
				return w[:len(w)-3] + "y"
			}
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// ManualRequest is sdl.manual.
type ManualRequest struct {
	Query           string   `json:"query,omitempty"`
	Actions         []string `json:"actions,omitempty"`
	Format          string   `json:"format,omitempty"`
	IncludeSchemas  bool     `json:"includeSchemas,omitempty"`
	IncludeExamples bool     `json:"includeExamples,omitempty"`
}

// ManualResponse is the rendered manual.
type ManualResponse struct {
	Manual        string   `json:"manual"`
	Format        string   `json:"format"`
	Actions       []string `json:"actions"`
	TokenEstimate int      `json:"tokenEstimate"`
}

// manual renders the catalog, or the part a query or list selects.
func (r *Registry) manual(req *ManualRequest) (*ManualResponse, error) {
	if req.Format == "" {
		req.Format = "typescript"
	}
	if req.Format != "typescript" && req.Format != "markdown" && req.Format != "json" {
		return nil, fmt.Errorf("%w: format: %q is not one of typescript, markdown, json", ErrArgs, req.Format)
	}
	var tools []*Tool
	switch {
	case len(req.Actions) > 0:
		for _, name := range req.Actions {
			t, err := r.Lookup(name)
			if err != nil {
				return nil, fmt.Errorf("%w: actions: %v", ErrArgs, err)
			}
			tools = append(tools, t)
		}
	case req.Query != "":
		found, err := r.searchActions(&ActionSearchRequest{Query: req.Query, Limit: 25})
		if err != nil {
			return nil, err
		}
		for _, a := range found.Actions {
			t, _ := r.Lookup(a.Tool)
			tools = append(tools, t)
		}
	default:
		tools = r.tools
	}
	var b strings.Builder
	names := []string{}
	switch req.Format {
	case "json":
		var list []Action
		for _, t := range tools {
			list = append(list, actionOf(t, req.IncludeSchemas, req.IncludeExamples))
			names = append(names, t.ActionName())
		}
		b.Write(query.EncodeJSON(list))
	case "markdown":
		b.WriteString("# sdl actions\n\nCall them as MCP tools (the name in backticks) or as steps of sdl_chain ({\"fn\": name, \"args\": {...}}).\n")
		for _, t := range tools {
			names = append(names, t.ActionName())
			fmt.Fprintf(&b, "\n## %s (`%s`)\n\n%s\n\n", t.ActionName(), t.MCPName(), t.Description)
			for _, a := range t.topArgs() {
				req := ""
				if a.Required {
					req = ", required"
				}
				fmt.Fprintf(&b, "- `%s` (%s%s)%s\n", a.Name, argType(a), req, prefixed(": ", a.Description))
			}
			if req.IncludeExamples && t.Example != "" {
				fmt.Fprintf(&b, "\nExample: `%s`\n", t.Example)
			}
		}
	default:
		b.WriteString("// sdl actions: call them as MCP tools (sdl_*) or as steps of sdl_chain: {fn: \"name\", args}.\n")
		b.WriteString("// In a chain, \"$N.path\" in args is the result of step N (e.g. \"$0.results[0].symbolId\").\n")
		for _, t := range tools {
			names = append(names, t.ActionName())
			fmt.Fprintf(&b, "\n/** %s */\n", firstSentence(t.Description))
			fmt.Fprintf(&b, "function %s(args: {", t.ActionName())
			for i, a := range t.topArgs() {
				if i > 0 {
					b.WriteString(";")
				}
				opt := "?"
				if a.Required {
					opt = ""
				}
				fmt.Fprintf(&b, " %s%s: %s", a.Name, opt, tsType(a))
			}
			b.WriteString(" }): object;\n")
			if req.IncludeSchemas {
				js, _ := json.Marshal(t.InputSchema())
				fmt.Fprintf(&b, "// schema: %s\n", js)
			}
			if req.IncludeExamples && t.Example != "" {
				fmt.Fprintf(&b, "// example: %s(%s)\n", t.ActionName(), t.Example)
			}
		}
	}
	resp := &ManualResponse{Manual: b.String(), Format: req.Format, Actions: names}
	resp.TokenEstimate = query.Tokens(string(query.EncodeJSON(resp)))
	return resp, nil
}

func argType(a Arg) string {
	if a.Type == "array" {
		return a.Items + "[]"
	}
	if len(a.Enum) > 0 {
		return strings.Join(a.Enum, "|")
	}
	return a.Type
}

func tsType(a Arg) string {
	switch {
	case len(a.Enum) > 0 && a.Type != "array":
		q := make([]string, len(a.Enum))
		for i, e := range a.Enum {
			q[i] = fmt.Sprintf("%q", e)
		}
		return strings.Join(q, " | ")
	case a.Type == "array":
		return tsScalar(a.Items) + "[]"
	}
	return tsScalar(a.Type)
}

func tsScalar(t string) string {
	switch t {
	case "integer", "number":
		return "number"
	case "object":
		return "object"
	case "":
		return "unknown"
	}
	return t
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func catalogTools(r *Registry) []*Tool {
	search := &Tool{
		Name:  "sdl.action.search",
		Title: "Search the actions",
		Description: "Find the actions (tools) that fit what you want to do, ranked, with their parameters; the first " +
			"discovery step before sdl_manual or sdl_chain. About 40 tokens an action (more with includeSchemas).",
		ReadOnly: true, NoRepo: true,
		Args: []Arg{{Name: "query", Type: "string", Required: true, Description: "What you want to do, in words."},
			{Name: "limit", Type: "integer", Min: f(1), Max: f(25), Description: "Default 8."},
			{Name: "includeSchemas", Type: "boolean"}, {Name: "includeExamples", Type: "boolean"}},
		Example: `{"query": "find who calls a function"}`,
	}
	manual := &Tool{
		Name:  "sdl.manual",
		Title: "The API manual",
		Description: "The reference of every action (or those a query or list selects) as TypeScript signatures, " +
			"markdown or JSON: call once per session before writing sdl_chain steps. The whole manual is about 2,500 " +
			"tokens as TypeScript; filter with query or actions for less.",
		ReadOnly: true, NoRepo: true,
		Args: []Arg{{Name: "query", Type: "string"}, {Name: "actions", Type: "array", Items: "string"},
			{Name: "format", Type: "string", Enum: []string{"typescript", "markdown", "json"}},
			{Name: "includeSchemas", Type: "boolean"}, {Name: "includeExamples", Type: "boolean"}},
		Example: `{"format": "typescript", "query": "slice"}`,
	}
	return []*Tool{
		bind(search, func(ctx context.Context, _ *Repo, _ *query.Index, req *ActionSearchRequest) (any, error) {
			return r.searchActions(req)
		}),
		bind(manual, func(ctx context.Context, _ *Repo, _ *query.Index, req *ManualRequest) (any, error) {
			return r.manual(req)
		}),
	}
}
