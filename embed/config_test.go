package embed_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/embed"
)

func TestParseConfig(t *testing.T) {
	t.Setenv("MY_EMBED_KEY", "k1")
	c, err := embed.ParseConfig([]byte(`policy:
  maxWindowLines: 100
embedding:
  provider: http
  url: http://localhost:11434
  model: nomic-embed-text
  keyEnv: MY_EMBED_KEY
  batchSize: 16
  timeoutSeconds: 5
`), "config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != "http" || c.HTTP.URL != "http://localhost:11434" || c.HTTP.Model != "nomic-embed-text" || c.HTTP.Key != "k1" ||
		c.HTTP.BatchSize != 16 || c.HTTP.Timeout != 5*time.Second {
		t.Errorf("config %+v", c)
	}
	for _, empty := range []string{"", "policy:\n  maxWindowLines: 3\n", "embedding:\n", "- a list\n"} {
		if c, err := embed.ParseConfig([]byte(empty), "c.yaml"); err != nil || c.Provider != "" {
			t.Errorf("%q: %+v %v", empty, c, err)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	for text, want := range map[string]string{
		"embedding:\n  provider: magic\n":         "c.yaml:2: embedding.provider \"magic\": use builtin, http or none",
		"embedding:\n  key: sk-123\n":             "c.yaml:2: embedding.key: a key does not belong in a committed file",
		"embedding:\n  modle: x\n":                "embedding.modle is not a setting",
		"embedding:\n  batchSize: -1\n":           "embedding.batchSize must be a positive number",
		"embedding: [1, 2]\n":                     "embedding must be a mapping",
		"embedding:\n  url: [a]\n":                "embedding.url must be a single value",
		"embedding:\n  provider: http\n bad: [\n": "c.yaml",
	} {
		_, err := embed.ParseConfig([]byte(text), "c.yaml")
		if !errors.Is(err, embed.ErrConfig) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", text, err, want)
		}
	}
}

// The environment overrides the file; a URL alone chooses http.
func TestLoadConfigEnvironment(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".sdl"), 0o755)
	os.WriteFile(filepath.Join(root, ".sdl", "config.yaml"), []byte("embedding:\n  provider: builtin\n  model: from-file\n"), 0o644)
	for _, k := range []string{embed.EnvProvider, embed.EnvURL, embed.EnvModel, embed.EnvKey} {
		t.Setenv(k, "")
	}
	c, err := embed.LoadConfig(root)
	if err != nil || c.Provider != "builtin" || c.HTTP.Model != "from-file" {
		t.Fatalf("file only: %+v %v", c, err)
	}
	t.Setenv(embed.EnvModel, "from-env")
	t.Setenv(embed.EnvKey, "k")
	t.Setenv(embed.EnvProvider, "http")
	t.Setenv(embed.EnvURL, "http://127.0.0.1:1")
	c, err = embed.LoadConfig(root)
	if err != nil || c.Provider != "http" || c.HTTP.Model != "from-env" || c.HTTP.Key != "k" || c.HTTP.URL != "http://127.0.0.1:1" {
		t.Fatalf("environment: %+v %v", c, err)
	}
	p, err := c.Open()
	if err != nil || p.ID() != "http/from-env" {
		t.Fatalf("open: %v %v", p, err)
	}
	// no file, a URL in the environment: http
	t.Setenv(embed.EnvProvider, "")
	c, err = embed.LoadConfig(t.TempDir())
	if err != nil || c.Provider != "http" {
		t.Errorf("URL alone: %+v %v", c, err)
	}
	// none opens no provider; an unknown one is an error
	if p, err := (embed.Config{Provider: "none"}).Open(); p != nil || err != nil {
		t.Errorf("none: %v %v", p, err)
	}
	if _, err := (embed.Config{Provider: "magic"}).Open(); !errors.Is(err, embed.ErrConfig) {
		t.Errorf("magic: %v", err)
	}
	p, err = (embed.Config{}).Open()
	switch {
	case err != nil:
		t.Errorf("default: %v", err)
	case embed.DefaultProvider == embed.ProviderNone && p != nil:
		t.Errorf("default is none, opened %s", p.ID())
	case embed.DefaultProvider != embed.ProviderNone && (p == nil || embed.ProviderOf(p.ID()) != embed.DefaultProvider):
		t.Errorf("default is %s, opened %v", embed.DefaultProvider, p)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("embedding:\n  provider: http\n  url: http://x\n"))
	f.Add([]byte("embedding: &a\n  provider: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		embed.ParseConfig(data, "fuzz.yaml")
	})
}
