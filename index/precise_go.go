package index

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/gcexportdata"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// Precise modes for Go (Options.GoPrecise).
const (
	// PreciseAuto type-checks Go modules when a go toolchain is on PATH and
	// falls back to the heuristics silently when it is not.
	PreciseAuto = ""
	// PreciseOff uses the tree-sitter heuristics only.
	PreciseOff = "off"
	// PreciseOn is PreciseAuto that fails when no go toolchain is found.
	PreciseOn = "on"
)

// ErrNoGo means Go precise mode was required and no go toolchain is on PATH.
var ErrNoGo = errors.New("go precise mode needs the go command on PATH")

// preciseRef is what the type checker proved a name at a position means.
type preciseRef struct {
	path      string // repo-relative file of the declaration; "" outside the tree
	container string // receiver or interface type of a method
	name      string
	dynamic   bool // a variable or field of function type: no static target
	dup       bool // two different objects under the same key: not used
}

// posKey finds a reference by its line and name, as the extractors record
// it (a call's line is the line where the call expression starts).
type posKey struct {
	line int
	name string
}

// preciseExtra is an edge the heuristics do not record: a method or
// function value, or an implements edge, from the symbol src of the file.
type preciseExtra struct {
	srcContainer, srcName string
	kind, name, qual      string
	line                  int
	to                    preciseRef
}

// preciseFile holds the type checker's facts about one Go file.
type preciseFile struct {
	calls  map[posKey]preciseRef
	idents map[posKey]preciseRef
	extra  []preciseExtra
	// imports maps an import path to the repo-relative directory of the
	// package, "" for a package outside the tree.
	imports map[string]string
}

// goPrecise is what type-checking the Go modules of a tree proved.
type goPrecise struct {
	files    map[string]*preciseFile
	packages int
	failed   int // packages with type errors (their bad files fall back)
	ifaces   []ifaceDecl
	types    []typeDecl
	errs     []string // the first error of each package that has some
	// api is a hash of what each checked package (by directory) offers
	// its importers, and known the interfaces of the tree as of this run:
	// together they let an incremental run check only the changed
	// packages when what they offer did not change.
	api     map[string]string
	known   []ifaceDecl
	checked map[string]bool // the package directories this run checked
	// env and flags make the go command build for the index's target
	env, flags []string
	goarch     string
}

// lookup returns the precise target of a reference, or false.
func (pf *preciseFile) lookup(ref *lang.Ref) (preciseRef, bool) {
	if pf == nil {
		return preciseRef{}, false
	}
	k := posKey{ref.Line, ref.Name}
	if ref.Kind == lang.RefCall {
		if p, ok := pf.calls[k]; ok {
			return p, !p.dup
		}
	}
	p, ok := pf.idents[k]
	return p, ok && !p.dup
}

// goToolchain reports the go command, or "".
func goToolchain() string {
	p, err := exec.LookPath("go")
	if err != nil {
		return ""
	}
	return p
}

// preciseEnv is how precise mode runs the go command and reports on it.
type preciseEnv struct {
	// offline forbids the go command to download modules (GOPROXY=off):
	// only a run the user asked to type-check (PreciseOn) may wait for that
	offline bool
	// progress, if set, reports a stage of precise mode with counts
	progress func(phase string, done, total int)
}

func (e preciseEnv) report(phase string, done, total int) {
	if e.progress != nil {
		e.progress(phase, done, total)
	}
}

// loadGoPrecise type-checks the Go packages of each module of the tree.
// Packages that fail to load leave their files to the heuristics.
func loadGoPrecise(ctx context.Context, root string, modules lang.GoModules, entries []Entry, overlay map[string][]byte,
	known []ifaceDecl, workers int, target lang.GoTarget, env preciseEnv, trace func(string, ...any)) (*goPrecise, error) {
	// unsaved buffers replace the files on disk for the type checker too
	var abs map[string][]byte
	if len(overlay) > 0 {
		abs = map[string][]byte{}
		for p, data := range overlay {
			abs[filepath.Join(root, filepath.FromSlash(p))] = data
		}
	}
	gp := &goPrecise{files: map[string]*preciseFile{}, api: map[string]string{}, checked: map[string]bool{}}
	gp.env, gp.flags = goTargetEnv(target)
	gp.goarch = target.GOARCH
	if len(modules) == 0 {
		return gp, nil
	}
	modDirs := make([]string, 0, len(modules))
	for _, m := range modules {
		modDirs = append(modDirs, m.Dir)
	}
	// the package directories of each module: directories with Go files
	// that no nested module owns, outside testdata and _/. directories
	pkgs := map[string][]string{}
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Lang == nil || e.Lang.Name != "go" || e.Skip != "" {
			continue
		}
		dir := path.Dir(e.Path)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		if !goPackageDir(dir) {
			continue
		}
		gp.checked[dir] = true
		best := ""
		found := false
		for _, md := range modDirs {
			if md == "." || dir == md || strings.HasPrefix(dir, md+"/") {
				if !found || len(md) > len(best) {
					best, found = md, true
				}
			}
		}
		if found {
			pkgs[best] = append(pkgs[best], dir)
		}
	}
	var overlayFile string
	if len(abs) > 0 {
		f, cleanup, err := writeOverlay(abs)
		if err != nil {
			return nil, err
		}
		defer cleanup()
		overlayFile = f
	}
	retry := map[string]bool{}
	for _, md := range modDirs {
		dirs := pkgs[md]
		sort.Strings(dirs)
		for start := 0; start < len(dirs); start += preciseListMax {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			batch := dirs[start:min(start+preciseListMax, len(dirs))]
			if err := gp.loadModule(ctx, root, md, batch, abs, overlayFile, workers, env); err != nil {
				if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
					return nil, err
				}
				if trace != nil {
					trace("precise: %s: %v", md, err)
				}
				for _, d := range batch {
					retry[d] = true // the next run tries again
				}
			}
		}
	}
	// a directory the go command did not list (outside every module, only
	// test files) has nothing to check: the next run need not try again
	for d := range gp.checked {
		if gp.api[d] == "" && !retry[d] {
			gp.api[d] = "!unlisted"
		}
	}
	// the interfaces of packages not checked in this run, as the last run
	// recorded them
	for _, it := range known {
		if !gp.checked[path.Dir(it.path)] {
			gp.ifaces = append(gp.ifaces, it)
		}
	}
	gp.known = append([]ifaceDecl(nil), gp.ifaces...)
	gp.implements()
	if trace != nil {
		for _, e := range gp.errs {
			trace("precise: %s", e)
		}
	}
	gp.errs = nil
	return gp, nil
}

