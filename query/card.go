package query

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// Errors a caller can act on.
var (
	// ErrNotFound means no current symbol matches the id or reference.
	ErrNotFound = errors.New("symbol not found")
	// ErrAmbiguous means a natural reference matches several symbols.
	ErrAmbiguous = errors.New("ambiguous symbol reference")
	// ErrInvalid means a request argument breaks a rule; the message names
	// the field and the rule.
	ErrInvalid = errors.New("invalid argument")
)

// invalidf reports a bad argument: field, then what to send instead.
func invalidf(field, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrInvalid, field, fmt.Sprintf(format, args...))
}

// Detail levels of a card, from the cheapest.
const (
	DetailMinimal   = "minimal"   // identity and location
	DetailSignature = "signature" // + signature, exported, visibility
	DetailDeps      = "deps"      // + dependencies
	DetailCompact   = "compact"   // signature, summary, key facts and dependencies
	DetailFull      = "full"      // everything
)

var detailRank = map[string]int{DetailMinimal: 0, DetailSignature: 1, DetailDeps: 2, DetailCompact: 3, DetailFull: 4}

// ValidDetail reports whether d names a detail level.
func ValidDetail(d string) bool { _, ok := detailRank[d]; return ok }

// Range is a source range (lines 1-based, columns 0-based).
type Range struct {
	StartLine int `json:"startLine"`
	StartCol  int `json:"startCol,omitempty"`
	EndLine   int `json:"endLine"`
	EndCol    int `json:"endCol,omitempty"`
}

// Card is a symbol card (seeds/002).
type Card struct {
	SymbolID    string          `json:"symbolId"`
	RepoID      string          `json:"repoId,omitempty"`
	Name        string          `json:"name"`
	Kind        string          `json:"kind"`
	File        string          `json:"file"`
	Range       Range           `json:"range"`
	Container   string          `json:"container,omitempty"`
	Exported    *bool           `json:"exported,omitempty"`
	Visibility  string          `json:"visibility,omitempty"`
	Signature   *lang.Signature `json:"signature,omitempty"`
	Summary     string          `json:"summary,omitempty"`
	Doc         string          `json:"doc,omitempty"`
	Invariants  []string        `json:"invariants,omitempty"`
	SideEffects []string        `json:"sideEffects,omitempty"`
	Deps        *Deps           `json:"deps,omitempty"`
	Metrics     *Metrics        `json:"metrics,omitempty"`
	Cluster     *Cluster        `json:"cluster,omitempty"`
	Processes   []Process       `json:"processes,omitempty"`
	IsTest      bool            `json:"isTest,omitempty"`
	Detail      string          `json:"detail,omitempty"`
	Etag        string          `json:"etag"`
	Version     *CardVersion    `json:"version,omitempty"`
}

// Deps are a symbol's dependencies with human-readable labels.
type Deps struct {
	Imports  []string `json:"imports,omitempty"`
	Calls    []Dep    `json:"calls,omitempty"`
	CalledBy []Dep    `json:"calledBy,omitempty"`
	// Unresolved names calls that bind to no symbol of the repository.
	Unresolved []string `json:"unresolved,omitempty"`
}

// Dep is one dependency edge, labelled.
type Dep struct {
	SymbolID   string      `json:"symbolId,omitempty"`
	Label      string      `json:"label"`
	Kind       string      `json:"kind,omitempty"` // call (default), new, extends, implements, import
	Confidence float64     `json:"confidence,omitempty"`
	Resolution *Resolution `json:"resolution,omitempty"`
}

// Resolution says how an edge was bound (includeResolutionMetadata).
type Resolution struct {
	Rule       string `json:"rule"`
	Phase      string `json:"phase"`
	Reason     string `json:"reason"`
	Candidates int    `json:"candidates,omitempty"`
}

// Metrics are a symbol's usage metrics.
type Metrics struct {
	FanIn         int    `json:"fanIn"`
	FanOut        int    `json:"fanOut"`
	Churn30d      int    `json:"churn30d"`
	TestRefs      int    `json:"testRefs"`
	CanonicalTest string `json:"canonicalTest,omitempty"`
}

// Cluster is the community a symbol belongs to.
type Cluster struct {
	ClusterID   int    `json:"clusterId"`
	Label       string `json:"label"`
	MemberCount int    `json:"memberCount"`
}

// Process is a call chain a symbol takes part in.
type Process struct {
	ProcessID int    `json:"processId"`
	Label     string `json:"label"`
	Role      string `json:"role"`
	Depth     int    `json:"depth"`
}

// CardVersion says which ledger version a card was read from.
type CardVersion struct {
	LedgerVersion  string `json:"ledgerVersion"`
	ASTFingerprint string `json:"astFingerprint"`
}

// symbolRow is a current symbol as stored.
type symbolRow struct {
	ID, Path, Kind, Name, Qualified, Container, ParentID string
	Range                                                Range
	Exported                                             bool
	Visibility, Signature, Doc, Summary                  string
	Invariants, SideEffects, Fingerprint                 string
	IsTest                                               bool
}

const symbolColumns = `s.id, p.path, s.kind, s.name, s.qualified, s.container, s.parent_id,
	s.start_line, s.start_col, s.end_line, s.end_col, s.exported, s.visibility, s.signature, s.doc, s.summary,
	s.invariants, s.side_effects, s.fingerprint, s.is_test`

func scanSymbol(rows interface{ Scan(...any) error }) (*symbolRow, error) {
	var r symbolRow
	var exported, isTest int
	err := rows.Scan(&r.ID, &r.Path, &r.Kind, &r.Name, &r.Qualified, &r.Container, &r.ParentID,
		&r.Range.StartLine, &r.Range.StartCol, &r.Range.EndLine, &r.Range.EndCol, &exported, &r.Visibility,
		&r.Signature, &r.Doc, &r.Summary, &r.Invariants, &r.SideEffects, &r.Fingerprint, &isTest)
	r.Exported, r.IsTest = exported != 0, isTest != 0
	return &r, err
}

