// Command train builds the built-in embedding table of package embed from
// source trees on this machine: it tokenizes code and comments into
// sub-tokens (embed.Tokens), counts which sub-tokens occur near each other,
// weighs the counts by positive pointwise mutual information, and keeps the
// leading singular vectors of that matrix (a randomized SVD with gonum).
// Every step is deterministic: files in path order, fixed seeds, no
// concurrency whose order reaches the result. `make embed-model` runs it;
// embed/MODEL.md says what it was trained on.
//
//	go run ./embed/train -corpus go=$(go env GOROOT)/src -corpus python=... -out embed/model.bin
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/sdl-dev/sdl/embed"
)

type corpusFlag []string

func (c *corpusFlag) String() string     { return strings.Join(*c, ",") }
func (c *corpusFlag) Set(v string) error { *c = append(*c, v); return nil }

var (
	vocabSize = flag.Int("vocab", 25000, "sub-tokens in the table")
	dims      = flag.Int("dim", 128, "dimensions")
	window    = flag.Int("window", 5, "co-occurrence window, sub-tokens each side")
	minCount  = flag.Int("min-count", 10, "least occurrences of a sub-token in the table")
	minFiles  = flag.Int("min-files", 3, "least files a sub-token occurs in")
	minPair   = flag.Int("min-pair", 10, "least window weight of a pair of sub-tokens to count")
	seed      = flag.Uint64("seed", 1, "seed of the random projection")
	out       = flag.String("out", "embed/model.bin", "the table to write")
	probes    = flag.String("probe", "login,authenticate,timeout,deadline,error,parse,cache,mutex,retry,http,file,delete,compress,encrypt,token,config,thread,sort,render,route,middleware,validate,schema,flag,completion,template,session,cookie", "print the nearest neighbours of these sub-tokens")
	maxFile   = flag.Int64("max-file-size", 1<<20, "skip larger files (generated code)")
)

var extensions = map[string]bool{".go": true, ".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true,
	".mts": true, ".cts": true, ".tsx": true, ".jsx": true, ".rs": true, ".java": true}

// skipDirs are not code people write.
var skipDirs = map[string]bool{"testdata": true, "__pycache__": true, ".git": true, "site-packages": true,
	"dist-packages": true, "vendor": false}

func main() {
	var corpora corpusFlag
	flag.Var(&corpora, "corpus", "NAME=DIR, a source tree to learn from (repeatable)")
	flag.Parse()
	if len(corpora) == 0 {
		fatalf("give at least one -corpus NAME=DIR")
	}
	start := time.Now()
	var files []string
	stats := map[string][2]int64{}
	seen := map[[32]byte]bool{}
	for _, c := range corpora {
		name, dir, ok := strings.Cut(c, "=")
		if !ok {
			fatalf("-corpus %q: want NAME=DIR", c)
		}
		fs, bytes, err := collect(dir, seen)
		if err != nil {
			fatalf("%s: %v", name, err)
		}
		stats[name] = [2]int64{int64(len(fs)), bytes}
		files = append(files, fs...)
		logf("corpus %s: %d files, %.1f MB (%s)", name, len(fs), float64(bytes)/1e6, dir)
	}

	// pass 1: sub-token counts and file counts
	counts, df := countTokens(files)
	vocab := chooseVocab(counts, df)
	logf("%d distinct sub-tokens, %d in the table", len(counts), len(vocab))
	ids := make(map[string]int32, len(vocab))
	for i, t := range vocab {
		ids[t] = int32(i)
	}

	// pass 2: co-occurrences within the window
	co := cooccur(files, ids)
	logf("%d co-occurring pairs (%.0fs)", co.nnz(), time.Since(start).Seconds())
	m := co.ppmi(uint32(*minPair))
	logf("PPMI matrix: %d non-zeros (%.0fs)", len(m.val), time.Since(start).Seconds())

	u, sv := randomizedSVD(m, *dims, *seed)
	logf("SVD done, singular values %.2f .. %.2f (%.0fs)", sv[0], sv[len(sv)-1], time.Since(start).Seconds())
	vecs := postprocess(u, sv)

	idf := make([]float64, len(vocab))
	for i, t := range vocab {
		idf[i] = math.Log(float64(len(files)+1) / float64(df[t]+1))
	}
	if err := write(*out, vocab, idf, vecs); err != nil {
		fatalf("%v", err)
	}
	fi, _ := os.Stat(*out)
	logf("wrote %s: %d bytes (%.0fs)", *out, fi.Size(), time.Since(start).Seconds())

	model, err := embed.LoadBuiltin(*out)
	if err != nil {
		fatalf("reload: %v", err)
	}
	for _, p := range strings.Split(*probes, ",") {
		nn := model.Neighbours(p, 8)
		fmt.Printf("%-10s %s\n", p, strings.Join(nn, " "))
	}
	names := make([]string, 0, len(stats))
	for n := range stats {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("corpus %s: %d files, %d bytes\n", n, stats[n][0], stats[n][1])
	}
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, "train: "+format+"\n", args...) }

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "train: "+format+"\n", args...)
	os.Exit(1)
}

