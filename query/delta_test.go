package query_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/query"
)

// history is a fixture repository copied to a temporary directory and
// indexed once (v1); each step of testdata/history/<lang> then edits it
// and indexes it again.
type history struct {
	t     testing.TB
	lang  string
	root  string
	db    string
	x     *query.Index
	steps []string
}

func newHistory(t testing.TB, lang string) *history {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("..", "testdata", "repos", lang))
	h := &history{t: t, lang: lang, root: filepath.Join(t.TempDir(), lang)}
	h.db = filepath.Join(t.TempDir(), "index.db")
	if err := copyRepo(src, h.root); err != nil {
		t.Fatal(err)
	}
	h.index()
	x, err := query.Open(h.db, h.root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	h.x = x
	steps, _ := filepath.Glob(filepath.Join("..", "testdata", "history", lang, "*.txtar"))
	sort.Strings(steps)
	if len(steps) == 0 {
		t.Fatalf("no history steps for %s", lang)
	}
	h.steps = steps
	return h
}

func (h *history) index() *index.Summary {
	h.t.Helper()
	sum, err := index.Run(context.Background(), index.Options{Root: h.root, DB: h.db, NoGit: true, Workers: 2,
		Now: time.Unix(1700000000, 0), SDLVersion: "test"})
	if err != nil {
		h.t.Fatalf("index: %v", err)
	}
	return sum
}

