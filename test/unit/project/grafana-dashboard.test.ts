import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { registerApiSeries } from '../../../src/metrics/api-metrics.js';
import { createProcessMetrics } from '../../../src/metrics/process-metrics.js';
import { registerWorkerSeries } from '../../../src/metrics/worker-metrics.js';
import { createCheckTallies, StatusTally } from '../../../src/platform/tallies.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

interface Service {
  environment?: Record<string, string>;
  volumes?: string[];
}
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const grafana = compose.services.grafana!;

/** Where a folder of the checkout is mounted in the Grafana container. */
function mountOf(folder: string): string {
  const mount = grafana.volumes!.find((v) => v.startsWith(`./${folder}:`))!;
  return mount.split(':')[1]!;
}

interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Array<{ expr: string; datasource: { uid: string } }>;
}
const dashboards = readdirSync(join(ROOT, 'deploy/grafana/dashboards')).filter((f) => f.endsWith('.json'));
const dashboard = JSON.parse(
  readFileSync(join(ROOT, 'deploy/grafana/dashboards/ota-service.json'), 'utf8'),
) as {
  uid: string;
  panels: Panel[];
};
const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));

/** Every series name either process registers (the API's, the workers', the shared and standard ones). */
function registry() {
  const metrics = createProcessMetrics();
  registerApiSeries(metrics.registry, {
    answers: { checks: createCheckTallies(), events: new StatusTally() },
    routing: { counts: { hits: 0, misses: 0, loads: 0, loadFailures: 0 }, size: 0, unknownSize: 0 },
    edge: { addresses: { refused: 0 }, refusedDevices: 0 } as never,
    intake: { counts: { accepted: 0, unknownModule: 0 } },
  });
  registerWorkerSeries(metrics.registry, {
    counts: metrics.workers,
    // Nothing is scraped here: the series are only looked up by name.
    redis: {} as never,
    keys: {} as never,
    queues: { read: async () => [] },
    log: pino({ level: 'silent' }),
  });
  return metrics.registry.registry;
}

describe('Grafana in the observability profile', () => {
  it('provisions the profile’s Prometheus as the data source the dashboard names', () => {
    const provisioning = mountOf('deploy/grafana/provisioning');
    expect(provisioning).toBe('/etc/grafana/provisioning');
    const sources = parse(
      readFileSync(join(ROOT, 'deploy/grafana/provisioning/datasources/prometheus.yml'), 'utf8'),
    ) as { datasources: Array<{ uid: string; type: string; url: string; isDefault: boolean }> };
    const [source] = sources.datasources;
    expect(source).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true });
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect(panel.datasource?.uid, panel.title).toBe(source!.uid);
      for (const target of panel.targets ?? []) expect(target.datasource.uid).toBe(source!.uid);
    }
  });

  it('loads the dashboards folder where it is mounted, and opens on the service’s dashboard', () => {
    const providers = parse(
      readFileSync(join(ROOT, 'deploy/grafana/provisioning/dashboards/ota.yml'), 'utf8'),
    ) as { providers: Array<{ type: string; options: { path: string } }> };
    const folder = mountOf('deploy/grafana/dashboards');
    expect(providers.providers[0]).toMatchObject({ type: 'file', options: { path: folder } });
    const home = grafana.environment!.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH!;
    expect(home.startsWith(`${folder}/`)).toBe(true);
    expect(existsSync(join(ROOT, 'deploy/grafana/dashboards', home.slice(folder.length + 1)))).toBe(true);
    expect(dashboards).toEqual(['ota-service.json']);
    // Read-only for whoever reaches it: no sign-in, no accounts.
    expect(grafana.environment).toMatchObject({
      GF_AUTH_ANONYMOUS_ENABLED: 'true',
      GF_AUTH_ANONYMOUS_ORG_ROLE: 'Viewer',
      GF_AUTH_DISABLE_LOGIN_FORM: 'true',
    });
  });

  it('queries only series the service exports', () => {
    const known = registry();
    const names = new Set(exprs.flatMap((e) => e.match(/\b(?:ota|process|nodejs)_[a-z0-9_]+/g) ?? []));
    expect(names.size).toBeGreaterThan(15);
    for (const name of names) {
      const family =
        known.getSingleMetric(name) ?? known.getSingleMetric(name.replace(/_(bucket|sum|count)$/, ''));
      expect(family, name).toBeDefined();
    }
  });

  it('shows checks by protocol and outcome, latency, events, ingest lag, dead letters, queues, webhooks, spikes and cache hits', () => {
    const shown = (pattern: RegExp) => exprs.some((e) => pattern.test(e));
    expect(shown(/by \(protocol\) \(rate\(ota_update_checks_total/)).toBe(true);
    expect(shown(/by \(outcome, reason\) \(rate\(ota_update_checks_total/)).toBe(true);
    expect(shown(/histogram_quantile\(0\.99, .*ota_update_check_duration_seconds_bucket/)).toBe(true);
    for (const series of [
      'ota_device_events_total',
      'ota_ingest_lag_entries',
      'ota_ingest_oldest_unread_age_seconds',
      'ota_ingest_dead_letter_entries',
      'ota_queue_jobs',
      'ota_queue_oldest_waiting_age_seconds',
      'ota_webhook_delivery_attempts_total',
      'ota_webhook_delivery_duration_seconds_bucket',
      'ota_spike_evaluations_total',
      'ota_spike_actions_total',
      'ota_routing_cache_lookups_total',
      'ota_blob_store_operations_total',
      'ota_device_limit_refusals_total',
    ])
      expect(shown(new RegExp(`\\b${series}\\b`)), series).toBe(true);
  });
});
