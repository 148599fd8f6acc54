package query

import (
	"context"
	"strconv"
)

// SpilloverRequest is sdl.slice.spillover.get.
type SpilloverRequest struct {
	SpilloverHandle string `json:"spilloverHandle"`
	Cursor          string `json:"cursor,omitempty"`
	PageSize        int    `json:"pageSize,omitempty"`
}

// SpilloverResponse is one page of the symbols a slice left out.
type SpilloverResponse struct {
	SpilloverHandle string  `json:"spilloverHandle"`
	Cursor          string  `json:"cursor,omitempty"`
	HasMore         bool    `json:"hasMore"`
	Symbols         []*Card `json:"symbols"`
	Total           int     `json:"total"`
	LedgerVersion   string  `json:"ledgerVersion"`
	// VersionChanged says the index moved on since the slice was built:
	// the overflow is that of the same request at the current version.
	VersionChanged bool `json:"versionChanged,omitempty"`
}

// Spillover pages through the ranked symbols that did not fit in a slice,
// in rank order. The slice is rebuilt from its handle's request, so any
// process can answer, and every page of one version is consistent: the
// slice and its pages together list each ranked symbol exactly once.
func (x *Index) Spillover(ctx context.Context, req SpilloverRequest) (*SpilloverResponse, error) {
	if req.SpilloverHandle == "" {
		return nil, invalidf("spilloverHandle", "required: the spilloverHandle of a slice's truncation")
	}
	if req.PageSize == 0 {
		req.PageSize = 20
	}
	if req.PageSize < 1 || req.PageSize > 100 {
		return nil, invalidf("pageSize", "must be between 1 and 100, got %d", req.PageSize)
	}
	offset := 0
	if req.Cursor != "" {
		n, err := strconv.Atoi(req.Cursor)
		if err != nil || n < 0 {
			return nil, invalidf("cursor", "%q is not a cursor; pass the cursor of the previous page, or none for the first", req.Cursor)
		}
		offset = n
	}
	sreq, versionHash, err := x.sliceRequestOf(req.SpilloverHandle)
	if err != nil {
		return nil, err
	}
	ver, err := x.Current(ctx)
	if err != nil {
		return nil, err
	}
	slice, ranks, err := x.buildSlice(ctx, sreq)
	if err != nil {
		return nil, err
	}
	in := map[string]bool{}
	for _, c := range slice.Slice.Cards {
		in[c.SymbolID] = true
	}
	for _, c := range slice.Slice.CardRefs {
		in[c.SymbolID] = true
	}
	var rest []string
	for _, rk := range ranks {
		if !in[rk.id] {
			rest = append(rest, rk.id)
		}
	}
	resp := &SpilloverResponse{SpilloverHandle: req.SpilloverHandle, Symbols: []*Card{}, Total: len(rest),
		LedgerVersion: ver.ID, VersionChanged: versionHash != "" && versionHash != ver.Hash}
	if offset >= len(rest) {
		return resp, nil
	}
	page := rest[offset:min(offset+req.PageSize, len(rest))]
	rows, err := x.symbols(ctx, page)
	if err != nil {
		return nil, err
	}
	var syms []*symbolRow
	for _, id := range page {
		if r := rows[id]; r != nil {
			syms = append(syms, r)
		}
	}
	cards, err := x.cards(ctx, syms, CardOptions{Detail: DetailFull}, ver.ID)
	if err != nil {
		return nil, err
	}
	resp.Symbols = cards
	if next := offset + len(page); next < len(rest) {
		resp.HasMore = true
		resp.Cursor = strconv.Itoa(next)
	}
	return resp, nil
}
