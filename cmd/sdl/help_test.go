package main

import (
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestFlagHelpSaysWhatZeroMeans walks every command's flags: a number whose
// default is zero says what zero means ("--max-lines (default: 0)" reads as
// "at most 0 lines" when it means no limit), and a required flag shows no
// default but says it is required ("sdl gc --keep (default: 0)", then
// "Required flag not set").
func TestFlagHelpSaysWhatZeroMeans(t *testing.T) {
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	var walk func(path string, cmds []*cli.Command)
	checked := 0
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(path + " " + c.Name)
			for _, f := range c.Flags {
				help := f.String()
				checked++
				if strings.Contains(help, "(default: 0)") {
					t.Errorf("sdl %s: %q: say what 0 means (DefaultText)", name, help)
				}
				if r, ok := f.(cli.RequiredFlag); ok && r.IsRequired() && !strings.Contains(help, "required") {
					t.Errorf("sdl %s: %q: say that it is required", name, help)
				}
			}
			walk(name, c.Subcommands)
		}
	}
	walk("", app.Commands)
	if checked < 50 {
		t.Fatalf("only %d flags checked", checked)
	}
}
