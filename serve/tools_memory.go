package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/query"
	"github.com/sdl-dev/sdl/schema"
)

// MemoryStoreRequest is sdl.memory.store. An absent list (nil) keeps the
// memory's list on an update; an empty one clears it.
type MemoryStoreRequest struct {
	Type         string   `json:"type"`
	Title        string   `json:"title"`
	Content      string   `json:"content"`
	Tags         []string `json:"tags,omitempty"`
	Confidence   *float64 `json:"confidence,omitempty"`
	SymbolIDs    []string `json:"symbolIds,omitempty"`
	FileRelPaths []string `json:"fileRelPaths,omitempty"`
	MemoryID     string   `json:"memoryId,omitempty"`
}

// MemoryStoreResponse is its answer.
type MemoryStoreResponse struct {
	OK           bool   `json:"ok"`
	MemoryID     string `json:"memoryId"`
	Created      bool   `json:"created"`
	Deduplicated bool   `json:"deduplicated"`
	// Path is the memory's file: commit it to share the memory.
	Path string `json:"path"`
}

// MemoryRemoveRequest is sdl.memory.remove.
type MemoryRemoveRequest struct {
	MemoryID   string `json:"memoryId"`
	DeleteFile *bool  `json:"deleteFile,omitempty"`
}

// MemoryRemoveResponse is its answer.
type MemoryRemoveResponse struct {
	OK          bool   `json:"ok"`
	MemoryID    string `json:"memoryId"`
	FileDeleted bool   `json:"fileDeleted"`
	Path        string `json:"path"`
}

// FeedbackRequest is sdl.agent.feedback.
type FeedbackRequest struct {
	VersionID      string   `json:"versionId"`
	SliceHandle    string   `json:"sliceHandle"`
	UsefulSymbols  []string `json:"usefulSymbols"`
	MissingSymbols []string `json:"missingSymbols,omitempty"`
	TaskTags       []string `json:"taskTags,omitempty"`
	TaskType       string   `json:"taskType,omitempty"`
	TaskText       string   `json:"taskText,omitempty"`
}

// FeedbackResponse is its answer.
type FeedbackResponse struct {
	OK              bool   `json:"ok"`
	FeedbackID      string `json:"feedbackId"`
	RepoID          string `json:"repoId"`
	VersionID       string `json:"versionId"`
	SymbolsRecorded int    `json:"symbolsRecorded"`
}

// Feedback limits.
const (
	maxFeedbackSymbols  = 500
	maxFeedbackTaskText = 20000
	maxFeedbackTags     = 20
)

var memoryTypes = []string{memoryfs.TypeDecision, memoryfs.TypeBugfix, memoryfs.TypeTaskContext}

