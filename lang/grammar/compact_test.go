//go:build sdl_compact

package grammar_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/rogpeppe/go-internal/txtar"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/sdl-dev/sdl/lang/grammar"

	tsswift "github.com/alex-pinkus/tree-sitter-swift/bindings/go"
	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
	tslua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tscsharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// pair is one grammar as the compact build and its module compile it, and
// the file extensions whose samples it parses.
type pair struct {
	compact, module func() unsafe.Pointer
	exts            []string
}

var pairs = map[string]pair{
	"Bash":       {grammar.Bash, tsbash.Language, []string{".sh", ".bash"}},
	"C":          {grammar.C, tsc.Language, []string{".c", ".h"}},
	"CPP":        {grammar.CPP, tscpp.Language, []string{".cpp", ".cc", ".hpp", ".h"}},
	"CSharp":     {grammar.CSharp, tscsharp.Language, []string{".cs"}},
	"Go":         {grammar.Go, tsgo.Language, []string{".go"}},
	"Java":       {grammar.Java, tsjava.Language, []string{".java"}},
	"JavaScript": {grammar.JavaScript, tsjs.Language, []string{".js", ".mjs", ".jsx"}},
	"Kotlin":     {grammar.Kotlin, tskotlin.Language, []string{".kt", ".kts"}},
	"Lua":        {grammar.Lua, tslua.Language, []string{".lua"}},
	"PHP":        {grammar.PHP, tsphp.LanguagePHP, []string{".php"}},
	"Python":     {grammar.Python, tspy.Language, []string{".py", ".pyi"}},
	"Ruby":       {grammar.Ruby, tsruby.Language, []string{".rb"}},
	"Rust":       {grammar.Rust, tsrust.Language, []string{".rs"}},
	"Scala":      {grammar.Scala, tsscala.Language, []string{".scala"}},
	"Swift":      {grammar.Swift, tsswift.Language, []string{".swift"}},
	"TSX":        {grammar.TSX, tsts.LanguageTSX, []string{".tsx", ".ts"}},
	"TypeScript": {grammar.TypeScript, tsts.LanguageTypescript, []string{".ts"}},
}

// TestPairsCoverModuleList: every grammar of module.go is compared.
func TestPairsCoverModuleList(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "module.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name != "Load" {
			n++
			if _, ok := pairs[fd.Name.Name]; !ok {
				t.Errorf("module.go's %s has no pair in this test", fd.Name.Name)
			}
		}
	}
	if n != len(pairs) {
		t.Errorf("module.go has %d grammars, this test %d", n, len(pairs))
	}
}

// TestCompactParsesAsModule parses the repository's fixture files and
// archives with each grammar twice, compact and as its module
// builds it, and requires the same tree: the compressed tables are the
// module's, byte for byte, or a parse shows it.
func TestCompactParsesAsModule(t *testing.T) {
	samples := map[string][][]byte{} // extension -> contents
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "bin" || n == "dist" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.Contains(filepath.ToSlash(p), "/testdata/") {
			return nil // the fixtures: every language, and small
		}
		ext := filepath.Ext(p)
		if ext == ".txtar" {
			a, err := txtar.ParseFile(p)
			if err != nil {
				return err
			}
			for _, f := range a.Files {
				samples[filepath.Ext(f.Name)] = append(samples[filepath.Ext(f.Name)], f.Data)
			}
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 1<<20 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		samples[ext] = append(samples[ext], b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, pr := range pairs {
		t.Run(name, func(t *testing.T) {
			c := pr.compact()
			grammar.Load(c)
			compact, module := newParser(t, c), newParser(t, pr.module())
			n := 0
			for _, ext := range pr.exts {
				for _, src := range samples[ext] {
					a, b := sexp(compact, src), sexp(module, src)
					if a != b {
						t.Fatalf("a %s sample parses differently:\ncompact: %.300s\nmodule:  %.300s", ext, a, b)
					}
					n++
				}
			}
			if n == 0 {
				t.Fatalf("no sample file of %v in the repository", pr.exts)
			}
			t.Logf("%d samples alike", n)
		})
	}
}

func newParser(t *testing.T, lang unsafe.Pointer) *sitter.Parser {
	p := sitter.NewParser()
	t.Cleanup(p.Close)
	if err := p.SetLanguage(sitter.NewLanguage(lang)); err != nil {
		t.Fatal(err)
	}
	return p
}

// sexp is the tree's s-expression followed by every node, named or not,
// with its field and byte range: a parse that differs anywhere differs here.
func sexp(p *sitter.Parser, src []byte) string {
	tree := p.Parse(src, nil)
	defer tree.Close()
	var b strings.Builder
	b.WriteString(tree.RootNode().ToSexp())
	c := tree.Walk()
	defer c.Close()
	for {
		n := c.Node()
		fmt.Fprintf(&b, "\n%s %s %d-%d %t", c.FieldName(), n.GrammarName(), n.StartByte(), n.EndByte(), n.IsMissing())
		if c.GotoFirstChild() || c.GotoNextSibling() {
			continue
		}
		for {
			if !c.GotoParent() {
				return b.String()
			}
			if c.GotoNextSibling() {
				break
			}
		}
	}
}

// TestCompactTablesAsModule compares what the runtime reads from the
// tables, compact and module: in every parse state, the symbols valid
// there and the state each leads to (the parse tables and actions), and
// each symbol's metadata; a changed entry no sample reaches shows here.
func TestCompactTablesAsModule(t *testing.T) {
	for name, pr := range pairs {
		t.Run(name, func(t *testing.T) {
			c := pr.compact()
			grammar.Load(c)
			a, b := sitter.NewLanguage(c), sitter.NewLanguage(pr.module())
			states, kinds := a.ParseStateCount(), a.NodeKindCount()
			if states != b.ParseStateCount() || kinds != b.NodeKindCount() || a.FieldCount() != b.FieldCount() {
				t.Fatalf("counts differ: states %d, %d; kinds %d, %d", states, b.ParseStateCount(), kinds, b.NodeKindCount())
			}
			for k := uint16(0); uint32(k) < kinds; k++ {
				if a.NodeKindIsNamed(k) != b.NodeKindIsNamed(k) || a.NodeKindIsVisible(k) != b.NodeKindIsVisible(k) ||
					a.NodeKindIsSupertype(k) != b.NodeKindIsSupertype(k) {
					t.Fatalf("the metadata of symbol %d (%s) differ", k, b.NodeKindForId(k))
				}
			}
			ia, ib := a.LookaheadIterator(0), b.LookaheadIterator(0)
			defer ia.Close()
			defer ib.Close()
			for s := uint16(0); uint32(s) < states; s++ {
				ia.ResetState(s)
				ib.ResetState(s)
				// the iterator yields only the state's valid symbols: a
				// lookup of another (an alias) may read past the table
				sa, sb := ia.Iter(), ib.Iter()
				if !slices.Equal(sa, sb) {
					t.Fatalf("state %d: valid symbols %v, module %v", s, sa, sb)
				}
				for _, k := range sa {
					if x, y := a.NextState(s, k), b.NextState(s, k); x != y {
						t.Fatalf("state %d on %s: next state %d, module %d", s, b.NodeKindForId(k), x, y)
					}
				}
			}
		})
	}
}
