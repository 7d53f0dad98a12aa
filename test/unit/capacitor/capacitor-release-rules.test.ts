import { describe, expect, it, vi } from 'vitest';
import type { CapacitorPush } from '../../../src/releases/capacitor.rules.js';
import { createReleasesService } from '../../../src/releases/releases.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

/** What POST /modules keeps for a Capacitor release, and the mixes the plugin could not verify. */
const SHA = 'cd'.repeat(32);
const SIGNED = 'ab'.repeat(256);
const SESSION_KEY = `${'A'.repeat(22)}==:${'B'.repeat(342)}==`;
const KEY_ID = 'MIIBCgKCAQEAl+cqGoBz';

async function world() {
  const stores = createFakeStores();
  const ws = stores.workspaces.add({ plan: 'pro' });
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  await stores.bundles.record(app.id, SHA, 1234);
  const releases = createReleasesService(stores, { invalidate: vi.fn(async () => {}) });
  const push = (capacitor: CapacitorPush | undefined, version = '1.0.1') =>
    releases.push(principal(ws.id, 'developer'), { app_id: app.id, version, sha256: SHA, capacitor });
  return { stores, push };
}

describe('Capacitor fields of a push', () => {
  it('keeps the checksum of an unsigned release, and the checksum, session key and key id of an encrypted one', async () => {
    const { push } = await world();
    expect(await push({ checksum: SHA }, '1.0.1')).toMatchObject({
      capacitor_checksum: SHA,
      capacitor_session_key: null,
      capacitor_key_id: null,
    });
    expect(await push({ checksum: SIGNED, session_key: SESSION_KEY, key_id: KEY_ID }, '1.0.2')).toMatchObject(
      {
        capacitor_checksum: SIGNED,
        capacitor_session_key: SESSION_KEY,
        capacitor_key_id: KEY_ID,
      },
    );
    expect(await push(undefined, '1.0.3')).toMatchObject({
      capacitor_checksum: null,
      capacitor_key_id: null,
    });
  });

  it('refuses what no device could verify, writing nothing', async () => {
    const { stores, push } = await world();
    const refusals: Array<[CapacitorPush, string, string?]> = [
      [{ checksum: 'ef'.repeat(32) }, 'capacitor_checksum_mismatch'],
      [{ checksum: SHA, session_key: SESSION_KEY, key_id: KEY_ID }, 'capacitor_unsigned_checksum'],
      [{ checksum: SIGNED }, 'capacitor_signature_needs_encryption'],
      [{ checksum: SIGNED, session_key: SESSION_KEY }, 'capacitor_signature_needs_encryption'],
      [{ checksum: SHA }, 'capacitor_reserved_version', 'builtin'],
      [{ checksum: SHA }, 'capacitor_reserved_version', 'unknown'],
    ];
    for (const [capacitor, code, version] of refusals) {
      await expect(push(capacitor, version), code).rejects.toMatchObject({ status: 400, code });
    }
    expect(stores.releases.rows).toEqual([]);
    expect(stores.audit.entries).toEqual([]);
  });
});
