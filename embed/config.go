package embed

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// DefaultProvider is the provider of an index when nothing chooses one.
// The built-in model did not raise slice recall on the evaluation's dev
// set (see MODEL.md), so vectors are off until asked for.
const DefaultProvider = ProviderNone

// ConfigFile holds the embedding section, relative to the repository.
const ConfigFile = ".sdl/config.yaml"

// Config chooses a provider and configures the HTTP one.
type Config struct {
	// Provider is builtin, http, none, or "" for the index's current
	// model (else DefaultProvider).
	Provider string
	HTTP     HTTPConfig
	// Source says where the settings came from, for messages.
	Source string
}

// Environment variables, which override the config file.
const (
	EnvProvider = "SDL_EMBED"
	EnvURL      = "SDL_EMBED_URL"
	EnvModel    = "SDL_EMBED_MODEL"
	EnvKey      = "SDL_EMBED_KEY"
)

// LoadConfig reads the embedding section of root's .sdl/config.yaml, then
// the environment over it. A missing file is no error, nor a root that is
// not a directory (the indexer reports that).
//
//	embedding:
//	  provider: http                  # builtin | http | none
//	  url: http://localhost:11434     # Ollama; any OpenAI-compatible server
//	  model: nomic-embed-text
//	  keyEnv: OPENAI_API_KEY          # the variable that holds the key
//	  batchSize: 64
//	  timeoutSeconds: 60
func LoadConfig(root string) (Config, error) {
	var c Config
	if fi, err := os.Stat(root); err == nil && fi.IsDir() {
		name := filepath.Join(root, ConfigFile)
		data, err := os.ReadFile(name)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return c, fmt.Errorf("%w: %v", ErrConfig, err)
		}
		if err == nil {
			if c, err = ParseConfig(data, ConfigFile); err != nil {
				return c, err
			}
		}
	}
	return c.withEnv(os.Getenv), nil
}

// withEnv applies the environment variables over c.
func (c Config) withEnv(getenv func(string) string) Config {
	if v := getenv(EnvProvider); v != "" {
		c.Provider, c.Source = v, EnvProvider
	}
	if v := getenv(EnvURL); v != "" {
		c.HTTP.URL = v
		if c.Provider == "" {
			c.Provider, c.Source = ProviderHTTP, EnvURL
		}
	}
	if v := getenv(EnvModel); v != "" {
		c.HTTP.Model = v
	}
	if v := getenv(EnvKey); v != "" {
		c.HTTP.Key = v
	}
	return c
}

// ParseConfig reads the embedding section of a config file; name is the
// file's name in errors, which give its line. Other sections are ignored.
func ParseConfig(data []byte, name string) (c Config, err error) {
	if len(data) > 1<<20 {
		return c, fmt.Errorf("%w: %s: larger than 1 MB", ErrConfig, name)
	}
	sec, err := ConfigSection(data, "embedding")
	if err != nil {
		return c, fmt.Errorf("%w: %s: %v", ErrConfig, name, err)
	}
	if sec == nil {
		return c, nil
	}
	bad := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%w: %s:%d: %s", ErrConfig, name, n.Line, fmt.Sprintf(format, args...))
	}
	if sec.Kind != yaml.MappingNode {
		return c, bad(sec, "embedding must be a mapping (provider, url, model, keyEnv, batchSize, timeoutSeconds)")
	}
	c.Source = name
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			return c, bad(v, "embedding.%s must be a single value", k.Value)
		}
		switch k.Value {
		case "provider":
			switch v.Value {
			case ProviderBuiltin, ProviderHTTP, ProviderNone:
				c.Provider = v.Value
			default:
				return c, bad(v, "embedding.provider %q: use builtin, http or none", v.Value)
			}
		case "url":
			c.HTTP.URL = v.Value
		case "model":
			c.HTTP.Model = v.Value
		case "keyEnv":
			c.HTTP.Key = os.Getenv(v.Value)
		case "key":
			return c, bad(k, "embedding.key: a key does not belong in a committed file; name its variable with keyEnv, or set %s", EnvKey)
		case "batchSize", "timeoutSeconds":
			n, err := strconv.Atoi(v.Value)
			if err != nil || n <= 0 || n > 100000 {
				return c, bad(v, "embedding.%s must be a positive number, got %q", k.Value, v.Value)
			}
			if k.Value == "batchSize" {
				c.HTTP.BatchSize = n
			} else {
				c.HTTP.Timeout = time.Duration(n) * time.Second
			}
		default:
			return c, bad(k, "embedding.%s is not a setting; use provider, url, model, keyEnv, batchSize or timeoutSeconds", k.Value)
		}
	}
	return c, nil
}

// Open returns the provider the config names: nil for none. provider ""
// means DefaultProvider.
func (c Config) Open() (Provider, error) {
	p := c.Provider
	if p == "" {
		p = DefaultProvider
	}
	switch p {
	case ProviderNone:
		return nil, nil
	case ProviderBuiltin:
		return Default()
	case ProviderHTTP:
		return NewHTTP(c.HTTP)
	}
	return nil, fmt.Errorf("%w: provider %q: use builtin, http or none", ErrConfig, c.Provider)
}

// ProviderOf names the kind of provider of a model id: builtin or http.
func ProviderOf(modelID string) string {
	kind, _, _ := strings.Cut(modelID, "/")
	return kind
}

// ConfigSection returns the top-level section key of a .sdl/config.yaml
// document, or nil when the document or the section is empty or absent.
// Every reader of the file (the embedding section here, index's go section)
// finds its section through it; the caller names the file in its errors.
func ConfigSection(data []byte, key string) (sec *yaml.Node, err error) {
	if len(data) > 1<<20 {
		return nil, errors.New("larger than 1 MB")
	}
	defer func() {
		if r := recover(); r != nil {
			sec, err = nil, fmt.Errorf("unreadable YAML (%v)", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			sec = root.Content[i+1]
		}
	}
	if sec == nil || (sec.Kind == yaml.ScalarNode && sec.Tag == "!!null") {
		return nil, nil
	}
	return sec, nil
}
