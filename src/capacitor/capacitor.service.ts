import { createHash } from 'node:crypto';
import type { BytesServedRecorder } from '../analytics/bytes-served.js';
import type { ReleaseHistories } from '../codepush/release-history.js';
import type { CapacitorManifestEntry, CapacitorManifests } from '../deltas/capacitor-manifest.js';
import type { DeviceOffers } from '../devices/device-offers.js';
import type { DeviceClient } from '../edge/client-address.js';
import type { DeviceEventInput, EventIngestService } from '../intake/events.service.js';
import { servedChannel } from '../overrides/device-override.js';
import { badRequest, notFound } from '../platform/errors.js';
import type { CheckDecision } from '../platform/tallies.js';
import { normalizeAppVersion } from '../releases/binary-range.js';
import type { RoutingCache } from '../routing/routing.cache.js';
import type { AppRoute, RoutedRelease } from '../routing/routing.types.js';
import type { UpdateCheckService } from '../updates/updates.service.js';
import { type CapacitorAnswer, notAnUpdate, RESET, updateAnswer } from './capacitor-answers.js';
import type { CapacitorChannelsStore } from './capacitor-channels.store.js';
import { creditable, DOWNLOAD_SIDE_ACTIONS, failureMessage, offeredRelease } from './capacitor-credit.js';
import {
  askedChannel,
  COUNTED_ACTIONS,
  type DeviceFit,
  installable,
  releasesFor,
} from './capacitor-rules.js';
import { pluginAbilities } from './plugin-versions.js';

/** What the service reads of the plugin's info object (capacitor-protocol.md §3). */
export interface CapacitorInfo {
  device_id: string;
  version_name?: string;
  version_build?: string;
  plugin_version?: string;
  platform?: string;
  defaultChannel?: string;
  key_id?: string;
}

export interface CapacitorStat extends CapacitorInfo {
  action: string;
}

export interface CapacitorDeps {
  routing: RoutingCache;
  updates: Pick<UpdateCheckService, 'resolve'>;
  events: Pick<EventIngestService, 'accept'>;
  /** Version names of a channel's releases, rolled back ones included (one query per routing load). */
  histories: Pick<ReleaseHistories, 'of'>;
  channels: CapacitorChannelsStore;
  /** What each device was last offered: download-side failures are credited to it (capacitor-credit.ts). */
  offers: Pick<DeviceOffers, 'offered'>;
  manifests?: Pick<CapacitorManifests, 'manifestFor'>;
  bytesServed?: BytesServedRecorder;
}

/** An update check's answer and what it tells the device, for /metrics. */
export interface CapacitorCheck {
  answer: CapacitorAnswer;
  decision: CheckDecision;
}

/**
 * The @capgo/capacitor-updater protocol as a thin adapter (DESIGN.md, "Protocol adapters"): `device_id` is the
 * device, `version_name` the release version it runs, `version_build` its native version, `defaultChannel`
 * (or the channel it stored) the channel it asks for. Checks go through UpdateCheckService (resolver,
 * buckets, pause, overrides, device cap, check recording) and statistics through the event intake, whose
 * failure reporters weigh errors for spike alerts and their automatic actions.
 */
export class CapacitorService {
  constructor(private readonly deps: CapacitorDeps) {}

  async updateCheck(appId: string, info: CapacitorInfo, client: DeviceClient): Promise<CapacitorCheck> {
    const route = await this.route(appId);
    const deviceId = info.device_id;
    const asked = await this.asked(route, info);
    const channel = servedChannel(route, deviceId, asked.channel);
    const running = await this.running(route, channel, deviceId, info.version_name);
    const appVersion = info.version_build
      ? (normalizeAppVersion(info.version_build) ?? undefined)
      : undefined;
    const plugin = pluginAbilities(info.plugin_version, info.platform);
    const fit: DeviceFit = { keyId: info.key_id, plugin };
    const outcome = await this.deps.updates.resolve({
      app_id: appId,
      device_id: deviceId,
      channel: asked.channel,
      client,
      // Its download-side failures are credited to what it is offered (capacitor-credit.ts).
      noteOffer: true,
      ...(appVersion !== undefined ? { app_version: appVersion } : {}),
      ...(running !== undefined ? { current_module_id: running } : {}),
      // A device is offered only what it can verify: releases made with its key, or unsigned ones, with a
      // checksum its plugin compares.
      candidates: (r, served) => releasesFor(r.channels.get(served) ?? [], fit),
      pinned: (r, moduleId) => {
        const override = r.overrides?.get(deviceId);
        const release =
          override?.kind === 'release' && override.moduleId === moduleId ? override.release : null;
        return release !== null && installable(release, fit) ? release : null;
      },
    });
    if (!outcome.admitted) {
      const reason = outcome.refused ?? 'device_cap';
      return { answer: notAnUpdate(reason), decision: reason };
    }
    const release = outcome.release;
    if (release !== null) {
      // Only plugins that apply `.br` files get a manifest; the others download the zip.
      const manifest = plugin.manifest ? await this.manifestOf(route, release, info.version_name) : undefined;
      this.countBytes(route, release, running, deviceId, manifest !== undefined);
      return { answer: updateAnswer(release, plugin.checksum, manifest), decision: 'served' };
    }
    // The device runs a release of ours that it must no longer run (rolled back, out of a lowered rollout,
    // made with another key) and nothing else is to be served: back to the bundle built into the app.
    if (!outcome.upToDate && running !== undefined && plugin.resetsToBuiltin)
      return { answer: RESET, decision: 'served' };
    return { answer: notAnUpdate('up_to_date'), decision: 'up_to_date' };
  }

