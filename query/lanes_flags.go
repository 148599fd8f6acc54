package query

import (
	"bytes"
	"context"
	"math"
	"regexp"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// A command-line flag a task names (`pytest --collect-only`) is a name the
// program defines, as an identifier is: the code that declares it holds
// the flag as a string literal, whole. The words column of the full-text
// index has lost the dashes ("collect only", as prose has it too), so
// flagScores finds the symbols whose words hold the flag's words and
// keeps those whose source holds the quoted flag. Each gets the exact
// lane's score of a name n symbols share, 1/sqrt(n).
var taskFlag = regexp.MustCompile("(?:^|[\\s`'\"(\\[])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\\b")

// maxFlags bounds the flags looked up per slice; maxFlagHolders is the
// most symbols (tests aside) that may hold one flag for it to say where.
// flagPhraseLimit bounds the symbols read per flag: a project's tests
// pass its flags far more often than its code declares them, and come
// first by bm25 (they are short).
const (
	maxFlags        = 8
	maxFlagHolders  = 5
	flagPhraseLimit = 1000
)

// flagScores returns the symbols that hold a flag of text as a string
// literal, with their exact-lane score.
func (x *Index) flagScores(ctx context.Context, text string) (map[string]float64, error) {
	out := map[string]float64{}
	seen := map[string]bool{}
	files := map[string][][]byte{} // path -> lines
	for _, m := range taskFlag.FindAllStringSubmatch(text, 4*maxFlags) {
		flag := m[1]
		if seen[flag] || len(seen) == maxFlags {
			continue
		}
		seen[flag] = true
		hits, err := x.ftsSearch(ctx, `{words} : "`+strings.ReplaceAll(flag, "-", " ")+`"`, flagPhraseLimit)
		if err != nil {
			return nil, err
		}
		quoted := [][]byte{[]byte(`"--` + flag + `"`), []byte(`'--` + flag + `'`)}
		var holders []string
		for _, h := range hits {
			if !h.current || h.isTest || namesTest(h.name) || namesTest(h.container) {
				continue
			}
			lines, ok := files[h.path]
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
			if bytes.Contains(body, quoted[0]) || bytes.Contains(body, quoted[1]) {
				holders = append(holders, h.id)
			}
		}
		if len(holders) == 0 || len(holders) > maxFlagHolders {
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
