import { randomUUID } from 'node:crypto';
import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { type Principal, requireRole } from '../access/principal.js';
import type { AppsStore } from '../apps/apps.store.js';
import type { BundlesStore } from '../bundles/bundles.store.js';
import { checkManifestBytes } from '../expo/check-manifest.js';
import {
  DRAFT_TTL_SECONDS,
  type DraftAnswer,
  type NewDraft,
  SIGNATURE_ALG,
  type SignedPushDrafts,
} from '../expo/drafts.js';
import type {
  DraftRow,
  EmbeddedUpdate,
  ManifestPart,
  ManifestsStore,
  StoredPart,
} from '../expo/manifests.store.js';
import { badRequest, notFound } from '../platform/errors.js';
import type { Transactional } from '../platform/postgres.js';
import { parseTargetBinaryRange } from '../releases/binary-range.js';
import { FULL_ROLLOUT, requirePushAllowed } from '../releases/releases.rules.js';
import type { ReleasesService } from '../releases/releases.service.js';
import type { ReleaseRow } from '../releases/releases.store.js';
import type { PushInput } from '../releases/releases.types.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';

/** The stores the drafts service works on. */
export interface DraftsStores {
  manifests: ManifestsStore;
  apps: AppsStore;
  bundles: BundlesStore;
  workspaces: WorkspacesStore;
  transaction: Transactional;
}

/** `releases` makes the push once the signatures are in (the one writer of releases). */
export function createReleaseDraftsService(
  stores: DraftsStores,
  options: { releases: Pick<ReleasesService, 'push'> },
): ReleaseDraftsService {
  return new ReleaseDraftsService(stores, options.releases);
}

/**
 * Signed pushes (docs/guides/signing.md). The private key stays on the developer's machine: the service
 * fixes the release's id and creation time, builds the exact bytes it will serve, and hands them over as
 * a draft; the release is created, with its signatures, only when they all arrive. Until then nothing is
 * served, so a client that expects signatures never sees the release unsigned.
 */
export class ReleaseDraftsService implements SignedPushDrafts {
  private readonly store: ManifestsStore;
  private readonly apps: AppsStore;

  constructor(
    private readonly stores: DraftsStores,
    private readonly releases: Pick<ReleasesService, 'push'>,
  ) {
    this.store = stores.manifests;
    this.apps = stores.apps;
  }

  /** A signed push of a bundle release: the canonical manifest /updates/check will carry is to be signed. */
  async createBundleDraft(principal: Principal, push: PushInput, keyId: string): Promise<DraftAnswer> {
    await this.preflight(principal, push);
    const bundle = await this.stores.bundles.find(push.app_id, push.sha256.toLowerCase());
    if (!bundle) {
      throw badRequest(
        'No bundle with this sha256 was uploaded for this app; upload it with PUT /apps/{app_id}/bundles first.',
        'unknown_bundle',
      );
    }
    if (push.fingerprint && !(await this.apps.findFingerprint(push.app_id, push.fingerprint))) {
      throw badRequest(
        'This fingerprint is not registered for the app; register it with POST /apps/{app_id}/fingerprints.',
        'unknown_fingerprint',
      );
    }
    const id = randomUUID();
    const createdAt = new Date();
    const check = checkManifestBytes({
      app_id: push.app_id,
      module_id: id,
      version: push.version,
      channel: push.channel ?? DEFAULT_CHANNEL,
      sha256: push.sha256.toLowerCase(),
      size: bundle.size,
      mandatory: push.mandatory ?? false,
      created_at: createdAt,
    });
    return this.create(principal, { id, createdAt, keyId, push, parts: { check } });
  }

  /** Checks what can be checked before anything is signed: request shape, role, app, plan gate. */
  async preflight(principal: Principal, push: PushInput): Promise<void> {
    if (push.target_binary_range != null) parseTargetBinaryRange(push.target_binary_range);
    requireRole(principal, 'developer', 'Pushing releases');
    const app = await this.apps.find(principal.workspaceId, push.app_id);
    if (!app) throw notFound('App', 'app_not_found');
    const workspace = await this.stores.workspaces.find(principal.workspaceId);
    if (!workspace) throw notFound('Workspace');
    requirePushAllowed(workspace.plan, {
      channel: push.channel ?? DEFAULT_CHANNEL,
      rollout_pct: push.rollout_pct ?? FULL_ROLLOUT,
    });
  }

  /** Stores a draft whose checks (preflight) the caller has made. */
  async create(principal: Principal, draft: NewDraft): Promise<DraftAnswer> {
    const parts = Object.fromEntries(
      Object.entries(draft.parts).map(([part, bytes]) => [part, bytes.toString('base64')]),
    ) as DraftRow['parts'];
    const row = await this.stores.transaction((tx) =>
      this.store.insertDraft(
        tx,
        {
          id: draft.id,
          workspace_id: principal.workspaceId,
          app_id: draft.push.app_id,
          key_id: draft.keyId,
          push: { ...draft.push },
          parts,
          created_at: draft.createdAt,
        },
        DRAFT_TTL_SECONDS,
      ),
    );
    return {
      id: row.id,
      app_id: row.app_id,
      status: 'awaiting_signatures',
      key_id: row.key_id,
      alg: SIGNATURE_ALG,
      created_at: row.created_at,
      expires_at: row.expires_at,
      parts: row.parts,
    };
  }

  /**
   * Completes a draft with a signature for each of its parts: the release is pushed (audit entry, webhook,
   * routing invalidation, as any push) with the parts and their signatures, and the draft is gone. All
   * the push's checks run again, so a plan changed meanwhile still gates it.
   */
  async complete(principal: Principal, id: string, signatures: Record<string, string>): Promise<ReleaseRow> {
    requireRole(principal, 'developer', 'Pushing releases');
    const draft = await this.store.findDraft(principal.workspaceId, id);
    if (!draft) throw notFound('Draft', 'draft_not_found');
    const expected = Object.keys(draft.parts).sort();
    const given = Object.keys(signatures).sort();
    if (expected.join() !== given.join()) {
      throw badRequest(
        `This draft needs exactly one signature for each of: ${expected.join(', ')}.`,
        'signatures_mismatch',
        { expected },
      );
    }
    const parts: StoredPart[] = expected.map((part) => ({
      part: part as ManifestPart,
      body: Buffer.from(draft.parts[part as ManifestPart]!, 'base64'),
      signature: signatures[part]!,
      keyId: draft.key_id,
    }));
    const push = draft.push as unknown as PushInput;
    return this.releases.push(
      principal,
      { ...push, id: draft.id, created_at: draft.created_at },
      {
        // Under the app's lock, so of two completions racing, the second finds the draft gone.
        beforeInsert: async (tx) => {
          if (!(await this.store.takeDraft(tx, principal.workspaceId, id)))
            throw notFound('Draft', 'draft_not_found');
        },
        afterInsert: async (tx, release) => {
          await this.store.insertParts(tx, release, parts);
          // An Expo push's embedded updates (expo-releases.service.ts): not signed, recorded with it.
          const embedded = (draft.push as { expo_embedded?: EmbeddedUpdate[] }).expo_embedded;
          if (embedded && embedded.length > 0) await this.store.insertEmbedded(tx, release.id, embedded);
        },
      },
    );
  }
}
