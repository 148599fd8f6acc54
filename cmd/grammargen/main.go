// Command grammargen writes the compact grammars of lang/grammar: for each
// grammar its module's binding compiles (the list is lang/grammar/module.go),
// one C file, the module's parser.c and scanner with the large constant
// tables of parser.c left empty, and one zstd blob of those tables, which
// lang/grammar fills them from when the language is first used. The tables
// are most of a grammar's size and mostly zeros and repeats; the files are
// generated from the module cache into the package directory, gitignored,
// and compiled only with the build tag sdl_compact (make build sets it).
//
//	go run ./cmd/grammargen [-dir lang/grammar] [-cc cc]
//
// The tables' bytes are read by compiling the module's parser with the host
// C compiler and writing them out, so the blob holds exactly what the
// compiler would have put in the binary; the generated C checks each
// table's size, and that the target is little-endian like every target sdl
// is built for.
package main

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"log"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// minTable is the size from which a constant table is compressed; the
// smaller ones are not worth a pointer each.
const minTable = 1024

// genPrefix names the generated files, which .gitignore lists.
const genPrefix = "zgrammar_"

// stampVersion changes when the generator's output changes for the same
// inputs, so that an older output is rewritten.
const stampVersion = "2"

func main() {
	log.SetFlags(0)
	log.SetPrefix("grammargen: ")
	dir := flag.String("dir", "lang/grammar", "the package whose module.go lists the grammars")
	cc := flag.String("cc", "", "the host C compiler (default: go env CC, else cc)")
	verbose := flag.Bool("v", false, "print each grammar's table sizes")
	flag.Parse()
	if err := run(*dir, *cc, *verbose); err != nil {
		log.Fatal(err)
	}
}

// grammar is one function of module.go and what its binding compiles.
type grammar struct {
	Func    string // Go function name in module.go: "TypeScript"
	Name    string // file name part: "typescript"
	Symbol  string // the C function returning the TSLanguage: "tree_sitter_typescript"
	Module  string // module path@version
	Sources []string
	Include []string // the binding's -I directories
}

func run(dir, cc string, verbose bool) error {
	if cc == "" {
		cc = goEnv("CC")
		if cc == "" {
			cc = "cc"
		}
	}
	grammars, err := readModuleList(filepath.Join(dir, "module.go"))
	if err != nil {
		return err
	}
	stamp := stampOf(grammars)
	stampFile := filepath.Join(dir, genPrefix+"stamp")
	if old, err := os.ReadFile(stampFile); err == nil && string(old) == stamp && complete(dir, grammars) {
		return nil // the same inputs made the files there
	}
	old, _ := filepath.Glob(filepath.Join(dir, genPrefix+"*"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("remove %s: %w", f, err)
		}
	}
	tmp, err := os.MkdirTemp("", "grammargen")
	if err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	var total, packed int
	var entries []goEntry
	for _, g := range grammars {
		e, raw, z, err := generate(dir, tmp, cc, g, verbose)
		if err != nil {
			return fmt.Errorf("%s: %w", g.Func, err)
		}
		entries = append(entries, e)
		total += raw
		packed += z
	}
	src, err := format.Source(goFile(entries))
	if err != nil {
		return fmt.Errorf("format go file: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, genPrefix+"tables.go"), src, 0o644); err != nil {
		return fmt.Errorf("write go file: %w", err)
	}
	if verbose {
		fmt.Printf("all: %d tables bytes -> %d compressed\n", total, packed)
	}
	return os.WriteFile(stampFile, []byte(stamp), 0o644)
}

// complete says whether every file a run writes is there.
func complete(dir string, gs []grammar) bool {
	files := []string{genPrefix + "tables.go"}
	for _, g := range gs {
		files = append(files, genPrefix+g.Name+".c", genPrefix+g.Name+".zst")
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return false
		}
	}
	return true
}

// stampOf names the inputs: the grammars' modules and the generator.
func stampOf(gs []grammar) string {
	var b strings.Builder
	b.WriteString("grammargen " + stampVersion + "\n")
	for _, g := range gs {
		fmt.Fprintf(&b, "%s %s %s\n", g.Func, g.Module, strings.Join(g.Sources, " "))
	}
	return b.String()
}

