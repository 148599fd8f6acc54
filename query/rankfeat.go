package query

import (
	"context"
	"math"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/sdl-dev/sdl/lang"
)

// lengthKnee is the length (lines) at which Length reaches 1; beyond it
// only Size goes on rising. Chosen among 15, 20, 30 and 50 by
// leave-one-repository-out (docs/retrieval.md).
const lengthKnee = 30

// A slice candidate's score is a weighted sum of the features below (then
// scaled by testWeight for a test, unless the slice starts from a failing
// test or its task asks for tests). The weights were fit
// by cmd/rankfit on the dev sets of the retrieval eval (dev, dev2,
// swe-lite-sample) with cross-validation across repositories, never within
// one; its output, the command and the cross-validated figures are in
// docs/retrieval.md. Refit them when a feature changes.
const (
	// weightSeed: the symbol's own text score or seed weight, shared
	// between a type and its members.
	weightSeed = 0.5
	// weightFile: the text score of the symbol's file (its best three).
	weightFile = 0.0
	// weightGraph: personalized PageRank from the seeds.
	weightGraph = 0.1
	// weightNameHits: how much of the task's wording (idf-weighted) the
	// symbol's own name holds.
	weightNameHits = 0.0
	// weightPathHits: the same for its file path.
	weightPathHits = 0.3
	// weightContainerHits: the same for the type that holds it (a task
	// often names the class whose method has to change).
	weightContainerHits = 0.0
	// weightTextRank: 1/k for the k-th symbol of the full-text lane, so the
	// lane's first few stand out however close their scores are.
	weightTextRank = 0.0
	// weightCallable: functions, methods and constructors, which are what
	// a bug fix changes far more often than the types around them.
	weightCallable = 0.02
	// sliceTestWeight scales a test's score in a slice unless the slice
	// starts from a failing test or its task asks for tests: a slice puts
	// the definitions a task is about first. Below search's testWeight,
	// since the size and path features lift tests too; the eval's gold is
	// never a test and every factor from 0.5 down to 0.01 scores the same
	// on it (rankfit).
	sliceTestWeight = 0.1
	// weightSize: log of the symbol's lines, scaled to 1 at 1000 lines.
	weightSize = 0.2
	// weightLength: log of the symbol's lines up to lengthKnee, scaled to
	// 1 there (Length). Size rises slowly all the way to 1000 lines; the
	// chance that a candidate is what a fix changes rises fast up to a few
	// dozen lines: of the first 300 candidates of the 153 tasks of the dev
	// sets, 22% have 1-3 lines and 18% 6-10, against 2% and 10% of the
	// 164 gold functions; 11-50 lines hold 38% of the candidates and 68%
	// of the gold. A getter or a constant whose name the task holds is
	// seldom what its fix changes; the function that uses it is.
	weightLength = 0.2
	// weightTrace: the stack-trace lane (lanes_trace.go), 1 for the
	// innermost frame of the project.
	weightTrace = 0.1
	// weightMessage: the error-message lane (lanes_message.go), the share
	// of a quoted message the symbol's literals hold.
	weightMessage = 0.1
	// weightPeripheral: a symbol under a folder of scripts, tools,
	// examples or benchmarks, or in a build script at the top of the
	// repository (peripheralPart), unless the task names that folder or
	// script (namesPart): code around the product that shares its words, and that a
	// bug fix rarely changes (none of the 164 gold functions of the dev
	// sets).
	weightPeripheral = -0.3
	// weightScope: the text score (Seed) of a symbol of a file the task's
	// commit scope names ("fix(context): ...", "http: ...",
	// "fix(axum-extra): ..."; see commitScopes): a commit subject says
	// where it applies, which the text lanes weigh like any other word.
	// Scaled by the symbol's own text score so that the scope lifts the
	// matches in its files, not every symbol there (hyper's "fix(http1):"
	// names the client and server http1.rs, whose change is in proto/h1).
	weightScope = 0.2
	// weightBodiless: a variable, interface or type alias: what a bug fix
	// changes is code that runs, and these hold none (a class holds its
	// methods; among the first ten candidates of the 153 tasks of the dev
	// sets, 1 of 93 such symbols is a gold item, 164 of 1,437 others are).
	weightBodiless = -0.1
)