  /**
   * Statistics of one device: one object (plugins before 8.42) or a batch. The counted actions become device
   * events of the release `version_name` names on the device's channel, each once per device, release and
   * kind (the event id is made of the three); the others are taken and not counted. Download-side failures
   * count against the release last offered the device instead, whatever they name (capacitor-credit.ts).
   */
  async stats(appId: string, stats: readonly CapacitorStat[], client: DeviceClient): Promise<void> {
    const deviceId = stats[0]!.device_id;
    if (stats.some((s) => s.device_id !== deviceId)) {
      throw badRequest(
        'A statistics batch comes from one device: every device_id must be the same.',
        'invalid_request',
        {
          field: 'device_id',
        },
      );
    }
    const route = await this.route(appId);
    const counted = stats.filter((s) => COUNTED_ACTIONS.has(s.action) && creditable(s));
    if (counted.length === 0) return;
    const asked = await this.asked(route, stats[0]!);
    const channel = servedChannel(route, deviceId, asked.channel);
    const offered = offeredRelease(this.deps.offers, route, deviceId);
    const events = new Map<string, DeviceEventInput>();
    for (const stat of counted) {
      const moduleId = DOWNLOAD_SIDE_ACTIONS.has(stat.action)
        ? await offered()
        : await this.releaseOfStat(route, channel, deviceId, stat.version_name!);
      if (moduleId === undefined) continue;
      const kind = COUNTED_ACTIONS.get(stat.action)!;
      const id = statEventId(kind, moduleId, deviceId);
      events.set(id, {
        id,
        device_id: deviceId,
        module_id: moduleId,
        type: kind,
        ...(kind === 'error' ? { message: failureMessage(stat.action, moduleId) } : {}),
      });
    }
    if (events.size > 0) await this.deps.events.accept(route.appId, [...events.values()], client);
  }

  /** The app's routing state; a 404 problem for an unknown app. */
  async route(appId: string): Promise<AppRoute> {
    const { routing } = this.deps;
    // A cached null is an app known not to exist: answered from memory, not looked up again.
    const peeked = routing.peek(appId);
    const route = peeked === undefined ? await routing.load(appId) : peeked;
    if (!route) throw notFound('App', 'app_not_found');
    return route;
  }

  /**
   * The channel the device asks for: a plugin that keeps its channel sends it as `defaultChannel`; for one
   * that relies on the server (plugin-versions.ts `channel: 'server'`) the stored channel comes first, and
   * only then is the store read.
   */
  async asked(route: AppRoute, info: CapacitorInfo) {
    if (pluginAbilities(info.plugin_version, info.platform).channel === 'device')
      return askedChannel(route, info.defaultChannel);
    const stored = await this.deps.channels.get(route, info.device_id);
    return askedChannel(route, stored, info.defaultChannel);
  }

  /**
   * The release a statistic's `version_name` names. The iOS queue names a manifest file's failure
   * `"<version>:<file>"`: when the whole name is no release, the part before the first `:` is read.
   */
  private async releaseOfStat(
    route: AppRoute,
    channel: string,
    deviceId: string,
    name: string,
  ): Promise<string | undefined> {
    const exact = await this.releaseNamed(route, channel, deviceId, name);
    const colon = name.indexOf(':');
    if (exact !== undefined || colon <= 0) return exact;
    return this.releaseNamed(route, channel, deviceId, name.slice(0, colon));
  }

  /** The release a version name means for this device: its pinned release, else one of the channel's. */
  private async releaseNamed(
    route: AppRoute,
    channel: string,
    deviceId: string,
    version: string,
  ): Promise<string | undefined> {
    const override = route.overrides?.get(deviceId);
    if (override?.kind === 'release' && override.release?.version === version) return override.release.id;
    const active = route.channels.get(channel)?.find((r) => r.version === version);
    if (active) return active.id;
    return (await this.deps.histories.of(route, channel)).releaseOf(version);
  }

  /** The module the device runs, when `version_name` names a release of ours (`builtin` names none). */
  private running(
    route: AppRoute,
    channel: string,
    deviceId: string,
    version: string | undefined,
  ): Promise<string | undefined> | undefined {
    if (version === undefined || version === '' || version === 'builtin') return undefined;
    return this.releaseNamed(route, channel, deviceId, version);
  }

  private async manifestOf(
    route: AppRoute,
    release: RoutedRelease,
    deviceVersion: string | undefined,
  ): Promise<CapacitorManifestEntry[] | undefined> {
    // An encrypted release's files are not in the clear: its devices download the zip.
    if (!this.deps.manifests || release.capacitor?.sessionKey) return undefined;
    return this.deps.manifests.manifestFor(route.deltas, release.id, deviceVersion);
  }

  /**
   * bytes_served: the offered download once per device and release, as CodePush counts it: the files the
   * device lacks when a manifest goes with the offer, the whole zip otherwise.
   */
  private countBytes(
    route: AppRoute,
    release: RoutedRelease,
    running: string | undefined,
    deviceId: string,
    withManifest: boolean,
  ): void {
    const { bytesServed } = this.deps;
    if (!bytesServed) return;
    const delta = withManifest
      ? route.deltas?.deltas.find(
          (d) =>
            d.kind === 'capacitor-files' &&
            d.target_release_id === release.id &&
            d.base_release_id === running,
        )
      : undefined;
    if (delta) bytesServed.record(route.appId, release.id, 'per_file', delta.size, deviceId);
    else bytesServed.record(route.appId, release.id, 'full', release.size, deviceId);
  }
}

/** `cap.<kind>.<40 hex>`: fits the event id rules of POST /devices/events (1-128 of A-Za-z0-9._:-). */
export function statEventId(kind: string, moduleId: string, deviceId: string): string {
  const digest = createHash('sha256').update(`${moduleId}:${deviceId}`).digest('hex');
  return `cap.${kind}.${digest.slice(0, 40)}`;
}
