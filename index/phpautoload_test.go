package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
)

func TestReadPHPAutoload(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("composer.json", `{"autoload": {"psr-4": {"App\\": "src/", "Lib\\Util\\": ["lib/", "extra"]}},
		"autoload-dev": {"psr-4": {"App\\Tests\\": "tests/"}}}`)
	write("packages/pay/composer.json", `{"autoload": {"psr-4": {"Pay\\": "src"}}}`)
	write("other/composer.json", `{"autoload": {"psr-4": {"Ignored\\": "src"}}}`) // no PHP file below it
	write("broken/composer.json", `{not json`)
	var entries []Entry
	for _, p := range []string{"src/A.php", "packages/pay/src/B.php", "broken/C.php", "other/x.go"} {
		entries = append(entries, Entry{Path: p, Lang: lang.ForPath(p)})
	}
	got := strings.Join(readPHPAutoload(dirTree{root}, entries), "|")
	want := "App\tsrc|App\\Tests\ttests|Lib\\Util\textra|Lib\\Util\tlib|Pay\tpackages/pay/src"
	if got != want {
		t.Errorf("autoload maps\n got %q\nwant %q", got, want)
	}
}
