package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/serve"
)

// Clients sdl init knows, in the order it handles them. The first three
// read a file in the repository; codex and gemini read only user-level
// files, which init does not touch: it prints what to add.
var initClients = []string{"claude-code", "cursor", "vscode", "codex", "gemini"}

// clientFiles are the repository files of the clients that have one.
var clientFiles = map[string]string{
	"claude-code": ".mcp.json",
	"cursor":      ".cursor/mcp.json",
	"vscode":      ".vscode/mcp.json",
}

// configTemplate is the .sdl/config.yaml init writes: every setting at its
// default, commented out, so the file documents itself.
const configTemplate = `# sdl configuration. Commit this file; check it with: sdl doctor
# Every value below is the default: uncomment a line to change it.

# policy gates raw code windows (sdl window, sdl_code_need_window);
# change it with: sdl policy set FIELD=VALUE
#policy:
#  maxWindowLines: 180       # the most lines one window returns (1-5000)
#  maxWindowTokens: 1400     # the most tokens one window returns (50-50000)
#  requireIdentifiers: true  # a request names the identifiers it expects to see
#  allowBreakGlass: false    # a request may bypass the rules (each use is audited)

# index chooses what every index run reads (sdl index, and the refreshes of
# sdl serve and sdl watch).
#index:
#  generated: false          # index generated code too ("Code generated ... DO NOT EDIT", .pb.go)

# go is the target Go build constraints (//go:build, file_windows.go) are
# evaluated for; GOOS, GOARCH, CGO_ENABLED and GOFLAGS=-tags=... override it.
#go:
#  goos: linux               # GOOS (default: the machine's)
#  goarch: amd64             # GOARCH (default: the machine's)
#  cgo: true                 # CGO_ENABLED (default: where the platform has it)
#  tags: []                  # go build -tags
`

const (
	gitignoreBegin = "# sdl: begin (written by sdl init)"
	gitignoreEnd   = "# sdl: end"
	agentsBegin    = "<!-- sdl: begin (written by sdl init) -->"
	agentsEnd      = "<!-- sdl: end -->"
)

// gitignoreLines returns what .gitignore gets: the scratch files always,
// the index itself unless it is shared through git.
func gitignoreLines(shareIndex bool) []string {
	var l []string
	if !shareIndex {
		l = append(l, ".sdl/index.db")
	}
	return append(l,
		".sdl/index.db-*",
		".sdl/index.db.*",
		".sdl/overlay-*.db*",
		".sdl/handles.jsonl",
		".sdl/audit.jsonl",
		".sdl/usage.jsonl",
		".sdl/feedback.jsonl",
	)
}

// orchestrateSentence names the tool that climbs the ladder in one call; a
// server that does not list it reaches it as an sdl_chain step.
const orchestrateSentence = "`sdl_agent_orchestrate` climbs the ladder for a task in one call. "

// agentSection teaches an agent the ladder in a few lines.
const agentSection = `## Code context: sdl

This repository is indexed by sdl (MCP server "sdl"; CLI ` + "`sdl`" + `). Before reading files, climb the
ladder and stop at the first rung that answers the question:

1. ` + "`sdl_symbol_search`" + ` (sdl search QUERY): find symbols by name or words, ~40 tokens a result.
2. ` + "`sdl_symbol_get_card`" + ` (sdl card NAME): signature, summary, side effects, callers and callees.
3. ` + "`sdl_slice_build`" + ` (sdl slice TASK): the symbols a task needs, ranked, within a token budget.
4. ` + "`sdl_code_get_skeleton`" + ` / ` + "`sdl_code_get_hot_path`" + `: a symbol's outline, or only the lines using an identifier.
5. ` + "`sdl_code_need_window`" + ` (sdl window): raw code, last, with a reason and the identifiers you expect.

` + orchestrateSentence + `After editing, ` + "`sdl_index_refresh`" + ` (or
` + "`sdl index`" + `) records a new version; answers list the files that changed since (` + "`staleFiles`" + `).
Record a decision or a bug's cause with ` + "`sdl_memory_store`" + ` (a file under .sdl-memory/, committed); slices
surface the memories linked to their symbols.
`

// agentSectionFor is agentSection for a server of the tool surface: a
// tool the surface leaves off the list is named as the sdl_chain step
// that reaches it, since the agent cannot call it by its own name.
func agentSectionFor(tools string) (string, error) {
	if tools == "" || tools == serve.SurfaceAll {
		return agentSection, nil
	}
	s, err := serve.AdvertisedText(tools, agentSection)
	if err != nil {
		return "", err
	}
	// `symbolSearch (an sdl_chain step)` reads better with the note outside
	s = chainStepNote().ReplaceAllString(s, "`$1` $2")
	return s + "\nThis server lists the " + tools + " tools: `sdl_action_search` finds the others, which run as\n" +
		"`sdl_chain` steps ({\"fn\": \"symbolSearch\", \"args\": {...}}).\n", nil
}

