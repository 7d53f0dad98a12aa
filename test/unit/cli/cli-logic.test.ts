import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEvents } from '../../../cli/commands/webhooks.js';
import { configDir, loadCliConfig, saveCliConfig } from '../../../cli/config.js';
import { normaliseUrl } from '../../../cli/context.js';
import { CliError, describeError, EXIT } from '../../../cli/errors.js';
import { embeddedUpdates } from '../../../cli/expo-export.js';
import { checkVersionOption, defaultVersion, parsePercent } from '../../../cli/helpers.js';
import { rollbackHints, statusRow } from '../../../cli/status-report.js';
import { ApiError, NetworkError } from '../../../client/errors.js';
import type { ReleaseWithStats } from '../../../client/types.js';

function release(id: string, failureRate: number, active = true): ReleaseWithStats {
  return {
    id,
    app_id: 'a',
    version: `v-${id}`,
    channel: 'production',
    rollout_pct: 50,
    mandatory: false,
    notes: '',
    sha256: 'x',
    size: 1,
    fingerprint: null,
    target_binary_range: null,
    active,
    rolled_back_at: null,
    created_at: '2026-11-22T06:13:00.000Z',
    capacitor: null,
    paused: false,
    promoted_from: null,
    stats: {
      downloads: 200,
      activations: 98,
      errors: 2,
      targeted_pct: 50,
      received_pct: 12.5,
      adoption: 0.49,
      failure_rate: failureRate,
      eligible_devices: 784,
      running: 40,
      bytes_served: { full: 2_000_000, patch: 12_345, per_file: 4_096 },
    },
  };
}

