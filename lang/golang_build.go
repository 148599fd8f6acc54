package lang

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"go/build"
	"go/build/constraint"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Go build constraints. A package often defines one name in several files,
// each for another platform or tag (file_unix.go / file_windows.go,
// //go:build !goexperiment.jsonv2). Extraction records each file's
// constraint (FileFacts.Build); resolution evaluates it for a target and
// prefers a candidate in a file the go command would compile to one it
// would not, so variant files do not make a call ambiguous. Excluded files
// stay indexed, and the calls they make resolve for a target that compiles
// them.

// ConfigGoTarget is the Table.Config key holding the Go build target
// (GoTarget.Config); without it resolution uses DefaultGoTarget.
const ConfigGoTarget = "go.target"

// GoTarget is what build constraints are evaluated for, as the go command
// would: the platform, cgo, the -tags of the build, and the tool and
// release tags of the Go version sdl was built with.
type GoTarget struct {
	GOOS, GOARCH string
	Cgo          bool
	Tags         []string // build tags (-tags)
	ToolTags     []string // goexperiment.X, amd64.v1
	ReleaseTags  []string // go1.1 ... go1.N
}

// DefaultGoTarget is go/build's default context: GOOS, GOARCH and
// CGO_ENABLED from the environment, else the machine sdl runs on, with cgo
// on where the platform supports it.
func DefaultGoTarget() GoTarget {
	c := build.Default
	return GoTarget{GOOS: c.GOOS, GOARCH: c.GOARCH, Cgo: c.CgoEnabled,
		Tags: slices.Clone(c.BuildTags), ToolTags: slices.Clone(c.ToolTags), ReleaseTags: slices.Clone(c.ReleaseTags)}
}

// WithPlatform returns t for another GOOS and GOARCH. The architecture
// feature tags (amd64.v1) of the default architecture do not carry over.
func (t GoTarget) WithPlatform(goos, goarch string) GoTarget {
	out := t
	out.GOOS, out.GOARCH = goos, goarch
	if goarch != t.GOARCH {
		out.ToolTags = nil
		for _, tag := range t.ToolTags {
			if strings.HasPrefix(tag, "goexperiment.") {
				out.ToolTags = append(out.ToolTags, tag)
			}
		}
	}
	return out
}

// String names the target for messages: "linux/amd64 cgo tags=a,b
// go1.26" (Config holds all of it).
func (t GoTarget) String() string {
	var b strings.Builder
	b.WriteString(t.GOOS + "/" + t.GOARCH)
	if t.Cgo {
		b.WriteString(" cgo")
	} else {
		b.WriteString(" nocgo")
	}
	if len(t.Tags) > 0 {
		b.WriteString(" tags=" + strings.Join(t.Tags, ","))
	}
	if n := len(t.ReleaseTags); n > 0 {
		b.WriteString(" " + t.ReleaseTags[n-1])
	}
	return b.String()
}

// Config encodes t for Table.Config(ConfigGoTarget).
func (t GoTarget) Config() []string {
	return []string{"goos=" + t.GOOS, "goarch=" + t.GOARCH, "cgo=" + strconv.FormatBool(t.Cgo),
		"tags=" + strings.Join(t.Tags, ","), "tool=" + strings.Join(t.ToolTags, ","),
		"release=" + strings.Join(t.ReleaseTags, ",")}
}

// goTargetOf decodes the target of a table, DefaultGoTarget when it holds
// none.
func goTargetOf(tab Table) GoTarget {
	cfg := tab.Config(ConfigGoTarget)
	if len(cfg) == 0 {
		return DefaultGoTarget()
	}
	var t GoTarget
	list := func(v string) []string {
		if v == "" {
			return nil
		}
		return strings.Split(v, ",")
	}
	for _, kv := range cfg {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "goos":
			t.GOOS = v
		case "goarch":
			t.GOARCH = v
		case "cgo":
			t.Cgo = v == "true"
		case "tags":
			t.Tags = list(v)
		case "tool":
			t.ToolTags = list(v)
		case "release":
			t.ReleaseTags = list(v)
		}
	}
	return t
}

// The platforms the go command knows (internal/syslist), which file-name
// suffixes name.
var (
	goKnownOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
		"hurd": true, "illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true,
		"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true}
	goUnixOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
		"hurd": true, "illumos": true, "ios": true, "linux": true, "netbsd": true, "openbsd": true, "solaris": true}
	goKnownArch = map[string]bool{"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true,
		"arm64": true, "arm64be": true, "loong64": true, "mips": true, "mipsle": true, "mips64": true,
		"mips64le": true, "mips64p32": true, "mips64p32le": true, "ppc": true, "ppc64": true, "ppc64le": true,
		"riscv": true, "riscv64": true, "s390": true, "s390x": true, "sparc": true, "sparc64": true, "wasm": true}
)

