package lang

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestExtractScratchReuse extracts a file with a scratch that a larger
// file filled (symbols, references, fingerprint texts, references by
// caller) and without one: the facts are the same.
func TestExtractScratchReuse(t *testing.T) {
	var big strings.Builder
	big.WriteString("package a\n\nimport \"os\"\n\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&big, "// F%d writes %q.\nfunc F%d(s string) error {\n\tif s == \"\" {\n\t\tpanic(\"empty %d\")\n\t}\n"+
			"\tf := func() { G%d(s) }\n\tf()\n\treturn os.WriteFile(s, nil, 0o644)\n}\n\n", i, "x", i, i, i+1)
	}
	small := "package a\n\n// T is a thing.\ntype T struct{ n int }\n\n// Get returns \"n\".\n" +
		"func (t *T) Get() int {\n\tif t == nil {\n\t\treturn 0\n\t}\n\treturn t.n + helper(\"n\")\n}\n"
	p := NewParser()
	defer p.Close()
	extract := func(src string, sc *extractScratch) *FileFacts {
		tr, err := p.ParseFile(ByName("go"), "a.go", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return extractTree(tr, "a.go", sc)
	}
	fresh := extract(small, nil)
	sc := new(extractScratch)
	if f := extract(big.String(), sc); len(f.Symbols) < 300 || len(f.Refs) < 600 {
		t.Fatalf("the large file made %d symbols and %d references", len(f.Symbols), len(f.Refs))
	}
	reused := extract(small, sc)
	if !reflect.DeepEqual(fresh, reused) {
		t.Errorf("with a used scratch:\n%+v\nwithout:\n%+v", reused, fresh)
	}
	for i := range fresh.Symbols {
		if cap(reused.Symbols) != len(reused.Symbols) || reused.Symbols[i].Fingerprint != fresh.Symbols[i].Fingerprint {
			t.Errorf("symbol %d: fingerprint %s, want %s", i, reused.Symbols[i].Fingerprint, fresh.Symbols[i].Fingerprint)
		}
	}
}
