package main

import (
	"math"
	"testing"
)

// An index run's memory limit is GOGC 100's goal (twice the live heap)
// once that passes the floor, and never above indexMemoryLimit: a tree
// whose live heap is large collects as it did at GOGC 100.
func TestHeapLimit(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, indexHeapFloor},
		{indexHeapFloor / 2, indexHeapFloor},
		{indexHeapFloor/2 + 1, indexHeapFloor + 2},
		{400 << 20, 800 << 20},
		{indexMemoryLimit / 2, indexMemoryLimit},
		{indexMemoryLimit, indexMemoryLimit},
		{math.MaxUint64, indexMemoryLimit},
	} {
		if got := heapLimit(c.live); got != c.want {
			t.Errorf("heapLimit(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}
