package lang_test

import (
	"slices"
	"testing"

	"github.com/sdl-dev/sdl/lang"
)

// TestUnique: one candidate binds by its unique name, several are
// ambiguous with their count, none is a name the repository lacks.
func TestUnique(t *testing.T) {
	a, b := &lang.Target{ID: "a", Name: "f"}, &lang.Target{ID: "b", Name: "f"}
	for _, c := range []struct {
		ts         []*lang.Target
		rule       string
		target     *lang.Target
		candidates int
	}{
		{nil, lang.RuleExternal, nil, 0},
		{[]*lang.Target{a}, lang.RuleUniqueName, a, 0},
		{[]*lang.Target{a, b}, lang.RuleAmbiguous, nil, 2},
	} {
		res := lang.Unique(c.ts)
		if res.Rule != c.rule || res.Target != c.target || res.Candidates != c.candidates {
			t.Errorf("Unique(%d targets) = %s %v %d, want %s %v %d", len(c.ts), res.Rule, res.Target, res.Candidates, c.rule, c.target, c.candidates)
		}
		if (res.Target != nil) != (res.Confidence > 0) {
			t.Errorf("Unique(%d targets): confidence %v for target %v", len(c.ts), res.Confidence, res.Target)
		}
	}
}

// TestBlank: code becomes spaces, line breaks stay, so the length and
// every line of what follows hold.
func TestBlank(t *testing.T) {
	b := []byte("a { x: T =>\r\n  y }\nz")
	lang.Blank(b[2:17])
	if got, want := string(b), "a          \r\n    }\nz"; got != want {
		t.Errorf("Blank: %q, want %q", got, want)
	}
}

// TestTreePath: a tree knows the path it was parsed as, which a room's
// hooks read (Lua names a returned table's functions after its file).
func TestTreePath(t *testing.T) {
	p := lang.NewParser()
	defer p.Close()
	l := lang.ForPath("lua/pl/init.lua")
	for path, want := range map[string]string{"lua/pl/init.lua": "lua/pl/init.lua", "": ""} {
		tr, err := p.ParseFile(l, path, []byte("return {}\n"))
		if err != nil {
			t.Fatal(err)
		}
		if tr.Path != want {
			t.Errorf("ParseFile(%q): Path %q, want %q", path, tr.Path, want)
		}
	}
}

// TestChildrenBefore: the statements of a block before a node, in order,
// and none of those at or after it.
func TestChildrenBefore(t *testing.T) {
	p := lang.NewParser()
	defer p.Close()
	tr, err := p.ParseFile(lang.ForPath("a.lua"), "a.lua", []byte("local a = 1\n-- note\nlocal b = 2\nprint(a)\nlocal c = 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	call := int32(-1)
	for n := range tr.Len() {
		if tr.Kind(n) == "function_call" {
			call = n
		}
	}
	var got []string
	for c := range tr.ChildrenBefore(0, call) {
		got = append(got, tr.Text(c))
	}
	if want := []string{"local a = 1", "local b = 2"}; !slices.Equal(got, want) {
		t.Errorf("ChildrenBefore(chunk, print(a)) = %q, want %q", got, want)
	}
}

func TestClosingBracket(t *testing.T) {
	for _, c := range []struct {
		s    string
		i    int
		want int
	}{
		{"f(a(b), c) d", 1, 10},
		{"${x{y}}rest", 1, 7},
		{"(unclosed", 0, -1},
		{"Map<K, List<V>> x", 3, 15},
	} {
		open, close := c.s[c.i], map[byte]byte{'(': ')', '{': '}', '<': '>'}[c.s[c.i]]
		if got := lang.ClosingBracket(c.s, c.i, open, close); got != c.want {
			t.Errorf("ClosingBracket(%q, %d) = %d, want %d", c.s, c.i, got, c.want)
		}
		if got := lang.ClosingBracket([]byte(c.s), c.i, open, close); got != c.want {
			t.Errorf("ClosingBracket([]byte(%q), %d) = %d, want %d", c.s, c.i, got, c.want)
		}
	}
}

func TestNestedCommentEnd(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"/* a */ b", 7},
		{"/* a /* b */ c */ d", 17},
		{"/* a /* b */ c", 14}, // unclosed: the rest of the file
		{"/**/x", 4},
	} {
		if got := lang.NestedCommentEnd([]byte(c.src), 0); got != c.want {
			t.Errorf("NestedCommentEnd(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}
