package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/lang"
)

// ErrGoTarget means the Go build target of .sdl/config.yaml or the
// environment is not valid.
var ErrGoTarget = errors.New("go build target")

// goTargetFile holds the go section, relative to the repository.
const goTargetFile = embed.ConfigFile

// LoadGoTarget is the target Go build constraints are evaluated for, as a
// Go user expects from the go command: lang.DefaultGoTarget (the machine's
// GOOS and GOARCH, cgo where it is supported, the release tags of sdl's Go
// version), then the go section of root's .sdl/config.yaml, then the
// environment (GOOS, GOARCH, CGO_ENABLED, -tags in GOFLAGS) over it:
//
//	go:
//	  goos: windows        # GOOS
//	  goarch: arm64        # GOARCH
//	  cgo: false           # CGO_ENABLED
//	  tags: [integration]  # go build -tags
func LoadGoTarget(root string, getenv func(string) string) (lang.GoTarget, error) {
	t := lang.DefaultGoTarget()
	data, err := os.ReadFile(filepath.Join(root, goTargetFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return t, fmt.Errorf("%w: %v", ErrGoTarget, err)
	}
	goos, goarch := t.GOOS, t.GOARCH
	if data != nil {
		if err := parseGoTarget(data, goTargetFile, &t, &goos, &goarch); err != nil {
			return t, err
		}
	}
	if v := getenv("GOOS"); v != "" {
		goos = v
	}
	if v := getenv("GOARCH"); v != "" {
		goarch = v
	}
	cgo := t.Cgo
	t = t.WithPlatform(goos, goarch)
	t.Cgo = cgo
	switch v := getenv("CGO_ENABLED"); v {
	case "":
	case "0", "1":
		t.Cgo = v == "1"
	default:
		return t, fmt.Errorf("%w: CGO_ENABLED=%q: use 0 or 1", ErrGoTarget, v)
	}
	if tags, ok := goFlagsTags(getenv("GOFLAGS")); ok {
		t.Tags = tags
	}
	return t, nil
}

// goFlagsTags reads -tags from GOFLAGS, whose flags are -flag=value or
// -flag, separated by spaces.
func goFlagsTags(goflags string) ([]string, bool) {
	var tags []string
	found := false
	for _, f := range strings.Fields(goflags) {
		name, v, ok := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if name != "tags" || !ok || !strings.HasPrefix(f, "-") {
			continue
		}
		found, tags = true, splitTags(v)
	}
	return tags, found
}

// splitTags splits a -tags value: comma-separated, or space-separated as
// the go command still accepts.
func splitTags(v string) []string {
	var out []string
	for _, t := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		out = append(out, t)
	}
	return out
}

// parseGoTarget reads the go section of a config file into t, goos and
// goarch; other sections are ignored. Errors give the file and line.
func parseGoTarget(data []byte, name string, t *lang.GoTarget, goos, goarch *string) (err error) {
	sec, err := embed.ConfigSection(data, "go")
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrGoTarget, name, err)
	}
	if sec == nil {
		return nil
	}
	bad := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%w: %s:%d: %s", ErrGoTarget, name, n.Line, fmt.Sprintf(format, args...))
	}
	if sec.Kind != yaml.MappingNode {
		return bad(sec, "go must be a mapping (goos, goarch, cgo, tags)")
	}
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		switch k.Value {
		case "goos", "goarch", "cgo":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return bad(v, "go.%s must be a single value", k.Value)
			}
			switch k.Value {
			case "goos":
				*goos = v.Value
			case "goarch":
				*goarch = v.Value
			case "cgo":
				b, err := strconv.ParseBool(v.Value)
				if err != nil {
					return bad(v, "go.cgo must be true or false, got %q", v.Value)
				}
				t.Cgo = b
			}
		case "tags":
			t.Tags = nil
			switch v.Kind {
			case yaml.ScalarNode:
				t.Tags = splitTags(v.Value)
			case yaml.SequenceNode:
				for _, e := range v.Content {
					if e.Kind != yaml.ScalarNode {
						return bad(e, "go.tags must list tag names")
					}
					t.Tags = append(t.Tags, splitTags(e.Value)...)
				}
			default:
				return bad(v, "go.tags must list tag names")
			}
		default:
			return bad(k, "go.%s is not a setting; use goos, goarch, cgo or tags", k.Value)
		}
	}
	return nil
}
