package lang

import (
	"fmt"
	"strings"
	"testing"
)

// A long function's messages reach the full-text index past maxWords: the
// error-message lane finds the function that raises a message late in it,
// while repeated and one-word literals still stop at maxWords.
func TestWordsKeepLateMessages(t *testing.T) {
	var src strings.Builder
	src.WriteString("def add_options(parser):\n")
	for i := range 60 {
		fmt.Fprintf(&src, "    parser.add(%q, help=%q)\n", fmt.Sprintf("--option-%d", i), "an option of no interest here")
		fmt.Fprintf(&src, "    parser.set(%q)\n", fmt.Sprintf("key%d", i))
	}
	src.WriteString("    parser.add(\"--collect-only\", help=\"only collect tests, don't execute them\")\n")
	src.WriteString("    raise ValueError(\"the basetemp folder cannot be created\")\n")
	f := moreExtract(t, "python", "opts.py", src.String())
	s := moreSym(t, f, "add_options")
	for _, want := range []string{"collect only", "only collect tests", "basetemp folder cannot be created"} {
		if !strings.Contains(s.Words, want) {
			t.Errorf("words lack %q (%d bytes)", want, len(s.Words))
		}
	}
	msg := "an option of no interest here"
	if strings.Count(s.Words, msg) != strings.Count(s.Words[:maxWords], msg) || strings.Contains(s.Words, "key59") {
		t.Errorf("words past maxWords keep a repeated message or a one-word literal: %d bytes", len(s.Words))
	}
	if len(s.Words) > maxMessageWords {
		t.Errorf("words hold %d bytes, above maxMessageWords %d", len(s.Words), maxMessageWords)
	}
}
