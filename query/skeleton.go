package query

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/lang"
)

// The ladder's rungs 2-4 (skeleton, hot path, raw window) read source files
// from disk, not from the index: the index says where a symbol is, the file
// says what it is now. A file that changed since indexing is still served,
// and flagged stale.

// Budgets of the ladder.
const (
	// DefaultSkeletonTokens is the token budget of a skeleton page when the
	// request names none.
	DefaultSkeletonTokens = 4000
	// DefaultHotPathTokens is the token budget of a hot-path excerpt.
	DefaultHotPathTokens = 2000
	// MaxResponseTokens is the most any ladder answer holds: an MCP
	// client's output cap.
	MaxResponseTokens = 25000
	// maxIdentifiers is the most identifiers a request may name.
	maxIdentifiers = 50
	// maxSourceBytes is the largest file the ladder reads.
	maxSourceBytes = 8 << 20
	// maxLineBytes cuts longer source lines (minified code) in answers, so
	// one line cannot take a whole budget.
	maxLineBytes = 480
)

// ErrStale means the index and the file on disk disagree too much to
// answer: the symbol's range lies outside the file.
var ErrStale = errors.New("index is stale")

// source is a file of the repository, read from disk and parsed.
type source struct {
	path       string // repo-relative, with /
	lang       *lang.Language
	src        []byte
	tree       *lang.Tree
	parser     *lang.Parser
	lineStarts []int
}

func (s *source) close() { s.parser.Close() }

// lines is the number of lines of the file.
func (s *source) lines() int {
	n := len(s.lineStarts)
	if n > 1 && s.lineStarts[n-1] == len(s.src) {
		n-- // a final newline ends the last line; it starts no other
	}
	return n
}

// line returns the text of 1-based line n, without its newline.
func (s *source) line(n int) string {
	if n < 1 || n > len(s.lineStarts) {
		return ""
	}
	a := s.lineStarts[n-1]
	b := len(s.src)
	if n < len(s.lineStarts) {
		b = s.lineStarts[n] - 1
	}
	return strings.TrimRight(string(s.src[a:b]), "\r")
}

// offset converts a 1-based line and a byte column into a byte offset,
// clamped to the file.
func (s *source) offset(line, col int) uint32 {
	if line < 1 {
		return 0
	}
	if line > len(s.lineStarts) {
		return uint32(len(s.src))
	}
	o := s.lineStarts[line-1] + max(col, 0)
	end := len(s.src)
	if line < len(s.lineStarts) {
		end = s.lineStarts[line]
	}
	return uint32(min(o, end))
}

// cleanRepoPath checks a path given by a client: relative, inside the
// repository, with no "..", and returns it cleaned with slashes.
func cleanRepoPath(field, p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", invalidf(field, "must be a non-empty path relative to the repository root")
	}
	if strings.ContainsRune(p, 0) {
		return "", invalidf(field, "%q holds a NUL byte", p)
	}
	slashed := strings.ReplaceAll(p, "\\", "/")
	if filepath.IsAbs(p) || strings.HasPrefix(slashed, "/") || filepath.VolumeName(p) != "" {
		return "", invalidf(field, "%q is absolute; give a path relative to the repository root", p)
	}
	for _, part := range strings.Split(slashed, "/") {
		if part == ".." {
			return "", invalidf(field, "%q leaves the repository (it holds ..); give a path relative to the repository root", p)
		}
	}
	return path.Clean(slashed), nil
}

// readSource reads and parses a repository file. field names the request
// field the path came from, for errors.
func (x *Index) readSource(field, rel string) (*source, error) {
	l := lang.ForPath(rel)
	if l == nil || !lang.HasSkeleton(l) {
		var names []string
		for _, l := range lang.All() {
			if lang.HasSkeleton(l) {
				names = append(names, l.Name)
			}
		}
		return nil, invalidf(field, "%q is not in a language sdl reads (%s)", rel, strings.Join(names, ", "))
	}
	data, ok := []byte(nil), false
	if x.Unsaved != nil {
		data, ok = x.Unsaved(rel)
	}
	if !ok {
		var err error
		if data, err = x.readDisk(field, rel); err != nil {
			return nil, err
		}
	}
	if len(data) > maxSourceBytes {
		return nil, invalidf(field, "%q is larger than %d MB; ask for a symbol in it instead", rel, maxSourceBytes>>20)
	}
	p := lang.NewParser()
	t, err := p.Parse(l, data)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("parse %s: %w", rel, err)
	}
	s := &source{path: rel, lang: l, src: data, tree: t, parser: p, lineStarts: []int{0}}
	for i, c := range data {
		if c == '\n' {
			s.lineStarts = append(s.lineStarts, i+1)
		}
	}
	return s, nil
}

