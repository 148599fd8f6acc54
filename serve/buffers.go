package serve

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/query"
)

// Live editor buffers. An editor pushes the content of the files it has
// open; the server indexes them into an overlay: a scratch copy of the
// index (an SQLite online backup in .sdl/) to which an incremental run of
// the same index package adds the buffers' contents as a version. Tools
// that read code (search, cards, slices, skeleton, hot path, window,
// summary) answer from the overlay while one exists, so a function renamed
// in an unsaved buffer is found by its new name; the shared index file is
// never written for a draft. A save or a checkpoint indexes the files into
// the shared index (a new ledger version), and the overlay is dropped once
// no buffer differs from it.
//
// The overlay is a whole copy rather than rows kept in memory so that
// every query (ranking, graph, FTS) sees the buffers exactly as the index
// would, with no second code path to drift. The copy costs one page copy
// (about 1 s for the 125 MB index of GOROOT, milliseconds for most
// repositories) when the first buffer diverges, and an incremental run of
// the changed files after each burst of edits.

// Limits on what the overlay holds.
const (
	MaxBufferBytes = 5 << 20 // one buffer's content
	MaxBuffers     = 256     // open buffers per repository
	maxBufferTotal = 256 << 20
	// DefaultBufferDebounce is how long a burst of edits settles before
	// the overlay is parsed; a query that needs the overlay parses at once.
	DefaultBufferDebounce = 300 * time.Millisecond
)

// ErrBuffer means a buffer event breaks a rule.
var ErrBuffer = errors.New("buffer event refused")

type buffer struct {
	content  []byte
	version  int64
	dirty    bool
	language string
	at       time.Time
}

// overlay is the scratch index built from the buffers.
type overlay struct {
	db      string
	x       *query.Index
	baseKey string            // the base version it was copied from
	files   map[string][]byte // the contents it was built from
}

// live is one repository's buffers and overlay.
type live struct {
	repo     *Repo
	version  string
	debounce time.Duration
	log      *log.Logger

	mu          sync.Mutex
	bufs        map[string]*buffer
	total       int
	seq         int64 // overlayVersion: accepted events
	lastEvent   time.Time
	parseWanted bool
	cpWanted    bool
	cpRunning   bool
	working     int // parses and checkpoints under way
	cpReason    string
	timer       *time.Timer
	ov          *overlay
	inBase      map[string][]byte // unsaved contents a checkpoint put in the shared index
	revert      map[string]bool   // paths to index from disk again at the next checkpoint
	lastCP      time.Time
	lastCPRes   string
	lastCPErr   string
	lastCPID    string
	lastCPFiles int
	lastCPFail  int
	lastParse   time.Time
	lastParseMS float64
	lastErr     string
	cpCount     int

	work sync.Mutex   // one parse or checkpoint at a time
	use  sync.RWMutex // queries hold it shared; replacing the overlay file holds it exclusively
}

