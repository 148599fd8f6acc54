package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

func toolCommand() *cli.Command {
	return &cli.Command{
		Name:  "tool",
		Usage: "call any tool of the spec by name with JSON arguments, as an MCP client would",
		Description: "sdl tool sdl.symbol.search '{\"query\": \"parseConfig\"}'\n" +
			"sdl tool sdl_slice_build - < args.json\n" +
			"sdl tool --list",
		ArgsUsage: "NAME [JSON|-]",
		Flags: []cli.Flag{dbFlag, rootFlag, &cli.BoolFlag{Name: "list", Usage: "list the tools"},
			&cli.StringSliceFlag{Name: "repo", Usage: "a repository as ID=PATH (repeatable)"},
			&cli.IntFlag{Name: "max-output-tokens", Usage: "the largest answer, in tokens", Value: serve.DefaultMaxOutputTokens},
			&cli.StringFlag{Name: "log", Usage: "write logs to this file"}},
		Action: func(c *cli.Context) error {
			if c.Bool("list") {
				srv := serve.New(serve.NewRegistry(), &serve.Repos{}, serve.Options{})
				for _, t := range srv.Registry().Tools() {
					fmt.Fprintf(c.App.Writer, "%-28s %s\n", t.Name, t.Title)
				}
				return nil
			}
			if c.NArg() < 1 || c.NArg() > 2 {
				return usagef("tool needs a name and optional JSON arguments: sdl tool sdl.symbol.search '{\"query\":\"x\"}'")
			}
			raw := []byte("{}")
			if c.NArg() == 2 {
				raw = []byte(c.Args().Get(1))
				if c.Args().Get(1) == "-" {
					var err error
					if raw, err = readInput(c, "-"); err != nil {
						return err
					}
				}
			}
			srv, repos, _, err := newServer(c)
			if err != nil {
				return err
			}
			defer repos.Close()
			out, err := srv.Call(c.Context, c.Args().First(), json.RawMessage(raw))
			if err != nil {
				return err
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, out, "", "  "); err != nil {
				return err
			}
			pretty.WriteByte('\n')
			_, err = c.App.Writer.Write(pretty.Bytes())
			return err
		},
	}
}

// reposFor is the single repository of a terminal command, for the tool
// registry.
func reposFor(c *cli.Context) (*serve.Repos, error) {
	p, err := dbPath(c)
	if err != nil {
		return nil, err
	}
	root := c.String("root")
	if root == "" {
		root = repoRoot(p)
	}
	return serve.NewRepos(serve.NewRepo("", root, p))
}

func spilloverCommand() *cli.Command {
	return &cli.Command{
		Name:      "spillover",
		Usage:     "page through the symbols a slice left out",
		ArgsUsage: "HANDLE",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag,
			&cli.StringFlag{Name: "cursor", Usage: "the cursor of the previous page"},
			&cli.IntFlag{Name: "page-size", Usage: "symbols per page (1-100)", Value: 20},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("spillover needs the handle of a slice's truncation: sdl spillover sp_...")
			}
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			resp, err := x.Spillover(c.Context, query.SpilloverRequest{SpilloverHandle: c.Args().First(),
				Cursor: c.String("cursor"), PageSize: c.Int("page-size")})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, resp)
			}
			u := newUI(c.App.Writer)
			for _, card := range resp.Symbols {
				name := card.Name
				if card.Container != "" {
					name = card.Container + "." + card.Name
				}
				fmt.Fprintf(u.w, "%-11s %s  %s\n", u.kind(card.Kind), u.name(name), u.path(fmt.Sprintf("%s:%d", card.File, card.Range.StartLine)))
			}
			tail := fmt.Sprintf("%d of %d · %s", len(resp.Symbols), resp.Total, resp.LedgerVersion)
			if resp.HasMore {
				tail += " · next: --cursor " + resp.Cursor
			}
			fmt.Fprintln(u.w, u.dim(strings.TrimSpace(tail)))
			return nil
		},
	}
}
