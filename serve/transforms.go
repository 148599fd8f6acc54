package serve

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/sdl-dev/sdl/query"
)

// The internal transforms of sdl.chain. Each takes its arguments as
// decoded JSON (references already resolved) and returns a JSON value.
// Field paths are relative to an element: "name", "range.startLine",
// "deps.calls[0].label"; "." is the element itself.

// transformArgs checks a transform's argument names.
func transformArgs(args map[string]any, required []string, optional ...string) error {
	allowed := map[string]bool{}
	for _, k := range append(append([]string{}, required...), optional...) {
		allowed[k] = true
	}
	for k := range args {
		if !allowed[k] {
			return fmt.Errorf("unknown argument %q; it takes: %s", k, strings.Join(append(append([]string{}, required...), optional...), ", "))
		}
	}
	for _, k := range required {
		if _, ok := args[k]; !ok {
			return fmt.Errorf("%s: required", k)
		}
	}
	return nil
}

// field reads a relative path from v.
func field(v any, p string) (any, error) {
	if p == "." || p == "" {
		return v, nil
	}
	if !strings.HasPrefix(p, "[") {
		p = "." + p
	}
	if !pathOK().MatchString(p) {
		return nil, fmt.Errorf("%q is not a field path (write name, a.b, list[0].c)", strings.TrimPrefix(p, "."))
	}
	return walkPath(v, p, "element")
}

