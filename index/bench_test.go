package index

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/lang"
)

// The benchmarks of `make bench`: sdl index against references measured in
// the same run on the same files with the same number of workers:
//
//	raw:      tree-sitter parse of every file sdl parses (go-tree-sitter)
//	raw+tags: the same plus running the grammar's own tags.scm query and
//	          reading every capture (DESIGN.md's reference)
//	ctags:    `ctags -R --languages=...` over the same tree, for the
//	          languages of its files that ctags knows (when ctags is there)
//
// sdl runs in a child process so that its peak RSS is its own. Each figure
// is given as wall time and as CPU time (user+system): on a shared machine
// the CPU ratios hold when the wall ratios do not. SDL_BENCH_NOVEC=1 skips
// the run with vectors.

// BenchmarkIndexGoroot indexes $(go env GOROOT)/src.
func BenchmarkIndexGoroot(b *testing.B) {
	benchIndex(b, filepath.Join(runtime.GOROOT(), "src"), "net/http/client.go")
}

// BenchmarkIndexPythonStdlib indexes the Python standard library.
func BenchmarkIndexPythonStdlib(b *testing.B) {
	out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		b.Skip("no python3")
	}
	benchIndex(b, strings.TrimSpace(string(out)), "json/decoder.py")
}

// BenchmarkIndexDir indexes $SDL_BENCH_DIR, a checkout of any repository,
// for per-language figures (make bench does not run it):
//
//	SDL_BENCH_DIR=/tmp/okio go test ./index -run '^$' -bench IndexDir -benchtime 1x
func BenchmarkIndexDir(b *testing.B) {
	dir := os.Getenv("SDL_BENCH_DIR")
	if dir == "" {
		b.Skip("SDL_BENCH_DIR is not set")
	}
	benchIndex(b, dir, os.Getenv("SDL_BENCH_TOUCH"))
}

// BenchmarkIndexCorpus indexes the tree named by SDL_CORPUS in place (the
// scale test of issue 10: about ten million lines assembled from real code;
// see `make soak`), touching SDL_CORPUS_TOUCH (a repository path) for the
// incremental run.
func BenchmarkIndexCorpus(b *testing.B) {
	root := os.Getenv("SDL_CORPUS")
	if root == "" {
		b.Skip("set SDL_CORPUS to a directory to index")
	}
	benchIndexAt(b, root, os.Getenv("SDL_CORPUS_TOUCH"), os.Getenv("SDL_CORPUS_DB"))
}

// BenchmarkIncrementalGoroot measures the incremental path on
// $(go env GOROOT)/src against a full index of the same tree in the same
// run (issue 20): an edit of one file (touch1), a rename of an exported
// function used across the tree with every call of it (rename), and a
// branch switch that changes every tenth Go file, about 500 (switch500).
// Each change is an overlay, so the tree is only read; after each, a run
// without it brings the index back to the tree (not reported).
func BenchmarkIncrementalGoroot(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(root, "strings", "strings.go")); err != nil {
		b.Skip(err)
	}
	entries, err := Walk(context.Background(), root, WalkOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var goFiles []string
	for _, e := range entries {
		if e.Skip == "" && e.Lang != nil && e.Lang.Name == "go" {
			goFiles = append(goFiles, e.Path)
		}
	}
	db := filepath.Join(b.TempDir(), "index.db")
	full, _, _ := timeChild(b, root, db, "", "")
	b.ReportMetric(full.Seconds(), "full-s")
	summary := fmt.Sprintf("%d Go files: full index %.2fs", len(goFiles), full.Seconds())
	cases := []struct {
		name  string
		files map[string][]byte
	}{
		{"touch1", benchEdit(b, root, []string{"net/http/server.go"}, func(_ string, src []byte) []byte {
			return append(src, "\n// touched by the benchmark\n"...)
		})},
		// strings.TrimSpace, called from some 200 files, becomes TrimBlank
		{"rename", benchEdit(b, root, goFiles, func(p string, src []byte) []byte {
			if path.Dir(p) == "strings" {
				src = benchUnqualified.ReplaceAll(src, []byte("${1}TrimBlank("))
			}
			return bytes.ReplaceAll(src, []byte("strings.TrimSpace("), []byte("strings.TrimBlank("))
		})},
		// a new function at the top of each file: every symbol below moves
		{"switch500", benchEdit(b, root, everyNth(goFiles, 10), func(p string, src []byte) []byte {
			i := bytes.Index(src, []byte("\npackage "))
			if bytes.HasPrefix(src, []byte("package ")) {
				i = 0
			}
			if i < 0 {
				return nil
			}
			end := i + 1 + bytes.IndexByte(src[i+1:], '\n')
			return append(append(src[:end+1:end+1], "\n// Switched is on the other branch.\nfunc Switched() {}\n"...), src[end+1:]...)
		})},
	}
	for _, c := range cases {
		dir := b.TempDir()
		for p, data := range c.files {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		d, _, _ := timeChild(b, root, db, "", "", "SDL_TEST_INDEX_OVERLAY="+dir)
		timeChild(b, root, db, "", "") // back to the tree
		b.ReportMetric(d.Seconds(), c.name+"-s")
		b.ReportMetric(d.Seconds()/full.Seconds(), c.name+"-x-full")
		summary += fmt.Sprintf(", %s (%d files) %.2fs (%.3fx)", c.name, len(c.files), d.Seconds(), d.Seconds()/full.Seconds())
	}
	b.Log(summary)
}

// benchUnqualified matches a call of TrimSpace inside package strings.
var benchUnqualified = regexp.MustCompile(`(^|[^A-Za-z0-9_.])TrimSpace\(`)

// benchEdit applies edit to the files paths of root and returns those it
// changed.
func benchEdit(b *testing.B, root string, paths []string, edit func(p string, src []byte) []byte) map[string][]byte {
	out := map[string][]byte{}
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			b.Fatal(err)
		}
		if changed := edit(p, bytes.Clone(src)); changed != nil && !bytes.Equal(changed, src) {
			out[p] = changed
		}
	}
	if len(out) == 0 {
		b.Fatalf("the edit changed none of %d files", len(paths))
	}
	return out
}

