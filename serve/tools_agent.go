package serve

import (
	"context"

	"github.com/sdl-dev/sdl/query"
)

func (s *Server) agentTools() []*Tool {
	chain := &Tool{
		Name:  "sdl.chain",
		Title: "Run several actions in one call",
		Description: "Run a list of steps in one round trip: each step {fn, args} calls an action by its name (symbolSearch, " +
			"symbolGetCard, sliceBuild, codeGetSkeleton...; sdl_manual lists them) or a transform (dataPick, dataMap, " +
			"dataFilter, dataSort, dataTemplate). A string arg that is exactly \"$N.path\" is replaced by that part of step N's " +
			"result, e.g. \"$0.results[0].symbolId\" or \"$0.results[*].symbolId\". budget.maxTokens bounds the whole answer " +
			"(steps that take a budget get what is left); a card fetched twice comes back notModified; onError stop (default) or " +
			"continue; warnings flag raw-code steps taken before cheaper rungs.",
		OwnIndex: true,
		Args: []Arg{repoArg,
			{Name: "steps", Type: "array", Items: "object", Required: true, Description: "1-50 steps {fn, args}."},
			{Name: "steps.fn", Type: "string", Schema: map[string]any{"examples": []any{"symbolSearch", "symbolGetCard", "dataPick"}},
				Description: "An action (as sdl_action_search names it) or a transform."},
			{Name: "steps.args", Type: "object", Schema: map[string]any{"type": "object"},
				Description: "The action's arguments; a string that is exactly \"$N.path\" is replaced by part of step N's result."},
			{Name: "budget", Type: "object", Description: "{maxTokens (default and most: the output cap), maxSteps, maxDurationMs}."},
			{Name: "budget.maxTokens", Type: "integer", Min: f(minChainTokens), Description: "Tokens for the whole answer; above the output cap means the cap."},
			{Name: "budget.maxSteps", Type: "integer", Min: f(1), Description: "Stop after this many steps."},
			{Name: "budget.maxDurationMs", Type: "integer", Min: f(1), Description: "Stop starting steps after this long."},
			{Name: "onError", Type: "string", Enum: []string{"stop", "continue"}},
			{Name: "trace", Type: "object", Description: "{enabled, includeArgs}: per-step references, injected args, time and tokens."},
		},
		Example: `{"steps": [{"fn": "symbolSearch", "args": {"query": "parseConfig", "limit": 3}}, {"fn": "symbolGetCard", "args": {"symbolId": "$0.results[0].symbolId"}}], "budget": {"maxTokens": 2000}}`,
	}
	orchestrate := &Tool{
		Name:  "sdl.agent.orchestrate",
		Title: "Gather evidence for a task",
		Description: "One call that climbs the context ladder for a task: cards of the symbols the task is about (a slice, " +
			"focused by options.focusSymbols or focusPaths), then skeleton, hot path and (with requireDiagnostics) raw code " +
			"of the best ones, as far as budget.maxTokens (default 4000) and maxActions (default 12) allow: rungs are trimmed " +
			"from the end by measured cost, the card rung always stays. Returns the evidence, an answer drawn from it, and " +
			"the next call to make. Give budget and a focus; taskType debug, review, implement or explain shapes the path.",
		ReadOnly: true, OwnIndex: true,
		Args: []Arg{repoArg,
			{Name: "taskType", Type: "string", Required: true, Enum: taskTypes},
			{Name: "taskText", Type: "string", Required: true, Description: "The task, in words."},
			{Name: "budget", Type: "object", Description: "{maxTokens (400 up to the output cap; the answer never exceeds it), maxActions, maxDurationMs}."},
			{Name: "budget.maxTokens", Type: "integer", Min: f(minOrchestrateTokens), Description: "Tokens for the whole answer (default 4000); above the output cap means the cap."},
			{Name: "budget.maxActions", Type: "integer", Min: f(1), Description: "At most this many actions (default 12)."},
			{Name: "budget.maxDurationMs", Type: "integer", Min: f(1), Description: "Stop starting actions after this long."},
			{Name: "options", Type: "object", Description: "{focusSymbols (ids or names), focusPaths (files or directories), includeTests, requireDiagnostics (parse problems, and a raw code rung)}."},
		},
		Example: `{"taskType": "debug", "taskText": "find root cause of auth timeout", "budget": {"maxTokens": 4000, "maxActions": 12}, "options": {"includeTests": true, "focusPaths": ["src/auth/"]}}`,
	}
	return []*Tool{
		bind(orchestrate, func(ctx context.Context, r *Repo, _ *query.Index, req *OrchestrateRequest) (any, error) {
			return s.orchestrate(ctx, r, req)
		}),
		bind(chain, func(ctx context.Context, r *Repo, _ *query.Index, req *ChainRequest) (any, error) {
			return s.runChain(ctx, r, req)
		}),
	}
}
