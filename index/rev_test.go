package index

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/schema"
)

// gitRun runs git in dir with a fixed identity and no user configuration.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=sdl", "-c", "user.email=sdl@example.com",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// checkout writes the tree of rev into a new directory, as a clone would.
func checkout(t *testing.T, repo, rev string) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("git", "-C", repo, "archive", "--format=tar", rev).Output()
	if err != nil {
		t.Fatalf("git archive %s: %v", rev, err)
	}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			os.MkdirAll(p, 0o755)
		case tar.TypeReg:
			os.MkdirAll(filepath.Dir(p), 0o755)
			data, _ := io.ReadAll(tr)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		case tar.TypeSymlink:
			os.Symlink(h.Linkname, p)
		}
	}
	return dir
}

func revOptions(root, db, rev string) Options {
	return Options{Root: root, DB: db, Rev: rev, Workers: 2, Now: time.Unix(1700000000, 0), SDLVersion: "test"}
}

// sameView fails unless the current views of two indexes hold the same rows.
func sameView(t *testing.T, what, got, want string) {
	t.Helper()
	for _, part := range []string{"symbols", "edges", "files", "lengths"} {
		g, w := string(dump(t, got, part)), string(dump(t, want, part))
		if g != w {
			t.Errorf("%s: %s differ from an index of a checkout:\n%s", what, part, lineDiff(w, g))
		}
	}
}

