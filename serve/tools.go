package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/sdl-dev/sdl/query"
)

// ErrUnknownTool means a tool name is not in the registry.
var ErrUnknownTool = errors.New("unknown tool")

// ErrArgs means the arguments of a call break a rule; the message names
// the field and says what to send instead.
var ErrArgs = errors.New("invalid arguments")

// Tool is one tool of the spec.
type Tool struct {
	// Name is the spec's dotted name ("sdl.symbol.search"); MCP clients
	// see it with underscores ("sdl_symbol_search").
	Name        string
	Title       string
	Description string // for an agent: when to use it, what it costs, what to call next
	ReadOnly    bool
	// NoRepo marks tools that take no repoId.
	NoRepo bool
	// OwnIndex marks tools that open the index themselves (refresh): the
	// registry does not open it for them.
	OwnIndex bool
	// Live marks tools that read code: they answer from the overlay of
	// unsaved editor buffers when there is one.
	Live bool
	// Args documents the arguments: descriptions, enums and bounds of
	// the fields of the request type, which is the source of truth for
	// their names, types and shape (see InputSchema). A dotted name
	// (budget.maxTokens) documents a nested field.
	Args []Arg
	// Example is a valid argument object.
	Example string

	call    func(ctx context.Context, r *Repo, x *query.Index, raw json.RawMessage) (any, error)
	reqType reflect.Type // what the arguments decode into

	schemaOnce sync.Once
	schema     map[string]any
	schemaErr  error
}

// Arg documents one argument.
type Arg struct {
	Name        string
	Type        string // string, number, integer, boolean, array, object
	Items       string // element type of an array
	Required    bool
	Description string
	Enum        []string
	Min, Max    *float64
	// Schema holds further keywords of its schema (minProperties).
	Schema map[string]any
}

// topArgs are the arguments of the tool itself, without the fields of
// nested objects.
func (t *Tool) topArgs() []Arg {
	var out []Arg
	for _, a := range t.Args {
		if !strings.Contains(a.Name, ".") {
			out = append(out, a)
		}
	}
	return out
}

// MCPName is the tool's name as MCP clients see it: the spec's dotted
// camelCase name in snake case (sdl.symbol.getCard -> sdl_symbol_get_card),
// because clients reject dots in tool names.
func (t *Tool) MCPName() string {
	var b strings.Builder
	for i, r := range t.Name {
		switch {
		case r == '.':
			b.WriteByte('_')
		case r >= 'A' && r <= 'Z':
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r + ('a' - 'A'))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// nameKey folds the spellings of a tool name together: dots, underscores
// and case do not matter.
func nameKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r != '.' && r != '_' && r != '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Registry holds the tools.
type Registry struct {
	tools  []*Tool
	byName map[string]*Tool
	// surface, when set, holds the tools the server lists (setSurface)
	surface map[string]bool
}

// NewRegistry returns the registry of every built tool.
func NewRegistry() *Registry {
	r := &Registry{byName: map[string]*Tool{}}
	for _, t := range allTools() {
		r.add(t)
	}
	for _, t := range catalogTools(r) {
		r.add(t)
	}
	sort.Slice(r.tools, func(i, j int) bool { return r.tools[i].Name < r.tools[j].Name })
	return r
}

func (r *Registry) add(t *Tool) {
	r.tools = append(r.tools, t)
	r.byName[nameKey(t.Name)] = t
	// the action name of the manual and of chain steps: symbolSearch
	r.byName[nameKey(t.ActionName())] = t
}

// Tools lists the tools by name.
func (r *Registry) Tools() []*Tool { return r.tools }

// Lookup finds a tool by its dotted or underscored name.
func (r *Registry) Lookup(name string) (*Tool, error) {
	if t := r.byName[nameKey(name)]; t != nil {
		return t, nil
	}
	names := make([]string, 0, len(r.tools))
	for _, t := range r.tools {
		names = append(names, t.Name)
	}
	return nil, fmt.Errorf("%w %q; the tools are: %s", ErrUnknownTool, name, strings.Join(names, ", "))
}

// Call runs a tool with JSON arguments against the repositories.
func (r *Registry) Call(ctx context.Context, repos *Repos, name string, raw json.RawMessage) (any, error) {
	res, _, err := r.CallRepo(ctx, repos, name, raw)
	return res, err
}

// CallRepo runs a tool and also returns the repository it answered about
// (nil for tools that take none).
func (r *Registry) CallRepo(ctx context.Context, repos *Repos, name string, raw json.RawMessage) (any, *Repo, error) {
	t, err := r.Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	fields := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, nil, fmt.Errorf("%w: the arguments must be a JSON object: %v", ErrArgs, err)
	}
	var repoID string
	if v, ok := fields["repoId"]; ok {
		if err := json.Unmarshal(v, &repoID); err != nil {
			return nil, nil, fmt.Errorf("%w: repoId: must be a string, the id of a repository (one of %s)", ErrArgs, strings.Join(repos.IDs(), ", "))
		}
		delete(fields, "repoId")
	}
	rest, _ := json.Marshal(fields)
	if t.NoRepo {
		res, err := t.call(ctx, nil, nil, rest)
		return res, nil, err
	}
	repo, err := repos.Get(repoID)
	if err != nil {
		return nil, nil, err
	}
	if t.OwnIndex {
		res, err := t.call(ctx, repo, nil, rest)
		return res, repo, err
	}
	if t.Live {
		x, release, err := repo.live.index(ctx)
		if err != nil {
			return nil, repo, err
		}
		defer release()
		res, err := t.call(ctx, repo, x, rest)
		return res, repo, err
	}
	x, err := repo.Index()
	if err != nil {
		return nil, repo, err
	}
	res, err := t.call(ctx, repo, x, rest)
	return res, repo, err
}

// decode reads arguments into req strictly: unknown fields and wrong
// types are errors that name the field.
func decode(raw json.RawMessage, req any, t *Tool) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(req); err != nil {
		return argsError(err, t, raw)
	}
	return nil
}

