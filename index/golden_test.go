package index

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdl-dev/sdl/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixtures lists the fixture repositories under testdata/repos.
func fixtures(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob("../testdata/repos/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixture repositories: %v", err)
	}
	return dirs
}

// testOptions index a fixture reproducibly.
func testOptions(root, db string) Options {
	return Options{Root: root, DB: db, NoGit: true, Workers: 2, Now: time.Unix(1700000000, 0), SDLVersion: "test"}
}

func indexFixture(t *testing.T, root string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := Run(context.Background(), testOptions(root, db)); err != nil {
		t.Fatalf("index %s: %v", root, err)
	}
	return db
}

// TestGolden indexes each fixture repository and compares its symbols,
// edges and files with the golden listings in testdata/golden.
func TestGolden(t *testing.T) {
	for _, dir := range fixtures(t) {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			// the Go goldens hold what precise mode proves, where it can run
			db := filepath.Join(t.TempDir(), "index.db")
			opts := testOptions(dir, db)
			if _, err := exec.LookPath("go"); err == nil {
				opts.GoPrecise = PreciseOn
			}
			if _, err := Run(context.Background(), opts); err != nil {
				t.Fatalf("index %s: %v", dir, err)
			}
			for _, part := range []string{"symbols", "edges", "files"} {
				got := dump(t, db, part)
				golden := filepath.Join("..", "testdata", "golden", name+"."+part)
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./index -run TestGolden -update)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from %s:\n%s", part, golden, lineDiff(string(want), string(got)))
				}
			}
		})
	}
}

// dump renders part of the current view of an index as stable text.
func dump(t *testing.T, dbPath, part string) []byte {
	t.Helper()
	db, err := schema.OpenReadOnly(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b bytes.Buffer
	switch part {
	case "symbols":
		rows := query(t, db, `SELECT p.path, s.start_line, s.start_col, s.end_line, s.end_col, s.kind, s.qualified, s.visibility,
			s.signature, s.doc, s.summary, s.invariants, s.side_effects, s.is_test
			FROM symbols s JOIN paths p ON p.id = s.path_id WHERE s.to_seq IS NULL
			ORDER BY p.path, s.start_line, s.start_col, s.kind, s.qualified`)
		for _, r := range rows {
			fmt.Fprintf(&b, "%s:%s:%s-%s:%s %s %s %s", r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])
			if r[13] == "1" {
				b.WriteString(" test")
			}
			b.WriteString("\n")
			var sig map[string]any
			if r[8] != "" {
				json.Unmarshal([]byte(r[8]), &sig)
				delete(sig, "text")
				if len(sig) > 0 {
					js, _ := json.Marshal(sig)
					fmt.Fprintf(&b, "\tsig %s\n", js)
				}
			}
			if r[9] != "" {
				fmt.Fprintf(&b, "\tdoc %q\n", r[9])
			}
			fmt.Fprintf(&b, "\tsummary %q\n", r[10])
			if r[11] != "" {
				fmt.Fprintf(&b, "\tinvariants %s\n", r[11])
			}
			if r[12] != "" {
				fmt.Fprintf(&b, "\tside effects %s\n", r[12])
			}
		}
	case "edges":
		rows := query(t, db, `SELECT sp.path, s.qualified, e.kind, e.qual, e.name, COALESCE(dp.path, ''), COALESCE(d.qualified, ''),
			e.rule, e.confidence, e.count
			FROM edges e JOIN symbols s ON s.id = e.src AND s.to_seq IS NULL JOIN paths sp ON sp.id = s.path_id
			LEFT JOIN symbols d ON d.id = e.dst AND d.to_seq IS NULL LEFT JOIN paths dp ON dp.id = d.path_id
			WHERE e.to_seq IS NULL ORDER BY 1, 2, 3, 4, 5, 6, 7`)
		for _, r := range rows {
			target := r[4]
			if r[3] != "" {
				target = r[3] + "." + r[4]
			}
			if r[2] == KindImport {
				target = r[3]
				if r[4] != "" {
					target += " " + r[4]
				}
			}
			to := "?"
			if r[6] != "" {
				to = r[5] + ":" + r[6]
			}
			fmt.Fprintf(&b, "%s:%s %s %s -> %s [%s %s x%s]\n", r[0], r[1], r[2], target, to, r[7], r[8], r[9])
		}
	case "files":
		rows := query(t, db, `SELECT p.path, f.language, f.status, f.reason, f.lines, f.is_test, f.module, f.diagnostics
			FROM files f JOIN paths p ON p.id = f.path_id WHERE f.to_seq IS NULL ORDER BY p.path`)
		for _, r := range rows {
			fmt.Fprintf(&b, "%s %s %s", r[0], r[1], r[2])
			if r[3] != "" {
				fmt.Fprintf(&b, " (%s)", r[3])
			}
			fmt.Fprintf(&b, " lines=%s module=%q", r[4], r[6])
			if r[5] == "1" {
				b.WriteString(" test")
			}
			if r[7] != "" {
				fmt.Fprintf(&b, " %s", r[7])
			}
			b.WriteString("\n")
		}
	case "vectors":
		// each current symbol's text hash and vector, by id
		rows := query(t, db, `SELECT s.id, COALESCE(e.hash, '-'), COALESCE(hex(v.embedding), '-')
			FROM symbols s LEFT JOIN symbol_embeddings e ON e.rowid = s.rowid LEFT JOIN symbol_vec v ON v.rowid = s.rowid
			WHERE s.to_seq IS NULL AND s.kind != 'module' ORDER BY s.id`)
		for _, r := range rows {
			fmt.Fprintf(&b, "%s %s %s\n", r[0], r[1], r[2])
		}
	case "lengths":
		// each current symbol's full-text length, by id, as symbol_lengths
		// holds it; it must agree with FTS5's docsize table row for row
		lens := readLengthTable(t, db)
		docsize := map[int64]int64{}
		for _, r := range query(t, db, `SELECT id, hex(sz) FROM symbols_fts_docsize`) {
			var id int64
			fmt.Sscan(r[0], &id)
			rec, _ := hex.DecodeString(r[1])
			n, size, err := schema.DocsizeLength(rec, schema.SymbolsFTSColumns)
			if err != nil || size != len(rec) {
				t.Fatalf("docsize of row %d: %v (%d of %d bytes)", id, err, size, len(rec))
			}
			docsize[id] = n
		}
		for id, n := range lens {
			if docsize[id] != n {
				t.Errorf("%s: row %d: symbol_lengths %d, docsize %d", dbPath, id, n, docsize[id])
			}
		}
		for id, n := range docsize {
			if n != 0 && lens[id] != n {
				t.Errorf("%s: row %d: docsize %d, symbol_lengths %d", dbPath, id, n, lens[id])
			}
		}
		for _, r := range query(t, db, `SELECT rowid, id FROM symbols WHERE to_seq IS NULL ORDER BY id`) {
			var rowid int64
			fmt.Sscan(r[0], &rowid)
			fmt.Fprintf(&b, "%s %d\n", r[1], lens[rowid])
		}
	default:
		t.Fatalf("unknown part %q", part)
	}
	return b.Bytes()
}

