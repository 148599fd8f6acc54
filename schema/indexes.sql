-- Indexes are created after a full build's bulk load, which is faster than
-- maintaining them row by row.
CREATE INDEX files_cur ON files(path_id) WHERE to_seq IS NULL;
CREATE INDEX files_cur_module ON files(module) WHERE to_seq IS NULL;
CREATE UNIQUE INDEX symbols_cur_id ON symbols(id) WHERE to_seq IS NULL;
CREATE INDEX symbols_cur_name ON symbols(name) WHERE to_seq IS NULL;
CREATE INDEX symbols_cur_lname ON symbols(name COLLATE NOCASE) WHERE to_seq IS NULL;
CREATE INDEX symbols_cur_path ON symbols(path_id) WHERE to_seq IS NULL;
CREATE INDEX symbols_cur_parent ON symbols(parent_id) WHERE to_seq IS NULL;
CREATE INDEX symbols_id ON symbols(id, from_seq);
CREATE INDEX edges_cur_src ON edges(src) WHERE to_seq IS NULL;
CREATE INDEX edges_cur_dst ON edges(dst) WHERE to_seq IS NULL;
CREATE INDEX edges_cur_name ON edges(name) WHERE to_seq IS NULL;
CREATE INDEX edges_cur_path ON edges(path_id) WHERE to_seq IS NULL;
CREATE INDEX process_steps_symbol ON process_steps(symbol_id);
-- No index on metrics(cluster_id): no statement of sdl looks metrics up by
-- cluster (EXPLAIN QUERY PLAN of every statement the tests of query, serve,
-- cmd/sdl and index ran, on a GOROOT/src index), and it cost every build
-- 0.05 s of CPU and every incremental run its upkeep.
CREATE INDEX memory_symbols_symbol ON memory_symbols(symbol_id);
CREATE INDEX memory_files_path ON memory_files(path);
CREATE INDEX feedback_created ON feedback(created_at);
CREATE INDEX feedback_symbols_symbol ON feedback_symbols(symbol_id, missing);
CREATE INDEX symbol_embeddings_hash ON symbol_embeddings(hash);
