package query_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/query"
)

// TestMarkdownGolden replays the Go history and compares each step's
// Markdown delta and risk with testdata/golden/markdown (go test ./query
// -run TestMarkdownGolden -update rewrites them).
func TestMarkdownGolden(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	for i, step := range h.steps {
		name := stepName(step)
		h.apply(step)
		h.index()
		from, to := fmt.Sprintf("v%d", i+1), fmt.Sprintf("v%d", i+2)
		t.Run(name, func(t *testing.T) {
			d, err := h.x.Delta(ctx, query.DeltaRequest{FromVersion: from, ToVersion: to,
				Budget: &query.SliceBudget{MaxCards: 500, MaxEstimatedTokens: 100000}})
			if err != nil {
				t.Fatal(err)
			}
			risk, err := h.x.AnalyzeRisk(ctx, query.RiskRequest{FromVersion: from, ToVersion: to})
			if err != nil {
				t.Fatal(err)
			}
			g, err := h.x.RadiusGraph(ctx, d.Delta, 0, query.MarkdownGraphNodes)
			if err != nil {
				t.Fatal(err)
			}
			checkGraph(t, g)
			var b bytes.Buffer
			if err := query.WriteDeltaMarkdown(&b, d, g); err != nil {
				t.Fatal(err)
			}
			b.WriteString("\n")
			if err := query.WriteRiskMarkdown(&b, risk, g); err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join("..", "testdata", "golden", "markdown", "go", name+".md"), b.Bytes())
		})
	}
}

// checkGraph asserts what every radius graph holds: each node but a
// change is reached by an edge, every edge joins drawn nodes, and the
// counts add up.
func checkGraph(t *testing.T, g *query.RadiusGraph) {
	t.Helper()
	ids := map[string]bool{}
	for _, n := range g.Nodes {
		ids[n.ID] = true
	}
	reached := map[string]bool{}
	for _, e := range g.Edges {
		if !ids[e.From] || !ids[e.To] || e.Hops < 1 {
			t.Errorf("edge %+v joins a node not drawn", e)
		}
		reached[e.To] = true
	}
	drawn := 0
	for _, n := range g.Nodes {
		if n.Change != "" {
			continue
		}
		drawn += max(1, n.Tests)
		if !reached[n.ID] {
			t.Errorf("%s is drawn unconnected", n.Name)
		}
	}
	if drawn+g.Omitted != g.Dependents {
		t.Errorf("%d drawn + %d omitted != %d dependents", drawn, g.Omitted, g.Dependents)
	}
}

