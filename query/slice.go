package query

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// SliceRequest is sdl.slice.build.
type SliceRequest struct {
	TaskText                  string            `json:"taskText,omitempty"`
	EntrySymbols              []string          `json:"entrySymbols,omitempty"`
	EditedFiles               []string          `json:"editedFiles,omitempty"`
	StackTrace                string            `json:"stackTrace,omitempty"`
	FailingTestPath           string            `json:"failingTestPath,omitempty"`
	Budget                    *SliceBudget      `json:"budget,omitempty"`
	MinConfidence             *float64          `json:"minConfidence,omitempty"`
	MinCallConfidence         *float64          `json:"minCallConfidence,omitempty"`
	KnownCardEtags            map[string]string `json:"knownCardEtags,omitempty"`
	CardDetail                string            `json:"cardDetail,omitempty"`
	AdaptiveDetail            *bool             `json:"adaptiveDetail,omitempty"`
	IncludeResolutionMetadata bool              `json:"includeResolutionMetadata,omitempty"`
	IncludeRetrievalEvidence  bool              `json:"includeRetrievalEvidence,omitempty"`
	IncludeMemories           *bool             `json:"includeMemories,omitempty"`
	MemoryLimit               *int              `json:"memoryLimit,omitempty"`
	// Semantic false keeps the vector lane out of seeding from the task
	// text; by default it runs when the index has vectors.
	Semantic *bool `json:"semantic,omitempty"`

	// allFeatures computes every ranking feature, also those of weight 0
	// (RankCandidates, for fitting the weights).
	allFeatures bool
	// noHandle builds a slice for internal use (summaries) without
	// recording a handle.
	noHandle bool
	// mems are the memories a build loaded once for its two uses
	// (memoryReserve, sliceMemories).
	mems    map[string]*Memory
	memsErr error
}

// SliceBudget bounds a slice.
type SliceBudget struct {
	MaxCards           int `json:"maxCards,omitempty"`
	MaxEstimatedTokens int `json:"maxEstimatedTokens,omitempty"`
}

// Defaults and limits of a slice.
const (
	DefaultMaxCards  = 50
	DefaultMaxTokens = 4000
	MaxSliceCards    = 500
	MaxSliceTokens   = 100000
	// MinSliceTokens is the smallest budget that holds the envelope of
	// a slice (its handle, lease and etag, about 150 tokens) and a card.
	MinSliceTokens = 300
	maxTaskText    = 200 << 10
	// matchBudget bounds the symbols a slice's full-text query matches:
	// bm25 costs about 10µs per match.
	matchBudget = 6000
)

// SliceResponse is a built slice.
type SliceResponse struct {
	SliceHandle       string         `json:"sliceHandle"`
	LedgerVersion     string         `json:"ledgerVersion"`
	Lease             Lease          `json:"lease"`
	SliceEtag         SliceEtag      `json:"sliceEtag"`
	Slice             Slice          `json:"slice"`
	EstimatedTokens   int            `json:"estimatedTokens"`
	RetrievalMode     string         `json:"retrievalMode,omitempty"` // of the task text's seeds: hybrid or lexical
	RetrievalEvidence *SliceEvidence `json:"retrievalEvidence,omitempty"`
	StaleFiles        []string       `json:"staleFiles,omitempty"`
	// Memories are the development memories about the slice's cards, best
	// first; they come after the cards in the budget and are cut first.
	Memories []SliceMemory `json:"memories,omitempty"`
	// Warnings say what went wrong without failing the slice (surfacing
	// memories).
	Warnings []string `json:"warnings,omitempty"`
}

// SliceMemory is a memory surfaced in a slice. A long content is cut
// (contentTruncated); sdl.memory.query returns it whole.
type SliceMemory struct {
	MemoryID         string   `json:"memoryId"`
	Type             string   `json:"type"`
	Title            string   `json:"title"`
	Content          string   `json:"content"`
	ContentTruncated bool     `json:"contentTruncated,omitempty"`
	Confidence       float64  `json:"confidence"`
	Stale            bool     `json:"stale"`
	StaleVersion     string   `json:"staleVersion,omitempty"`
	LinkedSymbols    []string `json:"linkedSymbols"`
	Tags             []string `json:"tags"`
	Score            float64  `json:"score"`
}

// Memories in slices: how many by default, and how much of each content.
const (
	DefaultMemoryLimit  = 5
	sliceMemoryMaxRunes = 500
)

// Lease is how long a slice handle is valid.
type Lease struct {
	ExpiresAt  string `json:"expiresAt"`
	MinVersion string `json:"minVersion"`
	MaxVersion string `json:"maxVersion"`
}

// SliceEtag identifies a slice's content for conditional refresh.
type SliceEtag struct {
	Handle    string `json:"handle"`
	Version   string `json:"version"`
	SliceHash string `json:"sliceHash"`
}

// Slice is the content of a slice.
type Slice struct {
	Cards      []*Card          `json:"cards"`
	CardRefs   []CardRef        `json:"cardRefs,omitempty"`
	Edges      []SliceEdge      `json:"edges,omitempty"`
	Frontier   []FrontierItem   `json:"frontier,omitempty"`
	Truncation *SliceTruncation `json:"truncation,omitempty"`
	Budget     SliceBudget      `json:"budget"`
}

// CardRef stands for a card the client already holds (knownCardEtags).
type CardRef struct {
	SymbolID    string `json:"symbolId"`
	Etag        string `json:"etag"`
	NotModified bool   `json:"notModified"`
}

// SliceEdge is an edge between two cards of the slice.
type SliceEdge struct {
	From       string  `json:"from"`
	To         string  `json:"to"`
	Kind       string  `json:"kind"`
	Confidence float64 `json:"confidence"`
}

// FrontierItem is a symbol just outside the slice.
type FrontierItem struct {
	SymbolID string  `json:"symbolId"`
	Name     string  `json:"name"`
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Score    float64 `json:"score"`
	Why      string  `json:"why"`
}

// SliceTruncation says what did not fit.
type SliceTruncation struct {
	Truncated       bool   `json:"truncated"`
	DroppedCards    int    `json:"droppedCards"`
	Reason          string `json:"reason"`
	SpilloverHandle string `json:"spilloverHandle,omitempty"`
}

// SliceEvidence explains how the seeds were found.
type SliceEvidence struct {
	Terms       []string       `json:"terms,omitempty"`
	Identifiers []string       `json:"identifiers,omitempty"`
	Frames      []Frame        `json:"frames,omitempty"`
	Seeds       []SeedEvidence `json:"seeds"`
	Lanes       []string       `json:"lanes"`
	// FallbackReason says why the vector lane did not run.
	FallbackReason string `json:"fallbackReason,omitempty"`
}

// SeedEvidence is one start node and where it came from.
type SeedEvidence struct {
	SymbolID string  `json:"symbolId"`
	Name     string  `json:"name"`
	Source   string  `json:"source"`
	Weight   float64 `json:"weight"`
}

// ranked is a candidate symbol of a slice.
type ranked struct {
	id     string
	score  float64
	seed   float64
	forced bool
	why    string
	feat   RankFeatures
}

