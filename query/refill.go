package query

import (
	"context"
	"slices"
)

// refillSlice takes the next ranked cards into the room fitBudget left.
// fillSlice keeps room for the envelope, the frontier, the edges and the
// memories by estimate, and fitBudget gives up whole items, so a small
// slice could end far under its budget while ranked cards wait (an
// nlohmann/json slice ended at 711 of 1000 tokens with five cards). A card
// joins after the last one, in rank order, at the detail its place takes
// or less; the first that does not fit even at minimal detail ends the
// refill, so no card is passed over and the order is that of the ranking.
// Each step counts the whole response: the budget stays a promise.
func (x *Index) refillSlice(ctx context.Context, req *SliceRequest, f *sliceFill, resp *SliceResponse) error {
	s := &resp.Slice
	budget := req.Budget.MaxEstimatedTokens
	if s.Truncation == nil || s.Truncation.DroppedCards == 0 {
		return nil // nothing ranked waits
	}
	// the refill starts after the last ranked item the slice holds
	in := map[string]bool{}
	for _, c := range s.Cards {
		in[c.SymbolID] = true
	}
	for _, r := range s.CardRefs {
		in[r.SymbolID] = true
	}
	start := 0
	var order []ranked
	for i, rk := range f.ranks {
		if in[rk.id] {
			start = i + 1
			order = append(order, rk)
		}
	}
	// edges fitBudget gave up stay out: they ranked above a card past the
	// lead ones only when the slice held no more than those
	var whole Slice
	sliceEdges(&whole, order, f.outEdges)
	edgesWhole := len(whole.Edges) == len(s.Edges)
	kept := keptDetail(budget)
	capTokens := 0
	if adaptive(req) {
		capTokens = cardTokenCap(budget)
	}
	for i := start; i < len(f.ranks); i++ {
		if len(s.Cards)+len(s.CardRefs) >= req.Budget.MaxCards {
			break
		}
		rk := f.ranks[i]
		if in[rk.id] {
			continue
		}
		if i >= f.built {
			n := min(refillBatch, len(f.ranks)-i)
			more, err := x.fullCards(ctx, f.ranks[i:], n, req, f.ver, f.rows, f.unnamed, f.outEdges)
			if err != nil {
				return err
			}
			for id, c := range more {
				f.fulls[id] = c
			}
			f.built = i + n
		}
		full := f.fulls[rk.id]
		if full == nil {
			continue // fillSlice passes over it too
		}
		if !x.refillOne(ctx, req, f, resp, rk, full, order, edgesWhole, kept, capTokens) {
			break
		}
		in[rk.id] = true
		order = append(order, rk)
	}
	if s.Truncation.DroppedCards <= 0 {
		// every ranked card is in: the slice is whole after all
		s.Truncation = nil
		countResponse(resp, budget) // smaller than the count that fit
	}
	return nil
}

// refillBatch is how many full cards a refill builds at once: the room
// left after fitBudget holds a few signature cards at most.
const refillBatch = 4

// refillOne adds the card of rk to the slice at the best detail that keeps
// the whole response within its budget, with its edges (when the slice
// has them all) and the frontier as long as before, and tells whether it
// did; a card that does not fit leaves the response as it was.
func (x *Index) refillOne(ctx context.Context, req *SliceRequest, f *sliceFill, resp *SliceResponse, rk ranked, full *Card, order []ranked, edgesWhole bool, kept, capTokens int) bool {
	s := &resp.Slice
	budget := req.Budget.MaxEstimatedTokens
	was := struct {
		cards    []*Card
		refs     []CardRef
		edges    []SliceEdge
		frontier []FrontierItem
		stale    []string
		trunc    SliceTruncation
		hash     string
		tokens   int
	}{s.Cards, s.CardRefs, s.Edges, s.Frontier, resp.StaleFiles, *s.Truncation, resp.SliceEtag.SliceHash, resp.EstimatedTokens}
	restore := func() {
		s.Cards, s.CardRefs, s.Edges, s.Frontier, resp.StaleFiles = was.cards, was.refs, was.edges, was.frontier, was.stale
		*s.Truncation = was.trunc
		resp.SliceEtag.SliceHash, resp.EstimatedTokens = was.hash, was.tokens
	}
	room := budget - was.tokens
	// what does not depend on the card's detail
	order = append(slices.Clip(order), rk)
	if edgesWhole {
		var e Slice
		sliceEdges(&e, order, f.outEdges)
		s.Edges = e.Edges
	}
	taken := map[string]bool{}
	for _, o := range order {
		taken[o.id] = true
	}
	// the frontier keeps what fitBudget left of it but the card taken,
	// and tries the next item in its place: fitBudget may have given up
	// a large item, which must not come back at a card's cost
	var front, topped []FrontierItem
	inFront := map[string]bool{}
	for _, it := range was.frontier {
		inFront[it.SymbolID] = true
		if !taken[it.SymbolID] {
			front = append(front, it)
		}
	}
	topped = front
	if len(front) < len(was.frontier) {
		for _, it := range f.frontier {
			if !taken[it.SymbolID] && !inFront[it.SymbolID] {
				topped = append(slices.Clip(front), it)
				break
			}
		}
	}
	if !slices.Contains(cardFiles(s.Cards), full.File) {
		resp.StaleFiles = append(slices.Clip(was.stale), x.staleFiles(ctx, []string{full.File})...)
	}
	s.Truncation.DroppedCards--
	// the frontier as long as before outranks the card's detail, as in
	// fitBudget, which cuts details before the first keptFrontier items
	fronts := [][]FrontierItem{topped}
	if len(front) < len(topped) {
		fronts = append(fronts, front)
	}
	for _, fr := range fronts {
		s.Frontier = fr
		if et, ok := req.KnownCardEtags[full.SymbolID]; ok && et == full.Etag {
			ref := CardRef{SymbolID: full.SymbolID, Etag: full.Etag, NotModified: true}
			s.CardRefs = append(slices.Clip(was.refs), ref)
			if Tokens(mustJSON(ref))+1 <= room && countFits(resp, budget) {
				return true
			}
			continue
		}
		detail := detailAfter(was.cards, kept, detailFor(req, len(was.cards)))
		for {
			c, n := sliceCard(full, detail)
			if capTokens > 0 {
				c, n = capCard(c, n, capTokens)
			}
			// a card bigger than the room alone needs no whole count
			if n <= room {
				s.Cards = append(slices.Clip(was.cards), c)
				if countFits(resp, budget) {
					return true
				}
			}
			if detail == DetailMinimal {
				break
			}
			detail = downgrade(detail)
		}
	}
	restore()
	return false
}

// countFits counts the whole response as fitBudget does, with its hash
// and estimatedTokens at its widest, and tells whether it keeps within
// budget (then estimatedTokens is that count).
func countFits(resp *SliceResponse, budget int) bool {
	_, ok := countResponse(resp, budget)
	return ok
}

// countResponse sets the hash of the cards the response sends and counts
// the whole response once with estimatedTokens at its widest, an upper
// bound; when the count keeps within budget, estimatedTokens becomes it.
func countResponse(resp *SliceResponse, budget int) (int, bool) {
	resp.SliceEtag.SliceHash = sliceHash(&resp.Slice)
	resp.EstimatedTokens = 99999
	n := Tokens(mustJSON(resp))
	if n > budget {
		return n, false
	}
	resp.EstimatedTokens = n
	return n, true
}
