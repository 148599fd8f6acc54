package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/memoryfs"
	"github.com/sdl-dev/sdl/schema"
)

// ErrNotCode means a file holds no code sdl indexes: no language of sdl's
// reads it, or it is generated or binary.
var ErrNotCode = errors.New("not a file sdl indexes")

// Fingerprints parses the content of one file as an index run would and
// returns the fingerprint of each symbol it defines, by symbol id. It is
// how a memory records the code it was written against when that code is
// not the index's: an unsaved editor buffer, or a file saved since the
// last run. Memories record ExtractVersion with the fingerprints, since
// another extraction may compute them differently.
func Fingerprints(path string, src []byte) (map[string]string, error) {
	l := lang.ForPath(path)
	if l == nil || classify(path, src, false) != "" {
		return nil, fmt.Errorf("fingerprints of %s: %w", path, ErrNotCode)
	}
	p := lang.NewParser()
	defer p.Close()
	facts, err := lang.Extract(p, l, path, src)
	if err != nil {
		return nil, fmt.Errorf("fingerprints of %s: %w", path, err)
	}
	ids := symbolIDs(path, facts)
	out := make(map[string]string, len(ids))
	for i, id := range ids {
		out[id] = facts.Symbols[i].Fingerprint
	}
	return out, nil
}

// MemorySummary says what an index run did with the memory files of
// .sdl-memory and the feedback sidecar.
type MemorySummary struct {
	Memories int `json:"memories"` // current memories after the run
	Imported int `json:"imported"` // files new or changed since the last run
	Removed  int `json:"removed"`  // memories whose files are gone or marked deleted
	Stale    int `json:"stale"`    // flagged stale by this run
	Relinked int `json:"relinked"` // links moved to a renamed or moved symbol
	// Kept counts memories whose file no longer parses: the index keeps
	// what the file last held (the file is one of Problems).
	Kept int `json:"kept,omitempty"`
	// Problems are the memory files that could not be imported.
	Problems []memoryfs.Problem `json:"problems,omitempty"`
	// Warnings are failures that did not stop the run (a memory file that
	// could not be rewritten, an unreadable feedback file).
	Warnings         []string `json:"warnings,omitempty"`
	FeedbackImported int      `json:"feedbackImported"`
	FeedbackSkipped  int      `json:"feedbackSkipped,omitempty"` // lines that were not records
}

// fpKey pairs a removed symbol with an added one: same kind, same
// fingerprint (the fingerprint leaves the name out).
type fpKey struct{ kind, fp string }

// symChanges are the symbols of an incremental run that matter to
// memories: those whose fingerprint changed, and those removed and added
// (a rename or a move is a removal and an addition with one fingerprint).
type symChanges struct {
	changed map[string]bool
	removed map[string]fpKey
	added   map[string]fpKey
}

func newSymChanges() *symChanges {
	return &symChanges{changed: map[string]bool{}, removed: map[string]fpKey{}, added: map[string]fpKey{}}
}

// renames pairs removed symbols with added ones when exactly one of each
// has the same kind and fingerprint: old id -> new id.
func (c *symChanges) renames() map[string]string {
	rem := map[fpKey][]string{}
	for id, k := range c.removed {
		rem[k] = append(rem[k], id)
	}
	add := map[fpKey][]string{}
	for id, k := range c.added {
		add[k] = append(add[k], id)
	}
	out := map[string]string{}
	for k, olds := range rem {
		if news := add[k]; len(olds) == 1 && len(news) == 1 && k.fp != "" {
			out[olds[0]] = news[0]
		}
	}
	return out
}

func (b *build) memSummary() *MemorySummary {
	if b.sum.Memories == nil {
		b.sum.Memories = &MemorySummary{}
	}
	return b.sum.Memories
}

// syncSidecars brings the memories and feedback tables up to the files on
// disk. ch holds the symbol changes of an incremental run (nil for a full
// build or a run without code changes); memories linked to those symbols
// are flagged stale at version. It reports whether it wrote anything.
// Problems with single files never fail the run.
func (b *build) syncSidecars(ctx context.Context, tx querier, ch *symChanges, version string) (bool, error) {
	b.progress("memories", 0, 0)
	changed, err := b.syncMemories(ctx, tx, ch, version)
	if err != nil {
		return false, fmt.Errorf("sync memories: %w", err)
	}
	fb, err := b.syncFeedback(ctx, tx)
	if err != nil {
		return false, fmt.Errorf("import feedback: %w", err)
	}
	return changed || fb, nil
}

