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

func TestCommitScopes(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"fix(context): skip chmod on pre-existing dirs", []string{"context"}},
		{"reverseproxy: fix broken reservoir sampling", []string{"reverseproxy"}},
		{"fix(axum-extra): reject opaque Attachment filenames", []string{"axumextra"}},
		{"axum-core: fix nested error downcast", []string{"axumcore"}},
		{"feat(cli)!: drop the old flag", []string{"cli"}},
		{"fix(http1,http2): headers", []string{"http1", "http2"}},
		{"fix: prefer-object-spread add semicolon", nil},    // a type, no scope
		{"Fix cookie lookup for dotless hosts", nil},        // prose
		{"Fix a bug. Note: the cache is kept", nil},         // a colon later on
		{"[7.x] Fix cross-domain cookie leakage", nil},      // no colon
		{"http://example.com fails to parse", nil},          // no space after the colon
		{"secret key rotation: fix key list ordering", nil}, // prose before a colon
	} {
		got := commitScopes(c.text)
		if len(got) != len(c.want) {
			t.Errorf("commitScopes(%q) = %q, want %q", c.text, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("commitScopes(%q) = %q, want %q", c.text, got, c.want)
			}
		}
	}
}

func TestScopeNames(t *testing.T) {
	for _, c := range []struct {
		scope, path string
		want        bool
	}{
		{"context", "context.go", true},
		{"http", "lib/http.c", true},
		{"cli", "src/client.rs", false}, // short: the part must equal it
		{"axumextra", "axum-extra/src/response/attachment.rs", true},
		{"jsonlines", "axum-extra/src/json_lines.rs", true},
		{"jsonschema", "packages/zod/src/v4/core/to-json-schema.ts", true},
		{"v4", "packages/zod/src/v4/core/util.ts", true},
		{"v4", "packages/zod/src/v3/types.ts", false},
		{"render", "context.go", false},
	} {
		if got := scopeNames(c.scope, c.path); got != c.want {
			t.Errorf("scopeNames(%q, %q) = %v, want %v", c.scope, c.path, got, c.want)
		}
	}
}
