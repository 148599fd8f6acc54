package index

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
)

// TestParseWorkerReuse parses a file on a worker that parsed a larger one
// first (its read buffer, row scratch and the extraction's scratch used)
// and on a new worker: the results, rows and edges are the same.
func TestParseWorkerReuse(t *testing.T) {
	dir := t.TempDir()
	var big strings.Builder
	big.WriteString("package big\n\nimport \"strings\"\n\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&big, "// LongName%d trims %q.\nfunc LongName%d(someValue string) string {\n"+
			"\treturn strings.TrimSpace(someValue) + helperFunc%d(\"word%d\")\n}\n\n", i, "x", i, i, i)
	}
	small := "package small\n\n// Thing is a thing.\ntype Thing struct{ count int }\n\n" +
		"// Count counts.\nfunc (t *Thing) Count() int { return t.count + otherHelper(\"n\") }\n"
	for p, src := range map[string]string{"a/big.go": big.String(), "b/small_file.go": small} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tree := dirTree{dir}
	walk := WalkOptions{MaxFileSize: DefaultMaxFileSize}
	parse := func(w *parseWorker, p string) *fileResult {
		e := Entry{Path: p, Lang: lang.ForPath(p)}
		r := parseOne(w, tree, nil, &e, walk, nil)
		if r.status != StatusOK {
			t.Fatalf("%s: %s %s", p, r.status, r.reason)
		}
		return r
	}
	newWorker := func() *parseWorker { return &parseWorker{p: lang.NewParser(), rows: newRowScratch()} }
	fresh := newWorker()
	defer fresh.p.Close()
	want := parse(fresh, "b/small_file.go")
	used := newWorker()
	defer used.p.Close()
	if r := parse(used, "a/big.go"); len(r.rows) < 200 {
		t.Fatalf("the large file made %d rows", len(r.rows))
	}
	got := parse(used, "b/small_file.go")
	if !reflect.DeepEqual(got.rows, want.rows) {
		t.Errorf("rows after a larger file:\n%+v\nwant:\n%+v", got.rows, want.rows)
	}
	if !reflect.DeepEqual(got.facts, want.facts) || got.hash != want.hash || got.lines != want.lines {
		t.Errorf("facts after a larger file differ:\n%+v\nwant:\n%+v", got.facts, want.facts)
	}
	// the same file's edges again: every key of the scratch's last file
	// comes back
	sc := &edgeScratch{}
	fileEdges(parse(used, "a/big.go"), newMemTable(newFileSet()), nil, sc)
	fileEdges(got, newMemTable(newFileSet()), nil, sc)
	gotEdges := fileEdges(got, newMemTable(newFileSet()), nil, sc)
	if wantEdges := fileEdges(want, newMemTable(newFileSet()), nil, nil); len(wantEdges) == 0 || !reflect.DeepEqual(gotEdges, wantEdges) {
		t.Errorf("edges after a larger file:\n%+v\nwant:\n%+v", gotEdges, wantEdges)
	}
}
