import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeActor, describeDetails } from '../../../console/src/audit-details.js';
import {
  capShare,
  formatBytes,
  formatCount,
  formatPct,
  formatRatio,
  formatTime,
  needsFailureHint,
  parseRolloutPct,
} from '../../../console/src/format.js';
import { matchRoute } from '../../../console/src/routes.js';
import { defaultRangeId, toChartData } from '../../../console/src/series.js';

describe('console formatting', () => {
  it('shows byte counts in the largest unit that keeps them at least 1', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1_234)).toBe('1.2 kB');
    expect(formatBytes(2_500_000)).toBe('2.5 MB');
    expect(formatBytes(45_000_000)).toBe('45 MB');
    expect(formatBytes(undefined)).toBe('—');
  });

  it('shows counts with separators and a dash for missing values', () => {
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(undefined)).toBe('—');
    expect(formatCount(Number.NaN)).toBe('—');
  });

  it('shows percentages whole when whole, else with one decimal; ratios as percentages', () => {
    expect(formatPct(100)).toBe('100 %');
    expect(formatPct(12.34)).toBe('12.3 %');
    expect(formatPct(0.04)).toBe('0 %');
    expect(formatRatio(0.5)).toBe('50 %');
    expect(formatRatio(0.0213)).toBe('2.1 %');
    expect(formatRatio(null)).toBe('—');
  });

  it('hints at a rollback only past 2 % failure rate', () => {
    expect(needsFailureHint(0.02)).toBe(false);
    expect(needsFailureHint(0.0201)).toBe(true);
    expect(needsFailureHint(0)).toBe(false);
    expect(needsFailureHint(undefined)).toBe(false);
  });

  it('shows times in UTC to the minute', () => {
    expect(formatTime('2026-11-22T05:12:44.123Z')).toBe('2026-11-22 05:12 UTC');
    expect(formatTime(null)).toBe('—');
    expect(formatTime('not a date')).toBe('not a date');
  });

  it('measures usage against a cap, unlimited when the cap is null', () => {
    expect(capShare(40, 100)).toEqual({ text: '40 of 100', fraction: 0.4 });
    expect(capShare(150, 100).fraction).toBe(1);
    expect(capShare(12000, null)).toEqual({ text: '12,000 of unlimited', fraction: null });
  });

  it('accepts rollout percentages 0-100 only', () => {
    expect(parseRolloutPct('25')).toBe(25);
    expect(parseRolloutPct(' 12.5 ')).toBe(12.5);
    expect(parseRolloutPct('0')).toBe(0);
    expect(parseRolloutPct('100')).toBe(100);
    for (const bad of ['', '101', '-1', 'abc', '1e2', '50%', '.5', '1000'])
      expect(parseRolloutPct(bad)).toBeNull();
    fc.assert(fc.property(fc.integer({ min: 0, max: 100 }), (n) => parseRolloutPct(String(n)) === n));
  });
});

describe('console routes', () => {
  it('maps paths to pages', () => {
    expect(matchRoute('/')).toEqual({ page: 'apps' });
    expect(matchRoute('/apps/')).toEqual({ page: 'apps' });
    expect(matchRoute('/apps/abc-123?x=1')).toEqual({ page: 'app', appId: 'abc-123' });
    expect(matchRoute('/activity')).toEqual({ page: 'activity' });
    expect(matchRoute('/apps/a/b')).toEqual({ page: 'unknown' });
    expect(matchRoute('/apps/%E0%A4%A')).toEqual({ page: 'unknown' });
    expect(matchRoute('/toString')).toEqual({ page: 'unknown' });
  });
});

