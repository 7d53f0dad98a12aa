import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { WORKER_NODE_FLAGS } from '../../../scripts/node-flags.mjs';
import { DOWNLOAD_HEADERS } from '../../../src/bundles/download-policy.js';
import { ENV_VARIABLES, loadConfig } from '../../../src/config/config.js';
import { WORKER_FACTORIES } from '../../../workers/registry.js';
import { docBlocks, docText } from '../../helpers/doc-blocks.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

interface Service {
  image?: string;
  mem_limit?: string;
  profiles?: string[];
  entrypoint?: string[];
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
    for (const name of ['api', 'edge', 'workers', 'deltas']) {
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
    // Without a profile, the balancer is the one published port (Grafana's comes with `observability`).
    expect(Object.values(services).filter((s) => s.ports && !s.profiles)).toEqual([lb]);
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
    const toEdge = (path: string) => acls.some((prefix) => path.startsWith(prefix)) || expo.test(path);
    const app = '8d0f1a2b-0000-4000-8000-000000000000';
    // Every device route's path (src/**/*.routes.ts declared with deviceRoute), as a device sends it: the Expo
    // launch asset URL under its app went to the control copies, which have no device routes (404).
    for (const path of [
      `/api/v1/expo/${app}/manifest`,
      `/api/v1/expo/${app}/assets/${'a'.repeat(64)}.hbc`,
      `/api/v1/expo/assets/${'a'.repeat(64)}.png`,
      `/api/v1/capacitor/${app}/updates`,
      '/api/v1/updates/check',
      '/api/v1/devices/events',
      `/api/v1/bundles/${'a'.repeat(64)}`,
      '/v0.1/public/codepush/update_check',
      '/updateCheck',
      '/reportStatus/deploy',
    ])
      expect(toEdge(path), path).toBe(true);
    for (const path of ['/api/v1/expo/releases', `/api/v1/apps/${app}/releases`, '/api/v1/auth/signin', '/'])
      expect(toEdge(path), path).toBe(false);
  });

  it('serves bucket bytes under /blobs/ with the download headers of the API (they share the console host)', () => {
    const cfg = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
    const blobs = cfg.slice(cfg.indexOf('backend blobs'));
    for (const [name, value] of Object.entries(DOWNLOAD_HEADERS)) {
      const line = new RegExp(`http-response set-header ${name} ("[^"]*"|\\S+)`, 'i').exec(blobs);
      expect(line?.[1]?.replace(/^"|"$/g, ''), name).toBe(value);
    }
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
    expect(bucket.command!.join(' ')).toContain('CreateBucketCommand');
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

  it('runs the deltas role alone in a memory-capped service, every other role in the workers service', () => {
    const roles = (name: string) => services[name]!.environment!.WORKERS!.split(',');
    expect(roles('deltas')).toEqual(['deltas']);
    expect(services.deltas!.mem_limit).toMatch(/^\d+[mg]$/);
    expect(services.deltas!.command).toEqual(services.workers!.command);
    expect([...roles('workers'), ...roles('deltas')].sort()).toEqual(Object.keys(WORKER_FACTORIES).sort());
  });

  it('lets the balancer read bundles/<sha256> from the bucket and nothing else: no listing, no uploads, no query', () => {
    const cfg = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
    const front = cfg.slice(cfg.indexOf('frontend api'), cfg.indexOf('backend edge'));
    const key = new RegExp(/acl blob_key path_reg (\S+)/.exec(front)![1]!);
    expect(front).toMatch(/acl has_query url_sub \?/);
    // Every refusal comes before the request is handed to the bucket.
    const use = front.indexOf('use_backend blobs if blobs');
    for (const rule of [
      'http-request deny deny_status 405 if blobs !METH_GET !METH_HEAD',
      'http-request deny deny_status 404 if blobs !blob_key',
      'http-request deny deny_status 404 if blobs has_query',
    ]) {
      expect(front, rule).toContain(rule);
      expect(front.indexOf(rule), rule).toBeLessThan(use);
    }
    /** What the rules above let through to the bucket, for a method and a URL (path and query). */
    const passes = (method: string, url: string) => {
      const path = url.split('?')[0]!;
      if (!path.startsWith('/blobs/')) return false;
      return ['GET', 'HEAD'].includes(method) && key.test(path) && !url.includes('?');
    };
    const sha = 'ab'.repeat(32);
    expect(passes('GET', `/blobs/bundles/${sha}`)).toBe(true);
    expect(passes('HEAD', `/blobs/bundles/${sha}`)).toBe(true);
    for (const [method, url] of [
      ['GET', '/blobs/?list-type=2&prefix=bundles/'],
      ['GET', '/blobs/'],
      ['GET', '/blobs/uploads/abc'],
      ['GET', `/blobs/bundles/${sha}?uploads`],
      ['GET', `/blobs/bundles/${sha}?acl`],
      ['GET', `/blobs/bundles/${sha}?`],
      ['GET', `/blobs/bundles/${sha.toUpperCase()}`],
      ['GET', `/blobs/bundles/${sha}/x`],
      ['GET', `/blobs/bundles/../uploads/${sha}`],
      ['GET', '/blobs/bundles/'],
      ['PUT', `/blobs/bundles/${sha}`],
      ['DELETE', `/blobs/bundles/${sha}`],
      ['POST', '/blobs/?delete'],
    ])
      expect(passes(method!, url!), `${method} ${url}`).toBe(false);
  });

  it('runs the bucket with S3 identities: anonymous reads of bundles/* only, writes with the service key pair', () => {
    const s3 = services.s3!;
    const flag = s3.command!.find((a) => a.startsWith('-s3.config='))!;
    const target = flag.slice('-s3.config='.length);
    const mount = s3.volumes!.find((v) => v.endsWith(`:${target}:ro`))!;
    const config = JSON.parse(readFileSync(join(ROOT, mount.split(':')[0]!), 'utf8')) as {
      identities: Array<{
        name: string;
        credentials?: Array<{ accessKey: string; secretKey: string }>;
        actions: string[];
      }>;
    };
    const env = services.api!.environment!;
    const anonymous = config.identities.filter((i) => !i.credentials?.length);
    expect(anonymous.map((i) => i.name)).toEqual(['anonymous']);
    expect(anonymous[0]!.actions).toEqual([`Read:${env.S3_BUCKET}/bundles/*`]);
    const service = config.identities.filter((i) => i.credentials?.length);
    expect(service).toHaveLength(1);
    expect(service[0]!.credentials).toEqual([
      { accessKey: env.AWS_ACCESS_KEY_ID, secretKey: env.AWS_SECRET_ACCESS_KEY },
    ]);
    // The service's actions stay within its bucket.
    for (const action of service[0]!.actions)
      expect(action).toMatch(new RegExp(`^[A-Za-z]+:${env.S3_BUCKET}$`));
    expect(service[0]!.actions.map((a) => a.split(':')[0])).toEqual(
      expect.arrayContaining(['Read', 'Write', 'List']),
    );
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
    for (const name of ['workers', 'deltas']) {
      const { WORKERS: _roles, ...workers } = services[name]!.environment!;
      expect(workers, name).toEqual(shared);
    }
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

describe('docker-compose.yml, profile observability', () => {
  const prometheus = services.prometheus!;
  const grafana = services.grafana!;

  it('adds Prometheus and Grafana only with the profile, Grafana on this host’s loopback only', () => {
    const profiled = Object.entries(services).filter(([, s]) => s.profiles);
    expect(profiled.map(([name]) => name).sort()).toEqual(['grafana', 'prometheus']);
    for (const [, s] of profiled) expect(s.profiles).toEqual(['observability']);
    const published = ['127.0.0.1:$', '{GRAFANA_PORT:-3000}:3000'].join('');
    expect(grafana.ports).toEqual([published]);
    expect(prometheus.ports).toBeUndefined();
  });

  it('gives every API and worker copy the same OPERATOR_TOKEN, and the workers their METRICS_PORT', () => {
    const shared = services.api!.environment!;
    expect(shared.OPERATOR_TOKEN).toBe(['$', '{OPERATOR_TOKEN:-}'].join(''));
    expect(prometheus.environment!.OPERATOR_TOKEN).toBe(shared.OPERATOR_TOKEN);
    expect(services.workers!.environment!.METRICS_PORT).toMatch(/^\d+$/);
  });

  it('scrapes every copy of api, edge and workers on their ports, with the token as a bearer credential', () => {
    const mount = prometheus.volumes!.find((v) => v.includes('prometheus.yml'))!;
    const [file, target] = mount.split(':');
    const config = parse(readFileSync(join(ROOT, file!), 'utf8')) as {
      scrape_configs: Array<{
        metrics_path: string;
        authorization: { type: string; credentials_file: string };
        dns_sd_configs: Array<{ names: string[]; type: string; port: number }>;
      }>;
    };
    expect(prometheus.command!.join(' ')).toContain(`--config.file=${target}`);
    const port = (service: string) => {
      const env = services[service]!.environment!;
      return Number(service === 'workers' || service === 'deltas' ? env.METRICS_PORT : env.PORT);
    };
    const scraped = config.scrape_configs.flatMap((job) => {
      expect(job.metrics_path).toBe('/metrics');
      expect(job.authorization.type).toBe('Bearer');
      return job.dns_sd_configs.flatMap((sd) => sd.names.map((name) => [name, sd.port, job] as const));
    });
    expect(scraped.map(([name]) => name).sort()).toEqual(['api', 'deltas', 'edge', 'workers']);
    for (const [name, scrapePort, job] of scraped) {
      expect(scrapePort, name).toBe(port(name));
      expect(job.authorization.credentials_file).toBe('/tmp/operator-token');
    }
  });

  it('is started as docs/operations/metrics.md says: the profile, with an operator token of 32 bytes', () => {
    const [command] = docBlocks('docs/operations/metrics.md', 'Prometheus and Grafana with compose', 'sh');
    expect(command!.trim()).toBe(
      'OPERATOR_TOKEN=$(openssl rand -hex 32) docker compose --profile observability up --build',
    );
    expect(prometheus.profiles).toContain('observability');
  });

  it('writes OPERATOR_TOKEN where Prometheus reads it before starting, and refuses to start without one', () => {
    expect(prometheus.entrypoint).toEqual(['/bin/sh', '-c']);
    const dir = mkdtempSync(join(tmpdir(), 'ota-prometheus-'));
    try {
      // The command as the container's shell gets it (compose turns `$$` into `$`), with Prometheus and
      // the file's folder stood in for.
      const script = prometheus
        .command![0]!.replaceAll('$$', '$')
        .replaceAll('/tmp/operator-token', join(dir, 'token'))
        .replace('exec /bin/prometheus', 'exec echo prometheus');
      const started = execFileSync('sh', ['-c', script], { env: { OPERATOR_TOKEN: 'the-token' } }).toString();
      expect(started).toContain('prometheus --config.file=');
      expect(readFileSync(join(dir, 'token'), 'utf8')).toBe('the-token');
      expect(() => execFileSync('sh', ['-c', script], { env: {}, stdio: 'pipe' })).toThrow(/OPERATOR_TOKEN/);
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

describe('Node.js lines', () => {
  it('builds the image on Node 22 LTS and names the supported lines in engines', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const froms = dockerfile.split('\n').filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) expect(from).toMatch(/^FROM node:22-/);
    const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(engines.node).toBe('^20.15 || ^22.11 || ^24');
  });
});
