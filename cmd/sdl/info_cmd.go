package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/cmd/sdl/internal/oneshot"
	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/schema"
	"github.com/sdl-dev/sdl/serve"
)

// Set at release time (.goreleaser.yaml, make build) with
// -ldflags "-X main.version=... -X main.commit=... -X main.date=...". A plain
// go build or go install leaves them empty, and versionInfo falls back to
// what the Go toolchain recorded: the module version, the VCS revision.
var (
	version = "dev"
	commit  = ""
	date    = ""
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print sdl's version",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			v := versionInfo()
			if c.Bool("json") {
				return writeJSON(c.App.Writer, v)
			}
			fmt.Fprintf(c.App.Writer, "sdl %s", v["version"])
			if v["commit"] != "" {
				fmt.Fprintf(c.App.Writer, " (%s, %s)", v["commit"], v["date"])
			}
			fmt.Fprintf(c.App.Writer, " · %s · SQLite %s · index schema %s\n", v["go"], v["sqlite"], v["schema"])
			return nil
		},
	}
}

func versionInfo() map[string]string {
	v, c, d := version, commit, date
	bi, ok := debug.ReadBuildInfo()
	if ok && v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version // go install github.com/sdl-dev/sdl/cmd/sdl@vX.Y.Z
	}
	if ok && c == "" {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				c = s.Value
			case "vcs.time":
				d = s.Value
			}
		}
	}
	if len(c) > 12 {
		c = c[:12]
	}
	return map[string]string{
		"version": v, "commit": c, "date": d, "go": runtime.Version(),
		"sqlite": query.SQLiteVersion(), "schema": fmt.Sprint(schema.Version),
	}
}

func infoCommand() *cli.Command {
	return &cli.Command{
		Name:  "info",
		Usage: "describe the index: schema, ledger versions, counts per language and kind",
		Flags: []cli.Flag{dbFlag, jsonFlag},
		Action: func(c *cli.Context) error {
			x, err := openIndex(c)
			if err != nil {
				return err
			}
			defer x.Close()
			in, err := x.Info(c.Context)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, in)
			}
			u := newUI(c.App.Writer)
			fmt.Fprintf(u.w, "%s %s\n", u.title("index"), u.path(in.Path))
			fmt.Fprintf(u.w, "  schema %d · written by sdl %s · repo %s · %s\n", in.SchemaVersion, in.SDLVersion, in.RepoID, bytesText(in.Bytes))
			fmt.Fprintf(u.w, "  %d files · %d symbols · %d edges · %d parse errors\n", in.Files, in.Symbols, in.Edges, in.ParseErrors)
			fmt.Fprintf(u.w, "  languages: %s\n", sortedCounts(in.Languages))
			fmt.Fprintf(u.w, "  kinds: %s\n", sortedCounts(in.Kinds))
			if len(in.Skipped) > 0 {
				fmt.Fprintf(u.w, "  skipped: %s\n", sortedCounts(in.Skipped))
				if in.Skipped[index.SkipGenerated] > 0 {
					// a generated interface the code calls through resolves only when indexed
					fmt.Fprintf(u.w, "    %s\n", u.dim("generated code is indexed with sdl index --generated, or index: {generated: true} in .sdl/config.yaml"))
				}
			}
			fmt.Fprintf(u.w, "  edges by rule: %s\n", sortedCounts(in.Resolution))
			fmt.Fprintf(u.w, "  memories: %d", in.Memories)
			if n := len(in.MemoryProblems); n > 0 {
				fmt.Fprintf(u.w, " · %s", u.warn(count(n, "memory file", "memory files")+" not imported"))
			}
			fmt.Fprintln(u.w)
			for _, p := range in.MemoryProblems {
				loc := p.Path
				if p.Line > 0 {
					loc = fmt.Sprintf("%s:%d", p.Path, p.Line)
				}
				fmt.Fprintf(u.w, "    %s: %s\n", u.path(loc), p.Message)
			}
			printFaults(u, in.Faults)
			printFileProblems(u, "parse errors (the files keep what the parser recovered):", in.ParseErrorFiles)
			printFileProblems(u, "skipped files:", in.SkippedFiles)
			fmt.Fprintf(u.w, "%s\n", u.title("versions"))
			for _, v := range in.Versions {
				git := ""
				if v.GitCommit != "" {
					git = " " + v.GitCommit[:min(12, len(v.GitCommit))]
					if v.GitDirty {
						git += "+dirty"
					}
				}
				fmt.Fprintf(u.w, "  %-5s %s%s · %d files, %d symbols, %d edges · files +%d ~%d -%d · %s\n",
					u.name(v.ID), v.CreatedAt, u.dim(git), v.Files, v.Symbols, v.Edges,
					v.FilesAdded, v.FilesChanged, v.FilesRemoved, u.dim(v.Hash[:12]))
			}
			return nil
		},
	}
}

