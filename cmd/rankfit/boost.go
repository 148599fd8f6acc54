package main

import (
	"cmp"
	"fmt"
	"go/format"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sdl-dev/sdl/query"
)

// The second stage: gradient-boosted regression trees over the first
// stage's best candidates, fit with LambdaRank gradients (pairs of a gold
// card and another, weighted by what swapping them changes at the top).

// boostConfig are the learner's settings.
type boostConfig struct {
	depth      int     // tree depth
	trees      int     // number of trees
	eta        float64 // shrinkage
	minLeaf    int     // fewest candidates a leaf holds
	lambda     float64 // L2 on leaf values
	scale      float64 // the first stage's score, times scale, is the start margin
	own        bool    // learn the gold's own card (a function's), not a class holding it
	depthK     int     // candidates per task
	promote    int     // >0: only the best promote by the trees move to the front; the rest keep the first order
	keepType   bool    // a type first stays first
	memberOnly bool    // a type first gives way only to one of its members
	// classFirst: when the trees' pick is a member of the type the first
	// stage put first, the type stays first and the pick comes second
	classFirst bool
	drop       []int // inputs held at 0 (to measure what they add)
	// trainWeight scales the gradients of a train-only sample (trainSets)
	trainWeight float64
	// softmax fits the trees to the chance that the first card is a gold
	// (a softmax over the task's candidates) instead of LambdaRank's pairs:
	// the stage moves one card to the front, so only the first counts
	softmax bool
	// siblings restricts the stage to the first card's file: the trees
	// see, learn and pick only the candidates of that file among the
	// first depthK (in most misses the gold is a sibling of the first card)
	siblings bool
	// relative adds each input's difference from the first card's
	relative bool
	// extra names inputs of the samples' X to append (0 when absent)
	extra []string
}

type tnode struct {
	feat        int
	thr         float64
	left, right int // children; -1 for a leaf
	value       float64
}

type btree []tnode

func (t btree) eval(x []float64) float64 {
	i := 0
	for t[i].left >= 0 {
		if x[t[i].feat] <= t[i].thr {
			i = t[i].left
		} else {
			i = t[i].right
		}
	}
	return t[i].value
}

// bquery is one task's first-stage top: inputs, labels, first order.
type bquery struct {
	s     *sample
	order []int // the first stage's order of all candidates
	x     [][]float64
	y     []bool
	base  []float64
	pos   []int // the place in order of each of x's rows
	cv    []int // the order under trees fit without its repository
}

// devRepos are the repositories of the dev set; swe-lite-sample's task
// ids hold "__"; the rest is dev2.
var devRepos = map[string]bool{"gin-gonic/gin": true, "spf13/cobra": true, "pallets/flask": true,
	"colinhacks/zod": true, "tokio-rs/axum": true}

func setOf(s *sample) string {
	switch {
	case s.Set != "":
		return s.Set
	case strings.Contains(s.ID, "__"):
		return "swe-lite-sample"
	case devRepos[s.Repo]:
		return "dev"
	}
	return "dev2"
}

func boostQueries(ss []*sample, cfg boostConfig) []*bquery {
	var out []*bquery
	order, sc := make([]int, candidatesPerTask), make([]float64, candidatesPerTask)
	for _, s := range ss {
		o := slices.Clone(rankOrder(s, query.DefaultRankWeights, order, sc))
		q := &bquery{s: s, order: o}
		for r, i := range o[:min(cfg.depthK, len(o))] {
			c := s.Cands[i]
			if cfg.siblings && c.File != s.Cands[o[0]].File {
				continue
			}
			q.pos = append(q.pos, r)
			first := query.DefaultRankWeights.Score(c.F)
			in := query.StageInputs(c.F, r+1, first)
			for _, z := range cfg.drop {
				in[z] = 0
			}
			for _, name := range cfg.extra {
				in = append(in, c.X[name])
			}
			if cfg.relative {
				if len(q.x) > 0 {
					in = append(in, relTo(in, q.x[0][:len(in)])...)
				} else {
					in = append(in, make([]float64, len(in))...)
				}
			}
			q.x = append(q.x, in)
			hits := c.Hits
			if cfg.own {
				hits = c.Own
			}
			q.y = append(q.y, len(hits) > 0)
			q.base = append(q.base, cfg.scale*first)
		}
		out = append(out, q)
	}
	return out
}

// relTo is in minus the first card's inputs.
func relTo(in, first []float64) []float64 {
	out := make([]float64, len(in))
	for i := range in {
		out[i] = in[i] - first[i]
	}
	return out
}

