// Package embed turns code and text into vectors for sdl's vector lane: the
// built-in model (a static sub-token table trained by embed/train and
// shipped inside the binary), an OpenAI-compatible HTTP provider, and none.
// Both the indexer (which stores symbol vectors) and the query side (which
// embeds the question) use it, so it imports nothing of sdl's.
package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
)

var (
	// ErrUnavailable means the embedding endpoint could not be reached or
	// kept failing after retries.
	ErrUnavailable = errors.New("embedding endpoint unavailable")
	// ErrDimension means vectors of a model do not have the dimension the
	// index (or an earlier answer) has.
	ErrDimension = errors.New("embedding dimension mismatch")
	// ErrConfig means the embedding configuration is incomplete or wrong.
	ErrConfig = errors.New("embedding configuration")
)

// Provider names.
const (
	ProviderBuiltin = "builtin"
	ProviderHTTP    = "http"
	ProviderNone    = "none"
)

// Provider computes embeddings. Vectors are unit length.
type Provider interface {
	// ID names the model and its version; the index records it, and a
	// different ID means every vector is computed again.
	ID() string
	// Dim is the vector dimension, or 0 while unknown (an HTTP model
	// tells it with its first answer).
	Dim() int
	// EmbedDocs embeds symbols or memories, one vector each, in order.
	EmbedDocs(ctx context.Context, docs []Doc) ([][]float32, error)
	// EmbedQuery embeds the text of a question.
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
}

// Doc is what is embedded for a symbol or a memory. Fields say what each
// piece of text is, so that a model can weigh a name above a body.
type Doc struct {
	Name      string   // the symbol's name, or a memory's title
	Container string   // the enclosing type, class or module
	Kind      string   // function, method, class, memory...
	Signature string   // the declaration line
	Doc       string   // the doc comment or summary, or a memory's text
	Path      string   // the repository path of its file
	Body      []string // identifiers used in its body
	Comments  string   // comments and string literals of its body
}

// maxDocText bounds the text of one document sent to a model.
const maxDocText = 6000

// Text renders a document as one text, for models that take text.
func (d *Doc) Text() string {
	var b strings.Builder
	if d.Kind != "" {
		b.WriteString(d.Kind)
		b.WriteByte(' ')
	}
	if d.Container != "" {
		b.WriteString(d.Container)
		b.WriteByte('.')
	}
	b.WriteString(d.Name)
	if d.Path != "" {
		b.WriteString(" in ")
		b.WriteString(d.Path)
	}
	for _, s := range []string{d.Signature, d.Doc, d.Comments} {
		if s = strings.TrimSpace(s); s != "" {
			b.WriteByte('\n')
			b.WriteString(s)
		}
	}
	if len(d.Body) > 0 {
		b.WriteString("\nuses: ")
		for i, id := range d.Body {
			if b.Len() > maxDocText {
				break
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(id)
		}
	}
	s := b.String()
	if len(s) > maxDocText {
		s = s[:maxDocText]
		// do not cut a UTF-8 sequence
		for len(s) > 0 && s[len(s)-1]&0xc0 == 0x80 {
			s = s[:len(s)-1]
		}
		if len(s) > 0 && s[len(s)-1] >= 0xc0 {
			s = s[:len(s)-1]
		}
	}
	return s
}

// Hash identifies a document's content: a vector computed for one hash by
// one model serves every document with that hash.
func (d *Doc) Hash() string {
	h := sha256.New()
	for _, s := range []string{d.Name, d.Container, d.Kind, d.Signature, d.Doc, d.Path, d.Comments} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	for _, s := range d.Body {
		h.Write([]byte(s))
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Quantize turns a unit vector into int8 components scaled by its largest
// component: the cosine of two quantized vectors is that of the vectors
// to about 1e-3, in a quarter of the space.
func Quantize(v []float32) []int8 {
	var m float32
	for _, x := range v {
		if x < 0 {
			x = -x
		}
		if x > m {
			m = x
		}
	}
	q := make([]int8, len(v))
	if m == 0 {
		return q
	}
	for i, x := range v {
		r := x / m * 127
		if r >= 0 {
			q[i] = int8(r + 0.5)
		} else {
			q[i] = int8(r - 0.5)
		}
	}
	return q
}

// MemoryDoc is what a model sees of a development memory: its title
// stands where a symbol's name does, its text where a doc comment does,
// and its tags as identifiers. The indexer and the query side (for
// memories stored since the last index run) build it alike.
func MemoryDoc(typ, title, content string, tags []string) Doc {
	return Doc{Name: title, Kind: "memory " + typ, Doc: content, Body: tags}
}
