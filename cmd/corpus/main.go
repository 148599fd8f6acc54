// Command corpus indexes a list of public repositories, one checkout of
// each at a pinned commit, and writes what it saw to a Markdown table
// (make corpus; see docs/corpus.md):
//
//	corpus -list docs/corpus.tsv -mirror /work/.mirror -work /tmp/sdl-corpus -sdl bin/sdl -out docs/corpus.md
//
// For each repository it records the exit status of `sdl index` (a crash,
// or a hang when the per-repository timeout kills it), files, symbols and
// edges, the share of files sdl indexed with parse errors against
// tree-sitter's own count on the same files with the right grammar, the
// faults sdl recorded by stage, the time of each stage of `sdl index
// --trace` against a raw tree-sitter parse of the same files in the same
// run, and peak RSS (/usr/bin/time -v). Results are kept per sdl binary
// under -work, so an interrupted sweep resumes where it stopped and
// another binary (-sdl) gets its own table.
//
// The repositories come from bare mirrors (MIRROR/owner+name/repo); the
// ones missing are listed with the fetch command for them, and the sweep
// goes on without them.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// repo is one line of the list.
type repo struct {
	Name   string // owner/name
	Lang   string
	Kind   string // library or application
	Commit string
}

func (r repo) dir() string { return strings.Replace(r.Name, "/", "+", 1) }

func main() {
	list := flag.String("list", "docs/corpus.tsv", "the repositories: owner/name, language, kind, commit (tab-separated)")
	mirror := flag.String("mirror", "/work/.mirror", "the directory of bare mirrors, MIRROR/owner+name/repo")
	work := flag.String("work", "/tmp/sdl-corpus", "checkouts, indexes and results (outside the repository)")
	sdl := flag.String("sdl", "bin/sdl", "the sdl binary to measure")
	timeout := flag.Duration("timeout", defaultTimeout, "the time one `sdl index` may take before it counts as a hang")
	out := flag.String("out", "docs/corpus.md", "the Markdown report (its section for -label is replaced)")
	label := flag.String("label", "", "the report section's name (default: the sdl binary's version)")
	only := flag.String("only", "", "comma-separated owner/name: measure only these")
	force := flag.Bool("force", false, "measure again even where a result for this binary exists")
	results := flag.String("results", "", "write the report from the results kept for this binary id (the first 12 hex digits of its sha256) and measure nothing")
	command := flag.String("command", "", "the command line to print in the report (default: this one)")
	flag.Parse()
	if err := run(*list, *mirror, *work, *sdl, *timeout, *out, *label, *only, *force, *command, *results); err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
}

// defaultTimeout is long enough for the slowest repository of the list on a
// loaded 2-core machine (a resolver that takes minutes is a finding in its
// own right) and short enough that a hang does not eat the sweep.
const defaultTimeout = 5 * time.Minute

