package query

import (
	"context"
	"errors"
	"sync"
	"time"
)

// RefreshRequest is sdl.slice.refresh.
type RefreshRequest struct {
	SliceHandle  string `json:"sliceHandle"`
	KnownVersion string `json:"knownVersion"`
	// Budget bounds the delta as sdl.delta.get's does.
	Budget *SliceBudget `json:"budget,omitempty"`
}

// RefreshResponse says whether a slice changed since a version, and how.
type RefreshResponse struct {
	SliceHandle    string `json:"sliceHandle"`
	KnownVersion   string `json:"knownVersion"`
	CurrentVersion string `json:"currentVersion"`
	NotModified    bool   `json:"notModified"`
	// Delta is restricted to the slice's symbols, its frontier and the
	// symbols they lost; null when nothing of it changed.
	Delta      *DeltaPack  `json:"delta"`
	Amplifiers []Amplifier `json:"amplifiers,omitempty"`
	Lease      Lease       `json:"lease"`
	// ScopeSymbols counts the symbols compared; Scope says where they
	// came from: "held", the slice as this server handed it out, or
	// "rebuilt", the slice built again at the current version (a handle
	// another process made).
	ScopeSymbols int    `json:"scopeSymbols"`
	Scope        string `json:"scope,omitempty"`
}

// RefreshSlice answers sdl.slice.refresh: the delta from knownVersion to
// now, computed for the slice's cards, card refs, frontier and entry
// symbols only, plus their neighbours that were removed, renamed or
// added (the ends of the slice's changed edges). The slice is the one
// this process handed out under the handle; failing that, it is built
// again from the handle's request at the current version.
func (x *Index) RefreshSlice(ctx context.Context, req RefreshRequest) (*RefreshResponse, error) {
	if req.SliceHandle == "" {
		return nil, invalidf("sliceHandle", "required: the sliceHandle of a slice from sdl.slice.build")
	}
	sreq, _, err := x.sliceRequestOf(req.SliceHandle)
	if err != nil {
		return nil, err
	}
	known, err := x.ResolveVersion(ctx, "knownVersion", req.KnownVersion)
	if err != nil {
		return nil, err
	}
	maxItems, budget, err := deltaBudget(req.Budget)
	if err != nil {
		return nil, err
	}
	cur, err := x.Current(ctx)
	if err != nil {
		return nil, err
	}
	resp := &RefreshResponse{SliceHandle: req.SliceHandle, KnownVersion: req.KnownVersion, CurrentVersion: cur.ID,
		Lease: Lease{ExpiresAt: time.Now().UTC().Add(30 * time.Minute).Format(time.RFC3339), MinVersion: cur.ID, MaxVersion: cur.ID}}
	if known.Seq == cur.Seq {
		resp.NotModified = true
		return resp, nil
	}
	var scope map[string]bool
	scope, resp.Scope = x.held.get(req.SliceHandle), "held"
	if scope == nil {
		if scope, err = x.sliceScope(ctx, *sreq); err != nil {
			return nil, err
		}
		resp.Scope = "rebuilt"
	}
	resp.ScopeSymbols = len(scope)
	d, err := x.computeDelta(ctx, known, cur, deltaOptions{scope: scope})
	if err != nil {
		return nil, err
	}
	if len(d.changes) == 0 && len(d.edges) == 0 {
		resp.NotModified = true
		return resp, nil
	}
	page, err := d.pack(0, maxItems, budget)
	if err != nil {
		return nil, err
	}
	resp.Delta = page.Delta
	resp.Amplifiers = page.Amplifiers
	return resp, nil
}

// sliceScope rebuilds a slice at the current version and returns the ids
// of its cards, card refs and frontier, and of its entry symbols, current
// or not (a removed entry symbol is a change of the slice).
func (x *Index) sliceScope(ctx context.Context, req SliceRequest) (map[string]bool, error) {
	scope := map[string]bool{}
	for _, id := range req.EntrySymbols {
		scope[id] = true
	}
	if len(req.EntrySymbols) > 0 {
		cur, err := x.symbols(ctx, req.EntrySymbols)
		if err != nil {
			return nil, err
		}
		var kept []string
		for _, id := range req.EntrySymbols {
			if cur[id] != nil {
				kept = append(kept, id)
			}
		}
		req.EntrySymbols = kept
	}
	req.noHandle = true
	resp, _, err := x.buildSlice(ctx, &req)
	if errors.Is(err, ErrInvalid) && req.validate() != nil {
		// nothing left to seed a slice with: the removed entries are the scope
		return scope, nil
	}
	if err != nil {
		return nil, err
	}
	addSliceSymbols(scope, &resp.Slice)
	return scope, nil
}

// addSliceSymbols adds the ids of a slice's cards, card refs and frontier.
func addSliceSymbols(scope map[string]bool, s *Slice) {
	if s == nil {
		return
	}
	for _, c := range s.Cards {
		scope[c.SymbolID] = true
	}
	for _, c := range s.CardRefs {
		scope[c.SymbolID] = true
	}
	for _, f := range s.Frontier {
		scope[f.SymbolID] = true
	}
}

// heldScopes remembers, per slice handle, the symbols of the slice as it
// was handed out: what the client holds. A refresh compares those with
// no slice to build; a handle this process did not build (another
// process, a restart, an evicted entry) falls back to building the slice
// again at the current version.
type heldScopes struct {
	mu    sync.Mutex
	m     map[string]map[string]bool
	order []string // oldest first, for eviction
}

const maxHeldScopes = 512

func (h *heldScopes) put(handle string, req *SliceRequest, s *Slice) {
	scope := map[string]bool{}
	for _, id := range req.EntrySymbols {
		scope[id] = true
	}
	addSliceSymbols(scope, s)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[string]map[string]bool{}
	}
	if _, ok := h.m[handle]; !ok {
		h.order = append(h.order, handle)
	}
	h.m[handle] = scope
	for len(h.order) > maxHeldScopes {
		delete(h.m, h.order[0])
		h.order = h.order[1:]
	}
}

func (h *heldScopes) get(handle string) map[string]bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.m[handle]
}
