# Logging helpers shared by every script.

readonly RED=$'\e[31m'
readonly RESET=$'\e[0m'
LOG_LEVEL="${LOG_LEVEL:-info}"

# Prints a timestamped message on stderr.
log() {
  local msg="$1"
  printf '%s %s\n' "$(date +%H:%M:%S)" "$msg" >&2
}

# Prints a warning.
warn() {
  log "${RED}warning${RESET}: $*"
}

# Prints an error and exits with status 1.
die() {
  log "${RED}error${RESET}: $*"
  exit 1
}
