// Command rankfit fits the weights of slice ranking (query.RankWeights) on
// the retrieval eval's dev sets, with cross-validation across repositories.
//
// It reads the indexes that make eval leaves (EVAL_ARGS=--work DIR): for
// each task, the candidates a slice ranks, their features, and which of
// them hold a gold item. It then fits the weights by coordinate ascent on
// the share of gold items in the first 1, 5, 10 and 20 cards, and reports
// that share for the current weights, for weights fit on all repositories,
// and leave-one-repository-out: for each repository, weights fit on the
// others, scored on it. Only the cross-validated figure says what a
// repository nobody tuned on can expect. It also reports the current
// weights counting only the gold's own card (a function's, or the gold
// symbol's): the eval's runner counts a class's card as a hit on every
// method inside it, which a ranking that lifts classes gains from without
// finding the function. -dump writes each task's first cards and the
// gold's rank, to read before proposing a feature.
//
// Pairs mined from the dev repositories' histories (eval/mine.py) are a
// set of their own, "mined", read with -sets ...,mined: they only train
// (-trainonly), never count in a figure, and the fold that scores a
// repository trains on none of that repository's.
//
//	make eval EVAL_ARGS='--work /tmp/eval'
//	go run ./cmd/rankfit -work /tmp/eval -eval ../shared/eval
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/query"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		log.Fatalf("rankfit: %v", err)
	}
}

// candidatesPerTask bounds the candidates read per task: the slice at 4000
// tokens holds about 30, so re-ranking the first 300 loses nothing a
// better order could gain.
const candidatesPerTask = 300

