package serve

import (
	"context"
	"fmt"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/query"
)

// The budget of a slice, and of the deltas that take the same object.
var sliceBudgetCards = Arg{Name: "budget.maxCards", Type: "integer", Min: f(1), Max: f(query.MaxSliceCards),
	Description: "At most this many cards."}

func sliceBudgetTokens(min, def int) Arg {
	return Arg{Name: "budget.maxEstimatedTokens", Type: "integer", Min: f(float64(min)), Max: f(query.MaxSliceTokens),
		Description: fmt.Sprintf("Tokens the answer may take (default %d).", def)}
}

var repoArg = Arg{Name: "repoId", Type: "string", Description: "The repository to answer about; may be omitted when the server has one repository."}

func symbolTools() []*Tool {
	search := &Tool{
		Name:  "sdl.symbol.search",
		Title: "Search symbols",
		Description: "Find symbols (functions, methods, classes, types, variables) by name or by words. " +
			"Start here when you know a name or a concept but not where it lives. Exact identifiers rank first, then " +
			"full-text matches over names, signatures, docs and the identifiers in bodies. Each result costs about 40 tokens. " +
			"Next: sdl.symbol.getCard on a result, or sdl.slice.build for a whole task.",
		ReadOnly: true, Live: true,
		Args: []Arg{repoArg,
			{Name: "query", Type: "string", Required: true, Description: "A name (parseConfig, Store.Add) or words (\"auth token expiry\")."},
			{Name: "kinds", Type: "array", Items: "string", Enum: lang.Kinds, Description: "Only these kinds. A module the code declares (Ruby module, namespace, Rust mod) is found by name like a class; the module of a file (one per file) only when kinds holds module, by name or path."},
			{Name: "limit", Type: "integer", Min: f(1), Max: f(1000), Description: "At most this many results (default 50)."},
			{Name: "semantic", Type: "boolean", Description: "Ask for hybrid (vector) retrieval; falls back to lexical when the index has no vectors and says so."},
			{Name: "includeRetrievalEvidence", Type: "boolean", Description: "Include the lanes used, candidate counts and terms."},
		},
		Example: `{"query": "parseConfig", "limit": 20}`,
	}
	getCard := &Tool{
		Name:  "sdl.symbol.getCard",
		Title: "Get a symbol card",
		Description: "One symbol's card: who calls it and what it calls (with confidences), file and range, signature, " +
			"summary, invariants, side effects, metrics (fan-in/out, churn, tests), cluster and processes. About 100-300 tokens " +
			"at full detail, far less than reading the file. Give exactly one of symbolId or symbolRef {name, file?, kind?}. " +
			"Pass ifNoneMatch with a card's etag to get notModified instead when it has not changed. Next: sdl.code.getSkeleton or " +
			"sdl.code.getHotPath when you need code.",
		ReadOnly: true, Live: true,
		Args: []Arg{repoArg,
			{Name: "symbolId", Type: "string", Description: "A symbol id from search, a slice or a card."},
			{Name: "symbolRef", Type: "object", Description: "A natural reference: {name, file?, kind?, exportedOnly?}; name may be qualified (Store.Add)."},
			{Name: "symbolRef.name", Type: "string", Description: "The symbol's name, possibly qualified (Store.Add)."},
			{Name: "symbolRef.file", Type: "string", Description: "A repository path or path suffix of the file it is in."},
			{Name: "symbolRef.kind", Type: "string", Enum: lang.Kinds},
			{Name: "ifNoneMatch", Type: "string", Description: "The etag of a card you hold."},
			{Name: "minCallConfidence", Type: "number", Min: f(0), Max: f(1), Description: "Leave out dependencies below this confidence."},
			{Name: "includeResolutionMetadata", Type: "boolean", Description: "Say which rule bound each dependency."},
			{Name: "detail", Type: "string", Enum: []string{"minimal", "signature", "deps", "compact", "full"}, Description: "Detail level (default full)."},
		},
		Example: `{"symbolRef": {"name": "Store.Add"}}`,
	}
	getCards := &Tool{
		Name:  "sdl.symbol.getCards",
		Title: "Get several symbol cards",
		Description: "Up to 100 cards in one call; each symbol succeeds or fails on its own (failures say why and which tool " +
			"to use instead). Give exactly one of symbolIds or symbolRefs; knownEtags maps symbolId to an etag you hold, and " +
			"those come back as notModified.",
		ReadOnly: true, Live: true,
		Args: []Arg{repoArg,
			{Name: "symbolIds", Type: "array", Items: "string", Description: "1-100 symbol ids."},
			{Name: "symbolRefs", Type: "array", Items: "object", Description: "1-100 natural references {name, file?, kind?, exportedOnly?}."},
			{Name: "symbolRefs.kind", Type: "string", Enum: lang.Kinds},
			{Name: "knownEtags", Type: "object", Description: "symbolId -> etag of cards you hold."},
			{Name: "minCallConfidence", Type: "number", Min: f(0), Max: f(1)},
			{Name: "includeResolutionMetadata", Type: "boolean"},
			{Name: "detail", Type: "string", Enum: []string{"minimal", "signature", "deps", "compact", "full"}},
		},
		Example: `{"symbolRefs": [{"name": "Store.Add"}, {"name": "DB.Save"}]}`,
	}
	return []*Tool{
		bind(search, func(ctx context.Context, r *Repo, x *query.Index, req *query.SearchRequest) (any, error) {
			return x.Search(ctx, *req)
		}),
		bind(getCard, func(ctx context.Context, r *Repo, x *query.Index, req *query.CardRequest) (any, error) {
			return x.Card(ctx, *req)
		}),
		bind(getCards, func(ctx context.Context, r *Repo, x *query.Index, req *query.CardsRequest) (any, error) {
			return x.Cards(ctx, *req)
		}),
	}
}