func newLive(r *Repo) *live {
	return &live{repo: r, debounce: DefaultBufferDebounce, log: log.New(discard{}, "", 0),
		bufs: map[string]*buffer{}, inBase: map[string][]byte{}, revert: map[string]bool{}}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// BufferPushRequest is sdl.buffer.push.
type BufferPushRequest struct {
	EventType  string      `json:"eventType"`
	FilePath   string      `json:"filePath"`
	Content    *string     `json:"content"`
	Version    *int64      `json:"version"`
	Dirty      *bool       `json:"dirty"`
	Timestamp  string      `json:"timestamp"`
	Language   string      `json:"language,omitempty"`
	Cursor     *Position   `json:"cursor,omitempty"`
	Selections []Selection `json:"selections,omitempty"`
}

// Position is a cursor position.
type Position struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// Selection is a selected range.
type Selection struct {
	StartLine int `json:"startLine"`
	StartCol  int `json:"startCol"`
	EndLine   int `json:"endLine"`
	EndCol    int `json:"endCol"`
}

// BufferPushResponse says what the overlay did with an event.
type BufferPushResponse struct {
	Accepted            bool     `json:"accepted"`
	RepoID              string   `json:"repoId"`
	OverlayVersion      int64    `json:"overlayVersion"`
	ParseScheduled      bool     `json:"parseScheduled"`
	CheckpointScheduled bool     `json:"checkpointScheduled"`
	Warnings            []string `json:"warnings"`
}

var eventTypes = []string{"open", "change", "save", "close", "checkpoint"}

// cleanBufferPath checks a buffer's path: relative, inside the
// repository, no "..".
func cleanBufferPath(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", fmt.Errorf("%w: filePath: required, the file's path relative to the repository root", ErrArgs)
	}
	s := strings.ReplaceAll(p, "\\", "/")
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: filePath: %q holds a NUL byte", ErrArgs, p)
	}
	if filepath.IsAbs(p) || strings.HasPrefix(s, "/") || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("%w: filePath: %q is absolute; send the path relative to the repository root", ErrArgs, p)
	}
	for _, part := range strings.Split(s, "/") {
		if part == ".." {
			return "", fmt.Errorf("%w: filePath: %q holds \"..\"; send a path inside the repository, relative to its root", ErrArgs, p)
		}
	}
	s = path.Clean(s)
	if s == "." {
		return "", fmt.Errorf("%w: filePath: %q names no file", ErrArgs, p)
	}
	first := strings.SplitN(s, "/", 2)[0]
	if first == ".git" || first == ".sdl" {
		return "", fmt.Errorf("%w: filePath: %q is inside %s, which sdl does not index", ErrArgs, p, first)
	}
	return s, nil
}

