package query

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// RiskFormula is how sdl.pr.risk.analyze scores a change; `sdl risk
// --explain` prints it. Keep it and the code below in step.
const RiskFormula = `riskScore (0-100) = round(sum of weight x factor), each factor between 0 and 1,
  and never below the score of the worst finding (one critical finding makes a critical change):

  factor       weight  value
  breaking       25    min(1, B/3)   B = changed symbols whose signature breaks callers (a parameter
                                     removed, a required one added, a type, the returns, the receiver
                                     or the type parameters changed, a member removed, no longer
                                     exported) and that were exported or had callers, plus changed
                                     interfaces and interface members
  removed        15    min(1, R/3)   R = removed symbols that had dependents at the old version
  fanIn          20    min(1, log2(1+F)/log2(65))   F = the largest fan-in (distinct callers, before
                                     or after) among the modified (beyond their doc), renamed, moved and
                                     removed non-test symbols
  radius         15    min(1, log2(1+D)/log2(257))  D = distinct symbols that depend on a change,
                                     within maxDepth edges (calls, new, imports, implements, extends),
                                     not counting tests and the changed symbols themselves
  behavior       10    min(1, S/3)   S = modified or renamed symbols whose side effects or invariants changed
  tests          15    U/C           U = changed code symbols (functions, methods, constructors; not
                                     tests, interface members or pure moves) that no test reaches within
                                     maxDepth, C = all of them (0 when C = 0)

Findings, each scored 0-100 (severity: critical >= 85, high >= 70, medium >= 40, else low):
  dangling-reference  95: a removed or renamed symbol whose callers still name it and no longer resolve
  removed-symbol      50 + 10 if exported + min(30, 10 log2(1+dependents)); an exported symbol nothing used: 20
  breaking-signature  55 + 15 if exported + min(20, 5 log2(1+fanIn))
  interface-change    65 + min(25, 8 log2(1+dependents))   an interface member added, removed or changed, or
                                                           an interface changed in more than its members
  high-fan-in         min(85, 30 + 10 log2(fanIn))         a modified (beyond its doc), renamed or moved
                                                           symbol with fan-in >= 5
  side-effect-change  min(85, 35 + 10 n + 10 if exported)  n side effects added or removed
  invariant-removed   min(75, 35 + 10 n)                   n guards or throws removed
  large-radius        min(90, 10 + 10 log2(D))             D >= 16
  missing-tests       30 + 15 if exported + min(20, 5 log2(1+fanIn))   a changed code symbol no test reaches

escalationRequired = riskScore >= riskThreshold (default 70), or the decision is deny.
riskThreshold also filters the findings returned: those scored at or above it (all when it is not given).
policyDecision:
  deny    a dangling-reference finding, or riskScore >= 90
  review  escalationRequired, or a finding scored >= 70
  allow   otherwise
  deniedReasons says why the decision is not allow.
  auditHash = sha256 of the canonical JSON (struct field order, sorted map keys) of the analysis with
  every finding, the decision, its reasons, the threshold and the hashes of both ledger versions.

recommendedTests: the test symbols that reach a changed symbol over incoming edges within maxDepth
(the recursive radius query), and the tests the change itself touched, most changes reached first.`

// Risk defaults.
const (
	DefaultRiskThreshold = 70
	denyScore            = 90
)

// RiskRequest is sdl.pr.risk.analyze.
type RiskRequest struct {
	FromVersion   string   `json:"fromVersion"`
	ToVersion     string   `json:"toVersion"`
	RiskThreshold *float64 `json:"riskThreshold,omitempty"`
	MaxDepth      int      `json:"maxDepth,omitempty"`
	// MaxFindings and MaxTests bound the lists returned (default 50 and
	// 100; negative: all). The audit hash covers every finding anyway.
	MaxFindings int `json:"maxFindings,omitempty"`
	MaxTests    int `json:"maxTests,omitempty"`
}

// RiskResponse is a scored change.
type RiskResponse struct {
	Analysis           *RiskAnalysis  `json:"analysis"`
	EscalationRequired bool           `json:"escalationRequired"`
	PolicyDecision     PolicyDecision `json:"policyDecision"`
}

