import { randomUUID } from 'node:crypto';
import { type Principal, requireRole } from '../access/principal.js';
import { checkManifestBytes } from '../expo/check-manifest.js';
import { directiveBytes, redatedManifest } from '../expo/expo.manifest.js';
import type { ReleaseOrDraft, ReleaseWriters } from '../expo/expo-releases.service.js';
import type { ManifestPart, ManifestsStore, StoredPart } from '../expo/manifests.store.js';
import { badRequest, conflict, notFound } from '../platform/errors.js';
import { FULL_ROLLOUT, versionTaken } from '../releases/releases.rules.js';
import type { ReleaseRow, ReleasesStore } from '../releases/releases.store.js';
import type { PushInput } from '../releases/releases.types.js';

export interface PromoteInput {
  channel: string;
  rollout_pct?: number;
  notes?: string;
  /** Sign the copy on the developer's machine with this key id: the answer is a draft to sign. */
  key_id?: string;
}

/** The stores the promotion service reads (it writes through the releases service and the drafts). */
export interface PromotionStores {
  releases: ReleasesStore;
  manifests: ManifestsStore;
}

export function createPromotionService(stores: PromotionStores, options: ReleaseWriters): PromotionService {
  return new PromotionService(stores, options);
}

/**
 * Promotion (API.md, "Release workflows"): a new release on another channel with the same bytes, assets,
 * version, fingerprint or runtime version, binary range, mandatory flag and Capacitor fields, and its own
 * statistics. It is a push in every other way (plan gates, 409 version_exists, audit `module.push`, webhook
 * `release.pushed`, a deltas job), with `promoted_from` naming where it came from. The served parts that
 * name the release (its id, time, channel) are made anew: a signed release is promoted only with new
 * signatures made on the developer's machine (a draft), never as an unsigned copy.
 */
export class PromotionService {
  constructor(
    private readonly stores: PromotionStores,
    private readonly options: ReleaseWriters,
  ) {}

  async promote(principal: Principal, moduleId: string, input: PromoteInput): Promise<ReleaseOrDraft> {
    requireRole(principal, 'developer', 'Promoting releases');
    const source = await this.stores.releases.find(principal.workspaceId, moduleId);
    if (!source) throw notFound('Release', 'release_not_found');
    if (!source.active) {
      throw conflict(
        'This release was rolled back; promote a release that is still served.',
        'release_inactive',
      );
    }
    const parts = await this.stores.manifests.parts(source.id);
    if (input.key_id === undefined && parts.some((p) => p.signature !== null)) {
      throw badRequest(
        'This release is signed: its copy needs signatures of its own. Promote it with `ota promote ' +
          '--private-key` (key_id in the request), which signs on your machine.',
        'signature_required',
      );
    }
    const push = pushOf(source, input);
    const id = randomUUID();
    const createdAt = new Date();
    const bytes = partsOf(source, parts, push, { id, createdAt, signing: input.key_id !== undefined });
    if (input.key_id !== undefined) {
      await this.options.drafts.preflight(principal, push);
      // Known before anything is signed; the completed push checks again under the app's lock.
      const taken = await this.stores.releases.findVersion(source.app_id, input.channel, source.version);
      if (taken) throw versionTaken(source.version, input.channel, taken.id);
      const draft = await this.options.drafts.create(principal, {
        id,
        createdAt,
        keyId: input.key_id,
        push,
        parts: bytes,
      });
      return { kind: 'draft', draft };
    }
    const stored: StoredPart[] = Object.entries(bytes).map(([part, body]) => ({
      part: part as ManifestPart,
      body,
      signature: null,
      keyId: null,
    }));
    const release = await this.options.releases.push(
      principal,
      { ...push, id, created_at: createdAt },
      stored.length === 0
        ? {}
        : { afterInsert: (tx, row) => this.stores.manifests.insertParts(tx, row, stored) },
    );
    return { kind: 'release', release };
  }
}

/** The push a promotion makes: the source's bytes and metadata on the target channel. */
function pushOf(source: ReleaseRow, input: PromoteInput): PushInput {
  return {
    app_id: source.app_id,
    version: source.version,
    sha256: source.sha256,
    channel: input.channel,
    rollout_pct: input.rollout_pct ?? FULL_ROLLOUT,
    mandatory: source.mandatory,
    notes: input.notes ?? source.notes,
    fingerprint: source.fingerprint,
    target_binary_range: source.target_binary_range,
    ...(source.capacitor_checksum === null
      ? {}
      : {
          capacitor: {
            checksum: source.capacitor_checksum,
            ...(source.capacitor_session_key === null ? {} : { session_key: source.capacitor_session_key }),
            ...(source.capacitor_key_id === null ? {} : { key_id: source.capacitor_key_id }),
          },
        }),
    promoted_from: { module_id: source.id, channel: source.channel },
  };
}

/**
 * The served parts of the copy: each Expo manifest with the new id and time (the same assets), the new
 * rollBackToEmbedded directive, and for a bundle release to be signed the canonical manifest naming the
 * copy. An unsigned bundle release has no parts, and its copy none unless it is to be signed.
 */
function partsOf(
  source: ReleaseRow,
  parts: readonly StoredPart[],
  push: PushInput,
  copy: { id: string; createdAt: Date; signing: boolean },
): Partial<Record<ManifestPart, Buffer>> {
  const out: Partial<Record<ManifestPart, Buffer>> = {};
  const isExpo = parts.some((p) => p.part === 'directive');
  for (const p of parts) {
    if (p.part === 'ios' || p.part === 'android')
      out[p.part] = redatedManifest(p.body, copy.id, copy.createdAt);
    else if (p.part === 'directive') out.directive = directiveBytes(copy.createdAt);
  }
  if (!isExpo && (copy.signing || parts.some((p) => p.part === 'check'))) {
    out.check = checkManifestBytes({
      app_id: source.app_id,
      module_id: copy.id,
      version: source.version,
      channel: push.channel!,
      sha256: source.sha256,
      size: source.size,
      mandatory: source.mandatory,
      created_at: copy.createdAt,
    });
  }
  return out;
}