func (l *live) push(req *BufferPushRequest) (*BufferPushResponse, error) {
	if !contains(eventTypes, req.EventType) {
		return nil, fmt.Errorf("%w: eventType: %q is not one of %s", ErrArgs, req.EventType, strings.Join(eventTypes, ", "))
	}
	p, err := cleanBufferPath(req.FilePath)
	if err != nil {
		return nil, err
	}
	if req.Content == nil {
		return nil, fmt.Errorf("%w: content: required, the buffer's full text (\"\" for close)", ErrArgs)
	}
	if len(*req.Content) > MaxBufferBytes {
		return nil, fmt.Errorf("%w: content: %d bytes, over the limit of %d (5 MB); sdl does not index files that large", ErrArgs, len(*req.Content), MaxBufferBytes)
	}
	if req.Version == nil {
		return nil, fmt.Errorf("%w: version: required, the editor's buffer version (a number that grows with each change)", ErrArgs)
	}
	if req.Dirty == nil {
		return nil, fmt.Errorf("%w: dirty: required, true when the buffer has unsaved changes", ErrArgs)
	}
	at, err := time.Parse(time.RFC3339Nano, req.Timestamp)
	if err != nil {
		return nil, fmt.Errorf("%w: timestamp: %q is not an ISO 8601 time like 2026-03-07T12:00:00.000Z", ErrArgs, req.Timestamp)
	}
	if req.Cursor != nil && (req.Cursor.Line < 0 || req.Cursor.Col < 0) {
		return nil, fmt.Errorf("%w: cursor: line and col must be 0 or more", ErrArgs)
	}
	for i, s := range req.Selections {
		if s.StartLine < 0 || s.StartCol < 0 || s.EndLine < s.StartLine || s.EndLine == s.StartLine && s.EndCol < s.StartCol {
			return nil, fmt.Errorf("%w: selections[%d]: the end must not come before the start, and lines and columns are 0 or more", ErrArgs, i)
		}
	}
	resp := &BufferPushResponse{RepoID: l.repo.ID, Warnings: []string{}}
	l.mu.Lock()
	defer l.mu.Unlock()
	resp.OverlayVersion = l.seq
	b := l.bufs[p]
	if b != nil && *req.Version < b.version {
		resp.Warnings = append(resp.Warnings, fmt.Sprintf("version %d of %s is older than version %d the overlay holds; event ignored", *req.Version, p, b.version))
		return resp, nil
	}
	content := []byte(*req.Content)
	switch req.EventType {
	case "close":
		if b != nil {
			l.total -= len(b.content)
			delete(l.bufs, p)
		}
		if _, ok := l.inBase[p]; ok {
			// the shared index holds text that was never saved: index the file on disk again
			l.revert[p] = true
			l.cpWanted = true
			resp.CheckpointScheduled = true
		}
		l.parseWanted = true
		resp.ParseScheduled = true
	default:
		if b == nil {
			if len(l.bufs) >= MaxBuffers {
				resp.Warnings = append(resp.Warnings, fmt.Sprintf("max draft files exceeded: the overlay holds %d buffers; close some (eventType close) first", MaxBuffers))
				return resp, nil
			}
			b = &buffer{}
		}
		if l.total-len(b.content)+len(content) > maxBufferTotal {
			resp.Warnings = append(resp.Warnings, fmt.Sprintf("the overlay's buffers would exceed %d MB; close some first", maxBufferTotal>>20))
			return resp, nil
		}
		l.total += len(content) - len(b.content)
		b.content, b.version, b.dirty, b.at = content, *req.Version, *req.Dirty, at
		b.language = req.Language
		l.bufs[p] = b
		if lang.ForPath(p) == nil {
			resp.Warnings = append(resp.Warnings, fmt.Sprintf("%s is not in a language sdl indexes; the buffer is kept but adds no symbols", p))
		}
		if req.Language != "" && lang.ForPath(p) != nil && !sameLanguage(req.Language, lang.ForPath(p).Name) {
			resp.Warnings = append(resp.Warnings, fmt.Sprintf("language %q: sdl parses %s as %s, by its extension", req.Language, p, lang.ForPath(p).Name))
		}
		l.parseWanted = true
		resp.ParseScheduled = true
		if req.EventType == "save" || req.EventType == "checkpoint" {
			l.cpWanted = true
			if req.EventType == "save" {
				b.dirty = false
				l.cpReason = "save"
			} else {
				l.cpReason = "checkpoint event"
			}
			resp.CheckpointScheduled = true
		}
	}
	l.seq++
	l.lastEvent = time.Now()
	resp.Accepted = true
	resp.OverlayVersion = l.seq
	l.scheduleLocked()
	return resp, nil
}

func sameLanguage(editor, ours string) bool {
	e := strings.ToLower(editor)
	switch {
	case e == ours:
		return true
	case ours == "javascript" && (e == "javascriptreact" || e == "js" || e == "jsx"):
		return true
	case ours == "typescript" && (e == "ts"):
		return true
	case ours == "tsx" && (e == "typescriptreact" || e == "typescript"):
		return true
	case ours == "python" && e == "py", ours == "rust" && e == "rs", ours == "go" && e == "golang":
		return true
	}
	return false
}

// scheduleLocked (re)starts the debounce timer.
func (l *live) scheduleLocked() {
	if l.timer != nil {
		l.timer.Stop()
	}
	l.timer = time.AfterFunc(l.debounce, func() {
		if err := l.flush(context.Background()); err != nil {
			l.log.Printf("buffers %s: %v", l.repo.ID, err)
		}
	})
}

