import type { FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bucketCount, floorTo, seriesQuery } from '../../src/analytics/stats.series.js';
import { entryFields, MalformedEntryError, parseEntry } from '../../src/telemetry/event-stream.js';
import { eventsValidationError } from '../../src/telemetry/events.routes.js';
import { spikeJobId } from '../../src/telemetry/spike-jobs.js';

describe('stream entries', () => {
  it('round-trip through their field list', () => {
    const events = [{ id: 'e', device_id: 'd', module_id: 'm', type: 'error' as const }];
    const fields = entryFields('app', 1234, 1, JSON.stringify(events));
    expect(parseEntry('1-0', fields)).toEqual({ entryId: '1-0', appId: 'app', receivedMs: 1234, events });
  });

  it('refuse entries that are not ours', () => {
    expect(() => parseEntry('1-0', ['a', 'app'])).toThrow(MalformedEntryError);
    expect(() => parseEntry('1-0', ['a', 'app', 'r', '1', 'e', '{'])).toThrow(MalformedEntryError);
    expect(() => parseEntry('1-0', ['a', 'app', 'r', '1', 'e', '{}'])).toThrow(MalformedEntryError);
    expect(() => parseEntry('1-0', ['a', 'app', 'r', 'soon', 'e', '[]'])).toThrow(MalformedEntryError);
  });
});

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

  it('read the rollups, never the raw events, with the app id escaped', () => {
    const from = new Date('2026-11-22T00:00:00Z');
    const to = new Date('2026-11-23T00:00:00Z');
    const minute = seriesQuery("x' OR 1=1 --", from, to, 'hour');
    expect(minute).toContain('FROM device_events_minute');
    expect(minute).toContain("app_id = 'x\\' OR 1=1 --'");
    expect(seriesQuery('a', from, to, 'day')).toContain('FROM device_events_day');
    expect(minute).not.toMatch(/FROM device_events\s/);
  });
});

describe('spike job ids', () => {
  it('are the same within a second, differ across seconds, and hold no colon', () => {
    expect(spikeJobId('app', 5_000)).toBe(spikeJobId('app', 5_999));
    expect(spikeJobId('app', 5_999)).not.toBe(spikeJobId('app', 6_000));
    expect(spikeJobId('app', 5_000)).not.toContain(':');
  });
});
