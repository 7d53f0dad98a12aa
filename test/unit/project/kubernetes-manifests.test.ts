import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { WORKER_NODE_FLAGS } from '../../../scripts/node-flags.mjs';
import { ENV_VARIABLES } from '../../../src/config/config.js';
import { WORKER_FACTORIES } from '../../../workers/registry.js';

// kubectl is not on the test machines; these are the properties deploy/kubernetes/README.md promises.
const DIR = new URL('../../../deploy/kubernetes/', import.meta.url).pathname;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  command: string[];
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string } }>;
  readinessProbe?: { httpGet: { path: string; port: string } };
  livenessProbe?: { httpGet: { path: string; port: string } };
}
type Manifest = {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: a manifest's spec is free-form YAML
  spec: any;
  data?: Record<string, string>;
};

const manifests: Manifest[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) =>
    parseAllDocuments(readFileSync(join(DIR, f), 'utf8'))
      .map((d) => d.toJSON() as Manifest | null)
      .filter((m): m is Manifest => m !== null),
  );
const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const deployment = (name: string) => ofKind('Deployment').find((d) => d.metadata.name === name)!;
const container = (d: Manifest): Container => d.spec.template.spec.containers[0];
const envOf = (d: Manifest) => new Map(container(d).env!.map((e) => [e.name, e]));
const config = ofKind('ConfigMap').find((m) => m.metadata.name === 'ota-config')!.data as Record<
  string,
  string
>;

const SECRETS = [
  'DATABASE_URL',
  'DATABASE_MIGRATION_URL',
  'AUTH_TOKEN_SECRET',
  'WEBHOOK_SECRET_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'OPERATOR_TOKEN',
];

describe('deploy/kubernetes', () => {
  it('runs the device and control surfaces as Deployments of their own, with probes on /readyz and /healthz', () => {
    expect(envOf(deployment('ota-device')).get('API_SURFACES')?.value).toBe('device');
    expect(envOf(deployment('ota-control')).get('API_SURFACES')?.value).toBe('control,console');
    for (const name of ['ota-device', 'ota-control']) {
      const c = container(deployment(name));
      expect(c.command).toEqual(['node', 'dist/src/main.js']);
      expect(c.readinessProbe?.httpGet.path).toBe('/readyz');
      expect(c.livenessProbe?.httpGet.path).toBe('/healthz');
    }
  });

  it('runs every worker role as a Deployment of its own', () => {
    const roles = ofKind('Deployment')
      .map((d) => envOf(d).get('WORKERS')?.value)
      .filter(Boolean);
    expect(roles.sort()).toEqual(Object.keys(WORKER_FACTORIES).sort());
    for (const role of roles)
      expect(container(deployment(`ota-worker-${role}`)).command).toEqual([
        'node',
        ...WORKER_NODE_FLAGS,
        'dist/workers/main.js',
      ]);
  });

  it('gives every pod the grace SHUTDOWN_GRACE_MS needs, a disruption budget, and autoscales the device surface and ingest', () => {
    const graceMs = Number(config.SHUTDOWN_GRACE_MS);
    for (const d of ofKind('Deployment')) {
      const seconds = d.spec.template.spec.terminationGracePeriodSeconds;
      // The shutdown grace, the API's preStop pause (3 s) and a second or two to exit.
      expect(seconds * 1000, d.metadata.name).toBeGreaterThanOrEqual(graceMs + 4000);
      expect(seconds * 1000, d.metadata.name).toBeLessThanOrEqual(graceMs + 10_000);
      const labels = d.spec.template.metadata.labels;
      const budget = ofKind('PodDisruptionBudget').find(
        (p) => JSON.stringify(p.spec.selector.matchLabels) === JSON.stringify(labels),
      );
      expect(budget, d.metadata.name).toBeDefined();
    }
    const scaled = ofKind('HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name);
    expect(scaled.sort()).toEqual(['ota-device', 'ota-worker-ingest']);
  });

  it('holds no secret inline: secrets come from ota-secrets by reference, settings are ones the service knows', () => {
    expect(ofKind('Secret')).toEqual([]);
    for (const name of SECRETS) expect(config[name], name).toBeUndefined();
    for (const key of Object.keys(config)) expect(ENV_VARIABLES, key).toContain(key);
    for (const m of [...ofKind('Deployment'), ...ofKind('Job')]) {
      for (const e of container(m).env ?? []) {
        if (SECRETS.includes(e.name)) {
          expect(e.value, `${m.metadata.name} ${e.name}`).toBeUndefined();
          expect(e.valueFrom?.secretKeyRef?.name).toBe('ota-secrets');
        }
      }
      expect(container(m).envFrom?.[0]?.configMapRef?.name).toBe('ota-config');
    }
  });

  it('routes every device path to the device surface and the rest to the control surface', () => {
    const [ingress] = ofKind('Ingress');
    expect(ingress!.metadata.annotations?.['nginx.ingress.kubernetes.io/use-regex']).toBe('true');
    const paths = ingress!.spec.rules[0].http.paths as Array<{
      path: string;
      pathType: string;
      backend: { service: { name: string } };
    }>;
    // ingress-nginx with use-regex: each path is a case-insensitive regular expression anchored at the start,
    // the longest first; `/` (Prefix) takes what none of the others matched.
    const route = (path: string) =>
      paths.find((p) => p.path !== '/' && new RegExp(`^${p.path}`, 'i').test(path))?.backend.service.name ??
      paths.find((p) => p.path === '/')!.backend.service.name;
    const app = '8d0f1a2b-0000-4000-8000-000000000000';
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
      expect(route(path), path).toBe('ota-device');
    for (const path of [
      '/',
      '/api/v1/apps',
      `/api/v1/apps/${app}/releases`,
      '/api/v1/openapi.json',
      '/console/',
    ])
      expect(route(path), path).toBe('ota-control');
  });
});