type memRow struct {
	seq      int64
	path     string
	fileHash string
	deleted  bool
}

func (b *build) syncMemories(ctx context.Context, tx querier, ch *symChanges, version string) (bool, error) {
	sum := b.memSummary()
	scan := memoryfs.Scan(b.root)
	sum.Problems = scan.Problems
	rows := map[string]memRow{}
	rs, err := tx.QueryContext(ctx, `SELECT id, seq, path, file_hash, deleted FROM memories`)
	if err != nil {
		return false, err
	}
	for rs.Next() {
		var id string
		var r memRow
		if err := rs.Scan(&id, &r.seq, &r.path, &r.fileHash, &r.deleted); err != nil {
			rs.Close()
			return false, err
		}
		rows[id] = r
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return false, err
	}
	changed, err := recordProblems(ctx, tx, scan.Problems)
	if err != nil {
		return false, err
	}
	repoID := memoryfs.RepoID(b.root)
	seen := map[string]bool{}
	unchanged := map[string]*memoryfs.File{} // current memories whose file did not change
	imported := map[string]*memoryfs.File{}  // memories new or changed in this run
	for i := range scan.Files {
		f := &scan.Files[i]
		m := f.Memory
		seen[m.ID] = true
		r, ok := rows[m.ID]
		if ok && r.fileHash == f.Hash && r.path == f.Path {
			if !m.Deleted {
				unchanged[m.ID] = f
				sum.Memories++
			}
			continue
		}
		changed = true
		if ok {
			if err := dropMemoryIndex(ctx, tx, m.ID, r.seq); err != nil {
				return false, err
			}
		}
		if m.Deleted {
			if ok && !r.deleted {
				sum.Removed++
			}
		} else {
			sum.Imported++
			sum.Memories++
			imported[m.ID] = f
		}
		if err := putMemory(ctx, tx, f, repoID); err != nil {
			return false, err
		}
	}
	// a file that no longer parses (a merge conflict, a truncated write)
	// keeps the memory it last held until it is fixed or removed: a
	// broken file is a recorded problem, never lost knowledge
	broken := map[string]bool{}
	for _, p := range scan.Problems {
		broken[p.Path] = true
	}
	var gone []string
	for id, r := range rows {
		switch {
		case seen[id]:
		case broken[r.path]:
			if !r.deleted {
				sum.Memories++
				sum.Kept++
			}
		default:
			gone = append(gone, id)
		}
	}
	sort.Strings(gone)
	for _, id := range gone {
		r := rows[id]
		changed = true
		if !r.deleted {
			sum.Removed++
		}
		if err := dropMemoryIndex(ctx, tx, id, r.seq); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM memories WHERE id = ?`, id); err != nil {
			return false, err
		}
	}
	if ch != nil {
		flagged, err := b.flagStale(ctx, tx, ch, version, unchanged)
		if err != nil {
			return false, err
		}
		changed = changed || flagged
	}
	drifted, err := b.flagDrifted(ctx, tx, version, imported)
	if err != nil {
		return false, err
	}
	cleared, err := b.clearMatched(ctx, tx, unchanged)
	if err != nil {
		return false, err
	}
	changed = changed || drifted || cleared
	if changed || ch == nil && len(rows) == 0 {
		if err := setMemoriesHash(ctx, tx); err != nil {
			return false, err
		}
	}
	return changed, nil
}

// recordProblems replaces the recorded problems of memory files with
// probs. It reports whether they changed.
func recordProblems(ctx context.Context, tx querier, probs []memoryfs.Problem) (bool, error) {
	old := map[memoryfs.Problem]bool{}
	rows, err := tx.QueryContext(ctx, `SELECT path, line, message FROM memory_problems`)
	if err != nil {
		return false, err
	}
	for rows.Next() {
		var p memoryfs.Problem
		if err := rows.Scan(&p.Path, &p.Line, &p.Message); err != nil {
			rows.Close()
			return false, err
		}
		old[p] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	same := len(old) == len(probs)
	for _, p := range probs {
		same = same && old[p]
	}
	if same {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM memory_problems`); err != nil {
		return false, err
	}
	for _, p := range probs {
		// one row a file: List and Load report a file at most once, but a
		// directory problem and a file problem may share a path
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO memory_problems(path, line, message) VALUES(?, ?, ?)`,
			p.Path, p.Line, p.Message); err != nil {
			return false, err
		}
	}
	return true, nil
}

// setMemoriesHash records a hash of the memories tables' rows.
func setMemoriesHash(ctx context.Context, tx querier) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, path, file_hash, stale, stale_version, deleted FROM memories ORDER BY id`)
	if err != nil {
		return err
	}
	h := sha256.New()
	for rows.Next() {
		var id, path, fh, sv string
		var stale, deleted int
		if err := rows.Scan(&id, &path, &fh, &stale, &sv, &deleted); err != nil {
			rows.Close()
			return err
		}
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%s\x00%d\n", id, path, fh, stale, sv, deleted)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	return schema.SetMeta(ctx, tx, schema.MetaMemoriesHash, hex.EncodeToString(h.Sum(nil)[:12]))
}

// putMemory writes the row of a memory file, and for a memory that is not
// deleted its links and full-text row.
func putMemory(ctx context.Context, tx querier, f *memoryfs.File, repoID string) error {
	m := f.Memory
	tags, _ := json.Marshal(nonNilStrings(m.Tags))
	_, err := tx.ExecContext(ctx, `INSERT INTO memories(id, type, title, content, tags, confidence, created_at, deleted, stale,
		stale_version, path, content_hash, file_hash) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET type = excluded.type, title = excluded.title, content = excluded.content, tags = excluded.tags,
		confidence = excluded.confidence, created_at = excluded.created_at, deleted = excluded.deleted, stale = excluded.stale,
		stale_version = excluded.stale_version, path = excluded.path, content_hash = excluded.content_hash, file_hash = excluded.file_hash`,
		m.ID, m.Type, m.Title, m.Content, string(tags), m.Confidence, memoryfs.FormatTime(m.CreatedAt), boolInt(m.Deleted),
		boolInt(m.Stale), m.StaleVersion, f.Path, memoryfs.ContentHash(repoID, m.Type, m.Title, m.Content), f.Hash)
	if err != nil {
		return fmt.Errorf("write memory %s: %w", m.ID, err)
	}
	if m.Deleted {
		return nil
	}
	var seq int64
	if err := tx.QueryRowContext(ctx, `SELECT seq FROM memories WHERE id = ?`, m.ID).Scan(&seq); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO memories_fts(rowid, title, content) VALUES(?, ?, ?)`, seq, m.Title, m.Content); err != nil {
		return err
	}
	for _, s := range m.Symbols {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO memory_symbols(memory_id, symbol_id) VALUES(?, ?)`, m.ID, s); err != nil {
			return err
		}
	}
	for _, p := range m.Files {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO memory_files(memory_id, path) VALUES(?, ?)`, m.ID, p); err != nil {
			return err
		}
	}
	return nil
}

// dropMemoryIndex removes a memory's links and full-text row.
func dropMemoryIndex(ctx context.Context, tx querier, id string, seq int64) error {
	for _, q := range []string{`DELETE FROM memory_symbols WHERE memory_id = ?`, `DELETE FROM memory_files WHERE memory_id = ?`} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM memories_fts WHERE rowid = ?`, seq)
	return err
}