// The graph keeps its bound on a change with many dependents, and says
// how many it leaves out.
func TestRadiusGraphBound(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	h.apply(h.steps[0]) // Item.Total's body: Store.Value, main and TestAdd reach it
	h.index()
	d, err := h.x.Delta(ctx, query.DeltaRequest{FromVersion: "v1", ToVersion: "v2",
		Budget: &query.SliceBudget{MaxCards: 500, MaxEstimatedTokens: 100000}})
	if err != nil {
		t.Fatal(err)
	}
	full, err := h.x.RadiusGraph(ctx, d.Delta, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, full)
	if full.Omitted != 0 || full.Dependents != 3 {
		t.Fatalf("the whole radius: %d dependents, %d omitted", full.Dependents, full.Omitted)
	}
	small, err := h.x.RadiusGraph(ctx, d.Delta, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkGraph(t, small)
	if len(small.Nodes) > 2 || small.Omitted == 0 || small.Dependents != full.Dependents {
		t.Errorf("bounded to 2: %d nodes, %d of %d omitted", len(small.Nodes), small.Omitted, small.Dependents)
	}
	// TestAdd reaches Item.Total through Store.Value, which is not drawn
	if len(small.Edges) != 1 || small.Edges[0].Hops != 2 {
		t.Errorf("edges of the bounded graph: %+v", small.Edges)
	}
	var b bytes.Buffer
	query.WriteDeltaMarkdown(&b, d, small)
	if want := fmt.Sprintf("%d of the %d dependents are drawn", small.Dependents-small.Omitted, small.Dependents); !strings.Contains(b.String(), want) {
		t.Errorf("no %q in:\n%s", want, b.String())
	}
}

// Names and messages cannot break out of a table cell, a code span or a
// Mermaid label, nor add HTML.
func TestMarkdownEscapes(t *testing.T) {
	hostile := "Map<T>|\"x\"#quot;`y`*z*"
	g := &query.RadiusGraph{Dependents: 1,
		Nodes: []query.GraphNode{{ID: "a", Name: hostile, File: "a|b.go", Change: query.ChangeModified}, {ID: "b", Name: "ok", File: "c.go"}},
		Edges: []query.GraphEdge{{From: "a", To: "b", Hops: 1, Kind: "call"}}}
	r := &query.RiskResponse{Analysis: &query.RiskAnalysis{FromVersion: "v1", ToVersion: "v2", RiskLevel: "high",
		Findings: []query.Finding{{Kind: "breaking-signature", Severity: "high", Score: 75, Name: hostile, File: "a|b.go",
			Message: "<script>alert(1)</script> | [link](http://x) **bold**\nnext line"}},
		RecommendedTests: []query.RecommendedTest{{Name: "Test`tick`", File: "x_test.go", Changed: true}}},
		PolicyDecision: query.PolicyDecision{Decision: "review", DeniedReasons: []string{"high finding: <b>x</b>"}}}
	var b bytes.Buffer
	if err := query.WriteRiskMarkdown(&b, r, g); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script>", "<b>", "[link](", "**bold**", "Map<T>\"", "\nnext line"} {
		if strings.Contains(out, bad) {
			t.Errorf("%q is not escaped:\n%s", bad, out)
		}
	}
	// every table row has its five cells: no '|' of a name splits one
	unescaped := regexp.MustCompile(`(^|[^\\])\|`)
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| 75 ") {
			if n := len(unescaped.FindAllString(line, -1)); n != 6 {
				t.Errorf("finding row splits into %d cells: %s", n-1, line)
			}
		}
	}
	if !strings.Contains(out, "| `` Test`tick` `` |") {
		t.Errorf("a name with backticks is not one code span:\n%s", out)
	}
	// the Mermaid label: the quote ends it nowhere but at its end
	label := regexp.MustCompile(`(?m)^  n0\["(.*)"\]$`).FindStringSubmatch(out)
	if label == nil || strings.ContainsAny(label[1], "\"<>`") && !strings.Contains(label[1], "<br/>") {
		t.Fatalf("label of n0: %v\n%s", label, out)
	}
	if strings.Count(label[1], `"`) != 0 || !strings.Contains(label[1], "Map#60;T#62;|#34;x#34;#35;quot;#96;y#96;*z*") {
		t.Errorf("label of n0 is %q", label[1])
	}
}

// A node whose name is its file (a TypeScript module is named by its path)
// is labelled once, not "src/a.ts<br/>src/a.ts".
func TestMermaidModuleLabel(t *testing.T) {
	g := &query.RadiusGraph{Dependents: 1,
		Nodes: []query.GraphNode{{ID: "a", Name: "clone", File: "src/request.ts", Change: query.ChangeModified},
			{ID: "b", Name: "src/cache/index.ts", File: "src/cache/index.ts"}},
		Edges: []query.GraphEdge{{From: "a", To: "b", Hops: 1, Kind: "import"}}}
	out := query.MermaidGraph(g)
	if !strings.Contains(out, `  n1["src/cache/index.ts"]`+"\n") {
		t.Errorf("module node label:\n%s", out)
	}
	if !strings.Contains(out, `  n0["clone (modified)<br/>src/request.ts"]`+"\n") {
		t.Errorf("symbol node label:\n%s", out)
	}
}
