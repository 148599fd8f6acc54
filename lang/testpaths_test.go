package lang

import "testing"

// TestTestPathRules pins the decisions the per-language data files make
// where the predicates they replaced disagreed.
func TestTestPathRules(t *testing.T) {
	for p, want := range map[string]bool{
		"pkg/x_test.go":             true,
		"src/testing/testing.go":    false, // a package named testing is not a test
		"test/fixedbugs/issue1.go":  false, // nor is GOROOT's test/ directory of programs
		"pkg/tests/helpers.py":      true,
		"pkg/testing/helpers.py":    false,
		"pkg/__tests__/helpers.py":  false,
		"src/test/java/a/B.java":    true,
		"test/a/B.java":             true,
		"src/a/FooIT.java":          true,
		"src/a/Testing.java":        false,
		"src/a.test.ts":             true,
		"src/__mocks__/a.tsx":       true,
		"lib/a_spec.rb":             true,
		"spec/support/a.rb":         true,
		"src/foo_unittest.cc":       true,
		"include/testing/x.h":       true,
		"app/src/androidTest/A.kt":  true,
		"app/src/com.acmeTest/A.kt": false,
		"Tests/CoreTests/A.swift":   true,
		"crate/tests/it.rs":         true,
		"crate/src/tests.rs":        true,
		"crate/src/testing.rs":      false,
		"scripts/test_deploy.sh":    true,
		"Shop.Tests/CartSpec.cs":    true,
		"tests/Unit/CartTest.php":   true,
		"docs/tests/readme.md":      false, // a file of no language
	} {
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%s) = %v, want %v", p, got, want)
		}
	}
}

// TestTestPathData checks that every language has test-path patterns and
// that a malformed line is refused rather than read as no pattern.
func TestTestPathData(t *testing.T) {
	for _, l := range All() {
		if len(l.testPaths) == 0 {
			t.Errorf("%s: no test-path patterns", l.Name)
		}
	}
	for _, bad := range []string{"stem", "file *_test.go", "dir [", "dir *Test *.*", "a b c d"} {
		if _, err := parseTestPaths("x", []string{bad}); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}
