import { isUuid } from '@ota/shared/ids';
import type { BlobLink } from '../bundles/blob-links.js';
import { isPlan } from '../plans/plans.js';
import { binaryRangeOf } from '../releases/binary-range.js';
import type { RoutingOverrideRow, RoutingReleaseRow, RoutingStore } from './routing.store.js';
import type {
  AppRoute,
  ReleaseSignature,
  RoutedOverride,
  RoutedRelease,
  RouteSlots,
  RoutingSource,
} from './routing.types.js';

/**
 * Release ids of an app held in the cache: enough for any app's history (a release pushed every hour for a
 * year is under 9,000), while bounding an API process's memory per app. Events naming an older release are
 * refused as naming an unknown module.
 */
export const MAX_KNOWN_MODULES = 10_000;

/**
 * Deleted channels held in the cache per app: enough for a preview channel per pull request for years. A build made for a
 * channel deleted longer ago than that asks for a name the app does not know, and is served nothing.
 */
export const MAX_DELETED_CHANNELS = 10_000;

/** What a slot loader adds to an app's entry, and until when its URLs may be handed out (presigned). */
export interface RouteSlotLoad {
  slots: RouteSlots;
  handOutUntil?: number;
}

/**
 * How a protocol adapter fills its slots of the routing entry (RouteSlots, ReleaseSlots), in the same load
 * as the rest of the entry: never per request.
 */
export interface RouteSlotLoader {
  /** The adapter's slots of the app's entry; `earlier` holds those of the loaders listed before it. */
  load?(appId: string, earlier: Readonly<RouteSlots>): Promise<RouteSlotLoad>;
  /** Fills the adapter's slots of one release from its row. */
  release?(row: RoutingReleaseRow, release: RoutedRelease): void;
  /**
   * The audience a release is made for, when the adapter's devices are told apart by more than the
   * fingerprint and the native version (Capacitor: the key it was signed with); see reachable().
   */
  audienceOf?(release: RoutedRelease): string | null;
}

export interface RoutingSourceOptions {
  /** The API's own absolute download URL of a bundle, from its sha256. */
  bundleUrl: (sha256: string) => string;
  /** The store's URL of the bytes (a CDN, or presigned), when it has one; the API's URL otherwise. */
  bundleLink?: (sha256: string) => Promise<BlobLink | null>;
  /** The protocol adapters' slots, loaded in this order. */
  slots?: readonly RouteSlotLoader[];
}

export function createRoutingSource(
  stores: { routing: RoutingStore },
  options: RoutingSourceOptions,
): RoutingLoader {
  return new RoutingLoader(stores.routing, options);
}

/**
 * Loads an app's routing state (only on a routing-cache miss): the app and its active bundle releases,
 * then (when the app exists) the ids of its releases, its CodePush deployment keys, and the protocol
 * adapters' slots.
 */
export class RoutingLoader implements RoutingSource {
  private readonly releaseSlots: readonly RouteSlotLoader[];
  private readonly audienceOf: (release: RoutedRelease) => string | null;

  constructor(
    private readonly store: RoutingStore,
    private readonly options: RoutingSourceOptions,
  ) {
    const slots = options.slots ?? [];
    this.releaseSlots = slots.filter((s) => s.release !== undefined);
    const audience = slots.find((s) => s.audienceOf !== undefined);
    this.audienceOf = audience?.audienceOf ? audience.audienceOf.bind(audience) : () => null;
  }

