package query_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sdl-dev/sdl/query"
)

func TestParsePolicyConfig(t *testing.T) {
	def := query.DefaultPolicy()
	if def != (query.Policy{MaxWindowLines: 180, MaxWindowTokens: 1400, RequireIdentifiers: true}) {
		t.Fatalf("defaults %+v", def)
	}
	for _, tc := range []struct {
		text string
		want query.Policy
		set  string
	}{
		{"", def, ""},
		{"# nothing yet\n", def, ""},
		{"index:\n  exclude: [vendor]\n", def, ""},
		{"policy:\n", def, ""},
		{"policy:\n  maxWindowLines: 220\n  maxWindowTokens: 1800\n  requireIdentifiers: false\n  allowBreakGlass: true\n",
			query.Policy{MaxWindowLines: 220, MaxWindowTokens: 1800, AllowBreakGlass: true}, "maxWindowLines,maxWindowTokens,requireIdentifiers,allowBreakGlass"},
		{"policy: {maxWindowLines: 5000, maxWindowTokens: 50}\n", query.Policy{MaxWindowLines: 5000, MaxWindowTokens: 50, RequireIdentifiers: true}, "maxWindowLines,maxWindowTokens"},
		{"policy:\n  maxWindowLines: 1\n", query.Policy{MaxWindowLines: 1, MaxWindowTokens: 1400, RequireIdentifiers: true}, "maxWindowLines"},
		{"policy:\n  maxWindowTokens: 50000\n", query.Policy{MaxWindowLines: 180, MaxWindowTokens: 50000, RequireIdentifiers: true}, "maxWindowTokens"},
	} {
		p, set, err := query.ParsePolicyConfig([]byte(tc.text), "c.yaml")
		if err != nil || p != tc.want || strings.Join(set, ",") != tc.set {
			t.Errorf("%q: %+v %v %v, want %+v %s", tc.text, p, set, err, tc.want, tc.set)
		}
	}
}

