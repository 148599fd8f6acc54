package query

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sdl-dev/sdl/schema"
)

// Info describes an index: its schema, its ledger and what it holds.
type Info struct {
	Path          string         `json:"path"`
	Bytes         int64          `json:"bytes"`
	SchemaVersion int            `json:"schemaVersion"`
	SDLVersion    string         `json:"sdlVersion"`
	RepoID        string         `json:"repoId"`
	Options       map[string]any `json:"options"`
	Versions      []Version      `json:"versions"`
	Files         int            `json:"files"`
	Symbols       int            `json:"symbols"`
	Edges         int            `json:"edges"`
	Languages     map[string]int `json:"languages"`
	Kinds         map[string]int `json:"kinds"`
	Skipped       map[string]int `json:"skipped"`
	ParseErrors   int            `json:"parseErrors"`
	// ParseErrorFiles are the files with parse errors, in path order,
	// each with its first diagnostic; SkippedFiles the files not
	// indexed, with the reason.
	ParseErrorFiles []FileProblem  `json:"parseErrorFiles"`
	SkippedFiles    []FileProblem  `json:"skippedFiles"`
	Resolution      map[string]int `json:"resolution"`
	// Memories counts the current development memories the index holds;
	// MemoryProblems are the memory files its last run could not import.
	Memories       int             `json:"memories"`
	MemoryProblems []MemoryProblem `json:"memoryProblems"`
	// Faults are the current files with a stage of their indexing that
	// failed (a panic, the depth limit, a spent work budget).
	Faults []FileFault `json:"faults"`
}

// FileFault is a stage of one file's indexing that failed, and why; the
// file keeps what was extracted and resolved before.
type FileFault struct {
	Path   string `json:"path"`
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
	Count  int    `json:"count,omitempty"`
}

// Faults returns the faults recorded on the current files, in path order.
func (x *Index) Faults(ctx context.Context) ([]FileFault, error) {
	rows, err := x.DB.QueryContext(ctx, `SELECT p.path, f.faults FROM files f JOIN paths p ON p.id = f.path_id
		WHERE f.to_seq IS NULL AND f.faults != '' ORDER BY p.path`)
	if err != nil {
		return nil, fmt.Errorf("read faults: %w", err)
	}
	defer rows.Close()
	out := []FileFault{}
	for rows.Next() {
		var p, js string
		if err := rows.Scan(&p, &js); err != nil {
			return nil, err
		}
		var fs []FileFault
		if err := json.Unmarshal([]byte(js), &fs); err != nil {
			return nil, fmt.Errorf("read faults of %s: %w", p, err)
		}
		for _, f := range fs {
			f.Path = p
			out = append(out, f)
		}
	}
	return out, rows.Err()
}

// FileProblem is a current file the index holds less of than its
// source: where the first parse error is and what it says, or why the
// file was skipped.
type FileProblem struct {
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
	// Errors is how many parse errors the file has.
	Errors int `json:"errors,omitempty"`
}

// FileProblems returns the current files of a status (parse_error,
// skipped), in path order.
func (x *Index) FileProblems(ctx context.Context, status string) ([]FileProblem, error) {
	rows, err := x.DB.QueryContext(ctx, `SELECT p.path, f.reason, f.diagnostics FROM files f JOIN paths p ON p.id = f.path_id
		WHERE f.to_seq IS NULL AND f.status = ? ORDER BY p.path`, status)
	if err != nil {
		return nil, fmt.Errorf("read %s files: %w", status, err)
	}
	defer rows.Close()
	out := []FileProblem{}
	for rows.Next() {
		var fp FileProblem
		var diags string
		if err := rows.Scan(&fp.Path, &fp.Message, &diags); err != nil {
			return nil, err
		}
		if diags != "" {
			var ds []Diagnostic
			if err := json.Unmarshal([]byte(diags), &ds); err != nil {
				return nil, fmt.Errorf("read diagnostics of %s: %w", fp.Path, err)
			}
			if len(ds) > 0 {
				fp.Line, fp.Col, fp.Message, fp.Errors = ds[0].Line, ds[0].Col, ds[0].Message, len(ds)
			}
		}
		out = append(out, fp)
	}
	return out, rows.Err()
}

// MemoryProblem is a memory file an index run could not import, and why.
type MemoryProblem struct {
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// MemoryProblems returns the memory files the last index run could not
// import, in path order.
func (x *Index) MemoryProblems(ctx context.Context) ([]MemoryProblem, error) {
	rows, err := x.DB.QueryContext(ctx, `SELECT path, line, message FROM memory_problems ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("read memory problems: %w", err)
	}
	defer rows.Close()
	out := []MemoryProblem{}
	for rows.Next() {
		var p MemoryProblem
		if err := rows.Scan(&p.Path, &p.Line, &p.Message); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Info reads the description of the index.
func (x *Index) Info(ctx context.Context) (*Info, error) {
	in := &Info{Path: x.Path, Bytes: fileSize(x.Path), SchemaVersion: schema.Version,
		Languages: map[string]int{}, Kinds: map[string]int{}, Skipped: map[string]int{}, Resolution: map[string]int{}}
	var err error
	if in.Versions, err = x.Versions(ctx); err != nil {
		return nil, err
	}
	if in.SDLVersion, err = schema.GetMeta(ctx, x.DB, schema.MetaSDLVersion); err != nil {
		return nil, err
	}
	if in.RepoID, err = schema.GetMeta(ctx, x.DB, schema.MetaRepoID); err != nil {
		return nil, err
	}
	opts, err := schema.GetMeta(ctx, x.DB, schema.MetaOptions)
	if err != nil {
		return nil, err
	}
	if opts != "" {
		_ = json.Unmarshal([]byte(opts), &in.Options)
	}
	counts := []struct {
		q string
		m map[string]int
	}{
		{`SELECT language, COUNT(*) FROM files WHERE to_seq IS NULL AND status IN ('ok', 'parse_error') GROUP BY language`, in.Languages},
		{`SELECT kind, COUNT(*) FROM symbols WHERE to_seq IS NULL GROUP BY kind`, in.Kinds},
		{`SELECT reason, COUNT(*) FROM files WHERE to_seq IS NULL AND status IN ('skipped', 'unreadable', 'parse_failed') GROUP BY reason`, in.Skipped},
		{`SELECT rule, COUNT(*) FROM edges WHERE to_seq IS NULL GROUP BY rule`, in.Resolution},
	}
	for _, c := range counts {
		rows, err := x.DB.QueryContext(ctx, c.q)
		if err != nil {
			return nil, fmt.Errorf("read counts: %w", err)
		}
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				rows.Close()
				return nil, err
			}
			c.m[k] = n
		}
		rows.Close()
	}
	for _, n := range in.Languages {
		in.Files += n
	}
	for _, n := range in.Kinds {
		in.Symbols += n
	}
	for _, n := range in.Resolution {
		in.Edges += n
	}
	if in.ParseErrorFiles, err = x.FileProblems(ctx, "parse_error"); err != nil {
		return nil, err
	}
	in.ParseErrors = len(in.ParseErrorFiles)
	if in.SkippedFiles, err = x.FileProblems(ctx, "skipped"); err != nil {
		return nil, err
	}
	if err := x.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM memories WHERE deleted = 0`).Scan(&in.Memories); err != nil {
		return nil, fmt.Errorf("count memories: %w", err)
	}
	if in.MemoryProblems, err = x.MemoryProblems(ctx); err != nil {
		return nil, err
	}
	in.Faults, err = x.Faults(ctx)
	return in, err
}
