package index

import (
	"context"
	"os"
	"path/filepath"
	"sort"

	"github.com/sdl-dev/sdl/schema"
)

// Freshness compares the working tree with the current version of an
// index: the files added, changed and removed since it was written.
type Freshness struct {
	Checked int      `json:"checkedFiles"`
	Added   []string `json:"addedFiles"`
	Changed []string `json:"changedFiles"`
	Removed []string `json:"removedFiles"`
	Fresh   bool     `json:"fresh"`
}

// CheckFreshness walks root as an index run would and hashes the files it
// would index, against the current version of the index at db.
func CheckFreshness(ctx context.Context, root, db string, walk WalkOptions) (*Freshness, error) {
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	olds, err := loadFiles(ctx, tx)
	if err != nil {
		return nil, err
	}
	entries, err := Walk(ctx, root, walk)
	if err != nil {
		return nil, err
	}
	f := &Freshness{Added: []string{}, Changed: []string{}, Removed: []string{}}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Path] = true
		o := olds[e.Path]
		if e.Skip != "" {
			if o == nil {
				f.Added = append(f.Added, e.Path)
			}
			continue
		}
		f.Checked++
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.Path)))
		switch {
		case o == nil:
			f.Added = append(f.Added, e.Path)
		case err != nil || ContentHash(data) != o.hash:
			f.Changed = append(f.Changed, e.Path)
		}
	}
	for p := range olds {
		if !seen[p] {
			f.Removed = append(f.Removed, p)
		}
	}
	sort.Strings(f.Removed)
	f.Fresh = len(f.Added)+len(f.Changed)+len(f.Removed) == 0
	return f, nil
}
