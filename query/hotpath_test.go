package query_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/query"
)

// A function per language that uses "cache" as a real name on some lines,
// and on others only inside a string, a comment or a longer name. The
// "// real" lines are those an AST match must find.
var hotFiles = map[string]string{
	"hot.go": `package hot

func Lookup(key string) string {
	cacheSize := 10 // the cache size
	_ = cacheSize
	msg := "cache miss" + "cache"
	if v, ok := cache[key]; ok { // real
		return v
	}
	one := 1
	two := 2
	three := 3
	four := 4
	_, _, _, _ = one, two, three, four
	cache[key] = msg // real
	return msg
}
`,
	"hot.py": `def lookup(key):
    cache_size = 10  # the cache size
    msg = "cache miss" + "cache"
    if key in cache:  # real
        return cache[key]  # real
    one = 1
    two = 2
    three = 3
    four = 4
    five = 5
    obj.cache = msg  # real
    return msg
`,
	"hot.js": `function lookup(key) {
  const cacheSize = 10; // the cache size
  const msg = "cache miss" + "cache";
  if (this.cache.has(key)) { // real
    return msg;
  }
  const one = 1;
  const two = 2;
  const three = 3;
  const four = 4;
  cache.set(key, msg); // real
  return msg;
}
`,
	"hot.ts": `export function lookup(key: string): string {
  const cacheSize: number = 10; // the cache size
  const msg = "cache miss" + "cache";
  if (cache.has(key)) { // real
    return msg;
  }
  const one = 1;
  const two = 2;
  const three = 3;
  const four = 4;
  const cached = cache.get(key); // real
  return cached ?? msg;
}
`,
	"hot.rs": `pub fn lookup(key: &str) -> String {
    let cache_size = 10; // the cache size
    let msg = "cache miss" + "cache";
    if let Some(v) = cache.get(key) { // real
        return v.clone();
    }
    let one = 1;
    let two = 2;
    let three = 3;
    let four = 4;
    self.cache.insert(key, msg); // real
    msg.to_string()
}
`,
	"Hot.cs": `class Hot {
  string lookup(string key) {
    int cacheSize = 10; // the cache size
    string msg = "cache miss" + "cache";
    if (cache.ContainsKey(key)) { // real
      return msg;
    }
    int one = 1;
    int two = 2;
    int three = 3;
    int four = 4;
    this.cache[key] = msg; // real
    return msg;
  }
}
`,
	"hot.rb": `def lookup(key)
  cache_size = 10 # the cache size
  msg = "cache miss" + "cache"
  if cache.key?(key) # real
    return msg
  end
  one = 1
  two = 2
  three = 3
  four = 4
  @cache[key] = msg # real
  msg
end
`,
	"hot.php": `<?php
function lookup($key) {
    $cacheSize = 10; // the cache size
    $msg = "cache miss" . "cache";
    if (isset($cache[$key])) { // real
        return $msg;
    }
    $one = 1;
    $two = 2;
    $three = 3;
    $four = 4;
    $this->cache[$key] = "$msg"; // real
    return $msg;
}
`,
	"hot.sh": `lookup() {
  local cache_size=10 # the cache size
  local msg="cache miss"
  if [[ -n "${cache[$1]}" ]]; then # real
    return 0
  fi
  local one=1
  local two=2
  local three=3
  local four=4
  cache[$1]="$msg" # real
  echo "$msg"
}
`,
	"hot.c": `const char *lookup(const char *key)
{
    int cacheSize = 10; /* the cache size */
    const char *msg = "cache miss" "cache";
    if (cache_has(cache, key)) { // real
        return msg;
    }
    int one = 1;
    int two = 2;
    int three = 3;
    int four = 4;
    obj->cache = msg; // real
    return msg;
}
`,
	"hot.cpp": `std::string lookup(const std::string& key) {
    int cacheSize = 10; // the cache size
    std::string msg = "cache miss" "cache";
    if (cache.count(key)) { // real
        return msg;
    }
    int one = 1;
    int two = 2;
    int three = 3;
    int four = 4;
    this->cache[key] = msg; // real
    return msg;
}
`,
	"hot.kt": `fun lookup(key: String): String {
    val cacheSize = 10 // the cache size
    val msg = "cache miss" + "cache"
    if (cache.containsKey(key)) { // real
        return msg
    }
    val one = 1
    val two = 2
    val three = 3
    val four = 4
    this.cache[key] = "$msg" // real
    return msg
}
`,
	"hot.swift": `func lookup(_ key: String) -> String {
    let cacheSize = 10 // the cache size
    let msg = "cache miss" + "cache"
    if cache[key] != nil { // real
        return msg
    }
    let one = 1
    let two = 2
    let three = 3
    let four = 4
    self.cache[key] = "\(msg)" // real
    return msg
}
`,
	"Hot.java": `class Hot {
  String lookup(String key) {
    int cacheSize = 10; // the cache size
    String msg = "cache miss" + "cache";
    if (cache.containsKey(key)) { // real
      return msg;
    }
    int one = 1;
    int two = 2;
    int three = 3;
    int four = 4;
    this.cache.put(key, msg); // real
    return msg;
  }
}
`,
}

