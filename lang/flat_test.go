package lang

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/rogpeppe/go-internal/txtar"
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestFlattenMatchesCursor: the flattened tree (flat.c walks tree-sitter's
// subtrees) holds, node for node, what go-tree-sitter's TreeCursor shows
// of the same parse, punctuation leaves aside: kind, field, flags, parent,
// extent and position. Its inputs are the source files of every room's
// resolution cases.
func TestFlattenMatchesCursor(t *testing.T) {
	p := NewParser()
	defer p.Close()
	checked := map[string]int{}
	eachCaseSource(t, nil, func(file string, f txtar.File, l *Language) {
		name, diff := flattenVsCursor(p, l, f.Name, f.Data)
		if diff != "" {
			t.Errorf("%s: %s (%s): the flat tree and the cursor differ: %s", file, f.Name, name, diff)
		}
		checked[name]++
	})
	if len(checked) < 12 {
		t.Errorf("checked the languages %v only", checked)
	}
}

// eachCaseSource calls fn with every source file of every room's
// resolution cases (testdata/resolve) that a language reads, then with
// each of extra, named "(inline)".
func eachCaseSource(t *testing.T, extra []txtar.File, fn func(file string, f txtar.File, l *Language)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "resolve", "*", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no resolution cases: %v", err)
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if l := ForPath(f.Name); l != nil {
				fn(file, f, l)
			}
		}
	}
	for _, f := range extra {
		if l := ForPath(f.Name); l != nil {
			fn("(inline)", f, l)
		}
	}
}

// FuzzFlatten: over arbitrary bytes as any language, the flattened tree
// is what the cursor shows.
func FuzzFlatten(f *testing.F) {
	f.Add(uint8(0), "package a\nfunc f() { g(1, \"x\") }\n")
	f.Add(uint8(3), "class A(B):\n    def f(self): return [x for x in y if x]\n")
	f.Add(uint8(7), "fn f<'a>(x: &'a str) -> Option<u8> { x.parse().ok()? }\n")
	f.Add(uint8(9), "\x00\xff{{{((([[[")
	f.Fuzz(func(t *testing.T, which uint8, src string) {
		if len(src) > 1<<14 {
			return
		}
		langs := All()
		l := langs[int(which)%len(langs)]
		p := NewParser()
		defer p.Close()
		if name, diff := flattenVsCursor(p, l, "f"+l.Extensions[0], []byte(src)); diff != "" {
			t.Errorf("%s: the flat tree and the cursor differ: %s", name, diff)
		}
	})
}

// flattenVsCursor parses src as l and compares its flattened tree with a
// walk of go-tree-sitter's cursor over a parse of the same text. It
// returns the language that parsed src and the first difference, or "".
func flattenVsCursor(p *Parser, l *Language, path string, src []byte) (string, string) {
	// the text the parser reads: the language the content picks, its fixup
	lp, text := l, src
	if lp.pick != nil {
		lp, text = lp.pick(path, src)
	}
	if lp.fixup != nil {
		if f := lp.fixup(text); len(f) == len(text) {
			text = f
		}
	}
	if lp.insert != nil {
		if _, ins := lp.insert(text); len(ins) > 0 {
			return lp.Name, "" // offsets move back after the flatten; not compared
		}
	}
	tr, err := p.ParseFile(l, path, src)
	if err != nil {
		return lp.Name, ""
	}
	want := cursorFlatten(lp, text)
	got := tr.Nodes
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			return lp.Name, fmt.Sprintf("node %d (%s): got %+v, want %+v", i, lp.KindName(want[i].Kind), got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return lp.Name, fmt.Sprintf("%d nodes, want %d", len(got), len(want))
	}
	return lp.Name, ""
}

// cursorFlatten is the flatten written with go-tree-sitter's TreeCursor:
// every node the cursor visits in pre-order but the anonymous leaves that
// start with punctuation.
func cursorFlatten(l *Language, text []byte) []Node {
	sp := sitter.NewParser()
	defer sp.Close()
	if err := sp.SetLanguage(sitter.NewLanguage(unsafe.Pointer(l.ready()))); err != nil {
		return nil
	}
	tree := sp.Parse(text, nil)
	if tree == nil {
		return nil
	}
	defer tree.Close()
	c := tree.Walk()
	defer c.Close()
	var out []Node
	var open []int32 // the written ancestors of the cursor's node
	for {
		n := c.Node()
		b, e := uint32(n.StartByte()), uint32(n.EndByte())
		punct := !n.IsNamed() && e > b && n.ChildCount() == 0 && !wordStart(text[b])
		if !punct {
			var flags uint16
			for _, f := range []struct {
				on   bool
				flag uint16
			}{{n.IsNamed(), FlagNamed}, {n.KindId() == 0xFFFF, FlagError}, {n.IsMissing(), FlagMissing}, {n.IsExtra(), FlagExtra}, {n.HasError(), FlagHasError}} {
				if f.on {
					flags |= f.flag
				}
			}
			parent := int32(-1)
			if len(open) > 0 {
				parent = open[len(open)-1]
			}
			sp, ep := n.StartPosition(), n.EndPosition()
			out = append(out, Node{Kind: n.KindId(), Field: c.FieldId(), Flags: flags, Parent: parent, End: int32(len(out)) + 1,
				StartByte: b, EndByte: e, StartRow: uint32(sp.Row), StartCol: uint32(sp.Column), EndRow: uint32(ep.Row), EndCol: uint32(ep.Column)})
			if c.GotoFirstChild() {
				open = append(open, int32(len(out))-1)
				continue
			}
		}
		for !c.GotoNextSibling() {
			if len(open) == 0 || !c.GotoParent() {
				return out
			}
			out[open[len(open)-1]].End = int32(len(out))
			open = open[:len(open)-1]
		}
	}
}

// wordStart reports whether a leaf starting with c is a word ("if",
// "self"), which the flatten keeps, rather than punctuation.
func wordStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// TestInternalHeadersMatch: the tree-sitter headers flat.c reads its
// subtrees through (lang/tsapi/ts) are those of the go-tree-sitter
// module the binary links: a version bump that changed a layout fails
// here, not in a misread tree.
func TestInternalHeadersMatch(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/tree-sitter/go-tree-sitter").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	mod := filepath.Join(strings.TrimSpace(string(out)), "src")
	copies, err := filepath.Glob(filepath.Join("tsapi", "ts", "*.h"))
	if err != nil || len(copies) == 0 {
		t.Fatalf("no headers under tsapi/ts: %v", err)
	}
	for _, c := range append(copies, filepath.Join("tsapi", "tree_sitter", "api.h")) {
		orig := filepath.Join(mod, filepath.Base(c))
		if strings.Contains(c, "tree_sitter") {
			orig = filepath.Join(mod, "..", "include", "tree_sitter", "api.h")
		}
		a, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(orig)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if string(a) != string(b) {
			t.Errorf("%s differs from %s: copy it again", c, orig)
		}
	}
}
