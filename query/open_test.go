package query_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/sdl-dev/sdl/query"
)

// TestOpenOnce: a terminal command's reader maps none of the file, a
// server's maps it, and both answer the same slice.
func TestOpenOnce(t *testing.T) {
	ctx := context.Background()
	x := hotRepo(t)
	y, err := query.OpenOnce(x.Path, x.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	for _, c := range []struct {
		x    *query.Index
		want int64
	}{{x, 1 << 30}, {y, 0}} {
		var n int64
		if err := c.x.DB.QueryRowContext(ctx, `PRAGMA mmap_size`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != c.want {
			t.Errorf("mmap_size = %d, want %d", n, c.want)
		}
	}
	cards := func(x *query.Index) []string {
		r, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "lookup the cache entry"})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, c := range r.Slice.Cards {
			ids = append(ids, c.SymbolID)
		}
		return ids
	}
	a, b := cards(x), cards(y)
	if len(a) == 0 || !reflect.DeepEqual(a, b) {
		t.Errorf("mapped reader's slice %v, unmapped reader's %v", a, b)
	}
}
