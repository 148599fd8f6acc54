# A script in the middle of an edit.

fine() {
  log "fine"
}

half() {
  if [[ -n "$1" ]]; then
    log "half"
}

after() {
  fine
}
