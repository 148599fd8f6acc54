package query

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/schema"
)

// Markdown summaries of a change, for a pull request (a job summary or a
// comment): the findings and changes as tables, the tests to run, and the
// blast radius as a Mermaid graph, which GitHub draws.

// Bounds of the Markdown summaries. A reviewer reads a graph of a few
// dozen nodes, not hundreds (and GitHub refuses very large diagrams); the
// tables hold what matters most first, and say what they leave out.
const (
	MarkdownGraphNodes = 30  // symbols drawn in the blast radius graph
	MarkdownGraphEdges = 90  // edges drawn among them
	MarkdownRows       = 50  // rows of each table
	markdownLabelRunes = 60  // a node label is cut to this many characters
	markdownCellRunes  = 200 // a table cell is cut to this many characters
)

// RadiusGraph is a blast radius drawn as a graph: the changed symbols,
// the dependents nearest to them, and the edges among those.
type RadiusGraph struct {
	Nodes []GraphNode
	Edges []GraphEdge
	// Dependents counts the dependents of the changes; Omitted how many
	// of them the graph leaves out to stay within its bound.
	Dependents int
	Omitted    int
}

// GraphNode is a symbol of a RadiusGraph.
type GraphNode struct {
	ID, Name, Kind, File string
	Change               string // how a changed symbol changed; "" for a dependent
	Test                 bool
	Distance             int // edges from the nearest change; 0 for a change
	// Tests is how many tests of File a node of tests stands for (0 for a
	// symbol's node)
	Tests int
}

// GraphEdge says that a change to From reaches To: To calls, imports,
// implements or extends From. Hops above 1 is a path through symbols the
// graph leaves out.
type GraphEdge struct {
	From, To string
	Kind     string
	Hops     int
}

