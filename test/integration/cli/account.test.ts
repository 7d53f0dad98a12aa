import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_MAIN, ensureCliBuilt, jsonOf, runCli } from '../../helpers/cli.js';
import { fileContext, signUp } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';

const ctx = fileContext();
let apiUrl: string;
let home: string;

beforeAll(async () => {
  await ensureCliBuilt();
  apiUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  home = await mkdtemp(join(tmpdir(), 'ota-cli-account-'));
}, 180_000);

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

let dirs = 0;
const machine = () => join(home, `machine-${++dirs}`);
const users = async (email: string) =>
  (await ctx.deps.db.query('SELECT 1 FROM users WHERE email = $1', [email])).rows.length;

/**
 * `ota login --email <email>` on a terminal (`script` gives it a pseudo-terminal): the password typed, then
 * the answer to the question asked. Resolves with the exit code and everything the terminal showed.
 */
async function loginOnTerminal(email: string, answer: string): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, CLI_MAIN, 'login', '--email', email].map((w) => `'${w}'`).join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      OTA_CONFIG_DIR: machine(),
      OTA_API_URL: apiUrl,
      TERM: 'xterm',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  await waitFor('the password prompt', () => out.includes('Password:'));
  child.stdin.write('a long password\r');
  await waitFor('the question', () => out.includes('Create one? [y/N]'));
  child.stdin.write(`${answer}\r`);
  return { code: await exited, out };
}

describe('ota login on an e-mail with no account', () => {
  it('asks on a terminal: yes makes the account, anything else makes none', async () => {
    const no = await loginOnTerminal('maybe@example.com', 'n');
    expect(no.out).toContain('No account has the e-mail maybe@example.com');
    expect(no.out).toContain('No account was created.');
    expect(no.code).not.toBe(0);
    expect(await users('maybe@example.com')).toBe(0);

    const yes = await loginOnTerminal('surely@example.com', 'y');
    expect(yes.code).toBe(0);
    expect(yes.out).toContain('Created the account surely@example.com and its workspace.');
    expect(await users('surely@example.com')).toBe(1);
  });

  it('refuses without a terminal and without --create, naming both, and makes nothing', async () => {
    const result = await runCli(['login', '--email', 'typo@exmaple.com', '--password-stdin'], {
      configDir: machine(),
      apiUrl,
      input: 'a long password\n',
    });
    expect(result.code).toBe(2); // a usage error: the flag is missing
    expect(result.stderr).toContain('No account has the e-mail typo@exmaple.com');
    expect(result.stderr).toContain('--create');
    expect(await users('typo@exmaple.com')).toBe(0);
  });

  it('makes the account with --create, and signs an existing one in without it', async () => {
    const created = await runCli(
      ['login', '--create', '--email', 'made@example.com', '--password-stdin', '--json'],
      { configDir: machine(), apiUrl, input: 'a long password\n' },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(jsonOf(created)).toMatchObject({ email: 'made@example.com', account_created: true });
    const again = await runCli(['login', '--email', 'made@example.com', '--password-stdin', '--json'], {
      configDir: machine(),
      apiUrl,
      input: 'a long password\n',
    });
    expect(again.code, again.stderr).toBe(0);
    expect(jsonOf(again)).toMatchObject({ account_created: false });
  });

  it('documents --create in its help', async () => {
    const help = await runCli(['login', '--help'], { configDir: machine(), apiUrl });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--create');
  });

  it('other commands that sign in never make an account', async () => {
    const result = await runCli(['plan', 'set', 'team', '--email', 'ghost@example.com', '--password-stdin'], {
      configDir: machine(),
      apiUrl,
      env: { OTA_API_KEY: 'ota_not_used_here' },
      input: 'a long password\n',
    });
    expect(result.code).not.toBe(0);
    expect(await users('ghost@example.com')).toBe(0);
  });
});

describe('plans and passwords, in words', () => {
  it('names a plan as everywhere else, and takes it by either name', async () => {
    const user = await signUp(ctx.app);
    const configDir = machine();
    const login = await runCli(['login', '--email', user.email, '--password-stdin'], {
      configDir,
      apiUrl,
      input: `${user.password}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    const set = await runCli(['plan', 'set', 'enterprise', '--password-stdin'], {
      configDir,
      apiUrl,
      input: `${user.password}\n`,
    });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('is now on the Enterprise plan (team).');
    const shown = await runCli(['plan', 'show'], { configDir, apiUrl });
    expect(shown.stdout).toContain('on the Enterprise plan (team)');
    const back = await runCli(['plan', 'set', 'pro', '--password-stdin'], {
      configDir,
      apiUrl,
      input: `${user.password}\n`,
    });
    expect(back.stdout).toContain('is now on the Startup plan (pro).');
  });

  it('says a wrong password is wrong, without asking to sign in again', async () => {
    const user = await signUp(ctx.app);
    const wrong = await runCli(['login', '--email', user.email, '--password-stdin'], {
      configDir: machine(),
      apiUrl,
      input: 'not the password\n',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('The e-mail or password is wrong.');
    expect(wrong.stderr).not.toContain('sign in again');
  });
});

describe('ota password', () => {
  it('changes the password (two lines on stdin) and ends the other sessions; the key keeps working', async () => {
    const user = await signUp(ctx.app);
    const configDir = machine();
    const login = await runCli(['login', '--email', user.email, '--password-stdin'], {
      configDir,
      apiUrl,
      input: `${user.password}\n`,
    });
    expect(login.code, login.stderr).toBe(0);

    const changed = await runCli(['password', '--password-stdin', '--json'], {
      configDir,
      apiUrl,
      input: `${user.password}\nmy new long password\n`,
    });
    expect(changed.code, changed.stderr).toBe(0);
    expect(jsonOf(changed)).toMatchObject({ email: user.email, password_changed: true });

    const me = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: user.headers });
    expect(me.statusCode).toBe(401);
    const whoami = await runCli(['whoami', '--json'], { configDir, apiUrl });
    expect(whoami.code, whoami.stderr).toBe(0);

    const relogin = await runCli(['login', '--email', user.email, '--password-stdin'], {
      configDir: machine(),
      apiUrl,
      input: 'my new long password\n',
    });
    expect(relogin.code, relogin.stderr).toBe(0);
  });

  it('says so when the current password is wrong, and changes nothing', async () => {
    const user = await signUp(ctx.app);
    const wrong = await runCli(['password', '--email', user.email, '--password-stdin'], {
      configDir: machine(),
      apiUrl,
      input: 'not the password\nmy new long password\n',
    });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/e-mail or password is wrong/);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: user.headers });
    expect(me.statusCode).toBe(200);
  });
});

describe('ota plan show', () => {
  it("shows the workspace's plan and its use of the limits", async () => {
    const configDir = machine();
    const login = await runCli(['login', '--create', '--email', 'planned@example.com', '--password-stdin'], {
      configDir,
      apiUrl,
      input: 'a long password\n',
    });
    expect(login.code, login.stderr).toBe(0);
    const text = await runCli(['plan', 'show'], { configDir, apiUrl });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/is on the Hobby plan \(hobby\)/);
    expect(text.stdout).toMatch(/Devices: 0 of 100/);
    expect(text.stdout).toMatch(/Members: 1 of 1/);
    const json = await runCli(['plan', 'show', '--json'], { configDir, apiUrl });
    expect(jsonOf(json)).toMatchObject({ plan: 'hobby', device_cap: 100, member_cap: 1, members: 1 });
  });
});
