import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENV_VARIABLES, loadConfig } from '../../src/config/config.js';

const ROOT = new URL('../../', import.meta.url).pathname;

interface Service {
  image?: string;
  command?: string[];
  ports?: string[];
  container_name?: string;
  volumes?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

// Docker Compose is not on the test machines; these are the properties the README's scaling promises need.
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const { services } = compose;

describe('docker-compose.yml', () => {
  it('scales API and worker copies by count: no host port, no fixed name, one load balancer in front', () => {
    for (const name of ['api', 'workers']) {
      expect(services[name]?.ports, name).toBeUndefined();
      expect(services[name]?.container_name, name).toBeUndefined();
    }
    expect(services.api?.command).toEqual(['node', 'dist/src/main.js']);
    expect(services.workers?.command).toEqual(['node', 'dist/workers/main.js']);
    const lb = services.lb!;
    // Compose's own variable syntax, not a template string.
    const published = ['$', '{API_PORT:-8080}:8080'].join('');
    expect(lb.ports).toEqual([published]);
    expect(lb.depends_on?.api?.condition).toBe('service_healthy');
    expect(Object.values(services).filter((s) => s.ports)).toEqual([lb]);
  });

  it('points the load balancer at every copy of the api service through Docker’s DNS', () => {
    const mount = services.lb!.volumes!.find((v) => v.includes('haproxy.cfg'))!;
    const file = join(ROOT, mount.split(':')[0]!);
    expect(existsSync(file)).toBe(true);
    const cfg = readFileSync(file, 'utf8');
    const port = services.api!.environment!.PORT;
    expect(cfg).toMatch(new RegExp(`server-template api \\d+ api:${port}\\b`));
    expect(cfg).toMatch(/nameserver \w+ 127\.0\.0\.11:53/);
    expect(cfg).toContain('option httpchk GET /healthz');
    expect(cfg).toMatch(/bind :8080\b/);
  });

  it('gives the API the real client address: HAProxy sets X-Forwarded-For alone, the API believes it', () => {
    const cfg = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
    expect(cfg).toMatch(/^\s*option forwardfor\b/m);
    expect(cfg).toMatch(/^\s*http-request del-header X-Forwarded-For\b/im);
    const trust = services.api!.environment!.TRUST_PROXY!;
    // The compose default, unless the shell sets TRUST_PROXY.
    const value = /^\$\{TRUST_PROXY:-(.+)\}$/.exec(trust)?.[1] ?? trust;
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@h/db',
      REDIS_URL: 'redis://h',
      CLICKHOUSE_URL: 'http://h',
      AUTH_TOKEN_SECRET: 's'.repeat(32),
      WEBHOOK_SECRET_KEY: 'ab'.repeat(32),
      TRUST_PROXY: value,
    });
    // Docker networks are private ranges: the balancer's address is trusted, public clients are not.
    expect(config.http.trustProxy).toBe('uniquelocal');
  });

  it('shares the bundle store between API copies and runs Redis with AOF and noeviction', () => {
    expect(services.api!.volumes).toContain('blobs:/data/blobs');
    expect(services.api!.environment!.BLOB_DIR).toBe('/data/blobs');
    const redis = services.redis!.command!.join(' ');
    expect(redis).toContain('--appendonly yes');
    expect(redis).toContain('--maxmemory-policy noeviction');
  });

  it('sets only settings the service knows, and every one it needs without a default', () => {
    const env = services.api!.environment!;
    for (const name of Object.keys(env)) expect(ENV_VARIABLES, name).toContain(name);
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'CLICKHOUSE_URL',
      'AUTH_TOKEN_SECRET',
      'WEBHOOK_SECRET_KEY',
    ])
      expect(env[name], name).toBeTruthy();
    expect(services.workers!.environment).toEqual(env);
  });
});
