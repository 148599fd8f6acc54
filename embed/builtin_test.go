package embed_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/sdl-dev/sdl/embed"
)

func builtin(t testing.TB) *embed.Builtin {
	t.Helper()
	m, err := embed.Default()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// vectorHash hashes the bits of a vector.
func vectorHash(v []float32) string {
	h := sha256.New()
	for _, x := range v {
		binary.Write(h, binary.LittleEndian, math.Float32bits(x))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func cosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot
}

// shippedTable is the table the expected vectors below belong to.
const shippedTable = "builtin/sdl-code-1@f9a1fea7"

// The same text gives the same bits on every run and machine: the sums are
// integers, and the only floating-point steps are exactly rounded. The
// expected hashes belong to the shipped table; retraining it (make
// embed-model) changes them, and this test prints the new ones.
func TestBuiltinDeterministic(t *testing.T) {
	m := builtin(t)
	want := map[string]string{
		"retry the request after a timeout":                   "eea17b26c1e003e8",
		"func (c *Client) Login(user, password string) error": "9735a9cbafc7f9d9",
	}
	for text, h := range want {
		v := m.TextVector(text)
		if len(v) != m.Dim() {
			t.Fatalf("%q: %d dimensions, want %d", text, len(v), m.Dim())
		}
		if again := m.TextVector(text); vectorHash(again) != vectorHash(v) {
			t.Errorf("%q: two runs differ", text)
		}
		if got := vectorHash(v); m.ID() == shippedTable && got != h {
			t.Errorf("%q: vector hash %s, want %s", text, got, h)
		}
		if n := cosine(v, v); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm² %f, want 1", text, n)
		}
	}
	// a document's vector is as stable
	d := embed.Doc{Name: "Login", Container: "Client", Kind: "method", Signature: "func (c *Client) Login(user, password string) error",
		Doc: "Login authenticates the user.", Path: "auth/client.go", Body: []string{"hashPassword", "session"}}
	if got := vectorHash(m.DocVector(&d)); m.ID() == shippedTable && got != "a3ef8cbd1240c59e" {
		t.Errorf("document vector hash %s", got)
	}
}

// The table must know that words of one concern are near: what a lexical
// lane cannot see.
func TestBuiltinNeighbours(t *testing.T) {
	m := builtin(t)
	pairs := [][2]string{{"login", "authenticate"}, {"timeout", "deadline"}, {"mutex", "lock"}, {"encrypt", "decrypt"},
		{"delete", "remove"}, {"compress", "decompress"}, {"parse", "parsing"}, {"thread", "goroutine"}}
	unrelated := []string{"compress", "pixel", "matrix", "calendar"}
	for _, p := range pairs {
		near := m.Similarity(p[0], p[1])
		if near < 0.3 {
			t.Errorf("%s ~ %s: cosine %.2f, want at least 0.3 (neighbours of %s: %v)", p[0], p[1], near, p[0], m.Neighbours(p[0], 10))
		}
		for _, u := range unrelated {
			if u == p[0] || u == p[1] {
				continue
			}
			if far := m.Similarity(p[0], u); far >= near {
				t.Errorf("%s is as near to %s (%.2f) as to %s (%.2f)", p[0], u, far, p[1], near)
			}
		}
	}
	if nn := m.Neighbours("login", 10); !slices.Contains(nn, "authenticate") && !slices.Contains(nn, "password") {
		t.Errorf("neighbours of login: %v", nn)
	}
	if m.Neighbours("no-such-token", 5) != nil || m.Similarity("login", "no-such-token") != 0 {
		t.Errorf("an unknown token has neighbours")
	}
}

// A question finds the code that does what it asks with none of its words.
func TestBuiltinRanksCodeByMeaning(t *testing.T) {
	m := builtin(t)
	docs := []embed.Doc{
		{Name: "CheckCredentials", Kind: "function", Signature: "func CheckCredentials(username, password string) bool",
			Doc: "CheckCredentials verifies a username and password against the user store.", Body: []string{"bcrypt", "CompareHashAndPassword"}},
		{Name: "Gzip", Kind: "function", Signature: "func Gzip(w io.Writer, data []byte) error",
			Doc: "Gzip writes data compressed.", Body: []string{"NewWriter", "Close"}},
		{Name: "WaitForExpiry", Kind: "function", Signature: "func WaitForExpiry(ctx context.Context, d time.Duration) error",
			Doc: "WaitForExpiry blocks until the deadline passes or ctx is cancelled.", Body: []string{"NewTimer", "Stop"}},
	}
	vs, err := m.EmbedDocs(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{"log in with a user account": 0, "shrink the payload size before sending": 1, "give up after a timeout": 2} {
		qv, _ := m.EmbedQuery(context.Background(), q)
		best, bestSim := -1, -2.0
		for i, v := range vs {
			if s := cosine(qv, v); s > bestSim {
				best, bestSim = i, s
			}
		}
		if best != want {
			t.Errorf("%q: nearest is %s, want %s", q, docs[best].Name, docs[want].Name)
		}
	}
}

func TestBuiltinEmptyAndUnknown(t *testing.T) {
	m := builtin(t)
	if v := m.TextVector(""); v != nil {
		t.Errorf("empty text has a vector")
	}
	if v := m.TextVector("zzqxj qqzzv 12345 a b c"); v != nil {
		t.Errorf("unknown words have a vector")
	}
	if v := m.DocVector(&embed.Doc{Name: "zzqxj"}); v != nil {
		t.Errorf("a document of unknown words has a vector")
	}
}

// EmbedDocs runs on all CPUs; its answers are those of DocVector, in
// order.
func TestBuiltinEmbedDocsInOrder(t *testing.T) {
	m := builtin(t)
	var docs []embed.Doc
	for i := 0; i < 300; i++ {
		docs = append(docs, embed.Doc{Name: fmt.Sprintf("handle%dRequest", i%7), Doc: []string{"parse the config", "retry later", "close the file"}[i%3]})
	}
	vs, err := m.EmbedDocs(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range docs {
		if vectorHash(vs[i]) != vectorHash(m.DocVector(&docs[i])) {
			t.Fatalf("document %d differs", i)
		}
	}
}

func TestParseBuiltinRejectsBadTables(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":     nil,
		"magic":     []byte("NOTATABLE\x00\x00\x00\x00\x00\x00\x00\x00"),
		"header":    append([]byte(embed.BuiltinMagic), 0, 0, 0, 0, 8, 0, 0, 0),
		"truncated": append([]byte(embed.BuiltinMagic), 1, 0, 0, 0, 4, 0, 0, 0, 2, 'a', 'b', 1, 0),
		"trailing":  append([]byte(embed.BuiltinMagic), 1, 0, 0, 0, 1, 0, 0, 0, 1, 'a', 1, 0, 1, 0, 5, 9),
	} {
		if _, err := embed.ParseBuiltin(data); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzParseBuiltin(f *testing.F) {
	f.Add(append([]byte(embed.BuiltinMagic), 1, 0, 0, 0, 1, 0, 0, 0, 1, 'a', 1, 0, 1, 0, 5))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := embed.ParseBuiltin(data)
		if err != nil {
			return
		}
		m.TextVector("a b c")
	})
}
