package schema

import "strings"

// MaxInList is how many values one statement binds in an IN list, and
// MaxInListTwice how many when it names the list twice: both well under
// the 999 variables older SQLite builds allow, so the index and the
// readers ask a long list of ids in chunks of one size.
const (
	MaxInList      = 500
	MaxInListTwice = 400
)

// Placeholders is the "?,?,?" of an IN list of n values.
func Placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?,", n-1) + "?"
}

// Args is vals as a statement's arguments.
func Args[T any](vals []T) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}