// flush runs the checkpoint and the parse that are wanted, now, or waits
// for the ones under way.
func (l *live) flush(ctx context.Context) error {
	var errs []error
	if _, err := l.checkpoint(ctx, "", false); err != nil {
		errs = append(errs, err)
	}
	if err := l.parse(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// baseKey names the shared index's current state: the overlay is copied
// again when it changes.
func baseKey(ctx context.Context, r *Repo, x *query.Index) string {
	v, _ := x.Current(ctx)
	return fmt.Sprintf("%d/%s", fileID(r.DB), v.Hash)
}

// parse brings the overlay up to date with the buffers.
func (l *live) parse(ctx context.Context) (err error) {
	l.work.Lock()
	defer l.work.Unlock()
	start := time.Now()
	l.mu.Lock()
	if !l.parseWanted {
		l.mu.Unlock()
		return nil
	}
	l.working++
	defer func() {
		l.mu.Lock()
		l.working--
		l.mu.Unlock()
	}()
	l.parseWanted = false
	snap := map[string][]byte{}
	for p, b := range l.bufs {
		if lang.ForPath(p) != nil {
			snap[p] = b.content
		}
	}
	ov := l.ov
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.lastParse, l.lastParseMS = time.Now(), float64(time.Since(start).Microseconds())/1000
		l.lastErr = ""
		if err != nil {
			l.lastErr = err.Error()
		}
		l.mu.Unlock()
	}()

	base, err := l.repo.Index()
	if err != nil {
		return err
	}
	paths := make([]string, 0, len(snap))
	for p := range snap {
		paths = append(paths, p)
	}
	hashes, err := base.FileHashes(ctx, paths)
	if err != nil {
		return err
	}
	differ := map[string][]byte{}
	for p, c := range snap {
		if index.ContentHash(c) != hashes[p] {
			differ[p] = c
		}
	}
	if len(differ) == 0 {
		l.dropOverlay()
		return nil
	}
	key := baseKey(ctx, l.repo, base)
	if ov != nil && ov.baseKey == key {
		// a path the overlay changed that no longer differs must go back
		// to the shared index's content: copy again rather than guess it
		for p := range ov.files {
			if _, ok := differ[p]; !ok {
				ov = nil
				break
			}
		}
	} else {
		ov = nil
	}
	if ov == nil {
		l.dropOverlay()
		dir := overlayDir(l.repo.DB)
		ov = &overlay{baseKey: key, db: overlayPath(dir)}
		removeDeadOverlays(dir)
		if err := index.Snapshot(ctx, l.repo.DB, ov.db); err != nil {
			return err
		}
	}
	changed := map[string][]byte{}
	for p, c := range differ {
		if old, ok := ov.files[p]; !ok || string(old) != string(c) {
			changed[p] = c
		}
	}
	if len(changed) > 0 {
		opts := index.Options{Root: l.repo.Root, DB: ov.db, NoGit: true, NoSync: true, SDLVersion: l.version, Overlay: changed,
			VersionSuffix: "-draft"}
		for p := range changed {
			opts.Paths = append(opts.Paths, p)
		}
		sort.Strings(opts.Paths)
		if _, err := index.Run(ctx, opts); err != nil {
			removeOverlayFiles(ov.db)
			return fmt.Errorf("index buffers: %w", err)
		}
	}
	if ov.x == nil {
		x, err := query.Open(ov.db, l.repo.Root)
		if err != nil {
			removeOverlayFiles(ov.db)
			return err
		}
		x.RepoID = l.repo.ID
		x.Unsaved = l.overlayContent
		// memories stored while drafts are open are answered at once too
		x.MemoryFiles = l.repo.memories
		ov.x = x
	}
	l.mu.Lock()
	ov.files = differ
	l.ov = ov
	l.mu.Unlock()
	return nil
}

// overlayContent is the overlay index's view of the buffers: the contents
// it was built from.
func (l *live) overlayContent(p string) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ov != nil {
		if c, ok := l.ov.files[p]; ok {
			return c, true
		}
	}
	c, ok := l.inBase[p]
	return c, ok
}

// bufferContent is the editor's text of an open buffer: what the agent
// sees of the file, saved or not.
func (l *live) bufferContent(p string) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b, ok := l.bufs[p]; ok {
		return b.content, true
	}
	return nil, false
}

// baseContent is the shared index's view: unsaved text a checkpoint put
// in it.
func (l *live) baseContent(p string) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.inBase[p]
	return c, ok
}