func everyNth(s []string, n int) []string {
	var out []string
	for i := 0; i < len(s); i += n {
		out = append(out, s[i])
	}
	return out
}

type benchFile struct {
	lang *lang.Language
	src  []byte
}

// benchIndex measures the tree in place (sdl only reads it; the touch is
// an unsaved buffer), so that GOROOT/src is the standard library that Go
// precise mode can type-check.
func benchIndex(b *testing.B, src, touch string) {
	if _, err := os.Stat(src); err != nil {
		b.Skip(err)
	}
	benchIndexAt(b, src, touch, "")
}

// benchIndexAt measures at root; db "" is a temporary file.
func benchIndexAt(b *testing.B, root, touch, db string) {
	ctx := context.Background()
	entries, err := Walk(ctx, root, WalkOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var files []benchFile
	var lines, bytes int
	for _, e := range entries {
		if e.Skip != "" {
			continue
		}
		if touch == "" {
			touch = e.Path
		}
		data, err := os.ReadFile(filepath.Join(root, e.Path))
		if err != nil || classify(e.Path, data, false) != "" {
			continue
		}
		if touch == "" {
			touch = e.Path // the first indexed file
		}
		files = append(files, benchFile{e.Lang, data})
		lines += countLines(data)
		bytes += len(data)
	}
	if len(files) == 0 {
		b.Skip("no files of an indexed language")
	}
	workers := runtime.GOMAXPROCS(0)
	cpu0 := selfCPU()
	raw := timeParse(b, files, workers, false)
	cpu1 := selfCPU()
	rawTags := timeParse(b, files, workers, true)
	rawCPU, rawTagsCPU := cpu1-cpu0, selfCPU()-cpu1
	ctags, ctagsCPU := timeCtags(b, root, files)

	// sdl index as a user runs it (no vectors), then, for the standard
	// trees, with the built-in model's vectors; a corpus (make soak) with
	// the defaults only
	vec := ""
	if db == "" {
		db = filepath.Join(b.TempDir(), "index.db")
		vec = filepath.Join(b.TempDir(), "vec.db")
	}
	os.Remove(db)
	full, rss, fullCPU := timeChild(b, root, db, "", "")
	fi, _ := os.Stat(db)
	size := fi.Size()
	incr, _, _ := timeChild(b, root, db, "", touch)

	b.ReportMetric(float64(len(files)), "files")
	b.ReportMetric(float64(lines), "lines")
	b.ReportMetric(raw.Seconds(), "raw-s")
	b.ReportMetric(rawTags.Seconds(), "raw+tags-s")
	b.ReportMetric(full.Seconds(), "sdl-s")
	b.ReportMetric(full.Seconds()/raw.Seconds(), "x-raw")
	b.ReportMetric(full.Seconds()/rawTags.Seconds(), "x-raw+tags")
	b.ReportMetric(fullCPU.Seconds(), "sdl-cpu-s")
	b.ReportMetric(fullCPU.Seconds()/rawCPU.Seconds(), "x-raw-cpu")
	b.ReportMetric(fullCPU.Seconds()/rawTagsCPU.Seconds(), "x-raw+tags-cpu")
	ctagsText := ""
	if ctags > 0 {
		b.ReportMetric(ctags.Seconds(), "ctags-s")
		b.ReportMetric(full.Seconds()/ctags.Seconds(), "x-ctags")
		b.ReportMetric(fullCPU.Seconds()/ctagsCPU.Seconds(), "x-ctags-cpu")
		ctagsText = fmt.Sprintf(", ctags %.2fs (%.2fx; CPU %.2fs, %.2fx)", ctags.Seconds(), full.Seconds()/ctags.Seconds(),
			ctagsCPU.Seconds(), fullCPU.Seconds()/ctagsCPU.Seconds())
	}
	b.ReportMetric(float64(len(files))/full.Seconds(), "files/s")
	b.ReportMetric(float64(lines)/full.Seconds(), "lines/s")
	b.ReportMetric(float64(rss)/1024, "peak-RSS-MB")
	b.ReportMetric(float64(size)/(1<<20), "index-MB")
	b.ReportMetric(incr.Seconds(), "touch1-s")
	preciseText := ""
	if vec != "" {
		// the standard trees again with Go's type checker (--precise on),
		// into a file of its own
		precise, _, _ := timeChild(b, root, filepath.Join(b.TempDir(), "precise.db"), "", "", "SDL_TEST_INDEX_PRECISE=on")
		b.ReportMetric(precise.Seconds(), "sdl-precise-s")
		preciseText = fmt.Sprintf("; with --precise on %.2fs (%.2fx raw)", precise.Seconds(), precise.Seconds()/raw.Seconds())
	}
	vecText := ""
	if vec != "" && os.Getenv("SDL_BENCH_NOVEC") == "" {
		fullVec, rssVec, _ := timeChild(b, root, vec, embed.ProviderBuiltin, "")
		fi, _ := os.Stat(vec)
		b.ReportMetric(fullVec.Seconds(), "sdl-vec-s")
		b.ReportMetric(float64(fi.Size())/(1<<20), "index-vec-MB")
		b.ReportMetric(fullVec.Seconds()/full.Seconds(), "x-vec")
		vecText = fmt.Sprintf("; with the built-in model's vectors %.2fs (%.2fx), peak RSS %d MB, %.0f MB",
			fullVec.Seconds(), fullVec.Seconds()/full.Seconds(), rssVec/1024, float64(fi.Size())/(1<<20))
	}
	b.Logf("%d files, %d lines, %.0f MB, %d workers: raw %.2fs, raw+tags %.2fs, sdl index %.2fs (%.2fx raw, %.2fx raw+tags%s); "+
		"CPU: raw %.2fs, raw+tags %.2fs, sdl index %.2fs (%.2fx raw, %.2fx raw+tags); "+
		"peak RSS %d MB, index %.0f MB, re-index after an edit of one file %.2fs%s",
		len(files), lines, float64(bytes)/(1<<20), workers, raw.Seconds(), rawTags.Seconds(), full.Seconds(),
		full.Seconds()/raw.Seconds(), full.Seconds()/rawTags.Seconds(), ctagsText,
		rawCPU.Seconds(), rawTagsCPU.Seconds(), fullCPU.Seconds(), fullCPU.Seconds()/rawCPU.Seconds(), fullCPU.Seconds()/rawTagsCPU.Seconds(),
		rss/1024, float64(size)/(1<<20), incr.Seconds(), preciseText+vecText)
}

// timeParse parses every file with go-tree-sitter on workers goroutines,
// and with tags also runs the language's tags.scm and reads its captures.
func timeParse(b *testing.B, files []benchFile, workers int, tags bool) time.Duration {
	queries := map[*lang.Language]string{}
	if tags {
		for _, f := range files {
			if _, ok := queries[f.lang]; !ok {
				queries[f.lang] = tagsQuery(b, f.lang.Name)
			}
		}
	}
	start := time.Now()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parsers := map[*lang.Language]*sitter.Parser{}
			qs := map[*lang.Language]*sitter.Query{}
			defer func() {
				for _, p := range parsers {
					p.Close()
				}
				for _, q := range qs {
					q.Close()
				}
			}()
			qc := sitter.NewQueryCursor()
			defer qc.Close()
			for i := range jobs {
				f := files[i]
				p := parsers[f.lang]
				tl := sitter.NewLanguage(f.lang.Grammar())
				if p == nil {
					p = sitter.NewParser()
					p.SetLanguage(tl)
					parsers[f.lang] = p
				}
				tree := p.Parse(f.src, nil)
				if tags && queries[f.lang] != "" {
					q := qs[f.lang]
					if q == nil {
						var qerr *sitter.QueryError
						q, qerr = sitter.NewQuery(tl, queries[f.lang])
						if qerr != nil {
							b.Errorf("tags query for %s: %v", f.lang.Name, qerr)
							return
						}
						qs[f.lang] = q
					}
					ms := qc.Matches(q, tree.RootNode(), f.src)
					for m := ms.Next(); m != nil; m = ms.Next() {
						for _, c := range m.Captures {
							_ = c.Node.Utf8Text(f.src)
						}
					}
				}
				tree.Close()
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return time.Since(start)
}

// tagsQuery reads queries/tags.scm from the grammar module in the module
// cache.
func tagsQuery(b *testing.B, name string) string {
	mod := map[string]string{
		"go": "tree-sitter-go", "python": "tree-sitter-python", "javascript": "tree-sitter-javascript",
		"typescript": "tree-sitter-typescript", "tsx": "tree-sitter-typescript", "rust": "tree-sitter-rust",
		"java": "tree-sitter-java", "c": "tree-sitter-c", "cpp": "tree-sitter-cpp",
		"csharp": "tree-sitter-c-sharp", "ruby": "tree-sitter-ruby", "php": "tree-sitter-php",
		"swift": "alex-pinkus/tree-sitter-swift",
	}[name]
	if mod == "" {
		return ""
	}
	if !strings.Contains(mod, "/") {
		mod = "tree-sitter/" + mod
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/"+mod).Output()
	if err != nil {
		b.Logf("no tags query for %s: %v", name, err)
		return ""
	}
	dir := strings.TrimSpace(string(out))
	for _, p := range []string{filepath.Join(dir, "queries", "tags.scm"), filepath.Join(dir, "queries", name, "tags.scm")} {
		if data, err := os.ReadFile(p); err == nil {
			return string(data)
		}
	}
	return ""
}

// selfCPU is the CPU time (user+system) this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ctagsLanguages names sdl's languages as ctags does.
var ctagsLanguages = map[string]string{
	"go": "Go", "python": "Python", "javascript": "JavaScript", "typescript": "TypeScript", "tsx": "TypeScript",
	"rust": "Rust", "java": "Java", "c": "C", "cpp": "C++", "csharp": "C#", "ruby": "Ruby", "php": "PHP",
	"kotlin": "Kotlin", "bash": "Sh",
}

// timeCtags runs `ctags -R` over root for the languages of files and
// returns its wall and CPU time, or 0 when there is no ctags.
func timeCtags(b *testing.B, root string, files []benchFile) (time.Duration, time.Duration) {
	exe, err := exec.LookPath("ctags")
	if err != nil {
		return 0, 0
	}
	seen := map[string]bool{}
	var langs []string
	for _, f := range files {
		if l := ctagsLanguages[f.lang.Name]; l != "" && !seen[l] {
			seen[l] = true
			langs = append(langs, l)
		}
	}
	if len(langs) == 0 {
		return 0, 0
	}
	cmd := exec.Command(exe, "-R", "--languages="+strings.Join(langs, ","), "-f", filepath.Join(b.TempDir(), "tags"), root)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Logf("ctags: %v: %s", err, out)
		return 0, 0
	}
	return time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// timeChild runs a full or incremental index in a child process and
// returns its wall time, peak RSS in KB and CPU time. env adds to the
// child's environment (SDL_TEST_INDEX_OVERLAY).
func timeChild(b *testing.B, root, db, embedding, touch string, env ...string) (time.Duration, int64, time.Duration) {
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), "SDL_TEST_INDEX_ROOT="+root, "SDL_TEST_INDEX_DB="+db, "SDL_TEST_INDEX_EMBED="+embedding,
		"SDL_TEST_INDEX_TOUCH="+touch)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("sdl index: %v", err)
	}
	d := time.Since(start)
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	var rss int64
	if ru != nil {
		rss = ru.Maxrss
	}
	return d, rss, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// BenchmarkIndexLarge indexes each checkout of $SDL_BENCH_CHECKOUTS (a
// folder of checkouts, one a subfolder; `make large-checkouts` makes one
// of each dev2 repository) as the eval does, a fresh full index, and
// builds the eval's BM25 index of the same checkout with the shared
// runner's own code (run_eval.py's BM25 class, in one python3 process, as
// the runner builds it): the mean and max of both, wall and CPU, and the
// ratio of the means (issue 20's last row). $SDL_BENCH_EVAL names
// run_eval.py when it is not in ../shared/eval beside the repository.
func BenchmarkIndexLarge(b *testing.B) {
	dir := os.Getenv("SDL_BENCH_CHECKOUTS")
	if dir == "" {
		b.Skip("SDL_BENCH_CHECKOUTS is not set (a folder of checkouts: make large-checkouts)")
	}
	runner := os.Getenv("SDL_BENCH_EVAL")
	if runner == "" {
		runner = filepath.Join("..", "..", "shared", "eval", "run_eval.py")
	}
	if _, err := os.Stat(runner); err != nil {
		b.Skipf("no eval runner for the BM25 build (SDL_BENCH_EVAL): %v", err)
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var roots []string
	for _, de := range des {
		if de.IsDir() && !strings.HasSuffix(de.Name(), ".part") {
			roots = append(roots, filepath.Join(dir, de.Name()))
		}
	}
	if len(roots) == 0 {
		b.Skipf("no checkouts in %s", dir)
	}
	bm25 := timeBM25(b, runner, roots)
	var sdl, sdlCPU []float64
	// one line a checkout as it is measured: the benchmark's log keeps
	// only its first lines
	for i, root := range roots {
		db := filepath.Join(b.TempDir(), "index.db")
		d, rss, cpu := timeChild(b, root, db, "", "")
		os.Remove(db)
		sdl, sdlCPU = append(sdl, d.Seconds()), append(sdlCPU, cpu.Seconds())
		fmt.Printf("%-24s sdl %6.2fs (CPU %6.2fs, peak RSS %4d MB)  BM25 %6.2fs (CPU %6.2fs)  %5.2fx\n",
			filepath.Base(root), d.Seconds(), cpu.Seconds(), rss/1024, bm25[i][0], bm25[i][1], d.Seconds()/bm25[i][0])
	}
	col := func(xs [][2]float64, j int) []float64 {
		out := make([]float64, len(xs))
		for i := range xs {
			out[i] = xs[i][j]
		}
		return out
	}
	bmWall, bmCPU := col(bm25, 0), col(bm25, 1)
	b.ReportMetric(float64(len(roots)), "checkouts")
	b.ReportMetric(mean(sdl), "sdl-mean-s")
	b.ReportMetric(slices.Max(sdl), "sdl-max-s")
	b.ReportMetric(mean(sdlCPU), "sdl-cpu-mean-s")
	b.ReportMetric(mean(bmWall), "bm25-mean-s")
	b.ReportMetric(slices.Max(bmWall), "bm25-max-s")
	b.ReportMetric(mean(bmCPU), "bm25-cpu-mean-s")
	b.ReportMetric(mean(sdl)/mean(bmWall), "x-bm25")
	b.ReportMetric(mean(sdlCPU)/mean(bmCPU), "x-bm25-cpu")
	b.Logf("%d checkouts: sdl index mean %.2fs, max %.2fs (CPU mean %.2fs); BM25 build mean %.2fs, max %.2fs (CPU mean %.2fs); "+
		"%.2fx BM25 (mean), %.2fx its CPU", len(roots), mean(sdl), slices.Max(sdl), mean(sdlCPU),
		mean(bmWall), slices.Max(bmWall), mean(bmCPU), mean(sdl)/mean(bmWall), mean(sdlCPU)/mean(bmCPU))
}

// bm25Script builds run_eval.BM25 over each directory of argv and prints
// its wall and CPU seconds (the runner times the same constructor).
const bm25Script = `import os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
import run_eval
for d in sys.argv[2:]:
    t, c = time.monotonic(), time.process_time()
    run_eval.BM25(d)
    print(time.monotonic() - t, time.process_time() - c, flush=True)
`

// timeBM25 returns the wall and CPU seconds of the eval's BM25 build of
// each root.
func timeBM25(b *testing.B, runner string, roots []string) [][2]float64 {
	cmd := exec.Command("python3", append([]string{"-c", bm25Script, runner}, roots...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("BM25 build: %v", err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2*len(roots) {
		b.Fatalf("BM25 build: %d figures for %d checkouts: %q", len(lines), len(roots), out)
	}
	res := make([][2]float64, len(roots))
	for i := range roots {
		for j := 0; j < 2; j++ {
			v, err := strconv.ParseFloat(lines[2*i+j], 64)
			if err != nil {
				b.Fatalf("BM25 build: %v", err)
			}
			res[i][j] = v
		}
	}
	return res
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