var chainStepNote = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`(\\w+) (\\(an sdl_chain step\\))`") })

// initAction is one change init makes (or would make).
type initAction struct {
	Path   string `json:"path"`
	Action string `json:"action"` // create | update | unchanged
	What   string `json:"what"`
	data   []byte
}

// initResult is what sdl init --json prints.
type initResult struct {
	Root     string            `json:"root"`
	DryRun   bool              `json:"dryRun"`
	Command  string            `json:"command"`        // what MCP clients start
	Note     string            `json:"note,omitempty"` // why it is not "sdl"
	Actions  []initAction      `json:"actions"`
	Snippets map[string]string `json:"snippets,omitempty"`
	Index    *indexReport      `json:"index,omitempty"`
}

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "set sdl up in a repository: config, .gitignore, MCP client configs, agent instructions, first index",
		ArgsUsage: "[DIR]",
		Description: "sdl init                          # every client, the index cached (ignored by git)\n" +
			"sdl init --client claude-code --client cursor\n" +
			"sdl init --share-index            # commit .sdl/index.db instead of caching it in CI\n" +
			"sdl init --dry-run                # show what would change, write nothing\n\n" +
			"Running it again changes nothing that is already right; sections it wrote are\n" +
			"marked and replaced in place. Codex and Gemini CLI read user-level files only:\n" +
			"init prints what to add to them.",
		Flags: []cli.Flag{jsonFlag,
			&cli.StringSliceFlag{Name: "client", Usage: "an MCP client to configure: " + strings.Join(initClients, ", ") + " (repeatable; default: all)"},
			&cli.BoolFlag{Name: "share-index", Usage: "commit .sdl/index.db to git instead of ignoring it (for a cached index in CI, leave this off)"},
			&cli.StringFlag{Name: "instructions", Usage: "the agent-instructions file to add the sdl section to: AGENTS.md, CLAUDE.md or none (default: CLAUDE.md if only it exists, else AGENTS.md)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would change and write nothing"},
			&cli.BoolFlag{Name: "no-index", Usage: "do not build the first index"},
			&cli.StringFlag{Name: "command", Usage: "the command MCP clients start", DefaultText: "sdl when it is on PATH, else the absolute path of this sdl"},
			&cli.StringFlag{Name: "tools", Usage: "the tools the server lists: " + strings.Join(serve.Surfaces, ", ") + " (see sdl serve --help)", Value: serve.SurfaceAll},
		},
		Action: runInit,
	}
}