// TestIndexRev indexes the commits of a repository from its object
// database, one version each, and checks every version against an index
// of a checkout of the same commit.
func TestIndexRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	repo := filepath.Join(t.TempDir(), "repo")
	copyDir(t, "../testdata/repos/go", repo)
	// a committed file the ignore rules skip, and a symlink
	writeFile(t, repo, ".gitignore", "gen/\n")
	writeFile(t, repo, "gen/out.go", "package gen\n\nfunc Generated() {}\n")
	writeFile(t, repo, "store/.sdlignore", "secret.go\n")
	writeFile(t, repo, "store/secret.go", "package store\n\nfunc Secret() {}\n")
	if err := os.Symlink("store/db.go", filepath.Join(repo, "link.go")); err != nil {
		t.Fatal(err)
	}
	gitRun(t, repo, "init", "-q")
	gitRun(t, repo, "add", "-A")
	gitRun(t, repo, "add", "-f", "gen/out.go")
	gitRun(t, repo, "commit", "-q", "-m", "c1")
	gitRun(t, repo, "tag", "base")
	replaceIn(t, repo, "store/item.go", "return i.Price * float64(i.Qty)", "return float64(i.Qty) * i.Price")
	gitRun(t, repo, "commit", "-q", "-am", "c2: edit a body")
	writeFile(t, repo, "store/report.go", "package store\n\n// Report sums.\nfunc Report(s *Store) float64 { return s.Value() }\n")
	gitRun(t, repo, "add", "-A")
	gitRun(t, repo, "commit", "-q", "-m", "c3: add a file")
	gitRun(t, repo, "rm", "-q", "store/report.go")
	gitRun(t, repo, "mv", "store/db.go", "store/database.go")
	gitRun(t, repo, "commit", "-q", "-m", "c4: delete and rename")
	// the working tree moves on; --rev does not read it
	writeFile(t, repo, "store/wip.go", "package store\n\nfunc WIP() {}\n")

	revs := []string{"base", gitRun(t, repo, "rev-parse", "HEAD~2"), "HEAD~1", "main"}
	db := filepath.Join(t.TempDir(), "rev.db")
	for i, rev := range revs {
		sum, err := Run(ctx, revOptions(repo, db, rev))
		if err != nil {
			t.Fatalf("--rev %s: %v", rev, err)
		}
		commit := gitRun(t, repo, "rev-parse", rev+"^{commit}")
		if sum.Seq != int64(i+1) || sum.GitCommit != commit || sum.GitRef != rev || !sum.NewVersion {
			t.Fatalf("--rev %s: %+v", rev, sum)
		}
		sameView(t, "--rev "+rev, db, heuristicFixture(t, checkout(t, repo, commit)))
	}
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	rows := query(t, conn, `SELECT seq, git_commit, git_ref, git_dirty FROM versions ORDER BY seq`)
	conn.Close()
	for i, r := range rows {
		if r[1] != gitRun(t, repo, "rev-parse", revs[i]+"^{commit}") || r[2] != revs[i] || r[3] != "0" {
			t.Errorf("version %s: %v", r[0], r)
		}
	}
	var files string
	for _, l := range strings.Split(string(dump(t, db, "files")), "\n") {
		files += l + "\n"
	}
	// an ignored file is recorded as skipped, never indexed; an
	// uncommitted one is not there at all
	for _, line := range strings.Split(files, "\n") {
		for _, p := range []string{"gen/out.go", "store/secret.go"} {
			if strings.HasPrefix(line, p+" ") && !strings.Contains(line, " skipped (ignored)") {
				t.Errorf("%s is ignored, yet indexed: %s", p, line)
			}
		}
	}
	if strings.Contains(files, "store/wip.go") {
		t.Errorf("store/wip.go is not committed, yet recorded")
	}
	if !strings.Contains(files, "link.go") {
		t.Errorf("the symlink is recorded as skipped:\n%s", files)
	}

	// the same tree at another commit is still recorded, so it can be named
	gitRun(t, repo, "commit", "-q", "--allow-empty", "-m", "c5: nothing")
	sum, err := Run(ctx, revOptions(repo, db, "HEAD"))
	if err != nil || !sum.NewVersion || sum.FilesChanged+sum.FilesAdded+sum.FilesRemoved != 0 || sum.GitCommit != gitRun(t, repo, "rev-parse", "HEAD") {
		t.Errorf("an empty commit: %+v %v", sum, err)
	}
	if sum, err := Run(ctx, revOptions(repo, db, "HEAD")); err != nil || sum.NewVersion {
		t.Errorf("the same commit again: no new version, got %+v %v", sum, err)
	}

	// a bare clone, and a subdirectory of a work tree
	bare := filepath.Join(t.TempDir(), "bare.git")
	gitRun(t, repo, "clone", "-q", "--bare", repo, bare)
	bareDB := filepath.Join(t.TempDir(), "bare.db")
	if _, err := Run(ctx, revOptions(bare, bareDB, "HEAD")); err != nil {
		t.Fatalf("bare: %v", err)
	}
	sameView(t, "bare clone", bareDB, heuristicFixture(t, checkout(t, repo, "HEAD")))
	subDB := filepath.Join(t.TempDir(), "sub.db")
	if _, err := Run(ctx, revOptions(filepath.Join(repo, "store"), subDB, "HEAD")); err != nil {
		t.Fatalf("subdirectory: %v", err)
	}
	sameView(t, "subdirectory", subDB, heuristicFixture(t, filepath.Join(checkout(t, repo, "HEAD"), "store")))

	// a revision is read whole: paths and an overlay are of the working tree
	for _, o := range []Options{{Paths: []string{"store/db.go"}}, {Overlay: map[string][]byte{"store/db.go": []byte("package store\n")}}} {
		opts := revOptions(repo, db, "HEAD")
		opts.Paths, opts.Overlay = o.Paths, o.Overlay
		if _, err := Run(ctx, opts); !errors.Is(err, ErrRev) {
			t.Errorf("--rev with paths %v or an overlay: %v, want ErrRev", o.Paths, err)
		}
	}

	// what cannot be read
	for _, c := range []struct{ root, rev string }{{repo, "no-such-branch"}, {repo, "--output=x"}, {t.TempDir(), "HEAD"}} {
		if _, err := Run(ctx, revOptions(c.root, filepath.Join(t.TempDir(), "x.db"), c.rev)); !errors.Is(err, ErrRev) {
			t.Errorf("--rev %s in %s: %v, want ErrRev", c.rev, c.root, err)
		}
	}
}

// heuristicFixture indexes a checkout without Go precise mode: a revision
// is not on disk for the go command, so --rev resolves with the heuristics.
func heuristicFixture(t *testing.T, root string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "index.db")
	opts := testOptions(root, db)
	opts.GoPrecise = PreciseOff
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatalf("index %s: %v", root, err)
	}
	return db
}