// sliceBuild is the state of one slice construction.
type sliceBuild struct {
	x       *Index
	req     *SliceRequest
	seeds   map[string]float64
	forced  map[string]string // id -> why
	why     map[string]string
	ev      *SliceEvidence
	minConf float64
	minCall float64
	mode    string // retrieval mode of the task text's seeds
	// known holds what ranking needs of the candidates read on the way
	// (rankRows), so that they are not read again
	known map[string]*symbolRow
	// warnings are passed on to the response
	warnings []string
	// weights rank the candidates: DefaultRankWeights, or a fit's trial
	weights RankWeights
	// ftsRank is each symbol's 1-based place in the full-text lane
	ftsRank map[string]int
	// trace and message are the scores of the stack-trace and
	// error-message lanes (lanes_trace.go, lanes_message.go)
	trace, message map[string]float64
	// rows are the candidates' rows ranking read, which order the
	// callers of the cards (CardOptions.callerRows)
	rows map[string]*symbolRow
}

func (b *sliceBuild) seed(id string, w float64, why string) {
	if w > b.seeds[id] {
		b.seeds[id] = w
		b.why[id] = why
	}
}

// validate checks a request and fills its defaults.
func (req *SliceRequest) validate() error {
	if strings.TrimSpace(req.TaskText) == "" && len(req.EntrySymbols) == 0 && len(req.EditedFiles) == 0 &&
		strings.TrimSpace(req.StackTrace) == "" && req.FailingTestPath == "" {
		return invalidf("taskText", "give at least one of taskText, entrySymbols, editedFiles, stackTrace or failingTestPath")
	}
	if len(req.TaskText) > maxTaskText {
		return invalidf("taskText", "at most %d bytes, got %d; summarise the task", maxTaskText, len(req.TaskText))
	}
	if len(req.EntrySymbols) > 100 {
		return invalidf("entrySymbols", "at most 100 symbol ids, got %d", len(req.EntrySymbols))
	}
	if len(req.EditedFiles) > 100 {
		return invalidf("editedFiles", "at most 100 paths, got %d", len(req.EditedFiles))
	}
	if len(req.StackTrace) > 1<<20 {
		return invalidf("stackTrace", "at most 1 MB")
	}
	if req.Budget == nil {
		req.Budget = &SliceBudget{}
	}
	if req.Budget.MaxCards == 0 {
		req.Budget.MaxCards = DefaultMaxCards
	}
	if req.Budget.MaxEstimatedTokens == 0 {
		req.Budget.MaxEstimatedTokens = DefaultMaxTokens
	}
	if req.Budget.MaxCards < 1 || req.Budget.MaxCards > MaxSliceCards {
		return invalidf("budget.maxCards", "must be between 1 and %d, got %d", MaxSliceCards, req.Budget.MaxCards)
	}
	if req.Budget.MaxEstimatedTokens < MinSliceTokens || req.Budget.MaxEstimatedTokens > MaxSliceTokens {
		return invalidf("budget.maxEstimatedTokens", "must be between %d and %d, got %d", MinSliceTokens, MaxSliceTokens, req.Budget.MaxEstimatedTokens)
	}
	for name, v := range map[string]*float64{"minConfidence": req.MinConfidence, "minCallConfidence": req.MinCallConfidence} {
		if v != nil && (*v < 0 || *v > 1) {
			return invalidf(name, "must be between 0 and 1, got %v", *v)
		}
	}
	if req.CardDetail != "" && !ValidDetail(req.CardDetail) {
		return invalidf("cardDetail", "%q is not a detail level; use minimal, signature, deps, compact or full", req.CardDetail)
	}
	if req.MemoryLimit != nil && (*req.MemoryLimit < 0 || *req.MemoryLimit > 20) {
		return invalidf("memoryLimit", "must be between 0 and 20, got %d", *req.MemoryLimit)
	}
	for _, p := range req.EditedFiles {
		if err := checkRepoPath("editedFiles", p); err != nil {
			return err
		}
	}
	if req.FailingTestPath != "" {
		if err := checkRepoPath("failingTestPath", req.FailingTestPath); err != nil {
			return err
		}
	}
	return nil
}

// checkRepoPath refuses paths that leave the repository.
func checkRepoPath(field, p string) error {
	clean := filepath.ToSlash(filepath.Clean(p))
	if filepath.IsAbs(p) || clean == ".." || strings.HasPrefix(clean, "../") {
		return invalidf(field, "%q is outside the repository; give a path relative to the repository root", p)
	}
	return nil
}

// BuildSlice builds a task-scoped slice.
func (x *Index) BuildSlice(ctx context.Context, req SliceRequest) (*SliceResponse, error) {
	resp, _, err := x.buildSlice(ctx, &req)
	return resp, err
}

