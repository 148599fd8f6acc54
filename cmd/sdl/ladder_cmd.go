package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/query"
)

// The ladder in the terminal: skeleton, hot path and window, and the policy
// that gates windows.

// exitDenied is the exit code of a denied window: an answer, not an error,
// but one a script must not take for code.
const exitDenied = 3

// silentExit ends sdl with a code after the command printed its answer.
type silentExit struct{ code int }

func (e silentExit) Error() string { return fmt.Sprintf("exit %d", e.code) }

var (
	symFileFlag = &cli.StringFlag{Name: "in", Usage: "the file the symbol is in, when its name is ambiguous"}
	symKindFlag = &cli.StringFlag{Name: "kind", Usage: "the symbol's kind, when its name is ambiguous"}
)

// symbolArg turns NAME|ID into a symbol id.
func symbolArg(c *cli.Context, x *query.Index, arg, file string) (string, error) {
	if isSymbolID(arg) && file == "" && c.String("kind") == "" {
		return arg, nil
	}
	r, err := x.Resolve(c.Context, query.SymbolRef{Name: arg, File: file, Kind: c.String("kind")})
	if err != nil {
		return "", err
	}
	return r.ID, nil
}

func skeletonCommand() *cli.Command {
	return &cli.Command{
		Name:  "skeleton",
		Usage: "a symbol or file with bodies elided: signatures, control flow, returns",
		Description: "sdl skeleton Store.Add           the skeleton of a symbol\n" +
			"sdl skeleton store/db.go         the skeleton of a file (or --file store/db.go)\n" +
			"sdl skeleton --file store/db.go Open   a symbol of that file",
		ArgsUsage: "[NAME|ID|PATH]",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag, symKindFlag,
			&cli.StringFlag{Name: "file", Usage: "a file path relative to the repository root"},
			&cli.IntFlag{Name: "max-lines", Usage: "at most this many lines", DefaultText: "no limit but --max-tokens"},
			atLeastOne(&cli.IntFlag{Name: "max-tokens", Usage: "at most this many tokens", Value: query.DefaultSkeletonTokens}),
			&cli.BoolFlag{Name: "exported-only", Usage: "only what other packages or modules can use"},
			&cli.IntFlag{Name: "offset", Usage: "start at this line of the skeleton (resume a truncated one)", DefaultText: "the first line"},
			&cli.StringSliceFlag{Name: "ident", Usage: "mark the lines holding this identifier (repeatable)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 || c.NArg() == 0 && c.String("file") == "" {
				return usagef("skeleton needs one symbol name or id, or --file PATH: sdl skeleton Store.Add")
			}
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			req := query.SkeletonRequest{ExportedOnly: c.Bool("exported-only"), MaxLines: c.Int("max-lines"),
				MaxTokens: c.Int("max-tokens"), SkeletonOffset: c.Int("offset"), IdentifiersToFind: c.StringSlice("ident")}
			if f := query.FileArg(c.Args().First()); c.NArg() == 1 && c.String("file") == "" && f != "" {
				req.File = f // sdl skeleton store/db.go
			} else if c.NArg() == 1 {
				if req.SymbolID, err = symbolArg(c, x, c.Args().First(), c.String("file")); err != nil {
					return err
				}
			} else {
				req.File = c.String("file")
			}
			resp, err := x.Skeleton(c.Context, req)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, resp)
			}
			u := newUI(c.App.Writer)
			printSkeleton(u, resp, req.IdentifiersToFind)
			return nil
		},
	}
}

func printSkeleton(u *ui, r *query.SkeletonResponse, idents []string) {
	width := 1
	for _, n := range r.SourceLines {
		width = max(width, len(strconv.Itoa(n)))
	}
	lines := strings.Split(r.Skeleton, "\n")
	if r.Skeleton == "" {
		lines = nil
	}
	for i, l := range lines {
		num := ""
		if i < len(r.SourceLines) && r.SourceLines[i] > 0 {
			num = strconv.Itoa(r.SourceLines[i])
		}
		if l == "" {
			fmt.Fprintln(u.w)
			continue
		}
		fmt.Fprintf(u.w, "%s  %s\n", u.dim(fmt.Sprintf("%*s", width, num)), u.highlight(l, idents))
	}
	what := r.File
	if r.SymbolID != "" {
		what = fmt.Sprintf("%s:%d-%d", r.File, r.Range.StartLine, r.Range.EndLine)
	}
	tail := fmt.Sprintf("%s · skeleton lines %d-%d of %d · %d tokens · %d source lines · %s", what,
		r.SkeletonOffset+min(1, r.Lines), r.SkeletonOffset+r.Lines, r.TotalLines, r.EstimatedTokens, r.OriginalLines, r.LedgerVersion)
	fmt.Fprintln(u.w, u.dim(tail))
	if t := r.Truncation; t != nil {
		fmt.Fprintln(u.w, u.warn(fmt.Sprintf("truncated (%s): %d more lines; continue with --offset %d", t.Reason, t.RemainingLines, t.ResumeOffset)))
	}
	printWarnings(u, r.Warnings)
}