describe('console chart data', () => {
  const at = (minute: number) => Date.UTC(2026, 10, 22, 5, minute);
  const range = { fromMs: at(0) + 20_000, toMs: at(59) + 30_000, interval: 'minute' as const };
  const point = (minute: number, module_id: string, activations: number, errors: number) => ({
    ts: new Date(at(minute)).toISOString(),
    module_id,
    checks: 0,
    downloads: 0,
    activations,
    errors,
    devices: 0,
  });

  it('has every bucket of the range, zero where the series is silent', () => {
    const data = toChartData([], range);
    expect(data.x).toHaveLength(60);
    expect(data.x[0]).toBe(at(0) / 1000);
    expect(data.x[59]).toBe(at(59) / 1000);
    expect(data.activations.every((n) => n === 0)).toBe(true);
    const day = toChartData([], { fromMs: at(0) - 30 * 86_400_000, toMs: at(0), interval: 'day' });
    expect(day.x).toHaveLength(31);
    expect(day.x.every((t) => (t * 1000) % 86_400_000 === 0)).toBe(true);
  });

  it('sums releases per bucket, or keeps one release; rows outside the range are left out', () => {
    const series = [point(2, 'b', 5, 1), point(1, 'a', 3, 0), point(2, 'a', 2, 2), point(200, 'a', 9, 9)];
    const all = toChartData(series, range);
    expect(all.activations.slice(0, 4)).toEqual([0, 3, 7, 0]);
    expect(all.errors.slice(0, 4)).toEqual([0, 0, 3, 0]);
    const b = toChartData(series, range, 'b');
    expect(b.activations.reduce((x, y) => x + y, 0)).toBe(5);
    expect(b.errors[2]).toBe(1);
  });

  it('keeps every count inside the range: the totals of the chart equal the totals of the series', () => {
    const arb = fc.array(
      fc.record({
        minute: fc.integer({ min: 0, max: 59 }),
        module: fc.constantFrom('a', 'b', 'c'),
        activations: fc.nat(1000),
        errors: fc.nat(1000),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(arb, (rows) => {
        const data = toChartData(
          rows.map((r) => point(r.minute, r.module, r.activations, r.errors)),
          range,
        );
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        const sorted = data.x.every((t, i) => i === 0 || t > data.x[i - 1]!);
        return (
          sorted &&
          data.x.length === 60 &&
          sum(data.activations) === sum(rows.map((r) => r.activations)) &&
          sum(data.errors) === sum(rows.map((r) => r.errors))
        );
      }),
    );
  });
});

describe('console audit details', () => {
  it('shows old and new values as before → after, other keys as they are', () => {
    expect(describeDetails({ old: { plan: 'hobby' }, new: { plan: 'team' } })).toEqual([
      ['plan', 'hobby → team'],
    ]);
    expect(
      describeDetails({
        member_id: 'm1',
        email: 'a@b.c',
        old: { role: 'viewer', status: 'invited' },
        new: { role: 'admin' },
      }),
    ).toEqual([
      ['role', 'viewer → admin'],
      ['status', 'invited → —'],
      ['member_id', 'm1'],
      ['email', 'a@b.c'],
    ]);
    expect(describeDetails({ new: { rollout_pct: 50 }, old: { rollout_pct: 50 } })).toEqual([
      ['rollout_pct', '50'],
    ]);
    expect(describeDetails({ version: '1.0', meta: { a: 1 } })).toEqual([
      ['version', '1.0'],
      ['meta', 'a: 1'],
    ]);
    expect(describeDetails(null)).toEqual([]);
    expect(describeDetails([1, 2])).toEqual([]);
  });

  it('reads nested values as text, never as JSON, and keeps the key that names the actor out of them', () => {
    const pairs = describeDetails({
      module_id: 'm1',
      channels: ['production', 'staging'],
      target: { version: '1.2.0', mandatory: true },
      api_key: { id: 'k1', name: 'ci', created_by: { email: 'dev@example.com' } },
    });
    expect(pairs).toEqual([
      ['module_id', 'm1'],
      ['channels', 'production, staging'],
      ['target', 'version: 1.2.0; mandatory: yes'],
    ]);
    for (const [, text] of pairs) expect(text).not.toMatch(/[{}"]/);
  });

  it('names an API-key actor with the key and the member who made it', () => {
    const details = { api_key: { id: 'k1', name: 'ci deploy', created_by: { email: 'dev@example.com' } } };
    expect(describeActor('api-key', details)).toBe('api-key (ci deploy, created by dev@example.com)');
    expect(describeActor('api-key', { api_key: { id: 'k1', name: 'old', created_by: null } })).toBe(
      'api-key (old)',
    );
    expect(describeActor('api-key', {})).toBe('api-key');
    expect(describeActor('dev@example.com', details)).toBe('dev@example.com');
  });
});

describe('the range the chart opens on', () => {
  const now = Date.parse('2030-01-10T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();
  it('follows the age of the first release, so a new app is not a spike at the right edge', () => {
    expect(defaultRangeId(undefined, now)).toBe('24h');
    expect(defaultRangeId(ago(20 * 60_000), now)).toBe('1h');
    expect(defaultRangeId(ago(5 * 3_600_000), now)).toBe('24h');
    expect(defaultRangeId(ago(3 * 86_400_000), now)).toBe('7d');
    expect(defaultRangeId(ago(400 * 86_400_000), now)).toBe('7d');
  });
});
