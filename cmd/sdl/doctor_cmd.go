package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/schema"
)

// Check states.
const (
	checkOK   = "ok"
	checkWarn = "warn"
	checkFail = "fail"
)

// check is one finding of sdl doctor.
type check struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	// Fix is the command that fixes a warning or a failure.
	Fix string `json:"fix,omitempty"`
}

type doctorReport struct {
	Root     string  `json:"root"`
	DB       string  `json:"db"`
	Checks   []check `json:"checks"`
	Problems int     `json:"problems"`
	Warnings int     `json:"warnings"`

	indexedID, indexedCommit string
}

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check the setup: index, schema, freshness, config, memories, grammars, MCP client configs",
		ArgsUsage: "[DIR]",
		Description: "Each finding that needs work names the command that fixes it. The exit code is 1\n" +
			"when there is a problem (a warning alone exits 0).",
		Flags: []cli.Flag{dbFlag, jsonFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("doctor takes one directory, got %d arguments", c.NArg())
			}
			root, db, err := doctorPaths(c)
			if err != nil {
				return err
			}
			r := runDoctor(c.Context, root, db)
			if c.Bool("json") {
				if err := writeJSON(c.App.Writer, r); err != nil {
					return err
				}
			} else {
				printDoctor(newUI(c.App.Writer), r)
			}
			if r.Problems > 0 {
				return silentExit{exitError}
			}
			return nil
		},
	}
}

// doctorPaths finds the repository and its index: DIR, else the directory
// around the nearest .sdl/index.db, else the working directory.
func doctorPaths(c *cli.Context) (string, string, error) {
	root := c.Args().First()
	db := c.String("db")
	if root == "" {
		root = defaultRoot()
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", "", err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", "", fmt.Errorf("%w: %s", index.ErrNoDir, root)
	}
	if db == "" {
		db = index.DefaultDB(abs)
	}
	return abs, db, nil
}

func runDoctor(ctx context.Context, root, db string) *doctorReport {
	r := &doctorReport{Root: root, DB: db}
	add := func(ch check) { r.Checks = append(r.Checks, ch) }
	rel := relTo(root, db)

	indexOK := false
	switch err := schema.Sniff(db); {
	case errors.Is(err, schema.ErrNoIndex):
		add(check{Name: "index", Status: checkFail, Detail: "no index at " + rel, Fix: "sdl index"})
	case errors.Is(err, schema.ErrVersion):
		add(check{Name: "index", Status: checkOK, Detail: rel})
		add(check{Name: "schema", Status: checkFail, Detail: strings.TrimPrefix(err.Error(), db+": "), Fix: "sdl index (rebuilds it)"})
	case err != nil:
		add(check{Name: "index", Status: checkFail, Detail: strings.ReplaceAll(err.Error(), db, rel),
			Fix: fmt.Sprintf("mv %s %s.bad && sdl index", rel, rel)})
	default:
		indexOK = true
	}
	if indexOK {
		indexOK = doctorIndex(ctx, r, root, db, rel)
	}
	if indexOK {
		fresh := doctorFreshness(ctx, r, root, db)
		doctorGit(ctx, r, root, fresh)
	}
	doctorConfig(r, root)
	doctorMemories(r, root)
	doctorGrammars(r)
	doctorClients(r, root)
	for _, ch := range r.Checks {
		switch ch.Status {
		case checkFail:
			r.Problems++
		case checkWarn:
			r.Warnings++
		}
	}
	return r
}

// doctorIndex reports the index and its schema, and checks its integrity.
func doctorIndex(ctx context.Context, r *doctorReport, root, db, rel string) bool {
	// a damaged file is derived data: sdl index rebuilds it
	damaged := func(what string) bool {
		r.Checks = append(r.Checks, check{Name: "index", Status: checkFail, Detail: rel + " is damaged: " + what, Fix: "sdl index (rebuilds it)"})
		return false
	}
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		if errors.Is(schema.Corrupt(err), schema.ErrCorrupt) {
			msg := err.Error()
			if i := strings.LastIndex(msg, "damaged: "); i >= 0 {
				msg = msg[i+len("damaged: "):]
			}
			return damaged(msg)
		}
		r.Checks = append(r.Checks, check{Name: "index", Status: checkFail, Detail: err.Error(), Fix: "sdl index"})
		return false
	}
	defer conn.Close()
	var res string
	if err := conn.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil || res != "ok" {
		if err != nil {
			res = err.Error()
		}
		return damaged(res)
	}
	var id, commit string
	var files, symbols int64
	err = conn.QueryRowContext(ctx, "SELECT id, git_commit, files, symbols FROM versions ORDER BY seq DESC LIMIT 1").Scan(&id, &commit, &files, &symbols)
	if errors.Is(err, sql.ErrNoRows) {
		r.Checks = append(r.Checks, check{Name: "index", Status: checkFail, Detail: rel + " has no version", Fix: "sdl index"})
		return false
	}
	if err != nil {
		r.Checks = append(r.Checks, check{Name: "index", Status: checkFail, Detail: err.Error(), Fix: "sdl index"})
		return false
	}
	size := int64(0)
	if fi, err := os.Stat(db); err == nil {
		size = fi.Size()
	}
	r.Checks = append(r.Checks,
		check{Name: "index", Status: checkOK, Detail: fmt.Sprintf("%s · %s · %s: %s, %s", rel, bytesText(size), id, count(files, "file", "files"), count(symbols, "symbol", "symbols"))},
		check{Name: "schema", Status: checkOK, Detail: fmt.Sprintf("schema %d, the one this sdl reads", schema.Version)})

	r.indexedCommit, r.indexedID = commit, id
	return true
}

