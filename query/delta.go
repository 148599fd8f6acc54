package query

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// A delta compares the views of two ledger versions. Rows of the
// versioned tables are valid for [from_seq, to_seq), so the rows of
// version a that version b lacks are, when a < b, those valid at a and
// closed in (a, b]; when a > b, those born in (b, a] and still valid at
// a. Symbols pair by id: the same id in both with another fingerprint,
// signature, facts, visibility or doc is modified; the same id whose only
// change is its position is "relocated" and only counted (a line shift is
// not a change a reviewer acts on). A removed id and an added id with the
// same kind and fingerprint (the fingerprint leaves out the name and the
// comments) are one symbol renamed or moved: when several share that
// fingerprint, only a pair with the same name counts. Failing that, a
// removed and an added symbol of the same kind, file, container and
// signature shape, each the only one of its side, are paired too (renamed
// and edited at once). Edges compare by what they say (source, kind,
// referenced name and qualifier, target), with renamed ids mapped to
// their new ids, so a call that only moved lines is not reported.

// DeltaRequest is sdl.delta.get.
type DeltaRequest struct {
	FromVersion string       `json:"fromVersion"`
	ToVersion   string       `json:"toVersion"`
	Budget      *SliceBudget `json:"budget,omitempty"`
	// Cursor continues a delta cut by its budget (truncation.nextCursor).
	Cursor string `json:"cursor,omitempty"`
	// MaxDepth bounds the blast radius, in edges (default 4).
	MaxDepth int `json:"maxDepth,omitempty"`
}

// Delta defaults and limits.
const (
	DefaultDeltaCards  = 50
	DefaultDeltaTokens = 6000
	DefaultRadiusDepth = 4
	maxRadiusDepth     = 8
	MinDeltaTokens     = 300
	// radiusShown is how many dependents a change lists; the total is
	// always given.
	radiusShown = 5
	// reachLimit bounds the rows the radius query generates.
	reachLimit    = 200000
	maxAmplifiers = 10
)

// DeltaResponse is a delta pack and the symbols whose fan-in grew.
type DeltaResponse struct {
	Delta      *DeltaPack  `json:"delta"`
	Amplifiers []Amplifier `json:"amplifiers"`
}

// DeltaPack is what changed between two versions.
type DeltaPack struct {
	FromVersion     string           `json:"fromVersion"`
	ToVersion       string           `json:"toVersion"`
	FromCommit      string           `json:"fromCommit,omitempty"`
	ToCommit        string           `json:"toCommit,omitempty"`
	Summary         DeltaSummary     `json:"summary"`
	Changes         []*SymbolChange  `json:"changes"`
	EdgeChanges     []EdgeChange     `json:"edgeChanges"`
	Truncation      *DeltaTruncation `json:"truncation,omitempty"`
	EstimatedTokens int              `json:"estimatedTokens,omitempty"`
}

// DeltaSummary counts the changes.
type DeltaSummary struct {
	FilesAdded        int `json:"filesAdded"`
	FilesChanged      int `json:"filesChanged"`
	FilesRemoved      int `json:"filesRemoved"`
	SymbolsAdded      int `json:"symbolsAdded"`
	SymbolsRemoved    int `json:"symbolsRemoved"`
	SymbolsModified   int `json:"symbolsModified"`
	SymbolsRenamed    int `json:"symbolsRenamed"`
	SymbolsRelocated  int `json:"symbolsRelocated"`
	EdgesAdded        int `json:"edgesAdded"`
	EdgesRemoved      int `json:"edgesRemoved"`
	UnresolvedAdded   int `json:"unresolvedAdded,omitempty"`
	UnresolvedRemoved int `json:"unresolvedRemoved,omitempty"`
	// BlastRadius counts the distinct symbols, tests aside, that depend
	// on a change; TestsReaching the tests that do.
	BlastRadius   int `json:"blastRadius"`
	TestsReaching int `json:"testsReaching"`
}

// Change kinds.
const (
	ChangeAdded    = "added"
	ChangeRemoved  = "removed"
	ChangeModified = "modified"
	ChangeRenamed  = "renamed" // a new name, maybe in another file too
	ChangeMoved    = "moved"   // the same name in another file or container
)

