package store

import (
	"errors"
	"fmt"
)

// MaxItems is how many items a store holds.
const MaxItems = 100

// ErrFull is returned when the store holds MaxItems items.
var ErrFull = errors.New("store: full")

// Item is a line in the catalogue.
type Item struct {
	ID    string
	Name  string
	Price float64
	Qty   int
}

// Total is the price of all units of the item.
func (i *Item) Total() float64 {
	return i.Price * float64(i.Qty)
}

// String renders the item for logs.
func (i *Item) String() string {
	return fmt.Sprintf("%s x%d", i.Name, i.Qty)
}