// readModuleList parses module.go: each function's body is one call of a
// binding's function, whose package the go command locates.
func readModuleList(file string) ([]grammar, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse module list: %w", err)
	}
	imports := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if im.Name != nil {
			imports[im.Name.Name] = p
		}
	}
	bindings, err := listBindings(slices.Sorted(maps.Values(imports)))
	if err != nil {
		return nil, err
	}
	var out []grammar
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || len(fd.Body.List) != 1 {
			continue
		}
		ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		call, ok := ret.Results[0].(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || imports[pkg.Name] == "" {
			continue
		}
		g, err := readBinding(bindings[imports[pkg.Name]], sel.Sel.Name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fd.Name.Name, err)
		}
		g.Func = fd.Name.Name
		g.Name = strings.ToLower(fd.Name.Name)
		out = append(out, g)
	}
	if len(out) == 0 {
		return nil, errors.New("module list: no grammar functions")
	}
	return out, nil
}

var (
	includeLine = regexp.MustCompile(`(?m)^\s*#\s*include\s+"([^"]+)"`)
	cppFlags    = regexp.MustCompile(`(?m)^\s*#cgo\s+CPPFLAGS:\s*(.*)$`)
	cCall       = regexp.MustCompile(`C\.(tree_sitter_\w+)\(\)`)
)

// binding is a binding package as go list describes it.
type binding struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Module     struct{ Path, Version string }
}

// listBindings describes the packages, in one go list run.
func listBindings(paths []string) (map[string]binding, error) {
	out, err := exec.Command("go", append([]string{"list", "-json"}, paths...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	m := map[string]binding{}
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var b binding
		if err := dec.Decode(&b); err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		m[b.ImportPath] = b
	}
	return m, nil
}

// readBinding finds the binding function fn of package p: the C function
// it calls, and the parser and scanner its cgo preamble includes.
func readBinding(p binding, fn string) (grammar, error) {
	importPath := p.ImportPath
	fset := token.NewFileSet()
	for _, name := range append(p.CgoFiles, p.GoFiles...) {
		file := filepath.Join(p.Dir, name)
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return grammar{}, fmt.Errorf("parse %s: %w", file, err)
		}
		var body, preamble string
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.Name == fn && d.Body != nil {
					src, _ := os.ReadFile(file)
					body = string(src[fset.Position(d.Body.Pos()).Offset:fset.Position(d.Body.End()).Offset])
				}
			case *ast.GenDecl:
				if d.Tok == token.IMPORT && d.Doc != nil && len(d.Specs) == 1 {
					if is, ok := d.Specs[0].(*ast.ImportSpec); ok && is.Path.Value == `"C"` {
						preamble = d.Doc.Text()
					}
				}
			}
		}
		if body == "" {
			continue
		}
		m := cCall.FindStringSubmatch(body)
		if m == nil {
			return grammar{}, fmt.Errorf("%s.%s calls no tree_sitter_ function", importPath, fn)
		}
		g := grammar{Symbol: m[1], Module: p.Module.Path + "@" + p.Module.Version}
		for _, inc := range includeLine.FindAllStringSubmatch(preamble, -1) {
			src := filepath.Join(p.Dir, inc[1])
			if _, err := os.Stat(src); err == nil { // a scanner may be optional (__has_include)
				g.Sources = append(g.Sources, src)
			}
		}
		for _, fl := range cppFlags.FindAllStringSubmatch(preamble, -1) {
			for _, w := range strings.Fields(fl[1]) {
				if strings.HasPrefix(w, "-I") {
					g.Include = append(g.Include, filepath.Join(p.Dir, strings.TrimPrefix(w, "-I")))
				}
			}
		}
		if len(g.Sources) == 0 || filepath.Base(g.Sources[0]) != "parser.c" {
			return grammar{}, fmt.Errorf("%s: the cgo preamble includes no parser.c first", file)
		}
		return g, nil
	}
	return grammar{}, fmt.Errorf("%s has no function %s", importPath, fn)
}

