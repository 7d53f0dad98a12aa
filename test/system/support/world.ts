import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, type ServiceChild, spawnApi, spawnWorkers, stopChild } from '../../helpers/compiled.js';
import { createTestContext, freePort, type TestContext } from '../../helpers/context.js';
import { HttpsReceiver } from '../../helpers/https-receiver.js';

/** Settings that make retries and flushes quick enough for a test to watch them. */
export const QUICK_SETTINGS: Record<string, string> = {
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
