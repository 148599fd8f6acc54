package serve

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/schema"
)

//go:embed instructions.md
var instructions string

// DefaultMaxOutputTokens is the output cap of a response unless the
// client's is configured: no answer is larger.
const DefaultMaxOutputTokens = 25000

// Options configure a server.
type Options struct {
	Name            string
	Version         string
	MaxOutputTokens int
	Log             *log.Logger
	// LogPath is where Log writes ("" for stderr), for sdl.info.
	LogPath string
	// BufferDebounce is how long pushed buffers settle before the overlay
	// is parsed; 0 means DefaultBufferDebounce.
	BufferDebounce time.Duration
	// Tools is the surface the server lists: SurfaceAll (""), SurfaceLadder
	// or SurfaceGateway; check it with CheckSurface.
	Tools string
}

// CheckSurface refuses an unknown surface name.
func CheckSurface(name string) error {
	if _, ok := surfaceTools[name]; !ok && name != "" {
		return fmt.Errorf("%w: %q", ErrSurface, name)
	}
	return nil
}

// addOwnTools adds the tools the server itself answers (info, usage,
// chain, orchestrate...) to the registry of the query tools.
func (s *Server) addOwnTools(reg *Registry) {
	for _, t := range append(s.serverTools(), s.agentTools()...) {
		if _, err := reg.Lookup(t.Name); err != nil {
			reg.add(t)
		}
	}
	sort.Slice(reg.tools, func(i, j int) bool { return reg.tools[i].Name < reg.tools[j].Name })
}

// Server answers MCP requests with the tools of a registry.
type Server struct {
	reg   *Registry
	repos *Repos
	opts  Options
	mcp   *server.MCPServer
	usage *usageStats
	cache *resultCache
}

// New makes a server over repos.
func New(reg *Registry, repos *Repos, opts Options) *Server {
	if opts.MaxOutputTokens <= 0 {
		opts.MaxOutputTokens = DefaultMaxOutputTokens
	}
	if opts.Name == "" {
		opts.Name = "sdl"
	}
	if opts.Log == nil {
		opts.Log = log.New(io.Discard, "", 0)
	}
	if opts.BufferDebounce <= 0 {
		opts.BufferDebounce = DefaultBufferDebounce
	}
	s := &Server{reg: reg, repos: repos, opts: opts, usage: newUsageStats(), cache: newResultCache(256)}
	for _, id := range repos.IDs() {
		r, _ := repos.Get(id)
		r.live.version, r.live.debounce, r.live.log = opts.Version, opts.BufferDebounce, opts.Log
	}
	s.addOwnTools(reg)
	if err := reg.setSurface(opts.Tools); err != nil {
		opts.Log.Printf("%v: listing every tool", err)
		reg.setSurface(SurfaceAll)
	}
	hooks := &server.Hooks{}
	// A dotted name (sdl.symbol.search) reaches the tool listed with
	// underscores: clients reject dots in listed names, people type them.
	hooks.AddBeforeCallTool(func(ctx context.Context, id any, req *mcp.CallToolRequest) {
		if t, err := reg.Lookup(req.Params.Name); err == nil {
			req.Params.Name = t.MCPName()
		}
	})
	s.mcp = server.NewMCPServer(opts.Name, opts.Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(reg.advertised(instructions)),
		server.WithHooks(hooks),
		server.WithRecovery(),
	)
	for _, t := range reg.ListedTools() {
		s.mcp.AddTool(mcpTool(reg, t), s.handler(t))
	}
	return s
}

// Log is the server's logger.
func (s *Server) Log() *log.Logger { return s.opts.Log }

// Registry is the server's tool registry.
func (s *Server) Registry() *Registry { return s.reg }

// MCP is the underlying mcp-go server.
func (s *Server) MCP() *server.MCPServer { return s.mcp }