func run(listPath, mirror, work, sdl string, timeout time.Duration, out, label, only string, force bool, command, resultsID string) error {
	repos, err := readList(listPath)
	if err != nil {
		return err
	}
	// An interrupt kills the sdl being measured (its own process group)
	// and leaves the results so far for the next run.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	allRepos := repos
	if only != "" {
		keep := map[string]bool{}
		for _, n := range strings.Split(only, ",") {
			keep[strings.TrimSpace(n)] = true
		}
		var sel []repo
		for _, r := range repos {
			if keep[r.Name] {
				sel = append(sel, r)
			}
		}
		repos = sel
	}
	sdlAbs, err := filepath.Abs(sdl)
	if err != nil {
		return err
	}
	var id, version string
	if resultsID != "" {
		id, version, sdlAbs = resultsID, resultsID, ""
	} else {
		if id, version, err = binaryID(sdlAbs); err != nil {
			return err
		}
		// Measure a copy: the binary at -sdl may be rebuilt or replaced
		// while the sweep runs (a shared /tmp), and the results must be
		// those of the binary they are filed under.
		cp := filepath.Join(work, "bin", "sdl-"+id)
		if err := copyFile(sdlAbs, cp); err != nil {
			return err
		}
		sdlAbs = cp
	}
	if label == "" {
		label = "sdl " + version
	}
	if command == "" {
		command = strings.Join(os.Args, " ")
	}
	resDir := filepath.Join(work, "results", id)
	if err := os.MkdirAll(resDir, 0o755); err != nil {
		return err
	}
	var missing []string
	var results []*result
	for i, r := range repos {
		git := mirrorGitDir(filepath.Join(mirror, r.dir(), "repo"))
		if err := exec.Command("git", "--git-dir="+git, "cat-file", "-e", r.Commit+"^{commit}").Run(); err != nil {
			msg := fmt.Sprintf("%s: no mirror with commit %.12s at %s; fetch it with the fetch tool: github:%s", r.Name, r.Commit, git, r.Name)
			fmt.Fprintln(os.Stderr, "missing", msg)
			missing = append(missing, msg)
			continue
		}
		resFile := filepath.Join(resDir, r.dir()+".json")
		if !force {
			if res, err := loadResult(resFile); err == nil && res.Commit == r.Commit {
				fmt.Fprintf(os.Stderr, "[%d/%d] %s: kept from an earlier run\n", i+1, len(repos), r.Name)
				results = append(results, res)
				continue
			}
		}
		if resultsID != "" {
			missing = append(missing, fmt.Sprintf("%s: no result kept for binary %s", r.Name, id))
			continue
		}
		fmt.Fprintf(os.Stderr, "[%d/%d] %s ...", i+1, len(repos), r.Name)
		res, err := measure(ctx, r, git, work, id, sdlAbs, timeout)
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted at %s: %w", r.Name, ctx.Err())
		}
		if err != nil {
			// The harness failed, not sdl: named in the report, measured
			// again by the next run.
			fmt.Fprintln(os.Stderr, " not measured:", err)
			missing = append(missing, fmt.Sprintf("%s: not measured: %v", r.Name, err))
			continue
		}
		fmt.Fprintf(os.Stderr, " %s, %d files, %.1fs, worst stage %s %.1fx\n", res.Status, res.Files, res.Wall, res.WorstStage, res.WorstRatio)
		if err := saveResult(resFile, res); err != nil {
			return err
		}
		results = append(results, res)
	}
	rep := report{Label: label, Command: command, SDL: sdlAbs, Version: version, ID: id,
		Timeout: timeout, CPUs: runtime.NumCPU(), Date: time.Now().UTC().Format("2006-01-02 15:04 MST"),
		Repos: repos, Results: results, Missing: missing}
	if err := writeSection(out, label, rep.markdown(), allRepos); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s (section %q): %s\n", out, label, rep.summaryLine())
	return nil
}

// copyFile copies an executable unless the copy is there.
func copyFile(src, dst string) error {
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(dst+".tmp", data, 0o755); err != nil {
		return err
	}
	return os.Rename(dst+".tmp", dst)
}

func readList(p string) ([]repo, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("read list: %w", err)
	}
	defer f.Close()
	var out []repo
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 4 || len(fs[3]) != 40 {
			return nil, fmt.Errorf("read list: %s:%d: want owner/name, language, kind, 40-digit commit", p, n)
		}
		out = append(out, repo{Name: fs[0], Lang: fs[1], Kind: fs[2], Commit: fs[3]})
	}
	return out, sc.Err()
}

