import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { WORKER_NODE_FLAGS } from '../../scripts/node-flags.mjs';
import { ENV_VARIABLES, loadConfig } from '../../src/config/config.js';
import { docBlocks, docText } from '../helpers/doc-blocks.js';

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

// Docker Compose is not on the test machines; these are the properties docs/operations/compose.md promises.
const text = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(text, { merge: true }) as {
  services: Record<string, Service>;
};
const { services } = compose;

describe('docker-compose.yml', () => {
  it('scales API, edge and worker copies by count: no host port, no fixed name, one load balancer in front', () => {
    for (const name of ['api', 'edge', 'workers']) {
      expect(services[name]?.ports, name).toBeUndefined();
      expect(services[name]?.container_name, name).toBeUndefined();
    }
    expect(services.api?.command).toEqual(['node', 'dist/src/main.js']);
    expect(services.workers?.command).toEqual(['node', ...WORKER_NODE_FLAGS, 'dist/workers/main.js']);
    const lb = services.lb!;
    // Compose's own variable syntax, not a template string.
    const published = ['$', '{API_PORT:-8080}:8080'].join('');
    expect(lb.ports).toEqual([published]);
    expect(lb.depends_on?.api?.condition).toBe('service_healthy');
    expect(lb.depends_on?.edge?.condition).toBe('service_healthy');
    expect(Object.values(services).filter((s) => s.ports)).toEqual([lb]);
  });

  it('runs the device surface apart: edge copies serve devices only, api copies the control API and console', () => {
    expect(services.edge?.command).toEqual(services.api?.command);
    expect(services.edge!.environment!.API_SURFACES).toBe('device');
    expect(services.api!.environment!.API_SURFACES).toBe('control,console');
    const cfg = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
    expect(cfg).toMatch(/server-template edge \d+ edge:8080\b/);
    expect(cfg).toMatch(/use_backend edge if device_path/);
    // Every device path of the API goes to the edge copies.
    const acls = [...cfg.matchAll(/acl device_path path_beg (.+)/g)].flatMap((m) =>
      m[1]!.trim().split(/\s+/),
    );
    for (const path of ['/api/v1/updates/', '/api/v1/devices/', '/api/v1/bundles/', '/v0.1/public/codepush/'])
      expect(acls).toContain(path);
    const expo = new RegExp(/acl device_path path_reg (\S+)/.exec(cfg)![1]!);
    expect(expo.test('/api/v1/expo/8d0f1a2b-0000-4000-8000-000000000000/manifest')).toBe(true);
    expect(expo.test('/api/v1/expo/releases')).toBe(false);
  });

  it('bounds open connections per client address at the balancer (the API behind it sees only the balancer)', () => {
    const cfg = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
    expect(cfg).toMatch(/tcp-request connection track-sc0 src/);
    expect(cfg).toMatch(/tcp-request connection reject if \{ sc0_conn_cur gt \d+ \}/);
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

  it('keeps bundles in an S3 server of its own, bucket made at start, bytes served from it by the balancer', () => {
    const env = services.api!.environment!;
    expect(env.BLOB_STORE).toBe('s3');
    expect(services.api!.volumes ?? []).toEqual([]);
    const endpoint = new URL(env.S3_ENDPOINT!);
    expect(services[endpoint.hostname]?.image).toMatch(/seaweedfs|minio|garage/);
    expect(services[endpoint.hostname]?.ports).toBeUndefined();
    const bucket = services['blobs-bucket']!;
    expect(bucket.command!.join(' ')).toContain("method: 'PUT'");
    expect(bucket.depends_on?.[endpoint.hostname]?.condition).toBe('service_healthy');
    for (const name of ['api', 'workers'])
      expect(services[name]!.depends_on?.['blobs-bucket']?.condition, name).toBe(
        'service_completed_successfully',
      );
    // Devices fetch <PUBLIC_URL>/blobs/<key>; HAProxy hands those paths to the bucket, reads only.
    expect(env.BUNDLE_BASE_URL).toContain('/blobs}');
    const cfg = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
    expect(cfg).toContain('use_backend blobs if blobs');
    expect(cfg).toContain(`regsub(^/blobs/,/${env.S3_BUCKET}/)`);
    expect(cfg).toContain(`server s3 ${endpoint.host}`);
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@h/db',
      REDIS_URL: 'redis://h',
      CLICKHOUSE_URL: 'http://h',
      AUTH_TOKEN_SECRET: 's'.repeat(32),
      WEBHOOK_SECRET_KEY: 'ab'.repeat(32),
      ...Object.fromEntries(
        ['BLOB_STORE', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE'].map((k) => [k, env[k]]),
      ),
      BUNDLE_BASE_URL: 'http://localhost:8080/blobs',
    });
    expect(config.bundles.s3).toMatchObject({ bucket: 'ota-blobs', forcePathStyle: true });
  });

  it('runs Redis with AOF synced before each answer and noeviction', () => {
    const redis = services.redis!.command!.join(' ');
    expect(redis).toContain('--appendonly yes');
    expect(redis).toContain('--appendfsync always');
    expect(redis).toContain('--maxmemory-policy noeviction');
  });

  it('has no default secrets: compose refuses to start until each one is set', () => {
    // `${VAR:?message}` stops `docker compose up` with the message when VAR is unset or empty.
    const required = (name: string) => new RegExp(`^\\$\\{${name}:\\?[^}]+\\}$`);
    const env = services.api!.environment!;
    expect(env.AUTH_TOKEN_SECRET).toMatch(required('AUTH_TOKEN_SECRET'));
    expect(env.WEBHOOK_SECRET_KEY).toMatch(required('WEBHOOK_SECRET_KEY'));
    expect(services.postgres!.environment!.POSTGRES_PASSWORD).toMatch(required('POSTGRES_PASSWORD'));
    // No fallback value for any secret or password anywhere in the file.
    expect(text).not.toMatch(/\$\{[A-Z_]*(SECRET|PASSWORD|KEY)[A-Z_]*:?-/);
    expect(text).not.toMatch(/postgres:\/\/[^:]+:[a-z]+@/);
  });

  it('connects the API and workers as the service role, and only migrations as the schema owner', () => {
    const owner = services.postgres!.environment!.POSTGRES_USER!;
    const user = (url: string | undefined) => new URL(url!.replace(/\$\{[^}]+\}/g, 'x')).username;
    for (const name of ['api', 'workers']) {
      const env = services[name]!.environment!;
      expect(user(env.DATABASE_URL), name).toBe('ota_service');
      expect(env.DATABASE_MIGRATION_URL, name).toBeUndefined();
    }
    const migrate = services.migrate!;
    expect(user(migrate.environment!.DATABASE_MIGRATION_URL)).toBe(owner);
    expect(user(migrate.environment!.DATABASE_URL)).toBe('ota_service');
    expect(migrate.depends_on?.['db-roles']?.condition).toBe('service_completed_successfully');
    expect(services.api!.depends_on?.migrate?.condition).toBe('service_completed_successfully');
    // The role is made by deploy/postgres-roles.sql, mounted into the one-shot `db-roles` step.
    const roles = services['db-roles']!;
    const mount = roles.volumes!.find((v) => v.includes('postgres-roles.sql'))!;
    const sql = readFileSync(join(ROOT, mount.split(':')[0]!), 'utf8');
    expect(sql).toContain('ALTER ROLE ota_service LOGIN NOSUPERUSER');
    expect(sql).toContain("PASSWORD :'service_password'");
  });

  it('sets only settings the service knows, and every one it needs without a default', () => {
    const env = services.api!.environment!;
    for (const name of Object.keys(env)) expect(ENV_VARIABLES, name).toContain(name);
    for (const name of Object.keys(services.migrate!.environment!))
      expect(ENV_VARIABLES, name).toContain(name);
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'CLICKHOUSE_URL',
      'AUTH_TOKEN_SECRET',
      'WEBHOOK_SECRET_KEY',
    ])
      expect(env[name], name).toBeTruthy();
    // The same settings everywhere, but for the surfaces each API service serves.
    const { API_SURFACES: _api, ...shared } = env;
    const { API_SURFACES: _edge, ...edge } = services.edge!.environment!;
    expect(edge).toEqual(shared);
    expect(services.workers!.environment).toEqual(shared);
  });

  it('the documented one command writes every secret compose requires, each one the service accepts', () => {
    const required = [...new Set([...text.matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]!))].sort();
    expect(required).toEqual(
      ['AUTH_TOKEN_SECRET', 'OTA_SERVICE_DB_PASSWORD', 'POSTGRES_PASSWORD', 'WEBHOOK_SECRET_KEY'].sort(),
    );
    const block = docBlocks('docs/operations/compose.md', 'First start', 'sh').find((b) =>
      b.includes('> .env'),
    )!;
    const command = block.split('\n').find((l) => l.includes('> .env'))!;
    const dir = mkdtempSync(join(tmpdir(), 'ota-env-'));
    try {
      execFileSync('bash', ['-c', command], { cwd: dir });
      const env = Object.fromEntries(
        readFileSync(join(dir, '.env'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => l.split('=') as [string, string]),
      );
      expect(Object.keys(env).sort()).toEqual(required);
      for (const value of Object.values(env)) expect(value).toMatch(/^[0-9a-f]{48,64}$/);
      const config = loadConfig({
        DATABASE_URL: 'postgres://ota_service:x@postgres:5432/ota',
        REDIS_URL: 'redis://redis:6379',
        CLICKHOUSE_URL: 'http://clickhouse:8123',
        AUTH_TOKEN_SECRET: env.AUTH_TOKEN_SECRET,
        WEBHOOK_SECRET_KEY: env.WEBHOOK_SECRET_KEY,
      });
      expect(config.auth.tokenSecret).toBe(env.AUTH_TOKEN_SECRET);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the workers' Node flags (scripts/node-flags.mjs)", () => {
  it('are the same in every launcher: npm start, npm run start:workers, the Dockerfile and the docs', () => {
    const command = ['node', ...WORKER_NODE_FLAGS, 'dist/workers/main.js'].join(' ');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['start:workers']).toBe(command);
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).toContain(`workers  ${command}`);
    expect(docText('docs/operations/processes-and-scaling.md')).toContain(`\`WORKERS=ingest ${command}\``);
    expect(readFileSync(join(ROOT, 'scripts/start.mjs'), 'utf8')).toContain(
      "[...WORKER_NODE_FLAGS, 'dist/workers/main.js']",
    );
  });
});
