package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// The memory commands call the same tools an MCP client calls, so the
// terminal and the server store, find and remove memories alike.
func memoryCommand() *cli.Command {
	return &cli.Command{
		Name:  "memory",
		Usage: "store, find and remove development memories (.sdl-memory/*.md)",
		Description: "sdl memory store --type bugfix --title 'Race in Add' --symbol Store.Add 'Two writers...'\n" +
			"sdl memory query auth token\n" +
			"sdl memory surface --symbol Store.Add\n" +
			"sdl memory remove 0123456789abcdef",
		Subcommands: []*cli.Command{memoryStoreCommand(), memoryQueryCommand(), memoryRemoveCommand(), memorySurfaceCommand()},
	}
}

var memoryTypeUsage = "decision, bugfix or task_context"

func memoryStoreCommand() *cli.Command {
	return &cli.Command{
		Name:      "store",
		Usage:     "store a memory, or update one with --id (which clears its stale flag)",
		ArgsUsage: "[CONTENT|-]",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag,
			&cli.StringFlag{Name: "type", Usage: memoryTypeUsage + " (required)", Required: true},
			&cli.StringFlag{Name: "title", Usage: "a short title, 1-120 characters (required)", Required: true},
			&cli.StringFlag{Name: "content-file", Usage: "read the content from this file (- for stdin)"},
			&cli.StringSliceFlag{Name: "tag", Usage: "a tag (repeatable)"},
			&cli.Float64Flag{Name: "confidence", Usage: "0 to 1", DefaultText: strconv.FormatFloat(memoryfs.DefaultConfidence, 'g', -1, 64)},
			&cli.StringSliceFlag{Name: "symbol", Usage: "a symbol it is about, by id or name (repeatable)"},
			&cli.StringSliceFlag{Name: "file", Usage: "a file it is about (repeatable)"},
			&cli.StringFlag{Name: "id", Usage: "update the memory with this id"},
		},
		Action: func(c *cli.Context) error {
			content := strings.Join(c.Args().Slice(), " ")
			if p := c.String("content-file"); p != "" || content == "-" {
				if p == "" {
					p = "-"
				}
				data, err := readInput(c, p)
				if err != nil {
					return err
				}
				content = string(data)
			}
			if strings.TrimSpace(content) == "" {
				return usagef("memory store needs content: sdl memory store --type bugfix --title T 'what happened and why'")
			}
			req := serve.MemoryStoreRequest{Type: c.String("type"), Title: c.String("title"), Content: content,
				Tags: c.StringSlice("tag"), FileRelPaths: c.StringSlice("file"), MemoryID: c.String("id")}
			if c.IsSet("confidence") {
				v := c.Float64("confidence")
				req.Confidence = &v
			}
			return withTools(c, func(t *tools) error {
				ids, err := t.symbolIDs(c, c.StringSlice("symbol"))
				if err != nil {
					return err
				}
				req.SymbolIDs = ids
				var resp serve.MemoryStoreResponse
				if err := t.call(c, "sdl.memory.store", req, &resp); err != nil {
					return err
				}
				u := newUI(c.App.Writer)
				switch {
				case resp.Deduplicated:
					fmt.Fprintf(u.w, "%s %s %s\n", u.warn("already stored as"), u.name(resp.MemoryID), u.path(resp.Path))
				case resp.Created:
					fmt.Fprintf(u.w, "%s %s %s\n", u.ok("stored"), u.name(resp.MemoryID), u.path(resp.Path))
				default:
					fmt.Fprintf(u.w, "%s %s %s\n", u.ok("updated"), u.name(resp.MemoryID), u.path(resp.Path))
				}
				fmt.Fprintln(u.w, u.dim("commit the file to share it; sdl index folds it into the index"))
				return nil
			})
		},
	}
}