// trainBoost fits trees on qs.
func trainBoost(qs []*bquery, cfg boostConfig) []btree {
	var X [][]float64
	margins := make([][]float64, len(qs))
	for k, q := range qs {
		X = append(X, q.x...)
		margins[k] = slices.Clone(q.base)
	}
	var trees []btree
	g, h := make([]float64, len(X)), make([]float64, len(X))
	for range cfg.trees {
		clear(g)
		clear(h)
		off := 0
		for k, q := range qs {
			gq, hq := g[off:off+len(q.y)], h[off:off+len(q.y)]
			if cfg.softmax {
				softmaxGrads(q.y, margins[k], gq, hq)
			} else {
				lambdaGrads(q.y, margins[k], gq, hq)
			}
			if trainSets[q.s.Set] && cfg.trainWeight != 1 {
				for i := range gq {
					gq[i] *= cfg.trainWeight
					hq[i] *= cfg.trainWeight
				}
			}
			off += len(q.y)
		}
		t := buildTree(X, g, h, cfg)
		trees = append(trees, t)
		off = 0
		for k, q := range qs {
			for i := range q.y {
				margins[k][i] += cfg.eta * t.eval(X[off+i])
			}
			off += len(q.y)
		}
	}
	return trees
}

// lambdaGrads adds LambdaRank's gradients and Hessians for one query.
func lambdaGrads(y []bool, m, g, h []float64) {
	n := len(y)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(m[b], m[a]) })
	rank := make([]int, n)
	for r, i := range idx {
		rank[i] = r + 1
	}
	disc := func(r int) float64 { return 1 / math.Log2(1+float64(r)) }
	for p := range n {
		if !y[p] {
			continue
		}
		for q := range n {
			if y[q] {
				continue
			}
			dd := math.Abs(disc(rank[p]) - disc(rank[q]))
			rho := 1 / (1 + math.Exp(m[p]-m[q]))
			g[p] -= dd * rho
			g[q] += dd * rho
			hh := dd * rho * (1 - rho)
			h[p] += hh
			h[q] += hh
		}
	}
}

// softmaxGrads adds the gradients and Hessians of -log P(a gold is first)
// for one query, P a softmax over the margins m: p_i - p_i*y_i/P(gold).
func softmaxGrads(y []bool, m, g, h []float64) {
	hi := slices.Max(m)
	p := make([]float64, len(m))
	var z, zg float64
	for i, v := range m {
		p[i] = math.Exp(v - hi)
		z += p[i]
	}
	for i := range p {
		p[i] /= z
		if y[i] {
			zg += p[i]
		}
	}
	if zg == 0 {
		return // no gold among the candidates: nothing to learn
	}
	for i := range p {
		g[i] += p[i]
		if y[i] {
			g[i] -= p[i] / zg
		}
		h[i] += max(p[i]*(1-p[i]), 1e-6)
	}
}

func buildTree(X [][]float64, g, h []float64, cfg boostConfig) btree {
	var t btree
	all := make([]int, len(X))
	for i := range all {
		all[i] = i
	}
	var build func(idx []int, d int) int
	build = func(idx []int, d int) int {
		var G, H float64
		for _, i := range idx {
			G += g[i]
			H += h[i]
		}
		me := len(t)
		t = append(t, tnode{left: -1, right: -1, value: -G / (H + cfg.lambda)})
		if d == 0 || len(idx) < 2*cfg.minLeaf {
			return me
		}
		bestGain, bestF, bestT := 1e-9, -1, 0.0
		parent := G * G / (H + cfg.lambda)
		vals := make([]float64, len(idx))
		for f := range X[0] {
			for k, i := range idx {
				vals[k] = X[i][f]
			}
			sorted := slices.Clone(vals)
			slices.Sort(sorted)
			for _, qt := range []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9} {
				thr := sorted[int(qt*float64(len(sorted)-1))]
				var gl, hl float64
				nl := 0
				for k, i := range idx {
					if vals[k] <= thr {
						gl += g[i]
						hl += h[i]
						nl++
					}
				}
				if nl < cfg.minLeaf || len(idx)-nl < cfg.minLeaf {
					continue
				}
				gr, hr := G-gl, H-hl
				gain := gl*gl/(hl+cfg.lambda) + gr*gr/(hr+cfg.lambda) - parent
				if gain > bestGain {
					bestGain, bestF, bestT = gain, f, thr
				}
			}
		}
		if bestF < 0 {
			return me
		}
		var L, R []int
		for _, i := range idx {
			if X[i][bestF] <= bestT {
				L = append(L, i)
			} else {
				R = append(R, i)
			}
		}
		t[me].feat, t[me].thr = bestF, bestT
		l := build(L, d-1)
		r := build(R, d-1)
		t[me].left, t[me].right = l, r
		return me
	}
	build(all, cfg.depth)
	return t
}

