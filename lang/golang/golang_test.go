package golang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
)

func extractSrc(t testing.TB, src string) *lang.FileFacts {
	p := lang.NewParser()
	defer p.Close()
	f, err := lang.Extract(p, lang.ByName("go"), "pkg/a.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func findSym(f *lang.FileFacts, q string) *lang.Symbol {
	for i := range f.Symbols {
		if f.Symbols[i].Qualified() == q {
			return &f.Symbols[i]
		}
	}
	return nil
}

func TestExtract(t *testing.T) {
	f := extractSrc(t, `// Package a does things.
package a

import (
	"fmt"
	str "strings"
)

// Server serves.
type Server struct {
	name string
	conf *Config
	Base
}

// Handle handles a request.
func (s *Server) Handle(req string, n ...int) (string, error) {
	if req == "" {
		return "", fmt.Errorf("empty")
	}
	x := New()
	x.Run()
	s.conf.Load()
	return str.ToUpper(req), nil
}

func New[T any]() *Server { return &Server{} }

type Runner interface {
	Run() error
}
`)
	if f.Module != "a" {
		t.Errorf("module %q", f.Module)
	}
	if len(f.Imports) != 2 || f.Imports[1].Alias != "str" || f.Imports[1].Source != "strings" {
		t.Errorf("imports %+v", f.Imports)
	}
	s := findSym(f, "Server")
	if s == nil || s.Kind != lang.KindClass || !s.Exported || s.Doc != "Server serves." {
		t.Fatalf("Server: %+v", s)
	}
	if len(s.Signature.Fields) != 3 || s.Signature.Fields[1].Type != "*Config" || len(s.Signature.Bases) != 1 {
		t.Errorf("Server fields %+v bases %v", s.Signature.Fields, s.Signature.Bases)
	}
	h := findSym(f, "Server.Handle")
	if h == nil || h.Kind != lang.KindMethod || h.Signature.Receiver != "*Server" {
		t.Fatalf("Handle: %+v", h)
	}
	if len(h.Signature.Params) != 2 || h.Signature.Params[1].Type != "...int" || !h.Signature.Params[1].Variadic {
		t.Errorf("params %+v", h.Signature.Params)
	}
	if h.Signature.Returns != "(string, error)" || h.Summary != "Handle handles a request." {
		t.Errorf("returns %q summary %q", h.Signature.Returns, h.Summary)
	}
	if len(h.Invariants) != 1 || !strings.HasPrefix(h.Invariants[0].Text, `if req == "" then return`) {
		t.Errorf("invariants %+v", h.Invariants)
	}
	if n := findSym(f, "New"); n == nil || len(n.Signature.Generics) != 1 {
		t.Errorf("New: %+v", n)
	}
	if m := findSym(f, "Runner.Run"); m == nil || m.Kind != lang.KindMethod {
		t.Errorf("Runner.Run: %+v", m)
	}
	refs := map[string]lang.Ref{}
	for _, r := range f.Refs {
		refs[r.Qualifier+"."+r.Name] = r
	}
	if r := refs["x.Run"]; r.QualifierCall != "New" {
		t.Errorf("x.Run qualifier call %q", r.QualifierCall)
	}
	if r := refs["s.conf.Load"]; r.QualifierType != "*Server" {
		t.Errorf("s.conf.Load qualifier type %q", r.QualifierType)
	}
	if r := refs["str.ToUpper"]; r.Kind != lang.RefCall {
		t.Errorf("str.ToUpper %+v", r)
	}
}

// TestDeclarations: each name of a spec is a symbol spanning the spec,
// or its declaration when that holds one spec; only declarations at the
// top of the file make symbols, not a var in a function literal of a
// value (a local); the value of a spec of _ alone is the file's code
// (var _ = register() registers at init).
func TestDeclarations(t *testing.T) {
	f := extractSrc(t, `package a

// Limits bound things.
const (
	lo, hi = 1, 2
	// mid is between.
	mid = 3
)

type (
	// Alone is one spec in a group.
	Alone struct{ Base }
)

var handler = func() { var inner int; _ = inner; type local int }

var _ = register()

var single = 1

func f() {
	var x = 1
	if x == 0 {
		panic("zero")
	}
}
`)
	var got []string
	for _, s := range f.Symbols[1:] {
		got = append(got, fmt.Sprintf("%s %s %d:%d-%d %q", s.Kind, s.Qualified(), s.Range.StartLine, s.Range.StartCol, s.Range.EndLine, s.Doc))
	}
	want := []string{
		`variable lo 5:1-5 ""`, `variable hi 5:1-5 ""`, `variable mid 7:1-7 "mid is between."`,
		`class Alone 10:0-13 "Alone is one spec in a group."`,
		// inner is a local of handler's function literal
		`variable handler 15:0-15 ""`,
		`variable single 19:0-19 ""`,
		`function f 21:0-26 ""`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	registered := false
	for _, r := range f.Refs {
		if r.Name == "register" {
			registered = r.Symbol == 0 && r.Kind == lang.RefCall
		}
		if r.Name == "Base" && (r.Kind != lang.RefExtends || r.Line != 12) {
			t.Errorf("Alone's base: %+v", r)
		}
	}
	if !registered {
		t.Errorf("var _ = register(): no call of register from the file")
	}
	if s := findSym(f, "f"); s == nil || len(s.Invariants) != 1 || s.Invariants[0].Text != "if x == 0 then panic" {
		t.Errorf("f's guards: %+v", s)
	}
}