// RadiusGraph draws the blast radius of a delta: its changed symbols that
// can change behaviour, and their dependents within depth edges, nearest
// first, up to maxNodes nodes in all; the tests of one file are one node. Edges are those of the version
// after the change (before it, for what a removed symbol reached); a
// drawn dependent whose path to its change runs through symbols not drawn
// gets one edge from the change, marked with the length of the path.
func (x *Index) RadiusGraph(ctx context.Context, d *DeltaPack, depth, maxNodes int) (*RadiusGraph, error) {
	g := &RadiusGraph{}
	if d == nil {
		return g, nil
	}
	if depth <= 0 {
		depth = DefaultRadiusDepth
	}
	if maxNodes <= 0 {
		maxNodes = MarkdownGraphNodes
	}
	from, err := x.ResolveVersion(ctx, "fromVersion", d.FromVersion)
	if err != nil {
		return nil, err
	}
	to, err := x.ResolveVersion(ctx, "toVersion", d.ToVersion)
	if err != nil {
		return nil, err
	}
	// the changes with the largest radius first, at most half the nodes
	var changes []*SymbolChange
	for _, c := range d.Changes {
		if c.BlastRadius != nil {
			changes = append(changes, c)
		}
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].BlastRadius.Total > changes[j].BlastRadius.Total })
	changes = changes[:min(len(changes), max(1, maxNodes/2))]
	drawn := map[string]bool{}
	var seedsFrom, seedsTo []string
	removed := map[string]bool{}
	for _, c := range changes {
		if drawn[c.SymbolID] {
			continue
		}
		drawn[c.SymbolID] = true
		g.Nodes = append(g.Nodes, GraphNode{ID: c.SymbolID, Name: c.Name, Kind: c.Kind, File: c.File, Change: c.Change, Test: c.IsTest})
		if c.Change == ChangeRemoved {
			seedsFrom = append(seedsFrom, c.SymbolID)
			removed[c.SymbolID] = true
		} else {
			seedsTo = append(seedsTo, c.SymbolID)
		}
	}
	type cand struct {
		id, via string
		dist    int
		seq     int64
	}
	best := map[string]cand{}
	for _, side := range []struct {
		seq   int64
		seeds []string
	}{{to.Seq, seedsTo}, {from.Seq, seedsFrom}} {
		reach, _, err := x.reach(ctx, side.seq, side.seeds, depth)
		if err != nil {
			return nil, err
		}
		for _, seed := range side.seeds {
			for id, dist := range reach[seed] {
				if c, ok := best[id]; !ok || dist < c.dist || dist == c.dist && seed < c.via {
					best[id] = cand{id: id, via: seed, dist: dist, seq: side.seq}
				}
			}
		}
	}
	cands := make([]cand, 0, len(best))
	bySeq := map[int64][]string{}
	for id, c := range best {
		if drawn[id] {
			continue
		}
		cands = append(cands, c)
		bySeq[c.seq] = append(bySeq[c.seq], id)
	}
	g.Dependents = len(cands)
	syms := map[string]*symAt{}
	for seq, ids := range bySeq {
		m, err := x.symbolsAt(ctx, seq, ids)
		if err != nil {
			return nil, err
		}
		for id, s := range m {
			syms[id] = s
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if sa, sb := syms[a.id], syms[b.id]; sa != nil && sb != nil && displayName(sa) != displayName(sb) {
			return displayName(sa) < displayName(sb)
		}
		return a.id < b.id
	})
	// tests are leaves a reviewer counts rather than reads: one node per
	// test file, so that code paths keep the room
	var code, tests []cand
	for _, c := range cands {
		if s := syms[c.id]; s != nil && s.IsTest {
			tests = append(tests, c)
		} else if s != nil {
			code = append(code, c)
		}
	}
	alias := map[string]string{}     // a drawn dependent -> its node
	via := map[string]cand{}         // a dependent's node -> its nearest dependent
	group := map[string]*GraphNode{} // a test file -> its node
	var groups []*GraphNode
	for _, c := range tests {
		file := syms[c.id].Path
		n := group[file]
		if n == nil {
			if len(groups) == max(1, maxNodes/4) {
				continue
			}
			n = &GraphNode{ID: "tests:" + file, File: file, Test: true, Distance: c.dist}
			group[file] = n
			groups = append(groups, n)
			via[n.ID] = c
		}
		n.Tests++
		alias[c.id] = n.ID
	}
	drawnDeps := 0
	for _, c := range code {
		if len(g.Nodes)+len(groups) >= maxNodes {
			break
		}
		s := syms[c.id]
		alias[c.id], via[c.id] = c.id, c
		g.Nodes = append(g.Nodes, GraphNode{ID: c.id, Name: displayName(s), Kind: s.Kind, File: s.Path, Distance: c.dist})
		drawnDeps++
	}
	for _, n := range groups {
		n.Name = fmt.Sprintf("%d %s", n.Tests, plural(n.Tests, "test", "tests"))
		g.Nodes = append(g.Nodes, *n)
		drawnDeps += n.Tests
	}
	g.Omitted = g.Dependents - drawnDeps

	targets := append([]string{}, seedsTo...)
	targets = append(targets, seedsFrom...)
	for id, n := range alias {
		if id == n { // a drawn code dependent; tests call, they are not called
			targets = append(targets, id)
		}
	}
	sources := append([]string{}, targets...)
	for id, n := range alias {
		if id != n {
			sources = append(sources, id)
		}
	}
	sort.Strings(targets)
	sort.Strings(sources)
	seen := map[[2]string]bool{}
	add := func(e GraphEdge) {
		k := [2]string{e.From, e.To}
		if e.From == e.To || seen[k] {
			return
		}
		seen[k] = true
		g.Edges = append(g.Edges, e)
	}
	edges, err := x.edgesAmong(ctx, to.Seq, sources, targets)
	if err != nil {
		return nil, err
	}
	if len(seedsFrom) > 0 {
		// what a removed symbol reached, it reached before the change
		old, err := x.edgesAmong(ctx, from.Seq, sources, seedsFrom)
		if err != nil {
			return nil, err
		}
		edges = append(edges, old...)
	}
	for _, e := range edges {
		if n, ok := alias[e.To]; ok {
			e.To = n
		}
		if n, ok := alias[e.From]; ok {
			e.From = n
		}
		add(e)
	}
	reached := map[string]bool{}
	for _, e := range g.Edges {
		reached[e.To] = true
	}
	for _, n := range g.Nodes {
		if c, ok := via[n.ID]; ok && !reached[n.ID] {
			add(GraphEdge{From: c.via, To: n.ID, Hops: c.dist})
		}
	}
	order := map[string]int{}
	for i, n := range g.Nodes {
		order[n.ID] = i
	}
	sort.SliceStable(g.Edges, func(i, j int) bool {
		a, b := g.Edges[i], g.Edges[j]
		if order[a.From] != order[b.From] {
			return order[a.From] < order[b.From]
		}
		return order[a.To] < order[b.To]
	})
	if len(g.Edges) > MarkdownGraphEdges {
		g.Edges = g.Edges[:MarkdownGraphEdges]
	}
	return g, nil
}

