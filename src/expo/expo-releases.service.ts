import { createHash, randomUUID } from 'node:crypto';
import type { Principal } from '../access/principal.js';
import type { AppsService } from '../apps/apps.service.js';
import type { BlobStore } from '../bundles/blob-store.js';
import type { BundlesStore } from '../bundles/bundles.store.js';
import { badRequest } from '../platform/errors.js';
import type { Queryable } from '../platform/postgres.js';
import type { ReleasesService } from '../releases/releases.service.js';
import type { ReleaseRow } from '../releases/releases.store.js';
import type { PushInput } from '../releases/releases.types.js';
import type { DraftAnswer, SignedPushDrafts } from './drafts.js';
import {
  directiveBytes,
  EXPO_PLATFORMS,
  type ExpoPlatform,
  type ExportFile,
  manifestBytes,
  type PermanentAssetUrl,
} from './expo.manifest.js';
import type { EmbeddedUpdate, ManifestPart, ManifestsStore } from './manifests.store.js';

export interface ExpoPlatformFiles {
  /** sha256 of the uploaded launch asset (the JavaScript or Hermes bundle). */
  bundle: string;
  assets: Array<{ sha256: string; ext: string }>;
}

export interface ExpoPushInput {
  app_id: string;
  version: string;
  runtime_version: string;
  channel?: string;
  rollout_pct?: number;
  mandatory?: boolean;
  notes?: string;
  platforms: Partial<Record<ExpoPlatform, ExpoPlatformFiles>>;
  /** The manifest's `extra` (for example `{ expoClient: <the app config> }`). */
  extra?: Record<string, unknown>;
  /** Sign on the developer's machine with this key id: the answer is a draft to sign. */
  key_id?: string;
  /** The update embedded in the binaries it targets, per platform: a patch base for fresh installs. */
  embedded?: Partial<Record<ExpoPlatform, { update_id: string; bundle: string }>>;
}

/** What a push that a signing key may hold back answers: the release, or a draft to sign first. */
export type ReleaseOrDraft = { kind: 'release'; release: ReleaseRow } | { kind: 'draft'; draft: DraftAnswer };

/** The writers of such a push (Expo pushes, promotions): the one writer of releases, and the drafts. */
export interface ReleaseWriters {
  releases: Pick<ReleasesService, 'push'>;
  drafts: SignedPushDrafts;
}

/** Where a signed push's draft keeps its embedded updates until the signatures complete it. */
export const EMBEDDED_FIELD = 'expo_embedded';

/** The manifest's `extra` is kept small: it travels in every manifest answer. */
export const MAX_EXTRA_BYTES = 64 * 1024;

/** The stores the Expo releases service reads and writes. */
export interface ExpoReleasesStores {
  bundles: BundlesStore;
  manifests: ManifestsStore;
}

export interface ExpoReleasesOptions extends ReleaseWriters {
  /** Apps, to register the runtime version. */
  apps: Pick<AppsService, 'registerFingerprint'>;
  /** The bundle bytes, read once per file for its md5. */
  blobs: BlobStore;
  publicUrl: string;
  /** Permanent store URLs of assets (BUNDLE_BASE_URL), written into manifests at push time. */
  storeUrl?: PermanentAssetUrl;
}

export function createExpoReleasesService(
  stores: ExpoReleasesStores,
  options: ExpoReleasesOptions,
): ExpoReleasesService {
  return new ExpoReleasesService({ bundles: stores.bundles, manifests: stores.manifests, ...options });
}

/**
 * Pushes an `npx expo export` as one release (docs/guides/expo.md). Every file was uploaded
 * as a bundle of the app; the service reads each once to take its md5 (the asset key expo-updates uses),
 * builds each platform's manifest and the release's rollBackToEmbedded directive, and pushes the release
 * through the releases service, so audit, webhook, plan gates and routing are those of any push. The
 * runtime version is the release's fingerprint (registered for the app if new).
 */
export class ExpoReleasesService {
  constructor(private readonly deps: ExpoReleasesStores & ExpoReleasesOptions) {}

