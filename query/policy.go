package query

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The window policy lives in a committed file, .sdl/config.yaml, under a
// "policy:" section; other sections belong to other settings and are kept
// as they are when the policy is rewritten.

// PolicyFile is where the policy lives, relative to the repository root.
const PolicyFile = ".sdl/config.yaml"

// maxConfigBytes bounds the config file read.
const maxConfigBytes = 1 << 20

// Policy gates raw code windows (sdl.code.needWindow).
type Policy struct {
	// MaxWindowLines caps the lines of a window.
	MaxWindowLines int `json:"maxWindowLines"`
	// MaxWindowTokens caps the tokens of a window.
	MaxWindowTokens int `json:"maxWindowTokens"`
	// RequireIdentifiers makes a request name the identifiers it expects.
	RequireIdentifiers bool `json:"requireIdentifiers"`
	// AllowBreakGlass lets a request bypass the rules, audited.
	AllowBreakGlass bool `json:"allowBreakGlass"`
}

// DefaultPolicy is the policy when the config file sets nothing.
func DefaultPolicy() Policy {
	return Policy{MaxWindowLines: 180, MaxWindowTokens: 1400, RequireIdentifiers: true, AllowBreakGlass: false}
}

// policyField describes one field of the policy.
type policyField struct {
	name     string
	isInt    bool
	min, max int
	get      func(*Policy) any
	set      func(*Policy, any)
}

var policyFields = []policyField{
	{name: "maxWindowLines", isInt: true, min: 1, max: 5000,
		get: func(p *Policy) any { return p.MaxWindowLines }, set: func(p *Policy, v any) { p.MaxWindowLines = v.(int) }},
	{name: "maxWindowTokens", isInt: true, min: 50, max: 50000,
		get: func(p *Policy) any { return p.MaxWindowTokens }, set: func(p *Policy, v any) { p.MaxWindowTokens = v.(int) }},
	{name: "requireIdentifiers",
		get: func(p *Policy) any { return p.RequireIdentifiers }, set: func(p *Policy, v any) { p.RequireIdentifiers = v.(bool) }},
	{name: "allowBreakGlass",
		get: func(p *Policy) any { return p.AllowBreakGlass }, set: func(p *Policy, v any) { p.AllowBreakGlass = v.(bool) }},
}

func policyFieldNamed(name string) *policyField {
	for i := range policyFields {
		if policyFields[i].name == name {
			return &policyFields[i]
		}
	}
	return nil
}

func policyFieldNames() string {
	names := make([]string, len(policyFields))
	for i, f := range policyFields {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// ErrConfig means the config file cannot be read as a policy; the message
// names the file and the line.
var ErrConfig = errors.New("bad config file")

func configErrorf(name string, line int, format string, args ...any) error {
	return fmt.Errorf("%w: %s:%d: %s", ErrConfig, name, line, fmt.Sprintf(format, args...))
}

// parseConfigDoc parses a config file into its YAML document node; nil
// for an empty file.
func parseConfigDoc(data []byte, name string) (doc *yaml.Node, err error) {
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("%w: %s: larger than %d KB", ErrConfig, name, maxConfigBytes>>10)
	}
	// The YAML library has panicked on crafted input before; a bad file
	// must be an error, never a crash.
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("%w: %s: unreadable YAML (%v)", ErrConfig, name, r)
		}
	}()
	var n yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&n); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		// yaml's messages name the line: "yaml: line 3: did not find expected key"
		return nil, fmt.Errorf("%w: %s: %v", ErrConfig, name, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		line := extra.Line
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrConfig, name, err)
		}
		return nil, configErrorf(name, line, "a second YAML document; the config file holds one")
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) == 0 {
		return nil, nil
	}
	root := n.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, configErrorf(name, root.Line, "the file must be a mapping of sections (policy: ...), not a %s", nodeKind(root))
	}
	return &n, nil
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.AliasNode:
		return "alias"
	}
	return "scalar"
}

// policySection finds the policy mapping of a document: the key node and
// the value node, or nils.
func policySection(doc *yaml.Node, name string) (*yaml.Node, *yaml.Node, error) {
	if doc == nil {
		return nil, nil, nil
	}
	root := doc.Content[0]
	var key, val *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "policy" {
			continue
		}
		if key != nil {
			return nil, nil, configErrorf(name, root.Content[i].Line, "a second policy section (the first is at line %d)", key.Line)
		}
		key, val = root.Content[i], root.Content[i+1]
	}
	if val == nil {
		return nil, nil, nil
	}
	if val.Kind == yaml.AliasNode {
		return nil, nil, configErrorf(name, val.Line, "policy is an alias; write the section out")
	}
	if val.Kind == yaml.ScalarNode && val.Tag == "!!null" {
		return key, val, nil
	}
	if val.Kind != yaml.MappingNode {
		return nil, nil, configErrorf(name, val.Line, "policy must be a mapping of fields (%s), not a %s", policyFieldNames(), nodeKind(val))
	}
	return key, val, nil
}