// doctorGit compares git HEAD with the commit the newest version was
// indexed at. A version is recorded only when an indexed file changes, so a
// HEAD that moved without touching one is fine: fresh says so.
func doctorGit(ctx context.Context, r *doctorReport, root string, fresh bool) {
	id, commit := r.indexedID, r.indexedCommit
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--verify", "-q", "HEAD").Output()
	head := strings.TrimSpace(string(out))
	var ch check
	switch {
	case err != nil || head == "":
		ch = check{Status: checkOK, Detail: "not a git repository (or no commit yet): nothing to compare"}
	case commit == head:
		ch = check{Status: checkOK, Detail: fmt.Sprintf("%s was indexed at HEAD (%s)", id, short(head))}
	case fresh:
		was := "without git"
		if commit != "" {
			was = "at " + short(commit)
		}
		ch = check{Status: checkOK, Detail: fmt.Sprintf("%s was indexed %s; HEAD is %s, and no indexed file differs", id, was, short(head))}
	case commit == "":
		ch = check{Status: checkFail, Detail: fmt.Sprintf("HEAD is %s; %s was indexed without git", short(head), id), Fix: "sdl index"}
	default:
		ch = check{Status: checkFail, Detail: fmt.Sprintf("%s was indexed at commit %s; HEAD is %s", id, short(commit), short(head)), Fix: "sdl index"}
	}
	ch.Name = "git"
	r.Checks = append(r.Checks, ch)
}

// doctorFreshness compares the working tree with the current version.
func doctorFreshness(ctx context.Context, r *doctorReport, root, db string) bool {
	f, err := index.CheckFreshness(ctx, root, db, index.WalkOptions{MaxFileSize: index.DefaultMaxFileSize, SkipDirs: index.DefaultSkipDirs})
	if err != nil {
		r.Checks = append(r.Checks, check{Name: "freshness", Status: checkFail, Detail: err.Error(), Fix: "sdl index"})
		return false
	}
	if f.Fresh {
		r.Checks = append(r.Checks, check{Name: "freshness", Status: checkOK, Detail: count(f.Checked, "file matches", "files match") + " the working tree"})
		return true
	}
	var parts []string
	for _, g := range []struct {
		what  string
		paths []string
	}{{"changed", f.Changed}, {"added", f.Added}, {"removed", f.Removed}} {
		if len(g.paths) == 0 {
			continue
		}
		list := g.paths
		more := ""
		if len(list) > 3 {
			list, more = list[:3], fmt.Sprintf(" and %d more", len(g.paths)-3)
		}
		parts = append(parts, fmt.Sprintf("%d %s (%s%s)", len(g.paths), g.what, strings.Join(list, ", "), more))
	}
	r.Checks = append(r.Checks, check{Name: "freshness", Status: checkFail,
		Detail: "files differ from the index: " + strings.Join(parts, "; "), Fix: "sdl index"})
	return false
}

func doctorConfig(r *doctorReport, root string) {
	p := filepath.Join(root, filepath.FromSlash(query.PolicyFile))
	if !fileExists(p) {
		r.Checks = append(r.Checks, check{Name: "config", Status: checkWarn, Detail: "no " + query.PolicyFile + ": the defaults apply", Fix: "sdl init"})
		return
	}
	info, err := query.LoadPolicy(root)
	if err != nil {
		r.Checks = append(r.Checks, check{Name: "config", Status: checkFail, Detail: strings.TrimPrefix(err.Error(), query.ErrConfig.Error()+": "),
			Fix: "edit " + query.PolicyFile + " (see: sdl help policy), or set a field with: sdl policy set FIELD=VALUE"})
		return
	}
	target, err := index.LoadGoTarget(root, os.Getenv)
	if err != nil {
		r.Checks = append(r.Checks, check{Name: "config", Status: checkFail, Detail: strings.TrimPrefix(err.Error(), index.ErrGoTarget.Error()+": "),
			Fix: "edit the go section of " + query.PolicyFile + " (goos, goarch, cgo, tags) or the GOOS, GOARCH, CGO_ENABLED, GOFLAGS variables"})
		return
	}
	detail := query.PolicyFile + " is valid"
	if len(info.FromFile) > 0 {
		detail += " (sets " + strings.Join(info.FromFile, ", ") + ")"
	}
	detail += "; Go target " + target.String()
	r.Checks = append(r.Checks, check{Name: "config", Status: checkOK, Detail: detail})
}

