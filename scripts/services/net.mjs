// Network probes: TCP connect, HTTP request, a minimal Redis (RESP) client, and polling until ready.
import http from 'node:http';
import https from 'node:https';
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

export function httpGet(url, { timeoutMs = 2000, method = 'GET', body, headers = {} } = {}) {
  return new Promise((resolve) => {
    const u = new URL(url);
    const lib = u.protocol === 'https:' ? https : http;
    const auth =
      u.username || u.password
        ? {
            authorization: `Basic ${Buffer.from(`${decodeURIComponent(u.username || 'default')}:${decodeURIComponent(u.password)}`).toString('base64')}`,
          }
        : {};
    const req = lib.request(
      {
        method,
        hostname: u.hostname,
        port: u.port || (u.protocol === 'https:' ? 443 : 80),
        path: `${u.pathname}${u.search}`,
        headers: { ...auth, ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode, body: data }));
        res.on('error', (e) => resolve({ status: 0, body: String(e.message) }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ status: 0, body: String(e.message), error: e }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Minimal RESP client: sends the commands in order, resolves with their replies (errors as {error}). */
export function redisCommands(host, port, commands, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port });
    let buf = Buffer.alloc(0);
    const replies = [];
    let finished = false;
    const finish = (err, v) => {
      if (finished) return;
      finished = true;
      sock.destroy();
      err ? reject(err) : resolve(v);
    };
    sock.setTimeout(timeoutMs, () => finish(new Error('timeout')));
    sock.once('error', (e) => finish(e));
    sock.once('close', () => finish(new Error(`connection closed after ${replies.length} replies`)));
    sock.once('connect', () => {
      const enc = (args) =>
        `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(String(a))}\r\n${a}\r\n`).join('')}`;
      sock.write(commands.map(enc).join(''));
    });
    const parse = (b, i) => {
      // returns [value, nextIndex] or null when incomplete
      const eol = b.indexOf('\r\n', i);
      if (eol < 0) return null;
      const type = String.fromCharCode(b[i]);
      const line = b.toString('utf8', i + 1, eol);
      const next = eol + 2;
      if (type === '+') return [line, next];
      if (type === '-') return [{ error: line }, next];
      if (type === ':') return [Number(line), next];
      if (type === '$') {
        const n = Number(line);
        if (n < 0) return [null, next];
        if (b.length < next + n + 2) return null;
        return [b.toString('utf8', next, next + n), next + n + 2];
      }
      if (type === '*') {
        const n = Number(line);
        if (n < 0) return [null, next];
        const arr = [];
        let j = next;
        for (let k = 0; k < n; k++) {
          const r = parse(b, j);
          if (!r) return null;
          arr.push(r[0]);
          j = r[1];
        }
        return [arr, j];
      }
      throw new Error(
        `not a Redis reply (${JSON.stringify(b.toString('utf8', i, Math.min(b.length, i + 40)))})`,
      );
    };
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      try {
        let i = 0;
        while (replies.length < commands.length) {
          const r = parse(buf, i);
          if (!r) break;
          replies.push(r[0]);
          i = r[1];
        }
        buf = buf.subarray(i);
        if (replies.length === commands.length) finish(null, replies);
      } catch (e) {
        finish(e);
      }
    });
  });
}

export async function waitFor(what, probe, timeoutMs = REACHABLE_TIMEOUT_MS, interval = 250) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last === true) return;
    } catch (e) {
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
