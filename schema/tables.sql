-- The sdl index file. Paths are repository-relative with '/'. Rows of the
-- versioned tables (files, symbols, edges) are valid for ledger sequence
-- numbers in [from_seq, to_seq); to_seq IS NULL marks the current view.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- The ledger: one row per indexed version, hash-chained.
CREATE TABLE versions (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  created_at      TEXT NOT NULL,
  git_commit      TEXT NOT NULL DEFAULT '',
  git_dirty       INTEGER NOT NULL DEFAULT 0,
  git_ref         TEXT NOT NULL DEFAULT '',
  tree_hash       TEXT NOT NULL,
  prev_hash       TEXT NOT NULL,
  hash            TEXT NOT NULL,
  files           INTEGER NOT NULL,
  symbols         INTEGER NOT NULL,
  edges           INTEGER NOT NULL,
  files_added     INTEGER NOT NULL DEFAULT 0,
  files_changed   INTEGER NOT NULL DEFAULT 0,
  files_removed   INTEGER NOT NULL DEFAULT 0,
  symbols_added   INTEGER NOT NULL DEFAULT 0,
  symbols_changed INTEGER NOT NULL DEFAULT 0,
  symbols_removed INTEGER NOT NULL DEFAULT 0
);

-- Interned paths, shared by every version.
CREATE TABLE paths (
  id   INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE
);

CREATE TABLE files (
  path_id     INTEGER NOT NULL REFERENCES paths(id),
  language    TEXT NOT NULL DEFAULT '',
  size        INTEGER NOT NULL,
  hash        TEXT NOT NULL DEFAULT '',
  -- modification time (Unix ns) when hashed; 0 = unknown: with size, a
  -- stat stamp that lets the next run skip reading an unchanged file
  mtime       INTEGER NOT NULL DEFAULT 0,
  lines       INTEGER NOT NULL DEFAULT 0,
  -- ok | parse_error | skipped | unreadable
  status      TEXT NOT NULL,
  reason      TEXT NOT NULL DEFAULT '',
  diagnostics TEXT NOT NULL DEFAULT '',
  -- stages of the file's work that failed (a panic, the depth limit, a
  -- spent work budget) as JSON [{stage, reason, count}]; the file keeps
  -- what was extracted and resolved before
  faults      TEXT NOT NULL DEFAULT '',
  is_test     INTEGER NOT NULL DEFAULT 0,
  module      TEXT NOT NULL DEFAULT '',
  -- the file's imports as JSON, so edges can be re-resolved without a parse
  imports     TEXT NOT NULL DEFAULT '',
  -- the build constraint as one expression (Go: //go:build and the
  -- _GOOS/_GOARCH file-name suffix); resolution evaluates it for a target
  build       TEXT NOT NULL DEFAULT '',
  from_seq    INTEGER NOT NULL,
  to_seq      INTEGER
);

CREATE TABLE symbols (
  id           TEXT NOT NULL,
  path_id      INTEGER NOT NULL REFERENCES paths(id),
  kind         TEXT NOT NULL,
  name         TEXT NOT NULL,
  qualified    TEXT NOT NULL,
  container    TEXT NOT NULL DEFAULT '',
  parent_id    TEXT NOT NULL DEFAULT '',
  start_line   INTEGER NOT NULL,
  start_col    INTEGER NOT NULL,
  end_line     INTEGER NOT NULL,
  end_col      INTEGER NOT NULL,
  exported     INTEGER NOT NULL,
  visibility   TEXT NOT NULL,
  signature    TEXT NOT NULL DEFAULT '',
  doc          TEXT NOT NULL DEFAULT '',
  summary      TEXT NOT NULL DEFAULT '',
  invariants   TEXT NOT NULL DEFAULT '',
  side_effects TEXT NOT NULL DEFAULT '',
  fingerprint  TEXT NOT NULL,
  is_test      INTEGER NOT NULL DEFAULT 0,
  -- a hash of every column above: an unchanged symbol is not rewritten
  digest       TEXT NOT NULL,
  from_seq     INTEGER NOT NULL,
  to_seq       INTEGER
);

