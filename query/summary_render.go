package query

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Sections of a summary, in the order of their priority.
const (
	secKeySymbols = iota
	secDependencies
	secRiskAreas
	secFiles
	numSections
)

// sectionFloor is how many items of each section are taken before any
// section gets more, so that a small budget still shows all four.
var sectionFloor = [numSections]int{3, 3, 2, 2}

// fitSummary keeps a prefix of each section of doc so that the rendered
// content fits the budget: sections are filled in priority order (after
// their floors) on per-item token estimates, then the real count of the
// whole rendering decides, dropping the last item taken until it fits.
// Budgets are promises: the content never exceeds its budget.
// The content is fitted to budget; the cut line names asked, the budget the
// caller gave for the whole answer.
func fitSummary(doc *summaryDoc, format, ledger string, budget, asked int) (*ContextSummary, string) {
	f := summaryFormatter{format: format, ledger: ledger, asked: asked}
	lens := [numSections]int{len(doc.keySymbols), len(doc.deps), len(doc.risks), len(doc.files)}
	var n [numSections]int
	var taken []int // sections, in the order items were taken
	query := doc.query
	notes := doc.notes
	build := func() *ContextSummary {
		s := &ContextSummary{Scope: doc.scope, Query: query, Notes: notes,
			KeySymbols: doc.keySymbols[:n[0]], Dependencies: doc.deps[:n[1]], RiskAreas: doc.risks[:n[2]], Files: doc.files[:n[3]]}
		o := SummaryOmitted{KeySymbols: lens[0] - n[0], Dependencies: lens[1] - n[1], RiskAreas: lens[2] - n[2], Files: lens[3] - n[3]}
		if o != (SummaryOmitted{}) {
			s.Truncated, s.Omitted = true, &o
		}
		if s.KeySymbols == nil {
			s.KeySymbols = []KeySymbol{}
		}
		if s.Dependencies == nil {
			s.Dependencies = []DependencyEdge{}
		}
		if s.RiskAreas == nil {
			s.RiskAreas = []RiskArea{}
		}
		if s.Files == nil {
			s.Files = []FileTouched{}
		}
		return s
	}

	// estimates: the skeleton (with its final line when anything is cut),
	// then each item
	used := Tokens(f.render(build(), budget, lens))
	var blocked [numSections]bool
	take := func(sec, upto int) {
		for n[sec] < min(upto, lens[sec]) && !blocked[sec] {
			c := f.itemCost(doc, sec, n[sec], lens)
			if used+c > budget {
				blocked[sec] = true // sections are prefixes: nothing after this item either
				return
			}
			used += c
			n[sec]++
			taken = append(taken, sec)
		}
	}
	for sec := range numSections {
		take(sec, sectionFloor[sec])
	}
	for sec := range numSections {
		take(sec, lens[sec])
	}

	// the real count decides
	for {
		s := build()
		content, tokens := f.renderCounted(s, budget, lens)
		if tokens <= budget {
			return s, content
		}
		switch {
		case len(taken) > 0:
			sec := taken[len(taken)-1]
			taken = taken[:len(taken)-1]
			n[sec]--
		case len([]rune(query)) > 40:
			query = string([]rune(query)[:39]) + "…"
		case len(notes) > 0:
			notes = nil
		case query != "":
			query = ""
		default:
			// the bare skeleton is a few dozen tokens, far below the
			// smallest budget; should it ever not fit, say only that
			s = &ContextSummary{Scope: doc.scope, Truncated: true, KeySymbols: []KeySymbol{}, Dependencies: []DependencyEdge{},
				RiskAreas: []RiskArea{}, Files: []FileTouched{}}
			return s, "summary cut: budget too small"
		}
	}
}

// summaryFormatter renders a summary in one format.
type summaryFormatter struct {
	format, ledger string
	asked          int // the budget of the whole answer, for the cut line
}

// renderCounted renders s and sets its estimatedTokens to the count of the
// content. In JSON the count is part of the content, so it is settled by
// rendering again until it no longer changes.
func (f summaryFormatter) renderCounted(s *ContextSummary, budget int, lens [numSections]int) (string, int) {
	content := f.render(s, budget, lens)
	t := Tokens(content)
	s.EstimatedTokens = t
	if f.format != FormatJSON {
		return content, t
	}
	for range 4 {
		content = f.render(s, budget, lens)
		t2 := Tokens(content)
		if t2 == s.EstimatedTokens {
			break
		}
		s.EstimatedTokens = t2
		t = t2
	}
	return content, max(t, s.EstimatedTokens)
}

// render renders s; lens are the sizes of the sections before cutting,
// to tell a section cut entirely from one with nothing to show.
func (f summaryFormatter) render(s *ContextSummary, budget int, lens [numSections]int) string {
	if f.format == FormatJSON {
		return jsonText(s)
	}
	md := f.format == FormatMarkdown
	var b strings.Builder
	echo := oneLine(s.Query, 80)
	if md {
		fmt.Fprintf(&b, "# Context summary: %s\n", echo)
	} else {
		fmt.Fprintf(&b, "Context summary: %s\n", echo)
	}
	fmt.Fprintf(&b, "Scope: %s · ledger %s\n", s.Scope, f.ledger)
	for _, n := range s.Notes {
		fmt.Fprintf(&b, "Note: %s\n", n)
	}
	if lens[secKeySymbols] > 0 {
		items := [numSections]int{len(s.KeySymbols), len(s.Dependencies), len(s.RiskAreas), len(s.Files)}
		for sec := range numSections {
			if items[sec] == 0 && lens[sec] > 0 {
				continue // cut entirely: the final line says so
			}
			b.WriteString("\n")
			b.WriteString(f.header(sec))
			if items[sec] == 0 {
				b.WriteString(f.none(sec))
			}
			for i := range items[sec] {
				b.WriteString(f.item(s, sec, i))
			}
		}
	}
	if s.Omitted != nil {
		b.WriteString("\n")
		b.WriteString(f.cutLine(budget, *s.Omitted))
	}
	return b.String()
}

