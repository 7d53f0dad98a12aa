import type { Principal } from '../access/principal.js';
import type { PushInput } from '../releases/releases.types.js';
import type { ManifestPart } from './manifests.store.js';

/** How long a signed push waits for its signatures. */
export const DRAFT_TTL_SECONDS = 3600;
export const SIGNATURE_ALG = 'rsa-v1_5-sha256';

export interface DraftAnswer {
  /** The id the release will have (it is inside the bytes to sign). */
  id: string;
  app_id: string;
  status: 'awaiting_signatures';
  key_id: string;
  alg: typeof SIGNATURE_ALG;
  created_at: Date;
  expires_at: Date;
  /** part -> base64 of the exact bytes to sign. */
  parts: Partial<Record<ManifestPart, string>>;
}

export interface NewDraft {
  id: string;
  createdAt: Date;
  keyId: string;
  push: PushInput;
  parts: Partial<Record<ManifestPart, Buffer>>;
}

/**
 * What a push that must be signed asks of the drafts (src/signing/): the Expo push and the promotion
 * hold a draft instead of a release. Declared here, beside the manifests the drafts store, so the
 * pushes do not name the drafts service that sits above them.
 */
export interface SignedPushDrafts {
  preflight(principal: Principal, push: PushInput): Promise<void>;
  create(principal: Principal, draft: NewDraft): Promise<DraftAnswer>;
}