// collect lists the source files under dir in path order, skipping
// duplicates (by content), generated and minified files.
func collect(dir string, seen map[[32]byte]bool) ([]string, int64, error) {
	var out []string
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDirs[d.Name()] && p != dir {
				return filepath.SkipDir
			}
			return nil
		}
		if !extensions[filepath.Ext(p)] || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if int64(len(data)) > *maxFile || minified(data) {
			return nil
		}
		sum := sha256.Sum256(data)
		if seen[sum] {
			return nil
		}
		seen[sum] = true
		out = append(out, p)
		total += int64(len(data))
		return nil
	})
	return out, total, err
}

// minified reports files whose lines are too long to be written by hand.
func minified(data []byte) bool {
	lines := 1
	for _, b := range data {
		if b == '\n' {
			lines++
		}
	}
	return len(data)/lines > 200
}

// eachFile runs f on the tokens of every file, on all CPUs; f gets the
// worker number and must keep per-worker state.
func eachFile(files []string, f func(worker int, tokens []string)) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	next := make(chan string)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for p := range next {
				data, err := os.ReadFile(p)
				if err != nil {
					fatalf("%v", err)
				}
				f(w, embed.Tokens(string(data)))
			}
		}(w)
	}
	for _, p := range files {
		next <- p
	}
	close(next)
	wg.Wait()
}

// countTokens counts each sub-token's occurrences and files. Sums do not
// depend on the order the workers finish in.
func countTokens(files []string) (map[string]int64, map[string]int64) {
	workers := runtime.GOMAXPROCS(0)
	counts := make([]map[string]int64, workers)
	dfs := make([]map[string]int64, workers)
	for w := range counts {
		counts[w], dfs[w] = map[string]int64{}, map[string]int64{}
	}
	eachFile(files, func(w int, toks []string) {
		inFile := map[string]bool{}
		for _, t := range toks {
			counts[w][t]++
			if !inFile[t] {
				inFile[t] = true
				dfs[w][t]++
			}
		}
	})
	for w := 1; w < workers; w++ {
		for t, n := range counts[w] {
			counts[0][t] += n
		}
		for t, n := range dfs[w] {
			dfs[0][t] += n
		}
	}
	return counts[0], dfs[0]
}

// chooseVocab keeps the most frequent sub-tokens that occur in enough
// files, ordered by count then text, and returns them sorted by text.
func chooseVocab(counts, df map[string]int64) []string {
	var cand []string
	for t, n := range counts {
		if n >= int64(*minCount) && df[t] >= int64(*minFiles) {
			cand = append(cand, t)
		}
	}
	sort.Slice(cand, func(i, j int) bool {
		if counts[cand[i]] != counts[cand[j]] {
			return counts[cand[i]] > counts[cand[j]]
		}
		return cand[i] < cand[j]
	})
	if len(cand) > *vocabSize {
		cand = cand[:*vocabSize]
	}
	sort.Strings(cand)
	return cand
}

// cooc holds symmetric co-occurrence weights in the upper triangle of a
// dense matrix, row a holding columns b >= a. A pair at distance d of the
// window W weighs W-d+1. Workers add atomically: sums do not depend on
// the order they run in.
type cooc struct {
	n   int
	tri []uint32
}

