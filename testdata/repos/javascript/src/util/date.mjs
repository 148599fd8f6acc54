/**
 * @module date helpers for the app
 */

const MS_PER_DAY = 24 * 60 * 60 * 1000;

export function formatDate(d) {
  return d.toISOString().slice(0, 10);
}

export const addDays = (d, n) => new Date(d.getTime() + n * MS_PER_DAY);

export function* days(from, count) {
  for (let i = 0; i < count; i++) {
    yield addDays(from, i);
  }
}

/** Clock tells the time; tests replace it. */
export default class Clock {
  now() {
    return new Date();
  }

  today() {
    return formatDate(this.now());
  }
}
