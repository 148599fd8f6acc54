package query

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

var (
	codecOnce sync.Once
	codec     tokenizer.Codec
)

// Tokens counts the tokens of s with a real BPE tokenizer (o200k_base,
// embedded in the binary). Budgets are promises, so they are kept in real
// tokens, not in an estimate. Should the codec be unavailable, a
// conservative estimate (one token per 3 bytes) stands in.
func Tokens(s string) int {
	codecOnce.Do(func() {
		c, err := tokenizer.Get(tokenizer.O200kBase)
		if err == nil {
			codec = c
		}
	})
	if codec != nil {
		if n, err := codec.Count(s); err == nil {
			return n
		}
	}
	return (len(s) + 2) / 3
}