// boostOrder is a task's order with the trees applied to its top.
func boostOrder(q *bquery, trees []btree, cfg boostConfig) []int {
	n := len(q.y)
	if n == 0 || cfg.keepType && q.x[0][7] == 0 {
		return q.order
	}
	m := slices.Clone(q.base)
	for i := range n {
		for _, t := range trees {
			m[i] += cfg.eta * t.eval(q.x[i])
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(m[b], m[a]) })
	cand := func(i int) sampleCand { return q.s.Cands[q.order[q.pos[i]]] }
	out := make([]int, 0, len(q.order))
	moved := map[int]bool{} // places in q.order
	if cfg.promote > 0 {
		if cfg.memberOnly && q.x[0][7] == 0 {
			// a type first gives way only to one of its members
			t := cand(0)
			var keep []int
			for _, i := range idx {
				c := cand(i)
				if i == 0 || c.File == t.File && c.Lines[0] >= t.Lines[0] && c.Lines[1] <= t.Lines[1] {
					keep = append(keep, i)
				}
			}
			idx = keep
		}
		first := q.s.Cands[q.order[0]].F
		idx = slices.DeleteFunc(idx, func(i int) bool { return !query.StageMayPass(cand(i).F, first) })
		if cfg.classFirst && len(idx) > 0 && q.pos[idx[0]] != 0 && q.x[0][7] == 0 {
			t, c := q.s.Cands[q.order[0]], cand(idx[0])
			if c.File == t.File && c.Lines[0] >= t.Lines[0] && c.Lines[1] <= t.Lines[1] {
				out = append(out, q.order[0])
				moved[0] = true
			}
		}
		for _, i := range idx[:min(cfg.promote, len(idx))] {
			out = append(out, q.order[q.pos[i]])
			moved[q.pos[i]] = true
		}
		for r, c := range q.order {
			if !moved[r] {
				out = append(out, c)
			}
		}
		return out
	}
	// the whole top reordered: the rows' places take the rows in the trees' order
	next := slices.Clone(q.order)
	for k, i := range idx {
		next[q.pos[k]] = q.order[q.pos[i]]
	}
	return next
}

// accOf is, for candidates in order o, the share of gold items in the
// first k for each k of accAt; own counts only the gold's own cards.
func accOf(s *sample, o []int, own bool) []float64 {
	first := make([]int, s.NGold)
	for i := range first {
		first[i] = -1
	}
	for rank, i := range o {
		hits := s.Cands[i].Hits
		if own {
			hits = s.Cands[i].Own
		}
		for _, g := range hits {
			if first[g] < 0 {
				first[g] = rank + 1
			}
		}
	}
	out := make([]float64, len(accAt))
	for j, k := range accAt {
		n := 0
		for _, r := range first {
			if r > 0 && r <= k {
				n++
			}
		}
		out[j] = float64(n) / float64(s.NGold)
	}
	return out
}

