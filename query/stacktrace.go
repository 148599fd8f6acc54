package query

import (
	"strconv"
	"strings"
)

// Frame is one frame of a stack trace: a file and line, and the function
// when the trace names it. Library marks a frame whose path is that of an
// installed package, a standard library or a runtime rather than of a
// project (site-packages, node_modules, /usr/lib, GOROOT...).
type Frame struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Function string `json:"function,omitempty"`
	Library  bool   `json:"library,omitempty"`
}

var (
	// Python: File "x/y.py", line 12, in handle
	framePython = lazyRegexp(`File "([^"]+)", line (\d+)(?:, in ([\w<>.]+))?`)
	// pytest's report: src/x.py:12: in handle | x.py:12: AssertionError
	framePytest = lazyRegexp(`^\s*(\S+\.py):(\d+): (?:in ([\w<>.]+)|\w*(?:Error|Exception|Failed|Warning|Exit|Interrupt)\b)`)
	// Java: at com.x.Y.method(Y.java:42)
	frameJava = lazyRegexp(`at ([\w$.<>]+)\(([\w$]+\.(?:java|kt|scala)):(\d+)\)`)
	// JavaScript: at fn (src/a.js:10:5) | at src/a.js:10:5
	frameJS = lazyRegexp(`at (?:([\w$.<>\[\] ]+?) \()?((?:[A-Za-z]:)?[^\s()]+\.(?:js|jsx|mjs|cjs|ts|tsx|mts|cts)):(\d+)(?::\d+)?\)?`)
	// Go: main.(*Server).Handle(...) then \t/path/x.go:123 +0x1f
	frameGoFunc = lazyRegexp(`^([\w./-]+?(?:\.\(\*?[\w]+\))?\.[\w]+)\(`)
	frameGoLine = lazyRegexp(`^\s+(\S+\.go):(\d+)`)
	// Anything else: path/file.ext:line (Rust, C, compilers, test runners)
	// (a drive letter only at the start of a word: not the s of "%(name)s:a.py")
	frameAny = lazyRegexp(`(?:^|[^\w])((?:[A-Za-z]:)?[\w./\\-]*[\w-]+\.(?:go|py|pyi|js|jsx|mjs|cjs|ts|tsx|mts|cts|rs|java|c|h|cc|cpp|hpp|cs|rb|php|sh|kt|swift)):(\d+)`)
	// libraryPath: where installed packages, standard libraries and
	// runtimes live, whatever the platform.
	libraryPath = lazyRegexp(`(?i)(?:^|/)(?:site-packages|dist-packages|node_modules|\.cargo/registry|\.rustup|rustc|go/pkg/mod|\.m2|\.gradle|vendor|third_party)/` +
		`|(?:^|/)(?:usr|opt)/(?:local/)?(?:lib|lib64|share|go/src)/|(?:^|/)python\d*(?:\.\d+)?/lib/|(?:^|/)lib/python\d|^<|^node:`)
	// libraryJava: the classes of the JDK and of common runtimes.
	libraryJava = lazyRegexp(`^(?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|org\.junit|junit)\.`)
)

// Bounds on the work on a hostile trace.
const (
	// maxFrames: frames returned.
	maxFrames = 200
	// maxFrameLine: bytes of one line read.
	maxFrameLine = 2000
	// maxTraceText: bytes of text read.
	maxTraceText = 1 << 20
)

// rawFrame is a frame with the order of its trace: Python's tracebacks
// and pytest's reports list the innermost call last, every other format
// first.
type rawFrame struct {
	Frame
	innerLast bool
}

// ParseStackTrace extracts the frames of the stack traces in text, in any
// of the formats of Python (and pytest), Go, Java, JavaScript/TypeScript
// and Rust, innermost (most relevant) first: a Python traceback, which
// lists the innermost call last, is reversed. Each file:line is reported
// once. Lines that are not frames are ignored; any text is accepted.
func ParseStackTrace(text string) []Frame {
	if len(text) > maxTraceText {
		text = text[:maxTraceText]
	}
	var raw []rawFrame
	add := func(f Frame, innerLast bool) {
		f.File = strings.TrimPrefix(strings.ReplaceAll(f.File, "\\", "/"), "./")
		if f.File == "" || f.Line <= 0 || len(raw) >= 4*maxFrames {
			return
		}
		f.Library = f.Library || libraryPath().MatchString(f.File)
		raw = append(raw, rawFrame{Frame: f, innerLast: innerLast})
	}
	pendingGoFunc := ""
	for _, line := range strings.Split(text, "\n") {
		if len(line) > maxFrameLine {
			line = line[:maxFrameLine]
		}
		line = strings.TrimSuffix(line, "\r")
		if m := framePython().FindStringSubmatch(line); m != nil {
			add(Frame{File: m[1], Line: atoi(m[2]), Function: m[3]}, true)
			continue
		}
		if m := framePytest().FindStringSubmatch(line); m != nil {
			add(Frame{File: m[1], Line: atoi(m[2]), Function: m[3]}, true)
			continue
		}
		if m := frameJava().FindStringSubmatch(line); m != nil {
			add(Frame{File: m[2], Line: atoi(m[3]), Function: lastDotted(m[1]), Library: libraryJava().MatchString(m[1])}, false)
			continue
		}
		if m := frameGoLine().FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "\t") {
			add(Frame{File: m[1], Line: atoi(m[2]), Function: pendingGoFunc}, false)
			pendingGoFunc = ""
			continue
		}
		if m := frameGoFunc().FindStringSubmatch(line); m != nil {
			pendingGoFunc = lastDotted(m[1])
			continue
		}
		if m := frameJS().FindStringSubmatch(line); m != nil {
			add(Frame{File: m[2], Line: atoi(m[3]), Function: lastDotted(strings.TrimSpace(m[1]))}, false)
			continue
		}
		for _, m := range frameAny().FindAllStringSubmatch(line, 4) {
			add(Frame{File: m[1], Line: atoi(m[2])}, false)
		}
	}
	// reverse each run of innermost-last frames
	for i := 0; i < len(raw); {
		j := i + 1
		for j < len(raw) && raw[j].innerLast == raw[i].innerLast {
			j++
		}
		if raw[i].innerLast {
			for a, b := i, j-1; a < b; a, b = a+1, b-1 {
				raw[a], raw[b] = raw[b], raw[a]
			}
		}
		i = j
	}
	var out []Frame
	seen := map[string]bool{}
	for _, r := range raw {
		k := r.File + ":" + strconv.Itoa(r.Line)
		if seen[k] || len(out) >= maxFrames {
			continue
		}
		seen[k] = true
		out = append(out, r.Frame)
	}
	return out
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// lastDotted is the last part of a dotted name: handle of app.Server.handle.
func lastDotted(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}
