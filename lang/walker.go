package lang

import (
	"io/fs"
	"unsafe"
)

// Walker is a language whose extractor is Go code that walks the syntax
// tree (an Extractor) rather than a tags query: the way a room such as
// lang/python adds a language that a query cannot describe (lang/bash is a
// Spec). Everything but Name, Grammar and Extract is optional.
type Walker struct {
	Name       string
	Extensions []string // with the dot
	Filenames  []string // exact base names, for files without a telling extension
	Grammar    unsafe.Pointer
	// Comments, Strings and Idents are the node kinds of comments, string
	// literals and identifiers (full-text words and fingerprints).
	Comments, Strings, Idents []string
	// Data holds the room's data files, embedded: testpaths.txt and
	// effects.txt are read at registration; word lists through WordFile.
	Data fs.FS
	// Builtins are names every file may call without an import: calls to
	// them are not resolved and summaries leave them out.
	Builtins map[string]bool
	// Extract makes a file's symbols, references and imports.
	Extract func(x *Extractor)
	// Resolve and ResolveImport bind references and imported names.
	Resolve       func(ctx *Context, r *Ref) Resolution
	ResolveImport func(ctx *Context, imp *Import, name string) Resolution
	// Skeleton is how the skeleton renderer reads the language.
	Skeleton *SkelRules
	// Project reads the language's project files (go.mod, package.json).
	Project ProjectReader
	// Fixup, when set, returns what the parser reads instead of a file's
	// source, of the same length, where the grammar cannot read valid
	// code; the tree keeps the source as its text.
	Fixup func(src []byte) []byte
	// Insert, when set, returns what the parser reads where the grammar
	// needs bytes the code lacks (C# 12's "class C(int x) : B(x);" has no
	// body, which tree-sitter-c-sharp requires: the room reads "{}" for its
	// ";"), with the ascending offsets in that text of the bytes it added,
	// or nil when it adds none. The tree keeps the source as its text, its
	// ranges mapped back: an added byte is an empty node.
	Insert func(src []byte) ([]byte, []uint32)
	// Pick, when set, chooses the language a file is parsed as from its
	// content (a .h file is C or C++ by what it holds), and may return the
	// source with what the grammar cannot read blanked out: the same
	// length, so that every offset and line still holds.
	Pick func(filePath string, src []byte) (*Language, []byte)
}

// RegisterWalker adds the walker-based language of a room, from the
// room's init function.
func RegisterWalker(w Walker) *Language {
	l := &Language{Name: w.Name, Extensions: w.Extensions, Filenames: w.Filenames, Project: w.Project,
		extract: w.Extract, resolve: w.Resolve, resolveImport: w.ResolveImport, data: w.Data, builtins: w.Builtins, fixup: w.Fixup, insert: w.Insert, pick: w.Pick}
	register(l, w.Grammar)
	l.setSyntax(w.Comments, w.Strings, w.Idents)
	if w.Skeleton != nil {
		skelRulesByName[w.Name] = w.Skeleton
	}
	return l
}
