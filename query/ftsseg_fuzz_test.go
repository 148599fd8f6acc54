package query

import "testing"

// FuzzDecodeStructure: the structure record comes from an index file, which
// teams share and commit; whatever it holds, decoding returns segments or
// errSegmentFormat, and never panics or sizes an allocation by a count it
// read (a hostile level count did, before ftsMaxLevel).
func FuzzDecodeStructure(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 1, 1, 5, 0, 1, 3, 1, 4})
	f.Add([]byte{0, 0, 0, 1, 0xff, 0, 0, 1, 1, 1, 5, 0, 1, 3, 1, 4, 0, 0, 0, 0, 0})
	// a level count of 2^56: once a panic in make
	f.Add([]byte{0, 0, 0, 1, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0, 1, 0})
	f.Fuzz(func(t *testing.T, rec []byte) {
		st, err := decodeStructure(rec)
		if err != nil {
			if err != errSegmentFormat {
				t.Fatalf("error %v, want errSegmentFormat", err)
			}
			return
		}
		for _, s := range st.segs {
			if s.id <= 0 || s.first <= 0 || s.last < s.first || s.tombPages < 0 {
				t.Fatalf("segment %+v accepted", *s)
			}
		}
	})
}

// FuzzDoclistPage: a leaf page read from an index file, searched for a
// term and its doclist decoded, gives segments' entries or
// errSegmentFormat, never a panic.
func FuzzDoclistPage(f *testing.F) {
	// szLeaf 12: a term "ab" at offset 4 with a doclist, the footer
	// pointing at it
	f.Add([]byte{0, 4, 0, 12, 2, 'a', 'b', 1, 0, 0, 0, 0, 4}, []byte("ab"))
	// a term length of -1 (a nine-byte varint) where a page's first term is
	f.Add([]byte{0, 4, 0, 14, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 4}, []byte("ab"))
	f.Fuzz(func(t *testing.T, p, key []byte) {
		n := 0
		for _, found := range []bool{false, true} {
			d := &doclistDecoder{instances: &n, found: found}
			if _, err := d.page(p, key); err != nil && err != errSegmentFormat {
				t.Fatalf("error %v, want errSegmentFormat", err)
			}
		}
	})
}