// TestPolicyConfigErrors: every bad file is an error naming the file and
// the line, and the rule broken.
func TestPolicyConfigErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"policy:\n  maxWindowLines: 0\n", "c.yaml:2: policy.maxWindowLines: 0 is out of range (1 to 5000)"},
		{"policy:\n  maxWindowLines: 5001\n", "c.yaml:2: policy.maxWindowLines: 5001 is out of range"},
		{"policy:\n  maxWindowTokens: 49\n", "c.yaml:2: policy.maxWindowTokens: 49 is out of range (50 to 50000)"},
		{"policy:\n  maxWindowTokens: 50001\n", "c.yaml:2: policy.maxWindowTokens: 50001 is out of range"},
		{"policy:\n  requireIdentifiers: true\n  maxWindowLines: many\n", `c.yaml:3: policy.maxWindowLines: want a whole number from 1 to 5000, got "many"`},
		{"policy:\n  maxWindowLines: 1.5\n", "c.yaml:2: policy.maxWindowLines: want a whole number"},
		{"policy:\n  allowBreakGlass: yes\n", `c.yaml:2: policy.allowBreakGlass: want true or false, got "yes"`},
		{"policy:\n  allowBreakGlass: [true]\n", "c.yaml:2: policy.allowBreakGlass: want a single value, got a list"},
		{"policy:\n\n  colour: red\n", "c.yaml:3: policy.colour is not a policy field; use maxWindowLines"},
		{"policy:\n  maxWindowLines: 10\n  maxWindowLines: 20\n", "c.yaml:3: policy.maxWindowLines is set twice (first at line 2)"},
		{"policy: [1, 2]\n", "c.yaml:1: policy must be a mapping of fields"},
		{"policy: 3\n", "c.yaml:1: policy must be a mapping"},
		{"- policy\n", "c.yaml:1: the file must be a mapping of sections"},
		{"policy:\n  a: 1\npolicy:\n  b: 2\n", "c.yaml:3: a second policy section"},
		{"policy:\n  maxWindowLines: [1\n", "c.yaml: yaml: line"},
		{"policy:\n\tmaxWindowLines: 3\n", "c.yaml: yaml: line 2:"},
		{"a: 1\n---\nb: 2\n", "c.yaml:2: a second YAML document"},
		{"base: &b {maxWindowLines: 3}\npolicy: *b\n", "c.yaml:2: policy is an alias"},
	} {
		_, _, err := query.ParsePolicyConfig([]byte(tc.text), "c.yaml")
		if !errors.Is(err, query.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

const teamConfig = `# sdl settings for the shop
index:
  exclude: [vendor, third_party] # not ours

# windows need a reason
policy:
  # lines of one window
  maxWindowLines: 120 # small on purpose
  requireIdentifiers: true

memory:
  dir: .sdl-memory
`

func TestPatchPolicyConfig(t *testing.T) {
	out, p, err := query.PatchPolicyConfig([]byte(teamConfig), "c.yaml", map[string]any{"maxWindowLines": 220.0, "allowBreakGlass": true})
	if err != nil {
		t.Fatal(err)
	}
	if p != (query.Policy{MaxWindowLines: 220, MaxWindowTokens: 1400, RequireIdentifiers: true, AllowBreakGlass: true}) {
		t.Errorf("policy %+v", p)
	}
	text := string(out)
	for _, keep := range []string{"# sdl settings for the shop", "exclude: [vendor, third_party] # not ours", "# windows need a reason",
		"# lines of one window", "maxWindowLines: 220 # small on purpose", "requireIdentifiers: true", "allowBreakGlass: true",
		"memory:\n  dir: .sdl-memory"} {
		if !strings.Contains(text, keep) {
			t.Errorf("lost %q:\n%s", keep, text)
		}
	}
	if strings.Contains(text, "120") || strings.Contains(text, "maxWindowTokens") {
		t.Errorf("changed what the patch did not name:\n%s", text)
	}
	// null takes a field out of the file: the default applies again
	out, p, err = query.PatchPolicyConfig(out, "c.yaml", map[string]any{"maxWindowLines": nil})
	if err != nil || p.MaxWindowLines != 180 || strings.Contains(string(out), "maxWindowLines") || !strings.Contains(string(out), "allowBreakGlass: true") {
		t.Errorf("reset: %v %+v\n%s", err, p, out)
	}
	// a new file, from nothing
	out, p, err = query.PatchPolicyConfig(nil, "c.yaml", map[string]any{"maxWindowTokens": 900})
	if err != nil || p.MaxWindowTokens != 900 || !strings.Contains(string(out), "policy:\n  maxWindowTokens: 900\n") {
		t.Errorf("new file: %v\n%s", err, out)
	}
}

func TestPatchPolicyValidation(t *testing.T) {
	for _, tc := range []struct {
		patch map[string]any
		field string
	}{
		{map[string]any{}, "policyPatch"},
		{map[string]any{"maxLines": 10}, "policyPatch.maxLines"},
		{map[string]any{"maxWindowLines": 0}, "policyPatch.maxWindowLines"},
		{map[string]any{"maxWindowLines": 5001}, "policyPatch.maxWindowLines"},
		{map[string]any{"maxWindowLines": 12.5}, "policyPatch.maxWindowLines"},
		{map[string]any{"maxWindowLines": "100"}, "policyPatch.maxWindowLines"},
		{map[string]any{"maxWindowTokens": 49}, "policyPatch.maxWindowTokens"},
		{map[string]any{"maxWindowTokens": 50001.0}, "policyPatch.maxWindowTokens"},
		{map[string]any{"allowBreakGlass": "true"}, "policyPatch.allowBreakGlass"},
		{map[string]any{"requireIdentifiers": 1}, "policyPatch.requireIdentifiers"},
	} {
		_, _, err := query.PatchPolicyConfig([]byte(teamConfig), "c.yaml", tc.patch)
		if !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), ": "+tc.field+": ") {
			t.Errorf("%v: %v, want ErrInvalid naming %s", tc.patch, err, tc.field)
		}
	}
	for _, ok := range []map[string]any{{"maxWindowLines": 1}, {"maxWindowLines": 5000}, {"maxWindowTokens": 50}, {"maxWindowTokens": 50000}} {
		if _, _, err := query.PatchPolicyConfig(nil, "c.yaml", ok); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	// a broken file is not papered over by a patch
	if _, _, err := query.PatchPolicyConfig([]byte("policy:\n  bogus: 1\n"), "c.yaml", map[string]any{"maxWindowLines": 9}); !errors.Is(err, query.ErrConfig) {
		t.Errorf("broken file patched: %v", err)
	}
}

// TestSetPolicyAtomic rewrites the file many times while readers read it:
// every read is a whole, valid file; no temporary file is left; the file
// keeps its permissions.
func TestSetPolicyAtomic(t *testing.T) {
	root := t.TempDir()
	writePolicy(t, root, teamConfig)
	p := filepath.Join(root, ".sdl", "config.yaml")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var bad []string
	var mu sync.Mutex
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				data, err := os.ReadFile(p)
				if err == nil {
					if _, _, err = query.ParsePolicyConfig(data, "c.yaml"); err == nil && !strings.Contains(string(data), "memory:") {
						err = errors.New("half a file")
					}
				}
				if err != nil {
					mu.Lock()
					bad = append(bad, err.Error())
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < 150; i++ {
		if _, err := query.SetPolicy(root, map[string]any{"maxWindowLines": 100 + i, "allowBreakGlass": i%2 == 0}); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("%d bad reads, first: %s", len(bad), bad[0])
	}
	info, err := query.LoadPolicy(root)
	if err != nil || info.Policy.MaxWindowLines != 249 || info.Policy.AllowBreakGlass || info.Source != ".sdl/config.yaml" {
		t.Errorf("after: %+v %v", info, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

func TestLoadPolicySource(t *testing.T) {
	root := t.TempDir()
	info, err := query.LoadPolicy(root)
	if err != nil || info.Source != "defaults" || info.Policy != query.DefaultPolicy() || info.File != ".sdl/config.yaml" {
		t.Fatalf("%+v %v", info, err)
	}
	res, err := query.SetPolicy(root, map[string]any{"requireIdentifiers": false})
	if err != nil || !res.OK || res.Policy.RequireIdentifiers {
		t.Fatalf("%+v %v", res, err)
	}
	info, err = query.LoadPolicy(root)
	if err != nil || info.Source != ".sdl/config.yaml" || strings.Join(info.FromFile, ",") != "requireIdentifiers" {
		t.Fatalf("%+v %v", info, err)
	}
	// a broken file stays as it is
	writePolicy(t, root, "policy: [\n")
	if _, err := query.SetPolicy(root, map[string]any{"allowBreakGlass": true}); !errors.Is(err, query.ErrConfig) {
		t.Errorf("set on a broken file: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, ".sdl", "config.yaml")); string(data) != "policy: [\n" {
		t.Errorf("broken file rewritten: %q", data)
	}
}

// FuzzPolicyConfig reads any text as a config file: never a panic; a file
// that reads has a policy within the ranges, and a patch of it reads back
// with the patched value and the other fields unchanged.
func FuzzPolicyConfig(f *testing.F) {
	f.Add([]byte(teamConfig))
	f.Add([]byte("policy:\n  maxWindowLines: 0x20\n  allowBreakGlass: false\n"))
	f.Add([]byte("policy: {maxWindowTokens: 1_000}\n"))
	f.Add([]byte("a: &x [1]\nb: *x\npolicy:\n"))
	f.Add([]byte("policy:\n  - 1\n"))
	f.Add([]byte("%YAML 1.2\n---\npolicy: ~\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, _, err := query.ParsePolicyConfig(data, "c.yaml")
		if err != nil {
			if !errors.Is(err, query.ErrConfig) || !strings.Contains(err.Error(), "c.yaml") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		if p.MaxWindowLines < 1 || p.MaxWindowLines > 5000 || p.MaxWindowTokens < 50 || p.MaxWindowTokens > 50000 {
			t.Fatalf("out of range: %+v", p)
		}
		out, q, err := query.PatchPolicyConfig(data, "c.yaml", map[string]any{"maxWindowLines": 77})
		if err != nil {
			t.Fatalf("patch of a valid file: %v", err)
		}
		back, _, err := query.ParsePolicyConfig(out, "c.yaml")
		if err != nil {
			t.Fatalf("patched file does not read: %v\n%s", err, out)
		}
		want := p
		want.MaxWindowLines = 77
		if back != want || q != want {
			t.Fatalf("patched %+v / %+v, want %+v\n%s", back, q, want, out)
		}
	})
}
