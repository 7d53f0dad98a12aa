// Number formats of the BENCHMARKS.md table, shared by its headline rows.

export const r1 = (x) => (typeof x === 'number' ? Math.round(x * 10) / 10 : '–');
const r2 = (x) => (typeof x === 'number' ? Math.round(x * 100) / 100 : '–');
/** value / baseline, two significant digits below 0.1 (a 200-fold speed-up is not "0"). */
export const ratio = (a, b) => {
  if (typeof a !== 'number' || typeof b !== 'number' || b === 0) return '–';
  const x = a / b;
  return x < 0.1 ? Number(x.toPrecision(2)) : r2(x);
};
