package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// result is what one repository gave one sdl binary.
type result struct {
	Repo   string `json:"repo"`
	Lang   string `json:"lang"`
	Commit string `json:"commit"`
	// Status: ok, crash (exit code or signal), hang (killed at the timeout).
	Status   string  `json:"status"`
	ExitCode int     `json:"exitCode"`
	Reason   string  `json:"reason,omitempty"` // the first line of a crash
	Wall     float64 `json:"wall"`
	RSSMB    float64 `json:"rssMB"`

	Files       int            `json:"files"`   // indexed: ok or parse_error
	Skipped     map[string]int `json:"skipped"` // by reason, files and directories
	Symbols     int            `json:"symbols"`
	Edges       int            `json:"edges"`
	ParseErrors int            `json:"parseErrors"` // files sdl indexed with parse errors
	// Candidates are the files of the checkout whose name a language of
	// sdl claims; Unaccounted the ones the index neither holds nor skips
	// (directly or under a skipped directory).
	Candidates      int            `json:"candidates"`
	Unaccounted     int            `json:"unaccounted"`
	UnaccountedSome []string       `json:"unaccountedSome,omitempty"`
	Faults          map[string]int `json:"faults"` // by stage, from the index (files.faults, sdl info --json)
	FaultsKnown     bool           `json:"faultsKnown"`

	// Ref is tree-sitter's own parse of the files sdl indexed, each with the
	// right grammar for it.
	RefParse   float64               `json:"refParse"` // seconds, GOMAXPROCS workers, files in memory
	RefErrors  int                   `json:"refErrors"`
	NotSource  int                   `json:"notSource"` // indexed files whose content is not their extension's language
	PerLang    map[string]*langCount `json:"perLang"`
	Stages     []stage               `json:"stages"`
	WorstStage string                `json:"worstStage"`
	WorstRatio float64               `json:"worstRatio"`
	Lines      int                   `json:"lines"`
	// MissingBlobs counts the files of the commit the mirror lacks (the
	// fetch tool leaves out files of 4 MiB and more); they are not in the
	// checkout.
	MissingBlobs int `json:"missingBlobs"`
	// Load is the machine's 1-minute load average when sdl started: on a
	// shared machine, what the times were measured under.
	Load float64 `json:"load,omitempty"`
}

// langCount is the parse-error tally of one reference language.
type langCount struct {
	Files     int `json:"files"`
	SDLErrors int `json:"sdlErrors"`
	RefErrors int `json:"refErrors"`
}

type stage struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

// sdlEnv is the environment of `sdl index`: the user's, with Go's module
// proxy off, so that precise mode never downloads modules on this shared
// machine and a sweep gives the same answer offline.
func sdlEnv() []string {
	env := os.Environ()
	return append(env, "GOPROXY=off", "GOFLAGS=-mod=mod")
}

