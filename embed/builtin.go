package embed

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"sync"
)

// The built-in table, trained by embed/train (`make embed-model`); see
// MODEL.md.
//
//go:embed model.bin
var builtinData []byte

// The table's format: BuiltinMagic, the number of rows and the dimension
// (uint32 little-endian), then per row: the sub-token (a length byte and
// the bytes), its idf times IDFScale and NormScale over the norm of its
// quantized vector (uint16 each), and the vector (int8 per dimension).
// Rows are sorted by sub-token.
const (
	BuiltinMagic = "SDLEMB1\n"
	IDFScale     = 256
	NormScale    = 1 << 22
)

// builtinName is the model's name in ids; the table's hash follows it.
const builtinName = "builtin/sdl-code-1"

// Builtin is the static sub-token model. A text's vector is the average
// of its sub-tokens' vectors weighted by their idf, computed in integers
// so that the same text gives the same bits on every machine.
type Builtin struct {
	id     string
	dim    int
	index  map[string]int32
	tokens []string
	weight []int64 // idf × the inverse norm of the row
	// The vectors are read where the table holds them (int8 as bytes):
	// a process that embeds one question does not copy the table.
	data []byte
	at   []int32 // where each row's vector starts in data
}

// vec is the vector of a row, an int8 per byte.
func (m *Builtin) vec(row int32) []byte {
	o := int(m.at[row])
	return m.data[o : o+m.dim]
}

var (
	defaultOnce  sync.Once
	defaultModel *Builtin
	defaultErr   error
)

// Default returns the table shipped in the binary.
func Default() (*Builtin, error) {
	defaultOnce.Do(func() { defaultModel, defaultErr = ParseBuiltin(builtinData) })
	return defaultModel, defaultErr
}

// LoadBuiltin reads a table from a file (the trainer checks what it wrote).
func LoadBuiltin(path string) (*Builtin, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseBuiltin(data)
}

// ParseBuiltin reads a table; the model reads its vectors from data,
// which must not change after.
func ParseBuiltin(data []byte) (*Builtin, error) {
	bad := func(what string) error { return fmt.Errorf("built-in embedding table: %s", what) }
	if len(data) < len(BuiltinMagic)+8 || string(data[:len(BuiltinMagic)]) != BuiltinMagic {
		return nil, bad("not a table")
	}
	sum := sha256.Sum256(data)
	p := data[len(BuiltinMagic):]
	n := int(binary.LittleEndian.Uint32(p))
	dim := int(binary.LittleEndian.Uint32(p[4:]))
	p = p[8:]
	if n <= 0 || n > 1<<22 || dim <= 0 || dim > 4096 {
		return nil, bad("bad header")
	}
	m := &Builtin{id: builtinName + "@" + hex.EncodeToString(sum[:4]), dim: dim, index: make(map[string]int32, n),
		tokens: make([]string, n), weight: make([]int64, n), data: data, at: make([]int32, n)}
	for i := 0; i < n; i++ {
		if len(p) < 1 {
			return nil, bad("truncated")
		}
		l := int(p[0])
		if len(p) < 1+l+4+dim {
			return nil, bad("truncated")
		}
		t := string(p[1 : 1+l])
		p = p[1+l:]
		idf := int64(binary.LittleEndian.Uint16(p))
		inv := int64(binary.LittleEndian.Uint16(p[2:]))
		p = p[4:]
		m.tokens[i] = t
		m.index[t] = int32(i)
		m.weight[i] = idf * inv
		m.at[i] = int32(len(data) - len(p))
		p = p[dim:]
	}
	if len(p) != 0 {
		return nil, bad("trailing bytes")
	}
	return m, nil
}

// ID implements Provider.
func (m *Builtin) ID() string { return m.id }

// Dim implements Provider.
func (m *Builtin) Dim() int { return m.dim }

// Size is the number of sub-tokens in the table.
func (m *Builtin) Size() int { return len(m.tokens) }

// Field weights of a document: a sub-token of the name says most about
// what a symbol is, one of the enclosing type a little less.
const (
	weightName      = 4
	weightContainer = 2
	weightOther     = 1
	// maxTokens bounds the distinct sub-tokens of one vector, which
	// keeps the integer sums far from overflow.
	maxTokens = 4096
)

// acc sums weighted rows.
type acc struct {
	m    *Builtin
	sum  []int64
	seen map[int32]int64 // row -> field weight already added
	n    int
}

