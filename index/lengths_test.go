package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/schema"
)

// lengthsTree writes a Go package of files*perFile functions, each file's
// functions calling the next file's, their names and files' with prefix.
func lengthsTree(t *testing.T, root, prefix string, files, perFile int) {
	for f := range files {
		var b strings.Builder
		b.WriteString("package big\n\n")
		for i := range perFile {
			// bodies of different lengths: each function its own length
			fmt.Fprintf(&b, "// %s%d_%d does thing %d.\nfunc %s%d_%d(a int) int {\n\treturn %s%d_%d(a)%s\n}\n\n",
				prefix, f, i, i, prefix, f, i, prefix, (f+1)%files, i, strings.Repeat(" + a", i%7))
		}
		writeFile(t, root, fmt.Sprintf("big/%s%02d.go", strings.ToLower(prefix), f), b.String())
	}
}

// TestLengthsMatchFull follows symbol_lengths over more than one block
// through the runs that change the full-text rows (touch, edit, a rename
// used across files, delete, and a switch that replaces every symbol and
// so empties the first block), each against a full build of the same tree.
func TestLengthsMatchFull(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "repo")
	const files, perFile = 24, 200 // 4,800 functions: two blocks
	lengthsTree(t, root, "F", files, perFile)
	db := filepath.Join(t.TempDir(), "inc.db")
	if _, err := Run(ctx, testOptions(root, db)); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func(t *testing.T, r string)
	}{
		{"touch", func(t *testing.T, r string) {
			p := filepath.Join(r, "big/f03.go")
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(p, later, later); err != nil {
				t.Fatal(err)
			}
		}},
		{"edit a body", func(t *testing.T, r string) {
			replaceIn(t, r, "big/f05.go", "return F6_3(a) + a + a + a\n", "return F6_3(a) + a*a + extra(a, a)\n")
		}},
		{"rename a function used across files", func(t *testing.T, r string) {
			for f := range files {
				p := fmt.Sprintf("big/f%02d.go", f)
				b, err := os.ReadFile(filepath.Join(r, p))
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, r, p, strings.ReplaceAll(string(b), "F7_", "Renamed7_"))
			}
		}},
		{"delete a file", func(t *testing.T, r string) {
			if err := os.Remove(filepath.Join(r, "big/f11.go")); err != nil {
				t.Fatal(err)
			}
		}},
		{"switch to a branch where every symbol differs", func(t *testing.T, r string) {
			if err := os.RemoveAll(filepath.Join(r, "big")); err != nil {
				t.Fatal(err)
			}
			lengthsTree(t, r, "G", files+2, perFile)
		}},
	}
	for _, step := range steps {
		step.do(t, root)
		if _, err := Run(ctx, testOptions(root, db)); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		if _, err := Run(ctx, testOptions(root, fresh)); err != nil {
			t.Fatal(err)
		}
		for _, part := range []string{"symbols", "lengths"} {
			got, want := string(dump(t, db, part)), string(dump(t, fresh, part))
			if got != want {
				t.Errorf("%s: incremental %s differ from a fresh index:\n%s", step.name, part, lineDiff(want, got))
			}
		}
	}
	// the switch closed every row of the first block: it is gone, and the
	// new rows went to blocks of their own
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	blocks := query(t, conn, `SELECT group_concat(block, ',') FROM (SELECT block FROM symbol_lengths ORDER BY block)`)
	if got := blocks[0][0]; got != "1,2" {
		t.Errorf("blocks after the switch: %s, want 1,2", got)
	}
}
