package index

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrRev means a git revision to index cannot be read: no git repository
// at the root, or no commit by that name.
var ErrRev = errors.New("cannot read the git revision")

// fileTree is where a run reads the repository: the working directory, or
// the tree of a git commit read from the object database. Walk, parse and
// the readers of go.mod and package.json all go through it, so the two
// sources share one pipeline. Paths are repository-relative with '/'; ""
// is the root.
type fileTree interface {
	ReadDir(rel string) ([]fs.DirEntry, error)
	ReadFile(rel string) ([]byte, error)
	// Exclude is the repository's .git/info/exclude ("" when absent).
	Exclude() []byte
}

// dirTree is a working directory.
type dirTree struct{ root string }

func (d dirTree) abs(rel string) string { return filepath.Join(d.root, filepath.FromSlash(rel)) }

func (d dirTree) ReadDir(rel string) ([]fs.DirEntry, error) { return os.ReadDir(d.abs(rel)) }
func (d dirTree) ReadFile(rel string) ([]byte, error)       { return os.ReadFile(d.abs(rel)) }

// minReadBuffer is the least a read buffer grows by.
const minReadBuffer = 64 << 10

// ReadFileInto reads file rel into buf, grown as needed, and returns it.
func (d dirTree) ReadFileInto(rel string, buf []byte) ([]byte, error) {
	f, err := os.Open(d.abs(rel))
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(len(buf), minReadBuffer))
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
func (d dirTree) Exclude() []byte {
	data, _ := os.ReadFile(filepath.Join(d.root, ".git", "info", "exclude"))
	return data
}

// gitTree is the tree of one commit. The listing comes from one
// `git ls-tree -r`; contents from one long-running `git cat-file --batch`
// shared by the parse workers. git's plumbing is used rather than go-git's
// object layer: index already runs git for the commit and churn, and the
// binary is what CI has anyway, while go-git's storage would add a large
// dependency for the same few reads.
type gitTree struct {
	dir     string // where git runs
	commit  string
	exclude []byte
	dirs    map[string][]fs.DirEntry
	blobs   map[string]gitBlob

	mu    sync.Mutex
	ctx   context.Context
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	err   error
	stopc func()
}

type gitBlob struct {
	oid  string
	size int64
	mode fs.FileMode
}

// openGitTree lists the tree of rev in the git repository at dir (a work
// tree or a bare repository). When dir is a subdirectory of a work tree,
// the listing is that subdirectory's, as a walk of dir would see it.
func openGitTree(ctx context.Context, dir, rev string) (*gitTree, error) {
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%w %q: a revision does not start with '-'", ErrRev, rev)
	}
	out, err := gitErr(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		if _, err2 := gitErr(ctx, dir, "rev-parse", "--git-dir"); err2 != nil {
			return nil, fmt.Errorf("%w: %s is not in a git repository", ErrRev, dir)
		}
		return nil, fmt.Errorf("%w: no commit %q in %s", ErrRev, rev, dir)
	}
	commit := strings.TrimSpace(string(out))
	prefix := ""
	if bare, _ := gitErr(ctx, dir, "rev-parse", "--is-bare-repository"); strings.TrimSpace(string(bare)) != "true" {
		if p, err := gitErr(ctx, dir, "rev-parse", "--show-prefix"); err == nil {
			prefix = strings.TrimSpace(string(p))
		}
	}
	treeish := commit
	if prefix != "" {
		treeish = commit + ":" + strings.TrimSuffix(prefix, "/")
	}
	list, err := gitErr(ctx, dir, "ls-tree", "-r", "-z", "-l", "--full-tree", treeish)
	if err != nil {
		return nil, fmt.Errorf("%w: list %s: %v", ErrRev, treeish, err)
	}
	t := &gitTree{dir: dir, commit: commit, ctx: ctx, dirs: map[string][]fs.DirEntry{}, blobs: map[string]gitBlob{}}
	seenDir := map[string]bool{"": true}
	for _, rec := range bytes.Split(list, []byte{0}) {
		// <mode> SP <type> SP <object> SP+ <size> TAB <path>
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 4 || f[1] != "blob" {
			continue // submodules (commit entries) are not part of this repository's source
		}
		mode := fs.FileMode(0)
		if f[0] == "120000" {
			mode = fs.ModeSymlink
		}
		size, _ := strconv.ParseInt(f[3], 10, 64)
		rel := string(p)
		t.blobs[rel] = gitBlob{oid: f[2], size: size, mode: mode}
		// register the file and every directory above it in its parent
		for child := rel; ; {
			parent := path.Dir(child)
			if parent == "." {
				parent = ""
			}
			isDir := child != rel
			if isDir && seenDir[child] {
				break
			}
			e := gitEntry{name: path.Base(child), size: size, mode: mode}
			if isDir {
				seenDir[child] = true
				e = gitEntry{name: path.Base(child), mode: fs.ModeDir}
			}
			t.dirs[parent] = append(t.dirs[parent], e)
			if parent == "" {
				break
			}
			child = parent
		}
	}
	for _, es := range t.dirs {
		sort.Slice(es, func(i, j int) bool { return es[i].Name() < es[j].Name() })
	}
	if ex, err := gitErr(ctx, dir, "rev-parse", "--git-path", "info/exclude"); err == nil {
		p := strings.TrimSpace(string(ex))
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		t.exclude, _ = os.ReadFile(p)
	}
	return t, nil
}

