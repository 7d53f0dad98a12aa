import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext, signUp } from '../../helpers/context.js';

const ctx = fileContext();
let apiUrl: string;
let home: string;

beforeAll(async () => {
  await ensureCliBuilt();
  apiUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  home = await mkdtemp(join(tmpdir(), 'ota-cli-test-'));
}, 180_000);

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

let dirs = 0;
/** A fresh config folder, as if on another machine. */
function machine(): string {
  dirs += 1;
  return join(home, `machine-${dirs}`);
}

async function readConfig(dir: string): Promise<Record<string, string>> {
  return JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
}

async function liveKeys(workspaceId: string) {
  const { rows } = await ctx.deps.db.query<{ id: string; name: string }>(
    'SELECT id, name FROM api_keys WHERE workspace_id = $1 AND revoked_at IS NULL ORDER BY created_at',
    [workspaceId],
  );
  return rows;
}

describe('ota login, whoami, logout', () => {
  it('signs in, stores only an API key named after the machine (mode 600), and acts through it', async () => {
    const configDir = machine();
    const login = await runCli(
      ['login', '--create', '--email', 'Dev@Example.com', '--password-stdin', '--json'],
      {
        configDir,
        apiUrl,
        input: 'a long password\n',
      },
    );
    expect(login.code, login.stderr).toBe(0);
    const out = jsonOf<{
      email: string;
      workspace_id: string;
      account_created: boolean;
      api_key: { name: string };
    }>(login);
    expect(out).toMatchObject({
      email: 'dev@example.com',
      account_created: true,
      api_key: { name: hostname() },
    });

    const saved = await readConfig(configDir);
    expect(Object.keys(saved).sort()).toEqual(['api_key', 'api_url', 'email', 'key_id', 'workspace_id']);
    expect(saved.api_key).toMatch(/^ota_/);
    expect(JSON.stringify(saved)).not.toContain('a long password');
    expect((await stat(join(configDir, 'config.json'))).mode & 0o777).toBe(0o600);
    expect(await liveKeys(out.workspace_id)).toEqual([{ id: saved.key_id, name: hostname() }]);

    const who = await runCli(['whoami', '--json'], { configDir });
    expect(who.code, who.stderr).toBe(0);
    expect(jsonOf(who)).toMatchObject({
      api_url: apiUrl,
      workspace_id: out.workspace_id,
      plan: 'hobby',
      role: 'admin',
      actor: 'api-key',
      email: 'dev@example.com',
    });
    const text = await runCli(['whoami'], { configDir });
    expect(text.stdout).toContain(`Workspace:  ${out.workspace_id}`);
    expect(text.stdout).toContain('audited as "api-key"');
  });

  it('replaces the machine key on a second login, and logout revokes it', async () => {
    const configDir = machine();
    const user = await signUp(ctx.app);
    const first = await runCli(['login', '--email', user.email, '--password-stdin'], {
      configDir,
      apiUrl,
      input: user.password,
    });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`Logged in as ${user.email}`);
    const firstKey = (await readConfig(configDir)).key_id;

    const second = await runCli(['login', '--email', user.email, '--password-stdin'], {
      configDir,
      input: user.password,
    });
    expect(second.code, second.stderr).toBe(0);
    const secondKey = (await readConfig(configDir)).key_id;
    expect(secondKey).not.toBe(firstKey);
    expect((await liveKeys(user.workspaceId)).map((k) => k.id)).toEqual([secondKey]);

    const logout = await runCli(['logout', '--json'], { configDir });
    expect(logout.code, logout.stderr).toBe(0);
    expect(jsonOf(logout)).toMatchObject({ logged_out: true, key_revoked: true });
    expect(await liveKeys(user.workspaceId)).toEqual([]);
    expect(await readConfig(configDir)).toEqual({ api_url: apiUrl });

    const after = await runCli(['whoami'], { configDir });
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('Not logged in: run `ota login`');
  });

  it('keeps no identity token alive: login signs out the ones it signed in with, logout --everywhere ends all', async () => {
    const revoked = async () =>
      Number((await ctx.deps.db.query('SELECT count(*) AS n FROM revoked_tokens')).rows[0].n);
    const configDir = machine();
    const user = await signUp(ctx.app);
    // A second workspace the user belongs to: --workspace signs in, then takes a token for it.
    const other = await signUp(ctx.app);
    await ctx.deps.db.query(`UPDATE workspaces SET plan = 'pro' WHERE id = $1`, [other.workspaceId]);
    const invited = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${other.workspaceId}/members`,
      headers: other.headers,
      payload: { email: user.email, role: 'admin' },
    });
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/invitations/accept',
      headers: user.headers,
      payload: { token: invited.json().invitation.token },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);

    const before = await revoked();
    const login = await runCli(
      ['login', '--email', user.email, '--password-stdin', '--workspace', other.workspaceId],
      { configDir, apiUrl, input: user.password },
    );
    expect(login.code, login.stderr).toBe(0);
    // The sign-in's token and the one for the other workspace: both ended once the key was made.
    expect((await revoked()) - before).toBe(2);

    // A session elsewhere (the console's) ends with `logout --everywhere`, which asks for the password.
    const me = () => ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: user.headers });
    expect((await me()).statusCode).toBe(200);
    const logout = await runCli(['logout', '--everywhere', '--password-stdin', '--json'], {
      configDir,
      input: user.password,
    });
    expect(logout.code, logout.stderr).toBe(0);
    expect(jsonOf(logout)).toMatchObject({
      logged_out: true,
      key_revoked: true,
      signed_out_everywhere: true,
    });
    expect((await me()).statusCode).toBe(401);
    expect(await liveKeys(other.workspaceId)).toEqual([]);
  });

  it('refuses wrong credentials with the server message and a non-zero exit, storing nothing', async () => {
    const configDir = machine();
    const user = await signUp(ctx.app);
    const wrong = await runCli(['login', '--email', user.email, '--password-stdin'], {
      configDir,
      apiUrl,
      input: 'not the password',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('The e-mail or password is wrong. (HTTP 401, invalid_credentials)');
    await expect(stat(join(configDir, 'config.json'))).rejects.toThrow();

    const asJson = await runCli(['login', '--email', user.email, '--password-stdin', '--json'], {
      configDir,
      apiUrl,
      input: 'not the password',
    });
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stderr)).toEqual({
      error: { status: 401, code: 'invalid_credentials', detail: 'The e-mail or password is wrong.' },
    });

    const badKey = await runCli(['login', '--api-key', 'ota_not_a_real_key'], { configDir, apiUrl });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain('invalid_api_key');
  });

  it("replaces the machine key even when the config that named it is gone, and no one else's", async () => {
    const user = await signUp(ctx.app);
    const login = (configDir: string) =>
      runCli(['login', '--email', user.email, '--password-stdin'], {
        configDir,
        apiUrl,
        input: user.password,
      });
    expect((await login(machine())).code).toBe(0);
    // Another member's key of the same name stays.
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${user.workspaceId}/api-keys`,
      headers: user.headers,
      payload: { name: 'ci', role: 'developer' },
    });
    expect(res.statusCode).toBe(201);
    // The same host again, its config lost (a new folder): still one key of the machine's name.
    const again = machine();
    expect((await login(again)).code).toBe(0);
    const keys = await liveKeys(user.workspaceId);
    expect(keys.filter((k) => k.name === hostname()).map((k) => k.id)).toEqual([
      (await readConfig(again)).key_id,
    ]);
    expect(keys.map((k) => k.name)).toContain('ci');
  });

  it('names an unreachable server and exits with 3', async () => {
    const configDir = machine();
    const port = await closedPort();
    const down = await runCli(['login', '--email', 'x@example.com', '--password-stdin'], {
      configDir,
      apiUrl: `http://127.0.0.1:${port}`,
      input: 'whatever password',
    });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain(`The server at http://127.0.0.1:${port} is unreachable (ECONNREFUSED)`);

    const who = await runCli(['whoami', '--json', '--api-url', `http://127.0.0.1:${port}`], {
      configDir,
      env: { OTA_API_KEY: 'ota_some_key' },
    });
    expect(who.code).toBe(3);
    expect(JSON.parse(who.stderr).error.code).toBe('unreachable');
  });

  it('names an address that is not this service in one line, whatever the page it answers', async () => {
    // A plain web server: an HTML error page for every path.
    const web = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body><h1>404 Not Found</h1><p>nginx</p></body></html>');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    try {
      for (const url of [webUrl, `${apiUrl}/wrong/path`]) {
        const result = await runCli(['login', '--email', 'x@example.com', '--password-stdin'], {
          configDir: machine(),
          apiUrl: url,
          input: 'whatever password',
        });
        expect(result.code, result.stderr).toBe(3);
        expect(result.stderr).toMatch(
          new RegExp(
            `^Error: ${url} does not answer as an OTA server \\(GET /api/v1/openapi.json [^\n]*\\n$`,
          ),
        );
      }
    } finally {
      await new Promise((resolve) => web.close(resolve));
    }
    // The service itself still speaks for itself.
    const wrong = await runCli(['login', '--email', 'x@example.com', '--password-stdin'], {
      configDir: machine(),
      apiUrl,
      input: 'whatever password',
    });
    expect(wrong.stderr).not.toContain('does not answer as an OTA server');
  });

  it('stores an existing key with --api-key; OTA_API_KEY and --api-url override the config', async () => {
    const owner = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const keyOf = async (who: typeof owner, name: string) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${who.workspaceId}/api-keys`,
        headers: who.headers,
        payload: { name, role: 'developer' },
      });
      return res.json().key as string;
    };
    const configDir = machine();
    const login = await runCli(['login', '--api-key', await keyOf(owner, 'ci'), '--api-url', apiUrl], {
      configDir,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(
      `Logged in to workspace ${owner.workspaceId} with an API key (role developer)`,
    );
    expect((await readConfig(configDir)).api_url).toBe(apiUrl);

    const viaEnv = await runCli(['whoami', '--json'], {
      configDir,
      env: { OTA_API_KEY: await keyOf(other, 'env') },
    });
    expect(jsonOf(viaEnv)).toMatchObject({
      workspace_id: other.workspaceId,
      credential: 'api-key (OTA_API_KEY)',
    });

    const port = await closedPort();
    const viaFlag = await runCli(['whoami', '--api-url', `http://127.0.0.1:${port}`], { configDir });
    expect(viaFlag.code).toBe(3);
    const viaEnvUrl = await runCli(['whoami'], {
      configDir,
      env: { OTA_API_URL: `http://127.0.0.1:${port}` },
    });
    expect(viaEnvUrl.code).toBe(3);
  });
});

