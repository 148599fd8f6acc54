package query

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles src on its first use. A terminal command runs the
// package's init once per process, and the patterns of the task-text
// lanes (a bounded repetition such as {6,300} compiles to hundreds of
// states) cost about 2 ms of CPU and 1 MB to compile: most commands never
// use them, and a slice only those its text can match.
func lazyRegexp(src string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
}