// hotRepo writes the hot-path fixture and indexes it.
func hotRepo(t *testing.T) *query.Index {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range hotFiles {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return indexRepo(t, root)
}

// lookupID finds the lookup function of a hot file.
func lookupID(t *testing.T, x *query.Index, file string) string {
	t.Helper()
	for _, s := range symbolsOf(t, x, file) {
		if strings.EqualFold(s.Qualified, "lookup") || s.Qualified == "Hot.lookup" {
			return s.ID
		}
	}
	t.Fatalf("no lookup in %s", file)
	return ""
}

// realLines are the lines of a hot file marked "real".
func realLines(src string) []int {
	var out []int
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, "// real") || strings.Contains(l, "# real") {
			out = append(out, i+1)
		}
	}
	return out
}

func TestHotPathASTMatches(t *testing.T) {
	ctx := context.Background()
	x := hotRepo(t)
	for file, src := range hotFiles {
		t.Run(file, func(t *testing.T) {
			id := lookupID(t, x, file)
			zero := 0
			resp, err := x.HotPath(ctx, query.HotPathRequest{SymbolID: id, IdentifiersToFind: []string{"cache"}, ContextLines: &zero})
			if err != nil {
				t.Fatal(err)
			}
			want := realLines(src)
			if len(resp.MatchedLineNumbers) != len(want) {
				t.Fatalf("matched lines %v, want %v\n%s", resp.MatchedLineNumbers, want, resp.Excerpt)
			}
			for i := range want {
				if resp.MatchedLineNumbers[i] != want[i] {
					t.Fatalf("matched lines %v, want %v", resp.MatchedLineNumbers, want)
				}
			}
			if len(resp.MatchedIdentifiers) != 1 || resp.MatchedIdentifiers[0] != "cache" || len(resp.TextMatchedIdentifiers) != 0 {
				t.Errorf("matched %v, text-only %v", resp.MatchedIdentifiers, resp.TextMatchedIdentifiers)
			}
			// the string, the comment and the longer name are not shown
			for _, not := range []string{"cache miss", "the cache size", "acheSize", "ache_size"} {
				if strings.Contains(resp.Excerpt, not) {
					t.Errorf("excerpt shows %q:\n%s", not, resp.Excerpt)
				}
			}
			// line numbers and a gap marker between the two matches
			if !strings.Contains(resp.Excerpt, "⋮ ") {
				t.Errorf("no gap marker:\n%s", resp.Excerpt)
			}
			for _, n := range want {
				line := strings.Split(src, "\n")[n-1]
				if !strings.Contains(resp.Excerpt, strings.TrimSpace(line)) {
					t.Errorf("excerpt lacks line %d %q:\n%s", n, line, resp.Excerpt)
				}
			}
			if resp.EstimatedTokens != query.Tokens(resp.Excerpt) {
				t.Errorf("estimatedTokens %d, real %d", resp.EstimatedTokens, query.Tokens(resp.Excerpt))
			}
		})
	}
}

// TestHotPathTextFallback: a name found only in strings or comments, or
// inside longer names, is shown from its text and reported as such.
func TestHotPathTextFallback(t *testing.T) {
	ctx := context.Background()
	x := hotRepo(t)
	zero := 0
	resp, err := x.HotPath(ctx, query.HotPathRequest{SymbolID: lookupID(t, x, "hot.go"),
		IdentifiersToFind: []string{"miss", "Size", "absent"}, ContextLines: &zero})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.MatchedIdentifiers) != 0 || strings.Join(resp.TextMatchedIdentifiers, ",") != "miss,Size" ||
		strings.Join(resp.NotFound, ",") != "absent" {
		t.Errorf("ast %v, text %v, not found %v", resp.MatchedIdentifiers, resp.TextMatchedIdentifiers, resp.NotFound)
	}
	// "miss" is a word in a string (line 6); "Size" only inside cacheSize (lines 4, 5)
	if strings.Trim(strings.Join(strings.Fields(strings.Trim(fmtInts(resp.MatchedLineNumbers), "[]")), ","), ",") != "4,5,6" {
		t.Errorf("lines %v, want [4 5 6]", resp.MatchedLineNumbers)
	}
}

