package lang_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
)

// A node kind spelled in Go that the grammar lacks matches nothing, and
// nothing else says so: the case is dead code, or worse, the construct it
// was written for is silently missed. These tests read lang's sources with
// go/ast, collect every literal compared with a node kind (or listed as
// one in a skeleton table or a room's Spec) and look each up among the
// pinned grammar's symbol names.

// kindSite is one node kind or field name spelled in a source file.
type kindSite struct {
	pos   token.Position
	name  string
	field bool // a field name (t.Field(n, "name")), not a node kind
}

// kindFamily is the languages whose grammars a file's literals may come
// from, judged by its name: C and C++ share their files, JavaScript,
// TypeScript and TSX theirs. Files of no language (skeleton.go, the
// helpers) may name a kind of any grammar.
func kindFamily(file string) []string {
	dir, base := filepath.Base(filepath.Dir(file)), strings.TrimSuffix(filepath.Base(file), ".go")
	if langs, ok := rooms[dir]; ok {
		return langs
	}
	prefix, _, _ := strings.Cut(base, "_")
	switch prefix {
	case "golang":
		return []string{"go"}
	}
	return nil
}

// specKindFields are the fields of lang.Spec, lang.SkeletonSpec and
// lang.ChainKinds that hold node kinds.
var specKindFields = map[string]bool{
	"Comments": true, "Strings": true, "Idents": true,
	"Control": true, "Exits": true, "Blocks": true, "Clauses": true, "Cases": true, "CaseBodies": true,
	"Wrappers": true, "Nested": true, "Verbatim": true, "Members": true, "Code": true,
	"Ident": true, "SelfKind": true, "SuperKind": true, "Nav": true, "NavSuffix": true, "Call": true,
}

// isKindCall reports whether e is x.Kind(n), a node's kind.
func isKindCall(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return false
	}
	s, ok := c.Fun.(*ast.SelectorExpr)
	return ok && s.Sel.Name == "Kind"
}

func calleeName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// pkgDir is the directory of the package of file f: "." for lang, the
// room's for a room.
func pkgDir(fset *token.FileSet, f *ast.File) string {
	return filepath.Dir(fset.Position(f.Package).Filename)
}

// calleeKey names the function a call of file f calls: a plain function
// by its package and name (lang.X is lang's), a method by its name.
func calleeKey(fset *token.FileSet, f *ast.File, c *ast.CallExpr) string {
	switch fn := c.Fun.(type) {
	case *ast.Ident:
		return pkgDir(fset, f) + "." + fn.Name
	case *ast.SelectorExpr:
		if x, ok := fn.X.(*ast.Ident); ok && x.Name == "lang" {
			return "." + "." + fn.Sel.Name
		}
		return fn.Sel.Name
	}
	return ""
}

func strLit(e ast.Expr) (string, bool) {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(b.Value)
	return s, err == nil
}

// collectKinds returns the node kinds and field names spelled in the
// parsed files.
func collectKinds(fset *token.FileSet, files []*ast.File) []kindSite {
	var sites []kindSite
	add := func(e ast.Expr, field bool) {
		if s, ok := strLit(e); ok && s != "" { // "" stands for no node
			sites = append(sites, kindSite{pos: fset.Position(e.Pos()), name: s, field: field})
		}
	}
	addAll := func(e ast.Expr) { // every string in e: a []string{...} or a map literal
		ast.Inspect(e, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok {
				add(b, false)
			}
			return true
		})
	}
	// A function parameter holds a kind when some call passes one to it:
	// isFunc(t.Kind(n)) makes isFunc's parameter a kind.
	// A plain function is named within its package (lang or a room):
	// rooms' functions lost their language prefixes, so that two rooms
	// may each have an isType.
	kindParams := map[string]map[int]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				for i, a := range c.Args {
					if isKindCall(a) {
						name := calleeKey(fset, f, c)
						if kindParams[name] == nil {
							kindParams[name] = map[int]bool{}
						}
						kindParams[name][i] = true
					}
				}
			}
			return true
		})
	}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				// package-level tables: a Spec's kind fields
				ast.Inspect(d, func(n ast.Node) bool {
					if kv, ok := n.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && specKindFields[k.Name] {
							addAll(kv.Value)
						}
					}
					return true
				})
				continue
			}
			// the names in this function that hold a node's kind
			vars := map[string]bool{}
			key := fd.Name.Name
			if fd.Recv == nil {
				key = pkgDir(fset, f) + "." + key
			}
			if fd.Type.Params != nil && kindParams[key] != nil {
				i := 0
				for _, p := range fd.Type.Params.List {
					for _, nm := range p.Names {
						if kindParams[key][i] {
							vars[nm.Name] = true
						}
						i++
					}
					if len(p.Names) == 0 {
						i++
					}
				}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if a, ok := n.(*ast.AssignStmt); ok && len(a.Lhs) == len(a.Rhs) {
					for i, r := range a.Rhs {
						if id, ok := a.Lhs[i].(*ast.Ident); ok && isKindCall(r) {
							vars[id.Name] = true
						}
					}
				}
				return true
			})
			isKind := func(e ast.Expr) bool {
				if id, ok := e.(*ast.Ident); ok {
					return vars[id.Name]
				}
				return isKindCall(e)
			}
			ast.Inspect(fd, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BinaryExpr:
					if n.Op == token.EQL || n.Op == token.NEQ {
						if isKind(n.X) {
							add(n.Y, false)
						} else if isKind(n.Y) {
							add(n.X, false)
						}
					}
				case *ast.SwitchStmt:
					if n.Tag != nil && isKind(n.Tag) {
						for _, s := range n.Body.List {
							for _, e := range s.(*ast.CaseClause).List {
								add(e, false)
							}
						}
					}
				case *ast.CallExpr:
					switch calleeName(n) {
					case "KindSet", "setSyntax":
						for _, a := range n.Args {
							addAll(a)
						}
					case "ChildOfKind":
						if len(n.Args) == 2 {
							add(n.Args[1], false)
						}
					case "Field", "FieldText":
						if len(n.Args) == 2 {
							add(n.Args[1], true)
						}
					case "Contains": // slices.Contains([]string{...}, t.Kind(n))
						if len(n.Args) == 2 && isKind(n.Args[1]) {
							addAll(n.Args[0])
						}
					}
				case *ast.KeyValueExpr:
					if k, ok := n.Key.(*ast.Ident); ok && specKindFields[k.Name] {
						addAll(n.Value)
					}
				}
				return true
			})
		}
	}
	return sites
}

