package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/sdl-dev/sdl/lang"
)

// File statuses.
const (
	StatusOK          = "ok"
	StatusParseError  = "parse_error" // indexed as far as the parser recovered
	StatusParseFailed = "parse_failed"
	StatusSkipped     = "skipped"
	StatusUnreadable  = "unreadable"
)

// fileResult is what the parse stage produces for one walked entry.
type fileResult struct {
	entry  Entry
	hash   string
	size   int64
	mtime  int64 // the stat stamp to store; 0 when it cannot be trusted
	lines  int
	status string
	reason string
	diags  []lang.Diagnostic
	faults []lang.Fault // stages of the file's work that failed
	work   int          // the resolution work it cost (lang.Guard units)
	facts  *lang.FileFacts
	ids    []string // symbol ids, parallel to facts.Symbols
	// targets are resolution's view of the symbols, parallel to ids: a
	// full build's, held in its table, which outlive facts.Symbols
	targets   []*lang.Target
	rows      []symbolRow // the symbols as stored, parallel to facts.Symbols
	unchanged bool        // incremental: same content as the current version
}

// indexed reports whether the file contributes symbols.
func (r *fileResult) indexed() bool { return r.facts != nil }

// indexedStatus tells whether a file recorded with status s has symbols:
// it was parsed, as far as the parser recovered.
func indexedStatus(s string) bool { return s == StatusOK || s == StatusParseError }

// window bounds how far workers may run ahead of the writer, which takes
// results in order so that the file is written deterministically.
const window = 256

