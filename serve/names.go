package serve

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Tools are written by their spec names (sdl.symbol.getCard) in sdl's
// code, query's messages and the descriptions, but clients call them by
// the names tools/list gives (sdl_symbol_get_card) and refuse any other.
// advertised is the one place a tool name becomes the listed one: every
// description, answer, error and hint the server sends passes through it.

// toolName matches a spec name (sdl.symbol.getCard) or an MCP name
// (sdl_symbol_get_card) and what may follow it in prose.
var toolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bsdl(?:[._][a-zA-Z]+)+`) })

// advertised rewrites the names of tools in s to the names the client
// can call: the MCP name of a listed tool, and for a tool the server's
// surface leaves off the list, its action name as an sdl_chain step.
func (r *Registry) advertised(s string) string {
	if !strings.Contains(s, "sdl.") && (r.surface == nil || !strings.Contains(s, "sdl_")) {
		return s
	}
	return quotedToolName().ReplaceAllStringFunc(s, func(m string) string {
		if q := strings.Trim(m, `"`); len(q) == len(m)-2 {
			if t := r.byName[nameKey(q)]; t != nil {
				// a value that is exactly a tool's name (an action's
				// "tool" or "mcpName") stays a name a program can use
				if !r.Listed(t) {
					return `"` + t.ActionName() + `"`
				}
				return `"` + t.MCPName() + `"`
			}
		}
		return toolName().ReplaceAllStringFunc(m, func(m string) string {
			// the longest prefix that names a tool: "sdl.memory.query.x" is
			// sdl.memory.query followed by ".x"
			for p := m; strings.ContainsAny(p, "._"); p = p[:strings.LastIndexAny(p, "._")] {
				t := r.byName[nameKey(p)]
				if t == nil || !strings.HasPrefix(nameKey(p), "sdl") {
					continue
				}
				if !r.Listed(t) {
					return fmt.Sprintf("%s (an sdl_chain step)", t.ActionName()) + m[len(p):]
				}
				return t.MCPName() + m[len(p):]
			}
			return m
		})
	})
}

// quotedToolName is toolName with the quotes around it, if any.
var quotedToolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"?\bsdl(?:[._][a-zA-Z]+)+"?`) })

// advertisedJSON is advertised over an encoded answer: tool names never
// contain characters JSON escapes, so the rewrite keeps it valid.
func (r *Registry) advertisedJSON(b []byte) []byte {
	if !strings.Contains(string(b), "sdl.") && (r.surface == nil || !strings.Contains(string(b), "sdl_")) {
		return b
	}
	return []byte(r.advertised(string(b)))
}
