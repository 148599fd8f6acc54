package lang

import (
	"strings"
	"testing"
)

func extractGoSrc(t testing.TB, src string) *FileFacts {
	p := NewParser()
	defer p.Close()
	f, err := Extract(p, ByName("go"), "pkg/a.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func findSym(f *FileFacts, q string) *Symbol {
	for i := range f.Symbols {
		if f.Symbols[i].Qualified() == q {
			return &f.Symbols[i]
		}
	}
	return nil
}

func TestGoExtract(t *testing.T) {
	f := extractGoSrc(t, `// Package a does things.
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
	if s == nil || s.Kind != KindClass || !s.Exported || s.Doc != "Server serves." {
		t.Fatalf("Server: %+v", s)
	}
	if len(s.Signature.Fields) != 3 || s.Signature.Fields[1].Type != "*Config" || len(s.Signature.Bases) != 1 {
		t.Errorf("Server fields %+v bases %v", s.Signature.Fields, s.Signature.Bases)
	}
	h := findSym(f, "Server.Handle")
	if h == nil || h.Kind != KindMethod || h.Signature.Receiver != "*Server" {
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
	if m := findSym(f, "Runner.Run"); m == nil || m.Kind != KindMethod {
		t.Errorf("Runner.Run: %+v", m)
	}
	refs := map[string]Ref{}
	for _, r := range f.Refs {
		refs[r.Qualifier+"."+r.Name] = r
	}
	if r := refs["x.Run"]; r.QualifierCall != "New" {
		t.Errorf("x.Run qualifier call %q", r.QualifierCall)
	}
	if r := refs["s.conf.Load"]; r.QualifierType != "*Server" {
		t.Errorf("s.conf.Load qualifier type %q", r.QualifierType)
	}
	if r := refs["str.ToUpper"]; r.Kind != RefCall {
		t.Errorf("str.ToUpper %+v", r)
	}
}

func TestSplitIdent(t *testing.T) {
	for in, want := range map[string]string{
		"getUserById":     "get user by id",
		"HTTPServer":      "http server",
		"parse_config_v2": "parse config v2",
		"sortedIDs":       "sorted ids",
		"XMLHttpRequest":  "xml http request",
		"already":         "already",
		"URLsForDomain":   "urls for domain",
		"__init__":        "init",
		"Utf8Valid":       "utf8 valid",
	} {
		if got := strings.Join(SplitIdent(in), " "); got != want {
			t.Errorf("SplitIdent(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzExtractGo parses arbitrary bytes as Go: extraction must not panic,
// and what it returns must be well formed.
func FuzzExtractGo(f *testing.F) {
	f.Add("package a\nfunc f() { g() }\n")
	f.Add("package a\ntype T struct{ x int }\nfunc (t *T) M() { if t == nil { panic(1) } }\n")
	f.Add("package a\nfunc Broken( {\n")
	f.Add("\x00\xff\xfe")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		p := NewParser()
		defer p.Close()
		facts, err := Extract(p, ByName("go"), "a.go", []byte(src))
		if err != nil {
			return
		}
		checkFacts(t, facts, src)
	})
}