func query(t *testing.T, db *sql.DB, q string, args ...any) [][]string {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// lineDiff shows the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w := strings.Split(want, "\n")
	g := strings.Split(got, "\n")
	inW := map[string]int{}
	for _, l := range w {
		inW[l]++
	}
	inG := map[string]int{}
	for _, l := range g {
		inG[l]++
	}
	var b strings.Builder
	n := 0
	for _, l := range w {
		if inG[l] == 0 && n < 40 {
			fmt.Fprintf(&b, "- %s\n", l)
			n++
		}
	}
	for _, l := range g {
		if inW[l] == 0 && n < 80 {
			fmt.Fprintf(&b, "+ %s\n", l)
			n++
		}
	}
	return b.String()
}

// readLengthTable decodes symbol_lengths: the nonzero lengths by rowid.
func readLengthTable(t *testing.T, db *sql.DB) map[int64]int64 {
	t.Helper()
	out := map[int64]int64{}
	dst := make([]int32, schema.LengthsBlock)
	for _, r := range query(t, db, `SELECT block, hex(lens) FROM symbol_lengths ORDER BY block`) {
		var block int64
		fmt.Sscan(r[0], &block)
		b, _ := hex.DecodeString(r[1])
		if err := schema.DecodeLengths(b, dst); err != nil {
			t.Fatalf("symbol_lengths block %d: %v", block, err)
		}
		if len(b) == 0 || len(schema.EncodeLengths(toUint32(dst))) != len(b) {
			t.Errorf("symbol_lengths block %d: %d bytes, not as written (an empty block is deleted)", block, len(b))
		}
		for i, n := range dst {
			if n != 0 {
				out[block*schema.LengthsBlock+int64(i)] = int64(n)
			}
		}
	}
	return out
}

func toUint32(l []int32) []uint32 {
	out := make([]uint32, len(l))
	for i, v := range l {
		out[i] = uint32(v)
	}
	return out
}
