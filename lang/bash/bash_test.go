package bash

import (
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

const deploySrc = `#!/usr/bin/env bash
# Deploys the shop.
set -euo pipefail

readonly ROOT="$(cd "$(dirname "$0")" && pwd)"
export SHOP_URL="${SHOP_URL:-http://localhost}"
declare -x -r MODE=prod
declare -A MAP=()
COUNT=1
COUNT=2
source "$ROOT/lib/log.sh"
. ./lib/util.sh
source "${BASH_SOURCE%/*}/common.sh"

# Logs a message.
# Second line.
log() {
  local msg="$1" level="${2:-info}"
  echo "[$level] $msg" >&2
}

function die {
  log "fatal: $*"
  exit 1
}

function build() {
  [[ -d "$ROOT" ]] || die "no root"
  if [ -z "${1:-}" ]; then
    return 1
  fi
  rm -rf "$ROOT/build"
  curl -fsSL "$SHOP_URL" | tar -x
  docker build -t shop . > build.log
  sudo -u deploy kubectl apply -f k8s.yaml
  result=$(helper "$1")
  nested() { log nested; }
  nested
}

_private() { :; }
helper() { echo "$1"; }
export -f helper
build "$@"
`

func TestSymbols(t *testing.T) {
	f := langtest.Extract(t, "bin/deploy.sh", deploySrc)
	if f.Module != "bin/deploy.sh" || f.Symbols[0].Doc != "Deploys the shop." || f.IsTest {
		t.Errorf("module %q doc %q", f.Module, f.Symbols[0].Doc)
	}
	for _, tc := range []struct {
		q, kind, vis, mods string
	}{
		{"ROOT", lang.KindVariable, lang.VisInternal, "readonly"},
		{"SHOP_URL", lang.KindVariable, lang.VisExported, "export"},
		{"MODE", lang.KindVariable, lang.VisExported, "declare,readonly,export"},
		{"MAP", lang.KindVariable, lang.VisInternal, "declare"},
		{"COUNT", lang.KindVariable, lang.VisInternal, ""},
		{"log", lang.KindFunction, lang.VisPublic, ""},
		{"die", lang.KindFunction, lang.VisPublic, ""},
		{"build", lang.KindFunction, lang.VisPublic, ""},
		{"build.nested", lang.KindFunction, lang.VisPublic, ""},
		{"_private", lang.KindFunction, lang.VisPrivate, ""},
	} {
		s := langtest.Sym(t, f, tc.q)
		if s.Kind != tc.kind || s.Visibility != tc.vis || strings.Join(s.Signature.Modifiers, ",") != tc.mods {
			t.Errorf("%s: %s %s mods %q", tc.q, s.Kind, s.Visibility, s.Signature.Modifiers)
		}
	}
	n := 0
	for _, s := range f.Symbols {
		if s.Name == "COUNT" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("COUNT assigned twice makes %d symbols", n)
	}
	lg := langtest.Sym(t, f, "log")
	if lg.Doc != "Logs a message.\nSecond line." {
		t.Errorf("log doc %q", lg.Doc)
	}
	if ps := lg.Signature.Params; len(ps) != 2 || ps[0].Name != "msg" || ps[1].Name != "level" || ps[1].Default != "info" {
		t.Errorf("log params %+v", ps)
	}
	if got := strings.Join(langtest.Imports(f), " "); got != "$ROOT/lib/log.sh@11 ./lib/util.sh@12 ${BASH_SOURCE%/*}/common.sh@13" {
		t.Errorf("imports %s", got)
	}
	langtest.WantAll(t, langtest.Refs(f),
		"<module> call set", "ROOT call dirname", "log call echo", "die call log", "die call exit",
		"build call die", "build call rm", "build call curl", "build call tar", "build call docker",
		"build call sudo", "build call kubectl", "build call helper", "build call nested", "build.nested call log",
		"build call >", "<module> call build", "<module> call source")
	for _, r := range langtest.Refs(f) {
		if strings.Contains(r, "call deploy") || strings.Contains(r, "call -u") {
			t.Errorf("an argument read as a command: %s", r)
		}
	}
}

func TestGuards(t *testing.T) {
	f := langtest.Extract(t, "g.sh", `f() {
  [[ -n "$1" ]] || die "no arg"
  [ -f "$2" ] && { echo "exists" >&2; exit 2; }
  if ! command -v jq >/dev/null; then
    return 1
  fi
  work
}`)
	langtest.WantAll(t, langtest.FactTexts(langtest.Sym(t, f, "f").Invariants),
		`guard: if !([[ -n "$1" ]]) then die`,
		`guard: if [ -f "$2" ] then exit 2`,
		"guard: if ! command -v jq >/dev/null then return 1")
}

func TestSideEffects(t *testing.T) {
	f := langtest.Extract(t, "e.sh", `f() {
  rm -rf /tmp/x
  cat /etc/hosts
  curl -s http://x
  docker run img
  kubectl get pods
  psql -c "select 1"
  kill -9 1
  echo hi > out.txt
  export X=1
  exit 3
}
g() { echo quiet 2>/dev/null; echo err >&2; }`)
	langtest.WantAll(t, langtest.FactTexts(langtest.Sym(t, f, "f").SideEffects),
		"fs.write: writes files", "fs.read: reads files", "network: network access", "process: runs containers",
		"network: changes a cluster or cloud", "database: database access", "process: signals processes",
		"exit: exits the process")
	if fx := langtest.Sym(t, f, "g").SideEffects; len(fx) != 0 {
		t.Errorf("redirections to /dev/null and stderr write no file: %v", fx)
	}
}

func TestTestFiles(t *testing.T) {
	for p, want := range map[string]bool{
		"tests/util.sh":     true,
		"test_util.sh":      true,
		"lib/util_test.sh":  true,
		"lib/util.sh":       false,
		"lib/testing.sh":    false,
		"scripts/deploy.sh": false,
		"test/run_all.bash": true,
		"lib/contest.bash":  false,
	} {
		if got := lang.IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%s) = %v", p, got)
		}
	}
	if l := lang.ForPath("home/.bashrc"); l == nil || l.Name != "bash" {
		t.Error(".bashrc is bash")
	}
}