// symbolSource loads a current symbol and its file, and the symbol's byte
// range in the file as it is now. A range that no longer fits the file is
// an ErrStale error; one that fits only in part is clamped, with a warning.
func (x *Index) symbolSource(ctx context.Context, id string) (*symbolRow, *source, uint32, uint32, []string, error) {
	if strings.TrimSpace(id) == "" {
		return nil, nil, 0, 0, nil, invalidf("symbolId", "must be a symbol id (find one with sdl.symbol.search)")
	}
	rows, err := x.symbols(ctx, []string{id})
	if err != nil {
		return nil, nil, 0, 0, nil, err
	}
	row := rows[id]
	if row == nil {
		return nil, nil, 0, 0, nil, fmt.Errorf("%w: no current symbol has id %q (ids change when a symbol moves to another file; try sdl.symbol.search)", ErrNotFound, id)
	}
	src, err := x.readSource("symbolId", row.Path)
	if err != nil {
		return nil, nil, 0, 0, nil, err
	}
	var warnings []string
	n := src.lines()
	if row.Range.StartLine > n {
		src.close()
		return nil, nil, 0, 0, nil, fmt.Errorf("%w: symbol %s starts at line %d of %s, which now has %d lines: the file changed since indexing (run sdl index)",
			ErrStale, row.Qualified, row.Range.StartLine, row.Path, n)
	}
	if row.Range.EndLine > n {
		warnings = append(warnings, fmt.Sprintf("symbol %s ends at line %d but %s now has %d lines: the file changed since indexing (run sdl index); the range is cut to the file",
			row.Qualified, row.Range.EndLine, row.Path, n))
	}
	a := src.offset(row.Range.StartLine, row.Range.StartCol)
	b := src.offset(row.Range.EndLine, row.Range.EndCol)
	if row.Range.EndLine > n || b <= a {
		b = uint32(len(src.src))
	}
	return row, src, a, b, warnings, nil
}

// checkIdentifiers validates identifiersToFind.
func checkIdentifiers(field string, ids []string, required bool) error {
	if required && len(ids) == 0 {
		return invalidf(field, "name 1 to %d identifiers to find", maxIdentifiers)
	}
	if len(ids) > maxIdentifiers {
		return invalidf(field, "at most %d identifiers, got %d", maxIdentifiers, len(ids))
	}
	for i, id := range ids {
		if strings.TrimSpace(id) == "" || strings.ContainsAny(id, "\n\r\x00") || len(id) > 200 {
			return invalidf(fmt.Sprintf("%s[%d]", field, i), "%q is not an identifier; give a name as written in the code", id)
		}
	}
	return nil
}

// budget validates a token budget: 0 means def, and no answer exceeds
// MaxResponseTokens.
func budget(field string, n, def int) (int, error) {
	switch {
	case n < 0:
		return 0, invalidf(field, "must be positive, got %d", n)
	case n == 0:
		return def, nil
	}
	return min(n, MaxResponseTokens), nil
}

// fitLines returns the longest prefix of lines that fits both maxLines (0:
// no limit) and maxTokens real tokens, joined, and how many lines it holds.
func fitLines(lines []string, maxLines, maxTokens int) (string, int) {
	k, est := 0, 0
	for k < len(lines) && (maxLines <= 0 || k < maxLines) {
		c := Tokens(lines[k] + "\n")
		if est+c > maxTokens {
			break
		}
		est += c
		k++
	}
	text := strings.Join(lines[:k], "\n")
	// the per-line counts are an estimate; the answer's real count is the
	// promise
	for k > 0 && Tokens(text) > maxTokens {
		k--
		text = strings.Join(lines[:k], "\n")
	}
	return text, k
}