// SymbolChange is one changed symbol.
type SymbolChange struct {
	Change   string `json:"change"`
	SymbolID string `json:"symbolId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Exported bool   `json:"exported,omitempty"`
	IsTest   bool   `json:"isTest,omitempty"`
	// Previous is where a renamed or moved symbol was.
	Previous *SymbolPlace `json:"previous,omitempty"`
	PairedBy string       `json:"pairedBy,omitempty"` // fingerprint or signature
	// Aspects says what changed: body, signature, invariants,
	// sideEffects, visibility, doc.
	Aspects        []string       `json:"aspects,omitempty"`
	SignatureDiff  *SignatureDiff `json:"signatureDiff,omitempty"`
	InvariantDiff  *FactDiff      `json:"invariantDiff,omitempty"`
	SideEffectDiff *FactDiff      `json:"sideEffectDiff,omitempty"`
	FanIn          *FanInChange   `json:"fanIn,omitempty"`
	BlastRadius    *BlastRadius   `json:"blastRadius,omitempty"`

	before, after *symAt
	radius        []Dependent // all of it, ranked
	dangling      int         // callers whose reference no longer resolves
	// membersOnly marks a container whose fingerprint changed with the
	// set of its members, which are changes of their own
	membersOnly bool
}

// SymbolPlace names a symbol at the other version.
type SymbolPlace struct {
	SymbolID string `json:"symbolId"`
	Name     string `json:"name"`
	File     string `json:"file"`
	Line     int    `json:"line"`
}

// SignatureDiff compares two signatures.
type SignatureDiff struct {
	Before        string   `json:"before"`
	After         string   `json:"after"`
	ParamsAdded   []string `json:"paramsAdded,omitempty"`
	ParamsRemoved []string `json:"paramsRemoved,omitempty"`
	ParamsChanged []string `json:"paramsChanged,omitempty"`
	ReturnsBefore string   `json:"returnsBefore,omitempty"`
	ReturnsAfter  string   `json:"returnsAfter,omitempty"`
	// MembersAdded and MembersRemoved are the fields and constants a
	// type's signature gained and lost: its text (enum Level: int) may
	// not change when they do.
	MembersAdded   []string `json:"membersAdded,omitempty"`
	MembersRemoved []string `json:"membersRemoved,omitempty"`
	// Breaking says a caller written for the old signature may no longer
	// compile or work; Reasons say why.
	Breaking bool     `json:"breaking"`
	Reasons  []string `json:"reasons,omitempty"`
}

// FactDiff lists the invariants or side effects that appeared and went.
type FactDiff struct {
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
}

// FanInChange is a symbol's fan-in (distinct callers) at both versions.
type FanInChange struct {
	Before int `json:"before"`
	After  int `json:"after"`
}

// BlastRadius is what depends on a changed symbol.
type BlastRadius struct {
	Total int `json:"total"`
	// Tests counts the tests among the dependents.
	Tests      int         `json:"tests"`
	ByDistance []int       `json:"byDistance"` // dependents at distance 1, 2, ...
	Dependents []Dependent `json:"dependents"`
	Truncated  bool        `json:"truncated,omitempty"`
}

// Dependent is a symbol that reaches a changed one over incoming edges
// (calls, instantiations, imports, implements, extends). Score ranks
// dependents: 1/distance + 0.15·ln(1+fanIn) + 0.2·testProximity +
// 0.05·min(processes, 4), where testProximity is 1 for a test, 0.5 for a
// symbol a test calls directly, else 0, and processes counts the call
// chains from entry points it is part of. Near, much-used, tested and
// process-critical dependents come first: that is where a change shows.
type Dependent struct {
	SymbolID  string  `json:"symbolId"`
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	File      string  `json:"file"`
	Distance  int     `json:"distance"`
	FanIn     int     `json:"fanIn"`
	IsTest    bool    `json:"isTest,omitempty"`
	Processes int     `json:"processes,omitempty"`
	Changed   bool    `json:"changed,omitempty"` // itself part of the delta
	Score     float64 `json:"score"`
}

// EdgeChange is a resolved edge that appeared or went.
type EdgeChange struct {
	Change   string `json:"change"` // added or removed
	From     string `json:"from"`
	FromName string `json:"fromName"`
	To       string `json:"to"`
	ToName   string `json:"toName"`
	Kind     string `json:"kind"`
	File     string `json:"file"`
	Line     int    `json:"line"`
}

// Amplifier is a symbol whose fan-in grew quickly: every new dependent
// widens the blast radius of its next change. GrowthRate is
// (current - previous) / max(previous, 1).
type Amplifier struct {
	SymbolID   string  `json:"symbolId"`
	Name       string  `json:"name"`
	File       string  `json:"file"`
	GrowthRate float64 `json:"growthRate"`
	Previous   int     `json:"previous"`
	Current    int     `json:"current"`
}

// DeltaTruncation says what a page left out.
type DeltaTruncation struct {
	Truncated  bool   `json:"truncated"`
	Returned   int    `json:"returned"`
	Total      int    `json:"total"`
	NextCursor string `json:"nextCursor,omitempty"`
	Reason     string `json:"reason"`
}

// symAt is a symbol row as of one version.
type symAt struct {
	ID, Path, Kind, Name, Qualified, Container, ParentID string
	StartLine, EndLine                                   int
	Exported                                             bool
	Visibility, Signature, Doc                           string
	Invariants, SideEffects, Fingerprint                 string
	IsTest                                               bool
}

const symAtColumns = `s.id, p.path, s.kind, s.name, s.qualified, s.container, s.parent_id, s.start_line, s.end_line,
	s.exported, s.visibility, s.signature, s.doc, s.invariants, s.side_effects, s.fingerprint, s.is_test`

func scanSymAt(rows interface{ Scan(...any) error }) (*symAt, error) {
	var s symAt
	var exp, test int
	err := rows.Scan(&s.ID, &s.Path, &s.Kind, &s.Name, &s.Qualified, &s.Container, &s.ParentID, &s.StartLine, &s.EndLine,
		&exp, &s.Visibility, &s.Signature, &s.Doc, &s.Invariants, &s.SideEffects, &s.Fingerprint, &test)
	s.Exported, s.IsTest = exp != 0, test != 0
	return &s, err
}

// onlyIn is the condition, on a versioned table aliased t, for rows of
// version a's view that version b's view lacks, and its arguments.
func onlyIn(t string, a, b int64) (string, []any) {
	if a < b {
		return fmt.Sprintf("%[1]s.to_seq > ? AND %[1]s.to_seq <= ? AND %[1]s.from_seq <= ?", t), []any{a, b, a}
	}
	// b >= 1, so "from_seq > 1" adds nothing but lets SQLite use the
	// partial index on rows born after the first build
	return fmt.Sprintf("%[1]s.from_seq > 1 AND %[1]s.from_seq > ? AND %[1]s.from_seq <= ? AND (%[1]s.to_seq IS NULL OR %[1]s.to_seq > ?)", t), []any{b, a, a}
}

// validAt is the condition for rows of version v's view.
func validAt(t string, v int64) string {
	return fmt.Sprintf("%[1]s.from_seq <= %[2]d AND (%[1]s.to_seq IS NULL OR %[1]s.to_seq > %[2]d)", t, v)
}

// deltaSet is a whole delta, before paging.
type deltaSet struct {
	from, to   Version
	summary    DeltaSummary
	changes    []*SymbolChange
	edges      []EdgeChange
	amplifiers []Amplifier
	// radius holds every dependent of any change that is neither a test
	// nor changed itself, ranked.
	radius []Dependent
	// tests maps a test's id to what it reaches.
	tests     map[string]*RecommendedTest
	truncated bool // the radius query hit its limit
	depth     int
}

// deltaOptions restrict a delta.
type deltaOptions struct {
	depth int
	// scope, when set, keeps only changes with an id (at either version)
	// in it and edges with an end in it.
	scope map[string]bool
}

// computeDelta compares versions from and to.
func (x *Index) computeDelta(ctx context.Context, from, to Version, opts deltaOptions) (*deltaSet, error) {
	if opts.depth <= 0 {
		opts.depth = DefaultRadiusDepth
	}
	d := &deltaSet{from: from, to: to, depth: opts.depth, tests: map[string]*RecommendedTest{}}
	if from.Seq == to.Seq {
		return d, nil
	}
	before, err := x.symbolsOnlyIn(ctx, from.Seq, to.Seq)
	if err != nil {
		return nil, err
	}
	after, err := x.symbolsOnlyIn(ctx, to.Seq, from.Seq)
	if err != nil {
		return nil, err
	}
	renamed := d.pairSymbols(before, after)
	markMembersOnly(d.changes)
	if err := x.diffEdges(ctx, d, renamed, opts.scope); err != nil {
		return nil, err
	}
	if opts.scope != nil {
		// the scope, and its neighbours that came and went: removed or
		// renamed symbols at the other end of its removed edges, added
		// ones at the other end of its added edges (a new caller)
		lost, gained := map[string]bool{}, map[string]bool{}
		for _, e := range d.edges {
			if e.Change == ChangeRemoved {
				lost[e.From], lost[e.To] = true, true
			} else {
				gained[e.From], gained[e.To] = true, true
			}
		}
		var kept []*SymbolChange
		for _, c := range d.changes {
			in := (c.before != nil && opts.scope[c.before.ID]) || (c.after != nil && opts.scope[c.after.ID])
			if in || c.before != nil && c.Change != ChangeModified && lost[c.before.ID] ||
				c.Change == ChangeAdded && gained[c.after.ID] {
				kept = append(kept, c)
			}
		}
		d.changes = kept
	}
	if opts.scope == nil { // a scoped delta does not count the repository's files
		if err := x.diffFiles(ctx, d); err != nil {
			return nil, err
		}
	}
	if err := x.blastRadius(ctx, d); err != nil {
		return nil, err
	}
	if err := x.amplify(ctx, d, renamed); err != nil {
		return nil, err
	}
	d.count()
	sortChanges(d.changes)
	return d, nil
}

// SymbolCounts counts the symbols that changed from version seq from to
// version seq to, a rename or a move paired into one as Delta pairs it:
// what sdl index reports of the version it wrote, so the two agree.
func (x *Index) SymbolCounts(ctx context.Context, from, to int64) (DeltaSummary, error) {
	d := &deltaSet{}
	if from == to {
		return d.summary, nil
	}
	before, err := x.symbolsOnlyIn(ctx, from, to)
	if err != nil {
		return d.summary, err
	}
	after, err := x.symbolsOnlyIn(ctx, to, from)
	if err != nil {
		return d.summary, err
	}
	d.pairSymbols(before, after)
	d.count()
	return d.summary, nil
}

// symbolsOnlyIn loads the symbols of version a's view that b's lacks, by id.
func (x *Index) symbolsOnlyIn(ctx context.Context, a, b int64) (map[string]*symAt, error) {
	cond, args := onlyIn("s", a, b)
	rows, err := x.DB.QueryContext(ctx, `SELECT `+symAtColumns+` FROM symbols s JOIN paths p ON p.id = s.path_id WHERE `+cond, args...)
	if err != nil {
		return nil, fmt.Errorf("delta symbols: %w", err)
	}
	defer rows.Close()
	out := map[string]*symAt{}
	for rows.Next() {
		s, err := scanSymAt(rows)
		if err != nil {
			return nil, err
		}
		out[s.ID] = s
	}
	return out, rows.Err()
}

// pairSymbols turns the rows only in one view into changes and returns
// the renames, old id -> new id.
func (d *deltaSet) pairSymbols(before, after map[string]*symAt) map[string]string {
	var removed, added []*symAt
	for id, b := range before {
		a := after[id]
		if a == nil {
			removed = append(removed, b)
			continue
		}
		c := compareSymbols(b, a)
		if c == nil {
			d.summary.SymbolsRelocated++
			continue
		}
		c.Change = ChangeModified
		d.changes = append(d.changes, c)
	}
	for id, a := range after {
		if before[id] == nil {
			added = append(added, a)
		}
	}
	bySymbol := func(s []*symAt) {
		sort.Slice(s, func(i, j int) bool {
			if s[i].Path != s[j].Path {
				return s[i].Path < s[j].Path
			}
			if s[i].StartLine != s[j].StartLine {
				return s[i].StartLine < s[j].StartLine
			}
			return s[i].ID < s[j].ID
		})
	}
	bySymbol(removed)
	bySymbol(added)

	renamed := map[string]string{}
	taken := map[string]bool{}
	pair := func(b, a *symAt, by string) {
		c := compareSymbols(b, a)
		if c == nil {
			c = &SymbolChange{before: b, after: a}
		}
		c.Change = ChangeRenamed
		if b.Name == a.Name {
			c.Change = ChangeMoved
		}
		c.PairedBy = by
		c.Previous = &SymbolPlace{SymbolID: b.ID, Name: displayName(b), File: b.Path, Line: b.StartLine}
		c.fill(a)
		d.changes = append(d.changes, c)
		renamed[b.ID] = a.ID
		taken[b.ID], taken[a.ID] = true, true
	}
	// by fingerprint
	fpKey := func(s *symAt) string { return s.Kind + "\x00" + s.Fingerprint }
	addedBy := map[string][]*symAt{}
	removedBy := map[string]int{}
	for _, a := range added {
		addedBy[fpKey(a)] = append(addedBy[fpKey(a)], a)
	}
	for _, b := range removed {
		removedBy[fpKey(b)]++
	}
	for _, b := range removed {
		cands := addedBy[fpKey(b)]
		unique := len(cands) == 1 && removedBy[fpKey(b)] == 1
		var best *symAt
		for _, a := range cands {
			if taken[a.ID] {
				continue
			}
			if a.Name == b.Name {
				best = a
				break
			}
			if unique {
				best = a
			}
		}
		if best != nil {
			pair(b, best, "fingerprint")
		}
	}
	// by signature shape, within a file and container
	shapeKey := func(s *symAt) string {
		shape := signatureShape(s.Signature)
		if shape == "" {
			return ""
		}
		return s.Kind + "\x00" + s.Path + "\x00" + s.Container + "\x00" + shape
	}
	addedShape := map[string][]*symAt{}
	removedShape := map[string][]*symAt{}
	for _, a := range added {
		if k := shapeKey(a); k != "" && !taken[a.ID] {
			addedShape[k] = append(addedShape[k], a)
		}
	}
	for _, b := range removed {
		if k := shapeKey(b); k != "" && !taken[b.ID] {
			removedShape[k] = append(removedShape[k], b)
		}
	}
	for _, b := range removed {
		k := shapeKey(b)
		if k == "" || taken[b.ID] || len(removedShape[k]) != 1 || len(addedShape[k]) != 1 {
			continue
		}
		pair(b, addedShape[k][0], "signature")
	}
	for _, b := range removed {
		if !taken[b.ID] {
			c := &SymbolChange{Change: ChangeRemoved, before: b}
			c.fill(b)
			d.changes = append(d.changes, c)
		}
	}
	for _, a := range added {
		if !taken[a.ID] {
			c := &SymbolChange{Change: ChangeAdded, after: a}
			c.fill(a)
			d.changes = append(d.changes, c)
		}
	}
	return renamed
}

// displayName is a symbol's qualified name; a module's is its file, as
// its name is its package's, which all the package's files share.
func displayName(s *symAt) string {
	if s.Kind == lang.KindModule {
		return s.Path
	}
	return s.Qualified
}

// semantic reports whether a change can change behaviour: anything but
// a modification of documentation alone, or of a container whose only
// change is which members it has (those are changes of their own).
func semantic(c *SymbolChange) bool {
	return c.Change != ChangeModified || !onlyDoc(c.Aspects) && !c.membersOnly
}

// markMembersOnly finds the modified containers whose body changed only
// as far as their members did: adding a method to a class is a change of
// the method, not of everything that uses the class.
func markMembersOnly(cs []*SymbolChange) {
	parents := map[string]bool{}
	for _, c := range cs {
		if c.before != nil && c.before.ParentID != "" {
			parents[c.before.ParentID] = true
		}
		if c.after != nil && c.after.ParentID != "" {
			parents[c.after.ParentID] = true
		}
	}
	for _, c := range cs {
		if c.Change != ChangeModified || !parents[c.SymbolID] {
			continue
		}
		only := true
		for _, a := range c.Aspects {
			if a != "body" && a != "doc" {
				only = false
			}
		}
		c.membersOnly = only
	}
}

func onlyDoc(aspects []string) bool {
	for _, a := range aspects {
		if a != "doc" {
			return false
		}
	}
	return true
}

// fill sets the change's identity from the symbol as it is now (as it was
// for a removed one).
func (c *SymbolChange) fill(s *symAt) {
	c.SymbolID, c.Name, c.Kind, c.File, c.Line = s.ID, displayName(s), s.Kind, s.Path, s.StartLine
	c.Exported, c.IsTest = s.Exported, s.IsTest
}

// compareSymbols describes how a symbol changed between two rows, or
// returns nil when only its position did.
func compareSymbols(b, a *symAt) *SymbolChange {
	c := &SymbolChange{before: b, after: a}
	c.fill(a)
	if b.Fingerprint != a.Fingerprint {
		c.Aspects = append(c.Aspects, "body")
	}
	if b.Signature != a.Signature {
		c.SignatureDiff = diffSignatures(b.Signature, a.Signature, b.Name, a.Name)
		if c.SignatureDiff != nil {
			c.Aspects = append(c.Aspects, "signature")
		}
	}
	if fd := diffFacts(b.Invariants, a.Invariants); fd != nil {
		c.InvariantDiff = fd
		c.Aspects = append(c.Aspects, "invariants")
	}
	if fd := diffFacts(b.SideEffects, a.SideEffects); fd != nil {
		c.SideEffectDiff = fd
		c.Aspects = append(c.Aspects, "sideEffects")
	}
	if b.Exported != a.Exported || b.Visibility != a.Visibility {
		c.Aspects = append(c.Aspects, "visibility")
	}
	if b.Doc != a.Doc {
		c.Aspects = append(c.Aspects, "doc")
	}
	if len(c.Aspects) == 0 {
		return nil
	}
	return c
}

func parseSignature(js string) lang.Signature {
	var s lang.Signature
	if js != "" {
		json.Unmarshal([]byte(js), &s)
	}
	return s
}

// signatureShape is what a signature says to a caller, without names:
// the parameter types, the receiver and the returns.
func signatureShape(js string) string {
	s := parseSignature(js)
	if len(s.Params) == 0 && s.Returns == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(s.Receiver)
	b.WriteByte('(')
	for i, p := range s.Params {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p.Type)
		if p.Variadic {
			b.WriteString("...")
		}
	}
	b.WriteByte(')')
	b.WriteString(s.Returns)
	return b.String()
}

func paramText(p lang.Param) string {
	t := strings.TrimSpace(p.Name + " " + p.Type)
	if p.Variadic && !strings.Contains(t, "...") {
		t = "..." + t
	}
	if p.Default != "" {
		t += " = " + p.Default
	}
	return t
}

// diffSignatures compares signatures parameter by parameter. Parameters
// are matched by position, as most callers pass them. A change breaks
// callers when a parameter is removed, a required one is added, a type,
// the receiver, the generics or the returns change, or a member of a type
// goes; a renamed parameter or a new optional one does not.
func diffSignatures(bjs, ajs, bName, aName string) *SignatureDiff {
	b, a := parseSignature(bjs), parseSignature(ajs)
	sd := &SignatureDiff{Before: b.Text, After: a.Text}
	n := min(len(b.Params), len(a.Params))
	for i := 0; i < n; i++ {
		bp, ap := b.Params[i], a.Params[i]
		if bp.Type != ap.Type || bp.Variadic != ap.Variadic {
			sd.ParamsChanged = append(sd.ParamsChanged, fmt.Sprintf("%s -> %s", paramText(bp), paramText(ap)))
			sd.Reasons = append(sd.Reasons, fmt.Sprintf("parameter %d changed type", i+1))
		} else if bp.Name != ap.Name || bp.Default != ap.Default || bp.Optional != ap.Optional {
			sd.ParamsChanged = append(sd.ParamsChanged, fmt.Sprintf("%s -> %s", paramText(bp), paramText(ap)))
			if bp.Optional && !ap.Optional || bp.Default != "" && ap.Default == "" {
				sd.Reasons = append(sd.Reasons, fmt.Sprintf("parameter %s became required", ap.Name))
			}
		}
	}
	for _, p := range b.Params[n:] {
		sd.ParamsRemoved = append(sd.ParamsRemoved, paramText(p))
		sd.Reasons = append(sd.Reasons, "parameter "+strings.TrimSpace(p.Name+" "+p.Type)+" removed")
	}
	for _, p := range a.Params[n:] {
		sd.ParamsAdded = append(sd.ParamsAdded, paramText(p))
		if !p.Optional && !p.Variadic && p.Default == "" {
			sd.Reasons = append(sd.Reasons, "required parameter "+strings.TrimSpace(p.Name+" "+p.Type)+" added")
		}
	}
	if b.Returns != a.Returns {
		sd.ReturnsBefore, sd.ReturnsAfter = b.Returns, a.Returns
		sd.Reasons = append(sd.Reasons, "returns changed")
	}
	if b.Receiver != a.Receiver {
		sd.Reasons = append(sd.Reasons, "receiver changed")
	}
	if strings.Join(b.Generics, ",") != strings.Join(a.Generics, ",") {
		sd.Reasons = append(sd.Reasons, "type parameters changed")
	}
	had, have := map[string]bool{}, map[string]bool{}
	for _, f := range b.Fields {
		had[f.Name] = true
	}
	for _, f := range a.Fields {
		have[f.Name] = true
		if !had[f.Name] {
			sd.MembersAdded = append(sd.MembersAdded, f.Name)
		}
	}
	for _, f := range b.Fields {
		if !have[f.Name] {
			sd.MembersRemoved = append(sd.MembersRemoved, f.Name)
			sd.Reasons = append(sd.Reasons, "member "+f.Name+" removed")
		}
	}
	sd.Breaking = len(sd.Reasons) > 0
	// a rename shows in the text; a signature that differs by the name
	// alone, or in nothing a caller sees (the order of modifiers), is the
	// same signature
	sameText := sd.Before == sd.After || bName != aName && strings.Replace(sd.Before, bName, aName, 1) == sd.After
	if !sd.Breaking && len(sd.ParamsChanged)+len(sd.ParamsAdded)+len(sd.ParamsRemoved) == 0 && sameText {
		return nil
	}
	return sd
}

// diffFacts compares two stored fact lists by kind and text, not line.
func diffFacts(bjs, ajs string) *FactDiff {
	parse := func(js string) []lang.Fact {
		var fs []lang.Fact
		if js != "" {
			json.Unmarshal([]byte(js), &fs)
		}
		return fs
	}
	b, a := parse(bjs), parse(ajs)
	key := func(f lang.Fact) string { return f.Kind + "\x00" + f.Text }
	text := func(f lang.Fact) string {
		if f.Kind != "guard" && f.Evidence != "" && !strings.Contains(f.Text, f.Evidence) {
			return f.Text + " (" + f.Evidence + ")"
		}
		return f.Text
	}
	had, has := map[string]int{}, map[string]int{}
	for _, f := range b {
		had[key(f)]++
	}
	for _, f := range a {
		has[key(f)]++
	}
	fd := &FactDiff{}
	for _, f := range a {
		if k := key(f); has[k] > had[k] {
			fd.Added = append(fd.Added, text(f))
			has[k]--
		}
	}
	for _, f := range b {
		if k := key(f); had[k] > has[k] {
			fd.Removed = append(fd.Removed, text(f))
			had[k]--
		}
	}
	if len(fd.Added)+len(fd.Removed) == 0 {
		return nil
	}
	return fd
}

// edgeAt is an edge row of one view.
type edgeAt struct {
	src, dst, kind, name, qual, qualType, qualCall, path string
	line                                                 int
}

func (e *edgeAt) ref() string {
	return e.src + "\x00" + e.kind + "\x00" + e.name + "\x00" + e.qual + "\x00" + e.qualType + "\x00" + e.qualCall
}

func (x *Index) edgesOnlyIn(ctx context.Context, a, b int64) ([]edgeAt, error) {
	cond, args := onlyIn("e", a, b)
	rows, err := x.DB.QueryContext(ctx, `SELECT e.src, COALESCE(e.dst, ''), e.kind, e.name, e.qual, e.qual_type, e.qual_call, p.path, e.line
		FROM edges e JOIN paths p ON p.id = e.path_id WHERE `+cond, args...)
	if err != nil {
		return nil, fmt.Errorf("delta edges: %w", err)
	}
	defer rows.Close()
	var out []edgeAt
	for rows.Next() {
		var e edgeAt
		if err := rows.Scan(&e.src, &e.dst, &e.kind, &e.name, &e.qual, &e.qualType, &e.qualCall, &e.path, &e.line); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// diffEdges finds the edges that appeared and went, and the callers of
// removed symbols whose reference no longer resolves.
func (x *Index) diffEdges(ctx context.Context, d *deltaSet, renamed map[string]string, scope map[string]bool) error {
	before, err := x.edgesOnlyIn(ctx, d.from.Seq, d.to.Seq)
	if err != nil {
		return err
	}
	after, err := x.edgesOnlyIn(ctx, d.to.Seq, d.from.Seq)
	if err != nil {
		return err
	}
	tr := func(id string) string {
		if n, ok := renamed[id]; ok {
			return n
		}
		return id
	}
	key := func(e *edgeAt) string { return tr(e.src) + "\x00" + e.ref()[len(e.src):] + "\x00" + tr(e.dst) }
	had := map[string]bool{}
	for i := range before {
		had[key(&before[i])] = true
	}
	has := map[string]bool{}
	unresolvedNow := map[string]bool{} // references that bind to nothing at the new version
	for i := range after {
		e := &after[i]
		has[key(e)] = true
		if e.dst == "" {
			unresolvedNow[e.ref()] = true
		}
	}
	inScope := func(e *edgeAt) bool {
		return scope == nil || scope[e.src] || scope[e.dst] || scope[tr(e.src)] || scope[tr(e.dst)]
	}
	// removed and renamed symbols: a caller that still names one and no
	// longer resolves is dangling
	removedIDs := map[string]*SymbolChange{}
	for _, c := range d.changes {
		if c.before != nil && c.Change != ChangeModified {
			removedIDs[c.before.ID] = c
		}
	}
	var ids []string
	for i := range before {
		e := &before[i]
		if had := has[key(e)]; had || !inScope(e) {
			continue
		}
		if e.dst == "" {
			d.summary.UnresolvedRemoved++
			continue
		}
		if c := removedIDs[e.dst]; c != nil && unresolvedNow[e.ref()] {
			c.dangling++
		}
		d.edges = append(d.edges, EdgeChange{Change: ChangeRemoved, From: e.src, To: e.dst, Kind: e.kind, File: e.path, Line: e.line})
		ids = append(ids, e.src, e.dst)
	}
	for i := range after {
		e := &after[i]
		if had[key(e)] || !inScope(e) {
			continue
		}
		if e.dst == "" {
			d.summary.UnresolvedAdded++
			continue
		}
		d.edges = append(d.edges, EdgeChange{Change: ChangeAdded, From: e.src, To: e.dst, Kind: e.kind, File: e.path, Line: e.line})
		ids = append(ids, e.src, e.dst)
	}
	// names: an added edge's ends as of the new version, a removed one's
	// as of the old
	namesTo, err := x.symbolsAt(ctx, d.to.Seq, ids)
	if err != nil {
		return err
	}
	namesFrom, err := x.symbolsAt(ctx, d.from.Seq, ids)
	if err != nil {
		return err
	}
	for i := range d.edges {
		e := &d.edges[i]
		names := namesTo
		if e.Change == ChangeRemoved {
			names = namesFrom
		}
		if s := names[e.From]; s != nil {
			e.FromName = s.Qualified
		}
		if s := names[e.To]; s != nil {
			e.ToName = s.Qualified + " (" + s.Path + ")"
		}
	}
	sort.Slice(d.edges, func(i, j int) bool {
		a, b := d.edges[i], d.edges[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Change != b.Change {
			return a.Change > b.Change // removed before added
		}
		return a.From+a.To+a.Kind < b.From+b.To+b.Kind
	})
	return nil
}

// symbolsAt loads symbols by id as of version v.
func (x *Index) symbolsAt(ctx context.Context, v int64, ids []string) (map[string]*symAt, error) {
	out := map[string]*symAt{}
	uniq := uniqueStrings(ids)
	for chunk := range slices.Chunk(uniq, schema.MaxInList) {
		args := schema.Args(chunk)
		rows, err := x.DB.QueryContext(ctx, `SELECT `+symAtColumns+` FROM symbols s JOIN paths p ON p.id = s.path_id
			WHERE s.id IN (`+schema.Placeholders(len(chunk))+`) AND `+validAt("s", v), args...)
		if err != nil {
			return nil, fmt.Errorf("load symbols: %w", err)
		}
		for rows.Next() {
			s, err := scanSymAt(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out[s.ID] = s
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func uniqueStrings(ss []string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// diffFiles counts the files that came, changed and went.
func (x *Index) diffFiles(ctx context.Context, d *deltaSet) error {
	load := func(a, b int64) (map[int64]string, error) {
		cond, args := onlyIn("f", a, b)
		rows, err := x.DB.QueryContext(ctx, `SELECT f.path_id, f.hash FROM files f WHERE f.status IN ('ok', 'parse_error') AND `+cond, args...)
		if err != nil {
			return nil, fmt.Errorf("delta files: %w", err)
		}
		defer rows.Close()
		out := map[int64]string{}
		for rows.Next() {
			var id int64
			var h string
			if err := rows.Scan(&id, &h); err != nil {
				return nil, err
			}
			out[id] = h
		}
		return out, rows.Err()
	}
	before, err := load(d.from.Seq, d.to.Seq)
	if err != nil {
		return err
	}
	after, err := load(d.to.Seq, d.from.Seq)
	if err != nil {
		return err
	}
	for id, h := range after {
		switch old, ok := before[id]; {
		case !ok:
			d.summary.FilesAdded++
		case old != h:
			d.summary.FilesChanged++
		}
	}
	for id := range before {
		if _, ok := after[id]; !ok {
			d.summary.FilesRemoved++
		}
	}
	return nil
}

// radiusKinds are the edge kinds a change travels back along.
// A function passed as a value ('ref': http.HandlerFunc(mx.routeHTTP))
// runs when its receiver calls it, so a change travels back to where it
// was passed.
const radiusKinds = `('call', 'new', 'ref', 'import', 'implements', 'extends')`

// callKinds are the edge kinds that count as calls in fan-in.
const callKinds = `('call', 'new', 'ref')`

// dispatchCall is the condition, on an edge e and a reached method m, for
// a call that may dispatch to m through an interface: a call of m's name
// that resolution left without a target, on a receiver whose static type is
// known and is not a pointer (a pointer's method set is concrete and would
// have resolved), made in m's own package (directory). gin's test helper
// PerformRequest(r http.Handler) calls r.ServeHTTP, which runs
// Engine.ServeHTTP: without this, no test that uses it reaches the router.
// The package bound keeps a common name (Get, String) from reaching every
// method of that name in the repository.
const dispatchCall = `e.name = m.name AND e.kind = 'call' AND e.dst IS NULL AND e.qual_type != ''
		AND substr(e.qual_type, 1, 1) != '*' AND m.kind = 'method'
		AND (SELECT rtrim(path, replace(path, '/', '')) FROM paths WHERE id = e.path_id) =
			(SELECT rtrim(path, replace(path, '/', '')) FROM paths WHERE id = m.path_id)`

// reachQuery is the blast radius: ?1 the seeds (JSON), ?2 the version,
// ?3 the depth, ?4 the row limit. Edges are followed back as recorded,
// from a method to the calls that may dispatch to it (dispatchCall), and
// from a constructor to its class: a construction (Client()) is an edge to
// the class, so without this step no caller reaches a change in __init__.
const reachQuery = `WITH RECURSIVE r(seed, id, depth) AS (
		SELECT value, value, 0 FROM json_each(?1)
		UNION
		SELECT r.seed, e.src, r.depth + 1 FROM r CROSS JOIN edges e ON e.dst = r.id
		WHERE r.depth < ?3 AND e.to_seq IS NULL AND e.from_seq <= ?2 AND e.kind IN ` + radiusKinds + ` AND e.src != e.dst
		UNION
		SELECT r.seed, e.src, r.depth + 1 FROM r CROSS JOIN edges e ON e.dst = r.id
		WHERE r.depth < ?3 AND e.to_seq > ?2 AND e.from_seq <= ?2 AND e.kind IN ` + radiusKinds + ` AND e.src != e.dst
		UNION
		SELECT r.seed, e.src, r.depth + 1 FROM r CROSS JOIN symbols m ON m.id = r.id CROSS JOIN edges e ON e.name = m.name
		WHERE r.depth < ?3 AND m.from_seq <= ?2 AND (m.to_seq IS NULL OR m.to_seq > ?2)
			AND e.to_seq IS NULL AND e.from_seq <= ?2 AND ` + dispatchCall + `
		UNION
		SELECT r.seed, e.src, r.depth + 1 FROM r CROSS JOIN symbols m ON m.id = r.id CROSS JOIN edges e ON e.name = m.name
		WHERE r.depth < ?3 AND m.from_seq <= ?2 AND (m.to_seq IS NULL OR m.to_seq > ?2)
			AND e.to_seq > ?2 AND e.from_seq <= ?2 AND ` + dispatchCall + `
		UNION
		SELECT r.seed, m.parent_id, r.depth + 1 FROM r CROSS JOIN symbols m ON m.id = r.id
		WHERE r.depth < ?3 AND m.kind = 'constructor' AND m.parent_id != ''
			AND m.from_seq <= ?2 AND (m.to_seq IS NULL OR m.to_seq > ?2)
		LIMIT ?4
	)
	SELECT seed, id, depth FROM r`

// runnerTest reports whether a symbol is a test its language's test runner
// runs, which is what "tests to run" lists. In Go that is a top-level
// TestXxx(t *testing.T) or FuzzXxx(f *testing.F) of a _test.go file: not a
// benchmark, an example or a helper, which the index marks as test code
// too. In Python it is what pytest collects: a module-level test_*
// function or a test* method of a top-level class, outside conftest.py; the
// index marks a test file's module, helpers and fixtures as test code too,
// and a module in the pytest command is no node id. Other languages keep
// the index's own rule (JUnit's annotated methods, a JavaScript test file).
func runnerTest(s *symAt) bool {
	if !s.IsTest {
		return false
	}
	if strings.HasSuffix(s.Path, ".py") {
		return pytestCollects(s)
	}
	if !strings.HasSuffix(s.Path, "_test.go") {
		return true
	}
	if s.Container != "" || s.Kind != "function" {
		return false
	}
	return goRunnerName(s.Name, "Test") && strings.Contains(s.Signature, "*testing.T") ||
		goRunnerName(s.Name, "Fuzz") && strings.Contains(s.Signature, "*testing.F")
}

// pytestCollects reports whether pytest runs s as a test by its default
// rules: test-prefixed functions at module level and test-prefixed methods
// of a class at module level (Test* or a unittest.TestCase), never in
// conftest.py.
func pytestCollects(s *symAt) bool {
	if path.Base(s.Path) == "conftest.py" || !strings.HasPrefix(s.Name, "test") {
		return false
	}
	switch s.Kind {
	case "function":
		return s.Container == ""
	case "method":
		return s.Container != "" && !strings.Contains(s.Container, ".")
	}
	return false
}

// goRunnerName reports whether name is prefix followed by nothing or by a
// character that is not a lower-case letter, as go test requires (TestFoo,
// Test_foo, Test; not Testify).
func goRunnerName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
}

// reach finds, at version v, the symbols that reach each seed over
// incoming edges within depth edges: seed -> dependent -> distance. The
// recursive query runs over the versioned edge table in two branches,
// current rows (through the partial index on current targets) and rows
// closed after v (through the partial index on closed rows' targets), so
// an old version costs what changed since it, not a scan. CROSS JOIN
// keeps the queue row outside: left to itself the planner scans every
// row closed after v for each step (edges_to) and an old version's
// radius took seconds.
// It reports whether the row limit cut the search short.
func (x *Index) reach(ctx context.Context, v int64, seeds []string, depth int) (map[string]map[string]int, bool, error) {
	out := map[string]map[string]int{}
	if len(seeds) == 0 {
		return out, false, nil
	}
	js, _ := json.Marshal(seeds)
	rows, err := x.DB.QueryContext(ctx, reachQuery, string(js), v, depth, reachLimit)
	if err != nil {
		return nil, false, fmt.Errorf("blast radius: %w", err)
	}
	defer rows.Close()
	generated := 0
	for rows.Next() {
		var seed, id string
		var dist int
		if err := rows.Scan(&seed, &id, &dist); err != nil {
			return nil, false, err
		}
		generated++
		if dist == 0 || id == seed {
			continue
		}
		m := out[seed]
		if m == nil {
			m = map[string]int{}
			out[seed] = m
		}
		if old, ok := m[id]; !ok || dist < old {
			m[id] = dist
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	// the rows generated, not the distinct ones, meet the limit
	return out, generated >= reachLimit, nil
}

// callerStat is what ranking needs of a symbol's callers at a version.
type callerStat struct{ fanIn, tests int }

// callerStats counts, at version v, the distinct callers of each id (calls
// and instantiations, as metrics count fan-in) and how many are tests.
func (x *Index) callerStats(ctx context.Context, v int64, ids []string) (map[string]callerStat, error) {
	out := map[string]callerStat{}
	uniq := uniqueStrings(ids)
	for chunk := range slices.Chunk(uniq, schema.MaxInListTwice) {
		args := append(schema.Args(chunk), schema.Args(chunk)...)
		ph := schema.Placeholders(len(chunk))
		q := `SELECT e.dst, COUNT(DISTINCT e.src), COUNT(DISTINCT CASE WHEN s.is_test = 1 THEN e.src END) FROM (
			SELECT src, dst FROM edges WHERE to_seq IS NULL AND from_seq <= ` + strconv.FormatInt(v, 10) + ` AND dst IN (` + ph + `)
				AND kind IN ` + callKinds + ` AND src != dst
			UNION ALL
			SELECT src, dst FROM edges WHERE to_seq > ` + strconv.FormatInt(v, 10) + ` AND from_seq <= ` + strconv.FormatInt(v, 10) + ` AND dst IN (` + ph + `)
				AND kind IN ` + callKinds + ` AND src != dst
		) e LEFT JOIN symbols s ON s.id = e.src AND ` + validAt("s", v) + ` GROUP BY e.dst`
		rows, err := x.DB.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("fan-in: %w", err)
		}
		for rows.Next() {
			var id string
			var st callerStat
			if err := rows.Scan(&id, &st.fanIn, &st.tests); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = st
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// processCounts counts the processes each id takes part in (processes are
// derived for the current version only).
func (x *Index) processCounts(ctx context.Context, ids []string) (map[string]int, error) {
	out := map[string]int{}
	uniq := uniqueStrings(ids)
	for chunk := range slices.Chunk(uniq, schema.MaxInList) {
		args := schema.Args(chunk)
		rows, err := x.DB.QueryContext(ctx, `SELECT symbol_id, COUNT(DISTINCT process_id) FROM process_steps
			WHERE symbol_id IN (`+schema.Placeholders(len(chunk))+`) GROUP BY symbol_id`, args...)
		if err != nil {
			return nil, fmt.Errorf("processes: %w", err)
		}
		for rows.Next() {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// dependentScore ranks a dependent; see Dependent.
func dependentScore(distance, fanIn int, testProximity float64, processes int) float64 {
	return round4(1/float64(distance) + 0.15*math.Log(1+float64(fanIn)) + 0.2*testProximity + 0.05*float64(min(processes, 4)))
}

// blastRadius computes every change's dependents: a removed symbol's as
// of the old version, any other's as of the new one (an added symbol's
// are the callers the change brought, and the tests that reach it).
func (x *Index) blastRadius(ctx context.Context, d *deltaSet) error {
	var seedsFrom, seedsTo []string
	changed := map[string]bool{}
	for _, c := range d.changes {
		if c.before != nil {
			changed[c.before.ID] = true
		}
		if c.after != nil {
			changed[c.after.ID] = true
		}
		switch {
		case !semantic(c):
			// a change to documentation reaches nothing
		case c.Change == ChangeRemoved:
			seedsFrom = append(seedsFrom, c.before.ID)
		default:
			seedsTo = append(seedsTo, c.after.ID)
		}
	}
	type view struct {
		seq   int64
		seeds []string
		reach map[string]map[string]int
		syms  map[string]*symAt
		stats map[string]callerStat
	}
	views := []*view{{seq: d.from.Seq, seeds: seedsFrom}, {seq: d.to.Seq, seeds: seedsTo}}
	var allIDs []string
	for _, vw := range views {
		r, trunc, err := x.reach(ctx, vw.seq, vw.seeds, d.depth)
		if err != nil {
			return err
		}
		d.truncated = d.truncated || trunc
		vw.reach = r
		var ids []string
		for _, m := range r {
			for id := range m {
				ids = append(ids, id)
			}
		}
		// the changed symbols' own fan-in too
		ids = append(ids, vw.seeds...)
		for _, c := range d.changes {
			if vw.seq == d.from.Seq && c.before != nil {
				ids = append(ids, c.before.ID)
			}
			if vw.seq == d.to.Seq && c.after != nil {
				ids = append(ids, c.after.ID)
			}
		}
		if vw.syms, err = x.symbolsAt(ctx, vw.seq, ids); err != nil {
			return err
		}
		if vw.stats, err = x.callerStats(ctx, vw.seq, ids); err != nil {
			return err
		}
		allIDs = append(allIDs, ids...)
	}
	procs, err := x.processCounts(ctx, allIDs)
	if err != nil {
		return err
	}
	all := map[string]*Dependent{}
	runner := map[string]bool{} // the dependents that are tests a runner runs
	for _, c := range d.changes {
		fi := &FanInChange{}
		if c.before != nil {
			fi.Before = views[0].stats[c.before.ID].fanIn
		}
		if c.after != nil {
			fi.After = views[1].stats[c.after.ID].fanIn
		}
		if fi.Before+fi.After > 0 {
			c.FanIn = fi
		}
		if !semantic(c) {
			continue
		}
		vw, id := views[1], ""
		if c.Change == ChangeRemoved {
			vw, id = views[0], c.before.ID
		} else {
			id = c.after.ID
		}
		br := &BlastRadius{ByDistance: []int{}, Dependents: []Dependent{}, Truncated: d.truncated}
		for dep, dist := range vw.reach[id] {
			s := vw.syms[dep]
			if s == nil {
				continue
			}
			st := vw.stats[dep]
			prox := 0.0
			if s.IsTest {
				prox = 1
			} else if st.tests > 0 {
				prox = 0.5
			}
			dp := Dependent{SymbolID: dep, Name: displayName(s), Kind: s.Kind, File: s.Path, Distance: dist, FanIn: st.fanIn,
				IsTest: s.IsTest, Processes: procs[dep], Changed: changed[dep]}
			dp.Score = dependentScore(dist, st.fanIn, prox, dp.Processes)
			c.radius = append(c.radius, dp)
			for len(br.ByDistance) < dist {
				br.ByDistance = append(br.ByDistance, 0)
			}
			br.ByDistance[dist-1]++
			if runnerTest(s) {
				runner[dep] = true
				br.Tests++
				t := d.tests[dep]
				if t == nil {
					t = &RecommendedTest{SymbolID: dep, Name: s.Qualified, File: s.Path, Distance: dist}
					d.tests[dep] = t
				}
				t.Distance = min(t.Distance, dist)
				t.Reaches = append(t.Reaches, c.Name)
			}
			if prev := all[dep]; prev == nil || dp.Score > prev.Score {
				cp := dp
				all[dep] = &cp
			}
		}
		sortDependents(c.radius)
		br.Total = len(c.radius)
		br.Dependents = append(br.Dependents, c.radius[:min(radiusShown, len(c.radius))]...)
		c.BlastRadius = br
	}
	for _, dp := range all {
		switch {
		case dp.Changed:
		case dp.IsTest:
			// benchmarks and helpers are test code, but not tests to run
			if runner[dp.SymbolID] {
				d.summary.TestsReaching++
			}
		default:
			d.radius = append(d.radius, *dp)
		}
	}
	sortDependents(d.radius)
	d.summary.BlastRadius = len(d.radius)
	return nil
}

func sortDependents(ds []Dependent) {
	sort.Slice(ds, func(i, j int) bool {
		if ds[i].Score != ds[j].Score {
			return ds[i].Score > ds[j].Score
		}
		if ds[i].Distance != ds[j].Distance {
			return ds[i].Distance < ds[j].Distance
		}
		if ds[i].File != ds[j].File {
			return ds[i].File < ds[j].File
		}
		return ds[i].SymbolID < ds[j].SymbolID
	})
}

// amplify finds the targets of added edges whose fan-in grew by at least
// two callers and at least half again.
func (x *Index) amplify(ctx context.Context, d *deltaSet, renamed map[string]string) error {
	old := map[string]string{} // new id -> old id
	for o, n := range renamed {
		old[n] = o
	}
	var cands, prevIDs []string
	for _, e := range d.edges {
		if e.Change == ChangeAdded && (e.Kind == lang.RefCall || e.Kind == lang.RefNew) {
			cands = append(cands, e.To)
			if o, ok := old[e.To]; ok {
				prevIDs = append(prevIDs, o)
			} else {
				prevIDs = append(prevIDs, e.To)
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	now, err := x.callerStats(ctx, d.to.Seq, cands)
	if err != nil {
		return err
	}
	before, err := x.callerStats(ctx, d.from.Seq, prevIDs)
	if err != nil {
		return err
	}
	syms, err := x.symbolsAt(ctx, d.to.Seq, cands)
	if err != nil {
		return err
	}
	for _, id := range uniqueStrings(cands) {
		prevID := id
		if o, ok := old[id]; ok {
			prevID = o
		}
		cur, prev := now[id].fanIn, before[prevID].fanIn
		growth := float64(cur-prev) / float64(max(prev, 1))
		if cur-prev < 2 || growth < 0.5 {
			continue
		}
		a := Amplifier{SymbolID: id, GrowthRate: round4(growth), Previous: prev, Current: cur}
		if s := syms[id]; s != nil {
			a.Name, a.File = s.Qualified, s.Path
		}
		d.amplifiers = append(d.amplifiers, a)
	}
	sort.Slice(d.amplifiers, func(i, j int) bool {
		a, b := d.amplifiers[i], d.amplifiers[j]
		if a.GrowthRate != b.GrowthRate {
			return a.GrowthRate > b.GrowthRate
		}
		if a.Current != b.Current {
			return a.Current > b.Current
		}
		return a.SymbolID < b.SymbolID
	})
	return nil
}

func (d *deltaSet) count() {
	s := &d.summary
	for _, c := range d.changes {
		switch c.Change {
		case ChangeAdded:
			s.SymbolsAdded++
		case ChangeRemoved:
			s.SymbolsRemoved++
		case ChangeModified:
			s.SymbolsModified++
		default:
			s.SymbolsRenamed++
		}
	}
	for _, e := range d.edges {
		if e.Change == ChangeAdded {
			s.EdgesAdded++
		} else {
			s.EdgesRemoved++
		}
	}
}

var changeRank = map[string]int{ChangeRemoved: 0, ChangeRenamed: 1, ChangeMoved: 1, ChangeModified: 2, ChangeAdded: 3}

// sortChanges puts the changes with the widest blast radius first, then
// removals, renames, modifications and additions, then by place.
func sortChanges(cs []*SymbolChange) {
	total := func(c *SymbolChange) int {
		if c.BlastRadius == nil {
			return 0
		}
		return c.BlastRadius.Total
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if total(a) != total(b) {
			return total(a) > total(b)
		}
		if changeRank[a.Change] != changeRank[b.Change] {
			return changeRank[a.Change] < changeRank[b.Change]
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.SymbolID < b.SymbolID
	})
}

// pack renders a page of a delta within a budget: the summary and the
// amplifiers always, then changes and edge changes in order from offset.
func (d *deltaSet) pack(offset, maxItems, budget int) (*DeltaResponse, error) {
	p := &DeltaPack{FromVersion: d.from.ID, ToVersion: d.to.ID, FromCommit: d.from.GitCommit, ToCommit: d.to.GitCommit,
		Summary: d.summary, Changes: []*SymbolChange{}, EdgeChanges: []EdgeChange{}}
	resp := &DeltaResponse{Delta: p, Amplifiers: d.amplifiers[:min(maxAmplifiers, len(d.amplifiers))]}
	if resp.Amplifiers == nil {
		resp.Amplifiers = []Amplifier{}
	}
	total := len(d.changes) + len(d.edges)
	if offset > total {
		offset = total
	}
	// room for a truncation note and the token count
	p.Truncation = &DeltaTruncation{Truncated: true, Returned: total, Total: total, NextCursor: strconv.Itoa(total), Reason: "token budget"}
	p.EstimatedTokens = 99999
	used := Tokens(mustJSON(resp))
	if used > budget {
		return nil, fmt.Errorf("%w: budget.maxEstimatedTokens: %d tokens do not hold the delta's summary (%d); give more", ErrInvalid, budget, used)
	}
	n := offset
	reason := ""
	for ; n < total; n++ {
		if n-offset >= maxItems {
			reason = "maxCards"
			break
		}
		var cost int
		if n < len(d.changes) {
			cost = Tokens(mustJSON(d.changes[n])) + 1
		} else {
			cost = Tokens(mustJSON(d.edges[n-len(d.changes)])) + 1
		}
		if used+cost > budget {
			reason = "token budget"
			break
		}
		used += cost
		if n < len(d.changes) {
			p.Changes = append(p.Changes, d.changes[n])
		} else {
			p.EdgeChanges = append(p.EdgeChanges, d.edges[n-len(d.changes)])
		}
	}
	if n < total || offset > 0 {
		p.Truncation = &DeltaTruncation{Truncated: n < total, Returned: n - offset, Total: total, Reason: reason}
		if n < total {
			p.Truncation.NextCursor = strconv.Itoa(n)
		} else {
			p.Truncation.Reason = "last page"
		}
	} else {
		p.Truncation = nil
	}
	// the promise: count the whole answer, drop from the end if over
	for {
		p.EstimatedTokens = 99999
		for i := 0; i < 4; i++ { // the count counts itself: settle it
			n := Tokens(mustJSON(resp))
			if n == p.EstimatedTokens {
				break
			}
			p.EstimatedTokens = n
		}
		if p.EstimatedTokens <= budget || len(p.Changes)+len(p.EdgeChanges) == 0 {
			break
		}
		if len(p.EdgeChanges) > 0 {
			p.EdgeChanges = p.EdgeChanges[:len(p.EdgeChanges)-1]
		} else {
			p.Changes = p.Changes[:len(p.Changes)-1]
		}
		n--
		p.Truncation = &DeltaTruncation{Truncated: true, Returned: n - offset, Total: total, NextCursor: strconv.Itoa(n), Reason: "token budget"}
	}
	return resp, nil
}

// Delta answers sdl.delta.get.
func (x *Index) Delta(ctx context.Context, req DeltaRequest) (*DeltaResponse, error) {
	from, err := x.ResolveVersion(ctx, "fromVersion", req.FromVersion)
	if err != nil {
		return nil, err
	}
	to, err := x.ResolveVersion(ctx, "toVersion", req.ToVersion)
	if err != nil {
		return nil, err
	}
	maxItems, budget, err := deltaBudget(req.Budget)
	if err != nil {
		return nil, err
	}
	depth, err := radiusDepth(req.MaxDepth)
	if err != nil {
		return nil, err
	}
	offset := 0
	if req.Cursor != "" {
		if offset, err = strconv.Atoi(req.Cursor); err != nil || offset < 0 {
			return nil, invalidf("cursor", "%q is not a cursor; pass truncation.nextCursor of the previous page", req.Cursor)
		}
	}
	d, err := x.computeDelta(ctx, from, to, deltaOptions{depth: depth})
	if err != nil {
		return nil, err
	}
	return d.pack(offset, maxItems, budget)
}

func deltaBudget(b *SliceBudget) (int, int, error) {
	maxItems, budget := DefaultDeltaCards, DefaultDeltaTokens
	if b != nil {
		if b.MaxCards != 0 {
			maxItems = b.MaxCards
		}
		if b.MaxEstimatedTokens != 0 {
			budget = b.MaxEstimatedTokens
		}
	}
	if maxItems < 1 || maxItems > MaxSliceCards {
		return 0, 0, invalidf("budget.maxCards", "must be between 1 and %d, got %d", MaxSliceCards, maxItems)
	}
	if budget < MinDeltaTokens || budget > MaxSliceTokens {
		return 0, 0, invalidf("budget.maxEstimatedTokens", "must be between %d and %d, got %d", MinDeltaTokens, MaxSliceTokens, budget)
	}
	return maxItems, budget, nil
}

func radiusDepth(n int) (int, error) {
	if n == 0 {
		return DefaultRadiusDepth, nil
	}
	if n < 1 || n > maxRadiusDepth {
		return 0, invalidf("maxDepth", "must be between 1 and %d, got %d", maxRadiusDepth, n)
	}
	return n, nil
}