// apply writes the files of a step's archive and deletes those its
// .delete file lists.
func (h *history) apply(step string) {
	h.t.Helper()
	ar, err := txtar.ParseFile(step)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == ".delete" {
			for _, p := range strings.Fields(string(f.Data)) {
				if err := os.Remove(filepath.Join(h.root, p)); err != nil {
					h.t.Fatal(err)
				}
			}
			continue
		}
		p := filepath.Join(h.root, f.Name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
}

func copyRepo(src, dst string) error {
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
}

func stepName(step string) string { return strings.TrimSuffix(filepath.Base(step), ".txtar") }

func findChange(d *query.DeltaPack, change, name string) *query.SymbolChange {
	for _, c := range d.Changes {
		if c.Change == change && c.Name == name {
			return c
		}
	}
	return nil
}

func hasFinding(a *query.RiskAnalysis, kind, name string) *query.Finding {
	for i := range a.Findings {
		if a.Findings[i].Kind == kind && (name == "" || a.Findings[i].Name == name) {
			return &a.Findings[i]
		}
	}
	return nil
}

func listChanges(d *query.DeltaPack) string {
	var s []string
	for _, c := range d.Changes {
		s = append(s, c.Change+" "+c.Name)
	}
	return strings.Join(s, ", ")
}

// goChecks are what each step of the Go history must show, beyond its
// golden delta: the test fails if the delta or the risk says otherwise.
var goChecks = map[string]func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse){
	"01-edit-body": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		c := findChange(d, query.ChangeModified, "Item.Total")
		if c == nil || strings.Join(c.Aspects, ",") != "body" || c.SignatureDiff != nil {
			t.Fatalf("Item.Total should be modified in its body only: %s", listChanges(d))
		}
		if c.BlastRadius == nil || c.BlastRadius.Tests == 0 {
			t.Errorf("TestAdd reaches Item.Total through Store.Value: %+v", c.BlastRadius)
		}
		if len(d.Changes) != 1 || len(d.EdgeChanges) != 0 {
			t.Errorf("one change and no edge change expected: %s; %+v", listChanges(d), d.EdgeChanges)
		}
		if r.PolicyDecision.Decision != "allow" || len(r.Analysis.RecommendedTests) == 0 || r.Analysis.RecommendedTests[0].Name != "TestAdd" {
			t.Errorf("a tested body edit: allow and run TestAdd, got %s, %+v", r.PolicyDecision.Decision, r.Analysis.RecommendedTests)
		}
	},
	"02-change-signature": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		c := findChange(d, query.ChangeModified, "Open")
		if c == nil || c.SignatureDiff == nil || !c.SignatureDiff.Breaking || len(c.SignatureDiff.ParamsAdded) != 1 {
			t.Fatalf("Open's signature gained a required parameter: %+v", c)
		}
		if c.SideEffectDiff == nil || len(c.SideEffectDiff.Added) == 0 {
			t.Errorf("Open now writes a file: %+v", c.SideEffectDiff)
		}
		if hasFinding(r.Analysis, "breaking-signature", "Open") == nil || hasFinding(r.Analysis, "side-effect-change", "Open") == nil {
			t.Errorf("findings: %+v", r.Analysis.Findings)
		}
		if f := hasFinding(r.Analysis, "missing-tests", "main"); f == nil {
			t.Errorf("nothing tests main: %+v", r.Analysis.Findings)
		}
	},
	"03-rename": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		c := findChange(d, query.ChangeRenamed, "Store.Worth")
		if c == nil || c.Previous == nil || c.Previous.Name != "Store.Value" || c.PairedBy != "fingerprint" {
			t.Fatalf("Store.Value renamed to Store.Worth: %s", listChanges(d))
		}
		if d.Summary.SymbolsAdded != 0 || d.Summary.SymbolsRemoved != 0 {
			t.Errorf("a rename is not an addition and a removal: %+v", d.Summary)
		}
		if hasFinding(r.Analysis, "dangling-reference", "") != nil || r.PolicyDecision.Decision == "deny" {
			t.Errorf("every caller was renamed too: %+v", r.Analysis.Findings)
		}
	},
	"04-move": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		c := findChange(d, query.ChangeMoved, "Open")
		if c == nil || c.Previous == nil || c.Previous.File != "store/db.go" || c.File != "store/open.go" || len(c.Aspects) != 0 {
			t.Fatalf("Open moved from db.go to open.go unchanged: %s", listChanges(d))
		}
		for _, e := range d.EdgeChanges {
			if e.ToName == "Open (store/open.go)" {
				t.Errorf("a call to a moved symbol is not a new edge: %+v", e)
			}
		}
	},
	"05-add-callers": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		if findChange(d, query.ChangeAdded, "Report") == nil || findChange(d, query.ChangeAdded, "Audit") == nil {
			t.Fatalf("Report and Audit are new: %s", listChanges(d))
		}
		resp := r // amplifiers are in both answers
		var amp *query.Amplifier
		for i := range resp.Analysis.Amplifiers {
			if resp.Analysis.Amplifiers[i].Name == "Item.Total" {
				amp = &resp.Analysis.Amplifiers[i]
			}
		}
		if amp == nil || amp.Previous != 1 || amp.Current != 3 || amp.GrowthRate != 2 {
			t.Errorf("Item.Total's fan-in grew from 1 to 3: %+v", resp.Analysis.Amplifiers)
		}
		if hasFinding(r.Analysis, "missing-tests", "Report") == nil {
			t.Errorf("nothing tests Report: %+v", r.Analysis.Findings)
		}
		added := 0
		for _, e := range d.EdgeChanges {
			if e.Change == query.ChangeAdded && strings.HasPrefix(e.ToName, "Item.Total ") {
				added++
			}
		}
		if added != 2 {
			t.Errorf("two calls to Item.Total added, got %d: %+v", added, d.EdgeChanges)
		}
	},
	"06-interface": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		if findChange(d, query.ChangeAdded, "Repository.Len") == nil {
			t.Fatalf("Repository.Len is new: %s", listChanges(d))
		}
		if f := hasFinding(r.Analysis, "interface-change", "Repository.Len"); f == nil || f.Severity == "low" {
			t.Errorf("a method added to an interface: %+v", r.Analysis.Findings)
		}
	},
	"07-relocate": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		if len(d.Changes) != 0 || d.Summary.SymbolsRelocated < 3 {
			t.Fatalf("only lines moved: %s; %+v", listChanges(d), d.Summary)
		}
		if r.Analysis.RiskScore != 0 || r.PolicyDecision.Decision != "allow" {
			t.Errorf("moving lines risks nothing: %d %s", r.Analysis.RiskScore, r.PolicyDecision.Decision)
		}
	},
	"08-delete": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		c := findChange(d, query.ChangeRemoved, "NewStore")
		if c == nil || c.BlastRadius == nil || c.BlastRadius.Total < 2 {
			t.Fatalf("NewStore removed, with main and TestAdd depending on it at the old version: %+v", c)
		}
		f := hasFinding(r.Analysis, "dangling-reference", "NewStore")
		if f == nil || f.Severity != "critical" {
			t.Fatalf("main and TestAdd still call NewStore: %+v", r.Analysis.Findings)
		}
		if r.PolicyDecision.Decision != "deny" || len(r.PolicyDecision.DeniedReasons) == 0 {
			t.Errorf("a removed symbol still called: deny, got %+v", r.PolicyDecision)
		}
		// the score, its level and the escalation agree with the finding and the decision
		if r.Analysis.RiskScore < f.Score || r.Analysis.RiskLevel != "critical" || !r.EscalationRequired {
			t.Errorf("a critical finding (%d) and deny: riskScore %d %s, escalationRequired %v",
				f.Score, r.Analysis.RiskScore, r.Analysis.RiskLevel, r.EscalationRequired)
		}
	},
}