// RiskAnalysis is what a change risks.
type RiskAnalysis struct {
	FromVersion string       `json:"fromVersion"`
	ToVersion   string       `json:"toVersion"`
	FromCommit  string       `json:"fromCommit,omitempty"`
	ToCommit    string       `json:"toCommit,omitempty"`
	RiskScore   int          `json:"riskScore"`
	RiskLevel   string       `json:"riskLevel"`
	Factors     []RiskFactor `json:"factors"`
	Summary     DeltaSummary `json:"summary"`
	Findings    []Finding    `json:"findings"`
	// FindingsBelowThreshold counts the findings riskThreshold left out,
	// FindingsOmitted those maxFindings did.
	FindingsBelowThreshold int               `json:"findingsBelowThreshold,omitempty"`
	FindingsOmitted        int               `json:"findingsOmitted,omitempty"`
	RecommendedTests       []RecommendedTest `json:"recommendedTests"`
	// TestsOmitted counts the recommended tests maxTests left out.
	TestsOmitted int `json:"testsOmitted,omitempty"`
	// TestCommands run the recommended tests, where sdl knows how (Go, Python).
	TestCommands  []string    `json:"testCommands,omitempty"`
	TopDependents []Dependent `json:"topDependents"`
	Amplifiers    []Amplifier `json:"amplifiers"`
	MaxDepth      int         `json:"maxDepth"`
	// RadiusTruncated says the radius query hit its row limit.
	RadiusTruncated bool `json:"radiusTruncated,omitempty"`
}

// RiskFactor is one term of the score.
type RiskFactor struct {
	Name   string  `json:"name"`
	Weight int     `json:"weight"`
	Value  float64 `json:"value"`
	Points float64 `json:"points"`
	Detail string  `json:"detail"`
}

// Finding is one risk the change carries.
type Finding struct {
	Kind     string         `json:"kind"`
	Severity string         `json:"severity"`
	Score    int            `json:"score"`
	SymbolID string         `json:"symbolId,omitempty"`
	Name     string         `json:"name,omitempty"`
	File     string         `json:"file,omitempty"`
	Message  string         `json:"message"`
	Evidence map[string]any `json:"evidence,omitempty"`
}

// RecommendedTest is a test to run for the change.
type RecommendedTest struct {
	SymbolID string `json:"symbolId"`
	Name     string `json:"name"`
	File     string `json:"file"`
	// Distance is the fewest edges from the test to a changed symbol; 0
	// for a test the change touched.
	Distance int `json:"distance"`
	// Reaches names up to five of the changed symbols it reaches;
	// ReachCount counts them all.
	Reaches    []string `json:"reaches,omitempty"`
	ReachCount int      `json:"reachCount"`
	Changed    bool     `json:"changed,omitempty"`
}

// PolicyDecision is what CI should do with the change.
type PolicyDecision struct {
	Decision      string   `json:"decision"` // allow, review, deny
	DeniedReasons []string `json:"deniedReasons"`
	AuditHash     string   `json:"auditHash"`
}

func severityOf(score int) string {
	switch {
	case score >= 85:
		return "critical"
	case score >= 70:
		return "high"
	case score >= 40:
		return "medium"
	}
	return "low"
}

func clampScore(f float64) int { return int(math.Round(math.Max(0, math.Min(100, f)))) }

func log2p(n int) float64 { return math.Log2(1 + float64(n)) }

func isCodeKind(k string) bool {
	return k == lang.KindFunction || k == lang.KindMethod || k == lang.KindConstructor
}

