package lang

import (
	"fmt"
	"path"
	"strings"
)

// pathRule is one line of a testpaths.txt: where in the path a glob
// (path.Match) is tried, and a glob the same part must not match.
type pathRule struct {
	where string // dir: any directory; dirs: consecutive directories; base; stem; lstem: the stem lower-cased
	glob  string
	not   string
}

// testPathRules are a language's patterns of test files: a path matching
// any of them is a test.
type testPathRules []pathRule

// parseTestPaths reads the lines of a testpaths.txt.
func parseTestPaths(lang string, lines []string) (testPathRules, error) {
	var out testPathRules
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("data/%s/testpaths.txt: %q: want WHERE GLOB [!GLOB]", lang, l)
		}
		r := pathRule{where: f[0], glob: f[1]}
		if len(f) == 3 {
			if !strings.HasPrefix(f[2], "!") {
				return nil, fmt.Errorf("data/%s/testpaths.txt: %q: the third field is !GLOB", lang, l)
			}
			r.not = f[2][1:]
		}
		switch r.where {
		case "dir", "dirs", "base", "stem", "lstem":
		default:
			return nil, fmt.Errorf("data/%s/testpaths.txt: %q: no place %q", lang, l, r.where)
		}
		for _, g := range []string{r.glob, r.not} {
			if _, err := path.Match(g, ""); err != nil {
				return nil, fmt.Errorf("data/%s/testpaths.txt: %q: %w", lang, l, err)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func (r pathRule) matches(s string) bool {
	ok, _ := path.Match(r.glob, s)
	if ok && r.not != "" {
		bad, _ := path.Match(r.not, s)
		return !bad
	}
	return ok
}

func (rs testPathRules) match(p string) bool {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	dir := path.Dir(p)
	for _, r := range rs {
		switch r.where {
		case "base":
			if r.matches(base) {
				return true
			}
		case "stem":
			if r.matches(stem) {
				return true
			}
		case "lstem":
			if r.matches(strings.ToLower(stem)) {
				return true
			}
		case "dir":
			for _, seg := range strings.Split(dir, "/") {
				if r.matches(seg) {
					return true
				}
			}
		case "dirs":
			if strings.Contains("/"+dir+"/", "/"+r.glob+"/") {
				return true
			}
		}
	}
	return false
}

// IsTestPath reports whether a repository path is a test file by the
// conventions of its language (<language>/testpaths.txt), for a caller
// that knows a path alone (serve's filters over answers). Extraction marks
// FileFacts.IsTest by the parsed language's rules, and resolution reads
// that flag from its Targets and FileInfos (TestFile), never the path. A
// file of no language is not a test.
func IsTestPath(p string) bool {
	l := ForPath(p)
	return l != nil && l.IsTestPath(p)
}

// IsTestPath reports whether p is a test file by l's conventions, for a
// file parsed as l whatever its name says.
func (l *Language) IsTestPath(p string) bool { return l.testPaths.match(p) }