func memoryTools() []*Tool {
	store := &Tool{
		Name:  "sdl.memory.store",
		Title: "Store a development memory",
		Description: "Record what you learned that the code does not say: a bugfix's root cause, a design decision and why, " +
			"handoff notes. Link it to the symbols (symbolIds from search or slices) and files it is about: it then appears in " +
			"every slice that touches them, for you and for teammates (it is written to .sdl-memory/<type>/<id>.md; commit that " +
			"file). The same type+title+content stored twice returns the first (deduplicated). Pass memoryId to update a memory " +
			"in place, which also clears its stale flag. Cheap: about 60 tokens.",
		Args: []Arg{repoArg,
			{Name: "type", Type: "string", Required: true, Enum: memoryTypes, Description: "decision, bugfix or task_context."},
			{Name: "title", Type: "string", Required: true, Description: "Short and scannable: 1-120 characters."},
			{Name: "content", Type: "string", Required: true, Description: "The memory in markdown, 1-50,000 characters: the why, not only the what."},
			{Name: "tags", Type: "array", Items: "string", Description: "Up to 20 tags for cross-cutting queries."},
			{Name: "confidence", Type: "number", Min: f(0), Max: f(1), Description: "0.9+ verified facts, 0.5-0.7 hypotheses (default 0.8)."},
			{Name: "symbolIds", Type: "array", Items: "string", Description: "Up to 100 symbol ids the memory is about."},
			{Name: "fileRelPaths", Type: "array", Items: "string", Description: "Up to 100 repository-relative files it is about."},
			{Name: "memoryId", Type: "string", Description: "Update this memory in place (clears stale)."},
		},
		Example: `{"type": "bugfix", "title": "Race condition in authenticate()", "content": "Two requests wrote the session map at once; a mutex now guards it.", "tags": ["auth"], "confidence": 0.9}`,
	}
	queryTool := &Tool{
		Name:  "sdl.memory.query",
		Title: "Search development memories",
		Description: "Find memories by words in their title and content (query), type, tags (any), linked symbols (any), or " +
			"only the stale ones (their code changed since: review, update or remove them). Sorted by recency (default), " +
			"confidence, or relevance (bm25 of query, fused with the memories' vectors when the index has them: then a memory " +
			"that says it in other words is found too; retrievalMode says hybrid or lexical). Each memory costs its " +
			"content's tokens; use limit.",
		ReadOnly: true,
		Args: []Arg{repoArg,
			{Name: "query", Type: "string", Description: "Words to find in title and content (up to 1,000 characters)."},
			{Name: "types", Type: "array", Items: "string", Enum: memoryTypes, Description: "Only these types: decision, bugfix, task_context."},
			{Name: "tags", Type: "array", Items: "string", Description: "Any of these tags (up to 20)."},
			{Name: "symbolIds", Type: "array", Items: "string", Description: "Linked to any of these symbols (up to 100)."},
			{Name: "staleOnly", Type: "boolean", Description: "Only memories whose linked code changed since."},
			{Name: "limit", Type: "integer", Min: f(1), Max: f(100), Description: "Default 20."},
			{Name: "sortBy", Type: "string", Enum: []string{"recency", "confidence", "relevance"}, Description: "Default recency."},
			{Name: "semantic", Type: "boolean", Description: "false: match query by words only (bm25), not vectors. Default: vectors too when the index has them."},
		},
		Example: `{"query": "auth token", "types": ["bugfix", "decision"], "limit": 10}`,
	}
	remove := &Tool{
		Name:  "sdl.memory.remove",
		Title: "Remove a development memory",
		Description: "Remove a memory that no longer holds. deleteFile (default true) deletes its .sdl-memory file; false " +
			"keeps the file marked deleted: true, so version control keeps its history. Either way it is no longer answered.",
		Args: []Arg{repoArg,
			{Name: "memoryId", Type: "string", Required: true},
			{Name: "deleteFile", Type: "boolean", Description: "Delete the file (default true) or mark it deleted."},
		},
		Example: `{"memoryId": "0123456789abcdef", "deleteFile": false}`,
	}
	surface := &Tool{
		Name:  "sdl.memory.surface",
		Title: "Memories relevant to symbols",
		Description: "The memories most relevant to a set of symbols (say, the cards of your slice), ranked by confidence x " +
			"recency (1 today, 0.5 at 30 days) x overlap (the share of your symbols a memory is linked to; repo-level memories " +
			"always qualify, below linked ones). Slices already include the top 5; call this for more, or by task type.",
		ReadOnly: true,
		Args: []Arg{repoArg,
			{Name: "symbolIds", Type: "array", Items: "string", Description: "Up to 500 symbol ids; none: every memory, by confidence x recency."},
			{Name: "taskType", Type: "string", Enum: memoryTypes, Description: "Only memories of this type."},
			{Name: "limit", Type: "integer", Min: f(1), Max: f(50), Description: "Default 10."},
		},
		Example: `{"symbolIds": ["0123456789abcdef"], "limit": 5}`,
	}
	feedback := &Tool{
		Name:  "sdl.agent.feedback",
		Title: "Report which symbols a slice got right",
		Description: "After a task, report which symbols were useful and which you needed but the slice lacked. Later slices " +
			"for similar task text favour the useful ones. Recorded to .sdl/feedback.jsonl next to the index; cheap.",
		Args: []Arg{repoArg,
			{Name: "versionId", Type: "string", Required: true, Description: "The ledgerVersion of the slice."},
			{Name: "sliceHandle", Type: "string", Required: true, Description: "The slice's handle."},
			{Name: "usefulSymbols", Type: "array", Items: "string", Required: true, Description: "1-500 symbol ids that were useful."},
			{Name: "missingSymbols", Type: "array", Items: "string", Description: "Up to 500 symbol ids you needed that the slice lacked."},
			{Name: "taskTags", Type: "array", Items: "string", Description: "Up to 20 tags."},
			{Name: "taskType", Type: "string", Enum: taskTypes},
			{Name: "taskText", Type: "string", Description: "The task, as you gave it to sdl.slice.build."},
		},
		Example: `{"versionId": "v3", "sliceHandle": "h_0123456789abcdef0123", "usefulSymbols": ["0123456789abcdef"], "taskType": "debug", "taskText": "auth timeout"}`,
	}
	feedbackQuery := &Tool{
		Name:  "sdl.agent.feedback.query",
		Title: "Query agent feedback",
		Description: "Feedback records, newest first, with the symbols most often reported useful and missing: for tuning " +
			"slices offline. Filter by versionId and since (ISO time); limit 1-1000 (default 100).",
		ReadOnly: true,
		Args: []Arg{repoArg,
			{Name: "versionId", Type: "string"},
			{Name: "limit", Type: "integer", Min: f(1), Max: f(1000)},
			{Name: "since", Type: "string", Description: "ISO timestamp."},
		},
		Example: `{"limit": 50}`,
	}
	return []*Tool{
		bind(store, func(ctx context.Context, r *Repo, x *query.Index, req *MemoryStoreRequest) (any, error) {
			return storeMemory(ctx, r, x, req)
		}),
		bind(queryTool, func(ctx context.Context, r *Repo, x *query.Index, req *query.MemoryQueryRequest) (any, error) {
			return x.QueryMemories(ctx, *req)
		}),
		bind(remove, func(ctx context.Context, r *Repo, x *query.Index, req *MemoryRemoveRequest) (any, error) {
			return removeMemory(ctx, r, x, req)
		}),
		bind(surface, func(ctx context.Context, r *Repo, x *query.Index, req *query.SurfaceRequest) (any, error) {
			return x.SurfaceMemories(ctx, *req)
		}),
		bind(feedback, func(ctx context.Context, r *Repo, x *query.Index, req *FeedbackRequest) (any, error) {
			return recordFeedback(ctx, r, x, req)
		}),
		bind(feedbackQuery, func(ctx context.Context, r *Repo, x *query.Index, req *query.FeedbackQueryRequest) (any, error) {
			return x.QueryFeedback(ctx, *req)
		}),
	}
}

