package query

import "context"

// KNNForTest runs the vector lane's vec0 query alone and returns how many
// symbols it found, for benchmarks.
func (x *Index) KNNForTest(ctx context.Context, q []int8, k int) (int, error) {
	hits, err := x.knn(ctx, q, k)
	return len(hits), err
}
