package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/query"
)

var rootFlag = &cli.StringFlag{Name: "root", Usage: "the repository directory (default: the one holding the index's .sdl directory, or the working directory)"}

func searchCommand() *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "find symbols by name and text",
		ArgsUsage: "QUERY",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag,
			&cli.StringSliceFlag{Name: "kind", Usage: "only symbols of this kind (repeatable)"},
			atLeastOne(&cli.IntFlag{Name: "limit", Usage: "at most this many results", Value: 20}),
			&cli.BoolFlag{Name: "evidence", Usage: "show how results were found"},
			&cli.BoolFlag{Name: "semantic", Usage: "add the vector lane (hybrid retrieval) when the index has vectors"},
			cpuProfileFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("search needs a query: sdl search parseConfig")
			}
			stop, err := startCPUProfile(c)
			if err != nil {
				return err
			}
			defer stop()
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			resp, err := x.Search(c.Context, query.SearchRequest{Query: strings.Join(c.Args().Slice(), " "),
				Kinds: c.StringSlice("kind"), Limit: c.Int("limit"), IncludeRetrievalEvidence: c.Bool("evidence") || c.Bool("semantic"),
				Semantic: c.Bool("semantic")})
			if err != nil {
				return err
			}
			// the evidence holds why a lane was absent
			noVectors := ""
			if ev := resp.RetrievalEvidence; ev != nil && c.Bool("semantic") {
				noVectors = ev.FallbackReason
			}
			if !c.Bool("evidence") {
				resp.RetrievalEvidence = nil
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, resp)
			}
			u := newUI(c.App.Writer)
			if len(resp.Results) == 0 {
				fmt.Fprintln(u.w, "no symbols match")
			}
			for _, r := range resp.Results {
				name := r.Name
				if r.Qualified != "" {
					name = r.Qualified
				}
				fmt.Fprintf(u.w, "%-11s %s  %s\n", u.kind(r.Kind), u.name(name), u.path(fmt.Sprintf("%s:%d", r.File, r.Range.StartLine)))
				if r.Summary != "" {
					fmt.Fprintf(u.w, "            %s\n", u.dim(r.Summary))
				}
				if c.Bool("evidence") {
					fmt.Fprintf(u.w, "            %s\n", u.dim(fmt.Sprintf("score %.4g · lanes %s", r.Score, strings.Join(r.Lanes, "+"))))
				}
			}
			if ev := resp.RetrievalEvidence; ev != nil {
				printEvidence(u, ev)
			}
			fmt.Fprintf(u.w, "%s\n", u.dim(fmt.Sprintf("%s · %s: %s · %s", count(len(resp.Results), "result", "results"), resp.RetrievalMode,
				strings.Join(resp.Lanes, "+"), resp.LedgerVersion)))
			if noVectors != "" {
				fmt.Fprintln(u.w, u.warn("lexical only: "+noVectors))
			}
			return nil
		},
	}
}

// printEvidence tells how a search found its results: the terms it looked
// for and how many candidates each lane brought.
func printEvidence(u *ui, ev *query.Evidence) {
	var lanes []string
	for _, l := range ev.Sources {
		lanes = append(lanes, fmt.Sprintf("%s %d", l, ev.CandidateCount[l]))
	}
	line := "terms: " + strings.Join(ev.Terms, " ")
	if len(ev.Identifiers) > 0 {
		line += " · identifiers: " + strings.Join(ev.Identifiers, " ")
	}
	fmt.Fprintln(u.w, u.dim(line))
	fmt.Fprintln(u.w, u.dim(fmt.Sprintf("candidates: %s · fused in %.1f ms", strings.Join(lanes, ", "), ev.FusionLatency)))
}

func cardCommand() *cli.Command {
	return &cli.Command{
		Name:      "card",
		Usage:     "print a symbol's card: signature, summary, invariants, side effects, dependencies, metrics",
		ArgsUsage: "NAME|ID",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag,
			&cli.StringFlag{Name: "detail", Usage: "minimal, signature, deps, compact or full", Value: query.DetailFull},
			&cli.StringFlag{Name: "file", Usage: "the file the symbol is in, when the name is ambiguous"},
			&cli.StringFlag{Name: "kind", Usage: "the symbol's kind, when the name is ambiguous"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("card needs one symbol name or id: sdl card Store.Add")
			}
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			arg := c.Args().First()
			req := query.CardRequest{Detail: c.String("detail")}
			if isSymbolID(arg) && c.String("file") == "" && c.String("kind") == "" {
				req.SymbolID = arg
			} else {
				req.SymbolRef = &query.SymbolRef{Name: arg, File: c.String("file"), Kind: c.String("kind")}
			}
			res, err := x.Card(c.Context, req)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, res)
			}
			printCard(newUI(c.App.Writer), res.(*query.Card))
			return nil
		},
	}
}

