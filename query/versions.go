package query

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

var (
	versionIDRe = lazyRegexp(`^v[0-9]+$`)
	seqRe       = lazyRegexp(`^[0-9]+$`)
	ledgerRelRe = lazyRegexp(`^HEAD(~[0-9]*|\^+)?$`)
	hexRe       = lazyRegexp(`^[0-9a-fA-F]{4,40}$`)
)

// ResolveVersion finds the ledger version a client names, in this order:
// an id (v3); a sequence number (3); HEAD, HEAD~N or HEAD^ counted on the
// ledger (HEAD is the newest version, HEAD~1 the one before it) unless a
// version was indexed under that name (sdl index --rev HEAD), which makes
// it the git revision; a git
// revision, resolved with git rev-parse in the repository when its root
// is a git repository, matched against the commit each version records;
// the ref a version was indexed as (sdl index --rev origin/main); a
// commit prefix. Among versions of one commit the newest clean one wins.
// field names the argument in errors.
func (x *Index) ResolveVersion(ctx context.Context, field, spec string) (Version, error) {
	spec = strings.TrimSpace(spec)
	vs, err := x.Versions(ctx)
	if err != nil {
		return Version{}, err
	}
	if spec == "" {
		return Version{}, invalidf(field, "required: a ledger version (v3, 3, HEAD~1) or a git commit or ref that was indexed")
	}
	if len(vs) == 0 {
		return Version{}, invalidf(field, "the index has no versions")
	}
	if versionIDRe().MatchString(spec) {
		for _, v := range vs {
			if v.ID == spec {
				return v, nil
			}
		}
		return Version{}, x.noVersion(field, spec, vs)
	}
	if seqRe().MatchString(spec) && len(spec) < 7 {
		n, _ := strconv.ParseInt(spec, 10, 64)
		for _, v := range vs {
			if v.Seq == n {
				return v, nil
			}
		}
		return Version{}, x.noVersion(field, spec, vs)
	}
	byCommit := func(commit string, prefix bool) (Version, bool) {
		var found *Version
		for i := len(vs) - 1; i >= 0; i-- {
			v := &vs[i]
			if v.GitCommit == "" || !(v.GitCommit == commit || prefix && strings.HasPrefix(v.GitCommit, strings.ToLower(commit))) {
				continue
			}
			if !v.GitDirty {
				return *v, true
			}
			if found == nil {
				found = v
			}
		}
		if found != nil {
			return *found, true
		}
		return Version{}, false
	}
	// A ledger-relative name that a version was indexed as (sdl index
	// --rev HEAD) means the git revision: in CI the base may be indexed
	// after the head, and HEAD is then not the newest version.
	recorded := false
	for _, v := range vs {
		recorded = recorded || v.GitRef == spec
	}
	// byRev finds the version of spec as a git revision: its commit's,
	// else the newest one indexed under that name
	byRev := func() (Version, bool) {
		if commit := x.revParse(ctx, spec); commit != "" {
			if v, ok := byCommit(commit, false); ok {
				return v, true
			}
		}
		for i := len(vs) - 1; i >= 0; i-- {
			if vs[i].GitRef == spec {
				return vs[i], true
			}
		}
		return Version{}, false
	}
	if recorded && ledgerRelRe().MatchString(spec) {
		if v, ok := byRev(); ok {
			return v, nil
		}
	}
	if m := ledgerRelRe().FindStringSubmatch(spec); m != nil {
		back := 0
		switch s := m[1]; {
		case s == "":
		case strings.HasPrefix(s, "~"):
			back = 1
			if len(s) > 1 {
				var err error
				if back, err = strconv.Atoi(s[1:]); err != nil {
					back = len(vs) // beyond any ledger
				}
			}
		default:
			back = len(s)
		}
		if back >= len(vs) {
			return Version{}, invalidf(field, "%s is before the oldest version the ledger keeps (it has %d: %s..%s)", spec, len(vs), vs[0].ID, vs[len(vs)-1].ID)
		}
		return vs[len(vs)-1-back], nil
	}
	if v, ok := byRev(); ok {
		return v, nil
	}
	if hexRe().MatchString(spec) {
		if v, ok := byCommit(spec, true); ok {
			return v, nil
		}
	}
	return Version{}, x.noVersion(field, spec, vs)
}

func (x *Index) noVersion(field, spec string, vs []Version) error {
	return invalidf(field, "no version %q in the ledger (%s..%s); name one by id (v3), sequence (3), HEAD~N, "+
		"or a git commit or ref indexed with sdl index --rev REF", spec, vs[0].ID, vs[len(vs)-1].ID)
}

// revParse resolves a git revision in the repository, or returns "".
func (x *Index) revParse(ctx context.Context, rev string) string {
	if x.Root == "" || strings.HasPrefix(rev, "-") {
		return ""
	}
	cmd := exec.CommandContext(ctx, "git", "-C", x.Root, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
