package index

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/sdl-dev/sdl/lang"
)

// Skip reasons recorded for files that are not indexed.
const (
	SkipIgnored    = "ignored"
	SkipVendored   = "vendored"
	SkipHidden     = "hidden directory"
	SkipFixture    = "test fixtures"
	SkipTooLarge   = "too large"
	SkipBinary     = "binary"
	SkipGenerated  = "generated"
	SkipMinified   = "minified"
	SkipSymlink    = "symlink (not followed)"
	SkipNotRegular = "not a regular file"
	SkipUnreadable = "unreadable"
	SkipBadName    = "file name is not valid UTF-8 or holds a line break"
)

// DefaultMaxFileSize is the size above which a source file is skipped.
const DefaultMaxFileSize = 1 << 20

// DefaultSkipDirs are directory names skipped wherever they appear, with
// the reason recorded for them.
var DefaultSkipDirs = map[string]string{
	"vendor":           SkipVendored,
	"node_modules":     SkipVendored,
	"bower_components": SkipVendored,
	"third_party":      SkipVendored,
	"site-packages":    SkipVendored,
	"__pycache__":      SkipVendored,
	"venv":             SkipVendored,
	"testdata":         SkipFixture,
}

// WalkOptions configure which files a walk yields.
type WalkOptions struct {
	MaxFileSize int64
	// SkipDirs maps directory names to the reason they are skipped.
	SkipDirs map[string]string
	// Hidden includes directories whose names start with a dot.
	Hidden bool
	// Generated indexes generated code too ("Code generated ... DO NOT
	// EDIT", .pb.go): its declarations then resolve the calls into it,
	// at the price of its symbols in search (see LoadSettings).
	Generated bool
}

// Entry is one file found by a walk. Skip is empty for a file to index.
type Entry struct {
	Path string // repository-relative, with '/'
	Size int64
	// MTime is the modification time in Unix nanoseconds (0: unknown, as
	// in a git tree): with Size, it lets a later run skip reading a file
	// whose stat says it is unchanged.
	MTime int64
	Lang  *lang.Language
	Skip  string
	// Err holds the error for an unreadable entry.
	Err error
}

// ignoreFiles are read in every directory, in this order; later patterns
// take precedence.
var ignoreFiles = []string{".gitignore", ".sdlignore"}

// Walk lists the source files under root in path order: every file with a
// known language, indexed or skipped with a reason, and every directory
// skipped for a reason other than an ignore rule. Walk never fails on a
// file it cannot read; it fails only when root itself cannot be listed or
// ctx is done.
func Walk(ctx context.Context, root string, opts WalkOptions) ([]Entry, error) {
	entries, _, err := walkTree(ctx, root, dirTree{root}, opts)
	return entries, err
}

// listing is what a walk saw of the directories it listed besides their
// source files: which of them hold a project file (go.mod, package.json,
// composer.json), so that the project readers need not try to open one in
// every directory.
type listing struct {
	listed   map[string]bool // directories listed, "." for the root
	projects map[string]bool // "dir/name" of the project files in them
}

// has says whether directory dir holds file, as far as the walk saw: a
// directory it did not list (an overlay's) may.
func (l *listing) has(dir, file string) bool {
	return !l.listed[dir] || l.projects[path.Join(dir, file)]
}

// projectFiles are the names the project readers read.
var projectFiles = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range lang.ProjectReaders() {
		m[r.File()] = true
	}
	return m
}()

// walkTree walks a working directory or a git tree by the same rules;
// name is what errors call the root.
func walkTree(ctx context.Context, name string, t fileTree, opts WalkOptions) ([]Entry, *listing, error) {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.SkipDirs == nil {
		opts.SkipDirs = DefaultSkipDirs
	}
	w := &walker{root: name, tree: t, opts: opts, seen: &listing{listed: map[string]bool{}, projects: map[string]bool{}}}
	w.ignore = append(w.ignore, parsePatterns(t.Exclude(), nil)...)
	if _, err := t.ReadDir(""); err != nil {
		return nil, nil, fmt.Errorf("walk %s: %w", name, err)
	}
	if err := w.dir(ctx, "", nil); err != nil {
		return nil, nil, err
	}
	sort.Slice(w.out, func(i, j int) bool { return w.out[i].Path < w.out[j].Path })
	return w.out, w.seen, nil
}

