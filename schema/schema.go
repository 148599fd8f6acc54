package schema

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"modernc.org/sqlite"       // registers the "sqlite" driver
	_ "modernc.org/sqlite/vec" // registers sqlite-vec (vec0) on every connection
)

// Version is the schema version, stored in PRAGMA user_version. An index of
// another version is rebuilt, never read.
const Version = 12

// ApplicationID marks a SQLite file as an sdl index ("SDL1").
const ApplicationID = 0x53444c31

var (
	// ErrNoIndex means there is no index file at the path.
	ErrNoIndex = errors.New("no index")
	// ErrNotIndex means the file exists but is not an sdl index.
	ErrNotIndex = errors.New("not an sdl index")
	// ErrVersion means the index was written with another schema version.
	ErrVersion = errors.New("index schema version differs")
	// ErrCorrupt means SQLite found the index file damaged (truncated or
	// overwritten): it is derived data, so sdl index builds it again.
	ErrCorrupt = errors.New("the index file is damaged")
)

// Corrupt returns err marked as ErrCorrupt when SQLite reports a damaged
// or unreadable database file, and err unchanged otherwise.
func Corrupt(err error) error {
	if errors.Is(err, ErrCorrupt) {
		return err
	}
	switch primaryCode(err) {
	case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
}

// primaryCode is the primary SQLite result code of err, or 0.
func primaryCode(err error) int {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return 0
	}
	return se.Code() & 0xff
}

//go:embed tables.sql
var tablesSQL string

//go:embed indexes.sql
var indexesSQL string

//go:embed vectors.sql
var vectorsSQL string

// Meta keys.
const (
	MetaSDLVersion     = "sdl_version"
	MetaOptionsHash    = "options_hash"
	MetaOptions        = "options"
	MetaRepoID         = "repo_id"
	MetaEmbeddingModel = "embedding_model"
	MetaEmbeddingDim   = "embedding_dim"
	MetaGoModules      = "go_modules"
	// MetaGoPrecise is what Go precise mode's last run leaves for the
	// next: API hashes of the packages and the interfaces of the tree.
	MetaGoPrecise = "go_precise"
	// MetaFeedbackOffset is how far into the feedback sidecar the index
	// has imported.
	MetaFeedbackOffset = "feedback_offset"
	// MetaMemoriesHash changes whenever the memories tables do, so that
	// readers can keep what they loaded until then.
	MetaMemoriesHash = "memories_hash"
	// MetaChurnCommit is the commit whose 30-day history file_metrics
	// holds, so that a run at the same HEAD need not read it again.
	MetaChurnCommit = "churn_commit"
)

// Create creates the tables of an empty database and stamps it as an sdl
// index of this schema version, with the partial indexes a bulk load leaves
// empty; the other indexes come later, from CreateIndexes.
func Create(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, tablesSQL); err != nil {
		return fmt.Errorf("create tables: %w", err)
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", ApplicationID, Version)); err != nil {
		return fmt.Errorf("stamp schema: %w", err)
	}
	return nil
}

// CreateIndexes creates the secondary indexes.
func CreateIndexes(ctx context.Context, q Querier) error {
	if _, err := q.ExecContext(ctx, indexesSQL); err != nil {
		return fmt.Errorf("create indexes: %w", err)
	}
	return nil
}

// Vector tables.
const (
	// SymbolVectors holds the vectors of the current symbols.
	SymbolVectors = "symbol_vec"
	// SymbolEmbeddings maps a symbol row to the hash of its embedded text.
	SymbolEmbeddings = "symbol_embeddings"
	// MemoryVectors holds the vectors of the current memories.
	MemoryVectors = "memory_vec"
	// MemoryEmbeddings maps a memory (its seq) to the hash of its embedded
	// text.
	MemoryEmbeddings = "memory_embeddings"
)

// CreateVectors creates the vec0 table name for vectors of dimension dim.
func CreateVectors(ctx context.Context, q Querier, name string, dim int) error {
	if dim <= 0 || dim > 8192 {
		return fmt.Errorf("create %s: dimension %d out of range", name, dim)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r == '_') {
			return fmt.Errorf("create vectors: bad table name %q", name)
		}
	}
	ddl := strings.NewReplacer("{{name}}", name, "{{dim}}", fmt.Sprint(dim)).Replace(vectorsSQL)
	if _, err := q.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	return nil
}

