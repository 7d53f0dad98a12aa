import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, buildConnector, request } from 'undici';
import { isPublicAddress } from './address-policy.js';
import { type FailureKind, parseRetryAfter } from './retry-schedule.js';

/** How much of a response body is kept in the attempt log. */
export const RESPONSE_EXCERPT_BYTES = 4096;

export interface DeliveryClientOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** Extra trusted CA certificates (PEM), added to the system roots; tests trust their own receiver. */
  ca?: string | string[];
}

export interface DeliveryResult {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  kind: FailureKind | null;
  retryAfterMs?: number;
  durationMs: number;
}

class RefusedTargetError extends Error {
  readonly code = 'ETARGETREFUSED';
}

/**
 * Outbound POSTs of deliveries, through undici. Redirects are not followed (a 3xx is a failed attempt),
 * the whole attempt (connect, headers, body excerpt) is bounded by timeoutMs, and unless private targets
 * are allowed the connection may only reach public addresses: hostnames are resolved by a lookup that drops
 * non-public answers, literal addresses are checked before connecting, and the address actually connected
 * is checked again before a byte of the request is sent.
 */
export class DeliveryClient {
  private readonly agent: Agent;

  constructor(private readonly options: DeliveryClientOptions) {
    const extra = options.ca === undefined ? [] : Array.isArray(options.ca) ? options.ca : [options.ca];
    const connector = buildConnector({
      timeout: options.timeoutMs,
      // One secure context for every connection: passing `ca` would parse the whole root store per connection.
      ...(extra.length > 0
        ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...extra] }) }
        : {}),
      ...(options.allowPrivateTargets ? {} : { lookup: publicOnlyLookup }),
    });
    this.agent = new Agent({
      connect: (opts, callback) => {
        connector(opts, (err, socket) => {
          if (err || !socket) return callback(err ?? new Error('connection failed'), null);
          const remote = socket.remoteAddress ?? '';
          if (!options.allowPrivateTargets && !isPublicAddress(remote)) {
            socket.destroy();
            return callback(new RefusedTargetError(`connected address ${remote} is not public`), null);
          }
          callback(null, socket);
        });
      },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 10_000,
    });
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<DeliveryResult> {
    const started = performance.now();
    const done = (r: Omit<DeliveryResult, 'durationMs'>): DeliveryResult => ({
      ...r,
      durationMs: Math.round(performance.now() - started),
    });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return done({ ok: false, status: null, body: null, error: 'invalid URL', kind: 'refused_target' });
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (target.protocol !== 'https:') {
      return done({
        ok: false,
        status: null,
        body: null,
        error: 'only https is delivered',
        kind: 'refused_target',
      });
    }
    if (!this.options.allowPrivateTargets && isIP(host) !== 0 && !isPublicAddress(host)) {
      return done({
        ok: false,
        status: null,
        body: null,
        error: `refused: ${host} is not public`,
        kind: 'refused_target',
      });
    }
    // One timer per attempt, cleared when it ends: AbortSignal.timeout's timer would stay armed (and fire,
    // making an exception nobody reads) for every finished attempt, 30,000 of them live at 2,000/s.
    const controller = new AbortController();
    const signal = controller.signal;
    const timer = setTimeout(
      () => controller.abort(new DOMException('attempt timed out', 'TimeoutError')),
      this.options.timeoutMs,
    );
    try {
      const res = await request(target, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'user-agent': 'ota-webhooks/1', ...headers },
        dispatcher: this.agent,
        signal,
      });
      const excerpt = await readExcerpt(res.body);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return done({
        ok,
        status: res.statusCode,
        body: excerpt,
        error: ok ? null : `HTTP ${res.statusCode}`,
        kind: ok ? null : 'status',
        retryAfterMs: parseRetryAfter(res.headers['retry-after'], Date.now()),
      });
    } catch (err) {
      const kind = classify(err, signal);
      return done({ ok: false, status: null, body: null, error: describe(err, kind), kind });
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => {});
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    // Stop reading: a huge or endless response must not hold the attempt.
    if (size >= RESPONSE_EXCERPT_BYTES) break;
  }
  // Postgres text cannot hold NUL.
  return Buffer.concat(chunks)
    .subarray(0, RESPONSE_EXCERPT_BYTES)
    .toString('utf8')
    .replaceAll(String.fromCharCode(0), '');
}

const publicOnlyLookup: LookupFunction = (hostname, options: LookupOptions, callback) => {
  const opts = options;
  dnsLookup(hostname, { ...opts, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '');
    const allowed = addresses.filter((a) => isPublicAddress(a.address));
    if (allowed.length === 0) {
      return callback(
        new RefusedTargetError(`refused: ${hostname} resolves only to non-public addresses`),
        '',
      );
    }
    if (opts.all) return callback(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 5; i++) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

function classify(err: unknown, signal: AbortSignal): FailureKind {
  const chain = causes(err);
  if (
    chain.some((e) => e instanceof RefusedTargetError || (e as { code?: string }).code === 'ETARGETREFUSED')
  ) {
    return 'refused_target';
  }
  const timeoutCodes = [
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
    'UND_ERR_CONNECT_TIMEOUT',
    'ETIMEDOUT',
  ];
  if (
    signal.aborted ||
    chain.some(
      (e) =>
        (e as { name?: string }).name === 'TimeoutError' ||
        timeoutCodes.includes((e as { code?: string }).code ?? ''),
    )
  ) {
    return 'timeout';
  }
  return 'network';
}

function describe(err: unknown, kind: FailureKind): string {
  if (kind === 'timeout') return 'timeout: no complete answer in time';
  const chain = causes(err);
  const last = chain[chain.length - 1] as { message?: string; code?: string } | undefined;
  const first = chain[0] as { message?: string; code?: string } | undefined;
  const msg = [first?.code, first?.message, last !== first ? last?.message : undefined]
    .filter(Boolean)
    .join(': ');
  return msg.slice(0, 500) || 'request failed';
}
