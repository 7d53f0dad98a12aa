import { createPublicKey, privateEncrypt, constants as rsa } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  decryptBundle,
  decryptChecksum,
  iosManualDecrypt,
  keyIdOf,
  loadPublicKey,
  rsaPublicDecrypt,
  sha256Hex,
} from '../../helpers/capacitor-cipher.js';
import { CapacitorDevice, type Generation, type Platform } from '../../helpers/capacitor-device.js';

/** The test helper that plays @capgo/capacitor-updater, against the fixtures and vectors read from its sources. */
const FIXTURES = new URL('../../fixtures/capacitor/', import.meta.url).pathname;
const fixture = (path: string) => readFileSync(`${FIXTURES}${path}`, 'utf8');
const PUBLIC_KEY = fixture('keys/capacitor-public.pem');
const PRIVATE_KEY = fixture('keys/capacitor-private.pem');
const vectors = JSON.parse(fixture('vectors.json')) as Record<string, string>;

const device = (generation: Generation, platform: Platform, more = {}) =>
  new CapacitorDevice({ generation, platform, ...more });

describe('request bodies, as each plugin generation builds them', () => {
  const cases: Array<[Generation, Platform]> = [
    ['8.51.14', 'android'],
    ['8.51.14', 'ios'],
    ['7.33.4', 'android'],
    ['7.33.4', 'ios'],
    ['5.4.1', 'android'],
    ['5.4.1', 'ios'],
  ];
  it.each(cases)('plugin %s on %s: updates, stats and channel_self', (generation, platform) => {
    const dir = `plugin-${generation}/${platform}/`;
    const d = device(generation, platform);
    // Byte for byte: Android's JSONObject keeps the order fields are put in (iOS orders them as it likes).
    expect(JSON.stringify(d.updatesBody())).toBe(fixture(`${dir}updates.json`).trim());
    expect(d.channelRequest('POST', 'beta').body).toEqual(
      JSON.parse(fixture(`${dir}channel_self.post.json`)),
    );
    if (generation !== '5.4.1') {
      expect(d.channelRequest('GET').query).toBe(fixture(`${dir}channel_self.get.query`).trim());
    }

    if (generation === '8.51.14') {
      d.sendStats({ action: 'download_complete', versionName: '1.0.1' }, 1767225600000);
      d.sendStats({ action: 'set', versionName: '1.0.1', oldVersionName: 'builtin' }, 1767225600412);
      expect(d.flushStats()).toEqual(JSON.parse(fixture(`${dir}stats.json`)));
      d.defaultChannel = 'beta';
      d.versionName = '1.0.1';
      expect(d.channelRequest('PUT').body).toEqual(JSON.parse(fixture(`${dir}channel_self.put.json`)));
      expect(() => d.channelRequest('DELETE')).toThrow(/on the device only/);
    } else {
      d.activate('1.0.1');
      expect(d.statsRequests).toEqual([JSON.parse(fixture(`${dir}stats.json`))]);
      d.versionName = 'builtin';
      expect(d.channelRequest('PUT').body).toEqual(JSON.parse(fixture(`${dir}channel_self.put.json`)));
      // Before 7.34 unsetChannel asks the server, with the same fields as a JSON body.
      if (generation === '7.33.4' || platform === 'ios') {
        expect(d.channelRequest('DELETE').body).toEqual(
          JSON.parse(fixture(`${dir}channel_self.delete.json`)),
        );
      }
    }
  });

  it('adds key_id (20 characters of the public key) only when the app has a publicKey, from plugin 8', () => {
    for (const platform of ['android', 'ios'] as const) {
      const d = device('8.51.14', platform, { publicKey: PUBLIC_KEY, defaultChannel: 'beta' });
      d.versionName = '1.0.1';
      expect(d.updatesBody()).toEqual(
        JSON.parse(fixture(`plugin-8.51.14/${platform}/updates.with-key.json`)),
      );
      expect(device('7.33.4', platform, { publicKey: PUBLIC_KEY }).updatesBody()).not.toHaveProperty(
        'key_id',
      );
    }
  });

  it('sends at most the last 200 queued statistics in one batch', () => {
    const d = device('8.51.14', 'android');
    for (let i = 0; i < 250; i++) d.sendStats({ action: 'app_moved_to_foreground' }, i);
    const batch = d.flushStats()!;
    expect(batch).toHaveLength(200);
    expect(batch[0]!.timestamp).toBe(50);
    expect(d.flushStats()).toBeUndefined();
  });
});

