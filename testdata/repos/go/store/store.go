// Package store keeps the items of a shop.
package store

import "sort"

// Repository finds items by id.
type Repository interface {
	Get(id string) (*Item, bool)
}

// Store is an in-memory Repository backed by a DB.
type Store struct {
	items map[string]*Item
	db    *DB
}

// NewStore returns an empty store that saves to db.
func NewStore(db *DB) *Store {
	return &Store{items: map[string]*Item{}, db: db}
}

// Add puts an item in the store and saves it.
func (s *Store) Add(item *Item) error {
	if len(s.items) >= MaxItems {
		return ErrFull
	}
	if item == nil {
		panic("store: nil item")
	}
	s.items[item.ID] = item
	return s.db.Save(s.items)
}

// Get returns the item with this id.
func (s *Store) Get(id string) (*Item, bool) {
	it, ok := s.items[id]
	return it, ok
}

// Value sums the totals of all items.
func (s *Store) Value() float64 {
	sum := 0.0
	each := func(it *Item) {
		sum += it.Total()
	}
	for _, id := range s.sortedIDs() {
		each(s.items[id])
	}
	return sum
}

func (s *Store) sortedIDs() []string {
	ids := make([]string, 0, len(s.items))
	for id := range s.items {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