// ParsePolicyConfig reads the policy of a config file: its values over the
// defaults, and the names of the fields the file sets. name is the file's
// name in errors, which give its line.
func ParsePolicyConfig(data []byte, name string) (Policy, []string, error) {
	p := DefaultPolicy()
	doc, err := parseConfigDoc(data, name)
	if err != nil {
		return p, nil, err
	}
	_, sec, err := policySection(doc, name)
	if err != nil || sec == nil || sec.Kind != yaml.MappingNode {
		return p, nil, err
	}
	var set []string
	seen := map[string]int{}
	for i := 0; i+1 < len(sec.Content); i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		f := policyFieldNamed(k.Value)
		if f == nil {
			return DefaultPolicy(), nil, configErrorf(name, k.Line, "policy.%s is not a policy field; use %s", k.Value, policyFieldNames())
		}
		if at, dup := seen[f.name]; dup {
			return DefaultPolicy(), nil, configErrorf(name, k.Line, "policy.%s is set twice (first at line %d)", f.name, at)
		}
		seen[f.name] = k.Line
		val, err := nodeValue(f, v)
		if err != nil {
			return DefaultPolicy(), nil, configErrorf(name, v.Line, "policy.%s: %v", f.name, err)
		}
		f.set(&p, val)
		set = append(set, f.name)
	}
	return p, set, nil
}

// nodeValue reads and checks a field's YAML value.
func nodeValue(f *policyField, v *yaml.Node) (any, error) {
	if v.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("want a single value, got a %s", nodeKind(v))
	}
	if f.isInt {
		if v.Tag != "!!int" {
			return nil, fmt.Errorf("want a whole number from %d to %d, got %q", f.min, f.max, v.Value)
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(v.Value, "_", ""), 0, 64)
		if err != nil || n < int64(f.min) || n > int64(f.max) {
			return nil, fmt.Errorf("%s is out of range (%d to %d)", v.Value, f.min, f.max)
		}
		return int(n), nil
	}
	if v.Tag != "!!bool" {
		return nil, fmt.Errorf("want true or false, got %q", v.Value)
	}
	var b bool
	if err := v.Decode(&b); err != nil {
		return nil, fmt.Errorf("want true or false, got %q", v.Value)
	}
	return b, nil
}

// patchValue reads and checks a value of a policy patch, as decoded from
// JSON or given by a Go caller; nil removes the field from the file, so the
// default applies again.
func patchValue(f *policyField, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if f.isInt {
		var n float64
		switch x := v.(type) {
		case int:
			n = float64(x)
		case int64:
			n = float64(x)
		case float64:
			n = x
		case json.Number:
			var err error
			if n, err = x.Float64(); err != nil {
				return nil, fmt.Errorf("want a whole number from %d to %d, got %q", f.min, f.max, x.String())
			}
		default:
			return nil, fmt.Errorf("want a whole number from %d to %d, got %v", f.min, f.max, v)
		}
		if n != math.Trunc(n) || n < float64(f.min) || n > float64(f.max) {
			return nil, fmt.Errorf("want a whole number from %d to %d, got %v", f.min, f.max, v)
		}
		return int(n), nil
	}
	b, ok := v.(bool)
	if !ok {
		return nil, fmt.Errorf("want true or false, got %v", v)
	}
	return b, nil
}

