import type { RefusalReason } from '@ota/shared/contracts';
import { DEFAULT_CHANNEL, isDeviceId } from '@ota/shared/ids';
import type { BytesServedRecorder } from '../analytics/bytes-served.js';
import type { Admission, DeviceCapGate } from '../devices/device-cap.js';
import type { DeviceOffers } from '../devices/device-offers.js';
import type { RedisDistinctDevices } from '../devices/distinct-devices.redis.js';
import type { DeviceClient } from '../edge/client-address.js';
import type { CheckRecorder } from '../intake/check-recorder.js';
import { pinOutcome, servedChannel } from '../overrides/device-override.js';
import type { OverrideChecks } from '../overrides/override-checks.js';
import { capabilitiesOf } from '../plans/plans.js';
import { notFound } from '../platform/errors.js';
import type { CheckDecision } from '../platform/tallies.js';
import { canonicalId, type RoutingCache } from '../routing/routing.cache.js';
import type { RoutingInvalidationListener } from '../routing/routing.listener.js';
import type { AppRoute, RoutedRelease } from '../routing/routing.types.js';
import { resolveRelease } from './resolve.js';

export interface CheckInput {
  app_id: string;
  /**
   * Absent only for protocol adapters whose clients may not send one (Expo's eas-client-id): such a device
   * gets releases at 100 % only, and none on a plan with a device cap, since it cannot be counted.
   */
  device_id?: string;
  /**
   * The request (its `ip`, see TRUST_PROXY): devices new to a capped workspace are limited per client
   * address. Every device route passes it; it is read only for a device new to this process.
   */
  client: DeviceClient;
  channel?: string;
  fingerprint?: string;
  current_module_id?: string;
  /** The native app version, already normalised (normalizeAppVersion); matched against binary ranges. */
  app_version?: string;
  /**
   * The releases to choose from, newest first, instead of the channel's bundle releases: a protocol
   * adapter's own list (the Expo releases of a platform). Read from the route the check loaded, for the
   * channel the device is served from (its override's, when it has one).
   */
  candidates?: (route: AppRoute, channel: string) => readonly RoutedRelease[];
  /**
   * Note what the device is offered, or that it is offered nothing (src/devices/device-offers.ts): for a
   * protocol whose clients report download-side failures naming another version than the one they were
   * downloading (Capacitor). The others' failure reports name their release and need no note.
   */
  noteOffer?: boolean;
  /**
   * The release of this id as the protocol serves it, for a device pinned to it (instead of the bundle
   * release the routing entry holds): null when the protocol cannot serve it.
   */
  pinned?: (route: AppRoute, moduleId: string) => RoutedRelease | null;
}

/** What a protocol adapter needs of a check: the app's routing state and the release to serve (or null). */
export interface CheckOutcome {
  route: AppRoute;
  /** The release the device is to run; null when none fits, when it already runs it, or at the cap. */
  release: RoutedRelease | null;
  /** False when the workspace's device cap refused the device (the answer is then "no update"). */
  admitted: boolean;
  /** Why the device was refused (with `admitted` false): what its answer says. */
  refused: RefusalReason | null;
  /** True when the release to run is the one the device runs already (`current_module_id`). */
  upToDate: boolean;
  /** The channel the device was served from: the one it asked for, or its override's. */
  channel: string;
}

/** What a check's outcome tells the device, as /metrics counts it (an adapter may tell it otherwise). */
export function checkDecision(outcome: CheckOutcome): CheckDecision {
  return outcome.release !== null ? 'served' : (outcome.refused ?? 'up_to_date');
}

export interface UpdateCheckDeps {
  routing: RoutingCache;
  listener: RoutingInvalidationListener;
  gate: DeviceCapGate;
  devices: Pick<RedisDistinctDevices, 'add' | 'start' | 'stop'>;
  /** Counts checks for analytics; buffers and writes off the request path. */
  recorder: Pick<CheckRecorder, 'record'>;
  /** Notes what pinned devices were served, for the override listing (never for other devices). */
  overrideChecks?: Pick<OverrideChecks, 'note'>;
  /**
   * What each device was last offered (a release, or nothing), for checks that ask for it (`noteOffer`), so
   * a download-side failure it reports is credited to the release it concerns (src/devices/device-offers.ts).
   * Buffered: no Redis call here.
   */
  offers?: Pick<DeviceOffers, 'note'>;
  /** Counts the bundle an /updates/check answer hands out (release stats' bytes_served). */
  bytesServed?: BytesServedRecorder;
  now?: () => number;
}

/**
 * The device update check (DESIGN.md, "The update check"). On the hot path it touches memory only, apart
 * from one Redis script the first time this process sees a device of a capped workspace.
 */
export class UpdateCheckService {
  private readonly now: () => number;

