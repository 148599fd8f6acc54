package lang

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
)

// MaxDepth bounds every chain a resolver follows within one computation:
// re-exports, imports of imports, bases and supertraits, aliases, embedded
// types, receiver chains. One limit for every language, so that no
// resolver recurses further than another.
const MaxDepth = 8

// MaxChain bounds how much of a call chain an extractor spells out in a
// qualifier (a.b().c()...), and how far it walks down one to its head.
const MaxChain = 24

// maxNesting bounds how deep memoised computations (Table.Memo) nest in
// one resolution: a resolver starts its depth afresh inside each, so
// MaxDepth alone does not bound the stack. Go turns a goroutine's stack
// overflow into a fatal error no recover can catch; this limit is what
// keeps a runaway resolver from reaching it.
const maxNesting = 8 * MaxDepth

// FileWorkBudget bounds the work of resolving one file, counted in table
// lookups plus the candidates they return. A file that spends it keeps its
// symbols and the references bound so far; the rest stay unresolved and
// the file is recorded with a fault.
const FileWorkBudget = 50_000_000

// Stages of a file's work that a Fault names.
const (
	StageExtract = "extract" // the language's extraction of symbols and references
	StageDerive  = "derive"  // fingerprints, words, facts and summaries of the symbols
	StageResolve = "resolve" // binding references and imports to symbols
)

var (
	// ErrDepth means a resolution nested deeper than the shared limit.
	ErrDepth = errors.New("depth limit")
	// ErrBudget means a file spent its resolution work budget.
	ErrBudget = errors.New("work budget spent")
)

// Fault records a stage of one file's work that failed, and why; the file
// keeps what the stage produced before it failed.
type Fault struct {
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
	// Count is how often it happened: in resolution, the references or
	// lookups it left unresolved.
	Count int `json:"count,omitempty"`
}

// ResolveHook, when set, runs at the start of every guarded resolution of
// a reference, inside the resolver. Tests set it to inject faults.
var ResolveHook func(ctx *Context, r *Ref)

// guarded runs f and turns a panic into a fault of stage.
func guarded(stage string, faults *[]Fault, f func()) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			*faults = append(*faults, Fault{Stage: stage, Reason: panicReason(v)})
			ok = false
		}
	}()
	f()
	return true
}

// panicReason describes a recovered panic with the function of sdl it
// came from.
func panicReason(v any) string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	where := ""
	for {
		fr, more := frames.Next()
		if strings.Contains(fr.Function, "/sdl/") && !strings.Contains(fr.Function, "lang.guarded") &&
			!strings.Contains(fr.Function, "(*Guard)") && !strings.HasPrefix(fr.Function, "runtime.") {
			where = fr.Function[strings.LastIndexByte(fr.Function, '/')+1:]
			break
		}
		if !more {
			break
		}
	}
	if where == "" {
		return fmt.Sprintf("panic: %v", v)
	}
	return fmt.Sprintf("panic: %v (in %s)", v, where)
}

// MemoStore is a Table whose memo can be read and written apart: the
// Guard stores only the values that do not depend on where a cycle was
// cut.
type MemoStore interface {
	MemoLoad(key string) (string, bool)
	MemoStore(key, value string)
}

// Guard is the Table one file's resolution sees: it counts the work,
// bounds the nesting of memoised computations, cuts cycles among them,
// and turns a panic, the depth limit or a spent budget into a Fault. It
// belongs to one goroutine.
type Guard struct {
	tab    Table
	store  MemoStore
	own    map[string]string // the memo, when tab keeps none apart
	budget int
	work   int
	// the keys of the memoised computations in progress, outermost
	// first; those below position tainted depend on a cut
	stack   []string
	onStack map[string]int
	tainted int
	// values of one outermost computation that depend on a cut cycle:
	// reused within it, never stored
	local  map[string]string
	spent  bool
	faults []Fault
}

// NewGuard guards the resolution of one file against tab.
func NewGuard(tab Table) *Guard {
	g := &Guard{tab: tab, budget: FileWorkBudget, onStack: map[string]int{}, local: map[string]string{}}
	if s, ok := tab.(MemoStore); ok {
		g.store = s
	} else {
		g.own = map[string]string{}
	}
	return g
}

// Faults returns what went wrong in this file's resolution: at most one
// fault per reason, counting the references it left unresolved.
func (g *Guard) Faults() []Fault { return g.faults }

