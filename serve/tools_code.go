package serve

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sdl-dev/sdl/query"
)

// PolicyGetRequest takes only a repoId.
type PolicyGetRequest struct{}

// PolicySetRequest is sdl.policy.set.
type PolicySetRequest struct {
	PolicyPatch *PolicyPatch `json:"policyPatch"`
}

// PolicyPatch is the fields of the policy to change.
type PolicyPatch struct {
	MaxWindowLines     *int  `json:"maxWindowLines,omitempty"`
	MaxWindowTokens    *int  `json:"maxWindowTokens,omitempty"`
	RequireIdentifiers *bool `json:"requireIdentifiers,omitempty"`
	AllowBreakGlass    *bool `json:"allowBreakGlass,omitempty"`
}

func codeTools() []*Tool {
	skeleton := &Tool{
		Name:  "sdl.code.getSkeleton",
		Title: "Skeleton of a symbol or file",
		Description: "Rung 2 of the ladder: signatures, imports and control-flow headers with bodies elided (/* ... */), " +
			"for a symbol (symbolId) or a whole file (file). Typically 10-40% of the raw tokens. Pages: when truncated, pass " +
			"skeletonOffset from truncation to continue. identifiersToFind marks the lines that use them. Next: " +
			"sdl_code_get_hot_path for the lines you need.",
		ReadOnly: true, Live: true,
		Args: []Arg{repoArg,
			{Name: "symbolId", Type: "string", Description: "The symbol to skeletonize; or give file."},
			{Name: "file", Type: "string", Description: "A repository-relative file path; or give symbolId."},
			{Name: "exportedOnly", Type: "boolean", Description: "Only exported symbols (file mode)."},
			{Name: "maxLines", Type: "integer", Min: f(1)},
			{Name: "maxTokens", Type: "integer", Min: f(50)},
			{Name: "identifiersToFind", Type: "array", Items: "string", Description: "Up to 50 identifiers to mark."},
			{Name: "skeletonOffset", Type: "integer", Min: f(0), Description: "Resume after a truncated page."},
		},
		Example: `{"file": "src/auth/token.ts", "exportedOnly": true}`,
	}
	hot := &Tool{
		Name:  "sdl.code.getHotPath",
		Title: "Hot path of a symbol",
		Description: "Rung 3: only the lines of a symbol that use the given identifiers (matched in the syntax tree, not " +
			"inside strings or longer names), with contextLines around them (default 3) and gap markers. The cheapest way to " +
			"see how something is used or set. Next: sdl_code_need_window only if this is not enough.",
		ReadOnly: true, Live: true,
		Args: []Arg{repoArg,
			{Name: "symbolId", Type: "string", Required: true},
			{Name: "identifiersToFind", Type: "array", Items: "string", Required: true, Description: "1-50 identifiers."},
			{Name: "contextLines", Type: "integer", Min: f(0), Max: f(50)},
			{Name: "maxLines", Type: "integer", Min: f(1)},
			{Name: "maxTokens", Type: "integer", Min: f(50)},
		},
		Example: `{"symbolId": "0123456789abcdef", "identifiersToFind": ["token", "expiry"]}`,
	}
	window := &Tool{
		Name:  "sdl.code.needWindow",
		Title: "Raw code window (policy-gated)",
		Description: "Rung 4, last: the raw code of a symbol, when cards, skeleton and hot path were not enough. Give a " +
			"reason, the lines you expect, and the identifiers you expect to find; approved when they are in the code or the " +
			"symbol is in your slice (sliceContext), within the policy's caps (default 180 lines, 1400 tokens). Otherwise it " +
			"is downgraded to a hot path or skeleton, or denied with whyDenied, a request that would pass, and the next best " +
			"call. Every access is audited.",
		ReadOnly: true, Live: true,
		Args: []Arg{repoArg,
			{Name: "symbolId", Type: "string", Required: true},
			{Name: "reason", Type: "string", Required: true, Description: "Why raw code is needed."},
			{Name: "expectedLines", Type: "integer", Required: true, Min: f(1)},
			{Name: "identifiersToFind", Type: "array", Items: "string", Required: true, Description: "Up to 50 identifiers you expect in the code."},
			{Name: "granularity", Type: "string", Enum: []string{"symbol", "block", "fileWindow"}},
			{Name: "maxTokens", Type: "integer", Min: f(1)},
			{Name: "sliceContext", Type: "object", Description: "{taskText?, sliceHandle?, symbolIds?}: the task this is for."},
			{Name: "breakGlass", Type: "boolean", Description: "Bypass the rules where the policy allows it (audited)."},
		},
		Example: `{"symbolId": "0123456789abcdef", "reason": "need the branch logic", "expectedLines": 60, "identifiersToFind": ["tokenExpiry"]}`,
	}
	pget := &Tool{
		Name:        "sdl.policy.get",
		Title:       "Get the code-access policy",
		Description: "The policy that gates sdl_code_need_window (maxWindowLines, maxWindowTokens, requireIdentifiers, allowBreakGlass) and which file it comes from (.sdl/config.yaml).",
		ReadOnly:    true,
		Args:        []Arg{repoArg},
		Example:     `{}`,
	}
	pset := &Tool{
		Name:  "sdl.policy.set",
		Title: "Change the code-access policy",
		Description: "Patch the policy in the repository's committed .sdl/config.yaml: only the fields given change, the " +
			"rest of the file (other sections, comments) stays. Fields: maxWindowLines (1-5000), maxWindowTokens (50-50000), " +
			"requireIdentifiers, allowBreakGlass; null resets a field.",
		Args: []Arg{repoArg, {Name: "policyPatch", Type: "object", Required: true, Schema: map[string]any{"minProperties": 1},
			Description: "The fields to change."},
			{Name: "policyPatch.maxWindowLines", Type: "integer", Min: f(1), Max: f(5000), Description: "The most lines of a raw window."},
			{Name: "policyPatch.maxWindowTokens", Type: "integer", Min: f(50), Max: f(50000), Description: "The most tokens of a raw window."},
			{Name: "policyPatch.requireIdentifiers", Type: "boolean", Description: "A window request must name the identifiers it expects."},
			{Name: "policyPatch.allowBreakGlass", Type: "boolean", Description: "A request may bypass the rules, audited."},
		},
		Example: `{"policyPatch": {"maxWindowLines": 220}}`,
	}
	return []*Tool{
		bind(skeleton, func(ctx context.Context, r *Repo, x *query.Index, req *query.SkeletonRequest) (any, error) {
			return x.Skeleton(ctx, *req)
		}),
		bind(hot, func(ctx context.Context, r *Repo, x *query.Index, req *query.HotPathRequest) (any, error) {
			return x.HotPath(ctx, *req)
		}),
		bind(window, func(ctx context.Context, r *Repo, x *query.Index, req *query.WindowRequest) (any, error) {
			return x.NeedWindow(ctx, *req)
		}),
		bind(pget, func(ctx context.Context, r *Repo, x *query.Index, req *PolicyGetRequest) (any, error) {
			return x.Policy()
		}),
		bind(pset, func(ctx context.Context, r *Repo, x *query.Index, req *PolicySetRequest) (any, error) {
			if req.PolicyPatch == nil {
				return nil, fmt.Errorf("%w: policyPatch: required, an object of the fields to change, e.g. {\"maxWindowLines\": 220}", ErrArgs)
			}
			var patch map[string]any // the fields given, as query.SetPolicy takes them
			json.Unmarshal(query.EncodeJSON(req.PolicyPatch), &patch)
			return x.SetPolicy(patch)
		}),
	}
}
