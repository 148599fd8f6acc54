package main

import (
	"math"
	"runtime"
	"runtime/debug"
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

// After a collection finds a live heap above half the floor, the limit
// is twice that heap: the collector follows it (a finalizer re-armed on
// every collection), so a large tree does not collect without pause.
// The follower stays on for the rest of the test process: the limit it
// keeps is at least the floor, and GOGC is not changed here.
func TestFollowLiveHeap(t *testing.T) {
	followLiveHeap()
	// collections until one has run the follower on a small heap (the
	// limit is process-wide: a run before this one may have left it high)
	for i := 0; i < 100 && debug.SetMemoryLimit(-1) != indexHeapFloor; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if got := debug.SetMemoryLimit(-1); got != indexHeapFloor {
		t.Fatalf("limit with a small heap = %d MB, want the floor %d MB", got>>20, indexHeapFloor>>20)
	}
	const live = indexHeapFloor/(2<<20) + 50 // MB
	held := make([][]byte, live)
	for i := range held {
		held[i] = make([]byte, 1<<20)
	}
	// the finalizer runs after the collection, on its own goroutine; a
	// collection during the allocations above saw only part of the heap
	// (CI saw 384 MB), so wait for one that sees all of it
	for i := 0; i < 100 && debug.SetMemoryLimit(-1) < 2*live<<20; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if got := debug.SetMemoryLimit(-1); got < 2*live<<20 || got > indexMemoryLimit {
		t.Errorf("limit with %d MB live = %d MB, want at least %d MB", live, got>>20, 2*live)
	}
	runtime.KeepAlive(held)
}
