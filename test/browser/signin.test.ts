import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
});

afterAll(async () => {
  await h?.close();
});

describe('console: sign-in', () => {
  it('refuses a wrong password with the server message and stays on the form', async () => {
    const email = `wrong-${Date.now()}@example.com`;
    await h.client().auth.signin(email, 'the right password');
    const { page } = h;
    await page.goto(`${h.baseUrl}/`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/password|credentials/i);
    await h.screenshot('signin-wrong-password');
    expect(await page.getByRole('navigation', { name: 'Sections' }).count()).toBe(0);
  });

  it('signs a new account in, shows its workspace and hobby plan, and keeps the session over a reload', async () => {
    const { page } = h;
    const email = `owner-${Date.now()}@example.com`;
    await signInThroughUi(page, h.baseUrl, email, 'correct horse battery');

    await expect.poll(() => page.getByTestId('plan-badge').first().textContent()).toMatch(/hobby/i);
    expect(await page.locator('.who').textContent()).toBe(email);
    const switcher = page.getByRole('combobox', { name: 'Workspace' });
    expect(await switcher.locator('option').count()).toBe(1);
    expect(await switcher.locator('option').first().textContent()).toContain('owner');
    await h.screenshot('signin-signed-in');

    // A deep link, then a reload: the API answers the page path with the console, which keeps its session.
    await page.goto(`${h.baseUrl}/plan`);
    await page.getByRole('heading', { name: 'Plan', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('table').waitFor();
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers.join(' ')).toMatch(/Hobby.*Startup.*Enterprise/);
    const devices = page.getByRole('row', { name: /Distinct devices served/ });
    expect((await devices.getByRole('cell').allTextContents()).join('|')).toBe(
      'up to 100|up to 10,000|unlimited',
    );
    // The owner sees the upgrade actions.
    expect(await page.getByRole('button', { name: /Upgrade to Startup/ }).count()).toBe(1);
    await h.screenshot('plan-table');
  });

  it('is usable at phone width (390 px): no sideways scrolling, navigation reachable', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${h.baseUrl}/plan`);
      await page.getByRole('table').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // Every section's tab is on screen, none scrolled out of sight.
      const tabs = page.getByRole('navigation', { name: 'Sections' }).getByRole('link');
      expect(await tabs.count()).toBe(7); // Apps, Usage, Team, Webhooks, Activity, Plan, Account;
      for (const box of await tabs.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      await page.getByRole('link', { name: 'Apps', exact: true }).click();
      await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
      expect(page.url()).toBe(`${h.baseUrl}/apps`);
      await h.screenshot('phone-apps');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('signs out back to the form, the old tab state is gone, and the API refuses the token from then on', async () => {
    const { page } = h;
    const stored = await page.evaluate(() => sessionStorage.getItem('ota.console.session'));
    const { token } = JSON.parse(stored ?? '{}') as { token: string };
    expect((await h.client({ token }).auth.me()).user?.email).toMatch(/@example\.com$/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('ota.console.session'))).toBeNull();
    await expect(h.client({ token }).auth.me()).rejects.toMatchObject({ status: 401, code: 'token_revoked' });
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(h.problems).toEqual([]);
  });
});

describe('console: served by the API', () => {
  it('answers page paths with the console and unknown API paths with problem+json', async () => {
    const page = await fetch(`${h.baseUrl}/apps/some-app`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<div id="app">');
    const api = await fetch(`${h.baseUrl}/api/v1/no-such-route`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const long = await fetch(`${h.baseUrl}/api/v1/apps/${'a'.repeat(201)}`);
    expect(long.status).toBe(414);
    const health = await fetch(`${h.baseUrl}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});
