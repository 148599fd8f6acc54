package index

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
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
