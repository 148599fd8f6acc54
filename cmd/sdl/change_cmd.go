package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// Change intelligence in the terminal: deltas between ledger versions,
// PR risk, and pruning old versions.

const versionsHelp = "A version is an id (v3), a sequence number (3), HEAD or HEAD~N counted on the ledger\n" +
	"(HEAD is the newest version), or a git commit or ref recorded on a version (sdl index --rev REF);\n" +
	"a name indexed with --rev (HEAD, HEAD~1) means that git revision, not a place on the ledger.\n" +
	"In CI: sdl index --rev origin/main && sdl index --rev HEAD && sdl risk --from origin/main --to HEAD"

var (
	fromFlag  = &cli.StringFlag{Name: "from", Usage: "the version before the change", Value: "HEAD~1"}
	toFlag    = &cli.StringFlag{Name: "to", Usage: "the version after the change", Value: "HEAD"}
	depthFlag = &cli.IntFlag{Name: "depth", Usage: "blast radius depth in edges", Value: query.DefaultRadiusDepth}
	// formatFlag picks how delta and risk print; --json is --format json
	formatFlag = &cli.StringFlag{Name: "format", Value: "text",
		Usage: "text, json, or markdown (for a pull request: tables, tests to run and a Mermaid graph of the blast radius)"}
)

// outputFormat is the --format of a command, with --json as json.
func outputFormat(c *cli.Context) (string, error) {
	f := c.String("format")
	if c.Bool("json") {
		if c.IsSet("format") && f != "json" {
			return "", usagef("--json and --format %s disagree; give one", f)
		}
		return "json", nil
	}
	switch f {
	case "text", "json", query.FormatMarkdown:
		return f, nil
	}
	return "", usagef("--format takes text, json or markdown, got %q", f)
}

// radiusGraph draws the blast radius of a delta for a Markdown summary.
func radiusGraph(c *cli.Context, x *query.Index, d *query.DeltaPack) (*query.RadiusGraph, error) {
	return x.RadiusGraph(c.Context, d, c.Int("depth"), query.MarkdownGraphNodes)
}

func deltaCommand() *cli.Command {
	return &cli.Command{
		Name:        "delta",
		Usage:       "what changed between two indexed versions: symbols, signatures, facts, edges, blast radius",
		Description: versionsHelp,
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag, formatFlag, fromFlag, toFlag, depthFlag,
			atLeastOne(&cli.IntFlag{Name: "max-changes", Usage: "at most this many changes and edge changes", Value: 200}),
			atLeastOne(&cli.IntFlag{Name: "max-tokens", Usage: "at most this many tokens (--json)", Value: query.MaxSliceTokens}),
			&cli.StringFlag{Name: "cursor", Usage: "continue a cut delta (its nextCursor)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("delta takes no arguments; name the versions with --from and --to")
			}
			format, err := outputFormat(c)
			if err != nil {
				return err
			}
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			resp, err := x.Delta(c.Context, query.DeltaRequest{FromVersion: c.String("from"), ToVersion: c.String("to"),
				MaxDepth: c.Int("depth"), Cursor: c.String("cursor"),
				Budget: &query.SliceBudget{MaxCards: c.Int("max-changes"), MaxEstimatedTokens: c.Int("max-tokens")}})
			if err != nil {
				return err
			}
			switch format {
			case "json":
				return writeJSON(c.App.Writer, resp)
			case query.FormatMarkdown:
				g, err := radiusGraph(c, x, resp.Delta)
				if err != nil {
					return err
				}
				return query.WriteDeltaMarkdown(c.App.Writer, resp, g)
			}
			printDelta(newUI(c.App.Writer), resp)
			return nil
		},
	}
}

func short(commit string) string {
	if len(commit) > 8 {
		return commit[:8]
	}
	return commit
}

