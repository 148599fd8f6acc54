package index

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strconv"

	"github.com/sdl-dev/sdl/lang"
)

// edgeRow is an edge as stored: a reference from src, bound to dst or not.
type edgeRow struct {
	src, dst                   string
	kind, name, qual, qualType string
	qualCall                   string
	confidence                 float64
	rule                       string
	candidates, count, line    int
	digest                     string
}

// edgeKey is what makes two references of a file one edge (their count
// adds up); a struct, so that no string is built for it.
type edgeKey struct{ src, kind, name, qual, qualType, qualCall string }

func (e *edgeRow) key() edgeKey {
	return edgeKey{e.src, e.kind, e.name, e.qual, e.qualType, e.qualCall}
}

// setDigest hashes the edge's key and resolution: its fields each followed
// by a NUL, numbers in decimal, built in one buffer (a full build digests
// every edge).
func (e *edgeRow) setDigest() {
	var buf [256]byte
	b := buf[:0]
	for _, v := range []string{e.src, e.kind, e.name, e.qual, e.qualType, e.qualCall, e.dst} {
		b = append(append(b, v...), 0)
	}
	b = append(strconv.AppendFloat(b, e.confidence, 'g', -1, 64), 0)
	b = append(append(b, e.rule...), 0)
	for _, n := range []int{e.candidates, e.count, e.line} {
		b = append(strconv.AppendInt(b, int64(n), 10), 0)
	}
	sum := sha256.Sum256(b)
	e.digest = hex.EncodeToString(sum[:12])
}

// KindImport is the edge kind of imports; references use the lang.Ref
// kinds (call, new, extends, implements).
const KindImport = "import"

// fileEdges resolves the imports and references of one parsed file. pf,
// when not nil, holds what the type checker proved about the file: it
// decides every reference it knows, and the heuristics the rest.
//
// The file's resolution runs under a lang.Guard: a panic, the depth limit
// or a spent work budget leaves the references concerned unresolved and
// is added to r's faults, and the rest of the file's edges are kept.
func fileEdges(r *fileResult, tab lang.Table, pf *preciseFile, sc *edgeScratch) []edgeRow {
	l := r.entry.Lang
	fi := tab.File(r.entry.Path)
	if fi == nil {
		fi = &lang.FileInfo{Path: r.entry.Path, Lang: l.Name, Module: r.facts.Module, Imports: r.facts.Imports,
			ModuleID: r.ids[0], Test: r.facts.IsTest}
	}
	g := lang.NewGuard(tab)
	ctx := &lang.Context{File: fi, Table: g}
	if sc == nil {
		sc = &edgeScratch{}
	}
	out, index := sc.edges[:0], sc.index
	if index == nil {
		index = map[edgeKey]int{}
	}
	add := func(e edgeRow) {
		k := e.key()
		if i, ok := index[k]; ok {
			out[i].count++
			return
		}
		index[k] = len(out)
		e.count = 1
		out = append(out, e)
	}
	for i := range r.facts.Imports {
		imp := &r.facts.Imports[i]
		src := r.ids[0]
		if imp.Symbol > 0 && imp.Symbol < len(r.ids) {
			src = r.ids[imp.Symbol]
		}
		for _, name := range imp.Resolved() {
			res := g.ResolveImport(l, ctx, imp, name)
			if pf != nil && name == "" {
				if dir, ok := pf.imports[imp.Source]; ok {
					switch {
					case dir == "":
						res = lang.Resolution{Rule: lang.RuleExternal}
					case res.Target != nil && path.Dir(res.Target.Path) == dir:
						res.Rule, res.Confidence = lang.RuleTypes, lang.RuleConfidence(lang.RuleTypes)
					}
				}
			}
			add(makeEdge(src, KindImport, name, imp.Source, imp.Alias, "", imp.Line, res))
		}
	}
	targets := r.targets
	if targets == nil {
		targets = make([]*lang.Target, len(r.ids))
	}
	from := func(s int) *lang.Target {
		if targets[s] == nil {
			targets[s] = targetOf(r, s)
		}
		return targets[s]
	}
	for i := range r.facts.Refs {
		ref := &r.facts.Refs[i]
		s := ref.Symbol
		if s < 0 || s >= len(r.ids) {
			s = 0
		}
		ctx.From = from(s)
		if pf != nil && ref.Kind == lang.RefReference {
			continue // the type checker's own value references (pf.extra) stand for these
		}
		var res lang.Resolution
		if p, ok := pf.lookup(ref); ok {
			res = preciseResolution(tab, p)
		}
		if res.Rule == "" {
			res = g.Resolve(l, ctx, ref)
		}
		if !recorded(ref.Kind, res) {
			continue
		}
		add(makeEdge(r.ids[s], ref.Kind, ref.Name, ref.Qualifier, ref.QualifierType, ref.QualifierCall, ref.Line, res))
	}
	if pf != nil {
		for i := range pf.extra {
			x := &pf.extra[i]
			res := preciseResolution(tab, x.to)
			if res.Target == nil {
				continue
			}
			src := ""
			for j := range r.ids {
				if s := from(j); s.Name == x.srcName && s.Container == x.srcContainer {
					src = r.ids[j]
					break
				}
			}
			if src == "" {
				continue
			}
			add(makeEdge(src, x.kind, x.name, x.qual, "", "", x.line, res))
		}
	}
	for i := range out {
		out[i].setDigest()
	}
	r.faults = append(r.faults, g.Faults()...)
	r.work = g.Work()
	return sc.keep(out, index)
}