describe('reading the update answer', () => {
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const update = { version: '1.0.1', url: 'https://cdn.example.com/b.zip', checksum: 'ab'.repeat(32) };

  it('an update is a version with a url and no error or kind key', () => {
    const d = device('8.51.14', 'android');
    expect(d.readUpdateAnswer(answer(200, { ...update, session_key: 'iv:key' }))).toEqual({
      kind: 'update',
      ...update,
      sessionKey: 'iv:key',
    });
    // The same answer with an `error` or `kind` key is not an update.
    expect(d.readUpdateAnswer(answer(200, { ...update, kind: 'up_to_date' })).kind).toBe('up_to_date');
    expect(d.readUpdateAnswer(answer(200, { ...update, error: 'x' })).kind).toBe('failed');
    d.versionName = '1.0.1';
    expect(d.readUpdateAnswer(answer(200, update))).toEqual({ kind: 'same_version', version: '1.0.1' });
  });

  it('up to date and blocked send nothing; a failure reports download_fail of the bundle it runs', () => {
    const d = device('8.51.14', 'android');
    d.versionName = '1.0.0';
    const upToDate = { error: 'no_new_version_available', message: 'No new version', kind: 'up_to_date' };
    expect(d.readUpdateAnswer(answer(200, upToDate)).kind).toBe('up_to_date');
    expect(d.readUpdateAnswer(answer(200, { error: 'disable_emulator', kind: 'blocked' })).kind).toBe(
      'blocked',
    );
    expect(d.flushStats()).toBeUndefined();
    const problem = { type: 'about:blank', title: 'Not Found', status: 404, code: 'app_not_found' };
    for (const failure of [
      answer(404, problem),
      answer(200, { version: '1.0.1' }),
      answer(200, { version: '1.0.1', url: 'not a url' }),
      answer(200, 'not json'),
      answer(200, { error: 'x', kind: 'something new' }),
    ]) {
      expect(d.readUpdateAnswer(failure, 1)).toMatchObject({ kind: 'failed' });
    }
    const sent = d.flushStats()!;
    expect(sent.map((s) => [s.action, s.version_name])).toEqual(Array(5).fill(['download_fail', '1.0.0']));
  });

  it('`version: "builtin"` resets to the bundle in the app, from plugin 6.2 on', () => {
    expect(device('8.51.14', 'ios').readUpdateAnswer(answer(200, { version: 'builtin' }))).toEqual({
      kind: 'builtin',
    });
    expect(device('7.33.4', 'android').readUpdateAnswer(answer(200, { version: 'builtin' }))).toEqual({
      kind: 'builtin',
    });
    expect(device('5.4.1', 'android').readUpdateAnswer(answer(200, { version: 'builtin' })).kind).toBe(
      'failed',
    );
  });

  it('a 429 holds the device back for Retry-After seconds, or the body hints, at most a day', () => {
    const d = device('8.51.14', 'android');
    const now = 1_000_000;
    const limited = { error: 'too_many_requests', message: 'Too many requests' };
    expect(d.readUpdateAnswer(answer(429, limited, { 'retry-after': '30' }), now)).toMatchObject({
      kind: 'failed',
      error: 'too_many_requests',
    });
    expect(d.blockedUntil).toBe(now + 30_000);
    const body = device('8.51.14', 'android');
    body.readUpdateAnswer(answer(429, { ...limited, moreInfo: { retryAfterSeconds: 90 } }), now);
    expect(body.blockedUntil).toBe(now + 90_000);
    const capped = device('8.51.14', 'android');
    capped.readUpdateAnswer(answer(429, '', { 'retry-after': '999999' }), now);
    expect(capped.blockedUntil).toBe(now + 86_400_000);
    const none = device('8.51.14', 'android');
    none.readUpdateAnswer(answer(429, limited), now);
    expect(none.blockedUntil).toBe(0);
    // A `kind` on a 429 counts on Android only; iOS takes every 429 for a failure.
    const quiet = { ...limited, kind: 'up_to_date' };
    expect(device('8.51.14', 'android').readUpdateAnswer(answer(429, quiet), now).kind).toBe('up_to_date');
    expect(device('8.51.14', 'ios').readUpdateAnswer(answer(429, quiet), now).kind).toBe('failed');
  });

  it('before plugin 8.45 an error key is no update, reported only when the status is not 2xx', () => {
    const d = device('7.33.4', 'android');
    expect(d.readUpdateAnswer(answer(200, { error: 'no_new_version_available', message: 'm' })).kind).toBe(
      'up_to_date',
    );
    expect(d.statsRequests).toEqual([]);
    expect(d.readUpdateAnswer(answer(500, { error: 'x' })).kind).toBe('failed');
    expect(d.statsRequests).toHaveLength(1);
    // Plugin 5.4 reads any `message` as "no update".
    expect(device('5.4.1', 'ios').readUpdateAnswer(answer(200, { message: 'm' })).kind).toBe('up_to_date');
  });
});