// goTargetEnv is the environment and flags that make the go command
// build for target, so that precise mode type-checks the files heuristic
// resolution prefers. cgo is set only where the target departs from
// go/build's default: the go command turns it off itself when no C
// compiler is installed.
func goTargetEnv(target lang.GoTarget) (env, flags []string) {
	env = []string{"GOOS=" + target.GOOS, "GOARCH=" + target.GOARCH}
	if target.Cgo != lang.DefaultGoTarget().Cgo {
		cgo := "0"
		if target.Cgo {
			cgo = "1"
		}
		env = append(env, "CGO_ENABLED="+cgo)
	}
	if len(target.Tags) > 0 {
		flags = []string{"-tags=" + strings.Join(target.Tags, ",")}
	}
	return env, flags
}

// preciseListMax bounds the package patterns of one go list command line.
const preciseListMax = 1000

// The export data of a module's dependencies is asked of the go command in
// about preciseExportSteps batches (for progress), of at least
// preciseExportBatch packages (each go list costs a load of the module).
const (
	preciseExportSteps = 8
	preciseExportBatch = 32
)

// goPackageDir reports whether the go command would list a package in dir.
func goPackageDir(dir string) bool {
	if dir == "." {
		return true
	}
	for _, seg := range strings.Split(dir, "/") {
		if seg == "testdata" || seg == "vendor" || strings.HasPrefix(seg, "_") || strings.HasPrefix(seg, ".") {
			return false
		}
	}
	return true
}

// writeOverlay writes the go command's -overlay file for unsaved buffers.
func writeOverlay(abs map[string][]byte) (string, func(), error) {
	dir, err := os.MkdirTemp("", "sdl-overlay-")
	if err != nil {
		return "", nil, fmt.Errorf("precise overlay: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	replace := map[string]string{}
	i := 0
	for p, data := range abs {
		f := filepath.Join(dir, fmt.Sprintf("%d.go", i))
		i++
		if err := os.WriteFile(f, data, 0o600); err != nil {
			cleanup()
			return "", nil, fmt.Errorf("precise overlay: %w", err)
		}
		replace[p] = f
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "overlay.json"), data, 0o600)
	}
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("precise overlay: %w", err)
	}
	return filepath.Join(dir, "overlay.json"), cleanup, nil
}

// listedPackage is what go list -json says of a package.
type listedPackage struct {
	ImportPath      string
	Dir             string
	Export          string
	GoFiles         []string
	CompiledGoFiles []string
	Imports         []string
	ImportMap       map[string]string
	DepOnly         bool
	Error           *struct{ Pos, Err string }
}

