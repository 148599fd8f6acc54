package serve

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/sdl-dev/sdl/query"
)

// A tool's input schema is made from its request type, the struct its
// arguments decode into, as gopls does: the names, types, nesting, required
// fields and additionalProperties come from the struct, so that what a
// client is told to send is what the server decodes. The Args of a tool
// only add what a Go type cannot say (descriptions, enums, bounds); an Arg
// that names no field of the struct is a programming error (see
// TestToolSchemas).

// reqSchemaOptions map the types a struct cannot describe by reflection.
var reqSchemaOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[json.RawMessage](): {}, // any JSON value
}}

// InputSchema is the JSON schema of the tool's arguments.
func (t *Tool) InputSchema() map[string]any {
	t.schemaOnce.Do(func() { t.schema, t.schemaErr = t.buildSchema() })
	if t.schemaErr != nil {
		// a tool whose request type has no schema is a programming
		// error that TestToolSchemas reports; clients get an open object
		return map[string]any{"type": "object"}
	}
	return t.schema
}

// SchemaError is why the tool's request type has no schema, if it has none.
func (t *Tool) SchemaError() error {
	t.InputSchema()
	return t.schemaErr
}

func (t *Tool) buildSchema() (map[string]any, error) {
	if t.reqType == nil {
		return nil, fmt.Errorf("%s: no request type", t.Name)
	}
	js, err := jsonschema.ForType(t.reqType, reqSchemaOptions)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	b, err := json.Marshal(js)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	dropNull(s)
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		s["properties"] = props
	}
	// every call may name its repository (the registry takes repoId off
	// before decoding), even the tools that need none
	props["repoId"] = map[string]any{"type": "string"}
	for _, a := range t.Args {
		p := lookupProp(s, a.Name)
		if p == nil {
			return nil, fmt.Errorf("%s: argument %q is not a field of %s", t.Name, a.Name, t.reqType)
		}
		if a.Description != "" {
			p["description"] = a.Description
		}
		target := p
		if items, ok := p["items"].(map[string]any); ok && p["type"] == "array" {
			target = items // the enum and bounds of an array are its elements'
		}
		if len(a.Enum) > 0 {
			target["enum"] = a.Enum
		}
		if a.Min != nil {
			target["minimum"] = *a.Min
		}
		if a.Max != nil {
			target["maximum"] = *a.Max
		}
		for k, v := range a.Schema {
			p[k] = v
		}
		if a.Required && !strings.Contains(a.Name, ".") && !containsStr(s["required"], a.Name) {
			req, _ := s["required"].([]any)
			s["required"] = append(req, a.Name)
		}
	}
	return s, nil
}

// lookupProp finds the property a dotted argument name (budget.maxTokens)
// names, through objects and arrays of objects.
func lookupProp(s map[string]any, name string) map[string]any {
	cur := s
	for _, part := range strings.Split(name, ".") {
		if items, ok := cur["items"].(map[string]any); ok {
			cur = items
		}
		props, _ := cur["properties"].(map[string]any)
		if b, ok := props[part].(bool); ok && b {
			// the reflector writes a field of any JSON value (a
			// json.RawMessage) as a bare true, which clients refuse
			// where a schema object is expected: the Arg describes it
			props[part] = map[string]any{}
		}
		p, _ := props[part].(map[string]any)
		if p == nil {
			return nil
		}
		cur = p
	}
	return cur
}

func containsStr(list any, s string) bool {
	l, _ := list.([]any)
	for _, v := range l {
		if v == s {
			return true
		}
	}
	return false
}

// dropNull removes the "null" that the reflector allows for pointers and
// slices: an absent field is how a client leaves one out, and a schema of
// one type reads better to a model.
func dropNull(v any) {
	switch x := v.(type) {
	case map[string]any:
		if types, ok := x["type"].([]any); ok {
			var keep []any
			for _, t := range types {
				if t != "null" {
					keep = append(keep, t)
				}
			}
			if len(keep) == 1 {
				x["type"] = keep[0]
			} else {
				x["type"] = keep
			}
		}
		for _, e := range x {
			dropNull(e)
		}
	case []any:
		for _, e := range x {
			dropNull(e)
		}
	}
}

