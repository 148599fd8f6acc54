// Package broken does not type-check: its references fall back to the
// heuristics.
package broken

// Bad returns a string where an int is due.
func Bad() int { return helper() }

func helper() string { return "x" }
