package query

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// summaryBuild gathers the candidates of every section, best first.
type summaryBuild struct {
	x      *Index
	scope  string
	query  string
	maxKey int
	rows   map[string]*symbolRow
	notes  []string
	key    []string          // key symbol ids, best first
	role   map[string]string // id -> role among the key symbols
}

// summaryDoc is every candidate of a summary; fitting keeps a prefix of
// each section.
type summaryDoc struct {
	scope, query string
	notes        []string
	keySymbols   []KeySymbol
	deps         []DependencyEdge
	risks        []RiskArea
	files        []FileTouched
	keyFiles     []string
}

func (b *summaryBuild) build(ctx context.Context) (*summaryDoc, error) {
	b.role = map[string]string{}
	var err error
	switch b.scope {
	case ScopeSymbol:
		err = b.symbolScope(ctx)
	case ScopeFile:
		err = b.fileScope(ctx)
	default:
		err = b.taskScope(ctx)
	}
	if err != nil {
		return nil, err
	}
	if len(b.key) > b.maxKey {
		b.key = b.key[:b.maxKey]
	}
	doc := &summaryDoc{scope: b.scope, query: b.query, notes: b.notes}
	if len(b.key) == 0 {
		doc.notes = append(doc.notes, "nothing in the index matches this query; try sdl.symbol.search with other words")
		return doc, nil
	}
	if err := b.load(ctx, b.key); err != nil {
		return nil, err
	}
	for _, id := range b.key {
		r := b.rows[id]
		doc.keySymbols = append(doc.keySymbols, KeySymbol{SymbolID: id, Name: r.Qualified, Kind: r.Kind, File: r.Path,
			Line: r.Range.StartLine, Signature: oneLine(signatureText(r.Signature), 160), Summary: oneLine(r.Summary, 160),
			Role: b.role[id]})
	}
	deps, neighbours, err := b.dependencies(ctx)
	if err != nil {
		return nil, err
	}
	doc.deps = deps
	if doc.risks, err = b.risks(ctx, neighbours); err != nil {
		return nil, err
	}
	if doc.files, err = b.files(ctx); err != nil {
		return nil, err
	}
	for _, f := range doc.files {
		doc.keyFiles = append(doc.keyFiles, f.Path)
	}
	return doc, nil
}

// load reads the symbols of ids not loaded yet.
func (b *summaryBuild) load(ctx context.Context, ids []string) error {
	var need []string
	for _, id := range ids {
		if _, ok := b.rows[id]; !ok {
			need = append(need, id)
		}
	}
	if len(need) == 0 {
		return nil
	}
	rows, err := b.x.symbols(ctx, need)
	if err != nil {
		return err
	}
	for id, r := range rows {
		b.rows[id] = r
	}
	// ids that vanished (a newer version) are dropped from the key list
	keep := b.key[:0]
	for _, id := range b.key {
		if b.rows[id] != nil {
			keep = append(keep, id)
		}
	}
	b.key = keep
	return nil
}

func (b *summaryBuild) addKey(id, role string) {
	if _, ok := b.role[id]; ok || len(b.key) >= b.maxKey {
		return
	}
	b.role[id] = role
	b.key = append(b.key, id)
}

// symbolScope: the symbol the query names, then its closest neighbours.
func (b *summaryBuild) symbolScope(ctx context.Context) error {
	primaries, matches, err := b.resolveSymbols(ctx)
	if err != nil {
		return err
	}
	if len(primaries) == 0 {
		return nil
	}
	role := "target"
	if len(primaries) > 1 {
		role = "candidate"
	}
	var ids []string
	for _, r := range primaries {
		b.rows[r.ID] = r
		b.addKey(r.ID, role)
		ids = append(ids, r.ID)
	}
	// a query that named no symbol exactly may mean the next matches
	for _, id := range matches {
		b.addKey(id, "match")
	}
	return b.neighbours(ctx, ids)
}