func mcpTool(reg *Registry, t *Tool) mcp.Tool {
	yes, no := true, false
	ann := mcp.ToolAnnotation{Title: t.Title, ReadOnlyHint: &t.ReadOnly, OpenWorldHint: &no}
	if t.ReadOnly {
		ann.DestructiveHint = &no
		ann.IdempotentHint = &yes
	} else {
		ann.DestructiveHint = &no
	}
	return mcp.Tool{Name: t.MCPName(), Title: t.Title, Description: reg.advertised(t.Description),
		RawInputSchema: reg.advertisedJSON(t.InputSchemaJSON()), Annotations: ann}
}

// handler runs a tool call and shapes its answer: stamped with the ledger
// version and the stale files it mentions, and within the output cap.
func (s *Server) handler(t *Tool) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw, err := json.Marshal(req.GetRawArguments())
		if err != nil {
			return errorResult(s.reg, t, fmt.Errorf("%w: %v", ErrArgs, err)), nil
		}
		res, repo, err := s.reg.CallRepo(ctx, s.repos, t.Name, raw)
		if err != nil {
			// the log is printed beside the answers (the MCP inspector
			// shows stderr): the same names the client can call
			s.opts.Log.Print(s.reg.advertised(fmt.Sprintf("%s: %v", t.Name, err)))
			s.usage.record(t.Name, 0, 0, true)
			return errorResult(s.reg, t, err), nil
		}
		out, err := s.shape(ctx, t, repo, res)
		if err != nil {
			return errorResult(s.reg, t, err), nil
		}
		return mcp.NewToolResultText(string(out)), nil
	}
}

// Call runs a tool as the MCP handler does, for callers in process.
func (s *Server) Call(ctx context.Context, name string, raw json.RawMessage) (json.RawMessage, error) {
	t, err := s.reg.Lookup(name)
	if err != nil {
		return nil, err
	}
	res, repo, err := s.reg.CallRepo(ctx, s.repos, t.Name, raw)
	if err != nil {
		return nil, err
	}
	return s.shape(ctx, t, repo, res)
}

// listFields are the array fields an answer may be cut at to fit the cap.
var listFields = []string{"results", "cards", "symbols", "memories", "feedback", "actions", "findings", "frontier", "changes"}

// shape stamps an answer and holds it under the output cap.
func (s *Server) shape(ctx context.Context, t *Tool, repo *Repo, res any) ([]byte, error) {
	b := query.EncodeJSON(res)
	if b == nil {
		return nil, fmt.Errorf("encode %s answer", t.Name)
	}
	var obj map[string]any
	if json.Unmarshal(b, &obj) != nil || obj == nil {
		return b, nil
	}
	// stamp the answer, keeping its field order: the extra fields go last
	var extra []byte
	if repo != nil {
		if x, err := repo.Index(); err == nil {
			if _, ok := obj["ledgerVersion"]; !ok {
				if v, err := x.Current(ctx); err == nil {
					obj["ledgerVersion"] = v.ID
					extra = appendField(extra, "ledgerVersion", v.ID)
				}
			}
			if seq, files := repo.live.active(); t.Live && len(files) > 0 {
				ov := map[string]any{"overlayVersion": seq, "files": files,
					"note": "answered from unsaved editor buffers for these files"}
				obj["overlay"] = ov
				extra = appendField(extra, "overlay", ov)
			}
			if _, ok := obj["staleFiles"]; !ok {
				if stale := x.StaleFiles(ctx, filesIn(obj, 200)); len(stale) > 0 {
					obj["staleFiles"] = stale
					extra = appendField(extra, "staleFiles", stale)
				}
			}
		}
	}
	out := b
	if len(extra) > 0 {
		trimmed := bytes.TrimRight(b, " \n")
		out = append(append(append([]byte{}, trimmed[:len(trimmed)-1]...), extra...), '}')
		if len(trimmed) == 2 { // "{}": no leading comma
			out = append([]byte{'{'}, append(bytes.TrimPrefix(extra, []byte{','}), '}')...)
		}
	}
	n := query.Tokens(string(out))
	for n > s.opts.MaxOutputTokens {
		cut := false
		for _, f := range listFields {
			if list, ok := obj[f].([]any); ok && len(list) > 0 {
				keep := len(list) * s.opts.MaxOutputTokens / n
				if keep >= len(list) {
					keep = len(list) - 1
				}
				obj[f] = list[:keep]
				obj["outputCap"] = map[string]any{"truncated": true, "field": f, "returned": keep, "dropped": len(list) - keep,
					"maxOutputTokens": s.opts.MaxOutputTokens, "hint": "ask for less: a smaller limit, pageSize or budget"}
				cut = true
				break
			}
		}
		if !cut {
			return nil, fmt.Errorf("%w: the answer has %d tokens, over the output cap of %d; ask for less (a smaller limit, budget or maxTokens)",
				ErrArgs, n, s.opts.MaxOutputTokens)
		}
		out = query.EncodeJSON(obj)
		n = query.Tokens(string(out))
	}
	s.usage.record(t.Name, n, rawTokens(repo, obj), false)
	return s.reg.advertisedJSON(out), nil
}

