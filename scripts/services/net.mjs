// TCP probes and polling, from Node's standard library: they run before node_modules exists (a port that
// is free or taken). What speaks a service's protocol uses its client library (redis.mjs, clickhouse.mjs,
// postgres.mjs), loaded only after ensureDependencies().
import net from 'node:net';
import { BootstrapError } from './log.mjs';
import { sleep } from './process.mjs';

const REACHABLE_TIMEOUT_MS = 60_000;

export function tcpOpen(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (v) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/**
 * Polls `probe` until it answers true. Any other answer (a string says why not) or error is retried until
 * the deadline; a BootstrapError (wrong password, unknown database) ends the wait at once.
 */
export async function waitFor(what, probe, timeoutMs = REACHABLE_TIMEOUT_MS, interval = 250) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last === true) return;
    } catch (e) {
      if (e instanceof BootstrapError) throw e;
      last = e.message;
    }
    if (Date.now() > deadline) {
      throw new BootstrapError(
        `${what}: not reachable after ${Math.round(timeoutMs / 1000)}s${typeof last === 'string' && last ? ` (${last})` : ''}`,
      );
    }
    await sleep(interval);
  }
}

export async function waitPortClosed(port, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await tcpOpen('127.0.0.1', port, 500))) return true;
    await sleep(100);
  }
  return false;
}

/** Host (without IPv6 brackets) and port of a service URL. */
export function urlHostPort(url, defaultPort) {
  const u = new URL(url);
  return { u, host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(u.port || defaultPort) };
}
