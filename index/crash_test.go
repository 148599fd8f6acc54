package index

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/schema"
)

// TestMain lets the test binary act as "sdl index" in a child process, so
// that tests can kill it.
func TestMain(m *testing.M) {
	if root := os.Getenv("SDL_TEST_INDEX_ROOT"); root != "" {
		// as sdl index does (cmd/sdl/index_cmd.go)
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(1280 << 20)
		}
		opts := Options{Root: root, DB: os.Getenv("SDL_TEST_INDEX_DB"), NoGit: true,
			Embedding: embed.Config{Provider: os.Getenv("SDL_TEST_INDEX_EMBED")}}
		if os.Getenv("SDL_TEST_INDEX_PRECISE") != "" {
			opts.GoPrecise = PreciseOn // as sdl index --precise on
		}
		if touch := os.Getenv("SDL_TEST_INDEX_TOUCH"); touch != "" {
			// an edit, as an unsaved buffer: the tree itself is not written
			data, err := os.ReadFile(filepath.Join(root, touch))
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			opts.Overlay = map[string][]byte{touch: append(data, "\n// touched by the benchmark\n"...)}
		}
		if dir := os.Getenv("SDL_TEST_INDEX_OVERLAY"); dir != "" {
			// changed files, as unsaved buffers: BenchmarkIncrementalGoroot
			if opts.Overlay == nil {
				opts.Overlay = map[string][]byte{}
			}
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				data, err := os.ReadFile(p)
				rel, _ := filepath.Rel(dir, p)
				opts.Overlay[filepath.ToSlash(rel)] = data
				return err
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		_, err := Run(context.Background(), opts)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// copyTree copies the Go files of some GOROOT packages into dst: a
// realistic tree that takes a while to index.
func copyTree(t testing.TB, dst string, pkgs ...string) {
	t.Helper()
	for _, pkg := range pkgs {
		src := filepath.Join(runtime.GOROOT(), "src", pkg)
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") {
				return nil
			}
			rel, _ := filepath.Rel(filepath.Join(runtime.GOROOT(), "src"), p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out := filepath.Join(dst, rel)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			return os.WriteFile(out, data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// indexChild starts an index run in a child process.
func indexChild(t *testing.T, root, db string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SDL_TEST_INDEX_ROOT="+root, "SDL_TEST_INDEX_DB="+db)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// checkIntact verifies that db, if it exists, is sound and that its newest
// version is complete: the counts recorded in the ledger are those of the
// current view. It returns the number of versions (0 when there is no file).
func checkIntact(t *testing.T, db string) int {
	t.Helper()
	if _, err := os.Stat(db); os.IsNotExist(err) {
		return 0
	}
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		t.Fatalf("open after kill: %v", err)
	}
	defer conn.Close()
	var ok string
	if err := conn.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check: %q %v", ok, err)
	}
	var n, files, symbols, edges int
	if err := conn.QueryRow(`SELECT COUNT(*) FROM versions`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("an index without versions was left at %s", db)
	}
	if err := conn.QueryRow(`SELECT files, symbols, edges FROM versions ORDER BY seq DESC LIMIT 1`).Scan(&files, &symbols, &edges); err != nil {
		t.Fatal(err)
	}
	var cf, cs, ce int
	if err := conn.QueryRow(`SELECT
		(SELECT COUNT(*) FROM files WHERE to_seq IS NULL AND status IN ('ok', 'parse_error')),
		(SELECT COUNT(*) FROM symbols WHERE to_seq IS NULL),
		(SELECT COUNT(*) FROM edges WHERE to_seq IS NULL)`).Scan(&cf, &cs, &ce); err != nil {
		t.Fatal(err)
	}
	if cf != files || cs != symbols || ce != edges {
		t.Fatalf("newest version records %d files, %d symbols, %d edges; the current view has %d, %d, %d",
			files, symbols, edges, cf, cs, ce)
	}
	return n
}

// TestKill9 kills index runs at random moments, full and incremental, and
// checks after each kill that the last complete version is intact and that
// the next run completes.
func TestKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes; skipped in -short mode")
	}
	root := t.TempDir()
	copyTree(t, root, "net/http", "encoding/json", "go/types")
	db := filepath.Join(t.TempDir(), "index.db")

	// How long does a full run take here? Kill points spread over it.
	start := time.Now()
	c := indexChild(t, root, db)
	if err := c.Wait(); err != nil {
		t.Fatalf("index: %v", err)
	}
	full := time.Since(start)
	os.Remove(db)

	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewSource(seed))
	t.Logf("full run %v; seed %d", full, seed)
	kills := 12
	if n, _ := strconv.Atoi(os.Getenv("SDL_KILLS")); n > 0 {
		kills = n
	}
	versions := 0
	for i := 0; i < kills; i++ {
		if i%2 == 1 {
			// an incremental run: change a few files first
			for j := 0; j < 3; j++ {
				p := filepath.Join(root, "net", "http", fmt.Sprintf("extra_%d_%d.go", i, j))
				src := fmt.Sprintf("package http\n\nfunc Extra%d_%d() int { return %d }\n", i, j, i)
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		c := indexChild(t, root, db)
		time.Sleep(time.Duration(rng.Int63n(int64(full))))
		c.Process.Signal(syscall.SIGKILL)
		c.Wait()
		n := checkIntact(t, db)
		if n < versions {
			t.Fatalf("kill %d: %d versions, had %d before", i, n, versions)
		}
		// the next run completes
		c = indexChild(t, root, db)
		if err := c.Wait(); err != nil {
			t.Fatalf("kill %d: the next run failed: %v", i, err)
		}
		versions = checkIntact(t, db)
		if versions == 0 {
			t.Fatalf("kill %d: no index after a complete run", i)
		}
	}
	if left, _ := filepath.Glob(db + ".tmp-*"); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
