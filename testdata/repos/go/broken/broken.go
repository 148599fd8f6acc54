package broken

// Fine is parsed despite the error below.
func Fine() int { return 1 }

func Broken( {
	return Fine(
}

func After() int { return Fine() }
