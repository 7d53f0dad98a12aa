import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../helpers/capacitor-cipher.js';
import { CapacitorDevice } from '../../helpers/capacitor-device.js';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext } from '../../helpers/context.js';

/** `ota release <www dir | zip> --capacitor`, run as a developer runs it, against a live API. */
const FIXTURES = new URL('../../fixtures/capacitor/', import.meta.url).pathname;
const WWW = join(FIXTURES, 'www');
const PRIVATE_KEY = join(FIXTURES, 'keys/capacitor-private.pem');
const ctx = fileContext();
let apiUrl: string;
let dir: string;
let publicKey: string;

interface Pushed {
  id: string;
  version: string;
  sha256: string;
  capacitor: { checksum: string; session_key: string | null; key_id: string | null } | null;
  bundle: { sha256: string; size: number };
  zip: { sha256: string; size: number; files: number; made_here: boolean };
  signed: boolean;
  encrypted: boolean;
}

const ota = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { configDir: join(dir, 'machine'), apiUrl, env });

beforeAll(async () => {
  await ensureCliBuilt();
  apiUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  dir = await mkdtemp(join(tmpdir(), 'ota-cli-capacitor-'));
  publicKey = await readFile(join(FIXTURES, 'keys/capacitor-public.pem'), 'utf8');
  const login = await runCli(
    ['login', '--create', '--email', 'cap@example.com', '--password-stdin', '--json'],
    {
      configDir: join(dir, 'machine'),
      apiUrl,
      input: 'a long password',
    },
  );
  expect(login.code, login.stderr).toBe(0);
  expect((await ota(['apps', 'create', 'Shop', '--json'])).code).toBe(0);
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The bytes a device downloads for a release (the disk store's bundle URL). */
async function download(sha256: string): Promise<Uint8Array> {
  const res = await fetch(`${apiUrl}/api/v1/bundles/${sha256}`);
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** The update answer the release makes for a device, as the endpoints will serve it (API.md "Capacitor"). */
const answerOf = (pushed: Pushed) => ({
  kind: 'update' as const,
  version: pushed.version,
  url: `${apiUrl}/api/v1/bundles/${pushed.sha256}`,
  checksum: pushed.capacitor!.checksum,
  sessionKey: pushed.capacitor!.session_key ?? '',
});

describe('ota release --capacitor', () => {
  it('zips the folder, uploads it once and pushes it with its checksum; devices install it', async () => {
    const run = await ota(['release', WWW, '--capacitor', '--app', 'Shop', '--version', '1.0.1', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const pushed = jsonOf<Pushed>(run);
    expect(pushed).toMatchObject({
      version: '1.0.1',
      channel: 'production',
      capacitor: { checksum: pushed.zip.sha256, session_key: null, key_id: null },
      zip: { files: 3, made_here: true },
      signed: false,
      encrypted: false,
    });
    expect(pushed.sha256).toBe(pushed.zip.sha256);
    const bytes = await download(pushed.sha256);
    expect(sha256Hex(bytes)).toBe(pushed.zip.sha256);
    for (const platform of ['android', 'ios'] as const) {
      const device = new CapacitorDevice({ platform });
      expect(device.install(answerOf(pushed), bytes)).toEqual(Buffer.from(bytes));
    }

    // The same folder in another time zone: the same zip, the same bundle.
    const again = await ota(
      ['release', WWW, '--capacitor', '--app', 'Shop', '--version', '1.0.2', '--json'],
      {
        TZ: 'Pacific/Kiritimati',
      },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(jsonOf<Pushed>(again).sha256).toBe(pushed.sha256);
  });

  it('signs and encrypts with --private-key --encrypt on this machine: devices with the public key install it', async () => {
    const run = await ota([
      ...['release', WWW, '--capacitor', '--app', 'Shop', '--version', '1.1.0'],
      ...['--private-key', PRIVATE_KEY, '--encrypt', '--json'],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const pushed = jsonOf<Pushed>(run);
    const keyId = new CapacitorDevice({ publicKey }).updatesBody().key_id;
    expect(pushed).toMatchObject({ signed: true, encrypted: true, capacitor: { key_id: keyId } });
    expect(pushed.capacitor!.checksum).toMatch(/^[0-9a-f]{512}$/);
    expect(pushed.sha256).not.toBe(pushed.zip.sha256);

    const bytes = await download(pushed.sha256);
    for (const platform of ['android', 'ios'] as const) {
      const zip = new CapacitorDevice({ platform, publicKey }).install(answerOf(pushed), bytes);
      expect(sha256Hex(zip)).toBe(pushed.zip.sha256);
      expect(() => new CapacitorDevice({ platform }).install(answerOf(pushed), bytes)).toThrow();
    }

    // What the service holds: the encrypted bytes, the signed checksum, the wrapped key; never the private key.
    const pem = await readFile(PRIVATE_KEY, 'utf8');
    const secret = pem.split('\n')[3]!;
    const { rows } = await ctx.deps.db.query('SELECT * FROM releases WHERE id = $1', [pushed.id]);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(Buffer.from(bytes).toString('latin1')).not.toContain(secret);
  });

  it('takes a zip of the build as it is, index.html in its only folder', async () => {
    const zip = zipSync({
      'www/index.html': new TextEncoder().encode('<p>hi</p>'),
      'www/a.js': new Uint8Array(3),
    });
    await writeFile(join(dir, 'www.zip'), zip);
    const run = await ota([
      'release',
      join(dir, 'www.zip'),
      '--capacitor',
      '--app',
      'Shop',
      '--version',
      '1.2.0',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const pushed = jsonOf<Pushed>(run);
    expect(pushed).toMatchObject({ sha256: sha256Hex(zip), zip: { files: 2, made_here: false } });
  });

  it('says what devices will get', async () => {
    const run = await ota(['release', WWW, '--capacitor', '--app', 'Shop', '--version', '1.3.0']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Released 1.3.0 to production at 100 %.');
    expect(run.stdout).toMatch(/Capacitor devices on production download version 1\.3\.0: a zip of 3 files/);
    expect(run.stdout).toContain('Unsigned: for apps whose capacitor.config has a publicKey, release with');
  });

  it('refuses what devices could not install and flags that do not belong together; no release is made', async () => {
    await mkdir(join(dir, 'no-index'), { recursive: true });
    await writeFile(join(dir, 'no-index', 'app.js'), 'console.log(1)');
    const refusals: Array<[string[], number, RegExp]> = [
      [[join(dir, 'no-index')], 2, /no index.html at its root/],
      [[WWW, '--private-key', PRIVATE_KEY], 2, /add --encrypt/],
      [[WWW, '--encrypt'], 2, /--encrypt needs --private-key/],
      [[WWW, '--fingerprint', 'abc'], 2, /send no fingerprint/],
      [[WWW, '--key-id', 'main'], 2, /--key-id is not for --capacitor/],
      [
        [WWW, '--private-key', join(FIXTURES, 'keys/capacitor-public.pem'), '--encrypt'],
        2,
        /not an unencrypted PEM/,
      ],
      [[WWW, '--version', 'builtin'], 1, /capacitor_reserved_version/],
    ];
    const count = async () => (await ctx.deps.db.query('SELECT count(*)::int AS n FROM releases')).rows[0].n;
    const before = await count();
    for (const [args, code, message] of refusals) {
      const run = await ota(['release', ...args, '--capacitor', '--app', 'Shop']);
      expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(code);
      expect(run.stderr).toMatch(message);
    }
    expect(await count()).toBe(before);
  });
});
