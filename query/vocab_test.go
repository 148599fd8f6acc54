package query

import (
	"context"
	"testing"
)

// The stemmer gives each word the term the index's tokenizer makes of it
// (porter over unicode61), and a second batch, stemmed after the table
// was emptied, maps its words to their own terms, not to the first
// batch's rows; so does a batch with a word that is not UTF-8.
func TestStemmer(t *testing.T) {
	ctx := context.Background()
	s := &stemmer{}
	defer func() { s.db.Close() }()
	first := map[string]string{"running": "run", "certificates": "certif", "Über": "uber", "handshake": "handshak",
		"redirecting": "redirect", "http": "http", "x.y": "y"}
	second := map[string]string{"batches": "batch", "ponies": "poni", "running": "run", "decoder": "decod"}
	// a word that is not UTF-8 takes the other way in: the table's bytes
	third := map[string]string{"caresses": "caress", "ab\xffcd": "cd", "generalization": "gener"}
	for i, want := range []map[string]string{first, second, third} {
		var words []string
		for w := range want {
			words = append(words, w)
		}
		words = append(words, "_") // no term
		got, err := s.stem(ctx, words)
		if err != nil {
			t.Fatal(err)
		}
		for w, term := range want {
			if got[w] != term {
				t.Errorf("batch %d: stem(%q) = %q, want %q", i, w, got[w], term)
			}
		}
		if term, ok := got["_"]; ok {
			t.Errorf("batch %d: stem(%q) = %q, want no term", i, "_", term)
		}
	}
}
