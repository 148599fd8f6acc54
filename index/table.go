package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"path"
	"sort"
	"sync"

	"github.com/sdl-dev/sdl/lang"
)

// fileEntry is what the tables know of a current file.
type fileEntry struct {
	path     string
	lang     string
	module   string
	imports  []lang.Import
	loaded   bool // imports decoded
	rawImpts string
	build    string // the build constraint (lang.FileFacts.Build)
	test     bool   // a test file (lang.FileFacts.IsTest)
}

// fileSet indexes the current files by directory and by module. Once
// resolution starts it is only read, and safe for concurrent use.
type fileSet struct {
	mu      sync.Mutex
	files   map[string]*fileEntry
	infos   map[string]*lang.FileInfo
	dirs    map[string][]string
	modules map[string][]string // lang \x00 module-or-suffix -> paths
	config  map[string][]string
	project projects
	memo    sync.Map
}

func newFileSet() *fileSet {
	return &fileSet{files: map[string]*fileEntry{}, infos: map[string]*lang.FileInfo{}, config: map[string][]string{}}
}

func (fs *fileSet) put(e *fileEntry) {
	fs.files[e.path] = e
	delete(fs.infos, e.path)
	fs.dirs, fs.modules = nil, nil
}

func (fs *fileSet) remove(p string) {
	delete(fs.files, p)
	delete(fs.infos, p)
	fs.dirs, fs.modules = nil, nil
}

func (fs *fileSet) Memo(key string, f func() string) string {
	if v, ok := fs.memo.Load(key); ok {
		return v.(string)
	}
	v := f()
	fs.memo.Store(key, v)
	return v
}

// MemoLoad and MemoStore let a lang.Guard keep out of the memo the values
// that depend on where it cut a cycle.
func (fs *fileSet) MemoLoad(key string) (string, bool) {
	v, ok := fs.memo.Load(key)
	if !ok {
		return "", false
	}
	return v.(string), true
}

func (fs *fileSet) MemoStore(key, v string) { fs.memo.Store(key, v) }

func (fs *fileSet) index() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.dirs != nil {
		return
	}
	fs.dirs = map[string][]string{}
	fs.modules = map[string][]string{}
	paths := make([]string, 0, len(fs.files))
	for p := range fs.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		e := fs.files[p]
		fs.dirs[path.Dir(p)] = append(fs.dirs[path.Dir(p)], p)
		if e.module == "" {
			continue
		}
		for _, m := range lang.ModuleKeys(e.module) {
			key := e.lang + "\x00" + m
			fs.modules[key] = append(fs.modules[key], p)
		}
	}
}

func (fs *fileSet) File(p string) *lang.FileInfo {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fi, ok := fs.infos[p]; ok {
		return fi
	}
	e := fs.files[p]
	if e == nil {
		return nil
	}
	if !e.loaded {
		e.loaded = true
		if e.rawImpts != "" {
			_ = json.Unmarshal([]byte(e.rawImpts), &e.imports)
		}
	}
	fi := &lang.FileInfo{Path: p, Lang: e.lang, Module: e.module, Imports: e.imports,
		ModuleID: SymbolID(p, lang.KindModule, "", 0), Build: e.build, Test: e.test}
	fs.infos[p] = fi
	return fi
}

func (fs *fileSet) DirFiles(dir string) []string {
	fs.index()
	return fs.dirs[dir]
}

func (fs *fileSet) ModuleFiles(l, module string) []string {
	if l == "go" {
		return fs.DirFiles(module)
	}
	fs.index()
	return fs.modules[l+"\x00"+module]
}

func (fs *fileSet) Config(key string) []string { return fs.config[key] }

func (fs *fileSet) Project(key string) lang.Project { return fs.project[key] }

// memTable resolves against symbols held in memory: a full build.
type memTable struct {
	*fileSet
	byName map[string][]*lang.Target
}

func newMemTable(fs *fileSet) *memTable {
	return &memTable{fileSet: fs, byName: map[string][]*lang.Target{}}
}

func (t *memTable) add(tg *lang.Target) { t.byName[tg.Name] = append(t.byName[tg.Name], tg) }

