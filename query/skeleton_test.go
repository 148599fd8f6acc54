package query_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/query"
)

// symbolFiles are, per fixture, the files whose symbols get a symbol-mode
// skeleton in the golden file.
var symbolFiles = map[string][]string{
	"go":         {"store/store.go"},
	"python":     {"src/shop/store.py"},
	"javascript": {"lib/app.js"},
	"typescript": {"src/services/inventory.ts", "src/components/ItemList.tsx"},
	"rust":       {"shop/src/store/mod.rs"},
	"java":       {"src/main/java/com/example/shop/Store.java"},
	"c":          {"src/store.c"},
	"cpp":        {"include/geo/shape.h", "src/shape.cpp"},
	"csharp":     {"src/Shop.Core/Inventory/Store.cs"},
	"ruby":       {"lib/shop/store.rb"},
	"php":        {"src/Inventory/Store.php"},
	"bash":       {"bin/deploy.sh"},
	"kotlin":     {"src/main/kotlin/com/example/shop/store/Store.kt"},
	"swift":      {"Sources/ShopCore/Store/Store.swift"},
}

// sourceFiles lists the files of a fixture that sdl skeletonizes.
func sourceFiles(t *testing.T, name string) []string {
	t.Helper()
	root := filepath.Join("..", "testdata", "repos", name)
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if l := lang.ForPath(rel); l != nil && lang.HasSkeleton(l) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

type symInfo struct {
	ID, Qualified, Kind, Path string
	Start, End                int
}

// symbolsOf lists the current symbols of a file, in source order.
func symbolsOf(t *testing.T, x *query.Index, path string) []symInfo {
	t.Helper()
	rows, err := x.DB.Query(`SELECT s.id, s.qualified, s.kind, p.path, s.start_line, s.end_line FROM symbols s
		JOIN paths p ON p.id = s.path_id WHERE s.to_seq IS NULL AND p.path = ? ORDER BY s.start_line, s.start_col, s.id`, path)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []symInfo
	for rows.Next() {
		var s symInfo
		if err := rows.Scan(&s.ID, &s.Qualified, &s.Kind, &s.Path, &s.Start, &s.End); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("..", "testdata", "golden", "skeleton", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./query -run TestSkeletonGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\nwant %q\ngot  %q\n(run go test ./query -run TestSkeletonGolden -update after checking)", golden, i+1, w, g)
			}
		}
	}
}

// TestSkeletonGolden renders every file of each fixture repository, and
// every symbol of a chosen file, and compares with the golden files in
// testdata/golden/skeleton.
func TestSkeletonGolden(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"go", "python", "javascript", "typescript", "rust", "java", "c", "cpp", "csharp", "ruby", "php", "bash", "kotlin", "swift"} {
		t.Run(name, func(t *testing.T) {
			x := fixture(t, name)
			var files bytes.Buffer
			for _, f := range sourceFiles(t, name) {
				resp, err := x.Skeleton(ctx, query.SkeletonRequest{File: f, MaxTokens: query.MaxResponseTokens})
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if resp.Truncated {
					t.Fatalf("%s: truncated at %d tokens", f, query.MaxResponseTokens)
				}
				fmt.Fprintf(&files, "== %s (%s, %d lines -> %d)\n%s\n\n", f, resp.Language, resp.OriginalLines, resp.TotalLines, resp.Skeleton)
			}
			checkGolden(t, name+".files", files.Bytes())

			var syms bytes.Buffer
			for _, f := range symbolFiles[name] {
				for _, s := range symbolsOf(t, x, f) {
					if s.Kind == lang.KindModule || s.Kind == lang.KindVariable {
						continue
					}
					resp, err := x.Skeleton(ctx, query.SkeletonRequest{SymbolID: s.ID})
					if err != nil {
						t.Fatalf("%s: %v", s.Qualified, err)
					}
					if resp.Range.StartLine != s.Start || resp.Range.EndLine != s.End {
						t.Errorf("%s: range %+v, want lines %d-%d", s.Qualified, resp.Range, s.Start, s.End)
					}
					fmt.Fprintf(&syms, "== %s %s (%s:%d-%d)\n%s\n\n", s.Kind, s.Qualified, s.Path, s.Start, s.End, resp.Skeleton)
				}
			}
			checkGolden(t, name+".symbols", syms.Bytes())
		})
	}
}

