import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext } from '../../helpers/context.js';

/** `ota release --target-binary-range` and `ota deployment-keys`, on a live API. */
const ctx = fileContext();
let apiUrl: string;
let dir: string;

beforeAll(async () => {
  await ensureCliBuilt();
  apiUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  dir = await mkdtemp(join(tmpdir(), 'ota-cli-codepush-'));
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('ota for react-native-code-push apps', () => {
  it('releases for a binary range, and makes, lists and deletes deployment keys', async () => {
    const configDir = join(dir, 'machine');
    const run = (args: string[], input?: string) =>
      runCli([...args, '--json'], { configDir, apiUrl, ...(input ? { input } : {}) });
    expect(
      (await run(['login', '--create', '--email', 'cp@example.com', '--password-stdin'], 'a long password'))
        .code,
    ).toBe(0);
    expect((await run(['apps', 'create', 'RN App'])).code).toBe(0);
    const bundle = join(dir, 'bundle.zip');
    await writeFile(bundle, 'PK\u0003\u0004 not really a zip');

    const released = await run(['release', bundle, '--app', 'RN App', '--target-binary-range', '^1.2.0']);
    expect(released.code, released.stderr).toBe(0);
    expect(jsonOf(released)).toMatchObject({ target_binary_range: '^1.2.0' });
    const refused = await run(['release', bundle, '--app', 'RN App', '--target-binary-range', 'latest']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('invalid_target_binary_range');

    const made = await run(['deployment-keys', 'create', '--app', 'RN App']);
    expect(made.code, made.stderr).toBe(0);
    const key = jsonOf<{ key: string; channel: string }>(made);
    expect(key.channel).toBe('production');
    const listed = await run(['deployment-keys', 'list', '--app', 'RN App']);
    expect(jsonOf(listed)).toMatchObject({ deployment_keys: [{ key: key.key, channel: 'production' }] });
    // Another channel is a paid feature: the service's upgrade message, exit 1.
    const beta = await run(['deployment-keys', 'create', '--app', 'RN App', '--channel', 'beta']);
    expect(beta.code).toBe(1);
    expect(beta.stderr).toContain('plan_upgrade_required');

    const text = await runCli(['deployment-keys', 'list', '--app', 'RN App'], { configDir, apiUrl });
    expect(text.stdout).toContain(key.key);
    expect((await run(['deployment-keys', 'rm', key.key, '--app', 'RN App'])).code).toBe(0);
    expect(jsonOf(await run(['deployment-keys', 'list', '--app', 'RN App']))).toEqual({
      deployment_keys: [],
    });
  }, 120_000);
});
