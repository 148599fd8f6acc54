package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

type report struct {
	Label, Command, SDL, Version, ID string
	Timeout                          time.Duration
	CPUs                             int
	Date                             string
	Repos                            []repo
	Results                          []*result
	Missing                          []string
}

func (r *report) counts() (crashes, hangs, unaccounted, unaccRepos, slow, slowOther int) {
	for _, x := range r.Results {
		switch x.Status {
		case "crash":
			crashes++
		case "hang":
			hangs++
		}
		if x.Unaccounted > 0 {
			unaccounted += x.Unaccounted
			unaccRepos++
		}
		if x.WorstRatio > stageLimit {
			slow++
		}
		if _, o := worstAfterParse(x.Stages); o > stageLimit {
			slowOther++
		}
	}
	return
}

// faults counts the files sdl recorded a fault for (a stage that failed on
// them: a panic caught, a limit hit), and the repositories holding them:
// no crash, but a bug of sdl's all the same.
func (r *report) faults() (files, repos int) {
	for _, x := range r.Results {
		n := 0
		for _, c := range x.Faults {
			n += c
		}
		if n > 0 {
			files += n
			repos++
		}
	}
	return
}

func (r *report) summaryLine() string {
	c, h, u, ur, s, so := r.counts()
	ff, fr := r.faults()
	return fmt.Sprintf("%d repositories measured, %d missing: %d crashes, %d hangs, %d files with faults in %d repositories, %d files unaccounted for in %d repositories, %d repositories with a stage above %.1fx the raw parse, %d with a stage after the parse above %.1fx sdl's walk and parse",
		len(r.Results), len(r.Missing), c, h, ff, fr, u, ur, s, stageLimit, so, stageLimit)
}

// order puts crashes and hangs first, then the repositories whose worst
// stage is slowest against the parse.
func (r *report) order() []*result {
	out := append([]*result(nil), r.Results...)
	rank := func(x *result) int {
		switch x.Status {
		case "crash":
			return 0
		case "hang":
			return 1
		}
		return 2
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if rank(a) != rank(b) {
			return rank(a) < rank(b)
		}
		return a.WorstRatio > b.WorstRatio
	})
	return out
}

