package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/schema"
)

// InfoRequest takes no arguments.
type InfoRequest struct{}

// UsageRequest is sdl.usage.stats.
type UsageRequest struct {
	Scope   string `json:"scope,omitempty"`
	Persist bool   `json:"persist,omitempty"`
	Since   string `json:"since,omitempty"`
	Limit   int    `json:"limit,omitempty"`
}

// RefreshRequest is sdl.index.refresh.
type RefreshRequest struct {
	Full bool `json:"full,omitempty"`
}

// StatusRequest is sdl.repo.status.
type StatusRequest struct {
	CheckFreshness *bool `json:"checkFreshness,omitempty"`
}

// serverTools are the tools that report on the server itself.
func (s *Server) serverTools() []*Tool {
	info := &Tool{
		Name:  "sdl.info",
		Title: "Describe the server",
		Description: "The server's version, runtime, repositories and their indexes, parsers, and any setup problem with " +
			"the command that fixes it. Cheap; call it when something looks wrong.",
		ReadOnly: true, NoRepo: true, Example: `{}`,
	}
	usage := &Tool{
		Name:  "sdl.usage.stats",
		Title: "Token usage and savings",
		Description: "Tokens returned by each tool in this session against the tokens of the whole files those answers " +
			"mention (what reading them would have cost), and past sessions that were persisted. persist: true appends " +
			"this session's counters to .sdl/usage.jsonl.",
		ReadOnly: true, NoRepo: true,
		Args: []Arg{repoArg,
			{Name: "scope", Type: "string", Enum: []string{"session", "history", "both"}, Description: "Default both."},
			{Name: "persist", Type: "boolean"},
			{Name: "since", Type: "string", Description: "ISO timestamp: history from then on."},
			{Name: "limit", Type: "integer", Min: f(1), Max: f(100), Description: "History entries (default 20)."},
		},
		Example: `{"scope": "session"}`,
	}
	refresh := &Tool{
		Name:  "sdl.index.refresh",
		Title: "Refresh the index",
		Description: "Index the repository again: only changed files are parsed, and a new ledger version is recorded if " +
			"anything changed. Queries keep answering meanwhile. Use after editing files, when answers list staleFiles.",
		OwnIndex: true,
		Args:     []Arg{repoArg, {Name: "full", Type: "boolean", Description: "Parse every file again."}},
		Example:  `{}`,
	}
	status := &Tool{
		Name:  "sdl.repo.status",
		Title: "Repository status",
		Description: "The index's current version, its counts, and whether the working tree changed since (the files " +
			"added, changed and removed). Checking freshness reads every source file; pass checkFreshness: false to skip it.",
		ReadOnly: true,
		Args:     []Arg{repoArg, {Name: "checkFreshness", Type: "boolean", Description: "Default true."}},
		Example:  `{}`,
	}
	return []*Tool{
		bind(info, func(ctx context.Context, r *Repo, x *query.Index, req *InfoRequest) (any, error) {
			return s.info(ctx), nil
		}),
		bind(usage, func(ctx context.Context, r *Repo, x *query.Index, req *UsageRequest) (any, error) {
			return s.usageReport(ctx, req)
		}),
		bind(refresh, func(ctx context.Context, r *Repo, x *query.Index, req *RefreshRequest) (any, error) {
			if r.Building() {
				return nil, r.buildState()
			}
			sum, err := index.Run(ctx, index.Options{Root: r.Root, DB: r.DB, Full: req.Full, SDLVersion: s.opts.Version})
			if err != nil {
				return nil, err
			}
			r.build.mu.Lock()
			r.build.err = nil // a failed first build is behind us
			r.build.mu.Unlock()
			return map[string]any{"repoId": r.ID, "summary": sum, "ledgerVersion": sum.Version}, nil
		}),
		bind(status, func(ctx context.Context, r *Repo, x *query.Index, req *StatusRequest) (any, error) {
			return s.status(ctx, r, x, req.CheckFreshness == nil || *req.CheckFreshness)
		}),
	}
}