// buildSlice builds a slice and also returns the whole ranking it was cut
// from, which spillover pages through.
func (x *Index) buildSlice(ctx context.Context, req *SliceRequest) (*SliceResponse, []ranked, error) {
	if err := req.validate(); err != nil {
		return nil, nil, err
	}
	ver, err := x.Current(ctx)
	if err != nil {
		return nil, nil, err
	}
	ranks, b, err := x.rankSlice(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	handle := ""
	if !req.noHandle {
		if handle, err = x.makeHandle(ver.Hash, req); err != nil {
			return nil, nil, err
		}
	}
	resp := &SliceResponse{SliceHandle: handle, LedgerVersion: ver.ID,
		Lease: Lease{ExpiresAt: time.Now().UTC().Add(30 * time.Minute).Format(time.RFC3339), MinVersion: ver.ID, MaxVersion: ver.ID}}
	resp.RetrievalMode = b.mode
	if req.IncludeRetrievalEvidence {
		if err := x.nameSeeds(ctx, b.ev.Seeds); err != nil {
			return nil, nil, err
		}
		resp.RetrievalEvidence = b.ev
	}
	resp.Warnings = b.warnings
	fill, err := x.fillSlice(ctx, req, ranks, b.rows, b.known, resp, ver.ID)
	if err != nil {
		return nil, nil, err
	}
	resp.StaleFiles = x.staleFiles(ctx, cardFiles(resp.Slice.Cards))
	x.sliceMemories(ctx, req, resp)
	if err := x.fitBudget(resp, req.Budget.MaxEstimatedTokens, adaptive(req)); err != nil {
		return nil, nil, err
	}
	if err := x.refillSlice(ctx, req, fill, resp); err != nil {
		return nil, nil, err
	}
	if handle != "" {
		x.held.put(handle, req, &resp.Slice) // for sdl.slice.refresh
	}
	return resp, ranks, nil
}

// rankSlice gathers seeds from every source and ranks the graph around them.
func (x *Index) rankSlice(ctx context.Context, req *SliceRequest) ([]ranked, *sliceBuild, error) {
	b := &sliceBuild{x: x, req: req, seeds: map[string]float64{}, forced: map[string]string{}, why: map[string]string{},
		ev: &SliceEvidence{Seeds: []SeedEvidence{}}, minConf: 0.5, known: map[string]*symbolRow{},
		weights: DefaultRankWeights}
	if req.MinConfidence != nil {
		b.minConf = *req.MinConfidence
	}
	if req.MinCallConfidence != nil {
		b.minCall = *req.MinCallConfidence
	}
	if err := b.seedEntries(ctx); err != nil {
		return nil, nil, err
	}
	if err := b.seedEditedFiles(ctx); err != nil {
		return nil, nil, err
	}
	if err := b.seedStackTrace(ctx); err != nil {
		return nil, nil, err
	}
	if err := b.seedFailingTest(ctx); err != nil {
		return nil, nil, err
	}
	textScores := map[string]float64{}
	if strings.TrimSpace(req.TaskText) != "" {
		var err error
		if textScores, err = b.seedText(ctx); err != nil {
			return nil, nil, err
		}
		if err := b.seedMessages(ctx); err != nil {
			return nil, nil, err
		}
		// feedback is advice: a failure to read it does not fail the slice
		if err := b.seedFeedback(ctx); err != nil {
			b.warnings = append(b.warnings, "past feedback was not used: "+err.Error())
		}
	}
	ranks, err := b.rank(ctx, textScores)
	return ranks, b, err
}

func (b *sliceBuild) seedEntries(ctx context.Context) error {
	if len(b.req.EntrySymbols) == 0 {
		return nil
	}
	rows, err := b.x.symbols(ctx, b.req.EntrySymbols)
	if err != nil {
		return err
	}
	for _, id := range b.req.EntrySymbols {
		r := rows[id]
		if r == nil {
			return invalidf("entrySymbols", "no current symbol has id %q; find ids with sdl.symbol.search", id)
		}
		b.seed(id, 1, "entry symbol")
		b.forced[id] = "entry symbol"
		b.ev.Seeds = append(b.ev.Seeds, SeedEvidence{SymbolID: id, Name: r.Qualified, Source: "entrySymbols", Weight: 1})
		b.ev.Lanes = appendOnce(b.ev.Lanes, "entrySymbols")
	}
	return nil
}

// resolvePath finds the indexed file a path names: the path itself, or
// the longest of its suffixes that is an indexed path (a stack frame says
// /home/u/shop/store/store.go for store/store.go), or else the only
// indexed file with its base name. It returns "" when none or several match.
func (x *Index) resolvePath(ctx context.Context, p string) (string, error) {
	p = strings.TrimPrefix(filepath.ToSlash(p), "./")
	parts := strings.Split(strings.TrimLeft(p, "/"), "/")
	var cands []any
	for i := range parts {
		if s := strings.Join(parts[i:], "/"); s != "" {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return "", nil
	}
	rows, err := x.DB.QueryContext(ctx, `SELECT p.path FROM paths p JOIN files f ON f.path_id = p.id AND f.to_seq IS NULL
		WHERE p.path IN (`+schema.Placeholders(len(cands))+`) ORDER BY length(p.path) DESC LIMIT 1`, cands...)
	if err != nil {
		return "", fmt.Errorf("resolve path %s: %w", p, err)
	}
	var found string
	if rows.Next() {
		rows.Scan(&found)
	}
	rows.Close()
	if found != "" {
		return found, nil
	}
	base := parts[len(parts)-1]
	rows, err = x.DB.QueryContext(ctx, `SELECT p.path FROM paths p JOIN files f ON f.path_id = p.id AND f.to_seq IS NULL
		WHERE p.path LIKE '%/' || ? LIMIT 2`, base)
	if err != nil {
		return "", fmt.Errorf("resolve path %s: %w", p, err)
	}
	defer rows.Close()
	var matches []string
	for rows.Next() {
		var m string
		rows.Scan(&m)
		matches = append(matches, m)
	}
	if len(matches) == 1 {
		return matches[0], nil
	}
	return "", nil
}

// symbolsInFile lists the current symbols of a file, named by any path
// resolvePath accepts.
func (x *Index) symbolsInFile(ctx context.Context, path string) ([]*symbolRow, error) {
	p, err := x.resolvePath(ctx, path)
	if err != nil || p == "" {
		return nil, err
	}
	rows, err := x.DB.QueryContext(ctx, `SELECT `+symbolColumns+` FROM symbols s JOIN paths p ON p.id = s.path_id
		WHERE s.to_seq IS NULL AND p.path = ? ORDER BY s.start_line`, p)
	if err != nil {
		return nil, fmt.Errorf("symbols of %s: %w", path, err)
	}
	return scanSymbols(rows)
}

// nameSeeds gives the seeds found by id alone (from the task text) their
// qualified names.
func (x *Index) nameSeeds(ctx context.Context, seeds []SeedEvidence) error {
	var ids []string
	for _, s := range seeds {
		if s.Name == "" {
			ids = append(ids, s.SymbolID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	rows, err := x.symbols(ctx, ids)
	if err != nil {
		return err
	}
	for i := range seeds {
		if r := rows[seeds[i].SymbolID]; r != nil && seeds[i].Name == "" {
			seeds[i].Name = r.Qualified
			if seeds[i].Name == "" {
				seeds[i].Name = r.Name
			}
		}
	}
	return nil
}

// notIndexedWarning is the warning of a path argument that names no
// indexed file: the slice is built from the rest.
func notIndexedWarning(field, p string) string {
	return fmt.Sprintf("%s: %q is not an indexed file (a repository path, or the end of one); it was left out", field, p)
}

func (b *sliceBuild) seedEditedFiles(ctx context.Context) error {
	for _, p := range b.req.EditedFiles {
		syms, err := b.x.symbolsInFile(ctx, filepath.ToSlash(filepath.Clean(p)))
		if err != nil {
			return err
		}
		if len(syms) == 0 {
			b.warnings = append(b.warnings, notIndexedWarning("editedFiles", p))
			continue
		}
		var ids []string
		for _, s := range syms {
			if s.Kind == lang.KindModule {
				continue
			}
			why := "in edited file " + s.Path
			b.seed(s.ID, 0.9, why)
			b.forced[s.ID] = why
			ids = append(ids, s.ID)
			b.ev.Lanes = appendOnce(b.ev.Lanes, "editedFiles")
		}
		// their callers come along
		edges, err := b.x.edgesTouching(ctx, ids, b.minConf, b.minCall)
		if err != nil {
			return err
		}
		in := map[string]bool{}
		for _, id := range ids {
			in[id] = true
		}
		for _, e := range edges {
			if in[e.dst] && !in[e.src] && (e.kind == lang.RefCall || e.kind == lang.RefNew) {
				why := "calls a symbol of edited file " + p
				b.seed(e.src, 0.6, why)
				if _, ok := b.forced[e.src]; !ok {
					b.forced[e.src] = why
				}
			}
		}
	}
	return nil
}

func (b *sliceBuild) seedFailingTest(ctx context.Context) error {
	if b.req.FailingTestPath == "" {
		return nil
	}
	syms, err := b.x.symbolsInFile(ctx, b.req.FailingTestPath)
	if err != nil {
		return err
	}
	if len(syms) == 0 {
		b.warnings = append(b.warnings, notIndexedWarning("failingTestPath", b.req.FailingTestPath))
		return nil
	}
	var ids []string
	in := map[string]bool{}
	for _, s := range syms {
		if s.Kind != lang.KindModule {
			ids = append(ids, s.ID)
			in[s.ID] = true
			b.seed(s.ID, 0.3, "in the failing test")
		}
	}
	edges, err := b.x.edgesTouching(ctx, ids, b.minConf, b.minCall)
	if err != nil {
		return err
	}
	for _, e := range edges {
		if in[e.src] && !in[e.dst] && (e.kind == lang.RefCall || e.kind == lang.RefNew) {
			b.seed(e.dst, 0.8*e.conf, "called by the failing test")
		}
	}
	b.ev.Lanes = appendOnce(b.ev.Lanes, "failingTestPath")
	return nil
}

// seedText scores symbols against the task text with three lanes and
// returns the combined text score of each candidate, in [0, 1]:
//
//   - fts: bm25 over every term of the text, normalized by the best score;
//   - identifiers: bm25 over the identifier terms only (camelCase,
//     snake_case), which name code far more precisely than prose does;
//   - exact: symbols named exactly by an identifier or a capitalized word
//     of the text, weighted down when many symbols share the name.
//
// The lanes run at once, on connections of their own; the vector lane
// (startVectors) with them.
func (b *sliceBuild) seedText(ctx context.Context) (map[string]float64, error) {
	x := b.x
	text := withoutEnvironment(b.req.TaskText)
	terms, idents := queryTerms(text)
	b.ev.Terms, b.ev.Identifiers = terms, idents
	if len(terms) > 64 {
		terms = terms[:64]
	}
	var identTerms []string
	seen := map[string]bool{}
	for _, id := range idents {
		for _, t := range append([]string{strings.ToLower(strings.Trim(id, "_"))}, lang.SplitIdent(id)...) {
			if !seen[t] && len(t) > 1 && !stopwords[t] {
				seen[t] = true
				identTerms = append(identTerms, t)
			}
		}
	}
	names := append(append([]string{}, idents...), capitalizedWords(text)...)

	var wg sync.WaitGroup
	vec := b.startVectors(ctx, &wg)
	ident, identKnown := map[string]float64{}, map[string]*symbolRow{}
	var identErr, exactErr error
	if len(identTerms) > 0 {
		wg.Go(func() { ident, identErr = x.ftsScores(ctx, colsAll, identTerms, 200, identKnown) })
	}
	var exact, flags map[string]float64
	var flagErr error
	wg.Go(func() { exact, exactErr = x.exactScores(ctx, names) })
	wg.Go(func() { flags, flagErr = x.commandScores(ctx, text) })
	fts, err := func() (map[string]float64, error) {
		df, err := x.docFreqs(ctx, terms)
		if err != nil {
			return nil, err
		}
		return x.ftsScores(ctx, colsAll, informative(terms, df, matchBudget, 3), 400, b.known)
	}()
	wg.Wait()
	for _, err := range []error{err, identErr, exactErr, flagErr} {
		if err != nil {
			return nil, err
		}
	}
	b.ev.Lanes = appendOnce(b.ev.Lanes, "fts")
	if len(identTerms) > 0 {
		for id, r := range identKnown {
			b.known[id] = r
		}
		b.ev.Lanes = appendOnce(b.ev.Lanes, "identifiers")
	}
	if len(exact) > 0 {
		b.ev.Lanes = appendOnce(b.ev.Lanes, "exact")
	}
	if len(flags) > 0 {
		b.ev.Lanes = appendOnce(b.ev.Lanes, "flags")
		for id := range flags {
			b.because(id, "declares a command-line flag or command of the task")
		}
	}
	out := map[string]float64{}
	for id, s := range fts {
		out[id] = 0.65 * s
	}
	for id, s := range ident {
		out[id] += 0.35 * s
	}
	for _, lane := range []map[string]float64{exact, flags} {
		for id, s := range lane {
			if s > out[id] {
				out[id] = s
			}
		}
	}
	b.ftsRank = rankOf(fts)
	if err := b.addVectors(vec, out); err != nil {
		return nil, err
	}
	for _, id := range topIDs(out, 8) {
		b.ev.Seeds = append(b.ev.Seeds, SeedEvidence{SymbolID: id, Source: "taskText", Weight: round4(out[id])})
	}
	return out, nil
}

// The vector lane of slice seeding: the sliceVectorK symbols nearest to
// the task text each add their reciprocal-rank term, scaled so that the
// nearest adds sliceVectorWeight, to the lexical score. A symbol that only
// the vector lane finds starts below any strong lexical match; one that
// both find rises. On the evaluation's dev set (embed/MODEL.md) the
// built-in model's vectors lowered recall at 4000 tokens at every weight
// tried (0.855 lexical; 0.836 at 0.1; 0.818 at 0.3, also when they only
// re-rank lexical matches): 0.1 is the least harm, and why vectors are off
// by default.
const (
	sliceVectorK      = 100
	sliceVectorWeight = 0.1
)

// vectorLane is the vector lane of a slice under way.
type vectorLane struct {
	off    bool // the request turned it off
	hits   []vecHit
	reason string
	err    error
}

// startVectors starts the vector lane in wg unless the request turns it
// off; its result is ready when wg is done.
func (b *sliceBuild) startVectors(ctx context.Context, wg *sync.WaitGroup) *vectorLane {
	v := &vectorLane{}
	if b.req.Semantic != nil && !*b.req.Semantic {
		v.off = true
		return v
	}
	wg.Go(func() { v.hits, v.reason, v.err = b.x.vectorSearch(ctx, b.req.TaskText, sliceVectorK) })
	return v
}

// addVectors adds the vector lane to the text scores when the index has
// vectors and the request does not turn it off.
func (b *sliceBuild) addVectors(v *vectorLane, out map[string]float64) error {
	b.mode = ModeLexical
	if v.off {
		b.ev.FallbackReason = "the request turned the vector lane off (semantic: false)"
		return nil
	}
	if v.err != nil {
		return v.err
	}
	if v.reason != "" {
		b.ev.FallbackReason = v.reason
		return nil
	}
	b.mode = ModeHybrid
	b.ev.Lanes = appendOnce(b.ev.Lanes, "vector")
	for r, h := range v.hits {
		out[h.id] += sliceVectorWeight * float64(rrfK+1) / float64(rrfK+1+r)
	}
	return nil
}

// ftsScores runs bm25 over terms and returns scores normalized by the best.
// What ranking needs of the current symbols it finds goes into known.
func (x *Index) ftsScores(ctx context.Context, cols string, terms []string, limit int, known map[string]*symbolRow) (map[string]float64, error) {
	out := map[string]float64{}
	hits, err := x.ftsRank(ctx, cols, terms, limit)
	if err != nil {
		return nil, err
	}
	if len(hits) == 0 || hits[0].score <= 0 {
		return out, nil
	}
	top := hits[0].score
	for _, h := range hits {
		out[h.id] = h.score / top
		if known != nil && h.current {
			known[h.id] = &symbolRow{ID: h.id, Path: h.path, Kind: h.kind, ParentID: h.parentID, IsTest: h.isTest,
				Name: h.name, Container: h.container, Range: Range{StartLine: h.lines[0], EndLine: h.lines[1]}}
		}
	}
	return out, nil
}

// exactScores finds the symbols named exactly by names. A name shared by n
// symbols gives each 1/sqrt(n): "Attachment" says more than "new".
func (x *Index) exactScores(ctx context.Context, names []string) (map[string]float64, error) {
	out := map[string]float64{}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] || len(n) < 3 || len(n) > 200 {
			continue
		}
		seen[n] = true
		rows, err := x.queryPrepared(ctx, `SELECT id FROM symbols WHERE to_seq IS NULL AND name = ? AND kind != 'module' LIMIT 101`, n) // symbols_cur_name
		if err != nil {
			return nil, fmt.Errorf("exact names: %w", err)
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if len(ids) == 0 || len(ids) > 100 {
			continue
		}
		w := 1 / math.Sqrt(float64(len(ids)))
		for _, id := range ids {
			if w > out[id] {
				out[id] = w
			}
		}
	}
	return out, nil
}

// capitalizedWords returns the words of text that start with an upper-case
// letter but do not start a sentence: in prose about code, these are
// mostly type names ("reject opaque Attachment filenames").
func capitalizedWords(text string) []string {
	var out []string
	words := strings.Fields(text)
	for i, w := range words {
		w = strings.Trim(w, "`'\".,;:!?()[]{}<>")
		if len(w) < 3 || !unicode.IsUpper([]rune(w)[0]) || stopwords[strings.ToLower(w)] {
			continue
		}
		if i == 0 || strings.HasSuffix(words[i-1], ".") || strings.HasSuffix(words[i-1], ":") {
			continue
		}
		valid := true
		for _, r := range w {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
				valid = false
				break
			}
		}
		if valid {
			out = append(out, w)
		}
	}
	return out
}

// rank combines the evidence: a symbol's own text score and seed weight
// (shared between a type and its members), the text score of its file,
// and personalized PageRank from the seeds over the call, import, config
// and implements edges around them.
func (b *sliceBuild) rank(ctx context.Context, text map[string]float64) ([]ranked, error) {
	x := b.x
	prior := map[string]float64{}
	for id, s := range text {
		prior[id] = s
	}
	for id, w := range b.seeds {
		if w > prior[id] {
			prior[id] = w
		}
	}
	if len(prior) == 0 && len(b.trace) == 0 && len(b.message) == 0 {
		return nil, nil
	}
	// the candidates: the priors and the lanes' finds, their neighbours,
	// and the members of the best types and the types of the best members
	// (read meanwhile)
	starts := b.withLanes(prior)
	ids := sortedIDs(starts)
	top := topIDs(starts, 120)
	var wg sync.WaitGroup
	var relatives []string
	var relErr error
	wg.Go(func() { relatives, relErr = x.relatives(ctx, top[:min(60, len(top))]) })
	edges, err := x.edgesTouching(ctx, top, b.minConf, b.minCall)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if relErr != nil {
		return nil, relErr
	}
	cands := map[string]bool{}
	for _, id := range ids {
		cands[id] = true
	}
	for _, e := range edges {
		cands[e.src], cands[e.dst] = true, true
	}
	for _, id := range relatives {
		cands[id] = true
	}
	all := make([]string, 0, len(cands))
	for id := range cands {
		all = append(all, id)
	}
	sort.Strings(all)
	rows, err := x.rankRows(ctx, all, b.known)
	if err != nil {
		return nil, err
	}
	b.rows = rows
	// a type and its members share evidence: a match on WithQueryParams
	// makes its fmt relevant, a match on a method makes its type so
	own := map[string]float64{}
	for id, s := range prior {
		own[id] = s
	}
	for _, id := range all {
		r := rows[id]
		if r == nil || r.ParentID == "" {
			continue
		}
		p := rows[r.ParentID]
		if p == nil || p.Kind == lang.KindModule {
			continue
		}
		if v := 0.6 * own[p.ID]; v > prior[id] {
			prior[id] = v
		}
		if v := 0.5 * own[id]; v > prior[p.ID] {
			prior[p.ID] = v
		}
	}
	// file evidence: the sum of the best three text scores in each file
	perFile := map[string][]float64{}
	for id, s := range text {
		if r := rows[id]; r != nil {
			perFile[r.Path] = append(perFile[r.Path], s)
		}
	}
	fileScore := map[string]float64{}
	var maxFile float64
	for p, ss := range perFile {
		sort.Sort(sort.Reverse(sort.Float64Slice(ss)))
		var sum float64
		for i, s := range ss {
			if i == 3 {
				break
			}
			sum += s
		}
		fileScore[p] = sum
		maxFile = math.Max(maxFile, sum)
	}
	pr := pagerank(edges, b.withLanes(prior), 0.25, 30)
	var maxPR float64
	for _, v := range pr {
		maxPR = math.Max(maxPR, v)
	}
	// the words of the candidates' names and paths, stemmed at once
	tm, err := b.newTermMatcher(ctx)
	if err != nil {
		return nil, err
	}
	nameWords, pathWordsOf := map[string][]string{}, map[string][]string{}
	names := b.req.allFeatures || b.weights.NameHits != 0 || b.weights.ContainerHits != 0
	var st map[string]string
	if tm != nil {
		var words []string
		for _, id := range all {
			r := rows[id]
			if r == nil {
				continue
			}
			// names are stemmed only where a weight reads them (or a fit
			// asks for every feature): a slice pays per candidate
			if names {
				nameWords[id] = lang.SplitIdent(r.Name)
				words = append(words, nameWords[id]...)
				if _, ok := nameWords["\x00"+r.Container]; r.Container != "" && !ok {
					nameWords["\x00"+r.Container] = lang.SplitIdent(r.Container)
					words = append(words, nameWords["\x00"+r.Container]...)
				}
			}
			if _, ok := pathWordsOf[r.Path]; !ok {
				pathWordsOf[r.Path] = x.pathWords.of(r.Path)
				words = append(words, pathWordsOf[r.Path]...)
			}
		}
		if st, err = stems.stem(ctx, words); err != nil {
			return nil, err
		}
	}
	w := b.weights
	asksTests := asksForTests(b.req.TaskText)
	lowTask := strings.ToLower(b.req.TaskText)
	peripheral := map[string]bool{} // by path: code around the product the task does not name
	scopes := commitScopes(b.req.TaskText)
	scoped := map[string]bool{} // by path: a file the commit scope names
	out := make([]ranked, 0, len(rows))
	for _, id := range all {
		r := rows[id]
		if r == nil || r.Kind == lang.KindModule {
			continue
		}
		f := RankFeatures{Seed: prior[id], Test: r.IsTest && b.req.FailingTestPath == "" && !asksTests}
		if maxFile > 0 {
			f.File = fileScore[r.Path] / maxFile
		}
		if maxPR > 0 {
			f.Graph = pr[id] / maxPR
		}
		f.NameHits = tm.share(st, nameWords[id])
		f.PathHits = tm.share(st, pathWordsOf[r.Path])
		if k := b.ftsRank[id]; k > 0 {
			f.TextRank = 1 / float64(k)
		}
		if r.Container != "" {
			f.ContainerHits = tm.share(st, nameWords["\x00"+r.Container])
		}
		if isCallable(r.Kind) {
			f.Callable = 1
		}
		if isBodiless(r.Kind) {
			f.Bodiless = 1
		}
		lines := r.Range.EndLine - r.Range.StartLine + 1
		f.Size = math.Log1p(float64(max(0, lines))) / math.Log(1001)
		f.Trace, f.Message = b.trace[id], b.message[id]
		f.Length = lengthFeature(lines, f.Trace > 0 || f.Message > 0)
		per, ok := peripheral[r.Path]
		if !ok {
			part := peripheralPart(r.Path)
			per = part != "" && !namesPart(lowTask, part)
			peripheral[r.Path] = per
		}
		if per {
			f.Peripheral = 1
		}
		if len(scopes) > 0 {
			in, ok := scoped[r.Path]
			if !ok {
				in = inScope(scopes, r.Path)
				scoped[r.Path] = in
			}
			if in {
				f.Scope = f.Seed
			}
		}
		rk := ranked{id: id, score: w.Score(f), seed: prior[id], why: b.why[id], feat: f}
		if w, ok := b.forced[id]; ok {
			rk.forced, rk.why = true, w
		}
		if rk.why == "" {
			switch {
			case text[id] > 0:
				rk.why = "matches the task text"
			case prior[id] > 0:
				rk.why = "a member or the type of a match"
			case pr[id] > 0:
				rk.why = "connected to the seeds"
			default:
				rk.why = "in a file that matches the task text"
			}
		}
		out = append(out, rk)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].forced != out[j].forced {
			return out[i].forced
		}
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id < out[j].id
	})
	if err := b.secondStage(ctx, out, tm); err != nil {
		return nil, err
	}
	return out, nil
}

// relatives returns the members of the types among ids and the enclosing
// types of the members among ids.
func (x *Index) relatives(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := append(schema.Args(ids), schema.Args(ids)...)
	ph := schema.Placeholders(len(ids))
	rows, err := x.DB.QueryContext(ctx, `SELECT id FROM symbols WHERE to_seq IS NULL AND parent_id IN (`+ph+`)
		UNION SELECT parent_id FROM symbols WHERE to_seq IS NULL AND id IN (`+ph+`) AND parent_id != ''`, args...)
	if err != nil {
		return nil, fmt.Errorf("relatives: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// topIDs returns up to n ids with the highest scores, ties by id. One
// sort of the pairs: sorting the ids and then their scores, read from the
// map at every comparison, cost a slice ten times as much.
func topIDs(m map[string]float64, n int) []string {
	type scored struct {
		id    string
		score float64
	}
	all := make([]scored, 0, len(m))
	for id, s := range m {
		all = append(all, scored{id, s})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		return all[i].id < all[j].id
	})
	ids := make([]string, min(n, len(all)))
	for i := range ids {
		ids[i] = all[i].id
	}
	return ids
}

func appendOnce(ss []string, s string) []string {
	for _, v := range ss {
		if v == s {
			return ss
		}
	}
	return append(ss, s)
}

// detailFor chooses the detail of the card at rank i.
func detailFor(req *SliceRequest, i int) string {
	if req.CardDetail != "" && (req.AdaptiveDetail == nil || !*req.AdaptiveDetail) {
		return req.CardDetail
	}
	switch {
	case i < 4:
		return DetailCompact
	case i < 16:
		return detailCompactNoDeps
	default:
		return DetailSignature
	}
}

// detailCompactNoDeps is compact without dependencies: the middle of an
// adaptive slice.
const detailCompactNoDeps = "compact-nodeps"

// keptDetailTokens is the budget per card, from the first, that keeps the
// detail of its rank when the budget runs short (keptDetail): the cards
// below are cut to their signature, from the lowest up, before any card is
// left out. A card's presence is worth more than the detail of the cards
// above it, except for the first few, where an agent starts reading: one
// card up to 1999 tokens, four at 4000 (all the compact ones of
// detailFor).
const keptDetailTokens = 1000

// keptDetail is how many of the first cards keep their detail at budget.
func keptDetail(budget int) int { return max(1, budget/keptDetailTokens) }

// adaptive tells whether a slice chooses the detail of each card (no
// single detail was asked for).
func adaptive(req *SliceRequest) bool {
	return req.CardDetail == "" || (req.AdaptiveDetail != nil && *req.AdaptiveDetail)
}

// detailAfter caps detail d of the next card at the detail of the card
// above it once that one was cut to its signature or less, so that a
// small card does not come back to a detail the cards above it gave up.
func detailAfter(cards []*Card, kept int, d string) string {
	if len(cards) <= kept {
		return d
	}
	prev := cards[len(cards)-1].Detail
	if detailRank[prev] <= detailRank[DetailSignature] && (d == detailCompactNoDeps || detailRank[d] > detailRank[prev]) {
		return prev
	}
	return d
}

// degradable tells whether degradeCard would find a card to cut.
func degradable(cards []*Card, kept int) bool {
	for _, c := range cards[min(kept, len(cards)):] {
		if detailRank[c.Detail] > detailRank[DetailSignature] {
			return true
		}
	}
	return false
}

// degradeCard cuts the lowest-ranked card after the first keptDetail whose
// detail is above signature to its signature, and returns the tokens that
// saves (0 when there is none).
func degradeCard(cards []*Card, kept int) int {
	for i := len(cards) - 1; i >= kept; i-- {
		c := cards[i]
		if detailRank[c.Detail] <= detailRank[DetailSignature] {
			continue
		}
		before := Tokens(mustJSON(c)) + 1
		cut, after := sliceCard(c, DetailSignature)
		cards[i] = cut
		return max(0, before-after)
	}
	return 0
}

// envelopeReserve is what a slice keeps for its envelope (handle, lease,
// etag, truncation, budget) while it takes cards.
const envelopeReserve = 160

// frontierReserve is what a slice keeps for its frontier and the edges
// among its cards while it takes cards past the first leadCards.
func frontierReserve(budget int) int { return budget / 12 }

// leadCards is how many of the first cards of a slice come before its
// frontier and edges when the budget runs short: an agent reads the top
// of a slice, and the eval's @5 counts the first five; a small budget
// that holds them should show them (with cardTokenCap, 1000 tokens does).
const leadCards = 5

// cardTokensGuess is about what a card of a slice costs: a signature card
// takes 60 to 100 tokens, a compact one 100 to 200.
const cardTokensGuess = 100

// sliceFill is what fillSlice leaves for refillSlice: the ranking, the
// full cards and edges it built, and the frontier before fitBudget cut it.
type sliceFill struct {
	ranks         []ranked
	built         int // ranks[:built] have their full cards
	fulls         map[string]*Card
	outEdges      map[string][]outEdge
	frontier      []FrontierItem
	rows, unnamed map[string]*symbolRow
	ver           string
}

// fillSlice takes ranked symbols in order until the budget is spent.
func (x *Index) fillSlice(ctx context.Context, req *SliceRequest, ranks []ranked, rows, unnamed map[string]*symbolRow, resp *SliceResponse, ver string) (*sliceFill, error) {
	budget := req.Budget.MaxEstimatedTokens
	// keep room for the envelope and the frontier, and for the memories
	// about the best candidates
	reserve := envelopeReserve + frontierReserve(budget) + x.memoryReserve(ctx, req, ranks)
	avail := budget - reserve
	kept := keptDetail(budget)
	capTokens := 0
	if adaptive(req) {
		capTokens = cardTokenCap(budget)
	}
	s := &resp.Slice
	s.Cards = []*Card{}
	s.Budget = *req.Budget
	// the first leadCards cards may also take the frontier's room:
	// fitBudget gives up the frontier and the edges before one of them
	room := func() int {
		if len(s.Cards)+len(s.CardRefs) < leadCards {
			return avail + frontierReserve(budget)
		}
		return avail
	}
	used := 0
	taken := map[string]bool{}
	var order []ranked
	cut := len(ranks)
	// the cards of the slice are cut down from the full cards of the best
	// candidates, built in batches of about as many as the budget left
	// holds: a card that does not fit costs its queries for nothing
	fulls := map[string]*Card{}
	outEdges := map[string][]outEdge{}
	built := 0 // ranks[:built] have their full cards
	for i, rk := range ranks {
		if len(s.Cards)+len(s.CardRefs) >= req.Budget.MaxCards {
			cut = i
			break
		}
		if i >= built {
			n := max(8, (avail-used)/cardTokensGuess)
			n = min(n, req.Budget.MaxCards-len(s.Cards)-len(s.CardRefs), len(ranks)-i)
			more, err := x.fullCards(ctx, ranks[i:], n, req, ver, rows, unnamed, outEdges)
			if err != nil {
				return nil, err
			}
			for id, c := range more {
				fulls[id] = c
			}
			built = i + n
		}
		full := fulls[rk.id]
		if full == nil {
			continue
		}
		fit := room()
		cardAt := func(detail string) (*Card, int) {
			c, n := sliceCard(full, detail)
			if capTokens > 0 {
				return capCard(c, n, capTokens)
			}
			return c, n
		}
		if et, ok := req.KnownCardEtags[full.SymbolID]; ok && et == full.Etag {
			ref := CardRef{SymbolID: full.SymbolID, Etag: full.Etag, NotModified: true}
			c := Tokens(mustJSON(ref)) + 1
			if used+c > fit {
				cut = i
				break
			}
			used += c
			s.CardRefs = append(s.CardRefs, ref)
			taken[rk.id] = true
			order = append(order, rk)
			continue
		}
		detail := detailAfter(s.Cards, kept, detailFor(req, len(s.Cards)))
		card, cost := cardAt(detail)
		// downgrade until it fits
		for used+cost > fit && detail != DetailMinimal {
			detail = downgrade(detail)
			card, cost = cardAt(detail)
		}
		// then the cards above it in rank but below the first
		// keptDetail give their detail, from the lowest up, before a card
		// is left out: a small budget keeps the best cards, not the
		// first found in full
		for used+cost > fit && adaptive(req) && degradable(s.Cards, kept) {
			used -= degradeCard(s.Cards, kept)
			detail = detailAfter(s.Cards, kept, detailFor(req, len(s.Cards)))
			card, cost = cardAt(detail)
			for used+cost > fit && detail != DetailMinimal {
				detail = downgrade(detail)
				card, cost = cardAt(detail)
			}
		}
		if used+cost > fit {
			cut = i
			break
		}
		used += cost
		s.Cards = append(s.Cards, card)
		taken[rk.id] = true
		order = append(order, rk)
	}
	dropped := 0
	for _, rk := range ranks[cut:] {
		if !taken[rk.id] {
			dropped++
		}
	}
	if dropped > 0 {
		reason := "token budget"
		if len(s.Cards)+len(s.CardRefs) >= req.Budget.MaxCards {
			reason = "card budget"
		}
		s.Truncation = &SliceTruncation{Truncated: true, DroppedCards: dropped, Reason: reason, SpilloverHandle: spilloverOf(resp.SliceHandle)}
	}
	sliceEdges(s, order, outEdges)
	x.frontier(ctx, s, ranks[cut:], taken)
	resp.SliceEtag = SliceEtag{Handle: resp.SliceHandle, Version: ver, SliceHash: sliceHash(s)}
	return &sliceFill{ranks: ranks, built: built, fulls: fulls, outEdges: outEdges,
		frontier: append([]FrontierItem(nil), s.Frontier...), rows: rows, unnamed: unnamed, ver: ver}, nil
}

// fullCards builds the full cards of the first n ranked symbols in one
// batch, and adds their resolved edges to outEdges; the rows ranking read
// order their callers (CardOptions.callerRows; unnamed are those without
// a qualified name). Cards built for an
// earlier slice of the same state of the file are taken as they are.
func (x *Index) fullCards(ctx context.Context, ranks []ranked, n int, req *SliceRequest, ver string, rows, unnamed map[string]*symbolRow, outEdges map[string][]outEdge) (map[string]*Card, error) {
	minCall := 0.0
	if req.MinCallConfidence != nil {
		minCall = *req.MinCallConfidence
	}
	// the cache holds cards of the file as it is now
	if _, err := x.dataVersion(ctx); err != nil {
		return nil, err
	}
	out := make(map[string]*Card, n)
	key := cardKey{ver: ver, minCall: minCall, meta: req.IncludeResolutionMetadata}
	ids := make([]string, 0, n)
	for _, rk := range ranks[:n] {
		key.id = rk.id
		if c, ok := x.cardCache.get(key); ok {
			out[rk.id] = c.card
			if outEdges != nil {
				outEdges[rk.id] = c.edges
			}
			continue
		}
		ids = append(ids, rk.id)
	}
	if len(ids) == 0 {
		return out, nil
	}
	syms, err := x.symbols(ctx, ids)
	if err != nil {
		return nil, err
	}
	list := make([]*symbolRow, 0, len(syms))
	for _, id := range ids {
		if r := syms[id]; r != nil {
			list = append(list, r)
		}
	}
	edges := map[string][]outEdge{}
	cards, err := x.cards(ctx, list, CardOptions{Detail: DetailFull, MinCallConfidence: minCall,
		IncludeResolutionMetadata: req.IncludeResolutionMetadata, outEdges: edges, callerRows: rows, unnamed: unnamed}, ver)
	if err != nil {
		return nil, err
	}
	for _, c := range cards {
		out[c.SymbolID] = c
		if outEdges != nil {
			outEdges[c.SymbolID] = edges[c.SymbolID]
		}
		key.id = c.SymbolID
		x.cardCache.put(key, cachedCard{card: c, edges: edges[c.SymbolID]})
	}
	return out, nil
}

// pathWordsCache remembers the words of the paths slices ranked
// (pathWords): a path's words never change, and consecutive questions
// rank many of the same files. What it holds is shared and never changed.
type pathWordsCache struct {
	mu sync.Mutex
	m  map[string][]string
}

// maxCachedPaths bounds the path words a server remembers.
const maxCachedPaths = 50000

func (c *pathWordsCache) of(p string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ws, ok := c.m[p]; ok {
		return ws
	}
	if c.m == nil || len(c.m) >= maxCachedPaths {
		c.m = map[string][]string{}
	}
	ws := pathWords(p)
	c.m[p] = ws
	return ws
}

// cardCache keeps the full cards slices build for the slices after: a
// card is read from the index file alone, so it holds until the file
// changes (vocab.open clears the cache then). Cached cards are shared:
// slices cut copies from them and change nothing in them.
type cardCache struct {
	mu sync.Mutex
	m  map[cardKey]cachedCard
}

// maxCachedCards bounds the cache (a full card is a few KB).
const maxCachedCards = 2048

type cardKey struct {
	id, ver string
	minCall float64
	meta    bool // with resolution metadata
}

type cachedCard struct {
	card  *Card
	edges []outEdge // its resolved edges (sliceEdges)
}

func (c *cardCache) get(k cardKey) (cachedCard, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *cardCache) put(k cardKey, v cachedCard) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedCards {
		c.m = map[cardKey]cachedCard{}
	}
	c.m[k] = v
}

func (c *cardCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}

func downgrade(d string) string {
	switch d {
	case DetailFull:
		return DetailCompact
	case DetailCompact:
		return detailCompactNoDeps
	case detailCompactNoDeps, DetailDeps:
		return DetailSignature
	}
	return DetailMinimal
}

// sliceCard cuts a full card to the detail of its place in a slice and
// counts its tokens as it will be serialized. The slice states its version
// once, not per card.
func sliceCard(full *Card, detail string) (*Card, int) {
	var c *Card
	switch detail {
	case DetailFull:
		cp := *full
		c = &cp
	case detailCompactNoDeps:
		c = briefCard(full, DetailCompact)
		c.Deps = nil
		c.Detail = DetailCompact
	default:
		c = briefCard(full, detail)
		c.Detail = detail
	}
	c.Etag = full.Etag
	c.Version = nil
	return c, Tokens(mustJSON(c)) + 1
}

// mustJSON encodes v as answers are sent: without HTML escaping, which
// would turn & into \u0026 and spend tokens on nothing.
func mustJSON(v any) string {
	return string(EncodeJSON(v))
}

// EncodeJSON encodes v compactly without HTML escaping.
func EncodeJSON(v any) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}

// sliceEdges lists the edges among the slice's cards, from the edges their
// full cards read (outEdges): each (from, to, kind) once, with the
// confidence of its first row, ordered by from, to and kind.
func sliceEdges(s *Slice, order []ranked, outEdges map[string][]outEdge) {
	in := map[string]bool{}
	for _, rk := range order {
		in[rk.id] = true
	}
	type key struct{ src, dst, kind string }
	first := map[key]outEdge{}
	for _, rk := range order {
		for _, e := range outEdges[rk.id] {
			if !in[e.dst] || e.dst == rk.id {
				continue
			}
			k := key{rk.id, e.dst, e.kind}
			if f, ok := first[k]; !ok || e.rowid < f.rowid {
				first[k] = e
			}
		}
	}
	keys := make([]key, 0, len(first))
	for k := range first {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.src != b.src {
			return a.src < b.src
		}
		if a.dst != b.dst {
			return a.dst < b.dst
		}
		return a.kind < b.kind
	})
	for _, k := range keys {
		s.Edges = append(s.Edges, SliceEdge{From: k.src, To: k.dst, Kind: k.kind, Confidence: first[k].conf})
	}
}