// dropOverlay closes and removes the overlay, waiting for queries that
// use it.
func (l *live) dropOverlay() {
	l.mu.Lock()
	ov := l.ov
	l.ov = nil
	l.mu.Unlock()
	if ov == nil {
		return
	}
	l.use.Lock()
	if ov.x != nil {
		ov.x.Close()
	}
	l.use.Unlock()
	removeOverlayFiles(ov.db)
}

// index returns the index a live tool should read and a release function:
// the overlay when buffers differ from the shared index, brought up to
// date first.
func (l *live) index(ctx context.Context) (*query.Index, func(), error) {
	l.mu.Lock()
	wanted := l.parseWanted || l.cpWanted || l.working > 0
	l.mu.Unlock()
	if wanted {
		if err := l.flush(ctx); err != nil {
			l.log.Printf("buffers %s: %v", l.repo.ID, err)
		}
	}
	l.use.RLock()
	l.mu.Lock()
	ov := l.ov
	l.mu.Unlock()
	if ov != nil && ov.x != nil {
		return ov.x, l.use.RUnlock, nil
	}
	l.use.RUnlock()
	x, err := l.repo.Index()
	return x, func() {}, err
}

// active lists the paths the overlay answers from, or nil.
func (l *live) active() (int64, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ov == nil {
		return l.seq, nil
	}
	var ps []string
	for p := range l.ov.files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return l.seq, ps
}

// CheckpointResponse is sdl.buffer.checkpoint.
type CheckpointResponse struct {
	RepoID            string   `json:"repoId"`
	Requested         bool     `json:"requested"`
	CheckpointID      string   `json:"checkpointId"`
	PendingBuffers    int      `json:"pendingBuffers"`
	CheckpointedFiles int      `json:"checkpointedFiles"`
	FailedFiles       int      `json:"failedFiles"`
	LastCheckpointAt  *string  `json:"lastCheckpointAt"`
	Result            string   `json:"result"`
	LedgerVersion     string   `json:"ledgerVersion,omitempty"`
	NewVersion        bool     `json:"newVersion"`
	Files             []string `json:"files"`
	Error             string   `json:"error,omitempty"`
}

// checkpoint indexes every buffer (and every path to revert) into the
// shared index: one incremental run, one new ledger version if anything
// differs.
// Unless forced, it runs only when one is wanted.
func (l *live) checkpoint(ctx context.Context, reason string, force bool) (*CheckpointResponse, error) {
	l.work.Lock()
	defer l.work.Unlock()
	l.mu.Lock()
	if !force && !l.cpWanted {
		l.mu.Unlock()
		return nil, nil
	}
	l.working++
	defer func() {
		l.mu.Lock()
		l.working--
		l.mu.Unlock()
	}()
	l.cpWanted, l.cpRunning = false, true
	if reason == "" {
		reason = l.cpReason
	}
	l.cpCount++
	resp := &CheckpointResponse{RepoID: l.repo.ID, Requested: true, PendingBuffers: len(l.bufs), Files: []string{},
		CheckpointID: fmt.Sprintf("cp-%d-%d", time.Now().UnixMilli(), l.cpCount)}
	over := map[string][]byte{}
	var paths []string
	for p, b := range l.bufs {
		if lang.ForPath(p) == nil {
			continue
		}
		paths = append(paths, p)
		if b.dirty {
			over[p] = b.content
		}
	}
	for p := range l.revert {
		if _, open := l.bufs[p]; !open {
			paths = append(paths, p)
		}
	}
	l.mu.Unlock()
	sort.Strings(paths)
	resp.Files = append(resp.Files, paths...)
	finish := func(result string, ok, failed int, err error) (*CheckpointResponse, error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		now := time.Now()
		l.cpRunning = false
		l.lastCPRes, l.lastCPID, l.lastCPFiles, l.lastCPFail = result, resp.CheckpointID, ok, failed
		l.lastCPErr = ""
		if err != nil {
			l.lastCPErr = err.Error()
		} else if failed > 0 {
			l.lastCPErr = fmt.Sprintf("%d of %d files could not be read", failed, len(paths))
		}
		if err == nil {
			l.lastCP = now
			for _, p := range paths {
				delete(l.revert, p)
				if c, ok := over[p]; ok {
					l.inBase[p] = c
				} else {
					delete(l.inBase, p)
				}
			}
			l.parseWanted = true
		}
		resp.Result, resp.CheckpointedFiles, resp.FailedFiles = result, ok, failed
		if !l.lastCP.IsZero() {
			s := l.lastCP.UTC().Format(time.RFC3339Nano)
			resp.LastCheckpointAt = &s
		}
		if err != nil {
			resp.Error = err.Error()
		}
		l.log.Printf("checkpoint %s (%s): %s, %d files, %d failed", resp.CheckpointID, reason, result, ok, failed)
		return resp, err
	}
	if len(paths) == 0 {
		return finish("success", 0, 0, nil)
	}
	sum, err := index.Run(ctx, index.Options{Root: l.repo.Root, DB: l.repo.DB, Paths: paths, Overlay: over, SDLVersion: l.version})
	if err != nil {
		return finish("failed", 0, len(paths), fmt.Errorf("checkpoint: %w", err))
	}
	resp.LedgerVersion, resp.NewVersion = sum.Version, sum.NewVersion
	if sum.Unreadable > 0 {
		return finish("partial", len(paths)-sum.Unreadable, sum.Unreadable, nil)
	}
	return finish("success", len(paths), 0, nil)
}

