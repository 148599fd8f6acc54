package query

import "context"

// ReachForTest exposes the blast radius query to the external tests.
func ReachForTest(x *Index, ctx context.Context, v int64, seeds []string, depth int) (map[string]map[string]int, bool, error) {
	return x.reach(ctx, v, seeds, depth)
}
