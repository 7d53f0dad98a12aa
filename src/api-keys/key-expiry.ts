import type { Transactional } from '../platform/postgres.js';
import type { OutboxStore } from '../webhooks/outbox.store.js';
import type { ApiKeysStore } from './api-keys.store.js';

/** Keys expiring within this window are named in the weekly event (API.md "Webhooks"). */
export const EXPIRY_NOTICE_WINDOW_MS = 14 * 24 * 3600_000;
/** The task runs weekly; a window of two weeks names every key at least once before it expires. */
export const EXPIRY_NOTICE_EVERY_MS = 7 * 24 * 3600_000;
const BATCH = 500;

export interface KeyExpiryStores {
  apiKeys: Pick<ApiKeysStore, 'takeExpiring'>;
  outbox: Pick<OutboxStore, 'append'>;
  transaction: Transactional;
}

/**
 * Writes one `api_key.expiring` event per live key expiring within EXPIRY_NOTICE_WINDOW_MS, once per key:
 * the key is marked in the transaction that writes its event, so a run cut short or run twice names no key
 * twice and misses none. Answers how many keys it named.
 */
export async function announceExpiringKeys(
  stores: KeyExpiryStores,
  now: number = Date.now(),
  windowMs: number = EXPIRY_NOTICE_WINDOW_MS,
): Promise<number> {
  const before = new Date(now + windowMs);
  let named = 0;
  for (;;) {
    const keys = await stores.transaction(async (tx) => {
      const due = await stores.apiKeys.takeExpiring(tx, before, BATCH);
      for (const key of due) {
        await stores.outbox.append(tx, key.workspace_id, 'api_key.expiring', {
          key_id: key.id,
          name: key.name,
          expires_at: key.expires_at.toISOString(),
          app_ids: key.app_ids,
        });
      }
      return due.length;
    });
    named += keys;
    if (keys < BATCH) return named;
  }
}
