const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/**
 * A byte count in the largest unit that keeps it at least 1 (kB, MB, GB: powers of 1000), one decimal
 * below 10. The CLI and the console show sizes alike.
 */
export function byteSize(value: number): string {
  let n = value;
  let unit = 0;
  while (n >= 1000 && unit < UNITS.length - 1) {
    n /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(n)} B` : `${n.toFixed(n < 10 ? 1 : 0)} ${UNITS[unit]}`;
}
