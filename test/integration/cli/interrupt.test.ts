import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtaClient } from '../../../client/index.js';
import { CLI_MAIN, ensureCliBuilt } from '../../helpers/cli.js';
import { fileContext, signUp } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * Ctrl-C during `ota release`, on a real terminal: `script` gives the CLI a pseudo-terminal (so the upload
 * bar draws, hiding the cursor and turning line wrap off), and a Ctrl-C typed into it reaches the CLI as
 * the terminal's SIGINT. The API sits behind a front that holds bundle uploads open, so the bar is
 * drawing when the key is pressed.
 */
const ctx = fileContext({ listen: true });
let front: Server;
let frontUrl: string;
let dir: string;
const held: Array<() => void> = [];

beforeAll(async () => {
  await ensureCliBuilt();
  const target = new URL(ctx.url!);
  front = createServer((req, res) => {
    if (req.method === 'PUT' && req.url?.includes('/bundles')) {
      // Take the first bytes, then nothing more: the upload stays in progress.
      req.once('data', () => req.pause());
      held.push(() => res.destroy());
      return;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'ota-interrupt-'));
}, 180_000);

afterAll(async () => {
  for (const release of held) release();
  await new Promise((resolve) => front?.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('Ctrl-C during ota release', () => {
  it('puts the cursor and line wrap back, says so, and exits 130', async () => {
    const owner = await signUp(ctx.app);
    const api = new OtaClient({ baseUrl: ctx.url!, credentials: { token: owner.token } });
    const app = await api.apps.create('Interrupted');
    const key = await api.apiKeys.create(owner.workspaceId, { name: 'terminal' });
    const bundle = join(dir, 'main.jsbundle');
    await writeFile(bundle, randomBytes(4 << 20));

    const command = [process.execPath, CLI_MAIN, 'release', bundle, '--app', app.id, '--version', '1.0.0']
      .map((w) => `'${w}'`)
      .join(' ');
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        OTA_CONFIG_DIR: dir,
        OTA_API_URL: frontUrl,
        OTA_API_KEY: key.key,
        TERM: 'xterm',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('latin1');
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    await waitFor('the upload bar', () => out.includes('Uploading'));
    const barAt = out.length;
    child.stdin.write('\x03'); // Ctrl-C, typed on the terminal
    const code = await exited;

    expect(out.slice(0, barAt)).toContain('\x1b[?25l'); // the bar hid the cursor
    const after = out.slice(barAt);
    expect(after).toContain('\x1b[?25h'); // and it is shown again
    expect(after).toContain('\x1b[?7h'); // line wrap back on
    expect(after).toContain('Interrupted (Ctrl-C)');
    expect(code).toBe(130);
    expect((await api.apps.modules(app.id)).modules).toHaveLength(0);
  }, 60_000);
});
