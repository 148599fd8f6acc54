package index

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sourcegraph/scip/bindings/go/scip"
)

// The scip package's bindings are the reference: this file compares the
// decoder and the symbol parser of scipwire.go with them on the committed
// SCIP indexes. They are linked into tests only.

// scipFixtures are the committed SCIP indexes.
func scipFixtures(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "scip", "*.scip"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no SCIP fixtures: %v", err)
	}
	return files
}

// decoded is an index as the fields importSCIP reads, from either decoder.
type decoded struct {
	Docs     []scipDocument
	External []scipSymbolInfo
}

func decodeOurs(data []byte) (*decoded, error) {
	var out decoded
	err := decodeSCIP(context.Background(), bufio.NewReader(bytes.NewReader(data)), scipVisitor{
		document:       func(d *scipDocument) error { out.Docs = append(out.Docs, *d); return nil },
		externalSymbol: func(si *scipSymbolInfo) error { out.External = append(out.External, *si); return nil },
	})
	return &out, err
}

func decodeBindings(data []byte) (*decoded, error) {
	var out decoded
	info := func(si *scip.SymbolInformation) scipSymbolInfo {
		return scipSymbolInfo{Symbol: si.Symbol, DisplayName: si.DisplayName}
	}
	v := &scip.IndexVisitor{
		VisitDocument: func(_ context.Context, d *scip.Document) error {
			doc := scipDocument{RelativePath: d.RelativePath, Language: d.Language,
				PositionEncoding: SCIPPositionEncoding(d.PositionEncoding)}
			for _, o := range d.Occurrences {
				doc.Occurrences = append(doc.Occurrences, scipOccurrence{Range: o.Range, Symbol: o.Symbol, SymbolRoles: o.SymbolRoles})
			}
			for _, si := range d.Symbols {
				doc.Symbols = append(doc.Symbols, info(si))
			}
			out.Docs = append(out.Docs, doc)
			return nil
		},
		VisitExternalSymbol: func(_ context.Context, si *scip.SymbolInformation) error {
			out.External = append(out.External, info(si))
			return nil
		},
	}
	err := v.ParseStreaming(context.Background(), bytes.NewReader(data))
	return &out, err
}

// sameDecoded compares every field importSCIP reads; an empty range is
// the same as none.
func sameDecoded(t *testing.T, name string, got, want *decoded) {
	t.Helper()
	norm := func(d *decoded) *decoded {
		c := *d
		c.Docs = append([]scipDocument(nil), d.Docs...)
		for i := range c.Docs {
			occ := append([]scipOccurrence(nil), c.Docs[i].Occurrences...)
			for j := range occ {
				if len(occ[j].Range) == 0 {
					occ[j].Range = nil
				}
			}
			c.Docs[i].Occurrences = occ
		}
		return &c
	}
	got, want = norm(got), norm(want)
	if len(got.Docs) != len(want.Docs) || len(got.External) != len(want.External) {
		t.Fatalf("%s: %d documents, %d external symbols; bindings: %d, %d", name,
			len(got.Docs), len(got.External), len(want.Docs), len(want.External))
	}
	for i := range want.Docs {
		if !reflect.DeepEqual(got.Docs[i], want.Docs[i]) {
			t.Errorf("%s: document %d:\n got %+v\nwant %+v", name, i, got.Docs[i], want.Docs[i])
		}
	}
	if !reflect.DeepEqual(got.External, want.External) {
		t.Errorf("%s: external symbols:\n got %+v\nwant %+v", name, got.External, want.External)
	}
}

