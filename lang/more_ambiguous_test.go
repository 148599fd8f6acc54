package lang

import "testing"

// Ambiguity per language: two candidates and nothing to choose between
// them bind nothing.

func TestCSharpResolveAmbiguous(t *testing.T) {
	tab, facts := newMoreTestTable(t, "csharp", map[string]string{
		"A/Clock.cs": "namespace A { public class Clock { public void Tick() {} } }",
		"B/Clock.cs": "namespace B { public class Clock { public void Tick() {} } }",
		"C/Use.cs":   "using A;\nusing B;\nnamespace C { class Use { void Go() { var c = new Clock(); } } }",
	}, nil)
	wantAll(t, tab.resolveAll(facts), "C/Use.cs: Use.Go new Clock -> ? (ambiguous)")
}

func TestRubyResolveAmbiguous(t *testing.T) {
	tab, facts := newMoreTestTable(t, "ruby", map[string]string{
		"lib/a.rb":   "module A\n  def self.rebalance_all; end\nend\n",
		"lib/b.rb":   "module B\n  def self.rebalance_all; end\nend\n",
		"lib/use.rb": "class Use\n  def go(x)\n    x.rebalance_all\n  end\nend\n",
	}, nil)
	wantAll(t, tab.resolveAll(facts), "lib/use.rb: Use.go call x.rebalance_all -> ? (ambiguous)")
}

func TestPHPResolveAmbiguous(t *testing.T) {
	tab, facts := newMoreTestTable(t, "php", map[string]string{
		"src/A/Clock.php": "<?php\nnamespace A;\nclass Clock { public function rewindAll() {} }\n",
		"src/B/Clock.php": "<?php\nnamespace B;\nclass Clock { public function rewindAll() {} }\n",
		"src/Use.php":     "<?php\nfunction go($x) { $x->rewindAll(); }\n",
	}, nil)
	wantAll(t, tab.resolveAll(facts), "src/Use.php: go call $x.rewindAll -> ? (ambiguous)")
}
