package serve

import "encoding/json"

// nested object schemas of the spec's arguments
var objectSchemas = map[string]map[string]any{
	"symbolRef": {"type": "object", "required": []string{"name"}, "additionalProperties": false, "properties": map[string]any{
		"name":         map[string]any{"type": "string", "description": "The symbol's name, possibly qualified (Store.Add)."},
		"file":         map[string]any{"type": "string", "description": "A repository path or path suffix of the file it is in."},
		"kind":         map[string]any{"type": "string", "description": "Its kind: function, class, interface, type, module, method, constructor or variable."},
		"exportedOnly": map[string]any{"type": "boolean"},
	}},
	"budget": {"type": "object", "additionalProperties": false, "properties": map[string]any{
		"maxCards":           map[string]any{"type": "integer", "minimum": 1, "maximum": 500},
		"maxEstimatedTokens": map[string]any{"type": "integer", "minimum": 200, "maximum": 100000},
	}},
	"knownCardEtags": {"type": "object", "additionalProperties": map[string]any{"type": "string"}},
	"knownEtags":     {"type": "object", "additionalProperties": map[string]any{"type": "string"}},
}

// InputSchema is the JSON schema of the tool's arguments.
func (t *Tool) InputSchema() map[string]any {
	if t.Schema != nil {
		return t.Schema
	}
	props := map[string]any{}
	var required []string
	for _, a := range t.Args {
		p := map[string]any{}
		if s, ok := objectSchemas[a.Name]; ok && a.Type == "object" {
			for k, v := range s {
				p[k] = v
			}
		} else if a.Type != "" {
			p["type"] = a.Type
		}
		if a.Description != "" {
			p["description"] = a.Description
		}
		if len(a.Enum) > 0 && a.Type != "array" {
			p["enum"] = a.Enum
		}
		if a.Type == "array" {
			items := map[string]any{"type": a.Items}
			if a.Items == "object" {
				if s, ok := objectSchemas["symbolRef"]; ok && a.Name == "symbolRefs" {
					items = s
				}
			}
			if len(a.Enum) > 0 {
				items["enum"] = a.Enum
			}
			p["items"] = items
		}
		if a.Min != nil {
			p["minimum"] = *a.Min
		}
		if a.Max != nil {
			p["maximum"] = *a.Max
		}
		props[a.Name] = p
		if a.Required {
			required = append(required, a.Name)
		}
	}
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// InputSchemaJSON is InputSchema encoded.
func (t *Tool) InputSchemaJSON() json.RawMessage {
	b, _ := json.Marshal(t.InputSchema())
	return b
}