func (c *cooc) at(a, b int) int {
	if a > b {
		a, b = b, a
	}
	// rows 0..a-1 hold n, n-1, ... n-a+1 entries
	return a*c.n - a*(a-1)/2 + (b - a)
}

func (c *cooc) nnz() int {
	n := 0
	for _, v := range c.tri {
		if v > 0 {
			n++
		}
	}
	return n
}

func cooccur(files []string, ids map[string]int32) *cooc {
	n := len(ids)
	c := &cooc{n: n, tri: make([]uint32, n*(n+1)/2)}
	W := *window
	eachFile(files, func(w int, toks []string) {
		seq := make([]int32, 0, len(toks))
		for _, t := range toks {
			if id, ok := ids[t]; ok {
				seq = append(seq, id)
			}
		}
		for i, a := range seq {
			for d := 1; d <= W && i+d < len(seq); d++ {
				b := seq[i+d]
				if a == b {
					continue
				}
				atomic.AddUint32(&c.tri[c.at(int(a), int(b))], uint32(W-d+1))
			}
		}
	})
	return c
}

// csr is a sparse matrix in compressed rows.
type csr struct {
	n   int
	ptr []int
	col []int32
	val []float32
}

// ppmi turns the counts into positive PMI with the context distribution
// smoothed by the power 0.75 (Levy, Goldberg and Dagan 2015). Pairs seen
// less than minPair (in window weight) are noise and left out.
func (c *cooc) ppmi(minPair uint32) *csr {
	n := c.n
	row := make([]float64, n)
	var total float64
	for a := 0; a < n; a++ {
		base := c.at(a, a)
		for b := a + 1; b < n; b++ {
			v := float64(c.tri[base+b-a])
			row[a] += v
			row[b] += v
			total += 2 * v
		}
	}
	ctx := make([]float64, n)
	var ctxTotal float64
	for i, r := range row {
		ctx[i] = math.Pow(r, 0.75)
		ctxTotal += ctx[i]
	}
	out := &csr{n: n, ptr: make([]int, n+1)}
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if a == b {
				continue
			}
			v := c.tri[c.at(a, b)]
			if v < minPair {
				continue
			}
			if p := math.Log(float64(v) * ctxTotal / (row[a] * ctx[b])); p > 0 {
				out.col = append(out.col, int32(b))
				out.val = append(out.val, float32(p))
			}
		}
		out.ptr[a+1] = len(out.col)
	}
	c.tri = nil
	return out
}

// mul returns m·x (trans false) or mᵀ·x (trans true). gonum has no sparse
// matrices; the dense work below is gonum's.
func (m *csr) mul(x *mat.Dense, trans bool) *mat.Dense {
	_, k := x.Dims()
	out := mat.NewDense(m.n, k, nil)
	for i := 0; i < m.n; i++ {
		for p := m.ptr[i]; p < m.ptr[i+1]; p++ {
			j, v := int(m.col[p]), float64(m.val[p])
			if trans {
				// row i of m contributes v·x[i] to out[j]
				orow, xrow := out.RawRowView(j), x.RawRowView(i)
				for c := range orow {
					orow[c] += v * xrow[c]
				}
			} else {
				orow, xrow := out.RawRowView(i), x.RawRowView(j)
				for c := range orow {
					orow[c] += v * xrow[c]
				}
			}
		}
	}
	return out
}