// flagStale marks stale the memories linked to symbols whose fingerprint
// changed or that were removed, and moves the links of renamed or moved
// symbols to their new ids. Only memories whose file did not change in
// this run are flagged here: a file updated along with the code is about
// the new code, unless its fingerprints say otherwise (flagDrifted).
func (b *build) flagStale(ctx context.Context, tx querier, ch *symChanges, version string, unchanged map[string]*memoryfs.File) (bool, error) {
	if len(unchanged) == 0 || len(ch.changed)+len(ch.removed) == 0 {
		return false, nil
	}
	renames := ch.renames()
	links := map[string][]string{} // memory id -> linked symbol ids that changed
	var ids []string
	for id, f := range unchanged {
		for _, s := range f.Memory.Symbols {
			_, rm := ch.removed[s]
			if !ch.changed[s] && !rm {
				continue
			}
			if !rm {
				// a symbol changed back to the code the memory was written
				// against (an index of an older --rev, then of HEAD) is
				// the code the memory is about
				same, err := fingerprintMatches(ctx, tx, f.Memory, s)
				if err != nil {
					return false, err
				}
				if same {
					continue
				}
			}
			links[id] = append(links[id], s)
		}
		if len(links[id]) > 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return false, nil
	}
	sort.Strings(ids)
	for _, id := range ids {
		moved := map[string]string{}
		for _, s := range links[id] {
			if nw, ok := renames[s]; ok {
				moved[s] = nw
			}
		}
		if err := b.markStale(ctx, tx, unchanged[id], version, moved); err != nil {
			return false, err
		}
	}
	return true, nil
}