// RankFeatures are the features of a slice candidate (see the weights).
type RankFeatures struct {
	Seed     float64 `json:"seed"`
	File     float64 `json:"file"`
	Graph    float64 `json:"graph"`
	NameHits float64 `json:"nameHits"`
	PathHits float64 `json:"pathHits"`
	TextRank float64 `json:"textRank"`
	// ContainerHits is NameHits of the enclosing type's name.
	ContainerHits float64 `json:"containerHits"`
	Callable      float64 `json:"callable"`
	Size          float64 `json:"size"`
	// Length is log(1+lines)/log(1+lengthKnee), at most 1, and 1 for
	// a symbol the trace or message lane found (lengthFeature).
	Length float64 `json:"length,omitempty"`
	// Peripheral is 1 for a symbol of a peripheralPart the task does not
	// name.
	Peripheral float64 `json:"peripheral,omitempty"`
	Test       bool    `json:"test"`
	// Scope is Seed for a symbol of a file the task's commit scope names
	// (commitScopes, scopeNames), else 0.
	Scope float64 `json:"scope,omitempty"`
	// Bodiless is 1 for a variable, interface or type alias (isBodiless).
	Bodiless float64 `json:"bodiless,omitempty"`
	// Trace and Message are the scores of the stack-trace and
	// error-message lanes.
	Trace   float64 `json:"trace,omitempty"`
	Message float64 `json:"message,omitempty"`
	// CodeHits, ProseHits and Coverage: the idf-weighted share of the
	// task's terms the symbol's code (body identifiers, comments,
	// literals), its signature and doc, and any of its own text holds.
	// Read for the second stage's candidates only (rankstage.go), which
	// alone uses them: as weights of the sum each lost (docs/retrieval.md).
	CodeHits  float64 `json:"codeHits,omitempty"`
	ProseHits float64 `json:"proseHits,omitempty"`
	Coverage  float64 `json:"coverage,omitempty"`
}

// RankWeights weigh RankFeatures; DefaultRankWeights are the constants.
type RankWeights struct {
	Seed, File, Graph, TextRank, NameHits, PathHits, ContainerHits, Callable, Size, Peripheral, TestFactor float64
	Trace, Message                                                                                         float64
	Scope, Bodiless                                                                                        float64
	Length                                                                                                 float64
}

// DefaultRankWeights are the weights slices use.
var DefaultRankWeights = RankWeights{Seed: weightSeed, File: weightFile, Graph: weightGraph, TextRank: weightTextRank,
	NameHits: weightNameHits, PathHits: weightPathHits, ContainerHits: weightContainerHits, Callable: weightCallable, Size: weightSize,
	Peripheral: weightPeripheral, TestFactor: sliceTestWeight, Trace: weightTrace, Message: weightMessage,
	Scope: weightScope, Bodiless: weightBodiless, Length: weightLength}

// Score combines features with weights w.
func (w RankWeights) Score(f RankFeatures) float64 {
	s := w.Seed*f.Seed + w.File*f.File + w.Graph*f.Graph + w.TextRank*f.TextRank + w.NameHits*f.NameHits +
		w.PathHits*f.PathHits + w.ContainerHits*f.ContainerHits + w.Callable*f.Callable + w.Size*f.Size +
		w.Peripheral*f.Peripheral
	s += w.Trace*f.Trace + w.Message*f.Message
	s += w.Scope*f.Scope + w.Bodiless*f.Bodiless + w.Length*f.Length
	if f.Test {
		s *= w.TestFactor
	}
	return s
}

// termMatcher tells how much of a task's wording a name holds: the task's
// terms by their stems, each weighted by its rarity in the index.
type termMatcher struct {
	weight map[string]float64 // stem -> idf weight
	term   map[string]string  // stem -> the task's term, for a full-text query
	total  float64
}

