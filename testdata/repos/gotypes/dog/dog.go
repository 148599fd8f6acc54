// Package dog has dogs.
package dog

// Dog is a Speaker and a Feeder.
type Dog struct{ bones int }

// New returns a dog.
func New() *Dog { return &Dog{} }

// Speak barks.
func (Dog) Speak() string { return helper("woof") }

// Feed gives the dog bones.
func (d *Dog) Feed(n int) int {
	d.bones += n
	return d.bones
}

func helper(s string) string { return s + "!" }

// String names the dog: the only String method of the tree.
func (d *Dog) String() string { return "dog" }

// Apply calls its parameter, which shadows the package's New.
func Apply(New func() *Dog) *Dog { return New() }