// frontier lists the best candidates that did not fit, with why.
func (x *Index) frontier(ctx context.Context, s *Slice, rest []ranked, taken map[string]bool) {
	var ids []string
	byID := map[string]ranked{}
	for _, rk := range rest {
		if !taken[rk.id] {
			ids = append(ids, rk.id)
			byID[rk.id] = rk // ranks hold each id once
		}
		if len(ids) == 8 {
			break
		}
	}
	rows, err := x.symbols(ctx, ids)
	if err != nil {
		return
	}
	for _, id := range ids {
		r := rows[id]
		if r == nil {
			continue
		}
		rk := byID[id]
		s.Frontier = append(s.Frontier, FrontierItem{SymbolID: id, Name: r.Qualified, File: r.Path, Line: r.Range.StartLine,
			Score: round4(rk.score), Why: rk.why})
	}
}

// sliceHash identifies a slice's content: its cards and their etags.
func sliceHash(s *Slice) string {
	var b strings.Builder
	for _, c := range s.Cards {
		b.WriteString(c.SymbolID + ":" + c.Etag + ";")
	}
	for _, c := range s.CardRefs {
		b.WriteString(c.SymbolID + ":" + c.Etag + ";")
	}
	return etagOf(&Card{Summary: b.String()})
}

func cardFiles(cs []*Card) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cs {
		if !seen[c.File] {
			seen[c.File] = true
			out = append(out, c.File)
		}
	}
	return out
}

