package query

import "context"

// ReachForTest exposes the blast radius query to the external tests.
func ReachForTest(x *Index, ctx context.Context, v int64, seeds []string, depth int) (map[string]map[string]int, bool, error) {
	return x.reach(ctx, v, seeds, depth)
}

// ReachPlanForTest is the query plan of the blast radius query at version v.
func ReachPlanForTest(x *Index, ctx context.Context, v int64) ([]string, error) {
	rows, err := x.DB.QueryContext(ctx, "EXPLAIN QUERY PLAN "+reachQuery, `["x"]`, v, 4, reachLimit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			return nil, err
		}
		out = append(out, detail)
	}
	return out, rows.Err()
}
