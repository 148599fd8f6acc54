package query

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// The command-line lane. A command-line flag a task names (`pytest
// --collect-only`), or the subcommand of a command it shows at a prompt
// (`$ flask routes`), is a name the program defines, as an identifier is:
// the code that declares it holds it as a string literal, whole, with or
// without the dashes. The
// words column of the full-text index has lost the dashes and quotes
// ("collect only", as prose has it too), so commandScores finds the
// symbols whose words hold the name's words and keeps those whose source
// holds it quoted. Each gets the exact lane's score of a name n symbols
// share, 1/sqrt(n).
var (
	taskFlag = lazyRegexp("(?:^|[\\s`'\"(\\[])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\\b")
	// promptCommand is a command at a shell prompt: "$ flask routes"
	promptCommand = lazyRegexp(`(?m)^\s*\$ +([a-z][\w.-]*) +([a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)\b`)
)

// maxCommandNames bounds the names looked up per slice; maxCommandHolders
// is the most symbols (tests aside) that may hold one name for it to say
// where. commandPhraseLimit bounds the symbols read per name: a project's
// tests pass its flags far more often than its code declares them, and
// come first by bm25 (they are short).
// maxCommandFiles bounds the files read per slice to check the quotes: a
// word as common as help is in the prose of most files.
const (
	maxCommandNames    = 8
	maxCommandHolders  = 5
	commandPhraseLimit = 1000
	maxCommandFiles    = 64
)

// commandNames returns the literals of text's command lines worth looking
// up: its flags ("--collect-only"), and the subcommands of the commands
// at a prompt whose program is the project's own (isProject).
func commandNames(text string, isProject func(string) bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] && len(out) < maxCommandNames {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, m := range taskFlag().FindAllStringSubmatch(text, 4*maxCommandNames) {
		add("--" + m[1])
	}
	for _, m := range promptCommand().FindAllStringSubmatch(text, 4*maxCommandNames) {
		if isProject(m[1]) {
			add(m[2])
		}
	}
	return out
}

// isProjectPackage tells whether a program is the project's own: a folder
// of the repository has its name (src/flask/ for flask), where `pip` or
// `git` at a prompt runs someone else's.
func (x *Index) isProjectPackage(ctx context.Context, prog string) bool {
	var one int
	// escaped: a program's name may hold _, which LIKE reads as any character
	p := likeEscape(prog)
	err := x.DB.QueryRowContext(ctx, `SELECT 1 FROM paths WHERE path LIKE ? ESCAPE '\' OR path LIKE ? ESCAPE '\' LIMIT 1`,
		p+"/%", "%/"+p+"/%").Scan(&one)
	return err == nil
}

// commandScores returns the symbols that hold a command-line name of
// text as a string literal, with their exact-lane score.
func (x *Index) commandScores(ctx context.Context, text string) (map[string]float64, error) {
	out := map[string]float64{}
	files := map[string][][]byte{} // path -> lines
	for _, name := range commandNames(text, func(p string) bool { return x.isProjectPackage(ctx, p) }) {
		words := strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(name))
		hits, err := x.ftsSearch(ctx, `{words} : "`+words+`"`, commandPhraseLimit)
		if err != nil {
			return nil, fmt.Errorf("command-line names: %w", err)
		}
		// argparse and click quote a flag with its dashes, clap, cobra and
		// Go's flag package without ("paging" for --paging)
		bare := strings.TrimLeft(name, "-")
		quoted := [][]byte{[]byte(`"` + name + `"`), []byte(`'` + name + `'`), []byte(`"` + bare + `"`), []byte(`'` + bare + `'`)}
		var holders []string
		for _, h := range hits {
			if !h.current || h.isTest || namesTest(h.name) || namesTest(h.container) {
				continue
			}
			lines, ok := files[h.path]
			if !ok && len(files) == maxCommandFiles {
				continue
			}
			if !ok {
				data, err := x.readFile(h.path)
				if err == nil {
					lines = bytes.Split(data, []byte("\n"))
				}
				files[h.path] = lines // nil when unreadable: not checked again
			}
			if h.lines[0] < 1 || h.lines[1] > len(lines) {
				continue
			}
			body := bytes.Join(lines[h.lines[0]-1:h.lines[1]], []byte("\n"))
			if slices.ContainsFunc(quoted, func(q []byte) bool { return bytes.Contains(body, q) }) {
				if holders = append(holders, h.id); len(holders) > maxCommandHolders {
					break
				}
			}
		}
		if len(holders) == 0 || len(holders) > maxCommandHolders {
			continue
		}
		w := 1 / math.Sqrt(float64(len(holders)))
		for _, id := range holders {
			out[id] = max(out[id], w)
		}
	}
	return out, nil
}

// namesTest tells a name that says it is a test (test_collect, TestConfig)
// in a file its language does not call a test file (pytest's testing/).
func namesTest(name string) bool {
	parts := lang.SplitIdent(name)
	return len(parts) > 0 && (parts[0] == "test" || parts[0] == "tests")
}
