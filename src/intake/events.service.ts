import { clientNetwork, type DeviceClient } from '../edge/client-address.js';
import type { FailureReporters } from '../edge/failure-reporters.js';
import { notFound } from '../platform/errors.js';
import { canonicalId, type RoutingCache } from '../routing/routing.cache.js';
import type { AppRoute } from '../routing/routing.types.js';
import type { EventType } from './event-rows.js';
import { type EventInput, encodeEvents } from './event-rows.js';
import type { EventsStore } from './events.store.js';

/** A device event as a route (or a protocol adapter) hands it over, validated by its schema. */
export interface DeviceEventInput {
  id: string;
  device_id: string;
  /** A release of the app; absent, null or '' for the bundle embedded in the app binary. */
  module_id?: string | null;
  type: Exclude<EventType, 'check'>;
  ts?: string | number;
  message?: string;
}

export interface RefusedEvent {
  /** Position of the event in the batch. */
  index: number;
  id: string;
  code: 'unknown_module';
}

export interface IntakeResult {
  accepted: number;
  refused: RefusedEvent[];
}

export interface EventIngestStores {
  events: EventsStore;
}

export interface EventIngestOptions {
  /** The apps and their modules, from the routing cache the update checks use (one app cache). */
  routing: Pick<RoutingCache, 'peek' | 'load' | 'fresh'>;
  /** Events older than this are not stored (their partitions are already dropped). */
  retentionDays: number;
  /** Which devices' reports may move failure counters, per client address (src/edge/failure-reporters.ts). */
  reporters: Pick<FailureReporters, 'admitFrom'>;
  now?: () => number;
}

export function createEventIngestService(stores: EventIngestStores, options: EventIngestOptions) {
  return new EventIngestService(stores, options);
}

// A batch naming a module the cached app does not know reloads the app first, at most this often per app:
// the release may have been pushed a moment ago.
const UNKNOWN_MODULE_RELOAD_MS = 1000;

/**
 * The device event intake, shared by POST /devices/events and the protocol adapters. An event must name a
 * release of the app, or none (the embedded bundle): anything else is refused, event by event, so no
 * Redis key (failure counters) or series is made for a string a device invented, and the good events of
 * the same batch are taken. What is taken goes to the stream in one XADD, so it is durable (Redis runs with
 * AOF) when this returns; the ingest workers take it from there.
 */
export class EventIngestService {
  /** Events taken (durable in the stream) and refused one by one (`unknown_module`), since the start. */
  readonly counts = { accepted: 0, unknownModule: 0 };

  constructor(
    private readonly stores: EventIngestStores,
    private readonly options: EventIngestOptions,
  ) {}

  /**
   * `client` is the request the events came with: its network is recorded with the batch (error-spike
   * decisions count networks) and its address bounds how many devices its reports add to a release's
   * failure counters.
   */
  async accept(
    appId: string,
    events: readonly DeviceEventInput[],
    client: DeviceClient,
  ): Promise<IntakeResult> {
    const { routing, retentionDays, reporters, now = Date.now } = this.options;
    // Read now: the request's socket may be gone by the time the app is loaded.
    const address = client.ip;
    let route = routing.peek(appId);
    if (route === undefined) route = await routing.load(appId);
    if (route === null) throw notFound('App', 'app_not_found');
    let sorted = sortEvents(route, events);
    if (sorted.refused.length > 0) {
      const fresh = await routing.fresh(appId, UNKNOWN_MODULE_RELOAD_MS);
      if (fresh && fresh !== route) {
        route = fresh;
        sorted = sortEvents(route, events);
      }
    }
    if (sorted.taken.length > 0) {
      const receivedMs = now();
      const encoded = encodeEvents(route.appId, receivedMs, sorted.taken, retentionDays, {
        network: clientNetwork(address),
        counts: reporters.admitFrom(address),
      });
      await this.stores.events.append([{ appId: route.appId, receivedMs, encoded }]);
    }
    this.counts.accepted += sorted.taken.length;
    this.counts.unknownModule += sorted.refused.length;
    return { accepted: sorted.taken.length, refused: sorted.refused };
  }
}

const NO_EVENT_YET = Symbol('no event yet');

function sortEvents(route: AppRoute, events: readonly DeviceEventInput[]) {
  const taken: EventInput[] = [];
  const refused: RefusedEvent[] = [];
  // A batch's events nearly all name one module: its canonical form and whether the app has it are worked
  // out again only when the module id changes.
  let lastModule: string | null | undefined | typeof NO_EVENT_YET = NO_EVENT_YET;
  let moduleId = '';
  let known = true;
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (event.module_id !== lastModule) {
      lastModule = event.module_id;
      moduleId = event.module_id ? canonicalId(event.module_id) : '';
      known = moduleId === '' || route.modules.has(moduleId);
    }
    if (!known) {
      refused.push({ index, id: event.id, code: 'unknown_module' });
      continue;
    }
    // Copied only when its module id must be rewritten (absent, null or not in lower case): a copy per
    // event was a visible share of the intake's own cost.
    taken.push(event.module_id === moduleId ? (event as EventInput) : { ...event, module_id: moduleId });
  }
  return { taken, refused };
}
