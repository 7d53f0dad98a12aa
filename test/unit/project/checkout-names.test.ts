import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configDir } from '../../../cli/config.js';
import { findLocalServer } from '../../../cli/local-server.js';
import { localApiUrl, startBanner, writeLocalServer } from '../../../scripts/local-server.mjs';
import { checkoutEnv, checkoutName, derivedCheckoutName } from '../../../scripts/services/checkout.mjs';

/**
 * Two checkouts on one machine share Postgres, Redis and ClickHouse; each keeps its data under names of
 * its own, and its CLI finds its own server.
 */
const made: string[] = [];
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ota-checkout-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SERVICES = {
  DATABASE_URL: 'postgres://ota_service:ota_service@127.0.0.1:5432/ota',
  DATABASE_MIGRATION_URL: 'postgres://ota:ota@127.0.0.1:5432/ota',
  REDIS_URL: 'redis://127.0.0.1:6390',
  CLICKHOUSE_URL: 'http://127.0.0.1:18123',
  CLICKHOUSE_DATABASE: 'ota',
};

describe('names of a checkout', () => {
  it('differ between two checkouts, and stay what they were', () => {
    const [a, b] = [checkout(), checkout()];
    const name = checkoutName(a);
    expect(name).toMatch(/^ota_[0-9a-f]{8}$/);
    expect(name).toBe(derivedCheckoutName(a));
    expect(checkoutName(b)).not.toBe(name);
    expect(JSON.parse(readFileSync(join(a, '.local', 'checkout.json'), 'utf8')).name).toBe(name);
    expect(checkoutName(a)).toBe(name);
  });

  it('keep `ota` for a checkout that ran with it before (its secrets and its own Redis data)', () => {
    const dir = checkout();
    mkdirSync(join(dir, '.local', 'redis'), { recursive: true });
    writeFileSync(join(dir, '.local', 'secrets.json'), '{}');
    expect(checkoutName(dir)).toBe('ota');
    // A second checkout that only reused the first one's services had secrets of its own and no Redis.
    const second = checkout();
    mkdirSync(join(second, '.local'));
    writeFileSync(join(second, '.local', 'secrets.json'), '{}');
    expect(checkoutName(second)).toBe(derivedCheckoutName(second));
  });

  it('put the Postgres database, the ClickHouse database and the Redis prefix under the name', () => {
    const dir = checkout();
    const { name, env } = checkoutEnv(dir, SERVICES, {});
    expect(env).toEqual({
      DATABASE_URL: `postgres://ota_service:ota_service@127.0.0.1:5432/${name}`,
      DATABASE_MIGRATION_URL: `postgres://ota:ota@127.0.0.1:5432/${name}`,
      CLICKHOUSE_DATABASE: name,
      REDIS_KEY_PREFIX: name,
    });
  });

  it('leave what the caller sets as set', () => {
    const dir = checkout();
    const given = { DATABASE_URL: 'postgres://x@db/prod', CLICKHOUSE_DATABASE: 'ch', REDIS_KEY_PREFIX: 'p' };
    expect(checkoutEnv(dir, SERVICES, given).env).toEqual({});
  });
});

describe("the checkout's server, for its CLI", () => {
  it('is found from the checkout and the folders below it, and keeps its login apart', () => {
    const dir = checkout();
    const below = join(dir, 'app', 'src');
    mkdirSync(below, { recursive: true });
    expect(findLocalServer(below)).toBeUndefined();
    writeLocalServer(dir, localApiUrl('0.0.0.0', 8190));
    expect(findLocalServer(below)).toEqual({ root: dir, apiUrl: 'http://127.0.0.1:8190' });
    expect(configDir({}, below)).toBe(join(dir, '.local', 'cli'));
    expect(configDir({ OTA_CONFIG_DIR: '/a' }, below)).toBe('/a');
  });

  it('is announced with the line that signs in to it', () => {
    expect(startBanner('http://127.0.0.1:8190')).toContain(
      'npx ota login --api-url http://127.0.0.1:8190 --email you@example.com',
    );
  });
});