// appendField appends ,"key":value to buf.
func appendField(buf []byte, key string, v any) []byte {
	val := query.EncodeJSON(v)
	buf = append(buf, ',', '"')
	buf = append(buf, key...)
	buf = append(buf, '"', ':')
	return append(buf, val...)
}

// filesIn collects the repository paths an answer mentions.
func filesIn(v any, max int) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		if len(out) >= max {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			if f, ok := x["file"].(string); ok && f != "" && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// errorResult is a tool error the model can read and act on: what went
// wrong, what kind of problem it is, and what to call or send instead.
func errorResult(reg *Registry, t *Tool, err error) *mcp.CallToolResult {
	code := "error"
	hint := ""
	var amb *query.AmbiguousError
	switch {
	case errors.Is(err, ErrArgs), errors.Is(err, query.ErrInvalid):
		code = "invalid_arguments"
		hint = "fix the named argument; the tool's input schema lists every argument"
		if t.Example != "" {
			hint += "; for example: " + t.Example
		}
	case errors.As(err, &amb):
		code = "ambiguous"
		hint = "pass a symbolId from the candidates, or add file or kind to the reference"
	case errors.Is(err, query.ErrNotFound):
		code = "not_found"
		hint = "ids change when the code does: find the current id with sdl_symbol_search, or name the symbol with symbolRef {name, file?} where the tool takes one"
	case errors.Is(err, query.ErrMemoryNotFound):
		code = "not_found"
		hint = "find memory ids with sdl_memory_query"
	case errors.Is(err, ErrUnknownRepo):
		code = "unknown_repo"
	case errors.Is(err, query.ErrHandle):
		code = "unknown_handle"
		hint = "build a new slice with sdl_slice_build"
	case errors.Is(err, ErrIndexing):
		code = "indexing"
		hint = "the server is building the repository's first index; call again in a few seconds"
	case errors.Is(err, schema.ErrNoIndex):
		code = "no_index"
		hint = "index the repository: run sdl index in it, or call sdl_index_refresh"
	case errors.Is(schema.Corrupt(err), schema.ErrCorrupt):
		code = "index_corrupt"
		err = schema.Corrupt(err)
		hint = "the index file is damaged; rebuild it: sdl index, or call sdl_index_refresh"
	case errors.Is(err, schema.ErrVersion):
		code = "index_outdated"
		hint = "rebuild the index with this sdl: sdl index, or call sdl_index_refresh"
	}
	body := map[string]any{"error": strings.TrimSpace(err.Error()), "code": code, "tool": t.MCPName()}
	if hint != "" {
		body["hint"] = hint
	}
	b, _ := json.Marshal(body)
	if reg != nil {
		b = reg.advertisedJSON(b)
	}
	return mcp.NewToolResultError(string(b))
}