// pyChecks are the Python history's.
var pyChecks = map[string]func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse){
	"01-edit-body": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		c := findChange(d, query.ChangeModified, "Store.reserve")
		if c == nil || len(d.Changes) != 1 {
			t.Fatalf("Store.reserve alone changed (not its class): %s", listChanges(d))
		}
		if c.BlastRadius == nil || c.BlastRadius.Tests == 0 {
			t.Errorf("tests reach Store.reserve: %+v", c.BlastRadius)
		}
	},
	"02-default-param": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		c := findChange(d, query.ChangeModified, "Store.restock")
		if c == nil || c.SignatureDiff == nil || c.SignatureDiff.Breaking || len(c.SignatureDiff.ParamsAdded) != 1 {
			t.Fatalf("an optional parameter added, not breaking: %+v", c)
		}
		if hasFinding(r.Analysis, "breaking-signature", "") != nil {
			t.Errorf("no breaking finding: %+v", r.Analysis.Findings)
		}
	},
	"03-rename-method": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		c := findChange(d, query.ChangeRenamed, "Order.net")
		if c == nil || c.Previous.Name != "Order.subtotal" || len(c.Aspects) != 0 {
			t.Fatalf("Order.subtotal renamed to Order.net: %s", listChanges(d))
		}
		if o := findChange(d, query.ChangeModified, "Order"); o != nil && o.BlastRadius != nil {
			t.Errorf("the class changed only in its members: no radius of its own, got %+v", o.BlastRadius)
		}
	},
	"04-move-function": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		c := findChange(d, query.ChangeMoved, "format_price")
		if c == nil || c.Previous.File != "src/shop/util.py" || c.File != "src/shop/money.py" || c.PairedBy != "fingerprint" {
			t.Fatalf("format_price moved to money.py: %s", listChanges(d))
		}
		if hasFinding(r.Analysis, "dangling-reference", "") != nil {
			t.Errorf("its importers followed: %+v", r.Analysis.Findings)
		}
	},
	"05-add-callers": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		if findChange(d, query.ChangeAdded, "revenue") == nil || findChange(d, query.ChangeAdded, "largest") == nil {
			t.Fatalf("two new functions: %s", listChanges(d))
		}
		var amp *query.Amplifier
		for i := range r.Analysis.Amplifiers {
			if r.Analysis.Amplifiers[i].Name == "Order.describe" {
				amp = &r.Analysis.Amplifiers[i]
			}
		}
		if amp == nil || amp.Current-amp.Previous != 2 {
			t.Errorf("Order.describe gained two callers: %+v", r.Analysis.Amplifiers)
		}
		if hasFinding(r.Analysis, "missing-tests", "revenue") == nil {
			t.Errorf("nothing tests revenue: %+v", r.Analysis.Findings)
		}
	},
	"06-delete": func(t *testing.T, d *query.DeltaPack, r *query.RiskResponse) {
		if findChange(d, query.ChangeRemoved, "Store.reserve") == nil {
			t.Fatalf("Store.reserve removed: %s", listChanges(d))
		}
		if hasFinding(r.Analysis, "dangling-reference", "Store.reserve") == nil || r.PolicyDecision.Decision != "deny" {
			t.Errorf("callers still call it: %+v %+v", r.Analysis.Findings, r.PolicyDecision)
		}
	},
}

