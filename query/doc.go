// Package query answers questions from an sdl index file: search, symbol
// cards, slices, skeletons, hot paths, windows, deltas, blast radius, risk,
// summaries and the index's own description. It only reads the file, so
// any number of readers can share it while sdl index adds a version.
package query