// binaryID names the results of one sdl binary: the hash of its bytes, so
// a rebuilt binary is measured again, and its version for the report.
func binaryID(sdl string) (id, version string, err error) {
	f, err := os.Open(sdl)
	if err != nil {
		return "", "", fmt.Errorf("sdl binary: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", "", fmt.Errorf("sdl binary: %w", err)
	}
	id = hex.EncodeToString(h.Sum(nil))[:12]
	// "sdl 7dd7531 (7dd7531f433b, date) · go1.26 · ...": the second word.
	v, err := exec.Command(sdl, "version").Output()
	if f := strings.Fields(string(v)); err == nil && len(f) > 1 && f[0] == "sdl" {
		version = f[1]
	}
	if version == "" {
		version = id
	}
	return id, version, nil
}

func loadResult(p string) (*result, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var r result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func saveResult(p string, r *result) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// checkout writes the commit's tree into work/src once. It reads blobs one
// by one (git cat-file --batch) rather than through git archive, because a
// mirror may lack a few large blobs (the fetch tool leaves out files of
// 4 MiB and more): those are left out of the checkout and counted. A
// half-done checkout (an interrupted sweep) is thrown away.
func checkout(git, work string, r repo) (dir string, missing int, err error) {
	dir = filepath.Join(work, "src", r.dir()+"@"+r.Commit[:12])
	if data, err := os.ReadFile(dir + ".missing"); err == nil {
		fmt.Sscan(string(data), &missing)
		return dir, missing, nil
	}
	tmp := dir + ".part"
	os.RemoveAll(tmp)
	os.RemoveAll(dir)
	ls, err := exec.Command("git", "--git-dir="+git, "ls-tree", "-r", "-z", "--full-tree", r.Commit).Output()
	if err != nil {
		return "", 0, fmt.Errorf("checkout: git ls-tree: %w", err)
	}
	type entry struct{ mode, sha, path string }
	var entries []entry
	for _, rec := range strings.Split(string(ls), "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue // submodules (commit entries) have no content here
		}
		entries = append(entries, entry{f[0], f[2], p})
	}
	cat := exec.Command("git", "--git-dir="+git, "cat-file", "--batch")
	in, err := cat.StdinPipe()
	if err != nil {
		return "", 0, err
	}
	outp, err := cat.StdoutPipe()
	if err != nil {
		return "", 0, err
	}
	if err := cat.Start(); err != nil {
		return "", 0, err
	}
	go func() {
		w := bufio.NewWriter(in)
		for _, e := range entries {
			fmt.Fprintln(w, e.sha)
		}
		w.Flush()
		in.Close()
	}()
	rd := bufio.NewReaderSize(outp, 1<<20)
	for _, e := range entries {
		head, err := rd.ReadString('\n')
		if err != nil {
			cat.Process.Kill()
			cat.Wait()
			return "", 0, fmt.Errorf("checkout: git cat-file: %w", err)
		}
		f := strings.Fields(head)
		if len(f) == 2 && f[1] == "missing" {
			missing++
			continue
		}
		if len(f) != 3 {
			cat.Process.Kill()
			cat.Wait()
			return "", 0, fmt.Errorf("checkout: git cat-file: unexpected %q", head)
		}
		var size int
		fmt.Sscan(f[2], &size)
		data := make([]byte, size+1) // the content and a newline
		if _, err := io.ReadFull(rd, data); err != nil {
			cat.Process.Kill()
			cat.Wait()
			return "", 0, fmt.Errorf("checkout: git cat-file: %w", err)
		}
		data = data[:size]
		dst := filepath.Join(tmp, filepath.FromSlash(e.path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", 0, err
		}
		switch e.mode {
		case "120000":
			err = os.Symlink(string(data), dst)
		case "100755":
			err = os.WriteFile(dst, data, 0o755)
		default:
			err = os.WriteFile(dst, data, 0o644)
		}
		if err != nil {
			cat.Process.Kill()
			cat.Wait()
			return "", 0, fmt.Errorf("checkout: %w", err)
		}
	}
	if err := cat.Wait(); err != nil {
		return "", 0, fmt.Errorf("checkout: git cat-file: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", 0, err
	}
	return dir, missing, os.WriteFile(dir+".missing", []byte(fmt.Sprintln(missing)), 0o644)
}

// runSDL runs one command under /usr/bin/time -v in its own process group,
// killed whole at the timeout. It returns stdout, stderr, the exit code (-1
// for a signal), the peak RSS in KiB and whether the timeout struck.
func runSDL(ctx context.Context, timeout time.Duration, env []string, args ...string) (stdout, stderr []byte, code int, rssKB int64, hung bool, err error) {
	tf, err := os.CreateTemp("", "corpus-time-*")
	if err != nil {
		return nil, nil, 0, 0, false, err
	}
	tf.Close()
	defer os.Remove(tf.Name())
	cmd := exec.Command("/usr/bin/time", append([]string{"-v", "-o", tf.Name()}, args...)...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var so, se strings.Builder
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Start(); err != nil {
		return nil, nil, 0, 0, false, fmt.Errorf("run %s: %w", args[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-time.After(timeout):
		hung = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		werr = <-done
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return nil, nil, 0, 0, false, ctx.Err()
	}
	code = 0
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		code = ee.ExitCode()
	} else if werr != nil {
		return nil, nil, 0, 0, false, werr
	}
	// /usr/bin/time exits with the command's status; its own report says
	// whether a signal ended the command.
	if t, err := os.ReadFile(tf.Name()); err == nil {
		for _, line := range strings.Split(string(t), "\n") {
			line = strings.TrimSpace(line)
			if v, ok := strings.CutPrefix(line, "Maximum resident set size (kbytes): "); ok {
				fmt.Sscan(v, &rssKB)
			}
			if strings.HasPrefix(line, "Command terminated by signal") {
				code = -1
			}
		}
	}
	return []byte(so.String()), []byte(se.String()), code, rssKB, hung, nil
}

// mirrorGitDir is the git directory of a mirror: repo itself when it is
// bare, repo/.git when the fetch left a repository with its git directory
// inside.
func mirrorGitDir(repo string) string {
	if fi, err := os.Stat(filepath.Join(repo, ".git")); err == nil && fi.IsDir() {
		return filepath.Join(repo, ".git")
	}
	return repo
}
