package query

import (
	"strings"
)

// A bug report often pastes its environment: the output of `pip list` or
// `pip freeze`, a `pip install` log. Their package names are words of the
// text that say nothing of the code (a table header "Package Version"
// names pytest's Package class; PyYAML and GitPython read as identifiers),
// and they take the lanes' term budget before the report's own words.
// withoutEnvironment drops them before the task text is cut into terms.
var (
	// packageLine is one package of a listing: "attrs  19.1.0",
	// "attrs==19.3.0", "py  1.8.0  /home/u/src/py"
	packageLine = lazyRegexp(`^\s*[A-Za-z][\w.\-\[\]]*(?:\s+|\s*[=<>~!]=\s*)v?\d+(?:\.[\w+\-]+)+(?:\s+\S+)?\s*$`)
	// packageHeader is a listing's header ("Package  Version  Location")
	// or rule line ("------- -------")
	packageHeader = lazyRegexp(`(?i)^\s*(?:package|name)\s+version(?:\s+\w+)*\s*$|^[\s\-=+|]+$`)
	// pipLog is a line of pip's log, which lists packages on one line
	pipLog = lazyRegexp(`^\s*(?:Installing collected packages:|Successfully installed |Requirement already satisfied:|Collecting \S+|Downloading \S+|Using cached \S+)`)
)

// minPackageLines is the run of listed packages that makes a listing: a
// report's "pytest 6.2.2" alone is a version it runs, not a dump.
const minPackageLines = 3

// withoutEnvironment returns text without its package listings (runs of
// minPackageLines package lines or more, with their headers) and pip log
// lines; the text itself if it has none.
func withoutEnvironment(text string) string {
	lines := strings.Split(text, "\n")
	drop := make([]bool, len(lines))
	changed := false
	for i := 0; i < len(lines); {
		if pipLog().MatchString(lines[i]) {
			drop[i], changed = true, true
			i++
			continue
		}
		// a run of package lines, headers and rules inside it allowed
		j, n := i, 0
		for j < len(lines) && (packageLine().MatchString(lines[j]) || packageHeader().MatchString(lines[j]) && strings.TrimSpace(lines[j]) != "") {
			if packageLine().MatchString(lines[j]) {
				n++
			}
			j++
		}
		if n >= minPackageLines {
			for k := i; k < j; k++ {
				drop[k] = true
			}
			changed = true
		}
		i = max(j, i+1)
	}
	if !changed {
		return text
	}
	var b strings.Builder
	for i, l := range lines {
		if !drop[i] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
