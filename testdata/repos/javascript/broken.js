function ok() {
  return 1;
}

function broken( {
  return ok(;
}

function later() {
  return ok();
}