var pathOK = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:\.[A-Za-z_][A-Za-z0-9_]*|\[-?\d+\]|\[\*\])+$`) })

// fieldList reads a fields argument: ["a", "b.c"] or {"alias": "path"}.
func fieldList(v any) (names, paths []string, err error) {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, nil, fmt.Errorf("fields[%d]: must be a string path", i)
			}
			name := s
			if j := strings.LastIndexAny(s, ".]"); j >= 0 && j+1 < len(s) {
				name = strings.TrimLeft(s[j+1:], ".")
			}
			names, paths = append(names, name), append(paths, s)
		}
	case map[string]any:
		for _, k := range keysOf(x) {
			s, ok := x[k].(string)
			if !ok {
				return nil, nil, fmt.Errorf("fields.%s: must be a string path", k)
			}
			names, paths = append(names, k), append(paths, s)
		}
	default:
		return nil, nil, fmt.Errorf("fields: must be a list of paths or an object {name: path}")
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("fields: name at least one field")
	}
	return names, paths, nil
}

func pickOne(v any, names, paths []string) (any, error) {
	out := make(map[string]any, len(paths))
	for i, p := range paths {
		val, err := field(v, p)
		if err != nil {
			// a missing field is null: results of one action vary in shape
			if strings.Contains(err.Error(), "has no field") {
				out[names[i]] = nil
				continue
			}
			return nil, fmt.Errorf("fields %q: %v", p, err)
		}
		out[names[i]] = val
	}
	return out, nil
}

// dataPick projects fields of an object, or of each object of an array.
func dataPick(args map[string]any) (any, error) {
	if err := transformArgs(args, []string{"from", "fields"}); err != nil {
		return nil, err
	}
	names, paths, err := fieldList(args["fields"])
	if err != nil {
		return nil, err
	}
	if arr, ok := args["from"].([]any); ok {
		out := make([]any, 0, len(arr))
		for i, e := range arr {
			o, err := pickOne(e, names, paths)
			if err != nil {
				return nil, fmt.Errorf("from[%d]: %v", i, err)
			}
			out = append(out, o)
		}
		return out, nil
	}
	if _, ok := args["from"].(map[string]any); !ok {
		return nil, fmt.Errorf("from: must be an object or an array of objects, got %s", kindOf(args["from"]))
	}
	return pickOne(args["from"], names, paths)
}

// dataMap projects each element of an array: one field to a list of
// values, or several to a list of objects.
func dataMap(args map[string]any) (any, error) {
	if err := transformArgs(args, []string{"from"}, "field", "fields"); err != nil {
		return nil, err
	}
	arr, ok := args["from"].([]any)
	if !ok {
		return nil, fmt.Errorf("from: must be an array, got %s", kindOf(args["from"]))
	}
	f, hasField := args["field"].(string)
	_, hasFields := args["fields"]
	if hasField == hasFields {
		return nil, fmt.Errorf("give one of field (a path: a list of values) or fields (paths: a list of objects)")
	}
	if hasFields {
		return dataPick(map[string]any{"from": arr, "fields": args["fields"]})
	}
	out := make([]any, 0, len(arr))
	for i, e := range arr {
		v, err := field(e, f)
		if err != nil {
			return nil, fmt.Errorf("from[%d]: field %q: %v", i, f, err)
		}
		out = append(out, v)
	}
	return out, nil
}

var filterOps = []string{"eq", "ne", "gt", "gte", "lt", "lte", "contains", "notContains", "startsWith", "endsWith", "in", "notIn", "exists", "notExists", "matches"}

var opAliases = map[string]string{"==": "eq", "=": "eq", "!=": "ne", ">": "gt", ">=": "gte", "<": "lt", "<=": "lte"}

type clause struct {
	field string
	op    string
	value any
	re    *regexp.Regexp
}

// dataFilter keeps the elements of an array that meet every clause (or
// any, with match: "any").
func dataFilter(args map[string]any) (any, error) {
	if err := transformArgs(args, []string{"from", "where"}, "match"); err != nil {
		return nil, err
	}
	arr, ok := args["from"].([]any)
	if !ok {
		return nil, fmt.Errorf("from: must be an array, got %s", kindOf(args["from"]))
	}
	match := "all"
	if m, ok := args["match"]; ok {
		match, _ = m.(string)
		if match != "all" && match != "any" {
			return nil, fmt.Errorf("match: must be all or any")
		}
	}
	raw := args["where"]
	if obj, ok := raw.(map[string]any); ok {
		raw = []any{obj}
	}
	list, ok := raw.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("where: give clauses [{field, op, value}]; op is one of %s", strings.Join(filterOps, ", "))
	}
	var cs []clause
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("where[%d]: must be an object {field, op, value}", i)
		}
		c := clause{value: m["value"]}
		c.field, _ = m["field"].(string)
		c.op, _ = m["op"].(string)
		if a, ok := opAliases[c.op]; ok {
			c.op = a
		}
		for k := range m {
			if k != "field" && k != "op" && k != "value" {
				return nil, fmt.Errorf("where[%d]: unknown key %q; a clause is {field, op, value}", i, k)
			}
		}
		if c.field == "" {
			return nil, fmt.Errorf("where[%d].field: required, a path in each element", i)
		}
		if !contains(filterOps, c.op) {
			return nil, fmt.Errorf("where[%d].op: %q is not one of %s", i, c.op, strings.Join(filterOps, ", "))
		}
		if _, has := m["value"]; !has && c.op != "exists" && c.op != "notExists" {
			return nil, fmt.Errorf("where[%d].value: required for op %s", i, c.op)
		}
		switch c.op {
		case "in", "notIn":
			if _, ok := c.value.([]any); !ok {
				return nil, fmt.Errorf("where[%d].value: op %s takes an array", i, c.op)
			}
		case "matches":
			s, _ := c.value.(string)
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, fmt.Errorf("where[%d].value: not a regular expression: %v", i, err)
			}
			c.re = re
		case "gt", "gte", "lt", "lte":
			if _, ok := c.value.(float64); !ok {
				if _, ok := c.value.(string); !ok {
					return nil, fmt.Errorf("where[%d].value: op %s compares numbers or strings", i, c.op)
				}
			}
		}
		cs = append(cs, c)
	}
	out := []any{}
	for _, e := range arr {
		keep := match == "all"
		for _, c := range cs {
			ok := c.test(e)
			if match == "all" && !ok {
				keep = false
				break
			}
			if match == "any" && ok {
				keep = true
				break
			}
		}
		if keep {
			out = append(out, e)
		}
	}
	return out, nil
}

func (c clause) test(e any) bool {
	v, err := field(e, c.field)
	exists := err == nil && v != nil
	switch c.op {
	case "exists":
		return exists
	case "notExists":
		return !exists
	}
	if err != nil {
		return c.op == "ne" || c.op == "notIn" || c.op == "notContains"
	}
	switch c.op {
	case "eq":
		return equal(v, c.value)
	case "ne":
		return !equal(v, c.value)
	case "gt", "gte", "lt", "lte":
		d, ok := compare(v, c.value)
		if !ok {
			return false
		}
		switch c.op {
		case "gt":
			return d > 0
		case "gte":
			return d >= 0
		case "lt":
			return d < 0
		}
		return d <= 0
	case "contains", "notContains":
		has := false
		switch x := v.(type) {
		case string:
			s, _ := c.value.(string)
			has = strings.Contains(x, s)
		case []any:
			for _, y := range x {
				if equal(y, c.value) {
					has = true
				}
			}
		}
		return has == (c.op == "contains")
	case "startsWith", "endsWith":
		x, _ := v.(string)
		s, _ := c.value.(string)
		if c.op == "startsWith" {
			return strings.HasPrefix(x, s)
		}
		return strings.HasSuffix(x, s)
	case "in", "notIn":
		in := false
		for _, y := range c.value.([]any) {
			if equal(v, y) {
				in = true
			}
		}
		return in == (c.op == "in")
	case "matches":
		x, ok := v.(string)
		return ok && c.re.MatchString(x)
	}
	return false
}

func equal(a, b any) bool {
	if d, ok := compare(a, b); ok {
		return d == 0
	}
	return fmt.Sprint(a) == fmt.Sprint(b) && kindOf(a) == kindOf(b)
}

// compare orders two numbers or two strings.
func compare(a, b any) (int, bool) {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		if !ok {
			return 0, false
		}
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	case string:
		y, ok := b.(string)
		if !ok {
			return 0, false
		}
		return strings.Compare(x, y), true
	case bool:
		y, ok := b.(bool)
		if !ok {
			return 0, false
		}
		if x == y {
			return 0, true
		}
		if !x {
			return -1, true
		}
		return 1, true
	}
	return 0, false
}

// dataSort sorts an array by one or more fields; missing values go last.
func dataSort(args map[string]any) (any, error) {
	if err := transformArgs(args, []string{"from", "by"}, "order"); err != nil {
		return nil, err
	}
	arr, ok := args["from"].([]any)
	if !ok {
		return nil, fmt.Errorf("from: must be an array, got %s", kindOf(args["from"]))
	}
	var by []string
	switch x := args["by"].(type) {
	case string:
		by = []string{x}
	case []any:
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("by[%d]: must be a field path", i)
			}
			by = append(by, s)
		}
	}
	if len(by) == 0 {
		return nil, fmt.Errorf("by: a field path, or a list of them for ties")
	}
	desc := false
	if o, ok := args["order"]; ok {
		switch o {
		case "asc":
		case "desc":
			desc = true
		default:
			return nil, fmt.Errorf("order: must be asc or desc")
		}
	}
	for _, p := range by {
		if p != "." && !pathOK().MatchString("."+strings.TrimPrefix(p, ".")) && !strings.HasPrefix(p, "[") {
			return nil, fmt.Errorf("by: %q is not a field path", p)
		}
	}
	out := append([]any{}, arr...)
	keys := make([][]any, len(out))
	for i, e := range out {
		for _, p := range by {
			v, err := field(e, p)
			if err != nil {
				v = nil
			}
			keys[i] = append(keys[i], v)
		}
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ka, kb := keys[idx[a]], keys[idx[b]]
		for k := range ka {
			x, y := ka[k], kb[k]
			if x == nil || y == nil {
				if (x == nil) != (y == nil) {
					return y == nil // missing last, either order
				}
				continue
			}
			d, ok := compare(x, y)
			if !ok {
				d = strings.Compare(fmt.Sprint(x), fmt.Sprint(y))
			}
			if d != 0 {
				return (d < 0) != desc
			}
		}
		return false
	})
	sorted := make([]any, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted, nil
}

var placeholderRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`) })

