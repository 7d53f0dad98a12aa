import type { DeviceEdge } from '../edge/device-edge.js';
import type { EventIngestService } from '../intake/events.service.js';
import { CHECK_PROTOCOLS, type DeviceAnswers, LATENCY_BUCKETS } from '../platform/tallies.js';
import type { RoutingCache } from '../routing/routing.cache.js';
import type { Labels, MetricsRegistry, Sample } from './registry.js';

export interface ApiSeriesSources {
  answers: DeviceAnswers;
  routing: Pick<RoutingCache, 'counts' | 'size' | 'unknownSize'>;
  edge: Pick<DeviceEdge, 'addresses' | 'refusedDevices'>;
  intake: Pick<EventIngestService, 'counts'>;
}

/** Why an answer of 400 or more refused a device request, by its status: a short, fixed list. */
const REFUSAL_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  404: 'not_found',
  406: 'not_acceptable',
  408: 'timeout',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** The labels of an answer refused or failed by its status (4xx: refused, 5xx: failed). */
export function statusOutcome(status: number): Labels {
  if (status >= 500) return { outcome: 'failed', reason: status === 503 ? 'unavailable' : 'server_error' };
  return { outcome: 'refused', reason: REFUSAL_BY_STATUS[status] ?? 'client_error' };
}

/** Samples with the same labels added up (several statuses share a reason). */
function summed(samples: Iterable<Sample>): Sample[] {
  const out = new Map<string, [Labels, number]>();
  for (const [labels, value] of samples) {
    const key = JSON.stringify(labels);
    const seen = out.get(key);
    if (seen) seen[1] += value;
    else out.set(key, [labels, value]);
  }
  return [...out.values()];
}

/** The API's series: update checks, device events, the routing cache and the device limits. */
export function registerApiSeries(registry: MetricsRegistry, s: ApiSeriesSources): void {
  registry.counter({
    name: 'ota_update_checks_total',
    help:
      'Update checks answered, by protocol (ota, codepush, expo, capacitor) and outcome: served (a release or a ' +
      'directive), up_to_date (nothing new), refused (reason: device_cap, new_device_limit, or the ' +
      "answer's 4xx: rate_limited, invalid_request, not_found, ...), failed (5xx).",
    labelNames: ['protocol', 'outcome', 'reason'],
    read: () =>
      summed(
        CHECK_PROTOCOLS.flatMap((protocol): Sample[] => {
          const t = s.answers.checks[protocol];
          return [
            [{ protocol, outcome: 'served' }, t.served],
            [{ protocol, outcome: 'up_to_date' }, t.upToDate],
            [{ protocol, outcome: 'refused', reason: 'device_cap' }, t.deviceCap],
            [{ protocol, outcome: 'refused', reason: 'new_device_limit' }, t.newDeviceLimit],
            ...[...t.refusedByStatus].map(
              ([status, n]): Sample => [{ protocol, ...statusOutcome(status) }, n],
            ),
          ];
        }),
      ),
  });
  registry.histogram({
    name: 'ota_update_check_duration_seconds',
    help: 'Time from the arrival of an update check to its answer, by protocol (every status).',
    labelNames: ['protocol'],
    buckets: LATENCY_BUCKETS,
    read: () =>
      CHECK_PROTOCOLS.map((protocol) => [{ protocol }, s.answers.checks[protocol].latency] as const),
  });

  registry.counter({
    name: 'ota_device_events_total',
    help:
      'Device events (POST /devices/events, CodePush reports, Expo failure reports) accepted into the ' +
      'event stream, or refused one by one (reason unknown_module).',
    labelNames: ['outcome', 'reason'],
    read: () => [
      [{ outcome: 'accepted' }, s.intake.counts.accepted],
      [{ outcome: 'refused', reason: 'unknown_module' }, s.intake.counts.unknownModule],
    ],
  });
  registry.counter({
    name: 'ota_device_event_batches_total',
    help:
      'Batches posted to POST /devices/events: accepted (202), refused whole (reason from the 4xx: ' +
      'rate_limited, invalid_request, not_found, too_large, ...), failed (5xx).',
    labelNames: ['outcome', 'reason'],
    read: () =>
      summed(
        [...s.answers.events.byStatus].map(
          ([status, n]): Sample => [status < 400 ? { outcome: 'accepted' } : statusOutcome(status), n],
        ),
      ),
  });

  registry.counter({
    name: 'ota_routing_cache_lookups_total',
    help: "Lookups of an app's routing state in this process's cache, by result (hit, miss).",
    labelNames: ['result'],
    read: () => [
      [{ result: 'hit' }, s.routing.counts.hits],
      [{ result: 'miss' }, s.routing.counts.misses],
    ],
  });
  registry.counter({
    name: 'ota_routing_cache_loads_total',
    help: "Loads of an app's routing state from Postgres (cache misses, shared by concurrent ones), by result.",
    labelNames: ['result'],
    read: () => [
      [{ result: 'ok' }, s.routing.counts.loads - s.routing.counts.loadFailures],
      [{ result: 'failed' }, s.routing.counts.loadFailures],
    ],
  });
  registry.gauge({
    name: 'ota_routing_cache_apps',
    help: 'Apps held in the routing cache (known), and app ids remembered as unknown.',
    labelNames: ['state'],
    read: () => [
      [{ state: 'known' }, s.routing.size],
      [{ state: 'unknown' }, s.routing.unknownSize],
    ],
  });

  registry.counter({
    name: 'ota_device_limit_refusals_total',
    help:
      "Device requests refused (429) by this process's in-memory limits: per client address " +
      '(RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE) or per app and device (RATE_LIMIT_DEVICE_PER_MINUTE).',
    labelNames: ['limit'],
    read: () => [
      [{ limit: 'address' }, s.edge.addresses.refused],
      [{ limit: 'device' }, s.edge.refusedDevices],
    ],
  });
}