// BufferStatusResponse is sdl.buffer.status.
type BufferStatusResponse struct {
	RepoID               string  `json:"repoId"`
	Enabled              bool    `json:"enabled"`
	PendingBuffers       int     `json:"pendingBuffers"`
	DirtyBuffers         int     `json:"dirtyBuffers"`
	ParseQueueDepth      int     `json:"parseQueueDepth"`
	CheckpointPending    bool    `json:"checkpointPending"`
	LastBufferEventAt    *string `json:"lastBufferEventAt"`
	LastCheckpointAt     *string `json:"lastCheckpointAt"`
	LastCheckpointResult *string `json:"lastCheckpointResult"`
	LastCheckpointError  *string `json:"lastCheckpointError"`
	// ReconcileQueueDepth counts the files whose buffer the shared index
	// does not hold yet (and the closed ones to index from disk again):
	// what the next checkpoint reconciles.
	ReconcileQueueDepth int `json:"reconcileQueueDepth"`
	// ReconcileInflight: a checkpoint is writing them now.
	ReconcileInflight bool           `json:"reconcileInflight"`
	OverlayVersion    int64          `json:"overlayVersion"`
	OverlayFiles      []string       `json:"overlayFiles"`
	Buffers           []BufferInfo   `json:"buffers"`
	LastParse         map[string]any `json:"lastParse,omitempty"`
}

// BufferInfo describes one open buffer.
type BufferInfo struct {
	FilePath string `json:"filePath"`
	Version  int64  `json:"version"`
	Dirty    bool   `json:"dirty"`
	Bytes    int    `json:"bytes"`
	Language string `json:"language,omitempty"`
	// InOverlay: the overlay was built from this content.
	InOverlay bool `json:"inOverlay"`
}

