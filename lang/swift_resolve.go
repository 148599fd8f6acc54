package lang

// swBuiltins are the global functions of the Swift standard library.
var swBuiltins = wordSet("swift", "builtins.txt")

func init() {
	l := ByName("swift")
	l.builtins = swBuiltins
	l.resolve = func(ctx *Context, r *Ref) Resolution { return swL.resolve(ctx, r, 0) }
	l.resolveImport = swL.resolveImport
}

var swL = &ktsLang{name: "swift", ext: []string{".swift"}, self: "self", stripType: StripType,
	std: wordSet("swift", "std.txt"), common: wordSet("swift", "common_methods.txt")}
