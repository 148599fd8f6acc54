// Package schema owns the layout of the sdl index file: its DDL (embedded
// .sql files), its schema version and application id, the helpers that
// create and open it, and the typed rows that the index and query packages
// exchange through it. It imports nothing of sdl's.
package schema
