package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/query"
)

// sdl.agent.orchestrate: a planner over the ladder. It gathers cards for
// the task (a slice, focused by the caller's symbols and paths), measures
// what each further rung would cost for the best symbols, keeps the rungs
// that fit the budget (trimming from the end, never below the card rung),
// runs them through the same tools an agent would call, and answers with
// the evidence, an extractive answer and the next call to make.

// Rung names, cheapest first.
const (
	RungCard     = "card"
	RungSkeleton = "skeleton"
	RungHotPath  = "hotPath"
	RungRaw      = "raw"
)

// SpecRungTokens are the planner's token estimates per symbol for each
// rung before anything is measured (seeds/000: card ~50, skeleton ~200,
// hotPath ~500, raw ~2,000).
var SpecRungTokens = map[string]int{RungCard: 50, RungSkeleton: 200, RungHotPath: 500, RungRaw: 2000}

// Measured ratios of a rung's tokens to the raw code's (BenchmarkRungCosts
// over 300 functions of GOROOT): skeletons keep 0.61 of functions under
// 150 tokens, 0.35 of those up to 500 and 0.23 of larger ones; a hot path
// of a function's most used names costs about its raw tokens (0.94-1.22:
// line numbers are added, few lines are cut), so it is planned at 1.1.
const (
	hotPathRatio = 1.1
	// rungOverhead is the JSON around each rung's content in the answer.
	rungOverhead = 45
	// cardShare is the part of the budget the card rung may take when
	// later rungs follow.
	cardShare = 0.45
)

var taskTypes = []string{"debug", "review", "implement", "explain"}

// ladderFor is the rung path of each task type before the budget trims
// it, and how many symbols the code rungs look at.
func ladderFor(taskType string, requireDiagnostics bool) ([]string, int, int) {
	var rungs []string
	var cards, code int
	switch taskType {
	case "debug":
		rungs, cards, code = []string{RungCard, RungSkeleton, RungHotPath}, 6, 2
	case "review":
		rungs, cards, code = []string{RungCard, RungSkeleton, RungHotPath}, 8, 3
	case "implement":
		rungs, cards, code = []string{RungCard, RungSkeleton, RungHotPath}, 8, 2
	default: // explain
		rungs, cards, code = []string{RungCard, RungSkeleton}, 8, 1
	}
	if requireDiagnostics {
		rungs = append(rungs, RungRaw)
	}
	return rungs, cards, code
}

// OrchestrateRequest is sdl.agent.orchestrate.
type OrchestrateRequest struct {
	TaskType string              `json:"taskType"`
	TaskText string              `json:"taskText"`
	Budget   *OrchestrateBudget  `json:"budget,omitempty"`
	Options  *OrchestrateOptions `json:"options,omitempty"`
}

// OrchestrateBudget bounds a run.
type OrchestrateBudget struct {
	MaxTokens     int `json:"maxTokens,omitempty"`
	MaxActions    int `json:"maxActions,omitempty"`
	MaxDurationMs int `json:"maxDurationMs,omitempty"`
}

// OrchestrateOptions focus a run.
type OrchestrateOptions struct {
	FocusSymbols       []string `json:"focusSymbols,omitempty"`
	FocusPaths         []string `json:"focusPaths,omitempty"`
	IncludeTests       bool     `json:"includeTests,omitempty"`
	RequireDiagnostics bool     `json:"requireDiagnostics,omitempty"`
}

// Defaults of a run.
const (
	DefaultOrchestrateTokens  = 4000
	DefaultOrchestrateActions = 12
	minOrchestrateTokens      = 400
)

// RungPath is the plan.
type RungPath struct {
	Rungs []string `json:"rungs"`
	// Estimates are the tokens each planned rung was expected to cost,
	// measured on the symbols chosen (the card rung: the cards returned).
	Estimates       map[string]int `json:"estimates"`
	EstimatedTokens int            `json:"estimatedTokens"`
	EstimateSource  string         `json:"estimateSource"` // measured | spec
	Trimmed         []string       `json:"trimmed,omitempty"`
	TrimReason      string         `json:"trimReason,omitempty"`
	Symbols         []string       `json:"symbols"` // the symbols the code rungs look at
}

// ActionTaken is one tool call of a run.
type ActionTaken struct {
	ID         string `json:"id"`
	Rung       string `json:"rung"`
	Tool       string `json:"tool"`
	Target     string `json:"target,omitempty"`
	Status     string `json:"status"` // ok | error | skipped
	DurationMs int64  `json:"durationMs"`
	Tokens     int    `json:"tokens"`
	CacheHit   bool   `json:"cacheHit,omitempty"`
	Note       string `json:"note,omitempty"`
	Error      string `json:"error,omitempty"`
}

// Evidence is what a run found.
type Evidence struct {
	Type      string `json:"type"` // symbolCard | skeleton | hotPath | codeWindow | windowDenied | diagnostic | test
	Reference string `json:"reference"`
	Summary   string `json:"summary"`
	Timestamp string `json:"timestamp"`
	SymbolID  string `json:"symbolId,omitempty"`
	File      string `json:"file,omitempty"`
	Lines     string `json:"lines,omitempty"`
	Content   string `json:"content,omitempty"`
	rank      int
}

// OrchestrateMetrics measure a run.
type OrchestrateMetrics struct {
	TotalDurationMs   int64 `json:"totalDurationMs"`
	TotalTokens       int   `json:"totalTokens"`
	ToolTokens        int   `json:"toolTokens"`
	TotalActions      int   `json:"totalActions"`
	SuccessfulActions int   `json:"successfulActions"`
	FailedActions     int   `json:"failedActions"`
	SkippedActions    int   `json:"skippedActions"`
	CacheHits         int   `json:"cacheHits"`
}

