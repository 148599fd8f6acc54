package serve

import (
	"context"

	"github.com/sdl-dev/sdl/query"
)

func summaryTools() []*Tool {
	t := &Tool{
		Name:  "sdl.context.summary",
		Title: "Context summary",
		Description: "A briefing on a symbol, a file or a task, within a token budget (default 2000): key symbols with " +
			"signatures and summaries, the dependency graph among them, risk areas (fan-in, side effects, guards, no tests, " +
			"churn) and the files touched. Scope is detected from the query (a path -> file; 3+ words or a task verb -> task; " +
			"else symbol). Good first call on an unfamiliar area; then sdl_symbol_get_card or sdl_slice_build.",
		ReadOnly: true, Live: true,
		Args: []Arg{repoArg,
			{Name: "query", Type: "string", Required: true, Description: "A symbol name, a file path, or a task in words (max 1000 characters)."},
			{Name: "budget", Type: "integer", Min: f(200), Max: f(20000), Description: "Tokens for the whole answer (default 2000)."},
			{Name: "format", Type: "string", Enum: []string{"markdown", "json", "clipboard"}, Description: "Default markdown."},
			{Name: "scope", Type: "string", Enum: []string{"symbol", "file", "task"}, Description: "Detected when omitted."},
		},
		Example: `{"query": "auth middleware", "budget": 2000}`,
	}
	return []*Tool{bind(t, func(ctx context.Context, r *Repo, x *query.Index, req *query.SummaryRequest) (any, error) {
		return x.Summarize(ctx, *req)
	})}
}
