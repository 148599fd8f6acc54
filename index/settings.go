package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/sdl-dev/sdl/embed"
)

// ErrSettings means the index section of .sdl/config.yaml is not valid.
var ErrSettings = errors.New("index settings")

// Settings are what the index section of .sdl/config.yaml chooses for
// every run on the repository (sdl index, and the refreshes of sdl serve
// and sdl watch, which take no flags):
//
//	index:
//	  generated: true   # index generated code too (default false)
type Settings struct {
	Generated bool
}

// LoadSettings reads the index section of root's .sdl/config.yaml. A
// missing file or section is the defaults.
func LoadSettings(root string) (Settings, error) {
	var s Settings
	data, err := os.ReadFile(filepath.Join(root, embed.ConfigFile))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("%w: %v", ErrSettings, err)
	}
	return parseSettings(data, embed.ConfigFile)
}

func parseSettings(data []byte, name string) (s Settings, err error) {
	sec, err := embed.ConfigSection(data, "index")
	if err != nil {
		return s, fmt.Errorf("%w: %s: %v", ErrSettings, name, err)
	}
	if sec == nil {
		return s, nil
	}
	bad := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%w: %s:%d: %s", ErrSettings, name, n.Line, fmt.Sprintf(format, args...))
	}
	if sec.Kind != yaml.MappingNode {
		return s, bad(sec, "index must be a mapping (generated)")
	}
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		switch k.Value {
		case "generated":
			b, err := strconv.ParseBool(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil {
				return s, bad(v, "index.generated must be true or false, got %q", v.Value)
			}
			s.Generated = b
		default:
			return s, bad(k, "index.%s is not a setting; use generated (true or false)", k.Value)
		}
	}
	return s, nil
}
