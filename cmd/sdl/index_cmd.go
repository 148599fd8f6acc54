package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

var dbFlag = &cli.StringFlag{Name: "db", Usage: "the index file (default: .sdl/index.db of the repository)"}
var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print JSON"}

func indexCommand() *cli.Command {
	return &cli.Command{
		Name:  "index",
		Usage: "index a repository into .sdl/index.db (a new version if anything changed)",
		Description: "With --rev REF the tree of a git revision is read from the repository's objects (no checkout)\n" +
			"and the version records that commit and REF: index a pull request's base and head, then ask\n" +
			"what it does: sdl index --rev origin/main && sdl index --rev HEAD && sdl risk --from origin/main --to HEAD",
		ArgsUsage: "[DIR]",
		Flags: []cli.Flag{
			dbFlag, jsonFlag,
			&cli.BoolFlag{Name: "full", Usage: "parse and resolve every file again and record a new version even if no file changed (repairs stale rows)"},
			&cli.IntFlag{Name: "workers", Usage: "parse workers", DefaultText: "number of CPUs"},
			&cli.BoolFlag{Name: "generated", Usage: "index generated code too (Code generated ... DO NOT EDIT, .pb.go): calls into it resolve; the index section of .sdl/config.yaml can make it the default"},
			&cli.Int64Flag{Name: "max-file-size", Usage: "skip source files larger than this many bytes", Value: index.DefaultMaxFileSize},
			&cli.BoolFlag{Name: "no-git", Usage: "do not read git metadata"},
			&cli.StringFlag{Name: "precise", Value: "auto", Usage: "Go precise mode (go list + go/types, confidence 1): " +
				"on = type-check Go packages now (the go command builds dependencies' export data; an index of heuristic " +
				"edges is upgraded as a new version), off = tree-sitter heuristics only, auto = what the index holds " +
				"(precise after a run with on, else heuristics; never with --rev)"},
			&cli.StringSliceFlag{Name: "scip", Usage: "import a SCIP index (repeatable): its definitions and references become precise edges"},
			&cli.StringFlag{Name: "rev", Usage: "index this git commit, branch or tag from the repository's objects, without a checkout (DIR may be a bare repository)"},
			&cli.StringFlag{Name: "embed", Usage: "symbol vectors: builtin (the model inside sdl), http (an OpenAI-compatible endpoint: " +
				"SDL_EMBED_URL, SDL_EMBED_MODEL, SDL_EMBED_KEY or the embedding section of .sdl/config.yaml) or none " +
				"(default: the index's current model, else " + embed.DefaultProvider + ")"},
			cpuProfileFlag,
			&cli.StringFlag{Name: "memprofile", Usage: "write an allocation profile to this file at the end", Hidden: true},
			&cli.StringFlag{Name: "heapprofile", Usage: "write a heap profile taken at the run's largest live heap to this file", Hidden: true},
			&cli.BoolFlag{Name: "trace", Usage: "print the duration of each phase on stderr", Hidden: true},
		},
		Action: func(c *cli.Context) (err error) {
			stop, err := startCPUProfile(c)
			if err != nil {
				return err
			}
			defer stop()
			if p := c.String("memprofile"); p != "" {
				defer func() {
					var buf bytes.Buffer
					werr := pprof.Lookup("allocs").WriteTo(&buf, 0)
					if werr == nil {
						werr = os.WriteFile(p, buf.Bytes(), 0o644)
					}
					if werr != nil && err == nil {
						err = fmt.Errorf("memory profile: %w", werr)
					}
				}()
			}
			if p := c.String("heapprofile"); p != "" {
				stop := peakHeapProfile()
				defer func() {
					if data := stop(); data != nil {
						if werr := os.WriteFile(p, data, 0o644); werr != nil && err == nil {
							err = fmt.Errorf("heap profile: %w", werr)
						}
					}
				}()
			}
			if c.NArg() > 1 {
				return usagef("index takes one directory, got %d arguments", c.NArg())
			}
			root := c.Args().First()
			dbPath := c.String("db")
			if root == "" {
				root = "."
				if dbPath == "" {
					if found, ok := findIndexUp("."); ok {
						root = filepath.Dir(filepath.Dir(found))
					}
				}
			}
			precise := c.String("precise")
			switch precise {
			case "auto":
				precise = index.PreciseAuto
			case index.PreciseOn, index.PreciseOff:
			default:
				return usagef("--precise must be auto, on or off, not %q", precise)
			}
			if precise == index.PreciseOn && c.String("rev") != "" {
				return usagef("--precise on type-checks the files on disk with the go command, and --rev reads a " +
					"revision from git objects: drop --precise (the heuristics resolve what changed), or check the " +
					"revision out and index the working tree")
			}
			cfg, err := embed.LoadConfig(root)
			if err != nil {
				return err
			}
			if v := c.String("embed"); v != "" {
				switch v {
				case embed.ProviderBuiltin, embed.ProviderHTTP, embed.ProviderNone:
					cfg.Provider = v
				default:
					return usagef("--embed %q: use builtin, http or none", v)
				}
			}
			opts := index.Options{
				GoPrecise:  precise,
				SCIP:       c.StringSlice("scip"),
				Root:       root,
				DB:         dbPath,
				Workers:    c.Int("workers"),
				Full:       c.Bool("full"),
				NoGit:      c.Bool("no-git"),
				Rev:        c.String("rev"),
				SDLVersion: version,
				Walk:       index.WalkOptions{MaxFileSize: c.Int64("max-file-size"), Generated: c.Bool("generated")},
				Embedding:  cfg,
			}
			if c.Bool("trace") {
				opts.Trace = c.App.ErrWriter
			}
			if t, ok := sourceDateEpoch(); ok {
				opts.Now, opts.NoStamps = t, true
			}
			errw := c.App.ErrWriter
			var bar *progressBar
			if isTTY(errw) && !c.Bool("json") {
				bar = newProgressBar(errw)
				opts.Progress = func(p index.Progress) { bar.update(p.Phase, p.Done, p.Total) }
			}
			setMemoryLimit()
			sum, err := index.Run(c.Context, opts)
			if bar != nil {
				bar.clear()
			}
			if err != nil {
				return err
			}
			if sum.Rebuilt {
				// earlier versions are gone: never silently
				dropped := ""
				if sum.VersionsDropped > 0 {
					dropped = fmt.Sprintf("; its %d earlier version(s) are gone", sum.VersionsDropped)
				}
				fmt.Fprintf(errw, "sdl: warning: the index was built again (%s)%s\n", sum.RebuildReason, dropped)
			}
			rep := newIndexReport(c.Context, sum, root, errw)
			if c.Bool("json") {
				return writeJSON(c.App.Writer, rep)
			}
			printSummary(newUI(c.App.Writer), rep)
			return nil
		},
	}
}