func printWarnings(u *ui, ws []string) {
	for _, w := range ws {
		fmt.Fprintln(u.w, u.warn("warning: "+w))
	}
}

var styleHit = styleName.Underline(true)

// highlight marks the identifiers in a line of code.
func (u *ui) highlight(line string, idents []string) string {
	if !u.styled || len(idents) == 0 {
		return line
	}
	type span struct{ a, b int }
	var spans []span
	for _, id := range idents {
		for off := 0; off < len(line); {
			i := strings.Index(line[off:], id)
			if i < 0 {
				break
			}
			i += off
			if !wordAround(line, i, i+len(id)) {
				spans = append(spans, span{i, i + len(id)})
			}
			off = i + len(id)
		}
	}
	if len(spans) == 0 {
		return line
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].a < spans[j].a })
	var b strings.Builder
	pos := 0
	for _, s := range spans {
		if s.a < pos {
			continue
		}
		b.WriteString(line[pos:s.a])
		b.WriteString(u.style(styleHit, line[s.a:s.b]))
		pos = s.b
	}
	b.WriteString(line[pos:])
	return b.String()
}

func wordAround(s string, a, b int) bool {
	isW := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return a > 0 && isW(s[a-1]) || b < len(s) && isW(s[b])
}

// printNumbered writes "N  code" lines and "⋮ N lines" gaps, the numbers
// and gaps dimmed and the identifiers highlighted.
func printNumbered(u *ui, text string, idents []string) {
	if text == "" {
		return
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "⋮") {
			fmt.Fprintln(u.w, u.dim(l))
			continue
		}
		i := strings.Index(l, "  ")
		if i < 0 {
			fmt.Fprintln(u.w, l)
			continue
		}
		fmt.Fprintf(u.w, "%s%s\n", u.dim(l[:i+2]), u.highlight(l[i+2:], idents))
	}
}

func hotpathCommand() *cli.Command {
	return &cli.Command{
		Name:      "hotpath",
		Usage:     "the lines of a symbol that use some identifiers, with context",
		ArgsUsage: "NAME|ID IDENT...",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag, symFileFlag, symKindFlag,
			&cli.IntFlag{Name: "context", Usage: "lines of context around each match", Value: query.DefaultContextLines},
			&cli.IntFlag{Name: "max-lines", Usage: "at most this many lines", DefaultText: "no limit but --max-tokens"},
			atLeastOne(&cli.IntFlag{Name: "max-tokens", Usage: "at most this many tokens", Value: query.DefaultHotPathTokens}),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() < 2 {
				return usagef("hotpath needs a symbol and at least one identifier: sdl hotpath Store.Add items")
			}
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			id, err := symbolArg(c, x, c.Args().First(), c.String("in"))
			if err != nil {
				return err
			}
			ctxLines := c.Int("context")
			idents := c.Args().Slice()[1:]
			resp, err := x.HotPath(c.Context, query.HotPathRequest{SymbolID: id, IdentifiersToFind: idents,
				ContextLines: &ctxLines, MaxLines: c.Int("max-lines"), MaxTokens: c.Int("max-tokens")})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, resp)
			}
			u := newUI(c.App.Writer)
			printNumbered(u, resp.Excerpt, idents)
			tail := fmt.Sprintf("%s:%d-%d · %d tokens · found %s", resp.File, resp.Range.StartLine, resp.Range.EndLine,
				resp.EstimatedTokens, listOrNone(resp.MatchedIdentifiers))
			if len(resp.TextMatchedIdentifiers) > 0 {
				tail += " · only as text " + strings.Join(resp.TextMatchedIdentifiers, ", ")
			}
			if len(resp.NotFound) > 0 {
				tail += " · not found " + strings.Join(resp.NotFound, ", ")
			}
			fmt.Fprintln(u.w, u.dim(tail+" · "+resp.LedgerVersion))
			if resp.Truncated {
				fmt.Fprintln(u.w, u.warn("truncated: raise --max-lines/--max-tokens or lower --context"))
			}
			printWarnings(u, resp.Warnings)
			return nil
		},
	}
}

