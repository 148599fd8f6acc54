package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/schema"
)

// TestHostileFiles indexes a tree of what a repository may hold besides
// good code. Every file ends up indexed or recorded with a reason, the run
// completes, nothing outside the repository is read, and the good file
// around them is indexed as usual.
func TestHostileFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a 50 MB line")
	}
	root := t.TempDir()
	outside := t.TempDir()
	writeFile(t, outside, "secret.go", "package secret\n\nfunc Leaked() {}\n")

	writeFile(t, root, "good.go", "package good\n\n// Fine is a plain function.\nfunc Fine() int { return 1 }\n")
	// 100k-deep nesting, in three grammars
	writeFile(t, root, "deep.go", "package deep\n\nfunc Deep() int {\n\treturn "+strings.Repeat("(", 100000)+"1"+strings.Repeat(")", 100000)+"\n}\n")
	writeFile(t, root, "deep.py", "def deep():\n    return "+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+"\n")
	writeFile(t, root, "deep.js", "function deep() { return "+strings.Repeat("{a:", 100000)+"1"+strings.Repeat("}", 100000)+" }\n")
	// a 50 MB single line (under a raised size limit, so it is parsed)
	writeFile(t, root, "oneline.py", "def long_line():\n    return '"+strings.Repeat("a", 50<<20)+"'\n")
	// invalid UTF-8 in names, strings and comments
	writeFile(t, root, "bad_utf8.py", "# caf\xe9 \xff\xfe\ndef ok_\xff():\n    return '\xc3\x28'\n\ndef after_bad():\n    pass\n")
	// NUL bytes: at the top the file is binary; further down it is parsed
	writeFile(t, root, "nul_top.go", "package nul\x00\x00\n")
	writeFile(t, root, "nul_late.go", "package nul\n\n"+strings.Repeat("// padding line\n", 700)+"func Late() {}\n\nvar x = \"\x00\"\n")
	// mixed line endings: \r\n, \n and lone \r
	writeFile(t, root, "mixed.py", "def one():\r\n    pass\r\n\rdef two():\n    pass\n\r\n")
	// links: a loop, a file and a directory outside the repository
	must(t, os.Symlink(root, filepath.Join(root, "loop")))
	must(t, os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(root, "linked.go")))
	must(t, os.Symlink(outside, filepath.Join(root, "outdir")))
	must(t, os.Symlink("/nonexistent/target", filepath.Join(root, "dangling.go")))
	// file names with a newline and with bytes that are not UTF-8
	writeFile(t, root, "new\nline.go", "package good\n\nfunc NewlineName() {}\n")
	writeFile(t, root, "bad\xff\xfename.go", "package good\n\nfunc BadName() {}\n")
	// an ignore file made to be slow to match
	var gi strings.Builder
	for i := 0; i < 2000; i++ {
		gi.WriteString(strings.Repeat("**/*a", 30) + "*b\n")
	}
	gi.WriteString("[\n\\\n!\n" + strings.Repeat("*", 5000) + "x\n" + strings.Repeat("?", 5000) + "\n")
	writeFile(t, root, ".gitignore", gi.String())

	db := filepath.Join(t.TempDir(), "index.db")
	res, err := Run(context.Background(), Options{Root: root, DB: db, NoGit: true, Walk: WalkOptions{MaxFileSize: 64 << 20}})
	if err != nil {
		t.Fatalf("index: %v", err)
	}
	t.Logf("%+v", res)

	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	status := map[string]string{}
	rows, err := conn.Query(`SELECT p.path, f.status, f.reason FROM files f JOIN paths p ON p.id = f.path_id WHERE f.to_seq IS NULL`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p, s, r string
		must(t, rows.Scan(&p, &s, &r))
		status[p] = s
		if r != "" {
			status[p] += " (" + r + ")"
		}
	}
	must(t, rows.Err())
	for p, s := range status {
		t.Logf("%q: %s", p, s)
	}
	for _, p := range []string{"good.go", "deep.go", "deep.py", "oneline.py", "bad_utf8.py", "nul_late.go", "mixed.py"} {
		s, ok := status[p]
		if !ok {
			t.Errorf("%q: not recorded", p)
			continue
		}
		if !strings.HasPrefix(s, "ok") && !strings.HasPrefix(s, "parse_error") {
			t.Errorf("%q: %s, want it indexed", p, s)
		}
	}
	for p, want := range map[string]string{
		"nul_top.go":         "skipped (binary)",
		"deep.js":            "skipped (" + SkipMinified + ")", // one 400 kB line
		"new\nline.go":       "skipped (" + SkipBadName + ")",
		"bad\xff\xfename.go": "skipped (" + SkipBadName + ")",
		"linked.go":          "skipped (" + SkipSymlink + ")",
		"dangling.go":        "skipped (" + SkipSymlink + ")",
	} {
		if s := status[p]; s != want {
			t.Errorf("%q: %q, want %q", p, s, want)
		}
	}
	for p := range status {
		if strings.Contains(p, "secret") || strings.HasPrefix(p, "outdir/") || strings.HasPrefix(p, "loop/") {
			t.Errorf("%q: indexed from outside the repository or through a loop", p)
		}
	}

	symbols := map[string]int{}
	rows, err = conn.Query(`SELECT s.name, s.start_line FROM symbols s WHERE s.to_seq IS NULL`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		var line int
		must(t, rows.Scan(&n, &line))
		symbols[n] = line
	}
	must(t, rows.Err())
	for _, n := range []string{"Fine", "Deep", "deep", "long_line", "after_bad", "Late", "one", "two"} {
		if _, ok := symbols[n]; !ok {
			t.Errorf("symbol %s missing", n)
		}
	}
	if _, ok := symbols["Leaked"]; ok {
		t.Error("a symbol of a file outside the repository was indexed")
	}
	// lines count \n as tree-sitter does; a lone \r does not end a line
	if l := symbols["two"]; l != 3 {
		t.Errorf("two on line %d, want 3", l)
	}
	for n := range symbols {
		if !utf8.ValidString(n) && n != "ok_\xff" {
			t.Errorf("symbol name %q is not UTF-8", n)
		}
	}

	// the next run over the same tree completes and changes nothing
	res2, err := Run(context.Background(), Options{Root: root, DB: db, NoGit: true, Walk: WalkOptions{MaxFileSize: 64 << 20}})
	if err != nil {
		t.Fatalf("second run: %v", err)
	}
	t.Logf("%+v", res2)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
