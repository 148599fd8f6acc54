package index

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/sdl-dev/sdl/lang"
)

// ErrSCIP means a SCIP file could not be read or parsed.
var ErrSCIP = errors.New("cannot import SCIP index")

// KindExternal is the kind of the leaf symbols that stand for what a SCIP
// index references outside the tree. Their path is "scip:" and the package.
const KindExternal = "external"

// SCIPSummary counts what importing SCIP indexes did.
type SCIPSummary struct {
	Documents   int `json:"documents"`
	Skipped     int `json:"skippedDocuments"` // documents of files the index does not hold
	Definitions int `json:"definitions"`      // definitions matched to sdl symbols
	Upgraded    int `json:"upgraded"`         // heuristic edges made precise
	Added       int `json:"added"`            // edges the heuristics did not have
	External    int `json:"externalSymbols"`  // leaf symbols created
}

// scipRef is a reference occurrence of a global SCIP symbol.
type scipRef struct {
	line, col, endCol int // line 1-based, columns 0-based, on the line of the start
	symbol            string
}

// sdlSym is a current symbol of a file, for locating occurrences.
type sdlSym struct {
	id, kind, name     string
	startLine, endLine int
}

// readSCIP streams one SCIP file: the definitions of global symbols and the
// references of each document that the index holds.
func readSCIP(ctx context.Context, src fileTree, file string, known func(string) bool, sum *SCIPSummary,
	defs map[string][2]any, refs map[string][]scipRef, display, locals map[string]string) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSCIP, err)
	}
	defer f.Close()
	if err := checkSCIPFrame(f); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrSCIP, file, err)
	}
	v := scipVisitor{
		document: func(d *scipDocument) error {
			p := path.Clean(filepath.ToSlash(d.RelativePath))
			if !known(p) {
				sum.Skipped++
				return nil
			}
			sum.Documents++
			lines := fileLines(src, p)
			enc := d.PositionEncoding
			for _, si := range d.Symbols {
				if si.DisplayName != "" {
					display[si.Symbol] = si.DisplayName
				}
			}
			for _, o := range d.Occurrences {
				if o.Symbol == "" || len(o.Range) < 3 {
					continue
				}
				symbol := o.Symbol
				if isSCIPLocal(symbol) {
					// locals (nested functions) are per document, named by
					// their text
					symbol = p + "#" + symbol
					if l := int(o.Range[0]); locals[symbol] == "" && len(o.Range) == 3 && l < len(lines) {
						a, b := SCIPByteCol(lines[l], int(o.Range[1]), enc), SCIPByteCol(lines[l], int(o.Range[2]), enc)
						if a < b {
							locals[symbol] = lines[l][a:b]
						}
					}
				}
				line, col := int(o.Range[0])+1, int(o.Range[1])
				end := int(o.Range[2])
				if len(o.Range) == 4 {
					end = int(o.Range[3])
					if o.Range[2] != o.Range[0] {
						end = col
					}
				}
				if line-1 < len(lines) {
					col, end = SCIPByteCol(lines[line-1], col, enc), SCIPByteCol(lines[line-1], end, enc)
				}
				if o.SymbolRoles&scipRoleDefinition != 0 {
					defs[symbol] = [2]any{p, line}
					continue
				}
				refs[p] = append(refs[p], scipRef{line: line, col: col, endCol: end, symbol: symbol})
			}
			return nil
		},
		externalSymbol: func(si *scipSymbolInfo) error {
			if si.DisplayName != "" {
				display[si.Symbol] = si.DisplayName
			}
			return nil
		},
	}
	if err := decodeSCIP(ctx, bufio.NewReaderSize(f, 1<<20), v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrSCIP, file, err)
	}
	return nil
}

// innermostKind finds the smallest symbol called name around line.
func innermostKind(syms []sdlSym, line int, name string) (string, string) {
	best, kind, bestSpan := "", "", 1<<30
	for _, s := range syms {
		if s.kind == lang.KindModule || line < s.startLine || line > s.endLine || s.name != name {
			continue
		}
		if span := s.endLine - s.startLine; span < bestSpan {
			best, kind, bestSpan = s.id, s.kind, span
		}
	}
	return best, kind
}

// scipName is the name a SCIP symbol's last descriptor gives, and whether
// it names a method or function (call) or a type (new).
func scipName(symbol string) (name string, suffix scipSuffix, pkg string) {
	s, err := parseSCIPSymbol(symbol)
	if err != nil || len(s.Descriptors) == 0 {
		return "", scipSuffixUnspecified, ""
	}
	d := s.Descriptors[len(s.Descriptors)-1]
	if s.Package != nil {
		pkg = s.Package.Name
	}
	return d.Name, d.Suffix, pkg
}