// OrchestrateResponse is the run's report.
type OrchestrateResponse struct {
	TaskID         string             `json:"taskId"`
	TaskType       string             `json:"taskType"`
	Success        bool               `json:"success"`
	Summary        string             `json:"summary"`
	Answer         string             `json:"answer"`
	NextBestAction string             `json:"nextBestAction"`
	NextCall       *NextCall          `json:"nextCall,omitempty"`
	Error          string             `json:"error,omitempty"`
	Path           RungPath           `json:"path"`
	ActionsTaken   []ActionTaken      `json:"actionsTaken"`
	FinalEvidence  []Evidence         `json:"finalEvidence"`
	Metrics        OrchestrateMetrics `json:"metrics"`
	Warnings       []string           `json:"warnings,omitempty"`
}

// NextCall is a concrete follow-up call.
type NextCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	Why  string         `json:"why"`
}

// orchestration is one run's state.
type orchestration struct {
	s        *Server
	r        *Repo
	req      *OrchestrateRequest
	start    time.Time
	maxTok   int
	maxAct   int
	resp     *OrchestrateResponse
	used     int // tokens of tool answers taken into the evidence budget
	planned  int // actions the ladder would take
	cards    []map[string]any
	edges    []map[string]any
	targets  []target
	terms    []string
	warnings []string
}

// target is a symbol the code rungs look at.
type target struct {
	id, name, file string
	lines          string
	card           map[string]any
	code           *query.SymbolCode
	idents         []string
	whole          bool // the skeleton showed all the code
}

