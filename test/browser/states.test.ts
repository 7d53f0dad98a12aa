import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, `states-${Date.now()}@example.com`, 'correct horse battery');
});

afterAll(async () => {
  await h?.close();
});

const APPS = '**/api/v1/apps';

describe('console: loading and error states', () => {
  it('shows a loading state while a page waits for the API', async () => {
    const { page } = h;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(APPS, async (route: Route) => {
      await held;
      await route.continue();
    });
    try {
      await page.getByRole('link', { name: 'Usage', exact: true }).click();
      await page.getByRole('link', { name: 'Apps', exact: true }).click();
      const status = page.getByRole('status').filter({ hasText: 'Loading apps' });
      await status.waitFor();
      await h.screenshot('state-loading');
      release();
      await page.getByText('No apps yet.').waitFor();
      expect(await status.count()).toBe(0);
    } finally {
      release();
      await page.unroute(APPS);
    }
  });

  it('shows the server error with "Try again", which loads the page without a reload', async () => {
    const { page } = h;
    await page.route(APPS, (route: Route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: 'urn:ota:problem:internal_error',
          title: 'Internal Server Error',
          status: 500,
          code: 'internal_error',
          detail: 'An unexpected error occurred; it has been logged.',
        }),
      }),
    );
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'An unexpected error occurred' });
    await alert.waitFor();
    await h.screenshot('state-error');
    await page.unroute(APPS);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('No apps yet.').waitFor();
    expect(await alert.count()).toBe(0);
  });

  it('returns to the sign-in form with a message when the session ends', async () => {
    const { page } = h;
    // A token that no longer verifies: the next call answers 401.
    await page.evaluate(() => {
      const raw = sessionStorage.getItem('ota.console.session') ?? '{}';
      sessionStorage.setItem('ota.console.session', JSON.stringify({ ...JSON.parse(raw), token: 'expired' }));
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('Your session has ended; sign in again.').waitFor();
    expect(h.problems).toEqual([]);
  });
});