// tagSet is the set of tags a target satisfies, as go/build's matchTag
// decides them.
func (t GoTarget) tagSet() map[string]bool {
	s := map[string]bool{t.GOOS: true, t.GOARCH: true, "gc": true}
	if t.Cgo {
		s["cgo"] = true
	}
	switch t.GOOS {
	case "android":
		s["linux"] = true
	case "illumos":
		s["solaris"] = true
	case "ios":
		s["darwin"] = true
	}
	if goUnixOS[t.GOOS] {
		s["unix"] = true
	}
	for _, l := range [][]string{t.Tags, t.ToolTags, t.ReleaseTags} {
		for _, tag := range l {
			s[tag] = true
		}
	}
	return s
}

// tagKey is the canonical spelling of a tag set, a memo key.
func tagKey(s map[string]bool) string {
	keys := make([]string, 0, len(s))
	for k, on := range s {
		if on {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// goMatch evaluates a constraint expression against a tag set.
func goMatch(e constraint.Expr, s map[string]bool) bool {
	return e.Eval(func(tag string) bool {
		if tag == "boringcrypto" {
			tag = "goexperiment.boringcrypto" // its old name
		}
		return s[tag]
	})
}

// Parsed expressions and decoded tag sets, shared by every table: there
// are few distinct ones.
var (
	goExprs   sync.Map // expression text -> goParsed
	goTagSets sync.Map // goSetID -> map[string]bool
)

type goParsed struct{ e constraint.Expr } // e is nil when unparsable

func goExpr(text string) constraint.Expr {
	if p, ok := goExprs.Load(text); ok {
		return p.(goParsed).e
	}
	e, err := constraint.Parse("//go:build " + text)
	if err != nil {
		e = nil
	}
	goExprs.Store(text, goParsed{e})
	return e
}

// goSetID names a tag set by a short hash of its tagKey, a memo key, and
// keeps the set for goTagSetOf.
func goSetID(s map[string]bool) string {
	sum := sha256.Sum256([]byte(tagKey(s)))
	id := hex.EncodeToString(sum[:8])
	goTagSets.LoadOrStore(id, s)
	return id
}

// goTagSetOf is the tag set goSetID named id.
func goTagSetOf(id string) map[string]bool {
	if s, ok := goTagSets.Load(id); ok {
		return s.(map[string]bool)
	}
	return nil
}

// GoBuildConstraint is the build constraint of a Go file as one
// expression: its //go:build line (or, in older files, its // +build
// lines), its _GOOS, _GOARCH or _GOOS_GOARCH file-name suffix (before an
// optional _test), and cgo when it imports "C". "" means every target
// compiles it.
func GoBuildConstraint(filePath string, src []byte, importsC bool) string {
	var parts []constraint.Expr
	if e := goHeaderConstraint(src); e != nil {
		parts = append(parts, e)
	}
	if e := goFileNameConstraint(path.Base(filePath)); e != nil {
		parts = append(parts, e)
	}
	if importsC {
		parts = append(parts, &constraint.TagExpr{Tag: "cgo"})
	}
	if len(parts) == 0 {
		return ""
	}
	e := parts[0]
	for _, p := range parts[1:] {
		e = &constraint.AndExpr{X: e, Y: p}
	}
	return e.String()
}

// goHeaderConstraint reads the constraint lines of the comments before
// the package clause, as go/build does: a //go:build line wins over
// // +build lines, which are and-ed.
func goHeaderConstraint(src []byte) constraint.Expr {
	var goBuild constraint.Expr
	var plus []constraint.Expr
	inBlock := false
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, src = line[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSpace(line)
		if inBlock {
			if i := bytes.Index(line, []byte("*/")); i >= 0 {
				inBlock = false
				if rest := bytes.TrimSpace(line[i+2:]); len(rest) > 0 && !bytes.HasPrefix(rest, []byte("//")) {
					break
				}
			}
			continue
		}
		switch {
		case len(line) == 0:
			continue
		case bytes.HasPrefix(line, []byte("//")):
			s := string(line)
			if constraint.IsGoBuild(s) {
				if e, err := constraint.Parse(s); err == nil && goBuild == nil {
					goBuild = e
				}
			} else if constraint.IsPlusBuild(s) {
				if e, err := constraint.Parse(s); err == nil {
					plus = append(plus, e)
				}
			}
			continue
		case bytes.HasPrefix(line, []byte("/*")):
			if !bytes.Contains(line[2:], []byte("*/")) {
				inBlock = true
			}
			continue
		}
		break
	}
	if goBuild != nil || len(plus) == 0 {
		return goBuild
	}
	e := plus[0]
	for _, p := range plus[1:] {
		e = &constraint.AndExpr{X: e, Y: p}
	}
	return e
}

// goFileNameConstraint is the constraint a file name's suffix implies,
// by go/build's goodOSArchFile: name_GOOS, name_GOARCH, name_GOOS_GOARCH,
// each optionally followed by _test; the part before the first _ never
// counts ("linux.go" is no constraint).
func goFileNameConstraint(name string) constraint.Expr {
	name, _, _ = strings.Cut(name, ".")
	i := strings.IndexByte(name, '_')
	if i < 0 {
		return nil
	}
	l := strings.Split(name[i:], "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	if n >= 2 && goKnownOS[l[n-2]] && goKnownArch[l[n-1]] {
		return &constraint.AndExpr{X: &constraint.TagExpr{Tag: l[n-2]}, Y: &constraint.TagExpr{Tag: l[n-1]}}
	}
	if n >= 1 && (goKnownOS[l[n-1]] || goKnownArch[l[n-1]]) {
		return &constraint.TagExpr{Tag: l[n-1]}
	}
	return nil
}

// goDefaultKey is the tag set of the table's target.
func goDefaultKey(tab Table) string {
	return tab.Memo("go.target", func() string { return goSetID(goTargetOf(tab).tagSet()) })
}

// goContextKey is the tag set the references of file from are resolved
// under: the table's target when it compiles the file, else the nearest
// target that does (goFileTarget).
func goContextKey(tab Table, from string) string {
	return tab.Memo("go.ctx\x00"+from, func() string {
		def := goDefaultKey(tab)
		fi := tab.File(from)
		if fi == nil || fi.Build == "" {
			return def
		}
		e := goExpr(fi.Build)
		if e == nil || goMatch(e, goTagSetOf(def)) {
			return def
		}
		if s := goFileTarget(goTargetOf(tab), e); s != nil {
			return goSetID(s)
		}
		return def
	})
}

// goMaxFreeTags bounds the tags beyond the platform that goFileTarget
// turns on and off to satisfy a file's constraint (2^n tries).
const goMaxFreeTags = 6

// goFileTarget finds a target close to def under which expression e holds:
// the platforms e names, cgo on or off, and the other tags e names set
// either way, the default first in each. nil when none does.
func goFileTarget(def GoTarget, e constraint.Expr) map[string]bool {
	oses, arches := []string{def.GOOS}, []string{def.GOARCH}
	var free []string
	seen := map[string]bool{}
	var walk func(constraint.Expr)
	walk = func(x constraint.Expr) {
		switch x := x.(type) {
		case *constraint.AndExpr:
			walk(x.X)
			walk(x.Y)
		case *constraint.OrExpr:
			walk(x.X)
			walk(x.Y)
		case *constraint.NotExpr:
			walk(x.X)
		case *constraint.TagExpr:
			tag := x.Tag
			if seen[tag] {
				return
			}
			seen[tag] = true
			switch {
			case goKnownOS[tag]:
				oses = append(oses, tag)
			case tag == "unix":
				oses = append(oses, "linux", "windows")
			case goKnownArch[tag]:
				arches = append(arches, tag)
			case tag == "cgo" || tag == "gc" || tag == "gccgo":
			default:
				if len(free) < goMaxFreeTags {
					free = append(free, tag)
				}
			}
		}
	}
	walk(e)
	for _, goos := range oses {
		for _, goarch := range arches {
			for _, cgo := range []bool{def.Cgo, !def.Cgo} {
				t := def.WithPlatform(goos, goarch)
				t.Cgo = cgo
				base := t.tagSet()
				for mask := 0; mask < 1<<len(free); mask++ {
					s := base
					if mask != 0 {
						s = make(map[string]bool, len(base))
						for k, v := range base {
							s[k] = v
						}
						for i, tag := range free {
							if mask&(1<<i) != 0 {
								s[tag] = !s[tag]
							}
						}
					}
					if goMatch(e, s) {
						return s
					}
				}
			}
		}
	}
	return nil
}

// goBuilt reports whether the target file from is resolved under compiles
// file p.
func goBuilt(tab Table, from, p string) bool {
	fi := tab.File(p)
	if fi == nil || fi.Build == "" {
		return true
	}
	key := goContextKey(tab, from)
	return tab.Memo("go.built\x00"+key+"\x00"+p, func() string {
		e := goExpr(fi.Build)
		if e == nil || goMatch(e, goTagSetOf(key)) {
			return "1"
		}
		return ""
	}) == "1"
}

// GoPreferBuilt narrows candidates to those in files compiled for the
// target of file from, when that leaves any: a declaration in a file the
// build excludes loses to one it includes, and is kept when no other is.
func GoPreferBuilt(tab Table, from string, ts []*Target) []*Target {
	if len(ts) < 2 {
		return ts
	}
	built := Pick(ts, func(t *Target) bool { return goBuilt(tab, from, t.Path) })
	if len(built) > 0 {
		return built
	}
	return ts
}

// GoFileBuilt reports whether the target of tab compiles the Go file p.
func GoFileBuilt(tab Table, p string) bool {
	fi := tab.File(p)
	if fi == nil || fi.Build == "" {
		return true
	}
	e := goExpr(fi.Build)
	return e == nil || goMatch(e, goTagSetOf(goDefaultKey(tab)))
}
