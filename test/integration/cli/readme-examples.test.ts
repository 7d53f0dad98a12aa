import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OtaClient } from '../../../client/client.js';
import { upgradeMessage } from '../../../src/plans/plans.js';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext, signUp } from '../../helpers/context.js';
import { docBlocks, exampleModule, shellWords } from '../../helpers/doc-blocks.js';

/** The CLI, client and SDK examples of docs/guides, run as written against a live API. */
const ctx = fileContext({ listen: true, env: { RATE_LIMIT_SIGNIN_PER_MINUTE: '1000' } });
let apiUrl: string;
let dir: string;
const written: string[] = [];

beforeAll(async () => {
  await ensureCliBuilt();
  apiUrl = ctx.url!;
  dir = await mkdtemp(join(tmpdir(), 'ota-readme-'));
}, 180_000);

afterAll(async () => {
  for (const path of written) await rm(path, { force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('docs/guides examples on a live API', () => {
  it('runs every line of the CLI example in order', async () => {
    const configDir = join(dir, 'cli');
    const bundle = join(dir, 'main.jsbundle');
    await writeFile(bundle, `// bundle\n${'z'.repeat(50_000)}`);
    const email = `readme-${randomBytes(3).toString('hex')}@example.com`;
    const password = 'readme password';
    const ids: Record<string, string> = {};
    const [block] = docBlocks('docs/guides/cli.md', 'Commands at a glance', 'sh');
    for (const line of block!.split('\n').filter((l) => l.startsWith('ota '))) {
      let args = shellWords(line)
        .slice(1)
        .map((w) => (w === './build/main.jsbundle' ? bundle : w === 'you@example.com' ? email : w))
        .map((w) => w.replace(/^<(release|webhook|key)-id>$/, (_m, kind: string) => ids[kind] ?? w));
      const needsPassword = args[0] === 'login' || (args[0] === 'plan' && args[1] === 'set');
      if (needsPassword) args = [...args, '--password-stdin'];
      const result = await runCli([...args, '--json'], {
        configDir,
        apiUrl,
        ...(needsPassword ? { input: password } : {}),
      });
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
      const out = jsonOf<{ id?: string }>(result);
      if (args[0] === 'release') ids.release = out.id!;
      if (args[0] === 'webhooks' && args[1] === 'add') ids.webhook = out.id!;
      if (args[0] === 'keys' && args[1] === 'create') ids.key = out.id!;
    }
    expect(Object.keys(ids).sort()).toEqual(['key', 'release', 'webhook']);
  }, 120_000);

  it('runs the control-API client example, which prints the 402 message on hobby', async () => {
    const owner = await signUp(ctx.app);
    const key = await new OtaClient({ baseUrl: apiUrl, credentials: { token: owner.token } }).apiKeys.create(
      owner.workspaceId,
      { name: 'readme' },
    );
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const [code] = docBlocks('docs/guides/client-and-sdk.md', 'Control-API client', 'ts');
      const path = await exampleModule(code!, 'client-live', [
        ["'http://127.0.0.1:8080'", `'${apiUrl}'`],
        ['process.env.OTA_API_KEY!', `'${key.key}'`],
      ]);
      written.push(path);
      await import(path);
      expect(log.mock.calls[0]).toEqual([upgradeMessage('hobby', 'stagedRollouts')]);
      expect(log.mock.calls[1]![0]).toEqual(['1.0.0: 0.0 % failing']);
    } finally {
      log.mockRestore();
    }
  });

  it('runs the device SDK example against a released app', async () => {
    const owner = await signUp(ctx.app);
    const client = new OtaClient({ baseUrl: apiUrl, credentials: { token: owner.token } });
    const app = await client.apps.create('SDK readme');
    const bundle = await client.apps.uploadBundle(app.id, new TextEncoder().encode('// v1'));
    const release = await client.modules.push({ app_id: app.id, version: '1.0.0', sha256: bundle.sha256 });
    const [code] = docBlocks('docs/guides/client-and-sdk.md', 'Device SDK', 'ts');
    const path = await exampleModule(code!, 'sdk-live', [
      ["'http://127.0.0.1:8080'", `'${apiUrl}'`],
      ["'<app id>'", `'${app.id}'`],
      ["'<a stable id for this install>'", "'readme-device-1'"],
    ]);
    written.push(path);
    await import(path);
    const check = await client.devices.check({
      app_id: app.id,
      device_id: 'readme-device-1',
      current_module_id: release.id,
    });
    expect(check.update).toBeNull();
  });
});
