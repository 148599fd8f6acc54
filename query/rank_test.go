package query_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/query"
)

// rankFiles is gin's shape in small: the code that renders JSON, and many
// more tests whose names repeat the words of a task about it.
var rankFiles = map[string]string{
	"go.mod": "module example.com/web\n",
	"context.go": `package web

// Context carries a request and its response.
type Context struct{ status int }

// JSON serializes the given struct as JSON into the response body.
func (c *Context) JSON(code int, obj any) { c.Render(code, obj) }

// Render writes the response.
func (c *Context) Render(code int, obj any) { c.status = code }
`,
	"render_test.go": testFuncs("TestRenderJSON", "TestRenderJSONError", "TestRenderIndentedJSON", "TestRenderAsciiJSON",
		"TestRenderPureJSON", "TestRenderSecureJSON", "TestContextRenderJSON", "TestContextRenderNoContentJSON",
		"TestRenderJSONResponse", "TestRenderJsonpJSON", "TestContextRenderPureJSON", "TestContextRenderSecureJSON"),
}

func testFuncs(names ...string) string {
	var b strings.Builder
	b.WriteString("package web\n\nimport \"testing\"\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\n// %s renders a JSON response.\nfunc %s(t *testing.T) {\n\tc := &Context{}\n\tc.JSON(200, nil)\n\tc.Render(200, nil)\n}\n", n, n)
	}
	return b.String()
}

func rankRepo(t *testing.T) *query.Index {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range rankFiles {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return indexRepo(t, root)
}

// TestRankDefinitionsAboveTests: a query about code ranks the code it asks
// about above the tests that repeat its words, in search and in slices; a
// query that asks for tests gets them first.
func TestRankDefinitionsAboveTests(t *testing.T) {
	ctx := context.Background()
	x := rankRepo(t)
	isTest := func(file string) bool { return strings.HasSuffix(file, "_test.go") }

	resp, err := x.Search(ctx, query.SearchRequest{Query: "render JSON response", Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	seenTest, jsonAt := false, -1
	for i, r := range resp.Results {
		names = append(names, r.Name)
		if isTest(r.File) {
			seenTest = true
		} else if seenTest {
			t.Errorf("definition %s ranks below a test: %v", r.Name, names)
		}
		if r.Qualified == "Context.JSON" {
			jsonAt = i
		}
	}
	if jsonAt < 0 || jsonAt > 2 {
		t.Errorf("Context.JSON at %d of %v, want in the first 3", jsonAt, names)
	}

	resp, err = x.Search(ctx, query.SearchRequest{Query: "tests of render JSON response", Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || !isTest(resp.Results[0].File) {
		t.Errorf("a query for tests: first result %+v, want a test", resp.Results)
	}

	sl, err := x.BuildSlice(ctx, query.SliceRequest{TaskText: "render the JSON response"})
	if err != nil {
		t.Fatal(err)
	}
	var cards []string
	seenTest, jsonAt = false, -1
	for i, c := range sl.Slice.Cards {
		cards = append(cards, c.Name)
		if isTest(c.File) {
			seenTest = true
		} else if seenTest {
			t.Errorf("slice: definition %s ranks below a test: %v", c.Name, cards)
		}
		if c.Name == "JSON" && c.Container == "Context" {
			jsonAt = i
		}
	}
	if jsonAt < 0 || jsonAt > 2 {
		t.Errorf("slice: Context.JSON at %d of %v, want in the first 3", jsonAt, cards)
	}
}
