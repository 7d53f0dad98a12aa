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

/** Loads what a protocol adapter adds to an app's routing state (the Expo releases), in the same load. */
export type RouteExtension = (appId: string) => Promise<Partial<AppRoute>>;

export interface RoutingSourceOptions {
  /** The API's own absolute download URL of a bundle, from its sha256. */
  bundleUrl: (sha256: string) => string;
  /** The store's URL of the bytes (a CDN, or presigned), when it has one; the API's URL otherwise. */
  bundleLink?: (sha256: string) => Promise<BlobLink | null>;
  extend?: RouteExtension;
}

export function createRoutingSource(
  stores: { routing: RoutingStore },
  options: RoutingSourceOptions,
): RoutingLoader {
  return new RoutingLoader(stores.routing, options);
}

/**
 * Loads an app's routing state (only on a routing-cache miss): the app and its active bundle releases,
 * then (when the app exists) the ids of its releases, its CodePush deployment keys, and what an extension
 * adds (the Expo releases).
 */
export class RoutingLoader implements RoutingSource {
  constructor(
    private readonly store: RoutingStore,
    private readonly options: RoutingSourceOptions,
  ) {}

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
      if (row.capacitor_checksum !== null) {
        release.capacitor = {
          checksum: row.capacitor_checksum,
          sessionKey: row.capacitor_session_key,
          keyId: row.capacitor_key_id,
        };
      }
      list.push(release);
      byId.set(release.id, release);
    }
    const channels = new Map<string, RoutedRelease[]>();
    for (const [channel, list] of byChannel) channels.set(channel, reachable(list));
    const keys = await this.store.deploymentKeys(appId);
    const modules = await this.store.moduleIds(appId, MAX_KNOWN_MODULES);
    const overrides = overridesOf(await this.store.deviceOverrides(appId), byId);
    const selfAssignable = await this.store.selfAssignableChannels(appId);
    const deleted = await this.store.deletedChannels(appId, MAX_DELETED_CHANNELS);
    const { handOutUntil: extensionLimit, ...extra } = this.options.extend
      ? await this.options.extend(appId)
      : {};
    handOutUntil = Math.min(handOutUntil, extensionLimit ?? Number.POSITIVE_INFINITY);
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
 * Capacitor devices are also told apart by the key a release was made with (src/capacitor/capacitor-rules.ts):
 * a device with a public key falls through unsigned releases, one without falls through signed ones. So the
 * cut comes only once every key of the list (and "no key", when it has unsigned releases) has a release
 * admitting all its devices.
 */
export function reachable<
  T extends Pick<RoutedRelease, 'rolloutPct' | 'fingerprint' | 'binaryRange' | 'paused' | 'capacitor'>,
>(newestFirst: readonly T[]): T[] {
  const open = new Set(newestFirst.map((r) => r.capacitor?.keyId ?? null));
  for (let i = 0; i < newestFirst.length; i++) {
    const r = newestFirst[i]!;
    if (r.rolloutPct >= 100 && r.fingerprint === null && r.binaryRange === null && !r.paused) {
      open.delete(r.capacitor?.keyId ?? null);
      if (open.size === 0) return newestFirst.slice(0, i + 1);
    }
  }
  return [...newestFirst];
}
