//go:build !unix

package index

import "context"

// lockIndex is a no-op where flock is not available; one writer at a time
// is then the user's to ensure.
func lockIndex(ctx context.Context, db string) (func(), error) { return func() {}, nil }

func processAlive(pid int) bool { return false }
