import { isIP } from 'node:net';

/**
 * Which peers are believed when they say, in X-Forwarded-For, whom they forward for (Fastify's
 * `trustProxy`, through proxy-addr):
 * - `false`: none; the client is the connection's peer (a deployment without a proxy in front);
 * - a list of the proxies' addresses and CIDR ranges, or the named ranges `loopback`, `linklocal` and
 *   `uniquelocal` (the private ranges): walking X-Forwarded-For from the right, hops from trusted
 *   addresses are believed, and the first address that is not trusted is the client.
 * `true` (believe everyone) is refused: a client could name any address it likes and escape every
 * per-address limit. So is a hop count: it cannot tell the proxy from a client that reaches the API
 * directly, and Fastify itself no longer believes any hop for it.
 */
export type TrustProxy = false | string;

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

export function parseTrustProxy(value: string): TrustProxy | { error: string } {
  const text = value.trim();
  if (text === 'false' || text === '') return false;
  if (text === 'true') {
    return {
      error:
        '"true" would believe any X-Forwarded-For a client sends; give the addresses of the proxies in ' +
        'front of the API (e.g. 10.0.0.0/8, or uniquelocal for any private address)',
    };
  }
  if (/^[0-9]+$/.test(text)) {
    return {
      error:
        'a hop count cannot tell the proxy from a client that reaches the API directly; give the ' +
        'addresses of the proxies (e.g. 10.0.0.0/8, or uniquelocal for any private address)',
    };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isProxyEntry(entry));
  if (bad.length > 0) {
    return {
      error: `not an address, a CIDR range or one of loopback, linklocal, uniquelocal: ${bad.join(', ')}`,
    };
  }
  return entries.join(',');
}

function isProxyEntry(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^[0-9]{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}
