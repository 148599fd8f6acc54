package lang

import (
	"path"
	"strings"
)

// A .h header is claimed by both C and C++: the repository's other files
// decide which (Repo.ForPath), its content may still make a C header C++
// (the C room's Pick).

// Repo is what a file's language can depend on beyond its own name and
// content: the other files of its repository.
type Repo struct {
	dirs  map[string]*cSources // each directory's own C and C++ sources
	total cSources
}

type cSources struct{ c, cpp int }

// NewRepo takes the repository-relative paths of a repository's files.
func NewRepo(paths []string) *Repo {
	r := &Repo{dirs: map[string]*cSources{}}
	for _, p := range paths {
		l := ForPath(p)
		if l == nil || l.Name != "c" && l.Name != "cpp" || strings.ToLower(path.Ext(p)) == ".h" {
			continue
		}
		d := r.dirs[path.Dir(p)]
		if d == nil {
			d = &cSources{}
			r.dirs[path.Dir(p)] = d
		}
		if l.Name == "cpp" {
			d.cpp++
			r.total.cpp++
		} else {
			d.c++
			r.total.c++
		}
	}
	return r
}

// ForPath is the language of the file at p: ForPath's, except for a .h
// header, which both C and C++ claim. A header is C++ when the sources
// nearest to it are: those of its own directory, else of the closest
// directory above that has any, else of the whole repository; C++ wins a
// tie, since the C++ grammar reads C but not the reverse. Its content can
// still make a C header C++ (Language.pick), as GitHub's linguist decides
// by content; a repository of C sources keeps its headers C.
func (r *Repo) ForPath(p string) *Language {
	l := ForPath(p)
	if r == nil || l == nil || l.Name != "c" || strings.ToLower(path.Ext(p)) != ".h" {
		return l
	}
	for d := path.Dir(p); ; d = path.Dir(d) {
		if n := r.dirs[d]; n != nil {
			return r.pickHeader(*n)
		}
		if d == "." || d == "/" {
			break
		}
	}
	return r.pickHeader(r.total)
}

func (r *Repo) pickHeader(n cSources) *Language {
	if n.cpp > 0 && n.cpp >= n.c {
		return byName["cpp"]
	}
	return byName["c"]
}
