package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpillSameIndex: a build that spills every file's parse results to
// disk writes the same bytes as one that keeps them in memory.
func TestSpillSameIndex(t *testing.T) {
	for _, dir := range fixtures(t) {
		mem := indexFixture(t, dir)
		opts := testOptions(dir, filepath.Join(t.TempDir(), "spill.db"))
		opts.MemoryBudget = 1
		var trace strings.Builder
		opts.Trace = &trace
		if _, err := Run(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(mem)
		b, _ := os.ReadFile(opts.DB)
		if string(a) != string(b) {
			t.Errorf("%s: spilling changed the index", dir)
		}
		if !strings.Contains(trace.String(), "spilled") {
			t.Errorf("%s: nothing was spilled: %s", dir, trace.String())
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(opts.DB), "sdl-spill-*")); len(left) > 0 {
			t.Errorf("spill files left: %v", left)
		}
	}
}
