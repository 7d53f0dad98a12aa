import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { makeDevCertificate } from '../../scripts/dev-certificate.mjs';
import { waitFor as waitUntil } from './wait.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** The signature checked out against the secret registered for the path. */
  verified: boolean;
  status: number;
}

export type Reply =
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }
  | 'hang';

/**
 * A webhook receiver as a customer would write one: it reads the raw body bytes, recomputes the HMAC with
 * the endpoint's secret and compares in constant time, answering 401 to a bad signature.
 */
export class HttpsReceiver {
  readonly received: Received[] = [];
  readonly cert: string;
  private readonly secrets = new Map<string, string>();
  private readonly scripts = new Map<string, Reply[]>();
  private readonly hanging = new Set<() => void>();
  private server!: Server;
  port = 0;
  /** Answer given when no script is left for a path (fault tests make answers slow, or fail first tries). */
  fallback: Exclude<Reply, 'hang'> | ((headers: IncomingHttpHeaders) => Exclude<Reply, 'hang'>) = {
    status: 200,
  };

  constructor() {
    const { key, cert } = makeDevCertificate();
    this.cert = cert;
    this.server = createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const raw = Buffer.concat(chunks);
        const secret = this.secrets.get(path);
        const verified = secret !== undefined && verify(secret, raw, req.headers['x-service-signature']);
        const reply: Reply = !verified
          ? { status: 401 }
          : (this.scripts.get(path)?.shift() ??
            (typeof this.fallback === 'function' ? this.fallback(req.headers) : this.fallback));
        this.received.push({
          path,
          headers: req.headers,
          raw,
          verified,
          status: reply === 'hang' ? 0 : reply.status,
        });
        if (reply === 'hang') {
          const end = () => res.destroy();
          this.hanging.add(end);
          res.on('close', () => this.hanging.delete(end));
          return;
        }
        const answer = () => {
          if (res.destroyed) return; // the receiver went down meanwhile
          res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
          res.end(reply.body ?? (verified ? 'ok' : 'bad signature'));
        };
        if (reply.delayMs) setTimeout(answer, reply.delayMs);
        else answer();
      });
    });
  }

  /** Listens on a free port, or again on the port it had before stop(). */
  async start(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The receiver goes down: open connections are cut and new ones refused until start() again. */
  async stop(): Promise<void> {
    for (const end of this.hanging) end();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  url(path: string, host = '127.0.0.1'): string {
    return `https://${host}:${this.port}${path}`;
  }

  /** The secret the receiver verifies requests to `path` with. */
  expect(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** Replies for the next requests to `path`, in order; afterwards 200. */
  script(path: string, ...replies: Reply[]): void {
    this.scripts.set(path, replies);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    if (this.server.listening) await this.stop();
  }
}

export function verify(secret: string, raw: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Polls until `check` returns a value (not undefined/false), or fails after `ms`. */
export function waitFor<T>(check: () => T | Promise<T>, ms = 10_000, what = 'condition') {
  return waitUntil(what, check, { timeoutMs: ms, intervalMs: 20 });
}
