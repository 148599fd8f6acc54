package lang

/*
#cgo CFLAGS: -I${SRCDIR}/tsapi -std=c11
#include "tree_sitter/api.h"
*/
import "C"

import (
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// Language is everything sdl knows about one programming language: its
// grammar, the files it claims and the rules that turn its syntax trees into
// symbols and references.
type Language struct {
	Name       string   // stable lower-case name stored in the index: "go", "python", ...
	Extensions []string // with the dot: ".go"
	Filenames  []string // exact base names, for files without a telling extension
	// Project reads the language's project files, if it has any.
	Project ProjectReader

	ts unsafe.Pointer // *TSLanguage
	// The grammar's names, copied out of C on first use (loadNames): a
	// process that parses nothing, a query, does not pay for every
	// grammar's thousands of them at start-up.
	namesOnce sync.Once
	kinds     []string // grammar symbol id -> node kind
	fields    []string // field id -> field name
	fieldID   map[string]uint16
	synNames  [3][]string // setSyntax's kinds, made into syn by loadNames

	// query is the tags query of a language given by a Spec, compiled by
	// Query on first use from querySrc
	query         *Query
	queryOnce     sync.Once
	querySrc      func() (*Query, error)
	syn           syntax
	builtins      WordSet // names of builtin functions, left out of summaries
	extract       func(*Extractor)
	resolve       func(*Context, *Ref) Resolution
	resolveImport func(*Context, *Import, string) Resolution
	// pick, when set, chooses the grammar a file is parsed with from its
	// content (a .h file is C or C++ by what it holds), and may return the
	// source with what the grammar cannot read blanked out: the same
	// length, so that every offset and line still holds.
	pick func(filePath string, src []byte) (*Language, []byte)
	// data holds the data files of the language's room (testpaths.txt,
	// effects.txt, word lists).
	data      fs.FS
	testPaths testPathRules
	// effects is the side-effect table of its effects.txt (nil when it
	// has none), parsed on first use: only an index run derives effects,
	// and parsing every room's table cost each process start 0.6 ms
	effects func() *effectRules
	// fixup, when set, returns what the parser reads instead of src, of
	// the same length, where the grammar cannot read valid code; the tree
	// keeps src as its text, so that no answer shows the change.
	fixup func(src []byte) []byte
	// insert, when set, returns what the parser reads instead of the
	// (fixed-up) source when the grammar needs more text than the code
	// has, and the offsets in it of the bytes it added; the tree's ranges
	// are mapped back to the source.
	insert func(src []byte) ([]byte, []uint32)
	// noError, when set, says an ERROR node is no syntax error (Spec.NoError).
	noError func(t *Tree, n int32) bool
}

var (
	languages []*Language
	byExt     = map[string]*Language{}
	byName    = map[string]*Language{}
	byFile    = map[string]*Language{}
)

// register adds a language whose grammar is ts (a *TSLanguage). It runs from
// the init functions of the per-language files.
func register(l *Language, ts unsafe.Pointer) {
	l.ts = ts
	l.loadData()
	languages = append(languages, l)
	sort.Slice(languages, func(i, j int) bool { return languages[i].Name < languages[j].Name })
	byName[l.Name] = l
	for _, e := range l.Extensions {
		byExt[e] = l
	}
	for _, f := range l.Filenames {
		byFile[f] = l
	}
}

// All returns the registered languages, sorted by name.
func All() []*Language { return languages }

// ByName returns the language called name, or nil.
func ByName(name string) *Language { return byName[name] }

// ForPath returns the language of a file, judged by its name, or nil.
func ForPath(p string) *Language {
	base := path.Base(p)
	if l := byFile[base]; l != nil {
		return l
	}
	ext := strings.ToLower(path.Ext(base))
	return byExt[ext]
}

// loadNames copies the grammar's node kinds and field names out of C and
// makes the syntax sets of setSyntax, once.
func (l *Language) loadNames() {
	l.namesOnce.Do(func() {
		tl := (*C.TSLanguage)(l.ready())
		n := int(C.ts_language_symbol_count(tl))
		l.kinds = make([]string, n)
		for i := 0; i < n; i++ {
			l.kinds[i] = C.GoString(C.ts_language_symbol_name(tl, C.TSSymbol(i)))
		}
		nf := int(C.ts_language_field_count(tl))
		l.fields = make([]string, nf+1)
		l.fieldID = make(map[string]uint16, nf)
		for i := 1; i <= nf; i++ {
			name := C.ts_language_field_name_for_id(tl, C.TSFieldId(i))
			if name != nil {
				l.fields[i] = C.GoString(name)
				l.fieldID[l.fields[i]] = uint16(i)
			}
		}
		l.syn = syntax{comment: l.kindSet(l.synNames[0]), str: l.kindSet(l.synNames[1]), ident: l.kindSet(l.synNames[2])}
	})
}

// KindName returns the node kind for a grammar symbol id.
func (l *Language) KindName(id uint16) string {
	l.loadNames()
	if int(id) < len(l.kinds) {
		return l.kinds[id]
	}
	if id == errorSymbol {
		return "ERROR"
	}
	return ""
}

// errorSymbol is tree-sitter's ts_builtin_sym_error.
const errorSymbol = 0xFFFF

// FieldName returns the field name for a field id ("" for none).
func (l *Language) FieldName(id uint16) string {
	l.loadNames()
	if int(id) < len(l.fields) {
		return l.fields[id]
	}
	return ""
}

// FieldID returns the id of a field name, or 0 when the grammar has no such
// field.
func (l *Language) FieldID(name string) uint16 {
	l.loadNames()
	return l.fieldID[name]
}

// Grammar returns the tree-sitter language (a *TSLanguage), for callers
// that drive tree-sitter directly, such as benchmarks.
func (l *Language) Grammar() unsafe.Pointer { return l.ready() }
