/** Number and date formatting shared by the pages; pure, so it has its own unit tests. */

import { byteSize } from '@ota/shared/bytes';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return integer.format(value);
}

/** A 0-100 percentage as shown: whole numbers stay whole, others get one decimal. */
export function formatPct(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} %`;
}

/** A 0-1 ratio as a percentage. */
export function formatRatio(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return formatPct(value * 100);
}

/** A byte count in the largest unit that keeps it at least 1 (kB, MB, GB: powers of 1000). */
export function formatBytes(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return byteSize(value);
}

/** The CLI's rule of the specification: roll back if the failure rate climbs past 2 %. */
export const FAILURE_HINT_THRESHOLD = 0.02;

export function needsFailureHint(failureRate: number | null | undefined): boolean {
  return typeof failureRate === 'number' && failureRate > FAILURE_HINT_THRESHOLD;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** A device count against its cap; a null cap is unlimited. */
export function capShare(used: number, cap: number | null): { text: string; fraction: number | null } {
  if (cap === null) return { text: `${formatCount(used)} of unlimited`, fraction: null };
  const fraction = cap > 0 ? Math.min(1, used / cap) : 1;
  return { text: `${formatCount(used)} of ${formatCount(cap)}`, fraction };
}

/** A rollout percentage typed by a person: an integer or decimal 0-100, else null. */
export function parseRolloutPct(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,3}(\.\d+)?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 0 && value <= 100 ? value : null;
}
