import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtaClient } from '../../client/index.js';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

/** The release card marks Capacitor releases, and says which are signed and encrypted with a key. */
let h: ConsoleHarness;
let api: OtaClient;
let appId = '';

const KEY_ID = 'MIIBCgKCAQEAl+cqGoBz';

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, `capacitor-${Date.now()}@example.com`, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  const session = JSON.parse(raw ?? '{}') as { token: string };
  api = h.client({ token: session.token });
  appId = (await api.apps.create('Capacitor Shop')).id;
  const push = async (version: string, capacitor?: (sha256: string) => Record<string, string>) => {
    const bytes = randomBytes(256);
    const { sha256 } = await api.apps.uploadBundle(appId, bytes);
    expect(sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    await api.modules.push({
      app_id: appId,
      version,
      sha256,
      ...(capacitor ? { capacitor: capacitor(sha256) } : {}),
    } as Parameters<OtaClient['modules']['push']>[0]);
  };
  await push('1.0.0');
  await push('1.1.0', (sha256) => ({ checksum: sha256 }));
  await push('1.2.0', () => ({
    checksum: 'ab'.repeat(256),
    session_key: `${'A'.repeat(22)}==:${'B'.repeat(342)}==`,
    key_id: KEY_ID,
  }));
});

afterAll(async () => {
  await h?.close();
});

const card = (version: string) => h.page.locator(`[data-testid="release"][data-version="${version}"]`);

describe('console: Capacitor releases', () => {
  it('marks them on the release card, signed ones as such', async () => {
    await h.page.goto(`${h.baseUrl}/apps/${appId}`);
    await card('1.2.0').getByTestId('capacitor').waitFor();
    expect(await card('1.2.0').getByTestId('capacitor').textContent()).toBe('capacitor · signed');
    expect(await card('1.2.0').getByTestId('capacitor').getAttribute('title')).toContain(KEY_ID);
    expect(await card('1.1.0').getByTestId('capacitor').textContent()).toBe('capacitor');
    expect(await card('1.0.0').getByTestId('capacitor').count()).toBe(0);
    await h.screenshot('release-capacitor');
  });
});
