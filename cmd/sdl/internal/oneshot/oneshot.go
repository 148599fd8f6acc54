// Package oneshot sets the garbage collector of a terminal command that
// asks the index one question and exits, before the init of the packages
// it links runs. Those inits allocate about 3.6 MB (jsonschema/v6 compiles
// its meta-schemas, the language rooms build their word tables), which
// reaches the trigger of the first collection (a 4 MB goal): a slice
// process collected its start-up garbage, 1.5-5 ms of CPU, for memory its
// exit frees anyway. A package's init runs once its imports' have, lowest
// import path first among those ready, and this one imports only os,
// runtime/debug, sort and strings, so it runs before them
// (GODEBUG=inittrace=1 shows the order). GOGC in the environment takes
// precedence.
package oneshot

import (
	"os"
	"runtime/debug"
	"sort"
	"strings"
)

// GCPercent is the GOGC of a one-shot command. At the default 100 a slice
// of GOROOT/src collects a heap of 2-5 MB three times for memory the exit
// frees anyway; at 400 it collects at most once, and a large live heap
// still meets a collector at five times its size.
const GCPercent = 400

// commands ask the index one question and exit.
var commands = map[string]bool{"search": true, "card": true, "slice": true, "skeleton": true, "hotpath": true,
	"window": true, "summary": true, "spillover": true, "delta": true, "risk": true, "info": true}

func init() {
	if Is(os.Args) {
		SetGC()
	}
}

// Is tells whether args (the program name first) run a one-shot command:
// its first word that is not a flag names one.
func Is(args []string) bool {
	for _, a := range args[min(1, len(args)):] {
		if !strings.HasPrefix(a, "-") {
			return commands[a]
		}
	}
	return false
}

// Names lists the one-shot commands, sorted.
func Names() []string {
	out := make([]string, 0, len(commands))
	for c := range commands {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// SetGC sets GCPercent unless GOGC says otherwise.
func SetGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
}
