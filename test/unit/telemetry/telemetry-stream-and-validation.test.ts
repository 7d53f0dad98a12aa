import type { FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bucketCount, floorTo, seriesQuery } from '../../../src/analytics/stats.series.js';
import { isDataError } from '../../../src/ingest/clickhouse-insert.js';
import { eventsValidationError } from '../../../src/intake/events.routes.js';
import { spikeJobId } from '../../../src/spikes/spike-jobs.js';

describe('event validation errors', () => {
  const err = (instancePath: string, keyword = 'pattern', params: object = {}) =>
    [
      { instancePath, keyword, params, message: 'must match pattern', schemaPath: '' },
    ] as FastifySchemaValidationError[];

  it('name the first bad event by index and field', () => {
    const e = eventsValidationError(err('/events/17/device_id'));
    expect(e.status).toBe(400);
    expect(e.code).toBe('invalid_event');
    expect(e.extra).toEqual({ index: 17, field: 'events.17.device_id' });
    expect(e.detail).toContain('Event 17');
    const missing = eventsValidationError(err('/events/3', 'required', { missingProperty: 'type' }));
    expect(missing.extra).toEqual({ index: 3, field: 'events.3.type' });
  });

  it('fall back to the body field outside events', () => {
    const e = eventsValidationError(err('', 'required', { missingProperty: 'app_id' }));
    expect(e.code).toBe('invalid_request');
    expect(e.extra).toEqual({ field: 'app_id' });
  });
});

describe('series buckets', () => {
  it('floor to the interval and count buckets', () => {
    const t = new Date('2026-11-22T10:37:12.345Z');
    expect(floorTo(t, 'minute').toISOString()).toBe('2026-11-22T10:37:00.000Z');
    expect(floorTo(t, 'hour').toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(floorTo(t, 'day').toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(bucketCount(t, new Date('2026-11-22T12:00:00Z'), 'hour')).toBe(2);
    expect(bucketCount(t, new Date('2026-11-22T10:38:00Z'), 'minute')).toBe(1);
  });

  it('read checks and devices from the rollups, device-sent events from the raw events once per id, with the app id escaped', () => {
    const from = new Date('2026-11-22T00:00:00Z');
    const to = new Date('2026-11-23T00:00:00Z');
    const minute = seriesQuery("x' OR 1=1 --", from, to, 'hour');
    expect(minute).toContain('FROM device_events_minute');
    expect(minute.split("app_id = 'x\\' OR 1=1 --'")).toHaveLength(3);
    expect(seriesQuery('a', from, to, 'day')).toContain('FROM device_events_day');
    // The raw events only for what a device sends (and may send again with another time), each id once.
    const raw = minute.slice(minute.search(/FROM device_events\s/));
    expect(raw).toContain("type IN ('download', 'activation', 'error')");
    expect(raw).toContain('GROUP BY module_id, type, event_id');
  });
});

describe('spike job ids', () => {
  it('are the same for one ingest batch (a replay), differ between batches and apps, and hold no colon', () => {
    expect(spikeJobId('app', '1800000000123-0')).toBe(spikeJobId('app', '1800000000123-0'));
    expect(spikeJobId('app', '1800000000123-0')).not.toBe(spikeJobId('app', '1800000000123-1'));
    expect(spikeJobId('app', '1800000000123-0')).not.toBe(spikeJobId('other', '1800000000123-0'));
    expect(spikeJobId('app', '1800000000123-0')).not.toContain(':');
  });
});

describe('ClickHouse data errors', () => {
  it('are the refusals of the data itself, not connection failures or overloads', () => {
    expect(isDataError({ code: '27' })).toBe(true);
    expect(isDataError({ code: '117' })).toBe(true);
    expect(isDataError({ code: '252' })).toBe(false); // too many parts: try again later
    expect(isDataError({ code: 'ECONNREFUSED' })).toBe(false);
    expect(isDataError(new Error('socket hang up'))).toBe(false);
    expect(isDataError(null)).toBe(false);
    // ClickHouse 18.16's answer, which the client does not parse into a code
    expect(isDataError(new Error("Code: 49, e.displayText() = DB::Exception: Unknown element 'crash'"))).toBe(
      true,
    );
    expect(isDataError(new Error('Code: 252, e.displayText() = DB::Exception: Too many parts'))).toBe(false);
  });
});