func (b *sliceBuild) newTermMatcher(ctx context.Context) (*termMatcher, error) {
	terms := b.ev.Terms
	if len(terms) == 0 {
		return nil, nil
	}
	st, err := stems.stem(ctx, terms)
	if err != nil {
		return nil, err
	}
	df, err := b.x.docFreqs(ctx, terms)
	if err != nil {
		return nil, err
	}
	m := &termMatcher{weight: map[string]float64{}, term: map[string]string{}}
	for _, t := range terms {
		s, ok := st[t]
		if !ok {
			continue
		}
		if _, dup := m.weight[s]; dup {
			continue
		}
		w := 1 / math.Log(2+float64(df[t]))
		m.weight[s] = w
		m.term[s] = t
		m.total += w
	}
	if m.total == 0 {
		return nil, nil
	}
	return m, nil
}

// share is the idf-weighted share of the task's terms among words, whose
// stems are in st.
func (m *termMatcher) share(st map[string]string, words []string) float64 {
	if m == nil || len(words) == 0 {
		return 0
	}
	seen := map[string]bool{}
	var sum float64
	for _, w := range words {
		s, ok := st[w]
		if !ok || seen[s] {
			continue
		}
		seen[s] = true
		sum += m.weight[s]
	}
	return sum / m.total
}

// pathWords are the words of a repository path: its folders and the file's
// name without extension, split as identifiers.
func pathWords(p string) []string {
	p = strings.TrimSuffix(p, path.Ext(p))
	var out []string
	for _, part := range strings.Split(p, "/") {
		out = append(out, lang.SplitIdent(part)...)
	}
	return out
}

// peripheralDirs are folders of code around a product rather than in it:
// scripts, tools, examples, benchmarks, CI. Not docs: some hold a package
// (cobra's doc).
var peripheralDirs = map[string]bool{"script": true, "scripts": true, "tool": true, "tools": true, "example": true,
	"examples": true, "sample": true, "samples": true, "demo": true, "demos": true, "bench": true, "benches": true,
	"benchmark": true, "benchmarks": true, ".github": true, "ci": true, "hack": true}

// peripheralFiles are build and task scripts at the top of a repository,
// by their name without extension (build.gradle for build.gradle.kts).
var peripheralFiles = map[string]bool{"makefile": true, "gruntfile": true, "gulpfile": true, "jakefile": true,
	"rakefile": true, "setup": true, "noxfile": true, "fabfile": true, "conftest": true, "build.gradle": true,
	"webpack.config": true, "rollup.config": true, "vite.config": true, "karma.conf": true, "eslint.config": true}

// sourceRoots are folders below which the folders are package names
// (src/main/java/com/example), not the layout of a repository.
var sourceRoots = map[string]bool{"src": true, "lib": true, "main": true, "java": true, "kotlin": true,
	"source": true, "sources": true}

// peripheralPart returns the part of a repository path that makes it code
// around the product, as a task would name it: a peripheralDirs folder on
// the way, above any source root, with its slash ("tools/"), or the file
// name of a peripheralFiles script at the top ("Makefile.js"); "" for any
// other path.
func peripheralPart(p string) string {
	parts := strings.Split(p, "/")
	for _, d := range parts[:len(parts)-1] {
		ld := strings.ToLower(d)
		if sourceRoots[ld] {
			break
		}
		if peripheralDirs[ld] {
			return d + "/"
		}
	}
	if len(parts) == 1 && peripheralFiles[strings.ToLower(strings.TrimSuffix(parts[0], path.Ext(parts[0])))] {
		return parts[0]
	}
	return ""
}

// namesPart tells whether a task's text, lower-cased by the caller once
// for all candidates, names a peripheralPart: "tools/" or "setup.py"
// does, "for example" does not name examples/.
func namesPart(lowText, part string) bool {
	return strings.Contains(lowText, strings.ToLower(part))
}

// commitTypes are the types of a conventional commit subject ("fix(x):"),
// which name no part of the code.
var commitTypes = map[string]bool{"fix": true, "fixes": true, "feat": true, "chore": true, "refactor": true,
	"docs": true, "doc": true, "test": true, "tests": true, "perf": true, "build": true, "ci": true, "style": true,
	"revert": true, "bugfix": true, "hotfix": true}

// commitScopeRE matches the start of a commit subject that names where it
// applies: "reverseproxy: ...", "fix(context): ...", "axum-core: ...".
var commitScopeRE = lazyRegexp(`^\s*([A-Za-z][\w\-./]{0,30})(?:\(([^)]{1,40})\))?!?:\s`)

