// Package animal defines what the zoo's animals can do.
package animal

// Speaker is anything that speaks.
type Speaker interface {
	Speak() string
}

// Feeder is anything that eats.
type Feeder interface {
	Feed(n int) int
}

// Describe asks s to speak: an interface call.
func Describe(s Speaker) string {
	return "says " + s.Speak()
}
