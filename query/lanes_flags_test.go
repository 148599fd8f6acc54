package query

import (
	"slices"
	"testing"
)

func TestCommandNames(t *testing.T) {
	text := "pytest --collect-only needs a shortcut; `--fixtures` too, and -- not a flag\n" +
		"$ flask routes\n$ pip list\n  $ flask run --debug\nthe --collect-only flag"
	own := func(prog string) bool { return prog == "flask" }
	got := commandNames(text, own)
	want := []string{"--collect-only", "--fixtures", "--debug", "routes", "run"}
	if !slices.Equal(got, want) {
		t.Errorf("commandNames = %q, want %q", got, want)
	}
}