// TestDeltaHistory replays the scripted histories and compares each
// step's delta and risk with the golden ones in testdata/golden/delta.
func TestDeltaHistory(t *testing.T) {
	ctx := context.Background()
	for lang, checks := range map[string]map[string]func(*testing.T, *query.DeltaPack, *query.RiskResponse){"go": goChecks, "python": pyChecks} {
		t.Run(lang, func(t *testing.T) {
			h := newHistory(t, lang)
			for i, step := range h.steps {
				name := stepName(step)
				h.apply(step)
				sum := h.index()
				if !sum.NewVersion || sum.Seq != int64(i+2) {
					t.Fatalf("%s: version %s, new=%v", name, sum.Version, sum.NewVersion)
				}
				from, to := fmt.Sprintf("v%d", i+1), fmt.Sprintf("v%d", i+2)
				resp, err := h.x.Delta(ctx, query.DeltaRequest{FromVersion: from, ToVersion: to,
					Budget: &query.SliceBudget{MaxCards: 500, MaxEstimatedTokens: 100000}})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if resp.Delta.Truncation != nil {
					t.Fatalf("%s: the whole delta fits: %+v", name, resp.Delta.Truncation)
				}
				risk, err := h.x.AnalyzeRisk(ctx, query.RiskRequest{FromVersion: from, ToVersion: to})
				if err != nil {
					t.Fatalf("%s: risk: %v", name, err)
				}
				t.Run(name, func(t *testing.T) {
					if check := checks[name]; check != nil {
						check(t, resp.Delta, risk)
					} else {
						t.Errorf("no checks for step %s", name)
					}
					var b bytes.Buffer
					b.WriteString("delta\n")
					writeIndented(&b, resp)
					b.WriteString("risk\n")
					writeIndented(&b, risk)
					compareGolden(t, filepath.Join("..", "testdata", "golden", "delta", lang, name+".json"), b.Bytes())
				})
			}
		})
	}
}

func compareGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./query -run %s -update)", err, strings.Split(t.Name(), "/")[0])
	}
	if !bytes.Equal(want, got) {
		t.Errorf("differs from %s:\n%s", golden, diffLines(string(want), string(got)))
	}
}

// TestDeltaReverse compares the delta of two versions with the delta the
// other way round: additions become removals, before becomes after.
func TestDeltaReverse(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	for _, step := range h.steps {
		h.apply(step)
		h.index()
	}
	big := &query.SliceBudget{MaxCards: 500, MaxEstimatedTokens: 100000}
	for _, pair := range [][2]string{{"v1", "v9"}, {"v2", "v3"}, {"v4", "v6"}} {
		fwd, err := h.x.Delta(ctx, query.DeltaRequest{FromVersion: pair[0], ToVersion: pair[1], Budget: big})
		if err != nil {
			t.Fatal(err)
		}
		back, err := h.x.Delta(ctx, query.DeltaRequest{FromVersion: pair[1], ToVersion: pair[0], Budget: big})
		if err != nil {
			t.Fatal(err)
		}
		f, b := fwd.Delta.Summary, back.Delta.Summary
		if f.SymbolsAdded != b.SymbolsRemoved || f.SymbolsRemoved != b.SymbolsAdded || f.SymbolsModified != b.SymbolsModified ||
			f.SymbolsRenamed != b.SymbolsRenamed || f.EdgesAdded != b.EdgesRemoved || f.EdgesRemoved != b.EdgesAdded ||
			f.FilesAdded != b.FilesRemoved || f.FilesChanged != b.FilesChanged {
			t.Errorf("%s..%s: forward %+v, backward %+v", pair[0], pair[1], f, b)
		}
		inverse := map[string]string{query.ChangeAdded: query.ChangeRemoved, query.ChangeRemoved: query.ChangeAdded}
		want := map[string]bool{}
		for _, c := range fwd.Delta.Changes {
			k := c.Change
			if inv, ok := inverse[k]; ok {
				k = inv
			}
			name := c.Name
			if c.Previous != nil {
				name = c.Previous.Name
			}
			want[k+" "+name] = true
		}
		for _, c := range back.Delta.Changes {
			if !want[c.Change+" "+c.Name] {
				t.Errorf("%s..%s backward has %s %s, not the inverse of a forward change", pair[1], pair[0], c.Change, c.Name)
			}
		}
		if len(back.Delta.Changes) != len(fwd.Delta.Changes) {
			t.Errorf("%s..%s: %d changes forward, %d backward", pair[0], pair[1], len(fwd.Delta.Changes), len(back.Delta.Changes))
		}
	}
}