// keptFrontier is the frontier a slice keeps while cutting to its budget:
// what just missed the slice tells the agent where to look next, for less
// than a card; a slice down to its first leadCards cards keeps one item,
// and only one down to its last card gives it up.
const keptFrontier = 3

// fitBudget checks the whole response against the budget and drops, from
// the end, until it fits: frontier items beyond keptFrontier, then memories
// beyond a tenth of the budget (memoryRoom), then the detail of the cards
// below the first keptDetail (adaptive slices: degradeCard), then cards
// down to leadCards, then the frontier but one item and the edges, then
// cards down to the last, then the rest of the frontier, the last card and
// the remaining memories.
// So memories about the code at hand displace at most a tenth of the cards.
// Budgets are promises: a response never exceeds its budget.
func (x *Index) fitBudget(resp *SliceResponse, budget int, adaptive bool) error {
	for {
		// the hash names the cards that are sent, not those taken
		n, ok := countResponse(resp, budget)
		if ok {
			return nil
		}
		s := &resp.Slice
		// drop enough at once to get under, then count again
		over := n - budget
		for over > 0 {
			switch {
			case len(s.Frontier) > keptFrontier:
				over -= Tokens(mustJSON(s.Frontier[len(s.Frontier)-1]))
				s.Frontier = s.Frontier[:len(s.Frontier)-1]
			case len(resp.Memories) > 0 && Tokens(mustJSON(resp.Memories)) > memoryRoom(budget):
				// memories beyond their share go before any card
				over -= Tokens(mustJSON(resp.Memories[len(resp.Memories)-1]))
				resp.Memories = resp.Memories[:len(resp.Memories)-1]
			case len(s.Frontier) > 0 && len(s.Cards) <= 1:
				// the last card outranks what just missed the slice
				over -= Tokens(mustJSON(s.Frontier[len(s.Frontier)-1]))
				s.Frontier = s.Frontier[:len(s.Frontier)-1]
			case len(s.Cards) > 0 && adaptive && degradable(s.Cards, keptDetail(budget)):
				// a card below the first keptDetail gives its detail
				// before any card is dropped
				over -= degradeCard(s.Cards, keptDetail(budget))
			case len(s.Frontier) > 1 && len(s.Cards) <= leadCards:
				// the first leadCards cards outrank the frontier too,
				// but for one item that says where to look next
				over -= Tokens(mustJSON(s.Frontier[len(s.Frontier)-1]))
				s.Frontier = s.Frontier[:len(s.Frontier)-1]
			case len(s.Edges) > 0 && len(s.Cards) <= leadCards:
				// and the edges among them, which their calls partly say
				over -= Tokens(mustJSON(s.Edges[len(s.Edges)-1]))
				s.Edges = s.Edges[:len(s.Edges)-1]
			case len(s.Cards) > 0:
				last := s.Cards[len(s.Cards)-1]
				over -= Tokens(mustJSON(last))
				s.Cards = s.Cards[:len(s.Cards)-1]
				var edges []SliceEdge
				for _, e := range s.Edges {
					if e.From != last.SymbolID && e.To != last.SymbolID {
						edges = append(edges, e)
					} else {
						// its edges go with it: dropping more cards
						// for them would waste the budget
						over -= Tokens(mustJSON(e))
					}
				}
				s.Edges = edges
				if s.Truncation == nil {
					s.Truncation = &SliceTruncation{Truncated: true, Reason: "token budget", SpilloverHandle: spilloverOf(resp.SliceHandle)}
				}
				s.Truncation.DroppedCards++
			case len(resp.Memories) > 0:
				over -= Tokens(mustJSON(resp.Memories[len(resp.Memories)-1]))
				resp.Memories = resp.Memories[:len(resp.Memories)-1]
			case resp.RetrievalEvidence != nil:
				over -= Tokens(mustJSON(resp.RetrievalEvidence))
				resp.RetrievalEvidence = nil
			default:
				return fmt.Errorf("a slice envelope alone exceeds %d tokens", budget)
			}
		}
	}
}