// cutLine shortens a line longer than maxLineBytes, on a rune boundary.
func cutLine(s string) string {
	if len(s) <= maxLineBytes {
		return s
	}
	cut := maxLineBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf(" …[%d more bytes]", len(s)-cut)
}

// SkeletonRequest asks for a skeleton (sdl.code.getSkeleton).
type SkeletonRequest struct {
	SymbolID          string   `json:"symbolId,omitempty"`
	File              string   `json:"file,omitempty"`
	ExportedOnly      bool     `json:"exportedOnly,omitempty"`
	MaxLines          int      `json:"maxLines,omitempty"`
	MaxTokens         int      `json:"maxTokens,omitempty"`
	IdentifiersToFind []string `json:"identifiersToFind,omitempty"`
	SkeletonOffset    int      `json:"skeletonOffset,omitempty"`
}

// SkeletonResponse is one page of a skeleton.
type SkeletonResponse struct {
	Skeleton string `json:"skeleton"`
	File     string `json:"file"`
	SymbolID string `json:"symbolId,omitempty"`
	Language string `json:"language"`
	Range    Range  `json:"range"`
	// EstimatedTokens is the real token count of skeleton.
	EstimatedTokens int `json:"estimatedTokens"`
	// OriginalLines is the line count of the file or symbol.
	OriginalLines int `json:"originalLines"`
	// TotalLines is the line count of the whole skeleton, of which this
	// page holds lines [SkeletonOffset, SkeletonOffset+Lines).
	TotalLines     int                 `json:"totalLines"`
	SkeletonOffset int                 `json:"skeletonOffset"`
	Lines          int                 `json:"lines"`
	Truncated      bool                `json:"truncated"`
	Truncation     *SkeletonTruncation `json:"truncation,omitempty"`
	// MatchedIdentifiers are the requested identifiers found on this page;
	// MatchedLines the source line numbers of the page's lines that hold
	// them (each also marked "<- name" at its end).
	MatchedIdentifiers []string `json:"matchedIdentifiers,omitempty"`
	MatchedLines       []int    `json:"matchedLines,omitempty"`
	Warnings           []string `json:"warnings,omitempty"`
	LedgerVersion      string   `json:"ledgerVersion"`
	StaleFiles         []string `json:"staleFiles,omitempty"`
	// SourceLines are the source line numbers of the page's lines (0 for
	// a blank separator), for terminal output; agents get the text alone.
	SourceLines []int `json:"-"`
}

// SkeletonTruncation says where the next page starts.
type SkeletonTruncation struct {
	ResumeOffset   int    `json:"resumeOffset"`
	RemainingLines int    `json:"remainingLines"`
	Reason         string `json:"reason"` // maxLines or maxTokens
	Hint           string `json:"hint"`
}