// isSymbolID reports whether s looks like a symbol id (16 hex digits).
func isSymbolID(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

func printCard(u *ui, c *query.Card) {
	name := c.Name
	if c.Container != "" {
		name = c.Container + "." + c.Name
	}
	fmt.Fprintf(u.w, "%s %s  %s\n", u.kind(c.Kind), u.name(name), u.path(fmt.Sprintf("%s:%d-%d", c.File, c.Range.StartLine, c.Range.EndLine)))
	if c.Signature != nil && c.Signature.Text != "" {
		fmt.Fprintf(u.w, "  %s\n", c.Signature.Text)
	}
	// the summary is often the doc's first sentence: print it once
	if c.Summary != "" && !strings.HasPrefix(strings.Join(strings.Fields(c.Doc), " "), strings.Join(strings.Fields(c.Summary), " ")) {
		fmt.Fprintf(u.w, "  %s\n", u.dim(c.Summary))
	}
	if c.Doc != "" {
		for _, l := range strings.Split(c.Doc, "\n") {
			fmt.Fprintf(u.w, "  %s\n", u.dim("│ "+l))
		}
	}
	section := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(u.w, "  %s\n", u.title(title))
		for _, it := range items {
			fmt.Fprintf(u.w, "    %s\n", it)
		}
	}
	section("invariants", c.Invariants)
	section("side effects", c.SideEffects)
	if d := c.Deps; d != nil {
		var calls, callers []string
		for _, dep := range d.Calls {
			calls = append(calls, depLine(dep))
		}
		for _, dep := range d.CalledBy {
			callers = append(callers, depLine(dep))
		}
		section("calls", calls)
		section("called by", callers)
		section("imports", d.Imports)
		section("unresolved", d.Unresolved)
	}
	if m := c.Metrics; m != nil {
		line := fmt.Sprintf("fan-in %d · fan-out %d · churn 30d %d · test refs %d", m.FanIn, m.FanOut, m.Churn30d, m.TestRefs)
		if m.CanonicalTest != "" {
			line += " · test " + m.CanonicalTest
		}
		fmt.Fprintf(u.w, "  %s\n", u.dim(line))
	}
	if c.Cluster != nil {
		fmt.Fprintf(u.w, "  %s\n", u.dim(fmt.Sprintf("cluster %d: %s (%d members)", c.Cluster.ClusterID, c.Cluster.Label, c.Cluster.MemberCount)))
	}
	for _, p := range c.Processes {
		fmt.Fprintf(u.w, "  %s\n", u.dim(fmt.Sprintf("process %d (%s, depth %d): %s", p.ProcessID, p.Role, p.Depth, p.Label)))
	}
	v := ""
	if c.Version != nil {
		v = c.Version.LedgerVersion + " · "
	}
	fmt.Fprintf(u.w, "  %s\n", u.dim(fmt.Sprintf("%s%s · etag %s", v, c.SymbolID, c.Etag)))
}

func depLine(d query.Dep) string {
	s := d.Label
	if d.Kind != "" {
		s = d.Kind + " " + s
	}
	// compact and smaller cards carry no confidence: nothing to flag
	if d.Confidence > 0 && d.Confidence < 0.9 {
		s += fmt.Sprintf(" [%.2f]", d.Confidence)
	}
	return s
}