func runInit(c *cli.Context) error {
	if c.NArg() > 1 {
		return usagef("init takes one directory, got %d arguments", c.NArg())
	}
	root := c.Args().First()
	if root == "" {
		root = defaultRoot()
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("%w: %s", index.ErrNoDir, root)
	}
	clients := c.StringSlice("client")
	if len(clients) == 0 {
		clients = initClients
	}
	want := map[string]bool{}
	for _, cl := range clients {
		for _, one := range strings.Split(cl, ",") {
			one = strings.TrimSpace(one)
			if !slices.Contains(initClients, one) {
				return usagef("--client %q: choose from %s", one, strings.Join(initClients, ", "))
			}
			want[one] = true
		}
	}
	instr := c.String("instructions")
	switch strings.ToLower(instr) {
	case "":
		instr = "AGENTS.md"
		if !fileExists(filepath.Join(abs, "AGENTS.md")) && fileExists(filepath.Join(abs, "CLAUDE.md")) {
			instr = "CLAUDE.md"
		}
	case "none", "agents.md", "claude.md":
		instr = map[string]string{"none": "", "agents.md": "AGENTS.md", "claude.md": "CLAUDE.md"}[strings.ToLower(instr)]
	default:
		return usagef("--instructions %q: choose AGENTS.md, CLAUDE.md or none", instr)
	}
	command, note := c.String("command"), ""
	if command == "" {
		command, note = serverCommand()
	}
	tools := c.String("tools")
	if err := serve.CheckSurface(tools); err != nil {
		return usagef("--tools: %v", err)
	}
	dry := c.Bool("dry-run")

	res := &initResult{Root: abs, DryRun: dry, Command: command, Note: note, Snippets: map[string]string{}}
	add := func(rel, what string, data []byte, err error) error {
		if err != nil {
			return err
		}
		a, err := plan(abs, rel, what, data)
		if err != nil {
			return err
		}
		res.Actions = append(res.Actions, a)
		return nil
	}
	// The config file is written only when missing: it is the user's.
	cfg := filepath.Join(abs, filepath.FromSlash(query.PolicyFile))
	if fileExists(cfg) {
		res.Actions = append(res.Actions, initAction{Path: query.PolicyFile, Action: "unchanged", What: "config"})
	} else if err := add(query.PolicyFile, "config", []byte(configTemplate), nil); err != nil {
		return err
	}
	gi, err := withSection(filepath.Join(abs, ".gitignore"), gitignoreBegin, gitignoreEnd,
		strings.Join(gitignoreLines(c.Bool("share-index")), "\n")+"\n")
	if err := add(".gitignore", "ignore rules", gi, err); err != nil {
		return err
	}
	for _, cl := range initClients {
		if !want[cl] {
			continue
		}
		if rel, ok := clientFiles[cl]; ok {
			data, err := mcpConfig(filepath.Join(abs, filepath.FromSlash(rel)), cl, command, tools)
			if err := add(rel, cl+" MCP config", data, err); err != nil {
				return err
			}
			continue
		}
		res.Snippets[cl] = clientSnippet(cl, command, tools)
	}
	if instr != "" {
		section, err := agentSectionFor(tools)
		if err != nil {
			return err
		}
		data, err := withSection(filepath.Join(abs, instr), agentsBegin, agentsEnd, section)
		if err := add(instr, "agent instructions", data, err); err != nil {
			return err
		}
	}

	if !dry {
		for _, a := range res.Actions {
			if a.Action == "unchanged" {
				continue
			}
			p := filepath.Join(abs, filepath.FromSlash(a.Path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := writeFileAtomic(p, a.data); err != nil {
				return err
			}
		}
	}

	u := newUI(c.App.Writer)
	if !c.Bool("json") {
		verb := map[string]string{"create": "created", "update": "updated", "unchanged": "unchanged"}
		if dry {
			verb = map[string]string{"create": "would create", "update": "would update", "unchanged": "unchanged"}
		}
		for _, a := range res.Actions {
			word := verb[a.Action]
			if a.Action != "unchanged" {
				word = u.ok(word)
			} else {
				word = u.dim(word)
			}
			fmt.Fprintf(u.w, "%-14s %s %s\n", word, u.path(a.Path), u.dim("("+a.What+")"))
		}
		if note != "" {
			fmt.Fprintln(u.w, u.warn(note))
		}
		for _, cl := range initClients {
			if s, ok := res.Snippets[cl]; ok {
				fmt.Fprintf(u.w, "\n%s\n%s", u.title(snippetTitle(cl)), s)
			}
		}
	}

	if !dry && !c.Bool("no-index") {
		opts := index.Options{Root: abs, SDLVersion: version}
		if t, ok := sourceDateEpoch(); ok {
			opts.Now = t
		}
		errw := c.App.ErrWriter
		var bar *progressBar
		if isTTY(errw) && !c.Bool("json") {
			bar = newProgressBar(errw)
			opts.Progress = func(p index.Progress) { bar.update(p.Phase, p.Done, p.Total) }
		}
		sum, err := index.Run(c.Context, opts)
		if bar != nil {
			bar.clear()
		}
		if err != nil {
			return err
		}
		res.Index = newIndexReport(c.Context, sum, root, errw)
		if !c.Bool("json") {
			fmt.Fprintln(u.w)
			printSummary(u, res.Index)
		}
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, res)
	}
	if dry {
		fmt.Fprintf(u.w, "\n%s\n", u.dim("dry run: nothing was written; run without --dry-run to apply"))
	} else {
		fmt.Fprintf(u.w, "\n%s\n", u.dim("check the setup any time with: sdl doctor"))
	}
	return nil
}

// serverCommand is the command MCP clients are configured to start: "sdl"
// when that is on PATH, else the absolute path of the running binary (after
// make build, bin/sdl is not on PATH, and a client starting "sdl" would fail),
// with a note that says so.
func serverCommand() (command, note string) {
	if _, err := exec.LookPath("sdl"); err == nil {
		return "sdl", ""
	}
	self, err := os.Executable()
	if err != nil {
		return "sdl", "sdl is not on PATH and its own path is unknown (" + err.Error() + "): put sdl on PATH"
	}
	return self, "sdl is not on PATH: MCP clients start " + self + " (put sdl on PATH and run sdl init again to use the name)"
}

// plan compares the wanted content of rel with the file on disk.
func plan(root, rel, what string, data []byte) (initAction, error) {
	a := initAction{Path: rel, What: what, data: data, Action: "create"}
	old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	switch {
	case err == nil && bytes.Equal(old, data):
		a.Action = "unchanged"
	case err == nil:
		a.Action = "update"
	case !errors.Is(err, os.ErrNotExist):
		return a, fmt.Errorf("read %s: %w", rel, err)
	}
	return a, nil
}

// withSection returns the file at p with the text between begin and end
// markers replaced by body, or the marked section appended.
func withSection(p, begin, end, body string) ([]byte, error) {
	old, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", filepath.Base(p), err)
	}
	section := begin + "\n" + body + end + "\n"
	s := string(old)
	if i := strings.Index(s, begin); i >= 0 {
		if j := strings.Index(s[i:], end); j >= 0 {
			rest := s[i+j+len(end):]
			rest = strings.TrimPrefix(rest, "\n")
			return []byte(s[:i] + section + rest), nil
		}
	}
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	if s != "" {
		s += "\n"
	}
	return []byte(s + section), nil
}

