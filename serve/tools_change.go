package serve

import (
	"context"

	"github.com/sdl-dev/sdl/query"
)

var versionArgHelp = "A ledger version: an id (v3), a sequence number, HEAD or HEAD~N (HEAD is the newest), " +
	"or a git commit or ref recorded on a version (sdl index --rev REF; a name indexed that way, HEAD too, means the git revision)."

func changeTools() []*Tool {
	delta := &Tool{
		Name:  "sdl.delta.get",
		Title: "Delta between versions",
		Description: "What changed between two ledger versions of the index: symbols added, removed, modified (body, " +
			"signature, invariants, side effects, visibility, doc) and renamed or moved (paired by fingerprint), each with " +
			"signature, invariant and side-effect diffs and a blast radius (dependents over calls, imports and implements, " +
			"ranked by distance, fan-in, test proximity and process participation); edges added and removed; amplifiers " +
			"(symbols whose fan-in grew fast). Widest radius first; paged within budget (default 50 items, 6000 tokens): " +
			"pass truncation.nextCursor as cursor for more. Use it to review a change or catch up after sdl index ran. " +
			"Next: sdl.pr.risk.analyze for a score and the tests to run, sdl.symbol.getCard on a change.",
		ReadOnly: true,
		Args: []Arg{repoArg,
			{Name: "fromVersion", Type: "string", Required: true, Description: "The version before the change. " + versionArgHelp},
			{Name: "toVersion", Type: "string", Required: true, Description: "The version after the change. " + versionArgHelp},
			{Name: "budget", Type: "object", Description: "{maxCards (items per page, 1-500, default 50), maxEstimatedTokens (300-100000, default 6000)}."},
			sliceBudgetCards, sliceBudgetTokens(query.MinDeltaTokens, query.DefaultDeltaTokens),
			{Name: "cursor", Type: "string", Description: "truncation.nextCursor of the previous page."},
			{Name: "maxDepth", Type: "integer", Min: f(1), Max: f(8), Description: "Blast radius depth in edges (default 4)."},
		},
		Example: `{"fromVersion": "v1", "toVersion": "v2"}`,
	}
	risk := &Tool{
		Name:  "sdl.pr.risk.analyze",
		Title: "Risk of a change",
		Description: "Scores the change between two ledger versions (a pull request's base and head, indexed with " +
			"sdl index --rev) from 0 to 100, with findings (breaking signatures, interface changes, removed symbols still " +
			"used, high fan-in changes, side-effect and invariant changes, a large blast radius, code no test reaches), the " +
			"tests that reach the changed symbols, escalationRequired (score at or above riskThreshold, default 70) and a " +
			"policy decision (allow, review, deny) with an audit hash. riskThreshold also filters the findings returned. " +
			"The formula is in analysis.factors and `sdl risk --explain`. About 1000-3000 tokens. Next: sdl.delta.get for " +
			"the changes themselves.",
		ReadOnly: true,
		Args: []Arg{repoArg,
			{Name: "fromVersion", Type: "string", Required: true, Description: "The base. " + versionArgHelp},
			{Name: "toVersion", Type: "string", Required: true, Description: "The head. " + versionArgHelp},
			{Name: "riskThreshold", Type: "number", Min: f(0), Max: f(100), Description: "Escalate at or above this score; return only findings scored at or above it."},
			{Name: "maxDepth", Type: "integer", Min: f(1), Max: f(8), Description: "Depth in edges of the blast radius and the test search (default 4)."},
			{Name: "maxFindings", Type: "integer", Description: "At most this many findings, highest scored first (default 50)."},
			{Name: "maxTests", Type: "integer", Description: "At most this many recommended tests (default 100)."},
		},
		Example: `{"fromVersion": "origin/main", "toVersion": "HEAD", "riskThreshold": 70}`,
	}
	refresh := &Tool{
		Name:  "sdl.slice.refresh",
		Title: "Refresh a slice",
		Description: "Whether a slice you hold changed since the version you saw it at, without rebuilding it: " +
			"notModified: true when none of its cards or frontier changed, else a delta restricted to them and to the " +
			"neighbours that came or went (the same shape as sdl.delta.get, with blast radius) and a renewed lease. The server " +
			"remembers the slices it handed out, so a refresh costs a scoped delta, not a new slice, and answers in a few " +
			"hundred tokens: always prefer it when you have a handle. knownVersion is the ledgerVersion of the slice or of " +
			"your last refresh.",
		ReadOnly: true,
		Args: []Arg{repoArg,
			{Name: "sliceHandle", Type: "string", Required: true, Description: "The sliceHandle of sdl.slice.build."},
			{Name: "knownVersion", Type: "string", Required: true, Description: "The ledger version you last saw the slice at (v3)."},
			{Name: "budget", Type: "object", Description: "Bounds the delta: {maxCards, maxEstimatedTokens}, as sdl.delta.get."},
			sliceBudgetCards, sliceBudgetTokens(query.MinDeltaTokens, query.DefaultDeltaTokens),
		},
		Example: `{"sliceHandle": "sl_0123456789abcdef0123", "knownVersion": "v1"}`,
	}
	return []*Tool{
		bind(delta, func(ctx context.Context, r *Repo, x *query.Index, req *query.DeltaRequest) (any, error) {
			return x.Delta(ctx, *req)
		}),
		bind(risk, func(ctx context.Context, r *Repo, x *query.Index, req *query.RiskRequest) (any, error) {
			return x.AnalyzeRisk(ctx, *req)
		}),
		bind(refresh, func(ctx context.Context, r *Repo, x *query.Index, req *query.RefreshRequest) (any, error) {
			return x.RefreshSlice(ctx, *req)
		}),
	}
}