// AnalyzeRisk answers sdl.pr.risk.analyze.
func (x *Index) AnalyzeRisk(ctx context.Context, req RiskRequest) (*RiskResponse, error) {
	from, err := x.ResolveVersion(ctx, "fromVersion", req.FromVersion)
	if err != nil {
		return nil, err
	}
	to, err := x.ResolveVersion(ctx, "toVersion", req.ToVersion)
	if err != nil {
		return nil, err
	}
	threshold := float64(DefaultRiskThreshold)
	if req.RiskThreshold != nil {
		threshold = *req.RiskThreshold
		if threshold < 0 || threshold > 100 {
			return nil, invalidf("riskThreshold", "must be between 0 and 100, got %v", threshold)
		}
	}
	depth, err := radiusDepth(req.MaxDepth)
	if err != nil {
		return nil, err
	}
	d, err := x.computeDelta(ctx, from, to, deltaOptions{depth: depth})
	if err != nil {
		return nil, err
	}
	parents, err := x.parentKinds(ctx, d)
	if err != nil {
		return nil, err
	}
	a := &RiskAnalysis{FromVersion: from.ID, ToVersion: to.ID, FromCommit: from.GitCommit, ToCommit: to.GitCommit,
		Summary: d.summary, MaxDepth: depth, RadiusTruncated: d.truncated, Amplifiers: d.amplifiers}
	if a.Amplifiers == nil {
		a.Amplifiers = []Amplifier{}
	}
	findings, factors := scoreDelta(d, parents)
	a.Factors = factors
	points := 0.0
	for _, f := range factors {
		points += f.Points
	}
	a.RiskScore = clampScore(points)
	for _, f := range findings {
		a.RiskScore = max(a.RiskScore, f.Score)
	}
	a.RiskLevel = severityOf(a.RiskScore)
	a.RecommendedTests = recommendedTests(d)
	a.TestCommands = testCommands(a.RecommendedTests)
	a.TopDependents = d.radius[:min(10, len(d.radius))]
	if a.TopDependents == nil {
		a.TopDependents = []Dependent{}
	}

	resp := &RiskResponse{Analysis: a, EscalationRequired: float64(a.RiskScore) >= threshold}
	pd := PolicyDecision{Decision: "allow", DeniedReasons: []string{}}
	for _, f := range findings {
		if f.Kind == "dangling-reference" {
			pd.Decision = "deny"
			pd.DeniedReasons = append(pd.DeniedReasons, f.Message)
		}
	}
	if a.RiskScore >= denyScore {
		pd.Decision = "deny"
		pd.DeniedReasons = append(pd.DeniedReasons, fmt.Sprintf("risk score %d is at or above %d", a.RiskScore, denyScore))
	}
	if pd.Decision == "deny" {
		resp.EscalationRequired = true // what is denied is escalated, whatever the threshold
	} else {
		if resp.EscalationRequired {
			pd.Decision = "review"
			pd.DeniedReasons = append(pd.DeniedReasons, fmt.Sprintf("risk score %d is at or above the threshold %v", a.RiskScore, threshold))
		}
		for _, f := range findings {
			if f.Score >= 70 {
				pd.Decision = "review"
				pd.DeniedReasons = append(pd.DeniedReasons, fmt.Sprintf("%s finding: %s", f.Severity, f.Message))
			}
		}
	}
	// the audit covers every finding, whatever the threshold shows
	a.Findings = findings
	audit := struct {
		FromHash  string        `json:"fromHash"`
		ToHash    string        `json:"toHash"`
		Threshold float64       `json:"threshold"`
		Analysis  *RiskAnalysis `json:"analysis"`
		Decision  string        `json:"decision"`
		Reasons   []string      `json:"reasons"`
	}{from.Hash, to.Hash, threshold, a, pd.Decision, pd.DeniedReasons}
	js, err := json.Marshal(audit)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	sum := sha256.Sum256(js)
	pd.AuditHash = hex.EncodeToString(sum[:])
	resp.PolicyDecision = pd

	if req.RiskThreshold != nil {
		var kept []Finding
		for _, f := range findings {
			if float64(f.Score) >= threshold {
				kept = append(kept, f)
			}
		}
		a.FindingsBelowThreshold = len(findings) - len(kept)
		a.Findings = kept
	}
	maxF, maxT := req.MaxFindings, req.MaxTests
	if maxF == 0 {
		maxF = 50
	}
	if maxT == 0 {
		maxT = 100
	}
	if maxF > 0 && len(a.Findings) > maxF {
		a.FindingsOmitted = len(a.Findings) - maxF
		a.Findings = a.Findings[:maxF]
	}
	if maxT > 0 && len(a.RecommendedTests) > maxT {
		a.TestsOmitted = len(a.RecommendedTests) - maxT
		a.RecommendedTests = a.RecommendedTests[:maxT]
	}
	if a.Findings == nil {
		a.Findings = []Finding{}
	}
	return resp, nil
}

