package index

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadGoTarget(t *testing.T) {
	root := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	// nothing set: go/build's default
	got, err := LoadGoTarget(root, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if got.GOOS == "" || got.GOARCH == "" || len(got.ReleaseTags) == 0 || len(got.Tags) != 0 {
		t.Errorf("default target %+v", got)
	}

	// the config file
	if err := os.MkdirAll(filepath.Join(root, ".sdl"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "policy:\n  maxWindowLines: 100\ngo:\n  goos: windows\n  goarch: arm64\n  cgo: false\n  tags: [integration, purego]\n"
	if err := os.WriteFile(filepath.Join(root, goTargetFile), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = LoadGoTarget(root, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if got.GOOS != "windows" || got.GOARCH != "arm64" || got.Cgo || !slices.Equal(got.Tags, []string{"integration", "purego"}) {
		t.Errorf("from the file: %+v", got)
	}
	for _, tag := range got.ToolTags {
		if tag == "amd64.v1" {
			t.Errorf("arm64 keeps the amd64 feature tag: %v", got.ToolTags)
		}
	}

	// the environment over it, as the go command reads it
	env["GOOS"], env["CGO_ENABLED"], env["GOFLAGS"] = "darwin", "1", "-mod=mod -tags=netgo,osusergo"
	got, err = LoadGoTarget(root, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if got.GOOS != "darwin" || got.GOARCH != "arm64" || !got.Cgo || !slices.Equal(got.Tags, []string{"netgo", "osusergo"}) {
		t.Errorf("from the environment: %+v", got)
	}
	if s := got.String(); !strings.HasPrefix(s, "darwin/arm64 cgo tags=netgo,osusergo go1.") {
		t.Errorf("String %q", s)
	}

	env["CGO_ENABLED"] = "yes"
	if _, err := LoadGoTarget(root, getenv); !errors.Is(err, ErrGoTarget) {
		t.Errorf("CGO_ENABLED=yes: %v", err)
	}
	delete(env, "CGO_ENABLED")
	if err := os.WriteFile(filepath.Join(root, goTargetFile), []byte("go:\n  os: windows\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadGoTarget(root, getenv); !errors.Is(err, ErrGoTarget) || err.Error() != "go build target: .sdl/config.yaml:2: go.os is not a setting; use goos, goarch, cgo or tags" {
		t.Errorf("an unknown key: %v", err)
	}
}