// TableExists reports whether the file has a table (or virtual table).
func TableExists(ctx context.Context, q Querier, name string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = ? AND type = 'table'`, name).Scan(&n)
	return n > 0, err
}

// DSN returns a data source name for the sqlite driver. A writer's
// transactions begin IMMEDIATE: they take the write lock at BEGIN, so two
// writers queue instead of failing at their first write.
func DSN(path string, readOnly bool, pragmas ...string) string {
	q := url.Values{}
	if readOnly {
		q.Set("mode", "ro")
	} else {
		q.Set("_txlock", "immediate")
	}
	q.Add("_pragma", "busy_timeout(10000)")
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: q.Encode()}
	return u.String()
}

// Sniff checks that the file at path exists and is an sdl index of this
// schema version, reading only its header. It returns ErrNoIndex,
// ErrNotIndex or ErrVersion (wrapped, with the file named) otherwise.
func Sniff(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w at %s", ErrNoIndex, path)
	}
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	defer f.Close()
	var hdr [100]byte
	n, err := io.ReadFull(f, hdr[:])
	if n == 0 && (err == io.EOF || err == io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s: %w (the file is empty)", path, ErrNotIndex)
	}
	if err != nil || !strings.HasPrefix(string(hdr[:16]), "SQLite format 3\x00") {
		return fmt.Errorf("%s: %w (not a SQLite database)", path, ErrNotIndex)
	}
	// The header stores user_version at offset 60 and application_id at
	// offset 68, both big-endian.
	be := func(b []byte) uint32 { return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]) }
	if app := be(hdr[68:72]); app != ApplicationID {
		return fmt.Errorf("%s: %w (a SQLite database of another application)", path, ErrNotIndex)
	}
	if v := be(hdr[60:64]); v != Version {
		return fmt.Errorf("%s: %w (file has schema %d, this sdl reads %d)", path, ErrVersion, v, Version)
	}
	return nil
}

// readMmap is how much of an index file a reader maps (address space,
// not memory); unmapped is a reader that maps nothing.
const (
	readMmap = "mmap_size(1073741824)"
	unmapped = "mmap_size(0)"
)

// OpenReadOnly opens an existing index for reading.
func OpenReadOnly(path string) (*sql.DB, error) {
	// Readers map the file: a query reads pages where the OS keeps them,
	// not through a read call and a copy into each connection's cache.
	return openReadOnly(path, false, readMmap)
}

// OpenReadOnlyUnmapped opens an existing index for reading through read
// calls, for a process that asks one question and exits: every mapped page
// it touches counts in its peak RSS (40 MB of a GOROOT/src index for one
// slice), for about 5 ms of CPU saved; a server gains over many questions.
// Its connections share one cache (and one parsed schema): each
// connection of a slice's lanes opened the file, parsed the schema and
// filled a cache of its own (a GOROOT/src slice: schema parsing 3.8 ->
// 1.4 ms and page faults 26 -> 17 ms of sampled CPU). A third of its page
// reads are pages read before (1,998 of 1,297 distinct): the default
// cache is 2000 KiB, 250 of its 8 KB pages. A larger one is not worth it:
// cache_size(-16384) reads each page once (1,303) but costs 61 ms of CPU
// and 61 MB peak against 53 ms and 41 MB, -4096 55 ms and 52 MB (12 runs
// each, alternated): each page the cache grows by is an allocation of
// its own in the SQLite library's allocator, touched fresh and freed at
// exit (allocating and freeing pages: 0.8 of 4.3 s sampled over 100
// slices, against 0.1 of 3.1 s), where the default cache reads a page
// again into memory already touched.
func OpenReadOnlyUnmapped(path string) (*sql.DB, error) {
	return openReadOnly(path, true, unmapped)
}

// openReadOnly opens path read-only with pragmas; shared opens its
// connections in SQLite's shared-cache mode.
func openReadOnly(path string, shared bool, pragmas ...string) (*sql.DB, error) {
	if err := Sniff(path); err != nil {
		return nil, err
	}
	// mode=ro opens the file read-only; the temp schema stays usable.
	dsn := DSN(path, true, pragmas...)
	if shared {
		dsn += "&cache=shared"
	}
	db, err := openRO(dsn)
	if readOnlyPlace(err) {
		// A WAL-mode file in a directory (or with a -shm) this process
		// cannot write, as in a read-only checkout or a shared cache:
		// SQLite cannot set up the shared memory a reader needs. Nobody
		// can be writing there either, so read the file as immutable.
		db, err = openRO(dsn + "&immutable=1")
	}
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", path, Corrupt(err))
	}
	return db, nil
}

func openRO(dsn string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// readOnlyPlace reports whether err is SQLite failing to open a file for
// reading because it may not write next to it (SQLITE_READONLY_* and
// SQLITE_CANTOPEN families).
func readOnlyPlace(err error) bool {
	switch primaryCode(err) {
	case 8, 14: // SQLITE_READONLY, SQLITE_CANTOPEN
		return true
	}
	return false
}

// OpenWrite opens a database for writing with one connection: the index is
// written by one goroutine.
func OpenWrite(path string, pragmas ...string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", DSN(path, false, pragmas...))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// GetMeta reads a meta value ("" when absent).
func GetMeta(ctx context.Context, q Querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetMeta writes a meta value.
func SetMeta(ctx context.Context, q Querier, key, value string) error {
	_, err := q.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	return err
}

// Querier is what *sql.DB, *sql.Tx and *sql.Conn have in common.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}