func (l *live) status() *BufferStatusResponse {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := &BufferStatusResponse{RepoID: l.repo.ID, Enabled: true, CheckpointPending: l.cpWanted || l.cpRunning, OverlayVersion: l.seq,
		OverlayFiles: []string{}, Buffers: []BufferInfo{}}
	ts := func(t time.Time) *string {
		if t.IsZero() {
			return nil
		}
		s := t.UTC().Format(time.RFC3339Nano)
		return &s
	}
	st.LastBufferEventAt = ts(l.lastEvent)
	st.LastCheckpointAt = ts(l.lastCP)
	if l.lastCPRes != "" {
		r := l.lastCPRes
		st.LastCheckpointResult = &r
	}
	if l.lastCPErr != "" {
		e := l.lastCPErr
		st.LastCheckpointError = &e
	}
	st.ReconcileInflight = l.cpRunning
	st.ReconcileQueueDepth = len(l.revert)
	for p, b := range l.bufs {
		if l.revert[p] {
			continue
		}
		if base, ok := l.inBase[p]; b.dirty && (!ok || string(base) != string(b.content)) {
			st.ReconcileQueueDepth++
		}
	}
	for p, b := range l.bufs {
		in := false
		if l.ov != nil {
			c, ok := l.ov.files[p]
			in = ok && string(c) == string(b.content)
		}
		if b.dirty {
			st.DirtyBuffers++
		}
		if l.parseWanted && !in {
			st.PendingBuffers++
		}
		st.Buffers = append(st.Buffers, BufferInfo{FilePath: p, Version: b.version, Dirty: b.dirty, Bytes: len(b.content), Language: b.language, InOverlay: in})
	}
	if l.parseWanted {
		st.ParseQueueDepth = st.PendingBuffers
		if st.ParseQueueDepth == 0 {
			st.ParseQueueDepth = 1 // a close: the overlay is rebuilt without it
		}
	}
	sort.Slice(st.Buffers, func(i, j int) bool { return st.Buffers[i].FilePath < st.Buffers[j].FilePath })
	if l.ov != nil {
		for p := range l.ov.files {
			st.OverlayFiles = append(st.OverlayFiles, p)
		}
		sort.Strings(st.OverlayFiles)
	}
	if !l.lastParse.IsZero() {
		st.LastParse = map[string]any{"at": *ts(l.lastParse), "ms": l.lastParseMS}
		if l.lastErr != "" {
			st.LastParse["error"] = l.lastErr
		}
	}
	return st
}

// close drops the overlay; unsaved text a checkpoint put in the shared
// index stays there, and the next index run replaces it from disk.
func (l *live) close() {
	l.mu.Lock()
	if l.timer != nil {
		l.timer.Stop()
	}
	l.mu.Unlock()
	l.work.Lock()
	l.dropOverlay()
	l.work.Unlock()
}

var overlaySeq struct {
	sync.Mutex
	n int
}

// overlayPath is a new scratch file in dir (see overlayDir), named for this
// process so a later server can remove what a killed one left.
func overlayPath(dir string) string {
	overlaySeq.Lock()
	overlaySeq.n++
	n := overlaySeq.n
	overlaySeq.Unlock()
	return filepath.Join(dir, fmt.Sprintf("overlay-%d-%d.db", os.Getpid(), n))
}

// overlayDir is the index's directory when this process may write there,
// else the system's temporary directory (an index in a read-only checkout).
func overlayDir(db string) string {
	dir := filepath.Dir(db)
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return os.TempDir()
	}
	f.Close()
	os.Remove(f.Name())
	return dir
}

func removeOverlayFiles(db string) {
	for _, suf := range []string{"", "-wal", "-shm", "-journal", ".lock"} {
		os.Remove(db + suf)
	}
}

// removeDeadOverlays removes from dir the scratch files of server processes
// that are gone.
func removeDeadOverlays(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "overlay-") || !strings.HasSuffix(name, ".db") {
			continue
		}
		parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(name, "overlay-"), ".db"), "-")
		if len(parts) != 2 {
			continue
		}
		pid, err := strconv.Atoi(parts[0])
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		removeOverlayFiles(filepath.Join(dir, name))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// baseChanged is told that the shared index has a new version: an overlay
// copied from the old one is rebuilt.
func (l *live) baseChanged() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.bufs) > 0 || l.ov != nil {
		l.parseWanted = true
		l.scheduleLocked()
	}
}
