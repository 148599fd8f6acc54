package grammar

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyGrammarImportsBindings checks that no package of lang/ but this
// one imports a grammar module's binding: a room that did would link the
// module's uncompressed tables beside the compact ones (rust's fixup once
// added 1.15 MB to the binary that way).
func TestOnlyGrammarImportsBindings(t *testing.T) {
	n := 0
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "grammar" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		n++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(path, "tree-sitter-") && strings.HasSuffix(path, "/bindings/go") {
				t.Errorf("%s imports %s: use lang/grammar's function and grammar.Load", p, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("read %d Go files of lang/: the walk missed the rooms", n)
	}
}