type gold struct {
	File      string `json:"file"`
	Name      string `json:"name"`
	Container string `json:"container"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
}

type task struct {
	ID     string `json:"id"`
	Repo   string `json:"repo"`
	Parent string `json:"parent"`
	Task   string `json:"task"`
	Gold   []gold `json:"gold"`
}

// sample is one task's candidates: features, and the gold items each hits.
type sample struct {
	ID    string       `json:"id"`
	Repo  string       `json:"repo"`
	Set   string       `json:"set,omitempty"`
	NGold int          `json:"nGold"`
	Cands []sampleCand `json:"cands"`
	// Task and Gold are the task's text and gold names, for -dump
	Task string   `json:"task,omitempty"`
	Gold []string `json:"gold,omitempty"`
}

type sampleCand struct {
	F      query.RankFeatures `json:"f"`
	Forced bool               `json:"forced,omitempty"`
	Hits   []int              `json:"hits,omitempty"` // gold items it overlaps
	// Own are the gold items it is: overlapped by a function, method or
	// constructor, or by a symbol of the gold's own name. The runner
	// counts a class's card as a hit on every method inside it; Own
	// does not.
	Own []int `json:"own,omitempty"`
	// Name, File and Kind say which symbol it is, for -dump
	Name string `json:"name,omitempty"`
	File string `json:"file,omitempty"`
	Kind string `json:"kind,omitempty"`
	// Lines are its first and last line
	Lines [2]int `json:"lines,omitempty"`
	// X are inputs computed outside rankfit (a script over the samples
	// and the checkouts), by name: -extra appends them to the trees'
	// inputs, so a candidate signal is measured before query computes it
	X map[string]float64 `json:"x,omitempty"`
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("rankfit", flag.ContinueOnError)
	work := fs.String("work", "", "make eval's work folder (holding SET/NNN-OWNER+NAME-PARENT/{index.db,src})")
	evalDir := fs.String("eval", "../shared/eval", "the shared eval folder (SET/tasks.jsonl)")
	sets := fs.String("sets", "dev,dev2,swe-lite-sample", "the sets to fit on")
	cache := fs.String("cache", "", "read the samples from this file if it exists (from each of several, comma-separated), else write them there")
	fitOnly := fs.String("params", "", "fit only these weights (comma-separated names, e.g. Trace,Message); the others stay at DefaultRankWeights")
	dump := fs.String("dump", "", "write, per task, the first cards under the current weights and each gold item's rank to this file (markdown)")
	ablate := fs.String("ablate", "", "also report the current weights with these (comma-separated names) set to 0: what those features add")
	boost := fs.Bool("boost", false, "fit the second stage's trees (LambdaRank) and report them instead of the weights")
	var cfg boostConfig
	fs.IntVar(&cfg.depth, "depth", 3, "-boost: tree depth")
	fs.IntVar(&cfg.trees, "trees", 30, "-boost: number of trees")
	fs.Float64Var(&cfg.eta, "eta", 0.1, "-boost: shrinkage")
	fs.IntVar(&cfg.minLeaf, "minleaf", 40, "-boost: fewest candidates in a leaf")
	fs.Float64Var(&cfg.lambda, "lambda", 1, "-boost: L2 on leaf values")
	fs.Float64Var(&cfg.scale, "scale", 10, "-boost: the first stage's score times scale starts the margin")
	fs.BoolVar(&cfg.own, "own", true, "-boost: learn the gold's own card")
	fs.IntVar(&cfg.depthK, "k", 30, "-boost: candidates per task")
	fs.BoolVar(&cfg.keepType, "keeptype", false, "-boost: a first card that is not callable stays first")
	fs.BoolVar(&cfg.memberOnly, "memberonly", false, "-boost: a type first gives way only to one of its members")
	fs.BoolVar(&cfg.classFirst, "classfirst", false, "-boost: a type first stays first when the trees' pick is one of its members (the pick comes second)")
	fs.IntVar(&cfg.promote, "promote", 1, "-boost: move only the trees' best N to the front (0: reorder the whole top)")
	write := fs.String("write", "", "-boost: write the trees fit on all repositories as this generated Go file (query/rankstage_model.go)")
	drop := fs.String("drop", "", "-boost: inputs (StageInputNames, comma-separated) held at 0")
	trainOnly := fs.String("trainonly", "mined", "sets whose samples only train, never scored (eval/mine.py's pairs)")
	skip := fs.String("skip", "", "sets whose samples are left out (of a cache too)")
	fs.Float64Var(&cfg.trainWeight, "trainweight", 1, "-boost: weight of a train-only sample's gradients against a scored task's")
	fs.BoolVar(&cfg.softmax, "softmax", false, "-boost: fit the chance that the first card is a gold (softmax) instead of LambdaRank's pairs")
	fs.BoolVar(&cfg.siblings, "siblings", false, "-boost: the stage sees, learns and picks only the first card's file among its candidates")
	fs.BoolVar(&cfg.relative, "relative", false, "-boost: the trees also read each input minus the first card's")
	extra := fs.String("extra", "", "-boost: also read these inputs of the samples' x (comma-separated names), computed outside rankfit")
	perRepo := fs.Int("cap", 0, "keep at most N train-only samples per repository (the first N read; a sample read twice counts once)")
	collectOnly := fs.Bool("collectonly", false, "collect the samples into -cache and stop (eval/mine.py's snapshots, one at a time)")
	keep := fs.Int("keep", 0, "when collecting, keep each train-only sample's first N candidates of the first stage, and none whose gold's own card is not among them (0: all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var samples []sample
	if *cache != "" {
		// several files (comma-separated) are read one after the other:
		// the tasks' samples and those of the mined pairs
		for _, file := range strings.Split(*cache, ",") {
			b, err := os.ReadFile(file)
			if err != nil {
				continue
			}
			var some []sample
			if err := json.Unmarshal(b, &some); err != nil {
				return fmt.Errorf("read %s: %w", file, err)
			}
			samples = append(samples, some...)
		}
	}
	if samples == nil {
		if *work == "" {
			return fmt.Errorf("-work is required (make eval EVAL_ARGS='--work DIR' leaves it)")
		}
		var err error
		if samples, err = collect(*work, *evalDir, strings.Split(*sets, ",")); err != nil {
			return err
		}
		if *keep > 0 {
			samples = trimSamples(samples, strings.Split(*trainOnly, ","), *keep)
		}
		if *cache != "" {
			b, _ := json.Marshal(samples)
			if err := os.WriteFile(*cache, b, 0o644); err != nil {
				return err
			}
		}
	}
	if *collectOnly {
		fmt.Fprintf(out, "%d samples\n", len(samples))
		return nil
	}
	if *skip != "" {
		out := strings.Split(*skip, ",")
		samples = slices.DeleteFunc(samples, func(s sample) bool { return slices.Contains(out, s.Set) })
	}
	for _, set := range strings.Split(*trainOnly, ",") {
		if set != "" {
			trainSets[set] = true
		}
	}
	if *perRepo > 0 {
		samples = capSamples(samples, *perRepo)
	}
	if *fitOnly != "" {
		var keep []param
		for _, name := range strings.Split(*fitOnly, ",") {
			p, ok := paramNamed(name)
			if !ok {
				return fmt.Errorf("-params: no weight %q", name)
			}
			keep = append(keep, p)
		}
		params = keep
	}
	var off []param
	if *ablate != "" {
		for _, name := range strings.Split(*ablate, ",") {
			p, ok := paramNamed(name)
			if !ok {
				return fmt.Errorf("-ablate: no weight %q", name)
			}
			off = append(off, p)
		}
	}
	if *dump != "" && !*boost {
		order, sc := make([]int, candidatesPerTask), make([]float64, candidatesPerTask)
		if err := writeDump(*dump, samples, func(s *sample) []int {
			return rankOrder(s, query.DefaultRankWeights, order, sc)
		}); err != nil {
			return err
		}
	}
	for _, name := range strings.Split(*drop, ",") {
		if i := slices.Index(query.StageInputNames, strings.TrimSpace(name)); i >= 0 {
			cfg.drop = append(cfg.drop, i)
		} else if name != "" {
			return fmt.Errorf("-drop: no input %q", name)
		}
	}
	for _, name := range strings.Split(*extra, ",") {
		if name = strings.TrimSpace(name); name != "" {
			cfg.extra = append(cfg.extra, name)
		}
	}
	if *write != "" && (cfg.siblings || cfg.relative || len(cfg.extra) > 0) {
		return fmt.Errorf("-write: query's second stage reads neither -siblings, -relative nor -extra")
	}
	if *boost {
		trees, cv := boostReport(out, samples, cfg)
		if *dump != "" {
			scored := slices.DeleteFunc(slices.Clone(samples), func(s sample) bool { return trainSets[s.Set] })
			if err := writeDump(*dump, scored, func(s *sample) []int { return cv[s.ID] }); err != nil {
				return err
			}
		}
		if *write != "" {
			return writeModel(*write, trees, cfg, "rankfit "+strings.Join(args, " "))
		}
		return nil
	}
	report(out, samples, off)
	return nil
}

// writeDump writes, per task, its text, the first three cards in the order
// orderOf gives (the first stage's, or under -boost the second stage's held
// out by repository) and the rank of each gold item: what to read before
// proposing a feature.
func writeDump(file string, samples []sample, orderOf func(*sample) []int) error {
	var b strings.Builder
	b.WriteString("| task | text | first cards | gold (rank) |\n|---|---|---|---|\n")
	for i := range samples {
		s := &samples[i]
		o := orderOf(s)
		var first []string
		for _, c := range o[:min(3, len(o))] {
			first = append(first, s.Cands[c].Name+" "+s.Cands[c].Kind+" ("+s.Cands[c].File+")")
		}
		rank := make([]int, s.NGold)
		for r, c := range o {
			for _, g := range s.Cands[c].Hits {
				if rank[g] == 0 {
					rank[g] = r + 1
				}
			}
		}
		var golds []string
		for g, r := range rank {
			name := fmt.Sprint(g)
			if g < len(s.Gold) {
				name = s.Gold[g]
			}
			golds = append(golds, fmt.Sprintf("%s (%d)", name, r))
		}
		text := strings.ReplaceAll(s.Task, "|", "/")
		if len(text) > 100 {
			text = text[:100] + "..."
		}
		text = strings.ReplaceAll(text, "\n", " ")
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", s.ID, text, strings.Join(first, "; "), strings.Join(golds, "; "))
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

// trimSamples keeps, of each sample of the sets only, its first keep
// candidates in the first stage's order, and drops the sample when the
// gold's own card is not among them: the second stage reads the first
// stageK, and a sample without a gold there gives it no gradient. Mined
// pairs come by the thousand; the file of samples stays small.
func trimSamples(samples []sample, sets []string, keep int) []sample {
	order, sc := make([]int, candidatesPerTask), make([]float64, candidatesPerTask)
	out := samples[:0]
	for _, s := range samples {
		if !slices.Contains(sets, s.Set) {
			out = append(out, s)
			continue
		}
		o := rankOrder(&s, query.DefaultRankWeights, order, sc)
		var cands []sampleCand
		own := false
		for _, i := range o[:min(keep, len(o))] {
			cands = append(cands, s.Cands[i])
			own = own || len(s.Cands[i].Own) > 0
		}
		if own {
			s.Cands = cands
			out = append(out, s)
		}
	}
	return out
}

// capSamples keeps at most n train-only samples per repository, the
// first read, each id once, so that the repositories with the most
// history (caddy, rubocop) do not make the trees theirs.
func capSamples(samples []sample, n int) []sample {
	seen, per := map[string]bool{}, map[string]int{}
	return slices.DeleteFunc(samples, func(s sample) bool {
		if !trainSets[s.Set] {
			return false
		}
		if seen[s.ID] || per[s.Repo] >= n {
			return true
		}
		seen[s.ID] = true
		per[s.Repo]++
		return false
	})
}

// paramNamed finds a fitted weight by name.
func paramNamed(name string) (param, bool) {
	for _, p := range allParams {
		if strings.EqualFold(p.name, strings.TrimSpace(name)) {
			return p, true
		}
	}
	return param{}, false
}

func collect(work, evalDir string, sets []string) ([]sample, error) {
	ctx := context.Background()
	var out []sample
	for _, set := range sets {
		b, err := os.ReadFile(filepath.Join(evalDir, set, "tasks.jsonl"))
		if err != nil {
			return nil, err
		}
		open := map[string]*query.Index{}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var t task
			if err := json.Unmarshal([]byte(line), &t); err != nil {
				return nil, fmt.Errorf("%s: %w", set, err)
			}
			dirs, _ := filepath.Glob(filepath.Join(work, set, "*-"+strings.ReplaceAll(t.Repo, "/", "+")+"-"+t.Parent[:10]))
			if len(dirs) == 0 {
				log.Printf("%s: no index of %s at %s, skipped", t.ID, t.Repo, t.Parent[:10])
				continue
			}
			x := open[dirs[0]]
			if x == nil {
				if x, err = query.Open(filepath.Join(dirs[0], "index.db"), filepath.Join(dirs[0], "src")); err != nil {
					log.Printf("%s: %v, skipped", t.ID, err)
					continue
				}
				open[dirs[0]] = x
			}
			cands, err := x.RankCandidates(ctx, query.SliceRequest{TaskText: t.Task}, candidatesPerTask)
			if err != nil {
				log.Printf("%s: %v, skipped", t.ID, err)
				continue
			}
			s := sample{ID: t.ID, Repo: t.Repo, Set: set, NGold: len(t.Gold), Task: t.Task}
			for _, g := range t.Gold {
				s.Gold = append(s.Gold, strings.TrimPrefix(g.Container+"."+g.Name, "."))
			}
			for _, c := range cands {
				sc := sampleCand{F: c.Features, Forced: c.Forced, Name: c.Name, File: c.File, Kind: c.Kind,
					Lines: [2]int{c.Range.StartLine, c.Range.EndLine}}
				for i, g := range t.Gold {
					if c.File == g.File && c.Range.StartLine <= g.EndLine && c.Range.EndLine >= g.StartLine {
						sc.Hits = append(sc.Hits, i)
						if ownKinds[c.Kind] || c.Name == g.Name {
							sc.Own = append(sc.Own, i)
						}
					}
				}
				s.Cands = append(s.Cands, sc)
			}
			out = append(out, s)
		}
		for _, x := range open {
			x.Close()
		}
	}
	return out, nil
}

// trainSets are the sets whose samples only train (-trainonly): pairs
// mined from histories, which no figure should be scored on.
var trainSets = map[string]bool{}

// split parts samples into the tasks to score, by repository, and the
// samples that only train, by repository.
func split(samples []sample) (scored, extra map[string][]*sample, repos []string) {
	scored, extra = map[string][]*sample{}, map[string][]*sample{}
	for i := range samples {
		s := &samples[i]
		if trainSets[s.Set] {
			extra[s.Repo] = append(extra[s.Repo], s)
		} else {
			scored[s.Repo] = append(scored[s.Repo], s)
		}
	}
	for r := range scored {
		repos = append(repos, r)
	}
	slices.Sort(repos)
	return scored, extra, repos
}

// trainingFor is what a fold that scores held trains on: the tasks and the
// train-only samples of every other repository (of any repository when
// held is "").
func trainingFor(held string, scored, extra map[string][]*sample) []*sample {
	var out []*sample
	for _, m := range []map[string][]*sample{scored, extra} {
		keys := make([]string, 0, len(m))
		for r := range m {
			keys = append(keys, r)
		}
		slices.Sort(keys)
		for _, r := range keys {
			if r != held {
				out = append(out, m[r]...)
			}
		}
	}
	return out
}

// ownKinds are the kinds whose card is the gold function it overlaps.
var ownKinds = map[string]bool{lang.KindFunction: true, lang.KindMethod: true, lang.KindConstructor: true}

// ownOnly returns the samples with each candidate's hits cut to the gold
// items it is (sampleCand.Own).
func ownOnly(ss []*sample) []*sample {
	out := make([]*sample, len(ss))
	for i, s := range ss {
		c := *s
		c.Cands = make([]sampleCand, len(s.Cands))
		for j, sc := range s.Cands {
			sc.Hits = sc.Own
			c.Cands[j] = sc
		}
		out[i] = &c
	}
	return out
}

// accAt are the cut-offs the objective averages: the share of gold items
// in the first k cards. 20 stands for the slice at 4000 tokens.
var accAt = []int{1, 5, 10, 20}

// score returns, for one task under weights w, the share of gold items in
// the first k candidates for each k of accAt.
func score(s *sample, w query.RankWeights, order []int, sc []float64) []float64 {
	return accOf(s, rankOrder(s, w, order, sc), false)
}

// rankOrder orders one task's candidates under w, as a slice would: the
// forced first, then by score. order and sc are scratch space.
func rankOrder(s *sample, w query.RankWeights, order []int, sc []float64) []int {
	for i := range s.Cands {
		order[i] = i
		sc[i] = w.Score(s.Cands[i].F)
	}
	o := order[:len(s.Cands)]
	slices.SortStableFunc(o, func(a, b int) int {
		if s.Cands[a].Forced != s.Cands[b].Forced {
			if s.Cands[a].Forced {
				return -1
			}
			return 1
		}
		return cmp.Compare(sc[b], sc[a])
	})
	return o
}

// evaluate returns the mean of each acc@k over the samples.
func evaluate(ss []*sample, w query.RankWeights) []float64 {
	order, sc := make([]int, candidatesPerTask), make([]float64, candidatesPerTask)
	sum := make([]float64, len(accAt))
	for _, s := range ss {
		for j, v := range score(s, w, order, sc) {
			sum[j] += v
		}
	}
	for j := range sum {
		sum[j] /= float64(max(1, len(ss)))
	}
	return sum
}

func objective(acc []float64) float64 {
	var s float64
	for _, v := range acc {
		s += v
	}
	return s / float64(len(acc))
}

// param is a weight the fit moves, over a grid of values.
type param struct {
	name string
	ptr  func(*query.RankWeights) *float64
	grid []float64
}

// params are the weights the fit moves (all of allParams unless -params
// says otherwise).
var params = allParams

// allParams are the weights a fit can move; Seed stays fixed, as the scale.
var allParams = []param{
	{"File", func(w *query.RankWeights) *float64 { return &w.File }, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8}},
	{"Graph", func(w *query.RankWeights) *float64 { return &w.Graph }, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6}},
	{"TextRank", func(w *query.RankWeights) *float64 { return &w.TextRank }, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6}},
	{"NameHits", func(w *query.RankWeights) *float64 { return &w.NameHits }, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6}},
	{"PathHits", func(w *query.RankWeights) *float64 { return &w.PathHits }, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.45}},
	{"ContainerHits", func(w *query.RankWeights) *float64 { return &w.ContainerHits }, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.45}},
	{"Callable", func(w *query.RankWeights) *float64 { return &w.Callable }, []float64{0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3}},
	{"Size", func(w *query.RankWeights) *float64 { return &w.Size }, []float64{-0.1, -0.05, 0, 0.05, 0.1, 0.2, 0.3}},
	{"Peripheral", func(w *query.RankWeights) *float64 { return &w.Peripheral }, []float64{-1, -0.6, -0.45, -0.3, -0.2, -0.1, -0.05, 0}},
	{"TestFactor", func(w *query.RankWeights) *float64 { return &w.TestFactor }, []float64{0.1, 0.25, 0.5, 0.75, 1}},
	{"Trace", func(w *query.RankWeights) *float64 { return &w.Trace }, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2}},
	{"Message", func(w *query.RankWeights) *float64 { return &w.Message }, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2}},
	{"Bodiless", func(w *query.RankWeights) *float64 { return &w.Bodiless }, []float64{-0.3, -0.2, -0.1, -0.05, -0.02, 0}},
	{"Scope", func(w *query.RankWeights) *float64 { return &w.Scope }, []float64{0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.45}},
	{"Length", func(w *query.RankWeights) *float64 { return &w.Length }, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.4}},
}

// fit runs coordinate ascent from the current weights over each
// parameter's grid until a round changes nothing.
func fit(ss []*sample) query.RankWeights {
	w := query.DefaultRankWeights
	best := objective(evaluate(ss, w))
	for round := 0; round < 8; round++ {
		changed := false
		for _, p := range params {
			cur := *p.ptr(&w)
			for _, v := range p.grid {
				if v == cur {
					continue
				}
				t := w
				*p.ptr(&t) = v
				if o := objective(evaluate(ss, t)); o > best+1e-9 {
					best, w, changed = o, t, true
				}
			}
		}
		if !changed {
			break
		}
	}
	return w
}

func report(out io.Writer, samples []sample, off []param) {
	byRepo, extra, repos := split(samples)
	var all []*sample
	for _, r := range repos {
		all = append(all, byRepo[r]...)
	}
	line := func(label string, acc []float64) {
		fmt.Fprintf(out, "| %s |", label)
		for _, v := range acc {
			fmt.Fprintf(out, " %.3f |", v)
		}
		fmt.Fprintf(out, " %.3f |\n", objective(acc))
	}
	fmt.Fprintf(out, "%d tasks, %d repositories\n\n| weights | @1 | @5 | @10 | @20 | objective |\n|---|---|---|---|---|---|\n",
		len(all), len(repos))
	line("current (DefaultRankWeights)", evaluate(all, query.DefaultRankWeights))
	own := ownOnly(all)
	line("current, the gold's own card only", evaluate(own, query.DefaultRankWeights))
	if len(off) > 0 {
		w := query.DefaultRankWeights
		var names []string
		for _, p := range off {
			*p.ptr(&w) = 0
			names = append(names, p.name)
		}
		line("current without "+strings.Join(names, ", "), evaluate(all, w))
		line("current without "+strings.Join(names, ", ")+", the gold's own card only", evaluate(own, w))
	}
	// leave one repository out: weights fit on the others, scored on it
	cv := make([]float64, len(accAt))
	for _, r := range repos {
		w := fit(trainingFor(r, byRepo, extra))
		for j, v := range evaluate(byRepo[r], w) {
			cv[j] += v * float64(len(byRepo[r]))
		}
	}
	for j := range cv {
		cv[j] /= float64(len(all))
	}
	line("leave-one-repository-out", cv)
	w := fit(trainingFor("", byRepo, extra))
	line("fit on all (in-sample)", evaluate(all, w))
	fmt.Fprintf(out, "\nfit on all: %+v\n\nper repository, current -> fit on all:\n", w)
	for _, r := range repos {
		a, b := evaluate(byRepo[r], query.DefaultRankWeights), evaluate(byRepo[r], w)
		fmt.Fprintf(out, "  %-24s %2d tasks  @1 %.2f -> %.2f  @10 %.2f -> %.2f\n", r, len(byRepo[r]), a[0], b[0], a[2], b[2])
	}
}
