package index

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/schema"
)

// graph is the resolved call graph of a full build, held in memory to
// derive metrics, clusters and processes.
type graph struct {
	ids   []string
	idx   map[string]int32
	path  []string
	name  []string
	kind  []string
	test  []bool
	pairs map[[2]int32]bool
	src   []int32
	dst   []int32
}

func newGraph() *graph {
	return &graph{idx: map[string]int32{}, pairs: map[[2]int32]bool{}}
}

func (g *graph) addSymbol(id, p, name, kind string, isTest bool) {
	if _, ok := g.idx[id]; ok {
		return
	}
	g.idx[id] = int32(len(g.ids))
	g.ids = append(g.ids, id)
	g.path = append(g.path, p)
	g.name = append(g.name, name)
	g.kind = append(g.kind, kind)
	g.test = append(g.test, isTest)
}

// isCallEdge reports whether an edge kind is a call for metrics' sake: a
// function passed as a value (a handler, a callback) is called by whoever
// receives it, so it counts as called from where it is passed.
func isCallEdge(kind string) bool {
	return kind == lang.RefCall || kind == lang.RefNew || kind == lang.RefReference
}

// callKinds is isCallEdge as an SQL list.
const callKinds = `('call', 'new', 'ref')`

func (g *graph) add(e *edgeRow) {
	if e.dst == "" || !isCallEdge(e.kind) {
		return
	}
	s, ok1 := g.idx[e.src]
	d, ok2 := g.idx[e.dst]
	if !ok1 || !ok2 || s == d {
		return
	}
	k := [2]int32{s, d}
	if g.pairs[k] {
		return
	}
	g.pairs[k] = true
	g.src = append(g.src, s)
	g.dst = append(g.dst, d)
}

type metricRow struct {
	fanIn, fanOut, testRefs int
	nearest                 string
	cluster                 int
}

// derive writes the derived tables. A full build passes its graph; an
// incremental run passes the ids of the symbols whose edges changed.
func (b *build) derive(ctx context.Context, tx *sql.Tx, g *graph, affected map[string]bool) error {
	// churn is about commits, not the few files of a run limited to
	// paths: the next whole run refreshes it
	if b.only == nil {
		if err := b.deriveChurn(ctx, tx); err != nil {
			return err
		}
	}
	if g != nil {
		return b.deriveFull(ctx, tx, g)
	}
	return b.deriveIncremental(ctx, tx, affected)
}

