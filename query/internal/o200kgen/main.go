// Command o200kgen writes o200k_base's vocabulary, as the tokenizer module
// has it, into the table query/o200k.go reads (go generate ./query/).
//
// The table is read in place from the binary, so a process that counts
// tokens builds nothing at start-up (the module's own codec fills a
// 200,000-entry map, tens of milliseconds and megabytes per process). Its
// layout: n, then n+1 offsets into the token bytes and n ranks, all
// little-endian uint32, the n tokens sorted bytewise, then their bytes.
package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"sort"

	"github.com/tiktoken-go/tokenizer/codec"
)

// maxRank bounds the search for the vocabulary's ids (o200k's are below
// 200,000; the special tokens are not part of the vocabulary).
const maxRank = 1 << 20

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: o200kgen OUT")
		os.Exit(2)
	}
	c := codec.NewO200kBase()
	type entry struct {
		tok  string
		rank uint32
	}
	var es []entry
	for r := uint(0); r < maxRank; r++ {
		tok, err := c.Decode([]uint{r})
		if err != nil {
			continue // no token has this id
		}
		es = append(es, entry{tok, uint32(r)})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].tok < es[j].tok })
	n := len(es)
	out := binary.LittleEndian.AppendUint32(nil, uint32(n))
	off := uint32(0)
	for _, e := range es {
		out = binary.LittleEndian.AppendUint32(out, off)
		off += uint32(len(e.tok))
	}
	out = binary.LittleEndian.AppendUint32(out, off)
	for _, e := range es {
		out = binary.LittleEndian.AppendUint32(out, e.rank)
	}
	for _, e := range es {
		out = append(out, e.tok...)
	}
	if err := os.WriteFile(os.Args[1], out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "o200kgen:", err)
		os.Exit(1)
	}
}
