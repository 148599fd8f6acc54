package swift

// emptyAttributeArgs returns what the parser reads instead of src: every
// attribute written with an empty argument list, @Option() or @MainActor(),
// loses its "()" to two spaces. The pinned grammar reads the empty pair as
// a force unwrap and reports a missing "!" (tree-sitter-swift#616, fixed
// upstream after the newest commit the module proxy serves); an attribute
// with no arguments means the same without the pair. Same length, so every
// offset and line still holds; an "@x()" in a string or comment changes
// nothing the parser keeps.
func emptyAttributeArgs(src []byte) []byte {
	var out []byte
	for i := 0; i < len(src); i++ {
		if src[i] != '@' || i > 0 && isIdent(src[i-1]) {
			continue
		}
		j := i + 1
		for j < len(src) && (isIdent(src[j]) || src[j] == '.') {
			j++
		}
		if j == i+1 || j+1 >= len(src) || src[j] != '(' || src[j+1] != ')' {
			continue
		}
		if out == nil {
			out = append([]byte(nil), src...)
		}
		out[j], out[j+1] = ' ', ' '
		i = j + 1
	}
	if out == nil {
		return src
	}
	return out
}

func isIdent(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b >= 0x80
}