// scanSymbols reads the rows of symbolColumns left in rows, and closes it.
func scanSymbols(rows *sql.Rows) ([]*symbolRow, error) {
	defer rows.Close()
	var out []*symbolRow
	for rows.Next() {
		r, err := scanSymbol(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// symbols loads current symbols by id; missing ids are absent from the map.
func (x *Index) symbols(ctx context.Context, ids []string) (map[string]*symbolRow, error) {
	out := make(map[string]*symbolRow, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	// one statement, prepared once, whatever the number of ids
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := x.queryPrepared(ctx, `SELECT `+symbolColumns+` FROM symbols s JOIN paths p ON p.id = s.path_id
		WHERE s.to_seq IS NULL AND s.id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("load symbols: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanSymbol(rows)
		if err != nil {
			return nil, err
		}
		out[r.ID] = r
	}
	return out, rows.Err()
}

// SymbolRef is a natural reference to a symbol.
type SymbolRef struct {
	Name         string `json:"name"`
	File         string `json:"file,omitempty"`
	Kind         string `json:"kind,omitempty"`
	ExportedOnly bool   `json:"exportedOnly,omitempty"`
}

func (r SymbolRef) String() string {
	s := r.Name
	if r.Kind != "" {
		s = r.Kind + " " + s
	}
	if r.File != "" {
		s += " in " + r.File
	}
	return s
}

// Candidate is one of the symbols an ambiguous reference could mean.
type Candidate struct {
	SymbolID string `json:"symbolId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	// Static marks a class (static) method beside an instance method of
	// its name, set when the candidates differ so.
	Static *bool `json:"static,omitempty"`
}

// AmbiguousError lists the candidates of an ambiguous reference.
type AmbiguousError struct {
	Ref        SymbolRef
	Candidates []Candidate
}

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %q matches %d symbols", ErrAmbiguous, e.Ref.String(), len(e.Candidates))
	for i, c := range e.Candidates {
		if i == 5 {
			b.WriteString(", ...")
			break
		}
		side := ""
		if c.Static != nil {
			side = "instance method, "
			if *c.Static {
				side = "class method, "
			}
		}
		fmt.Fprintf(&b, "; %s %s (%s%s:%d) %s", c.Kind, c.Name, side, c.File, c.Line, c.SymbolID)
	}
	if e.overloads() && e.Candidates[0].Static != nil {
		n := e.Candidates[0].Name
		if i := strings.LastIndexByte(n, '.'); i >= 0 {
			fmt.Fprintf(&b, "; a class method and an instance method of one name: write %s#%s for the instance method, %s::%s for the class method, or pass a symbolId",
				n[:i], n[i+1:], n[:i], n[i+1:])
			return b.String()
		}
	}
	if e.overloads() {
		// file and kind cannot tell overloads of one name apart
		b.WriteString("; they are overloads of one name in one file: pass a symbolId")
		return b.String()
	}
	b.WriteString("; add file or kind to the reference, or pass a symbolId")
	return b.String()
}

func (e *AmbiguousError) Unwrap() error { return ErrAmbiguous }

// overloads reports whether every candidate has one name, kind and file
// (TypeScript overload signatures, Java overloads).
func (e *AmbiguousError) overloads() bool {
	for _, c := range e.Candidates[1:] {
		if c.Name != e.Candidates[0].Name || c.Kind != e.Candidates[0].Kind || c.File != e.Candidates[0].File {
			return false
		}
	}
	return len(e.Candidates) > 1
}

// fileModule returns the name of the module symbol of the file at path
// (the file's own, the one module without a parent, not a module the
// code declares in it), "" when it has none.
func (x *Index) fileModule(ctx context.Context, path string) (string, error) {
	var name string
	err := x.DB.QueryRowContext(ctx, `SELECT s.name FROM symbols s JOIN paths p ON p.id = s.path_id
		WHERE s.to_seq IS NULL AND s.kind = ? AND s.parent_id = '' AND p.path = ?`, lang.KindModule, path).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return name, err
}

// Resolve finds the symbol a natural reference names. The name may be
// qualified ("Store.Add"); file matches as a suffix of the path. Among
// several matches, exact case wins over other case, then a definition over
// a test; when that leaves several, the reference is ambiguous.
func (x *Index) Resolve(ctx context.Context, ref SymbolRef) (*symbolRow, error) {
	if strings.TrimSpace(ref.Name) == "" {
		return nil, invalidf("symbolRef.name", "must be a non-empty symbol name")
	}
	if ref.Kind != "" && !validKind(ref.Kind) {
		return nil, invalidf("symbolRef.kind", "%q is not a kind; use one of %s", ref.Kind, strings.Join(lang.Kinds, ", "))
	}
	name := strings.TrimSpace(ref.Name)
	raw := name
	// Ruby's documentation (ri, YARD) spells an instance method
	// Client#push and a class method Client::push; sdl's qualified names
	// are dotted, so the spelling only picks between the two
	side := sideAny
	if i := strings.LastIndexAny(name, ".:#"); i > 0 && i < len(name)-1 {
		switch {
		case name[i] == '#':
			side = sideInstance
		case strings.HasSuffix(name[:i+1], "::"):
			side = sideClass
		}
	}
	if side != sideAny {
		name = strings.ReplaceAll(strings.ReplaceAll(name, "::", "."), "#", ".")
	} else {
		// Sidekiq::Client.push: a namespace written Ruby's way before a
		// dotted member (the raw name is still asked of qualified names)
		name = strings.ReplaceAll(name, "::", ".")
	}
	short := name
	if i := strings.LastIndexAny(name, ".:"); i >= 0 && i < len(name)-1 {
		short = strings.TrimLeft(name[i:], ".:")
	}
	rows, err := x.DB.QueryContext(ctx, `SELECT `+symbolColumns+` FROM symbols s JOIN paths p ON p.id = s.path_id
		WHERE s.to_seq IS NULL AND (s.name = ?1 OR s.name = ?2 OR s.qualified = ?1 OR s.qualified = ?3) ORDER BY p.path, s.start_line`, name, short, raw)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", ref, err)
	}
	cands, err := scanSymbols(rows)
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		// case-insensitive, as a last resort
		rows, err := x.DB.QueryContext(ctx, `SELECT `+symbolColumns+` FROM symbols s JOIN paths p ON p.id = s.path_id
			WHERE s.to_seq IS NULL AND (s.name = ?1 COLLATE NOCASE OR s.qualified = ?1 COLLATE NOCASE) ORDER BY p.path, s.start_line LIMIT 50`, name)
		if err != nil {
			return nil, err
		}
		if cands, err = scanSymbols(rows); err != nil {
			return nil, err
		}
	}
	keep := cands[:0:0]
	modules := map[string]string{}
	viaModule := map[*symbolRow]bool{}
	for _, c := range cands {
		if name != short && c.Qualified != name && c.Qualified != raw && !strings.HasSuffix(c.Qualified, "."+name) {
			// a qualified reference must match the qualified name, or it
			// with the file's module or package before it, as code and
			// tracebacks write it (tornado.web.RequestHandler,
			// org.koin.core.KoinApplication)
			m, ok := modules[c.Path]
			if !ok {
				if m, err = x.fileModule(ctx, c.Path); err != nil {
					return nil, fmt.Errorf("resolve %s: %w", ref, err)
				}
				modules[c.Path] = m
			}
			if full := m + "." + c.Qualified; m == "" || c.Kind == lang.KindModule || full != name && !strings.HasSuffix(full, "."+name) {
				continue
			}
			viaModule[c] = true
		}
		if ref.Kind != "" && c.Kind != ref.Kind {
			continue
		}
		if ref.File != "" && !pathMatches(c.Path, ref.File) {
			continue
		}
		if ref.ExportedOnly && !c.Exported {
			continue
		}
		keep = append(keep, c)
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%w: %s (try sdl.symbol.search to find it)", ErrNotFound, ref)
	}
	// a symbol whose own qualified name matches wins over one matched
	// through its module: csrf.csrf is the function nested in csrf, not
	// the function csrf of the module csrf
	keep = narrow(keep, func(c *symbolRow) bool { return !viaModule[c] })
	keep = narrow(keep, func(c *symbolRow) bool { return c.Name == short || c.Qualified == name || c.Qualified == raw })
	keep = narrow(keep, func(c *symbolRow) bool { return c.Kind != lang.KindModule })
	keep = narrow(keep, func(c *symbolRow) bool { return !c.IsTest })
	keep = narrow(keep, func(c *symbolRow) bool { return !overloadStub(c) })
	keep = dropNested(keep, name)
	if side != sideAny {
		keep = narrow(keep, func(c *symbolRow) bool { return c.Kind == lang.KindMethod && classSide(c) == (side == sideClass) })
	}
	if len(keep) == 1 {
		return keep[0], nil
	}
	e := &AmbiguousError{Ref: ref}
	statics := 0
	for _, c := range keep {
		if c.Kind == lang.KindMethod && classSide(c) {
			statics++
		}
	}
	for _, c := range keep {
		cand := Candidate{SymbolID: c.ID, Name: c.Qualified, Kind: c.Kind, File: c.Path, Line: c.Range.StartLine}
		if statics > 0 && statics < len(keep) && c.Kind == lang.KindMethod {
			st := classSide(c)
			cand.Static = &st
		}
		e.Candidates = append(e.Candidates, cand)
	}
	return nil, e
}

// Which methods a reference's spelling asks for.
const (
	sideAny      = iota
	sideInstance // Client#push
	sideClass    // Client::push
)

// classSide reports whether r is declared on its class, not its instances:
// a static method, or a Ruby class method (def self.x, class << self).
func classSide(r *symbolRow) bool {
	if !strings.Contains(r.Signature, `"static"`) && !strings.Contains(r.Signature, `"class"`) {
		return false
	}
	var sig struct {
		Modifiers []string `json:"modifiers"`
	}
	return json.Unmarshal([]byte(r.Signature), &sig) == nil &&
		(slices.Contains(sig.Modifiers, "static") || slices.Contains(sig.Modifiers, "class"))
}

// overloadStub reports whether r only declares one call shape of an
// overloaded function (Python's @overload stubs, TypeScript's overload
// signatures): the implementation beside it is the code a name means.
func overloadStub(r *symbolRow) bool {
	if !strings.Contains(r.Signature, `"overload"`) {
		return false
	}
	var sig struct {
		Modifiers []string `json:"modifiers"`
	}
	return json.Unmarshal([]byte(r.Signature), &sig) == nil && slices.Contains(sig.Modifiers, "overload")
}

// dropNested drops, when a symbol's qualified name is the reference, the
// symbols of that name nested in it: hono's csrf middleware returns an inner
// function csrf (csrf.csrf), and "csrf" means the middleware.
func dropNested(rs []*symbolRow, name string) []*symbolRow {
	outer := false
	for _, r := range rs {
		outer = outer || r.Qualified == name
	}
	if !outer {
		return rs
	}
	var out []*symbolRow
	for _, r := range rs {
		if !strings.HasPrefix(r.Qualified, name+".") {
			out = append(out, r)
		}
	}
	return out
}

// narrow keeps the elements that pass when some do.
func narrow(rs []*symbolRow, keep func(*symbolRow) bool) []*symbolRow {
	var out []*symbolRow
	for _, r := range rs {
		if keep(r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return rs
	}
	return out
}

// pathMatches reports whether want names path: equal, or a suffix at a
// path boundary.
func pathMatches(path, want string) bool {
	want = strings.TrimPrefix(strings.ReplaceAll(want, "\\", "/"), "./")
	return path == want || strings.HasSuffix(path, "/"+want)
}

func validKind(k string) bool {
	for _, v := range lang.Kinds {
		if v == k {
			return true
		}
	}
	return false
}

// CardOptions shape cards.
type CardOptions struct {
	Detail                    string
	MinCallConfidence         float64
	IncludeResolutionMetadata bool

	// outEdges, when set, receives the resolved edges from each symbol,
	// whatever their confidence (a slice's edges among its cards)
	outEdges map[string][]outEdge
	// callerRows, when set, are current symbols a slice's ranking read
	// (file and line): with the edges it read (graphCache), they order
	// the callers of a card without reading them again (graphCallers)
	callerRows map[string]*symbolRow
	// unnamed are the rows of callerRows that hold no qualified name
	unnamed map[string]*symbolRow
}

// outEdge is a resolved edge from a symbol as its card's query reads it.
type outEdge struct {
	dst, kind string
	conf      float64
	rowid     int64
}

// parallelBatch is the size from which the parts of a batch of cards are
// read at once.
const parallelBatch = 4

// goIf runs f in wg when async, else now.
func goIf(wg *sync.WaitGroup, async bool, f func()) {
	if async {
		wg.Go(f)
	} else {
		f()
	}
}

// cards builds cards for symbols, in the order given.
func (x *Index) cards(ctx context.Context, rows []*symbolRow, opts CardOptions, ver string) ([]*Card, error) {
	if opts.Detail == "" {
		opts.Detail = DetailFull
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	// The etag is a hash of the full card whatever the detail asked for,
	// so an etag from any detail level can be used in a conditional request.
	// The parts of a batch are read at once, each on a connection (for a
	// card or two that costs more than it saves).
	var deps map[string]*Deps
	var metrics map[string]*Metrics
	var clusters map[string]*Cluster
	var procs map[string][]Process
	var depsErr, metricsErr, procsErr error
	var wg sync.WaitGroup
	goIf(&wg, len(rows) >= parallelBatch, func() { metrics, clusters, metricsErr = x.metrics(ctx, rows) })
	goIf(&wg, len(rows) >= parallelBatch, func() { procs, procsErr = x.processes(ctx, ids) })
	deps, depsErr = x.deps(ctx, rows, opts, true)
	wg.Wait()
	for _, err := range []error{depsErr, metricsErr, procsErr} {
		if err != nil {
			return nil, err
		}
	}
	lvl := detailRank[opts.Detail]
	out := make([]*Card, len(rows))
	for i, r := range rows {
		full := x.fullCard(r, deps[r.ID], metrics[r.ID], clusters[r.ID], procs[r.ID])
		etag := etagOf(full)
		var c *Card
		if lvl >= detailRank[DetailFull] {
			c = full
		} else {
			c = briefCard(full, opts.Detail)
		}
		c.Detail, c.Etag = opts.Detail, etag
		c.Version = &CardVersion{LedgerVersion: ver, ASTFingerprint: r.Fingerprint}
		out[i] = c
	}
	return out, nil
}

// briefCard cuts a full card down to a lower detail level. Below full, a
// card spends no tokens on what its other fields already say: columns,
// the exported flag (visibility says it), parsed parameters (the signature
// text shows them), dependency ids and confidences of 0.9 and above.
func briefCard(full *Card, detail string) *Card {
	lvl := detailRank[detail]
	c := &Card{SymbolID: full.SymbolID, Name: full.Name, Kind: full.Kind, File: full.File, Container: full.Container,
		Range: Range{StartLine: full.Range.StartLine, EndLine: full.Range.EndLine}, IsTest: full.IsTest}
	if lvl >= detailRank[DetailSignature] {
		c.Visibility = full.Visibility
		c.Signature = compactSignature(full.Signature)
	}
	if lvl >= detailRank[DetailDeps] && full.Deps != nil {
		d := &Deps{Imports: full.Deps.Imports}
		n := len(full.Deps.Calls)
		if lvl == detailRank[DetailCompact] {
			n = min(n, 6)
			d.Imports = nil
		}
		for _, dep := range full.Deps.Calls[:n] {
			dep.SymbolID = ""
			dep.Label = strings.TrimSuffix(dep.Label, " ("+full.File+")")
			if dep.Confidence >= 0.9 {
				dep.Confidence = 0
			}
			d.Calls = append(d.Calls, dep)
		}
		if len(d.Calls) > 0 || len(d.Imports) > 0 {
			c.Deps = d
		}
	}
	if lvl == detailRank[DetailCompact] {
		c.Summary = full.Summary
		c.Invariants, c.SideEffects = firstN(full.Invariants, 2), firstN(full.SideEffects, 2)
	}
	return c
}

// fullCard is the card at full detail, without etag and version.
func (x *Index) fullCard(r *symbolRow, d *Deps, m *Metrics, cl *Cluster, ps []Process) *Card {
	exported := r.Exported
	c := &Card{SymbolID: r.ID, Name: r.Name, Kind: r.Kind, File: r.Path, Range: r.Range, Container: r.Container,
		Exported: &exported, Visibility: r.Visibility, Summary: r.Summary, Doc: r.Doc, IsTest: r.IsTest,
		Deps: d, Metrics: m, Cluster: cl, Processes: ps, RepoID: x.RepoID}
	if r.Signature != "" {
		var sig lang.Signature
		if json.Unmarshal([]byte(r.Signature), &sig) == nil {
			// generics shows the type parameters as written; typeParams is
			// resolution's reading of the same text, tokens a reader of the
			// card would pay twice
			sig.TypeParams = nil
			c.Signature = &sig
		}
	}
	c.Invariants = factTexts(r.Invariants)
	c.SideEffects = factTexts(r.SideEffects)
	if c.Doc == c.Summary || strings.TrimSuffix(c.Doc, ".") == strings.TrimSuffix(c.Summary, ".") {
		c.Doc = ""
	}
	return c
}

// compactSignature keeps the signature's text, or its parts when there is
// no text.
func compactSignature(s *lang.Signature) *lang.Signature {
	if s == nil {
		return nil
	}
	if s.Text != "" {
		return &lang.Signature{Text: s.Text}
	}
	return &lang.Signature{Params: s.Params, Returns: s.Returns}
}

func firstN[T any](s []T, n int) []T {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// factTexts renders stored facts as "text (evidence, line N)".
func factTexts(js string) []string {
	if js == "" {
		return nil
	}
	var fs []lang.Fact
	if json.Unmarshal([]byte(js), &fs) != nil {
		return nil
	}
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		s := f.Text
		if f.Kind != "guard" && f.Evidence != "" && !strings.Contains(s, f.Evidence) {
			s += " (" + f.Evidence + ")"
		}
		if f.Line > 0 {
			s += fmt.Sprintf(" [line %d]", f.Line)
		}
		out = append(out, s)
	}
	return out
}

// etagOf hashes a card's content.
func etagOf(c *Card) string {
	b, _ := json.Marshal(c)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// edgeRow is a current edge as read for cards and slices.
type edgeRow struct {
	src, dst, kind, name, qual, rule string
	confidence                       float64
	candidates, count, line          int
}

// maxCalledBy is how many callers a card lists.
const maxCalledBy = 20

// deps loads the labelled dependencies of symbols.
func (x *Index) deps(ctx context.Context, rows []*symbolRow, opts CardOptions, calledBy bool) (map[string]*Deps, error) {
	ids := make([]any, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	out := map[string]*Deps{}
	if len(ids) == 0 {
		return out, nil
	}
	// the callers on a connection of their own meanwhile
	var wg sync.WaitGroup
	var callers map[string][]Dep
	var callersErr error
	if calledBy {
		goIf(&wg, len(ids) >= parallelBatch, func() { callers, callersErr = x.callersOf(ctx, ids, opts) })
		defer wg.Wait() // on an early return
	}
	q := `SELECT e.src, COALESCE(e.dst, ''), e.kind, e.name, e.qual, e.rule, e.confidence, e.candidates, e.count, e.line,
		COALESCE(d.qualified, ''), COALESCE(dp.path, ''), e.rowid
		FROM edges e LEFT JOIN symbols d ON d.id = e.dst AND d.to_seq IS NULL LEFT JOIN paths dp ON dp.id = d.path_id
		WHERE e.to_seq IS NULL AND e.src IN (` + schema.Placeholders(len(ids)) + `) ORDER BY e.src, e.line, e.rowid`
	rs, err := x.DB.QueryContext(ctx, q, ids...)
	if err != nil {
		return nil, fmt.Errorf("load deps: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		var e edgeRow
		var dq, dpath string
		var rowid int64
		if err := rs.Scan(&e.src, &e.dst, &e.kind, &e.name, &e.qual, &e.rule, &e.confidence, &e.candidates, &e.count, &e.line, &dq, &dpath, &rowid); err != nil {
			return nil, err
		}
		if opts.outEdges != nil && e.dst != "" {
			opts.outEdges[e.src] = append(opts.outEdges[e.src], outEdge{dst: e.dst, kind: e.kind, conf: e.confidence, rowid: rowid})
		}
		d := out[e.src]
		if d == nil {
			d = &Deps{}
			out[e.src] = d
		}
		switch {
		case e.kind == "import":
			label := e.qual
			if e.name != "" {
				label += " " + e.name
			}
			if !slices.Contains(d.Imports, label) {
				d.Imports = append(d.Imports, label)
			}
		case e.dst != "":
			if e.confidence < opts.MinCallConfidence {
				continue
			}
			dep := Dep{SymbolID: e.dst, Label: dq + " (" + dpath + ")", Confidence: e.confidence}
			if e.kind != lang.RefCall {
				dep.Kind = e.kind
			}
			if opts.IncludeResolutionMetadata {
				dep.Resolution = resolutionOf(e)
			}
			d.Calls = append(d.Calls, dep)
		case e.rule == lang.RuleUnresolved || e.rule == lang.RuleAmbiguous:
			label := e.name
			if e.qual != "" {
				label = e.qual + "." + e.name
			}
			if len(d.Unresolved) < 10 && !slices.Contains(d.Unresolved, label) {
				d.Unresolved = append(d.Unresolved, label)
			}
		}
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	if calledBy {
		wg.Wait()
		if callersErr != nil {
			return nil, callersErr
		}
		for id, deps := range callers {
			d := out[id]
			if d == nil {
				d = &Deps{}
				out[id] = d
			}
			d.CalledBy = deps
		}
	}
	// a dependency listed twice (called on two lines) once
	for _, d := range out {
		d.Calls = dedupeDeps(d.Calls)
	}
	return out, nil
}

// callers loads the first maxCalledBy callers of each symbol, whatever
// else the batch holds: a card is the same in any batch and alone.
func (x *Index) callers(ctx context.Context, ids []any, opts CardOptions) (map[string][]Dep, error) {
	q := `SELECT dst, src, kind, rule, confidence, candidates, sq, spath FROM (
		SELECT e.dst, e.src, e.kind, e.rule, e.confidence, e.candidates, COALESCE(s.qualified, '') AS sq, COALESCE(sp.path, '') AS spath,
			row_number() OVER (PARTITION BY e.dst ORDER BY e.confidence DESC, sp.path, s.start_line, e.rowid) AS n
		FROM edges e JOIN symbols s ON s.id = e.src AND s.to_seq IS NULL JOIN paths sp ON sp.id = s.path_id
		WHERE e.to_seq IS NULL AND e.dst IN (` + schema.Placeholders(len(ids)) + `) AND e.kind != 'import' AND e.confidence >= ?)
		WHERE n <= ` + fmt.Sprint(maxCalledBy) + ` ORDER BY dst, n`
	rs, err := x.DB.QueryContext(ctx, q, append(ids[:len(ids):len(ids)], opts.MinCallConfidence)...)
	if err != nil {
		return nil, fmt.Errorf("load callers: %w", err)
	}
	defer rs.Close()
	out := map[string][]Dep{}
	for rs.Next() {
		var e edgeRow
		var sq, spath string
		if err := rs.Scan(&e.dst, &e.src, &e.kind, &e.rule, &e.confidence, &e.candidates, &sq, &spath); err != nil {
			return nil, err
		}
		dep := Dep{SymbolID: e.src, Label: sq + " (" + spath + ")", Confidence: e.confidence}
		if e.kind != lang.RefCall {
			dep.Kind = e.kind
		}
		if opts.IncludeResolutionMetadata {
			dep.Resolution = resolutionOf(e)
		}
		out[e.dst] = append(out[e.dst], dep)
	}
	return out, rs.Err()
}

// callersOf is callers, answered from what a slice's ranking read
// (graphCallers) when the card is part of a slice.
func (x *Index) callersOf(ctx context.Context, ids []any, opts CardOptions) (map[string][]Dep, error) {
	if opts.callerRows == nil || opts.IncludeResolutionMetadata {
		return x.callers(ctx, ids, opts)
	}
	return x.graphCallers(ctx, ids, opts)
}

// graphCallers gives ids their first maxCalledBy callers in the order of
// callers' query (confidence, then file, line and row) from the edges
// and rows a slice's ranking read (graphCache, opts.callerRows). What it
// lacks it reads by key: the edges into the ids ranking did not reach
// (edgesInto), and the rows of the callers it did not read (rankRows; a
// caller without one is not current, which callers' query leaves out),
// and the qualified names of the callers chosen whose rows hold none
// (opts.unnamed). Unlike callers' query, it does not read the file and
// line of every caller of a symbol called from hundreds of places again.
func (x *Index) graphCallers(ctx context.Context, ids []any, opts CardOptions) (map[string][]Dep, error) {
	type caller struct {
		e graphEdge
		r *symbolRow
	}
	strs := make([]string, len(ids))
	for i, id := range ids {
		strs[i] = id.(string)
	}
	edges, missing := x.graphCache.edgesOf(strs)
	if len(missing) > 0 {
		into, err := x.edgesInto(ctx, missing)
		if err != nil {
			return nil, err
		}
		for id, es := range into {
			edges[id] = es
		}
	}
	// the callers of each id, and the rows ranking did not read
	all := map[string][]graphEdge{}
	var unread []string
	seen := map[string]bool{}
	for _, id := range strs {
		for _, e := range edges[id] {
			if e.dst != id || e.kind == "import" || e.conf < opts.MinCallConfidence {
				continue
			}
			all[id] = append(all[id], e)
			if opts.callerRows[e.src] == nil && !seen[e.src] {
				seen[e.src] = true
				unread = append(unread, e.src)
			}
		}
	}
	read, err := x.rankRows(ctx, unread, nil)
	if err != nil {
		return nil, err
	}
	rowOf := func(id string) *symbolRow {
		if r := opts.callerRows[id]; r != nil {
			return r
		}
		return read[id]
	}
	chosen := make(map[string][]caller, len(all))
	var labels []string
	for _, id := range strs {
		var cs []caller
		for _, e := range all[id] {
			if r := rowOf(e.src); r != nil {
				cs = append(cs, caller{e, r})
			}
		}
		if len(cs) == 0 {
			continue
		}
		sort.Slice(cs, func(i, j int) bool {
			a, b := cs[i], cs[j]
			if a.e.conf != b.e.conf {
				return a.e.conf > b.e.conf
			}
			if a.r.Path != b.r.Path {
				return a.r.Path < b.r.Path
			}
			if a.r.Range.StartLine != b.r.Range.StartLine {
				return a.r.Range.StartLine < b.r.Range.StartLine
			}
			return a.e.rowid < b.e.rowid
		})
		cs = cs[:min(len(cs), maxCalledBy)]
		chosen[id] = cs
		for _, c := range cs {
			if opts.unnamed[c.e.src] != nil && opts.callerRows[c.e.src] == opts.unnamed[c.e.src] {
				labels = append(labels, c.e.src)
			}
		}
	}
	qualified, err := x.qualifiedNames(ctx, labels)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]Dep, len(chosen))
	for id, cs := range chosen {
		for _, c := range cs {
			q := c.r.Qualified
			if n, ok := qualified[c.e.src]; ok {
				q = n
			}
			dep := Dep{SymbolID: c.e.src, Label: q + " (" + c.r.Path + ")", Confidence: c.e.conf}
			if c.e.kind != lang.RefCall {
				dep.Kind = c.e.kind
			}
			out[id] = append(out[id], dep)
		}
	}
	return out, nil
}

// qualifiedNames reads the qualified names of current symbols.
func (x *Index) qualifiedNames(ctx context.Context, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	for chunk := range slices.Chunk(ids, schema.MaxInList) {
		args := schema.Args(chunk)
		rows, err := x.DB.QueryContext(ctx, `SELECT id, COALESCE(qualified, '') FROM symbols
			WHERE to_seq IS NULL AND id IN (`+schema.Placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("load callers' names: %w", err)
		}
		for rows.Next() {
			var id, q string
			if err := rows.Scan(&id, &q); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = q
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func dedupeDeps(ds []Dep) []Dep {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := d.SymbolID + d.Kind
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}

var ruleReason = map[string]string{
	lang.RuleSameFile:    "defined in the same file",
	lang.RuleImport:      "bound by an import of the calling file",
	lang.RuleReceiver:    "a method of the receiver's or a typed variable's type",
	lang.RuleSamePackage: "defined in the same package or module",
	lang.RuleUniqueName:  "the only symbol of that name in the repository",
	lang.RulePrecise:     "proven by a type checker or SCIP index",
	lang.RuleTypes:       "proven by the Go type checker (go/types)",
	lang.RuleSCIP:        "proven by an imported SCIP index",
}

func resolutionOf(e edgeRow) *Resolution {
	phase := "heuristic"
	if lang.IsPrecise(e.rule) {
		phase = "precise"
	}
	return &Resolution{Rule: e.rule, Phase: phase, Reason: ruleReason[e.rule], Candidates: e.candidates}
}

// metrics loads metrics and clusters.
func (x *Index) metrics(ctx context.Context, rows []*symbolRow) (map[string]*Metrics, map[string]*Cluster, error) {
	ms := map[string]*Metrics{}
	cs := map[string]*Cluster{}
	if len(rows) == 0 {
		return ms, cs, nil
	}
	args := make([]any, len(rows))
	for i, r := range rows {
		args[i] = r.ID
		ms[r.ID] = &Metrics{}
	}
	q := `SELECT m.id, m.fan_in, m.fan_out, m.test_refs, m.nearest_test, COALESCE(c.id, 0), COALESCE(c.label, ''), COALESCE(c.member_count, 0)
		FROM metrics m LEFT JOIN clusters c ON c.id = m.cluster_id WHERE m.id IN (` + schema.Placeholders(len(args)) + `)`
	rs, err := x.DB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("load metrics: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		var id string
		var m Metrics
		var c Cluster
		if err := rs.Scan(&id, &m.FanIn, &m.FanOut, &m.TestRefs, &m.CanonicalTest, &c.ClusterID, &c.Label, &c.MemberCount); err != nil {
			return nil, nil, err
		}
		*ms[id] = m
		if c.ClusterID > 0 {
			cs[id] = &c
		}
	}
	if err := rs.Err(); err != nil {
		return nil, nil, err
	}
	// churn is per file
	paths := map[string]bool{}
	for _, r := range rows {
		paths[r.Path] = true
	}
	pargs := make([]any, 0, len(paths))
	for p := range paths {
		pargs = append(pargs, p)
	}
	rs2, err := x.DB.QueryContext(ctx, `SELECT p.path, fm.churn FROM file_metrics fm JOIN paths p ON p.id = fm.path_id
		WHERE p.path IN (`+schema.Placeholders(len(pargs))+`)`, pargs...)
	if err != nil {
		return nil, nil, err
	}
	defer rs2.Close()
	churn := map[string]int{}
	for rs2.Next() {
		var p string
		var n int
		if err := rs2.Scan(&p, &n); err != nil {
			return nil, nil, err
		}
		churn[p] = n
	}
	for _, r := range rows {
		ms[r.ID].Churn30d = churn[r.Path]
	}
	return ms, cs, rs2.Err()
}

// processes loads the call chains symbols take part in.
func (x *Index) processes(ctx context.Context, ids []string) (map[string][]Process, error) {
	out := map[string][]Process{}
	if len(ids) == 0 {
		return out, nil
	}
	args := schema.Args(ids)
	rs, err := x.DB.QueryContext(ctx, `SELECT s.symbol_id, p.id, p.label, s.role, s.depth FROM process_steps s
		JOIN processes p ON p.id = s.process_id WHERE s.symbol_id IN (`+schema.Placeholders(len(ids))+`) ORDER BY s.symbol_id, p.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("load processes: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		var id string
		var p Process
		if err := rs.Scan(&id, &p.ProcessID, &p.Label, &p.Role, &p.Depth); err != nil {
			return nil, err
		}
		if len(out[id]) < 5 {
			out[id] = append(out[id], p)
		}
	}
	return out, rs.Err()
}

// CardRequest asks for one card (sdl.symbol.getCard).
type CardRequest struct {
	SymbolID                  string     `json:"symbolId,omitempty"`
	SymbolRef                 *SymbolRef `json:"symbolRef,omitempty"`
	IfNoneMatch               string     `json:"ifNoneMatch,omitempty"`
	MinCallConfidence         float64    `json:"minCallConfidence,omitempty"`
	IncludeResolutionMetadata bool       `json:"includeResolutionMetadata,omitempty"`
	Detail                    string     `json:"detail,omitempty"`
}

// NotModified answers a conditional request whose ETag still matches.
type NotModified struct {
	NotModified   bool   `json:"notModified"`
	SymbolID      string `json:"symbolId,omitempty"`
	Etag          string `json:"etag"`
	LedgerVersion string `json:"ledgerVersion"`
}

// Card returns one card, or a NotModified when ifNoneMatch matches.
func (x *Index) Card(ctx context.Context, req CardRequest) (any, error) {
	if (req.SymbolID == "") == (req.SymbolRef == nil) {
		return nil, invalidf("symbolId/symbolRef", "provide exactly one: a symbolId, or a symbolRef {name, file?, kind?}")
	}
	if req.Detail != "" && !ValidDetail(req.Detail) {
		return nil, invalidf("detail", "%q is not a detail level; use minimal, signature, deps, compact or full", req.Detail)
	}
	if req.MinCallConfidence < 0 || req.MinCallConfidence > 1 {
		return nil, invalidf("minCallConfidence", "must be between 0 and 1")
	}
	ver, err := x.Current(ctx)
	if err != nil {
		return nil, err
	}
	var row *symbolRow
	if req.SymbolID != "" {
		rows, err := x.symbols(ctx, []string{req.SymbolID})
		if err != nil {
			return nil, err
		}
		if row = rows[req.SymbolID]; row == nil {
			return nil, fmt.Errorf("%w: no current symbol has id %q (ids change when a symbol moves to another file; try sdl.symbol.search)", ErrNotFound, req.SymbolID)
		}
	} else if row, err = x.Resolve(ctx, *req.SymbolRef); err != nil {
		return nil, err
	}
	cards, err := x.cards(ctx, []*symbolRow{row}, CardOptions{Detail: req.Detail, MinCallConfidence: req.MinCallConfidence,
		IncludeResolutionMetadata: req.IncludeResolutionMetadata}, ver.ID)
	if err != nil {
		return nil, err
	}
	if req.IfNoneMatch != "" && req.IfNoneMatch == cards[0].Etag {
		return &NotModified{NotModified: true, SymbolID: row.ID, Etag: cards[0].Etag, LedgerVersion: ver.ID}, nil
	}
	return cards[0], nil
}

// CardsRequest asks for several cards (sdl.symbol.getCards).
type CardsRequest struct {
	SymbolIDs                 []string          `json:"symbolIds,omitempty"`
	SymbolRefs                []SymbolRef       `json:"symbolRefs,omitempty"`
	KnownEtags                map[string]string `json:"knownEtags,omitempty"`
	MinCallConfidence         float64           `json:"minCallConfidence,omitempty"`
	IncludeResolutionMetadata bool              `json:"includeResolutionMetadata,omitempty"`
	Detail                    string            `json:"detail,omitempty"`
}

// CardsResponse holds the cards (or NotModified entries) in request order
// and the per-symbol failures.
type CardsResponse struct {
	Cards         []any     `json:"cards"`
	Partial       bool      `json:"partial"`
	Succeeded     []string  `json:"succeeded"`
	Failed        []string  `json:"failed"`
	Failures      []Failure `json:"failures,omitempty"`
	LedgerVersion string    `json:"ledgerVersion"`
}

// Failure says why one symbol of a batch failed and what to call instead.
type Failure struct {
	Input          string      `json:"input"`
	Classification string      `json:"classification"` // not_found, ambiguous, invalid
	Message        string      `json:"message"`
	Candidates     []Candidate `json:"candidates,omitempty"`
	FallbackTools  []string    `json:"fallbackTools"`
}

// Cards returns a batch of cards; each symbol succeeds or fails alone.
func (x *Index) Cards(ctx context.Context, req CardsRequest) (*CardsResponse, error) {
	n := len(req.SymbolIDs) + len(req.SymbolRefs)
	if (len(req.SymbolIDs) == 0) == (len(req.SymbolRefs) == 0) {
		return nil, invalidf("symbolIds/symbolRefs", "provide exactly one of the two, with 1 to 100 entries")
	}
	if n > 100 {
		return nil, invalidf("symbolIds/symbolRefs", "at most 100 entries, got %d; split the batch", n)
	}
	if req.Detail != "" && !ValidDetail(req.Detail) {
		return nil, invalidf("detail", "%q is not a detail level; use minimal, signature, deps, compact or full", req.Detail)
	}
	ver, err := x.Current(ctx)
	if err != nil {
		return nil, err
	}
	resp := &CardsResponse{Cards: []any{}, Succeeded: []string{}, Failed: []string{}, LedgerVersion: ver.ID}
	var rows []*symbolRow
	var inputs []string
	if len(req.SymbolIDs) > 0 {
		found, err := x.symbols(ctx, req.SymbolIDs)
		if err != nil {
			return nil, err
		}
		for _, id := range req.SymbolIDs {
			if r := found[id]; r != nil {
				rows = append(rows, r)
				inputs = append(inputs, id)
			} else {
				resp.Failed = append(resp.Failed, id)
				resp.Failures = append(resp.Failures, Failure{Input: id, Classification: "not_found",
					Message: "no current symbol has this id", FallbackTools: []string{"sdl.symbol.search"}})
			}
		}
	} else {
		for _, ref := range req.SymbolRefs {
			r, err := x.Resolve(ctx, ref)
			var amb *AmbiguousError
			switch {
			case err == nil:
				rows = append(rows, r)
				inputs = append(inputs, ref.String())
			case errors.As(err, &amb):
				resp.Failed = append(resp.Failed, ref.String())
				resp.Failures = append(resp.Failures, Failure{Input: ref.String(), Classification: "ambiguous", Message: err.Error(),
					Candidates: amb.Candidates, FallbackTools: []string{"sdl.symbol.getCard", "sdl.symbol.search"}})
			case errors.Is(err, ErrNotFound), errors.Is(err, ErrInvalid):
				class := "not_found"
				if errors.Is(err, ErrInvalid) {
					class = "invalid"
				}
				resp.Failed = append(resp.Failed, ref.String())
				resp.Failures = append(resp.Failures, Failure{Input: ref.String(), Classification: class, Message: err.Error(),
					FallbackTools: []string{"sdl.symbol.search"}})
			default:
				return nil, err
			}
		}
	}
	cards, err := x.cards(ctx, rows, CardOptions{Detail: req.Detail, MinCallConfidence: req.MinCallConfidence,
		IncludeResolutionMetadata: req.IncludeResolutionMetadata}, ver.ID)
	if err != nil {
		return nil, err
	}
	for i, c := range cards {
		if et, ok := req.KnownEtags[c.SymbolID]; ok && et == c.Etag {
			resp.Cards = append(resp.Cards, &NotModified{NotModified: true, SymbolID: c.SymbolID, Etag: c.Etag, LedgerVersion: ver.ID})
		} else {
			resp.Cards = append(resp.Cards, c)
		}
		resp.Succeeded = append(resp.Succeeded, inputs[i])
	}
	resp.Partial = len(resp.Failed) > 0
	sort.SliceStable(resp.Failures, func(i, j int) bool { return false })
	return resp, nil
}