// Work is the work spent so far.
func (g *Guard) Work() int { return g.work }

func (g *Guard) fault(reason string) {
	for i := range g.faults {
		if g.faults[i].Reason == reason {
			g.faults[i].Count++
			return
		}
	}
	g.faults = append(g.faults, Fault{Stage: StageResolve, Reason: reason, Count: 1})
}

// budgetSpent is the panic value that unwinds a resolution out of work.
type budgetSpent struct{}

func (g *Guard) spend(n int) {
	g.work += n
	if g.work > g.budget {
		panic(budgetSpent{})
	}
}

// Resolve binds a reference like Language.Resolve, under the guard: ctx's
// Table must be g.
func (g *Guard) Resolve(l *Language, ctx *Context, r *Ref) (res Resolution) {
	if g.spent {
		g.fault(ErrBudget.Error())
		return Unbound(RuleUnresolved, 0)
	}
	defer g.recover(&res)
	if ResolveHook != nil {
		ResolveHook(ctx, r)
	}
	return l.Resolve(ctx, r)
}

// ResolveImport binds an import like Language.ResolveImport, under the
// guard.
func (g *Guard) ResolveImport(l *Language, ctx *Context, imp *Import, name string) (res Resolution) {
	if g.spent {
		g.fault(ErrBudget.Error())
		return Unbound(RuleUnresolved, 0)
	}
	defer g.recover(&res)
	return l.ResolveImport(ctx, imp, name)
}

func (g *Guard) recover(res *Resolution) {
	v := recover()
	if v == nil {
		return
	}
	// the unwound computations are no longer in progress
	g.stack, g.tainted = g.stack[:0], 0
	clear(g.onStack)
	clear(g.local)
	*res = Unbound(RuleUnresolved, 0)
	if _, ok := v.(budgetSpent); ok {
		g.spent = true
		g.fault(ErrBudget.Error())
		return
	}
	g.fault(panicReason(v))
}

func (g *Guard) ByName(name string) []*Target {
	ts := g.tab.ByName(name)
	g.spend(1 + len(ts))
	return ts
}

func (g *Guard) File(p string) *FileInfo {
	g.spend(1)
	return g.tab.File(p)
}

func (g *Guard) ModuleFiles(l, module string) []string {
	fs := g.tab.ModuleFiles(l, module)
	g.spend(1 + len(fs))
	return fs
}

func (g *Guard) DirFiles(dir string) []string {
	fs := g.tab.DirFiles(dir)
	g.spend(1 + len(fs))
	return fs
}

func (g *Guard) Config(key string) []string {
	g.spend(1)
	return g.tab.Config(key)
}

func (g *Guard) Project(key string) Project {
	g.spend(1)
	return g.tab.Project(key)
}

// Memo returns the value of key, computing it with f the first time.
//
// A key asked for again while its own computation is in progress is a
// cycle: the inner request finds nothing ("") instead of recursing for
// ever. Every computation in progress then depends on where the cycle was
// entered, so none of their values is stored for other files: they are
// kept for the rest of the outermost computation only. The memo thus
// holds only values computed without a cut, the same whichever file or
// worker computes them first, which keeps runs deterministic. Nesting
// beyond maxNesting is cut the same way and recorded as a fault.
func (g *Guard) Memo(key string, f func() string) string {
	g.spend(1)
	if g.store != nil {
		if v, ok := g.store.MemoLoad(key); ok {
			return v
		}
	} else if v, ok := g.own[key]; ok {
		return v
	}
	if _, ok := g.onStack[key]; ok {
		g.taint()
		return ""
	}
	if v, ok := g.local[key]; ok {
		g.taint() // computed across a cut elsewhere in this computation
		return v
	}
	if len(g.stack) >= maxNesting {
		g.fault(ErrDepth.Error())
		g.taint()
		return ""
	}
	pos := len(g.stack)
	g.stack = append(g.stack, key)
	g.onStack[key] = pos
	v := f()
	g.stack = g.stack[:pos]
	delete(g.onStack, key)
	switch {
	case pos < g.tainted:
		g.tainted = pos
		g.local[key] = v
	case g.store != nil:
		g.store.MemoStore(key, v)
	default:
		g.own[key] = v
	}
	if pos == 0 {
		clear(g.local)
	}
	return v
}

// taint marks every computation in progress as depending on a cut.
func (g *Guard) taint() { g.tainted = len(g.stack) }
