package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestIncrementalQualifierTypes edits the function or type a method call's
// qualifier takes its type from (s := NewStore(); s.Add(), s: Store), in a
// file other than the caller's and leaving the called method untouched:
// after each step the incrementally maintained edges must equal those of
// a fresh index of the same tree.
func TestIncrementalQualifierTypes(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		steps []edit
	}{
		{"go", map[string]string{
			"go.mod":   "module example.com/q\n\ngo 1.22\n",
			"store.go": "package main\n\n// Store is declared apart from its methods.\ntype Store struct{}\n",
			"types.go": "package main\n\nfunc (s *Store) Add(x int) {}\n\n" +
				"type Other struct{}\n\nfunc (o *Other) Add(x int) {}\n",
			"ctor.go": "package main\n\nfunc NewStore() *Store { return &Store{} }\n\ntype Box = Store\n",
			"main.go": "package main\n\nfunc main() {\n\ts := NewStore()\n\ts.Add(1)\n\tNewStore().Add(2)\n\trun(nil)\n}\n\n" +
				"func run(b *Box) {\n\tb.Add(3)\n}\n",
		}, []edit{
			{"change the constructor's return type", func(t *testing.T, r string) {
				replaceIn(t, r, "ctor.go", "func NewStore() *Store { return &Store{} }", "func NewStore() *Other { return &Other{} }")
			}, nil},
			{"retarget a type alias", func(t *testing.T, r string) {
				replaceIn(t, r, "ctor.go", "type Box = Store", "type Box = Other")
			}, nil},
			{"delete the constructor", func(t *testing.T, r string) {
				replaceIn(t, r, "ctor.go", "func NewStore() *Other { return &Other{} }", "")
			}, nil},
			{"delete the alias's file", func(t *testing.T, r string) {
				if err := os.Remove(filepath.Join(r, "ctor.go")); err != nil {
					t.Fatal(err)
				}
			}, nil},
			{"bring the constructor back", func(t *testing.T, r string) {
				writeFile(t, r, "ctor.go", "package main\n\nfunc NewStore() *Store { return &Store{} }\n\ntype Box = Store\n")
			}, nil},
			{"delete the type the constructor returns", func(t *testing.T, r string) {
				replaceIn(t, r, "store.go", "type Store struct{}\n", "")
			}, nil},
		}},
		{"python", map[string]string{
			"models.py":  "class Store:\n    def add(self, x):\n        pass\n\n\nclass Other:\n    def add(self, x):\n        pass\n",
			"factory.py": "from models import Store, Other\n\n\ndef new_store() -> Store:\n    return Store()\n",
			"app.py":     "from factory import new_store\n\n\ndef main():\n    s = new_store()\n    s.add(1)\n    new_store().add(2)\n",
		}, []edit{
			{"change the constructor's return type", func(t *testing.T, r string) {
				replaceIn(t, r, "factory.py", "def new_store() -> Store:\n    return Store()", "def new_store() -> Other:\n    return Other()")
			}, nil},
			{"delete the constructor", func(t *testing.T, r string) {
				replaceIn(t, r, "factory.py", "def new_store() -> Other:\n    return Other()\n", "")
			}, nil},
			{"bring the constructor back", func(t *testing.T, r string) {
				writeFile(t, r, "factory.py", "from models import Store, Other\n\n\ndef new_store() -> Store:\n    return Store()\n")
			}, nil},
			{"rename the class the constructor returns", func(t *testing.T, r string) {
				replaceIn(t, r, "models.py", "class Store:", "class Shop:")
			}, nil},
		}},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "repo")
			for p, s := range c.files {
				writeFile(t, root, p, s)
			}
			db := filepath.Join(t.TempDir(), "inc.db")
			if _, err := Run(ctx, testOptions(root, db)); err != nil {
				t.Fatal(err)
			}
			before := string(dump(t, db, "edges"))
			for i, step := range c.steps {
				step.do(t, root)
				if _, err := Run(ctx, testOptions(root, db)); err != nil {
					t.Fatalf("step %d (%s): %v", i, step.name, err)
				}
				fresh := filepath.Join(t.TempDir(), "fresh.db")
				if _, err := Run(ctx, testOptions(root, fresh)); err != nil {
					t.Fatal(err)
				}
				got, want := string(dump(t, db, "edges")), string(dump(t, fresh, "edges"))
				if got != want {
					t.Errorf("step %d (%s): incremental edges differ from a fresh index:\n%s", i, step.name, lineDiff(want, got))
				}
				if i == 0 && want == before {
					t.Errorf("step 0 (%s) moved no edge: the fixture does not test what it means to", step.name)
				}
			}
		})
	}
}
