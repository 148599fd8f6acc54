// Package index writes the sdl index file: it walks a repository, parses
// its source files with tree-sitter (package lang), resolves references to
// symbols, derives summaries and metrics, and records each run that finds a
// change as a new version of the ledger. Everything that writes the file
// lives here; package query only reads it.
//
// A first build goes to a temporary file that is renamed into place when
// complete. Later runs are incremental: files whose content hash is
// unchanged are not parsed again, and the new version is committed in one
// transaction, so readers always see a complete version.
package index