func (t *memTable) ByName(name string) []*lang.Target { return t.byName[name] }

// sqlTable resolves against the current symbols in the write transaction:
// an incremental run, which sees its own new symbols.
type sqlTable struct {
	*fileSet
	ctx    context.Context
	tx     *sql.Tx
	stmt   *sql.Stmt
	idStmt *sql.Stmt // byID: prepared once, as a re-resolution asks it for every source symbol
	byName map[string][]*lang.Target
	err    error
}

func newSQLTable(ctx context.Context, tx *sql.Tx, fs *fileSet) (*sqlTable, error) {
	st, err := tx.PrepareContext(ctx, `SELECT s.id, p.path, s.kind, s.name, s.container, s.exported, s.signature
		FROM symbols s JOIN paths p ON p.id = s.path_id
		WHERE s.name = ? AND s.to_seq IS NULL ORDER BY p.path, s.start_line, s.id`)
	if err != nil {
		return nil, err
	}
	id, err := tx.PrepareContext(ctx, `SELECT s.id, p.path, s.kind, s.name, s.container, s.exported, s.signature
		FROM symbols s JOIN paths p ON p.id = s.path_id WHERE s.id = ? AND s.to_seq IS NULL`)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &sqlTable{fileSet: fs, ctx: ctx, tx: tx, stmt: st, idStmt: id, byName: map[string][]*lang.Target{}}, nil
}

func (t *sqlTable) ByName(name string) []*lang.Target {
	if ts, ok := t.byName[name]; ok {
		return ts
	}
	var out []*lang.Target
	rows, err := t.stmt.QueryContext(t.ctx, name)
	if err != nil {
		t.err = err
		return nil
	}
	defer rows.Close()
	for rows.Next() {
		var tg lang.Target
		var exported int
		var sig string
		if err := rows.Scan(&tg.ID, &tg.Path, &tg.Kind, &tg.Name, &tg.Container, &exported, &sig); err != nil {
			t.err = err
			return nil
		}
		t.finish(&tg, exported, sig)
		out = append(out, &tg)
	}
	if err := rows.Err(); err != nil {
		t.err = err
	}
	t.byName[name] = out
	return out
}

// finish sets what a target's row holds in another form: exported as a
// number, the signature as JSON, the module and test flag as its file's.
func (t *sqlTable) finish(tg *lang.Target, exported int, sig string) {
	tg.Exported = exported != 0
	if e := t.files[tg.Path]; e != nil {
		tg.Module, tg.Test = e.module, e.test
	}
	if sig == "" {
		return
	}
	var s lang.Signature
	if json.Unmarshal([]byte(sig), &s) == nil {
		tg.Returns, tg.Fields, tg.Bases, tg.Receiver, tg.Arity = s.Returns, s.Fields, s.Bases, s.Receiver, len(s.Generics)
		tg.TypeParams = s.TypeParams
	}
}

func (t *sqlTable) close() {
	t.stmt.Close()
	t.idStmt.Close()
}

// byID loads one current symbol as a target, or nil.
func (t *sqlTable) byID(ctx context.Context, id string) *lang.Target {
	var tg lang.Target
	var exported int
	var sig string
	err := t.idStmt.QueryRowContext(ctx, id).Scan(&tg.ID, &tg.Path, &tg.Kind, &tg.Name, &tg.Container, &exported, &sig)
	if err != nil {
		if err != sql.ErrNoRows {
			t.err = err
		}
		return nil
	}
	t.finish(&tg, exported, sig)
	return &tg
}

// targetOf makes the resolution view of symbol i of a parsed file.
func targetOf(r *fileResult, i int) *lang.Target {
	s := &r.facts.Symbols[i]
	return &lang.Target{ID: r.ids[i], Path: r.entry.Path, Kind: s.Kind, Name: s.Name, Container: s.Container,
		Exported: s.Exported, Returns: s.Signature.Returns, Fields: s.Signature.Fields, Bases: s.Signature.Bases,
		Receiver: s.Signature.Receiver, Arity: len(s.Signature.Generics), TypeParams: s.Signature.TypeParams,
		Module: r.facts.Module, Test: r.facts.IsTest}
}
