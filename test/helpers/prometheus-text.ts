/**
 * A strict reader of the Prometheus text format (version 0.0.4), for tests that scrape /metrics: every
 * line must parse, every sample belong to a family declared by HELP and TYPE, no series appear twice,
 * and every histogram's buckets be cumulative with its +Inf bucket equal to its count. Throws naming the
 * line otherwise.
 */

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: PromSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\[\\"n])*)"\s*(,|$)/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>();
  const seen = new Set<string>();
  const fail = (n: number, line: string, why: string): never => {
    throw new Error(`line ${n + 1}: ${why}: ${line}`);
  };
  text.split('\n').forEach((line, n) => {
    if (line.trim() === '') return;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (!NAME.test(name)) fail(n, line, 'bad metric name');
      const family = families.get(name) ?? { name, help: '', type: 'untyped' as const, samples: [] };
      if (kind === 'HELP') family.help = rest;
      else if (TYPES.has(rest)) family.type = rest as PromFamily['type'];
      else fail(n, line, 'unknown type');
      families.set(name, family);
      return;
    }
    if (line.startsWith('#')) return;
    const match = SAMPLE.exec(line) ?? fail(n, line, 'not a sample');
    const [, name, rawLabels = '', rawValue] = match as unknown as [
      string,
      string,
      string | undefined,
      string,
    ];
    const labels: Record<string, string> = {};
    let rest = rawLabels;
    while (rest.trim() !== '') {
      const label = LABEL.exec(rest) ?? fail(n, line, 'bad label');
      const [whole, key, value] = label as unknown as [string, string, string];
      if (key in labels) fail(n, line, `label ${key} twice`);
      labels[key] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(whole.length);
    }
    const value = /^[+-]?inf$/i.test(rawValue)
      ? rawValue.startsWith('-')
        ? Number.NEGATIVE_INFINITY
        : Number.POSITIVE_INFINITY
      : /^nan$/i.test(rawValue)
        ? Number.NaN
        : Number(rawValue);
    if (Number.isNaN(value) && !/^nan$/i.test(rawValue)) fail(n, line, 'bad value');
    const family =
      families.get(name) ??
      families.get(name.replace(/_(bucket|sum|count)$/, '')) ??
      fail(n, line, 'sample without HELP and TYPE');
    if (family.name !== name && family.type !== 'histogram' && family.type !== 'summary')
      fail(n, line, `suffix on a ${family.type}`);
    if (!family.help) fail(n, line, 'family without HELP');
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) fail(n, line, 'series twice');
    seen.add(key);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function checkHistogram(family: PromFamily): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
  const keyOf = (labels: Record<string, string>) => {
    const { le: _le, ...rest } = labels;
    return JSON.stringify(Object.entries(rest).sort());
  };
  for (const s of family.samples) {
    const entry = series.get(keyOf(s.labels)) ?? { buckets: [] };
    series.set(keyOf(s.labels), entry);
    if (s.name.endsWith('_bucket')) {
      if (s.labels.le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([s.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(s.labels.le), s.value]);
    } else if (s.name.endsWith('_count')) entry.count = s.value;
  }
  for (const [labels, { buckets, count }] of series) {
    const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
    sorted.forEach(([, v], i) => {
      if (i > 0 && v < sorted[i - 1]![1]) throw new Error(`${family.name}${labels}: buckets not cumulative`);
    });
    const inf = sorted.at(-1);
    if (inf?.[0] !== Number.POSITIVE_INFINITY || inf[1] !== count)
      throw new Error(`${family.name}${labels}: +Inf bucket is not the count`);
  }
}

/** The sum of a family's samples named `name` whose labels include `labels` (0 when none). */
export function sampleValue(
  families: Map<string, PromFamily>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const family = families.get(name) ?? families.get(name.replace(/_(bucket|sum|count)$/, ''));
  return (family?.samples ?? [])
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);
}