// sourceDateEpoch reads SOURCE_DATE_EPOCH, the reproducible-builds
// convention for "the time to record".
func sourceDateEpoch() (time.Time, bool) {
	v := os.Getenv("SOURCE_DATE_EPOCH")
	if v == "" {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(n, 0).UTC(), true
}

// indexReport is what sdl index reports of a run: the index's summary,
// with the symbol counts of a new version as sdl delta counts them.
type indexReport struct {
	*index.Summary
	SymbolsRenamed int `json:"symbolsRenamed"`
}

// newIndexReport reports a run of index.Run on root; a warning goes to
// errw when renames could not be paired.
func newIndexReport(ctx context.Context, sum *index.Summary, root string, errw io.Writer) *indexReport {
	rep := &indexReport{Summary: sum}
	if sum.NewVersion && sum.Seq > 1 && !sum.Rebuilt {
		if err := rep.pairRenames(ctx, root); err != nil {
			// the version is written: its raw counts stand
			fmt.Fprintf(errw, "sdl: warning: renames not paired: %v\n", err)
		}
	}
	return rep
}

// pairRenames replaces the run's symbol counts, where the writer saw a
// renamed or moved symbol as one removed and one added, with the counts
// of the delta from the previous version, which pairs them.
func (r *indexReport) pairRenames(ctx context.Context, root string) error {
	x, err := query.OpenOnce(r.DB, root)
	if err != nil {
		return err
	}
	defer x.Close()
	d, err := x.SymbolCounts(ctx, r.Seq-1, r.Seq)
	if err != nil {
		return err
	}
	r.SymbolsAdded, r.SymbolsChgd, r.SymbolsRmvd = d.SymbolsAdded, d.SymbolsModified, d.SymbolsRemoved
	r.SymbolsMoved, r.SymbolsRenamed = d.SymbolsRelocated, d.SymbolsRenamed
	return nil
}

func printSummary(u *ui, r *indexReport) {
	s := r.Summary
	rel := s.DB
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, s.DB); err == nil && !strings.HasPrefix(r, "..") {
			rel = r
		}
	}
	var what string
	switch {
	case !s.NewVersion:
		what = u.ok("up to date") + " at " + s.Version
	case s.Seq == 1 || s.Rebuilt:
		what = u.ok("indexed") + " " + s.Version
	default:
		what = u.ok(s.Version) + fmt.Sprintf(": %d changed, %d added, %d removed files; symbols +%d ~%d -%d",
			s.FilesChanged, s.FilesAdded, s.FilesRemoved, s.SymbolsAdded, s.SymbolsChgd, s.SymbolsRmvd)
		if r.SymbolsRenamed > 0 {
			what += fmt.Sprintf(", %d renamed or moved", r.SymbolsRenamed)
		}
		if s.SymbolsMoved > 0 {
			what += fmt.Sprintf(", %d moved", s.SymbolsMoved)
		}
		if s.SkipsChanged > 0 {
			what += fmt.Sprintf("; %s changed", count(s.SkipsChanged, "skipped path", "skipped paths"))
		}
	}
	if s.Rebuilt {
		what += " " + u.warn("(rebuilt: "+s.RebuildReason+")")
	}
	fmt.Fprintf(u.w, "%s · %s (%d skipped, %d with errors) · %s · %s · %s · %.1fs · %s → %s\n",
		what, count(s.Files, "file", "files"), s.Skipped, s.ParseErrors+s.Unreadable, count(s.Symbols, "symbol", "symbols"),
		count(s.Edges, "edge", "edges"), count(s.Versions, "version", "versions"), s.Seconds, bytesText(s.Bytes), rel)
	if s.Faults > 0 {
		fmt.Fprintln(u.w, u.warn(fmt.Sprintf("%s with faults (a stage failed; they keep what was indexed before): see sdl info", count(s.Faults, "file", "files"))))
	}
	if m := s.Memories; m != nil && (m.Memories+m.Removed+len(m.Problems)+m.FeedbackImported > 0) {
		line := fmt.Sprintf("memories: %d (%d imported, %d removed, %d flagged stale", m.Memories, m.Imported, m.Removed, m.Stale)
		if m.Kept > 0 {
			line += fmt.Sprintf(", %d kept from files that no longer parse", m.Kept)
		}
		if m.Relinked > 0 {
			line += fmt.Sprintf(", %d links followed a rename", m.Relinked)
		}
		line += ")"
		if m.FeedbackImported > 0 {
			line += fmt.Sprintf(" · feedback: %d imported", m.FeedbackImported)
		}
		fmt.Fprintln(u.w, u.dim(line))
		for _, p := range m.Problems {
			fmt.Fprintf(u.w, "%s %s (not imported)\n", u.warn("memory file"), p.Error())
		}
	}
	if m := s.Memories; m != nil {
		for _, w := range m.Warnings {
			fmt.Fprintln(u.w, u.warn("warning: "+w))
		}
	}
	if line := embedLine(u, s.Embedding); line != "" {
		fmt.Fprintln(u.w, line)
	}
	if s.GoPrecise != "" {
		line := fmt.Sprintf("go: %d package(s) type-checked", s.PreciseGo)
		if s.PreciseGoFailed > 0 {
			line += fmt.Sprintf(", %d with errors (their files keep the heuristics)", s.PreciseGoFailed)
		}
		fmt.Fprintln(u.w, u.dim(line))
	}
	if s.GoHeuristic && s.NewVersion && (s.Seq == 1 || s.Rebuilt) {
		fmt.Fprintln(u.w, u.dim("go: edges by the heuristics; `sdl index --precise on` type-checks them (the go command "+
			"builds the dependencies' export data once) and later runs keep them precise"))
	}
}