describe('ota keys', () => {
  it('creates, lists and revokes keys; a revoked key stops working at once', async () => {
    const configDir = machine();
    const user = await signUp(ctx.app);
    await runCli(['login', '--email', user.email, '--password-stdin'], {
      configDir,
      apiUrl,
      input: user.password,
    });

    const created = await runCli(['keys', 'create', 'deploy bot', '--role', 'developer', '--json'], {
      configDir,
    });
    expect(created.code, created.stderr).toBe(0);
    const key = jsonOf<{ id: string; name: string; role: string; key: string }>(created);
    expect(key).toMatchObject({ name: 'deploy bot', role: 'developer' });

    const list = await runCli(['keys', 'list', '--json'], { configDir });
    const listed = jsonOf<{ api_keys: Array<{ id: string; name: string }> }>(list).api_keys;
    expect(listed.map((k) => k.name).sort()).toEqual(['deploy bot', hostname()].sort());
    expect(list.stdout).not.toContain(key.key);
    const table = await runCli(['keys', 'list'], { configDir });
    expect(table.stdout).toContain('(this machine)');
    expect(table.stdout).toContain('deploy bot');

    const botDir = machine();
    await runCli(['login', '--api-key', key.key], { configDir: botDir, apiUrl });
    expect((await runCli(['whoami'], { configDir: botDir })).code).toBe(0);

    const revoked = await runCli(['keys', 'revoke', key.id], { configDir });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked API key ${key.id}`);
    const refused = await runCli(['whoami'], { configDir: botDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The API key is not valid or was revoked.');
    expect(refused.stderr).toContain('Run `ota login`');

    const viewerDir = machine();
    const viewer = await runCli(['keys', 'create', 'viewer', '--role', 'viewer', '--json'], { configDir });
    await runCli(['login', '--api-key', jsonOf<{ key: string }>(viewer).key], {
      configDir: viewerDir,
      apiUrl,
    });
    const denied = await runCli(['keys', 'create', 'escalate'], { configDir: viewerDir });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('HTTP 403');

    const unknownRole = await runCli(['keys', 'create', 'x', '--role', 'owner'], { configDir });
    expect(unknownRole.code).toBe(2);
    expect(unknownRole.stderr).toContain('The role must be one of admin, developer, viewer');
  });
});