// importSCIP reads the SCIP files of the options and writes what they
// prove: definitions are matched to sdl symbols by file, name and line;
// a reference followed by "(" to a method or function is a call, to a
// type a new; it upgrades the heuristic edge of the same source, kind,
// name and line (or the only one of that source, kind and name), else it
// is added. Other references to symbols of the tree become ref edges.
// References to symbols no document defines point at external leaf
// symbols.
func (b *build) importSCIP(ctx context.Context, tx *sql.Tx, w *writer, g *graph) error {
	sum := &SCIPSummary{}
	b.sum.SCIP = sum
	known := func(p string) bool { _, ok := b.tree[p]; return ok }
	defs := map[string][2]any{}
	refs := map[string][]scipRef{}
	display := map[string]string{}
	locals := map[string]string{} // local symbol -> its name
	nameOf := func(symbol string) (string, scipSuffix, string) {
		if n, ok := locals[symbol]; ok {
			return n, scipSuffixTerm, ""
		}
		if strings.Contains(symbol, "#local ") {
			return "", scipSuffixUnspecified, ""
		}
		return scipName(symbol)
	}
	for _, file := range b.opts.SCIP {
		if err := readSCIP(ctx, b.src, file, known, sum, defs, refs, display, locals); err != nil {
			return err
		}
	}
	// the symbols of every file a definition or reference is in
	files := map[string][]sdlSym{}
	load := func(p string) ([]sdlSym, error) {
		if s, ok := files[p]; ok {
			return s, nil
		}
		rows, err := tx.QueryContext(ctx, `SELECT s.id, s.kind, s.name, s.start_line, s.end_line FROM symbols s
			WHERE s.path_id = ? AND s.to_seq IS NULL ORDER BY s.start_line, s.id`, w.paths[p])
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []sdlSym
		for rows.Next() {
			var s sdlSym
			if err := rows.Scan(&s.id, &s.kind, &s.name, &s.startLine, &s.endLine); err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		files[p] = out
		return out, rows.Err()
	}
	// innermost finds the smallest symbol around line, named name when
	// name is set; modules only when nothing else encloses the line.
	innermost := func(syms []sdlSym, line int, name string) string {
		best, bestSpan, module := "", 1<<30, ""
		for _, s := range syms {
			if s.kind == lang.KindModule {
				module = s.id
				continue
			}
			if line < s.startLine || line > s.endLine || (name != "" && s.name != name) {
				continue
			}
			if span := s.endLine - s.startLine; span < bestSpan {
				best, bestSpan = s.id, span
			}
		}
		if best == "" && name == "" {
			return module
		}
		return best
	}
	target := map[string]string{}
	targetKind := map[string]string{}
	symbols := make([]string, 0, len(defs))
	for s := range defs {
		symbols = append(symbols, s)
	}
	sort.Strings(symbols)
	for _, s := range symbols {
		p, line := defs[s][0].(string), defs[s][1].(int)
		syms, err := load(p)
		if err != nil {
			return err
		}
		name, _, _ := nameOf(s)
		if name == "" {
			continue
		}
		if id, kind := innermostKind(syms, line, name); id != "" {
			target[s] = id
			targetKind[s] = kind
			sum.Definitions++
		}
	}
	// the heuristic edges of the files with references, by source
	type edgeRef struct {
		rowid int64
		e     edgeRow
	}
	edgesOf := func(pid int64) (map[[3]string][]*edgeRef, error) {
		rows, err := tx.QueryContext(ctx, `SELECT rowid, src, COALESCE(dst, ''), kind, name, qual, qual_type, qual_call,
			confidence, rule, candidates, count, line FROM edges WHERE path_id = ? AND to_seq IS NULL ORDER BY rowid`, pid)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := map[[3]string][]*edgeRef{}
		for rows.Next() {
			var r edgeRef
			e := &r.e
			if err := rows.Scan(&r.rowid, &e.src, &e.dst, &e.kind, &e.name, &e.qual, &e.qualType, &e.qualCall,
				&e.confidence, &e.rule, &e.candidates, &e.count, &e.line); err != nil {
				return nil, err
			}
			k := [3]string{e.src, e.kind, e.name}
			out[k] = append(out[k], &r)
		}
		return out, rows.Err()
	}
	external := map[string]string{}
	leaf := func(symbol, name, pkg string) (string, error) {
		if id, ok := external[symbol]; ok {
			return id, nil
		}
		if pkg == "" {
			pkg = "unknown"
		}
		p := "scip:" + pkg
		pid, err := w.pathID(ctx, p)
		if err != nil {
			return "", err
		}
		id := SymbolID(p, KindExternal, symbol, 0)
		h := sha256.Sum256([]byte(symbol))
		qual := display[symbol]
		if qual == "" {
			qual = name
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO symbols(id, path_id, kind, name, qualified, start_line, start_col,
			end_line, end_col, exported, visibility, fingerprint, digest, from_seq) VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, 1, ?, ?, ?, ?)`,
			id, pid, KindExternal, name, qual, lang.VisPublic, hex.EncodeToString(h[:8]), hex.EncodeToString(h[:12]), w.seq); err != nil {
			return "", err
		}
		w.symbolDelta++
		g.addSymbol(id, p, name, KindExternal, false)
		external[symbol] = id
		sum.External++
		return id, nil
	}
	paths := make([]string, 0, len(refs))
	for p := range refs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		syms, err := load(p)
		if err != nil {
			return err
		}
		pid := w.paths[p]
		existing, err := edgesOf(pid)
		if err != nil {
			return err
		}
		lines := fileLines(b.src, p)
		added := map[string]bool{}
		imported := map[string]bool{} // targets of the file's import edges
		for _, es := range existing {
			for _, e := range es {
				if e.e.kind == KindImport && e.e.dst != "" {
					imported[e.e.dst] = true
				}
			}
		}
		for _, r := range refs[p] {
			symbol := r.symbol
			name, suffix, pkg := nameOf(symbol)
			if suffix == scipSuffixMethod && (name == "<constructor>" || name == "__init__") {
				// a constructor stands for its class
				if i := strings.LastIndex(strings.TrimSuffix(symbol, "."), "#"); i > 0 {
					symbol = symbol[:i+1]
					name, suffix, pkg = nameOf(symbol)
				}
			}
			if name == "" {
				continue
			}
			kind := lang.RefReference
			if r.line-1 < len(lines) && (followedByCall(lines, r.line-1, r.endCol) || decorates(lines[r.line-1], r.col)) {
				switch tk := targetKind[symbol]; {
				case suffix == scipSuffixMethod:
					kind = lang.RefCall
				case suffix == scipSuffixType:
					kind = lang.RefNew
				case tk == lang.KindFunction || tk == lang.KindMethod:
					// a term holding a function (const f = () => ...) or a
					// nested function (a local)
					kind = lang.RefCall
				}
			}
			dst, inTree := target[symbol]
			if !inTree {
				if _, defined := defs[symbol]; defined || kind == lang.RefReference {
					continue // a definition sdl has no symbol for, or a mere mention of something outside
				}
				if dst, err = leaf(symbol, name, pkg); err != nil {
					return err
				}
			}
			src := innermost(syms, r.line, "")
			if src == "" || src == dst || (kind == lang.RefReference && imported[dst] && src == moduleOf(syms)) {
				continue
			}
			res := lang.Resolution{Rule: lang.RuleSCIP, Confidence: lang.RuleConfidence(lang.RuleSCIP)}
			// upgrade the heuristic edge this reference is: same source,
			// kind and name, on the same line with the qualifier written
			// before the name, else on the same line, else the only one
			var before string
			if r.line-1 < len(lines) && r.col <= len(lines[r.line-1]) {
				before = strings.TrimRight(strings.TrimRight(lines[r.line-1][:r.col], " \t"), ".?!")
			}
			kinds := map[string][]string{
				lang.RefCall:      {lang.RefCall},
				lang.RefNew:       {lang.RefNew, lang.RefCall},
				lang.RefReference: {lang.RefImplements, lang.RefExtends, lang.RefNew},
			}[kind]
			var match *edgeRef
			score := 0
			for _, k := range kinds {
				cands := existing[[3]string{src, k, name}]
				for _, c := range cands {
					sc := 0
					switch {
					case c.e.line == r.line && c.e.rule != lang.RuleSCIP && (c.e.qual == "" || strings.HasSuffix(before, c.e.qual)):
						sc = 4
					case c.e.line == r.line && c.e.rule != lang.RuleSCIP:
						sc = 3
					case len(cands) == 1 && c.e.rule != lang.RuleSCIP && kind != lang.RefReference:
						sc = 2
					case c.e.rule == lang.RuleSCIP && c.e.dst == dst && (c.e.line == r.line || len(cands) == 1):
						sc = 1 // already proven
					}
					if sc > score {
						match, score = c, sc
					}
				}
			}
			if match != nil && match.e.rule == lang.RuleSCIP {
				continue
			}
			if match != nil {
				ne := match.e
				ne.dst, ne.rule, ne.confidence, ne.candidates = dst, res.Rule, res.Confidence, 0
				ne.setDigest()
				if _, err := tx.ExecContext(ctx, `UPDATE edges SET dst = ?, rule = ?, confidence = ?, candidates = 0, digest = ?
					WHERE rowid = ?`, dst, ne.rule, ne.confidence, ne.digest, match.rowid); err != nil {
					return err
				}
				match.e = ne
				g.add(&ne)
				sum.Upgraded++
				continue
			}
			k := src + "\x00" + kind + "\x00" + dst
			if added[k] {
				continue
			}
			added[k] = true
			e := edgeRow{src: src, dst: dst, kind: kind, name: name, rule: res.Rule, confidence: res.Confidence,
				count: 1, line: r.line}
			e.setDigest()
			if err := w.insertEdge(ctx, pid, &e); err != nil {
				return err
			}
			g.add(&e)
			sum.Added++
		}
	}
	return nil
}

// moduleOf is the id of a file's module symbol.
func moduleOf(syms []sdlSym) string {
	for _, s := range syms {
		if s.kind == lang.KindModule {
			return s.id
		}
	}
	return ""
}

// checkSCIPFrame walks the top-level fields of a SCIP file and checks that
// each length fits in the file, so that a corrupt length cannot make the
// streaming parser allocate what the file does not hold. It rewinds f.
func checkSCIPFrame(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	r := bufio.NewReaderSize(f, 1<<16)
	var off int64
	varint := func() (uint64, error) {
		var v uint64
		for shift := uint(0); shift < 64; shift += 7 {
			b, err := r.ReadByte()
			if err != nil {
				return 0, err
			}
			off++
			v |= uint64(b&0x7f) << shift
			if b < 0x80 {
				return v, nil
			}
		}
		return 0, errors.New("bad varint")
	}
	for off < size {
		tag, err := varint()
		if err != nil {
			return fmt.Errorf("offset %d: %w", off, err)
		}
		var skip int64
		switch protowire.Type(tag & 7) {
		case protowire.VarintType:
			if _, err := varint(); err != nil {
				return fmt.Errorf("offset %d: %w", off, err)
			}
		case protowire.Fixed64Type:
			skip = 8
		case protowire.Fixed32Type:
			skip = 4
		case protowire.BytesType:
			n, err := varint()
			if err != nil {
				return fmt.Errorf("offset %d: %w", off, err)
			}
			if n > uint64(size-off) {
				return fmt.Errorf("offset %d: a field of %d bytes in %d remaining", off, n, size-off)
			}
			skip = int64(n)
		default:
			return fmt.Errorf("offset %d: not a SCIP index (wire type %d)", off, tag&7)
		}
		if skip > size-off {
			return fmt.Errorf("offset %d: truncated", off)
		}
		if _, err := r.Discard(int(skip)); err != nil {
			return fmt.Errorf("offset %d: %w", off, err)
		}
		off += skip
	}
	_, err = f.Seek(0, io.SeekStart)
	return err
}

// SCIPByteCol converts a SCIP offset on line s to a byte offset. Offsets
// are UTF-16 code units unless the document says otherwise:
// scip-typescript and scip-python count like JavaScript.
func SCIPByteCol(s string, col int, enc SCIPPositionEncoding) int {
	if enc == SCIPEncodingUTF8 {
		return min(col, len(s))
	}
	n := 0
	for i, r := range s {
		if n >= col {
			return i
		}
		if enc == SCIPEncodingUTF32 {
			n++
		} else {
			n += utf16.RuneLen(r)
		}
	}
	return len(s)
}

// decorates reports whether the name at col of line is applied as a
// decorator (@name, @mod.name): a call with the decorated function.
func decorates(line string, col int) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "@") && col <= len(line) && !strings.Contains(line[:col], "(")
}

// fileLines reads a file's lines from the indexed tree, or nil.
func fileLines(src fileTree, p string) []string {
	data, err := src.ReadFile(p)
	if err != nil {
		return nil
	}
	return strings.Split(string(data), "\n")
}

// followedByCall reports whether the text after column col of line i
// opens an argument list, possibly after type arguments.
func followedByCall(lines []string, i, col int) bool {
	s := lines[i]
	if col > len(s) {
		return false
	}
	s = strings.TrimLeft(s[col:], " \t")
	if strings.HasPrefix(s, "<") { // f<T>(...)
		depth := 0
		for j, c := range s {
			switch c {
			case '<':
				depth++
			case '>':
				depth--
				if depth == 0 {
					s = strings.TrimLeft(s[j+1:], " \t")
					return strings.HasPrefix(s, "(")
				}
			}
		}
		return false
	}
	if strings.HasPrefix(s, "?.(") || strings.HasPrefix(s, "!(") {
		return true
	}
	return strings.HasPrefix(s, "(")
}

// scipHashes identifies the SCIP files of a run by content, so that
// another SCIP file (or none) rebuilds the index.
func scipHashes(files []string) []string {
	var out []string
	for _, f := range files {
		h := sha256.New()
		if fh, err := os.Open(f); err == nil {
			_, _ = io.Copy(h, fh)
			fh.Close()
		}
		out = append(out, hex.EncodeToString(h.Sum(nil)[:8]))
	}
	return out
}
