// Command accuracy measures the precision and recall of the call edges of
// an sdl index, at function granularity, against a reference that a
// compiler-grade tool computes on the same tree (make accuracy):
//
//	accuracy go   -db INDEX -root DIR [PATTERN...]   reference: SSA static call graph
//	accuracy scip -db INDEX -root DIR -scip FILE      reference: a SCIP index's call sites
//
// The Go reference is the static call graph of golang.org/x/tools
// (go/callgraph/static, what `callgraph -algo=static` prints) over the
// non-test packages of PATTERN (default ./...), plus, for each interface
// method call site, an edge to the abstract method (the static algorithm
// omits dynamic calls; sdl binds such a call to the interface method).
// Calls through function values have no static callee and are in neither
// set unless sdl binds them. Callers and callees are functions and
// methods; closures count as their enclosing function; callees outside
// the tree are ignored on both sides.
//
// The SCIP reference takes each reference to a method or function symbol
// that is followed by "(" (or applied as a decorator) as a call from the
// innermost function or method of the index that encloses it to the
// symbol's definition.
package main

import (
	"bufio"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sourcegraph/scip/bindings/go/scip"
	"golang.org/x/tools/go/callgraph/static"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/schema"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: accuracy go|scip -db INDEX -root DIR ...")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	dbPath := fs.String("db", "", "the sdl index")
	root := fs.String("root", ".", "the indexed tree")
	scipFile := fs.String("scip", "", "the SCIP reference (scip mode)")
	label := fs.String("label", "", "the row label")
	misses := fs.Int("show", 0, "print this many false positives and misses")
	under := fs.String("under", "", "judge only callers in files under this directory")
	fs.Parse(os.Args[2:])
	absRoot, _ := filepath.Abs(*root)
	db, err := schema.OpenReadOnly(*dbPath)
	if err != nil {
		fail(err)
	}
	defer db.Close()
	var ref map[[2]string]bool
	var files map[string]bool
	switch os.Args[1] {
	case "go":
		pats := fs.Args()
		if len(pats) == 0 {
			pats = []string{"./..."}
		}
		ref, files, err = goReference(absRoot, pats)
	case "scip":
		ref, files, err = scipReference(db, absRoot, *scipFile)
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
	// only what sdl indexed can be judged: files it skipped (generated,
	// too large) are out of both sets
	indexed, err := indexedFiles(db)
	if err != nil {
		fail(err)
	}
	for f := range files {
		if !indexed[f] || *under != "" && !strings.HasPrefix(f, strings.TrimSuffix(*under, "/")+"/") {
			delete(files, f)
		}
	}
	for e := range ref {
		if !files[fileOf(e[0])] || !indexed[fileOf(e[1])] {
			delete(ref, e)
		}
	}
	got, err := sdlCalls(db, files)
	if err != nil {
		fail(err)
	}
	tp := 0
	var fps, fns []string
	for e := range got {
		if ref[e] {
			tp++
		} else {
			fps = append(fps, e[0]+" -> "+e[1])
		}
	}
	for e := range ref {
		if !got[e] {
			fns = append(fns, e[0]+" -> "+e[1])
		}
	}
	p, r := ratio(tp, len(got)), ratio(tp, len(ref))
	fmt.Printf("%-40s precision %.3f  recall %.3f  (sdl %d, reference %d, both %d, files %d)\n",
		*label, p, r, len(got), len(ref), tp, len(files))
	if *misses > 0 {
		sort.Strings(fps)
		sort.Strings(fns)
		fmt.Println("false positives:")
		for _, s := range fps[:min(*misses, len(fps))] {
			fmt.Println("  " + s)
		}
		fmt.Println("misses:")
		for _, s := range fns[:min(*misses, len(fns))] {
			fmt.Println("  " + s)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "accuracy:", err)
	os.Exit(1)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func fileOf(key string) string { return key[:strings.LastIndex(key, ":")] }

// indexedFiles lists the files sdl parsed.
func indexedFiles(db *sql.DB) (map[string]bool, error) {
	rows, err := db.Query(`SELECT p.path FROM files f JOIN paths p ON p.id = f.path_id
		WHERE f.to_seq IS NULL AND f.status IN ('ok', 'parse_error')`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out[p] = true
	}
	return out, rows.Err()
}

// sdlCalls lists the index's call edges between functions and methods
// whose caller is in files, as "path:Container.name" pairs.
func sdlCalls(db *sql.DB, files map[string]bool) (map[[2]string]bool, error) {
	rows, err := db.Query(`SELECT sp.path, s.qualified, dp.path, d.qualified
		FROM edges e JOIN symbols s ON s.id = e.src AND s.to_seq IS NULL JOIN paths sp ON sp.id = s.path_id
		JOIN symbols d ON d.id = e.dst AND d.to_seq IS NULL JOIN paths dp ON dp.id = d.path_id
		WHERE e.to_seq IS NULL AND e.kind = 'call'
		AND s.kind IN ('function', 'method') AND d.kind IN ('function', 'method')`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[[2]string]bool{}
	for rows.Next() {
		var sp, sq, dp, dq string
		if err := rows.Scan(&sp, &sq, &dp, &dq); err != nil {
			return nil, err
		}
		if !files[sp] || sq == "init" || dq == "init" { // package initializers
			continue
		}
		a, b := sp+":"+sq, dp+":"+dq
		if a != b {
			out[[2]string{a, b}] = true
		}
	}
	return out, rows.Err()
}

// goReference builds the SSA static call graph of the packages.
func goReference(root string, patterns []string) (map[[2]string]bool, map[string]bool, error) {
	cfg := &packages.Config{Dir: root, Mode: packages.LoadSyntax,
		Env: append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, err
	}
	var good []*packages.Package
	files := map[string]bool{}
	rel := func(abs string) string {
		r, err := filepath.Rel(root, abs)
		if err != nil || strings.HasPrefix(r, "..") {
			return ""
		}
		return filepath.ToSlash(r)
	}
	for _, p := range pkgs {
		if len(p.Errors) > 0 || p.Types == nil {
			continue // sdl falls back to heuristics there; the reference cannot judge them
		}
		good = append(good, p)
		for _, f := range p.Syntax {
			if r := rel(p.Fset.Position(f.Package).Filename); r != "" {
				files[r] = true
			}
		}
	}
	prog, _ := ssautil.Packages(good, ssa.InstantiateGenerics)
	prog.Build()
	key := func(fn *ssa.Function) string {
		for fn.Parent() != nil {
			fn = fn.Parent()
		}
		if o := fn.Origin(); o != nil {
			fn = o
		}
		if fn.Synthetic != "" || fn.Object() == nil {
			return ""
		}
		obj := fn.Object().(*types.Func)
		p := rel(prog.Fset.Position(obj.Pos()).Filename)
		if p == "" || obj.Name() == "_" {
			return ""
		}
		name := obj.Name()
		if sig := obj.Type().(*types.Signature); sig.Recv() != nil {
			if c := recvName(sig.Recv().Type()); c != "" {
				name = c + "." + name
			}
		} else if name == "init" {
			return "" // package initializers: several per package, never called
		}
		return p + ":" + name
	}
	ref := map[[2]string]bool{}
	add := func(a, b string) {
		if a != "" && b != "" && a != b && files[strings.SplitN(a, ":", 2)[0]] {
			ref[[2]string{a, b}] = true
		}
	}
	cg := static.CallGraph(prog)
	for fn, n := range cg.Nodes {
		if fn == nil {
			continue
		}
		for _, e := range n.Out {
			add(key(fn), key(e.Callee.Func))
		}
	}
	// static calls in closures that are passed as values (the static
	// algorithm only reaches closures that are called directly), and
	// interface method calls, to the abstract method
	for fn := range ssautil.AllFunctions(prog) {
		for _, b := range fn.Blocks {
			for _, ins := range b.Instrs {
				site, ok := ins.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if g := site.Common().StaticCallee(); g != nil {
					add(key(fn), key(g))
					continue
				}
				if !site.Common().IsInvoke() {
					continue
				}
				m := site.Common().Method
				p := rel(prog.Fset.Position(m.Pos()).Filename)
				if p == "" {
					continue
				}
				// the interface that declares the method, which may be
				// embedded in the static type of the receiver
				c := ""
				if sig, ok := m.Type().(*types.Signature); ok && sig.Recv() != nil {
					c = recvName(sig.Recv().Type())
				}
				if c == "" {
					c = recvName(site.Common().Value.Type())
				}
				if c == "" {
					continue
				}
				add(key(fn), p+":"+c+"."+m.Name())
			}
		}
	}
	return ref, files, nil
}

func recvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

type symRow struct {
	qualified, kind, name string
	start, end            int
}

// scipReference reads the call sites of a SCIP index.
func scipReference(db *sql.DB, root, file string) (map[[2]string]bool, map[string]bool, error) {
	syms := map[string][]symRow{}
	rows, err := db.Query(`SELECT p.path, s.qualified, s.kind, s.name, s.start_line, s.end_line FROM symbols s
		JOIN paths p ON p.id = s.path_id WHERE s.to_seq IS NULL`)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var p string
		var s symRow
		if err := rows.Scan(&p, &s.qualified, &s.kind, &s.name, &s.start, &s.end); err != nil {
			return nil, nil, err
		}
		syms[p] = append(syms[p], s)
	}
	rows.Close()
	innermost := func(p string, line int, name string, fnOnly bool) string {
		best, span := "", 1<<30
		for _, s := range syms[p] {
			if line < s.start || line > s.end || (name != "" && s.name != name) {
				continue
			}
			if fnOnly && s.kind != "function" && s.kind != "method" {
				continue
			}
			if s.end-s.start < span {
				best, span = p+":"+s.qualified, s.end-s.start
			}
		}
		return best
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	type call struct {
		p      string
		line   int
		symbol string
	}
	defs := map[string]string{}
	var calls []call
	files := map[string]bool{}
	v := &scip.IndexVisitor{VisitDocument: func(_ context.Context, d *scip.Document) error {
		p := path.Clean(d.RelativePath)
		if _, ok := syms[p]; !ok {
			return nil
		}
		files[p] = true
		data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		lines := strings.Split(string(data), "\n")
		enc := index.SCIPPositionEncoding(d.GetPositionEncoding())
		for _, o := range d.Occurrences {
			if o.Symbol == "" || len(o.Range) < 3 {
				continue
			}
			line := int(o.Range[0]) + 1
			sym, name := o.Symbol, ""
			if scip.IsLocalSymbol(o.Symbol) {
				// a local (a nested function): named by its text
				sym = p + "#" + o.Symbol
				if line-1 < len(lines) && len(o.Range) == 3 {
					a, b := index.SCIPByteCol(lines[line-1], int(o.Range[1]), enc), index.SCIPByteCol(lines[line-1], int(o.Range[2]), enc)
					name = lines[line-1][a:max(a, b)]
				}
			} else {
				s, err := scip.ParseSymbol(o.Symbol)
				if err != nil || len(s.Descriptors) == 0 {
					continue
				}
				last := s.Descriptors[len(s.Descriptors)-1]
				// methods and functions, and terms (const f = () => ...)
				// that sdl holds as functions
				if last.Suffix != scip.Descriptor_Method && last.Suffix != scip.Descriptor_Term ||
					last.Name == "<constructor>" || last.Name == "__init__" {
					continue
				}
				name = last.Name
			}
			if name == "" {
				continue
			}
			if o.SymbolRoles&int32(scip.SymbolRole_Definition) != 0 {
				if k := innermost(p, line, name, true); k != "" {
					defs[sym] = k
				}
				continue
			}
			end := int(o.Range[2])
			if len(o.Range) == 4 {
				end = int(o.Range[3])
			}
			if line-1 >= len(lines) {
				continue
			}
			end = index.SCIPByteCol(lines[line-1], end, enc)
			rest := strings.TrimLeft(lines[line-1][end:], " \t")
			start := index.SCIPByteCol(lines[line-1], int(o.Range[1]), enc)
			// a decorator (@name, @mod.name) is a call of name with the
			// decorated function
			decorator := strings.HasPrefix(strings.TrimSpace(lines[line-1]), "@") && !strings.Contains(lines[line-1][:start], "(")
			if decorator || strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "?.(") || strings.HasPrefix(rest, "<") && strings.Contains(rest, ">(") {
				calls = append(calls, call{p, line, sym})
			}
		}
		return nil
	}}
	if err := v.ParseStreaming(context.Background(), bufio.NewReaderSize(f, 1<<20)); err != nil {
		return nil, nil, err
	}
	ref := map[[2]string]bool{}
	for _, c := range calls {
		dst, ok := defs[c.symbol]
		if !ok {
			continue
		}
		src := innermost(c.p, c.line, "", true)
		if src != "" && src != dst {
			ref[[2]string{src, dst}] = true
		}
	}
	return ref, files, nil
}
