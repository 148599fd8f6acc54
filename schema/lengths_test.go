package schema

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestLengthsRoundTrip(t *testing.T) {
	for _, lens := range [][]uint32{
		nil,
		{0, 0, 0},
		{5},
		{0, 127, 128, 16383, 16384, math.MaxInt32, 0, 3, 0, 0},
		func() []uint32 { // a full block, every width
			l := make([]uint32, LengthsBlock)
			for i := range l {
				l[i] = uint32(i * i * 31 % (1 << 22))
			}
			return l
		}(),
	} {
		b := EncodeLengths(lens)
		got := make([]int32, LengthsBlock)
		got[0] = 99 // decoding clears what it does not write
		if err := DecodeLengths(b, got); err != nil {
			t.Fatalf("%v: %v", lens, err)
		}
		want := make([]int32, LengthsBlock)
		for i, v := range lens {
			want[i] = int32(v)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%v: decoded %v", lens, got[:len(lens)])
		}
		// trailing zeros are left out
		if n := len(lens); n > 0 && lens[n-1] == 0 && len(b) > 0 && b[len(b)-1] == 0 {
			t.Errorf("%v: encoded with its trailing zeros: %x", lens, b)
		}
	}
	if b := EncodeLengths([]uint32{0, 0}); len(b) != 0 {
		t.Errorf("a block of no rows is %x, want empty", b)
	}
}

func TestDecodeLengthsRejects(t *testing.T) {
	dst := make([]int32, LengthsBlock)
	for name, b := range map[string][]byte{
		"cut short":     {0x85},
		"past int32":    {0xff, 0xff, 0xff, 0xff, 0x0f},
		"too long":      {0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
		"too many rows": make([]byte, LengthsBlock+1),
	} {
		if err := DecodeLengths(b, dst); !errors.Is(err, ErrLengths) {
			t.Errorf("%s: %v, want ErrLengths", name, err)
		}
	}
}

func TestDocsizeLength(t *testing.T) {
	// three columns: 3, 200 (0x81 0x48), 0; then the next record
	rec := []byte{0x03, 0x81, 0x48, 0x00, 0x07}
	n, size, err := DocsizeLength(rec, 3)
	if err != nil || n != 203 || size != 4 {
		t.Fatalf("got %d, %d bytes, %v; want 203, 4 bytes", n, size, err)
	}
	if _, _, err := DocsizeLength(rec[:2], 3); err == nil {
		t.Error("a record cut short decoded")
	}
	// the ninth byte of a varint is whole: past int32
	big := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	if _, _, err := DocsizeLength(big, 1); err == nil {
		t.Error("a length past int32 decoded")
	}
}

// FuzzDecodeLengths: any bytes decode or fail with ErrLengths, never
// panic; what decodes encodes back to bytes that decode the same.
func FuzzDecodeLengths(f *testing.F) {
	f.Add(EncodeLengths([]uint32{1, 2, 300, 0, 70000}))
	f.Add([]byte{0x80})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, b []byte) {
		dst := make([]int32, LengthsBlock)
		if err := DecodeLengths(b, dst); err != nil {
			if !errors.Is(err, ErrLengths) {
				t.Fatalf("%x: %v", b, err)
			}
			return
		}
		lens := make([]uint32, LengthsBlock)
		for i, v := range dst {
			if v < 0 {
				t.Fatalf("%x: row %d is %d", b, i, v)
			}
			lens[i] = uint32(v)
		}
		again := make([]int32, LengthsBlock)
		if err := DecodeLengths(EncodeLengths(lens), again); err != nil || !slices.Equal(again, dst) {
			t.Fatalf("%x: re-encoded decodes to another block (%v)", b, err)
		}
	})
}
