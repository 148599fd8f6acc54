package query

import (
	"container/list"
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Scopes of a context summary.
const (
	ScopeSymbol = "symbol"
	ScopeFile   = "file"
	ScopeTask   = "task"
)

// Formats of a context summary.
const (
	FormatMarkdown  = "markdown"
	FormatJSON      = "json"
	FormatClipboard = "clipboard"
)

// Budgets and limits of a context summary.
const (
	DefaultSummaryBudget = 2000
	MinSummaryBudget     = 200
	MaxSummaryBudget     = 20000
	MaxSummaryQuery      = 1000 // characters
)

// SummaryRequest is sdl.context.summary.
type SummaryRequest struct {
	Query  string `json:"query"`
	Budget int    `json:"budget,omitempty"`
	Format string `json:"format,omitempty"`
	Scope  string `json:"scope,omitempty"`
}

// SummaryResponse answers sdl.context.summary. The whole answer is within
// the budget: Content is the rendered briefing (the structured data itself
// in json format) and the summary field an outline of it, so nothing is
// sent twice. Summary holds the structured data for callers in process.
type SummaryResponse struct {
	RepoID        string          `json:"repoId"`
	Format        string          `json:"format"`
	Content       string          `json:"content"`
	Summary       *ContextSummary `json:"-"`
	Outline       *SummaryOutline `json:"summary"`
	LedgerVersion string          `json:"ledgerVersion"`
	StaleFiles    []string        `json:"staleFiles,omitempty"`
	// Cached says the answer came from the in-process cache.
	Cached bool `json:"cached,omitempty"`

	keyFiles []string // the files checked for staleness on every answer
}

// SummaryOutline says what a summary holds without repeating it.
type SummaryOutline struct {
	Scope           string          `json:"scope"`
	Query           string          `json:"query"`
	Notes           []string        `json:"notes,omitempty"`
	KeySymbols      int             `json:"keySymbols"`
	Dependencies    int             `json:"dependencies"`
	RiskAreas       int             `json:"riskAreas"`
	Files           int             `json:"files"`
	Truncated       bool            `json:"truncated"`
	Omitted         *SummaryOmitted `json:"omitted,omitempty"`
	EstimatedTokens int             `json:"estimatedTokens"`
}

func outlineOf(s *ContextSummary) *SummaryOutline {
	return &SummaryOutline{Scope: s.Scope, Query: s.Query, Notes: s.Notes, KeySymbols: len(s.KeySymbols),
		Dependencies: len(s.Dependencies), RiskAreas: len(s.RiskAreas), Files: len(s.Files), Truncated: s.Truncated,
		Omitted: s.Omitted, EstimatedTokens: s.EstimatedTokens}
}

// ContextSummary is the structured content of a summary: exactly what the
// rendered content shows.
type ContextSummary struct {
	Scope           string           `json:"scope"`
	Query           string           `json:"query"`
	Notes           []string         `json:"notes,omitempty"`
	KeySymbols      []KeySymbol      `json:"keySymbols"`
	Dependencies    []DependencyEdge `json:"dependencies"`
	RiskAreas       []RiskArea       `json:"riskAreas"`
	Files           []FileTouched    `json:"files"`
	Truncated       bool             `json:"truncated"`
	Omitted         *SummaryOmitted  `json:"omitted,omitempty"`
	EstimatedTokens int              `json:"estimatedTokens"`
}

// KeySymbol is one of the most relevant symbols.
type KeySymbol struct {
	SymbolID  string `json:"symbolId"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Signature string `json:"signature,omitempty"`
	Summary   string `json:"summary,omitempty"`
	// Role says why it is here: target, callee, caller, member, ...
	Role string `json:"role,omitempty"`
}

// DependencyEdge is an edge among the key symbols or to one of their most
// important callers and callees. Confidence is given below 0.9 only.
type DependencyEdge struct {
	From       string  `json:"from"`
	To         string  `json:"to"`
	Kind       string  `json:"kind"`
	Confidence float64 `json:"confidence,omitempty"`
	FromID     string  `json:"fromId"`
	ToID       string  `json:"toId"`
}

// RiskArea is a symbol a change should treat with care, and why.
type RiskArea struct {
	SymbolID string   `json:"symbolId"`
	Name     string   `json:"name"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Reasons  []string `json:"reasons"`
	Score    int      `json:"score"`
}

// FileTouched is a file of the key symbols. Churn is nil when the index
// has no git history.
type FileTouched struct {
	Path       string `json:"path"`
	KeySymbols int    `json:"keySymbols"`
	Symbols    int    `json:"symbols"`
	Churn      *int   `json:"churn30d,omitempty"`
}

// SummaryOmitted counts what the budget cut from each section.
type SummaryOmitted struct {
	KeySymbols   int `json:"keySymbols,omitempty"`
	Dependencies int `json:"dependencies,omitempty"`
	RiskAreas    int `json:"riskAreas,omitempty"`
	Files        int `json:"files,omitempty"`
}

// DetectScope chooses the scope of a query as the spec says: a path
// separator or a file extension means a file; three or more words, or a
// word that asks for work (fix, add, why, ...), a task; else a symbol.
func DetectScope(query string) string {
	q := strings.TrimSpace(query)
	if strings.ContainsAny(q, `/\`) {
		return ScopeFile
	}
	for _, f := range strings.Fields(q) {
		if fileToken(f) != "" {
			return ScopeFile
		}
	}
	words := queryWords(q)
	for _, w := range words {
		if taskWords[strings.ToLower(w)] {
			return ScopeTask
		}
	}
	if len(words) >= 3 {
		return ScopeTask
	}
	return ScopeSymbol
}

// queryWords are the words of a query, without surrounding punctuation;
// punctuation alone is not a word.
func queryWords(q string) []string {
	var out []string
	for _, f := range strings.Fields(q) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// taskWords ask for work or an explanation rather than name a symbol.
var taskWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`fix fixes fixing add adding implement implementing debug debugging why how what where
	when refactor refactoring remove delete rename move migrate change update upgrade optimize optimise improve speed
	support handle explain understand investigate trace find write create build test tests cleanup clean replace
	extract split merge introduce allow prevent avoid bug bugs crash crashes error errors fail fails failing broken
	issue leak slow`) {
		taskWords[w] = true
	}
}

// fileExts are the extensions that make a word a file name.
var fileExts = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`go py pyi ts tsx mts cts js jsx mjs cjs java kt kts scala rs c h cc cpp cxx hpp hh cs
	rb php swift m mm dart lua ex exs erl hs ml clj sql proto graphql md rst txt json yaml yml toml ini cfg conf xml html
	htm css scss less vue svelte sh bash zsh ps1 mod sum lock gradle tf`) {
		fileExts[e] = true
	}
}

// fileToken returns the path a word names when it looks like one (has a
// separator or ends in a known extension, perhaps with :line), else "".
func fileToken(word string) string {
	w := strings.Trim(word, "`'\"()[]{}<>,;!?")
	w = strings.TrimSuffix(w, ".")
	if w == "" {
		return ""
	}
	// a position after the name: file.go:12, file.go#L12
	if i := strings.LastIndexByte(w, '.'); i >= 0 {
		if j := strings.IndexAny(w[i:], ":#"); j > 0 {
			w = w[:i+j]
		}
	}
	if strings.ContainsAny(w, `/\`) {
		return w
	}
	i := strings.LastIndexByte(w, '.')
	if i <= 0 || i == len(w)-1 {
		return ""
	}
	// as written: Context.JSON names a method, context.json a file
	if fileExts[w[i+1:]] {
		return w
	}
	return ""
}

// FileArg is the file an argument names when it names a file rather than a
// symbol (it has a path separator or ends in a known file extension written
// in lower case: db.go, store/db.go:12, not Context.JSON), else "". Every
// command that takes either decides with it.
func FileArg(arg string) string { return fileToken(arg) }

// validate checks a request, fills its defaults and returns the query to
// answer.
func (r *SummaryRequest) validate() (string, error) {
	q := strings.TrimSpace(r.Query)
	if q == "" {
		return "", invalidf("query", "must be a non-empty question, file path or symbol name")
	}
	if n := utf8.RuneCountInString(q); n > MaxSummaryQuery {
		return "", invalidf("query", "at most %d characters, got %d; name the key symbols, files or the task in short", MaxSummaryQuery, n)
	}
	if r.Budget == 0 {
		r.Budget = DefaultSummaryBudget
	}
	if r.Budget < MinSummaryBudget || r.Budget > MaxSummaryBudget {
		return "", invalidf("budget", "must be between %d and %d tokens, got %d", MinSummaryBudget, MaxSummaryBudget, r.Budget)
	}
	switch r.Format {
	case "":
		r.Format = FormatMarkdown
	case FormatMarkdown, FormatJSON, FormatClipboard:
	default:
		return "", invalidf("format", "%q is not a format; use markdown, json or clipboard", r.Format)
	}
	// control characters and broken UTF-8 would only garble the echo
	q = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(q, "\uFFFD"))
	if q = strings.TrimSpace(q); q == "" {
		return "", invalidf("query", "holds only control characters; send a question, file path or symbol name")
	}
	switch r.Scope {
	case "":
		r.Scope = DetectScope(q)
	case ScopeSymbol, ScopeFile, ScopeTask:
	default:
		return "", invalidf("scope", "%q is not a scope; use symbol, file or task, or leave it out to detect it", r.Scope)
	}
	return q, nil
}

// Summarize answers sdl.context.summary: a briefing on a symbol, a file
// or a task (key symbols, their dependency graph, risk areas, files
// touched) that fits the token budget.
func (x *Index) Summarize(ctx context.Context, req SummaryRequest) (*SummaryResponse, error) {
	q, err := req.validate()
	if err != nil {
		return nil, err
	}
	ver, err := x.Current(ctx)
	if err != nil {
		return nil, err
	}
	key := summaryKey{version: ver.Hash, query: q, scope: req.Scope, format: req.Format, budget: req.Budget}
	if resp, ok := x.summaries.get(key); ok {
		// the index is the same; the files on disk may not be
		resp.StaleFiles = x.staleFiles(ctx, resp.keyFiles)
		resp.Cached = true
		return resp, nil
	}
	b := &summaryBuild{x: x, scope: req.Scope, query: q, rows: map[string]*symbolRow{}}
	// a key symbol with its share of edges and risks costs about 120
	// tokens: more candidates than that could never be shown
	b.maxKey = min(max(req.Budget/120, 8), 50)
	doc, err := b.build(ctx)
	if err != nil {
		return nil, fmt.Errorf("context summary: %w", err)
	}
	// the content gets the budget less what the rest of the answer costs
	stale := x.staleFiles(ctx, doc.keyFiles)
	contentBudget := req.Budget - 100
	var resp *SummaryResponse
	for {
		s, content := fitSummary(doc, req.Format, ver.ID, contentBudget, req.Budget)
		resp = &SummaryResponse{RepoID: x.RepoID, Format: req.Format, Content: content, Summary: s, Outline: outlineOf(s),
			LedgerVersion: ver.ID, StaleFiles: stale, keyFiles: doc.keyFiles}
		n := Tokens(mustJSON(resp))
		if n <= req.Budget || contentBudget <= MinSummaryBudget/2 {
			break
		}
		contentBudget -= n - req.Budget + 8
	}
	x.summaries.put(key, resp)
	return resp, nil
}

// oneLine collapses whitespace and cuts s to n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// summaryCache keeps recent answers: the same query at the same ledger
// version gives the same summary, so agents asking again pay nothing.
// A new version changes the key; old entries age out.
type summaryCache struct {
	mu    sync.Mutex
	order *list.List // of *summaryEntry, most recent first
	byKey map[summaryKey]*list.Element
}

type summaryKey struct {
	version, query, scope, format string
	budget                        int
}

type summaryEntry struct {
	key  summaryKey
	resp SummaryResponse
}

const summaryCacheSize = 48

func (c *summaryCache) get(k summaryKey) (*SummaryResponse, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	resp := el.Value.(*summaryEntry).resp
	resp.Summary = resp.Summary.clone()
	return &resp, true
}

func (c *summaryCache) put(k summaryKey, resp *SummaryResponse) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[summaryKey]*list.Element{}
		c.order = list.New()
	}
	e := &summaryEntry{key: k, resp: *resp}
	e.resp.Summary = resp.Summary.clone()
	if el, ok := c.byKey[k]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.byKey[k] = c.order.PushFront(e)
	for c.order.Len() > summaryCacheSize {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*summaryEntry).key)
	}
}

// clone copies a summary so that a caller changing its answer cannot
// change the cached one.
func (s *ContextSummary) clone() *ContextSummary {
	c := *s
	c.Notes = append([]string(nil), s.Notes...)
	c.KeySymbols = append([]KeySymbol{}, s.KeySymbols...)
	c.Dependencies = append([]DependencyEdge{}, s.Dependencies...)
	c.RiskAreas = make([]RiskArea, len(s.RiskAreas))
	for i, r := range s.RiskAreas {
		r.Reasons = append([]string(nil), r.Reasons...)
		c.RiskAreas[i] = r
	}
	c.Files = make([]FileTouched, len(s.Files))
	for i, f := range s.Files {
		if f.Churn != nil {
			n := *f.Churn
			f.Churn = &n
		}
		c.Files[i] = f
	}
	if s.Omitted != nil {
		o := *s.Omitted
		c.Omitted = &o
	}
	return &c
}