-- Every reference, resolved (dst set) or not (dst NULL, rule says why).
-- qual, qual_type and qual_call keep what resolution needs to run again
-- when the symbols it depends on change.
CREATE TABLE edges (
  src        TEXT NOT NULL,
  dst        TEXT,
  kind       TEXT NOT NULL,
  name       TEXT NOT NULL,
  qual       TEXT NOT NULL DEFAULT '',
  qual_type  TEXT NOT NULL DEFAULT '',
  qual_call  TEXT NOT NULL DEFAULT '',
  confidence REAL NOT NULL,
  rule       TEXT NOT NULL,
  candidates INTEGER NOT NULL DEFAULT 0,
  count      INTEGER NOT NULL DEFAULT 1,
  line       INTEGER NOT NULL DEFAULT 0,
  path_id    INTEGER NOT NULL REFERENCES paths(id),
  digest     TEXT NOT NULL,
  from_seq   INTEGER NOT NULL,
  to_seq     INTEGER
);

-- Derived from the current version; rebuilt by each index run.
CREATE TABLE metrics (
  id           TEXT PRIMARY KEY,
  fan_in       INTEGER NOT NULL DEFAULT 0,
  fan_out      INTEGER NOT NULL DEFAULT 0,
  test_refs    INTEGER NOT NULL DEFAULT 0,
  nearest_test TEXT NOT NULL DEFAULT '',
  cluster_id   INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- Commits that touched each current file in the 30 days before the
-- commit that was indexed (git repositories only).
CREATE TABLE file_metrics (
  path_id INTEGER PRIMARY KEY REFERENCES paths(id),
  churn   INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE clusters (
  id           INTEGER PRIMARY KEY,
  label        TEXT NOT NULL,
  member_count INTEGER NOT NULL
);

CREATE TABLE processes (
  id     INTEGER PRIMARY KEY,
  label  TEXT NOT NULL,
  entry  TEXT NOT NULL,
  length INTEGER NOT NULL
);

CREATE TABLE process_steps (
  process_id INTEGER NOT NULL REFERENCES processes(id),
  symbol_id  TEXT NOT NULL,
  depth      INTEGER NOT NULL,
  -- entry | intermediate | exit
  role       TEXT NOT NULL,
  PRIMARY KEY (process_id, depth, symbol_id)
) WITHOUT ROWID;

-- Full-text index over the current symbols; rowid = symbols.rowid.
-- Contentless (the text is not stored twice). detail=full because bm25()
-- of a contentless table with detail=column is always 0. The porter
-- stemmer lets "filenames" in a task match filename().
CREATE VIRTUAL TABLE symbols_fts USING fts5(
  name, qualified, signature, doc, path, body, words,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- The length in tokens of every symbols_fts row, which bm25 reads:
-- FTS5's own record of it (symbols_fts_docsize) is a B-tree row per
-- symbol. Block b holds rowids b*4096 .. b*4096+4095 as varints
-- (schema.EncodeLengths); every index run writes the blocks whose rows it
-- changed, from the docsize table.
CREATE TABLE symbol_lengths (
  block INTEGER PRIMARY KEY,
  lens  BLOB NOT NULL
);

-- Development memories: the current state of the .sdl-memory/*.md files,
-- which are the source of truth. Not versioned: every index run imports
-- the files again. seq is an explicit rowid so that memories_fts rows stay
-- paired with their memories through a VACUUM.
CREATE TABLE memories (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  type          TEXT NOT NULL,
  title         TEXT NOT NULL,
  content       TEXT NOT NULL,
  tags          TEXT NOT NULL DEFAULT '[]', -- JSON array
  confidence    REAL NOT NULL,
  created_at    TEXT NOT NULL,
  -- a file marked deleted: true: kept so the id stays taken, never answered
  deleted       INTEGER NOT NULL DEFAULT 0,
  stale         INTEGER NOT NULL DEFAULT 0,
  stale_version TEXT NOT NULL DEFAULT '',
  path          TEXT NOT NULL,             -- the file, repository-relative
  content_hash  TEXT NOT NULL,             -- SHA-256 of repoId, type, title, content: deduplication
  file_hash     TEXT NOT NULL              -- of the file's bytes: an unchanged file is not imported again
);

-- The symbols and files a memory is about.
CREATE TABLE memory_symbols (
  memory_id TEXT NOT NULL,
  symbol_id TEXT NOT NULL,
  PRIMARY KEY (memory_id, symbol_id)
) WITHOUT ROWID;

CREATE TABLE memory_files (
  memory_id TEXT NOT NULL,
  path      TEXT NOT NULL,
  PRIMARY KEY (memory_id, path)
) WITHOUT ROWID;

-- The memory files the last index run could not import, and why: a file
-- that is not a memory is a diagnostic here, never a failed run.
CREATE TABLE memory_problems (
  path    TEXT PRIMARY KEY, -- repository-relative
  line    INTEGER NOT NULL DEFAULT 0,
  message TEXT NOT NULL
) WITHOUT ROWID;

-- Full-text index over memories; rowid = memories.seq. A table with its
-- own content (memories are few and small): bm25() ranks, and a row is
-- deleted by rowid.
CREATE VIRTUAL TABLE memories_fts USING fts5(
  title, content,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Agent feedback on slices, imported from .sdl/feedback.jsonl.
CREATE TABLE feedback (
  id           TEXT PRIMARY KEY,
  version_id   TEXT NOT NULL,
  slice_handle TEXT NOT NULL,
  task_type    TEXT NOT NULL DEFAULT '',
  task_text    TEXT NOT NULL DEFAULT '',
  task_tags    TEXT NOT NULL DEFAULT '[]', -- JSON array
  useful       TEXT NOT NULL,              -- JSON array of symbol ids
  missing      TEXT NOT NULL DEFAULT '[]', -- JSON array of symbol ids
  created_at   TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE feedback_symbols (
  feedback_id TEXT NOT NULL,
  symbol_id   TEXT NOT NULL,
  missing     INTEGER NOT NULL, -- 0: useful, 1: missing
  PRIMARY KEY (feedback_id, missing, symbol_id)
) WITHOUT ROWID;

-- Embeddings of the current symbols, when an embedding model is configured
-- (meta embedding_model and embedding_dim name it). rowid = symbols.rowid;
-- hash identifies the text the model saw, so a symbol whose text did not
-- change keeps its vector, and another with the same text reuses it. The
-- vectors themselves live in the vec0 table symbol_vec, created with the
-- model's dimension (vectors.sql). A symbol with a row here and none in
-- symbol_vec had no word the model knows.
CREATE TABLE symbol_embeddings (
  rowid INTEGER PRIMARY KEY,
  hash  TEXT NOT NULL
);

-- Embeddings of the current memories, like symbol_embeddings: rowid =
-- memories.seq, hash identifies the text the model saw (embed.MemoryDoc).
-- The vectors live in the vec0 table memory_vec, created with symbol_vec
-- and dropped with it when the model changes.
CREATE TABLE memory_embeddings (
  rowid INTEGER PRIMARY KEY,
  hash  TEXT NOT NULL
);

-- Partial indexes over the rows a full build never writes: rows closed by a
-- later version (to_seq set) and rows born after the first build (what a
-- version added; closed edges by target give the blast radius and fan-in
-- at a past version). They are created with the tables, not after the
-- bulk load with the others: they stay empty during it, and each CREATE
-- INDEX after it would scan its whole table for nothing.
CREATE INDEX files_to ON files(to_seq) WHERE to_seq IS NOT NULL;
CREATE INDEX symbols_to ON symbols(to_seq) WHERE to_seq IS NOT NULL;
CREATE INDEX edges_to ON edges(to_seq) WHERE to_seq IS NOT NULL;
CREATE INDEX edges_old_dst ON edges(dst) WHERE to_seq IS NOT NULL;
CREATE INDEX edges_born ON edges(from_seq) WHERE from_seq > 1;
CREATE INDEX symbols_born ON symbols(from_seq) WHERE from_seq > 1;
