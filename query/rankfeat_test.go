package query

import "testing"

func TestPeripheralPart(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"tools/check-emfile-handling.js", "tools"},
		{"packages/zod/scripts/gen.ts", "scripts"},
		{"Examples/Basic/main.swift", "Examples"},
		{"Makefile.js", "Makefile"},
		{"build.gradle.kts", "build.gradle"},
		{"setup.py", "setup"},
		{"lib/eslint/eslint.js", ""},
		{"doc/yaml_docs.go", ""}, // cobra's doc package is the product
		{"src/setup.py", ""},     // a module named setup below the top
		{"lib/tools.js", ""},     // a file, not a folder, named tools
		{"src/proto/h1/role.rs", ""},
		{"src/main/java/com/example/shop/Store.java", ""}, // a package name
		{"examples/basic/src/main.rs", "examples"},
	} {
		if got := peripheralPart(c.path); got != c.want {
			t.Errorf("peripheralPart(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
