import type {
  Http,
  NativeUpdateNotification,
  Package,
  RemotePackage,
} from 'code-push/script/acquisition-sdk.js';
import codePushSdk from 'code-push/script/acquisition-sdk.js';
import { expect } from 'vitest';
import type { TestContext } from '../../helpers/context.js';
import type { Headers } from '../releases/fixtures.js';

const { AcquisitionManager, AcquisitionStatus } = codePushSdk;

export { AcquisitionStatus };

const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'TRACE', 'OPTIONS', 'CONNECT', 'PATCH'];

/**
 * An HTTP requester over fetch, sending what react-native-code-push's request-fetch-adapter sends: JSON
 * accept and content type on every request, and the SDK version header.
 */
export const fetchRequester: Http.Requester = {
  request(
    verb: Http.Verb,
    url: string,
    bodyOrCallback: string | ((error: Error | null, response: Http.Response) => void),
    maybeCallback?: (error: Error | null, response: Http.Response) => void,
  ): void {
    const callback = (typeof bodyOrCallback === 'function' ? bodyOrCallback : maybeCallback)!;
    const body = typeof bodyOrCallback === 'string' ? bodyOrCallback : undefined;
    fetch(url, {
      method: VERBS[verb],
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'x-codepush-sdk-version': '4.2.3',
      },
      ...(body !== undefined ? { body } : {}),
    })
      .then(async (res) => callback(null, { statusCode: res.status, body: await res.text() }))
      .catch((err: Error) => callback(err, undefined as never));
  },
} as Http.Requester;

export type Answer = RemotePackage | NativeUpdateNotification | null;

/** One installed app as the acquisition SDK sees it: a binary version, a device id and a key. */
export class Device {
  readonly sdk: InstanceType<typeof AcquisitionManager>;

  constructor(
    serverUrl: string,
    readonly deploymentKey: string,
    readonly clientUniqueId: string,
    readonly appVersion = '1.0.0',
  ) {
    this.sdk = new AcquisitionManager(fetchRequester, {
      serverUrl,
      deploymentKey,
      clientUniqueId,
      appVersion,
    });
  }

  /** Checks as the app does: with the package it runs, or only its binary version. */
  check(current?: Partial<Package>): Promise<Answer> {
    return new Promise((resolve, reject) =>
      this.sdk.queryUpdateWithCurrentPackage(
        { appVersion: this.appVersion, ...current } as Package,
        (err, answer) => (err ? reject(err) : resolve((answer ?? null) as Answer)),
      ),
    );
  }

  reportDeploy(pkg: Package | undefined, status?: string, previous?: string): Promise<void> {
    return new Promise((resolve, reject) =>
      this.sdk.reportStatusDeploy(pkg, status, previous, undefined, (err) => (err ? reject(err) : resolve())),
    );
  }

  reportDownload(pkg: Package): Promise<void> {
    return new Promise((resolve, reject) =>
      this.sdk.reportStatusDownload(pkg, (err) => (err ? reject(err) : resolve())),
    );
  }
}

export function isPackage(answer: Answer): answer is RemotePackage {
  return answer !== null && 'downloadUrl' in answer;
}

/** The label of the package offered, or null for "up to date"; fails on a store-update notification. */
export async function offeredLabel(device: Device, current?: Partial<Package>): Promise<string | null> {
  const answer = await device.check(current);
  if (answer === null) return null;
  expect(isPackage(answer), JSON.stringify(answer)).toBe(true);
  return (answer as RemotePackage).label;
}

export async function createKey(
  ctx: TestContext,
  headers: Headers,
  appId: string,
  channel = 'production',
): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/apps/${appId}/deployment-keys`,
    headers,
    payload: { channel },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().key;
}
