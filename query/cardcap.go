package query

import (
	"strings"
	"unicode/utf8"
)

// cardCapShare is the share of a slice's budget one card may cost in an
// adaptive slice (cardTokenCap): a sixth, so that the first leadCards cards
// fit a small budget beside the envelope whatever their signatures, docs
// and evidence (C++ templates, long Ruby or TypeScript parameter lists);
// at 4000 tokens the cap (666) is above what a compact card costs.
const cardCapShare = 6

// cardTokenCap is the most one card of an adaptive slice may cost.
func cardTokenCap(budget int) int { return budget / cardCapShare }

// Below these a text is not cut further: a signature keeps its name and
// first parameters, an invariant or a summary its first words.
const (
	minSignatureRunes = 48
	minTextRunes      = 24
	minCalls          = 2 // calls a compact card keeps under the cap
)

// ellipsis marks a text cut to fit the cap.
const ellipsis = "…"

// capCard shortens card c, at cost tokens, until it costs at most limit:
// first what repeats or extends what the card says elsewhere (its doc, the
// imports and later calls, the second invariant and side effect), then
// the texts themselves from the end (evidence, summary, signature). c is a
// copy cut from a shared full card: its slices are replaced, never
// written. It returns the card and its cost; a card that cannot get under
// limit comes back as short as it gets (the budget loop then lowers its
// detail or leaves it out).
func capCard(c *Card, cost, limit int) (*Card, int) {
	if cost <= limit {
		return c, cost
	}
	cut := *c
	steps := []func(over int) bool{
		func(int) bool { return drop(&cut.Doc) },
		func(int) bool {
			if cut.Deps == nil || len(cut.Deps.Imports) == 0 {
				return false
			}
			d := *cut.Deps
			d.Imports = nil
			cut.Deps = &d
			return true
		},
		func(int) bool {
			if cut.Deps == nil || len(cut.Deps.Calls) <= minCalls {
				return false
			}
			d := *cut.Deps
			d.Calls = d.Calls[:len(d.Calls)-1]
			cut.Deps = &d
			return true
		},
		func(int) bool { return trimList(&cut.SideEffects, 1) },
		func(int) bool { return trimList(&cut.Invariants, 1) },
		func(over int) bool { return shortenList(&cut.SideEffects, over) },
		func(over int) bool { return shortenList(&cut.Invariants, over) },
		func(over int) bool { return shorten(&cut.Summary, over, minTextRunes) },
		func(over int) bool {
			if cut.Signature == nil || cut.Signature.Text == "" {
				return false
			}
			s := *cut.Signature
			if !shorten(&s.Text, over, minSignatureRunes) {
				return false
			}
			cut.Signature = &s
			return true
		},
		func(int) bool {
			if cut.Signature == nil || cut.Signature.Text != "" || len(cut.Signature.Params) <= 1 {
				return false
			}
			s := *cut.Signature
			s.Params = s.Params[:len(s.Params)-1]
			cut.Signature = &s
			return true
		},
	}
	for _, step := range steps {
		for cost > limit && step(cost-limit) {
			cost = Tokens(mustJSON(&cut)) + 1
		}
		if cost <= limit {
			break
		}
	}
	return &cut, cost
}

// drop empties a text.
func drop(s *string) bool {
	if *s == "" {
		return false
	}
	*s = ""
	return true
}

// trimList keeps the first n items of a list (a new slice).
func trimList(l *[]string, n int) bool {
	if len(*l) <= n {
		return false
	}
	*l = append([]string(nil), (*l)[:n]...)
	return true
}

// shortenList shortens the last item of list l that can still be cut, in
// a copy of the list (l may be shared with the full card).
func shortenList(l *[]string, over int) bool {
	for i := len(*l) - 1; i >= 0; i-- {
		s := (*l)[i]
		if shorten(&s, over, minTextRunes) {
			*l = append([]string(nil), *l...)
			(*l)[i] = s
			return true
		}
	}
	return false
}

// shorten cuts text s from the end by about over tokens, keeping at least
// keep runes and marking the cut; it reports whether it cut anything. The
// cut is estimated from the text's runes per token, so the caller counts
// again.
func shorten(s *string, over, keep int) bool {
	text := strings.TrimSuffix(*s, ellipsis)
	n := utf8.RuneCountInString(text)
	if n <= keep {
		return false
	}
	toks := max(1, Tokens(text))
	// runes per token, and one token more for the ellipsis
	drop := (over + 1) * n / toks
	want := max(keep, n-max(1, drop))
	if want >= n {
		return false
	}
	r := []rune(text)
	*s = strings.TrimRight(string(r[:want]), " ,(") + ellipsis
	return true
}
