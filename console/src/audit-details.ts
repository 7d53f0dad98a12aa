/** An audit entry's details as label/text pairs: `old` and `new` values become "before → after". */
export function describeDetails(details: unknown): Array<[string, string]> {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return [];
  const { old: before, new: after, ...rest } = details as Record<string, unknown>;
  const pairs: Array<[string, string]> = [];
  const beforeObj = asRecord(before);
  const afterObj = asRecord(after);
  if (beforeObj || afterObj) {
    const keys = [...new Set([...Object.keys(beforeObj ?? {}), ...Object.keys(afterObj ?? {})])];
    for (const key of keys) {
      const from = beforeObj && key in beforeObj ? show(beforeObj[key]) : '—';
      const to = afterObj && key in afterObj ? show(afterObj[key]) : '—';
      pairs.push([key, from === to ? to : `${from} → ${to}`]);
    }
  } else {
    if (before !== undefined) pairs.push(['old', show(before)]);
    if (after !== undefined) pairs.push(['new', show(after)]);
  }
  for (const [key, value] of Object.entries(rest)) pairs.push([key, show(value)]);
  return pairs;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
