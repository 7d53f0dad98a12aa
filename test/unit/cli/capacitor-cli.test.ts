import { generateKeyPairSync } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capacitorZip, indexHtmlProblem } from '../../../cli/capacitor-bundle.js';
import {
  capacitorKeyId,
  encryptZip,
  loadCapacitorKey,
  signedChecksum,
} from '../../../cli/capacitor-crypto.js';
import { sha256Hex } from '../../helpers/capacitor-cipher.js';
import { CapacitorDevice, type Platform } from '../../helpers/capacitor-device.js';

/** `ota release --capacitor`'s zip, signature and encryption, checked the way the plugin checks them. */
const FIXTURES = new URL('../../fixtures/capacitor/', import.meta.url).pathname;
const WWW = join(FIXTURES, 'www');
const PRIVATE = join(FIXTURES, 'keys/capacitor-private.pem');
let PUBLIC: string;
let dir: string;

beforeAll(async () => {
  PUBLIC = await readFile(join(FIXTURES, 'keys/capacitor-public.pem'), 'utf8');
  dir = await mkdtemp(join(tmpdir(), 'ota-capacitor-unit-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const update = (checksum: string, sessionKey = '') =>
  ({ kind: 'update', version: '1.0.1', url: 'https://cdn.example.com/b', checksum, sessionKey }) as const;

describe('the zip of a web build', () => {
  it('is the same bytes for the same files, whatever their times and modes on disk', async () => {
    const copy = join(dir, 'copy');
    await mkdir(join(copy, 'assets'), { recursive: true });
    for (const f of ['index.html', 'assets/app.js', 'assets/app.css'])
      await writeFile(join(copy, f), await readFile(join(WWW, f)));
    await utimes(
      join(copy, 'index.html'),
      new Date('2011-05-05T05:05:05Z'),
      new Date('2011-05-05T05:05:05Z'),
    );
    await chmod(join(copy, 'assets/app.js'), 0o755);
    const a = await capacitorZip(WWW);
    const b = await capacitorZip(copy);
    expect(Buffer.from(b.bytes)).toEqual(Buffer.from(a.bytes));
    expect(a).toMatchObject({ sha256: sha256Hex(a.bytes), files: 3, zipped: true });
    const vectors = JSON.parse(await readFile(join(FIXTURES, 'vectors.json'), 'utf8'));
    expect(a.sha256).toBe(vectors.zip_sha256);
  });

  it('puts the files at its root in a stable order, with one time and mode for every entry', async () => {
    const { bytes } = await capacitorZip(WWW);
    const entries = unzipSync(bytes);
    expect(Object.keys(entries)).toEqual(['assets/app.css', 'assets/app.js', 'index.html']);
    expect(Buffer.from(entries['index.html']!)).toEqual(await readFile(join(WWW, 'index.html')));
    // Central directory records: "made by" Unix, DOS time 12:00:00, date 2000-01-01, mode 0100644.
    const view = Buffer.from(bytes);
    for (let at = view.indexOf('PK\x01\x02'); at >= 0; at = view.indexOf('PK\x01\x02', at + 4)) {
      expect(view[at + 5]).toBe(3);
      expect(view.readUInt16LE(at + 12)).toBe(12 << 11);
      expect(view.readUInt16LE(at + 14)).toBe((20 << 9) | (1 << 5) | 1);
      expect(view.readUInt32LE(at + 38) >>> 16).toBe(0o100644);
    }
  });

  it('takes a zip as it is when index.html is at its root or in its only folder', async () => {
    const inFolder = zipSync({
      'dist/index.html': new TextEncoder().encode('<p>'),
      'dist/a.js': new Uint8Array(1),
    });
    await writeFile(join(dir, 'dist.zip'), inFolder);
    const taken = await capacitorZip(join(dir, 'dist.zip'));
    expect(Buffer.from(taken.bytes)).toEqual(Buffer.from(inFolder));
    expect(taken).toMatchObject({ files: 2, zipped: false, sha256: sha256Hex(inFolder) });
  });

  it('refuses a build without index.html where the plugin looks, and files that are no zip', async () => {
    const problems: Array<[string[], string | undefined]> = [
      [['index.html', 'a.js'], undefined],
      [['www/', 'www/index.html'], undefined],
      [['www/index.html', 'www/a.js'], undefined],
      [['a.js'], 'it has no index.html at its root'],
      [['www/a.js'], 'its only folder, www/, has no index.html'],
      [['www/index.html', '__MACOSX/www/._index.html'], expect.stringContaining('other entries beside it')],
      [['www/index.html', 'readme.txt'], expect.stringContaining('other entries beside it')],
    ];
    for (const [names, problem] of problems) expect(indexHtmlProblem(names), names.join()).toEqual(problem);

    await mkdir(join(dir, 'no-index'));
    await writeFile(join(dir, 'no-index', 'app.js'), '1');
    await expect(capacitorZip(join(dir, 'no-index'))).rejects.toThrow(/no index.html at its root/);
    await mkdir(join(dir, 'empty'));
    await expect(capacitorZip(join(dir, 'empty'))).rejects.toThrow(/is empty/);
    await writeFile(join(dir, 'bundle.js'), 'console.log(1)');
    await expect(capacitorZip(join(dir, 'bundle.js'))).rejects.toThrow(/is not a zip file/);
    await expect(capacitorZip(join(dir, 'missing'))).rejects.toThrow(/does not exist/);
  });
});

describe('signing and encryption, verified and decrypted the way the plugin does', () => {
  it('derives the key id the plugin sends from the private key alone', async () => {
    const key = await loadCapacitorKey(PRIVATE);
    expect(key.keyId).toBe(capacitorKeyId(PUBLIC));
    expect(key.publicKeyPem).toBe(PUBLIC);
    expect(new CapacitorDevice({ publicKey: PUBLIC }).updatesBody().key_id).toBe(key.keyId);
  });

  it.each(['android', 'ios'] as Platform[])(
    'an encrypted release installs on %s with the public key, and on no other device',
    async (platform) => {
      const key = await loadCapacitorKey(PRIVATE);
      const zip = await capacitorZip(WWW);
      const sealed = encryptZip(zip.bytes, key);
      const answer = update(signedChecksum(zip.sha256, key), sealed.sessionKey);
      expect(answer.checksum).toMatch(/^[0-9a-f]{512}$/);
      expect(sealed.sessionKey).toMatch(/^[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/]{342}==$/);
      expect(Buffer.from(sealed.bytes)).not.toEqual(Buffer.from(zip.bytes));

      const keyed = new CapacitorDevice({ platform, publicKey: PUBLIC });
      expect(keyed.install(answer, sealed.bytes)).toEqual(Buffer.from(zip.bytes));
      expect(keyed.flushStats()!.map((s) => s.action)).toEqual(['download_complete']);

      // Another key: the AES key does not decrypt. No key: the encrypted bytes never match the checksum.
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
        type: 'pkcs1',
        format: 'pem',
      });
      const stranger = new CapacitorDevice({ platform, publicKey: other.toString() });
      expect(() => stranger.install(answer, sealed.bytes)).toThrow('download_fail');
      const keyless = new CapacitorDevice({ platform });
      expect(() => keyless.install(answer, sealed.bytes)).toThrow('checksum_fail');
      // Bytes changed on the way: the decrypted zip no longer matches the signed checksum.
      const tampered = Buffer.from(sealed.bytes);
      tampered[tampered.length - 20]! ^= 1;
      expect(() => new CapacitorDevice({ platform, publicKey: PUBLIC }).install(answer, tampered)).toThrow();
    },
  );

  it('an unsigned release installs on devices without a key; with one, iOS refuses it (Android takes it)', async () => {
    const zip = await capacitorZip(WWW);
    for (const platform of ['android', 'ios'] as Platform[]) {
      const keyless = new CapacitorDevice({ platform });
      expect(keyless.install(update(zip.sha256), zip.bytes)).toEqual(Buffer.from(zip.bytes));
    }
    const ios = new CapacitorDevice({ platform: 'ios', publicKey: PUBLIC });
    expect(() => ios.install(update(zip.sha256), zip.bytes)).toThrow('download_fail');
    const android = new CapacitorDevice({ platform: 'android', publicKey: PUBLIC });
    expect(android.install(update(zip.sha256), zip.bytes)).toEqual(Buffer.from(zip.bytes));
  });

  it('a signed checksum without encryption fails on Android: why --private-key needs --encrypt', async () => {
    const key = await loadCapacitorKey(PRIVATE);
    const zip = await capacitorZip(WWW);
    const signedOnly = update(signedChecksum(zip.sha256, key));
    expect(
      new CapacitorDevice({ platform: 'ios', publicKey: PUBLIC }).install(signedOnly, zip.bytes),
    ).toBeTruthy();
    const android = new CapacitorDevice({ platform: 'android', publicKey: PUBLIC });
    expect(() => android.install(signedOnly, zip.bytes)).toThrow('checksum_fail');
    expect(android.flushStats()!.map((s) => [s.action, s.version_name])).toEqual([
      ['checksum_fail', 'builtin'],
      ['download_fail', 'builtin'],
    ]);
  });

  it('refuses keys the plugin cannot verify with', async () => {
    const write = async (name: string, pem: string) => {
      await writeFile(join(dir, name), pem);
      return join(dir, name);
    };
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    await expect(loadCapacitorKey(await write('small.pem', small.toString()))).rejects.toThrow(
      /not an RSA-2048 key/,
    );
    await expect(loadCapacitorKey(await write('ec.pem', ec.toString()))).rejects.toThrow(
      /not an RSA-2048 key/,
    );
    await expect(loadCapacitorKey(join(FIXTURES, 'keys/capacitor-public.pem'))).rejects.toThrow(
      /not an unencrypted PEM private key/,
    );
    await expect(loadCapacitorKey(join(dir, 'none.pem'))).rejects.toThrow(/cannot be read/);
  });
});
