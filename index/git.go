package index

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
)

// gitInfo is what the ledger records of the repository's git state.
type gitInfo struct {
	commit   string
	dirty    bool
	headTime time.Time
	ref      string // the revision as named by sdl index --rev
}

func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	// read-only use: never take git's index lock
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	return cmd.Output()
}

// readGit reads HEAD and the dirty state; outside a git repository it
// returns the zero value.
func readGit(ctx context.Context, root string) gitInfo {
	var g gitInfo
	out, err := git(ctx, root, "log", "-1", "--format=%H %ct", "HEAD")
	if err != nil {
		return g
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return g
	}
	g.commit = f[0]
	if ts, err := strconv.ParseInt(f[1], 10, 64); err == nil {
		g.headTime = time.Unix(ts, 0).UTC()
	}
	st, err := git(ctx, root, "status", "--porcelain", "--untracked-files=normal", "--", ".", ":(exclude).sdl")
	if err == nil && len(bytes.TrimSpace(st)) > 0 {
		g.dirty = true
	}
	return g
}

// readGitRev describes a commit indexed from the object database: never
// dirty, and named by ref.
func readGitRev(ctx context.Context, root, commit, ref string) gitInfo {
	g := gitInfo{commit: commit, ref: ref}
	if out, err := git(ctx, root, "log", "-1", "--format=%ct", commit); err == nil {
		if ts, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err == nil {
			g.headTime = time.Unix(ts, 0).UTC()
		}
	}
	return g
}

// gitChurn counts, per repository-relative path, the commits that touched
// it in the 30 days before HEAD's commit time.
func gitChurn(ctx context.Context, root string, g gitInfo) map[string]int {
	if g.commit == "" {
		return nil
	}
	since := g.headTime.Add(-30 * 24 * time.Hour).Unix()
	out, err := git(ctx, root, "log", "--since=@"+strconv.FormatInt(since, 10), "--format=%x00", "--name-only",
		"--relative", "--no-renames", g.commit, "--", ".")
	if err != nil {
		return nil
	}
	churn := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(strings.Trim(sc.Text(), "\x00"))
		if line == "" {
			continue
		}
		churn[line]++
	}
	return churn
}

// readGoModules finds the go.mod files that govern the Go files of a walk
// and returns "dir\tmodule/path" for each, dir relative to root.
func readGoModules(tree fileTree, entries []Entry) []string {
	dirs := map[string]bool{}
	for _, e := range entries {
		if e.Lang != nil && e.Lang.Name == "go" {
			for d := path.Dir(e.Path); ; d = path.Dir(d) {
				if dirs[d] {
					break
				}
				dirs[d] = true
				if d == "." || d == "/" {
					break
				}
			}
		}
	}
	var out []string
	for d := range dirs {
		data, err := tree.ReadFile(path.Join(d, "go.mod"))
		if err != nil {
			continue
		}
		if mod := modfile.ModulePath(data); mod != "" {
			out = append(out, d+"\t"+mod)
		}
	}
	sort.Strings(out)
	if !dirs["."] || len(out) > 0 && strings.HasPrefix(out[0], ".\t") {
		return out // no Go file, or a module at the root
	}
	// the root is a directory inside a module (GOROOT/src/net): its import
	// path prefix comes from the go.mod above it
	dt, ok := tree.(dirTree)
	if !ok {
		return out
	}
	abs, err := filepath.Abs(dt.root)
	if err != nil {
		return out
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			if mod := modfile.ModulePath(data); mod != "" {
				if rel, err := filepath.Rel(d, abs); err == nil {
					prefix := path.Join(mod, filepath.ToSlash(rel))
					if mod == "std" {
						prefix = filepath.ToSlash(rel)
					}
					out = append(out, ".\t"+prefix)
				}
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	sort.Strings(out)
	return out
}
