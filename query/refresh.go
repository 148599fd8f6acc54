package query

import (
	"context"
	"errors"
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
	// ScopeSymbols counts the symbols compared.
	ScopeSymbols int `json:"scopeSymbols"`
}

// RefreshSlice answers sdl.slice.refresh: the slice is rebuilt from its
// handle at the current version, and the delta from knownVersion to now
// is computed for its cards and frontier only, plus the entry symbols
// that are gone and the symbols those lost that were removed or renamed.
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
	scope, err := x.sliceScope(ctx, *sreq)
	if err != nil {
		return nil, err
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
	for _, c := range resp.Slice.Cards {
		scope[c.SymbolID] = true
	}
	for _, c := range resp.Slice.CardRefs {
		scope[c.SymbolID] = true
	}
	for _, f := range resp.Slice.Frontier {
		scope[f.SymbolID] = true
	}
	return scope, nil
}
