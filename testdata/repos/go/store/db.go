package store

import (
	"encoding/json"
	"os"
)

// DB persists items as JSON in one file.
type DB struct {
	path string
}

// Open opens the database named by SHOP_DB, or path when it is unset.
func Open(path string) (*DB, error) {
	if env := os.Getenv("SHOP_DB"); env != "" {
		path = env
	}
	return &DB{path: path}, nil
}

// Save writes all items to disk.
func (d *DB) Save(items map[string]*Item) error {
	data, err := json.Marshal(items)
	if err != nil {
		return err
	}
	return os.WriteFile(d.path, data, 0o644)
}
