import type { DeviceCapGate } from '../devices/device-cap.js';
import type { RedisDistinctDevices } from '../devices/distinct-devices.redis.js';
import { capabilitiesOf } from '../plans/plans.js';
import { notFound } from '../platform/errors.js';
import { canonicalId, type RoutingCache } from '../routing/routing.cache.js';
import type { RoutingInvalidationListener } from '../routing/routing.listener.js';
import type { AppRoute, RoutedRelease } from '../routing/routing.types.js';
import type { CheckRecorder } from '../telemetry/check-recorder.js';
import { resolveRelease } from './resolve.js';

export const DEFAULT_CHANNEL = 'production';

export interface CheckInput {
  app_id: string;
  device_id: string;
  channel?: string;
  fingerprint?: string;
  current_module_id?: string;
  /** The native app version, already normalised (normalizeAppVersion); matched against binary ranges. */
  app_version?: string;
}

/** What a protocol adapter needs of a check: the app's routing state and the release to serve (or null). */
export interface CheckOutcome {
  route: AppRoute;
  /** The release the device is to run; null when none fits or it already runs it, or at the device cap. */
  release: RoutedRelease | null;
  /** False when the workspace's device cap refused the device (the answer is then "no update"). */
  admitted: boolean;
}

export interface UpdateOffer {
  module_id: string;
  version: string;
  sha256: string;
  size: number;
  url: string;
  mandatory: boolean;
  notes: string;
}

export interface UpdateCheckDeps {
  routing: RoutingCache;
  listener: RoutingInvalidationListener;
  gate: DeviceCapGate;
  devices: Pick<RedisDistinctDevices, 'add' | 'start' | 'stop'>;
  /** Counts checks for analytics; buffers and writes off the request path. */
  recorder: Pick<CheckRecorder, 'record'>;
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

  async check(input: CheckInput): Promise<UpdateOffer | null> {
    const { release } = await this.resolve(input);
    if (release === null) return null;
    return {
      module_id: release.id,
      version: release.version,
      sha256: release.sha256,
      size: release.size,
      url: release.url,
      mandatory: release.mandatory,
      notes: release.notes,
    };
  }

  /**
   * The check itself, for /updates/check and the protocol adapters alike: one resolver, one bucket rule,
   * one device cap, one recorder.
   */
  async resolve(input: CheckInput): Promise<CheckOutcome> {
    const { routing, gate } = this.deps;
    let route = routing.peek(input.app_id);
    if (route === undefined) route = await routing.load(input.app_id);
    if (route === null) throw notFound('App', 'app_not_found');
    const channel = input.channel ?? DEFAULT_CHANNEL;

    // Every checking device is an active device: it is counted (or refused at the cap) whether or not a
    // release is waiting, so a device already running the newest module keeps its place in the set.
    const cap = capabilitiesOf(route.plan).deviceCap;
    const admitting = gate.admit(route.workspaceId, input.device_id, cap);
    // Known devices are answered synchronously: no await, so no extra turn of the event loop.
    const admitted = typeof admitting === 'boolean' ? admitting : await admitting;
    // Only a release of the app is recorded as the module a device runs, never a string it made up.
    const current = knownModule(route.modules, input.current_module_id);
    if (!admitted) {
      this.record(input, channel, current);
      return { route, release: null, admitted: false };
    }
    this.deps.devices.add(route.workspaceId, input.device_id);

    const release = resolveRelease(
      route.channels.get(channel) ?? [],
      input.device_id,
      input.fingerprint,
      input.app_version,
    );
    if (release === null || release.id === current) {
      this.record(input, channel, current);
      return { route, release: null, admitted: true };
    }
    this.record(input, channel, release.id);
    return { route, release, admitted: true };
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
  private record(input: CheckInput, channel: string, moduleId: string | null): void {
    this.deps.recorder.record({
      appId: input.app_id,
      deviceId: input.device_id,
      channel,
      moduleId,
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