// goList runs go list -json with args (flags) on patterns and decodes the
// packages it prints.
func goList(ctx context.Context, dir string, targetEnv, args, patterns []string, overlayFile string, env preciseEnv) ([]*listedPackage, error) {
	args = append([]string{"list", "-e", "-pgo=off"}, args...)
	if overlayFile != "" {
		args = append(args, "-overlay="+overlayFile)
	}
	args = append(args, "--")
	args = append(args, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	// a newer go line in go.mod must not download a toolchain
	// and go.mod and go.sum are only read (-mod=mod would update them)
	cmd.Env = append(append(os.Environ(), "GOTOOLCHAIN=local"), targetEnv...)
	if env.offline {
		// what is not in the module cache stays unresolved: the files
		// that need it keep the heuristics
		cmd.Env = append(cmd.Env, "GOPROXY=off")
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var list []*listedPackage
	dec := json.NewDecoder(out)
	var derr error
	for {
		p := new(listedPackage)
		if derr = dec.Decode(p); derr != nil {
			break
		}
		list = append(list, p)
	}
	io.Copy(io.Discard, out)
	werr := cmd.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if werr != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("go list: %w: %s", werr, msg)
	}
	if derr != io.EOF {
		return nil, fmt.Errorf("go list: reading its output: %w", derr)
	}
	return list, nil
}

// exportImporter gives the type checker the packages a package imports:
// the tree's packages checked earlier in the run, from the export data
// written after checking them, and the others from the export data the go
// command built. Each is decoded once per module, into one universe.
type exportImporter struct {
	mu     sync.Mutex
	fset   *token.FileSet
	pkgs   map[string]*types.Package
	listed map[string]*listedPackage
	blobs  map[string][]byte // export data of checked packages of the tree
	roots  map[string]bool
}

func (im *exportImporter) load(p string) (*types.Package, error) {
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	im.mu.Lock()
	defer im.mu.Unlock()
	if pkg := im.pkgs[p]; pkg != nil && pkg.Complete() {
		return pkg, nil
	}
	if im.roots[p] {
		blob := im.blobs[p]
		if blob == nil {
			return nil, fmt.Errorf("package %q did not type-check", p)
		}
		delete(im.blobs, p) // decoded once: the package stays in im.pkgs
		return gcexportdata.Read(bytes.NewReader(blob), im.fset, im.pkgs, p)
	}
	lp := im.listed[p]
	if lp == nil || lp.Export == "" {
		return nil, fmt.Errorf("no export data for %q", p)
	}
	f, err := os.Open(lp.Export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("export data for %q: %w", p, err)
	}
	return gcexportdata.Read(r, im.fset, im.pkgs, p)
}

// keep records the export data of a checked package for its importers.
func (im *exportImporter) keep(p string, pkg *types.Package) {
	var buf bytes.Buffer
	if err := gcexportdata.Write(&buf, im.fset, pkg); err != nil {
		return // its importers fall back to the heuristics
	}
	im.mu.Lock()
	im.blobs[p] = buf.Bytes()
	im.mu.Unlock()
}

// importerFor resolves a package's import paths (vendoring) first.
type importerFor struct {
	im        *exportImporter
	importMap map[string]string
}

func (i importerFor) Import(p string) (*types.Package, error) {
	if real, ok := i.importMap[p]; ok {
		p = real
	}
	return i.im.load(p)
}

// loadModule type-checks the packages of dirs, in the module at modDir,
// and records what it proves. Packages are checked from source in
// dependency order, each against the export data of what it imports:
// written by sdl for the packages it checked, built by the go command (or
// taken from its cache) for the others, so the go command never compiles
// the packages being checked.
func (gp *goPrecise) loadModule(ctx context.Context, root, modDir string, dirs []string, overlay map[string][]byte,
	overlayFile string, workers int, env preciseEnv) error {
	absMod := filepath.Join(root, filepath.FromSlash(modDir))
	patterns := make([]string, len(dirs))
	for i, d := range dirs {
		rel := strings.TrimPrefix(strings.TrimPrefix(d, modDir), "/")
		if modDir == "." {
			rel = d
		}
		if rel == "" || rel == "." {
			patterns[i] = "."
		} else {
			patterns[i] = "./" + rel
		}
	}
	// dependencies first (go list -deps prints a post-order)
	env.report("go list", 0, 0)
	list, err := goList(ctx, absMod, gp.env, append([]string{"-compiled", "-deps",
		"-json=ImportPath,Dir,GoFiles,CompiledGoFiles,Imports,ImportMap,DepOnly,Error"}, gp.flags...), patterns, overlayFile, env)
	if err != nil {
		return err
	}
	im := &exportImporter{fset: token.NewFileSet(), pkgs: map[string]*types.Package{},
		listed: map[string]*listedPackage{}, blobs: map[string][]byte{}, roots: map[string]bool{}}
	order := map[string]int{}
	var roots []*listedPackage
	for i, p := range list {
		im.listed[p.ImportPath] = p
		order[p.ImportPath] = i
		if !p.DepOnly {
			im.roots[p.ImportPath] = true
			roots = append(roots, p)
		}
	}
	// the checked packages each one waits for: those it imports directly
	// or through packages that are not checked, earlier in the order
	// (which also breaks import cycles, an error the checker reports)
	reach := map[string][]string{}
	var rootsOf func(p string, seen map[string]bool) []string
	rootsOf = func(p string, seen map[string]bool) []string {
		if r, ok := reach[p]; ok {
			return r
		}
		if seen[p] {
			return nil
		}
		seen[p] = true
		var out []string
		lp := im.listed[p]
		if lp == nil {
			return nil
		}
		for _, q := range lp.Imports {
			if im.roots[q] {
				out = append(out, q)
			} else {
				out = append(out, rootsOf(q, seen)...)
			}
		}
		reach[p] = out
		return out
	}
	index := map[string]int{}
	for i, r := range roots {
		index[r.ImportPath] = i
	}
	waits := make([]int, len(roots))
	dependents := make([][]int, len(roots))
	external := map[string]bool{} // packages read from the go command's export data
	for i, r := range roots {
		deps := map[int]bool{}
		for _, q := range r.Imports {
			if !im.roots[q] {
				if q != "unsafe" && q != "C" {
					external[q] = true
				}
				for _, rq := range rootsOf(q, map[string]bool{}) {
					if order[rq] < order[r.ImportPath] {
						deps[index[rq]] = true
					}
				}
			} else if order[q] < order[r.ImportPath] {
				deps[index[q]] = true
			}
		}
		waits[i] = len(deps)
		for d := range deps {
			dependents[d] = append(dependents[d], i)
		}
	}
	// nothing to check (every package failed to list or has no file for
	// this platform): no export data is needed
	checkable := false
	for _, r := range roots {
		checkable = checkable || len(r.CompiledGoFiles) > 0 && (r.Error == nil || r.Error.Pos != "")
	}
	if len(external) > 0 && checkable {
		// in dependency order, in a few batches: the go command builds (or
		// finds in its cache) the export data of a batch and its
		// dependencies, and the terminal shows how far it has come
		paths := make([]string, 0, len(external))
		for p := range external {
			paths = append(paths, p)
		}
		sort.Slice(paths, func(i, j int) bool { return order[paths[i]] < order[paths[j]] })
		step := min(preciseListMax, max(preciseExportBatch, (len(paths)+preciseExportSteps-1)/preciseExportSteps))
		for start := 0; start < len(paths); start += step {
			env.report("go build", start, len(paths))
			exp, err := goList(ctx, absMod, gp.env, append([]string{"-export", "-json=ImportPath,Export"}, gp.flags...),
				paths[start:min(start+step, len(paths))], overlayFile, env)
			if err != nil {
				return err
			}
			for _, e := range exp {
				if lp := im.listed[e.ImportPath]; lp != nil {
					lp.Export = e.Export
				}
			}
		}
	}

	sizes := types.SizesFor("gc", gp.goarch)
	results := make([]*packageFacts, len(roots))
	ready := make(chan int, len(roots))
	var mu sync.Mutex
	left := len(roots)
	for i, w := range waits {
		if w == 0 {
			ready <- i
		}
	}
	if left == 0 {
		close(ready)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	checked := 0
	env.report("typecheck", 0, len(roots))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ready {
				if ctx.Err() == nil {
					pf, pkg := checkPackage(root, roots[i], im, sizes, overlay)
					results[i] = pf
					if pkg != nil && len(dependents[i]) > 0 {
						im.keep(roots[i].ImportPath, pkg) // only what other packages import
					}
				}
				mu.Lock()
				checked++
				env.report("typecheck", checked, len(roots))
				for _, d := range dependents[i] {
					if waits[d]--; waits[d] == 0 {
						ready <- d
					}
				}
				if left--; left == 0 {
					close(ready)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, pf := range results {
		gp.add(pf)
	}
	return nil
}

// packageFacts is what type-checking one package proved, per file.
type packageFacts struct {
	path   string
	files  []string // repo paths, in the package's order
	facts  []*preciseFile
	ifaces []ifaceDecl
	types  []typeDecl
	failed string // why the whole package is not trusted
	errs   string // the first error of a package that has some
	empty  bool   // no file for this platform: nothing was checked
	dir    string // repo-relative directory
	api    string // apiHash of the package
}

// add records the facts of one package.
func (gp *goPrecise) add(pf *packageFacts) {
	if pf.dir != "" {
		gp.api[pf.dir] = pf.api
	}
	if pf.empty {
		return
	}
	gp.packages++
	if pf.failed != "" {
		gp.failed++
		gp.errs = append(gp.errs, pf.path+": "+pf.failed)
		return
	}
	if pf.errs != "" {
		gp.failed++
		gp.errs = append(gp.errs, pf.path+": "+pf.errs)
	}
	for i, rp := range pf.files {
		if _, done := gp.files[rp]; done {
			continue // seen in another package (a file listed twice)
		}
		gp.files[rp] = pf.facts[i]
	}
	gp.ifaces = append(gp.ifaces, pf.ifaces...)
	gp.types = append(gp.types, pf.types...)
}

// checkPackage parses and type-checks one listed package and extracts the
// facts resolution needs; the syntax and types are dropped on return.
func checkPackage(root string, lp *listedPackage, im *exportImporter, sizes types.Sizes,
	overlay map[string][]byte) (*packageFacts, *types.Package) {
	pf := &packageFacts{path: lp.ImportPath}
	rel := relInterner(root)
	if d := rel(filepath.Join(lp.Dir, "x.go")); d != "" {
		pf.dir = path.Dir(d)
	}
	// a package that offers its importers nothing has an API hash too, so
	// that an edit that leaves it so does not check its importers again
	if lp.Error != nil && lp.Error.Pos == "" {
		pf.failed, pf.api = lp.Error.Err, "!failed" // e.g. an import cycle
		return pf, nil
	}
	if len(lp.CompiledGoFiles) == 0 {
		pf.empty, pf.api = true, "!empty"
		return pf, nil
	}
	// files with an error fall back to the heuristics
	bad := map[string]bool{}
	if lp.Error != nil {
		f, _, _ := strings.Cut(lp.Error.Pos, ":")
		bad[filepath.Clean(filepath.Join(lp.Dir, f))] = true
		pf.errs = lp.Error.Err
	}
	fset := im.fset
	var files []*ast.File
	for _, name := range lp.CompiledGoFiles {
		if !filepath.IsAbs(name) {
			name = filepath.Join(lp.Dir, name)
		}
		src, ok := overlay[name]
		if !ok {
			var err error
			if src, err = os.ReadFile(name); err != nil {
				pf.failed, pf.api = err.Error(), "!failed"
				return pf, nil
			}
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			bad[filepath.Clean(name)] = true
			if pf.errs == "" {
				pf.errs = err.Error()
			}
		}
		if f != nil {
			files = append(files, f)
		}
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{
		Importer: importerFor{im, lp.ImportMap},
		Sizes:    sizes,
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok || !te.Pos.IsValid() {
				if pf.failed == "" {
					pf.failed = err.Error()
				}
				return
			}
			bad[filepath.Clean(te.Fset.Position(te.Pos).Filename)] = true
			if tf := te.Fset.File(te.Pos); tf != nil {
				bad[filepath.Clean(tf.Name())] = true
			}
			if pf.errs == "" {
				pf.errs = err.Error()
			}
		},
	}
	pkg, _ := conf.Check(lp.ImportPath, fset, files, info)
	if pf.failed != "" || pkg == nil {
		if pf.failed == "" {
			pf.failed = "no types"
		}
		pf.api = "!failed"
		return pf, nil
	}
	importDirs := func(ip string) (string, bool) {
		if real, ok := lp.ImportMap[ip]; ok {
			ip = real
		}
		dep := im.listed[ip]
		if dep == nil || len(dep.GoFiles) == 0 {
			return "", false
		}
		return rel(dep.Dir), true
	}
	extractFacts(pf, fset, files, pkg, info, bad, rel, importDirs)
	pf.api = apiHash(pkg, fset, rel)
	// importers see what did type-check; their own uses of what did not
	// are errors in their files, which then fall back to the heuristics
	return pf, pkg
}

// apiHash is a hash of everything of a package its importers' facts can
// depend on: each package-level object with its type and the file that
// declares it, and the method set of each named type, likewise. Lines are
// left out: the facts name a declaration by file and name.
func apiHash(pkg *types.Package, fset *token.FileSet, rel func(string) string) string {
	h := sha256.New()
	qual := func(p *types.Package) string { return p.Path() }
	sc := pkg.Scope()
	for _, name := range sc.Names() {
		obj := sc.Lookup(name)
		fmt.Fprintf(h, "%s\t%s\n", types.ObjectString(obj, qual), rel(fset.Position(obj.Pos()).Filename))
		if tn, ok := obj.(*types.TypeName); ok && !tn.IsAlias() {
			ms := types.NewMethodSet(types.NewPointer(tn.Type()))
			for i := 0; i < ms.Len(); i++ {
				m := ms.At(i).Obj()
				fmt.Fprintf(h, "\t%s\t%s\n", types.ObjectString(m, qual), rel(fset.Position(m.Pos()).Filename))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// preciseState is what a run leaves for the next one to check only the
// changed packages: the API hash of each package directory and the
// interfaces of the tree.
type preciseState struct {
	API    map[string]string `json:"api"`
	Ifaces []preciseIface    `json:"ifaces"`
}

type preciseIface struct {
	Path    string            `json:"path"`
	Name    string            `json:"name"`
	Pkg     string            `json:"pkg"`
	Methods map[string]string `json:"methods"`
}

// state renders what this run proved for the next one, over prev: the
// packages this run checked replace theirs.
func (gp *goPrecise) state(prev *preciseState) string {
	st := preciseState{API: map[string]string{}}
	if prev != nil {
		for d, h := range prev.API {
			st.API[d] = h
		}
	}
	for d := range gp.checked {
		delete(st.API, d)
	}
	for d, h := range gp.api {
		st.API[d] = h
	}
	for _, it := range gp.known {
		st.Ifaces = append(st.Ifaces, preciseIface{it.path, it.name, it.pkg, it.methods})
	}
	sort.Slice(st.Ifaces, func(i, j int) bool {
		a, b := &st.Ifaces[i], &st.Ifaces[j]
		return a.Path < b.Path || a.Path == b.Path && a.Name < b.Name
	})
	data, _ := json.Marshal(st)
	return string(data)
}

// readPreciseState reads the last run's state, or nil.
func readPreciseState(ctx context.Context, q schema.Querier) *preciseState {
	v, err := schema.GetMeta(ctx, q, schema.MetaGoPrecise)
	if err != nil || v == "" {
		return nil
	}
	var st preciseState
	if json.Unmarshal([]byte(v), &st) != nil || st.API == nil {
		return nil
	}
	return &st
}

func (st *preciseState) ifaces() []ifaceDecl {
	if st == nil {
		return nil
	}
	out := make([]ifaceDecl, len(st.Ifaces))
	for i, it := range st.Ifaces {
		out[i] = ifaceDecl{path: it.Path, name: it.Name, pkg: it.Pkg, methods: it.Methods}
	}
	return out
}

// relInterner maps absolute file names to repo paths ("" outside the
// tree), sharing one string per file.
func relInterner(root string) func(string) string {
	m := map[string]string{}
	goroot := runtime.GOROOT()
	return func(abs string) string {
		if r, ok := m[abs]; ok {
			return r
		}
		name := abs
		// export data of the standard library names its files so
		if rest, ok := strings.CutPrefix(name, "$GOROOT"); ok {
			name = goroot + rest
		}
		r, err := filepath.Rel(root, name)
		r = filepath.ToSlash(r)
		if err != nil || strings.HasPrefix(r, "..") || !goPackageDir(path.Dir(r)) {
			r = "" // outside the tree, or vendored: not indexed
		}
		m[abs] = r
		return r
	}
}

// extractFacts records, for each file of a type-checked package, what its
// calls and names refer to, and its interfaces and named types.
func extractFacts(pf *packageFacts, fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info,
	bad map[string]bool, rel func(string) string, importDirs func(string) (string, bool)) {
	describe := func(obj types.Object) (preciseRef, bool) {
		switch o := obj.(type) {
		case *types.Func:
			o = o.Origin()
			pr := preciseRef{name: o.Name()}
			if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
				pr.container = typeName(sig.Recv().Type())
			}
			pr.path = rel(fset.Position(o.Pos()).Filename)
			return pr, true
		case *types.TypeName:
			if o.Pkg() == nil {
				return preciseRef{}, false // error, any, comparable
			}
			return preciseRef{name: o.Name(), path: rel(fset.Position(o.Pos()).Filename)}, true
		case *types.Var:
			if _, ok := o.Type().Underlying().(*types.Signature); ok {
				return preciseRef{name: o.Name(), dynamic: true}, true
			}
		}
		return preciseRef{}, false
	}
	done := map[string]bool{}
	for _, f := range files {
		tf := fset.File(f.Pos())
		if tf == nil {
			continue
		}
		fname := fset.Position(f.Package).Filename // honours //line (cgo)
		if bad[filepath.Clean(tf.Name())] || bad[filepath.Clean(fname)] {
			continue
		}
		rp := rel(fname)
		if done[rp] || rp == "" {
			continue // outside the tree
		}
		done[rp] = true
		facts := &preciseFile{calls: map[posKey]preciseRef{}, idents: map[posKey]preciseRef{}, imports: map[string]string{}}
		for _, is := range f.Imports {
			ip := strings.Trim(is.Path.Value, "`\"")
			if dir, ok := importDirs(ip); ok {
				facts.imports[ip] = dir
			}
		}
		put := func(m map[posKey]preciseRef, k posKey, v preciseRef) {
			if old, ok := m[k]; ok && old != v {
				old.dup = true
				m[k] = old
				return
			}
			m[k] = v
		}
		line := func(pos token.Pos) int { return fset.Position(pos).Line }
		called := map[*ast.Ident]bool{}
		var encl []string // container, name of the enclosing declaration
		var walk func(n ast.Node) bool
		walk = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id := calleeIdent(n.Fun); id != nil {
					called[id] = true
					if obj := info.Uses[id]; obj != nil {
						if pr, ok := describe(obj); ok {
							put(facts.calls, posKey{line(n.Pos()), id.Name}, pr)
						}
					}
				}
			case *ast.Ident:
				obj := info.Uses[n]
				if obj == nil {
					return true
				}
				pr, ok := describe(obj)
				if !ok {
					return true
				}
				// types are all that non-call references name (T{}, embedding)
				if _, isType := obj.(*types.TypeName); isType {
					put(facts.idents, posKey{line(n.Pos()), n.Name}, pr)
				}
				// a function or method used as a value, not called
				if _, isFunc := obj.(*types.Func); isFunc && !called[n] && encl != nil && pr.path != "" {
					facts.extra = append(facts.extra, preciseExtra{srcContainer: encl[0], srcName: encl[1],
						kind: lang.RefReference, name: n.Name, line: line(n.Pos()), to: pr})
				}
			}
			return true
		}
		for _, d := range f.Decls {
			encl = nil
			if fd, ok := d.(*ast.FuncDecl); ok {
				c := ""
				if fd.Recv != nil && len(fd.Recv.List) > 0 {
					c = recvName(fd.Recv.List[0].Type)
				}
				encl = []string{c, fd.Name.Name}
			}
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				// var funcs = template.FuncMap{"rpad": rpad}: the values'
				// references belong to the spec's first named variable, as
				// extraction (lang/golang's varDecl) attributes them
				for _, sp := range gd.Specs {
					encl = nil
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for _, n := range vs.Names {
							if n.Name != "_" {
								encl = []string{"", n.Name}
								break
							}
						}
					}
					ast.Inspect(sp, walk)
				}
				continue
			}
			ast.Inspect(d, walk)
		}
		pf.collectTypes(fset, pkg, info, f, rp)
		pf.files = append(pf.files, rp)
		pf.facts = append(pf.facts, facts)
	}
}

// methodSig is a method set in a form that compares across the type
// universes of different packages: name -> signature with package paths.
type methodSig map[string]string

// ifaceDecl is a non-empty interface of the tree.
type ifaceDecl struct {
	path, name, pkg string
	methods         methodSig
}

// typeDecl is a named non-interface type of the tree.
type typeDecl struct {
	path, name, pkg string
	line            int
	methods         methodSig
}

// collectTypes records the interfaces and named types declared in f, for
// implements edges computed once every package is checked (Go's
// interfaces are satisfied structurally, across packages that never
// import each other).
func (pf *packageFacts) collectTypes(fset *token.FileSet, pkg *types.Package, info *types.Info, f *ast.File, rp string) {
	qual := func(pk *types.Package) string { return pk.Path() }
	sigOf := func(ms *types.MethodSet) methodSig {
		out := methodSig{}
		for i := 0; i < ms.Len(); i++ {
			m := ms.At(i).Obj()
			out[m.Name()] = types.TypeString(m.Type(), qual)
		}
		return out
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			tn, ok := info.Defs[ts.Name].(*types.TypeName)
			if !ok || ts.TypeParams != nil || tn.IsAlias() {
				continue
			}
			if it, ok := tn.Type().Underlying().(*types.Interface); ok {
				if it.NumMethods() == 0 || !it.IsMethodSet() {
					continue
				}
				ms := methodSig{}
				for i := 0; i < it.NumMethods(); i++ {
					m := it.Method(i)
					ms[m.Name()] = types.TypeString(m.Type(), qual)
				}
				pf.ifaces = append(pf.ifaces, ifaceDecl{path: rp, name: tn.Name(), pkg: pkg.Path(), methods: ms})
				continue
			}
			ms := sigOf(types.NewMethodSet(types.NewPointer(tn.Type())))
			if len(ms) == 0 {
				continue
			}
			pf.types = append(pf.types, typeDecl{path: rp, name: tn.Name(), pkg: pkg.Path(),
				line: fset.Position(ts.Pos()).Line, methods: ms})
		}
	}
}

// implements adds an implements edge from each named type to each
// interface of the tree that it (or its pointer) satisfies.
func (gp *goPrecise) implements() {
	byMethod := map[string][]int{} // a method name of each interface -> interfaces
	for i, it := range gp.ifaces {
		for name := range it.methods {
			byMethod[name] = append(byMethod[name], i)
			break
		}
	}
	for _, t := range gp.types {
		pf := gp.files[t.path]
		if pf == nil {
			continue
		}
		seen := map[int]bool{}
		for name := range t.methods {
			for _, i := range byMethod[name] {
				if seen[i] {
					continue
				}
				seen[i] = true
				it := &gp.ifaces[i]
				ok := true
				for m, sig := range it.methods {
					if t.methods[m] != sig {
						ok = false
						break
					}
				}
				if !ok {
					continue
				}
				qual := ""
				if it.pkg != t.pkg {
					qual = path.Base(it.pkg)
				}
				pf.extra = append(pf.extra, preciseExtra{srcName: t.name, kind: lang.RefImplements, name: it.name,
					qual: qual, line: t.line, to: preciseRef{path: it.path, name: it.name}})
			}
		}
	}
	for _, pf := range gp.files {
		sort.SliceStable(pf.extra, func(i, j int) bool {
			a, b := &pf.extra[i], &pf.extra[j]
			if a.line != b.line {
				return a.line < b.line
			}
			if a.kind != b.kind {
				return a.kind < b.kind
			}
			return a.to.path+a.name < b.to.path+b.name
		})
	}
	gp.ifaces, gp.types = nil, nil
}

// calleeIdent is the identifier a call names: f, x.f, f[T], x.f[T].
func calleeIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			return x.Sel
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// recvName is the base type name of a receiver type expression.
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// typeName is the name of a (pointer to a) named type, or "".
func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch n := types.Unalias(t).(type) {
	case *types.Named:
		return n.Obj().Name()
	case *types.TypeParam:
		// a method of a type parameter's constraint: its interface
		if c, ok := n.Constraint().(*types.Named); ok {
			return c.Obj().Name()
		}
	}
	return ""
}

// file returns the facts of a file, or nil.
func (gp *goPrecise) file(p string) *preciseFile {
	if gp == nil {
		return nil
	}
	return gp.files[p]
}

// usePrecise reports whether this run type-checks Go packages: always
// with PreciseOn, never with PreciseOff or on a git revision (--rev reads
// git objects, which the go command cannot), and with PreciseAuto only
// when the index already holds precise edges (an earlier run with
// PreciseOn chose them) and a go toolchain is on PATH. So the first index
// of a tree never waits for the go command, which may compile (or, in a
// fresh environment, download) every dependency to get their export data.
func (b *build) usePrecise() bool {
	if _, onDisk := b.src.(dirTree); !onDisk {
		return false
	}
	switch b.opts.GoPrecise {
	case PreciseOn:
		return true
	case PreciseOff:
		return false
	}
	return b.precisePrev != nil && goToolchain() != ""
}

// loadPrecise runs Go precise mode as the options ask, over the package
// directories of entries (all the build's entries when nil).
func (b *build) loadPrecise(ctx context.Context, entries []Entry, known []ifaceDecl) (*goPrecise, error) {
	if !b.usePrecise() {
		return nil, nil
	}
	if goToolchain() == "" {
		return nil, ErrNoGo // only PreciseOn gets here without one
	}
	modules := b.preciseModules()
	if len(modules) == 0 {
		return nil, nil
	}
	b.progress("precise", 0, 0)
	if entries == nil {
		entries = b.entries
	}
	var trace func(string, ...any)
	if b.opts.Trace != nil {
		trace = b.tracef
	}
	env := preciseEnv{offline: b.opts.GoPrecise != PreciseOn, progress: b.progress}
	gp, err := loadGoPrecise(ctx, b.root, modules, entries, b.opts.Overlay, known, b.opts.Workers, *b.opts.GoTarget, env, trace)
	if err != nil {
		return nil, err
	}
	b.sum.PreciseGo, b.sum.PreciseGoFailed = gp.packages, gp.failed
	b.sum.GoPrecise = "types"
	return gp, nil
}

// preciseModules lists the Go modules of the tree, as readProjects does;
// for a directory inside a module, the go.mod above the root.
func (b *build) preciseModules() lang.GoModules {
	if mods := b.project.goModules(); len(mods) > 0 {
		return mods
	}
	for d := filepath.Dir(b.root); ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			if mod := modfile.ModulePath(data); mod != "" {
				return lang.GoModules{{Dir: ".", Path: mod}}
			}
			return nil
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// preciseModuleLimit is the size, in package directories, up to which a
// change to a Go file type-checks its whole module again in an incremental
// run (any package may depend on the changed one); above it, only the
// changed packages and their direct importers are.
const preciseModuleLimit = 300

// preciseDirs lists the package directories an incremental run type-checks
// first (own: those of the changed Go files, and those whose edges are not
// precise yet, which the last run's state lacks) and those it type-checks
// again when what they offer their importers changed (all). A run that
// does not type-check returns no own: all is then the directories whose
// edges go back to the heuristics (every one with --precise off), and the
// state it leaves forgets the changed packages, so that the next precise
// run checks them again.
func (b *build) preciseDirs(olds map[string]*oldFile, changed []*fileResult, gone []string) (own, all map[string]bool) {
	own = map[string]bool{}
	for _, r := range changed {
		if strings.HasSuffix(r.entry.Path, ".go") {
			own[path.Dir(r.entry.Path)] = true
		}
	}
	for _, p := range gone {
		if strings.HasSuffix(p, ".go") {
			own[path.Dir(p)] = true
		}
	}
	if !b.usePrecise() || len(b.preciseModules()) == 0 {
		prev := b.precisePrev
		switch {
		case prev == nil:
		case b.opts.GoPrecise == PreciseOff:
			// heuristics only from now on: the edges the type checker
			// proved are resolved again without it
			b.preciseMeta, b.preciseReset = "", true
			all = map[string]bool{}
			for d := range prev.API {
				all[d] = true
			}
			return nil, all
		case len(own) > 0:
			st := *prev
			st.API = map[string]string{}
			for d, h := range prev.API {
				if !own[d] {
					st.API[d] = h
				}
			}
			data, _ := json.Marshal(st)
			b.preciseMeta = string(data)
		}
		return nil, nil
	}
	all = map[string]bool{}
	for p, o := range olds {
		if o.lang == "go" {
			all[path.Dir(p)] = true
		}
	}
	for p, st := range b.tree {
		if strings.HasSuffix(p, ".go") && st.status != "" {
			all[path.Dir(p)] = true
		}
	}
	// the packages no precise run has checked yet (the first run with
	// --precise on upgrades every one) or since they changed; a directory
	// of skipped files only (generated, too large) is never checked
	for p, st := range b.tree {
		d := path.Dir(p)
		if strings.HasSuffix(p, ".go") && indexedStatus(st.status) && goPackageDir(d) &&
			(b.precisePrev == nil || b.precisePrev.API[d] == "") {
			own[d] = true
		}
	}
	if len(own) == 0 {
		return nil, nil
	}
	if len(all) <= preciseModuleLimit {
		return own, all
	}
	// a large tree: the changed packages and the directories of the files
	// that import them
	out := map[string]bool{}
	for d := range own {
		out[d] = true
	}
	for p, o := range olds {
		if o.lang != "go" || o.imports == "" {
			continue
		}
		for d := range own {
			if strings.Contains(o.imports, "/"+d+"\"") || strings.Contains(o.imports, "\""+d+"\"") {
				out[path.Dir(p)] = true
			}
		}
	}
	return own, out
}

// preciseIncremental type-checks what an incremental run must: when the
// last run left its state and every changed package offers its importers
// what it offered then (the same API hash), the changed packages alone;
// otherwise all of dirs (the changed packages and those that may depend
// on them). It returns the facts and the directories whose unchanged files
// must be resolved again with them.
func (b *build) preciseIncremental(ctx context.Context, olds map[string]*oldFile, own map[string]bool,
	gone []string, dirs map[string]bool) (*goPrecise, map[string]bool, error) {
	prev := b.precisePrev
	removed := false
	for _, p := range gone {
		removed = removed || strings.HasSuffix(p, ".go")
	}
	known := true
	for d := range own {
		known = known && prev != nil && prev.API[d] != ""
	}
	if known && !removed {
		gp, err := b.loadPrecise(ctx, goEntries(olds, b.tree, own), prev.ifaces())
		if err != nil || gp == nil {
			return gp, own, err
		}
		same := true
		for d := range own {
			same = same && gp.api[d] == prev.API[d]
		}
		if same {
			// the other files of the changed packages see the same
			// declarations as before: their facts, and edges, stand
			b.tracef("precise: the API of %d changed package(s) is unchanged", len(own))
			b.preciseMeta = gp.state(prev)
			return gp, nil, nil
		}
		if len(dirs) == len(own) {
			b.preciseMeta = gp.state(prev)
			return gp, own, nil // nothing else may depend on them
		}
		b.tracef("precise: an API changed: %d package(s) to check again", len(dirs))
	}
	gp, err := b.loadPrecise(ctx, goEntries(olds, b.tree, dirs), prev.ifaces())
	if err != nil || gp == nil {
		return gp, dirs, err
	}
	b.preciseMeta = gp.state(prev)
	return gp, dirs, nil
}

// goEntries lists the current Go files of dirs.
func goEntries(olds map[string]*oldFile, tree map[string]fileState, dirs map[string]bool) []Entry {
	seen := map[string]bool{}
	var out []Entry
	add := func(p string) {
		if seen[p] || !strings.HasSuffix(p, ".go") || !dirs[path.Dir(p)] {
			return
		}
		seen[p] = true
		if l := lang.ForPath(p); l != nil {
			out = append(out, Entry{Path: p, Lang: l})
		}
	}
	for p, st := range tree {
		if indexedStatus(st.status) {
			add(p)
		}
	}
	for p, o := range olds {
		if _, ok := tree[p]; !ok && indexedStatus(o.status) {
			add(p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// preciseUnchanged resolves again, with the type checker's new facts, the
// edges of the unchanged Go files of the packages it checked.
func (b *build) preciseUnchanged(ctx context.Context, w *writer, tab *sqlTable, gp *goPrecise, entries []Entry,
	changed map[string]bool, affected map[string]bool) error {
	var todo []Entry
	for _, e := range entries {
		if !changed[e.Path] {
			todo = append(todo, e)
		}
	}
	done := 0
	b.progress("resolve", 0, len(todo))
	return parseAll(ctx, b.src, b.opts.Overlay, todo, b.opts.Workers, b.opts.Walk, nil, func(r *fileResult) error {
		if done++; done%64 == 0 || done == len(todo) {
			b.progress("resolve", done, len(todo))
		}
		if !r.indexed() {
			return nil
		}
		pid, err := w.pathID(ctx, r.entry.Path)
		if err != nil {
			return err
		}
		return w.diffEdges(ctx, pid, fileEdges(r, tab, gp.file(r.entry.Path), nil), affected)
	})
}
