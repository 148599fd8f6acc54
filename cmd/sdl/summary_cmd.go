package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/query"
)

func summaryCommand() *cli.Command {
	return &cli.Command{
		Name:      "summary",
		Usage:     "a briefing on a symbol, a file or a task: key symbols, dependencies, risk areas, files",
		ArgsUsage: "QUERY",
		Description: "The scope is detected from the query unless --scope says it: a path or a file name means\n" +
			"a file (or directory), three or more words or a word like fix, add or why a task, else a symbol.",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag,
			atLeastOne(&cli.IntFlag{Name: "budget", Usage: "maximum tokens of the summary", Value: query.DefaultSummaryBudget}),
			&cli.StringFlag{Name: "format", Usage: "markdown, json or clipboard (plain text to paste)", Value: query.FormatMarkdown},
			&cli.StringFlag{Name: "scope", Usage: "symbol, file or task (default: detected from the query)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("summary needs a query: sdl summary Store.Add, sdl summary store/db.go or sdl summary \"why does Save fail\"")
			}
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			resp, err := x.Summarize(c.Context, query.SummaryRequest{Query: strings.Join(c.Args().Slice(), " "),
				Budget: c.Int("budget"), Format: c.String("format"), Scope: c.String("scope")})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, resp)
			}
			u := newUI(c.App.Writer)
			printContextSummary(u, resp, c.Int("budget"))
			if len(resp.StaleFiles) > 0 {
				// stderr: the content on stdout stays fit to paste
				fmt.Fprintln(c.App.ErrWriter, "sdl: changed on disk since "+resp.LedgerVersion+": "+strings.Join(resp.StaleFiles, ", ")+" (run sdl index)")
			}
			return nil
		},
	}
}

// printContextSummary prints the content as it is; on a terminal, markdown
// headings are bold and the notes dim, and a last line tells the size.
func printContextSummary(u *ui, r *query.SummaryResponse, budget int) {
	content := strings.TrimSuffix(r.Content, "\n")
	if !u.styled {
		fmt.Fprintln(u.w, content)
		return
	}
	for _, l := range strings.Split(content, "\n") {
		switch {
		case strings.HasPrefix(l, "#"), r.Format == query.FormatClipboard && l != "" && l == strings.ToUpper(l) && !strings.HasPrefix(l, " "):
			l = u.title(l)
		case strings.HasPrefix(l, "Scope: "), strings.HasPrefix(l, "_Cut "), strings.HasPrefix(l, "Cut "):
			l = u.dim(l)
		case strings.HasPrefix(l, "Note: "):
			l = u.warn(l)
		default:
			l = nameFirst(u, l)
		}
		fmt.Fprintln(u.w, l)
	}
	tail := fmt.Sprintf("%d/%d tokens · scope %s · %s", r.Summary.EstimatedTokens, budget, r.Summary.Scope, r.LedgerVersion)
	if r.Cached {
		tail += " · cached"
	}
	fmt.Fprintln(u.w, u.dim(tail))
}

// nameFirst shows the name that starts an item ("- `Store.Add` method")
// as a styled name.
func nameFirst(u *ui, l string) string {
	rest, ok := strings.CutPrefix(l, "- `")
	if !ok {
		return l
	}
	name, after, ok := strings.Cut(rest, "`")
	if !ok {
		return l
	}
	return "- " + u.name(name) + after
}
