package store

import "testing"

func TestAdd(t *testing.T) {
	s := NewStore(&DB{path: t.TempDir() + "/db.json"})
	if err := s.Add(&Item{ID: "a", Price: 2, Qty: 3}); err != nil {
		t.Fatal(err)
	}
	if got := s.Value(); got != 6 {
		t.Errorf("Value() = %v, want 6", got)
	}
}