// Skeleton renders the skeleton of a symbol or a file, one page within the
// budgets; skeletonOffset resumes where a truncated page stopped.
func (x *Index) Skeleton(ctx context.Context, req SkeletonRequest) (*SkeletonResponse, error) {
	if (req.SymbolID == "") == (req.File == "") {
		return nil, invalidf("symbolId/file", "provide exactly one: a symbolId, or a file path relative to the repository root")
	}
	if req.MaxLines < 0 {
		return nil, invalidf("maxLines", "must be positive, got %d", req.MaxLines)
	}
	if req.SkeletonOffset < 0 {
		return nil, invalidf("skeletonOffset", "must be 0 or more, got %d", req.SkeletonOffset)
	}
	maxTokens, err := budget("maxTokens", req.MaxTokens, DefaultSkeletonTokens)
	if err != nil {
		return nil, err
	}
	if err := checkIdentifiers("identifiersToFind", req.IdentifiersToFind, false); err != nil {
		return nil, err
	}
	ver, err := x.Current(ctx)
	if err != nil {
		return nil, err
	}
	resp := &SkeletonResponse{LedgerVersion: ver.ID, SkeletonOffset: req.SkeletonOffset}
	var src *source
	var a, b uint32
	if req.SymbolID != "" {
		var row *symbolRow
		row, src, a, b, resp.Warnings, err = x.symbolSource(ctx, req.SymbolID)
		if err != nil {
			return nil, err
		}
		resp.SymbolID, resp.Range = row.ID, row.Range
		resp.OriginalLines = min(row.Range.EndLine, src.lines()) - row.Range.StartLine + 1
	} else {
		rel, err := cleanRepoPath("file", req.File)
		if err != nil {
			return nil, err
		}
		if src, err = x.readSource("file", rel); err != nil {
			return nil, err
		}
		a, b = 0, uint32(len(src.src))
		n := src.lines()
		resp.OriginalLines = n
		resp.Range = Range{StartLine: 1, EndLine: n, EndCol: len(src.line(n))}
	}
	defer src.close()
	resp.File, resp.Language = src.path, src.lang.Name
	resp.StaleFiles = x.staleFiles(ctx, []string{src.path})
	if len(resp.StaleFiles) > 0 {
		resp.Warnings = append(resp.Warnings, src.path+" changed on disk since "+ver.ID+": the skeleton is of the file as it is now (run sdl index)")
	}
	all := lang.Skeleton(src.tree, a, b, lang.SkeletonOptions{ExportedOnly: req.ExportedOnly})
	resp.TotalLines = len(all)
	if req.SkeletonOffset > len(all) {
		return nil, invalidf("skeletonOffset", "%d is past the end of the skeleton (%d lines)", req.SkeletonOffset, len(all))
	}
	page := all[req.SkeletonOffset:]
	texts := make([]string, len(page))
	found := map[string]bool{}
	comment := lang.CommentPrefix(src.lang)
	for i, l := range page {
		texts[i] = cutLine(l.Text)
		var hits []string
		for _, id := range req.IdentifiersToFind {
			if lang.WordAt(l.Text, id) {
				hits = append(hits, id)
			}
		}
		if len(hits) > 0 {
			texts[i] += "  " + comment + " <- " + strings.Join(hits, ", ")
		}
	}
	text, k := fitLines(texts, req.MaxLines, maxTokens)
	if k == 0 && len(texts) > 0 {
		return nil, invalidf("maxTokens", "%d tokens cannot hold the next line of the skeleton (%d tokens); send more", maxTokens, Tokens(texts[0]))
	}
	resp.Skeleton, resp.Lines = text, k
	resp.EstimatedTokens = Tokens(text)
	for _, l := range page[:k] {
		resp.SourceLines = append(resp.SourceLines, l.Line)
		hit := false
		for _, id := range req.IdentifiersToFind {
			if lang.WordAt(l.Text, id) {
				found[id], hit = true, true
			}
		}
		if hit {
			resp.MatchedLines = append(resp.MatchedLines, l.Line)
		}
	}
	for _, id := range req.IdentifiersToFind {
		if found[id] {
			resp.MatchedIdentifiers = append(resp.MatchedIdentifiers, id)
		}
	}
	if k < len(page) {
		reason := "maxTokens"
		if req.MaxLines > 0 && k == req.MaxLines {
			reason = "maxLines"
		}
		resp.Truncated = true
		resp.Truncation = &SkeletonTruncation{ResumeOffset: req.SkeletonOffset + k, RemainingLines: len(page) - k, Reason: reason,
			Hint: fmt.Sprintf("ask again with skeletonOffset %d for the next %d lines", req.SkeletonOffset+k, len(page)-k)}
	}
	sort.Ints(resp.MatchedLines)
	return resp, nil
}

// readDisk reads a repository file, refusing links that lead out of the
// repository and files too large to parse for an answer.
func (x *Index) readDisk(field, rel string) ([]byte, error) {
	full := filepath.Join(x.Root, filepath.FromSlash(rel))
	// a symbolic link must not lead out of the repository
	if root, err := filepath.EvalSymlinks(x.Root); err == nil {
		if real, err := filepath.EvalSymlinks(full); err == nil {
			if r, err := filepath.Rel(root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				return nil, invalidf(field, "%q leads outside the repository (a symbolic link)", rel)
			}
		}
	}
	f, err := os.Open(full)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s: no such file in the repository at %s (if it was removed, run sdl index)", ErrNotFound, rel, x.Root)
		}
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, invalidf(field, "%q is a directory; give a file", rel)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSourceBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return data, nil
}