// grammarNames returns the node kinds and field names of a language's grammar.
func grammarNames(l *lang.Language) (kinds, fields map[string]bool) {
	kinds, fields = map[string]bool{"ERROR": true}, map[string]bool{}
	for _, k := range l.GrammarKinds() {
		kinds[k] = true
	}
	for _, f := range l.GrammarFields() {
		fields[f] = true
	}
	return kinds, fields
}

func parseDir(t *testing.T, fset *token.FileSet, pattern string) []*ast.File {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// missingKinds returns the sites whose name no grammar of their file's
// family has, as "file:line: kind \"x\" (languages)".
func missingKinds(t *testing.T, sites []kindSite) []string {
	t.Helper()
	type names struct{ kinds, fields map[string]bool }
	grammar := map[string]names{}
	for _, l := range lang.All() {
		k, f := grammarNames(l)
		grammar[l.Name] = names{k, f}
	}
	var out []string
	for _, s := range sites {
		family := kindFamily(s.pos.Filename)
		if family == nil {
			for name := range grammar {
				family = append(family, name)
			}
		}
		found := false
		for _, name := range family {
			g, ok := grammar[name]
			if !ok {
				t.Fatalf("%s: no language %q registered", s.pos, name)
			}
			if (!s.field && g.kinds[s.name]) || (s.field && g.fields[s.name]) {
				found = true
				break
			}
		}
		if !found {
			what := "kind"
			if s.field {
				what = "field"
			}
			sort.Strings(family)
			out = append(out, s.pos.Filename+":"+strconv.Itoa(s.pos.Line)+": "+what+" "+strconv.Quote(s.name)+" not in "+strings.Join(family, "/"))
		}
	}
	return out
}

// rooms are the directories of the languages that live in rooms, and
// the languages of each.
var rooms = map[string][]string{"bash": {"bash"}, "c": {"c", "cpp"}, "csharp": {"csharp"}, "golang": {"go"}, "java": {"java"}, "javascript": {"javascript", "typescript", "tsx"}, "kotlin": {"kotlin"}, "lua": {"lua"}, "php": {"php"}, "python": {"python"}, "ruby": {"ruby"}, "rust": {"rust"}, "scala": {"scala"}, "swift": {"swift"}}

// TestNodeKindsExist fails on every node kind or field name spelled in
// lang/ and its rooms that the pinned grammars do not have.
func TestNodeKindsExist(t *testing.T) {
	fset := token.NewFileSet()
	files := parseDir(t, fset, "*.go")
	for room := range rooms {
		files = append(files, parseDir(t, fset, room+"/*.go")...)
	}
	sites := collectKinds(fset, files)
	// The collector itself must keep up with how the code is written: far
	// fewer sites than lang/ spells means it stopped seeing them.
	const minSites = 1500
	if len(sites) < minSites {
		t.Fatalf("found %d node kinds and field names in lang/, want at least %d: has the collector lost a pattern?", len(sites), minSites)
	}
	t.Logf("checked %d node kinds and field names", len(sites))
	for _, m := range missingKinds(t, sites) {
		t.Error(m)
	}
}

// TestNodeKindsCollector proves the collector sees each way lang/ spells a
// kind, so TestNodeKindsExist cannot pass by seeing nothing.
func TestNodeKindsCollector(t *testing.T) {
	src := `package lang
func kotlinX(t *Tree, n int32) {
	switch t.Kind(n) {
	case "no_such_case":
	}
	if t.Kind(n) == "no_such_compare" {}
	k := t.Kind(n)
	if k != "no_such_var" {}
	helper(t.Kind(n))
	_ = t.Field(n, "no_such_field")
	_ = KindSet("no_such_set")
	_ = t.ChildOfKind(n, "no_such_child")
}
func helper(kind string) bool { return kind == "no_such_param" }
var spec = Spec{Comments: []string{"no_such_spec"}}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "kotlin_x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := missingKinds(t, collectKinds(fset, []*ast.File{f}))
	want := []string{"no_such_case", "no_such_compare", "no_such_var", "no_such_field", "no_such_set", "no_such_child", "no_such_param", "no_such_spec"}
	if len(got) != len(want) {
		t.Fatalf("collector found %d missing names, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(got[i], strconv.Quote(w)) {
			t.Errorf("missing[%d] = %s, want %q", i, got[i], w)
		}
	}
}