// deriveChurn writes the 30-day churn of the current files. At the commit
// it was last read for, with no file added, git's history is the same:
// only the rows of files that went away are dropped.
func (b *build) deriveChurn(ctx context.Context, tx *sql.Tx) error {
	if b.git.commit != "" && b.sum.FilesAdded == 0 {
		if was, err := schema.GetMeta(ctx, tx, schema.MetaChurnCommit); err == nil && was == b.git.commit {
			_, err := tx.ExecContext(ctx, `DELETE FROM file_metrics
				WHERE path_id NOT IN (SELECT path_id FROM files WHERE to_seq IS NULL)`)
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM file_metrics"); err != nil {
		return err
	}
	if err := schema.SetMeta(ctx, tx, schema.MetaChurnCommit, b.git.commit); err != nil {
		return fmt.Errorf("write meta: %w", err)
	}
	churn := gitChurn(ctx, b.root, b.git)
	if len(churn) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO file_metrics(path_id, churn)
		SELECT p.id, ? FROM paths p JOIN files f ON f.path_id = p.id AND f.to_seq IS NULL WHERE p.path = ?`)
	if err != nil {
		return err
	}
	defer st.Close()
	paths := make([]string, 0, len(churn))
	for p := range churn {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if _, err := st.ExecContext(ctx, churn[p], p); err != nil {
			return fmt.Errorf("write churn: %w", err)
		}
	}
	return nil
}

func (b *build) deriveFull(ctx context.Context, tx *sql.Tx, g *graph) error {
	n := len(g.ids)
	m := make([]metricRow, n)
	out := make([][]int32, n)
	in := make([][]int32, n)
	for i := range g.src {
		s, d := g.src[i], g.dst[i]
		out[s] = append(out[s], d)
		in[d] = append(in[d], s)
	}
	testFiles := map[string]bool{}
	for i := 0; i < n; i++ {
		if g.test[i] {
			testFiles[g.path[i]] = true
		}
	}
	for v := 0; v < n; v++ {
		m[v].fanIn = len(in[v])
		m[v].fanOut = len(out[v])
		if g.test[v] {
			continue
		}
		var tests []int32
		for _, s := range in[v] {
			if g.test[s] {
				tests = append(tests, s)
			}
		}
		m[v].testRefs = len(tests)
		m[v].nearest = nearestTest(g.path[v], tests, g, testFiles)
	}
	labels := labelPropagation(n, out, in)
	if err := b.writeClusters(ctx, tx, g, labels, m); err != nil {
		return err
	}
	if err := writeProcesses(ctx, tx, g, out, in); err != nil {
		return err
	}
	// the rows go through the full build's writer, in batches
	w := b.w
	if err := w.batchRows(ctx); err != nil {
		return err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, c int) bool { return g.ids[order[a]] < g.ids[order[c]] })
	for _, v := range order {
		r := m[v]
		if r.fanIn == 0 && r.fanOut == 0 && r.testRefs == 0 && r.nearest == "" && r.cluster == 0 {
			continue
		}
		if err := w.insertMetric(ctx, g.ids[v], r); err != nil {
			return fmt.Errorf("write metrics: %w", err)
		}
	}
	if err := w.flush(); err != nil {
		return fmt.Errorf("write metrics: %w", err)
	}
	return nil
}

// nearestTest picks the test that best covers a symbol: among the tests
// that call it, the one whose file is nearest its own; else a test file
// named after its file by the language's convention.
func nearestTest(p string, tests []int32, g *graph, testFiles map[string]bool) string {
	best, bestScore := -1, -1
	for _, t := range tests {
		s := commonPrefix(p, g.path[t])
		if s > bestScore || (s == bestScore && g.ids[t] < g.ids[best]) {
			best, bestScore = int(t), s
		}
	}
	if best >= 0 {
		return g.path[best] + "#" + g.name[best]
	}
	for _, c := range conventionalTests(p) {
		if testFiles[c] {
			return c
		}
	}
	return ""
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// conventionalTests lists where, by naming convention, the tests of a file
// would be.
func conventionalTests(p string) []string {
	dir, file := path.Split(p)
	ext := path.Ext(file)
	stem := strings.TrimSuffix(file, ext)
	switch ext {
	case ".go":
		return []string{dir + stem + "_test.go"}
	case ".py":
		return []string{dir + "test_" + stem + ".py", dir + stem + "_test.py", dir + "tests/test_" + stem + ".py",
			"tests/test_" + stem + ".py", "test/test_" + stem + ".py"}
	case ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs":
		return []string{dir + stem + ".test" + ext, dir + stem + ".spec" + ext, dir + "__tests__/" + stem + ".test" + ext}
	case ".java":
		return []string{strings.Replace(dir, "src/main/", "src/test/", 1) + stem + "Test.java"}
	case ".rs":
		return []string{"tests/" + stem + ".rs"}
	}
	return nil
}

// labelPropagation finds communities in the undirected call graph: each
// node repeatedly takes the label most common among its neighbours (ties
// to the smallest), in a fixed order, so the result is deterministic.
func labelPropagation(n int, out, in [][]int32) []int32 {
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = int32(i)
	}
	var nb []int32
	for iter := 0; iter < 10; iter++ {
		changed := 0
		for v := 0; v < n; v++ {
			if len(out[v])+len(in[v]) == 0 {
				continue
			}
			nb = nb[:0]
			for _, u := range out[v] {
				nb = append(nb, labels[u])
			}
			for _, u := range in[v] {
				nb = append(nb, labels[u])
			}
			slices.Sort(nb)
			best, bestN := labels[v], 0
			for i := 0; i < len(nb); {
				j := i
				for j < len(nb) && nb[j] == nb[i] {
					j++
				}
				if j-i > bestN {
					best, bestN = nb[i], j-i
				}
				i = j
			}
			if best != labels[v] {
				labels[v] = best
				changed++
			}
		}
		if changed == 0 {
			break
		}
	}
	return labels
}

// writeClusters numbers the communities of two or more symbols, labels
// each by its most common directory and its most called member, and sets
// the members' cluster ids in m.
func (b *build) writeClusters(ctx context.Context, tx *sql.Tx, g *graph, labels []int32, m []metricRow) error {
	groups := map[int32][]int{}
	var order []int32
	for v, l := range labels {
		if m[v].fanIn+m[v].fanOut == 0 {
			continue
		}
		if _, ok := groups[l]; !ok {
			order = append(order, l)
		}
		groups[l] = append(groups[l], v)
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO clusters(id, label, member_count) VALUES(?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	id := 0
	for _, l := range order {
		members := groups[l]
		if len(members) < 2 {
			continue
		}
		id++
		dirs := map[string]int{}
		top := members[0]
		for _, v := range members {
			m[v].cluster = id
			dirs[path.Dir(g.path[v])]++
			if m[v].fanIn > m[top].fanIn || (m[v].fanIn == m[top].fanIn && g.ids[v] < g.ids[top]) {
				top = v
			}
		}
		dir, dn := "", 0
		for d, c := range dirs {
			if c > dn || (c == dn && d < dir) {
				dir, dn = d, c
			}
		}
		label := dir + ": " + g.name[top]
		if dir == "." {
			label = g.name[top]
		}
		if _, err := st.ExecContext(ctx, id, label, len(members)); err != nil {
			return fmt.Errorf("write clusters: %w", err)
		}
	}
	return nil
}

// writeProcesses records call chains from entry points: functions that
// nothing in the repository calls and that call several others, and main
// functions. Each chain follows, from the entry, the callee that itself
// calls the most, up to eight steps.
func writeProcesses(ctx context.Context, tx *sql.Tx, g *graph, out, in [][]int32) error {
	type entry struct {
		v     int32
		reach int
	}
	var entries []entry
	for v := range g.ids {
		if g.test[v] || (g.kind[v] != lang.KindFunction && g.kind[v] != lang.KindMethod) {
			continue
		}
		isMain := g.name[v] == "main" || g.name[v] == "Main"
		if !isMain && (len(in[v]) > 0 || len(out[v]) < 2) {
			continue
		}
		entries = append(entries, entry{int32(v), reach(int32(v), out, 200)})
	}
	sort.Slice(entries, func(a, c int) bool {
		if entries[a].reach != entries[c].reach {
			return entries[a].reach > entries[c].reach
		}
		return g.ids[entries[a].v] < g.ids[entries[c].v]
	})
	if len(entries) > 300 {
		entries = entries[:300]
	}
	pst, err := tx.PrepareContext(ctx, `INSERT INTO processes(id, label, entry, length) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer pst.Close()
	sst, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO process_steps(process_id, symbol_id, depth, role) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer sst.Close()
	for i, e := range entries {
		chain := []int32{e.v}
		seen := map[int32]bool{e.v: true}
		for cur := e.v; len(chain) < 9; {
			next := int32(-1)
			for _, u := range out[cur] {
				if seen[u] || g.test[u] {
					continue
				}
				if next < 0 || len(out[u]) > len(out[next]) || (len(out[u]) == len(out[next]) && g.ids[u] < g.ids[next]) {
					next = u
				}
			}
			if next < 0 {
				break
			}
			seen[next] = true
			chain = append(chain, next)
			cur = next
		}
		if len(chain) < 2 {
			continue
		}
		names := make([]string, 0, len(chain))
		for _, v := range chain {
			names = append(names, g.name[v])
		}
		label := strings.Join(names, " → ")
		if len(names) > 5 {
			label = strings.Join(names[:4], " → ") + " → … → " + names[len(names)-1]
		}
		pid := i + 1
		if _, err := pst.ExecContext(ctx, pid, label, g.ids[e.v], len(chain)); err != nil {
			return fmt.Errorf("write processes: %w", err)
		}
		for d, v := range chain {
			role := "intermediate"
			switch d {
			case 0:
				role = "entry"
			case len(chain) - 1:
				role = "exit"
			}
			if _, err := sst.ExecContext(ctx, pid, g.ids[v], d, role); err != nil {
				return fmt.Errorf("write process steps: %w", err)
			}
		}
	}
	return nil
}

// reach counts the symbols reachable from v, up to limit.
func reach(v int32, out [][]int32, limit int) int {
	seen := map[int32]bool{v: true}
	queue := []int32{v}
	for len(queue) > 0 && len(seen) < limit {
		u := queue[0]
		queue = queue[1:]
		for _, w := range out[u] {
			if !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		}
	}
	return len(seen) - 1
}

// deriveIncremental recomputes the metrics of the symbols whose edges
// changed. Clusters and processes are kept; a new symbol joins the cluster
// most of its neighbours are in.
func (b *build) deriveIncremental(ctx context.Context, tx *sql.Tx, affected map[string]bool) error {
	if len(affected) == 0 {
		return nil
	}
	one, err := tx.PrepareContext(ctx, `SELECT
		(SELECT COUNT(DISTINCT e.src) FROM edges e WHERE e.dst = ?1 AND e.to_seq IS NULL AND e.kind IN `+callKinds+` AND e.src != ?1),
		(SELECT COUNT(DISTINCT e.dst) FROM edges e WHERE e.src = ?1 AND e.to_seq IS NULL AND e.kind IN `+callKinds+` AND e.dst != ?1),
		(SELECT COUNT(*) FROM symbols s WHERE s.id = ?1 AND s.to_seq IS NULL),
		(SELECT s.is_test FROM symbols s WHERE s.id = ?1 AND s.to_seq IS NULL),
		(SELECT p.path FROM symbols s JOIN paths p ON p.id = s.path_id WHERE s.id = ?1 AND s.to_seq IS NULL)`)
	if err != nil {
		return err
	}
	defer one.Close()
	tests, err := tx.PrepareContext(ctx, `SELECT DISTINCT s.id, s.name, p.path FROM edges e
		JOIN symbols s ON s.id = e.src AND s.to_seq IS NULL JOIN paths p ON p.id = s.path_id
		WHERE e.dst = ? AND e.to_seq IS NULL AND e.kind IN `+callKinds+` AND s.is_test = 1 ORDER BY s.id`)
	if err != nil {
		return err
	}
	defer tests.Close()
	// the callees and the callers (a self-call once), each by its index:
	// SQLite answers "src = ?1 OR dst = ?1" here with a scan of every edge
	neighbourCluster, err := tx.PrepareContext(ctx, `SELECT cluster_id, COUNT(*) AS n FROM (
		SELECT m.cluster_id FROM edges e JOIN metrics m ON m.id = e.dst
		WHERE e.src = ?1 AND e.to_seq IS NULL AND e.kind IN `+callKinds+` AND m.cluster_id > 0
		UNION ALL
		SELECT m.cluster_id FROM edges e JOIN metrics m ON m.id = e.src
		WHERE e.dst = ?1 AND e.src != ?1 AND e.to_seq IS NULL AND e.kind IN `+callKinds+` AND m.cluster_id > 0)
		GROUP BY cluster_id ORDER BY n DESC, cluster_id LIMIT 1`)
	if err != nil {
		return err
	}
	defer neighbourCluster.Close()
	// the statements asked once per symbol, prepared once: a change that
	// moves the symbols of many files affects tens of thousands
	stmts := map[string]*sql.Stmt{}
	for name, q := range map[string]string{
		"drop": "DELETE FROM metrics WHERE id = ?",
		"testFile": `SELECT COUNT(*) FROM files f JOIN paths pp ON pp.id = f.path_id
			WHERE pp.path = ? AND f.to_seq IS NULL AND f.is_test = 1`,
		"cluster": "SELECT cluster_id FROM metrics WHERE id = ?",
		"put": `INSERT INTO metrics(id, fan_in, fan_out, test_refs, nearest_test, cluster_id) VALUES(?, ?, ?, ?, ?, ?)
			ON CONFLICT(id) DO UPDATE SET fan_in = excluded.fan_in, fan_out = excluded.fan_out, test_refs = excluded.test_refs,
			nearest_test = excluded.nearest_test, cluster_id = excluded.cluster_id`,
	} {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		defer st.Close()
		stmts[name] = st
	}
	for _, id := range sortedKeys(affected) {
		var fanIn, fanOut, present int
		var isTest sql.NullInt64
		var p sql.NullString
		if err := one.QueryRowContext(ctx, id).Scan(&fanIn, &fanOut, &present, &isTest, &p); err != nil {
			return fmt.Errorf("metrics of %s: %w", id, err)
		}
		if present == 0 {
			if _, err := stmts["drop"].ExecContext(ctx, id); err != nil {
				return err
			}
			continue
		}
		r := metricRow{fanIn: fanIn, fanOut: fanOut}
		if isTest.Int64 == 0 {
			rows, err := tests.QueryContext(ctx, id)
			if err != nil {
				return err
			}
			best, bestScore := "", -1
			for rows.Next() {
				var tid, tname, tpath string
				if err := rows.Scan(&tid, &tname, &tpath); err != nil {
					rows.Close()
					return err
				}
				r.testRefs++
				if s := commonPrefix(p.String, tpath); s > bestScore {
					best, bestScore = tpath+"#"+tname, s
				}
			}
			rows.Close()
			r.nearest = best
			if best == "" {
				for _, c := range conventionalTests(p.String) {
					var n int
					stmts["testFile"].QueryRowContext(ctx, c).Scan(&n)
					if n > 0 {
						r.nearest = c
						break
					}
				}
			}
		}
		var cluster int
		if err := stmts["cluster"].QueryRowContext(ctx, id).Scan(&cluster); err == sql.ErrNoRows || cluster == 0 {
			var c, n int
			if err := neighbourCluster.QueryRowContext(ctx, id).Scan(&c, &n); err == nil {
				cluster = c
			}
		}
		r.cluster = cluster
		if _, err := stmts["put"].ExecContext(ctx, id, r.fanIn, r.fanOut, r.testRefs, r.nearest, r.cluster); err != nil {
			return fmt.Errorf("write metrics: %w", err)
		}
	}
	return nil
}
