package lang

// GrammarKinds and GrammarFields give the external tests (kinds_test.go) a grammar's node
// kinds and field names.
func (l *Language) GrammarKinds() []string { l.loadNames(); return l.kinds }

func (l *Language) GrammarFields() []string { l.loadNames(); return l.fields }