// embedLine says what happened to vectors, when anything did or is wrong.
func embedLine(u *ui, e *index.EmbedSummary) string {
	if e == nil {
		return ""
	}
	if e.Removed {
		return "vectors removed"
	}
	if e.Model == embed.ProviderNone && e.Error == "" {
		return ""
	}
	var parts []string
	if e.Embedded+e.Reused > 0 {
		parts = append(parts, fmt.Sprintf("%d embedded", e.Embedded))
		if e.Reused > 0 {
			parts = append(parts, fmt.Sprintf("%d reused", e.Reused))
		}
	}
	if e.MemoriesEmbedded > 0 {
		parts = append(parts, count(e.MemoriesEmbedded, "memory", "memories")+" embedded")
	}
	if e.Missing > 0 {
		parts = append(parts, u.warn(count(e.Missing, "symbol", "symbols")+" without vectors"))
	}
	if e.MemoriesMissing > 0 {
		parts = append(parts, u.warn(count(e.MemoriesMissing, "memory", "memories")+" without vectors"))
	}
	if e.Reembed != "" {
		parts = append(parts, "all embedded again: "+e.Reembed)
	}
	if e.Error != "" {
		parts = append(parts, u.warn(e.Error))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("vectors %s: %s", e.Model, strings.Join(parts, " · "))
}

func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// findIndexUp looks for .sdl/index.db in dir and its parents.
func findIndexUp(dir string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		p := filepath.Join(abs, ".sdl", "index.db")
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", false
		}
		abs = parent
	}
}

