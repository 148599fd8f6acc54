package memoryfs

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// ParseError is a problem with the text of a memory file, at a line
// (1-based, counted from the file's first line; 0 when unknown).
type ParseError struct {
	Line    int
	Message string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Message)
	}
	return e.Message
}

// Unwrap makes every parse error an ErrInvalid.
func (e *ParseError) Unwrap() error { return ErrInvalid }

type extraField struct{ key, value *yaml.Node }

const delimiter = "---"

// Parse reads a memory file: front matter between "---" lines, then the
// markdown body. It checks every rule Validate checks and reports the line
// of the first problem.
func Parse(data []byte) (*Memory, error) {
	m, lines, err := parse(data)
	if err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, lineOf(err, lines)
	}
	return m, nil
}

// lineOf attaches the line of the field a validation error names.
func lineOf(err error, lines map[string]int) error {
	msg := strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")
	field, _, _ := strings.Cut(msg, ":")
	key := map[string]string{"symbolIds": "symbols", "fileRelPaths": "files"}[field]
	if key == "" {
		key = field
	}
	return &ParseError{Line: lines[key], Message: msg}
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+):`) })

// parse reads the syntax of a memory file without checking limits. lines
// maps each front matter key (and "content") to its line.
func parse(data []byte) (*Memory, map[string]int, error) {
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return nil, nil, &ParseError{Line: 1 + bytes.Count(data[:i], []byte{'\n'}), Message: fmt.Sprintf("invalid UTF-8 at byte %d", i)}
	}
	text := strings.TrimPrefix(string(data), "\ufeff")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, "\r \t") != delimiter {
		return nil, nil, &ParseError{Line: 1, Message: "a memory file starts with a --- line, then YAML front matter, then a --- line"}
	}
	// the closing delimiter: the first line that is exactly ---
	var front string
	var body string
	closeLine := 0
	crlf := false
	line := 2
	for off := 0; ; line++ {
		end := strings.IndexByte(rest[off:], '\n')
		var l string
		if end < 0 {
			l = rest[off:]
		} else {
			l = rest[off : off+end]
		}
		if strings.TrimRight(l, "\r \t") == delimiter {
			front = rest[:off]
			crlf = strings.HasSuffix(l, "\r")
			if end < 0 {
				body = ""
			} else {
				body = rest[off+end+1:]
			}
			closeLine = line
			break
		}
		if end < 0 {
			return nil, nil, &ParseError{Line: 1, Message: "the front matter is not closed by a --- line"}
		}
		off += end + 1
	}
	m := &Memory{Confidence: DefaultConfidence}
	lines := map[string]int{"content": closeLine + 1}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		ln := 0
		if sm := yamlLine().FindStringSubmatch(msg); sm != nil {
			n, _ := strconv.Atoi(sm[1])
			ln = n + 1
			msg = strings.TrimSpace(strings.Replace(msg, sm[0], "", 1))
		}
		msg = strings.TrimPrefix(strings.TrimPrefix(msg, "unmarshal errors:\n"), " ")
		return nil, nil, &ParseError{Line: ln, Message: "front matter is not valid YAML: " + msg}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil, &ParseError{Line: 2, Message: "the front matter is empty; it needs at least type and title"}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, nil, &ParseError{Line: root.Line + 1, Message: "the front matter must be a mapping of keys to values"}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		ln := k.Line + 1
		if k.Kind != yaml.ScalarNode {
			return nil, nil, &ParseError{Line: ln, Message: "a front matter key must be a plain name"}
		}
		if seen[k.Value] {
			return nil, nil, &ParseError{Line: ln, Message: fmt.Sprintf("%s: given twice", k.Value)}
		}
		seen[k.Value] = true
		lines[k.Value] = ln
		bad := func(want string) error {
			return &ParseError{Line: v.Line + 1, Message: fmt.Sprintf("%s: must be %s", k.Value, want)}
		}
		var err error
		switch k.Value {
		case "memoryId":
			m.ID, err = scalar(v, bad)
		case "type":
			m.Type, err = scalar(v, bad)
		case "title":
			m.Title, err = scalar(v, bad)
		case "staleVersion":
			m.StaleVersion, err = scalar(v, bad)
		case "fingerprintVersion":
			m.FingerprintVersion, err = scalar(v, bad)
		case "fingerprints":
			m.Fingerprints, err = stringMap(v, bad)
		case "tags":
			m.Tags, err = list(v, bad)
		case "symbols":
			m.Symbols, err = list(v, bad)
		case "files":
			m.Files, err = list(v, bad)
		case "confidence":
			var s string
			if s, err = scalar(v, bad); err == nil {
				f, perr := strconv.ParseFloat(s, 64)
				if perr != nil || f != f {
					err = bad("a number between 0 and 1")
				}
				m.Confidence = f
			}
		case "deleted", "stale":
			var b bool
			if v.Kind != yaml.ScalarNode || v.Decode(&b) != nil {
				err = bad("true or false")
			}
			if k.Value == "deleted" {
				m.Deleted = b
			} else {
				m.Stale = b
			}
		case "createdAt":
			var s string
			if s, err = scalar(v, bad); err == nil && s != "" {
				t, ok := parseTime(s)
				if !ok {
					err = bad("a time like 2026-03-15T10:30:00.000Z")
				}
				m.CreatedAt = t
			}
		default:
			m.extra = append(m.extra, extraField{k, v})
		}
		if err != nil {
			return nil, nil, err
		}
	}
	for _, req := range []string{"type", "title"} {
		if !seen[req] {
			return nil, nil, &ParseError{Line: 2, Message: req + ": missing; the front matter needs type and title"}
		}
	}
	// the body: one blank line after the front matter and one final
	// newline belong to the format, not the content
	if strings.HasPrefix(body, "\n") {
		body = body[1:]
	} else if strings.HasPrefix(body, "\r\n") {
		body = body[2:]
	}
	if strings.HasSuffix(body, "\n") {
		body = body[:len(body)-1]
		if crlf {
			body = strings.TrimSuffix(body, "\r")
		}
	}
	m.Content = body
	return m, lines, nil
}

func scalar(v *yaml.Node, bad func(string) error) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", bad("a single value")
	}
	if v.Tag == "!!null" {
		return "", nil
	}
	return v.Value, nil
}

// list reads a sequence of scalars; a single scalar is a list of one.
func list(v *yaml.Node, bad func(string) error) ([]string, error) {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" || v.Value == "" {
			return nil, nil
		}
		return []string{v.Value}, nil
	case yaml.SequenceNode:
		out := make([]string, 0, len(v.Content))
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				return nil, bad("a list of strings")
			}
			out = append(out, e.Value)
		}
		return out, nil
	}
	return nil, bad("a list of strings")
}

// stringMap reads a mapping of scalars to scalars.
func stringMap(v *yaml.Node, bad func(string) error) (map[string]string, error) {
	if v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || v.Value == "") {
		return nil, nil
	}
	if v.Kind != yaml.MappingNode {
		return nil, bad("a mapping of symbol ids to fingerprints")
	}
	out := make(map[string]string, len(v.Content)/2)
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, e := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode || e.Kind != yaml.ScalarNode {
			return nil, bad("a mapping of symbol ids to fingerprints")
		}
		if _, dup := out[k.Value]; dup {
			return nil, bad(fmt.Sprintf("a mapping with %q given once", k.Value))
		}
		out[k.Value] = e.Value
	}
	return out, nil
}

var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02"}

func parseTime(s string) (time.Time, bool) {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// Marshal renders a memory file: the front matter keys in the spec's
// order (stale and staleVersion only when stale, fingerprints only when
// recorded, then any keys sdl does not know), then a blank line, the
// content and a final newline.
func Marshal(m *Memory) ([]byte, error) {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	seq := func(vals []string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, v := range vals {
			n.Content = append(n.Content, str(v))
		}
		return n
	}
	// numbers, booleans and times are written plain, as the spec shows
	// them ("confidence: 1", not "confidence: !!float 1")
	plain := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k string, v *yaml.Node) { root.Content = append(root.Content, str(k), v) }
	add("memoryId", str(m.ID))
	add("type", str(m.Type))
	add("title", str(m.Title))
	add("tags", seq(m.Tags))
	add("confidence", plain(strconv.FormatFloat(m.Confidence, 'f', -1, 64)))
	add("symbols", seq(m.Symbols))
	add("files", seq(m.Files))
	add("createdAt", plain(FormatTime(m.CreatedAt)))
	add("deleted", plain(strconv.FormatBool(m.Deleted)))
	if m.Stale {
		add("stale", plain("true"))
		if m.StaleVersion != "" {
			add("staleVersion", str(m.StaleVersion))
		}
	}
	if len(m.Fingerprints) > 0 {
		ids := make([]string, 0, len(m.Fingerprints))
		for id := range m.Fingerprints {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		fps := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
		for _, id := range ids {
			fps.Content = append(fps.Content, str(id), str(m.Fingerprints[id]))
		}
		add("fingerprints", fps)
		if m.FingerprintVersion != "" {
			add("fingerprintVersion", str(m.FingerprintVersion))
		}
	}
	for _, e := range m.extra {
		root.Content = append(root.Content, e.key, e.value)
	}
	var b bytes.Buffer
	b.WriteString(delimiter + "\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("encode memory %s: %w", m.ID, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode memory %s: %w", m.ID, err)
	}
	b.WriteString(delimiter + "\n\n")
	b.WriteString(m.Content)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// asProblem turns a parse error into a Problem about the file rel.
func asProblem(rel string, err error) *Problem {
	var pe *ParseError
	if errors.As(err, &pe) {
		return &Problem{Path: rel, Line: pe.Line, Message: pe.Message}
	}
	return &Problem{Path: rel, Message: strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")}
}