func TestSCIPDecodeMatchesBindings(t *testing.T) {
	for _, file := range scipFixtures(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := decodeBindings(data)
		if err != nil {
			t.Fatalf("%s: bindings: %v", file, err)
		}
		got, err := decodeOurs(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(got.Docs) == 0 || len(got.Docs[0].Occurrences) == 0 {
			t.Fatalf("%s: nothing decoded", file)
		}
		sameDecoded(t, file, got, want)
	}
}

// scipSymbolsOf lists every symbol a decoded index mentions.
func scipSymbolsOf(d *decoded) []string {
	var out []string
	for _, doc := range d.Docs {
		for _, o := range doc.Occurrences {
			out = append(out, o.Symbol)
		}
		for _, si := range doc.Symbols {
			out = append(out, si.Symbol)
		}
	}
	for _, si := range d.External {
		out = append(out, si.Symbol)
	}
	return out
}

// symbolCases are written to reach what the fixtures do not: escapes,
// every suffix, "." package fields, and malformed symbols.
var symbolCases = []string{
	"scip-go gomod github.com/a/b v1.0.0 `github.com/a/b/c`/Type#Method().",
	"scip-java maven org.x x 1.0 com/x/Foo#bar(+1).",
	"scip-java maven . . . com/x/Foo#[T]",
	"scip-typescript npm @types/node 1.0 `fs.d.ts`/readFile().(path)",
	"rust-analyzer cargo std . macros/println!",
	"a  b c  d e  f g `x``y`.",
	"scheme . . . meta:",
	"scheme m n v `` .",
	"local 42",
	"local a-b$",
	"local ",
	"local a.b",
	"",
	"scheme",
	"scheme m n v",
	"scheme m n v ",
	"scheme m n v x",
	"scheme m n v x(",
	"scheme m n v x(a",
	"scheme m n v x()",
	"scheme m n v (p",
	"scheme m n v [T",
	"scheme m n v `unterminated",
	"scheme m n v x%",
	"scheme m n v é.",
	"scheme m n v x.\x00",
	"sc\xffheme m n v x.",
}

// sameSymbol compares a parse with the bindings', error for error.
func sameSymbol(t *testing.T, symbol string) {
	t.Helper()
	want, werr := scip.ParseSymbol(symbol)
	got, err := parseSCIPSymbol(symbol)
	if (err != nil) != (werr != nil) {
		t.Fatalf("%q: err = %v, bindings: %v", symbol, err, werr)
	}
	if err != nil {
		return
	}
	if got.Scheme != want.Scheme || (got.Package == nil) != (want.Package == nil) || len(got.Descriptors) != len(want.Descriptors) {
		t.Fatalf("%q: got %+v, bindings %v", symbol, got, want)
	}
	if want.Package != nil && *got.Package != (scipPackage{want.Package.Manager, want.Package.Name, want.Package.Version}) {
		t.Errorf("%q: package %+v, bindings %v", symbol, got.Package, want.Package)
	}
	for i, d := range want.Descriptors {
		if got.Descriptors[i] != (scipDescriptor{d.Name, d.Disambiguator, scipSuffix(d.Suffix)}) {
			t.Errorf("%q: descriptor %d: %+v, bindings %v", symbol, i, got.Descriptors[i], d)
		}
	}
	if isSCIPLocal(symbol) != scip.IsLocalSymbol(symbol) {
		t.Errorf("%q: local %v", symbol, isSCIPLocal(symbol))
	}
}

func TestSCIPParseSymbolMatchesBindings(t *testing.T) {
	n := 0
	for _, file := range scipFixtures(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		d, err := decodeOurs(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range scipSymbolsOf(d) {
			if s != "" {
				sameSymbol(t, s)
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no symbols in the fixtures")
	}
	for _, s := range symbolCases {
		sameSymbol(t, s)
	}
	// the escapes, spelled out
	s, err := parseSCIPSymbol("a  b c  d e  f g `x``y`.")
	if err != nil {
		t.Fatal(err)
	}
	if s.Scheme != "a b" || s.Package.Manager != "c d" || s.Package.Name != "e f" || s.Package.Version != "g" ||
		len(s.Descriptors) != 1 || s.Descriptors[0] != (scipDescriptor{Name: "x`y", Suffix: scipSuffixTerm}) {
		t.Errorf("escapes: %+v", s)
	}
}

// TestSCIPDecodeBadInput: a corrupt index is an error that says where,
// and readSCIP names the file.
func TestSCIPDecodeBadInput(t *testing.T) {
	data, err := os.ReadFile(scipFixtures(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", data[:len(data)/2], "unexpected EOF"},
		{"length beyond the file", []byte("\x12\xff\xff\x03abc"), "3 of 65535 bytes"},
		{"group", []byte("\x13"), "wire type 3"},
		{"bad tag", []byte("\x80\x80"), "tag"},
		{"bad document", []byte("\x12\x02\x0a\x05"), "document"},
		{"bad UTF-8 path", []byte("\x12\x03\x0a\x01\xff"), "relative_path: invalid UTF-8"},
		{"bad occurrence", []byte("\x12\x07\x0a\x01a\x12\x02\x12\x09"), "a: occurrence 0"},
	} {
		_, err := decodeOurs(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	file := filepath.Join(t.TempDir(), "cut.scip")
	if err := os.WriteFile(file, data[:len(data)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	err = readSCIP(context.Background(), dirTree{t.TempDir()}, file, func(string) bool { return true }, &SCIPSummary{},
		map[string][2]any{}, map[string][]scipRef{}, map[string]string{}, map[string]string{})
	if !errors.Is(err, ErrSCIP) || !strings.Contains(err.Error(), file) {
		t.Errorf("readSCIP of a cut file: %v", err)
	}
}

// FuzzSCIPDecode: arbitrary bytes are an error or an index, never a panic;
// what both decoders accept, they decode alike. The bindings allocate what
// a length claims, so they only see what this decoder accepted (every
// length then fits).
func FuzzSCIPDecode(f *testing.F) {
	for _, file := range scipFixtures(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/3])
	}
	f.Add([]byte("\x12\x07\x0a\x01a\x12\x02\x08\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeOurs(data)
		if err != nil {
			return
		}
		want, werr := decodeBindings(data)
		if werr != nil {
			return // e.g. a field this decoder skips as unknown
		}
		sameDecoded(t, "input", got, want)
	})
}

// FuzzSCIPSymbol: the symbol parser never panics and agrees with the
// bindings wherever they do not panic themselves.
func FuzzSCIPSymbol(f *testing.F) {
	for _, file := range scipFixtures(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		d, err := decodeOurs(data)
		if err != nil {
			f.Fatal(err)
		}
		for _, s := range scipSymbolsOf(d) {
			f.Add(s)
		}
	}
	for _, s := range symbolCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, symbol string) {
		_, _ = parseSCIPSymbol(symbol)
		if bindingsPanic(symbol) {
			return
		}
		sameSymbol(t, symbol)
	})
}

func bindingsPanic(symbol string) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
		}
	}()
	_, _ = scip.ParseSymbol(symbol)
	return false
}