// amalgamate returns file with its quoted includes inlined, found as the C
// preprocessor finds them (the including file's directory, those of the
// files that included it, then the -I directories), so that the generated
// file compiles anywhere.
func amalgamate(file string, include []string, depth int) ([]byte, error) {
	include = append([]string{filepath.Dir(file)}, include...)
	if depth > 16 {
		return nil, fmt.Errorf("%s: includes nested too deep", file)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "#line 1 %q\n", filepath.Base(file))
	line := 0
	for l := range bytes.Lines(src) {
		line++
		m := includeLine.FindSubmatch(l)
		if m == nil {
			out.Write(l)
			continue
		}
		found := ""
		for _, d := range include {
			if _, err := os.Stat(filepath.Join(d, string(m[1]))); err == nil {
				found = filepath.Join(d, string(m[1]))
				break
			}
		}
		if found == "" {
			return nil, fmt.Errorf("%s:%d: %s not found", file, line, m[1])
		}
		inc, err := amalgamate(found, include, depth+1)
		if err != nil {
			return nil, err
		}
		out.Write(inc)
		fmt.Fprintf(&out, "#line %d %q\n", line+1, filepath.Base(file))
	}
	return out.Bytes(), nil
}

// table is one constant array of parser.c that is compressed.
type table struct {
	name       string
	decl       string // "static const uint16_t ts_parse_table[LARGE_STATE_COUNT][SYMBOL_COUNT] = {"
	start, end int    // byte offsets of the definition in the parser source
	size, n    int    // bytes, and elements of the first dimension
}

// tableDecl matches a top-level constant array of plain data (no pointers).
var tableDecl = regexp.MustCompile(`(?m)^static const ([A-Za-z_][A-Za-z0-9_]*) ([A-Za-z_][A-Za-z0-9_]*)((?:\[[^\]]*\])+) = \{\n`)

func findTables(src []byte) ([]table, error) {
	var out []table
	for _, m := range tableDecl.FindAllSubmatchIndex(src, -1) {
		end := bytes.Index(src[m[1]:], []byte("\n};\n"))
		if end < 0 {
			return nil, fmt.Errorf("table %s has no end", src[m[4]:m[5]])
		}
		out = append(out, table{
			name:  string(src[m[4]:m[5]]),
			decl:  string(src[m[0]:m[1]]),
			start: m[0],
			end:   m[1] + end + len("\n};\n"),
		})
	}
	return out, nil
}

// goEntry is what the generated Go file says of one grammar.
type goEntry struct {
	Func, Name, Symbol string
	Sizes, Packed      []int // each table's size, and its frame's in the blob
}