// sortedCounts renders a count map as "a 3, b 2" in descending order.
func sortedCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// The garbage collector of an index run. At GOGC 100 a full index of
// GOROOT/src spends ~1.5 s of CPU collecting a heap that is mostly
// garbage between files; indexGCPercent collects a fifth as often while
// the live heap is small, and a soft limit keeps the heap of a large tree
// near indexHeapFloor (peak RSS on GOROOT/src stays near GOGC 100's).
// The limit follows the live heap at twice its size, GOGC 100's goal, so
// a tree whose live heap passes half the floor collects as often as it
// did at GOGC 100, never without pause against a limit it cannot meet;
// indexMemoryLimit caps it, so a very large tree stays well under 2 GB
// of RSS (SQLite's page cache and tree-sitter's trees come on top).
// GOGC and GOMEMLIMIT in the environment take precedence.
const (
	indexGCPercent   = 400
	indexHeapFloor   = 300 << 20
	indexMemoryLimit = 1280 << 20
)

// setMemoryLimit sets the collector of an index run (see indexGCPercent).
func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if os.Getenv("GOGC") != "" {
		debug.SetMemoryLimit(indexMemoryLimit)
		return
	}
	debug.SetGCPercent(indexGCPercent)
	followLiveHeap()
}

// heapLimit is the memory limit of an index run whose live heap is live
// bytes: twice the live heap, within [indexHeapFloor, indexMemoryLimit].
func heapLimit(live uint64) int64 {
	return min(max(2*int64(min(live, indexMemoryLimit)), indexHeapFloor), indexMemoryLimit)
}

// gcSentinel is an object nobody references: its finalizer runs after
// each collection that finds it, and arms another.
type gcSentinel struct{ _ *byte }

// followLiveHeap sets the memory limit from the live heap now and after
// every collection, for the rest of the process (an index run).
func followLiveHeap() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetMemoryLimit(heapLimit(sample[0].Value.Uint64()))
		}
		runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) { arm() })
	}
	arm()
}

// heapSampleEvery is how often peakHeapProfile looks at the live heap; a
// profile is taken again when it grew by heapProfileStep over the last.
const (
	heapSampleEvery = 100 * time.Millisecond
	heapProfileStep = 1.03
)

// peakHeapProfile watches the live heap (as of the last GC) and keeps a
// heap profile taken when it was largest: what holds memory at the peak,
// which a profile at the end of the run (--memprofile) no longer shows.
// stop ends the watch and returns the profile (taken then when the run
// was shorter than one sample).
func peakHeapProfile() (stop func() []byte) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	var best []byte
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		t := time.NewTicker(heapSampleEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if live := sample[0].Value.Uint64(); float64(live) > float64(peak)*heapProfileStep {
				// the heap profile lags the live heap by up to two
				// cycles: a collection now makes it show this one
				runtime.GC()
				var buf bytes.Buffer
				if pprof.Lookup("heap").WriteTo(&buf, 0) == nil {
					peak, best = live, buf.Bytes()
				}
			}
		}
	}()
	return func() []byte {
		close(done)
		wg.Wait()
		if best == nil {
			// a run shorter than one sample: its profile at the end
			var buf bytes.Buffer
			runtime.GC()
			if pprof.Lookup("heap").WriteTo(&buf, 0) == nil {
				best = buf.Bytes()
			}
		}
		return best
	}
}

// cpuProfileFlag writes a CPU profile of the command (index, slice, search) to a file.
var cpuProfileFlag = &cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile to this file", Hidden: true}

// startCPUProfile starts the profile --cpuprofile asks for; stop ends it.
func startCPUProfile(c *cli.Context) (stop func(), err error) {
	p := c.String("cpuprofile")
	if p == "" {
		return func() {}, nil
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