func listOrNone(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	return strings.Join(ss, ", ")
}

func windowCommand() *cli.Command {
	return &cli.Command{
		Name:  "window",
		Usage: "raw code of a symbol, if the policy approves the request",
		Description: "A window must say why it is needed and which identifiers it expects; it is approved when\n" +
			"they are in the code, when the symbol is in the task's slice (--slice-handle, --task), or on\n" +
			"break-glass where the policy allows it. A denial exits with code 3 and names the call to make instead.",
		ArgsUsage: "NAME|ID",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag, symFileFlag, symKindFlag,
			&cli.StringFlag{Name: "reason", Usage: "why raw code is needed (required)"},
			&cli.StringSliceFlag{Name: "ident", Usage: "an identifier you expect in the code (repeatable)"},
			&cli.IntFlag{Name: "lines", Usage: "how many lines you expect to need", DefaultText: "the symbol's length"},
			&cli.StringFlag{Name: "granularity", Usage: "symbol, block or fileWindow", Value: query.GranularitySymbol},
			&cli.IntFlag{Name: "max-tokens", Usage: "at most this many tokens (clamped to the policy)", DefaultText: "the policy's maxWindowTokens"},
			&cli.StringFlag{Name: "slice-handle", Usage: "the handle of the task's slice"},
			&cli.StringFlag{Name: "task", Usage: "the task, to build its slice"},
			&cli.BoolFlag{Name: "break-glass", Usage: "bypass the rules, where the policy allows it (audited)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("window needs one symbol name or id: sdl window Store.Add --reason WHY --ident items")
			}
			if strings.TrimSpace(c.String("reason")) == "" {
				return usagef("window needs --reason: say why raw code is needed")
			}
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			id, err := symbolArg(c, x, c.Args().First(), c.String("in"))
			if err != nil {
				return err
			}
			lines := c.Int("lines")
			if lines == 0 {
				card, err := x.Card(c.Context, query.CardRequest{SymbolID: id, Detail: query.DetailMinimal})
				if err != nil {
					return err
				}
				if cd, ok := card.(*query.Card); ok {
					lines = cd.Range.EndLine - cd.Range.StartLine + 1
				}
			}
			req := query.WindowRequest{SymbolID: id, Reason: c.String("reason"), ExpectedLines: lines,
				IdentifiersToFind: c.StringSlice("ident"), Granularity: c.String("granularity"), MaxTokens: c.Int("max-tokens"),
				BreakGlass: c.Bool("break-glass")}
			if h, t := c.String("slice-handle"), c.String("task"); h != "" || t != "" {
				req.SliceContext = &query.SliceContext{SliceHandle: h, TaskText: t}
			}
			resp, err := x.NeedWindow(c.Context, req)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				if err := writeJSON(c.App.Writer, resp); err != nil {
					return err
				}
			} else {
				printWindow(newUI(c.App.Writer), resp, req.IdentifiersToFind)
			}
			if !resp.Approved {
				return silentExit{exitDenied}
			}
			return nil
		},
	}
}

func printWindow(u *ui, r *query.WindowResponse, idents []string) {
	if !r.Approved {
		fmt.Fprintln(u.w, u.warn("denied"))
		for _, w := range r.WhyDenied {
			fmt.Fprintf(u.w, "  · %s\n", w)
		}
		if a := r.NextBestAction; a != nil {
			args, _ := json.Marshal(a.Args)
			fmt.Fprintf(u.w, "%s %s %s\n  %s\n", u.title("next:"), a.Tool, string(args), u.dim(a.Rationale))
		}
		if s := r.SuggestedNextRequest; s != nil {
			line := "sdl window " + s.SymbolID + " --reason " + strconv.Quote(s.Reason) + fmt.Sprintf(" --lines %d", s.ExpectedLines)
			for _, id := range s.IdentifiersToFind {
				line += " --ident " + id
			}
			if s.BreakGlass {
				line += " --break-glass"
			}
			fmt.Fprintf(u.w, "%s %s\n", u.title("would pass:"), line)
		}
		printWarnings(u, r.Warnings)
		return
	}
	head := "approved"
	if r.DowngradedTo != "" {
		head = "approved, downgraded to " + r.DowngradedTo
	}
	fmt.Fprintln(u.w, u.ok(head))
	for _, w := range r.WhyApproved {
		fmt.Fprintf(u.w, "  · %s\n", u.dim(w))
	}
	if r.DowngradedTo == "skeleton" {
		fmt.Fprintln(u.w, r.Code)
	} else {
		printNumbered(u, r.Code, idents)
	}
	tail := fmt.Sprintf("%s · %d tokens (cap %d lines, %d tokens, policy from %s) · %s", r.File, r.EstimatedTokens,
		r.Caps.MaxLines, r.Caps.MaxTokens, r.PolicySource, r.LedgerVersion)
	fmt.Fprintln(u.w, u.dim(tail))
	printWarnings(u, r.Warnings)
}