// TestSkeletonPages pages through every fixture file under small budgets:
// no page exceeds them, and the pages together are the whole skeleton,
// each line exactly once.
func TestSkeletonPages(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"go", "python", "javascript", "typescript", "rust", "java", "c", "cpp", "csharp", "ruby", "php", "bash", "kotlin", "swift"} {
		x := fixture(t, name)
		for _, f := range sourceFiles(t, name) {
			full, err := x.Skeleton(ctx, query.SkeletonRequest{File: f, MaxTokens: query.MaxResponseTokens})
			if err != nil {
				t.Fatal(err)
			}
			for _, lim := range []struct{ lines, tokens int }{{7, 0}, {0, 60}, {3, 40}} {
				var got []string
				offset, pages := 0, 0
				for {
					p, err := x.Skeleton(ctx, query.SkeletonRequest{File: f, MaxLines: lim.lines, MaxTokens: lim.tokens, SkeletonOffset: offset})
					if err != nil {
						t.Fatalf("%s %+v offset %d: %v", f, lim, offset, err)
					}
					pages++
					if lim.lines > 0 && p.Lines > lim.lines {
						t.Fatalf("%s: page of %d lines over maxLines %d", f, p.Lines, lim.lines)
					}
					if lim.tokens > 0 && (query.Tokens(p.Skeleton) > lim.tokens || p.EstimatedTokens > lim.tokens) {
						t.Fatalf("%s: page of %d tokens over maxTokens %d", f, query.Tokens(p.Skeleton), lim.tokens)
					}
					if p.Lines != len(strings.Split(p.Skeleton, "\n")) && p.Lines > 0 {
						t.Fatalf("%s: page says %d lines, holds %d", f, p.Lines, len(strings.Split(p.Skeleton, "\n")))
					}
					if p.Lines > 0 {
						got = append(got, strings.Split(p.Skeleton, "\n")...)
					}
					if !p.Truncated {
						break
					}
					if p.Truncation.ResumeOffset != offset+p.Lines || p.Lines == 0 {
						t.Fatalf("%s: resume at %d after %d lines from %d", f, p.Truncation.ResumeOffset, p.Lines, offset)
					}
					offset = p.Truncation.ResumeOffset
				}
				if strings.Join(got, "\n") != full.Skeleton {
					t.Errorf("%s %+v: %d pages do not add up to the skeleton", f, lim, pages)
				}
				if full.TotalLines > 7 && lim.lines == 7 && pages < 2 {
					t.Errorf("%s: %d lines in one page of 7", f, full.TotalLines)
				}
			}
		}
	}
}

