package query

import (
	"regexp"
	"strconv"
	"strings"
)

// Frame is one frame of a stack trace: a file and line, and the function
// when the trace names it.
type Frame struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Function string `json:"function,omitempty"`
}

var (
	// Python: File "x/y.py", line 12, in handle
	framePython = regexp.MustCompile(`File "([^"]+)", line (\d+)(?:, in ([\w<>.]+))?`)
	// Java: at com.x.Y.method(Y.java:42)
	frameJava = regexp.MustCompile(`at ([\w$.<>]+)\(([\w$]+\.(?:java|kt|scala)):(\d+)\)`)
	// JavaScript: at fn (src/a.js:10:5) | at src/a.js:10:5
	frameJS = regexp.MustCompile(`at (?:([\w$.<>\[\] ]+?) \()?((?:[A-Za-z]:)?[^\s()]+\.(?:js|jsx|mjs|cjs|ts|tsx|mts|cts)):(\d+)(?::\d+)?\)?`)
	// Go: main.(*Server).Handle(...) then \t/path/x.go:123 +0x1f
	frameGoFunc = regexp.MustCompile(`^([\w./-]+?(?:\.\(\*?[\w]+\))?\.[\w]+)\(`)
	frameGoLine = regexp.MustCompile(`^\s+(\S+\.go):(\d+)`)
	// Anything else: path/file.ext:line (Rust, C, compilers, test runners)
	frameAny = regexp.MustCompile(`((?:[A-Za-z]:)?[\w./\\-]*[\w-]+\.(?:go|py|pyi|js|jsx|mjs|cjs|ts|tsx|mts|cts|rs|java|c|h|cc|cpp|hpp|cs|rb|php|sh|kt|swift)):(\d+)`)
)

// maxFrames bounds the work on a hostile trace.
const maxFrames = 200

// ParseStackTrace extracts the frames of a stack trace in any of the
// formats of Python, Go, Java, JavaScript/TypeScript and Rust, innermost
// (most relevant) first as the trace lists them. Lines that are not frames
// are ignored; any text is accepted.
func ParseStackTrace(text string) []Frame {
	if len(text) > 1<<20 {
		text = text[:1<<20]
	}
	var out []Frame
	seen := map[string]bool{}
	add := func(f Frame) {
		f.File = strings.TrimPrefix(strings.ReplaceAll(f.File, "\\", "/"), "./")
		k := f.File + ":" + strconv.Itoa(f.Line)
		if f.File == "" || f.Line <= 0 || seen[k] || len(out) >= maxFrames {
			return
		}
		seen[k] = true
		out = append(out, f)
	}
	pendingGoFunc := ""
	for _, line := range strings.Split(text, "\n") {
		if len(line) > 2000 {
			line = line[:2000]
		}
		if m := framePython.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			add(Frame{File: m[1], Line: n, Function: m[3]})
			continue
		}
		if m := frameJava.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[3])
			fn := m[1]
			if i := strings.LastIndexByte(fn, '.'); i >= 0 {
				fn = fn[i+1:]
			}
			add(Frame{File: m[2], Line: n, Function: fn})
			continue
		}
		if m := frameGoLine.FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "\t") {
			n, _ := strconv.Atoi(m[2])
			add(Frame{File: m[1], Line: n, Function: pendingGoFunc})
			pendingGoFunc = ""
			continue
		}
		if m := frameGoFunc.FindStringSubmatch(line); m != nil {
			fn := m[1]
			if i := strings.LastIndexByte(fn, '.'); i >= 0 {
				fn = fn[i+1:]
			}
			pendingGoFunc = fn
			continue
		}
		if m := frameJS.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[3])
			fn := strings.TrimSpace(m[1])
			if i := strings.LastIndexByte(fn, '.'); i >= 0 {
				fn = fn[i+1:]
			}
			add(Frame{File: m[2], Line: n, Function: fn})
			continue
		}
		for _, m := range frameAny.FindAllStringSubmatch(line, 4) {
			n, _ := strconv.Atoi(m[2])
			add(Frame{File: m[1], Line: n})
		}
	}
	return out
}