// dataTemplate renders a template with {{path}} placeholders against an
// object, or against each element of an array (joined with joiner when
// one is given, else a list of strings).
func dataTemplate(args map[string]any) (any, error) {
	if err := transformArgs(args, []string{"template", "data"}, "joiner"); err != nil {
		return nil, err
	}
	tpl, ok := args["template"].(string)
	if !ok || tpl == "" {
		return nil, fmt.Errorf("template: a string with {{field}} placeholders")
	}
	render := func(v any, at string) (string, error) {
		var ferr error
		out := placeholderRE().ReplaceAllStringFunc(tpl, func(m string) string {
			p := placeholderRE().FindStringSubmatch(m)[1]
			val, err := field(v, p)
			if err != nil {
				if ferr == nil {
					ferr = fmt.Errorf("template placeholder {{%s}} in %s: %v", p, at, err)
				}
				return ""
			}
			return textOf(val)
		})
		return out, ferr
	}
	if arr, ok := args["data"].([]any); ok {
		lines := make([]string, 0, len(arr))
		for i, e := range arr {
			s, err := render(e, fmt.Sprintf("data[%d]", i))
			if err != nil {
				return nil, err
			}
			lines = append(lines, s)
		}
		if j, ok := args["joiner"]; ok {
			js, ok := j.(string)
			if !ok {
				return nil, fmt.Errorf("joiner: must be a string")
			}
			return strings.Join(lines, js), nil
		}
		out := make([]any, len(lines))
		for i, l := range lines {
			out[i] = l
		}
		return out, nil
	}
	return render(args["data"], "data")
}

// textOf renders a JSON value for a template.
func textOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = textOf(e)
		}
		return strings.Join(parts, ", ")
	}
	return strings.TrimSpace(string(query.EncodeJSON(v)))
}
