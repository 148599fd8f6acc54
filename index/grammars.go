package index

import (
	"fmt"

	"github.com/sdl-dev/sdl/lang"
)

// GrammarCheck says whether one compiled-in grammar loads and parses.
type GrammarCheck struct {
	Language   string   `json:"language"`
	Extensions []string `json:"extensions"`
	OK         bool     `json:"ok"`
	Problem    string   `json:"problem,omitempty"`
}

// grammarSamples are tiny valid programs: a grammar that loads but cannot
// parse them is broken. Languages without one parse an empty file.
var grammarSamples = map[string]string{
	"go":         "package p\n\nfunc F() {}\n",
	"python":     "def f():\n    return 1\n",
	"javascript": "function f() { return 1; }\n",
	"typescript": "function f(): number { return 1; }\n",
	"tsx":        "const a = <div />;\n",
	"rust":       "fn f() -> i32 { 1 }\n",
	"java":       "class A { void f() {} }\n",
	"c":          "int f(void) { return 1; }\n",
	"cpp":        "namespace n { int f() { return 1; } }\n",
	"bash":       "f() { echo 1; }\n",
	"csharp":     "class A { void F() {} }\n",
	"kotlin":     "fun f(): Int = 1\n",
	"php":        "<?php function f() { return 1; }\n",
	"ruby":       "def f\n  1\nend\n",
	"swift":      "func f() -> Int { return 1 }\n",
	"scala":      "object A { def f(): Int = 1 }\n",
	"lua":        "local function f() return 1 end\n",
}

// CheckGrammars parses a sample with every registered grammar, so a build
// with a missing or incompatible grammar is found before an index run.
func CheckGrammars() []GrammarCheck {
	p := lang.NewParser()
	defer p.Close()
	var out []GrammarCheck
	for _, l := range lang.All() {
		g := GrammarCheck{Language: l.Name, Extensions: l.Extensions}
		g.Problem = checkGrammar(p, l)
		g.OK = g.Problem == ""
		out = append(out, g)
	}
	return out
}

func checkGrammar(p *lang.Parser, l *lang.Language) (problem string) {
	defer func() {
		if r := recover(); r != nil {
			problem = fmt.Sprintf("the grammar failed: %v", r)
		}
	}()
	if l.Grammar() == nil {
		return "no grammar compiled in"
	}
	t, err := p.Parse(l, []byte(grammarSamples[l.Name]))
	if err != nil {
		return err.Error()
	}
	if t.Len() == 0 {
		return "the parser returned no tree"
	}
	if grammarSamples[l.Name] != "" && t.HasError(0) {
		return "a valid sample does not parse (an incompatible grammar version?)"
	}
	return ""
}