// parentKinds maps each changed symbol's parent id to its kind, at the
// version the symbol is read from.
func (x *Index) parentKinds(ctx context.Context, d *deltaSet) (map[string]string, error) {
	var fromIDs, toIDs []string
	for _, c := range d.changes {
		if c.before != nil && c.before.ParentID != "" {
			fromIDs = append(fromIDs, c.before.ParentID)
		}
		if c.after != nil && c.after.ParentID != "" {
			toIDs = append(toIDs, c.after.ParentID)
		}
	}
	out := map[string]string{}
	for _, v := range []struct {
		seq int64
		ids []string
	}{{d.from.Seq, fromIDs}, {d.to.Seq, toIDs}} {
		syms, err := x.symbolsAt(ctx, v.seq, v.ids)
		if err != nil {
			return nil, err
		}
		for id, s := range syms {
			out[id] = s.Kind
		}
	}
	return out, nil
}

// scoreDelta computes the findings and the factors of RiskFormula.
func scoreDelta(d *deltaSet, parents map[string]string) ([]Finding, []RiskFactor) {
	var fs []Finding
	add := func(kind string, score float64, c *SymbolChange, msg string, ev map[string]any) {
		f := Finding{Kind: kind, Score: clampScore(score), Message: msg, Evidence: ev}
		f.Severity = severityOf(f.Score)
		if c != nil {
			f.SymbolID, f.Name, f.File = c.SymbolID, c.Name, c.File
		}
		fs = append(fs, f)
	}
	var breaking, removed, behavior, codeChanged, untested, maxFanIn int
	var maxFanInName string
	for _, c := range d.changes {
		fanIn := 0
		if c.FanIn != nil {
			fanIn = max(c.FanIn.Before, c.FanIn.After)
		}
		dependents := 0
		if c.BlastRadius != nil {
			dependents = c.BlastRadius.Total
		}
		if c.Change != ChangeAdded && !c.IsTest && semantic(c) && fanIn > maxFanIn {
			maxFanIn, maxFanInName = fanIn, c.Name
		}
		b := bool2f(c.Exported)
		interfaceish := c.Kind == lang.KindInterface ||
			(c.before != nil && parents[c.before.ParentID] == lang.KindInterface) ||
			(c.after != nil && parents[c.after.ParentID] == lang.KindInterface)
		if c.dangling > 0 {
			what := "removed"
			switch c.Change {
			case ChangeRenamed:
				what = "renamed from " + c.Previous.Name
			case ChangeMoved:
				what = "moved from " + c.Previous.File
			}
			add("dangling-reference", 95, c, fmt.Sprintf("%s was %s but %d caller(s) still reference the old name and no longer resolve",
				c.Name, what, c.dangling), map[string]any{"danglingCallers": c.dangling, "dependents": dependents, "change": c.Change})
		}
		switch c.Change {
		case ChangeRemoved:
			switch {
			case c.dangling > 0:
				removed++
			case dependents > 0:
				removed++
				add("removed-symbol", 50+10*b+math.Min(30, 10*log2p(dependents)), c,
					fmt.Sprintf("%s was removed; %d symbol(s) depended on it", c.Name, dependents),
					map[string]any{"dependents": dependents, "exported": c.Exported})
			case c.Exported && !c.IsTest:
				add("removed-symbol", 20, c, fmt.Sprintf("exported %s was removed; nothing in the repository used it", c.Name),
					map[string]any{"dependents": 0, "exported": true})
			}
		}
		switch {
		case interfaceish && c.Change == ChangeAdded:
			if c.Kind == lang.KindMethod {
				breaking++
				add("interface-change", 65+math.Min(25, 8*log2p(dependents)), c,
					fmt.Sprintf("method %s was added to an interface: every implementation must add it", c.Name),
					map[string]any{"change": c.Change})
			}
		case interfaceish && semantic(c) && !(c.Change != ChangeModified && len(c.Aspects) == 0 && c.Previous != nil && c.Previous.Name == c.Name):
			breaking++
			add("interface-change", 65+math.Min(25, 8*log2p(dependents)), c,
				fmt.Sprintf("%s %s (%s): implementations and callers of the interface may break", c.Kind, c.Name, c.Change),
				map[string]any{"change": c.Change, "dependents": dependents, "aspects": c.Aspects})
		}
		var reasons []string
		ev := map[string]any{"fanIn": fanIn, "exported": c.Exported}
		if sd := c.SignatureDiff; sd != nil && sd.Breaking {
			reasons = append(reasons, sd.Reasons...)
			ev["before"], ev["after"] = sd.Before, sd.After
		}
		if c.before != nil && c.after != nil && c.before.Exported && !c.after.Exported {
			reasons = append(reasons, "no longer exported")
		}
		wasExported := c.Exported || c.before != nil && c.before.Exported
		if len(reasons) > 0 && (wasExported || fanIn > 0) && !interfaceish {
			breaking++
			add("breaking-signature", 55+15*bool2f(wasExported)+math.Min(20, 5*log2p(fanIn)), c,
				fmt.Sprintf("%s: %s", c.Name, strings.Join(reasons, "; ")), ev)
		}
		if (c.Change == ChangeModified || c.Change == ChangeRenamed || c.Change == ChangeMoved) && !c.IsTest {
			if fanIn >= 5 && semantic(c) {
				add("high-fan-in", math.Min(85, 30+10*math.Log2(float64(fanIn))), c,
					fmt.Sprintf("%s has %d callers and changed (%s)", c.Name, fanIn, strings.Join(c.Aspects, ", ")),
					map[string]any{"fanIn": fanIn, "aspects": c.Aspects})
			}
			changedBehavior := false
			if sd := c.SideEffectDiff; sd != nil {
				n := len(sd.Added) + len(sd.Removed)
				changedBehavior = true
				add("side-effect-change", math.Min(85, 35+10*float64(n)+10*b), c,
					fmt.Sprintf("%s's side effects changed", c.Name), map[string]any{"added": sd.Added, "removed": sd.Removed})
			}
			if id := c.InvariantDiff; id != nil {
				changedBehavior = true
				if len(id.Removed) > 0 {
					add("invariant-removed", math.Min(75, 35+10*float64(len(id.Removed))), c,
						fmt.Sprintf("%s no longer checks: %s", c.Name, strings.Join(id.Removed, "; ")),
						map[string]any{"removed": id.Removed, "added": id.Added})
				}
			}
			if changedBehavior {
				behavior++
			}
		}
		pureMove := (c.Change == ChangeRenamed || c.Change == ChangeMoved) && len(c.Aspects) == 0
		if c.Change != ChangeRemoved && !c.IsTest && isCodeKind(c.Kind) && semantic(c) && !pureMove && !interfaceish {
			codeChanged++
			tested := c.BlastRadius != nil && c.BlastRadius.Tests > 0
			if !tested {
				untested++
				add("missing-tests", 30+15*b+math.Min(20, 5*log2p(fanIn)), c,
					fmt.Sprintf("no test reaches %s within %d calls", c.Name, d.depth),
					map[string]any{"change": c.Change, "fanIn": fanIn, "maxDepth": d.depth})
			}
		}
	}
	radius := d.summary.BlastRadius
	if radius >= 16 {
		add("large-radius", math.Min(90, 10+10*math.Log2(float64(radius))), nil,
			fmt.Sprintf("%d symbols depend on the changed ones within %d edges", radius, d.depth),
			map[string]any{"dependents": radius, "maxDepth": d.depth, "truncated": d.truncated})
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Score != fs[j].Score {
			return fs[i].Score > fs[j].Score
		}
		if fs[i].Kind != fs[j].Kind {
			return fs[i].Kind < fs[j].Kind
		}
		if fs[i].File != fs[j].File {
			return fs[i].File < fs[j].File
		}
		return fs[i].SymbolID < fs[j].SymbolID
	})
	if fs == nil {
		fs = []Finding{}
	}
	factor := func(name string, weight int, value float64, detail string) RiskFactor {
		value = math.Max(0, math.Min(1, value))
		return RiskFactor{Name: name, Weight: weight, Value: round4(value), Points: round4(float64(weight) * value), Detail: detail}
	}
	testValue := 0.0
	if codeChanged > 0 {
		testValue = float64(untested) / float64(codeChanged)
	}
	fanDetail := "no changed symbol had callers"
	if maxFanIn > 0 {
		fanDetail = fmt.Sprintf("largest fan-in %d (%s)", maxFanIn, maxFanInName)
	}
	factors := []RiskFactor{
		factor("breaking", 25, float64(breaking)/3, fmt.Sprintf("%d breaking signature or interface change(s)", breaking)),
		factor("removed", 15, float64(removed)/3, fmt.Sprintf("%d removed symbol(s) with dependents", removed)),
		factor("fanIn", 20, log2p(maxFanIn)/math.Log2(65), fanDetail),
		factor("radius", 15, log2p(radius)/math.Log2(257), fmt.Sprintf("%d dependent symbol(s) within %d edges", radius, d.depth)),
		factor("behavior", 10, float64(behavior)/3, fmt.Sprintf("%d symbol(s) with changed side effects or invariants", behavior)),
		factor("tests", 15, testValue, fmt.Sprintf("%d of %d changed code symbol(s) reached by no test", untested, codeChanged)),
	}
	return fs, factors
}

