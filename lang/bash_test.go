package lang

import (
	"strings"
	"testing"
)

const shDeploySrc = `#!/usr/bin/env bash
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

func TestBashSymbols(t *testing.T) {
	f := moreExtract(t, "bash", "bin/deploy.sh", shDeploySrc)
	if f.Module != "bin/deploy.sh" || f.Symbols[0].Doc != "Deploys the shop." || f.IsTest {
		t.Errorf("module %q doc %q", f.Module, f.Symbols[0].Doc)
	}
	for _, tc := range []struct {
		q, kind, vis, mods string
	}{
		{"ROOT", KindVariable, VisInternal, "readonly"},
		{"SHOP_URL", KindVariable, VisExported, "export"},
		{"MODE", KindVariable, VisExported, "declare,readonly,export"},
		{"MAP", KindVariable, VisInternal, "declare"},
		{"COUNT", KindVariable, VisInternal, ""},
		{"log", KindFunction, VisPublic, ""},
		{"die", KindFunction, VisPublic, ""},
		{"build", KindFunction, VisPublic, ""},
		{"build.nested", KindFunction, VisPublic, ""},
		{"_private", KindFunction, VisPrivate, ""},
	} {
		s := moreSym(t, f, tc.q)
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
	lg := moreSym(t, f, "log")
	if lg.Doc != "Logs a message.\nSecond line." {
		t.Errorf("log doc %q", lg.Doc)
	}
	if ps := lg.Signature.Params; len(ps) != 2 || ps[0].Name != "msg" || ps[1].Name != "level" || ps[1].Default != "info" {
		t.Errorf("log params %+v", ps)
	}
	if got := strings.Join(moreImports(f), " "); got != "$ROOT/lib/log.sh@11 ./lib/util.sh@12 ${BASH_SOURCE%/*}/common.sh@13" {
		t.Errorf("imports %s", got)
	}
	wantAll(t, javaRefs(f),
		"<module> call set", "ROOT call dirname", "log call echo", "die call log", "die call exit",
		"build call die", "build call rm", "build call curl", "build call tar", "build call docker",
		"build call sudo", "build call kubectl", "build call helper", "build call nested", "build.nested call log",
		"build call >", "<module> call build", "<module> call source")
	for _, r := range javaRefs(f) {
		if strings.Contains(r, "call deploy") || strings.Contains(r, "call -u") {
			t.Errorf("an argument read as a command: %s", r)
		}
	}
}

func TestBashGuards(t *testing.T) {
	f := moreExtract(t, "bash", "g.sh", `f() {
  [[ -n "$1" ]] || die "no arg"
  [ -f "$2" ] && { echo "exists" >&2; exit 2; }
  if ! command -v jq >/dev/null; then
    return 1
  fi
  work
}`)
	wantAll(t, factTexts(moreSym(t, f, "f").Invariants),
		`guard: if !([[ -n "$1" ]]) then die`,
		`guard: if [ -f "$2" ] then exit 2`,
		"guard: if ! command -v jq >/dev/null then return 1")
}

func TestBashSideEffects(t *testing.T) {
	f := moreExtract(t, "bash", "e.sh", `f() {
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
	wantAll(t, factTexts(moreSym(t, f, "f").SideEffects),
		"fs.write: writes files", "fs.read: reads files", "network: network access", "process: runs containers",
		"network: changes a cluster or cloud", "database: database access", "process: signals processes",
		"exit: exits the process")
	if fx := moreSym(t, f, "g").SideEffects; len(fx) != 0 {
		t.Errorf("redirections to /dev/null and stderr write no file: %v", fx)
	}
}

func TestBashTestFiles(t *testing.T) {
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
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%s) = %v", p, got)
		}
	}
	if l := ForPath("home/.bashrc"); l == nil || l.Name != "bash" {
		t.Error(".bashrc is bash")
	}
}

func TestBashBrokenInput(t *testing.T) {
	f := moreExtract(t, "bash", "b.sh", `fine() {
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
	moreSym(t, f, "fine")
	moreSym(t, f, "after")
	for _, r := range javaRefs(f) {
		if strings.HasSuffix(r, "call }") || strings.HasSuffix(r, "call fi") {
			t.Errorf("syntax debris read as a command: %s", r)
		}
	}
}
