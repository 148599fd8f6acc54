package main

import (
	"io"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/cmd/sdl/internal/oneshot"
)

// The commands whose collector is set before package init (oneshot) are
// commands of sdl, and they are told by their first word that is not a
// flag; the commands that write or serve are not among them.
func TestOneShotCommands(t *testing.T) {
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	for _, name := range oneshot.Names() {
		if app.Command(name) == nil {
			t.Errorf("oneshot lists %q, which is no command of sdl", name)
		}
	}
	for args, want := range map[string]bool{"sdl slice fix the timeout": true, "sdl search --db x.db foo": true,
		"sdl index": false, "sdl serve": false, "sdl gc --keep 3": false, "sdl": false, "sdl --help": false} {
		if got := oneshot.Is(strings.Fields(args)); got != want {
			t.Errorf("oneshot.Is(%q) = %v, want %v", args, got, want)
		}
	}
}