// TestDeltaPaging cuts a delta into small pages: each fits its budget,
// and the pages list every change and edge change exactly once.
func TestDeltaPaging(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	for _, step := range h.steps {
		h.apply(step)
		h.index()
	}
	whole, err := h.x.Delta(ctx, query.DeltaRequest{FromVersion: "1", ToVersion: "HEAD",
		Budget: &query.SliceBudget{MaxCards: 500, MaxEstimatedTokens: 100000}})
	if err != nil {
		t.Fatal(err)
	}
	total := len(whole.Delta.Changes) + len(whole.Delta.EdgeChanges)
	if total < 10 {
		t.Fatalf("a longer delta expected, got %d items", total)
	}
	for _, budget := range []int{1200, 2500} {
		seen := map[string]int{}
		cursor, pages := "", 0
		for {
			resp, err := h.x.Delta(ctx, query.DeltaRequest{FromVersion: "v1", ToVersion: "HEAD", Cursor: cursor,
				Budget: &query.SliceBudget{MaxCards: 4, MaxEstimatedTokens: budget}})
			if err != nil {
				t.Fatal(err)
			}
			pages++
			if n := query.Tokens(string(query.EncodeJSON(resp))); n > budget || resp.Delta.EstimatedTokens != n {
				t.Errorf("budget %d: page %d has %d tokens (says %d)", budget, pages, n, resp.Delta.EstimatedTokens)
			}
			if len(resp.Delta.Changes)+len(resp.Delta.EdgeChanges) > 4 {
				t.Errorf("maxCards 4: page has %d", len(resp.Delta.Changes)+len(resp.Delta.EdgeChanges))
			}
			for _, c := range resp.Delta.Changes {
				seen["c "+c.Change+" "+c.SymbolID]++
			}
			for _, e := range resp.Delta.EdgeChanges {
				seen[fmt.Sprintf("e %s %s %s %s %d", e.Change, e.From, e.To, e.Kind, e.Line)]++
			}
			tr := resp.Delta.Truncation
			if tr == nil || !tr.Truncated {
				break
			}
			if tr.NextCursor == cursor || pages > 100 {
				t.Fatalf("no progress at cursor %q", cursor)
			}
			cursor = tr.NextCursor
		}
		if len(seen) != total {
			t.Errorf("budget %d: %d pages listed %d distinct items, want %d", budget, pages, len(seen), total)
		}
		for k, n := range seen {
			if n != 1 {
				t.Errorf("budget %d: %s listed %d times", budget, k, n)
			}
		}
	}
	if _, err := h.x.Delta(ctx, query.DeltaRequest{FromVersion: "v1", ToVersion: "v2", Budget: &query.SliceBudget{MaxEstimatedTokens: 50}}); !errors.Is(err, query.ErrInvalid) {
		t.Errorf("a budget below the minimum: %v", err)
	}
}

// TestResolveVersion names versions every way the tools accept.
func TestResolveVersion(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	for _, step := range h.steps[:3] {
		h.apply(step)
		h.index()
	}
	for spec, want := range map[string]string{"v2": "v2", "2": "v2", "HEAD": "v4", "HEAD~1": "v3", "HEAD^": "v3", "HEAD~3": "v1", " v1 ": "v1"} {
		v, err := h.x.ResolveVersion(ctx, "fromVersion", spec)
		if err != nil || v.ID != want {
			t.Errorf("%q: %s %v, want %s", spec, v.ID, err, want)
		}
	}
	for _, spec := range []string{"", "v9", "9", "HEAD~4", "main", "-x", "deadbeef", "HEAD~99999999999999999999"} {
		_, err := h.x.ResolveVersion(ctx, "fromVersion", spec)
		if !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), "fromVersion") {
			t.Errorf("%q: %v, want an invalid-argument error naming fromVersion", spec, err)
		}
	}
}

