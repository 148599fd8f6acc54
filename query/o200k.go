package query

import (
	_ "embed"
	"math"
	"strings"
)

//go:generate go run ./internal/o200kgen o200k.bin

// o200kTable is o200k_base's vocabulary (see internal/o200kgen for its
// layout), read in place: nothing is built when a process starts.
//
//go:embed o200k.bin
var o200kTable string

func o200kLen() int { return int(o200kU32(0)) }

func o200kU32(i int) uint32 {
	return uint32(o200kTable[i]) | uint32(o200kTable[i+1])<<8 | uint32(o200kTable[i+2])<<16 | uint32(o200kTable[i+3])<<24
}

// o200kEntry returns the i-th token in byte order and its rank.
func o200kEntry(i int) (string, uint32) {
	n := o200kLen()
	offs := 4
	ranks := offs + 4*(n+1)
	toks := ranks + 4*n
	start, end := o200kU32(offs+4*i), o200kU32(offs+4*i+4)
	return o200kTable[toks+int(start) : toks+int(end)], o200kU32(ranks + 4*i)
}

// noRank marks a pair of parts that is not a token.
const noRank = math.MaxUint32

// o200kRank returns the rank of token t, or noRank, by binary search.
func o200kRank(t string) uint32 {
	lo, hi := 0, o200kLen()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		tok, r := o200kEntry(m)
		switch c := strings.Compare(tok, t); {
		case c == 0:
			return r
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return noRank
}

// bpeCount counts the tokens byte-pair encoding makes of piece: starting
// from its bytes, the adjacent pair whose concatenation has the lowest
// rank (the leftmost of equals) is merged until no pair is a token; as
// tiktoken does, with a heap so that long pieces cost O(n log n).
func bpeCount(piece string) int {
	if o200kRank(piece) != noRank {
		return 1
	}
	n := len(piece)
	if n == 0 {
		return 0
	}
	// boundaries 0..n as a linked list; rank[i] is the rank of the
	// merge of the part starting at i with the next one
	next := make([]int32, n+1)
	prev := make([]int32, n+1)
	rank := make([]uint32, n+1)
	for i := range next {
		next[i], prev[i], rank[i] = int32(i)+1, int32(i)-1, noRank
	}
	next[n] = -1
	rankAt := func(i int32) uint32 {
		j := next[i]
		if j < 0 || next[j] < 0 {
			return noRank
		}
		return o200kRank(piece[i:next[j]])
	}
	h := make(mergeHeap, 0, n)
	for i := int32(0); int(i) < n-1; i++ {
		if r := rankAt(i); r != noRank {
			rank[i] = r
			h = append(h, mergeCand{r, i})
		}
	}
	h.init()
	parts := n
	for len(h) > 0 {
		c := h.pop()
		if rank[c.pos] != c.rank || next[c.pos] < 0 {
			continue // stale: the part changed since
		}
		// merge the part at c.pos with the next one
		j := next[c.pos]
		next[c.pos] = next[j]
		if next[j] >= 0 {
			prev[next[j]] = c.pos
		}
		next[j], rank[j] = -1, noRank
		parts--
		for _, i := range [2]int32{c.pos, prev[c.pos]} {
			if i < 0 {
				continue
			}
			rank[i] = rankAt(i)
			if rank[i] != noRank {
				h.push(mergeCand{rank[i], i})
			}
		}
	}
	return parts
}

// mergeCand is a possible merge: the pair starting at pos, of this rank.
type mergeCand struct {
	rank uint32
	pos  int32
}

// mergeHeap is a min-heap of merges, the lowest rank first and of equal
// ranks the leftmost.
type mergeHeap []mergeCand

func (h mergeHeap) less(a, b int) bool {
	return h[a].rank < h[b].rank || h[a].rank == h[b].rank && h[a].pos < h[b].pos
}

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(c mergeCand) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *mergeHeap) pop() mergeCand {
	s := *h
	top := s[0]
	s[0] = s[len(s)-1]
	*h = s[:len(s)-1]
	h.down(0)
	return top
}

func (h mergeHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
