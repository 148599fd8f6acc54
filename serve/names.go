package serve

import (
	"regexp"
	"strings"
)

// Tools are written by their spec names (sdl.symbol.getCard) in sdl's
// code, query's messages and the descriptions, but clients call them by
// the names tools/list gives (sdl_symbol_get_card) and refuse any other.
// advertised is the one place a tool name becomes the listed one: every
// description, answer, error and hint the server sends passes through it.

// dottedName matches a spec name and what may follow it in prose.
var dottedName = regexp.MustCompile(`\bsdl(?:\.[a-zA-Z]+)+`)

// advertised rewrites the spec names of tools in s to their MCP names.
func (r *Registry) advertised(s string) string {
	if !strings.Contains(s, "sdl.") {
		return s
	}
	return dottedName.ReplaceAllStringFunc(s, func(m string) string {
		// the longest prefix that names a tool: "sdl.memory.query.x" is
		// sdl.memory.query followed by ".x"
		for p := m; strings.Count(p, ".") >= 1; p = p[:strings.LastIndexByte(p, '.')] {
			if t := r.byName[nameKey(p)]; t != nil && strings.HasPrefix(nameKey(p), "sdl") {
				return t.MCPName() + m[len(p):]
			}
		}
		return m
	})
}

// advertisedJSON is advertised over an encoded answer: tool names never
// contain characters JSON escapes, so the rewrite keeps it valid.
func (r *Registry) advertisedJSON(b []byte) []byte {
	if !strings.Contains(string(b), "sdl.") {
		return b
	}
	return []byte(r.advertised(string(b)))
}