func (f summaryFormatter) header(sec int) string {
	title := [numSections]string{"Key symbols", "Dependency graph", "Risk areas", "Files touched"}[sec]
	if f.format == FormatMarkdown {
		return "## " + title + "\n"
	}
	return strings.ToUpper(title) + "\n"
}

func (f summaryFormatter) none(sec int) string {
	text := [numSections]string{"none", "no edges among these symbols", "none found", "none"}[sec]
	if f.format == FormatMarkdown {
		return "- " + text + "\n"
	}
	return "  " + text + "\n"
}

// itemCost estimates the tokens item i of a section adds, with the
// section's header for the first one.
func (f summaryFormatter) itemCost(doc *summaryDoc, sec, i int, lens [numSections]int) int {
	if f.format == FormatJSON {
		var v any
		switch sec {
		case secKeySymbols:
			v = doc.keySymbols[i]
		case secDependencies:
			v = doc.deps[i]
		case secRiskAreas:
			v = doc.risks[i]
		default:
			v = doc.files[i]
		}
		return Tokens(jsonText(v)) + 1
	}
	s := &ContextSummary{KeySymbols: doc.keySymbols, Dependencies: doc.deps, RiskAreas: doc.risks, Files: doc.files}
	c := Tokens(f.item(s, sec, i))
	if i == 0 {
		c += Tokens("\n" + f.header(sec))
	}
	return c
}

// item renders item i of a section of s.
func (f summaryFormatter) item(s *ContextSummary, sec, i int) string {
	md := f.format == FormatMarkdown
	var b strings.Builder
	switch sec {
	case secKeySymbols:
		k := s.KeySymbols[i]
		where := fmt.Sprintf("%s · %s:%d", k.Kind, k.File, k.Line)
		if k.Role != "" {
			where += " · " + k.Role
		}
		if md {
			// names are code: in bold, __init__ would turn into emphasis
			fmt.Fprintf(&b, "- %s %s\n", mdCode(k.Name), where)
			if k.Signature != "" {
				fmt.Fprintf(&b, "  %s\n", mdCode(k.Signature))
			}
			if k.Summary != "" {
				fmt.Fprintf(&b, "  %s\n", k.Summary)
			}
		} else {
			fmt.Fprintf(&b, "  %s (%s)\n", k.Name, where)
			if k.Signature != "" {
				fmt.Fprintf(&b, "      %s\n", k.Signature)
			}
			if k.Summary != "" {
				fmt.Fprintf(&b, "      %s\n", k.Summary)
			}
		}
	case secDependencies:
		d := s.Dependencies[i]
		kind := d.Kind
		if d.Confidence > 0 {
			kind += fmt.Sprintf(", %.2f", d.Confidence)
		}
		line := fmt.Sprintf("%s -> %s (%s)", d.From, d.To, kind)
		if md {
			fmt.Fprintf(&b, "- %s\n", line)
		} else {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	case secRiskAreas:
		r := s.RiskAreas[i]
		if md {
			fmt.Fprintf(&b, "- %s (%s:%d): %s\n", mdCode(r.Name), r.File, r.Line, strings.Join(r.Reasons, "; "))
		} else {
			fmt.Fprintf(&b, "  %s (%s:%d): %s\n", r.Name, r.File, r.Line, strings.Join(r.Reasons, "; "))
		}
	default:
		fl := s.Files[i]
		line := fmt.Sprintf("%s: %d key %s of %d", fl.Path, fl.KeySymbols, plural(fl.KeySymbols, "symbol", "symbols"), fl.Symbols)
		if fl.Churn != nil {
			line += fmt.Sprintf(" · churn %d in 30 days", *fl.Churn)
		}
		if md {
			fmt.Fprintf(&b, "- %s\n", line)
		} else {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	return b.String()
}

// cutLine is the final line of a summary that did not fit whole.
func (f summaryFormatter) cutLine(budget int, o SummaryOmitted) string {
	var parts []string
	for _, p := range []struct {
		n          int
		one, other string
	}{
		{o.KeySymbols, "key symbol", "key symbols"},
		{o.Dependencies, "dependency", "dependencies"},
		{o.RiskAreas, "risk area", "risk areas"},
		{o.Files, "file", "files"},
	} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, plural(p.n, p.one, p.other)))
		}
	}
	if f.asked > 0 {
		budget = f.asked
	}
	line := fmt.Sprintf("Cut to fit %d tokens, left out: %s (raise the budget to see them).", budget, strings.Join(parts, ", "))
	if f.format == FormatMarkdown {
		return "_" + line + "_\n"
	}
	return line + "\n"
}

func plural(n int, one, other string) string {
	if n == 1 {
		return one
	}
	return other
}

// mdCode renders s as inline code, with a longer fence when s holds
// backticks.
func mdCode(s string) string {
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return "`` " + s + " ``"
}

// jsonText is compact JSON without HTML escapes, which only cost tokens.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "{}"
	}
	return strings.TrimSuffix(b.String(), "\n")
}