func (s *Server) orchestrate(ctx context.Context, r *Repo, req *OrchestrateRequest) (*OrchestrateResponse, error) {
	if !contains(taskTypes, req.TaskType) {
		return nil, fmt.Errorf("%w: taskType: %q is not one of %s", ErrArgs, req.TaskType, strings.Join(taskTypes, ", "))
	}
	if strings.TrimSpace(req.TaskText) == "" {
		return nil, fmt.Errorf("%w: taskText: required, the task in words (\"find root cause of auth timeout\")", ErrArgs)
	}
	if len(req.TaskText) > 20000 {
		return nil, fmt.Errorf("%w: taskText: %d bytes, at most 20000; put a stack trace in sdl_slice_build's stackTrace instead", ErrArgs, len(req.TaskText))
	}
	o := &orchestration{s: s, r: r, req: req, start: time.Now(), maxTok: DefaultOrchestrateTokens, maxAct: DefaultOrchestrateActions}
	if b := req.Budget; b != nil {
		if b.MaxTokens < 0 || b.MaxActions < 0 || b.MaxDurationMs < 0 {
			return nil, fmt.Errorf("%w: budget: maxTokens, maxActions and maxDurationMs must be positive", ErrArgs)
		}
		if b.MaxTokens > 0 {
			o.maxTok = b.MaxTokens
		}
		if b.MaxActions > 0 {
			o.maxAct = b.MaxActions
		}
	}
	if o.maxTok < minOrchestrateTokens {
		return nil, fmt.Errorf("%w: budget.maxTokens: %d cannot hold a report; give at least %d", ErrArgs, o.maxTok, minOrchestrateTokens)
	}
	o.maxTok = min(o.maxTok, s.opts.MaxOutputTokens)
	if req.Options == nil {
		req.Options = &OrchestrateOptions{}
	}
	opt := req.Options
	if len(opt.FocusSymbols) > 100 || len(opt.FocusPaths) > 100 {
		return nil, fmt.Errorf("%w: options: at most 100 focusSymbols and 100 focusPaths", ErrArgs)
	}
	for i, p := range opt.FocusPaths {
		c, err := cleanBufferPath(p)
		if err != nil {
			return nil, fmt.Errorf("%w: options.focusPaths[%d]: %v", ErrArgs, i, strings.TrimPrefix(err.Error(), ErrArgs.Error()+": filePath: "))
		}
		opt.FocusPaths[i] = c
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%d", req.TaskType, req.TaskText, o.start.UnixNano())))
	o.resp = &OrchestrateResponse{TaskID: "task_" + hex.EncodeToString(sum[:6]), TaskType: req.TaskType,
		ActionsTaken: []ActionTaken{}, FinalEvidence: []Evidence{}}
	o.terms = taskTerms(req.TaskText)

	rungs, nCards, nCode := ladderFor(req.TaskType, opt.RequireDiagnostics)
	o.planned = 1 + (len(rungs)-1)*nCode
	if opt.IncludeTests {
		o.planned += 2 * nCode
	}
	o.planned = min(o.planned, o.maxAct)
	if err := o.cardRung(ctx, nCards); err != nil {
		return nil, err
	}
	o.chooseTargets(ctx, nCode)
	o.plan(rungs)
	for _, rung := range o.resp.Path.Rungs[1:] {
		for i := range o.targets {
			o.codeRung(ctx, rung, &o.targets[i])
		}
	}
	if opt.IncludeTests {
		o.tests(ctx)
	}
	if opt.RequireDiagnostics {
		o.diagnostics(ctx)
	}
	o.finish()
	return o.resp, nil
}

// stop says why no further action may run, or "".
func (o *orchestration) stop(estimate int) string {
	if len(o.resp.ActionsTaken) >= o.maxAct {
		return fmt.Sprintf("budget.maxActions (%d) reached", o.maxAct)
	}
	if b := o.req.Budget; b != nil && b.MaxDurationMs > 0 && time.Since(o.start) > time.Duration(b.MaxDurationMs)*time.Millisecond {
		return fmt.Sprintf("budget.maxDurationMs (%d) reached", b.MaxDurationMs)
	}
	if estimate > 0 && o.used+estimate > o.evidenceBudget() {
		return fmt.Sprintf("about %d tokens, more than the %d left of budget.maxTokens", estimate, max(0, o.evidenceBudget()-o.used))
	}
	return ""
}

// evidenceBudget is what the evidence may take of maxTokens: the rest is
// the report around it.
func (o *orchestration) evidenceBudget() int {
	return o.maxTok - o.reserve()
}

// reserve is the report's own size: summary, answer, path, metrics and a
// line per action.
func (o *orchestration) reserve() int {
	return 300 + 55*o.planned
}

// call runs one tool through the server, as an agent would, from the
// server's cache when the same call was answered for the same version.
func (o *orchestration) call(ctx context.Context, rung, tool, targetName string, args map[string]any, estimate int) (map[string]any, *ActionTaken) {
	a := ActionTaken{ID: fmt.Sprintf("a%d", len(o.resp.ActionsTaken)+1), Rung: rung, Tool: toolMCPName(o.s, tool), Target: targetName}
	if why := o.stop(estimate); why != "" {
		a.Status, a.Note = "skipped", why
		o.resp.ActionsTaken = append(o.resp.ActionsTaken, a)
		return nil, &o.resp.ActionsTaken[len(o.resp.ActionsTaken)-1]
	}
	t0 := time.Now()
	args["repoId"] = o.r.ID
	raw, hit, err := o.s.cachedCall(ctx, o.r, tool, args)
	a.DurationMs, a.CacheHit = time.Since(t0).Milliseconds(), hit
	var out map[string]any
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	if err != nil {
		a.Status, a.Error = "error", err.Error()
	} else {
		a.Status, a.Tokens = "ok", query.Tokens(string(raw))
	}
	o.resp.ActionsTaken = append(o.resp.ActionsTaken, a)
	return out, &o.resp.ActionsTaken[len(o.resp.ActionsTaken)-1]
}

func toolMCPName(s *Server, name string) string {
	if t, err := s.reg.Lookup(name); err == nil {
		return t.MCPName()
	}
	return name
}

// cardRung gathers the cards: the caller's focus symbols, then a slice of
// the task around them, kept to the focus paths.
func (o *orchestration) cardRung(ctx context.Context, nCards int) error {
	opt := o.req.Options
	var entry []string
	var files []string
	if len(opt.FocusPaths) > 0 {
		x, release, err := o.r.live.index(ctx)
		if err != nil {
			return err
		}
		sizes, err := x.FileSizes(ctx, opt.FocusPaths)
		release()
		if err != nil {
			return err
		}
		for _, p := range opt.FocusPaths {
			if _, ok := sizes[p]; ok {
				files = append(files, p)
			}
		}
	}
	if len(opt.FocusSymbols) > 0 {
		var ids, refs []any
		for _, f := range opt.FocusSymbols {
			if isSymbolID(f) {
				ids = append(ids, f)
			} else {
				refs = append(refs, map[string]any{"name": f})
			}
		}
		for _, batch := range []struct {
			key  string
			list []any
		}{{"symbolIds", ids}, {"symbolRefs", refs}} {
			if len(batch.list) == 0 {
				continue
			}
			out, a := o.call(ctx, RungCard, "sdl.symbol.getCards", "focusSymbols",
				map[string]any{batch.key: batch.list, "detail": "compact"}, len(batch.list)*SpecRungTokens[RungCard])
			if out == nil {
				continue
			}
			for _, c := range asList(out["cards"]) {
				if cm, _ := c.(map[string]any); cm != nil && cm["symbolId"] != nil {
					entry = append(entry, str(cm["symbolId"]))
				}
			}
			for _, e := range asList(out["failures"]) {
				if em, _ := e.(map[string]any); em != nil {
					o.warnings = append(o.warnings, fmt.Sprintf("focus symbol %s: %s", str(em["input"]), str(em["message"])))
				}
			}
			a.Note = fmt.Sprintf("%d of %d focus symbols resolved", len(asList(out["cards"])), len(batch.list))
		}
	}
	share := o.evidenceBudget()
	if o.req.TaskType != "explain" {
		share = int(float64(share) * cardShare)
	}
	// a slice needs room for a few compact cards; the report is trimmed to
	// the budget at the end if the cards took more than their share
	share = max(min(share, query.MaxSliceTokens), 350)
	args := map[string]any{"taskText": o.req.TaskText, "cardDetail": "compact",
		"budget": map[string]any{"maxCards": nCards * 3, "maxEstimatedTokens": share}}
	if len(entry) > 0 {
		args["entrySymbols"] = toAny(entry)
	}
	if len(files) > 0 {
		args["editedFiles"] = toAny(files)
	}
	out, a := o.call(ctx, RungCard, "sdl.slice.build", "", args, 0)
	if out == nil {
		if a.Status == "error" {
			o.resp.Error = a.Error
		}
		return nil
	}
	sl, _ := out["slice"].(map[string]any)
	focusOrder := map[string]int{}
	for i, id := range entry {
		focusOrder[id] = i + 1
	}
	var kept []map[string]any
	for _, c := range asList(sl["cards"]) {
		cm, _ := c.(map[string]any)
		if cm == nil {
			continue
		}
		if !opt.IncludeTests && (cm["isTest"] == true || lang.IsTestPath(str(cm["file"]))) {
			continue
		}
		if len(opt.FocusPaths) > 0 && !underAny(str(cm["file"]), opt.FocusPaths) && focusOrder[str(cm["symbolId"])] == 0 {
			continue
		}
		kept = append(kept, cm)
	}
	// focus symbols first, in the caller's order, then the slice's rank
	sort.SliceStable(kept, func(i, j int) bool {
		fi, fj := focusOrder[str(kept[i]["symbolId"])], focusOrder[str(kept[j]["symbolId"])]
		if (fi > 0) != (fj > 0) {
			return fi > 0
		}
		return fi < fj
	})
	if len(kept) == 0 && len(opt.FocusPaths) > 0 {
		kept = o.searchUnder(ctx, nCards)
	}
	if len(kept) > nCards {
		kept = kept[:nCards]
	}
	for _, e := range asList(sl["edges"]) {
		if em, _ := e.(map[string]any); em != nil {
			o.edges = append(o.edges, em)
		}
	}
	o.cards = kept
	tokens := 0
	for i, c := range kept {
		ev := Evidence{Type: "symbolCard", Reference: "symbol:" + str(c["symbolId"]), SymbolID: str(c["symbolId"]),
			File: str(c["file"]), Lines: lineSpan(c), Summary: cardLine(c), Content: cardText(c), rank: i}
		tokens += query.Tokens(ev.Content) + rungOverhead
		o.add(ev)
	}
	a.Note = fmt.Sprintf("%d cards kept of %d in the slice", len(kept), len(asList(sl["cards"])))
	o.used += tokens
	o.resp.Path.Estimates = map[string]int{RungCard: tokens}
	return nil
}

// searchUnder finds cards under the focus paths when the slice had none
// there: a search of the task's words, kept to the paths.
func (o *orchestration) searchUnder(ctx context.Context, n int) []map[string]any {
	q := strings.Join(o.terms, " ")
	if q == "" {
		q = o.req.TaskText
	}
	out, a := o.call(ctx, RungCard, "sdl.symbol.search", "focusPaths", map[string]any{"query": q, "limit": 200}, 0)
	if out == nil {
		return nil
	}
	var ids []any
	for _, r := range asList(out["results"]) {
		rm, _ := r.(map[string]any)
		if rm != nil && underAny(str(rm["file"]), o.req.Options.FocusPaths) && (o.req.Options.IncludeTests || !lang.IsTestPath(str(rm["file"]))) {
			ids = append(ids, rm["symbolId"])
			if len(ids) == n {
				break
			}
		}
	}
	a.Note = fmt.Sprintf("%d matches under the focus paths", len(ids))
	if len(ids) == 0 {
		return nil
	}
	cards, _ := o.call(ctx, RungCard, "sdl.symbol.getCards", "focusPaths", map[string]any{"symbolIds": ids, "detail": "compact"}, 0)
	var kept []map[string]any
	for _, c := range asList(cards["cards"]) {
		if cm, _ := c.(map[string]any); cm != nil && cm["symbolId"] != nil {
			kept = append(kept, cm)
		}
	}
	return kept
}

var codeKinds = map[string]bool{"function": true, "method": true, "constructor": true}

// chooseTargets picks the symbols the code rungs look at: functions and
// methods first, in card order; and measures their code.
func (o *orchestration) chooseTargets(ctx context.Context, n int) {
	var picks []map[string]any
	for _, pass := range []bool{true, false} {
		for _, c := range o.cards {
			if len(picks) == n {
				break
			}
			if codeKinds[str(c["kind"])] == pass && !hasCard(picks, c) {
				picks = append(picks, c)
			}
		}
	}
	x, release, err := o.r.live.index(ctx)
	if err != nil {
		return
	}
	defer release()
	for _, c := range picks {
		t := target{id: str(c["symbolId"]), name: displayName(c), file: str(c["file"]), lines: lineSpan(c), card: c}
		code, err := x.Code(ctx, t.id)
		if err != nil {
			o.warnings = append(o.warnings, fmt.Sprintf("%s: %v", t.name, err))
			continue
		}
		t.code = code
		t.idents = pickIdentifiers(code.Identifiers, o.terms, displayName(c))
		o.targets = append(o.targets, t)
		o.resp.Path.Symbols = append(o.resp.Path.Symbols, t.name)
	}
	if o.resp.Path.Symbols == nil {
		o.resp.Path.Symbols = []string{}
	}
}

func hasCard(list []map[string]any, c map[string]any) bool {
	for _, x := range list {
		if x["symbolId"] == c["symbolId"] {
			return true
		}
	}
	return false
}

// rungEstimate is the tokens a rung should cost for a target, from its
// code's measured size.
func rungEstimate(rung string, t *target) int {
	if t.code == nil {
		return SpecRungTokens[rung]
	}
	raw := t.code.Tokens
	switch rung {
	case RungSkeleton:
		ratio := 0.23
		switch {
		case raw < 150:
			ratio = 0.61
		case raw < 500:
			ratio = 0.35
		}
		return max(30, int(float64(raw)*ratio)) + rungOverhead
	case RungHotPath:
		return max(60, int(float64(raw)*hotPathRatio)) + rungOverhead
	case RungRaw:
		return min(raw, 1400) + rungOverhead
	}
	return SpecRungTokens[rung]
}

// plan keeps the rungs that fit: each rung costs its estimate for every
// target; rungs are cut from the end, the card rung always stays.
func (o *orchestration) plan(rungs []string) {
	p := &o.resp.Path
	p.EstimateSource = "measured"
	if len(o.targets) == 0 {
		p.EstimateSource = "spec"
	}
	if p.Estimates == nil {
		p.Estimates = map[string]int{}
	}
	total := p.Estimates[RungCard]
	actions := len(o.resp.ActionsTaken)
	keep := []string{RungCard}
	for _, rung := range rungs[1:] {
		est := 0
		for i := range o.targets {
			est += rungEstimate(rung, &o.targets[i])
		}
		if len(o.targets) == 0 {
			est = SpecRungTokens[rung]
		}
		p.Estimates[rung] = est
		keep = append(keep, rung)
		total += est
	}
	budget := o.evidenceBudget()
	for len(keep) > 1 {
		n := actions + (len(keep)-1)*len(o.targets)
		over := total > budget
		if !over && n <= o.maxAct {
			break
		}
		last := keep[len(keep)-1]
		keep = keep[:len(keep)-1]
		total -= p.Estimates[last]
		p.Trimmed = append([]string{last}, p.Trimmed...)
		if over {
			p.TrimReason = fmt.Sprintf("the rungs were estimated at %d tokens, over the %d of budget.maxTokens left for evidence", total+p.Estimates[last], budget)
		} else {
			p.TrimReason = fmt.Sprintf("%d actions would exceed budget.maxActions (%d)", n, o.maxAct)
		}
	}
	if len(o.targets) == 0 && len(keep) > 1 {
		p.Trimmed = append(keep[1:], p.Trimmed...)
		keep = keep[:1]
		p.TrimReason = "no function or method among the cards to look into"
	}
	p.Rungs = keep
	p.EstimatedTokens = total
}

// codeRung runs one rung for one target.
func (o *orchestration) codeRung(ctx context.Context, rung string, t *target) {
	est := rungEstimate(rung, t)
	left := o.evidenceBudget() - o.used
	now := time.Now().UTC().Format(time.RFC3339)
	switch rung {
	case RungSkeleton:
		out, a := o.call(ctx, rung, "sdl.code.getSkeleton", t.name, map[string]any{"symbolId": t.id, "maxTokens": max(50, min(left-rungOverhead, 2*est))}, est)
		if out == nil {
			return
		}
		text := str(out["skeleton"])
		if text == "" {
			a.Note = "empty skeleton"
			return
		}
		if !strings.Contains(text, "/* ... */") && out["truncated"] != true {
			t.whole = true // nothing elided: the skeleton is the code
		}
		o.used += query.Tokens(text) + rungOverhead
		o.add(Evidence{Type: "skeleton", Reference: "symbol:" + t.id, SymbolID: t.id, File: t.file, Lines: t.lines, Timestamp: now,
			Summary: fmt.Sprintf("skeleton of %s: %v of %v lines, bodies elided", t.name, out["lines"], out["originalLines"]), Content: text, rank: 100})
	case RungHotPath:
		if t.whole {
			o.resp.ActionsTaken = append(o.resp.ActionsTaken, ActionTaken{ID: fmt.Sprintf("a%d", len(o.resp.ActionsTaken)+1), Rung: rung,
				Tool: toolMCPName(o.s, "sdl.code.getHotPath"), Target: t.name, Status: "skipped", Note: "the skeleton already shows all of its code"})
			return
		}
		if len(t.idents) == 0 {
			o.resp.ActionsTaken = append(o.resp.ActionsTaken, ActionTaken{ID: fmt.Sprintf("a%d", len(o.resp.ActionsTaken)+1), Rung: rung,
				Tool: toolMCPName(o.s, "sdl.code.getHotPath"), Target: t.name, Status: "skipped", Note: "no identifier of the code matches the task"})
			return
		}
		out, a := o.call(ctx, rung, "sdl.code.getHotPath", t.name,
			map[string]any{"symbolId": t.id, "identifiersToFind": toAny(t.idents), "contextLines": 2, "maxTokens": max(50, min(left-rungOverhead, 2*est))}, est)
		if out == nil {
			return
		}
		text := str(out["excerpt"])
		matched := asStrings(out["matchedIdentifiers"])
		a.Note = "identifiers: " + strings.Join(t.idents, ", ")
		if text == "" || len(matched)+len(asStrings(out["textMatchedIdentifiers"])) == 0 {
			return
		}
		o.used += query.Tokens(text) + rungOverhead
		var lines []string
		for _, n := range asList(out["matchedLineNumbers"]) {
			lines = append(lines, fmt.Sprint(n))
		}
		o.add(Evidence{Type: "hotPath", Reference: "symbol:" + t.id, SymbolID: t.id, File: t.file, Lines: t.lines, Timestamp: now,
			Summary: fmt.Sprintf("%s uses %s at lines %s", t.name, strings.Join(append(matched, asStrings(out["textMatchedIdentifiers"])...), ", "), strings.Join(lines, ", ")),
			Content: text, rank: 50})
	case RungRaw:
		ids := t.idents
		if len(ids) == 0 && t.code != nil {
			ids = t.code.Identifiers[:min(3, len(t.code.Identifiers))]
		}
		args := map[string]any{"symbolId": t.id, "reason": truncate(o.req.TaskText, 300), "expectedLines": t.code.Lines,
			"identifiersToFind": toAny(ids), "sliceContext": map[string]any{"taskText": truncate(o.req.TaskText, 2000)}}
		out, _ := o.call(ctx, rung, "sdl.code.needWindow", t.name, args, est)
		if out == nil {
			return
		}
		if approved, _ := out["approved"].(bool); approved {
			text := str(out["code"])
			o.used += query.Tokens(text) + rungOverhead
			o.add(Evidence{Type: "codeWindow", Reference: "symbol:" + t.id, SymbolID: t.id, File: t.file, Lines: t.lines, Timestamp: now,
				Summary: fmt.Sprintf("raw code of %s (%d lines), approved by the window policy", t.name, t.code.Lines), Content: text, rank: 150})
			return
		}
		why := strings.Join(asStrings(out["whyDenied"]), "; ")
		o.add(Evidence{Type: "windowDenied", Reference: "symbol:" + t.id, SymbolID: t.id, File: t.file, Lines: t.lines, Timestamp: now,
			Summary: fmt.Sprintf("raw code of %s denied: %s", t.name, why), rank: 200})
	}
}

// tests adds the test that best covers the top target.
func (o *orchestration) tests(ctx context.Context) {
	seen := map[string]bool{}
	for _, t := range o.targets {
		out, a := o.call(ctx, "test", "sdl.symbol.getCard", t.name, map[string]any{"symbolId": t.id, "detail": "full"}, 0)
		if out == nil {
			continue
		}
		m, _ := out["metrics"].(map[string]any)
		test := str(m["canonicalTest"])
		if test == "" || seen[test] {
			a.Note = "no test covers it"
			continue
		}
		seen[test] = true
		file, name, _ := strings.Cut(test, "#")
		ev := Evidence{Type: "test", Reference: "file:" + file, File: file, Timestamp: time.Now().UTC().Format(time.RFC3339), rank: 300,
			Summary: fmt.Sprintf("%s is covered by %s (%v test references)", t.name, test, m["testRefs"])}
		if n, _ := m["testRefs"].(float64); n == 0 {
			ev.Summary = fmt.Sprintf("no test calls %s directly; the nearest test is %s", t.name, test)
		}
		if name != "" {
			if tc, _ := o.call(ctx, "test", "sdl.symbol.getCard", name, map[string]any{"symbolRef": map[string]any{"name": name, "file": file}, "detail": "compact"}, SpecRungTokens[RungCard]); tc != nil {
				ev.Reference, ev.SymbolID, ev.Lines, ev.Content = "symbol:"+str(tc["symbolId"]), str(tc["symbolId"]), lineSpan(tc), cardText(tc)
				o.used += query.Tokens(ev.Content) + rungOverhead
			}
		}
		o.add(ev)
	}
}

// diagnostics adds the parse problems of the files in the evidence.
func (o *orchestration) diagnostics(ctx context.Context) {
	var files []string
	seen := map[string]bool{}
	for _, e := range o.resp.FinalEvidence {
		if e.File != "" && !seen[e.File] {
			seen[e.File] = true
			files = append(files, e.File)
		}
	}
	for _, p := range o.req.Options.FocusPaths {
		if !seen[p] {
			files = append(files, p)
		}
	}
	a := ActionTaken{ID: fmt.Sprintf("a%d", len(o.resp.ActionsTaken)+1), Rung: "diagnostics", Tool: "index.diagnostics", Target: fmt.Sprintf("%d files", len(files))}
	if why := o.stop(0); why != "" {
		a.Status, a.Note = "skipped", why
		o.resp.ActionsTaken = append(o.resp.ActionsTaken, a)
		return
	}
	t0 := time.Now()
	x, release, err := o.r.live.index(ctx)
	var diags map[string][]query.Diagnostic
	if err == nil {
		diags, err = x.FileDiagnostics(ctx, files)
		release()
	}
	a.DurationMs = time.Since(t0).Milliseconds()
	if err != nil {
		a.Status, a.Error = "error", err.Error()
		o.resp.ActionsTaken = append(o.resp.ActionsTaken, a)
		return
	}
	a.Status = "ok"
	n := 0
	for _, f := range files {
		ds := diags[f]
		if len(ds) == 0 {
			continue
		}
		n++
		var parts []string
		for _, d := range ds[:min(5, len(ds))] {
			parts = append(parts, fmt.Sprintf("line %d:%d %s", d.Line, d.Col, d.Message))
		}
		o.add(Evidence{Type: "diagnostic", Reference: "file:" + f, File: f, Timestamp: time.Now().UTC().Format(time.RFC3339), rank: 10,
			Summary: fmt.Sprintf("%s does not parse cleanly (%d problems): %s", f, len(ds), strings.Join(parts, "; "))})
	}
	a.Note = fmt.Sprintf("%d of %d files have parse problems", n, len(files))
	a.Tokens = 0
	o.resp.ActionsTaken = append(o.resp.ActionsTaken, a)
}

func (o *orchestration) add(e Evidence) {
	if e.Timestamp == "" {
		e.Timestamp = time.Now().UTC().Format(time.RFC3339)
	}
	o.resp.FinalEvidence = append(o.resp.FinalEvidence, e)
}

// finish writes the answer, the summary, the next action and the metrics,
// and holds the report within budget.maxTokens.
func (o *orchestration) finish() {
	r := o.resp
	sort.SliceStable(r.FinalEvidence, func(i, j int) bool { return r.FinalEvidence[i].rank < r.FinalEvidence[j].rank })
	r.Success = len(r.FinalEvidence) > 0 && r.Error == ""
	if len(r.FinalEvidence) == 0 && r.Error == "" {
		r.Error = "no symbol of the index matches the task; try other words, or give focusSymbols or focusPaths"
	}
	r.Answer = o.answer()
	o.next()
	r.Warnings = o.warnings
	m := &r.Metrics
	for _, a := range r.ActionsTaken {
		switch a.Status {
		case "ok":
			m.SuccessfulActions++
			m.TotalActions++
		case "error":
			m.FailedActions++
			m.TotalActions++
		default:
			m.SkippedActions++
		}
		if a.CacheHit {
			m.CacheHits++
		}
		m.ToolTokens += a.Tokens
	}
	var rungs []string
	for _, x := range r.Path.Rungs {
		rungs = append(rungs, x)
	}
	files := map[string]bool{}
	for _, e := range r.FinalEvidence {
		if e.File != "" {
			files[e.File] = true
		}
	}
	r.Summary = fmt.Sprintf("%s task: path %s; %d actions (%d ok, %d failed, %d skipped, %d from cache); %d evidence items from %d files",
		r.TaskType, strings.Join(rungs, " -> "), m.TotalActions+m.SkippedActions, m.SuccessfulActions, m.FailedActions, m.SkippedActions,
		m.CacheHits, len(r.FinalEvidence), len(files))
	if len(r.Path.Trimmed) > 0 {
		r.Summary += fmt.Sprintf("; trimmed %s (%s)", strings.Join(r.Path.Trimmed, ", "), r.Path.TrimReason)
	}
	o.fit()
}

// fit holds the report within maxTokens: evidence content goes first,
// from the least important, then evidence items, then action notes.
func (o *orchestration) fit() {
	r := o.resp
	measure := func() int {
		r.Metrics.TotalDurationMs = time.Since(o.start).Milliseconds()
		n := query.Tokens(string(query.EncodeJSON(r)))
		// the count is part of the report: two passes settle it
		r.Metrics.TotalTokens = n
		return query.Tokens(string(query.EncodeJSON(r)))
	}
	n := measure()
	for i := len(r.FinalEvidence) - 1; n > o.maxTok && i >= 0; i-- {
		if r.FinalEvidence[i].Content != "" {
			r.FinalEvidence[i].Content = ""
			n = measure()
		}
	}
	for n > o.maxTok && len(r.FinalEvidence) > 1 {
		r.FinalEvidence = r.FinalEvidence[:len(r.FinalEvidence)-1]
		n = measure()
	}
	for i := range r.ActionsTaken {
		if n <= o.maxTok {
			break
		}
		r.ActionsTaken[i].Note, r.ActionsTaken[i].Error = "", truncate(r.ActionsTaken[i].Error, 80)
		n = measure()
	}
	if n > o.maxTok {
		r.Answer = truncate(r.Answer, max(80, len(r.Answer)-4*(n-o.maxTok)))
		n = measure()
	}
	r.Metrics.TotalTokens = n
}

// answer writes an extractive answer from the evidence: which symbols,
// where, and why they matter for the task.
func (o *orchestration) answer() string {
	r := o.resp
	if len(o.cards) == 0 {
		return "No evidence: " + r.Error
	}
	var b strings.Builder
	top := o.cards[0]
	if len(o.targets) > 0 && r.TaskType != "explain" {
		// lead with the code the rungs looked into
		top = o.targets[0].card
	}
	lead := map[string]string{
		"debug":     "Start the investigation at",
		"review":    "The change centres on",
		"implement": "The change belongs in or next to",
		"explain":   "The task is about",
	}[r.TaskType]
	fmt.Fprintf(&b, "%s %s (%s in %s:%s)", lead, displayName(top), str(top["kind"]), str(top["file"]), lineSpan(top))
	if s := str(top["summary"]); s != "" {
		fmt.Fprintf(&b, ": %s", strings.TrimSuffix(s, "."))
	}
	b.WriteString(".")
	if inv := asStrings(top["invariants"]); len(inv) > 0 && (r.TaskType == "debug" || r.TaskType == "review") {
		fmt.Fprintf(&b, " It guards: %s.", strings.Join(inv[:min(3, len(inv))], "; "))
	}
	if calls := depLabels(top, "calls"); len(calls) > 0 {
		fmt.Fprintf(&b, " It calls %s.", strings.Join(calls[:min(4, len(calls))], ", "))
	}
	if callers := o.callersOf(str(top["symbolId"])); len(callers) > 0 {
		fmt.Fprintf(&b, " Called by %s.", strings.Join(callers[:min(4, len(callers))], ", "))
	}
	for _, e := range r.FinalEvidence {
		if e.Type == "hotPath" {
			fmt.Fprintf(&b, " In the code, %s.", e.Summary)
			if l := firstMatchLine(e.Content, o.targetIdents(e.SymbolID)); l != "" {
				fmt.Fprintf(&b, " For example: `%s`.", l)
			}
			break
		}
	}
	var rel []string
	for _, c := range o.cards {
		if len(rel) == 4 {
			break
		}
		if c["symbolId"] != top["symbolId"] {
			rel = append(rel, fmt.Sprintf("%s (%s)", displayName(c), str(c["file"])))
		}
	}
	if len(rel) > 0 {
		fmt.Fprintf(&b, " Also relevant: %s.", strings.Join(rel, ", "))
	}
	for _, e := range r.FinalEvidence {
		switch e.Type {
		case "test":
			fmt.Fprintf(&b, " Tests: %s.", e.Summary)
		case "diagnostic":
			fmt.Fprintf(&b, " Note: %s.", e.Summary)
		case "windowDenied":
			fmt.Fprintf(&b, " %s.", e.Summary)
		}
	}
	return b.String()
}

func (o *orchestration) targetIdents(id string) []string {
	for _, t := range o.targets {
		if t.id == id {
			return t.idents
		}
	}
	return nil
}

func (o *orchestration) callersOf(id string) []string {
	var out []string
	for _, e := range o.edges {
		if str(e["to"]) == id || str(e["dst"]) == id {
			for _, c := range o.cards {
				if str(c["symbolId"]) == str(e["from"]) || str(c["symbolId"]) == str(e["src"]) {
					out = append(out, displayName(c))
				}
			}
		}
	}
	return out
}

// next names the next call: the first rung that was trimmed or skipped,
// for the top symbol.
func (o *orchestration) next() {
	r := o.resp
	if len(o.targets) == 0 {
		if len(o.cards) == 0 {
			r.NextBestAction = "sdl_symbol_search with other words from the task, then give focusSymbols"
			r.NextCall = &NextCall{Tool: "sdl_symbol_search", Args: map[string]any{"query": strings.Join(o.terms, " ")}, Why: "nothing matched the task"}
			return
		}
		c := o.cards[0]
		r.NextCall = &NextCall{Tool: "sdl_symbol_get_card", Args: map[string]any{"symbolId": str(c["symbolId"])}, Why: "the full card of the top symbol, with its callers"}
	} else {
		t := o.targets[0]
		done := map[string]bool{}
		for _, a := range r.ActionsTaken {
			if a.Target == t.name && a.Status == "ok" {
				done[a.Rung] = true
			}
		}
		if t.whole {
			done[RungHotPath], done[RungRaw] = true, true
		}
		for _, rung := range []string{RungSkeleton, RungHotPath, RungRaw} {
			if done[rung] {
				continue
			}
			switch rung {
			case RungSkeleton:
				r.NextCall = &NextCall{Tool: "sdl_code_get_skeleton", Args: map[string]any{"symbolId": t.id}, Why: "its control flow, not yet seen"}
			case RungHotPath:
				ids := t.idents
				if len(ids) == 0 && t.code != nil {
					ids = t.code.Identifiers[:min(3, len(t.code.Identifiers))]
				}
				if len(ids) == 0 {
					continue
				}
				r.NextCall = &NextCall{Tool: "sdl_code_get_hot_path", Args: map[string]any{"symbolId": t.id, "identifiersToFind": ids}, Why: "the lines that use these names"}
			case RungRaw:
				r.NextCall = &NextCall{Tool: "sdl_code_need_window", Args: map[string]any{"symbolId": t.id, "reason": truncate(o.req.TaskText, 200),
					"expectedLines": t.code.Lines, "identifiersToFind": t.idents}, Why: "the raw code, if the skeleton and hot path were not enough"}
			}
			break
		}
		if r.NextCall == nil {
			r.NextCall = &NextCall{Tool: "sdl_slice_build", Args: map[string]any{"taskText": o.req.TaskText, "entrySymbols": []string{t.id}},
				Why: "every rung of the top symbol is in the evidence; widen to its neighbours"}
		}
	}
	js, _ := json.Marshal(r.NextCall.Args)
	r.NextBestAction = fmt.Sprintf("%s %s: %s", r.NextCall.Tool, js, r.NextCall.Why)
}

// cachedCall answers a read-only tool call from the server's cache when
// the same call was answered for the same version of the index and
// buffers.
func (s *Server) cachedCall(ctx context.Context, r *Repo, tool string, args map[string]any) (json.RawMessage, bool, error) {
	t, err := s.reg.Lookup(tool)
	if err != nil {
		return nil, false, err
	}
	raw := query.EncodeJSON(args)
	if !t.ReadOnly {
		out, err := s.Call(ctx, tool, raw)
		return out, false, err
	}
	key := ""
	if x, err := r.Index(); err == nil {
		if v, err := x.Current(ctx); err == nil {
			seq, _ := r.live.active()
			key = fmt.Sprintf("%s\x00%s\x00%d\x00%s\x00%s", r.ID, v.Hash, seq, t.Name, raw)
		}
	}
	if key != "" {
		if out, ok := s.cache.get(key); ok {
			return out, true, nil
		}
	}
	out, err := s.Call(ctx, tool, raw)
	if err == nil && key != "" {
		s.cache.put(key, out)
	}
	return out, false, err
}

// taskTerms are the words of a task worth matching against identifiers.
func taskTerms(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`).FindAllString(text, -1) {
		lw := strings.ToLower(w)
		if len(lw) < 3 || orchestrateStop[lw] || seen[lw] {
			continue
		}
		seen[lw] = true
		out = append(out, w)
	}
	return out
}

var orchestrateStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the and for with that this from into when where which what why how are was were
		has have had not but can could should would will does did its it's fix bug issue find root cause add make
		use using used get set new code function method class file files error errors fail fails failing failed
		wrong broken crash crashes test tests after before there their then than also only some any all each
		work works working implement explain review debug change changes update`) {
		orchestrateStop[w] = true
	}
}