// InputSchemaJSON is InputSchema encoded.
func (t *Tool) InputSchemaJSON() json.RawMessage {
	b, _ := json.Marshal(t.InputSchema())
	return b
}

// schemaError is an argument the schema refuses: it is both ErrArgs, an
// argument the server refuses, and query.ErrInvalid, the refusal of the
// same rule checked in query, so callers test for either.
type schemaError struct{ msg string }

func (e *schemaError) Error() string { return "invalid arguments: " + e.msg }

func (e *schemaError) Is(target error) bool { return target == ErrArgs || target == query.ErrInvalid }

func argsErrorf(format string, a ...any) error { return &schemaError{msg: fmt.Sprintf(format, a...)} }

// checkArgs holds decoded arguments to the rules of the schema that a Go
// type cannot hold: required fields, enums and numeric bounds, at any
// depth. It runs on every call after the strict decode (which refuses
// unknown fields and wrong types), so that a call the schema allows is
// taken and a call it refuses is refused, with the field named.
func (t *Tool) checkArgs(raw json.RawMessage) error {
	s := t.InputSchema()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("%w: the arguments must be a JSON object: %v", ErrArgs, err)
	}
	return checkValue(s, v, "")
}

func checkValue(s map[string]any, v any, path string) error {
	if v == nil {
		return nil
	}
	name := path
	if name == "" {
		name = "arguments"
	}
	if enum, ok := s["enum"].([]string); ok && !slicesContainsAny(enum, v) {
		return argsErrorf("%s: %s is not one of %s", name, jsonText(v), strings.Join(enum, ", "))
	}
	if enum, ok := s["enum"].([]any); ok && !slicesContainsAny(anyStrings(enum), v) {
		return argsErrorf("%s: %s is not one of %s", name, jsonText(v), strings.Join(anyStrings(enum), ", "))
	}
	if n, ok := v.(float64); ok {
		lo, hasLo := number(s["minimum"])
		hi, hasHi := number(s["maximum"])
		if hasLo && n < lo || hasHi && n > hi {
			switch {
			case hasLo && hasHi:
				return argsErrorf("%s: must be between %v and %v, got %v (leave it out for the default)", name, lo, hi, n)
			case hasLo:
				return argsErrorf("%s: must be at least %v, got %v (leave it out for the default)", name, lo, n)
			default:
				return argsErrorf("%s: must be at most %v, got %v", name, hi, n)
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if n, ok := number(s["minProperties"]); ok && float64(len(x)) < n {
			return argsErrorf("%s: give at least %v of its fields", name, n)
		}
		props, _ := s["properties"].(map[string]any)
		for _, r := range requiredOf(s) {
			if _, ok := x[r]; !ok {
				return argsErrorf("%s: required", join(path, r))
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, _ := props[k].(map[string]any)
			if ps == nil {
				ps, _ = s["additionalProperties"].(map[string]any)
			}
			if ps != nil {
				if err := checkValue(ps, x[k], join(path, k)); err != nil {
					return err
				}
			}
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range x {
				if err := checkValue(items, e, fmt.Sprintf("%s[%d]", name, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func requiredOf(s map[string]any) []string {
	switch r := s["required"].(type) {
	case []string:
		return r
	case []any:
		return anyStrings(r)
	}
	return nil
}

func anyStrings(l []any) []string {
	out := make([]string, 0, len(l))
	for _, e := range l {
		out = append(out, fmt.Sprint(e))
	}
	return out
}

func slicesContainsAny(enum []string, v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, e := range enum {
		if e == s {
			return true
		}
	}
	return false
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	}
	return 0, false
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