func TestBrokenInput(t *testing.T) {
	f := langtest.ExtractBroken(t, "b.sh", `fine() {
  log "fine"
}

half() {
  if [[ -n "$1" ]]; then
    log "half"
}

after() {
  fine
}`)
	if len(f.Errors) == 0 {
		t.Error("no syntax errors reported")
	}
	langtest.Sym(t, f, "fine")
	langtest.Sym(t, f, "after")
	for _, r := range langtest.Refs(f) {
		if strings.HasSuffix(r, "call }") || strings.HasSuffix(r, "call fi") {
			t.Errorf("syntax debris read as a command: %s", r)
		}
	}
}

// TestUnreadCode locks which code the query's matches are kept from:
// a command's name ($(pick) args), a declaration's words, a wrapper's
// options, and every redirection of a statement, not only its first.
func TestUnreadCode(t *testing.T) {
	f := langtest.Extract(t, "u.sh", `f() {
  "$(pick)" arg
  sort < in.txt > out.txt 2> err.txt
  sudo -u root -n nice -n 5 make
  env A=1 "$CMD" x
}
X=$(first)
X=$(again)
declare -r A=$(one) B=$(second)
export "$(named)"
`)
	have := langtest.Refs(f)
	langtest.WantAll(t, have, "f call sudo", "f call nice", "X call first", "<module> call again", "A call one", "B call second")
	n := 0
	for _, r := range have {
		switch r {
		case "f call pick", "<module> call named", "f call -u", "f call root", "f call make", "f call x":
			t.Errorf("unread code made %q", r)
		case "f call >":
			n++
		}
	}
	if n != 2 {
		t.Errorf("sort < in.txt > out.txt 2> err.txt writes 2 files, %d refs of > in %v", n, have)
	}
	for _, name := range []string{"X", "A", "B"} {
		langtest.Sym(t, f, name)
	}
}

// TestEffectsInSourceOrder: a block's effects come before the
// redirection that ends it, in the order the script reads (the walker
// listed the redirection first).
func TestEffectsInSourceOrder(t *testing.T) {
	f := langtest.Extract(t, "o.sh", `h() {
  {
    cat in.txt
  } > out.txt
}`)
	fx := langtest.Sym(t, f, "h").SideEffects
	if len(fx) != 2 || fx[0].Kind != "fs.read" || fx[0].Line != 3 || fx[1].Kind != "fs.write" || fx[1].Line != 4 {
		t.Errorf("effects %+v, want fs.read at 3, then fs.write at 4", fx)
	}
}