  constructor(private readonly deps: UpdateCheckDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * The check itself, for /updates/check and the protocol adapters alike: one resolver, one bucket rule,
   * one device cap, one recorder. Answered synchronously when everything it needs is in memory (the app's
   * routing state cached, the device known to this process or its workspace uncapped): the hot path then
   * costs no promise and no turn of the event loop. A promise otherwise.
   */
  resolve(input: CheckInput): CheckOutcome | Promise<CheckOutcome> {
    const route = this.deps.routing.peek(input.app_id);
    if (route === undefined)
      return this.deps.routing.load(input.app_id).then((r) => this.resolveOn(r, input));
    return this.resolveOn(route, input);
  }

  private resolveOn(route: AppRoute | null, input: CheckInput): CheckOutcome | Promise<CheckOutcome> {
    if (route === null) throw notFound('App', 'app_not_found');
    const deviceId = input.device_id;
    // Every checking device is an active device: it is counted (or refused at the cap) whether or not a
    // release is waiting, so a device already running the newest module keeps its place in the set.
    const cap = capabilitiesOf(route.plan).deviceCap;
    if (deviceId === undefined) {
      // Nothing to count it by: served only where nothing is counted.
      return this.answer(route, input, cap === null ? 'admitted' : 'device_cap');
    }
    const admitting = this.deps.gate.admit(route.workspaceId, deviceId, cap, input.client);
    return typeof admitting === 'string'
      ? this.answer(route, input, admitting)
      : admitting.then((admission) => this.answer(route, input, admission));
  }

  private answer(route: AppRoute, input: CheckInput, admission: Admission): CheckOutcome {
    const deviceId = input.device_id;
    // A device override (src/overrides/) decides the channel, or pins a release; only a device that has one
    // costs more than this lookup.
    const override = deviceId === undefined ? undefined : route.overrides?.get(deviceId);
    const channel = servedChannel(route, deviceId, input.channel ?? DEFAULT_CHANNEL);
    // Only a release of the app is recorded as the module a device runs, never a string it made up.
    const current = knownModule(route.modules, input.current_module_id);
    if (admission !== 'admitted') {
      this.record(route, input, channel, current);
      if (input.noteOffer && deviceId !== undefined)
        this.deps.offers?.note(route.workspaceId, route.appId, deviceId, null);
      return { route, release: null, admitted: false, refused: admission, upToDate: false, channel };
    }
    if (deviceId !== undefined) this.deps.devices.add(route.workspaceId, deviceId);

    let release: RoutedRelease | null = null;
    if (override?.kind === 'release')
      release = this.pinned(route, input, override.moduleId, override.release);
    if (release === null) {
      const candidates = input.candidates
        ? input.candidates(route, channel)
        : (route.channels.get(channel) ?? []);
      release = resolveRelease(candidates, deviceId, input.fingerprint, input.app_version, current);
    }
    if (release === null || release.id === current) {
      this.record(route, input, channel, current);
      if (input.noteOffer && deviceId !== undefined)
        this.deps.offers?.note(route.workspaceId, route.appId, deviceId, null);
      return { route, release: null, admitted: true, refused: null, upToDate: release !== null, channel };
    }
    this.record(route, input, channel, release.id);
    if (input.noteOffer && deviceId !== undefined)
      this.deps.offers?.note(route.workspaceId, route.appId, deviceId, release.id);
    return { route, release, admitted: true, refused: null, upToDate: false, channel };
  }

  /**
   * The release a device is pinned to when it can run it (whatever its bucket, rollout or pause), else null:
   * the device is then served as if it had no override. Each outcome is noted for the override listing.
   */
  private pinned(
    route: AppRoute,
    input: CheckInput,
    moduleId: string,
    bundleRelease: RoutedRelease | null,
  ): RoutedRelease | null {
    const release = input.pinned ? input.pinned(route, moduleId) : bundleRelease;
    const outcome = pinOutcome(release, input.fingerprint, input.app_version);
    this.deps.overrideChecks?.note(route, input.device_id!, {
      module_id: moduleId,
      served: outcome.served !== null,
      reason: outcome.served === null ? outcome.reason : null,
      fingerprint: input.fingerprint ?? null,
      app_version: input.app_version ?? null,
    });
    return outcome.served;
  }

  /**
   * Counts the whole bundle an /updates/check answer offers, once per device and release (a device checking
   * again before it installs is offered the same download). Only that route calls it: the protocol adapters
   * hand out downloads of their own (patches, diff packages, per-file manifests) and count those.
   */
  countDownload(outcome: CheckOutcome, deviceId: string | undefined): void {
    const release = outcome.release;
    if (release === null || deviceId === undefined) return;
    this.deps.bytesServed?.record(outcome.route.appId, release.id, 'full', release.size, deviceId);
  }

  /**
   * A check refused before it was answered (429: the device asks too often) offered the device nothing. Noted
   * without a query: only for an app in the routing cache, and buffered like every other note (deleting a
   * device's offer makes no key, whatever device id the request made up).
   */
  throttled(appId: unknown, deviceId: unknown): void {
    if (this.deps.offers === undefined || typeof appId !== 'string' || !isDeviceId(deviceId)) return;
    const route = this.deps.routing.peek(appId);
    if (route) this.deps.offers.note(route.workspaceId, route.appId, deviceId, null);
  }

  /** Subscribes to routing invalidations and starts the background writers (the API calls it once). */
  async start(): Promise<void> {
    await this.deps.listener.start();
    this.deps.devices.start();
  }

  /** Stops listening and writes what is buffered. Safe to call twice. */
  async stop(): Promise<void> {
    await Promise.allSettled([this.deps.listener.stop(), this.deps.devices.stop()]);
  }

  /** `moduleId` is the module the device runs after the check: the one offered, else its current one. */
  private record(route: AppRoute, input: CheckInput, channel: string, moduleId: string | null): void {
    // A check without a device id cannot feed device counts; it is not recorded.
    if (input.device_id === undefined) return;
    this.deps.recorder.record({
      appId: route.appId,
      deviceId: input.device_id,
      channel,
      moduleId,
      // Always set (undefined when absent): every record keeps one shape on the hot path.
      appVersion: input.app_version,
      at: this.now(),
    });
  }
}

/** The module a device says it runs, when it is a release of the app (canonical id); otherwise null. */
function knownModule(modules: ReadonlySet<string>, moduleId: string | undefined): string | null {
  if (!moduleId) return null;
  const id = canonicalId(moduleId);
  return modules.has(id) ? id : null;
}