// resolveSymbols finds the symbols a symbol query names: by reference
// (Store.Add), else by search, when it also returns the next few matches.
// Several candidates of a reference are all kept.
func (b *summaryBuild) resolveSymbols(ctx context.Context) (primaries []*symbolRow, matches []string, err error) {
	x := b.x
	for _, name := range symbolNames(b.query) {
		r, err := x.Resolve(ctx, SymbolRef{Name: name})
		var amb *AmbiguousError
		switch {
		case err == nil:
			return []*symbolRow{r}, nil, nil
		case errors.As(err, &amb):
			ids := make([]string, 0, len(amb.Candidates))
			for _, c := range amb.Candidates {
				ids = append(ids, c.SymbolID)
			}
			rows, err := x.symbols(ctx, ids)
			if err != nil {
				return nil, nil, err
			}
			ms, _, err := x.metrics(ctx, rowsOf(rows, ids))
			if err != nil {
				return nil, nil, err
			}
			// the most used reading first
			sort.SliceStable(ids, func(i, j int) bool { return fanInOf(ms, ids[i]) > fanInOf(ms, ids[j]) })
			out := rowsOf(rows, ids)
			if len(out) > 4 {
				out = out[:4]
			}
			b.notes = append(b.notes, fmt.Sprintf("%d symbols are named %s; showing the %d most used", len(amb.Candidates), name, len(out)))
			return out, nil, nil
		case errors.Is(err, ErrNotFound), errors.Is(err, ErrInvalid):
		default:
			return nil, nil, err
		}
	}
	ids, err := b.searchIDs(ctx, b.query, 4)
	if err != nil || len(ids) == 0 {
		return nil, nil, err
	}
	rows, err := x.symbols(ctx, ids[:1])
	if err != nil {
		return nil, nil, err
	}
	b.notes = append(b.notes, "no symbol has exactly this name; starting from the best search match")
	return rowsOf(rows, ids[:1]), ids[1:], nil
}

// symbolNames turns a symbol query into the references to try: as
// written, then with Go receivers, :: and # read as dots.
func symbolNames(q string) []string {
	n := strings.Trim(strings.TrimSpace(q), "`'\"")
	if i := strings.IndexByte(n, '('); i > 0 && strings.HasSuffix(n, ")") {
		n = n[:i] // Store.Add(item) -> Store.Add
	}
	out := []string{n}
	alt := n
	if strings.HasPrefix(alt, "(") {
		alt = strings.NewReplacer("(", "", ")", "", "*", "").Replace(alt)
	}
	alt = strings.NewReplacer("::", ".", "#", ".", "->", ".").Replace(alt)
	if alt != n && alt != "" {
		out = append(out, alt)
	}
	return out
}

