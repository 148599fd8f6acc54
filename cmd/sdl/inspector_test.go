package main

import (
	"bufio"
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
// and make test (when npm is there) install it and set SDL_INSPECTOR to
// its command; see the Makefile.
func TestInspector(t *testing.T) {
	inspector := os.Getenv("SDL_INSPECTOR")
	if inspector == "" {
		t.Skip("set SDL_INSPECTOR to the MCP inspector's cli command (make test does when npm is there)")
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
	// a budget as the schema says it (it was the slice's, and refused)
	orch := run("--method", "tools/call", "--tool-name", "sdl_agent_orchestrate", "--tool-arg", "taskType=debug",
		"--tool-arg", "taskText=save the items of the store to disk", "--tool-arg", `budget={"maxTokens": 2000, "maxActions": 6}`)
	if !strings.Contains(orch, `\"success\":true`) {
		t.Errorf("sdl_agent_orchestrate with the schema's budget: %s", orch)
	}
	// the gateway surface: three tools that reach the rest
	gw := run("--tools", "gateway", "--method", "tools/list")
	if strings.Count(gw, `"name": "sdl_`) != 3 || !strings.Contains(gw, `"sdl_chain"`) {
		t.Errorf("--tools gateway: %s", gw)
	}

	// a repository without an index: the server starts and says what it is doing
	fresh := filepath.Join(dir, "fresh")
	if err := os.CopyFS(fresh, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(inspector, "--cli", bin, "serve", "--root", fresh, "--method", "tools/call",
		"--tool-name", "sdl_symbol_search", "--tool-arg", "query=NewStore")
	out, _ := cmd.Output() // an "indexing" answer is a tool error: exit 1
	if !strings.Contains(string(out), `\"code\":\"indexing\"`) && !strings.Contains(string(out), `\"name\":\"NewStore\"`) {
		t.Errorf("serve in a repository without an index: %s", out)
	}

	// HTTP without the token: the reason reaches the client
	srv := exec.Command(bin, "serve", "--db", filepath.Join(dir, "index.db"), "--root", src, "--http", "127.0.0.1:0", "--token", "s3cret")
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	url := strings.TrimSpace(strings.TrimPrefix(line, "sdl: serving MCP on "))
	if err != nil || !strings.HasPrefix(url, "http://") {
		t.Fatalf("sdl serve --http: %q %v", line, err)
	}
	noToken, _ := exec.Command(inspector, "--cli", url, "--transport", "http", "--stored-auth-only", "--method", "tools/list").CombinedOutput()
	if !strings.Contains(string(noToken), "missing bearer token") {
		t.Errorf("no token: %s", noToken)
	}
	withToken, err := exec.Command(inspector, "--cli", url, "--transport", "http", "--header", "Authorization: Bearer s3cret", "--method", "tools/list").Output()
	if err != nil || !strings.Contains(string(withToken), `"sdl_symbol_search"`) {
		t.Errorf("with the token: %v %s", err, withToken)
	}
}
