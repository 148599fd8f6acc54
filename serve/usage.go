package serve

import (
	"context"
	"sort"
	"sync"
	"time"
)

// usageStats counts, for one server session, what each tool returned and
// what reading the raw files would have cost instead.
//
// The formula (sdl.usage.stats reports it):
//
//	returned = the tokens of every answer, counted with the o200k tokenizer
//	raw      = for every answer, what reading the code it describes would
//	           cost: for each distinct file it mentions, the lines of the
//	           symbols it names there (their ranges), or the whole file when
//	           it names the file itself, at the file's bytes per line, / 4
//	           (4 bytes a token is the usual estimate for source code). A
//	           search that lists fifty symbols counts their fifty bodies,
//	           not fifty whole files nobody would read.
//	saved    = raw - returned;  ratio = raw / returned
type usageStats struct {
	mu      sync.Mutex
	started time.Time
	tools   map[string]*toolUsage
}

type toolUsage struct {
	Calls          int `json:"calls"`
	Errors         int `json:"errors"`
	TokensReturned int `json:"tokensReturned"`
	RawTokens      int `json:"rawFileTokens"`
}

func newUsageStats() *usageStats {
	return &usageStats{started: time.Now(), tools: map[string]*toolUsage{}}
}

func (u *usageStats) record(tool string, returned, raw int, isErr bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	t := u.tools[tool]
	if t == nil {
		t = &toolUsage{}
		u.tools[tool] = t
	}
	t.Calls++
	if isErr {
		t.Errors++
	}
	t.TokensReturned += returned
	t.RawTokens += raw
}

// snapshot copies the counters.
func (u *usageStats) snapshot() (time.Time, map[string]toolUsage) {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make(map[string]toolUsage, len(u.tools))
	for k, v := range u.tools {
		out[k] = *v
	}
	return u.started, out
}

// rawTokens estimates the tokens of the code an answer describes.
func rawTokens(repo *Repo, obj map[string]any) int {
	if repo == nil {
		return 0
	}
	spans := spansIn(obj, 500)
	if len(spans) == 0 {
		return 0
	}
	files := make([]string, 0, len(spans))
	for f := range spans {
		files = append(files, f)
	}
	x, err := repo.Index()
	if err != nil {
		return 0
	}
	stats, err := x.FileStats(context.Background(), files)
	if err != nil {
		return 0
	}
	n := 0
	for f, st := range stats {
		lines := spans[f].lines()
		if lines < 0 || st.Lines <= 0 || lines >= st.Lines {
			n += int(st.Size / 4)
			continue
		}
		n += int(st.Size * int64(lines) / int64(st.Lines) / 4)
	}
	return n
}

// fileSpans are the line ranges an answer names in one file; whole means
// it names the file itself.
type fileSpans struct {
	whole  bool
	ranges map[[2]int]bool
}

// lines counts the distinct lines of the spans, -1 for the whole file.
func (s *fileSpans) lines() int {
	if s.whole {
		return -1
	}
	seen := map[int]bool{}
	for r := range s.ranges {
		for l := r[0]; l <= r[1] && len(seen) < 1<<20; l++ {
			seen[l] = true
		}
	}
	return len(seen)
}

// spansIn collects the files an answer mentions (at most max) and the line
// ranges of what it names in each: an object with a file and a range
// {startLine, endLine} names those lines, one with a file and no range the
// whole file.
func spansIn(v any, max int) map[string]*fileSpans {
	out := map[string]*fileSpans{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if f, ok := x["file"].(string); ok && f != "" {
				s := out[f]
				if s == nil && len(out) < max {
					s = &fileSpans{ranges: map[[2]int]bool{}}
					out[f] = s
				}
				if s != nil {
					r, _ := x["range"].(map[string]any)
					a, okA := r["startLine"].(float64)
					b, okB := r["endLine"].(float64)
					if okA && okB && b >= a {
						s.ranges[[2]int{int(a), int(b)}] = true
					} else {
						s.whole = true
					}
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

func sortedTools(m map[string]toolUsage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
