package query

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// The stack-trace lane: the frames of a trace (the request's stackTrace,
// or one pasted into the task text) mapped to the indexed symbols that
// hold them. The innermost frame of the project scores 1 and each frame
// further out traceDecay of the one before: the function that failed, or
// the one that called it wrongly, is near the top of a trace. The score is
// the Trace feature of ranking (weightTrace).
const (
	// traceDecay is the share of a frame's score the next frame out gets.
	traceDecay = 0.7
	// traceLibraryFactor scales a frame in a library path that still
	// resolves to a project file by its folders (the project installed as
	// a package, as in site-packages/_pytest/runner.py for
	// src/_pytest/runner.py). A library frame that resolves only by its
	// file's base name is another package's file, and is dropped.
	traceLibraryFactor = 0.7
	// traceBaseNameFactor scales a project frame whose folders match no
	// indexed path, only its file's base name (the only indexed file of
	// that name).
	traceBaseNameFactor = 0.5
	// traceMaxFrames bounds the frames the lane resolves.
	traceMaxFrames = 40
	// stackTraceSeed is the seed weight of the innermost frame of the
	// request's stackTrace (which the caller gave as a trace, so its
	// frames also start the slice); further frames get
	// stackTraceSeedDecay of the one before.
	stackTraceSeed      = 1.0
	stackTraceSeedDecay = 0.85
)

// seedStackTrace runs the stack-trace lane over the request's stackTrace,
// whose frames are also seeds, and over a trace pasted into the task text
// (an issue report often holds one).
func (b *sliceBuild) seedStackTrace(ctx context.Context) error {
	b.trace = map[string]float64{}
	files := map[string]traceFile{}
	if strings.TrimSpace(b.req.StackTrace) != "" {
		if err := b.traceLane(ctx, ParseStackTrace(b.req.StackTrace), "stackTrace", files); err != nil {
			return err
		}
	}
	if b.req.TaskText != "" {
		return b.traceLane(ctx, ParseStackTrace(b.req.TaskText), "taskText trace", files)
	}
	return nil
}

// traceFile is a frame's file as the index holds it.
type traceFile struct {
	path    string
	matched int // trailing path parts that match the frame's
	syms    []*symbolRow
}

func (b *sliceBuild) traceLane(ctx context.Context, frames []Frame, source string, files map[string]traceFile) error {
	b.ev.Frames = append(b.ev.Frames, frames...)
	rank, seed := 0, stackTraceSeed
	done := map[string]bool{}
	for i, f := range frames {
		if i == traceMaxFrames {
			break
		}
		tf, ok := files[f.File]
		if !ok {
			p, err := b.x.resolvePath(ctx, f.File)
			if err != nil {
				return err
			}
			tf = traceFile{path: p}
			if p != "" {
				tf.matched = matchedParts(f.File, p)
				if tf.syms, err = b.x.symbolsInFile(ctx, p); err != nil {
					return err
				}
			}
			files[f.File] = tf
		}
		if tf.path == "" {
			continue
		}
		factor := 1.0
		baseOnly := tf.matched < 2 && strings.Contains(strings.Trim(f.File, "/"), "/")
		switch {
		case f.Library && baseOnly:
			continue
		case f.Library:
			factor = traceLibraryFactor
		case baseOnly:
			factor = traceBaseNameFactor
		}
		s := frameSymbol(tf.syms, f)
		if s == nil || done[s.ID] {
			continue
		}
		done[s.ID] = true
		score := factor * math.Pow(traceDecay, float64(rank))
		rank++
		if score > b.trace[s.ID] {
			b.trace[s.ID] = score
		}
		why := fmt.Sprintf("stack frame %s:%d", f.File, f.Line)
		w := score
		if source == "stackTrace" {
			w = seed
			b.seed(s.ID, seed, why)
			if _, ok := b.forced[s.ID]; !ok && seed > 0.5 {
				b.forced[s.ID] = why
			}
			seed *= stackTraceSeedDecay
		} else {
			b.because(s.ID, why)
		}
		b.ev.Seeds = append(b.ev.Seeds, SeedEvidence{SymbolID: s.ID, Name: s.Qualified, Source: source, Weight: round4(w)})
		b.ev.Lanes = appendOnce(b.ev.Lanes, source)
	}
	return nil
}

// matchedParts counts the trailing path parts a frame's path shares with
// the indexed path it resolved to.
func matchedParts(frame, indexed string) int {
	a := strings.Split(strings.Trim(frame, "/"), "/")
	b := strings.Split(indexed, "/")
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// frameSymbol is the symbol a frame points at: the one the frame names
// that holds its line (or the nearest of that name, since the trace may
// come from another version of the file), else the innermost symbol that
// holds the line.
func frameSymbol(syms []*symbolRow, f Frame) *symbolRow {
	var best *symbolRow
	bestDist := math.MaxInt
	if isIdentName(f.Function) {
		for _, s := range syms {
			if s.Kind == lang.KindModule || s.Name != f.Function {
				continue
			}
			d := 0
			if f.Line < s.Range.StartLine {
				d = s.Range.StartLine - f.Line
			} else if f.Line > s.Range.EndLine {
				d = f.Line - s.Range.EndLine
			}
			if d < bestDist || d == bestDist && best != nil && span(s) < span(best) {
				best, bestDist = s, d
			}
		}
		if best != nil {
			return best
		}
	}
	for _, s := range syms {
		if s.Kind == lang.KindModule || s.Range.StartLine > f.Line || s.Range.EndLine < f.Line {
			continue
		}
		if best == nil || span(s) < span(best) {
			best = s
		}
	}
	return best
}

func span(s *symbolRow) int { return s.Range.EndLine - s.Range.StartLine }

// isIdentName reports whether a frame's function is a name a symbol can
// have (not <module>, <lambda> or <anonymous>).
func isIdentName(s string) bool {
	return s != "" && !strings.ContainsAny(s, "<>[] ")
}