// openIndex opens the index named by --db, or the one found walking up
// from the working directory. The repository root is --root, else the
// directory holding the index's .sdl directory, else the working directory.
func openIndex(c *cli.Context) (*query.Index, error) {
	p, err := dbPath(c)
	if err != nil {
		return nil, err
	}
	root := c.String("root")
	if !c.IsSet("root") {
		root = repoRoot(p)
	}
	// a terminal command asks one question and exits: unmapped, and
	// with little garbage collection
	oneshot.SetGC()
	x, err := query.OpenOnce(p, root)
	if err != nil {
		return nil, err
	}
	// memories stored since the last index run are answered too, as the
	// server answers them
	x.MemoryFiles = serve.NewMemoryOverlay(root)
	return x, nil
}

// dbPath is the index file --db names, else the one found walking up
// from the working directory.
func dbPath(c *cli.Context) (string, error) {
	if p := c.String("db"); p != "" {
		return p, nil
	}
	if found, ok := findIndexUp("."); ok {
		return found, nil
	}
	return "", fmt.Errorf("%w at .sdl/index.db (here or in a parent directory)", schema.ErrNoIndex)
}

// repoRoot is the repository of the index file db when --root does not
// say: the directory holding its .sdl directory, else the working
// directory.
func repoRoot(db string) string {
	if abs, err := filepath.Abs(db); err == nil && filepath.Base(filepath.Dir(abs)) == ".sdl" {
		return filepath.Dir(filepath.Dir(abs))
	}
	wd, _ := os.Getwd()
	return wd
}

// readInput reads a file, or standard input for "-".
func readInput(c *cli.Context, p string) ([]byte, error) {
	if p == "-" {
		return io.ReadAll(io.LimitReader(c.App.Reader, 16<<20))
	}
	return os.ReadFile(p)
}

// printFaults lists the files whose indexing failed at some stage.
// infoListedFiles is how many files with parse errors, or skipped, info
// lists by name; --json lists them all.
const infoListedFiles = 20

// printFileProblems lists files the index holds less of than their
// source: where a parse error is, or why a file was skipped.
func printFileProblems(u *ui, title string, files []query.FileProblem) {
	if len(files) == 0 {
		return
	}
	fmt.Fprintf(u.w, "  %s\n", title)
	for i, f := range files {
		if i == infoListedFiles {
			fmt.Fprintf(u.w, "    %s\n", u.dim(fmt.Sprintf("and %d more (sdl info --json lists them all)", len(files)-i)))
			break
		}
		loc := f.Path
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d:%d", f.Path, f.Line, f.Col)
		}
		more := ""
		if f.Errors > 1 {
			more = fmt.Sprintf(" (+%d more)", f.Errors-1)
		}
		fmt.Fprintf(u.w, "    %s: %s%s\n", u.path(loc), f.Message, more)
	}
}

func printFaults(u *ui, faults []query.FileFault) {
	if len(faults) == 0 {
		return
	}
	fmt.Fprintf(u.w, "  %s\n", u.warn(fmt.Sprintf("%d faults (the files keep what was indexed before):", len(faults))))
	for _, f := range faults {
		n := ""
		if f.Count > 1 {
			n = fmt.Sprintf(" (%d times)", f.Count)
		}
		fmt.Fprintf(u.w, "    %s: %s: %s%s\n", u.path(f.Path), f.Stage, f.Reason, n)
	}
}
