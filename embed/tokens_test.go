package embed_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sdl-dev/sdl/embed"
	"github.com/sdl-dev/sdl/lang"
)

func TestTokens(t *testing.T) {
	for in, want := range map[string]string{
		"getHTTPResponse(userID, max_retries)":                "get http response user id max retries",
		"// Parse the config file; return the IDs":            "parse config file ids",
		"func (s *Server) ServeHTTP2(w io.Writer)":            "server serve http2 io writer",
		"x = 42 + y_1 - 0x1F":                                 "0x1",
		"Größe überprüfen":                                    "größe überprüfen",
		"a_very_long_identifier_with_many_parts_that_goes_on": "long identifier many parts goes",
	} {
		if got := strings.Join(embed.Tokens(in), " "); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// The model splits identifiers as the full-text index does.
func TestTokensSplitLikeLang(t *testing.T) {
	for _, id := range []string{"getHTTPResponse", "parseURLs", "XMLHttpRequest", "user_id", "IDs", "HTTPServer", "snake_Case_Mix",
		"utf8String", "__init__", "JSONToYAML", "toString", "ABC"} {
		var want []string
		for _, p := range lang.SplitIdent(id) {
			if len(p) >= 2 && len(embed.Tokens(p)) == 1 {
				want = append(want, p)
			}
		}
		if got := embed.Tokens(id); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%s: %v, lang splits %v", id, got, want)
		}
	}
}

func FuzzTokens(f *testing.F) {
	f.Add("getHTTPResponse(userID) // retry the request")
	f.Add("\xff\xfeA\u0301B_c")
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range embed.Tokens(s) {
			if len(tok) < 2 || !utf8.ValidString(tok) && utf8.ValidString(s) {
				t.Fatalf("token %q of %q", tok, s)
			}
			if strings.ToLower(tok) != tok && utf8.ValidString(tok) {
				t.Fatalf("token %q is not lower case", tok)
			}
		}
	})
}
