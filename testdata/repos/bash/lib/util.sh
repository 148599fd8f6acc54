# Small utilities. Expects log.sh to be sourced first.

# Fails unless a command is installed.
require_cmd() {
  local name="$1"
  command -v "$name" >/dev/null 2>&1 || die "missing command: $name"
}

# Runs a command until it succeeds, at most N times.
retry() {
  local attempts="$1"
  shift
  local i
  for ((i = 1; i <= attempts; i++)); do
    if "$@"; then
      return 0
    fi
    warn "attempt $i of $attempts failed: $*"
    sleep "$i"
  done
  return 1
}

# Runs a command in a fresh temporary directory, removed afterwards.
with_tmpdir() {
  local dir
  dir="$(mktemp -d)"
  (cd "$dir" && "$@")
  local status=$?
  rm -rf "$dir"
  return "$status"
}

_join_by() {
  local IFS="$1"
  shift
  echo "$*"
}