// TestSkeletonIdentifiers marks the lines holding identifiers.
func TestSkeletonIdentifiers(t *testing.T) {
	x := fixture(t, "python")
	resp, err := x.Skeleton(context.Background(), query.SkeletonRequest{File: "src/shop/store.py", IdentifiersToFind: []string{"OutOfStock", "nothere"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.MatchedIdentifiers) != 1 || resp.MatchedIdentifiers[0] != "OutOfStock" {
		t.Errorf("matched %v", resp.MatchedIdentifiers)
	}
	marked := 0
	for _, l := range strings.Split(resp.Skeleton, "\n") {
		if strings.HasSuffix(l, "# <- OutOfStock") {
			marked++
			if !strings.Contains(strings.TrimSuffix(l, "# <- OutOfStock"), "OutOfStock") {
				t.Errorf("marked line without the identifier: %q", l)
			}
		}
	}
	if marked != len(resp.MatchedLines) || marked != 2 {
		t.Errorf("%d marked lines, matchedLines %v, want 2 (the import and the raise)", marked, resp.MatchedLines)
	}
}

func TestSkeletonExportedOnlyFile(t *testing.T) {
	x := fixture(t, "go")
	all, err := x.Skeleton(context.Background(), query.SkeletonRequest{File: "store/store.go"})
	if err != nil {
		t.Fatal(err)
	}
	exp, err := x.Skeleton(context.Background(), query.SkeletonRequest{File: "store/store.go", ExportedOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(all.Skeleton, "func (s *Store) sortedIDs") || strings.Contains(exp.Skeleton, "func (s *Store) sortedIDs") || strings.Contains(exp.Skeleton, "items map") {
		t.Errorf("exportedOnly kept unexported names:\n%s", exp.Skeleton)
	}
	if !strings.Contains(exp.Skeleton, "func (s *Store) Add(item *Item) error {") || exp.EstimatedTokens >= all.EstimatedTokens {
		t.Errorf("exportedOnly:\n%s", exp.Skeleton)
	}
}

func TestSkeletonErrors(t *testing.T) {
	ctx := context.Background()
	x := fixture(t, "go")
	id := symbolsOf(t, x, "store/store.go")[1].ID
	for _, tc := range []struct {
		req   query.SkeletonRequest
		field string
	}{
		{query.SkeletonRequest{}, "symbolId/file"},
		{query.SkeletonRequest{SymbolID: id, File: "store/store.go"}, "symbolId/file"},
		{query.SkeletonRequest{File: "../go/store/store.go"}, "file"},
		{query.SkeletonRequest{File: "store/../../x.go"}, "file"},
		{query.SkeletonRequest{File: "/etc/passwd"}, "file"},
		{query.SkeletonRequest{File: "go.mod"}, "file"},
		{query.SkeletonRequest{File: "store"}, "file"},
		{query.SkeletonRequest{File: "store/store.go", MaxLines: -1}, "maxLines"},
		{query.SkeletonRequest{File: "store/store.go", MaxTokens: -5}, "maxTokens"},
		{query.SkeletonRequest{File: "store/store.go", MaxTokens: 2}, "maxTokens"},
		{query.SkeletonRequest{File: "store/store.go", SkeletonOffset: -1}, "skeletonOffset"},
		{query.SkeletonRequest{File: "store/store.go", SkeletonOffset: 10000}, "skeletonOffset"},
		{query.SkeletonRequest{File: "store/store.go", IdentifiersToFind: make([]string, 51)}, "identifiersToFind"},
		{query.SkeletonRequest{File: "store/store.go", IdentifiersToFind: []string{""}}, "identifiersToFind[0]"},
	} {
		_, err := x.Skeleton(ctx, tc.req)
		if !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), ": "+tc.field+": ") {
			t.Errorf("%+v: err %v, want ErrInvalid naming %s", tc.req, err, tc.field)
		}
	}
	if _, err := x.Skeleton(ctx, query.SkeletonRequest{File: "store/gone.go"}); !errors.Is(err, query.ErrNotFound) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := x.Skeleton(ctx, query.SkeletonRequest{SymbolID: "0000000000000000"}); !errors.Is(err, query.ErrNotFound) {
		t.Errorf("unknown symbol: %v", err)
	}
}

// fixtureCopy copies a fixture repository to a temporary directory and
// indexes it there (.sdl/index.db inside it), for tests that change the
// repository: its files, its policy.
func fixtureCopy(t testing.TB, name string) (*query.Index, string) {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", name))
	root := filepath.Join(t.TempDir(), "repo")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return indexRepo(t, root), root
}

// indexRepo indexes a repository into its .sdl/index.db and opens it.
func indexRepo(t testing.TB, root string) *query.Index {
	t.Helper()
	db := filepath.Join(root, ".sdl", "index.db")
	if _, err := index.Run(context.Background(), index.Options{Root: root, DB: db, NoGit: true, Workers: 2,
		Now: time.Unix(1700000000, 0), SDLVersion: "test"}); err != nil {
		t.Fatalf("index %s: %v", root, err)
	}
	x, err := query.Open(db, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// TestSkeletonStale serves a changed file from disk, flagged; a symbol
// whose range no longer fits the file is an error that says so; a link
// out of the repository is refused.
func TestSkeletonStale(t *testing.T) {
	ctx := context.Background()
	x, root := fixtureCopy(t, "go")
	var addID string
	for _, s := range symbolsOf(t, x, "store/store.go") {
		if s.Qualified == "Store.Add" {
			addID = s.ID
		}
	}
	p := filepath.Join(root, "store", "store.go")
	data, _ := os.ReadFile(p)
	edited := strings.Replace(string(data), "return ErrFull", "return ErrFullNow", 1)
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, err := x.Skeleton(ctx, query.SkeletonRequest{SymbolID: addID})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.StaleFiles) != 1 || resp.StaleFiles[0] != "store/store.go" || len(resp.Warnings) == 0 {
		t.Errorf("stale file not flagged: %+v", resp)
	}
	if !strings.Contains(resp.Skeleton, "ErrFullNow") {
		t.Errorf("not served from disk:\n%s", resp.Skeleton)
	}
	// cut the file above the symbol
	if err := os.WriteFile(p, []byte("package store\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Skeleton(ctx, query.SkeletonRequest{SymbolID: addID}); !errors.Is(err, query.ErrStale) || !strings.Contains(err.Error(), "run sdl index") {
		t.Errorf("range past the file: %v", err)
	}
	if _, err := x.HotPath(ctx, query.HotPathRequest{SymbolID: addID, IdentifiersToFind: []string{"items"}}); !errors.Is(err, query.ErrStale) {
		t.Errorf("hot path, range past the file: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "secret.go")
	os.WriteFile(outside, []byte("package secret\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "link.go")); err != nil {
		t.Skip(err)
	}
	if _, err := x.Skeleton(ctx, query.SkeletonRequest{File: "link.go"}); !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), "outside the repository") {
		t.Errorf("link out of the repository: %v", err)
	}
}
