import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReleaseWithStats } from '../../../client/types.js';
import { writeLocalServer } from '../../../scripts/local-server.mjs';
import { WORKER_FACTORIES } from '../../../workers/registry.js';
import { createWebhooksWorker } from '../../../workers/webhooks.worker.js';
import type { Worker } from '../../../workers/worker.js';
import { ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext, freePort, signUp } from '../../helpers/context.js';
import { docBlocks, shellWords } from '../../helpers/doc-blocks.js';
import { waitFor } from '../../helpers/wait.js';

const execFileAsync = promisify(execFile);
const ROOT = new URL('../../../', import.meta.url).pathname;
const SECTION = 'Five minutes, end to end';

/**
 * The README's walkthrough, run as written: the CLI lines through the built `ota`, the scripts as node
 * processes, against a live API with its workers (the webhooks worker trusting the receiver's certificate,
 * as NODE_EXTRA_CA_CERTS makes `npm start` do). The API listens on a port of its own, not the default,
 * next to the services every checkout on this machine shares, and nothing is told where: the CLI and the
 * device find it where `npm start` writes it (.local/server.json of the checkout they run in, here `dir`).
 */
const ctx = fileContext({
  listen: true,
  env: { RATE_LIMIT_SIGNIN_PER_MINUTE: '1000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
});
let apiUrl: string;
let dir: string;
let project: string;
let certDir: string;
let receiver: ChildProcess | undefined;
let receiverLog = '';
const workers: Worker[] = [];

beforeAll(async () => {
  await ensureCliBuilt();
  apiUrl = ctx.url!;
  dir = await mkdtemp(join(tmpdir(), 'ota-walkthrough-'));
  project = join(dir, 'app');
  certDir = join(dir, 'receiver');
  await mkdir(project);
  writeLocalServer(dir, apiUrl);
}, 180_000);

afterAll(async () => {
  receiver?.kill('SIGTERM');
  for (const worker of workers) await worker.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function script(name: string, args: string[]) {
  return execFileAsync(process.execPath, [join(ROOT, 'scripts', name), ...args], {
    cwd: project,
    env: { PATH: process.env.PATH ?? '' },
  });
}

describe('README: Five minutes, end to end', () => {
  it('takes a newcomer from an empty workspace to a device, a webhook and a rollback', async () => {
    const [service, cli, webhook, device] = docBlocks('README.md', SECTION, 'sh');
    expect(service).toContain(
      'WEBHOOK_ALLOW_PRIVATE_TARGETS=true NODE_EXTRA_CA_CERTS=.local/webhook-receiver/cert.pem npm start',
    );

    // 2. The certificate, then the service's workers trusting it.
    const certLine = service!.split('\n').find((l) => l.startsWith('node scripts/webhook-receiver.mjs'))!;
    const made = await script('webhook-receiver.mjs', [...shellWords(certLine).slice(2), '--dir', certDir]);
    const cert = await readFile(made.stdout.trim(), 'utf8');
    for (const [name, factory] of Object.entries(WORKER_FACTORIES)) {
      workers.push(name === 'webhooks' ? createWebhooksWorker(ctx.deps, { ca: cert }) : factory(ctx.deps));
    }
    for (const worker of workers) await worker.start();

    const email = `walk-${randomBytes(3).toString('hex')}@example.com`;
    // 1. The console: sign up there (the console's sign-in makes the account); `ota login` then signs in.
    await signUp(ctx.app, email, 'walkthrough password');
    const port = await freePort();
    const seen: Record<string, unknown> = {};
    const devices: Array<{ update: { version: string } | null }> = [];
    const run = async (line: string) => {
      const words = shellWords(line.replaceAll('https://127.0.0.1:9443', `https://127.0.0.1:${port}`));
      if (words[0] === 'echo') {
        await execFileAsync('sh', ['-c', line], { cwd: project });
        return;
      }
      if (words[0] === 'node') {
        const out = await script(words[1]!.replace('scripts/', ''), [
          ...words.slice(2),
          '--state',
          join(dir, 'device.json'),
          '--json',
        ]);
        devices.push(JSON.parse(out.stdout));
        return;
      }
      expect(words.slice(0, 2), line).toEqual(['npx', 'ota']);
      const args = words.slice(2).map((w) => (w === 'you@example.com' ? email : w));
      // Signing in, and changing the plan (the owner's), ask for the password.
      const password = args[0] === 'login' || (args[0] === 'plan' && args[1] === 'set');
      const result = await runCli([...args, ...(password ? ['--password-stdin'] : []), '--json'], {
        configDir: join(dir, 'config'),
        cwd: project,
        ...(password ? { input: 'walkthrough password' } : {}),
      });
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
      seen[args.slice(0, 2).join(' ')] = jsonOf(result);
    };
    const lines = (block: string | undefined) =>
      block!.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));

    // 3. The CLI, the plan, an app and a first release.
    for (const line of lines(cli)) await run(line);
    // A new workspace starts on Hobby; the walkthrough moves it to Team before anything else.
    expect(lines(cli)[1]).toMatch(/^npx ota plan set team\b/);
    expect(seen['plan set']).toMatchObject({ plan: 'team' });
    expect(JSON.parse(await readFile(join(project, '.ota.json'), 'utf8')).app_id).toBe(
      (seen['apps create'] as { id: string }).id,
    );

    // 4. The webhook, and the receiver started with its secret.
    for (const line of lines(webhook)) await run(line);
    const secret = (seen['webhooks add'] as { secret: string }).secret;
    receiver = spawn(
      process.execPath,
      [
        join(ROOT, 'scripts/webhook-receiver.mjs'),
        '--secret',
        secret,
        '--port',
        String(port),
        '--dir',
        certDir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    receiver.stdout!.on('data', (d: Buffer) => {
      receiverLog += d.toString();
    });
    await waitFor('the receiver to listen', () => receiverLog.includes('Receiving webhooks'));

    // 5. The device, a second release, the device again, status and a rollback.
    for (const line of lines(device)) await run(line);
    expect(devices.map((d) => d.update?.version)).toEqual(['1.0.0', '1.0.1']);

    await waitFor('release.pushed and rollback deliveries, signed', () =>
      ['release.pushed', 'rollback'].every((event) =>
        receiverLog.split('\n').some((l) => l.includes(` ${event} `) && l.includes('signature ok')),
      ),
    );
    expect(receiverLog).not.toContain('BAD signature');

    // The device's download and activation reach the status table once ingested.
    await waitFor('the device counted in ota status', async () => {
      const result = await runCli(['status', '--json'], {
        configDir: join(dir, 'config'),
        cwd: project,
      });
      const { releases } = jsonOf<{ releases: ReleaseWithStats[] }>(result);
      const second = releases.find((r) => r.version === '1.0.1');
      return second !== undefined && second.stats.activations === 1 && !second.active;
    });
  }, 180_000);
});