// generate writes the grammar's C file and blob into dir.
func generate(dir, tmp, cc string, g grammar, verbose bool) (goEntry, int, int, error) {
	e := goEntry{Func: g.Func, Name: g.Name, Symbol: g.Symbol}
	parserSrc, err := amalgamate(g.Sources[0], g.Include, 0)
	if err != nil {
		return e, 0, 0, err
	}
	var rest []byte
	for _, s := range g.Sources[1:] {
		b, err := amalgamate(s, g.Include, 0)
		if err != nil {
			return e, 0, 0, err
		}
		rest = append(rest, b...)
	}
	tables, err := findTables(parserSrc)
	if err != nil {
		return e, 0, 0, err
	}
	blobs, globals, err := dumpTables(tmp, cc, g, parserSrc, rest, tables)
	if err != nil {
		return e, 0, 0, err
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return e, 0, 0, fmt.Errorf("zstd: %w", err)
	}
	// Keep the tables worth compressing, in source order, one zstd frame
	// each: lang/grammar decodes a frame straight into its table.
	var kept []table
	var z []byte
	raw := 0
	for i, t := range tables {
		t.size, t.n = len(blobs[i].data), blobs[i].n
		if t.size < minTable {
			continue
		}
		kept = append(kept, t)
		n := len(z)
		z = enc.EncodeAll(blobs[i].data, z)
		raw += t.size
		e.Sizes = append(e.Sizes, t.size)
		e.Packed = append(e.Packed, len(z)-n)
	}
	if verbose {
		fmt.Printf("%-10s %2d tables %8d bytes -> %7d zstd (%.1fx)\n", g.Name, len(kept), raw, len(z), float64(raw)/float64(len(z)))
	}
	if err := os.WriteFile(filepath.Join(dir, genPrefix+g.Name+".zst"), z, 0o644); err != nil {
		return e, 0, 0, fmt.Errorf("write blob: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, genPrefix+g.Name+".c"), cFile(g, parserSrc, rest, kept, globals), 0o644); err != nil {
		return e, 0, 0, fmt.Errorf("write c file: %w", err)
	}
	return e, raw, len(z), nil
}

type dumped struct {
	data []byte
	n    int
}

// dumpTables compiles the grammar as its binding does, with a main that
// writes each table's bytes and first dimension, and runs it.
func dumpTables(tmp, cc string, g grammar, parserSrc, rest []byte, tables []table) ([]dumped, []string, error) {
	var src bytes.Buffer
	src.Write(parserSrc)
	src.Write(rest)
	src.WriteString("\n#include <stdio.h>\n#include <stdint.h>\nint main(void) {\n")
	src.WriteString("  uint16_t one = 1; if (*(uint8_t *)&one != 1) { fputs(\"big-endian host\\n\", stderr); return 1; }\n")
	for _, t := range tables {
		fmt.Fprintf(&src, "  { unsigned long long h[2] = {sizeof(%[1]s), sizeof(%[1]s)/sizeof(%[1]s[0])}; fwrite(h, sizeof h, 1, stdout); fwrite(%[1]s, 1, sizeof(%[1]s), stdout); }\n", t.name)
	}
	src.WriteString("  return 0;\n}\n")
	c := filepath.Join(tmp, g.Name+".c")
	exe := filepath.Join(tmp, g.Name)
	if err := os.WriteFile(c, src.Bytes(), 0o644); err != nil {
		return nil, nil, fmt.Errorf("write dump source: %w", err)
	}
	obj := exe + ".o"
	for _, args := range [][]string{
		append(strings.Fields(cc), "-std=c11", "-O0", "-w", "-c", "-o", obj, c),
		append(strings.Fields(cc), "-o", exe, obj),
	} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			return nil, nil, fmt.Errorf("compile tables: %w\n%s", err, out)
		}
	}
	globals, err := globalSymbols(obj)
	if err != nil {
		return nil, nil, err
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		return nil, nil, fmt.Errorf("dump tables: %w", err)
	}
	var res []dumped
	for range tables {
		if len(out) < 16 {
			return nil, nil, errors.New("dump tables: short output")
		}
		size, n := binary.LittleEndian.Uint64(out), binary.LittleEndian.Uint64(out[8:])
		out = out[16:]
		if uint64(len(out)) < size {
			return nil, nil, errors.New("dump tables: short output")
		}
		res = append(res, dumped{data: out[:size], n: int(n)})
		out = out[size:]
	}
	return res, globals, nil
}

