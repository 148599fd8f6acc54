#!/usr/bin/env bash
# shunit2 tests of lib/util.sh.

source "$(dirname "$0")/../lib/log.sh"
source "$(dirname "$0")/../lib/util.sh"

test_retry_succeeds_at_once() {
  retry 3 true
  assertEquals 0 $?
}

test_join_by() {
  assertEquals "a,b" "$(_join_by , a b)"
}

source shunit2