func versionsLine(u *ui, from, to, fromCommit, toCommit string) string {
	s := u.title(from + " → " + to)
	if fromCommit != "" || toCommit != "" {
		s += u.dim(fmt.Sprintf(" (%s → %s)", orDash(short(fromCommit)), orDash(short(toCommit))))
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func summaryLine(s query.DeltaSummary) string {
	line := fmt.Sprintf("files +%d ~%d -%d · symbols +%d ~%d -%d, %d renamed or moved · edges +%d -%d · blast radius %d",
		s.FilesAdded, s.FilesChanged, s.FilesRemoved, s.SymbolsAdded, s.SymbolsModified, s.SymbolsRemoved, s.SymbolsRenamed,
		s.EdgesAdded, s.EdgesRemoved, s.BlastRadius)
	if s.TestsReaching > 0 {
		line += fmt.Sprintf(", %d tests reach it", s.TestsReaching)
	}
	if s.SymbolsRelocated > 0 {
		line += fmt.Sprintf(" · %d only moved lines", s.SymbolsRelocated)
	}
	return line
}

func printDelta(u *ui, r *query.DeltaResponse) {
	d := r.Delta
	fmt.Fprintf(u.w, "%s  %s\n", versionsLine(u, d.FromVersion, d.ToVersion, d.FromCommit, d.ToCommit), summaryLine(d.Summary))
	if len(d.Changes) == 0 && len(d.EdgeChanges) == 0 && d.Truncation == nil {
		fmt.Fprintln(u.w, "no changes")
	}
	for _, ch := range d.Changes {
		printChange(u, ch)
	}
	if len(d.EdgeChanges) > 0 {
		fmt.Fprintln(u.w, u.title("edges"))
		for _, e := range d.EdgeChanges {
			sign := u.ok("+")
			if e.Change == query.ChangeRemoved {
				sign = u.warn("-")
			}
			fmt.Fprintf(u.w, "  %s %-10s %s → %s  %s\n", sign, e.Kind, e.FromName, e.ToName, u.path(fmt.Sprintf("%s:%d", e.File, e.Line)))
		}
	}
	if len(r.Amplifiers) > 0 {
		fmt.Fprintln(u.w, u.title("amplifiers")+u.dim(" (fan-in grew: their next change reaches further)"))
		for _, a := range r.Amplifiers {
			fmt.Fprintf(u.w, "  %s  fan-in %d → %d (+%.0f%%)  %s\n", u.name(a.Name), a.Previous, a.Current, a.GrowthRate*100, u.path(a.File))
		}
	}
	if t := d.Truncation; t != nil && t.Truncated {
		fmt.Fprintln(u.w, u.dim(fmt.Sprintf("%d of %d shown (%s); more: --cursor %s", t.Returned, t.Total, t.Reason, t.NextCursor)))
	}
}

func printChange(u *ui, ch *query.SymbolChange) {
	label := ch.Change
	switch ch.Change {
	case query.ChangeAdded:
		label = u.ok(label)
	case query.ChangeRemoved:
		label = u.warn(label)
	}
	fmt.Fprintf(u.w, "%-9s %s %s  %s", label, u.kind(ch.Kind), u.name(ch.Name), u.path(fmt.Sprintf("%s:%d", ch.File, ch.Line)))
	if len(ch.Aspects) > 0 {
		fmt.Fprintf(u.w, "  %s", u.dim("["+strings.Join(ch.Aspects, ", ")+"]"))
	}
	fmt.Fprintln(u.w)
	if p := ch.Previous; p != nil {
		fmt.Fprintf(u.w, "          %s\n", u.dim(fmt.Sprintf("was %s at %s:%d (paired by %s)", p.Name, p.File, p.Line, ch.PairedBy)))
	}
	if sd := ch.SignatureDiff; sd != nil {
		// a type that lost a member can keep its signature's text: then
		// the members are the change, not the text
		if sd.Before != sd.After {
			fmt.Fprintf(u.w, "          signature: %s\n                  →  %s\n", sd.Before, sd.After)
		}
		if len(sd.MembersAdded)+len(sd.MembersRemoved) > 0 {
			var ms []string
			for _, m := range sd.MembersRemoved {
				ms = append(ms, "−"+m)
			}
			for _, m := range sd.MembersAdded {
				ms = append(ms, "+"+m)
			}
			fmt.Fprintf(u.w, "          members: %s\n", strings.Join(ms, " "))
		}
		if sd.Breaking {
			fmt.Fprintf(u.w, "          %s %s\n", u.warn("breaking:"), strings.Join(sd.Reasons, "; "))
		}
	}
	facts := func(title string, fd *query.FactDiff) {
		if fd == nil {
			return
		}
		for _, a := range fd.Added {
			fmt.Fprintf(u.w, "          %s %s %s\n", title, u.ok("+"), a)
		}
		for _, r := range fd.Removed {
			fmt.Fprintf(u.w, "          %s %s %s\n", title, u.warn("-"), r)
		}
	}
	facts("invariant", ch.InvariantDiff)
	facts("side effect", ch.SideEffectDiff)
	if f := ch.FanIn; f != nil && f.Before != f.After {
		fmt.Fprintf(u.w, "          fan-in %d → %d\n", f.Before, f.After)
	}
	if br := ch.BlastRadius; br != nil && br.Total > 0 {
		var names []string
		for _, d := range br.Dependents {
			n := fmt.Sprintf("%s (%d)", d.Name, d.Distance)
			if d.IsTest {
				n += " test"
			}
			names = append(names, n)
		}
		more := ""
		if br.Total > len(br.Dependents) {
			more = fmt.Sprintf(", +%d more", br.Total-len(br.Dependents))
		}
		// "dependents", not "radius": the summary line's blast radius counts
		// the union over all changes without tests and changed symbols, and
		// the same word for both made one change look larger than the whole.
		fmt.Fprintf(u.w, "          %s %s%s\n", u.dim(fmt.Sprintf("dependents %d (%d tests):", br.Total, br.Tests)), strings.Join(names, ", "), more)
	}
}

func riskCommand() *cli.Command {
	return &cli.Command{
		Name:  "risk",
		Usage: "score a change between two indexed versions: findings, tests to run, a policy decision",
		Description: versionsHelp + "\n\n--explain prints how the score is computed. --fail-on deny (or review) exits with code 3\n" +
			"when the decision is that one (or stricter), so CI can gate on it.",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag, formatFlag, fromFlag, toFlag, depthFlag,
			&cli.Float64Flag{Name: "threshold", Usage: "escalate at or above this risk score; show only findings scored at or above it", Value: query.DefaultRiskThreshold},
			&cli.BoolFlag{Name: "explain", Usage: "print the formula (and, with an index, each factor of this change)"},
			&cli.StringFlag{Name: "fail-on", Usage: "exit 3 when the decision is deny, or review or deny: deny|review"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("risk takes no arguments; name the versions with --from and --to")
			}
			failOn := c.String("fail-on")
			if failOn != "" && failOn != "deny" && failOn != "review" {
				return usagef("--fail-on takes deny or review, got %q", failOn)
			}
			format, err := outputFormat(c)
			if err != nil {
				return err
			}
			if c.Bool("explain") && !c.IsSet("from") && !c.IsSet("to") && format == "text" {
				fmt.Fprintln(c.App.Writer, query.RiskFormula)
				return nil
			}
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			req := query.RiskRequest{FromVersion: c.String("from"), ToVersion: c.String("to"), MaxDepth: c.Int("depth"),
				MaxFindings: -1, MaxTests: -1}
			if c.IsSet("threshold") {
				t := c.Float64("threshold")
				req.RiskThreshold = &t
			}
			resp, err := x.AnalyzeRisk(c.Context, req)
			if err != nil {
				return err
			}
			switch format {
			case "json":
				if err := writeJSON(c.App.Writer, resp); err != nil {
					return err
				}
			case query.FormatMarkdown:
				// the graph needs the delta's changes, which the risk
				// answer summarises
				d, err := x.Delta(c.Context, query.DeltaRequest{FromVersion: req.FromVersion, ToVersion: req.ToVersion,
					MaxDepth: req.MaxDepth, Budget: &query.SliceBudget{MaxCards: query.MaxSliceCards, MaxEstimatedTokens: query.MaxSliceTokens}})
				if err != nil {
					return err
				}
				g, err := radiusGraph(c, x, d.Delta)
				if err != nil {
					return err
				}
				if err := query.WriteRiskMarkdown(c.App.Writer, resp, g); err != nil {
					return err
				}
			default:
				printRisk(newUI(c.App.Writer), resp, c.Bool("explain"))
			}
			switch d := resp.PolicyDecision.Decision; {
			case failOn == "deny" && d == "deny", failOn == "review" && (d == "deny" || d == "review"):
				return silentExit{exitDenied}
			}
			return nil
		},
	}
}

func printRisk(u *ui, r *query.RiskResponse, explain bool) {
	a := r.Analysis
	level := a.RiskLevel
	switch level {
	case "high", "critical":
		level = u.warn(level)
	case "low":
		level = u.ok(level)
	}
	fmt.Fprintf(u.w, "%s  risk %s (%s) · decision %s", versionsLine(u, a.FromVersion, a.ToVersion, a.FromCommit, a.ToCommit),
		u.title(fmt.Sprint(a.RiskScore)), level, u.title(r.PolicyDecision.Decision))
	if r.EscalationRequired {
		fmt.Fprint(u.w, " · "+u.warn("escalation required"))
	}
	fmt.Fprintln(u.w)
	fmt.Fprintln(u.w, u.dim(summaryLine(a.Summary)))
	for _, reason := range r.PolicyDecision.DeniedReasons {
		fmt.Fprintf(u.w, "  %s %s\n", u.warn("!"), reason)
	}
	if explain {
		fmt.Fprintln(u.w, u.title("factors")+u.dim(" (sdl risk --explain alone prints the formula)"))
		for _, f := range a.Factors {
			fmt.Fprintf(u.w, "  %-9s %2d × %.2f = %5.2f  %s\n", f.Name, f.Weight, f.Value, f.Points, u.dim(f.Detail))
		}
	}
	if len(a.Findings) > 0 {
		fmt.Fprintln(u.w, u.title("findings"))
	}
	for _, f := range a.Findings {
		sev := f.Severity
		if sev == "high" || sev == "critical" {
			sev = u.warn(sev)
		}
		where := ""
		if f.File != "" {
			where = "  " + u.path(f.File)
		}
		fmt.Fprintf(u.w, "  %3d %-8s %-18s %s%s\n", f.Score, sev, f.Kind, f.Message, where)
	}
	if a.FindingsBelowThreshold > 0 {
		fmt.Fprintln(u.w, u.dim(fmt.Sprintf("  %d finding(s) below the threshold not shown", a.FindingsBelowThreshold)))
	}
	if len(a.RecommendedTests) > 0 {
		fmt.Fprintln(u.w, u.title("tests to run"))
		for i, t := range a.RecommendedTests {
			if i == 20 {
				fmt.Fprintf(u.w, "  %s\n", u.dim(fmt.Sprintf("... and %d more (--json lists all)", len(a.RecommendedTests)-20)))
				break
			}
			why := "changed"
			if !t.Changed {
				why = fmt.Sprintf("reaches %s in %d", strings.Join(t.Reaches, ", "), t.Distance)
			}
			fmt.Fprintf(u.w, "  %s  %s  %s\n", u.name(t.Name), u.path(t.File), u.dim(why))
		}
		for _, cmd := range a.TestCommands {
			fmt.Fprintf(u.w, "  $ %s\n", cmd)
		}
	}
	fmt.Fprintln(u.w, u.dim("audit "+r.PolicyDecision.AuditHash))
}

func gcCommand() *cli.Command {
	return &cli.Command{
		Name:  "gc",
		Usage: "keep the newest N versions of the index, prune the rest and vacuum",
		Description: "Rows only older versions can see and their ledger rows are deleted; the oldest kept version keeps\n" +
			"its prev_hash, so the chain from it on still verifies. Readers (sdl serve) keep working.",
		Flags: []cli.Flag{dbFlag, jsonFlag,
			&cli.IntFlag{Name: "keep", Usage: "versions to keep, newest first", Required: true, DefaultText: "none, it is required"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("gc takes no arguments: sdl gc --keep 10")
			}
			if c.Int("keep") < 1 {
				return usagef("--keep must be at least 1, got %d", c.Int("keep"))
			}
			p, err := dbPath(c)
			if err != nil {
				return err
			}
			res, err := index.GC(c.Context, p, c.Int("keep"))
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, res)
			}
			u := newUI(c.App.Writer)
			if len(res.Removed) == 0 {
				fmt.Fprintf(u.w, "%s: %d version(s), nothing to prune\n", u.ok("kept all"), len(res.Kept))
				return nil
			}
			fmt.Fprintf(u.w, "%s %d version(s) (%s..%s), removed %d (%s..%s) · rows: %d symbols, %d edges, %d files · %s → %s\n",
				u.ok("kept"), len(res.Kept), res.Kept[len(res.Kept)-1], res.Kept[0], len(res.Removed),
				res.Removed[len(res.Removed)-1], res.Removed[0], res.SymbolRows, res.EdgeRows, res.FileRows,
				bytesText(res.BytesBefore), bytesText(res.BytesAfter))
			return nil
		},
	}
}
