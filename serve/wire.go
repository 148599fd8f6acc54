package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/sdl-dev/sdl/query"
)

// The compact wire format of a slice (wireFormat "compact"): the same
// content as the standard JSON in fewer tokens, for agents that read many
// slices. Only the slice itself is re-encoded; the envelope (handle, lease,
// etag, memories, warnings) stays as it is.
//
//	version 1: short keys; a card's range is "start-end", its signature its
//	           text, its dependencies their labels; an edge is
//	           [fromCard, toCard, kind, confidence] with cards by their index
//	           in "cards"; a frontier item is [symbolId, name, file, line, score]
//	version 2: 1, and the files and the edge kinds are tables ("files",
//	           "edgeKinds") that cards, edges and the frontier index
//	version 3: 2, and edges are grouped by kind and source: "edges" maps an
//	           edge kind to [fromCard, toCard...] lists of full-confidence
//	           edges; the others are [fromCard, toCard, confidence] in
//	           "weakEdges" under their kind
//
// A "legend" says which is which, so the answer reads on its own.

// Wire formats.
const (
	WireStandard = "standard"
	WireCompact  = "compact"
	// DefaultWireVersion is the compact version when none is asked for.
	DefaultWireVersion = 2
)

// SliceBuildRequest is sdl.slice.build: the slice's request and how to
// encode the answer.
type SliceBuildRequest struct {
	query.SliceRequest
	WireFormat        string `json:"wireFormat,omitempty"`
	WireFormatVersion int    `json:"wireFormatVersion,omitempty"`
}

// cardKeys are the short keys of a card's fields.
var cardKeys = map[string]string{
	"symbolId": "id", "name": "n", "kind": "k", "file": "f", "range": "r", "container": "in", "visibility": "vis",
	"signature": "sig", "summary": "sum", "doc": "doc", "invariants": "inv", "sideEffects": "fx", "deps": "d",
	"metrics": "m", "detail": "dt", "etag": "e", "exported": "x", "isTest": "test",
}

// depKeys are the short keys of a card's dependency lists.
var depKeys = map[string]string{"imports": "imp", "calls": "calls", "calledBy": "by", "unresolved": "unres"}

const legendV1 = "cards: id=symbolId n=name k=kind f=file r=lines in=container vis=visibility sig=signature sum=summary " +
	"fx=sideEffects inv=invariants d=deps(imp,calls,by=calledBy,unres) m=metrics dt=detail e=etag; " +
	"edges: [fromCard,toCard,kind,confidence], cards by index; frontier: [symbolId,name,file,line,score]"

func buildSliceTool(ctx context.Context, x *query.Index, req *SliceBuildRequest) (any, error) {
	switch req.WireFormat {
	case "", WireStandard, WireCompact:
	default:
		return nil, fmt.Errorf("%w: wireFormat: %q is not one of standard, compact", ErrArgs, req.WireFormat)
	}
	if req.WireFormatVersion != 0 && req.WireFormat == WireStandard {
		return nil, fmt.Errorf("%w: wireFormatVersion: only the compact format has versions", ErrArgs)
	}
	resp, err := x.BuildSlice(ctx, req.SliceRequest)
	if err != nil || req.WireFormat != WireCompact {
		return resp, err
	}
	v := req.WireFormatVersion
	if v == 0 {
		v = DefaultWireVersion
	}
	c, err := compactSlice(resp, v)
	if err != nil {
		return nil, err
	}
	// its legend costs about 100 tokens: a slice of a card or two can be
	// smaller as it is, and then goes as it is
	n := query.Tokens(string(query.EncodeJSON(c)))
	if n >= query.Tokens(string(query.EncodeJSON(resp))) {
		return resp, nil
	}
	c["estimatedTokens"] = n
	return c, nil
}