func sliceCommand() *cli.Command {
	return &cli.Command{
		Name:      "slice",
		Usage:     "the symbols a task needs, ranked, within a token budget",
		ArgsUsage: "TASK TEXT",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag,
			atLeastOne(&cli.IntFlag{Name: "budget", Usage: "maximum tokens of the answer", Value: query.DefaultMaxTokens}),
			atLeastOne(&cli.IntFlag{Name: "max-cards", Usage: "maximum cards", Value: query.DefaultMaxCards}),
			&cli.StringSliceFlag{Name: "entry", Usage: "a symbol to start from, by id or name (repeatable)"},
			&cli.StringSliceFlag{Name: "edited", Usage: "a file being edited (repeatable)"},
			&cli.StringFlag{Name: "stack-trace", Usage: "a file holding a stack trace (- for stdin)"},
			&cli.StringFlag{Name: "failing-test", Usage: "the path of a failing test file"},
			&cli.StringFlag{Name: "detail", Usage: "one detail level for every card instead of adaptive detail"},
			&cli.Float64Flag{Name: "min-confidence", Usage: "ignore edges below this confidence", Value: 0.5},
			&cli.BoolFlag{Name: "evidence", Usage: "include how the seeds were found"},
			&cli.BoolFlag{Name: "lexical", Usage: "seed from the task text with the exact and full-text lanes only, not vectors"},
			cpuProfileFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 && len(c.StringSlice("entry")) == 0 && len(c.StringSlice("edited")) == 0 &&
				c.String("stack-trace") == "" && c.String("failing-test") == "" {
				return usagef("slice needs a task: sdl slice \"fix the timeout in the HTTP client\" (or --entry, --edited, --stack-trace, --failing-test)")
			}
			stop, err := startCPUProfile(c)
			if err != nil {
				return err
			}
			defer stop()
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			// not closed: the process exits after its one slice, and
			// closing the read-only connections returned their page
			// caches to the OS a page run at a time (madvise), 1.2 ms of
			// a slice of GOROOT/src, which the exit does at once
			mc := c.Float64("min-confidence")
			req := query.SliceRequest{TaskText: strings.Join(c.Args().Slice(), " "), EditedFiles: c.StringSlice("edited"),
				FailingTestPath: c.String("failing-test"), CardDetail: c.String("detail"), MinConfidence: &mc,
				IncludeRetrievalEvidence: c.Bool("evidence"),
				Budget:                   &query.SliceBudget{MaxCards: c.Int("max-cards"), MaxEstimatedTokens: c.Int("budget")}}
			if c.Bool("lexical") {
				off := false
				req.Semantic = &off
			}
			for _, e := range c.StringSlice("entry") {
				if isSymbolID(e) {
					req.EntrySymbols = append(req.EntrySymbols, e)
					continue
				}
				r, err := x.Resolve(c.Context, query.SymbolRef{Name: e})
				if err != nil {
					return err
				}
				req.EntrySymbols = append(req.EntrySymbols, r.ID)
			}
			if p := c.String("stack-trace"); p != "" {
				data, err := readInput(c, p)
				if err != nil {
					return err
				}
				req.StackTrace = string(data)
			}
			resp, err := x.BuildSlice(c.Context, req)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, resp)
			}
			printSlice(newUI(c.App.Writer), resp)
			return nil
		},
	}
}

func printSlice(u *ui, r *query.SliceResponse) {
	for i, c := range r.Slice.Cards {
		name := c.Name
		if c.Container != "" {
			name = c.Container + "." + c.Name
		}
		fmt.Fprintf(u.w, "%3d %-11s %s  %s\n", i+1, u.kind(c.Kind), u.name(name), u.path(fmt.Sprintf("%s:%d", c.File, c.Range.StartLine)))
		if c.Summary != "" {
			fmt.Fprintf(u.w, "                %s\n", u.dim(c.Summary))
		}
	}
	for _, f := range r.Slice.Frontier {
		fmt.Fprintf(u.w, "  · %s  %s  %s\n", u.dim(f.Name), u.dim(fmt.Sprintf("%s:%d", f.File, f.Line)), u.dim(f.Why))
	}
	for _, m := range r.Memories {
		line := fmt.Sprintf("  memory %s %s: %s", u.dim(m.MemoryID), u.kind(m.Type), m.Title)
		if m.Stale {
			line += " " + u.warn("(stale since "+m.StaleVersion+")")
		}
		fmt.Fprintln(u.w, line)
	}
	for _, w := range r.Warnings {
		fmt.Fprintln(u.w, u.warn(w))
	}
	tail := fmt.Sprintf("%s · %d/%d tokens · %s · handle %s", count(len(r.Slice.Cards), "card", "cards"), r.EstimatedTokens,
		r.Slice.Budget.MaxEstimatedTokens, r.LedgerVersion, r.SliceHandle)
	if r.RetrievalMode != "" {
		tail += " · " + r.RetrievalMode
	}
	if t := r.Slice.Truncation; t != nil {
		tail += fmt.Sprintf(" · %d more (sdl spillover %s)", t.DroppedCards, t.SpilloverHandle)
	}
	fmt.Fprintln(u.w, u.dim(tail))
	if len(r.StaleFiles) > 0 {
		fmt.Fprintln(u.w, u.warn("changed on disk since "+r.LedgerVersion+": "+strings.Join(r.StaleFiles, ", ")+" (run sdl index)"))
	}
}
