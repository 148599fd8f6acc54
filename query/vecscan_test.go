package query

import (
	"math"
	"math/rand"
	"testing"
)

// TestCosineInt8 checks the unrolled sums against one product at a time,
// at every length around the unrolling and at the extremes of int8.
func TestCosineInt8(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 20; trial++ {
			a, q8 := make([]byte, n), make([]int8, n)
			for i := range a {
				a[i], q8[i] = byte(r.Intn(256)), int8(r.Intn(256)-128)
				if trial == 0 { // the largest sums
					a[i], q8[i] = 0x80, -128
				}
			}
			q := newQuestion(q8)
			var dot, aa int32
			for i := range a {
				dot += int32(int8(a[i])) * int32(q8[i])
				aa += int32(int8(a[i])) * int32(int8(a[i]))
			}
			if got := dotInt8(a, q.q); got != dot {
				t.Fatalf("n=%d: dot %d, want %d", n, got, dot)
			}
			if got := sumSquares(a); got != aa {
				t.Fatalf("n=%d: sum of squares %d, want %d", n, got, aa)
			}
			want := float32(1 - float64(dot)/(math.Sqrt(float64(aa))*math.Sqrt(float64(q.qq))))
			if got := cosineInt8(a, q.q, q.qq); got != want && !(got != got && want != want) {
				t.Fatalf("n=%d: distance %v, want %v", n, got, want)
			}
		}
	}
}
