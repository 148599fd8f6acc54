package query

import "testing"

func TestPeripheralPart(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"tools/check-emfile-handling.js", "tools/"},
		{"packages/zod/scripts/gen.ts", "scripts/"},
		{"Examples/Basic/main.swift", "Examples/"},
		{"doc/en/example/multipython.py", "example/"},
		{"Makefile.js", "Makefile.js"},
		{"build.gradle.kts", "build.gradle.kts"},
		{"setup.py", "setup.py"},
		{"lib/eslint/eslint.js", ""},
		{"doc/yaml_docs.go", ""}, // cobra's doc package is the product
		{"src/setup.py", ""},     // a module named setup below the top
		{"lib/tools.js", ""},     // a file, not a folder, named tools
		{"src/proto/h1/role.rs", ""},
		{"src/main/java/com/example/shop/Store.java", ""}, // a package name
		{"examples/basic/src/main.rs", "examples/"},
	} {
		if got := peripheralPart(c.path); got != c.want {
			t.Errorf("peripheralPart(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}

func TestNamesPart(t *testing.T) {
	for _, c := range []struct {
		text, part string
		want       bool
	}{
		{"the release script in tools/ skips tags", "tools/", true},
		{"for example, a number as the first expression", "example/", false},
		{"setup.py does not list the extras", "setup.py", true},
		{"the setup of a fixture runs twice", "setup.py", false},
	} {
		if got := namesPart(c.text, c.part); got != c.want {
			t.Errorf("namesPart(%q, %q) = %v, want %v", c.text, c.part, got, c.want)
		}
	}
}
