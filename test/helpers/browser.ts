import { accessSync, constants, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { OtaClient } from '../../client/index.js';
import { projectRoot } from '../../src/platform/paths.js';
import { WORKER_FACTORIES } from '../../workers/registry.js';
import type { Worker } from '../../workers/worker.js';
import { createTestContext, freePort, type TestContext, type TestContextOptions } from './context.js';
import { waitFor } from './wait.js';

/** Debian's Chromium (scripts/services/chromium.mjs installs it); CHROMIUM_PATH overrides. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`Chromium not found at ${path}: run \`npm test\` (it installs it) or set CHROMIUM_PATH`);
  }
  return path;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const SCREENSHOT_DIR = join(projectRoot(), 'test-results', 'screenshots');

export interface ConsoleHarness {
  ctx: TestContext;
  /** http://127.0.0.1:<port> of the API serving the console. */
  baseUrl: string;
  browser: BrowserContext;
  page: Page;
  /** Page errors and failed console messages; a test ends by expecting this to be empty. */
  problems: string[];
  /** A typed client on the same API (for set-up done "through the API"). */
  client(credentials?: { token: string } | { apiKey: string }): OtaClient;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export interface ConsoleOptions extends TestContextOptions {
  /** Worker roles (names of workers/registry.ts) to run in-process on the same databases. */
  workers?: string[];
}

/**
 * One API (its own databases, listening on a free loopback port, serving the built console), the worker
 * roles asked for, and one headless Chromium with a fresh profile, for one test file.
 */
export async function startConsole(options: ConsoleOptions = {}): Promise<ConsoleHarness> {
  // PUBLIC_URL names this server, so the links the API hands out (invitations, bundles) open here.
  const port = await freePort();
  const ctx = await createTestContext({
    ...options,
    env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...options.env },
  });
  let browser: BrowserContext | undefined;
  const workers: Worker[] = [];
  const profile = await mkdtemp(join(tmpdir(), 'ota-chromium-'));
  const stopWorkers = () => Promise.allSettled(workers.map((w) => w.stop()));
  try {
    for (const role of options.workers ?? []) {
      const factory = WORKER_FACTORIES[role];
      if (!factory) throw new Error(`no worker role "${role}" in workers/registry.ts`);
      const worker = factory(ctx.deps);
      await worker.start();
      workers.push(worker);
    }
    const address = await ctx.app.listen({ host: '127.0.0.1', port });
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 860 },
      timeout: 60_000,
    });
    browser.setDefaultTimeout(15_000);
    const page = browser.pages()[0] ?? (await browser.newPage());
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      // A refused API call (402, 409) is logged by Chromium itself; the page shows it, so it is expected.
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) {
        problems.push(`console: ${msg.text()}`);
      }
    });
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const opened = browser;
    return {
      ctx,
      baseUrl: address,
      browser: opened,
      page,
      problems,
      client: (credentials) => new OtaClient({ baseUrl: address, credentials }),
      screenshot: async (name) => {
        const file = join(SCREENSHOT_DIR, `${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        return file;
      },
      close: async () => {
        await opened.close().catch(() => undefined);
        await rm(profile, { recursive: true, force: true });
        await stopWorkers();
        await ctx.close();
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await rm(profile, { recursive: true, force: true });
    await stopWorkers();
    await ctx.close();
    throw err;
  }
}

/** Signs in through the console's form and waits for the signed-in shell. */
export async function signInThroughUi(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
}

/**
 * Waits until the app's time series (`GET /apps/{id}/stats`, last 24 hours by hour, what the console's
 * chart reads when it opens) holds `totals`. The release cards read the daily rollup and the chart the
 * per-minute one: a test that waited for the cards alone could open a chart that was not there yet.
 */
export async function waitForSeries(
  api: OtaClient,
  appId: string,
  totals: { activations: number; errors: number },
): Promise<void> {
  await waitFor(`the app's series to hold ${JSON.stringify(totals)}`, async () => {
    const { series } = await api.apps.stats(appId, { interval: 'hour' });
    const sum = (key: 'activations' | 'errors') => series.reduce((n, p) => n + p[key], 0);
    return sum('activations') === totals.activations && sum('errors') === totals.errors;
  });
}
