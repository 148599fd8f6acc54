package query_test

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer"

	"github.com/sdl-dev/sdl/query"
)

// codecCount is the tokenizer library's own count, which Tokens must equal.
func codecCount(t testing.TB, s string) int {
	n, err := o200k(t).Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func o200k(t testing.TB) tokenizer.Codec {
	c, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// o200kSplit is the codec's pre-tokenizer (tokenizer/codec/o200k_base.go);
// the same pattern compiles to the code the codec runs.
var o200kSplit = regexp2.MustCompile(`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`, regexp2.None)

// checkTokens compares Tokens with the codec: the same count, and the
// same pieces as the codec's split.
func checkTokens(t testing.TB, name, s string) {
	t.Helper()
	if got, want := query.Tokens(s), codecCount(t, s); got != want {
		t.Errorf("%s: Tokens = %d, the codec counts %d (%q)", name, got, want, trim(s))
	}
	if !utf8.ValidString(s) {
		return
	}
	var want []string
	m, err := o200kSplit.FindStringMatch(s)
	for err == nil && m != nil {
		want = append(want, m.String())
		m, err = o200kSplit.FindNextMatch(m)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got := query.SplitTokensForTest(s); !slices.Equal(got, want) {
		t.Errorf("%s: split into %q, the codec into %q", name, trim(fmt.Sprint(got)), trim(fmt.Sprint(want)))
	}
}

var tokenEdgeCases = []string{
	"", " ", "  ", "\n", "\r\n", " \n ", "\t\t\n\n  \r\n x", "a  b", "a   ", "x \u00a0\u2003y", "   \u3000",
	"don't", "DON'T", "they're", "we've", "I'm", "she'll", "he'd", "it's", "IT'S", "x'ſ", "x'Ll", "x're'", "'s", "a'",
	"HTTPServer", "parseHTTPResponse", "ALLCAPS", "camelCaseWord", "snake_case_word", "Ǆemal", "ǅx", "ʰmodifier",
	"e\u0301t\u0301", "\u0301\u0301a", "-\u0301", "x\u0301Y", "日本語のテキスト", "한국어 텍스트", "العربية", "Ωmega ωmega",
	"1234567", "١٢٣٤", "Ⅻ½3", "a1b2", "v1.2.3", "0x7fFF",
	" {\"key\": [1, 2]}", "//go:build", "a /// b", "x\n\n/", "=>\r\n/", " ..../\n", "\r \n", "a \r\n \n\tb", "\n\n\r ", "\x7f", "a\x7fb", " \x7f ", "\x7fhello world", "x=\x7f!", "\x00\x01\x1f",
	"\u2028line\u2029", "\u0085next", "tab\tafter", "emoji 🎉🎉 end", "mixed🎉word", "\ufeffbom",
	"bad \xff\xfe bytes", "\xe2\x82 cut", "x\xc3",
	// pieces longer than a cache entry, byte-pair encoded whole
	strings.Repeat("=", 300), strings.Repeat(" ", 1000) + "x", strings.Repeat("aGVsbG8gd29ybGQ", 40), strings.Repeat("ab", 5000),
}

func TestTokensMatchCodec(t *testing.T) {
	check := func(name, s string) {
		t.Helper()
		checkTokens(t, name, s)
	}
	for i, s := range tokenEdgeCases {
		check("edge case "+string(rune('A'+i%26)), s)
		check("edge case twice", s+s)
	}
	// every source file of the fixtures, whole and in random cuts
	rng := rand.New(rand.NewSource(1))
	n := 0
	err := filepath.WalkDir("../testdata/repos", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := string(b)
		check(p, s)
		for k := 0; k < 5 && len(s) > 0; k++ {
			i := rng.Intn(len(s))
			j := i + rng.Intn(len(s)-i+1)
			check(p+" (cut)", s[i:j])
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("only %d fixture files compared", n)
	}
	// answers are JSON
	check("json", string(query.EncodeJSON(map[string]any{"cards": tokenEdgeCases, "n": 12, "why": "matches the task text"})))
}

// TestO200kTableIsTheCodecs checks the embedded vocabulary (o200k.bin,
// go generate ./query/) against the tokenizer module's: every token at
// its rank, no other, each found by the lookup Tokens uses.
func TestO200kTableIsTheCodecs(t *testing.T) {
	table := query.O200kTableForTest()
	c := o200k(t)
	n := 0
	for r := uint(0); r < 1<<20; r++ {
		tok, err := c.Decode([]uint{r})
		if err != nil {
			continue // no token has this id
		}
		n++
		if got, ok := table[uint32(r)]; !ok || got != tok {
			t.Fatalf("rank %d: table has %q, the codec %q", r, got, tok)
		}
		if got, ok := query.O200kRankForTest(tok); !ok || got != uint32(r) {
			t.Fatalf("lookup of %q = %d, %v; want rank %d", tok, got, ok, r)
		}
	}
	if n < 190000 || n != len(table) {
		t.Fatalf("the codec has %d tokens, the table %d", n, len(table))
	}
	if _, ok := query.O200kRankForTest("not a token at all, surely"); ok {
		t.Fatal("a text that is no token was found")
	}
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func FuzzTokens(f *testing.F) {
	for _, s := range tokenEdgeCases {
		f.Add(s)
	}
	f.Add(strings.Repeat("ab'cd ", 10))
	f.Fuzz(func(t *testing.T, s string) {
		checkTokens(t, "fuzz", s)
	})
}