func (r *report) markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("## %s\n\n", r.Label)
	if r.SDL == "" {
		p("Written %s from the results kept for the sdl binary with sha256 %s… (measured earlier on %d CPUs, each `sdl index` under `nice` with a timeout of %s), by:\n\n",
			r.Date, r.ID, r.CPUs, r.Timeout)
	} else {
		p("Measured %s with sdl `%s` (binary sha256 %s…) on %d CPUs, each `sdl index` under `nice` with a timeout of %s, by:\n\n",
			r.Date, r.Version, r.ID, r.CPUs, r.Timeout)
	}
	p("    %s\n\n", r.Command)
	c, h, u, ur, s, so := r.counts()
	ff, fr := r.faults()
	p("**%d repositories, %d crashes, %d hangs, %d files with faults (in %d repositories), %d files unaccounted for (in %d repositories), %d repositories with a stage above %.1fx the raw parse, %d with a stage after the parse above %.1fx sdl's walk and parse.**",
		len(r.Results), c, h, ff, fr, u, ur, s, stageLimit, so, stageLimit)
	if len(r.Missing) > 0 {
		p(" %d repositories of the list were missing (below).", len(r.Missing))
	}
	p("\n\n")
	p("| repository | lang | status | files | symbols | edges | parse errors: sdl / tree-sitter | faults by stage | raw parse s | worst stage (x raw parse) | worst later stage (x sdl's walk+parse) | stages s | wall s | peak RSS MB | unaccounted |\n")
	p("|---|---|---|--:|--:|--:|--:|---|--:|---|---|---|--:|--:|--:|\n")
	for _, x := range r.order() {
		status := x.Status
		if x.Reason != "" {
			status += ": " + strings.ReplaceAll(x.Reason, "|", `\|`)
		}
		if x.Status != "ok" && len(x.Stages) > 0 {
			// --trace prints a stage when it ends: the one after it
			// was running.
			status += fmt.Sprintf(" (after the %s stage)", x.Stages[len(x.Stages)-1].Name)
		}
		worst := "—"
		if x.WorstStage != "" {
			worst = fmt.Sprintf("%s %.1fx", x.WorstStage, x.WorstRatio)
			if x.WorstRatio > stageLimit {
				worst = "**" + worst + "**"
			}
		}
		other := "—"
		if n, r := worstAfterParse(x.Stages); n != "" {
			other = fmt.Sprintf("%s %.1fx", n, r)
			if r > stageLimit {
				other = "**" + other + "**"
			}
		}
		errs := fmt.Sprintf("%d / %d", x.ParseErrors, x.RefErrors)
		if x.Files > 0 {
			errs = fmt.Sprintf("%d (%.0f%%) / %d (%.0f%%)", x.ParseErrors, pct(x.ParseErrors, x.Files), x.RefErrors, pct(x.RefErrors, x.Files-x.NotSource))
		}
		if x.MissingBlobs > 0 {
			errs += fmt.Sprintf("; %d files of 4 MiB+ not in the mirror", x.MissingBlobs)
		}
		if x.NotSource > 0 {
			errs += fmt.Sprintf("; %d not source", x.NotSource)
		}
		unacc := fmt.Sprint(x.Unaccounted)
		if x.Status != "ok" {
			unacc = "—"
		} else if len(x.UnaccountedSome) > 0 {
			unacc += " (" + strings.Join(x.UnaccountedSome, ", ") + ")"
		}
		rss := "—" // a killed run has no report from /usr/bin/time
		if x.RSSMB > 0 {
			rss = fmt.Sprintf("%.0f", x.RSSMB)
		}
		wall := fmt.Sprintf("%.1f", x.Wall)
		if x.Load > 0 {
			wall += fmt.Sprintf(" (load %.0f)", x.Load)
		}
		p("| %s | %s | %s | %d | %d | %d | %s | %s | %.2f | %s | %s | %s | %s | %s | %s |\n",
			x.Repo, x.Lang, status, x.Files, x.Symbols, x.Edges, errs, faults(x), x.RefParse, worst, other, stages(x.Stages), wall, rss, unacc)
	}
	p("\n")
	p("### Parse errors per language\n\n")
	p("Files sdl indexed in the repositories where it finished, by the right grammar for each (a `.h` header is C++ in a repository with more C++ than C sources); the share of them sdl recorded as parse errors, and the share whose tree-sitter tree has an error at the root when tree-sitter parses the file itself.\n\n")
	p("| language | repositories | files | sdl parse errors | tree-sitter errors |\n|---|--:|--:|--:|--:|\n")
	type agg struct{ repos, files, sdl, ref int }
	per := map[string]*agg{}
	for _, x := range r.Results {
		if x.Status != "ok" {
			continue // sdl indexed nothing to compare
		}
		for l, lc := range x.PerLang {
			a := per[l]
			if a == nil {
				a = &agg{}
				per[l] = a
			}
			a.repos++
			a.files += lc.Files
			a.sdl += lc.SDLErrors
			a.ref += lc.RefErrors
		}
	}
	var langs []string
	for l := range per {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		a := per[l]
		p("| %s | %d | %d | %d (%.1f%%) | %d (%.1f%%) |\n", l, a.repos, a.files, a.sdl, pct(a.sdl, a.files), a.ref, pct(a.ref, a.files))
	}
	p("\n")
	if len(r.Missing) > 0 {
		p("### Missing or not measured\n\n")
		for _, m := range r.Missing {
			p("- %s\n", m)
		}
		p("\n")
	}
	return b.String()
}

// worstAfterParse is the slowest stage after the parse against sdl's own
// parse (the "parse 1.0 s, resolve 52.1 s"), judged as worstStage
// judges. sdl parses while it walks, so walk and parse count as one.
func worstAfterParse(ss []stage) (string, float64) {
	var parse float64
	var rest []stage
	for _, s := range ss {
		if s.Name == "parse" || s.Name == "walk" {
			parse += s.Seconds
		} else {
			rest = append(rest, s)
		}
	}
	return worstStage(rest, parse)
}