// argsError rewrites encoding/json's errors to name the field and what it
// takes.
func argsError(err error, t *Tool, raw json.RawMessage) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if i := strings.LastIndexByte(field, '.'); i >= 0 {
			field = field[i+1:]
		}
		want := jsonKind(te.Type.Kind().String())
		for _, a := range t.Args {
			if a.Name == field && a.Type != "" {
				want = a.Type
				if a.Items != "" {
					want = "array of " + a.Items
				}
			}
		}
		return fmt.Errorf("%w: %s: must be %s, got %s", ErrArgs, field, article(want), article(te.Value))
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "json: unknown field ") {
		field := strings.Trim(strings.TrimPrefix(msg, "json: unknown field "), `"`)
		if path, typ := nestedField(raw, t.reqType, field); path != "" {
			// budget: {"maxTokens": ...}: encoding/json names the field alone
			return fmt.Errorf("%w: unknown argument %q; %s takes: %s", ErrArgs, path+"."+field, path, strings.Join(jsonFields(typ), ", "))
		}
		var names []string
		for _, a := range t.topArgs() {
			names = append(names, a.Name)
		}
		return fmt.Errorf("%w: unknown argument %q; %s takes: %s", ErrArgs, field, t.Name, strings.Join(names, ", "))
	}
	return fmt.Errorf("%w: %v", ErrArgs, err)
}

// nestedField finds the object argument, at any depth, whose value holds
// the unknown field: its dotted path and the Go type it decodes into; ""
// when the field is one of the call's own.
func nestedField(raw json.RawMessage, typ reflect.Type, field string) (string, reflect.Type) {
	for typ != nil && (typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice) {
		typ = typ.Elem()
	}
	var obj map[string]json.RawMessage
	if typ == nil || typ.Kind() != reflect.Struct || json.Unmarshal(raw, &obj) != nil {
		return "", nil
	}
	if _, ok := obj[field]; ok {
		return "", nil
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ft := jsonFieldType(typ, k)
		if ft == nil {
			continue
		}
		inner := ft
		for inner.Kind() == reflect.Pointer {
			inner = inner.Elem()
		}
		var sub map[string]json.RawMessage
		if inner.Kind() != reflect.Struct || json.Unmarshal(obj[k], &sub) != nil {
			continue
		}
		if _, ok := sub[field]; ok {
			return k, inner
		}
		if p, t := nestedField(obj[k], inner, field); p != "" {
			return k + "." + p, t
		}
	}
	return "", nil
}

// jsonFieldType is the type of struct typ's field named name in JSON.
func jsonFieldType(typ reflect.Type, name string) reflect.Type {
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if t := jsonFieldType(f.Type, name); t != nil {
				return t
			}
			continue
		}
		if jsonName(f) == name {
			return f.Type
		}
	}
	return nil
}

// jsonFields are the JSON names of struct typ's fields.
func jsonFields(typ reflect.Type) []string {
	var out []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
		} else if n := jsonName(f); n != "" && f.IsExported() {
			out = append(out, n)
		}
	}
	return out
}

func jsonName(f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch tag {
	case "-":
		return ""
	case "":
		return f.Name
	}
	return tag
}

func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int64", "int32", "float64", "float32", "uint":
		return "number"
	case "slice":
		return "array"
	case "map", "struct", "ptr":
		return "object"
	case "bool":
		return "boolean"
	}
	return goKind
}

func article(s string) string {
	switch {
	case s == "":
		return s
	case strings.Contains("aeiou", s[:1]):
		return "an " + s
	}
	return "a " + s
}

// bind attaches a typed tool function to a tool.
func bind[Req any](t *Tool, fn func(ctx context.Context, r *Repo, x *query.Index, req *Req) (any, error)) *Tool {
	t.reqType = reflect.TypeFor[Req]()
	t.call = func(ctx context.Context, r *Repo, x *query.Index, raw json.RawMessage) (any, error) {
		var req Req
		if err := decode(raw, &req, t); err != nil {
			return nil, err
		}
		if err := t.checkArgs(raw); err != nil {
			return nil, err
		}
		return fn(ctx, r, x, &req)
	}
	return t
}

func f(v float64) *float64 { return &v }