func bool2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// recommendedTests lists the tests that reach a change and those the
// change touched.
func recommendedTests(d *deltaSet) []RecommendedTest {
	byID := map[string]*RecommendedTest{}
	for id, t := range d.tests {
		cp := *t
		cp.Reaches = uniqueStrings(cp.Reaches)
		cp.ReachCount = len(cp.Reaches)
		byID[id] = &cp
	}
	for _, c := range d.changes {
		if c.Change == ChangeRemoved || c.after == nil || !runnerTest(c.after) || !isCodeKind(c.Kind) {
			continue
		}
		t := byID[c.SymbolID]
		if t == nil {
			t = &RecommendedTest{SymbolID: c.SymbolID, Name: c.Name, File: c.File}
			byID[c.SymbolID] = t
		}
		t.Changed, t.Distance = true, 0
	}
	out := make([]RecommendedTest, 0, len(byID))
	for _, t := range byID {
		t.Reaches = t.Reaches[:min(5, len(t.Reaches))]
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Changed != b.Changed {
			return a.Changed
		}
		if a.ReachCount != b.ReachCount {
			return a.ReachCount > b.ReachCount
		}
		if a.Distance != b.Distance {
			return a.Distance < b.Distance
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Name < b.Name
	})
	return out
}

// testCommands renders commands that run the recommended tests: go test
// per package for Go test functions, pytest node ids for Python.
func testCommands(ts []RecommendedTest) []string {
	goPkgs := map[string][]string{}
	var py []string
	for _, t := range ts {
		switch {
		case strings.HasSuffix(t.File, "_test.go") && !strings.Contains(t.Name, ".") &&
			(strings.HasPrefix(t.Name, "Test") || strings.HasPrefix(t.Name, "Fuzz") || strings.HasPrefix(t.Name, "Example")):
			dir := "./" + path.Dir(t.File)
			if path.Dir(t.File) == "." {
				dir = "."
			}
			goPkgs[dir] = append(goPkgs[dir], t.Name)
		case strings.HasSuffix(t.File, ".py"):
			py = append(py, t.File+"::"+strings.ReplaceAll(t.Name, ".", "::"))
		}
	}
	var out []string
	dirs := make([]string, 0, len(goPkgs))
	for d := range goPkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		names := uniqueStrings(goPkgs[d])
		out = append(out, fmt.Sprintf("go test %s -run '^(%s)$'", d, strings.Join(names, "|")))
	}
	if len(py) > 0 {
		sort.Strings(py)
		out = append(out, "pytest "+strings.Join(py, " "))
	}
	return out
}