// PatchPolicyConfig applies a partial policy to the text of a config file
// and returns the new text and the policy it holds. Only the fields given
// change; other sections, fields and comments stay (as far as a YAML
// round trip keeps them).
func PatchPolicyConfig(data []byte, name string, patch map[string]any) ([]byte, Policy, error) {
	if len(patch) == 0 {
		return nil, Policy{}, invalidf("policyPatch", "give at least one of %s", policyFieldNames())
	}
	keys := make([]string, 0, len(patch))
	for k := range patch {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := map[string]any{}
	for _, k := range keys {
		f := policyFieldNamed(k)
		if f == nil {
			return nil, Policy{}, invalidf("policyPatch."+k, "not a policy field; use %s", policyFieldNames())
		}
		v, err := patchValue(f, patch[k])
		if err != nil {
			return nil, Policy{}, invalidf("policyPatch."+k, "%v", err)
		}
		vals[k] = v
	}
	doc, err := parseConfigDoc(data, name)
	if err != nil {
		return nil, Policy{}, err
	}
	// the policy as it stands must be valid too: a patch does not hide a
	// broken file
	if _, _, err := ParsePolicyConfig(data, name); err != nil {
		return nil, Policy{}, err
	}
	// a file of comments only (sdl init writes the defaults commented
	// out) keeps them: the new section goes after them
	var keep []byte
	if doc == nil {
		doc = &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
		if len(bytes.TrimSpace(data)) == 0 {
			doc.HeadComment = "sdl settings; see sdl policy"
		} else {
			keep = append(append([]byte{}, bytes.TrimRight(data, "\n")...), "\n\n"...)
		}
	}
	_, sec, err := policySection(doc, name)
	if err != nil {
		return nil, Policy{}, err
	}
	if sec == nil {
		root := doc.Content[0]
		sec = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "policy"}, sec)
	} else if sec.Kind != yaml.MappingNode {
		*sec = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: sec.HeadComment, LineComment: sec.LineComment}
	}
	for _, f := range policyFields { // fixed order: new fields are appended in it
		v, ok := vals[f.name]
		if !ok {
			continue
		}
		idx := -1
		for i := 0; i+1 < len(sec.Content); i += 2 {
			if sec.Content[i].Value == f.name {
				idx = i
			}
		}
		if v == nil {
			if idx >= 0 {
				sec.Content = append(sec.Content[:idx], sec.Content[idx+2:]...)
			}
			continue
		}
		val := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(v)}
		if f.isInt {
			val.Tag = "!!int"
		}
		if idx >= 0 {
			old := sec.Content[idx+1]
			val.LineComment, val.HeadComment, val.FootComment = old.LineComment, old.HeadComment, old.FootComment
			sec.Content[idx+1] = val
		} else {
			sec.Content = append(sec.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.name}, val)
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(yamlIndent(data))
	if err := enc.Encode(doc); err != nil {
		return nil, Policy{}, fmt.Errorf("write %s: %w", name, err)
	}
	if err := enc.Close(); err != nil {
		return nil, Policy{}, fmt.Errorf("write %s: %w", name, err)
	}
	out := append(keep, buf.Bytes()...)
	if keep != nil {
		if _, _, err := ParsePolicyConfig(out, name); err != nil {
			out = buf.Bytes() // text YAML read as empty but cannot be kept (a byte-order mark, say)
		}
	}
	p, _, err := ParsePolicyConfig(out, name)
	if err != nil {
		return nil, Policy{}, fmt.Errorf("write %s: the new text does not read back: %w", name, err)
	}
	return out, p, nil
}

// yamlIndent guesses the indentation of a YAML text: that of its first
// indented line, 2 by default.
func yamlIndent(data []byte) int {
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimLeft(l, " ")
		if n := len(l) - len(t); n > 0 && t != "" && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "- ") {
			return min(max(n, 2), 8)
		}
	}
	return 2
}

// PolicyInfo is the effective policy and where it comes from
// (sdl.policy.get).
type PolicyInfo struct {
	Policy Policy `json:"policy"`
	// Source is the config file when it sets any field, else "defaults".
	Source string `json:"source"`
	// File is where the policy is read from and written to.
	File string `json:"file"`
	// FromFile lists the fields the file sets; the others are defaults.
	FromFile []string `json:"fromFile,omitempty"`
	RepoID   string   `json:"repoId,omitempty"`
}

// LoadPolicy reads the policy of the repository at root.
func LoadPolicy(root string) (*PolicyInfo, error) {
	info := &PolicyInfo{Policy: DefaultPolicy(), Source: "defaults", File: PolicyFile}
	data, err := readConfig(root)
	if err != nil || data == nil {
		return info, err
	}
	p, set, err := ParsePolicyConfig(data, PolicyFile)
	if err != nil {
		return nil, err
	}
	info.Policy, info.FromFile = p, set
	if len(set) > 0 {
		info.Source = PolicyFile
	}
	return info, nil
}

// readConfig reads the config file; nil, nil when there is none.
func readConfig(root string) ([]byte, error) {
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(PolicyFile)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", PolicyFile, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", PolicyFile, err)
	}
	return data, nil
}

// PolicySetResult answers sdl.policy.set.
type PolicySetResult struct {
	OK     bool   `json:"ok"`
	RepoID string `json:"repoId,omitempty"`
	Policy Policy `json:"policy"`
	File   string `json:"file"`
}

// SetPolicy applies a partial policy to the config file of the repository
// at root, atomically: the new file is written beside the old one and
// renamed over it, so a reader sees the old file or the new, never half.
func SetPolicy(root string, patch map[string]any) (*PolicySetResult, error) {
	data, err := readConfig(root)
	if err != nil {
		return nil, err
	}
	out, p, err := PatchPolicyConfig(data, PolicyFile, patch)
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(root, filepath.FromSlash(PolicyFile)), out); err != nil {
		return nil, err
	}
	return &PolicySetResult{OK: true, Policy: p, File: PolicyFile}, nil
}

// writeFileAtomic replaces path with data through a temporary file in the
// same directory, keeping the old file's permissions.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done = true
	return nil
}

// Policy returns the effective policy of the indexed repository.
func (x *Index) Policy() (*PolicyInfo, error) {
	info, err := LoadPolicy(x.Root)
	if info != nil {
		info.RepoID = x.RepoID
	}
	return info, err
}

// SetPolicy applies a partial policy to the indexed repository's config.
func (x *Index) SetPolicy(patch map[string]any) (*PolicySetResult, error) {
	res, err := SetPolicy(x.Root, patch)
	if res != nil {
		res.RepoID = x.RepoID
	}
	return res, err
}
