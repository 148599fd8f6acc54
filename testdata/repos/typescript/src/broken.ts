export function fine(): number {
  return 1;
}

export function broken(a: number {
  return a +;
}

export function after(): number {
  return fine();
}
