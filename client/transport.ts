import { ApiError, apiErrorFrom, NetworkError } from './errors.js';
import {
  DEFAULT_RETRY,
  isRetryableNetworkFailure,
  isRetryableStatus,
  parseRetryAfter,
  type RetryPolicy,
  retryDelay,
} from './retry.js';

/** An identity token (`Authorization: Bearer`) or an API key (`X-API-Key`). */
export type Credentials = { token: string } | { apiKey: string };

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** Origin of the service (`https://ota.example.com`); `/api/v1` is added unless already there. */
  baseUrl: string;
  credentials?: Credentials | undefined;
  /** Defaults to the global fetch (Node 18+, browsers, React Native). */
  fetch?: FetchLike;
  retry?: Partial<RetryPolicy>;
  /** Per-attempt time limit in ms; 0 for none. Default 30 s. */
  timeoutMs?: number;
  /** Extra headers on every request (for example a User-Agent from Node). */
  headers?: Record<string, string>;
  /** Replaceable for tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

/** A body for a raw upload; a function is called again for each attempt so a stream can be re-opened. */
export type RawBody = BodyInit | Uint8Array | (() => BodyInit | Uint8Array);

export interface RequestOptions {
  query?: Query | undefined;
  json?: unknown;
  body?: RawBody;
  contentType?: string;
  /** `json` (default) parses the answer, `none` ignores it, `bytes` returns a Uint8Array. */
  expect?: 'json' | 'none' | 'bytes';
  /** Send without credentials (sign-in, device endpoints). */
  anonymous?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Overrides the retry count for this call. */
  retries?: number;
  headers?: Record<string, string>;
  /** Safe to send again after a network failure even though the method is POST. */
  idempotent?: boolean;
}

const PREFIX = '/api/v1';

export function apiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith(PREFIX) ? trimmed : trimmed + PREFIX;
}

/** Built by hand: React Native's URLSearchParams lacks parts of the standard. */
export function buildUrl(base: string, path: string, query?: Query): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null)
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return base + path + (pairs.length > 0 ? `?${pairs.join('&')}` : '');
}

/** Fetch with credentials, problem+json errors, a per-attempt timeout and retries on 429/503. */
export class Transport {
  readonly base: string;
  private credentials: Credentials | undefined;
  private readonly fetchFn: FetchLike;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly headers: Record<string, string>;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(options: TransportOptions) {
    this.base = apiBase(options.baseUrl);
    this.credentials = options.credentials;
    const globalFetch = globalThis.fetch?.bind(globalThis) as FetchLike | undefined;
    const fetchFn = options.fetch ?? globalFetch;
    if (!fetchFn) throw new Error('No fetch implementation: pass `fetch` in the options.');
    this.fetchFn = fetchFn;
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.headers = options.headers ?? {};
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  setCredentials(credentials: Credentials | undefined): void {
    this.credentials = credentials;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = buildUrl(this.base, path, options.query);
    const policy = options.retries === undefined ? this.policy : { ...this.policy, retries: options.retries };
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.attempt(method, url, options);
      } catch (err) {
        if (options.signal?.aborted) throw err;
        const failure = err instanceof NetworkError ? err : new NetworkError(url, err);
        const wait =
          options.idempotent || isRetryableNetworkFailure(method)
            ? retryDelay(policy, attempt, undefined, this.random)
            : undefined;
        if (wait === undefined) throw failure;
        await this.sleep(wait);
        continue;
      }
      if (response.ok) return (await this.readBody(response, method, options.expect ?? 'json')) as T;

      const text = await response.text().catch(() => '');
      const error = apiErrorFrom(
        response.status,
        response.statusText,
        response.headers.get('content-type') ?? '',
        text,
        method,
        url,
      );
      if (!isRetryableStatus(response.status)) throw error;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), this.now());
      const wait = retryDelay(policy, attempt, retryAfter, this.random);
      if (wait === undefined) throw error;
      await this.sleep(wait);
    }
  }

  private async attempt(method: string, url: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.headers,
      ...options.headers,
    };
    if (!options.anonymous && this.credentials) {
      if ('token' in this.credentials) headers.authorization = `Bearer ${this.credentials.token}`;
      else headers['x-api-key'] = this.credentials.apiKey;
    }
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/octet-stream';
      // Any Uint8Array is a valid fetch body at run time; TypeScript's DOM types only admit ArrayBuffer-backed ones.
      body = (typeof options.body === 'function' ? options.body() : options.body) as BodyInit;
    }
    if (options.expect === 'bytes') headers.accept = '*/*';

    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const init: RequestInit & { duplex?: 'half' } = { method, headers, body, signal: controller.signal };
    // A streamed request body needs half-duplex in Node's fetch (and in browsers that stream uploads).
    if (body && typeof (body as ReadableStream).getReader === 'function') init.duplex = 'half';
    try {
      return await this.fetchFn(url, init);
    } catch (err) {
      throw timedOut ? new NetworkError(url, err, true) : err;
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async readBody(
    response: Response,
    method: string,
    expect: 'json' | 'none' | 'bytes',
  ): Promise<unknown> {
    if (expect === 'bytes') return new Uint8Array(await response.arrayBuffer());
    const text = await response.text();
    if (expect === 'none' || text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiError({
        status: response.status,
        code: 'invalid_response',
        detail: `The server answered ${response.status} with a body that is not JSON.`,
        body: text.slice(0, 500),
        method,
        url: response.url,
      });
    }
  }
}
