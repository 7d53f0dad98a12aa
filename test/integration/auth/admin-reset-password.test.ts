import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/platform/paths.js';
import { ensureBuilt } from '../../helpers/compiled.js';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';

/** The operator's command for servers without SMTP_URL: `npm run admin -- reset-password <email>`. */
const ctx = fileContext({ env: { PUBLIC_URL: 'https://ota.example.com' } });
beforeAll(async () => {
  await ensureBuilt();
});
function admin(args: string[], input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(projectRoot(), 'dist/src/admin.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', ...ctx.env, PUBLIC_URL: 'https://ota.example.com' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input);
  });
}

const signin = (email: string, password: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { email, password, create: false },
    remoteAddress: '198.19.11.1',
  });

describe('npm run admin -- reset-password', () => {
  it('prints a one-time link that sets a new password and ends every session', async () => {
    const user = await signUp(ctx.app);
    const out = await admin(['reset-password', user.email]);
    expect(out.code, out.stderr).toBe(0);
    const token = /https:\/\/ota\.example\.com\/reset-password#token=(ota_pwr_[A-Za-z0-9_-]+)/.exec(
      out.stdout,
    )?.[1];
    expect(token).toBeDefined();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm',
      payload: { token, new_password: 'chosen by its owner' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked_api_keys: [] });
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: user.headers }), 401);
    expect((await signin(user.email, 'chosen by its owner')).statusCode).toBe(200);
  });

  it('sets a password from standard input, revoking and listing the API keys the account made', async () => {
    const user = await signUp(ctx.app);
    const made = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${user.workspaceId}/api-keys`,
      headers: user.headers,
      payload: { name: 'left by a squatter' },
    });
    expect(made.statusCode).toBe(201);
    const out = await admin(['reset-password', user.email, '--password-stdin'], 'set by the operator\n');
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`Password of ${user.email} set`);
    expect(out.stdout).toContain(`${made.json().id}  left by a squatter  (workspace ${user.workspaceId})`);
    expectProblem(
      await ctx.app.inject({ method: 'GET', url: '/api/v1/apps', headers: { 'x-api-key': made.json().key } }),
      401,
      'invalid_api_key',
    );
    expectProblem(await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: user.headers }), 401);
    expect((await signin(user.email, 'set by the operator')).statusCode).toBe(200);
  });

  it('names an unknown account, and prints usage for a wrong command', async () => {
    const out = await admin(['reset-password', 'nobody@example.com']);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/nobody@example\.com was not found/);
    const wrong = await admin(['reset-pasword', 'x@example.com']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Usage: npm run admin');
    const help = await admin(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('reset-password <email>');
  });
});