type walker struct {
	root   string
	tree   fileTree
	opts   WalkOptions
	ignore []gitignore.Pattern
	out    []Entry
	seen   *listing
}

func (w *walker) ignored(parts []string, isDir bool) bool {
	for i := len(w.ignore) - 1; i >= 0; i-- {
		switch w.ignore[i].Match(parts, isDir) {
		case gitignore.Exclude:
			return true
		case gitignore.Include:
			return false
		}
	}
	return false
}

// dir walks the directory rel (parts are its path elements).
func (w *walker) dir(ctx context.Context, rel string, parts []string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ents, err := w.tree.ReadDir(rel)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("walk %s: %w", w.root, err)
		}
		w.out = append(w.out, Entry{Path: rel + "/", Skip: SkipUnreadable, Err: err})
		return nil
	}
	saved := len(w.ignore)
	dir := rel
	if dir == "" {
		dir = "."
	}
	w.seen.listed[dir] = true
	// the listing says which ignore and project files are here: a
	// directory without them costs no failed open
	hasIgnore := make([]bool, len(ignoreFiles))
	for _, de := range ents {
		name := de.Name()
		for i, ig := range ignoreFiles {
			if name == ig {
				hasIgnore[i] = true
			}
		}
		if projectFiles[name] && !de.IsDir() {
			w.seen.projects[path.Join(dir, name)] = true
		}
	}
	for i, name := range ignoreFiles {
		if !hasIgnore[i] {
			continue
		}
		p := name
		if rel != "" {
			p = rel + "/" + name
		}
		if data, err := w.tree.ReadFile(p); err == nil {
			w.ignore = append(w.ignore, parsePatterns(data, parts)...)
		}
	}
	defer func() { w.ignore = w.ignore[:saved] }()

	for _, de := range ents {
		name := de.Name()
		p := name
		if rel != "" {
			p = rel + "/" + name
		}
		child := append(parts[:len(parts):len(parts)], name)
		typ := de.Type()
		if typ&fs.ModeSymlink != 0 {
			if !w.ignored(child, false) && (lang.ForPath(name) != nil) {
				w.out = append(w.out, Entry{Path: p, Skip: SkipSymlink})
			}
			continue
		}
		if de.IsDir() {
			if name == ".git" || name == ".hg" || name == ".svn" || name == ".sdl" || name == ".sdl-memory" {
				continue
			}
			// a directory not indexed is recorded with its reason, so that
			// every file of the tree is accounted for
			if w.ignored(child, true) {
				w.out = append(w.out, Entry{Path: p + "/", Skip: SkipIgnored})
				continue
			}
			if reason, ok := w.opts.SkipDirs[name]; ok {
				w.out = append(w.out, Entry{Path: p + "/", Skip: reason})
				continue
			}
			if strings.HasPrefix(name, ".") && !w.opts.Hidden {
				w.out = append(w.out, Entry{Path: p + "/", Skip: SkipHidden})
				continue
			}
			if err := w.dir(ctx, p, child); err != nil {
				return err
			}
			continue
		}
		l := lang.ForPath(name)
		if l == nil {
			continue
		}
		if w.ignored(child, false) {
			w.out = append(w.out, Entry{Path: p, Lang: l, Skip: SkipIgnored})
			continue
		}
		e := Entry{Path: p, Lang: l}
		switch {
		case !validUTF8Name(p):
			e.Skip = SkipBadName
		case !typ.IsRegular():
			e.Skip = SkipNotRegular
		default:
			info, err := de.Info()
			if err != nil {
				e.Skip, e.Err = SkipUnreadable, err
			} else {
				e.Size, e.MTime = info.Size(), info.ModTime().UnixNano()
				if e.Size > w.opts.MaxFileSize {
					e.Skip = SkipTooLarge
				}
			}
		}
		w.out = append(w.out, e)
	}
	return nil
}

func validUTF8Name(p string) bool {
	return strings.ToValidUTF8(p, "\uFFFD") == p && !strings.ContainsAny(p, "\n\r\x00")
}

// readPatterns reads an ignore file on disk; a missing or unreadable one
// has no patterns.
func readPatterns(file string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	return parsePatterns(data, domain)
}

