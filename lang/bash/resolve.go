package bash

import (
	"path"
	"strings"

	"github.com/sdl-dev/sdl/lang"
)

// builtins are the shell's builtins and keywords: commands that are no
// function and no program. Those with effects (exit, kill, exec, eval) are
// among them too; their effects are read before resolution.
var builtins = lang.WordFile(data, "builtins.txt")

func isScript(p string) bool {
	l := lang.ForPath(p)
	return l != nil && l.Name == "bash"
}

// sourceFile is the repository file a source command names: a path
// that starts with an expansion ($DIR/lib.sh, "$(dirname "$0")/lib.sh",
// ${BASH_SOURCE%/*}/lib.sh) is taken relative to the script, others
// relative to the script, then to the repository root; failing those, the
// one file whose path ends so.
func sourceFile(tab lang.Table, fi *lang.FileInfo, src string) string {
	rel := src
	fromExpansion := false
	if strings.HasPrefix(rel, "$") || strings.HasPrefix(rel, "`") {
		i := expansionEnd(rel)
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

// expansionEnd is the end of the expansion a path starts with: $VAR,
// ${...}, $(...) or `...`.
func expansionEnd(s string) int {
	switch {
	case strings.HasPrefix(s, "${"), strings.HasPrefix(s, "$("):
		open, close := s[1], byte('}')
		if open == '(' {
			close = ')'
		}
		return lang.ClosingBracket(s, 1, open, close)
	case strings.HasPrefix(s, "`"):
		if j := strings.IndexByte(s[1:], '`'); j >= 0 {
			return j + 2
		}
		return -1
	case strings.HasPrefix(s, "$"):
		i := 1
		for i < len(s) && (lang.IsIdentByte(s[i]) && s[i] != '$') {
			i++
		}
		return i
	}
	return 0
}

// sourced lists the files a script sources, and the files those
// source, a few levels deep.
func sourced(tab lang.Table, fi *lang.FileInfo) map[string]bool {
	v := tab.Memo("sh.sourced\x00"+fi.Path, func() string {
		seen := map[string]bool{fi.Path: true}
		var out []string
		frontier := []*lang.FileInfo{fi}
		for depth := 0; depth < lang.MaxDepth && len(frontier) > 0; depth++ {
			var next []*lang.FileInfo
			for _, f := range frontier {
				for i := range f.Imports {
					p := sourceFile(tab, f, f.Imports[i].Source)
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

func resolveImport(ctx *lang.Context, imp *lang.Import, name string) lang.Resolution {
	p := sourceFile(ctx.Table, ctx.File, imp.Source)
	if p == "" {
		if strings.HasPrefix(imp.Source, "/") || strings.HasPrefix(imp.Source, "~") || !strings.Contains(imp.Source, "/") {
			// a system file, or one found on the PATH (source shunit2)
			return lang.Unbound(lang.RuleExternal, 0)
		}
		return lang.Unbound(lang.RuleUnresolved, 0)
	}
	if t := lang.ModuleTarget(ctx.Table, p); t != nil {
		return lang.Bound(t, lang.RuleImport)
	}
	return lang.Unbound(lang.RuleUnresolved, 0)
}

// resolve binds a command to a function: of the same file, of the
// files it sources, else the only one of that name in the repository's
// scripts. Other commands are builtins (dropped) or programs (external).
func resolve(ctx *lang.Context, r *lang.Ref) lang.Resolution {
	tab := ctx.Table
	funcs := lang.Pick(tab.ByName(r.Name), func(t *lang.Target) bool { return t.Kind == lang.KindFunction && isScript(t.Path) })
	if c := lang.One(lang.Pick(funcs, func(t *lang.Target) bool { return t.Path == ctx.File.Path && t.Container == "" })); c != nil {
		return lang.Bound(c, lang.RuleSameFile)
	}
	if ctx.From != nil {
		// a function defined in the calling function
		for _, f := range funcs {
			if f.Path == ctx.File.Path && f.Container == ctx.From.Qualified() {
				return lang.Bound(f, lang.RuleSameFile)
			}
		}
	}
	if len(funcs) > 0 {
		sourced := sourced(tab, ctx.File)
		in := lang.Pick(funcs, func(t *lang.Target) bool { return sourced[t.Path] })
		if c := lang.One(in); c != nil {
			return lang.Bound(c, lang.RuleImport)
		}
		if len(in) > 1 {
			return lang.Unbound(lang.RuleAmbiguous, len(in))
		}
	}
	if builtins.Has(r.Name) {
		return lang.Unbound(lang.RuleBuiltin, 0)
	}
	return lang.Unique(funcs) // none: a program
}