func (m *Builtin) newAcc() *acc {
	return &acc{m: m, sum: make([]int64, m.dim), seen: map[int32]int64{}}
}

// add adds each distinct sub-token of text once, with the field weight w;
// a sub-token seen before in a lighter field is raised to w.
func (a *acc) add(text string, w int64) {
	EachToken(text, func(t string) {
		row, ok := a.m.index[t]
		if !ok {
			return
		}
		prev, seen := a.seen[row]
		if prev >= w || (!seen && a.n >= maxTokens) {
			return
		}
		if !seen {
			a.n++
		}
		a.seen[row] = w
		k := (w - prev) * a.m.weight[row]
		for d, x := range a.m.vec(row) {
			a.sum[d] += k * int64(int8(x))
		}
	})
}

// vector normalizes the sum; nil when no sub-token was known. Every
// integer is below 2^53, so its conversion is exact, and the explicit
// conversions keep the compiler from fusing operations: the result has
// the same bits everywhere.
func (a *acc) vector() []float32 {
	if a.n == 0 {
		return nil
	}
	var ss float64
	for _, x := range a.sum {
		f := float64(x)
		ss += float64(f * f)
	}
	if ss == 0 {
		return nil
	}
	norm := math.Sqrt(ss)
	out := make([]float32, len(a.sum))
	for d, x := range a.sum {
		out[d] = float32(float64(x) / norm)
	}
	return out
}

// DocVector embeds a document; nil when none of its words is known.
func (m *Builtin) DocVector(d *Doc) []float32 {
	a := m.newAcc()
	a.add(d.Name, weightName)
	a.add(d.Container, weightContainer)
	a.add(d.Signature, weightOther)
	a.add(d.Doc, weightOther)
	a.add(d.Path, weightOther)
	a.add(d.Comments, weightOther)
	for _, id := range d.Body {
		a.add(id, weightOther)
	}
	return a.vector()
}

// TextVector embeds a text; nil when none of its words is known.
func (m *Builtin) TextVector(text string) []float32 {
	a := m.newAcc()
	a.add(text, weightOther)
	return a.vector()
}

// EmbedDocs implements Provider, on all CPUs.
func (m *Builtin) EmbedDocs(ctx context.Context, docs []Doc) ([][]float32, error) {
	out := make([][]float32, len(docs))
	workers := runtime.GOMAXPROCS(0)
	if len(docs) < 64 {
		workers = 1
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(docs); i += workers {
				if i%256 == 0 && ctx.Err() != nil {
					return
				}
				out[i] = m.DocVector(&docs[i])
			}
		}(w)
	}
	wg.Wait()
	return out, ctx.Err()
}

// EmbedQuery implements Provider.
func (m *Builtin) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	return m.TextVector(text), nil
}

// Neighbours lists the n sub-tokens nearest to token by cosine, for the
// model card and tests.
func (m *Builtin) Neighbours(token string, n int) []string {
	row, ok := m.index[token]
	if !ok {
		return nil
	}
	q := m.vec(row)
	type cand struct {
		i int
		s float64
	}
	cands := make([]cand, 0, len(m.tokens))
	for i := range m.tokens {
		if i == int(row) {
			continue
		}
		var dot, nv int64
		for d, b := range m.vec(int32(i)) {
			x := int64(int8(b))
			dot += x * int64(int8(q[d]))
			nv += x * x
		}
		if nv > 0 {
			cands = append(cands, cand{i, float64(dot) / math.Sqrt(float64(nv))})
		}
	}
	sort.Slice(cands, func(a, b int) bool {
		if cands[a].s != cands[b].s {
			return cands[a].s > cands[b].s
		}
		return cands[a].i < cands[b].i
	})
	var out []string
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, m.tokens[c.i])
	}
	return out
}

// Similarity is the cosine of two sub-tokens' vectors (0 when either is
// unknown), for the model card and tests.
func (m *Builtin) Similarity(a, b string) float64 {
	ra, oka := m.index[a]
	rb, okb := m.index[b]
	if !oka || !okb {
		return 0
	}
	va, vb := m.vec(ra), m.vec(rb)
	var dot, na, nb int64
	for d := range va {
		x, y := int64(int8(va[d])), int64(int8(vb[d]))
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return float64(dot) / math.Sqrt(float64(na)*float64(nb))
}
