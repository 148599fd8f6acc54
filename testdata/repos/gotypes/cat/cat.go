// Package cat has cats.
package cat

// Cat is a Speaker (through its pointer) and a Feeder.
type Cat struct{ fish int }

// New returns a cat.
func New() *Cat { return &Cat{} }

// Speak meows.
func (c *Cat) Speak() string { return helper("meow") }

// Feed gives the cat fish.
func (c *Cat) Feed(n int) int {
	c.fish += n
	return c.fish
}

func helper(s string) string { return s + "?" }