func measure(ctx context.Context, r repo, git, work, id, sdl string, timeout time.Duration) (*result, error) {
	dir, missingBlobs, err := checkout(git, work, r)
	if err != nil {
		return nil, err
	}
	dbDir := filepath.Join(work, "db", id)
	if err := os.MkdirAll(dbDir, 0o755); err != nil {
		return nil, err
	}
	db := filepath.Join(dbDir, r.dir()+".db")
	for _, suf := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suf) // a first index, every time
	}
	res := &result{Repo: r.Name, Lang: r.Lang, Commit: r.Commit, MissingBlobs: missingBlobs, Skipped: map[string]int{}, Faults: map[string]int{}, PerLang: map[string]*langCount{}}
	res.Load = loadAverage()
	start := time.Now()
	stdout, stderr, code, rss, hung, err := runSDL(ctx, timeout, sdlEnv(),
		sdl, "index", "--trace", "--json", "--db", db, dir)
	if err != nil {
		return nil, err
	}
	res.Wall = time.Since(start).Seconds()
	if err := os.WriteFile(filepath.Join(dbDir, r.dir()+".stderr"), stderr, 0o644); err != nil {
		return nil, err
	}
	res.RSSMB = float64(rss) / 1024
	res.ExitCode = code
	switch {
	case hung:
		res.Status, res.Reason = "hang", fmt.Sprintf("killed after %s", timeout)
	case code != 0:
		res.Status, res.Reason = "crash", crashLine(stderr, code)
	default:
		res.Status = "ok"
	}
	res.Stages = parseTrace(stderr)
	var out struct {
		Files       int `json:"files"`
		Symbols     int `json:"symbols"`
		Edges       int `json:"edges"`
		ParseErrors int `json:"parseErrors"`
	}
	if res.Status == "ok" {
		if err := json.Unmarshal(stdout, &out); err != nil {
			res.Status, res.Reason = "crash", "sdl index --json printed no JSON: "+firstLine(stdout)
		}
		res.Symbols, res.Edges = out.Symbols, out.Edges
	}
	var rows []fileRow
	if res.Status == "ok" {
		rows, err = readFiles(db)
		if err != nil {
			return nil, err
		}
		readInfoFaults(sdl, db, res)
	}
	indexed := map[string]string{} // path -> "ok" | "parse_error"
	skipDirs := map[string]bool{}
	for _, f := range rows {
		switch f.status {
		case "ok", "parse_error":
			indexed[f.path] = f.status
			res.Files++
			if f.status == "parse_error" {
				res.ParseErrors++
			}
		default:
			res.Skipped[f.status+": "+f.reason]++
			if strings.HasSuffix(f.path, "/") {
				skipDirs[strings.TrimSuffix(f.path, "/")] = true
			}
		}
		for _, flt := range f.faults {
			res.Faults[flt]++
		}
	}
	if len(rows) > 0 && !res.FaultsKnown {
		res.FaultsKnown = rows[0].faultsColumn
	}
	known := map[string]bool{}
	for _, f := range rows {
		known[f.path] = true
	}
	cands, err := candidates(dir)
	if err != nil {
		return nil, err
	}
	res.Candidates = len(cands)
	if res.Status == "ok" {
		for _, c := range cands {
			if known[c] || underSkipped(c, skipDirs) {
				continue
			}
			res.Unaccounted++
			if len(res.UnaccountedSome) < maxListed {
				res.UnaccountedSome = append(res.UnaccountedSome, c)
			}
		}
	}
	// The reference parse: the files sdl indexed, or, when it did not
	// finish, the files its walk would index, so that a crash or a hang
	// still has a parse time to set its stages against.
	var paths []string
	if res.Status == "ok" {
		for p := range indexed {
			paths = append(paths, p)
		}
	} else {
		entries, err := index.Walk(context.Background(), dir, index.WalkOptions{})
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Skip == "" && e.Lang != nil {
				paths = append(paths, e.Path)
			}
		}
	}
	sort.Strings(paths)
	if err := refParse(dir, paths, indexed, res); err != nil {
		return nil, err
	}
	res.WorstStage, res.WorstRatio = worstStage(res.Stages, res.RefParse)
	return res, nil
}

// loadAverage reads the 1-minute load average (0 where /proc has none).
func loadAverage() float64 {
	var l float64
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Sscan(string(b), &l)
	}
	return l
}

// maxListed is how many unaccounted files a result names.
const maxListed = 5

var traceLine = regexp.MustCompile(`^([a-z][a-z ]*?)\s+([0-9]+\.[0-9]+)s(?:$|\s)`)

// parseTrace reads the stage lines of `sdl index --trace` ("resolve
// 1.23s"); indented lines are details of a stage.
func parseTrace(stderr []byte) []stage {
	var out []stage
	for _, line := range strings.Split(string(stderr), "\n") {
		m := traceLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s, _ := strconv.ParseFloat(m[2], 64)
		out = append(out, stage{Name: m[1], Seconds: s})
	}
	return out
}