// compactSlice re-encodes a slice answer in the compact format v.
func compactSlice(resp *query.SliceResponse, v int) (map[string]any, error) {
	var obj map[string]any
	if err := json.Unmarshal(query.EncodeJSON(resp), &obj); err != nil {
		return nil, fmt.Errorf("compact slice: %w", err)
	}
	s, _ := obj["slice"].(map[string]any)
	if s == nil {
		return obj, nil
	}
	files := &table{}
	kinds := &table{}
	file := func(f any) any {
		if v >= 2 {
			return files.index(fmt.Sprint(f))
		}
		return f
	}
	kind := func(k any) any {
		if v >= 2 {
			return kinds.index(fmt.Sprint(k))
		}
		return k
	}
	out := map[string]any{}
	cardAt := map[string]int{}
	var cards []any
	for i, c := range items(s["cards"]) {
		cm, _ := c.(map[string]any)
		if cm == nil {
			continue
		}
		id, _ := cm["symbolId"].(string)
		cardAt[id] = i
		short := map[string]any{}
		for k, val := range cm {
			key, ok := cardKeys[k]
			if !ok {
				key = k
			}
			switch k {
			case "file":
				val = file(val)
			case "range":
				r, _ := val.(map[string]any)
				val = fmt.Sprintf("%v-%v", r["startLine"], r["endLine"])
			case "signature":
				if sig, ok := val.(map[string]any); ok && sig["text"] != nil {
					val = sig["text"]
				}
			case "deps":
				val = compactDeps(val)
			}
			short[key] = val
		}
		cards = append(cards, short)
	}
	out["cards"] = nonNilList(cards)
	// edges among the cards, by index
	grouped := map[string]map[int][]any{}
	weak := map[string][]any{}
	var edges []any
	for _, e := range items(s["edges"]) {
		em, _ := e.(map[string]any)
		from, okF := cardAt[fmt.Sprint(em["from"])]
		to, okT := cardAt[fmt.Sprint(em["to"])]
		if !okF || !okT {
			continue
		}
		conf, _ := em["confidence"].(float64)
		k := fmt.Sprint(em["kind"])
		if v >= 3 {
			if conf >= 1 {
				if grouped[k] == nil {
					grouped[k] = map[int][]any{}
				}
				grouped[k][from] = append(grouped[k][from], to)
			} else {
				weak[k] = append(weak[k], []any{from, to, conf})
			}
			kinds.index(k)
			continue
		}
		edges = append(edges, []any{from, to, kind(k), conf})
	}
	if v >= 3 {
		g := map[string]any{}
		for k, bySrc := range grouped {
			srcs := make([]int, 0, len(bySrc))
			for src := range bySrc {
				srcs = append(srcs, src)
			}
			sort.Ints(srcs)
			var lists []any
			for _, src := range srcs {
				lists = append(lists, append([]any{src}, bySrc[src]...))
			}
			g[k] = lists
		}
		out["edges"] = g
		if len(weak) > 0 {
			out["weakEdges"] = weak
		}
	} else {
		out["edges"] = nonNilList(edges)
	}
	var frontier []any
	for _, f := range items(s["frontier"]) {
		fm, _ := f.(map[string]any)
		frontier = append(frontier, []any{fm["symbolId"], fm["name"], file(fm["file"]), fm["line"], fm["score"]})
	}
	if len(frontier) > 0 {
		out["frontier"] = frontier
	}
	for _, k := range []string{"cardRefs", "truncation", "budget"} {
		if val, ok := s[k]; ok {
			out[k] = val
		}
	}
	legend := legendV1
	switch v {
	case 2:
		legend += "; f and a frontier's file index files; an edge's kind indexes edgeKinds"
	case 3:
		legend += "; f and a frontier's file index files; edges: {kind: [[fromCard,toCard...]]} at confidence 1, " +
			"weakEdges: {kind: [[fromCard,toCard,confidence]]}"
	}
	if v >= 2 {
		out["files"] = files.list()
		if v == 2 {
			out["edgeKinds"] = kinds.list()
		}
	}
	obj["slice"] = out
	obj["wireFormat"] = WireCompact
	obj["wireFormatVersion"] = v
	obj["legend"] = legend
	return obj, nil
}

// compactDeps keeps the labels of a card's dependencies.
func compactDeps(val any) any {
	d, _ := val.(map[string]any)
	if d == nil {
		return val
	}
	out := map[string]any{}
	for k, l := range d {
		key, ok := depKeys[k]
		if !ok {
			key = k
		}
		var labels []any
		for _, e := range items(l) {
			if m, ok := e.(map[string]any); ok && len(m) == 1 && m["label"] != nil {
				labels = append(labels, m["label"])
			} else {
				labels = append(labels, e)
			}
		}
		out[key] = labels
	}
	return out
}

// table numbers distinct strings in order of first use.
type table struct {
	at    map[string]int
	names []string
}

func (t *table) index(s string) int {
	if t.at == nil {
		t.at = map[string]int{}
	}
	if i, ok := t.at[s]; ok {
		return i
	}
	t.at[s] = len(t.names)
	t.names = append(t.names, s)
	return len(t.names) - 1
}

func (t *table) list() []string {
	if t.names == nil {
		return []string{}
	}
	return t.names
}

func items(v any) []any {
	l, _ := v.([]any)
	return l
}

func nonNilList(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}
