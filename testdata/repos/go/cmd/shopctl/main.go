// Command shopctl adds an item to the shop.
package main

import (
	"fmt"
	"os"

	"example.com/shop/store"
)

func main() {
	db, err := store.Open("shop.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := store.NewStore(db)
	item := &store.Item{ID: os.Args[1], Name: os.Args[2], Qty: 1}
	if err := s.Add(item); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(item, s.Value())
}