func memoryQueryCommand() *cli.Command {
	return &cli.Command{
		Name:      "query",
		Usage:     "find memories by words, type, tag or linked symbol",
		ArgsUsage: "[WORDS]",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag,
			&cli.StringSliceFlag{Name: "type", Usage: "only this type (repeatable): " + memoryTypeUsage},
			&cli.StringSliceFlag{Name: "tag", Usage: "with this tag (repeatable; any matches)"},
			&cli.StringSliceFlag{Name: "symbol", Usage: "linked to this symbol, by id or name (repeatable)"},
			&cli.BoolFlag{Name: "stale", Usage: "only memories whose code changed since"},
			atLeastOne(&cli.IntFlag{Name: "limit", Usage: "at most this many (1-100)", Value: 20}),
			&cli.StringFlag{Name: "sort", Usage: "recency, confidence or relevance", Value: "recency"},
			&cli.BoolFlag{Name: "lexical", Usage: "match the words by bm25 only, not the memories' vectors"},
		},
		Action: func(c *cli.Context) error {
			req := query.MemoryQueryRequest{Query: strings.Join(c.Args().Slice(), " "), Types: c.StringSlice("type"),
				Tags: c.StringSlice("tag"), StaleOnly: c.Bool("stale"), Limit: c.Int("limit"), SortBy: c.String("sort")}
			if c.Bool("lexical") {
				off := false
				req.Semantic = &off
			}
			return withTools(c, func(t *tools) error {
				ids, err := t.symbolIDs(c, c.StringSlice("symbol"))
				if err != nil {
					return err
				}
				req.SymbolIDs = ids
				var resp query.MemoryQueryResponse
				if err := t.call(c, "sdl.memory.query", req, &resp); err != nil {
					return err
				}
				u := newUI(c.App.Writer)
				names := t.symbolNames(c, resp.Memories)
				for _, m := range resp.Memories {
					printMemory(u, m, names)
				}
				line := fmt.Sprintf("%d of %d memories", len(resp.Memories), resp.Total)
				if resp.RetrievalMode != "" {
					line += " · " + resp.RetrievalMode
				}
				fmt.Fprintln(u.w, u.dim(line))
				return nil
			})
		},
	}
}

func memoryRemoveCommand() *cli.Command {
	return &cli.Command{
		Name:      "remove",
		Usage:     "remove a memory: delete its file, or with --keep-file mark it deleted",
		ArgsUsage: "ID",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag,
			&cli.BoolFlag{Name: "keep-file", Usage: "keep the file, marked deleted: true"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("memory remove needs one memory id: sdl memory remove 0123456789abcdef")
			}
			del := !c.Bool("keep-file")
			req := serve.MemoryRemoveRequest{MemoryID: c.Args().First(), DeleteFile: &del}
			return withTools(c, func(t *tools) error {
				var resp serve.MemoryRemoveResponse
				if err := t.call(c, "sdl.memory.remove", req, &resp); err != nil {
					return err
				}
				u := newUI(c.App.Writer)
				if resp.FileDeleted {
					fmt.Fprintf(u.w, "%s %s (deleted %s)\n", u.ok("removed"), u.name(resp.MemoryID), u.path(resp.Path))
				} else {
					fmt.Fprintf(u.w, "%s %s (%s marked deleted)\n", u.ok("removed"), u.name(resp.MemoryID), u.path(resp.Path))
				}
				return nil
			})
		},
	}
}

func memorySurfaceCommand() *cli.Command {
	return &cli.Command{
		Name:  "surface",
		Usage: "the memories most relevant to some symbols: confidence x recency x overlap",
		Flags: []cli.Flag{dbFlag, rootFlag, jsonFlag,
			&cli.StringSliceFlag{Name: "symbol", Usage: "a symbol, by id or name (repeatable)"},
			&cli.StringFlag{Name: "type", Usage: "only this type: " + memoryTypeUsage},
			atLeastOne(&cli.IntFlag{Name: "limit", Usage: "at most this many (1-50)", Value: 10}),
		},
		Action: func(c *cli.Context) error {
			req := query.SurfaceRequest{TaskType: c.String("type"), Limit: c.Int("limit")}
			return withTools(c, func(t *tools) error {
				ids, err := t.symbolIDs(c, c.StringSlice("symbol"))
				if err != nil {
					return err
				}
				req.SymbolIDs = ids
				var resp query.SurfaceResponse
				if err := t.call(c, "sdl.memory.surface", req, &resp); err != nil {
					return err
				}
				u := newUI(c.App.Writer)
				names := t.symbolNames(c, resp.Memories)
				for _, m := range resp.Memories {
					printMemory(u, m, names)
				}
				fmt.Fprintln(u.w, u.dim(fmt.Sprintf("%d of %d memories", len(resp.Memories), resp.Total)))
				return nil
			})
		},
	}
}