func fmtInts(ns []int) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(" " + itoa(n))
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// TestHotPathContextAndCaps: context lines widen each excerpt and merge
// neighbours; the line and token caps are never exceeded.
func TestHotPathContextAndCaps(t *testing.T) {
	ctx := context.Background()
	x := hotRepo(t)
	id := lookupID(t, x, "hot.go")
	one := 1
	resp, err := x.HotPath(ctx, query.HotPathRequest{SymbolID: id, IdentifiersToFind: []string{"cache"}, ContextLines: &one})
	if err != nil {
		t.Fatal(err)
	}
	// header 3; lines 6-8 around 7; 14-16 around 15; gaps 4-5, 9-13 and 17
	want := []string{"3  func Lookup", "⋮ 2 lines", "6  ", "7  ", "8  ", "⋮ 5 lines", "14  ", "15  ", "16  ", "⋮ 1 line"}
	got := strings.Split(resp.Excerpt, "\n")
	if len(got) != len(want) {
		t.Fatalf("excerpt:\n%s", resp.Excerpt)
	}
	for i := range want {
		if !strings.HasPrefix(strings.TrimLeft(got[i], " "), want[i]) {
			t.Fatalf("line %d is %q, want %q...\n%s", i, got[i], want[i], resp.Excerpt)
		}
	}
	if resp.Truncated {
		t.Error("truncated without caps")
	}
	for _, caps := range []struct{ lines, tokens int }{{3, 0}, {0, 25}, {4, 30}} {
		three := 3
		r, err := x.HotPath(ctx, query.HotPathRequest{SymbolID: id, IdentifiersToFind: []string{"cache", "msg"}, ContextLines: &three,
			MaxLines: caps.lines, MaxTokens: caps.tokens})
		if err != nil {
			t.Fatal(err)
		}
		n := len(strings.Split(r.Excerpt, "\n"))
		if caps.lines > 0 && n > caps.lines || caps.tokens > 0 && query.Tokens(r.Excerpt) > caps.tokens || !r.Truncated {
			t.Errorf("caps %+v: %d lines, %d tokens, truncated %v:\n%s", caps, n, query.Tokens(r.Excerpt), r.Truncated, r.Excerpt)
		}
	}
}

func TestHotPathErrors(t *testing.T) {
	ctx := context.Background()
	x := hotRepo(t)
	id := lookupID(t, x, "hot.go")
	neg, big := -1, 1000
	many := make([]string, 51)
	for i := range many {
		many[i] = "x"
	}
	for _, tc := range []struct {
		req   query.HotPathRequest
		field string
	}{
		{query.HotPathRequest{SymbolID: id}, "identifiersToFind"},
		{query.HotPathRequest{SymbolID: id, IdentifiersToFind: many}, "identifiersToFind"},
		{query.HotPathRequest{SymbolID: id, IdentifiersToFind: []string{"a\nb"}}, "identifiersToFind[0]"},
		{query.HotPathRequest{SymbolID: id, IdentifiersToFind: []string{"x"}, ContextLines: &neg}, "contextLines"},
		{query.HotPathRequest{SymbolID: id, IdentifiersToFind: []string{"x"}, ContextLines: &big}, "contextLines"},
		{query.HotPathRequest{SymbolID: id, IdentifiersToFind: []string{"x"}, MaxLines: -2}, "maxLines"},
		{query.HotPathRequest{SymbolID: id, IdentifiersToFind: []string{"x"}, MaxTokens: 1}, "maxTokens"},
		{query.HotPathRequest{IdentifiersToFind: []string{"x"}}, "symbolId"},
	} {
		_, err := x.HotPath(ctx, tc.req)
		if !errors.Is(err, query.ErrInvalid) || !strings.Contains(err.Error(), ": "+tc.field+": ") {
			t.Errorf("%+v: err %v, want ErrInvalid naming %s", tc.req, err, tc.field)
		}
	}
}