// ordered runs work(i) for i in [0, n) on workers goroutines and hands the
// results to emit in order of i, on the calling goroutine. start runs once
// per worker and returns that worker's work function and its cleanup.
func ordered[T any](ctx context.Context, n, workers int, start func() (func(int) T, func()), emit func(int, T) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ring := make([]chan T, window)
	for i := range ring {
		ring[i] = make(chan T, 1)
	}
	slots := make(chan struct{}, window)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work, done := start()
			defer done()
			for i := range jobs {
				ring[i%window] <- work(i)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := 0; i < n; i++ {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var err error
	for i := 0; i < n && err == nil; i++ {
		select {
		case v := <-ring[i%window]:
			if err = emit(i, v); err == nil {
				<-slots
			}
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	// Each slot holds at most one result, so no worker blocks on a send
	// after the writer stops; cancel stops the producer and workers drain.
	cancel()
	wg.Wait()
	return err
}

// parseAll reads, classifies, hashes and parses entries and hands the
// results to emit in entry order. unchanged reports whether a file's
// content is the same as in the current version (then it is not parsed):
// it is asked first with hash "", whether the entry's stat stamp (size and
// modification time) proves it, and then, after the read, with the hash.
func parseAll(ctx context.Context, tree fileTree, overlay map[string][]byte, entries []Entry, workers int, walk WalkOptions,
	unchanged func(e *Entry, hash string) bool, emit func(*fileResult) error) error {
	// the parsers are closed when ordered returns: what they freed goes
	// back before the next stage, whose peak is the run's
	defer lang.ReleaseMemory()
	return ordered(ctx, len(entries), workers, func() (func(int) *fileResult, func()) {
		w := &parseWorker{p: lang.NewParser(), rows: newRowScratch()}
		return func(i int) *fileResult { return parseOne(w, tree, overlay, &entries[i], walk, unchanged) }, w.p.Close
	}, func(_ int, r *fileResult) error { return emit(r) })
}

// parseWorker is what one parse worker keeps from file to file: its
// parser, the scratch of its symbol rows, and the buffer files are read
// into (nothing of a file's content outlives its parse: the facts hold
// copies).
type parseWorker struct {
	p    *lang.Parser
	rows *rowScratch
	buf  []byte
}

// bufferedTree is a tree that can read a file into a buffer it is given.
type bufferedTree interface {
	ReadFileInto(rel string, buf []byte) ([]byte, error)
}

// maxReadBuffer bounds the read buffer a worker keeps.
const maxReadBuffer = 4 << 20

// read reads file rel of tree, into the worker's buffer when it can.
func (w *parseWorker) read(tree fileTree, rel string) ([]byte, error) {
	bt, ok := tree.(bufferedTree)
	if !ok || w == nil {
		return tree.ReadFile(rel)
	}
	data, err := bt.ReadFileInto(rel, w.buf[:0])
	if cap(data) <= maxReadBuffer {
		w.buf = data[:0]
	}
	return data, err
}

// racyWindow is how old a file's modification time must be for its stat
// stamp to be trusted by the next run (as git treats "racily clean" files).
const racyWindow = 2 * time.Second

// parseOne does all the work for one entry that needs no shared state.
// w is nil for a file that is not parsed (a skipped entry).
func parseOne(w *parseWorker, tree fileTree, overlay map[string][]byte, e *Entry, walk WalkOptions, unchanged func(*Entry, string) bool) (r *fileResult) {
	r = &fileResult{entry: *e, size: e.Size}
	defer func() {
		// extraction guards its own stages; this catches the rest of the
		// file's work (the parse, ids, rows): the file is recorded as failed
		if v := recover(); v != nil {
			r.facts, r.ids, r.rows, r.diags = nil, nil, nil, nil
			r.status, r.reason = StatusParseFailed, "fault: "+fmt.Sprint(v)
			r.faults = append(r.faults, lang.Fault{Stage: lang.StageExtract, Reason: fmt.Sprint("panic: ", v)})
		}
	}()
	if e.Skip != "" {
		r.status, r.reason = StatusSkipped, e.Skip
		if e.Skip == SkipUnreadable {
			r.status = StatusUnreadable
			if e.Err != nil {
				r.reason = SkipUnreadable + ": " + errText(e.Err)
			}
		}
		return r
	}
	data, ok := overlay[e.Path]
	if !ok && unchanged != nil && unchanged(e, "") {
		r.unchanged = true // the stat stamp says so: not even read
		return r
	}
	var err error
	if !ok {
		data, err = w.read(tree, e.Path)
		// A stamp within racyWindow of now may be shared with an edit still
		// to come (coarse timestamps): store none, so the next run reads it.
		if e.MTime != 0 && time.Since(time.Unix(0, e.MTime)) > racyWindow {
			r.mtime = e.MTime
		}
	}
	if err != nil {
		r.status, r.reason = StatusUnreadable, SkipUnreadable+": "+errText(err)
		return r
	}
	r.size = int64(len(data))
	if r.size > walk.MaxFileSize {
		r.status, r.reason = StatusSkipped, SkipTooLarge
		return r
	}
	r.hash = ContentHash(data)
	if unchanged != nil && unchanged(e, r.hash) {
		r.unchanged = true
		return r
	}
	if reason := classify(e.Path, data, walk.Generated); reason != "" {
		r.status, r.reason = StatusSkipped, reason
		return r
	}
	r.lines = countLines(data)
	facts, err := lang.Extract(w.p, e.Lang, e.Path, data)
	if err != nil {
		r.status, r.reason = StatusParseFailed, errText(err)
		return r
	}
	r.facts = facts
	if l := lang.ByName(facts.Lang); l != nil {
		r.entry.Lang = l // what the content chose: a .h header holding C++
	}
	r.faults = facts.Faults
	r.status = StatusOK
	if len(facts.Errors) > 0 {
		r.status = StatusParseError
		r.diags = facts.Errors
	}
	r.ids = symbolIDs(e.Path, facts)
	r.rows = make([]symbolRow, len(facts.Symbols))
	w.rows.reset()
	for i := range facts.Symbols {
		r.rows[i] = makeSymbolRow(r, i, w.rows)
	}
	return r
}

// langName is the name of the file's language, "" when it has none.
func (r *fileResult) langName() string {
	if r.entry.Lang == nil {
		return ""
	}
	return r.entry.Lang.Name
}

// errText is an error's message without the absolute path os errors carry.
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// ContentHash is the hash the index records for a file's content.
func ContentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

func countLines(data []byte) int {
	n := 0
	for _, b := range data {
		if b == '\n' {
			n++
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// symbolIDs computes stable ids: a hash of the path, the kind, the
// container-qualified name and the ordinal among same-named symbols. Body
// edits do not change an id. A module's id depends on its path alone.
func symbolIDs(path string, f *lang.FileFacts) []string {
	ids := make([]string, len(f.Symbols))
	seen := map[string]int{}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		q := s.Qualified()
		if s.Kind == lang.KindModule {
			q = ""
		}
		key := s.Kind + "\x00" + q
		ord := seen[key]
		seen[key] = ord + 1
		ids[i] = SymbolID(path, s.Kind, q, ord)
	}
	return ids
}

// SymbolID is the stable id of a symbol.
func SymbolID(path, kind, qualified string, ordinal int) string {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(qualified))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(ordinal)))
	return hex.EncodeToString(h.Sum(nil)[:8])
}