// parsePatterns parses the lines of an ignore file.
func parsePatterns(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// classify decides, from a file's content, whether it is binary,
// generated, minified or not the language its name claims; it returns the
// skip reason or "". Generated code is skipped, not indexed and marked,
// unless generated is set: its symbols would crowd search and slices with
// code nobody edits.
func classify(p string, data []byte, generated bool) string {
	head := data
	if len(head) > 8000 {
		head = head[:8000]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return SkipBinary
	}
	if other := otherContent(p, head); other != "" {
		return SkipOtherContent(other, p)
	}
	if isMinified(p, data) {
		return SkipMinified
	}
	if !generated && isGenerated(p, data) {
		return SkipGenerated
	}
	return ""
}

// SkipOtherContent is the skip reason of a file whose content is another
// language than its name says: "XML, not typescript" for a Qt Linguist
// translation file named .ts.
func SkipOtherContent(other, p string) string {
	name := "its extension's language"
	if l := lang.ForPath(p); l != nil {
		name = l.Name
	}
	return other + ", not " + name
}

// otherContent names the language of head when it is plainly not the one
// the file's name claims, as GitHub's linguist tells them apart
// (heuristics.yml): XML (a Qt Linguist .ts file: "<?xml", "<!DOCTYPE TS",
// "<TS"), or Objective-C in a .h header ("@interface", "#import").
func otherContent(p string, head []byte) string {
	l := lang.ForPath(p)
	if l == nil {
		return ""
	}
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n")
	if l.Name != "php" && (bytes.HasPrefix(h, []byte("<?xml")) || bytes.HasPrefix(h, []byte("<!DOCTYPE TS")) ||
		bytes.HasPrefix(h, []byte("<TS>")) || bytes.HasPrefix(h, []byte("<TS "))) {
		return "XML"
	}
	if strings.ToLower(path.Ext(p)) == ".h" && objcHeader(head) {
		return "Objective-C"
	}
	return ""
}

// objcHeader reports a line that only Objective-C has: an @interface,
// @protocol, @property ... or an #import of a header. Lines inside block
// comments do not count (Doxygen writes "@class" too).
func objcHeader(head []byte) bool {
	inBlock := false
	for _, line := range bytes.Split(head, []byte("\n")) {
		l := bytes.TrimLeft(line, " \t")
		if inBlock || bytes.HasPrefix(l, []byte("/*")) {
			inBlock = !bytes.Contains(l, []byte("*/"))
			continue
		}
		if len(l) > 1 && l[0] == '@' {
			for _, kw := range []string{"interface", "class", "protocol", "property", "end", "synchronised", "selector", "implementation"} {
				if bytes.HasPrefix(l[1:], []byte(kw)) && (len(l) == len(kw)+1 || !isWordByte(l[len(kw)+1])) {
					return true
				}
			}
		}
		if bytes.HasPrefix(l, []byte("#import")) {
			if rest := bytes.TrimRight(l, " \t\r"); bytes.HasSuffix(rest, []byte(".h>")) || bytes.HasSuffix(rest, []byte(`.h"`)) {
				return true
			}
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// minifiedSuffixes name bundles and minified scripts.
var minifiedSuffixes = []string{".min.js", ".min.mjs", ".min.cjs", ".bundle.js"}

// isMinified recognises minified JavaScript and TypeScript: by name, or by
// lines far longer than anyone writes (fewer than one line break per 1000
// bytes).
func isMinified(p string, data []byte) bool {
	base := path.Base(p)
	for _, s := range minifiedSuffixes {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	switch path.Ext(base) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts":
		return len(data) > 4096 && bytes.Count(data, []byte("\n")) < len(data)/1000
	}
	return false
}

var generatedSuffixes = []string{
	".pb.go", "_pb2.py", "_pb2_grpc.py", ".pb.ts", ".pb.js", "_grpc.pb.go", ".generated.ts", ".generated.js",
	".gen.go", "_generated.go", "_string.go",
}

// isGenerated recognises generated files by name and by the markers code
// generators write at the top ("Code generated ... DO NOT EDIT", @generated).
func isGenerated(p string, data []byte) bool {
	base := path.Base(p)
	for _, s := range generatedSuffixes {
		if strings.HasSuffix(base, s) {
			// x_string.go is only generated when stringer says so
			if s == "_string.go" {
				break
			}
			return true
		}
	}
	head := data
	if len(head) > 2048 {
		head = head[:2048]
	}
	// only the comment lines at the very top count
	lines := bytes.SplitN(head, []byte("\n"), 12)
	for _, l := range lines {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		if !isCommentLine(l) {
			break
		}
		if bytes.Contains(l, []byte("DO NOT EDIT")) || bytes.Contains(l, []byte("@generated")) ||
			bytes.Contains(l, []byte("<auto-generated")) || bytes.Contains(l, []byte("Autogenerated by")) {
			return true
		}
	}
	return false
}

// isCommentLine reports whether a trimmed line is a comment in any of the
// indexed languages.
func isCommentLine(l []byte) bool {
	for _, p := range []string{"//", "#", "/*", "*", "--", "<!--", `"""`, "'''"} {
		if bytes.HasPrefix(l, []byte(p)) {
			return true
		}
	}
	return false
}

// ErrPath means a path given to index is not a clean path inside the
// repository.
var ErrPath = errors.New("bad repository path")

// cleanRel checks a repository-relative path and returns it with '/'.
func cleanRel(p string) (string, error) {
	q := filepath.ToSlash(p)
	if q == "" || path.IsAbs(q) || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("%w %q: give a path relative to the repository root", ErrPath, p)
	}
	for _, part := range strings.Split(q, "/") {
		if part == ".." {
			return "", fmt.Errorf("%w %q: \"..\" is not allowed", ErrPath, p)
		}
	}
	q = path.Clean(q)
	if q == "." {
		return "", fmt.Errorf("%w %q: name a file", ErrPath, p)
	}
	return q, nil
}

// WalkPaths classifies the given files as Walk would find them: an entry
// for each that exists and has a known language, indexed or skipped with a
// reason. A file Walk would not list (ignored, in a skipped or hidden
// directory, gone) has no entry.
func WalkPaths(root string, paths []string, opts WalkOptions) ([]Entry, error) {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.SkipDirs == nil {
		opts.SkipDirs = DefaultSkipDirs
	}
	exclude := readPatterns(filepath.Join(root, ".git", "info", "exclude"), nil)
	patterns := map[string][]gitignore.Pattern{} // directory -> its ignore files' patterns
	dirPatterns := func(dir string, parts []string) []gitignore.Pattern {
		ps, ok := patterns[dir]
		if !ok {
			for _, name := range ignoreFiles {
				ps = append(ps, readPatterns(filepath.Join(root, filepath.FromSlash(dir), name), parts)...)
			}
			patterns[dir] = ps
		}
		return ps
	}
	seen := map[string]bool{}
	var out []Entry
next:
	for _, raw := range paths {
		p, err := cleanRel(raw)
		if err != nil {
			return nil, err
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		l := lang.ForPath(path.Base(p))
		if l == nil {
			continue
		}
		parts := strings.Split(p, "/")
		w := &walker{ignore: append([]gitignore.Pattern{}, exclude...)}
		w.ignore = append(w.ignore, dirPatterns(".", nil)...)
		for i, name := range parts[:len(parts)-1] {
			if name == ".git" || name == ".hg" || name == ".svn" || name == ".sdl" || name == ".sdl-memory" ||
				w.ignored(parts[:i+1], true) || opts.SkipDirs[name] != "" || strings.HasPrefix(name, ".") && !opts.Hidden {
				continue next
			}
			w.ignore = append(w.ignore, dirPatterns(strings.Join(parts[:i+1], "/"), parts[:i+1])...)
		}
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if w.ignored(parts, false) {
			out = append(out, Entry{Path: p, Lang: l, Skip: SkipIgnored}) // as Walk records it
			continue
		}
		e := Entry{Path: p, Lang: l}
		switch {
		case err != nil:
			e.Skip, e.Err = SkipUnreadable, err
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Skip = SkipSymlink
		case fi.IsDir():
			continue
		case !validUTF8Name(p):
			e.Skip = SkipBadName
		case !fi.Mode().IsRegular():
			e.Skip = SkipNotRegular
		default:
			e.Size, e.MTime = fi.Size(), fi.ModTime().UnixNano()
			if e.Size > opts.MaxFileSize {
				e.Skip = SkipTooLarge
			}
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
