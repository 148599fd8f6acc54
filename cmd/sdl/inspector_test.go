package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/index"
)

// TestInspector checks sdl serve with a client nobody here wrote: the
// MCP inspector's CLI (npm @modelcontextprotocol/inspector@2.12.0). CI
// installs it and sets SDL_INSPECTOR to its command; see .ci/run.
func TestInspector(t *testing.T) {
	inspector := os.Getenv("SDL_INSPECTOR")
	if inspector == "" {
		t.Skip("set SDL_INSPECTOR to the MCP inspector's cli command (.ci/run does)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sdl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build sdl: %v\n%s", err, out)
	}
	src, _ := filepath.Abs("../../testdata/repos/go")
	if _, err := index.Run(context.Background(), index.Options{Root: src, DB: filepath.Join(dir, "index.db"), NoGit: true}); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(inspector, append([]string{"--cli", bin, "serve", "--db", filepath.Join(dir, "index.db"), "--root", src}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("inspector %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	list := run("--method", "tools/list")
	for _, want := range []string{`"sdl_symbol_search"`, `"sdl_slice_build"`, `"readOnlyHint": true`} {
		if !strings.Contains(list, want) {
			t.Errorf("tools/list lacks %s", want)
		}
	}
	search := run("--method", "tools/call", "--tool-name", "sdl_symbol_search", "--tool-arg", "query=NewStore")
	if !strings.Contains(search, `\"name\":\"NewStore\"`) {
		t.Errorf("sdl_symbol_search: %s", search)
	}
	slice := run("--method", "tools/call", "--tool-name", "sdl_slice_build", "--tool-arg", "taskText=save the items of the store to disk")
	if !strings.Contains(slice, `\"cards\":[{`) || !strings.Contains(slice, `DB.Save`) && !strings.Contains(slice, `\"name\":\"Save\"`) {
		t.Errorf("sdl_slice_build: %s", slice)
	}
}