func argErr(field, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrArgs, field, fmt.Sprintf(format, args...))
}

// memoryError rewrites a memoryfs validation error as an argument error
// naming the field.
func memoryError(err error) error {
	if errors.Is(err, memoryfs.ErrInvalid) {
		return fmt.Errorf("%w: %s", ErrArgs, strings.TrimPrefix(err.Error(), memoryfs.ErrInvalid.Error()+": "))
	}
	return err
}

// checkSymbols refuses symbol ids the current index does not hold.
func checkSymbols(ctx context.Context, x *query.Index, field string, ids []string, seq int64) error {
	missing, err := x.MissingSymbols(ctx, ids, seq)
	if err != nil {
		return err
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return argErr(field, "no symbol has id %q; find ids with sdl_symbol_search or in a slice's cards", missing[0])
	}
	return argErr(field, "no symbol has id %q (nor %d more); find ids with sdl_symbol_search or in a slice's cards",
		missing[0], len(missing)-1)
}

// storeMemory writes a memory's file. New memories get an id derived from
// their content hash, so that two servers storing the same memory at once
// write one file; the id is random when that one is taken by another
// memory. Dedup is against every memory the index and the files hold.
func storeMemory(ctx context.Context, r *Repo, x *query.Index, req *MemoryStoreRequest) (*MemoryStoreResponse, error) {
	for _, fv := range [][2]string{{"type", req.Type}, {"title", req.Title}, {"content", req.Content}} {
		if fv[1] == "" {
			return nil, argErr(fv[0], "required")
		}
	}
	if !memoryfs.ValidType(req.Type) {
		return nil, argErr("type", "%q is not a memory type; use decision, bugfix or task_context", req.Type)
	}
	if req.MemoryID != "" && !memoryfs.ValidID(req.MemoryID) {
		return nil, argErr("memoryId", "%q is not a memory id: 1-%d letters, digits, '-' or '_'", req.MemoryID, memoryfs.MaxIDLen)
	}
	if len(req.SymbolIDs) <= memoryfs.MaxLinks {
		if err := checkSymbols(ctx, x, "symbolIds", req.SymbolIDs, 0); err != nil {
			return nil, err
		}
	}
	r.memMu.Lock()
	defer r.memMu.Unlock()
	all, err := x.Memories(ctx, true)
	if err != nil {
		return nil, err
	}
	repoID := memoryfs.RepoID(r.Root)
	hash := memoryfs.ContentHash(repoID, req.Type, req.Title, req.Content)
	m := &memoryfs.Memory{Type: req.Type, Title: req.Title, Content: req.Content, Confidence: memoryfs.DefaultConfidence,
		CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
	var old *query.Memory
	created := true
	if req.MemoryID == "" {
		for _, o := range all {
			if !o.Deleted && o.ContentHash == hash {
				return &MemoryStoreResponse{OK: true, MemoryID: o.MemoryID, Deduplicated: true, Path: o.Path}, nil
			}
		}
		m.ID = memoryfs.IDFromHash(hash)
		rel := memoryfs.RelPath(m.Type, m.ID)
		if o := all[m.ID]; o == nil && fileExists(memoryfs.FilePath(r.Root, m.Type, m.ID)) {
			// a file this process has not seen yet: another process may
			// have just stored the same memory
			if f, err := memoryfs.Read(r.Root, rel); err == nil && !f.Memory.Deleted &&
				memoryfs.ContentHash(repoID, f.Memory.Type, f.Memory.Title, f.Memory.Content) == hash {
				return &MemoryStoreResponse{OK: true, MemoryID: m.ID, Deduplicated: true, Path: rel}, nil
			}
		}
		if o := all[m.ID]; o != nil && !o.Deleted || o == nil && fileExists(memoryfs.FilePath(r.Root, m.Type, m.ID)) {
			m.ID = memoryfs.RandomID() // the derived id names another memory (or a file that is not one)
		} else {
			old = o // a deleted memory with this content comes back
		}
	} else {
		m.ID = req.MemoryID
		if old = all[m.ID]; old != nil && !old.Deleted {
			created = false
			// keep what the request leaves out, and what sdl does not know
			if f, err := memoryfs.Read(r.Root, old.Path); err == nil {
				kept := f.Memory
				kept.Type, kept.Title, kept.Content = m.Type, m.Title, m.Content
				m = kept
			} else {
				m.Tags, m.Confidence, m.Symbols, m.Files = old.Tags, old.Confidence, old.SymbolIDs, old.FileRelPaths
			}
		}
	}
	if req.Tags != nil {
		m.Tags = req.Tags
	}
	if req.Confidence != nil {
		m.Confidence = *req.Confidence
	}
	if req.SymbolIDs != nil {
		m.Symbols = req.SymbolIDs
	}
	if req.FileRelPaths != nil {
		m.Files = req.FileRelPaths
	}
	m.Stale, m.StaleVersion, m.Deleted = false, "", false
	// what it is written against: the index compares it with the code it
	// imports the memory with
	m.Fingerprints, err = seenFingerprints(ctx, r, x, m.Symbols)
	if err != nil {
		return nil, err
	}
	m.FingerprintVersion = ""
	if len(m.Fingerprints) > 0 {
		m.FingerprintVersion = index.ExtractVersion
	}
	if err := m.Validate(); err != nil {
		return nil, memoryError(err)
	}
	rel, _, err := memoryfs.Write(r.Root, m)
	if err != nil {
		return nil, err
	}
	if old != nil && old.Path != rel {
		// the type changed, or a hand-written file had another name
		if err := memoryfs.Remove(r.Root, old.Path); err != nil {
			return nil, err
		}
	}
	return &MemoryStoreResponse{OK: true, MemoryID: m.ID, Created: created, Path: rel}, nil
}

// seenFingerprints returns the fingerprint of each linked symbol's code as
// the writer of a memory sees it now: the editor's buffer of its file when
// one is open, else the file on disk. When that text is what the index
// holds, the index's fingerprint is it; else the text is parsed as an index
// run would. A symbol the writer's text no longer defines, or in a file
// that cannot be read, gets none, and is not compared.
func seenFingerprints(ctx context.Context, r *Repo, x *query.Index, ids []string) (map[string]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	codes, err := x.CodeFingerprints(ctx, ids)
	if err != nil {
		return nil, err
	}
	// per file: nil when the index holds the writer's text, else the
	// fingerprints of that text (none when it cannot be read or parsed)
	seen := map[string]map[string]string{}
	out := map[string]string{}
	for _, id := range ids {
		c, ok := codes[id]
		if !ok {
			continue
		}
		fps, done := seen[c.Path]
		if !done {
			text, open := r.live.bufferContent(c.Path)
			var err error
			if !open {
				text, err = readCode(r.Root, c.Path)
			}
			switch {
			case err != nil:
				fps = map[string]string{}
			case index.ContentHash(text) == c.FileHash:
				fps = nil
			default:
				if fps, err = index.Fingerprints(c.Path, text); err != nil {
					fps = map[string]string{}
				}
			}
			seen[c.Path] = fps
		}
		if fps == nil {
			out[id] = c.Fingerprint
		} else if fp, ok := fps[id]; ok {
			out[id] = fp
		}
	}
	return out, nil
}

// readCode reads a source file of the repository, refusing one larger
// than a buffer may be: sdl does not index it.
func readCode(root, rel string) ([]byte, error) {
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBufferBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBufferBytes {
		return nil, fmt.Errorf("read %s: over %d bytes", rel, MaxBufferBytes)
	}
	return data, nil
}

// removeMemory deletes a memory's file, or marks it deleted: true.
func removeMemory(ctx context.Context, r *Repo, x *query.Index, req *MemoryRemoveRequest) (*MemoryRemoveResponse, error) {
	if req.MemoryID == "" {
		return nil, argErr("memoryId", "required")
	}
	r.memMu.Lock()
	defer r.memMu.Unlock()
	m, err := x.Memory(ctx, req.MemoryID, false)
	if err != nil {
		return nil, err
	}
	resp := &MemoryRemoveResponse{OK: true, MemoryID: m.MemoryID, Path: m.Path}
	if req.DeleteFile == nil || *req.DeleteFile {
		if err := memoryfs.Remove(r.Root, m.Path); err != nil {
			return nil, err
		}
		resp.FileDeleted = true
		return resp, nil
	}
	f, err := memoryfs.Read(r.Root, m.Path)
	if err != nil {
		return nil, fmt.Errorf("remove memory %s: %w", m.MemoryID, err)
	}
	f.Memory.Deleted = true
	data, err := memoryfs.Marshal(f.Memory)
	if err != nil {
		return nil, err
	}
	if err := memoryfs.WriteFile(memoryPath(r.Root, m.Path), data); err != nil {
		return nil, err
	}
	return resp, nil
}

// recordFeedback appends a feedback record to the sidecar next to the
// index; the next index run imports it.
func recordFeedback(ctx context.Context, r *Repo, x *query.Index, req *FeedbackRequest) (*FeedbackResponse, error) {
	if req.VersionID == "" {
		return nil, argErr("versionId", "required: the ledgerVersion of the slice")
	}
	// a slice answered from unsaved editor buffers has a draft version
	// ("v3-draft"), one past the shared index's; its symbols may exist
	// only in the drafts, so they are checked against no version
	base, draft := strings.CutSuffix(req.VersionID, "-draft")
	seq, err := strconv.ParseInt(strings.TrimPrefix(base, "v"), 10, 64)
	cur, cerr := x.Current(ctx)
	if cerr != nil {
		return nil, cerr
	}
	maxSeq := cur.Seq
	if draft {
		maxSeq++
	}
	if err != nil || !strings.HasPrefix(base, "v") || seq < 1 || seq > maxSeq {
		return nil, argErr("versionId", "%q is not a version of this index (v1 to %s); pass the slice's ledgerVersion", req.VersionID, cur.ID)
	}
	if strings.TrimSpace(req.SliceHandle) == "" || len(req.SliceHandle) > 200 {
		return nil, argErr("sliceHandle", "required: the sliceHandle of the slice (at most 200 characters)")
	}
	if len(req.UsefulSymbols) == 0 {
		return nil, argErr("usefulSymbols", "at least one symbol id that was useful")
	}
	for _, list := range []struct {
		field string
		ids   []string
	}{{"usefulSymbols", req.UsefulSymbols}, {"missingSymbols", req.MissingSymbols}} {
		if len(list.ids) > maxFeedbackSymbols {
			return nil, argErr(list.field, "at most %d, got %d", maxFeedbackSymbols, len(list.ids))
		}
		if draft {
			continue
		}
		if err := checkSymbols(ctx, x, list.field, list.ids, seq); err != nil {
			return nil, err
		}
	}
	if len(req.TaskTags) > maxFeedbackTags {
		return nil, argErr("taskTags", "at most %d, got %d", maxFeedbackTags, len(req.TaskTags))
	}
	if req.TaskType != "" && !contains(taskTypes, req.TaskType) {
		return nil, argErr("taskType", "%q is not a task type; use debug, review, implement or explain", req.TaskType)
	}
	if n := utf8.RuneCountInString(req.TaskText); n > maxFeedbackTaskText {
		return nil, argErr("taskText", "at most %d characters, got %d", maxFeedbackTaskText, n)
	}
	rec := &schema.Feedback{FeedbackID: memoryfs.RandomID(), VersionID: req.VersionID, SliceHandle: req.SliceHandle,
		UsefulSymbols: req.UsefulSymbols, MissingSymbols: nonNil(req.MissingSymbols), TaskTags: nonNil(req.TaskTags),
		TaskType: req.TaskType, TaskText: req.TaskText, CreatedAt: time.Now().UTC().Format(time.RFC3339Nano)}
	if err := schema.AppendFeedback(schema.FeedbackPath(r.DB), rec); err != nil {
		return nil, err
	}
	return &FeedbackResponse{OK: true, FeedbackID: rec.FeedbackID, RepoID: r.ID, VersionID: req.VersionID,
		SymbolsRecorded: len(req.UsefulSymbols) + len(req.MissingSymbols)}, nil
}
