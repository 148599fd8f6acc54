package main

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The head of what sdl printed when the Rust resolver overflowed its
// stack on sharkdp/bat at 7dd7531 (issue 16), trace lines included.
const batCrash = `walk       0.04s
precise    1.50s
  writer busy 0.49s during parse
parse      3.84s
runtime: goroutine stack exceeds 1000000000-byte limit
runtime: sp=0x1ad7b9172380 stack=[0x1ad7b9172000, 0x1ad7d9172000]
fatal error: stack overflow

runtime stack:
runtime.throw({0x170e760?, 0x4435fa?})
	/usr/local/go/src/runtime/panic.go:1229 +0x48 fp=0x7f4964c5ed20 sp=0x7f4964c5ecf0 pc=0x48b5e8
runtime.newstack()

goroutine 5097 gp=0x1ad7798172c0 m=8 mp=0x1ad777cba808 [running]:
github.com/sdl-dev/sdl/lang.(*rsRes).first(0x1ad778e70120, {0x1ad777c2eb30, 0xc}, {0x1ad777f47241, 0x5}, 0x1, 0x0)
	/work/lang/rust_resolve.go:300 +0x1a5
github.com/sdl-dev/sdl/lang.(*rsRes).pathUncached(0x1ad778e70120, {0x1ad777c2eb30?, 0x0?}, {0x1ad7794523e0, 0x1, 0x1}, 0x1, 0x7f4946fddb08?)
`

func TestParseTrace(t *testing.T) {
	got := parseTrace([]byte(batCrash))
	want := []stage{{"walk", 0.04}, {"precise", 1.50}, {"parse", 3.84}}
	if len(got) != len(want) {
		t.Fatalf("stages %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("stage %d = %v, want %v", i, got[i], want[i])
		}
	}
	if name, r := worstStage(got, 2.0); name != "parse" || r != 3.84/2.0 {
		t.Errorf("worst stage %s %.2f, want parse 1.92", name, r)
	}
	if name, r := worstAfterParse(got); name != "precise" || r != 1.50/(0.04+3.84) {
		t.Errorf("worst stage after the parse %s %.2f, want precise 0.39", name, r)
	}
	// A stage line may carry a remark after its time.
	if got := parseTrace([]byte("resolve   52.10s (3 files with faults)\n")); len(got) != 1 || got[0] != (stage{"resolve", 52.10}) {
		t.Errorf("a stage with a remark: %v", got)
	}
	// Stages under minFlagSeconds are not judged.
	if name, _ := worstStage([]stage{{"walk", 0.3}}, 0.01); name != "" {
		t.Errorf("a 0.3 s stage was judged: %s", name)
	}
}

func TestCrashLine(t *testing.T) {
	got := crashLine([]byte(batCrash), 2)
	want := "exit 2: fatal error: stack overflow in lang.(*rsRes).first"
	if got != want {
		t.Errorf("crashLine = %q, want %q", got, want)
	}
	if got := crashLine([]byte("walk 0.01s\nsdl: open index: disk full\n"), 1); got != "exit 1: sdl: open index: disk full" {
		t.Errorf("crashLine = %q", got)
	}
}

func TestRefLanguage(t *testing.T) {
	for _, c := range []struct {
		path, src string
		cpp       bool
		want      string
	}{
		{"a.h", "int f(void);\n", false, "c"},
		{"a.h", "int f(void);\n", true, "cpp"},
		{"a.c", "int f(void) { return 0; }\n", true, "c"},
		{"i18n/de.ts", "\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!DOCTYPE TS>\n<TS/>\n", false, ""},
		{"src/a.ts", "export const a = 1;\n", false, "typescript"},
	} {
		l := refLanguage(c.path, []byte(c.src), c.cpp)
		got := ""
		if l != nil {
			got = l.Name
		}
		if got != c.want {
			t.Errorf("refLanguage(%s, cpp=%v) = %q, want %q", c.path, c.cpp, got, c.want)
		}
	}
}

func TestRefParse(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ok.go", "package p\n\nfunc F() int { return 1 }\n")
	write(t, dir, "bad.go", "package p\n\nfunc F( { return\n")
	write(t, dir, "x.h", "namespace n { class A { public: int f(); }; }\n")
	write(t, dir, "y.cpp", "int main() { return 0; }\n")
	res := &result{PerLang: map[string]*langCount{}}
	indexed := map[string]string{"ok.go": "ok", "bad.go": "parse_error", "x.h": "ok", "y.cpp": "ok"}
	if err := refParse(dir, []string{"bad.go", "ok.go", "x.h", "y.cpp"}, indexed, res); err != nil {
		t.Fatal(err)
	}
	if res.RefErrors != 1 || res.PerLang["go"].RefErrors != 1 || res.PerLang["go"].SDLErrors != 1 {
		t.Errorf("errors: %d, go %+v; want 1 each", res.RefErrors, res.PerLang["go"])
	}
	// The C++ class in the .h parses cleanly because the repository is
	// C++, so the header is read as C++.
	if lc := res.PerLang["cpp"]; lc == nil || lc.Files != 2 || lc.RefErrors != 0 {
		t.Errorf("cpp: %+v, want 2 files without errors", lc)
	}
}

func TestCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	src := t.TempDir()
	write(t, src, "a.go", "package a\n")
	write(t, src, "big/data.bin", "pretend this is over 4 MiB\n")
	if err := os.Symlink("a.go", filepath.Join(src, "link.go")); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", src, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "c")
	commit := git("rev-parse", "HEAD")
	// A mirror without one blob, as the fetch tool leaves out large files.
	blob := git("rev-parse", "HEAD:big/data.bin")
	if err := os.Remove(filepath.Join(src, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	dir, missing, err := checkout(filepath.Join(src, ".git"), work, repo{Name: "o/n", Commit: commit})
	if err != nil {
		t.Fatal(err)
	}
	if missing != 1 {
		t.Errorf("missing = %d, want 1", missing)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.go")); err != nil || string(b) != "package a\n" {
		t.Errorf("a.go = %q, %v", b, err)
	}
	if l, err := os.Readlink(filepath.Join(dir, "link.go")); err != nil || l != "a.go" {
		t.Errorf("link.go -> %q, %v", l, err)
	}
	// The second call reuses the checkout.
	if dir2, missing2, err := checkout(filepath.Join(src, ".git"), work, repo{Name: "o/n", Commit: commit}); err != nil || dir2 != dir || missing2 != 1 {
		t.Errorf("second checkout: %s %d %v", dir2, missing2, err)
	}
}

func TestWriteSection(t *testing.T) {
	out := filepath.Join(t.TempDir(), "corpus.md")
	repos := []repo{{Name: "o/n", Lang: "go", Kind: "library", Commit: strings.Repeat("a", 40)}}
	if err := writeSection(out, "before", "## before\n\nB1\n", repos); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(out, "after", "## after\n\nA1\n", repos); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(out, "before", "## before\n\nB2\n", repos); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	s := string(b)
	if strings.Contains(s, "B1") || !strings.Contains(s, "B2") || !strings.Contains(s, "A1") {
		t.Errorf("sections not replaced in place:\n%s", s)
	}
	if strings.Index(s, "B2") > strings.Index(s, "A1") {
		t.Errorf("the replaced section moved after the other:\n%s", s)
	}
	if strings.Count(s, "[o/n](https://github.com/o/n)") != 1 {
		t.Errorf("the repository list is not once in the header:\n%s", s)
	}
}

func TestUnderSkipped(t *testing.T) {
	dirs := map[string]bool{"web/node_modules": true}
	if !underSkipped("web/node_modules/x/y.js", dirs) || underSkipped("web/src/y.js", dirs) {
		t.Error("underSkipped judges the wrong directories")
	}
}

func write(t *testing.T, dir, p, s string) {
	t.Helper()
	f := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An index of a schema version this harness does not know (a newer sdl)
// is still read, faults column included.
func TestReadFilesOtherSchema(t *testing.T) {
	p := filepath.Join(t.TempDir(), "index.db")
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`PRAGMA user_version = 99`,
		`CREATE TABLE paths (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)`,
		`CREATE TABLE files (path_id INTEGER, language TEXT, status TEXT, reason TEXT, faults TEXT, from_seq INTEGER, to_seq INTEGER)`,
		`INSERT INTO paths VALUES (1, 'a.rs'), (2, 'vendor/'), (3, 'old.rs')`,
		`INSERT INTO files VALUES (1, 'rust', 'ok', '', '[{"stage":"resolve","reason":"depth limit","count":3}]', 1, NULL),
		  (2, '', 'skipped', 'vendored', '', 1, NULL), (3, 'rust', 'ok', '', '', 1, 1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	db.Close()
	rows, err := readFiles(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows of the current version, want 2: %+v", len(rows), rows)
	}
	if rows[0].path != "a.rs" || len(rows[0].faults) != 1 || rows[0].faults[0] != "resolve" || !rows[0].faultsColumn {
		t.Errorf("a.rs: %+v", rows[0])
	}
	if rows[1].path != "vendor/" || rows[1].reason != "vendored" {
		t.Errorf("vendor/: %+v", rows[1])
	}
}

// TestMirrorGitDir: fetch leaves some mirrors bare (repo/HEAD) and some
// with their git directory inside (repo/.git/HEAD); both are read.
func TestMirrorGitDir(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(dir, "a", "repo")
	inner := filepath.Join(dir, "b", "repo")
	for _, d := range []string{bare, filepath.Join(inner, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := mirrorGitDir(bare); got != bare {
		t.Errorf("bare mirror: %s, want %s", got, bare)
	}
	if got, want := mirrorGitDir(inner), filepath.Join(inner, ".git"); got != want {
		t.Errorf("mirror with .git inside: %s, want %s", got, want)
	}
}

// A repository that indexed with faults is no crash, but the headline says
// how many files had one (nlohmann/json's 9 C++ test files were a row's
// column only, and went unnoticed).
func TestSummaryCountsFaults(t *testing.T) {
	r := &report{Results: []*result{
		{Repo: "a/b", Status: "ok", Faults: map[string]int{"extract": 9, "resolve": 1}},
		{Repo: "c/d", Status: "ok", Faults: map[string]int{}},
	}}
	if got := r.summaryLine(); !strings.Contains(got, "0 crashes, 0 hangs, 10 files with faults in 1 repositories") {
		t.Errorf("summary line: %s", got)
	}
	if got := r.markdown(); !strings.Contains(got, "10 files with faults (in 1 repositories)") {
		t.Errorf("markdown headline:\n%s", got)
	}
}