// minFlagSeconds is the stage time below which a ratio to the parse is
// noise (a fixed cost on a small repository), not a finding.
const minFlagSeconds = 0.5

// stageLimit is the goal: no stage above 1.5x the parse.
const stageLimit = 1.5

func worstStage(stages []stage, parse float64) (string, float64) {
	name, worst := "", 0.0
	for _, s := range stages {
		if s.Seconds < minFlagSeconds || parse <= 0 {
			continue
		}
		if r := s.Seconds / parse; r > worst {
			name, worst = s.Name, r
		}
	}
	return name, worst
}

var (
	crashStart = regexp.MustCompile(`^(panic: |fatal error: |sdl: |error: |Error: )`)
	sdlFrame   = regexp.MustCompile(`^github\.com/sdl-dev/sdl/([^(]*\.(?:\(\*?[A-Za-z0-9_]+\)\.)?[A-Za-z0-9_]+)`)
)

// crashLine names a crash by the first line of Go's panic report and the
// innermost sdl function of its stack, or the last line sdl printed.
func crashLine(stderr []byte, code int) string {
	lines := strings.Split(strings.TrimSpace(string(stderr)), "\n")
	for i, l := range lines {
		if crashStart.MatchString(l) && !traceLine.MatchString(l) {
			msg := fmt.Sprintf("exit %d: %s", code, trim(l, 120))
			for _, f := range lines[i+1:] {
				if m := sdlFrame.FindStringSubmatch(f); m != nil {
					return msg + " in " + m[1]
				}
			}
			return msg
		}
	}
	if code == -1 {
		return "killed by a signal"
	}
	return fmt.Sprintf("exit %d: %s", code, trim(lines[len(lines)-1], 160))
}

func trim(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return trim(s, 120)
}

type fileRow struct {
	path, language, status, reason string
	faults                         []string // stages
	faultsColumn                   bool
}

// readFiles reads the current version's files from the index. The faults
// column (per-file failures by stage) is read where the schema has it.
func readFiles(dbPath string) ([]fileRow, error) {
	// Not schema.OpenReadOnly: it refuses an index of another schema
	// version, and the binary measured may be newer or older than this
	// harness. The files table's columns read here are in every version.
	db, err := sql.Open("sqlite", schema.DSN(dbPath, true))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	hasFaults := false
	cols, err := db.Query(`SELECT name FROM pragma_table_info('files')`)
	if err != nil {
		return nil, err
	}
	for cols.Next() {
		var n string
		cols.Scan(&n)
		hasFaults = hasFaults || n == "faults"
	}
	cols.Close()
	q := `SELECT p.path, f.language, f.status, f.reason, ` + ternary(hasFaults, "f.faults", "''") +
		` FROM files f JOIN paths p ON p.id = f.path_id WHERE f.to_seq IS NULL ORDER BY p.path`
	rs, err := db.Query(q)
	if err != nil {
		return nil, fmt.Errorf("read files: %w", err)
	}
	defer rs.Close()
	var out []fileRow
	for rs.Next() {
		var f fileRow
		var faults sql.NullString
		if err := rs.Scan(&f.path, &f.language, &f.status, &f.reason, &faults); err != nil {
			return nil, err
		}
		f.faultsColumn = hasFaults
		if faults.String != "" {
			var fs []struct {
				Stage string `json:"stage"`
			}
			if json.Unmarshal([]byte(faults.String), &fs) == nil {
				for _, x := range fs {
					f.faults = append(f.faults, x.Stage)
				}
			} else {
				f.faults = append(f.faults, "unknown")
			}
		}
		out = append(out, f)
	}
	return out, rs.Err()
}