func (t *gitTree) Exclude() []byte { return t.exclude }

func (t *gitTree) ReadDir(rel string) ([]fs.DirEntry, error) {
	es, ok := t.dirs[rel]
	if !ok && rel != "" {
		return nil, &fs.PathError{Op: "readdir", Path: rel, Err: fs.ErrNotExist}
	}
	return es, nil
}

// ReadFile reads a blob through the shared cat-file process.
func (t *gitTree) ReadFile(rel string) ([]byte, error) {
	b, ok := t.blobs[rel]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: rel, Err: fs.ErrNotExist}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return nil, t.err
	}
	if t.cmd == nil {
		if err := t.start(); err != nil {
			t.err = err
			return nil, err
		}
	}
	data, err := t.cat(b.oid)
	if err != nil {
		// the stream is out of step after a failed read: no further reads
		t.err = fmt.Errorf("read %s from git: %w", rel, err)
		return nil, t.err
	}
	return data, nil
}

func (t *gitTree) start() error {
	ctx, cancel := context.WithCancel(t.ctx)
	cmd := exec.CommandContext(ctx, "git", "-C", t.dir, "cat-file", "--batch")
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	in, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return err
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return fmt.Errorf("start git cat-file: %w", err)
	}
	t.cmd, t.in, t.out, t.stopc = cmd, in, bufio.NewReaderSize(out, 256<<10), cancel
	return nil
}

func (t *gitTree) cat(oid string) ([]byte, error) {
	if _, err := io.WriteString(t.in, oid+"\n"); err != nil {
		return nil, err
	}
	hdr, err := t.out.ReadString('\n')
	if err != nil {
		return nil, err
	}
	f := strings.Fields(hdr)
	if len(f) != 3 || f[1] != "blob" {
		return nil, fmt.Errorf("git cat-file: %s", strings.TrimSpace(hdr))
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %s", strings.TrimSpace(hdr))
	}
	data := make([]byte, n+1) // the content and its trailing newline
	if _, err := io.ReadFull(t.out, data); err != nil {
		return nil, err
	}
	return data[:n], nil
}

// close stops the cat-file process.
func (t *gitTree) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cmd == nil {
		return
	}
	t.in.Close()
	done := make(chan struct{})
	go func() { t.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.stopc()
		<-done
	}
	t.stopc()
	t.cmd = nil
	if t.err == nil {
		t.err = errors.New("git tree closed")
	}
}

// gitEntry is a file or directory of a gitTree listing.
type gitEntry struct {
	name string
	size int64
	mode fs.FileMode
}

func (e gitEntry) Name() string               { return e.name }
func (e gitEntry) IsDir() bool                { return e.mode.IsDir() }
func (e gitEntry) Type() fs.FileMode          { return e.mode.Type() }
func (e gitEntry) Info() (fs.FileInfo, error) { return e, nil }
func (e gitEntry) Size() int64                { return e.size }
func (e gitEntry) Mode() fs.FileMode          { return e.mode }
func (e gitEntry) ModTime() time.Time         { return time.Time{} }
func (e gitEntry) Sys() any                   { return nil }

// gitErr runs git and returns its output, or an error holding its stderr.
func gitErr(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return out, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return out, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}
