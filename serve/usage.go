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
//	raw      = for every answer, the sum over the distinct files it mentions
//	           of each whole file's size in bytes / 4 (the cost of reading
//	           those files instead; 4 bytes a token is the usual estimate
//	           for source code)
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

// rawTokens estimates the tokens of the whole files an answer mentions.
func rawTokens(repo *Repo, obj map[string]any) int {
	if repo == nil {
		return 0
	}
	files := filesIn(obj, 500)
	if len(files) == 0 {
		return 0
	}
	x, err := repo.Index()
	if err != nil {
		return 0
	}
	sizes, err := x.FileSizes(context.Background(), files)
	if err != nil {
		return 0
	}
	n := 0
	for _, s := range sizes {
		n += int(s / 4)
	}
	return n
}

func sortedTools(m map[string]toolUsage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