describe('CLI logic', () => {
  it('makes the default version from the UTC date and time, dotted', () => {
    expect(defaultVersion(new Date('2026-11-22T06:13:59.999Z'))).toBe('2026.11.22.0613');
    expect(defaultVersion(new Date('2027-01-02T23:05:00+02:00'))).toBe('2027.01.02.2105');
  });

  it('takes --version as semver or a dotted date, and refuses what a protocol cannot carry, naming --version', () => {
    for (const ok of ['1.0.0', '2.0.0-beta.1+45', '2026.11.22.0613', 'v2_rc~1', 'x'.repeat(64)])
      expect(checkVersionOption(ok)).toBe(ok);
    expect(checkVersionOption(defaultVersion())).toBe(defaultVersion());
    for (const bad of [
      'not a version',
      '',
      'a\nb',
      'a\u0000b',
      'v1/2',
      '"1"',
      'версия',
      '-1',
      'x'.repeat(65),
    ]) {
      expect(() => checkVersionOption(bad), bad).toThrow(CliError);
      expect(() => checkVersionOption(bad)).toThrow(/^--version /);
    }
    expect(() => checkVersionOption('x'.repeat(65))).toThrow('--version is 65 characters long');
  });

  it('hints a rollback only for active releases whose failure rate is past 2 %', () => {
    const hints = rollbackHints([release('ok', 0.02), release('bad', 0.0201), release('gone', 0.5, false)]);
    expect(hints.map((h) => h.module_id)).toEqual(['bad']);
    expect(hints[0]!.command).toBe('ota rollback bad');
    expect(hints[0]!.message).toContain('2.01 %');
    expect(hints[0]!.message).toContain('ota rollback bad');
  });

  it('shows each release with targeted and received %, adoption, running devices, failure rate, counts and bytes served', () => {
    expect(statusRow(release('m', 0.02))).toEqual([
      'm',
      'v-m',
      'production',
      'active',
      '50 %',
      '12.5 %',
      '49.0 %',
      40,
      '2.00 %',
      200,
      98,
      2,
      '2.0 MB',
      '12 kB',
      '4.1 kB',
    ]);
  });

  it('parses percentages and webhook event lists strictly', () => {
    expect(parsePercent('25')).toBe(25);
    expect(parsePercent('12.5%')).toBe(12.5);
    for (const bad of ['', '-1', '101', 'ten']) expect(() => parsePercent(bad)).toThrow(CliError);
    expect(parseEvents('rollback, release.pushed,rollback')).toEqual(['rollback', 'release.pushed']);
    expect(() => parseEvents('release.pushed,deploy')).toThrow(/unknown: deploy/);
  });

  it('checks the API URL', () => {
    expect(normaliseUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(() => normaliseUrl('127.0.0.1:8080')).toThrow(CliError);
    expect(() => normaliseUrl('ftp://x')).toThrow(CliError);
  });

  it('finds the config under OTA_CONFIG_DIR, XDG_CONFIG_HOME or ~/.config', () => {
    expect(configDir({ OTA_CONFIG_DIR: '/a', XDG_CONFIG_HOME: '/b' })).toBe('/a');
    // Outside a checkout that runs a server (tmpdir()): that one keeps its own (checkout-server.test.ts).
    expect(configDir({ XDG_CONFIG_HOME: '/b' }, tmpdir())).toBe('/b/ota');
    expect(configDir({}, tmpdir())).toBe(join(homedir(), '.config', 'ota'));
  });

  it('writes the config with mode 600 and reads it back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ota-cli-config-'));
    try {
      const env = { OTA_CONFIG_DIR: join(dir, 'nested') };
      expect(await loadCliConfig(env)).toEqual({});
      const path = await saveCliConfig({ api_url: 'http://x', api_key: 'ota_secret' }, env);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await stat(env.OTA_CONFIG_DIR)).mode & 0o777).toBe(0o700);
      expect(await loadCliConfig(env)).toEqual({ api_url: 'http://x', api_key: 'ota_secret' });
      expect(JSON.parse(await readFile(path, 'utf8')).api_key).toBe('ota_secret');
      await writeFile(path, '{oops');
      await expect(loadCliConfig(env)).rejects.toThrow(/not valid JSON/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('prints a 402 message as is, names an unreachable server, and picks exit codes', () => {
    const gate = new ApiError({
      status: 402,
      code: 'plan_upgrade_required',
      detail: 'Staged rollouts need the Startup (pro) plan or higher. Upgrade the plan to continue.',
      body: null,
      method: 'POST',
      url: 'u',
    });
    expect(describeError(gate)).toMatchObject({ exitCode: EXIT.refused, text: gate.detail });
    const down = describeError(new NetworkError('http://127.0.0.1:9/api/v1/me', new Error('x')));
    expect(down.exitCode).toBe(EXIT.unreachable);
    expect(down.text).toContain('http://127.0.0.1:9 is unreachable');
    expect(describeError(new CliError('Not logged in')).exitCode).toBe(EXIT.usage);
  });
});

describe('embedded updates on the command line', () => {
  const ID = '0E0E0E0E-0000-4000-8000-00000000E1B1';
  it('pairs --embedded-bundle and --embedded-update-id by platform', () => {
    expect(embeddedUpdates(['ios=dist/main.jsbundle'], [`ios=${ID}`])).toEqual([
      { platform: 'ios', file: 'dist/main.jsbundle', updateId: ID.toLowerCase() },
    ]);
    expect(embeddedUpdates([], [])).toEqual([]);
  });

  it('explains what is missing or malformed', () => {
    expect(() => embeddedUpdates(['ios=a.js'], [])).toThrow(/needs --embedded-update-id ios=<uuid>/);
    expect(() => embeddedUpdates([], [`android=${ID}`])).toThrow(/needs --embedded-bundle android=<file>/);
    expect(() => embeddedUpdates(['web=a.js'], [`web=${ID}`])).toThrow(/ios=<value> or android=<value>/);
    expect(() => embeddedUpdates(['ios=a.js'], ['ios=1234'])).toThrow(/not a UUID/);
    expect(() => embeddedUpdates(['ios=a.js', 'ios=b.js'], [`ios=${ID}`])).toThrow(/names ios twice/);
    for (const bad of [() => embeddedUpdates(['ios='], [`ios=${ID}`])]) expect(bad).toThrow(CliError);
  });
});
