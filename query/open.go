package query

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sdl-dev/sdl/schema"
)

// Index is an open, read-only index file and the repository it describes.
type Index struct {
	Path string
	DB   *sql.DB
	// Root is the repository directory, where the source files are read
	// for skeletons, hot paths and windows.
	Root string
	// RepoID names the repository in answers.
	RepoID string
	// MemoryFiles, when set, lays the memory files that changed since the
	// last index run over the index's memories, so that a memory stored a
	// moment ago is answered at once.
	MemoryFiles MemoryOverlay
	// Clock is the time recency is measured from (time.Now when nil).
	Clock func() time.Time
	// Unsaved, when set, returns the content of an editor buffer that
	// replaces the file on disk: the index was built from it, so
	// skeletons, hot paths and windows read it, and it is not stale.
	Unsaved func(path string) ([]byte, bool)

	vocab      vocab
	cardCache  cardCache      // full cards of slices, until the file changes
	graphCache graphCache     // edges and ranking rows of symbols, until the file changes
	pathWords  pathWordsCache // the words of the paths slices ranked
	hashes     fileHashes     // content hashes of files by size and time (staleFiles)
	summaries  summaryCache   // recent context summaries, by ledger version and request
	held       heldScopes     // the symbols of the slices handed out, by handle
	feedback   feedbackCache
	memories   memoryCache
	embedders  queryEmbedders // providers that embed questions for the vector lane
	vectors    vectorCache    // the vectors in memory, for servers (KeepVectors)
	fts        ftsTerms       // full-text terms held for the Go bm25 (ftsrank.go)
	stmtMu     sync.Mutex
	stmts      map[string]*sql.Stmt // prepared once (prepared)
	oneShot    bool                 // opened for one question (OpenOnce): holds no terms
}

// maxIdleConns is how many connections an Index keeps open.
const maxIdleConns = 6

// Open opens the index at path for reading. root is the repository it
// indexes; "" means the directory that holds the .sdl directory of path.
func Open(path, root string) (*Index, error) {
	db, err := schema.OpenReadOnly(path)
	if err != nil {
		return nil, err
	}
	return open(db, path, root), nil
}

// OpenOnce opens the index for a process that answers one question and
// exits (a terminal command): it reads the file without mapping it, which
// keeps the pages it touches out of its peak RSS (schema.OpenReadOnlyUnmapped).
func OpenOnce(path, root string) (*Index, error) {
	db, err := schema.OpenReadOnlyUnmapped(path)
	if err != nil {
		return nil, err
	}
	x := open(db, path, root)
	x.oneShot = true
	return x, nil
}

func open(db *sql.DB, path, root string) *Index {
	if root == "" {
		root = filepath.Dir(filepath.Dir(path))
	}
	// a slice runs its lanes at once, each on a connection: keep them
	// open between questions rather than open them again (database/sql
	// keeps two)
	db.SetMaxIdleConns(maxIdleConns)
	x := &Index{Path: path, DB: db, Root: root}
	x.RepoID, _ = schema.GetMeta(context.Background(), db, schema.MetaRepoID)
	return x
}

// Close closes the index.
func (x *Index) Close() error {
	x.fts.close()
	x.closeStatements()
	x.closeVocab()
	return x.DB.Close()
}

// Version is a ledger version.
type Version struct {
	Seq            int64  `json:"seq"`
	ID             string `json:"id"`
	CreatedAt      string `json:"createdAt"`
	GitCommit      string `json:"gitCommit,omitempty"`
	GitDirty       bool   `json:"gitDirty,omitempty"`
	GitRef         string `json:"gitRef,omitempty"`
	TreeHash       string `json:"treeHash"`
	PrevHash       string `json:"prevHash,omitempty"`
	Hash           string `json:"hash"`
	Files          int    `json:"files"`
	Symbols        int    `json:"symbols"`
	Edges          int    `json:"edges"`
	FilesAdded     int    `json:"filesAdded"`
	FilesChanged   int    `json:"filesChanged"`
	FilesRemoved   int    `json:"filesRemoved"`
	SymbolsAdded   int    `json:"symbolsAdded"`
	SymbolsChanged int    `json:"symbolsChanged"`
	SymbolsRemoved int    `json:"symbolsRemoved"`
}

// Versions lists the ledger, oldest first.
func (x *Index) Versions(ctx context.Context) ([]Version, error) {
	rows, err := x.DB.QueryContext(ctx, `SELECT seq, id, created_at, git_commit, git_dirty, git_ref, tree_hash, prev_hash, hash,
		files, symbols, edges, files_added, files_changed, files_removed, symbols_added, symbols_changed, symbols_removed
		FROM versions ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("read ledger: %w", err)
	}
	defer rows.Close()
	var out []Version
	for rows.Next() {
		var v Version
		var dirty int
		if err := rows.Scan(&v.Seq, &v.ID, &v.CreatedAt, &v.GitCommit, &dirty, &v.GitRef, &v.TreeHash, &v.PrevHash, &v.Hash,
			&v.Files, &v.Symbols, &v.Edges, &v.FilesAdded, &v.FilesChanged, &v.FilesRemoved,
			&v.SymbolsAdded, &v.SymbolsChanged, &v.SymbolsRemoved); err != nil {
			return nil, err
		}
		v.GitDirty = dirty != 0
		out = append(out, v)
	}
	return out, rows.Err()
}

// Current returns the newest version.
func (x *Index) Current(ctx context.Context) (Version, error) {
	vs, err := x.Versions(ctx)
	if err != nil {
		return Version{}, err
	}
	if len(vs) == 0 {
		return Version{}, fmt.Errorf("%s: %w (it has no versions)", x.Path, schema.ErrNotIndex)
	}
	return vs[len(vs)-1], nil
}

// fileSize is the size of the index and its write-ahead log.
func fileSize(path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}