// cFile is the grammar's C: the parser with the kept tables declared
// without their contents (zeros, in .bss, which costs the binary nothing),
// the scanner, and the list of the tables lang/grammar fills.
func cFile(g grammar, parserSrc, rest []byte, kept []table, globals []string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "//go:build sdl_compact\n\n// Code generated by cmd/grammargen from %s; DO NOT EDIT.\n\n", g.Module)
	b.WriteString("#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__\n#error \"the compressed grammar tables are little-endian\"\n#endif\n")
	// Every global symbol is renamed, so that a binary may link the
	// module's binding beside this (the test that both parse alike).
	for _, s := range globals {
		fmt.Fprintf(&b, "#define %s sdl_compact_%s\n", s, s)
	}
	last := 0
	for _, t := range kept {
		b.Write(parserSrc[last:t.start])
		decl := strings.TrimSuffix(strings.Replace(t.decl, "static const ", "static ", 1), " = {\n")
		if strings.HasPrefix(decl[strings.Index(decl, "["):], "[]") {
			decl = strings.Replace(decl, "[]", "["+strconv.Itoa(t.n)+"]", 1)
		}
		fmt.Fprintf(&b, "%s; /* %d bytes, compressed */\n", decl, t.size)
		last = t.end
		// keep line numbers of the rest right for the compiler's messages
		b.WriteString(strings.Repeat("\n", bytes.Count(parserSrc[t.start:t.end], []byte("\n"))-1))
	}
	b.Write(parserSrc[last:])
	b.Write(rest)
	b.WriteString("\n")
	for _, t := range kept {
		fmt.Fprintf(&b, "_Static_assert(sizeof(%s) == %d, \"%s: the table's size differs from the blob's\");\n", t.name, t.size, t.name)
	}
	fmt.Fprintf(&b, "static void *const sdl_compact_tables[] = {\n")
	for _, t := range kept {
		fmt.Fprintf(&b, "\t(void *)%s,\n", t.name)
	}
	fmt.Fprintf(&b, "};\n\nvoid *const *sdl_compact_%s_tables(void) { return sdl_compact_tables; }\n", g.Name)
	return b.Bytes()
}

// goFile declares the generated C functions to lang/grammar and lists the
// grammars with their tables' sizes.
func goFile(es []goEntry) []byte {
	sort.Slice(es, func(i, j int) bool { return es[i].Func < es[j].Func })
	var b bytes.Buffer
	b.WriteString("//go:build sdl_compact\n\n// Code generated by cmd/grammargen; DO NOT EDIT.\n\npackage grammar\n\n")
	// The grammars' own code warns (a scanner redefines a parser's macro);
	// the modules' builds do not show it either.
	b.WriteString("/*\n#cgo CFLAGS: -std=c11 -w\n")
	for _, e := range es {
		fmt.Fprintf(&b, "const void *sdl_compact_%s(void);\nvoid *const *sdl_compact_%s_tables(void);\n", e.Symbol, e.Name)
	}
	b.WriteString("*/\nimport \"C\"\n\nimport \"unsafe\"\n\n")
	for _, e := range es {
		fmt.Fprintf(&b, "func %s() unsafe.Pointer { return unsafe.Pointer(C.sdl_compact_%s()) }\n", e.Func, e.Symbol)
	}
	b.WriteString("\nfunc init() {\n")
	for _, e := range es {
		fmt.Fprintf(&b, "\tregister(%s(), %q, unsafe.Pointer(C.sdl_compact_%s_tables()), %s, %s)\n",
			e.Func, genPrefix+e.Name+".zst", e.Name, intSlice(e.Sizes), intSlice(e.Packed))
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func goEnv(key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// globalSymbols lists the global symbols an object file defines, but main.
func globalSymbols(obj string) ([]string, error) {
	var names []string
	if f, err := elf.Open(obj); err == nil {
		defer f.Close()
		syms, err := f.Symbols()
		if err != nil {
			return nil, fmt.Errorf("symbols of %s: %w", obj, err)
		}
		for _, s := range syms {
			bind := elf.ST_BIND(s.Info)
			if s.Section != elf.SHN_UNDEF && (bind == elf.STB_GLOBAL || bind == elf.STB_WEAK) {
				names = append(names, s.Name)
			}
		}
	} else if f, err := macho.Open(obj); err == nil {
		defer f.Close()
		if f.Symtab == nil {
			return nil, fmt.Errorf("%s has no symbol table", obj)
		}
		for _, s := range f.Symtab.Syms {
			const nExt, nType, nSect = 0x01, 0x0e, 0x0e
			if s.Type&nExt != 0 && s.Type&nType == nSect {
				names = append(names, strings.TrimPrefix(s.Name, "_"))
			}
		}
	} else {
		return nil, fmt.Errorf("%s: neither ELF nor Mach-O", obj)
	}
	out := names[:0]
	for _, n := range names {
		if n != "main" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

func intSlice(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return "[]int{" + strings.Join(s, ", ") + "}"
}
