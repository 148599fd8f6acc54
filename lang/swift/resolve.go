package swift

import "github.com/sdl-dev/sdl/lang"

// resolver is the package resolver Swift shares with Kotlin and Scala:
// imports bind whole modules.
var resolver = lang.NewPackageResolver("swift", []string{".swift"}, lang.PackageRules{Self: "self",
	StripType: lang.StripType, Std: lang.WordList(data, "std.txt"), Common: lang.WordList(data, "common_methods.txt")})