// commitScopes returns the scopes a task's first line names as a commit
// subject does, normalized by scopeKey; none for prose.
func commitScopes(text string) []string {
	m := commitScopeRE().FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	var parts []string
	if m[2] != "" {
		parts = append(parts, strings.FieldsFunc(m[2], func(r rune) bool { return r == ',' || r == '/' })...)
	}
	if !commitTypes[strings.ToLower(m[1])] {
		parts = append(parts, strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == '/' })...)
	}
	var out []string
	for _, p := range parts {
		if k := scopeKey(p); len(k) >= 2 {
			out = append(out, k)
		}
	}
	return out
}

// scopeKey lower-cases a scope or path part and drops its separators, so
// that json-lines names json_lines.rs.
func scopeKey(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '.', ' ':
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// scopeMinContained is the shortest scope that names a path part holding
// it (json-schema in to-json-schema.ts); a shorter one must equal the part.
const scopeMinContained = 4

// scopeNames tells whether a scope names a path: one of its folders or
// its file's name without extensions.
func scopeNames(scope, p string) bool {
	parts := strings.Split(p, "/")
	last := len(parts) - 1
	if i := strings.IndexByte(parts[last], '.'); i > 0 {
		parts[last] = parts[last][:i]
	}
	for _, part := range parts {
		k := scopeKey(part)
		if k == scope || len(scope) >= scopeMinContained && strings.Contains(k, scope) {
			return true
		}
	}
	return false
}

// inScope tells whether any of scopes names path p.
func inScope(scopes []string, p string) bool {
	for _, s := range scopes {
		if scopeNames(s, p) {
			return true
		}
	}
	return false
}

// isBodiless tells the kinds that declare without code of their own.
func isBodiless(kind string) bool {
	return kind == lang.KindVariable || kind == lang.KindInterface || kind == lang.KindType
}

// lengthFeature is Length for a symbol of n lines; 1 for one a frame of
// the task's stack trace or its quoted message points at (located), since
// that evidence says where the failure is, whatever the odds of its size
// (pytest's traceback names _format_repr_exception, of 10 lines).
func lengthFeature(n int, located bool) float64 {
	if located {
		return 1
	}
	return math.Log1p(float64(min(max(0, n), lengthKnee))) / math.Log1p(lengthKnee)
}

func isCallable(kind string) bool {
	return kind == lang.KindFunction || kind == lang.KindMethod || kind == lang.KindConstructor
}

// RankedCandidate is a ranked slice candidate with its features, in the order a
// slice takes them.
type RankedCandidate struct {
	SymbolID string       `json:"symbolId"`
	File     string       `json:"file"`
	Name     string       `json:"name"`
	Kind     string       `json:"kind"`
	Range    Range        `json:"range"`
	Forced   bool         `json:"forced,omitempty"`
	Features RankFeatures `json:"features"`
}

// RankCandidates ranks the candidates of a slice as BuildSlice does, and
// returns the first n with their features: what cmd/rankfit fits the
// weights on.
func (x *Index) RankCandidates(ctx context.Context, req SliceRequest, n int) ([]RankedCandidate, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	req.allFeatures = true
	ranks, _, err := x.rankSlice(ctx, &req)
	if err != nil {
		return nil, err
	}
	ranks = ranks[:min(n, len(ranks))]
	ids := make([]string, len(ranks))
	for i, r := range ranks {
		ids[i] = r.id
	}
	rows, err := x.symbols(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]RankedCandidate, 0, len(ranks))
	for _, r := range ranks {
		row := rows[r.id]
		if row == nil {
			continue
		}
		out = append(out, RankedCandidate{SymbolID: r.id, File: row.Path, Name: row.Name, Kind: row.Kind,
			Range: row.Range, Forced: r.forced, Features: r.feat})
	}
	return out, nil
}

// rankOf numbers the keys of scores from the best (1) down; ties by key.
func rankOf(scores map[string]float64) map[string]int {
	ids := make([]string, 0, len(scores))
	for id := range scores {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if scores[ids[i]] != scores[ids[j]] {
			return scores[ids[i]] > scores[ids[j]]
		}
		return ids[i] < ids[j]
	})
	out := make(map[string]int, len(ids))
	for i, id := range ids {
		out[id] = i + 1
	}
	return out
}
