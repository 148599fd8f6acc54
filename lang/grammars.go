package lang

// The grammar modules of the languages sdl indexes are pinned in go.mod;
// each language's file registers its grammar from its init function.
