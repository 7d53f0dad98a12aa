import { randomBytes } from 'node:crypto';

export interface Answer {
  status: number;
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field, as JSON
  body: any;
  headers: Headers;
}

/** One request to a listening API over a real connection; JSON in and out. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; raw?: Buffer } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: BodyInit | undefined;
  if (options.raw) {
    headers['content-type'] = 'application/octet-stream';
    payload = new Uint8Array(options.raw);
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(options.body);
  }
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers,
    body: payload,
    signal: AbortSignal.timeout(30_000),
  });
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  return {
    status: res.status,
    type,
    body: type.includes('json') && text ? JSON.parse(text) : text,
    headers: res.headers,
  };
}

/** Throws with the answer in the message unless the status is the one expected. */
// biome-ignore lint/suspicious/noExplicitAny: as Answer.body
export function expectStatus(answer: Answer, status: number): any {
  if (answer.status !== status)
    throw new Error(`expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export interface Owner {
  workspaceId: string;
  headers: { authorization: string };
}

/** Signs up a new account (and its hobby workspace) on a listening API. */
export async function signUpAt(base: string): Promise<Owner> {
  const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const body = expectStatus(
    await call(base, 'POST', '/auth/signin', { body: { email, password: 'correct horse battery' } }),
    200,
  );
  return { workspaceId: body.workspace_id, headers: { authorization: `Bearer ${body.token}` } };
}

/** An app with one uploaded bundle, ready for pushes. */
export async function appWithBundle(base: string, owner: Owner): Promise<{ appId: string; sha256: string }> {
  const app = expectStatus(
    await call(base, 'POST', '/apps', { headers: owner.headers, body: { name: 'Fault app' } }),
    201,
  );
  const bundle = expectStatus(
    await call(base, 'PUT', `/apps/${app.id}/bundles`, {
      headers: owner.headers,
      raw: randomBytes(2048),
    }),
    201,
  );
  return { appId: app.id, sha256: bundle.sha256 };
}

/** Registers a webhook and returns its id and signing secret. */
export async function registerWebhook(
  base: string,
  owner: Owner,
  url: string,
  events: string[],
): Promise<{ id: string; secret: string }> {
  return expectStatus(
    await call(base, 'POST', `/workspaces/${owner.workspaceId}/webhooks`, {
      headers: owner.headers,
      body: { url, events },
    }),
    201,
  );
}

/** Pushes a release of the app's bundle (production, 100 %) and returns it; fails on anything but 201. */
export async function pushRelease(
  base: string,
  owner: Owner,
  app: { appId: string; sha256: string },
  version: string,
): Promise<{ id: string; created_at: string }> {
  return expectStatus(
    await call(base, 'POST', '/modules', {
      headers: owner.headers,
      body: { app_id: app.appId, version, sha256: app.sha256 },
    }),
    201,
  );
}