  async push(principal: Principal, input: ExpoPushInput): Promise<ReleaseOrDraft> {
    const platforms = EXPO_PLATFORMS.filter((p) => input.platforms[p] !== undefined);
    const launchAsset = input.platforms[platforms[0]!]!.bundle.toLowerCase();
    const push: PushInput = {
      app_id: input.app_id,
      version: input.version,
      // The release's own bundle is the first platform's launch asset (iOS, else Android).
      sha256: launchAsset,
      fingerprint: input.runtime_version,
      ...(input.channel !== undefined ? { channel: input.channel } : {}),
      ...(input.rollout_pct !== undefined ? { rollout_pct: input.rollout_pct } : {}),
      ...(input.mandatory !== undefined ? { mandatory: input.mandatory } : {}),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
    };
    await this.deps.drafts.preflight(principal, push);
    const extra = input.extra ?? {};
    if (Buffer.byteLength(JSON.stringify(extra)) > MAX_EXTRA_BYTES) {
      throw badRequest(`extra may hold at most ${MAX_EXTRA_BYTES} bytes of JSON.`, 'extra_too_large');
    }
    const files = await this.files(input);
    const embedded = await this.embeddedOf(input, platforms);

    await this.deps.apps.registerFingerprint(principal, input.app_id, input.runtime_version);
    const id = randomUUID();
    const createdAt = new Date();
    const parts: Partial<Record<ManifestPart, Buffer>> = { directive: directiveBytes(createdAt) };
    for (const platform of platforms) {
      const { bundle, assets } = files.get(platform)!;
      parts[platform] = manifestBytes(
        {
          id,
          appId: input.app_id,
          createdAt,
          runtimeVersion: input.runtime_version,
          launchAsset: bundle,
          assets,
          extra,
        },
        this.deps.publicUrl,
        this.deps.storeUrl,
      );
    }

    if (input.key_id !== undefined) {
      const draft = await this.deps.drafts.create(principal, {
        id,
        createdAt,
        keyId: input.key_id,
        // Not signed (no manifest names it): recorded when the signatures complete the draft.
        push: embedded.length > 0 ? ({ ...push, [EMBEDDED_FIELD]: embedded } as PushInput) : push,
        parts,
      });
      return { kind: 'draft', draft };
    }
    const stored = Object.entries(parts).map(([part, body]) => ({
      part: part as ManifestPart,
      body,
      signature: null,
      keyId: null,
    }));
    const assets = [...new Set([...files.values()].flatMap((f) => f.assets.map((a) => a.sha256)))].sort();
    const release = await this.deps.releases.push(
      principal,
      { ...push, id, created_at: createdAt },
      {
        afterInsert: async (tx, row) => {
          await this.claimAssets(tx, input.app_id, [...assets, ...embedded.map((e) => e.launch_asset)]);
          await this.deps.manifests.insertParts(tx, row, stored);
          if (embedded.length > 0) await this.deps.manifests.insertEmbedded(tx, row.id, embedded);
        },
      },
    );
    return { kind: 'release', release };
  }

  /** The embedded updates the push records: only for its platforms, each bundle an upload of the app. */
  private async embeddedOf(
    input: ExpoPushInput,
    platforms: readonly ExpoPlatform[],
  ): Promise<EmbeddedUpdate[]> {
    const out: EmbeddedUpdate[] = [];
    for (const [platform, given] of Object.entries(input.embedded ?? {}) as Array<
      [ExpoPlatform, { update_id: string; bundle: string }]
    >) {
      if (!platforms.includes(platform)) {
        throw badRequest(
          `embedded.${platform} names an update of a platform this release does not serve.`,
          'embedded_platform_not_pushed',
        );
      }
      const launch_asset = given.bundle.toLowerCase();
      if (!(await this.deps.bundles.find(input.app_id, launch_asset))) {
        throw badRequest(
          `The embedded ${platform} bundle (${launch_asset}) was not uploaded for this app; upload it with PUT /apps/{app_id}/bundles first.`,
          'unknown_bundle',
        );
      }
      out.push({ platform, update_id: given.update_id.toLowerCase(), launch_asset });
    }
    return out;
  }

  /** Every file of every platform, checked to be an upload of the app, with its md5 (read once each). */
  private async files(
    input: ExpoPushInput,
  ): Promise<Map<ExpoPlatform, { bundle: ExportFile; assets: ExportFile[] }>> {
    const md5s = new Map<string, Promise<string>>();
    const fileOf = async (sha: string, ext: string | null, what: string): Promise<ExportFile> => {
      const sha256 = sha.toLowerCase();
      let md5 = md5s.get(sha256);
      if (!md5) {
        md5 = this.md5Of(input.app_id, sha256, what);
        md5s.set(sha256, md5);
      }
      return { sha256, md5: await md5, ext: ext === null ? null : ext.toLowerCase() };
    };
    const out = new Map<ExpoPlatform, { bundle: ExportFile; assets: ExportFile[] }>();
    for (const platform of EXPO_PLATFORMS) {
      const files = input.platforms[platform];
      if (!files) continue;
      const bundle = await fileOf(files.bundle, null, `the ${platform} bundle`);
      const assets: ExportFile[] = [];
      for (const [i, asset] of files.assets.entries())
        assets.push(await fileOf(asset.sha256, asset.ext, `${platform} asset ${i}`));
      out.set(platform, { bundle, assets });
    }
    return out;
  }

  /**
   * Under each asset's blob lock (in order, so two pushes cannot deadlock), checks again that the app's
   * upload of it is on record: the retention sweep deletes the record with the bytes, so a push that
   * passes here refers only to bytes that stay.
   */
  private async claimAssets(tx: Queryable, appId: string, sha256s: readonly string[]): Promise<void> {
    for (const sha256 of sha256s) {
      await this.deps.bundles.lockBlob(tx, sha256);
      if (!(await this.deps.bundles.find(appId, sha256, tx))) {
        throw badRequest(
          `An asset (${sha256}) is no longer stored; upload it again with PUT /apps/{app_id}/bundles.`,
          'unknown_bundle',
        );
      }
    }
  }

  private async md5Of(appId: string, sha256: string, what: string): Promise<string> {
    if (!(await this.deps.bundles.find(appId, sha256))) {
      throw badRequest(
        `${what} (${sha256}) was not uploaded for this app; upload it with PUT /apps/{app_id}/bundles first.`,
        'unknown_bundle',
      );
    }
    const hash = createHash('md5');
    for await (const chunk of this.deps.blobs.createReadStream(sha256)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }
}
