package index

import "testing"

// Every compiled-in grammar parses its sample without an error, and every
// language has a sample (an empty file proves little).
func TestCheckGrammars(t *testing.T) {
	checks := CheckGrammars()
	if len(checks) < 9 {
		t.Fatalf("only %d grammars registered", len(checks))
	}
	for _, g := range checks {
		if !g.OK {
			t.Errorf("%s: %s", g.Language, g.Problem)
		}
		if grammarSamples[g.Language] == "" {
			t.Errorf("%s: no sample in grammarSamples", g.Language)
		}
	}
}
