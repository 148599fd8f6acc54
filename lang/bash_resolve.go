package lang

import (
	"path"
	"strings"
)

// shBuiltins are the shell's builtins and keywords: commands that are no
// function and no program. Those with effects (exit, kill, exec, eval) are
// among them too; their effects are read before resolution.
var shBuiltins = wordSet("bash", "builtins.txt")

func init() {
	l := ByName("bash")
	l.builtins = shBuiltins
	l.resolve = resolveBash
	l.resolveImport = resolveBashImport

}

func isShPath(p string) bool {
	l := ForPath(p)
	return l != nil && l.Name == "bash"
}

// shSourceFile is the repository file a source command names: a path
// that starts with an expansion ($DIR/lib.sh, "$(dirname "$0")/lib.sh",
// ${BASH_SOURCE%/*}/lib.sh) is taken relative to the script, others
// relative to the script, then to the repository root; failing those, the
// One file whose path ends so.
func shSourceFile(tab Table, fi *FileInfo, src string) string {
	rel := src
	fromExpansion := false
	if strings.HasPrefix(rel, "$") || strings.HasPrefix(rel, "`") {
		i := shExpansionEnd(rel)
		if i < 0 {
			return ""
		}
		rel, fromExpansion = strings.TrimPrefix(rel[i:], "/"), true
	}
	if rel == "" || strings.ContainsAny(rel, "$`*?") {
		return ""
	}
	if strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, "~") {
		return "" // a system file: /etc/os-release, ~/.bashrc
	}
	dir := path.Dir(fi.Path)
	cands := []string{path.Join(dir, rel)}
	if !fromExpansion || !strings.HasPrefix(rel, "..") {
		cands = append(cands, path.Clean(rel))
	}
	for _, p := range cands {
		if strings.HasPrefix(p, "../") {
			continue
		}
		if tab.File(p) != nil {
			return p
		}
	}
	clean := strings.TrimPrefix(path.Clean(rel), "../")
	for strings.HasPrefix(clean, "../") {
		clean = strings.TrimPrefix(clean, "../")
	}
	if fs := tab.ModuleFiles("bash", clean); len(fs) == 1 {
		return fs[0]
	}
	return ""
}

// shExpansionEnd is the end of the expansion a path starts with: $VAR,
// ${...}, $(...) or `...`.
func shExpansionEnd(s string) int {
	switch {
	case strings.HasPrefix(s, "${"), strings.HasPrefix(s, "$("):
		open, close := s[1], byte('}')
		if open == '(' {
			close = ')'
		}
		depth := 0
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case open:
				depth++
			case close:
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	case strings.HasPrefix(s, "`"):
		if j := strings.IndexByte(s[1:], '`'); j >= 0 {
			return j + 2
		}
		return -1
	case strings.HasPrefix(s, "$"):
		i := 1
		for i < len(s) && (IsIdentByte(s[i]) && s[i] != '$') {
			i++
		}
		return i
	}
	return 0
}

// shSourced lists the files a script sources, and the files those
// source, a few levels deep.
func shSourced(tab Table, fi *FileInfo) map[string]bool {
	v := tab.Memo("sh.sourced\x00"+fi.Path, func() string {
		seen := map[string]bool{fi.Path: true}
		var out []string
		frontier := []*FileInfo{fi}
		for depth := 0; depth < MaxDepth && len(frontier) > 0; depth++ {
			var next []*FileInfo
			for _, f := range frontier {
				for i := range f.Imports {
					p := shSourceFile(tab, f, f.Imports[i].Source)
					if p == "" || seen[p] {
						continue
					}
					seen[p] = true
					out = append(out, p)
					if nf := tab.File(p); nf != nil {
						next = append(next, nf)
					}
				}
			}
			frontier = next
		}
		return strings.Join(out, "\n")
	})
	m := map[string]bool{}
	for _, p := range strings.Split(v, "\n") {
		if p != "" {
			m[p] = true
		}
	}
	return m
}

func resolveBashImport(ctx *Context, imp *Import, name string) Resolution {
	p := shSourceFile(ctx.Table, ctx.File, imp.Source)
	if p == "" {
		if strings.HasPrefix(imp.Source, "/") || strings.HasPrefix(imp.Source, "~") || !strings.Contains(imp.Source, "/") {
			// a system file, or one found on the PATH (source shunit2)
			return Unbound(RuleExternal, 0)
		}
		return Unbound(RuleUnresolved, 0)
	}
	if t := ModuleTarget(ctx.Table, p); t != nil {
		return Bound(t, RuleImport)
	}
	return Unbound(RuleUnresolved, 0)
}

// resolveBash binds a command to a function: of the same file, of the
// files it sources, else the only one of that name in the repository's
// scripts. Other commands are builtins (dropped) or programs (external).
func resolveBash(ctx *Context, r *Ref) Resolution {
	tab := ctx.Table
	funcs := Pick(tab.ByName(r.Name), func(t *Target) bool { return t.Kind == KindFunction && isShPath(t.Path) })
	if c := One(Pick(funcs, func(t *Target) bool { return t.Path == ctx.File.Path && t.Container == "" })); c != nil {
		return Bound(c, RuleSameFile)
	}
	if ctx.From != nil {
		// a function defined in the calling function
		for _, f := range funcs {
			if f.Path == ctx.File.Path && f.Container == ctx.From.Qualified() {
				return Bound(f, RuleSameFile)
			}
		}
	}
	if len(funcs) > 0 {
		sourced := shSourced(tab, ctx.File)
		in := Pick(funcs, func(t *Target) bool { return sourced[t.Path] })
		if c := One(in); c != nil {
			return Bound(c, RuleImport)
		}
		if len(in) > 1 {
			return Unbound(RuleAmbiguous, len(in))
		}
	}
	if shBuiltins[r.Name] {
		return Unbound(RuleBuiltin, 0)
	}
	switch len(funcs) {
	case 0:
		return Unbound(RuleExternal, 0) // a program
	case 1:
		return Bound(funcs[0], RuleUniqueName)
	}
	return Unbound(RuleAmbiguous, len(funcs))
}