// boostReport prints the second stage's figures: in-sample and
// leave-one-repository-out, by the runner's rule and the gold's own card.
// It returns the trees fit on all, and each scored task's order under the
// trees fit without its repository, by task id.
func boostReport(out io.Writer, samples []sample, cfg boostConfig) ([]btree, map[string][]int) {
	byRepo, extra, repos := split(samples)
	var all []*sample
	for _, r := range repos {
		all = append(all, byRepo[r]...)
	}
	if n := len(trainingFor("", nil, extra)); n > 0 {
		fmt.Fprintf(out, "%d train-only samples (%v), never scored; a fold leaves out those of its repository\n\n", n, slices.Sorted(maps.Keys(trainSets)))
	}
	sum := func(qs []*bquery, trees []btree, acc, accOwn []float64) {
		for _, q := range qs {
			o := boostOrder(q, trees, cfg)
			for j, v := range accOf(q.s, o, false) {
				acc[j] += v
			}
			for j, v := range accOf(q.s, o, true) {
				accOwn[j] += v
			}
		}
	}
	line := func(label string, acc, own []float64, n int) {
		fmt.Fprintf(out, "| %s |", label)
		for _, v := range acc {
			fmt.Fprintf(out, " %.3f |", v/float64(n))
		}
		for _, v := range own {
			fmt.Fprintf(out, " %.3f |", v/float64(n))
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "second stage %+v\n\n| | @1 | @5 | @10 | @20 | own @1 | own @5 | own @10 | own @20 |\n|---|---|---|---|---|---|---|---|---|\n", cfg)
	qsAll := boostQueries(all, cfg)
	a, b := make([]float64, 4), make([]float64, 4)
	sum(qsAll, nil, a, b)
	line("first stage only", a, b, len(all))
	a, b = make([]float64, 4), make([]float64, 4)
	for _, r := range repos {
		trees := trainBoost(boostQueries(trainingFor(r, byRepo, extra), cfg), cfg)
		sum(boostQueries(byRepo[r], cfg), trees, a, b)
		for _, q := range qsAll {
			if q.s.Repo == r {
				q.cv = boostOrder(q, trees, cfg)
			}
		}
	}
	line("leave-one-repository-out", a, b, len(all))
	for _, set := range []string{"dev", "dev2", "swe-lite-sample", "mined"} {
		a, b := make([]float64, 4), make([]float64, 4)
		a0, b0 := make([]float64, 4), make([]float64, 4)
		n := 0
		for _, q := range qsAll {
			if setOf(q.s) != set {
				continue
			}
			n++
			for j, v := range accOf(q.s, q.cv, false) {
				a[j] += v
			}
			for j, v := range accOf(q.s, q.cv, true) {
				b[j] += v
			}
			for j, v := range accOf(q.s, q.order, false) {
				a0[j] += v
			}
			for j, v := range accOf(q.s, q.order, true) {
				b0[j] += v
			}
		}
		if n == 0 {
			continue
		}
		line(set+", first stage", a0, b0, n)
		line(set+", leave-one-repository-out", a, b, n)
	}
	trees := trainBoost(boostQueries(trainingFor("", byRepo, extra), cfg), cfg)
	a, b = make([]float64, 4), make([]float64, 4)
	sum(qsAll, trees, a, b)
	line("fit on all (in-sample)", a, b, len(all))
	cv := map[string][]int{}
	for _, q := range qsAll {
		cv[q.s.ID] = q.cv
	}
	return trees, cv
}

// writeModel writes trees as the generated Go file of query's second
// stage: one table of nodes, each commented with the input it reads.
func writeModel(file string, trees []btree, cfg boostConfig, cmdline string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by %s; DO NOT EDIT.\n\npackage query\n\n", cmdline)
	fmt.Fprintf(&b, "// The second stage's trees (rankstage.go), fit by cmd/rankfit -boost with LambdaRank\n")
	fmt.Fprintf(&b, "// gradients on the gold's own card (depth %d, %d candidates per task, a leaf of at least %d).\n\n",
		cfg.depth, cfg.depthK, cfg.minLeaf)
	fmt.Fprintf(&b, "const (\n\t// stageEta scales each tree's output (the learner's shrinkage).\n\tstageEta = %g\n", cfg.eta)
	fmt.Fprintf(&b, "\t// stageScale scales the first stage's score into the trees' margin.\n\tstageScale = %g\n", cfg.scale)
	fmt.Fprintf(&b, "\t// stageK is the number of first-stage candidates the trees were fit on.\n\tstageK = %d\n)\n\n", cfg.depthK)
	b.WriteString("// stageTrees: a node reads input Feat (StageInputs) and goes Left when it is\n")
	b.WriteString("// at most Thr, else Right; a leaf (Left -1) adds Value.\n")
	b.WriteString("var stageTrees = [][]stageNode{\n")
	for _, t := range trees {
		b.WriteString("\t{\n")
		for _, n := range t {
			if n.left < 0 {
				fmt.Fprintf(&b, "\t\t{Feat: -1, Left: -1, Right: -1, Value: %s},\n", strconv.FormatFloat(n.value, 'g', -1, 64))
				continue
			}
			fmt.Fprintf(&b, "\t\t{Feat: %d, Thr: %s, Left: %d, Right: %d}, // %s\n", n.feat,
				strconv.FormatFloat(n.thr, 'g', -1, 64), n.left, n.right, query.StageInputNames[n.feat])
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return fmt.Errorf("format model: %w", err)
	}
	return os.WriteFile(file, src, 0o644)
}
