/** An audit entry's details as label/text pairs: `old` and `new` values become "before → after". */
export function describeDetails(details: unknown): Array<[string, string]> {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return [];
  // `api_key` names the actor, shown beside it (describeActor), not among the details.
  const { old: before, new: after, api_key: _key, ...rest } = details as Record<string, unknown>;
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

/** A value as people read it: lists joined by commas, objects as `key: value` pairs, never JSON. */
function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(show).join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k.replaceAll('_', ' ')}: ${show(v)}`)
      .join('; ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/**
 * Who did it: the member's e-mail, or for a change made with an API key (actor `api-key`, as the
 * specification logs it) the key's name and the member who made the key, when the entry records them.
 */
export function describeActor(actor: string, details: unknown): string {
  const key = asRecord(asRecord(details)?.api_key);
  if (actor !== 'api-key' || !key) return actor;
  const name = typeof key.name === 'string' ? key.name : undefined;
  const creator = asRecord(key.created_by)?.email;
  const parts = [name, typeof creator === 'string' ? `created by ${creator}` : undefined].filter(Boolean);
  return parts.length > 0 ? `api-key (${parts.join(', ')})` : actor;
}
