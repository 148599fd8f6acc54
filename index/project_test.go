package index

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/javascript"
	"github.com/sdl-dev/sdl/lang/php"
)

// The project readers of each language read the project files above the
// language's files, and only those.
func TestReadProjects(t *testing.T) {
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
	write("go.mod", "module example.com/m\n")
	write("tools/go.mod", "module example.com/tools\n")
	write("web/package.json", `{"name": "@acme/web", "main": "dist/index.js", "source": "src/index.ts"}`)
	write("web/lib/package.json", `{"private": true}`) // no name
	write("other/package.json", `{"name": "other"}`)   // no JavaScript file below it
	var entries []Entry
	for _, p := range []string{"src/A.php", "packages/pay/src/B.php", "broken/C.php", "other/x.go",
		"tools/cmd/main.go", "web/lib/a.ts", "web/b.js"} {
		entries = append(entries, Entry{Path: p, Lang: lang.ForPath(p)})
	}
	ps := readProjects(dirTree{root}, entries, nil)
	var got []string
	for _, m := range ps[php.AutoloadReader{}.Key()].(php.Autoload) {
		got = append(got, m.Prefix+"="+m.Dir)
	}
	if got, want := strings.Join(got, "|"), `App=src|App\Tests=tests|Lib\Util=extra|Lib\Util=lib|Pay=packages/pay/src`; got != want {
		t.Errorf("autoload maps\n got %q\nwant %q", got, want)
	}
	if got, want := goModulesMeta(ps.goModules()), ".\texample.com/m\ntools\texample.com/tools"; got != want {
		t.Errorf("go modules\n got %q\nwant %q", got, want)
	}
	if got := parseGoModulesMeta(goModulesMeta(ps.goModules())); !slices.Equal(got, ps.goModules()) {
		t.Errorf("go modules read back from meta: %v, want %v", got, ps.goModules())
	}
	js := ps[javascript.PackagesReader{}.Key()].(javascript.Packages)
	if len(js) != 1 || js[0].Dir != "web" || js[0].Name != "@acme/web" || strings.Join(js[0].Entries, ",") != "src/index.ts,dist/index.js" {
		t.Errorf("js packages: %+v", js)
	}

	// a tree whose walk listed its directories reads only the files it saw
	listed := func(dir, file string) bool { return dir == "." || dir == "src" }
	if got := readProjects(dirTree{root}, entries, listed).goModules(); len(got) != 1 || got[0].Dir != "." {
		t.Errorf("go modules of the listed directories: %v", got)
	}
}
