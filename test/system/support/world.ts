import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ensureBuilt, type ServiceChild, spawnApi, spawnWorkers, stopChild } from '../../helpers/compiled.js';
import { createTestContext, freePort, type TestContext } from '../../helpers/context.js';
import { HttpsReceiver } from '../../helpers/https-receiver.js';
import { storedEvents, waitBacklogDrained } from './checks.js';
import { appWithBundle, call, expectStatus, type Owner, registerWebhook, signUpAt } from './http.js';

/** Settings that make retries and flushes quick enough for a test to watch them. */
export const QUICK_SETTINGS: Record<string, string> = {
  // The receiver listens on loopback.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
  WEBHOOK_MAX_ATTEMPTS: '30',
  INGEST_FLUSH_MS: '100',
  INGEST_CLAIM_IDLE_MS: '3000',
};

/**
 * The service as it runs in production: API and worker processes started from dist/ (so a test can kill
 * them), on this file's own Postgres database, Redis prefix and ClickHouse database, plus an HTTPS webhook
 * receiver whose certificate the workers trust through NODE_EXTRA_CA_CERTS.
 */
export class World {
  readonly apis: Array<{ child: ServiceChild; url: string }> = [];
  readonly workers: ServiceChild[] = [];
  private constructor(
    readonly ctx: TestContext,
    readonly receiver: HttpsReceiver,
    private readonly scratch: string,
    readonly env: Record<string, string>,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<World> {
    await ensureBuilt();
    const ctx = await createTestContext({ withoutApp: true, env: { ...QUICK_SETTINGS, ...env } });
    const receiver = await new HttpsReceiver().start();
    const scratch = await mkdtemp(join(tmpdir(), 'ota-world-'));
    const caFile = join(scratch, 'receiver-ca.pem');
    await writeFile(caFile, receiver.cert);
    // Workers log warnings, so a test can tell which recovery path ran.
    return new World(ctx, receiver, scratch, { ...ctx.env, NODE_EXTRA_CA_CERTS: caFile, LOG_LEVEL: 'warn' });
  }

  /** The first API's base URL. */
  get url(): string {
    return this.apis[0]!.url;
  }

  async startApi(extra: Record<string, string> = {}): Promise<string> {
    const api = await spawnApi({ ...this.env, ...extra }, await freePort());
    this.apis.push(api);
    return api.url;
  }

  startWorkers(roles = 'ingest,webhooks,spikes,upkeep', extra: Record<string, string> = {}): ServiceChild {
    const child = spawnWorkers(roles, { ...this.env, ...extra });
    this.workers.push(child);
    return child;
  }

  /** A new account and workspace (hobby) with an app and an uploaded bundle, made through `base`. */
  async tenant(base = this.url): Promise<{ owner: Owner; appId: string; sha256: string }> {
    const owner = await signUpAt(base);
    return { owner, ...(await appWithBundle(base, owner)) };
  }

  /** Registers a webhook to `path` of the receiver, which then verifies its signatures. */
  async hook(
    owner: Owner,
    path: string,
    events: string[],
    base = this.url,
  ): Promise<{ id: string; path: string }> {
    const { id, secret } = await registerWebhook(base, owner, this.receiver.url(path), events);
    this.receiver.expect(path, secret);
    return { id, path };
  }

  /**
   * Once the event backlog has drained: ClickHouse holds each of the `accepted` activations sent for the
   * module exactly once, and the release's statistics (through `base`) count each once.
   */
  async expectEachEventOnce(
    owner: Owner,
    release: { appId: string; moduleId: string },
    accepted: number,
    base = this.url,
    timeoutMs = 60_000,
  ): Promise<void> {
    await waitBacklogDrained(this.ctx.deps, () => this.workerOutput().slice(-3000), timeoutMs);
    expect((await storedEvents(this.ctx.deps.clickhouse, release.appId)).ids).toBe(accepted);
    const stats = expectStatus(
      await call(base, 'GET', `/modules/${release.moduleId}`, { headers: owner.headers }),
      200,
    ).stats;
    expect(stats.activations).toBe(accepted);
  }

  /** Everything the worker processes printed (warnings and errors). */
  workerOutput(): string {
    return this.workers
      .map((w) => {
        const ended = w.exitCode !== null || w.signalCode !== null;
        return `${w.output.join('')}${ended ? `\n[worker ${w.pid} ended: ${w.exitCode ?? w.signalCode}]` : ''}`;
      })
      .join('\n');
  }

  async close(): Promise<void> {
    await Promise.all([
      ...this.apis.map((a) => stopChild(a.child)),
      ...this.workers.map((w) => stopChild(w)),
    ]);
    await this.receiver.close();
    await this.ctx.close();
    await rm(this.scratch, { recursive: true, force: true });
  }
}

export interface SystemWorldSpec<S> {
  /** A private server the world runs on (a Redis, a ClickHouse): started before it, closed after it. */
  server?: () => Promise<S>;
  /** Settings of every process, given the server. */
  env?: (server: S) => Record<string, string>;
  /** API processes to start (1). */
  apis?: number;
  /** Worker processes to start, by their roles (one with every role). */
  workers?: string[];
}

/**
 * Registers the file's beforeAll/afterAll: the private server, then the world on it with its API and
 * worker processes; afterwards everything is stopped and removed. The returned handle is filled in by
 * beforeAll, so tests read it inside `it`.
 */
export function systemWorld<S extends { close(): Promise<void> } | undefined = undefined>(
  spec: SystemWorldSpec<S> = {},
): { world: World; server: S; apis: string[] } {
  const handle = { apis: [] as string[] } as { world: World; server: S; apis: string[] };
  beforeAll(async () => {
    handle.server = (spec.server ? await spec.server() : undefined) as S;
    handle.world = await World.start(spec.env?.(handle.server) ?? {});
    for (let i = 0; i < (spec.apis ?? 1); i++) handle.apis.push(await handle.world.startApi());
    for (const roles of spec.workers ?? ['ingest,webhooks,spikes,upkeep']) handle.world.startWorkers(roles);
  }, 120_000);
  afterAll(async () => {
    await handle.world?.close();
    await handle.server?.close();
  });
  return handle;
}