// printMemory prints a memory; names holds the names of the symbols it is
// about, by id (an id without a name, as of a removed symbol, is printed).
func printMemory(u *ui, m *query.Memory, names map[string]string) {
	head := fmt.Sprintf("%s %s  %s", u.kind(fmt.Sprintf("%-12s", m.Type)), u.name(m.Title), u.dim(m.MemoryID))
	if m.Stale {
		head += " " + u.warn("stale since "+m.StaleVersion)
	}
	fmt.Fprintln(u.w, head)
	meta := fmt.Sprintf("confidence %.2g · %s", m.Confidence, m.CreatedAt)
	if m.Score != nil {
		meta += fmt.Sprintf(" · score %.4g", *m.Score)
	}
	if len(m.Tags) > 0 {
		meta += " · " + strings.Join(m.Tags, ", ")
	}
	fmt.Fprintf(u.w, "  %s\n", u.dim(meta))
	for _, l := range strings.Split(strings.TrimSpace(m.Content), "\n") {
		fmt.Fprintf(u.w, "  %s\n", l)
	}
	if len(m.SymbolIDs)+len(m.FileRelPaths) > 0 {
		var about []string
		for _, id := range m.SymbolIDs {
			if n := names[id]; n != "" {
				id = n
			}
			about = append(about, id)
		}
		fmt.Fprintf(u.w, "  %s\n", u.dim("about: "+strings.Join(append(about, m.FileRelPaths...), ", ")))
	}
	fmt.Fprintf(u.w, "  %s\n", u.path(m.Path))
}

// tools calls the server's tools for a terminal command.
type tools struct {
	srv   *serve.Server
	repos *serve.Repos
}

func withTools(c *cli.Context, fn func(t *tools) error) error {
	srv, repos, _, err := newServer(c)
	if err != nil {
		return err
	}
	defer repos.Close()
	return fn(&tools{srv: srv, repos: repos})
}

// call runs a tool with req as its arguments; with --json it prints the
// answer as the server sends it, else decodes it into resp for the caller.
func (t *tools) call(c *cli.Context, name string, req, resp any) error {
	raw, err := json.Marshal(req)
	if err != nil {
		return err
	}
	out, err := t.srv.Call(c.Context, name, raw)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, out, "", "  "); err != nil {
			return err
		}
		pretty.WriteByte('\n')
		_, err := c.App.Writer.Write(pretty.Bytes())
		if err != nil {
			return err
		}
		return silentExit{code: exitOK}
	}
	return json.Unmarshal(out, resp)
}

// symbolNames are the qualified names of the symbols the memories are
// about, by id; a symbol no longer in the index has none.
func (t *tools) symbolNames(c *cli.Context, ms []*query.Memory) map[string]string {
	names := map[string]string{}
	r, err := t.repos.Get("")
	if err != nil {
		return names
	}
	x, err := r.Index()
	if err != nil {
		return names
	}
	for _, m := range ms {
		for _, id := range m.SymbolIDs {
			if _, done := names[id]; done {
				continue
			}
			names[id] = ""
			res, err := x.Card(c.Context, query.CardRequest{SymbolID: id, Detail: query.DetailMinimal})
			if card, ok := res.(*query.Card); err == nil && ok {
				names[id] = card.Name
				if card.Container != "" {
					names[id] = card.Container + "." + card.Name
				}
			}
		}
	}
	return names
}

// symbolIDs turns names and ids into symbol ids.
func (t *tools) symbolIDs(c *cli.Context, refs []string) ([]string, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	r, err := t.repos.Get("")
	if err != nil {
		return nil, err
	}
	x, err := r.Index()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, ref := range refs {
		if isSymbolID(ref) {
			ids = append(ids, ref)
			continue
		}
		s, err := x.Resolve(c.Context, query.SymbolRef{Name: ref})
		if err != nil {
			return nil, err
		}
		ids = append(ids, s.ID)
	}
	return ids, nil
}