func sliceTools() []*Tool {
	build := &Tool{
		Name:  "sdl.slice.build",
		Title: "Build a task slice",
		Description: "The symbols a task needs, ranked and within a token budget: give taskText alone, or with entrySymbols, " +
			"editedFiles, a stackTrace or a failingTestPath. Returns cards (the best ranked in more detail), the edges among them, " +
			"a frontier of what just missed, and a spilloverHandle when more was ranked. Start with budget {maxCards: 30, " +
			"maxEstimatedTokens: 4000}; the answer never exceeds the token budget. Pass knownCardEtags to get cardRefs for cards " +
			"you already hold. Next: sdl.symbol.getCard or sdl.code.getSkeleton on a card, sdl.slice.spillover.get for more.",
		ReadOnly: true, Live: true,
		Args: []Arg{repoArg,
			{Name: "taskText", Type: "string", Description: "What you are doing, in words; enough on its own."},
			{Name: "entrySymbols", Type: "array", Items: "string", Description: "Up to 100 symbol ids to start from."},
			{Name: "editedFiles", Type: "array", Items: "string", Description: "Up to 100 repository paths being edited: their symbols and callers come in."},
			{Name: "stackTrace", Type: "string", Description: "A stack trace (Go, Python, Java, JS/TS, Rust): its frames are seeds."},
			{Name: "failingTestPath", Type: "string", Description: "A failing test file: the code it calls is favoured."},
			{Name: "budget", Type: "object", Description: "{maxCards (1-500, default 50), maxEstimatedTokens (200-100000, default 4000)}."},
			sliceBudgetCards, sliceBudgetTokens(query.MinSliceTokens, query.DefaultMaxTokens),
			{Name: "minConfidence", Type: "number", Min: f(0), Max: f(1), Description: "Ignore edges below this confidence (default 0.5)."},
			{Name: "minCallConfidence", Type: "number", Min: f(0), Max: f(1), Description: "Ignore call edges below this confidence."},
			{Name: "knownCardEtags", Type: "object", Description: "symbolId -> etag of cards you hold; those become cardRefs."},
			{Name: "cardDetail", Type: "string", Enum: []string{"minimal", "signature", "deps", "compact", "full"}, Description: "One detail for every card instead of adaptive detail."},
			{Name: "adaptiveDetail", Type: "boolean", Description: "Choose detail per card by rank (default when cardDetail is unset)."},
			{Name: "includeResolutionMetadata", Type: "boolean"},
			{Name: "includeRetrievalEvidence", Type: "boolean", Description: "Include how the seeds were found."},
			{Name: "semantic", Type: "boolean", Description: "false keeps vectors out of seeding from taskText (by default they join when the index has them; retrievalMode says which ran)."},
			{Name: "includeMemories", Type: "boolean", Description: "Include the development memories about the cards (default true); they fit after the cards or are left out."},
			{Name: "memoryLimit", Type: "integer", Min: f(0), Max: f(20), Description: "At most this many memories (default 5)."},
			{Name: "wireFormat", Type: "string", Enum: []string{WireStandard, WireCompact}, Description: "standard (default): the slice as " +
				"plain JSON; compact: the same content in about 20% fewer tokens (short keys, cards by index in edges, a legend)."},
			{Name: "wireFormatVersion", Type: "integer", Min: f(1), Max: f(3), Description: "Compact version (default 2): 1 short keys, " +
				"2 also tables of files and edge kinds, 3 also edges grouped by kind and source."},
		},
		Example: `{"taskText": "fix the auth token expiry check", "budget": {"maxCards": 30, "maxEstimatedTokens": 4000}}`,
	}
	spill := &Tool{
		Name:  "sdl.slice.spillover.get",
		Title: "Page through a slice's overflow",
		Description: "The ranked symbols that did not fit in a slice, as full cards, in rank order, a page at a time " +
			"(pageSize 1-100, default 20, about 200 tokens a card). Use the spilloverHandle of the slice's truncation and the " +
			"cursor of the previous page.",
		ReadOnly: true, Live: true,
		Args: []Arg{repoArg,
			{Name: "spilloverHandle", Type: "string", Required: true},
			{Name: "cursor", Type: "string"},
			{Name: "pageSize", Type: "integer", Min: f(1), Max: f(100)},
		},
		Example: `{"spilloverHandle": "sp_0123456789abcdef0123", "pageSize": 20}`,
	}
	return []*Tool{
		bind(build, func(ctx context.Context, r *Repo, x *query.Index, req *SliceBuildRequest) (any, error) {
			return buildSliceTool(ctx, x, req)
		}),
		bind(spill, func(ctx context.Context, r *Repo, x *query.Index, req *query.SpilloverRequest) (any, error) {
			return x.Spillover(ctx, *req)
		}),
	}
}

// allTools lists every tool that is built.
func allTools() []*Tool {
	var ts []*Tool
	ts = append(ts, symbolTools()...)
	ts = append(ts, sliceTools()...)
	ts = append(ts, summaryTools()...)
	ts = append(ts, codeTools()...)
	ts = append(ts, changeTools()...)
	ts = append(ts, bufferTools()...)
	ts = append(ts, memoryTools()...)
	return ts
}