// TestReachMatchesBFS checks the recursive radius query against a
// breadth-first search in Go over every edge valid at the version, at the
// newest version and at older ones.
func TestReachMatchesBFS(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	for _, step := range h.steps {
		h.apply(step)
		h.index()
	}
	db, err := sql.Open("sqlite", "file:"+h.db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	vs, _ := h.x.Versions(ctx)
	for _, v := range vs {
		rows, err := db.Query(`SELECT src, dst FROM edges WHERE dst IS NOT NULL AND src != dst
			AND kind IN ('call', 'new', 'ref', 'import', 'implements', 'extends')
			AND from_seq <= ? AND (to_seq IS NULL OR to_seq > ?)`, v.Seq, v.Seq)
		if err != nil {
			t.Fatal(err)
		}
		in := map[string][]string{}
		for rows.Next() {
			var s, d string
			rows.Scan(&s, &d)
			in[d] = append(in[d], s)
		}
		rows.Close()
		var seeds []string
		srows, _ := db.Query(`SELECT id FROM symbols WHERE from_seq <= ? AND (to_seq IS NULL OR to_seq > ?) ORDER BY id`, v.Seq, v.Seq)
		for srows.Next() {
			var id string
			srows.Scan(&id)
			seeds = append(seeds, id)
		}
		srows.Close()
		got, trunc, err := query.ReachForTest(h.x, ctx, v.Seq, seeds, 3)
		if err != nil || trunc {
			t.Fatalf("%s: %v %v", v.ID, err, trunc)
		}
		compared := 0
		for _, seed := range seeds {
			want := map[string]int{seed: 0}
			frontier := []string{seed}
			for depth := 1; depth <= 3; depth++ {
				var next []string
				for _, n := range frontier {
					for _, s := range in[n] {
						if _, ok := want[s]; !ok {
							want[s] = depth
							next = append(next, s)
						}
					}
				}
				frontier = next
			}
			delete(want, seed)
			if fmt.Sprint(want) != fmt.Sprint(got[seed]) && !(len(want) == 0 && len(got[seed]) == 0) {
				t.Errorf("%s: reach of %s = %v, BFS %v", v.ID, seed, got[seed], want)
			}
			compared += len(want)
		}
		if compared == 0 {
			t.Errorf("%s: no dependents at all", v.ID)
		}
	}
}

// TestReachPlan: each step of the radius query looks edges up by target,
// in both branches, at an old version too. Left to itself SQLite scanned
// every row closed after the version for each step (through edges_to),
// and a radius at an old version of a real history took seconds.
func TestReachPlan(t *testing.T) {
	ctx := context.Background()
	h := newHistory(t, "go")
	for _, step := range h.steps {
		h.apply(step)
		h.index()
	}
	for _, v := range []int64{1, 5, 9} {
		plan, err := query.ReachPlanForTest(h.x, ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "\n")
		// current edges by target, and the calls that may dispatch to a
		// method by name; closed edges through their own index
		if strings.Count(text, "SEARCH e USING INDEX edges_cur_dst (dst=?)") != 1 ||
			strings.Count(text, "SEARCH e USING INDEX edges_cur_name (name=?)") != 1 ||
			!strings.Contains(text, "SEARCH e USING INDEX edges_old_dst (dst=?)") || strings.Contains(text, "SCAN e") {
			t.Errorf("v%d: the radius query does not look edges up by target or name:\n%s", v, text)
		}
	}
}

// FuzzResolveVersion: any name a client sends resolves to a version of
// the ledger or is an invalid-argument error naming the field.
func FuzzResolveVersion(f *testing.F) {
	h := newHistory(f, "go")
	for _, step := range h.steps[:2] {
		h.apply(step)
		h.index()
	}
	h.x.Root = "" // no git: the ledger's names only
	for _, s := range []string{"v1", "2", "HEAD", "HEAD~2", "HEAD^^", "HEAD~", "v0", "00000002", "-", "HEAD~99999999999999999999", "deadbeef", " v3 "} {
		f.Add(s)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, spec string) {
		v, err := h.x.ResolveVersion(ctx, "toVersion", spec)
		if err != nil {
			if !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), "toVersion") {
				t.Fatalf("%q: %v", spec, err)
			}
			return
		}
		if v.ID == "" || v.Seq < 1 || v.Seq > 3 {
			t.Fatalf("%q: %+v", spec, v)
		}
	})
}
