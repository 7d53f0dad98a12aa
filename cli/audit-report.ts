import type { AuditEntry } from '@ota/client/types';
import { clip, shortTime } from './output.js';

/** A terminal at least this wide gets the app column and long actors unclipped (`--wide` anywhere). */
export const WIDE_AUDIT_WIDTH = 150;

interface KeyDetails {
  name?: unknown;
  created_by?: { email?: unknown } | null;
}

/**
 * Who made the change, for people: the actor the specification fixes (an e-mail or `api-key`), and for a
 * key the key's name and its maker from `details.api_key`: "api-key (CI deploys, created by ana@example.com)".
 */
export function actorLabel(entry: AuditEntry): string {
  const key = (entry.details as { api_key?: KeyDetails } | null)?.api_key;
  if (entry.actor !== 'api-key' || !key || typeof key.name !== 'string') return entry.actor;
  const maker = typeof key.created_by?.email === 'string' ? `, created by ${key.created_by.email}` : '';
  return `api-key (${key.name}${maker})`;
}

/** The details without `api_key` (already in the actor column), as compact JSON clipped to `max`. */
export function detailsText(details: unknown, max: number): string {
  if (details === null || details === undefined) return '';
  const { api_key: _shown, ...rest } = details as Record<string, unknown>;
  return clip(JSON.stringify(rest), max);
}

/**
 * The audit table for a terminal `width` columns wide. Narrow: time, actor, action and details clipped so
 * the whole table fits; wide: the app column too, and the actor in full.
 */
export function auditTable(
  entries: readonly AuditEntry[],
  width: number,
  wide: boolean,
): { head: string[]; rows: string[][] } {
  const actorMax = wide ? 80 : 30;
  const rows = entries.map((e) => ({
    time: shortTime(e.created_at).replace(/:\d\d(?=Z$)/, ''),
    actor: clip(actorLabel(e), actorMax),
    action: e.action,
    app: e.app_id ?? '-',
  }));
  const widest = (pick: (r: (typeof rows)[number]) => string, head: string) =>
    Math.max(head.length, ...rows.map((r) => pick(r).length));
  // cli-table3 draws one border plus two spaces of padding per column, and one closing border.
  const columns = wide ? 5 : 4;
  const used =
    widest((r) => r.time, 'time') +
    widest((r) => r.actor, 'actor') +
    widest((r) => r.action, 'action') +
    (wide ? widest((r) => r.app, 'app') : 0) +
    columns * 3 +
    1;
  const detailsMax = Math.max(12, (wide ? Math.max(width, 200) : width) - used);
  return {
    head: wide ? ['time', 'actor', 'action', 'app', 'details'] : ['time', 'actor', 'action', 'details'],
    rows: entries.map((e, i) => {
      const r = rows[i]!;
      const details = detailsText(e.details, detailsMax);
      return wide ? [r.time, r.actor, r.action, r.app, details] : [r.time, r.actor, r.action, details];
    }),
  };
}
