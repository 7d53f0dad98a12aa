import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtaClient } from '../../client/index.js';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

/**
 * Bytes anyone uploads must never run on the console's origin. A self-registered account uploads files
 * holding a script that reads the console's session and sends it away; a signed-in owner then opens the
 * links to them, or a page of the console comes to load one as a script (an injection the console's
 * `script-src 'self'` would let through).
 */
let h: ConsoleHarness;
let attacker: OtaClient;
let appId = '';
/** Requests the scripts made to hand over what they read. */
const stolen: string[] = [];

const STEAL = `fetch('/stolen?' + encodeURIComponent(String(sessionStorage.getItem('ota.console.session'))))`;
const PAYLOADS = {
  html: `<!doctype html><title>prize</title><script>${STEAL}</script>`,
  svg: `<svg xmlns="http://www.w3.org/2000/svg"><script><![CDATA[${STEAL}]]></script></svg>`,
  xhtml:
    '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>prize</title></head>' +
    `<body><script><![CDATA[${STEAL}]]></script></body></html>`,
  js: `${STEAL};`,
} as const;
type Form = keyof typeof PAYLOADS;
const FORMS = Object.keys(PAYLOADS) as Form[];

/** sha256 of each payload, uploaded by the attacker (each with a random tail, so this run's own). */
const uploaded = {} as Record<Form, string>;
/** The same payloads uploaded again (other tails) and named by no release. */
const unreleased = {} as Record<Form, string>;
/** The asset URLs the attacker's Expo release hands out, by form. */
const released = {} as Record<Form, string>;

beforeAll(async () => {
  h = await startConsole();
  h.page.on('request', (request) => {
    if (request.url().includes('/stolen')) stolen.push(request.url());
  });
  attacker = h.client();
  const signedIn = await attacker.auth.signin(`attacker-${Date.now()}@example.com`, 'correct horse battery');
  attacker.setCredentials({ token: signedIn.token });
  appId = (await attacker.apps.create('Free prizes')).id;
  const upload = async (form: Form) => {
    const bytes = Buffer.from(`${PAYLOADS[form]}\n<!-- ${randomBytes(8).toString('hex')} -->`);
    return (await attacker.apps.uploadBundle(appId, bytes)).sha256;
  };
  for (const form of FORMS) {
    uploaded[form] = await upload(form);
    unreleased[form] = await upload(form);
  }
  // An Expo release of the attacker's own app naming each file as an asset with that extension.
  const launch = (await attacker.apps.uploadBundle(appId, randomBytes(64))).sha256;
  await attacker.expo.push({
    app_id: appId,
    version: '1.0.0',
    runtime_version: '1.0.0',
    platforms: {
      ios: { bundle: launch, assets: FORMS.map((form) => ({ sha256: uploaded[form], ext: form })) },
    },
  });
  const manifest = await fetch(`${h.baseUrl}/api/v1/expo/${appId}/manifest`, {
    headers: {
      'expo-protocol-version': '1',
      'expo-platform': 'ios',
      'expo-runtime-version': '1.0.0',
      'eas-client-id': 'attacker-phone',
      accept: 'application/expo+json',
    },
  });
  expect(manifest.status).toBe(200);
  const { assets } = (await manifest.json()) as { assets: Array<{ url: string; fileExtension: string }> };
  for (const asset of assets) released[asset.fileExtension.slice(1) as Form] = asset.url;
  expect(Object.keys(released).sort()).toEqual([...FORMS].sort());

  // The victim: an owner of another workspace, signed in to the console in this tab.
  await signInThroughUi(h.page, h.baseUrl, `victim-${Date.now()}@example.com`, 'correct horse battery');
});

afterAll(async () => {
  await h?.close();
});

/**
 * Opens `url` in the signed-in tab as a click on a link would, and says how it ended: shown as a page, or
 * handed to the browser's downloads. Either way the console is loaded again for the next case.
 */
async function open(page: Page, url: string): Promise<'page' | 'download'> {
  const download = page.waitForEvent('download').catch(() => undefined);
  const shown = await page.goto(url).then(
    () => true,
    () => false,
  );
  let outcome: 'page' | 'download' = 'page';
  if (!shown) {
    const file = await download;
    expect(file, `${url} neither shown nor downloaded`).toBeDefined();
    await file?.cancel();
    outcome = 'download';
  }
  await page.goto(`${h.baseUrl}/apps`);
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  return outcome;
}

describe('uploaded bytes on the console origin', () => {
  it('serves no upload that no release names, nor a released one under another extension', async () => {
    for (const form of FORMS) {
      for (const file of [`${unreleased[form]}.${form}`, `${unreleased[form]}.html`, `${uploaded.js}.html`]) {
        const legacy = await fetch(`${h.baseUrl}/api/v1/expo/assets/${file}`);
        expect(legacy.status, `old path ${file}`).toBe(404);
        const scoped = await fetch(`${h.baseUrl}/api/v1/expo/${appId}/assets/${file}`);
        expect(scoped.status, file).toBe(404);
      }
    }
  });

  it.each(FORMS)(
    'never runs a %s file as a page when a signed-in owner opens its link',
    async (form) => {
      const urls = [released[form], `${h.baseUrl}/api/v1/expo/assets/${uploaded[form]}.${form}`];
      for (const url of urls) {
        const how = await open(h.page, url);
        // Whatever the browser did with it, the script never ran: nothing was sent anywhere.
        expect({ url, how, stolen }).toEqual({ url, how: 'download', stolen: [] });
      }
      // The owner is still signed in, with the same session.
      expect(await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'))).toContain('token');
    },
    60_000,
  );

  it('never runs an uploaded file as a script on a console page (strict MIME type checking)', async () => {
    for (const form of FORMS) {
      for (const url of [released[form], `${h.baseUrl}/api/v1/expo/assets/${uploaded[form]}.js`]) {
        const verdict = await h.page.evaluate(
          (src) =>
            new Promise<string>((resolve) => {
              const script = document.createElement('script');
              script.src = src;
              script.onload = () => resolve('ran');
              script.onerror = () => resolve('refused');
              document.head.append(script);
            }),
          url,
        );
        expect({ url, verdict }).toEqual({ url, verdict: 'refused' });
      }
    }
    expect(stolen).toEqual([]);
    // Chromium reports each refused script on the console; nothing else may have gone wrong.
    expect(h.problems.filter((p) => !p.includes('MIME type'))).toEqual([]);
  });
});