func (s *Server) info(ctx context.Context) map[string]any {
	var warnings, mis []string
	var repos []map[string]any
	for _, id := range s.repos.IDs() {
		r, _ := s.repos.Get(id)
		e := map[string]any{"repoId": r.ID, "root": r.Root, "index": r.DB}
		switch err := schema.Sniff(r.DB); {
		case err == nil:
			e["available"] = true
			if x, err := r.Index(); err == nil {
				if v, err := x.Current(ctx); err == nil {
					e["ledgerVersion"] = v.ID
					e["symbols"] = v.Symbols
					e["indexedAt"] = v.CreatedAt
				}
			}
		default:
			e["available"] = false
			e["reason"] = err.Error()
			mis = append(mis, fmt.Sprintf("%s: %v: run `sdl index %s`", r.ID, err, r.Root))
		}
		if _, err := os.Stat(r.Root); err != nil {
			mis = append(mis, fmt.Sprintf("%s: the repository directory %s is missing", r.ID, r.Root))
		}
		repos = append(repos, e)
	}
	var langs []string
	for _, l := range lang.All() {
		langs = append(langs, l.Name)
	}
	if len(repos) == 0 {
		warnings = append(warnings, "no repository configured")
	}
	cfg := ""
	exists := false
	if len(s.repos.IDs()) > 0 {
		r, _ := s.repos.Get(s.repos.IDs()[0])
		cfg = filepath.Join(r.Root, ".sdl", "config.yaml")
		_, err := os.Stat(cfg)
		exists = err == nil
	}
	return map[string]any{
		"version":           s.opts.Version,
		"runtime":           map[string]any{"go": runtime.Version(), "platform": runtime.GOOS, "arch": runtime.GOARCH, "sqlite": query.SQLiteVersion()},
		"config":            map[string]any{"path": cfg, "exists": exists, "loaded": exists},
		"logging":           map[string]any{"path": s.opts.LogPath, "consoleMirroring": s.opts.LogPath == "", "fallbackUsed": false},
		"index":             map[string]any{"schemaVersion": schema.Version, "repositories": repos},
		"native":            map[string]any{"available": true, "parsers": langs, "engine": "tree-sitter (cgo)", "disabledByEnv": false},
		"maxOutputTokens":   s.opts.MaxOutputTokens,
		"warnings":          nonNil(warnings),
		"misconfigurations": nonNil(mis),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (s *Server) status(ctx context.Context, r *Repo, x *query.Index, fresh bool) (map[string]any, error) {
	in, err := x.Info(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"repoId": r.ID, "root": r.Root, "index": r.DB, "files": in.Files, "symbols": in.Symbols,
		"edges": in.Edges, "languages": in.Languages, "versions": len(in.Versions), "bytes": in.Bytes}
	if n := len(in.Versions); n > 0 {
		v := in.Versions[n-1]
		out["ledgerVersion"] = v.ID
		out["indexedAt"] = v.CreatedAt
		if v.GitCommit != "" {
			out["git"] = map[string]any{"commit": v.GitCommit, "dirty": v.GitDirty}
		}
	}
	if fresh {
		f, err := index.CheckFreshness(ctx, r.Root, r.DB, index.WalkOptions{})
		if err != nil {
			return nil, err
		}
		out["freshness"] = f
	}
	return out, nil
}

func (s *Server) usageReport(ctx context.Context, req *UsageRequest) (any, error) {
	if req.Scope == "" {
		req.Scope = "both"
	}
	if req.Scope != "session" && req.Scope != "history" && req.Scope != "both" {
		return nil, fmt.Errorf("%w: scope: %q is not one of session, history, both", ErrArgs, req.Scope)
	}
	if req.Limit == 0 {
		req.Limit = 20
	}
	if req.Limit < 1 || req.Limit > 100 {
		return nil, fmt.Errorf("%w: limit: must be between 1 and 100, got %d", ErrArgs, req.Limit)
	}
	var since time.Time
	if req.Since != "" {
		t, err := time.Parse(time.RFC3339, req.Since)
		if err != nil {
			return nil, fmt.Errorf("%w: since: %q is not an ISO timestamp like 2026-01-02T15:04:05Z", ErrArgs, req.Since)
		}
		since = t
	}
	started, tools := s.usage.snapshot()
	session := sessionUsage(started, tools)
	out := map[string]any{"formula": "returned = tokens of the answers (o200k); rawFileTokens = sum over the distinct files each answer mentions of the file's bytes / 4; saved = rawFileTokens - returned; ratio = rawFileTokens / returned"}
	if req.Scope != "history" {
		out["session"] = session
	}
	path := s.usagePath()
	if req.Persist && path != "" {
		line, _ := json.Marshal(session)
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, fmt.Errorf("persist usage to %s: %w", path, err)
		}
		_, err = f.Write(append(line, '\n'))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("persist usage to %s: %w", path, err)
		}
		out["persistedTo"] = path
	}
	if req.Scope != "session" {
		hist, totals := readUsageHistory(path, since, req.Limit)
		out["history"] = hist
		out["historyTotals"] = totals
	}
	return out, nil
}

func sessionUsage(started time.Time, tools map[string]toolUsage) map[string]any {
	var calls, returned, raw int
	per := map[string]any{}
	for _, name := range sortedTools(tools) {
		t := tools[name]
		calls += t.Calls
		returned += t.TokensReturned
		raw += t.RawTokens
		per[name] = t
	}
	ratio := 0.0
	if returned > 0 {
		ratio = float64(raw) / float64(returned)
	}
	return map[string]any{"startedAt": started.UTC().Format(time.RFC3339), "recordedAt": time.Now().UTC().Format(time.RFC3339),
		"calls": calls, "tokensReturned": returned, "rawFileTokens": raw, "tokensSaved": raw - returned,
		"compressionRatio": float64(int(ratio*100)) / 100, "tools": per}
}

func (s *Server) usagePath() string {
	ids := s.repos.IDs()
	if len(ids) == 0 {
		return ""
	}
	r, _ := s.repos.Get(ids[0])
	return filepath.Join(filepath.Dir(r.DB), "usage.jsonl")
}

// readUsageHistory returns the last limit persisted sessions since a time,
// and the totals of every persisted session since then: the history is
// aggregated, not only listed.
func readUsageHistory(path string, since time.Time, limit int) ([]json.RawMessage, map[string]any) {
	out := []json.RawMessage{}
	tools := map[string]toolUsage{}
	sessions := 0
	totals := func() map[string]any {
		t := sessionUsage(time.Time{}, tools)
		delete(t, "startedAt")
		delete(t, "recordedAt")
		t["sessions"] = sessions
		return t
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return out, totals()
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	var all []json.RawMessage
	for sc.Scan() {
		var rec struct {
			RecordedAt string               `json:"recordedAt"`
			Tools      map[string]toolUsage `json:"tools"`
		}
		line := append([]byte(nil), sc.Bytes()...)
		if json.Unmarshal(line, &rec) != nil {
			continue
		}
		if t, err := time.Parse(time.RFC3339, rec.RecordedAt); err == nil && t.Before(since) {
			continue
		}
		all = append(all, line)
		sessions++
		for name, u := range rec.Tools {
			t := tools[name]
			t.Calls += u.Calls
			t.Errors += u.Errors
			t.TokensReturned += u.TokensReturned
			t.RawTokens += u.RawTokens
			tools[name] = t
		}
	}
	if len(all) > limit {
		all = all[len(all)-limit:]
	}
	return append(out, all...), totals()
}
