package query_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/query"
)

func symbolID(t *testing.T, x *query.Index, name string) string {
	t.Helper()
	res, err := x.Card(context.Background(), query.CardRequest{SymbolRef: &query.SymbolRef{Name: name}})
	if err != nil {
		t.Fatalf("card %s: %v", name, err)
	}
	return res.(*query.Card).SymbolID
}

func editFile(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, rel)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s lacks %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSliceRefresh: a refresh says notModified while nothing of the slice
// changed, even when other code did, and otherwise returns the delta of
// the slice's symbols only.
func TestSliceRefresh(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	x := h.x
	add := symbolID(t, x, "Store.Add")
	slice, err := x.BuildSlice(ctx, query.SliceRequest{EntrySymbols: []string{add}, Budget: &query.SliceBudget{MaxCards: 4, MaxEstimatedTokens: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	handle := slice.SliceHandle
	inSlice := map[string]bool{}
	for _, c := range slice.Slice.Cards {
		inSlice[c.Name] = true
	}
	if !inSlice["Add"] || !inSlice["Save"] {
		t.Fatalf("the slice of Store.Add holds Add and DB.Save: %v", inSlice)
	}
	refresh := func(known string) *query.RefreshResponse {
		t.Helper()
		r, err := x.RefreshSlice(ctx, query.RefreshRequest{SliceHandle: handle, KnownVersion: known})
		if err != nil {
			t.Fatalf("refresh from %s: %v", known, err)
		}
		if r.SliceHandle != handle || r.KnownVersion != known {
			t.Errorf("refresh echoes handle and version: %+v", r)
		}
		cur, _ := x.Current(ctx)
		if r.CurrentVersion != cur.ID || r.Lease.MinVersion != cur.ID || r.Lease.ExpiresAt == "" {
			t.Errorf("lease not renewed at %s: %+v", cur.ID, r.Lease)
		}
		return r
	}
	if r := refresh("v1"); !r.NotModified || r.Delta != nil {
		t.Fatalf("same version: notModified, got %+v", r)
	}

	// v2: a change outside the slice
	editFile(t, h.root, "broken/broken.go", "func After() int { return Fine() }", "func After() int { return Fine() + 1 }")
	h.index()
	whole, err := x.Delta(ctx, query.DeltaRequest{FromVersion: "v1", ToVersion: "v2"})
	if err != nil || len(whole.Delta.Changes) == 0 {
		t.Fatalf("v1..v2 changes After: %v %+v", err, whole)
	}
	if r := refresh("v1"); !r.NotModified || r.ScopeSymbols == 0 {
		t.Fatalf("nothing of the slice changed in v2: %+v", r.Delta)
	}

	// v3: a change inside it
	editFile(t, h.root, "store/db.go", "return os.WriteFile(d.path, data, 0o644)", "return os.WriteFile(d.path, data, 0o600)")
	h.index()
	r := refresh("v1")
	if r.NotModified || r.Delta == nil {
		t.Fatalf("DB.Save changed: %+v", r)
	}
	names := map[string]string{}
	for _, c := range r.Delta.Changes {
		names[c.Name] = c.Change
	}
	if names["DB.Save"] != query.ChangeModified {
		t.Errorf("the refresh shows DB.Save modified: %v", names)
	}
	if _, ok := names["After"]; ok {
		t.Errorf("the refresh is scoped to the slice, yet shows After: %v", names)
	}
	if r.Delta.FromVersion != "v1" || r.Delta.ToVersion != "v3" {
		t.Errorf("delta %s..%s, want v1..v3", r.Delta.FromVersion, r.Delta.ToVersion)
	}
	if r := refresh("v3"); !r.NotModified {
		t.Errorf("known = current: notModified")
	}
	if r.Scope != "held" {
		t.Errorf("this process built the slice: its symbols are held, got scope %q", r.Scope)
	}
	// another process (a restart, the CLI) builds the slice again at the
	// current version, and sees the same change
	other, err := query.Open(h.db, h.root)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ro, err := other.RefreshSlice(ctx, query.RefreshRequest{SliceHandle: handle, KnownVersion: "v1"})
	if err != nil || ro.Scope != "rebuilt" || ro.Delta == nil {
		t.Fatalf("refresh in another process: %+v %v", ro, err)
	}
	if len(ro.Delta.Changes) != len(r.Delta.Changes) || ro.Delta.Changes[0].Name != "DB.Save" {
		t.Errorf("rebuilt scope: %s; held: %s", listChanges(ro.Delta), listChanges(r.Delta))
	}

	// v4: a new caller of the entry symbol, outside the slice as it was
	if err := os.WriteFile(filepath.Join(h.root, "store", "restock.go"),
		[]byte("package store\n\n// Restock adds an item again.\nfunc Restock(s *Store, it *Item) error { return s.Add(it) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.index()
	r = refresh("v3")
	if r.NotModified || r.Delta == nil || findChange(r.Delta, query.ChangeAdded, "Restock") == nil {
		t.Fatalf("a new caller of the slice: %+v", r.Delta)
	}
	calls := false
	for _, e := range r.Delta.EdgeChanges {
		calls = calls || e.Change == query.ChangeAdded && e.FromName == "Restock" && e.To == add
	}
	if !calls {
		t.Errorf("the new call to Store.Add: %+v", r.Delta.EdgeChanges)
	}

	// v5: the entry symbol goes
	editFile(t, h.root, "store/store.go", "// Add puts an item in the store and saves it.\nfunc (s *Store) Add(item *Item) error {\n\tif len(s.items) >= MaxItems {\n\t\treturn ErrFull\n\t}\n\tif item == nil {\n\t\tpanic(\"store: nil item\")\n\t}\n\ts.items[item.ID] = item\n\treturn s.db.Save(s.items)\n}\n", "")
	h.index()
	r = refresh("v4")
	if r.NotModified || r.Delta == nil {
		t.Fatalf("the entry symbol was removed: %+v", r)
	}
	found := false
	for _, c := range r.Delta.Changes {
		if c.Change == query.ChangeRemoved && c.SymbolID == add {
			found = true
		}
	}
	if !found {
		t.Errorf("removed Store.Add not in the refresh: %+v", r.Delta.Changes)
	}

	if _, err := x.RefreshSlice(ctx, query.RefreshRequest{SliceHandle: "sl_00000000000000000000", KnownVersion: "v1"}); !errors.Is(err, query.ErrHandle) {
		t.Errorf("unknown handle: %v", err)
	}
	if _, err := x.RefreshSlice(ctx, query.RefreshRequest{SliceHandle: handle, KnownVersion: "v99"}); !errors.Is(err, query.ErrInvalid) {
		t.Errorf("unknown version: %v", err)
	}
	if _, err := x.RefreshSlice(ctx, query.RefreshRequest{KnownVersion: "v1"}); !errors.Is(err, query.ErrInvalid) {
		t.Errorf("no handle: %v", err)
	}
}