// pickIdentifiers chooses up to 6 identifiers of the code that match the
// task's words: the whole name, or one of its parts, or a stem of one.
func pickIdentifiers(idents, terms []string, own string) []string {
	type scored struct {
		id    string
		score int
		order int
	}
	var cands []scored
	for i, id := range idents {
		if id == own || strings.HasSuffix(own, "."+id) {
			continue
		}
		lid := strings.ToLower(id)
		parts := lang.SplitIdent(id)
		s := 0
		for _, t := range terms {
			lt := strings.ToLower(t)
			switch {
			case lid == lt:
				s += 4
			case len(lt) >= 4 && strings.Contains(lid, lt):
				s += 2
			default:
				for _, p := range parts {
					lp := strings.ToLower(p)
					if len(lp) >= 3 && (stem(lp) == stem(lt) || len(lt) >= 5 && strings.HasPrefix(lp, lt[:len(lt)-1])) {
						s++
						break
					}
				}
			}
		}
		if s > 0 {
			cands = append(cands, scored{id, s, i})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	var out []string
	for _, c := range cands[:min(6, len(cands))] {
		out = append(out, c.id)
	}
	return out
}

func firstMatchLine(excerpt string, idents []string) string {
	for _, l := range strings.Split(excerpt, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "⋮") {
			continue
		}
		for _, id := range idents {
			if strings.Contains(t, id) {
				return truncate(t, 160)
			}
		}
	}
	return ""
}

func isSymbolID(s string) bool {
	if len(s) != 16 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

func underAny(file string, prefixes []string) bool {
	for _, p := range prefixes {
		p = strings.TrimSuffix(p, "/")
		if file == p || strings.HasPrefix(file, p+"/") {
			return true
		}
	}
	return false
}

func displayName(c map[string]any) string {
	if q := str(c["qualifiedName"]); q != "" {
		return q
	}
	if ct := str(c["container"]); ct != "" {
		return ct + "." + str(c["name"])
	}
	return str(c["name"])
}

func lineSpan(c map[string]any) string {
	rg, _ := c["range"].(map[string]any)
	if rg == nil {
		return ""
	}
	return fmt.Sprintf("%v-%v", rg["startLine"], rg["endLine"])
}

// cardLine is a card in one line.
func cardLine(c map[string]any) string {
	s := fmt.Sprintf("%s (%s, %s:%s)", displayName(c), str(c["kind"]), str(c["file"]), lineSpan(c))
	if sum := str(c["summary"]); sum != "" {
		s += ": " + sum
	}
	return s
}

// cardText is the part of a compact card an agent reads: signature,
// invariants, side effects, calls.
func cardText(c map[string]any) string {
	var parts []string
	if sig, _ := c["signature"].(map[string]any); sig != nil && str(sig["text"]) != "" {
		parts = append(parts, str(sig["text"]))
	}
	if inv := asStrings(c["invariants"]); len(inv) > 0 {
		parts = append(parts, "invariants: "+strings.Join(inv, "; "))
	}
	if se := asStrings(c["sideEffects"]); len(se) > 0 {
		parts = append(parts, "side effects: "+strings.Join(se, "; "))
	}
	if calls := depLabels(c, "calls"); len(calls) > 0 {
		parts = append(parts, "calls: "+strings.Join(calls, ", "))
	}
	return strings.Join(parts, "\n")
}

func depLabels(c map[string]any, key string) []string {
	d, _ := c["deps"].(map[string]any)
	var out []string
	for _, x := range asList(d[key]) {
		if m, _ := x.(map[string]any); m != nil && str(m["label"]) != "" {
			out = append(out, str(m["label"]))
		}
	}
	return out
}

func asStrings(v any) []string {
	var out []string
	for _, x := range asList(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
