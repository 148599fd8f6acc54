package query

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sdl-dev/sdl/schema"
)

// Column groups of symbols_fts the second stage tells apart: the names,
// the declaration's prose (signature and doc comment), the code (the
// identifiers, comments and literals of the body).
const (
	stageNames = "{name qualified}"
	stageProse = "{signature doc}"
	stageCode  = "{body words}"
)

// wordHits are the task's terms (by stem) a candidate holds in each column
// group.
type wordHits struct {
	names, prose, code map[string]bool
}

// stageHits reads, for the candidates ids, which of the task's terms each
// holds in each column group, from each term's rows and counts per column
// (held by the Index, or read once per term); a term of too many
// instances to read is asked of FTS5 per group, restricted to the
// candidates' rows (stageMatch).
func (b *sliceBuild) stageHits(ctx context.Context, ids []string, tm *termMatcher) (map[string]*wordHits, error) {
	out := map[string]*wordHits{}
	if tm == nil || len(ids) == 0 {
		return out, nil
	}
	args := schema.Args(ids)
	rows, err := b.x.DB.QueryContext(ctx, `SELECT rowid, id FROM symbols WHERE to_seq IS NULL AND id IN (`+
		schema.Placeholders(len(ids))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("stage rows: %w", err)
	}
	byRow := map[int64]string{}
	var list strings.Builder
	list.WriteByte('[')
	for rows.Next() {
		var rowid int64
		var id string
		if err := rows.Scan(&rowid, &id); err != nil {
			rows.Close()
			return nil, err
		}
		if len(byRow) > 0 {
			list.WriteByte(',')
		}
		list.WriteString(strconv.FormatInt(rowid, 10))
		byRow[rowid] = id
		out[id] = &wordHits{names: map[string]bool{}, prose: map[string]bool{}, code: map[string]bool{}}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	list.WriteByte(']')
	rowids := make([]int64, 0, len(byRow))
	for r := range byRow {
		rowids = append(rowids, r)
	}
	stems := make([]string, 0, len(tm.term))
	for stem := range tm.term {
		stems = append(stems, stem)
	}
	slices.Sort(stems)
	// the rows holding each term and its count in each column: held by the
	// Index when the full-text lane read them, else read and held
	for _, stem := range stems {
		term := tm.term[stem]
		if !singleToken(term) {
			continue // a term the tokenizer splits: its parts are terms of their own
		}
		r, err := b.x.heldTerm(ctx, stem)
		if err != nil {
			return nil, err
		}
		// a term of too many instances is asked of FTS5 per column group
		if r == nil {
			if err := b.stageMatch(ctx, stem, term, list.String(), byRow, out); err != nil {
				return nil, err
			}
			continue
		}
		for _, rowid := range rowids {
			i, found := slices.BinarySearch(r.rows, rowid)
			if !found {
				continue
			}
			wh, tf := out[byRow[rowid]], r.tf[i]
			if tf[ftsName]+tf[ftsQualified] > 0 {
				wh.names[stem] = true
			}
			if tf[ftsSignature]+tf[ftsDoc] > 0 {
				wh.prose[stem] = true
			}
			if tf[ftsBody]+tf[ftsWords] > 0 {
				wh.code[stem] = true
			}
		}
	}
	return out, nil
}

// The columns of symbols_fts by number (ftsColumns).
const (
	ftsName = iota
	ftsQualified
	ftsSignature
	ftsDoc
	ftsPath
	ftsBody
	ftsWords
)

// stageMatch asks FTS5 which of the candidates (list, a JSON array of
// their rowids) hold term, per column group.
func (b *sliceBuild) stageMatch(ctx context.Context, stem, term, list string, byRow map[int64]string, out map[string]*wordHits) error {
	match := ftsMatch([]string{term})
	if match == "" {
		return nil // a term the tokenizer splits: its parts are terms of their own
	}
	for _, g := range []string{stageNames, stageProse, stageCode} {
		rs, err := b.x.DB.QueryContext(ctx, `SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH ?
			AND rowid IN (SELECT value FROM json_each(?))`, withColumns(g, match), list)
		if err != nil {
			return fmt.Errorf("stage hits: %w", err)
		}
		for rs.Next() {
			var rowid int64
			if err := rs.Scan(&rowid); err != nil {
				rs.Close()
				return err
			}
			h := out[byRow[rowid]]
			if h == nil {
				continue
			}
			switch g {
			case stageNames:
				h.names[stem] = true
			case stageProse:
				h.prose[stem] = true
			default:
				h.code[stem] = true
			}
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return err
		}
	}
	return nil
}

// weightOf is the idf-weighted share of the task's terms among stems.
func (m *termMatcher) weightOf(stems ...map[string]bool) float64 {
	if m == nil {
		return 0
	}
	var sum float64
	for s, w := range m.weight {
		for _, set := range stems {
			if set[s] {
				sum += w
				break
			}
		}
	}
	return sum / m.total
}

// stagePromote is how many cards the second stage may move to the front
// of a slice: the trees' best one. Reordering the whole top by the trees
// put more own cards first too, but sent classes that hold the gold below
// the fifth card (docs/retrieval.md); 0 turns the stage off.
const stagePromote = 1

// stageNode is a node of a tree of the second stage (rankstage_model.go).
type stageNode struct {
	Feat        int
	Thr         float64
	Left, Right int
	Value       float64
}

// stageMargin is the trees' margin of a candidate with inputs in.
func stageMargin(in []float64, first float64) float64 {
	m := stageScale * first
	for _, t := range stageTrees {
		i := 0
		for t[i].Left >= 0 {
			if in[t[i].Feat] <= t[i].Thr {
				i = t[i].Left
			} else {
				i = t[i].Right
			}
		}
		m += stageEta * t[i].Value
	}
	return m
}

// secondStage re-scores the first stageK candidates of ranks (sorted by
// the first stage) with the trees, which read where the task's words fall
// in each (stageHits) with the features of the first stage, and moves the
// best of them to the front. The first stage's sum ranks a function whose
// name holds one of the task's words (a helper, a getter) or a class the
// task names above the function the task describes; the trees, fit on
// what a fix changed, weigh those against the words its code holds. A
// slice that starts from given symbols (forced) keeps its order.
func (b *sliceBuild) secondStage(ctx context.Context, ranks []ranked, tm *termMatcher) error {
	if stagePromote == 0 && !b.req.allFeatures || tm == nil {
		return nil
	}
	n := min(stageK, len(ranks))
	for i := range n {
		if ranks[i].forced {
			return nil
		}
	}
	ids := make([]string, n)
	for i := range n {
		ids[i] = ranks[i].id
	}
	hits, err := b.stageHits(ctx, ids, tm)
	if err != nil {
		return err
	}
	best, bestM := -1, 0.0
	for i := range n {
		f := &ranks[i].feat
		if h := hits[ranks[i].id]; h != nil {
			f.CodeHits = tm.weightOf(h.code)
			f.ProseHits = tm.weightOf(h.prose)
			f.Coverage = tm.weightOf(h.names, h.prose, h.code)
		}
		if !StageMayPass(*f, ranks[0].feat) {
			continue
		}
		if m := stageMargin(StageInputs(*f, i+1, ranks[i].score), ranks[i].score); best < 0 || m > bestM {
			best, bestM = i, m
		}
	}
	if stagePromote > 0 && best > 0 {
		// the best moves to the front, the others keep their order
		r := ranks[best]
		copy(ranks[1:best+1], ranks[:best])
		ranks[0] = r
	}
	return nil
}

// StageMayPass tells whether the second stage may put a candidate with
// features f before the first stage's first card, first: not when the
// stack-trace or error-message lane puts the first card higher, since a
// frame or a quoted message says where the failure is, and the trees,
// fit on tasks of commit subjects, never saw one (a Go panic's innermost
// frame lost its place to the handler that called it). cmd/rankfit fits
// the trees under the same rule.
func StageMayPass(f, first RankFeatures) bool {
	return f.Trace >= first.Trace && f.Message >= first.Message
}

// StageInputs are the inputs of the second stage's trees for a candidate
// with features f that the first stage ranked firstRank (1 = first) at
// score first, in the order the trees' feature numbers index.
func StageInputs(f RankFeatures, firstRank int, first float64) []float64 {
	test := 0.0
	if f.Test {
		test = 1
	}
	return []float64{f.Seed, f.File, f.Graph, f.NameHits, f.PathHits, f.ContainerHits, f.TextRank, f.Callable,
		f.Size, f.Length, f.Bodiless, f.Scope, f.CodeHits, f.ProseHits, f.Coverage, test, first,
		1 / float64(max(1, firstRank))}
}

// StageInputNames name StageInputs' values, for the generated model's comments.
var StageInputNames = []string{"Seed", "File", "Graph", "NameHits", "PathHits", "ContainerHits", "TextRank",
	"Callable", "Size", "Length", "Bodiless", "Scope", "CodeHits", "ProseHits", "Coverage", "Test", "FirstScore",
	"FirstRank"}