// edgeScratch is where fileEdges grows a file's edges and their index by
// key, kept from file to file by one resolution worker: grown afresh for
// every file they were a tenth of a full build's allocations. The edges
// returned are an exact-size copy. nil is a scratch for one call.
type edgeScratch struct {
	edges []edgeRow
	index map[edgeKey]int
}

// maxScratchEdges bounds the edges (and keys) a scratch keeps.
const maxScratchEdges = 1 << 14

// keep takes back the edges grown in the scratch and the index, emptied,
// and returns an exact-size copy of the edges.
func (sc *edgeScratch) keep(grown []edgeRow, index map[edgeKey]int) []edgeRow {
	out := exactCopyEdges(grown)
	clear(grown)
	sc.edges, sc.index = nil, nil
	if cap(grown) <= maxScratchEdges {
		sc.edges = grown[:0]
	}
	if len(index) <= maxScratchEdges {
		clear(index)
		sc.index = index
	}
	return out
}

func exactCopyEdges(s []edgeRow) []edgeRow {
	if len(s) == 0 {
		return nil
	}
	return append(make([]edgeRow, 0, len(s)), s...)
}

// recorded reports whether a resolved reference becomes an edge: a
// builtin does not, and neither does what lang.NoEdge says is none.
func recorded(kind string, res lang.Resolution) bool {
	return res.Rule != lang.RuleBuiltin && !lang.NoEdge(kind, res)
}

// preciseResolution binds a reference to what the type checker proved, or
// returns a zero Resolution when sdl has no symbol for the declaration.
func preciseResolution(tab lang.Table, p preciseRef) lang.Resolution {
	switch {
	case p.dynamic:
		return lang.Resolution{Rule: lang.RuleDynamic}
	case p.path == "":
		return lang.Resolution{Rule: lang.RuleExternal}
	}
	var hit *lang.Target
	for _, t := range tab.ByName(p.name) {
		if t.Path == p.path && t.Container == p.container {
			hit = t
			break
		}
	}
	if hit == nil {
		if tab.File(p.path) == nil {
			// declared in a file sdl does not index (generated, too
			// large): no symbol to bind, and no same-named guess either
			return lang.Resolution{Rule: lang.RuleUnresolved}
		}
		return lang.Resolution{}
	}
	return lang.Resolution{Target: hit, Rule: lang.RuleTypes, Confidence: lang.RuleConfidence(lang.RuleTypes)}
}

func makeEdge(src, kind, name, qual, qualType, qualCall string, line int, res lang.Resolution) edgeRow {
	e := edgeRow{src: src, kind: kind, name: name, qual: qual, qualType: qualType, qualCall: qualCall,
		rule: res.Rule, confidence: res.Confidence, candidates: res.Candidates, line: line}
	if res.Target != nil {
		e.dst = res.Target.ID
	}
	return e
}
