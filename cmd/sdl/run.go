package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/schema"
	"github.com/sdl-dev/sdl/serve"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// interruptible returns a context canceled by SIGINT or SIGTERM.
func interruptible() context.Context {
	ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return ctx
}

// usageError is a mistake in how sdl was called.
type usageError struct {
	msg  string
	hint string // when set, what to do instead of reading the help
}

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{msg: fmt.Sprintf(format, args...)} }

// atLeastOne makes a limit flag refuse a value below 1, as the MCP tools
// do: the layers below read 0 as the default, so sdl search --limit 0
// listed 50 results.
func atLeastOne(f *cli.IntFlag) *cli.IntFlag {
	f.Action = func(_ *cli.Context, v int) error {
		if v < 1 {
			return usagef("--%s must be at least 1, got %d (leave it out for the default, %d)", f.Name, v, f.Value)
		}
		return nil
	}
	return f
}

// hinted is an error with a command that fixes it.
type hinted struct {
	err  error
	hint string
}

func (h hinted) Error() string { return h.err.Error() }
func (h hinted) Unwrap() error { return h.err }

// run is the whole program; errors become exit codes here and nowhere else.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	p, err := parseArgs(app, args)
	if err == nil {
		if name := commandName(p.args); name != "" && name != "help" && name != "h" && app.Command(name) == nil {
			err = usageError{msg: fmt.Sprintf("no command %q", name)}
			if near := closestCommand(app, name); near != "" {
				err = usageError{msg: fmt.Sprintf("no command %q", name), hint: "did you mean sdl " + near + "? see: sdl help"}
			}
		} else {
			err = app.RunContext(ctx, p.args)
		}
	}
	if err == nil {
		return exitOK
	}
	var se silentExit
	if errors.As(err, &se) {
		return se.code // the command printed its answer
	}
	code := exitError
	msg := err.Error()
	hint := ""
	var ue usageError
	var h hinted
	var uf unknownFlag
	switch {
	case errors.As(err, &uf):
		code = exitUsage
		hint = uf.hint()
	case errors.As(err, &ue):
		code = exitUsage
		hint = "see: sdl help"
		if isFlagError(msg) {
			hint = "see: " + helpCommand(p.path)
		}
		if ue.hint != "" {
			hint = ue.hint
		}
	case errors.As(err, &h):
		hint = h.hint
	case errors.Is(err, schema.ErrNoIndex):
		hint = "try: sdl index ."
	case errors.Is(schema.Corrupt(err), schema.ErrCorrupt):
		msg = schema.Corrupt(err).Error()
		hint = "it is rebuilt from the sources by: sdl index"
	case errors.Is(err, schema.ErrVersion):
		hint = "rebuild it with this sdl: sdl index"
	case errors.Is(err, schema.ErrNotIndex):
		hint = "pass --db with the path of an sdl index, or move that file away"
	case errors.Is(err, index.ErrNoDir):
		hint = "pass the directory of a repository: sdl index PATH"
	case errors.Is(err, index.ErrReadOnly):
		hint = "write the index elsewhere: sdl index --db PATH"
	case errors.Is(err, index.ErrDiskFull):
		hint = "free some space and run sdl index again"
	case errors.Is(err, index.ErrRev):
		hint = "name a commit, branch or tag of the repository: sdl index --rev origin/main DIR"
	case errors.Is(err, query.ErrInvalid), errors.Is(err, serve.ErrArgs):
		code = exitUsage
	case errors.Is(err, serve.ErrUnknownTool):
		code = exitUsage
		hint = "list them with: sdl tool --list"
	case errors.Is(err, query.ErrHandle):
		hint = "build a new slice: sdl slice TASK"
	case errors.Is(err, query.ErrNotFound):
		hint = "find symbols with: sdl search NAME"
	case errors.Is(err, query.ErrMemoryNotFound):
		hint = "find memories with: sdl memory query"
	case errors.Is(err, query.ErrStale):
		hint = "run: sdl index"
	case errors.Is(err, query.ErrConfig):
		hint = "fix the file, or see: sdl help policy"
	case errors.Is(err, context.Canceled):
		msg = "interrupted; the previous index is intact"
	case isFlagError(msg):
		code = exitUsage
		hint = "see: " + helpCommand(p.path)
	}
	msg = cliToolNames.Replace(msg)
	if p.json {
		// a program that asked for JSON reads its errors as JSON too
		writeJSON(stderr, jsonError{Error: jsonErrorBody{Message: msg, Hint: hint, ExitCode: code}})
		return code
	}
	fmt.Fprintf(stderr, "sdl: %s\n", msg)
	if hint != "" {
		fmt.Fprintf(stderr, "%s\n", hint)
	}
	return code
}

// cliToolNames turns the MCP tools that query's messages suggest into the
// commands a terminal user types.
var cliToolNames = strings.NewReplacer(
	"sdl.symbol.search", "sdl search",
	"sdl.symbol.getCards", "sdl card", // ahead of its prefix
	"sdl.symbol.getCard", "sdl card",
	"sdl.slice.build", "sdl slice",
	"sdl.code.getSkeleton", "sdl skeleton",
	"sdl.code.getHotPath", "sdl hotpath",
	"sdl.code.needWindow", "sdl window",
	"sdl.memory.query", "sdl memory query",
	"sdl.index.refresh", "sdl index",
)

// jsonError is how an error is printed on stderr under --json.
type jsonError struct {
	Error jsonErrorBody `json:"error"`
}

type jsonErrorBody struct {
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
	ExitCode int    `json:"exitCode"`
}

// isFlagError recognises the flag package's parse errors, which urfave/cli
// returns as plain errors.
func isFlagError(msg string) bool {
	for _, p := range []string{"flag provided but not defined", "flag needs an argument", "invalid value", "invalid boolean", "Required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func commandName(args []string) string {
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "sdl",
		Usage: "the code context an agent needs, and nothing more",
		Description: "sdl indexes a repository into one SQLite file (.sdl/index.db) of symbols and their\n" +
			"dependency graph, and answers from it: in the terminal and as an MCP server.",
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: false,
		// errors are printed by run, once
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return usageError{msg: err.Error()}
		},
		// only listed here: parseArgs turns sdl --version into sdl version
		Flags:    []cli.Flag{&cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print sdl's version (as sdl version does)", DisableDefaultText: true}},
		Commands: commands(),
	}
}

func commands() []*cli.Command {
	cmds := []*cli.Command{
		indexCommand(),
		searchCommand(),
		cardCommand(),
		sliceCommand(),
		spilloverCommand(),
		skeletonCommand(),
		hotpathCommand(),
		windowCommand(),
		policyCommand(),
		summaryCommand(),
		deltaCommand(),
		riskCommand(),
		gcCommand(),
		memoryCommand(),
		toolCommand(),
		serveCommand(),
		infoCommand(),
		initCommand(),
		doctorCommand(),
		exportCommand(),
		importCommand(),
		completionCommand(),
		manCommand(),
		versionCommand(),
	}
	for _, c := range cmds {
		// a flag error prints one line and a hint, not the whole help
		c.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return usageError{msg: err.Error()} }
	}
	hideLeafHelp(cmds)
	return cmds
}

// hideLeafHelp keeps urfave/cli from adding a "help" subcommand to a
// command without subcommands: there "help" is an argument, as in
// sdl search help, and --help still prints the command's help.
func hideLeafHelp(cmds []*cli.Command) {
	for _, c := range cmds {
		if len(c.Subcommands) == 0 {
			c.HideHelpCommand = true
		}
		hideLeafHelp(c.Subcommands)
	}
}
