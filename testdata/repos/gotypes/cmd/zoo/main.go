// Command zoo makes the animals speak.
package main

import (
	"fmt"
	"strings"

	"example.com/zoo/animal"
	pets "example.com/zoo/cat"
	"example.com/zoo/dog"
)

// keeper looks after one cat.
type keeper struct {
	cat *pets.Cat
	log strings.Builder
}

func main() {
	k := keeper{cat: pets.New()}
	k.cat.Feed(2)
	all := []animal.Speaker{dog.New(), k.cat}
	for _, a := range all {
		fmt.Println(a.Speak())
	}
	fmt.Println(animal.Describe(dog.New()))
	speak := dog.New().Speak
	Describe := func(string) {}
	Describe(speak())
	// a method of a type outside the tree that shares a name with one inside
	fmt.Println(k.log.String())
	// a method through a map index: only the types know the key's type
	kennel := map[string]*dog.Dog{"rex": dog.New()}
	kennel["rex"].Feed(1)
	// an inner d shadows the outer one
	d := dog.New()
	if d != nil {
		d := pets.New()
		d.Speak()
	}
	d.Feed(3)
}