// searchIDs returns the ids of the best search matches.
func (b *summaryBuild) searchIDs(ctx context.Context, text string, limit int) ([]string, error) {
	resp, err := b.x.Search(ctx, SearchRequest{Query: text, Limit: limit})
	if errors.Is(err, ErrInvalid) {
		return nil, nil // text the search cannot take matches nothing
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range resp.Results {
		ids = append(ids, r.SymbolID)
	}
	return ids, nil
}

func rowsOf(m map[string]*symbolRow, ids []string) []*symbolRow {
	var out []*symbolRow
	for _, id := range ids {
		if r := m[id]; r != nil {
			out = append(out, r)
		}
	}
	return out
}

// neighbourCaps bound each kind of neighbour, so that a symbol with a
// hundred callers still shows its callees, members and type.
var neighbourCaps = map[string]int{"callee": 8, "caller": 6, "member": 10, "container": 1, "supertype": 3, "subtype": 3}

// maxTestNeighbours bounds the tests among the neighbours: they show how a
// symbol is used, but a few say it.
const maxTestNeighbours = 2

// neighbours adds the closest neighbours of the primaries: callees and
// callers by edge weight and confidence, the members of a type, the type
// of a member. Tests come after code; ties go to the most used.
func (b *summaryBuild) neighbours(ctx context.Context, primaries []string) error {
	x := b.x
	isP := map[string]bool{}
	for _, id := range primaries {
		isP[id] = true
	}
	score := map[string]float64{}
	role := map[string]string{}
	best := map[string]float64{}
	add := func(id string, s float64, r string) {
		if isP[id] || id == "" {
			return
		}
		if s > best[id] {
			best[id], role[id] = s, r
		}
		score[id] += s
	}
	edges, err := x.edgesTouching(ctx, primaries, 0, 0)
	if err != nil {
		return err
	}
	for _, e := range edges {
		if e.kind == "import" {
			continue
		}
		w := edgeWeightOf(e)
		typeEdge := e.kind == lang.RefExtends || e.kind == lang.RefImplements
		switch {
		case isP[e.src] && !isP[e.dst]:
			r := "callee"
			if typeEdge {
				r = "supertype"
			}
			add(e.dst, w, r)
		case isP[e.dst] && !isP[e.src]:
			r := "caller"
			if typeEdge {
				r = "subtype"
			}
			add(e.src, 0.9*w, r)
		}
	}
	var prows []*symbolRow
	for _, id := range primaries {
		if r := b.rows[id]; r != nil {
			prows = append(prows, r)
		}
	}
	members, err := b.members(ctx, prows)
	if err != nil {
		return err
	}
	for _, id := range members {
		add(id, 0.8, "member")
	}
	for _, r := range prows {
		id, err := b.container(ctx, r)
		if err != nil {
			return err
		}
		add(id, 0.7, "container")
	}
	// a hot symbol has thousands of callers: rank them all on a brief
	// (kind, test, fan-in) and load only the ones shown
	briefs, err := x.briefs(ctx, sortedIDs(score))
	if err != nil {
		return err
	}
	for id := range score {
		br, ok := briefs[id]
		switch {
		case !ok || br.kind == lang.KindModule:
			delete(score, id)
		case br.isTest:
			score[id] *= 0.5
		}
	}
	ids := sortedIDs(score)
	sort.SliceStable(ids, func(i, j int) bool {
		a, c := ids[i], ids[j]
		if score[a] != score[c] {
			return score[a] > score[c]
		}
		return briefs[a].fanIn > briefs[c].fanIn
	})
	taken := map[string]int{}
	tests := 0
	var chosen []string
	for _, id := range ids {
		r := role[id]
		if taken[r] >= neighbourCaps[r] || (briefs[id].isTest && tests >= maxTestNeighbours) {
			continue
		}
		taken[r]++
		if briefs[id].isTest {
			tests++
		}
		chosen = append(chosen, id)
	}
	if err := b.load(ctx, chosen); err != nil {
		return err
	}
	for _, id := range chosen {
		if b.rows[id] != nil {
			b.addKey(id, role[id])
		}
	}
	return nil
}

// symbolBrief is what ranking a neighbour needs of it.
type symbolBrief struct {
	kind   string
	isTest bool
	fanIn  int
}

// briefs reads the kind, test flag and fan-in of current symbols.
func (x *Index) briefs(ctx context.Context, ids []string) (map[string]symbolBrief, error) {
	out := make(map[string]symbolBrief, len(ids))
	for chunk := range slices.Chunk(ids, schema.MaxInList) {
		args := schema.Args(chunk)
		rows, err := x.DB.QueryContext(ctx, `SELECT s.id, s.kind, s.is_test, COALESCE(m.fan_in, 0) FROM symbols s
			LEFT JOIN metrics m ON m.id = s.id WHERE s.to_seq IS NULL AND s.id IN (`+schema.Placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("symbol briefs: %w", err)
		}
		for rows.Next() {
			var id string
			var br symbolBrief
			var isTest int
			if err := rows.Scan(&id, &br.kind, &isTest, &br.fanIn); err != nil {
				rows.Close()
				return nil, err
			}
			br.isTest = isTest != 0
			out[id] = br
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// otherEnd is the end of e that is not id.
func otherEnd(e graphEdge, id string) string {
	if e.src == id {
		return e.dst
	}
	return e.src
}

func fanInOf(ms map[string]*Metrics, id string) int {
	if m := ms[id]; m != nil {
		return m.FanIn
	}
	return 0
}

func edgeWeightOf(e graphEdge) float64 {
	w := edgeWeight[e.kind]
	if w == 0 {
		w = 0.5
	}
	return w * e.conf
}

// typeKinds are the kinds that have members.
const typeKinds = `('class', 'interface', 'type')`

// members lists the members of the types among rows: the symbols they
// enclose, and, where methods are declared apart from their type (Go),
// the symbols of the same directory whose container is the type.
func (b *summaryBuild) members(ctx context.Context, rows []*symbolRow) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Kind != lang.KindClass && r.Kind != lang.KindInterface && r.Kind != lang.KindType {
			continue
		}
		dir := path.Dir(r.Path)
		rs, err := b.x.DB.QueryContext(ctx, `SELECT s.id FROM symbols s JOIN paths p ON p.id = s.path_id
			WHERE s.to_seq IS NULL AND s.kind != 'module' AND s.id != ?1
			AND (s.parent_id = ?1 OR (s.container = ?2 AND `+sameDir+`))
			ORDER BY s.start_line LIMIT 200`, r.ID, r.Name, dir)
		if err != nil {
			return nil, fmt.Errorf("members: %w", err)
		}
		for rs.Next() {
			var id string
			if err := rs.Scan(&id); err != nil {
				rs.Close()
				return nil, err
			}
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sameDir matches the files directly in directory ?3 ("." is the root).
const sameDir = `(CASE WHEN ?3 = '.' THEN instr(p.path, '/') = 0
	ELSE substr(p.path, 1, length(?3) + 1) = ?3 || '/' AND instr(substr(p.path, length(?3) + 2), '/') = 0 END)`

// container finds the type a member belongs to: its parent, or, where
// methods are declared apart from their type (Go), the type its container
// names in the same directory. "" when it has none.
func (b *summaryBuild) container(ctx context.Context, r *symbolRow) (string, error) {
	if r.Container == "" {
		return "", nil
	}
	if p := b.rows[r.ParentID]; p != nil && p.Kind != lang.KindModule {
		return p.ID, nil
	}
	var id string
	err := b.x.DB.QueryRowContext(ctx, `SELECT s.id FROM symbols s JOIN paths p ON p.id = s.path_id
		WHERE s.to_seq IS NULL AND s.kind IN `+typeKinds+` AND (s.id = ?1 OR (s.name = ?2 AND `+sameDir+`))
		ORDER BY s.id = ?1 DESC, p.path LIMIT 1`, r.ParentID, r.Container, path.Dir(r.Path)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("container of %s: %w", r.Qualified, err)
	}
	return id, nil
}

// fileScope: the main symbols of the files (or directory) the query
// names; other words of the query rank those symbols further.
func (b *summaryBuild) fileScope(ctx context.Context) error {
	var paths []string
	var rest []string
	for _, f := range strings.Fields(b.query) {
		if p := b.repoPath(fileToken(f)); p != "" && len(paths) < 3 {
			paths = append(paths, p)
		} else {
			rest = append(rest, f)
		}
	}
	if len(paths) == 0 {
		// a scope the caller forced: the whole query is the path
		if p := b.repoPath(b.query); p != "" {
			paths = append(paths, p)
		}
	}
	var cands []fileCand
	for _, p := range paths {
		// the file itself, else files ending so, else a directory
		for _, m := range []int{underExact, underSuffix, underDir} {
			cs, err := b.x.symbolsUnder(ctx, p, m)
			if err != nil {
				return err
			}
			if len(cs) > 0 {
				cands = append(cands, cs...)
				break
			}
		}
	}
	if len(cands) == 0 {
		// "HTTP/2" made it look like a path: a sentence is still a task
		if len(queryWords(b.query)) >= 3 {
			b.notes = append(b.notes, "no indexed file or directory matches; answered as a task")
			return b.taskScope(ctx)
		}
		b.notes = append(b.notes, "no indexed file or directory matches; showing the best search matches")
		ids, err := b.searchIDs(ctx, b.query, b.maxKey)
		for _, id := range ids {
			b.addKey(id, "match")
		}
		return err
	}
	// text evidence from the other words of the query
	text := map[string]float64{}
	if len(rest) > 0 {
		hits, _, err := b.x.retrieve(ctx, strings.Join(rest, " "), nil, 300, false)
		if err != nil {
			return err
		}
		if len(hits) > 0 && hits[0].score > 0 {
			for _, h := range hits {
				text[h.id] = h.score / hits[0].score
			}
		}
	}
	score := map[string]float64{}
	parents := map[string]bool{}
	for _, c := range cands {
		if c.row.Kind == lang.KindModule {
			parents[c.row.ID] = true
		}
	}
	for _, c := range cands {
		r := c.row
		if r.Kind == lang.KindModule {
			continue
		}
		b.rows[r.ID] = r
		// words besides the path say which symbols are meant: they outweigh use
		s := kindImportance[r.Kind] + math.Min(5, math.Log2(1+float64(c.fanIn))) + 8*text[r.ID]
		if r.Exported {
			s += 1.5
		}
		if r.ParentID == "" || parents[r.ParentID] {
			s++ // top level
		}
		if r.Doc != "" {
			s += 0.5
		}
		if r.IsTest {
			s *= 0.3
		}
		score[r.ID] = s
	}
	for _, id := range topIDs(score, b.maxKey) {
		b.addKey(id, "")
	}
	return nil
}

// kindImportance ranks symbols of a file: types and functions first.
var kindImportance = map[string]float64{
	lang.KindClass: 3, lang.KindInterface: 3, lang.KindType: 2.5, lang.KindFunction: 2.5,
	lang.KindConstructor: 2, lang.KindMethod: 2, lang.KindVariable: 1,
}

// repoPath turns a path of the query into one relative to the repository.
func (b *summaryBuild) repoPath(p string) string {
	p = strings.TrimSpace(strings.ReplaceAll(p, `\`, "/"))
	if p == "" {
		return ""
	}
	if filepath.IsAbs(p) && b.x.Root != "" {
		if rel, err := filepath.Rel(b.x.Root, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = filepath.ToSlash(rel)
		}
	}
	p = strings.TrimPrefix(p, "./")
	p = strings.Trim(p, "/")
	return p
}

type fileCand struct {
	row   *symbolRow
	fanIn int
}

// How symbolsUnder matches a path.
const (
	underExact  = iota // the file
	underSuffix        // files whose path ends with it, at a directory boundary
	underDir           // files under a directory of that name
)

// symbolsUnder lists the current symbols of the files p names, with their
// fan-in: the most used first, at most 3000.
func (x *Index) symbolsUnder(ctx context.Context, p string, match int) ([]fileCand, error) {
	cond := `p.path = ?1`
	switch match {
	case underSuffix:
		cond = `substr(p.path, -length(?1) - 1) = '/' || ?1`
	case underDir:
		cond = `(substr(p.path, 1, length(?1) + 1) = ?1 || '/' OR instr('/' || p.path, '/' || ?1 || '/') > 0)`
	}
	rows, err := x.DB.QueryContext(ctx, `SELECT `+symbolColumns+`, COALESCE(m.fan_in, 0)
		FROM symbols s JOIN paths p ON p.id = s.path_id LEFT JOIN metrics m ON m.id = s.id
		WHERE s.to_seq IS NULL AND s.path_id IN (SELECT p.id FROM paths p JOIN files f ON f.path_id = p.id AND f.to_seq IS NULL WHERE `+cond+`)
		ORDER BY s.is_test, COALESCE(m.fan_in, 0) DESC, p.path, s.start_line LIMIT 3000`, p)
	if err != nil {
		return nil, fmt.Errorf("symbols under %s: %w", p, err)
	}
	defer rows.Close()
	var out []fileCand
	for rows.Next() {
		var c fileCand
		r, err := scanSymbol(scanWith{rows, []any{&c.fanIn}})
		if err != nil {
			return nil, err
		}
		c.row = r
		out = append(out, c)
	}
	return out, rows.Err()
}

// scanWith scans the symbol columns and then extra columns.
type scanWith struct {
	rows  *sql.Rows
	extra []any
}

func (s scanWith) Scan(dest ...any) error { return s.rows.Scan(append(dest, s.extra...)...) }

// taskScope: the top cards of a slice built for the query as task text.
func (b *summaryBuild) taskScope(ctx context.Context) error {
	resp, err := b.x.BuildSlice(ctx, SliceRequest{TaskText: b.query, CardDetail: DetailMinimal,
		Budget: &SliceBudget{MaxCards: b.maxKey, MaxEstimatedTokens: MaxSliceTokens}, noHandle: true})
	if errors.Is(err, ErrInvalid) {
		return nil // nothing to seed from
	}
	if err != nil {
		return err
	}
	for _, c := range resp.Slice.Cards {
		b.addKey(c.SymbolID, "")
	}
	return nil
}

// dependencies lists the edges among the key symbols, then, taking each
// key symbol in turn, its most important callers and callees outside the
// key set. It returns the outside symbols too.
func (b *summaryBuild) dependencies(ctx context.Context) ([]DependencyEdge, []string, error) {
	x := b.x
	edges, err := x.edgesTouching(ctx, b.key, 0, 0)
	if err != nil {
		return nil, nil, err
	}
	rank := map[string]int{}
	for i, id := range b.key {
		rank[id] = i
	}
	var among []graphEdge
	outward := map[string][]graphEdge{}
	for _, e := range edges {
		if e.kind == "import" {
			continue
		}
		_, s := rank[e.src]
		_, d := rank[e.dst]
		switch {
		case s && d:
			among = append(among, e)
		case s:
			outward[e.src] = append(outward[e.src], e)
		case d:
			outward[e.dst] = append(outward[e.dst], e)
		}
	}
	var ends []string
	for id, es := range outward {
		for _, e := range es {
			ends = append(ends, otherEnd(e, id))
		}
	}
	sort.Strings(ends)
	// a hot symbol has thousands of callers: weigh them all on a brief and
	// load only the ends of the edges shown
	briefs, err := x.briefs(ctx, slices.Compact(ends))
	if err != nil {
		return nil, nil, err
	}
	sort.SliceStable(among, func(i, j int) bool {
		a := min(rank[among[i].src], rank[among[i].dst])
		c := min(rank[among[j].src], rank[among[j].dst])
		if a != c {
			return a < c
		}
		return among[i].conf > among[j].conf
	})
	// the weight of an outside end: the edge, the end's use, code before tests
	weight := func(e graphEdge, other string) float64 {
		br, ok := briefs[other]
		if !ok || br.kind == lang.KindModule {
			return -1
		}
		w := edgeWeightOf(e) * (1 + math.Log2(1+float64(br.fanIn))/4)
		if br.isTest {
			w *= 0.5
		}
		return w
	}
	lists := make([][]graphEdge, len(b.key))
	for i, id := range b.key {
		if r := b.rows[id]; r == nil || r.IsTest {
			continue // what a test calls says little about the code it tests
		}
		es := outward[id]
		ws := make(map[int]float64, len(es))
		var keep []graphEdge
		for _, e := range es {
			if w := weight(e, otherEnd(e, id)); w > 0 {
				ws[len(keep)] = w
				keep = append(keep, e)
			}
		}
		idx := make([]int, len(keep))
		for k := range idx {
			idx[k] = k
		}
		sort.SliceStable(idx, func(a, c int) bool { return ws[idx[a]] > ws[idx[c]] })
		for _, k := range idx {
			lists[i] = append(lists[i], keep[k])
		}
	}
	maxDeps := 2 * b.maxKey
	var picked []graphEdge
	picked = append(picked, among...)
	// round robin: every key symbol's best outside edge before any second
	for round := 0; round < 4 && len(picked) < maxDeps+len(among); round++ {
		for i := range lists {
			if round < len(lists[i]) {
				picked = append(picked, lists[i][round])
			}
		}
	}
	if len(picked) > maxDeps {
		picked = picked[:maxDeps]
	}
	var shown []string
	for _, e := range picked {
		shown = append(shown, e.src, e.dst)
	}
	if err := b.load(ctx, shown); err != nil {
		return nil, nil, err
	}
	var outside []string
	seenOut := map[string]bool{}
	names := b.displayNames(picked)
	out := make([]DependencyEdge, 0, len(picked))
	for _, e := range picked {
		d := DependencyEdge{From: names[e.src], To: names[e.dst], Kind: e.kind, FromID: e.src, ToID: e.dst}
		if e.conf < 0.9 {
			d.Confidence = math.Max(0.01, math.Round(e.conf*100)/100)
		}
		out = append(out, d)
		for _, id := range []string{e.src, e.dst} {
			if _, isKey := rank[id]; !isKey && !seenOut[id] {
				seenOut[id] = true
				outside = append(outside, id)
			}
		}
	}
	return out, outside, nil
}

// displayNames names the ends of edges by qualified name, with the file
// where two ends share one.
func (b *summaryBuild) displayNames(edges []graphEdge) map[string]string {
	byName := map[string]map[string]bool{}
	names := map[string]string{}
	for _, e := range edges {
		for _, id := range []string{e.src, e.dst} {
			if r := b.rows[id]; r != nil {
				if byName[r.Qualified] == nil {
					byName[r.Qualified] = map[string]bool{}
				}
				byName[r.Qualified][id] = true
			}
		}
	}
	for _, e := range edges {
		for _, id := range []string{e.src, e.dst} {
			r := b.rows[id]
			if r == nil {
				names[id] = id
				continue
			}
			names[id] = r.Qualified
			if len(byName[r.Qualified]) > 1 {
				names[id] = r.Qualified + " (" + r.Path + ")"
			}
		}
	}
	return names
}

// risks assesses the key symbols and the outside ends of the dependency
// graph: high fan-in, callers in many files, side effects, guards, no
// test references, high churn. Key symbols need one reason, outside
// symbols a stronger case.
func (b *summaryBuild) risks(ctx context.Context, outside []string) ([]RiskArea, error) {
	x := b.x
	ids := append(append([]string{}, b.key...), outside...)
	isKey := map[string]bool{}
	for _, id := range b.key {
		isKey[id] = true
	}
	var rows []*symbolRow
	for _, id := range ids {
		if r := b.rows[id]; r != nil && !r.IsTest && r.Kind != lang.KindModule {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	ms, _, err := x.metrics(ctx, rows)
	if err != nil {
		return nil, err
	}
	callerFiles, err := x.callerFiles(ctx, rows)
	if err != nil {
		return nil, err
	}
	hiFanIn, err := x.fanInThreshold(ctx)
	if err != nil {
		return nil, err
	}
	hiChurn, err := x.churnThreshold(ctx)
	if err != nil {
		return nil, err
	}
	abstract, err := x.interfaceMembers(ctx, rows)
	if err != nil {
		return nil, err
	}
	var out []RiskArea
	order := map[string]int{}
	for i, r := range rows {
		order[r.ID] = i
		m := ms[r.ID]
		var reasons []string
		score := 0
		if m.FanIn >= hiFanIn {
			reasons = append(reasons, fmt.Sprintf("high fan-in: %d dependents", m.FanIn))
			score += 3
		}
		if n := callerFiles[r.ID]; n >= 3 {
			reasons = append(reasons, fmt.Sprintf("many callers: called from %d files", n))
			score += 2
		}
		for i, se := range factTexts(r.SideEffects) {
			if i == 2 {
				break
			}
			reasons = append(reasons, "side effect: "+oneLine(se, 100))
			score += 2
		}
		guards := 0
		for _, inv := range factTexts(r.Invariants) {
			if guards == 2 || strings.HasPrefix(inv, "if err != nil then return") {
				continue // error plumbing guards nothing a change could break
			}
			guards++
			reasons = append(reasons, "guard: "+oneLine(inv, 100))
		}
		if guards > 0 {
			score++
		}
		if m.TestRefs == 0 && callable(r.Kind) && !abstract[r.ID] {
			reasons = append(reasons, "no test references it")
			score++
		}
		if hiChurn > 0 && m.Churn30d >= hiChurn {
			reasons = append(reasons, fmt.Sprintf("high churn: %d commits in 30 days", m.Churn30d))
			score += 2
		}
		if score == 0 || (!isKey[r.ID] && score < 3) {
			continue
		}
		out = append(out, RiskArea{SymbolID: r.ID, Name: r.Qualified, File: r.Path, Line: r.Range.StartLine,
			Reasons: reasons, Score: score})
	}
	// the key symbols' risks first: they are what the summary is about
	sort.SliceStable(out, func(i, j int) bool {
		a, c := out[i], out[j]
		if isKey[a.SymbolID] != isKey[c.SymbolID] {
			return isKey[a.SymbolID]
		}
		if a.Score != c.Score {
			return a.Score > c.Score
		}
		return order[a.SymbolID] < order[c.SymbolID]
	})
	if len(out) > b.maxKey {
		out = out[:b.maxKey]
	}
	return out, nil
}

func callable(kind string) bool {
	return kind == lang.KindFunction || kind == lang.KindMethod || kind == lang.KindConstructor
}

// interfaceMembers tells which of rows are members of an interface: they
// have no body for a test to cover.
func (x *Index) interfaceMembers(ctx context.Context, rows []*symbolRow) (map[string]bool, error) {
	args := make([]any, len(rows))
	for i, r := range rows {
		args[i] = r.ID
	}
	rs, err := x.DB.QueryContext(ctx, `SELECT s.id FROM symbols s JOIN symbols p ON p.id = s.parent_id AND p.to_seq IS NULL
		WHERE s.to_seq IS NULL AND p.kind = 'interface' AND s.id IN (`+schema.Placeholders(len(args))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("interface members: %w", err)
	}
	defer rs.Close()
	out := map[string]bool{}
	for rs.Next() {
		var id string
		if err := rs.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rs.Err()
}

// callerFiles counts the distinct files that call each symbol.
func (x *Index) callerFiles(ctx context.Context, rows []*symbolRow) (map[string]int, error) {
	args := make([]any, len(rows))
	for i, r := range rows {
		args[i] = r.ID
	}
	rs, err := x.DB.QueryContext(ctx, `SELECT e.dst, COUNT(DISTINCT s.path_id) FROM edges e
		JOIN symbols s ON s.id = e.src AND s.to_seq IS NULL
		WHERE e.to_seq IS NULL AND e.kind != 'import' AND e.dst IN (`+schema.Placeholders(len(args))+`) GROUP BY e.dst`, args...)
	if err != nil {
		return nil, fmt.Errorf("caller files: %w", err)
	}
	defer rs.Close()
	out := map[string]int{}
	for rs.Next() {
		var id string
		var n int
		if err := rs.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rs.Err()
}

// fanInThreshold is the fan-in of the top 5% of used symbols, at least 5:
// "high" is relative to the repository.
func (x *Index) fanInThreshold(ctx context.Context) (int, error) {
	var n sql.NullInt64
	err := x.DB.QueryRowContext(ctx, `SELECT fan_in FROM metrics WHERE fan_in > 0 ORDER BY fan_in DESC
		LIMIT 1 OFFSET (SELECT COUNT(*) / 20 FROM metrics WHERE fan_in > 0)`).Scan(&n)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("fan-in threshold: %w", err)
	}
	return max(5, int(n.Int64)), nil
}

// churnThreshold is the churn of the top 10% of files, at least 3; 0 when
// the index has no churn (no git history).
func (x *Index) churnThreshold(ctx context.Context) (int, error) {
	var n sql.NullInt64
	err := x.DB.QueryRowContext(ctx, `SELECT churn FROM file_metrics ORDER BY churn DESC
		LIMIT 1 OFFSET (SELECT COUNT(*) / 10 FROM file_metrics)`).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("churn threshold: %w", err)
	}
	return max(3, int(n.Int64)), nil
}

// files lists the files of the key symbols, in the order the key symbols
// first name them, with how many key symbols and symbols each holds and
// its churn.
func (b *summaryBuild) files(ctx context.Context) ([]FileTouched, error) {
	x := b.x
	var paths []string
	count := map[string]int{}
	var rows []*symbolRow
	for _, id := range b.key {
		r := b.rows[id]
		if count[r.Path] == 0 {
			paths = append(paths, r.Path)
			rows = append(rows, r)
		}
		count[r.Path]++
	}
	args := schema.Args(paths)
	rs, err := x.DB.QueryContext(ctx, `SELECT p.path, COUNT(*) FROM symbols s JOIN paths p ON p.id = s.path_id
		WHERE s.to_seq IS NULL AND s.kind != 'module' AND p.path IN (`+schema.Placeholders(len(args))+`) GROUP BY p.path`, args...)
	if err != nil {
		return nil, fmt.Errorf("file symbols: %w", err)
	}
	total := map[string]int{}
	for rs.Next() {
		var p string
		var n int
		if err := rs.Scan(&p, &n); err != nil {
			rs.Close()
			return nil, err
		}
		total[p] = n
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, err
	}
	var hasChurn int
	if err := x.DB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM file_metrics)`).Scan(&hasChurn); err != nil {
		return nil, fmt.Errorf("churn: %w", err)
	}
	ms, _, err := x.metrics(ctx, rows)
	if err != nil {
		return nil, err
	}
	out := make([]FileTouched, 0, len(paths))
	for i, p := range paths {
		f := FileTouched{Path: p, KeySymbols: count[p], Symbols: total[p]}
		if hasChurn != 0 {
			c := ms[rows[i].ID].Churn30d
			f.Churn = &c
		}
		out = append(out, f)
	}
	return out, nil
}
