package query_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestIsProjectPackage: a program at a prompt is the project's own when a
// folder has its name, to the letter: the _ of my_tool is no LIKE wildcard
// that a folder mydtool/ would match.
func TestIsProjectPackage(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"src/mydtool/cli.py", "flask/app.py"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte("def main():\n    pass\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x := indexRepo(t, root)
	ctx := context.Background()
	for prog, want := range map[string]bool{"flask": true, "mydtool": true, "my_tool": false, "pip": false} {
		if got := x.IsProjectPackageForTest(ctx, prog); got != want {
			t.Errorf("isProjectPackage(%q) = %v, want %v", prog, got, want)
		}
	}
}