// fingerprintMatches reports whether m recorded a fingerprint for symbol s
// (of this extraction version) and the current code of s has it.
func fingerprintMatches(ctx context.Context, tx querier, m *memoryfs.Memory, s string) (bool, error) {
	want, ok := m.Fingerprints[s]
	if !ok || m.FingerprintVersion != ExtractVersion {
		return false, nil
	}
	var have string
	err := tx.QueryRowContext(ctx, `SELECT fingerprint FROM symbols WHERE id = ? AND to_seq IS NULL LIMIT 1`, s).Scan(&have)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("read fingerprint: %w", err)
	}
	return have == want, nil
}

// clearMatched clears the index-only stale flag (set by a run over another
// revision or over drafts, which leave the files alone) of the unchanged
// memories whose file says fresh and whose every linked symbol has again
// the code the memory was written against: after sdl index --rev
// origin/main and sdl index --rev HEAD, a memory about HEAD's code is not
// stale at HEAD.
func (b *build) clearMatched(ctx context.Context, tx querier, unchanged map[string]*memoryfs.File) (bool, error) {
	var ids []string
	for id, f := range unchanged {
		m := f.Memory
		if !m.Stale && len(m.Symbols) > 0 && len(m.Fingerprints) > 0 && m.FingerprintVersion == ExtractVersion {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	cleared := false
	for _, id := range ids {
		var stale int
		if err := tx.QueryRowContext(ctx, `SELECT stale FROM memories WHERE id = ?`, id).Scan(&stale); err != nil {
			return false, fmt.Errorf("read memory %s: %w", id, err)
		}
		if stale == 0 {
			continue
		}
		m := unchanged[id].Memory
		all := true
		for _, s := range m.Symbols {
			same, err := fingerprintMatches(ctx, tx, m, s)
			if err != nil {
				return false, err
			}
			if !same {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memories SET stale = 0, stale_version = '' WHERE id = ?`, id); err != nil {
			return false, err
		}
		cleared = true
	}
	return cleared, nil
}

// flagDrifted marks stale the memories imported by this run whose
// recorded fingerprints differ from the code the index now holds: the code
// changed between storing the memory and this run (the change is in no
// symChanges of a later run, so only the comparison sees it), or a
// teammate's memory was written about other code. A linked symbol the
// index no longer holds has changed too. Fingerprints of another
// extraction version are not compared.
func (b *build) flagDrifted(ctx context.Context, tx querier, version string, imported map[string]*memoryfs.File) (bool, error) {
	var ids []string
	for id, f := range imported {
		m := f.Memory
		if !m.Stale && len(m.Fingerprints) > 0 && m.FingerprintVersion == ExtractVersion {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	flagged := false
	for _, id := range ids {
		f := imported[id]
		drift := false
		for _, s := range f.Memory.Symbols {
			if _, ok := f.Memory.Fingerprints[s]; !ok {
				continue
			}
			same, err := fingerprintMatches(ctx, tx, f.Memory, s)
			if err != nil {
				return false, err
			}
			if !same {
				drift = true
				break
			}
		}
		if !drift {
			continue
		}
		if err := b.markStale(ctx, tx, f, version, nil); err != nil {
			return false, err
		}
		flagged = true
	}
	return flagged, nil
}

// markStale flags one memory stale at version, first moving its links
// from renamed symbols to their new ids (moved: old id -> new id). The
// flag is written into the file too, so that it survives a rebuild and
// reaches teammates; runs over drafts (VersionSuffix) leave the files
// alone.
func (b *build) markStale(ctx context.Context, tx querier, f *memoryfs.File, version string, moved map[string]string) error {
	sum := b.memSummary()
	m := f.Memory
	id := m.ID
	p := filepath.Join(b.root, filepath.FromSlash(f.Path))
	if data, err := os.ReadFile(p); err != nil || memoryfs.Hash(data) != f.Hash {
		// stored again (or removed) since this run read it: the new file
		// is about the new code, and the next run imports it
		return nil
	}
	olds := make([]string, 0, len(moved))
	for s := range moved {
		olds = append(olds, s)
	}
	sort.Strings(olds)
	for _, s := range olds {
		nw := moved[s]
		if _, err := tx.ExecContext(ctx, `DELETE FROM memory_symbols WHERE memory_id = ? AND symbol_id = ?`, id, s); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO memory_symbols(memory_id, symbol_id) VALUES(?, ?)`, id, nw); err != nil {
			return err
		}
		m.Symbols = replaceOnce(m.Symbols, s, nw)
		if fp, ok := m.Fingerprints[s]; ok {
			delete(m.Fingerprints, s)
			m.Fingerprints[nw] = fp
		}
		sum.Relinked++
	}
	if !m.Stale {
		// stale since the first version that changed the code
		m.Stale, m.StaleVersion = true, version
	}
	if _, err := tx.ExecContext(ctx, `UPDATE memories SET stale = 1, stale_version = ? WHERE id = ?`, m.StaleVersion, id); err != nil {
		return err
	}
	sum.Stale++
	if b.opts.VersionSuffix != "" || b.opts.Rev != "" {
		// a scratch copy indexing unsaved drafts, or a run over another
		// revision than the working tree whose memories these files are:
		// the flag is for the index's answers only; the files change when
		// the working tree's code is indexed
		return nil
	}
	data, err := memoryfs.Marshal(m)
	if err == nil {
		err = memoryfs.WriteFile(p, data)
	}
	if err != nil {
		// the row keeps the old file hash: the next run sees the file
		// unchanged and keeps the flag from the index
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("%s: could not record stale: %v", f.Path, err))
		return nil
	}
	_, err = tx.ExecContext(ctx, `UPDATE memories SET file_hash = ? WHERE id = ?`, memoryfs.Hash(data), id)
	return err
}

// replaceOnce replaces old with nw in ids, keeping ids distinct.
func replaceOnce(ids []string, old, nw string) []string {
	out := make([]string, 0, len(ids))
	has := false
	for _, s := range ids {
		if s == nw {
			has = true
		}
	}
	for _, s := range ids {
		switch {
		case s == old && !has:
			out = append(out, nw)
			has = true
		case s == old:
		default:
			out = append(out, s)
		}
	}
	return out
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// syncFeedback imports the records appended to the feedback sidecar since
// the last run. It reports whether it imported any.
func (b *build) syncFeedback(ctx context.Context, tx querier) (bool, error) {
	sum := b.memSummary()
	path := schema.FeedbackPath(b.opts.DB)
	offText, err := schema.GetMeta(ctx, tx, schema.MetaFeedbackOffset)
	if err != nil {
		return false, err
	}
	off, _ := strconv.ParseInt(offText, 10, 64)
	fi, err := os.Stat(path)
	if err != nil {
		if !os.IsNotExist(err) {
			sum.Warnings = append(sum.Warnings, fmt.Sprintf("feedback: %v", err))
		}
		return false, nil
	}
	if fi.Size() < off { // replaced or truncated: read it all again
		off = 0
	}
	if fi.Size() == off {
		return false, nil
	}
	recs, next, bad, err := schema.ReadFeedback(path, off)
	if err != nil {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("feedback: %v", err))
	}
	sum.FeedbackSkipped += bad
	for i := range recs {
		f := &recs[i]
		tags, _ := json.Marshal(nonNilStrings(f.TaskTags))
		useful, _ := json.Marshal(nonNilStrings(f.UsefulSymbols))
		missing, _ := json.Marshal(nonNilStrings(f.MissingSymbols))
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO feedback(id, version_id, slice_handle, task_type, task_text, task_tags,
			useful, missing, created_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`, f.FeedbackID, f.VersionID, f.SliceHandle, f.TaskType,
			f.TaskText, string(tags), string(useful), string(missing), f.CreatedAt)
		if err != nil {
			return false, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue // imported before
		}
		sum.FeedbackImported++
		for miss, ids := range [][]string{f.UsefulSymbols, f.MissingSymbols} {
			for _, id := range ids {
				if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO feedback_symbols(feedback_id, symbol_id, missing) VALUES(?, ?, ?)`,
					f.FeedbackID, id, miss); err != nil {
					return false, err
				}
			}
		}
	}
	if err := schema.SetMeta(ctx, tx, schema.MetaFeedbackOffset, strconv.FormatInt(next, 10)); err != nil {
		return false, err
	}
	return true, nil
}