// doctorMemories checks .sdl-memory/ the way an index run reads it.
func doctorMemories(r *doctorReport, root string) {
	if _, err := os.Stat(filepath.Join(root, memoryfs.Dir)); err != nil {
		r.Checks = append(r.Checks, check{Name: "memories", Status: checkOK, Detail: "no " + memoryfs.Dir + " directory"})
		return
	}
	res := memoryfs.Scan(root)
	if len(res.Problems) == 0 {
		r.Checks = append(r.Checks, check{Name: "memories", Status: checkOK, Detail: count(len(res.Files), "memory file is valid", "memory files are valid")})
		return
	}
	for _, p := range res.Problems {
		r.Checks = append(r.Checks, check{Name: "memories", Status: checkFail, Detail: p.Error(),
			Fix: "fix the file (--- lines around YAML front matter with type and title; see sdl help memory), or delete it"})
	}
}

func doctorGrammars(r *doctorReport) {
	var names, bad []string
	for _, g := range index.CheckGrammars() {
		names = append(names, g.Language)
		if !g.OK {
			bad = append(bad, g.Language+": "+g.Problem)
		}
	}
	if len(bad) > 0 {
		r.Checks = append(r.Checks, check{Name: "grammars", Status: checkFail, Detail: strings.Join(bad, "; "),
			Fix: "install a release build of sdl, or rebuild it with CGO_ENABLED=1 (make build)"})
		return
	}
	r.Checks = append(r.Checks, check{Name: "grammars", Status: checkOK, Detail: strings.Join(names, ", ")})
}

// doctorClients checks the MCP configs in the repository: valid JSON, an
// sdl server, a command that exists.
func doctorClients(r *doctorReport, root string) {
	found := 0
	for _, cl := range initClients {
		rel, ok := clientFiles[cl]
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		found++
		fix := "sdl init --client " + cl
		if err != nil {
			r.Checks = append(r.Checks, check{Name: "client " + cl, Status: checkFail, Detail: err.Error(), Fix: fix})
			continue
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			r.Checks = append(r.Checks, check{Name: "client " + cl, Status: checkFail,
				Detail: rel + " is not valid JSON: " + err.Error(), Fix: "fix the JSON, then: " + fix})
			continue
		}
		key := "mcpServers"
		if cl == "vscode" {
			key = "servers"
		}
		servers, _ := doc[key].(map[string]any)
		entry, _ := servers["sdl"].(map[string]any)
		if entry == nil {
			r.Checks = append(r.Checks, check{Name: "client " + cl, Status: checkFail,
				Detail: fmt.Sprintf("%s has no %q server under %q", rel, "sdl", key), Fix: fix})
			continue
		}
		cmd, _ := entry["command"].(string)
		if cmd == "" {
			r.Checks = append(r.Checks, check{Name: "client " + cl, Status: checkFail, Detail: rel + ": the sdl server has no command", Fix: fix})
			continue
		}
		if _, err := exec.LookPath(cmd); err != nil {
			r.Checks = append(r.Checks, check{Name: "client " + cl, Status: checkFail,
				Detail: fmt.Sprintf("%s starts %q, which is not on PATH", rel, cmd),
				Fix:    "put sdl on PATH (see README, Install), or: sdl init --client " + cl + " --command /path/to/sdl"})
			continue
		}
		args, _ := json.Marshal(entry["args"])
		if !bytes.Contains(args, []byte(`"serve"`)) {
			r.Checks = append(r.Checks, check{Name: "client " + cl, Status: checkFail,
				Detail: fmt.Sprintf("%s runs %s %s, not sdl serve", rel, cmd, args), Fix: fix})
			continue
		}
		r.Checks = append(r.Checks, check{Name: "client " + cl, Status: checkOK, Detail: rel + " starts " + cmd + " serve"})
	}
	if found == 0 {
		r.Checks = append(r.Checks, check{Name: "clients", Status: checkWarn,
			Detail: "no MCP client config in the repository (.mcp.json, .cursor/mcp.json, .vscode/mcp.json)", Fix: "sdl init"})
	}
}

func printDoctor(u *ui, r *doctorReport) {
	for _, ch := range r.Checks {
		mark := u.ok("ok  ")
		switch ch.Status {
		case checkWarn:
			mark = u.warn("warn")
		case checkFail:
			mark = u.warn("FAIL")
		}
		fmt.Fprintf(u.w, "%s  %-19s %s\n", mark, ch.Name, ch.Detail)
		if ch.Fix != "" {
			fmt.Fprintf(u.w, "      %-19s fix: %s\n", "", ch.Fix)
		}
	}
	switch {
	case r.Problems > 0:
		fmt.Fprintf(u.w, "%s, %s\n", count(r.Problems, "problem", "problems"), count(r.Warnings, "warning", "warnings"))
	case r.Warnings > 0:
		fmt.Fprintf(u.w, "no problems, %s\n", count(r.Warnings, "warning", "warnings"))
	default:
		fmt.Fprintln(u.w, "no problems")
	}
}

// relTo renders p relative to root when it is inside it.
func relTo(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}