func policyCommand() *cli.Command {
	return &cli.Command{
		Name:      "policy",
		Usage:     "show or change the window policy (.sdl/config.yaml)",
		ArgsUsage: "[get | set KEY=VALUE...]",
		Description: "sdl policy                          the effective policy and where it comes from\n" +
			"sdl policy set maxWindowLines=220 allowBreakGlass=true\n" +
			"sdl policy set maxWindowTokens=default   back to the default\n" +
			"Fields: maxWindowLines (1-5000), maxWindowTokens (50-50000), requireIdentifiers, allowBreakGlass.",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag},
		Action: func(c *cli.Context) error {
			root := policyRoot(c)
			args := c.Args().Slice()
			verb := "get"
			if len(args) > 0 {
				verb, args = args[0], args[1:]
			}
			u := newUI(c.App.Writer)
			switch verb {
			case "get":
				if len(args) > 0 {
					return usagef("policy get takes no arguments")
				}
				info, err := query.LoadPolicy(root)
				if err != nil {
					return err
				}
				if c.Bool("json") {
					return writeJSON(c.App.Writer, info)
				}
				printPolicy(u, info.Policy, info.FromFile, info.File)
				return nil
			case "set":
				if len(args) == 0 {
					return usagef("policy set needs KEY=VALUE: sdl policy set maxWindowLines=220")
				}
				patch, err := policyPatch(args)
				if err != nil {
					return err
				}
				res, err := query.SetPolicy(root, patch)
				if err != nil {
					return err
				}
				if c.Bool("json") {
					return writeJSON(c.App.Writer, res)
				}
				fmt.Fprintln(u.w, u.ok("wrote "+res.File))
				info, err := query.LoadPolicy(root)
				if err != nil {
					return err
				}
				printPolicy(u, info.Policy, info.FromFile, info.File)
				return nil
			}
			return usagef("policy: %q is not get or set", verb)
		},
	}
}

// policyRoot is the repository whose policy the command reads: --root, the
// repository of the index found, or the working directory.
func policyRoot(c *cli.Context) string {
	if c.IsSet("root") {
		return c.String("root")
	}
	if p := c.String("db"); p != "" {
		if abs, err := filepath.Abs(p); err == nil && filepath.Base(filepath.Dir(abs)) == ".sdl" {
			return filepath.Dir(filepath.Dir(abs))
		}
	}
	if found, ok := findIndexUp("."); ok {
		return filepath.Dir(filepath.Dir(found))
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// policyPatch reads KEY=VALUE arguments: true/false, whole numbers, and
// "default" to drop a field from the file.
func policyPatch(args []string) (map[string]any, error) {
	patch := map[string]any{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, usagef("policy set: %q is not KEY=VALUE", a)
		}
		switch v {
		case "true", "false":
			patch[k] = v == "true"
		case "default", "null":
			patch[k] = nil
		default:
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, usagef("policy set: %s=%s: want true, false, a whole number or default", k, v)
			}
			patch[k] = n
		}
	}
	return patch, nil
}

func printPolicy(u *ui, p query.Policy, fromFile []string, file string) {
	set := map[string]bool{}
	for _, f := range fromFile {
		set[f] = true
	}
	row := func(name string, v any) {
		src := "default"
		if set[name] {
			src = file
		}
		fmt.Fprintf(u.w, "%-19s %-6v %s\n", name, v, u.dim(src))
	}
	row("maxWindowLines", p.MaxWindowLines)
	row("maxWindowTokens", p.MaxWindowTokens)
	row("requireIdentifiers", p.RequireIdentifiers)
	row("allowBreakGlass", p.AllowBreakGlass)
}