// orthonormal returns an orthonormal basis of the columns of y: the thin
// Q of its QR factorization (mat.QR would build the full square Q).
func orthonormal(y *mat.Dense) *mat.Dense {
	_, c := y.Dims()
	q := mat.DenseCopyOf(y)
	a := q.RawMatrix()
	tau := make([]float64, c)
	work := []float64{0}
	lapack64.Geqrf(a, tau, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Geqrf(a, tau, work, len(work))
	lapack64.Orgqr(a, tau, work, -1)
	if n := int(work[0]); n > len(work) {
		work = make([]float64, n)
	}
	lapack64.Orgqr(a, tau, work, len(work))
	return q
}

// randomizedSVD returns the leading k left singular vectors and values of
// m (Halko, Martinsson and Tropp 2011), with power iterations.
func randomizedSVD(m *csr, k int, seed uint64) (*mat.Dense, []float64) {
	l := k + 32
	rng := rand.New(rand.NewPCG(seed, 0x5d1))
	omega := mat.NewDense(m.n, l, nil)
	for i := 0; i < m.n; i++ {
		for j := 0; j < l; j++ {
			omega.Set(i, j, rng.NormFloat64())
		}
	}
	q := orthonormal(m.mul(omega, false))
	for it := 0; it < 4; it++ {
		z := orthonormal(m.mul(q, true))
		q = orthonormal(m.mul(z, false))
	}
	// B = Qᵀ·M, as (Mᵀ·Q)ᵀ
	bt := m.mul(q, true)
	var svd mat.SVD
	if !svd.Factorize(bt.T(), mat.SVDThin) {
		fatalf("SVD did not converge")
	}
	var ub mat.Dense
	svd.UTo(&ub)
	var u mat.Dense
	u.Mul(q, &ub)
	vals := svd.Values(nil)
	return mat.DenseCopyOf(u.Slice(0, m.n, 0, k)), vals[:k]
}

// postprocess weighs the singular vectors by the root of their values,
// normalizes each row, and removes the mean and the two dominant
// directions, which every word shares and which otherwise make the
// average of many words look alike (Mu and Viswanath 2018).
func postprocess(u *mat.Dense, sv []float64) *mat.Dense {
	n, k := u.Dims()
	w := mat.NewDense(n, k, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			w.Set(i, j, u.At(i, j)*math.Sqrt(sv[j]))
		}
	}
	normalizeRows(w)
	mean := make([]float64, k)
	for i := 0; i < n; i++ {
		for j, v := range w.RawRowView(i) {
			mean[j] += v / float64(n)
		}
	}
	for i := 0; i < n; i++ {
		row := w.RawRowView(i)
		for j := range row {
			row[j] -= mean[j]
		}
	}
	var svd mat.SVD
	if !svd.Factorize(w, mat.SVDThin) {
		fatalf("SVD of the table did not converge")
	}
	var v mat.Dense
	svd.VTo(&v)
	for d := 0; d < 2; d++ {
		dir := mat.Col(nil, d, &v)
		for i := 0; i < n; i++ {
			row := w.RawRowView(i)
			var dot float64
			for j := range row {
				dot += row[j] * dir[j]
			}
			for j := range row {
				row[j] -= dot * dir[j]
			}
		}
	}
	normalizeRows(w)
	return w
}

func normalizeRows(w *mat.Dense) {
	n, _ := w.Dims()
	for i := 0; i < n; i++ {
		row := w.RawRowView(i)
		var s float64
		for _, v := range row {
			s += v * v
		}
		if s = math.Sqrt(s); s > 0 {
			for j := range row {
				row[j] /= s
			}
		}
	}
}

// write stores the table in embed's format (see embed.LoadBuiltin): each
// row quantized to int8 by its largest component, with its idf and the
// inverse of its quantized norm as integers.
func write(path string, vocab []string, idf []float64, vecs *mat.Dense) error {
	n, k := vecs.Dims()
	if n != len(vocab) {
		return errors.New("vocabulary and table differ in size")
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(embed.BuiltinMagic)
	binary.Write(w, binary.LittleEndian, uint32(n))
	binary.Write(w, binary.LittleEndian, uint32(k))
	for i, t := range vocab {
		row := vecs.RawRowView(i)
		var maxAbs float64
		for _, v := range row {
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
		q := make([]int8, k)
		var norm float64
		for j, v := range row {
			x := math.Round(v / maxAbs * 127)
			q[j] = int8(x)
			norm += x * x
		}
		w.WriteByte(byte(len(t)))
		w.WriteString(t)
		binary.Write(w, binary.LittleEndian, uint16(math.Round(math.Max(idf[i], 0)*embed.IDFScale)))
		binary.Write(w, binary.LittleEndian, uint16(math.Round(embed.NormScale/math.Sqrt(norm))))
		binary.Write(w, binary.LittleEndian, q)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}