// mcpServer is the entry for sdl in a client's MCP config. It names the
// repository with --root in the client's own variable for it, so that the
// server answers about this repository whatever directory the client
// starts it in (a committed file must not hold an absolute path).
func mcpServer(client, command, tools string) map[string]any {
	m := map[string]any{"command": command, "args": append([]any{"serve", "--root", clientRootVar[client]}, toolsArgs(tools)...)}
	if client == "vscode" {
		m["type"] = "stdio"
	}
	return m
}

// clientRootVar is how each client's config names the repository's
// directory: Claude Code expands environment variables (and starts servers
// in the project directory), VS Code and Cursor expand ${workspaceFolder}.
var clientRootVar = map[string]string{
	"claude-code": "${CLAUDE_PROJECT_DIR:-.}",
	"cursor":      "${workspaceFolder}",
	"vscode":      "${workspaceFolder}",
}

// mcpConfig returns the client's config file at p with the sdl server
// added or replaced; every other entry is kept.
func mcpConfig(p, client, command, tools string) ([]byte, error) {
	key := "mcpServers"
	if client == "vscode" {
		key = "servers"
	}
	doc := map[string]any{}
	old, err := os.ReadFile(p)
	switch {
	case err == nil && len(bytes.TrimSpace(old)) > 0:
		if err := json.Unmarshal(old, &doc); err != nil {
			return nil, hinted{fmt.Errorf("%s is not valid JSON: %w", filepath.Base(p), err),
				"fix or move the file, then run sdl init again"}
		}
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("read %s: %w", filepath.Base(p), err)
	}
	servers, _ := doc[key].(map[string]any)
	if servers == nil {
		if _, present := doc[key]; present {
			return nil, hinted{fmt.Errorf("%s: %q is not an object", filepath.Base(p), key), "fix the file, then run sdl init again"}
		}
		servers = map[string]any{}
	}
	want := mcpServer(client, command, tools)
	if cur, ok := servers["sdl"]; ok && sameJSON(cur, want) && err == nil {
		return old, nil // already right: keep the bytes as they are
	}
	servers["sdl"] = want
	doc[key] = servers
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func snippetTitle(client string) string {
	switch client {
	case "codex":
		return "Codex: add to ~/.codex/config.toml"
	case "gemini":
		return "Gemini CLI: add to ~/.gemini/settings.json (or .gemini/settings.json in the repository)"
	}
	return client
}

// clientSnippet is the user-level configuration of a client that has no
// repository file.
func clientSnippet(client, command, tools string) string {
	q, _ := json.Marshal(command)
	args, _ := json.Marshal(append([]any{"serve"}, toolsArgs(tools)...))
	a := strings.ReplaceAll(string(args), ",", ", ")
	switch client {
	case "codex":
		return "[mcp_servers.sdl]\ncommand = " + string(q) + "\nargs = " + a + "\n"
	case "gemini":
		return "{\n  \"mcpServers\": {\n    \"sdl\": { \"command\": " + string(q) + ", \"args\": " + a + " }\n  }\n}\n"
	}
	return ""
}

// toolsArgs are the serve arguments of a tool surface; the full one is the
// default and needs none.
func toolsArgs(tools string) []any {
	if tools == "" || tools == serve.SurfaceAll {
		return nil
	}
	return []any{"--tools", tools}
}

// defaultRoot is the repository around the working directory: the one
// holding the nearest .sdl/index.db, else the git work tree, else ".".
func defaultRoot() string {
	if found, ok := findIndexUp("."); ok {
		return filepath.Dir(filepath.Dir(found))
	}
	if out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output(); err == nil {
		if top := strings.TrimSpace(string(out)); top != "" {
			return top
		}
	}
	return "."
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// writeFileAtomic replaces p with data: a reader sees the old file or the
// new one, never half of it.
func writeFileAtomic(p string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(p); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}