func pct(n, d int) float64 {
	if d <= 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

func faults(x *result) string {
	if len(x.Faults) == 0 {
		if x.FaultsKnown {
			return "0"
		}
		return "n/a"
	}
	var ks []string
	for k := range x.Faults {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s %d", k, x.Faults[k]))
	}
	return strings.Join(parts, ", ")
}

// stages lists the stages that took at least 10 ms.
func stages(ss []stage) string {
	var parts []string
	for _, s := range ss {
		if s.Seconds >= 0.01 {
			parts = append(parts, fmt.Sprintf("%s %.2f", s.Name, s.Seconds))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

const (
	sectionStart = "<!-- corpus section: "
	sectionEnd   = "<!-- end of corpus section -->"
)

// header is the part of the report that does not depend on a run.
func header(repos []repo) string {
	var b strings.Builder
	b.WriteString(`# Corpus sweep

Generated by ` + "`make corpus`" + ` (cmd/corpus); do not edit by hand. Each section below is one run
of the sweep with one sdl binary; a run replaces its own section and keeps the others.

The sweep indexes a checkout of each repository of [corpus.tsv](corpus.tsv) at its pinned commit
(every blob of the commit, read from a bare mirror, MIRROR/owner+name/repo: a missing mirror is
named with its fetch command, and files of 4 MiB and more, which the fetch tool leaves out, are
counted) with ` + "`sdl index --trace --json`" + ` into a fresh index file, under ` + "`/usr/bin/time -v`" + ` and
a per-repository timeout, with GOPROXY=off so that Go precise mode never downloads a module. Then it
parses the same files with tree-sitter itself (the grammars sdl links, through tree-sitter's own API;
GOMAXPROCS workers, files already in memory) and counts the files whose root has an error.

- **status**: ok, crash (non-zero exit or a signal; the first line of the panic), or hang (killed at
  the timeout).
- **files**: files indexed (status ok or parse_error in the index); **unaccounted**: files of the
  checkout whose name a language of sdl claims that the index neither holds nor records as skipped
  (itself or a directory above it).
- **faults by stage**: the per-file faults sdl recorded (the files table's faults column, or any list
  of {stage} in ` + "`sdl info --json`" + `); n/a where this sdl records none.
- **worst stage**: the slowest stage of ` + "`--trace`" + ` against the raw parse of the same files in the
  same run (sdl's own parse stage included: it reads, parses, extracts and writes); **worst later
  stage**: the slowest stage after the parse against sdl's own walk and parse stages together. Stages under 0.5 s are not
  judged (fixed costs of small repositories). The goal is no stage above 1.5x the parse. A crash or
  hang has the stages it finished, and its raw parse covers the files sdl's walk would index. sdl
  starts parsing while it walks, so a slow **walk** can be parse work (flameshot's walk is the
  TypeScript grammar on its 48 Qt Linguist XML .ts files, which the raw parse leaves out as not
  source).
- The checkouts have no .git: sdl reads the repository's .gitignore files but no git metadata, as on
  an exported tree. **load** is the machine's 1-minute load average when sdl started (2 CPUs,
  shared): absolute times are what that load allowed; the ratios set each stage against a raw parse
  measured right after it.
- ` + "`make corpus SDL=/path/to/sdl`" + ` measures another binary; results are kept per binary under
  CORPUS_WORK (default /tmp/sdl-corpus), so an interrupted sweep resumes.

## Repositories

| repository | language | kind | commit |
|---|---|---|---|
`)
	for _, r := range repos {
		fmt.Fprintf(&b, "| [%s](https://github.com/%s) | %s | %s | `%s` |\n", r.Name, r.Name, r.Lang, r.Kind, r.Commit)
	}
	b.WriteString("\n")
	return b.String()
}

// writeSection rewrites the report: the header, then every section of the
// file with this label's replaced (or added last).
func writeSection(out, label, body string, repos []repo) error {
	old, _ := os.ReadFile(out)
	type sec struct{ label, text string }
	var secs []sec
	rest := string(old)
	for {
		i := strings.Index(rest, sectionStart)
		if i < 0 {
			break
		}
		rest = rest[i:]
		j := strings.Index(rest, " -->")
		k := strings.Index(rest, sectionEnd)
		if j < 0 || k < 0 {
			break
		}
		secs = append(secs, sec{rest[len(sectionStart):j], rest[:k+len(sectionEnd)]})
		rest = rest[k+len(sectionEnd):]
	}
	text := sectionStart + label + " -->\n" + body + sectionEnd
	replaced := false
	for i := range secs {
		if secs[i].label == label {
			secs[i].text, replaced = text, true
		}
	}
	if !replaced {
		secs = append(secs, sec{label, text})
	}
	var b strings.Builder
	b.WriteString(header(repos))
	for _, s := range secs {
		b.WriteString(s.text)
		b.WriteString("\n\n")
	}
	return os.WriteFile(out, []byte(strings.TrimRight(b.String(), "\n")+"\n"), 0o644)
}