describe('CryptoCipher on Node crypto', () => {
  it('loads the PKCS #1 public key through the X.509 wrapping Android builds, to the same key', () => {
    const direct = createPublicKey(PUBLIC_KEY).export({ format: 'jwk' });
    expect(loadPublicKey(PUBLIC_KEY).export({ format: 'jwk' })).toEqual(direct);
  });

  it('computes the key id as both platforms do', () => {
    expect(keyIdOf(PUBLIC_KEY)).toBe(vectors.key_id);
    expect(keyIdOf(PUBLIC_KEY, 'ios')).toBe(vectors.key_id);
    expect(keyIdOf(PUBLIC_KEY.replaceAll('\n', '\r\n'))).toBe(vectors.key_id);
    expect(vectors.key_id).toMatch(/^MIIBCgKCAQEA/);
  });

  it("iOS's hand-made RSA gives what PKCS #1 v1.5 public decryption gives", () => {
    const key = loadPublicKey(PUBLIC_KEY);
    for (const plain of [
      Buffer.alloc(16, 0xab),
      Buffer.from(vectors.zip_sha256!, 'hex'),
      Buffer.from([0, 1, 2]),
    ]) {
      const sealed = privateEncrypt({ key: PRIVATE_KEY, padding: rsa.RSA_PKCS1_PADDING }, plain);
      expect(rsaPublicDecrypt(key, sealed)).toEqual(plain);
      expect(iosManualDecrypt(key, sealed)).toEqual(plain);
    }
  });

  it('decrypts the signed checksum of the vectors to the zip SHA-256; refuses one that is not 256 bytes', () => {
    expect(decryptChecksum(vectors.signed_checksum!, PUBLIC_KEY)).toBe(vectors.zip_sha256);
    const base64 = Buffer.from(vectors.signed_checksum!, 'hex').toString('base64');
    expect(decryptChecksum(base64, PUBLIC_KEY)).toBe(vectors.zip_sha256);
    expect(() => decryptChecksum(vectors.zip_sha256!, PUBLIC_KEY)).toThrow('checksum_not_signed');
    expect(() => decryptChecksum(vectors.signed_checksum!.slice(2), PUBLIC_KEY)).toThrow(
      'checksum_not_signed',
    );
    // Without a public key the checksum is taken as it is.
    expect(decryptChecksum(vectors.zip_sha256!, '')).toBe(vectors.zip_sha256);
  });

  it('decrypts the encrypted bundle of the vectors with its session key to the zip', () => {
    const [iv, wrapped] = vectors.session_key!.split(':');
    expect(Buffer.from(iv!, 'base64').toString('hex')).toBe(vectors.iv_hex);
    expect(rsaPublicDecrypt(loadPublicKey(PUBLIC_KEY), Buffer.from(wrapped!, 'base64')).toString('hex')).toBe(
      vectors.aes_key_hex,
    );
    const zip = decryptBundle(
      Buffer.from(vectors.encrypted_base64!, 'base64'),
      PUBLIC_KEY,
      vectors.session_key!,
    );
    expect(zip.toString('base64')).toBe(vectors.zip_base64);
    expect(sha256Hex(zip)).toBe(vectors.zip_sha256);
    // No public key, or a session key that is not `<iv>:<key>`: the bytes are left as they are.
    const bytes = Buffer.from(vectors.encrypted_base64!, 'base64');
    expect(decryptBundle(bytes, '', vectors.session_key!)).toEqual(bytes);
    expect(decryptBundle(bytes, PUBLIC_KEY, 'a:b:c')).toEqual(bytes);
  });
});
