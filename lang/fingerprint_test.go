package lang

import "testing"

// TestContainerFingerprint: a container's fingerprint covers its own code
// and which members it has, not its members' bodies, so that editing a
// method does not mark its class (or a function its file) as changed.
func TestContainerFingerprint(t *testing.T) {
	p := NewParser()
	defer p.Close()
	fp := func(lang, path, src string) map[string]string {
		f, err := Extract(p, ByName(lang), path, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for i := range f.Symbols {
			out[f.Symbols[i].Kind+" "+f.Symbols[i].Qualified()] = f.Symbols[i].Fingerprint
		}
		return out
	}
	for _, c := range []struct {
		lang, path, base, body, member string
		container, changed             string
	}{
		{"python", "shop.py",
			"class Shop:\n    def add(self, x):\n        return x + 1\n    pass\n",
			"class Shop:\n    def add(self, x):\n        return 1 + x\n    pass\n",
			"class Shop:\n    def add(self, x):\n        return x + 1\n    def drop(self):\n        pass\n    pass\n",
			"class Shop", "method Shop.add"},
		{"go", "a.go",
			"package a\n\nfunc F() int {\n\treturn 1\n}\n\nimport \"os\"\n",
			"package a\n\nfunc F() int {\n\treturn 2\n}\n\nimport \"os\"\n",
			"package a\n\nfunc F() int {\n\treturn 1\n}\n\nfunc G() {}\n\nimport \"os\"\n",
			"module ", "function F"},
	} {
		base, body, member := fp(c.lang, c.path, c.base), fp(c.lang, c.path, c.body), fp(c.lang, c.path, c.member)
		var key string
		for k := range base {
			if len(k) >= len(c.container) && k[:len(c.container)] == c.container {
				key = k
			}
		}
		if key == "" {
			t.Fatalf("%s: no %q in %v", c.lang, c.container, base)
		}
		if base[key] != body[key] {
			t.Errorf("%s: editing %s changed %s's fingerprint", c.lang, c.changed, key)
		}
		if base[c.changed] == body[c.changed] {
			t.Errorf("%s: editing %s left its own fingerprint alone", c.lang, c.changed)
		}
		if c.lang == "python" && base[key] == member[key] {
			t.Errorf("%s: a new member left %s's fingerprint alone", c.lang, key)
		}
	}
}