// rankRows loads what ranking needs of the candidates: file, kind, parent
// and whether they are tests, and the qualified name that labels them as
// callers (graphCallers). Those in known, or read before since the file
// last changed, are not read again; known's rows hold no qualified name.
func (x *Index) rankRows(ctx context.Context, ids []string, known map[string]*symbolRow) (map[string]*symbolRow, error) {
	if _, err := x.dataVersion(ctx); err != nil {
		return nil, err
	}
	out := make(map[string]*symbolRow, len(ids))
	if len(known) > 0 {
		rest := make([]string, 0, len(ids))
		for _, id := range ids {
			if r := known[id]; r != nil {
				out[id] = r
			} else {
				rest = append(rest, id)
			}
		}
		ids = rest
	}
	ids = x.graphCache.rowsOf(ids, out)
	read := make(map[string]*symbolRow, len(ids))
	defer x.graphCache.putRows(read)
	for chunk := range slices.Chunk(ids, schema.MaxInList) {
		args := schema.Args(chunk)
		rows, err := x.DB.QueryContext(ctx, `SELECT s.id, p.path, s.kind, s.parent_id, s.is_test,
			s.name, s.container, COALESCE(s.qualified, ''), s.start_line, s.end_line FROM symbols s
			JOIN paths p ON p.id = s.path_id WHERE s.to_seq IS NULL AND s.id IN (`+schema.Placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("load candidates: %w", err)
		}
		for rows.Next() {
			var r symbolRow
			var isTest int
			if err := rows.Scan(&r.ID, &r.Path, &r.Kind, &r.ParentID, &isTest,
				&r.Name, &r.Container, &r.Qualified, &r.Range.StartLine, &r.Range.EndLine); err != nil {
				rows.Close()
				return nil, err
			}
			r.IsTest = isTest != 0
			out[r.ID] = &r
			read[r.ID] = &r
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
