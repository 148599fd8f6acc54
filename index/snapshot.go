package index

import (
	"context"
	"fmt"
	"os"

	"modernc.org/sqlite"

	"github.com/sdl-dev/sdl/schema"
)

// Snapshot copies a consistent image of the index at src to dst (which
// is replaced) with SQLite's online backup, while writers may be adding a
// version. A scratch copy lets a server index unsaved buffers without
// touching the shared file.
func Snapshot(ctx context.Context, src, dst string) (err error) {
	db, err := schema.OpenReadOnly(src)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, p := range []string{dst, dst + "-wal", dst + "-shm"} {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("snapshot: %w", err)
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", src, err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		b, ok := dc.(interface {
			NewBackup(string) (*sqlite.Backup, error)
		})
		if !ok {
			return fmt.Errorf("the sqlite driver has no backup")
		}
		bk, err := b.NewBackup(dst)
		if err != nil {
			return err
		}
		for more := true; more; {
			if err := ctx.Err(); err != nil {
				bk.Finish()
				return err
			}
			if more, err = bk.Step(4096); err != nil {
				bk.Finish()
				return err
			}
		}
		return bk.Finish()
	})
	if err != nil {
		os.Remove(dst)
		return classifyWriteError(fmt.Errorf("snapshot %s: %w", src, err), dst)
	}
	return nil
}