  async load(appId: string): Promise<AppRoute | null> {
    if (!isUuid(appId)) return null;
    const found = await this.store.app(appId);
    if (!found) return null;
    const first = found.app;
    if (!isPlan(first.plan))
      throw new Error(`workspace ${first.workspace_id} has unknown plan ${first.plan}`);
    const byChannel = new Map<string, RoutedRelease[]>();
    const byId = new Map<string, RoutedRelease>();
    let handOutUntil = Number.POSITIVE_INFINITY;
    const urlOf = async (sha256: string) => {
      const link = await this.options.bundleLink?.(sha256);
      if (!link) return this.options.bundleUrl(sha256);
      handOutUntil = Math.min(handOutUntil, link.handOutUntil);
      return link.url;
    };
    for (const row of found.releases) {
      let list = byChannel.get(row.channel);
      if (!list) {
        list = [];
        byChannel.set(row.channel, list);
      }
      const release: RoutedRelease = {
        id: row.id,
        version: row.version,
        rolloutPct: row.rollout_pct,
        fingerprint: row.fingerprint,
        // Parsed once per load: the hot path only tests (and remembers) versions against it.
        binaryRange: binaryRangeOf(row.target_binary_range),
        mandatory: row.mandatory,
        paused: row.paused,
        notes: row.notes,
        sha256: row.sha256,
        size: row.size,
        url: await urlOf(row.sha256),
        answers: new Map(),
      };
      if (row.crc32 !== null) release.crc32 = row.crc32;
      const signature = signatureOf(row);
      if (signature) release.signature = signature;
      for (const slot of this.releaseSlots) slot.release!(row, release);
      list.push(release);
      byId.set(release.id, release);
    }
    const channels = new Map<string, RoutedRelease[]>();
    for (const [channel, list] of byChannel) channels.set(channel, reachable(list, this.audienceOf));
    const keys = await this.store.deploymentKeys(appId);
    const modules = await this.store.moduleIds(appId, MAX_KNOWN_MODULES);
    const overrides = overridesOf(await this.store.deviceOverrides(appId), byId);
    const selfAssignable = await this.store.selfAssignableChannels(appId);
    const deleted = await this.store.deletedChannels(appId, MAX_DELETED_CHANNELS);
    const extra: RouteSlots = {};
    for (const slot of this.options.slots ?? []) {
      if (!slot.load) continue;
      const loaded = await slot.load(appId, extra);
      Object.assign(extra, loaded.slots);
      handOutUntil = Math.min(handOutUntil, loaded.handOutUntil ?? Number.POSITIVE_INFINITY);
    }
    return {
      ...extra,
      ...(Number.isFinite(handOutUntil) ? { handOutUntil } : {}),
      appId,
      workspaceId: first.workspace_id,
      plan: first.plan,
      channels,
      ...(overrides ? { overrides } : {}),
      ...(selfAssignable.length > 0 ? { selfAssignable: new Set(selfAssignable) } : {}),
      ...(deleted.length > 0 ? { deletedChannels: new Set(deleted) } : {}),
      modules: new Set(modules),
      deploymentKeys: new Map(keys.map((k) => [k.key, k.channel])),
      answers: new Map(),
    };
  }
}

/** The overrides by device id, each pinned release resolved to its routed release; undefined for none. */
function overridesOf(
  rows: readonly RoutingOverrideRow[],
  releases: ReadonlyMap<string, RoutedRelease>,
): Map<string, RoutedOverride> | undefined {
  if (rows.length === 0) return undefined;
  const out = new Map<string, RoutedOverride>();
  for (const row of rows) {
    if (row.channel !== null) out.set(row.device_id, { kind: 'channel', channel: row.channel });
    else if (row.release_id !== null) {
      const release = releases.get(row.release_id) ?? null;
      out.set(row.device_id, { kind: 'release', moduleId: row.release_id, release });
    }
  }
  return out;
}

function signatureOf(row: RoutingReleaseRow): ReleaseSignature | undefined {
  if (row.signed_manifest === null || row.signature === null || row.key_id === null) return undefined;
  return {
    manifest: row.signed_manifest.toString('utf8'),
    sig: row.signature,
    keyid: row.key_id,
    alg: 'rsa-v1_5-sha256',
  };
}

/**
 * Drops releases no device can ever reach: everything older than the newest release that admits every
 * device whatever its fingerprint and native version. A paused release admits only the devices that run it,
 * so devices fall through it: it never cuts. Keeps the cached list short on apps with a long history.
 *
 * An adapter may tell its devices apart further (`audienceOf`; Capacitor by the key a release was made
 * with, src/capacitor/capacitor-rules.ts: a device with a public key falls through unsigned releases, one
 * without falls through signed ones). So the cut comes only once every audience of the list (and "none")
 * has a release admitting all its devices.
 */
export function reachable<T extends RoutedRelease>(
  newestFirst: readonly T[],
  audienceOf: (release: T) => string | null = () => null,
): T[] {
  const open = new Set(newestFirst.map(audienceOf));
  for (let i = 0; i < newestFirst.length; i++) {
    const r = newestFirst[i]!;
    if (r.rolloutPct >= 100 && r.fingerprint === null && r.binaryRange === null && !r.paused) {
      open.delete(audienceOf(r));
      if (open.size === 0) return newestFirst.slice(0, i + 1);
    }
  }
  return [...newestFirst];
}