func ternary(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// readInfoFaults takes the faults by stage from `sdl info --json` when the
// index file had no faults column: any list of objects with a "stage" is
// counted by it, so the report follows whatever shape sdl gives them.
func readInfoFaults(sdl, db string, res *result) {
	outp, err := runQuiet(sdl, "info", "--json", "--db", db)
	if err != nil {
		return
	}
	var v any
	if json.Unmarshal(outp, &v) != nil {
		return
	}
	counts := map[string]int{}
	found := false
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			for _, y := range t {
				walk(y)
			}
		case []any:
			for _, y := range t {
				if m, ok := y.(map[string]any); ok {
					if s, ok := m["stage"].(string); ok {
						found = true
						n := 1
						if c, ok := m["count"].(float64); ok && c > 0 {
							n = int(c)
						}
						counts[s] += n
						continue
					}
				}
				walk(y)
			}
		}
	}
	walk(v)
	if found {
		res.FaultsKnown = true
		for s, n := range counts {
			if n > res.Faults[s] {
				res.Faults[s] = n
			}
		}
	}
}

func runQuiet(name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return exec.CommandContext(ctx, name, args...).Output()
}

// candidates lists the regular files of the checkout that a language of
// sdl claims by name, outside .git.
func candidates(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if lang.ForPath(rel) != nil {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

func underSkipped(p string, dirs map[string]bool) bool {
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if dirs[d] {
			return true
		}
	}
	return false
}

// refLanguage is the right grammar for a file, decided apart from sdl: its
// extension's language, except that a .h header is C++ in a repository
// with more C++ sources than C sources (GitHub's linguist reads headers
// the same way), and a file whose content is XML (a Qt Linguist .ts) is no
// source at all (nil).
func refLanguage(p string, src []byte, cppRepo bool) *lang.Language {
	if bytes.HasPrefix(bytes.TrimLeft(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")), " \t\r\n"), []byte("<?xml")) {
		return nil
	}
	l := lang.ForPath(p)
	if l != nil && l.Name == "c" && strings.EqualFold(path.Ext(p), ".h") && cppRepo {
		return lang.ByName("cpp")
	}
	return l
}

type refFile struct {
	lang *lang.Language
	src  []byte
	path string
	err  bool
}

// refParse parses the files with tree-sitter itself (the grammars sdl
// links, driven through tree-sitter's own API, not sdl's parser), times the
// parse alone with as many workers as sdl uses, and counts the files whose
// root has an error.
func refParse(dir string, paths []string, indexed map[string]string, res *result) error {
	var cpp, c int
	for _, p := range paths {
		if l := lang.ForPath(p); l != nil {
			switch {
			case l.Name == "cpp":
				cpp++
			case l.Name == "c" && strings.EqualFold(path.Ext(p), ".c"):
				c++
			}
		}
	}
	var files []refFile
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			continue
		}
		res.Lines += bytes.Count(src, []byte("\n"))
		l := refLanguage(p, src, cpp > c)
		if l == nil {
			res.NotSource++
			continue
		}
		files = append(files, refFile{lang: l, src: src, path: p})
	}
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parsers := map[*lang.Language]*sitter.Parser{}
			defer func() {
				for _, p := range parsers {
					p.Close()
				}
			}()
			for i := range jobs {
				f := &files[i]
				p := parsers[f.lang]
				if p == nil {
					p = sitter.NewParser()
					p.SetLanguage(sitter.NewLanguage(f.lang.Grammar()))
					parsers[f.lang] = p
				}
				t := p.Parse(f.src, nil)
				if t == nil {
					f.err = true
					continue
				}
				f.err = t.RootNode().HasError()
				t.Close()
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	res.RefParse = time.Since(start).Seconds()
	for _, f := range files {
		lc := res.PerLang[f.lang.Name]
		if lc == nil {
			lc = &langCount{}
			res.PerLang[f.lang.Name] = lc
		}
		lc.Files++
		if f.err {
			lc.RefErrors++
			res.RefErrors++
		}
		if indexed[f.path] == "parse_error" {
			lc.SDLErrors++
		}
	}
	return nil
}