// edgesAmong returns the radius edges of version v from symbols in srcs
// to symbols in dsts, as GraphEdges (From the target, To the source).
func (x *Index) edgesAmong(ctx context.Context, v int64, srcs, dsts []string) ([]GraphEdge, error) {
	if len(srcs) == 0 || len(dsts) == 0 {
		return nil, nil
	}
	args := append(schema.Args(srcs), schema.Args(dsts)...)
	rows, err := x.DB.QueryContext(ctx, `SELECT DISTINCT e.dst, e.src, e.kind FROM edges e
		WHERE e.src IN (`+schema.Placeholders(len(srcs))+`) AND e.dst IN (`+schema.Placeholders(len(dsts))+`)
		AND e.kind IN `+radiusKinds+` AND `+validAt("e", v)+` ORDER BY e.dst, e.src, e.kind`, args...)
	if err != nil {
		return nil, fmt.Errorf("radius graph: %w", err)
	}
	defer rows.Close()
	var out []GraphEdge
	for rows.Next() {
		e := GraphEdge{Hops: 1}
		if err := rows.Scan(&e.From, &e.To, &e.Kind); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// WriteRiskMarkdown writes the risk of a change as Markdown: the decision,
// the findings, the tests to run and the blast radius graph (g may be nil).
func WriteRiskMarkdown(w io.Writer, r *RiskResponse, g *RadiusGraph) error {
	a := r.Analysis
	var b strings.Builder
	fmt.Fprintf(&b, "## sdl risk: %s\n\n", versionsMarkdown(a.FromVersion, a.ToVersion, a.FromCommit, a.ToCommit))
	fmt.Fprintf(&b, "**Decision: %s** · risk score **%d** (%s)", mdText(r.PolicyDecision.Decision), a.RiskScore, mdText(a.RiskLevel))
	if r.EscalationRequired {
		b.WriteString(" · **escalation required**")
	}
	b.WriteString("\n\n")
	b.WriteString(summaryMarkdown(a.Summary) + "\n\n")
	if len(r.PolicyDecision.DeniedReasons) > 0 {
		b.WriteString("Why:\n\n")
		for _, reason := range r.PolicyDecision.DeniedReasons {
			fmt.Fprintf(&b, "- %s\n", mdText(reason))
		}
		b.WriteString("\n")
	}

	b.WriteString("### Findings\n\n")
	if len(a.Findings) == 0 {
		b.WriteString("None")
		if a.FindingsBelowThreshold > 0 {
			fmt.Fprintf(&b, " at or above the threshold (%d below it)", a.FindingsBelowThreshold)
		}
		b.WriteString(".\n\n")
	} else {
		b.WriteString("| Score | Severity | Finding | Symbol | Message |\n|---:|---|---|---|---|\n")
		for i, f := range a.Findings {
			if i == MarkdownRows {
				break
			}
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", f.Score, mdCell(f.Severity), mdCell(f.Kind), symbolCell(f.Name, f.File, 0), mdCell(f.Message))
		}
		var notes []string
		if n := len(a.Findings) - MarkdownRows; n > 0 {
			notes = append(notes, fmt.Sprintf("%d more not shown here", n))
		}
		if a.FindingsOmitted > 0 {
			notes = append(notes, fmt.Sprintf("%d more past the limit", a.FindingsOmitted))
		}
		if a.FindingsBelowThreshold > 0 {
			notes = append(notes, fmt.Sprintf("%d below the threshold", a.FindingsBelowThreshold))
		}
		if len(notes) > 0 {
			fmt.Fprintf(&b, "\n%s (`sdl risk --json` lists them).\n", upperFirst(strings.Join(notes, "; ")))
		}
		b.WriteString("\n")
	}

	b.WriteString("### Tests to run\n\n")
	if len(a.RecommendedTests) == 0 {
		b.WriteString("No test reaches the change.\n\n")
	} else {
		b.WriteString("| Test | File | Why |\n|---|---|---|\n")
		for i, t := range a.RecommendedTests {
			if i == MarkdownRows {
				break
			}
			why := "changed"
			if !t.Changed {
				why = fmt.Sprintf("reaches %s in %d", strings.Join(t.Reaches, ", "), t.Distance)
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", cellCode(t.Name), cellCode(t.File), mdCell(why))
		}
		if n := max(0, len(a.RecommendedTests)-MarkdownRows) + a.TestsOmitted; n > 0 {
			fmt.Fprintf(&b, "\n%d more (`sdl risk --json` lists them).\n", n)
		}
		if len(a.TestCommands) > 0 {
			b.WriteString("\n" + codeBlock("sh", strings.Join(a.TestCommands, "\n")))
		}
		b.WriteString("\n")
	}
	writeGraphMarkdown(&b, g)
	if h := r.PolicyDecision.AuditHash; h != "" {
		fmt.Fprintf(&b, "<sub>policy audit hash %s</sub>\n", cellCode(h))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDeltaMarkdown writes a delta as Markdown: the summary, the changed
// symbols, the blast radius graph (g may be nil) and the amplifiers.
func WriteDeltaMarkdown(w io.Writer, r *DeltaResponse, g *RadiusGraph) error {
	d := r.Delta
	var b strings.Builder
	fmt.Fprintf(&b, "## sdl delta: %s\n\n", versionsMarkdown(d.FromVersion, d.ToVersion, d.FromCommit, d.ToCommit))
	b.WriteString(summaryMarkdown(d.Summary) + "\n\n")
	b.WriteString("### Changes\n\n")
	if len(d.Changes) == 0 {
		b.WriteString("No symbol changed.\n\n")
	} else {
		b.WriteString("| Change | Symbol | What changed | Blast radius |\n|---|---|---|---|\n")
		for i, c := range d.Changes {
			if i == MarkdownRows {
				break
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(c.Change), symbolCell(c.Name, c.File, c.Line), mdCell(changeWhat(c)), radiusCell(c.BlastRadius))
		}
		if n := len(d.Changes) - MarkdownRows; n > 0 {
			fmt.Fprintf(&b, "\n%d more (`sdl delta --json` lists them).\n", n)
		}
		b.WriteString("\n")
	}
	if t := d.Truncation; t != nil && t.Truncated {
		fmt.Fprintf(&b, "The delta is cut: %d of %d shown (%s).\n\n", t.Returned, t.Total, mdText(t.Reason))
	}
	writeGraphMarkdown(&b, g)
	if len(r.Amplifiers) > 0 {
		b.WriteString("### Amplifiers\n\nTheir fan-in grew: their next change reaches further.\n\n| Symbol | Fan-in |\n|---|---|\n")
		for _, a := range r.Amplifiers {
			fmt.Fprintf(&b, "| %s | %d → %d (+%.0f%%) |\n", symbolCell(a.Name, a.File, 0), a.Previous, a.Current, a.GrowthRate*100)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// changeWhat says what changed in a symbol, in a few words.
func changeWhat(c *SymbolChange) string {
	var parts []string
	if p := c.Previous; p != nil {
		parts = append(parts, fmt.Sprintf("was %s at %s:%d", p.Name, p.File, p.Line))
	}
	if len(c.Aspects) > 0 {
		parts = append(parts, strings.Join(c.Aspects, ", "))
	}
	if sd := c.SignatureDiff; sd != nil && sd.Breaking {
		parts = append(parts, "breaking: "+strings.Join(sd.Reasons, "; "))
	}
	for _, fd := range []struct {
		what string
		d    *FactDiff
	}{{"invariant", c.InvariantDiff}, {"side effect", c.SideEffectDiff}} {
		if fd.d == nil {
			continue
		}
		for _, s := range fd.d.Added {
			parts = append(parts, fmt.Sprintf("+%s: %s", fd.what, s))
		}
		for _, s := range fd.d.Removed {
			parts = append(parts, fmt.Sprintf("-%s: %s", fd.what, s))
		}
	}
	return strings.Join(parts, "; ")
}

func radiusCell(br *BlastRadius) string {
	if br == nil {
		return ""
	}
	s := fmt.Sprint(br.Total)
	if br.Tests > 0 {
		s += fmt.Sprintf(" (%d %s)", br.Tests, plural(br.Tests, "test", "tests"))
	}
	return s
}

// writeGraphMarkdown writes the blast radius graph as a Mermaid flowchart.
func writeGraphMarkdown(b *strings.Builder, g *RadiusGraph) {
	if g == nil || len(g.Nodes) == 0 {
		return
	}
	b.WriteString("### Blast radius\n\n")
	if len(g.Edges) == 0 {
		b.WriteString("Nothing depends on the changed symbols.\n\n")
		return
	}
	b.WriteString("An arrow points from a symbol to code that depends on it (calls, imports, implements or extends it); " +
		"a dotted arrow is a longer path, through symbols not drawn. Changed symbols are red, tests green.\n\n")
	b.WriteString(MermaidGraph(g))
	if g.Omitted > 0 {
		fmt.Fprintf(b, "\n%d of the %d dependents are drawn, nearest first.\n", g.Dependents-g.Omitted, g.Dependents)
	}
	b.WriteString("\n")
}

// MermaidGraph renders a RadiusGraph as a fenced Mermaid flowchart. Node
// ids are generated (n0, n1, ...); symbol names appear only in quoted
// labels, escaped, so no name can break the diagram's syntax.
func MermaidGraph(g *RadiusGraph) string {
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart LR\n")
	ids := map[string]string{}
	var changed, removed, tests []string
	for i, n := range g.Nodes {
		id := fmt.Sprintf("n%d", i)
		ids[n.ID] = id
		label := n.Name
		if n.Change != "" {
			label += " (" + n.Change + ")"
		}
		if label == n.File {
			// a module named by its path (TypeScript): the file once
			fmt.Fprintf(&b, "  %s[\"%s\"]\n", id, mermaidText(label))
		} else {
			fmt.Fprintf(&b, "  %s[\"%s<br/>%s\"]\n", id, mermaidText(label), mermaidText(n.File))
		}
		switch {
		case n.Change == ChangeRemoved:
			removed = append(removed, id)
		case n.Change != "":
			changed = append(changed, id)
		case n.Test:
			tests = append(tests, id)
		}
	}
	for _, e := range g.Edges {
		from, to := ids[e.From], ids[e.To]
		if from == "" || to == "" {
			continue
		}
		switch {
		case e.Hops > 1:
			fmt.Fprintf(&b, "  %s -.->|\"%d edges\"| %s\n", from, e.Hops, to)
		case e.Kind != "" && e.Kind != "call":
			fmt.Fprintf(&b, "  %s -->|%s| %s\n", from, mermaidText(e.Kind), to)
		default:
			fmt.Fprintf(&b, "  %s --> %s\n", from, to)
		}
	}
	for _, c := range []struct {
		class, style string
		ids          []string
	}{
		{"changed", "fill:#ffd8d8,stroke:#c62828,color:#000", changed},
		{"removed", "fill:#ffd8d8,stroke:#c62828,stroke-dasharray:4 3,color:#000", removed},
		{"test", "fill:#d8f5d8,stroke:#2e7d32,color:#000", tests},
	} {
		if len(c.ids) > 0 {
			fmt.Fprintf(&b, "  classDef %s %s\n  class %s %s\n", c.class, c.style, strings.Join(c.ids, ","), c.class)
		}
	}
	b.WriteString("```\n")
	return b.String()
}

// mermaidText escapes text for a quoted Mermaid label with entity codes
// (#35; is '#'): a quote cannot end the label, nor markup add HTML or a
// Markdown string, and the text is cut to markdownLabelRunes. Inside the
// quotes, brackets, pipes and semicolons are plain text.
func mermaidText(s string) string {
	s = cutRunes(strings.Join(strings.Fields(s), " "), markdownLabelRunes)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '"', '#', '&', '<', '>', '`':
			fmt.Fprintf(&b, "#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdText escapes text for Markdown: no character of it starts emphasis, a
// link, a code span, HTML or a table cell's end.
func mdText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|~!#&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCell is mdText for a table cell, cut to markdownCellRunes.
func mdCell(s string) string {
	return mdText(cutRunes(strings.Join(strings.Fields(s), " "), markdownCellRunes))
}

// cellCode is s as a code span in a table cell: the fence is longer than
// any run of backticks in s, and '|' is escaped (GitHub splits cells
// before it reads code spans).
func cellCode(s string) string {
	s = cutRunes(strings.Join(strings.Fields(s), " "), markdownCellRunes)
	if s == "" {
		return ""
	}
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + strings.ReplaceAll(s, "|", `\|`) + fence
}

// codeBlock fences text, the fence longer than any run of backticks in it.
func codeBlock(info, text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + info + "\n" + text + "\n" + fence + "\n"
}

func symbolCell(name, file string, line int) string {
	where := file
	if file != "" && line > 0 {
		where = fmt.Sprintf("%s:%d", file, line)
	}
	switch {
	case name == "":
		return cellCode(where)
	case where == "":
		return cellCode(name)
	}
	return cellCode(name) + " in " + cellCode(where)
}

func versionsMarkdown(from, to, fromCommit, toCommit string) string {
	s := mdText(from) + " → " + mdText(to)
	if fromCommit != "" || toCommit != "" {
		short := func(c string) string {
			if c == "" {
				return "-"
			}
			return cellCode(c[:min(len(c), 12)])
		}
		s += fmt.Sprintf(" (%s → %s)", short(fromCommit), short(toCommit))
	}
	return s
}

func summaryMarkdown(s DeltaSummary) string {
	line := fmt.Sprintf("Files +%d ~%d −%d · symbols +%d ~%d −%d, %d renamed or moved · edges +%d −%d · %d dependent %s",
		s.FilesAdded, s.FilesChanged, s.FilesRemoved, s.SymbolsAdded, s.SymbolsModified, s.SymbolsRemoved, s.SymbolsRenamed,
		s.EdgesAdded, s.EdgesRemoved, s.BlastRadius, plural(s.BlastRadius, "symbol", "symbols"))
	if s.TestsReaching > 0 {
		line += fmt.Sprintf(", %d %s the change", s.TestsReaching, plural(s.TestsReaching, "test reaches", "tests reach"))
	}
	return line
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}
